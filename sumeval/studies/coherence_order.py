"""Study ``coherence_order`` (paper 000 Fig.5, Fig.6): coherence from the order of the points of
similarity - the similarity order of Eq.3 (Kendall tau-c between summary positions and their
points in the text) over layer pairs against coherence, and Eq.4's local order tau_d over the
distance d and the layer against coherence and consistency.

On another judgments data set with texts (the study's ``dataset``; :func:`load_study_pairs`)
the same figures are drawn against its human columns.

Thin: the extraction is :mod:`sumeval.studies.common.embedding_extraction` and the sweep
:mod:`sumeval.studies.common.layer_pairs` (the same cached sweep as ``estime_layers``).
"""
from sumeval.similarity.scorers import default_estime_layer  # noqa: F401 (the notebook's S.default_estime_layer)
from sumeval.studies.common.embedding_extraction import (  # noqa: F401 (ranges: read by the runner)
    PARAMETER_RANGES,
    embedder,
    extract,
    load_pairs,
    load_study_pairs,
)
from sumeval.studies.common.layer_pairs import (  # noqa: F401 (the notebook's S.*)
    MEASURE_LABELS,
    best_layer,
    layer_correlations,
    layer_pair_scores,
    local_order_correlations,
)
from sumeval.studies.common.study_data import selection_human  # noqa: F401 (the notebook's S.selection_human)

__all__ = ["PARAMETER_RANGES", "MEASURE_LABELS", "load_pairs", "load_study_pairs", "embedder", "extract",
           "layer_pair_scores", "layer_correlations", "local_order_correlations", "best_layer", "selection_human",
           "default_estime_layer"]
