"""Paper-ready tables from one tidy frame: CSV, LaTeX (booktabs), Markdown and HTML.

Every format is rendered by pandas' :class:`~pandas.io.formats.style.Styler` from the same frame,
so the numbers, the bold cells and the marks agree across formats. The CSV keeps full precision
(it is data, not typesetting); the other formats round to ``precision`` digits.

>>> import pandas as pd
>>> t = pd.DataFrame({"consistency": [0.41, 0.38]}, index=pd.Index(["estime", "rouge-2"], name="measure"))
>>> print(to_markdown(t, bold=best_mask(t)))
| measure | consistency |
|---|---|
| estime | **0.410** |
| rouge-2 | 0.380 |

Conventions
-----------
- ``bold``: a boolean frame of the table's shape (cells typeset in bold), e.g. :func:`best_mask`
  (the best value of each column, ties included).
- ``marks``: a frame of strings of the table's shape, appended to a cell as a superscript (LaTeX
  ``$^{1}$``, Markdown and HTML ``<sup>1</sup>``); empty or missing strings add nothing. The
  meta-evaluation marks each value with its significance cluster this way.
- NaN cells are shown as an en dash; they are never bold.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = ["best_mask", "correlation_table", "to_latex", "to_markdown", "to_html", "write_table", "FORMATS"]

#: the files :func:`write_table` writes, by suffix
FORMATS: tuple[str, ...] = ("csv", "tex", "md", "html")
_MISSING = "–"


def best_mask(frame: pd.DataFrame, *, higher_is_better: bool | Mapping[str, bool] = True,
              axis: int = 0) -> pd.DataFrame:
    """Where each column's (``axis=0``) or row's (``axis=1``) best value sits.

    Args:
        frame: numeric cells, shape (rows, columns); NaN is never best.
        higher_is_better: one direction for every column, or a mapping column -> direction
            (``axis=0`` only); columns not in the mapping are not marked.
        axis: 0 for the best of each column, 1 for the best of each row.

    Returns:
        A boolean frame of ``frame``'s shape; ties for the best are all True.
    """
    values = frame.apply(pd.to_numeric, errors="coerce")
    out = pd.DataFrame(False, index=frame.index, columns=frame.columns)
    if axis == 1:
        if not isinstance(higher_is_better, bool):
            raise InputError("best_mask(axis=1) takes one direction (higher_is_better=True/False)")
        best = values.max(axis=1) if higher_is_better else values.min(axis=1)
        return values.eq(best, axis=0) & values.notna()
    for col in frame.columns:
        if isinstance(higher_is_better, bool):
            direction = higher_is_better
        elif col in higher_is_better:
            direction = bool(higher_is_better[col])
        else:
            continue
        column = values[col]
        if column.notna().any():
            best = column.max() if direction else column.min()
            out[col] = (column == best) & column.notna()
    return out


def _check_shape(frame: pd.DataFrame, other: pd.DataFrame | None, what: str) -> pd.DataFrame | None:
    if other is None:
        return None
    if not isinstance(other, pd.DataFrame):
        raise InputError(f"{what} must be a DataFrame of the table's shape, got {type(other).__name__}")
    other = other.reindex(index=frame.index, columns=frame.columns)
    return other


_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def _latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``a_b & c`` -> ``a\\_b \\& c``)."""
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)


def _cell_text(value, precision: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return _MISSING
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.{precision}f}"
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(int(value))
    return str(value)


