"""Figures of the system-level views beyond one correlation over all system pairs: close pairs, Pairwise
Difference Pearson (PDP) and the systems' rank intervals (:func:`sumeval.meta_eval.analysis.system_pair_frames`;
``close_pairs.csv``, ``pdp.csv``, ``rank_intervals.csv``, with a ``dataset`` column in the shelf study).

Pure functions over those tidy frames; each returns ``(fig, ax or axes)`` and never saves. Sentinel rows
(``role`` ``sentinel``) are drawn as a labelled block under the measures, in grey, never among them.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import MAX_HEIGHT_IN, PAGE_IN, cell_grid, colour, footer, house_style, row_step, suptitle, wrap

__all__ = ["close_pair_dots", "pdp_heatmap", "rank_interval_panels"]

#: marker of each third of the pairs (closest, middle, farthest)
_BIN_MARKERS = ("o", "s", "^")
_SENTINEL_LABEL = "sentinels (not ranked)"


def _rows(frame: pd.DataFrame, order: Sequence[str] | None, column: str = "measure") -> tuple[list[str], int]:
    """The measures drawn (``order`` first, then any other measure) with the sentinels last, and how many
    are measures (not sentinels)."""
    roles = dict(zip(frame[column], frame["role"])) if "role" in frame else {}
    present = list(dict.fromkeys(frame[column]))
    ordered = [m for m in (order or []) if m in set(present)] + [m for m in present if m not in set(order or [])]
    measures = [m for m in ordered if roles.get(m) != "sentinel"]
    return measures + [m for m in ordered if roles.get(m) == "sentinel"], len(measures)


def _sentinel_block(ax, n_measures: int, n_rows: int) -> None:
    """A rule between the measures and the sentinels (rows downwards from 0), and the block's name."""
    if n_measures < n_rows:
        ax.axhline(n_measures - 0.5, color="0.3", lw=0.8)
        ax.axhspan(n_measures - 0.5, n_rows - 0.5, color="0.93", lw=0, zorder=0)


