"""Judgments data sets: one row per (document, system) summary, with human scores.

The one shape every meta-evaluation reads, whatever the data: SummEval, REALSumm or a user's own
annotations. :func:`load_judgments` takes a file path or a data set name and returns a
:class:`Judgments`.

A judgments file
----------------
JSONL, CSV, TSV or parquet (chosen by the extension: ``.jsonl``, ``.csv``, ``.tsv``,
``.parquet``), one row per (document, system) summary:

================================  ==========================================================
column                            meaning
================================  ==========================================================
``doc_id``, ``system``            required ids (strings or integers); other names are mapped
                                  with ``doc_col`` / ``system_col`` (``--doc-col``,
                                  ``--system-col``)
``summary``                       the summary (only measures sumeval computes read it)
``text``                          the source document, for measures that read it
``references``                    a list of reference summaries (in CSV/TSV a JSON array such
                                  as ``["ref one", "ref two"]``; a plain string is one
                                  reference)
human columns                     the columns named by ``human`` (``--human``): numbers, empty
                                  or NaN where not judged
``<human>/<annotator>``           one annotator's scores for human column ``<human>``
any other numeric column          a precomputed measure (a score the user's own tool produced)
any other column                  kept in the frame, not used
================================  ==========================================================

The text columns may be mapped too (``summary_col``, ``text_col``, ``references_col``). Column
roles are never guessed: the human columns are exactly the ones named; every other numeric
column is a measure. Values are checked once, and an error names the file, the line (JSONL and
CSV/TSV: the line number in the file; parquet: the row number), the column and the value:
duplicate (doc_id, system) rows, a missing id, a human value that is not a number, a
``references`` cell that is not a list of strings, a column asked for that the file lacks. A
system missing from some documents is allowed, and reported in
:attr:`Judgments.systems_missing_documents` (system-level correlations then average over
different documents).

Data set names
--------------
The judged sets of the shelf are built in (:data:`BUILTIN`: the names of
:data:`sumeval.datasets.shelf_table.SHELF`, loaded by :mod:`sumeval.datasets.shelf`; a built-in name
wins over a user's data set of the same name);
a user's file gets a name with :func:`add_dataset` (``sumeval data add NAME PATH``), which
validates it and records its absolute path, format, sha256 and column roles in the user registry
(:mod:`sumeval.datasets.user_datasets`). Loading a name checks the file against the recorded
sha256 and says how to re-add it when it changed.

* ``summeval``: the 1,600 pairs of :func:`sumeval.datasets.summeval.load_summeval` (same rows,
  order and columns: ``summary``, ``text`` = the original article, ``text_tokenized``, 11
  ``references``), human columns ``coherence``, ``consistency``, ``fluency``, ``relevance``
  (means of 3 experts), then ``<quality>/expert_1`` .. ``/expert_3``: the three experts'
  individual scores for all four qualities (``consistency/expert_k`` first, the columns SummEval
  had for SummaC's 100 pairs, same values there), and the 6 LLM judges as *opt-in* measure
  columns ``<judge>.<quality>`` (used only when named; :mod:`sumeval.datasets.loaders.summeval`).
* ``realsumm``: the 2,500 pairs of :func:`sumeval.datasets.realsumm.load_realsumm` (documents
  in file order, systems sorted), human column ``litepyramid`` (LitePyramid recall), one
  reference; ``summary`` and the reference hold **one sentence per line** (REALSumm's ``<t>``
  sentences), the form the paper-001 Table 2 rows are scored on (ROUGE-Lsum needs the lines;
  the other measures treat a newline as any other space).

Levels
------
:func:`check_level` refuses a correlation level the data cannot support. The levels are named so
that no reader confuses them: **input** (per document, across its systems, then averaged;
SummEval's and Deutsch et al.'s "summary level"), **system** (per-system means) and **global**
(all pairs pooled; paper 000's "summary level"). ``document`` and ``summary`` are refused, as
everywhere (:data:`sumeval.stats.checks.OLD_LEVEL_NAMES`).

Modules
-------
This module loads data sets by name or path and keeps the user registry (add, remove, list,
verify); :mod:`sumeval.datasets.judgments_model` holds :class:`Judgments`, the column roles and
the levels, :mod:`sumeval.datasets.judgment_files` reads, checks and writes the files. Their
public names are importable from here.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from sumeval.datasets.judgment_files import FORMATS, check_table, format_of, read_table
from sumeval.datasets.judgment_files import export_judgments as _write_judgments
from sumeval.datasets.judgments_model import ROLE_FLAGS, ROLES, ColumnMap, Judgments, classify_frame
from sumeval.datasets.shelf_table import SHELF
from sumeval.errors import DataNotFoundError, InputError
from sumeval.file_kinds import describe_special, special_kind

__all__ = [
    "BUILTIN", "load_judgments", "add_dataset", "remove_dataset",
    "list_datasets", "listing_lines", "verify_user_datasets", "export_judgments", "is_path"]

#: built-in data set names (the shelf: the rows of :data:`sumeval.datasets.shelf_table.SHELF`)
BUILTIN: tuple[str, ...] = tuple(SHELF)


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------
def load_judgments(source: str | os.PathLike[str], *, doc_col: str | None = None,
                   system_col: str | None = None, summary_col: str | None = None,
                   text_col: str | None = None, references_col: str | None = None,
                   human: str | Sequence[str] | None = None,
                   lower_is_better: str | Sequence[str] = (),
                   n_docs: int | None = None, annotators_suffice: bool = False) -> Judgments:
    """Load a judgments data set by file path or by name.

    Args:
        source: a path to a ``.jsonl`` / ``.csv`` / ``.tsv`` / ``.parquet`` file, a built-in name (:data:`BUILTIN`)
            or a name added with :func:`add_dataset`. A string with a path separator or one of those extensions is a
            path; anything else is a name.
        doc_col, system_col, summary_col, text_col, references_col: the file's column for each role (default: the
            role's name). For a name, the roles recorded when it was added are used; giving them again is an error.
        human: the human columns (a name or a list; a string may list several separated by commas). Required for a
            path. For a name: a selection of its human columns (the others are kept as unused columns, never as
            measures).
        lower_is_better: measure columns whose lower values are better (shown negated); added to those recorded for
            a name.
        n_docs: keep the first ``n_docs`` documents (order of first appearance), for smoke runs.
        annotators_suffice: a file may lack a human column that has ``<human>/<annotator>`` columns (the alt-test
            uses only those); the frame then has no column of that name.

    Returns:
        Judgments

    Raises:
        InputError: naming the file, line, column and value of what is wrong (see the module docstring).
        DataNotFoundError: when the file does not exist, or a registered file no longer matches its sha256.
    """
    humans = _names(human, "human")
    lower = _names(lower_is_better, "lower_is_better")
    mapping = dict(doc_id=doc_col, system=system_col, summary=summary_col, text=text_col,
                   references=references_col)
    if is_path(source):
        judgments = _load_file(Path(source), ColumnMap.from_options(**mapping), humans, lower,
                               annotators_suffice=annotators_suffice)
        return judgments.first_documents(n_docs)
    name = str(source).strip()
    if any(not ch.isprintable() for ch in str(source)):
        raise InputError(
            f"data set name {str(source)!r} holds a line break or another control character: give the name "
            f"alone, e.g. {name!r} (a name is letters, digits, '.', '-' and '_')")
    given = {r: c for r, c in mapping.items() if c is not None}
    if given:
        raise InputError(
            f"data set {name!r} is a name, so its columns are already known; "
            + ", ".join(f"{ROLE_FLAGS[r]} {c}" for r, c in given.items())
            + " apply only to a file path (re-add the file with `sumeval data add` to change them)")
    if name.lower() in BUILTIN:
        judgments = _load_builtin(name.lower())
    else:
        judgments = _load_registered(name)
    judgments = _select_humans(judgments, humans, lower)
    return judgments.first_documents(n_docs)


def _names(value: str | Sequence[str] | None, what: str) -> tuple[str, ...]:
    """A tuple of column names from None, ``"a,b"`` or a list."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    out = []
    for item in items:
        if not isinstance(item, str):
            raise InputError(f"{what}: column names must be strings, got {item!r}")
        if item.strip():
            out.append(item.strip())
    return tuple(dict.fromkeys(out))


