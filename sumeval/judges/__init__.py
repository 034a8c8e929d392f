"""Who judges the judges: LLM judges and annotators as measures.

- :mod:`sumeval.judges.alt_test`: the alternative annotator test (Calderon, Reichart & Dror,
  ACL 2025): can a judge replace the annotators? Winning rate, advantage probability, pass rule.
- :mod:`sumeval.judges.annotators`: each annotator scored as a measure against the others' mean,
  and their average as the human ceiling.
- :mod:`sumeval.judges.ppi`: prediction-powered inference (Angelopoulos et al. 2023): how many human
  labels a judge saves when estimating a system's mean score.
- :mod:`sumeval.judges.alt_test_output`: what ``sumeval alt-test`` (:mod:`sumeval.cli.judges`) writes;
  :mod:`sumeval.plots.judges`: its figures.
- :mod:`sumeval.judges.audit`: the judge audit (``sumeval judge-audit``; written by
  :mod:`sumeval.judges.audit_output`): verbosity (Kendall with length beyond the humans'), agreement on
  close system pairs beside a held-out annotator and length, kappa per annotator, calibration.

Judges and annotators are columns of a judgments frame (:mod:`sumeval.judges.columns`). The statistics
applied to judges as to every other measure are in :mod:`sumeval.stats`: soft and plain system pairwise
accuracy (:mod:`~sumeval.stats.soft_pairwise`) and its test (:mod:`~sumeval.stats.spa_test`), item-level
acc23 with tie calibration (:mod:`~sumeval.stats.item_pairwise`), ranking accuracy on a pairwise set
(:mod:`~sumeval.stats.pair_ranking`).
"""
from __future__ import annotations

from sumeval.judges.names import ALIGNMENTS

__all__ = ["ALIGNMENTS", "AltTest", "alt_test_arrays", "by_adjust", "by_reject"]


def __getattr__(name: str):
    """The alt-test's names, imported when first asked for (PEP 562): ``sumeval``'s parser imports
    :mod:`sumeval.judges.names` on every start, and that should not import pandas.

    ``sumeval.judges.alt_test`` is the submodule, never its function of the same name (import that one as
    ``from sumeval.judges.alt_test import alt_test``): once any code imports the submodule, Python binds the
    package's attribute to it, so a lazily exported function of that name would be the function or the module
    depending on what was imported first."""
    import importlib

    if name in __all__:
        value = getattr(importlib.import_module("sumeval.judges.alt_test"), name)
        globals()[name] = value
        return value
    try:  # a submodule, as `from sumeval import judges; judges.alt_test` found it when this file imported it
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
