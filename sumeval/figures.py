"""Paper style for figures and saving them under ``figures/<study>/`` as PDF and PNG.

Plotting functions (:mod:`sumeval.plots`) return ``(fig, ax)`` and never save; notebooks call
:func:`save` (or ``RunContext.save_figure``), which writes each format atomically.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from sumeval.cache import atomic_path
from sumeval.paths import figures_dir

PAPER_STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 200,
    "savefig.bbox": "tight",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "pdf.fonttype": 42,  # embed TrueType: text stays text in the PDF
}


def apply_style() -> None:
    """Use sumeval's paper style for matplotlib figures drawn after this call."""
    import matplotlib as mpl

    mpl.rcParams.update(PAPER_STYLE)


def save(fig, study: str, name: str, *, formats: Iterable[str] = ("pdf", "png"),
         folder: Path | None = None) -> list[Path]:
    """Save ``fig`` as ``<figures_dir>/<study>/<name>.<fmt>`` for each format; return the paths.

    ``name`` is a plain file stem such as ``"table1_rouge"``; an existing figure of the same
    name is replaced atomically (never left half-written).
    """
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"figure name {name!r} must be a plain file stem such as 'table1_rouge'")
    out = (folder or figures_dir()) / study
    paths = []
    for fmt in formats:
        target = out / f"{name}.{fmt}"
        with atomic_path(target) as tmp:
            fig.savefig(tmp, format=fmt)
        paths.append(target)
    return paths