def _styler(frame: pd.DataFrame, fmt: str, *, precision: int, bold: pd.DataFrame | None,
            marks: pd.DataFrame | None, index: bool):
    """The Styler of ``frame`` for output format ``fmt`` (``latex``, ``markdown`` or ``html``)."""
    bold = _check_shape(frame, bold, "bold")
    bold = bold.fillna(False).astype(bool) if bold is not None else None
    marks = _check_shape(frame, marks, "marks")
    escape = {"latex": "latex", "html": "html", "markdown": None}[fmt]

    def wrap(text: str, is_bold: bool, mark: str) -> str:
        if is_bold and text not in (_MISSING, "--"):
            text = {"latex": f"\\textbf{{{text}}}", "markdown": f"**{text}**",
                    "html": f"<b>{text}</b>"}[fmt]
        if mark:
            text += {"latex": f"$^{{{mark}}}$", "markdown": f"<sup>{mark}</sup>",
                     "html": f"<sup>{mark}</sup>"}[fmt]
        return text

    def esc(text: str) -> str:
        if fmt == "latex" and text == _MISSING:
            return "--"
        if fmt == "latex":
            return _latex_escape(text)
        if fmt == "html":
            import html

            return html.escape(text)
        return text.replace("|", "\\|")

    cells = pd.DataFrame(index=frame.index, columns=frame.columns, dtype=object)
    for i in range(frame.shape[0]):
        for j in range(frame.shape[1]):
            value = frame.iat[i, j]
            is_bold = bool(bold.iat[i, j]) if bold is not None else False
            mark = marks.iat[i, j] if marks is not None else ""
            mark = "" if mark is None or (isinstance(mark, float) and math.isnan(mark)) else str(mark)
            cells.iat[i, j] = wrap(esc(_cell_text(value, precision)), is_bold, esc(mark))
    styler = cells.style
    if escape:
        styler = styler.format_index(escape=escape, axis=0).format_index(escape=escape, axis=1)
    else:
        styler = styler.format_index(lambda v: str(v).replace("|", "\\|"), axis=0)
        styler = styler.format_index(lambda v: str(v).replace("|", "\\|"), axis=1)
    if not index:
        styler = styler.hide(axis="index")
    return styler


def _flat(frame: pd.DataFrame) -> pd.DataFrame:
    """Column MultiIndex -> one level ``a / b``: Markdown has one header row."""
    if isinstance(frame.columns, pd.MultiIndex):
        frame = frame.copy()
        frame.columns = [" / ".join(str(p) for p in c) for c in frame.columns]
    return frame


def to_latex(frame: pd.DataFrame, *, precision: int = 3, bold: pd.DataFrame | None = None,
             marks: pd.DataFrame | None = None, caption: str | None = None,
             label: str | None = None, index: bool = True) -> str:
    """The table as LaTeX with booktabs rules (``\\toprule``, ``\\midrule``, ``\\bottomrule``).

    Needs ``\\usepackage{booktabs}`` in the document, and ``\\usepackage{multirow}`` when the
    index has several levels (pandas writes ``\\multirow`` for a repeated outer label, e.g.
    metric_correlations' ``table2_realsumm.tex``). Text is LaTeX-escaped.
    """
    styler = _styler(frame, "latex", precision=precision, bold=bold, marks=marks, index=index)
    n_index = frame.index.nlevels if index else 0
    column_format = "l" * n_index + "r" * frame.shape[1]
    kwargs = {"hrules": True, "column_format": column_format}
    if isinstance(frame.columns, pd.MultiIndex):
        kwargs["multicol_align"] = "c"
    if caption:
        kwargs["caption"] = _latex_escape(caption)
    if label:
        kwargs["label"] = label
        kwargs["position_float"] = "centering"
    return styler.to_latex(**kwargs)


def to_markdown(frame: pd.DataFrame, *, precision: int = 3, bold: pd.DataFrame | None = None,
                marks: pd.DataFrame | None = None, index: bool = True) -> str:
    """The table as a Markdown pipe table (GitHub / Jupyter flavour; one header row)."""
    flat = _flat(frame)
    bold = _flat(bold) if bold is not None else None
    marks = _flat(marks) if marks is not None else None
    if index:
        names = [n if n is not None else "" for n in flat.index.names]
        flat = flat.reset_index()
        flat.columns = [*names, *flat.columns[len(names):]]
        if bold is not None:
            bold = bold.reset_index(drop=True).reindex(columns=flat.columns, fill_value=False)
        if marks is not None:
            marks = marks.reset_index(drop=True).reindex(columns=flat.columns, fill_value="")
    styler = _styler(flat, "markdown", precision=precision,
                     bold=bold.set_axis(flat.index) if bold is not None else None,
                     marks=marks.set_axis(flat.index) if marks is not None else None, index=False)
    lines = styler.to_string(delimiter=" | ").rstrip("\n").split("\n")
    header, body = lines[0], lines[1:]
    out = [f"| {header} |", "|" + "---|" * flat.shape[1]]
    out += [f"| {line} |" for line in body]
    return "\n".join(out)


