"""Readable names for the code names tables and figures would otherwise show.

A table's rows and headers hold the names the code uses (``rouge-2``, ``kendall_b``,
``consistency``); a paper shows ``ROUGE-2``, ``Kendall tau-b``, ``Consistency``. :func:`display`
turns one into the other; a name it does not know passes through unchanged (the table writer
escapes it). The CSV files keep the code names: they are data.

>>> [display(n) for n in ("rouge-2", "bertscore-f", "estime-soft", "js-2", "js-2 (negated)", "my_metric")]
['ROUGE-2', 'BERTScore-F', 'ESTIME-soft', 'JS-2 (negated)', 'JS-2 (negated)', 'my_metric']
>>> display("kendall_b"), display("kendall_b", fmt="latex")
('Kendall tau-b', 'Kendall $\\\\tau_b$')
>>> display("annotator:expert_1"), display("human ceiling")
('Annotator expert_1 (vs. others)', 'Human ceiling (mean of annotators)')

A built-in set's own precomputed columns (``<set>.<column>``) are named by their set, so that the set's ROUGE-1
is told from the one computed here:

>>> display("dialsummeval.rouge-1"), display("dialsummeval.ppl (negated)"), display("frank.FactCC")
("DialSummEval's ROUGE-1", "DialSummEval's ppl (negated)", "FRANK's FactCC")

Names the papers use for rows computed here differently (:func:`paper_row_label`): paper 000's
BERTScore rows are bert-score's roberta-large, while ours name the packaged encoder they use.
"""
from __future__ import annotations

import re

from sumeval.datasets.shelf_table import SHELF
from sumeval.stats.coefficients import COEFFICIENTS

__all__ = ["display", "paper_row_label", "NAMES", "LATEX", "PAPER_000_BERTSCORE_MODEL"]

