"""Writing a meta-evaluation across data sets, its paper tables, and its command line.

The output folder gets::

    <dataset>/                          each set's own meta-evaluation (the files ``sumeval meta-eval``
                                        writes: :func:`~sumeval.meta_eval.write_meta_evaluation`);
                                        a pairwise set adds ranking_accuracy.csv and
                                        ranking_accuracy_tests.csv. A set given as a file gets a
                                        folder named after the file (:func:`set_folders`;
                                        the manifest's ``sets`` say which)
    across.csv                          one row per (coefficient, measure, data set, human, level):
                                        value, interval, rank, cluster, n, status, reason
    tasks.csv                           every (data set, human, level): run or why not, its weight
    across_summary.csv                  per (coefficient, scope, measure): mean rank, mean score,
                                        mean correlation, coverage, position
    table_across_<coef>_<level>.{tex,md,csv,html}   measures x (data set, human) at one level:
                                        value with its cluster, blank cells lettered, mean rank
                                        and mean score over the level's tasks
    table_ranking_<coef>.{...}          the across-sets ranking (every level, then per level)
    heatmap_<coef>_<level>.{pdf,png}  the measures named (``--measures``) x the level's tasks
                                        (:func:`heatmap_measures`; each set's own columns are in
                                        the table only)
    ranking_<coef>.{pdf,png}
    manifest.json                       settings, weights, measures, per set: status and timings

The folder is written as one meta-eval's is (:mod:`sumeval.meta_eval.staging`): everything, each
set's folder included, into a hidden folder beside it, ``manifest.json`` last, which then takes the
output folder's place in one step, so an ``--overwrite`` leaves nothing of the earlier run (a set or
a coefficient it had and this one has not) and a run stopped part-way leaves the earlier result
whole (its hidden folder is removed by the next run); one writer per folder (:func:`~sumeval.
meta_eval.staging.out_lock`). Command line: ``sumeval meta-eval --dataset A B ...``
(:mod:`sumeval.cli.meta_eval`).
"""
from __future__ import annotations

import datetime as _dt
import os
import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.meta_eval.across import AcrossResult
from sumeval.meta_eval.manifest import add_writing_time
from sumeval.plots.shelf import REASON_LETTERS, reason_letter

__all__ = ["MANIFEST_KIND", "check_across_out", "set_folders", "across_table", "ranking_table", "ranking_caption",
           "caption", "not_run", "heatmap_measures", "write_across", "parse_weights", "parse_humans"]

MANIFEST_KIND = "sumeval meta-eval across"
#: the hidden folder inside --out where versions before issue 30 wrote the top files (removed when its run is gone)
_LEGACY_PARTIAL = ".across-partial-"


def check_across_out(path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """The output folder, checked before any work as a single meta-eval's
    (:func:`~sumeval.meta_eval.staging.check_out_dir`): new, empty, or (with ``overwrite``) one an
    earlier across run wrote, holding only its files and set folders, replaced as a whole; and
    writable. What an interrupted run left is removed first. InputError names the path and the fix."""
    from sumeval.meta_eval.staging import check_out_dir, owner_gone

    out = Path(path)
    if out.is_dir():
        for p in out.iterdir():
            if p.name.startswith(_LEGACY_PARTIAL) and p.is_dir() and owner_gone(p.name, _LEGACY_PARTIAL):
                shutil.rmtree(p, ignore_errors=True)
    return check_out_dir(out, overwrite=overwrite, kind=MANIFEST_KIND, command="`sumeval meta-eval --dataset ...`")


def set_folders(names: Iterable[str]) -> dict[str, str]:
    """``{data set: its folder in --out}``. A set named by its name (``summeval``, one added with
    ``sumeval data add``) gets a folder of that name; a set given as a file (``--dataset
    some/judgments.csv``) one named after the file: its name without the folders and the suffixes of
    a judgments file or an output file, other characters than letters, digits, ``_ . -`` as ``_``
    (``judgments``). A folder never ends like a file written beside it (:data:`~sumeval.datasets.
    user_datasets.OUTPUT_SUFFIXES`: ``manifest.json``, ``across.csv``, the tables and figures) and
    never takes another set's folder, in any case: ``-2``, ``-3``, ... is added (named sets first,
    then files in the order given). The across manifest records each set's folder."""
    from sumeval.datasets.judgment_files import FORMATS
    from sumeval.datasets.user_datasets import NAME_RE, OUTPUT_SUFFIXES

    ends = (*FORMATS, *OUTPUT_SUFFIXES)
    names = list(names)
    plain = [n for n in names if NAME_RE.fullmatch(n) and not n.lower().endswith(ends)]
    taken: set[str] = set()
    out: dict[str, str] = {}
    for name in [*plain, *(n for n in names if n not in plain)]:
        base = name
        if name not in plain:
            base = Path(name).name
            while base.lower().endswith(ends):
                base = base[: base.rindex(".")]
            base = re.sub(r"[^A-Za-z0-9_.-]", "_", base).lstrip("_.-")[:64] or "dataset"
        folder, k = base, 2
        while folder.casefold() in taken:
            folder, k = f"{base}-{k}", k + 1
        taken.add(folder.casefold())
        out[name] = folder
    return {name: out[name] for name in names}


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
            + ("as given" if result.settings.weights else "the same") + ", split over its human columns, then levels"
            + (f"; tasks not run: {'; '.join(skipped)}" if (skipped := not_run(result)) else ""))


