"""Study ``shelf``: which measures hold up across domains?

Thin: the computation is :func:`sumeval.meta_eval.across.meta_evaluate_across` (every set's own
meta-evaluation, then the cells, mean ranks and mean correlations across the sets); this module
turns the notebook's flat parameters into its arguments and picks the key numbers.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from sumeval.stats.pairwise import CLOSE_PAIR_INTERVAL_NOTE

__all__ = ["PARAMETER_RANGES", "OFFLINE_MEASURES", "SENTINEL_COLUMNS", "evaluate", "key_results", "explorer_frame",
           "sentinel_cells", "sentinel_table", "system_pairs", "close_pair_table", "pdp_table", "rank_interval_table",
           "CLOSE_PAIRS_CAPTION", "PDP_CAPTION", "RANK_INTERVALS_CAPTION"]

#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": (">=0", "0 means all documents"), "n_resamples": ">=1", "alpha": "0..1",
                    "min_sets": ">=1", "jobs": ">=1", "layer": (">=-1", "-1: each measure's default layer")}
#: the columns of :func:`sentinel_cells`
SENTINEL_COLUMNS = ["dataset", "human", "level", "coefficient", "measure", "value", "ci_low", "ci_high", "n"]
#: the measures computable offline (the packaged models), the study's default
OFFLINE_MEASURES = "rouge-1,rouge-2,rouge-l,bleu,js-2,bertscore,estime,estime-soft,similarity-order"


def evaluate(*, datasets: str = "shelf", measures: str = OFFLINE_MEASURES, own_columns: bool = True,
             humans: str = "", levels: str = "input,system,global", coefficient: str = "kendall_b",
             test: str = "permutation-both", n_resamples: int = 1000, seed: int = 0, alpha: float = 0.05,
             weights: str = "", missing: str = "available", min_sets: int = 2, n_docs: int = 0, model: str = "",
             layer: int = -1, precision: str = "", jobs: int = 1, close_pairs: bool = True, progress: bool = False):
    """Meta-evaluate ``measures`` on each of ``datasets`` and across them.

    Args:
        datasets: comma-separated data set names (``shelf``: every built-in judged set).
        measures: comma-separated measure specs, the same on every set; own_columns: add each set's
            precomputed measure columns.
        humans: comma-separated ``SET:COLUMN`` (a set not named uses its default human columns,
            :data:`sumeval.meta_eval.across.DEFAULT_HUMANS`).
        levels, coefficient, test, n_resamples, seed, alpha: as ``sumeval meta-eval``.
        weights: comma-separated ``SET=W`` data set weights; missing, min_sets: how the means treat
            missing cells (:class:`~sumeval.meta_eval.across.AcrossSettings`).
        n_docs: the first documents of each set only (0: all).
        model, layer, precision: options of the model-based measures (empty / -1: their defaults).
        jobs: processes for the statistics (one unit per data set and human column).
        close_pairs: on every set with a system level, also the close system pairs, PDP and the systems'
            rank intervals (:func:`system_pairs`; computed after the rest, from their own draws: no other
            number moves).

    Returns:
        An :class:`~sumeval.meta_eval.across.AcrossResult`.
    """
    from sumeval.meta_eval.across import AcrossSettings, meta_evaluate_across
    from sumeval.meta_eval.across_output import parse_humans, parse_weights
    from sumeval.studies.common.measure_parameters import scorer_options, split

    settings = AcrossSettings(levels=split(levels), coefficients=split(coefficient), test=test,
                              n_resamples=n_resamples, seed=seed, alpha=alpha, weights=parse_weights([weights]),
                              missing=missing, min_sets=min_sets, jobs=jobs, close_pairs=close_pairs)
    return meta_evaluate_across(list(split(datasets)), list(split(measures)), settings,
                                humans=parse_humans([humans]), options=scorer_options(model, layer, precision),
                                own_columns=own_columns, n_docs=n_docs or None, progress=progress)


def key_results(result) -> dict[str, Any]:
    """The study's key numbers (``results.json``): the across-sets ranking of the given measures
    over every level, the leader, each measure's share of its tasks in cluster 1, the best measure
    of every task, and what each set did."""
    coef = result.settings.coefficients[0]
    s = result.summary[(result.summary["coefficient"] == coef) & (result.summary["scope"] == "all")]
    ranked = s.dropna(subset=["mean_rank"]).sort_values("position")
    cells = result.cells[(result.cells["coefficient"] == coef) & (result.cells["status"] == "ok")]
    top = cells.sort_values("value", ascending=False).groupby(["dataset", "human", "level"], sort=False).head(1)
    return {
        "coefficient": coef,
        "leader": ranked["measure"].iloc[0] if len(ranked) else None,
        "ranking": ranked[["measure", "position", "mean_rank", "mean_score", "mean_corr", "coverage", "n_sets",
                           "n_tasks"]],
        "cluster1_share": {m: float((g["cluster"] == 1).mean()) for m, g in cells.groupby("measure", sort=False)
                           if m in set(result.given)},
        "best_per_task": {f"{r.dataset}/{r.human}/{r.level}": {"measure": r.measure, "value": r.value}
                          for r in top.itertuples()},
        "sets": {o.name: {"status": o.status, "reason": o.reason, "measures": len(o.labels),
                          "cannot_run": sorted(o.blank)} for o in result.sets.values()},
        "n_tasks": int((result.tasks["status"] == "run").sum()),
        "sentinels": _sentinel_results(result, coef),
        "timings_s": {k: round(v, 1) for k, v in result.timings.items()},
    }


def _sentinel_results(result, coefficient: str) -> dict[str, dict[str, Any]]:
    """Per task: each sentinel's value (the random one's mean and range) and how many measures lie above the
    length sentinel and above the random range."""
    from sumeval.meta_eval.sentinels import LENGTH, RANDOM

    cells = sentinel_cells(result)
    cells = cells[cells["coefficient"] == coefficient]
    ok = result.cells[(result.cells["coefficient"] == coefficient) & (result.cells["status"] == "ok")]
    out = {}
    for (d, h, lv), g in cells.groupby(["dataset", "human", "level"], sort=False):
        s = g.set_index("measure")
        m = ok.loc[(ok["dataset"] == d) & (ok["human"] == h) & (ok["level"] == lv), "value"]
        row: dict[str, Any] = {k: float(v) for k, v in s["value"].items() if k != RANDOM}
        if RANDOM in s.index:
            row["random"] = {"mean": float(s.loc[RANDOM, "value"]), "low": float(s.loc[RANDOM, "ci_low"]),
                             "high": float(s.loc[RANDOM, "ci_high"])}
            row["n_above_random"] = int((m > s.loc[RANDOM, "ci_high"]).sum())
        if LENGTH in s.index:
            row["n_above_length"] = int((m > s.loc[LENGTH, "value"]).sum())
        row["n_measures"] = len(m)
        out[f"{d}/{h}/{lv}"] = row
    return out


def explorer_frame(result) -> pd.DataFrame:
    """The cells that have a value (for the explorer): one row per (coefficient, measure, task)."""
    cells = result.cells[result.cells["status"] == "ok"].copy()
    cells["task"] = cells["dataset"] + "/" + cells["human"]
    return cells


def sentinel_cells(result) -> pd.DataFrame:
    """Every set's sentinel rows (:mod:`sumeval.meta_eval.sentinels`: length, source overlap, constant, random
    with the range of its draws), one per (data set, human, level, coefficient, sentinel), for the tasks the
    across cells have; never cells of the across ranking. A pairwise set (Rank19) and a set without summary
    texts have none."""
    tasks = result.tasks[result.tasks["status"] == "run"]
    run = set(zip(tasks["dataset"], tasks["human"], tasks["level"]))
    parts = []
    for name, o in result.sets.items():
        if o.result is None or o.pairwise:
            continue
        c = o.result.correlations
        c = c[(c["role"] == "sentinel") & (c["coefficient"].isin(result.settings.coefficients))]
        keep = [(name, h, lv) in run for h, lv in zip(c["human"], c["level"])]
        parts.append(c[keep].assign(dataset=name))
    if not parts:
        return pd.DataFrame(columns=SENTINEL_COLUMNS)
    return pd.concat(parts, ignore_index=True)[SENTINEL_COLUMNS]


def sentinel_table(result, coefficient: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(values, bold)``: the sentinels (rows; the random one as its mean and the ends of the range of its
    draws) x tasks (data set, human, level), and beside them ``best measure``, the best measure's value on the
    task; bold where a sentinel is at least as high as that measure. A reader sees where length or copying
    alone does as well as the best measure, and where the best measure is within the random noise."""
    from sumeval.meta_eval.sentinels import ORDER, RANDOM

    cells = sentinel_cells(result)
    cells = cells[cells["coefficient"] == coefficient]
    if not len(cells):
        return pd.DataFrame(), pd.DataFrame()
    q = (1 - result.settings.ci) / 2
    lo, hi = f"{RANDOM}: {100 * q:g}% of draws", f"{RANDOM}: {100 * (1 - q):g}% of draws"
    rows = []
    for r in cells.itertuples():
        rows.append((r.measure, r.dataset, r.human, r.level, r.value))
        if r.measure == RANDOM:
            rows += [(lo, r.dataset, r.human, r.level, r.ci_low), (hi, r.dataset, r.human, r.level, r.ci_high)]
    ok = result.cells[(result.cells["coefficient"] == coefficient) & (result.cells["status"] == "ok")]
    best = ok.groupby(["dataset", "human", "level"], sort=False)["value"].max()
    rows += [("best measure", d, h, lv, v) for (d, h, lv), v in best.items()
             if (d, h, lv) in set(zip(cells["dataset"], cells["human"], cells["level"]))]
    f = pd.DataFrame(rows, columns=["measure", "dataset", "human", "level", "value"])
    values = f.pivot_table(index="measure", columns=["dataset", "human", "level"], values="value", aggfunc="first",
                           dropna=False, sort=False)
    order = [m for m in (*ORDER, lo, hi, "best measure") if m in values.index]
    present = list(dict.fromkeys(zip(cells["dataset"], cells["human"], cells["level"])))
    values = values.reindex(index=order,
                            columns=pd.MultiIndex.from_tuples(present, names=["dataset", "human", "level"]))
    ref = values.loc["best measure"] if "best measure" in values.index else None
    bold = pd.DataFrame(False, index=values.index, columns=values.columns)
    if ref is not None:
        for m in values.index:
            if m not in ("best measure", lo, hi):
                bold.loc[m] = (values.loc[m] >= ref - 1e-12).fillna(False).to_numpy()
    return values, bold


