"""Study ``meta_evaluation``: how well does each measure agree with people, and which are
significantly better than others, on SummEval or a user's judgments.

Thin: the computation is :func:`sumeval.meta_eval.meta_evaluate` (the engine of ``sumeval
meta-eval``) over measures from any source (:mod:`sumeval.metrics.sources`); this module turns the
notebook's flat parameters into its arguments (with :mod:`sumeval.studies.common.measure_parameters`)
and shapes the explorer's frame.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from sumeval.errors import InputError
from sumeval.studies.common.measure_parameters import (  # noqa: F401 (scorer_options: the notebook's me.scorer_options)
    scorer_options,
    split,
)

__all__ = ["PARAMETER_RANGES", "scorer_options", "evaluate", "explorer_frame"]

#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": (">=0", "0 means all documents"), "n_resamples": ">=1",
                    "alpha": "0..1", "layer": (">=-1", "-1: each measure's default layer")}


def evaluate(dataset: str, *, humans: str = "", measures: str, measure_classes: str = "", module_path: str = "",
             levels: str = "input,system,global", coefficients: str = "kendall_b", test: str = "permutation-both",
             n_resamples: int = 1000, seed: int = 0, alpha: float = 0.05, n_docs: int = 0,
             options: dict[str, Any] | None = None, progress: bool = False):
    """Load ``dataset``, resolve ``measures``, meta-evaluate.

    Args:
        dataset: a data set name (``summeval``, ``realsumm``, a registered one) or a file path.
        humans: comma-separated human columns; empty: every human column of the data set.
        measures, measure_classes: comma-separated measure specs and ``module:Class`` paths.
        module_path: a folder searched first for measure classes.
        levels, coefficients, test, n_resamples, seed, alpha: as ``sumeval meta-eval``.
        n_docs: the first documents only (0: all).
        options: scorer options (:func:`scorer_options`).

    Returns:
        ``(judgments, result)``: the data set and its :class:`~sumeval.meta_eval.MetaEvaluation`.
    """
    from sumeval import meta_eval
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures

    judgments = load_judgments(dataset, human=list(split(humans)) or None, n_docs=n_docs or None)
    chosen = split(humans) or tuple(judgments.humans)
    if not chosen:
        raise InputError(f"data set {dataset!r} has no human columns; name them (humans=...)")
    settings = meta_eval.Settings(humans=chosen, levels=split(levels), coefficients=split(coefficients), test=test,
                                  n_resamples=n_resamples, seed=seed, alpha=alpha)
    specs = resolve_measures(list(split(measures)), judgments, measure_classes=split(measure_classes),
                             options=options or {}, module_path=[module_path] if module_path else ())
    return judgments, meta_eval.meta_evaluate(judgments, specs, settings, progress=progress)


def explorer_frame(result) -> pd.DataFrame:
    """Correlations with each measure's significance cluster beside it (for the explorer)."""
    keys = ["measure", "human", "level", "coefficient"]
    return result.correlations.merge(result.ranking[keys + ["rank", "cluster"]], on=keys, how="left")
