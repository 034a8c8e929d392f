"""Correlations between metric and human scores, their bootstrap intervals, paired tests, and the
human-evaluation analysis of paper 002 (inter-rater Pearson, Krippendorff's alpha, R^2).

Small pure functions over arrays and tidy frames. Randomness is passed in as ``seed`` (an ``int``
or a ``numpy.random.Generator``); nothing here touches global random state.

Conventions
-----------
- **Methods**: ``"pearson"``, ``"spearman"``, ``"kendall_b"``, ``"kendall_c"`` (scipy's
  ``pearsonr``, ``spearmanr``, ``kendalltau(variant="b" / "c")``). Paper 000 reports Spearman and
  tau-c, paper 001 Pearson, Spearman and tau-b.
- **Levels** (a frame has one row per (document, system) pair):

  - ``"summary"``: pooled summary level (paper 000): one list of every (document, system) pair,
    metric against human; ``n`` = pairs used.
  - ``"document"``: per-document summary level: within each document, the correlation across its
    systems; the mean of those over documents. Documents whose correlation is undefined (fewer
    than 2 usable pairs, or a constant column within the document) are skipped; ``n`` = documents
    used, ``n_skipped`` = documents skipped.
  - ``"system"``: system level (paper 001): each system's mean over documents, then the
    correlation across systems; ``n`` = systems used.

- **Missing values**: a pair (row) where the metric or the human score is NaN is excluded, at
  every level (at the system level the means are taken over the remaining rows). The frame-level
  functions report what was used (``n``) and what was excluded (``n_skipped``). Infinite values
  are refused (:class:`~sumeval.errors.InputError`): replace them with NaN to exclude them.
- **Constant input**: a correlation with a constant side (or fewer than 2 pairs) is NaN, silently
  (no scipy warning).
- **Direction**: every correlation assumes higher is better on both sides. For a metric where
  lower is better (ESTIME alarms, Jensen-Shannon ...) the caller passes the negated column.
- **Bootstrap**: intervals always resample *documents* (with replacement; ``n_docs`` draws per
  resample), at every level: the pooled level takes every pair of each drawn document, the
  document level averages the per-document correlations of the drawn documents, the system level
  recomputes each system's mean over the drawn documents and correlates those. Intervals are
  percentile intervals over the resamples whose correlation is defined. The same ``seed`` draws
  the same documents in :func:`correlate` and :func:`paired_test` for frames with the same
  documents (in the same order of first appearance), so intervals and tests line up.
"""
from __future__ import annotations

import contextlib
import math
import warnings
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = [
    "METHODS",
    "LEVELS",
    "correlation",
    "correlate",
    "paired_test",
    "inter_rater_pearson",
    "krippendorff_alpha",
    "r_squared",
]

METHODS: tuple[str, ...] = ("pearson", "spearman", "kendall_b", "kendall_c")
LEVELS: tuple[str, ...] = ("summary", "document", "system")
KRIPPENDORFF_LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")


# Pooled (summary-level) Kendall bootstrap: None picks the faster of the document concordance
# matrix and a scipy call per resample (see _kendall_path); tests force "matrix" or "loop".
_KENDALL_PATH: str | None = None
# Largest temporary pair array (elements) built at once by the Kendall code.
_BLOCK_ELEMENTS = 2_000_000


# --------------------------------------------------------------------------------------------
# validation helpers
# --------------------------------------------------------------------------------------------
def _check_method(method: str) -> str:
    if method not in METHODS:
        raise InputError(
            f"unknown correlation method {method!r}; choose one of {', '.join(METHODS)}"
        )
    return method


def _check_level(level: str) -> str:
    if level not in LEVELS:
        raise InputError(
            f"unknown correlation level {level!r}; choose one of {', '.join(LEVELS)}"
        )
    return level


def _names(value: str | Iterable[str], what: str) -> list[str]:
    """A single name or a sequence of names -> non-empty list of names."""
    names = [value] if isinstance(value, str) else list(value)
    if not names:
        raise InputError(f"no {what} given; pass at least one name")
    return names


def _check_columns(frame: pd.DataFrame, columns: Sequence[str], role: str) -> None:
    for col in columns:
        if col not in frame.columns:
            raise InputError(
                f"column {col!r} ({role}) is not in the frame; its columns are "
                f"{[str(c) for c in frame.columns]}"
            )


