"""Meta-evaluation across data sets: does a measure's standing hold from one set to the next?

:func:`meta_evaluate_across` runs :func:`~sumeval.meta_eval.meta_evaluate` on each data set (the
shelf's built-in sets, or any by name or path) with the same measures and settings, and gathers:

- **cells**: one row per (coefficient, measure, data set, human column, level) - a *task* is a
  (data set, human column, level) - with the correlation, its bootstrap interval, the measure's
  significance cluster and position on that task (clusters as the set's own meta-evaluation ranks
  them: every pair of the set's measures tested, Holm or BH over the pairs) and ``n``; a measure
  that cannot run on a set (it reads texts or references the set lacks, e.g. FRANK has no texts,
  QAGS no references) is a blank cell with the reason, never an error;
- **summary**: per measure the mean rank and the mean correlation over the tasks, following
  google-research/mt-metrics-eval's ``TaskSetResults.AverageRanks`` / ``AverageCorrs``
  (``mt_metrics_eval/tasks.py``): a task's rank of a measure is its significance cluster (1 = not
  significantly worse than the best; ``data.AssignRanks``), the means are weighted by task weights
  that sum to 1, and a correlation r is rescaled to (r + 1) / 2 so that it averages with an
  accuracy in [0, 1] (``mean_score``). Task weights follow ``AssignWeights(["dataset", "human",
  "level"])``: each data set gets its weight (equal by default, ``weights=`` to change them,
  normalised to sum 1), split evenly over its human columns, then over the levels each has.

Missing cells. mt-metrics-eval averages only the measures present on every task. Across this
shelf no measure is (FRANK has no texts, QAGS no references), so by default (``missing=
"available"``) a measure's means are over the tasks it has, the weights renormalised among them,
with ``coverage`` (the share of the total weight it has) and ``n_sets`` beside them; a measure on
fewer than ``min_sets`` data sets (a set's own column) gets no mean. ``missing="all"`` is
mt-metrics-eval's rule. A measure's cluster depends on which other measures run on the task, so a
mean rank over different tasks compares measures on partly different ground: read it with its
coverage.

Pairwise sets (``rank19``: two summaries per document, the system and global levels refused) are
judged by ranking accuracy (:mod:`sumeval.stats.pair_ranking`: the share of pairs where the better
summary scores higher, bootstrap interval over pairs, paired permutation tests, the same clusters)
at the ``input`` level, ``kind="accuracy"``; their meta-evaluation folder holds the usual files too.

Which human columns each set contributes by default: :data:`DEFAULT_HUMANS`. Each set is loaded,
scored and meta-evaluated by :mod:`sumeval.meta_eval.across_sets` (``jobs`` processes for the
statistics, the same numbers as one); :mod:`sumeval.meta_eval.across_output` writes the results and
is the command line.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from dataclasses import fields as dc_fields
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.datasets.shelf_table import SHELF
from sumeval.errors import InputError
from sumeval.meta_eval.across_sets import SetOutcome
from sumeval.meta_eval.analysis import Settings, StatisticsOptions

__all__ = ["DEFAULT_HUMANS", "MISSING", "AcrossSettings", "SetOutcome", "AcrossResult", "expand_datasets",
           "task_weights", "exact_task_weights", "summarize", "meta_evaluate_across"]

#: the human columns each built-in set contributes unless told otherwise (each row's ``humans``)
DEFAULT_HUMANS: dict[str, tuple[str, ...]] = {s.name: s.humans for s in SHELF.values()}
MISSING: tuple[str, ...] = ("available", "all")
CELL_COLUMNS = ["coefficient", "measure", "dataset", "human", "level", "kind", "value", "ci_low", "ci_high", "rank",
                "cluster", "n", "status", "reason"]
TASK_COLUMNS = ["dataset", "human", "level", "kind", "status", "reason", "weight", "n_measures"]
SUMMARY_COLUMNS = ["coefficient", "scope", "measure", "position", "mean_rank", "mean_score", "mean_corr", "n_tasks",
                   "n_sets", "coverage", "reason"]


@dataclass(frozen=True)
class AcrossSettings(StatisticsOptions):
    """What an across-sets meta-evaluation computes: the
    :class:`~sumeval.meta_eval.analysis.StatisticsOptions` of every set's meta-evaluation (the
    human columns are chosen per set), with their defaults but one, and

    meta_metric: must include ``correlation`` (the across ranking is by correlation).
    spa: off by default here (unlike one set's meta-evaluation): the across ranking is by correlation, and soft
        pairwise accuracy on every set costs minutes (DialSummEval: 41 measures x 4 qualities); on with
        ``meta_metric`` ``spa`` (the command line turns it on then).
    weights: ``{data set: weight}`` (>= 0; sets left out weigh 1), normalised over the sets run.
    missing: ``available`` or ``all`` (module docstring). min_sets: the fewest data sets a measure
        needs for a mean (``available`` only).
    ties: how a pairwise set counts a tie (:mod:`sumeval.stats.pair_ranking`).
    jobs: processes for the statistics (one unit per (data set, human column); 1: this process).
    """

    spa: bool = False
    weights: Mapping[str, float] = field(default_factory=dict)
    missing: str = "available"
    min_sets: int = 2
    ties: str = "wrong"
    jobs: int = 1

    def for_set(self, humans: Sequence[str], levels: Sequence[str]) -> Settings:
        """The :class:`~sumeval.meta_eval.Settings` of one set's meta-evaluation (checked)."""
        shared = {f.name: getattr(self, f.name) for f in dc_fields(StatisticsOptions) if f.name != "levels"}
        shared["close_pairs"] = self.close_pairs and "system" in levels  # system-level views: where that level runs
        settings = Settings(humans=tuple(humans), levels=tuple(levels), **shared)
        settings.check()
        return settings

    def check(self) -> None:
        """InputError naming the setting and its value when one is not valid."""
        from sumeval.stats.pair_ranking import TIES

        self.for_set(("_",), self.levels)
        if "correlation" not in self.meta_metric:
            raise InputError(f"--meta-metric {' '.join(self.meta_metric)}: the across ranking is by correlation; "
                             "add correlation (e.g. --meta-metric correlation spa)")
        if self.missing not in MISSING:
            raise InputError(f"missing={self.missing!r}: choose {' or '.join(MISSING)}")
        if isinstance(self.min_sets, bool) or not isinstance(self.min_sets, (int, np.integer)) or self.min_sets < 1:
            raise InputError(f"min_sets must be a whole number >= 1, got {self.min_sets!r}")
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, (int, np.integer)) or self.jobs < 1:
            raise InputError(f"jobs must be a whole number >= 1, got {self.jobs!r}")
        if self.ties not in TIES:
            raise InputError(f"ties={self.ties!r}: choose one of {', '.join(TIES)}")
        for name, w in self.weights.items():
            if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)) or not np.isfinite(w) \
                    or w < 0:
                raise InputError(f"weight of data set {name!r} must be a number >= 0, got {w!r}")


