"""Summary of a Haystack (Laban, Fabbri, Xiong & Wu, EMNLP 2024, "Summary of a Haystack: A Challenge to
Long-Context LLMs and RAG Systems"), its judge-validation set (sections 4.2-4.3): 200 bullet-point summaries
written by 9 LLMs (alone or after a retriever) for 29 subtopic queries over 3 haystacks, each reference
insight of the subtopic labelled by hand as covered by the summary fully, partially or not, with the
predictions of 6 LLM evaluators on the same (summary, insight) pairs.

Files (``summhay_eval/``, from salesforce/summary-of-a-haystack 43531729; Apache-2.0)::

    eval_benchmark_data.json   a list of 200 records: topic_fn or topic_id, topic, subtopic_id, subtopic,
                               summkey, summary (a list of lines), reference_insights, annotation (one label
                               per insight, same order), predictions_<prompt>_<judge> x 6 (same order)

The built-in data set ``summhay``: one row per summary (200), ``doc_id`` the subtopic (``subtopic_id``; 29,
5-13 summaries each), ``system`` the summarizer as ``summkey`` names it without its ``summary_subtopic_``
prefix: ``<retriever>_<llm>`` (``oracle_gpt-4o``, ``dwzhu/e5-base-4k_claude3-opus``) or ``<llm>`` alone when
the LLM read the whole haystack (53 systems: 9 LLMs x 6 settings, less GPT-3.5 on the whole haystack;
not all on every subtopic), ``summary`` the lines joined by newlines. Columns:

* human ``coverage`` (0-1, higher = more covered): the paper's Coverage Score of a summary - each reference
  insight scores 1 when fully covered, 0.5 when partially, 0 when not (the notebook's ``map_to_score``), and
  the summary's score is their mean over the subtopic's insights (``utils_eval.compute_single_sample_results``,
  salesforce/summary-of-a-haystack; Laban et al. 2024, section 4.1): :func:`coverage_score`.
* 6 **opt-in** measure columns ``<judge>.coverage``, the same mean over each evaluator's predicted labels
  (:data:`JUDGES`, named as the notebook's table names them: ``gpt-4o``, ``claude3-opus``,
  ``gemini-1.5-pro``, ``claude3-haiku``, ``gpt3.5`` zero-shot and ``gpt-4o-9fs`` nine-shot).
* unused: ``llm``, ``retriever`` (``full-context`` where the LLM read the whole haystack), ``topic`` (the
  haystack's description), ``topic_file`` (``topic_fn``, or ``topic_id`` where the record has that name
  instead), ``subtopic`` (the query's text), ``insights`` and ``lines`` (how many).

Levels: every subtopic has 5 to 13 summaries, so the input level applies; the system level too, but the
53 systems are not crossed with the subtopics (each is on 1 to 7), so a system's mean is over its own
subtopics (``systems_missing_documents`` lists them); global applies.

Not here, with the reason (:attr:`Judgments.limits`): the haystack documents (``data/topic_*.json`` are not
in the snapshot), so measures that read the source cannot run; references (the subtopic's reference
insights are the checklist the coverage labels use, not a reference summary: they are
:func:`load_summhay_insights`'s rows); annotator columns (one label per (summary, insight), no annotator
ids).

The finer level is :func:`load_summhay_insights` (one row per (summary, insight), 1,419, the judges'
labels beside the human one). The paper's meta-evaluation of the evaluators (``Eval_Benchmarking.ipynb``:
the instance-level Pearson correlation with the human labels over the 1,419 pairs, the accuracy of the
bullet each evaluator links, and the evaluators' bias by summarizer and length) is :func:`judge_table` and
:func:`bias_table`; the tests pin them to the notebook's printed outputs.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_json
from sumeval.errors import InputError

__all__ = ["DATA_FILE", "JUDGES", "LABEL_SCORES", "coverage_score", "judge_column", "load_summhay",
           "load_summhay_insights", "judge_table", "bias_table", "summhay_judgments"]

DATA_FILE = "summhay_eval/eval_benchmark_data.json"
#: evaluator (the notebook's table's name) -> the record's prediction field
JUDGES: dict[str, str] = {
    "gpt-4o": "predictions_prompted_gpt-4o",
    "claude3-haiku": "predictions_prompted_claude3-haiku",
    "claude3-opus": "predictions_prompted_claude3-opus",
    "gemini-1.5-pro": "predictions_prompted_gemini-1.5-pro",
    "gpt3.5": "predictions_prompted_gpt3.5",
    "gpt-4o-9fs": "predictions_9fs_gpt-4o",
}
#: the notebook's ``map_to_score``: the annotation's and the evaluators' coverage labels -> score
LABEL_SCORES: dict[str, float] = {"fully_covered": 1.0, "partially_covered": 0.5, "not_covered": 0.0,
                                  "FULL_COVERAGE": 1.0, "PARTIAL_COVERAGE": 0.5, "NO_COVERAGE": 0.0}
HUMAN_LABELS = ("fully_covered", "partially_covered", "not_covered")
JUDGE_LABELS = ("FULL_COVERAGE", "PARTIAL_COVERAGE", "NO_COVERAGE")
PREFIX = "summary_subtopic_"
FULL_CONTEXT = "full-context"
NO_TEXT = ("SummHay's haystacks (data/topic_*.json) are not in the released snapshot: only the summaries and the "
           "reference insights are here, so measures that read the source cannot run")
NO_REFERENCES = ("SummHay has no reference summaries: the subtopic's reference insights are the checklist the "
                 "coverage labels are given against, one row each in sumeval.datasets.load_summhay_insights()")
NO_ANNOTATORS = "one manual label per (summary, insight), no annotator ids"
#: MANIFEST.md's counts
COUNTS = {"records": 200, "topic_fn": 114, "topic_id": 86, "topics": 3, "subtopics": 29, "lines": 1566,
          "insights": 1419, "queries": 733,
          "llms": {"gpt4-turbo": 31, "claude3-sonnet": 29, "gpt-4o": 24, "claude3-opus": 24, "claude3-haiku": 23,
                   "gemini-1.5-pro": 21, "gemini-1.5-flash": 21, "command-r-plus": 18, "gpt3.5": 9},
          "retrievers": {"vector": 35, "random": 34, "keywords": 34, "oracle": 33, "dwzhu/e5-base-4k": 32,
                         FULL_CONTEXT: 32},
          "coverage": {"fully_covered": 567, "partially_covered": 386, "not_covered": 466}}


def judge_column(judge: str) -> str:
    """``"gpt-4o" -> "gpt-4o.coverage"``: the measure column of an evaluator's predictions."""
    return f"{judge}.coverage"


