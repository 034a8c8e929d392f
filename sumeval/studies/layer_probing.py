"""Study ``layer_probing`` (paper 000 Sec.4.2, Fig.2, 3, 4, 7): how masked-token embeddings change
over the layers - CLS vs ordinary tokens, texts vs summaries - and how aligned they are within a
layer.

Frames (tidy; documented columns)
---------------------------------
- :func:`probe_frames` -> ``(profiles, histogram)``: ``profiles`` has ``source ('text' |
  'summary'), kind ('cls' | 'token'), layer, norm, change, cos, n_documents``; ``histogram``
  has ``source ('text' | 'summary' | 'all'), layer, bin_low, bin_high, share`` (each layer's
  shares sum to 1).
- :func:`histogram_matrix` -> one source of the histogram as ``(edges, shares)``.

The statistics are those of :mod:`sumeval.similarity.probe`, over the shared extraction
(:mod:`sumeval.studies.common.embedding_extraction`): SummEval's texts and summaries by default, or those
of any judgments data set with texts (the study's ``dataset``; no human score is read).
"""
from __future__ import annotations

from typing import Any, Iterator

import numpy as np
import pandas as pd

from sumeval.cache import Store, cache_key
from sumeval.errors import InputError
from sumeval.lm.resolution import DEFAULT_MODEL
from sumeval.studies.common.embedding_extraction import (  # noqa: F401 (ranges: read by the runner)
    PARAMETER_RANGES,
    SCHEME,
    STORE,
    documents,
    embedder,
    extract,
    load_pairs,
    load_study_pairs,
    pairs_key,
)

__all__ = ["PARAMETER_RANGES", "load_pairs", "load_study_pairs", "embedder", "extract", "probe_frames",
           "histogram_matrix"]


def probe_frames(pairs: pd.DataFrame, model: str = DEFAULT_MODEL, precision: str = "auto", *,
                 bin_width: float = 0.01, cache: bool = True,
                 progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-layer norms, changes and neighbour cosines (CLS vs ordinary tokens, texts vs summaries),
    and the per-layer histogram of within-document pairwise cosines of masked-token embeddings.

    Texts are the documents of ``pairs``; summaries its distinct summaries, each taken as a
    separate text (as the paper).

    Args:
        pairs: :func:`~sumeval.studies.common.embedding_extraction.load_pairs`' frame.
        model, precision: the engine (:func:`~sumeval.studies.common.embedding_extraction.embedder`).
        bin_width: width of the cosine bins on [-1, 1].
        cache: read and write the frames in the cache.
        progress: show progress bars.

    Returns:
        ``(profiles, histogram)`` (columns in the module doc).
    """
    from sumeval.similarity import probe

    emb = embedder(model, precision)
    store = Store(STORE)
    key = cache_key(kind="probe", scheme=SCHEME, engine=emb.params(), pairs=pairs_key(pairs),
                    bin_width=bin_width)
    if cache:
        prof, hist = store.get_frame(key + "-profiles"), store.get_frame(key + "-hist")
        if prof is not None and hist is not None:
            return prof, hist
    docs = documents(pairs)
    counts: dict[str, np.ndarray] = {}

    def stream(source: str) -> Iterator[Any]:
        seen: set[str] = set()
        it = docs
        if progress:
            from tqdm.auto import tqdm

            it = tqdm(docs, desc=f"probe {source}s", unit="doc")
        for _, text, sums, _ in it:
            items = [text] if source == "text" else [s for s in dict.fromkeys(sums) if s not in seen]
            seen.update(items)
            for e in emb.embed_many(items):
                c = probe.pairwise_cosine_counts(e.emb, bin_width)
                counts[source] = c if source not in counts else counts[source] + c
                yield e

    prof = pd.concat([probe.probe_profiles(stream("text"), source="text"),
                      probe.probe_profiles(stream("summary"), source="summary")], ignore_index=True)
    nb = int(round(2.0 / bin_width))
    edges = np.linspace(-1.0, 1.0, nb + 1)
    rows = []
    if counts:
        counts["all"] = sum(counts.values())
    for source, c in counts.items():
        sums_ = c.sum(axis=1, keepdims=True).astype(float)
        share = np.divide(c, sums_, out=np.full(c.shape, np.nan), where=sums_ > 0)
        for layer in range(c.shape[0]):
            rows.append(pd.DataFrame({"source": source, "layer": layer, "bin_low": edges[:-1],
                                      "bin_high": edges[1:], "share": share[layer]}))
    hist = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(
        columns=["source", "layer", "bin_low", "bin_high", "share"])
    if cache:
        store.put_frame(key + "-profiles", prof)
        store.put_frame(key + "-hist", hist)
    return prof, hist


def histogram_matrix(hist: pd.DataFrame, source: str = "all") -> tuple[np.ndarray, np.ndarray]:
    """One source of :func:`probe_frames`' histogram as arrays.

    Args:
        hist: the histogram frame.
        source: ``"text"``, ``"summary"`` or ``"all"``.

    Returns:
        ``(edges (B+1,), shares (L, B))``.

    Raises:
        InputError: a source the frame does not hold.
    """
    sub = hist[hist["source"] == source]
    if sub.empty:
        raise InputError(f"histogram has no source {source!r}; it has {sorted(set(hist['source']))}")
    mat = sub.pivot(index="layer", columns="bin_low", values="share").sort_index()
    edges = np.append(mat.columns.to_numpy(float), float(sub["bin_high"].max()))
    return edges, mat.to_numpy(float)
