"""The HTML report of ``sumeval run all``: ``runs/report-<timestamp>/index.html``.

Per study its status, duration, parameters, error (the failing cell), notes, key numbers (scalar
results), tables (HTML, with their CSV, LaTeX and Markdown copies linked), figures inline (PNG
copies in the report folder, so the report survives later runs) and longer result tables folded,
with links to the executed notebook and manifest. ``summary.json`` beside it holds the same as data.
"""
from __future__ import annotations

import datetime as _dt
import html
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

__all__ = ["StudyOutcome", "write_report"]


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


_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;font-size:90%;text-align:left}
.ok{color:#080;font-weight:bold}.failed{color:#b00;font-weight:bold}.skipped{color:#a60;font-weight:bold}
pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap}
img{max-width:min(100%,760px);border:1px solid #ddd;margin:.3em 0}section{border-top:2px solid #888;margin-top:2em}
.tbl{overflow-x:auto}.tbl td,.tbl th{text-align:right}"""


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
        rows.append(f'<tr><td><a href="#{html.escape(o.study)}">{html.escape(o.study)}</a></td>'
                    f'<td class="{cls}">{html.escape(o.status)}</td><td>{dur}</td>'
                    f'<td>{len([f for f in o.figures if f.endswith(".png")])}</td><td>{len(o.tables)}</td>'
                    f'<td>{links}</td></tr>')
        parts = [f'<section id="{html.escape(o.study)}"><h2>{html.escape(o.study)} '
                 f'<span class="{cls}">{html.escape(o.status)}</span></h2>',
                 f"<p>run <code>{html.escape(o.run_id or '—')}</code>, {dur}. {links}</p>",
                 f"<p>parameters ({html.escape(params_name)}): <code>{html.escape(params or '—')}</code></p>"]
        if o.error:
            parts.append(f"<pre>{html.escape(o.error)}</pre>")
        if o.notes:
            parts.append("<ul class=\"notes\">" + "".join(f"<li>note: {html.escape(n)}</li>" for n in o.notes)
                         + "</ul>")
        scalars = _scalars(o.results)
        if scalars:  # the key numbers first, then the tables, then the figures
            parts.append("<h3>Key numbers</h3>" + _table_html([{"result": k, "value": v} for k, v in scalars]))
        parts.extend(_study_tables(o, folder, rel))
        for fig in o.figures:
            src = Path(fig)
            if src.suffix != ".png" or not src.is_file():
                continue
            dest = folder / "figures" / o.study / src.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
            pdf = src.with_suffix(".pdf")
            pdf_link = f' (<a href="{html.escape(rel(pdf))}">PDF</a>)' if pdf.is_file() else ""
            parts.append(f'<figure><img src="{html.escape(rel(dest))}" alt="{html.escape(src.stem)}">'
                         f"<figcaption>{html.escape(src.stem)}{pdf_link}</figcaption></figure>")
        for name, table in _tables(o.results):
            parts.append(f"<details><summary>{html.escape(name)} ({len(table)} rows)</summary>"
                         f"{_table_html(table)}</details>")
        parts.append("</section>")
        sections.append("\n".join(parts))
    title = f"sumeval run all --params {params_name}: {n_ok} of {len(outcomes)} studies ok"
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p>started {started.isoformat(timespec='seconds')}, finished {finished.isoformat(timespec='seconds')} "
            f"({(finished - started).total_seconds():.0f} s)</p>"
            "<table><tr><th>study</th><th>status</th><th>duration</th><th>figures</th><th>tables</th>"
            "<th>files</th></tr>"
            + "".join(rows) + "</table>" + "\n".join(sections) + "</body></html>\n")
    atomic_write_json(folder / "summary.json", {
        "parameter_set": params_name, "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"), "ok": n_ok == len(outcomes),
        "studies": [asdict(o) for o in outcomes]}, default=str)
    return atomic_write_text(folder / "index.html", page)
