"""Study ``coherence_order`` (paper 000 Fig.5, Fig.6): coherence from the order of the points of
similarity - Eq.3 (Kendall tau-c between summary positions and their points in the text) over
layer pairs against coherence, and Eq.4's local order tau_d over the distance d and the layer
against coherence and consistency.

Thin: the computation is in :mod:`sumeval.studies.paper000` (the same cached sweep as
``estime_layers``).
"""
from sumeval.studies.paper000 import (PARAMETER_RANGES, MEASURE_LABELS, best_layer, default_layer, embedder, extract,  # noqa: F401
                                      layer_correlations, layer_pair_scores, load_pairs,
                                      local_order_correlations)

__all__ = ["PARAMETER_RANGES", "MEASURE_LABELS", "load_pairs", "embedder", "extract", "layer_pair_scores",
           "layer_correlations", "local_order_correlations", "best_layer", "default_layer"]
