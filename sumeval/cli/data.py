"""``sumeval data``: the registered data files and the judgments data sets (:mod:`sumeval.datasets`).

    sumeval data list | verify
    sumeval data add NAME PATH --human COL[,COL] [--doc-col C --system-col C ...] [--replace]
    sumeval data remove NAME
    sumeval data show | export NAME [-o FILE] [--format judge-bench]

Each command's options: ``sumeval data COMMAND --help``.
"""
from __future__ import annotations

import argparse
import sys

__all__ = ["cmd_data", "add_commands"]


def cmd_data(args: argparse.Namespace) -> int:
    from sumeval.datasets import judgments as jd
    from sumeval.datasets import registry

    if args.action == "list":
        print("data files (sumeval data verify checks them):")
        width = max(12, *(len(n) for n in registry.datasets()))
        for name in registry.datasets():
            ds = registry.info(name)
            print(f"  {name:<{width}} {len(ds.files):>3} files  {ds.source}  [{ds.license}]")
        from sumeval.datasets.user_datasets import registry_file

        print(f"judgments data sets (a name wherever a dataset is accepted; user ones in {registry_file()}):")
        print("\n".join(jd.listing_lines()))
        from sumeval.datasets.user_datasets import malformed_entries

        for name, message in sorted(malformed_entries().items()):  # listed, never failing the whole list
            print(f"  {name:<12} MALFORMED  {message}")
        return 0
    if args.action == "verify":
        report = registry.verify_all()
        bad = [r for r in report if not r["ok"]]
        for r in report:
            print(f"{'ok  ' if r['ok'] else 'FAIL'} {r['relpath']}" + ("" if r["ok"] else f": {r['error']}"))
        for r in jd.verify_user_datasets():
            ok = r["status"] == "ok"
            bad += [] if ok else [r]
            print(f"{'ok  ' if ok else 'FAIL'} {r['name']} ({r['path']})"
                  + ("" if ok else f": {r['status']}, {r['error']}"))
        return 1 if bad else 0
    if args.action in ("add", "export"):  # --format names what the extension picks (.json: Judge-Bench)
        from sumeval.datasets.judgment_files import check_format

        check_format(args.path if args.action == "add" else args.output, args.format)
    if args.action == "add":
        j = jd.add_dataset(args.name, args.path, human=args.human, lower_is_better=args.lower_is_better,
                           replace_existing=args.replace, **_column_options(args))
        print(j.describe())
        print(f"added data set {args.name!r}", file=sys.stderr)
        return 0
    if args.action == "remove":
        jd.remove_dataset(args.name)
        print(f"removed data set {args.name!r} (its file is left alone)", file=sys.stderr)
        return 0
    if args.action == "export":  # a folder, or a data set's own file: refused before reading anything
        from sumeval.datasets.user_datasets import check_export_target

        check_export_target(args.output, name=args.name)
    j = jd.load_judgments(args.name, human=args.human, lower_is_better=args.lower_is_better,
                          n_docs=args.n_docs, **_column_options(args))
    if args.action == "show":
        print(j.describe())
        return 0
    from sumeval.cli.score import write_output

    # a full disk, an immutable file, a read-only folder: named with the path given and what to do
    write_output(args.output, lambda: jd.export_judgments(j, args.output), what="-o")
    print(f"wrote {len(j)} rows of {j.name} to {args.output}", file=sys.stderr)
    return 0


def _column_options(args: argparse.Namespace) -> dict[str, str | None]:
    """The ``--doc-col`` ... ``--references-col`` options (None where not given)."""
    return {k: getattr(args, k, None) for k in ("doc_col", "system_col", "summary_col", "text_col",
                                                "references_col")}


def _add_judgments_arguments(p: argparse.ArgumentParser, *, mapping: bool = True) -> None:
    """Column-role options of a judgments file (``data add``, ``data export`` of a path)."""
    if mapping:
        p.add_argument("--doc-col", dest="doc_col", metavar="COL", help="column of the document ids (default doc_id)")
        p.add_argument("--system-col", dest="system_col", metavar="COL",
                       help="column of the system ids (default system)")
        p.add_argument("--summary-col", dest="summary_col", metavar="COL",
                       help="column of the summaries (default summary)")
        p.add_argument("--text-col", dest="text_col", metavar="COL",
                       help="column of the source documents (default text)")
        p.add_argument("--references-col", dest="references_col", metavar="COL",
                       help="column of the references, a list of strings (default references)")
    p.add_argument("--human", metavar="COL[,COL]", help="the human columns (comma-separated); every other "
                   "numeric column is a precomputed measure, <human>/<annotator> columns are annotators")
    p.add_argument("--lower-is-better", dest="lower_is_better", action="append", default=[], metavar="COL",
                   help="a measure column whose lower values are better (shown negated); repeatable")


_FORMATS = ("jsonl", "csv", "tsv", "parquet", "judge-bench")
_FORMAT_HELP = ("the file's format, which its extension picks (.jsonl .csv .tsv .parquet; .json: Judge-Bench's "
                "schema, sumeval.datasets.judge_bench); given, it must agree with the extension")


def add_commands(sub) -> None:
    """Add ``data`` and its actions to the ``sumeval`` command's sub-parsers ``sub``."""
    da = sub.add_parser("data", help="list, verify, add, show or export data sets",
                        description="Data sets: the registered data files, and judgments data sets "
                        "(built-in summeval and realsumm, and a user's files added by name).")
    dsub = da.add_subparsers(dest="action", required=True)
    dsub.add_parser("list", help="the data files and the judgments data sets (built-in and user)")
    dsub.add_parser("verify", help="check every data file and user data set against its sha256")
    d_add = dsub.add_parser("add", help="validate a judgments file and record it under a name")
    d_add.add_argument("name", help="the name to give it (letters, digits, _ . -)")
    d_add.add_argument("path", help="the judgments file: .jsonl, .csv, .tsv or .parquet")
    _add_judgments_arguments(d_add)
    d_add.add_argument("--replace", action="store_true", help="replace a data set of the same name")
    d_add.add_argument("--format", choices=_FORMATS, help=_FORMAT_HELP)
    d_rm = dsub.add_parser("remove", help="forget a user data set (its file is left alone)")
    d_rm.add_argument("name")
    for action, text in (("show", "describe a judgments data set (columns, roles, checksum)"),
                         ("export", "write a judgments data set as JSONL, CSV, TSV or parquet")):
        d = dsub.add_parser(action, help=text)
        d.add_argument("name", help="a data set name (summeval, realsumm, a user's) or a file path")
        if action == "export":
            d.add_argument("--output", "-o", required=True,
                           help="file to write; the extension (.jsonl .csv .tsv .parquet) picks the format; "
                                "never a data set's own file (refused, also through links)")
            d.add_argument("--format", choices=_FORMATS, help=_FORMAT_HELP)
        d.add_argument("--n-docs", dest="n_docs", type=int, help="only the first N documents")
        _add_judgments_arguments(d)
    da.set_defaults(func=cmd_data)
