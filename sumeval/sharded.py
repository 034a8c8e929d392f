"""``sumeval score --scheduler ADDR [--shard-size N]``: the rows of the input scored in shards on the
workers of a Dask distributed cluster, with the same output as a local run.

    sumeval score rouge-1 bertscore --model all-MiniLM-L6-v2 -i pairs.jsonl -o scored.jsonl \\
        --scheduler tcp://10.0.0.5:8786 --shard-size 512

* **Shards**: the measures that score the same rows (same needs, so the same rows left out by
  :func:`sumeval.metrics.admit_rows`) form a group; each group's rows are cut, in input order,
  into shards of N rows (the last one shorter), each scored by
  :func:`sumeval.metrics.score_records` on a worker. N is a multiple of ``score_records``' batch
  (256), so every batch a worker scores is a batch of the local run: a model measure, whose
  numbers may depend on which rows share a batch (padding), gives the same numbers. The driver
  (this process) reads and checks the input, builds the scorers once to learn their signatures,
  sends each shard's records with the recipe of the scorers (measure names, ``--measure-class``,
  options) and writes the output.
* **A model is loaded once per worker**: a worker builds the scorers of a recipe on its first shard
  and keeps them (:data:`_WORKER_SCORERS`, a small per-process cache keyed by the recipe and the
  scorers' signatures), so a model loaded by the first ``score_batch`` serves every later shard
  and every later run on that worker. A worker whose scorers have other signatures than the
  driver's (another library version, another model file) is refused: its numbers would differ.
* **Resume**: each finished shard is written at once (atomically) to
  ``<output>.shards/<key>/shard-NNNNNN.json``; ``key`` hashes the input file's bytes, the scorers'
  signatures and recipe, and the shard size, so a rerun of the same command after a killed worker
  or an interrupted run scores only the shards not yet finished, and a changed input or option
  never reuses them (the shards of another key there are removed). The folder is removed once the
  output is written. It is sumeval's: created with a marker file (:data:`MARKER`), and only the
  files sumeval wrote there are ever removed; a ``<output>.shards`` that is not sumeval's (no
  marker: a user's folder, or a file) is refused before anything is written.
* **Bounded waits**: the scheduler must answer within :data:`CONNECT_TIMEOUT_S` seconds; when no
  worker is connected (none at the start, or all gone mid-run), a line on stderr says so and
  the run fails after ``--worker-timeout`` seconds (:data:`NO_WORKER_TIMEOUT_S`) with no worker,
  the finished shards kept for the rerun.
* **Same output**: each shard's columns go back to its rows; the report (rows not scored, notes)
  is put together in the order a local run gives (per measure: the rows left out, then the
  batches' entries, batch by batch); shard files keep floats exactly (JSON writes the shortest
  repr that reads back the same double).

The workers need sumeval and the measures' libraries installed, and must see the models (and
indexes, ``--measure-class`` modules) at the same paths as this machine; they need not see the
input or the output.
"""
from __future__ import annotations

import inspect
import json
import os
import re
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from sumeval.errors import InputError, SumevalError

__all__ = ["CONNECT_TIMEOUT_S", "DEFAULT_SHARD_SIZE", "MARKER", "NO_WORKER_TIMEOUT_S", "ShardedRun",
           "check_shard_args", "check_work_root", "score_sharded", "work_root", "worker_state"]

#: rows per shard when --shard-size is not given (a multiple of score_records' batch size)
DEFAULT_SHARD_SIZE = 512
_FORMAT = 1  # version of the shard files
#: seconds to wait for the scheduler of --scheduler to answer (a reachable one answers at once)
CONNECT_TIMEOUT_S = 10
#: seconds a run waits with no worker connected before it fails (--worker-timeout)
NO_WORKER_TIMEOUT_S = 60.0
#: the file that marks ``<output>.shards/`` as sumeval's work folder
MARKER = ".sumeval-shards"

# ------------------------------------------------------------------------------------------
# on a worker
# ------------------------------------------------------------------------------------------
#: recipe key -> the scorers built from it, in this (worker) process; at most _KEEP recipes
_WORKER_SCORERS: OrderedDict[str, list] = OrderedDict()
_KEEP = 2
_STATE: dict[str, int] = {"builds": 0, "shards": 0}


