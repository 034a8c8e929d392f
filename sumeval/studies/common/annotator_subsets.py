"""Judges as annotators, for the study ``annotator_impact`` (paper 001 Sec. 4.3): (b) a human
score recomputed from subsets of its annotators - REALSumm's LitePyramid from drawn crowd workers
(:func:`worker_subset_litepyramid`), a user's ``<human>/<annotator>`` columns from drawn or
left-out annotators (:func:`annotator_subset_scores`, :func:`annotator_effects`) - and the
system-level correlations of the measures with it; (c) the raters' agreement (Krippendorff's alpha,
:func:`agreement`, :func:`annotator_agreement`). Randomness comes from a ``seed``.
"""
from __future__ import annotations

import warnings
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.studies.common.sera_scores import (
    METHODS,
    per_reference_scores,
    realsumm_pairs,
    sera_frame,
    system_correlations,
)

__all__ = ["draw_workers", "worker_subset_litepyramid", "annotator_judgments", "correlations_at", "mean_of_annotators",
           "annotator_subset_scores", "annotator_effects", "realsumm_measures", "worker_correlations",
           "worker_summary", "workers_table", "save_workers", "agreement", "AGREEMENT_COLUMNS", "annotator_agreement"]


# --------------------------------------------------------------------------------------------
# (b) judges as annotators
# --------------------------------------------------------------------------------------------
def draw_workers(judgments: pd.DataFrame, n_workers: int, rng: np.random.Generator) -> pd.DataFrame:
    """The judgment rows of ``n_workers`` workers drawn at random (without replacement) for each
    (document, system); a summary with fewer workers keeps all of them.

    Args:
        judgments: REALSumm SCU judgments (``doc_id, system, worker, ...``).
        n_workers: workers per summary (>= 1).
        rng: the random generator.

    Returns:
        The rows of the drawn workers.

    Raises:
        InputError: ``n_workers < 1``.
    """
    if n_workers < 1:
        raise InputError(f"n_workers must be >= 1, got {n_workers}")
    keys = judgments[["doc_id", "system", "worker"]].drop_duplicates().reset_index(drop=True)
    keys["r"] = rng.random(len(keys))
    keys["rank"] = keys.groupby(["doc_id", "system"])["r"].rank(method="first") - 1
    chosen = keys[keys["rank"] < n_workers][["doc_id", "system", "worker"]]
    return judgments.merge(chosen, on=["doc_id", "system", "worker"], how="inner")


def worker_subset_litepyramid(judgments: pd.DataFrame, n_workers: Sequence[int], n_draws: int, *,
                              seed: int = 0, rule: str = "majority") -> pd.DataFrame:
    """LitePyramid recomputed from ``n`` randomly drawn workers per summary, ``n_draws`` times for each n.

    Args:
        judgments: REALSumm SCU judgments.
        n_workers: the numbers of workers to draw.
        n_draws: draws per number.
        seed: seed of the draws.
        rule: ``"majority"`` (REALSumm) or ``"mean"``.

    Returns:
        ``n_workers, draw, doc_id, system, litepyramid``; plus ``n_workers = 0`` (draw 0) for all
        workers.
    """
    from sumeval.datasets.realsumm import litepyramid_from_judgments

    out = _subset_draws(judgments, lambda sel: litepyramid_from_judgments(sel, rule=rule), n_workers, n_draws, seed)
    out = out.rename(columns={"litepyramid_recall": "litepyramid"})
    return out[["n_workers", "draw", "doc_id", "system", "litepyramid"]]


def _subset_draws(judgments: pd.DataFrame, score, n_workers: Sequence[int], n_draws: int,
                  seed: int) -> pd.DataFrame:
    """``score(rows)`` of all workers (``n_workers = 0``, draw 0), then of ``n`` workers drawn per
    summary (:func:`draw_workers`), ``n_draws`` times for each ``n``, from one generator seeded
    with ``seed`` (the draws in that order)."""
    rng = np.random.default_rng(seed)
    frames = [score(judgments).assign(n_workers=0, draw=0)]
    for n in n_workers:
        for d in range(n_draws):
            sel = draw_workers(judgments, int(n), rng)
            frames.append(score(sel).assign(n_workers=int(n), draw=d))
    return pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------------------------
