"""Study ``metric_correlations``: the published ROUGE / BLEU / BERTScore / JS-2 rows of papers 000 and 001.

(a) Paper 000 Table 1: pooled summary-level Spearman and Kendall tau-c of ROUGE-1/2/3/L F,
    BLEU and BERTScore P/R/F against the four SummEval expert qualities. Paper 000 computed ROUGE
    with rouge-score's defaults (no stemmer), mean over the 11 references; BLEU with NLTK
    (configuration not given); BERTScore with bert-score's default English model, roberta-large
    (its layer 17). roberta-large is not available offline here, so the BERTScore rows use a
    packaged encoder, named in the row's label ("BERTScore-F (all-mpnet-base-v2)"), at its
    default layer (:mod:`sumeval.metrics.bertscore`), best over the 11 references.
(b) Paper 001 Table 2: system-level Pearson, Spearman and Kendall tau-b of ROUGE-1-R, ROUGE-2-R,
    ROUGE-L-F and JS-2 against REALSumm LitePyramid recall. REALSumm's ROUGE uses the stemmer and
    its "ROUGE-L" is the summary-level LCS over sentences (rouge-score's rougeLsum); its JS-2 is
    the negated divergence.

Both parts run on any judgments data set (:mod:`sumeval.studies.study_data`): part (a) on the
study's ``dataset`` (SummEval by default), part (b) on its ``system_dataset`` (REALSumm by
default). The papers' numbers are shown beside ours only on the paper's own data set. On another
data set the reference-based rows need its ``references`` (without them those rows are left
out, and said so; a summary without references stops the run naming it), the diagnostic row
(which drops SummEval's CNN/DM highlight) is not shown, and the data set's precomputed measure
columns and any measures named by the study's ``measures``
(:mod:`sumeval.metrics.sources` syntax: a column, a registered measure, a ``module:Class``)
join the rows. :func:`level_correlations` correlates every row at the input, system and global
levels. The shelf's built-in sets (:mod:`sumeval.datasets.shelf`) are taken as they are: a set
without summaries (FRANK) is refused naming what applies to it; a part a set cannot answer by its
nature (Rank19: no global level; QAGS: no references, no system level) raises
:class:`~sumeval.studies.study_data.PartSkipped`, and the notebook skips it with the reason.

Every function returns tidy frames; the notebook only draws and shows them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import pandas as pd

from sumeval import published
from sumeval.cache import Store, cache_key
from sumeval.errors import InputError
from sumeval.studies.metric_levels import LEVEL_NAMES, all_levels, level_correlations  # noqa: F401 (the notebook's mc.*)

QUALITIES = ("consistency", "relevance", "coherence", "fluency")
#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": (">=0", "0 means all; at most the data set's documents (checked when it is loaded)"),
                    "n_resamples": (">=0", "0 for no intervals")}


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
    "JS-2": Row("js-2", "js-2", sign=-1, note="negated bigram Jensen-Shannon divergence, as REALSumm"),
}


def score_rows(frame: pd.DataFrame, rows: Mapping[str, Row], *, dataset: str, progress: bool = False,
               cache: bool = True) -> pd.DataFrame:
    """``frame`` (one row per summary: ``doc_id, system, summary, references``) plus one column
    per table row (named by the row label, sign applied).

    Each distinct (measure, options, references) is scored once and cached under ``dataset``
    (the data set's name in cache keys, :func:`sumeval.studies.study_data.cache_name`), the rows
    scored and the scorer's signature.

    Raises:
        InputError: a summary the scorer could not score (an empty summary, a row without
            references), naming the rows.
    """
    from sumeval import metrics

    out = frame.reset_index(drop=True).copy()
    groups: dict[tuple, list[str]] = {}
    for label, row in rows.items():
        groups.setdefault(row.group(), []).append(label)
    store = Store("scores")
    ids = [f"{d}|{s}" for d, s in zip(out["doc_id"], out["system"])]
    for labels in groups.values():
        row = rows[labels[0]]
        scorer = metrics.get_scorer(row.measure, **row.options)
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
    """``(judgments, humans)`` of ``dataset`` (:func:`sumeval.studies.study_data.load`); the built-in
    SummEval's qualities in the paper's order (:data:`QUALITIES`)."""
    from sumeval.studies import study_data

    return study_data.load(dataset, humans=humans, n_docs=n_docs, needs=needs, builtin_order=QUALITIES,
                           parameter=parameter)


def table1_rows(judgments, *, diagnostics: bool = True,
                bertscore_model: str = BERTSCORE_MODEL) -> tuple[dict[str, Row], list[str]]:
    """The paper-000 Table 1 rows computed on ``judgments``, and notes on the rows left out.

    The diagnostic row (BLEU without SummEval's CNN/DM highlight) exists only on SummEval (elsewhere
    it is left out without a note); every row needs the summaries' references. A system whose
    summaries are their references (DialSummEval's and XSumFaith's ``reference``) gets a note.
    """
    from sumeval.studies.study_data import is_builtin, reference_systems

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
    from sumeval.studies.study_data import split_names

    specs = split_names(measures) or list(judgments.default_measures)
    if not specs:
        return None
    resolved = resolve_measures(specs, judgments, module_path=split_names(module_path))
    return score_judgments(judgments, resolved, progress=progress)


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
    from sumeval.studies.study_data import PartSkipped, cache_name, check_needs, is_builtin, shelf_limit

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
    scored = (score_rows(judgments.frame, rows, dataset=cache_name(judgments), progress=progress) if rows
              else judgments.frame.reset_index(drop=True).copy())
    labels = _add_measures(scored, rows, extra)
    metrics = list(rows) + labels
    ours = stats.correlate(scored, metrics, hs, level="summary", methods=("spearman", "kendall_c"),
                           n_resamples=n_resamples, seed=seed)
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
    from sumeval.studies.study_data import PartSkipped, cache_name, check_needs, is_builtin, shelf_limit

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
    scored = score_rows(judgments.frame, TABLE2_ROWS, dataset=cache_name(judgments), progress=progress)
    ours = stats.correlate(scored, list(TABLE2_ROWS), hs, level="system",
                           methods=("pearson", "spearman", "kendall_b"), n_resamples=n_resamples, seed=seed)
    paper = is_builtin(judgments, "realsumm")
    return Part(judgments, hs, scored, compare(ours, published.paper001_table2() if paper else None),
                list(TABLE2_ROWS), paper=paper)


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


def row_notes(bertscore_model: str = BERTSCORE_MODEL, part: Part | None = None) -> pd.DataFrame:
    """How each row is computed here, in words (``part``: the rows of that part (a), and its
    measures with their signatures; default: the rows on SummEval)."""
    table1_rows_ = {**TABLE1_ROWS, **TABLE1_DIAGNOSTIC_ROWS, **bertscore_rows(bertscore_model)}
    if part is not None:
        table1_rows_ = {k: table1_rows_[k] for k in part.metrics if k in table1_rows_}
    items = [("Table 1", k, r.measure, r.note) for k, r in table1_rows_.items()]
    if part is not None:
        items += [("Table 1", k, "measures", part.signatures.get(k, "")) for k in part.measures]
    items += [("Table 2", k, r.measure, r.note) for k, r in TABLE2_ROWS.items()]
    return pd.DataFrame(items, columns=["table", "row", "measure", "how"])