def worker_state() -> dict[str, Any]:
    """What this process did as a shard worker: ``{"builds": scorer sets built, "shards": shards
    scored, "pid": ..., "recipes": [cached recipe keys]}`` (``client.run(worker_state)`` asks every
    worker)."""
    return {**_STATE, "pid": os.getpid(), "recipes": list(_WORKER_SCORERS)}


def _worker_scorers(recipe: Mapping[str, Any], key: str, signatures: Mapping[str, str]) -> list:
    """The scorers of ``recipe``, built on this worker's first shard of it and kept; InputError when
    their signatures are not the driver's ``signatures``."""
    if key in _WORKER_SCORERS:
        _WORKER_SCORERS.move_to_end(key)
        return _WORKER_SCORERS[key]
    os.environ.update(recipe["env"])  # the driver's locations (models, cache): same paths everywhere
    from sumeval.metrics.user_scorers import build_scorers

    scorers = build_scorers(list(recipe["names"]), list(recipe["classes"]), list(recipe["module_path"]),
                             dict(recipe["options"]))
    here = {s.name: s.signature() for s in scorers}
    if here != dict(signatures):
        import platform

        diff = [f"{m}: {here.get(m)!r} on the worker, {sig!r} on the driver" for m, sig in signatures.items()
                if here.get(m) != sig]
        raise InputError(f"worker {platform.node()} (pid {os.getpid()}) builds other measures than this machine "
                         f"({'; '.join(diff)}); install the same sumeval, libraries and models on every worker")
    _STATE["builds"] += 1
    _WORKER_SCORERS[key] = scorers
    while len(_WORKER_SCORERS) > _KEEP:
        _WORKER_SCORERS.popitem(last=False)
    return scorers


def _score_shard(recipe: Mapping[str, Any], scorer_key: str, key: str, signatures: Mapping[str, str],
                 measures: Sequence[str],
                 records: Sequence[Mapping[str, Any]], rows: Sequence[int], lines: Sequence[int],
                 source: str) -> dict[str, Any]:
    """Score one shard (the task a worker runs): the ``records`` (rows ``rows`` of the input, at
    lines ``lines`` of ``source``) by the scorers named ``measures``, every record one these
    measures score (a slice of whole batches of what a local run gives them).

    Returns ``{"rows", "columns": {column: [floats]}, "skipped": [[row, measure, reason]],
    "notes": [[row, measure, note]], "warnings": [messages]}``, rows numbered in the whole input;
    the notes :func:`sumeval.metrics.admit_rows` makes are left out (the driver has them).
    """
    import warnings

    from sumeval import metrics

    scorers = [s for s in _worker_scorers(recipe, scorer_key, signatures) if s.name in measures]
    with warnings.catch_warnings(record=True) as caught:
        frame, report = metrics.score_records(records, scorers, row_label=lambda i: f"{source}:{lines[i]}")
    notes = []
    for scorer in scorers:
        admitted = metrics.ScoreReport()
        metrics.admit_rows(records, scorer, admitted, lambda i: f"{source}:{lines[i]}")
        mine = [e for e in report.notes if e[1] == scorer.name]
        notes += [[rows[i], m, note] for i, m, note in mine[len(admitted.notes):]]
    _STATE["shards"] += 1
    return {"format": _FORMAT, "key": key, "rows": list(rows),
            "columns": {c: [float(v) for v in frame[c].to_numpy()] for c in frame.columns},
            "skipped": [[rows[i], m, why] for i, m, why in report.skipped], "notes": notes,
            "warnings": [str(w.message) for w in caught if not issubclass(w.category, metrics.NotScoredWarning)]}


# ------------------------------------------------------------------------------------------
# on the driver
# ------------------------------------------------------------------------------------------
def _batch() -> int:
    """The rows :func:`sumeval.metrics.score_records` gives a measure at once (256)."""
    from sumeval import metrics

    return int(inspect.signature(metrics.score_records).parameters["batch_size"].default)