def is_path(source: str | os.PathLike[str]) -> bool:
    """Whether ``source`` names a file (not a data set name)."""
    if isinstance(source, os.PathLike):
        return True
    text = str(source)
    return (os.sep in text or "/" in text or Path(text).suffix.lower() in FORMATS
            or (os.altsep is not None and os.altsep in text))


def _known_names() -> list[str]:
    from sumeval.datasets.user_datasets import read_registry

    return [*BUILTIN, *sorted(read_registry())]


def _load_registered(name: str) -> Judgments:
    from sumeval.datasets.user_datasets import malformed_entries, read_registry, registry_file

    entries = read_registry()
    if name not in entries:
        malformed = malformed_entries()
        if name in malformed:
            raise InputError(malformed[name])
        raise InputError(
            f"unknown data set {name!r}; known data sets: {', '.join(_known_names())} "
            f"(user data sets are recorded in {registry_file()}). Give a path to a judgments file "
            f"(.jsonl, .csv, .tsv, .parquet), or add it first: `sumeval data add {name} PATH --human COL`")
    entry = entries[name]
    path = Path(entry.path)
    if not path.is_file():
        raise DataNotFoundError(
            f"data set {name!r}: its file {entry.path} no longer exists. If it moved, add it "
            f"again: {_add_command(entry, '<NEW PATH>')}; or forget it: `sumeval data remove {name}`")
    columns = ColumnMap(**{r: entry.columns.get(r, r) for r in ROLES})
    judgments = _load_file(path, columns, entry.human, entry.lower_is_better,
                           expect_sha256=entry.sha256, name=name, entry=entry)
    return judgments


