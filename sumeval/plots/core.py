"""Pure plotting functions: take tidy frames, return ``(fig, ax)``; never save or show.

Save with :func:`sumeval.figures.save` (or ``RunContext.save_figure``).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import COLUMN_IN, MAX_HEIGHT_IN, PAGE_IN, colour, facet_titles, footer, house_style, suptitle


def _facets(frame: pd.DataFrame, col: str | None, order: Sequence[str] | None) -> list:
    if col is None:
        return [None]
    values = list(order) if order is not None else list(dict.fromkeys(frame[col]))
    return [v for v in values if v in set(frame[col])]


@house_style
def ours_vs_paper(comparison: pd.DataFrame, *, facet_row: str | None = "method",
                  facet_col: str | None = "human", metric_order: Sequence[str] | None = None,
                  col_order: Sequence[str] | None = None, row_order: Sequence[str] | None = None,
                  title: str | None = None, ours_label: str = "ours"):
    """Dot plot of our correlations (with bootstrap intervals) beside the published ones.

    Args:
        comparison: frame with columns ``metric, ours, ci_low, ci_high, paper`` and the facet columns
            (as returned by ``sumeval.studies.common.baseline_rows.compare``).
        facet_row, facet_col: columns that split the figure into a grid of panels (None: no split).
        ours_label: the legend's name for our values ("ours"; the paper's are "paper").

    Returns:
        ``(fig, axes)`` with ``axes`` a 2-D array of shape (n_rows, n_cols).
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    rows = _facets(comparison, facet_row, row_order)
    cols = _facets(comparison, facet_col, col_order)
    metrics = list(metric_order) if metric_order is not None else list(dict.fromkeys(comparison["metric"]))
    # a page wide (a column for one panel); rows of 0.17 in, 8.5 pt: the tick labels' own height
    height = min(MAX_HEIGHT_IN - 0.4, 0.17 * len(metrics) * len(rows) + 0.55 * len(rows) + 0.35)
    fig, axes = plt.subplots(len(rows), len(cols), figsize=(PAGE_IN if len(cols) > 1 else COLUMN_IN, height),
                             squeeze=False, sharey=True, sharex=True, layout="constrained")
    y = np.arange(len(metrics))
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            ax = axes[i, j]
            sub = comparison
            if r is not None:
                sub = sub[sub[facet_row] == r]
            if c is not None:
                sub = sub[sub[facet_col] == c]
            sub = sub.set_index("metric").reindex(metrics)
            ours = sub["ours"].to_numpy(float)
            lo = sub["ci_low"].to_numpy(float) if "ci_low" in sub else np.full_like(ours, np.nan)
            hi = sub["ci_high"].to_numpy(float) if "ci_high" in sub else np.full_like(ours, np.nan)
            # the interval as a segment: a percentile bootstrap interval need not contain the estimate
            has_ci = ~(np.isnan(lo) | np.isnan(hi))
            ax.hlines(y[has_ci], lo[has_ci], hi[has_ci], color=colour(0), lw=1.5, alpha=0.6)
            ax.plot(ours, y, "o", color=colour(0), ms=4, label=ours_label)
            if "paper" in sub:
                ax.plot(sub["paper"].to_numpy(float), y, "D", mfc="none", color=colour(3), ms=5, label="paper")
            for k in np.flatnonzero(np.isnan(ours)):  # ours undefined: said, not left blank
                ax.text(0.02, y[k], "ours undefined", transform=ax.get_yaxis_transform(), va="center",
                        fontsize=7, color="0.4", style="italic")
            ax.set_yticks(y, [display(m) for m in metrics])
            ax.invert_yaxis() if i == 0 and j == 0 else None
            ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
            if i == len(rows) - 1:
                ax.set_xlabel("correlation")
    facet_titles(axes, cols, rows, fontsize=9)
    if title:
        suptitle(fig, title)
    # below the panels, never over a dot
    footer(fig, handles=axes[0, 0].get_legend_handles_labels()[0])
    return fig, axes


@house_style
def heatmap(matrix: np.ndarray, *, xlabel: str = "", ylabel: str = "", title: str = "",
            xticklabels: Sequence | None = None, yticklabels: Sequence | None = None,
            cmap: str = "viridis", ax=None, colorbar: bool = True, vmin=None, vmax=None):
    """Heat map of ``matrix`` (shape (n_y, n_x)), row 0 at the bottom; returns ``(fig, ax)``."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(COLUMN_IN, 2.7), layout="constrained")
    else:
        fig = ax.figure
    im = ax.imshow(np.asarray(matrix, float), origin="lower", aspect="auto", cmap=cmap, vmin=vmin, vmax=vmax)
    if xticklabels is not None:
        ax.set_xticks(range(len(xticklabels)), xticklabels)
    if yticklabels is not None:
        ax.set_yticks(range(len(yticklabels)), yticklabels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(False)
    if colorbar:
        fig.colorbar(im, ax=ax)
    return fig, ax