@house_style
def close_pair_dots(close_pairs: pd.DataFrame, *, dataset: str | None = None,
                    measure_order: Sequence[str] | None = None, ci: float = 0.95, title: str | None = None):
    """Each measure's agreement with the humans on the closest, middle and farthest third of the system pairs
    by human difference: one panel per human column, one row per measure (the sentinels as a shaded block
    below), a marker per third, the closest third with its bootstrap interval; the dotted line is chance (0.5).

    Args:
        close_pairs: ``close_pairs.csv`` rows (``human, measure, bin, bin_label, n_pairs, delta_high,
            agreement, ci_low, ci_high, role``), of one data set (``dataset``: named in the title).
        measure_order: the rows' order (the rest follow, the sentinels last).

    The interval is the rows' percentile interval; where one leaves out its own estimate the caption says why
    (the thirds stay those of the full data, and resampling pulls the closest pairs' agreement toward chance).

    Returns:
        ``(fig, axes)``; ``axes[0, k].lines`` holds the markers of panel k; ``fig.texts`` the caption, if any.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    humans = list(dict.fromkeys(close_pairs["human"]))
    measures, n_meas = _rows(close_pairs, measure_order)
    step = row_step(len(measures), overhead_in=2.2, lo=0.13, hi=0.2)
    fig, axes = plt.subplots(1, max(len(humans), 1), squeeze=False, sharey=True, layout="constrained",
                             figsize=(PAGE_IN, step * len(measures) + 1.5))
    y = np.arange(len(measures))
    bins = close_pairs.sort_values("bin")[["bin", "bin_label"]].drop_duplicates()
    beside = False  # a closest third's interval that does not hold its estimate
    for ax, human in zip(axes[0], humans):
        sub = close_pairs[close_pairs["human"] == human]
        _sentinel_block(ax, n_meas, len(measures))
        for k, (b, label) in enumerate(bins.itertuples(index=False)):
            g = sub[sub["bin"] == b].set_index("measure").reindex(measures)
            a = g["agreement"].to_numpy(float)
            if k == 0:
                lo, hi = g["ci_low"].to_numpy(float), g["ci_high"].to_numpy(float)
                ok = np.isfinite(lo) & np.isfinite(hi)
                ax.hlines(y[ok] - 0.2, lo[ok], hi[ok], color=colour(0), lw=1.2)
                beside |= bool((ok & ((a < lo) | (a > hi))).any())
            ax.plot(a, y + 0.2 * (k - 1), _BIN_MARKERS[k % 3], ms=3.5, color=colour(k), ls="none",
                    mfc=colour(k) if k == 0 else "white", mew=1.0)
        ax.axvline(0.5, color="0.6", lw=0.8, ls=":")
        ax.set_xlim(-0.02, 1.02)
        n = sub.groupby("bin")["n_pairs"].first()
        counts = (f"{int(n.iloc[0])} pairs per third" if n.nunique() == 1
                  else f"{', '.join(str(int(v)) for v in n)} pairs")
        ax.set_title(f"{display(human)}\n({counts})" if len(n) else display(human), fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        ax.set_xlabel("agreement", fontsize=7)
    axes[0, 0].set_yticks(y, [display(m) for m in measures], fontsize=7)
    axes[0, 0].set_ylim(len(measures) - 0.5, -0.5)
    handles = [Line2D([], [], marker=_BIN_MARKERS[k % 3], ls="-" if k == 0 else "none", color=colour(k),
                      mfc=colour(k) if k == 0 else "white", ms=4,
                      label=f"{label} third" + (f" ({ci:.0%} interval)" if k == 0 else ""))
               for k, label in enumerate(bins["bin_label"])]
    if n_meas < len(measures):
        from matplotlib.patches import Patch

        handles.append(Patch(color="0.9", label=_SENTINEL_LABEL))
    name = f"{display(dataset)}, system level" if dataset else "System level"
    suptitle(fig, title or f"{name}: share of system pairs each measure orders as the humans do, in each third "
                           "of the pairs by human difference (closest: the comparisons a paper makes); "
                           "dotted: chance", fontsize=8)
    caption = None
    if beside:
        from sumeval.stats.pairwise import CLOSE_PAIR_INTERVAL_NOTE

        caption = f"Intervals: {CLOSE_PAIR_INTERVAL_NOTE}."
    footer(fig, handles=handles, caption=caption)
    return fig, axes


@house_style
def pdp_heatmap(pdp: pd.DataFrame, *, level: str = "input", measure_order: Sequence[str] | None = None,
                title: str | None = None):
    """Measure x task heat map of Pairwise Difference Pearson at one ``level`` (``input``: the paper's,
    differences between systems on the same input; ``system``: between system means); the sentinels as a
    block below a rule; a cell whose bootstrap interval excludes 0 is framed.

    Args:
        pdp: ``pdp.csv`` rows (``human, measure, level, pdp, ci_low, ci_high``, and ``role``); with a
            ``dataset`` column (the shelf study's) a column per data set and human column, without one (a
            meta-evaluation's own ``pdp.csv``) a column per human column.
        measure_order: the rows (default: first appearance); measures not in it are left out, but the
            sentinels are kept.

    Returns:
        ``(fig, ax)``; ``ax.images[0].get_array()`` is the (measures, tasks) matrix.
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from sumeval.errors import InputError

    missing = [c for c in ("measure", "human", "level", "pdp", "ci_low", "ci_high") if c not in pdp]
    if missing:
        raise InputError(f"pdp_heatmap: the frame lacks {', '.join(missing)}: pass pdp.csv of a meta-evaluation "
                         "or of the shelf study (sumeval.meta_eval.analysis.system_pair_frames' columns)")
    sub = pdp[pdp["level"] == level]
    if not len(sub):
        raise InputError(f"pdp_heatmap: no rows at level={level!r} (the frame's levels: "
                         f"{', '.join(map(str, pdp['level'].unique())) or 'none, it is empty'}): pass one of them")
    if "dataset" not in sub:  # one data set's pdp.csv
        sub = sub.assign(dataset="")
    if measure_order is not None:
        sub = sub[sub["measure"].isin(measure_order) | ((sub["role"] == "sentinel") if "role" in sub else False)]
    measures, n_meas = _rows(sub, measure_order)
    tasks = list(dict.fromkeys(zip(sub["dataset"], sub["human"])))
    at = {(r.measure, r.dataset, r.human): r for r in sub.itertuples()}
    values = np.full((len(measures), len(tasks)), np.nan)
    step = row_step(len(measures), overhead_in=3.0, lo=0.16, hi=0.24)
    fig, ax = plt.subplots(figsize=(PAGE_IN, step * len(measures) + 2.4), layout="constrained")
    for i, m in enumerate(measures):
        for j, (d, h) in enumerate(tasks):
            r = at.get((m, d, h))
            if r is None or not np.isfinite(r.pdp):
                continue
            values[i, j] = r.pdp
            if np.isfinite(r.ci_low) and (r.ci_low > 0 or r.ci_high < 0):
                ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, lw=0.9, color="black"))
    im = ax.imshow(values, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
    for i in range(len(measures)):
        for j in range(len(tasks)):
            if np.isfinite(values[i, j]):
                ax.text(j, i, f"{values[i, j]:.2f}".replace("0.", ".", 1), ha="center", va="center", fontsize=6.5,
                        color="white" if abs(values[i, j]) > 0.6 else "black")
            else:  # blank would read as 0: hatched, as the shelf's heat maps draw a cell that cannot run
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", color="0.75", lw=0))
    if not np.isfinite(values).all():
        why = "hatched: not computed for the task (the run's notes say why, e.g. a sentinel that reads source " \
              "texts on a set without them)"
        ax.set_xlabel(wrap(fig, why, fontsize=7, width_in=0.6 * PAGE_IN), fontsize=7)
    if n_meas < len(measures):
        ax.axhline(n_meas - 0.5, color="black", lw=1.2)
    # one line per column: two stacked lines turned on their side read across neighbouring columns
    ax.set_xticks(range(len(tasks)), [f"{display(d)} {display(h)}" if d else display(h) for d, h in tasks],
                  rotation=90, fontsize=7)
    ax.set_yticks(range(len(measures)), [display(m) for m in measures], fontsize=7)
    cell_grid(ax, len(tasks), len(measures))
    bar = fig.colorbar(im, ax=ax, pad=0.02, fraction=0.04, aspect=30)
    bar.set_label("PDP", fontsize=7)
    what = ("differences between systems on the same input, pooled (the paper's)" if level == "input"
            else "differences between system means (the system-level Pearson)")
    below = f"; under the rule: {_SENTINEL_LABEL}" if n_meas < len(measures) else ""
    suptitle(fig, title or f"Pairwise Difference Pearson (DiIanni & Deutsch 2025): {what}; framed: its bootstrap "
                           f"interval over inputs excludes 0{below}", fontsize=8)
    return fig, ax


@house_style
def rank_interval_panels(ranks: pd.DataFrame, *, dataset: str | None = None,
                         measure_order: Sequence[str] | None = None, ci: float = 0.95, title: str | None = None):
    """Each system's rank by each human column and each measure, with its bootstrap interval over the inputs:
    one panel per ranking (the human columns first, in black), the systems in the order of the first human
    column's ranking in every panel; systems whose bars overlap are not told apart by the data.

    Args:
        ranks: ``rank_intervals.csv`` rows of one data set (``column, system, rank, rank_low, rank_high,
            role``).
        measure_order: the measures' panels, in order (default: every measure, first appearance); as many
            as fit a page are drawn, the title says how many are left out.

    Returns:
        ``(fig, axes)``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    humans = list(dict.fromkeys(ranks.loc[ranks["role"] == "human", "column"]))
    others = ranks[ranks["role"] != "human"]
    measures = [m for m in dict.fromkeys(measure_order if measure_order is not None else others["column"])
                if m in set(others["column"])]  # once each: a set's labels repeat the given measures
    first = ranks[ranks["column"] == (humans or measures)[0]].sort_values("rank", na_position="last")
    systems = list(dict.fromkeys([*first["system"], *ranks["system"]]))
    columns = [*humans, *measures]
    ncols = max(1, min(5, len(columns)))  # fewer rankings than 5: as many panels, the page filled (not a blank fifth)
    panel_h = max(1.1, 0.1 * len(systems) + 0.55)
    max_rows = max(1, int((MAX_HEIGHT_IN - 1.6) // panel_h))
    left_out = max(0, len(columns) - max_rows * ncols)
    columns = columns[:max_rows * ncols]
    nrows = -(-len(columns) // ncols)
    fig, axes = plt.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True, layout="constrained",
                             figsize=(PAGE_IN, panel_h * nrows + 1.0))
    y = np.arange(len(systems))
    n_sys = len(systems)
    for k, ax in enumerate(axes.flat):
        if k >= len(columns):
            ax.axis("off")
            if k >= ncols:  # the panel above is the last of its column: it shows the ranks
                axes.flat[k - ncols].xaxis.set_tick_params(labelbottom=True)
            continue
        c = columns[k]
        g = ranks[ranks["column"] == c].set_index("system").reindex(systems)
        col = "black" if c in humans else colour(0)
        lo, hi, r = (g[x].to_numpy(float) for x in ("rank_low", "rank_high", "rank"))
        ok = np.isfinite(lo) & np.isfinite(hi)
        ax.hlines(y[ok], lo[ok], hi[ok], color=col, lw=1.6, alpha=0.55)
        ax.plot(r, y, "o", ms=2.5, color=col)
        ax.set_title(wrap(fig, display(c) + (" (human)" if c in humans else ""), fontsize=7,
                          width_in=PAGE_IN / ncols - 0.15), fontsize=7)
        ax.tick_params(axis="both", labelsize=6)
        ax.set_xlim(0.5, n_sys + 0.5)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4, integer=True, min_n_ticks=2))  # ranks: whole numbers
    axes[0, 0].set_yticks(y, [str(s) for s in systems], fontsize=6)
    axes[0, 0].set_ylim(n_sys - 0.5, -0.5)
    fig.supxlabel("rank (1 = best)", fontsize=7)
    name = f"{display(dataset)}: " if dataset else ""
    more = f"; {left_out} more measure(s) in rank_intervals.csv" if left_out else ""
    suptitle(fig, title or f"{name}each system's rank by the humans (black) and by each measure, with its {ci:.0%} "
                           "bootstrap interval over the inputs; systems in the humans' order; overlapping bars: "
                           f"not told apart{more}", fontsize=8)
    return fig, axes