def _add_command(entry, path: str | None = None) -> str:
    """The ``sumeval data add`` command that records ``entry`` again."""
    parts = ["sumeval data add", entry.name, path or entry.path]
    for role, col in entry.columns.items():
        if col != role:
            parts += [ROLE_FLAGS[role], col]
    parts += ["--human", ",".join(entry.human)]
    for col in entry.lower_is_better:
        parts += ["--lower-is-better", col]
    parts.append("--replace")
    return "`" + " ".join(parts) + "`"


def _select_humans(judgments: Judgments, humans: tuple[str, ...], lower: tuple[str, ...]) -> Judgments:
    """``judgments`` with only the human columns ``humans`` (all when empty) and ``lower`` added."""
    if lower:
        bad = [c for c in lower if c not in judgments.measures]
        if bad:
            raise InputError(
                f"--lower-is-better {bad[0]!r}: not a measure column of {judgments.name} "
                f"(its measure columns: {', '.join(judgments.measures) or 'none'})")
        judgments = replace(judgments, lower_is_better=tuple(dict.fromkeys(
            (*judgments.lower_is_better, *lower))))
    if not humans:
        return judgments
    unknown = [h for h in humans if h not in judgments.humans]
    if unknown:
        raise InputError(f"--human {unknown[0]!r}: not a human column of {judgments.name}; its human "
                         f"columns are {', '.join(judgments.humans)}")
    dropped = [h for h in judgments.humans if h not in humans]
    others = [*judgments.other_columns, *dropped,
              *(c for h in dropped for c in judgments.annotators.get(h, ()))]
    return replace(judgments, humans=humans,
                   annotators={h: c for h, c in judgments.annotators.items() if h in humans},
                   other_columns=tuple(others))


# --------------------------------------------------------------------------------------------
# Built-in data sets
# --------------------------------------------------------------------------------------------
def _load_builtin(name: str) -> Judgments:
    """Built-in set ``name`` (:mod:`sumeval.datasets.shelf`)."""
    from sumeval.datasets.shelf import load_builtin

    return load_builtin(name)


def summeval_frame() -> pd.DataFrame:
    """SummEval as a judgments frame: :func:`~sumeval.datasets.summeval.load_summeval`'s 1,600
    rows (same order and columns), then ``consistency/expert_1`` .. ``/expert_3`` (before the
    shelf: SummaC's 100 pairs; now all 1,600), the other qualities' ``/expert_1..3`` and the LLM
    judges' ``<judge>.<quality>`` (:mod:`sumeval.datasets.loaders.summeval`)."""
    return _load_builtin("summeval").frame


