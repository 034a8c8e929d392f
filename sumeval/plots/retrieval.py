"""Plots of the paper-001 studies (``index_size_sweep``, ``annotator_impact``).

Pure functions of the studies' tidy frames; each returns ``(fig, ax)`` (``ax`` an array where
there are panels) and never saves or shows.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import COLUMN_IN, PAGE_IN, colour, footer, house_style, row_step, series_style, suptitle, wrap

__all__ = ["pos_bars", "index_size_curves", "seed_spread_strip", "reference_bars", "table_figure",
           "worker_curves"]


@house_style
def pos_bars(pos: pd.DataFrame, *, order: Sequence[str] = ("Nouns", "Verbs", "Adj.", "Prep.", "Others"),
             title: str = "POS tag distribution (paper 001 Fig. 1)"):
    """Grouped bars: one group per POS category, one bar per source (``source, category,
    percent``)."""
    import matplotlib.pyplot as plt

    sources = list(dict.fromkeys(pos["source"]))
    piv = pos.pivot_table(index="category", columns="source", values="percent").reindex(list(order))[sources]
    # a column wide (a page past 8 categories), the legend below the bars
    fig, ax = plt.subplots(figsize=(COLUMN_IN if len(order) <= 8 else PAGE_IN, 2.2), layout="constrained")
    width = 0.8 / max(len(sources), 1)
    x = np.arange(len(order))
    for i, s in enumerate(sources):
        ax.bar(x + (i - (len(sources) - 1) / 2) * width, piv[s].to_numpy(float), width, label=display(s),
               **series_style(i, "bar"))
    ax.set_xticks(x, list(order))
    ax.grid(axis="x", visible=False)
    ax.set_ylabel("% of tokens")
    suptitle(fig, title)
    footer(fig, handles=ax.get_legend_handles_labels()[0])
    return fig, ax


@house_style
def index_size_curves(sweep: pd.DataFrame, *, method: str = "pearson", rouge: pd.DataFrame | None = None,
                      metrics: Sequence[str] | None = None, datasets: Sequence[str] = ("realsumm", "summeval"),
                      title: str | None = None):
    """Paper 001 Fig. 2: correlation (``method``) of each variant against the index size, one
    panel per (data set, collection), log x axis; ROUGE rows (``rouge``: ``dataset, metric,
    method, value``) as dashed horizontal lines. Returns ``(fig, axes)`` of shape (rows, cols)."""
    import matplotlib.pyplot as plt

    sub = sweep[sweep["method"] == method]
    corpora = list(dict.fromkeys(sub["corpus"]))
    datasets = [d for d in datasets if d in set(sub["dataset"])]
    metrics = list(metrics) if metrics is not None else list(dict.fromkeys(sub["metric"]))
    plain = list(dict.fromkeys(m.replace("-dis-", "-") for m in metrics))
    fig, axes = plt.subplots(len(datasets), len(corpora), figsize=(PAGE_IN if len(corpora) > 1 else COLUMN_IN,
                                                                   2.3 * len(datasets) + 0.4),
                             squeeze=False, sharex="col", layout="constrained")
    for i, ds in enumerate(datasets):
        for j, c in enumerate(corpora):
            ax = axes[i, j]
            g = sub[(sub["dataset"] == ds) & (sub["corpus"] == c)]
            for k, m in enumerate(metrics):
                line = g[g["metric"] == m].sort_values("size")
                style = "--" if "-dis-" in m else "-"
                # a colour per variant without its "-dis-" (the dashed line beside its solid twin); past the
                # palette's colours, another marker
                hue = series_style(plain.index(m.replace("-dis-", "-")), "marker")
                ax.plot(line["size"], line["value"], style, ms=3, label=display(m), **hue)
            if rouge is not None:
                rr = rouge[(rouge["dataset"] == ds) & (rouge["method"] == method)].sort_values("value")
                for v in rr["value"]:
                    ax.axhline(v, color="0.4", ls=":", lw=1)
                lo, hi = ax.get_ylim()
                # lines closer than a label's height share one label ("ROUGE-1, ROUGE-2"): never on each other
                groups: list[list] = []
                for name, v in zip(rr["metric"], rr["value"]):
                    if groups and v - groups[-1][-1][1] < 0.07 * (hi - lo):
                        groups[-1].append((name, v))
                    else:
                        groups.append([(name, v)])
                for g in groups:
                    ax.annotate(", ".join(display(n) for n, _ in g), (1.0, max(v for _, v in g)),
                                xycoords=("axes fraction", "data"), fontsize=6.5, color="0.3", ha="right",
                                va="bottom")
            ax.set_xscale("log")
            ax.set_title(f"{display(ds)} / {display(c)}", fontsize=8)
            if j == 0:
                ax.set_ylabel(f"{display(method)} ({'LitePyramid' if ds == 'realsumm' else 'Relevance'})")
            if i == len(datasets) - 1:
                ax.set_xlabel("index size (documents)")
    suptitle(fig, title or f"SERA / GeSERA vs index size, system level ({display(method)}); paper 001 Fig. 2")
    footer(fig, handles=axes[0, 0].get_legend_handles_labels()[0], ncol=4)
    return fig, axes


@house_style
def seed_spread_strip(spread: pd.DataFrame, *, method: str = "pearson", paper: pd.DataFrame | None = None,
                      title: str | None = None):
    """One dot per seed of the index shuffle for each (variant, collection, text form), a bar
    at their mean; the paper's value (``paper``: a frame with ``metric, method, paper``, as from
    ``index_size_sweep.spread_summary``) as a red diamond. ``spread`` without a ``corpus``
    column is one collection. Returns ``(fig, ax)``."""
    import matplotlib.pyplot as plt

    sub = spread[spread["method"] == method]
    if "corpus" not in sub.columns:
        sub = sub.assign(corpus="")
    metrics = list(dict.fromkeys(sub["metric"]))
    groups = list(dict.fromkeys(zip(sub["corpus"], sub["text"])))
    # a collection given as a path by its file name (the folders say nothing in a figure), unless two share it
    short = {c: str(c).replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] for c, _ in groups}
    if len(set(short.values())) < len(short):
        short = {c: c for c in short}
    names = [f"{display(short[c])}, {t}" if c else t for c, t in groups]
    # a column wide, a row of 0.17 in per (variant, collection, text) (less past a page's height); the
    # legend below
    n_rows = len(metrics) * (max(len(groups), 1) + 1.3)
    step = row_step(int(n_rows), overhead_in=1.4, hi=0.17)
    longest = max([len(n) for n in names] + [len(display(m)) for m in metrics])  # 7 pt: about 0.05 in a character
    fig, ax = plt.subplots(figsize=(COLUMN_IN if 0.05 * longest < 1.5 else PAGE_IN, max(step * n_rows, 0.9) + 1.1),
                           layout="constrained")
    y = 0.0
    ticks, labels, headings = [], [], []
    for m in metrics:
        headings.append(len(ticks))  # the variant's name once, on a row of its own above its rows
        ticks.append(y)
        labels.append(display(m))
        y += 1
        p_val = np.nan
        if paper is not None:
            p = paper[(paper["metric"] == m) & (paper["method"] == method)]
            if len(p):
                p_val = float(p["paper"].iloc[0])
        for g_i, (c, t) in enumerate(groups):
            vals = sub[(sub["metric"] == m) & (sub["corpus"] == c) & (sub["text"] == t)]["value"].to_numpy(float)
            if not len(vals):
                continue
            name = names[g_i]
            ax.plot(vals, np.full_like(vals, y), ls="", ms=3.5, alpha=0.6, label=name if m == metrics[0] else None,
                    **series_style(g_i, "marker"))
            ax.plot([np.mean(vals)], [y], "|", ms=9, mew=2, color=colour(g_i))
            if np.isfinite(p_val):
                ax.plot([p_val], [y], "D", mfc="none", color="black", ms=5,
                        label="paper" if (m == metrics[0] and g_i == 0) else None)
            ticks.append(y)
            labels.append(name)
            y += 1
        y += 0.3
    ax.set_yticks(ticks, labels, fontsize=7)
    for k in headings:
        ax.get_yticklabels()[k].set_fontweight("bold")
        ax.yaxis.get_major_ticks()[k].tick1line.set_visible(False)
    ax.invert_yaxis()
    ax.set_xlabel(f"{display(method)} with LitePyramid\n(system level)")
    suptitle(fig, title or "spread over the seeds of the index shuffle")
    handles = sorted(ax.get_legend_handles_labels()[0], key=lambda h: h.get_label() == "paper")  # the paper last
    footer(fig, handles=handles, ncol=3, caption="a dot per seed; bar: their mean")
    return fig, ax


@house_style
def reference_bars(effects: pd.DataFrame, *, metrics: Sequence[str] | None = None,
                   methods: Sequence[str] = ("pearson", "spearman", "kendall_b"), value: str = "alone",
                   title: str | None = None):
    """Paper 001 Fig. 3: for each method (panel), bars of the correlation of each measure with
    each reference alone (``value="alone"``) or of the effect of leaving it out
    (``value="effect"``). Returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt

    metrics = list(metrics) if metrics is not None else list(dict.fromkeys(effects["metric"]))
    refs = sorted(effects["reference"].unique())
    labels = [effects[effects["reference"] == r]["label"].iloc[0] for r in refs]
    fig, axes = plt.subplots(1, len(methods), figsize=(PAGE_IN if len(methods) > 1 else COLUMN_IN, 2.3), squeeze=False,
                             sharey=True, layout="constrained")
    width = 0.8 / max(len(metrics), 1)
    x = np.arange(len(refs))
    for j, meth in enumerate(methods):
        ax = axes[0, j]
        for i, m in enumerate(metrics):
            g = effects[(effects["metric"] == m) & (effects["method"] == meth)].set_index("reference").reindex(refs)
            ax.bar(x + (i - (len(metrics) - 1) / 2) * width, g[value].to_numpy(float), width, label=display(m),
                   **series_style(i, "bar"))
        ax.set_xticks(x, labels, rotation=90, fontsize=7)
        ax.grid(axis="x", visible=False)
        ax.set_title(display(meth), fontsize=8)
        ax.axhline(0, color="0.5", lw=0.8)
    axes[0, 0].set_ylabel("correlation with one reference" if value == "alone" else "all - without the reference")
    suptitle(fig, title or "references as annotators (paper 001 Fig. 3)")
    footer(fig, handles=axes[0, 0].get_legend_handles_labels()[0])
    return fig, axes


