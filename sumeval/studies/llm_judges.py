"""Study ``llm_judges``: can an LLM judge replace SummEval's experts, and how far are judges and
offline measures from the experts' own agreement?

On SummEval (1,600 summaries, 16 systems, 4 qualities, 3 experts; the 6 LLM judges released with
the alt-test, Calderon, Reichart & Dror, ACL 2025) the judges and the offline measures are asked,
per quality, the questions of :mod:`sumeval.judges`, with the statistics of the package (nothing
new is estimated here; this module arranges):

- **correlations** with the experts' mean at meta-eval's levels, with bootstrap intervals and
  significance clusters (:func:`sumeval.meta_eval.meta_evaluate`, one call per quality with the
  offline measures and that quality's judge columns), beside the **human ceiling**: each expert
  against the mean of the other two, and their average (:func:`sumeval.judges.annotators.annotator_correlations`,
  the same levels, coefficients, resamples and seed; never a competitor in the clusters);
  ``mean`` rows average a measure's correlations over the qualities (no interval, no cluster);
- the **alt-test** per quality and pooled (items = (summary, quality), as the authors pool them;
  :func:`sumeval.judges.alt_test.alt_test`), and its comparison with the values the authors'
  notebook prints (:data:`AUTHORS_SUMMEVAL`);
- **soft pairwise accuracy** per quality (:func:`sumeval.stats.soft_pairwise.soft_pairwise_accuracy`),
  with each expert scored the same way against the other two's mean and their average as a ceiling;
- **agreement of each rater with each expert**: a judge's correlation with expert k next to
  expert j's (:func:`sumeval.stats.correlate`, no resampling);
- **how many labels a judge saves** (:func:`sumeval.judges.ppi.label_curve`, per quality, the 16
  systems).

Then, on the other shelf sets (which ones: :func:`shelf_sets`, derived from :data:`sumeval.datasets.shelf_table.SHELF`
and each loaded set's columns, never a hand-kept list):

- every set with individual annotators (``<human>/<annotator>`` columns: DialSummEval, QAGS-C/X, XSumFaith,
  Newsroom's raters): the human ceiling beside the set's precomputed measure columns (:func:`shelf_set`; no judge
  of the set's own there, so no alt-test: ``sumeval alt-test newsroom --judges module:Class`` tests a judge of
  yours against Newsroom's raters);
- every set that ships judges' or detectors' predictions (``<judge>.<human>`` columns: FaithBench, StorySumm,
  SummHay): the judges' correlations with the set's human labels, their soft pairwise accuracy, the PPI curve and
  the judge audit (verbosity, close pairs, calibration) (:func:`judge_set`); what does not apply to a set (one
  summary per input, too few systems, no summary texts) is a note with the reason.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.datasets.summeval import QUALITIES  # noqa: F401 (the notebook's lj.QUALITIES)
from sumeval.errors import InputError
from sumeval.studies.common.measure_parameters import split  # noqa: F401 (the notebook's lj.split)

__all__ = ["PARAMETER_RANGES", "QUALITIES", "SET_KINDS", "AUTO", "shelf_sets", "judge_predictions", "judge_set",
           "by_set", "judge_set_summary", "AUTHORS_SUMMEVAL", "MEAN", "split", "judge_columns", "score_measures",
           "correlations", "sentinel_rows", "human_ceiling", "mean_over_qualities", "alt_test_summeval", "reproduction",
           "score_scales", "spa", "expert_agreement", "ppi_curve", "shelf_set", "shelf_summary", "key_results",
           "explorer_frame", "correlation_table", "write_frames"]

#: the kinds of shelf set :func:`shelf_sets` finds: with individual annotators, with judges' predictions
SET_KINDS: tuple[str, ...] = ("annotators", "judges")
#: the notebook's ``shelf_sets`` / ``judge_sets`` value that means "every shelf set of that kind" (:func:`shelf_sets`)
AUTO = "auto"
SHELF_COLUMNS = ["dataset", "measure", "kind", "human", "level", "coefficient", "value", "ci_low", "ci_high", "n",
                 "rank", "cluster", "test"]
#: ``human`` label of a measure's correlations averaged over the qualities
MEAN = "mean"
JUDGE, OFFLINE, ANNOTATOR, CEILING = "LLM judge", "offline measure", "annotator", "human ceiling"
#: ``kind`` of a sentinel row (:func:`sentinel_rows`)
SENTINEL = "sentinel"
#: SummEval's pooled alt-test as the authors' notebook prints it (nitaytech/AltTest 18428b1,
#: ``alt_test_example.ipynb`` cell 4 output, "summeval <judge> [FAILED]: Winning Rate=0.00
#: Advantage Probability=0.46", 2 decimals; neg_rmse, epsilon 0.2): judge -> (winning rate, rho).
#: A published reference the study compares with, never used to compute anything.
AUTHORS_SUMMEVAL: dict[str, tuple[float, float]] = {
    "gemini_flash": (0.00, 0.46), "gemini_pro": (0.00, 0.44), "gpt-4o": (0.00, 0.48), "llama-31": (0.00, 0.58),
    "gpt-4o-mini": (0.00, 0.54), "mistral-v03": (0.00, 0.62)}

#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_resamples": ">=1", "shelf_resamples": ">=1", "alpha": "0..1", "epsilon": "0..0.99",
                    "q": "0..1", "n_permutations": ">=1", "spa_resamples": ">=0",
                    "ppi_repeats": (">=0", "0 skips the PPI curve"), "layer": (">=-1", "-1: each measure's default")}


def judge_columns(judgments, judges: Sequence[str], qualities: Sequence[str]) -> dict[tuple[str, str], str]:
    """``{(judge, quality): column}`` (``gpt-4o.coherence``); an InputError naming a missing judge."""
    from sumeval.judges.columns import judge_column

    where = f"data set {judgments.name!r}"
    return {(j, q): judge_column(judgments.measures, j, q, where) for j in judges for q in qualities}


def score_measures(judgments, measures: Sequence[str], judges: Sequence[str], qualities: Sequence[str], *,
                   options: dict[str, Any] | None = None, progress: bool = False):
    """The offline measures and every judge column, scored once (cached):
    ``(MeasureScores, offline labels, {(judge, quality): label})``."""
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    cols = judge_columns(judgments, judges, qualities)
    specs = resolve_measures(list(measures) + list(cols.values()), judgments, options=options or {})
    scores = score_judgments(judgments, specs, progress=progress)
    offline = [s.label for s in specs[: len(measures)]]
    return scores, offline, cols


def _own(judge_cols: dict[tuple[str, str], str], quality: str) -> dict[str, str]:
    """``{column: judge label}`` of the judges' columns for ``quality``."""
    from sumeval.judges.columns import judge_label

    return {col: judge_label(j) for (j, q), col in judge_cols.items() if q == quality}


