"""System-level pairwise accuracy, with metric ties calibrated (acc23).

Pairwise accuracy (Kocmi et al. 2021, "To Ship or Not to Ship", WMT): the share of
system pairs that the metric orders as the humans do, sign(Delta metric) == sign(Delta human).

acc23 (Deutsch, Foster & Freitag 2023, "Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration", EMNLP): with a metric tie threshold epsilon, a pair is

- a **human tie** when the two systems' human scores (their means) are exactly equal;
- a **metric tie** when |Delta metric| <= epsilon;

and acc23 = (concordant pairs + pairs tied in both) / all pairs, where concordant = tied in
neither and ordered alike. With epsilon = 0 it is Kocmi et al.'s pairwise accuracy. **Tie
calibration** picks the epsilon maximising acc23 among 0 and the observed |Delta metric| (the
smallest such epsilon when several tie), as mt-metrics-eval's ``KendallWithTiesOpt``.
The epsilon is tuned on the data it is then evaluated on, so the calibrated acc23 is optimistic
(an upper bound of what a threshold fixed in advance would give), as in Deutsch et al. 2023.

Differences between two systems' means within floating error of 0 (at most 1e-12 times the
largest |mean|) count as exactly 0, for the human and the metric: such means are equal as
numbers (a tie), and a calibrated epsilon is then 0 rather than 1.1e-16.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_columns, check_frame, frame_column, names
from sumeval.stats.layout import check_system_count, frame_layout
from sumeval.stats.levels import system_means

__all__ = ["acc23", "tie_calibration", "pairwise_accuracy"]


def _pair_stats(human: np.ndarray, metric: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per system pair i < j: |Delta metric|, concordant (not tied in either, same order),
    tied in the human scores; each shape (n_pairs,)."""
    h = np.asarray(human, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    if h.ndim != 1 or h.shape != m.shape:
        raise InputError(f"human and metric must be 1-D of one length (one value per system), "
                         f"got shapes {h.shape} and {m.shape}")
    if not (np.isfinite(h).all() and np.isfinite(m).all()):
        raise InputError("pairwise accuracy needs a finite human and metric value per system; "
                         "drop the systems without scores first")
    if h.size < 2:
        raise InputError(f"pairwise accuracy needs at least 2 systems, got {h.size}")
    i, j = np.triu_indices(h.size, 1)
    dh, dm = _snap(h[i] - h[j], h), _snap(m[i] - m[j], m)
    return np.abs(dm), (np.sign(dh) == np.sign(dm)) & (dh != 0), dh == 0


#: differences at most this times the largest |value| are rounding, and count as 0
ZERO_RTOL = 1e-12


def _snap(diff: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``diff`` with the differences within floating error of 0 (``ZERO_RTOL`` times the largest
    |value|) set to exactly 0: two means equal as numbers but one ulp apart are a tie, and a
    calibrated threshold is reported as 0, not 1.1e-16."""
    scale = float(np.max(np.abs(values))) if values.size else 0.0
    return np.where(np.abs(diff) <= ZERO_RTOL * scale, 0.0, diff)


def acc23(human: Sequence[float] | np.ndarray, metric: Sequence[float] | np.ndarray,
          epsilon: float = 0.0) -> float:
    """acc23 of system scores (module docstring) at metric tie threshold ``epsilon``.

    Args:
        human, metric: shape (n_systems,), one value per system (e.g. means over inputs).
        epsilon: metric tie threshold (>= 0); 0 gives Kocmi et al.'s pairwise accuracy.

    Returns:
        The share of system pairs, in [0, 1].
    """
    if not epsilon >= 0:
        raise InputError(f"epsilon must be a threshold >= 0, got {epsilon!r}")
    ad, conc, htie = _pair_stats(human, metric)
    tied = ad <= epsilon
    return float(((conc & ~tied).sum() + (htie & tied).sum()) / ad.size)


def tie_calibration(human: Sequence[float] | np.ndarray,
                    metric: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The best acc23 over metric tie thresholds, and the threshold (module docstring).

    Args:
        human, metric: shape (n_systems,).

    Returns:
        ``(acc23, epsilon)``: the maximum over epsilon in {0} and the observed |Delta metric|,
        and the smallest epsilon reaching it.
    """
    ad, conc, htie = _pair_stats(human, metric)
    order = np.argsort(ad, kind="stable")
    cum_conc = np.concatenate([[0], np.cumsum(conc[order])])
    cum_htie = np.concatenate([[0], np.cumsum(htie[order])])
    candidates = np.unique(np.concatenate([[0.0], ad]))
    k = np.searchsorted(ad[order], candidates, side="right")  # pairs tied at each threshold
    acc = (cum_conc[-1] - cum_conc[k] + cum_htie[k]) / ad.size
    best = int(np.argmax(acc))
    return float(acc[best]), float(candidates[best])


def pairwise_accuracy(frame: pd.DataFrame, metrics: str | Sequence[str], human: str, *,
                      calibrate: bool = False, epsilon: float = 0.0, doc_col: str = "doc_id",
                      system_col: str = "system") -> pd.DataFrame:
    """System-level pairwise accuracy (acc23) of metric columns against a human column.

    Each system's metric and human means are taken over the rows where both are present (as the
    system level of :func:`~sumeval.stats.correlate`); systems without such a row are left out.

    Args:
        frame: one row per (document, system) pair.
        metrics: a column name or a sequence of them; human: the human column.
        calibrate: pick each metric's tie threshold by tie calibration (it is then fitted on the
            same data it is evaluated on, as in Deutsch et al. 2023); else use ``epsilon``.
        epsilon: the fixed metric tie threshold when not calibrating (0: plain pairwise
            accuracy).

    Returns:
        One row per metric: ``metric, human, level`` (``"system"``), ``accuracy, epsilon,
        calibrated, n_systems, n_pairs, n_human_ties``.
    """
    check_frame(frame)
    metric_names = names(metrics, "metric columns")
    check_columns(frame, metric_names, "metric")
    check_columns(frame, [human], "human")
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    check_system_count(lay, "system")
    y = frame_column(frame, human)
    rows = []
    for mc in metric_names:
        x = frame_column(frame, mc)
        keep = ~(np.isnan(x) | np.isnan(y))
        mx, my = system_means(lay.grid(np.where(keep, x, np.nan)),
                              lay.grid(np.where(keep, y, np.nan)), np.ones((1, lay.n_docs)))
        ok = np.isfinite(mx[0])
        hs, ms = my[0][ok], mx[0][ok]
        if calibrate:
            acc, eps = tie_calibration(hs, ms)
        else:
            acc, eps = acc23(hs, ms, epsilon), float(epsilon)
        n_pairs = int(ok.sum() * (ok.sum() - 1) // 2)
        rows.append({"metric": mc, "human": human, "level": "system", "accuracy": acc,
                     "epsilon": eps, "calibrated": bool(calibrate), "n_systems": int(ok.sum()),
                     "n_pairs": n_pairs, "n_human_ties": int(_pair_stats(hs, ms)[2].sum())})
    return pd.DataFrame(rows)