def _float_array(values: object, name: str) -> np.ndarray:
    """``values`` as a 1-D float64 array; NaN allowed, infinities and non-numbers refused."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(
            f"{name} is not numeric ({exc}); pass numbers, with NaN for missing values"
        ) from None
    if arr.ndim != 1:
        raise InputError(f"{name} must be 1-D, got shape {arr.shape}")
    bad = np.isinf(arr)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{name} has {int(bad.sum())} infinite value(s) (first at position {first}); "
            f"replace them with NaN to exclude those pairs, or with finite values"
        )
    return arr


def _frame_column(frame: pd.DataFrame, col: str) -> np.ndarray:
    return _float_array(frame[col].to_numpy(), f"column {col!r}")


def _check_boot(n_boot: int, ci: float) -> None:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 0:
        raise InputError(f"n_boot must be an integer >= 0 (0: no interval), got {n_boot!r}")
    if not (0.0 < float(ci) < 1.0):
        raise InputError(f"ci must be a coverage strictly between 0 and 1 (e.g. 0.95), got {ci!r}")


def _is_constant(x: np.ndarray) -> bool:
    return x.size == 0 or bool(np.max(x) == np.min(x))


# --------------------------------------------------------------------------------------------
# one correlation (the reference: scipy)
# --------------------------------------------------------------------------------------------
def correlation(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                method: str) -> float:
    """Correlation of two paired samples.

    Args:
        x, y: shape (n,), paired values; NaN marks a missing value.
        method: ``"pearson"``, ``"spearman"``, ``"kendall_b"`` or ``"kendall_c"``.

    Returns:
        The coefficient in [-1, 1], computed by scipy over the pairs where neither value is NaN;
        NaN when fewer than 2 pairs remain or either side is constant over them.
    """
    _check_method(method)
    xa = _float_array(x, "x")
    ya = _float_array(y, "y")
    if xa.shape != ya.shape:
        raise InputError(f"x and y must have the same length, got {xa.size} and {ya.size}")
    keep = ~(np.isnan(xa) | np.isnan(ya))
    return _scipy_corr(xa[keep], ya[keep], method)


def _scipy_corr(x: np.ndarray, y: np.ndarray, method: str) -> float:
    """scipy's coefficient for complete data x, y (n,); NaN if n < 2 or a side is constant."""
    if x.size < 2 or _is_constant(x) or _is_constant(y):
        return math.nan
    from scipy import stats as ss

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # near-constant input warnings; the value is still returned
        if method == "pearson":
            value = ss.pearsonr(x, y).statistic
        elif method == "spearman":
            value = ss.spearmanr(x, y).statistic
        elif method == "kendall_b":
            value = ss.kendalltau(x, y, variant="b").statistic
        else:
            value = ss.kendalltau(x, y, variant="c").statistic
    return float(value)


