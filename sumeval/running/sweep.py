"""Parameter grids of a study, run by the executors of :mod:`sumeval.running.executors` (local processes or
a Dask cluster).

``sumeval sweep STUDY --params NAME -g key=v1,v2 [-g ...] [-p key=value] [--jobs N | --scheduler ADDR]``
expands the grid (the Cartesian product of the ``-g`` lists) into runs of ``STUDY``: each run is the
parameter set ``NAME`` plus the ``-p`` overrides plus one grid point, validated up front with
:func:`sumeval.running.study_params.resolve_run` (a bad value, or a notebook edited since its commit, fails
the sweep before anything runs).

Every run has a deterministic run id (:func:`point_run_id`: study, parameter set and every
parameter of the run), so it lands in ``runs/<study>/<run-id>/`` whichever sweep asked for it; a run whose
manifest says ``"ok"`` and which has ``results.json`` is finished and is skipped when the sweep
runs again - an interrupted sweep resumes where it stopped; an unfinished or failed run is
removed and run again.

The same code path runs on both executors (:class:`~sumeval.running.executors.LocalExecutor`,
:class:`~sumeval.running.executors.DaskExecutor`): a task is :func:`~sumeval.running.executors.execute_spec`, which
runs one study in a fresh Python process, so ``$SUMEVAL_RUN_DIR`` is private to the run, and that
process starts its own kernel over IPC sockets in a private folder, so parallel kernels never race
for TCP ports. With Dask the workers must see the same files (runs, notebooks, data) at the same
paths as the submitting machine.

Processes die with their parent: a worker ends (and stops its kernel) when the process that started
it ends, however it ends (``kill -9`` included), and a sweep stopped by Ctrl-C or SIGTERM stops its
workers, marks their runs interrupted and says so in one line. A worker holds a lock on its run
(``runs/<study>/.locks/<run-id>.lock``) while it runs, so a second sweep asking for the same run
waits for the first and then finds it finished.

The results of a sweep are gathered into one tidy frame (:func:`gather`): one row per run, the grid
parameters as columns, then ``run_id``, ``status``, ``error`` and the run's scalar results flattened
(``{"a": {"b": 1}}`` -> column ``a.b``), written atomically to
``runs/<study>/sweeps/<sweep-id>/results.parquet`` beside ``sweep.json`` (grid, runs, timings).
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from sumeval.cluster import driver_env
from sumeval.errors import InputError
from sumeval.hashing import sha256_json
from sumeval.running.executors import Progress, RunSpec, is_finished, make_executor, run_specs
from sumeval.running.runner import read_manifest

__all__ = ["parse_grid", "expand_grid", "point_run_id", "flatten_results", "SweepResult", "sweep_id", "plan", "gather",
           "run_sweep"]


# ------------------------------------------------------------------------------------------
# grids
# ------------------------------------------------------------------------------------------
def _split_top_level(text: str) -> list[str]:
    """Split ``text`` on commas outside brackets and quotes: ``"1,[2,3],'a,b'"`` -> 3 items."""
    parts, depth, quote, cur = [], 0, "", []
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def parse_grid(items: Sequence[str]) -> dict[str, list[Any]]:
    """``["x=1,2", "label=a,b"]`` -> ``{"x": [1, 2], "label": ["a", "b"]}`` (values read as YAML).

    Raises InputError for an item without ``=``, an empty value, a repeated key or repeated values.
    """
    from sumeval.argtypes import parse_value

    grid: dict[str, list[Any]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise InputError(f"grid axis {item!r} is not of the form key=v1,v2,... (e.g. -g seed=0,1,2)")
        if key in grid:
            raise InputError(f"grid axis {key!r} is given twice ({item!r}); put all its values in one -g")
        parsed = []
        for raw in _split_top_level(values):
            if raw == "":
                raise InputError(f"grid axis {item!r} has an empty value; remove the stray comma")
            parsed.append(parse_value(raw))
        canon = [json.dumps(v, sort_keys=True, default=str) for v in parsed]
        if len(set(canon)) != len(canon):
            raise InputError(f"grid axis {item!r} repeats a value")
        grid[key] = parsed
    return grid


def expand_grid(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """The Cartesian product of ``grid`` in order, the last key varying fastest.

    ``{"x": [1, 2], "s": ["a"]}`` -> ``[{"x": 1, "s": "a"}, {"x": 2, "s": "a"}]``; ``{}`` -> ``[{}]``.
    """
    keys = list(grid)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(grid[k] for k in keys))]


def _slug(point: Mapping[str, Any], limit: int = 48) -> str:
    text = "_".join(f"{k}={v}" for k, v in point.items())
    text = re.sub(r"[^A-Za-z0-9=._-]+", "-", text).strip("-")
    return text[:limit].rstrip("-_")


def point_run_id(study: str, params_name: str, params: Mapping[str, Any],
                 point: Mapping[str, Any] | None = None) -> str:
    """Deterministic run id of one run: ``g-<set>-<readable point>-<digest of study, set, params>``.

    ``params`` are every parameter of the run (the committed notebook's defaults, the set, the
    overrides, the grid point: :func:`~sumeval.running.study_params.resolve_run`), so the same point
    of two sweeps is the same run, and editing the parameter set or a committed default makes new runs.
    """
    slug = _slug(point or {})
    digest = sha256_json({"study": study, "set": params_name, "params": dict(params)}, 10)
    return "-".join(p for p in ("g", params_name, slug, digest) if p)


# ------------------------------------------------------------------------------------------
# sweeps
# ------------------------------------------------------------------------------------------
def flatten_results(results: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Scalar leaves of ``results`` as ``{"a.b": value}``; lists and tables are left out."""
    out: dict[str, Any] = {}
    for key, value in results.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten_results(value, name + "."))
        elif value is None or isinstance(value, (bool, int, float, str)):
            out[name] = value
    return out