@dataclass
class AcrossResult:
    """What :func:`meta_evaluate_across` returns: the per-set outcomes, ``cells``
    (:data:`CELL_COLUMNS`), ``tasks`` (:data:`TASK_COLUMNS`), ``summary`` (:data:`SUMMARY_COLUMNS`)
    and ``measures`` (every label, in order: the given measures, then each set's own columns)."""

    settings: AcrossSettings
    sets: dict[str, SetOutcome]
    measures: list[str]
    given: list[str]
    cells: pd.DataFrame
    tasks: pd.DataFrame
    summary: pd.DataFrame
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def expand_datasets(names: Sequence[str]) -> list[str]:
    """The data sets named, ``shelf`` expanded to every built-in judged set, duplicates dropped."""
    out: list[str] = []
    for n in names:
        out.extend(SHELF if n == "shelf" else [n])
    out = list(dict.fromkeys(out))
    if not out:
        raise InputError("name at least one data set (--dataset NAME [NAME ...], or --dataset shelf)")
    return out


# --------------------------------------------------------------------------------------------
# Weights and means
# --------------------------------------------------------------------------------------------
def task_weights(tasks: pd.DataFrame, dataset_weights: Mapping[str, float] | None = None) -> pd.Series:
    """Weights of ``tasks`` (columns ``dataset, human, level``), summing to 1: each data set gets
    its weight (default 1; normalised over the sets present), split evenly over its human columns,
    then over each human column's levels (mt-metrics-eval's ``AssignWeights``). The floats of
    :func:`exact_task_weights`.

    >>> t = pd.DataFrame({"dataset": ["a", "a", "a", "b"], "human": ["x", "x", "y", "z"],
    ...                   "level": ["input", "system", "input", "global"]})
    >>> task_weights(t).tolist()   # a: 1/2 -> x 1/4 (2 levels: 1/8 each), y 1/4; b: 1/2
    [0.125, 0.125, 0.25, 0.5]
    """
    return pd.Series([float(w) for w in exact_task_weights(tasks, dataset_weights)], index=tasks.index, dtype=float)


