"""A measure as a detector of binary human labels (e.g. consistent / inconsistent summaries, as in
the SummaC and FRANK benchmarks).

- **ROC AUC** (threshold-free): the probability that a random positive scores higher than a
  random negative, ties counting one half (Hanley & McNeil 1982, Radiology 143);
  scikit-learn's ``roc_auc_score``.
- **Balanced accuracy** = (true-positive rate + true-negative rate) / 2 (Brodersen et al. 2010,
  ICPR), with the decision threshold **tuned on a validation split and applied to the test
  split**, never on the split it is evaluated on (the validation / test protocol of the SummaC
  benchmark, Laban et al. 2022, TACL).

Split: stratified by label and seeded: within each label, the items are shuffled with
``numpy.random.default_rng(seed)`` (label 0 first, then label 1) and the first
``round(validation * n_label)`` go to validation, the rest to test. A caller may pass her own
split as a boolean mask instead.

Threshold: predict positive when score >= t. The candidates are the midpoints between
consecutive distinct validation scores, and one value below the smallest and one above the
largest; the chosen t maximises validation balanced accuracy (the smallest such t on ties).
The validation figures (``balanced_accuracy_validation``, ``roc_auc_validation``) are on the
data the threshold was tuned on, so they are optimistic; the test figures are not.

A measure that gives a *probability* of the positive label is also judged on its calibration:
:func:`brier_score` and :func:`expected_calibration_error`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.stats.checks import float_array

__all__ = ["binary_detection", "balanced_accuracy", "tune_threshold", "SplitError", "brier_score",
           "expected_calibration_error"]


class SplitError(InputError):
    """A validation or test split lacks one of the two labels (too few positives or negatives):
    the threshold cannot be tuned or evaluated. A caller may skip the detection and go on."""


def balanced_accuracy(scores: np.ndarray, labels: np.ndarray, threshold: float) -> float:
    """(TPR + TNR) / 2 of the rule ``score >= threshold`` -> positive; labels 0/1 (n,), both
    classes present."""
    pred = scores >= threshold
    pos = labels == 1
    return float((pred[pos].mean() + (~pred[~pos]).mean()) / 2)


def tune_threshold(scores: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The threshold maximising balanced accuracy on (scores, labels) (module docstring:
    candidates and ties); returns ``(threshold, balanced accuracy there)``. Vectorised: the
    rates of every candidate come from cumulative counts over the sorted scores."""
    values = np.unique(scores)
    mids = (values[1:] + values[:-1]) / 2
    span = max(1.0, float(values[-1] - values[0]))
    candidates = np.concatenate([[values[0] - span], mids, [values[-1] + span]])
    pos = labels == 1
    # positives / negatives scoring >= each candidate
    sp, sn = np.sort(scores[pos]), np.sort(scores[~pos])
    tp = sp.size - np.searchsorted(sp, candidates, side="left")
    tn = np.searchsorted(sn, candidates, side="left")
    bal = (tp / sp.size + tn / sn.size) / 2
    best = int(np.argmax(bal))
    return float(candidates[best]), float(bal[best])


