"""The levels part of the study ``metric_correlations``: every row of its part (a) correlated at the
input, system and global levels (:func:`level_correlations`), and every level for the explorer
(:func:`all_levels`). The study module :mod:`sumeval.studies.metric_correlations` hands them to its notebook.
"""
from __future__ import annotations

import pandas as pd

from sumeval.errors import InputError

__all__ = ["LEVEL_NAMES", "level_correlations", "all_levels"]

#: the levels of :func:`level_correlations` -> the label :func:`all_levels` gives each (the explorer's
#: older words: paper 000's "summary level" is global, "document" the input level)
LEVEL_NAMES = {"input": "document", "system": "system", "global": "summary"}
_COLUMNS = ["metric", "human", "level", "method", "value", "ci_low", "ci_high", "n", "n_skipped"]


def level_correlations(part, *, methods=("spearman", "kendall_b"), n_resamples: int = 0,
                       seed: int = 0) -> tuple[pd.DataFrame, list[str]]:
    """Every row of ``part`` (:class:`sumeval.studies.common.baseline_tables.Part`) at the **input**
    level (per document across its systems, then averaged: SummEval's "summary level"), the
    **system** level (per-system means) and the **global** level (all pairs pooled: paper 000's
    "summary level").

    A level the data set cannot support for a human column (:func:`sumeval.datasets.judgments_model.check_level`:
    fewer than 3 systems; a document with a single system; a level its ``limits`` rule out) is left
    out for that column, and the reason returned (XSumFaith: the input level for ``factuality``
    only, whose scores leave a document with one system).

    Returns:
        ``(frame, skipped)``: ``metric, human, level (input | system | global), method, value,
        ci_low, ci_high, n, n_skipped`` (document-bootstrap intervals; one resample set from
        ``seed``), in the nesting order metric, human, level, method; and one line per level left
        out (for some or all human columns).
    """
    from sumeval import stats
    from sumeval.datasets.judgments_model import check_level

    ok: dict[str, list[str]] = {}
    skipped = []
    for level in LEVEL_NAMES:
        good, why = [], {}
        for h in part.humans:
            try:
                check_level(part.judgments, level, h)
                good.append(h)
            except InputError as exc:
                why[h] = str(exc)
        if why:
            which = f" for {', '.join(why)}" if good else ""
            skipped.append(f"{level} level left out{which}: {next(iter(why.values()))}")
        if good:
            ok[level] = good
    if not ok:
        return pd.DataFrame(columns=_COLUMNS), skipped
    if all(hs == list(part.humans) for hs in ok.values()):  # one call, every level: as the study always ran
        out = stats.correlate(part.scored, part.metrics, part.humans, level=list(ok),
                              methods=methods, n_resamples=n_resamples, seed=seed)
    else:
        out = pd.concat([stats.correlate(part.scored, part.metrics, hs, level=lv, methods=methods,
                                         n_resamples=n_resamples, seed=seed) for lv, hs in ok.items()],
                        ignore_index=True)
        order = {k: {v: i for i, v in enumerate(vals)} for k, vals in
                 (("metric", part.metrics), ("human", part.humans), ("level", list(ok)),
                  ("method", list(methods)))}
        out = out.sort_values(list(order), key=lambda col: col.map(order[col.name]), kind="mergesort")
        out = out.reset_index(drop=True)
    return out, skipped


def all_levels(scored: pd.DataFrame, metrics: list[str], humans: list[str], *,
               methods=("pearson", "spearman", "kendall_b", "kendall_c"), n_resamples: int = 0,
               seed: int = 0) -> pd.DataFrame:
    """Correlations at every level, for the explorer: global, input and system, labelled as
    :data:`LEVEL_NAMES` (summary, document, system)."""
    from sumeval import stats

    frames = [stats.correlate(scored, metrics, humans, level=level, methods=methods, n_resamples=n_resamples,
                              seed=seed).assign(level=LEVEL_NAMES[level])
              for level in ("global", "input", "system")]
    return pd.concat(frames, ignore_index=True)
