"""Frame-level correlations with bootstrap intervals (:func:`correlate`) and the paired bootstrap
test of two metrics' correlations (:func:`paired_test`). Definitions: :mod:`sumeval.stats`.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import (
    canonical_level,
    check_boot,
    check_columns,
    check_frame,
    check_resample,
    frame_column,
    names,
    seed_record,
)
from sumeval.stats.coefficients import METHODS, check_method, corr_rows
from sumeval.stats.input_rules import InputRule
from sumeval.stats.layout import Layout, check_system_count, frame_layout
from sumeval.stats.levels import Draws, Estimate, doc_mean_boot, estimate_pair, input_boot
from sumeval.stats.resampling import (
    Resamples,
    check_indices,
    percentile_interval,
    progress_bar,
    resample_indices,
    small_blas,
)
from sumeval.stats.undefined import MIN_SYSTEMS

__all__ = ["correlate", "paired_test", "P_METHODS"]

#: p-values of the paired bootstrap test (:func:`paired_test`)
P_METHODS = ("percentile", "sacrerouge")

CORRELATE_COLUMNS = ["metric", "human", "level", "method", "value", "ci_low", "ci_high", "n",
                     "n_skipped", "resampling", "n_resamples", "n_resamples_used", "seed"]


def _frame_layout(frame: pd.DataFrame, levels: Sequence[str], doc_col: str,
                  system_col: str) -> Layout:
    """The frame's layout; systems are coded when a level or a resampling needs them."""
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    for lv in levels:
        if canonical_level(lv) == "system":
            check_system_count(lay, lv)
    return lay


def _draws(lay: Layout, resample: str, n_resamples: int, seed: int | np.random.Generator,
           indices: Resamples | None, where: str) -> Draws | None:
    if indices is not None:
        return Draws.of(check_indices(indices, resample, lay.n_sys, lay.n_docs, where))
    if n_resamples == 0:
        return None
    return Draws.of(resample_indices(lay.n_sys, lay.n_docs, resample, n_resamples, seed))


def _control(frame: pd.DataFrame, levels: Sequence[str], partial_control: str, system_col: str):
    """The partial level's :class:`~sumeval.stats.partial.Control`, or None without that level."""
    if not any(canonical_level(lv) == "partial" for lv in levels):
        return None
    from sumeval.stats.partial import frame_control

    return frame_control(frame, partial_control, system_col)


def _needs_systems(levels: Sequence[str], resample: str) -> bool:
    return resample != "inputs" or any(canonical_level(lv) != "global" for lv in levels)


