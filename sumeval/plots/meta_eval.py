"""Figures of a meta-evaluation: correlations with intervals, the p-value matrix, the ranking.

Pure functions over the tidy frames :mod:`sumeval.meta_eval` writes (the column names of
``correlations.csv``, ``pairwise.csv`` and ``ranking.csv``); each returns ``(fig, axes)``.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

__all__ = ["correlation_intervals", "pvalue_matrix", "ranking_bars", "pvalue_grid", "ranking_grid"]


def _order(values: Sequence, order: Sequence | None) -> list:
    present = list(dict.fromkeys(values))
    if order is None:
        return present
    return [v for v in order if v in set(present)]


def correlation_intervals(correlations: pd.DataFrame, *, coefficient: str | None = None,
                          measure_order: Sequence[str] | None = None,
                          human_order: Sequence[str] | None = None,
                          level_order: Sequence[str] | None = None,
                          ranking: pd.DataFrame | None = None, title: str | None = None):
    """Each measure's correlation with its bootstrap interval, one panel per (level, human).

    Args:
        correlations: columns ``measure, human, level, coefficient, value, ci_low, ci_high``.
        coefficient: which coefficient to draw (default: the first in the frame).
        measure_order, human_order, level_order: orders of the rows and panels.
        ranking: optional ``ranking.csv`` frame (``measure, human, level, coefficient, cluster``):
            the dots of cluster 1 (not significantly worse than the best) are filled, others hollow.
            An undefined correlation (NaN) has no dot: its row says "undefined".

    Returns:
        ``(fig, axes)``, axes of shape (n_levels, n_humans).
    """
    import matplotlib.pyplot as plt

    frame = correlations
    coefficient = coefficient or frame["coefficient"].iloc[0]
    frame = frame[frame["coefficient"] == coefficient]
    levels = _order(frame["level"], level_order)
    humans = _order(frame["human"], human_order)
    measures = _order(frame["measure"], measure_order)
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False, sharey=True,
                             figsize=(2.5 * len(humans) + 1.2, 0.28 * len(measures) * len(levels) + 1.3))
    y = np.arange(len(measures))
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            ax = axes[i, j]
            sub = frame[(frame["level"] == level) & (frame["human"] == human)].set_index("measure").reindex(measures)
            value = sub["value"].to_numpy(float)
            lo, hi = sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float)
            has = ~(np.isnan(lo) | np.isnan(hi))
            ax.hlines(y[has], lo[has], hi[has], color="C0", lw=1.5, alpha=0.6)
            top = np.zeros(len(measures), dtype=bool)
            if ranking is not None:
                r = ranking[(ranking["level"] == level) & (ranking["human"] == human)
                            & (ranking["coefficient"] == coefficient)].set_index("measure")["cluster"]
                top = (r.reindex(measures).astype("float64") == 1).to_numpy(bool)
            ax.plot(value[~top], y[~top], "o", mfc="white", color="C0", ms=4)
            ax.plot(value[top], y[top], "o", color="C0", ms=4)
            for k in np.flatnonzero(np.isnan(value)):  # an undefined correlation: said, not drawn
                ax.text(0.02, y[k], "undefined", transform=ax.get_yaxis_transform(), va="center",
                        fontsize=7, color="0.4", style="italic")
            ax.set_yticks(y, measures)
            ax.set_title(f"{human} / {level}")
            if i == len(levels) - 1:
                ax.set_xlabel(coefficient)
    axes[0, 0].invert_yaxis()
    fig.suptitle(title or f"correlation with humans ({coefficient}); filled: top significance cluster")
    fig.tight_layout()
    return fig, axes


def _pmatrix(pairwise: pd.DataFrame, measures: Sequence[str], column: str) -> np.ndarray:
    """Symmetric (n, n) matrix of ``column`` over the measure pairs; NaN on the diagonal."""
    index = {m: k for k, m in enumerate(measures)}
    out = np.full((len(measures), len(measures)), np.nan)
    for a, b, p in zip(pairwise["measure_a"], pairwise["measure_b"], pairwise[column]):
        if a in index and b in index:
            out[index[a], index[b]] = out[index[b], index[a]] = p
    return out


def pvalue_matrix(pairwise: pd.DataFrame, *, human: str, level: str, coefficient: str | None = None,
                  measure_order: Sequence[str] | None = None, adjusted: bool = True,
                  alpha: float = 0.05, ax=None):
    """Heat map of the pairwise tests' p-values (adjusted by default) for one human and level.

    Args:
        pairwise: columns ``measure_a, measure_b, human, level, coefficient, p_value, p_adjusted``.
        human, level, coefficient: which tests to draw (coefficient: the first in the frame).
        measure_order: row / column order (e.g. by correlation, best first).
        adjusted: draw ``p_adjusted`` (else ``p_value``).
        alpha: cells with p < alpha are outlined and their value printed in bold.

    Returns:
        ``(fig, ax)``; ``ax.images[0].get_array()`` is the symmetric p-value matrix.
    """
    import matplotlib.pyplot as plt

    coefficient = coefficient or pairwise["coefficient"].iloc[0]
    sub = pairwise[(pairwise["human"] == human) & (pairwise["level"] == level)
                   & (pairwise["coefficient"] == coefficient)]
    measures = _order(list(sub["measure_a"]) + list(sub["measure_b"]), measure_order)
    column = "p_adjusted" if adjusted else "p_value"
    matrix = _pmatrix(sub, measures, column)
    if ax is None:
        size = 0.45 * len(measures) + 1.8
        fig, ax = plt.subplots(figsize=(size + 0.8, size))
    else:
        fig = ax.figure
    im = ax.imshow(matrix, vmin=0, vmax=1, cmap="magma_r", aspect="equal")
    n = len(measures)
    ax.set_xticks(range(n), measures, rotation=60, ha="right")
    ax.set_yticks(range(n), measures)
    ax.grid(False)
    for a in range(n):
        for b in range(n):
            p = matrix[a, b]
            if np.isnan(p):
                continue
            sig = p < alpha
            # magma_r is light at small p and dark at large p
            ax.text(b, a, f"{p:.2f}" if p >= 0.01 else "<.01", ha="center", va="center", fontsize=6,
                    fontweight="bold" if sig else "normal", color="black" if p < 0.5 else "white")
    correction = str(sub["correction"].iloc[0]) if adjusted and "correction" in sub and len(sub) else ""
    names = {"holm": "Holm-adjusted ", "bh": "BH-adjusted "}
    fig.colorbar(im, ax=ax, label=f"{names.get(correction, 'adjusted ' if adjusted else '')}p-value")
    test = sub["test"].iloc[0] if "test" in sub and len(sub) else ""
    ax.set_title(f"{human} / {level}: {test} ({coefficient})")
    return fig, ax


def pvalue_grid(pairwise: pd.DataFrame, *, coefficient: str | None = None,
                measure_order: Sequence[str] | None = None, human_order: Sequence[str] | None = None,
                level_order: Sequence[str] | None = None, adjusted: bool = True, alpha: float = 0.05):
    """:func:`pvalue_matrix` for every (level, human), one panel each; returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt

    coefficient = coefficient or pairwise["coefficient"].iloc[0]
    levels = _order(pairwise["level"], level_order)
    humans = _order(pairwise["human"], human_order)
    n = len(set(pairwise["measure_a"]) | set(pairwise["measure_b"]))
    size = 0.4 * n + 1.6
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False,
                             figsize=(size * len(humans) + 1.0, size * len(levels)))
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            pvalue_matrix(pairwise, human=human, level=level, coefficient=coefficient,
                          measure_order=measure_order, adjusted=adjusted, alpha=alpha, ax=axes[i, j])
    fig.tight_layout()
    return fig, axes