# (b) on a judgments data set: its <human>/<annotator> columns
# --------------------------------------------------------------------------------------------
def annotator_judgments(judgments, human: str) -> pd.DataFrame:
    """The individual scores of ``human``'s annotators, one row per (summary, annotator) scored:
    ``doc_id, system, worker`` (the annotator column's name after ``/``), ``score``.

    Raises:
        InputError: ``human`` has no annotator columns.
    """
    cols = list(judgments.annotators.get(human, ()))
    if not cols:
        raise InputError(f"{judgments.name}: human column {human!r} has no annotator columns "
                         f"(<human>/<annotator>); annotated: {', '.join(judgments.annotators) or 'none'}")
    long = judgments.frame[["doc_id", "system", *cols]].melt(id_vars=["doc_id", "system"], var_name="worker",
                                                            value_name="score")
    long["worker"] = long["worker"].str.partition("/")[2]
    return long.dropna(subset=["score"]).reset_index(drop=True)


def correlations_at(frame: pd.DataFrame, metrics: Sequence[str], human: str, level: str = "system",
                    methods: Sequence[str] = METHODS) -> pd.DataFrame:
    """Correlations of ``metrics`` with ``human`` at ``level``, no interval: ``metric, human, method,
    value, n``. The system level is :func:`sumeval.studies.common.sera_scores.system_correlations` (paper
    001 Sec.3.4), the one the study has always used."""
    from sumeval import stats

    if level == "system":
        return system_correlations(frame, metrics, human, methods)
    res = stats.correlate(frame, list(metrics), [human], level=level, methods=tuple(methods), n_resamples=0)
    return res[["metric", "human", "method", "value", "n"]]


def mean_of_annotators(rows: pd.DataFrame, human: str) -> pd.DataFrame:
    """``doc_id, system, <human>``: the mean of the annotators' ``score`` per summary (rows of
    :func:`annotator_judgments`)."""
    return rows.groupby(["doc_id", "system"], sort=False)["score"].mean().rename(human).reset_index()


def annotator_subset_scores(rows: pd.DataFrame, human: str, n_workers: Sequence[int], n_draws: int, *,
                            seed: int = 0) -> pd.DataFrame:
    """The human score recomputed as the mean of ``n`` annotators drawn at random per summary,
    ``n_draws`` times for each ``n`` (as :func:`worker_subset_litepyramid` for REALSumm's workers).

    Args:
        rows: :func:`annotator_judgments`' frame.
        human: the human column's name (the name of the recomputed column).
        n_workers, n_draws, seed: as :func:`worker_subset_litepyramid`.

    Returns:
        ``n_workers, draw, doc_id, system, <human>``; ``n_workers = 0``: the mean of all annotators.
    """
    out = _subset_draws(rows, lambda sel: mean_of_annotators(sel, human), n_workers, n_draws, seed)
    return out[["n_workers", "draw", "doc_id", "system", human]]


def annotator_effects(measures: pd.DataFrame, metrics: Sequence[str], rows: pd.DataFrame, human: str,
                      methods: Sequence[str] = METHODS, *, level: str = "system") -> pd.DataFrame:
    """Leaving one annotator out: the system-level (or ``level``: ``global`` where the data set has
    one system per document) correlation of each measure with the mean of all annotators and with
    the mean of the others.

    Args:
        measures: one row per summary with ``doc_id, system`` and the ``metrics`` columns.
        metrics: the measure columns (higher is better).
        rows: :func:`annotator_judgments`' frame.
        human: the human column's name.
        methods: correlation methods.

    Returns:
        ``metric, method, annotator, all, without, effect`` with ``effect = all - without``
        (> 0: the annotator helps the measure agree with people), ``n`` (systems, or summaries at
        the global level).
    """
    base = measures[["doc_id", "system", *metrics]]

    def corr(scores: pd.DataFrame) -> pd.DataFrame:
        merged = base.merge(scores, on=["doc_id", "system"], how="inner")
        return correlations_at(merged, metrics, human, level, methods).set_index(["metric", "method"])

    everyone = corr(mean_of_annotators(rows, human))
    frames = []
    for worker in dict.fromkeys(rows["worker"]):
        without = corr(mean_of_annotators(rows[rows["worker"] != worker], human))
        frames.append(pd.DataFrame({"annotator": worker, "all": everyone["value"], "without": without["value"],
                                    "n": without["n"]}).reset_index())
    out = pd.concat(frames, ignore_index=True)
    out["effect"] = out["all"] - out["without"]
    return out[["metric", "method", "annotator", "all", "without", "effect", "n"]]


