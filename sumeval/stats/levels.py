"""One (metric, human) pair of columns at one level: the point estimate and its bootstrap
replicates under inputs, systems or both resampling (definitions: :mod:`sumeval.stats`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from sumeval.stats import checks
from sumeval.stats.coefficients import corr_rows, pair_value
from sumeval.stats.grouped import weighted_group_corr
from sumeval.stats.input_rules import InputRule
from sumeval.stats.layout import Layout
from sumeval.stats.partial import Control, partial_estimate
from sumeval.stats.pooled import pooled_boot
from sumeval.stats.resampling import Resamples
from sumeval.stats.scaling import scale_exponent
from sumeval.stats.ties import snap_ties

__all__ = ["Draws", "Estimate", "estimate_pair", "input_boot", "system_means", "doc_mean_boot"]

# "both" at the global level: the point-level concordance matrix (n^2 float64) is used when it
# has at most this many elements, else scipy on each expanded resample.
_CELL_MATRIX_ELEMENTS = 16_000_000


@dataclass(frozen=True)
class Draws:
    """Draw counts of one set of resamples: inputs (B, n_docs) and systems (B, n_sys), None for
    an axis that is not resampled."""

    inputs: np.ndarray | None
    systems: np.ndarray | None

    @classmethod
    def of(cls, rs: Resamples | None) -> "Draws | None":
        return None if rs is None else cls(rs.input_counts(), rs.system_counts())

    @property
    def n(self) -> int:
        drawn = self.inputs if self.inputs is not None else self.systems
        return int(drawn.shape[0])


@dataclass
class Estimate:
    """One correlation at one level: its value, the rows (inputs, systems or pairs) used and skipped, and its
    bootstrap replicates (B,) or None."""

    value: float
    n: int
    n_skipped: int
    boot: np.ndarray | None  # (B,) or None


class _PointCounts:
    """Resample b repeats point i (input doc[i], system sys[i]) inputs[b, doc[i]] *
    systems[b, sys[i]] times (a factor 1 for an axis not resampled); ``counts[s:e]`` builds rows s..e only, so
    memory stays bounded."""

    def __init__(self, draws: Draws, doc: np.ndarray, sys: np.ndarray):
        self.draws, self.doc, self.sys = draws, doc, sys
        self.shape = (draws.n, doc.size)

    def __getitem__(self, rows: slice) -> np.ndarray:
        if self.draws.systems is None:
            return self.draws.inputs[rows][:, self.doc]
        if self.draws.inputs is None:
            return self.draws.systems[rows][:, self.sys]
        return self.draws.inputs[rows][:, self.doc] * self.draws.systems[rows][:, self.sys]


def estimate_pair(lay: Layout, x: np.ndarray, y: np.ndarray, level: str, methods: Sequence[str],
                  draws: Draws | np.ndarray | None, control: Control | None = None,
                  rule: InputRule | None = None) -> dict[str, Estimate]:
    """Point estimate, usage counts and bootstrap replicates for one (x, y) pair of columns.

    Args:
        lay: the frame's layout.
        x, y: shape (N,), metric and human per row; NaN excludes the row.
        level: a canonical level (``input``, ``system``, ``global``, ``partial``) or its alias.
        methods: names from :data:`~sumeval.stats.checks.METHODS`.
        draws: the resamples' draw counts; an array is shorthand for document counts (B, n_docs)
            (inputs resampling); None for no bootstrap.
        control: what the ``partial`` level regresses out (:mod:`sumeval.stats.partial`).
        rule: how the ``input`` level averages its documents (:mod:`sumeval.stats.input_rules`;
            None: sumeval's, the defined ones).
    """
    if isinstance(draws, np.ndarray):
        draws = Draws(draws, None)
    level = checks.canonical_level(level)
    if level == "partial":
        if control is None:
            raise ValueError("the partial level needs its control (sumeval.stats.partial.frame_control)")
        keep = ~(np.isnan(x) | np.isnan(y)) & control.present()
        counts = None if draws is None else _PointCounts(draws, lay.doc[keep], lay.sys[keep])
        values, boots, n = partial_estimate(x, y, control, methods, counts)
        return {m: Estimate(values[m], n, int(x.size - n), boots.get(m)) for m in methods}
    keep = ~(np.isnan(x) | np.isnan(y))
    if level == "global":
        xv, yv = x[keep], y[keep]
        n = int(keep.sum())
        boots = _global_boot(lay, keep, xv, yv, methods, draws) if draws is not None else {}
        return {m: Estimate(pair_value(xv, yv, m), n, int(x.size - n), boots.get(m))
                for m in methods}
    gx = lay.grid(np.where(keep, x, np.nan))
    gy = lay.grid(np.where(keep, y, np.nan))
    if level == "input":
        per_doc = corr_rows(gx, gy, methods)
        boots = (input_boot(gx, gy, methods, draws.systems)
                 if draws is not None and draws.systems is not None else {})
        out = {}
        for m in methods:
            if rule is not None and not rule.default:
                sel = rule.selection(gx, gy, m)
                value, used = rule.mean(per_doc[m], sel)
                boot = None if draws is None else doc_mean_boot(rule.apply(boots.get(m, per_doc[m]), sel),
                                                                draws.inputs)
                out[m] = Estimate(value, used, int(lay.n_docs - used), boot)
                continue
            ok = np.isfinite(per_doc[m])
            value = float(per_doc[m][ok].mean()) if ok.any() else math.nan
            boot = None
            if draws is not None:
                boot = doc_mean_boot(boots.get(m, per_doc[m]), draws.inputs)
            out[m] = Estimate(value, int(ok.sum()), int(lay.n_docs - ok.sum()), boot)
        return out
    # system level
    mx, my = system_means(gx, gy, np.ones((1, lay.n_docs)))
    used = int(np.isfinite(mx[0]).sum())
    boots = {}
    if draws is not None:
        if draws.inputs is not None:
            bx, by = system_means(gx, gy, draws.inputs)
        else:
            bx, by = np.repeat(mx, draws.n, axis=0), np.repeat(my, draws.n, axis=0)
        boots = corr_rows(bx, by, methods, weights=draws.systems)
    keep_sys = np.isfinite(mx[0])
    return {m: Estimate(pair_value(mx[0][keep_sys], my[0][keep_sys], m), used,
                        int(lay.n_sys - used), boots.get(m)) for m in methods}


def _global_boot(lay: Layout, keep: np.ndarray, xv: np.ndarray, yv: np.ndarray,
                 methods: Sequence[str], draws: Draws) -> dict[str, np.ndarray]:
    """Pooled replicates: points grouped by document, by system, or each its own group."""
    if draws.systems is None:
        return pooled_boot(xv, yv, lay.doc[keep], draws.inputs, methods)
    if draws.inputs is None:
        return pooled_boot(xv, yv, lay.sys[keep], draws.systems, methods)
    counts = _PointCounts(draws, lay.doc[keep], lay.sys[keep])
    path = "matrix" if xv.size ** 2 <= _CELL_MATRIX_ELEMENTS else "loop"
    return pooled_boot(xv, yv, np.arange(xv.size), counts, methods, kendall_path=path)


def input_boot(gx: np.ndarray, gy: np.ndarray, methods: Sequence[str],
               systems: np.ndarray) -> dict[str, np.ndarray]:
    """Per-document correlations across the drawn systems in each resample.

    Args:
        gx, gy: shape (n_docs, n_sys) grids, NaN where a pair is excluded.
        systems: shape (B, n_sys) system draw counts.

    Returns:
        ``{method: shape (B, n_docs)}``, NaN where a document's correlation is undefined.
    """
    n_docs, n_sys = gx.shape
    B = systems.shape[0]
    step = max(1, checks.BLOCK_ELEMENTS // max(n_docs * n_sys, 1))
    parts = []
    for s in range(0, B, step):
        cs = systems[s:s + step]
        w = np.broadcast_to(cs[:, None, :], (cs.shape[0], n_docs, n_sys))
        parts.append(weighted_group_corr(gx, gy, w, methods))
    return {m: np.concatenate([p[m] for p in parts]) for m in methods}


def system_means(gx: np.ndarray, gy: np.ndarray,
                 counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each system's mean over the drawn documents.

    Args:
        gx, gy: shape (n_docs, n_systems), NaN where a (document, system) pair is excluded
            (the same cells in both).
        counts: shape (B, n_docs), how often each document is drawn.

    Returns:
        two arrays of shape (B, n_systems); NaN for a system with no drawn usable pair; no
        overflow for values up to the largest float. Means
        that tie as numbers are exactly equal in each row (:func:`~sumeval.stats.ties.snap_ties`),
        whatever the row order and the CPU's order of summation.
    """
    present = (~np.isnan(gx)).astype(np.float64)
    k = counts @ present
    # sum_d counts[b, d] |g| < 2^(e + bits): below 2^1023 unless the values are near the largest
    # float; then they are scaled down by a power of two (exact) and the means scaled back
    bits = int(np.frexp(float(counts.sum(axis=1).max(initial=1.0)))[1])

    def means(g: np.ndarray) -> np.ndarray:
        shift = max(0, int(scale_exponent(g)) + bits - 1023)
        if shift:
            return (counts @ np.nan_to_num(np.ldexp(g, -shift))) / k * 2.0 ** shift
        return (counts @ np.nan_to_num(g)) / k

    with np.errstate(invalid="ignore", divide="ignore"):
        mx, my = means(gx), means(gy)
    mx[k == 0] = np.nan
    my[k == 0] = np.nan
    return snap_ties(mx), snap_ties(my)


def doc_mean_boot(per_doc: np.ndarray, counts: np.ndarray | None) -> np.ndarray:
    """Mean of the defined per-document values over each resample's drawn documents.

    Args:
        per_doc: shape (n_docs,) (the same values in every resample) or (B, n_docs) (values
            per resample); NaN for a document whose correlation is undefined.
        counts: shape (B, n_docs) document draw counts, or None when documents are not
            resampled (each counts once).

    Returns:
        shape (B,); NaN for a resample without a defined document.
    """
    ok = np.isfinite(per_doc)
    vals = np.where(ok, per_doc, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        if per_doc.ndim == 1:
            k = counts @ ok.astype(np.float64)
            out = (counts @ vals) / k
        elif counts is None:
            k = ok.sum(axis=1).astype(np.float64)
            out = vals.sum(axis=1) / k
        else:
            k = np.einsum("bd,bd->b", counts, ok.astype(np.float64))
            out = np.einsum("bd,bd->b", counts, vals) / k
    out[k == 0] = np.nan
    return out
