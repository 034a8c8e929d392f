"""Writing a meta-evaluation: tidy CSV, paper-ready tables, figures and a manifest.

The output folder gets::

    correlations.csv  pairwise.csv  ranking.csv          the tidy results (full precision)
    pairwise_accuracy.csv  detection.csv  not_scored.csv  when there is something to say
    table_<coefficient>.{tex,md,csv,html}                the ranking table: measures x (human,
                                                         level), best per column in bold, each
                                                         value marked with its cluster
    correlations_<c>.{pdf,png}  pvalues_<c>.{pdf,png}  ranking_<c>.{pdf,png}
    manifest.json                                        data checksum, measure signatures,
                                                         settings and seed, versions, timings

Nothing is half-written: everything is first written into a hidden folder inside the output
folder, then each file is moved into place, ``manifest.json`` last. The output folder is checked
before any work starts (:func:`check_out_dir`).
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import shutil
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from sumeval.errors import InputError
from sumeval.meta_eval.analysis import MetaEvaluation, settings_dict

__all__ = ["check_out_dir", "ranking_table", "table_notes", "write_meta_evaluation", "MANIFEST_KIND"]

MANIFEST_KIND = "sumeval meta-eval"
_PARTIAL = ".meta-eval-partial-"


def check_out_dir(path: str | os.PathLike[str]) -> Path:
    """The output folder, checked before any work: a folder (or a place one can be made) that is
    empty or holds an earlier meta-evaluation (whose files are then replaced), and writable.

    Raises:
        InputError: naming the path and what to do.
    """
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file, not a folder; name a folder (it is created if missing)")
    if out.is_dir():
        entries = [p for p in out.iterdir() if not p.name.startswith(_PARTIAL)]
        manifest = out / "manifest.json"
        if entries and not _is_meta_eval_manifest(manifest):
            raise InputError(f"--out {str(out)!r} holds other files ({', '.join(sorted(p.name for p in entries)[:5])}"
                             f"{' ...' if len(entries) > 5 else ''}); name an empty or new folder, or one an "
                             "earlier `sumeval meta-eval` wrote")
    parent = out if out.is_dir() else _existing_parent(out)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"--out {str(out)!r}: cannot write in {str(parent)!r} (permission denied)")
    return out


def _existing_parent(path: Path) -> Path:
    for p in [path, *path.parents]:
        if p.exists():
            if not p.is_dir():
                raise InputError(f"--out {str(path)!r}: {str(p)!r} is a file, so no folder can be made below it")
            return p
    return Path.cwd()


def _is_meta_eval_manifest(path: Path) -> bool:
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8")).get("kind") == MANIFEST_KIND
    except (OSError, ValueError, AttributeError):
        return False


def ranking_table(result: MetaEvaluation, coefficient: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The paper table of one coefficient: measures (rows, in the order given) x (human, level).

    Rendered from the two source tables, so it agrees with the CSV files by construction: the
    values are ``correlations.csv``'s ``value``, the marks the clusters of ``ranking.csv``
    (itself ranked by those values and clustered by ``pairwise.csv``'s tests).

    Returns:
        ``(values, bold, marks)``: the correlations (NaN where undefined), where each column's
        best value sits (ties included; NaN never), and each value's significance cluster as
        text (``"1"`` = not significantly worse than the best; ``""`` where undefined).
    """
    humans = list(result.settings.humans)
    levels = list(result.settings.levels)
    columns = pd.MultiIndex.from_tuples([(h, lv) for h in humans for lv in levels], names=["human", "level"])
    index = pd.Index(result.labels, name="measure")

    def wide(frame: pd.DataFrame, column: str) -> pd.DataFrame:
        sub = frame[frame["coefficient"] == coefficient]
        return sub.pivot_table(index="measure", columns=["human", "level"], values=column, aggfunc="first",
                               dropna=False).reindex(index=index, columns=columns)

    values = wide(result.correlations, "value").astype(float)
    clusters = wide(result.ranking.astype({"cluster": "float64"}), "cluster")
    from sumeval.tables import best_mask

    marks = clusters.apply(lambda col: col.map(lambda c: "" if pd.isna(c) else str(int(c))))
    return values, best_mask(values), marks


def table_notes(result: MetaEvaluation, coefficient: str) -> list[str]:
    """The notes printed under a ranking table: why a cell is undefined (the dash), and how
    missing values were handled when some were."""
    notes = []
    undefined = [u for u in result.undefined if u["coefficient"] == coefficient]
    if undefined:
        notes.append("–: undefined, not ranked, in no cluster: " + "; ".join(
            f"{u['measure']} / {u['human']} / {u['level']}: {u['reason']}" for u in undefined))
    dropped = {m: v["no_number"] for m, v in result.missing.get("measures", {}).items() if v["no_number"]}
    if dropped or any(v["no_value"] for v in result.missing.get("humans", {}).values()):
        notes.append("missing values: pairwise-complete (each correlation on the rows where the measure and "
                     "the human are present"
                     + (f"; rows without a number: {', '.join(f'{m} {k}' for m, k in dropped.items())}"
                        if dropped else "") + ")")
    return notes