@house_style
def table_figure(frame: pd.DataFrame, *, title: str = "", fmt: str = "{:.3f}"):
    """A frame drawn as a table (for a Table 3-like figure). Returns ``(fig, ax)``."""
    import matplotlib.pyplot as plt

    cells = [[fmt.format(v) if isinstance(v, (float, np.floating)) else str(v) for v in row]
             for row in frame.itertuples(index=False)]
    # a column wide (a page past four columns), a row of 0.2 in
    fig, ax = plt.subplots(figsize=(COLUMN_IN if len(frame.columns) <= 4 else PAGE_IN, 0.2 * (len(frame) + 1) + 0.45),
                           layout="constrained")
    ax.axis("off")
    tab = ax.table(cellText=cells, colLabels=[display(c) for c in frame.columns], loc="center", cellLoc="center",
                   bbox=(0, 0, 1, 1))
    tab.auto_set_font_size(False)
    tab.set_fontsize(7.5)
    if title:
        ax.set_title(wrap(fig, title, 9), fontsize=9)
    return fig, ax


@house_style
def worker_curves(summary: pd.DataFrame, *, method: str = "pearson", metrics: Sequence[str] | None = None,
                  title: str | None = None):
    """Correlation against the number of crowd workers behind LitePyramid: mean over draws with
    the min-max range as a band; the all-workers value (``n_workers = 0``) drawn at the right as
    "all". Returns ``(fig, ax)``."""
    import matplotlib.pyplot as plt

    sub = summary[summary["method"] == method]
    metrics = list(metrics) if metrics is not None else list(dict.fromkeys(sub["metric"]))
    ns = sorted(n for n in sub["n_workers"].unique() if n > 0)
    xs = list(range(len(ns))) + [len(ns)]
    fig, ax = plt.subplots(figsize=(COLUMN_IN, 2.4), layout="constrained")
    for k, m in enumerate(metrics):
        g = sub[sub["metric"] == m].set_index("n_workers")
        mean = [g.loc[n, "mean"] for n in ns] + [g.loc[0, "mean"] if 0 in g.index else np.nan]
        lo = [g.loc[n, "min"] for n in ns] + [mean[-1]]
        hi = [g.loc[n, "max"] for n in ns] + [mean[-1]]
        ax.plot(xs, mean, ms=3, label=display(m), **series_style(k))
        ax.fill_between(xs, lo, hi, color=colour(k), alpha=0.12, lw=0)
    ax.set_xticks(xs, [str(n) for n in ns] + ["all"])
    ax.set_xlabel("crowd workers per summary\nbehind LitePyramid")
    ax.set_ylabel(f"{display(method)} with LitePyramid\n(system level)")
    suptitle(fig, title or "judges as annotators (REALSumm)")
    footer(fig, handles=ax.get_legend_handles_labels()[0], ncol=3, caption="line: mean over draws; band: min-max")
    return fig, ax
