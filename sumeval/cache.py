"""Content-addressed on-disk store with atomic writes.

A cache key hashes everything that changes a result: the model identity and revision, the
inputs, the parameters, and the package version. Entries are written to a temporary file in
the same folder and renamed into place, so a reader never sees a half-written entry and an
interrupted writer leaves nothing behind but a stray temporary file (ignored, and removed by
``Store.clear_partial``).

Example::

    store = Store("masked_embeddings")
    k = cache_key(model="all-mpnet-base-v2", text=text, window=450)
    arrays = store.get_arrays(k)
    if arrays is None:
        arrays = compute(...)
        store.put_arrays(k, arrays)
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np

from sumeval import __version__
from sumeval.paths import cache_dir

_PARTIAL_SUFFIX = ".partial"


def _canonical(value: Any) -> Any:
    """A JSON-serialisable, order-stable form of ``value`` for hashing."""
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_canonical(v) for v in value)
    if isinstance(value, np.ndarray):
        return {"__ndarray__": hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest(),
                "dtype": str(value.dtype), "shape": list(value.shape)}
    if isinstance(value, (np.integer, np.floating)):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(
        f"cache_key: cannot hash a value of type {type(value).__name__!r} ({value!r:.80}); "
        "pass strings, numbers, lists, dicts or numpy arrays"
    )


def cache_key(*, include_version: bool = True, **parts: Any) -> str:
    """Hex sha256 of the named ``parts`` (and, by default, the package version)."""
    payload = dict(parts)
    if include_version:
        payload["__sumeval_version__"] = __version__
    blob = json.dumps(_canonical(payload), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def current_umask() -> int:
    """The process's umask (e.g. ``0o022``), read without changing it where the system allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore (the only portable way to read it)
    os.umask(mask)
    return mask


def _file_mode(target: Path) -> int:
    """Permission bits for a file written to ``target``: those of the regular file it replaces,
    else ``0o666`` less the umask (as ``open(target, "w")`` would give)."""
    try:
        st = os.stat(target)
    except OSError:
        return 0o666 & ~current_umask()
    import stat

    return stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else 0o666 & ~current_umask()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it to ``path`` if the block succeeds.

    On an exception the temporary file is removed and ``path`` is left untouched. The file gets
    the permissions of the file it replaces, or of a new file under the umask (``0o644`` under
    umask 022), not the private ``0o600`` of the temporary file.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_PARTIAL_SUFFIX, dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, _file_mode(target))
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)
    return Path(path)


def atomic_write_json(path: str | os.PathLike[str], obj: Any, **dump_kwargs: Any) -> Path:
    """Write ``obj`` as JSON to ``path`` atomically (indent 2, UTF-8, NaN allowed)."""
    dump_kwargs.setdefault("indent", 2)
    dump_kwargs.setdefault("ensure_ascii", False)
    return atomic_write_text(path, json.dumps(obj, **dump_kwargs) + "\n")


class Store:
    """One namespace of the cache: ``<cache_dir>/<namespace>/<key[:2]>/<key>.<ext>``.

    Parameters
    ----------
    namespace : str
        A folder name such as ``"masked_embeddings"`` or ``"retrieval"``.
    root : path, optional
        Cache root; defaults to :func:`sumeval.paths.cache_dir` (``$SUMEVAL_CACHE``).
    """

    def __init__(self, namespace: str, root: str | os.PathLike[str] | None = None):
        if not namespace or "/" in namespace or namespace.startswith("."):
            raise ValueError(f"Store: bad namespace {namespace!r}; use a plain folder name")
        self.namespace = namespace
        self.root = Path(root) if root is not None else cache_dir()

    @property
    def folder(self) -> Path:
        return self.root / self.namespace

    def path(self, key: str, ext: str) -> Path:
        return self.folder / key[:2] / f"{key}.{ext}"

    def has(self, key: str, ext: str) -> bool:
        return self.path(key, ext).is_file()

    # numpy arrays -------------------------------------------------------------------------
    def get_arrays(self, key: str) -> dict[str, np.ndarray] | None:
        """The arrays stored under ``key``, or None when absent."""
        p = self.path(key, "npz")
        if not p.is_file():
            return None
        with np.load(p, allow_pickle=False) as z:
            return {name: z[name] for name in z.files}

    def put_arrays(self, key: str, arrays: Mapping[str, np.ndarray]) -> Path:
        p = self.path(key, "npz")
        with atomic_path(p) as tmp:
            with open(tmp, "wb") as fh:
                np.savez(fh, **{k: np.asarray(v) for k, v in arrays.items()})
        return p

    # JSON ---------------------------------------------------------------------------------
    def get_json(self, key: str) -> Any | None:
        p = self.path(key, "json")
        if not p.is_file():
            return None
        return json.loads(p.read_text(encoding="utf-8"))

    def put_json(self, key: str, obj: Any) -> Path:
        return atomic_write_json(self.path(key, "json"), obj)

    # pandas frames ------------------------------------------------------------------------
    def get_frame(self, key: str):
        p = self.path(key, "parquet")
        if not p.is_file():
            return None
        import pandas as pd

        return pd.read_parquet(p)

    def put_frame(self, key: str, frame) -> Path:
        p = self.path(key, "parquet")
        with atomic_path(p) as tmp:
            frame.to_parquet(tmp, index=False)
        return p

    # housekeeping -------------------------------------------------------------------------
    def clear_partial(self) -> int:
        """Remove temporary files left by interrupted writers; return how many."""
        n = 0
        if self.folder.is_dir():
            for p in self.folder.rglob(f"*{_PARTIAL_SUFFIX}"):
                p.unlink(missing_ok=True)
                n += 1
        return n
