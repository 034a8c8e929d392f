"""Paper 000: points of contextual similarity - ESTIME, ESTIME-soft, the similarity order, the
local order, and layer probing of masked-token embeddings.

Modules (nothing heavy imported here):

- :mod:`sumeval.similarity.measures` - points of similarity, ESTIME (Eq.1) and ESTIME-soft
  (Eq.2), pure numpy over cached arrays, vectorised over (summary layer, text layer) pairs;
- :mod:`sumeval.similarity.order` - the order of the points of similarity: Eq.3 (Kendall
  tau-c) and the local order tau_d of Eq.4;
- :mod:`sumeval.similarity.probe` - per-layer norms, changes, neighbour cosines and within-layer
  cosine histograms (Fig.2-4, 7);
- :mod:`sumeval.similarity.scorers` - the ``estime``, ``estime-soft`` and ``similarity-order``
  (Eq.3; alias ``coherence``) scorers (on top of :class:`sumeval.lm.MaskedEmbedder`).
"""
