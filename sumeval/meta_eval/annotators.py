"""Annotators as measures in a meta-evaluation: how far is each measure from the annotators' own agreement?

Wherever the data set has at least 2 annotator columns ``<human>/<annotator>`` for a human column asked,
``sumeval meta-eval`` adds (unless ``--no-annotators``) one row per annotator, that annotator scored like
a measure against the **mean of the other annotators** (leave-one-out), and their average, the **human
ceiling** (mt-metrics-eval scores human raters as metrics the same way): in ``correlations.csv``
(:func:`sumeval.judges.annotators.annotator_correlations`, with the measures' levels, coefficients,
resamples, seed and resampling), ``pairwise_accuracy.csv`` (the measures' functions, the annotator
against its leave-one-out target; the ceiling is the annotators' mean, its interval the mean of their
bootstrap replicates when all of them used the same items), ``ranking.csv``, the tables (a block under
the measures) and the figures.

**Identical annotator columns** (equal on every summary: a copy, or one person twice; DialSummEval's coherence
annotators 2 and 3 on all 1,400 summaries) are counted once: the first column of each such group is kept, the
others get no row and stay out of the ceiling, and a note names them (with both, each one's target holds its
copy, which inflates the ceiling).

**Annotators on few documents.** An annotator's system-level rows use the documents where every system has
its score and the others' mean (item-level rows, the documents with a pair); a row on fewer documents than
the data set has says how many in its ``note``. A row on fewer than :data:`MIN_DOCUMENT_SHARE` (half) of the
documents of the best-covered annotator of that human column and level stays in ``pairwise_accuracy.csv`` but
is left out of the human ceiling (its note and the notes say so): the ceiling averages annotators on about the
same documents, and SPA from a few documents (the sign-flip test of L documents has 2^L sign patterns, so
its p-values move in steps of at least 2^-L) is a different and much noisier quantity. The correlation ceiling
of ``correlations.csv`` follows the same rule (:func:`sumeval.judges.annotators.ceiling_members`, one rule for
both; a correlation row's documents as there): the row stays, the ceiling's ``target`` names who is left
out, and the notes say so.

Row labels: ``annotator:<name>`` (shown "Annotator <name> (vs. others)") and ``human ceiling`` (shown
"Human ceiling (mean of annotators)"); ``role`` says ``annotator`` or ``human_ceiling`` (``measure`` for
the measures) and ``target`` what a row is correlated with.

**Not competitors.** An annotator row is correlated with a different target (the mean of the other
annotators) than the measures (the human column), so it cannot be permutation-tested against a measure
on the same target; it is not tested, and by default neither ranked nor put in a cluster (``note``
says so). With ``--annotators-compete`` it is ranked among the measures by its value, still untested:
it then never starts a cluster nor pushes a measure out of one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.judges.annotators import (
    HUMAN_CEILING,
    MIN_DOCUMENT_SHARE,
    ceiling_members,
    left_out_notes,
    left_out_reason,
)
from sumeval.judges.columns import annotator_name
from sumeval.meta_eval import accuracy

__all__ = ["ANNOTATOR_PREFIX", "HUMAN_CEILING", "MIN_DOCUMENT_SHARE", "AnnotatorSets", "find_annotators",
           "annotator_label", "correlation_rows", "accuracy_rows", "pairwise_accuracy", "check_labels"]

#: the prefix of an annotator's row label
ANNOTATOR_PREFIX = "annotator:"

@dataclass
class AnnotatorSets:
    """The annotator columns used (``columns``: human -> at least 2 columns), the row labels in table order
    (annotators in order of first appearance, then the human ceiling; empty when none) and the notes."""

    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def annotator_label(column: str, human: str) -> str:
    """``("coherence/expert_1", "coherence")`` -> ``"annotator:expert_1"``."""
    return ANNOTATOR_PREFIX + annotator_name(column, human)


def find_annotators(judgments, humans: Sequence[str]) -> AnnotatorSets:
    """The annotator columns of the human columns ``humans`` that have at least 2 (module docstring).

    A human column with a single annotator column, and annotator columns of a human column not asked, give a
    note (not an error): there is nothing to compare one annotator with, and a human not asked is not
    meta-evaluated.
    """
    from sumeval.judges.annotators import distinct_annotators

    out = AnnotatorSets()
    for h in humans:
        cols = tuple(judgments.annotators.get(h, ()))
        if len(cols) >= 2:
            kept, dup_notes = distinct_annotators(judgments.frame, cols, h)
            out.notes += dup_notes
            cols = tuple(kept)
            if len(cols) == 1:
                out.notes.append(f"human column {h!r}: its annotator columns are all identical: no annotator rows "
                                 "for it (each annotator is compared with the mean of the others)")
                continue
        if len(cols) == 1:
            out.notes.append(f"human column {h!r} has a single annotator column ({cols[0]}): no annotator rows "
                             "for it (each annotator is compared with the mean of the others, which needs at "
                             "least 2)")
        elif cols:
            out.columns[h] = cols
    for h, cols in judgments.annotators.items():
        if h not in humans and cols:
            out.notes.append(f"annotator columns of {h!r} ({', '.join(cols)}) are not used: {h!r} is not one of "
                             f"the human columns asked (--human); name it to add its annotator rows")
    if out.columns:
        out.labels = list(dict.fromkeys(annotator_label(c, h) for h, cols in out.columns.items() for c in cols))
        out.labels.append(HUMAN_CEILING)
    return out


def check_labels(labels: Sequence[str], sets: AnnotatorSets) -> None:
    """Refuse a measure whose label is an annotator row's label (before any scoring)."""
    taken = sorted(set(labels) & set(sets.labels))
    if taken:
        raise InputError(f"measure {taken[0]!r} has the label of an annotator row of meta-eval; rename the "
                         "measure, or leave the annotator rows out (--no-annotators)")


