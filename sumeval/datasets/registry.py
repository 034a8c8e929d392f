"""Registry of the data sets sumeval reads: finding, verifying and listing their files.

Every data file the package reads is recorded in :mod:`sumeval.datasets.recorded` with its
sha256 and size (computed from the shared copy), grouped per data set, together with the public
repository (and commit) it was taken from, its licence and a one-line description, so a user
elsewhere can obtain it; this module re-exports :data:`DATASETS` and :class:`DatasetInfo`.

Finding a file
--------------
:func:`locate` searches the folders of :func:`sumeval.paths.data_search_path`, in order:

1. every folder in ``$SUMEVAL_DATA`` (several may be given, separated by ``os.pathsep``),
2. ``<project root>/data``,
3. ``<project root>/../shared/data``.

The first folder that holds the path wins; a corrupt copy there is an error (it does not fall
through to the next folder), so what is read is always what is verified.

Verification
------------
A registered file is checked against its recorded size and sha256. Hashing is done once per
``(resolved path, size, mtime_ns)`` (:func:`sumeval.hashing.remembered_sha256`): the result is
kept in memory and in ``<cache_dir>/data_checks.json`` (written atomically), so later calls and later processes only
``stat`` the file. Editing, replacing or touching a file changes its size or mtime and forces a
new hash.

A path that is *not* in the registry (a user's own data placed in a data folder) is still found
by :func:`locate`, but it cannot be verified: it is returned as is. :func:`checksums` still
reports its actual sha256, so run manifests record what was read; :func:`accessed` lists
``{relpath: sha256}`` of every file located in the current process.

Example::

    from sumeval.datasets.registry import locate, verify_all
    path = locate("summeval/summeval_pairs_1600.jsonl")      # Path, verified
    report = verify_all()                                    # every registered file
    print(report)
"""
from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from sumeval.datasets.recorded import DATASETS, DatasetInfo
from sumeval.errors import DataNotFoundError, InputError
from sumeval.hashing import remembered_sha256, save_file_hashes
from sumeval.paths import data_search_path

__all__ = [
    "FileCheck",
    "VerifyReport",
    "datasets",
    "info",
    "files",
    "dataset_of",
    "is_registered",
    "expected",
    "locate",
    "verify_all",
    "checksums",
    "combined_sha256",
    "accessed",
]

_BY_FILE: dict[str, str] = {p: d.name for d in DATASETS.values() for p in d.files}


# ------------------------------------------------------------------------------------------
# Listing
# ------------------------------------------------------------------------------------------
def datasets() -> list[str]:
    """Names of the registered data sets, in registry order (``"summeval"``, ``"realsumm"``, ...)."""
    return list(DATASETS)


def info(dataset: str) -> DatasetInfo:
    """The :class:`DatasetInfo` of ``dataset``; :class:`InputError` naming the known ones if unknown."""
    try:
        return DATASETS[dataset]
    except KeyError:
        raise InputError(
            f"unknown data set {dataset!r}; registered data sets: {', '.join(DATASETS)}"
        ) from None


def files(dataset: str) -> list[str]:
    """Registered paths (relative to a data folder) of ``dataset``'s files, sorted."""
    return sorted(info(dataset).files)


def _norm(relpath: str | os.PathLike[str]) -> str:
    """``relpath`` as a registry key: forward slashes, no leading ``./`` or trailing ``/``."""
    text = Path(relpath).as_posix()
    if Path(relpath).is_absolute() or text.startswith("../") or "/../" in f"/{text}/":
        raise InputError(
            f"data path {str(relpath)!r} must be relative to a data folder and stay inside it, "
            "e.g. 'summeval/summeval_pairs_1600.jsonl'"
        )
    return text.removeprefix("./").rstrip("/") if text != "." else ""


def dataset_of(relpath: str | os.PathLike[str]) -> str | None:
    """Name of the data set that registers ``relpath`` (a file), or None for unregistered paths."""
    return _BY_FILE.get(_norm(relpath))


def is_registered(relpath: str | os.PathLike[str]) -> bool:
    """True when ``relpath`` is a registered file."""
    return _norm(relpath) in _BY_FILE


def expected(relpath: str | os.PathLike[str]) -> tuple[str, int]:
    """Recorded ``(sha256, size)`` of a registered file; :class:`InputError` for others."""
    key = _norm(relpath)
    if key not in _BY_FILE:
        raise InputError(f"{key!r} is not a registered data file; see registry.datasets()")
    return DATASETS[_BY_FILE[key]].files[key]


def _registered_under(prefix: str) -> list[str]:
    """Registered files at or below folder ``prefix`` (all of them for an empty prefix)."""
    if not prefix:
        return sorted(_BY_FILE)
    return sorted(p for p in _BY_FILE if p.startswith(prefix + "/"))


