"""How many human labels does a judge save? Prediction-powered inference of a system's mean score.

A system's summaries all get a judge's score; only n of them get a human score. Prediction-powered
inference (PPI; Angelopoulos, Bates, Fannjiang, Jordan & Zrnic 2023, Science 382, "Prediction-powered
inference", the mean) estimates the mean human score from both, with a normal-approximation interval:
with y_1..y_n the human scores of the labelled items, f_1..f_n the judge's on them and f~_1..f~_N the
judge's on the N unlabelled items,

    theta = lambda * mean(f~) + mean(y - lambda * f)
    se^2  = var(lambda * f~) / N + var(y - lambda * f) / n          (variances with divisor N, n)
    interval: theta -+ z_{1 - alpha/2} se

``lambda = 1`` is PPI; PPI++ (Angelopoulos, Duchi & Zrnic 2023, arXiv:2311.01453, "PPI++: Efficient
Prediction-Powered Inference", power tuning for the mean) estimates the variance-minimising

    lambda = cov(y, f) / ((1 + n / N) var(f, f~))                   (clipped to [0, 1])

with cov over the labelled items (divisor n) and var over all n + N judge scores (divisor n + N - 1),
so a useless judge gets lambda ~ 0 and the interval falls back to the human-only one; ``lambda = 0``
is that classical interval, mean(y) -+ z sd(y) / sqrt(n). These are ``ppi_py.ppi_mean_ci`` and
``ppi_py.classical_mean_ci`` (ppi-python 0.2.3, the reference implementation; tests/judges/test_ppi.py pins
its outputs), vectorised over repeated draws. One deviation: a constant judge (var = 0), where ppi_py
divides by zero, gets lambda = 0.

:func:`label_curve` asks the question on a judgments frame: per system, judge and n, R random choices
of the n labelled items; the mean width of the PPI and the human-only intervals, their coverage of the
system's mean over all its items, and the **effective number of labels** n (w_human / w_ppi)^2 (the
human labels the human-only interval would need to be as narrow, widths scaling as 1/sqrt(n)).

**Coverage is measured, not assumed.** Both intervals are normal approximations (the central limit
theorem, the plug-in variances, PPI++'s lambda estimated from the same n labels): they cover 1 - alpha
only as n grows. On few labels they under-cover; on SummEval (16 systems, 100 summaries each, the
experts' mean, 6 LLM judges, 200 draws per system and n) the 95% PPI++ intervals covered the system's
mean 77% of the time at n = 10 and 86% at n = 20 (consistency, mostly 5s: 55% and 70%), the
human-only intervals 79% and 86%; ppi-python's own ``ppi_mean_ci`` gives the same intervals
(tests/judges/test_ppi.py): the method, not a port. (From about n = 60 of 100 both over-cover: the labels are
drawn without replacement from a finite set, which neither interval accounts for.) So :func:`label_curve` reports
each interval's
**measured coverage** beside its width, by simulation on the data at hand: for each system, R times,
label n of its items at random (seeded), compute the interval, and count how often it contains the
system's mean over all its items (the mean the labels estimate); ``coverage_ppi`` and ``coverage_human``
are those shares (standard error about sqrt(0.95 x 0.05 / R): 0.015 at R = 200). A row whose measured
coverage falls below ``min_coverage`` (0.90 by default) gets a ``note``: too few labels to trust that
interval, nor ``effective_n``, which compares the widths of intervals that do not cover alike. The cost
is the curve's own: R x (systems) x (values of n) intervals per judge, vectorised over the R draws
(SummEval's 4 qualities x 6 judges x 16 systems x 8 values of n x 200 draws: 9 s on the project's
2-core machine).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_columns, check_count, check_frame, frame_column, names
from sumeval.stats.layout import frame_layout

__all__ = ["ppi_mean_ci", "classical_mean_ci", "power_tuning_lambda", "label_curve", "coverage_note",
           "MIN_COVERAGE"]

CURVE_COLUMNS = ["judge", "human", "system", "n_labels", "n_items", "n_repeats", "alpha", "power_tuning",
                 "width_ppi", "width_human", "effective_n", "coverage_ppi", "coverage_human", "lambda_mean",
                 "system_mean", "note"]
#: a measured coverage below this (at the nominal 1 - alpha = 0.95) gets a note: too few labels to trust the interval
MIN_COVERAGE = 0.90


def _z(alpha: float) -> float:
    from scipy.stats import norm

    if not 0 < alpha < 1:
        raise InputError(f"alpha {alpha!r} must lie in (0, 1): the interval covers 1 - alpha")
    return float(norm.ppf(1 - alpha / 2.0))


def power_tuning_lambda(y: np.ndarray, yhat: np.ndarray, yhat_unlabeled: np.ndarray) -> np.ndarray:
    """PPI++'s lambda (module docstring), over the last axis: shapes (..., n), (..., n), (..., N) -> (...)."""
    n, big_n = y.shape[-1], yhat_unlabeled.shape[-1]
    cov = ((y - y.mean(-1, keepdims=True)) * (yhat - yhat.mean(-1, keepdims=True))).mean(-1)
    var = np.concatenate([yhat, yhat_unlabeled], axis=-1).var(axis=-1, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        lam = cov / ((1 + n / big_n) * var)
    return np.where(var > 0, np.clip(lam, 0.0, 1.0), 0.0)


def ppi_mean_ci(y, yhat, yhat_unlabeled, *, alpha: float = 0.05,
                lam: float | np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The PPI (``lam=1``), PPI++ (``lam=None``: power tuning) or classical (``lam=0``) estimate of a mean.

    Args:
        y, yhat: shape (..., n), human and judge scores of the labelled items.
        yhat_unlabeled: shape (..., N), the judge's scores of the unlabelled items.
        alpha: 1 - coverage of the two-sided normal interval.
        lam: the weight of the judge; None estimates it (PPI++).

    Returns:
        ``(estimate, ci_low, ci_high, lambda)``, each of shape (...). The interval is a normal approximation:
        its coverage at small n is below 1 - alpha (module docstring); :func:`label_curve` measures it.
    """
    y, f, fu = (np.asarray(a, dtype=np.float64) for a in (y, yhat, yhat_unlabeled))
    if y.shape != f.shape or y.shape[:-1] != fu.shape[:-1] or y.shape[-1] < 2 or fu.shape[-1] < 1:
        raise InputError(f"y and yhat must be (..., n >= 2) of one shape and yhat_unlabeled (..., N >= 1); got "
                         f"{y.shape}, {f.shape}, {fu.shape}")
    if not (np.isfinite(y).all() and np.isfinite(f).all() and np.isfinite(fu).all()):
        raise InputError("ppi_mean_ci needs finite scores; drop the items without a human or judge score first")
    z = _z(alpha)
    lam = power_tuning_lambda(y, f, fu) if lam is None else np.broadcast_to(np.asarray(lam, float), y.shape[:-1])
    lam_ = lam[..., None]
    estimate = (lam_ * fu).mean(-1) + (y - lam_ * f).mean(-1)
    se = np.sqrt((lam_ * fu).var(-1) / fu.shape[-1] + (y - lam_ * f).var(-1) / y.shape[-1])
    return estimate, estimate - z * se, estimate + z * se, np.asarray(lam, float)


def classical_mean_ci(y, *, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The human-only interval mean(y) -+ z sd(y) / sqrt(n) (sd with divisor n, as ppi_py), over the last axis."""
    y = np.asarray(y, dtype=np.float64)
    z = _z(alpha)
    m, se = y.mean(-1), y.std(-1) / np.sqrt(y.shape[-1])
    return m, m - z * se, m + z * se


def coverage_note(coverage_ppi: float, coverage_human: float, n: int, alpha: float,
                  min_coverage: float = MIN_COVERAGE) -> str | None:
    """The note of a row whose measured coverage (either interval's) is below ``min_coverage``; else None."""
    low = [f"{what} {c:.2f}" for what, c in (("PPI", coverage_ppi), ("human labels only", coverage_human))
           if c < min_coverage]
    if not low:
        return None
    return (f"measured coverage {', '.join(low)} at nominal {1 - alpha:.2f} with n = {n} labels (below "
            f"{min_coverage:.2f}): too few labels to trust this interval, nor effective_n")


def label_curve(frame: pd.DataFrame, human: str, judges: str | Sequence[str], *,
                n_labels: Sequence[int] = (10, 20, 30, 40, 50, 60, 70, 80), n_repeats: int = 200,
                alpha: float = 0.05, power_tuning: bool = True, seed: int = 0, doc_col: str = "doc_id",
                system_col: str = "system", min_coverage: float = MIN_COVERAGE) -> pd.DataFrame:
    """Interval width and measured coverage of PPI against human labels alone, per judge, system and n (module
    docstring: the coverage simulation and its cost).

    For each system, its items are the rows with a human and a judge score; each repeat labels n of them
    at random (the same draws for every judge), the others are unlabelled.

    Args:
        frame: one row per (document, system) summary.
        human: the human column; judges: judge columns on the humans' scale.
        n_labels: the numbers of human-labelled items (each below the system's item count).
        n_repeats: random labelled sets per (system, n); alpha: 1 - coverage.
        power_tuning: PPI++ (lambda estimated) or plain PPI (lambda = 1).
        seed: the draws (``numpy.random.default_rng(seed)``, per system and n in order).
        min_coverage: a row whose measured coverage (PPI or human-only) is below it gets a ``note``
            (:func:`coverage_note`).

    Returns:
        :data:`CURVE_COLUMNS`, one row per (judge, system, n): ``coverage_ppi`` and ``coverage_human`` the share
        of the ``n_repeats`` intervals that contain ``system_mean`` (the mean over all the system's items).
    """
    if not 0 < min_coverage <= 1:
        raise InputError(f"min_coverage {min_coverage!r} must lie in (0, 1]: the measured coverage below which a "
                         "row gets a note")
    check_frame(frame)
    judge_cols = names(judges, "judge columns")
    check_columns(frame, [human, *judge_cols], "human or judge")
    check_count(n_repeats, "n_repeats", 1)
    ns = [check_count(n, "n_labels", 2) for n in n_labels]
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    systems = list(pd.unique(frame[system_col]))
    y_all = frame_column(frame, human)
    f_all = {j: frame_column(frame, j) for j in judge_cols}
    ok = np.isfinite(y_all) & np.all([np.isfinite(v) for v in f_all.values()], axis=0)
    rng = np.random.default_rng(seed)
    rows = []
    for s, system in enumerate(systems):
        items = np.flatnonzero((lay.sys == s) & ok)
        truth = float(y_all[items].mean())
        for n in ns:
            if n >= items.size:
                raise InputError(f"n_labels {n}: system {system!r} has {items.size} items with a human and a judge "
                                 f"score; label fewer than {items.size} so that some stay unlabelled")
            order = np.argsort(rng.random((n_repeats, items.size)), axis=1)
            lab, unlab = items[order[:, :n]], items[order[:, n:]]  # (R, n), (R, N)
            y = y_all[lab]
            _, lo_h, hi_h = classical_mean_ci(y, alpha=alpha)
            width_h = float((hi_h - lo_h).mean())
            cover_h = float(((lo_h <= truth) & (truth <= hi_h)).mean())
            for j in judge_cols:
                f = f_all[j]
                _, lo, hi, lam = ppi_mean_ci(y, f[lab], f[unlab], alpha=alpha, lam=None if power_tuning else 1.0)
                width = float((hi - lo).mean())
                cover = float(((lo <= truth) & (truth <= hi)).mean())
                rows.append({"judge": j, "human": human, "system": system, "n_labels": n, "n_items": int(items.size),
                             "n_repeats": int(n_repeats), "alpha": alpha, "power_tuning": bool(power_tuning),
                             "width_ppi": width, "width_human": width_h,
                             "effective_n": n * (width_h / width) ** 2 if width > 0 else np.nan,
                             "coverage_ppi": cover, "coverage_human": cover_h,
                             "lambda_mean": float(lam.mean()), "system_mean": truth,
                             "note": coverage_note(cover, cover_h, n, alpha, min_coverage)})
    return pd.DataFrame(rows, columns=CURVE_COLUMNS)
