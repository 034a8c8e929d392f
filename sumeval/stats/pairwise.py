"""Pairwise accuracy with metric ties calibrated (acc23): the one implementation, system and item level.

Pairwise accuracy (Kocmi et al. 2021, "To Ship or Not to Ship", WMT): the share of
system pairs that the metric orders as the humans do, sign(Delta metric) == sign(Delta human).

acc23 (Deutsch, Foster & Freitag 2023, "Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration", EMNLP; their section on pairwise accuracy, acc_eq; mt-metrics-eval
``tau_optimization.TauSufficientStats.acc_23``): with a metric tie threshold epsilon, a pair is

- a **human tie** when Delta human = 0;
- a **metric tie** when |Delta metric| <= epsilon;

and, C the concordant pairs (tied in neither and ordered alike), D the discordant ones, T_h, T_m
the pairs tied only in the human or only in the metric scores, T_hm those tied in both,

    acc23 = (C + T_hm) / (C + D + T_h + T_m + T_hm).

With epsilon = 0 it is Kocmi et al.'s pairwise accuracy. **Tie calibration** (their section on tie
calibration; mt-metrics-eval ``tau_optimization.tau_optimization``, called by
``stats.KendallWithTiesOpt(variant="acc23")``) picks the epsilon maximising acc23 among 0 and the
observed |Delta metric|: **the smallest epsilon reaching the maximum** (mt-metrics-eval keeps the
first maximum of the thresholds in increasing order); an acc23 within ``CALIBRATION_ATOL`` (1e-12)
of the maximum reaches it, as the item level's weighted sums carry rounding of that order (at the
system level the values are counts over one denominator, at least 1 / n_pairs apart, and the rule is
the plain first maximum). The epsilon is tuned on the data it is then evaluated on, so the
calibrated acc23 is optimistic (an upper bound of what a threshold fixed in advance would give), as
in Deutsch et al. 2023.

Both levels build their pairs with :func:`acc23_pairs` and evaluate them with :func:`acc23_at` and
:func:`calibrate_threshold`:

- **system level** (:func:`acc23`, :func:`tie_calibration`, :func:`pairwise_accuracy`): one row of
  system means, every pair weighing 1. The means are sumeval's own sums, so differences within
  floating error of 0 (at most 1e-12 times the largest |mean|) count as exactly 0, for the human and
  the metric: such means are equal as numbers (a tie), and a calibrated epsilon is then 0 rather than
  1.1e-16 (``means=True``);
- **item level** (:func:`sumeval.stats.item_pairwise.item_pairwise_accuracy`, WMT23's grouping by
  item): one row per document; each item with a pair weighs 1 / items, split over its pairs. The
  scores are the data's, compared exactly, as mt-metrics-eval compares them (``means=False``).

**Close pairs** (:func:`close_pair_agreement`): the same agreement, per bin of system pairs ranked
by how far apart the humans put them (closest / middle / farthest third), with a document-bootstrap
interval; the closest bin holds the comparisons whose outcome is in question (Deutsch, Dror & Roth
2022, NAACL, Sec. 5; "The Progress Illusion", Findings of EMNLP 2025).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_boot, check_columns, check_frame, frame_column, names, seed_record
from sumeval.stats.layout import Layout, check_system_count, frame_layout
from sumeval.stats.levels import system_means
from sumeval.stats.resampling import percentile_interval, resample_indices

__all__ = ["acc23", "tie_calibration", "acc23_pairs", "acc23_at", "calibrate_threshold", "GROUPINGS",
           "pairwise_accuracy", "close_pair_bins", "pair_agreement_rows",
           "binned_agreement", "close_pair_replicates", "close_pair_agreement", "close_pair_rows", "THIRDS",
           "CLOSE_PAIR_COLUMNS"]


def _pair_stats(human: np.ndarray, metric: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`acc23_pairs` of one value per system (the system level), the values checked."""
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
    return acc23_pairs(h[None, :], m[None, :], "none", means=True)


#: differences at most this times the largest |value| are rounding, and count as 0
ZERO_RTOL = 1e-12
#: tie calibration: an acc23 within this of the maximum reaches it (the rounding of weighted sums)
CALIBRATION_ATOL = 1e-12
#: how acc23 averages its pairs: ``"item"`` (each row weighs the same, WMT23) or ``"none"`` (pooled)
GROUPINGS: tuple[str, ...] = ("item", "none")


