"""Is one measure's soft pairwise accuracy significantly higher than another's? mt-metrics-eval's test.

mt-metrics-eval ranks metrics by SPA with significance clusters (``data.CompareMetricsWithPairwiseConfidenceError``
-> ``ComputeSigMatrix`` -> ``stats.PermutationSigDiff`` with ``corr_fcn = stats.PairwiseConfidenceError``,
``average_by='none'``, ``perm_test='scores'``; then ``AssignRanks``). Its test of measures A and B against a human
column H, which this module reproduces, vectorised (SPA itself counted exactly where scores tie, where mt-metrics-eval's
float32 arithmetic lets rounding decide: :mod:`sumeval.stats.soft_pairwise`; on tied data the p-values can differ):

1. the items where every system has H, A and B: grids of shape (S systems, L items);
2. A's and B's scores standardised over all S x L cells, z = (x - mean) / std with ddof 0
   (``scipy.stats.zscore`` of the flattened scores; a constant measure is only centred);
3. the observed difference d = SPA(z_A) - SPA(z_B), SPA as :func:`sumeval.stats.soft_pairwise.soft_pairwise_accuracy`
   computes it (Thompson et al. 2024: 1 - mean |p^H - p^M| over the system pairs, the p-values from pce.py's
   paired permutation test with its signs, ``n_permutations`` and ``perm_seed``; H's p-values once);
4. each of K resamples swaps A's and B's scores in each cell (system, item) independently with probability 1/2
   (``average_by='none'``: all cells are one group; mt-metrics-eval draws ``np.random.binomial(1, 0.5, S * L)``,
   cells in system-major order); hybrid A* holds z_B where swapped and z_A elsewhere, hybrid B* the rest, and
   d* = SPA(A*) - SPA(B*);
5. ``"greater"`` (A better): p = #{d* >= d} / K, mt-metrics-eval's p-value for the higher-ranked metric
   (``ComputeSigMatrix`` passes the better one as ``corr2``); ``"less"``: #{d* <= d} / K; ``"two-sided"``:
   #{|d*| >= |d|} / K. Statistics within 1e-12 of d count as equal to it (as :mod:`sumeval.stats.permutation`).

``p_floor`` = (count + 1) / (K + 1) (Phipson & Smyth 2010), as the other tests of ``sumeval meta-eval`` report.
Early stopping (optional) is mt-metrics-eval's rule (:data:`sumeval.stats.permutation.EARLY_STOP_BOUNDS`: after
every block of ``early_stop`` resamples, stop when the running p is below 0.02 or above 0.5). The swaps are drawn
from ``numpy.random.default_rng(seed)`` (``random((K, S, L)) < 0.5``; mt-metrics-eval uses numpy's global state),
the same for every pair of measures with the same items (common random numbers).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_alternative, check_count, check_frame, seed_record
from sumeval.stats.permutation import EARLY_STOP_BOUNDS
from sumeval.stats.scaling import unit_scale
from sumeval.stats.soft_pairwise import complete_grids, permutation_signs, pvalues_stack, pvalues_upper

__all__ = ["spa_swaps", "spa_permutation_test"]

_TOL = 1e-12


def spa_swaps(n_systems: int, n_items: int, n_resamples: int = 1000, seed: int = 0) -> np.ndarray:
    """The swaps :func:`spa_permutation_test` draws from ``seed``: shape (n_resamples, n_systems, n_items) bool,
    True where the cell's scores are swapped (the test draws them a chunk at a time from the same stream)."""
    check_count(n_resamples, "n_resamples", 1)
    return np.random.default_rng(seed).random((n_resamples, n_systems, n_items)) < 0.5


def _zscore(x: np.ndarray) -> np.ndarray:
    """(x - mean) / std over all cells, ddof 0; a constant grid is only centred. Scaled by a power of
    two first (:func:`~sumeval.stats.scaling.unit_scale`; exact: the same z-scores bit for bit, and no
    overflow of the squares above about 1e154 nor underflow below about 1e-154)."""
    x = unit_scale(x)
    sd = x.std()
    return (x - x.mean()) / (sd if sd > 0 else 1.0)


def _spa(ph: np.ndarray, pm: np.ndarray) -> np.ndarray:
    """SPA from the human side's p-values (n_pairs,) and the measure side's (..., n_pairs)."""
    return 1.0 - np.abs(ph - pm).mean(axis=-1)


def _extreme(d: np.ndarray, d0: float, alternative: str) -> np.ndarray:
    if alternative == "greater":
        return d >= d0 - _TOL
    if alternative == "less":
        return d <= d0 + _TOL
    return np.abs(d) >= abs(d0) - _TOL