def to_html(frame: pd.DataFrame, *, precision: int = 3, bold: pd.DataFrame | None = None,
            marks: pd.DataFrame | None = None, index: bool = True) -> str:
    """The table as an HTML ``<table>`` fragment (for reports and notebooks)."""
    styler = _styler(frame, "html", precision=precision, bold=bold, marks=marks, index=index)
    return styler.to_html(escape=False)


def _notes_block(notes: Sequence[str], fmt: str) -> str:
    """``notes`` as text under a table in format ``fmt`` (``latex``, ``markdown``, ``html``)."""
    if not notes:
        return ""
    if fmt == "latex":
        return "".join(f"\\par\\footnotesize Note: {_latex_escape(n).replace(_MISSING, '--')}\n"
                       for n in notes)
    if fmt == "html":
        import html

        return "".join(f'<p class="note">Note: {html.escape(n)}</p>\n' for n in notes)
    return "\n" + "".join(f"Note: {n}\n\n" for n in notes)


def write_table(frame: pd.DataFrame, folder: str | Path, name: str, *, precision: int = 3,
                bold: pd.DataFrame | None = None, marks: pd.DataFrame | None = None,
                caption: str | None = None, index: bool = True,
                notes: Sequence[str] = ()) -> dict[str, Path]:
    """Write ``name.csv`` (full precision), ``name.tex``, ``name.md`` and ``name.html`` in ``folder``.

    Each file is written to a temporary file and renamed, so none is ever half-written.
    ``notes`` (sentences, e.g. why a cell is undefined) go under the table in the LaTeX (inside
    its ``table`` float, when there is one), Markdown and HTML files; the CSV holds only data.

    Returns:
        ``{suffix: path}`` for the four files.
    """
    from sumeval.cache import atomic_path, atomic_write_text

    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"a table must be a pandas DataFrame, got {type(frame).__name__}")
    if not name or any(c in name for c in "/\\") or name.startswith("."):
        raise InputError(f"table name {name!r} must be a plain file name (no folders, not hidden)")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    with atomic_path(folder / f"{name}.csv") as tmp:
        frame.to_csv(tmp, index=index)
    out["csv"] = folder / f"{name}.csv"
    label = f"tab:{name}"
    tex = to_latex(frame, precision=precision, bold=bold, marks=marks, caption=caption,
                   label=label if caption else None, index=index)
    end = tex.rfind("\\end{table}")
    tex = (tex[:end] + _notes_block(notes, "latex") + tex[end:] if end >= 0
           else tex + _notes_block(notes, "latex"))
    out["tex"] = atomic_write_text(folder / f"{name}.tex", tex)
    md = to_markdown(frame, precision=precision, bold=bold, marks=marks, index=index)
    out["md"] = atomic_write_text(folder / f"{name}.md", (f"**{caption}**\n\n" if caption else "") + md + "\n"
                                  + _notes_block(notes, "markdown"))
    out["html"] = atomic_write_text(folder / f"{name}.html",
                                    to_html(frame, precision=precision, bold=bold, marks=marks, index=index)
                                    + _notes_block(notes, "html"))
    return {k: Path(v) for k, v in out.items()}


# --------------------------------------------------------------------------------------------
# a long frame of numbers as a table
# --------------------------------------------------------------------------------------------
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
                      higher_is_better: bool | Mapping[Any, bool] = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A long frame of numbers (correlations, or any score) as a paper-ready table: one row per
    ``index`` value (a metric), one column per ``columns`` combination (e.g. (human, method)),
    cells ``value``; with the paper's numbers (a ``paper`` column with values) each row gets a
    second row ``(metric, "paper")``.

    Args:
        comparison: long frame with ``index``, ``columns``, ``value`` and optionally ``paper``.
        columns, value, index: what makes the table's columns, cells and rows (in the order they
            first appear).
        higher_is_better: the direction of every column, or a mapping column -> direction
            (columns left out of the mapping get no bold; :func:`sumeval.tables.best_mask`).

    Returns:
        ``(table, bold)``: the table, and where the best of each column among our rows is (the
        paper's rows are never bold). Feed both to ``ctx.save_table``.
    """
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
            rows.append((name, "paper"))
    rows = pd.MultiIndex.from_tuples(rows, names=[index, "source"])
    return (pd.DataFrame(values, index=rows, columns=ours.columns),
            pd.DataFrame(masks, index=rows, columns=ours.columns))
