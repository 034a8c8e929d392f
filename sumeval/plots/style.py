"""The house style of sumeval's figures: sizes for an ACL column and page, a colour-blind-safe
palette, type readable at print size; and :func:`layout_problems`, which measures a drawn figure's
text (overlaps, text outside the figure).

Every plotting function of :mod:`sumeval.plots` draws inside :func:`house_style` (a decorator that
sets :data:`HOUSE_STYLE` while the figure is made), so ``"C0"``, ``"C1"``, ... are the Okabe-Ito
colours and the type is 8-9 pt whatever the notebook's own settings.

Sizes: ACL's column is 7.7 cm (:data:`COLUMN_IN` = 3.15 in), its text 16 cm (:data:`PAGE_IN` =
6.5 in, a ``figure*``); a figure drawn wider is scaled down when pasted, and its type with it.
Palette: Okabe & Ito (2008), "Color Universal Design", the eight colours distinguishable under
protanopia, deuteranopia and tritanopia (black moved last: it is the text's colour). Their yellow is
left out of the cycle that lines, dots and bars take (:func:`palette_cycle`): on white paper it is
too faint for a line or a marker (contrast 1.3:1; the others at least 2.2:1).
"""
from __future__ import annotations

import functools
from typing import Callable

__all__ = ["COLUMN_IN", "PAGE_IN", "OKABE_ITO", "CYCLE", "HOUSE_STYLE", "LINE_STYLES", "MARKERS", "HATCHES",
           "cell_grid", "colour", "contrast_on_white", "house_style", "layout_problems", "series_style"]

#: ACL's column width (7.7 cm) in inches
COLUMN_IN = 3.15
#: ACL's text width (16 cm) in inches: a ``figure*``
PAGE_IN = 6.5
#: Okabe-Ito: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, black
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")
#: matplotlib settings of every sumeval figure (8-9 pt type: readable in print at 1:1)
HOUSE_STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 200,
    "savefig.bbox": "tight",
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.labelsize": 8,
    "figure.titlesize": 9,
    "legend.fontsize": 7.5,
    "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "image.cmap": "viridis",  # perceptually uniform, readable in grey and under colour-vision deficiency
    "pdf.fonttype": 42,  # embed TrueType: text stays text in the PDF
}


#: the colours lines, dots and bars take, in order: blue, orange, bluish green, vermillion, sky blue,
#: reddish purple, black (Okabe-Ito without its yellow, too faint on white)
CYCLE = tuple(OKABE_ITO[i] for i in (4, 0, 2, 5, 1, 6, 7))


def palette_cycle():
    from cycler import cycler

    return cycler(color=list(CYCLE))


def colour(i: int) -> str:
    """The ``i``-th colour of the house cycle (:data:`CYCLE`, Okabe-Ito; it repeats after
    ``len(CYCLE)``: a series per item takes :func:`series_style`), as a hex string: fixed when
    drawn, not resolved later against whatever colour cycle is set when the figure is saved (as
    ``"C0"`` is)."""
    return CYCLE[i % len(CYCLE)]


#: the second channel of a series past the cycle's colours: the k-th time round :data:`CYCLE` a series
#: takes the k-th line style and marker (lines), marker (dots) or hatch (bars)
LINE_STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D")
HATCHES = (None, "////", "....", "xxxx")


def series_style(i: int, kind: str = "line") -> dict:
    """How the ``i``-th series of a plot that draws one series per item (measure, judge, model,
    source) is drawn, as keyword arguments of ``ax.plot`` / ``ax.bar``: its colour (:func:`colour`)
    and, because the colours repeat after ``len(CYCLE)`` series, a second channel that changes each
    time round the cycle, so that no two series of a legend look alike:

    * ``"line"``: ``color``, ``linestyle`` (:data:`LINE_STYLES`) and ``marker`` (:data:`MARKERS`);
      the first 7 series are solid lines with round markers;
    * ``"marker"``: ``color`` and ``marker`` (dots without a line);
    * ``"bar"``: ``facecolor`` and ``hatch`` (:data:`HATCHES`, drawn white over the colour); the first
      7 bars are plain. The hatch takes its colour from a white edge of width 0, which every matplotlib
      since 3.7 draws so (``hatchcolor`` exists only from 3.11).

    >>> series_style(0), series_style(7)["linestyle"], series_style(8, "bar")["hatch"]
    ({'color': '#0072B2', 'linestyle': '-', 'marker': 'o'}, '--', '////')
    """
    turn = i // len(CYCLE) % len(LINE_STYLES)
    if kind == "line":
        return {"color": colour(i), "linestyle": LINE_STYLES[turn], "marker": MARKERS[turn]}
    if kind == "marker":
        return {"color": colour(i), "marker": MARKERS[turn]}
    if kind == "bar":
        if HATCHES[turn] is None:
            return {"facecolor": colour(i), "hatch": None}
        return {"facecolor": colour(i), "hatch": HATCHES[turn], "edgecolor": "white", "linewidth": 0}
    raise ValueError(f"series_style: kind {kind!r} is not one of 'line', 'marker', 'bar'")