def _subset(scores, labels: Sequence[str]):
    from sumeval.metrics.judgment_scores import MeasureScores

    keep = set(labels)
    return MeasureScores(frame=scores.frame[list(labels)], signatures={k: v for k, v in scores.signatures.items()
                                                                        if k in keep},
                         not_scored=[r for r in scores.not_scored if r["measure"] in keep],
                         specs=[s for s in scores.specs if s.label in keep],
                         from_cache={k: v for k, v in scores.from_cache.items() if k in keep})


def correlations(judgments, scores, offline: Sequence[str], judge_cols: dict[tuple[str, str], str],
                 qualities: Sequence[str], *, levels: Sequence[str], coefficients: Sequence[str], test: str,
                 n_resamples: int, seed: int, alpha: float, progress: bool = False):
    """Per quality, :func:`~sumeval.meta_eval.meta_evaluate` of the offline measures and that
    quality's judges: ``(frame, {quality: MetaEvaluation})``; the frame has ``measure`` (a judge's
    name, not its column), ``kind``, ``human, level, coefficient, value, ci_low, ci_high, n, rank, cluster``."""
    from sumeval import meta_eval

    frames, results = [], {}
    for q in qualities:
        own = _own(judge_cols, q)
        labels = list(offline) + list(own)
        # the study's ceiling and SPA come from sumeval.judges (below): meta-eval's own rows of them left out; the
        # sentinels are computed (sentinel_rows reads them from the results) but kept out of this frame: every row
        # here is read as a measure or a judge (best measure, means, clusters)
        settings = meta_eval.Settings(humans=(q,), levels=tuple(levels), coefficients=tuple(coefficients), test=test,
                                      n_resamples=n_resamples, seed=seed, alpha=alpha, annotators=False, spa=False)
        sub = _subset(scores, labels)
        res = meta_eval.meta_evaluate(judgments, sub.specs, settings, progress=progress, scores=sub)
        keys = ["measure", "human", "level", "coefficient"]
        # rank and cluster as floats (NaN where a value is undefined): the tables and figures test them with isfinite
        f = res.correlations[res.correlations["role"] != "sentinel"]
        f = f.merge(res.ranking[keys + ["rank", "cluster"]].astype({"rank": float, "cluster": float}), on=keys,
                    how="left")
        f.insert(1, "kind", [JUDGE if m in own else OFFLINE for m in f["measure"]])
        f["measure"] = [own.get(m, m) for m in f["measure"]]
        frames.append(f[keys[:1] + ["kind"] + keys[1:] + ["value", "ci_low", "ci_high", "n", "rank", "cluster"]])
        results[q] = res
    return pd.concat(frames, ignore_index=True), results


def sentinel_rows(results: dict) -> pd.DataFrame:
    """The sentinels of :func:`correlations`' meta-evaluations (:mod:`sumeval.meta_eval.sentinels`: length, source
    overlap, constant, random with the range of its draws), in its columns with ``kind`` :data:`SENTINEL`: never
    ranked or clustered, never a competitor in the tables."""
    cols = ["measure", "kind", "human", "level", "coefficient", "value", "ci_low", "ci_high", "n", "rank", "cluster"]
    parts = [r.correlations[r.correlations["role"] == "sentinel"] for r in results.values()]
    parts = [p for p in parts if len(p)]
    if not parts:
        return pd.DataFrame(columns=cols)
    return pd.concat(parts, ignore_index=True).assign(kind=SENTINEL, rank=np.nan, cluster=np.nan)[cols]


