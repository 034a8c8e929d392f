"""Study ``layer_probing`` (paper 000 Fig.2, 3, 4, 7): how masked-token embeddings change over the
layers - CLS vs ordinary tokens, texts vs summaries - and how aligned they are within a layer.

Thin: the computation is :func:`sumeval.studies.paper000.probe_frames` over the shared extraction.
"""
from sumeval.studies.paper000 import (PARAMETER_RANGES, embedder, extract, histogram_matrix, load_pairs,  # noqa: F401
                                      probe_frames)

__all__ = ["PARAMETER_RANGES", "load_pairs", "embedder", "extract", "probe_frames", "histogram_matrix"]
