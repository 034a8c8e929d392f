"""Retrieval backends side by side (paper 001): Whoosh and the sparse BM25F on the same index.

For a 10,000-article Wikipedia-2015 index (seed 0) and 300 raw REALSumm summary queries:
build rate (documents/s), query rate (queries/s) of both backends, and their top-10 agreement
(identical lists; identical once tied documents may swap). Build times are those recorded when
each cached index was built (``meta.json``); delete the cache, or set ``SUMEVAL_CACHE`` to an
empty folder, to time a build from nothing. The sparse backend tokenises the whole collection
once (``term_matrix_seconds``) and slices it for every (size, seed); its build rate is given
both per index and for that one-off tokenisation. Timings depend on the machine's load.
"""
from __future__ import annotations

import os


def main() -> dict:
    from sumeval.retrieval.bench import compare_backends

    n = int(os.environ.get("BENCH_RETRIEVAL_SIZE", "10000"))
    res = compare_backends("wikipedia-2015", n, 0, n_queries=int(os.environ.get("BENCH_RETRIEVAL_QUERIES", "300")))
    sp, wh = res["sparse"], res["whoosh"]
    tm = sp.get("term_matrix_seconds")
    out = {
        "index": f"wikipedia-2015:{n}:0", "n_queries": res["n_queries"], "k": res["k"],
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


if __name__ == "__main__":
    main()
