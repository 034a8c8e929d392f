"""Agreement among human raters and variance explained (the human-evaluation analysis of
paper 002): inter-rater Pearson, Krippendorff's alpha, R^2 of an OLS fit; and Cohen's kappa of two
raters (a judge against an annotator: the judge audit).
"""
from __future__ import annotations

import math
import warnings
from typing import Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.stats.checks import KRIPPENDORFF_LEVELS, float_array, is_constant
from sumeval.stats.coefficients import correlation
from sumeval.stats.scaling import scale_exponent, unit_scale

__all__ = ["inter_rater_pearson", "krippendorff_alpha", "r_squared", "cohen_kappa", "KAPPA_WEIGHTS"]


def _ratings_matrix(ratings: object) -> np.ndarray:
    r = float_array(ratings, "ratings", ndim=(2,), shape=" (n_items, n_raters)")
    if r.shape[1] < 2:
        raise InputError(
            f"ratings have {r.shape[1]} rater column(s) (shape {r.shape}); agreement needs at "
            f"least 2 raters, as columns of an (n_items, n_raters) array"
        )
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
    if values.size == 0 or is_constant(values):
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
    yv = float_array(y, "y")
    Xv = float_array(X, "X", ndim=(1, 2), shape=" ((n,) or (n, k))")
    shape = Xv.shape
    if Xv.ndim == 1:
        Xv = Xv[:, None]
    if Xv.shape[0] != yv.size:
        raise InputError(
            f"X must have shape (n,) or (n, k) with n = len(y) = {yv.size}, got {shape}"
        )
    keep = ~(np.isnan(yv) | np.isnan(Xv).any(axis=1))
    yv, Xv = yv[keep], Xv[keep]
    n, k = Xv.shape
    if n < k + 2:
        return math.nan
    # R^2 is unchanged by scaling y and each column of X. y is scaled by a power of two (exact,
    # stats.scaling: the same bits, no overflow or underflow in the sums of squares); a column
    # of X beyond 2^+-20 in magnitude is too, else lstsq's rank cutoff, relative to the largest
    # singular value, drops the intercept (X ~ 1e20 gave R^2 = 0.009 for 0.867); the columns
    # within that range, ordinary data, are left exactly as they are.
    yv = unit_scale(yv)
    e = scale_exponent(Xv, axis=0)
    Xv = np.ldexp(Xv, -np.where(np.abs(e) > 20, e, 0))
    sst = float(((yv - yv.mean()) ** 2).sum())
    if sst == 0:
        return math.nan
    design = np.column_stack([np.ones(n), Xv])
    coef, *_ = np.linalg.lstsq(design, yv, rcond=None)
    ssr = float(((yv - design @ coef) ** 2).sum())
    return 1.0 - ssr / sst


#: weightings of :func:`cohen_kappa`
KAPPA_WEIGHTS = (None, "linear", "quadratic")


def cohen_kappa(a: np.ndarray | Sequence[float], b: np.ndarray | Sequence[float], *,
                weights: str | None = None, labels: Sequence[float] | None = None) -> float:
    """Cohen's kappa of two raters' categorical ratings, unweighted or weighted.

    Unweighted (Cohen 1960, "A coefficient of agreement for nominal scales", Educ. Psychol. Meas.
    20, Eq. 1): kappa = (p_o - p_e) / (1 - p_e), p_o the observed share of agreements and p_e the
    share expected by chance from the two raters' marginals. Weighted (Cohen 1968, "Weighted
    kappa", Psychol. Bull. 70, Eq. 6): kappa_w = 1 - sum_ij w_ij O_ij / sum_ij w_ij E_ij, O the
    observed and E the chance-expected (outer product of the marginals) contingency tables, with
    disagreement weights w_ij = |i - j| (linear) or (i - j)^2 (quadratic; Fleiss & Cohen 1973) of
    the categories' *positions* i, j in the ordered ``labels``, as scikit-learn's
    ``cohen_kappa_score`` (checked equal in tests/judges/test_judge_audit.py).

    Args:
        a, b: shape (n,), paired ratings (numbers naming categories); a pair where either is NaN
            is left out.
        weights: None, ``"linear"`` or ``"quadratic"``.
        labels: the ordered categories (default: the sorted values either rater used). A rating
            outside ``labels`` is an error.

    Returns:
        kappa in [-1, 1]; NaN when fewer than 1 pair remains or chance agreement is perfect
        (both raters constant on one category: the denominator is 0).
    """
    if weights not in KAPPA_WEIGHTS:
        raise InputError(f"unknown kappa weights {weights!r}; choose None, 'linear' or 'quadratic'")
    x, y = float_array(a, "a"), float_array(b, "b")
    if x.shape != y.shape:
        raise InputError(f"a and b must have the same length, got {x.size} and {y.size}")
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    cats = np.unique(np.concatenate([x, y])) if labels is None else np.asarray(labels, dtype=np.float64)
    if labels is not None and (cats.ndim != 1 or np.unique(cats).size != cats.size):
        raise InputError(f"labels must be distinct categories, got {list(labels)!r}")
    if x.size == 0 or cats.size == 0:
        return math.nan
    lookup = {float(c): k for k, c in enumerate(cats)}
    stray = [float(v) for v in np.concatenate([x, y]) if float(v) not in lookup]
    if stray:
        raise InputError(f"rating {stray[0]!r} is not one of the labels {cats.tolist()}; pass labels that "
                         "include every category used")
    K = cats.size
    xi = np.array([lookup[float(v)] for v in x])
    yi = np.array([lookup[float(v)] for v in y])
    observed = np.zeros((K, K))
    np.add.at(observed, (xi, yi), 1.0)
    observed /= observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    pos = np.arange(K, dtype=np.float64)
    if weights is None:
        w = 1.0 - np.eye(K)
    elif weights == "linear":
        w = np.abs(pos[:, None] - pos[None, :])
    else:
        w = (pos[:, None] - pos[None, :]) ** 2
    denom = float((w * expected).sum())
    if denom == 0:
        return math.nan
    return float(1.0 - (w * observed).sum() / denom)