def contrast_on_white(c) -> float:
    """WCAG 2.1's contrast ratio of colour ``c`` against white, ``(1 + 0.05) / (L + 0.05)`` with ``L``
    the relative luminance of the sRGB colour (W3C, Web Content Accessibility Guidelines 2.1,
    "contrast ratio" and "relative luminance" definitions)."""
    from matplotlib.colors import to_rgb

    r, g, b = (x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in to_rgb(c))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def house_style(function: Callable) -> Callable:
    """Draw ``function``'s figure in :data:`HOUSE_STYLE` (and the Okabe-Ito colour cycle); the
    caller's matplotlib settings are back as they were afterwards."""
    @functools.wraps(function)
    def drawn(*args, **kwargs):
        import matplotlib as mpl

        with mpl.rc_context({**HOUSE_STYLE, "axes.prop_cycle": palette_cycle()}):
            return function(*args, **kwargs)
    return drawn


def _texts(fig) -> list:
    """The figure's visible, non-empty text artists that are drawn (titles, labels, tick labels,
    legends, annotations): a tick label of a tick outside its axis' view limits, or of an axes whose
    axis lines are off (``ax.axis("off")``), is an artist that matplotlib keeps but does not draw, and
    is left out."""
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    undrawn = set()
    for axis in fig.findobj(Axis):
        if axis.axes is not None and not axis.axes.axison:  # ax.axis("off"): none of its ticks is drawn
            undrawn |= {id(t) for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                        for t in (tick.label1, tick.label2)}
            continue
        drawn = {id(t) for tick in axis._update_ticks() for t in (tick.label1, tick.label2)}
        undrawn |= {id(t) for tick in axis.get_major_ticks() + axis.get_minor_ticks()
                    for t in (tick.label1, tick.label2) if id(t) not in drawn}
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and t.figure is fig
            and (t.axes is None or t.axes.get_visible()) and id(t) not in undrawn]


