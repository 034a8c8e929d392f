"""sha256 of files and texts: the one implementation the package hashes content with.

:func:`remembered_sha256` hashes a file once per (path, size, mtime_ns): the data files the
registry verifies and the model weights a fingerprint covers share one memo, kept in memory and
in ``data_checks.json`` in the cache folder (its name from when it held data files only).

>>> sha256_text("abc")[:16]
'ba7816bf8f01cfea'
>>> sha256_text("abc", length=8)
'ba7816bf'
>>> sha256_json({"b": 1, "a": [2]}, length=8) == sha256_json({"a": [2], "b": 1}, length=8)
True
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from sumeval.paths import cache_dir

__all__ = ["sha256_file", "sha256_text", "sha256_json", "update_with_file", "remembered_sha256", "save_file_hashes",
           "forget_file_hashes"]

_BLOCK = 1 << 20


def update_with_file(h: "hashlib._Hash", path: str | os.PathLike[str], chunk: int = _BLOCK) -> None:
    """Feed the bytes of the file at ``path`` into the running hash ``h``, ``chunk`` bytes at a time.

    Args:
        h: a ``hashlib`` object (e.g. ``hashlib.sha256()``), updated in place.
        path: the file to read.
        chunk: block size in bytes (memory bound; the digest does not depend on it).
    """
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            h.update(block)


def sha256_file(path: str | os.PathLike[str], chunk: int = _BLOCK) -> str:
    """Hex sha256 of the bytes of the file at ``path`` (read in ``chunk``-byte blocks).

    Args:
        path: the file to hash.
        chunk: block size in bytes.

    Returns:
        64 lower-case hex digits.
    """
    h = hashlib.sha256()
    update_with_file(h, path, chunk)
    return h.hexdigest()


def sha256_text(text: str, length: int | None = None) -> str:
    """Hex sha256 of ``text`` encoded as UTF-8, cut to its first ``length`` digits (all 64 by default).

    Args:
        text: the text to hash.
        length: how many hex digits to keep; None keeps all 64.

    Returns:
        Lower-case hex digits.
    """
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return digest if length is None else digest[:length]


def sha256_json(obj: object, length: int | None = None) -> str:
    """Hex sha256 of ``json.dumps(obj, sort_keys=True, default=str)``, cut to ``length`` digits.

    The short digests in run and sweep ids (:func:`sumeval.running.runner.new_run_id`,
    :mod:`sumeval.running.sweep`); cache entries use :func:`sumeval.cache.cache_key`, whose canonical
    form (numpy arrays, no ``str`` fallback, the package version) gives other digests, so the ids
    of existing runs and sweeps keep theirs.

    Args:
        obj: JSON-like value; other values are written as ``str(value)``.
        length: how many hex digits to keep; None keeps all 64.
    """
    return sha256_text(json.dumps(obj, sort_keys=True, default=str), length)


# ------------------------------------------------------------------------------------------
# a memo of file hashes keyed by (path, size, mtime_ns)
# ------------------------------------------------------------------------------------------
_MEMO_NAME = "data_checks.json"
_lock = threading.Lock()
_memory: dict[str, dict] = {}  # resolved path -> {"size", "mtime_ns", "sha256"}
_loaded_from: Path | None = None


def _memo_file() -> Path:
    return cache_dir() / _MEMO_NAME


def _load_memo() -> None:
    """Merge ``data_checks.json`` into memory (once per cache location). Caller holds the lock."""
    global _loaded_from
    target = _memo_file()
    if _loaded_from == target:
        return
    _memory.clear()
    _loaded_from = target
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, OSError):
        return  # no memo yet, or an unreadable one: it is rebuilt as files are hashed
    if isinstance(data, dict):
        for key, entry in data.get("files", {}).items():
            if isinstance(entry, dict) and {"size", "mtime_ns", "sha256"} <= entry.keys():
                _memory[key] = entry


def _save_memo() -> None:
    """Write the in-memory hashes to ``data_checks.json`` atomically. Caller holds the lock."""
    from sumeval.cache import atomic_write_json

    target = _memo_file()
    # merge with what another process may have written meanwhile; ours wins on conflicts
    try:
        on_disk = json.loads(target.read_text(encoding="utf-8")).get("files", {})
        if not isinstance(on_disk, dict):
            on_disk = {}
    except (FileNotFoundError, ValueError, OSError, AttributeError):
        on_disk = {}
    merged = {**on_disk, **_memory}
    try:
        atomic_write_json(target, {"version": 1, "files": merged}, indent=1)
    except OSError:
        pass  # a read-only cache folder only costs re-hashing next time


def save_file_hashes() -> None:
    """Write the hashes remembered in memory to ``data_checks.json`` (merged with what is there)."""
    with _lock:
        _load_memo()
        _save_memo()


def forget_file_hashes(disk: bool = False) -> None:
    """Forget the remembered hashes (in memory; also ``data_checks.json`` when ``disk``)."""
    global _loaded_from
    with _lock:
        _memory.clear()
        _loaded_from = None
        if disk:
            _memo_file().unlink(missing_ok=True)


def remembered_sha256(path: str | os.PathLike[str], save: bool = True) -> str:
    """sha256 of the file at ``path``, reusing a remembered hash while its size and mtime_ns
    are unchanged.

    Args:
        path: the file.
        save: write a new hash to ``data_checks.json`` too (else it is remembered in memory only).

    Returns:
        64 hex digits (:func:`sha256_file`); a file that changed while being read is reported
        and not remembered.
    """
    path = Path(path).resolve()
    st = path.stat()
    key = str(path)
    with _lock:
        _load_memo()
        entry = _memory.get(key)
        if entry and entry["size"] == st.st_size and entry["mtime_ns"] == st.st_mtime_ns:
            return entry["sha256"]
    digest = sha256_file(path)
    after = path.stat()
    if (after.st_size, after.st_mtime_ns) != (st.st_size, st.st_mtime_ns):
        return digest  # changed while being read: report it, remember nothing
    with _lock:
        _load_memo()
        _memory[key] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest}
        if save:
            _save_memo()
    return digest
