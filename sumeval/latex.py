"""LaTeX for :mod:`sumeval.tables`: escaping, the booktabs tabular, and checking a written table.

:func:`tabular` lays out cells that are already LaTeX (escaped, bold, marks) under one header row
per level of the column index: an outer level spans its columns with ``\\multicolumn`` and a
``\\cmidrule`` under it, the last header row carries the row index's names; an outer row label
is printed once, on the first row of its group (no ``\\multirow``, so the table needs booktabs
only). :func:`check_table` checks a ``.tex`` file's structure without a LaTeX engine;
:func:`compile_tables` typesets files in a minimal document when an engine is installed
(``scripts/install_latex.sh``).

Widths (ACL's two-column page)
------------------------------
A table is laid out for ACL's page (the ``acl`` style: 11 pt Times, a text 16 cm wide in two
columns 0.6 cm apart, so a column is 7.7 cm): :data:`ACL_COLUMN_PT` (219.1 pt) for a ``table``,
:data:`ACL_TEXT_PT` (455.2 pt) for a ``table*``; a float of either kind is at most
:data:`ACL_TEXT_HEIGHT_PT` tall (24.7 cm: an A4 page less its 2.5 cm margins), or LaTeX warns
"Float too large for page" and the float runs over the page's foot. :func:`tabular_width` estimates a tabular's
natural width without LaTeX, from the Times font metrics matplotlib ships (Adobe's AFM files,
kerning left out, so the estimate errs wide), :func:`tabular_height` and :func:`caption_height`
its height; :func:`measure_tables` typesets table files in :data:`ACL_PREAMBLE` and reads each
tabular's real width and the line width it sits in, and each float's height and the page's, from
the log (the test that every table fits).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Sequence

__all__ = ["escape", "tabular", "NEEDS", "check_table", "compile_tables", "engine", "MINIMAL_PREAMBLE",
           "ACL_COLUMN_PT", "ACL_TEXT_PT", "ACL_PREAMBLE", "TABLE_SIZE_PT", "TABCOLSEP_PT", "text_width",
           "tabular_width", "column_widths", "measure_tabulars", "has_times", "ACL_TEXT_HEIGHT_PT",
           "tabular_height", "caption_height", "notes_height", "measure_tables"]

#: the first line of every table file: what a document needs to typeset it
NEEDS = "% needs \\usepackage{booktabs}"
#: the document :func:`compile_tables` typesets a table in
MINIMAL_PREAMBLE = "\\documentclass{article}\n\\usepackage{booktabs}\n"

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}
# characters a plain pdflatex document does not set up: typeset as LaTeX commands instead
_UNICODE = {"α": r"$\alpha$", "β": r"$\beta$", "γ": r"$\gamma$", "δ": r"$\delta$", "ε": r"$\varepsilon$",
            "ρ": r"$\rho$", "σ": r"$\sigma$", "τ": r"$\tau$", "ω": r"$\omega$", "μ": r"$\mu$",
            "≥": r"$\geq$", "≤": r"$\leq$", "×": r"$\times$", "±": r"$\pm$", "−": r"$-$", "→": r"$\to$",
            "≈": r"$\approx$", "–": "--", "—": "---", "…": r"\ldots{}", "“": "``", "”": "''", "‘": "`",
            "’": "'", "\u00a0": "~"}


def escape(text: str) -> str:
    """``text`` as LaTeX: special characters escaped, Greek letters and math signs as commands
    (``a_b & ρ ≥ 0.5`` -> ``a\\_b \\& $\\rho$ $\\geq$ 0.5``)."""
    return "".join(_ESCAPES.get(ch) or _UNICODE.get(ch, ch) for ch in str(text))


def _runs(keys: Sequence) -> list[tuple[int, int]]:
    """``(start, stop)`` of each run of equal consecutive ``keys``."""
    out, start = [], 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[i] != keys[start]:
            out.append((start, i))
            start = i
    return out


def _header_lines(columns: Sequence[tuple], column_labels: Sequence[Sequence[str]], stub: Sequence[str],
                  n_levels: int) -> list[str]:
    """The header rows of :func:`tabular`: one per outer column level (a ``\\multicolumn`` over each run of
    columns, a ``\\cmidrule`` under each labelled one), then the stub's labels and the innermost column labels."""
    k = len(stub)
    lines = []
    for level in range(n_levels - 1):
        heads, rules = [""] * k, []
        for start, stop in _runs([c[: level + 1] for c in columns]):
            text = column_labels[start][level]
            heads.append(f"\\multicolumn{{{stop - start}}}{{c}}{{{text}}}")
            if text:
                rules.append(f"\\cmidrule(lr){{{k + start + 1}-{k + stop}}}")
        lines.append(" & ".join(heads) + " \\\\")
        if rules:
            lines.append(" ".join(rules))
    lines.append(" & ".join([*stub, *(c[-1] for c in column_labels)]) + " \\\\")
    return lines


