"""ipywidgets explorers over the same tidy frames the studies write (imported lazily).

Notebooks show an explorer only when ``interactive=True``; the runner passes False.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

ALL = "(all)"


def filter_frame(frame: pd.DataFrame, selection: dict[str, str]) -> pd.DataFrame:
    """Rows of ``frame`` matching ``selection`` (``{column: value}``; ``"(all)"`` keeps every value)."""
    mask = pd.Series(True, index=frame.index)
    for col, value in selection.items():
        if value != ALL:
            mask &= frame[col].astype(str) == str(value)
    return frame[mask]


def frame_explorer(frame: pd.DataFrame, filters: Sequence[str], *, value: str = "value",
                   bar_by: str | None = "method", label_by: str = "metric", title: str = ""):
    """Dropdowns (one per column in ``filters``) that slice ``frame``; shows the table and a bar chart.

    Returns the ``ipywidgets.VBox``; ``.children[0]`` holds the dropdowns and ``.children[1]`` the
    output area. ``box.selection()`` gives the current ``{column: value}``; ``box.current()`` the
    filtered frame; ``box.last_shown`` the frame drawn last.
    """
    import ipywidgets as w
    import matplotlib.pyplot as plt
    from IPython.display import display

    dropdowns = {
        col: w.Dropdown(options=[ALL] + sorted(map(str, frame[col].dropna().unique())), value=ALL,
                        description=col, layout=w.Layout(width="240px"))
        for col in filters
    }
    out = w.Output()

    def selection() -> dict[str, str]:
        return {c: d.value for c, d in dropdowns.items()}

    def current() -> pd.DataFrame:
        return filter_frame(frame, selection())

    def redraw(*_):
        sub = current()
        box.last_shown = sub
        out.clear_output(wait=True)
        with out:
            if sub.empty:
                print("no rows for this selection")
                return
            display(sub.reset_index(drop=True))
            if bar_by and bar_by in sub and label_by in sub and len(sub) <= 200:
                pivot = sub.pivot_table(index=label_by, columns=bar_by, values=value, aggfunc="mean")
                fig, ax = plt.subplots(figsize=(6, 0.3 * len(pivot) + 1.2))
                pivot.plot.barh(ax=ax)
                ax.legend(title=bar_by, fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
                ax.set_xlabel(value)
                ax.set_title(title)
                fig.tight_layout()
                plt.show()

    box = w.VBox([w.HBox(list(dropdowns.values())), out])
    for d in dropdowns.values():
        d.observe(redraw, names="value")
    box.selection = selection
    box.current = current
    redraw()
    return box