def realsumm_measures(index_name: str, variants: Sequence[str], *, n_docs: int | None = None,
                      progress: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """REALSumm pairs (tokenized texts) with the Table 2 ROUGE / JS-2 rows of ``metric_correlations``
    (:func:`sumeval.studies.common.baseline_tables.table2`)
    and the SERA variants over ``index_name``.

    Args:
        index_name: the SERA index, ``CORPUS:SIZE:SEED:BACKEND``.
        variants: SERA variants.
        n_docs: the first documents (None: all).
        progress: show progress bars.

    Returns:
        ``(frame, metric columns)``.
    """
    from sumeval.retrieval.index import open_index
    from sumeval.studies.common.baseline_rows import TABLE2_ROWS
    from sumeval.studies.common.baseline_tables import table2

    scored, _ = table2(n_docs, n_resamples=0, progress=progress)
    pairs = realsumm_pairs(n_docs)
    per_ref = per_reference_scores(pairs, open_index(index_name, progress=progress), variants, progress=progress)
    frame = sera_frame(pairs, per_ref)
    rouge = scored.set_index(["doc_id", "system"])[list(TABLE2_ROWS)]
    frame = frame.join(rouge, on=["doc_id", "system"])
    return frame, list(TABLE2_ROWS) + list(per_ref)


def worker_correlations(measures: pd.DataFrame, metrics: Sequence[str], litepyramids: pd.DataFrame,
                        methods: Sequence[str] = METHODS, drop_systems: Sequence[str] = ("abs/bart_out",),
                        human: str = "litepyramid", *, level: str = "system") -> pd.DataFrame:
    """System-level (or ``level``) correlation of each measure with each recomputed LitePyramid (or
    human score).

    Args:
        measures: :func:`realsumm_measures`' frame (or any frame of ``doc_id, system`` and the
            metric columns).
        metrics: its metric columns.
        litepyramids: :func:`worker_subset_litepyramid`'s frame (or
            :func:`annotator_subset_scores`').
        methods: correlation methods.
        drop_systems: systems left out (``abs/bart_out``: its text is a copy of ``ext/bart_out``).
        human: the recomputed human column.
        level: ``system`` (paper 001) or ``global`` (:func:`sumeval.studies.common.annotator_rankings.annotator_level`).

    Returns:
        ``n_workers, draw, metric, method, value, n``.
    """
    base = measures[~measures["system"].isin(drop_systems)].drop(columns=[human], errors="ignore")
    frames = []
    for (n, d), g in litepyramids.groupby(["n_workers", "draw"], sort=True):
        merged = base.merge(g[["doc_id", "system", human]], on=["doc_id", "system"], how="inner")
        corr = correlations_at(merged, metrics, human, level, methods)
        frames.append(corr.assign(n_workers=n, draw=d))
    return pd.concat(frames, ignore_index=True)[["n_workers", "draw", "metric", "method", "value", "n"]]


def worker_summary(worker_corr: pd.DataFrame) -> pd.DataFrame:
    """Per (metric, method, n_workers): ``mean, std, min, max`` over the draws (n_workers 0 =
    all workers, one value)."""
    g = worker_corr.groupby(["metric", "method", "n_workers"])["value"]
    return g.agg(["mean", "std", "min", "max", "count"]).rename(columns={"count": "draws"}).reset_index()


def workers_table(summary: pd.DataFrame, method: str = "pearson") -> pd.DataFrame:
    """:func:`worker_summary` as a table: one row per metric, one column per number of workers
    drawn (then ``all``), cells the mean correlation (``method``) over the draws."""
    sub = summary[summary["method"] == method]
    wide = sub.pivot_table(index="metric", columns="n_workers", values="mean", sort=False)
    wide = wide[[c for c in wide.columns if c > 0] + [c for c in wide.columns if c == 0]]
    wide.columns = [str(c) if c > 0 else "all" for c in wide.columns]
    return wide


def save_workers(ctx, summary: pd.DataFrame, human: str, what: str, *, data_name: str = "",
                 level: str = "system") -> None:
    """Save the curves of the correlations over the number of annotators drawn per summary as the
    figure and the table ``workers_<human>`` of the run ``ctx`` (a :class:`~sumeval.running.run_context.RunContext`).

    Args:
        summary: :func:`worker_summary`'s frame (per metric, method and ``n_workers``: the mean, min
            and max over the draws; ``n_workers`` 0 = all of them).
        human: the human score recomputed from the drawn annotators: ``"litepyramid"`` (REALSumm's
            crowd workers, paper 001 Sec. 4.3) or a human column with ``<human>/<annotator>`` columns.
        what: who is drawn, in words (``"REALSumm crowd workers"``, ``"experts"``, ``"annotators"``).
        data_name: the data set's name, in the title of a human column's figure.
        level: the level of the correlations (``system`` or ``global``), in the labels and the caption.

    The figure plots the Pearson correlations (:func:`sumeval.plots.retrieval.worker_curves`); the
    table holds their means over the draws (:func:`workers_table`).
    """
    from sumeval.display_names import display
    from sumeval.plots.retrieval import worker_curves
    from sumeval.studies.common.study_data import file_part

    title = (f"Judges as annotators ({what})" if human == "litepyramid"
             else f"{display(data_name)} {display(human)}: {what} drawn per summary")
    fig, ax = worker_curves(summary, method="pearson", title=title)
    if human != "litepyramid":
        ax.set_xlabel(f"annotators per summary\nbehind {display(human)} (their mean)")  # a column wide: 2 lines
        ax.set_ylabel(f"{display('pearson')} with {display(human)} ({level} level)")
    ctx.save_figure(fig, f"workers_{file_part(human)}")
    ctx.save_table(workers_table(summary), f"workers_{file_part(human)}",
                   caption=f"{level.capitalize()}-level Pearson with {display(human)} recomputed from n drawn {what} "
                           "per summary "
                           "(mean over the draws; all: every one)")


# --------------------------------------------------------------------------------------------
# (c) agreement
# --------------------------------------------------------------------------------------------
def agreement(judgments: pd.DataFrame | None = None, *, include_experts: bool = True) -> pd.DataFrame:
    """Krippendorff's alpha where individual judgments exist.

    * REALSumm SCU judgments: items = (document, system, SCU), raters = worker slots 0-3
      (nominal: present / absent);
    * REALSumm per-worker LitePyramid: items = (document, system), value = the worker's fraction
      of SCUs present (interval);
    * SummaC's 3 SummEval experts, consistency 1-5 (interval and ordinal), 100 pairs.

    Args:
        judgments: REALSumm SCU judgments, or None to leave them out.
        include_experts: add SummaC's experts.

    Returns:
        ``data, items, raters, level, alpha, mean_pearson_vs_others``.
    """
    from sumeval import stats

    rows = []
    if judgments is not None:
        scu = judgments.pivot_table(index=["doc_id", "system", "scu_id"], columns="worker",
                                    values="present", aggfunc="first").astype(float).to_numpy()
        rows.append(("REALSumm SCU judgments (present/absent)", scu.shape[0], scu.shape[1], "nominal",
                     stats.krippendorff_alpha(scu, "nominal"), np.nan))
        frac = judgments.groupby(["doc_id", "system", "worker"])["present"].mean().unstack("worker").to_numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # a worker slot without variance
            ip_workers = float(np.nanmean(stats.inter_rater_pearson(frac[:, :3])))
        rows.append(("REALSumm per-worker LitePyramid", frac.shape[0], frac.shape[1], "interval",
                     stats.krippendorff_alpha(frac, "interval"),
                     ip_workers))
    if include_experts:
        from sumeval.datasets.summeval import load_summac_consistency_experts

        wide = load_summac_consistency_experts(wide=True)
        r = wide[["expert_1", "expert_2", "expert_3"]].to_numpy(float)
        rows += _rating_rows("SummEval experts' consistency (SummaC, 100 pairs)", r)
    return pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)


