"""Which columns of a judgments frame hold the annotators of a human column, and which hold a judge.

Conventions (the judgments file of :mod:`sumeval.datasets.judgments`):

- ``<human>/<annotator>``: one annotator's scores for human column ``<human>`` (e.g.
  ``coherence/expert1``); the annotator's *name* is the part after the slash, so ``expert1`` of
  ``coherence`` and ``expert1`` of ``relevance`` are the same person when the human columns are
  pooled.
- A **judge** (an LLM judge, or any measure on the humans' scale) is named once and found for each
  human column ``H`` as, in this order: the template ``J`` with ``{human}`` replaced by ``H``
  (``"{human}_gpt4"``), the column ``J.H`` (one column per quality, as the built-in SummEval's
  LLM judges: ``gpt-4o.coherence``), the column ``J/H``, or the column ``J`` itself (one score used for every
  human column).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from sumeval.errors import InputError

__all__ = ["ALL_MISSING", "all_missing_message", "annotator_columns", "annotator_name", "judge_candidates",
           "judge_column", "judge_label", "not_judge_columns", "POOLED"]

#: the ``human`` label of results pooled over several human columns
POOLED = "pooled"
#: how :func:`not_judge_columns` marks a column with no value on any row
ALL_MISSING = "a column with no value on any row"


def all_missing_message(column: str, n_rows: int, why: str | None = None) -> str:
    """What to say of a judge column whose every value is missing: what happened, where the judge's
    own record counts why (``why``: e.g. ``sumeval judge``'s manifest and its unparsable answers), and
    the fix (the judge's answers, not the test's settings)."""
    return (f"every value of its column {column!r} is missing ({n_rows} of {n_rows} rows), so there is nothing "
            "to compare with the humans; "
            + (why or "if the column comes from `sumeval judge`, the manifest.json beside it counts the unparsable "
                      "answers and parse_failures.csv lists them")
            + ". Fix the judge's answers, not the test's settings (--min-items cannot help): an answer that does "
              "not parse is a missing value, never a default score; with `sumeval judge`, score in process with "
              "--scoring logprobs, give the model room to answer (--max-tokens), or use a model that answers "
              "with a label")


def annotator_columns(columns: Sequence[str] | pd.Index, human: str) -> list[str]:
    """The ``<human>/<annotator>`` columns among ``columns``, in their order."""
    prefix = f"{human}/"
    return [c for c in columns if isinstance(c, str) and c.startswith(prefix) and len(c) > len(prefix)]


def annotator_name(column: str, human: str) -> str:
    """``"coherence/expert1"`` -> ``"expert1"``."""
    return column[len(human) + 1:]


def require_annotators(columns: Sequence[str] | pd.Index, human: str, where: str, minimum: int = 2) -> list[str]:
    """The annotator columns of ``human``; an error naming the human column when there are fewer than
    ``minimum``."""
    found = annotator_columns(columns, human)
    if len(found) < minimum:
        have = f"only {', '.join(found)}" if found else "none"
        raise InputError(
            f"human column {human!r} of {where} has {have} as annotator columns; the alt-test and the "
            f"annotators-as-measures rows need at least {minimum} columns named '{human}/<annotator>' "
            f"(one per annotator, e.g. '{human}/a1', '{human}/a2')")
    return found


def judge_label(judge: str) -> str:
    """How results name a judge: the name, or a template without ``{human}`` (``"gpt4_{human}"`` ->
    ``"gpt4"``; the template itself when nothing else is left)."""
    if "{human}" not in judge:
        return judge
    label = judge.replace("{human}", "").strip("_-/. ")
    return label or judge


def judge_candidates(judge: str, human: str) -> list[str]:
    """The columns tried for judge ``judge`` on human column ``human``, in order (module docstring)."""
    if "{human}" in judge:
        return [judge.replace("{human}", human)]
    return [f"{judge}.{human}", f"{judge}/{human}", judge]


def judge_column(columns: Sequence[str] | pd.Index, judge: str, human: str, where: str,
                 candidates: Sequence[str] | None = None, not_judges: Mapping[str, str] | None = None) -> str:
    """The column holding judge ``judge``'s scores for human column ``human`` (module docstring).

    Args:
        columns: the columns a judge may be; candidates: the ones listed when none is found.
        not_judges: other columns of the data that cannot be a judge -> what they are (e.g. ``"the human
            column 'overall' (--human)"``): a judge named after one is told so, not that there is no column.

    Raises:
        InputError: naming the judge, the columns tried and the measure columns there are, or the column
            found and why it is not a judge.
    """
    have = set(columns)
    tried = judge_candidates(judge, human)
    for col in tried:
        if col in have:
            return col
    listed = list(candidates) if candidates is not None else [str(c) for c in columns]
    shown = ", ".join(listed[:30]) + (" ..." if len(listed) > 30 else "")
    found = [c for c in tried if c in (not_judges or {})]
    if found and not_judges[found[0]].startswith(ALL_MISSING):
        raise InputError(f"judge {judge!r} on {human!r} in {where}: {not_judges[found[0]][len(ALL_MISSING) + 2:]}")
    if found:
        raise InputError(
            f"judge {judge!r}: column {found[0]!r} of {where} is {not_judges[found[0]]}, not a measure column, "
            "so it is not taken as a judge (a judge is a measure compared with the annotators). Name a measure "
            f"column (the measure columns: {shown or 'none'}); to test these scores as a judge anyway, copy them "
            "into a column of another name (a human column tested against its own annotators contains the "
            "annotator left out)")
    raise InputError(
        f"judge {judge!r}: no column {' or '.join(map(repr, tried))} in {where} for human column {human!r}; "
        f"name a measure column of the data (one for every human column, or 'JUDGE/<human>' per human "
        f"column, or a template with {{human}}). Its measure columns: {shown or 'none'}")


def not_judge_columns(judgments, missing_why: Mapping[str, str] | None = None) -> dict[str, str]:
    """The columns of a :class:`~sumeval.datasets.judgments_model.Judgments` that cannot be a judge -> what they
    are: its human columns (asked or not), their annotator columns, and its other non-measure columns; a
    column with no value on any row is :data:`ALL_MISSING` followed by ``": "`` and
    :func:`all_missing_message` (with ``missing_why[column]``, what the judge's run says of it)."""
    out = {}
    for h in judgments.humans:
        out[h] = f"the human column {h!r} (--human)"
    for h, cols in judgments.annotators.items():
        for c in cols:
            out[c] = f"an annotator column of the human column {h!r}"
    others = [c for c in judgments.other_columns if c not in out]
    for c in others:  # a built-in set's human columns not asked with --human (and their annotators) are here
        base, slash, _ = c.partition("/")
        if slash and base in others:
            out[c] = f"an annotator column of {base!r}, a human column of the data not asked with --human"
        elif any(o.startswith(f"{c}/") for o in others):
            out[c] = f"the human column {c!r} of the data (not asked with --human)"
        elif judgments.frame[c].isna().all():
            out[c] = f"{ALL_MISSING}: " + all_missing_message(c, len(judgments.frame), (missing_why or {}).get(c))
        else:
            out[c] = "a column of the data that is not a measure (not numbers, or not a score)"
    return out
