"""The alternative annotator test's alignment scores and defaults, without importing pandas or
numpy: ``sumeval alt-test``'s parser is built from these on every ``sumeval`` start
(:mod:`sumeval.cli.judges`); the test is :mod:`sumeval.judges.alt_test`."""
from __future__ import annotations

__all__ = ["ALIGNMENTS", "DEFAULTS", "JUDGE_RUN_KIND"]

ALIGNMENTS: tuple[str, ...] = ("neg_rmse", "neg_mae", "accuracy")
#: the paper's / the authors' code defaults
DEFAULTS = {"alignment": "neg_rmse", "epsilon": 0.2, "q": 0.05, "min_items": 30, "min_annotators": 2}
#: the ``kind`` of a ``sumeval judge`` run's manifest (:mod:`sumeval.cli.judge` writes it; alt-test reads it
#: to name a judge column's unparsable answers)
JUDGE_RUN_KIND = "sumeval-judge"
