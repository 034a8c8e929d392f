"""``sumeval list``, ``sumeval run STUDY | all`` and ``sumeval sweep``: the study notebooks, run by
:mod:`sumeval.running` (one run: :mod:`~sumeval.running.runner`; every study:
:mod:`~sumeval.running.run_all`; a grid: :mod:`~sumeval.running.sweep`).

    sumeval list
    sumeval run metric_correlations --params smoke [-p seed=1]
    sumeval run all --params smoke [--jobs N|auto | --scheduler ADDRESS]
    sumeval sweep metric_correlations --params smoke -g seed=0,1,2 [-g n_resamples=20,50]
                  [--jobs N | --scheduler ADDRESS]

``--jobs`` / ``--scheduler`` (:func:`add_executor_arguments`, read by :func:`executor_choice`) pick the
executors of ``run all`` and ``sweep`` (:mod:`sumeval.running.executors`).
"""
from __future__ import annotations

import argparse
import sys

from sumeval.argtypes import parse_overrides, positive_int
from sumeval.errors import InputError
from sumeval.running import executors

__all__ = ["cmd_list", "cmd_run", "default_set_note", "cmd_run_all", "cmd_sweep", "executor_choice", "jobs_arg",
           "add_executor_arguments", "add_commands"]


def cmd_list(args: argparse.Namespace) -> int:
    from sumeval.running import study_params

    found = study_params.studies()
    if not found:
        print("no studies found")
        return 0
    for name, study in found.items():
        sets = study.parameter_sets()
        declared = study.listed_parameters()
        data = [p for p in declared if p == "dataset" or p.endswith("_dataset")]
        takes = f"; takes {', '.join(f'-p {p}=NAME' for p in data)}" if data else ""
        print(f"{name:<24} parameter sets: {', '.join(sets)}{takes}")
    print("\n-p dataset=NAME runs a study on a judgments data set: a name from `sumeval data list` "
          "(built-in or added with `sumeval data add`) or an absolute path; its figures go to "
          "figures/<study>/<NAME>/")
    return 0


def _minutes_words(minutes: float) -> str:
    """``27`` -> ``about 27 minutes``, ``0.5`` -> ``under a minute`` (of a parameter file's ``minutes:``)."""
    if minutes < 1:
        return "under a minute"
    hours = f" ({minutes / 60:.1f} hours)" if minutes >= 90 else ""
    return f"about {minutes:.0f} minute{'s' if round(minutes) != 1 else ''}{hours}"


def default_set_note(studies: list, params_name: str, *, jobs: int = 1) -> str:
    """What ``sumeval run STUDY`` or ``run all`` without ``--params`` says before it starts (issue 35: the
    ``default`` set takes minutes to hours): which set runs and how long its parameter files say it
    takes (``minutes:``, :meth:`~sumeval.running.study_params.StudyNotebook.expected_minutes`), and the
    quick set. ``studies``: the :class:`~sumeval.running.study_params.StudyNotebook` of the run(s)."""
    from sumeval.running.study_params import MINUTES_MACHINE

    having = [s for s in studies if params_name in s.parameter_sets()]
    minutes = [m for m in (s.expected_minutes(params_name) for s in having) if m is not None]
    quick = "smoke" if studies and all("smoke" in s.parameter_sets() for s in studies) else None
    if len(studies) == 1:
        what = f"running {studies[0].name} with the `{params_name}` parameter set"
        time = (f"{_minutes_words(minutes[0])} on {MINUTES_MACHINE}" if minutes
                else "its parameter file states no expected time")
    else:
        what = f"running all {len(studies)} studies with the `{params_name}` parameter set"
        unknown = len(having) - len(minutes)
        time = (f"{_minutes_words(sum(minutes))} one after another on {MINUTES_MACHINE}"
                + (f", less with --jobs {jobs}" if jobs > 1 else "")
                + (f"; {unknown} of them state{'s' if unknown == 1 else ''} no time" if unknown else "")) if minutes \
            else "their parameter files state no expected time"
    hint = f"; --params {quick} for a quick run" if quick and quick != params_name else ""
    return f"{what} ({time}{hint})"


