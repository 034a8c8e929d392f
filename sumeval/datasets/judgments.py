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
``summeval`` and ``realsumm`` are built in (:data:`BUILTIN`); a user's file gets a name with
:func:`add_dataset` (``sumeval data add NAME PATH``), which validates it and records its absolute
path, format, sha256 and column roles in the user registry
(:mod:`sumeval.datasets.user_datasets`). Loading a name checks the file against the recorded
sha256 and says how to re-add it when it changed.

* ``summeval``: the 1,600 pairs of :func:`sumeval.datasets.summeval.load_summeval` (same rows,
  order and columns: ``summary``, ``text`` = the original article, ``text_tokenized``, 11
  ``references``), human columns ``coherence``, ``consistency``, ``fluency``, ``relevance``
  (means of 3 experts), plus ``consistency/expert_1`` .. ``/expert_3``: the three experts'
  individual consistency scores on the 100 pairs SummaC published (NaN on the other 1,500; the
  position need not be the same person across pairs).
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
(all pairs pooled; paper 000's "summary level"). ``document`` and ``summary`` - the names
:func:`sumeval.stats.correlate` uses - are accepted as ``input`` and ``global``.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import DataNotFoundError, InputError

__all__ = [
    "FORMATS", "BUILTIN", "ROLES", "TEXT_FIELDS", "LEVELS", "ColumnMap", "Judgments",
    "load_judgments", "check_level", "canonical_level", "add_dataset", "remove_dataset",
    "list_datasets", "verify_user_datasets", "export_judgments",
]

#: file extension -> format
FORMATS: dict[str, str] = {".jsonl": "jsonl", ".csv": "csv", ".tsv": "tsv", ".parquet": "parquet"}
#: built-in data set names
BUILTIN: tuple[str, ...] = ("summeval", "realsumm")
#: the roles a column can be mapped to, in the frame's column order
ROLES: tuple[str, ...] = ("doc_id", "system", "summary", "text", "references")
#: the text fields measures read (besides the ids)
TEXT_FIELDS: tuple[str, ...] = ("summary", "text", "references")
#: level names accepted -> the name used here
LEVELS: dict[str, str] = {"input": "input", "document": "input", "system": "system",
                          "global": "global", "summary": "global"}
#: the fewest systems / pairs a level needs (2 points give a correlation of +-1 whatever they are)
MIN_SYSTEMS = 3
MIN_PAIRS = 3
MIN_SYSTEMS_PER_DOCUMENT = 2
#: CSV/TSV cells read as "no value"
_MISSING_CELLS = frozenset({"", "nan", "NaN", "NA", "N/A", "null", "None"})
_FLAGS = {"doc_id": "--doc-col", "system": "--system-col", "summary": "--summary-col",
          "text": "--text-col", "references": "--references-col"}


# --------------------------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ColumnMap:
    """Which column of the file plays each role (the defaults are the roles' own names)."""

    doc_id: str = "doc_id"
    system: str = "system"
    summary: str = "summary"
    text: str = "text"
    references: str = "references"

    @classmethod
    def from_options(cls, **given: str | None) -> ColumnMap:
        """A map from role options (``doc_id="article_id"``); None keeps the default."""
        return cls(**{k: v for k, v in given.items() if v is not None})

    def as_dict(self) -> dict[str, str]:
        return {r: getattr(self, r) for r in ROLES}

    def non_default(self) -> dict[str, str]:
        """The roles mapped to another column than their own name."""
        return {r: c for r, c in self.as_dict().items() if c != r}


@dataclass(frozen=True, eq=False)
class Judgments:
    """A judgments data set, validated.

    Attributes
    ----------
    frame : pandas.DataFrame, one row per (document, system), index 0..n-1
        ``doc_id``, ``system``, the text fields present (``summary``, ``text``, ``references`` -
        a list of str), then the file's other columns in file order: human, annotator and
        measure columns as float64 (NaN where missing), other columns as read.
    name : the data set's name (a built-in or registered name, or the file's stem)
    path : the file read (built-ins: the pairs file)
    sha256 : the file's sha256 (built-ins: a sha256 over the sha256 of every file read)
    format : ``jsonl``, ``csv``, ``tsv``, ``parquet`` or ``builtin``
    humans : the human columns
    annotators : ``{human: (annotator column, ...)}`` for the humans that have them
    measures : the precomputed measure columns (numeric, neither ids nor humans nor annotators)
    fields : the text fields present, of :data:`TEXT_FIELDS`
    lower_is_better : measure columns declared lower-is-better (shown negated)
    other_columns : the columns kept but not used (not numeric, or humans not selected)
    columns : the :class:`ColumnMap` the file was read with
    locations : where each row came from (``"file.csv:7"``), or None for built-ins
    systems_missing_documents : ``{system: (doc_id, ...)}`` for each system absent from some
        documents (allowed, reported)
    """

    frame: pd.DataFrame
    name: str
    path: Path | None
    sha256: str
    format: str
    humans: tuple[str, ...]
    annotators: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    measures: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    lower_is_better: tuple[str, ...] = ()
    other_columns: tuple[str, ...] = ()
    columns: ColumnMap = field(default_factory=ColumnMap)
    locations: tuple[str, ...] | None = None
    systems_missing_documents: Mapping[str, tuple] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.frame)

    @property
    def documents(self) -> list:
        """Document ids in order of first appearance."""
        return list(pd.unique(self.frame["doc_id"]))

    @property
    def systems(self) -> list:
        """System ids in order of first appearance."""
        return list(pd.unique(self.frame["system"]))

    @property
    def annotator_columns(self) -> tuple[str, ...]:
        return tuple(c for cols in self.annotators.values() for c in cols)

    def row_ids(self) -> list[str]:
        """``"doc_id|system"`` per row: the rows' identity in cache keys."""
        return [f"{d}|{s}" for d, s in zip(self.frame["doc_id"], self.frame["system"])]

    def location(self, row: int) -> str:
        """Where row ``row`` (0-based position) came from, for messages."""
        if self.locations is not None:
            return self.locations[row]
        r = self.frame.iloc[row]
        return f"{self.name}: doc {r['doc_id']!r}, system {r['system']!r}"

    def first_documents(self, n_docs: int | None) -> Judgments:
        """The rows of the first ``n_docs`` documents (order of first appearance); all for None."""
        if n_docs is None:
            return self
        if isinstance(n_docs, bool) or not isinstance(n_docs, (int, np.integer)) or n_docs < 1:
            raise InputError(f"n_docs must be a positive integer or None (all documents), got {n_docs!r}")
        if n_docs > len(self.documents):
            raise InputError(f"n_docs {n_docs} is more than the {len(self.documents)} documents of data set "
                             f"{self.name!r}; give at most {len(self.documents)}, or none for all")
        keep = set(self.documents[: int(n_docs)])
        mask = self.frame["doc_id"].isin(keep).to_numpy()
        frame = self.frame[mask].reset_index(drop=True)
        locations = None if self.locations is None else tuple(np.asarray(self.locations, dtype=object)[mask])
        return replace(self, frame=frame, locations=locations,
                       systems_missing_documents=systems_missing_documents(frame))

    def describe(self) -> str:
        """A few lines: what the data set holds and where it comes from."""
        f = self.frame
        lines = [f"{self.name}: {len(f)} summaries, {f['doc_id'].nunique()} documents, "
                 f"{f['system'].nunique()} systems ({self.format}: {self.path})",
                 f"  sha256     {self.sha256}",
                 f"  human      {', '.join(self.humans)}",
                 f"  text       {', '.join(self.fields) or '(none)'}"]
        for h, cols in self.annotators.items():
            n = int(f[list(cols)].notna().any(axis=1).sum())
            lines.append(f"  annotators {h}: {', '.join(cols)} ({n} rows)")
        if self.measures:
            neg = set(self.lower_is_better)
            lines.append("  measures   " + ", ".join(m + (" (lower is better)" if m in neg else "")
                                                     for m in self.measures))
        if self.other_columns:
            lines.append(f"  unused     {', '.join(self.other_columns)}")
        mapped = self.columns.non_default()
        if mapped:
            lines.append("  columns    " + ", ".join(f"{r} <- {c}" for r, c in mapped.items()))
        for system, docs in self.systems_missing_documents.items():
            shown = ", ".join(map(repr, docs[:5])) + (" ..." if len(docs) > 5 else "")
            lines.append(f"  note: system {system!r} has no summary for {len(docs)} document(s): {shown}")
        return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------
