"""Pairwise Difference Pearson (PDP): Pearson's r on the differences between systems.

DiIanni & Deutsch (2025, "Don't Sweat the Small Stuff: Segment-Level Meta-Evaluation Based on
Pairwise Difference Correlation", EMNLP, the definition of PDP; mt-metrics-eval since commit
fc0e59f, ``stats.AverageCorrelation`` with ``pdp=True`` and its ``_enumerate_pairwise_diffs``). For
each input d and every ordered pair of systems (i, j) on it, the human difference
h_dj - h_di and the measure's m_dj - m_di; PDP is Pearson's r of the two over all these pairs of all
inputs pooled (the paper's "Global Pearson refined to intra-segment comparisons"; mt-metrics-eval's
``average_by='item'``, which flattens every item's differences into one vector). mt-metrics-eval
enumerates all R x R ordered pairs of an item, the pair of a system with itself (0, 0) and both
orders included; with both orders the differences have mean exactly 0, so

    PDP = sum_d sum_{i<j} dh_dij dm_dij / sqrt(sum dh^2 * sum dm^2),

the uncentred correlation of the differences over the unordered pairs (the (0, 0) pairs add
nothing). A pair where either system lacks the human or the measure score on that input is left
out (mt-metrics-eval drops the pairs whose human difference is missing; its measure scores are
never missing). PDP is undefined (NaN) when all differences of either side are 0.

``level``:

- ``"input"``: the paper's PDP, the pairs of systems on the same input, pooled over inputs;
- ``"system"``: the pairs of system means (each over the rows where both scores are present), as
  mt-metrics-eval's PDP of system-level scores (one item of R systems). Over all pairs of one
  item, sum_{i<j} (x_i - x_j)(y_i - y_j) = R sum_i (x_i - mean x)(y_i - mean y), so this equals
  the system-level Pearson correlation; it is given for completeness, and is a check.

Interval (``n_resamples`` > 0): the inputs are resampled with replacement, as the other input-level
intervals (:func:`~sumeval.stats.resample_indices`, ``inputs``, over the inputs sorted by id, so
that the order of the rows changes nothing: :func:`sumeval.stats.close_pairs.canonical_order`); each
resample recomputes PDP on the drawn inputs (an input drawn k times counts its pairs k times; at the
system level, the system means over the drawn inputs); the percentile interval of the resamples
where PDP is defined (:func:`~sumeval.stats.resampling.percentile_interval`). The paper reports PDP
without an interval; this is sumeval's, the same document bootstrap as its correlations'.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_boot, check_columns, check_frame, frame_column, names, seed_record
from sumeval.stats.layout import frame_layout
from sumeval.stats.levels import system_means
from sumeval.stats.resampling import percentile_interval, resample_indices

__all__ = ["PDP_LEVELS", "PDP_COLUMNS", "pair_differences", "pairwise_difference_pearson", "pdp_from_differences",
           "pdp_replicates"]

#: the levels of :func:`pairwise_difference_pearson`
PDP_LEVELS = ("input", "system")
#: the columns of :func:`pairwise_difference_pearson`
PDP_COLUMNS = ["metric", "human", "level", "pdp", "ci_low", "ci_high", "n_pairs", "resampling", "n_resamples",
               "n_resamples_used", "seed"]


def pair_differences(human: np.ndarray, metric: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The differences of every unordered pair of systems i < j within each row (an input).

    Args:
        human, metric: shape (n_inputs, n_systems); NaN where a score is missing.

    Returns:
        two arrays of shape (n_pairs_present,): h_j - h_i and m_j - m_i (i < j, ``np.triu_indices``
        order, row by row), only for pairs where both systems have both scores.
    """
    h = np.atleast_2d(np.asarray(human, dtype=np.float64))
    m = np.atleast_2d(np.asarray(metric, dtype=np.float64))
    if h.shape != m.shape:
        raise InputError(f"human and metric grids must have one shape, got {h.shape} and {m.shape}")
    if h.shape[1] < 2:
        raise InputError(f"PDP needs at least 2 systems, got {h.shape[1]}")
    i, j = np.triu_indices(h.shape[1], 1)
    dh, dm = h[:, j] - h[:, i], m[:, j] - m[:, i]
    ok = ~(np.isnan(dh) | np.isnan(dm))
    return dh[ok], dm[ok]


def pdp_from_differences(dh: np.ndarray, dm: np.ndarray) -> float:
    """PDP of the pair differences (module docstring: the uncentred r over unordered pairs)."""
    sh, sm = float(np.dot(dh, dh)), float(np.dot(dm, dm))
    if dh.size == 0 or sh == 0.0 or sm == 0.0:
        return math.nan
    # scaled first, so that neither product overflows nor underflows
    a, b = dh / math.sqrt(sh), dm / math.sqrt(sm)
    return float(np.clip(np.dot(a, b), -1.0, 1.0))


def _uncentred(a: np.ndarray, b: np.ndarray, axis: int) -> np.ndarray:
    """sum a b / sqrt(sum a^2 sum b^2) along ``axis`` (NaN where either sum of squares is 0)."""
    sa, sb = (a * a).sum(axis=axis), (b * b).sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (a * b).sum(axis=axis) / np.sqrt(sa * sb)
    return np.where((sa > 0) & (sb > 0), np.clip(r, -1.0, 1.0), np.nan)


