"""``sumeval score --scheduler ADDR [--shard-size N]``: the rows of the input scored in shards on the
workers of a Dask distributed cluster, with the same output as a local run.

    sumeval score rouge-1 bertscore --model all-MiniLM-L6-v2 -i pairs.jsonl -o scored.jsonl \\
        --scheduler tcp://10.0.0.5:8786 --shard-size 512

* **Shards**: rows ``[k * N, (k + 1) * N)`` of the input (the last one shorter), each scored by
  :func:`sumeval.metrics.score_records` on a worker. The driver (this process) reads and checks the
  input, builds the scorers once to learn their signatures, sends each shard's records with the
  recipe of the scorers (measure names, ``--measure-class``, options) and writes the output.
* **A model is loaded once per worker**: a worker builds the scorers of a recipe on its first shard
  and keeps them (:data:`_WORKER_SCORERS`, a small per-process cache keyed by the recipe and the
  scorers' signatures), so a model loaded by the first ``score_batch`` serves every later shard
  and every later run on that worker. A worker whose scorers have other signatures than the
  driver's (another library version, another model file) is refused: its numbers would differ.
* **Resume**: each finished shard is written at once (atomically) to
  ``<output>.shards/<key>/shard-NNNNNN.json``; ``key`` hashes the input file's bytes, the scorers'
  signatures and recipe, and the shard size, so a rerun of the same command after a killed worker
  or an interrupted run scores only the shards not yet finished, and a changed input or option
  never reuses them (folders of another key there are removed). The folder is removed once the
  output is written.
* **Same output**: the columns are concatenated in input order; the report (rows not scored, notes)
  is put back in the order a local run gives (:func:`_merge_reports`); shard files keep floats
  exactly (JSON writes the shortest repr that reads back the same double). With the default
  shard size (512, a multiple of ``score_records``' batch of 256) and no rows left unscored, a
  model measure sees the same batches as locally.

The workers need sumeval and the measures' libraries installed, and must see the models (and
indexes, ``--measure-class`` modules) at the same paths as this machine; they need not see the
input or the output.
"""
from __future__ import annotations

import inspect
import json
import os
import shutil
import sys
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from sumeval.errors import InputError, SumevalError

__all__ = ["DEFAULT_SHARD_SIZE", "ShardedRun", "check_shard_args", "score_sharded", "worker_state"]

