"""Figures of the judges' statistics (pure: each returns ``(fig, axes)`` and never saves)."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import PAGE_IN, colour, footer, house_style, series_style, suptitle

__all__ = ["alt_test_bars", "ppi_widths", "scores_with_ceiling", "agreement_heatmap", "shelf_ceilings",
           "verbosity_excess", "close_pair_lines"]


@house_style
def alt_test_bars(results: pd.DataFrame, *, judge_order: Sequence[str] | None = None,
                  human_order: Sequence[str] | None = None, title: str | None = None):
    """Winning rate (top) and average advantage probability rho (bottom) per judge, one bar per human
    column (and ``pooled``); the pass line omega = 0.5 on the top panel, passing bars hatched, a winning
    rate of 0 marked by a dash.

    Args:
        results: the ``alt_test.csv`` frame (``judge, human, winning_rate, advantage_probability,
            passed, epsilon, alignment``).

    Returns:
        ``(fig, axes)``, two axes.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    judges = list(judge_order) if judge_order is not None else list(dict.fromkeys(results["judge"]))
    humans = list(human_order) if human_order is not None else list(dict.fromkeys(results["human"]))
    width = 0.8 / max(len(humans), 1)
    x = np.arange(len(judges))
    fig, axes = plt.subplots(2, 1, sharex=True, figsize=(PAGE_IN, 3.6), layout="constrained")
    for k, human in enumerate(humans):
        sub = results[results["human"] == human].set_index("judge").reindex(judges)
        offset = (k - (len(humans) - 1) / 2) * width
        passed = sub["passed"].fillna(False).to_numpy(bool)
        omega = sub["winning_rate"].to_numpy(float)
        look = series_style(k, "bar")
        bars = axes[0].bar(x + offset, omega, width, **look)
        for bar, ok, value in zip(bars, passed, omega):
            if ok:
                bar.set_hatch((look["hatch"] or "") + "///")
                bar.set_edgecolor("black")  # the hatch takes the edge's colour (matplotlib >= 3.7)
                bar.set_linewidth(1.0)
            if value == 0:  # an empty bar is easy to miss: mark the zero
                axes[0].plot(bar.get_x() + bar.get_width() / 2, 0.0, marker="_", ms=8, mew=2, color=colour(k),
                             clip_on=False)
        axes[1].bar(x + offset, sub["advantage_probability"].to_numpy(float), width, **look)
    axes[0].axhline(0.5, color="black", lw=1, ls="--")
    axes[0].set_ylabel("winning rate $\\omega$")
    axes[0].set_ylim(0, 1.05)
    axes[1].set_ylabel("advantage prob. $\\rho$")
    axes[1].set_ylim(0, 1.05)
    axes[1].set_xticks(x)
    axes[1].set_xticklabels([display(j) for j in judges])
    handles = [Patch(label=display(h), **series_style(k, "bar")) for k, h in enumerate(humans)]
    handles += [Patch(facecolor="white", edgecolor="black", hatch="///", label="passed"),
                Line2D([], [], color="black", ls="--", lw=1, label="pass line $\\omega = 0.5$")]
    if title is None and len(results):
        first = results.iloc[0]
        title = (f"Alt-test ({display(first['alignment'])}, $\\varepsilon$ = {first['epsilon']:g}, "
                 f"Benjamini-Yekutieli q = {first['q']:g})")
    if title:
        suptitle(fig, title)
    footer(fig, handles=handles)
    return fig, axes