def exact_task_weights(tasks: pd.DataFrame, dataset_weights: Mapping[str, float] | None = None) -> list[Fraction]:
    """The weights of :func:`task_weights` as exact fractions (a set's weight, a float, is an exact
    binary fraction; the splits over human columns and levels are exact), in the order of ``tasks``:
    sums of them do not depend on the order of the tasks (:func:`summarize`)."""
    dataset_weights = dict(dataset_weights or {})
    if tasks.empty:
        return []
    sets = list(dict.fromkeys(tasks["dataset"]))
    raw = {s: Fraction(float(dataset_weights.get(s, 1.0))) for s in sets}
    total = sum(raw.values())
    if total <= 0:
        raise InputError(f"the data set weights {{{', '.join(f'{s!r}: {float(w)}' for s, w in raw.items())}}} "
                         "sum to 0; give some set a weight > 0")
    humans = {s: list(dict.fromkeys(tasks.loc[tasks["dataset"] == s, "human"])) for s in sets}
    levels = tasks.groupby(["dataset", "human"], sort=False).size().to_dict()
    return [raw[s] / total / len(humans[s]) / levels[(s, h)] for s, h in zip(tasks["dataset"], tasks["human"])]


def _score01(value: float, kind: str) -> float:
    """A task's value on [0, 1]: (r + 1) / 2 for a correlation, an accuracy as it is."""
    return value if kind == "accuracy" else (value + 1.0) / 2.0