def _target(cols: Sequence[str], col: str) -> str:
    return "mean of " + ", ".join(c for c in cols if c != col)


def _ceiling_target(k: int) -> str:
    return f"each of {k} annotators against the mean of the others"


def _leave_one_out_frame(judgments, human: str, cols: Sequence[str]) -> tuple[pd.DataFrame, dict[str, str]]:
    """``doc_id, system``, each annotator column and its target (``<column> (others' mean)``)."""
    from sumeval.judges.annotators import leave_one_out_targets

    values = judgments.frame[list(cols)].to_numpy(float)
    targets = leave_one_out_targets(values)
    frame = judgments.frame[["doc_id", "system", *cols]].reset_index(drop=True).copy()
    names = {c: f"{c} (others' mean)" for c in cols}
    for j, c in enumerate(cols):
        frame[names[c]] = targets[:, j]
    return frame, names


def correlation_rows(judgments, sets: AnnotatorSets, s, notes: list[str] | None = None) -> pd.DataFrame:
    """The annotator and human-ceiling rows of ``correlations.csv`` (its columns, plus ``role`` and ``target``);
    ``notes`` gets a line for each annotator row left out of the ceiling (module docstring)."""
    from sumeval.judges.annotators import annotator_correlations
    from sumeval.stats.undefined import undefined_reason

    levels = [lv for lv in s.levels if lv != "partial"]  # the annotator rows at the partial level: not yet
    if not levels:
        return pd.DataFrame(columns=["measure", "human", "level", "coefficient", "value", "ci_low", "ci_high", "n",
                                     "n_skipped", "resampling", "n_resamples", "seed", "reason", "role", "target"])
    out = annotator_correlations(judgments.frame, list(sets.columns), level=levels,
                                 methods=list(s.coefficients), n_resamples=s.n_resamples, ci=s.ci, seed=s.seed,
                                 resample=s.ci_resampling, where=f"data set {judgments.name!r}",
                                 columns=sets.columns)
    is_ann = out["role"] == "annotator"
    out["measure"] = np.where(is_ann, ANNOTATOR_PREFIX + out["annotator"], HUMAN_CEILING)
    out = out.rename(columns={"method": "coefficient"})
    reasons: dict[tuple[str, str, str], str] = {}
    frames = {h: _leave_one_out_frame(judgments, h, cols) for h, cols in sets.columns.items()}
    for r in out[out["value"].isna()].itertuples():
        key = (r.metric, r.human, r.level)
        if key in reasons:
            continue
        if r.role == "annotator":
            frame, names = frames[r.human]
            reasons[key] = undefined_reason(frame, r.metric, names[r.metric], r.level) or "undefined (NaN)"
        else:
            reasons[key] = "the correlation of an annotator with the others' mean is undefined at this level"
    out["reason"] = [reasons.get((m, h, lv), math.nan) for m, h, lv in zip(out["metric"], out["human"], out["level"])]
    if notes is not None:
        n_docs = int(judgments.frame["doc_id"].nunique())
        notes += [f"{n} in correlations.csv" for n in left_out_notes(out.rename(columns={"coefficient": "method"}),
                                                                       n_docs)]
    return out.drop(columns=["metric", "annotator", "n_annotators", "n_resamples_used", "n_documents", "in_ceiling"])


def _mean_boot(boots: list) -> np.ndarray | None:
    if not all(isinstance(b, np.ndarray) for b in boots) or len({b.size for b in boots}) != 1:
        return None
    return np.mean(np.vstack(boots), axis=0)