def check_shard_args(scheduler: str | None, shard_size: int | None,
                     worker_timeout: float | None = None) -> int | None:
    """The shard size to use (None: score locally); InputError for a ``--scheduler`` that is not a
    scheduler's address (:func:`sumeval.cluster.check_scheduler_address`: empty, no port, http://
    ...), for --shard-size or --worker-timeout without --scheduler, a --worker-timeout not above 0,
    and a --shard-size below 1 or not a multiple of the batch of a local run (256): a model
    measure's numbers may depend on which rows share a batch (padding), so a shard is whole batches."""
    import math

    from sumeval.cluster import check_scheduler_address

    for given, name in ((shard_size, "--shard-size"), (worker_timeout, "--worker-timeout")):
        if given is not None and scheduler is None:
            raise InputError(f"{name} {given:g} needs --scheduler ADDRESS (a Dask cluster that scores the "
                             f"shards); add --scheduler, or drop {name} to score on this machine")
    if scheduler is None:
        return None
    check_scheduler_address(scheduler)
    if worker_timeout is not None and not (math.isfinite(worker_timeout) and worker_timeout > 0):
        raise InputError(f"--worker-timeout {worker_timeout:g} must be a number of seconds above 0 (how long a "
                         f"run waits with no worker connected), e.g. --worker-timeout {NO_WORKER_TIMEOUT_S:g}, "
                         "the default")
    if shard_size is None:
        return DEFAULT_SHARD_SIZE
    batch = _batch()
    if isinstance(shard_size, bool) or not isinstance(shard_size, int) or shard_size < 1 or shard_size % batch:
        raise InputError(f"--shard-size {shard_size!r} must be a whole multiple of {batch} rows (the batch a "
                         f"measure scores at once locally, so that each shard is scored exactly as in a local "
                         f"run), at least {batch}: e.g. --shard-size {DEFAULT_SHARD_SIZE}, the default")
    return shard_size


@dataclass
class ShardedRun:
    """What :func:`score_sharded` did: shards in all, scored now, reused from an earlier run, and the
    work folder (removed by :meth:`finish` once the output is written)."""

    n_shards: int
    scored: list[int] = field(default_factory=list)
    reused: list[int] = field(default_factory=list)
    work_dir: Path | None = None
    workers: int = 0

    def finish(self) -> None:
        """Remove what sumeval wrote in the work folder (call once the output is written), and the
        folder with its marker when nothing else is left there."""
        if self.work_dir is None:
            return
        _remove_ours(self.work_dir)
        root = self.work_dir.parent
        left = sorted(str(p.relative_to(root)) for p in root.rglob("*")
                      if p.name != MARKER and not p.is_dir()) if root.is_dir() else []
        if left or (root.is_dir() and any(p.name != MARKER for p in root.iterdir())):
            print(f"sumeval: kept {root}: it holds files sumeval did not write ({', '.join(left[:3]) or 'folders'}"
                  f"{' ...' if len(left) > 3 else ''})", file=sys.stderr)
            return
        (root / MARKER).unlink(missing_ok=True)
        root.rmdir()


def _read_shard(path: Path, key: str, rows: Sequence[int]) -> dict[str, Any] | None:
    """The finished shard in ``path``, or None when there is none (or it is not this shard's)."""
    try:
        done = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = (isinstance(done, dict) and done.get("format") == _FORMAT and done.get("key") == key
          and done.get("rows") == list(rows))
    return done if ok else None


def work_root(output: Path) -> Path:
    """``<output>.shards``: the work folder of ``output``'s sharded runs."""
    output = Path(output)
    return output.with_name(output.name + ".shards")


def check_work_root(output: Path) -> Path:
    """``<output>.shards``, when it is absent or sumeval's (it holds :data:`MARKER`); InputError
    naming it and the fix when something else is there (a user's folder, a file): sumeval removes
    what it writes there, so it never takes over a place it did not create."""
    root = work_root(output)
    if not os.path.lexists(root) or (root.is_dir() and (root / MARKER).is_file()):
        return root
    what = "a folder that sumeval did not create" if root.is_dir() else "not a folder"
    raise InputError(f"{str(root)!r} is {what} (it has no {MARKER} file); `sumeval score --scheduler` keeps the "
                     f"finished shards of --output {str(output)!r} there and removes them afterwards. Move or "
                     "rename it, or choose another --output; nothing was written")


