"""Who is running what: owner records, interruption by signals, per-run locks, dying with the parent.

A long job (a study run, a sweep worker, an index build, a training run) records its *owner*
(:func:`owner_record`: pid, host, start time of the process) where others can read it. A reader
that finds a job marked running asks :func:`owner_alive`; a job whose process is gone was killed
(``kill -9``, a crash, a lost machine) and is reported as interrupted, never as running.

``SIGTERM`` and ``SIGHUP`` become :class:`Interrupted` (a ``KeyboardInterrupt``, like Ctrl-C)
inside :func:`signals_interrupt`, so the job can mark itself interrupted before it exits.
:func:`die_with_parent` makes a worker process end when the process that started it ends, and
:func:`exclusive_lock` keeps two processes out of the same run folder.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import platform
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

__all__ = ["Interrupted", "owner_record", "owner_alive", "describe_owner", "lock_holder", "signals_interrupt",
           "signal_name", "die_with_parent", "open_lock_file", "flock_now", "exclusive_lock", "claim", "now_iso",
           "storage_note", "finish_manifest"]


class Interrupted(KeyboardInterrupt):
    """A job stopped by a signal (SIGINT, SIGTERM, SIGHUP); ``str()`` says what was left behind."""

    def __init__(self, message: str = "", signal_name: str = "SIGINT"):
        super().__init__(message)
        self.signal_name = signal_name


def now_iso() -> str:
    """The local time with its offset, to the second (``2025-01-31T12:00:00+01:00``)."""
    return _dt.datetime.now().astimezone().isoformat(timespec="seconds")


def _proc_start(pid: int) -> int | None:
    """Start time of process ``pid`` in clock ticks since boot (Linux ``/proc``), else None.

    With the pid it identifies a process: a pid reused by a later process has another start time.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: split after the last ')'
    fields = stat[stat.rfind(")") + 2:].split()
    try:
        return int(fields[19])  # field 22 of proc(5), counted from field 3
    except (IndexError, ValueError):
        return None


def owner_record(pid: int | None = None) -> dict[str, Any]:
    """``{"pid", "host", "proc_start", "since"}`` of this process (or of ``pid`` on this host)."""
    pid = os.getpid() if pid is None else int(pid)
    return {"pid": pid, "host": platform.node(), "proc_start": _proc_start(pid), "since": now_iso()}


def owner_alive(rec: dict[str, Any] | None) -> bool | None:
    """Whether the process of owner record ``rec`` still runs: True / False, or None when it ran
    on another host (or ``rec`` is not an owner record) and cannot be asked from here."""
    if not isinstance(rec, dict) or not isinstance(rec.get("pid"), int):
        return None
    if rec.get("host") != platform.node():
        return None
    pid = rec["pid"]
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by another user
        return True
    start = _proc_start(pid)
    if start is not None and rec.get("proc_start") is not None and start != rec["proc_start"]:
        return False  # the pid now belongs to another process
    if start is not None and _is_zombie(pid):
        return False
    return True


def _is_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[:1] == ["Z"]


def describe_owner(rec: dict[str, Any] | None) -> str:
    """``"pid 123 on host h since 2025-..."`` (what messages say about an owner)."""
    if not isinstance(rec, dict):
        return "an unknown process"
    since = f" since {rec['since']}" if rec.get("since") else ""
    return f"pid {rec.get('pid')} on host {rec.get('host')}{since}"


_CATCH = ("SIGTERM", "SIGHUP")


def lock_holder(fh) -> str:
    """Who holds the lock file open as ``fh``: its owner record described (:func:`describe_owner`),
    or ``"another process"`` where the record cannot be read."""
    fh.seek(0)
    try:
        return describe_owner(json.loads(fh.read() or "null"))
    except ValueError:
        return "another process"


@contextlib.contextmanager
def signals_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP raise :class:`Interrupted` (as Ctrl-C raises
    ``KeyboardInterrupt``) so that ``finally`` / ``except`` clauses run; restored afterwards.

    A no-op outside the main thread (Python delivers signals to the main thread only).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    fired = []

    def handler(signum, frame):  # noqa: ARG001
        if fired:  # already stopping: a second SIGTERM must not break the clean-up of the first
            return
        fired.append(signum)
        raise Interrupted(signal_name=signal.Signals(signum).name)

    saved = {}
    for name in _CATCH:
        sig = getattr(signal, name, None)
        if sig is not None:
            saved[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old)


def signal_name(exc: BaseException) -> str:
    """The signal behind an interruption (``SIGINT`` for a plain KeyboardInterrupt)."""
    return getattr(exc, "signal_name", "SIGINT")


def die_with_parent(parent_pid: int, *, poll_s: float = 1.0) -> None:
    """End this process (SIGTERM to itself) when process ``parent_pid`` ends.

    On Linux the kernel sends the signal (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon
    thread polls the parent pid. Call it first thing in a worker process, with the pid of
    the process that started it (a worker started by a process that is already gone ends now).
    """
    kernel_does_it = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            kernel_does_it = libc.prctl(1, signal.SIGTERM, 0, 0, 0) == 0  # PR_SET_PDEATHSIG = 1
    if os.getppid() != parent_pid:
        os.kill(os.getpid(), signal.SIGTERM)
        return
    if kernel_does_it:
        return

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent_pid:
                os.kill(os.getpid(), signal.SIGTERM)
                return

    threading.Thread(target=watch, name="sumeval-parent-watch", daemon=True).start()