def _snap(diff: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``diff`` with the differences within floating error of 0 (``ZERO_RTOL`` times the largest
    finite |value|, per row of ``values``: its last axis holds the systems) set to exactly 0: two
    means equal as numbers but one ulp apart are a tie, and a calibrated threshold is reported as 0,
    not 1.1e-16. NaN stays NaN."""
    v = np.abs(np.asarray(values, dtype=np.float64))
    scale = np.max(np.where(np.isfinite(v), v, 0.0), axis=-1, keepdims=True) if v.size else 0.0
    return np.where(np.abs(diff) <= ZERO_RTOL * scale, 0.0, diff)


def acc23_pairs(human: np.ndarray, metric: np.ndarray, grouping: str = "item", *,
                means: bool = False) -> dict[str, np.ndarray]:
    """The pairs acc23 counts (module docstring), per row: |Delta metric|, correct-when-untied, human
    tie and weight of every usable pair.

    Args:
        human, metric: shape (n_rows, n_systems), NaN where a system has no score; a pair is usable
            where both of its systems have both scores.
        grouping: ``"item"`` (weight 1 / (rows with a pair x the row's pairs)) or ``"none"`` (weight 1
            per pair, over all pairs pooled).
        means: the values are means sumeval computed (the system level): differences within
            ``ZERO_RTOL`` times the row's largest finite |value| count as 0 (module docstring).

    Returns:
        ``ad, concordant, human_tie, weight`` (shape (n_pairs,) each), ``norm`` (acc23 = the weighted
        sum / norm: 1 for ``"item"``, the number of pairs for ``"none"``) and ``n_items`` (rows with a
        pair).
    """
    if grouping not in GROUPINGS:
        raise InputError(f"grouping {grouping!r} is unknown; choose one of {', '.join(GROUPINGS)}")
    h, m = np.asarray(human, dtype=np.float64), np.asarray(metric, dtype=np.float64)
    i, j = np.triu_indices(h.shape[1], 1)
    dh, dm = h[:, i] - h[:, j], m[:, i] - m[:, j]  # (n_rows, pairs per row)
    if means:
        dh, dm = _snap(dh, h), _snap(dm, m)
    ok = np.isfinite(dh) & np.isfinite(dm)
    per_item = ok.sum(axis=1)
    n_items, n_pairs = int((per_item > 0).sum()), int(ok.sum())
    if grouping == "item":
        w, norm = np.where(ok, 1.0 / np.maximum(per_item, 1)[:, None], 0.0) / max(n_items, 1), 1.0
    else:
        w, norm = np.where(ok, 1.0, 0.0), float(max(n_pairs, 1))
    conc = (dh != 0) & (np.sign(dh) == np.sign(dm))
    return {"ad": np.abs(dm)[ok], "concordant": conc[ok], "human_tie": (dh == 0)[ok], "weight": w[ok],
            "norm": np.float64(norm), "n_items": np.int64(n_items)}


def acc23_at(pairs: dict[str, np.ndarray], epsilon: float) -> float:
    """acc23 of :func:`acc23_pairs` at metric tie threshold ``epsilon`` (module docstring): a pair
    with |Delta metric| <= epsilon is correct when the humans tie it, any other when concordant."""
    if not epsilon >= 0:
        raise InputError(f"epsilon must be a threshold >= 0, got {epsilon!r}")
    if pairs["ad"].size == 0:
        return float("nan")
    tied = pairs["ad"] <= epsilon
    return float(np.sum(pairs["weight"] * np.where(tied, pairs["human_tie"], pairs["concordant"])) / pairs["norm"])


def calibrate_threshold(pairs: dict[str, np.ndarray]) -> tuple[float, float]:
    """Tie calibration of :func:`acc23_pairs` (module docstring): ``(best acc23, the smallest epsilon
    among 0 and the observed |Delta metric| whose acc23 is within CALIBRATION_ATOL of the best)``;
    ``(nan, 0.0)`` without a pair."""
    ad, w = pairs["ad"], pairs["weight"]
    if ad.size == 0:
        return float("nan"), 0.0
    order = np.argsort(ad, kind="stable")
    cum_conc = np.concatenate([[0.0], np.cumsum((w * pairs["concordant"])[order])])
    cum_tie = np.concatenate([[0.0], np.cumsum((w * pairs["human_tie"])[order])])
    candidates = np.unique(np.concatenate([[0.0], ad]))
    k = np.searchsorted(ad[order], candidates, side="right")  # pairs tied at each threshold
    acc = (cum_conc[-1] - cum_conc[k] + cum_tie[k]) / pairs["norm"]
    best = int(np.flatnonzero(acc >= acc.max() - CALIBRATION_ATOL)[0])
    return float(acc[best]), float(candidates[best])


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
    return acc23_at(_pair_stats(human, metric), epsilon)


def tie_calibration(human: Sequence[float] | np.ndarray,
                    metric: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The best acc23 over metric tie thresholds, and the threshold (module docstring).

    Args:
        human, metric: shape (n_systems,).

    Returns:
        ``(acc23, epsilon)``: the maximum over epsilon in {0} and the observed |Delta metric|,
        and the smallest epsilon reaching it.
    """
    return calibrate_threshold(_pair_stats(human, metric))


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
                     "n_pairs": n_pairs, "n_human_ties": int(_pair_stats(hs, ms)["human_tie"].sum())})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Close pairs: pairwise agreement binned by how far apart the humans put the two systems
