"""Study ``estime_layers`` (paper 000 Fig.1, Fig.8, Table 1): Kendall tau-c and Spearman of ESTIME
(Eq.1) and ESTIME-soft (Eq.2) with the human scores over every (text layer, summary layer) pair,
and the Table 1 rows at the best layer beside the ROUGE rows and the paper's numbers.

The human scores are SummEval's four expert qualities by default, or those of any judgments data
set with texts (the study's ``dataset``; :func:`load_study_pairs`); the paper's numbers are
shown only on SummEval.

Thin: the extraction is :mod:`sumeval.studies.common.embedding_extraction`, the sweep
:mod:`sumeval.studies.common.layer_pairs` (shared with ``coherence_order``, which reads the same cached
sweep) and the ROUGE rows part (a) of ``metric_correlations`` (:mod:`sumeval.studies.common.baseline_tables`).
"""
from sumeval.similarity.scorers import default_estime_layer  # noqa: F401 (the notebook's S.default_estime_layer)
from sumeval.studies.common.baseline_tables import part_a  # noqa: F401 (the notebook's S.part_a: the ROUGE rows)
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
    table1_beside_rouge,
    table1_rows,
)
from sumeval.studies.common.study_data import selection_human  # noqa: F401 (the notebook's S.selection_human)

__all__ = ["PARAMETER_RANGES", "MEASURE_LABELS", "load_pairs", "load_study_pairs", "embedder", "extract",
           "layer_pair_scores", "layer_correlations", "best_layer", "selection_human", "default_estime_layer",
           "table1_rows", "table1_beside_rouge", "part_a"]
