"""Benchmark and calibration of the retrieval backends on REALSumm queries.

``python -m sumeval.retrieval.bench [--queries 300] [--size 10000] [--correlation]`` prints
JSON with, for both backends side by side: build time and rate, query time and rate, and the
top-10 agreement of the sparse backend with Whoosh (identical lists, and identical up to the
order of tied documents); with ``--correlation``, the system-level Pearson / Spearman /
Kendall tau-b of SERA-10 (raw queries) with LitePyramid on REALSumm (25 systems, mean over
the 100 documents).

Timings depend on the machine and its load; the build times are those recorded when the
cached indexes were built (``meta.json``), unless ``--rebuild``.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

__all__ = ["realsumm_records", "compare_backends", "realsumm_correlation"]


def realsumm_records() -> list[dict[str, Any]]:
    """REALSumm as score records: one per (document, system) - doc_id, system, summary,
    references (the one CNN/DM reference), litepyramid (recall); ``<t>`` tags removed."""
    from sumeval.datasets.registry import locate
    from sumeval.retrieval.queries import strip_sentence_tags

    out = []
    with open(locate("realsumm/realsumm_100x25.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            ref = " ".join(strip_sentence_tags(r["ref_summ"]).split())
            for system, s in sorted(r["system_summaries"].items()):
                out.append({"doc_id": r["doc_id"], "system": system,
                            "summary": " ".join(strip_sentence_tags(s["summary"]).split()),
                            "references": [ref],
                            "litepyramid": float(s["scores"]["litepyramid_recall"])})
    return out


def compare_backends(corpus: str = "wikipedia-2015", n: int = 10_000, seed: int = 0, *,
                     n_queries: int = 300, k: int = 10, query_seed: int = 0,
                     rebuild: bool = False, progress: bool = False) -> dict[str, Any]:
    """Build (or load) both backends' index and run the same raw REALSumm queries on both.

    Returns a dict: per backend build_seconds, build_docs_per_s, query_seconds,
    queries_per_s; and agreement: identical (fraction of identical top-k lists), ties_aside
    (fraction identical once tied documents may swap places), n_queries, disagreements.
    """
    from sumeval.retrieval.index import build_index
    from sumeval.retrieval.queries import reformulate
    from sumeval.retrieval.whoosh_backend import analyze

    recs = realsumm_records()
    rng = np.random.default_rng(query_seed)
    pick = rng.choice(len(recs), size=min(n_queries, len(recs)), replace=False)
    queries = reformulate([recs[i]["summary"] for i in pick], "raw")
    result: dict[str, Any] = {"corpus": corpus, "n": n, "seed": seed, "k": k,
                              "n_queries": len(queries), "query_seed": query_seed}
    lists = {}
    indexes = {}
    for backend in ("sparse", "whoosh"):
        t0 = time.perf_counter()
        ix = build_index(corpus, n, seed, backend, rebuild=rebuild, progress=progress)
        load_s = time.perf_counter() - t0
        indexes[backend] = ix
        t0 = time.perf_counter()
        lists[backend] = ix.search_docnums(queries, k, progress=progress)
        qs = time.perf_counter() - t0
        b = ix.meta["build_seconds"]
        entry = {"build_seconds": b, "build_docs_per_s": round(n / b, 1), "load_seconds": round(load_s, 2),
                 "query_seconds": round(qs, 2), "queries_per_s": round(len(queries) / qs, 2),
                 "mean_query_terms": round(float(np.mean([len(set(analyze(q))) for q in queries])), 1)}
        if backend == "sparse":
            entry["term_matrix_seconds"] = ix.meta.get("term_matrix_seconds")
            entry["n_corpus"] = ix.meta["n_corpus"]
            entry["term_matrix_note"] = (f"the whole corpus ({ix.meta['n_corpus']} documents) is tokenised "
                                         "once per corpus; every (n, seed) index is a row slice of it")
        result[backend] = entry
    # agreement, with a tie-aware comparison on the sparse backend's exact scores
    eng = indexes["sparse"].engine
    term_lists = [analyze(q) for q in queries]
    identical = ties_aside = 0
    disagreements = []
    for i, (a, b) in enumerate(zip(lists["sparse"], lists["whoosh"])):
        if a == b:
            identical += 1
            ties_aside += 1
            continue
        sc = eng.scores([term_lists[i]]).toarray()[0]
        sa, sb_ = sc[a], sc[b]
        same = len(a) == len(b) and np.allclose(sa, sb_, rtol=1e-9, atol=0)
        ties_aside += int(same)
        if not same:
            disagreements.append({"query": queries[i][:80], "first_difference_rank":
                                  next((r for r, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))})
    result["agreement"] = {"identical": identical / len(queries), "ties_aside": ties_aside / len(queries),
                           "n_disagreements": len(disagreements), "disagreements": disagreements[:10]}
    for ix in indexes.values():
        ix.close()
    return result


def realsumm_correlation(measure: str = "sera-10", *, index: str = "wikipedia:10000:0:sparse",
                         progress: bool = False) -> dict[str, Any]:
    """System-level correlation of ``measure`` with LitePyramid on REALSumm (25 systems, each
    the mean over its 100 summaries): Pearson, Spearman, Kendall tau-b, and the seconds taken."""
    import pandas as pd

    from sumeval import stats
    from sumeval.metrics import score_records
    from sumeval.retrieval.scorers import SeraScorer
    from sumeval.retrieval.variants import MEASURES

    k, dis, ref = MEASURES[measure]
    recs = realsumm_records()
    t0 = time.perf_counter()
    scorer = SeraScorer(k, dis, ref, index=index, progress=progress)
    frame, report = score_records(recs, [scorer], batch_size=4096)
    seconds = time.perf_counter() - t0
    df = pd.DataFrame({"doc_id": [r["doc_id"] for r in recs], "system": [r["system"] for r in recs],
                       "lp": [r["litepyramid"] for r in recs], "m": frame[measure].to_numpy()})
    corr = stats.correlate(df, "m", "lp", level="system", methods=["pearson", "spearman", "kendall_b"],
                           n_resamples=0).set_index("method")
    return {"measure": measure, "index": index, "n_systems": int(corr.loc["pearson", "n"]), "n_summaries": len(recs),
            "pearson": float(corr.loc["pearson", "value"]),
            "spearman": float(corr.loc["spearman", "value"]),
            "kendall_tau_b": float(corr.loc["kendall_b", "value"]),
            "skipped": len(report.skipped), "seconds": round(seconds, 1)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default="wikipedia-2015")
    p.add_argument("--size", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--rebuild", action="store_true")
    p.add_argument("--correlation", nargs="*", metavar="MEASURE",
                   help="also SERA correlations with LitePyramid (default measure sera-10)")
    p.add_argument("--skip-compare", action="store_true")
    a = p.parse_args(argv)
    out: dict[str, Any] = {}
    if not a.skip_compare:
        out["backends"] = compare_backends(a.corpus, a.size, a.seed, n_queries=a.queries, rebuild=a.rebuild)
    if a.correlation is not None:
        out["correlations"] = [realsumm_correlation(m, index=f"{a.corpus}:{a.size}:{a.seed}:sparse")
                               for m in (a.correlation or ["sera-10"])]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
