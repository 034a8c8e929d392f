"""Williams' test of two dependent correlations sharing the human score.

Williams (1959, "Regression Analysis", Wiley), as Steiger (1980, "Tests for comparing elements
of a correlation matrix", Psychol. Bulletin 87) writes it, R's ``psych::r.test`` computes it and
WMT (Graham & Baldwin 2014) and nlpstats use it: with r12 = |corr(A, H)|, r13 = |corr(B, H)|,
r23 = |corr(A, B)| (absolute values, as the WMT scripts), K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23,

    t = (r12 - r13) sqrt((n - 1)(1 + r23) / (2 K (n - 1)/(n - 3) + ((r12 + r13)/2)^2 (1 - r23)^3))

with n - 3 degrees of freedom. ``n`` is, as nlpstats defines it per level: the number of systems
(system level), the largest number of systems scored on one input (input level), the number of
(input, system) pairs (global level) and of the rows used (partial level). The test assumes Pearson-like
sampling behaviour; for the
other coefficients it is an approximation, as in nlpstats.

At the **input level** the test is weak: it is one Williams test on the three input-level
correlations (each the mean over inputs of the per-input correlations across systems), with n
the largest number of systems on one input (e.g. 16 on SummEval), not the number of inputs; it
has n - 3 degrees of freedom however many inputs there are, so after a correction for many pairs
adjusted p-values of 1.0 are common. The permutation and bootstrap tests, which resample the
inputs, are the ones to use there.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sumeval.stats.checks import canonical_level, check_alternative, check_columns, check_frame, frame_column
from sumeval.stats.coefficients import check_method
from sumeval.stats.layout import check_system_count, frame_layout
from sumeval.stats.levels import estimate_pair
from sumeval.stats.undefined import MIN_SYSTEMS

__all__ = ["williams_test"]


def williams_p(r12: float, r13: float, r23: float, n: int, alternative: str = "two-sided") -> float:
    """p-value of Williams' t (module docstring) for correlations r12 = corr(A, H),
    r13 = corr(B, H), r23 = corr(A, B) (absolute values taken) over n observations; NaN when
    n <= 3 or a correlation is undefined. Equal correlations (|r12| = |r13| within 1e-12) give
    t = 0 (p = 1 two-sided, 0.5 one-sided) also where the formula is 0/0 (|r23| = 1: A and B order
    the items alike), which is its limit there; nlpstats returns NaN in that exact case and 1.0
    next to it. ``"greater"``: H1 |r12| > |r13|; ``"less"``: the opposite."""
    from scipy import stats as ss

    r12, r13, r23 = (np.float64(abs(r)) for r in (r12, r13, r23))  # numpy floats: 0/0 is NaN, not an error
    if n <= 3 or not all(map(math.isfinite, (r12, r13, r23))):
        return math.nan
    k = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r23 * r13
    av = (r12 + r13) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23)
                                  / ((2 * (n - 1) / (n - 3)) * k + av ** 2 * (1 - r23) ** 3))
    if abs(r12 - r13) <= 1e-12:
        t = 0.0  # no difference to test; the formula's 0/0 at |r23| = 1 has this limit
    if not np.isfinite(t):
        return math.nan
    if alternative == "two-sided":
        return float(ss.t.sf(abs(t), n - 3) * 2)
    return float(ss.t.sf(t if alternative == "greater" else -t, n - 3))


def williams_test(frame: pd.DataFrame, metric_a: str, metric_b: str, human: str, *, level: str,
                  method: str, alternative: str = "two-sided", doc_col: str = "doc_id",
                  system_col: str = "system", partial_control: str = "system",
                  input_rule=None) -> dict[str, object]:
    """Williams' test of corr(A, human) against corr(B, human) at a level.

    The three correlations (A-H, B-H, A-B) are computed at ``level`` with ``method`` on the rows
    where A, B and the human score are all present.

    Args:
        frame: one row per (document, system) pair.
        metric_a, metric_b, human: column names.
        level: ``input``, ``system`` or ``global``.
        method: one of :data:`~sumeval.stats.METHODS`.
        alternative: ``"two-sided"``, ``"greater"`` (|corr A| > |corr B|) or ``"less"``.
        partial_control: the ``partial`` level's control (:func:`~sumeval.stats.correlate`); the
            three correlations are those of the residuals, as FRANK's ``metric_metric_correlation``.
        input_rule: the ``input`` level's averaging rule (:func:`~sumeval.stats.correlate`), for all
            three correlations.

    Returns:
        dict with ``metric_a, metric_b, human, level, method, corr_a, corr_b, corr_ab, diff,
        p_value, alternative, test`` (``"williams"``), ``n`` (as defined in the module
        docstring), ``resampling`` (None), ``n_resamples`` and ``n_resamples_used`` (0).
    """
    canon = canonical_level(level)
    check_method(method)
    check_alternative(alternative)
    check_frame(frame)
    check_columns(frame, [metric_a, metric_b], "metric")
    check_columns(frame, [human], "human")
    lay = frame_layout(frame, doc_col, system_col, need_systems=canon != "global")  # partial: its system codes
    if canon == "system":
        check_system_count(lay, level)
    xa, xb, y = (frame_column(frame, c) for c in (metric_a, metric_b, human))
    common = ~(np.isnan(xa) | np.isnan(xb) | np.isnan(y))
    control = None
    if canon == "partial":
        from sumeval.stats.partial import frame_control

        control = frame_control(frame, partial_control, system_col)
        common &= control.present()
    xa, xb, y = (np.where(common, v, np.nan) for v in (xa, xb, y))
    corr_a = estimate_pair(lay, xa, y, canon, [method], None, control, input_rule)[method].value
    corr_b = estimate_pair(lay, xb, y, canon, [method], None, control, input_rule)[method].value
    corr_ab = estimate_pair(lay, xa, xb, canon, [method], None, control, input_rule)[method].value
    if canon == "system":
        n = int((np.bincount(lay.sys[common], minlength=lay.n_sys) > 0).sum())
        if n < MIN_SYSTEMS:  # 2 systems always correlate +-1: undefined
            corr_a = corr_b = corr_ab = math.nan
    elif canon == "input":
        n = int(np.bincount(lay.doc[common], minlength=lay.n_docs).max())
    else:
        n = int(common.sum())
    return {"metric_a": metric_a, "metric_b": metric_b, "human": human, "level": level,
            "method": method, "corr_a": corr_a, "corr_b": corr_b, "corr_ab": corr_ab,
            "diff": corr_a - corr_b, "p_value": williams_p(corr_a, corr_b, corr_ab, n, alternative),
            "alternative": alternative, "test": "williams", "n": n, "resampling": None,
            "n_resamples": 0, "n_resamples_used": 0}
