"""Retrieval indexes: the first n documents of a seeded shuffle of a corpus, two backends.

>>> ix = build_index("wikipedia", n=10_000, seed=0, backend="sparse")   # doctest: +SKIP
>>> ix.search(["obama visits berlin"], k=10)                                 # doctest: +SKIP
[['enwiki-...', ...]]

* Documents: ``order = numpy.random.default_rng(seed).permutation(N)`` over the corpus order
  (N documents); the index holds ``order[:n]``, document number i = ``order[i]``.
* Backends: ``"whoosh"`` (the paper's engine, :mod:`.whoosh_backend`) and ``"sparse"``
  (the same BM25F on sparse matrices, :mod:`.sparse_backend`; the default).
* Cache: ``<cache>/retrieval_indexes/<key>/`` (checked by :mod:`.index_folder`) where key =
  :func:`sumeval.cache.cache_key` of (corpus name, corpus content sha256, n, seed, analyzer +
  Whoosh version, backend, sumeval version). The folder holds ``meta.json`` (every parameter, N,
  build time), ``docs.npz`` (the corpus positions ``order[:n]``), ``whoosh/`` (whoosh backend) and
  ``COMPLETE``, written last. ``meta.json`` records the sha256 of every other file, ``COMPLETE`` the sha256
  of ``meta.json``, so a damaged index (a truncated or altered file) is found on load and by
  :func:`list_indexes`. A build writes into ``<key>.partial-*`` (with ``BUILDER.json``: the
  builder's pid, host and start) and renames it into place, so an interrupted build never
  looks complete; the folder of a build whose process is gone is removed by the next build or
  listing. A folder without ``COMPLETE``, a damaged one, or one whose ``meta.json`` disagrees
  with the parameters asked for, is rebuilt (with a warning) - an index is never reused for
  other parameters.
* The sparse backend's tokenised corpus is cached once per (corpus, analyzer) in the store
  ``retrieval_terms`` and sliced for every (n, seed); a loaded sparse index is kept in
  memory for the process (the last four), so several scorers share it.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from sumeval.cache import Store, atomic_write_json, cache_key
from sumeval.datasets.corpora import Corpus, open_corpus
from sumeval.errors import InputError
from sumeval.hashing import sha256_file
from sumeval.paths import cache_dir
from sumeval.retrieval.index_folder import (
    BUILDER_FILE,
    COMPLETE_MARKER,
    PARTIAL_MARK,
    build_state,
    file_digests,
    recorded_spec,
    remove_abandoned_builds,
    verify_index,
)

__all__ = ["BACKENDS", "IndexSpec", "Index", "build_index", "open_index", "list_indexes", "parse_index_name",
           "shuffle_order", "verify_index", "remove_abandoned_builds", "DEFAULT_INDEX", "check_index_params"]

BACKENDS = ("sparse", "whoosh")
DEFAULT_INDEX = "wikipedia:10000:0:sparse"


def _analyzer_id() -> str:
    from sumeval.retrieval import whoosh_backend as wb

    return f"{wb.ANALYZER}@whoosh-{wb.whoosh_version()}"


def shuffle_order(n_corpus: int, seed: int) -> np.ndarray:
    """The seeded shuffle of corpus positions: ``default_rng(seed).permutation(n_corpus)``."""
    return np.random.default_rng(seed).permutation(n_corpus)


@dataclass(frozen=True)
class IndexSpec:
    """Everything that identifies an index (and its cache key)."""

    corpus: str
    corpus_sha256: str
    n: int
    seed: int
    analyzer: str
    backend: str

    def key(self) -> str:
        return cache_key(kind="retrieval-index", **asdict(self))

    @property
    def name(self) -> str:
        return f"{self.corpus}:{self.n}:{self.seed}:{self.backend}"


def parse_index_name(name: str) -> dict[str, Any]:
    """``"CORPUS[:SIZE[:SEED]][:BACKEND]"`` -> ``{corpus, n, seed, backend}`` (defaults 10000, 0,
    sparse). SIZE and SEED are written in digits; the corpus may be a path that holds ``:``
    (the longest prefix that names a collection or an existing path is the corpus).

    Raises InputError naming the field at fault: ``wikipedia:abc`` (neither a size nor a
    backend), ``wikipedia:1e3`` (a size not in digits), ``wikipedia:1000:0:foo`` (an unknown
    backend).
    """
    from sumeval.datasets.corpora import CORPORA, CORPUS_GROUPS

    text = str(name)
    parts = text.split(":")
    first = max(1, len(parts) - 3)
    cut = next((i for i in range(len(parts), first - 1, -1)
                if ":".join(parts[:i]) in CORPORA or ":".join(parts[:i]) in CORPUS_GROUPS
                or Path(":".join(parts[:i])).expanduser().exists()), None)
    form = f"write CORPUS[:SIZE[:SEED[:BACKEND]]], e.g. {DEFAULT_INDEX!r}"
    if cut is None and len(parts) > 4:
        raise InputError(f"index name {text!r} has {len(parts)} ':'-separated fields, and no prefix of it "
                         f"names a collection or an existing path; {form}")
    if cut is None:  # an unknown corpus: it is reported when the index is opened
        cut = first
    corpus, fields = ":".join(parts[:cut]), parts[cut:]
    if not corpus:
        raise InputError(f"index name {text!r}: no corpus; {form}")
    out: dict[str, Any] = {"corpus": corpus, "n": 10_000, "seed": 0, "backend": "sparse"}
    if fields and fields[-1] in BACKENDS:
        out["backend"] = fields.pop()
    elif len(fields) == 3:
        raise InputError(f"index name {text!r}: unknown backend {fields[-1]!r}; choose one of "
                         f"{', '.join(BACKENDS)}")
    for pos, (key, what, value) in enumerate(zip(("n", "seed"), ("size", "seed"), fields)):
        if value.isascii() and value.isdigit():
            out[key] = int(value)
            continue
        last = pos == len(fields) - 1
        shape = ("a positive integer" if key == "n" else "a non-negative integer") + ", in digits"
        if last and value.isalpha():
            raise InputError(f"index name {text!r}: {value!r} is neither a {what} ({shape}) nor a backend "
                             f"({', '.join(BACKENDS)}); {form}")
        raise InputError(f"index name {text!r}: the {what} {value!r} is not {shape} (e.g. 1000, not 1e3 "
                         f"or 1,000); {form}")
    if out["n"] < 1:
        raise InputError(f"index name {text!r}: size 0: an index holds at least one document; {form}")
    return out


def _index_root(root: Path | None) -> Path:
    return (Path(root) if root is not None else cache_dir()) / "retrieval_indexes"


def check_index_params(n: Any, seed: Any, backend: str) -> None:
    """InputError naming the value for an unknown ``backend``, an index size ``n`` < 1 or a ``seed`` < 0."""
    if backend not in BACKENDS:
        raise InputError(f"unknown retrieval backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError(f"index size n must be a positive integer, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"index seed must be a non-negative integer, got {seed!r}")


# --------------------------------------------------------------------------------------------
# indexes
# --------------------------------------------------------------------------------------------
class Index:
    """A built index: ``search(queries, k)`` -> for each query its top-k corpus document ids."""

    def __init__(self, spec: IndexSpec, folder: Path, ids: list[str], meta: dict[str, Any]):
        self.spec, self.folder, self.ids, self.meta = spec, folder, ids, meta

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def key(self) -> str:
        return self.spec.key()

    def terms(self, query: str) -> list[str]:
        """The distinct analysed terms of an (escaped) query string, in order."""
        from sumeval.retrieval.whoosh_backend import analyze_query

        return list(dict.fromkeys(analyze_query(query)))

    def search_docnums(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[int]]:
        raise NotImplementedError

    def search(self, queries: Sequence[str], k: int = 10, *, progress: bool = False) -> list[list[str]]:
        """Top-k document ids of each (escaped) query string, best first.

        queries : n query strings (see :mod:`sumeval.retrieval.queries`); returns n lists of
        at most k ids (fewer when fewer documents contain a query term; empty for a query
        without terms).
        """
        if isinstance(queries, str):
            raise InputError("Index.search takes a list of query strings, got one string; wrap it in a list")
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise InputError(f"search cut-off k must be a positive integer, got {k!r}")
        return [[self.ids[d] for d in docs] for docs in self.search_docnums(list(queries), int(k), progress=progress)]

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} key={self.key[:12]}>"


class SparseIndex(Index):
    def __init__(self, spec: IndexSpec, folder: Path, ids: list[str], meta: dict[str, Any],
                 engine: Any):
        super().__init__(spec, folder, ids, meta)
        self.engine = engine

    def search_docnums(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[int]]:
        from sumeval.retrieval.whoosh_backend import analyze_query

        it: Any = queries
        if progress:
            from tqdm.auto import tqdm

            it = tqdm(queries, desc="analysing queries", unit="query")
        # BM25F sums over the *distinct* query terms, so queries with the same set of terms (e.g.
        # the raw and the keyword form of a summary) have the same ranking: search each set once
        keys = [tuple(sorted(set(analyze_query(q)))) for q in it]
        uniq = list(dict.fromkeys(keys))
        found = dict(zip(uniq, self.engine.top_k([list(u) for u in uniq], k)))
        return [found[key] for key in keys]


class WhooshIndex(Index):
    def __init__(self, spec: IndexSpec, folder: Path, ids: list[str], meta: dict[str, Any]):
        super().__init__(spec, folder, ids, meta)
        from sumeval.retrieval.whoosh_backend import WhooshSearcher

        self.searcher = WhooshSearcher(folder / "whoosh")

    def terms(self, query: str) -> list[str]:
        from sumeval.retrieval.whoosh_backend import query_terms

        return query_terms(query)

    def search_docnums(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[int]]:
        return self.searcher.search(queries, k, progress=progress)

    def close(self) -> None:
        self.searcher.close()


# --------------------------------------------------------------------------------------------
# building and loading
# --------------------------------------------------------------------------------------------
def _term_matrix(corpus: Corpus, sha: str, analyzer: str, *, root: Path | None, progress: bool,
                 docs: list | None = None):
    from sumeval.retrieval import sparse_backend as sb
    from sumeval.retrieval.whoosh_backend import analyze

    store = Store("retrieval_terms", root=root)
    key = cache_key(kind="term-matrix", corpus=corpus.name, corpus_sha256=sha, analyzer=analyzer)
    arrays = store.get_arrays(key)
    if arrays is not None:
        return sb.TermMatrix.from_arrays(arrays)
    from sumeval.datasets.corpora import CORPUS_GROUPS, open_corpus

    if corpus.name in CORPUS_GROUPS and corpus.description.startswith("group: "):
        # a group is its members one after the other: tokenise (or read) each member once, so
        # that 'wikipedia' and 'wikipedia-2015' / 'wikipedia-2018' share the work and the cache
        members = [open_corpus(m) for m in CORPUS_GROUPS[corpus.name]]
        tm = sb.concat_term_matrices([_term_matrix(m, m.fingerprint(), analyzer, root=root, progress=progress)
                                      for m in members])
        if len(set(tm.ids)) != len(tm.ids):
            raise InputError(f"corpus group {corpus.name!r}: a document id occurs in two of its members "
                             f"{', '.join(CORPUS_GROUPS[corpus.name])}; ids must be unique")
        return tm
    if docs is None:
        docs = corpus.documents()
    tm = sb.build_term_matrix(((d.id, d.text) for d in docs), analyze, progress=progress, total=len(docs))
    store.put_arrays(key, tm.to_arrays())
    return tm


_LOADED: dict[tuple[str, str], Index] = {}   # (folder, key) -> loaded sparse index, per process
#: (corpus name, sha256) -> (its document ids in order, documents skipped as empty), per process: the
#: size sweep builds 44 sparse indexes of 4 collections, and reading a collection took longer than
#: the index itself once its term matrix is cached
_CORPUS_IDS: dict[tuple[str, str], tuple[list[str], int]] = {}


def _load(spec: IndexSpec, folder: Path, corpus: Corpus, *, root: Path | None,
          progress: bool) -> Index:
    memo = (str(folder), spec.key())
    if spec.backend == "sparse" and memo in _LOADED:
        return _LOADED[memo]
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    with np.load(folder / "docs.npz", allow_pickle=False) as z:
        rows = z["rows"]
    ids = meta.get("ids")
    if spec.backend == "sparse":
        from sumeval.retrieval.sparse_backend import BM25F

        tm = _term_matrix(corpus, spec.corpus_sha256, spec.analyzer, root=root, progress=progress)
        ids = [tm.ids[r] for r in rows]
        ix = SparseIndex(spec, folder, ids, meta, BM25F(tm, rows))
        if len(_LOADED) >= 4:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[memo] = ix
        return ix
    return WhooshIndex(spec, folder, ids, meta)


def build_index(corpus: "str | Path | Corpus" = "wikipedia", n: int = 10_000, seed: int = 0,
                backend: str = "sparse", *, root: "str | Path | None" = None, rebuild: bool = False,
                progress: bool = False) -> Index:
    """Build (or load from the cache) the index of the first ``n`` documents of the seeded
    shuffle of ``corpus``.

    Args:
        corpus: a collection name, a path or a :class:`Corpus` (see :func:`open_corpus`)
        n: number of documents, 1 <= n <= N (the corpus size)
        seed: seed of the shuffle (``numpy.random.default_rng(seed).permutation(N)``)
        backend: ``"sparse"`` (default) or ``"whoosh"``
        root: cache root (default ``$SUMEVAL_CACHE``)
        rebuild: build again even when a complete cached index exists

    Returns:
        Index, whose ``meta`` records corpus, its sha256, N, n, seed, analyzer, backend, versions
        and build time.
    """
    check_index_params(n, seed, backend)
    corp = open_corpus(corpus)
    root_p = Path(root) if root is not None else None
    spec = IndexSpec(corp.name, corp.fingerprint(), int(n), int(seed), _analyzer_id(), backend)
    base = _index_root(root_p)
    folder = base / spec.key()
    remove_abandoned_builds(base)
    if folder.exists():
        problem = verify_index(folder)
        recorded = recorded_spec(folder)
        if problem is None and recorded == asdict(spec) and not rebuild:
            return _load(spec, folder, corp, root=root_p, progress=progress)
        _LOADED.pop((str(folder), spec.key()), None)
        if not rebuild:
            differ = recorded is not None and recorded != asdict(spec)
            why = ("an interrupted build (no COMPLETE marker)" if not (folder / COMPLETE_MARKER).is_file() else
                   f"a damaged index ({problem})" if problem else "") + \
                ("; " if problem and differ else "") + \
                ("an index whose recorded parameters differ from the ones asked for" if differ else "")
            warnings.warn(f"index cache {folder} holds {why}; rebuilding {spec.name}", stacklevel=2)
        shutil.rmtree(folder)

    t0 = time.perf_counter()
    known = _CORPUS_IDS.get((corp.name, spec.corpus_sha256)) if backend == "sparse" else None
    if known is None:
        docs = corp.documents()
        known = ([d.id for d in docs], len(corp.skipped))
        _CORPUS_IDS[(corp.name, spec.corpus_sha256)] = known
    else:  # a sparse index needs the corpus's ids only: its terms come from the cached term matrix
        docs = None
    all_ids, n_skipped = known
    n_corpus = len(all_ids)
    if n > n_corpus:
        raise InputError(f"index size n={n} exceeds the {n_corpus} documents of corpus {corp.name!r}; "
                         f"choose n <= {n_corpus}")
    rows = shuffle_order(n_corpus, seed)[:n]
    base.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f"{folder.name}{PARTIAL_MARK}", dir=base))
    os.chmod(tmp, 0o755)  # mkdtemp makes it private; a cache folder is as readable as its files
    try:
        from sumeval.runstate import owner_record

        atomic_write_json(tmp / BUILDER_FILE, {"name": spec.name, "key": spec.key(), **owner_record()})
        tm_seconds = None
        if backend == "whoosh":
            from sumeval.retrieval.whoosh_backend import build

            build(tmp / "whoosh", ((docs[r].id, docs[r].text) for r in rows), progress=progress, total=n)
        else:
            t1 = time.perf_counter()
            _term_matrix(corp, spec.corpus_sha256, spec.analyzer, root=root_p, progress=progress, docs=docs)
            tm_seconds = time.perf_counter() - t1
        with open(tmp / "docs.npz", "wb") as fh:
            np.savez(fh, rows=rows)
        from sumeval import __version__
        from sumeval.retrieval.whoosh_backend import whoosh_version

        meta = {
            "spec": asdict(spec), "name": spec.name, "key": spec.key(), "n_corpus": n_corpus,
            "shuffle": "numpy.random.default_rng(seed).permutation(n_corpus)[:n]",
            "bm25f": {"B": 0.75, "K1": 1.2}, "ids": [all_ids[r] for r in rows],
            "versions": {"sumeval": __version__, "whoosh": whoosh_version(),
                         "numpy": np.__version__},
            "skipped_empty": n_skipped,
            "build_seconds": round(time.perf_counter() - t0, 3),
            "term_matrix_seconds": None if tm_seconds is None else round(tm_seconds, 3),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "files": file_digests(tmp),
        }
        atomic_write_json(tmp / "meta.json", meta)
        (tmp / COMPLETE_MARKER).write_text(f"{spec.key()}\nmeta.json sha256={sha256_file(tmp / 'meta.json')}\n",
                                           encoding="utf-8")
        try:
            os.replace(tmp, folder)
        except OSError:
            # another process finished the same index first: keep theirs
            if not (folder / COMPLETE_MARKER).is_file():
                raise
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return _load(spec, folder, corp, root=root_p, progress=progress)


def open_index(name: str = DEFAULT_INDEX, *, root: "str | Path | None" = None,
               progress: bool = False) -> Index:
    """The index named ``"CORPUS:SIZE:SEED:BACKEND"`` (built if not cached)."""
    f = parse_index_name(name)
    return build_index(f["corpus"], f["n"], f["seed"], f["backend"], root=root, progress=progress)


def list_indexes(root: "str | Path | None" = None) -> list[dict[str, Any]]:
    """The cached indexes: one dict each with name, key, corpus, n, seed, backend, n_corpus,
    complete (True only for a whole, verified index), state (``complete``, ``damaged: ...``,
    ``incomplete: ...``, ``building (pid ... on host ...)`` or ``interrupted build (removed)``),
    build_seconds, created, folder.

    Build folders whose process is gone are removed here (and listed once as removed); every
    index is verified (:func:`verify_index`), so a damaged one is never called complete.
    """
    base = _index_root(Path(root) if root is not None else None)
    out: list[dict[str, Any]] = []
    if not base.is_dir():
        return out
    from sumeval.runstate import describe_owner

    for folder in sorted(base.iterdir()):
        if not folder.is_dir():
            continue
        if PARTIAL_MARK in folder.name:
            state, rec = build_state(folder)
            if state == "abandoned":
                shutil.rmtree(folder, ignore_errors=True)
                state = "interrupted build (its process is gone; removed)"
            else:
                state = f"building ({describe_owner(rec)})" if rec else "building"
            key = folder.name.split(PARTIAL_MARK)[0]
            out.append({"name": rec.get("name") or key, "key": key,
                        "corpus": None, "n": None, "seed": None, "backend": None, "n_corpus": None,
                        "complete": False, "state": state, "build_seconds": None, "created": None,
                        "folder": str(folder)})
            continue
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        spec = meta.get("spec", {}) if isinstance(meta, dict) else {}
        problem = verify_index(folder)
        if problem is None:
            state = "complete"
        elif not (folder / COMPLETE_MARKER).is_file():
            state = f"incomplete: {problem}; rebuilt on next use"
        else:
            state = f"damaged: {problem}; rebuilt on next use"
        out.append({
            "name": meta.get("name") or folder.name, "key": folder.name, "corpus": spec.get("corpus"),
            "n": spec.get("n"), "seed": spec.get("seed"), "backend": spec.get("backend"),
            "n_corpus": meta.get("n_corpus"), "complete": problem is None, "state": state,
            "build_seconds": meta.get("build_seconds"), "created": meta.get("created"),
            "folder": str(folder),
        })
    return out
