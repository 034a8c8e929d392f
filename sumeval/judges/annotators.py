"""Annotators as measures: how far is a measure from the annotators' own agreement?

For a human column ``H`` with annotator columns ``H/a_1 .. H/a_k`` (k >= 2), each annotator a_j is
scored like a measure against the **leave-one-out** target: the mean of the *other* annotators'
scores on each summary (the ones present; a summary where a_j or all the others are missing is left
out, as a measure's NaN is). The correlation is the meta-evaluation's own
(:func:`sumeval.stats.correlate`: the same levels, coefficients, bootstrap resamples and seed; the
rows here are computed by the function it calls, so they equal ``correlate``'s on the same columns).
The average of the k annotators' correlations is the **human ceiling** (mt-metrics-eval scores
human raters as metrics the same way; Freitag et al., WMT 2021-24 metrics tasks): a measure above it
agrees with the annotators' mean better than a typical annotator agrees with the others. Its
bootstrap interval averages the annotators' correlations within each resample.

Two caveats the rows state: an annotator's target is the mean of k - 1 people, a measure's (the
human column) the mean of k; and with k = 2 the target is the other annotator alone.

**Identical annotator columns** (:func:`identical_annotators`: equal on every summary, missing on the
same ones; e.g. DialSummEval's coherence annotators 2 and 3 on all 1,400) are one person's scores twice,
or a copy: each one's target would hold its copy and inflate the ceiling. ``sumeval meta-eval`` counts
such columns once (:mod:`sumeval.meta_eval.annotators`, with a note); :func:`annotator_correlations`
takes the columns it is given (``columns``), all of a human's by default.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.judges.columns import annotator_name, require_annotators
from sumeval.stats.checks import (check_boot, check_method, check_resample, frame_column, names,
                                  seed_record)
from sumeval.stats.checks import canonical_level as _canonical
from sumeval.stats.layout import check_system_count, frame_layout
from sumeval.stats.levels import Draws, estimate_pair
from sumeval.stats.resampling import percentile_interval, resample_indices

__all__ = ["leave_one_out_targets", "identical_annotators", "annotator_correlations", "HUMAN_CEILING"]

#: the ``metric`` label of the annotators' average
HUMAN_CEILING = "human ceiling"
COLUMNS = ["metric", "human", "level", "method", "value", "ci_low", "ci_high", "n", "n_skipped", "resampling",
           "n_resamples", "n_resamples_used", "seed", "role", "annotator", "target", "n_annotators"]


def leave_one_out_targets(annotations: np.ndarray) -> np.ndarray:
    """The others' mean for each annotator: shape (n_rows, k) from (n_rows, k) scores.

    Entry (r, j) is the mean of row r's present scores other than column j; NaN where none is present
    or where annotator j has no score (the row is then not used for j).
    """
    a = np.asarray(annotations, dtype=np.float64)
    if a.ndim != 2 or a.shape[1] < 2:
        raise InputError(f"annotations must be (n_rows, k >= 2), got shape {a.shape}")
    present = ~np.isnan(a)
    total = np.where(present, a, 0.0).sum(axis=1, keepdims=True)
    count = present.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        others = (total - np.where(present, a, 0.0)) / (count - present)
    return np.where(present & (count - present > 0), others, np.nan)


def identical_annotators(frame: pd.DataFrame, columns: Sequence[str]) -> list[list[str]]:
    """Groups (each of 2 or more, in column order) of the annotator ``columns`` that are identical: missing on
    the same rows and equal on every other row (at least one). Columns in no group are left out."""
    values = [frame_column(frame, c) for c in columns]
    groups: list[list[int]] = []
    for j in range(len(columns)):
        for g in groups:
            if np.array_equal(values[g[0]], values[j], equal_nan=True) and not np.isnan(values[j]).all():
                g.append(j)
                break
        else:
            groups.append([j])
    return [[columns[j] for j in g] for g in groups if len(g) > 1]


def annotator_correlations(frame: pd.DataFrame, humans: str | Sequence[str], *, level: str | Sequence[str],
                           methods: str | Sequence[str] = ("kendall_b",), n_resamples: int = 1000, ci: float = 0.95,
                           seed: int = 0, resample: str = "inputs", doc_col: str = "doc_id",
                           system_col: str = "system", where: str = "the data",
                           columns: Mapping[str, Sequence[str]] | None = None) -> pd.DataFrame:
    """One row per annotator (against the others' mean) and one human-ceiling row, per human, level and method.

    Args:
        frame: one row per (document, system) summary with ``<human>/<annotator>`` columns.
        humans: the human column(s); each needs at least 2 annotator columns.
        level, methods, n_resamples, ci, seed, resample, doc_col, system_col: as :func:`sumeval.stats.correlate`
            (one set of resamples drawn from ``seed`` is shared by every row, as ``correlate`` does).
        columns: human -> the annotator columns to use (at least 2; e.g. identical ones counted once); by
            default all its ``<human>/<annotator>`` columns.

    Returns:
        :data:`COLUMNS`: ``correlate``'s columns plus ``role`` (``"annotator"`` or ``"human_ceiling"``),
        ``annotator`` (its name; empty for the ceiling), ``target`` (what it is correlated with) and
        ``n_annotators``. ``metric`` is the annotator column, or :data:`HUMAN_CEILING`.
    """
    human_names = names(humans, "human columns")
    levels = names(level, "levels")
    canon = [_canonical(lv) for lv in levels]
    method_names = [check_method(m) for m in names(methods, "methods")]
    check_resample(resample)
    check_boot(n_resamples, ci)
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    for lv, c in zip(levels, canon):
        if c == "system":
            check_system_count(lay, lv)
    draws = None if n_resamples == 0 else Draws.of(resample_indices(lay.n_sys, lay.n_docs, resample, n_resamples, seed))
    common = {"resampling": resample, "n_resamples": int(n_resamples), "seed": seed_record(seed)}
    rows = []
    for h in human_names:
        cols = require_annotators(frame.columns, h, where)
        if columns is not None and h in columns:
            cols = [c for c in columns[h] if c in cols]
            if len(cols) < 2:
                raise InputError(f"human column {h!r}: columns[{h!r}] names {len(cols)} of its annotator columns; "
                                 "give at least 2")
        values = np.column_stack([frame_column(frame, c) for c in cols])
        targets = leave_one_out_targets(values)
        k = len(cols)
        for lv in levels:
            ests = [estimate_pair(lay, values[:, j], targets[:, j], lv, method_names, draws) for j in range(k)]
            for m in method_names:
                per = [e[m] for e in ests]
                for col, e in zip(cols, per):
                    others = [c for c in cols if c != col]
                    lo, hi = percentile_interval(e.boot, ci)
                    rows.append({"metric": col, "human": h, "level": lv, "method": m, "value": e.value,
                                 "ci_low": lo, "ci_high": hi, "n": e.n, "n_skipped": e.n_skipped,
                                 "n_resamples_used": 0 if e.boot is None else int(np.isfinite(e.boot).sum()),
                                 "role": "annotator", "annotator": annotator_name(col, h),
                                 "target": "mean of " + ", ".join(others), "n_annotators": 1, **common})
                vals = np.array([e.value for e in per], dtype=np.float64)
                boot = None if draws is None else np.mean([e.boot for e in per], axis=0)
                lo, hi = percentile_interval(boot, ci)
                rows.append({"metric": HUMAN_CEILING, "human": h, "level": lv, "method": m,
                             "value": float(vals.mean()), "ci_low": lo, "ci_high": hi,
                             "n": int(min(e.n for e in per)), "n_skipped": int(max(e.n_skipped for e in per)),
                             "n_resamples_used": 0 if boot is None else int(np.isfinite(boot).sum()),
                             "role": "human_ceiling", "annotator": "",
                             "target": f"each of {k} annotators against the mean of the others",
                             "n_annotators": k, **common})
    return pd.DataFrame(rows, columns=COLUMNS)
