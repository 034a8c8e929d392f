"""The registry of a user's judgments files (``sumeval data add NAME PATH``).

One JSON file, :func:`sumeval.paths.user_datasets_file` (``$SUMEVAL_DATA_REGISTRY``, default
``<project root>/data/user_datasets.json``)::

    {"version": 1,
     "datasets": {"mydata": {"path": "/abs/path/judgments.csv", "format": "csv",
                             "sha256": "...", "size": 1234,
                             "columns": {"doc_id": "article_id", "system": "model", ...},
                             "human": ["faithful", "overall"], "lower_is_better": [],
                             "rows": 12, "documents": 4, "systems": 3,
                             "added": "2025-01-01T12:00:00+00:00"}}}

Every write goes through a temporary file and a rename, so a reader never sees half a registry.
This module only reads and writes the file; validating the data is
:mod:`sumeval.datasets.judgments`' work (:func:`~sumeval.datasets.judgments.add_dataset`).
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Mapping

from sumeval.errors import InputError

__all__ = ["UserDataset", "NAME_RE", "registry_file", "read_registry", "write_registry", "check_name"]

VERSION = 1
#: a data set name: letters, digits, ``_``, ``.`` and ``-``, starting with a letter or digit
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class UserDataset:
    """One registered judgments file: where it is, what it hashed to and its column roles.

    ``columns`` maps a role (``doc_id``, ``system``, ``summary``, ``text``, ``references``) to the
    file's column name; ``human`` and ``lower_is_better`` are column names as in the file.
    """

    name: str
    path: str
    format: str
    sha256: str
    size: int
    columns: Mapping[str, str] = field(default_factory=dict)
    human: tuple[str, ...] = ()
    lower_is_better: tuple[str, ...] = ()
    rows: int = 0
    documents: int = 0
    systems: int = 0
    added: str = ""

    def as_json(self) -> dict:
        """The entry as stored (without ``name``, which is its key)."""
        out = asdict(self)
        out.pop("name")
        out["columns"] = dict(self.columns)
        out["human"] = list(self.human)
        out["lower_is_better"] = list(self.lower_is_better)
        return out


def registry_file() -> Path:
    """Where the registry lives (see :func:`sumeval.paths.user_datasets_file`)."""
    from sumeval.paths import user_datasets_file

    return user_datasets_file()


def read_registry() -> dict[str, UserDataset]:
    """``{name: UserDataset}`` of the registry file (empty when the file does not exist).

    Raises :class:`InputError` naming the file when it is not a registry this version wrote.
    """
    path = registry_file()
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: the user data set registry is not valid JSON ({exc.msg}, line "
                         f"{exc.lineno}); fix or remove it (its data sets must then be added again)"
                         ) from None
    if not isinstance(data, dict) or not isinstance(data.get("datasets"), dict):
        raise InputError(f"{path}: not a sumeval data set registry (expected an object with "
                         "'datasets'); fix or remove it")
    out: dict[str, UserDataset] = {}
    for name, entry in data["datasets"].items():
        try:
            out[name] = UserDataset(
                name=name, path=entry["path"], format=entry["format"], sha256=entry["sha256"],
                size=int(entry["size"]), columns=dict(entry.get("columns", {})),
                human=tuple(entry.get("human", ())),
                lower_is_better=tuple(entry.get("lower_is_better", ())),
                rows=int(entry.get("rows", 0)), documents=int(entry.get("documents", 0)),
                systems=int(entry.get("systems", 0)), added=str(entry.get("added", "")))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}: entry {name!r} is malformed ({type(exc).__name__}: {exc}); "
                             f"remove it (`sumeval data remove {name}`) and add the file again"
                             ) from None
    return out


def write_registry(entries: Mapping[str, UserDataset]) -> Path:
    """Replace the registry file with ``entries`` (atomically); return its path."""
    from sumeval.cache import atomic_write_json

    payload = {"version": VERSION,
               "datasets": {name: entries[name].as_json() for name in sorted(entries)}}
    return atomic_write_json(registry_file(), payload)


def check_name(name: str, builtin: tuple[str, ...]) -> str:
    """``name`` if it may name a user data set; :class:`InputError` saying why not otherwise."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise InputError(f"data set name {name!r} is not allowed: use letters, digits, '_', '.' "
                         "and '-' (at most 64, starting with a letter or digit), e.g. 'my-judgments'")
    if name.lower() in builtin:
        raise InputError(f"data set name {name!r} is a built-in data set ({', '.join(builtin)}); "
                         "choose another name")
    from sumeval.datasets.judgments import FORMATS

    if Path(name).suffix.lower() in FORMATS:
        raise InputError(f"data set name {name!r} ends like a file ({Path(name).suffix}); a name "
                         "must not look like a path, so drop the extension")
    return name
