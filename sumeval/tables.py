"""Paper-ready tables from one tidy frame: CSV, LaTeX (booktabs), Markdown and HTML.

Every study's ``ctx.save_table``, ``sumeval meta-eval`` and ``sumeval alt-test`` write their
tables here (:func:`write_table`). All formats are rendered from the same cell texts
(:func:`_cells`), so the numbers, the bold cells, the marks and the intervals agree across
formats. The CSV keeps full precision and the code names (it is data, not typesetting); the
other formats round to ``precision`` digits and show readable names
(:mod:`sumeval.display_names`: ``rouge-2`` -> ``ROUGE-2``, ``kendall_b`` -> ``Kendall tau-b``).

>>> import pandas as pd
>>> t = pd.DataFrame({"consistency": [0.41, 0.38]}, index=pd.Index(["estime (negated)", "rouge-2"], name="measure"))
>>> print(to_markdown(t, bold=best_mask(t)))
| Measure | Consistency |
|---|---|
| ESTIME (negated) | **0.410** |
| ROUGE-2 | 0.380 |

The ``.tex`` file (:func:`to_latex`, laid out by :mod:`sumeval.latex`)
-------------------------------------------------------------------------
- its first line says what it needs: ``% needs \\usepackage{booktabs}`` (nothing else: no
  ``\\multirow``, an outer row label is printed once per group);
- one header row per level of the column index (the human over its coefficients or levels),
  an outer level spanning its columns with a ``\\cmidrule`` under it;
- a ``table`` float with a caption and a unique ``\\label{tab:<name>:<dataset>}``
  (:func:`table_label`).

Conventions
-----------
- ``bold``: a boolean frame of the table's shape (cells typeset in bold), e.g. :func:`best_mask`
  (the best value of each column, ties included).
- ``marks``: a frame of strings of the table's shape, appended to a cell as a superscript (LaTeX
  ``$^{1}$``, Markdown and HTML ``<sup>1</sup>``); empty or missing strings add nothing. The
  meta-evaluation marks each value with its significance cluster this way.
- ``intervals``: ``(low, high)``, two frames of the table's shape; a cell then reads
  ``0.412 [0.37, 0.45]`` (the interval at one digit less than the value).
- NaN cells are shown as an en dash; they are never bold.
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = ["best_mask", "to_latex", "to_markdown", "to_html", "readable_caption",
           "write_table", "table_label", "FORMATS", "LAYOUTS"]

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
        A boolean frame of ``frame``'s shape; ties for the best are all True. Values that differ only by
        rounding tie (:func:`sumeval.stats.ties.snap_ties`, the rule of the system means and the across
        means, relative tolerance 1e-12): two measures whose correlations agree to the last few units in
        the last place print the same and are both bold, never one of them by a rounding difference.
    """
    from sumeval.stats.ties import snap_ties

    values = frame.apply(pd.to_numeric, errors="coerce")
    values = values.apply(lambda line: pd.Series(snap_ties(line.to_numpy(float)), index=line.index),
                          axis=1 if axis == 1 else 0)
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
    """``other`` (bold, marks, an interval end) aligned to ``frame``'s rows and columns."""
    if other is None:
        return None
    if not isinstance(other, pd.DataFrame):
        raise InputError(f"{what} must be a DataFrame of the table's shape, got {type(other).__name__}")
    if other.index.equals(frame.index) and other.columns.equals(frame.columns):
        return other
    return other.reindex(index=frame.index, columns=frame.columns)


def _latex_escape(text: str) -> str:
    """``text`` as LaTeX (:func:`sumeval.latex.escape`; ``a_b & c`` -> ``a\\_b \\& c``)."""
    from sumeval.latex import escape

    return escape(text)


def _counts(frame: pd.DataFrame) -> list[bool]:
    """Per column: whether it holds counts (every number a whole number, one of them beyond 1 in
    size, e.g. a parameter count), shown without decimals; a column of correlations or shares
    (within [-1, 1]) keeps its ``precision`` digits even when its values are 0 or 1."""
    out = []
    for j in range(frame.shape[1]):
        values = pd.to_numeric(frame.iloc[:, j], errors="coerce").dropna().to_numpy(float)
        out.append(bool(values.size) and bool(np.all(np.mod(values, 1) == 0)) and bool(np.any(np.abs(values) > 1)))
    return out