def coverage_score(labels: Sequence[str]) -> float:
    """The Coverage Score of one summary (Laban et al. 2024, section 4.1; salesforce/summary-of-a-haystack
    ``utils_eval.compute_single_sample_results`` with ``partial_score=0.5``, and ``Eval_Benchmarking.ipynb``'s
    ``map_to_score``): the mean over the subtopic's reference insights of 1 (fully covered), 0.5 (partially)
    and 0 (not covered).

    Args:
        labels: one coverage label per reference insight, in the annotation's words (``fully_covered``,
            ``partially_covered``, ``not_covered``) or the evaluators' (``FULL_COVERAGE``, ...).

    >>> coverage_score(["fully_covered", "partially_covered", "not_covered", "not_covered"])
    0.375
    """
    if not labels:
        raise InputError("a SummHay summary without reference insights has no coverage score")
    return float(np.mean([LABEL_SCORES[label] for label in labels]))


def _system(summkey: str) -> tuple[str, str, str]:
    """``(system, llm, retriever)`` of a summkey (``summary_subtopic_[<retriever>_]<llm>``)."""
    system = summkey[len(PREFIX):]
    retriever, _, llm = system.rpartition("_")
    return system, llm, retriever or FULL_CONTEXT


def _records() -> tuple[Any, list[dict[str, Any]]]:
    """The file's 200 records, each checked: the annotation and the 6 predictions aligned with the insights."""
    path, data = read_json(DATA_FILE)
    if not isinstance(data, list):
        raise InputError(f"{path}: not a JSON list of records; {FIX}")
    expect(path, "the number of records", len(data), COUNTS["records"])
    for i, r in enumerate(data):
        fields = ("topic", "subtopic_id", "subtopic", "summkey", "summary", "reference_insights", "annotation",
                  *JUDGES.values())
        if not isinstance(r, dict) or any(f not in r for f in fields) or not str(r["summkey"]).startswith(PREFIX) \
                or not isinstance(r["summary"], list) or not all(isinstance(x, str) for x in r["summary"]):
            raise InputError(f"{path}: record {i} lacks one of {', '.join(fields)}, or its summkey does not start "
                             f"with {PREFIX!r}; {FIX}")
        ids = [x.get("insight_id") for x in r["reference_insights"]]
        for name, labels, allowed in [("annotation", r["annotation"], HUMAN_LABELS),
                                      *((f, r[f], JUDGE_LABELS) for f in JUDGES.values())]:
            if [x.get("insight_id") for x in labels] != ids or any(x.get("coverage") not in allowed for x in labels):
                raise InputError(f"{path}: record {i} ({r['summkey']}, subtopic {r['subtopic_id']}): {name} is not "
                                 f"one label of {', '.join(allowed)} per reference insight, in the insights' "
                                 f"order; {FIX}")
    return path, data


