"""Study ``index_size_sweep``: SERA / GeSERA against the size of the retrieval index (paper 001).

(a) Paper 001 Fig. 2: system-level Pearson, Spearman and Kendall tau-b of every SERA / GeSERA
    variant against REALSumm LitePyramid (one reference, 25 systems) and SummEval expert
    relevance (11 references, 16 systems), for indexes of the first n documents of a seeded
    shuffle of a collection, n from 1,000 to the whole collection.
(b) Paper 001 Table 2: the CNNDM (REALSumm) rows at the best size beside the paper's, with the
    ROUGE rows computed exactly as in :mod:`sumeval.studies.metric_correlations`.
(c) The spread of the REALSumm correlations over the seeds of the shuffle at one size (the
    paper's 10,000), for each form of the REALSumm texts: a single seed is one draw.
(d) Paper 001 Fig. 1: the part-of-speech distribution of each collection and of the summaries.
(e) GeSERA's part-of-speech filter: which tagger, which casing, which tags, on which text form,
    on which side (the gap to the paper's GeSERA-10 of 0.880), see :func:`gesera_filters`.

Every function returns a tidy frame; the notebook only draws and shows them.

Conventions
-----------
* SERA of a summary with M references is the mean over the references of the one-reference
  SERA (paper 001 Eq. 1-2), so :func:`per_reference_scores` computes an (n, M) array once and
  any set of references is a mean over its columns (the annotator study uses this).
* Retrieved lists go through :func:`sumeval.retrieval.scorers.retrieve_lists` (cached per index,
  reformulation and depth 10), so SERA-5 and SERA-10 share them and a second study reads them
  back.
* REALSumm texts (``realsumm_text``): ``"tokenized"`` - summaries and reference as REALSumm
  released them (PTB-tokenized, lower-cased, ``<t>`` sentences joined by a space), the only form
  in which REALSumm distributes the system summaries, hence the form the paper's scripts read;
  ``"detok-references"`` - the same summaries against the untokenized, true-cased reference
  (``reference_detok``), a diagnostic.
* GeSERA on REALSumm: ``gesera`` tags with the reference code's averaged-perceptron tagger on
  lower-cased text (see :mod:`sumeval.retrieval.queries`) and is the variant set beside the
  paper's GeSERA rows; ``gesera-pn`` (proper nouns kept too, what one version of the reference
  code's filter does) has no row of its own in the paper. REALSumm's system summaries are not
  all lower-cased (6 of 25 systems are cased), so a case-sensitive tagging would score casing:
  :func:`gesera_filters` measures tagger x casing x filter x side.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

HUMANS = {"realsumm": "litepyramid", "summeval": "relevance"}
METHODS = ("pearson", "spearman", "kendall_b")
TEXT_FORMS = ("tokenized", "detok-references")
#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": ("0..100", "SummEval and REALSumm have 100 documents each; 0 means all"), "sizes": (">=0", "0 means the whole collection"),
                    "spread_size": ">=1", "spread_seeds": ">=0", "gesera_seeds": ">=0", "pos_docs": ">=1"}
#: the paper's part-of-speech groups (Fig. 1): Penn tags -> group
POS_GROUPS = {"Nouns": ("NN", "NNS", "NNP", "NNPS"), "Verbs": ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ"),
              "Adj.": ("JJ", "JJR", "JJS"), "Prep.": ("IN",)}
POS_ORDER = ("Nouns", "Verbs", "Adj.", "Prep.", "Others")


def paper_label(measure: str) -> str:
    """``"gesera-dis-10" -> "GeSERA-DIS-10"``, ``"sera-kw-10" -> "SERA-KW-10"`` (paper 001 names)."""
    return measure.upper().replace("GESERA", "GeSERA")


def paper_row(measure: str) -> str:
    """The paper-001 row a variant is compared with: its own label (``gesera-pn-k`` has none
    in the paper)."""
    return paper_label(measure)


def check_variants(variants: Sequence[str]) -> list[str]:
    """The variants, each a registered SERA measure name (``sera-10``, ``gesera-dis-5`` ...)."""
    from sumeval.retrieval.scorers import MEASURES

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
    """REALSumm as ``doc_id, system, summary, references (list of 1), litepyramid`` (2,500 rows).

    text : ``"tokenized"`` (as released) or ``"detok-references"`` (the untokenized reference)
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
    """SummEval as ``doc_id, system, summary, references (list of 11), relevance`` (1,600 rows)."""
    from sumeval.datasets.summeval import load_summeval

    pairs = load_summeval(n_docs=n_docs)
    return pairs[["doc_id", "system", "summary", "references", "relevance"]].reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# SERA per reference
