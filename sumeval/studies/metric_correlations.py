"""Study ``metric_correlations``: the published ROUGE / BLEU / JS-2 rows of papers 000 and 001.

(a) Paper 000 Table 1: pooled summary-level Spearman and Kendall tau-c of ROUGE-1/2/3/L F and
    BLEU against the four SummEval expert qualities.
(b) Paper 001 Table 2: system-level Pearson, Spearman and Kendall tau-b of ROUGE-1-R, ROUGE-2-R,
    ROUGE-L-F and JS-2 against REALSumm LitePyramid recall.

Every function returns tidy frames; the notebook only draws and shows them.
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from sumeval import published
from sumeval.cache import Store, cache_key

QUALITIES = ("consistency", "relevance", "coherence", "fluency")

# paper row -> (measure, column, sign); sign -1 for measures where lower is better
TABLE1_ROWS: Mapping[str, tuple[str, str, int]] = {
    "ROUGE-1": ("rouge-1", "rouge-1-f", 1),
    "ROUGE-2": ("rouge-2", "rouge-2-f", 1),
    "ROUGE-3": ("rouge-3", "rouge-3-f", 1),
    "ROUGE-L": ("rouge-l", "rouge-l-f", 1),
    "BLEU": ("bleu", "bleu", 1),
}
TABLE2_ROWS: Mapping[str, tuple[str, str, int]] = {
    "ROUGE-1-R": ("rouge-1", "rouge-1-r", 1),
    "ROUGE-2-R": ("rouge-2", "rouge-2-r", 1),
    "ROUGE-L-F": ("rouge-l", "rouge-l-f", 1),
    "JS-2": ("js-2", "js-2", -1),
}


def score_pairs(frame: pd.DataFrame, measures: list[str], *, dataset: str, progress: bool = False,
                cache: bool = True) -> pd.DataFrame:
    """``frame`` (one row per summary, with ``summary`` and ``references``) plus measure columns.

    Scores are cached under the data set, the rows scored and each scorer's signature.
    """
    from sumeval import metrics

    scorers = [metrics.get_scorer(m) for m in measures]
    key = cache_key(dataset=dataset, rows=[f"{d}|{s}" for d, s in zip(frame["doc_id"], frame["system"])],
                    signatures=[s.signature() for s in scorers])
    store = Store("scores")
    scores = store.get_frame(key) if cache else None
    if scores is None:
        records = frame[["summary", "references"]].to_dict("records")
        scores, report = metrics.score_records(records, scorers, progress=progress)
        if report:
            raise ValueError("; ".join(report.summary_lines()))
        store.put_frame(key, scores)
    return pd.concat([frame.reset_index(drop=True), scores.reset_index(drop=True)], axis=1)


def _signed(scored: pd.DataFrame, rows: Mapping[str, tuple[str, str, int]]) -> pd.DataFrame:
    out = scored.copy()
    for label, (_, col, sign) in rows.items():
        out[label] = sign * out[col]
    return out


def compare(ours: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Ours beside the paper: ``metric, human, level, method, ours, ci_low, ci_high, paper, diff``."""
    merged = ours.rename(columns={"value": "ours"}).merge(
        paper[["metric", "human", "method", "value"]].rename(columns={"value": "paper"}),
        on=["metric", "human", "method"], how="left")
    merged["diff"] = merged["ours"] - merged["paper"]
    cols = ["metric", "human", "level", "method", "ours", "ci_low", "ci_high", "paper", "diff", "n"]
    return merged[cols]


def table1(n_docs: int | None = None, *, n_boot: int = 1000, seed: int = 0,
           progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Paper 000 Table 1 rows (ROUGE, BLEU) on SummEval: ``(scored pairs, comparison)``."""
    from sumeval import stats
    from sumeval.datasets.summeval import load_summeval

    pairs = load_summeval(n_docs=n_docs)
    measures = sorted({m for m, _, _ in TABLE1_ROWS.values()})
    scored = _signed(score_pairs(pairs, measures, dataset="summeval", progress=progress), TABLE1_ROWS)
    ours = stats.correlate(scored, list(TABLE1_ROWS), list(QUALITIES), level="summary",
                           methods=("spearman", "kendall_c"), n_boot=n_boot, seed=seed,
                           doc_col="doc_id", system_col="system")
    return scored, compare(ours, published.paper000_table1())


def table2(n_docs: int | None = None, *, n_boot: int = 1000, seed: int = 0,
           progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Paper 001 Table 2 rows (ROUGE, JS-2) on REALSumm: ``(scored pairs, comparison)``."""
    from sumeval import stats
    from sumeval.datasets.realsumm import load_realsumm

    pairs = load_realsumm(n_docs=n_docs).rename(columns={"litepyramid_recall": "litepyramid"})
    measures = sorted({m for m, _, _ in TABLE2_ROWS.values()})
    scored = _signed(score_pairs(pairs, measures, dataset="realsumm", progress=progress), TABLE2_ROWS)
    ours = stats.correlate(scored, list(TABLE2_ROWS), ["litepyramid"], level="system",
                           methods=("pearson", "spearman", "kendall_b"), n_boot=n_boot, seed=seed,
                           doc_col="doc_id", system_col="system")
    return scored, compare(ours, published.paper001_table2())


def all_levels(scored: pd.DataFrame, metrics: list[str], humans: list[str], *,
               methods=("pearson", "spearman", "kendall_b", "kendall_c"), n_boot: int = 0,
               seed: int = 0) -> pd.DataFrame:
    """Correlations at every level (summary, document, system), for the explorer."""
    from sumeval import stats

    frames = [stats.correlate(scored, metrics, humans, level=level, methods=methods, n_boot=n_boot,
                              seed=seed, doc_col="doc_id", system_col="system")
              for level in ("summary", "document", "system")]
    return pd.concat(frames, ignore_index=True)
