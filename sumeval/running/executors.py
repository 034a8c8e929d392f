"""Running studies in processes of their own: the executors of ``sumeval sweep`` and ``sumeval run all``.

A run is a :class:`RunSpec` (study, parameter set, overrides, run id, kernel, environment).
:func:`execute_spec` runs one in a fresh Python process (``python -m sumeval.running.executors --worker``),
so ``$SUMEVAL_RUN_DIR`` is private to the run, and that process starts its own kernel over IPC
sockets in a private folder, so parallel kernels never race for TCP ports. The same task runs on
both executors: :class:`LocalExecutor` (``--jobs N`` processes on this machine) and
:class:`DaskExecutor` (``--scheduler ADDRESS``; its workers must see the same files at the same
paths). :func:`run_specs` submits runs and collects their outcomes with a :class:`Progress`.

Processes die with their parent: a worker ends (and stops its kernel) when the process that started
it ends, however it ends (``kill -9`` included), and Ctrl-C or SIGTERM stops the workers in flight
(:func:`stop_workers`), which mark their runs interrupted. A worker holds a lock on its run while it
runs, and skips a run that :func:`is_finished`.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from sumeval.cluster import dask_client
from sumeval.errors import InputError

__all__ = ["THREAD_ENV", "RUN_MEMORY_GB", "usable_cores", "available_memory_gb", "auto_jobs",
           "thread_env", "RunSpec", "execute_spec", "stop_workers", "ipc_kernel_manager_class",
           "is_finished", "LocalExecutor", "DaskExecutor", "make_executor", "Progress", "run_specs"]

_RESULT_MARK = "@@sumeval-run-result@@"

def _manifest(run_dir: Path) -> dict[str, Any]:
    from sumeval.running.runner import read_manifest

    return read_manifest(run_dir)


def is_finished(run_dir: Path) -> bool:
    """True when ``run_dir`` holds a run whose manifest status is ``ok`` and whose results.json exists."""
    return _manifest(run_dir).get("status") == "ok" and (run_dir / "results.json").is_file()


# ------------------------------------------------------------------------------------------
# one run, in its own process
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to run one study: picklable, JSON-able."""

    study: str
    params_name: str
    overrides: dict[str, Any]
    run_id: str
    kernel: str | None = None
    timeout_s: int | None = None
    env: dict[str, str] = field(default_factory=dict)
    label: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), default=str)

    @classmethod
    def from_json(cls, text: str) -> "RunSpec":
        return cls(**json.loads(text))


def execute_spec(spec: RunSpec, python: str | None = None) -> dict[str, Any]:
    """Run ``spec`` in a fresh ``python -m sumeval.running.executors --worker`` process; the task of every executor.

    Returns ``{"study", "run_id", "run_dir", "status", "duration_s", "error", "host", "pid"}``; a worker
    that dies without answering gives status ``failed`` with the tail of its stderr.
    """
    import platform

    env = {**os.environ, **spec.env, "PYTHONUNBUFFERED": "1", _PARENT_ENV: str(os.getpid())}
    env.setdefault("MPLBACKEND", "Agg")
    t0 = time.perf_counter()
    # the worker writes into files, not pipes: if this process dies, its last words still land
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        proc = subprocess.Popen([python or sys.executable, "-m", "sumeval.running.executors", "--worker"],
                                stdin=subprocess.PIPE, stdout=out, stderr=err, text=True, env=env)
        with _WORKERS_LOCK:
            _WORKERS.add(proc)
        try:
            proc.communicate(spec.to_json())
        finally:
            with _WORKERS_LOCK:
                _WORKERS.discard(proc)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    for line in reversed(stdout.splitlines()):
        if line.startswith(_RESULT_MARK):
            out = json.loads(line[len(_RESULT_MARK):])
            out.setdefault("host", platform.node())
            return out
    tail = (stderr or stdout).strip().splitlines()[-8:]
    return {"study": spec.study, "run_id": spec.run_id, "run_dir": None, "status": "failed",
            "duration_s": round(time.perf_counter() - t0, 3), "host": platform.node(), "pid": None,
            "error": f"worker exited with status {proc.returncode}: " + " | ".join(tail)}


_KERNEL_TMP: list[str] = []
_PARENT_ENV = "SUMEVAL_SWEEP_PARENT"  # pid of the process that started a worker
_WORKERS: set[subprocess.Popen] = set()  # worker processes of this process, while they run
_WORKERS_LOCK = threading.Lock()