@house_style
def ppi_widths(curve: pd.DataFrame, *, min_coverage: float | None = None, title: str | None = None):
    """Mean interval width (top row) and measured coverage (bottom row) against the number of human labels:
    one line per judge (PPI) and the human-only interval (dashed), averaged over systems; one column of
    panels per human column. The coverage panels mark the nominal 1 - alpha and (dotted) the coverage below
    which :func:`sumeval.judges.ppi.label_curve` notes that an interval is not to be trusted.

    Args:
        curve: the frame of :func:`sumeval.judges.ppi.label_curve` (one or several human columns).
        min_coverage: the ``min_coverage`` the curve was made with (``sumeval.judges.ppi.MIN_COVERAGE`` by
            default there), drawn dotted; None: no dotted line.

    Returns:
        ``(fig, axes)``, axes of shape (2, number of human columns).
    """
    import matplotlib.pyplot as plt

    humans = list(dict.fromkeys(curve["human"]))
    # one look per judge over the whole figure: the panels of several sets have different judges
    look = {j: series_style(k) for k, j in enumerate(dict.fromkeys(curve["judge"]))}
    fig, axes = plt.subplots(2, len(humans), squeeze=False, sharex="col", sharey="row", figsize=(PAGE_IN, 4.2),
                             gridspec_kw={"height_ratios": [3, 2]}, layout="constrained")
    first = curve.iloc[0]
    for ax, cov, human in zip(axes[0], axes[1], humans):
        sub = curve[curve["human"] == human]
        for judge, g in sub.groupby("judge", sort=False):
            m = g.groupby("n_labels")[["width_ppi", "coverage_ppi"]].mean()
            ax.plot(m.index, m["width_ppi"].to_numpy(), ms=3, lw=1.2, label=judge, **look[judge])
            cov.plot(m.index, m["coverage_ppi"].to_numpy(), ms=3, lw=1.2, **look[judge])
        h = sub.groupby("n_labels")[["width_human", "coverage_human"]].mean()
        ax.plot(h.index, h["width_human"].to_numpy(), color="black", ls="--", lw=1.5, label="human labels only")
        cov.plot(h.index, h["coverage_human"].to_numpy(), color="black", ls="--", lw=1.5)
        cov.axhline(1 - first["alpha"], color="0.5", lw=0.8)
        if min_coverage is not None:
            cov.axhline(min_coverage, color=colour(3), lw=0.8, ls=":")
        ax.set_title(display(human))
        _label_counts(cov, sub["n_labels"])

    for cov in axes[1]:  # under each panel: a figure's own x label sits below the legend the footer adds
        cov.set_xlabel("human-labelled\nsummaries per system")
    axes[0, 0].set_ylabel("mean interval width")
    dotted = "" if min_coverage is None else f"; dotted {min_coverage:.2f}"
    axes[1, 0].set_ylabel(f"measured coverage\n(nominal {1 - first['alpha']:.2f}{dotted})")
    method = "PPI++ (power-tuned)" if first["power_tuning"] else "PPI"
    suptitle(fig, title or f"{method} {1 - first['alpha']:.0%} intervals of a system's mean human score "
                           f"(mean over {curve['system'].nunique()} systems, {first['n_repeats']} draws each)")
    handles = _every_entry(axes[0])
    for h in handles:
        h.set_label(display(h.get_label()))
    footer(fig, handles=handles)
    return fig, axes


def _every_entry(axes) -> list:
    """The legend handles of all ``axes``, each label once (a judge of several panels), the
    entries drawn in every panel (``human labels only``, a reference line) after the others."""
    seen: dict[str, object] = {}
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, h)
    shared = set.intersection(*(set(ax.get_legend_handles_labels()[1]) for ax in axes)) if len(axes) > 1 else set()
    return sorted(seen.values(), key=lambda h: h.get_label() in shared)


def _label_counts(ax, counts) -> None:
    """A panel of one count of labels (a small set) gets that count as its one tick and a range of
    +-10% around it, not fractional ticks of a width-0 range (9.6 ... 10.4)."""
    values = sorted(set(float(v) for v in counts.dropna()))
    if len(values) == 1:
        ax.set_xticks(values, [f"{values[0]:g}"])
        ax.set_xlim(values[0] * 0.9 - 0.5, values[0] * 1.1 + 0.5)


_KIND_STYLE = {"LLM judge": (colour(0), "o"), "offline measure": (colour(1), "s"), "annotator": ("0.45", "D"),
               "human ceiling": ("black", "D")}


