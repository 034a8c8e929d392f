"""ipywidgets explorers over the same tidy frames the studies write (imported lazily).

Notebooks show an explorer only when ``interactive=True``; the runner passes False.

- :func:`frame_explorer`: multi-select filters over a tidy frame (one row per measure x setting),
  the rows ordered by value with their interval and significance cluster, in display names, and a
  chart of the values with their intervals. Nothing is averaged: the chart is drawn only when the
  selection leaves one row per (label, series); otherwise a line names the columns that still vary.
- :func:`run_explorer`: the same views over the runs on disk (``runs/<study>/<run-id>/``) of the
  studies with a tidy result (meta-evaluation, the shelf, the LLM judges), the run and its
  parameter set chosen from those found.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

ALL = "(all)"
CHART_MAX_LABELS = 60  # a chart with more rows than this is not drawn (the table shows them all)
TABLE_MAX_ROWS = 2000  # the table shows every row up to this many (scrolling), never pandas' elided middle

__all__ = ["ALL", "filter_frame", "ordered_rows", "varying", "frame_explorer", "runs_on_disk", "load_run_frame",
           "run_explorer", "RESULT_VIEWS"]


def _chosen(value: Any) -> list[str] | None:
    """A filter's choice as a list of values, or None for every value (ALL, an empty choice)."""
    if value is None or (isinstance(value, str) and value == ALL):
        return None
    values = [value] if isinstance(value, str) or not isinstance(value, (list, tuple, set)) else list(value)
    values = [str(v) for v in values if str(v) != ALL]
    return values or None


def filter_frame(frame: pd.DataFrame, selection: Mapping[str, Any]) -> pd.DataFrame:
    """Rows of ``frame`` matching ``selection``: ``{column: value or values}``; ``"(all)"``, None or an
    empty choice keeps every value of that column."""
    mask = pd.Series(True, index=frame.index)
    for col, value in selection.items():
        chosen = _chosen(value)
        if chosen is not None:
            mask &= frame[col].astype(str).isin(chosen)
    return frame[mask]


def varying(frame: pd.DataFrame, columns: Sequence[str], within: Sequence[str] = ()) -> dict[str, int]:
    """``{column: number of values}`` of the ``columns`` that hold more than one value in ``frame``
    - within one group of the ``within`` columns, when given (a column such as a measure's ``kind``,
    one value per measure, does not vary within a measure: its rows are not pooled)."""
    keys = [k for k in within if k in frame]
    out = {}
    for c in columns:
        if c not in frame or c in keys:
            continue
        values = frame[c].astype(str)
        if keys and int(values.groupby([frame[k].astype(str) for k in keys]).nunique().max()) <= 1:
            continue
        if (n := values.nunique()) > 1:
            out[c] = n
    return out


def _name(value: Any) -> str:
    from sumeval.display_names import display

    return display(value) if isinstance(value, str) else str(value)


def ordered_rows(frame: pd.DataFrame, *, value: str, group_by: Sequence[str] = (), low: str | None = None,
                 high: str | None = None, cluster: str | None = None, names: Sequence[str] = ()) -> pd.DataFrame:
    """``frame`` for reading: within each group of ``group_by`` (in the order the groups first appear)
    the rows ordered by ``value``, highest first (a row without a value last); the interval as one
    ``95% interval`` column ``[low, high]``, the cluster beside it; the values of ``names`` columns
    in display names. The data's own columns are kept, in their order."""
    out = frame.copy()
    out["_order"] = -pd.to_numeric(out[value], errors="coerce")
    keys = [g for g in group_by if g in out]
    if keys:
        first = {k: i for i, k in enumerate(dict.fromkeys(map(tuple, out[keys].astype(str).to_numpy())))}
        out["_group"] = [first[tuple(r)] for r in out[keys].astype(str).to_numpy()]
        out = out.sort_values(["_group", "_order"], kind="stable", na_position="last")
    else:
        out = out.sort_values("_order", kind="stable", na_position="last")
    if low and high and low in out and high in out:
        lo, hi = pd.to_numeric(out[low], errors="coerce"), pd.to_numeric(out[high], errors="coerce")
        pos = out.columns.get_loc(value) + 1
        out.insert(pos, "95% interval", [f"[{a:.3f}, {b:.3f}]" if pd.notna(a) and pd.notna(b) else "—"
                                         for a, b in zip(lo, hi)])
        out = out.drop(columns=[low, high])
    if cluster and cluster in out:
        c = out.pop(cluster)
        out.insert(out.columns.get_loc(value) + (2 if "95% interval" in out else 1), "cluster",
                   [str(int(x)) if pd.notna(x) and float(x) == int(float(x)) else ("—" if pd.isna(x) else str(x))
                    for x in c])
    for col in names:
        if col in out:
            out[col] = out[col].map(_name)
    return out.drop(columns=[c for c in ("_order", "_group") if c in out]).reset_index(drop=True)


