"""Run every registered study and write one run report.

``sumeval run all --params NAME [--jobs N | --scheduler ADDR]`` (and ``make figures``) runs each study
of :func:`sumeval.running.study_params.studies` with parameter set ``NAME`` through the executors of
:mod:`sumeval.running.executors` (each study in its own process and kernel), then writes
``runs/report-<timestamp>/index.html`` (:mod:`sumeval.running.run_report`). A failing study never stops
the others; the command (:mod:`sumeval.cli.run`) exits 0 only when every study passed (a study that
skipped all its parts, status ``skipped``, did not pass).
"""
from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from sumeval.errors import InputError
from sumeval.paths import notebooks_dir
from sumeval.running.run_report import StudyOutcome, write_report

__all__ = ["RunAllResult", "run_all", "longest_first"]


@dataclass
class RunAllResult:
    """What :func:`run_all` did: the parameter set, the report page and one outcome per study."""

    params_name: str
    report: Path
    outcomes: list[StudyOutcome]

    @property
    def ok(self) -> bool:
        return all(o.ok for o in self.outcomes)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}


def longest_first(specs: Sequence[Any], known: dict[str, Any], params_name: str) -> list[Any]:
    """``specs`` with the studies expected to take longest first (their parameter file's
    ``minutes:`` for ``params_name``; a study without it keeps its place after those with it).

    With several runs side by side the long studies then start at once and the short ones fill the
    cores at the end, instead of a long study starting last and running alone.
    """
    expected = {s.study: known[s.study].expected_minutes(params_name) for s in specs}
    return sorted(specs, key=lambda s: (expected[s.study] is None, -(expected[s.study] or 0.0)))


def run_all(params_name: str = "default", *, only: Sequence[str] | None = None, jobs: int = 1,
            scheduler: str | None = None, kernel: str | None = None, timeout_s: int | None = None,
            quiet: bool = False, executor=None) -> RunAllResult:
    """Run every registered study (or those in ``only``) with ``params_name``; write the report.

    A study whose parameters do not resolve (no such set, a bad value) is a failed outcome, like a
    study whose notebook fails; the others still run.
    """
    from sumeval import paths
    from sumeval.cluster import driver_env
    from sumeval.running import executors, runner, study_params

    known = study_params.studies()
    names = list(only) if only else list(known)
    if not names:
        raise InputError(f"no studies found in {notebooks_dir()}")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InputError(f"unknown stud{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}; "
                         f"known: {', '.join(known)}")
    started = _dt.datetime.now().astimezone()
    env = driver_env()
    outcomes: dict[str, StudyOutcome] = {}
    specs: list[executors.RunSpec] = []
    for name in names:
        try:
            run = study_params.resolve_run(known[name], params_name)  # an edited notebook: failed here
        except InputError as exc:
            outcomes[name] = StudyOutcome(name, "failed", error=str(exc))
            continue
        run_id = runner.new_run_id(params_name, run.parameters)
        outcomes[name] = StudyOutcome(name, "pending", run_id=run_id, parameters=run.given)
        specs.append(executors.RunSpec(name, params_name, {}, run_id, kernel, timeout_s, env, label=name))
    specs = longest_first(specs, known, params_name)
    stopped_by = None
    if specs:
        from sumeval.runstate import signal_name, signals_interrupt

        own = executor is None
        executor = executor or executors.make_executor(jobs, scheduler)
        progress = executors.Progress(len(specs), f"run all --params {params_name}", quiet=quiet, per_run=True,
                                  unit="study")
        done: list[dict[str, Any]] = []
        try:
            with signals_interrupt():
                done = executors.run_specs(specs, executor, progress)
        except KeyboardInterrupt as exc:
            stopped_by = signal_name(exc)
            done = [{"study": s.study, "status": "interrupted", "error": f"interrupted by {stopped_by}"}
                    for s in specs]
        finally:
            progress.close()
            if own:
                executor.close()
        for out in done:
            o = outcomes[out["study"]]
            run_dir = paths.runs_dir() / o.study / o.run_id
            manifest = runner.read_manifest(run_dir)  # a killed worker's run reads 'interrupted'
            results = _read_json(run_dir / "results.json")
            o.status = manifest.get("status") or out["status"]
            if o.status == "running":  # the worker died before the runner could finish the manifest
                o.status = "failed"
            o.error = manifest.get("error") or out.get("error")
            if o.status == "skipped":  # every part skipped: not ok, and the report says why
                o.error = f"skipped all its parts: {manifest.get('skipped_reason') or results.get('skipped_reason')}"
            o.run_dir = str(run_dir) if run_dir.is_dir() else None
            o.duration_s = manifest.get("duration_s", out.get("duration_s"))
            o.figures = list(manifest.get("figures") or results.get("figures") or [])
            o.tables = list(manifest.get("tables") or results.get("tables") or [])
            o.results = results.get("results", {})
            o.notes = list(manifest.get("notes") or results.get("notes") or [])
    ordered = [outcomes[n] for n in names]
    report = write_report(ordered, params_name, started, _dt.datetime.now().astimezone())
    if stopped_by:
        from sumeval.runstate import Interrupted

        n_ok = sum(o.ok for o in ordered)
        raise Interrupted(f"run all --params {params_name} stopped by {stopped_by}: {n_ok} of {len(ordered)} "
                          f"studies ok, the others interrupted; report: {report}", stopped_by)
    return RunAllResult(params_name, report, ordered)
