"""Scoring records with the checks every measure shares: the fields' types
(:func:`check_records`), the rows a scorer is asked to score and why the others are not
(:func:`admit_rows`), and what came back (:func:`score_records`, :class:`ScoreReport`).

Rows are never dropped: a row that is not scored keeps NaN in the measure's columns and is listed
in the report with its reason.

>>> from sumeval.metrics.records import score_records
>>> frame, report = score_records([{"summary": "", "references": ["a cat"]}], ["rouge-1"])
>>> report.skipped
[(0, 'rouge-1', 'empty summary')]
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer, Scores
from sumeval.metrics.registry import get_scorers

__all__ = ["NO_NUMBER", "NotScoredWarning", "ScoreReport", "check_records", "json_preview", "admit_rows",
           "score_records"]

#: the reason :func:`score_records` gives for a row whose score came back NaN or None unexplained
NO_NUMBER = "no number: score_batch returned NaN or None"


class NotScoredWarning(UserWarning):
    """A measure returned NaN or None for some rows without saying why (:class:`~sumeval.metrics.base.Scores`'
    ``undefined``): those
    rows are counted as not scored; one warning per measure and call, naming the first rows."""


@dataclass
class ScoreReport:
    """What could not be scored, and why: ``skipped = [(row_index, measure, reason), ...]``; and
    what was scored with a caveat: ``notes = [(row_index, measure, note), ...]`` (e.g. an empty
    reference left out)."""

    skipped: list[tuple[int, str, str]] = field(default_factory=list)
    signatures: dict[str, str] = field(default_factory=dict)
    notes: list[tuple[int, str, str]] = field(default_factory=list)

    def __bool__(self) -> bool:  # truthy when something was skipped
        return bool(self.skipped)

    def summary_lines(self, row_label: Callable[[int], str] = lambda i: f"row {i}", *,
                      rows_label: Callable[[list[int]], str] | None = None, show: int = 5) -> list[str]:
        """One line per (measure, reason): ``"file:3: rouge-1 not scored (empty summary)"`` for one
        row, ``"rouge-1 not scored (empty summary) on 7 rows: row 3, row 5, ... and 2 more"`` for
        several (the first ``show`` named, by ``rows_label`` when given); notes likewise."""
        out = []
        for entries, verb in ((self.skipped, "not scored"), (self.notes, "scored;")):
            groups: dict[tuple[str, str], list[int]] = {}
            for i, m, why in entries:
                groups.setdefault((m, why), []).append(i)
            for (m, why), rows in groups.items():
                what = f"{m} not scored ({why})" if verb == "not scored" else f"{m}: {why}"
                if len(rows) == 1:
                    out.append(f"{row_label(rows[0])}: {what}")
                    continue
                named = rows_label(rows[:show]) if rows_label else ", ".join(row_label(i) for i in rows[:show])
                more = f" and {len(rows) - show} more" if len(rows) > show else ""
                out.append(f"{what} on {len(rows)} rows: {named}{more}")
        return out


def _is_blank(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__)


def _references_of(record: Mapping[str, Any]) -> list[str] | None:
    refs = record.get("references")
    if refs is None or (isinstance(refs, float) and math.isnan(refs)):
        return None
    if isinstance(refs, str):
        from sumeval.jsonl import json_list_cell

        refs = json_list_cell(refs, "references", "field 'references'") or [refs]  # checked first
    refs = [r for r in refs if not _is_blank(r)]
    return refs or None


def check_records(records: Sequence[Mapping[str, Any]], needs: Iterable[str],
                  row_label: Callable[[int], str] = lambda i: f"row {i}") -> None:
    """InputError naming the row and field when a field the measures read has the wrong type.

    Types: ``summary`` and ``text`` are strings; ``references`` is a list of strings (a single
    string is one reference; a string that starts with ``[`` is a JSON-encoded list and must parse
    as a list of strings, as in every judgments file: :func:`sumeval.jsonl.json_list_cell`). A
    missing, null or blank value is not a type error: that row is not scored and reported.
    Nothing is converted: ``"summary": 42`` is an error, not the text "42".
    """
    from sumeval.jsonl import json_list_cell

    needs = set(needs) | {"summary"}
    for i, rec in enumerate(records):
        for f in ("summary", "text"):
            v = rec.get(f)
            if f in needs and not _is_blank(v) and not isinstance(v, str):
                raise InputError(f"{row_label(i)}: field {f!r} must be a string, got {_type_name(v)} "
                                 f"{json_preview(v)}; quote it or fix the line")
        refs = rec.get("references")
        if "references" in needs and isinstance(refs, str):
            json_list_cell(refs, row_label(i), "field 'references'")
        if "references" not in needs or _is_blank(refs) or isinstance(refs, str):
            continue
        if not isinstance(refs, (list, tuple, np.ndarray)):
            raise InputError(f"{row_label(i)}: field 'references' must be a list of strings, got "
                             f"{_type_name(refs)} {json_preview(refs)}")
        for j, r in enumerate(refs):
            if not _is_blank(r) and not isinstance(r, str):
                raise InputError(f"{row_label(i)}: field 'references': reference {j + 1} of {len(refs)} must be "
                                 f"a string, got {_type_name(r)} {json_preview(r)}")


def json_preview(value: Any, width: int = 60) -> str:
    """``value`` as JSON, cut to ``width`` characters (for messages)."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _output_column(scorer: Scorer, values: Any, column: str, n: int) -> np.ndarray:
    """Column ``column`` of what ``scorer.score_batch`` returned for ``n`` rows, checked."""
    where = f"measure {scorer.name!r} ({type(scorer).__module__}.{type(scorer).__name__})"
    if not isinstance(values, Mapping):
        raise InputError(f"{where}: score_batch returned a {type(values).__name__}; it must return "
                         f"a dict {{column: array of shape ({n},)}} with the columns {scorer.columns()}")
    if column not in values:
        raise InputError(f"{where}: score_batch returned no column {column!r} (it returned "
                         f"{sorted(map(str, values))}); it must return every column of columns()")
    try:
        if np.iscomplexobj(values[column]):  # a cast to float would drop the imaginary part silently
            raise TypeError("complex numbers; a measure's numbers are real")
        arr = np.asarray(values[column], dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: column {column!r} is not an array of numbers ({exc})") from None
    if arr.shape != (n,):
        raise InputError(f"{where}: score_batch returned shape {arr.shape} for column {column!r}; "
                         f"expected ({n},), one number per summary of the batch")
    return arr


def admit_rows(records: Sequence[Mapping[str, Any]], scorer: Scorer, report: ScoreReport,
               label: Callable[[int], str]) -> list[int]:
    """The rows of ``records`` that ``scorer`` is asked to score (indices, in order); each other row
    is added to ``report.skipped`` with its reason (an empty summary, a missing text or
    references), and a row with some empty references to ``report.notes``."""
    ok: list[int] = []
    for i, rec in enumerate(records):
        if _is_blank(rec.get("summary")):
            report.skipped.append((i, scorer.name, "empty summary"))
            continue
        if "text" in scorer.needs and _is_blank(rec.get("text")):
            report.skipped.append((i, scorer.name, "missing or empty 'text'"))
            continue
        if "references" in scorer.needs:
            refs = _references_of(rec)
            if refs is None:
                report.skipped.append((i, scorer.name, "no non-empty 'references'"))
                continue
            given = rec.get("references")
            if isinstance(given, str):
                from sumeval.jsonl import json_list_cell

                given = json_list_cell(given, label(i), "field 'references'") or [given]
            if len(refs) < len(given):
                report.notes.append((i, scorer.name, "empty references left out"))
        ok.append(i)
    return ok


def score_records(records: Sequence[Mapping[str, Any]], measures: Iterable[str | Scorer], *,
                  batch_size: int = 256, progress: bool = False,
                  row_label: Callable[[int], str] | None = None, **options: Any):
    """Score ``records`` (dicts with ``summary`` and, as needed, ``text`` / ``references``).

    Args:
        records: sequence of mappings, length n; field types as :func:`check_records` says (checked before anything
            is scored)
        measures: names (``"rouge-1"``) or ready :class:`Scorer` objects
        row_label: how messages name row i (default ``"row i"``; the CLI gives ``file:line``)
        options: scorer options for the measures given by name; each measure gets only the options it accepts (see
            :func:`sumeval.metrics.registry.get_scorers`)

    Returns:
        ``(scores, report)``: ``scores``, a pandas.DataFrame of n rows, one column per measure output (NaN
        where not scored); ``report``, a ScoreReport listing every (row, measure) not scored and why - an empty
        summary, a missing text or references, an undefined value - and the notes (an empty reference left out,
        ...). Rows are never dropped.
    """
    import pandas as pd

    from sumeval.metrics.user_scorers import call_user, class_label, is_user_class

    label = row_label or (lambda i: f"row {i}")
    measures = list(measures)
    named = [m for m in measures if not isinstance(m, Scorer)]
    built = iter(get_scorers(named, **options)) if named else iter(())
    scorers = [m if isinstance(m, Scorer) else next(built) for m in measures]
    check_records(records, {f for s in scorers for f in s.needs}, label)
    n = len(records)
    out: dict[str, np.ndarray] = {}
    report = ScoreReport()
    for scorer in scorers:
        user = is_user_class(type(scorer))
        report.signatures[scorer.name] = call_user(scorer, "signature", scorer.signature)
        cols = list(call_user(scorer, "columns", scorer.columns))
        for c in cols:
            if c in out:
                raise InputError(f"two measures write the same column {c!r}; score them separately")
            out[c] = np.full(n, np.nan)
        ok = admit_rows(records, scorer, report, label)
        chunks = range(0, len(ok), batch_size)
        if progress:
            from tqdm.auto import tqdm

            chunks = tqdm(chunks, desc=scorer.name, unit="batch")
        unexplained: list[int] = []  # rows scored NaN without a reason
        for k, start in enumerate(chunks, 1):
            idx = ok[start:start + batch_size]
            batch = Batch(
                summaries=[str(records[i]["summary"]) for i in idx],
                texts=[str(records[i]["text"]) for i in idx] if "text" in scorer.needs else None,
                references=[_references_of(records[i]) for i in idx]
                if "references" in scorer.needs else None,
            )
            rows = label(idx[0]) if len(idx) == 1 else f"{label(idx[0])} to {label(idx[-1])}"
            during = f"while scoring {rows}: batch {k} of {-(-len(ok) // batch_size)}, {len(idx)} summaries"
            values = call_user(scorer, "score_batch", scorer.score_batch, batch, during=during)
            reasons, notes = _reasons(scorer, values)
            undefined = {j for j, _ in reasons}
            for j, why in reasons:
                report.skipped.append((idx[j], scorer.name, f"undefined: {why}"))
            for j, note in notes:
                report.notes.append((idx[j], scorer.name, note))
            for c in cols:
                out[c][idx] = arr = _output_column(scorer, values, c, len(idx))
                if user and np.isinf(arr).any():
                    _refuse_infinite(scorer, c, arr, idx, label)
            for j, i in enumerate(idx):
                nan = [c for c in cols if math.isnan(out[c][i])]
                if nan and j not in undefined:
                    unexplained.append(i)
                    report.skipped.append((i, scorer.name, NO_NUMBER if len(nan) == len(cols)
                                           else f"{NO_NUMBER} for {', '.join(nan)}"))
        if unexplained:
            _warn_no_number(scorer, class_label(type(scorer)), unexplained, len(ok), label)
    return pd.DataFrame(out, index=range(n)), report


def _reasons(scorer: Scorer, values: Any) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The ``(row in batch, reason)`` of each undefined row and the ``(row, note)`` of each row
    scored with a caveat, as ``score_batch`` returned them (:class:`Scores`; a plain dict has none).
    A measure that still sets the former attribute ``last_undefined`` is refused, with the fix,
    rather than its reasons dropped."""
    if vars(scorer).get("last_undefined"):
        from sumeval.metrics.user_scorers import class_label

        raise InputError(f"measure {scorer.name!r} ({class_label(type(scorer))}): score_batch sets last_undefined, "
                         "which sumeval no longer reads; return the reasons with the numbers instead: "
                         "sumeval.metrics.Scores({column: values, ...}, undefined=[(row in batch, reason), ...])")
    if isinstance(values, Scores):
        return values.undefined, values.notes
    return [], []


def _refuse_infinite(scorer: Scorer, column: str, arr: np.ndarray, idx: Sequence[int],
                     label: Callable[[int], str]) -> None:
    """InputError for a user's measure that returned an infinite value (sumeval's own measures are
    left as they are): it names the measure, the column, how many and the first row."""
    from sumeval.metrics.user_scorers import class_label

    bad = np.flatnonzero(np.isinf(arr))
    raise InputError(f"measure {scorer.name!r} ({class_label(type(scorer))}): score_batch returned {bad.size} "
                     f"infinite value(s) for column {column!r}, the first ({arr[bad[0]]}) for {label(idx[bad[0]])}; "
                     "a measure must return finite numbers, or NaN (with the reason in Scores' undefined) where "
                     "it cannot score a row")


def _warn_no_number(scorer: Scorer, where: str, rows: Sequence[int], n_scored: int,
                    label: Callable[[int], str], show: int = 5) -> None:
    """One :class:`NotScoredWarning` for ``scorer``, naming the first ``show`` of ``rows``."""
    import warnings

    named = ", ".join(label(i) for i in rows[:show]) + (f" and {len(rows) - show} more" if len(rows) > show else "")
    every = "every one" if len(rows) == n_scored else f"{len(rows)}"
    warnings.warn(f"measure {scorer.name!r} ({where}) gave no number (NaN or None) for {every} of the "
                  f"{n_scored} rows it was asked to score, without a reason (Scores' undefined): {named}. "
                  "They are counted as not scored; a measure that cannot score a row should return NaN "
                  "and say why: sumeval.metrics.Scores(columns, undefined=[(row, reason), ...])", NotScoredWarning,
                  stacklevel=3)
