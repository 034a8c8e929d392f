"""``sumeval alt-test``: can an LLM judge replace the annotators? (:mod:`sumeval.judges.alt_test`)

    sumeval alt-test summeval --human coherence consistency fluency relevance \\
        --judges gpt-4o gpt-4o-mini --pooled --out results/alt_test
    sumeval alt-test mine.csv --human overall --judges my_judge --epsilon 0.1 --alignment accuracy --out out/

The data are loaded with :func:`sumeval.datasets.judgments.load_judgments`; the annotators of a human
column are its ``<human>/<annotator>`` columns, a judge is a measure column of the data
(:mod:`sumeval.judges.columns`: one column for every human column, ``JUDGE/<human>`` per human column,
or a ``{human}`` template). Everything is checked before the test runs; the output folder must be new
or empty, and gets::

    alt_test.csv                    judge, human, alignment, epsilon, q, winning_rate,
                                    advantage_probability, passed, n_items, n_annotators, n_won, n_skipped
    alt_test_annotators.csv         per judge x human x excluded annotator: rho of the judge and of the
                                    annotator, p-value, Benjamini-Yekutieli adjusted p-value, won
    table_alt_test.{csv,tex,md,html}  judges x (human, omega / rho), passing winning rates marked
    alt_test.{pdf,png}              winning rate and rho per judge and human column
    manifest.json                   data checksum, settings, judge columns, versions, timings (last)
"""
from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd

from sumeval.argtypes import split_values
from sumeval.errors import InputError

__all__ = ["add_command", "cmd_alt_test", "check_empty_out", "alt_test_table", "MANIFEST_KIND"]

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


def _score_measure_judges(judgments, humans: list[str], judges: list[str], measures: list[str], where: str,
                          args: argparse.Namespace) -> tuple[pd.DataFrame, dict[str, str]]:
    """``(frame, scored)``: the judgments frame with a column for each judge that is not a column of the
    data but a measure ``meta-eval`` accepts (a registered measure, ``module:Class``), scored once (the
    same score for every human column: it must answer on the annotators' scale); ``scored`` maps each
    such judge to its measure's signature. A judge that is neither names both in its error."""
    from sumeval.judges.columns import judge_column
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    frame, scored = judgments.frame, {}
    for j in judges:
        try:
            for h in humans:
                judge_column(measures, j, h, where, measures)
            continue
        except InputError as exc:
            not_a_column = exc
        if "{human}" in j:
            raise not_a_column
        try:
            spec, = resolve_measures([j], judgments, module_path=args.module_path or ())
        except InputError as not_a_measure:
            raise InputError(f"{not_a_column}; nor is {j!r} a measure sumeval can score ({not_a_measure})") from None
        if spec.scorer is None:  # a column after all (resolve_measures matched it): judge_column said why not
            raise not_a_column
        values = score_judgments(judgments, [spec], progress=not args.quiet)
        # score_judgments orients a lower-is-better measure (negated); a judge keeps its own scale
        frame = frame.assign(**{j: values.frame[spec.label].to_numpy(dtype=float) * spec.sign})
        scored[j] = spec.signature
    return frame, scored