def load_summhay() -> pd.DataFrame:
    """SummHay's judge-validation set as one frame, one row per summary (200, the file's order; the module
    docstring's columns).

    Raises:
        InputError: a file that is not the release's shape, or a count other than MANIFEST's.
    """
    path, data = _records()
    rows = []
    for r in data:
        system, llm, retriever = _system(r["summkey"])
        rows.append({"doc_id": r["subtopic_id"], "system": system, "summary": "\n".join(r["summary"]),
                     "coverage": coverage_score([x["coverage"] for x in r["annotation"]]),
                     **{judge_column(j): coverage_score([x["coverage"] for x in r[f]]) for j, f in JUDGES.items()},
                     "llm": llm, "retriever": retriever, "topic": r["topic"],
                     "topic_file": r.get("topic_fn", r.get("topic_id")), "subtopic": r["subtopic"],
                     "insights": len(r["reference_insights"]), "lines": len(r["summary"])})
    frame = pd.DataFrame(rows)
    expect(path, "the records with topic_fn / topic_id", (sum("topic_fn" in r for r in data),
           sum("topic_id" in r and "topic_fn" not in r for r in data)), (COUNTS["topic_fn"], COUNTS["topic_id"]))
    expect(path, "the number of topics", frame["topic"].nunique(), COUNTS["topics"])
    expect(path, "the number of subtopics", frame["doc_id"].nunique(), COUNTS["subtopics"])
    expect(path, "the number of summary lines", int(frame["lines"].sum()), COUNTS["lines"])
    expect(path, "the number of reference insights", int(frame["insights"].sum()), COUNTS["insights"])
    expect(path, "the number of insights with a query",
           sum("query" in x for r in data for x in r["reference_insights"]), COUNTS["queries"])
    expect(path, "the LLM counts", dict(Counter(frame["llm"])), COUNTS["llms"])
    expect(path, "the retriever counts", dict(Counter(frame["retriever"])), COUNTS["retrievers"])
    expect(path, "the coverage label counts", dict(Counter(x["coverage"] for r in data for x in r["annotation"])),
           COUNTS["coverage"])
    return frame


def load_summhay_insights() -> pd.DataFrame:
    """SummHay at the (summary, insight) level: one row per reference insight of each summary, 1,419.

    Returns:
        pandas.DataFrame: ``doc_id, system`` (as :func:`load_summhay`), ``summkey``, ``insight_index``
        (0-based, the file's order), ``insight_id, insight_name, insight, query`` ("" where the release has
        none), ``coverage`` (1 / 0.5 / 0), ``candidate_id`` (the annotation's covering line, 0-based, as
        released: a string such as ``"1"``, or ``"no_selection"``), and per evaluator ``<judge>.coverage``
        (1 / 0.5 / 0) and ``<judge>.bullet_id`` (as released: the 1-based line it links, ``"NA"``, or a list
        of lines).
    """
    path, data = _records()
    rows = []
    for r in data:
        system = _system(r["summkey"])[0]
        for k, (ins, ann) in enumerate(zip(r["reference_insights"], r["annotation"])):
            row = {"doc_id": r["subtopic_id"], "system": system, "summkey": r["summkey"], "insight_index": k,
                   "insight_id": ins["insight_id"], "insight_name": ins.get("insight_name", ""),
                   "insight": ins.get("insight", ""), "query": ins.get("query", ""),
                   "coverage": LABEL_SCORES[ann["coverage"]], "candidate_id": ann["candidate_id"]}
            for j, f in JUDGES.items():
                row[judge_column(j)] = LABEL_SCORES[r[f][k]["coverage"]]
                row[f"{j}.bullet_id"] = r[f][k]["bullet_id"]
            rows.append(row)
    out = pd.DataFrame(rows)
    expect(path, "the number of (summary, insight) labels", len(out), COUNTS["insights"])
    expect(path, "the number of (summary, insight) pairs", len(out.drop_duplicates(["summkey", "insight_id"])),
           COUNTS["insights"])
    return out