#: code name -> readable name (measures, their output columns, human qualities, levels,
#: coefficients, the words of table headers)
NAMES: dict[str, str] = {
    # measures (registered names; sumeval.metrics.catalog)
    "rouge-1": "ROUGE-1", "rouge-2": "ROUGE-2", "rouge-3": "ROUGE-3", "rouge-4": "ROUGE-4", "rouge-l": "ROUGE-L",
    "rouge-lsum": "ROUGE-Lsum", "bleu": "BLEU", "bertscore": "BERTScore", "js-2": "JS-2 (negated)",
    "estime": "ESTIME (negated)", "estime-soft": "ESTIME-soft", "similarity-order": "Similarity order",
    "estime_alarms": "ESTIME (negated)", "estime_soft": "ESTIME-soft", "similarity_order": "Similarity order",
    "blanc": "BLANC", "supert": "SUPERT", "summaqa": "SummaQA", "moverscore": "MoverScore",
    "meteor": "METEOR", "fragment-coverage": "Fragment coverage", "fragment-density": "Fragment density",
    "bigram-overlap": "Bigram overlap",
    # human columns (qualities and protocols)
    "consistency": "Consistency", "relevance": "Relevance", "coherence": "Coherence", "fluency": "Fluency",
    "overall": "Overall", "informativeness": "Informativeness", "factuality": "Factuality",
    "litepyramid": "LitePyramid", "pyramid": "Pyramid", "acu": "ACU", "nacu": "nACU",
    # levels (sumeval.stats) and the legacy names
    "input": "Input", "system": "System", "global": "Global", "partial": "Partial", "summary": "Summary (pooled)",
    "document": "Input",
    # coefficients (the registry's titles, sumeval.stats.coefficients)
    "kendall": "Kendall tau", **{c.name: c.title for c in COEFFICIENTS.values()},
    # header words
    "measure": "Measure", "metric": "Measure", "human": "Human", "level": "Level", "method": "Coefficient",
    "coefficient": "Coefficient", "source": "Source", "ours": "Ours", "paper": "Paper",
    "annotator": "Annotator", "all": "All", "mean": "Mean", "across": "Across", "dataset": "Data set",
    "data": "Data", "data sets": "Data sets", "items": "Items", "raters": "Raters", "position": "Position",
    "coverage": "Coverage", "mean rank": "Mean rank", "mean score": "Mean score",
    "mean correlation": "Mean correlation", "mean rank (input)": "Mean rank (input)",
    "mean rank (system)": "Mean rank (system)", "mean rank (global)": "Mean rank (global)",
    "ceiling": "Human ceiling", "best_measure": "Best measure", "best_value": "Best value",
    "n_measures": "Measures", "n_above_ceiling": "Above the ceiling", "judge": "Judge",
    "winning_rate": "Winning rate", "authors_winning_rate": "Authors' winning rate", "authors_rho": "Authors' rho",
    "rho_2dp": "rho (2 decimals)", "same_to_2dp": "Same to 2 decimals", "same_verdict": "Same verdict",
    "mean_pearson_vs_others": "Mean Pearson vs. others",
    # tests between measures (sumeval.meta_eval.TESTS) and p-value corrections
    "williams": "Williams' test", "permutation-both": "permutation test (systems and inputs)",
    "permutation-systems": "permutation test (systems)", "permutation-inputs": "permutation test (inputs)",
    "bootstrap-both": "paired bootstrap (systems and inputs)", "bootstrap-systems": "paired bootstrap (systems)",
    "bootstrap-inputs": "paired bootstrap (inputs)", "holm": "Holm", "bh": "Benjamini-Hochberg",
    # meta-eval's judges: soft pairwise accuracy, its test, the annotators' mean (sumeval.meta_eval.annotators)
    "spa": "SPA", "spa-permutation": "permutation test of SPA (mt-metrics-eval)",
    "human ceiling": "Human ceiling (mean of annotators)",
    # data sets (the shelf's rows, sumeval.datasets.shelf_table) and the human columns only they have
    **{s.name: s.title for s in SHELF.values()},
    **{column: title for s in SHELF.values() for column, title in s.column_titles},
    # ordering (paper 002): data sets, quantities
    "nips": "NIPS", "sind": "SIND", "roc": "ROCStories", "wikipedia": "Wikipedia", "bbc": "BBC", "reuters": "Reuters",
    "sentence": "Sentence", "paragraph": "Paragraph",
    # retrieval collections (sumeval.datasets.corpora) and paper 001's CNN/DM index
    "cnndm": "CNN/DM", "news": "News", "wikipedia-2015": "Wikipedia 2015", "wikipedia-2018": "Wikipedia 2018",
    "reuters21578": "Reuters-21578", "20newsgroups": "20 Newsgroups", "bbc2005": "BBC 2005",
    "pmr": "PMR", "wlcs_l": "WLCS-l", "n_params": "Parameters", "params_m": "Parameters (M)", "model": "Model",
    "trained on / model": "Trained on / model", "acc": "Accuracy", "tau": "Kendall tau",
    # the AltTest release's judges (sumeval.judges) and the alt-test's alignment score
    "gemini_flash": "Gemini Flash", "gemini_pro": "Gemini Pro", "gpt-4o": "GPT-4o", "gpt-4o-mini": "GPT-4o mini",
    "llama-31": "Llama-3.1", "mistral-v03": "Mistral-v0.3", "neg_rmse": "negative RMSE",
}
#: LaTeX spellings where the LaTeX differs from escaping :data:`NAMES` (raw LaTeX, not escaped)
LATEX: dict[str, str] = {
    "kendall": r"Kendall $\tau$", **{c.name: c.latex for c in COEFFICIENTS.values() if c.latex},
    "tau": r"Kendall $\tau$",
}
_NEGATED = " (negated)"
_ANNOTATOR = "annotator:"  # an annotator scored as a measure: "annotator:expert_1"
_OUTPUT = re.compile(r"^(?P<base>.+)-(?P<part>[pfr])$")
_SERA = re.compile(r"^(?P<family>ge)?sera(?P<rest>(-[a-z]+)*-\d+)$")
#: the BERTScore model behind paper 000's Table 1 (bert-score's English default, its layer 17)
PAPER_000_BERTSCORE_MODEL = "roberta-large"
_BERTSCORE_ROW = re.compile(r"^(?P<row>BERTScore-[FPR]) \((?P<model>[^()]+)\)$")


