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
A change (:func:`update_registry`) holds an exclusive ``flock`` on the sidecar lock file
``<registry>.lock`` while it reads the file, changes the one entry it is about and writes the file
back, so two ``sumeval data add`` at once both land (one waits for the other). An entry this
version cannot read (hand-edited, a field missing) is *malformed*: :func:`read_registry` leaves it
out and :func:`malformed_entries` names it with the reason, a change keeps it as it is, and
``sumeval data remove NAME`` removes it. This module only reads and writes the file; validating the
data is :mod:`sumeval.datasets.judgments`' work (:func:`~sumeval.datasets.judgments.add_dataset`).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from sumeval.errors import InputError

__all__ = ["UserDataset", "NAME_RE", "RESERVED", "OUTPUT_SUFFIXES", "registry_file", "lock_file", "read_registry",
           "malformed_entries", "update_registry", "write_registry", "check_name", "refuse_taken", "folder_message",
           "check_export_target"]

VERSION = 1
#: a data set name: letters, digits, ``_``, ``.`` and ``-``, starting with a letter or digit (``\Z``, not ``$``,
#: which also matches before a final newline)
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\Z")
#: words that mean something else where a data set name goes (any case), with what they mean
RESERVED: dict[str, str] = {"shelf": "`--dataset shelf` and the shelf study's datasets=shelf mean every built-in "
                                     "judged set"}
#: the suffixes of the files a meta-evaluation across data sets writes at the top of its --out, beside each set's
#: folder OUT/<set>/ (manifest.json, across.csv, the tables' .csv .tex .md .html, the figures' .pdf .png): a data
#: set name never ends with one (nor with a judgments file's), so a set's folder never takes a top file's name
OUTPUT_SUFFIXES: tuple[str, ...] = (".json", ".csv", ".tex", ".md", ".html", ".pdf", ".png")


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


def lock_file() -> Path:
    """The sidecar lock file of the registry: ``<registry>.lock`` (held only while changing it)."""
    path = registry_file()
    return path.with_name(path.name + ".lock")


