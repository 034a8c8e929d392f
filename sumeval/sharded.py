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
  never reuses them (folders of another key there are removed). The folder is removed once the
  output is written.
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


def check_shard_args(scheduler: str | None, shard_size: int | None) -> int | None:
    """The shard size to use (None: score locally); InputError for --shard-size without
    --scheduler, below 1, or not a multiple of the batch of a local run (256): a model measure's
    numbers may depend on which rows share a batch (padding), so a shard is whole batches."""
    if shard_size is not None and not scheduler:
        raise InputError(f"--shard-size {shard_size} needs --scheduler ADDRESS (a Dask cluster that scores the "
                         "shards); add --scheduler, or drop --shard-size to score on this machine")
    if not scheduler:
        return None
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
        """Remove the work folder (call once the output is written)."""
        if self.work_dir is not None:
            shutil.rmtree(self.work_dir, ignore_errors=True)
            parent = self.work_dir.parent
            if parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()


def _read_shard(path: Path, key: str, rows: Sequence[int]) -> dict[str, Any] | None:
    """The finished shard in ``path``, or None when there is none (or it is not this shard's)."""
    try:
        done = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = (isinstance(done, dict) and done.get("format") == _FORMAT and done.get("key") == key
          and done.get("rows") == list(rows))
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
                  client: Any = None):
    """Score ``records`` (n rows, checked as ``sumeval score`` checks them) in shards of
    ``shard_size`` rows on the Dask cluster at ``scheduler``.

    ``scorers``: the driver's scorers (for their names, columns and signatures); ``recipe``: how a
    worker builds them - ``{"names", "classes", "module_path", "options"}`` as ``sumeval score``
    takes them; ``source``: the input file (its bytes are part of the resume key); ``output``: the
    output file (the work folder goes beside it); ``on_shard(k)``: called after shard k is saved;
    ``client``: an open ``distributed.Client`` to use instead of connecting to ``scheduler``.

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
    recipe = {**recipe, "module_path": [str(Path(p).resolve()) for p in recipe.get("module_path", [])],
              "env": driver_env()}
    signatures = {s.name: s.signature() for s in scorers}
    key = cache_key(input_sha256=sha256_file(source), n_rows=n, shard_size=shard_size, signatures=signatures,
                    names=recipe["names"], classes=recipe["classes"], options=recipe["options"])[:24]

    def label(i: int) -> str:
        return f"{source}:{lines[i]}"

    shards, admitted = plan_shards(records, scorers, shard_size, label)
    run = ShardedRun(n_shards=len(shards))
    folder = output.with_name(output.name + ".shards") / key
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
    run.work_dir = _work_dir(output, key, {"input": str(source), "shard_size": shard_size, "rows": n,
                                           "shards": len(shards), "measures": signatures})
    if todo:
        try:
            run.workers = len(client.scheduler_info().get("workers", {}))
            _run_shards(client, todo, shards, records, lines, recipe, key, signatures, source, run, results,
                        progress, on_shard)
        finally:
            if own:
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


def _run_shards(client, todo, shards, records, lines, recipe, key, signatures, source, run, results,
                progress, on_shard) -> None:
    """Submit the shards ``todo`` and save each as it finishes; on a failure the shards finished so
    far stay saved and the error says how to resume."""
    import uuid

    from distributed import as_completed

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
    try:
        for fut in as_completed(list(futures), loop=client.loop):
            k = futures[fut]
            try:
                res = fut.result()
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
