"""Figures of a meta-evaluation: correlations with intervals, the p-value matrix, the ranking.

Pure functions over the tidy frames :mod:`sumeval.meta_eval` writes (the column names of
``correlations.csv``, ``pairwise.csv`` and ``ranking.csv``); each returns ``(fig, axes)``.
Names are shown readable (:mod:`sumeval.display_names`), and every figure that shows
significance (the clusters, the tests) names the test, the correction and alpha
(:func:`significance_text`).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import (
    COLUMN_IN,
    PAGE_IN,
    colour,
    facet_titles,
    footer,
    house_style,
    row_step,
    series_style,
    suptitle,
)

__all__ = ["correlation_intervals", "pvalue_matrix", "pvalue_cells", "pvalue_codes", "ranking_bars", "pvalue_grid",
           "ranking_grid", "significance_text", "PVALUE_CODES"]

#: what :func:`pvalue_matrix` draws in a cell (row measure vs column measure), by code
PVALUE_CODES = {2: "row better, significant", 1: "row better, not significant", 0: "equal correlations",
                -1: "column better, not significant", -2: "column better, significant"}
# the colours of the codes -2..2: orange = the column's measure correlates higher, blue = the row's;
# saturated = significant, pale = not
_CODE_COLOURS = ["#d95f02", "#fbd5b5", "#eeeeee", "#c6dbef", "#1f5fa8"]


def _order(values: Sequence, order: Sequence | None) -> list:
    present = list(dict.fromkeys(values))
    if order is None:
        return present
    return [v for v in order if v in set(present)]


def significance_text(test: str | None, correction: str | None, alpha: float | None) -> str:
    """``"permutation test (systems and inputs), Holm correction, alpha = 0.05"``: what decided
    significance, for a figure's title or caption (parts not given are left out)."""
    parts = []
    if test:
        parts.append(display(test))
    if correction:
        parts.append(f"{display(correction)} correction")
    if alpha is not None:
        parts.append(f"alpha = {alpha:g}")
    return ", ".join(parts)


def _first(frame: pd.DataFrame | None, column: str) -> str | None:
    if frame is None or column not in frame or not len(frame):
        return None
    values = frame[column].dropna()
    return str(values.iloc[0]) if len(values) else None


def _caption(fig, text: str, handles: list | None = None) -> None:
    """``text`` (and a legend of ``handles``) under the panels, inside the figure, wrapped to its width."""
    footer(fig, caption=text, handles=handles)


