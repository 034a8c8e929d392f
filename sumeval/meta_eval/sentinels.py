"""The sentinel rows of a meta-evaluation: cheap baselines beside the measures, never ranked (issue 32).

Each is a measure of :mod:`sumeval.metrics` (the same function scores it as a registered measure),
correlated with the human columns at the same levels and coefficients as the measures, and written
with role ``sentinel`` in ``correlations.csv`` and ``ranking.csv`` and as a block under the measures
in every table (:data:`sumeval.meta_eval.tables.SENTINELS_BLOCK`); never ranked, tested, clustered or
bold (``--no-sentinels`` leaves them out; a user who wants one ranked names it as a measure, e.g.
``--measures fragment-coverage``):

- :data:`LENGTH`: the summary's words (:mod:`sumeval.metrics.length`);
- :data:`COVERAGE`, :data:`DENSITY`: Grusky et al.'s (2018) extractive fragment coverage and density
  of the summary in its source, and :data:`BIGRAMS`, the share of its bigrams found in the source
  (:mod:`sumeval.metrics.sentinels`); only where the data has source texts;
- :data:`CONSTANT`: 0 for every summary; every correlation undefined (its ``reason`` says so): a
  number that a coefficient gives it would come from ties alone;
- :data:`RANDOM`: :func:`~sumeval.metrics.sentinels.random_scores` drawn :data:`RANDOM_DRAWS` times
  (draw k seeded ``seed * RANDOM_DRAWS + k``, ``seed`` the meta-evaluation's); its row's ``value`` is
  the mean correlation over the draws and ``ci_low`` / ``ci_high`` the central ``ci`` range of the
  draws' correlations (``resampling`` ``random draws``, ``n_resamples`` the draws): the noise floor.
  The draws are point correlations (no bootstrap of each).

The deterministic sentinels' intervals are the measures' bootstrap (the same resamples: the
measures' numbers do not depend on the sentinels).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.metrics.sentinels import (
    BIGRAMS,
    CONSTANT,
    COVERAGE,
    DENSITY,
    LENGTH,
    ORDER,
    RANDOM,
    RANDOM_DRAWS,
    RANDOM_RESAMPLING,
)

__all__ = ["LENGTH", "COVERAGE", "DENSITY", "BIGRAMS", "CONSTANT", "RANDOM", "ORDER", "RANDOM_DRAWS",
           "RANDOM_RESAMPLING", "sentinel_frame", "random_rows"]



def _texts(judgments, field: str) -> list | None:
    """The data set's ``field`` column as a list, or None where it has none (or names it in ``limits``)."""
    if field not in judgments.frame.columns or field in judgments.limits:
        return None
    return judgments.frame[field].tolist()


def _present(x) -> bool:
    return isinstance(x, str)


def sentinel_frame(judgments, notes: list[str]) -> pd.DataFrame:
    """The deterministic sentinels' scores, one column per label, aligned with ``judgments.frame`` (NaN where a
    summary is missing); empty (no columns) without summary texts. ``notes`` gets a line for what is left out."""
    from sumeval.judges.audit import summary_length
    from sumeval.metrics.sentinels import fragment_coverage, fragment_density, ngram_overlap

    summaries = _texts(judgments, "summary")
    if summaries is None:
        notes.append(f"no sentinels: data set {judgments.name!r} has no summary texts")
        return pd.DataFrame(index=range(len(judgments.frame)))
    out = pd.DataFrame(index=range(len(summaries)))
    out[LENGTH] = summary_length(summaries, f"data set {judgments.name!r}, column 'summary'")
    sources = _texts(judgments, "text")
    if sources is None:
        notes.append(f"no source-overlap sentinels (fragment coverage, density, bigram overlap): data set "
                     f"{judgments.name!r} has no source texts")
    else:
        pairs = list(zip(summaries, sources))
        for label, f in ((COVERAGE, fragment_coverage), (DENSITY, fragment_density),
                         (BIGRAMS, lambda s, t: ngram_overlap(s, t, 2))):
            out[label] = [f(s, t) if _present(s) and _present(t) else math.nan for s, t in pairs]
    out[CONSTANT] = np.where([_present(s) for s in summaries], 0.0, math.nan)
    return out


def random_rows(base: pd.DataFrame, summaries: Sequence, s, partial_control: str,
                columns: Sequence[str]) -> pd.DataFrame:
    """The random sentinel's rows (module docstring): ``base`` holds ``doc_id, system``, the human columns (and
    the partial level's control column); ``summaries`` the texts, aligned."""
    from sumeval import stats
    from sumeval.metrics.sentinels import random_scores

    present = np.array([_present(x) for x in summaries])
    texts = [x if ok else "" for x, ok in zip(summaries, present)]
    work = base.copy()
    draws = [f"{RANDOM} #{k}" for k in range(RANDOM_DRAWS)]
    work = pd.concat([work, pd.DataFrame({d: np.where(present, random_scores(texts, seed=s.seed * RANDOM_DRAWS + k),
                                                      np.nan) for k, d in enumerate(draws)}, index=work.index)],
                     axis=1)
    out = stats.correlate(work, draws, list(s.humans), level=list(s.levels), methods=list(s.coefficients),
                          n_resamples=0, partial_control=partial_control)
    lo, hi = 100 * (1 - s.ci) / 2, 100 * (1 + s.ci) / 2
    rows = []
    for (h, lv, c), g in out.groupby(["human", "level", "method"], sort=False):
        v = g["value"].to_numpy(float)
        ok = v[np.isfinite(v)]
        rows.append({"measure": RANDOM, "human": h, "level": lv, "coefficient": c,
                     "value": float(ok.mean()) if ok.size else math.nan,
                     "ci_low": float(np.percentile(ok, lo)) if ok.size else math.nan,
                     "ci_high": float(np.percentile(ok, hi)) if ok.size else math.nan,
                     "n": g["n"].iloc[0], "n_skipped": g["n_skipped"].iloc[0], "resampling": RANDOM_RESAMPLING,
                     "n_resamples": RANDOM_DRAWS, "seed": s.seed,
                     "reason": math.nan if ok.size else "undefined in every draw (too few items or systems)",
                     "role": "sentinel", "target": h})
    return pd.DataFrame(rows, columns=list(columns))
