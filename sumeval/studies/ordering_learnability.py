"""Study ``ordering_learnability`` (paper 002 §4.4, Fig.1): WLCS-l and Acc against the size of
bootstrap "mini" training sets, mean and spread over the resamples, at the sentence and the
paragraph level.

The paper used arXiv (sentence) and Economist (paragraph) with mini sets of 1k/3k/5k/8k/10k
documents and 20/10/5/5/5 resamples; neither corpus is available here, so the notebook uses
NIPS (2427 training abstracts: sizes beyond it resample with repeats) and a paragraph set
(BBC by default). Mini sets: :func:`sumeval.ordering.noise.mini_sets` (dev drawn in the
train/dev proportion). Every resample trains a model through the model cache.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from sumeval.errors import InputError
from sumeval.ordering.noise import mini_sets
from sumeval.studies.common.ordering_runs import (  # noqa: F401  (PARAMETER_RANGES: read by the runner)
    METRICS,
    PARAMETER_RANGES,
    fit_and_test,
    level_of,
    load_capped,
    random_rows,
    training_setup,
)

__all__ = ["PARAMETER_RANGES", "learnability", "summary"]


def learnability(models: list[str], sets: list[str], sizes: list[int], resamples: list[int], *,
                 max_test: int = 0, epochs: int = 30, patience: int = 5, batch_size: int = 8, lr: float = 1e-3,
                 hidden: int = 128, beam: int = 32, glove: bool = True, seed: int = 0,
                 progress: bool = False) -> pd.DataFrame:
    """One row per (set, model, size, resample): ``level, dataset, model, label, size, resample,
    pmr, acc, tau, wlcs_l, n_params, ...``, plus random rows (``size`` NaN)."""
    if len(resamples) == 1:
        resamples = resamples * len(sizes)
    if len(resamples) != len(sizes):
        raise InputError(f"{len(resamples)} resample counts for {len(sizes)} sizes; give one per size (or one)")
    tc, sizes_kw = training_setup(epochs, patience, batch_size, lr, seed, hidden)
    rows: list[dict[str, Any]] = []
    for name in sets:
        level = level_of(name)
        test = load_capped(name, "test", max_test, seed)
        minis = mini_sets(load_capped(name, "train", 0), load_capped(name, "dev", 0), sizes, resamples, seed)
        for ms in minis:
            for m in models:
                rows += fit_and_test(m, ms.train, ms.dev, {name: test}, sizes=sizes_kw, tc=tc, beam=beam,
                                     glove=glove, progress=progress, level=level, dataset=name, size=ms.size,
                                     resample=ms.resample)
        rows += random_rows({name: test}, seed=seed, level=level, dataset=name)
    return pd.DataFrame(rows)


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation and count over resamples: ``level, dataset, model, label, size,
    metric, mean, sd, n``."""
    sub = frame[frame["model"] != "random"]
    long = sub.melt(id_vars=["level", "dataset", "model", "label", "size"], value_vars=list(METRICS),
                    var_name="metric", value_name="value")
    g = long.groupby(["level", "dataset", "model", "label", "size", "metric"])["value"]
    out = g.agg(mean="mean", sd="std", n="count").reset_index()
    out["sd"] = out["sd"].fillna(0.0)
    return out
