"""Retrieval backends side by side (paper 001): Whoosh and the sparse BM25F on the same index.

For a 10,000-article Wikipedia-2015 index (seed 0) and 300 raw REALSumm summary queries:
build rate (documents/s), query rate (queries/s) of both backends, and their top-10 agreement
(identical lists; identical once tied documents may swap). Build times are those recorded when
each cached index was built (``meta.json``); delete the cache, or set ``SUMEVAL_CACHE`` to an
empty folder, to time a build from nothing. The sparse backend tokenises the whole collection
once (``term_matrix_seconds``) and slices it for every (size, seed); its build rate is given
both per index and for that one-off tokenisation. Timings depend on the machine's load.

``python benchmarks/bench_retrieval.py [--size 10000] [--queries 300] [--correlation [MEASURE ...]]``
prints the same, and with ``--correlation`` the system-level Pearson / Spearman / Kendall tau-b of
SERA-10 (raw queries; or the measures named) with LitePyramid on REALSumm (25 systems, mean over the
100 documents); ``--skip-compare`` leaves the backends out. ``python benchmarks/run.py retrieval``
runs it with the defaults (or ``BENCH_RETRIEVAL_SIZE`` / ``BENCH_RETRIEVAL_QUERIES``) and writes
its figures to ``benchmarks/results/retrieval.json``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import numpy as np


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


def _compare_figures(corpus: str, n: int, seed: int, n_queries: int, rebuild: bool) -> dict:
    """The backends side by side (:func:`compare_backends`), printed as a table; its figures."""
    res = compare_backends(corpus, n, seed, n_queries=n_queries, rebuild=rebuild)
    sp, wh = res["sparse"], res["whoosh"]
    tm = sp.get("term_matrix_seconds")
    out = {
        "index": f"{corpus}:{n}:{seed}", "n_queries": res["n_queries"], "k": res["k"],
        "whoosh_build_docs_per_s": wh["build_docs_per_s"], "sparse_build_docs_per_s": sp["build_docs_per_s"],
        "whoosh_queries_per_s": wh["queries_per_s"], "sparse_queries_per_s": sp["queries_per_s"],
        "top10_identical": res["agreement"]["identical"], "top10_identical_ties_aside": res["agreement"]["ties_aside"],
        "n_disagreements": res["agreement"]["n_disagreements"],
        "sparse_term_matrix_seconds": tm,
        "sparse_tokenise_corpus_docs_per_s": round(res["sparse"]["n_corpus"] / tm, 1) if tm else None,
        "whoosh_build_seconds": wh["build_seconds"],
        "sparse_build_seconds": sp["build_seconds"],
    }
    print(f"{'':<22}{'whoosh':>12}{'sparse':>12}")
    print(f"{'build (documents/s)':<22}{wh['build_docs_per_s']:>12.1f}{sp['build_docs_per_s']:>12.1f}")
    print(f"{'query (queries/s)':<22}{wh['queries_per_s']:>12.2f}{sp['queries_per_s']:>12.2f}")
    print(f"top-10 agreement over {res['n_queries']} queries: {res['agreement']['identical']:.3f} identical, "
          f"{res['agreement']['ties_aside']:.3f} identical ties aside")
    if tm is not None:
        print(f"sparse: the whole collection was tokenised once in {tm:.1f} s "
              f"({out['sparse_tokenise_corpus_docs_per_s']} documents/s); every (size, seed) index slices it")
    return out


def main(argv: list[str] | None = None) -> dict:
    """The figures of the options ``argv`` (none: the backends side by side at the defaults)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default="wikipedia-2015")
    p.add_argument("--size", type=int, default=int(os.environ.get("BENCH_RETRIEVAL_SIZE", "10000")))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--queries", type=int, default=int(os.environ.get("BENCH_RETRIEVAL_QUERIES", "300")))
    p.add_argument("--rebuild", action="store_true", help="build the indexes again (their build time measured now)")
    p.add_argument("--correlation", nargs="*", metavar="MEASURE",
                   help="also SERA correlations with LitePyramid (default measure sera-10)")
    p.add_argument("--skip-compare", action="store_true", help="leave the backends' comparison out")
    a = p.parse_args([] if argv is None else argv)
    out: dict[str, Any] = {}
    if not a.skip_compare:
        out = _compare_figures(a.corpus, a.size, a.seed, a.queries, a.rebuild)
    if a.correlation is not None:
        out["correlations"] = [realsumm_correlation(m, index=f"{a.corpus}:{a.size}:{a.seed}:sparse")
                               for m in (a.correlation or ["sera-10"])]
        for c in out["correlations"]:
            print(f"{c['measure']} vs LitePyramid, system level ({c['n_systems']} systems): pearson "
                  f"{c['pearson']:.4f}, spearman {c['spearman']:.4f}, kendall tau-b {c['kendall_tau_b']:.4f} "
                  f"({c['seconds']} s)")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
