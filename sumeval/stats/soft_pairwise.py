"""Do a measure and the humans rank *systems* alike? Soft and plain system pairwise accuracy.

**Soft pairwise accuracy** (SPA; Thompson, Mathur, Deutsch & Khayrallah 2024, "Improving
Statistical Significance in Human Evaluation of Automatic Metrics via Soft Pairwise Accuracy",
WMT24; WMT24's official system-level meta-metric; mt-metrics-eval ``pce.py``, equal to it where scores
do not tie, exact where they do: see below): for each pair of systems (i, j), i < j, a one-sided paired
permutation test on the
item-level scores gives p_ij, the p-value of "system i is better than system j"; computed once from
the human scores (p^H) and once from the measure's (p^M),

    SPA = 1 - mean_{i<j} |p^H_ij - p^M_ij|                                      (pce.py: 1 - PCE)

so a measure is rewarded for being as sure about a pair as the humans are, not only for ordering it
alike. The test (pce.py ``compute_pairwise_p_values``): with x_i the item scores of system i over
the L items every system has, T = sum_l (x_il - x_jl); each of P permutations draws a sign s_l = +-1
per item (the same signs for every pair and both sides, as pce.py draws them: ``rng.random((P, L),
float32)``, rounded, times 2 minus 1, ``rng = numpy.random.default_rng(seed)``, seed 4 by default)
and T* = sum_l s_l (x_il - x_jl); p_ij = #{T* >= T} / P. This module adds a tolerance of 1e-12
times the scale of the scores to ">=" and computes in float64, so a permuted sum equal to the observed
one counts as ">=", as exact arithmetic has it. pce.py computes in float32 and compares exactly: where
scores tie (T* = T exactly, frequent on averaged integer ratings: SummEval's means of 3 experts are
multiples of 1/3, which float32 cannot hold), rounding decides each tie; elsewhere the two agree (but
for sums within float32's rounding of each other, none in the test's untied scores)
(tests/judges/test_reliability_judges.py: equal p-values on untied scores; on tied ones equal to
integer arithmetic, differing from float32 only on pairs with ties and by at most their count). On
SummEval's 6 LLM judges the float32 p-values move SPA by up to 0.0037; a run of pce.py itself over
more measures (issue 30) found up to 0.0059, with one order flipped on fluency and mt-metrics-eval's
SPA test at p 0.408 where :mod:`sumeval.stats.spa_test` gives 0.337.

**Plain system pairwise accuracy** (Kocmi et al. 2021, "To Ship or Not to Ship", WMT): the share of
system pairs ordered alike, sign(Delta metric) = sign(Delta human), a pair tied in both counting as
agreement (acc23 of Deutsch et al. 2023 at threshold 0, :func:`sumeval.stats.acc23`). Its **chance
baseline**: the same accuracy after permuting the measure's scores among the systems within each
item (an uninformative measure with the same scores), averaged over permutations; ``chance_p`` =
(1 + #{permuted >= observed}) / (1 + permutations).

Both use the items (documents) where every system has a human and a measure score; the others are
dropped and counted (``n_items_dropped``). **Bootstrap intervals** resample those items with
replacement (:func:`sumeval.stats.resample_indices`, inputs) and recompute everything on the drawn
items (for SPA, both sides' p-values, with the same permutation signs).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_boot, check_columns, check_count, check_frame, frame_column, names, seed_record
from sumeval.stats.layout import frame_layout
from sumeval.stats.resampling import percentile_interval, resample_indices

__all__ = ["permutation_signs", "pairwise_pvalues", "spa_from_pvalues", "soft_pairwise_accuracy",
           "system_pairwise_accuracy", "complete_grids", "pvalues_upper", "pvalues_stack"]

SPA_COLUMNS = ["metric", "human", "level", "spa", "ci_low", "ci_high", "n_systems", "n_items", "n_items_dropped",
               "n_permutations", "perm_seed", "n_resamples", "seed"]
PA_COLUMNS = ["metric", "human", "level", "accuracy", "ci_low", "ci_high", "chance", "chance_p", "n_systems",
              "n_pairs", "n_human_ties", "n_items", "n_items_dropped", "n_chance", "n_resamples", "seed"]
_TOL = 1e-12


def permutation_signs(n_items: int, n_permutations: int = 1000, seed: int = 4) -> np.ndarray:
    """The permutation signs of pce.py: shape (n_permutations, n_items), +-1.0 (module docstring)."""
    check_count(n_items, "n_items", 1)
    check_count(n_permutations, "n_permutations", 1)
    rng = np.random.default_rng(seed)
    draws = rng.random(size=(n_permutations, n_items), dtype=np.float32)
    np.rint(draws, out=draws, casting="same_kind")
    return draws.astype(np.float64) * 2.0 - 1.0


def pvalues_upper(scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """p-values of the pairs i < j (``np.triu_indices(S, 1)`` order), shape (n_pairs,), of item scores
    ``scores`` (S, L) under permutation signs (P, L); computed as pce.py does (one product, then the
    differences of the permuted system sums)."""
    i, j = np.triu_indices(scores.shape[0], 1)
    sums = scores.sum(axis=1)
    partial = signs @ scores.T  # (P, S)
    null = partial[:, i] - partial[:, j]  # (P, n_pairs)
    test = sums[i] - sums[j]
    scale = np.abs(scores).sum(axis=1)
    return (null >= test - _TOL * (scale[i] + scale[j])).mean(axis=0)


def pairwise_pvalues(scores: np.ndarray, n_permutations: int = 1000, seed: int = 4, *,
                     signs: np.ndarray | None = None) -> np.ndarray:
    """p-values of "system i is better than system j", as pce.py ``compute_pairwise_p_values``.

    Args:
        scores: shape (n_systems, n_items), item-level scores (no NaN).
        n_permutations, seed: the permutation signs (:func:`permutation_signs`), or
        signs: shape (P, n_items), given.

    Returns:
        shape (n_systems, n_systems): p_ij in the upper triangle (i < j), NaN elsewhere.
    """
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 2 or not np.isfinite(x).all():
        raise InputError(f"scores must be a finite (n_systems >= 2, n_items) array, got shape {x.shape}"
                         + ("" if np.isfinite(x).all() else " with NaN or infinite values"))
    if signs is None:
        signs = permutation_signs(x.shape[1], n_permutations, seed)
    if signs.shape[1] != x.shape[1]:
        raise InputError(f"signs have {signs.shape[1]} items, scores {x.shape[1]}")
    out = np.full((x.shape[0], x.shape[0]), np.nan)
    out[np.triu_indices(x.shape[0], 1)] = pvalues_upper(x, signs)
    return out


def spa_from_pvalues(human_pvalues: np.ndarray, metric_pvalues: np.ndarray) -> float:
    """Soft pairwise accuracy 1 - mean |p^H - p^M| over the upper triangle (pce.py
    ``compute_one_minus_pce``); both arguments shape (n_systems, n_systems)."""
    h, m = np.asarray(human_pvalues, dtype=np.float64), np.asarray(metric_pvalues, dtype=np.float64)
    if h.ndim != 2 or h.shape != m.shape or h.shape[0] != h.shape[1] or h.shape[0] < 2:
        raise InputError(f"p-value matrices must be square, of one shape and at least 2 x 2; got {h.shape} "
                         f"and {m.shape}")
    iu = np.triu_indices(h.shape[0], 1)
    return float(1.0 - np.mean(np.abs(h[iu] - m[iu])))


def complete_grids(frame: pd.DataFrame, columns: Sequence[str], *, doc_col: str = "doc_id",
                   system_col: str = "system", with_mask: bool = False) -> tuple:
    """The (n_systems, n_items) grids of ``columns`` over the items where every system has every one
    of them, and how many items were dropped (and, ``with_mask``, the (n_documents,) bool mask of the
    items kept, documents in order of first appearance).

    Raises:
        InputError: fewer than 2 systems, or no complete item.
    """
    check_frame(frame)
    check_columns(frame, list(columns), "score")
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    if lay.n_sys < 2:
        raise InputError(f"system pairwise accuracy needs at least 2 systems; the frame has {lay.n_sys}")
    grids = [lay.grid(frame_column(frame, c)) for c in columns]  # (D, S) each
    complete = np.all([np.isfinite(g).all(axis=1) for g in grids], axis=0)
    if not complete.any():
        raise InputError(f"no document has a score of {', '.join(map(repr, columns))} for every one of the "
                         f"{lay.n_sys} systems; system pairwise accuracy compares systems on the same documents")
    out = [np.ascontiguousarray(g[complete].T) for g in grids]
    return (out, int(lay.n_docs - complete.sum()), complete) if with_mask else (out, int(lay.n_docs - complete.sum()))


def _boot_items(n_items: int, n_resamples: int, seed) -> np.ndarray | None:
    if n_resamples == 0:
        return None
    return resample_indices(1, n_items, "inputs", n_resamples, seed).inputs


def pvalues_stack(xb: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """:func:`pvalues_upper` of a stack of score grids at once: ``xb`` shape (S, b, L) (the b grids
    side by side, systems first), signs (P, L) -> shape (b, n_pairs); one product of all the grids'
    scores with the signs, laid out (S, b, P) so that the pairs are gathered along the first axis."""
    s, b = xb.shape[0], xb.shape[1]
    i, j = np.triu_indices(s, 1)
    sums = xb.sum(axis=2)  # (S, b)
    scale = np.abs(xb).sum(axis=2)
    partial = (xb.reshape(s * b, -1) @ signs.T).reshape(s, b, signs.shape[0])  # (S, b, P)
    null = partial[i] - partial[j]  # (n_pairs, b, P)
    test = sums[i] - sums[j] - _TOL * (scale[i] + scale[j])  # (n_pairs, b)
    return (np.count_nonzero(null >= test[:, :, None], axis=2) / signs.shape[0]).T


def _pvalues_resampled(scores: np.ndarray, draws: np.ndarray, signs: np.ndarray, block: int = 64) -> np.ndarray:
    """:func:`pvalues_upper` on each bootstrap resample of the items: shape (B, n_pairs).

    ``scores`` (S, L); ``draws`` (B, L) item indices; the resamples are done ``block`` at a time
    (:func:`pvalues_stack`)."""
    i, _ = np.triu_indices(scores.shape[0], 1)
    out = np.empty((draws.shape[0], i.size))
    for start in range(0, draws.shape[0], block):
        idx = draws[start:start + block]  # (b, L)
        out[start:start + idx.shape[0]] = pvalues_stack(scores[:, idx], signs)
    return out


def soft_pairwise_accuracy(frame: pd.DataFrame, metrics: str | Sequence[str], human: str, *,
                           n_permutations: int = 1000, perm_seed: int = 4, n_resamples: int = 0, ci: float = 0.95,
                           seed: int = 0, doc_col: str = "doc_id", system_col: str = "system",
                           return_boot: bool = False) -> pd.DataFrame:
    """SPA of each measure column against ``human`` (module docstring), with bootstrap intervals.

    Args:
        frame: one row per (document, system) summary.
        metrics: measure column(s) (higher is better; pass lower-is-better ones negated); human: a column.
        n_permutations, perm_seed: the permutation test (pce.py defaults: 1000, seed 4).
        n_resamples, ci, seed: bootstrap resamples of the items (0: no interval), coverage, seed. Measures
            with the same complete items share the human side's p-values and the resamples.
        return_boot: add a column ``boot``: each measure's SPA on every resample, shape (n_resamples,)
            (None without resamples), e.g. to average several measures' replicates.

    Returns:
        One row per measure: :data:`SPA_COLUMNS` (level ``"system"``), and ``boot`` when asked.
    """
    check_boot(n_resamples, ci)
    check_count(n_permutations, "n_permutations", 1)
    rows = []
    human_side: dict[bytes, tuple] = {}  # complete items -> (signs, human p-values, draws, resampled ones)
    for mc in names(metrics, "metric columns"):
        (h, m), dropped, kept = complete_grids(frame, [human, mc], doc_col=doc_col, system_col=system_col,
                                               with_mask=True)
        key = kept.tobytes()
        if key not in human_side:
            signs = permutation_signs(h.shape[1], n_permutations, perm_seed)
            draws = _boot_items(h.shape[1], n_resamples, seed)
            human_side[key] = (signs, pvalues_upper(h, signs), draws,
                               None if draws is None else _pvalues_resampled(h, draws, signs))
        signs, ph, draws, ph_boot = human_side[key]
        value = float(1.0 - np.abs(ph - pvalues_upper(m, signs)).mean())
        lo = hi = np.nan
        boot = None
        if draws is not None:
            boot = 1.0 - np.abs(ph_boot - _pvalues_resampled(m, draws, signs)).mean(axis=1)
            lo, hi = percentile_interval(boot, ci)
        rows.append({"metric": mc, "human": human, "level": "system", "spa": value, "ci_low": lo, "ci_high": hi,
                     "n_systems": h.shape[0], "n_items": h.shape[1], "n_items_dropped": dropped,
                     "n_permutations": int(n_permutations), "perm_seed": perm_seed, "n_resamples": int(n_resamples),
                     "seed": seed_record(seed), "boot": boot})
    return pd.DataFrame(rows, columns=SPA_COLUMNS + (["boot"] if return_boot else []))


def _agreement(h_means: np.ndarray, m_means: np.ndarray) -> np.ndarray:
    """acc23 at threshold 0 of system means, shape (..., S) each -> (...,), compared exactly (unlike
    :func:`~sumeval.stats.pairwise.pair_agreement_rows`, which ties means within rounding)."""
    i, j = np.triu_indices(h_means.shape[-1], 1)
    dh = h_means[..., i] - h_means[..., j]
    dm = m_means[..., i] - m_means[..., j]
    agree = np.where(dh == 0, dm == 0, np.sign(dh) == np.sign(dm))
    return agree.mean(axis=-1)


def system_pairwise_accuracy(frame: pd.DataFrame, metrics: str | Sequence[str], human: str, *,
                             n_chance: int = 1000, n_resamples: int = 0, ci: float = 0.95, seed: int = 0,
                             doc_col: str = "doc_id", system_col: str = "system",
                             return_boot: bool = False) -> pd.DataFrame:
    """Plain system pairwise accuracy with its chance baseline and bootstrap interval (module docstring).

    Args:
        frame, metrics, human: as :func:`soft_pairwise_accuracy`.
        n_chance: permutations of the measure's scores within items (0: no baseline).
        n_resamples, ci: bootstrap resamples of the items and coverage; seed: seeds both (a Generator from
            ``numpy.random.default_rng(seed)`` draws the bootstrap first, then the permutations).
        return_boot: add a column ``boot``: the accuracy on every resample, shape (n_resamples,) (None
            without resamples).

    Returns:
        One row per measure: :data:`PA_COLUMNS` (level ``"system"``), and ``boot`` when asked.
    """
    check_boot(n_resamples, ci)
    check_count(n_chance, "n_chance", 0)
    rows = []
    for mc in names(metrics, "metric columns"):
        (h, m), dropped = complete_grids(frame, [human, mc], doc_col=doc_col, system_col=system_col)
        hm, mm = h.mean(axis=1), m.mean(axis=1)
        value = float(_agreement(hm, mm))
        rng = np.random.default_rng(seed)
        lo = hi = np.nan
        boot = None
        if n_resamples:
            draws = rng.integers(0, h.shape[1], size=(n_resamples, h.shape[1]))
            boot = _agreement(h[:, draws].mean(axis=2).T, m[:, draws].mean(axis=2).T)
            lo, hi = percentile_interval(boot, ci)
        chance = chance_p = np.nan
        if n_chance:
            permuted = rng.permuted(np.broadcast_to(m.T, (n_chance, *m.T.shape)), axis=2)  # (P, L, S)
            null = _agreement(np.broadcast_to(hm, (n_chance, hm.size)), permuted.mean(axis=1))
            chance = float(null.mean())
            chance_p = float((1 + np.sum(null >= value - _TOL)) / (1 + n_chance))
        i, j = np.triu_indices(hm.size, 1)
        rows.append({"metric": mc, "human": human, "level": "system", "accuracy": value, "ci_low": lo,
                     "ci_high": hi, "chance": chance, "chance_p": chance_p, "n_systems": hm.size,
                     "n_pairs": int(i.size), "n_human_ties": int(np.sum(hm[i] == hm[j])), "n_items": h.shape[1],
                     "n_items_dropped": dropped, "n_chance": int(n_chance), "n_resamples": int(n_resamples),
                     "seed": seed_record(seed), "boot": boot})
    return pd.DataFrame(rows, columns=PA_COLUMNS + (["boot"] if return_boot else []))
