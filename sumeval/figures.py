"""Paper style for figures, and saving them.

Plotting functions (:mod:`sumeval.plots`) return ``(fig, ax)`` and never save; notebooks call
``RunContext.save_figure`` (or :func:`save`), which writes each format atomically. A successful
run's figures and tables are then published under ``figures/<study>/`` by
:mod:`sumeval.running.publish`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from sumeval.cache import atomic_path
from sumeval.paths import figures_dir
from sumeval.plots.style import HOUSE_STYLE

__all__ = ["PAPER_STYLE", "apply_style", "save"]

#: the house style (:data:`sumeval.plots.style.HOUSE_STYLE`): every plotting function draws in it
PAPER_STYLE = HOUSE_STYLE


#: the house style's settings that act when a figure is saved (resolution, the tight box, fonts in the PDF)
SAVE_STYLE = {k: v for k, v in HOUSE_STYLE.items() if k.startswith(("savefig.", "pdf."))}


def apply_style() -> None:
    """Use sumeval's paper style for matplotlib figures drawn after this call (a notebook's own
    figures; :mod:`sumeval.plots` draws each of its figures in the style without this, and
    :func:`save` saves in it)."""
    import matplotlib as mpl

    from sumeval.plots.style import palette_cycle

    mpl.rcParams.update({**PAPER_STYLE, "axes.prop_cycle": palette_cycle()})


def save(fig, study: str, name: str, *, formats: Iterable[str] = ("pdf", "png"),
         folder: Path | None = None) -> list[Path]:
    """Save ``fig`` as ``<folder>/<study>/<name>.<fmt>`` for each format (``folder`` defaults to
    :func:`sumeval.paths.figures_dir`; ``study=""`` saves into ``folder`` itself); return the paths.

    ``name`` is a plain file stem such as ``"table1_rouge"``; an existing figure of the same
    name is replaced atomically (never left half-written). Saved in the house style's
    :data:`SAVE_STYLE` whatever the caller's matplotlib settings, which it leaves as they were.
    """
    import matplotlib as mpl

    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"figure name {name!r} must be a plain file stem such as 'table1_rouge'")
    out = (folder or figures_dir()) / study
    paths = []
    for fmt in formats:
        target = out / f"{name}.{fmt}"
        with atomic_path(target) as tmp, mpl.rc_context(SAVE_STYLE):
            fig.savefig(tmp, format=fmt)
        paths.append(target)
    return paths