def _measure(name: str) -> str | None:
    """The readable name of a measure or one of its output columns, or None when unknown."""
    if name in NAMES:
        return NAMES[name]
    if name in COEFFICIENTS:  # one registered after this module was imported
        return COEFFICIENTS[name].title
    if name.startswith(_ANNOTATOR) and len(name) > len(_ANNOTATOR):
        return f"Annotator {name[len(_ANNOTATOR):]} (vs. others)"
    owner, dot, column = name.partition(".")
    if dot and column and owner in SHELF:  # a shelf set's own precomputed column: "dialsummeval.rouge-1"
        return f"{SHELF[owner].title}'s {display(column)}"
    sera = _SERA.match(name)
    if sera:
        return ("GeSERA" if sera["family"] else "SERA") + sera["rest"].upper()
    out = _OUTPUT.match(name)
    if out and out["base"] in NAMES:
        base = NAMES[out["base"]]
        if base.endswith(_NEGATED):
            return None
        return f"{base}-{out['part'].upper()}"
    return None


def display(name, fmt: str = "text") -> str:
    """The readable name of ``name`` (a measure, output column, quality, level, coefficient or
    header word); any other name comes back as ``str(name)``, unchanged.

    Args:
        name: a code name (``"rouge-2-r"``, ``"kendall_c"``, ``"js-2 (negated)"``); measures with
            options keep them (``"rouge-2[use_stemmer=true]"`` -> ``"ROUGE-2 [use_stemmer=true]"``).
        fmt: ``"text"`` (Markdown, HTML, figures) or ``"latex"``: then a name of :data:`LATEX`
            comes back as raw LaTeX, and every other result still needs LaTeX escaping (the
            caller escapes: a known name as well as an unknown one).

    Returns:
        The readable name; ``" (negated)"`` is kept, never doubled.
    """
    text = str(name)
    if fmt == "latex" and text in LATEX:
        return LATEX[text]
    negated = text.endswith(_NEGATED)
    base = text[: -len(_NEGATED)] if negated else text
    head, bracket, options = base.partition("[")
    shown = _measure(head.strip()) if bracket else _measure(base)
    if shown is None:
        return text
    if bracket:
        shown = f"{shown} [{options}"
    if negated and not shown.endswith(_NEGATED):
        shown += _NEGATED
    return shown


def is_raw_latex(name, fmt: str) -> bool:
    """Whether :func:`display` returns raw LaTeX for ``name`` in ``fmt`` (the caller must not escape it)."""
    return fmt == "latex" and str(name) in LATEX


def paper_row_label(label: str) -> str:
    """The name of the paper's row that a row of ours is compared with, when it differs.

    Paper 000 Table 1's BERTScore rows are bert-score's default English model, roberta-large;
    ours run a packaged encoder and say so (``"BERTScore-F (all-mpnet-base-v2)"``), so the
    paper's row beside it is ``"BERTScore-F (roberta-large)"``; the diagnostic
    ``"BLEU (10 crowd refs)"`` is compared with the paper's BLEU on all 11 references; paper 001's
    (REALSumm's) ``"JS-2"`` is the negated divergence too, ``"JS-2 (negated)"`` here. Any other
    label is its own paper row's name.

    >>> paper_row_label("BERTScore-F (all-mpnet-base-v2)"), paper_row_label("ROUGE-1")
    ('BERTScore-F (roberta-large)', 'ROUGE-1')
    >>> paper_row_label("JS-2 (negated)")
    'JS-2'
    """
    row = _BERTSCORE_ROW.match(label)
    if row and row["model"] != PAPER_000_BERTSCORE_MODEL:
        return f"{row['row']} ({PAPER_000_BERTSCORE_MODEL})"
    if label == "BLEU (10 crowd refs)":
        return "BLEU (11 refs)"
    if label == NAMES["js-2"]:
        return "JS-2"
    return label
