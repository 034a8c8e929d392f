"""Does a measure rank the better of two summaries first? Ranking accuracy on a pairwise set.

Falke et al. (2019, ACL), "Ranking Generated Summaries by Correctness", pair each source sentence
with a correct and an incorrect summary sentence and judge a measure by how often it scores the
correct one higher; BARTScore (Yuan, Neubig & Liu 2021) reports the same accuracy on the 373 pairs of
the shelf's ``rank19`` (neulab/BARTScore ``analysis.py``, ``SUMStat.get_fact_acc``: a pair counts
when the correct sentence's score is strictly greater). Here, generally: a *pairwise set* has exactly two
summaries per document with different
human scores; per pair ``i`` with the better summary ``b`` and the other ``w``

    c_i = 1 if m(b) > m(w);  0 if m(b) < m(w);  on a tie (m(b) = m(w)) 0 (``ties="wrong"``, as
          BARTScore's strict ``>``) or 1/2 (``ties="half"``);  undefined when m is NaN on either,

and the **ranking accuracy** is ``acc = (1/n) sum_i c_i`` over the n pairs where c_i is defined.

- Interval: percentile bootstrap over pairs: ``B`` resamples of the n pairs drawn with replacement
  (``numpy.random.default_rng(seed).integers(0, n, size=(B, n))``, the same draws for every
  measure), each resample's accuracy the mean of its defined c_i; the interval is the (1 - ci)/2
  and (1 + ci)/2 quantiles, linearly interpolated (:func:`sumeval.stats.resampling.percentile_interval`).
- Test of two measures A and B (paired permutation test, the pairs' analogue of Deutsch et al.
  2021's PERM-INPUTS): d = acc_A - acc_B over the pairs both define; each permutation swaps A's and
  B's c_i on a random half of the pairs (``rng.random((B, n)) < 0.5``, the same draws for every pair
  of measures), so d* = (1/n) sum_i s_i (c_Ai - c_Bi) with s_i = -1 where swapped; two-sided
  ``p_raw = #{|d*| >= |d|} / B`` (1e-12 tolerance), reported as ``p_value = (#{...} + 1) / (B + 1)``,
  the resampling floor of :func:`sumeval.stats.compare_measures` (Phipson & Smyth 2010). The difference's
  95% interval resamples the pairs both define (percentile bootstrap, drawn after the signs).
  ``p_raw`` is Holm- or BH-adjusted over every pair of measures (never below ``p_value``:
  :func:`sumeval.stats.multiple.adjust_resampled`), and the significance clusters are
  :func:`sumeval.stats.significance_clusters`' (mt-metrics-eval's ranking).

The set's system and global levels mean nothing here (``correct`` / ``incorrect`` are labels), so
this is the pairwise set's one figure of merit (:mod:`sumeval.meta_eval.across` uses it for
``rank19``). With ``epsilon=0`` and ``grouping="none"``, acc23 of :mod:`sumeval.stats.item_pairwise`
equals this accuracy with ``ties="wrong"`` (a metric tie is then wrong, the human never ties).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_columns, check_count, check_frame, frame_column, names, seed_record

__all__ = ["TIES", "pair_correctness", "ranking_accuracy", "compare_ranking_accuracy", "ACCURACY_COLUMNS"]

TIES: tuple[str, ...] = ("wrong", "half")
_TOLERANCE = 1e-12
ACCURACY_COLUMNS = ["measure", "human", "accuracy", "ci_low", "ci_high", "n", "n_ties", "n_undefined", "ties",
                    "n_resamples", "seed"]


def _pairs(frame: pd.DataFrame, human: str, doc_col: str) -> tuple[np.ndarray, np.ndarray, list]:
    """Row positions ``(better, worse)`` (each shape (n_pairs,)) and the documents, in order of first
    appearance; an InputError names a document without exactly two summaries with different scores."""
    check_frame(frame)
    check_columns(frame, [doc_col], "documents, doc_col")
    check_columns(frame, [human], "human")
    h = frame_column(frame, human)
    docs = list(pd.unique(frame[doc_col]))
    rows = pd.Series(np.arange(len(frame))).groupby(frame[doc_col].to_numpy(), sort=False).agg(list)
    better, worse = [], []
    for d in docs:
        r = rows[d]
        if len(r) != 2:
            raise InputError(f"document {d!r} has {len(r)} summaries; a pairwise set has exactly 2 per document "
                             "(a better and a worse one)")
        a, b = h[r[0]], h[r[1]]
        if np.isnan(a) or np.isnan(b) or a == b:
            raise InputError(f"document {d!r}: human scores {float(a)!r} and {float(b)!r} in column {human!r} "
                             "do not say which "
                             "summary is better; a pairwise set needs two different scores per document")
        better.append(r[0] if a > b else r[1])
        worse.append(r[1] if a > b else r[0])
    return np.asarray(better), np.asarray(worse), docs


def pair_correctness(frame: pd.DataFrame, metric: str, human: str, *, ties: str = "wrong",
                     doc_col: str = "doc_id") -> np.ndarray:
    """c_i of the module docstring for every pair: shape (n_pairs,), 1, 0 (or 0.5 on a tie with
    ``ties="half"``), NaN where the measure has no score on either summary."""
    better, worse = _pairs(frame, human, doc_col)[:2]
    return _correctness(frame, metric, better, worse, ties)


def _correctness(frame: pd.DataFrame, metric: str, better: np.ndarray, worse: np.ndarray, ties: str) -> np.ndarray:
    if ties not in TIES:
        raise InputError(f"ties={ties!r} is unknown; choose one of {', '.join(TIES)}")
    check_columns(frame, [metric], "metric")
    m = frame_column(frame, metric)
    mb, mw = m[better], m[worse]
    c = np.where(mb > mw, 1.0, np.where(mb < mw, 0.0, 0.0 if ties == "wrong" else 0.5))
    c[np.isnan(mb) | np.isnan(mw)] = np.nan
    return c


def _resampled_means(c: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(B,) mean of the defined c over each row of resample indices ``idx`` (B, n)."""
    drawn = c[idx]
    ok = ~np.isnan(drawn)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, drawn, 0.0).sum(axis=1) / ok.sum(axis=1)


