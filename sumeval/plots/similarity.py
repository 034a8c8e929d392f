"""Figures of paper 000 (points of contextual similarity): pure plotting, ``(fig, ax)`` out.

Frames come from :mod:`sumeval.studies.common.layer_pairs` and :mod:`sumeval.studies.layer_probing`.
Layers are ``hidden_states`` indices (0 = the embedding output): every layer axis is ticked at
integers only. A panel without a defined correlation (constant scores on a small subset) says so
instead of staying blank.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import COLUMN_IN, PAGE_IN, colour, footer, house_style, series_style, suptitle, wrap

_PROFILE_LABELS = {"norm": r"$|e^k|$", "change": r"$|e^{k+1} - e^k|$", "cos": r"$\cos(e^{k+1}, e^k)$"}
_UNDEFINED = "no defined correlation\n(constant scores or too few summaries)"


def _integer_ticks(axis) -> None:
    """Ticks of ``axis`` (``ax.xaxis`` / ``ax.yaxis``) at integers only (layers, distances)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _title(fig, ax, title: str) -> None:
    """``title`` above ``ax``, each line wrapped to the figure's width (a figure of its own) or to the
    axes' (an axes of the caller's)."""
    if not title:
        return
    own = len(fig.axes) <= 2 and fig.get_layout_engine() is not None  # the axes and perhaps its colour bar
    width = fig.get_figwidth() - 0.1 if own else ax.get_position().width * fig.get_figwidth()
    text = "\n".join(wrap(fig, line, 9, width_in=width) for line in title.split("\n"))
    if own:  # centred on the figure: an axes' title is centred on the axes, and a long one runs past the edge
        fig.suptitle(text, fontsize=9)
    else:
        ax.set_title(text, fontsize=9)


def _say_undefined(ax) -> None:
    """Write in an empty panel that nothing there is defined."""
    ax.text(0.5, 0.5, _UNDEFINED, transform=ax.transAxes, ha="center", va="center", fontsize=7, color="0.4",
            style="italic")


