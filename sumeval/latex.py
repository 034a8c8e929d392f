"""LaTeX for :mod:`sumeval.tables`: escaping, the booktabs tabular, and checking a written table.

:func:`tabular` lays out cells that are already LaTeX (escaped, bold, marks) under one header row
per level of the column index: an outer level spans its columns with ``\\multicolumn`` and a
``\\cmidrule`` under it, the last header row carries the row index's names; an outer row label
is printed once, on the first row of its group (no ``\\multirow``, so the table needs booktabs
only). :func:`check_table` checks a ``.tex`` file's structure without a LaTeX engine;
:func:`compile_tables` typesets files in a minimal document when an engine is installed
(``scripts/install_latex.sh``).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Sequence

__all__ = ["escape", "tabular", "NEEDS", "check_table", "compile_tables", "engine", "MINIMAL_PREAMBLE"]

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


def tabular(cells: list[list[str]], *, columns: list[tuple], column_labels: list[list[str]],
            rows: list[tuple], row_labels: list[list[str]], stub: list[str],
            groups: Sequence | None = None, align: Sequence[str] | None = None) -> str:
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

    Returns:
        ``\\begin{tabular}...\\end{tabular}`` with ``\\toprule``, one header row per column level
        (outer levels as ``\\multicolumn`` with a ``\\cmidrule`` under each), ``\\midrule``, the rows
        (an outer row label only where it changes, ``\\addlinespace`` between groups) and
        ``\\bottomrule``.
    """
    k = len(stub)
    n_levels = len(columns[0]) if columns else 1
    spec = "l" * k + "".join(align) if align is not None else "l" * k + "r" * len(columns)
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
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
    lines.append("\\midrule")
    if groups is None:
        groups = [r[0] if k > 1 else None for r in rows]
    previous: tuple | None = None
    for i, (key, labels, row) in enumerate(zip(rows, row_labels, cells)):
        shown = list(labels)
        if previous is not None and groups[i] != groups[i - 1]:
            lines.append("\\addlinespace")
        if previous is not None and k > 1:
            for level in range(k - 1):  # an outer label once per group
                if key[: level + 1] == previous[: level + 1]:
                    shown[level] = ""
        previous = key
        lines.append(" & ".join([*shown, *row]) + " \\\\")
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
    ``\\midrule``, ``\\bottomrule`` once each, in that order; every row of the tabular has as many
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
    rules = [tex.find(r) for r in ("\\toprule", "\\midrule", "\\bottomrule")]
    counts = [tex.count(r) for r in ("\\toprule", "\\midrule", "\\bottomrule")]
    if counts != [1, 1, 1] or not rules[0] < rules[1] < rules[2]:
        problems.append(f"booktabs rules: toprule, midrule, bottomrule counted {counts}, not once each in order")
    if "\\multirow" in tex:
        problems.append("\\multirow needs the multirow package, which the file does not name")
    odd = sorted({ch for ch in tex if ord(ch) > 0xFF})
    if odd:
        problems.append(f"characters pdflatex may not typeset: {''.join(odd)!r}")
    spec = re.search(r"\\begin\{tabular\}\{([^}]*)\}", tex)
    if not spec:
        return problems + ["no \\begin{tabular}{...}"]
    n_cols = len(re.sub(r"[^lcrpmb]", "", spec.group(1)))
    body = tex[spec.end(): tex.find("\\end{tabular}")]
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
