"""Figures of a meta-evaluation across data sets (:mod:`sumeval.meta_eval.across`).

Pure functions over its tidy frames (``across.csv``'s cells, ``across_summary.csv``); each returns
``(fig, ax)`` and never saves.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

__all__ = ["across_heatmap", "across_ranking"]


def _task_label(dataset: str, human: str, kind: str) -> str:
    return f"{dataset}\n{human}" + (" (acc.)" if kind == "accuracy" else "")


def across_heatmap(cells: pd.DataFrame, *, coefficient: str, level: str, measure_order: Sequence[str] | None = None,
                   alpha: float = 0.05, test: str = "", correction: str = "", title: str | None = None):
    """Measure x task heat map at one level: colour the correlation, text the value and the
    significance cluster; cluster-1 cells framed; blank cells hatched with their reason's letter.

    Args:
        cells: ``across.csv`` rows (``coefficient, measure, dataset, human, level, kind, value,
            cluster, status, reason``).
        coefficient, level: which cells to draw. An accuracy task (a pairwise set) is coloured by
            2 x accuracy - 1, so that chance (0.5) is white like a correlation of 0; its text is
            the accuracy.
        measure_order: the rows (default: first appearance); measures with no cell at this level
            are left out.
        alpha, test, correction: named in the title (how the clusters were made).

    Returns:
        ``(fig, ax)``; ``ax.images[0].get_array()`` is the (measures, tasks) colour matrix.
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    sub = cells[(cells["coefficient"] == coefficient) & (cells["level"] == level)]
    present = list(dict.fromkeys(sub["measure"]))
    measures = [m for m in (measure_order or present) if m in set(present)]
    tasks = list(dict.fromkeys(zip(sub["dataset"], sub["human"], sub["kind"])))
    at = {(r.measure, r.dataset, r.human): r for r in sub.itertuples()}
    colour = np.full((len(measures), len(tasks)), np.nan)
    width = max(4.5, 0.62 * len(tasks) + 2.6)
    fig, ax = plt.subplots(figsize=(width, 0.3 * len(measures) + 2.2))
    for i, m in enumerate(measures):
        for j, (d, h, kind) in enumerate(tasks):
            r = at.get((m, d, h))
            if r is None:
                continue
            if r.status != "ok":
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", color="0.75", lw=0))
                ax.text(j, i, _reason_letter(r.reason, r.status), ha="center", va="center", fontsize=6, color="0.4")
                continue
            colour[i, j] = 2 * r.value - 1 if kind == "accuracy" else r.value
            text = f"{r.value:.2f}".replace("0.", ".", 1) + f"$^{{{int(r.cluster)}}}$"
            ax.text(j, i, text, ha="center", va="center", fontsize=6, color="black" if abs(colour[i, j]) < 0.6 else
                    "white")
            if r.cluster == 1:
                ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, lw=1.0, color="black"))
    lim = max(0.2, float(np.nanmax(np.abs(colour)))) if np.isfinite(colour).any() else 1.0
    im = ax.imshow(colour, cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(len(tasks)), [_task_label(d, h, k) for d, h, k in tasks], rotation=60, ha="right",
                  rotation_mode="anchor", fontsize=7)
    ax.set_yticks(range(len(measures)), measures, fontsize=7)
    ax.set_xticks(np.arange(len(tasks) + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(len(measures) + 1) - 0.5, minor=True)
    ax.tick_params(which="minor", length=0)
    ax.grid(False)
    ax.grid(which="minor", color="white", lw=0.8)
    fig.colorbar(im, ax=ax, fraction=0.03, pad=0.01, label=f"{coefficient} (accuracy: 2 acc - 1)")
    how = ", ".join(x for x in (test, f"{correction} correction" if correction else "", f"alpha {alpha}") if x)
    ax.set_title(title or f"{level} level: {coefficient} per data set and human column; superscript: "
                          f"significance cluster ({how}); framed: cluster 1", fontsize=8, loc="left")
    fig.tight_layout()
    return fig, ax


_LETTERS = {"no summary": "n", "no source text": "a", "no references": "r"}


def _reason_letter(reason: str | None, status: str) -> str:
    """The letter a blank cell shows: n (the set has no texts), a (no source text), r (no
    references), u (undefined correlation), x (another reason)."""
    if status == "undefined":
        return "u"
    for start, letter in _LETTERS.items():
        if str(reason or "").startswith(start):
            return letter
    return "x"


def across_ranking(summary: pd.DataFrame, *, coefficient: str, scope: str = "all", title: str | None = None):
    """The across-sets ranking: each measure's mean rank (weighted mean significance cluster; lower
    is better) and mean score ((r + 1) / 2, accuracy as is), with its coverage of the tasks' weight.

    Args:
        summary: ``across_summary.csv`` rows; only measures with a mean are drawn, best first.

    Returns:
        ``(fig, axes)``: mean rank (left) and mean score (right).
    """
    import matplotlib.pyplot as plt

    sub = summary[(summary["coefficient"] == coefficient) & (summary["scope"] == scope)].dropna(subset=["mean_rank"])
    sub = sub.sort_values("position")
    y = np.arange(len(sub))
    fig, axes = plt.subplots(1, 2, sharey=True, figsize=(7.2, 0.3 * len(sub) + 1.6))
    axes[0].barh(y, sub["mean_rank"].to_numpy(float), color="C0")
    axes[0].set_yticks(y, [f"{m}  ({c:.0%} of weight, {n} sets)" for m, c, n in
                           zip(sub["measure"], sub["coverage"], sub["n_sets"])], fontsize=7)
    axes[0].invert_yaxis()
    axes[0].set_xlabel("mean significance cluster (1 = best)")
    axes[1].barh(y, sub["mean_score"].to_numpy(float), color="C1")
    axes[1].set_xlabel("mean score: (r + 1) / 2, accuracy as is")
    lo = float(np.nanmin(sub["mean_score"])) if len(sub) else 0.0
    axes[1].set_xlim(max(0.0, lo - 0.05), None)
    fig.suptitle(title or f"across data sets ({coefficient}, {scope} levels): weighted means over the tasks each "
                          "measure has", fontsize=9)
    fig.tight_layout()
    return fig, axes
