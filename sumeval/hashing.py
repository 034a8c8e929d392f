"""sha256 of files and texts: the one implementation the package hashes content with.

>>> sha256_text("abc")[:16]
'ba7816bf8f01cfea'
>>> sha256_text("abc", length=8)
'ba7816bf'
"""
from __future__ import annotations

import hashlib
import os

__all__ = ["sha256_file", "sha256_text", "update_with_file"]

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