def summarize(cells: pd.DataFrame, tasks: pd.DataFrame, *, weights: Mapping[str, float] | None = None,
              missing: str = "available", min_sets: int = 2, scope: str = "all") -> pd.DataFrame:
    """Mean rank and mean correlation per measure over the tasks of one coefficient (module docstring).

    Args:
        cells: :data:`CELL_COLUMNS` rows of one coefficient; the cells with ``status == "ok"`` count.
        tasks: the tasks run (``dataset, human, level, kind``); their weights are :func:`task_weights`.
        weights: data set weights; missing, min_sets: as :class:`AcrossSettings`.
        scope: recorded in the ``scope`` column (``all`` or a level).

    Returns:
        :data:`SUMMARY_COLUMNS`: ``mean_rank`` (weighted mean cluster), ``mean_score`` (weighted
        mean of the values on [0, 1]), ``mean_corr`` (weighted mean of the correlations, accuracy
        tasks left out), ``n_tasks``, ``n_sets``, ``coverage`` (the share of the total weight the
        measure's tasks carry), ``position`` (1 = lowest mean rank, ties broken by the higher mean
        score, then by the measure's name), ``reason`` where a measure gets no mean.

    Ties. Each mean is summed in exact arithmetic (:func:`exact_task_weights`; clusters are whole
    numbers, correlations exact binary fractions) and rounded once, so it does not depend on the
    order of the tasks, and means equal as numbers are equal floats (a measure in cluster 1 on every
    task has mean rank 1.0, not 0.9999999999999998). Means that still differ only by rounding (two
    measures whose correlations tie as numbers but came out a few units in the last place apart)
    are one tie by the rule of the system means (:func:`sumeval.stats.ties.snap_ties`, relative
    tolerance :data:`~sumeval.stats.ties.TIE_RTOL`), applied to each column of this summary before
    the positions are given, so the order and the bold of the tables (equal values) agree.
    """
    from sumeval.stats.ties import snap_ties

    key = ["dataset", "human", "level"]
    wt = {tuple(r): w for r, w in zip(tasks[key].itertuples(index=False), exact_task_weights(tasks, weights))}
    coefficient = cells["coefficient"].iloc[0] if len(cells) else None
    ok = cells[cells["status"] == "ok"]
    rows = []
    for m in dict.fromkeys(cells["measure"]):
        mine = ok[ok["measure"] == m]
        ws = [wt.get(tuple(r), Fraction(0)) for r in mine[key].itertuples(index=False)]
        n_sets = int(mine["dataset"].nunique())
        row = {"coefficient": coefficient, "scope": scope, "measure": m, "n_tasks": len(mine), "n_sets": n_sets,
               "coverage": float(sum(ws)), "mean_rank": np.nan, "mean_score": np.nan, "mean_corr": np.nan,
               "reason": None}
        if missing == "all" and len(mine) < len(tasks):
            row["reason"] = f"on {len(mine)} of the {len(tasks)} tasks (missing='all' needs every task)"
        elif n_sets < min_sets:
            row["reason"] = f"on {n_sets} data set(s); a mean needs at least {min_sets}"
        elif sum(ws) <= 0:
            row["reason"] = "its tasks all weigh 0"
        else:
            row["mean_rank"] = _weighted_mean(ws, mine["cluster"])
            row["mean_score"] = _weighted_mean(ws, [_score01(v, k) for v, k in zip(mine["value"], mine["kind"])])
            corr = (mine["kind"] != "accuracy").to_numpy()
            if corr.any() and sum(w for w, c in zip(ws, corr) if c) > 0:
                row["mean_corr"] = _weighted_mean([w for w, c in zip(ws, corr) if c], mine["value"][corr])
        rows.append(row)
    out = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    for col in ("mean_rank", "mean_score", "mean_corr"):  # ties within rounding are ties (stats.ties)
        out[col] = snap_ties(out[col].to_numpy(float))
    ranked = out.dropna(subset=["mean_rank"]).sort_values(["mean_rank", "mean_score", "measure"],
                                                           ascending=[True, False, True], kind="stable")
    out["position"] = pd.Series(np.arange(1, len(ranked) + 1), index=ranked.index)
    return out.sort_values(["position", "measure"], na_position="last", kind="stable").reset_index(drop=True)


def _weighted_mean(weights: Sequence[Fraction], values) -> float:
    """sum(w * x) / sum(w) in exact arithmetic (the floats ``values`` are exact binary fractions),
    rounded once: the same float whatever the order of the terms, so measures whose means are equal
    as numbers (all in cluster 1 on tasks of different weights) get the same mean, exactly."""
    return float(sum(w * Fraction(float(x)) for w, x in zip(weights, values)) / sum(weights))


# --------------------------------------------------------------------------------------------
# Gathering
# --------------------------------------------------------------------------------------------
def _task_values(outcome: SetOutcome, coefficient: str, human: str, level: str) -> tuple[pd.DataFrame, str]:
    """``(values, kind)``: per measure label ``value, ci_low, ci_high, n, rank, cluster, reason`` on one task."""
    if outcome.pairwise:
        acc = outcome.accuracy[outcome.accuracy["human"] == human].set_index("measure")
        rk = outcome.accuracy_ranking[outcome.accuracy_ranking["human"] == human].set_index("measure")
        values = acc.rename(columns={"accuracy": "value"})[["value", "ci_low", "ci_high", "n"]]
        return values.join(rk[["rank", "cluster"]]).assign(reason=None), "accuracy"
    r = outcome.result

    def sel(f: pd.DataFrame) -> pd.DataFrame:
        return f[(f["human"] == human) & (f["level"] == level) & (f["coefficient"] == coefficient)].set_index("measure")

    cor = sel(r.correlations)
    values = cor[["value", "ci_low", "ci_high", "n"]].join(sel(r.ranking)[["rank", "cluster"]])
    values["reason"] = cor["reason"] if "reason" in cor.columns else None
    return values, "correlation"