def cmd_run(args: argparse.Namespace) -> int:
    from sumeval.running import runner

    given = args.params is not None  # without --params the `default` set runs: say so, and how long it takes
    args.params = args.params or "default"
    if args.study == "all":
        if not given and not getattr(args, "param", None):
            from sumeval.running.study_params import studies

            jobs, _ = executor_choice(args)
            print(f"sumeval: {default_set_note(list(studies().values()), args.params, jobs=jobs)}",
                  file=sys.stderr)
        return cmd_run_all(args)

    if getattr(args, "jobs", None) is not None or getattr(args, "scheduler", None):
        raise InputError("--jobs and --scheduler apply to `sumeval run all` (and `sumeval sweep`); "
                         f"`sumeval run {args.study}` runs one study in this process - drop them")
    overrides = parse_overrides(args.param or [])
    if not given:
        from sumeval.running.study_params import get_study

        print(f"sumeval: {default_set_note([get_study(args.study)], args.params)}", file=sys.stderr)
    result = runner.run_study(args.study, args.params, overrides, kernel=args.kernel,
                              progress=not args.quiet, raise_on_error=False)
    if result.ok:
        skipped = result.skipped_outputs
        print(f"{args.study} ({args.params}): ok in {result.duration_s:.1f}s -> {result.run_dir}"
              + "".join(f"\n  skipped {k}: {v}" for k, v in skipped.items()))
        return 0
    if result.status == "skipped":
        print(f"sumeval: error: study {args.study!r} ({args.params}) {result.error}", file=sys.stderr)
        print(f"executed notebook and manifest: {result.run_dir}", file=sys.stderr)
        return 1
    print(f"sumeval: error: study {args.study!r} ({args.params}) failed: {result.error}", file=sys.stderr)
    print(f"executed notebook and manifest: {result.run_dir}", file=sys.stderr)
    return 1


def cmd_run_all(args: argparse.Namespace) -> int:
    """``sumeval run all --params NAME``: exit 0 when every study passed, else 1."""
    if getattr(args, "param", None):
        raise InputError(f"-p {args.param[0]} applies to one study; `run all` runs each study's parameter set "
                         f"{args.params!r} as it is (use `sumeval sweep STUDY` or `sumeval run STUDY -p ...`)")
    from sumeval.running.run_all import run_all

    jobs, scheduler = executor_choice(args)
    res = run_all(args.params, jobs=jobs, scheduler=scheduler,
                  kernel=getattr(args, "kernel", None), quiet=getattr(args, "quiet", False))
    for o in res.outcomes:
        dur = f" in {o.duration_s:.1f}s" if o.duration_s is not None else ""
        line = f"{o.study:<28} {o.status}{dur}"
        print(line if o.ok else f"{line}: {o.error}", file=sys.stdout if o.ok else sys.stderr)
    n_ok = sum(o.ok for o in res.outcomes)
    print(f"{n_ok} of {len(res.outcomes)} studies ok; report: {res.report}")
    return 0 if res.ok else 1


def cmd_sweep(args: argparse.Namespace) -> int:
    from sumeval.running.sweep import parse_grid, run_sweep

    jobs, scheduler = executor_choice(args)
    grid = parse_grid(args.grid or [])
    res = run_sweep(args.study, args.params, grid, parse_overrides(args.param or []), jobs=jobs,
                    scheduler=scheduler, kernel=args.kernel, timeout_s=args.timeout, quiet=args.quiet)
    print(f"sweep {res.study} {res.sweep_id}: {res.n_runs} runs ({res.n_skipped} already finished, "
          f"{res.n_runs - res.n_skipped} run, {res.n_failed} failed) -> {res.results_path}")
    if not res.ok:
        for row in res.frame[res.frame["status"] != "ok"].itertuples():
            print(f"sumeval: error: run {row.run_id} {row.status}: {row.error}", file=sys.stderr)
        return 1
    return 0