def _caption(result: MetaEvaluation, coef: str) -> str:
    negated = [m["label"] for m in result.measures if m["negated"]]
    return (f"Correlation ({coef}) of each measure with the human scores at the "
            f"{', '.join(_level_order(result))} level(s) on {result.dataset['name']}; best per column in bold; "
            f"superscript: significance cluster (1 = not significantly worse than the best; {result.settings.test}, "
            f"{result.settings.correction} correction, alpha {result.settings.alpha})"
            + (f"; {', '.join(negated)}: lower is better, shown negated" if negated else ""))


def _versions() -> dict[str, str]:
    from importlib import metadata

    import sumeval

    out = {"python": platform.python_version(), "sumeval": sumeval.__version__}
    for dist in ("numpy", "scipy", "pandas", "scikit-learn", "torch", "transformers", "bert-score",
                 "rouge-score", "nltk"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def manifest(result: MetaEvaluation, files: list[str], *, command: list[str] | None = None) -> dict[str, Any]:
    """What a reader needs to reproduce the numbers (written as ``manifest.json``)."""
    used = result.pairwise["n_resamples_used"] if len(result.pairwise) else pd.Series(dtype=float)
    return {
        "kind": MANIFEST_KIND,
        "created": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": command if command is not None else sys.argv,
        "host": platform.node(),
        "dataset": result.dataset,
        "measures": result.measures,
        "settings": settings_dict(result.settings),
        "seed": result.settings.seed,
        "resamples_used": ({"min": int(used.min()), "max": int(used.max())} if len(used) else None),
        "not_scored": len(result.not_scored),
        "missing_values": result.missing,
        "undefined": result.undefined,
        "p_values": ("p_value includes the resampling floor (count + 1) / (resamples + 1) (Phipson & Smyth "
                     "2010); p_raw is count / resamples" + (f"; bootstrap p-value: {result.settings.bootstrap_p}"
                                                             if result.settings.test.startswith("bootstrap")
                                                             else "")),
        "notes": result.notes,
        "versions": _versions(),
        "timings": {k: round(v, 3) for k, v in result.timings.items()},
        "files": files,
    }


def _level_order(result: MetaEvaluation) -> list[str]:
    return list(result.settings.levels)


def write_meta_evaluation(result: MetaEvaluation, out: str | os.PathLike[str], *, figures: bool = True,
                          command: list[str] | None = None) -> dict[str, Path]:
    """Write ``result`` into folder ``out`` (see the module docstring); returns ``{file name: path}``."""
    from sumeval import tables
    from sumeval.cache import atomic_write_json

    out = check_out_dir(out)
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob(f"{_PARTIAL}*"):
        pid = stale.name[len(_PARTIAL):]
        if not pid.isdigit() or not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    work = out / f"{_PARTIAL}{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        frames = {"correlations": result.correlations, "pairwise": result.pairwise, "ranking": result.ranking}
        if not result.pairwise_accuracy.empty:
            frames["pairwise_accuracy"] = result.pairwise_accuracy
        if not result.detection.empty:
            frames["detection"] = result.detection
        if result.not_scored:
            frames["not_scored"] = pd.DataFrame(result.not_scored)
        for name, frame in frames.items():
            frame.to_csv(work / f"{name}.csv", index=False)
        for coef in result.settings.coefficients:
            values, bold, marks = ranking_table(result, coef)
            tables.write_table(values, work, f"table_{coef}", bold=bold, marks=marks, caption=_caption(result, coef),
                               notes=table_notes(result, coef))
            if figures:
                _figures(result, coef, work)
        names = sorted(p.name for p in work.iterdir())
        atomic_write_json(work / "manifest.json", manifest(result, names + ["manifest.json"], command=command),
                          default=str)
        written = {}
        for name in names + ["manifest.json"]:  # manifest last: its presence means a complete folder
            os.replace(work / name, out / name)
            written[name] = out / name
        return written
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _figures(result: MetaEvaluation, coef: str, folder: Path) -> None:
    import matplotlib.pyplot as plt

    from sumeval import figures
    from sumeval.plots import meta_eval as mplots

    figures.apply_style()
    levels = _level_order(result)
    humans = list(result.settings.humans)
    drawn = [("correlations", mplots.correlation_intervals(result.correlations, coefficient=coef,
                                                            measure_order=result.labels, human_order=humans,
                                                            level_order=levels, ranking=result.ranking)[0]),
             ("ranking", mplots.ranking_grid(result.ranking, coefficient=coef, human_order=humans,
                                             level_order=levels)[0])]
    if len(result.pairwise):
        drawn.append(("pvalues", mplots.pvalue_grid(result.pairwise, coefficient=coef, measure_order=result.labels,
                                                    human_order=humans, level_order=levels,
                                                    alpha=result.settings.alpha)[0]))
    for name, fig in drawn:
        figures.save(fig, "", f"{name}_{coef}", folder=folder)
        plt.close(fig)
