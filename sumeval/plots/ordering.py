"""Plots of the paper-002 ordering studies: take tidy frames, return ``(fig, ax)``; never save.

- :func:`table2_bars` — PMR and WLCS-l per data set and model (Table 2), the paper's values as
  open diamonds where it has the data set, random orders as a grey line;
- :func:`cross_domain` — train x test heat maps per model (Table 3) for Acc or tau;
- :func:`curves` — a metric against a numeric column (mini-set size, noise level) per model,
  mean with a band of +- one standard deviation (Fig.1, Fig.2);
- :func:`ratings_regression` — mean human rating against tau, Acc and WLCS-l with R^2.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import COLUMN_IN, MAX_HEIGHT_IN, PAGE_IN, colour, footer, house_style, series_style, suptitle

MODEL_ORDER = ("lstm_ptrnet", "variant_lstm_ptrnet", "attordernet", "se_graph")
METRIC_LABELS = {"pmr": "PMR", "acc": "Acc", "tau": "Kendall τ", "wlcs_l": "WLCS-l"}


def _models(frame: pd.DataFrame) -> list[str]:
    present = set(frame["model"])
    return [m for m in MODEL_ORDER if m in present] + sorted(present - set(MODEL_ORDER) - {"random"})


@house_style
def table2_bars(t2: pd.DataFrame, metrics: Sequence[str] = ("pmr", "wlcs_l"), random: pd.DataFrame | None = None,
                title: str | None = None):
    """Grouped bars: one panel per metric, data sets on x, one bar per model.

    ``t2``: rows ``dataset, model, label, <metric>`` and optionally ``paper_<metric>``;
    ``random``: rows ``dataset, <metric>`` (drawn as short grey lines). Returns ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt

    sub = t2[t2["model"] != "random"]
    datasets = list(dict.fromkeys(sub["dataset"]))
    models = _models(sub)
    labels = dict(zip(sub["model"], sub["label"]))
    # a page wide, the legend below the panels (never over a bar)
    fig, axes = plt.subplots(1, len(metrics), figsize=(PAGE_IN, 2.4), squeeze=False, layout="constrained")
    width = 0.8 / max(1, len(models))
    x = np.arange(len(datasets))
    for ax, metric in zip(axes[0], metrics):
        for i, m in enumerate(models):
            rows = sub[sub["model"] == m].set_index("dataset").reindex(datasets)
            pos = x - 0.4 + width * (i + 0.5)
            ax.bar(pos, rows[metric].to_numpy(float), width, label=labels.get(m, m), **series_style(i, "bar"))
            pcol = f"paper_{metric}"
            if pcol in rows:
                ax.plot(pos, rows[pcol].to_numpy(float), "D", mfc="none", color="k", ms=5,
                        label="paper" if i == 0 else None)
        if random is not None and metric in random:
            r = random.set_index("dataset").reindex(datasets)[metric].to_numpy(float)
            ax.hlines(r, x - 0.45, x + 0.45, color="0.5", lw=2, label="random order")
        ax.set_xticks(x, [display(d) for d in datasets])
        ax.set_ylabel(METRIC_LABELS.get(metric, metric))
        ax.grid(axis="x", visible=False)
    if title:
        suptitle(fig, title)
    handles, names = axes[0, 0].get_legend_handles_labels()
    footer(fig, handles=[h for h, _ in sorted(zip(handles, names), key=lambda hn: hn[1] in ("paper", "random order"))])
    return fig, axes


@house_style
def cross_domain(t3: pd.DataFrame, metric: str = "tau", title: str | None = None, fmt: str = "{:.2f}"):
    """One heat map per model: rows = training set, columns = test set, cell = ``metric``."""
    import matplotlib.pyplot as plt

    models = _models(t3)
    labels = dict(zip(t3["model"], t3["label"]))
    sets = list(dict.fromkeys(list(t3["train_set"]) + list(t3["test_set"])))
    # a page wide, the panels sharing the training sets' names; constrained layout: the figure's title
    # never sits on a panel's title
    fig, axes = plt.subplots(1, len(models), figsize=(PAGE_IN, 0.3 * len(sets) + 1.7), squeeze=False, sharey=True,
                             layout="constrained")
    vals = t3[metric].to_numpy(float)
    vmin, vmax = (np.nanmin(vals), np.nanmax(vals)) if len(vals) else (0, 1)
    for ax, m in zip(axes[0], models):
        mat = t3[t3["model"] == m].pivot_table(index="train_set", columns="test_set", values=metric)
        mat = mat.reindex(index=[s for s in sets if s in mat.index], columns=[s for s in sets if s in mat.columns])
        im = ax.imshow(mat.to_numpy(float), cmap="viridis", vmin=vmin, vmax=vmax, aspect="auto")
        ax.set_xticks(range(mat.shape[1]), [display(c) for c in mat.columns])
        ax.set_yticks(range(mat.shape[0]), [display(r) for r in mat.index])
        for (i, j), v in np.ndenumerate(mat.to_numpy(float)):
            if not np.isnan(v):
                ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7,
                        color="w" if v < (vmin + vmax) / 2 else "k")
        ax.set_title(labels.get(m, m), fontsize=8)
        ax.grid(False)
        ax.set_xlabel("test set")
    axes[0, 0].set_ylabel("training set")
    fig.colorbar(im, ax=list(axes[0]), label=METRIC_LABELS.get(metric, metric), shrink=0.8, aspect=15)
    if title:
        suptitle(fig, title)
    # the test sets' names upright where each fits its column, turned where one would run into the next
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in axes[0]:
        column_px = ax.get_window_extent(renderer).width / max(len(ax.get_xticks()), 1)
        if any(t.get_window_extent(renderer).width > column_px - 4 for t in ax.get_xticklabels()):
            ax.tick_params(axis="x", labelrotation=90)
    return fig, axes


