"""The modules the studies are built from: what several studies share, and the parts a study splits
off for size. None is a study (no notebook runs it); each names the studies it serves.

- ``study_data``: the ``dataset`` parameter of the judgments studies (load, describe, skip a part).
- ``baseline_rows``: the ROUGE / BLEU / BERTScore / JS-2 rows of papers 000 and 001, scored on a data set.
- ``baseline_tables``: parts (a) and (b) of ``metric_correlations`` (paper 000 Table 1, paper 001 Table 2);
  ``estime_layers``, ``annotator_impact`` and ``index_size_sweep`` reuse them.
- ``baseline_levels``: those rows at the input, system and global levels (``metric_correlations``).
- ``embedding_extraction``: the pairs and the one masked-embedding extraction of the paper-000 studies
  (``layer_probing``, ``estime_layers``, ``coherence_order``), on any data set with texts.
- ``layer_pairs``: the layer-pair sweep of ``estime_layers`` and ``coherence_order``.
- ``sera_scores``: SERA against each reference, system-level correlations (``index_size_sweep``,
  ``annotator_impact``).
- ``annotator_subsets``, ``annotator_rankings``: judges as annotators, and the measures' ranking with the
  annotators kept (``annotator_impact``).
- ``ordering_runs``: how the paper-002 ordering studies run their models.
- ``measure_parameters``: the measure studies' flat parameters as arguments (``meta_evaluation``, ``shelf``,
  ``llm_judges``).

A module here imports no study module (:mod:`sumeval.studies`).
"""

__all__ = ["annotator_rankings", "annotator_subsets", "baseline_levels", "baseline_rows", "baseline_tables",
           "embedding_extraction", "layer_pairs", "measure_parameters", "ordering_runs", "sera_scores", "study_data"]
