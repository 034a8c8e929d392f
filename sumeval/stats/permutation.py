"""Permutation test of the difference between two measures' correlations with a human score.

Deutsch, Dror & Roth (2021, TACL: "PERM-SYSTEMS", "PERM-INPUTS", "PERM-BOTH"), as their
package nlpstats implements it: the three score grids X (measure A), Y (measure B) and Z (human)
are standardised ((v - mean) / std over their present cells, std with ddof 0), so that swapping
scores between A and B makes sense; the observed statistic is d = corr(X, Z) - corr(Y, Z); each
permutation swaps A's and B's scores for a random half of the **systems** (a whole row of the
grid), of the **inputs** (a whole column), or **both** (systems swapped, then inputs: a cell is
swapped when exactly one of its system and its input is), and recomputes d*. The p-value is the
share of permutations at least as extreme as d:

- ``"two-sided"``: |d*| >= |d|;  ``"greater"`` (A correlates better): d* >= d;
  ``"less"``: d* <= d;

``p = count / n_used``, without the +1 of Phipson & Smyth (2010), as nlpstats and mt-metrics-eval
compute it (so p = 0 reads "p < 1 / n_used"); ``p_floor = (count + 1) / (n_used + 1)`` is the
same count with the +1 (Phipson & Smyth 2010, "Permutation p-values should never be zero", Stat.
Appl. Genet. Mol. Biol. 9: the observed arrangement counts as one of the permutations), which
is what :func:`~sumeval.stats.compare_measures` and ``sumeval meta-eval`` report.
When an observed correlation is undefined (a constant measure or human score on the rows used,
or fewer than 3 systems at the system level), there is nothing to test: p is NaN and no
permutation is run. Statistics within 1e-12 of d count as equal to it (nlpstats compares
exactly, ``>=``), so that two permutations giving the same value in exact arithmetic are counted
alike whatever their rounding; p equals nlpstats' except where a statistic lies within 1e-12 of
d without being equal to it. A permutation whose statistic is undefined (NaN) counts as not
extreme.

Early stopping (optional) follows mt-metrics-eval's ``PermutationSigDiff``: after every block of
``early_stop`` permutations, stop when the running p is below 0.02 or above 0.5 (the decision at
the usual levels can no longer change much); ``n_resamples_used`` records where it stopped.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats import checks
from sumeval.stats.checks import (
    canonical_level,
    check_alternative,
    check_columns,
    check_count,
    check_frame,
    check_resample,
    frame_column,
    seed_record,
)
from sumeval.stats.coefficients import check_method
from sumeval.stats.grouped import GroupSwaps, SwapCache, SystemSwaps
from sumeval.stats.layout import check_system_count, frame_layout
from sumeval.stats.levels import estimate_pair
from sumeval.stats.resampling import small_blas
from sumeval.stats.scaling import unit_scale
from sumeval.stats.undefined import MIN_SYSTEMS

__all__ = ["permutation_masks", "permutation_test"]

# |d* - d| below this counts as equality (rounding of equal statistics)
_TIE_TOLERANCE = 1e-12
# mt-metrics-eval's early-stopping bounds on the running p-value
EARLY_STOP_BOUNDS = (0.02, 0.5)


def permutation_masks(n_systems: int, n_inputs: int, resample: str = "both",
                      n_resamples: int = 1000,
                      seed: int | np.random.Generator = 0) -> np.ndarray:
    """Draw the swap masks of ``n_resamples`` permutations.

    Draws from ``numpy.random.default_rng(seed)``: system coins ``rng.random((B, n_systems))
    < 0.5`` first when systems are permuted, then input coins ``rng.random((B, n_inputs)) < 0.5``
    when inputs are; with both, a cell is swapped when exactly one of its coins is heads (the
    result of swapping systems, then inputs).

    Args:
        n_systems, n_inputs: size of the grid (codes in order of first appearance in the frame).
        resample: ``"systems"``, ``"inputs"`` or ``"both"``.
        n_resamples: B.
        seed: ``int`` or ``numpy.random.Generator``.

    Returns:
        shape (B, n_inputs, n_systems) bool: True where the two measures' scores are swapped.
    """
    check_resample(resample)
    B = check_count(n_resamples, "n_resamples", 1)
    rng = np.random.default_rng(seed)
    cells = np.zeros((B, n_inputs, n_systems), dtype=bool)
    if resample in ("systems", "both"):
        cells ^= (rng.random((B, n_systems)) < 0.5)[:, None, :]
    if resample in ("inputs", "both"):
        cells ^= (rng.random((B, n_inputs)) < 0.5)[:, :, None]
    return cells


def _standardise(grid: np.ndarray) -> np.ndarray:
    """(grid - mean) / std over the present cells (ddof 0), summed in nlpstats' order (the
    (systems, inputs) matrix, row by row) so that the values agree to the last bit; scaled by a
    power of two first (exact: the same z-scores, without overflow or underflow)."""
    g = unit_scale(np.ascontiguousarray(grid.T))
    with np.errstate(invalid="ignore", divide="ignore"):  # a constant column: NaN
        return ((g - np.nanmean(g)) / np.nanstd(g)).T


def _kernel(level: str, gx: np.ndarray, gy: np.ndarray, gz: np.ndarray, method: str,
            cache: SwapCache | None = None, control=None, lay=None, rule=None):
    """masks (b, n_inputs, n_systems) -> (corr(X', Z), corr(Y', Z)), each (b,), at ``level``;
    ``cache`` shares the pieces of one measure between pairs (:class:`~sumeval.stats.grouped.SwapCache`),
    and the masks of a block, given as ``span`` (all the permutations, the block's start and stop).
    ``rule``: the input level's (rule, selection of X's documents, selection of Y's documents)
    (:mod:`sumeval.stats.input_rules`; None: sumeval's mean of the defined documents)."""
    if level == "partial":
        return _partial_kernel(gx, gy, gz, method, control, lay)
    if level == "system":
        xt, yt, zt = gx.T, gy.T, gz.T
        swaps = SystemSwaps(xt, yt, zt, method)
        return lambda masks, span=None: swaps(np.swapaxes(masks, 1, 2))
    if level == "input":
        swaps = GroupSwaps(gx, gy, gz, method, cache)

        if rule is not None:
            r, sel_x, sel_y = rule

            def input_rule_level(masks, span=None):
                cx, cy = swaps(masks, span)
                return _mean_defined(r.apply(cx, sel_x)), _mean_defined(r.apply(cy, sel_y))
            return input_rule_level

        def input_level(masks, span=None):
            return tuple(_mean_defined(c) for c in swaps(masks, span))
        return input_level
    keep = ~np.isnan(gz).ravel()
    swaps = GroupSwaps(gx.ravel()[keep][None], gy.ravel()[keep][None], gz.ravel()[keep][None],
                       method, cache)

    def global_level(masks, span=None):
        cells = masks.reshape(masks.shape[0], -1)[:, keep][:, None, :]
        return tuple(c[:, 0] for c in swaps(cells, span and (*span, *keep.shape, keep.tobytes())))
    return global_level


def _partial_kernel(gx: np.ndarray, gy: np.ndarray, gz: np.ndarray, method: str, control, lay):
    """The partial level: the scores are swapped per cell, then the control is regressed out of
    X', Y' and Z in each permutation (:mod:`sumeval.stats.partial`); NaN cells are absent."""
    from sumeval.stats.partial import grid_control, partial_rows

    keep = ~np.isnan(gz).ravel()
    cv = grid_control(control, lay, keep)
    xs, ys, zs = (g.ravel()[keep] for g in (gx, gy, gz))

    def partial_level(masks, span=None):
        cells = masks.reshape(masks.shape[0], -1)[:, keep]
        w = np.ones(cells.shape)
        return tuple(partial_rows(np.where(cells, b, a), zs, cv, w, [method])[method]
                     for a, b in ((xs, ys), (ys, xs)))
    return partial_level


def _mean_defined(c: np.ndarray) -> np.ndarray:
    """Mean over groups of the defined values; c (b, G) -> (b,), NaN where none is defined."""
    ok = np.isfinite(c)
    k = ok.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(ok, c, 0.0).sum(axis=1) / k
    out[k == 0] = np.nan
    return out


def _extreme(d: np.ndarray, d0: float, alternative: str) -> np.ndarray:
    if alternative == "two-sided":
        return np.abs(d) >= abs(d0) - _TIE_TOLERANCE
    if alternative == "greater":
        return d >= d0 - _TIE_TOLERANCE
    return d <= d0 + _TIE_TOLERANCE


def _check_masks(masks: object, n_inputs: int, n_systems: int) -> np.ndarray:
    m = np.asarray(masks)
    if m.ndim != 3 or m.shape[1:] != (n_inputs, n_systems) or m.shape[0] < 1 or \
            m.dtype != bool:
        raise InputError(
            f"permutation_test: masks must be a bool array of shape (n_resamples, {n_inputs} "
            f"inputs, {n_systems} systems) (see stats.permutation_masks), got {m.dtype} "
            f"{m.shape}"
        )
    return m


def permutation_test(frame: pd.DataFrame, metric_a: str, metric_b: str, human: str, *,
                     level: str, method: str, resample: str = "both", n_resamples: int = 1000,
                     seed: int | np.random.Generator = 0, masks: np.ndarray | None = None,
                     alternative: str = "two-sided", early_stop: int | None = None,
                     doc_col: str = "doc_id", system_col: str = "system",
                     return_samples: bool = False, partial_control: str = "system",
                     cache: SwapCache | None = None, input_rule=None) -> dict[str, object]:
    """Permutation test of corr(A, human) - corr(B, human) (module docstring: the procedure).

    Args:
        frame: one row per (document, system) pair with ``doc_col``, ``system_col``, the two
            metric columns and the human column; the rows where all three are present are used.
        metric_a, metric_b, human: column names.
        level: ``input``, ``system`` or ``global``.
        method: one of :data:`~sumeval.stats.METHODS`.
        resample: what is permuted: ``"systems"``, ``"inputs"`` or ``"both"`` (default, as
            recommended by Deutsch et al. 2021).
        n_resamples: permutations to draw (ignored when ``masks`` is given).
        seed: ``int`` or ``numpy.random.Generator`` (:func:`permutation_masks`).
        masks: permutations drawn beforehand, shape (B, n_inputs, n_systems) bool (True =
            swapped), inputs and systems in order of first appearance in the frame.
        alternative: ``"two-sided"``, ``"greater"`` (A better) or ``"less"``.
        early_stop: None (all permutations) or a block size for mt-metrics-eval's early stop.
        return_samples: also return the permuted differences d* (``samples``, shape (used,)).
        partial_control: the ``partial`` level's control (:func:`~sumeval.stats.correlate`):
            the scores are swapped per cell as at the global level, and the control is regressed
            out of the swapped scores in each permutation.
        cache: a :class:`~sumeval.stats.grouped.SwapCache` shared by the tests of one family (one
            human, one level, one coefficient), so that what depends on one measure is computed
            once (:func:`~sumeval.stats.compare_measures`); the results do not depend on it.
        input_rule: the ``input`` level's averaging rule (:func:`~sumeval.stats.correlate`): each
            permutation's per-document correlations are averaged under it (REALSumm's selection
            of each measure's documents made once, on the observed scores).

    Returns:
        dict with ``metric_a, metric_b, human, level, method, corr_a, corr_b, diff`` (corr_a -
        corr_b, on the unstandardised scores, as :func:`~sumeval.stats.correlate` gives them),
        ``p_value`` (count / n_resamples_used, as nlpstats), ``p_floor`` ((count + 1) /
        (n_resamples_used + 1)), ``count`` (permutations at least as extreme), ``alternative, test``
        (``"permutation"``), ``resampling``, ``n`` (as
        correlate's ``n`` for A on the common rows), ``n_resamples`` (asked),
        ``n_resamples_used``, ``seed`` (the int, else None) and ``early_stop``.
    """
    canon = canonical_level(level)
    check_method(method)
    check_resample(resample)
    check_alternative(alternative)
    check_frame(frame)
    check_columns(frame, [metric_a, metric_b], "metric")
    check_columns(frame, [human], "human")
    if early_stop is not None:
        check_count(early_stop, "early_stop", 1, " (a block size) or None")
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    if canon == "system":
        check_system_count(lay, level)
    given = masks is not None
    if not given:
        B = check_count(n_resamples, "n_resamples", 1)
        masks = permutation_masks(lay.n_sys, lay.n_docs, resample, B, seed)
    masks = _check_masks(masks, lay.n_docs, lay.n_sys)
    B = masks.shape[0]
    xa, xb, y = (frame_column(frame, c) for c in (metric_a, metric_b, human))
    common = ~(np.isnan(xa) | np.isnan(xb) | np.isnan(y))
    control = None
    if canon == "partial":
        from sumeval.stats.partial import frame_control

        control = frame_control(frame, partial_control, system_col)
        common &= control.present()
    if common.sum() < 2:
        raise InputError(f"permutation_test: {int(common.sum())} row(s) have {metric_a!r}, "
                         f"{metric_b!r} and {human!r} all present; at least 2 are needed")
    ea = estimate_pair(lay, np.where(common, xa, np.nan), y, canon, [method], None, control, input_rule)[method]
    eb = estimate_pair(lay, np.where(common, xb, np.nan), y, canon, [method], None, control, input_rule)[method]
    rule = None
    if canon == "input" and input_rule is not None and not input_rule.default:
        raw = [lay.grid(np.where(common, v, np.nan)) for v in (xa, xb, y)]
        rule = (input_rule, input_rule.selection(raw[0], raw[2], method),
                input_rule.selection(raw[1], raw[2], method))
    grids = [_standardise(lay.grid(np.where(common, v, np.nan))) for v in (xa, xb, y)]

    # a document or system without any common row gives 0/0 in the kernels: NaN, not a warning
    with small_blas(), np.errstate(invalid="ignore", divide="ignore"):
        kernel = _kernel(canon, *grids, method, cache, control, lay, rule)
        ca, cb = kernel(np.zeros((1, lay.n_docs, lay.n_sys), dtype=bool))
        d0 = float(ca[0] - cb[0])
        few = canon == "system" and ea.n < MIN_SYSTEMS  # 2 systems always correlate +-1
        if few or not all(map(math.isfinite, (d0, ea.value, eb.value))):
            B = 0  # a correlation is undefined (e.g. a constant measure): nothing to test
        block = early_stop or max(B, 1)
        step = max(1, checks.BLOCK_ELEMENTS // max(lay.n_docs * lay.n_sys, 1))
        samples, count, used = [], 0, 0
        for s in range(0, B, block):
            for c in range(s, min(s + block, B), step):
                stop = min(c + step, s + block, B)
                pa, pb = kernel(masks[c:stop], (masks, c, stop))
                d = pa - pb
                count += int(_extreme(d, d0, alternative).sum())
                used += d.size
                if return_samples:
                    samples.append(d)
            if early_stop is not None and not (
                    EARLY_STOP_BOUNDS[0] <= count / used <= EARLY_STOP_BOUNDS[1]):
                break
    corr_a, corr_b = (math.nan, math.nan) if few else (ea.value, eb.value)
    out = {"metric_a": metric_a, "metric_b": metric_b, "human": human, "level": level,
           "method": method, "corr_a": corr_a, "corr_b": corr_b,
           "diff": corr_a - corr_b, "p_value": count / used if used else math.nan,
           "p_floor": (count + 1) / (used + 1) if used else math.nan, "count": count,
           "alternative": alternative, "test": "permutation", "resampling": resample,
           "n": ea.n, "n_resamples": masks.shape[0], "n_resamples_used": used,
           "seed": None if given else seed_record(seed),
           "early_stop": early_stop}
    if return_samples:
        out["samples"] = np.concatenate(samples) if samples else np.empty(0)
    return out
