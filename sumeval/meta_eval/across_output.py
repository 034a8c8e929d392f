"""Writing a meta-evaluation across data sets, its paper tables, and its command line.

The output folder gets::

    <dataset>/                          each set's own meta-evaluation (the files ``sumeval meta-eval``
                                        writes: :func:`~sumeval.meta_eval.write_meta_evaluation`);
                                        a pairwise set adds ranking_accuracy.csv and
                                        ranking_accuracy_tests.csv
    across.csv                          one row per (coefficient, measure, data set, human, level):
                                        value, interval, rank, cluster, n, status, reason
    tasks.csv                           every (data set, human, level): run or why not, its weight
    across_summary.csv                  per (coefficient, scope, measure): mean rank, mean score,
                                        mean correlation, coverage, position
    table_across_<coef>_<level>.{tex,md,csv,html}   measures x (data set, human) at one level:
                                        value with its cluster, blank cells lettered, mean rank
                                        and mean score over the level's tasks
    table_ranking_<coef>.{...}          the across-sets ranking (every level, then per level)
    heatmap_<coef>_<level>.{pdf,png}  ranking_<coef>.{pdf,png}
    manifest.json                       settings, weights, measures, per set: status and timings

Each set's folder is written whole by the meta-eval writer; the top files are written into a
hidden folder, then moved into place, ``manifest.json`` last. Command line: ``sumeval meta-eval
--dataset A B ...`` (:mod:`sumeval.cli.meta_eval`).
"""
from __future__ import annotations

import datetime as _dt
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.meta_eval.across import AcrossResult
from sumeval.meta_eval.manifest import add_writing_time
from sumeval.plots.shelf import REASON_LETTERS, reason_letter

__all__ = ["MANIFEST_KIND", "check_across_out", "across_table", "ranking_table", "ranking_caption", "caption",
           "write_across", "parse_weights", "parse_humans"]

MANIFEST_KIND = "sumeval meta-eval across"
_PARTIAL = ".across-partial-"
_TOP = ("across.csv", "tasks.csv", "across_summary.csv", "manifest.json")


def check_across_out(path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """The output folder, checked before any work: new, empty, or (with ``overwrite``, as a single
    meta-eval's ``--overwrite``) one an earlier across run wrote, whose files and set folders are
    replaced. InputError names the path and the fix."""
    out = Path(path)
    if out.is_dir() and _is_across(out / "manifest.json") and not overwrite:
        raise InputError(f"--out {str(out)!r} holds an earlier `sumeval meta-eval --dataset ...` run; pass "
                         "--overwrite to replace it, or name a new folder")
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file, not a folder; name a folder (it is created if missing)")
    if out.is_dir() and not _is_across(out / "manifest.json"):
        foreign = [p.name for p in out.iterdir() if not p.name.startswith(_PARTIAL) and not
                   (p.is_dir() and (p / "manifest.json").is_file() and _kind(p / "manifest.json") == "sumeval meta-eval")]
        if foreign:
            raise InputError(f"--out {str(out)!r} holds other files ({', '.join(sorted(foreign)[:5])}"
                             f"{' ...' if len(foreign) > 5 else ''}); name an empty or new folder, or one an earlier "
                             "`sumeval meta-eval --dataset ...` wrote")
    parent = out
    while not parent.is_dir() and parent != parent.parent:  # the nearest folder that exists
        parent = parent.parent
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"--out {str(out)!r}: cannot write in {str(parent)!r} (permission denied)")
    return out


def _kind(path: Path) -> str | None:
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8")).get("kind")
    except (OSError, ValueError, AttributeError):
        return None


def _is_across(path: Path) -> bool:
    return _kind(path) == MANIFEST_KIND


def across_table(result: AcrossResult, coefficient: str, level: str, *, measures: list[str] | None = None
                 ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, list[str]]:
    """The paper table of one coefficient and level: measures x (data set, human), then the mean
    rank and mean score over the level's tasks.

    Returns:
        ``(values, bold, marks, letters)``: the numbers, the best of each column (lowest mean
        rank), each cell's mark (its cluster, or a letter for a blank cell,
        :data:`sumeval.plots.shelf.REASON_LETTERS`) and the letters used.
    """
    cells = result.cells[(result.cells["coefficient"] == coefficient) & (result.cells["level"] == level)]
    rows = [m for m in (measures or result.measures) if m in set(cells["measure"])]
    tasks = list(dict.fromkeys(zip(cells["dataset"], cells["human"])))
    cols = pd.MultiIndex.from_tuples([*tasks, ("across", "mean rank"), ("across", "mean score")],
                                     names=["data set", "human"])
    values = pd.DataFrame(np.nan, index=pd.Index(rows, name="measure"), columns=cols)
    marks = pd.DataFrame("", index=values.index, columns=cols)
    used: list[str] = []
    for r in cells.itertuples():
        if r.measure not in values.index:
            continue
        if r.status == "ok":
            values.at[r.measure, (r.dataset, r.human)] = r.value
            marks.at[r.measure, (r.dataset, r.human)] = str(int(r.cluster))
        else:
            letter = reason_letter(r.reason, r.status)
            marks.at[r.measure, (r.dataset, r.human)] = letter
            used.append(letter)
    s = result.summary
    s = s[(s["coefficient"] == coefficient) & (s["scope"] == level)].set_index("measure")
    values[("across", "mean rank")] = s["mean_rank"].reindex(values.index)
    values[("across", "mean score")] = s["mean_score"].reindex(values.index)
    from sumeval.tables import best_mask

    direction = {c: c != ("across", "mean rank") for c in cols}
    return values, best_mask(values, higher_is_better=direction), marks, sorted(set(used))


