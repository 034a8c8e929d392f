"""Many measures at once: every pair tested, p-values corrected, significance clusters.

- Holm (1979, "A simple sequentially rejective multiple test procedure", Scand. J. Statist. 6):
  with the m p-values sorted, p_(1) <= ... <= p_(m), the adjusted p_(i) is
  max_{j <= i} min(1, (m - j + 1) p_(j)); controls the family-wise error rate.
- Benjamini & Hochberg (1995, JRSS B 57): adjusted p_(i) = min_{j >= i} min(1, m p_(j) / j)
  (scipy's ``false_discovery_control``); controls the false discovery rate.

- ``none``: no correction (mt-metrics-eval's clusters: its ``CompareMetrics`` compares each
  uncorrected permutation p-value with the threshold).

The family is every pair of measures of one (human, level, coefficient). NaN p-values stay NaN
and do not count in m.

The p-values :func:`compare_measures` reports (``p_value``) are those of the resampling tests
with the floor of Phipson & Smyth (2010), (count + 1) / (resamples + 1), so that none is 0;
``p_raw`` keeps count / resamples (nlpstats' permutation p-value). The correction is applied to
``p_raw``, the p-values of nlpstats and mt-metrics-eval, so that the significance decisions and the
clusters are theirs, and the adjusted p-value is never shown below the row's own ``p_value``:
``p_adjusted = max(adjust(p_raw), p_value)`` (:func:`adjust_resampled`); with ``none``,
``p_adjusted`` is ``p_raw`` itself (count / resamples, not floored: the value mt-metrics-eval compares
with its threshold, so its decisions are reproduced exactly). Correcting the floored
p-values instead would make every pair of 11 measures (55 tests, Holm) non-significant at 1,000
resamples, since 55 / 1001 > 0.05, where the peers separate the measures. A pair whose correlations are
not both defined on the rows it uses is not tested: its p-values are NaN, and ``note`` says why.

Significance clusters follow mt-metrics-eval's ``AssignRanks`` (Freitag et al., WMT 2021-23
metrics tasks): measures sorted by correlation, best first; cluster 1 starts with the best; a
measure starts a new cluster when a measure of the current cluster (from its first member down
to the measure just above) is significantly better than it; otherwise it joins the current one.
A measure whose correlation is undefined (NaN) is neither ranked nor put in a cluster.

mt-metrics-eval's clusters exactly: its ``PermutationSigDiff`` tests each pair one-sided, the measure
ranked higher against the one below it (``sig_matrix[i, j]``: the p-value of "j correlates at least as
well as i"), and ``CompareMetrics`` hands these p-values uncorrected to ``AssignRanks``. Here that is
``alternative="one-sided"`` (each pair tested in the direction of the ranking: ``greater`` when
measure_a's correlation, on the rows where it and the human are present as :func:`~sumeval.stats.correlate`
gives it and the ranking uses it, is at least measure_b's, else ``less``; the row's ``alternative``
says which) with ``correction="none"``. mt-metrics-eval breaks exact ties of correlation by the measures' names, this
module by the order of first appearance: with tied values the order, and so the clusters, can differ
unless the measures are given in name order.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import canonical_level, check_alpha, check_columns, check_frame, frame_column, names
from sumeval.stats.correlation import P_METHODS, paired_test
from sumeval.stats.grouped import SwapCache
from sumeval.stats.permutation import permutation_masks, permutation_test
from sumeval.stats.resampling import progress_bar
from sumeval.stats.williams import williams_test

__all__ = ["adjust_pvalues", "compare_measures", "significance_clusters"]

CORRECTIONS = ("holm", "bh", "none")
#: ``alternative`` values of :func:`compare_measures`
COMPARE_ALTERNATIVES = ("two-sided", "greater", "less", "one-sided")
TESTS = ("permutation", "bootstrap", "williams")
COMPARE_COLUMNS = ["measure_a", "measure_b", "human", "level", "coefficient", "test",
                   "resampling", "alternative", "corr_a", "corr_b", "diff", "ci_low", "ci_high",
                   "p_value", "p_raw", "p_adjusted", "correction", "n", "n_rows", "n_resamples",
                   "n_resamples_used", "seed", "note"]


def adjust_resampled(p_raw: Sequence[float] | np.ndarray, p_value: Sequence[float] | np.ndarray,
                     method: str = "holm") -> np.ndarray:
    """Adjusted p-values of resampling tests (module docstring): ``max(adjust(p_raw), p_value)``.

    Args:
        p_raw: shape (m,) count / resamples (NaN: not tested).
        p_value: shape (m,) the reported p-values, (count + 1) / (resamples + 1).
        method: as :func:`adjust_pvalues`.

    Returns:
        shape (m,) adjusted p-values, never below ``p_value``; NaN where ``p_raw`` is. With ``none``:
        ``p_raw`` itself (mt-metrics-eval's uncorrected count / resamples; module docstring).
    """
    raw = np.asarray(p_raw, dtype=float)
    if method == "none":
        adjust_pvalues(raw, method)  # the same checks
        return raw.copy()
    adjusted = adjust_pvalues(raw, method)
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(adjusted), np.nan, np.fmax(adjusted, np.asarray(p_value, dtype=float)))


def adjust_pvalues(p: Sequence[float] | np.ndarray, method: str = "holm") -> np.ndarray:
    """p-values adjusted for multiple comparisons (module docstring: the formulas).

    Args:
        p: shape (m,) p-values in [0, 1]; NaN allowed (kept, not counted).
        method: ``"holm"`` (family-wise error), ``"bh"`` (Benjamini-Hochberg, false
            discovery rate) or ``"none"`` (the p-values unchanged).

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
    if method == "none":
        out[ok] = q
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


def _check_compare_options(metric_names: list[str], test: str, correction: str, alternative: str,
                           bootstrap_p: str) -> None:
    """The options of :func:`compare_measures` (at least two distinct measures, a known test, correction,
    alternative and bootstrap p-value, the bootstrap two-sided), each refused with the choices."""
    if len(metric_names) < 2 or len(set(metric_names)) != len(metric_names):
        raise InputError(f"compare_measures needs at least 2 distinct measures, got "
                         f"{metric_names}")
    if test not in TESTS:
        raise InputError(f"unknown test {test!r}; choose one of {', '.join(TESTS)}")
    if correction not in CORRECTIONS:
        raise InputError(f"unknown correction {correction!r}; choose one of "
                         f"{', '.join(CORRECTIONS)}")
    if alternative not in COMPARE_ALTERNATIVES:
        raise InputError(f"unknown alternative {alternative!r}; choose one of "
                         f"{', '.join(COMPARE_ALTERNATIVES)}")
    if test == "bootstrap" and alternative != "two-sided":
        raise InputError("the bootstrap test is two-sided; use test='permutation' or "
                         "'williams' for a one-sided alternative")
    if bootstrap_p not in P_METHODS:
        raise InputError(f"unknown bootstrap p-value {bootstrap_p!r}; choose one of "
                         f"{', '.join(P_METHODS)}")


def compare_measures(frame: pd.DataFrame, metrics: Sequence[str], human: str | Sequence[str], *,
                     level: str | Sequence[str], method: str, test: str = "permutation",
                     resample: str = "both", n_resamples: int = 1000,
                     seed: int | np.random.Generator = 0, correction: str = "holm",
                     alternative: str = "two-sided", early_stop: int | None = None,
                     doc_col: str = "doc_id", system_col: str = "system",
                     progress: bool = False, bootstrap_p: str = "percentile",
                     partial_control: str = "system", input_rule=None) -> pd.DataFrame:
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
        correction: ``"holm"``, ``"bh"`` or ``"none"`` (module docstring).
        alternative: for permutation and Williams tests: ``"two-sided"``, ``"greater"``
            (measure_a better), ``"less"``, or ``"one-sided"``: each pair one-sided, the measure
            ranked higher (the higher correlation on its own rows; a tie: measure_a) better,
            mt-metrics-eval's test (module docstring); the row's ``alternative`` says which.
        early_stop: permutation tests only (see :func:`~sumeval.stats.permutation_test`).
        progress: a progress bar over the tests.
        bootstrap_p: the bootstrap test's p-value, ``"percentile"`` or ``"sacrerouge"``
            (:func:`~sumeval.stats.paired_test`).
        partial_control: what the ``partial`` level regresses out (:func:`~sumeval.stats.correlate`).
        input_rule: how the ``input`` level averages its documents (:func:`~sumeval.stats.correlate`);
            every test at that level uses it.

    Returns:
        A tidy frame, one row per (human, level, pair): ``measure_a, measure_b, human, level,
        coefficient, test, resampling, alternative, corr_a, corr_b, diff`` (corr_a - corr_b,
        both on the rows where A, B and the human are all present), ``ci_low, ci_high`` (the
        bootstrap interval of diff; bootstrap test only, else NaN), ``p_value`` (with the
        resampling floor, module docstring), ``p_raw`` (without), ``p_adjusted, correction,
        n`` (pairs / inputs / systems used), ``n_rows`` (rows with A, B and the human present),
        ``n_resamples, n_resamples_used, seed, note`` (why a pair is not tested, which rows it
        used when some were left out, a caveat of the test; NaN otherwise, an empty cell in a CSV).
    """
    check_frame(frame)
    metric_names = names(metrics, "metric columns")
    _check_compare_options(metric_names, test, correction, alternative, bootstrap_p)
    humans, levels = names(human, "human columns"), names(level, "levels")
    check_columns(frame, metric_names, "metric")
    check_columns(frame, humans, "human")
    pairs = [(a, b) for i, a in enumerate(metric_names) for b in metric_names[i + 1:]]
    jobs = [(h, lv, a, b) for h in humans for lv in levels for a, b in pairs]
    masks = None
    if test == "permutation":
        from sumeval.stats.layout import frame_layout

        lay = frame_layout(frame, doc_col, system_col, need_systems=True)
        masks = permutation_masks(lay.n_sys, lay.n_docs, resample, n_resamples, seed)
    present = {c: ~np.isnan(frame_column(frame, c)) for c in [*metric_names, *humans]}
    ranked = _ranked_values(frame, metric_names, humans, levels, method, doc_col, system_col,
                            partial_control, input_rule) if alternative == "one-sided" else {}
    rows = []
    caches: dict[tuple[str, str], SwapCache] = {}
    for h, lv, a, b in progress_bar(jobs, len(jobs), progress, "compare_measures"):
        common_rows = present[a] & present[b] & present[h]
        n_rows = int(common_rows.sum())
        kw = dict(level=lv, method=method, doc_col=doc_col, system_col=system_col,
                  partial_control=partial_control, input_rule=input_rule)
        alt = alternative
        if alternative == "one-sided":  # the higher-ranked measure better (a NaN value: not tested)
            alt = "less" if ranked[(a, h, lv)] < ranked[(b, h, lv)] else "greater"
        if n_rows < 2:
            r = _untested(test, resample, alt, n_resamples, seed)
        elif test == "permutation":
            if (h, lv) not in caches:  # one family at a time: the pieces of its measures
                caches.clear()
                caches[(h, lv)] = SwapCache()
            r = permutation_test(frame, a, b, h, resample=resample, masks=masks, alternative=alt,
                                 early_stop=early_stop, cache=caches[(h, lv)], **kw)
            r.update(seed=None if isinstance(seed, np.random.Generator) else int(seed),
                     p_raw=r["p_value"], p_value=r["p_floor"])
        elif test == "bootstrap":
            r = paired_test(frame, a, b, h, n_resamples=n_resamples, seed=seed, resample=resample,
                            p_method=bootstrap_p, **kw)
            r.update(alternative="two-sided", p_value=r["p_floor"])
        else:
            r = williams_test(frame, a, b, h, alternative=alt, **kw)
            r.update(seed=None, p_raw=r["p_value"])
        note = _note(frame, a, b, h, lv, test, r, n_rows, doc_col, system_col, partial_control)
        if note.startswith("not tested"):
            r.update(p_value=math.nan, p_raw=math.nan)
        rows.append({"measure_a": a, "measure_b": b, "human": h, "level": lv,
                     "coefficient": method, "test": test, "resampling": r["resampling"],
                     "alternative": r["alternative"], "corr_a": r["corr_a"],
                     "corr_b": r["corr_b"], "diff": r["diff"],
                     "ci_low": r.get("ci_low", math.nan), "ci_high": r.get("ci_high", math.nan),
                     "p_value": r["p_value"], "p_raw": r["p_raw"], "correction": correction,
                     "n": r["n"], "n_rows": n_rows, "n_resamples": r["n_resamples"],
                     "n_resamples_used": r["n_resamples_used"], "seed": r["seed"], "note": note or math.nan})
    out = pd.DataFrame(rows)
    out["p_adjusted"] = np.nan
    for _, idx in out.groupby(["human", "level"], sort=False).groups.items():
        out.loc[idx, "p_adjusted"] = adjust_resampled(out.loc[idx, "p_raw"].to_numpy(float),
                                                      out.loc[idx, "p_value"].to_numpy(float), correction)
    return out[COMPARE_COLUMNS]


def _ranked_values(frame: pd.DataFrame, metrics: list[str], humans: list[str], levels: list[str],
                   method: str, doc_col: str, system_col: str, partial_control: str, input_rule=None) -> dict:
    """(measure, human, level) -> the correlation a ranking orders by (each measure on its own rows,
    :func:`~sumeval.stats.correlate`); what ``alternative="one-sided"`` orients each test by."""
    from sumeval.stats.correlation import correlate

    out = correlate(frame, metrics, humans, level=levels, methods=[method], n_resamples=0, doc_col=doc_col,
                    system_col=system_col, partial_control=partial_control, input_rule=input_rule)
    return {(r.metric, r.human, r.level): r.value for r in out.itertuples()}


def _untested(test: str, resample: str, alternative: str, n_resamples: int, seed) -> dict:
    """The result of a pair with fewer than 2 rows to test on."""
    return {"resampling": None if test == "williams" else resample, "alternative": alternative,
            "corr_a": math.nan, "corr_b": math.nan, "diff": math.nan, "p_value": math.nan,
            "p_raw": math.nan, "n": 0, "n_resamples": 0 if test == "williams" else n_resamples,
            "n_resamples_used": 0,
            "seed": None if test == "williams" or isinstance(seed, np.random.Generator) else int(seed)}


def _note(frame: pd.DataFrame, a: str, b: str, h: str, level: str, test: str, r: dict,
          n_rows: int, doc_col: str, system_col: str, partial_control: str = "system") -> str:
    """Why a pair is not tested (starts with ``not tested``), which rows it used, or a caveat."""
    from sumeval.stats.undefined import undefined_reason

    if n_rows < 2:
        return (f"not tested: only {n_rows} row(s) have {a!r}, {b!r} and {h!r} all present; "
                "a test needs at least 2")
    total = len(frame)
    rows_note = (f"{n_rows} of {total} rows used (those with {a!r}, {b!r} and {h!r} all present: "
                 "corr_a and corr_b are on these rows)" if n_rows < total else "")
    undefined = [m for m, c in ((a, r["corr_a"]), (b, r["corr_b"])) if not math.isfinite(c)]
    if undefined:
        extra = [partial_control] if partial_control in frame.columns and partial_control not in (
            doc_col, system_col, a, b, h) else []
        common = frame[[doc_col, system_col, a, b, h, *extra]].copy()
        keep = common[[a, b, h]].notna().all(axis=1)
        common.loc[~keep, [a, b, h]] = np.nan
        why = "; ".join(f"{m!r}: " + (undefined_reason(common, m, h, level, doc_col=doc_col,
                                                        system_col=system_col,
                                                        partial_control=partial_control) or "NaN")
                        for m in undefined)
        return f"not tested: the correlation with {h!r} is undefined on the rows used ({why})"
    notes = [rows_note] if rows_note else []
    if test == "williams" and canonical_level(level) == "input":
        notes.append(f"Williams' test at the input level: one test on the mean per-input "
                     f"correlations with n = {r['n']} (systems on one input), not the number of "
                     "inputs: weak here; prefer a permutation or bootstrap test")
    return "; ".join(notes)


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
                          adjusted: bool = True, values: pd.DataFrame | None = None) -> pd.DataFrame:
    """Rank measures by correlation and group them into significance clusters.

    Args:
        comparisons: a frame of :func:`compare_measures` (every pair of the measures tested).
        alpha: significance level.
        adjusted: use ``p_adjusted`` (default) or the raw ``p_value``.
        values: the correlations to rank by, a frame with ``measure, human, level,
            coefficient, value`` (e.g. :func:`~sumeval.stats.correlate`'s, renamed): every
            measure in it is ranked by its value there, so the ranking shows the same numbers
            as the correlations (the comparisons' ``corr_a`` / ``corr_b`` are on the rows each
            pair shares, and can differ). None: the values of the comparisons (the first pair
            that names a measure).

    Returns:
        One row per (human, level, coefficient, measure): ``human, level, coefficient,
        measure, value`` (its correlation), ``rank`` (1 = highest value; ties keep the order of
        first appearance), ``cluster`` (1 = the best measure and those not significantly worse
        than a measure above them in the cluster, as in the module docstring). A measure whose
        value is NaN comes last with ``rank`` and ``cluster`` missing (pandas ``Int64``).
    """
    check_frame(comparisons)
    check_alpha(alpha)
    needed = {"measure_a", "measure_b", "human", "level", "coefficient", "corr_a", "corr_b",
              "diff", "alternative", "p_value", "p_adjusted"}
    missing = needed - set(comparisons.columns)
    if missing:
        raise InputError(f"comparisons lacks {sorted(missing)}; pass the frame that "
                         f"stats.compare_measures returns")
    keys = ["human", "level", "coefficient"]
    if values is not None:
        check_frame(values)
        lacking = {"measure", "value", *keys} - set(values.columns)
        if lacking:
            raise InputError(f"values lacks {sorted(lacking)}; pass a frame of correlations with "
                             "measure, human, level, coefficient, value")
    column = "p_adjusted" if adjusted else "p_value"
    groups = values.groupby(keys, sort=False) if values is not None else \
        comparisons.groupby(keys, sort=False)
    by_key = {k: g for k, g in comparisons.groupby(keys, sort=False)}
    out = []
    for (h, lv, coef), group in groups:
        rows = by_key.get((h, lv, coef), comparisons.iloc[:0])
        scores: dict[str, float] = {}
        if values is not None:
            scores = dict(zip(group["measure"], group["value"].astype(float)))
        else:
            for r in rows.itertuples():
                scores.setdefault(r.measure_a, r.corr_a)
                scores.setdefault(r.measure_b, r.corr_b)
        ranked = [m for m in scores if np.isfinite(scores[m])]
        order = sorted(ranked, key=lambda k: -scores[k])
        better = _better(rows, column, alpha)
        cluster, start = 1, 0
        for i, m in enumerate(order):
            if any(better.get((order[j], m), False) for j in range(start, i)):
                cluster, start = cluster + 1, i
            out.append({"human": h, "level": lv, "coefficient": coef, "measure": m,
                        "value": scores[m], "rank": i + 1, "cluster": cluster})
        out += [{"human": h, "level": lv, "coefficient": coef, "measure": m, "value": scores[m],
                 "rank": pd.NA, "cluster": pd.NA} for m in scores if m not in set(ranked)]
    frame = pd.DataFrame(out, columns=["human", "level", "coefficient", "measure", "value",
                                       "rank", "cluster"])
    return frame.astype({"rank": "Int64", "cluster": "Int64", "value": float})
