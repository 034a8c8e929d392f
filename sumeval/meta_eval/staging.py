"""The output folder of a meta-evaluation: checked before any work, written by one process at a
time, never half-written and never mixing two runs. Both writers use it: a single data set's
(:mod:`sumeval.meta_eval.output`) and the one across data sets (:mod:`sumeval.meta_eval.across_output`),
which tell their results apart by their manifest's ``kind``.

The output folder is checked before any work starts (:func:`check_out_dir`): it is new, empty,
or - only with ``overwrite`` (``--overwrite``) - one an earlier ``sumeval meta-eval`` wrote, holding
nothing but the files its manifest lists; it must be writable (tried, not guessed from permission
bits). Nothing a user made is replaced: a folder holding other files is refused, with or without
``overwrite``.

Nothing is half-written, and a folder never mixes two runs: everything is first written into a
hidden folder beside the output folder (``.<name>.meta-eval-partial-<pid>``), manifest included,
which then takes the output folder's place in one step (:class:`Stage`): a rename for a new
folder, an exchange of the two folders (Linux ``renameat2(RENAME_EXCHANGE)``) over an earlier
result, whose files are then removed. Without the exchange, the earlier folder is first renamed
aside (``.<name>.meta-eval-old-<pid>``) and put back by the next run if a kill lands between the two
renames, so a reader finds the old result or the new one, never a mix. Where no folder can be
renamed (an existing empty folder, the working directory, a mount point, a read-only parent), the
files are moved in one by one after a marker (``.meta-eval-incomplete.json``) that lists them,
the earlier manifest removed first and the new one moved last: an interrupted move then has no
valid manifest, and the next run with ``--overwrite`` clears what the marker lists.

One writer per output folder (:func:`out_lock`): ``sumeval meta-eval`` holds an exclusive ``flock``
on a hidden lock file beside the folder (``.<name>.meta-eval-lock``; inside it, ``.meta-eval-lock``,
where nothing can be made beside it) from its first check to its last rename, and a second run into
the same folder is refused at once, naming the folder and the process that writes it. The system
drops the lock when its process dies, however it dies; the file is removed when the run ends.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from sumeval.errors import InputError
from sumeval.meta_eval.manifest import MANIFEST_KIND

__all__ = ["check_out_dir", "out_lock", "Stage", "write_error", "owner_gone"]

_PARTIAL = ".meta-eval-partial-"
_OLD = ".meta-eval-old-"
_MARKER = ".meta-eval-incomplete.json"
_LOCK = ".meta-eval-lock"


def check_out_dir(path: str | os.PathLike[str], *, overwrite: bool = False, kind: str = MANIFEST_KIND,
                  command: str = "`sumeval meta-eval`") -> Path:
    """The output folder, checked before any work: new, empty, or (with ``overwrite``) one an
    earlier meta-evaluation wrote, holding only the files its manifest lists; and writable (a
    folder is made there and a file written, then removed again). A run interrupted while it
    replaced an earlier result is repaired first (:func:`_recover`). ``kind``: the manifest kind of
    the results that may be replaced, ``command`` what writes them (in messages).

    Raises:
        InputError: naming the path, what is there and what to do.
    """
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file, not a folder; name a folder (it is created if missing)")
    _recover(out)
    state = _inspect(out, kind)
    if state.kind == "other":
        raise InputError(f"--out {str(out)!r} holds other files ({_names(state.extras)}); name an empty or new "
                         f"folder, or one an earlier {command} wrote (with --overwrite)")
    if state.kind in ("meta-eval", "interrupted"):
        what = ("an earlier meta-evaluation" + (f" (of {state.created})" if state.created else "")
                if state.kind == "meta-eval" else "an interrupted meta-evaluation (no manifest)")
        if state.extras:
            raise InputError(f"--out {str(out)!r} holds {what} and files it did not write "
                             f"({_names(state.extras)}); move those away, or name a new folder")
        if not overwrite:
            raise InputError(f"--out {str(out)!r} holds {what}; pass --overwrite to replace it (its "
                             f"{len(state.ours & set(state.entries))} files are removed), or name a new folder")
    _try_writing(out)
    return out


@dataclass
class _OutState:
    """What an output folder holds: ``kind`` ``new`` (absent), ``empty``, ``meta-eval`` (a valid
    manifest of ours), ``interrupted`` (our marker, no manifest) or ``other``; ``entries`` its
    visible names, ``ours`` the names an earlier run wrote, ``extras`` the others."""

    kind: str
    entries: list[str] = field(default_factory=list)
    ours: set[str] = field(default_factory=set)
    extras: list[str] = field(default_factory=list)
    created: str = ""


def _inspect(out: Path, kind: str = MANIFEST_KIND) -> _OutState:
    """What ``out`` holds; ``kind``: the manifest kind that makes it ours (an across run's manifest
    also names its set folders, under ``sets``: each set's ``folder``)."""
    if not out.is_dir():
        return _OutState("new")
    entries = sorted(p.name for p in out.iterdir()
                     if not p.name.startswith(_PARTIAL) and p.name != _MARKER and not p.name.endswith(_LOCK))
    if not entries:
        return _OutState("empty")
    manifest = _read_json(out / "manifest.json")
    manifest = manifest if manifest.get("kind") == kind else {}
    marker = _read_json(out / _MARKER)
    marker = marker if marker.get("kind", MANIFEST_KIND) == kind else {}
    ours = set()
    if manifest:
        ours |= {str(f) for f in manifest.get("files") or []} | {"manifest.json"}
        if isinstance(manifest.get("sets"), dict):  # each set's folder (its name before ``folder`` was recorded)
            ours |= {str(s["folder"]) if isinstance(s, dict) and s.get("folder") else str(name)
                     for name, s in manifest["sets"].items()}
    if marker:
        ours |= {str(f) for f in [*marker.get("old", []), *marker.get("new", [])]}
    if not manifest and not marker:
        return _OutState("other", entries, extras=entries)
    return _OutState("meta-eval" if manifest else "interrupted", entries, ours,
                     [e for e in entries if e not in ours], str(manifest.get("created", "")))


def _names(names: list[str]) -> str:
    return ", ".join(names[:5]) + (" ..." if len(names) > 5 else "")


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _try_writing(out: Path) -> None:
    """Make the folder ``out`` (and the missing ones above it) and a file in it, then remove what
    was made: InputError naming the place when that fails (``/proc/x``, a read-only disk)."""
    import tempfile

    missing = []
    for p in [out, *out.parents]:
        if p.exists():
            if not p.is_dir():
                raise InputError(f"--out {str(out)!r}: {str(p)!r} is a file, so no folder can be made below it")
            break
        missing.append(p)
    made: list[Path] = []
    try:
        for p in reversed(missing):
            p.mkdir()
            made.append(p)
        fd, probe = tempfile.mkstemp(prefix=".meta-eval-probe-", dir=out)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        where = exc.filename or (made[-1] if made else out)
        if Path(where).name.startswith(".meta-eval-probe-"):  # the probe file: name the folder, not it
            where = Path(where).parent
        raise InputError(f"--out {str(out)!r}: cannot write in {str(where)!r} "
                         f"({(exc.strerror or str(exc)).lower()}); name a folder you can write") from None
    finally:
        for p in reversed(made):
            try:
                p.rmdir()
            except OSError:
                pass


def owner_gone(name: str, prefix: str) -> bool:
    """Whether the hidden folder ``name`` (``<prefix><pid>``) belongs to a process that is gone."""
    pid = name.rsplit(prefix, 1)[-1]
    return not pid.isdigit() or not _alive(int(pid))


def _recover(out: Path) -> None:
    """Repair what an interrupted run left: put an earlier result moved aside back when ``out`` is
    gone (a kill between the two renames of :func:`_swap_in`), and remove dead runs' hidden folders."""
    parent = out.parent if out.name else out
    if not parent.is_dir():
        return
    try:
        siblings = sorted(p for p in parent.iterdir()
                          if p.name.startswith((f".{out.name}{_OLD}", f".{out.name}{_PARTIAL}")))
    except OSError:
        return
    for p in siblings:
        if not p.is_dir() or not owner_gone(p.name, _OLD if _OLD in p.name else _PARTIAL):
            continue
        if _OLD in p.name and not out.exists():
            os.replace(p, out)
        else:
            shutil.rmtree(p, ignore_errors=True)
    if out.is_dir():
        for p in [p for p in out.iterdir() if p.name.startswith(_PARTIAL)]:
            if owner_gone(p.name, _PARTIAL):
                shutil.rmtree(p, ignore_errors=True)

def write_error(exc: OSError, out: Path, state: str) -> OSError:
    """The error to report when writing the results into ``out`` failed: ``--out``, the file (not
    the hidden work folder nor a temporary name), the cause (a full disk: with its free space),
    what became of ``out`` (``state``) and the fix."""
    import errno
    import re

    name = Path(exc.filename).name if getattr(exc, "filename", None) else ""
    name = re.sub(r"^\.(.+)\.[^.]+\.partial$", r"\1", name)  # an atomic write's temporary file
    cause = (exc.strerror or str(exc)).lower()
    full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
    if full:
        disk = next((p for p in (out, *out.parents) if p.exists()), Path("/"))
        cause += f", {shutil.disk_usage(disk).free / 1e6:.1f} MB free on the disk of {str(disk)!r}"
    fix = "free some space there or name --out on another disk" if full else "name a folder you can write"
    shown = f" ({name})" if name and not name.startswith(".") else ""
    return OSError(exc.errno, f"--out {str(out)!r}: could not write the results{shown}: {cause}; {state}; {fix}")


class Stage:
    """Where a meta-evaluation is written, and how it takes the output folder's place.

    :meth:`begin` makes the hidden work folder: beside ``out`` (then :meth:`publish` renames or
    exchanges whole folders) or, where that cannot be done, inside ``out`` (then the files are moved
    in one by one under a marker; module docstring).
    """

    def __init__(self, out: Path, kind: str = MANIFEST_KIND):
        self.out = out
        self.real = out.resolve()
        self.kind = kind
        self.work: Path | None = None
        self.beside = False

    def _can_rename(self) -> bool:
        real = self.real
        if real.is_dir():
            cwd = Path.cwd().resolve()
            if not any(real.iterdir()) or cwd == real or real in cwd.parents or os.path.ismount(real):
                return False
        return os.access(real.parent, os.W_OK | os.X_OK)

    def begin(self) -> Path:
        """Make and return the empty work folder."""
        self.real.parent.mkdir(parents=True, exist_ok=True)
        if self._can_rename():
            work = self.real.parent / f".{self.real.name}{_PARTIAL}{os.getpid()}"
            shutil.rmtree(work, ignore_errors=True)
            try:
                work.mkdir()
                self.work, self.beside = work, True
                return work
            except OSError:
                pass
        self.real.mkdir(parents=True, exist_ok=True)
        work = self.real / f"{_PARTIAL}{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        self.work = work
        return work

    def publish(self, names: list[str]) -> dict[str, Path]:
        """Put the work folder's files (``names``, ``manifest.json`` last) in place of ``out``'s."""
        assert self.work is not None
        state = _inspect(self.real, self.kind)
        old = sorted(state.ours & set(state.entries)) if state.kind in ("meta-eval", "interrupted") else []
        if state.kind == "other" or state.extras:  # something appeared meanwhile: never touch it
            raise InputError(f"--out {str(self.out)!r}: files appeared there during the run "
                             f"({_names(state.extras)}); nothing was replaced. Name a new folder")
        if self.beside:
            _swap_in(self.work, self.real, replace=state.kind != "new")
        else:
            _move_files_in(self.work, self.real, names, old, kind=self.kind)
        return {name: self.out / name for name in names}

    def cleanup(self) -> None:
        if self.work is not None:
            shutil.rmtree(self.work, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap folders ``a`` and ``b`` atomically (Linux ``renameat2`` with ``RENAME_EXCHANGE``); False
    when this system or file system cannot, so the caller falls back to two renames."""
    import ctypes
    import errno

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap_in(work: Path, out: Path, *, replace: bool) -> None:
    """Make the complete folder ``work`` (a sibling of ``out``) the folder ``out`` in one step; an
    earlier ``out`` (``replace``) is removed afterwards. The new folder gets ``out``'s permissions."""
    if not replace or not out.exists():
        os.replace(work, out)  # a new folder (or an empty one) : one rename
        return
    os.chmod(work, out.stat().st_mode & 0o7777)
    if _exchange(work, out):
        shutil.rmtree(work, ignore_errors=True)  # work now holds the earlier result
        return
    aside = out.parent / f".{out.name}{_OLD}{os.getpid()}"
    os.replace(out, aside)  # a kill between these two renames: the next run puts `aside` back
    os.replace(work, out)
    shutil.rmtree(aside, ignore_errors=True)


def _move_files_in(work: Path, out: Path, names: list[str], old: list[str], *, kind: str = MANIFEST_KIND) -> None:
    """Move the files (and folders) ``names`` from ``work`` (inside ``out``) into ``out``, replacing
    the earlier run's ``old``: marker first, then the earlier manifest removed, its files removed,
    the new files moved in with ``manifest.json`` last, the marker removed last."""
    from sumeval.cache import atomic_write_json

    atomic_write_json(out / _MARKER, {"kind": kind, "pid": os.getpid(), "old": old, "new": names})
    for name in sorted(old, key=lambda n: n != "manifest.json"):  # the earlier manifest first
        try:
            if (out / name).is_dir() and not (out / name).is_symlink():
                shutil.rmtree(out / name)
            else:
                (out / name).unlink()
        except FileNotFoundError:
            pass
    for name in sorted(names, key=lambda n: n == "manifest.json"):  # the new manifest last
        os.replace(work / name, out / name)
    (out / _MARKER).unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


#: the output folders this process holds the lock of (``{resolved path: depth}``): a writer called
#: inside a command that already holds it (``sumeval meta-eval`` locks --out from its first check)
_HELD: dict[str, int] = {}


@contextlib.contextmanager
def out_lock(path: str | os.PathLike[str]) -> Iterator[None]:
    """Be the one writer of output folder ``path`` for the block, or raise InputError at once naming
    the folder and the process that writes it (an ``flock``, as :func:`sumeval.runstate.exclusive_lock`,
    that the system drops when its process dies; the lock file is removed when the block ends).

    Refused, not waited for: the other run would fill the folder first, so this one would then fail
    on it (or, with ``--overwrite``, replace a result that was just written). The lock file is
    ``.<name>.meta-eval-lock`` beside the folder, or ``.meta-eval-lock`` inside it where nothing can
    be made beside it; where neither can be made, the folder cannot be written either, and
    :func:`check_out_dir` says so. Re-entrant within a process.
    """
    real = Path(path).expanduser().resolve()
    key = str(real)
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    lock, made = _lock_file(real)
    if lock is None:
        yield
        return
    try:
        try:
            fh = _take(lock, f"--out {str(path)!r}")
        except OSError:  # no file can be made there (/proc): nor can the results, which check_out_dir says
            fh = None
        _HELD[key] = 1
        try:
            yield
        finally:
            del _HELD[key]
            if fh is not None:
                if _same_file(lock, fh):  # never a newer holder's file
                    with contextlib.suppress(OSError):
                        lock.unlink()
                fh.close()
    finally:
        for p in reversed(made):  # folders made only for the lock file, left empty by a run that failed
            with contextlib.suppress(OSError):
                p.rmdir()


def _take(lock: Path, what: str):
    """The open lock file ``lock``, ``flock``-ed by this process, its owner record written; InputError
    naming ``what`` and the holder when another process holds it. A process that locked a file
    its holder removed meanwhile (the holder removes it when done) locks the file now there."""
    from sumeval.runstate import flock_now, lock_holder, open_lock_file, owner_record

    while True:
        fh = open_lock_file(lock)
        if not flock_now(fh):
            holder = lock_holder(fh)
            fh.close()
            raise InputError(f"{what} is being written by {holder} (lock {lock}); one run writes a folder at "
                             "a time: wait for that run to finish (or stop it), or name another folder")
        if _same_file(lock, fh):
            break
        fh.close()  # its holder removed this file after it was opened here
    fh.seek(0)
    fh.truncate()
    fh.write(json.dumps(owner_record()))
    fh.flush()
    return fh


def _same_file(p: Path, fh) -> bool:
    """Whether ``p`` still names the open file ``fh``."""
    try:
        return os.stat(p).st_ino == os.fstat(fh.fileno()).st_ino
    except OSError:
        return False


def _lock_file(real: Path) -> tuple[Path | None, list[Path]]:
    """``(lock file, folders made for it)`` of output folder ``real`` (:func:`out_lock`); ``(None, [])``
    where no lock file can be made."""
    base = next((p for p in real.parents if p.exists()), None)
    if real.name and base is not None and base.is_dir() and os.access(base, os.W_OK | os.X_OK):
        missing = [p for p in real.parents if not p.exists()]
        made = []
        try:
            for p in reversed(missing):
                p.mkdir()
                made.append(p)
        except OSError:
            for p in reversed(made):
                with contextlib.suppress(OSError):
                    p.rmdir()
            return None, []
        return real.parent / f".{real.name}{_LOCK}", made
    if real.is_dir() and os.access(real, os.W_OK | os.X_OK):
        return real / _LOCK, []
    return None, []