# ------------------------------------------------------------------------------------------
# --jobs / --scheduler
# ------------------------------------------------------------------------------------------
def executor_choice(args: argparse.Namespace) -> tuple[int, str | None]:
    """``(jobs, scheduler)`` of parsed ``--jobs`` / ``--scheduler`` (jobs 1 when neither is given,
    :func:`~sumeval.running.executors.auto_jobs` for ``--jobs auto``); both together is an InputError
    (a cluster decides its own parallelism)."""
    jobs, scheduler = getattr(args, "jobs", None), getattr(args, "scheduler", None)
    if jobs is not None and scheduler:
        raise InputError(f"--jobs {jobs} and --scheduler {scheduler} exclude each other: the Dask cluster "
                         "runs as many runs at a time as it has workers; drop --jobs")
    if jobs == "auto":
        jobs = executors.auto_jobs()
    return (jobs or 1), scheduler


def jobs_arg(text: str) -> int | str:
    """``--jobs``: a positive count or ``auto`` (:func:`~sumeval.running.executors.auto_jobs`)."""
    return "auto" if text.strip().lower() == "auto" else positive_int(text)


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--scheduler``, shared by ``sweep`` and ``run all``."""
    parser.add_argument("--jobs", "-j", type=jobs_arg, default=None, metavar="N|auto",
                        help="runs at a time on this machine, each in its own process and kernel, the cores "
                             "split between them (default 1; auto: one per core, as many as the memory holds "
                             f"at {executors.RUN_MEMORY_GB:g} GB each)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on an existing Dask distributed cluster (e.g. tcp://10.0.0.5:8786) instead")


# ------------------------------------------------------------------------------------------
# the sub-parsers
# ------------------------------------------------------------------------------------------
def add_commands(sub) -> None:
    """Add ``list``, ``run`` (``run all`` too) and ``sweep`` to the ``sumeval`` command's sub-parsers ``sub``."""
    ls = sub.add_parser("list", help="list the studies and their parameter sets")
    ls.set_defaults(func=cmd_list)

    rn = sub.add_parser("run", help="run a study notebook through papermill")
    rn.add_argument("study", help="a study (see `sumeval list`), or `all`: every study, then a report under runs/")
    rn.add_argument("--params", default=None, help="parameter set name (default: default, the full study: minutes "
                    "to hours, which it says before it starts; smoke: a quick run)")
    rn.add_argument("-p", "--param", action="append", metavar="KEY=VALUE", help="override one parameter")
    rn.add_argument("--kernel", help="Jupyter kernel (default: $SUMEVAL_KERNEL or 'sumeval')")
    rn.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_executor_arguments(rn)  # --jobs, --scheduler (for `run all`)
    rn.set_defaults(func=cmd_run)

    sw = sub.add_parser("sweep", help="run a study over a grid of parameters and gather the results")
    sw.add_argument("study")
    sw.add_argument("--params", default="default", help="parameter set the grid starts from (default: default)")
    sw.add_argument("-g", "--grid", action="append", metavar="KEY=V1,V2,...",
                    help="one grid axis; several -g make the Cartesian product")
    sw.add_argument("-p", "--param", action="append", metavar="KEY=VALUE", help="a fixed override for every run")
    add_executor_arguments(sw)
    sw.add_argument("--kernel", help="Jupyter kernel (default: $SUMEVAL_KERNEL or 'sumeval')")
    sw.add_argument("--timeout", type=positive_int, metavar="S", help="seconds a cell may run (default: no limit)")
    sw.add_argument("--quiet", "-q", action="store_true", help="no progress")
    sw.set_defaults(func=cmd_sweep)