@dataclass
class SweepResult:
    study: str
    sweep_id: str
    sweep_dir: Path
    frame: Any  # pandas.DataFrame
    n_runs: int
    n_skipped: int
    n_failed: int

    @property
    def ok(self) -> bool:
        return self.n_failed == 0

    @property
    def results_path(self) -> Path:
        return self.sweep_dir / "results.parquet"


def sweep_id(study: str, params_name: str, grid: Mapping[str, Sequence[Any]],
             overrides: Mapping[str, Any] | None = None) -> str:
    """Deterministic id of a sweep: ``<set>-<digest of study, set, overrides and grid>``."""
    identity = {"study": study, "set": params_name, "overrides": dict(overrides or {}),
                "grid": {k: list(v) for k, v in grid.items()}}
    return f"{params_name}-{sha256_json(identity, 10)}"


def plan(study: str, params_name: str, grid: Mapping[str, Sequence[Any]],
         overrides: Mapping[str, Any] | None = None, *, kernel: str | None = None,
         timeout_s: int | None = None) -> tuple[list[dict[str, Any]], list[RunSpec]]:
    """The grid points and their RunSpecs, every point validated before anything runs."""
    from sumeval.running import study_params

    st = study_params.get_study(study)
    overrides = dict(overrides or {})
    clash = sorted(set(grid) & set(overrides))
    if clash:
        raise InputError(f"parameter(s) {', '.join(clash)} given both as -p and as a grid axis -g; keep one")
    if not grid:
        raise InputError("a sweep needs at least one grid axis (-g key=v1,v2,...)")
    points = expand_grid(grid)
    env = driver_env()
    specs = []
    for point in points:
        try:
            params = study_params.resolve_run(st, params_name, {**overrides, **point}).parameters
        except InputError as exc:
            raise InputError(f"grid point {point}: {exc}") from None
        rid = point_run_id(study, params_name, params, point)
        specs.append(RunSpec(study, params_name, {**overrides, **point}, rid, kernel, timeout_s, env,
                             label=_slug(point, 60) or rid))
    return points, specs


def gather(study: str, points: Sequence[Mapping[str, Any]], run_ids: Sequence[str],
           outcomes: Mapping[str, Mapping[str, Any]] | None = None):
    """One row per run: grid parameters, ``run_id``, ``status``, ``error``, flattened scalar results.

    Result columns named like a grid parameter are prefixed ``result.``; a column mixing types
    (e.g. numbers in one run, text in another) is stored as JSON text so that parquet can hold it.
    """
    import pandas as pd

    from sumeval.paths import runs_dir

    rows = []
    for point, rid in zip(points, run_ids):
        run_dir = runs_dir() / study / rid
        row: dict[str, Any] = dict(point)
        row["run_id"] = rid
        manifest = read_manifest(run_dir)
        out = (outcomes or {}).get(rid, {})
        row["status"] = manifest.get("status") or out.get("status") or "missing"
        row["error"] = manifest.get("error") or out.get("error")
        try:
            results = json.loads((run_dir / "results.json").read_text(encoding="utf-8")).get("results", {})
        except (OSError, json.JSONDecodeError):
            results = {}
        for key, value in flatten_results(results).items():
            row[f"result.{key}" if key in row else key] = value
        rows.append(row)
    frame = pd.DataFrame(rows)
    for col in frame.columns:
        if frame[col].dtype == object:
            kinds = {type(v) for v in frame[col] if v is not None and not (isinstance(v, float) and v != v)}
            if len(kinds) > 1:
                frame[col] = [None if v is None else json.dumps(v) for v in frame[col]]
    return frame


