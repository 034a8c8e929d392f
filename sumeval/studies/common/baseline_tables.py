"""The two tables of the study ``metric_correlations`` on any judgments data set: (a) paper 000
Table 1 (:func:`part_a`, :func:`table1`) and (b) paper 001 Table 2 (:func:`part_b`,
:func:`table2`), each a :class:`Part` (the rows of :mod:`sumeval.studies.common.baseline_rows`
scored and correlated, beside the paper's numbers on the paper's own data set).

``estime_layers`` puts part (a)'s ROUGE rows beside its ESTIME rows; ``annotator_impact`` and
``index_size_sweep`` read REALSumm's Table 2 rows (:func:`table2`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import pandas as pd

from sumeval import published
from sumeval.errors import InputError
from sumeval.studies.common.baseline_rows import (
    BERTSCORE_MODEL,
    TABLE1_DIAGNOSTIC_ROWS,
    TABLE1_LEVEL,
    TABLE1_ROWS,
    TABLE2_ROWS,
    Row,
    bertscore_rows,
    compare,
    measure_scores,
    score_rows,
    table1_rows,
)

__all__ = ["Part", "load_dataset", "part_a", "part_b", "table1", "table2"]


def _paper_rows(paper: pd.DataFrame, rows: Mapping[str, Row], diagnostic: Mapping[str, Row]) -> pd.DataFrame:
    """The paper's numbers, repeated for diagnostic rows and rows with another model
    (``"BLEU (..)"`` compares with ``"BLEU"``, ``"BERTScore-F (all-mpnet-base-v2)"`` with
    ``"BERTScore-F"``)."""
    extra = []
    for label in diagnostic:
        base = label.split(" (")[0]
        extra.append(paper[paper["metric"] == base].assign(metric=label))
    return pd.concat([paper, *extra], ignore_index=True)


@dataclass
class Part:
    """One part of the study on one data set.

    judgments : the data set (:class:`~sumeval.datasets.judgments_model.Judgments`)
    humans : the human columns correlated with, in order
    scored : ``judgments.frame`` plus one column per row of the table (sign applied)
    comparison : :func:`compare`'s frame (with the paper's numbers only on the paper's data set)
    metrics : the rows' labels, in order (the paper's rows, then the measures of ``measures``)
    measures : the labels of the measures from ``measures`` (:mod:`sumeval.metrics.sources`)
    signatures : ``{label: signature}`` of those measures
    not_scored : rows those measures could not score (``row, doc_id, system, location, measure,
        reason``); they are left out of the measure's correlations (NaN)
    notes : what was left out and why, in words
    paper : whether the paper's numbers are beside ours
    """

    judgments: Any
    humans: list[str]
    scored: pd.DataFrame
    comparison: pd.DataFrame
    metrics: list[str]
    measures: list[str] = field(default_factory=list)
    signatures: dict[str, str] = field(default_factory=dict)
    not_scored: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    paper: bool = False


def load_dataset(dataset: str = "summeval", humans: str = "", n_docs: int | None = None, *,
                 needs: tuple[str, ...] = (), parameter: str = "dataset"):
    """``(judgments, humans)`` of ``dataset`` (:func:`sumeval.studies.common.study_data.load`); the built-in
    SummEval's qualities in the paper's order (:data:`sumeval.published.PAPER000_QUALITIES`)."""
    from sumeval.studies.common import study_data

    return study_data.load(dataset, humans=humans, n_docs=n_docs, needs=needs,
                           builtin_order=published.PAPER000_QUALITIES, parameter=parameter)


def _add_measures(part_scored: pd.DataFrame, rows: Mapping[str, Row], extra) -> list[str]:
    """Put the measures' columns into ``part_scored`` (same row order); their labels."""
    if extra is None:
        return []
    labels = list(extra.frame.columns)
    clash = [m for m in labels if m in rows]
    if clash:
        raise InputError(f"measure {clash[0]!r} has the label of a row of the paper's table; rename "
                         "the column or name the measure differently")
    for label in labels:
        part_scored[label] = extra.frame[label].to_numpy()
    return labels