# --------------------------------------------------------------------------------------------
# vectorised correlations: many rows at once (per document, per resample)
# --------------------------------------------------------------------------------------------
def _pearson_rows(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted Pearson per row.

    Args:
        x, y: shape (R, n); values where ``w == 0`` may be NaN.
        w: shape (R, n), non-negative weights (0/1 for a mask; integers for multiplicities).

    Returns:
        shape (R,): the coefficient per row; NaN where a side is constant over the
        positive-weight points (including rows with fewer than 2 of them).
    """
    pos = w > 0
    x0 = np.where(pos, x, 0.0)
    y0 = np.where(pos, y, 0.0)
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


def _ranks_rows(x: np.ndarray) -> np.ndarray:
    """Mid-ranks per row among the non-NaN entries; shape (R, n) -> (R, n), NaN kept."""
    from scipy.stats import rankdata

    nan = np.isnan(x)
    r = rankdata(np.where(nan, np.inf, x), method="average", axis=1)
    r[nan] = np.nan
    return r


def _distinct_rows(x: np.ndarray) -> np.ndarray:
    """Number of distinct non-NaN values per row; shape (R, n) -> (R,)."""
    s = np.sort(x, axis=1)  # NaN last
    nv = (~np.isnan(x)).sum(axis=1)
    return (nv > 0).astype(np.int64) + (np.diff(s, axis=1) > 0).sum(axis=1)


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kendall tau-b and tau-c per row, over the pairs where both entries are non-NaN.

    Args:
        x, y: shape (R, n); NaN in either marks an excluded pair.

    Returns:
        (tau_b, tau_c), each shape (R,), as scipy's ``kendalltau`` over each row's complete
        pairs (NaN with fewer than 2 pairs or a constant side).
    """
    x = np.array(x, dtype=np.float64)
    y = np.array(y, dtype=np.float64)
    nan = np.isnan(x) | np.isnan(y)
    x[nan] = np.nan
    y[nan] = np.nan
    R, n = x.shape
    S = np.zeros(R)
    tx = np.zeros(R)
    ty = np.zeros(R)
    if n > 2000:  # the pair arrays would be large: one scipy call per row
        tb = np.array([_scipy_corr(x[i][~nan[i]], y[i][~nan[i]], "kendall_b") for i in range(R)])
        tc = np.array([_scipy_corr(x[i][~nan[i]], y[i][~nan[i]], "kendall_c") for i in range(R)])
        return tb, tc
    i0, i1 = np.triu_indices(n, 1)
    chunk = max(1, _BLOCK_ELEMENTS // max(i0.size, 1))
    for s in range(0, R, chunk):
        xs, ys = x[s:s + chunk], y[s:s + chunk]
        dx = np.sign(xs[:, i0] - xs[:, i1])  # NaN where a pair is excluded
        dy = np.sign(ys[:, i0] - ys[:, i1])
        S[s:s + chunk] = np.nansum(dx * dy, axis=1)
        tx[s:s + chunk] = (dx == 0).sum(axis=1)
        ty[s:s + chunk] = (dy == 0).sum(axis=1)
    nv = (~nan).sum(axis=1).astype(np.float64)
    m = np.minimum(_distinct_rows(x), _distinct_rows(y)).astype(np.float64)
    return _kendall_finish(S, nv, tx, ty, m)


def _kendall_finish(S: np.ndarray, nv: np.ndarray, tx: np.ndarray, ty: np.ndarray,
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


def _corr_rows(x: np.ndarray, y: np.ndarray, methods: Sequence[str]) -> dict[str, np.ndarray]:
    """Correlation per row for each method, over the pairs where both entries are non-NaN.

    Args:
        x, y: shape (R, n).
        methods: names from :data:`METHODS`.

    Returns:
        ``{method: shape (R,)}``.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    nan = np.isnan(x) | np.isnan(y)
    w = (~nan).astype(np.float64)
    out: dict[str, np.ndarray] = {}
    if "pearson" in methods:
        out["pearson"] = _pearson_rows(x, y, w)
    if "spearman" in methods:
        out["spearman"] = _pearson_rows(_ranks_rows(np.where(nan, np.nan, x)),
                                        _ranks_rows(np.where(nan, np.nan, y)), w)
    if "kendall_b" in methods or "kendall_c" in methods:
        tb, tc = _kendall_rows(x, y)
        out["kendall_b"], out["kendall_c"] = tb, tc
    return {m: out[m] for m in methods}


# --------------------------------------------------------------------------------------------
# pooled (summary-level) correlations under document resampling
# --------------------------------------------------------------------------------------------
# A resample repeats every pair of document d counts[b, d] times. Every sum the coefficients need
# is a sum over documents of per-document (or per document x tie group) totals weighted by
# counts[b, d], so the cost per resample is O(n_docs) or O(n_docs^2), not O(n_pairs^2).
def _tie_groups(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Tie-group id of each element of x (n,), in increasing order of value; and the count."""
    _, gid = np.unique(x, return_inverse=True)
    return gid.reshape(-1), int(gid.max()) + 1 if gid.size else 0


def _group_totals(doc: np.ndarray, gid: np.ndarray, n_groups: int,
                  counts: np.ndarray) -> np.ndarray:
    """T[b, g] = number of elements of tie group g in resample b; shape (B, n_groups)."""
    from scipy import sparse

    per_doc = sparse.csr_matrix((np.ones(doc.size), (doc, gid)),
                                shape=(counts.shape[1], n_groups))  # (n_docs, n_groups)
    return np.asarray((per_doc.T @ counts.T).T)


def _constant_in_resample(x: np.ndarray, doc: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """True where x (n,) takes a single value (or none) over the documents drawn in resample b."""
    n_docs = counts.shape[1]
    lo = np.full(n_docs, np.inf)
    hi = np.full(n_docs, -np.inf)
    np.minimum.at(lo, doc, x)
    np.maximum.at(hi, doc, x)
    drawn = counts > 0
    return ~(np.where(drawn, hi, -np.inf).max(axis=1) > np.where(drawn, lo, np.inf).min(axis=1))


def _pooled_boot(x: np.ndarray, y: np.ndarray, doc: np.ndarray, counts: np.ndarray,
                 methods: Sequence[str]) -> dict[str, np.ndarray]:
    """Each method's pooled coefficient in each document resample.

    Args:
        x, y: shape (n,), complete pairs.
        doc: shape (n,), document code of each pair, in [0, n_docs).
        counts: shape (B, n_docs), how often each document is drawn in resample b.

    Returns:
        ``{method: shape (B,)}``, equal to scipy on the expanded resample
        ``np.repeat(x, counts[b, doc])``, ``np.repeat(y, counts[b, doc])``.
    """
    B, n_docs = counts.shape
    if x.size == 0:
        return {m: np.full(B, np.nan) for m in methods}
    ranked = any(m in methods for m in ("spearman", "kendall_b", "kendall_c"))
    kendall = "kendall_b" in methods or "kendall_c" in methods
    gx, ngx = _tie_groups(x) if ranked else (None, 0)
    gy, ngy = _tie_groups(y) if ranked else (None, 0)
    path = _kendall_path(x.size, n_docs, B) if kendall else None
    A = _doc_concordance(x, y, doc, n_docs) if path == "matrix" else None
    # resamples in chunks: the rank arrays are (chunk, n) and (chunk, n_groups)
    step = max(1, _BLOCK_ELEMENTS // max(x.size, 1))
    parts = [_pooled_chunk(x, y, doc, counts[s:s + step], methods, gx, ngx, gy, ngy, A)
             for s in range(0, B, step)]
    return {m: np.concatenate([p[m] for p in parts]) for m in methods}


def _pooled_chunk(x: np.ndarray, y: np.ndarray, doc: np.ndarray, counts: np.ndarray,
                  methods: Sequence[str], gx: np.ndarray | None, ngx: int,
                  gy: np.ndarray | None, ngy: int,
                  A: np.ndarray | None) -> dict[str, np.ndarray]:
    """:func:`_pooled_boot` for a chunk of resamples; tie groups and the document concordance
    matrix A (None: scipy per resample) are computed once by the caller."""
    n_docs = counts.shape[1]
    W = counts @ np.bincount(doc, minlength=n_docs).astype(np.float64)  # (B,) pairs per resample
    undefined = (_constant_in_resample(x, doc, counts) | _constant_in_resample(y, doc, counts)
                 | (W < 2))
    out: dict[str, np.ndarray] = {}

    def per_doc(v: np.ndarray) -> np.ndarray:
        return counts @ np.bincount(doc, weights=v, minlength=n_docs)

    with np.errstate(invalid="ignore", divide="ignore"):
        if "pearson" in methods:
            # centring on the overall mean keeps the one-pass sums well conditioned
            xc, yc = x - x.mean(), y - y.mean()
            sx, sy = per_doc(xc), per_doc(yc)
            sxx = per_doc(xc * xc) - sx * sx / W
            syy = per_doc(yc * yc) - sy * sy / W
            sxy = per_doc(xc * yc) - sx * sy / W
            out["pearson"] = sxy / np.sqrt(sxx * syy)
        if gx is not None:
            Tx = _group_totals(doc, gx, ngx, counts)  # (B, ngx) pairs per tie group
            Ty = _group_totals(doc, gy, ngy, counts)
        if "spearman" in methods:
            # mid-rank of each tie group in each resample; the mean mid-rank is (W + 1) / 2
            mx = np.cumsum(Tx, axis=1) - Tx + (Tx + 1) / 2
            my = np.cumsum(Ty, axis=1) - Ty + (Ty + 1) / 2
            centre = W * ((W + 1) / 2) ** 2
            sxx = (Tx * mx * mx).sum(axis=1) - centre
            syy = (Ty * my * my).sum(axis=1) - centre
            sxy = np.einsum("bn,bn,bn->b", counts[:, doc], mx[:, gx], my[:, gy]) - centre
            out["spearman"] = sxy / np.sqrt(sxx * syy)
        if "kendall_b" in methods or "kendall_c" in methods:
            if A is not None:
                S = np.einsum("bd,bd->b", counts @ A, counts) / 2
                tx = (Tx * (Tx - 1) / 2).sum(axis=1)
                ty = (Ty * (Ty - 1) / 2).sum(axis=1)
                m = np.minimum((Tx > 0).sum(axis=1), (Ty > 0).sum(axis=1)).astype(np.float64)
                tb, tc = _kendall_finish(S, W, tx, ty, m)
            else:
                tb, tc = _kendall_boot_loop(x, y, counts[:, doc])
            out["kendall_b"], out["kendall_c"] = tb, tc
    for m in methods:
        out[m][undefined] = np.nan
        out[m] = np.clip(out[m], -1.0, 1.0)
    return {m: out[m] for m in methods}


def _kendall_path(n: int, n_docs: int, n_boot: int) -> str:
    """'matrix' (document concordance matrix, ~ n^2 + B n_docs^2 operations) or 'loop' (scipy on
    each expanded resample, ~ B n log n), whichever is estimated to be faster."""
    if _KENDALL_PATH is not None:
        return _KENDALL_PATH
    matrix = 10e-9 * n * n + 1e-9 * n_boot * n_docs * n_docs
    loop = 600e-9 * n_boot * n
    return "matrix" if matrix <= loop else "loop"


def _doc_concordance(x: np.ndarray, y: np.ndarray, doc: np.ndarray, n_docs: int) -> np.ndarray:
    """A[d, e] = sum over pairs i in document d, j in document e of
    sign(x_i - x_j) * sign(y_i - y_j); x, y, doc (n,) -> (n_docs, n_docs), symmetric.

    In a resample drawing document d c_d times, concordant - discordant = c^T A c / 2 (pairs of
    copies of one pair are ties, sign 0). Rows are processed in blocks to bound memory."""
    order = np.argsort(doc, kind="stable")
    x, y, doc = x[order], y[order], doc[order]
    present, starts = np.unique(doc, return_index=True)
    ends = np.append(starts[1:], doc.size)
    A = np.zeros((n_docs, n_docs))
    target = max(1, _BLOCK_ELEMENTS // doc.size)  # rows per block
    k = 0
    while k < present.size:
        k_end = k + 1
        while k_end < present.size and ends[k_end] - starts[k] <= target:
            k_end += 1
        r0, r1 = starts[k], ends[k_end - 1]
        a = np.sign(x[r0:r1, None] - x[None, :]) * np.sign(y[r0:r1, None] - y[None, :])
        by_col_doc = np.add.reduceat(a, starts, axis=1)  # (rows, n_present)
        block = np.add.reduceat(by_col_doc, starts[k:k_end] - r0, axis=0)  # (docs, n_present)
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
        tb[b] = _scipy_corr(xb, yb, "kendall_b")
        tc[b] = _scipy_corr(xb, yb, "kendall_c")
    return tb, tc


# --------------------------------------------------------------------------------------------
# frames -> arrays
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Layout:
    """Where each row of a score frame sits: its document and (if needed) its system."""

    doc: np.ndarray  # (N,) int document code, 0..n_docs-1 in order of first appearance
    n_docs: int
    sys: np.ndarray | None  # (N,) int system code, or None when no level needs systems
    n_sys: int

    def grid(self, values: np.ndarray) -> np.ndarray:
        """Row values (N,) -> (n_docs, n_systems) grid; NaN for absent (doc, system) pairs."""
        g = np.full((self.n_docs, self.n_sys), np.nan)
        g[self.doc, self.sys] = values
        return g


def _layout(frame: pd.DataFrame, doc_col: str, system_col: str, need_systems: bool) -> _Layout:
    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    if len(frame) == 0:
        raise InputError("the frame has no rows; nothing to correlate")
    _check_columns(frame, [doc_col], "documents, doc_col")
    doc, docs = pd.factorize(frame[doc_col], use_na_sentinel=True)
    if (doc < 0).any():
        first = frame.index[int(np.flatnonzero(doc < 0)[0])]
        raise InputError(
            f"column {doc_col!r} has {int((doc < 0).sum())} missing document id(s) "
            f"(first at row {first!r}); every row needs a document id"
        )
    if not need_systems:
        return _Layout(doc=doc, n_docs=len(docs), sys=None, n_sys=0)
    _check_columns(frame, [system_col], "systems, system_col")
    sys, systems = pd.factorize(frame[system_col], use_na_sentinel=True)
    if (sys < 0).any():
        first = frame.index[int(np.flatnonzero(sys < 0)[0])]
        raise InputError(
            f"column {system_col!r} has {int((sys < 0).sum())} missing system id(s) "
            f"(first at row {first!r}); every row needs a system id"
        )
    key = doc.astype(np.int64) * len(systems) + sys
    _, first_idx, counts = np.unique(key, return_index=True, return_counts=True)
    if (counts > 1).any():
        k = int(np.flatnonzero(counts > 1)[0])
        row = int(first_idx[k])
        raise InputError(
            f"({doc_col}={docs[doc[row]]!r}, {system_col}={systems[sys[row]]!r}) occurs "
            f"{int(counts[k])} times; the document and system levels need one row per "
            f"(document, system) pair: aggregate or drop the duplicates first"
        )
    return _Layout(doc=doc, n_docs=len(docs), sys=sys, n_sys=len(systems))


def _resample_counts(n_docs: int, n_boot: int, seed: int | np.random.Generator) -> np.ndarray:
    """How often each document is drawn in each bootstrap resample.

    Returns: shape (n_boot, n_docs) float64 counts; each row sums to n_docs.
    """
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n_docs, size=(n_boot, n_docs))
    flat = (idx + n_docs * np.arange(n_boot)[:, None]).ravel()
    return np.bincount(flat, minlength=n_boot * n_docs).reshape(n_boot, n_docs).astype(np.float64)


@dataclass
class _Estimate:
    value: float
    n: int
    n_skipped: int
    boot: np.ndarray | None  # (B,) or None


def _estimate(lay: _Layout, x: np.ndarray, y: np.ndarray, level: str, methods: Sequence[str],
              counts: np.ndarray | None) -> dict[str, _Estimate]:
    """Point estimate, usage counts and bootstrap replicates for one (x, y) pair of columns.

    Args:
        lay: the frame's layout.
        x, y: shape (N,), metric and human per row; NaN excludes the row.
        level: one of :data:`LEVELS`.
        methods: names from :data:`METHODS`.
        counts: shape (B, n_docs) document draw counts, or None for no bootstrap.
    """
    keep = ~(np.isnan(x) | np.isnan(y))
    if level == "summary":
        xv, yv = x[keep], y[keep]
        n = int(keep.sum())
        boots = (_pooled_boot(xv, yv, lay.doc[keep], counts, methods)
                 if counts is not None else {})
        return {m: _Estimate(_scipy_corr(xv, yv, m), n, int(x.size - n), boots.get(m))
                for m in methods}
    gx = lay.grid(np.where(keep, x, np.nan))
    gy = lay.grid(np.where(keep, y, np.nan))
    if level == "document":
        per_doc = _corr_rows(gx, gy, methods)
        out = {}
        for m in methods:
            ok = np.isfinite(per_doc[m])
            value = float(per_doc[m][ok].mean()) if ok.any() else math.nan
            boot = _doc_mean_boot(per_doc[m], counts) if counts is not None else None
            out[m] = _Estimate(value, int(ok.sum()), int(lay.n_docs - ok.sum()), boot)
        return out
    # system level
    mx, my = _system_means(gx, gy, np.ones((1, lay.n_docs)))
    used = int(np.isfinite(mx[0]).sum())
    boots = {}
    if counts is not None:
        bx, by = _system_means(gx, gy, counts)
        boots = _corr_rows(bx, by, methods)
    keep_sys = np.isfinite(mx[0])
    return {m: _Estimate(_scipy_corr(mx[0][keep_sys], my[0][keep_sys], m), used,
                         int(lay.n_sys - used), boots.get(m)) for m in methods}


def _system_means(gx: np.ndarray, gy: np.ndarray,
                  counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each system's mean over the drawn documents.

    Args:
        gx, gy: shape (n_docs, n_systems), NaN where a (document, system) pair is excluded
            (the same cells in both).
        counts: shape (B, n_docs), how often each document is drawn.

    Returns:
        two arrays of shape (B, n_systems); NaN for a system with no drawn usable pair.
    """
    present = (~np.isnan(gx)).astype(np.float64)
    k = counts @ present
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = (counts @ np.nan_to_num(gx)) / k
        my = (counts @ np.nan_to_num(gy)) / k
    mx[k == 0] = np.nan
    my[k == 0] = np.nan
    return mx, my


def _doc_mean_boot(per_doc: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mean of the defined per-document values over each resample's drawn documents.

    per_doc (n_docs,) with NaN for skipped documents, counts (B, n_docs) -> (B,)."""
    ok = np.isfinite(per_doc)
    k = counts @ ok.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (counts @ np.where(ok, per_doc, 0.0)) / k
    out[k == 0] = np.nan
    return out


def _percentile_interval(boot: np.ndarray | None, ci: float) -> tuple[float, float]:
    if boot is None:
        return math.nan, math.nan
    finite = boot[np.isfinite(boot)]
    if finite.size == 0:
        return math.nan, math.nan
    lo, hi = np.quantile(finite, [(1 - ci) / 2, (1 + ci) / 2])
    return float(lo), float(hi)


def _small_blas():
    """Context in which BLAS runs on one thread: the products here are small (resamples x
    documents x systems), and extra BLAS threads only contend, badly so on a busy machine.
    Uses threadpoolctl (installed with scikit-learn) when available; otherwise does nothing."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _progress(iterable, total: int, progress: bool, desc: str):
    if not progress:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc)


# --------------------------------------------------------------------------------------------
# frame-level API
# --------------------------------------------------------------------------------------------
def correlate(frame: pd.DataFrame, metrics: str | Sequence[str], humans: str | Sequence[str], *,
              level: str | Sequence[str], methods: str | Sequence[str] = METHODS,
              doc_col: str = "doc_id", system_col: str = "system", n_boot: int = 1000,
              ci: float = 0.95, seed: int | np.random.Generator = 0,
              progress: bool = False) -> pd.DataFrame:
    """Correlations of metric columns with human columns, with document-bootstrap intervals.

    Args:
        frame: one row per (document, system) pair, with ``doc_col``, ``system_col`` (needed by
            the document and system levels only), the metric and the human columns (numbers,
            NaN for missing). Lower-is-better metrics must be passed negated.
        metrics, humans: a column name or a sequence of them.
        level: ``"summary"`` (pooled), ``"document"`` (per-document, averaged) or ``"system"``,
            or a sequence of these.
        methods: names from :data:`METHODS` (default: all four).
        doc_col, system_col: the document and system id columns.
        n_boot: number of bootstrap resamples of the documents; 0 for no interval.
        ci: coverage of the percentile interval.
        seed: ``int`` or ``numpy.random.Generator``; one set of ``n_boot`` document resamples
            is drawn from it and shared by every metric, human, level and method of the call.
        progress: show a progress bar over (metric, human) pairs.

    Returns:
        A tidy frame, one row per (metric, human, level, method), in that nesting order, with
        columns ``metric, human, level, method, value, ci_low, ci_high, n, n_skipped``:
        ``n`` = pairs (summary level), documents (document level) or systems (system level)
        used; ``n_skipped`` = the ones excluded (pairs with a NaN; documents whose correlation
        is undefined; systems without a usable pair). ``ci_low`` / ``ci_high`` are NaN when
        ``n_boot == 0`` or no resample gives a defined correlation. ``frame.attrs`` records
        ``n_boot``, ``ci``, ``seed`` (when an int) and ``resample="document"``.
    """
    metric_names = _names(metrics, "metric columns")
    human_names = _names(humans, "human columns")
    levels = [_check_level(lv) for lv in _names(level, "levels")]
    method_names = [_check_method(m) for m in _names(methods, "methods")]
    _check_boot(n_boot, ci)
    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    _check_columns(frame, metric_names, "metric")
    _check_columns(frame, human_names, "human")
    lay = _layout(frame, doc_col, system_col, need_systems=any(lv != "summary" for lv in levels))
    counts = _resample_counts(lay.n_docs, int(n_boot), seed) if n_boot > 0 else None
    metric_values = {c: _frame_column(frame, c) for c in metric_names}
    human_values = {c: _frame_column(frame, c) for c in human_names}

    rows = []
    pairs = [(mc, hc) for mc in metric_names for hc in human_names]
    with _small_blas():
        for mc, hc in _progress(pairs, len(pairs), progress, "correlate"):
            for lv in levels:
                est = _estimate(lay, metric_values[mc], human_values[hc], lv, method_names,
                                counts)
                for m in method_names:
                    e = est[m]
                    lo, hi = _percentile_interval(e.boot, ci)
                    rows.append({"metric": mc, "human": hc, "level": lv, "method": m,
                                 "value": e.value, "ci_low": lo, "ci_high": hi,
                                 "n": e.n, "n_skipped": e.n_skipped})
    out = pd.DataFrame(rows, columns=["metric", "human", "level", "method", "value", "ci_low",
                                      "ci_high", "n", "n_skipped"])
    out.attrs.update({"n_boot": int(n_boot), "ci": float(ci), "resample": "document"})
    if isinstance(seed, (int, np.integer)):
        out.attrs["seed"] = int(seed)
    return out


def paired_test(frame: pd.DataFrame, metric_a: str, metric_b: str, human: str, *, level: str,
                method: str, n_boot: int = 1000, ci: float = 0.95,
                seed: int | np.random.Generator = 0, doc_col: str = "doc_id",
                system_col: str = "system") -> dict[str, object]:
    """Is metric A's correlation with ``human`` different from metric B's?

    Both correlations are computed on the same rows (those where A, B and the human score are all
    present) and, at the document level, averaged over the same documents (those where both are
    defined). Each bootstrap resample draws documents with replacement (seeded: the same draws as
    :func:`correlate` with the same seed and documents) and recomputes both correlations on it,
    so the difference keeps their pairing.

    Test: two-sided percentile-bootstrap test of H0: diff = 0. With d*_1..d*_B the defined
    resampled differences, ``p = min(1, 2 * min(1 + #{d* <= 0}, 1 + #{d* >= 0}) / (B + 1))``
    (twice the smaller tail beyond 0, with the +1 of Davison & Hinkley 1997 so that p >= 2/(B+1)
    rather than 0). It is the inversion of the percentile interval: p < 1 - ci roughly when the
    ``ci`` interval excludes 0.

    Args:
        frame: as for :func:`correlate`.
        metric_a, metric_b, human: column names.
        level: one of :data:`LEVELS`; method: one of :data:`METHODS`.
        n_boot: resamples (0: only the point estimates; interval and p are NaN).
        ci: coverage of the percentile interval of the difference.
        seed: ``int`` or ``numpy.random.Generator``.

    Returns:
        dict with ``metric_a, metric_b, human, level, method, corr_a, corr_b, diff`` (corr_a -
        corr_b), ``ci_low, ci_high`` (interval of diff), ``p_value``, ``n`` (pairs / documents /
        systems used), ``n_skipped``, ``n_boot`` (resamples asked) and ``n_boot_used`` (resamples
        where both correlations are defined).
    """
    _check_level(level)
    _check_method(method)
    _check_boot(n_boot, ci)
    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    _check_columns(frame, [metric_a, metric_b], "metric")
    _check_columns(frame, [human], "human")
    lay = _layout(frame, doc_col, system_col, need_systems=level != "summary")
    xa, xb, y = (_frame_column(frame, c) for c in (metric_a, metric_b, human))
    common = ~(np.isnan(xa) | np.isnan(xb) | np.isnan(y))
    xa = np.where(common, xa, np.nan)
    xb = np.where(common, xb, np.nan)
    counts = _resample_counts(lay.n_docs, int(n_boot), seed) if n_boot > 0 else None

    with _small_blas():
        if level == "document":
            ga, gb, gy = (lay.grid(v) for v in (xa, xb, np.where(common, y, np.nan)))
            ra = _corr_rows(ga, gy, [method])[method]
            rb = _corr_rows(gb, gy, [method])[method]
            ok = np.isfinite(ra) & np.isfinite(rb)
            corr_a = float(ra[ok].mean()) if ok.any() else math.nan
            corr_b = float(rb[ok].mean()) if ok.any() else math.nan
            n, n_skipped = int(ok.sum()), int(lay.n_docs - ok.sum())
            boot = (_doc_mean_boot(np.where(ok, ra - rb, np.nan), counts)
                    if counts is not None else None)
        else:
            ea = _estimate(lay, xa, y, level, [method], counts)[method]
            eb = _estimate(lay, xb, y, level, [method], counts)[method]
            corr_a, corr_b, n, n_skipped = ea.value, eb.value, ea.n, ea.n_skipped
            boot = ea.boot - eb.boot if counts is not None else None

    diff = corr_a - corr_b
    lo, hi = _percentile_interval(boot, ci)
    p = math.nan
    used = 0
    if boot is not None:
        d = boot[np.isfinite(boot)]
        used = int(d.size)
        if used:
            tail = min(1 + int((d <= 0).sum()), 1 + int((d >= 0).sum()))
            p = min(1.0, 2 * tail / (used + 1))
    return {"metric_a": metric_a, "metric_b": metric_b, "human": human, "level": level,
            "method": method, "corr_a": corr_a, "corr_b": corr_b, "diff": diff,
            "ci_low": lo, "ci_high": hi, "p_value": p, "n": n, "n_skipped": n_skipped,
            "n_boot": int(n_boot), "n_boot_used": used}


# --------------------------------------------------------------------------------------------
# human-evaluation analysis (paper 002)
# --------------------------------------------------------------------------------------------
def _ratings_matrix(ratings: object) -> np.ndarray:
    try:
        r = np.asarray(ratings, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(
            f"ratings are not numeric ({exc}); pass numbers, NaN for a missing rating"
        ) from None
    if r.ndim != 2:
        raise InputError(f"ratings must be 2-D (n_items, n_raters), got shape {r.shape}")
    if r.shape[1] < 2:
        raise InputError(
            f"ratings have {r.shape[1]} rater column(s) (shape {r.shape}); agreement needs at "
            f"least 2 raters, as columns of an (n_items, n_raters) array"
        )
    if np.isinf(r).any():
        raise InputError("ratings contain infinite values; use NaN for a missing rating")
    return r


def inter_rater_pearson(ratings: np.ndarray | Sequence[Sequence[float]], *,
                        include_self: bool = False) -> np.ndarray:
    """Pearson correlation of each rater with the mean of the raters (paper 002's agreement).

    By default the mean is over the *other* raters (leave-one-out), so a rater is not correlated
    with a mean that contains its own ratings (which would inflate the agreement, the more so
    the fewer the raters). ``include_self=True`` uses the mean of all raters.

    Args:
        ratings: shape (n_items, n_raters); NaN marks a missing rating. The mean over raters
            ignores missing ratings; an item is excluded from a rater's correlation when the
            rater's rating or the mean is missing.
        include_self: include the rater in the mean it is compared with.

    Returns:
        shape (n_raters,): one Pearson coefficient per rater (NaN where undefined); average it
        for a single agreement figure.
    """
    r = _ratings_matrix(ratings)
    out = np.empty(r.shape[1])
    for j in range(r.shape[1]):
        ref = r if include_self else np.delete(r, j, axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an item nobody else rated
            mean = np.nanmean(ref, axis=1)
        out[j] = correlation(r[:, j], mean, "pearson")
    return out


def krippendorff_alpha(ratings: np.ndarray | Sequence[Sequence[float]],
                       level: str = "interval") -> float:
    """Krippendorff's alpha of the raters' agreement (the ``krippendorff`` package).

    Args:
        ratings: shape (n_items, n_raters) -- items as rows, as everywhere in sumeval (it is
            transposed to the package's (raters, items) layout here); NaN marks a missing
            rating; items with fewer than 2 ratings are not pairable and do not count.
        level: level of measurement: ``"nominal"``, ``"ordinal"``, ``"interval"`` or ``"ratio"``.

    Returns:
        alpha = 1 - D_observed / D_expected; NaN when it is undefined (fewer than 2 distinct
        values overall, or no item with 2 ratings).
    """
    if level not in KRIPPENDORFF_LEVELS:
        raise InputError(
            f"unknown level of measurement {level!r}; choose one of "
            f"{', '.join(KRIPPENDORFF_LEVELS)}"
        )
    r = _ratings_matrix(ratings)
    pairable = (~np.isnan(r)).sum(axis=1) >= 2
    values = r[pairable][~np.isnan(r[pairable])]
    if values.size == 0 or _is_constant(values):
        return math.nan
    import krippendorff

    return float(krippendorff.alpha(reliability_data=r.T, level_of_measurement=level))


def r_squared(y: np.ndarray | Sequence[float], X: np.ndarray | Sequence[float]) -> float:
    """Coefficient of determination of the ordinary least-squares fit of y on X with intercept.

    Args:
        y: shape (n,), the response (paper 002: the mean human rating per document).
        X: shape (n,) for one predictor or (n, k) for k (paper 002: tau, Acc, WLCS-l).

    Returns:
        R^2 = 1 - SS_residual / SS_total over the rows without NaN (in y or any column of X);
        NaN when SS_total is 0 or fewer than k + 2 rows remain (an exact fit says nothing).
    """
    yv = _float_array(y, "y")
    try:
        Xv = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"X is not numeric ({exc})") from None
    shape = Xv.shape
    if Xv.ndim == 1:
        Xv = Xv[:, None]
    if Xv.ndim != 2 or Xv.shape[0] != yv.size:
        raise InputError(
            f"X must have shape (n,) or (n, k) with n = len(y) = {yv.size}, got {shape}"
        )
    if np.isinf(Xv).any():
        raise InputError("X contains infinite values; use NaN to exclude a row")
    keep = ~(np.isnan(yv) | np.isnan(Xv).any(axis=1))
    yv, Xv = yv[keep], Xv[keep]
    n, k = Xv.shape
    if n < k + 2:
        return math.nan
    sst = float(((yv - yv.mean()) ** 2).sum())
    if sst == 0:
        return math.nan
    design = np.column_stack([np.ones(n), Xv])
    coef, *_ = np.linalg.lstsq(design, yv, rcond=None)
    ssr = float(((yv - design @ coef) ** 2).sum())
    return 1.0 - ssr / sst
