"""sumeval's built-in measures: names, where their scorers live and their default options.

A table, nothing more: no scorer module is imported here (each is imported when its measure is
asked for), and :mod:`sumeval.metrics` reads the table when it is imported.
"""
from __future__ import annotations

from sumeval.metrics.base import MeasureInfo
from sumeval.retrieval.variants import MEASURES as SERA_VARIANTS

__all__ = ["builtin_measures"]

_R = ("references",)
_T = ("text",)


def builtin_measures() -> list[MeasureInfo]:
    """Every built-in measure, in the order of the papers' families (ROUGE, BLEU, BERTScore,
    JS; paper 001's SERA variants; paper 000's three measures and the alias ``coherence``)."""
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
        MeasureInfo("coherence", "sumeval.similarity.scorers:CoherenceScorer", {}, _T,
                    "alias of similarity-order (its first name; column 'coherence')",
                    alias_of="similarity-order"),
    ]
    return out
