"""Exact ties among per-group means, kept exact before anything ranks them.

A system's mean is a sum of floats divided by a count; two systems whose scores tie as rational
numbers (SummEval's fluency: M1 and M22, each a mean of 100 multiples of 1/3) may still come out
one unit in the last place apart, depending on the order of summation -- and a matrix product
sums each column in its own order (SIMD lanes, blocking), so the same data in another row order
can tie or not. Rank-based coefficients (Spearman, Kendall) and pairwise accuracy then count a
tie as an order, and the result depends on the CPU and the row order.

The rule (used for every per-group mean that is later ranked: system means in the point
estimates, their bootstrap replicates, permutation tests and pairwise accuracy): within one set
of means, values whose sorted neighbours differ by at most :data:`TIE_RTOL` times the largest
magnitude in the set are one tie and all take the smallest value of their run. Real differences
between means are many orders of magnitude larger than this (SummEval's closest distinct system
means differ by 3e-3 on a 1-5 scale), while rounding differences are about 1e-16 relative.
"""
from __future__ import annotations

import numpy as np

__all__ = ["TIE_RTOL", "snap_ties"]

#: Relative tolerance of :func:`snap_ties`: gaps at most this times the largest magnitude of
#: the set are rounding, not differences.
TIE_RTOL = 1e-12


def snap_ties(values: np.ndarray, rtol: float = TIE_RTOL) -> np.ndarray:
    """Make values that differ only by rounding exactly equal, independently in each row.

    Args:
        values: shape (..., n); NaN allowed (left as NaN, never joined to a number).
        rtol: two sorted neighbours ``a <= b`` are one tie when ``b - a <= rtol * max|row|``;
            runs of such neighbours are one tie (chained), and every member takes the run's
            smallest value.

    Returns:
        A new float64 array of the same shape; rows without near-ties are returned unchanged.

    >>> third = 1 / 3
    >>> a = (third + third + 4 + 4 + 4 + 1) / 6        # 13.666.../6, summed one way
    >>> b = (1 + 4 + third + 4 + third + 4) / 6        # the same rational number, another way
    >>> a == b
    False
    >>> s = snap_ties(np.array([a, 2.0, b]))
    >>> bool(s[0] == s[2]), float(s[1])
    (True, 2.0)
    """
    v = np.array(values, dtype=np.float64, copy=True)
    if v.ndim == 0 or v.shape[-1] < 2:
        return v
    order = np.argsort(v, axis=-1, kind="stable")          # NaN sort last
    s = np.take_along_axis(v, order, axis=-1)
    finite = np.isfinite(s)
    with np.errstate(invalid="ignore"):
        scale = np.max(np.where(finite, np.abs(s), 0.0), axis=-1, keepdims=True)
        gap = np.diff(s, axis=-1)                           # NaN next to a NaN
        joined = gap <= rtol * scale                        # False where NaN
    if not joined.any():
        return v
    n = s.shape[-1]
    starts = np.concatenate([np.ones(s.shape[:-1] + (1,), dtype=bool), ~joined], axis=-1)
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0), axis=-1)
    np.put_along_axis(v, order, np.take_along_axis(s, first, axis=-1), axis=-1)
    return v