def _cell_text(value, precision: int, count: bool = False) -> str:
    if value is None or (not isinstance(value, str) and pd.api.types.is_scalar(value) and pd.isna(value)):
        return _MISSING
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.0f}" if count else f"{float(value):.{precision}f}"
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return str(int(value))
    return str(value)


def _label_text(name, fmt: str, display: bool) -> str:
    """A row or column label in format ``fmt``: its readable name (:mod:`sumeval.display_names`)
    when ``display``, escaped for the format."""
    from sumeval import display_names

    if name is None or (isinstance(name, float) and math.isnan(name)):
        return ""
    if display and display_names.is_raw_latex(name, fmt):
        return display_names.display(name, fmt="latex")
    text = display_names.display(name) if display else str(name)
    if fmt == "latex":
        return _latex_escape(text)
    if fmt == "html":
        import html

        return html.escape(text)
    return text.replace("|", "\\|")


def _header_text(name, fmt: str, display: bool) -> str:
    """A column header or a row index's name in format ``fmt`` (:func:`_label_text`: the names
    table's header words, ``best_measure`` -> ``Best measure``; an unknown name as it is)."""
    return _label_text(name, fmt, display)


#: code names a caption may hold that :func:`readable_caption` shows by their readable names:
#: measures, coefficients, tests and corrections, data sets (a quality or a level stays a word)
_CAPTION_KINDS = ("rouge-", "bleu", "bertscore", "kendall", "pearson", "spearman", "permutation-",
                  "bootstrap-", "holm", "summeval", "realsumm", "dialsummeval", "frank", "qags-", "xsumfaith",
                  "newsroom", "rank19", "litepyramid", "nips", "sind", "neg_rmse", "gemini_", "gpt-",
                  "llama-", "mistral-")


def readable_caption(caption: str, fmt: str = "text") -> str:
    """``caption`` with the code names of measures, coefficients, tests and data sets by their
    readable names (:mod:`sumeval.display_names`: ``kendall_b ... on summeval`` -> ``Kendall tau-b
    ... on SummEval``), in format ``fmt`` (``latex``: escaped, ``Kendall $\\tau_b$``; ``text``).
    Other words stay as written (``consistency``, ``system``: words of the sentence).

    >>> readable_caption("kendall_b with the human scores on summeval (permutation-both, holm)")
    'Kendall tau-b with the human scores on SummEval (permutation test (systems and inputs), Holm)'
    """
    from sumeval import display_names

    def one(token: str) -> str:
        if token.lower().startswith(_CAPTION_KINDS) and display_names.display(token) != token:
            if fmt == "latex" and display_names.is_raw_latex(token, fmt):
                return display_names.display(token, fmt="latex")
            shown = display_names.display(token)
            return _latex_escape(shown) if fmt == "latex" else shown
        return _latex_escape(token) if fmt == "latex" else token

    parts = re.split(r"([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*)", caption)
    return "".join(one(part) if i % 2 else (_latex_escape(part) if fmt == "latex" else part)
                   for i, part in enumerate(parts))


def _column_order(frame: pd.DataFrame) -> list[int]:
    """Positions that reorder ``frame``'s columns so that each value of an outer column level
    spans adjacent columns (stable: groups in the order they first appear), so one header cell
    can stand over them."""
    tuples = list(frame.columns)
    if not isinstance(frame.columns, pd.MultiIndex):
        return list(range(len(tuples)))
    first: list[dict] = [{} for _ in range(frame.columns.nlevels)]
    for t in tuples:
        for k in range(len(t)):
            first[k].setdefault(t[: k + 1], len(first[k]))
    return sorted(range(len(tuples)), key=lambda i: tuple(first[k][tuples[i][: k + 1]] for k in range(len(tuples[i]))))


_NEGATIVE = re.compile(r"(?<![\w.])-(?=\d|\.\d)")