def ranking_bars(ranking: pd.DataFrame, *, human: str, level: str, coefficient: str | None = None,
                 ax=None):
    """Measures ranked by correlation for one human and level, bars coloured by significance cluster.

    Args:
        ranking: columns ``measure, human, level, coefficient, value, cluster`` (cluster 1 = not
            significantly worse than the best; missing for an undefined correlation).

    Returns:
        ``(fig, ax)``; the bars are in ranking order, best at the top; measures whose correlation
        is undefined come last, labelled ``[undefined]``, without a bar.
    """
    import matplotlib.pyplot as plt

    coefficient = coefficient or ranking["coefficient"].iloc[0]
    sub = ranking[(ranking["human"] == human) & (ranking["level"] == level)
                  & (ranking["coefficient"] == coefficient)].sort_values("value", ascending=False)
    if ax is None:
        fig, ax = plt.subplots(figsize=(4.2, 0.3 * len(sub) + 1.2))
    else:
        fig = ax.figure
    clusters = sub["cluster"].astype("float64").to_numpy()
    ranked = ~np.isnan(clusters) & ~np.isnan(sub["value"].to_numpy(float))
    colours = [f"C{(int(c) - 1) % 10}" for c in clusters[ranked]]
    y = np.arange(len(sub))
    ax.barh(y[ranked], sub["value"].to_numpy(float)[ranked], color=colours)
    ax.set_yticks(y, [f"{m}  [{int(c)}]" if ok else f"{m}  [undefined]"
                      for m, c, ok in zip(sub["measure"], clusters, ranked)])
    ax.invert_yaxis()
    ax.set_xlabel(coefficient)
    ax.set_title(f"{human} / {level}: ranking [cluster]")
    return fig, ax


def ranking_grid(ranking: pd.DataFrame, *, coefficient: str | None = None,
                 human_order: Sequence[str] | None = None, level_order: Sequence[str] | None = None):
    """:func:`ranking_bars` for every (level, human), one panel each; returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt

    coefficient = coefficient or ranking["coefficient"].iloc[0]
    levels = _order(ranking["level"], level_order)
    humans = _order(ranking["human"], human_order)
    n = ranking["measure"].nunique()
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False,
                             figsize=(3.6 * len(humans) + 0.6, (0.26 * n + 1.0) * len(levels)))
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            ranking_bars(ranking, human=human, level=level, coefficient=coefficient, ax=axes[i, j])
    fig.tight_layout()
    return fig, axes
