"""The judge audit: what else, beside agreement, should be known about a judge (or any measure column)?

For each judge column and human column ``H`` (with annotator columns ``H/<annotator>``):

- **Verbosity** -- does the judge reward length more than the humans do? Kendall's tau-b of the judge
  with the summary's length in words (whitespace-separated tokens of the summary column), pooled over
  all summaries (the *global* level of :func:`sumeval.stats.correlate`: Kendall 1945 tau-b, ties
  handled), minus the humans' own tau-b with length (the human column ``H``, on SummEval the experts'
  mean) and minus each annotator's own. The interval and the p-value are those of the paired bootstrap
  of :func:`sumeval.stats.paired_test` (documents resampled, Deutsch, Dror & Roth 2021): each resample
  recomputes both correlations on the same drawn documents. A judge *depends on length more than the
  humans* when the interval of its excess lies above 0. (Length in characters or tokens orders
  SummEval's summaries almost identically; a rank correlation sees only that order.)
- **Close pairs** -- does the judge order the systems the humans find close? System pairs binned into
  thirds by the humans' difference of system means (:func:`sumeval.stats.pairwise.close_pair_agreement`:
  the closest third is Deutsch, Dror & Roth 2022's realistic comparisons, NAACL, Sec. 5; the close-pair
  analysis of "The Progress Illusion", Findings of EMNLP 2025), the share ordered as the humans do per
  bin with a document-bootstrap interval, beside two baselines: a **held-out annotator** (each
  annotator's system means against the mean of the others, binned by the others' differences -- the
  judge's own setting with one annotator in the judge's place -- and their average) and **length
  alone** (longer is better, against ``H``, on the judge's bins).
- **Kappa** -- Cohen's kappa and quadratic-weighted kappa of the judge against each annotator, item by
  item (:func:`sumeval.stats.agreement.cohen_kappa`, equal to scikit-learn's ``cohen_kappa_score``),
  where both sides give integer categories (a continuous measure has no kappa; the audit says so).
- **Calibration** -- where the judge gives probabilities (every value in [0, 1]) and the human labels
  are binary (0/1, or made binary with ``label_threshold``: ``H >= threshold`` is 1): expected
  calibration error and Brier score (:mod:`sumeval.stats.binary`).

What needs a judge sumeval can run (self-consistency over seeds, position swap of a pairwise template,
a padding probe) is not here but in the runner, which can make the calls: ``sumeval judge --probe``
(:mod:`sumeval.judges.run.probes`).

The measurements this reproduces (tests/judges/test_judge_audit.py): on SummEval's six LLM judges (AltTest's
release, :mod:`sumeval.datasets.loaders.summeval`), gpt-4o, gpt-4o-mini and Llama-3.1 depend on
length more than the experts on coherence, consistency and relevance (gpt-4o-mini +0.17 to +0.20),
and the judges agree with the experts far less on the closest third of system pairs than on the
farthest.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.judges.annotators import leave_one_out_targets
from sumeval.judges.columns import annotator_columns, annotator_name, judge_column, judge_label
from sumeval.metrics.length import summary_length
from sumeval.stats.agreement import cohen_kappa
from sumeval.stats.binary import brier_score, expected_calibration_error
from sumeval.stats.checks import check_boot, frame_column, names, seed_record
from sumeval.stats.correlation import paired_test
from sumeval.stats.layout import check_system_count, frame_layout
from sumeval.stats.pairwise import CLOSE_PAIR_COLUMNS, close_pair_replicates, close_pair_rows
from sumeval.stats.resampling import resample_indices

__all__ = ["JudgeAudit", "judge_audit", "summary_length", "LENGTH", "HELD_OUT", "VERBOSITY_COLUMNS",
           "CLOSE_PAIRS_COLUMNS", "KAPPA_COLUMNS", "CALIBRATION_COLUMNS"]

#: the name of the length column (and of the length baseline)
LENGTH = "length (words)"
#: the measure label of the held-out annotators' average
HELD_OUT = "held-out annotator (mean)"
_LENGTH_COL = "__judge_audit_length__"

VERBOSITY_COLUMNS = ["judge", "human", "judge_column", "versus", "versus_column", "tau_judge", "tau_versus",
                     "excess", "ci_low", "ci_high", "p_value", "above", "level", "method", "length", "n",
                     "n_skipped", "resampling", "n_resamples", "n_resamples_used", "seed"]
CLOSE_PAIRS_COLUMNS = ["role", *CLOSE_PAIR_COLUMNS]
KAPPA_COLUMNS = ["judge", "human", "annotator", "judge_column", "annotator_column", "kappa", "kappa_quadratic",
                 "n_items", "n_skipped", "labels"]
CALIBRATION_COLUMNS = ["judge", "human", "judge_column", "label", "ece", "brier", "n_bins", "n_items", "n_positive"]


class JudgeAudit(NamedTuple):
    """The frames of :func:`judge_audit` and its notes (what was not applicable, and why)."""

    verbosity: pd.DataFrame  #: :data:`VERBOSITY_COLUMNS`
    close_pairs: pd.DataFrame  #: :data:`CLOSE_PAIRS_COLUMNS`
    kappa: pd.DataFrame  #: :data:`KAPPA_COLUMNS`
    calibration: pd.DataFrame  #: :data:`CALIBRATION_COLUMNS`
    notes: list[str]


def _is_integer_valued(v: np.ndarray) -> bool:
    f = v[np.isfinite(v)]
    return bool(f.size) and bool(np.all(f == np.round(f)))


def judge_audit(frame: pd.DataFrame, humans: str | Sequence[str], judges: str | Sequence[str], *,
                summary_col: str = "summary", doc_col: str = "doc_id", system_col: str = "system",
                n_bins: int = 3, n_resamples: int = 1000, ci: float = 0.95, seed: int = 0,
                level: str = "global", label_threshold: float | None = None, calibration_bins: int = 10,
                where: str = "the data", candidates: Sequence[str] | None = None) -> JudgeAudit:
    """The judge audit (module docstring) of judge columns against human columns.

    Args:
        frame: one row per (document, system) summary: ``doc_col``, ``system_col``, ``summary_col`` (the
            text whose length is measured), the human columns, their ``<human>/<annotator>`` columns and
            the judges' columns (:func:`sumeval.judges.columns.judge_column` finds a judge's column for
            each human column).
        humans, judges: names.
        n_bins: bins of system pairs (3: thirds). n_resamples, ci, seed: the document bootstrap (one set
            of resamples from ``seed``, shared by every row). level: the level of the verbosity
            Kendall (``"global"``: pooled over summaries; ``"input"``: per document, averaged).
        label_threshold: binarise the human column for calibration (``H >= threshold`` is 1); None
            uses it only when it is already 0/1.
        calibration_bins: equal-width bins of the ECE.
        where, candidates: for error messages.

    Returns:
        :class:`JudgeAudit`.
    """
    human_names = names(humans, "human columns")
    judge_names = names(judges, "judges")
    check_boot(n_resamples, ci)
    if summary_col not in frame.columns:
        raise InputError(f"{where} has no summary column {summary_col!r}, whose length the verbosity check and "
                         "the length baseline measure; name it (--summary-col COL)")
    cols = list(frame.columns) if candidates is None else list(candidates)
    for h in human_names:
        if h not in frame.columns:
            raise InputError(f"human column {h!r} is not in {where}; its columns: {', '.join(map(str, frame.columns))}")
    jcols = {j: {h: judge_column(cols, j, h, where, candidates) for h in human_names} for j in judge_names}
    work = frame.copy()
    work[_LENGTH_COL] = summary_length(frame[summary_col].tolist(), f"{where}, column {summary_col!r}")
    lay = frame_layout(work, doc_col, system_col, need_systems=True)
    check_system_count(lay, "system")
    counts = None
    if n_resamples:
        counts = resample_indices(lay.n_sys, lay.n_docs, "inputs", int(n_resamples), seed).input_counts()
    notes: list[str] = []
    verbosity, pairs, kappa, calib = [], [], [], []
    common = {"resampling": "inputs", "n_resamples": int(n_resamples), "seed": seed_record(seed)}
    length = frame_column(work, _LENGTH_COL)
    for h in human_names:
        ann = annotator_columns(frame.columns, h)
        if not ann:
            notes.append(f"human column {h!r} has no '{h}/<annotator>' columns: no per-annotator verbosity, no "
                         "kappa, no held-out annotator")
        elif len(ann) < 2:
            notes.append(f"human column {h!r} has one annotator ({ann[0]}): no held-out annotator baseline")
        y = frame_column(work, h)
        # close pairs: the baselines
        pairs += close_pair_rows(close_pair_replicates(lay, length, y, n_bins, counts), n_bins, ci,
                                 metric=LENGTH, human=h, role="length", **common)
        if len(ann) >= 2:
            values = np.column_stack([frame_column(work, c) for c in ann])
            targets = leave_one_out_targets(values)
            reps = [close_pair_replicates(lay, values[:, k], targets[:, k], n_bins, counts) for k in range(len(ann))]
            for c, r in zip(ann, reps):
                pairs += close_pair_rows(r, n_bins, ci, metric=c, human=h, role="held-out annotator", **common)
            mean = {"agreement": np.nanmean([r["agreement"] for r in reps], axis=0),
                    "boot": None if counts is None else np.mean([r["boot"] for r in reps], axis=0),
                    "bins": np.zeros_like(reps[0]["bins"]) - 1, "delta": reps[0]["delta"],
                    "n_systems": min(r["n_systems"] for r in reps)}
            rows = close_pair_rows(mean, n_bins, ci, metric=HELD_OUT, human=h, role="held-out annotators", **common)
            for b, row in enumerate(rows):  # each annotator has its own bins: the mean's pairs are theirs
                sizes = [int((r["bins"] == b).sum()) for r in reps]
                row.update(n_pairs=int(round(np.mean(sizes))), delta_low=np.nan, delta_high=np.nan)
            pairs += rows
        for j in judge_names:
            jc = jcols[j][h]
            label = judge_label(j)
            x = frame_column(work, jc)
            # verbosity: against the humans' column, then each annotator
            for versus, vc in [("humans", h)] + [(annotator_name(c, h), c) for c in ann]:
                r = paired_test(work, jc, vc, _LENGTH_COL, level=level, method="kendall_b",
                                n_resamples=int(n_resamples), ci=ci, seed=seed, doc_col=doc_col,
                                system_col=system_col)
                verbosity.append({"judge": label, "human": h, "judge_column": jc, "versus": versus,
                                  "versus_column": vc, "tau_judge": r["corr_a"], "tau_versus": r["corr_b"],
                                  "excess": r["diff"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                                  "p_value": r["p_value"], "above": bool(r["ci_low"] > 0), "level": level,
                                  "method": "kendall_b", "length": "words", "n": r["n"],
                                  "n_skipped": r["n_skipped"], "n_resamples_used": r["n_resamples_used"],
                                  **common})
            r = close_pair_replicates(lay, x, y, n_bins, counts)
            pairs += close_pair_rows(r, n_bins, ci, metric=label, human=h, role="judge", **common)
            # kappa against each annotator
            for c in ann:
                a = frame_column(work, c)
                ok = ~(np.isnan(x) | np.isnan(a))
                if not (_is_integer_valued(x) and _is_integer_valued(a)):
                    notes.append(f"judge {label!r} ({jc}) or annotator {c!r} is not integer-valued: no kappa "
                                 "(it needs categories on one scale)")
                    k0 = kq = np.nan
                    labels = ""
                else:
                    k0 = cohen_kappa(x, a)
                    kq = cohen_kappa(x, a, weights="quadratic")
                    labels = " ".join(f"{v:g}" for v in np.unique(np.concatenate([x[ok], a[ok]])))
                kappa.append({"judge": label, "human": h, "annotator": annotator_name(c, h), "judge_column": jc,
                              "annotator_column": c, "kappa": k0, "kappa_quadratic": kq, "n_items": int(ok.sum()),
                              "n_skipped": int((~ok).sum()), "labels": labels})
            # calibration, where the judge gives probabilities
            fx = x[np.isfinite(x)]
            if not fx.size or fx.min() < 0 or fx.max() > 1:
                continue
            fy = y[np.isfinite(y)]
            if label_threshold is not None:
                lab, lab_name = np.where(np.isnan(y), np.nan, (y >= label_threshold).astype(float)), \
                    f"{h} >= {label_threshold:g}"
            elif np.isin(fy, (0.0, 1.0)).all():
                lab, lab_name = y, h
            else:
                notes.append(f"judge {label!r} ({jc}) gives values in [0, 1] but {h!r} is not 0/1: no calibration "
                             "(pass a label threshold, --label-threshold T, to binarise it)")
                continue
            ok = ~(np.isnan(x) | np.isnan(lab))
            calib.append({"judge": label, "human": h, "judge_column": jc, "label": lab_name,
                          "ece": expected_calibration_error(x, lab, calibration_bins), "brier": brier_score(x, lab),
                          "n_bins": calibration_bins, "n_items": int(ok.sum()), "n_positive": int(lab[ok].sum())})
    if not calib:
        notes.append("no judge gives probabilities (all values in [0, 1]): no calibration rows")
    return JudgeAudit(pd.DataFrame(verbosity, columns=VERBOSITY_COLUMNS),
                      pd.DataFrame(pairs, columns=CLOSE_PAIRS_COLUMNS),
                      pd.DataFrame(kappa, columns=KAPPA_COLUMNS), pd.DataFrame(calib, columns=CALIBRATION_COLUMNS),
                      list(dict.fromkeys(notes)))