def _cells(outcome: SetOutcome, coefficient: str, given_labels: Mapping[str, str]) -> list[dict]:
    """The cells of one set and coefficient: every measure asked on it, for every task run."""
    rows = []
    blank = {given_labels.get(t, t): why for t, why in outcome.blank.items()}
    for (h, lv), why in outcome.tasks.items():
        if why is not None:
            continue
        values, kind = _task_values(outcome, coefficient, h, lv)
        base = {"coefficient": coefficient, "dataset": outcome.name, "human": h, "level": lv, "kind": kind}
        rows += [{**base, "measure": m, "status": "cannot run", "reason": reason} for m, reason in blank.items()]
        for m in outcome.labels:
            v = values.loc[m]
            defined = bool(np.isfinite(v["value"]))
            rows.append({**base, "measure": m, "value": v["value"], "ci_low": v["ci_low"], "ci_high": v["ci_high"],
                         "n": v["n"], "rank": v["rank"] if defined else np.nan,
                         "cluster": v["cluster"] if defined else np.nan, "status": "ok" if defined else "undefined",
                         "reason": None if defined else (v["reason"] if isinstance(v["reason"], str) and v["reason"]
                                                         else "the correlation is undefined on this task")})
    return rows


def _check_options_early(measures: Sequence[str], measure_classes: Sequence[str],
                         options: Mapping[str, Any]) -> None:
    """Refuse an option no measure takes before any set is read, when every measure is a registered name
    (a column or a class is resolved per set: :func:`meta_evaluate_across` checks again after them)."""
    from sumeval.metrics.registry import accepted_options, registered_class

    if not options or measure_classes:
        return
    used: set[str] = set()
    for text in measures:
        _, cls = registered_class(text)
        if cls is None:
            return
        used.update(accepted_options(cls, options))
    if set(options) - used:
        raise _unused_options(set(options) - used, measures)


def _unused_options(unused, texts: Sequence[str]) -> InputError:
    return InputError(f"option(s) {', '.join(sorted(unused))} are not used by any of the measures {', '.join(texts)}; "
                      "leave them out (a study's parameter: set it empty, e.g. -p precision=) or add a measure that "
                      "takes them")


def _tasks(outcomes: dict[str, SetOutcome], weights: Mapping[str, float]) -> pd.DataFrame:
    rows = []
    for o in outcomes.values():
        for (h, lv), why in o.tasks.items():
            run = o.status == "ok" and why is None
            rows.append({"dataset": o.name, "human": h, "level": lv,
                         "kind": "accuracy" if o.pairwise else "correlation",
                         "status": "run" if run else "not run", "reason": why or (o.reason if not run else None),
                         "n_measures": len(o.labels) if run else 0})
    tasks = pd.DataFrame(rows, columns=[c for c in TASK_COLUMNS if c != "weight"])
    run = tasks["status"] == "run"
    tasks["weight"] = 0.0
    tasks.loc[run, "weight"] = task_weights(tasks[run], weights)
    return tasks[TASK_COLUMNS]