# --------------------------------------------------------------------------------------------
def _pair_scores(cand: list, refs: list[list], k: int, dis: bool) -> list[float]:
    """One-reference SERA-k (or SERA-DIS-k) of a candidate list against each reference list
    (the formulas of :mod:`sumeval.retrieval.sera`, without its checks)."""
    c = cand[:k]
    if not dis:
        cs = set(c)
        return [len(cs.intersection(r[:k])) / k for r in refs]
    d_max = k / np.log(2)
    rank = {doc: j for j, doc in enumerate(c)}
    out = []
    for r in refs:
        d = 0.0
        for l_, doc in enumerate(r[:k]):
            j = rank.get(doc)
            if j is not None:
                d += 1.0 / np.log(abs(j - l_) + 2)
        out.append(d / d_max)
    return out


def per_reference_scores(pairs: pd.DataFrame, index: Any, variants: Sequence[str], *,
                         progress: bool = False) -> dict[str, np.ndarray]:
    """One-reference SERA scores of every (summary, reference): variant -> array (n, M).

    pairs : rows with ``summary`` and ``references`` (lists; M = the longest, shorter rows
        padded with NaN); index : a :class:`sumeval.retrieval.index.Index`.
    The score of a row against a set of its references is the mean over those columns.
    """
    from sumeval.retrieval.scorers import MEASURES, retrieve_lists

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
            arr[i, : len(rs)] = _pair_scores(got[s][0], [got[r][0] for r in rs], k, dis)
        out[v] = arr
    return out


def sera_frame(pairs: pd.DataFrame, per_ref: dict[str, np.ndarray],
               columns: Sequence[int] | None = None) -> pd.DataFrame:
    """``pairs`` plus one column per variant: the mean over the reference ``columns`` (all)."""
    out = pairs.copy()
    for v, arr in per_ref.items():
        sub = arr if columns is None else arr[:, list(columns)]
        out[v] = np.nanmean(sub, axis=1)
    return out


def system_correlations(scored: pd.DataFrame, metrics: Sequence[str], human: str,
                        methods: Sequence[str] = METHODS) -> pd.DataFrame:
    """System-level correlations (mean over documents per system), no interval:
    ``metric, human, method, value, n`` (n = systems)."""
    from sumeval import stats

    res = stats.correlate(scored, list(metrics), [human], level="system", methods=tuple(methods), n_boot=0)
    return res[["metric", "human", "method", "value", "n"]]


# --------------------------------------------------------------------------------------------
# the sweep
# --------------------------------------------------------------------------------------------
def resolve_sizes(corpus: str, sizes: Iterable[int]) -> tuple[list[int], int]:
    """Sizes for ``corpus``: 0 (or anything >= N) means the whole collection (N documents);
    duplicates removed, ascending. Returns (sizes, N)."""
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
          n_docs: int | None = None, realsumm_text: str = "tokenized", datasets: Sequence[str] = ("realsumm", "summeval"),
          progress: bool = False) -> pd.DataFrame:
    """Correlations of every variant for every (collection, size): columns ``corpus, size,
    n_corpus, whole, seed, index, dataset, human, metric, method, value, n``."""
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
    """The ROUGE rows at system level, defined as in :mod:`sumeval.studies.metric_correlations`:
    REALSumm - its ``TABLE2_ROWS`` (ROUGE-1-R, ROUGE-2-R, ROUGE-L-F, JS-2) vs LitePyramid;
    SummEval - ROUGE-1/2/L of its ``TABLE1_ROWS`` (F, no stemmer, mean of the 11 references) vs
    expert relevance. Columns ``dataset, human, metric, method, value, n``."""
    from sumeval.studies import metric_correlations as mc

    _, t2 = mc.table2(n_docs, n_boot=0, progress=progress)
    real = t2.rename(columns={"ours": "value"})[["human", "metric", "method", "value", "n"]].assign(dataset="realsumm")
    rows = {k: mc.TABLE1_ROWS[k] for k in ("ROUGE-1", "ROUGE-2", "ROUGE-L")}
    scored = mc.score_rows(summeval_pairs(n_docs), rows, dataset="summeval", progress=progress)
    se = system_correlations(scored, list(rows), "relevance").assign(dataset="summeval")
    return pd.concat([real, se], ignore_index=True)[["dataset", "human", "metric", "method", "value", "n"]]