def part_a(dataset: str = "summeval", *, humans: str = "", n_docs: int | None = None,
           n_resamples: int = 1000, seed: int = 0, diagnostics: bool = True,
           bertscore_model: str = BERTSCORE_MODEL, measures: str | list[str] = "",
           module_path: str | list[str] = "", progress: bool = False) -> Part:
    """Paper 000 Table 1 (pooled = global level, Spearman and Kendall tau-c) on ``dataset``.

    The paper's rows (ROUGE, BLEU, BERTScore with ``bertscore_model``; ``""`` leaves BERTScore
    out) plus the ``measures`` (:func:`measure_scores`). On SummEval the paper's numbers are
    beside ours.

    Raises:
        InputError: a data set with fewer than 3 judged summaries for a human column
            (:func:`sumeval.datasets.judgments_model.check_level`), or (a user's) with nothing to
            correlate; a built-in set without summaries (FRANK), naming what applies to it.
        PartSkipped: a built-in set that cannot answer the part by its nature: no global level
            (Rank19), or nothing to correlate (QAGS: no references, no measure columns).
    """
    from sumeval import stats
    from sumeval.datasets.judgments_model import check_level
    from sumeval.studies.common.study_data import PartSkipped, cache_name, check_needs, is_builtin, shelf_limit

    judgments, hs = load_dataset(dataset, humans, n_docs)
    if "summary" in judgments.limits:  # FRANK: not a single summary to score (a user's scores-only file is fine)
        check_needs(judgments, ("summary",), dataset)
    why = shelf_limit(judgments, level="global")
    if why:
        raise PartSkipped(f"(a) Table 1 and the levels: {why}")
    for h in hs:
        check_level(judgments, "global", h)
    paper = is_builtin(judgments, "summeval")
    rows, notes = table1_rows(judgments, diagnostics=diagnostics, bertscore_model=bertscore_model)
    extra = measure_scores(judgments, measures, module_path=module_path, progress=progress)
    if not rows and extra is None:
        if judgments.format == "builtin":
            raise PartSkipped(f"(a) Table 1 and the levels: {judgments.name} has no references (the paper's rows are "
                              "ROUGE, BLEU and BERTScore against them) and no measure columns: nothing to correlate; "
                              "name measures that read no references with -p measures=... (e.g. estime-soft, which "
                              "reads the text)")
        raise InputError(f"{judgments.name}: nothing to correlate: {'; '.join(notes)}, and it has no measure columns; "
                         "name measures with the parameter measures=...")
    scored = (score_rows(judgments.frame, rows, dataset=cache_name(judgments), progress=progress,
                        judgments=judgments) if rows
              else judgments.frame.reset_index(drop=True).copy())
    labels = _add_measures(scored, rows, extra)
    metrics = list(rows) + labels
    ours = stats.correlate(scored, metrics, hs, level="global", methods=("spearman", "kendall_c"),
                           n_resamples=n_resamples, seed=seed)
    ours["level"] = TABLE1_LEVEL  # the paper's words
    table = None
    if paper:
        bert = bertscore_rows(bertscore_model)
        table = _paper_rows(published.paper000_table1(), TABLE1_ROWS, {**TABLE1_DIAGNOSTIC_ROWS, **bert})
    return Part(judgments, hs, scored, compare(ours, table), metrics, labels,
                dict(extra.signatures) if extra else {}, list(extra.not_scored) if extra else [],
                notes, paper)


def part_b(dataset: str = "realsumm", *, humans: str = "", n_docs: int | None = None, n_resamples: int = 1000,
           seed: int = 0, progress: bool = False) -> Part:
    """Paper 001 Table 2 (system level; Pearson, Spearman, Kendall tau-b) on ``dataset``: ROUGE-1-R,
    ROUGE-2-R, ROUGE-L-F (summary-level LCS over the lines of summary and reference: REALSumm's
    sentences) and JS-2 against its human columns. On REALSumm the paper's numbers are beside ours.

    Raises:
        InputError: a data set without references, or with fewer than 3 systems judged
            (:func:`sumeval.datasets.judgments_model.check_level`).
        PartSkipped: a built-in set without references or without a system level (QAGS, Rank19).
    """
    from sumeval import stats
    from sumeval.datasets.judgments_model import check_level
    from sumeval.display_names import paper_row_label
    from sumeval.studies.common.study_data import PartSkipped, cache_name, check_needs, is_builtin, shelf_limit

    judgments, hs = load_dataset(dataset, humans, n_docs, parameter="system_dataset")
    if "summary" in judgments.limits:  # FRANK: refused, naming what applies to it
        check_needs(judgments, ("summary",), dataset, "system_dataset")
    why = shelf_limit(judgments, ("summary", "references"), level="system")
    if why:
        raise PartSkipped(f"(b) Table 2: {why}")
    check_needs(judgments, ("summary", "references"), dataset, "system_dataset")
    for h in hs:
        try:
            check_level(judgments, "system", h)
        except InputError as exc:  # a built-in set with a single system (QAGS' limits say so first)
            if judgments.format == "builtin":
                raise PartSkipped(f"(b) Table 2: {exc}") from exc
            raise
    scored = score_rows(judgments.frame, TABLE2_ROWS, dataset=cache_name(judgments), progress=progress,
                        judgments=judgments)
    ours = stats.correlate(scored, list(TABLE2_ROWS), hs, level="system",
                           methods=("pearson", "spearman", "kendall_b"), n_resamples=n_resamples, seed=seed)
    paper = is_builtin(judgments, "realsumm")
    table = None
    if paper:  # the paper's rows under our rows' names ("JS-2" -> "JS-2 (negated)")
        table = published.paper001_table2()
        ours_name = {paper_row_label(label): label for label in TABLE2_ROWS}
        table["metric"] = [ours_name.get(m, m) for m in table["metric"]]
    return Part(judgments, hs, scored, compare(ours, table), list(TABLE2_ROWS), paper=paper)


def table1(n_docs: int | None = None, *, n_resamples: int = 1000, seed: int = 0, diagnostics: bool = True,
           bertscore_model: str = BERTSCORE_MODEL,
           progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Paper 000 Table 1 rows (ROUGE, BLEU, BERTScore with ``bertscore_model``; ``""`` leaves
    BERTScore out) on SummEval: ``(scored pairs, comparison)`` (:func:`part_a`)."""
    part = part_a("summeval", n_docs=n_docs, n_resamples=n_resamples, seed=seed, diagnostics=diagnostics,
                  bertscore_model=bertscore_model, progress=progress)
    return part.scored, part.comparison


def table2(n_docs: int | None = None, *, n_resamples: int = 1000, seed: int = 0,
           progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Paper 001 Table 2 rows (ROUGE, JS-2) on REALSumm: ``(scored pairs, comparison)`` (:func:`part_b`)."""
    part = part_b("realsumm", n_docs=n_docs, n_resamples=n_resamples, seed=seed, progress=progress)
    return part.scored, part.comparison
