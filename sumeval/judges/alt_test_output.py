"""What ``sumeval alt-test`` (:mod:`sumeval.cli.judges`) writes: can an LLM judge replace the
annotators? (:mod:`sumeval.judges.alt_test`), and the judges it scores itself.

    sumeval alt-test summeval --human coherence consistency fluency relevance \\
        --judges gpt-4o gpt-4o-mini --pooled --out results/alt_test
    sumeval alt-test mine.csv --human overall --judges my_judge --epsilon 0.1 --alignment accuracy --out out/

The data are loaded with :func:`sumeval.datasets.judgments.load_judgments`; the annotators of a human
column are its ``<human>/<annotator>`` columns, a judge is a measure column of the data
(:mod:`sumeval.judges.columns`: one column for every human column, ``JUDGE/<human>`` per human column,
or a ``{human}`` template). Everything is checked before the test runs; the output folder must be new
or empty, and gets::

    alt_test.csv                    judge, human, alignment, epsilon, q, winning_rate,
                                    advantage_probability, passed, n_items, n_annotators, n_won, n_skipped,
                                    note (why a judge is not tested on a human column: too few items, or
                                    every value of its column missing)
    alt_test_annotators.csv         per judge x human x excluded annotator: rho of the judge and of the
                                    annotator, p-value, Benjamini-Yekutieli adjusted p-value, won
    table_alt_test.{csv,tex,md,html}  judges x (human, omega / rho), passing winning rates marked
    alt_test.{pdf,png}              winning rate and rho per judge and human column
    manifest.json                   data checksum, settings, judge columns, versions, timings (last)
"""
from __future__ import annotations

import os
import platform
import shutil
from pathlib import Path
from typing import Any

import pandas as pd

from sumeval.errors import InputError

__all__ = ["MANIFEST_KIND", "check_empty_out", "alt_test_table", "score_measure_judges", "judge_notes",
           "judge_run_missing", "versions", "write_alt_test"]

MANIFEST_KIND = "sumeval alt-test"
_PARTIAL = ".alt-test-partial-"


def check_empty_out(path: str | os.PathLike[str]) -> Path:
    """``--out``: a new folder, or an empty one, where one can write (checked before any work)."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; name a new or empty folder")
    if out.is_dir():
        entries = sorted(p.name for p in out.iterdir())
        if entries:
            raise InputError(f"--out {str(out)!r} is not empty (it holds {', '.join(entries[:5])}"
                             f"{' ...' if len(entries) > 5 else ''}); name a new or empty folder, so that no "
                             "earlier result is overwritten or mixed with this one")
    parent = out
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"--out {str(out)!r}: cannot create or write in {str(parent)!r}")
    return out


def alt_test_table(results: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(values, bold, marks): judges x (human, omega / rho); rho's best per human bold, a passing
    omega marked with a star."""
    humans = list(dict.fromkeys(results["human"]))
    judges = list(dict.fromkeys(results["judge"]))
    cols = pd.MultiIndex.from_tuples([(h, s) for h in humans for s in ("ω", "ρ")], names=["human", ""])
    values = pd.DataFrame(index=pd.Index(judges, name="judge"), columns=cols, dtype=float)
    marks = pd.DataFrame("", index=values.index, columns=cols)
    bold = pd.DataFrame(False, index=values.index, columns=cols)
    for r in results.itertuples():
        values.loc[r.judge, (r.human, "ω")] = r.winning_rate
        values.loc[r.judge, (r.human, "ρ")] = r.advantage_probability
        marks.loc[r.judge, (r.human, "ω")] = "*" if r.passed else ""
    for h in humans:
        rho = values[(h, "ρ")]
        if rho.notna().any():
            bold[(h, "ρ")] = rho == rho.max()
    return values, bold, marks


def score_measure_judges(judgments, humans: list[str], judges: list[str], measures: list[str], where: str, *,
                         module_path=(), progress: bool = True) -> tuple[pd.DataFrame, dict[str, str]]:
    """``(frame, scored)``: the judgments frame with a column for each judge that is not a column of the
    data but a measure ``meta-eval`` accepts (a registered measure, ``module:Class``), scored once (the
    same score for every human column: it must answer on the annotators' scale); ``scored`` maps each
    such judge to its measure's signature. A judge that is neither names both in its error."""
    from sumeval.judges.columns import judge_candidates, judge_column, not_judge_columns
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    frame, scored = judgments.frame, {}
    not_judges = not_judge_columns(judgments, judge_run_missing(judgments.path))
    for j in judges:
        try:
            for h in humans:
                judge_column(measures, j, h, where, measures)
            continue
        except InputError as exc:
            not_a_column = exc
        for h in humans:  # a human or other non-measure column of the data: say so, not "no column"
            if any(c in not_judges for c in judge_candidates(j, h)):
                judge_column(measures, j, h, where, measures, not_judges)
        if "{human}" in j:
            raise not_a_column
        try:
            spec, = resolve_measures([j], judgments, module_path=module_path or ())
        except InputError as not_a_measure:
            raise InputError(f"{not_a_column}; nor is {j!r} a measure sumeval can score ({not_a_measure})") from None
        if spec.scorer is None:  # a column after all (resolve_measures matched it): judge_column said why not
            raise not_a_column
        values = score_judgments(judgments, [spec], progress=progress)
        # score_judgments orients a lower-is-better measure (negated); a judge keeps its own scale
        frame = frame.assign(**{j: values.frame[spec.label].to_numpy(dtype=float) * spec.sign})
        scored[j] = spec.signature
    return frame, scored


