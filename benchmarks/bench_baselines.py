"""Baseline measures and statistics on all of SummEval: scoring and bootstrap throughput."""
from __future__ import annotations

import time


def main() -> dict:
    from sumeval import metrics, stats
    from sumeval.datasets.summeval import load_summeval

    pairs = load_summeval()
    records = pairs[["summary", "references"]].to_dict("records")
    out = {"pairs": len(records)}
    for name in ("rouge-1", "rouge-2", "rouge-3", "rouge-l", "bleu", "js-2"):
        t0 = time.perf_counter()
        frame, _ = metrics.score_records(records, [name])
        dt = time.perf_counter() - t0
        out[f"{name}_summaries_per_s"] = round(len(records) / dt, 1)
        print(f"{name:<8} {len(records) / dt:8.1f} summaries/s  ({dt:.2f} s for {len(records)} x 11 references)")
        pairs[name] = frame.iloc[:, -1].to_numpy()
    for level in ("global", "system"):
        t0 = time.perf_counter()
        stats.correlate(pairs, ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "bleu"],
                        ["consistency", "relevance", "coherence", "fluency"], level=level,
                        methods=("spearman", "kendall_c"), n_resamples=1000, seed=0)
        dt = time.perf_counter() - t0
        out[f"correlate_{level}_5x4x2_boot1000_s"] = round(dt, 2)
        print(f"correlate level={level:<8} 5 metrics x 4 qualities x 2 methods x 1000 resamples: {dt:.2f} s")
    return out