def human_ceiling(frame: pd.DataFrame, humans: Sequence[str], *, levels: Sequence[str], coefficients: Sequence[str],
                  n_resamples: int, seed: int, resample: str = "both", where: str = "the data",
                  notes: list[str] | None = None) -> pd.DataFrame:
    """Each annotator against the others' mean and their average (the ceiling), in the columns of
    :func:`correlations` (``measure`` = the annotator's name or ``human ceiling``; ``kind``
    ``annotator`` / ``human ceiling``).

    Identical annotator columns are counted once and annotators on few documents left out of the ceiling,
    as ``sumeval meta-eval`` does (:func:`sumeval.judges.annotators.distinct_annotators`,
    :func:`~sumeval.judges.annotators.ceiling_members`); ``notes`` gets a line for each (a warning when
    ``notes`` is None); a human column whose annotator columns are all identical gets a note and no rows.
    """
    import warnings

    from sumeval.judges.annotators import COLUMNS, annotator_correlations, distinct_annotators, left_out_notes
    from sumeval.judges.columns import require_annotators

    columns, said = {}, []
    for h in humans:
        cols, dup = distinct_annotators(frame, require_annotators(frame.columns, h, where), h)
        said += dup
        if len(cols) < 2:
            said.append(f"human column {h!r} of {where}: its annotator columns are all identical: no ceiling "
                        "(each annotator is compared with the mean of the others)")
        else:
            columns[h] = cols
    out = (annotator_correlations(frame, list(columns), level=list(levels), methods=list(coefficients),
                                  n_resamples=n_resamples, seed=seed, resample=resample, where=where,
                                  columns=columns) if columns else pd.DataFrame(columns=COLUMNS))
    n_docs = int(frame["doc_id"].nunique()) if "doc_id" in frame else 0
    said += left_out_notes(out, n_docs)
    if notes is None:
        for note in said:
            warnings.warn(note, stacklevel=2)
    else:
        notes += said
    out = out.rename(columns={"method": "coefficient"})
    out["kind"] = np.where(out["role"] == "annotator", ANNOTATOR, CEILING)
    out["measure"] = np.where(out["role"] == "annotator", out["annotator"], CEILING)
    return out[["measure", "kind", "human", "level", "coefficient", "value", "ci_low", "ci_high", "n",
                "n_annotators", "target"]]


def mean_over_qualities(corr: pd.DataFrame, qualities: Sequence[str]) -> pd.DataFrame:
    """A measure's correlation averaged over the qualities (``human`` = :data:`MEAN`), per level and
    coefficient; only measures with a value for every quality."""
    sub = corr[corr["human"].isin(qualities)]
    g = sub.groupby(["measure", "kind", "level", "coefficient"], sort=False)["value"]
    out = g.agg(["mean", "count"]).reset_index()
    out = out[out["count"] == len(qualities)].rename(columns={"mean": "value", "count": "n_qualities"})
    out.insert(2, "human", MEAN)
    return out.reset_index(drop=True)


def alt_test_summeval(judgments, judges: Sequence[str], qualities: Sequence[str], *, epsilon: float = 0.2,
                      q: float = 0.05, alignment: str = "neg_rmse"):
    """The alt-test of the judges per quality and pooled (:class:`~sumeval.judges.alt_test.AltTest`)."""
    from sumeval.judges.alt_test import alt_test

    return alt_test(judgments.frame, list(qualities), list(judges), pooled=True, alignment=alignment,
                    epsilon=epsilon, q=q, where=f"data set {judgments.name!r}", candidates=list(judgments.measures))


def reproduction(results: pd.DataFrame) -> pd.DataFrame:
    """The pooled alt-test beside :data:`AUTHORS_SUMMEVAL`: ``judge, winning_rate, rho, authors_winning_rate,
    authors_rho, rho_2dp, same_to_2dp, same_verdict`` (the authors print 2 decimals)."""
    rows = []
    for r in results[results["human"] == "pooled"].itertuples():
        if r.judge not in AUTHORS_SUMMEVAL:
            continue
        wr, rho = AUTHORS_SUMMEVAL[r.judge]
        rows.append({"judge": r.judge, "winning_rate": r.winning_rate, "rho": r.advantage_probability,
                     "authors_winning_rate": wr, "authors_rho": rho, "rho_2dp": round(r.advantage_probability, 2),
                     "same_to_2dp": bool(round(r.advantage_probability, 2) == rho
                                         and round(r.winning_rate, 2) == wr),
                     "same_verdict": bool(r.passed == (wr >= 0.5))})
    return pd.DataFrame(rows)


def score_scales(judgments, judge_cols: dict[tuple[str, str], str], qualities: Sequence[str]) -> pd.DataFrame:
    """How each rater uses the 1-5 scale, per quality: ``rater, kind, human, mean, sd, share_5``
    (the experts' columns and the judges'); the alt-test compares values, so a judge off the
    experts' scale loses items whatever its ranking."""
    f = judgments.frame
    rows = []
    for q in qualities:
        raters = [(c.split("/", 1)[1], "expert", c) for c in judgments.annotators.get(q, ())]
        raters += [(label, JUDGE, c) for c, label in _own(judge_cols, q).items()]
        for name, kind, col in raters:
            v = f[col].to_numpy(float)
            v = v[~np.isnan(v)]
            rows.append({"rater": name, "kind": kind, "human": q, "mean": float(v.mean()), "sd": float(v.std(ddof=1)),
                         "share_5": float(np.mean(v == 5.0))})
    return pd.DataFrame(rows)