#: the names of the files sumeval writes in a work folder (atomic writes go through ``.NAME.*.partial``)
_OURS = re.compile(r"\.?(job|shard-\d{6})\.json(\.[^/]*\.partial)?")
#: a work folder's name: the key of a run (:func:`score_sharded`)
_KEY = re.compile(r"[0-9a-f]{24}")


def _remove_ours(folder: Path) -> None:
    """Remove the files sumeval writes in the work folder ``folder`` (job.json, the shards, their
    temporary files), and the folder once empty; any other file stays."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for path in folder.iterdir():
        if _OURS.fullmatch(path.name) and path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
    if not any(folder.iterdir()):
        folder.rmdir()


def _work_dir(output: Path, key: str, about: Mapping[str, Any]) -> Path:
    """``<output>.shards/<key>/``, created (the root with its :data:`MARKER`); the shards of other
    keys there (another input, options or shard size) are removed: they can never be reused for
    this output. Only what sumeval wrote is removed (:func:`_remove_ours`)."""
    from sumeval.cache import atomic_write_json, atomic_write_text

    root = check_work_root(output)
    if not root.exists():
        root.mkdir(parents=True)
        atomic_write_text(root / MARKER, f"The work folder of `sumeval score --scheduler ... -o {output}`: the "
                          "finished shards of an interrupted run, removed once the output is written.\n")
    for stale in root.iterdir():
        if stale.name != key and _KEY.fullmatch(stale.name) and stale.is_dir():
            print(f"sumeval: removing shards of another input or options: {stale}", file=sys.stderr)
            _remove_ours(stale)
    folder = root / key
    folder.mkdir(exist_ok=True)
    atomic_write_json(folder / "job.json", dict(about))
    return folder


@dataclass(frozen=True)
class _Shard:
    """Rows ``rows`` (indices into the input, increasing) scored by the measures ``measures``."""

    measures: tuple[str, ...]
    rows: tuple[int, ...]


def plan_shards(records: Sequence[Mapping[str, Any]], scorers: Sequence[Any], shard_size: int,
                label: Callable[[int], str]):
    """The shards of ``records`` and the report of the rows no measure is asked to score.

    Measures with the same needs score the same rows (:func:`sumeval.metrics.admit_rows`); each
    such group's rows are cut into shards of ``shard_size`` (a multiple of the batch), so every
    batch a worker scores is a batch of the local run. Returns ``(shards, admitted)``: a list of
    :class:`_Shard`, in input order within each group, and ``{measure: ScoreReport}`` of what
    ``admit_rows`` found (the rows left out before scoring, the notes).
    """
    from sumeval import metrics

    groups: dict[tuple[int, ...], list[str]] = {}
    admitted = {}
    for scorer in scorers:
        admitted[scorer.name] = metrics.ScoreReport()
        ok = metrics.admit_rows(records, scorer, admitted[scorer.name], label)
        groups.setdefault(tuple(ok), []).append(scorer.name)
    shards = [_Shard(tuple(names), tuple(ok[a:a + shard_size])) for ok, names in groups.items()
              for a in range(0, len(ok), shard_size)]
    return shards, admitted


def score_sharded(records: Sequence[Mapping[str, Any]], lines: Sequence[int], scorers: Sequence[Any],
                  recipe: Mapping[str, Any], *, source: Path, output: Path, scheduler: str, shard_size: int,
                  progress: bool = False, on_shard: Callable[[int], None] | None = None,
                  client: Any = None, worker_timeout: float | None = None):
    """Score ``records`` (n rows, checked as ``sumeval score`` checks them) in shards of
    ``shard_size`` rows on the Dask cluster at ``scheduler``.

    ``scorers``: the driver's scorers (for their names, columns and signatures); ``recipe``: how a
    worker builds them - ``{"names", "classes", "module_path", "options"}`` as ``sumeval score``
    takes them; ``source``: the input file (its bytes are part of the resume key); ``output``: the
    output file (the work folder goes beside it); ``on_shard(k)``: called after shard k is saved;
    ``client``: an open ``distributed.Client`` to use instead of connecting to ``scheduler``;
    ``worker_timeout``: seconds to wait with no worker connected (None: :data:`NO_WORKER_TIMEOUT_S`).

    Returns ``(frame, report, run)``: what :func:`sumeval.metrics.score_records` gives for the whole
    input (n rows, the same values, the report's entries in the same order), and a :class:`ShardedRun`.
    """
    import warnings

    import numpy as np
    import pandas as pd

    from sumeval import metrics
    from sumeval.cache import cache_key
    from sumeval.cluster import dask_client, driver_env
    from sumeval.hashing import sha256_file

    n = len(records)
    check_work_root(output)
    wait_s = NO_WORKER_TIMEOUT_S if worker_timeout is None else float(worker_timeout)
    recipe = {**recipe, "module_path": [str(Path(p).resolve()) for p in recipe.get("module_path", [])],
              "env": driver_env()}
    signatures = {s.name: s.signature() for s in scorers}
    key = cache_key(input_sha256=sha256_file(source), n_rows=n, shard_size=shard_size, signatures=signatures,
                    names=recipe["names"], classes=recipe["classes"], options=recipe["options"])[:24]

    def label(i: int) -> str:
        return f"{source}:{lines[i]}"

    shards, admitted = plan_shards(records, scorers, shard_size, label)
    run = ShardedRun(n_shards=len(shards))
    folder = work_root(output) / key
    results: dict[int, dict[str, Any]] = {}
    for k, shard in enumerate(shards):
        done = _read_shard(folder / f"shard-{k:06d}.json", key, shard.rows)
        if done is not None:
            results[k] = done
            run.reused.append(k)
    todo = [k for k in range(len(shards)) if k not in results]
    own = client is None
    if todo:
        client = client or dask_client(scheduler, CONNECT_TIMEOUT_S)
    try:
        if todo:  # a worker before anything is written
            saved = (f"; {len(results)} finished shard(s) of {len(shards)} are saved in {folder}" if results
                     else "")
            run.workers = _await_a_worker(client, scheduler, wait_s, saved)
        run.work_dir = _work_dir(output, key, {"input": str(source), "shard_size": shard_size, "rows": n,
                                               "shards": len(shards), "measures": signatures})
        if todo:
            _run_shards(client, todo, shards, records, lines, recipe, key, signatures, source, run, results,
                        progress, on_shard, scheduler, wait_s)
    finally:
        if own and client is not None:
            client.close()
    out = {c: np.full(n, np.nan) for s in scorers for c in s.columns()}
    report = metrics.ScoreReport(signatures=dict(signatures))
    for scorer in scorers:  # as score_records: per measure, the rows left out, then the batches' entries
        report.skipped += admitted[scorer.name].skipped
        report.notes += admitted[scorer.name].notes
        for k, shard in enumerate(shards):
            if scorer.name not in shard.measures:
                continue
            res = results[k]
            for c in scorer.columns():
                out[c][list(shard.rows)] = np.asarray(res["columns"][c], dtype=float)
            report.skipped += [(i, m, why) for i, m, why in res["skipped"] if m == scorer.name]
            report.notes += [(i, m, note) for i, m, note in res["notes"] if m == scorer.name]
    for k in range(len(shards)):  # the workers' warnings, told here (`sumeval score` prints them)
        for msg in results[k].get("warnings", []):
            warnings.warn(msg, UserWarning, stacklevel=2)
    return pd.DataFrame(out, index=range(n)), report, run


def _n_workers(client, scheduler: str) -> int:
    """The workers connected to the scheduler now (asked of it)."""
    try:
        return len(client.nthreads())
    except (OSError, TimeoutError) as exc:
        raise SumevalError(f"lost the Dask scheduler at {scheduler!r} ({type(exc).__name__}: {exc})") from None


def _await_a_worker(client, scheduler: str, timeout_s: float, saved: str = "") -> int:
    """The number of workers connected (at least 1), waiting for one up to ``timeout_s`` seconds
    when there is none (a line on stderr says so); SumevalError naming the scheduler and how to
    start a worker when none comes. ``saved``: what the error adds about the finished shards."""
    n = _n_workers(client, scheduler)
    if n:
        return n
    print(f"sumeval: no worker is connected to the Dask scheduler at {scheduler}; waiting up to {timeout_s:g} s "
          f"for one (start one with: dask worker {scheduler})", file=sys.stderr, flush=True)
    deadline = time.monotonic() + timeout_s
    while not n:
        if time.monotonic() >= deadline:
            raise SumevalError(f"no worker connected to the Dask scheduler at {scheduler} for {timeout_s:g} s "
                               f"(--worker-timeout): start workers with `dask worker {scheduler}` (README: Score on a "
                               f"cluster) and run the same command again{saved}")
        time.sleep(min(0.5, timeout_s / 10))
        n = _n_workers(client, scheduler)
    print(f"sumeval: {n} worker(s) connected to {scheduler}; scoring goes on", file=sys.stderr, flush=True)
    return n


def _run_shards(client, todo, shards, records, lines, recipe, key, signatures, source, run, results,
                progress, on_shard, scheduler, wait_s) -> None:
    """Submit the shards ``todo`` and save each as it finishes; on a failure (a failed shard, no
    worker for ``wait_s`` seconds) the shards finished so far stay saved and the error says how to
    resume."""
    import uuid

    from sumeval.cache import atomic_write_json, cache_key

    tag = uuid.uuid4().hex[:6]
    futures = {}
    for k in todo:
        rows = shards[k].rows
        fut = client.submit(_score_shard, recipe, cache_key(recipe=recipe, signatures=signatures)[:24], key,
                            signatures, shards[k].measures, [records[i] for i in rows],
                            list(rows), [lines[i] for i in rows], str(source), pure=False,
                            key=f"sumeval-shard-{key[:8]}-{k:06d}-{tag}")
        futures[fut] = k
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(shards), initial=len(shards) - len(todo), desc="shards", unit="shard")
    pending = set(futures)
    poll_s = min(1.0, wait_s / 10)

    def done_now():
        """The shards finished now, waiting up to ``poll_s`` for one; when none finished and no
        worker is left, :func:`_await_a_worker` (the shards wait for one, so may this run)."""
        deadline = time.monotonic() + poll_s
        while True:
            done = [f for f in pending if f.done()]
            if done or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        if not done:
            _await_a_worker(client, scheduler, wait_s, f"; {len(results)} finished shard(s) of {len(shards)} are "
                            f"saved in {run.work_dir}")
        pending.difference_update(done)
        return sorted(done, key=futures.get)

    def result(fut):
        """The shard's result; a finished shard whose worker died before it was fetched is
        computed again, so this too waits only while a worker is connected."""
        while True:
            try:
                return fut.result(timeout=poll_s)
            except TimeoutError:
                if fut.status == "error":  # the shard's own error
                    raise
                _await_a_worker(client, scheduler, wait_s, f"; {len(results)} finished shard(s) of {len(shards)} "
                                f"are saved in {run.work_dir}")

    try:
        while pending:
            for fut in done_now():
                k = futures[fut]
                try:
                    res = result(fut)
                except SumevalError:
                    raise
                except Exception as exc:  # a killed worker (KilledWorker), a lost connection ...
                    rows = shards[k].rows
                    raise SumevalError(
                        f"shard {k + 1} of {len(shards)} ({source} lines {lines[rows[0]]}-{lines[rows[-1]]}, "
                        f"{', '.join(shards[k].measures)}) failed on the cluster ({type(exc).__name__}: {exc}); "
                        f"{len(results)} finished shard(s) are saved in {run.work_dir}: run the same command again "
                        "to score only the others") from exc
                atomic_write_json(run.work_dir / f"shard-{k:06d}.json", res, indent=None)
                results[k] = res
                run.scored.append(k)
                if bar is not None:
                    bar.update(1)
                if on_shard is not None:
                    on_shard(k)
    except KeyboardInterrupt as exc:  # Ctrl-C: what is saved stays, for the next run
        said = f"{exc}; " if str(exc) else ""
        raise KeyboardInterrupt(f"{said}{len(results)} finished shard(s) of {len(shards)} are saved in "
                                f"{run.work_dir}: run the same command again to score only the others") from None
    finally:
        if bar is not None:
            bar.close()
        client.cancel([f for f in futures if not f.done()])