def _load_file(path: Path, columns: ColumnMap, humans: tuple[str, ...], lower: tuple[str, ...], *,
               expect_sha256: str | None = None, name: str | None = None, entry=None,
               annotators_suffice: bool = False) -> Judgments:
    """Read and check the judgments file ``path``."""
    if path.is_dir():
        from sumeval.datasets.user_datasets import folder_message

        raise InputError(folder_message(path, "judgments file"))
    kind = special_kind(path)
    if kind is not None:  # never opened: a FIFO would block, a device never end
        raise InputError(f"judgments file {describe_special(path, kind)}, not a regular file; give the "
                         "file itself (.jsonl, .csv, .tsv or .parquet)")
    fmt = format_of(path)
    if not path.is_file():
        dangling = f" (a symbolic link to {os.path.realpath(path)!r})" if path.is_symlink() else ""
        raise DataNotFoundError(f"judgments file {str(path)!r}{dangling} does not exist")
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    if expect_sha256 is not None and sha != expect_sha256:
        raise DataNotFoundError(
            f"data set {name!r}: its file {path} changed since it was added (recorded sha256 "
            f"{expect_sha256}, {entry.size} bytes; now {sha}, {len(data)} bytes). Scores cached for "
            f"the recorded file are not used for the new one. If the change is intended, add it "
            f"again: {_add_command(entry)}; otherwise restore the recorded file")
    table = read_table(path, fmt, data)
    if not table.rows:
        raise InputError(f"{path}: no rows; a judgments file needs one row per (document, system) summary")
    frame, locations = check_table(path, table, columns, humans, annotators_suffice=annotators_suffice)
    return classify_frame(frame, name=name or path.stem, path=path.resolve(), sha256=sha, fmt=fmt,
                          humans=humans, lower=lower, columns=columns, locations=tuple(locations))


# --------------------------------------------------------------------------------------------
# The user registry: add, remove, list, verify
# --------------------------------------------------------------------------------------------
def add_dataset(name: str, path: str | os.PathLike[str], *, doc_col: str | None = None,
                system_col: str | None = None, summary_col: str | None = None,
                text_col: str | None = None, references_col: str | None = None,
                human: str | Sequence[str] | None = None, lower_is_better: str | Sequence[str] = (),
                replace_existing: bool = False) -> Judgments:
    """Validate the judgments file ``path`` and record it as data set ``name``.

    The registry (:func:`sumeval.paths.user_datasets_file`) gets the file's absolute path,
    format, sha256, size and column roles; nothing is written when the file does not validate.
    An existing name (a malformed entry included) is replaced only with ``replace_existing``
    (``--replace``). The file is read and checked first; the registry is then changed under its
    lock (read, merge this one entry, write), so concurrent adds of other names are all kept.

    Returns the loaded :class:`Judgments`.
    """
    from datetime import datetime, timezone

    from sumeval.datasets.user_datasets import (
        UserDataset,
        check_name,
        folder_message,
        read_registry,
        refuse_taken,
        update_registry,
    )

    check_name(name, BUILTIN)
    refuse_taken(name, read_registry(), replace_existing)
    target = Path(path).expanduser()
    if not is_path(str(path)) and not target.exists():
        raise InputError(f"{str(path)!r} is not a file path; give the judgments file "
                         f"(.jsonl, .csv, .tsv, .parquet)")
    if target.is_dir():
        raise InputError(folder_message(target, "judgments file", name=name))
    columns = ColumnMap.from_options(doc_id=doc_col, system=system_col, summary=summary_col,
                                     text=text_col, references=references_col)
    judgments = _load_file(target, columns, _names(human, "human"),
                           _names(lower_is_better, "lower_is_better"), name=name)
    entry = UserDataset(
        name=name, path=str(target.resolve()), format=judgments.format, sha256=judgments.sha256,
        size=target.stat().st_size, columns=columns.as_dict(), human=judgments.humans,
        lower_is_better=judgments.lower_is_better, rows=len(judgments),
        documents=int(judgments.frame["doc_id"].nunique()),
        systems=int(judgments.frame["system"].nunique()),
        added=datetime.now(timezone.utc).isoformat(timespec="seconds"))

    def record(raw: dict[str, Any], entries: dict[str, Any]) -> None:
        if name in raw:  # re-checked under the lock: another add may have taken the name meanwhile
            refuse_taken(name, entries, replace_existing, malformed=name not in entries)
        raw[name] = entry.as_json()

    update_registry(record)
    return judgments