def _cells(frame: pd.DataFrame, fmt: str, *, precision: int, bold: pd.DataFrame | None,
           marks: pd.DataFrame | None, intervals: tuple[pd.DataFrame, pd.DataFrame] | None,
           display: bool = True) -> pd.DataFrame:
    """The cells of ``frame`` as text of format ``fmt`` (``latex``, ``markdown`` or ``html``):
    the value at ``precision`` digits (bold where ``bold``), its mark as a superscript, then its
    interval ``[low, high]`` at one digit less, when ``intervals`` has both ends. A text cell (a
    measure's name in a table without an index) is shown by its readable name when ``display``."""
    bold = _check_shape(frame, bold, "bold")
    bold = bold.fillna(False).astype(bool) if bold is not None else None
    marks = _check_shape(frame, marks, "marks")
    low, high = ((_check_shape(frame, intervals[0], "intervals[0] (low)"),
                  _check_shape(frame, intervals[1], "intervals[1] (high)")) if intervals is not None
                 else (None, None))
    digits = max(precision - 1, 1)

    def esc(text: str) -> str:
        if fmt == "latex":  # a number's minus sign as a minus, not a hyphen
            return "--" if text == _MISSING else _NEGATIVE.sub("$-$", _latex_escape(text))
        if fmt == "html":
            import html

            return html.escape(text)
        return text.replace("|", "\\|")

    def wrap(text: str, is_bold: bool, mark: str) -> str:
        if is_bold and text not in (_MISSING, "--"):
            text = {"latex": f"\\textbf{{{text}}}", "markdown": f"**{text}**", "html": f"<b>{text}</b>"}[fmt]
        if mark:
            text += {"latex": f"$^{{{mark}}}$", "markdown": f"<sup>{mark}</sup>", "html": f"<sup>{mark}</sup>"}[fmt]
        return text

    cells = pd.DataFrame(index=frame.index, columns=frame.columns, dtype=object)
    counts = _counts(frame)
    for i in range(frame.shape[0]):
        for j in range(frame.shape[1]):
            value = frame.iat[i, j]
            is_bold = bool(bold.iat[i, j]) if bold is not None else False
            mark = marks.iat[i, j] if marks is not None else ""
            mark = "" if mark is None or (isinstance(mark, float) and math.isnan(mark)) else str(mark)
            shown = (_label_text(value, fmt, display) if isinstance(value, str)
                     else esc(_cell_text(value, precision, counts[j])))
            text = wrap(shown, is_bold, esc(mark))
            if low is not None and _cell_text(value, precision) != _MISSING:
                lo, hi = low.iat[i, j], high.iat[i, j]
                if not (pd.isna(lo) or pd.isna(hi)):
                    text += esc(f" [{float(lo):.{digits}f}, {float(hi):.{digits}f}]")
            cells.iat[i, j] = text
    return cells


def _align(frame: pd.DataFrame, *others):
    """``frame`` with its column groups adjacent (:func:`_column_order`), and each of ``others``
    (frames of its shape, tuples of them, or None) aligned to it the same way."""
    order = _column_order(frame)

    def fit(other, what):
        if other is None:
            return None
        if isinstance(other, tuple):
            if len(other) != 2:
                raise InputError(f"intervals must be a pair of frames (low, high), got {len(other)} items")
            return tuple(fit(o, f"intervals[{i}]") for i, o in enumerate(other))
        return _check_shape(frame, other, what).iloc[:, order]
    return (frame.iloc[:, order], *(fit(o, w) for o, w in zip(others, ("bold", "marks", "intervals"))))


#: the ``.tex`` layouts :func:`to_latex` chooses from, in order of preference
LAYOUTS: tuple[str, ...] = ("column", "column-grouped", "column-transposed", "page", "page-grouped",
                            "page-transposed", "page-split", "page-wrapped")
#: the share of the estimated width (:func:`sumeval.latex.tabular_width`) kept free for its error
_WIDTH_MARGIN = 0.02
#: what the caption of a table split in panels adds when a panel leaves rows out
_THINNED = "; each panel lists the rows with an entry in its columns"


def _tabular_parts(frame: pd.DataFrame, cells: pd.DataFrame, *, index: bool, display: bool,
                   transposed: bool = False) -> dict:
    """The arguments of :func:`sumeval.latex.tabular` for ``cells`` (LaTeX texts of ``frame``;
    ``transposed``: ``frame`` is a table turned, its columns were rows: headers become labels)."""
    columns = [c if isinstance(c, tuple) else (c,) for c in frame.columns]
    rows = [r if isinstance(r, tuple) else (r,) for r in frame.index] if index else [() for _ in frame.index]
    groups: list = []
    for r in rows:  # a paper's row (correlation_table) stays with our row above it
        groups.append(groups[-1] if groups and len(r) > 1 and r[-1] == "paper" else (r[0] if len(r) > 1 else None))
    head, label = (_label_text, _header_text) if transposed else (_header_text, _label_text)
    return dict(cells=cells.to_numpy().tolist(), columns=columns,
                column_labels=[[head(p, "latex", display) for p in c] for c in columns],
                rows=rows, row_labels=[[label(p, "latex", display) for p in r] for r in rows],
                stub=[_header_text(n, "latex", display) for n in frame.index.names] if index else [],
                groups=groups, align=["r" if pd.api.types.is_numeric_dtype(t) else "l" for t in frame.dtypes])


