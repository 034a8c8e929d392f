"""Judgments files: reading JSONL, CSV, TSV and parquet (:func:`read_table`), checking every row
and cell with errors that name the file, the line, the column and the value
(:func:`check_table`), and writing a data set back as a file (:func:`export_judgments`).

The file format is described in :mod:`sumeval.datasets.judgments`, which loads data sets.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.datasets.judgments_model import ROLE_FLAGS, ROLES, TEXT_FIELDS, ColumnMap, Judgments
from sumeval.datasets.table_rows import TableRows, decode_text
from sumeval.errors import InputError

__all__ = ["FORMATS", "format_of", "read_table", "check_table", "export_judgments"]

#: file extension -> format
FORMATS: dict[str, str] = {".jsonl": "jsonl", ".csv": "csv", ".tsv": "tsv", ".parquet": "parquet",
                           ".json": "judge-bench"}  # Judge-Bench's schema: sumeval.datasets.judge_bench
#: CSV/TSV cells read as "no value"
_MISSING_CELLS = frozenset({"", "nan", "NaN", "NA", "N/A", "null", "None"})

# --------------------------------------------------------------------------------------------
# Reading a file
# --------------------------------------------------------------------------------------------
def check_format(path: str | os.PathLike[str], fmt: str | None) -> None:
    """``--format FMT`` must name the format ``path``'s extension picks (the extension chooses the reader)."""
    if fmt is not None and FORMATS.get(Path(path).suffix.lower()) != fmt:
        want = next(e for e, f in FORMATS.items() if f == fmt)
        raise InputError(f"--format {fmt} and {str(path)!r}: a {fmt} file ends in {want}; rename it (or drop "
                         f"--format: the extension picks the format)")


def format_of(path: Path) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(f"{path}: unknown judgments format {path.suffix or '(no extension)'!r}; "
                         f"use one of {', '.join(FORMATS)} (the extension chooses the reader)")
    return fmt


def read_table(path: Path, fmt: str, data: bytes) -> TableRows:
    if fmt == "judge-bench":
        from sumeval.datasets.judge_bench import read_table as read_judge_bench

        return read_judge_bench(path, data)
    if fmt == "jsonl":
        return _read_jsonl_table(path)
    if fmt in ("csv", "tsv"):
        return _read_delimited(path, data, "," if fmt == "csv" else "\t")
    return _read_parquet(path, data)


def _read_jsonl_table(path: Path) -> TableRows:
    from sumeval.jsonl import iter_jsonl

    header: dict[str, None] = {}
    rows, where = [], []
    for lineno, obj in iter_jsonl(path, fix="each line must be one JSON object"):
        header.update(dict.fromkeys(obj))
        rows.append(obj)
        where.append(f"{path}:{lineno}")
    return TableRows(list(header), rows, where, text_cells=False)


def _read_delimited(path: Path, data: bytes, delimiter: str) -> TableRows:
    text = decode_text(path, data)
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
                if len(header) == 1:  # one column: a file separated by another character?
                    _check_separator(path, text, delimiter)
                seen: set[str] = set()
                for i, col in enumerate(header, 1):
                    if not col:
                        raise InputError(f"{path}:{first}: header column {i} has no name")
                    if col in seen:
                        raise InputError(f"{path}:{first}: column {col!r} appears twice in the header")
                    seen.add(col)
                continue
            if len(cells) != len(header):
                _check_separator(path, text, delimiter)
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
    return TableRows(header, rows, where, text_cells=True)


_SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
_DECIMAL_COMMA = re.compile(r"^[-+]?\d+,\d+$")


