"""Exact power-of-two scaling before product-moment sums (Pearson, standardisation, means).

Pearson's r is unchanged when x is multiplied by a constant c > 0, and so is a z-score. The
one-pass sums its kernels use are not safe at the ends of the float64 range: squares of values
above about 1e154 overflow to inf (r comes out 0 or NaN), squares of values below about 1e-154
underflow to 0 (r comes out +-1 or NaN). The cure is the one scipy's ``pearsonr`` applies before
its norms (it divides x - mean by max|x - mean|, ``scipy/stats/_stats_py.py``) and LAPACK's
``xNRM2`` (Blue 1978, "A portable Fortran program to find the Euclidean norm of a vector", ACM
TOMS 4(1)): bring the values near 1 first. Here c = 2^-e, with e the binary exponent of the
largest finite magnitude (``np.frexp``), so that the largest magnitude lands in [0.5, 1).

Multiplying by a power of two is exact in binary floating point, and every later sum, product,
quotient and square root of the kernels is then exactly the unscaled one times a power of two
(rounding commutes with it), as long as nothing overflows or becomes subnormal. So on ordinary
data every coefficient is the same bit for bit as without the scaling, while values anywhere in
the finite range give the coefficient of the numbers given. NaN and inf are left as they are.

Use it where a coefficient or a z-score is computed, per vector (``axis=None``) or per row
(``axis=-1``); never before ranking (Spearman, Kendall): a vector spanning more than the float
range would have its smallest values rounded into ties.
"""
from __future__ import annotations

import numpy as np

__all__ = ["unit_scale", "scale_exponent"]


def scale_exponent(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """e with max|x| (finite values) in [2^(e-1), 2^e) -- ``np.frexp``'s exponent -- over the
    whole array (``axis=None``: a 0-d int array) or along ``axis`` (kept as a length-1 axis);
    0 where there is no finite non-zero value."""
    a = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        mags = np.where(np.isfinite(a), np.abs(a), 0.0)
    top = mags.max(axis=axis, keepdims=axis is not None, initial=0.0)
    return np.frexp(top)[1]


def unit_scale(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """x times 2^-e (:func:`scale_exponent`): its largest finite magnitude (per row along
    ``axis``, or over the whole array) in [0.5, 1); exact, so Pearson coefficients and z-scores
    computed from it equal the unscaled ones bit for bit wherever those neither overflow nor
    underflow (module docstring)."""
    a = np.asarray(x, dtype=np.float64)
    return np.ldexp(a, -scale_exponent(a, axis))