def _read_raw() -> dict[str, Any]:
    """The registry file as JSON: ``{"version": 1, "datasets": {name: entry}}`` (empty when absent).

    Raises :class:`InputError` naming the file when it is not valid JSON or not a registry.
    """
    path = registry_file()
    if not path.is_file():
        return {"version": VERSION, "datasets": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: the user data set registry is not valid JSON ({exc.msg}, line "
                         f"{exc.lineno}); fix or remove it (its data sets must then be added again)"
                         ) from None
    if not isinstance(data, dict) or not isinstance(data.get("datasets"), dict):
        raise InputError(f"{path}: not a sumeval data set registry (expected an object with "
                         "'datasets'); fix or remove it")
    return data


def _entry(name: str, entry: Any) -> UserDataset:
    """One stored entry as a :class:`UserDataset`; KeyError / TypeError / ValueError when malformed."""
    if not isinstance(entry, dict):
        raise TypeError(f"an entry is an object, got {type(entry).__name__}")
    path, fmt, sha = entry["path"], entry["format"], entry["sha256"]
    for field_name, value in (("path", path), ("format", fmt), ("sha256", sha)):
        if not isinstance(value, str):
            raise TypeError(f"'{field_name}' must be a string, got {value!r}")
    return UserDataset(
        name=name, path=path, format=fmt, sha256=sha,
        size=int(entry["size"]), columns=dict(entry.get("columns", {})),
        human=tuple(entry.get("human", ())),
        lower_is_better=tuple(entry.get("lower_is_better", ())),
        rows=int(entry.get("rows", 0)), documents=int(entry.get("documents", 0)),
        systems=int(entry.get("systems", 0)), added=str(entry.get("added", "")))


def _parse(data: Mapping[str, Any]) -> tuple[dict[str, UserDataset], dict[str, str]]:
    """``(entries, malformed)`` of a raw registry: the readable entries and, for the others, the reason."""
    out: dict[str, UserDataset] = {}
    bad: dict[str, str] = {}
    for name, entry in data["datasets"].items():
        try:
            out[name] = _entry(name, entry)
        except (KeyError, TypeError, ValueError) as exc:
            bad[name] = (f"{registry_file()}: entry {name!r} is malformed ({type(exc).__name__}: {exc}); "
                         f"remove it (`sumeval data remove {name}`) and add the file again")
    return out, bad


def read_registry() -> dict[str, UserDataset]:
    """``{name: UserDataset}`` of the registry file (empty when the file does not exist).

    Malformed entries are left out here (:func:`malformed_entries` names them, and loading one by
    name says why it cannot be used). Raises :class:`InputError` naming the file when it is not a
    registry this version wrote.
    """
    return _parse(_read_raw())[0]


def malformed_entries() -> dict[str, str]:
    """``{name: message}`` of the registry's entries that cannot be read; the message names the
    entry, what is wrong and the fix (``sumeval data remove NAME``)."""
    return _parse(_read_raw())[1]


def update_registry(change: Callable[[dict[str, Any], dict[str, UserDataset]], None]) -> Path:
    """Change the registry under its lock: read it, call ``change(raw, entries)``, write it back.

    ``raw`` is the stored ``{name: entry}`` mapping, malformed entries included, which ``change``
    edits in place (set one name to ``UserDataset.as_json()``, or delete one); ``entries`` are the
    readable entries as read under the lock, for checks (a name taken meanwhile). Holding an
    exclusive ``flock`` on :func:`lock_file` from the read to the rename makes concurrent changes
    (two ``sumeval data add`` at once) serial, so none is lost. The file is replaced atomically.
    Returns the registry's path.
    """
    from sumeval.cache import atomic_write_json
    from sumeval.runstate import exclusive_lock

    path = registry_file()
    with exclusive_lock(lock_file(), what=f"the user data set registry {path}"):
        data = _read_raw()
        raw = dict(data["datasets"])
        change(raw, _parse(data)[0])
        payload = {**data, "version": data.get("version", VERSION), "datasets": {k: raw[k] for k in sorted(raw)}}
        return atomic_write_json(path, payload)


def write_registry(entries: Mapping[str, UserDataset]) -> Path:
    """Replace the registry file with ``entries`` (atomically, under the registry's lock); return
    its path. Prefer :func:`update_registry`, which changes one entry and keeps the others."""
    def replace_all(raw: dict[str, Any], _: dict[str, UserDataset]) -> None:
        raw.clear()
        raw.update({name: entries[name].as_json() for name in entries})

    return update_registry(replace_all)


def refuse_taken(name: str, entries: Mapping[str, Any], replace_existing: bool, *,
                  malformed: bool = False) -> None:
    """InputError when user data set ``name`` exists (or is a malformed entry) and may not be replaced."""
    if replace_existing:
        return
    if name in entries:
        old = entries[name]
        raise InputError(f"data set {name!r} is already registered ({old.path}, added {old.added}); "
                         "pass --replace (replace_existing=True) to record the new file under this name")
    if malformed or name in malformed_entries():
        raise InputError(f"data set {name!r} is already registered, as a malformed entry; pass --replace "
                         f"to record the new file under this name, or `sumeval data remove {name}` first")


def folder_message(path: Path, what: str, *, name: str | None = None) -> str:
    """``path`` is a folder: say so, and name the judgments files inside it (if any); ``name``: the
    data set being added, for the command to suggest."""
    from sumeval.datasets.judgment_files import FORMATS

    inside = sorted(p.name for p in path.iterdir() if p.is_file() and p.suffix.lower() in FORMATS) \
        if os.access(path, os.R_OK | os.X_OK) else []
    hint = (f"; it holds {', '.join(inside[:5])}{' ...' if len(inside) > 5 else ''}, e.g. "
            f"`sumeval data add {name} {path / inside[0]} --human COL`" if inside and name else
            f"; it holds {', '.join(inside[:5])}{' ...' if len(inside) > 5 else ''}" if inside else "")
    return (f"{str(path)!r} is a folder, not a {what}; give the file itself "
            f"(.jsonl, .csv, .tsv or .parquet){hint}")


# --------------------------------------------------------------------------------------------
# Export: never over a file a data set is read from
# --------------------------------------------------------------------------------------------
def _protected_files() -> list[tuple[Path, str]]:
    """``(path, what)`` of every file a data set is read from: each user data set's file (malformed
    entries included), the registry and its lock, and every registered built-in data file in
    every data folder (:func:`sumeval.paths.data_search_path`), present or not."""
    from sumeval.datasets.recorded import DATASETS
    from sumeval.paths import data_search_path

    out: list[tuple[Path, str]] = [(registry_file(), "the user data set registry"),
                                   (lock_file(), "the user data set registry's lock")]
    try:
        raw = json.loads(registry_file().read_text(encoding="utf-8")).get("datasets", {})
    except (OSError, ValueError, AttributeError):
        raw = {}
    for name, entry in (raw.items() if isinstance(raw, dict) else ()):
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            out.append((Path(entry["path"]), f"the file of user data set {name!r}"))
    for place in data_search_path():
        for info in DATASETS.values():
            for rel in info.files:
                out.append((place / rel, f"a file of built-in data set {info.name!r}"))
    return out


def _same_file(a: Path, a_stat: os.stat_result | None, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file: the same path once links and ``..`` are resolved,
    or the same inode on the same device (a hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    if a_stat is None:
        return False
    try:
        b_stat = os.stat(b)
    except OSError:
        return False
    return (a_stat.st_dev, a_stat.st_ino) == (b_stat.st_dev, b_stat.st_ino)


def check_export_target(out: str | os.PathLike[str], judgments: Any = None, *, name: str | None = None) -> Path:
    """``out`` as a path :func:`~sumeval.datasets.judgments.export_judgments` may write.

    :class:`InputError` when ``out`` is a folder, or any file a data set is read from
    (:func:`_protected_files`, and the file ``judgments`` - the
    :class:`~sumeval.datasets.judgments_model.Judgments` to export, or None - was read from), named
    through a symbolic link, a hard link or ``..`` too: exporting over a data set's file would
    replace the user's original with sumeval's column names and break the data set (its sha256).
    ``name``: the data set's name or path, for the example file name of the folder message.
    """
    given = str(out)
    path = Path(out).expanduser()
    if path.is_dir() or given.endswith(("/", os.sep)):
        stem = judgments.name if judgments is not None else Path(name).stem if name else "judgments"
        example = path / f"{stem}.jsonl"
        raise InputError(f"-o {given!r} is a folder; name the file to write in it, e.g. {example} "
                         "(the extension .jsonl, .csv, .tsv or .parquet picks the format)")
    try:
        stat = os.stat(path)
    except OSError:
        stat = None
    protected = _protected_files()
    if judgments is not None and judgments.path:
        protected.insert(0, (Path(judgments.path), f"the file {judgments.name!r} was read from"))
    for other, what in protected:
        if _same_file(path, stat, other):
            alt = (Path(path.name) if "built-in" in what else path.with_name(f"{path.stem}-export{path.suffix}"))
            raise InputError(f"-o {given!r} is {what} ({other}); exporting over it would replace that "
                             f"file. Write to another file, e.g. -o {alt}")
    return path


def data_set_file_owner(path: str | os.PathLike[str]) -> str | None:
    """``"the file of user data set 'mine' (/abs/mine.csv)"`` when ``path`` (an existing file, named
    through links or ``..`` too) is a file a data set is read from (as :func:`check_export_target`
    refuses), else None: for commands that write a file a user names, e.g. ``sumeval score -o``."""
    path = Path(path).expanduser()
    try:
        stat = os.stat(path)
    except OSError:
        return None
    for other, what in _protected_files():
        if _same_file(path, stat, other):
            return f"{what} ({other})"
    return None


def check_name(name: str, builtin: tuple[str, ...]) -> str:
    """``name`` if it may name a user data set; :class:`InputError` saying why not otherwise."""
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise InputError(f"data set name {name!r} is not allowed: use letters, digits, '_', '.' "
                         "and '-' (at most 64, starting with a letter or digit), e.g. 'my-judgments'")
    if name.lower() in builtin:
        raise InputError(f"data set name {name!r} is a built-in data set ({', '.join(builtin)}); "
                         "choose another name")
    if name.lower() in RESERVED:
        raise InputError(f"data set name {name!r} is reserved: {RESERVED[name.lower()]}, so a data set of that "
                         "name could not be named there; choose another name")
    from sumeval.datasets.judgment_files import FORMATS

    if Path(name).suffix.lower() in FORMATS:
        raise InputError(f"data set name {name!r} ends like a file ({Path(name).suffix}); a name "
                         "must not look like a path, so drop the extension")
    if Path(name).suffix.lower() in OUTPUT_SUFFIXES:
        raise InputError(f"data set name {name!r} ends like a file ({Path(name).suffix}): `sumeval meta-eval "
                         "--dataset` writes each set's results into OUT/<name>/, beside its own files (manifest.json, "
                         "across.csv, tables .csv .tex .md .html, figures .pdf .png), so drop the extension")
    return name