@contextlib.contextmanager
def _sweep_lock(folder: Path) -> Iterator[None]:
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    fh = open(folder / ".lock", "w")
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(f"sweep {folder.name} is already running in another process "
                             f"(lock {folder / '.lock'}); wait for it or stop it") from None
        yield
    finally:
        fh.close()


def run_sweep(study: str, params_name: str, grid: Mapping[str, Sequence[Any]],
              overrides: Mapping[str, Any] | None = None, *, jobs: int = 1, scheduler: str | None = None,
              kernel: str | None = None, timeout_s: int | None = None, quiet: bool = False,
              executor=None) -> SweepResult:
    """Run every point of ``grid`` that has not finished yet, then gather all of them.

    ``executor`` (an object with ``submit(spec)`` and ``close()``) overrides ``jobs``/``scheduler``.
    Writes ``runs/<study>/sweeps/<sweep-id>/{sweep.json, results.parquet}``.
    """
    from sumeval.cache import atomic_path, atomic_write_json
    from sumeval.paths import runs_dir
    from sumeval.runstate import Interrupted, now_iso, owner_record, signal_name, signals_interrupt

    points, specs = plan(study, params_name, grid, overrides, kernel=kernel, timeout_s=timeout_s)
    sid = sweep_id(study, params_name, grid, overrides)
    folder = runs_dir() / study / "sweeps" / sid
    stopped_by = None
    with _sweep_lock(folder), signals_interrupt():
        todo = [s for s in specs if not is_finished(runs_dir() / study / s.run_id)]
        n_skipped = len(specs) - len(todo)
        started = _dt.datetime.now().astimezone().isoformat(timespec="seconds")
        outcomes: list[dict[str, Any]] = []
        if todo:
            own = executor is None
            executor = executor or make_executor(jobs, scheduler)
            progress = Progress(len(specs), f"sweep {study} {sid}", quiet=quiet, done=n_skipped)
            try:
                outcomes = run_specs(todo, executor, progress)
            except KeyboardInterrupt as exc:
                stopped_by = signal_name(exc)
            finally:
                progress.close()
                if own:
                    executor.close()
        by_id = {o["run_id"]: o for o in outcomes}
        frame = gather(study, points, [s.run_id for s in specs], by_id)
        with atomic_path(folder / "results.parquet") as tmp:
            frame.to_parquet(tmp, index=False)
        atomic_write_json(folder / "sweep.json", {
            "study": study, "sweep_id": sid, "parameter_set": params_name, "overrides": dict(overrides or {}),
            "grid": {k: list(v) for k, v in grid.items()}, "started": started,
            "finished": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
            "status": "interrupted" if stopped_by else "done", "owner": owner_record(),
            **({"interrupted": now_iso(), "signal": stopped_by} if stopped_by else {}),
            "executor": getattr(executor, "description", None) if todo else None,
            "runs": [{"point": p, "run_id": s.run_id, "skipped": s not in todo, "status": status, "error": error,
                      "duration_s": read_manifest(runs_dir() / study / s.run_id).get("duration_s"),
                      "host": by_id.get(s.run_id, {}).get("host"), "pid": by_id.get(s.run_id, {}).get("pid")}
                     for p, s, status, error in zip(points, specs, frame["status"], frame["error"])],
        })
    n_failed = int((frame["status"] != "ok").sum())
    if stopped_by:
        n_ok = len(specs) - n_failed
        raise Interrupted(f"sweep {study} {sid} stopped by {stopped_by}: {n_ok} of {len(specs)} runs finished, "
                          "the others are marked interrupted; run the same command again to finish it",
                          stopped_by)
    return SweepResult(study, sid, folder, frame, len(specs), n_skipped, n_failed)
