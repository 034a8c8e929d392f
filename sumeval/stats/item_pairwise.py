"""Do a measure and the humans order the *summaries of one document* alike? Item-level pairwise
accuracy with tie calibration.

Deutsch, Foster & Freitag (2023, EMNLP), "Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration" (acc_eq, here ``acc23``, and tie calibration), as WMT23 and
mt-metrics-eval (``stats.KendallWithTiesOpt(variant="acc23", average_by="item")``,
``tau_optimization.tau_optimization``) compute it at the segment level, grouped by item: the pairs
are the pairs of systems' summaries of the same document (item) where both have a human and a
measure score, and acc23 and its tie calibration are those of the system level, one implementation
(:mod:`sumeval.stats.pairwise`: :func:`~sumeval.stats.pairwise.acc23_pairs`,
:func:`~sumeval.stats.pairwise.acc23_at`, :func:`~sumeval.stats.pairwise.calibrate_threshold`, where
the rule is written out), with

- ``grouping="item"``: acc23 = the mean over items (with at least one pair) of each item's share
  of correct pairs; ``grouping="none"``: the share over all pairs pooled;
- the scores compared exactly, as mt-metrics-eval compares them (the data's own scores, not means).

A threshold tuned on the data it is evaluated on flatters the measure (Deutsch et al. 2023 tune and
test on the same data; the result is then **optimistic** and said so). With ``tune_docs`` the
threshold is tuned on those documents and applied to the others (``tuned_on = "tune split"``); with
``epsilon`` given it is used as is (``"given"``).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_columns, check_frame, frame_column, names
from sumeval.stats.layout import frame_layout
from sumeval.stats.pairwise import acc23_at, acc23_pairs, calibrate_threshold

__all__ = ["item_pairwise_accuracy", "ITEM_COLUMNS"]

ITEM_COLUMNS = ["metric", "human", "level", "grouping", "accuracy", "epsilon", "tuned_on", "optimistic", "n_items",
                "n_pairs", "n_human_ties", "n_tune_items", "tune_accuracy"]


def item_pairwise_accuracy(frame: pd.DataFrame, metrics: str | Sequence[str], human: str, *,
                           grouping: str = "item", epsilon: float | None = None,
                           tune_docs: Sequence | None = None, doc_col: str = "doc_id",
                           system_col: str = "system") -> pd.DataFrame:
    """Item-level acc23 of measure columns against a human column, the threshold calibrated.

    Args:
        frame: one row per (document, system) summary.
        metrics: measure column(s), higher is better; human: the human column.
        grouping: ``"item"`` (mean over documents, WMT23's grouping) or ``"none"`` (pairs pooled).
        epsilon: a fixed threshold (no tuning); else tie calibration:
        tune_docs: documents to tune the threshold on; they are left out of the evaluation. None:
            tuned on the evaluated documents themselves (``optimistic`` True).

    Returns:
        One row per measure: :data:`ITEM_COLUMNS` (level ``"item"``; ``tune_accuracy`` is acc23 on the
        tuning documents, NaN when there are none).
    """
    check_frame(frame)
    if epsilon is not None and tune_docs is not None:
        raise InputError("give either epsilon (a fixed threshold) or tune_docs (documents to tune it on), not both")
    metric_names = names(metrics, "metric columns")
    check_columns(frame, metric_names, "metric")
    check_columns(frame, [human], "human")
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    docs = pd.unique(frame[doc_col])
    test = np.ones(lay.n_docs, dtype=bool)
    if tune_docs is not None:
        tune = list(dict.fromkeys(tune_docs))
        unknown = [d for d in tune if d not in set(docs)]
        if unknown:
            raise InputError(f"tune_docs: document {unknown[0]!r} is not in the frame's {doc_col!r} column "
                             f"({len(unknown)} unknown of {len(tune)})")
        test = ~np.isin(docs, tune)
        if not test.any() or test.all():
            raise InputError(f"tune_docs holds {len(tune)} of the {lay.n_docs} documents; leave some to tune on "
                             "and some to evaluate")
    y = lay.grid(frame_column(frame, human))
    rows = []
    for mc in metric_names:
        x = lay.grid(frame_column(frame, mc))
        st = acc23_pairs(y[test], x[test], grouping)
        tune_acc = np.nan
        n_tune = 0
        if epsilon is not None:
            eps, tuned_on = float(epsilon), "given"
            acc = acc23_at(st, eps)
        elif tune_docs is not None:
            tst = acc23_pairs(y[~test], x[~test], grouping)
            tune_acc, eps = calibrate_threshold(tst)
            n_tune, tuned_on = int(tst["n_items"]), "tune split"
            acc = acc23_at(st, eps)
        else:
            acc, eps = calibrate_threshold(st)
            tuned_on = "test data"
        rows.append({"metric": mc, "human": human, "level": "item", "grouping": grouping, "accuracy": acc,
                     "epsilon": eps, "tuned_on": tuned_on, "optimistic": tuned_on == "test data",
                     "n_items": int(st["n_items"]), "n_pairs": int(st["ad"].size),
                     "n_human_ties": int(st["human_tie"].sum()), "n_tune_items": n_tune, "tune_accuracy": tune_acc})
    return pd.DataFrame(rows, columns=ITEM_COLUMNS)
