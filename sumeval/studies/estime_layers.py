"""Study ``estime_layers`` (paper 000 Fig.1, Fig.8, Table 1): Kendall tau-c and Spearman of ESTIME
and ESTIME-soft with the four SummEval qualities over every (text layer, summary layer) pair, and
the Table 1 rows at the best layer beside the ROUGE rows and the paper's numbers.

Thin: the computation is in :mod:`sumeval.studies.paper000` (shared with ``coherence_order``,
which reads the same cached sweep).
"""
from sumeval.studies.paper000 import (PARAMETER_RANGES, MEASURE_LABELS, QUALITIES, best_layer, default_layer, embedder,  # noqa: F401
                                      extract, layer_correlations, layer_pair_scores, load_pairs,
                                      table1_beside_rouge, table1_rows)

__all__ = ["PARAMETER_RANGES", "QUALITIES", "MEASURE_LABELS", "load_pairs", "embedder", "extract", "layer_pair_scores",
           "layer_correlations", "best_layer", "default_layer", "table1_rows", "table1_beside_rouge"]