def load_judgments(source: str | os.PathLike[str], *, doc_col: str | None = None,
                   system_col: str | None = None, summary_col: str | None = None,
                   text_col: str | None = None, references_col: str | None = None,
                   human: str | Sequence[str] | None = None,
                   lower_is_better: str | Sequence[str] = (),
                   n_docs: int | None = None) -> Judgments:
    """Load a judgments data set by file path or by name.

    Parameters
    ----------
    source : a path to a ``.jsonl`` / ``.csv`` / ``.tsv`` / ``.parquet`` file, a built-in name
        (:data:`BUILTIN`) or a name added with :func:`add_dataset`. A string with a path
        separator or one of those extensions is a path; anything else is a name.
    doc_col, system_col, summary_col, text_col, references_col : the file's column for each role
        (default: the role's name). For a name, the roles recorded when it was added are used;
        giving them again is an error.
    human : the human columns (a name or a list; a string may list several separated by
        commas). Required for a path. For a name: a selection of its human columns (the others
        are kept as unused columns, never as measures).
    lower_is_better : measure columns whose lower values are better (shown negated); added to
        those recorded for a name.
    n_docs : keep the first ``n_docs`` documents (order of first appearance), for smoke runs.

    Returns
    -------
    Judgments

    Raises
    ------
    InputError
        naming the file, line, column and value of what is wrong (see the module docstring).
    DataNotFoundError
        when the file does not exist, or a registered file no longer matches its sha256.
    """
    humans = _names(human, "human")
    lower = _names(lower_is_better, "lower_is_better")
    mapping = dict(doc_id=doc_col, system=system_col, summary=summary_col, text=text_col,
                   references=references_col)
    if _is_path(source):
        judgments = _load_file(Path(source), ColumnMap.from_options(**mapping), humans, lower)
        return judgments.first_documents(n_docs)
    name = str(source).strip()
    given = {r: c for r, c in mapping.items() if c is not None}
    if given:
        raise InputError(
            f"data set {name!r} is a name, so its columns are already known; "
            + ", ".join(f"{_FLAGS[r]} {c}" for r, c in given.items())
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


def _is_path(source: str | os.PathLike[str]) -> bool:
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
    from sumeval.datasets.user_datasets import read_registry, registry_file

    entries = read_registry()
    if name not in entries:
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
            parts += [_FLAGS[role], col]
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
def _combined_sha256(files: Mapping[str, str]) -> str:
    """sha256 over ``"relpath sha256"`` lines of the files read (sorted)."""
    blob = "".join(f"{k} {v}\n" for k, v in sorted(files.items()))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _load_builtin(name: str) -> Judgments:
    from sumeval.datasets.registry import checksums, locate

    if name == "summeval":
        from sumeval.datasets import summeval as se

        frame = summeval_frame()
        relpaths = [se.PAIRS_FILE, se.DOCS_FILE, se.SUMMAC_FILE]
        humans = tuple(sorted(se.QUALITIES))
    else:
        from sumeval.datasets import realsumm as rs

        frame = realsumm_frame()
        relpaths = [rs.DATA_FILE]
        humans = ("litepyramid",)
    sha = _combined_sha256(checksums(relpaths))
    return _classify(frame, name=name, path=locate(relpaths[0]), sha256=sha, fmt="builtin",
                     humans=humans, lower=(), columns=ColumnMap(), locations=None)


def summeval_frame() -> pd.DataFrame:
    """SummEval as a judgments frame: :func:`~sumeval.datasets.summeval.load_summeval`'s 1,600
    rows (same order and columns) plus ``consistency/expert_1`` .. ``/expert_3``, the individual
    expert scores of :func:`~sumeval.datasets.summeval.load_summac_consistency_experts` joined on
    (doc_id, system): 100 pairs, NaN elsewhere."""
    from sumeval.datasets.summeval import load_summac_consistency_experts, load_summeval

    frame = load_summeval()
    experts = load_summac_consistency_experts(wide=True)
    cols = {f"expert_{k}": f"consistency/expert_{k}" for k in (1, 2, 3)}
    experts = experts[["doc_id", "system", *cols]].rename(columns=cols)
    out = frame.merge(experts, on=["doc_id", "system"], how="left", validate="one_to_one", sort=False)
    for c in cols.values():
        out[c] = out[c].astype("float64")
    return out


def realsumm_frame() -> pd.DataFrame:
    """REALSumm as a judgments frame (2,500 rows, the order of
    :func:`~sumeval.datasets.realsumm.load_realsumm`): ``doc_id, system, summary, text,
    text_tokenized, references, litepyramid``, with the summary and the one reference as one
    sentence per line."""
    from sumeval.datasets.realsumm import load_realsumm, load_realsumm_documents

    pairs = load_realsumm().rename(columns={"litepyramid_recall": "litepyramid"})
    ref_sentences = load_realsumm_documents().set_index("doc_id")["reference_sentences"]
    pairs["summary"] = pairs["summary_sentences"].map("\n".join)
    pairs["references"] = pairs["doc_id"].map(lambda d: ["\n".join(ref_sentences[d])])
    return pairs[["doc_id", "system", "summary", "text", "text_tokenized", "references",
                  "litepyramid"]].reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# Reading a file
# --------------------------------------------------------------------------------------------
@dataclass
class _Table:
    """A file's rows before checking: header in file order, one dict per row, its location."""

    header: list[str]
    rows: list[dict[str, Any]]
    where: list[str]
    text_cells: bool  # True for CSV/TSV: every cell is a string to parse


def _format_of(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(f"{path}: unknown judgments format {path.suffix or '(no extension)'!r}; "
                         f"use one of {', '.join(FORMATS)} (the extension chooses the reader)")
    return fmt


def _read_table(path: Path, fmt: str, data: bytes) -> _Table:
    if fmt == "jsonl":
        return _read_jsonl(path)
    if fmt in ("csv", "tsv"):
        return _read_delimited(path, data, "," if fmt == "csv" else "\t")
    return _read_parquet(path, data)


def _read_jsonl(path: Path) -> _Table:
    from sumeval.jsonl import iter_jsonl

    header: dict[str, None] = {}
    rows, where = [], []
    for lineno, obj in iter_jsonl(path, fix="each line must be one JSON object"):
        header.update(dict.fromkeys(obj))
        rows.append(obj)
        where.append(f"{path}:{lineno}")
    return _Table(list(header), rows, where, text_cells=False)


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: not UTF-8 text (byte {exc.start}); save the file as "
                         "UTF-8") from None


def _read_delimited(path: Path, data: bytes, delimiter: str) -> _Table:
    text = _decode(path, data)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    rows, where = [], []
    last = 0
    try:
        for cells in reader:
            first, last = last + 1, reader.line_num
            if not cells or all(not c.strip() for c in cells):
                continue
            if header is None:
                header = [c.strip() for c in cells]
                seen: set[str] = set()
                for i, col in enumerate(header, 1):
                    if not col:
                        raise InputError(f"{path}:{first}: header column {i} has no name")
                    if col in seen:
                        raise InputError(f"{path}:{first}: column {col!r} appears twice in the header")
                    seen.add(col)
                continue
            if len(cells) != len(header):
                raise InputError(f"{path}:{first}: {len(cells)} fields, but the header has "
                                 f"{len(header)} ({', '.join(header)}); quote fields that hold "
                                 f"the delimiter {delimiter!r}")
            rows.append(dict(zip(header, cells)))
            where.append(f"{path}:{first}")
    except csv.Error as exc:
        raise InputError(f"{path}:{reader.line_num}: not valid {'CSV' if delimiter == ',' else 'TSV'} "
                         f"({exc})") from None
    if header is None:
        raise InputError(f"{path}: the file is empty; a judgments file needs a header line and "
                         "one line per summary")
    return _Table(header, rows, where, text_cells=True)


def _read_parquet(path: Path, data: bytes) -> _Table:
    try:
        frame = pd.read_parquet(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise InputError(f"{path}: not a readable parquet file ({type(exc).__name__}: {exc})") from None
    rows = []
    for rec in frame.to_dict("records"):
        rows.append({k: _plain(v) for k, v in rec.items()})
    return _Table([str(c) for c in frame.columns], rows,
                  [f"{path}: row {i}" for i in range(1, len(rows) + 1)], text_cells=False)


def _plain(value: Any) -> Any:
    """A frame cell as a plain Python value (arrays become lists, NaN and missing values None)."""
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


# --------------------------------------------------------------------------------------------
# Checking the rows
# --------------------------------------------------------------------------------------------
def _missing(value: Any, text_cells: bool) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return text_cells and isinstance(value, str) and value.strip() in _MISSING_CELLS


def _number(value: Any, text_cells: bool) -> float | None:
    """``value`` as a float (NaN when missing), or None when it is not a number."""
    if _missing(value, text_cells):
        return math.nan
    if isinstance(value, (bool, int, float)):
        return float(value)
    if text_cells and isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def _short(value: Any, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _load_file(path: Path, columns: ColumnMap, humans: tuple[str, ...], lower: tuple[str, ...], *,
               expect_sha256: str | None = None, name: str | None = None, entry=None) -> Judgments:
    """Read and check the judgments file ``path``."""
    fmt = _format_of(path)
    if not path.is_file():
        raise DataNotFoundError(f"judgments file {str(path)!r} "
                                + ("is a folder; give the file" if path.is_dir() else "does not exist"))
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    if expect_sha256 is not None and sha != expect_sha256:
        raise DataNotFoundError(
            f"data set {name!r}: its file {path} changed since it was added (recorded sha256 "
            f"{expect_sha256}, {entry.size} bytes; now {sha}, {len(data)} bytes). Scores cached for "
            f"the recorded file are not used for the new one. If the change is intended, add it "
            f"again: {_add_command(entry)}; otherwise restore the recorded file")
    table = _read_table(path, fmt, data)
    if not table.rows:
        raise InputError(f"{path}: no rows; a judgments file needs one row per (document, system) summary")
    frame, locations = _check_table(path, table, columns, humans)
    return _classify(frame, name=name or path.stem, path=path.resolve(), sha256=sha, fmt=fmt,
                     humans=humans, lower=lower, columns=columns, locations=tuple(locations))


def _check_table(path: Path, table: _Table, columns: ColumnMap, humans: tuple[str, ...]
                 ) -> tuple[pd.DataFrame, list[str]]:
    """The rows of ``table`` checked and typed, as a frame with the roles' names."""
    cols = columns.as_dict()
    renamed = _check_roles(path, table, cols, humans)
    annotators = _annotator_columns(path, table.header, humans, renamed)
    scored = {*humans, *(c for cs in annotators.values() for c in cs)}
    out: dict[str, list] = dict(_ids(table, cols))
    for role in ("summary", "text"):
        if cols[role] in renamed:
            out[role] = [_text_cell(row.get(cols[role]), where, cols[role])
                         for row, where in zip(table.rows, table.where)]
    if cols["references"] in renamed:
        out["references"] = [_references_cell(row.get(cols["references"]), where, cols["references"],
                                               table.text_cells)
                             for row, where in zip(table.rows, table.where)]
    for col in table.header:
        if col not in renamed:
            out[col] = _value_column(path, table, col, scored, humans)
    frame = pd.DataFrame({c: out[c] for c in [*(r for r in ROLES if r in out),
                                              *(c for c in table.header if c not in renamed)]})
    for col in frame.columns:
        if col not in ROLES and all(isinstance(x, float) for x in out[col]):
            frame[col] = frame[col].astype("float64")
    return frame, list(table.where)


def _check_roles(path: Path, table: _Table, cols: Mapping[str, str], humans: tuple[str, ...]
                 ) -> dict[str, str]:
    """``{file column: role}`` after checking that the columns asked for exist and do not clash."""
    header = table.header
    listing = ", ".join(header)
    for role in ("doc_id", "system"):
        if cols[role] not in header:
            raise InputError(f"{path}: no column {cols[role]!r} (the {role.split('_')[0]} ids; "
                             f"name the column that holds them with {_FLAGS[role]}); the file's "
                             f"columns are: {listing}")
    for role in TEXT_FIELDS:
        if cols[role] != role and cols[role] not in header:
            raise InputError(f"{path}: {_FLAGS[role]} {cols[role]!r}: no such column; the file's "
                             f"columns are: {listing}")
    renamed = {cols[r]: r for r in ROLES if cols[r] in header}
    for col in header:
        if col in ROLES and col not in renamed:  # e.g. a 'summary' column beside --summary-col output
            raise InputError(f"{path}: column {col!r} clashes with {_FLAGS[col]} {cols[col]!r}, "
                             f"which is read as {col!r}; rename one of the two columns")
    if not humans:
        numeric = [c for c in header if c not in renamed and _numeric_column(table, c)]
        raise InputError(f"{path}: name the human columns with --human (human=...): column roles "
                         f"are not guessed; numeric columns of the file: {', '.join(numeric) or 'none'}")
    for h in humans:
        if h not in header:
            raise InputError(f"{path}: --human {h!r}: no such column; the file's columns are: {listing}")
        if h in renamed:
            raise InputError(f"{path}: --human {h!r} is the {renamed[h]} column; a human column "
                             "holds scores")
    return renamed


def _ids(table: _Table, cols: Mapping[str, str]) -> dict[str, list]:
    """The ``doc_id`` and ``system`` values of every row; empty ids and duplicate pairs are errors."""
    ids: dict[str, list] = {"doc_id": [], "system": []}
    seen: dict[tuple, str] = {}
    for row, where in zip(table.rows, table.where):
        for role in ids:
            value = row.get(cols[role])
            if value is None or (isinstance(value, str) and not value.strip()):
                raise InputError(f"{where}: column {cols[role]!r} ({role}) is empty; every row needs "
                                 "a document id and a system id")
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise InputError(f"{where}: column {cols[role]!r} ({role}) = {_short(value)}: an id "
                                 "must be a string or an integer")
            ids[role].append(value.strip() if isinstance(value, str) else value)
        key = (ids["doc_id"][-1], ids["system"][-1])
        if key in seen:
            raise InputError(f"{where}: duplicate row for (doc_id {key[0]!r}, system {key[1]!r}); "
                             f"first seen at {seen[key]}. Each (document, system) pair needs exactly "
                             "one row: merge or remove one of them")
        seen[key] = where
    return ids


def _value_column(path: Path, table: _Table, col: str, scored: set[str], humans: tuple[str, ...]
                  ) -> list:
    """Column ``col`` as floats (human, annotator and numeric columns) or as read (others)."""
    values = [row.get(col) for row in table.rows]
    numbers = [_number(v, table.text_cells) for v in values]
    if col in scored:
        kind = "human" if col in humans else "annotator"
        for v, x, where in zip(values, numbers, table.where):
            if x is None:
                raise InputError(f"{where}: {kind} column {col!r} = {_short(v)} is not a number; "
                                 "write a number, or leave the cell empty (NaN) where not judged")
        if all(math.isnan(x) for x in numbers):
            raise InputError(f"{path}: {kind} column {col!r} has no value on any row")
        return numbers
    if all(x is not None for x in numbers) and not all(math.isnan(x) for x in numbers):
        return numbers
    return [None if _missing(v, table.text_cells) else v for v in values]


def _numeric_column(table: _Table, col: str) -> bool:
    numbers = [_number(row.get(col), table.text_cells) for row in table.rows]
    return all(x is not None for x in numbers) and not all(math.isnan(x) for x in numbers)


def _annotator_columns(path: Path, header: list[str], humans: tuple[str, ...],
                       renamed: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """``{human: annotator columns}``; a ``<x>/<y>`` column whose ``<x>`` is no human is an error."""
    out: dict[str, list[str]] = {}
    for col in header:
        if "/" not in col or col in renamed or col in humans:
            continue
        base, _, annotator = col.partition("/")
        if base in humans and annotator:
            out.setdefault(base, []).append(col)
        elif base in header:
            raise InputError(f"{path}: column {col!r} is an annotator column of {base!r}, which is not "
                             f"a human column (human: {', '.join(humans)}); add {base!r} to --human, "
                             "or rename the column (a '/' marks <human>/<annotator> columns)")
        else:
            raise InputError(f"{path}: column {col!r} looks like an annotator column of {base!r}, but "
                             f"the file has no column {base!r}; add the human score {base!r} (e.g. "
                             "the annotators' mean) or rename the column (a '/' marks "
                             "<human>/<annotator> columns)")
    return {h: tuple(cs) for h, cs in out.items()}


def _text_cell(value: Any, where: str, col: str) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if not isinstance(value, str):
        raise InputError(f"{where}: column {col!r} = {_short(value)} is not text; write a string")
    return value


def _references_cell(value: Any, where: str, col: str, text_cells: bool) -> list[str] | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str) and text_cells and value.lstrip().startswith("["):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: column {col!r} starts like a JSON array but is not one "
                             f"({exc.msg}); write the references as [\"one\", \"two\"]") from None
    if isinstance(value, str):
        return [value] if value.strip() else None
    if isinstance(value, list) and all(isinstance(r, str) for r in value):
        return list(value)
    raise InputError(f"{where}: column {col!r} = {_short(value)} is not a list of strings; write "
                     "the references as a list of strings (in CSV/TSV a JSON array, or one string)")


# --------------------------------------------------------------------------------------------
# Roles of the columns
# --------------------------------------------------------------------------------------------
def systems_missing_documents(frame: pd.DataFrame) -> dict[Any, tuple]:
    """``{system: (doc_id, ...)}``: the documents each system has no row for (only systems with some)."""
    docs = list(pd.unique(frame["doc_id"]))
    have = frame.groupby("system", sort=False)["doc_id"].agg(set)
    out = {}
    for system, got in have.items():
        lacking = tuple(d for d in docs if d not in got)
        if lacking:
            out[system] = lacking
    return out


def _classify(frame: pd.DataFrame, *, name: str, path: Path | None, sha256: str, fmt: str,
              humans: tuple[str, ...], lower: tuple[str, ...], columns: ColumnMap,
              locations: tuple[str, ...] | None) -> Judgments:
    """The :class:`Judgments` of a checked frame: annotator, measure and other columns sorted out."""
    annotators: dict[str, list[str]] = {}
    measures, others = [], []
    for col in frame.columns:
        if col in ROLES or col in humans:
            continue
        base, slash, _ = col.partition("/")
        if slash and base in humans:
            annotators.setdefault(base, []).append(col)
        elif pd.api.types.is_float_dtype(frame[col]) or (
                pd.api.types.is_numeric_dtype(frame[col]) and not pd.api.types.is_bool_dtype(frame[col])):
            measures.append(col)
        else:
            others.append(col)
    for col in lower:
        if col not in measures:
            where = f"{path}: " if path is not None else ""
            raise InputError(f"{where}--lower-is-better {col!r}: not a measure column (the numeric "
                             f"columns that are neither ids nor human nor annotator columns: "
                             f"{', '.join(measures) or 'none'})")
    return Judgments(
        frame=frame.reset_index(drop=True), name=name, path=path, sha256=sha256, format=fmt,
        humans=tuple(humans), annotators={h: tuple(c) for h, c in annotators.items()},
        measures=tuple(measures), fields=tuple(f for f in TEXT_FIELDS if f in frame.columns),
        lower_is_better=tuple(lower), other_columns=tuple(others), columns=columns,
        locations=locations, systems_missing_documents=systems_missing_documents(frame))


# --------------------------------------------------------------------------------------------
# Levels
# --------------------------------------------------------------------------------------------
def canonical_level(level: str) -> str:
    """``input``, ``system`` or ``global`` for any accepted level name (see :data:`LEVELS`)."""
    key = str(level).strip().lower()
    if key not in LEVELS:
        raise InputError(f"level {level!r} is unknown; use input (per document, then averaged), "
                         "system (per-system means) or global (all pairs pooled); 'document' and "
                         "'summary' are accepted as input and global")
    return LEVELS[key]


def check_level(judgments: Judgments, level: str, human: str | None = None) -> dict[str, Any]:
    """Refuse a correlation level that ``judgments`` cannot support.

    * global: at least :data:`MIN_PAIRS` (3) pairs;
    * system: at least :data:`MIN_SYSTEMS` (3) systems (with two, every correlation is +-1);
    * input: every document has at least :data:`MIN_SYSTEMS_PER_DOCUMENT` (2) systems.

    Only rows where ``human`` (a human column) has a value count, when it is given.

    Returns ``{"level", "pairs", "documents", "systems"}`` (counts of what the level uses);
    raises :class:`InputError` naming the data set, the level and the counts.
    """
    lv = canonical_level(level)
    frame = judgments.frame
    if human is not None:
        if human not in judgments.frame.columns:
            raise InputError(f"human column {human!r} is not in {judgments.name} (human columns: "
                             f"{', '.join(judgments.humans)})")
        frame = frame[frame[human].notna()]
    what = f"{judgments.name}" + (f" (rows with a {human!r} score)" if human else "")
    n_pairs = len(frame)
    systems = list(pd.unique(frame["system"]))
    per_doc = frame.groupby("doc_id", sort=False)["system"].nunique()
    counts = {"level": lv, "pairs": n_pairs, "documents": int(len(per_doc)), "systems": len(systems)}
    if lv == "global" and n_pairs < MIN_PAIRS:
        raise InputError(f"global level needs at least {MIN_PAIRS} summaries; {what} has {n_pairs}")
    if lv == "system" and len(systems) < MIN_SYSTEMS:
        raise InputError(f"system level needs at least {MIN_SYSTEMS} systems; {what} has "
                         f"{len(systems)} ({', '.join(map(repr, systems))}); use the input or "
                         "global level")
    if lv == "input":
        few = per_doc[per_doc < MIN_SYSTEMS_PER_DOCUMENT]
        if len(per_doc) == 0 or len(few):
            shown = ", ".join(f"{d!r} ({k})" for d, k in list(few.items())[:5])
            raise InputError(
                f"input level needs at least {MIN_SYSTEMS_PER_DOCUMENT} systems on every document; "
                f"in {what}, {len(few)} of {len(per_doc)} documents have fewer: {shown or 'none'}"
                f"{' ...' if len(few) > 5 else ''}. Drop those documents or use the global level")
    return counts


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
    An existing name is replaced only with ``replace_existing`` (``--replace``).

    Returns the loaded :class:`Judgments`.
    """
    from datetime import datetime, timezone

    from sumeval.datasets.user_datasets import UserDataset, check_name, read_registry, write_registry

    check_name(name, BUILTIN)
    entries = read_registry()
    if name in entries and not replace_existing:
        old = entries[name]
        raise InputError(f"data set {name!r} is already registered ({old.path}, added {old.added}); "
                         "pass --replace (replace_existing=True) to record the new file under this name")
    target = Path(path).expanduser()
    if not _is_path(str(path)) and not target.exists():
        raise InputError(f"{str(path)!r} is not a file path; give the judgments file "
                         f"(.jsonl, .csv, .tsv, .parquet)")
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
    write_registry({**entries, name: entry})
    return judgments


def remove_dataset(name: str) -> None:
    """Forget user data set ``name`` (its file is left alone)."""
    from sumeval.datasets.user_datasets import read_registry, write_registry

    entries = read_registry()
    if name not in entries:
        if name.lower() in BUILTIN:
            raise InputError(f"{name!r} is a built-in data set; only user data sets can be removed")
        raise InputError(f"no user data set {name!r}; user data sets: "
                         f"{', '.join(sorted(entries)) or 'none'}")
    write_registry({k: v for k, v in entries.items() if k != name})


_BUILTIN_DESCRIPTIONS = {
    "summeval": ("1600 summaries, 100 documents, 16 systems",
                 "coherence, consistency, fluency, relevance (+ consistency/expert_1..3 on 100 pairs)"),
    "realsumm": ("2500 summaries, 100 documents, 25 systems", "litepyramid"),
}


def list_datasets() -> list[dict[str, Any]]:
    """The judgments data sets by name: built-in ones, then the user's (registry order).

    Each: ``name, kind ("built-in" or "user"), size (text), human (text), path, sha256``.
    Nothing is read but the registry.
    """
    from sumeval.datasets.user_datasets import read_registry

    out = [{"name": n, "kind": "built-in", "size": _BUILTIN_DESCRIPTIONS[n][0],
            "human": _BUILTIN_DESCRIPTIONS[n][1], "path": "", "sha256": ""} for n in BUILTIN]
    for name, e in sorted(read_registry().items()):
        out.append({"name": name, "kind": "user",
                    "size": f"{e.rows} summaries, {e.documents} documents, {e.systems} systems",
                    "human": ", ".join(e.human), "path": e.path, "sha256": e.sha256})
    return out


def verify_user_datasets() -> list[dict[str, str]]:
    """Check every user data set's file: ``[{name, path, status, error}]``, status ``ok``,
    ``missing`` or ``changed`` (never raises for those)."""
    from sumeval.datasets.registry import sha256_file
    from sumeval.datasets.user_datasets import read_registry

    out = []
    for name, e in sorted(read_registry().items()):
        path = Path(e.path)
        if not path.is_file():
            out.append({"name": name, "path": e.path, "status": "missing",
                        "error": f"file not found; re-add it: {_add_command(e, '<NEW PATH>')}"})
            continue
        actual = sha256_file(path)
        if actual != e.sha256:
            out.append({"name": name, "path": e.path, "status": "changed",
                        "error": f"sha256 {actual} differs from the recorded {e.sha256}; if the "
                                 f"change is intended: {_add_command(e)}"})
        else:
            out.append({"name": name, "path": e.path, "status": "ok", "error": ""})
    return out


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------
def export_judgments(judgments: Judgments, out: str | os.PathLike[str]) -> Path:
    """Write ``judgments.frame`` as a judgments file, format by ``out``'s extension (atomically).

    JSONL: one object per row, NaN as null. CSV/TSV: ``references`` as a JSON array, NaN as an
    empty cell. Parquet: the frame as is. Returns the path written.
    """
    from sumeval.cache import atomic_path

    out = Path(out)
    fmt = _format_of(out)
    frame = judgments.frame
    with atomic_path(out) as tmp:
        if fmt == "parquet":
            frame.to_parquet(tmp, index=False)
        elif fmt == "jsonl":
            with open(tmp, "w", encoding="utf-8") as fh:
                for rec in frame.to_dict("records"):
                    fh.write(json.dumps({k: _plain(v) for k, v in rec.items()}, ensure_ascii=False) + "\n")
        else:
            with open(tmp, "w", encoding="utf-8", newline="") as fh:
                writer = csv.writer(fh, delimiter="," if fmt == "csv" else "\t")
                writer.writerow(list(frame.columns))
                for rec in frame.to_dict("records"):
                    writer.writerow([_csv_cell(_plain(v)) for v in rec.values()])
    return out


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)

