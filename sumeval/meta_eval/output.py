"""Writing a meta-evaluation into its output folder, never half-written and never mixing two runs.

The output folder gets::

    correlations.csv  pairwise.csv  ranking.csv          the tidy results (full precision)
    pairwise_accuracy.csv  detection.csv  not_scored.csv  when there is something to say
    close_pairs.csv  pdp.csv  rank_intervals.csv         with --close-pairs
    table_<coefficient>.{tex,md,csv,html}                the ranking table: measures x (human,
    table_spa.{tex,md,csv,html}                          level), best per column in bold, each
                                                         value marked with its cluster; the
                                                         annotator rows in a block under them
    correlations_<c>.{pdf,png}  pvalues_<c>.{pdf,png}  ranking_<c>.{pdf,png}  spa.{pdf,png} ...
    manifest.json                                        data checksum, measure signatures,
                                                         settings and seed, versions, timings

The tables are :mod:`sumeval.meta_eval.tables`, the figures :mod:`sumeval.meta_eval.figures`, the
manifest :mod:`sumeval.meta_eval.manifest`; this module writes them into the folder.

The folder is checked before any work starts (new, empty, or an earlier meta-evaluation's with
``overwrite``; writable), written by one process at a time and replaced as a whole, never
half-written nor mixing two runs: :mod:`sumeval.meta_eval.staging`, which the meta-evaluation
across data sets (:mod:`sumeval.meta_eval.across_output`) uses too.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pandas as pd

from sumeval.meta_eval.analysis import MetaEvaluation
from sumeval.meta_eval.staging import Stage, check_out_dir, out_lock, write_error

__all__ = ["check_out_dir", "out_lock", "write_meta_evaluation"]


def write_meta_evaluation(result: MetaEvaluation, out: str | os.PathLike[str], *, figures: bool = True,
                          command: list[str] | None = None, overwrite: bool = False) -> dict[str, Path]:
    """Write ``result`` into folder ``out`` (see the module docstring); returns ``{file name: path}``.

    ``out`` must be new or empty, or an earlier meta-evaluation's folder when ``overwrite``
    (:func:`check_out_dir`); that folder is replaced as a whole. Another process writing ``out``
    meanwhile is refused (:func:`out_lock`).
    """
    with out_lock(out):
        return _write(result, out, figures=figures, command=command, overwrite=overwrite)


def _write(result: MetaEvaluation, out: str | os.PathLike[str], *, figures: bool, command: list[str] | None,
           overwrite: bool) -> dict[str, Path]:
    from sumeval.cache import atomic_write_json
    from sumeval.meta_eval import figures as drawing
    from sumeval.meta_eval.manifest import add_writing_time, manifest
    from sumeval.meta_eval.tables import write_tables

    started = time.perf_counter()
    stage = Stage(check_out_dir(out, overwrite=overwrite))
    work = stage.begin()
    state = "nothing was changed there"
    try:
        frames = {"correlations": result.correlations, "pairwise": result.pairwise, "ranking": result.ranking}
        if not result.pairwise_accuracy.empty:
            frames["pairwise_accuracy"] = result.pairwise_accuracy
        if not result.detection.empty:
            frames["detection"] = result.detection
        if result.not_scored:
            frames["not_scored"] = pd.DataFrame(result.not_scored)
        frames.update({k: f for k, f in result.system_pairs.items() if len(f)})  # --close-pairs
        for name, frame in frames.items():
            frame.to_csv(work / f"{name}.csv", index=False)
        write_tables(result, work)
        if figures:
            drawing.draw(result, work)
        names = sorted(p.name for p in work.iterdir())
        add_writing_time(result.timings, time.perf_counter() - started)
        atomic_write_json(work / "manifest.json", manifest(result, names + ["manifest.json"], command=command),
                          default=str)
        if not stage.beside:  # files moved in one by one: a failure may leave an interrupted result
            state = "it may hold an interrupted result (no manifest): run again with --overwrite"
        return stage.publish(names + ["manifest.json"])
    except OSError as exc:  # a full disk, a quota: name --out and the file, never the hidden work folder
        raise write_error(exc, stage.out, state) from None
    finally:
        stage.cleanup()