def layout_problems(fig, *, tolerance_px: float = 0.5) -> list[str]:
    """What is wrong with ``fig``'s drawn text, measured by the renderer (empty: nothing): two text
    artists whose boxes overlap by more than ``tolerance_px`` both ways, and text reaching outside
    the figure. A text inside a cell of a heat map counts as a text like any other."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    texts = _texts(fig)
    extents = [(t, t.get_window_extent(renderer)) for t in texts]
    problems = []
    for t, e in extents:
        if (e.x0 < box.x0 - tolerance_px or e.y0 < box.y0 - tolerance_px or e.x1 > box.x1 + tolerance_px
                or e.y1 > box.y1 + tolerance_px):
            problems.append(f"{t.get_text()!r} reaches outside the figure ({e.x0:.0f}..{e.x1:.0f} x "
                            f"{e.y0:.0f}..{e.y1:.0f} px in {box.width:.0f} x {box.height:.0f})")
    for i, (a, ea) in enumerate(extents):
        for b, eb in extents[i + 1:]:
            dx = min(ea.x1, eb.x1) - max(ea.x0, eb.x0)
            dy = min(ea.y1, eb.y1) - max(ea.y0, eb.y0)
            if dx > tolerance_px and dy > tolerance_px:
                problems.append(f"{a.get_text()!r} overlaps {b.get_text()!r}")
    return problems


#: the tallest figure drawn: ACL's text height (24.7 cm) less a caption's lines
MAX_HEIGHT_IN = 9.0


def wrap(fig, text: str, fontsize: float = 7.5, width_in: float | None = None) -> str:
    """``text`` wrapped to lines no wider than ``width_in`` (default: the figure's width less 0.1 in),
    measured by the renderer at ``fontsize``; lines of about equal length (no last line of a word or
    two: "alpha =" / "0.05")."""
    import textwrap

    from matplotlib.text import Text

    width_in = (fig.get_figwidth() - 0.1) if width_in is None else width_in
    renderer = fig.canvas.get_renderer()
    chars = max(20, int(width_in * 72 / (0.45 * fontsize)))
    while True:
        lines = textwrap.wrap(text, chars) or [""]
        probe = Text(0, 0, "\n".join(lines), fontsize=fontsize, figure=fig)
        if probe.get_window_extent(renderer).width / fig.dpi <= width_in or chars <= 20:
            break
        chars -= 4
    # balanced: the narrowest wrap with as many lines (narrower lines stay inside the width)
    while len(lines) > 1 and chars > 10:
        narrower = textwrap.wrap(text, chars - 2, break_long_words=False)  # never split a word to balance
        if len(narrower) != len(lines) or max(map(len, narrower)) > chars - 2:  # nor let a long word widen it
            break
        lines, chars = narrower, chars - 2
    return "\n".join(lines)


def footer(fig, *, caption: str | None = None, handles: list | None = None, ncol: int | None = None,
           fontsize: float = 7.5, gap_in: float = 0.06):
    """A legend (``handles``) and a caption below the panels, inside the figure: the figure grows by
    their height and its layout engine keeps the panels above them. Returns ``(legend, text)``
    (None where not asked for). The figure must use the constrained layout."""
    renderer = fig.canvas.get_renderer()
    height = fig.get_figheight()
    legend = text = None
    parts = []
    if caption:
        text = fig.text(0.5, 0, wrap(fig, caption, fontsize), ha="center", va="bottom", fontsize=fontsize,
                        in_layout=False)
        parts.append(text)
    if handles:
        ncol = ncol or len(handles)
        while True:
            legend = fig.legend(handles=handles, loc="lower center", ncol=ncol, frameon=False, fontsize=fontsize,
                                handlelength=1.5, columnspacing=1.0, borderaxespad=0)
            if legend.get_window_extent(renderer).width / fig.dpi <= fig.get_figwidth() - 0.1 or ncol == 1:
                break
            legend.remove()
            ncol -= 1
        legend.set_in_layout(False)
        parts.insert(0, legend)
    extents = [p.get_window_extent(renderer).height / fig.dpi for p in parts]
    added = sum(extents) + gap_in * (len(parts) + 1)
    fig.set_figheight(height + added)
    y = gap_in  # from the bottom up: the caption, then the legend
    for part, h in reversed(list(zip(parts, extents))):
        if part is text:
            text.set_y(y / (height + added))
        else:
            legend.set_bbox_to_anchor((0.5, y / (height + added)), transform=fig.transFigure)
        y += h + gap_in
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.set(rect=(0, added / (height + added), 1, height / (height + added)))
    # placed: back in the layout, so that a saved figure's tight box (savefig.bbox "tight" counts only the
    # artists in the layout) keeps them; the constrained layout does not move a figure legend or text
    for part in parts:
        part.set_in_layout(True)
    return legend, text


def suptitle(fig, text: str, fontsize: float | None = None):
    """``fig``'s title, wrapped to its width (a long title on a column-wide figure takes two lines
    instead of running past its edges)."""
    import matplotlib as mpl

    fontsize = fontsize or mpl.rcParams["figure.titlesize"]
    return fig.suptitle(wrap(fig, text, fontsize if isinstance(fontsize, (int, float)) else 9), fontsize=fontsize)


def row_step(n_rows: int, *, overhead_in: float, lo: float = 0.12, hi: float = 0.17) -> float:
    """The height (inches) of one row of labels in a figure of ``n_rows`` label rows and
    ``overhead_in`` of titles, axes and captions: ``hi`` when the figure fits in
    :data:`MAX_HEIGHT_IN`, less down to ``lo`` (a 7.5 pt label's own height) when not."""
    if n_rows <= 0:
        return hi
    return float(min(hi, max(lo, (MAX_HEIGHT_IN - overhead_in) / n_rows)))


def facet_titles(axes, cols: list, rows: list, *, fontsize: float = 8) -> None:
    """Name a grid's panels: with one row (or no row values) each panel's title is ``col / row``;
    with several rows, the columns are named once on top and the rows once at the right of the
    last column (turned), so that no title runs into its neighbour's."""
    from sumeval.display_names import display

    n_rows, n_cols = axes.shape
    several = n_rows > 1 and any(r is not None for r in rows)
    for i in range(n_rows):
        for j in range(n_cols):
            ax = axes[i, j]
            c, r = cols[j] if j < len(cols) else None, rows[i] if i < len(rows) else None
            if not several:
                heading = " / ".join(display(v) for v in (c, r) if v is not None)
                if heading:
                    ax.set_title(heading, fontsize=fontsize)
                continue
            if i == 0 and c is not None:
                ax.set_title(display(c), fontsize=fontsize)
            if j == n_cols - 1 and r is not None:
                ax.annotate(display(r), (1.0, 0.5), xycoords="axes fraction", xytext=(4, 0),
                            textcoords="offset points", rotation=270, ha="left", va="center", fontsize=fontsize,
                            fontweight="bold")


def cell_grid(ax, n_columns: int, n_rows: int) -> None:
    """White lines between the cells of a heat map drawn with ``imshow`` (``n_columns`` x ``n_rows``
    cells), the major grid off."""
    import numpy as np

    ax.set_xticks(np.arange(n_columns + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
    ax.tick_params(which="minor", length=0)
    ax.grid(False)
    ax.grid(which="minor", color="white", lw=0.8)
