"""The ``sumeval`` command: this module builds the top parser and dispatches; each family of
sub-commands is one module here that holds its sub-parser and its thin command functions (the
computations stay in their packages).

    sumeval score rouge-1 bleu --input pairs.jsonl --output scored.jsonl     (cli.score)
    sumeval score --list
    sumeval list                                                             (cli.run)
    sumeval run metric_correlations --params smoke [-p seed=1]
    sumeval run all --params smoke [--jobs N | --scheduler ADDRESS]
    sumeval sweep metric_correlations --params smoke -g seed=0,1,2 [-g n_resamples=20,50]
                  [--jobs N | --scheduler ADDRESS]
    sumeval data list | verify                                               (cli.data)
    sumeval data add NAME PATH --human COL[,COL] [--doc-col C --system-col C ...] [--replace]
    sumeval data show | export NAME [-o FILE]
    sumeval meta-eval DATA --human COL ... --measures M ... --out DIR         (cli.meta_eval)
    sumeval alt-test DATA --human COL ... --judges J ... --out DIR            (cli.judges)
    sumeval judge-audit DATA --human COL ... --judges J ... --out DIR         (cli.judges)
    sumeval judge DATA --human COL ... --model M --template T --out DIR       (cli.judge)
    sumeval index build | list                                               (cli.index)
    sumeval ordering train | evaluate                                        (cli.ordering)
    sumeval models install | verify                                          (cli.models)

A new sub-command goes into the module of its family (or a new ``sumeval/cli/<family>.py`` with an
``add_commands(subparsers)``, called from :func:`build_parser` in the order ``sumeval --help``
lists them). The command line is the top floor: no module outside ``sumeval/cli/`` imports it.
"""
from __future__ import annotations

import argparse
import sys

from sumeval.errors import SumevalError

__all__ = ["format_warning", "build_parser", "main"]


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


def build_parser() -> argparse.ArgumentParser:
    """The ``sumeval`` parser: every sub-command, each with its ``func``."""
    from sumeval import __version__
    from sumeval.cli import data, index, judge, judges, meta_eval, models, ordering, run, score

    ap = argparse.ArgumentParser(prog="sumeval", description="Research workbench for summary evaluation.")
    ap.add_argument("--version", action="version", version=f"sumeval {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)
    score.add_commands(sub)  # score
    run.add_commands(sub)  # list, run (and run all), sweep
    data.add_commands(sub)  # data list | verify | add | remove | show | export
    meta_eval.add_commands(sub)  # meta-eval
    judges.add_commands(sub)  # alt-test, judge-audit
    judge.add_commands(sub)  # judge
    index.add_commands(sub)  # index build | list
    ordering.add_commands(sub)  # ordering train | evaluate
    models.add_commands(sub)  # models install | verify
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