@house_style
def layer_profiles(profiles: pd.DataFrame, value: str = "norm", *, title: str = "", ax=None):
    """Paper Fig.2-4: one line per (token kind, source) of ``value`` over the layer.

    profiles : ``source, kind, layer, <value>`` (:func:`sumeval.studies.layer_probing.probe_frames`).
    value : ``"norm"`` (Fig.2), ``"change"`` (Fig.3) or ``"cos"`` (Fig.4); the last two are
    drawn at layer k for the step k -> k+1.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(COLUMN_IN, 2.4), layout="constrained")
    else:
        fig = ax.figure
    styles = {"text": "-", "summary": "--"}
    colors = {"cls": colour(3), "token": colour(0)}
    for (kind, source), g in profiles.groupby(["kind", "source"], sort=True):
        g = g.sort_values("layer").dropna(subset=[value])
        plural = {"text": "texts", "summary": "summaries"}.get(source, source)
        label = f"{'CLS' if kind == 'cls' else 'tokens'}, {plural}"
        ax.plot(g["layer"], g[value], styles.get(source, "-"), color=colors.get(kind, colour(2)),
                marker="o", ms=2.5, lw=1.2, label=label)
    ax.set_xlabel("layer k")
    _integer_ticks(ax.xaxis)
    ax.set_ylabel(_PROFILE_LABELS.get(value, value))
    ax.legend(frameon=False, fontsize=7, handlelength=2.5)
    _title(fig, ax, title)
    return fig, ax


@house_style
def cosine_histogram(edges: np.ndarray, shares: np.ndarray, *, title: str = "", ax=None):
    """Paper Fig.7: per-layer distribution of pairwise cosines (layer on y, cosine on x).

    edges : (B+1,) bin edges; shares : (L, B), each row sums to 1. Bins that are empty in every
    layer at either end are cropped.
    """
    import matplotlib.pyplot as plt

    shares = np.asarray(shares, float)
    used = np.flatnonzero(np.nansum(shares, axis=0) > 0)
    lo, hi = (int(used[0]), int(used[-1]) + 1) if used.size else (0, shares.shape[1])
    if ax is None:
        fig, ax = plt.subplots(figsize=(COLUMN_IN, 2.6), layout="constrained")
    else:
        fig = ax.figure
    im = ax.imshow(shares[:, lo:hi], origin="lower", aspect="auto", cmap="viridis",
                   extent=(edges[lo], edges[hi], -0.5, shares.shape[0] - 0.5), interpolation="nearest")
    ax.set_xlabel("cosine between two masked-token\nembeddings")
    ax.set_ylabel("layer")
    _integer_ticks(ax.yaxis)
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="share of pairs (per layer)")
    _title(fig, ax, title)
    return fig, ax


@house_style
def layer_pair_grid(corr: pd.DataFrame, *, measures: Sequence[str], humans: Sequence[str],
                    method: str = "kendall_c", measure_labels: dict[str, str] | None = None,
                    title: str = "", shared_scale: bool = True, mark_best: bool = True):
    """Paper Fig.1 / 8 / 5: heat maps of correlation over (text layer x, summary layer y).

    corr : ``measure, human, method, summary_layer, text_layer, value``
    (:func:`sumeval.studies.common.layer_pairs.layer_correlations`). One row of panels per measure, one
    column per quality; a dot marks each panel's maximum. Returns ``(fig, axes)`` with ``axes``
    of shape (len(measures), len(humans)).
    """
    import matplotlib.pyplot as plt

    labels = measure_labels or {}
    sub = corr[corr["method"] == method]
    mats = {}
    for m in measures:
        for h in humans:
            g = sub[(sub["measure"] == m) & (sub["human"] == h)]
            mats[m, h] = g.pivot(index="summary_layer", columns="text_layer", values="value").sort_index()
    vals = np.concatenate([v.to_numpy(float).ravel() for v in mats.values()]) if mats else np.zeros(1)
    vmin, vmax = (np.nanmin(vals), np.nanmax(vals)) if shared_scale and np.isfinite(vals).any() else (None, None)
    # a page wide (a column for one panel); constrained layout: the figure's title, the panels' titles and
    # the colour bar never overlap. The qualities named once on top, the measures once at the right; each
    # panel's title its maximum
    width = PAGE_IN if len(humans) > 1 else COLUMN_IN
    side = min(1.5, (width - 1.0) / max(len(humans), 1))
    fig, axes = plt.subplots(len(measures), len(humans), figsize=(width, (side + 0.45) * len(measures) + 0.5),
                             squeeze=False, sharex=True, sharey=True, layout="constrained")
    im = None
    for i, m in enumerate(measures):
        for j, h in enumerate(humans):
            ax = axes[i, j]
            mat = mats[m, h]
            arr = mat.to_numpy(float)
            im = ax.imshow(arr, origin="lower", aspect="auto", cmap="viridis", vmin=vmin, vmax=vmax,
                           extent=(mat.columns.min() - 0.5, mat.columns.max() + 0.5,
                                   mat.index.min() - 0.5, mat.index.max() + 0.5) if arr.size else None)
            heading = [display(h)] if i == 0 else []
            if mark_best and np.isfinite(arr).any():
                r, c = np.unravel_index(np.nanargmax(arr), arr.shape)
                ax.plot(mat.columns[c], mat.index[r], "o", mfc="none", mec="white", ms=6)
                heading.append(f"max {arr[r, c]:.2f} (s {mat.index[r]}, t {mat.columns[c]})")
            ax.set_title("\n".join(heading), fontsize=7)
            if i == 0:  # the quality a size above the maximum's line
                ax.set_title(ax.get_title(), fontsize=7, linespacing=1.4)
            if not np.isfinite(arr).any():
                _say_undefined(ax)
            _integer_ticks(ax.xaxis)
            _integer_ticks(ax.yaxis)
            ax.grid(False)
            if i == len(measures) - 1:
                ax.set_xlabel("text layer")
            if j == 0:
                ax.set_ylabel("summary layer")
            if j == len(humans) - 1:
                ax.annotate(labels.get(m, display(m)), (1.0, 0.5), xycoords="axes fraction", xytext=(4, 0),
                            textcoords="offset points", rotation=270, ha="left", va="center", fontsize=8,
                            fontweight="bold")
    if im is not None and shared_scale:
        fig.colorbar(im, ax=axes, shrink=0.8, aspect=25, label=display(method))
    if title:
        suptitle(fig, title)
    if mark_best:
        footer(fig, caption="circle: the panel's maximum (s: summary layer, t: text layer)")
    return fig, axes


@house_style
def local_order_grid(local_corr: pd.DataFrame, *, humans: Sequence[str] = ("coherence", "consistency"),
                     method: str = "kendall_c", title: str = ""):
    """Paper Fig.6: correlation of Eq.4's tau_d over distance d (x) and layer (y), per quality.

    local_corr : ``human, method, layer, d, value``
    (:func:`sumeval.studies.common.layer_pairs.local_order_correlations`). Returns ``(fig, axes)`` (1-D).
    """
    import matplotlib.pyplot as plt

    sub = local_corr[local_corr["method"] == method]
    fig, axes = plt.subplots(1, len(humans), figsize=(PAGE_IN if len(humans) > 1 else COLUMN_IN, 2.6), squeeze=False,
                             layout="constrained")
    for j, h in enumerate(humans):
        ax = axes[0, j]
        mat = sub[sub["human"] == h].pivot(index="layer", columns="d", values="value").sort_index()
        arr = mat.to_numpy(float)
        im = ax.imshow(arr, origin="lower", aspect="auto", cmap="viridis",
                       extent=(mat.columns.min() - 0.5, mat.columns.max() + 0.5,
                               mat.index.min() - 0.5, mat.index.max() + 0.5) if arr.size else None)
        if np.isfinite(arr).any():
            r, c = np.unravel_index(np.nanargmax(arr), arr.shape)
            ax.plot(mat.columns[c], mat.index[r], "o", mfc="none", mec="white", ms=6)
            ax.set_title(f"{display(h)}\nmax {arr[r, c]:.2f} (layer {mat.index[r]}, d = {mat.columns[c]})", fontsize=8)
        else:
            ax.set_title(display(h), fontsize=8)
            _say_undefined(ax)
        ax.set_xlabel("distance d")
        ax.set_ylabel("layer")
        _integer_ticks(ax.xaxis)
        _integer_ticks(ax.yaxis)
        ax.grid(False)
        if np.isfinite(arr).any():
            fig.colorbar(im, ax=ax, label=display(method))
    if title:
        suptitle(fig, title)
    return fig, axes[0]


@house_style
def diagonal_profiles(corr: pd.DataFrame, *, measures: Sequence[str], human: str = "consistency",
                      method: str = "spearman", measure_labels: dict[str, str] | None = None,
                      title: str = "", ax=None):
    """Correlation at summary layer = text layer, one line per measure (where the best layer is)."""
    import matplotlib.pyplot as plt

    labels = measure_labels or {}
    if ax is None:
        fig, ax = plt.subplots(figsize=(COLUMN_IN, 2.4), layout="constrained")
    else:
        fig = ax.figure
    sub = corr[(corr["method"] == method) & (corr["human"] == human)
               & (corr["summary_layer"] == corr["text_layer"])]
    for k, m in enumerate(measures):
        g = sub[sub["measure"] == m].sort_values("summary_layer")
        ax.plot(g["summary_layer"], g["value"], ms=3, label=labels.get(m, display(m)), **series_style(k))
    if not sub["value"].notna().any():
        _say_undefined(ax)
        if len(sub):  # the layers on the x axis even with nothing to draw
            ax.set_xlim(sub["summary_layer"].min() - 0.5, sub["summary_layer"].max() + 0.5)
    ax.set_xlabel("layer (summary = text)")
    _integer_ticks(ax.xaxis)
    ax.set_ylabel(f"{display(method)} with {display(human)}")
    ax.legend(frameon=False, fontsize=7)
    _title(fig, ax, title)
    return fig, ax