def best_sizes(sweep_frame: pd.DataFrame, dataset: str = "realsumm", method: str = "pearson") -> pd.DataFrame:
    """Per collection, the size with the highest mean correlation over the variants:
    ``corpus, size, mean_value``."""
    sub = sweep_frame[(sweep_frame["dataset"] == dataset) & (sweep_frame["method"] == method)]
    means = sub.groupby(["corpus", "size"])["value"].mean().rename("mean_value").reset_index()
    return means.loc[means.groupby("corpus")["mean_value"].idxmax()].reset_index(drop=True)


def table2_beside_paper(sweep_frame: pd.DataFrame, rouge: pd.DataFrame, corpus: str, size: int) -> pd.DataFrame:
    """Paper 001 Table 2 (CNNDM) beside ours at one (collection, size): ``metric, method, ours,
    paper, diff, corpus, size``; ROUGE / JS-2 rows do not depend on the index."""
    from sumeval import published

    sub = sweep_frame[(sweep_frame["dataset"] == "realsumm") & (sweep_frame["corpus"] == corpus)
                      & (sweep_frame["size"] == size)]
    ours = pd.concat([sub.assign(metric=sub["metric"].map(paper_label))[["metric", "method", "value"]],
                      rouge[rouge["dataset"] == "realsumm"][["metric", "method", "value"]]], ignore_index=True)
    paper = published.paper001_table2().set_index(["metric", "method"])["value"]
    out = ours.rename(columns={"value": "ours"})
    out["paper"] = [paper.get((m, meth), np.nan) for m, meth in zip(out["metric"], out["method"])]
    out["diff"] = out["ours"] - out["paper"]
    return out.assign(corpus=corpus, size=size)


def seed_spread(corpus: "str | Sequence[str]", size: int, seeds: Sequence[int], variants: Sequence[str], *,
                n_docs: int | None = None, text_forms: Sequence[str] = TEXT_FORMS,
                progress: bool = False) -> pd.DataFrame:
    """REALSumm system-level correlations for each seed of the shuffle and each REALSumm text
    form, at one size of one or several collections (``corpus``: a name or a list of names):
    ``corpus, size, seed, text, metric, method, value, n``."""
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
    """Per (collection, text form, variant, method): ``mean, std, min, max, n_seeds`` and the
    paper's value."""
    from sumeval import published

    g = spread.groupby(["corpus", "text", "metric", "method"], sort=False)["value"]
    out = g.agg(["mean", "std", "min", "max", "count"]).rename(columns={"count": "n_seeds"}).reset_index()
    paper = published.paper001_table2().set_index(["metric", "method"])["value"]
    out["paper"] = [paper.get((paper_row(m), meth), np.nan) for m, meth in zip(out["metric"], out["method"])]
    return out


