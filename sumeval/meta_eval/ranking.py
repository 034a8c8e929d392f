"""The ranking of a meta-evaluation (``ranking.csv``): values from one table, clusters from the tests.

Each row's value is its correlation (``correlations.csv``) or, ranked by SPA, its soft pairwise
accuracy (``pairwise_accuracy.csv``); its cluster comes from the tests of ``pairwise.csv``
(:func:`sumeval.stats.significance_clusters`: mt-metrics-eval's ``AssignRanks``). The annotator rows
(:mod:`sumeval.meta_eval.annotators`) are ranked and clustered only with ``annotators_compete``, and
never tested.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["RANKING_COLUMNS", "NOT_COMPETING", "COMPETING", "rank", "ranking_note"]

RANKING_COLUMNS = ["measure", "human", "level", "coefficient", "value", "rank", "cluster", "reason", "role", "note"]
#: the ``note`` of an annotator row (:mod:`sumeval.meta_eval.annotators`) that does not compete, and of one that does
NOT_COMPETING = ("not a competitor: correlated with the mean of the other annotators (leave-one-out), a "
                 "different target than the measures' human column, so not permutation-tested against them; "
                 "not ranked, in no cluster (--annotators-compete ranks it)")
#: the ``note`` of a sentinel row (the summary length), never ranked
SENTINEL = ("a sentinel, not a competitor: a cheap baseline (the summary's length, its overlap with the source, a "
            "constant, a random measure); a measure that does no better says no more than it (not ranked, in no "
            "cluster; --no-sentinels drops it)")
COMPETING = ("ranked among the measures (--annotators-compete) but not tested against them: correlated with the "
             "mean of the other annotators, a different target than the measures' human column")


def rank(values: pd.DataFrame, pairwise: pd.DataFrame, s) -> pd.DataFrame:
    """The ranking of ``values`` (``measure, human, level, coefficient, value, reason, role``) with the clusters of
    the tests ``pairwise`` (``pairwise.csv``'s columns) at ``s.alpha``.

    Returns:
        :data:`RANKING_COLUMNS`, grouped by (human, level, coefficient) in the order of ``values``: the competitors
        ranked (``rank`` 1 = highest value), undefined ones after them without rank and cluster, then the annotator
        rows that do not compete (no rank, no cluster; ``note`` says why).
    """
    from sumeval import stats
    from sumeval.stats.multiple import COMPARE_COLUMNS

    keys = ["measure", "human", "level", "coefficient"]
    competes = (values["role"] == "measure") | (s.annotators_compete & (values["role"] != "sentinel"))
    comparisons = pairwise if len(pairwise) else pd.DataFrame(columns=COMPARE_COLUMNS)
    ranked = stats.significance_clusters(comparisons, alpha=s.alpha, values=values[competes])
    others = values.loc[~competes, keys + ["value"]].assign(rank=pd.NA, cluster=pd.NA)
    out = pd.concat([f for f in (ranked, others) if len(f)] or [ranked], ignore_index=True)
    out = out.astype({"rank": "Int64", "cluster": "Int64"}).merge(values[keys + ["reason", "role"]], on=keys,
                                                                    how="left")
    group = {k: i for i, k in enumerate(dict.fromkeys(values[keys[1:]].itertuples(index=False, name=None)))}
    order = np.argsort([group[k] for k in out[keys[1:]].itertuples(index=False, name=None)], kind="stable")
    out = out.iloc[order]
    # object dtype whatever the notes (None for measures): results of several human columns concatenate alike
    out["note"] = pd.Series([ranking_note(r, s.annotators_compete) for r in out["role"]], index=out.index,
                            dtype=object)
    return out[RANKING_COLUMNS].reset_index(drop=True)


def ranking_note(role: str, compete: bool) -> str | float:
    """The ``note`` of a ranking row of ``role``."""
    if role == "measure":
        return math.nan
    if role == "sentinel":
        return SENTINEL
    return COMPETING if compete else NOT_COMPETING