def meta_evaluate_across(datasets: Sequence[str], measures: Sequence[str], settings: AcrossSettings | None = None,
                         *, humans: Mapping[str, Sequence[str]] | None = None,
                         options: Mapping[str, Any] | None = None, own_columns: bool = True,
                         n_docs: int | None = None, module_path: Sequence[str] = (), progress: bool = False,
                         cache: bool = True, measure_classes: Sequence[str] = ()) -> AcrossResult:
    """Meta-evaluate ``measures`` on each of ``datasets`` and across them (module docstring).

    Args:
        datasets: data set names or paths (``shelf``: every built-in judged set).
        measures: measure specs (:mod:`sumeval.metrics.sources`), the same on every set.
        settings: :class:`AcrossSettings` (checked first).
        humans: ``{data set: human columns}``; a set left out uses :data:`DEFAULT_HUMANS` (or all its
            human columns).
        options: scorer options; each measure gets those its scorer accepts (an option no measure
            takes is an error).
        own_columns: add each set's precomputed measure columns (not the opt-in ones).
        n_docs: the first documents of each set only (smoke runs).
        module_path: folders searched first for ``module:Class`` measures.
        measure_classes: ``module:Class`` paths (``--measure-class``), after ``measures``: read as
            classes only, never for the ``:lower`` suffix (a class may be named ``lower``).

    Returns:
        An :class:`AcrossResult`.
    """
    from sumeval.meta_eval.across_sets import finish_set, prepare_set, run_units

    settings = settings or AcrossSettings()
    settings.check()
    names = expand_datasets(datasets)
    humans = dict(humans or {})
    unknown = sorted((set(settings.weights) | set(humans)) - set(names))
    if unknown:
        raise InputError(f"weights or human columns are given for {unknown}, which are not among the data sets "
                         f"{names}; name each set as it is run")
    options = dict(options or {})
    _check_options_early(measures, measure_classes, options)
    used: set[str] = set()
    t0 = time.perf_counter()
    prepared = [prepare_set(n, list(measures), settings, humans.get(n), DEFAULT_HUMANS.get(n, ()), options, used,
                            own_columns=own_columns, n_docs=n_docs, progress=progress, cache=cache,
                            module_path=module_path, classes=measure_classes) for n in names]
    texts = [*measures, *measure_classes]
    if set(options) - used:
        raise _unused_options(set(options) - used, texts)
    t1 = time.perf_counter()
    parts = run_units(prepared, settings, jobs=settings.jobs, progress=progress)
    sets = {p.outcome.name: finish_set(p, part, settings) for p, part in zip(prepared, parts)}
    t2 = time.perf_counter()
    given_labels: dict[str, str] = {}
    for o in sets.values():
        if o.result is not None:
            for m in o.result.measures:
                given_labels.setdefault(m["spec"], m["label"])
    given = [given_labels.get(t, t) for t in texts]
    order = list(dict.fromkeys([*given, *(lab for o in sets.values() for lab in o.labels)]))
    cells = pd.DataFrame([c for coef in settings.coefficients for o in sets.values() if o.status == "ok"
                          for c in _cells(o, coef, given_labels)], columns=CELL_COLUMNS)
    tasks = _tasks(sets, settings.weights)
    run = tasks[tasks["status"] == "run"]
    parts = []
    for coef in settings.coefficients:
        cc = cells[cells["coefficient"] == coef]
        scopes = [("all", run)] + [(lv, run[run["level"] == lv]) for lv in settings.levels
                                   if (run["level"] == lv).any()]
        for scope, tk in scopes:
            sub = cc.merge(tk[["dataset", "human", "level"]], on=["dataset", "human", "level"])
            if len(sub):
                parts.append(summarize(sub, tk, weights=settings.weights, missing=settings.missing,
                                       min_sets=settings.min_sets, scope=scope))
    summary = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=SUMMARY_COLUMNS)
    notes = [f"{o.name}: skipped: {o.reason}" for o in sets.values() if o.status != "ok"]
    timings = {f"{o.name}_s": round(o.timings.get("total_s", o.timings.get("scoring_s", 0.0)), 3)
               for o in sets.values()}
    timings.update(scoring_s=t1 - t0, statistics_s=t2 - t1, total_s=time.perf_counter() - t0)
    return AcrossResult(settings=settings, sets=sets, measures=order, given=given, cells=cells, tasks=tasks,
                        summary=summary, timings=timings, notes=notes)
