"""Study ``shelf``: which measures hold up across domains?

Thin: the computation is :func:`sumeval.meta_eval.across.meta_evaluate_across` (every set's own
meta-evaluation, then the cells, mean ranks and mean correlations across the sets); this module
turns the notebook's flat parameters into its arguments and picks the key numbers.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["PARAMETER_RANGES", "OFFLINE_MEASURES", "evaluate", "key_results", "explorer_frame"]

#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": (">=0", "0 means all documents"), "n_resamples": ">=1", "alpha": "0..1",
                    "min_sets": ">=1", "jobs": ">=1", "layer": (">=-1", "-1: each measure's default layer")}
#: the measures computable offline (the packaged models), the study's default
OFFLINE_MEASURES = "rouge-1,rouge-2,rouge-l,bleu,js-2,bertscore,estime,estime-soft,similarity-order"


def evaluate(*, datasets: str = "shelf", measures: str = OFFLINE_MEASURES, own_columns: bool = True,
             humans: str = "", levels: str = "input,system,global", coefficient: str = "kendall_b",
             test: str = "permutation-both", n_resamples: int = 1000, seed: int = 0, alpha: float = 0.05,
             weights: str = "", missing: str = "available", min_sets: int = 2, n_docs: int = 0, model: str = "",
             layer: int = -1, precision: str = "", jobs: int = 1, progress: bool = False):
    """Meta-evaluate ``measures`` on each of ``datasets`` and across them.

    Args:
        datasets: comma-separated data set names (``shelf``: every built-in judged set).
        measures: comma-separated measure specs, the same on every set; own_columns: add each set's
            precomputed measure columns.
        humans: comma-separated ``SET:COLUMN`` (a set not named uses its default human columns,
            :data:`sumeval.meta_eval.across.DEFAULT_HUMANS`).
        levels, coefficient, test, n_resamples, seed, alpha: as ``sumeval meta-eval``.
        weights: comma-separated ``SET=W`` data set weights; missing, min_sets: how the means treat
            missing cells (:class:`~sumeval.meta_eval.across.AcrossSettings`).
        n_docs: the first documents of each set only (0: all).
        model, layer, precision: options of the model-based measures (empty / -1: their defaults).
        jobs: processes for the statistics (one unit per data set and human column).

    Returns:
        An :class:`~sumeval.meta_eval.across.AcrossResult`.
    """
    from sumeval.meta_eval.across import AcrossSettings, meta_evaluate_across
    from sumeval.meta_eval.across_output import parse_humans, parse_weights
    from sumeval.studies.common.measure_parameters import scorer_options, split

    settings = AcrossSettings(levels=split(levels), coefficients=split(coefficient), test=test,
                              n_resamples=n_resamples, seed=seed, alpha=alpha, weights=parse_weights([weights]),
                              missing=missing, min_sets=min_sets, jobs=jobs)
    return meta_evaluate_across(list(split(datasets)), list(split(measures)), settings,
                                humans=parse_humans([humans]), options=scorer_options(model, layer, precision),
                                own_columns=own_columns, n_docs=n_docs or None, progress=progress)


def key_results(result) -> dict[str, Any]:
    """The study's key numbers (``results.json``): the across-sets ranking of the given measures
    over every level, the leader, each measure's share of its tasks in cluster 1, the best measure
    of every task, and what each set did."""
    coef = result.settings.coefficients[0]
    s = result.summary[(result.summary["coefficient"] == coef) & (result.summary["scope"] == "all")]
    ranked = s.dropna(subset=["mean_rank"]).sort_values("position")
    cells = result.cells[(result.cells["coefficient"] == coef) & (result.cells["status"] == "ok")]
    top = cells.sort_values("value", ascending=False).groupby(["dataset", "human", "level"], sort=False).head(1)
    return {
        "coefficient": coef,
        "leader": ranked["measure"].iloc[0] if len(ranked) else None,
        "ranking": ranked[["measure", "position", "mean_rank", "mean_score", "mean_corr", "coverage", "n_sets",
                           "n_tasks"]],
        "cluster1_share": {m: float((g["cluster"] == 1).mean()) for m, g in cells.groupby("measure", sort=False)
                           if m in set(result.given)},
        "best_per_task": {f"{r.dataset}/{r.human}/{r.level}": {"measure": r.measure, "value": r.value}
                          for r in top.itertuples()},
        "sets": {o.name: {"status": o.status, "reason": o.reason, "measures": len(o.labels),
                          "cannot_run": sorted(o.blank)} for o in result.sets.values()},
        "n_tasks": int((result.tasks["status"] == "run").sum()),
        "timings_s": {k: round(v, 1) for k, v in result.timings.items()},
    }


def explorer_frame(result) -> pd.DataFrame:
    """The cells that have a value (for the explorer): one row per (coefficient, measure, task)."""
    cells = result.cells[result.cells["status"] == "ok"].copy()
    cells["task"] = cells["dataset"] + "/" + cells["human"]
    return cells