def stop_workers(wait_s: float = 3.0, grace_s: float = 15.0) -> int:
    """Stop every worker this process started: give them ``wait_s`` to end by themselves (a
    Ctrl-C at a terminal reached them too), then SIGTERM (each marks its run interrupted and
    stops its kernel), then SIGKILL those still running after ``grace_s``; return how many."""
    with _WORKERS_LOCK:
        procs = [p for p in _WORKERS if p.poll() is None]
    deadline = time.monotonic() + wait_s
    for p in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(max(0.0, deadline - time.monotonic()))
    procs = [p for p in procs if p.poll() is None]
    for p in procs:
        with contextlib.suppress(OSError):
            p.terminate()
    deadline = time.monotonic() + grace_s
    for p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                p.kill()
    return len(procs)


def ipc_kernel_manager_class():
    """An ``AsyncKernelManager`` that talks to its kernel over IPC sockets in a private temp folder.

    TCP ports picked by jupyter_client are free when picked but may be taken by a parallel kernel
    before this one binds them; IPC socket files in a folder of their own cannot collide.
    """
    from jupyter_client import AsyncKernelManager
    from traitlets import default

    class IPCKernelManager(AsyncKernelManager):
        @default("transport")
        def _sumeval_transport(self) -> str:
            return "ipc"

        @default("ip")
        def _sumeval_ip(self) -> str:
            folder = tempfile.mkdtemp(prefix="sumeval-k-")
            _KERNEL_TMP.append(folder)
            return os.path.join(folder, "kernel")

    return IPCKernelManager


def _worker_main() -> int:
    """``python -m sumeval.running.executors --worker``: read a RunSpec (JSON) from stdin, run it, print the outcome."""
    import platform

    from sumeval.runstate import die_with_parent, exclusive_lock, signals_interrupt

    if os.environ.get(_PARENT_ENV, "").isdigit():
        die_with_parent(int(os.environ[_PARENT_ENV]))
    with signals_interrupt():
        spec = RunSpec.from_json(sys.stdin.read())
        os.environ.update(spec.env)
        from sumeval.paths import runs_dir
        from sumeval.running import runner

        run_dir = runs_dir() / spec.study / spec.run_id
        out: dict[str, Any] = {"study": spec.study, "run_id": spec.run_id, "run_dir": str(run_dir),
                               "host": platform.node(), "pid": os.getpid()}
        kmc = ipc_kernel_manager_class()
        t0 = time.perf_counter()
        code = 0
        try:
            with exclusive_lock(runner.run_lock_path(run_dir), what=f"run {spec.run_id}",
                                on_wait=lambda m: print(f"sumeval: {m}", file=sys.stderr, flush=True)):
                if is_finished(run_dir):
                    out.update(status="ok", duration_s=0.0, error=None, skipped=True)
                else:
                    if run_dir.exists():
                        shutil.rmtree(run_dir)  # an interrupted or failed earlier attempt
                    res = runner.run_study(spec.study, spec.params_name, spec.overrides, kernel=spec.kernel,
                                           run_id=spec.run_id, progress=False, raise_on_error=False,
                                           timeout_s=spec.timeout_s, engine_kwargs={"kernel_manager_class": kmc})
                    out.update(status=res.status, duration_s=round(res.duration_s, 3), error=res.error)
        except KeyboardInterrupt as exc:  # the sweep stopped (SIGTERM from it, or its death)
            out.update(status="interrupted", duration_s=round(time.perf_counter() - t0, 3),
                       error=str(exc) or "interrupted")
            code = 130
        except Exception as exc:  # InputError, kernel start failure ...
            out.update(status="failed", duration_s=round(time.perf_counter() - t0, 3),
                       error=f"{type(exc).__name__}: {exc}")
        finally:
            for folder in _KERNEL_TMP:
                shutil.rmtree(folder, ignore_errors=True)
        print(_RESULT_MARK + json.dumps(out, default=str), flush=True)
    return code


# ------------------------------------------------------------------------------------------
# executors
# ------------------------------------------------------------------------------------------
#: the thread pools a run's libraries size from the environment (torch reads OMP_NUM_THREADS)
THREAD_ENV = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
#: memory a study run may take at its peak (the paper-000 extraction with its model, an ordering
#: model with GloVe), for ``--jobs auto``
RUN_MEMORY_GB = 4.0


