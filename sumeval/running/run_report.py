"""The HTML report of ``sumeval run all``: ``runs/report-<timestamp>/index.html``.

A page to read: a summary table of the studies, then per study its question (the notebook's first
Markdown cell, rendered), status, duration and parameters, the error (the failing cell) and notes,
its figures inline (PNG or SVG copies in the report folder, so the report survives later runs), its
tables (HTML, with their CSV, LaTeX and Markdown copies linked); folded away (``<details>``): every
number and result table of ``results.json`` and the run's manifest. Links to the executed notebook,
manifest and results. ``summary.json`` beside it holds the same as data.
"""
from __future__ import annotations

import datetime as _dt
import html
import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

__all__ = ["StudyOutcome", "write_report", "study_question"]


@dataclass
class StudyOutcome:
    """What one study of `sumeval run all` did."""

    study: str
    status: str  # ok | skipped (every part skipped, nothing made) | failed | interrupted
    run_id: str | None = None
    run_dir: str | None = None
    duration_s: float | None = None
    parameters: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    figures: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    question: str | None = None  # the notebook's first Markdown cell (filled by write_report when None)

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _new_report_dir(started: _dt.datetime) -> Path:
    from sumeval.paths import runs_dir

    base = runs_dir() / f"report-{started.strftime('%Y%m%d-%H%M%S')}"
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}-{n}")
    folder.mkdir(parents=True)
    return folder


def _scalars(results: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out = []
    for key, value in results.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.extend(_scalars(value, name + "."))
        elif value is None or isinstance(value, (bool, int, float, str)):
            out.append((name, value))
    return out


def _tables(results: Mapping[str, Any], prefix: str = "") -> list[tuple[str, list[dict[str, Any]]]]:
    out = []
    for key, value in results.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.extend(_tables(value, name + "."))
        elif isinstance(value, list) and value and all(isinstance(r, Mapping) for r in value):
            out.append((name, value))
    return out


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if value is None:
        return "—"
    return str(value)


def _table_html(rows: Sequence[Mapping[str, Any]], limit: int = 200) -> str:
    cols: list[str] = []
    for r in rows[:limit]:
        cols.extend(c for c in r if c not in cols)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(r.get(c)))}</td>" for c in cols) + "</tr>"
                   for r in rows[:limit])
    more = f"<p>… {len(rows) - limit} more rows in results.json</p>" if len(rows) > limit else ""
    return f"<table><tr>{head}</tr>{body}</table>{more}"


def _study_tables(o: StudyOutcome, folder: Path, rel) -> list[str]:
    """The study's tables (``ctx.save_table``) as HTML, each with links to its CSV, LaTeX and
    Markdown copies (copied into the report folder, so the report survives later runs)."""
    from sumeval.tables import FORMATS

    parts = []
    for table in o.tables:
        src = Path(table)
        fragment = src.with_suffix(".html")
        if not fragment.is_file():
            continue
        dest = folder / "tables" / o.study
        dest.mkdir(parents=True, exist_ok=True)
        links = []
        for suffix in FORMATS:
            f = src.with_suffix(f".{suffix}")
            if f.is_file():
                shutil.copy2(f, dest / f.name)
                if suffix != "html":
                    links.append(f'<a href="{html.escape(rel(dest / f.name))}">{suffix}</a>')
        parts.append(f"<h3>{html.escape(src.stem)} <small>({' · '.join(links)})</small></h3>"
                     f"<div class='tbl'>{fragment.read_text(encoding='utf-8')}</div>")
    return parts


def study_question(study: str, run_dir: str | None) -> str | None:
    """The first Markdown cell of the run's executed notebook (``<run_dir>/executed.ipynb``), else
    of ``notebooks/<study>.ipynb``; None when neither is readable or has one."""
    from sumeval.paths import notebooks_dir

    candidates = ([Path(run_dir) / "executed.ipynb"] if run_dir else []) + [notebooks_dir() / f"{study}.ipynb"]
    for nb_path in candidates:
        try:
            cells = json.loads(nb_path.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError, AttributeError):
            continue
        for cell in cells:
            if isinstance(cell, Mapping) and cell.get("cell_type") == "markdown":
                src = cell.get("source", "")
                text = "".join(src) if isinstance(src, list) else str(src)
                if text.strip():
                    return text.strip()
    return None


