"""An index's folder on disk: whether a built index is whole (:func:`verify_index`), whether a
``.partial-*`` build is still running or was abandoned, and removing the abandoned ones.

A finished folder holds ``meta.json`` (which records the sha256 of every other file), ``docs.npz``,
``whoosh/`` (whoosh backend), ``BUILDER.json`` (who built it) and ``COMPLETE`` (the sha256 of
``meta.json``), written last. :mod:`sumeval.retrieval.index` builds and opens indexes.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from sumeval.hashing import sha256_file

__all__ = ["verify_index", "remove_abandoned_builds", "COMPLETE_MARKER", "BUILDER_FILE", "PARTIAL_MARK", "build_state",
           "file_digests", "recorded_spec"]

COMPLETE_MARKER = "COMPLETE"
BUILDER_FILE = "BUILDER.json"  # pid, host and start of the build (kept in the finished index)
PARTIAL_MARK = ".partial-"
_LEGACY_PARTIAL_GRACE_S = 600  # a partial folder without BUILDER.json this old is abandoned


def file_digests(folder: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of every file under ``folder`` (``docs.npz``, ``whoosh/...``)."""
    return {f.relative_to(folder).as_posix(): sha256_file(f)
            for f in sorted(folder.rglob("*")) if f.is_file() and f.name not in (BUILDER_FILE, COMPLETE_MARKER)}


def verify_index(folder: Path) -> str | None:
    """What is wrong with the built index in ``folder``, or None when it is whole.

    Checks ``COMPLETE``, ``meta.json`` against the sha256 that ``COMPLETE`` records, every file
    against the sha256 that ``meta.json`` records, and that ``docs.npz`` holds ``n`` positions.
    Indexes built before the checksums were recorded get the last check only (the zip CRC of
    ``docs.npz`` catches a changed byte of it).
    """
    folder = Path(folder)
    try:
        complete = (folder / COMPLETE_MARKER).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return "no COMPLETE marker (an interrupted build)"
    except (OSError, UnicodeDecodeError) as exc:
        return f"COMPLETE is unreadable ({type(exc).__name__})"
    want_meta = next((ln.split("sha256=", 1)[1] for ln in complete if ln.startswith("meta.json sha256=")), None)
    try:
        if want_meta is not None and sha256_file(folder / "meta.json") != want_meta:
            return "meta.json differs from the sha256 recorded in COMPLETE"
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "meta.json is missing"
    except (OSError, ValueError) as exc:
        return f"meta.json is unreadable ({type(exc).__name__})"
    for rel, want in (meta.get("files") or {}).items():
        f = folder / rel
        if not f.is_file():
            return f"{rel} is missing"
        if sha256_file(f) != want:
            return f"{rel} differs from the sha256 recorded in meta.json"
    try:
        with np.load(folder / "docs.npz", allow_pickle=False) as z:
            rows = z["rows"]
    except FileNotFoundError:
        return "docs.npz is missing"
    except Exception as exc:  # noqa: BLE001 - BadZipFile, CRC errors, bad headers: all damage
        return f"docs.npz is unreadable ({type(exc).__name__}: {str(exc)[:80]})"
    n = (meta.get("spec") or {}).get("n")
    if rows.ndim != 1 or (n is not None and len(rows) != n):
        return f"docs.npz holds {rows.shape} positions, meta.json says n={n}"
    return None


def build_state(folder: Path) -> tuple[str, dict[str, Any]]:
    """``("building" | "abandoned", BUILDER.json record)`` of a ``.partial-*`` build folder."""
    from sumeval.runstate import owner_alive

    try:
        rec = json.loads((folder / BUILDER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        rec = {}
    if rec:
        return ("abandoned" if owner_alive(rec) is False else "building"), rec
    try:
        age = time.time() - folder.stat().st_mtime
    except OSError:
        return "abandoned", rec
    return ("abandoned" if age > _LEGACY_PARTIAL_GRACE_S else "building"), rec


def remove_abandoned_builds(base: Path) -> list[Path]:
    """Remove the ``.partial-*`` folders under ``base`` whose builder is gone (killed, crashed);
    return them. Builds of live processes, and of other hosts, are left alone."""
    removed = []
    if base.is_dir():
        for folder in sorted(base.iterdir()):
            if folder.is_dir() and PARTIAL_MARK in folder.name and build_state(folder)[0] == "abandoned":
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    return removed


def recorded_spec(folder: Path) -> dict[str, Any] | None:
    """The spec that ``folder/meta.json`` records, or None when it cannot be read."""
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta.get("spec") if isinstance(meta, dict) else None
