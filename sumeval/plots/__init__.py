"""Pure plotting functions: take tidy frames, return ``(fig, ax)``; never save or show.

Save with :func:`sumeval.figures.save` (or ``RunContext.save_figure``). One module per area:
``core`` (shared: published-vs-ours dot plots, heat maps) and one per study family.
"""
from sumeval.plots.core import heatmap, ours_vs_paper

__all__ = ["heatmap", "ours_vs_paper"]