def _markdown_html(text: str) -> str:
    """``text`` (Markdown) as HTML, raw HTML in it escaped (mistune, installed with JupyterLab's
    nbconvert); escaped paragraphs when mistune is absent. A leading ``# Title`` line becomes an
    ``<h3>`` (the section's own ``<h2>`` is the study's name)."""
    try:
        import mistune
    except ImportError:  # pragma: no cover - installed with the notebooks extra
        return "".join(f"<p>{html.escape(par)}</p>" for par in text.split("\n\n") if par.strip())
    rendered = mistune.create_markdown(escape=True)(text)
    for level in (1, 2):  # below the report's <h1> and the study's <h2>
        rendered = rendered.replace(f"<h{level}>", "<h3>").replace(f"</h{level}>", "</h3>")
    return rendered


def _manifest_html(run_dir: Path) -> str:
    """The run's ``manifest.json`` as a folded two-column table (nested values as JSON)."""
    try:
        manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if not isinstance(manifest, Mapping):
        return ""
    rows = [{"key": k, "value": v if isinstance(v, (str, int, float, bool)) or v is None
             else json.dumps(v, ensure_ascii=False, default=str)} for k, v in manifest.items()]
    return (f"<details class='manifest'><summary>manifest ({len(rows)} entries)</summary>"
            f"{_table_html(rows)}</details>")