@house_style
def scores_with_ceiling(frame: pd.DataFrame, *, value: str = "value", human_order: Sequence[str] | None = None,
                        measure_order: Sequence[str] | None = None, xlabel: str = "correlation",
                        title: str | None = None, axes=None):
    """Each measure's value with its interval, one panel per human column, beside the annotators and
    the human ceiling (a dashed vertical line through the panel, its interval shaded).

    Args:
        frame: one row per (measure, human): ``measure, kind, human, <value>, ci_low, ci_high`` and
            optionally ``cluster`` (hollow markers: not in cluster 1); ``kind`` is ``LLM judge``,
            ``offline measure``, ``annotator`` or ``human ceiling``.
        value: the column drawn; human_order, measure_order: the panels and rows (annotators and
            the ceiling always last).
        axes: a row of axes to draw on (else a new figure).

    Returns:
        ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    humans = list(human_order) if human_order is not None else list(dict.fromkeys(frame["human"]))
    rated = frame[~frame["kind"].isin(["annotator", "human ceiling"])]
    by_kind = sorted(dict.fromkeys(zip(rated["kind"], rated["measure"])), key=lambda km: km[0] != "LLM judge")
    measures = list(measure_order) if measure_order is not None else list(dict.fromkeys(m for _, m in by_kind))
    people = list(dict.fromkeys(frame.loc[frame["kind"] == "annotator", "measure"]))
    rows = measures + people + (["human ceiling"] if (frame["kind"] == "human ceiling").any() else [])
    if axes is None:
        fig, axes = plt.subplots(1, len(humans), squeeze=False, sharey=True, sharex=True, layout="constrained",
                                 figsize=(PAGE_IN, 0.17 * len(rows) + 1.2))
        axes = axes[0]
    else:
        fig = axes[0].figure
    y = {m: len(rows) - 1 - k for k, m in enumerate(rows)}
    for ax, human in zip(axes, humans):
        sub = frame[frame["human"] == human]
        ceil = sub[sub["kind"] == "human ceiling"]
        if len(ceil):
            c = ceil.iloc[0]
            if np.isfinite(c["ci_low"]) and np.isfinite(c["ci_high"]):
                ax.axvspan(c["ci_low"], c["ci_high"], color="0.85", zorder=0)
            ax.axvline(c[value], color="black", ls="--", lw=0.9, zorder=1)
        for r in sub.itertuples():
            if r.measure not in y:
                continue
            color, marker = _KIND_STYLE.get(r.kind, (colour(2), "o"))
            v, lo, hi = getattr(r, value), r.ci_low, r.ci_high
            if np.isfinite(lo) and np.isfinite(hi):
                ax.plot([lo, hi], [y[r.measure]] * 2, color=color, lw=1.1, zorder=2)
            cluster = getattr(r, "cluster", np.nan)
            hollow = bool(pd.notna(cluster) and np.isfinite(float(cluster)) and float(cluster) > 1)
            ax.plot(v, y[r.measure], marker=marker, ms=4.5, color=color, zorder=3,
                    markerfacecolor="white" if hollow else color)
        ax.set_title(display(human))
        if people:
            ax.axhline(len(rows) - len(measures) - 0.5, color="0.6", lw=0.6)
    axes[0].set_yticks([y[m] for m in rows])
    axes[0].set_yticklabels([display(r) for r in rows])
    axes[0].set_ylim(-0.7, len(rows) - 0.3)
    _panel_xlabels(fig, axes, display(xlabel))
    # the human ceiling once: its diamond (with its interval) and the dashed line through the panel
    handles = [Line2D([], [], color=c, marker=m, ls="", label=k) for k, (c, m) in _KIND_STYLE.items()
               if k != "human ceiling" and (frame["kind"] == k).any()]
    if "cluster" in frame:
        handles.append(Line2D([], [], color="0.3", marker="o", ls="", markerfacecolor="white",
                              label="not in significance cluster 1"))
    ceilings = frame[frame["kind"] == "human ceiling"]
    if len(ceilings):
        banded = bool((np.isfinite(ceilings["ci_low"]) & np.isfinite(ceilings["ci_high"])).any())
        color, marker = _KIND_STYLE["human ceiling"]
        handles.append(Line2D([], [], color=color, marker=marker, ls="--", lw=0.9,
                              label="human ceiling" + (" (band: its interval)" if banded else "")))
    if title:
        suptitle(fig, title)
    if fig.get_layout_engine() is not None:
        footer(fig, handles=handles)
    return fig, axes


def _panel_xlabels(fig, axes, label: str) -> None:
    """``label`` under each of a row of panels, wrapped to the panel's width (``soft pairwise
    accuracy`` under four narrow panels ran into its neighbours)."""
    from sumeval.plots.style import wrap

    fig.canvas.draw()  # the panels' widths, once laid out
    for ax in axes:
        width_in = ax.get_window_extent().width / fig.dpi
        ax.set_xlabel(wrap(fig, label, 8, width_in=width_in) if len(axes) > 1 else label)


@house_style
def agreement_heatmap(agreement: pd.DataFrame, *, human_order: Sequence[str] | None = None,
                      rater_order: Sequence[str] | None = None, title: str | None = None):
    """Each rater's agreement with each expert, one panel per human column: rows are the raters
    (judges, then the experts, separated by a line), columns the experts; the value printed in each
    cell, an expert with itself left blank.

    Args:
        agreement: ``rater, kind, expert, human, value`` (and ``coefficient``, ``level`` for the
            title), as :func:`sumeval.studies.llm_judges.expert_agreement` returns.

    Returns:
        ``(fig, axes)``; ``axes[k].images[0].get_array()`` is panel k's (raters, experts) matrix.
    """
    import matplotlib.pyplot as plt

    humans = list(human_order) if human_order is not None else list(dict.fromkeys(agreement["human"]))
    judges = list(dict.fromkeys(agreement.loc[agreement["kind"] != "expert", "rater"]))
    experts = list(dict.fromkeys(agreement["expert"]))
    raters = list(rater_order) if rater_order is not None else judges + experts
    lo, hi = float(np.nanmin(agreement["value"])), float(np.nanmax(agreement["value"]))
    fig, axes = plt.subplots(1, len(humans), squeeze=False, sharey=True, layout="constrained",
                             figsize=(PAGE_IN, 0.2 * len(raters) + 1.9))
    axes = axes[0]
    for ax, human in zip(axes, humans):
        sub = agreement[agreement["human"] == human].set_index(["rater", "expert"])["value"]
        m = np.array([[sub.get((r, e), np.nan) for e in experts] for r in raters], dtype=float)
        im = ax.imshow(m, cmap="viridis", vmin=min(lo, 0.0), vmax=hi, aspect="auto")
        for i in range(m.shape[0]):
            for k in range(m.shape[1]):
                if np.isfinite(m[i, k]):
                    ax.text(k, i, f"{m[i, k]:.2f}".replace("0.", ".", 1), ha="center", va="center", fontsize=6.5,
                            color="white" if m[i, k] < (min(lo, 0.0) + hi) / 2 else "black")
        if judges and len(raters) > len(judges):
            ax.axhline(len(judges) - 0.5, color="white", lw=2.5)
        ax.set_xticks(range(len(experts)))
        ax.set_xticklabels([display(e) for e in experts], rotation=90)
        ax.set_title(display(human))
        ax.grid(False)
    axes[0].set_yticks(range(len(raters)))
    axes[0].set_yticklabels([display(r) for r in raters])
    cbar = fig.colorbar(im, ax=list(axes), shrink=0.8, pad=0.02)
    first = agreement.iloc[0]
    cbar.set_label(f"{display(first.get('coefficient', 'correlation'))}\nwith the expert")
    suptitle(fig, title or f"Agreement with each expert ({display(first.get('coefficient', ''))}, "
                           f"{display(first.get('level', ''))} level): LLM judges above the line, the experts with "
                           "each other below")
    return fig, axes


@house_style
def shelf_ceilings(frame: pd.DataFrame, *, level_order: Sequence[str] | None = None, title: str | None = None):
    """Per data set and human column (rows) and level (panels): every precomputed measure (grey
    dots), the best one (a star, named), each annotator against the others (x) and the human ceiling
    (a black bar), with the ceiling's ``n`` (summaries, documents or systems) at the right.

    Args:
        frame: ``dataset, measure, kind, human, level, value`` and optionally ``n`` (kinds ``offline
            measure``, ``annotator``, ``human ceiling``), as :func:`sumeval.studies.llm_judges.shelf_set`
            returns.

    Returns:
        ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    levels = list(level_order) if level_order is not None else list(dict.fromkeys(frame["level"]))
    keys = list(dict.fromkeys(zip(frame["dataset"], frame["human"])))
    fig, axes = plt.subplots(1, len(levels), squeeze=False, sharey=True, layout="constrained",
                             figsize=(PAGE_IN, 0.4 * len(keys) + 1.3))
    axes = axes[0]
    for ax, level in zip(axes, levels):
        for k, (d, h) in enumerate(keys):
            y = len(keys) - 1 - k
            g = frame[(frame["dataset"] == d) & (frame["human"] == h) & (frame["level"] == level)]
            if g.empty:
                ax.text(0.0, y, "n/a", fontsize=6.5, color="0.5", va="center")
                continue
            m = g[g["kind"] == "offline measure"].dropna(subset=["value"]).sort_values("value")
            ax.plot(m["value"], [y] * len(m), "o", ms=3, color="0.65", zorder=2)
            ann = g[g["kind"] == "annotator"]
            ax.plot(ann["value"], [y] * len(ann), "x", ms=5, color=colour(3), zorder=3)
            ceil = g[g["kind"] == "human ceiling"]
            if len(ceil):
                ax.plot(ceil["value"], [y], "|", ms=10, mew=2.2, color="black", zorder=4)
            if len(m):
                best = m.iloc[-1]
                ax.plot(best["value"], y, "*", ms=9, color=colour(1), zorder=5)
                name = str(best["measure"]).split(".", 1)[-1] if "." in str(best["measure"]) else best["measure"]
                ax.annotate(name, (best["value"], y), xytext=(0, 6), textcoords="offset points", fontsize=6.5,
                            ha="center", color="0.2", zorder=6,  # above the ceiling's bar, which ends 5 pt up
                            bbox=dict(boxstyle="square,pad=0.05", fc="white", ec="none", alpha=0.8))
            if len(ceil) and "n" in ceil and pd.notna(ceil["n"].iloc[0]):
                ax.annotate(f"n={int(ceil['n'].iloc[0])}", (1.0, y), xycoords=("axes fraction", "data"),
                            xytext=(-2, 0), textcoords="offset points", ha="right", va="center", fontsize=6.5,
                            color="0.4")
        lo, hi = ax.get_xlim()
        ticks = [t for t in ax.get_xticks() if lo <= t <= 1.0 + 1e-9]
        ax.set_xlim(lo, max(hi, 1.0) + 0.25)  # room for the n at the right (correlations are <= 1)
        ax.set_xticks(ticks)
        ax.set_title(f"{display(level)} level")
        ax.set_xlabel("correlation with the\nannotators' mean")
    axes[0].set_yticks(range(len(keys)))
    axes[0].set_yticklabels([f"{display(d)}: {display(h)}" for d, h in keys][::-1])
    axes[0].set_ylim(-0.6, len(keys) - 0.2)
    handles = [Line2D([], [], color="0.65", marker="o", ls="", ms=3, label="precomputed measures"),
               Line2D([], [], color=colour(1), marker="*", ls="", ms=8, label="best measure"),
               Line2D([], [], color=colour(3), marker="x", ls="", label="annotator vs the others' mean"),
               Line2D([], [], color="black", marker="|", ls="", ms=10, mew=2, label="human ceiling")]
    if title:
        suptitle(fig, title)
    footer(fig, handles=handles)
    return fig, axes


