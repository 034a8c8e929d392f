"""Close system pairs and statistically tied systems: where a system-level correlation says little.

A system-level correlation over all pairs of systems is carried by the pairs far apart; a paper
compares close ones (Deutsch, Dror & Roth 2022, "Re-Examining System-Level Correlations of Automatic
Summarization Evaluation Metrics", NAACL, Sec. 5; "The Progress Illusion", Findings of EMNLP 2025).

- :func:`close_pairs`: the agreement of each measure with each human column on the system pairs
  binned by the humans' difference (closest / middle / farthest third), with a document-bootstrap
  interval (:func:`sumeval.stats.pairwise.close_pair_agreement`, run here on the rows in a canonical
  order, so that the result does not depend on the order of the rows).
- :func:`rank_intervals`: each system's rank by a column (a human column or a measure) and its
  bootstrap percentile interval over resampled inputs (Hall & Miller 2009, "Using the bootstrap to
  quantify the authority of an empirical ranking", Ann. Statist. 37(6B), Sec. 2: the distribution of
  the bootstrap ranks); systems whose intervals overlap are not told apart by the data
  (``tied_with``).

Both draw their resamples over the inputs sorted by id (and systems sorted by id), never in the
order the rows come in: shuffling the rows changes nothing.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from sumeval.errors import InputError
from sumeval.stats.checks import check_boot, check_columns, check_frame, frame_column, names, seed_record
from sumeval.stats.layout import frame_layout
from sumeval.stats.levels import system_means
from sumeval.stats.pairwise import CLOSE_PAIR_COLUMNS, close_pair_agreement
from sumeval.stats.resampling import percentile_interval, resample_indices

__all__ = ["RANK_INTERVAL_COLUMNS", "canonical_order", "close_pairs", "rank_intervals"]

RANK_INTERVAL_COLUMNS = ["column", "system", "mean", "rank", "rank_low", "rank_high", "tied_with", "n_inputs",
                         "n_resamples", "n_resamples_used", "seed"]


def canonical_order(frame: pd.DataFrame, doc_col: str = "doc_id", system_col: str = "system") -> pd.DataFrame:
    """The rows sorted by (input id, system id), compared as text: the order every resample refers to."""
    check_frame(frame)
    check_columns(frame, [doc_col, system_col], "id")
    order = np.lexsort((frame[system_col].astype(str).to_numpy(), frame[doc_col].astype(str).to_numpy()))
    return frame.iloc[order].reset_index(drop=True)


def close_pairs(frame: pd.DataFrame, metrics: str | Sequence[str], humans: str | Sequence[str], *,
                n_bins: int = 3, n_resamples: int = 1000, ci: float = 0.95, seed: int = 0,
                doc_col: str = "doc_id", system_col: str = "system") -> pd.DataFrame:
    """Pairwise agreement on close and distant system pairs, for every (measure, human column).

    :func:`~sumeval.stats.pairwise.close_pair_agreement` for each human column, on the rows in
    :func:`canonical_order`; its columns (:data:`~sumeval.stats.pairwise.CLOSE_PAIR_COLUMNS`).
    """
    ordered = canonical_order(frame, doc_col, system_col)
    parts = [close_pair_agreement(ordered, metrics, h, n_bins=n_bins, doc_col=doc_col, system_col=system_col,
                                  n_resamples=n_resamples, ci=ci, seed=seed) for h in names(humans, "human columns")]
    return pd.concat(parts, ignore_index=True)[CLOSE_PAIR_COLUMNS]


def _ranks(means: np.ndarray) -> np.ndarray:
    """(B, n_systems) means -> ranks, 1 = highest, ties averaged; NaN means get NaN ranks (the others
    ranked among themselves)."""
    out = np.full(means.shape, np.nan)
    for b, row in enumerate(means):
        ok = np.isfinite(row)
        out[b, ok] = rankdata(-row[ok], method="average")
    return out


def rank_intervals(frame: pd.DataFrame, columns: str | Sequence[str], *, n_resamples: int = 1000,
                   ci: float = 0.95, seed: int = 0, doc_col: str = "doc_id",
                   system_col: str = "system") -> pd.DataFrame:
    """Each system's rank by each column, with a bootstrap interval over the inputs (module docstring).

    A system's mean is over the rows where the column is present (the rows are in
    :func:`canonical_order` first); its rank is 1 for the highest mean, tied means sharing the average
    rank (means equal as numbers are made exactly equal first, :func:`~sumeval.stats.ties.snap_ties`).
    Each of ``n_resamples`` resamples draws the inputs with replacement
    (:func:`~sumeval.stats.resample_indices`, ``inputs``), recomputes every system's mean and ranks
    them; the interval is the percentile interval of the system's bootstrap ranks (``ci`` coverage,
    :func:`~sumeval.stats.resampling.percentile_interval`), over the resamples where it has a mean.

    Args:
        frame: one row per (input, system) pair.
        columns: the columns to rank systems by (human columns and measures; higher is better).
        n_resamples: bootstrap resamples (>= 1); ci: coverage; seed: the draws (one set for every column).

    Returns:
        :data:`RANK_INTERVAL_COLUMNS`, one row per (column, system), systems by rank: ``mean``,
        ``rank``, ``rank_low``, ``rank_high``, ``tied_with`` (the other systems whose interval overlaps
        this one's, by id, ``; ``-separated: not told apart), ``n_inputs`` (inputs with a value). A system
        without any value of the column has NaN mean and ranks and is listed last.
    """
    cols = names(columns, "columns")
    check_columns(frame, cols, "ranked")
    check_boot(n_resamples, ci)
    if not n_resamples:
        raise InputError("rank intervals need bootstrap resamples: n_resamples >= 1")
    ordered = canonical_order(frame, doc_col, system_col)
    lay = frame_layout(ordered, doc_col, system_col, need_systems=True)
    systems = pd.factorize(ordered[system_col])[1]
    counts = resample_indices(lay.n_sys, lay.n_docs, "inputs", int(n_resamples), seed).input_counts()
    ones = np.ones((1, lay.n_docs))
    rows = []
    for c in cols:
        g = lay.grid(frame_column(ordered, c))
        mean = system_means(g, g, ones)[0][0]
        boot = _ranks(system_means(g, g, counts)[0])
        rank = _ranks(mean[None])[0]
        used = np.isfinite(boot).sum(axis=0)
        low, high = np.array([percentile_interval(boot[:, s], ci) for s in range(lay.n_sys)]).reshape(-1, 2).T
        n_inputs = (~np.isnan(g)).sum(axis=0)
        order = sorted(range(lay.n_sys), key=lambda s: (np.isnan(rank[s]), rank[s], str(systems[s])))
        for s in order:
            tied = sorted(str(systems[t]) for t in range(lay.n_sys) if t != s and np.isfinite(low[s])
                          and np.isfinite(low[t]) and low[t] <= high[s] and low[s] <= high[t])
            rows.append({"column": c, "system": systems[s], "mean": float(mean[s]), "rank": float(rank[s]),
                         "rank_low": float(low[s]), "rank_high": float(high[s]), "tied_with": "; ".join(tied),
                         "n_inputs": int(n_inputs[s]), "n_resamples": int(n_resamples),
                         "n_resamples_used": int(used[s]), "seed": seed_record(seed)})
    return pd.DataFrame(rows, columns=RANK_INTERVAL_COLUMNS)