@house_style
def correlation_intervals(correlations: pd.DataFrame, *, coefficient: str | None = None,
                          measure_order: Sequence[str] | None = None,
                          human_order: Sequence[str] | None = None,
                          level_order: Sequence[str] | None = None,
                          ranking: pd.DataFrame | None = None, title: str | None = None,
                          test: str | None = None, correction: str | None = None, alpha: float | None = None):
    """Each measure's correlation with its bootstrap interval, one panel per (level, human); the
    panels of a level share an x range (a level's own: the narrow intervals of the input and global
    levels stay wider than their dots).

    Args:
        correlations: columns ``measure, human, level, coefficient, value, ci_low, ci_high``.
        coefficient: which coefficient to draw (default: the first in the frame).
        measure_order, human_order, level_order: orders of the rows and panels.
        ranking: optional ``ranking.csv`` frame (``measure, human, level, coefficient, cluster``):
            the dots of cluster 1 (not significantly worse than the best) are filled, others
            hollow, and the caption says by which ``test``, ``correction`` and ``alpha``. Without
            a ranking every dot is filled. An undefined correlation (NaN) has no dot: its row
            says "undefined". Rows whose ``role`` (a column of ``correlations``, when present) is
            not ``measure`` - the annotators against the others' mean and the human ceiling - are
            grey diamonds, outside the clusters.

    Returns:
        ``(fig, axes)``, axes of shape (n_levels, n_humans).
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    frame = correlations
    coefficient = coefficient or frame["coefficient"].iloc[0]
    frame = frame[frame["coefficient"] == coefficient]
    levels = _order(frame["level"], level_order)
    humans = _order(frame["human"], human_order)
    measures = _order(frame["measure"], measure_order)
    refs = set(frame.loc[frame["role"] != "measure", "measure"]) if "role" in frame else set()
    ref = np.array([m in refs for m in measures], dtype=bool)
    step = row_step(len(measures) * len(levels), overhead_in=0.55 * len(levels) + 1.3)
    # an x range per level (row): the input and global levels' intervals (often +-0.05) were hidden
    # behind their dots on the system level's range
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False, sharey=True, sharex="row", layout="constrained",
                             figsize=(PAGE_IN if len(humans) > 1 else COLUMN_IN,
                                      step * len(measures) * len(levels) + 0.5 * len(levels) + 0.45))
    y = np.arange(len(measures))
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            ax = axes[i, j]
            sub = frame[(frame["level"] == level) & (frame["human"] == human)].set_index("measure")
            absent = ~np.isin(measures, sub.index)  # e.g. an annotator this human column does not have
            sub = sub.reindex(measures)
            value = sub["value"].to_numpy(float)
            lo, hi = sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float)
            has = ~(np.isnan(lo) | np.isnan(hi))
            ax.hlines(y[has & ~ref], lo[has & ~ref], hi[has & ~ref], color=colour(0), lw=1.5, alpha=0.6)
            ax.hlines(y[has & ref], lo[has & ref], hi[has & ref], color="0.55", lw=1.5, alpha=0.6)
            top = np.ones(len(measures), dtype=bool)
            if ranking is not None:
                r = ranking[(ranking["level"] == level) & (ranking["human"] == human)
                            & (ranking["coefficient"] == coefficient)].set_index("measure")["cluster"]
                top = (r.reindex(measures).astype("float64") == 1).to_numpy(bool)
            ax.plot(value[~top & ~ref], y[~top & ~ref], "o", mfc="white", color=colour(0), ms=4)
            ax.plot(value[top & ~ref], y[top & ~ref], "o", color=colour(0), ms=4)
            ax.plot(value[ref], y[ref], "D", color="0.45", ms=4)
            for k in np.flatnonzero(np.isnan(value) & ~absent):  # an undefined correlation: said, not drawn
                ax.text(0.02, y[k], "undefined", transform=ax.get_yaxis_transform(), va="center",
                        fontsize=7, color="0.4", style="italic")
            ax.set_yticks(y, [display(m) for m in measures])
            ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
            if i == len(levels) - 1:
                ax.set_xlabel(display(coefficient))
    axes[0, 0].invert_yaxis()
    facet_titles(axes, humans, levels)
    suptitle(fig, title or f"Correlation with the human scores ({display(coefficient)}), bootstrap intervals")
    grey = (" Grey diamonds: each annotator against the mean of the other annotators, and their mean (the human "
            "ceiling); not in the clusters." if ref.any() else "")
    if ranking is not None:
        how = significance_text(test, correction, alpha)
        _caption(fig, "Filled: the top significance cluster (not significantly worse than the best"
                 + (f"; {how}" if how else "") + "); hollow: below it." + grey)
    elif grey:
        _caption(fig, grey.strip())
    return fig, axes


def pvalue_cells(pairwise: pd.DataFrame, *, human: str, level: str, coefficient: str | None = None,
                 ranking: pd.DataFrame | None = None, measure_order: Sequence[str] | None = None,
                 adjusted: bool = True) -> tuple[list[str], np.ndarray, np.ndarray]:
    """What :func:`pvalue_matrix` draws for one human and level: the measures in rank order,
    the p-values and who wins.

    Args:
        pairwise: columns ``measure_a, measure_b, human, level, coefficient, diff, p_value,
            p_adjusted`` (``diff`` = corr_a - corr_b on the rows the pair shares).
        ranking: ``ranking.csv``'s frame: the measures are ordered by its ``rank`` (1 = best);
            without it, by their mean correlation over the tests (``corr_a`` / ``corr_b``).
            Ties and unranked measures keep ``measure_order`` (else the order they appear).
        adjusted: the corrected ``p_adjusted`` (default) or the raw ``p_value``.

    Returns:
        ``(measures, p, diff)``: ``p`` (n, n) symmetric with NaN on the diagonal and where a
        pair was not tested; ``diff[i, j]`` = correlation of measure i minus that of measure j
        (antisymmetric; > 0: the row's measure is better).
    """
    from sumeval.errors import InputError

    column = "p_adjusted" if adjusted else "p_value"
    missing = [c for c in ("measure_a", "measure_b", "human", "level", "coefficient", "corr_a", "corr_b", "diff",
                           column) if c not in pairwise]
    if missing:
        raise InputError(f"the pairwise frame lacks {', '.join(missing)}: pass pairwise.csv of a meta-evaluation "
                         "(sumeval.stats.compare_measures' columns)")
    coefficient = coefficient or pairwise["coefficient"].iloc[0]
    sub = pairwise[(pairwise["human"] == human) & (pairwise["level"] == level)
                   & (pairwise["coefficient"] == coefficient)]
    measures = _order(list(sub["measure_a"]) + list(sub["measure_b"]), measure_order)
    if measure_order is not None:  # measures the order leaves out still get a row, after it
        measures += [m for m in dict.fromkeys(list(sub["measure_a"]) + list(sub["measure_b"])) if m not in measures]
    if ranking is not None and "rank" in ranking:
        r = ranking[(ranking["human"] == human) & (ranking["level"] == level)
                    & (ranking["coefficient"] == coefficient)].set_index("measure")["rank"]
        key = r.reindex(measures).astype("float64").fillna(np.inf).to_numpy()
    else:
        values = pd.concat([sub[["measure_a", "corr_a"]].set_axis(["measure", "corr"], axis=1),
                            sub[["measure_b", "corr_b"]].set_axis(["measure", "corr"], axis=1)])
        key = -values.groupby("measure")["corr"].mean().reindex(measures).fillna(-np.inf).to_numpy(float)
    measures = [measures[k] for k in np.argsort(key, kind="stable")]
    index = {m: k for k, m in enumerate(measures)}
    p = np.full((len(measures), len(measures)), np.nan)
    diff = np.full_like(p, np.nan)
    for a, b, pv, d in zip(sub["measure_a"], sub["measure_b"], sub[column], sub["diff"]):
        i, j = index[a], index[b]
        p[i, j] = p[j, i] = pv
        diff[i, j], diff[j, i] = d, -d
    return measures, p, diff


def pvalue_codes(p: np.ndarray, diff: np.ndarray, alpha: float) -> np.ndarray:
    """The cell codes of :data:`PVALUE_CODES`: sign of ``diff`` (+ the row's measure is better)
    times 2 where ``p < alpha`` (significant), 1 where not; 0 for equal correlations; NaN where
    untested (the diagonal)."""
    code = np.sign(diff) * np.where(p < alpha, 2.0, 1.0)
    return np.where(np.isnan(p) | np.isnan(diff), np.nan, code)


@house_style
def pvalue_matrix(pairwise: pd.DataFrame, *, human: str, level: str, coefficient: str | None = None,
                  measure_order: Sequence[str] | None = None, ranking: pd.DataFrame | None = None,
                  adjusted: bool = True, alpha: float = 0.05, ax=None, caption: bool = True,
                  order: Sequence[str] | None = None, labels: tuple[bool, bool] = (True, True)):
    """The pairwise tests of one human and level as a matrix, best measure first.

    Rows and columns are the measures by rank (:func:`pvalue_cells`). A cell compares its row's
    measure with its column's: blue when the row's correlates higher, orange when the column's
    does; saturated when the difference is significant (p < ``alpha``, corrected p-values by
    default), pale when not. Each cell prints its p-value; the caption names the test, the
    correction and alpha (``caption=False`` leaves it to the caller, as :func:`pvalue_grid` does).
    ``order``: the rows and columns exactly (a grid's panels share one); ``labels``: whether the x
    and y tick labels are drawn. A cell prints its p-value where it is wide enough for it at
    6.5 pt (0.24 in); smaller cells show the colours only.

    Returns:
        ``(fig, ax)``; ``ax.images[0].get_array()`` is the matrix of :func:`pvalue_codes`
        (rows, columns in the order of the tick labels).
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap

    coefficient = coefficient or pairwise["coefficient"].iloc[0]
    measures, p, diff = pvalue_cells(pairwise, human=human, level=level, coefficient=coefficient, ranking=ranking,
                                     measure_order=measure_order, adjusted=adjusted)
    if order is not None:  # one order for every panel of a grid; a measure absent here: an empty row
        at = {m: k for k, m in enumerate(measures)}
        take = [at.get(m, -1) for m in order]
        pad = np.full((len(measures) + 1, len(measures) + 1), np.nan)
        p = _take(p, take, pad)
        diff = _take(diff, take, pad)
        measures = list(order)
    codes = pvalue_codes(p, diff, alpha)
    if ax is None:
        fig, ax = plt.subplots(figsize=(COLUMN_IN if len(measures) <= 8 else PAGE_IN,) * 2, layout="constrained")
    else:
        fig = ax.figure
    # interpolation "none": a PDF holds the n x n cells as they are, not resampled at 200 dpi (a
    # 41 x 41 grid's panels are 18 inches wide); a PNG's cells are the same pixels (nearest)
    ax.imshow(np.ma.masked_invalid(codes), cmap=ListedColormap(_CODE_COLOURS),
              norm=BoundaryNorm([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], 5), aspect="equal", interpolation="none")
    n = len(measures)
    names = [display(m) for m in measures]
    ax.set_title(f"{display(human)} / {display(level)}")
    cell_in, size = _cell_and_label_size(ax, n)
    ax.set_xticks(range(n), names if labels[0] else [], rotation=90, fontsize=size)
    ax.set_yticks(range(n), names if labels[1] else [], fontsize=size)
    ax.grid(False)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    for a in range(n if cell_in >= 0.24 else 0):
        for b in range(n):
            if np.isnan(p[a, b]):
                continue
            # inside its cell: out of the layout, which would otherwise measure every cell's text
            # (tight_layout, and savefig's tight bounding box: thousands of texts in a big grid)
            ax.text(b, a, f"{p[a, b]:.2f}" if p[a, b] >= 0.01 else "<.01", ha="center", va="center", fontsize=6.5,
                    color="white" if abs(codes[a, b]) == 2 else "black", in_layout=False)
    sub = pairwise[pairwise["coefficient"] == coefficient]
    if caption:
        _caption(fig, pvalue_caption(_first(sub, "test"), _first(sub, "correction") if adjusted else None,
                                     alpha, coefficient, printed=any(not t.get_in_layout() for t in ax.texts)))
    return fig, ax


def _cell_and_label_size(ax, n: int) -> tuple[float, float]:
    """The width (inches) of a cell of ``ax``'s ``n`` x ``n`` matrix, once laid out, and the size
    (pt) of its tick labels: no taller than a cell, 6 to 7.5 pt."""
    ax.figure.canvas.draw()
    cell_in = ax.get_window_extent().width / ax.figure.dpi / max(n, 1)
    return cell_in, min(7.5, max(6.0, 0.9 * 72 * cell_in))


def _take(matrix: np.ndarray, take: list[int], pad: np.ndarray) -> np.ndarray:
    """``matrix``'s rows and columns ``take`` (-1: a row and column of NaN)."""
    pad = pad.copy()
    pad[:-1, :-1] = matrix
    return pad[np.ix_(take, take)]


def pvalue_caption(test: str | None, correction: str | None, alpha: float, coefficient: str | None, *,
                   printed: bool = True, shared: bool = False) -> str:
    """The caption of a p-value matrix: what a cell shows and what decided significance (``printed``:
    whether the cells print their p-values; ``shared``: one order for the panels of a grid)."""
    how = significance_text(test, correction, alpha)
    order = ("Rows and columns in one order in every panel, by mean rank over the panels, best first"
             if shared else "Rows and columns by rank, best first")
    value = ("printed: the " + ("corrected " if correction else "") + "p-value." if printed else
             "the " + ("corrected " if correction else "") + "p-values are in pairwise.csv (too many cells to "
             "print them).")
    return (f"Pairwise tests of the measures' {display(coefficient or 'correlation')} ({how}). {order}; a cell "
            "compares its row's measure with its column's: blue: the row's measure correlates higher, orange: the "
            "column's; saturated: significant (p < alpha), pale: not; " + value)


@house_style
def pvalue_grid(pairwise: pd.DataFrame, *, coefficient: str | None = None,
                measure_order: Sequence[str] | None = None, human_order: Sequence[str] | None = None,
                level_order: Sequence[str] | None = None, adjusted: bool = True, alpha: float = 0.05,
                ranking: pd.DataFrame | None = None):
    """:func:`pvalue_matrix` for every (level, human), one panel each, all in one order (the
    measures by their mean rank over the panels, best first: a row is the same measure in every
    panel), their names once at the left and at the bottom, with one legend and caption, a page
    wide; returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    from sumeval.errors import InputError

    coefficient = coefficient or pairwise["coefficient"].iloc[0]
    column = "p_adjusted" if adjusted else "p_value"
    tested = pairwise[pairwise["coefficient"] == coefficient]
    if column in tested and not tested[column].notna().any():
        raise InputError(f"pvalue_grid: no pair of measures was tested on {display(coefficient)} (every {column} is "
                         "empty; pairwise.csv's note column says why, e.g. an undefined correlation): there is "
                         "nothing to draw")
    levels = _order(pairwise["level"], level_order)
    humans = _order(pairwise["human"], human_order)
    positions: dict[str, list[int]] = {}
    for level in levels:
        for human in humans:
            ranked = pvalue_cells(pairwise, human=human, level=level, coefficient=coefficient, ranking=ranking,
                                  measure_order=measure_order, adjusted=adjusted)[0]
            for k, m in enumerate(ranked):
                positions.setdefault(m, []).append(k)
    first = list(positions)
    order = sorted(first, key=lambda m: (np.mean(positions[m]), first.index(m)))
    names = max((len(display(m)) for m in order), default=0)
    label_in = 0.055 * names + 0.2  # 7.5 pt: about 0.055 in a character
    width = PAGE_IN if len(humans) > 1 or len(order) > 8 else COLUMN_IN
    cell = (width - label_in - 0.1 * len(humans)) / max(len(humans) * len(order), 1)
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False, layout="constrained",
                             figsize=(width, len(levels) * (cell * len(order) + 0.2) + label_in + 0.45))
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            pvalue_matrix(pairwise, human=human, level=level, coefficient=coefficient, ranking=ranking,
                          measure_order=measure_order, adjusted=adjusted, alpha=alpha, ax=axes[i, j], caption=False,
                          order=order, labels=(i == len(levels) - 1, j == 0))
            axes[i, j].set_title("")
    # one size for every panel's names, measured once all panels are laid out (each panel measured
    # its own while the layout still moved: the input row and the last columns came out larger)
    size = _cell_and_label_size(axes[0, 0], len(order))[1]
    for ax in axes.flat:
        ax.tick_params(labelsize=size)
    facet_titles(axes, humans, levels)
    sub = pairwise[pairwise["coefficient"] == coefficient]
    suptitle(fig, f"Pairwise tests ({display(coefficient)}): "
             + significance_text(_first(sub, "test"), _first(sub, "correction") if adjusted else None, alpha))
    printed = any(not t.get_in_layout() for ax in axes.flat for t in ax.texts)  # the cells' texts
    _caption(fig, pvalue_caption(_first(sub, "test"), _first(sub, "correction") if adjusted else None, alpha,
                                 coefficient, printed=printed, shared=True),
             handles=[Patch(color=_CODE_COLOURS[k + 2], label=PVALUE_CODES[k]) for k in (2, 1, 0, -1, -2)])
    return fig, axes


@house_style
def ranking_bars(ranking: pd.DataFrame, *, human: str, level: str, coefficient: str | None = None,
                 ax=None):
    """Measures ranked by correlation for one human and level, bars coloured by significance cluster.

    Args:
        ranking: columns ``measure, human, level, coefficient, value, cluster`` (cluster 1 = not
            significantly worse than the best; missing for an undefined correlation).

    Returns:
        ``(fig, ax)``; the bars are in ranking order, best at the top; measures whose correlation
        is undefined come last, labelled ``[undefined]``, without a bar. Rows whose ``role`` (a
        column of ``ranking``, when present) is not ``measure`` and that have no cluster - the
        annotators and the human ceiling, not competitors - are grey bars labelled ``[not ranked]``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    coefficient = coefficient or ranking["coefficient"].iloc[0]
    sub = ranking[(ranking["human"] == human) & (ranking["level"] == level)
                  & (ranking["coefficient"] == coefficient)].sort_values("value", ascending=False)
    if ax is None:
        longest = max((len(display(m)) for m in sub["measure"]), default=0) + 13  # and "  [not ranked]"
        fig, ax = plt.subplots(figsize=(COLUMN_IN if 0.055 * longest < 1.6 else PAGE_IN,
                                        row_step(len(sub), overhead_in=1.0) * len(sub) + 0.8), layout="constrained")
    else:
        fig = ax.figure
    clusters = sub["cluster"].astype("float64").to_numpy()
    values = sub["value"].to_numpy(float)
    ranked = ~np.isnan(clusters) & ~np.isnan(values)
    outside = (sub["role"] != "measure").to_numpy(bool) & ~ranked & ~np.isnan(values) if "role" in sub else \
        np.zeros(len(sub), dtype=bool)
    y = np.arange(len(sub))
    for k in np.flatnonzero(ranked):  # a bar per cluster's look (past 7 clusters, hatched)
        ax.barh(y[k], values[k], **series_style(int(clusters[k]) - 1, "bar"))
    ax.barh(y[outside], values[outside], color="0.75")
    ax.set_yticks(y, [f"{display(m)}  [{int(c)}]" if ok else f"{display(m)}  [not ranked]" if out
                      else f"{display(m)}  [undefined]" for m, c, ok, out in zip(sub["measure"], clusters, ranked,
                                                                                  outside)])
    ax.invert_yaxis()
    ax.axvline(0, color="0.3", lw=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5))
    ax.set_xlabel(display(coefficient))
    ax.set_title(f"{display(human)} / {display(level)}")
    return fig, ax


@house_style
def ranking_grid(ranking: pd.DataFrame, *, coefficient: str | None = None,
                 human_order: Sequence[str] | None = None, level_order: Sequence[str] | None = None,
                 test: str | None = None, correction: str | None = None, alpha: float | None = None):
    """Each measure's correlation as a bar coloured by its significance cluster, with the cluster
    written at the bar's end, one panel per (level, human), a page wide. Every panel has the same
    rows (the measures by their mean rank over the panels, best at the top; the annotators and the
    human ceiling, not ranked, grey at the bottom), so their names are written once, at the left;
    the title says what decided the clusters (``test``, ``correction``, ``alpha``). Returns
    ``(fig, axes)``.

    One panel alone, its bars sorted: :func:`ranking_bars`."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    coefficient = coefficient or ranking["coefficient"].iloc[0]
    levels = _order(ranking["level"], level_order)
    humans = _order(ranking["human"], human_order)
    sub = ranking[ranking["coefficient"] == coefficient]
    clusters = sub["cluster"].astype("float64")
    ranked = sub[clusters.notna() & sub["value"].notna()]
    rank = ranked["rank"] if "rank" in ranked else ranked.groupby(["human", "level"])["value"].rank(ascending=False)
    mean_rank = rank.groupby(ranked["measure"]).mean()
    first = list(dict.fromkeys(sub["measure"]))
    outside = [m for m in first if m not in mean_rank.index]
    measures = sorted(mean_rank.index, key=lambda m: (mean_rank[m], first.index(m))) + outside
    step = row_step(len(measures) * len(levels), overhead_in=0.45 * len(levels) + 1.4)
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False, sharey=True, sharex=True, layout="constrained",
                             figsize=(PAGE_IN if len(humans) > 1 else COLUMN_IN,
                                      step * len(measures) * len(levels) + 0.45 * len(levels) + 0.5))
    y = np.arange(len(measures))
    top = int(np.nanmax(clusters)) if clusters.notna().any() else 1
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            ax = axes[i, j]
            panel = sub[(sub["level"] == level) & (sub["human"] == human)].set_index("measure").reindex(measures)
            values = panel["value"].to_numpy(float)
            cl = panel["cluster"].astype("float64").to_numpy()
            ok = ~np.isnan(cl) & ~np.isnan(values)
            grey = ~ok & ~np.isnan(values)
            for k in np.flatnonzero(ok):
                ax.barh(y[k], values[k], height=0.75, **series_style(int(cl[k]) - 1, "bar"))
            ax.barh(y[grey], values[grey], color="0.75", height=0.75)
            for k in np.flatnonzero(ok):
                ax.annotate(f"{int(cl[k])}", (values[k], y[k]), xytext=(2 if values[k] >= 0 else -2, 0),
                            textcoords="offset points", ha="left" if values[k] >= 0 else "right", va="center",
                            fontsize=6.5, color="0.25", annotation_clip=False)
            for k in np.flatnonzero(np.isnan(values) & np.isin(measures, list(panel.dropna(how="all").index))):
                ax.text(0.02, y[k], "undefined", transform=ax.get_yaxis_transform(), va="center", fontsize=6.5,
                        color="0.4", style="italic")
            ax.axvline(0, color="0.3", lw=0.8)
            ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
            ax.margins(x=0.15)
            ax.grid(axis="y", visible=False)
            if i == len(levels) - 1:
                ax.set_xlabel(display(coefficient))
    axes[0, 0].set_yticks(y, [display(m) for m in measures])
    axes[0, 0].set_ylim(len(measures) - 0.5, -0.5)  # best at the top; a row without a bar not on the axis line
    facet_titles(axes, humans, levels)
    title = suptitle(fig, f"Ranking by {display(coefficient)}: rows by mean rank over the panels; at a bar's end "
                          "its significance cluster (1 = not significantly worse than the best)")
    # room for the title's lines (four on a column) and at least 0.6 in of bars a panel: two measures in one
    # column-wide panel had 0.5 in for the title, the panel's name and its axis, and the layout collapsed
    title_in = title.get_window_extent(fig.canvas.get_renderer()).height / fig.dpi
    fig.set_figheight(max(step * len(measures), 0.6) * len(levels) + 0.45 * len(levels) + 0.3 + title_in)
    how = significance_text(test, correction, alpha)
    grey = "role" in ranking and ((ranking["role"] != "measure") & ranking["cluster"].isna()).any()
    caption = ((f"Clusters by {how}; " if how else "") + "bar colour = cluster"
               + ("; grey: each annotator against the mean of the others, and their mean (the human ceiling), "
                  "not ranked." if grey else "."))
    _caption(fig, caption, handles=[Patch(label=f"cluster {c}", **series_style(c - 1, "bar"))
                                    for c in range(1, top + 1)] if top <= 8 else None)
    return fig, axes