# --------------------------------------------------------------------------------------------
# part-of-speech distribution (Fig. 1)
# --------------------------------------------------------------------------------------------
def _pos_counts(texts: Sequence[str]) -> dict[str, int]:
    from sumeval.retrieval.queries import _spacy, strip_sentence_tags

    nlp = _spacy(("ner", "lemmatizer", "parser"))
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
    """Percentages of nouns, verbs, adjectives, prepositions (IN) and other tags (paper 001
    Fig. 1), spaCy ``en_core_web_sm`` Penn tags, punctuation and spaces left out.

    Sources: ``n_sample`` documents of each collection (the first ``n_sample`` of its seeded
    shuffle, each cut at ``max_chars`` characters), and the REALSumm and SummEval summaries and
    references. Columns ``source, kind, category, tokens, percent``.
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
_NOUNS, _PROPER = frozenset({"NN", "NNS"}), frozenset({"NNP", "NNPS"})
_VERBS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
_ADJ = frozenset({"JJ", "JJR", "JJS"})
#: GeSERA query filters compared: name -> Penn tags kept (None: the raw query)
GESERA_FILTERS: dict[str, frozenset | None] = {
    "raw (SERA)": None,
    "NN NNS + VB* + JJ* (gesera, SPEC)": _NOUNS | _VERBS | _ADJ,
    "+ NNP NNPS (gesera-pn)": _NOUNS | _PROPER | _VERBS | _ADJ,
    "+ NNP NNPS, no VBP (reference repo 0a297cd)": _NOUNS | _PROPER | (_VERBS - {"VBP"}) | _ADJ,
    "nouns only (NN*)": _NOUNS | _PROPER,
}


#: taggings compared: name -> (tagger, lower-case first); the first is GeSERA's (``gesera``)
GESERA_TAGGINGS: dict[str, tuple[str, bool]] = {
    "perceptron, lower-cased": ("perceptron", True),
    "perceptron, case as given": ("perceptron", False),
    "spaCy, case as given": ("spacy", False),
}
#: the filters tried with every tagging (the others only with GeSERA's own tagging)
_FILTERS_EVERY_TAGGING = ("NN NNS + VB* + JJ* (gesera, SPEC)", "+ NNP NNPS (gesera-pn)")


def gesera_filters(corpus: str, size: int, seeds: Sequence[int], *, k: int = 10, n_docs: int | None = None,
                   filters: dict[str, frozenset | None] | None = None,
                   taggings: dict[str, tuple[str, bool]] | None = None, progress: bool = False) -> pd.DataFrame:
    """SERA-k on REALSumm with the query filtered by part of speech, for each tagging of
    :data:`GESERA_TAGGINGS` (tagger and casing), each filter of :data:`GESERA_FILTERS` (all of
    them with GeSERA's own tagging, the SPEC and proper-noun filters with the others), each
    REALSumm text form and each side of the filtering (``filtered``: candidate and reference,
    as the reference code; ``candidate-only``: the reference's query left raw), over the seeds
    of the index shuffle.

    Columns ``seed, tagger, filter, text, reference_side, method, value`` (system-level
    correlation with LitePyramid, 25 systems; ``tagger`` is ``"none"`` for the raw query).
    """
    from sumeval.retrieval.index import build_index
    from sumeval.retrieval.queries import escape_query, pos_tags, strip_sentence_tags

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
                    scores = [_pair_scores(got[s], [ref_lists[r[0]]], k, False)[0]
                              for s, r in zip(pairs["summary"], pairs["references"])]
                    corr = system_correlations(pairs.assign(m=scores), ["m"], "litepyramid")
                    for _, c in corr.iterrows():
                        rows.append((int(seed), tagging, name, form, side, c["method"], c["value"]))
    return pd.DataFrame(rows, columns=["seed", "tagger", "filter", "text", "reference_side", "method", "value"])


def gesera_filters_summary(frame: pd.DataFrame, method: str = "pearson") -> pd.DataFrame:
    """Per (tagger, filter, text, reference side): ``mean, std, min, max`` over seeds, and the
    first seed's value."""
    keys = ["tagger", "filter", "text", "reference_side"]
    sub = frame[frame["method"] == method]
    g = sub.groupby(keys, sort=False)["value"]
    out = g.agg(["mean", "std", "min", "max"]).reset_index()
    first = sub[sub["seed"] == sub["seed"].min()].set_index(keys)["value"]
    out["first_seed"] = [first.get(tuple(r)) for r in out[keys].to_numpy()]
    return out
