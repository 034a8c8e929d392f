"""Running a study notebook through papermill, and the run's folder and manifest.

The studies and their parameters (``StudyNotebook``, ``studies``, ``resolve_parameters``, ...) live
in :mod:`sumeval.running.study_params`.
``run_study("metric_correlations", "smoke", overrides={"seed": 1})`` validates every name against
the notebook (papermill itself only warns on an unknown name), executes it with an explicit
kernel and working directory, and writes ``runs/<study>/<run-id>/`` with ``executed.ipynb``,
``results.json`` (written by the notebook) and ``manifest.json`` (parameters, git commit and dirty
flag, package versions, data checksums, seed, device, timings). A failing notebook raises
:class:`~sumeval.errors.NotebookFailed` naming the failing cell; the executed copy is kept.

The notebook executed is the study's committed form (:mod:`sumeval.running.committed`: git HEAD's,
else the file; saved outputs stripped), and a notebook file edited since its commit is refused
with the fix named. A run's parameters are that form's defaults overlaid by the set and ``-p``
(:func:`~sumeval.running.study_params.resolve_run`): the manifest records every one
(``parameters``; ``notebook_source`` says where the notebook came from), and the run id's digest
covers every one, so two runs that differ in any parameter never share an id.

The notebook writes its figures and tables into the run folder; only a run that succeeds
publishes them to ``figures/<study>/`` (a data-set folder below it for a run on another data set
than the notebook's own: :mod:`sumeval.running.publish`), so a failing run leaves the published figures
as they were.

The manifest says ``"status": "running"`` with its ``owner`` (pid, host, process start) while the
notebook runs, then ``ok``, ``skipped`` (the run wrote no figure and no table and said why: every
part skipped, e.g. for a data set without what the study needs), ``failed`` or ``interrupted``.
A full disk fails the run with the path and the free space named; when even the manifest cannot
be rewritten, its status is rewritten in place, so the run is not left ``running``. Ctrl-C, SIGTERM and SIGHUP stop the
kernel, mark the run ``interrupted`` (with the time and the signal) and raise
:class:`~sumeval.runstate.Interrupted`, one line for the command to print; a run whose process
was killed outright (``kill -9``) is reported ``interrupted`` by :func:`read_manifest`.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _pkg_version
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from sumeval.cache import atomic_write_json
from sumeval.errors import InputError, NotebookFailed
from sumeval.hashing import sha256_json
from sumeval.paths import project_root, runs_dir
from sumeval.running.run_context import RUN_DIR_ENV
from sumeval.running.study_params import PROMISE_KEYS, get_study, resolve_run

__all__ = ["DEFAULT_KERNEL", "KERNEL_ENV", "TRACKED_PACKAGES", "package_versions", "parameter_notes", "kernel_name",
           "new_run_id", "read_manifest", "run_lock_path", "mark_dead_runs", "RunResult", "run_study",
           "prune_stale_figures"]

DEFAULT_KERNEL = "sumeval"
KERNEL_ENV = "SUMEVAL_KERNEL"
TRACKED_PACKAGES = (
    "sumeval", "numpy", "pandas", "scipy", "torch", "transformers", "rouge-score", "nltk",
    "spacy", "whoosh-reloaded", "scikit-learn", "matplotlib", "papermill", "ipywidgets",
)


def _git_state() -> dict[str, Any]:
    root = project_root()
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                    capture_output=True, text=True, timeout=10).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit or None, "dirty": dirty if commit else None}


def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in TRACKED_PACKAGES:
        try:
            out[name] = _pkg_version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def _device() -> str:
    try:
        import torch

        if torch.cuda.is_available():
            return f"cuda:{torch.cuda.get_device_name(0)}"
    except ImportError:
        pass
    return f"cpu:{platform.processor() or platform.machine()}:{os.cpu_count()} cores"


def parameter_notes(params: Mapping[str, Any]) -> list[str]:
    """Notes on a run's parameters that a user should see before waiting for it: today, a reduced
    ``precision`` that this CPU emulates (:func:`sumeval.lm.precision.slow_precision_note`).
    A value the notebook will refuse gets no note here (the notebook's error names it)."""
    if "precision" not in params:
        return []
    from sumeval.lm.precision import slow_precision_note

    try:
        note = slow_precision_note(str(params["precision"]), params.get("device") or None)
    except InputError:
        return []
    return [note] if note else []


def kernel_name(requested: str | None = None) -> str:
    """The Jupyter kernel to run notebooks with: ``requested``, ``$SUMEVAL_KERNEL`` or ``sumeval``."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    name = requested or os.environ.get(KERNEL_ENV) or DEFAULT_KERNEL
    try:
        KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel:
        raise InputError(
            f"Jupyter kernel {name!r} is not installed; run `make setup`, or "
            f"`{sys.executable} -m ipykernel install --sys-prefix --name {name}`, "
            f"or pass --kernel with one of: {', '.join(KernelSpecManager().find_kernel_specs())}"
        ) from None
    return name


def new_run_id(params_name: str, params: Mapping[str, Any]) -> str:
    """``<time>-<set>-<digest of params>``; ``params`` are every parameter of the run
    (:attr:`~sumeval.running.study_params.ResolvedRun.parameters`), so the digest moves with any of them."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    digest = sha256_json(params, 6)
    return f"{stamp}-{params_name}-{digest}"


def _claim_run_dir(study: str, run_id: str, chosen: bool) -> tuple[str, Path]:
    """Create ``runs/<study>/<run_id>/``; a generated id that is taken (two runs in the same
    second) gets ``-2``, ``-3``...; a ``chosen`` id that is taken is an InputError."""
    base = runs_dir() / study
    base.mkdir(parents=True, exist_ok=True)
    for n in range(1, 1000):
        rid = run_id if n == 1 else f"{run_id}-{n}"
        try:
            (base / rid).mkdir()
            return rid, base / rid
        except FileExistsError:
            if chosen:
                raise InputError(f"run folder {base / rid} exists already; choose another run id") from None
    raise InputError(f"cannot find a free run folder for {run_id!r} under {base}")  # pragma: no cover


def read_manifest(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a run (``{}`` when it has none or it is unreadable).

    A run left ``running`` by a process that is gone (killed, crashed) is marked
    ``interrupted`` here, in the file too, so that it is never shown as running.
    """
    from sumeval.runstate import describe_owner, now_iso, owner_alive

    path = Path(run_dir) / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(manifest, dict):
        return {}
    if manifest.get("status") == "running" and owner_alive(manifest.get("owner")) is False:
        manifest.update(status="interrupted", interrupted=now_iso(), signal="killed",
                        error=f"the process that ran it ({describe_owner(manifest.get('owner'))}) "
                              "is gone: killed or crashed")
        _record_fix(Path(run_dir), manifest)
    return manifest


def run_lock_path(run_dir: str | os.PathLike[str]) -> Path:
    """The lock a process holds while it (re)makes run folder ``runs/<study>/<run-id>``:
    ``runs/<study>/.locks/<run-id>.lock``."""
    run_dir = Path(run_dir)
    return run_dir.parent / ".locks" / f"{run_dir.name}.lock"


def _record_fix(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Write ``manifest`` back, unless another process holds the run (a sweep worker about to
    run it again) or the folder is gone; never re-creates the folder."""
    import tempfile

    from sumeval.runstate import exclusive_lock

    if not run_dir.is_dir():
        return
    try:
        with exclusive_lock(run_lock_path(run_dir), what=f"run {run_dir.name}", wait=False):
            fd, tmp = tempfile.mkstemp(prefix=".manifest.json.", suffix=".partial", dir=run_dir)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
            os.replace(tmp, run_dir / "manifest.json")
    except (InputError, OSError):
        pass  # taken, or read-only: the corrected status is still returned


def mark_dead_runs(study: str) -> list[Path]:
    """Mark every run of ``study`` left ``running`` by a process that is gone as interrupted
    (:func:`read_manifest`); return their folders. Every new run of the study does this first,
    so a killed run does not stay ``running`` in its manifest."""
    marked = []
    for path in sorted((runs_dir() / study).glob("*/manifest.json")):
        try:
            if '"running"' not in path.read_text(encoding="utf-8"):
                continue
        except OSError:
            continue
        if read_manifest(path.parent).get("status") == "interrupted":
            marked.append(path.parent)
    return marked


def _silence_abandoned_tasks() -> None:
    """Collect the asyncio tasks an interrupted notebook execution left behind without the
    'Task exception was never retrieved' report (hundreds of lines of nbclient internals)."""
    import gc
    import logging

    log = logging.getLogger("asyncio")
    disabled, log.disabled = log.disabled, True
    try:
        gc.collect()
    finally:
        log.disabled = disabled


@dataclass
class RunResult:
    study: str
    run_id: str
    run_dir: Path
    status: str
    duration_s: float
    results: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    skipped_outputs: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the run succeeded; a run that skipped all its parts (``skipped``) did not."""
        return self.status == "ok"


def _failing_cell(nb_path: Path, exc: Exception) -> str:
    """Human description of the failing cell of an executed notebook."""
    idx = getattr(exc, "cell_index", None)
    source = getattr(exc, "source", "") or ""
    ename = getattr(exc, "ename", type(exc).__name__)
    evalue = getattr(exc, "evalue", str(exc))
    first = next((ln for ln in source.splitlines() if ln.strip()), "")
    where = f"cell {idx}" if idx is not None else "a cell"
    return f"{where} ({first.strip()[:80]!r}) raised {ename}: {evalue}"


def run_study(name: str, params_name: str = "default", overrides: Mapping[str, Any] | None = None, *,
              kernel: str | None = None, run_id: str | None = None, progress: bool = False,
              raise_on_error: bool = True, timeout_s: int | None = None,
              engine_kwargs: Mapping[str, Any] | None = None) -> RunResult:
    """Execute study ``name`` with parameter set ``params_name`` (+ ``overrides``) via papermill.

    ``engine_kwargs`` go to papermill's engine (e.g. ``kernel_manager_class`` for IPC kernels
    when several runs share a machine).
    """
    from sumeval.runstate import Interrupted

    study = get_study(name)
    run = resolve_run(study, params_name, overrides)  # refuses a notebook edited since its commit
    params = run.parameters  # every parameter: the committed defaults, the set's, -p
    kname = kernel_name(kernel)
    mark_dead_runs(name)
    notes = [*run.notes, *parameter_notes(params)]
    for note in notes:
        print(f"note ({name}): {note}", file=sys.stderr, flush=True)
    run_id, run_dir = _claim_run_dir(name, run_id or new_run_id(params_name, params), chosen=run_id is not None)
    executed = run_dir / "executed.ipynb"
    manifest = _start_manifest(name, study, run, run_id, run_dir, params_name, overrides, kname, notes)
    outcome = _execute(study, run, run_dir, kname, progress=progress, timeout_s=timeout_s,
                       engine_kwargs=engine_kwargs)
    results = _check_results(study, run_dir, outcome)
    published = _publish(study, params, results, outcome)
    error = _finish_manifest(manifest, run_dir, outcome, results, published, notes)
    status = manifest["status"]
    if outcome.stopped_by is not None:
        raise Interrupted(f"study {name!r} ({params_name}) stopped by {outcome.stopped_by}; the run is marked "
                          f"interrupted in {run_dir / 'manifest.json'}", outcome.stopped_by)
    if status == "skipped":
        error = f"skipped all its parts, so it wrote no figure and no table: {results.get('skipped_reason')}"
    result = RunResult(name, run_id, run_dir, status, outcome.duration_s, results.get("results", {}), error,
                       dict(results.get("skipped_outputs") or {}))
    if status not in ("ok", "skipped") and raise_on_error:
        raise NotebookFailed(f"study {name!r} ({params_name}) failed: {error}. Executed notebook: {executed}")
    return result


@dataclass
class _Outcome:
    """How a run went so far: its status (``ok``, ``failed``, ``interrupted``, ``skipped``), the
    error in words, the signal that stopped it and the seconds the notebook ran."""

    status: str
    error: str | None
    stopped_by: str | None
    duration_s: float


def _start_manifest(name: str, study, run, run_id: str, run_dir: Path, params_name: str,
                    overrides: Mapping[str, Any] | None, kname: str, notes: list[str]) -> dict[str, Any]:
    """The run's manifest, written ``running`` (with its owner) before any work; a full runs disk
    is said with the path and the free space."""
    from sumeval.runstate import owner_record, storage_note

    params = run.parameters
    manifest: dict[str, Any] = {
        "study": name,
        "run_id": run_id,
        "notebook": str(study.notebook),
        "notebook_source": run.source.record(),
        "parameter_set": params_name,
        "overrides": {k: params.get(k, v) for k, v in dict(overrides or {}).items()},  # as used
        "parameters": params,
        "seed": params.get("seed"),
        "kernel": kname,
        "git": _git_state(),
        "packages": package_versions(),
        "python": platform.python_version(),
        "device": _device(),
        "notes": notes,
        "started": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "status": "running",
        "owner": owner_record(),
    }
    try:
        atomic_write_json(run_dir / "manifest.json", manifest)
    except OSError as exc:  # a full runs disk: say which, before any work
        raise OSError(exc.errno, f"{exc.strerror or exc}{storage_note(exc, run_dir)}",
                      str(run_dir / "manifest.json")) from None
    return manifest


def _execute(study, run, run_dir: Path, kname: str, *, progress: bool, timeout_s: int | None,
             engine_kwargs: Mapping[str, Any] | None) -> _Outcome:
    """Papermill executes the committed notebook into ``run_dir/executed.ipynb``, with the run
    folder in :data:`RUN_DIR_ENV`; a failure, a signal or a full disk becomes the outcome."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    from sumeval.runstate import signal_name, signals_interrupt, storage_note

    executed = run_dir / "executed.ipynb"
    t0 = time.perf_counter()
    error = None
    stopped_by = None
    with _run_dir_env(run_dir), _scratch_dir("sumeval-notebook-") as source_dir:
        try:
            # papermill's input: the committed notebook, its outputs stripped (never the file a session saved)
            source = run.source.write(source_dir / study.notebook.name)
            with signals_interrupt():
                papermill.execute_notebook(
                    str(source), str(executed), parameters=run.given, kernel_name=kname,
                    cwd=str(run_dir), progress_bar=progress, log_output=False,
                    request_save_on_cell_execute=True, execution_timeout=timeout_s,
                    **dict(engine_kwargs or {}),
                )
            status = "ok"
        except PapermillExecutionError as exc:
            status, error = "failed", _failing_cell(executed, exc)
        except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP: papermill has stopped the kernel
            stopped_by = signal_name(exc)
            status, error = "interrupted", f"interrupted by {stopped_by}"
        except Exception as exc:  # kernel died, timeout, a full disk ...
            status, error = "failed", f"{type(exc).__name__}: {exc}"
            if isinstance(exc, OSError):
                error += storage_note(exc, run_dir)
    if stopped_by is not None:
        _silence_abandoned_tasks()
    return _Outcome(status, error, stopped_by, time.perf_counter() - t0)


@contextmanager
def _run_dir_env(run_dir: Path) -> Iterator[None]:
    """:data:`RUN_DIR_ENV` names ``run_dir`` (the notebook's ``ctx`` writes there), then is restored."""
    old_env = os.environ.get(RUN_DIR_ENV)
    os.environ[RUN_DIR_ENV] = str(run_dir)
    try:
        yield
    finally:
        if old_env is None:
            os.environ.pop(RUN_DIR_ENV, None)
        else:
            os.environ[RUN_DIR_ENV] = old_env


@contextmanager
def _scratch_dir(prefix: str) -> Iterator[Path]:
    """A temporary folder, removed afterwards (whatever is left in it)."""
    path = tempfile.mkdtemp(prefix=prefix)
    try:
        yield Path(path)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _check_results(study, run_dir: Path, outcome: _Outcome) -> dict[str, Any]:
    """The notebook's ``results.json`` (``{}`` when none); a run that finished without it, or
    without a promised figure or table, becomes ``failed``, one that skipped every part ``skipped``
    (``outcome`` is updated)."""
    from sumeval.runstate import storage_note

    results_path = run_dir / "results.json"
    results = json.loads(results_path.read_text(encoding="utf-8")) if results_path.is_file() else {}
    if outcome.status == "ok" and not results:
        outcome.status = "failed"
        outcome.error = "the notebook finished without writing results.json (ctx.write_results)"
    if outcome.status == "failed" and outcome.error and "No space left on device" in outcome.error \
            and "free" not in outcome.error:
        outcome.error += storage_note(OSError(28, "No space left on device"), run_dir)
    for kind in PROMISE_KEYS:
        missing = (study.missing(results.get(kind, []), kind, list(results.get("skipped_outputs") or {}))
                   if outcome.status == "ok" else [])
        if missing:
            outcome.status, outcome.error = "failed", (
                f"the notebook finished without writing the promised {kind[:-1]}(s) "
                f"{', '.join(missing)} (the '{kind}' list of {study.params_file.name})")
    if outcome.status == "ok" and results.get("status") == "skipped":
        outcome.status = "skipped"  # it wrote no figure and no table: every part was skipped, for the reasons given
    return results


def _publish(study, params: Mapping[str, Any], results: dict[str, Any], outcome: _Outcome) -> dict[str, Any]:
    """Publish a successful run's figures and tables to ``figures/`` (only now: a failing run leaves
    the last successful one's); a failure to publish fails the run (``outcome`` is updated)."""
    from sumeval.running import publish

    if outcome.status != "ok":
        return {}
    published, error = publish.publish_run(study, params, results)
    if error:
        outcome.status = "failed"
    outcome.error = error
    return published


def _finish_manifest(manifest: dict[str, Any], run_dir: Path, outcome: _Outcome, results: dict[str, Any],
                     published: dict[str, Any], notes: list[str]) -> str | None:
    """Say the notes the notebook left (ctx.note) and rewrite the manifest with the outcome, the
    outputs and the provenance; returns the error (a manifest that could not be written adds one)."""
    from sumeval.runstate import finish_manifest, now_iso

    study_notes = [n for n in results.get("notes", []) if n not in notes]
    for note in study_notes:  # what the notebook said the reader must know (ctx.note): never only in the notebook
        print(f"note ({manifest['study']}): {note}", file=sys.stderr, flush=True)
    manifest.update(
        status=outcome.status,
        error=outcome.error,
        notes=[*notes, *study_notes],
        finished=_dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        duration_s=round(outcome.duration_s, 3),
        cell_durations_s=_cell_durations(run_dir / "executed.ipynb"),
        figures=results.get("figures", []),
        tables=results.get("tables", []),
        skipped_outputs=results.get("skipped_outputs", {}),
        **({"skipped_reason": results.get("skipped_reason")} if outcome.status == "skipped" else {}),
        published=published,
        provenance=results.get("provenance", {}),
        data_files=results.get("provenance", {}).get("data_files", {}),
    )
    if outcome.stopped_by is not None:
        manifest.update(interrupted=now_iso(), signal=outcome.stopped_by)
    return finish_manifest(run_dir, manifest) or outcome.error


def prune_stale_figures(study: str, written: Sequence[str], tables: Sequence[str] = (),
                        label: str | None = None) -> list[Path]:
    """Remove the figure (PDF / PNG) and table (CSV / TeX / Markdown / HTML) files of
    ``figures/<study>/`` (or its data-set folder ``label``) that the latest successful run did not
    write (those of an earlier parameter set), so that the folder shows one run's output; every
    run keeps its own copies in ``<run dir>/figures/`` and ``<run dir>/tables/``. ``tables`` are
    the run's table paths (one file per table, any suffix). Returns the removed paths. The runner
    does this when it publishes a run (:func:`sumeval.running.publish.publish`)."""
    from sumeval.running import publish
    from sumeval.tables import FORMATS

    keep = {Path(p).name for p in written}
    keep |= {f"{Path(t).stem}.{suffix}" for t in tables for suffix in FORMATS}
    return publish.prune_stale(publish.published_folder(study, label), keep)


def _cell_durations(executed: Path) -> list[float | None]:
    if not executed.is_file():
        return []
    try:
        nb = json.loads(executed.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return []
    return [c.get("metadata", {}).get("papermill", {}).get("duration")
            for c in nb.get("cells", []) if c.get("cell_type") == "code"]