# --------------------------------------------------------------------------------------------
#: the names of the bins when there are three (thirds); other counts are named "1/n" .. "n/n"
THIRDS = ("closest", "middle", "farthest")


def close_pair_bins(human: Sequence[float] | np.ndarray, n_bins: int = 3) -> np.ndarray:
    """The bin of each system pair i < j by the humans' difference |h_i - h_j| (closest first).

    The pairs are ranked by |Delta human| and cut into ``n_bins`` bins of equal count (thirds for
    3): pair p goes to bin ``floor(n_bins * r_p / n_pairs)``, r_p the number of pairs with a
    strictly smaller |Delta human| (0-based "min" rank). Pairs with equal differences share a bin
    (ties never split, whatever the order of the systems), so bins may be unequal when there are
    ties at a cut. Differences within floating error of 0 are 0 (:func:`_snap`). The closest bin
    is where the close pairs of Deutsch, Dror & Roth (2022, "Re-Examining System-Level
    Correlations of Automatic Summarization Evaluation Metrics", NAACL, Sec. 5: system pairs whose
    scores differ little, the comparisons a researcher actually makes) lie.

    Args:
        human: shape (n_systems,), finite.
        n_bins: the number of bins (>= 1).

    Returns:
        shape (n_systems * (n_systems - 1) / 2,) int bins in [0, n_bins), pairs in
        ``np.triu_indices`` order.

    >>> close_pair_bins([0.0, 1.0, 3.0, 6.0]).tolist()   # |diffs| 1 3 6 2 5 3
    [0, 1, 2, 0, 2, 1]
    """
    h = np.asarray(human, dtype=np.float64)
    if h.ndim != 1 or h.size < 2 or not np.isfinite(h).all():
        raise InputError(f"close pairs need one finite human value per system (at least 2), got shape "
                         f"{h.shape}" + ("" if h.ndim != 1 or np.isfinite(h).all() else " with NaN or inf"))
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InputError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    i, j = np.triu_indices(h.size, 1)
    d = np.abs(_snap(h[i] - h[j], h))
    # pairs strictly closer; differences equal as numbers but an ulp apart (means of k/300, e.g.
    # 0.3999999999999999 and 0.40000000000000036) are ties, as _snap makes them at 0
    tol = ZERO_RTOL * float(np.max(np.abs(h)))
    below = np.searchsorted(np.sort(d), d - tol, side="left")
    return np.minimum(n_bins * below // d.size, n_bins - 1).astype(np.int64)


def pair_agreement_rows(human: np.ndarray, metric: np.ndarray) -> np.ndarray:
    """Per row and system pair i < j, whether the metric orders the pair as the humans do.

    The rule of acc23 at epsilon = 0 (:func:`acc23`): the same order, or tied in both
    (Kocmi et al. 2021 count sign(Delta metric) == sign(Delta human)); a metric tie on a pair the
    humans order is a disagreement. Differences within floating error of 0 count as ties.

    Args:
        human, metric: shape (R, n_systems) (one row per bootstrap resample, or one row); NaN in
            either makes that system's pairs NaN.

    Returns:
        shape (R, n_pairs) float64: 1.0 agree, 0.0 disagree, NaN where a system is missing.
    """
    h = np.atleast_2d(np.asarray(human, dtype=np.float64))
    m = np.atleast_2d(np.asarray(metric, dtype=np.float64))
    i, j = np.triu_indices(h.shape[1], 1)
    with np.errstate(invalid="ignore"):
        dh, dm = _snap(h[:, i] - h[:, j], h), _snap(m[:, i] - m[:, j], m)
        out = (np.sign(dh) == np.sign(dm)).astype(np.float64)
    out[np.isnan(dh) | np.isnan(dm)] = np.nan
    return out


def binned_agreement(agree: np.ndarray, bins: np.ndarray, n_bins: int) -> np.ndarray:
    """Share of agreeing pairs per bin: (R, n_pairs) agreements and (n_pairs,) bins -> (R, n_bins);
    NaN pairs are left out of their bin's share, NaN for a bin with no pair."""
    a = np.atleast_2d(agree)
    out = np.full((a.shape[0], n_bins), np.nan)
    for b in range(n_bins):
        sel = a[:, bins == b]
        ok = ~np.isnan(sel)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[:, b] = np.where(ok, sel, 0.0).sum(axis=1) / ok.sum(axis=1)
    return out


def bin_label(b: int, n_bins: int) -> str:
    """``"closest"``, ``"middle"``, ``"farthest"`` for thirds, else ``"k/n"`` (1-based)."""
    return THIRDS[b] if n_bins == 3 else f"{b + 1}/{n_bins}"


#: why a closest third's percentile interval can leave out its estimate (the figures' and tables' captions)
CLOSE_PAIR_INTERVAL_NOTE = ("the thirds are cut once on all documents, and resampling the documents reorders the "
                            "closest pairs' human means, drawing the resamples' agreement toward chance (0.5): an "
                            "interval can lie beside its estimate")

CLOSE_PAIR_COLUMNS = ["metric", "human", "bin", "bin_label", "n_bins", "n_pairs", "delta_low", "delta_high",
                      "agreement", "ci_low", "ci_high", "n_systems", "resampling", "n_resamples",
                      "n_resamples_used", "seed"]


def close_pair_replicates(lay: Layout, x: np.ndarray, y: np.ndarray, n_bins: int,
                          counts: np.ndarray | None) -> dict:
    """The close-pair agreement of one (metric, human) pair of columns and its replicates.

    Args:
        lay: the frame's :class:`~sumeval.stats.layout.Layout` (with systems).
        x, y: shape (N,) metric and human per row; a row where either is NaN is left out of both
            systems' means (as :func:`pairwise_accuracy`).
        n_bins: the number of bins of :func:`close_pair_bins`.
        counts: shape (B, n_docs) document draw counts of the bootstrap, or None.

    Returns:
        ``{"agreement": (n_bins,), "boot": (B, n_bins) or None, "bins": (n_pairs,)`` (-1 for a pair
        with a system without a usable row), ``"delta": (n_pairs,)`` |Delta human|,
        ``"n_systems": int}``. The bins are fixed by the full data's human means; each resample
        recomputes both sides' system means over its drawn documents and the agreement on those
        same pairs.
    """
    keep = ~(np.isnan(x) | np.isnan(y))
    gx, gy = lay.grid(np.where(keep, x, np.nan)), lay.grid(np.where(keep, y, np.nan))
    mx, my = system_means(gx, gy, np.ones((1, lay.n_docs)))
    ok = np.isfinite(mx[0]) & np.isfinite(my[0])
    i, j = np.triu_indices(lay.n_sys, 1)
    bins = np.full(i.size, -1, dtype=np.int64)
    delta = np.abs(my[0][i] - my[0][j])
    both = ok[i] & ok[j]
    if ok.sum() >= 2:
        bins[both] = close_pair_bins(my[0][ok], n_bins)
    agree = pair_agreement_rows(my, mx)
    point = binned_agreement(np.where(both, agree, np.nan), bins, n_bins)[0]
    boot = None
    if counts is not None:
        bx, by = system_means(gx, gy, counts)
        boot = binned_agreement(np.where(both, pair_agreement_rows(by, bx), np.nan), bins, n_bins)
    return {"agreement": point, "boot": boot, "bins": bins, "delta": delta, "n_systems": int(ok.sum())}


def close_pair_agreement(frame: pd.DataFrame, metrics: str | Sequence[str], human: str, *, n_bins: int = 3,
                         doc_col: str = "doc_id", system_col: str = "system", n_resamples: int = 1000,
                         ci: float = 0.95, seed: int | np.random.Generator = 0) -> pd.DataFrame:
    """Pairwise agreement of metric columns with a human column on close and distant system pairs.

    Each system's metric and human means are taken over the rows where both are present; the
    system pairs are binned by the humans' difference |Delta human| into ``n_bins`` bins of equal
    count (:func:`close_pair_bins`: closest / middle / farthest third for 3), and in each bin the
    share of pairs the metric orders as the humans do is reported (:func:`pair_agreement_rows`:
    pairwise accuracy, Kocmi et al. 2021, i.e. acc23 at epsilon = 0; over all bins together it is
    :func:`pairwise_accuracy`'s ``accuracy``). Pairwise accuracy is high on distant pairs for
    almost any measure; what matters is the closest bin, the pairs whose order is in question
    (Deutsch, Dror & Roth 2022, NAACL, Sec. 5; the close-pair analysis of "The Progress
    Illusion", Findings of EMNLP 2025).

    Interval: the documents are resampled with replacement (:func:`~sumeval.stats.resample_indices`,
    inputs); each resample recomputes both sides' system means and the agreement on the same
    pairs (the bins stay those of the full data); percentile interval.

    Args:
        frame: one row per (document, system) pair.
        metrics: a column name or several; human: the human column (higher is better on both).
        n_bins: the number of bins (3: thirds).
        n_resamples: bootstrap resamples (0: no interval); ci: its coverage; seed: the draws (the same
            seed draws the same documents for every metric, and as :func:`~sumeval.stats.correlate`).

    Returns:
        :data:`CLOSE_PAIR_COLUMNS`, one row per (metric, bin): ``bin`` (0 = closest), ``bin_label``,
        ``n_pairs``, ``delta_low`` / ``delta_high`` (the bin's smallest and largest |Delta human|),
        ``agreement`` and its interval, ``n_systems`` used.
    """
    check_frame(frame)
    metric_names = names(metrics, "metric columns")
    check_columns(frame, metric_names, "metric")
    check_columns(frame, [human], "human")
    check_boot(n_resamples, ci)
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InputError(f"n_bins must be an integer >= 1, got {n_bins!r}")
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    check_system_count(lay, "system")
    counts = None
    if n_resamples:
        counts = resample_indices(lay.n_sys, lay.n_docs, "inputs", int(n_resamples), seed).input_counts()
    y = frame_column(frame, human)
    rows = []
    for mc in metric_names:
        r = close_pair_replicates(lay, frame_column(frame, mc), y, n_bins, counts)
        rows += close_pair_rows(r, n_bins, ci, metric=mc, human=human, resampling="inputs",
                                n_resamples=int(n_resamples), seed=seed_record(seed))
    return pd.DataFrame(rows, columns=CLOSE_PAIR_COLUMNS)


def close_pair_rows(r: dict, n_bins: int, ci: float, **fields) -> list[dict]:
    """The rows of :data:`CLOSE_PAIR_COLUMNS` for one result of :func:`close_pair_replicates`
    (``fields``: metric, human, resampling, n_resamples, seed)."""
    rows = []
    for b in range(n_bins):
        in_bin = r["bins"] == b
        boot = None if r["boot"] is None else r["boot"][:, b]
        lo, hi = percentile_interval(boot, ci)
        d = r["delta"][in_bin]
        rows.append({**fields, "bin": b, "bin_label": bin_label(b, n_bins), "n_bins": n_bins,
                     "n_pairs": int(in_bin.sum()), "delta_low": float(d.min()) if d.size else np.nan,
                     "delta_high": float(d.max()) if d.size else np.nan, "agreement": float(r["agreement"][b]),
                     "ci_low": lo, "ci_high": hi,
                     "n_resamples_used": 0 if boot is None else int(np.isfinite(boot).sum()),
                     "n_systems": r["n_systems"]})
    return rows
