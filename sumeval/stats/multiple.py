"""Many measures at once: every pair tested, p-values corrected, significance clusters.

- Holm (1979, "A simple sequentially rejective multiple test procedure", Scand. J. Statist. 6):
  with the m p-values sorted, p_(1) <= ... <= p_(m), the adjusted p_(i) is
  max_{j <= i} min(1, (m - j + 1) p_(j)); controls the family-wise error rate.
- Benjamini & Hochberg (1995, JRSS B 57): adjusted p_(i) = min_{j >= i} min(1, m p_(j) / j)
  (scipy's ``false_discovery_control``); controls the false discovery rate.

The family is every pair of measures of one (human, level, coefficient). NaN p-values stay NaN
and do not count in m.

Significance clusters follow mt-metrics-eval's ``AssignRanks`` (Freitag et al., WMT 2021-23
metrics tasks): measures sorted by correlation, best first; cluster 1 starts with the best; a
measure starts a new cluster when a measure of the current cluster (from its first member down
to the measure just above) is significantly better than it; otherwise it joins the current one.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_alpha, check_frame, names
from sumeval.stats.correlation import paired_test
from sumeval.stats.permutation import permutation_masks, permutation_test
from sumeval.stats.resampling import progress_bar
from sumeval.stats.williams import williams_test

__all__ = ["adjust_pvalues", "compare_measures", "significance_clusters"]

CORRECTIONS = ("holm", "bh")
TESTS = ("permutation", "bootstrap", "williams")
COMPARE_COLUMNS = ["measure_a", "measure_b", "human", "level", "coefficient", "test",
                   "resampling", "alternative", "corr_a", "corr_b", "diff", "p_value",
                   "p_adjusted", "correction", "n", "n_resamples", "n_resamples_used", "seed"]


def adjust_pvalues(p: Sequence[float] | np.ndarray, method: str = "holm") -> np.ndarray:
    """p-values adjusted for multiple comparisons (module docstring: the formulas).

    Args:
        p: shape (m,) p-values in [0, 1]; NaN allowed (kept, not counted).
        method: ``"holm"`` (family-wise error) or ``"bh"`` (Benjamini-Hochberg, false
            discovery rate).

    Returns:
        shape (m,) adjusted p-values, in the input order.
    """
    if method not in CORRECTIONS:
        raise InputError(f"unknown correction {method!r}; choose one of {', '.join(CORRECTIONS)}")
    pv = np.asarray(p, dtype=np.float64)
    if pv.ndim != 1:
        raise InputError(f"p-values must be 1-D, got shape {pv.shape}")
    ok = ~np.isnan(pv)
    if ((pv[ok] < 0) | (pv[ok] > 1)).any():
        raise InputError(f"p-values must lie in [0, 1], got {pv[ok].min()} .. {pv[ok].max()}")
    out = np.full(pv.shape, np.nan)
    q = pv[ok]
    if q.size == 0:
        return out
    if method == "bh":
        from scipy.stats import false_discovery_control

        out[ok] = false_discovery_control(q, method="bh")
        return out
    order = np.argsort(q, kind="stable")
    m = q.size
    stepped = np.minimum(1.0, (m - np.arange(m)) * q[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped)
    out[ok] = adjusted
    return out


def compare_measures(frame: pd.DataFrame, metrics: Sequence[str], human: str | Sequence[str], *,
                     level: str | Sequence[str], method: str, test: str = "permutation",
                     resample: str = "both", n_resamples: int = 1000,
                     seed: int | np.random.Generator = 0, correction: str = "holm",
                     alternative: str = "two-sided", early_stop: int | None = None,
                     doc_col: str = "doc_id", system_col: str = "system",
                     progress: bool = False) -> pd.DataFrame:
    """Test every pair of measures and correct the p-values within each (human, level).

    Args:
        frame: one row per (document, system) pair.
        metrics: at least 2 measure columns; the pairs are (metrics[i], metrics[j]), i < j.
        human: a human column or a sequence of them; level: a level or a sequence of them.
        method: the coefficient.
        test: ``"permutation"`` (:func:`~sumeval.stats.permutation_test`), ``"bootstrap"``
            (:func:`~sumeval.stats.paired_test`, two-sided only) or ``"williams"``
            (:func:`~sumeval.stats.williams_test`).
        resample: the axis permuted / resampled (not used by Williams' test).
        n_resamples, seed: permutations or bootstrap resamples, and their seed; every pair
            uses the same draws (common random numbers).
        correction: ``"holm"`` or ``"bh"``.
        alternative: for permutation and Williams tests (``"greater"``: measure_a better).
        early_stop: permutation tests only (see :func:`~sumeval.stats.permutation_test`).
        progress: a progress bar over the tests.

    Returns:
        A tidy frame, one row per (human, level, pair): ``measure_a, measure_b, human, level,
        coefficient, test, resampling, alternative, corr_a, corr_b, diff`` (corr_a - corr_b),
        ``p_value, p_adjusted, correction, n, n_resamples, n_resamples_used, seed``.
    """
    check_frame(frame)
    metric_names = names(metrics, "metric columns")
    if len(metric_names) < 2 or len(set(metric_names)) != len(metric_names):
        raise InputError(f"compare_measures needs at least 2 distinct measures, got "
                         f"{metric_names}")
    if test not in TESTS:
        raise InputError(f"unknown test {test!r}; choose one of {', '.join(TESTS)}")
    if correction not in CORRECTIONS:
        raise InputError(f"unknown correction {correction!r}; choose one of "
                         f"{', '.join(CORRECTIONS)}")
    if test == "bootstrap" and alternative != "two-sided":
        raise InputError("the bootstrap test is two-sided; use test='permutation' or "
                         "'williams' for a one-sided alternative")
    humans, levels = names(human, "human columns"), names(level, "levels")
    pairs = [(a, b) for i, a in enumerate(metric_names) for b in metric_names[i + 1:]]
    jobs = [(h, lv, a, b) for h in humans for lv in levels for a, b in pairs]
    masks = None
    if test == "permutation":
        from sumeval.stats.layout import _layout

        lay = _layout(frame, doc_col, system_col, need_systems=True)
        masks = permutation_masks(lay.n_sys, lay.n_docs, resample, n_resamples, seed)
    rows = []
    for h, lv, a, b in progress_bar(jobs, len(jobs), progress, "compare_measures"):
        common = dict(level=lv, method=method, doc_col=doc_col, system_col=system_col)
        if test == "permutation":
            r = permutation_test(frame, a, b, h, resample=resample, masks=masks,
                                 alternative=alternative, early_stop=early_stop, **common)
            r["seed"] = None if isinstance(seed, np.random.Generator) else int(seed)
        elif test == "bootstrap":
            r = paired_test(frame, a, b, h, n_boot=n_resamples, seed=seed, resample=resample,
                            **common)
            r.update(n_resamples=r["n_boot"], n_resamples_used=r["n_boot_used"],
                     alternative="two-sided")
        else:
            r = williams_test(frame, a, b, h, alternative=alternative, **common)
            r["seed"] = None
        rows.append({"measure_a": a, "measure_b": b, "human": h, "level": lv,
                     "coefficient": method, "test": test, "resampling": r["resampling"],
                     "alternative": r["alternative"], "corr_a": r["corr_a"],
                     "corr_b": r["corr_b"], "diff": r["diff"], "p_value": r["p_value"],
                     "correction": correction, "n": r["n"], "n_resamples": r["n_resamples"],
                     "n_resamples_used": r["n_resamples_used"], "seed": r["seed"]})
    out = pd.DataFrame(rows)
    out["p_adjusted"] = np.nan
    for _, idx in out.groupby(["human", "level"], sort=False).groups.items():
        out.loc[idx, "p_adjusted"] = adjust_pvalues(out.loc[idx, "p_value"].to_numpy(),
                                                    correction)
    return out[COMPARE_COLUMNS]


def _better(rows: pd.DataFrame, column: str, alpha: float) -> dict[tuple[str, str], bool]:
    """(winner, loser) -> True where the pair's test says winner is significantly better."""
    better = {}
    for r in rows.itertuples():
        p = getattr(r, column)
        if not p <= alpha:
            continue
        a_wins = r.alternative == "greater" or (r.alternative == "two-sided" and r.diff > 0)
        b_wins = r.alternative == "less" or (r.alternative == "two-sided" and r.diff < 0)
        if a_wins:
            better[(r.measure_a, r.measure_b)] = True
        if b_wins:
            better[(r.measure_b, r.measure_a)] = True
    return better


def significance_clusters(comparisons: pd.DataFrame, *, alpha: float = 0.05,
                          adjusted: bool = True) -> pd.DataFrame:
    """Rank measures by correlation and group them into significance clusters.

    Args:
        comparisons: a frame of :func:`compare_measures` (every pair of the measures tested).
        alpha: significance level.
        adjusted: use ``p_adjusted`` (default) or the raw ``p_value``.

    Returns:
        One row per (human, level, coefficient, measure): ``human, level, coefficient,
        measure, value`` (its correlation), ``rank`` (1 = highest value; ties keep the order of
        first appearance), ``cluster`` (1 = the best measure and those not significantly worse
        than a measure above them in the cluster, as in the module docstring).
    """
    check_frame(comparisons)
    check_alpha(alpha)
    needed = {"measure_a", "measure_b", "human", "level", "coefficient", "corr_a", "corr_b",
              "diff", "alternative", "p_value", "p_adjusted"}
    missing = needed - set(comparisons.columns)
    if missing:
        raise InputError(f"comparisons lacks {sorted(missing)}; pass the frame that "
                         f"stats.compare_measures returns")
    column = "p_adjusted" if adjusted else "p_value"
    out = []
    for (h, lv, coef), rows in comparisons.groupby(["human", "level", "coefficient"],
                                                   sort=False):
        values: dict[str, float] = {}
        for r in rows.itertuples():
            values.setdefault(r.measure_a, r.corr_a)
            values.setdefault(r.measure_b, r.corr_b)
        order = sorted(values, key=lambda k: -np.nan_to_num(values[k], nan=-np.inf))
        better = _better(rows, column, alpha)
        cluster, start = 1, 0
        for i, m in enumerate(order):
            if any(better.get((order[j], m), False) for j in range(start, i)):
                cluster, start = cluster + 1, i
            out.append({"human": h, "level": lv, "coefficient": coef, "measure": m,
                        "value": values[m], "rank": i + 1, "cluster": cluster})
    return pd.DataFrame(out, columns=["human", "level", "coefficient", "measure", "value",
                                      "rank", "cluster"])