def _measure_order(result, name: str, measures) -> list[str]:
    """The order of a set's ``measures`` in the system-pair tables: the given measures, the set's own columns,
    then the rest (the sentinels) in the sentinels' order."""
    o = result.sets[name]
    return [m for m in dict.fromkeys([*result.given, *o.labels]) if m in set(measures)] + sorted(
        set(measures) - set(result.given) - set(o.labels), key=_sentinel_position)


def _sentinel_position(label: str) -> int:
    from sumeval.meta_eval.sentinels import ORDER

    return ORDER.index(label) if label in ORDER else len(ORDER)


def system_pairs(result) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """Every set's close pairs, PDP and rank intervals (``close_pairs=True``; :func:`sumeval.meta_eval.analysis.
    system_pair_frames`), with a ``dataset`` column, for the human columns whose system level ran; and a note for
    every (set, human column) without them, with the reason (no system level, fewer than 3 systems, not asked
    for). Returns ``({"close_pairs": ..., "pdp": ..., "rank_intervals": ...}, notes)``."""
    parts: dict[str, list[pd.DataFrame]] = {"close_pairs": [], "pdp": [], "rank_intervals": []}
    notes: list[str] = []
    if "system" not in result.settings.levels:
        return {k: pd.DataFrame() for k in parts}, ["no close pairs, PDP or rank intervals: the system level is not "
                                                   "among the levels run"]
    if not result.settings.close_pairs:
        return {k: pd.DataFrame() for k in parts}, ["no close pairs, PDP or rank intervals: close_pairs is off"]
    tasks = result.tasks[result.tasks["level"] == "system"]
    for name, o in result.sets.items():
        frames = getattr(o.result, "system_pairs", None) or {}
        for t in tasks[tasks["dataset"] == name].itertuples():
            cp = frames.get("close_pairs")
            if t.status != "run":
                notes.append(f"{name} / {t.human}: no close pairs, PDP or rank intervals: no system level ({t.reason})")
            elif cp is None or not (cp["human"] == t.human).any():
                few = any(n.startswith("--close-pairs: fewer than 3 systems") for n in o.result.notes)
                notes.append(f"{name} / {t.human}: no close pairs, PDP or rank intervals: "
                             + ("fewer than 3 systems" if few else "none computed"))
        run = set(tasks.loc[(tasks["dataset"] == name) & (tasks["status"] == "run"), "human"])
        for key in parts:
            f = frames.get(key)
            if f is None or not len(f):
                continue
            if key == "rank_intervals":
                keep = (f["role"] != "human") | f["column"].isin(run)
            else:
                keep = f["human"].isin(run)
            parts[key].append(f[keep].assign(dataset=name))
    out = {k: (pd.concat(v, ignore_index=True) if v else pd.DataFrame()) for k, v in parts.items()}
    for k, f in out.items():
        if len(f):
            out[k] = f[["dataset", *[c for c in f.columns if c != "dataset"]]]
    return out, notes


