"""SERA scores of the REALSumm and SummEval summaries against each reference, and their
system-level correlations: what the paper-001 studies ``index_size_sweep`` and
``annotator_impact`` share.

Conventions
-----------
* SERA of a summary with M references is the mean over the references of the one-reference
  SERA (paper 001 Eq.1-2, :func:`sumeval.retrieval.sera.sera_per_reference`), so
  :func:`per_reference_scores` computes an (n, M) array once and any set of references is a mean
  over its columns (:func:`sera_frame`; the annotator study uses this).
* Retrieved lists go through :func:`sumeval.retrieval.scorers.retrieve_lists` (cached per index,
  reformulation and depth 10), so SERA-5 and SERA-10 share them and a second study reads them
  back.
* REALSumm texts (``text``): ``"tokenized"`` - summaries and reference as REALSumm released them
  (PTB-tokenized, lower-cased, ``<t>`` sentences joined by a space), the only form in which
  REALSumm distributes the system summaries, hence the form the paper's scripts read;
  ``"detok-references"`` - the same summaries against the untokenized, true-cased reference
  (``reference_detok``), a diagnostic.
* Correlations are at the system level (paper 001 Sec.3.4: Pearson, Spearman, Kendall tau-b of
  the systems' mean scores).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = ["HUMANS", "METHODS", "TEXT_FORMS", "paper_label", "check_variants", "realsumm_pairs", "summeval_pairs",
           "per_reference_scores", "sera_frame", "system_correlations"]

#: the human score each data set is correlated with
HUMANS = {"realsumm": "litepyramid", "summeval": "relevance"}
#: the paper's correlation methods (system level)
METHODS = ("pearson", "spearman", "kendall_b")
#: the forms of the REALSumm texts
TEXT_FORMS = ("tokenized", "detok-references")


def paper_label(measure: str) -> str:
    """``"gesera-dis-10" -> "GeSERA-DIS-10"``, ``"sera-kw-10" -> "SERA-KW-10"`` (paper 001 names)."""
    return measure.upper().replace("GESERA", "GeSERA")


def check_variants(variants: Sequence[str]) -> list[str]:
    """The variants, each a registered SERA measure name (``sera-10``, ``gesera-dis-5`` ...)."""
    from sumeval.retrieval.variants import MEASURES

    bad = [v for v in variants if v not in MEASURES]
    if bad:
        raise InputError(f"unknown SERA variant(s) {bad}; choose from {', '.join(sorted(MEASURES))}")
    if not variants:
        raise InputError("variants is empty; name at least one SERA variant, e.g. ['sera-10']")
    return list(dict.fromkeys(variants))


# --------------------------------------------------------------------------------------------
# query sets
# --------------------------------------------------------------------------------------------
def realsumm_pairs(n_docs: int | None = None, text: str = "tokenized") -> pd.DataFrame:
    """REALSumm as query pairs (2,500 rows when whole).

    Args:
        n_docs: the first that many documents (None: all 100).
        text: ``"tokenized"`` (as released) or ``"detok-references"`` (the untokenized reference).

    Returns:
        ``doc_id, system, summary, references (list of 1), litepyramid``.

    Raises:
        InputError: an unknown text form.
    """
    from sumeval.datasets.realsumm import load_realsumm, load_realsumm_documents

    if text not in TEXT_FORMS:
        raise InputError(f"realsumm_text must be one of {TEXT_FORMS}, got {text!r}")
    pairs = load_realsumm(n_docs=n_docs).rename(columns={"litepyramid_recall": "litepyramid"})
    if text == "detok-references":
        detok = load_realsumm_documents(n_docs=n_docs).set_index("doc_id")["reference_detok"]
        pairs["references"] = pairs["doc_id"].map(lambda d: [detok[d]])
    return pairs[["doc_id", "system", "summary", "references", "litepyramid"]].reset_index(drop=True)


def summeval_pairs(n_docs: int | None = None) -> pd.DataFrame:
    """SummEval as query pairs: ``doc_id, system, summary, references (list of 11), relevance``
    (1,600 rows when whole; ``n_docs``: the first that many documents, None for all).
    """
    from sumeval.datasets.summeval import load_summeval

    pairs = load_summeval(n_docs=n_docs)
    return pairs[["doc_id", "system", "summary", "references", "relevance"]].reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# SERA per reference, and correlations
# --------------------------------------------------------------------------------------------
def per_reference_scores(pairs: pd.DataFrame, index: Any, variants: Sequence[str], *,
                         progress: bool = False) -> dict[str, np.ndarray]:
    """One-reference SERA scores of every (summary, reference) (:func:`sumeval.retrieval.sera.sera_per_reference`).

    Args:
        pairs: rows with ``summary`` and ``references`` (lists; M = the longest, shorter rows
            padded with NaN).
        index: a :class:`sumeval.retrieval.index.Index`.
        variants: registered SERA measure names (``sera-10``, ``gesera-dis-5`` ...).
        progress: show progress bars.

    Returns:
        variant -> array (n, M). The score of a row against a set of its references is the mean
        over those columns (:func:`sera_frame`).
    """
    from sumeval.retrieval.scorers import retrieve_lists
    from sumeval.retrieval.sera import sera_per_reference
    from sumeval.retrieval.variants import MEASURES

    variants = check_variants(variants)
    summaries = list(pairs["summary"])
    refs = [list(r) for r in pairs["references"]]
    m = max(len(r) for r in refs)
    texts = list(dict.fromkeys(summaries + [t for rs in refs for t in rs]))
    by_reform: dict[str, dict[str, tuple[list, bool]]] = {}
    for reform in dict.fromkeys(MEASURES[v][2] for v in variants):
        lists, empty = retrieve_lists(index, texts, reform, 10, progress=progress)
        by_reform[reform] = {t: (ls, e) for t, ls, e in zip(texts, lists, empty)}
    out: dict[str, np.ndarray] = {}
    for v in variants:
        k, dis, reform = MEASURES[v]
        got = by_reform[reform]
        arr = np.full((len(pairs), m), np.nan)
        for i, (s, rs) in enumerate(zip(summaries, refs)):
            arr[i, : len(rs)] = sera_per_reference(got[s][0], [got[r][0] for r in rs], k, dis=dis)
        out[v] = arr
    return out


def sera_frame(pairs: pd.DataFrame, per_ref: dict[str, np.ndarray],
               columns: Sequence[int] | None = None) -> pd.DataFrame:
    """``pairs`` plus one column per variant: the mean over the reference ``columns`` (None: all).

    Args:
        pairs: the pairs scored by :func:`per_reference_scores`.
        per_ref: its result, variant -> (n, M).
        columns: the references to average (indices into M).

    Returns:
        A copy of ``pairs`` with the variant columns.
    """
    out = pairs.copy()
    for v, arr in per_ref.items():
        sub = arr if columns is None else arr[:, list(columns)]
        out[v] = np.nanmean(sub, axis=1)
    return out


def system_correlations(scored: pd.DataFrame, metrics: Sequence[str], human: str,
                        methods: Sequence[str] = METHODS) -> pd.DataFrame:
    """System-level correlations (paper 001 Sec.3.4: the mean over documents per system), no interval.

    Args:
        scored: a frame with ``system`` and the metric and human columns.
        metrics: metric columns.
        human: the human column.
        methods: correlation methods (default Pearson, Spearman, Kendall tau-b).

    Returns:
        ``metric, human, method, value, n`` (n = systems).
    """
    from sumeval import stats

    res = stats.correlate(scored, list(metrics), [human], level="system", methods=tuple(methods), n_resamples=0)
    return res[["metric", "human", "method", "value", "n"]]
