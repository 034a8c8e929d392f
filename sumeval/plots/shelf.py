"""Figures of a meta-evaluation across data sets (:mod:`sumeval.meta_eval.across`).

Pure functions over its tidy frames (``across.csv``'s cells, ``across_summary.csv``); each returns
``(fig, ax)`` and never saves.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import PAGE_IN, colour, house_style, row_step, suptitle, wrap

__all__ = ["across_heatmap", "across_ranking", "reason_letter", "REASON_LETTERS"]


def _task_label(dataset: str, human: str, kind: str, n: float) -> str:
    size = f" (n={int(n)})" if np.isfinite(n) else ""
    return f"{display(dataset)}\n{display(human)}" + (" acc." if kind == "accuracy" else "") + size


def _how(test: str, correction: str, alpha: float | None) -> str:
    """``"permutation test (systems and inputs), Holm correction, alpha 0.05"``: how the clusters were made."""
    return ", ".join(x for x in (display(test) if test else "",
                                 f"{display(correction)} correction" if correction else "",
                                 f"alpha {alpha:g}" if alpha is not None else "") if x)


@house_style
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
    # a page wide; the colour bar's label beside it, the title above the panel alone: no label
    # runs into the title, and the cells fill the width the labels leave
    fig, ax = plt.subplots(figsize=(PAGE_IN, row_step(len(measures), overhead_in=3.2, lo=0.16, hi=0.24)
                                    * len(measures) + 2.6), layout="constrained")
    for i, m in enumerate(measures):
        for j, (d, h, kind) in enumerate(tasks):
            r = at.get((m, d, h))
            if r is None:
                continue
            if r.status != "ok":
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", color="0.75", lw=0))
                ax.text(j, i, reason_letter(r.reason, r.status), ha="center", va="center", fontsize=6.5, color="0.4")
                continue
            colour[i, j] = 2 * r.value - 1 if kind == "accuracy" else r.value
            if r.cluster == 1:
                ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, lw=1.0, color="black"))
    lim = max(0.2, float(np.nanmax(np.abs(colour)))) if np.isfinite(colour).any() else 1.0
    for i, m in enumerate(measures):
        for j, (d, h, _) in enumerate(tasks):
            r = at.get((m, d, h))
            if r is not None and r.status == "ok":
                text = f"{r.value:.2f}".replace("0.", ".", 1) + f"$^{{{int(r.cluster)}}}$"
                ax.text(j, i, text, ha="center", va="center", fontsize=6.5,
                        color="white" if abs(colour[i, j]) > 0.6 * lim else "black")
    im = ax.imshow(colour, cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
    size = sub.groupby(["dataset", "human"], sort=False)["n"].max()
    # upright labels: turned ones' boxes would cross their neighbours'
    ax.set_xticks(range(len(tasks)), [_task_label(d, h, k, size.get((d, h), np.nan)) for d, h, k in tasks],
                  rotation=90, fontsize=7)
    ax.set_yticks(range(len(measures)), [display(m) for m in measures], fontsize=7)
    ax.set_xticks(np.arange(len(tasks) + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(len(measures) + 1) - 0.5, minor=True)
    ax.tick_params(which="minor", length=0)
    ax.grid(False)
    ax.grid(which="minor", color="white", lw=0.8)
    bar = fig.colorbar(im, ax=ax, pad=0.02, fraction=0.04, aspect=30)
    bar.set_label(display(coefficient) + ("\n(accuracy: 2 acc - 1)" if any(k == "accuracy" for *_, k in tasks) else ""),
                  fontsize=7)
    how = _how(test, correction, alpha)
    unit = {"input": "documents", "system": "systems", "global": "summaries"}.get(level, "items")
    pairs = "; an accuracy's: pairs" if any(k == "accuracy" for *_, k in tasks) else ""
    suptitle(fig, title or f"{display(level)} level: {display(coefficient)} with each set's human column "
                           f"(n: {unit}{pairs}); "
                           f"superscript: significance cluster on the task ({how}); framed: cluster 1", fontsize=8)
    letters = sorted({reason_letter(r.reason, r.status) for r in sub.itertuples() if r.status != "ok"})
    if letters:
        ax.set_xlabel(wrap(fig, "hatched, cannot run or undefined: " + "; ".join(f"{k}: {REASON_LETTERS[k]}"
                                                                                 for k in letters), 7), fontsize=7)
    return fig, ax


_LETTERS = {"no summary": "n", "no source text": "a", "no references": "r"}
REASON_LETTERS = {"n": "the set has no texts", "a": "no source text", "r": "no references",
                  "u": "undefined correlation", "x": "other (see across.csv)"}


def reason_letter(reason: str | None, status: str) -> str:
    """The letter a blank cell shows: n (the set has no texts), a (no source text), r (no
    references), u (undefined correlation), x (another reason)."""
    if status == "undefined":
        return "u"
    for start, letter in _LETTERS.items():
        if str(reason or "").startswith(start):
            return letter
    return "x"


@house_style
def across_ranking(summary: pd.DataFrame, *, coefficient: str, scope: str = "all", title: str | None = None,
                   test: str = "", correction: str = "", alpha: float | None = None):
    """The across-sets ranking: each measure's mean rank (weighted mean significance cluster; lower
    is better) and mean score ((r + 1) / 2, accuracy as is), with its coverage of the tasks' weight.

    Args:
        summary: ``across_summary.csv`` rows; only measures with a mean are drawn, best first.
        test, correction, alpha: how the clusters behind the mean rank were made, named in the title.

    Returns:
        ``(fig, axes)``: mean rank (left) and mean score (right).
    """
    import matplotlib.pyplot as plt

    sub = summary[(summary["coefficient"] == coefficient) & (summary["scope"] == scope)].dropna(subset=["mean_rank"])
    sub = sub.sort_values("position")
    y = np.arange(len(sub))
    fig, axes = plt.subplots(1, 2, sharey=True, figsize=(PAGE_IN, row_step(len(sub), overhead_in=2.0) * len(sub) + 1.9),
                             layout="constrained")
    axes[0].plot(sub["mean_rank"].to_numpy(float), y, "o", color=colour(0))
    axes[0].set_yticks(y, [f"{display(m)}  ({c:.0%}, {n} set{'s' if n != 1 else ''})" for m, c, n in
                           zip(sub["measure"], sub["coverage"], sub["n_sets"])], fontsize=7)
    axes[0].invert_yaxis()
    axes[0].set_xlabel("mean rank (weighted mean cluster;\n1 = top cluster everywhere)", fontsize=8)
    axes[0].axvline(1, color="0.6", lw=0.8)
    top = float(sub["mean_rank"].max()) if len(sub) else 1.0
    axes[0].set_xlim(0.8, max(2.0, top + 0.3))
    axes[1].plot(sub["mean_score"].to_numpy(float), y, "o", color=colour(1))
    axes[1].axvline(0.5, color="0.6", lw=0.8)
    axes[1].set_xlabel("mean score ((r + 1) / 2, accuracy as is;\n0.5: no agreement)", fontsize=8)
    how = _how(test, correction, alpha)
    suptitle(fig, title or f"Across data sets ({display(coefficient)}, "
                           f"{'every level' if scope == 'all' else display(scope) + ' level'}): "
                           "weighted means over the tasks each measure has (in brackets: its share of the tasks' "
                           "weight, and its data sets)" + (f"; clusters: {how}" if how else ""), fontsize=8)
    return fig, axes
