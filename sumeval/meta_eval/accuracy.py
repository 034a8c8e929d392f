"""Pairwise accuracy in a meta-evaluation: ``pairwise_accuracy.csv`` and the ranking by SPA.

Per measure x human column (:func:`accuracy_rows`), computed by :mod:`sumeval.stats` and
:mod:`sumeval.judges` (nothing is re-implemented here):

- **system level, acc23 with tie calibration** (``accuracy``, ``epsilon``; Deutsch et al. 2023,
  :func:`sumeval.stats.pairwise_accuracy`): the threshold is tuned on the same systems, so the value
  is ``optimistic``;
- **soft pairwise accuracy** (``spa``, ``spa_ci_low``, ``spa_ci_high``; Thompson et al. 2024, WMT24;
  :func:`sumeval.stats.soft_pairwise.soft_pairwise_accuracy`, equal to mt-metrics-eval's ``pce.py`` where
  scores do not tie, exact where they do),
  from the item-level scores of the items every system has, with a bootstrap interval over items;
- **plain system pairwise accuracy** (``plain_accuracy``, ``plain_ci_low``, ``plain_ci_high``; Kocmi et
  al. 2021) with its **chance baseline** (``chance``, ``chance_p``: the measure's scores permuted among
  the systems within each item; :func:`sumeval.stats.soft_pairwise.system_pairwise_accuracy`);
- with ``item_acc23``, **item-level acc23 with tie calibration** (rows of level ``item``;
  :func:`sumeval.stats.item_pairwise.item_pairwise_accuracy`, grouped by item as WMT23): the
  threshold tuned on a separate split of documents (``tune_split``: a file of document ids, or
  ``validation``, a random share of the documents) and applied to the others, else tuned on the test
  data and flagged ``optimistic``.

:func:`spa_tests` tests every pair of measures' SPA as mt-metrics-eval does
(:func:`sumeval.stats.spa_test.spa_permutation_test`), one-sided in the direction of the observed
order, p-values corrected within each human column; :func:`spa_values` gives the values the ranking
by SPA ranks (``--meta-metric spa``).
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = ["ACCURACY_COLUMNS", "accuracy_rows", "tune_documents", "spa_tests", "spa_values",
           "spa_ranking", "SPA"]

#: the ``coefficient`` of SPA rows in ``ranking.csv`` and ``pairwise.csv``
SPA = "spa"
ACCURACY_COLUMNS = ["measure", "human", "level", "accuracy", "epsilon", "calibrated", "optimistic", "n_systems",
                    "n_pairs", "n_human_ties", "spa", "spa_ci_low", "spa_ci_high", "plain_accuracy", "plain_ci_low",
                    "plain_ci_high", "chance", "chance_p", "n_items", "n_items_dropped", "n_permutations",
                    "perm_seed", "n_resamples", "seed", "grouping", "tuned_on", "n_tune_items", "tune_accuracy",
                    "role", "target", "note"]
#: pce.py's seed of the permutation signs
PERM_SEED = 4
_SYSTEM_NOTE = "acc23's tie threshold tuned on these same systems: optimistic (Deutsch et al. 2023)"


def _acc23_rows(frame: pd.DataFrame, metrics: Sequence[str], human: str, notes: list[str]) -> dict[str, dict]:
    from sumeval import stats

    out = {}
    for m in metrics:
        try:
            r = stats.pairwise_accuracy(frame, [m], human, calibrate=True).iloc[0].to_dict()
        except InputError as exc:  # e.g. fewer than 2 systems with both values
            notes.append(f"pairwise accuracy of {m!r} against {human!r} not computed: {exc}")
            continue
        out[m] = {k: r[k] for k in ("accuracy", "epsilon", "calibrated", "n_systems", "n_pairs", "n_human_ties")}
    return out


def _per_metric(fn, metrics: Sequence[str], notes: list[str], what: str, human: str) -> pd.DataFrame:
    """``fn(metrics)``; when it refuses the measures together (one has no complete item), each alone, with a note
    for the ones refused."""
    try:
        return fn(list(metrics))
    except InputError:
        parts = []
        for m in metrics:
            try:
                parts.append(fn([m]))
            except InputError as exc:
                notes.append(f"{what} of {m!r} against {human!r} not computed: {exc}")
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["metric"])


def system_rows(frame: pd.DataFrame, metrics: Sequence[str], human: str, s, notes: list[str], *,
                boot: bool = False) -> pd.DataFrame:
    """The system-level rows of ``metrics`` against the column ``human`` (module docstring).

    Returns:
        :data:`ACCURACY_COLUMNS` (``measure`` = the metric column, ``human`` = ``human``), and with
        ``boot`` the columns ``spa_boot`` and ``plain_boot`` (each (n_resamples,) replicates, or None).
    """
    from sumeval.stats.soft_pairwise import soft_pairwise_accuracy, system_pairwise_accuracy

    acc = _acc23_rows(frame, metrics, human, notes)
    kw = dict(n_resamples=s.n_resamples, ci=s.ci, seed=s.seed, return_boot=True)
    spa = pd.DataFrame(columns=["metric"])
    if s.spa:
        spa = _per_metric(lambda ms: soft_pairwise_accuracy(frame, ms, human, n_permutations=s.spa_permutations,
                                                            perm_seed=PERM_SEED, **kw),
                          metrics, notes, "soft pairwise accuracy", human)
    plain = _per_metric(lambda ms: system_pairwise_accuracy(frame, ms, human, n_chance=s.n_resamples, **kw),
                        metrics, notes, "system pairwise accuracy", human)
    spa, plain = spa.set_index("metric"), plain.set_index("metric")
    rows = []
    for m in metrics:
        if m not in acc and m not in spa.index and m not in plain.index:
            continue
        r: dict[str, Any] = {"measure": m, "human": human, "level": "system", **acc.get(m, {}),
                             "optimistic": m in acc, "note": _SYSTEM_NOTE if m in acc else math.nan}
        if m in spa.index:
            x = spa.loc[m]
            r.update(spa=x["spa"], spa_ci_low=x["ci_low"], spa_ci_high=x["ci_high"], n_items=x["n_items"],
                     n_items_dropped=x["n_items_dropped"], n_permutations=x["n_permutations"],
                     perm_seed=x["perm_seed"], spa_boot=x["boot"])
        if m in plain.index:
            x = plain.loc[m]
            r.update(plain_accuracy=x["accuracy"], plain_ci_low=x["ci_low"], plain_ci_high=x["ci_high"],
                     chance=x["chance"], chance_p=x["chance_p"], n_items=x["n_items"],
                     n_items_dropped=x["n_items_dropped"], plain_boot=x["boot"])
        r.update(n_resamples=s.n_resamples, seed=s.seed)
        rows.append(r)
    extra = ["spa_boot", "plain_boot"] if boot else []
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS + extra)


def item_rows(frame: pd.DataFrame, metrics: Sequence[str], human: str, tune_docs: Sequence | None,
              notes: list[str]) -> pd.DataFrame:
    """The item-level acc23 rows of ``metrics`` against ``human`` (tuned on ``tune_docs`` when given)."""
    from sumeval.stats.item_pairwise import item_pairwise_accuracy

    try:
        out = item_pairwise_accuracy(frame, list(metrics), human, grouping="item", tune_docs=tune_docs)
    except InputError as exc:
        notes.append(f"item-level pairwise accuracy against {human!r} not computed: {exc}")
        return pd.DataFrame(columns=ACCURACY_COLUMNS)
    out = out.rename(columns={"metric": "measure"})
    out["calibrated"] = True
    out["n_systems"] = frame["system"].nunique()
    out["note"] = [("threshold tuned on the test data itself: optimistic (Deutsch et al. 2023); --tune-split "
                    "tunes it on other documents") if t == "test data"
                   else f"threshold tuned on the tune split ({k} documents), reported on the other documents"
                   for t, k in zip(out["tuned_on"], out["n_tune_items"])]
    return out.reindex(columns=ACCURACY_COLUMNS)


def accuracy_rows(frame: pd.DataFrame, labels: Sequence[str], s, notes: list[str],
                  tune_docs: Sequence | None) -> pd.DataFrame:
    """``pairwise_accuracy.csv``'s rows of the measures (``labels``) for every human column of ``s``: system
    level (when the data has at least 3 systems) and, with ``s.item_acc23``, item level."""
    parts = []
    for h in s.humans:
        if frame["system"].nunique() >= 3:
            parts.append(system_rows(frame, labels, h, s, notes))
        if s.item_acc23:
            parts.append(item_rows(frame, labels, h, tune_docs, notes))
    parts = [p for p in parts if len(p)]
    if not parts:
        return pd.DataFrame(columns=ACCURACY_COLUMNS)
    out = pd.concat(parts, ignore_index=True)
    out["role"] = "measure"
    out["target"] = out["human"]
    return out[ACCURACY_COLUMNS]


def tune_documents(judgments, s) -> list | None:
    """The documents item-level acc23 tunes its threshold on (``s.tune_split``), or None (tuned on the test data).

    ``validation``: a random share ``s.detection_validation`` (``--validation``) of the documents, drawn with
    ``s.seed``; a file: one document id per line (blank lines and lines starting with ``#`` skipped).

    Raises:
        InputError: naming the file and line of an id the data set lacks, or a split that leaves no document
            to tune on or none to evaluate.
    """
    if not s.item_acc23 or s.tune_split is None:
        return None
    docs = list(pd.unique(judgments.frame["doc_id"]))
    if len(docs) < 2:
        raise InputError(f"--tune-split needs at least 2 documents (some to tune on, some to evaluate); data set "
                         f"{judgments.name!r} has {len(docs)}")
    if s.tune_split == "validation":
        k = min(max(int(round(s.detection_validation * len(docs))), 1), len(docs) - 1)
        chosen = np.sort(np.random.default_rng(s.seed).choice(len(docs), size=k, replace=False))
        return [docs[i] for i in chosen]
    path = Path(s.tune_split)
    by_text = {str(d): d for d in docs}
    tune = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text not in by_text:
            shown = ", ".join(map(repr, list(by_text)[:5])) + (" ..." if len(by_text) > 5 else "")
            raise InputError(f"{path}:{lineno}: document {text!r} is not in data set {judgments.name!r} (its "
                             f"documents: {shown}); --tune-split FILE lists one document id per line")
        tune.append(by_text[text])
    tune = list(dict.fromkeys(tune))
    if not tune or len(tune) == len(docs):
        raise InputError(f"--tune-split {str(path)!r} lists {len(tune)} of the {len(docs)} documents of "
                         f"{judgments.name!r}; list some to tune the threshold on and leave some to evaluate")
    return tune


def spa_values(accuracy: pd.DataFrame) -> pd.DataFrame:
    """The SPA of every system-level row as a ranking's values: ``measure, human, level, coefficient, value,
    reason, role``."""
    sub = accuracy[accuracy["level"] == "system"] if len(accuracy) else accuracy
    out = pd.DataFrame({"measure": sub["measure"], "human": sub["human"], "level": "system", "coefficient": SPA,
                        "value": sub["spa"].astype(float), "role": sub["role"]}).reset_index(drop=True)
    out["reason"] = np.where(out["value"].isna(), "soft pairwise accuracy not computed (see the notes)", None)
    out["reason"] = out["reason"].where(out["value"].isna(), math.nan)
    return out


def spa_tests(frame: pd.DataFrame, labels: Sequence[str], s, values: pd.DataFrame,
              progress: bool = False) -> pd.DataFrame:
    """Every pair of measures' SPA tested (mt-metrics-eval's permutation test; module docstring), per human column.

    The test of a pair is one-sided for the measure whose SPA in ``values`` (the ranking's) is higher
    (``alternative`` ``greater`` for ``measure_a``, ``less`` for ``measure_b``), as mt-metrics-eval tests the
    higher-ranked metric;
    ``p_value`` floored, (count + 1) / (K + 1), ``p_raw`` count / K (mt-metrics-eval's), corrected within each
    human column by ``s.correction`` as the other tests: ``p_adjusted = max(adjust(p_raw), p_value)``
    (:func:`sumeval.stats.multiple.adjust_resampled`). A pair where either SPA is undefined is not
    tested (``note``).

    Returns:
        ``pairwise.csv``'s columns with ``level`` ``system``, ``coefficient`` ``spa``, ``test``
        ``spa-permutation``, ``resampling`` ``cells``.
    """
    from sumeval.stats.multiple import COMPARE_COLUMNS, adjust_resampled
    from sumeval.stats.resampling import progress_bar
    from sumeval.stats.spa_test import spa_permutation_test

    spa = {(r.measure, r.human): r.value for r in values.itertuples() if np.isfinite(r.value)}
    pairs = [(h, a, b) for h in s.humans for i, a in enumerate(labels) for b in labels[i + 1:]]
    present = {c: frame[c].notna().to_numpy() for c in [*labels, *s.humans]}
    rows = []
    for h, a, b in progress_bar(pairs, len(pairs), progress, "SPA tests"):
        base = {"measure_a": a, "measure_b": b, "human": h, "level": "system", "coefficient": SPA,
                "test": "spa-permutation", "resampling": "cells", "ci_low": math.nan, "ci_high": math.nan,
                "correction": s.correction, "n_rows": int((present[a] & present[b] & present[h]).sum()),
                "n_resamples": s.n_resamples, "seed": s.seed}
        if (a, h) not in spa or (b, h) not in spa:
            rows.append({**base, "alternative": "greater", "corr_a": math.nan, "corr_b": math.nan, "diff": math.nan,
                         "p_value": math.nan, "p_raw": math.nan, "n": 0, "n_resamples_used": 0,
                         "note": "not tested: the soft pairwise accuracy of a measure of the pair is undefined"})
            continue
        kw = dict(n_resamples=s.n_resamples, seed=s.seed, n_permutations=s.spa_permutations, perm_seed=PERM_SEED,
                  early_stop=s.early_stop)
        alternative = "greater" if spa[(a, h)] >= spa[(b, h)] else "less"
        r = spa_permutation_test(frame, a, b, h, alternative=alternative, **kw)
        dropped = (f"{r['n']} items used (those where every system has {a!r}, {b!r} and {h!r}; "
                   f"{r['n_items_dropped']} dropped)" if r["n_items_dropped"] else math.nan)
        rows.append({**base, "alternative": alternative, "corr_a": r["corr_a"], "corr_b": r["corr_b"],
                     "diff": r["diff"], "p_value": r["p_floor"], "p_raw": r["p_value"], "n": r["n"],
                     "n_resamples_used": r["n_resamples_used"], "note": dropped})
    out = pd.DataFrame(rows, columns=[c for c in COMPARE_COLUMNS if c != "p_adjusted"])
    out["p_adjusted"] = np.nan
    for _, idx in out.groupby("human", sort=False).groups.items():
        out.loc[idx, "p_adjusted"] = adjust_resampled(out.loc[idx, "p_raw"].to_numpy(float),
                                                      out.loc[idx, "p_value"].to_numpy(float), s.correction)
    return out[COMPARE_COLUMNS]


def spa_ranking(frame: pd.DataFrame, labels: Sequence[str], accuracy: pd.DataFrame, pairwise: pd.DataFrame,
                ranking: pd.DataFrame, s, progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``meta_metric`` ``spa``: the SPA tests (:func:`spa_tests`) added to ``pairwise``, the ranking by SPA
    (:func:`sumeval.meta_eval.ranking.rank` of :func:`spa_values`) to ``ranking``."""
    from sumeval.meta_eval.ranking import rank
    from sumeval.stats.multiple import COMPARE_COLUMNS

    values = spa_values(accuracy)
    tests = spa_tests(frame, labels, s, values[values["role"] == "measure"], progress) if len(labels) > 1 \
        else pd.DataFrame(columns=COMPARE_COLUMNS)
    ranked = rank(values, tests, s) if len(values) else ranking.iloc[:0]
    return (pd.concat([f for f in (pairwise, tests) if len(f)] or [pairwise], ignore_index=True),
            pd.concat([f for f in (ranking, ranked) if len(f)] or [ranking], ignore_index=True))
