"""The annotators of a human column as the study ``annotator_impact`` asks about them on any data
set with ``<human>/<annotator>`` columns (SummEval's 3 experts for each of its 4 qualities,
DialSummEval's 3 annotators, QAGS' 3 workers, XSumFaith's 3 workers, a user's file): each measure
against each annotator, and how the measures' ranking moves with the annotators kept.

- :func:`annotator_level` -> the level the section correlates at: ``system`` (paper 001's, where
  the data set has one) else ``global`` (QAGS: one system per article).
- :func:`annotator_correlations` -> each measure with the mean of all annotators (``all``) and with
  each annotator alone.
- :func:`ranking_changes` -> per annotator, the measures ranked by their correlation with the mean
  of all annotators but that one (``leave-one-out``) and with that one alone (``single``), beside
  the ranking with all of them: Kendall tau-b between the two rankings and whether the best
  measure stays the best.
- :func:`rank_table` -> the ranks themselves, one column per set of annotators kept.
- :func:`annotator_section` -> everything the notebook shows of one human column (these, the draws
  of :func:`~sumeval.studies.common.annotator_subsets.annotator_subset_scores`, the leave-one-out effects of
  :func:`~sumeval.studies.common.annotator_subsets.annotator_effects` and the agreement);
  :func:`save_annotator_section` saves its figure and tables; :func:`annotators_part` does both
  for every annotated human column of a data set (the study's part (b)).

Every correlation is without interval (many cells); the mean of annotators is over the
annotators who scored the summary (NaN ignored), as the data sets' own human columns.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.studies.common.annotator_subsets import correlations_at, mean_of_annotators, save_workers
from sumeval.studies.common.sera_scores import METHODS

__all__ = ["annotator_level", "annotator_correlations", "ranking_changes", "rank_table",
           "annotator_section", "save_annotator_section", "annotators_part", "section_measures", "RANKING_COLUMNS"]

#: the columns of :func:`ranking_changes`
RANKING_COLUMNS = ["human", "level", "method", "kind", "annotator", "kept", "tau", "n_measures", "top", "top_all",
                   "same_top"]


def annotator_level(judgments, human: str) -> tuple[str | None, str]:
    """The level the annotator section of ``human`` correlates at, and why.

    ``system`` where the data set supports it for ``human`` (paper 001 Sec.4.3 is at the system
    level), else ``global`` (all summaries pooled: QAGS, one system per article); ``(None,
    reason)`` when neither applies (Rank19: input level only; fewer than 3 scored summaries).
    """
    from sumeval.datasets.judgments_model import check_level

    reasons = []
    for level in ("system", "global"):
        try:
            check_level(judgments, level, human)
        except InputError as exc:
            reasons.append(str(exc))
            continue
        return level, ("" if level == "system" else f"global level (all summaries pooled): {reasons[0]}")
    return None, "; ".join(reasons)


def _with(measures: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    return measures.merge(scores, on=["doc_id", "system"], how="inner")


def annotator_correlations(measures: pd.DataFrame, metrics: Sequence[str], rows: pd.DataFrame, human: str,
                           level: str = "system", methods: Sequence[str] = METHODS) -> pd.DataFrame:
    """Each measure against the mean of all annotators (``annotator = "all"``) and against each
    annotator alone.

    Args:
        measures: one row per summary: ``doc_id, system`` and the ``metrics`` columns (higher is better).
        metrics: the measure columns.
        rows: :func:`~sumeval.studies.common.annotator_subsets.annotator_judgments`' frame (``doc_id, system,
            worker, score``).
        human: the human column's name.
        level: ``system`` or ``global`` (:func:`annotator_level`).
        methods: correlation methods.

    Returns:
        ``annotator, metric, human, method, value, n`` (n: systems, or summaries at the global level).
    """
    base = measures[["doc_id", "system", *metrics]]
    frames = [correlations_at(_with(base, mean_of_annotators(rows, human)), metrics, human, level, methods)
              .assign(annotator="all")]
    for worker in dict.fromkeys(rows["worker"]):
        one = rows[rows["worker"] == worker][["doc_id", "system", "score"]].rename(columns={"score": human})
        frames.append(correlations_at(_with(base, one), metrics, human, level, methods).assign(annotator=worker))
    out = pd.concat(frames, ignore_index=True)
    return out[["annotator", "metric", "human", "method", "value", "n"]]


def _ranks(values: pd.Series) -> pd.Series:
    """1 = the highest correlation; ties share the best rank; NaN (undefined) stays NaN."""
    return values.rank(ascending=False, method="min")


def _top(values: pd.Series) -> str | None:
    """The measure with the highest correlation (the first one in order on a tie); None if none is defined."""
    v = values.dropna()
    return None if v.empty else str(v.index[int(np.argmax(v.to_numpy()))])


def ranking_changes(measures: pd.DataFrame, metrics: Sequence[str], rows: pd.DataFrame, human: str,
                    level: str = "system", methods: Sequence[str] = METHODS) -> pd.DataFrame:
    """How the measures' ranking moves with the annotators kept.

    For each method, the measures are ranked by their correlation with the mean of all annotators
    (the full ranking); for each annotator ``a``, by their correlation with the mean of all but
    ``a`` (``kind = "leave-one-out"``, ``kept = "all but a"``) and with ``a`` alone (``kind =
    "single"``, ``kept = "only a"``). ``tau`` is Kendall's tau-b between the correlations of the
    measures in the two rankings (the same as between the two rankings), over the measures whose
    correlation is defined in both; NaN with fewer than 2 measures.

    Args:
        measures, metrics, rows, human, level, methods: as :func:`annotator_correlations`.

    Returns:
        :data:`RANKING_COLUMNS`: ``human, level, method, kind, annotator, kept, tau, n_measures,
        top`` (best measure in this ranking), ``top_all`` (best with all annotators), ``same_top``.
    """
    from sumeval.stats.coefficients import correlation

    base = measures[["doc_id", "system", *metrics]]

    def by_metric(scores: pd.DataFrame) -> pd.DataFrame:
        c = correlations_at(_with(base, scores), metrics, human, level, methods)
        return c.pivot(index="metric", columns="method", values="value").reindex(list(metrics))

    full = by_metric(mean_of_annotators(rows, human))
    out = []
    for worker in dict.fromkeys(rows["worker"]):
        alone = rows[rows["worker"] == worker][["doc_id", "system", "score"]].rename(columns={"score": human})
        others = mean_of_annotators(rows[rows["worker"] != worker], human)
        kept = {("leave-one-out", f"all but {worker}"): by_metric(others),
                ("single", f"only {worker}"): by_metric(alone)}
        for (kind, label), corr in kept.items():
            for method in methods:
                a, b = full[method], corr[method]
                both = a.notna() & b.notna()
                tau = correlation(a[both].to_numpy(float), b[both].to_numpy(float), "kendall_b") if both.sum() >= 2 \
                    else float("nan")
                top, top_all = _top(b), _top(a)
                out.append((human, level, method, kind, worker, label, tau, int(both.sum()), top, top_all,
                            bool(top is not None and top == top_all)))
    return pd.DataFrame(out, columns=RANKING_COLUMNS)


def rank_table(per_annotator: pd.DataFrame, loo: pd.DataFrame, method: str = "pearson") -> pd.DataFrame:
    """The measures' ranks (1 = best) by ``method``: one row per measure, columns ``all``, then
    ``all but <a>`` and ``only <a>`` for each annotator ``a``, in the measures' order of the full ranking.

    Args:
        per_annotator: :func:`annotator_correlations`' frame (``all`` and each annotator alone).
        loo: :func:`~sumeval.studies.common.annotator_subsets.annotator_effects`' frame (``without`` each annotator).
        method: the correlation method the ranks are by.
    """
    pa = per_annotator[per_annotator["method"] == method]
    cols = {"all": pa[pa["annotator"] == "all"].set_index("metric")["value"]}
    lo = loo[loo["method"] == method]
    for worker in [w for w in dict.fromkeys(pa["annotator"]) if w != "all"]:
        cols[f"all but {worker}"] = lo[lo["annotator"] == worker].set_index("metric")["without"]
        cols[f"only {worker}"] = pa[pa["annotator"] == worker].set_index("metric")["value"]
    ranks = pd.DataFrame({k: _ranks(v) for k, v in cols.items()})
    ranks = ranks.loc[cols["all"].index]
    return ranks.sort_values("all", kind="mergesort")


def annotator_section(judgments, human: str, measures: pd.DataFrame, metrics: Sequence[str], *,
                      worker_counts: Sequence[int] = (1, 2, 3), n_draws: int = 20, seed: int = 0,
                      methods: Sequence[str] = METHODS) -> dict[str, Any]:
    """Everything the study asks of the annotators of ``human``.

    Args:
        judgments: the data set (``<human>/<annotator>`` columns, 2 or more).
        human: the human column.
        measures: one row per summary, ``doc_id, system`` and the ``metrics`` columns (higher is better).
        metrics: the measure columns.
        worker_counts: numbers of annotators drawn per summary; those from 1 to the number of
            annotators minus 1 are used.
        n_draws, seed: draws of each number (:func:`~sumeval.studies.common.annotator_subsets.annotator_subset_scores`).
        methods: correlation methods.

    Returns:
        ``{"annotators": k, "level", "level_note", "drawn": [n ...], "not_mean": summaries whose
        human score is not the mean of its annotators, "agreement", "per_annotator"
        (:func:`annotator_correlations`), "leave_one_out"
        (:func:`~sumeval.studies.common.annotator_subsets.annotator_effects`), "rankings" (:func:`ranking_changes`),
        "worker_correlations" (:func:`~sumeval.studies.common.annotator_subsets.worker_summary` of the draws)}``;
        without a level, only ``annotators``, ``level`` (None), ``level_note`` and ``agreement``.

    Raises:
        InputError: ``human`` without annotator columns.
    """
    from sumeval.studies.common import annotator_subsets as A

    rows = A.annotator_judgments(judgments, human)
    k = int(rows["worker"].nunique())
    level, note = annotator_level(judgments, human)
    out: dict[str, Any] = {"annotators": k, "level": level, "level_note": note,
                           "agreement": A.annotator_agreement(judgments, [human])}
    if level is None or not metrics:
        return out
    own = judgments.frame[["doc_id", "system", human]].merge(A.mean_of_annotators(rows, human),
                                                            on=["doc_id", "system"], suffixes=("", "_mean"))
    counts = [int(n) for n in worker_counts if 0 < int(n) < k]
    drawn = A.annotator_subset_scores(rows, human, counts, n_draws, seed=seed)
    out.update(
        drawn=counts, not_mean=int((own[human] - own[f"{human}_mean"]).abs().gt(1e-9).sum()),
        per_annotator=annotator_correlations(measures, metrics, rows, human, level, methods),
        leave_one_out=A.annotator_effects(measures, metrics, rows, human, methods, level=level),
        rankings=ranking_changes(measures, metrics, rows, human, level, methods),
        worker_correlations=A.worker_summary(A.worker_correlations(measures, metrics, drawn, methods, drop_systems=(),
                                                                   human=human, level=level)))
    return out


def save_annotator_section(ctx, section: dict[str, Any], human: str, *, data_name: str,
                           what: str = "annotators") -> pd.DataFrame:
    """Save what :func:`annotator_section` found of the annotators of ``human`` in the run ``ctx``
    (a :class:`~sumeval.running.run_context.RunContext`): the figure and table ``workers_<human>`` (the
    correlations over the number of annotators drawn, :func:`~sumeval.studies.common.annotator_subsets.save_workers`),
    the table ``annotators_<human>`` (Pearson with the mean of all annotators and of all but one) and the
    table ``rankings_<human>`` (:func:`rank_table`, its caption with the Kendall tau-b of each
    ranking with the full one). ``section`` must have a level; ``what`` names the annotators in
    words (``"experts"``). Returns the ranks (:func:`rank_table`) for the notebook to show.
    """
    from sumeval.studies.common.study_data import file_part

    level, effects = section["level"], section["leave_one_out"]
    ranks = rank_table(section["per_annotator"], effects)
    save_workers(ctx, section["worker_correlations"], human, what, data_name=data_name, level=level)
    pearson = effects[effects["method"] == "pearson"]
    loo = pearson.pivot_table(index="metric", columns="annotator", values="without", sort=False)
    loo.insert(0, "all", pearson.groupby("metric", sort=False)["all"].first())
    ctx.save_table(loo, f"annotators_{file_part(human)}",
                   caption=f"{data_name}: {level}-level Pearson with {human} as the mean of all annotators (all) "
                           "and of all but the one named (leave one out)")
    taus = section["rankings"][section["rankings"]["method"] == "pearson"]
    ctx.save_table(ranks, f"rankings_{file_part(human)}",
                   caption=f"{data_name}: the measures ranked (1 = best) by {level}-level Pearson with {human} as "
                           "the mean of all annotators, of all but one, and one alone; Kendall tau-b with the full "
                           "ranking: " + ", ".join(f"{r.kept} {r.tau:.2f}" for r in taus.itertuples()))
    return ranks


def annotators_part(ctx, judgments, humans: Sequence[str], measures: pd.DataFrame, metrics: Sequence[str], *,
                    worker_counts: Sequence[int] = (1, 2, 3), n_draws: int = 20, seed: int = 0,
                    summeval_run: bool = False) -> tuple[dict[str, dict[str, Any]], dict[str, pd.DataFrame],
                                                          list[tuple[str, str]]]:
    """Part (b) of the study on the data set's own annotators, recorded in the run ``ctx`` (a
    :class:`~sumeval.running.run_context.RunContext`): :func:`annotator_section` of every human column of
    ``humans`` with 2 or more ``<human>/<annotator>`` columns, saved by :func:`save_annotator_section`.

    The promised outputs ``annotators_*`` and ``rankings_*`` (and ``workers_*``, but in the SummEval
    run, where REALSumm's crowd workers write them) are declared skipped, with the reason, when no
    human column has annotators, when there is no measure (``metrics`` empty) or when no column has
    a level to correlate at; a column's level note and the summaries whose human score is not the
    mean of its annotators become notes of the run.

    Args:
        judgments: the data set; ``humans`` its human columns.
        measures, metrics: :func:`section_measures`' frame and measure columns.
        worker_counts, n_draws, seed: the draws of annotators (:func:`annotator_section`).
        summeval_run: the SummEval run (its annotators are called experts).

    Returns:
        ``(sections, ranks, skipped)``: :func:`annotator_section` per annotated human column, the
        ranks (:func:`rank_table`) per column saved, and ``(section, reason)`` for each part skipped.
    """
    skipped: list[tuple[str, str]] = []
    annotated = [h for h in humans if len(judgments.annotators.get(h, ())) >= 2]
    outputs = ["annotators_*", "rankings_*"] + ([] if summeval_run else ["workers_*"])
    if not annotated:
        skipped.append(("(b) the data set's annotators", f"{judgments.name} has no human column with 2 or more "
                        "<human>/<annotator> columns"))
    elif not metrics:
        skipped.append(("(b) the data set's annotators", f"{judgments.name}: no measure to correlate with the "
                        "annotators (no measure columns, no references for (a)); name some with measures=... "
                        "(e.g. estime-soft)"))
    if not annotated or not metrics:
        ctx.skip(outputs, skipped[-1][1])
    sections: dict[str, dict[str, Any]] = {}
    ranks: dict[str, pd.DataFrame] = {}
    for h in annotated:
        sec = sections[h] = annotator_section(judgments, h, measures, metrics, worker_counts=worker_counts,
                                              n_draws=n_draws, seed=seed)
        if sec["level"] is None:
            skipped.append((f"(b) annotators of {h}", sec["level_note"]))
            continue
        if sec["level_note"] and metrics:
            ctx.note(f"{h}: {sec['level_note']}")
        if not metrics:
            continue
        if sec["not_mean"]:
            ctx.note(f"on {sec['not_mean']} summaries {h} is not the mean of its annotators; (b) uses their mean")
        print(f"{h}: {sec['annotators']} annotators, {sec['level']} level; drawn per summary: "
              f"{sec['drawn'] or 'none (fewer annotators than any of worker_counts)'}")
        ranks[h] = save_annotator_section(ctx, sec, h, data_name=judgments.name,
                                          what="experts" if summeval_run else "annotators")
    if annotated and metrics and all(sec["level"] is None for sec in sections.values()):
        ctx.skip(outputs, "; ".join(r for s, r in skipped if s.startswith("(b) annotators of")))
    return sections, ranks, skipped


def section_measures(judgments, measures: str | Sequence[str] = "", *, module_path: str | Sequence[str] = "",
                     pairs: pd.DataFrame | None = None,
                     per_ref: dict[str, np.ndarray] | None = None) -> tuple[pd.DataFrame, list[str], list[dict]]:
    """The measures the annotators are asked about: the study's ``measures`` (empty: the data set's
    measure columns but the opt-in ones, :func:`sumeval.studies.common.baseline_rows.measure_scores`)
    and, when section (a) ran, each per-reference measure averaged over all references
    (:func:`~sumeval.studies.common.sera_scores.sera_frame`; SummEval: SERA, GeSERA, ROUGE-1/2/L).

    Args:
        judgments: the data set.
        measures, module_path: the study's parameters.
        pairs, per_ref: section (a)'s pairs (``doc_id, system``, ...) and scores against each reference.

    Returns:
        ``(frame, metrics, not_scored)``: ``judgments.frame``'s ``doc_id, system`` and one column per
        measure (higher is better, in the data set's row order), their names, and the rows a
        measure could not score (left out of its correlations).
    """
    from sumeval.studies.common.baseline_rows import measure_scores
    from sumeval.studies.common.sera_scores import sera_frame

    frame = judgments.frame[["doc_id", "system"]].copy()
    metrics: list[str] = []
    extra = measure_scores(judgments, measures, module_path=module_path)
    if extra is not None:
        for label in extra.frame.columns:
            frame[label] = extra.frame[label].to_numpy()
        metrics += list(extra.frame.columns)
    if per_ref is not None and pairs is not None:
        means = sera_frame(pairs[["doc_id", "system"]], per_ref)
        clash = [m for m in per_ref if m in metrics]
        if clash:
            raise InputError(f"measure {clash[0]!r} is named twice (a measure column and a measure of (a)); "
                             "leave it out of measures=")
        frame = frame.merge(means, on=["doc_id", "system"], how="left", validate="one_to_one")
        metrics += list(per_ref)
    return frame, metrics, list(extra.not_scored) if extra is not None else []