def spa_permutation_test(frame: pd.DataFrame, metric_a: str, metric_b: str, human: str, *,
                         n_resamples: int = 1000, seed: int = 0, alternative: str = "greater",
                         n_permutations: int = 1000, perm_seed: int = 4, early_stop: int | None = None,
                         swaps: np.ndarray | None = None, chunk: int = 32, doc_col: str = "doc_id",
                         system_col: str = "system") -> dict[str, object]:
    """mt-metrics-eval's permutation test of SPA(A) - SPA(B) (module docstring: the procedure).

    Args:
        frame: one row per (document, system) summary; the items where every system has ``human``,
            ``metric_a`` and ``metric_b`` are used.
        metric_a, metric_b: measure columns (higher is better); human: the human column.
        n_resamples, seed: the swaps (:func:`spa_swaps`), or
        swaps: given, shape (K, n_systems, n_items) bool (systems and items in order of first appearance,
            the dropped items left out).
        alternative: ``"greater"`` (A better; the default, as mt-metrics-eval tests the higher-ranked metric),
            ``"less"`` or ``"two-sided"``.
        n_permutations, perm_seed: SPA's own permutation test (pce.py defaults 1000, 4).
        early_stop: None (every resample) or mt-metrics-eval's block size.
        chunk: resamples computed at once (memory: about 2 x n_permutations x chunk x n_pairs floats).

    Returns:
        dict with ``metric_a, metric_b, human, corr_a, corr_b`` (each measure's SPA on these items, its raw
        scores), ``diff`` (corr_a - corr_b), ``d_standardised`` (d, on the z-scores; equal to ``diff`` up to
        rounding), ``p_value`` (count / n_resamples_used), ``p_floor``, ``count``, ``alternative``, ``test``
        (``"spa-permutation"``), ``resampling`` (``"cells"``), ``n`` (items), ``n_items_dropped``,
        ``n_resamples``, ``n_resamples_used``, ``seed``, ``early_stop``, ``n_permutations``, ``perm_seed``.
    """
    check_frame(frame)
    check_alternative(alternative)
    check_count(n_permutations, "n_permutations", 1)
    check_count(chunk, "chunk", 1)
    if early_stop is not None:
        check_count(early_stop, "early_stop", 1, " (a block size) or None")
    (h, xa, xb), dropped = complete_grids(frame, [human, metric_a, metric_b], doc_col=doc_col,
                                          system_col=system_col)
    n_sys, n_items = h.shape
    if swaps is not None:
        swaps = np.asarray(swaps, dtype=bool)
        if swaps.ndim != 3 or swaps.shape[1:] != (n_sys, n_items):
            raise InputError(f"swaps must have shape (K, {n_sys}, {n_items}) (resamples, systems, items), "
                             f"got {swaps.shape}")
        K = swaps.shape[0]
    else:
        K = check_count(n_resamples, "n_resamples", 1)
    signs = permutation_signs(n_items, n_permutations, perm_seed)
    ph = pvalues_upper(h, signs)
    corr_a, corr_b = (float(_spa(ph, pvalues_upper(x, signs))) for x in (xa, xb))
    za, zb = _zscore(xa), _zscore(xb)
    d0 = float(_spa(ph, pvalues_upper(za, signs)) - _spa(ph, pvalues_upper(zb, signs)))
    rng = None if swaps is not None else np.random.default_rng(seed)
    block = early_stop or K
    count = used = 0
    for start in range(0, K, block):
        for c in range(start, min(start + block, K), chunk):
            stop = min(c + chunk, start + block, K)
            w = swaps[c:stop] if swaps is not None else rng.random((stop - c, n_sys, n_items)) < 0.5
            w = w.transpose(1, 0, 2)  # (S, b, L)
            hybrid_a = np.where(w, zb[:, None, :], za[:, None, :])
            hybrid_b = np.where(w, za[:, None, :], zb[:, None, :])
            d = _spa(ph, pvalues_stack(hybrid_a, signs)) - _spa(ph, pvalues_stack(hybrid_b, signs))
            count += int(_extreme(d, d0, alternative).sum())
            used += d.size
        if early_stop is not None and not EARLY_STOP_BOUNDS[0] <= count / used <= EARLY_STOP_BOUNDS[1]:
            break
    return {"metric_a": metric_a, "metric_b": metric_b, "human": human, "corr_a": corr_a, "corr_b": corr_b,
            "diff": corr_a - corr_b, "d_standardised": d0, "p_value": count / used if used else math.nan,
            "p_floor": (count + 1) / (used + 1) if used else math.nan, "count": count,
            "alternative": alternative, "test": "spa-permutation", "resampling": "cells", "n": n_items,
            "n_items_dropped": dropped, "n_resamples": K, "n_resamples_used": used,
            "seed": None if swaps is not None else seed_record(seed), "early_stop": early_stop,
            "n_permutations": int(n_permutations), "perm_seed": perm_seed}
