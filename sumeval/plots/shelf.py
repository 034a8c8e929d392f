"""Figures of a meta-evaluation across data sets (:mod:`sumeval.meta_eval.across`).

Pure functions over its tidy frames (``across.csv``'s cells, ``across_summary.csv``); each returns
``(fig, ax)`` and never saves.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import PAGE_IN, cell_grid, colour, house_style, row_step, suptitle, wrap

__all__ = ["across_heatmap", "across_ranking", "heatmap_layout", "reason_letter", "REASON_LETTERS"]


def _task_label(dataset: str, human: str, kind: str, n: float, sep: str = "\n") -> str:
    size = f" (n={int(n)})" if np.isfinite(n) else ""
    return f"{display(dataset)}{sep}{display(human)}" + (" acc." if kind == "accuracy" else "") + size


def _how(test: str, correction: str, alpha: float | None) -> str:
    """``"permutation test (systems and inputs), Holm correction, alpha 0.05"``: how the clusters were made."""
    return ", ".join(x for x in (display(test) if test else "",
                                 f"{display(correction)} correction" if correction else "",
                                 f"alpha {alpha:g}" if alpha is not None else "") if x)


#: the heat map's type (points): its cells' text, the names of its rows and columns
CELL_PT, LABEL_PT = 6.5, 7.0
#: the smallest cell text the heat map writes (points); below it a cell carries its colour and frame only
MIN_CELL_PT = 5.0
#: the width a page-wide heat map's columns cannot use (inches): the colour bar and its label, the margins
_BAR_IN = 0.95


def heatmap_layout(measure_labels: Sequence[str], task_columns: Sequence[str], task_rows: Sequence[str],
                   cell_texts: Sequence[str]) -> dict:
    """How a measure x task heat map fits a page's width, measured by the renderer.

    Tasks are the columns (the across tables' orientation) when their columns - each as wide as the
    widest cell text, or as its turned label's lines (``task_columns``) - fit beside the measures'
    names; else the tasks are the rows (``task_rows``, their one-line names at the left) and the
    measures the columns, when those fit; else the orientation with fewer columns, its labels on one
    line and its cell text made smaller to fit (none below :data:`MIN_CELL_PT`: the cells keep their
    colour and frame).

    Returns ``{"tasks_as_rows": bool, "columns": the column labels, "rows": the row labels,
    "cell_pt": float (0: no cell text), "turned": bool (the column labels turned: one is wider than
    its column), "column_label_in": float (the height the column labels take under the cells)}``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.text import Text

    probe = plt.figure(figsize=(PAGE_IN, 2))
    renderer = probe.canvas.get_renderer()

    def extent(texts, size):  # (widest, tallest) in inches
        boxes = [Text(0, 0, t, fontsize=size, figure=probe).get_window_extent(renderer) for t in texts]
        return (max((b.width for b in boxes), default=0.0) / probe.dpi,
                max((b.height for b in boxes), default=0.0) / probe.dpi)

    try:
        cell_in = extent(cell_texts, CELL_PT)[0] + 0.06

        def option(as_rows, rows, columns):
            room = PAGE_IN - extent(rows, LABEL_PT)[0] - _BAR_IN
            label_w, label_h = extent(columns, LABEL_PT)  # turned, a label's height is its width across the page
            fits = len(columns) * max(cell_in, label_h + 0.03) <= room
            return {"tasks_as_rows": as_rows, "rows": list(rows), "columns": list(columns), "fits": fits,
                    "column_in": room / max(len(columns), 1), "label_w": label_w, "label_h": label_h}

        by_columns, by_rows = option(False, measure_labels, task_columns), option(True, task_rows, measure_labels)
        if by_columns["fits"] or by_rows["fits"]:
            chosen, cell_pt = (by_columns if by_columns["fits"] else by_rows), CELL_PT
        else:  # neither fits: fewer columns, labels on one line, smaller cell text
            chosen = by_rows if len(measure_labels) < len(task_columns) else option(False, measure_labels, task_rows)
            cell_pt = CELL_PT * (chosen["column_in"] - 0.06) / max(cell_in - 0.06, 1e-6)
    finally:
        plt.close(probe)
    turned = chosen["label_w"] + 0.05 > chosen["column_in"]  # upright when each column has room for its label
    return {"tasks_as_rows": chosen["tasks_as_rows"], "rows": chosen["rows"], "columns": chosen["columns"],
            "cell_pt": cell_pt if cell_pt >= MIN_CELL_PT else 0.0, "turned": turned,
            "column_label_in": chosen["label_w"] if turned else chosen["label_h"]}


@house_style
def across_heatmap(cells: pd.DataFrame, *, coefficient: str, level: str, measure_order: Sequence[str] | None = None,
                   alpha: float = 0.05, test: str = "", correction: str = "", title: str | None = None):
    """Measure x task heat map at one level: colour the correlation, text the value and the
    significance cluster; cluster-1 cells framed; blank cells hatched with their reason's letter.

    Laid out to fit a page's width whatever the number of tasks (:func:`heatmap_layout`): the tasks
    are the columns while they fit, else the rows (a shelf of 16 sets has 20-30 tasks a level).

    Args:
        cells: ``across.csv`` rows (``coefficient, measure, dataset, human, level, kind, value,
            cluster, status, reason``).
        coefficient, level: which cells to draw. An accuracy task (a pairwise set) is coloured by
            2 x accuracy - 1, so that chance (0.5) is white like a correlation of 0; its text is
            the accuracy.
        measure_order: the measures (default: first appearance); measures with no cell at this
            level are left out.
        alpha, test, correction: named in the title (how the clusters were made).

    Returns:
        ``(fig, ax)``; ``ax.images[0].get_array()`` is the colour matrix, (measures, tasks) or, with
        the tasks as rows, (tasks, measures).
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    sub = cells[(cells["coefficient"] == coefficient) & (cells["level"] == level)]
    present = list(dict.fromkeys(sub["measure"]))
    measures = [m for m in (measure_order or present) if m in set(present)]
    tasks = list(dict.fromkeys(zip(sub["dataset"], sub["human"], sub["kind"])))
    at = {(r.measure, r.dataset, r.human): r for r in sub.itertuples()}
    size = sub.groupby(["dataset", "human"], sort=False)["n"].max()
    accuracy = any(k == "accuracy" for *_, k in tasks)
    value = np.full((len(measures), len(tasks)), np.nan)
    texts = {}
    for i, m in enumerate(measures):
        for j, (d, h, kind) in enumerate(tasks):
            r = at.get((m, d, h))
            if r is not None and r.status == "ok":
                value[i, j] = 2 * r.value - 1 if kind == "accuracy" else r.value
                texts[i, j] = f"{r.value:.2f}".replace("0.", ".", 1) + f"$^{{{int(r.cluster)}}}$"
    measure_labels = [display(m) for m in measures]
    labels = {sep: [_task_label(d, h, k, size.get((d, h), np.nan), sep) for d, h, k in tasks] for sep in ("\n", " ")}
    fit = heatmap_layout(measure_labels, labels["\n"], labels[" "], list(texts.values()))
    transposed, rows, columns = fit["tasks_as_rows"], fit["rows"], fit["columns"]

    def at_xy(i, j):  # measure i, task j -> (x, y) of its cell
        return (i, j) if transposed else (j, i)

    # a page wide; the colour bar's label beside it, the title above the panel alone: no label runs into
    # the title, and the cells fill the width the labels leave
    overhead = fit["column_label_in"] + 1.2  # the column labels under the cells, the title, the note below
    step = row_step(len(rows), overhead_in=overhead, lo=0.15, hi=0.24)
    fig, ax = plt.subplots(figsize=(PAGE_IN, step * len(rows) + overhead), layout="constrained")
    lim = max(0.2, float(np.nanmax(np.abs(value)))) if np.isfinite(value).any() else 1.0
    for i, m in enumerate(measures):
        for j, (d, h, kind) in enumerate(tasks):
            r = at.get((m, d, h))
            if r is None:
                continue
            x, y = at_xy(i, j)
            if r.status != "ok":
                ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, hatch="///", color="0.75", lw=0))
                ax.text(x, y, reason_letter(r.reason, r.status), ha="center", va="center", fontsize=CELL_PT,
                        color="0.4")
                continue
            if r.cluster == 1:
                ax.add_patch(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, fill=False, lw=1.0, color="black"))
            if fit["cell_pt"]:
                ax.text(x, y, texts[i, j], ha="center", va="center", fontsize=fit["cell_pt"],
                        color="white" if abs(value[i, j]) > 0.6 * lim else "black")
    im = ax.imshow(value.T if transposed else value, cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
    # upright row labels; column labels turned where one is wider than its column
    ax.set_xticks(range(len(columns)), columns, rotation=90 if fit["turned"] else 0, fontsize=LABEL_PT)
    ax.set_yticks(range(len(rows)), rows, fontsize=LABEL_PT)
    cell_grid(ax, len(columns), len(rows))
    bar = fig.colorbar(im, ax=ax, pad=0.02, fraction=0.04, aspect=30)
    bar.set_label(display(coefficient) + ("\n(accuracy: 2 acc - 1)" if accuracy else ""), fontsize=LABEL_PT)
    how = _how(test, correction, alpha)
    unit = {"input": "documents", "system": "systems", "global": "summaries"}.get(level, "items")
    pairs = "; an accuracy's: pairs" if accuracy else ""
    cell_text = ("superscript: significance cluster on the task" if fit["cell_pt"] else
                 "too many cells for their values (see the table): colour the value")
    suptitle(fig, title or f"{display(level)} level: {display(coefficient)} with each set's human column "
                           f"(n: {unit}{pairs}); {cell_text} ({how}); framed: cluster 1", fontsize=8)
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