#: rows per shard when --shard-size is not given (a multiple of score_records' batch size)
DEFAULT_SHARD_SIZE = 512
_FORMAT = 1  # version of the shard files
#: seconds to wait for the scheduler of --scheduler
CONNECT_TIMEOUT_S = 30

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
    from sumeval.score_command import _build_scorers

    scorers = _build_scorers(list(recipe["names"]), list(recipe["classes"]), list(recipe["module_path"]),
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


def _score_shard(recipe: Mapping[str, Any], key: str, signatures: Mapping[str, str],
                 records: Sequence[Mapping[str, Any]], lines: Sequence[int], start: int,
                 source: str) -> dict[str, Any]:
    """Score one shard (the task a worker runs): rows ``start .. start + len(records) - 1`` of the
    input, ``lines`` their line numbers in ``source`` (for messages).

    Returns ``{"start", "n", "columns": {column: [n floats]}, "skipped": [[row, measure, reason]],
    "notes": [[row, measure, note]], "warnings": [messages]}``, rows numbered in the whole input.
    """
    import warnings

    from sumeval import metrics

    scorers = _worker_scorers(recipe, key, signatures)
    with warnings.catch_warnings(record=True) as caught:
        frame, report = metrics.score_records(records, scorers, row_label=lambda i: f"{source}:{lines[i]}")
    _STATE["shards"] += 1
    return {"format": _FORMAT, "key": key, "start": start, "n": len(records),
            "columns": {c: [float(v) for v in frame[c].to_numpy()] for c in frame.columns},
            "skipped": [[start + i, m, why] for i, m, why in report.skipped],
            "notes": [[start + i, m, note] for i, m, note in report.notes],
            "warnings": [str(w.message) for w in caught if not issubclass(w.category, metrics.NotScoredWarning)]}


# ------------------------------------------------------------------------------------------
# on the driver
# ------------------------------------------------------------------------------------------
def check_shard_args(scheduler: str | None, shard_size: int | None) -> int | None:
    """The shard size to use (None: score locally); InputError for --shard-size without
    --scheduler or below 1."""
    if shard_size is not None and not scheduler:
        raise InputError(f"--shard-size {shard_size} needs --scheduler ADDRESS (a Dask cluster that scores the "
                         "shards); add --scheduler, or drop --shard-size to score on this machine")
    if not scheduler:
        return None
    if shard_size is None:
        return DEFAULT_SHARD_SIZE
    if isinstance(shard_size, bool) or not isinstance(shard_size, int) or shard_size < 1:
        raise InputError(f"--shard-size {shard_size!r} must be a whole number of rows, at least 1 (e.g. "
                         f"--shard-size {DEFAULT_SHARD_SIZE}, the default)")
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
        """Remove the work folder (call once the output is written)."""
        if self.work_dir is not None:
            shutil.rmtree(self.work_dir, ignore_errors=True)
            parent = self.work_dir.parent
            if parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()


def _read_shard(path: Path, key: str, start: int, n: int) -> dict[str, Any] | None:
    """The finished shard in ``path``, or None when there is none (or it is not this shard's)."""
    try:
        done = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = (isinstance(done, dict) and done.get("format") == _FORMAT and done.get("key") == key
          and done.get("start") == start and done.get("n") == n)
    return done if ok else None


def _work_dir(output: Path, key: str, about: Mapping[str, Any]) -> Path:
    """``<output>.shards/<key>/``, created; folders of other keys there (another input, options or
    shard size) are removed: they can never be reused for this output."""
    from sumeval.cache import atomic_write_json

    root = output.with_name(output.name + ".shards")
    if root.is_dir():
        for stale in root.iterdir():
            if stale.name != key:
                print(f"sumeval: removing shards of another input or options: {stale}", file=sys.stderr)
                shutil.rmtree(stale, ignore_errors=True) if stale.is_dir() else stale.unlink()
    folder = root / key
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_json(folder / "job.json", dict(about))
    return folder


def score_sharded(records: Sequence[Mapping[str, Any]], lines: Sequence[int], scorers: Sequence[Any],
                  recipe: Mapping[str, Any], *, source: Path, output: Path, scheduler: str, shard_size: int,
                  progress: bool = False, on_shard: Callable[[int], None] | None = None,
                  client: Any = None):
    """Score ``records`` (n rows, checked as ``sumeval score`` checks them) in shards of
    ``shard_size`` rows on the Dask cluster at ``scheduler``.

    ``scorers``: the driver's scorers (for their names and signatures); ``recipe``: how a worker
    builds them - ``{"names", "classes", "module_path", "options"}`` as ``sumeval score`` takes
    them; ``source``: the input file (its bytes are part of the resume key); ``output``: the output
    file (the work folder goes beside it); ``on_shard(k)``: called after shard k is saved;
    ``client``: an open ``distributed.Client`` to use instead of connecting to ``scheduler``.

    Returns ``(frame, report, run)``: as :func:`sumeval.metrics.score_records` gives for the whole
    input (n rows, the same values and report), and a :class:`ShardedRun`.
    """
    import numpy as np
    import pandas as pd

    from sumeval.cache import cache_key
    from sumeval.executors import dask_client, driver_env
    from sumeval.hashing import sha256_file

    n = len(records)
    recipe = {**recipe, "module_path": [str(Path(p).resolve()) for p in recipe.get("module_path", [])],
              "env": driver_env()}
    signatures = {s.name: s.signature() for s in scorers}
    key = cache_key(input_sha256=sha256_file(source), n_rows=n, shard_size=shard_size, signatures=signatures,
                    names=recipe["names"], classes=recipe["classes"], options=recipe["options"])[:24]
    starts = list(range(0, n, shard_size))
    run = ShardedRun(n_shards=len(starts))
    folder = output.with_name(output.name + ".shards") / key
    results: dict[int, dict[str, Any]] = {}
    for k, start in enumerate(starts):
        done = _read_shard(folder / f"shard-{k:06d}.json", key, start, len(records[start:start + shard_size]))
        if done is not None:
            results[k] = done
            run.reused.append(k)
    todo = [k for k in range(len(starts)) if k not in results]
    own = client is None
    if todo:
        client = client or dask_client(scheduler, CONNECT_TIMEOUT_S)
    run.work_dir = _work_dir(output, key, {"input": str(source), "shard_size": shard_size, "rows": n,
                                           "shards": len(starts), "measures": signatures})
    if todo:
        try:
            run.workers = len(client.scheduler_info().get("workers", {}))
            _run_shards(client, todo, starts, records, lines, recipe, key, signatures, source, shard_size,
                        run, results, progress, on_shard)
        finally:
            if own:
                client.close()
    columns = list(results[0]["columns"]) if results else [c for s in scorers for c in s.columns()]
    frame = pd.DataFrame({c: np.concatenate([np.asarray(results[k]["columns"][c], dtype=float)
                                             for k in range(len(starts))]) if starts else np.array([])
                          for c in columns}, index=range(n))
    report = _merge_reports(records, scorers, [results[k] for k in range(len(starts))], lines, source)
    report.signatures.update(signatures)
    import warnings

    for k in range(len(starts)):  # the workers' warnings, told here (`sumeval score` prints them)
        for msg in results[k].get("warnings", []):
            warnings.warn(msg, UserWarning, stacklevel=2)
    return frame, report, run


def _run_shards(client, todo, starts, records, lines, recipe, key, signatures, source, shard_size,
                run, results, progress, on_shard) -> None:
    """Submit the shards ``todo`` and save each as it finishes; on a failure the shards finished so
    far stay saved and the error says how to resume."""
    import uuid

    from distributed import as_completed

    from sumeval.cache import atomic_write_json

    tag = uuid.uuid4().hex[:6]
    futures = {}
    for k in todo:
        start = starts[k]
        fut = client.submit(_score_shard, recipe, key, signatures, list(records[start:start + shard_size]),
                            list(lines[start:start + shard_size]), start, str(source), pure=False,
                            key=f"sumeval-shard-{key[:8]}-{k:06d}-{tag}")
        futures[fut] = k
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(starts), initial=len(starts) - len(todo), desc="shards", unit="shard")
    try:
        for fut in as_completed(list(futures), loop=client.loop):
            k = futures[fut]
            try:
                res = fut.result()
            except SumevalError:
                raise
            except Exception as exc:  # a killed worker (KilledWorker), a lost connection ...
                first, last = lines[starts[k]], lines[min(starts[k] + shard_size, len(records)) - 1]
                raise SumevalError(
                    f"shard {k + 1} of {len(starts)} ({source} lines {first}-{last}) failed on the cluster "
                    f"({type(exc).__name__}: {exc}); {len(results)} finished shard(s) are saved in "
                    f"{run.work_dir}: run the same command again to score only the others") from exc
            atomic_write_json(run.work_dir / f"shard-{k:06d}.json", res, indent=None)
            results[k] = res
            run.scored.append(k)
            if bar is not None:
                bar.update(1)
            if on_shard is not None:
                on_shard(k)
    except KeyboardInterrupt as exc:  # Ctrl-C: what is saved stays, for the next run
        said = f"{exc}; " if str(exc) else ""
        raise KeyboardInterrupt(f"{said}{len(results)} finished shard(s) of {len(starts)} are saved in "
                                f"{run.work_dir}: run the same command again to score only the others") from None
    finally:
        if bar is not None:
            bar.close()
        client.cancel([f for f in futures if not f.done()])