def _panels(frame: pd.DataFrame, fits) -> list[list[int]] | None:
    """``frame``'s column positions in consecutive panels, each as many whole outer column groups
    (or, for a group too wide alone, single columns) as ``fits(positions)`` allows; None when one
    column alone does not fit."""
    outer = [c[0] if isinstance(c, tuple) else c for c in frame.columns]
    runs, start = [], 0
    for i in range(1, len(outer) + 1):
        if i == len(outer) or outer[i] != outer[start]:
            runs.append(list(range(start, i)))
            start = i
    pieces = []
    for run in runs:
        pieces += [run] if fits(run) else [[j] for j in run]
    panels: list[list[int]] = []
    for piece in pieces:
        if panels and fits(panels[-1] + piece):
            panels[-1] += piece
        elif fits(piece):
            panels.append(list(piece))
        else:
            return None
    # as many panels, as even as they fit: 4 groups in 2 + 2, not 3 + 1
    n, size = len(panels), -(-len(pieces) // len(panels))
    even = [sum(pieces[i: i + size], []) for i in range(0, len(pieces), size)]
    return even if len(even) == n and all(fits(panel) for panel in even) else panels


def _layout(frame: pd.DataFrame, cells: pd.DataFrame, *, index: bool, display: bool,
            layout: str = "auto", caption: str = "", notes: str = "") -> tuple[str, str, list[list[str]], bool]:
    """Choose the layout of the ``.tex`` table: ``(layout, environment, floats, thinned)``.

    Across: in order (:data:`LAYOUTS`), the first that fits ACL's column (``table``, 219.1 pt), then the
    first that fits ACL's text width (``table*``, 455.2 pt), by :func:`sumeval.latex.tabular_width`
    at the tables' 10 pt (``\\small``) with a 2% margin: the table as it is; with its outer row level
    as heading rows (``grouped``: a row index of several levels); transposed (every column numeric,
    the row index shown, and rows fewer than columns); split into panels stacked in one float
    (``page-split``: whole column groups per panel, each panel with the row labels of the rows that
    have an entry in its columns: a value or a mark; ``thinned`` says whether a panel left a row
    out); the widest text column wrapped (``page-wrapped``). ``layout`` names one of :data:`LAYOUTS`
    to force it.

    Down: a float holds at most ACL's page (:data:`sumeval.latex.ACL_TEXT_HEIGHT_PT`, less
    :data:`_HEIGHT_SPARE` for the estimate's error), by :func:`sumeval.latex.tabular_height` and
    :func:`sumeval.latex.caption_height` (``caption``: the caption as LaTeX), with the ``notes`` (LaTeX)
    under the last float's tables (:func:`sumeval.latex.notes_height`). A table taller than
    that continues in the next floats (each a list of tabulars in ``floats``): whole panels while
    they fit, a panel or a table too long for one page split between rows into parts as even as
    fit, each part with the header rows.
    """
    from sumeval import latex

    limit = {"column": latex.ACL_COLUMN_PT, "page": latex.ACL_TEXT_PT}

    def width(tex: str) -> float:
        return latex.tabular_width(tex) * (1 + _WIDTH_MARGIN)

    def render(sub: pd.DataFrame, sub_cells: pd.DataFrame, grouped: bool = False, wrap=None,
               transposed: bool = False) -> str:
        return latex.tabular(**_tabular_parts(sub, sub_cells, index=index, display=display, transposed=transposed),
                             group_rows=grouped, wrap=wrap)

    # heading rows for the outer row level; not for a paper's rows beside ours (correlation_table),
    # whose outer label may differ from ours (BERTScore-F (roberta-large) under ... (all-mpnet-base-v2))
    multi_rows = index and frame.index.nlevels > 1 and not any(r[-1] == "paper" for r in frame.index)
    transposable = (index and frame.shape[0] < frame.shape[1]
                    and all(pd.api.types.is_numeric_dtype(t) for t in frame.dtypes))
    variants = {"": (False, False)}  # kind -> (grouped, transposed)
    if multi_rows:
        variants["-grouped"] = (True, False)
    if transposable:
        variants["-transposed"] = (False, True)
    built: dict[str, str] = {}

    def get(kind: str) -> str:
        if kind not in built:
            grouped, turned = variants[kind]
            built[kind] = render(frame.T, cells.T, transposed=True) if turned else render(frame, cells, grouped)
        return built[kind]

    def entries(positions: list[int]) -> list[int]:
        return _entries(cells, positions)

    wanted = None if layout == "auto" else layout
    if wanted is not None and wanted not in LAYOUTS:
        raise InputError(f"layout {layout!r} is not one of {', '.join(('auto', *LAYOUTS))}")
    chosen = None
    all_rows, all_columns = list(range(frame.shape[0])), list(range(frame.shape[1]))
    pieces: list[tuple[list[int], list[int]]] = [(all_rows, all_columns)]  # (rows, columns) of each tabular
    source, source_cells, grouped, wrap = frame, cells, False, None
    for size in ("column", "page"):
        for kind, (is_grouped, turned) in variants.items():
            name = size + kind
            if (wanted == name) or (wanted is None and chosen is None and width(get(kind)) <= limit[size]):
                chosen = name
                grouped = is_grouped
                if turned:
                    source, source_cells = frame.T, cells.T
                    pieces = [(list(range(frame.shape[1])), list(range(frame.shape[0])))]
                break
        if chosen is not None:
            break
    base = "-grouped" if multi_rows else ""
    if chosen is None and wanted in (None, "page-split"):
        def fits(positions: list[int]) -> bool:
            rows = entries(positions)
            shown = render(frame.iloc[rows, positions], cells.iloc[rows, positions], grouped=bool(base))
            return width(shown) <= limit["page"]
        panels = _panels(frame, fits) if index and frame.shape[1] > 1 else None  # each panel keeps the row labels
        if panels is not None and (len(panels) > 1 or wanted):
            chosen, grouped = "page-split", bool(base)
            pieces = [(entries(p), p) for p in panels]
    if chosen is None:
        grouped = bool(base)
        wrap = _wrap(frame, cells, get(base), index=index, display=display, grouped=grouped)
        chosen = "page-wrapped" if wrap else "page" + base  # nothing narrower: as it is, across the page
    thinned = chosen == "page-split" and any(len(rows) < frame.shape[0] for rows, _ in pieces)

    def tex_of(rows: list[int], columns: list[int]) -> str:
        return render(source.iloc[rows, columns], source_cells.iloc[rows, columns], grouped=grouped, wrap=wrap)

    line = limit["column" if chosen.startswith("column") else "page"]
    floats = _floats(pieces, tex_of, line, caption, latex.notes_height(notes, line) if notes else 0.0)
    return chosen, "table" if chosen.startswith("column") else "table*", floats, thinned


def _wrap(frame: pd.DataFrame, cells: pd.DataFrame, tex: str, *, index: bool, display: bool,
          grouped: bool) -> dict[int, float] | None:
    """``{column position: width in pt}``: the widest text column of ``tex`` (the tabular of ``frame``)
    narrowed so that the tabular fits ACL's text width, to no less than 3 cm; when that is not enough, the
    next widest too, and so on (a shelf run's rank intervals: the systems tied with the top narrowed to
    3 cm left DialSummEval's EmbeddingAverageCosineSimilarity 40 pt over the page); None without a text
    column wider than 3 cm (wrapping a narrower one would widen the table)."""
    from sumeval import latex

    widths = latex.column_widths(tex)
    n_stub = len(_tabular_parts(frame, cells, index=index, display=display)["stub"]) - grouped
    text_columns = list(range(n_stub)) + [n_stub + j for j, t in enumerate(frame.dtypes)
                                          if not pd.api.types.is_numeric_dtype(t)]
    if not text_columns:
        return None
    floor = 3 * 72.27 / 2.54
    excess = latex.tabular_width(tex) * (1 + _WIDTH_MARGIN) - latex.ACL_TEXT_PT
    need = excess / (1 + _WIDTH_MARGIN) + 2
    out: dict[int, float] = {}
    for k, j in enumerate(sorted(text_columns, key=lambda c: -widths[c])):
        if widths[j] <= floor:  # no wider than a wrapped column (3 cm): wrapping it would widen the table
            break
        out[j] = max(widths[j] - need, floor)
        need -= widths[j] - out[j]
        if need <= 0:
            break
    return out or None


def _entries(cells: pd.DataFrame, positions: list[int]) -> list[int]:
    """The rows of ``cells`` (LaTeX texts) with an entry (a value or a mark: not a bare ``--``) in the
    columns at ``positions``; every row when none has."""
    shown = cells.iloc[:, positions].to_numpy()
    keep = [i for i in range(cells.shape[0]) if any(str(t) != "--" for t in shown[i])]
    return keep or list(range(cells.shape[0]))


#: the height in pt a float leaves free under its tables for the error of the height estimate (the
#: notes under the last float are measured: :func:`sumeval.latex.notes_height`)
_HEIGHT_SPARE = 48.0
#: the space between two tabulars stacked in one float (``\\par\\medskip``), in pt
_PANEL_GAP = 8.0


def _continued(caption: str) -> str:
    """The caption of a float that continues a table: the caption's first clause (up to its first
    comma, semicolon or full stop outside brackets) and ``(continued)``."""
    depth = 0
    for i, ch in enumerate(caption):
        depth += ch in "({["
        depth -= ch in ")}]"
        if depth == 0 and ch in ",;." and caption[i + 1: i + 2] in (" ", ""):
            return caption[:i] + " (continued)"
    return (caption + " (continued)").strip()


def _floats(pieces: list[tuple[list[int], list[int]]], tex_of, line: float, caption: str,
            tail: float = 0.0) -> list[list[str]]:
    """The tabulars of ``pieces`` (``(rows, columns)``, rendered by ``tex_of``) in floats no taller
    than ACL's page (:func:`_layout`): whole pieces while they fit, a piece too tall for one float
    split between rows into parts as even as fit; ``tail`` pt (the notes) under the last float's
    tabulars, in a float of their own (an empty list of tabulars) when the last has no room left."""
    from sumeval import latex

    room = latex.ACL_TEXT_HEIGHT_PT - _HEIGHT_SPARE
    first = room - (latex.caption_height(caption, line) if caption else 0.0)
    later = room - (latex.caption_height(_continued(caption), line) if caption else 0.0)
    floats: list[list[str]] = [[]]
    used = 0.0

    def height(rows, columns) -> float:
        return latex.tabular_height(tex_of(rows, columns))

    def add(tex: str, h: float) -> None:
        nonlocal used
        avail = (first if len(floats) == 1 else later) - used - (_PANEL_GAP if floats[-1] else 0.0)
        if floats[-1] and h > avail:
            floats.append([])
            used = 0.0
        used += h + (_PANEL_GAP if floats[-1] else 0.0)
        floats[-1].append(tex)

    for rows, columns in pieces:
        h = height(rows, columns)
        if h <= later or (len(floats) == 1 and not floats[0] and h <= first):
            add(tex_of(rows, columns), h)
            continue
        # too tall for one float: parts of as many rows as fit a float, as even as that allows
        parts: list[list[int]] = []
        rest = list(rows)
        while rest:
            lo, hi = 1, len(rest)
            while lo < hi:  # the most rows whose tabular fits a continued float
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if height(rest[:mid], columns) <= later else (lo, mid - 1)
            parts.append(rest[:lo])
            rest = rest[lo:]
        size = -(-len(rows) // len(parts))
        even = [rows[i: i + size] for i in range(0, len(rows), size)]
        if len(even) == len(parts) and all(height(p, columns) <= later for p in even):
            parts = even
        for part in parts:
            add(tex_of(part, columns), height(part, columns))
    if tail and floats[-1] and tail > (first if len(floats) == 1 else later) - used:
        floats.append([])
    return floats


def to_latex(frame: pd.DataFrame, *, precision: int = 3, bold: pd.DataFrame | None = None,
             marks: pd.DataFrame | None = None, caption: str | None = None,
             label: str | None = None, index: bool = True,
             intervals: tuple[pd.DataFrame, pd.DataFrame] | None = None, display: bool = True,
             layout: str = "auto", notes: Sequence[str] = ()) -> str:
    """The table as LaTeX with booktabs rules (:func:`sumeval.latex.tabular`), laid out for ACL's
    two-column page.

    The first line says what it needs (``% needs \\usepackage{booktabs}``; nothing else: outer row
    labels are printed once per group, never with ``\\multirow``). One header row per level of the
    column index; labels through :func:`sumeval.display_names.display` when ``display`` (headers
    the names table does not know: ``_`` as a space, a capital first letter); text is
    LaTeX-escaped; a negative number has a real minus (``$-$0.020``). With a ``caption`` or a
    ``label`` the tabular sits in a float, in ``\\small`` type: a ``table`` when it fits ACL's
    column, else a ``table*``, in the layout :func:`_layout` chooses (``layout``: force one of
    :data:`LAYOUTS`); the float says which in a comment (``% layout: column``). Without either,
    the tabular as it is.

    Args:
        intervals: ``(low, high)``, frames of the table's shape: each cell shows
            ``0.412 [0.37, 0.45]`` where both ends are numbers.
        notes: sentences under the table (``Note: ...`` in footnote type, inside the last float; a float of
            their own, continuing the table, when the last has no room for them).
    """
    from sumeval.latex import NEEDS, tabular

    frame, bold, marks, intervals = _align(frame, bold, marks, intervals)
    cells = _cells(frame, "latex", precision=precision, bold=bold, marks=marks, intervals=intervals,
                   display=display)
    notes_tex = _notes_block(notes, "latex")
    if not (caption or label):
        body = tabular(**_tabular_parts(frame, cells, index=index, display=display))
        return f"{NEEDS}\n{body}\n{notes_tex}"
    shown = readable_caption(caption, "latex") if caption else ""
    chosen, env, floats, thinned = _layout(frame, cells, index=index, display=display, layout=layout,
                                           caption=shown + _THINNED, notes=notes_tex)
    if caption:
        if chosen.endswith("-transposed"):
            caption = re.sub(r"\bper column\b", "per row", caption)
        shown = readable_caption(caption, "latex") + (_THINNED if thinned else "")
    out = [NEEDS, f"% layout: {chosen}"]
    if len(floats) > 1:
        out.append(f"% too long for one page: {len(floats)} floats, the later ones continue it")
    for k, bodies in enumerate(floats):
        out += [f"\\begin{{{env}}}", "\\centering", "\\small"]
        if k == 0:
            if caption:
                out.append(f"\\caption{{{shown}}}")
            if label:
                out.append(f"\\label{{{label}}}")
        elif caption:  # the same table number: "Table 3: ... (continued)"
            out += [f"\\addtocounter{{{env.rstrip('*')}}}{{-1}}", f"\\caption{{{_continued(shown)}}}"]
        out.append("\n\\par\\medskip\n".join(bodies))
        if k == len(floats) - 1 and notes_tex:
            out.append(notes_tex.rstrip("\n"))
        out.append(f"\\end{{{env}}}")
    return "\n".join(out) + "\n"


def to_markdown(frame: pd.DataFrame, *, precision: int = 3, bold: pd.DataFrame | None = None,
                marks: pd.DataFrame | None = None, index: bool = True,
                intervals: tuple[pd.DataFrame, pd.DataFrame] | None = None, display: bool = True) -> str:
    """The table as a Markdown pipe table (GitHub / Jupyter flavour). A pipe table has one header
    row, so column levels are joined there (``Relevance / System``); the LaTeX and HTML files have
    one header row per level."""
    frame, bold, marks, intervals = _align(frame, bold, marks, intervals)
    cells = _cells(frame, "markdown", precision=precision, bold=bold, marks=marks, intervals=intervals,
                   display=display)
    columns = [c if isinstance(c, tuple) else (c,) for c in frame.columns]
    header = [" / ".join(_label_text(p, "markdown", display) for p in c) for c in columns]
    rows = cells.to_numpy().tolist()
    if index:
        header = [_label_text(n, "markdown", display) for n in frame.index.names] + header
        keys = [r if isinstance(r, tuple) else (r,) for r in frame.index]
        rows = [[_label_text(p, "markdown", display) for p in k] + row for k, row in zip(keys, rows)]
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def to_html(frame: pd.DataFrame, *, precision: int = 3, bold: pd.DataFrame | None = None,
            marks: pd.DataFrame | None = None, index: bool = True,
            intervals: tuple[pd.DataFrame, pd.DataFrame] | None = None, display: bool = True,
            caption: str | None = None) -> str:
    """The table as an HTML ``<table>`` fragment (pandas' Styler: one header row per column
    level, an outer label spanning its columns and rows); a ``caption`` is its ``<caption>``, with
    readable names (:func:`readable_caption`) and HTML-escaped."""
    import html
    frame, bold, marks, intervals = _align(frame, bold, marks, intervals)
    cells = _cells(frame, "html", precision=precision, bold=bold, marks=marks, intervals=intervals,
                   display=display)
    cells.index = cells.index.set_names([_label_text(n, "html", display) or None for n in cells.index.names])
    styler = cells.style.format_index(lambda v: _label_text(v, "html", display), axis=0)
    styler = styler.format_index(lambda v: _label_text(v, "html", display), axis=1).hide(axis=1, names=True)
    if not index:
        styler = styler.hide(axis="index")
    if caption:
        styler = styler.set_caption(html.escape(readable_caption(caption)))
    return styler.to_html(escape=False)


def _notes_block(notes: Sequence[str], fmt: str) -> str:
    """``notes`` as text under a table in format ``fmt`` (``latex``, ``markdown``, ``html``)."""
    if not notes:
        return ""
    if fmt == "latex":
        return "".join(f"\\par\\footnotesize Note: {_latex_escape(n)}\n" for n in notes)
    if fmt == "html":
        import html

        return "".join(f'<p class="note">Note: {html.escape(n)}</p>\n' for n in notes)
    return "\n" + "".join(f"Note: {n}\n\n" for n in notes)


def table_label(name: str, dataset: str | Sequence[str] | None = None, source: str | None = None) -> str:
    """The ``\\label`` of table ``name`` (a file name) on data set ``dataset``, written by
    ``source`` (a study, ``meta-eval``): ``tab:[<source>:]<name>[:<dataset>]``, a path reduced to
    its file's stem. ``dataset`` may be several (a study's ``dataset`` and ``system_dataset``): the
    label names the first, unless the table's name already ends with one of them. Characters other
    than letters, digits and ``_ . : + -`` become ``-``.

    >>> table_label("table_kendall_b", "summeval", "meta_evaluation"), table_label("table1_summeval", "summeval")
    ('tab:meta_evaluation:table_kendall_b:summeval', 'tab:table1_summeval')
    >>> table_label("table2_realsumm", ["summeval", "realsumm"], "metric_correlations")
    'tab:metric_correlations:table2_realsumm'
    """
    def clean(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.:+-]", "-", text)

    def part(text: str) -> str:
        return clean(Path(text).stem if "/" in text or "\\" in text else text)

    label = clean(name)
    sets = [part(str(d)) for d in ([dataset] if isinstance(dataset, str) else dataset or []) if d]
    if sets and not any(label == p or label.endswith(("_" + p, "-" + p, ":" + p)) for p in sets):
        label += ":" + sets[0]
    return "tab:" + (clean(source) + ":" if source else "") + label


def write_table(frame: pd.DataFrame, folder: str | Path, name: str, *, precision: int = 3,
                bold: pd.DataFrame | None = None, marks: pd.DataFrame | None = None,
                caption: str | None = None, index: bool = True, notes: Sequence[str] = (),
                intervals: tuple[pd.DataFrame, pd.DataFrame] | None = None,
                dataset: str | Sequence[str] | None = None, source: str | None = None,
                label: str | None = None) -> dict[str, Path]:
    """Write ``name.csv`` (full precision), ``name.tex``, ``name.md`` and ``name.html`` in ``folder``.

    Each file is written to a temporary file and renamed, so none is ever half-written.
    ``notes`` (sentences, e.g. why a cell is undefined) go under the table in the LaTeX (inside
    its ``table`` float), Markdown and HTML files; the CSV holds only data (code names, the
    values, no intervals). The ``.tex`` is a ``table`` float with the caption (``name`` when
    none is given; the ``.html`` carries the same as its ``<caption>``) and the label ``label`` or
    :func:`table_label` of ``name``, ``dataset`` and ``source`` (who writes it: a study,
    ``meta-eval``), unique among the tables of a run.

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
    tex = to_latex(frame, precision=precision, bold=bold, marks=marks, caption=caption or name,
                   label=label or table_label(name, dataset, source), index=index, intervals=intervals,
                   notes=notes)
    out["tex"] = atomic_write_text(folder / f"{name}.tex", tex)
    md = to_markdown(frame, precision=precision, bold=bold, marks=marks, index=index, intervals=intervals)
    head = f"**{readable_caption(caption)}**\n\n" if caption else ""
    out["md"] = atomic_write_text(folder / f"{name}.md", head + md + "\n" + _notes_block(notes, "markdown"))
    out["html"] = atomic_write_text(folder / f"{name}.html",
                                    to_html(frame, precision=precision, bold=bold, marks=marks, index=index,
                                            intervals=intervals, caption=caption or name)
                                    + _notes_block(notes, "html"))
    return {k: Path(v) for k, v in out.items()}
