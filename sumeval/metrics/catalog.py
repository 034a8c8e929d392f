"""sumeval's built-in measures: names, where their scorers live and their default options.

A table, nothing more: no scorer module is imported here (each is imported when its measure is
asked for), and :mod:`sumeval.metrics` reads the table when it is imported.
"""
from __future__ import annotations

from sumeval.metrics.base import MeasureInfo
from sumeval.retrieval.variants import MEASURES as SERA_VARIANTS

__all__ = ["builtin_measures", "RENAMED", "renamed_hint"]

_R = ("references",)
_T = ("text",)


def builtin_measures() -> list[MeasureInfo]:
    """Every built-in measure, in the order of the papers' families (ROUGE, BLEU, BERTScore,
    JS; paper 001's SERA variants; paper 000's three measures). ``coherence``, once an alias of
    ``similarity-order``, is gone (:data:`RENAMED`)."""
    out = [MeasureInfo(f"rouge-{n}", "sumeval.metrics.rouge:RougeScorer", {"variant": variant}, _R,
                       f"ROUGE-{n.upper()} precision, recall and F (rouge-score; mean over references, or max)")
           for n, variant in (("1", "rouge1"), ("2", "rouge2"), ("3", "rouge3"), ("l", "rougeL"),
                              ("lsum", "rougeLsum"))]
    out += [
        MeasureInfo("bleu", "sumeval.metrics.bleu:BleuScorer", {}, _R,
                    "sentence BLEU-4 against all references (NLTK)"),
        MeasureInfo("bertscore", "sumeval.metrics.bertscore:BertScoreScorer", {}, _R,
                    "BERTScore P/R/F (bert-score; --model, default all-mpnet-base-v2 layer 8; "
                    "max over references; no idf)"),
        MeasureInfo("js-2", "sumeval.metrics.jensen_shannon:JensenShannonScorer", {}, _R,
                    "Jensen-Shannon divergence of bigram distributions, summary vs references (lower is better)"),
        MeasureInfo("length", "sumeval.metrics.length:LengthScorer", {}, (),
                    "summary length in words (no model): the sentinel of meta-eval's tables"),
        # the other sentinels (sumeval.metrics.sentinels): no model; unranked in meta-eval's tables unless named
        MeasureInfo("fragment-coverage", "sumeval.metrics.sentinels:ExtractiveFragmentsScorer",
                    {"statistic": "coverage"}, _T,
                    "extractive fragment coverage of the summary in the source (Grusky et al. 2018; a sentinel)"),
        MeasureInfo("fragment-density", "sumeval.metrics.sentinels:ExtractiveFragmentsScorer",
                    {"statistic": "density"}, _T,
                    "extractive fragment density of the summary in the source (Grusky et al. 2018; a sentinel)"),
        MeasureInfo("bigram-overlap", "sumeval.metrics.sentinels:BigramOverlapScorer", {}, _T,
                    "share of the summary's bigrams found in the source, 1 - novel bigrams (a sentinel)"),
        MeasureInfo("constant", "sumeval.metrics.sentinels:ConstantScorer", {}, (),
                    "the same score for every summary (a sentinel: every correlation undefined)"),
        MeasureInfo("random", "sumeval.metrics.sentinels:RandomScorer", {}, (),
                    "a uniform random number per summary, seeded (option seed; a sentinel)"),
    ]
    # paper 001: SERA / SERA-DIS / GeSERA (index option "CORPUS:SIZE:SEED:BACKEND")
    out += [MeasureInfo(name, "sumeval.retrieval.scorers:SeraScorer",
                        {"k": k, "dis": dis, "reformulation": ref}, _R,
                        f"{'SERA-DIS' if dis else 'SERA'}-{k} with {ref} queries "
                        "(--index CORPUS:SIZE:SEED:BACKEND, default wikipedia:10000:0:sparse)")
            for name, (k, dis, ref) in SERA_VARIANTS.items()]
    # paper 000: points of contextual similarity (options model, layer, text_layer, raw_model)
    out += [
        MeasureInfo("estime", "sumeval.similarity.scorers:EstimeScorer", {}, _T,
                    "ESTIME alarms at points of contextual similarity (lower is better)"),
        MeasureInfo("estime-soft", "sumeval.similarity.scorers:EstimeSoftScorer", {}, _T,
                    "ESTIME-soft: raw-embedding agreement at points of contextual similarity"),
        MeasureInfo("similarity-order", "sumeval.similarity.scorers:SimilarityOrderScorer", {}, _T,
                    "order of the points of contextual similarity (Kendall tau-c, paper 000 Eq.3)"),
    ]
    return out


#: Names that were measures and are no more, and the measure to name instead. ``coherence`` was
#: an alias of ``similarity-order`` (its first name), and also the name of SummEval's human
#: column: a meta-evaluation of SummEval could not tell them apart (issue 21).
RENAMED: dict[str, str] = {"coherence": "similarity-order"}


def renamed_hint(name: str) -> str:
    """A sentence for a name of :data:`RENAMED` (``""`` for any other name)."""
    new = RENAMED.get(str(name).strip().lower())
    if not new:
        return ""
    return (f"{name!r} is no longer a measure name: the measure is called {new!r} (the old name was "
            f"also a human column of SummEval); write {new}")