def _notes(judgments, humans: list[str], columns: dict[str, dict[str, str]], frame: pd.DataFrame | None = None
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


def _versions() -> dict[str, str]:
    from importlib import metadata

    import sumeval

    out = {"python": platform.python_version(), "sumeval": sumeval.__version__}
    for dist in ("numpy", "scipy", "pandas", "matplotlib"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def _write(out: Path, frames: dict[str, pd.DataFrame], results: pd.DataFrame, manifest: dict[str, Any],
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
            from sumeval.judges.plots import alt_test_bars

            figs.apply_style()
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


def cmd_alt_test(args: argparse.Namespace) -> int:
    """Run ``sumeval alt-test``; 0 when every file was written."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.alt_test import alt_test, check_settings
    from sumeval.judges.columns import judge_column, require_annotators

    t0 = time.perf_counter()
    humans, judges = split_values(args.human), split_values(args.judges)
    if not humans or not judges:
        raise InputError("name the human columns (--human COL [COL ...]) and the judges (--judges M [M ...])")
    check_settings(args.alignment, args.epsilon, args.q, args.min_items, args.min_annotators)
    out = check_empty_out(args.out)
    columns = {k: getattr(args, k) for k in ("doc_col", "system_col", "summary_col", "text_col", "references_col")}
    judgments = load_judgments(args.data, human=humans, n_docs=args.n_docs, **columns)
    where = f"data set {judgments.name!r}"
    measures = list(judgments.measures)
    for h in humans:
        require_annotators(judgments.annotators.get(h, ()), h, where)
    frame, scored = _score_measure_judges(judgments, humans, judges, measures, where, args)
    measures += list(scored)
    judge_cols = {j: {h: judge_column(measures, j, h, where, measures) for h in humans} for j in judges}
    t_load = time.perf_counter()
    result = alt_test(frame, humans, judges, pooled=args.pooled or args.pooled_only, per_human=not args.pooled_only,
                      alignment=args.alignment, epsilon=args.epsilon, q=args.q, min_items=args.min_items,
                      min_annotators=args.min_annotators, where=where, candidates=measures)
    t_test = time.perf_counter()
    notes = _notes(judgments, humans, judge_cols, frame)
    manifest = {
        "kind": MANIFEST_KIND, "created": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": ["sumeval", *sys.argv[1:]] if sys.argv else None, "host": platform.node(),
        "dataset": {"name": judgments.name, "path": str(judgments.path), "sha256": judgments.sha256,
                    "rows": len(judgments)},
        "settings": {"alignment": args.alignment, "epsilon": args.epsilon, "q": args.q, "min_items": args.min_items,
                     "min_annotators": args.min_annotators, "pooled": bool(args.pooled or args.pooled_only),
                     "per_human": not args.pooled_only},
        "humans": {h: list(judgments.annotators[h]) for h in humans}, "judges": judge_cols,
        "scored_judges": scored,
        "reference": "Calderon, Reichart & Dror (ACL 2025); equal to the authors' alt_test (nitaytech/AltTest "
                     "18428b1) on the same data (tests/test_alt_test.py)",
        "notes": notes, "versions": _versions(),
    }
    frames = {"alt_test": result.results, "alt_test_annotators": result.annotators}
    manifest["timings"] = {"load_s": round(t_load - t0, 3), "test_s": round(t_test - t_load, 3)}
    written = _write(out, frames, result.results, manifest, figures=not args.no_figures)
    from sumeval import tables

    values, bold, marks = alt_test_table(result.results)
    print(tables.to_markdown(values, bold=bold, marks=marks))
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"\n* passes (winning rate >= 0.5); wrote {len(written)} files to {out} in "
          f"{time.perf_counter() - t0:.1f} s (test {t_test - t_load:.2f} s)", file=sys.stderr)
    return 0


def add_command(subparsers) -> None:
    """Add ``alt-test`` to the ``sumeval`` command."""
    from sumeval.judges.alt_test import ALIGNMENTS, DEFAULTS

    p = subparsers.add_parser(
        "alt-test", help="can an LLM judge replace the annotators? (the alternative annotator test)",
        description="The alternative annotator test (Calderon, Reichart & Dror, ACL 2025): each annotator is left "
                    "out in turn and the judge and the annotator are aligned with the others; a one-sided t-test per "
                    "annotator with a cost-benefit allowance epsilon, Benjamini-Yekutieli over annotators, the "
                    "winning rate (pass: >= 0.5) and the average advantage probability rho.")
    p.add_argument("data", help="a data set name or a judgments file (.jsonl .csv .tsv .parquet) with "
                   "<human>/<annotator> columns")
    p.add_argument("--human", nargs="+", required=True, metavar="COL", help="human columns with annotator columns")
    p.add_argument("--judges", nargs="+", required=True, metavar="M",
                   help="judge columns: one for every human column, JUDGE with a JUDGE/<human> column per human "
                        "column, or a template with {human}; or a measure sumeval scores (registered, or "
                        "module:Class with --module-path) answering on the annotators' scale")
    p.add_argument("--module-path", dest="module_path", action="append", default=[], metavar="DIR",
                   help="a folder searched first when importing a judge's module:Class (repeatable)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    p.add_argument("--alignment", default=DEFAULTS["alignment"], choices=list(ALIGNMENTS),
                   help="alignment score: neg_rmse (default; ordinal or continuous), neg_mae, accuracy (categorical)")
    p.add_argument("--epsilon", type=float, default=DEFAULTS["epsilon"],
                   help="the judge's allowance (default 0.2: expert annotators; 0.15 skilled, 0.1 crowd workers)")
    p.add_argument("--q", type=float, default=DEFAULTS["q"], help="false discovery rate of Benjamini-Yekutieli "
                   "(default 0.05)")
    p.add_argument("--min-items", dest="min_items", type=int, default=DEFAULTS["min_items"],
                   help="fewest items an annotator needs to be tested (default 30)")
    p.add_argument("--min-annotators", dest="min_annotators", type=int, default=DEFAULTS["min_annotators"],
                   help="fewest annotators an item needs to be used (default 2)")
    p.add_argument("--pooled", action="store_true", help="also test over all human columns pooled (item = "
                   "(summary, human column); annotators matched by name)")
    p.add_argument("--pooled-only", dest="pooled_only", action="store_true", help="only the pooled test")
    for role in ("doc", "system", "summary", "text", "references"):
        p.add_argument(f"--{role}-col", dest=f"{role}_col", metavar="COL", help=f"column of the {role} (a file only)")
    p.add_argument("--n-docs", dest="n_docs", type=int, help="only the first N documents")
    p.add_argument("--out", required=True, metavar="DIR", help="a new or empty folder for the results")
    p.add_argument("--no-figures", dest="no_figures", action="store_true", help="skip the figure")
    p.set_defaults(func=cmd_alt_test)
