"""``sumeval alt-test``: can an LLM judge replace the annotators? (:mod:`sumeval.judges.alt_test`;
what it writes: :mod:`sumeval.judges.alt_test_output`)

    sumeval alt-test summeval --human coherence consistency fluency relevance \\
        --judges gpt-4o gpt-4o-mini --pooled --out results/alt_test
    sumeval alt-test mine.csv --human overall --judges my_judge --epsilon 0.1 --alignment accuracy --out out/
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
from sumeval.judges.alt_test_output import (MANIFEST_KIND, alt_test_table, check_empty_out, judge_notes,
                                            score_measure_judges, versions, write_alt_test)

__all__ = ["cmd_alt_test", "add_commands"]


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
                      min_annotators=args.min_annotators, where=where, candidates=measures)
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
                     "18428b1) on the same data (tests/test_alt_test.py)",
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


def add_commands(subparsers) -> None:
    """Add ``alt-test`` to the ``sumeval`` command's sub-parsers."""
    from sumeval.judges.alt_test import ALIGNMENTS, DEFAULTS

    p = add_judgments_parser(
        subparsers, "alt-test", help="can an LLM judge replace the annotators? (the alternative annotator test)",
        description="The alternative annotator test (Calderon, Reichart & Dror, ACL 2025): each annotator is left "
                    "out in turn and the judge and the annotator are aligned with the others; a one-sided t-test per "
                    "annotator with a cost-benefit allowance epsilon, Benjamini-Yekutieli over annotators, the "
                    "winning rate (pass: >= 0.5) and the average advantage probability rho.",
        data_help="a data set name or a judgments file (.jsonl .csv .tsv .parquet) with <human>/<annotator> columns",
        human_help="human columns with annotator columns")
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
