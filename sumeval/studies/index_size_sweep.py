"""Study ``index_size_sweep``: SERA / GeSERA against the size of the retrieval index (paper 001).

(a) Paper 001 Fig. 2: system-level Pearson, Spearman and Kendall tau-b of every SERA / GeSERA
    variant against REALSumm LitePyramid (one reference, 25 systems) and SummEval expert
    relevance (11 references, 16 systems), for indexes of the first n documents of a seeded
    shuffle of a collection, n from 1,000 to the whole collection.
(b) Paper 001 Table 2: the CNNDM (REALSumm) rows at the best size beside the paper's, with the
    ROUGE rows computed exactly as in :mod:`sumeval.studies.common.baseline_rows`.
(c) The spread of the REALSumm correlations over the seeds of the shuffle at one size (the
    paper's 10,000), for each form of the REALSumm texts: a single seed is one draw.
(d) Paper 001 Fig. 1: the part-of-speech distribution of each collection and of the summaries.
(e) GeSERA's part-of-speech filter: which tagger, which casing, which tags, on which text form,
    on which side (the gap to the paper's GeSERA-10 of 0.880), see :func:`gesera_filters`.

Every function returns a tidy frame; the notebook only draws and shows them. The query sets,
the per-reference SERA scores and the system-level correlations are
:mod:`sumeval.studies.common.sera_scores` (shared with ``annotator_impact``; its conventions hold here:
REALSumm's text forms ``realsumm_text``, retrieved lists cached per index).

Conventions
-----------
* GeSERA on REALSumm: ``gesera`` tags with the reference code's averaged-perceptron tagger on
  lower-cased text (see :mod:`sumeval.retrieval.queries`) and is the variant set beside the
  paper's GeSERA rows; ``gesera-pn`` (proper nouns kept too, what one version of the reference
  code's filter does) has no row of its own in the paper. REALSumm's system summaries are not
  all lower-cased (6 of 25 systems are cased), so a case-sensitive tagging would score casing:
  :func:`gesera_filters` measures tagger x casing x filter x side.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.retrieval.queries import (
    ADJECTIVE_TAGS,
    COMMON_NOUN_TAGS,
    PROPER_NOUN_TAGS,
    VERB_TAGS,
    escape_query,
    gesera_tags,
    pos_tags,
)
from sumeval.retrieval.sera import sera_per_reference
from sumeval.studies.common.sera_scores import (  # noqa: F401
    HUMANS,
    METHODS,
    TEXT_FORMS,
    check_variants,
    paper_label,
    per_reference_scores,
    realsumm_pairs,
    sera_frame,
    summeval_pairs,
    system_correlations,
)
from sumeval.text import strip_sentence_tags

__all__ = ["PARAMETER_RANGES", "POS_GROUPS", "POS_ORDER", "resolve_sizes", "sweep", "rouge_correlations",
           "best_sizes", "table2_beside_paper", "seed_spread", "spread_summary", "pos_distribution", "GESERA_FILTERS",
           "GESERA_TAGGINGS", "gesera_filters", "gesera_filters_summary", "HUMANS", "METHODS", "TEXT_FORMS",
           "check_variants", "paper_label", "per_reference_scores", "realsumm_pairs", "sera_frame", "summeval_pairs",
           "system_correlations"]

#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": ("0..100", "SummEval and REALSumm have 100 documents each; 0 means all"),
                    "sizes": (">=0", "0 means the whole collection"),
                    "spread_size": ">=1", "spread_seeds": ">=0", "gesera_seeds": ">=0", "pos_docs": ">=1"}
#: the paper's part-of-speech groups (Fig. 1): Penn tags -> group
POS_GROUPS = {"Nouns": tuple(sorted(COMMON_NOUN_TAGS | PROPER_NOUN_TAGS)), "Verbs": tuple(sorted(VERB_TAGS)),
              "Adj.": tuple(sorted(ADJECTIVE_TAGS)), "Prep.": ("IN",)}
POS_ORDER = ("Nouns", "Verbs", "Adj.", "Prep.", "Others")


# --------------------------------------------------------------------------------------------
# the sweep
# --------------------------------------------------------------------------------------------
def resolve_sizes(corpus: str, sizes: Iterable[int]) -> tuple[list[int], int]:
    """Index sizes for ``corpus``: 0 (or anything >= N) means the whole collection.

    Args:
        corpus: a collection name of :mod:`sumeval.datasets.corpora`.
        sizes: sizes in documents.

    Returns:
        ``(sizes, N)``: the sizes, duplicates removed, ascending; N the collection's documents.

    Raises:
        InputError: a negative size.
    """
    from sumeval.datasets.corpora import open_corpus

    n_corpus = sum(1 for _ in open_corpus(corpus))
    out = set()
    for s in sizes:
        s = int(s)
        if s < 0:
            raise InputError(f"index size {s} is negative; give a positive size, or 0 for the whole collection")
        out.add(n_corpus if s == 0 or s >= n_corpus else s)
    return sorted(out), n_corpus


def sweep(corpora: Sequence[str], sizes: Sequence[int], variants: Sequence[str], *, seed: int = 0,
          n_docs: int | None = None, realsumm_text: str = "tokenized",
          datasets: Sequence[str] = ("realsumm", "summeval"), progress: bool = False) -> pd.DataFrame:
    """Correlations of every variant for every (collection, size) (paper 001 Sec.4.1, Fig.2).

    Args:
        corpora: collection names.
        sizes: index sizes (0: the whole collection, :func:`resolve_sizes`).
        variants: SERA variants (registered measure names).
        seed: the seed of the shuffle that picks each index's documents.
        n_docs: the first documents of REALSumm and SummEval (None: all).
        realsumm_text: REALSumm's text form (:data:`~sumeval.studies.common.sera_scores.TEXT_FORMS`).
        datasets: ``realsumm`` and / or ``summeval``.
        progress: show progress bars.

    Returns:
        ``corpus, size, n_corpus, whole, seed, index, dataset, human, metric, method, value, n``.
    """
    from sumeval.retrieval.index import build_index

    variants = check_variants(variants)
    pairs = {"realsumm": realsumm_pairs(n_docs, realsumm_text), "summeval": summeval_pairs(n_docs)}
    frames = []
    for corpus in corpora:
        corpus_sizes, n_corpus = resolve_sizes(corpus, sizes)
        for size in corpus_sizes:
            ix = build_index(corpus, size, seed, "sparse", progress=progress)
            for ds in datasets:
                per_ref = per_reference_scores(pairs[ds], ix, variants, progress=progress)
                corr = system_correlations(sera_frame(pairs[ds], per_ref), variants, HUMANS[ds])
                frames.append(corr.assign(corpus=corpus, size=size, n_corpus=n_corpus,
                                          whole=size == n_corpus, seed=seed, index=ix.name, dataset=ds))
    cols = ["corpus", "size", "n_corpus", "whole", "seed", "index", "dataset", "human", "metric", "method",
            "value", "n"]
    return pd.concat(frames, ignore_index=True)[cols]


def rouge_correlations(n_docs: int | None = None, *, progress: bool = False) -> pd.DataFrame:
    """The ROUGE rows at system level, defined as in :mod:`sumeval.studies.common.baseline_rows`.

    REALSumm - its ``TABLE2_ROWS`` (ROUGE-1-R, ROUGE-2-R, ROUGE-L-F, JS-2 (negated)) vs LitePyramid;
    SummEval - ROUGE-1/2/L of its ``TABLE1_ROWS`` (F, no stemmer, mean of the 11 references) vs
    expert relevance.

    Args:
        n_docs: the first documents (None: all).
        progress: show progress bars.

    Returns:
        ``dataset, human, metric, method, value, n``.
    """
    from sumeval.studies.common.baseline_rows import TABLE1_ROWS, score_rows
    from sumeval.studies.common.baseline_tables import table2

    _, t2 = table2(n_docs, n_resamples=0, progress=progress)
    real = t2.rename(columns={"ours": "value"})[["human", "metric", "method", "value", "n"]].assign(dataset="realsumm")
    rows = {k: TABLE1_ROWS[k] for k in ("ROUGE-1", "ROUGE-2", "ROUGE-L")}
    scored = score_rows(summeval_pairs(n_docs), rows, dataset="summeval", progress=progress)
    se = system_correlations(scored, list(rows), "relevance").assign(dataset="summeval")
    return pd.concat([real, se], ignore_index=True)[["dataset", "human", "metric", "method", "value", "n"]]


def best_sizes(sweep_frame: pd.DataFrame, dataset: str = "realsumm", method: str = "pearson") -> pd.DataFrame:
    """Per collection, the size with the highest mean correlation over the variants.

    Args:
        sweep_frame: :func:`sweep`'s frame.
        dataset, method: the cells averaged.

    Returns:
        ``corpus, size, mean_value``.
    """
    sub = sweep_frame[(sweep_frame["dataset"] == dataset) & (sweep_frame["method"] == method)]
    means = sub.groupby(["corpus", "size"])["value"].mean().rename("mean_value").reset_index()
    return means.loc[means.groupby("corpus")["mean_value"].idxmax()].reset_index(drop=True)


def table2_beside_paper(sweep_frame: pd.DataFrame, rouge: pd.DataFrame, corpus: str, size: int) -> pd.DataFrame:
    """Paper 001 Table 2 (CNNDM) beside ours at one (collection, size).

    Args:
        sweep_frame: :func:`sweep`'s frame.
        rouge: :func:`rouge_correlations`' frame (its rows do not depend on the index).
        corpus, size: the index.

    Returns:
        ``metric, method, ours, paper, diff, corpus, size``.
    """
    from sumeval import published
    from sumeval.display_names import paper_row_label

    sub = sweep_frame[(sweep_frame["dataset"] == "realsumm") & (sweep_frame["corpus"] == corpus)
                      & (sweep_frame["size"] == size)]
    ours = pd.concat([sub.assign(metric=sub["metric"].map(paper_label))[["metric", "method", "value"]],
                      rouge[rouge["dataset"] == "realsumm"][["metric", "method", "value"]]], ignore_index=True)
    paper = published.paper001_table2().set_index(["metric", "method"])["value"]
    out = ours.rename(columns={"value": "ours"})
    out["paper"] = [paper.get((paper_row_label(m), meth), np.nan) for m, meth in zip(out["metric"], out["method"])]
    out["diff"] = out["ours"] - out["paper"]
    return out.assign(corpus=corpus, size=size)


def seed_spread(corpus: "str | Sequence[str]", size: int, seeds: Sequence[int], variants: Sequence[str], *,
                n_docs: int | None = None, text_forms: Sequence[str] = TEXT_FORMS,
                progress: bool = False) -> pd.DataFrame:
    """REALSumm system-level correlations for each seed of the shuffle and each REALSumm text form,
    at one size of one or several collections.

    Args:
        corpus: a collection name or a list of names (each its own draw).
        size: the index size.
        seeds: seeds of the shuffle.
        variants: SERA variants.
        n_docs: the first REALSumm documents (None: all).
        text_forms: REALSumm text forms.
        progress: show progress bars.

    Returns:
        ``corpus, size, seed, text, metric, method, value, n``.

    Raises:
        InputError: no collection.
    """
    from sumeval.retrieval.index import build_index

    variants = check_variants(variants)
    corpora = [corpus] if isinstance(corpus, str) else list(dict.fromkeys(corpus))
    if not corpora:
        raise InputError("seed_spread needs at least one collection, e.g. ['wikipedia']")
    frames = []
    forms = {t: realsumm_pairs(n_docs, t) for t in text_forms}
    for c in corpora:
        for s in seeds:
            ix = build_index(c, size, int(s), "sparse", progress=progress)
            for t, pairs in forms.items():
                per_ref = per_reference_scores(pairs, ix, variants, progress=progress)
                corr = system_correlations(sera_frame(pairs, per_ref), variants, "litepyramid")
                frames.append(corr.assign(corpus=c, size=ix.spec.n, seed=int(s), text=t))
    cols = ["corpus", "size", "seed", "text", "metric", "method", "value", "n"]
    return pd.concat(frames, ignore_index=True)[cols]


def spread_summary(spread: pd.DataFrame) -> pd.DataFrame:
    """Per (collection, text form, variant, method) of :func:`seed_spread`'s frame: ``mean, std,
    min, max, n_seeds`` and the paper's value (each variant beside its own row of Table 2).
    """
    from sumeval import published

    g = spread.groupby(["corpus", "text", "metric", "method"], sort=False)["value"]
    out = g.agg(["mean", "std", "min", "max", "count"]).rename(columns={"count": "n_seeds"}).reset_index()
    paper = published.paper001_table2().set_index(["metric", "method"])["value"]
    # each variant beside its own row (gesera-pn-k has none in the paper)
    out["paper"] = [paper.get((paper_label(m), meth), np.nan) for m, meth in zip(out["metric"], out["method"])]
    return out


# --------------------------------------------------------------------------------------------
# part-of-speech distribution (Fig. 1)
# --------------------------------------------------------------------------------------------
def _pos_counts(texts: Sequence[str]) -> dict[str, int]:
    from sumeval.retrieval.queries import spacy_pipeline

    nlp = spacy_pipeline(("ner", "lemmatizer", "parser"))
    group_of = {t: g for g, tags in POS_GROUPS.items() for t in tags}
    counts = dict.fromkeys(POS_ORDER, 0)
    for doc in nlp.pipe([strip_sentence_tags(t) for t in texts], batch_size=32):
        for tok in doc:
            if tok.is_punct or tok.is_space:
                continue
            counts[group_of.get(tok.tag_, "Others")] += 1
    return counts


def pos_distribution(corpora: Sequence[str], n_sample: int = 300, *, max_chars: int = 2000, seed: int = 0,
                     n_docs: int | None = None) -> pd.DataFrame:
    """Percentages of nouns, verbs, adjectives, prepositions (IN) and other tags (paper 001 Sec.2.2,
    Fig.1), spaCy ``en_core_web_sm`` Penn tags, punctuation and spaces left out.

    Args:
        corpora: collections; ``n_sample`` documents of each are tagged (the first ``n_sample`` of
            its seeded shuffle, each cut at ``max_chars`` characters).
        n_sample, max_chars, seed: as said.
        n_docs: the first documents of REALSumm and SummEval, whose summaries and references are
            tagged too (None: all).

    Returns:
        ``source, kind, category, tokens, percent``.
    """
    from sumeval.datasets.corpora import open_corpus
    from sumeval.retrieval.index import shuffle_order

    sources: list[tuple[str, str, list[str]]] = []
    for c in corpora:
        docs = open_corpus(c).documents()
        pick = shuffle_order(len(docs), seed)[: min(n_sample, len(docs))]
        sources.append((c, "collection", [docs[i].text[:max_chars] for i in pick]))
    rs = realsumm_pairs(n_docs)
    se = summeval_pairs(n_docs)
    sources += [("REALSumm summaries", "summaries", list(rs["summary"])),
                ("REALSumm references", "references", list(dict.fromkeys(r[0] for r in rs["references"]))),
                ("SummEval summaries", "summaries", list(se["summary"])),
                ("SummEval references", "references",
                 list(dict.fromkeys(t for refs in se["references"] for t in refs)))]
    rows = []
    for name, kind, texts in sources:
        counts = _pos_counts(texts)
        total = sum(counts.values()) or 1
        rows += [(name, kind, cat, counts[cat], 100.0 * counts[cat] / total) for cat in POS_ORDER]
    return pd.DataFrame(rows, columns=["source", "kind", "category", "tokens", "percent"])


# --------------------------------------------------------------------------------------------
# GeSERA: which part-of-speech filter, on which text (the gap to the paper's GeSERA-10)
# --------------------------------------------------------------------------------------------
#: GeSERA query filters compared: name -> Penn tags kept (None: the raw query); the second is
#: GeSERA's filter of paper 001 Sec.2.2 (:func:`sumeval.retrieval.queries.gesera_tags`)
GESERA_FILTERS: dict[str, frozenset | None] = {
    "raw (SERA)": None,
    "NN NNS + VB* + JJ* (gesera)": gesera_tags(),
    "+ NNP NNPS (gesera-pn)": gesera_tags(keep_proper=True),
    "+ NNP NNPS, no VBP (reference repo 0a297cd)": gesera_tags(keep_proper=True) - {"VBP"},
    "nouns only (NN*)": COMMON_NOUN_TAGS | PROPER_NOUN_TAGS,
}


#: taggings compared: name -> (tagger, lower-case first); the first is GeSERA's (``gesera``)
GESERA_TAGGINGS: dict[str, tuple[str, bool]] = {
    "perceptron, lower-cased": ("perceptron", True),
    "perceptron, case as given": ("perceptron", False),
    "spaCy, case as given": ("spacy", False),
}
#: the filters tried with every tagging (the others only with GeSERA's own tagging)
_FILTERS_EVERY_TAGGING = ("NN NNS + VB* + JJ* (gesera)", "+ NNP NNPS (gesera-pn)")


def gesera_filters(corpus: str, size: int, seeds: Sequence[int], *, k: int = 10, n_docs: int | None = None,
                   filters: dict[str, frozenset | None] | None = None,
                   taggings: dict[str, tuple[str, bool]] | None = None, progress: bool = False) -> pd.DataFrame:
    """SERA-k on REALSumm with the query filtered by part of speech: where the gap to the paper's
    GeSERA-10 comes from (paper 001 Sec.2.2).

    For each tagging of :data:`GESERA_TAGGINGS` (tagger and casing), each filter of
    :data:`GESERA_FILTERS` (all of them with GeSERA's own tagging, GeSERA's and the proper-noun
    filters with the others), each REALSumm text form and each side of the filtering
    (``filtered``: candidate and reference, as the reference code; ``candidate-only``: the
    reference's query left raw), over the seeds of the index shuffle.

    Args:
        corpus, size, seeds: the indexes.
        k: the cut-off.
        n_docs: the first REALSumm documents (None: all).
        filters, taggings: override :data:`GESERA_FILTERS`, :data:`GESERA_TAGGINGS`.
        progress: show progress bars.

    Returns:
        ``seed, tagger, filter, text, reference_side, method, value`` (system-level correlation
        with LitePyramid, 25 systems; ``tagger`` is ``"none"`` for the raw query).
    """
    from sumeval.retrieval.index import build_index

    filters = dict(filters or GESERA_FILTERS)
    taggings = dict(taggings or GESERA_TAGGINGS)
    first_tagging = next(iter(taggings))
    forms = {t: realsumm_pairs(n_docs, t) for t in TEXT_FORMS}
    texts = list(dict.fromkeys(t for p in forms.values() for t in list(p["summary"]) + [r[0] for r in p["references"]]))
    raw_queries = [escape_query(strip_sentence_tags(t)) for t in texts]
    queries: dict[tuple[str, str], list[str]] = {}
    for tagging, (tagger, lower) in taggings.items():
        tags = pos_tags(texts, tagger, lowercase=lower, progress=progress)
        for name, keep in filters.items():
            if keep is None or (tagging != first_tagging and name not in _FILTERS_EVERY_TAGGING):
                continue
            queries[(tagging, name)] = [escape_query(" ".join(w for w, tag in pairs if tag in keep)) for pairs in tags]
    rows = []
    for seed in seeds:
        ix = build_index(corpus, size, int(seed), "sparse", progress=progress)
        raw = dict(zip(texts, ix.search(raw_queries, k)))
        runs = [("none", name, raw, True) for name, keep in filters.items() if keep is None]
        runs += [(tagging, name, dict(zip(texts, ix.search(q, k))), False) for (tagging, name), q in queries.items()]
        for tagging, name, got, is_raw in runs:
            for form, pairs in forms.items():
                for side in (("filtered",) if is_raw else ("filtered", "candidate-only")):
                    ref_lists = got if side == "filtered" else raw
                    scores = [sera_per_reference(got[s], [ref_lists[r[0]]], k)[0]
                              for s, r in zip(pairs["summary"], pairs["references"])]
                    corr = system_correlations(pairs.assign(m=scores), ["m"], "litepyramid")
                    for _, c in corr.iterrows():
                        rows.append((int(seed), tagging, name, form, side, c["method"], c["value"]))
    return pd.DataFrame(rows, columns=["seed", "tagger", "filter", "text", "reference_side", "method", "value"])


def gesera_filters_summary(frame: pd.DataFrame, method: str = "pearson") -> pd.DataFrame:
    """Per (tagger, filter, text, reference side) of :func:`gesera_filters`' frame, at ``method``:
    ``mean, std, min, max`` over seeds, and the first seed's value.
    """
    keys = ["tagger", "filter", "text", "reference_side"]
    sub = frame[frame["method"] == method]
    g = sub.groupby(keys, sort=False)["value"]
    out = g.agg(["mean", "std", "min", "max"]).reset_index()
    first = sub[sub["seed"] == sub["seed"].min()].set_index(keys)["value"]
    out["first_seed"] = [first.get(tuple(r)) for r in out[keys].to_numpy()]
    return out