def ranking_accuracy(frame: pd.DataFrame, metrics: str | Sequence[str], human: str, *, ties: str = "wrong",
                     n_resamples: int = 1000, seed: int | np.random.Generator = 0, ci: float = 0.95,
                     doc_col: str = "doc_id") -> pd.DataFrame:
    """Ranking accuracy of each measure with its bootstrap interval over pairs (module docstring).

    Args:
        frame: two rows per document (a pairwise set), the ``human`` column saying which is better.
        metrics: measure column(s), higher is better.
        ties: ``"wrong"`` (BARTScore's rule) or ``"half"``.
        n_resamples: bootstrap resamples B (the same draws for every measure); seed: their seed.
        ci: the interval's coverage.

    Returns:
        One row per measure: :data:`ACCURACY_COLUMNS` (``n`` the pairs with a defined c_i,
        ``n_ties`` the tied ones among them, ``n_undefined`` the others).
    """
    from sumeval.stats.resampling import percentile_interval

    metric_names = names(metrics, "metric columns")
    B = check_count(n_resamples, "n_resamples", 1)
    if not 0 < ci < 1:
        raise InputError(f"ci must be between 0 and 1 (e.g. 0.95), got {ci!r}")
    better, worse, _ = _pairs(frame, human, doc_col)
    n = len(better)
    idx = np.random.default_rng(seed).integers(0, n, size=(B, n))
    rows = []
    for mc in metric_names:
        c = _correctness(frame, mc, better, worse, ties)
        ok = ~np.isnan(c)
        m = frame_column(frame, mc)
        tied = ok & (m[better] == m[worse])
        acc = float(c[ok].mean()) if ok.any() else float("nan")
        lo, hi = percentile_interval(_resampled_means(c, idx), ci) if ok.any() else (float("nan"), float("nan"))
        rows.append({"measure": mc, "human": human, "accuracy": acc, "ci_low": lo, "ci_high": hi, "n": int(ok.sum()),
                     "n_ties": int(tied.sum()), "n_undefined": int((~ok).sum()), "ties": ties, "n_resamples": B,
                     "seed": seed_record(seed)})
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS)


