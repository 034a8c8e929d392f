"""The measures against the sentinels, per task (:mod:`sumeval.meta_eval.sentinels`; the shelf study).

A pure function over tidy frames (the across cells and the sets' sentinel rows); returns ``(fig, ax)`` and
never saves.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import PAGE_IN, footer, house_style, series_style, suptitle

__all__ = ["sentinel_bands"]

#: the sentinels drawn as markers (label -> (legend text, marker)); the random one is the band
_MARKERS = {"length (sentinel)": ("length", "^"), "fragment coverage (sentinel)": ("fragment coverage", "s"),
            "fragment density (sentinel)": ("fragment density", "D"),
            "bigram overlap (sentinel)": ("bigram overlap", "v")}


@house_style
def sentinel_bands(cells: pd.DataFrame, sentinels: pd.DataFrame, *, coefficient: str, level: str,
                   measures: Sequence[str] = (), ci: float | None = None, title: str | None = None):
    """Per task (data set and human column) at one level: the random sentinel's range of draws as a grey band
    (its mean a grey tick), the other sentinels as markers, and every measure's correlation as a dot (the
    measures in ``measures`` coloured, the others grey); the tick label says how many measures lie above the
    length sentinel and above the band.

    Args:
        cells: the across cells (``coefficient, measure, dataset, human, level, value, status``); the
            correlation tasks with ``status == "ok"`` are drawn.
        sentinels: the sets' sentinel rows (:func:`sumeval.studies.shelf.sentinel_cells`).
        measures: the measures given to the study (coloured; the sets' own columns are grey dots).
        ci: the share of the random sentinel's draws its band holds (the meta-evaluation's ``--ci``, as
            the rows were made with); None: the legend says "central range" without a number.

    Returns:
        ``(fig, ax)``; tasks without sentinel rows are left out.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from sumeval.metrics.sentinels import RANDOM

    sent = sentinels[(sentinels["coefficient"] == coefficient) & (sentinels["level"] == level)]
    ok = cells[(cells["coefficient"] == coefficient) & (cells["level"] == level) & (cells["status"] == "ok")
               & (cells["kind"] == "correlation")]
    tasks = [t for t in dict.fromkeys(zip(sent["dataset"], sent["human"]))]
    given = [m for m in measures if m in set(ok["measure"])]
    if ci is not None and not 0 < ci < 1:
        raise ValueError(f"ci={ci!r}: the share of the random draws the band holds, between 0 and 1 (e.g. 0.95)")
    fig, ax = plt.subplots(figsize=(PAGE_IN, 0.36 * max(len(tasks), 1) + 1.0), layout="constrained")
    labels = []
    for y, (d, h) in enumerate(tasks):
        s = sent[(sent["dataset"] == d) & (sent["human"] == h)].set_index("measure")
        m = ok[(ok["dataset"] == d) & (ok["human"] == h)]
        if RANDOM in s.index and np.isfinite(s.loc[RANDOM, "ci_low"]):
            ax.add_patch(plt.Rectangle((s.loc[RANDOM, "ci_low"], y - 0.3), s.loc[RANDOM, "ci_high"]
                                       - s.loc[RANDOM, "ci_low"], 0.6, color="0.85", lw=0, zorder=1))
            ax.plot([s.loc[RANDOM, "value"]] * 2, [y - 0.3, y + 0.3], color="0.55", lw=0.8, zorder=2)
        others = m[~m["measure"].isin(given)]
        ax.plot(others["value"], np.full(len(others), y), "o", color="0.6", ms=3, alpha=0.7, zorder=3)
        for k, g in enumerate(given):
            v = m.loc[m["measure"] == g, "value"]
            if len(v):
                ax.plot(v, [y + 0.12 * (k - (len(given) - 1) / 2) / max(len(given), 1) * 2], ls="", ms=4.5, zorder=4,
                        **series_style(k, "marker"))
        for label, (_, marker) in _MARKERS.items():
            if label in s.index and np.isfinite(s.loc[label, "value"]):
                ax.plot(s.loc[label, "value"], y, marker, mfc="none", mec="black", ms=6, mew=1.0, zorder=5)
        above_len = int((m["value"] > s.loc["length (sentinel)", "value"]).sum()) if "length (sentinel)" in s.index \
            else None
        above_band = int((m["value"] > s.loc[RANDOM, "ci_high"]).sum()) if RANDOM in s.index else None
        counts = ", ".join(x for x in (f"{above_len} > length" if above_len is not None else "",
                                       f"{above_band} > noise" if above_band is not None else "") if x)
        labels.append(f"{display(d)} {display(h)}\n({counts} of {len(m)})")
    ax.set_yticks(range(len(tasks)), labels)
    ax.set_ylim(len(tasks) - 0.5, -0.5)
    ax.axvline(0, color="0.4", lw=0.6)
    ax.set_xlabel(f"{display(coefficient)} with the human column, {display(level).lower()} level")
    share = f"central {100 * ci:g}% of its draws" if ci is not None else "central range of its draws"
    handles = [Patch(color="0.85", label=f"random: {share}")]
    handles += [Line2D([], [], ls="", marker=mk, mfc="none", mec="black", label=text)
                for label, (text, mk) in _MARKERS.items() if label in set(sent["measure"])]
    handles += [Line2D([], [], ls="", label=display(g), **series_style(k, "marker")) for k, g in enumerate(given)]
    handles += [Line2D([], [], ls="", marker="o", color="0.6", label="other measures")]
    suptitle(fig, title or "Measures against the sentinels (inside the grey band: no better than a random measure)")
    footer(fig, handles=handles, ncol=4)
    return fig, ax