def _pick(frame: pd.DataFrame, given: str | None, candidates: Sequence[str]) -> str | None:
    if given is not None:
        return given if given in frame else None
    return next((c for c in candidates if c in frame), None)


def frame_explorer(frame: pd.DataFrame, filters: Sequence[str], *, value: str = "value",
                   bar_by: str | None = "method", label_by: str = "metric", title: str = "",
                   low: str | None = None, high: str | None = None, cluster: str | None = None,
                   initial: Mapping[str, Any] | None = None):
    """Multi-select filters (one per column in ``filters``; nothing chosen = every value) over
    ``frame``; shows what is selected and what still varies, the rows ordered by ``value`` with their
    interval (``low``/``high``, default ``ci_low``/``ci_high`` when present) and ``cluster`` (default
    the ``cluster`` column when present), and a chart of ``value`` per ``label_by`` (one series per
    ``bar_by`` value) with the intervals. Nothing is averaged: when the selection leaves more than one
    row per (label, series), the chart is not drawn and a line names the columns to narrow.

    Returns the ``ipywidgets.VBox``; ``.children[0]`` holds the filters and ``.children[1]`` the
    output area. ``box.selection()`` gives the current ``{column: [values] or "(all)"}``;
    ``box.current()`` the filtered frame; ``box.last_shown`` the frame drawn last, ``box.last_table``
    the table shown, ``box.last_note`` the line on what varies, ``box.last_chart`` whether a chart
    was drawn; ``box.filters`` the filter widgets by column.
    """
    import ipywidgets as w
    import matplotlib.pyplot as plt
    from IPython.display import HTML, display

    low, high = _pick(frame, low, ("ci_low", "low")), _pick(frame, high, ("ci_high", "high"))
    cluster = _pick(frame, cluster, ("cluster",))
    initial = dict(initial or {})
    selects = {}
    for col in filters:
        values = sorted(map(str, frame[col].dropna().unique()), key=_natural)
        start = tuple(v for v in (_chosen(initial.get(col)) or []) if v in values)
        selects[col] = w.SelectMultiple(options=[(_name(v), v) for v in values], value=start,
                                        rows=min(6, max(2, len(values))), description=_name(col),
                                        layout=w.Layout(width="260px"))
    out = w.Output()
    names = [c for c in dict.fromkeys([*filters, label_by, *( [bar_by] if bar_by else [])]) if c in frame]

    def selection() -> dict[str, Any]:
        return {c: list(s.value) if s.value else ALL for c, s in selects.items()}

    def current() -> pd.DataFrame:
        return filter_frame(frame, selection())

    def note_for(sub: pd.DataFrame) -> str:
        chosen = [f"{_name(c)} = {', '.join(_name(v) for v in s.value)}" for c, s in selects.items() if s.value]
        others = [c for c in frame.columns if c in filters and c not in (label_by, bar_by)]
        vary = varying(sub, others, within=[label_by] + ([bar_by] if bar_by else []))
        parts = [f"{len(sub)} rows; " + ("; ".join(chosen) if chosen else "no filter chosen (every value)")]
        if vary:
            parts.append("Varying across the rows (each row is its own result, nothing averaged): "
                         + ", ".join(f"{_name(c)} ({n})" for c, n in vary.items()))
        else:
            parts.append("One row per " + " x ".join(_name(c) for c in (label_by, bar_by) if c and c in sub)
                         + ", nothing pooled")
        return ". ".join(parts) + "."

    def redraw(*_):
        sub = current()
        box.last_shown = sub
        box.last_chart = False
        out.clear_output(wait=True)
        with out:
            if sub.empty:
                box.last_note, box.last_table = "no rows for this selection", sub
                print("no rows for this selection")
                return
            box.last_note = note_for(sub)
            # grouped by the settings that vary (not by a measure's own attributes), each group by value
            within = [label_by] + ([bar_by] if bar_by else [])
            group_by = list(varying(sub, [c for c in filters if c not in within], within=within)) + within[1:]
            table = ordered_rows(sub, value=value, group_by=group_by, low=low,
                                 high=high, cluster=cluster, names=names)
            table = table.rename(columns={c: _name(c) for c in table.columns if c in names})
            box.last_table = table
            display(HTML(f"<p class='sumeval-explorer-note'>{_escape(box.last_note)}</p>"))
            shown = table if len(table) <= TABLE_MAX_ROWS else table.head(TABLE_MAX_ROWS)
            more = (f"<p>the first {TABLE_MAX_ROWS} of {len(table)} rows; narrow the filters for the rest</p>"
                    if len(table) > TABLE_MAX_ROWS else "")
            display(HTML("<div class='sumeval-explorer-table' style='max-height:480px;overflow:auto'>"
                         + shown.to_html(index=False, na_rep="—", float_format=lambda x: f"{x:.4g}") + "</div>" + more))
            message = _chart(sub)
            if message:
                display(HTML(f"<p class='sumeval-explorer-chart-note'>{_escape(message)}</p>"))

    def _chart(sub: pd.DataFrame) -> str | None:
        if label_by not in sub or value not in sub:
            return None
        keys = [label_by] + ([bar_by] if bar_by and bar_by in sub else [])
        others = varying(sub, [c for c in filters if c not in keys], within=keys)
        if others:
            return ("chart: choose one value of " + ", ".join(f"{_name(c)} (now {n})" for c, n in others.items())
                    + " - rows are never averaged")
        if sub.duplicated(keys).any():
            return (f"chart: more than one row per {' x '.join(_name(k) for k in keys)}; narrow the filters - "
                    "rows are never averaged")
        labels = list(dict.fromkeys(ordered_rows(sub, value=value, low=None, high=None)[label_by]))
        if len(labels) > CHART_MAX_LABELS:
            return (f"chart: {len(labels)} rows, more than {CHART_MAX_LABELS}; "
                    "narrow the filters (the table has them all)")
        _draw_chart(sub, labels, keys, value=value, label_by=label_by, bar_by=bar_by, low=low, high=high,
                    cluster=cluster, title=title)
        plt.show()
        box.last_chart = True
        return None

    box = w.VBox([w.HBox(list(selects.values()), layout=w.Layout(flex_flow="row wrap")), out])
    box.last_note, box.last_table, box.last_chart = "", frame.iloc[:0], False
    for s in selects.values():
        s.observe(redraw, names="value")
    box.selection = selection
    box.current = current
    box.filters = selects
    redraw()
    return box