def compare_ranking_accuracy(frame: pd.DataFrame, metrics: Sequence[str], human: str, *, ties: str = "wrong",
                             n_resamples: int = 1000, seed: int | np.random.Generator = 0,
                             correction: str = "holm", level: str = "input",
                             doc_col: str = "doc_id") -> pd.DataFrame:
    """Paired permutation test of every pair of measures' ranking accuracies (module docstring),
    p-values corrected over the pairs.

    Returns:
        The columns of :func:`sumeval.stats.compare_measures` (``coefficient`` ``"accuracy"``,
        ``test`` ``"permutation"``, ``resampling`` ``"pairs"``, ``corr_a`` / ``corr_b`` each
        measure's own accuracy, ``diff`` and ``n`` over the pairs both define, ``level`` as given), so that
        :func:`sumeval.stats.significance_clusters` ranks them.
    """
    from sumeval.stats.multiple import COMPARE_COLUMNS, adjust_resampled
    from sumeval.stats.resampling import percentile_interval

    metric_names = names(metrics, "metric columns")
    if len(metric_names) < 2 or len(set(metric_names)) != len(metric_names):
        raise InputError(f"compare_ranking_accuracy needs at least 2 distinct measures, got {metric_names}")
    B = check_count(n_resamples, "n_resamples", 1)
    better, worse, _ = _pairs(frame, human, doc_col)
    c = {mc: _correctness(frame, mc, better, worse, ties) for mc in metric_names}
    own = {mc: float(np.nanmean(v)) if (~np.isnan(v)).any() else float("nan") for mc, v in c.items()}
    n = len(better)
    rng = np.random.default_rng(seed)
    sign = np.where(rng.random((B, n)) < 0.5, -1.0, 1.0)
    rows = []
    for i, a in enumerate(metric_names):
        for b in metric_names[i + 1:]:
            ok = ~(np.isnan(c[a]) | np.isnan(c[b]))
            k = int(ok.sum())
            note = ""
            if k == 0:
                d = p = p_raw = lo = hi = float("nan")
                note = f"no pair of documents has a score of both {a!r} and {b!r}"
            else:
                diff = np.where(ok, c[a] - c[b], 0.0)
                d = float(diff.sum() / k)
                null = sign @ diff / k
                count = int(np.sum(np.abs(null) >= abs(d) - _TOLERANCE))
                # p as sumeval.stats.compare_measures: the floor (count + 1) / (B + 1), count / B as p_raw
                p, p_raw = (count + 1) / (B + 1), count / B
                # the difference's interval: the pairs both define, resampled (percentile bootstrap)
                both = np.flatnonzero(ok)
                # (drawn after every sign, so the p-values do not depend on the intervals' draws)
                lo, hi = percentile_interval(diff[both][rng.integers(0, k, size=(B, k))].mean(axis=1), 0.95)
            rows.append({"measure_a": a, "measure_b": b, "human": human, "level": level, "coefficient": "accuracy",
                         "test": "permutation", "resampling": "pairs", "alternative": "two-sided", "corr_a": own[a],
                         "corr_b": own[b], "diff": d, "ci_low": lo, "ci_high": hi, "p_value": p, "p_raw": p_raw,
                         "correction": correction, "n": k, "n_rows": k, "n_resamples": B, "n_resamples_used": B,
                         "seed": seed_record(seed), "note": note})
    out = pd.DataFrame(rows)
    out["p_adjusted"] = adjust_resampled(out["p_raw"].to_numpy(float), out["p_value"].to_numpy(float), correction)
    return out[COMPARE_COLUMNS]
