"""Names of sumeval's built-in measures and where their scorers live (nothing heavy imported)."""
from sumeval.metrics import register

_R = ("references",)

for _n, _variant in (("1", "rouge1"), ("2", "rouge2"), ("3", "rouge3"), ("l", "rougeL"), ("lsum", "rougeLsum")):
    register(f"rouge-{_n}", "sumeval.metrics.rouge:RougeScorer", variant=_variant, needs=_R,
             description=f"ROUGE-{_n.upper()} precision, recall and F (rouge-score; mean over references, or max)")
register("bleu", "sumeval.metrics.bleu:BleuScorer", needs=_R,
         description="sentence BLEU-4 against all references (NLTK)")
register("bertscore", "sumeval.metrics.bertscore:BertScoreScorer", needs=_R,
         description="BERTScore P/R/F (bert-score; --model, default all-mpnet-base-v2 layer 8; "
                     "max over references; no idf)")
register("js-2", "sumeval.metrics.jensen_shannon:JensenShannonScorer", needs=_R,
         description="Jensen-Shannon divergence of bigram distributions, summary vs references (lower is better)")

# paper 001: SERA / SERA-DIS / GeSERA (index option "CORPUS:SIZE:SEED:BACKEND")
from sumeval.retrieval.scorers import MEASURES as _SERA  # noqa: E402  (light: no whoosh/spaCy at import)

for _name, (_k, _dis, _ref) in _SERA.items():
    register(_name, "sumeval.retrieval.scorers:SeraScorer", needs=_R, k=_k, dis=_dis, reformulation=_ref,
             description=f"{'SERA-DIS' if _dis else 'SERA'}-{_k} with {_ref} queries "
                         "(--index CORPUS:SIZE:SEED:BACKEND, default wikipedia:10000:0:sparse)")

# paper 000: points of contextual similarity (options model, layer, text_layer, raw_model)
_T = ("text",)
register("estime", "sumeval.similarity.scorers:EstimeScorer", needs=_T,
         description="ESTIME alarms at points of contextual similarity (lower is better)")
register("estime-soft", "sumeval.similarity.scorers:EstimeSoftScorer", needs=_T,
         description="ESTIME-soft: raw-embedding agreement at points of contextual similarity")
register("coherence", "sumeval.similarity.scorers:CoherenceScorer", needs=_T,
         description="order of the points of contextual similarity (Kendall tau-c, paper 000 Eq.3)")