def open_lock_file(p: Path):
    """``p`` opened for a ``flock`` (created, with its folder)."""
    p.parent.mkdir(parents=True, exist_ok=True)
    return open(p, "a+", encoding="utf-8")


def flock_now(fh) -> bool:
    """Take an exclusive ``flock`` on ``fh`` if nobody holds one; False if another does."""
    import fcntl

    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@contextlib.contextmanager
def exclusive_lock(path: str | os.PathLike[str], *, what: str, wait: bool = True,
                   on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created) for the block; the lock file records
    the owner (pid, host, time), so that a process that finds it taken can say who holds it.

    The operating system releases the lock when its process dies, however it dies, so a lock
    is never stale. ``wait``: block until the holder is done (``on_wait`` gets a message first),
    else raise :class:`~sumeval.errors.InputError` naming the holder. ``what`` names the thing
    locked in messages (``"run g-smoke-x=1-ab12"``).
    """
    import fcntl

    from sumeval.errors import InputError

    p = Path(path)
    fh = open_lock_file(p)
    try:
        if not flock_now(fh):
            msg = f"{what} is in use by {lock_holder(fh)} (lock {p})"
            if not wait:
                raise InputError(f"{msg}; wait for it to finish or stop it") from None
            if on_wait is not None:
                on_wait(f"{msg}; waiting for it to finish")
            fcntl.flock(fh, fcntl.LOCK_EX)
        fh.seek(0)
        fh.truncate()
        fh.write(json.dumps(owner_record()))
        fh.flush()
        yield
    finally:
        fh.close()


@contextlib.contextmanager
def claim(path: str | os.PathLike[str], *, wait: bool = False) -> Iterator[bool]:
    """Claim a piece of shared work for this process: an exclusive ``flock`` on ``path``.

    Yields True while this process holds the claim, False when another process holds it and
    ``wait`` is False (the caller leaves that piece to it). With ``wait``, blocks until the holder
    is done, then yields True. The operating system drops a claim when its process dies, however
    it dies, so a piece is never orphaned: whoever gets the claim next checks whether the work is
    already there and does it if not. The file is removed when a holder lets go (a process that
    opened the old file still gets its lock and finds the work done; at worst two processes do
    a piece twice, never wrongly: what they write is written atomically). Where the lock file
    cannot be made (a read-only or full cache), the claim is granted: the work is done here.
    """
    import fcntl

    p = Path(path)
    try:
        fh = open_lock_file(p)
    except OSError:  # a read-only or full cache: claims only save work, so work alone
        yield True
        return
    try:
        if not flock_now(fh):
            if not wait:
                yield False
                return
            fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield True
        finally:
            with contextlib.suppress(OSError):
                if os.stat(p).st_ino == os.fstat(fh.fileno()).st_ino:  # not a newer claim's file
                    p.unlink()
    finally:
        fh.close()


def storage_note(exc: OSError, where: str | os.PathLike[str]) -> str:
    """For a full disk (``ENOSPC``, ``EDQUOT``): ``" (<path>: the disk holding it has N MB free)"``,
    naming the file the error names, else ``where``; empty for other errors."""
    import errno
    import shutil

    if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
        return ""
    path = Path(exc.filename) if getattr(exc, "filename", None) else Path(where)
    probe = next((p for p in (path, *path.parents) if p.exists()), Path("/"))
    try:
        free = f"{shutil.disk_usage(probe).free / 1e6:.1f} MB free"
    except OSError:
        free = "no free space"
    return f" ({path}: the disk holding it is full, {free}; free some space or point SUMEVAL_RUNS elsewhere)"


def finish_manifest(run_dir: Path, manifest: dict[str, Any]) -> str | None:
    """Write the run's final manifest; on a full disk, where no temporary copy fits, rewrite
    ``manifest.json`` in place with its status and error only, so the run is never left
    ``running``. Returns an error to report when the full manifest could not be written."""
    from sumeval.cache import atomic_write_json

    path = Path(run_dir) / "manifest.json"
    try:
        atomic_write_json(path, manifest)
        return None
    except OSError as exc:
        note = f"{exc.strerror or exc}{storage_note(exc, path)}"
    if manifest["status"] == "ok":
        manifest["status"] = "failed"
    manifest["error"] = (f"{manifest.get('error') + '; ' if manifest.get('error') else ''}"
                         f"the manifest could not be written: {note}")
    keep = ("study", "run_id", "parameter_set", "parameters", "status", "error", "started", "finished", "owner")
    small = json.dumps({k: manifest[k] for k in keep if k in manifest}, ensure_ascii=False)
    try:  # in place: the old file's blocks hold the shorter text, so a full disk still takes it
        with open(path, "r+", encoding="utf-8") as fh:
            fh.write(small)
            fh.truncate()
    except OSError:
        pass  # read_manifest reports a run whose process is gone as interrupted, never running
    return manifest["error"]