def judge_notes(judgments, humans: list[str], columns: dict[str, dict[str, str]], frame: pd.DataFrame | None = None
           ) -> list[str]:
    """Judges whose scores leave the annotators' range (the alt-test compares values on one scale)."""
    frame, notes = (judgments.frame if frame is None else frame), []
    for h in humans:
        ann = frame[list(judgments.annotators[h])].to_numpy(dtype=float)
        lo, hi = float(pd.Series(ann.ravel()).min()), float(pd.Series(ann.ravel()).max())
        for judge, per in columns.items():
            v = frame[per[h]]
            if v.notna().any() and (v.min() < lo or v.max() > hi):
                notes.append(f"judge {judge!r} ({per[h]}) scores {v.min():g}..{v.max():g} on {h!r}, outside the "
                             f"annotators' {lo:g}..{hi:g}: the alt-test assumes the judge answers on the annotators' "
                             "scale")
            if v.isna().any():
                notes.append(f"judge {judge!r} ({per[h]}) has no score on {int(v.isna().sum())} rows of {h!r}; "
                             "those items are left out of its test")
    return notes


def judge_run_missing(data_path: str | Path | None) -> dict[str, str]:
    """``{judge column: what its run says of its missing values}`` when ``data_path`` is the judgments
    file of a ``sumeval judge`` run (its ``manifest.json`` beside it): the unparsable answers counted
    there, per column. Empty otherwise (another file, or a manifest that cannot be read)."""
    import json

    from sumeval.judges.names import JUDGE_RUN_KIND as JUDGE_KIND

    if data_path is None:
        return {}
    manifest = Path(data_path).parent / "manifest.json"
    try:
        m = json.loads(manifest.read_text(encoding="utf-8"))
        if m.get("kind") != JUDGE_KIND:
            return {}
        out = {}
        for human, column in m["columns"].items():
            q = m["qualities"][human]
            out[column] = (f"`sumeval judge`'s manifest ({manifest}) counts {q['parse_failures']} unparsable answers "
                           f"of {q['answers']} for it (scoring {m['scoring']['method']}; "
                           f"{manifest.parent / 'parse_failures.csv'} lists them)")
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def versions() -> dict[str, str]:
    """``{"python", "sumeval", "numpy", ...}``: the versions a manifest records (those installed)."""
    from importlib import metadata

    import sumeval

    out = {"python": platform.python_version(), "sumeval": sumeval.__version__}
    for dist in ("numpy", "scipy", "pandas", "matplotlib"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def write_alt_test(out: Path, frames: dict[str, pd.DataFrame], results: pd.DataFrame, manifest: dict[str, Any],
           figures: bool) -> list[str]:
    """Everything into a hidden folder in ``out``, then moved into place, ``manifest.json`` last."""
    from sumeval import tables
    from sumeval.cache import atomic_path, atomic_write_json

    out.mkdir(parents=True, exist_ok=True)
    work = out / f"{_PARTIAL}{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        for name, frame in frames.items():
            with atomic_path(work / f"{name}.csv") as tmp:
                frame.to_csv(tmp, index=False)
        values, bold, marks = alt_test_table(results)
        first = results.iloc[0]
        caption = (f"Alternative annotator test on {manifest['dataset']['name']}: winning rate ω and average "
                   f"advantage probability ρ per judge ({first['alignment']}, ε = {first['epsilon']:g}, "
                   f"Benjamini-Yekutieli q = {first['q']:g}); * passes (ω ≥ 0.5); best ρ per column in bold")
        tables.write_table(values, work, "table_alt_test", bold=bold, marks=marks, caption=caption)
        if figures:
            import matplotlib.pyplot as plt

            from sumeval import figures as figs
            from sumeval.plots.judges import alt_test_bars

            fig, _ = alt_test_bars(results)
            figs.save(fig, "", "alt_test", folder=work)
            plt.close(fig)
        names = sorted(p.name for p in work.iterdir())
        manifest["files"] = names + ["manifest.json"]
        atomic_write_json(work / "manifest.json", manifest, default=str)
        for name in names + ["manifest.json"]:
            os.replace(work / name, out / name)
        return manifest["files"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