def _merge_reports(records, scorers, shards: Sequence[Mapping[str, Any]], lines, source):
    """One report for the whole input, its entries in the order :func:`sumeval.metrics.score_records`
    gives them for the whole input at once: per measure, the rows left out before scoring (in row
    order, as :func:`sumeval.metrics.admit_rows` finds them here), then what the batches reported,
    batch by batch (a batch being 256 of the measure's admitted rows), a measure's ``undefined``
    reasons before its rows with no number."""
    from sumeval import metrics

    batch = inspect.signature(metrics.score_records).parameters["batch_size"].default
    report = metrics.ScoreReport()

    def label(i: int) -> str:
        return f"{source}:{lines[i]}"

    for scorer in scorers:
        admitted = metrics.ScoreReport()
        ok = metrics.admit_rows(records, scorer, admitted, label)
        pos = {i: p for p, i in enumerate(ok)}
        pre_skip = {i for i, _, _ in admitted.skipped}
        pre_note = {(i, note) for i, _, note in admitted.notes}
        later_skip, later_note = [], []
        for shard in shards:
            later_skip += [(i, m, why) for i, m, why in shard["skipped"] if m == scorer.name and i not in pre_skip]
            notes = [(i, m, note) for i, m, note in shard["notes"] if m == scorer.name]
            seen = set()
            for i, m, note in notes:  # the shard's own admit_rows notes come first: drop those
                if (i, note) in pre_note and (i, note) not in seen:
                    seen.add((i, note))
                    continue
                later_note.append((i, m, note))
        later_skip.sort(key=lambda e: (pos[e[0]] // batch, e[2].startswith(metrics.NO_NUMBER)))
        later_note.sort(key=lambda e: pos[e[0]] // batch)
        report.skipped += admitted.skipped + later_skip
        report.notes += admitted.notes + later_note
    return report
