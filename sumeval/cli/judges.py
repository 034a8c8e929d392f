"""``sumeval alt-test``: can an LLM judge replace the annotators? (:mod:`sumeval.judges.alt_test`;
what it writes: :mod:`sumeval.judges.alt_test_output`)

    sumeval alt-test summeval --human coherence consistency fluency relevance \\
        --judges gpt-4o gpt-4o-mini --pooled --out results/alt_test
    sumeval alt-test mine.csv --human overall --judges my_judge --epsilon 0.1 --alignment accuracy --out out/

``sumeval judge-audit``: verbosity, close pairs, kappa and calibration of judges
(:mod:`sumeval.judges.audit`; what it writes: :mod:`sumeval.judges.audit_output`). It lives here, beside
the alt-test, rather than in meta-eval's output: it needs what the alt-test needs (annotator columns,
judge columns found per human column) and the summary text, and answers the same question about a
judge; meta-eval correlates measures with the humans' mean and never reads annotators or texts.

    sumeval judge-audit summeval --human coherence consistency relevance --judges gpt-4o llama-31 --out out/
"""
from __future__ import annotations

import argparse
import datetime as _dt
import platform
import sys
import time

from sumeval.argtypes import split_values
from sumeval.cli.judgments_parser import add_judgments_parser
from sumeval.errors import InputError

__all__ = ["cmd_alt_test", "cmd_judge_audit", "add_commands"]