def _short(reason: str) -> str:
    """A task's reason in a caption: its first clause (``tasks.csv`` keeps it whole)."""
    text = re.sub(r"^the \w+ level does not apply to [^:]+: ", "", str(reason or "not run"))
    return re.split(r"[:;(]\s", text, maxsplit=1)[0].strip().rstrip(".")


def not_run(result: AcrossResult, level: str | None = None) -> list[str]:
    """The tasks not run (at ``level``, or at any level), one line per (data set, reason): ``"summedits
    consistency, system: SummEdits has no summarisation systems"``, the human columns and levels it covers
    named; the captions carry them, so a table says which set and level it leaves out and why (``tasks.csv`` has
    the reasons whole)."""
    t = result.tasks[result.tasks["status"] != "run"]
    if level is not None:
        t = t[t["level"] == level]
    groups: dict[tuple[str, str], tuple[dict[str, None], dict[str, None]]] = {}
    for r in t.itertuples():
        humans, levels = groups.setdefault((r.dataset, _short(r.reason)), ({}, {}))
        humans[r.human] = levels[r.level] = None
    return [f"{d} {', '.join(h)}" + ("" if level is not None else f" ({', '.join(lv)})") + f": {why}"
            for (d, why), (h, lv) in groups.items()]


def caption(result: AcrossResult, coefficient: str, level: str, letters: list[str]) -> str:
    """The caption of :func:`across_table` at ``level``: what its cells are, its blank cells' letters, and the
    tasks of this level not run (:func:`not_run`)."""
    st = result.settings
    skipped = not_run(result, level)
    blank = "; ".join(f"{k}: {REASON_LETTERS[k]}" for k in letters)
    acc = result.cells[(result.cells["level"] == level) & (result.cells["kind"] == "accuracy")]["dataset"].unique()
    return (f"{coefficient} with the human scores at the {level} level on each data set"
            + (f" ({', '.join(acc)}: ranking accuracy)" if len(acc) else "") + ", "
            f"superscript: significance cluster on that task ({st.test}, {st.correction} correction, alpha {st.alpha}; "
            f"1 = not significantly worse than the best); bold: best per column; mean rank (lower is better) and mean "
            f"score ((r + 1) / 2, accuracy as is) weighted over the level's tasks each measure has ({st.missing})"
            + (f"; blank cells: {blank}" if blank else "") + "; a blank without a letter: another set's own column"
            + (f"; not run at the {level} level: {'; '.join(skipped)}" if skipped else ""))


def write_across(result: AcrossResult, out: str | os.PathLike[str], *, figures: bool = True,
                 set_figures: bool | None = None, command: list[str] | None = None,
                 overwrite: bool = False) -> dict[str, Path]:
    """Write ``result`` into folder ``out`` (module docstring); returns ``{name: path}`` of the top files.

    set_figures: the per-set meta-evaluation figures (default: as ``figures``).
    overwrite: replace an earlier across run's results in ``out`` (else that is refused).
    """
    from sumeval.meta_eval.staging import out_lock

    with out_lock(out):
        return _write(result, out, figures=figures, set_figures=set_figures, command=command, overwrite=overwrite)


def _write(result: AcrossResult, out: str | os.PathLike[str], *, figures: bool, set_figures: bool | None,
           command: list[str] | None, overwrite: bool) -> dict[str, Path]:
    from sumeval import tables
    from sumeval.cache import atomic_path, atomic_write_json
    from sumeval.meta_eval import write_meta_evaluation
    from sumeval.meta_eval.staging import Stage, write_error

    started = time.perf_counter()
    stage = Stage(check_across_out(out, overwrite=overwrite), kind=MANIFEST_KIND)
    work = stage.begin()
    state = "nothing was changed there"
    folders = set_folders(result.sets)
    try:
        for o in result.sets.values():
            if o.result is None:
                continue
            folder = work / folders[o.name]
            write_meta_evaluation(o.result, folder, figures=figures if set_figures is None else set_figures,
                                  command=command)
            if o.pairwise:
                for name, frame in (("ranking_accuracy", o.accuracy), ("ranking_accuracy_tests", o.accuracy_tests)):
                    with atomic_path(folder / f"{name}.csv") as tmp:
                        frame.to_csv(tmp, index=False)
        sets = [folders[o.name] for o in result.sets.values() if o.result is not None]
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
        names = sorted(p.name for p in work.iterdir() if p.name not in sets)
        add_writing_time(result.timings, time.perf_counter() - started)  # the set folders' included
        atomic_write_json(work / "manifest.json", manifest(result, names + ["manifest.json"], command=command),
                          default=str)
        if not stage.beside:  # moved in one by one: a failure may leave an interrupted result
            state = "it may hold an interrupted result (no manifest): run again with --overwrite"
        written = stage.publish(sets + names + ["manifest.json"])
        return {name: path for name, path in written.items() if name not in sets}
    except OSError as exc:  # a full disk, a quota: name --out and the file, never the hidden work folder
        raise write_error(exc, stage.out, state) from None
    finally:
        stage.cleanup()


