"""Content-addressed on-disk store with atomic writes.

A cache key hashes everything that changes a result: the model identity and revision, the
inputs, the parameters, and the package version. Entries are written to a temporary file in
the same folder and renamed into place, so a reader never sees a half-written entry and an
interrupted writer leaves nothing behind but a stray temporary file (ignored, and removed by
``Store.clear_partial``).

Every entry verifies itself: its first line is ``sumeval-store-v1 sha256=<hex>``, the sha256 of
the rest of the file (the payload: an ``.npz``, UTF-8 JSON or parquet file). An entry that was
truncated, bit-flipped or is otherwise unreadable is removed on load, with one warning
(:class:`DamagedCacheWarning`) per store folder and process, and read as absent, so the caller
computes it again. Entries written before the header existed are read as they are; a damaged
one of those is caught by its format (zip CRC, JSON syntax, parquet footer).

The cache is an optimisation: an entry that cannot be written (a full disk, a read-only cache
folder) is skipped with one warning per cache folder and process (:class:`CacheWriteWarning`,
naming the cache and the error), and ``put_*`` returns None; the caller goes on with its result.

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
import io
import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np

from sumeval import __version__
from sumeval.paths import cache_dir

_PARTIAL_SUFFIX = ".partial"
_MAGIC = b"sumeval-store-v1 sha256="
_HEADER_LEN = len(_MAGIC) + 64 + 1  # magic, hex digest, newline
_WARNED: set[str] = set()  # store folders whose first damaged entry was reported
_WRITE_WARNED: set[str] = set()  # cache roots whose first failed write was reported


class DamagedCacheWarning(UserWarning):
    """A cache entry could not be read back (truncated, altered); it was removed and is recomputed."""


class CacheWriteWarning(UserWarning):
    """A cache entry could not be written (a full or read-only disk); the result is used anyway and
    the run goes on without caching (one warning per cache folder and process)."""


def _with_header(payload: bytes) -> bytes:
    """``payload`` behind its check line ``sumeval-store-v1 sha256=<hex of sha256(payload)>``."""
    return _MAGIC + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload


def _check_payload(fh) -> None:
    """Check the entry open in binary file ``fh`` against its header and leave ``fh`` at the
    start of its payload (an entry without the header, written by an older version, is left
    unchecked at offset 0). The payload is hashed in blocks, never held in memory whole.
    Raises ValueError when it does not match its sha256."""
    head = fh.read(_HEADER_LEN)
    if not head.startswith(_MAGIC):
        fh.seek(0)
        return
    if len(head) != _HEADER_LEN or not head.endswith(b"\n"):
        raise ValueError("its checksum line is cut short")
    want = head[len(_MAGIC):-1].decode("ascii", "replace")
    h, n = hashlib.sha256(), 0
    for block in iter(lambda: fh.read(1 << 20), b""):
        h.update(block)
        n += len(block)
    if h.hexdigest() != want:
        raise ValueError(f"the sha256 of its {n} payload bytes is {h.hexdigest()[:12]}..., "
                         f"its header says {want[:12]}...")
    fh.seek(_HEADER_LEN)


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

    An OSError of the write itself (a full disk, an immutable or read-only file: raised while
    creating, writing or renaming the temporary file) is raised again naming ``path``, the file
    the caller asked for, not the temporary file (``exc.filename == str(path)``; the original is
    its ``__cause__``).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_PARTIAL_SUFFIX, dir=target.parent)
    except OSError as exc:
        raise _naming(exc, target, None) from exc
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, _file_mode(target))
        os.replace(tmp_path, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        renamed = _naming(exc, target, tmp_path) if isinstance(exc, OSError) else exc
        if renamed is not exc:
            raise renamed from exc
        raise


def _naming(exc: OSError, target: Path, tmp: Path | None) -> OSError:
    """``exc`` (an OSError of writing ``target`` through ``tmp``) as a new OSError of the same
    errno naming ``target``; ``exc`` itself when it is sumeval's own error, has no errno or names
    another file (an error of reading some input inside the block)."""
    from sumeval.errors import SumevalError

    names = {None, str(target)} | ({str(tmp)} if tmp is not None else set())
    if isinstance(exc, SumevalError) or exc.errno is None or (
            exc.filename is not None and str(exc.filename) not in names
            and not str(exc.filename).endswith(_PARTIAL_SUFFIX)):
        return exc
    return OSError(exc.errno, exc.strerror or str(exc), str(target))


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

    Args:
        namespace: A folder name such as ``"masked_embeddings"`` or ``"retrieval"``.
        root: Cache root; defaults to :func:`sumeval.paths.cache_dir` (``$SUMEVAL_CACHE``).
    """

    def __init__(self, namespace: str, root: str | os.PathLike[str] | None = None):
        if not namespace or "/" in namespace or namespace.startswith("."):
            raise ValueError(f"Store: bad namespace {namespace!r}; use a plain folder name")
        self.namespace = namespace
        self.root = Path(root) if root is not None else cache_dir()
        self.damaged = 0  # damaged entries this Store removed
        self.write_failures = 0  # entries this Store could not write (CacheWriteWarning)

    @property
    def folder(self) -> Path:
        return self.root / self.namespace

    def path(self, key: str, ext: str) -> Path:
        return self.folder / key[:2] / f"{key}.{ext}"

    def has(self, key: str, ext: str) -> bool:
        return self.path(key, ext).is_file()

    # reading and dropping -----------------------------------------------------------------
    def _read(self, key: str, ext: str, decode) -> Any | None:
        """``decode(fh)`` of the entry (``fh``: the file, at the start of the checked payload),
        or None when it is absent or damaged (then removed)."""
        p = self.path(key, ext)
        try:
            fh = open(p, "rb")
        except FileNotFoundError:
            return None
        with fh:
            stat = os.fstat(fh.fileno())
            try:
                _check_payload(fh)
                return decode(fh)
            except Exception as exc:  # noqa: BLE001 - an entry that cannot be read back is damaged
                why = f"{type(exc).__name__}: {str(exc)[:160]}"
        self._drop(p, stat, why)
        return None

    def _drop(self, p: Path, stat: os.stat_result, why: str) -> None:
        """Remove damaged entry ``p`` (unless another process replaced it meanwhile); warn once
        per store folder and process."""
        removed = False
        with contextlib.suppress(OSError):
            now = os.stat(p)
            if (now.st_ino, now.st_size, now.st_mtime_ns) == (stat.st_ino, stat.st_size, stat.st_mtime_ns):
                p.unlink()
                removed = True
        self.damaged += 1
        folder = str(self.folder.resolve())
        if folder in _WARNED:
            return
        _WARNED.add(folder)
        what = "removed it" if removed else "could not remove it"
        warnings.warn(f"cache entry {p} is damaged ({why}); {what} and will compute it again "
                      f"(further damaged entries under {self.folder} are handled the same way "
                      "without another warning)", DamagedCacheWarning, stacklevel=4)

    def _write(self, key: str, ext: str, payload: bytes) -> Path | None:
        """Write the entry; None when it could not be written (see :class:`CacheWriteWarning`)."""
        p = self.path(key, ext)
        try:
            with atomic_path(p) as tmp:
                tmp.write_bytes(_with_header(payload))
        except OSError as exc:  # a full or read-only cache disk: the cache is only an optimisation
            self.write_failures += 1
            root = str(self.root.resolve())
            if root not in _WRITE_WARNED:
                _WRITE_WARNED.add(root)
                warnings.warn(f"cannot write to the cache {self.root} ({exc.strerror or exc}: {p}); going on "
                              "without caching - results are computed and kept as usual, but not saved for "
                              "the next run. Free space there, or point SUMEVAL_CACHE at a writable folder "
                              "(further failures under this cache are not reported again)",
                              CacheWriteWarning, stacklevel=3)
            return None
        return p

    # numpy arrays -------------------------------------------------------------------------
    def get_arrays(self, key: str) -> dict[str, np.ndarray] | None:
        """The arrays stored under ``key``, or None when absent or damaged."""
        def decode(fh) -> dict[str, np.ndarray]:
            # the zip reader finds its members past the header line (data before a zip is allowed)
            with np.load(fh, allow_pickle=False) as z:
                return {name: z[name] for name in z.files}

        return self._read(key, "npz", decode)

    def put_arrays(self, key: str, arrays: Mapping[str, np.ndarray]) -> Path | None:
        buf = io.BytesIO()
        np.savez(buf, **{k: np.asarray(v) for k, v in arrays.items()})
        return self._write(key, "npz", buf.getvalue())

    # JSON ---------------------------------------------------------------------------------
    def get_json(self, key: str) -> Any | None:
        """The JSON value stored under ``key``, or None when absent or damaged."""
        return self._read(key, "json", lambda fh: json.loads(fh.read().decode("utf-8")))

    def put_json(self, key: str, obj: Any) -> Path | None:
        text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
        return self._write(key, "json", text.encode("utf-8"))

    # pandas frames ------------------------------------------------------------------------
    def get_frame(self, key: str):
        """The frame stored under ``key``, or None when absent or damaged."""
        import pandas as pd

        return self._read(key, "parquet", lambda fh: pd.read_parquet(io.BytesIO(fh.read())))

    def put_frame(self, key: str, frame) -> Path | None:
        buf = io.BytesIO()
        frame.to_parquet(buf, index=False)
        return self._write(key, "parquet", buf.getvalue())

    # housekeeping -------------------------------------------------------------------------
    def clear_partial(self) -> int:
        """Remove temporary files left by interrupted writers; return how many."""
        n = 0
        if self.folder.is_dir():
            for p in self.folder.rglob(f"*{_PARTIAL_SUFFIX}"):
                p.unlink(missing_ok=True)
                n += 1
        return n
