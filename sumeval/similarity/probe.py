"""Layer probing of masked-token embeddings (paper 000, Sec.4.2, Fig.2-4 and 7).

For every layer k of a document's masked-token embeddings ``E`` (n_tokens, n_layers, H):

- norm ``|e^k|``, change ``|e^{k+1} - e^k|`` and neighbour cosine ``cos(e^{k+1}, e^k)``, averaged
  over the tokens of the document (:func:`layer_stats`), then over documents
  (:func:`probe_profiles`), separately for the CLS token and the ordinary tokens, and for texts and
  summaries;
- the per-layer distribution of the cosine between all pairs of masked-token embeddings of a
  layer (:func:`cosine_histogram`: pairs within each document, counts added over documents, bins
  of 0.01 on [-1, 1], normalised per layer).

The arrays come from :class:`sumeval.lm.MaskedEmbeddings`: ``emb`` for the ordinary tokens (each
word's first piece, masked) and ``cls`` for the CLS token (one per forward pass).
"""
from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from sumeval.errors import InputError
from sumeval.similarity.shapes import as_ndim

__all__ = ["layer_stats", "probe_profiles", "cosine_histogram", "pairwise_cosine_counts"]


def _check3(E: np.ndarray) -> np.ndarray:
    return as_ndim(E, 3, "embeddings must be (tokens, layers, hidden)", np.float64)


def layer_stats(E: np.ndarray) -> dict[str, np.ndarray]:
    """Per-layer statistics of one document, averaged over its tokens (paper 000 Fig.2, 3, 4).

    Args:
        E: (n, L, H) embeddings of n tokens at every layer.

    Returns:
        ``norm`` (L,) = mean_i |e_i^k| (Fig.2); ``change`` (L,) = mean_i |e_i^{k+1} - e_i^k|
        (Fig.3) and ``cos`` (L,) = mean_i cos(e_i^{k+1}, e_i^k) (Fig.4), both NaN at the last
        layer (no next layer). All NaN when n == 0. A zero vector's cosine counts as 0.

    >>> E = np.array([[[3.0, 4.0], [0.0, 5.0]]])  # one token, two layers: |e^0| = |e^1| = 5
    >>> {k: v.round(2).tolist() for k, v in layer_stats(E).items()}  # change |(-3, 1)|, cos 20/25
    {'norm': [5.0, 5.0], 'change': [3.16, nan], 'cos': [0.8, nan]}
    """
    E = _check3(E)
    n, L, _ = E.shape
    norm = np.full(L, np.nan)
    change = np.full(L, np.nan)
    cos = np.full(L, np.nan)
    if n == 0:
        return {"norm": norm, "change": change, "cos": cos}
    nrm = np.linalg.norm(E, axis=2)  # (n, L)
    norm[:] = nrm.mean(axis=0)
    if L > 1:
        change[:-1] = np.linalg.norm(E[:, 1:] - E[:, :-1], axis=2).mean(axis=0)
        dots = np.einsum("nkh,nkh->nk", E[:, 1:], E[:, :-1])
        den = nrm[:, 1:] * nrm[:, :-1]
        cos[:-1] = np.divide(dots, den, out=np.zeros_like(dots), where=den > 0).mean(axis=0)
    return {"norm": norm, "change": change, "cos": cos}


