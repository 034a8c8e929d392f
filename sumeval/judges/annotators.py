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
or a copy: each one's target would hold its copy and inflate the ceiling. :func:`distinct_annotators` keeps
the first column of each such group, with a note; ``sumeval meta-eval`` (:mod:`sumeval.meta_eval.annotators`)
and the study ``llm_judges`` use it. :func:`annotator_correlations` takes the columns it is given
(``columns``), all of a human's by default.

**Annotators on few documents** (:func:`ceiling_members`, the one rule for every ceiling: the correlations'
here, pairwise accuracy's in :mod:`sumeval.meta_eval.annotators`): an annotator row on fewer than
:data:`MIN_DOCUMENT_SHARE` (half) of the documents of the best-covered annotator row of the same human
column, level and statistic stays in the table but is left out of the ceiling, which then averages annotators
on about the same documents. A correlation row's documents (``n_documents``): at the input level those with a
defined per-document correlation (its ``n``), at the system and global levels those with at least one
summary scored by the annotator and by one of the others.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.judges.columns import annotator_name, require_annotators
from sumeval.stats.checks import canonical_level as _canonical
from sumeval.stats.checks import check_boot, check_resample, frame_column, names, seed_record
from sumeval.stats.coefficients import check_method
from sumeval.stats.layout import check_system_count, frame_layout
from sumeval.stats.levels import Draws, estimate_pair
from sumeval.stats.resampling import percentile_interval, resample_indices

__all__ = ["leave_one_out_targets", "identical_annotators", "distinct_annotators", "ceiling_members",
           "left_out_reason", "left_out_notes", "annotator_correlations", "HUMAN_CEILING", "MIN_DOCUMENT_SHARE"]

#: the ``metric`` label of the annotators' average
HUMAN_CEILING = "human ceiling"
#: an annotator row on fewer than this share of the documents of the best-covered annotator row (same human
#: column, level and statistic) is left out of the human ceiling (:func:`ceiling_members`)
MIN_DOCUMENT_SHARE = 0.5
COLUMNS = ["metric", "human", "level", "method", "value", "ci_low", "ci_high", "n", "n_skipped", "resampling",
           "n_resamples", "n_resamples_used", "seed", "role", "annotator", "target", "n_annotators",
           "n_documents", "in_ceiling"]


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


def distinct_annotators(frame: pd.DataFrame, columns: Sequence[str], human: str) -> tuple[list[str], list[str]]:
    """``(columns, notes)``: the annotator ``columns`` of ``human`` with each group of :func:`identical_annotators`
    counted once (its first column kept), and a note for each group (module docstring)."""
    cols, notes = list(columns), []
    for group in identical_annotators(frame, cols):
        n = int(frame[group[0]].notna().sum())
        notes.append(f"annotator columns {' and '.join(group)} of {human!r} are identical on all {n} summaries they "
                     f"score: counted once ({', '.join(group[1:])} left out of the annotator rows and of the "
                     "human ceiling); with both, each one's target would hold its copy and inflate the ceiling")
        cols = [c for c in cols if c not in group[1:]]
    return cols, notes


def ceiling_members(n_documents: Sequence[float]) -> np.ndarray:
    """Which annotator rows (of one human column, level and statistic) enter the human ceiling, from each row's
    document count: all but those on fewer than :data:`MIN_DOCUMENT_SHARE` of the best-covered row's documents
    (a row without a count, NaN, stays in). The one rule for every ceiling (module docstring)."""
    n = np.asarray(n_documents, dtype=np.float64)
    best = np.nanmax(n) if np.isfinite(n).any() else np.nan
    return ~(np.isfinite(n) & (n < MIN_DOCUMENT_SHARE * best))


def left_out_reason(n_documents: Sequence[float]) -> str:
    """Why a row of :func:`ceiling_members` is out, from the rows' document counts: ``fewer than 50% of the B
    documents of the best-covered annotator``."""
    best = int(np.nanmax(np.asarray(n_documents, dtype=np.float64)))
    return f"fewer than {MIN_DOCUMENT_SHARE:.0%} of the {best} documents of the best-covered annotator"


def left_out_notes(rows: pd.DataFrame, n_documents: int) -> list[str]:
    """A line for each annotator row of :func:`annotator_correlations` ``rows`` left out of its ceiling
    (``in_ceiling`` False); ``n_documents``: the data set's documents."""
    out = []
    ann = rows[rows["role"] == "annotator"]
    for (h, lv, m), g in ann.groupby(["human", "level", "method"], sort=False):
        for r in g[~g["in_ceiling"].astype(bool)].itertuples():
            out.append(f"annotator {r.annotator!r} of {h!r} ({lv} level, {m}): correlation on {r.n_documents} of "
                       f"the {n_documents} documents; left out of the human ceiling: "
                       f"{left_out_reason(g['n_documents'])}; its row is kept")
    return out


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
        ``annotator`` (its name; empty for the ceiling), ``target`` (what it is correlated with),
        ``n_annotators`` (the ceiling's: the annotators it averages), ``n_documents`` (an annotator row's
        documents, module docstring; the ceiling's: the fewest of its annotators') and ``in_ceiling`` (an
        annotator row's :func:`ceiling_members`; the ceiling's: NaN). ``metric`` is the annotator column, or
        :data:`HUMAN_CEILING`; the ceiling averages the annotator rows in it (its ``target`` names those left out).
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
        # documents with a summary scored by the annotator and by one of the others (module docstring)
        docs = [np.unique(lay.doc[~np.isnan(values[:, j]) & ~np.isnan(targets[:, j])]).size for j in range(k)]
        for lv, cv in zip(levels, canon):
            ests = [estimate_pair(lay, values[:, j], targets[:, j], lv, method_names, draws) for j in range(k)]
            for m in method_names:
                per = [e[m] for e in ests]
                n_docs = [e.n for e in per] if cv == "input" else docs
                member = ceiling_members(n_docs)
                for col, e, nd, inside in zip(cols, per, n_docs, member):
                    others = [c for c in cols if c != col]
                    lo, hi = percentile_interval(e.boot, ci)
                    rows.append({"metric": col, "human": h, "level": lv, "method": m, "value": e.value,
                                 "ci_low": lo, "ci_high": hi, "n": e.n, "n_skipped": e.n_skipped,
                                 "n_resamples_used": 0 if e.boot is None else int(np.isfinite(e.boot).sum()),
                                 "role": "annotator", "annotator": annotator_name(col, h),
                                 "target": "mean of " + ", ".join(others), "n_annotators": 1,
                                 "n_documents": int(nd), "in_ceiling": bool(inside), **common})
                use = [e for e, inside in zip(per, member) if inside]
                vals = np.array([e.value for e in use], dtype=np.float64)
                boot = None if draws is None else np.mean([e.boot for e in use], axis=0)
                lo, hi = percentile_interval(boot, ci)
                target = f"each of {len(use)} annotators against the mean of the others"
                if not member.all():
                    gone = [annotator_name(col, h) for col, inside in zip(cols, member) if not inside]
                    target += f" (without {', '.join(gone)}: {left_out_reason(n_docs)})"
                rows.append({"metric": HUMAN_CEILING, "human": h, "level": lv, "method": m,
                             "value": float(vals.mean()), "ci_low": lo, "ci_high": hi,
                             "n": int(min(e.n for e in use)), "n_skipped": int(max(e.n_skipped for e in use)),
                             "n_resamples_used": 0 if boot is None else int(np.isfinite(boot).sum()),
                             "role": "human_ceiling", "annotator": "", "target": target,
                             "n_annotators": len(use),
                             "n_documents": int(min(nd for nd, inside in zip(n_docs, member) if inside)),
                             "in_ceiling": np.nan, **common})
    return pd.DataFrame(rows, columns=COLUMNS)
