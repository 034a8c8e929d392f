"""``manifest.json`` of a meta-evaluation: what a reader needs to reproduce its numbers.

The data set's checksum, every measure's signature, the settings and seed, the resamples the tests
used, the missing-value rule and counts, the undefined correlations, the notes, the package
versions, the timings and the files written. ``kind`` marks a folder an earlier ``sumeval
meta-eval`` wrote (:func:`sumeval.meta_eval.output.check_out_dir` reads it).
"""
from __future__ import annotations

import datetime as _dt
import platform
import sys
from typing import Any

import pandas as pd

__all__ = ["MANIFEST_KIND", "manifest", "package_versions", "add_writing_time"]

MANIFEST_KIND = "sumeval meta-eval"


def package_versions() -> dict[str, str]:
    """``{name: version}`` of Python, sumeval and the installed numerical packages, for a manifest."""
    from importlib import metadata

    import sumeval

    out = {"python": platform.python_version(), "sumeval": sumeval.__version__}
    for dist in ("numpy", "scipy", "pandas", "scikit-learn", "torch", "transformers", "bert-score",
                 "rouge-score", "nltk"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def add_writing_time(timings: dict[str, float], seconds: float) -> None:
    """Count the writing of the results (the CSVs, tables and figures: a minute or more for a big
    p-value figure) in ``timings``: ``writing_s`` is ``seconds`` and ``total_s`` becomes the
    analysis' total (kept as ``analysis_s``) plus it, so that the time printed and recorded in the
    manifest is the whole run's. Writing the same result again replaces the writing time."""
    analysis = timings.setdefault("analysis_s", timings.get("total_s", 0.0))
    timings["writing_s"] = seconds
    timings["total_s"] = analysis + seconds


def manifest(result, files: list[str], *, command: list[str] | None = None) -> dict[str, Any]:
    """What a reader needs to reproduce the numbers of ``result`` (a
    :class:`~sumeval.meta_eval.MetaEvaluation`), written as ``manifest.json``."""
    from sumeval.meta_eval.analysis import settings_dict

    used = result.pairwise["n_resamples_used"] if len(result.pairwise) else pd.Series(dtype=float)
    return {
        "kind": MANIFEST_KIND,
        "created": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": command if command is not None else sys.argv,
        "host": platform.node(),
        "dataset": result.dataset,
        "measures": result.measures,
        "annotator_rows": result.annotators,
        "sentinel_rows": result.sentinels,  # the unranked baselines (the summary length)
        "settings": settings_dict(result.settings),
        "seed": result.settings.seed,
        "resamples_used": ({"min": int(used.min()), "max": int(used.max())} if len(used) else None),
        "not_scored": len(result.not_scored),
        "missing_values": result.missing,
        "undefined": result.undefined,
        "p_values": ("p_value includes the resampling floor (count + 1) / (resamples + 1) (Phipson & Smyth "
                     "2010); p_raw is count / resamples" + (f"; bootstrap p-value: {result.settings.bootstrap_p}"
                                                             if result.settings.test.startswith("bootstrap")
                                                             else "")),
        "notes": result.notes,
        "versions": package_versions(),
        "timings": {k: round(v, 3) for k, v in result.timings.items()},
        "files": files,
    }