def probe_profiles(documents: Iterable[Any], source: str = "text"):
    """Tidy frame of per-layer statistics averaged over tokens, then over documents.

    Args:
        documents: :class:`sumeval.lm.MaskedEmbeddings` objects, or dicts with ``emb`` (n, L, H)
            and ``cls`` (p, L, H) arrays.
        source: the value of the ``source`` column (``"text"`` or ``"summary"``).

    Returns:
        A pandas DataFrame with columns ``source, kind ('cls' | 'token'), layer, norm, change,
        cos, n_documents`` (documents without tokens of that kind are left out of its average).

    Raises:
        InputError: documents with different numbers of layers.
    """
    import pandas as pd

    sums: dict[str, dict[str, np.ndarray]] = {}
    counts: dict[str, int] = {"cls": 0, "token": 0}
    n_layers = None
    for doc in documents:
        arrays = {"token": doc["emb"] if isinstance(doc, dict) else doc.emb,
                  "cls": doc["cls"] if isinstance(doc, dict) else doc.cls}
        for kind, E in arrays.items():
            E = np.asarray(E)
            if n_layers is None:
                n_layers = E.shape[1]
            elif E.shape[1] != n_layers:
                raise InputError(f"documents have {n_layers} and {E.shape[1]} layers; probe one model at a time")
            if E.shape[0] == 0:
                continue
            st = layer_stats(E)
            acc = sums.setdefault(kind, {k: np.zeros_like(v) for k, v in st.items()})
            for k, v in st.items():
                acc[k] = acc[k] + v
            counts[kind] += 1
    rows = []
    for kind in ("cls", "token"):
        if kind not in sums:
            continue
        for k in range(n_layers or 0):
            rows.append({"source": source, "kind": kind, "layer": k,
                         "norm": sums[kind]["norm"][k] / counts[kind],
                         "change": sums[kind]["change"][k] / counts[kind],
                         "cos": sums[kind]["cos"][k] / counts[kind],
                         "n_documents": counts[kind]})
    return pd.DataFrame(rows, columns=["source", "kind", "layer", "norm", "change", "cos", "n_documents"])


def pairwise_cosine_counts(E: np.ndarray, bin_width: float = 0.01) -> np.ndarray:
    """Counts of the cosines between all pairs i < j of tokens, per layer (paper 000 Fig.7).

    Args:
        E: (n, L, H) embeddings.
        bin_width: w; bins of w on [-1, 1] (B = round(2 / w)); bin b holds
            ``-1 + b w <= cos < -1 + (b+1) w``, and cos = 1 goes to the last bin.

    Returns:
        (L, B) int64 counts. Zero vectors are left out.
    """
    E = _check3(E)
    n, L, _ = E.shape
    nb = int(round(2.0 / bin_width))
    counts = np.zeros((L, nb), dtype=np.int64)
    if n < 2:
        return counts
    nrm = np.linalg.norm(E, axis=2, keepdims=True)
    for k in range(L):
        ok = nrm[:, k, 0] > 0
        X = E[ok, k, :] / nrm[ok, k, :]
        if X.shape[0] < 2:
            continue
        G = X @ X.T
        iu = np.triu_indices(X.shape[0], 1)
        c = np.clip(G[iu], -1.0, 1.0)
        idx = np.minimum(np.floor((c + 1.0) / bin_width + 1e-9).astype(np.int64), nb - 1)
        counts[k] = np.bincount(idx, minlength=nb)
    return counts


def cosine_histogram(documents: Iterable[Any], bin_width: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """Per-layer distribution of within-layer pairwise cosines of masked-token embeddings
    (paper 000 Fig.7).

    Args:
        documents: MaskedEmbeddings objects, dicts with ``emb``, or (n, L, H) arrays. Pairs are
            taken within each document; counts are added over documents.
        bin_width: see :func:`pairwise_cosine_counts`.

    Returns:
        ``(edges (B+1,), hist (L, B))`` with each layer's row summing to 1 (NaN rows for a layer
        without pairs).
    """
    total = None
    for doc in documents:
        E = doc if isinstance(doc, np.ndarray) else (doc["emb"] if isinstance(doc, dict) else doc.emb)
        c = pairwise_cosine_counts(E, bin_width)
        if total is None:
            total = c
        elif total.shape != c.shape:
            raise InputError(f"documents have {total.shape[0]} and {c.shape[0]} layers; one model at a time")
        else:
            total = total + c
    nb = int(round(2.0 / bin_width))
    edges = np.linspace(-1.0, 1.0, nb + 1)
    if total is None:
        return edges, np.zeros((0, nb))
    sums = total.sum(axis=1, keepdims=True).astype(float)
    hist = np.divide(total, sums, out=np.full(total.shape, np.nan), where=sums > 0)
    return edges, hist