def ranking_table(result: AcrossResult, coefficient: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The across-sets ranking of one coefficient: per measure with a mean, its position, mean rank,
    mean score, mean correlation, coverage and data sets over every level, then its mean rank per
    level. Returns ``(table, bold)`` (bold: the lowest mean ranks, the highest mean score and
    correlation)."""
    s = result.summary[result.summary["coefficient"] == coefficient]
    top = s[s["scope"] == "all"].dropna(subset=["mean_rank"]).set_index("measure")
    table = top[["position", "mean_rank", "mean_score", "mean_corr", "coverage", "n_sets"]].copy()
    table.columns = ["position", "mean rank", "mean score", "mean correlation", "coverage", "data sets"]
    for lv in result.settings.levels:
        per = s[s["scope"] == lv].set_index("measure")["mean_rank"]
        if len(per):
            table[f"mean rank ({lv})"] = per.reindex(table.index)
    table["position"] = table["position"].astype(int)
    table["data sets"] = table["data sets"].astype(int)
    table = table.sort_values("position")
    from sumeval.tables import best_mask

    direction = {c: "rank" not in c for c in table.columns if "mean" in c}
    return table, best_mask(table, higher_is_better=direction)


def ranking_caption(result: AcrossResult, coefficient: str) -> str:
    """The caption of :func:`ranking_table`."""
    return (f"Across data sets ({coefficient}): mean rank (the weighted mean significance cluster, lower is better), "
            "mean score ((r + 1) / 2, an accuracy as is) and mean correlation (correlation tasks only) over the tasks "
            f"each measure has ({result.settings.missing}); coverage: the share of the tasks' total weight it has; "
            "every data set weighs "
            + ("as given" if result.settings.weights else "the same") + ", split over its human columns, then levels")


def caption(result: AcrossResult, coefficient: str, level: str, letters: list[str]) -> str:
    st = result.settings
    blank = "; ".join(f"{k}: {REASON_LETTERS[k]}" for k in letters)
    acc = result.cells[(result.cells["level"] == level) & (result.cells["kind"] == "accuracy")]["dataset"].unique()
    return (f"{coefficient} with the human scores at the {level} level on each data set"
            + (f" ({', '.join(acc)}: ranking accuracy)" if len(acc) else "") + ", "
            f"superscript: significance cluster on that task ({st.test}, {st.correction} correction, alpha {st.alpha}; "
            f"1 = not significantly worse than the best); bold: best per column; mean rank (lower is better) and mean "
            f"score ((r + 1) / 2, accuracy as is) weighted over the level's tasks each measure has ({st.missing})"
            + (f"; blank cells: {blank}" if blank else "") + "; a blank without a letter: another set's own column")


def write_across(result: AcrossResult, out: str | os.PathLike[str], *, figures: bool = True,
                 set_figures: bool | None = None, command: list[str] | None = None,
                 overwrite: bool = False) -> dict[str, Path]:
    """Write ``result`` into folder ``out`` (module docstring); returns ``{name: path}`` of the top files.

    set_figures: the per-set meta-evaluation figures (default: as ``figures``).
    overwrite: replace an earlier across run's results in ``out`` (else that is refused).
    """
    from sumeval import tables
    from sumeval.cache import atomic_path, atomic_write_json
    from sumeval.meta_eval import write_meta_evaluation

    started = time.perf_counter()
    out = check_across_out(out, overwrite=overwrite)
    out.mkdir(parents=True, exist_ok=True)
    for o in result.sets.values():
        if o.result is None:
            continue
        for name in ("ranking_accuracy", "ranking_accuracy_tests"):  # ours, beside an earlier run's manifest
            (out / o.name / f"{name}.csv").unlink(missing_ok=True)
        # an earlier across run's set folder is replaced (check_across_out accepted this folder as ours)
        write_meta_evaluation(o.result, out / o.name, figures=figures if set_figures is None else set_figures,
                              command=command, overwrite=True)
        if o.pairwise:
            for name, frame in (("ranking_accuracy", o.accuracy), ("ranking_accuracy_tests", o.accuracy_tests)):
                with atomic_path(out / o.name / f"{name}.csv") as tmp:
                    frame.to_csv(tmp, index=False)
    work = out / f"{_PARTIAL}{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        result.cells.to_csv(work / "across.csv", index=False)
        result.tasks.to_csv(work / "tasks.csv", index=False)
        result.summary.to_csv(work / "across_summary.csv", index=False)
        for coef in result.settings.coefficients:
            for lv in result.settings.levels:
                if not ((result.cells["coefficient"] == coef) & (result.cells["level"] == lv)).any():
                    continue
                values, bold, marks, letters = across_table(result, coef, lv)
                tables.write_table(values, work, f"table_across_{coef}_{lv}", bold=bold, marks=marks,
                                   caption=caption(result, coef, lv, letters))
                if figures:
                    _figure(result, coef, lv, work)
            ranking, bold = ranking_table(result, coef)
            if len(ranking):
                tables.write_table(ranking, work, f"table_ranking_{coef}", bold=bold,
                                   caption=ranking_caption(result, coef))
                if figures:
                    _figure(result, coef, None, work)
        names = sorted(p.name for p in work.iterdir())
        add_writing_time(result.timings, time.perf_counter() - started)  # the set folders' included
        atomic_write_json(work / "manifest.json", manifest(result, names + ["manifest.json"], command=command),
                          default=str)
        written = {}
        for name in names + ["manifest.json"]:
            os.replace(work / name, out / name)
            written[name] = out / name
        return written
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _figure(result: AcrossResult, coef: str, level: str | None, folder: Path) -> None:
    import matplotlib.pyplot as plt

    from sumeval import figures
    from sumeval.plots import shelf as splots

    figures.apply_style()
    st = result.settings
    if level is None:
        fig, _ = splots.across_ranking(result.summary, coefficient=coef)
        name = f"ranking_{coef}"
    else:
        fig, _ = splots.across_heatmap(result.cells, coefficient=coef, level=level, measure_order=result.measures,
                                       alpha=st.alpha, test=st.test, correction=st.correction)
        name = f"heatmap_{coef}_{level}"
    figures.save(fig, "", name, folder=folder)
    plt.close(fig)


def manifest(result: AcrossResult, files: list[str], *, command: list[str] | None = None) -> dict[str, Any]:
    """What a reader needs to reproduce the numbers (``manifest.json``)."""
    from dataclasses import asdict

    from sumeval.meta_eval.manifest import package_versions

    settings = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(result.settings).items()}
    return {
        "kind": MANIFEST_KIND,
        "created": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": command if command is not None else sys.argv,
        "settings": settings,
        "measures": result.measures,
        "given_measures": result.given,
        "sets": {o.name: {"status": o.status, "reason": o.reason, "humans": list(o.humans), "measures": o.labels,
                          "cannot_run": o.blank, "pairwise": o.pairwise,
                          "sha256": o.result.dataset.get("sha256") if o.result is not None else None,
                          "timings": {k: round(v, 3) for k, v in o.timings.items()}}
                 for o in result.sets.values()},
        "notes": result.notes,
        "versions": package_versions(),
        "timings": {k: round(v, 3) for k, v in result.timings.items()},
        "files": files,
    }


# --------------------------------------------------------------------------------------------
# Weights and human columns as the command line and the shelf study give them
# --------------------------------------------------------------------------------------------
def parse_weights(items: list[str] | None) -> dict[str, float]:
    """``["summeval=2", "frank:0.5"]`` (or comma-separated; ``=`` or ``:``) -> ``{"summeval": 2.0, "frank": 0.5}``."""
    out: dict[str, float] = {}
    for item in (p.strip() for v in items or [] for p in v.split(",") if p.strip()):
        name, eq, value = item.partition("=") if "=" in item else item.rpartition(":")
        try:
            if not eq or not name.strip():
                raise ValueError
            out[name.strip()] = float(value)
        except ValueError:
            raise InputError(f"--weight {item!r} is not SET=NUMBER (e.g. --weight summeval=2 frank=0.5)") from None
    return out


def parse_humans(items: list[str] | None) -> dict[str, list[str]]:
    """``["summeval:relevance", "rose:acu"]`` -> ``{"summeval": ["relevance"], "rose": ["acu"]}``."""
    out: dict[str, list[str]] = {}
    for item in (p.strip() for v in items or [] for p in v.split(",") if p.strip()):
        name, colon, human = item.rpartition(":")
        if not colon or not name or not human:
            raise InputError(f"--human {item!r}: with --dataset, name the set and its column as SET:COLUMN "
                             "(e.g. summeval:relevance); a set not named uses its default human columns")
        out.setdefault(name, []).append(human)
    return out