def pdp_replicates(gh: np.ndarray, gm: np.ndarray, counts: np.ndarray, level: str) -> np.ndarray:
    """PDP of each bootstrap resample (module docstring: the interval).

    Args:
        gh, gm: shape (n_inputs, n_systems), human and measure; NaN in both where either is missing.
        counts: shape (B, n_inputs), how often each input is drawn.
        level: ``"input"`` or ``"system"``.

    Returns:
        shape (B,): PDP of each resample, NaN where it is undefined.
    """
    if level == "input":
        # per input, the sums over its pairs of dh dm, dh^2 and dm^2; a resample weighs each input by its count.
        # Each side is scaled by its largest difference first (PDP does not change; no product overflows).
        i, j = np.triu_indices(gh.shape[1], 1)
        dh, dm = gh[:, j] - gh[:, i], gm[:, j] - gm[:, i]
        ok = ~(np.isnan(dh) | np.isnan(dm))
        dh, dm = np.where(ok, dh, 0.0), np.where(ok, dm, 0.0)
        for d in (dh, dm):
            top = float(np.abs(d).max(initial=0.0))
            if top > 0:
                d /= top
        shm, shh, smm = (dh * dm).sum(axis=1), (dh * dh).sum(axis=1), (dm * dm).sum(axis=1)
        sa, sb = counts @ shh, counts @ smm
        with np.errstate(invalid="ignore", divide="ignore"):
            r = (counts @ shm) / np.sqrt(sa * sb)
        return np.where((sa > 0) & (sb > 0), np.clip(r, -1.0, 1.0), np.nan)
    # the system means over the drawn inputs; over the systems with both means, sum_{i<j} dx dy is
    # R times the centred sum (module docstring), so PDP is the centred correlation of the means
    mh, mm = system_means(gh, gm, counts)
    both = np.isfinite(mh) & np.isfinite(mm)
    k = both.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        ch = np.where(both, mh - np.where(both, mh, 0.0).sum(axis=1, keepdims=True) / k, 0.0)
        cm = np.where(both, mm - np.where(both, mm, 0.0).sum(axis=1, keepdims=True) / k, 0.0)
    r = _uncentred(ch, cm, axis=1)
    return np.where(k[:, 0] >= 2, r, np.nan)


def pairwise_difference_pearson(frame: pd.DataFrame, metrics: str | Sequence[str], human: str, *,
                                level: str | Sequence[str] = "input", n_resamples: int = 1000, ci: float = 0.95,
                                seed: int | np.random.Generator = 0, doc_col: str = "doc_id",
                                system_col: str = "system") -> pd.DataFrame:
    """PDP of each metric column with a human column (module docstring: the definition and the interval).

    Args:
        frame: one row per (input, system) pair; the row order does not matter.
        metrics: a column name or several (higher is better); human: the human column.
        level: ``"input"`` (the paper's PDP) and/or ``"system"`` (:data:`PDP_LEVELS`).
        n_resamples: bootstrap resamples of the inputs (0: no interval); ci: its coverage; seed: the
            draws (one set of resamples for every metric and level).

    Returns:
        :data:`PDP_COLUMNS`, one row per (metric, level): ``pdp``, ``ci_low`` / ``ci_high``, ``n_pairs``
        (the system pairs used: per input at the input level, of systems with a mean at the system
        level), ``n_resamples_used`` (the resamples where PDP is defined).
    """
    from sumeval.stats.close_pairs import canonical_order

    check_frame(frame)
    metric_names = names(metrics, "metric columns")
    levels = names(level, "levels")
    bad = [lv for lv in levels if lv not in PDP_LEVELS]
    if bad:
        raise InputError(f"PDP level {bad[0]!r}: choose {' or '.join(PDP_LEVELS)} (input: the paper's, pairs of "
                         "systems on the same input; system: pairs of system means)")
    check_columns(frame, metric_names, "metric")
    check_columns(frame, [human], "human")
    check_boot(n_resamples, ci)
    frame = canonical_order(frame, doc_col, system_col)
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    counts = None
    if n_resamples:
        counts = resample_indices(lay.n_sys, lay.n_docs, "inputs", int(n_resamples), seed).input_counts()
    y = frame_column(frame, human)
    rows = []
    for mc in metric_names:
        x = frame_column(frame, mc)
        keep = ~(np.isnan(x) | np.isnan(y))
        gx, gy = lay.grid(np.where(keep, x, np.nan)), lay.grid(np.where(keep, y, np.nan))
        for lv in levels:
            if lv == "input":
                dh, dm = pair_differences(gy, gx)
            else:
                k = (~np.isnan(gy)).sum(axis=0, keepdims=True)
                with np.errstate(invalid="ignore", divide="ignore"):  # a system without rows: NaN, left out
                    means = [np.where(k > 0, np.nansum(g, axis=0, keepdims=True) / k, np.nan) for g in (gy, gx)]
                dh, dm = pair_differences(*means)
            boot = None if counts is None else pdp_replicates(gy, gx, counts, lv)
            lo, hi = percentile_interval(boot, ci)
            rows.append({"metric": mc, "human": human, "level": lv, "pdp": pdp_from_differences(dh, dm),
                         "ci_low": lo, "ci_high": hi, "n_pairs": int(dh.size), "resampling": "inputs",
                         "n_resamples": int(n_resamples),
                         "n_resamples_used": 0 if boot is None else int(np.isfinite(boot).sum()),
                         "seed": seed_record(seed)})
    return pd.DataFrame(rows, columns=PDP_COLUMNS)