def spa(judgments, scores, offline: Sequence[str], judge_cols: dict[tuple[str, str], str],
        qualities: Sequence[str], *, n_permutations: int = 1000, n_resamples: int = 0, seed: int = 0) -> pd.DataFrame:
    """Soft pairwise accuracy per quality of the offline measures and the judges against the experts'
    mean, and of each expert against the other two's mean (``kind`` annotator), with their average
    (``human ceiling``, no interval): ``measure, kind, human, spa, ci_low, ci_high, n_systems, n_items``."""
    from sumeval.judges.annotators import leave_one_out_targets
    from sumeval.stats.soft_pairwise import soft_pairwise_accuracy

    f = judgments.frame
    cols = ["measure", "kind", "human", "spa", "ci_low", "ci_high", "n_systems", "n_items"]
    parts = []
    for q in qualities:
        own = _own(judge_cols, q)
        frame = pd.concat([f[["doc_id", "system", q]].reset_index(drop=True),
                           scores.frame[list(offline) + list(own)].reset_index(drop=True)], axis=1)
        res = soft_pairwise_accuracy(frame, list(offline) + list(own), q, n_permutations=n_permutations,
                                     n_resamples=n_resamples, seed=seed).rename(columns={"metric": "measure"})
        res["kind"] = [JUDGE if m in own else OFFLINE for m in res["measure"]]
        res["measure"] = [own.get(m, m) for m in res["measure"]]
        parts.append(res[cols])
        ann = list(judgments.annotators.get(q, ()))
        if len(ann) >= 2:
            targets = leave_one_out_targets(f[ann].to_numpy(float))
            rows = []
            for k, col in enumerate(ann):
                one = pd.DataFrame({"doc_id": f["doc_id"].to_numpy(), "system": f["system"].to_numpy(),
                                    "annotator": f[col].to_numpy(float), "others": targets[:, k]})
                r = soft_pairwise_accuracy(one, "annotator", "others", n_permutations=n_permutations,
                                           n_resamples=n_resamples, seed=seed).iloc[0]
                rows.append({"measure": col.split("/", 1)[1], "kind": ANNOTATOR, "human": q, "spa": r["spa"],
                             "ci_low": r["ci_low"], "ci_high": r["ci_high"], "n_systems": r["n_systems"],
                             "n_items": r["n_items"]})
            rows.append({"measure": CEILING, "kind": CEILING, "human": q,
                         "spa": float(np.mean([r["spa"] for r in rows])),
                         "ci_low": np.nan, "ci_high": np.nan, "n_systems": rows[0]["n_systems"],
                         "n_items": rows[0]["n_items"]})
            parts.append(pd.DataFrame(rows, columns=cols))
    return pd.concat(parts, ignore_index=True)


def expert_agreement(judgments, judge_cols: dict[tuple[str, str], str], qualities: Sequence[str], *,
                     level: str = "global", coefficient: str = "kendall_b") -> pd.DataFrame:
    """Each judge's and each expert's correlation with each expert, per quality (an expert with
    itself: NaN): ``rater, kind, expert, human, level, coefficient, value, n``."""
    from sumeval import stats

    f = judgments.frame
    parts = []
    for q in qualities:
        experts = list(judgments.annotators.get(q, ()))
        own = _own(judge_cols, q)
        if not experts:
            continue
        res = stats.correlate(f, list(own) + experts, experts, level=level, methods=[coefficient], n_resamples=0)
        res["value"] = np.where(res["metric"] == res["human"], np.nan, res["value"])
        parts.append(pd.DataFrame({
            "rater": [own.get(m, m.split("/", 1)[-1]) for m in res["metric"]],
            "kind": [JUDGE if m in own else "expert" for m in res["metric"]],
            "expert": [h.split("/", 1)[1] for h in res["human"]], "human": q, "level": level,
            "coefficient": coefficient, "value": res["value"].to_numpy(float), "n": res["n"].to_numpy()}))
    return pd.concat(parts, ignore_index=True)


def ppi_curve(judgments, judge_cols: dict[tuple[str, str], str], qualities: Sequence[str], *,
              n_labels: Sequence[int] = (10, 20, 30, 40, 50, 60, 70, 80), n_repeats: int = 200,
              seed: int = 0) -> pd.DataFrame:
    """:func:`sumeval.judges.ppi.label_curve` per quality (human = the experts' mean), ``judge`` = the judge's name."""
    from sumeval.judges.ppi import label_curve

    parts = []
    for q in qualities:
        own = _own(judge_cols, q)
        c = label_curve(judgments.frame, q, list(own), n_labels=n_labels, n_repeats=n_repeats, seed=seed)
        c["judge"] = c["judge"].map(own)
        parts.append(c)
    return pd.concat(parts, ignore_index=True)