def tabular(cells: list[list[str]], *, columns: list[tuple], column_labels: list[list[str]],
            rows: list[tuple], row_labels: list[list[str]], stub: list[str],
            groups: Sequence | None = None, align: Sequence[str] | None = None,
            group_rows: bool = False, wrap: dict[int, float] | None = None) -> str:
    """A booktabs ``tabular`` of ready cells.

    Args:
        cells: (n_rows, n_cols) LaTeX strings.
        columns: the column index's tuples (one per column, length L = levels), for grouping.
        column_labels: (n_cols, L) header texts (LaTeX), the same shape as ``columns``.
        rows: the row index's tuples (one per row, length K; K = 0 when the index is hidden).
        row_labels: (n_rows, K) LaTeX texts of the row index.
        stub: K LaTeX texts over the row index (its level names), on the last header row.
        groups: one key per row; ``\\addlinespace`` separates rows of different keys (default:
            the outer row label, when the row index has several levels).
        align: one of ``l`` / ``c`` / ``r`` per column (default ``r``: numbers); the row index is ``l``.
        group_rows: with a row index of several levels, its outer level as a heading row (in
            italics, across the table) over its group instead of a column of its own (narrower).
        wrap: column positions (counting the row index's columns) -> a width in pt: that column
            is a paragraph column ``p{...}`` whose text wraps (ragged right).

    Returns:
        ``\\begin{tabular}...\\end{tabular}`` with ``\\toprule``, one header row per column level
        (outer levels as ``\\multicolumn`` with a ``\\cmidrule`` under each), ``\\midrule``, the rows
        (an outer row label only where it changes, ``\\addlinespace`` between groups) and
        ``\\bottomrule``.
    """
    headings: list[str | None] = [None] * len(rows)
    if group_rows and len(stub) > 1:
        for i, r in enumerate(rows):
            if i == 0 or r[0] != rows[i - 1][0]:
                headings[i] = row_labels[i][0]
        rows, row_labels, stub = [r[1:] for r in rows], [r[1:] for r in row_labels], stub[1:]
        groups = [r[0] for r in rows] if groups is None else groups
    k = len(stub)
    n_levels = len(columns[0]) if columns else 1
    kinds = list("l" * k + "".join(align)) if align is not None else list("l" * k + "r" * len(columns))
    wrap = wrap or {}
    for j, width in wrap.items():
        kinds[j] = f"p{{{width:.1f}pt}}"
    spec = "".join(kinds)
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", *_header_lines(columns, column_labels, stub, n_levels)]
    lines.append("\\midrule")
    if groups is None:
        groups = [r[0] if k > 1 else None for r in rows]
    previous: tuple | None = None
    for i, (key, labels, row) in enumerate(zip(rows, row_labels, cells)):
        shown = list(labels)
        if previous is not None and (groups[i] != groups[i - 1] or headings[i] is not None):
            lines.append("\\addlinespace")
        if headings[i] is not None:
            lines.append(f"\\multicolumn{{{k + len(columns)}}}{{l}}{{\\textit{{{headings[i]}}}}} \\\\")
        if previous is not None and k > 1:
            for level in range(k - 1):  # an outer label once per group
                if key[: level + 1] == previous[: level + 1]:
                    shown[level] = ""
        previous = key
        texts = [*shown, *row]
        for j in wrap:
            if j < len(texts) - 1 and texts[j]:  # ragged right; not in the last cell, where \\ ends the row
                texts[j] = "\\raggedright " + texts[j]
        lines.append(" & ".join(texts) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# checking a written table
# --------------------------------------------------------------------------------------------
def _unescaped(text: str, char: str) -> int:
    """How many times ``char`` occurs in ``text`` not escaped by a backslash."""
    return len(re.findall(r"(?<!\\)" + re.escape(char), text))


def check_table(tex: str) -> list[str]:
    """Problems of a table file written by :func:`sumeval.tables.write_table` (empty: none).

    Checks, without a LaTeX engine: the first line is :data:`NEEDS`; braces balance (escaped
    ``\\{`` / ``\\}`` aside) and never close before they open; one ``\\label``; ``\\toprule``,
    ``\\midrule``, ``\\bottomrule`` once each, in that order, in each tabular (a table split in
    panels has one per panel); every row of a tabular has as many
    cells (``\\multicolumn{n}`` counting n) as its column spec has columns; no ``\\multirow``
    (its package is not in :data:`NEEDS`); no character outside ASCII and Latin-1 letters.
    """
    problems = []
    if not tex.startswith(NEEDS):
        problems.append(f"the first line is not {NEEDS!r}")
    depth = 0
    for i, ch in enumerate(tex):
        if ch in "{}" and (i == 0 or tex[i - 1] != "\\"):
            depth += 1 if ch == "{" else -1
            if depth < 0:
                problems.append(f"a '}}' closes nothing at character {i}")
                depth = 0
    if depth:
        problems.append(f"{depth} '{{' never closed")
    labels = re.findall(r"\\label\{([^}]*)\}", tex)
    if len(labels) != 1:
        problems.append(f"{len(labels)} \\label commands (one expected): {labels}")
    if "\\multirow" in tex:
        problems.append("\\multirow needs the multirow package, which the file does not name")
    odd = sorted({ch for ch in tex if ord(ch) > 0xFF})
    if odd:
        problems.append(f"characters pdflatex may not typeset: {''.join(odd)!r}")
    specs = list(re.finditer(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}", tex))
    if not specs:
        return problems + ["no \\begin{tabular}{...}"]
    for spec in specs:  # a table split in panels has one tabular per panel
        body = tex[spec.end(): tex.find("\\end{tabular}", spec.end())]
        rules = [body.find(r) for r in ("\\toprule", "\\midrule", "\\bottomrule")]
        counts = [body.count(r) for r in ("\\toprule", "\\midrule", "\\bottomrule")]
        if counts != [1, 1, 1] or not rules[0] < rules[1] < rules[2]:
            problems.append(f"booktabs rules: toprule, midrule, bottomrule counted {counts}, not once each in order")
        n_cols = len(re.findall(r"p\{[^}]*\}|[lcr]", spec.group(1)))
        for line in body.split("\\\\"):
            row = re.sub(r"\\(toprule|midrule|bottomrule|addlinespace)|\\cmidrule\(lr\)\{[^}]*\}", "", line).strip()
            if not row:
                continue
            width = _unescaped(row, "&") + 1
            width += sum(int(n) - 1 for n in re.findall(r"\\multicolumn\{(\d+)\}", row))
            if width != n_cols:
                problems.append(f"a row has {width} cells, the column spec {spec.group(1)!r} {n_cols}: {row[:80]!r}")
    return problems


def engine() -> str | None:
    """The LaTeX engine found on PATH (``pdflatex``, else ``lualatex``, else ``xelatex``), or None."""
    for name in ("pdflatex", "lualatex", "xelatex"):
        if shutil.which(name):
            return name
    return None


def compile_tables(paths: Sequence[str | Path], *, timeout: float = 120) -> dict[str, str]:
    """Typeset each table file in a minimal document (:data:`MINIMAL_PREAMBLE`, then
    ``\\input`` of the table, each table once); returns ``{path: error}`` for the files that did
    not compile (empty: all did). The tables are compiled one document each, so an error names
    its file. Raises ``FileNotFoundError`` when no LaTeX engine is installed (:func:`engine`).
    """
    tex_engine = engine()
    if tex_engine is None:
        raise FileNotFoundError("no LaTeX engine on PATH (pdflatex); run scripts/install_latex.sh")
    failed = {}
    with tempfile.TemporaryDirectory(prefix="sumeval-latex-") as work:
        for i, path in enumerate(paths):
            shutil.copyfile(path, Path(work) / f"table{i}.tex")  # no spaces or odd characters in \input
            doc = Path(work) / f"doc{i}.tex"
            doc.write_text(MINIMAL_PREAMBLE + f"\\begin{{document}}\n\\input{{table{i}}}\n\\end{{document}}\n",
                           encoding="utf-8")
            run = subprocess.run([tex_engine, "-interaction=nonstopmode", "-halt-on-error", doc.name],
                                 cwd=work, capture_output=True, text=True, timeout=timeout)
            if run.returncode != 0 or not doc.with_suffix(".pdf").is_file():
                errors = [ln for ln in run.stdout.splitlines() if ln.startswith("!")]
                failed[str(path)] = "; ".join(errors) or run.stdout[-400:]
    return failed


# --------------------------------------------------------------------------------------------
# widths on ACL's page
# --------------------------------------------------------------------------------------------
_CM = 72.27 / 2.54  # TeX points per centimetre
#: ACL's column width (7.7 cm: the 16 cm text in two columns 0.6 cm apart), in TeX points
ACL_COLUMN_PT = round(7.7 * _CM, 1)
#: ACL's text width (16 cm), the width of a ``table*``, in TeX points
ACL_TEXT_PT = round(16 * _CM, 1)
#: ACL's text height (24.7 cm: A4 less 2.5 cm margins), the most a float may be, in TeX points
ACL_TEXT_HEIGHT_PT = round(24.7 * _CM, 1)
#: the font size of the tables (``\small`` in ACL's 11 pt document: 10 pt)
TABLE_SIZE_PT = 10.0
#: LaTeX's default space either side of a tabular's column
TABCOLSEP_PT = 6.0
#: a document with ACL's page (11 pt Times, text 16 cm x 24.7 cm, two columns 0.6 cm apart) in which
#: every tabular writes ``MEASURE <its width> <the line width it sits in> <its height and depth>`` to
#: the log, and every float ``FLOAT <its height> <the text height>`` (where LaTeX checks a float
#: against the page: ``\@largefloatcheck``)
ACL_PREAMBLE = r"""\documentclass[11pt,twocolumn]{article}
\usepackage[T1]{fontenc}
\usepackage{times}
\usepackage{booktabs}
\setlength{\textwidth}{16cm}\setlength{\columnsep}{0.6cm}\setlength{\textheight}{24.7cm}
\setlength{\columnwidth}{\dimexpr(\textwidth-\columnsep)/2\relax}
\newsavebox{\measurebox}
\let\measuredtabular\tabular\let\endmeasuredtabular\endtabular
\renewenvironment{tabular}{\begin{lrbox}{\measurebox}\measuredtabular}{\endmeasuredtabular\end{lrbox}%
\typeout{MEASURE \the\wd\measurebox\space\the\linewidth\space\the\dimexpr\ht\measurebox+\dp\measurebox\relax}%
\usebox{\measurebox}}
\makeatletter
\let\measuredlargefloatcheck\@largefloatcheck
\def\@largefloatcheck{\typeout{FLOAT \the\ht\@currbox\space\the\textheight}\measuredlargefloatcheck}
\makeatother
"""
_AFM = {"roman": "ptmr8a.afm", "bold": "ptmb8a.afm"}
_METRICS: dict[str, dict[int, int]] = {}


def _metrics(face: str) -> dict[int, int]:
    """Character code -> advance width (1/1000 em) of Times ``face`` (``roman`` or ``bold``), from the
    Adobe font metrics matplotlib ships (``mpl-data/fonts/afm``)."""
    if face not in _METRICS:
        import matplotlib

        path = Path(matplotlib.get_data_path()) / "fonts" / "afm" / _AFM[face]
        widths = {}
        for line in path.read_text(encoding="latin-1").splitlines():
            found = re.match(r"C (\d+) ; WX (\d+) ;", line)
            if found and int(found[1]) >= 0:
                widths[int(found[1])] = int(found[2])
        _METRICS[face] = widths
    return _METRICS[face]


_SYMBOLS = {"_": "_", "&": "&", "%": "%", "$": "$", "#": "#", "{": "{", "}": "}", " ": " ", ",": ","}
_WORDS = {"textbackslash": "\\", "textasciitilde": "~", "textasciicircum": "^", "textless": "<",
          "textgreater": ">", "textbar": "|", "ldots": "...", "textminus": "-"}
_MATH_EM = {"-": 0.778, "+": 0.778, "=": 0.778, "\\geq": 0.778, "\\leq": 0.778, "\\times": 0.778, "\\pm": 0.778,
            "\\to": 1.0, "\\approx": 0.778}


def _math_width(body: str, size: float, script: bool = False) -> float:
    """The width of math ``body`` (what the tables write: a superscript mark, a minus, a Greek letter
    with a subscript) at ``size`` pt: signs by Computer Modern's widths (math stays in Computer
    Modern under ``times``; a script's digits 0.569 em, cmr7's), letters as Times."""
    width, i = 0.0, 0
    while i < len(body):
        if body[i] in "^_":  # a script: 70% size
            arg = body[i + 1:]
            if arg.startswith("{"):
                depth, j = 0, 0
                for j, ch in enumerate(arg):
                    depth += ch == "{"
                    depth -= ch == "}"
                    if depth == 0:
                        break
                width += _math_width(arg[1:j], size * 0.7, True)
                i += j + 2
            else:
                width += _math_width(arg[:1], size * 0.7, True)
                i += 2
            continue
        command = re.match(r"\\[A-Za-z]+", body[i:])
        if command:
            width += _MATH_EM.get(command[0], 0.6) * size
            i += len(command[0])
            continue
        if body[i] in _MATH_EM:
            width += _MATH_EM[body[i]] * size
        elif script and body[i].isdigit():
            width += 0.569 * size
        else:
            width += _metrics("roman").get(ord(body[i]), 500) * size / 1000
        i += 1
    return width


def text_width(tex: str, size: float = TABLE_SIZE_PT, bold: bool = False) -> float:
    """The width in pt of one line of LaTeX ``tex`` (a table cell) in Times at ``size`` pt, without
    kerning (so at least the typeset width): ``\\textbf{...}`` in bold, ``\\textit{...}`` as roman,
    ``$...$`` math (:func:`_math_width`), escaped characters and ``\\text...{}`` names as the
    character they print, ``--`` an en dash; other commands take no room."""
    face = _metrics("bold" if bold else "roman")
    width, i = 0.0, 0
    while i < len(tex):
        ch = tex[i]
        if ch == "$":
            end = tex.find("$", i + 1)
            end = len(tex) if end < 0 else end
            width += _math_width(tex[i + 1: end], size)
            i = end + 1
            continue
        if ch == "\\":
            command = re.match(r"\\([A-Za-z]+)(\{\})?", tex[i:])
            if command is None:  # an escaped character
                width += face.get(ord(_SYMBOLS.get(tex[i + 1: i + 2], "x")), 500) * size / 1000
                i += 2
                continue
            name = command[1]
            i += len(command[0])
            if name in ("textbf", "textit", "emph", "textrm") and i < len(tex) and tex[i] == "{":
                depth, j = 0, i
                for j in range(i, len(tex)):
                    depth += tex[j] == "{" and tex[j - 1] != "\\"
                    depth -= tex[j] == "}" and tex[j - 1] != "\\"
                    if depth == 0:
                        break
                width += text_width(tex[i + 1: j], size, bold or name == "textbf")
                i = j + 1
            elif name in _WORDS:
                width += sum(face.get(ord(c), 500) for c in _WORDS[name]) * size / 1000
            continue
        if ch in "{}":
            i += 1
            continue
        if tex.startswith("--", i):
            width += face.get(177, 500) * size / 1000  # endash
            i += 2
            continue
        width += face.get(ord(ch) if ch != "~" else 32, 500) * size / 1000
        i += 1
    return width


def _split_cells(row: str) -> list[str]:
    """A tabular row's cells (split at unescaped ``&``)."""
    return [c.strip() for c in re.split(r"(?<!\\)&", row)]


def tabular_width(tex: str, size: float = TABLE_SIZE_PT, tabcolsep: float = TABCOLSEP_PT) -> float:
    """The natural width in pt of the (first) ``tabular`` in ``tex``, estimated without LaTeX: each
    column as wide as its widest cell (:func:`text_width`) or its ``p{...}`` width, plus
    ``tabcolsep`` either side; a ``\\multicolumn`` wider than the columns it spans widens the last
    of them."""
    return sum(column_widths(tex, size, tabcolsep)) + 2 * tabcolsep * len(column_widths(tex, size, tabcolsep))


def column_widths(tex: str, size: float = TABLE_SIZE_PT, tabcolsep: float = TABCOLSEP_PT) -> list[float]:
    """The width in pt of each column of the (first) ``tabular`` in ``tex`` (:func:`tabular_width`),
    without the space either side."""
    spec_match = re.search(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}", tex)
    if not spec_match:
        raise ValueError("no \\begin{tabular}{...} in the text")
    kinds = re.findall(r"p\{([\d.]+)pt\}|([lcr])", spec_match[1])
    fixed = [float(p) if p else None for p, _ in kinds]
    widths = [0.0] * len(kinds)
    spans = []
    body = tex[spec_match.end(): tex.find("\\end{tabular}", spec_match.end())]
    for line in body.split("\\\\"):
        row = re.sub(r"\\(toprule|midrule|bottomrule|addlinespace)|\\cmidrule\(lr\)\{[^}]*\}", "", line).strip()
        if not row:
            continue
        j = 0
        for cell in _split_cells(row):
            multi = re.match(r"\\multicolumn\{(\d+)\}\{[lcr]\}\{(.*)\}$", cell, re.S)
            if multi:
                n = int(multi[1])
                spans.append((j, n, text_width(multi[2], size)))
                j += n
                continue
            if j < len(widths):
                cell = cell.replace("\\raggedright ", "")
                widths[j] = max(widths[j], text_width(cell, size))
            j += 1
    widths = [f if f is not None else w for f, w in zip(fixed, widths)]
    for start, n, need in sorted(spans, key=lambda s: s[1]):
        have = sum(widths[start: start + n]) + 2 * tabcolsep * (n - 1)
        if need > have and fixed[start + n - 1] is None:
            widths[start + n - 1] += need - have
    return widths


#: booktabs' rules with the space around them in pt at 10 pt type (``\\aboverulesep`` 0.4 ex, ``\\belowrulesep``
#: 0.65 ex, the rule 0.08 em heavy or 0.05 em light, ``\\cmidrule`` 0.03 em), ``\\addlinespace`` 0.5 em
_RULE_PT = {"toprule": 0.8 + 2.9, "midrule": 1.8 + 0.5 + 2.9, "bottomrule": 1.8 + 0.8, "cmidrule": 1.8 + 0.3 + 2.9,
            "addlinespace": 5.0}
#: the distance between two lines of a tabular (``\\small`` in an 11 pt document: 10 pt type on 12 pt)
ROW_PT = 12.0


def tabular_height(tex: str, size: float = TABLE_SIZE_PT) -> float:
    """The height in pt (with its depth) of the (first) ``tabular`` in ``tex``, estimated without LaTeX:
    :data:`ROW_PT` a row (scaled with ``size``; a row whose ``p{...}`` cell wraps, one such per line of
    its longest cell, a line filled to 85% on average), and booktabs' rules and spaces (:data:`_RULE_PT`)."""
    spec_match = re.search(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}", tex)
    if not spec_match:
        raise ValueError("no \\begin{tabular}{...} in the text")
    kinds = re.findall(r"p\{([\d.]+)pt\}|([lcr])", spec_match[1])
    fixed = [float(p) if p else None for p, _ in kinds]
    body = tex[spec_match.end(): tex.find("\\end{tabular}", spec_match.end())]
    row = ROW_PT * size / TABLE_SIZE_PT
    height = 0.0
    for line in body.split("\\\\"):
        rules = re.findall(r"\\(toprule|midrule|bottomrule|addlinespace|cmidrule)", line)
        height += sum(_RULE_PT[r] for r in set(rules))  # the \cmidrule of one header row share their space
        cells = re.sub(r"\\(toprule|midrule|bottomrule|addlinespace)|\\cmidrule\(lr\)\{[^}]*\}", "", line).strip()
        if not cells:
            continue
        lines = 1
        for j, cell in enumerate(_split_cells(cells)):
            if j < len(fixed) and fixed[j] and "\\multicolumn" not in cell:
                need = text_width(cell.replace("\\raggedright ", ""), size)
                lines = max(lines, -(-int(need) // int(0.85 * fixed[j])))
        height += row * lines
    return height


def caption_height(caption: str, width: float, size: float = TABLE_SIZE_PT) -> float:
    """The height in pt of a float's ``\\caption{caption}`` (LaTeX ``caption``, in ``size`` pt type on
    1.2 times that) in a line ``width`` pt wide, with the 10 pt above it (``\\abovecaptionskip``): as
    many lines as ``Table 10: <caption>`` needs, a line breaking early by up to a tenth of its width."""
    return 10.0 + _lines("Table 10: " + caption, size, width) * 1.2 * size


def _lines(text: str, size: float, width: float) -> int:
    """How many lines ``text`` (LaTeX) takes at ``size`` pt in a paragraph ``width`` pt wide, a line
    breaking early by up to a tenth of its width (at least one)."""
    return max(1, -(-int(text_width(text, size)) // int(width * 0.9)))


#: a note under a table (``\\par\\footnotesize Note: ...``): 9 pt type on 11 pt in an 11 pt document
NOTE_SIZE_PT, NOTE_LINE_PT = 9.0, 11.0


def notes_height(notes: str, width: float) -> float:
    """The height in pt of the notes under a float's tables (``notes``: LaTeX, one ``\\par\\footnotesize
    Note: ...`` paragraph each, as :func:`sumeval.tables.write_table` writes them) in a line ``width`` pt wide:
    each paragraph as many :data:`NOTE_LINE_PT` lines as its text needs at :data:`NOTE_SIZE_PT`, a line
    breaking early by up to a tenth of its width."""
    height = 0.0
    for para in re.split(r"\\par\\footnotesize\s*", notes):
        if para.strip():
            height += _lines(para.strip(), NOTE_SIZE_PT, width) * NOTE_LINE_PT
    return height


def has_times() -> bool:
    """Whether the LaTeX installation has Times (``ptmr8t.tfm``, Debian's texlive-fonts-recommended),
    the font of :data:`ACL_PREAMBLE`."""
    if not shutil.which("kpsewhich"):
        return False
    found = subprocess.run(["kpsewhich", "ptmr8t.tfm"], capture_output=True, text=True)
    return found.returncode == 0 and bool(found.stdout.strip())


def measure_tables(paths: Sequence[str | Path], *, timeout: float = 120) -> dict[str, dict[str, list[tuple]]]:
    """Typeset each table file in ACL's page (:data:`ACL_PREAMBLE`, pdflatex) and read from the log, per
    file, ``{"tabulars": [(width, line width, height), ...], "floats": [(height, text height), ...]}``
    in pt: each tabular's box (height with depth) and the line it sits in (the column in a ``table``,
    the text in a ``table*``), and each float's box and the page's text height (a float taller than
    the page runs over its foot: LaTeX's "Float too large for page"). Raises ``FileNotFoundError``
    without pdflatex or its Times fonts, ``RuntimeError`` naming a file that does not typeset."""
    if not shutil.which("pdflatex") or not has_times():
        raise FileNotFoundError("no pdflatex with Times (texlive-fonts-recommended); run scripts/install_latex.sh")
    out: dict[str, dict[str, list[tuple]]] = {}
    with tempfile.TemporaryDirectory(prefix="sumeval-widths-") as work:
        for i, path in enumerate(paths):
            shutil.copyfile(path, Path(work) / f"table{i}.tex")
            doc = Path(work) / f"doc{i}.tex"
            doc.write_text(ACL_PREAMBLE + f"\\begin{{document}}\n\\input{{table{i}}}\n\\end{{document}}\n",
                           encoding="utf-8")
            run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
                                 cwd=work, capture_output=True, text=True, timeout=timeout)
            if run.returncode != 0:
                errors = [ln for ln in run.stdout.splitlines() if ln.startswith("!")]
                raise RuntimeError(f"{path} does not typeset: {'; '.join(errors) or run.stdout[-400:]}")
            log = doc.with_suffix(".log").read_text(encoding="latin-1")
            out[str(path)] = {
                "tabulars": [tuple(map(float, m))
                             for m in re.findall(r"MEASURE ([\d.]+)pt ([\d.]+)pt ([\d.]+)pt", log)],
                "floats": [tuple(map(float, m)) for m in re.findall(r"FLOAT ([\d.]+)pt ([\d.]+)pt", log)]}
    return out


def measure_tabulars(paths: Sequence[str | Path], *, timeout: float = 120) -> dict[str, list[tuple[float, float]]]:
    """Each table file's tabulars as ``(width, line width)`` in pt, typeset in ACL's page
    (:func:`measure_tables`, which also gives their heights and the floats')."""
    return {path: [(w, lw) for w, lw, _ in found["tabulars"]]
            for path, found in measure_tables(paths, timeout=timeout).items()}
