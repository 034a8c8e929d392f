"""Study ``estime_layers`` (paper 000 Fig.1, Fig.8, Table 1): Kendall tau-c and Spearman of ESTIME
(Eq.1) and ESTIME-soft (Eq.2) with the human scores over every (text layer, summary layer) pair,
and the Table 1 rows at the best layer beside the ROUGE rows and the paper's numbers.

The human scores are SummEval's four expert qualities by default, or those of any judgments data
set with texts (the study's ``dataset``; :func:`load_study_pairs`); the paper's numbers are
shown only on SummEval.

Thin: the extraction is :mod:`sumeval.studies.summeval_extraction` and the sweep
:mod:`sumeval.studies.layer_pairs` (shared with ``coherence_order``, which reads the same cached
sweep).
"""
from sumeval.similarity.scorers import default_estime_layer  # noqa: F401 (the notebook's fallback layer)
from sumeval.studies.layer_pairs import (MEASURE_LABELS, best_layer, layer_correlations,
                                         layer_pair_scores, selection_human, table1_beside_rouge, table1_rows)
from sumeval.studies.summeval_extraction import (  # noqa: F401 (ranges: read by the runner)
    PARAMETER_RANGES, QUALITIES, embedder, extract, load_pairs, load_study_pairs,
)

__all__ = ["PARAMETER_RANGES", "QUALITIES", "MEASURE_LABELS", "load_pairs", "load_study_pairs", "embedder", "extract",
           "layer_pair_scores", "layer_correlations", "best_layer", "selection_human", "default_estime_layer", "table1_rows",
           "table1_beside_rouge"]
