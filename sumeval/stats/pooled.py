"""Pooled (global-level) correlations in every bootstrap resample, without expanding resamples.

The points (one per (input, system) pair) fall into groups -- their document when inputs are
resampled, their system when systems are, each point its own group when both are -- and resample
b repeats every point of group g ``counts[b, g]`` times. Every sum the coefficients need is a sum
over groups of per-group (or per group x tie group) totals weighted by the counts, so the cost per
resample is O(n_groups) or O(n_groups^2), not O(n_points^2). The results equal scipy on each
expanded resample (Pearson, Spearman on mid-ranks, Kendall's tau-b / tau-c: see
:mod:`sumeval.stats.rows`).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from sumeval.stats import checks
from sumeval.stats.coefficients import pair_rows, pair_value
from sumeval.stats.rows import kendall_finish
from sumeval.stats.scaling import unit_scale

__all__ = ["pooled_boot"]

# None picks the faster of the group concordance matrix and a scipy call per resample (see
# _kendall_path); tests force "matrix" or "loop".
_KENDALL_PATH: str | None = None


def _tie_groups(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Tie-group id of each element of x (n,), in increasing order of value; and the count."""
    _, gid = np.unique(x, return_inverse=True)
    return gid.reshape(-1), int(gid.max()) + 1 if gid.size else 0


def _tie_totals(group: np.ndarray, gid: np.ndarray, n_ties: int,
                counts: np.ndarray) -> np.ndarray:
    """T[b, t] = number of elements of tie group t in resample b; shape (B, n_ties)."""
    from scipy import sparse

    per_group = sparse.csr_matrix((np.ones(group.size), (group, gid)),
                                  shape=(counts.shape[1], n_ties))  # (n_groups, n_ties)
    return np.asarray((per_group.T @ counts.T).T)


