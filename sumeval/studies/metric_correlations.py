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

Every function returns tidy frames; the notebook only draws and shows them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import pandas as pd

from sumeval import published
from sumeval.cache import Store, cache_key

QUALITIES = ("consistency", "relevance", "coherence", "fluency")
#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": ("0..100", "SummEval and REALSumm have 100 documents each; 0 means all"), "n_boot": (">=0", "0 for no intervals")}


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
    from sumeval.metrics.bertscore import default_layer

    spec = resolve_model(model)
    note = (f"bert-score, {spec.name} layer {default_layer(spec)}, no idf, best of 11 refs "
            "(paper: roberta-large layer 17)")
    return {f"BERTScore-{k.upper()} ({spec.name})": Row("bertscore", f"bertscore-{k}",
                                                        options={"model": spec.name}, note=note)
            for k in ("f", "p", "r")}


TABLE2_ROWS: Mapping[str, Row] = {
    "ROUGE-1-R": Row("rouge-1", "rouge-1-r", options=_PAPER_TOKENS, note="stemmer, recall"),
    "ROUGE-2-R": Row("rouge-2", "rouge-2-r", options=_PAPER_TOKENS, note="stemmer, recall"),
    "ROUGE-L-F": Row("rouge-lsum", "rouge-lsum-f", options=_PAPER_TOKENS, note="stemmer, summary-level LCS over <t> sentences"),
    "JS-2": Row("js-2", "js-2", sign=-1, note="negated bigram Jensen-Shannon divergence, as REALSumm"),
}


def score_rows(frame: pd.DataFrame, rows: Mapping[str, Row], *, dataset: str, progress: bool = False,
               cache: bool = True) -> pd.DataFrame:
    """``frame`` (one row per summary: ``doc_id, system, summary, references``) plus one column
    per table row (named by the row label, sign applied).

    Each distinct (measure, options, references) is scored once and cached under the data set,
    the rows scored and the scorer's signature.
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
            records = [{"summary": s, "references": list(r)[row.first_reference:]}
                       for s, r in zip(out["summary"], out["references"])]
            scores, report = metrics.score_records(records, [scorer], progress=progress)
            if report:
                raise ValueError(f"{dataset}: " + "; ".join(report.summary_lines()))
            store.put_frame(key, scores)
        for label in labels:
            out[label] = rows[label].sign * scores[rows[label].column].to_numpy()
    return out


def compare(ours: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Ours beside the paper: ``metric, human, level, method, ours, ci_low, ci_high, paper, diff, n``."""
    merged = ours.rename(columns={"value": "ours"}).merge(
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


def table1(n_docs: int | None = None, *, n_boot: int = 1000, seed: int = 0, diagnostics: bool = True,
           bertscore_model: str = BERTSCORE_MODEL,
           progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Paper 000 Table 1 rows (ROUGE, BLEU, BERTScore with ``bertscore_model``; ``""`` leaves
    BERTScore out) on SummEval: ``(scored pairs, comparison)``."""
    from sumeval import stats
    from sumeval.datasets.summeval import load_summeval

    bert = bertscore_rows(bertscore_model)
    rows = {**TABLE1_ROWS, **(TABLE1_DIAGNOSTIC_ROWS if diagnostics else {}), **bert}
    scored = score_rows(load_summeval(n_docs=n_docs), rows, dataset="summeval", progress=progress)
    ours = stats.correlate(scored, list(rows), list(QUALITIES), level="summary",
                           methods=("spearman", "kendall_c"), n_boot=n_boot, seed=seed)
    paper = _paper_rows(published.paper000_table1(), TABLE1_ROWS, {**TABLE1_DIAGNOSTIC_ROWS, **bert})
    return scored, compare(ours, paper)


def table2(n_docs: int | None = None, *, n_boot: int = 1000, seed: int = 0,
           progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Paper 001 Table 2 rows (ROUGE, JS-2) on REALSumm: ``(scored pairs, comparison)``."""
    from sumeval import stats
    from sumeval.datasets.realsumm import load_realsumm, load_realsumm_documents

    pairs = load_realsumm(n_docs=n_docs).rename(columns={"litepyramid_recall": "litepyramid"})
    # one sentence per line (REALSumm's <t> sentences): rougeLsum's summary-level LCS needs them;
    # the other measures treat a newline as any other separator
    ref_sentences = load_realsumm_documents(n_docs=n_docs).set_index("doc_id")["reference_sentences"]
    pairs["summary"] = pairs["summary_sentences"].map("\n".join)
    pairs["references"] = pairs["doc_id"].map(lambda d: ["\n".join(ref_sentences[d])])
    scored = score_rows(pairs, TABLE2_ROWS, dataset="realsumm", progress=progress)
    ours = stats.correlate(scored, list(TABLE2_ROWS), ["litepyramid"], level="system",
                           methods=("pearson", "spearman", "kendall_b"), n_boot=n_boot, seed=seed)
    return scored, compare(ours, published.paper001_table2())


def row_notes(bertscore_model: str = BERTSCORE_MODEL) -> pd.DataFrame:
    """How each row is computed here, in words."""
    table1_rows = {**TABLE1_ROWS, **TABLE1_DIAGNOSTIC_ROWS, **bertscore_rows(bertscore_model)}
    items = [("Table 1", k, r.measure, r.note) for k, r in table1_rows.items()]
    items += [("Table 2", k, r.measure, r.note) for k, r in TABLE2_ROWS.items()]
    return pd.DataFrame(items, columns=["table", "row", "measure", "how"])


def all_levels(scored: pd.DataFrame, metrics: list[str], humans: list[str], *,
               methods=("pearson", "spearman", "kendall_b", "kendall_c"), n_boot: int = 0,
               seed: int = 0) -> pd.DataFrame:
    """Correlations at every level (summary, document, system), for the explorer."""
    from sumeval import stats

    frames = [stats.correlate(scored, metrics, humans, level=level, methods=methods, n_boot=n_boot, seed=seed)
              for level in ("summary", "document", "system")]
    return pd.concat(frames, ignore_index=True)
