"""Figures of a meta-evaluation: correlations with intervals, the p-value matrix, the ranking.

Pure functions over the tidy frames :mod:`sumeval.meta_eval` writes (the column names of
``correlations.csv``, ``pairwise.csv`` and ``ranking.csv``); each returns ``(fig, axes)``.
Names are shown readable (:mod:`sumeval.display_names`), and every figure that shows
significance (the clusters, the tests) names the test, the correction and alpha
(:func:`significance_text`).
"""
from __future__ import annotations

import textwrap
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.display_names import display
from sumeval.plots.style import colour, house_style

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


def _caption(fig, text: str, width: int = 110, below_pt: float = 4) -> None:
    """``text`` under the figure, ``below_pt`` points below its lower edge, wrapped (saved with
    it: figures are saved with a tight bounding box)."""
    from matplotlib.transforms import ScaledTranslation

    shift = ScaledTranslation(0, -below_pt / 72, fig.dpi_scale_trans)
    fig.text(0.5, 0.0, "\n".join(textwrap.wrap(text, width)), ha="center", va="top", fontsize=8,
             transform=fig.transFigure + shift)


@house_style
def correlation_intervals(correlations: pd.DataFrame, *, coefficient: str | None = None,
                          measure_order: Sequence[str] | None = None,
                          human_order: Sequence[str] | None = None,
                          level_order: Sequence[str] | None = None,
                          ranking: pd.DataFrame | None = None, title: str | None = None,
                          test: str | None = None, correction: str | None = None, alpha: float | None = None):
    """Each measure's correlation with its bootstrap interval, one panel per (level, human).

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

    frame = correlations
    coefficient = coefficient or frame["coefficient"].iloc[0]
    frame = frame[frame["coefficient"] == coefficient]
    levels = _order(frame["level"], level_order)
    humans = _order(frame["human"], human_order)
    measures = _order(frame["measure"], measure_order)
    refs = set(frame.loc[frame["role"] != "measure", "measure"]) if "role" in frame else set()
    ref = np.array([m in refs for m in measures], dtype=bool)
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False, sharey=True,
                             figsize=(2.5 * len(humans) + 1.2, 0.28 * len(measures) * len(levels) + 1.3))
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
            ax.set_title(f"{display(human)} / {display(level)}")
            if i == len(levels) - 1:
                ax.set_xlabel(display(coefficient))
    axes[0, 0].invert_yaxis()
    fig.suptitle(title or f"Correlation with the human scores ({display(coefficient)}), bootstrap intervals")
    fig.tight_layout()
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
                  adjusted: bool = True, alpha: float = 0.05, ax=None, caption: bool = True):
    """The pairwise tests of one human and level as a matrix, best measure first.

    Rows and columns are the measures by rank (:func:`pvalue_cells`). A cell compares its row's
    measure with its column's: blue when the row's correlates higher, orange when the column's
    does; saturated when the difference is significant (p < ``alpha``, corrected p-values by
    default), pale when not. Each cell prints its p-value; the caption names the test, the
    correction and alpha (``caption=False`` leaves it to the caller, as :func:`pvalue_grid` does).

    Returns:
        ``(fig, ax)``; ``ax.images[0].get_array()`` is the matrix of :func:`pvalue_codes`
        (rows, columns in the order of the tick labels).
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap

    coefficient = coefficient or pairwise["coefficient"].iloc[0]
    measures, p, diff = pvalue_cells(pairwise, human=human, level=level, coefficient=coefficient, ranking=ranking,
                                     measure_order=measure_order, adjusted=adjusted)
    codes = pvalue_codes(p, diff, alpha)
    if ax is None:
        size = 0.45 * len(measures) + 1.8
        fig, ax = plt.subplots(figsize=(size + 0.6, size))
    else:
        fig = ax.figure
    # interpolation "none": a PDF holds the n x n cells as they are, not resampled at 200 dpi (a
    # 41 x 41 grid's panels are 18 inches wide); a PNG's cells are the same pixels (nearest)
    ax.imshow(np.ma.masked_invalid(codes), cmap=ListedColormap(_CODE_COLOURS),
              norm=BoundaryNorm([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], 5), aspect="equal", interpolation="none")
    n = len(measures)
    names = [display(m) for m in measures]
    ax.set_xticks(range(n), names, rotation=60, ha="right")
    ax.set_yticks(range(n), names)
    ax.grid(False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    for a in range(n):
        for b in range(n):
            if np.isnan(p[a, b]):
                continue
            # inside its cell: out of the layout, which would otherwise measure every cell's text
            # (tight_layout, and savefig's tight bounding box: thousands of texts in a big grid)
            ax.text(b, a, f"{p[a, b]:.2f}" if p[a, b] >= 0.01 else "<.01", ha="center", va="center", fontsize=6,
                    color="white" if abs(codes[a, b]) == 2 else "black", in_layout=False)
    ax.set_title(f"{display(human)} / {display(level)}")
    sub = pairwise[pairwise["coefficient"] == coefficient]
    if caption:
        fig.tight_layout()
        _caption(fig, pvalue_caption(_first(sub, "test"), _first(sub, "correction") if adjusted else None,
                                     alpha, coefficient))
    return fig, ax


def pvalue_caption(test: str | None, correction: str | None, alpha: float, coefficient: str | None) -> str:
    """The caption of a p-value matrix: what a cell shows and what decided significance."""
    how = significance_text(test, correction, alpha)
    return (f"Pairwise tests of the measures' {display(coefficient or 'correlation')} ({how}). Rows and columns by "
            "rank, best first; a cell compares its row's measure with its column's: blue: the row's measure "
            "correlates higher, orange: the column's; saturated: significant (p < alpha), pale: not; "
            "printed: the " + ("corrected " if correction else "") + "p-value.")


@house_style
def pvalue_grid(pairwise: pd.DataFrame, *, coefficient: str | None = None,
                measure_order: Sequence[str] | None = None, human_order: Sequence[str] | None = None,
                level_order: Sequence[str] | None = None, adjusted: bool = True, alpha: float = 0.05,
                ranking: pd.DataFrame | None = None):
    """:func:`pvalue_matrix` for every (level, human), one panel each, each ranked on its own,
    with one caption; returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    coefficient = coefficient or pairwise["coefficient"].iloc[0]
    levels = _order(pairwise["level"], level_order)
    humans = _order(pairwise["human"], human_order)
    n = len(set(pairwise["measure_a"]) | set(pairwise["measure_b"]))
    size = 0.4 * n + 1.6
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False,
                             figsize=(size * len(humans) + 1.0, size * len(levels) + 0.6))
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            pvalue_matrix(pairwise, human=human, level=level, coefficient=coefficient, ranking=ranking,
                          measure_order=measure_order, adjusted=adjusted, alpha=alpha, ax=axes[i, j], caption=False)
    sub = pairwise[pairwise["coefficient"] == coefficient]
    fig.suptitle(f"Pairwise tests ({display(coefficient)}): "
                 + significance_text(_first(sub, "test"), _first(sub, "correction") if adjusted else None, alpha))
    fig.tight_layout()
    fig.legend(handles=[Patch(color=_CODE_COLOURS[k + 2], label=PVALUE_CODES[k]) for k in (2, 1, 0, -1, -2)],
               loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=5, frameon=False, fontsize=8)
    _caption(fig, pvalue_caption(_first(sub, "test"), _first(sub, "correction") if adjusted else None, alpha,
                                 coefficient), width=150, below_pt=24)
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
        fig, ax = plt.subplots(figsize=(4.2, 0.3 * len(sub) + 1.2))
    else:
        fig = ax.figure
    clusters = sub["cluster"].astype("float64").to_numpy()
    values = sub["value"].to_numpy(float)
    ranked = ~np.isnan(clusters) & ~np.isnan(values)
    outside = (sub["role"] != "measure").to_numpy(bool) & ~ranked & ~np.isnan(values) if "role" in sub else \
        np.zeros(len(sub), dtype=bool)
    colours = [f"C{(int(c) - 1) % 10}" for c in clusters[ranked]]
    y = np.arange(len(sub))
    ax.barh(y[ranked], values[ranked], color=colours)
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
    """:func:`ranking_bars` for every (level, human), one panel each, the title saying what
    decided the clusters (``test``, ``correction``, ``alpha``); returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt

    coefficient = coefficient or ranking["coefficient"].iloc[0]
    levels = _order(ranking["level"], level_order)
    humans = _order(ranking["human"], human_order)
    n = ranking["measure"].nunique()
    longest = max((len(display(m)) for m in ranking["measure"]), default=0)  # labels take width from the bars
    fig, axes = plt.subplots(len(levels), len(humans), squeeze=False,
                             figsize=((3.6 + 0.065 * max(longest - 16, 0)) * len(humans) + 0.6,
                                      (0.26 * n + 1.0) * len(levels) + 0.4))
    for i, level in enumerate(levels):
        for j, human in enumerate(humans):
            ranking_bars(ranking, human=human, level=level, coefficient=coefficient, ax=axes[i, j])
    fig.suptitle(f"Ranking by {display(coefficient)}; [n]: significance cluster (1 = not significantly worse "
                 "than the best)")
    fig.tight_layout()
    how = significance_text(test, correction, alpha)
    if how:
        grey = "role" in ranking and ((ranking["role"] != "measure") & ranking["cluster"].isna()).any()
        _caption(fig, f"Clusters by {how}; bar colour = cluster"
                 + ("; grey: each annotator against the mean of the others, and their mean (the human ceiling), "
                    "not ranked." if grey else "."))
    return fig, axes