_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;font-size:90%;text-align:left}
.ok{color:#080;font-weight:bold}.failed{color:#b00;font-weight:bold}.skipped{color:#a60;font-weight:bold}
pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap}
img{max-width:min(100%,760px);border:1px solid #ddd;margin:.3em 0}section{border-top:2px solid #888;margin-top:2em}
.tbl{overflow-x:auto}.tbl td,.tbl th{text-align:right}
.question{background:#f4f7fb;border-left:4px solid #58a;padding:.2em 1em;margin:.5em 0}
details{margin:.4em 0}summary{cursor:pointer;color:#345}"""


def _shown_figures(o: StudyOutcome) -> list[Path]:
    """The image of each figure a study wrote, once per name: its PNG or SVG (a PDF-only listing: its PNG or SVG
    sibling, if written), those that are there."""
    figures: list[Path] = []
    for fig in o.figures:
        src = Path(fig)
        shown = src if src.suffix in (".png", ".svg") else None
        if shown is None:  # a PDF-only listing: its PNG or SVG sibling, if written
            shown = next((c for c in (src.with_suffix(".png"), src.with_suffix(".svg"))
                          if str(c) not in o.figures and c.is_file()), None)
        if shown is None or not shown.is_file() or any(shown.stem == f.stem for f in figures):
            continue
        figures.append(shown)
    return figures


def write_report(outcomes: Sequence[StudyOutcome], params_name: str, started: _dt.datetime,
                 finished: _dt.datetime) -> Path:
    """Write ``runs/report-<timestamp>/index.html`` (+ ``summary.json``, PNG copies); return index.html.

    Files are written first; ``index.html`` last and atomically, so a report page is never partial.
    """
    from sumeval.cache import atomic_write_json, atomic_write_text

    folder = _new_report_dir(started)
    n_ok = sum(o.ok for o in outcomes)
    rel = lambda p: os.path.relpath(p, folder)  # noqa: E731
    rows, sections = [], []
    for o in outcomes:
        cls = "ok" if o.ok else "skipped" if o.status == "skipped" else "failed"
        links = ""
        if o.run_dir:
            run_dir = Path(o.run_dir)
            links = " · ".join(f'<a href="{html.escape(rel(run_dir / f))}">{f}</a>'
                               for f in ("executed.ipynb", "manifest.json", "results.json") if (run_dir / f).is_file())
        dur = f"{o.duration_s:.1f} s" if o.duration_s is not None else "—"
        params = ", ".join(f"{k}={v!r}" for k, v in o.parameters.items())
        if o.question is None:
            o.question = study_question(o.study, o.run_dir)
        title = (o.question or "").splitlines()[0].lstrip("#").strip() if o.question else ""
        n_figures = len({Path(f).stem for f in o.figures if f.endswith((".png", ".svg"))})
        rows.append(f'<tr><td><a href="#{html.escape(o.study)}">{html.escape(o.study)}</a></td>'
                    f'<td>{html.escape(title)}</td>'
                    f'<td class="{cls}">{html.escape(o.status)}</td><td>{dur}</td>'
                    f'<td>{n_figures}</td><td>{len(o.tables)}</td>'
                    f'<td>{links}</td></tr>')
        parts = [f'<section id="{html.escape(o.study)}"><h2>{html.escape(o.study)} '
                 f'<span class="{cls}">{html.escape(o.status)}</span></h2>']
        if o.question:
            parts.append(f"<div class='question'>{_markdown_html(o.question)}</div>")
        parts += [f"<p>run <code>{html.escape(o.run_id or '—')}</code>, {dur}. {links}</p>",
                  f"<p>parameters ({html.escape(params_name)}): <code>{html.escape(params or '—')}</code></p>"]
        if o.error:
            parts.append(f"<pre>{html.escape(o.error)}</pre>")
        if o.notes:
            parts.append("<ul class=\"notes\">" + "".join(f"<li>note: {html.escape(n)}</li>" for n in o.notes)
                         + "</ul>")
        figures = _shown_figures(o)  # the figures first, then the tables; the raw numbers and the manifest folded
        if figures:
            parts.append("<h3>Figures</h3>")
        for src in figures:
            dest = folder / "figures" / o.study / src.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
            pdf = src.with_suffix(".pdf")
            pdf_link = f' (<a href="{html.escape(rel(pdf))}">PDF</a>)' if pdf.is_file() else ""
            parts.append(f'<figure><img src="{html.escape(rel(dest))}" alt="{html.escape(src.stem)}">'
                         f"<figcaption>{html.escape(src.stem)}{pdf_link}</figcaption></figure>")
        tables = _study_tables(o, folder, rel)
        if tables:
            parts.append("<h3>Tables</h3>")
        parts.extend(tables)
        scalars = _scalars(o.results)
        if scalars:
            parts.append(f"<details class='numbers'><summary>all numbers of results.json ({len(scalars)})</summary>"
                         + _table_html([{"result": k, "value": v} for k, v in scalars]) + "</details>")
        for name, table in _tables(o.results):
            parts.append(f"<details><summary>{html.escape(name)} ({len(table)} rows)</summary>"
                         f"{_table_html(table)}</details>")
        if o.run_dir:
            parts.append(_manifest_html(Path(o.run_dir)))
        parts.append("</section>")
        sections.append("\n".join(parts))
    title = f"sumeval run all --params {params_name}: {n_ok} of {len(outcomes)} studies ok"
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p>started {started.isoformat(timespec='seconds')}, finished {finished.isoformat(timespec='seconds')} "
            f"({(finished - started).total_seconds():.0f} s)</p>"
            "<table><tr><th>study</th><th>question</th><th>status</th><th>duration</th><th>figures</th><th>tables</th>"
            "<th>files</th></tr>"
            + "".join(rows) + "</table>" + "\n".join(sections) + "</body></html>\n")
    atomic_write_json(folder / "summary.json", {
        "parameter_set": params_name, "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"), "ok": n_ok == len(outcomes),
        "studies": [asdict(o) for o in outcomes]}, default=str)
    return atomic_write_text(folder / "index.html", page)