def _split(labels: np.ndarray, validation: float, seed: int | np.random.Generator) -> np.ndarray:
    """Stratified seeded split (module docstring); returns the validation mask (n,)."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(labels.size, dtype=bool)
    for label in (0, 1):
        idx = np.flatnonzero(labels == label)
        rng.shuffle(idx)
        mask[idx[:int(round(validation * idx.size))]] = True
    return mask


def binary_detection(scores: Sequence[float] | np.ndarray, labels: Sequence[float] | np.ndarray,
                     *, validation: float | Sequence[bool] | np.ndarray = 0.5,
                     seed: int | np.random.Generator = 0) -> dict[str, object]:
    """ROC AUC and balanced accuracy of a score as a detector of binary labels.

    Args:
        scores: shape (n,), higher = more likely positive (negate a lower-is-better measure).
            NaN marks an item without a score: it is excluded (counted in ``n_excluded``).
        labels: shape (n,), 1 (positive, e.g. consistent) or 0; NaN excludes the item.
        validation: the share of each label put in the validation split (0 < v < 1), or a
            boolean mask (n,) marking one's own validation items.
        seed: seeds the split (module docstring).

    Returns:
        dict with ``roc_auc`` and ``balanced_accuracy`` on the test split, ``threshold`` (tuned
        on validation), ``balanced_accuracy_validation``, ``roc_auc_validation``,
        ``n_validation, n_test``, ``n_positive_validation, n_positive_test``, ``n_excluded`` and
        ``seed`` (the int, else None; None for a given mask).
    """
    s = float_array(scores, "scores")
    y = float_array(labels, "labels")
    if s.shape != y.shape:
        raise InputError(f"scores and labels must have the same length, got {s.size} and "
                         f"{y.size}")
    keep = ~(np.isnan(s) | np.isnan(y))
    if not np.isin(y[keep], (0.0, 1.0)).all():
        bad = sorted(set(y[keep][~np.isin(y[keep], (0.0, 1.0))].tolist()))[:5]
        raise InputError(f"labels must be 0 or 1 (NaN to exclude an item), got {bad}")
    given_mask = not np.isscalar(validation)
    if given_mask:
        val = np.asarray(validation)
        if val.dtype != bool or val.shape != s.shape:
            raise InputError(f"validation must be a share in (0, 1) or a bool mask of shape "
                             f"{s.shape}, got {val.dtype} {val.shape}")
        val = val[keep]
    elif not 0.0 < float(validation) < 1.0:
        raise InputError(f"validation must be a share strictly between 0 and 1, got "
                         f"{validation!r}")
    s, y = s[keep], y[keep].astype(np.int64)
    if not given_mask:
        val = _split(y, float(validation), seed)
    for name, part in (("validation", val), ("test", ~val)):
        counts = np.bincount(y[part], minlength=2)
        if (counts == 0).any():
            raise SplitError(f"the {name} split has {counts[1]} positive and {counts[0]} "
                             f"negative item(s); both labels are needed in each split "
                             f"(more items, or another validation share)")
    from sklearn.metrics import roc_auc_score

    threshold, bal_val = tune_threshold(s[val], y[val])
    test = ~val
    return {"roc_auc": float(roc_auc_score(y[test], s[test])),
            "balanced_accuracy": balanced_accuracy(s[test], y[test], threshold),
            "threshold": threshold, "balanced_accuracy_validation": bal_val,
            "roc_auc_validation": float(roc_auc_score(y[val], s[val])),
            "n_validation": int(val.sum()), "n_test": int(test.sum()),
            "n_positive_validation": int(y[val].sum()), "n_positive_test": int(y[test].sum()),
            "n_excluded": int((~keep).sum()),
            "seed": None if given_mask or isinstance(seed, np.random.Generator) else int(seed)}


def _probabilities(probs: object, labels: object) -> tuple[np.ndarray, np.ndarray]:
    """Checked (p, y) over the pairs where neither is NaN: p in [0, 1], y in {0, 1}."""
    p = float_array(probs, "probabilities")
    y = float_array(labels, "labels")
    if p.shape != y.shape:
        raise InputError(f"probabilities and labels must have the same length, got {p.size} and {y.size}")
    keep = ~(np.isnan(p) | np.isnan(y))
    p, y = p[keep], y[keep]
    if p.size and (p.min() < 0 or p.max() > 1):
        bad = p[(p < 0) | (p > 1)][0]
        raise InputError(f"probability {float(bad)!r} is outside [0, 1]; calibration needs the judge's probability "
                         "of the positive label")
    if not np.isin(y, (0.0, 1.0)).all():
        bad = y[~np.isin(y, (0.0, 1.0))][0]
        raise InputError(f"label {float(bad)!r} is not 0 or 1; binarise the human scores first (e.g. score >= a "
                         "threshold)")
    return p, y


def brier_score(probs: Sequence[float] | np.ndarray, labels: Sequence[float] | np.ndarray) -> float:
    """Brier score (Brier 1950, "Verification of forecasts expressed in terms of probability",
    Monthly Weather Review 78, Eq. 1 for two classes): mean over items of (p_i - y_i)^2; 0 is
    perfect, 0.25 what p = 0.5 always scores.

    Args:
        probs: shape (n,), the judge's probability of the positive label; labels: shape (n,), 0 or 1.
            A pair where either is NaN is left out.

    Returns:
        The score; NaN when no pair remains.
    """
    p, y = _probabilities(probs, labels)
    return float(np.mean((p - y) ** 2)) if p.size else float("nan")


def expected_calibration_error(probs: Sequence[float] | np.ndarray, labels: Sequence[float] | np.ndarray,
                               n_bins: int = 10) -> float:
    """Expected calibration error with equal-width bins (Naeini, Cooper & Hauskrecht 2015, AAAI,
    "Obtaining Well Calibrated Probabilities Using Bayesian Binning"; Guo et al. 2017, ICML, "On
    Calibration of Modern Neural Networks", Eq. 3), for probabilities of a positive label:
    ECE = sum_m (|B_m| / n) |ybar(B_m) - pbar(B_m)|, the bins B_m = ((m - 1)/M, m/M] for
    m = 1..M (p = 0 joins the first), ybar the share of positives and pbar the mean probability in
    the bin; empty bins count 0.

    Args:
        probs, labels: as :func:`brier_score`.
        n_bins: M (>= 1).

    Returns:
        ECE in [0, 1]; NaN when no pair remains.
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InputError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    p, y = _probabilities(probs, labels)
    if p.size == 0:
        return float("nan")
    # bin m holds p <= the m-th interior edge of np.linspace(0, 1, M + 1) (right-closed bins)
    m = np.searchsorted(np.linspace(0.0, 1.0, n_bins + 1)[1:-1], p, side="left")
    total = 0.0
    for b in np.unique(m):
        sel = m == b
        total += sel.sum() / p.size * abs(float(y[sel].mean()) - float(p[sel].mean()))
    return float(total)