def judge_table(insights: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's evaluation of the evaluators, as ``Eval_Benchmarking.ipynb`` (section 2, "Results for
    Insight Coverage Prediction") computes it; Laban et al. 2024, section 4.3.

    * ``correlation``: the Pearson correlation of an evaluator's scores with the human scores over every
      (summary, insight) pair (1,419; the notebook's "Instance-Level Corr Coeff"),
      :func:`sumeval.stats.rows.correlation`;
    * ``linking_accuracy``: over the pairs where the annotation names a covering line and the evaluator links
      a single line (an integer ``bullet_id``; ``"NA"`` and lists are left out), the share where the
      evaluator's line is the annotation's (``bullet_id - 1 == candidate_id``: the notebook's
      "Accuracy (linking)").

    Returns:
        pandas.DataFrame, one row per evaluator (:data:`JUDGES` order): ``judge, pairs, correlation,
        linked`` (pairs the linking accuracy is over), ``linking_accuracy``.
    """
    from sumeval.stats.coefficients import correlation

    ins = load_summhay_insights() if insights is None else insights
    human = ins["coverage"].to_numpy(dtype=float)
    rows = []
    for j in JUDGES:
        pred = ins[judge_column(j)].to_numpy(dtype=float)
        hits = [b - 1 == int(c) for b, c in zip(ins[f"{j}.bullet_id"], ins["candidate_id"])
                if type(b) is int and c != "no_selection"]
        rows.append({"judge": j, "pairs": len(ins), "correlation": correlation(pred, human, "pearson"),
                     "linked": len(hits), "linking_accuracy": float(np.mean(hits))})
    return pd.DataFrame(rows)


def words_per_line(summary_lines: Sequence[str]) -> float:
    """``Eval_Benchmarking.ipynb``'s length of a summary (``calc_num_words`` / lines): the lines joined by
    newlines, every run of 2 or more whitespace characters made one space, the spaces counted plus one (a
    single newline is not counted: the notebook's rule, kept), divided by the number of lines."""
    text = re.sub(r"\s{2,}", " ", "\n".join(summary_lines))
    return (text.count(" ") + 1) / len(summary_lines)


BIAS_JUDGES: tuple[str, ...] = ("gpt-4o", "claude3-opus", "gemini-1.5-pro")


def bias_table(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """The evaluators' bias (``Eval_Benchmarking.ipynb``, section 3, "Auto-Eval Bias Analysis"; Laban et al.
    2024, section 4.3), for the zero-shot GPT-4o, Claude 3 Opus and Gemini 1.5 Pro.

    Per summary, delta = the evaluator's coverage score minus the human one (:func:`coverage_score` of each).
    Rows: per summarizing LLM, the mean delta over its summaries; ``Avg. Summarizer Bias``, the mean of those
    means; ``Length <-> Delta (Correlation)`` and ``Length <-> Score (Correlation)``, the Pearson correlation
    over the 200 summaries of :func:`words_per_line` with the delta and with the evaluator's score. Rows are
    in the notebook's order (summarizers by their mean delta over the three evaluators, ascending).

    Args:
        frame: :func:`load_summhay`'s frame (loaded when None); its ``summary`` lines are split on newlines.

    Returns:
        pandas.DataFrame: ``row`` then one column per evaluator of :data:`BIAS_JUDGES`.
    """
    from sumeval.stats.coefficients import correlation

    f = load_summhay() if frame is None else frame
    length = np.array([words_per_line(s.split("\n")) for s in f["summary"]])
    deltas = {j: f[judge_column(j)].to_numpy(dtype=float) - f["coverage"].to_numpy(dtype=float) for j in BIAS_JUDGES}
    llms = list(pd.unique(f["llm"]))
    per = {m: {j: float(deltas[j][(f["llm"] == m).to_numpy()].mean()) for j in BIAS_JUDGES} for m in llms}
    order = sorted(llms, key=lambda m: np.mean(list(per[m].values())))
    rows = [{"row": m, **per[m]} for m in order]
    rows.append({"row": "Avg. Summarizer Bias", **{j: float(np.mean([per[m][j] for m in llms])) for j in BIAS_JUDGES}})
    rows.append({"row": "Length <-> Delta (Correlation)",
                 **{j: correlation(deltas[j], length, "pearson") for j in BIAS_JUDGES}})
    rows.append({"row": "Length <-> Score (Correlation)",
                 **{j: correlation(f[judge_column(j)].to_numpy(dtype=float), length, "pearson") for j in BIAS_JUDGES}})
    return pd.DataFrame(rows)


def summhay_judgments():
    """The built-in data set ``summhay`` (:func:`load_summhay` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    cols = [judge_column(j) for j in JUDGES]
    return make_judgments(load_summhay(), name="summhay", relpaths=[DATA_FILE], humans=("coverage",),
                          measures=cols, opt_in=cols,
                          limits={"text": NO_TEXT, "references": NO_REFERENCES, "annotator columns": NO_ANNOTATORS})