def _constant_in_resample(x: np.ndarray, group: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """True where x (n,) takes a single value (or none) over the groups drawn in resample b."""
    n_groups = counts.shape[1]
    lo = np.full(n_groups, np.inf)
    hi = np.full(n_groups, -np.inf)
    order = np.argsort(group, kind="stable")
    present, starts = np.unique(group[order], return_index=True)
    lo[present] = np.minimum.reduceat(x[order], starts)
    hi[present] = np.maximum.reduceat(x[order], starts)
    drawn = counts > 0
    return ~(np.where(drawn, hi, -np.inf).max(axis=1) > np.where(drawn, lo, np.inf).min(axis=1))


def pooled_boot(x: np.ndarray, y: np.ndarray, group: np.ndarray, counts: np.ndarray,
                methods: Sequence[str], kendall_path: str | None = None) -> dict[str, np.ndarray]:
    """Each method's pooled coefficient in each resample.

    Args:
        x, y: shape (n,), complete pairs.
        group: shape (n,), group code of each pair, in [0, n_groups) (its document, its system,
            or ``arange(n)``: see the module docstring).
        counts: shape (B, n_groups), how often each group is drawn in resample b.
        methods: registered coefficient names (:mod:`sumeval.stats.coefficients`); those with
            a closed form here (:data:`_KERNELS`) use it, any other its callable on each expanded
            resample.
        kendall_path: ``"matrix"``, ``"loop"`` or None (:func:`_kendall_path` decides).

    Returns:
        ``{method: shape (B,)}``, equal to the coefficient on the expanded resample
        ``np.repeat(x, counts[b, group])``, ``np.repeat(y, counts[b, group])``.
    """
    B, n_groups = counts.shape
    if x.size == 0:
        return {m: np.full(B, np.nan) for m in methods}
    ranked = any(_KERNELS.get(m, (None, False))[1] for m in methods)
    kendall = any(_KERNELS.get(m, (None,))[0] is _kendall for m in methods)
    gx, ngx = _tie_groups(x) if ranked else (None, 0)
    gy, ngy = _tie_groups(y) if ranked else (None, 0)
    path = (kendall_path or _kendall_path(x.size, n_groups, B)) if kendall else None
    A = _group_concordance(x, y, group, n_groups) if path == "matrix" else None
    # resamples in chunks: the rank arrays are (chunk, n) and (chunk, n_groups)
    step = max(1, checks.BLOCK_ELEMENTS // max(x.size, 1))
    parts = [_pooled_chunk(_Chunk(x, y, group, counts[s:s + step], gx, ngx, gy, ngy, A), methods)
             for s in range(0, B, step)]
    return {m: np.concatenate([p[m] for p in parts]) for m in methods}


class _Chunk:
    """One chunk of resamples of :func:`pooled_boot`: the pairs, the draws (B, n_groups), points
    drawn per resample ``W`` (B,), and what the rank kernels share -- the tie groups of x and y and
    their totals per resample ``Tx``, ``Ty`` (B, n_ties) -- and the group concordance matrix A
    (None: scipy per resample), computed once by the caller."""

    def __init__(self, x, y, group, counts, gx, ngx, gy, ngy, A):
        self.x, self.y, self.group, self.counts, self.A = x, y, group, counts, A
        self.gx, self.gy = gx, gy
        self.n_groups = counts.shape[1]
        self.W = counts @ np.bincount(group, minlength=self.n_groups).astype(np.float64)  # (B,) points drawn
        if gx is not None:
            self.Tx = _tie_totals(group, gx, ngx, counts)  # (B, ngx) pairs per tie group
            self.Ty = _tie_totals(group, gy, ngy, counts)

    def per_group(self, v: np.ndarray) -> np.ndarray:
        return self.counts @ np.bincount(self.group, weights=v, minlength=self.n_groups)


def _pearson(c: _Chunk) -> dict[str, np.ndarray]:
    # centring on the overall mean keeps the one-pass sums well conditioned; the exact
    # power-of-two scaling keeps them finite and normal (sumeval.stats.scaling)
    xs, ys = unit_scale(c.x), unit_scale(c.y)
    xc, yc = xs - xs.mean(), ys - ys.mean()
    sx, sy, W = c.per_group(xc), c.per_group(yc), c.W
    sxx = c.per_group(xc * xc) - sx * sx / W
    syy = c.per_group(yc * yc) - sy * sy / W
    sxy = c.per_group(xc * yc) - sx * sy / W
    return {"pearson": sxy / np.sqrt(sxx * syy)}


def _spearman(c: _Chunk) -> dict[str, np.ndarray]:
    # mid-rank of each tie group in each resample; the mean mid-rank is (W + 1) / 2
    Tx, Ty, W = c.Tx, c.Ty, c.W
    mx = np.cumsum(Tx, axis=1) - Tx + (Tx + 1) / 2
    my = np.cumsum(Ty, axis=1) - Ty + (Ty + 1) / 2
    centre = W * ((W + 1) / 2) ** 2
    sxx = (Tx * mx * mx).sum(axis=1) - centre
    syy = (Ty * my * my).sum(axis=1) - centre
    sxy = np.einsum("bn,bn,bn->b", c.counts[:, c.group], mx[:, c.gx], my[:, c.gy]) - centre
    return {"spearman": sxy / np.sqrt(sxx * syy)}


def _kendall(c: _Chunk) -> dict[str, np.ndarray]:
    if c.A is None:
        tb, tc = _kendall_boot_loop(c.x, c.y, c.counts[:, c.group])
        return {"kendall_b": tb, "kendall_c": tc}
    Tx, Ty = c.Tx, c.Ty
    S = np.einsum("bd,bd->b", _exact_product(c.counts, c.A), c.counts) / 2
    tx = (Tx * (Tx - 1) / 2).sum(axis=1)
    ty = (Ty * (Ty - 1) / 2).sum(axis=1)
    m = np.minimum((Tx > 0).sum(axis=1), (Ty > 0).sum(axis=1)).astype(np.float64)
    tb, tc = kendall_finish(S, c.W, tx, ty, m)
    return {"kendall_b": tb, "kendall_c": tc}


#: the closed forms, by coefficient: (kernel, needs the tie groups); a kernel may give several
#: coefficients at once (tau-b and tau-c)
_KERNELS = {"pearson": (_pearson, False), "spearman": (_spearman, True),
            "kendall_b": (_kendall, True), "kendall_c": (_kendall, True)}


def _pooled_chunk(c: _Chunk, methods: Sequence[str]) -> dict[str, np.ndarray]:
    """:func:`pooled_boot` for a chunk of resamples."""
    undefined = (_constant_in_resample(c.x, c.group, c.counts)
                 | _constant_in_resample(c.y, c.group, c.counts) | (c.W < 2))
    out: dict[str, np.ndarray] = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        for m in methods:
            if m in out:
                continue
            kernel = _KERNELS.get(m)
            if kernel is None:  # no closed form: the callable on each expanded resample
                out[m] = pair_rows(np.broadcast_to(c.x, (c.counts.shape[0], c.x.size)),
                                   np.broadcast_to(c.y, (c.counts.shape[0], c.y.size)),
                                   c.counts[:, c.group], m)
            else:
                out.update(kernel[0](c))
    for m in methods:
        out[m][undefined] = np.nan
        out[m] = np.clip(out[m], -1.0, 1.0)
    return {m: out[m] for m in methods}


def _exact_product(counts: np.ndarray, A: np.ndarray) -> np.ndarray:
    """counts @ A for integer-valued counts (B, g) and A (g, g), in float32 when every partial
    sum is an integer below 2^24 (then float32 is exact, and twice as fast), else float64."""
    bound = float(counts.sum(axis=1).max(initial=0.0)) * float(np.abs(A).max(initial=0.0))
    if bound < 2.0 ** 24:
        return (counts.astype(np.float32) @ A.astype(np.float32)).astype(np.float64)
    return counts @ A


def _kendall_path(n: int, n_groups: int, n_resamples: int) -> str:
    """'matrix' (group concordance matrix, ~ n^2 + B n_groups^2 operations) or 'loop' (scipy on
    each expanded resample, ~ B n log n), whichever is estimated to be faster (constants
    measured with documents as the groups)."""
    if _KENDALL_PATH is not None:
        return _KENDALL_PATH
    matrix = 10e-9 * n * n + 1e-9 * n_resamples * n_groups * n_groups
    loop = 600e-9 * n_resamples * n
    return "matrix" if matrix <= loop else "loop"


def _group_concordance(x: np.ndarray, y: np.ndarray, group: np.ndarray,
                       n_groups: int) -> np.ndarray:
    """A[d, e] = sum over points i in group d, j in group e of sign(x_i - x_j) * sign(y_i - y_j);
    x, y, group (n,) -> (n_groups, n_groups), symmetric.

    In a resample drawing group d c_d times, concordant - discordant = c^T A c / 2 (pairs of
    copies of one point are ties, sign 0). Rows are processed in blocks to bound memory; when
    every point is its own group, A is the matrix of sign products itself (float32)."""
    if n_groups == group.size and np.array_equal(group, np.arange(group.size)):
        from sumeval.stats.grouped import pair_signs, sign_products

        return sign_products(x[None], x[None], pair_signs(y[None], y[None]))[0]
    order = np.argsort(group, kind="stable")
    x, y, group = x[order], y[order], group[order]
    present, starts = np.unique(group, return_index=True)
    ends = np.append(starts[1:], group.size)
    A = np.zeros((n_groups, n_groups))
    target = max(1, checks.BLOCK_ELEMENTS // group.size)  # rows per block
    k = 0
    while k < present.size:
        k_end = k + 1
        while k_end < present.size and ends[k_end] - starts[k] <= target:
            k_end += 1
        r0, r1 = starts[k], ends[k_end - 1]
        a = np.sign(x[r0:r1, None] - x[None, :]) * np.sign(y[r0:r1, None] - y[None, :])
        by_col_group = np.add.reduceat(a, starts, axis=1)  # (rows, n_present)
        block = np.add.reduceat(by_col_group, starts[k:k_end] - r0, axis=0)  # (groups, n_present)
        A[np.ix_(present[k:k_end], present)] = block
        k = k_end
    return A


def _kendall_boot_loop(x: np.ndarray, y: np.ndarray,
                       w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """tau-b and tau-c per resample by scipy on the expanded multiset; w (B, n) integer
    multiplicities."""
    counts = w.astype(np.int64)
    tb = np.empty(w.shape[0])
    tc = np.empty(w.shape[0])
    for b in range(w.shape[0]):
        xb, yb = np.repeat(x, counts[b]), np.repeat(y, counts[b])
        tb[b] = pair_value(xb, yb, "kendall_b")
        tc[b] = pair_value(xb, yb, "kendall_c")
    return tb, tc