def _check_separator(path: Path, text: str, delimiter: str) -> None:
    """InputError naming the separator when ``path``'s header line splits into more columns at
    another character (``;`` from a spreadsheet set to a decimal comma, a tab) than at
    ``delimiter``, and the decimal comma when the first data line has numbers like ``3,5``."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return
    counts = {sep: len(next(csv.reader([lines[0]], delimiter=sep))) for sep in _SEPARATORS}
    best = max(counts, key=lambda sep: counts[sep])
    if best == delimiter or counts[best] <= counts[delimiter]:
        return
    note = ""
    if len(lines) > 1:
        header = next(csv.reader([lines[0]], delimiter=best))
        first = next(csv.reader([lines[1]], delimiter=best))
        commas = [(h, c) for h, c in zip(header, first) if _DECIMAL_COMMA.match(c.strip())]
        if commas and best != ",":
            note = (f", and numbers are written with a decimal comma ({commas[0][1]!r} in column "
                    f"{commas[0][0].strip()!r} on line 2)")
    fmt = "TSV" if delimiter == "\t" else "CSV"
    name = _SEPARATORS[best]
    conv = f"sep={best!r}" + (", decimal=','" if note else "")
    raise InputError(
        f"{path}: its columns are separated by {name}s ({best!r}: the header has {counts[best]} columns at "
        f"{best!r}, {counts[delimiter]} at {delimiter!r}){note}"
        + (", as a spreadsheet exports where the decimal separator is a comma" if best == ";" else "")
        + f"; a {path.suffix or fmt} file is read with {delimiter!r} as the separator"
        + (" and '.' as the decimal point" if note else "") + ". Save it as comma-separated CSV "
        "(Excel: 'CSV UTF-8 (Comma delimited)', with '.' as the decimal separator), "
        + ("or rename it to .tsv, " if best == "\t" else "")
        + f"or convert it: python -c \"import pandas as pd; pd.read_csv('{path}', {conv})"
        f".to_csv('{path.with_name(path.stem + '_comma.csv')}', index=False)\"")


def _read_parquet(path: Path, data: bytes) -> TableRows:
    try:
        frame = pd.read_parquet(io.BytesIO(data))
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise InputError(f"{path}: not a readable parquet file ({type(exc).__name__}: {exc})") from None
    rows = []
    for rec in frame.to_dict("records"):
        rows.append({k: _plain(v) for k, v in rec.items()})
    return TableRows([str(c) for c in frame.columns], rows,
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


def first_text_cell(values: Sequence[Any], text_cells: bool) -> int | None:
    """Position of the first of ``values`` (a column as read) that is neither a number nor an
    empty cell, or None (``text_cells``: CSV/TSV, where every cell is a string to parse)."""
    return next((i for i, v in enumerate(values) if _number(v, text_cells) is None), None)


def short_value(value: Any, width: int = 60) -> str:
    """``repr(value)``, cut to ``width`` characters for a message."""
    return _short(value, width)


def _short(value: Any, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def check_table(path: Path, table: TableRows, columns: ColumnMap, humans: tuple[str, ...], *,
                annotators_suffice: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """The rows of ``table`` checked and typed, as a frame with the roles' names (``annotators_suffice``: a
    human column may be absent where the file has its ``<human>/<annotator>`` columns)."""
    cols = columns.as_dict()
    renamed = _check_roles(path, table, cols, humans, annotators_suffice)
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


def _check_roles(path: Path, table: TableRows, cols: Mapping[str, str], humans: tuple[str, ...],
                 annotators_suffice: bool = False) -> dict[str, str]:
    """``{file column: role}`` after checking that the columns asked for exist and do not clash."""
    header = table.header
    listing = ", ".join(header)
    for role in ("doc_id", "system"):
        if cols[role] not in header:
            raise InputError(f"{path}: no column {cols[role]!r} (the {role.split('_')[0]} ids; "
                             f"name the column that holds them with {ROLE_FLAGS[role]}); the file's "
                             f"columns are: {listing}")
    for role in TEXT_FIELDS:
        if cols[role] != role and cols[role] not in header:
            raise InputError(f"{path}: {ROLE_FLAGS[role]} {cols[role]!r}: no such column; the file's "
                             f"columns are: {listing}")
    renamed = {cols[r]: r for r in ROLES if cols[r] in header}
    for col in header:
        if col in ROLES and col not in renamed:  # e.g. a 'summary' column beside --summary-col output
            raise InputError(f"{path}: column {col!r} clashes with {ROLE_FLAGS[col]} {cols[col]!r}, "
                             f"which is read as {col!r}; rename one of the two columns")
    if not humans:
        numeric = [c for c in header if c not in renamed and _numeric_column(table, c)]
        raise InputError(f"{path}: name the human columns with --human (human=...): column roles "
                         f"are not guessed; numeric columns of the file: {', '.join(numeric) or 'none'}")
    for h in humans:
        if h not in header and annotators_suffice and any(c.startswith(f"{h}/") and c != f"{h}/" for c in header):
            continue
        if h not in header:
            raise InputError(f"{path}: --human {h!r}: no such column; the file's columns are: {listing}")
        if h in renamed:
            raise InputError(f"{path}: --human {h!r} is the {renamed[h]} column; a human column "
                             "holds scores")
    return renamed


def _ids(table: TableRows, cols: Mapping[str, str]) -> dict[str, list]:
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


def _value_column(path: Path, table: TableRows, col: str, scored: set[str], humans: tuple[str, ...]
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
            if math.isinf(x):
                raise InputError(f"{where}: {kind} column {col!r} = {_short(v)} is infinite; write a finite "
                                 "number, or leave the cell empty (NaN) where not judged")
        if all(math.isnan(x) for x in numbers):
            raise InputError(f"{path}: {kind} column {col!r} has no value on any row")
        return numbers
    if all(x is not None for x in numbers) and not all(math.isnan(x) for x in numbers):
        return numbers
    return [None if _missing(v, table.text_cells) else v for v in values]


def _numeric_column(table: TableRows, col: str) -> bool:
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
    """The references of one row: a list of strings. The same rule in every format: a list is a
    list; a string that starts with ``[`` is a JSON-encoded list (a CSV cell, or a JSONL / parquet
    string column as pandas' ``to_json`` writes a list read from CSV) and must parse as a list of
    strings (:func:`sumeval.jsonl.json_list_cell`); any other non-blank string is one reference."""
    from sumeval.jsonl import json_list_cell

    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        parsed = json_list_cell(value, where, f"column {col!r}")
        value = value if parsed is None else parsed
    if isinstance(value, str):
        return [value] if value.strip() else None
    if isinstance(value, list) and all(isinstance(r, str) for r in value):
        return list(value)
    raise InputError(f"{where}: column {col!r} = {_short(value)} is not a list of strings; write "
                     "the references as a list of strings (in CSV/TSV a JSON array, or one string)")


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
    fmt = format_of(out)
    if fmt == "judge-bench":
        from sumeval.datasets.judge_bench import export_judge_bench

        return export_judge_bench(judgments, out)
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