def correlate(frame: pd.DataFrame, metrics: str | Sequence[str], humans: str | Sequence[str], *,
              level: str | Sequence[str], methods: str | Sequence[str] = METHODS,
              doc_col: str = "doc_id", system_col: str = "system", n_resamples: int = 1000,
              ci: float = 0.95, seed: int | np.random.Generator = 0,
              progress: bool = False, resample: str = "inputs",
              indices: Resamples | None = None, partial_control: str = "system",
              input_rule: InputRule | None = None) -> pd.DataFrame:
    """Correlations of metric columns with human columns, with bootstrap intervals.

    Args:
        frame: one row per (document, system) pair, with ``doc_col``, ``system_col`` (needed by
            the input and system levels and by systems resampling), the metric and the human
            columns (numbers, NaN for missing). Lower-is-better metrics must be passed negated.
        metrics, humans: a column name or a sequence of them.
        level: ``"input"``, ``"system"``, ``"global"`` or ``"partial"``, or a sequence of these
            (the older ``"document"`` / ``"summary"`` are refused:
            :data:`~sumeval.stats.checks.OLD_LEVEL_NAMES`); the ``level`` column repeats the name
            given. ``partial``: the global level's pairs after regressing
            ``partial_control`` out of both columns (:mod:`sumeval.stats.partial`, FRANK's).
        methods: names from :data:`METHODS` (default: all four).
        doc_col, system_col: the document and system id columns.
        n_resamples: number of bootstrap resamples; 0 for no interval.
        ci: coverage of the percentile interval.
        seed: ``int`` or ``numpy.random.Generator``; one set of ``n_resamples`` resamples is drawn
            from it (:func:`resample_indices`) and shared by every metric, human, level and
            method of the call.
        progress: show a progress bar over (metric, human) pairs.
        resample: ``"inputs"`` (documents; the default, as sumeval always did), ``"systems"`` or
            ``"both"`` (Deutsch, Dror & Roth 2021 recommend both).
        indices: resamples drawn beforehand (:func:`resample_indices`, or arrays of one's own);
            they replace ``n_resamples`` and ``seed``.
        partial_control: what the ``partial`` level regresses out: ``"system"`` (one-hot of
            ``system_col``, FRANK's) or a numeric column (e.g. ``"length"``); ``attrs`` records it.
        input_rule: how the ``input`` level averages its documents
            (:class:`~sumeval.stats.input_rules.InputRule`: RoSE's undefined-as-0, REALSumm's
            significant documents only); None: sumeval's (the defined ones). ``n`` counts the
            documents in the mean.

    Returns:
        A tidy frame, one row per (metric, human, level, method), in that nesting order, with
        columns ``metric, human, level, method, value, ci_low, ci_high, n, n_skipped,
        resampling, n_resamples, n_resamples_used, seed``: ``n`` = pairs (global level), documents (input
        level) or systems (system level) used; ``n_skipped`` = the ones excluded (pairs with a
        NaN; documents whose correlation is undefined; systems without a usable pair);
        ``n_resamples`` = resamples asked, ``n_resamples_used`` = those with a defined correlation (the
        interval's sample); ``seed`` = the int seed (None for a Generator or given indices).
        ``ci_low`` / ``ci_high`` are NaN when ``n_resamples == 0``, when no resample gives a defined
        correlation, or when the correlation itself is undefined (``n_resamples_used`` is then 0). A value is
        NaN when the correlation is undefined (a constant side, fewer
        than 2 pairs, fewer than 3 systems with a usable pair at the system level: two points
        always correlate +-1); :func:`~sumeval.stats.undefined_reason` says why. ``frame.attrs``
        records ``n_resamples``, ``ci``, ``seed`` (when an int) and ``resample``.
    """
    metric_names = names(metrics, "metric columns")
    human_names = names(humans, "human columns")
    levels = names(level, "levels")
    for lv in levels:
        canonical_level(lv)
    method_names = [check_method(m) for m in names(methods, "methods")]
    check_resample(resample)
    check_boot(n_resamples, ci)
    check_frame(frame)
    check_columns(frame, metric_names, "metric")
    check_columns(frame, human_names, "human")
    if _needs_systems(levels, resample):
        lay = _frame_layout(frame, levels, doc_col, system_col)
    else:
        lay = frame_layout(frame, doc_col, system_col, need_systems=False)
    draws = _draws(lay, resample, int(n_resamples), seed, indices, "correlate")
    n_asked = 0 if draws is None else draws.n
    seed_rec = None if indices is not None else seed_record(seed)
    metric_values = {c: frame_column(frame, c) for c in metric_names}
    human_values = {c: frame_column(frame, c) for c in human_names}
    control = _control(frame, levels, partial_control, system_col)

    rows = []
    pairs = [(mc, hc) for mc in metric_names for hc in human_names]
    with small_blas():
        for mc, hc in progress_bar(pairs, len(pairs), progress, "correlate"):
            for lv in levels:
                est = estimate_pair(lay, metric_values[mc], human_values[hc], lv, method_names,
                                    draws, control, input_rule)
                few = canonical_level(lv) == "system" and est[method_names[0]].n < MIN_SYSTEMS
                for m in method_names:
                    e = est[m]
                    lo, hi = percentile_interval(e.boot, ci)
                    used = 0 if e.boot is None else int(np.isfinite(e.boot).sum())
                    if few:  # 2 systems always correlate +-1: undefined, as stats.undefined says
                        e = Estimate(math.nan, e.n, e.n_skipped, None)
                    if not math.isfinite(e.value):  # no interval around an undefined value
                        lo = hi = math.nan
                        used = 0
                    rows.append({"metric": mc, "human": hc, "level": lv, "method": m,
                                 "value": e.value, "ci_low": lo, "ci_high": hi,
                                 "n": e.n, "n_skipped": e.n_skipped, "resampling": resample,
                                 "n_resamples": n_asked, "n_resamples_used": used, "seed": seed_rec})
    out = pd.DataFrame(rows, columns=CORRELATE_COLUMNS)
    out.attrs.update({"n_resamples": n_asked, "ci": float(ci), "resample": resample})
    if control is not None:
        out.attrs["partial_control"] = control.name
    if seed_rec is not None:
        out.attrs["seed"] = seed_rec
    return out


