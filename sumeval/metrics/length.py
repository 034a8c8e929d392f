"""Summary length in words: the sentinel every meta-evaluation table shows (issue 32).

A measure that only counts words, with no model and no reference: when it correlates with the
human scores as well as a measure does, that measure's correlation may say no more than length
(on DialSummEval relevance, length alone beats ROUGE-1 and BERTScore). Words are whitespace-
separated tokens (``str.split()``), as the judge audit counts them
(:func:`summary_length`: one definition, which the judge audit uses too).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer

__all__ = ["LengthScorer", "summary_length"]


def summary_length(summaries: Sequence[object] | pd.Series, where: str = "the summary column") -> np.ndarray:
    """Length in words of each summary: the number of whitespace-separated tokens (``str.split()``).

    Returns: shape (n,) float64; NaN for a missing summary (a row without text is left out, not 0).
    """
    out = np.empty(len(summaries))
    for k, s in enumerate(summaries):
        if s is None or (isinstance(s, float) and np.isnan(s)):
            out[k] = np.nan
        elif isinstance(s, str):
            out[k] = len(s.split())
        else:
            raise InputError(f"{where}: row {k} holds {type(s).__name__} {s!r}, not a summary text")
    return out


class LengthScorer(Scorer):
    """The number of words of each summary. Column: ``length``."""

    name = "length"
    needs = ()
    higher_is_better = True
    description = "summary length in words (whitespace tokens): the length sentinel"

    def __init__(self, name: str | None = None) -> None:
        if name:
            self.name = name

    def columns(self) -> list[str]:
        return [self.name]

    def options(self) -> dict[str, object]:
        return {"tokens": "str.split"}

    def versions(self) -> dict[str, str]:
        return {}

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        return {self.name: summary_length(list(batch.summaries), "the summaries")}
