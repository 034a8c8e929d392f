"""Summary length in words: the sentinel every meta-evaluation table shows (issue 32).

A measure that only counts words, with no model and no reference: when it correlates with the
human scores as well as a measure does, that measure's correlation may say no more than length
(on DialSummEval relevance, length alone beats ROUGE-1 and BERTScore). Words are whitespace-
separated tokens (``str.split()``), as the judge audit counts them
(:func:`sumeval.judges.audit.summary_length`: one definition).
"""
from __future__ import annotations

import numpy as np

from sumeval.metrics.base import Batch, Scorer

__all__ = ["LengthScorer"]


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
        from sumeval.judges.audit import summary_length

        return {self.name: summary_length(list(batch.summaries), "the summaries")}
