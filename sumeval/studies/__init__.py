"""The studies: one module per study notebook, ``notebooks/<study>.ipynb`` <-> ``sumeval/studies/<study>.py``
(what the notebook calls, and the ``PARAMETER_RANGES`` the runner checks).

- ``annotator_impact``: how the people behind the references and the judgments move the
  correlations of SERA, GeSERA and ROUGE (paper 001 Sec.4.3).
- ``coherence_order``: coherence from the order of the points of similarity (paper 000 Fig.5, 6).
- ``estime_layers``: ESTIME and ESTIME-soft over the layer pairs (paper 000 Fig.1, 8, Table 1).
- ``index_size_sweep``: SERA / GeSERA against the size of the retrieval index (paper 001).
- ``layer_probing``: how masked-token embeddings change over the layers (paper 000 Sec.4.2).
- ``llm_judges``: can an LLM judge replace SummEval's experts, and how far are judges and measures
  from the experts' own agreement?
- ``meta_evaluation``: how well each measure agrees with people, and which are significantly better.
- ``metric_correlations``: the published ROUGE / BLEU / BERTScore / JS-2 rows (papers 000, 001).
- ``ordering_benchmark``: the paper-002 ordering models, Tables 2 and 3 and the human evaluation (paper 002 §4.3, §4.5).
- ``ordering_learnability``: WLCS-l and Acc against the size of the training sets (paper 002 §4.4).
- ``ordering_robustness``: WLCS-l and Acc against the noise level (paper 002 §4.4).
- ``shelf``: which measures hold up across domains?

A study module imports no other study module: what two studies share, or what a study splits off
for size, is a module of :mod:`sumeval.studies.common` (``tests/studies/test_studies_layout.py`` checks both).
"""

__all__ = ["annotator_impact", "coherence_order", "estime_layers", "index_size_sweep", "layer_probing", "llm_judges",
           "meta_evaluation", "metric_correlations", "ordering_benchmark", "ordering_learnability",
           "ordering_robustness", "shelf"]