def paired_test(frame: pd.DataFrame, metric_a: str, metric_b: str, human: str, *, level: str,
                method: str, n_resamples: int = 1000, ci: float = 0.95,
                seed: int | np.random.Generator = 0, doc_col: str = "doc_id",
                system_col: str = "system", resample: str = "inputs",
                indices: Resamples | None = None, p_method: str = "percentile",
                partial_control: str = "system", input_rule: InputRule | None = None) -> dict[str, object]:
    """Is metric A's correlation with ``human`` different from metric B's? (paired bootstrap)

    Both correlations are computed on the same rows (those where A, B and the human score are all
    present) and, at the input level, averaged over the same documents (those where both are
    defined, in the data and in each resample). Each bootstrap resample draws inputs, systems or
    both with replacement (seeded: the same draws as :func:`correlate` with the same seed and
    frame layout) and recomputes both correlations on it, so the difference keeps their pairing.

    Test: two-sided percentile-bootstrap test of H0: diff = 0. With d*_1..d*_B the defined
    resampled differences, ``p = min(1, 2 * min(1 + #{d* <= 0}, 1 + #{d* >= 0}) / (B + 1))``
    (twice the smaller tail beyond 0, with the +1 of Davison & Hinkley 1997, so that
    p >= 2/(B+1) rather than 0). It is the inversion of the percentile interval: p < 1 - ci
    roughly when the ``ci`` interval excludes 0. ``p_method="sacrerouge"`` gives instead the
    p-value of SacreROUGE's ``bootstrap_diff_test`` (``sacrerouge/stats.py``, two-tailed, by the
    author of Deutsch, Dror & Roth 2021; after the pseudocode of Berg-Kirkpatrick et al. 2012, "An
    Empirical Investigation of Statistical Significance in NLP", EMNLP): the share of resamples
    whose difference is at least twice the observed one,
    ``p = #{|d*| >= 2 |d|} / B`` (no +1, compared exactly as SacreROUGE does). Either way
    ``p_raw`` is the count over B and ``p_floor`` the resampling floor (count + 1) / (B + 1) of
    Phipson & Smyth (2010) (for the percentile test: 2 (count + 1) / (B + 1), count the smaller
    tail). When a correlation is undefined (NaN), there is no test: every p is NaN.

    Args:
        frame: as for :func:`correlate`.
        metric_a, metric_b, human: column names.
        level: ``input``, ``system`` or ``global``;
            method: one of :data:`METHODS`.
        n_resamples: resamples (0: only the point estimates; interval and p are NaN).
        ci: coverage of the percentile interval of the difference.
        seed: ``int`` or ``numpy.random.Generator``.
        resample, indices: as for :func:`correlate`.
        p_method: ``"percentile"`` (default) or ``"sacrerouge"`` (above).
        partial_control: as for :func:`correlate` (the ``partial`` level only).
        input_rule: as for :func:`correlate`; other than sumeval's, each measure's input-level
            value is its own mean under the rule (on the common rows) and each resample's
            difference the difference of the two means.

    Returns:
        dict with ``metric_a, metric_b, human, level, method, corr_a, corr_b, diff`` (corr_a -
        corr_b), ``ci_low, ci_high`` (interval of diff), ``p_value`` (the p of ``p_method``),
        ``p_raw``, ``p_floor``, ``p_method``, ``n`` (pairs / documents / systems used),
        ``n_skipped``, ``resampling``, ``n_resamples`` (resamples asked), ``n_resamples_used`` (resamples
        where both correlations are defined) and ``seed``.
    """
    if p_method not in P_METHODS:
        raise InputError(f"unknown bootstrap p-value {p_method!r}; choose one of {', '.join(P_METHODS)}")
    canon = canonical_level(level)
    check_method(method)
    check_resample(resample)
    check_boot(n_resamples, ci)
    check_frame(frame)
    check_columns(frame, [metric_a, metric_b], "metric")
    check_columns(frame, [human], "human")
    if _needs_systems([level], resample):
        lay = _frame_layout(frame, [level], doc_col, system_col)
    else:
        lay = frame_layout(frame, doc_col, system_col, need_systems=False)
    xa, xb, y = (frame_column(frame, c) for c in (metric_a, metric_b, human))
    common = ~(np.isnan(xa) | np.isnan(xb) | np.isnan(y))
    xa = np.where(common, xa, np.nan)
    xb = np.where(common, xb, np.nan)
    draws = _draws(lay, resample, int(n_resamples), seed, indices, "paired_test")
    control = _control(frame, [level], partial_control, system_col)

    with small_blas():
        if canon == "input" and input_rule is not None and not input_rule.default:
            ea = estimate_pair(lay, xa, np.where(common, y, np.nan), canon, [method], draws, None, input_rule)[method]
            eb = estimate_pair(lay, xb, np.where(common, y, np.nan), canon, [method], draws, None, input_rule)[method]
            corr_a, corr_b, n, n_skipped = ea.value, eb.value, ea.n, ea.n_skipped
            boot = ea.boot - eb.boot if draws is not None else None
        elif canon == "input":
            ga, gb, gy = (lay.grid(v) for v in (xa, xb, np.where(common, y, np.nan)))
            ra = corr_rows(ga, gy, [method])[method]
            rb = corr_rows(gb, gy, [method])[method]
            ok = np.isfinite(ra) & np.isfinite(rb)
            corr_a = float(ra[ok].mean()) if ok.any() else math.nan
            corr_b = float(rb[ok].mean()) if ok.any() else math.nan
            n, n_skipped = int(ok.sum()), int(lay.n_docs - ok.sum())
            boot = None
            if draws is not None and draws.systems is None:
                boot = doc_mean_boot(np.where(ok, ra - rb, np.nan), draws.inputs)
            elif draws is not None:
                ba = input_boot(ga, gy, [method], draws.systems)[method]
                bb = input_boot(gb, gy, [method], draws.systems)[method]
                boot = doc_mean_boot(np.where(np.isfinite(ba) & np.isfinite(bb), ba - bb,
                                              np.nan), draws.inputs)
        else:
            ea = estimate_pair(lay, xa, y, canon, [method], draws, control)[method]
            eb = estimate_pair(lay, xb, y, canon, [method], draws, control)[method]
            corr_a, corr_b, n, n_skipped = ea.value, eb.value, ea.n, ea.n_skipped
            boot = ea.boot - eb.boot if draws is not None else None

    if canon == "system" and n < MIN_SYSTEMS:  # 2 systems always correlate +-1: undefined
        corr_a = corr_b = math.nan
        boot = None
    diff = corr_a - corr_b
    lo, hi = percentile_interval(boot, ci)
    d = np.empty(0) if boot is None else boot[np.isfinite(boot)]
    used = int(d.size)
    p, p_raw, p_floor = _bootstrap_p(d, diff, p_method)
    return {"metric_a": metric_a, "metric_b": metric_b, "human": human, "level": level,
            "method": method, "corr_a": corr_a, "corr_b": corr_b, "diff": diff,
            "ci_low": lo, "ci_high": hi, "p_value": p, "p_raw": p_raw, "p_floor": p_floor,
            "p_method": p_method, "n": n, "n_skipped": n_skipped,
            "resampling": resample, "n_resamples": 0 if draws is None else draws.n,
            "n_resamples_used": used, "seed": None if indices is not None else seed_record(seed)}


def _bootstrap_p(d: np.ndarray, diff: float, p_method: str) -> tuple[float, float, float]:
    """``(p, p_raw, p_floor)`` of the paired bootstrap test (:func:`paired_test`) from the defined
    resampled differences ``d`` (B,) and the observed difference; NaNs without a test."""
    if d.size == 0 or not math.isfinite(diff):
        return math.nan, math.nan, math.nan
    B = d.size
    if p_method == "percentile":
        count = min(int((d <= 0).sum()), int((d >= 0).sum()))  # the smaller tail beyond 0
        p_raw, p_floor = min(1.0, 2 * count / B), min(1.0, 2 * (count + 1) / (B + 1))
        return p_floor, p_raw, p_floor
    count = int((np.abs(d) >= 2 * abs(diff)).sum())  # SacreROUGE's bootstrap_diff_test, two-tailed
    p_raw, p_floor = count / B, (count + 1) / (B + 1)
    return p_raw, p_raw, p_floor