def usable_cores() -> int:
    """CPU cores this process may run on (its affinity, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def available_memory_gb() -> float | None:
    """Memory available for new processes (``MemAvailable`` of /proc/meminfo), or None where unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024 ** 2
    except (OSError, ValueError, IndexError):
        pass
    return None


def auto_jobs(cores: int | None = None, memory_gb: float | None = None, per_run_gb: float = RUN_MEMORY_GB) -> int:
    """``--jobs auto``: runs at a time from the cores and the available memory.

    One run per core, as many as the memory holds at ``per_run_gb`` each, at least one:
    ``max(1, min(cores, floor(memory_gb / per_run_gb)))``. Unknown memory does not limit.
    """
    cores = usable_cores() if cores is None else cores
    memory_gb = available_memory_gb() if memory_gb is None else memory_gb
    by_memory = cores if memory_gb is None else int(memory_gb // per_run_gb)
    return max(1, min(cores, by_memory))


def thread_env(jobs: int, cores: int | None = None, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The thread counts of one of ``jobs`` runs side by side: the cores split between them.

    ``{}`` for one run (its libraries take every core, as by default) and for a variable the user
    set (``OMP_NUM_THREADS=...``: theirs wins). Without it, each of two runs on two cores would
    start two threads per pool, and four threads fighting over two cores slow everyone down.
    """
    if jobs <= 1:
        return {}
    environ = os.environ if environ is None else environ
    n = str(max(1, (usable_cores() if cores is None else cores) // jobs))
    return {k: n for k in THREAD_ENV if not environ.get(k)}


class LocalExecutor:
    """At most ``jobs`` runs at a time, each in its own process on this machine.

    With several jobs, each run's thread pools get an equal share of the cores (:func:`thread_env`).
    """

    def __init__(self, jobs: int = 1):
        from concurrent.futures import ThreadPoolExecutor

        if jobs < 1:
            raise InputError(f"--jobs must be at least 1, got {jobs}")
        self.jobs = jobs
        self.threads = thread_env(jobs)
        self._pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="sumeval-run")
        per_run = f", {self.threads['OMP_NUM_THREADS']} thread(s) each" if "OMP_NUM_THREADS" in self.threads else ""
        self.description = f"local processes (jobs={jobs}{per_run})"

    def submit(self, spec: RunSpec):
        if self.threads:
            from dataclasses import replace

            spec = replace(spec, env={**self.threads, **spec.env})
        return self._pool.submit(execute_spec, spec)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """Runs on an existing Dask distributed cluster (``--scheduler tcp://host:8786``).

    Each task runs :func:`execute_spec` on a worker, i.e. one fresh process per run there too.
    """

    def __init__(self, address: str, timeout_s: float = 30):
        self.client = dask_client(address, timeout_s)
        self.description = f"Dask cluster at {address}"

    def submit(self, spec: RunSpec):
        return self.client.submit(execute_spec, spec, pure=False, key=f"sumeval-{spec.run_id}-{uuid.uuid4().hex[:6]}")

    def close(self) -> None:
        self.client.close()


def make_executor(jobs: int = 1, scheduler: str | None = None):
    """:class:`DaskExecutor` when ``scheduler`` names one, else :class:`LocalExecutor` with ``jobs``."""
    return DaskExecutor(scheduler) if scheduler else LocalExecutor(jobs)


# ------------------------------------------------------------------------------------------
# progress
# ------------------------------------------------------------------------------------------
def _fmt_s(seconds: float) -> str:
    seconds = int(round(max(seconds, 0)))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _terminal() -> bool:
    """A person watching: stderr is a terminal, not a CI log, not TERM=dumb."""
    return sys.stderr.isatty() and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


def _cells_done(executed: Path) -> tuple[int, int] | None:
    """(code cells finished, code cells) of a notebook papermill is executing, from its metadata."""
    try:
        nb = json.loads(executed.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    code = [c for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    done = sum(1 for c in code if c.get("metadata", {}).get("papermill", {}).get("status") == "completed")
    return done, len(code)


class Progress:
    """Runs done / total with elapsed time and an estimate.

    On a terminal: a tqdm bar for the whole grid (or batch) and, with ``per_run=True``, one bar per
    run in flight counting its executed cells. Elsewhere (CI logs, pipes): one line per finished run.
    ``quiet``: nothing.
    """

    def __init__(self, total: int, desc: str, *, quiet: bool = False, done: int = 0, per_run: bool = False,
                 unit: str = "run"):
        self.total, self.done, self.desc, self.unit = total, done, desc, unit
        self.mode = "off" if quiet else ("bar" if _terminal() else "lines")
        self.per_run = per_run and self.mode == "bar"
        self.t0 = time.perf_counter()
        self._run_bars: dict[str, Any] = {}
        self._ran = 0
        self.bar = None
        if self.mode == "bar":
            from tqdm.auto import tqdm

            self._tqdm = tqdm
            self.bar = tqdm(total=total, initial=done, desc=desc, unit=unit, dynamic_ncols=True, position=0)
        elif self.mode == "lines" and done:
            self._line(f"{done} of {total} already finished (skipped)")

    def _line(self, text: str) -> None:
        print(f"[{self.desc}] {text}", file=sys.stderr, flush=True)

    def started(self, key: str, label: str, run_dir: Path | None) -> None:
        if self.per_run and run_dir is not None:
            bar = self._tqdm(total=1, desc=f"  {label}", unit="cell", leave=False, dynamic_ncols=True,
                             position=len(self._run_bars) + 1)
            self._run_bars[key] = (bar, run_dir / "executed.ipynb")

    def poll(self) -> None:
        for bar, executed in self._run_bars.values():
            got = _cells_done(executed)
            if got:
                bar.total = max(got[1], 1)
                bar.n = got[0]
                bar.refresh()

    def finished(self, key: str, label: str, status: str, duration_s: float | None) -> None:
        self.done += 1
        self._ran += 1
        item = self._run_bars.pop(key, None)
        if item:
            item[0].close()
        dur = f" in {duration_s:.1f}s" if duration_s is not None else ""
        if self.mode == "bar":
            self.bar.update(1)
            if status != "ok":
                self.bar.write(f"{label}: {status}{dur}", file=sys.stderr)
        elif self.mode == "lines":
            elapsed = time.perf_counter() - self.t0
            left = self.total - self.done
            eta = f", ~{_fmt_s(elapsed / self._ran * left)} left" if left else ""
            self._line(f"{self.done}/{self.total} {label}: {status}{dur} (elapsed {_fmt_s(elapsed)}{eta})")

    def close(self) -> None:
        for bar, _ in self._run_bars.values():
            bar.close()
        if self.bar is not None:
            self.bar.close()


def run_specs(specs: Sequence[RunSpec], executor, progress: Progress | None = None,
              poll_s: float = 0.5) -> list[dict[str, Any]]:
    """Submit every spec to ``executor``; return the outcomes in the order of ``specs``.

    A failed run (or a task the executor lost) is an outcome with ``status="failed"``; it never stops
    the others.
    """
    from sumeval.paths import runs_dir

    futures = {}
    for i, spec in enumerate(specs):
        futures[i] = executor.submit(spec)
    outcomes: list[dict[str, Any] | None] = [None] * len(specs)
    started: set[int] = set()
    pending = set(futures)
    try:
        while pending:
            for i in sorted(pending - started):  # in flight once its manifest exists
                run_dir = runs_dir() / specs[i].study / specs[i].run_id
                if progress is not None and (run_dir / "manifest.json").is_file():
                    started.add(i)
                    progress.started(str(i), specs[i].label or specs[i].run_id, run_dir)
            finished = [i for i in pending if futures[i].done()]
            for i in finished:
                pending.discard(i)
                spec = specs[i]
                try:
                    out = futures[i].result()
                except Exception as exc:  # a lost Dask worker, a cancelled task
                    out = {"study": spec.study, "run_id": spec.run_id, "run_dir": None, "status": "failed",
                           "duration_s": None, "error": f"executor: {type(exc).__name__}: {exc}"}
                outcomes[i] = out
                if progress is not None:
                    progress.finished(str(i), spec.label or spec.run_id, out["status"], out.get("duration_s"))
            if pending:
                if progress is not None:
                    progress.poll()
                time.sleep(poll_s)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM of this process: stop the runs in flight too
        for f in futures.values():
            f.cancel()
        stop_workers()
        raise
    return [o for o in outcomes if o is not None]


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        raise SystemExit(_worker_main())
    raise SystemExit("usage: python -m sumeval.running.executors --worker  "
                     "(internal; use `sumeval sweep` or `sumeval run all`)")