def cmd_alt_test(args: argparse.Namespace) -> int:
    """Run ``sumeval alt-test``; 0 when every file was written."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.alt_test import alt_test, check_settings
    from sumeval.judges.alt_test_output import (
        MANIFEST_KIND,
        alt_test_table,
        check_empty_out,
        judge_notes,
        judge_run_missing,
        score_measure_judges,
        versions,
        write_alt_test,
    )
    from sumeval.judges.columns import judge_column, require_annotators

    t0 = time.perf_counter()
    humans, judges = split_values(args.human), split_values(args.judges)
    if not humans or not judges:
        raise InputError("name the human columns (--human COL [COL ...]) and the judges (--judges M [M ...])")
    check_settings(args.alignment, args.epsilon, args.q, args.min_items, args.min_annotators)
    out = check_empty_out(args.out)
    columns = {k: getattr(args, k) for k in ("doc_col", "system_col", "summary_col", "text_col", "references_col")}
    # the test uses the annotator columns only: a file need not hold the human columns (their means) too
    judgments = load_judgments(args.data, human=humans, n_docs=args.n_docs, annotators_suffice=True, **columns)
    where = f"data set {judgments.name!r}"
    measures = list(judgments.measures)
    for h in humans:
        require_annotators(judgments.annotators.get(h, ()), h, where)
    frame, scored = score_measure_judges(judgments, humans, judges, measures, where,
                                         module_path=args.module_path or (), progress=not args.quiet)
    measures += list(scored)
    judge_cols = {j: {h: judge_column(measures, j, h, where, measures) for h in humans} for j in judges}
    t_load = time.perf_counter()
    result = alt_test(frame, humans, judges, pooled=args.pooled or args.pooled_only, per_human=not args.pooled_only,
                      alignment=args.alignment, epsilon=args.epsilon, q=args.q, min_items=args.min_items,
                      min_annotators=args.min_annotators, where=where, candidates=measures,
                      missing_why=judge_run_missing(judgments.path))
    t_test = time.perf_counter()
    notes = judge_notes(judgments, humans, judge_cols, frame)
    notes += [n for n in result.results["note"] if isinstance(n, str)]  # judges not tested on a human column
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
                     "18428b1) on the same data (tests/judges/test_alt_test.py)",
        "notes": notes, "versions": versions(),
    }
    frames = {"alt_test": result.results, "alt_test_annotators": result.annotators}
    manifest["timings"] = {"load_s": round(t_load - t0, 3), "test_s": round(t_test - t_load, 3)}
    written = write_alt_test(out, frames, result.results, manifest, figures=not args.no_figures)
    from sumeval import tables

    values, bold, marks = alt_test_table(result.results)
    print(tables.to_markdown(values, bold=bold, marks=marks))
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"\n* passes (winning rate >= 0.5); wrote {len(written)} files to {out} in "
          f"{time.perf_counter() - t0:.1f} s (test {t_test - t_load:.2f} s)", file=sys.stderr)
    return 0


def cmd_judge_audit(args: argparse.Namespace) -> int:
    """Run ``sumeval judge-audit``; 0 when every file was written."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.alt_test_output import check_empty_out, score_measure_judges, versions
    from sumeval.judges.audit import judge_audit
    from sumeval.judges.audit_output import MANIFEST_KIND as AUDIT_KIND
    from sumeval.judges.audit_output import write_judge_audit
    from sumeval.judges.columns import judge_column
    from sumeval.stats.checks import check_boot

    t0 = time.perf_counter()
    humans, judges = split_values(args.human), split_values(args.judges)
    if not humans or not judges:
        raise InputError("name the human columns (--human COL [COL ...]) and the judges (--judges M [M ...])")
    check_boot(args.n_resamples, args.ci)
    if args.bins < 1:
        raise InputError(f"--bins {args.bins}: the number of bins of system pairs must be at least 1 (3: thirds)")
    if args.calibration_bins < 1:
        raise InputError(f"--calibration-bins {args.calibration_bins}: the ECE needs at least 1 bin")
    out = check_empty_out(args.out)
    columns = {k: getattr(args, k) for k in ("doc_col", "system_col", "summary_col", "text_col", "references_col")}
    judgments = load_judgments(args.data, human=humans, n_docs=args.n_docs, **columns)
    where = f"data set {judgments.name!r}"
    measures = list(judgments.measures)
    frame, scored = score_measure_judges(judgments, humans, judges, measures, where,
                                         module_path=args.module_path or (), progress=not args.quiet)
    measures += list(scored)
    judge_cols = {j: {h: judge_column(measures, j, h, where, measures) for h in humans} for j in judges}
    t_load = time.perf_counter()
    audit = judge_audit(frame, humans, judges, n_bins=args.bins, n_resamples=args.n_resamples, ci=args.ci,
                        seed=args.seed, level=args.level, label_threshold=args.label_threshold,
                        calibration_bins=args.calibration_bins, where=where, candidates=measures)
    t_audit = time.perf_counter()
    manifest = {
        "kind": AUDIT_KIND, "created": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": ["sumeval", *sys.argv[1:]] if sys.argv else None, "host": platform.node(),
        "dataset": {"name": judgments.name, "path": str(judgments.path), "sha256": judgments.sha256,
                    "rows": len(judgments)},
        "settings": {"bins": args.bins, "n_resamples": args.n_resamples, "ci": args.ci, "seed": args.seed,
                     "level": args.level, "label_threshold": args.label_threshold,
                     "calibration_bins": args.calibration_bins, "length": "words (str.split of the summary)",
                     "resampling": "inputs"},
        "humans": {h: list(judgments.annotators.get(h, ())) for h in humans}, "judges": judge_cols,
        "scored_judges": scored,
        "reference": "verbosity: paired bootstrap of Kendall tau-b with length (Deutsch, Dror & Roth 2021); close "
                     "pairs: Deutsch, Dror & Roth 2022 (NAACL) Sec. 5, The Progress Illusion (Findings of EMNLP "
                     "2025); kappa: Cohen 1960, 1968; ECE: Guo et al. 2017 Eq. 3; Brier 1950",
        "versions": versions(),
        "timings": {"load_s": round(t_load - t0, 3), "audit_s": round(t_audit - t_load, 3)},
    }
    written = write_judge_audit(out, audit, manifest, figures=not args.no_figures)
    v = audit.verbosity[audit.verbosity["versus"] == "humans"]
    table = v.pivot_table(index="judge", columns="human", values="excess", sort=False)
    above = v.pivot_table(index="judge", columns="human", values="above", sort=False, aggfunc="first")
    print("Kendall with summary length, judge minus humans (* interval above 0):")
    print(table.map(lambda x: f"{x:+.3f}").where(~above.astype(bool), table.map(lambda x: f"{x:+.3f}*"))
          .to_string())
    for note in audit.notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"\nwrote {len(written)} files to {out} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