def _levels_for(judgments, human: str, levels: Sequence[str]) -> tuple[list[str], list[str]]:
    from sumeval.datasets.judgments_model import check_level

    ok, notes = [], []
    for lv in levels:
        try:
            check_level(judgments, lv, human)
            ok.append(lv)
        except InputError as e:
            notes.append(f"{judgments.name}/{human}: no {lv} level ({e})")
    return ok, notes


def shelf_set(name: str, *, levels: Sequence[str], coefficients: Sequence[str], test: str, n_resamples: int,
              seed: int, alpha: float, system_test: str | None = None,
              progress: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """One shelf set: its precomputed measures (with clusters, as :func:`correlations`) and its human
    ceiling rows, for every human column with annotators and every level that applies; ``(frame, notes)``
    with a ``dataset`` column. ``test`` compares the measures at the input and global levels,
    ``system_test`` (default ``test``) at the system level (clusters are per level, so the two never mix)."""
    from sumeval import meta_eval
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    j = load_judgments(name)
    humans = [h for h in j.humans if len(j.annotators.get(h, ())) >= 2]
    notes = [f"{name}: no LLM judge, so no alt-test, SPA of judges or PPI"]
    if not humans:
        return pd.DataFrame(), notes + [f"{name}: no human column with 2 or more annotator columns"]
    measures = list(j.default_measures)
    if not measures:
        notes.append(f"{name}: no precomputed measure columns: only the annotators and the human ceiling")
    specs = resolve_measures(measures, j) if measures else []
    scores = score_judgments(j, specs, progress=progress) if specs else None
    parts = []
    for h in humans:
        ok, skipped = _levels_for(j, h, levels)
        notes += skipped
        if not ok:
            continue
        said: list[str] = []
        parts.append(human_ceiling(j.frame, [h], levels=ok, coefficients=coefficients, n_resamples=n_resamples,
                                   seed=seed, where=f"data set {name!r}", notes=said))
        notes += [f"{name}: {n}" for n in said]
        groups: dict[str, list[str]] = {}
        for lv in ok:
            groups.setdefault((system_test or test) if lv == "system" else test, []).append(lv)
        for level_test, group in groups.items() if specs else ():
            settings = meta_eval.Settings(humans=(h,), levels=tuple(group), coefficients=tuple(coefficients),
                                          test=level_test, n_resamples=n_resamples, seed=seed, alpha=alpha,
                                          annotators=False, spa=False, sentinels=False)  # rows read as measures
            res = meta_eval.meta_evaluate(j, specs, settings, progress=progress, scores=scores)
            keys = ["measure", "human", "level", "coefficient"]
            f = res.correlations.merge(res.ranking[keys + ["rank", "cluster"]].astype({"rank": float,
                                                                                        "cluster": float}),
                                       on=keys, how="left")
            f.insert(1, "kind", OFFLINE)
            parts.append(f.assign(test=level_test))
    out = pd.concat(parts, ignore_index=True).reindex(columns=SHELF_COLUMNS[1:])
    out.insert(0, "dataset", name)
    return out, notes


def judge_predictions(judgments) -> dict[str, dict[str, str]]:
    """``{human: {judge: column}}``: the judges' and detectors' predictions a set ships, its opt-in measure columns
    named ``<judge>.<human>`` for one of its human columns (SummEval's ``gpt-4o.coherence``, FaithBench's
    ``hhem-2.1.consistent``); empty when it has none."""
    out: dict[str, dict[str, str]] = {}
    own = set(judgments.default_measures)
    for col in judgments.measures:
        if col in own:
            continue
        for h in judgments.humans:
            if col.endswith("." + h) and len(col) > len(h) + 1:
                out.setdefault(h, {})[col[: -len(h) - 1]] = col
    return out


@functools.lru_cache(maxsize=None)
def _kinds(name: str) -> frozenset[str]:
    """The :data:`SET_KINDS` built-in set ``name`` has (loaded once per process)."""
    from sumeval.datasets.judgments import load_judgments

    j = load_judgments(name)
    has = {"annotators": any(len(j.annotators.get(h, ())) >= 2 for h in j.humans), "judges": bool(judge_predictions(j))}
    return frozenset(k for k, v in has.items() if v)


def shelf_sets(kind: str, given: str = AUTO, *, exclude: Sequence[str] = ("summeval",)) -> list[str]:
    """The shelf sets the study asks ``kind`` questions of: ``given`` as the notebook names them (comma-separated;
    :data:`AUTO`: every built-in set in :data:`~sumeval.datasets.shelf_table.SHELF` order, ``exclude`` left out,
    that has ``kind``; empty: none).

    kind: ``annotators`` (a human column with 2 or more ``<human>/<annotator>`` columns: the human ceiling) or
    ``judges`` (judges' or detectors' predictions, :func:`judge_predictions`: SPA, PPI, the judge audit). Read from
    each loaded set's columns, so a set added to the shelf with raters or predictions is asked without a list here
    to keep. A set named that lacks ``kind`` is asked anyway and answers with a note (:func:`shelf_set`,
    :func:`judge_set`).
    """
    from sumeval.datasets.shelf_table import SHELF

    if kind not in SET_KINDS:
        raise InputError(f"kind {kind!r}: choose one of {', '.join(SET_KINDS)}")
    if given.strip() != AUTO:
        return list(split(given)) if given.strip() else []
    return [n for n in SHELF if n not in exclude and kind in _kinds(n)]


def judge_set(name: str, *, levels: Sequence[str], coefficients: Sequence[str], test: str, n_resamples: int,
              seed: int, alpha: float, n_permutations: int = 1000, spa_resamples: int = 0, ppi_repeats: int = 200,
              n_labels: Sequence[int] = (10, 20, 30, 40, 50, 60, 70, 80),
              progress: bool = False) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """One shelf set with judges' or detectors' predictions (:func:`judge_predictions`), per human column:

    - ``correlations``: the judges' correlations with the human column at each level that applies, with
      intervals and significance clusters (:func:`~sumeval.meta_eval.meta_evaluate`, as :func:`correlations`);
    - ``spa``: their soft pairwise accuracy over the set's systems (:func:`soft_pairwise_accuracy`);
    - ``ppi``: the PPI curve (:func:`sumeval.judges.ppi.label_curve`; the ``n_labels`` below the fewest
      summaries of a system);
    - ``verbosity``, ``close_pairs``, ``calibration``: the judge audit (:func:`sumeval.judges.audit.judge_audit`).

    Returns ``(frames, notes)``: each frame with a ``dataset`` column (empty frames left out), and a note for each
    question that does not apply to the set and why (the set's own reason where it states one: one summary per
    input, no systems, no summary texts).
    """
    from sumeval import meta_eval
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.audit import judge_audit
    from sumeval.judges.ppi import label_curve
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures
    from sumeval.stats.soft_pairwise import soft_pairwise_accuracy

    j = load_judgments(name)
    preds = judge_predictions(j)
    if not preds:
        return {}, [f"{name}: no judges' or detectors' predictions (no <judge>.<human> columns)"]
    notes: list[str] = []
    parts: dict[str, list[pd.DataFrame]] = {}

    def add(key: str, frame: pd.DataFrame) -> None:
        if frame is not None and len(frame):
            parts.setdefault(key, []).append(frame.assign(dataset=name))

    for h, judges in preds.items():
        label = {col: judge for judge, col in judges.items()}
        cols = list(judges.values())
        ok, skipped = _levels_for(j, h, levels)
        notes += skipped
        specs = resolve_measures(cols, j)
        scores = score_judgments(j, specs, progress=progress)
        if ok:
            settings = meta_eval.Settings(humans=(h,), levels=tuple(ok), coefficients=tuple(coefficients), test=test,
                                          n_resamples=n_resamples, seed=seed, alpha=alpha, annotators=False,
                                          spa=False, sentinels=False)  # every row read as a judge
            res = meta_eval.meta_evaluate(j, specs, settings, progress=progress, scores=scores)
            keys = ["measure", "human", "level", "coefficient"]
            f = res.correlations.merge(res.ranking[keys + ["rank", "cluster"]].astype({"rank": float,
                                                                                        "cluster": float}),
                                       on=keys, how="left")
            f["measure"] = [label.get(m, m) for m in f["measure"]]
            add("correlations", f.assign(kind=JUDGE, test=test)[SHELF_COLUMNS[1:]])
        try:  # SPA and PPI compare systems: a set without them (or one summary per input) says why
            from sumeval.datasets.judgments_model import check_level

            check_level(j, "system", h)
        except InputError as exc:
            notes.append(f"{name}/{h}: no soft pairwise accuracy, PPI curve or judge audit ({exc})")
            continue
        try:
            r = soft_pairwise_accuracy(j.frame, cols, h, n_permutations=n_permutations, n_resamples=spa_resamples,
                                       seed=seed).rename(columns={"metric": "measure"})
            r["measure"] = [label[m] for m in r["measure"]]
            add("spa", r.assign(kind=JUDGE, human=h))
        except InputError as exc:
            notes.append(f"{name}/{h}: no soft pairwise accuracy ({exc})")
        if ppi_repeats > 0:
            per_system = j.frame.dropna(subset=[h]).groupby("system").size().min()
            ns = [n for n in n_labels if n < per_system]
            if not ns:
                notes.append(f"{name}/{h}: no PPI curve (a system has {per_system} labelled summaries, fewer than "
                             f"the smallest n_labels {min(n_labels)} + 1)")
            else:
                try:
                    c = label_curve(j.frame, h, cols, n_labels=ns, n_repeats=ppi_repeats, seed=seed)
                    c["judge"] = c["judge"].map(label)
                    add("ppi", c)
                except InputError as exc:
                    notes.append(f"{name}/{h}: no PPI curve ({exc})")
        try:
            audit = judge_audit(j.frame, [h], list(judges), n_resamples=n_resamples, seed=seed,
                                where=f"data set {name!r}", candidates=list(j.measures))
            add("verbosity", audit.verbosity)
            add("close_pairs", audit.close_pairs)
            add("calibration", audit.calibration)
            notes += [f"{name}: judge audit: {n}" for n in audit.notes]
        except InputError as exc:
            notes.append(f"{name}/{h}: no judge audit ({exc})")
    return {k: pd.concat(v, ignore_index=True) for k, v in parts.items()}, notes


def by_set(frame: pd.DataFrame, column: str = "human") -> pd.DataFrame:
    """``frame`` with ``column`` read ``"<set's title>: <human's title>"`` (``FaithBench: Consistent``), so that a
    figure drawn per human column gets one panel per (set, human column)."""
    from sumeval.display_names import display

    if frame is None or not len(frame):
        return frame
    return frame.assign(**{column: [f"{display(d)}: {display(h)}" for d, h in zip(frame["dataset"], frame[column])]})


def judge_set_summary(frames: dict[str, pd.DataFrame], coefficient: str) -> pd.DataFrame:
    """Per (set, human column, judge): its correlation at each level (``coefficient``) with its cluster, its soft
    pairwise accuracy, its verbosity excess over the humans (Kendall with length, judge minus humans) and its
    expected calibration error, where the set allows each (NaN where it does not: the notes say why)."""
    corr = frames.get("correlations")
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}

    def row(d, h, m):
        return rows.setdefault((d, h, m), {"dataset": d, "human": h, "judge": m})

    if corr is not None:
        for r in corr[corr["coefficient"] == coefficient].itertuples():
            row(r.dataset, r.human, r.measure).update({r.level: r.value, f"{r.level} cluster": r.cluster})
    for r in frames.get("spa", pd.DataFrame(columns=["dataset", "human", "measure", "spa"])).itertuples():
        row(r.dataset, r.human, r.measure)["spa"] = r.spa
    verb = frames.get("verbosity")
    if verb is not None:
        for r in verb[verb["versus"] == "humans"].itertuples():
            row(r.dataset, r.human, r.judge)["verbosity excess"] = r.excess
    for r in frames.get("calibration", pd.DataFrame(columns=["dataset", "human", "judge", "ece"])).itertuples():
        row(r.dataset, r.human, r.judge)["ece"] = r.ece
    return pd.DataFrame(list(rows.values()))