AGREEMENT_COLUMNS = ["data", "items", "raters", "level", "alpha", "mean_pearson_vs_others"]


def _rating_rows(data: str, ratings: np.ndarray, levels: Sequence[str] = ("interval", "ordinal")) -> list[tuple]:
    """Agreement rows of one (items, raters) array: Krippendorff's alpha at each level of
    measurement and the mean inter-rater Pearson (each rater against the mean of the others;
    :func:`sumeval.stats.inter_rater_pearson`)."""
    from sumeval import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # a rater without variance: NaN, left out
        ip = float(np.nanmean(stats.inter_rater_pearson(ratings)))
    return [(data, ratings.shape[0], ratings.shape[1], level, stats.krippendorff_alpha(ratings, level), ip)
            for level in levels]


def annotator_agreement(judgments, humans: Sequence[str] | None = None) -> pd.DataFrame:
    """Agreement of the annotators of each human column that has ``<human>/<annotator>`` columns:
    Krippendorff's alpha (interval and ordinal) and the mean inter-rater Pearson, over the
    summaries at least one annotator scored.

    Args:
        judgments: a judgments data set.
        humans: the human columns to look at (default: all with annotators).

    Returns:
        ``data, items, raters, level, alpha, mean_pearson_vs_others`` (``data``: ``"<name>: <human>"``);
        empty when no human column has 2 or more annotator columns.
    """
    rows = []
    for human, cols in judgments.annotators.items():
        if (humans is not None and human not in humans) or len(cols) < 2:
            continue
        r = judgments.frame[list(cols)].to_numpy(float)
        r = r[~np.isnan(r).all(axis=1)]
        rows += _rating_rows(f"{judgments.name}: {human} ({', '.join(c.partition('/')[2] for c in cols)})", r)
    return pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)
