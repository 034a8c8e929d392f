"""Paper 000: points of contextual similarity - ESTIME, ESTIME-soft, coherence, local order, and
layer probing of masked-token embeddings.

Modules (nothing heavy imported here):

- :mod:`sumeval.similarity.measures` - pure numpy measures over cached arrays, and the vectorised
  (summary layer, text layer) sweep;
- :mod:`sumeval.similarity.probe` - per-layer norms, changes, neighbour cosines and within-layer
  cosine histograms;
- :mod:`sumeval.similarity.scorers` - the ``estime``, ``estime-soft`` and ``coherence`` scorers
  (on top of :class:`sumeval.lm.MaskedEmbedder`).
"""