@house_style
def curves(summary: pd.DataFrame, x: str, metrics: Sequence[str] = ("wlcs_l", "acc"), facet: str = "level",
           random: pd.DataFrame | None = None, xlabel: str | None = None, title: str | None = None,
           logx: bool = False):
    """Lines per model of a metric against ``x``; panels = (value of ``facet``) x metric.

    ``summary``: long rows ``<facet>, model, label, <x>, metric`` and either ``mean`` (with
    optional ``sd``: a band of +- sd) or ``value``; ``random``: rows ``<facet>, <x>?, <metric>``
    drawn as a grey dashed line. Returns ``(fig, axes)`` of shape (n_facets, n_metrics).
    """
    import matplotlib.pyplot as plt

    facets = list(dict.fromkeys(summary[facet])) if facet in summary else [None]
    models = _models(summary)
    labels = dict(zip(summary["model"], summary["label"]))
    ycol = "mean" if "mean" in summary else "value"
    # a page wide (a column for one metric), the legend below the panels
    fig, axes = plt.subplots(len(facets), len(metrics), figsize=(PAGE_IN if len(metrics) > 1 else COLUMN_IN,
                                                                 min(MAX_HEIGHT_IN - 0.6, 2.0 * len(facets) + 0.3)),
                             squeeze=False, sharex=True, layout="constrained")
    for i, f in enumerate(facets):
        sub_f = summary if f is None else summary[summary[facet] == f]
        for j, metric in enumerate(metrics):
            ax = axes[i, j]
            for k, m in enumerate(models):
                s = sub_f[(sub_f["model"] == m) & (sub_f["metric"] == metric)].sort_values(x)
                if s.empty:
                    continue
                xs, ys = s[x].to_numpy(float), s[ycol].to_numpy(float)
                ax.plot(xs, ys, ms=3, label=labels.get(m, m), **series_style(k))
                if "sd" in s and (s["sd"] > 0).any():
                    sd = s["sd"].to_numpy(float)
                    ax.fill_between(xs, ys - sd, ys + sd, color=colour(k), alpha=0.15, lw=0)
            if random is not None and metric in random:
                r = random if f is None or facet not in random else random[random[facet] == f]
                if x in r and r[x].notna().any():
                    r = r.sort_values(x)
                    ax.plot(r[x].to_numpy(float), r[metric].to_numpy(float), "--", color="0.5", label="random order")
                elif len(r):
                    ax.axhline(float(r[metric].mean()), ls="--", color="0.5", label="random order")
            if logx:
                ax.set_xscale("log")
            # the panel's own title (the figure's ``title`` stays the figure's)
            heading = " / ".join(display(v) if v == f else v for v in (f, METRIC_LABELS.get(metric, metric))
                                 if v is not None)
            ax.set_title(heading, fontsize=8)
            if i == len(facets) - 1:
                ax.set_xlabel(xlabel or x)
            if j == 0:
                ax.set_ylabel("score")
    if title:
        suptitle(fig, title)
    handles, names = axes[0, 0].get_legend_handles_labels()
    for h, n in zip(*axes[0, -1].get_legend_handles_labels()):  # a line only the other metric has
        if n not in names:
            handles.append(h)
            names.append(n)
    footer(fig, handles=handles)
    return fig, axes


@house_style
def ratings_regression(per_item: pd.DataFrame, metrics: Sequence[str] = ("tau", "acc", "wlcs_l"),
                       r2: dict | None = None, title: str | None = None):
    """Scatter of the items' mean rating against each metric with the least-squares line."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(metrics), figsize=(PAGE_IN if len(metrics) > 1 else COLUMN_IN, 2.2), squeeze=False,
                             sharey=True, layout="constrained")
    y = per_item["mean_rating"].to_numpy(float)
    for ax, m in zip(axes[0], metrics):
        xv = per_item[m].to_numpy(float)
        ok = ~(np.isnan(xv) | np.isnan(y))
        ax.plot(xv[ok], y[ok], "o", ms=3, alpha=0.7, color=colour(0))
        if ok.sum() >= 2 and np.ptp(xv[ok]) > 0:
            b, a = np.polyfit(xv[ok], y[ok], 1)
            xs = np.linspace(xv[ok].min(), xv[ok].max(), 20)
            ax.plot(xs, a + b * xs, color=colour(3))
        head = METRIC_LABELS.get(m, m)
        if r2 and f"r2_{m}" in r2:
            head += f"  (R² {r2[f'r2_{m}']:.2f})"
        ax.set_title(head, fontsize=8)
        ax.set_xlabel(METRIC_LABELS.get(m, m))
    axes[0, 0].set_ylabel("mean rating")
    if title:
        suptitle(fig, title)
    return fig, axes