def _draw_chart(sub: pd.DataFrame, labels: list, keys: list[str], *, value: str, label_by: str,
                bar_by: str | None, low: str | None, high: str | None, cluster: str | None, title: str) -> None:
    """The explorer's chart of ``sub``: ``value`` per label (highest at the top), one series per ``bar_by`` value
    when ``keys`` holds it, with the intervals and the cluster numbers (:func:`frame_explorer`)."""
    import matplotlib.pyplot as plt

    series = list(dict.fromkeys(sub[bar_by])) if len(keys) == 2 else [None]
    fig, ax = plt.subplots(figsize=(6.5, 0.32 * len(labels) * max(1, len(series)) ** 0.5 + 1.3))
    pos = {lab: len(labels) - 1 - i for i, lab in enumerate(labels)}  # highest value at the top
    step = 0.8 / max(1, len(series))
    for k, s in enumerate(series):
        part = sub if s is None else sub[sub[bar_by] == s]
        y = [pos[lab] + (k - (len(series) - 1) / 2) * step for lab in part[label_by]]
        x = pd.to_numeric(part[value], errors="coerce")
        if low and high:
            lo, hi = pd.to_numeric(part[low], errors="coerce"), pd.to_numeric(part[high], errors="coerce")
            ax.hlines(y, lo, hi, color=f"C{k}", lw=1.5)
        ax.plot(x, y, "o", color=f"C{k}", label=None if s is None else _name(s))
        if cluster and cluster in part:
            for xi, yi, c in zip(x, y, part[cluster]):
                if pd.notna(c) and pd.notna(xi):
                    ax.annotate(f"{int(c)}" if float(c) == int(float(c)) else str(c), (xi, yi),
                                xytext=(4, 3), textcoords="offset points", fontsize=7)
    ax.set_yticks(range(len(labels)), [_name(lab) for lab in reversed(labels)])
    ax.set_xlabel(_name(value) + (" (95% interval)" if low and high else "")
                  + ("; number: significance cluster" if cluster else ""))
    if series != [None]:
        ax.legend(title=_name(bar_by), fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title(title)
    fig.tight_layout()


def _natural(text: str):
    """Sort key: numbers by value (``2`` before ``10``), then text."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def _escape(text: str) -> str:
    import html

    return html.escape(text)


# ------------------------------------------------------------------------------------------
# runs on disk
# ------------------------------------------------------------------------------------------
def _meta_evaluation_frame(run_dir: Path) -> pd.DataFrame:
    corr = pd.read_csv(run_dir / "meta-eval" / "correlations.csv")
    ranking = pd.read_csv(run_dir / "meta-eval" / "ranking.csv")
    keys = ["measure", "human", "level", "coefficient"]
    return corr.merge(ranking[keys + ["rank", "cluster"]], on=keys, how="left")


def _shelf_frame(run_dir: Path) -> pd.DataFrame:
    cells = pd.read_csv(run_dir / "across" / "across.csv")
    return cells[cells["status"] == "ok"].reset_index(drop=True)


def _llm_judges_frame(run_dir: Path) -> pd.DataFrame:
    folder = run_dir / "llm_judges"
    parts = [pd.read_csv(folder / "correlations.csv"), pd.read_csv(folder / "ceiling.csv")]
    frame = pd.concat(parts, ignore_index=True).assign(dataset="summeval")
    if (folder / "shelf.csv").is_file():
        frame = pd.concat([frame, pd.read_csv(folder / "shelf.csv")], ignore_index=True)
    cols = ["dataset", "measure", "kind", "human", "level", "coefficient", "value", "ci_low", "ci_high", "cluster"]
    return frame[[c for c in cols if c in frame]]


#: study -> (how to read a run's tidy result, the filter columns, the label column)
RESULT_VIEWS: dict[str, tuple[Callable[[Path], pd.DataFrame], list[str], str]] = {
    "meta_evaluation": (_meta_evaluation_frame, ["human", "level", "coefficient", "measure"], "measure"),
    "shelf": (_shelf_frame, ["coefficient", "dataset", "human", "level", "kind", "measure"], "measure"),
    "llm_judges": (_llm_judges_frame, ["dataset", "human", "level", "coefficient", "kind", "measure"], "measure"),
}


def runs_on_disk(root: str | Path | None = None, studies: Sequence[str] | None = None) -> pd.DataFrame:
    """The finished runs (``status`` ok in their manifest) under ``root`` (default the runs folder)
    of the studies with a result view: ``study, run_id, parameter_set, started, parameters, path``,
    newest first within each study."""
    from sumeval.paths import runs_dir

    base = Path(root) if root is not None else runs_dir()
    rows = []
    for study in studies or list(RESULT_VIEWS):
        if study not in RESULT_VIEWS or not (base / study).is_dir():
            continue
        for run in sorted((base / study).iterdir()):
            try:
                manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(manifest, dict) or manifest.get("status") != "ok":
                continue
            rows.append({"study": study, "run_id": run.name, "parameter_set": manifest.get("parameter_set"),
                         "started": manifest.get("started") or "", "parameters": manifest.get("parameters") or {},
                         "path": str(run)})
    frame = pd.DataFrame(rows, columns=["study", "run_id", "parameter_set", "started", "parameters", "path"])
    if frame.empty:
        return frame
    order = {s: i for i, s in enumerate(RESULT_VIEWS)}
    frame["_s"] = frame["study"].map(order)
    return frame.sort_values(["_s", "started"], ascending=[True, False]).drop(columns="_s").reset_index(drop=True)


def load_run_frame(study: str, run_dir: str | Path) -> pd.DataFrame:
    """The tidy result of one run of ``study`` (:data:`RESULT_VIEWS`), read from its run folder."""
    from sumeval.errors import InputError

    if study not in RESULT_VIEWS:
        raise InputError(f"no result view for study {study!r}; views exist for {', '.join(RESULT_VIEWS)}")
    try:
        return RESULT_VIEWS[study][0](Path(run_dir))
    except FileNotFoundError as exc:
        raise InputError(f"run {run_dir}: {exc.filename} is missing; the run did not finish writing its "
                         "results - run the study again") from None


def run_explorer(root: str | Path | None = None, studies: Sequence[str] | None = None):
    """Choose a study and one of its runs on disk (by parameter set, run id and start), see its
    parameters, and explore its result with :func:`frame_explorer` (each setting - a filter whose
    value varies within a measure - starts on the first row's value, so that the chart shows one
    result per measure; the measure and its own attributes start open).

    Returns the ``ipywidgets.VBox``; ``box.runs`` the runs found, ``box.study`` and ``box.run``
    the two dropdowns, ``box.explorer`` the current :func:`frame_explorer` (None without runs)."""
    import ipywidgets as w
    from IPython.display import display

    runs = runs_on_disk(root, studies)
    out = w.Output()
    if runs.empty:
        from sumeval.paths import runs_dir

        where = Path(root) if root is not None else runs_dir()
        box = w.VBox([w.HTML(f"<p>no finished run of {', '.join(studies or RESULT_VIEWS)} under {_escape(str(where))}"
                             "; run one, e.g. <code>sumeval run meta_evaluation --params smoke</code></p>")])
        box.runs, box.study, box.run, box.explorer = runs, None, None, None
        return box
    study_dd = w.Dropdown(options=[(_name(s), s) for s in dict.fromkeys(runs["study"])], description="study",
                          layout=w.Layout(width="320px"))
    run_dd = w.Dropdown(description="run", layout=w.Layout(width="560px"))
    params = w.HTML()

    def run_options(study: str) -> list[tuple[str, str]]:
        mine = runs[runs["study"] == study]
        return [(f"{r.parameter_set} · {r.run_id} · {r.started}", r.path) for r in mine.itertuples()]

    def show_run(*_):
        if run_dd.value is None:
            return
        row = runs[runs["path"] == run_dd.value].iloc[0]
        given = ", ".join(f"{k}={v!r}" for k, v in row["parameters"].items()) or "—"
        params.value = (f"<p>parameter set <b>{_escape(str(row['parameter_set']))}</b>: "
                        f"<code>{_escape(given)}</code></p>")
        _, filters, label = RESULT_VIEWS[row["study"]]
        frame = load_run_frame(row["study"], row["path"])
        filters = [f for f in filters if f in frame]
        # the settings of the first row (a measure's own attributes, such as its kind, left open)
        first = frame.iloc[0] if len(frame) else {}
        initial = {f: [str(first[f])] for f in filters
                   if f != label and varying(frame, [f], within=[label]) and pd.notna(first[f])}
        box.explorer = frame_explorer(frame, filters, label_by=label, bar_by=None, initial=initial,
                                      title=f"{_name(row['study'])}: {row['run_id']}")
        out.clear_output(wait=True)
        with out:
            display(box.explorer)

    def pick_study(*_):
        run_dd.options = run_options(study_dd.value)
        run_dd.value = run_dd.options[0][1] if run_dd.options else None

    box = w.VBox([w.HBox([study_dd, run_dd]), params, out])
    box.runs, box.study, box.run, box.explorer = runs, study_dd, run_dd, None
    run_dd.observe(show_run, names="value")
    study_dd.observe(pick_study, names="value")
    pick_study()
    if box.explorer is None:
        show_run()
    return box
