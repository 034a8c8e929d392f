"""The checks a meta-evaluation makes on its measures' names (before any scoring) and on the
values they gave (before any test), and the one rule for missing values.

**Missing values: pairwise-complete.** Nothing is imputed and no row is dropped for every
measure at once (that would be *listwise*). Each correlation of a measure with a human column
uses the rows where both are present; ``correlations.csv`` and everything rendered from it
(``ranking.csv``, the tables, the figures) show these numbers. Each test of two measures uses
the rows where both measures and the human are present (``pairwise.csv``: ``n_rows``, and a
``note`` when rows were left out; its ``corr_a`` / ``corr_b`` are on those rows). The manifest
states the rule and, per measure, how many rows had no number; ``not_scored.csv`` lists them.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = ["RULE", "ID_COLUMNS", "check_measure_names", "missing_values", "missing_note"]

#: The rule, as the manifest states it.
RULE = ("pairwise-complete: each correlation of a measure with a human column uses the rows where both "
        "are present (correlations.csv, ranking.csv, tables, figures); each test of two measures uses "
        "the rows where both measures and the human are present (pairwise.csv: n_rows, note); nothing "
        "is imputed")
#: Columns of the analysed frame that no measure may be named like.
ID_COLUMNS = ("doc_id", "system")
_NO_NUMBER = "no number: the measure returned NaN"


def check_measure_names(judgments, measures: Sequence[Any], humans: Sequence[str]) -> None:
    """Refuse, before any scoring, a measure whose column name (its label) is taken.

    A measure's label is the column it gets beside the human columns; it must not be an id
    column (``doc_id``, ``system``) nor one of the human columns compared with. A measure that a
    scorer computes (registered, a class, an entry point) must not be named like any human or
    annotator column of the data set either; a measure that *is* a human or annotator column of
    the file (``source == "column"``) is that column, and may be compared with another human.

    Args:
        judgments: the :class:`~sumeval.datasets.judgments_model.Judgments` scored.
        measures: :class:`~sumeval.metrics.sources.MeasureSpec` objects (``label``, ``source``,
            ``spec``).
        humans: the human columns of the meta-evaluation.

    Raises:
        InputError: naming the measure, the column it clashes with, and the fix.
    """
    from sumeval.metrics.catalog import renamed_hint

    data_columns = {*judgments.humans, *judgments.annotator_columns}
    seen: dict[str, str] = {}
    for spec in measures:
        label, text = spec.label, spec.spec or spec.label
        if label in seen:
            raise InputError(f"measures {seen[label]!r} and {text!r} are both shown as {label!r}; "
                             "name each measure once")
        seen[label] = text
        hint = renamed_hint(spec.name) if spec.source == "column" else ""
        if label in humans:
            raise InputError(f"measure {text!r} is the human column {label!r} that the measures are "
                             f"compared with; name it as a human (--human), not as a measure"
                             + (f". {hint}" if hint else ""))
        if label in ID_COLUMNS:
            raise InputError(f"measure {text!r} is shown as {label!r}, the name of an id column; "
                             "rename the measure (a class's `name`, or the column in the file)")
        if spec.source != "column" and label in data_columns:
            what = "a human" if label in judgments.humans else "an annotator"
            raise InputError(f"measure {text!r} ({spec.source}) writes a column named {label!r}, which "
                             f"is {what} column of {judgments.name}; rename the measure (its class's "
                             "`name`) so the two cannot be confused")


def missing_values(frame: pd.DataFrame, labels: Sequence[str], humans: Sequence[str], judgments,
                   not_scored: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Check every measure gave some number, and account for the ones it did not give.

    Args:
        frame: shape (N rows, ...): ``doc_id, system``, the human columns and one column per
            measure label (NaN where no number).
        labels, humans: the measure and human columns.
        judgments: the data set (for the rows' locations).
        not_scored: the (row, measure) pairs the scoring reported (``row, doc_id, system,
            location, measure, reason``).

    Returns:
        ``(not_scored, missing)``: ``not_scored`` completed with every NaN cell of a measure that
        the scoring did not report (reason ``"no number: the measure returned NaN"``), and the
        manifest's ``missing_values``: ``{"rule", "rows", "measures": {label: {"no_number",
        "rows_used": {human: n}}}, "humans": {human: {"no_value"}}}``.

    Raises:
        InputError: a measure with no number on any row (naming it, the row count and the
            reasons given), or with an infinite value (naming the first row), before any test starts.
    """
    n = len(frame)
    listed = {(int(r["row"]), r["measure"]) for r in not_scored}
    out = list(not_scored)
    present_h = {h: ~np.isnan(frame[h].to_numpy(float)) for h in humans}
    measures: dict[str, Any] = {}
    for label in labels:
        values = frame[label].to_numpy(float)
        infinite = np.flatnonzero(np.isinf(values))
        if infinite.size:
            first = int(infinite[0])
            raise InputError(f"measure {label!r} gave an infinite value on {infinite.size} of the {n} rows, the "
                             f"first ({values[first]}) for {judgments.location(first)}; a measure must give finite "
                             "numbers (NaN where it cannot score a row): fix the measure or the column, "
                             "or leave it out")
        missing = np.isnan(values)
        if missing.all():
            reasons = Counter(r["reason"] for r in not_scored if r["measure"] == label)
            why = "; ".join(f"{why} ({k} rows)" for why, k in reasons.most_common(3)) or _NO_NUMBER
            raise InputError(f"measure {label!r} gave no number on any of the {n} rows ({why}); nothing "
                             "can be correlated: fix the measure or leave it out")
        for row in np.flatnonzero(missing):
            if (int(row), label) not in listed:
                out.append({"row": int(row), "doc_id": frame.at[row, "doc_id"],
                            "system": frame.at[row, "system"], "location": judgments.location(int(row)),
                            "measure": label, "reason": _NO_NUMBER})
        measures[label] = {"no_number": int(missing.sum()),
                           "rows_used": {h: int((~missing & present_h[h]).sum()) for h in humans}}
    summary = {"rule": RULE, "rows": n, "measures": measures,
               "humans": {h: {"no_value": int((~present_h[h]).sum())} for h in humans}}
    return out, summary


def missing_note(summary: dict[str, Any]) -> str:
    """One line for the notes when some measure or human value is missing ("" when none is)."""
    parts = [f"{label!r} has no number on {m['no_number']} of {summary['rows']} rows"
             for label, m in summary["measures"].items() if m["no_number"]]
    parts += [f"human {h!r} has no value on {v['no_value']} rows" for h, v in summary["humans"].items()
              if v["no_value"]]
    if not parts:
        return ""
    return ("missing values (" + "; ".join(parts) + "): pairwise-complete, each correlation uses the rows "
            "where the measure and the human are present, each test of two measures the rows where both "
            "and the human are present (not_scored.csv lists the rows)")