def heatmap_measures(result: AcrossResult, coefficient: str, level: str) -> list[str]:
    """The measures the across heat map at ``level`` draws: the measures named (``result.given``, in
    their order; the shelf study's sentinel measures among them, ``bigram-overlap``, ``length``)
    that have a cell at this level; when none is named, the measures with an across mean at this
    level (run on ``min_sets`` sets or more); when none has, every measure with a cell.

    Why not every measure (``result.measures``): each set's own columns (its stored metric scores:
    ``dialsummeval.rouge-1``, ``frank.BertScore_F1_Art``) run on that set alone, so each is a row
    blank but for one set's few tasks; a 16-set shelf has 52 of them beside the named measures, which
    made the map 55 rows x 25 tasks, 11.3 in tall against the house limit
    (:data:`sumeval.plots.style.MAX_HEIGHT_IN`), with its cells' text below print size, while the
    question it answers - which of the measures I compare does best on which task - is in the named
    measures' rows. The own columns stay in ``table_across_<coef>_<level>`` (every cell, its
    cluster) and in ``across.csv``; the shelf study's notebook draws the same measures
    (``measure_order=result.given``)."""
    cells = result.cells[(result.cells["coefficient"] == coefficient) & (result.cells["level"] == level)]
    present = set(cells["measure"])
    named = [m for m in result.given if m in present]
    if named:
        return list(dict.fromkeys(named))
    s = result.summary
    s = s[(s["coefficient"] == coefficient) & (s["scope"] == level) & s["mean_rank"].notna()]
    ranked = [m for m in result.measures if m in set(s["measure"]) and m in present]
    return ranked or [m for m in result.measures if m in present]


def _figure(result: AcrossResult, coef: str, level: str | None, folder: Path) -> None:
    import matplotlib.pyplot as plt

    from sumeval import figures
    from sumeval.plots import shelf as splots

    st = result.settings
    if level is None:
        fig, _ = splots.across_ranking(result.summary, coefficient=coef)
        name = f"ranking_{coef}"
    else:
        fig, _ = splots.across_heatmap(result.cells, coefficient=coef, level=level,
                                       measure_order=heatmap_measures(result, coef, level),
                                       alpha=st.alpha, test=st.test, correction=st.correction)
        name = f"heatmap_{coef}_{level}"
    figures.save(fig, "", name, folder=folder)
    plt.close(fig)


def manifest(result: AcrossResult, files: list[str], *, command: list[str] | None = None) -> dict[str, Any]:
    """What a reader needs to reproduce the numbers (``manifest.json``); each set's ``folder``:
    :func:`set_folders` (None for a set skipped)."""
    from dataclasses import asdict

    from sumeval.meta_eval.manifest import package_versions

    settings = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(result.settings).items()}
    folders = set_folders(result.sets)
    return {
        "kind": MANIFEST_KIND,
        "created": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": command if command is not None else sys.argv,
        "settings": settings,
        "measures": result.measures,
        "given_measures": result.given,
        "sets": {o.name: {"folder": folders[o.name] if o.result is not None else None, "status": o.status,
                          "reason": o.reason, "humans": list(o.humans), "measures": o.labels,
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
    """``["summeval=2", "frank:0.5"]`` (or comma-separated; ``=`` or ``:``) -> ``{"summeval": 2.0, "frank": 0.5}``;
    a set given twice is refused, naming both."""
    out: dict[str, float] = {}
    given: dict[str, str] = {}
    for item in (p.strip() for v in items or [] for p in v.split(",") if p.strip()):
        name, eq, value = item.partition("=") if "=" in item else item.rpartition(":")
        try:
            if not eq or not name.strip():
                raise ValueError
            weight = float(value)
        except ValueError:
            raise InputError(f"--weight {item!r} is not SET=NUMBER (e.g. --weight summeval=2 frank=0.5)") from None
        name = name.strip()
        if name in given:
            raise InputError(f"--weight gives data set {name!r} twice ({given[name]!r} and {item!r}); give each set "
                             "one weight")
        given[name], out[name] = item, weight
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
