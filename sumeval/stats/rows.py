"""The batched kernels of the built-in coefficients: one coefficient per row of two (R, n) arrays
(registered in :mod:`sumeval.stats.coefficients`, which also holds the one-sample reference),
optionally with integer weights: a weight w_i counts point i w_i times, so a weighted row equals scipy on the expanded
sample ``np.repeat(x, w)``, ``np.repeat(y, w)`` (how a bootstrap resample that draws a system or
a document twice is evaluated). Pearson uses weighted sums, Spearman weighted mid-ranks, Kendall
the concordance counts of Kendall (1945, "The treatment of ties in ranking problems",
Biometrika 33): tau-b = S / sqrt((n0 - t_x)(n0 - t_y)) and Stuart's tau-c = 2 S / (n^2 (m-1)/m),
with S = concordant - discordant pairs, n0 = n(n-1)/2, t_x / t_y the pairs tied in x / y and
m = min(distinct x values, distinct y values) -- scipy's ``kendalltau(variant="b" / "c")``.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from sumeval.errors import InputError
from sumeval.stats import checks
from sumeval.stats.checks import is_constant
from sumeval.stats.scaling import unit_scale

__all__ = ["kendall_tau_rows", "pearson_rows", "ranks_rows", "distinct_rows", "kendall_finish"]


def pearson_rows(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted Pearson per row.

    Args:
        x, y: shape (R, n); values where ``w == 0`` may be NaN.
        w: shape (R, n), non-negative weights (0/1 for a mask; integers for multiplicities).

    Returns:
        shape (R,): the coefficient per row; NaN where a side is constant over the
        positive-weight points (including rows with fewer than 2 of them). Each row is first
        scaled by a power of two (:func:`~sumeval.stats.scaling.unit_scale`): exact, so the
        sums neither overflow nor underflow anywhere in the finite range.
    """
    pos = w > 0
    x0 = unit_scale(np.where(pos, x, 0.0), axis=1)
    y0 = unit_scale(np.where(pos, y, 0.0), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        sw = w.sum(axis=1)
        dx = x0 - (np.einsum("rn,rn->r", w, x0) / sw)[:, None]
        dy = y0 - (np.einsum("rn,rn->r", w, y0) / sw)[:, None]
        wdx = w * dx
        sxx = np.einsum("rn,rn->r", wdx, dx)
        sxy = np.einsum("rn,rn->r", wdx, dy)
        syy = np.einsum("rn,rn->r", w * dy, dy)
        r = sxy / np.sqrt(sxx * syy)
    r[_constant_rows(x0, pos) | _constant_rows(y0, pos)] = np.nan
    return np.clip(r, -1.0, 1.0)


def _constant_rows(x: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """True where row i of x (R, n) takes one value (or none) where pos (R, n) is True."""
    lo = np.where(pos, x, np.inf).min(axis=1)
    hi = np.where(pos, x, -np.inf).max(axis=1)
    return ~(hi > lo)


def ranks_rows(x: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """Mid-ranks per row in the expanded sample (point i counted w_i times).

    Args:
        x: shape (R, n); NaN marks an excluded point.
        w: shape (R, n) non-negative integer weights, or None for 1 on every non-NaN point.

    Returns:
        shape (R, n): rank_i = sum_j w_j [x_j < x_i] + (sum_j w_j [x_j == x_i] + 1) / 2, the
        mean of the ranks the w_i copies of point i take among the expanded sample (scipy's
        ``rankdata(method="average")`` for unit weights); NaN where x is NaN or w is 0.
    """
    nan = np.isnan(x)
    w = (~nan).astype(np.float64) if w is None else np.where(nan, 0.0, w)
    R, n = x.shape
    order = np.argsort(np.where(nan, np.inf, x), axis=1, kind="stable")
    xs = np.take_along_axis(x, order, axis=1)
    ws = np.take_along_axis(w, order, axis=1)
    new = np.ones((R, n), dtype=bool)
    new[:, 1:] = xs[:, 1:] != xs[:, :-1]  # NaN != NaN: each excluded point its own group
    gid = np.cumsum(new, axis=1) - 1 + (n * np.arange(R))[:, None]
    totals = np.bincount(gid.ravel(), weights=ws.ravel(), minlength=R * n).reshape(R, n)
    before = np.cumsum(totals, axis=1) - totals
    flat_gid = gid.ravel()
    sorted_ranks = (before.ravel()[flat_gid] + (totals.ravel()[flat_gid] + 1) / 2).reshape(R, n)
    ranks = np.empty((R, n))
    np.put_along_axis(ranks, order, sorted_ranks, axis=1)
    ranks[nan | (w <= 0)] = np.nan
    return ranks


def distinct_rows(x: np.ndarray) -> np.ndarray:
    """Number of distinct non-NaN values per row; shape (R, n) -> (R,)."""
    s = np.sort(x, axis=1)  # NaN last
    nv = (~np.isnan(x)).sum(axis=1)
    return (nv > 0).astype(np.int64) + (np.diff(s, axis=1) > 0).sum(axis=1)


def kendall_tau_rows(x: np.ndarray, y: np.ndarray,
                     weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Kendall's tau-b and tau-c per row, vectorised over rows.

    Each row is one sample; the pairs where x or y is NaN are excluded, as by
    :func:`correlation`. Formulas: Kendall (1945) tau-b and Stuart's tau-c (module docstring),
    equal to scipy's ``kendalltau(x[i], y[i], variant="b" / "c")`` over each row's complete
    pairs up to rounding. Cost: O(R n^2) in blocks of bounded memory; rows longer than 2,000
    are handed to scipy one by one.

    Args:
        x, y: shape (R, n); NaN marks an excluded point.
        weights: optional shape (R, n) non-negative integer multiplicities (point i of row r
            counted ``weights[r, i]`` times, as in a bootstrap resample); None for 1.

    Returns:
        (tau_b, tau_c), each shape (R,); NaN for a row with fewer than 2 points or a constant
        side.
    """
    x = np.array(x, dtype=np.float64)
    y = np.array(y, dtype=np.float64)
    if x.ndim != 2 or x.shape != y.shape:
        raise InputError(f"x and y must be 2-D arrays of one shape (R, n), got {x.shape} and "
                         f"{y.shape}")
    nan = np.isnan(x) | np.isnan(y)
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64)
        if weights.shape != x.shape:
            raise InputError(f"weights must have the shape of x {x.shape}, got {weights.shape}")
        nan |= ~(weights > 0)
        weights = np.where(nan, 0.0, weights)
    x[nan] = np.nan
    y[nan] = np.nan
    R, n = x.shape
    if n > 2000:  # the pair arrays would be large: one scipy call per row
        return _kendall_rows_scipy(x, y, nan, weights)
    S = np.zeros(R)
    tx = np.zeros(R)
    ty = np.zeros(R)
    i0, i1 = np.triu_indices(n, 1)
    chunk = max(1, checks.BLOCK_ELEMENTS // max(i0.size, 1))
    for s in range(0, R, chunk):
        xs, ys = x[s:s + chunk], y[s:s + chunk]
        dx = np.sign(xs[:, i0] - xs[:, i1])  # NaN where a pair is excluded
        dy = np.sign(ys[:, i0] - ys[:, i1])
        if weights is None:
            S[s:s + chunk] = np.nansum(dx * dy, axis=1)
            tx[s:s + chunk] = (dx == 0).sum(axis=1)
            ty[s:s + chunk] = (dy == 0).sum(axis=1)
        else:
            ws = weights[s:s + chunk]
            wp = ws[:, i0] * ws[:, i1]
            S[s:s + chunk] = np.nansum(dx * dy * wp, axis=1)
            tx[s:s + chunk] = ((dx == 0) * wp).sum(axis=1)
            ty[s:s + chunk] = ((dy == 0) * wp).sum(axis=1)
    if weights is None:
        nv = (~nan).sum(axis=1).astype(np.float64)
    else:
        # the copies of one point are tied with each other in x and in y
        self_ties = (weights * (weights - 1) / 2).sum(axis=1)
        tx += self_ties
        ty += self_ties
        nv = weights.sum(axis=1)
    m = np.minimum(distinct_rows(x), distinct_rows(y)).astype(np.float64)
    return kendall_finish(S, nv, tx, ty, m)


def _kendall_rows_scipy(x: np.ndarray, y: np.ndarray, nan: np.ndarray,
                        weights: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    R = x.shape[0]
    tb, tc = np.empty(R), np.empty(R)
    for i in range(R):
        keep = ~nan[i]
        xi, yi = x[i][keep], y[i][keep]
        if weights is not None:
            reps = weights[i][keep].astype(np.int64)
            xi, yi = np.repeat(xi, reps), np.repeat(yi, reps)
        tb[i], tc[i] = _kendall_scipy(xi, yi, "b"), _kendall_scipy(xi, yi, "c")
    return tb, tc


def _kendall_scipy(x: np.ndarray, y: np.ndarray, variant: str) -> float:
    """scipy's tau-b or tau-c of complete data; NaN if n < 2 or a side is constant."""
    if x.size < 2 or is_constant(x) or is_constant(y):
        return math.nan
    from scipy import stats as ss

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(ss.kendalltau(x, y, variant=variant).statistic)


def kendall_finish(S: np.ndarray, nv: np.ndarray, tx: np.ndarray, ty: np.ndarray,
                   m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """tau-b and tau-c from S = concordant - discordant, nv observations, tx / ty pairs tied in
    x / y, m = min(distinct x values, distinct y values); all shape (R,)."""
    n0 = nv * (nv - 1) / 2
    undefined = (nv < 2) | (tx >= n0) | (ty >= n0)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau_b = S / np.sqrt((n0 - tx) * (n0 - ty))
        tau_c = 2 * S / (nv ** 2 * (m - 1) / m)
    tau_b[undefined] = np.nan
    tau_c[undefined] = np.nan
    return np.clip(tau_b, -1.0, 1.0), np.clip(tau_c, -1.0, 1.0)
