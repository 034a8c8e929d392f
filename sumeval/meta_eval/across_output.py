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
hidden folder, then moved into place, ``manifest.json`` last. Command line: :func:`wire` adds the
options to ``sumeval meta-eval``, :func:`run_across` runs them.
"""
from __future__ import annotations

import datetime as _dt
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.meta_eval.across import AcrossResult, AcrossSettings
from sumeval.plots.shelf import REASON_LETTERS, reason_letter

__all__ = ["MANIFEST_KIND", "check_across_out", "across_table", "ranking_table", "ranking_caption", "caption",
           "write_across", "wire",
           "run_across", "parse_weights", "parse_humans"]

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
# Command line
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


def wire(parser) -> None:
    """Add the across options to the ``sumeval meta-eval`` parser: the positional data set and
    ``--human`` become optional (``--dataset`` names the sets), and ``--dataset``, ``--weight``,
    ``--missing``, ``--min-sets``, ``--ties``, ``--no-own-columns``, ``--jobs`` are added."""
    for action in parser._actions:
        if action.dest == "data":
            action.nargs, action.required, action.default = "?", False, None
        if action.dest == "human":
            action.required = False
    parser.add_argument("--dataset", nargs="+", metavar="NAME",
                        help="meta-evaluate across these data sets (names or files; `shelf`: every built-in judged "
                             "set): each set's own results in OUT/<set>/, then across.csv and the across tables")
    parser.add_argument("--weight", nargs="+", metavar="SET=W", help="data set weights of the across means "
                        "(default 1 each; normalised)")
    parser.add_argument("--missing", default="available", choices=["available", "all"],
                        help="means over the tasks a measure has (available, default) or only for measures on every "
                             "task (all: mt-metrics-eval's rule)")
    parser.add_argument("--min-sets", dest="min_sets", type=int, default=2,
                        help="the fewest data sets a measure needs for an across mean (default 2)")
    parser.add_argument("--ties", default="wrong", choices=["wrong", "half"],
                        help="a tie on a pairwise set (rank19) counts as wrong (default, as BARTScore) or half")
    parser.add_argument("--no-own-columns", dest="no_own_columns", action="store_true",
                        help="do not add each set's precomputed measure columns")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the statistics, one unit per (set, human column) (default 1)")


def run_across(args) -> int:
    """``sumeval meta-eval --dataset A B ...``: run and write; 0 when every result was written."""
    from sumeval import tables
    from sumeval.argtypes import scorer_options
    from sumeval.meta_eval import LEVELS, across
    from sumeval.argtypes import split_measures, split_values

    if getattr(args, "data", None):
        raise InputError(f"give the data set either as the first argument ({args.data!r}) or with --dataset, not both")
    meta_metric = tuple(split_values(args.meta_metric) or ("correlation",))
    settings = AcrossSettings(levels=tuple(split_values(args.level) or LEVELS),
                              coefficients=tuple(split_values(args.coefficient) or ("kendall_b",)), test=args.test,
                              ci_resampling=args.ci_resampling, n_resamples=args.n_resamples, seed=args.seed,
                              correction=args.correction, alpha=args.alpha, ci=args.ci, early_stop=args.early_stop,
                              bootstrap_p=args.bootstrap_p, annotators=not args.no_annotators,
                              annotators_compete=args.annotators_compete, meta_metric=meta_metric,
                              spa="spa" in meta_metric and not args.no_spa, spa_permutations=args.spa_permutations,
                              item_acc23=args.item_acc23, tune_split=args.tune_split,
                              detection_validation=args.validation, weights=parse_weights(args.weight),
                              missing=args.missing, min_sets=args.min_sets, ties=args.ties, jobs=args.jobs)
    settings.check()
    out = check_across_out(args.out, overwrite=args.overwrite)
    measures = split_measures(args.measures) + split_values(args.measure_class)
    if not measures and args.no_own_columns:
        raise InputError("name at least one measure (--measures), or leave out --no-own-columns to use each set's "
                         "own measure columns")
    result = across.meta_evaluate_across(args.dataset, measures, settings, humans=parse_humans(args.human),
                                         options=scorer_options(args), own_columns=not args.no_own_columns,
                                         n_docs=args.n_docs, module_path=args.module_path or (),
                                         progress=not args.quiet, cache=not args.no_cache)
    written = write_across(result, out, figures=not args.no_figures, overwrite=args.overwrite,
                           command=["sumeval", *sys.argv[1:]] if sys.argv else None)
    for coef in settings.coefficients:
        print(f"\nacross data sets, {coef}: mean rank (significance cluster) and mean score over the tasks")
        table, bold = ranking_table(result, coef)
        print(tables.to_markdown(table, bold=bold))
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"\nwrote {len(written)} files and {sum(o.result is not None for o in result.sets.values())} set folders "
          f"to {out} in {result.timings['total_s']:.1f} s", file=sys.stderr)
    return 0