def _task_rows(frame: pd.DataFrame, result, value_cols: dict[str, tuple[str, str, str]]):
    """``(values, low, high)``: one row per (data set, human, measure) (measures in :func:`_measure_order`:
    the sentinels last), one column per ``value_cols`` item ``column: (selector, selected value, value column)``."""
    out: dict[str, list] = {"value": [], "ci_low": [], "ci_high": []}
    index = []
    for (d, h), g in frame.groupby(["dataset", "human"], sort=False):
        for m in _measure_order(result, d, set(g["measure"])):
            gm = g[g["measure"] == m]
            picked = {col: gm[gm[sel] == val] for col, (sel, val, _) in value_cols.items()}
            for key in out:
                out[key].append({col: float(r[value_cols[col][2] if key == "value" else key].iloc[0]) if len(r)
                                 else float("nan") for col, r in picked.items()})
            index.append((d, h, m))
    idx = pd.MultiIndex.from_tuples(index, names=["dataset", "human", "measure"])
    return tuple(pd.DataFrame(out[k], index=idx, columns=list(value_cols)) for k in ("value", "ci_low", "ci_high"))


def close_pair_table(result, close_pairs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """``(values, low, high)``: each measure's agreement on the closest, middle and farthest third of a task's
    system pairs by human difference (rows: data set, human, measure, the sentinels last), and its
    document-bootstrap interval."""
    if not len(close_pairs):
        return pd.DataFrame(), pd.DataFrame(), pd.DataFrame()
    labels = list(dict.fromkeys(close_pairs.sort_values("bin")["bin_label"]))
    thirds = close_pairs["n_bins"].max() == 3
    return _task_rows(close_pairs, result, {f"{lab} third" if thirds else lab: ("bin_label", lab, "agreement")
                                            for lab in labels})


def pdp_table(result, pdp: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """``(values, low, high)``: each measure's Pairwise Difference Pearson on a task, between systems on the same
    input (the paper's) and between system means (the system-level Pearson), with document-bootstrap intervals."""
    if not len(pdp):
        return pd.DataFrame(), pd.DataFrame(), pd.DataFrame()
    return _task_rows(pdp, result, {"PDP (same input)": ("level", "input", "pdp"),
                                    "system means": ("level", "system", "pdp")})


def _overlap(a: pd.Series, b: pd.Series) -> bool:
    return bool(a["rank_low"] <= b["rank_high"] and b["rank_low"] <= a["rank_high"])


def rank_interval_table(result, ranks: pd.DataFrame, *, top: int = 3) -> pd.DataFrame:
    """Per data set and ranking (its human columns, then its measures), how many systems the data tells apart:
    ``systems`` ranked, ``separated pairs`` (the share of system pairs whose bootstrap rank intervals do not
    overlap) and ``tied with the top`` (the top-ranked system and those whose intervals overlap its own: named
    when at most ``top``, else counted)."""
    if not len(ranks):
        return pd.DataFrame()
    rows, index = [], []
    for d, g in ranks.groupby("dataset", sort=False):
        humans = list(dict.fromkeys(g.loc[g["role"] == "human", "column"]))
        measures = _measure_order(result, d, set(g.loc[g["role"] != "human", "column"]))
        for c in [*humans, *measures]:
            r = g[(g["column"] == c) & g["rank"].notna()].reset_index(drop=True)
            n = len(r)
            pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
            sep = sum(not _overlap(r.loc[i], r.loc[j]) for i, j in pairs) / len(pairs) if pairs else float("nan")
            head = r.iloc[0] if n else None
            group = [] if head is None else [str(head["system"]), *[s for s in str(head["tied_with"]).split("; ")
                                                                    if s and s != "nan"]]
            rows.append({"systems": n, "separated pairs": sep,
                         "tied with the top": "; ".join(group) if len(group) <= top else f"{len(group)} systems"})
            index.append((d, "human" if c in humans else "measure", c))
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["dataset", "ranked by", "column"]))


#: the captions of the system-pair tables (``.format(ci=...)``: the intervals' coverage)
CLOSE_PAIRS_CAPTION = ("Close pairs: the share of a task's system pairs each measure orders as the humans do, in the "
                       "closest, middle and farthest third of the pairs by human difference, with a {ci:.0%} "
                       f"document-bootstrap interval ({CLOSE_PAIR_INTERVAL_NOTE}); 0.5: chance; the sentinels "
                       "last in each task, never ranked")
PDP_CAPTION = ("Pairwise Difference Pearson (DiIanni and Deutsch 2025): Pearson's r of the measure's and the humans' "
               "score differences between systems on the same input, pooled over inputs, and between system means "
               "(the system-level Pearson), with {ci:.0%} document-bootstrap intervals; the sentinels last in each "
               "task")
RANK_INTERVALS_CAPTION = ("Rank intervals: per data set and ranking (human columns, then measures), the systems "
                          "ranked, the share of system pairs whose {ci:.0%} bootstrap rank intervals do not overlap "
                          "(told apart by the data), and the systems tied with the top one")
