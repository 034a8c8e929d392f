"""Do a measure and the humans order the *summaries of one document* alike? Item-level pairwise
accuracy with tie calibration.

Deutsch, Foster & Freitag (2023, EMNLP), "Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration" (acc_eq, here ``acc23``, and tie calibration), as WMT23 and
mt-metrics-eval (``stats.KendallWithTiesOpt(variant="acc23", average_by="item")``,
``tau_optimization.tau_optimization``) compute it at the segment level, grouped by item:

- the pairs are the pairs of systems' summaries of the same document (item) where both have a
  human and a measure score;
- at metric tie threshold epsilon a pair is a *metric tie* when |Delta metric| <= epsilon and a
  *human tie* when Delta human = 0; it is *correct* when tied in both, or tied in neither and
  ordered alike;
- ``grouping="item"``: acc23 = the mean over items (with at least one pair) of each item's share
  of correct pairs; ``grouping="none"``: the share over all pairs pooled;
- **tie calibration** picks the epsilon maximising acc23 among 0 and the observed |Delta metric|,
  the smallest one when several reach the maximum (as ``tau_optimization``, which keeps the first
  maximum of thresholds in increasing order); values within 1e-12 of the maximum count as reaching
  it (the weighted sums carry floating-point noise of that order).

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

__all__ = ["item_pair_stats", "calibrate_threshold", "acc23_at", "item_pairwise_accuracy", "GROUPINGS"]

GROUPINGS: tuple[str, ...] = ("item", "none")
_EQUAL = 1e-12
ITEM_COLUMNS = ["metric", "human", "level", "grouping", "accuracy", "epsilon", "tuned_on", "optimistic", "n_items",
                "n_pairs", "n_human_ties", "n_tune_items", "tune_accuracy"]


def item_pair_stats(human: np.ndarray, metric: np.ndarray, grouping: str = "item") -> dict[str, np.ndarray]:
    """Per usable pair: |Delta metric|, correct-when-untied, human tie, weight.

    Args:
        human, metric: shape (n_items, n_systems), NaN where a summary has no score.
        grouping: ``"item"`` (weight 1 / (items x the item's pairs)) or ``"none"`` (1 / pairs).

    Returns:
        ``ad, concordant, human_tie, weight`` (shape (n_pairs,) each) and ``n_items`` (items with a pair).
    """
    if grouping not in GROUPINGS:
        raise InputError(f"grouping {grouping!r} is unknown; choose one of {', '.join(GROUPINGS)}")
    h, m = np.asarray(human, dtype=np.float64), np.asarray(metric, dtype=np.float64)
    i, j = np.triu_indices(h.shape[1], 1)
    dh, dm = h[:, i] - h[:, j], m[:, i] - m[:, j]  # (n_items, pairs per item)
    ok = np.isfinite(dh) & np.isfinite(dm)
    per_item = ok.sum(axis=1)
    used = per_item > 0
    n_items, n_pairs = int(used.sum()), int(ok.sum())
    if grouping == "item":
        w = np.where(ok, 1.0 / np.maximum(per_item, 1)[:, None], 0.0) / max(n_items, 1)
    else:
        w = np.where(ok, 1.0 / max(n_pairs, 1), 0.0)
    conc = (dh != 0) & (np.sign(dh) == np.sign(dm))
    return {"ad": np.abs(dm)[ok], "concordant": conc[ok], "human_tie": (dh == 0)[ok], "weight": w[ok],
            "n_items": np.int64(n_items)}


def acc23_at(stats: dict[str, np.ndarray], epsilon: float) -> float:
    """acc23 of :func:`item_pair_stats` at metric tie threshold ``epsilon`` (module docstring)."""
    if not epsilon >= 0:
        raise InputError(f"epsilon must be a threshold >= 0, got {epsilon!r}")
    if stats["ad"].size == 0:
        return float("nan")
    tied = stats["ad"] <= epsilon
    return float(np.sum(stats["weight"] * np.where(tied, stats["human_tie"], stats["concordant"])))


def calibrate_threshold(stats: dict[str, np.ndarray]) -> tuple[float, float]:
    """Tie calibration (module docstring): ``(best acc23, smallest epsilon reaching it)``."""
    ad, w = stats["ad"], stats["weight"]
    if ad.size == 0:
        return float("nan"), 0.0
    order = np.argsort(ad, kind="stable")
    cum_conc = np.concatenate([[0.0], np.cumsum((w * stats["concordant"])[order])])
    cum_tie = np.concatenate([[0.0], np.cumsum((w * stats["human_tie"])[order])])
    candidates = np.unique(np.concatenate([[0.0], ad]))
    k = np.searchsorted(ad[order], candidates, side="right")  # pairs tied at each threshold
    acc = cum_conc[-1] - cum_conc[k] + cum_tie[k]
    best = int(np.flatnonzero(acc >= acc.max() - _EQUAL)[0])
    return float(acc[best]), float(candidates[best])


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
        st = item_pair_stats(y[test], x[test], grouping)
        tune_acc = np.nan
        n_tune = 0
        if epsilon is not None:
            eps, tuned_on = float(epsilon), "given"
            acc = acc23_at(st, eps)
        elif tune_docs is not None:
            tst = item_pair_stats(y[~test], x[~test], grouping)
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
