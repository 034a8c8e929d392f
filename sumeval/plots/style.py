"""The house style of sumeval's figures: sizes for an ACL column and page, a colour-blind-safe
palette, type readable at print size; and :func:`layout_problems`, which measures a drawn figure's
text (overlaps, text outside the figure).

Every plotting function of :mod:`sumeval.plots` draws inside :func:`house_style` (a decorator that
sets :data:`HOUSE_STYLE` while the figure is made), so ``"C0"``, ``"C1"``, ... are the Okabe-Ito
colours and the type is 8-9 pt whatever the notebook's own settings.

Sizes: ACL's column is 7.7 cm (:data:`COLUMN_IN` = 3.15 in), its text 16 cm (:data:`PAGE_IN` =
6.5 in, a ``figure*``); a figure drawn wider is scaled down when pasted, and its type with it.
Palette: Okabe & Ito (2008), "Color Universal Design", the eight colours distinguishable under
protanopia, deuteranopia and tritanopia (black moved last: it is the text's colour).
"""
from __future__ import annotations

import functools
from typing import Callable

__all__ = ["COLUMN_IN", "PAGE_IN", "OKABE_ITO", "HOUSE_STYLE", "colour", "house_style", "layout_problems"]

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


def _cycle():
    from cycler import cycler

    return cycler(color=[OKABE_ITO[i] for i in (4, 0, 2, 5, 1, 6, 3, 7)])  # blue, orange, green, vermillion, ...


def colour(i: int) -> str:
    """The ``i``-th colour of the house cycle (Okabe-Ito), as a hex string: fixed when drawn, not
    resolved later against whatever colour cycle is set when the figure is saved (as ``"C0"`` is)."""
    return _cycle().by_key()["color"][i % 8]


def house_style(function: Callable) -> Callable:
    """Draw ``function``'s figure in :data:`HOUSE_STYLE` (and the Okabe-Ito colour cycle); the
    caller's matplotlib settings are back as they were afterwards."""
    @functools.wraps(function)
    def drawn(*args, **kwargs):
        import matplotlib as mpl

        with mpl.rc_context({**HOUSE_STYLE, "axes.prop_cycle": _cycle()}):
            return function(*args, **kwargs)
    return drawn


def _texts(fig) -> list:
    """The figure's visible, non-empty text artists (titles, labels, tick labels, legends, annotations)."""
    from matplotlib.text import Text

    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and t.figure is fig
            and (t.axes is None or t.axes.get_visible())]


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
