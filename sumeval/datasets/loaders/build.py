"""Building the built-in judged data sets (the shelf): reading their files as they are, checking
them against the counts ``../shared/data/MANIFEST.md`` records, and making a
:class:`~sumeval.datasets.judgments_model.Judgments` whose every column has a declared role.

The family loaders (:mod:`sumeval.datasets.loaders.dialsummeval`, :mod:`~sumeval.datasets.loaders.frank`, ...) use
these helpers; :mod:`sumeval.datasets.shelf` lists the sets and loads them by name. Files are found
and verified against their recorded sha256 by :func:`sumeval.datasets.registry.locate`; a count that
differs from the recorded one means a different version of the file and is an :class:`InputError`
naming the file, what was counted, the count and the expected one.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from sumeval.errors import InputError

__all__ = ["FIX", "read_json", "read_jsonl", "read_csv", "read_lines", "expect", "make_judgments"]

#: what a user does about a file that is not the registered version
FIX = "replace the file with the registered copy (sumeval data verify names its source)"


def read_json(relpath: str) -> tuple[Path, Any]:
    """``(path, parsed JSON)`` of registered file ``relpath`` (located and verified)."""
    from sumeval.datasets.registry import locate

    path = locate(relpath)
    try:
        return path, json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not valid UTF-8 JSON ({exc}); {FIX}") from None


def read_jsonl(relpath: str, required: Sequence[str] = ()) -> tuple[Path, list[tuple[int, dict]]]:
    """``(path, [(line number, object), ...])`` of registered JSONL file ``relpath``; every object
    must have the ``required`` fields (an error names the line)."""
    from sumeval.datasets.registry import locate
    from sumeval.jsonl import iter_jsonl

    path = locate(relpath)
    return path, list(iter_jsonl(path, required=required, fix=FIX))


def read_csv(relpath: str, columns: Sequence[str]) -> tuple[Path, list[tuple[int, dict[str, str]]]]:
    """``(path, [(line number, {column: cell}), ...])`` of registered CSV file ``relpath``, every cell
    a string as written (no value is guessed: ``NULL`` stays ``"NULL"``). The header must hold
    ``columns``; a row with another number of fields is an error naming its line."""
    from sumeval.datasets.registry import locate

    path = locate(relpath)
    text = path.read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None or not set(columns) <= set(header):
        raise InputError(f"{path}:1: header {header!r} lacks {sorted(set(columns) - set(header or []))}; {FIX}")
    rows = []
    last = 1
    for cells in reader:
        first, last = last + 1, reader.line_num
        if len(cells) != len(header):
            raise InputError(f"{path}:{first}: {len(cells)} fields, the header has {len(header)}; {FIX}")
        rows.append((first, dict(zip(header, cells))))
    return path, rows


def read_lines(relpath: str) -> tuple[Path, list[str]]:
    """``(path, lines)`` of registered text file ``relpath`` (without line ends; a last empty line,
    the file's final newline, is not a line)."""
    from sumeval.datasets.registry import locate

    path = locate(relpath)
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return path, [line.rstrip("\r") for line in lines]


def expect(path: Path | str, what: str, got: Any, want: Any) -> None:
    """Raise :class:`InputError` unless ``got == want``: ``"<path>: <what> is <got>, MANIFEST.md
    records <want>"``."""
    if got != want:
        raise InputError(f"{path}: {what} is {got!r}, MANIFEST.md records {want!r}; {FIX}")


def make_judgments(frame: pd.DataFrame, *, name: str, relpaths: Sequence[str], humans: Sequence[str],
                   annotators: Mapping[str, Sequence[str]] | None = None, measures: Sequence[str] = (),
                   opt_in: Sequence[str] = (), lower: Sequence[str] = (),
                   limits: Mapping[str, str] | None = None, notes: Sequence[str] = ()):
    """The :class:`~sumeval.datasets.judgments_model.Judgments` of a built-in set, roles declared.

    Args:
        frame: one row per (document, system): ``doc_id``, ``system``, the text fields the set has (``summary``,
            ``text``, ``references`` - a list of str), then its other columns.
        name: the data set's name.
        relpaths: the registered files read (the first is the Judgments' ``path``); the sha256 is over their
            sha256s.
        humans: the human columns; ``annotators``: ``{human: (annotator column, ...)}``.
        measures: the precomputed measure columns; ``opt_in``: those of them used only when named; ``lower``: those
            whose lower values are better.
        limits: ``{text field or level: reason}`` of what the set cannot do.
        notes: what a reader must know, printed by ``sumeval data show`` (:attr:`Judgments.notes`).

    Every other column is kept as an unused column. Human, annotator and measure columns become
    float64. Raises :class:`InputError` for a duplicate (doc_id, system) pair or a declared column
    the frame lacks.
    """
    from sumeval.datasets.judgments_model import ROLES, TEXT_FIELDS, Judgments, systems_missing_documents
    from sumeval.datasets.registry import checksums, combined_sha256, locate

    annotators = {h: tuple(c) for h, c in (annotators or {}).items()}
    scored = [*humans, *(c for cs in annotators.values() for c in cs), *measures]
    missing = [c for c in [*scored, "doc_id", "system"] if c not in frame.columns]
    if missing or set(annotators) - set(humans) or set(opt_in) - set(measures) or set(lower) - set(measures):
        raise InputError(f"data set {name!r}: declared columns {missing} are not in its frame, or an "
                         "annotator / opt-in / lower-is-better column has no human / measure")
    dup = frame.duplicated(["doc_id", "system"])
    if dup.any():
        d, s = frame.loc[dup.idxmax(), ["doc_id", "system"]]
        raise InputError(f"data set {name!r}: two rows for (doc_id {d!r}, system {s!r}); {FIX}")
    frame = frame.reset_index(drop=True).copy()
    for col in scored:
        frame[col] = pd.to_numeric(frame[col], errors="raise").astype("float64")
    others = [c for c in frame.columns if c not in ROLES and c not in scored]
    return Judgments(
        frame=frame, name=name, path=locate(relpaths[0]), sha256=combined_sha256(checksums(relpaths)),
        format="builtin", humans=tuple(humans), annotators=annotators, measures=tuple(measures),
        fields=tuple(f for f in TEXT_FIELDS if f in frame.columns), lower_is_better=tuple(lower),
        other_columns=tuple(others), locations=None, systems_missing_documents=systems_missing_documents(frame),
        limits=dict(limits or {}), opt_in_measures=tuple(opt_in), notes=tuple(notes))


def bartscore_records(relpath: str, systems: Sequence[str], scores: Sequence[str]) -> tuple[Path, list[dict]]:
    """The records of a BARTScore-prepared JSONL file (Newsroom, Rank19), checked: ``doc_id, src,
    ref_summ, sys_summs{system: {sys_summ, scores{...}}}`` with exactly ``systems``, each summary a
    string and each of ``scores`` a number. Returns ``(path, records)`` in file order."""
    path, lines = read_jsonl(relpath, required=("doc_id", "src", "ref_summ", "sys_summs"))
    seen = set()
    for lineno, r in lines:
        if r["doc_id"] in seen:
            raise InputError(f"{path}:{lineno}: doc_id {r['doc_id']!r} appears twice; {FIX}")
        seen.add(r["doc_id"])
        summs = r["sys_summs"]
        if not isinstance(summs, dict) or sorted(summs) != sorted(systems):
            got = sorted(summs) if isinstance(summs, dict) else type(summs).__name__
            raise InputError(f"{path}:{lineno}: systems {got}, expected {sorted(systems)}; {FIX}")
        for system, v in summs.items():
            ok = (isinstance(v, dict) and isinstance(v.get("sys_summ"), str) and isinstance(v.get("scores"), dict)
                  and all(isinstance(v["scores"].get(s), (int, float)) and not isinstance(v["scores"].get(s), bool)
                          for s in scores))
            if not ok:
                raise InputError(f"{path}:{lineno}: system {system!r} is not {{sys_summ: str, scores: "
                                 f"{{{', '.join(scores)}: number}}}}; {FIX}")
    return path, [r for _, r in lines]
