"""Which columns of a judgments frame hold the annotators of a human column, and which hold a judge.

Conventions (the judgments file of :mod:`sumeval.datasets.judgments`):

- ``<human>/<annotator>``: one annotator's scores for human column ``<human>`` (e.g.
  ``coherence/expert1``); the annotator's *name* is the part after the slash, so ``expert1`` of
  ``coherence`` and ``expert1`` of ``relevance`` are the same person when the human columns are
  pooled.
- A **judge** (an LLM judge, or any measure on the humans' scale) is named once and found for each
  human column ``H`` as, in this order: the template ``J`` with ``{human}`` replaced by ``H``
  (``"{human}_gpt4"``), the column ``J.H`` (one column per quality, as the built-in SummEval's
  LLM judges: ``gpt-4o.coherence``), the column ``J/H``, or the column ``J`` itself (one score used for every human column).
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from sumeval.errors import InputError

__all__ = ["annotator_columns", "annotator_name", "judge_column", "judge_label", "POOLED"]

#: the ``human`` label of results pooled over several human columns
POOLED = "pooled"


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


def judge_column(columns: Sequence[str] | pd.Index, judge: str, human: str, where: str,
                 candidates: Sequence[str] | None = None) -> str:
    """The column holding judge ``judge``'s scores for human column ``human`` (module docstring).

    Raises:
        InputError: naming the judge, the columns tried and the measure columns there are.
    """
    have = set(columns)
    tried = []
    if "{human}" in judge:
        tried.append(judge.replace("{human}", human))
    else:
        tried += [f"{judge}.{human}", f"{judge}/{human}", judge]
    for col in tried:
        if col in have:
            return col
    listed = list(candidates) if candidates is not None else [str(c) for c in columns]
    shown = ", ".join(listed[:30]) + (" ..." if len(listed) > 30 else "")
    raise InputError(
        f"judge {judge!r}: no column {' or '.join(map(repr, tried))} in {where} for human column {human!r}; "
        f"name a measure column of the data (one for every human column, or 'JUDGE/<human>' per human "
        f"column, or a template with {{human}}). Its measure columns: {shown or 'none'}")
