"""A long frame of numbers (correlations, scores) as the wide frame of a paper table, with the
paper's rows beside ours and the cells' intervals: :func:`correlation_table`,
:func:`correlation_intervals`, for :mod:`sumeval.tables` to typeset. Rows and columns keep the
order they first appear in.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = ["correlation_table", "correlation_intervals"]


def _ordered_pivot(frame: pd.DataFrame, index: str, columns: list[str], value: str) -> pd.DataFrame:
    """``frame`` pivoted to ``index`` x ``columns`` (a MultiIndex when several), rows and columns in
    the order they first appear (not sorted).

    Raises:
        InputError: two rows of ``frame`` for one cell (the table would have to pick one).
    """
    dup = frame.duplicated([index, *columns], keep=False)
    if dup.any():
        first = frame.loc[dup, [index, *columns]].iloc[0].to_dict()
        raise InputError(f"{int(dup.sum())} rows share a table cell (e.g. {first}); filter the frame to "
                         f"one row per ({index}, {', '.join(columns)})")
    wide = frame.pivot_table(index=index, columns=columns, values=value, aggfunc="first", dropna=False)
    rows = list(dict.fromkeys(frame[index]))
    if len(columns) == 1:
        cols = list(dict.fromkeys(frame[columns[0]]))
    else:
        cols = pd.MultiIndex.from_tuples(list(dict.fromkeys(map(tuple, frame[columns].to_numpy()))),
                                         names=columns)
    return wide.reindex(index=rows, columns=cols)


def correlation_table(comparison: pd.DataFrame, *, columns: tuple[str, ...] = ("human", "method"),
                      value: str = "ours", index: str = "metric",
                      higher_is_better: bool | Mapping[Any, bool] = True,
                      paper_label: Callable[[str], str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A long frame of numbers (correlations, or any score) as a paper-ready table: one row per
    ``index`` value (a metric), one column per ``columns`` combination (e.g. (human, method)),
    cells ``value``; with the paper's numbers (a ``paper`` column with values) each row gets a
    second row ``(<the paper's name of the row>, "paper")``.

    Args:
        comparison: long frame with ``index``, ``columns``, ``value`` and optionally ``paper``.
        columns, value, index: what makes the table's columns, cells and rows (in the order they
            first appear).
        higher_is_better: the direction of every column, or a mapping column -> direction
            (columns left out of the mapping get no bold; :func:`sumeval.tables.best_mask`).
        paper_label: the name of the paper's row beside one of ours (default
            :func:`sumeval.display_names.paper_row_label`: ``"BERTScore-F (all-mpnet-base-v2)"``
            is compared with the paper's ``"BERTScore-F (roberta-large)"``; other rows keep
            their name).

    Returns:
        ``(table, bold)``: the table, and where the best of each column among our rows is (the
        paper's rows are never bold). Feed both to ``ctx.save_table``.
    """
    from sumeval.display_names import paper_row_label
    from sumeval.tables import best_mask

    label = paper_label or paper_row_label
    ours = _ordered_pivot(comparison, index, list(columns), value)
    ours.index.name = index
    bold = best_mask(ours, higher_is_better=higher_is_better)
    if "paper" not in comparison or comparison["paper"].isna().all():
        return ours, bold
    paper = _ordered_pivot(comparison, index, list(columns), "paper")
    values, masks, rows = [], [], []
    for name in ours.index:
        values.append(ours.loc[name].to_numpy(float))
        masks.append(bold.loc[name].to_numpy(bool))
        rows.append((name, "ours"))
        if paper.loc[name].notna().any():
            values.append(paper.loc[name].to_numpy(float))
            masks.append(np.zeros(ours.shape[1], dtype=bool))
            rows.append((label(name), "paper"))
    rows = pd.MultiIndex.from_tuples(rows, names=[index, "source"])
    return (pd.DataFrame(values, index=rows, columns=ours.columns),
            pd.DataFrame(masks, index=rows, columns=ours.columns))


def correlation_intervals(comparison: pd.DataFrame, table: pd.DataFrame, *,
                          columns: tuple[str, ...] = ("human", "method"), index: str = "metric",
                          low: str = "ci_low", high: str = "ci_high") -> tuple[pd.DataFrame, pd.DataFrame]:
    """The intervals of :func:`correlation_table`'s cells: ``(low, high)``, two frames of
    ``table``'s shape (NaN on the paper's rows and where ``comparison`` has no interval), for
    ``write_table(..., intervals=...)``.

    Args:
        comparison: the long frame the table was made from, with ``low`` and ``high`` columns.
        table: :func:`correlation_table`'s table of it (same ``columns`` and ``index``).
    """
    missing = [c for c in (low, high) if c not in comparison]
    if missing:
        raise InputError(f"the frame has no {' or '.join(missing)} column: no intervals to show "
                         f"(columns: {', '.join(map(str, comparison.columns))})")
    out = []
    for column in (low, high):
        wide = _ordered_pivot(comparison, index, list(columns), column)
        if isinstance(table.index, pd.MultiIndex):  # (metric, "ours" / "paper") rows
            frame = pd.DataFrame(np.nan, index=table.index, columns=table.columns)
            for i, (name, source) in enumerate(table.index):
                if source == "ours":
                    frame.iloc[i] = wide.loc[name].reindex(table.columns).to_numpy(float)
        else:
            frame = wide.reindex(index=table.index, columns=table.columns).astype(float)
        out.append(frame)
    return out[0], out[1]