# ------------------------------------------------------------------------------------------
# Locating and verifying
# ------------------------------------------------------------------------------------------
def _how_to_obtain(relpath: str) -> str:
    """Where to get ``relpath``: its data set's source, or a note that it is not registered."""
    name = _BY_FILE.get(relpath)
    if name is not None:
        return f"it belongs to data set {name!r}: {DATASETS[name].how_to_obtain()}"
    for d in DATASETS.values():
        if any(p.startswith(relpath + "/") for p in d.files):
            return f"it is a folder of data set {d.name!r}: {d.how_to_obtain()}"
    owners = [d for d in DATASETS.values()
              if any(relpath.startswith(folder + "/") for folder in d.folders)]
    note = ("it is not a registered data file (a user's own file: put it in one of these "
            "folders, or add its folder to $SUMEVAL_DATA)")
    if owners:
        note += "; its folder holds data set(s) " + ", ".join(
            f"{d.name!r} ({d.how_to_obtain()})" for d in owners)
    return note


def _sentence(text: str) -> str:
    """``text`` with its first letter upper-cased (unlike ``str.capitalize``, keeps the rest)."""
    return text[:1].upper() + text[1:]


def _check(relpath: str, path: Path) -> str:
    """Verify registered file ``relpath`` found at ``path``; return its sha256 or raise."""
    want_sha, want_size = DATASETS[_BY_FILE[relpath]].files[relpath]
    actual = remembered_sha256(path)
    if actual != want_sha:
        size = path.stat().st_size
        raise DataNotFoundError(
            f"data file {relpath!r} at {path} does not match its recorded checksum: "
            f"expected sha256 {want_sha} ({want_size} bytes), actual sha256 {actual} "
            f"({size} bytes). The copy is corrupt, truncated or a different version: replace it "
            f"with the original ({_how_to_obtain(relpath)}), or remove it so that the next "
            "folder of the data search path is used."
        )
    return actual


def _not_found(relpath: str, places: list[Path]) -> DataNotFoundError:
    searched = "; ".join(str(p / relpath) for p in places)
    return DataNotFoundError(
        f"data file {relpath!r} not found; searched, in order: {searched}. "
        f"{_sentence(_how_to_obtain(relpath))}. Put a copy under one of these folders, or set "
        f"$SUMEVAL_DATA to the folder that holds {relpath!r} (several folders may be joined "
        f"with {os.pathsep!r})."
    )


def locate(relpath: str | os.PathLike[str], verify: bool = True) -> Path:
    """Path of data file (or folder) ``relpath``, found in :func:`sumeval.paths.data_search_path`.

    Args:
        relpath: Path relative to a data folder, e.g. ``"summeval/summeval_pairs_1600.jsonl"`` or
            ``"corpora/wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz"``. A folder (``"realsumm/raw"``) is returned
            from the first data folder that has it.
        verify: Check registered files against their recorded sha256 (cached by path, size and mtime_ns, so
            only the first call per file version hashes it). For a folder, every registered file below it must be
            present there and match. Unregistered files are returned unverified.

    Returns:
        pathlib.Path: The absolute path in the first data folder that holds ``relpath``.

    Raises:
        DataNotFoundError: When no data folder holds ``relpath`` (the message names the file, every place searched
            and where to obtain it), or when the first copy found does not match its checksum (the message names the
            file, the expected and actual sha256 and the fix).
    """
    key = _norm(relpath)
    places = data_search_path()
    for root in places:
        path = root / key
        if not path.exists():
            continue
        if verify:
            if path.is_dir():
                for sub in _registered_under(key):
                    sub_path = root / sub
                    if not sub_path.is_file():
                        raise DataNotFoundError(
                            f"data folder {key!r} at {path} is incomplete: registered file "
                            f"{sub!r} is missing there. {_sentence(_how_to_obtain(sub))}."
                        )
                    _check(sub, sub_path)
            elif key in _BY_FILE:
                _check(key, path)
        with _lock:
            _accessed[key] = path
        return path
    raise _not_found(key, places)


_lock = threading.Lock()
_accessed: dict[str, Path] = {}  # relpath -> path, for every successful locate() in this process


def accessed() -> dict[str, str]:
    """``{relpath: sha256}`` of every data file located in this process, for run manifests.

    A located folder contributes each file below it (``folder/child`` keys). Hashes come from
    the verification cache; files located without verification are hashed now (once).
    """
    with _lock:
        seen = dict(_accessed)
    out: dict[str, str] = {}
    for key, path in sorted(seen.items()):
        if path.exists():
            out.update(_tree_sha256(key, path))
    save_file_hashes()
    return out


def _tree_sha256(key: str, path: Path) -> dict[str, str]:
    """``{key: sha256}`` of a file, or ``{key/child: sha256}`` of every file below a folder."""
    if not path.is_dir():
        return {key: remembered_sha256(path, save=False)}
    return {f"{key}/{sub.relative_to(path).as_posix()}": remembered_sha256(sub, save=False)
            for sub in sorted(p for p in path.rglob("*") if p.is_file())}