def remove_dataset(name: str) -> None:
    """Forget user data set ``name`` (its file is left alone); a malformed entry is removed too."""
    from sumeval.datasets.user_datasets import update_registry

    def forget(raw: dict[str, Any], _: dict[str, Any]) -> None:
        if name not in raw:
            if name.lower() in BUILTIN:
                raise InputError(f"{name!r} is a built-in data set; only user data sets can be removed")
            raise InputError(f"no user data set {name!r}; user data sets: "
                             f"{', '.join(sorted(raw)) or 'none'}")
        del raw[name]

    update_registry(forget)


# --------------------------------------------------------------------------------------------
# Export: never over a file a data set is read from
# --------------------------------------------------------------------------------------------
def export_judgments(judgments: Judgments, out: str | os.PathLike[str]) -> Path:
    """Write ``judgments.frame`` as a judgments file, format by ``out``'s extension (atomically),
    after :func:`sumeval.datasets.user_datasets.check_export_target` (never over a folder or any data set's own file).

    See :func:`sumeval.datasets.judgment_files.export_judgments` for the formats. Returns the path.
    """
    from sumeval.datasets.user_datasets import check_export_target

    check_export_target(out, judgments)
    return _write_judgments(judgments, out)


def list_datasets(builtin: bool = True) -> list[dict[str, Any]]:
    """The judgments data sets by name: built-in ones (with ``builtin``), then the user's.

    Each: ``name, kind ("built-in" or "user"), size (text), human (text), path, sha256``; a
    built-in one also ``details``: :func:`sumeval.datasets.shelf.describe_builtin` (which loads the
    set: its counts are the data's), or ``{"missing": message}`` when its files are not here. User
    data sets: nothing is read but the registry.
    """
    from sumeval.datasets.shelf import describe_builtin
    from sumeval.datasets.user_datasets import read_registry

    out = []
    for n in BUILTIN if builtin else ():
        try:
            d = describe_builtin(n)
        except DataNotFoundError as exc:
            out.append({"name": n, "kind": "built-in", "size": "not available here", "human": "", "path": "",
                        "sha256": "", "details": {"missing": str(exc)}})
            continue
        out.append({"name": n, "kind": "built-in",
                    "size": f"{d['records']} summaries, {d['documents']} documents, {d['systems']} systems",
                    "human": ", ".join(d["humans"]), "path": "", "sha256": d["sha256"], "details": d})
    for name, e in sorted(read_registry().items()):
        out.append({"name": name, "kind": "user",
                    "size": f"{e.rows} summaries, {e.documents} documents, {e.systems} systems",
                    "human": ", ".join(e.human), "path": e.path, "sha256": e.sha256})
    return out


def listing_lines() -> list[str]:
    """What ``sumeval data list`` prints of the judgments data sets: a head line per set
    (``name  kind  N summaries, ...; human: ...``), and for a built-in one its details
    (:func:`sumeval.datasets.shelf.detail_lines`)."""
    from sumeval.datasets.shelf import detail_lines

    lines = []
    for d in list_datasets():
        where = f"  {d['path']}" if d["path"] else ""
        lines.append(f"  {d['name']:<12} {d['kind']:<8} {d['size']}; human: {d['human']}{where}")
        if d["kind"] == "built-in":
            lines += detail_lines(d["details"])
    return lines


def verify_user_datasets() -> list[dict[str, str]]:
    """Check every user data set's file: ``[{name, path, status, error}]``, status ``ok``,
    ``missing``, ``changed`` or ``malformed`` (an entry that cannot be read; never raises for those)."""
    from sumeval.datasets.user_datasets import malformed_entries, read_registry
    from sumeval.hashing import sha256_file

    out = [{"name": name, "path": "", "status": "malformed", "error": msg}
           for name, msg in sorted(malformed_entries().items())]
    for name, e in sorted(read_registry().items()):
        path = Path(e.path)
        if not path.is_file():
            kind = special_kind(path)  # never opened: a FIFO would block, a device never end
            found = f"{describe_special(path, kind)}, not a regular file" if kind else "file not found"
            out.append({"name": name, "path": e.path, "status": "missing",
                        "error": f"{found}; re-add it: {_add_command(e, '<NEW PATH>')}"})
            continue
        actual = sha256_file(path)
        if actual != e.sha256:
            out.append({"name": name, "path": e.path, "status": "changed",
                        "error": f"sha256 {actual} differs from the recorded {e.sha256}; if the "
                                 f"change is intended: {_add_command(e)}"})
        else:
            out.append({"name": name, "path": e.path, "status": "ok", "error": ""})
    return out