def _few_documents(rows: pd.DataFrame, judgments, human: str, notes: list[str]) -> np.ndarray:
    """Which annotator rows (one human column and level; ``measure`` = the annotator column) are left out of the
    human ceiling: on fewer than :data:`MIN_DOCUMENT_SHARE` of the best-covered row's documents (module
    docstring). Each row's ``note`` gets its document count where it lacks some of the data set's documents;
    ``notes`` a line for each row left out."""
    n_docs = int(judgments.frame["doc_id"].nunique())
    n = rows["n_items"].to_numpy(float)
    few = ~ceiling_members(n)
    level = rows["level"].iloc[0]
    used = ("the documents where every system has its score and the others' mean" if level == "system"
            else "the documents with a pair of summaries scored by it and the others")
    what = "SPA and plain accuracy" if level == "system" else "item-level acc23"
    rows["note"] = rows["note"].astype(object)
    for k, (col, count) in enumerate(zip(rows["measure"], n)):
        if not np.isfinite(count) or count >= n_docs:
            continue
        name = annotator_name(col, human)
        text = f"on {int(count)} of the {n_docs} documents ({used})"
        if few[k]:
            text += f"; left out of the human ceiling: {left_out_reason(n)}"
            notes.append(f"annotator {name!r} of {human!r} ({level} level): {what} {text}; its row is kept in "
                         "pairwise_accuracy.csv")
        old = rows["note"].iloc[k]
        rows.iloc[k, rows.columns.get_loc("note")] = text if not isinstance(old, str) else f"{old}; {text}"
    return few


def accuracy_rows(judgments, sets: AnnotatorSets, s, notes: list[str], tune_docs: Sequence | None) -> pd.DataFrame:
    """The annotator and human-ceiling rows of ``pairwise_accuracy.csv`` (module docstring)."""
    from sumeval.stats.resampling import percentile_interval

    parts = []
    systems = judgments.frame["system"].nunique() >= 3
    for h, cols in sets.columns.items():
        frame, names = _leave_one_out_frame(judgments, h, cols)
        levels = []
        if systems:
            levels.append(pd.concat([accuracy.system_rows(frame, [c], names[c], s, notes, boot=True) for c in cols],
                                    ignore_index=True))
        if s.item_acc23:
            levels.append(pd.concat([accuracy.item_rows(frame, [c], names[c], tune_docs, notes) for c in cols],
                                    ignore_index=True))
        for rows in levels:
            if not len(rows):
                continue
            rows = rows.copy()
            few = _few_documents(rows, judgments, h, notes)
            left_out = [annotator_name(c, h) for c in rows.loc[few, "measure"]]
            use = rows[~few]
            rows["target"] = [_target(cols, c) for c in rows["measure"]]
            rows["measure"] = [annotator_label(c, h) for c in rows["measure"]]
            rows["human"], rows["role"] = h, "annotator"
            ceiling = {"measure": HUMAN_CEILING, "human": h, "level": rows["level"].iloc[0], "role": "human_ceiling",
                       "target": _ceiling_target(len(use)), "n_systems": rows["n_systems"].max()}
            complete = len(rows) == len(cols) and len(use) > 0
            for col in ("accuracy", "spa", "plain_accuracy", "chance", "tune_accuracy"):
                ceiling[col] = use[col].astype(float).mean() if complete else math.nan
            for name, col in (("spa", "spa_boot"), ("plain", "plain_boot")):
                if col in rows and complete and use["n_items"].nunique() == 1:
                    lo, hi = percentile_interval(_mean_boot(list(use[col])), s.ci)
                    ceiling[f"{name}_ci_low"], ceiling[f"{name}_ci_high"] = lo, hi
            first = use if len(use) else rows
            for col in ("optimistic", "calibrated", "grouping", "tuned_on", "n_resamples", "seed", "n_permutations",
                        "perm_seed", "n_items", "n_tune_items"):
                ceiling[col] = first[col].iloc[0]
            ceiling["note"] = "the mean of the annotators' values" + (
                "; its intervals the percentile intervals of the mean of their bootstrap replicates"
                if ceiling["level"] == "system" else "")
            if left_out:
                ceiling["note"] += f"; without {', '.join(left_out)}: {left_out_reason(rows['n_items'])}"
            parts.append(pd.concat([rows.reindex(columns=accuracy.ACCURACY_COLUMNS), pd.DataFrame([ceiling])],
                                   ignore_index=True))
    if not parts:
        return pd.DataFrame(columns=accuracy.ACCURACY_COLUMNS)
    return pd.concat(parts, ignore_index=True).reindex(columns=accuracy.ACCURACY_COLUMNS)


def pairwise_accuracy(frame: pd.DataFrame, labels: Sequence[str], judgments, sets, s, notes: list[str],
                      tune_docs: Sequence | None) -> pd.DataFrame:
    """``pairwise_accuracy.csv``: the measures' rows (:func:`sumeval.meta_eval.accuracy.accuracy_rows`), then the
    annotators' (:func:`accuracy_rows`)."""
    parts = [accuracy.accuracy_rows(frame, labels, s, notes, tune_docs)]
    if sets.columns:
        parts.append(accuracy_rows(judgments, sets, s, notes, tune_docs))
    parts = [p for p in parts if len(p)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=accuracy.ACCURACY_COLUMNS)