# ------------------------------------------------------------------------------------------
# Reports and manifests
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FileCheck:
    """Verification of one registered file.

    ``status`` is ``"ok"``, ``"missing"`` or ``"mismatch"``; ``path`` is where it was found
    (None when missing); ``actual_sha256`` is None when missing.
    """

    dataset: str
    relpath: str
    status: str
    path: Path | None
    expected_sha256: str
    actual_sha256: str | None
    size: int

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def error(self) -> str:
        """What is wrong and how to fix it ("" when ok)."""
        if self.status == "missing":
            return (f"not found in any data folder; {_how_to_obtain(self.relpath)}")
        if self.status == "mismatch":
            return (f"{self.path}: expected sha256 {self.expected_sha256}, actual "
                    f"{self.actual_sha256}; replace it ({_how_to_obtain(self.relpath)})")
        return ""

    def as_dict(self) -> dict:
        """The fields plus ``ok`` and ``error``, ``path`` as a string (or None)."""
        return {"dataset": self.dataset, "relpath": self.relpath, "status": self.status,
                "ok": self.ok, "error": self.error,
                "path": None if self.path is None else str(self.path),
                "expected_sha256": self.expected_sha256, "actual_sha256": self.actual_sha256,
                "size": self.size}


@dataclass
class VerifyReport:
    """What :func:`verify_all` found: one :class:`FileCheck` per registered file."""

    checks: list[FileCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every checked file is present and matches."""
        return all(c.status == "ok" for c in self.checks)

    @property
    def problems(self) -> list[FileCheck]:
        """The checks that are not ``"ok"``."""
        return [c for c in self.checks if c.status != "ok"]

    def __iter__(self):
        """One dict per file (:meth:`FileCheck.as_dict`: relpath, status, ok, error, ...)."""
        return (c.as_dict() for c in self.checks)

    def __len__(self) -> int:
        return len(self.checks)

    def to_frame(self):
        """The checks as a pandas DataFrame (one row per file, :meth:`FileCheck.as_dict`)."""
        import pandas as pd

        return pd.DataFrame([c.as_dict() for c in self.checks])

    def summary(self) -> dict[str, dict[str, int]]:
        """``{dataset: {status: count}}``."""
        out: dict[str, dict[str, int]] = {}
        for c in self.checks:
            out.setdefault(c.dataset, {}).setdefault(c.status, 0)
            out[c.dataset][c.status] += 1
        return out

    def __str__(self) -> str:
        lines = []
        for name, counts in self.summary().items():
            n = sum(counts.values())
            state = "ok" if counts.get("ok", 0) == n else ", ".join(
                f"{v} {k}" for k, v in sorted(counts.items()))
            lines.append(f"{name:15s} {n:3d} files  {state}")
        for c in self.problems:
            where = c.path if c.path is not None else "not found"
            lines.append(f"  {c.status}: {c.relpath} ({where})")
        if self.problems:
            names = sorted({c.dataset for c in self.problems})
            lines.extend(f"  {n}: {DATASETS[n].how_to_obtain()}" for n in names)
        return "\n".join(lines)


def verify_all(dataset: str | Iterable[str] | None = None, progress: bool = False) -> VerifyReport:
    """Check every registered file (of ``dataset``, one name or several; all by default).

    Never raises for missing or corrupt files: they are reported. Hashing is cached as in
    :func:`locate`, so a second call only ``stat``s the files.
    """
    if dataset is None:
        names = datasets()
    elif isinstance(dataset, str):
        names = [info(dataset).name]
    else:
        names = [info(d).name for d in dataset]
    todo = [(n, p) for n in names for p in files(n)]
    if progress:
        from tqdm.auto import tqdm

        todo = tqdm(todo, desc="verifying data", unit="file")
    report = VerifyReport()
    places = data_search_path()
    for name, relpath in todo:
        want_sha, size = DATASETS[name].files[relpath]
        path = next((root / relpath for root in places if (root / relpath).exists()), None)
        if path is None:
            report.checks.append(FileCheck(name, relpath, "missing", None, want_sha, None, size))
            continue
        actual = remembered_sha256(path, save=False)
        status = "ok" if actual == want_sha else "mismatch"
        report.checks.append(FileCheck(name, relpath, status, path, want_sha, actual, size))
    save_file_hashes()
    return report


def checksums(relpaths: Iterable[str | os.PathLike[str]], verify: bool = True) -> dict[str, str]:
    """``{relpath: sha256}`` of the data files a run read, for its manifest.

    Registered files are located and (with ``verify``) checked, so a corrupt file raises
    :class:`DataNotFoundError`. Unregistered files get their actual sha256. A folder expands
    into every file below it (``relpath/child`` keys). Hashes are cached as in :func:`locate`.
    """
    out: dict[str, str] = {}
    for rel in relpaths:
        key = _norm(rel)
        out.update(_tree_sha256(key, locate(key, verify=verify)))
    save_file_hashes()
    return out


def combined_sha256(files: Mapping[str, str]) -> str:
    """sha256 over ``"relpath sha256"`` lines of the files read (sorted): one checksum of the
    ``{relpath: sha256}`` that :func:`checksums` returns, a built-in data set's ``sha256``."""
    blob = "".join(f"{k} {v}\n" for k, v in sorted(files.items()))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