def shelf_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, human, level, coefficient): ``n`` (the ceiling's items, documents or systems), the
    ceiling, the best measure and its value, how many measures lie above the ceiling (``n_measures`` 0:
    the set has none)."""
    rows = []
    for (d, h, lv, c), g in frame.groupby(["dataset", "human", "level", "coefficient"], sort=False):
        ceil = g.loc[g["kind"] == CEILING, "value"]
        m = g[g["kind"] == OFFLINE].sort_values("value", ascending=False)
        ceiling = float(ceil.iloc[0]) if len(ceil) else np.nan
        n = g.loc[g["kind"] == CEILING, "n"] if "n" in g else ()
        rows.append({"dataset": d, "human": h, "level": lv, "coefficient": c,
                     "n": int(n.iloc[0]) if len(n) and pd.notna(n.iloc[0]) else None, "ceiling": ceiling,
                     "best_measure": m["measure"].iloc[0] if len(m) else "",
                     "best_value": float(m["value"].iloc[0]) if len(m) else np.nan, "n_measures": len(m),
                     "n_above_ceiling": int((m["value"] > ceiling).sum())})
    return pd.DataFrame(rows)


def key_results(corr: pd.DataFrame, ceiling: pd.DataFrame, alt, repro: pd.DataFrame, spa_frame: pd.DataFrame,
                shelf: pd.DataFrame | None = None, curve: pd.DataFrame | None = None,
                judge_frames: dict[str, pd.DataFrame] | None = None) -> dict[str, Any]:
    """The numbers ``results.json`` keeps (see the notebook's Results section); ``judge_frames``: the shelf sets
    with judges' predictions (:func:`judge_set`'s frames, concatenated), summarised per (set, human, judge) by
    :func:`judge_set_summary` on the first coefficient of ``corr``."""
    res = alt.results
    pooled = res[res["human"] == "pooled"]
    ceil = ceiling[ceiling["kind"] == CEILING]
    out: dict[str, Any] = {
        "alt_test_pooled": {r.judge: {"rho": r.advantage_probability, "winning_rate": r.winning_rate,
                                      "passed": bool(r.passed)} for r in pooled.itertuples()},
        "alt_test_passed": {h: {r.judge: bool(r.passed) for r in g.itertuples()}
                            for h, g in res.groupby("human", sort=False)},
        "alt_test_rho": {h: {r.judge: r.advantage_probability for r in g.itertuples()}
                         for h, g in res.groupby("human", sort=False)},
        "reproduces_authors": bool(len(repro) and repro["same_to_2dp"].all() and repro["same_verdict"].all()),
        "best_measure": {}, "cluster1": {}, "ceiling": {}, "above_ceiling": {},
        "spa": {h: {r.measure: r.spa for r in g.itertuples()} for h, g in spa_frame.groupby("human", sort=False)},
    }
    for (h, lv, c), g in corr.groupby(["human", "level", "coefficient"], sort=False):
        key = f"{h}/{lv}/{c}"
        top = g.sort_values("value", ascending=False).iloc[0]
        out["best_measure"][key] = {"measure": top["measure"], "kind": top["kind"], "value": float(top["value"])}
        out["cluster1"][key] = sorted(g.loc[g["cluster"] == 1, "measure"])
        c_row = ceil[(ceil["human"] == h) & (ceil["level"] == lv) & (ceil["coefficient"] == c)]
        if len(c_row):
            value = float(c_row["value"].iloc[0])
            out["ceiling"][key] = value
            out["above_ceiling"][key] = sorted(g.loc[g["value"] > value, "measure"])
    if shelf is not None and len(shelf):
        out["shelf"] = {f"{r.dataset}/{r.human}/{r.level}/{r.coefficient}": {
            "ceiling": r.ceiling, "best_measure": r.best_measure, "best_value": r.best_value,
            "n_measures": r.n_measures, "n_above_ceiling": r.n_above_ceiling}
        for r in shelf_summary(shelf).itertuples()}
    if judge_frames:
        coef = corr["coefficient"].iloc[0] if len(corr) else "kendall_b"
        summary = judge_set_summary(judge_frames, coef)
        out["judge_sets"] = {f"{r['dataset']}/{r['human']}/{r['judge']}": {k: v for k, v in r.items()
                                                                         if k not in ("dataset", "human", "judge")
                                                                         and pd.notna(v)}
                             for r in summary.to_dict("records")}
    if curve is not None and len(curve):  # {human: {judge: {n labels: effective labels, mean over systems}}}
        eff = curve.groupby(["human", "judge", "n_labels"], sort=False)["effective_n"].mean()
        out["ppi_effective_labels"] = {h: {j: {int(n): float(v) for (_, _, n), v in g2.items()}
                                           for j, g2 in g.groupby(level="judge", sort=False)}
                                       for h, g in eff.groupby(level="human", sort=False)}
    return out


def explorer_frame(corr: pd.DataFrame, ceiling: pd.DataFrame, shelf: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every correlation row (SummEval's measures, judges, annotators and ceiling; the shelf's) with a
    ``dataset`` column, for the explorer."""
    parts = [pd.concat([corr, ceiling], ignore_index=True).assign(dataset="summeval")]
    if shelf is not None and len(shelf):
        parts.append(shelf)
    return pd.concat(parts, ignore_index=True)[["dataset", "measure", "kind", "human", "level", "coefficient",
                                                "value", "ci_low", "ci_high", "cluster"]]


def correlation_table(corr: pd.DataFrame, ceiling: pd.DataFrame, coefficient: str, *,
                      human_order: Sequence[str] | None = None, level_order: Sequence[str] | None = None,
                      sentinels: pd.DataFrame | None = None):
    """``(values, bold, marks)``: measures (judges, offline measures, then the human ceiling) x (human,
    level); the best measure of each column bold (the ceiling excluded), the significance cluster as
    the mark. ``sentinels`` (:func:`sentinel_rows`): rows under the ceiling, never bold or marked (the random
    one as its mean and the ends of the range of its draws)."""
    from sumeval.meta_eval.sentinels import RANDOM

    extra = []
    if sentinels is not None and len(sentinels):
        r = sentinels[(sentinels["measure"] == RANDOM) & (sentinels["coefficient"] == coefficient)]
        extra = [sentinels, r.assign(measure=f"{RANDOM}: low end of draws", value=r["ci_low"]),
                 r.assign(measure=f"{RANDOM}: high end of draws", value=r["ci_high"])]
    both = pd.concat([corr, ceiling[ceiling["kind"] == CEILING], *extra], ignore_index=True)
    both = both[both["coefficient"] == coefficient]
    humans = list(human_order) if human_order is not None else list(dict.fromkeys(both["human"]))
    levels = list(level_order) if level_order is not None else list(dict.fromkeys(both["level"]))
    cols = pd.MultiIndex.from_tuples([(h, lv) for h in humans for lv in levels], names=["human", "level"])
    rows = list(dict.fromkeys(both["measure"]))
    values = pd.DataFrame(np.nan, index=pd.Index(rows, name="measure"), columns=cols)
    marks = pd.DataFrame("", index=values.index, columns=cols)
    for r in both.itertuples():
        if (r.human, r.level) in values.columns:
            values.loc[r.measure, (r.human, r.level)] = r.value
            cluster = getattr(r, "cluster", np.nan)
            if r.kind not in (CEILING, SENTINEL) and pd.notna(cluster) and np.isfinite(float(cluster)):
                marks.loc[r.measure, (r.human, r.level)] = str(int(r.cluster))
    rated = values.drop(index=[CEILING, *both.loc[both["kind"] == SENTINEL, "measure"]], errors="ignore")
    bold = pd.DataFrame(False, index=values.index, columns=cols)
    for c in cols:
        if rated[c].notna().any():
            bold.loc[rated.index, c] = rated[c] == rated[c].max()
    return values, bold, marks


def write_frames(frames: dict[str, pd.DataFrame], folder) -> list[str]:
    """Each frame as ``<folder>/<name>.csv``, written atomically; returns the file names."""
    from pathlib import Path

    from sumeval.cache import atomic_path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in frames.items():
        with atomic_path(out / f"{name}.csv") as tmp:
            frame.to_csv(tmp, index=False)
    return [f"{n}.csv" for n in frames]