def add_commands(subparsers) -> None:
    """Add ``alt-test`` and ``judge-audit`` to the ``sumeval`` command's sub-parsers."""
    from sumeval.judges.names import ALIGNMENTS, DEFAULTS

    p = add_judgments_parser(
        subparsers, "alt-test", help="can an LLM judge replace the annotators? (the alternative annotator test)",
        description="The alternative annotator test (Calderon, Reichart & Dror, ACL 2025): each annotator is left "
                    "out in turn and the judge and the annotator are aligned with the others; a one-sided t-test per "
                    "annotator with a cost-benefit allowance epsilon, Benjamini-Yekutieli over annotators, the "
                    "winning rate (pass: >= 0.5) and the average advantage probability rho.",
        data_help="a data set name or a judgments file (.jsonl .csv .tsv .parquet) with <human>/<annotator> columns",
        human_help="human columns with annotator columns")
    p.add_argument("--judges", nargs="+", action="extend", required=True, metavar="M",
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
    add_audit_command(subparsers)


def add_audit_command(subparsers) -> None:
    """Add ``judge-audit`` to the ``sumeval`` command's sub-parsers."""
    p = add_judgments_parser(
        subparsers, "judge-audit", help="audit LLM judges: verbosity, close system pairs, kappa, calibration",
        description="The judge audit of judge (or measure) columns against human columns with annotator columns: "
                    "Kendall tau-b with summary length minus the humans' own (and each annotator's), with a document "
                    "bootstrap interval; agreement with the humans on system pairs binned by the humans' difference "
                    "(closest / middle / farthest third) beside a held-out annotator and length alone; Cohen's kappa "
                    "and quadratic-weighted kappa against each annotator; ECE and Brier score where a judge gives "
                    "probabilities.",
        data_help="a data set name or a judgments file (.jsonl .csv .tsv .parquet) with the summaries and "
                  "<human>/<annotator> columns",
        human_help="human columns (their <human>/<annotator> columns give the per-annotator rows)")
    p.add_argument("--judges", nargs="+", action="extend", required=True, metavar="M",
                   help="judge columns: one for every human column, JUDGE with a JUDGE.<human> or JUDGE/<human> column "
                        "per human column, or a template with {human}; or a measure sumeval scores")
    p.add_argument("--module-path", dest="module_path", action="append", default=[], metavar="DIR",
                   help="a folder searched first when importing a judge's module:Class (repeatable)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    p.add_argument("--bins", type=int, default=3, help="bins of system pairs by the humans' difference (default 3: "
                   "thirds)")
    p.add_argument("--n-resamples", dest="n_resamples", type=int, default=1000,
                   help="document bootstrap resamples of the intervals (default 1000; 0: no interval)")
    p.add_argument("--ci", type=float, default=0.95, help="coverage of the intervals (default 0.95)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap draws (default 0)")
    p.add_argument("--level", default="global", choices=["global", "input"],
                   help="Kendall with length pooled over all summaries (global, default) or per document, averaged "
                        "(input)")
    p.add_argument("--label-threshold", dest="label_threshold", type=float, default=None, metavar="T",
                   help="for calibration: a human score >= T is the positive label (default: only 0/1 human columns)")
    p.add_argument("--calibration-bins", dest="calibration_bins", type=int, default=10,
                   help="equal-width bins of the expected calibration error (default 10)")
    for role in ("doc", "system", "summary", "text", "references"):
        p.add_argument(f"--{role}-col", dest=f"{role}_col", metavar="COL", help=f"column of the {role} (a file only)")
    p.add_argument("--n-docs", dest="n_docs", type=int, help="only the first N documents")
    p.add_argument("--out", required=True, metavar="DIR", help="a new or empty folder for the results")
    p.add_argument("--no-figures", dest="no_figures", action="store_true", help="skip the figures")
    p.set_defaults(func=cmd_judge_audit)
