"""The baseline rows of papers 000 and 001 (ROUGE, BLEU, BERTScore, JS-2): how each row of the
papers' tables is computed here (:class:`Row`, :data:`TABLE1_ROWS`, :data:`TABLE2_ROWS`,
:func:`bertscore_rows`, :func:`table1_rows`), scoring them on a data set (:func:`score_rows`), the
measures of a study's ``measures`` parameter that join them (:func:`measure_scores`), and our
correlations beside the paper's (:func:`compare`).

The study ``metric_correlations`` shows them (its two parts: :mod:`sumeval.studies.common.baseline_tables`);
``annotator_impact`` and ``index_size_sweep`` score their ROUGE rows with them (``annotator_impact`` its
measures too), and the layer-pair sweep of ``estime_layers`` puts its rows beside the paper's with
:func:`compare`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import pandas as pd

from sumeval.cache import Store, cache_key
from sumeval.errors import InputError

__all__ = ["Row", "TABLE1_ROWS", "TABLE1_DIAGNOSTIC_ROWS", "BERTSCORE_MODEL", "bertscore_rows", "TABLE2_ROWS",
           "TABLE1_LEVEL", "score_rows", "compare", "table1_rows", "measure_scores"]

#: the ``level`` label of paper 000's Table 1 rows: the paper's "summary level", all summaries pooled
#: (sumeval's global level, the one :func:`sumeval.stats.correlate` is asked for)
TABLE1_LEVEL = "summary"


@dataclass(frozen=True)
class Row:
    """How one row of a paper's table is computed here.

    measure, column : the registered measure and the output column used
    sign : -1 where lower is better (the correlation is of the negated value)
    options : scorer options
    first_reference : index of the first reference used (1 drops SummEval's CNN/DM highlight)
    note : what the row is, in words (shown in the study)
    """

    measure: str
    column: str
    sign: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    first_reference: int = 0
    note: str = ""

    def group(self) -> tuple:
        return (self.measure, tuple(sorted(self.options.items())), self.first_reference)


# rouge-score's own (ASCII) tokenizer, as the papers ran it: a few SummEval and REALSumm texts hold
# non-ASCII letters ("fiancée"), which the default Unicode tokenizer would count otherwise
_PAPER_TOKENS = {"tokenizer": "rouge-score"}
_NO_STEM = {"use_stemmer": False, **_PAPER_TOKENS}
TABLE1_ROWS: Mapping[str, Row] = {
    "ROUGE-1": Row("rouge-1", "rouge-1-f", options=_NO_STEM, note="rouge-score defaults, F, mean of 11 refs"),
    "ROUGE-2": Row("rouge-2", "rouge-2-f", options=_NO_STEM, note="rouge-score defaults, F, mean of 11 refs"),
    "ROUGE-3": Row("rouge-3", "rouge-3-f", options=_NO_STEM, note="rouge-score defaults, F, mean of 11 refs"),
    "ROUGE-L": Row("rouge-l", "rouge-l-f", options=_NO_STEM, note="rouge-score defaults, F, mean of 11 refs"),
    "BLEU": Row("bleu", "bleu", note="NLTK sentence BLEU-4, smoothing method2, all 11 refs"),
}
# diagnostic rows: not in the paper, shown to explain a gap
TABLE1_DIAGNOSTIC_ROWS: Mapping[str, Row] = {
    "BLEU (10 crowd refs)": Row("bleu", "bleu", first_reference=1,
                                note="BLEU without the CNN/DM highlight reference (diagnostic)"),
}
#: the encoder of the BERTScore rows (the study's ``bertscore_model`` parameter)
BERTSCORE_MODEL = "all-mpnet-base-v2"


def bertscore_rows(model: str = BERTSCORE_MODEL) -> dict[str, Row]:
    """The BERTScore P / R / F rows of Table 1 with encoder ``model`` (labels name the model;
    empty for ``model=""``). Each compares with the paper's row of the same measure (roberta-large)."""
    if not model:
        return {}
    from sumeval.lm import resolve_model
    from sumeval.metrics.bertscore import default_bertscore_layer

    spec = resolve_model(model)
    note = (f"bert-score, {spec.name} layer {default_bertscore_layer(spec)}, no idf, best of 11 refs "
            "(paper: roberta-large layer 17)")
    return {f"BERTScore-{k.upper()} ({spec.name})": Row("bertscore", f"bertscore-{k}",
                                                        options={"model": spec.name}, note=note)
            for k in ("f", "p", "r")}


TABLE2_ROWS: Mapping[str, Row] = {
    "ROUGE-1-R": Row("rouge-1", "rouge-1-r", options=_PAPER_TOKENS, note="stemmer, recall"),
    "ROUGE-2-R": Row("rouge-2", "rouge-2-r", options=_PAPER_TOKENS, note="stemmer, recall"),
    "ROUGE-L-F": Row("rouge-lsum", "rouge-lsum-f", options=_PAPER_TOKENS,
                     note="stemmer, summary-level LCS over <t> sentences"),
    # named as every other table names the negated divergence (sumeval.display_names); the paper's row
    # beside it is its "JS-2" (display_names.paper_row_label)
    "JS-2 (negated)": Row("js-2", "js-2", sign=-1, note="negated bigram Jensen-Shannon divergence, as REALSumm"),
}


def score_rows(frame: pd.DataFrame, rows: Mapping[str, Row], *, dataset: str, progress: bool = False,
               cache: bool = True, judgments=None) -> pd.DataFrame:
    """``frame`` (one row per summary: ``doc_id, system, summary, references``) plus one column
    per table row (named by the row label, sign applied).

    Each distinct (measure, options, references) is scored once and cached under ``dataset``
    (the data set's name in cache keys, :func:`sumeval.studies.common.study_data.cache_name`), the rows
    scored and the scorer's signature. When ``frame`` is ``judgments.frame`` (pass ``judgments``),
    a row that reads every reference is scored through
    :func:`sumeval.metrics.judgment_scores.scorer_outputs` instead: the numbers ``sumeval meta-eval``
    and the other studies score on that data set with the same scorer, computed once and shared.

    Raises:
        InputError: a summary the scorer could not score (an empty summary, a row without
            references), naming the rows.
    """
    from sumeval import metrics
    from sumeval.metrics.judgment_scores import scorer_outputs

    if judgments is not None and frame is not judgments.frame:
        raise ValueError("score_rows: frame is not judgments.frame; pass judgments only with its own frame")
    out = frame.reset_index(drop=True).copy()
    groups: dict[tuple, list[str]] = {}
    for label, row in rows.items():
        groups.setdefault(row.group(), []).append(label)
    store = Store("scores")
    ids = [f"{d}|{s}" for d, s in zip(out["doc_id"], out["system"])]
    for labels in groups.values():
        row = rows[labels[0]]
        scorer = metrics.get_scorer(row.measure, **row.options)
        if judgments is not None and row.first_reference == 0:
            scores, skipped, _ = scorer_outputs(judgments, scorer, cache=cache, progress=progress)
            if skipped:
                why = sorted({reason for _, reason in skipped})
                raise InputError(f"{dataset}: {row.measure} not scored on {len(skipped)} rows "
                                 f"({judgments.location(skipped[0][0])}: {'; '.join(why[:3])})")
            for label in labels:
                out[label] = rows[label].sign * scores[rows[label].column].to_numpy()
            continue
        key = cache_key(dataset=dataset, rows=ids, signature=scorer.signature(),
                        first_reference=row.first_reference)
        scores = store.get_frame(key) if cache else None
        if scores is None:
            records = [{"summary": s, "references": list(r or [])[row.first_reference:]}
                       for s, r in zip(out["summary"], out["references"])]
            scores, report = metrics.score_records(records, [scorer], progress=progress)
            if report:
                raise InputError(f"{dataset}: " + "; ".join(report.summary_lines()))
            store.put_frame(key, scores)
        for label in labels:
            out[label] = rows[label].sign * scores[rows[label].column].to_numpy()
    return out


def compare(ours: pd.DataFrame, paper: pd.DataFrame | None) -> pd.DataFrame:
    """Ours beside the paper: ``metric, human, level, method, ours, ci_low, ci_high, paper, diff, n``;
    without a paper (``None``: another data set than the paper's) ``paper`` and ``diff`` are
    left out."""
    merged = ours.rename(columns={"value": "ours"})
    if paper is None:
        return merged[["metric", "human", "level", "method", "ours", "ci_low", "ci_high", "n"]]
    merged = merged.merge(
        paper[["metric", "human", "method", "value"]].rename(columns={"value": "paper"}),
        on=["metric", "human", "method"], how="left")
    merged["diff"] = merged["ours"] - merged["paper"]
    cols = ["metric", "human", "level", "method", "ours", "ci_low", "ci_high", "paper", "diff", "n"]
    return merged[cols]


def table1_rows(judgments, *, diagnostics: bool = True,
                bertscore_model: str = BERTSCORE_MODEL) -> tuple[dict[str, Row], list[str]]:
    """The paper-000 Table 1 rows computed on ``judgments``, and notes on the rows left out.

    The diagnostic row (BLEU without SummEval's CNN/DM highlight) exists only on SummEval (elsewhere
    it is left out without a note); every row needs the summaries' references. A system whose
    summaries are their references (DialSummEval's and XSumFaith's ``reference``) gets a note.
    """
    from sumeval.studies.common.study_data import is_builtin, reference_systems

    if "references" not in judgments.fields:
        fix = ("name measures that read no references with -p measures=... (estime-soft reads the text)"
               if judgments.format == "builtin" else
               "map its references column with `sumeval data add ... --references-col COL` to add them")
        return {}, [f"{judgments.name} has no references, so the reference-based rows (ROUGE, BLEU, "
                    f"BERTScore) are left out; {fix}"]
    notes = [f"{judgments.name}: the system {s!r} is the reference itself: the reference-based rows score it "
             "against itself (ROUGE 1.0); drop its rows (export, filter, `sumeval data add`) to correlate over "
             "the models only" for s in reference_systems(judgments)]
    diagnostic = dict(TABLE1_DIAGNOSTIC_ROWS) if diagnostics and is_builtin(judgments, "summeval") else {}
    return {**TABLE1_ROWS, **diagnostic, **bertscore_rows(bertscore_model)}, notes


def measure_scores(judgments, measures: str | list[str] = "", *, module_path: str | list[str] = "",
                   progress: bool = False):
    """The measures of the study's ``measures`` parameter scored on ``judgments``
    (:func:`sumeval.metrics.sources.resolve_measures` / :func:`~sumeval.metrics.judgment_scores.score_judgments`,
    cached), or None when there are none.

    Args:
        judgments: the data set.
        measures: measure specs, comma-separated or a list (a column of the data set, a
            registered measure, a ``module:Class``; see :mod:`sumeval.metrics.sources`); empty:
            the data set's precomputed measure columns but the opt-in ones
            (:attr:`~sumeval.datasets.judgments_model.Judgments.default_measures`: none for SummEval,
            whose LLM judges are opt-in, and REALSumm).
        module_path: folders searched first for a ``module:Class`` (comma-separated or a list).
        progress: show progress bars.

    Returns:
        :class:`sumeval.metrics.judgment_scores.MeasureScores` (its ``frame`` aligned with
        ``judgments.frame``, higher is better) or None.
    """
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures
    from sumeval.studies.common.study_data import split_names

    specs = split_names(measures) or list(judgments.default_measures)
    if not specs:
        return None
    resolved = resolve_measures(specs, judgments, module_path=split_names(module_path))
    return score_judgments(judgments, resolved, progress=progress)
