"""The pairs and the one masked-embedding extraction the three paper-000 studies share (``layer_probing``,
``estime_layers``, ``coherence_order``): SummEval's by default, or any judgments data set with
summaries and texts (the studies' ``dataset`` parameter, :mod:`sumeval.studies.common.study_data`).

Every text and summary is embedded once by the masked-embedding engine
(:func:`sumeval.lm.get_embedder`: every layer from the same forward passes, cached on disk per
text); the studies read the cached arrays one document at a time (a text and its summaries), so
memory holds one document's arrays.

- :func:`load_study_pairs` -> :class:`StudyPairs`: the pairs (``doc_id, system, summary, text,
  <human columns>``; SummEval's four qualities by default), the data set and its human columns;
  :func:`load_pairs` -> the pairs alone.
- :func:`embedder` -> the shared engine (same options, so the same cache entries).
- :func:`extract` -> dict of what the extraction did (counts, token-forwards, seconds).
- :func:`documents`, :func:`iter_documents` -> the pairs grouped by document, as texts or as
  cached embeddings.
- :func:`pairs_key`, :func:`cached_frame` -> cache keys of what the studies compute from pairs.

Layers are indices into ``hidden_states`` (0 = the embedding output), as the paper.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

import pandas as pd

from sumeval.cache import Store, cache_key
from sumeval.errors import InputError
from sumeval.hashing import sha256_text
from sumeval.lm.resolution import DEFAULT_MODEL
from sumeval.published import PAPER000_QUALITIES

#: ranges of the paper-000 notebooks' numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": (">=0", "0 means all; at most the data set's documents (checked when it is loaded)"),
                    "n_systems": (">=0", "0 means all; at most the data set's systems (checked when it is loaded)"),
                    "text_words": (">=0", "0 keeps whole articles"), "max_d": ">=1",
                    "n_resamples": (">=0", "0 for no intervals")}

__all__ = ["PARAMETER_RANGES", "STORE", "SCHEME", "StudyPairs", "load_study_pairs", "load_pairs",
           "embedder", "extract", "documents", "iter_documents", "pairs_key", "cached_frame", "n_selectable_layers"]

#: the cache namespace of what the paper-000 studies compute from the extraction
STORE = "paper000_studies"
#: the version of those computations (part of every key)
SCHEME = "paper000-studies/v2"


@dataclass(frozen=True)
class StudyPairs:
    """The pairs a paper-000 study embeds, and where they come from.

    pairs : ``doc_id, system, summary, text`` and the human columns used (SummEval: its four
        qualities, alphabetical, as this frame always had them)
    judgments : the data set restricted to those rows (:class:`~sumeval.datasets.judgments_model.Judgments`)
    humans : the human columns in the order the study shows them
        (SummEval: :data:`sumeval.published.PAPER000_QUALITIES`)
    """

    pairs: pd.DataFrame
    judgments: Any
    humans: list[str]

    @property
    def is_summeval(self) -> bool:
        """Whether the pairs are the built-in SummEval's (the paper's data: comparisons apply)."""
        return self.judgments.format == "builtin" and self.judgments.name == "summeval"


def load_study_pairs(dataset: str = "summeval", *, humans: str = "", n_docs: int = 0, n_systems: int = 0,
                     text_words: int = 0, levels: Sequence[str] = ("global",)) -> StudyPairs:
    """The pairs of the first documents and systems of a judgments data set.

    Args:
        dataset: a data set name (``summeval``, a user's added with ``sumeval data add``) or an
            absolute path (:func:`sumeval.studies.common.study_data.load`); it needs ``summary`` and
            ``text``.
        humans: its human columns to use, comma-separated (empty: all).
        n_docs: at most the first that many documents, in order of first appearance (0: all).
        n_systems: the first that many systems in order of first appearance (SummEval:
            :data:`sumeval.datasets.summeval.SYSTEMS` order; 0: all).
        text_words: > 0 keeps only the first that many white-space words of each text (smoke
            runs only: the numbers then describe truncated texts).
        levels: correlation levels the study computes; each is checked for every human column
            on the rows kept (:func:`sumeval.datasets.judgments_model.check_level`).

    Returns:
        :class:`StudyPairs`.

    Raises:
        InputError: ``n_systems`` or ``text_words`` out of range, a data set without summaries
            or texts, a level the rows kept cannot support.
    """
    from dataclasses import replace

    from sumeval.datasets.judgments_model import check_level, systems_missing_documents
    from sumeval.studies.common import study_data

    if text_words < 0:
        raise InputError(f"text_words must be >= 0 (0 keeps whole articles), got {text_words}")
    judgments, hs = study_data.load(dataset, humans=humans, n_docs=n_docs or None, needs=("summary", "text"),
                                    builtin_order=PAPER000_QUALITIES)
    for level in levels:  # a level the set rules out by its nature (Rank19: pairwise) before its sizes
        why = study_data.shelf_limit(judgments, level=level)
        if why:  # refused before any text is embedded, naming what applies
            raise InputError(f"dataset={dataset!r}: this study correlates at the {level} level, and {why}. What "
                             f"does apply to {judgments.name}: {study_data.what_applies(judgments)}")
    systems = judgments.systems
    if n_systems < 0 or n_systems > len(systems):
        raise InputError(f"n_systems must be 0 (all) or 1..{len(systems)} ({judgments.name} has "
                         f"{len(systems)} systems), got {n_systems}")
    frame = judgments.frame
    _check_texts(judgments)
    if n_systems:
        frame = frame[frame["system"].isin(systems[:n_systems])]
    if text_words:
        frame = frame.assign(text=frame["text"].map(lambda t: " ".join(t.split()[:text_words])))
    frame = frame.reset_index(drop=True)
    cols = ["doc_id", "system", "summary", "text", *(h for h in judgments.humans if h in hs)]
    kept = replace(judgments, frame=frame, locations=None,
                   systems_missing_documents=systems_missing_documents(frame))
    for level in levels:
        for h in hs:
            check_level(kept, level, h)
    return StudyPairs(frame[cols], kept, hs)


def _check_texts(judgments) -> None:
    """Every row has a summary and a text, and the rows of a document share one text (the study
    embeds each document's text once)."""
    frame = judgments.frame
    for field in ("summary", "text"):
        missing = [i for i, v in enumerate(frame[field]) if not isinstance(v, str)]
        if missing:
            where = ", ".join(judgments.location(i) for i in missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise InputError(f"{judgments.name}: {len(missing)} row(s) have no {field!r} ({where}); this "
                             f"study embeds the {field} of every summary: fill it in or drop those rows")
    texts = frame.groupby("doc_id", sort=False)["text"].nunique()
    if (texts > 1).any():
        doc = texts[texts > 1].index[0]
        rows = [judgments.location(i) for i in range(len(frame)) if frame.at[i, "doc_id"] == doc][:5]
        raise InputError(f"{judgments.name}: document {doc!r} has {int(texts[doc])} different texts "
                         f"({', '.join(rows)}); every summary of a document must come with the same text")


def load_pairs(n_docs: int = 0, n_systems: int = 0, text_words: int = 0, *, dataset: str = "summeval",
               humans: str = "") -> pd.DataFrame:
    """The pairs frame of :func:`load_study_pairs` (SummEval by default: ``doc_id, system, summary,
    text, coherence, consistency, fluency, relevance``), with no level checked."""
    return load_study_pairs(dataset, humans=humans, n_docs=n_docs, n_systems=n_systems,
                            text_words=text_words, levels=()).pairs


def embedder(model: str = DEFAULT_MODEL, precision: str = "auto"):
    """The shared engine of the three studies (same options, so the same cache entries).

    Args:
        model: packaged name, local folder or Hugging Face id.
        precision: ``auto`` (float32 on a CPU, bfloat16 on CUDA), ``fp32``, ``bf16`` or ``fp16`` (or the
            long names, :func:`sumeval.lm.resolve_precision`).

    Returns:
        The process-wide :class:`sumeval.lm.MaskedEmbedder` of (model, precision).
    """
    from sumeval.lm import get_embedder, resolve_precision

    return get_embedder(model, precision=resolve_precision(precision))


def documents(pairs: pd.DataFrame) -> list[tuple[str, str, list[str], list[int]]]:
    """``(doc_id, text, summaries, row indices)`` per document, in order of first appearance."""
    out = []
    for doc_id, g in pairs.groupby("doc_id", sort=False):
        out.append((doc_id, g["text"].iloc[0], list(g["summary"]), list(g.index)))
    return out


def iter_documents(pairs: pd.DataFrame, emb) -> Iterator[tuple[str, Any, list[Any], list[int]]]:
    """``(doc_id, text embeddings, summary embeddings, row indices)`` per document, from ``emb``."""
    for doc_id, text, sums, rows in documents(pairs):
        got = emb.embed_many([text, *sums])
        yield doc_id, got[0], got[1:], rows


def n_selectable_layers(emb) -> int:
    """Selectable layers (``num_hidden_layers + 1``) from the model's config, without loading it."""
    cfg = json.loads((emb.spec.path / "config.json").read_text(encoding="utf-8"))
    n = cfg.get("num_hidden_layers", cfg.get("n_layer"))
    return int(n) + 1 if n else emb.n_layers


def extract(pairs: pd.DataFrame, model: str = DEFAULT_MODEL, precision: str = "auto", *,
            docs_per_call: int = 10, progress: bool = False) -> dict[str, Any]:
    """Embed every text and summary of ``pairs`` (every layer, one pass, cached).

    Texts already in the cache are not even read. Work goes ``docs_per_call`` documents at a time
    so that memory holds only those (:meth:`sumeval.lm.MaskedEmbedder.fill_cache`); studies
    extracting the same texts at once (``run all --jobs 2``) share the work chunk by chunk.

    Args:
        pairs: :func:`load_pairs`' frame.
        model, precision: see :func:`embedder`.
        docs_per_call: documents embedded per call of the engine.
        progress: show a progress bar.

    Returns:
        ``model`` (identity), ``model_name``, ``precision``, ``n_texts``, ``n_summaries``
        (distinct), ``computed``, ``from_cache``, ``token_forwards``, ``padded_token_forwards``,
        ``passes``, ``seconds`` and ``n_layers`` (selectable layers, incl. the embedding output).
    """
    emb = embedder(model, precision)
    docs = documents(pairs)
    before = dict(emb.stats)
    t0 = time.perf_counter()
    groups = [list(dict.fromkeys(t for _, text, sums, _ in docs[i:i + docs_per_call] for t in [text, *sums]))
              for i in range(0, len(docs), docs_per_call)]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=sum(len(g) for g in groups), desc="extraction", unit="text")
    # cached texts are not even read; a chunk another process is extracting is left to it
    n_computed = emb.fill_cache(groups, progress=bar)
    n_cached = sum(len(g) for g in groups) - n_computed
    if bar is not None:
        bar.close()
    after = emb.stats
    computed = after["texts_computed"] - before["texts_computed"]
    # the device the model ran on (a missing requested device is an error in the engine, never a
    # silent fall-back); when every text came from the cache no model ran in this process
    device = emb.device_used if computed else f"{emb.device} (every text from the cache)"
    return {"model": emb.spec.identity(), "model_name": emb.spec.name, "precision": emb.precision,
            "device": device,
            "n_texts": len(docs), "n_summaries": int(pairs["summary"].nunique()),
            "computed": computed,
            "from_cache": n_cached + after["texts_from_cache"] - before["texts_from_cache"],
            "token_forwards": after["tokens"] - before["tokens"],
            "padded_token_forwards": after["padded_tokens"] - before["padded_tokens"],
            "passes": after["passes"] - before["passes"],
            "seconds": round(time.perf_counter() - t0, 2), "n_layers": n_selectable_layers(emb)}


def pairs_key(pairs: pd.DataFrame) -> str:
    """Cache key of the content of ``pairs`` (document, system, summary and the text's sha256)."""
    rows = [[str(d), str(s), summ, sha256_text(text)]
            for d, s, summ, text in zip(pairs["doc_id"], pairs["system"], pairs["summary"], pairs["text"])]
    return cache_key(include_version=False, pairs=rows)


def _frame_hash(*frames: pd.DataFrame) -> str:
    """Content hash of frames (values and column names), for caching what is computed from them."""
    h = hashlib.sha256()
    for f in frames:
        h.update(repr(list(f.columns)).encode())
        h.update(pd.util.hash_pandas_object(f, index=False).to_numpy().tobytes())
    return h.hexdigest()


def cached_frame(kind: str, compute: Callable[[], pd.DataFrame], *frames: pd.DataFrame, **parts: Any) -> pd.DataFrame:
    """``compute()``, cached in :data:`STORE` under ``kind``, the content of ``frames`` and ``parts``."""
    store = Store(STORE)
    key = cache_key(kind=kind, scheme=SCHEME, frames=_frame_hash(*frames), **parts)
    got = store.get_frame(key)
    if got is None:
        got = compute()
        store.put_frame(key, got)
    return got