@house_style
def verbosity_excess(verbosity: pd.DataFrame, *, versus: str = "humans", title: str | None = None):
    """The judge audit's verbosity: each judge's Kendall with summary length minus the humans' own, with
    its bootstrap interval; one panel per human column, judges on the y axis; 0 (as length-dependent as
    the humans) dashed, intervals entirely above 0 filled.

    Args:
        verbosity: the ``judge_audit_verbosity.csv`` frame (:func:`sumeval.judges.audit.judge_audit`).
        versus: the rows to draw (``"humans"``: the human column; or an annotator's name).

    Returns:
        ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt

    sub = verbosity[verbosity["versus"] == versus]
    humans = list(dict.fromkeys(sub["human"]))
    judges = list(dict.fromkeys(sub["judge"]))
    fig, axes = plt.subplots(1, max(len(humans), 1), squeeze=False, sharey=True, layout="constrained",
                             figsize=(PAGE_IN, 0.2 * len(judges) + 1.3))
    y = np.arange(len(judges))[::-1]
    for ax, human in zip(axes[0], humans):
        g = sub[sub["human"] == human].set_index("judge").reindex(judges)
        ex = g["excess"].to_numpy(float)
        lo, hi = g["ci_low"].to_numpy(float), g["ci_high"].to_numpy(float)
        above = g["above"].fillna(False).to_numpy(bool)
        ax.errorbar(ex, y, xerr=[np.nan_to_num(ex - lo), np.nan_to_num(hi - ex)], fmt="none", ecolor="0.3",
                    elinewidth=1, capsize=2)
        ax.scatter(ex[above], y[above], color=colour(3), zorder=3, s=18, label="interval above 0")
        ax.scatter(ex[~above], y[~above], facecolor="white", edgecolor=colour(0), zorder=3, s=18, label="not above 0")
        ax.axvline(0, color="0.5", ls="--", lw=0.8)
        ax.set_title(display(human), fontsize=9)
        ax.set_xlabel("$\\tau_{judge}$ − $\\tau_{humans}$\nwith length", fontsize=8)
    axes[0][0].set_yticks(y)
    axes[0][0].set_yticklabels([display(j) for j in judges])
    if title:
        suptitle(fig, title)
    footer(fig, handles=axes[0][0].get_legend_handles_labels()[0])
    return fig, axes


@house_style
def close_pair_lines(close_pairs: pd.DataFrame, *, title: str | None = None):
    """The judge audit's close pairs: agreement with the humans per bin of system pairs (closest to
    farthest), one line per judge, beside the held-out annotators' mean (black, with its interval) and
    summary length alone (grey dashed, with its interval); one panel per human column.

    Args:
        close_pairs: the ``judge_audit_close_pairs.csv`` frame.

    Returns:
        ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt

    humans = list(dict.fromkeys(close_pairs["human"]))
    # one look per judge over the whole figure: the panels of several sets have different judges
    look = {j: series_style(k) for k, j in
            enumerate(dict.fromkeys(close_pairs.loc[close_pairs["role"] == "judge", "metric"]))}
    fig, axes = plt.subplots(1, max(len(humans), 1), squeeze=False, sharey=True, layout="constrained",
                             figsize=(PAGE_IN, 2.6))
    for ax, human in zip(axes[0], humans):
        sub = close_pairs[close_pairs["human"] == human]
        judges = sub[sub["role"] == "judge"]
        labels = list(dict.fromkeys(sub["bin_label"]))
        x = np.arange(len(labels))
        groups = list(judges.groupby("metric", sort=False))
        step = min(0.06, 0.3 / max(len(groups), 1))  # judges side by side in each bin: close lines stay apart
        for k, (name, g) in enumerate(groups):
            ax.plot(x + (k - (len(groups) - 1) / 2) * step, g.sort_values("bin")["agreement"].to_numpy(float), ms=3,
                    lw=1, label=display(name), zorder=3, **look[name])  # above the references' thick lines
        for role, style in (("held-out annotators", dict(color="black", lw=2, marker="s", ms=4)),
                            ("length", dict(color="0.5", lw=1.5, ls="--", marker="^", ms=4))):
            g = sub[sub["role"] == role].sort_values("bin")
            if not len(g):
                continue
            a = g["agreement"].to_numpy(float)
            lo, hi = g["ci_low"].to_numpy(float), g["ci_high"].to_numpy(float)
            ax.errorbar(x, a, yerr=[np.nan_to_num(a - lo), np.nan_to_num(hi - a)], capsize=2,
                        label="held-out annotator" if role != "length" else "length alone", **style)
        ax.axhline(0.5, color="0.7", lw=0.8, ls=":")
        ax.set_xticks(x)
        ax.set_xticklabels([label.replace(" ", "\n", 1) for label in labels], fontsize=7)
        ax.set_title(display(human), fontsize=9)
        ax.set_ylim(0, 1.05)
    axes[0][0].set_ylabel("pairs ordered as the humans")
    if title:
        suptitle(fig, title)
    footer(fig, handles=_every_entry(axes[0]))
    return fig, axes
