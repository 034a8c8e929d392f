"""Measures of summary quality behind one interface.

>>> from sumeval import metrics
>>> "rouge-2" in [m.name for m in metrics.available()]
True
>>> scorer = metrics.get_scorer("rouge-2")              # loads once, scores many
>>> records = [{"summary": "the cat sat on the mat", "references": ["a cat sat on the mat"]}]
>>> frame, report = metrics.score_records(records, ["rouge-1", "bleu"])
>>> round(float(frame.loc[0, "rouge-1-f"]), 3)          # 5 of 6 unigrams shared: P = R = 5/6
0.833

Each measure lives in its own module and is imported only when asked for (no model, index or
heavy library is loaded at import time). A study package adds its measures with
:func:`register`.

This module is the package's face and holds no logic: the interface is
:mod:`sumeval.metrics.base`, the registry of measures and the checks of their options
:mod:`sumeval.metrics.registry`, the scoring of records :mod:`sumeval.metrics.records`. Modules
inside the package import from those, never from here.
"""
from sumeval.metrics.base import Batch, MeasureInfo, Scorer, Scores
from sumeval.metrics.records import NO_NUMBER, NotScoredWarning, ScoreReport, admit_rows, check_records, score_records
from sumeval.metrics.registry import (
    accepted_options,
    available,
    check_option_types,
    get_scorer,
    get_scorers,
    register,
    registered_class,
)

__all__ = [
    "Batch", "Scorer", "Scores", "MeasureInfo", "register", "available", "get_scorer", "score_records",
    "ScoreReport", "get_scorers", "check_records", "check_option_types", "NotScoredWarning",
    "NO_NUMBER", "admit_rows", "accepted_options", "registered_class"]
