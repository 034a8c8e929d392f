"""Figures of the judges' statistics (pure: each returns ``(fig, axes)`` and never saves)."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

__all__ = ["alt_test_bars", "ppi_widths"]


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
    fig, axes = plt.subplots(2, 1, sharex=True, figsize=(max(4.5, 0.9 * len(judges) + 2.0), 4.8))
    for k, human in enumerate(humans):
        sub = results[results["human"] == human].set_index("judge").reindex(judges)
        offset = (k - (len(humans) - 1) / 2) * width
        passed = sub["passed"].fillna(False).to_numpy(bool)
        omega = sub["winning_rate"].to_numpy(float)
        bars = axes[0].bar(x + offset, omega, width, color=f"C{k}")
        for bar, ok, value in zip(bars, passed, omega):
            if ok:
                bar.set_hatch("///")
                bar.set_edgecolor("black")
            if value == 0:  # an empty bar is easy to miss: mark the zero
                axes[0].plot(bar.get_x() + bar.get_width() / 2, 0.0, marker="_", ms=8, mew=2, color=f"C{k}",
                             clip_on=False)
        axes[1].bar(x + offset, sub["advantage_probability"].to_numpy(float), width, color=f"C{k}")
    axes[0].axhline(0.5, color="crimson", lw=1, ls="--")
    axes[0].set_ylabel("winning rate $\\omega$")
    axes[0].set_ylim(0, 1.05)
    axes[1].set_ylabel("advantage prob. $\\rho$")
    axes[1].set_ylim(0, 1.05)
    axes[1].set_xticks(x)
    axes[1].set_xticklabels(judges, rotation=30, ha="right")
    handles = [Patch(facecolor=f"C{k}", label=h) for k, h in enumerate(humans)]
    handles += [Patch(facecolor="white", edgecolor="black", hatch="///", label="passed"),
                Line2D([], [], color="crimson", ls="--", lw=1, label="pass line $\\omega = 0.5$")]
    if title is None and len(results):
        first = results.iloc[0]
        title = (f"Alt-test ({first['alignment']}, $\\varepsilon$ = {first['epsilon']:g}, "
                 f"Benjamini-Yekutieli q = {first['q']:g})")
    if title:
        axes[0].set_title(title, fontsize=9, pad=22)
    axes[0].legend(handles=handles, fontsize=7, ncol=len(handles), loc="lower center", bbox_to_anchor=(0.5, 1.0),
                   frameon=False, handlelength=1.5, columnspacing=1.0)
    fig.tight_layout()
    return fig, axes


def ppi_widths(curve: pd.DataFrame, *, title: str | None = None):
    """Mean interval width against the number of human labels: one line per judge (PPI) and the
    human-only interval (dashed), averaged over systems; one panel per human column.

    Args:
        curve: the frame of :func:`sumeval.judges.ppi.label_curve` (one or several human columns).

    Returns:
        ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt

    humans = list(dict.fromkeys(curve["human"]))
    fig, axes = plt.subplots(1, len(humans), squeeze=False, sharey=False, figsize=(3.2 * len(humans) + 0.6, 3.0))
    for ax, human in zip(axes[0], humans):
        sub = curve[curve["human"] == human]
        for k, (judge, g) in enumerate(sub.groupby("judge", sort=False)):
            m = g.groupby("n_labels")["width_ppi"].mean()
            ax.plot(m.index, m.to_numpy(), marker="o", ms=3, lw=1.2, color=f"C{k}", label=judge)
        h = sub.groupby("n_labels")["width_human"].mean()
        ax.plot(h.index, h.to_numpy(), color="black", ls="--", lw=1.5, label="human labels only")
        ax.set_title(human)
        ax.set_xlabel("human-labelled summaries per system")
    axes[0, 0].set_ylabel("mean interval width")
    first = curve.iloc[0]
    method = "PPI++ (power-tuned)" if first["power_tuning"] else "PPI"
    fig.suptitle(title or f"{method} {1 - first['alpha']:.0%} intervals of a system's mean human score "
                 f"(mean over {curve['system'].nunique()} systems, {first['n_repeats']} draws each)", fontsize=9)
    axes[0, -1].legend(fontsize=7, loc="upper right", frameon=False)
    fig.tight_layout()
    return fig, axes
