"""The permutation tests of a shelf set against their limit (issue 36): DialSummEval, the set that
takes most of a ``--dataset shelf`` run's statistics (14 systems x 100 dialogues, 41 measures).

The work: ``compare_measures`` with Kendall's tau-b, 1,000 permutations of systems and inputs, on
``SUMEVAL_BENCH_MEASURES`` (default 12) of the set's own measure columns x its 4 qualities, one level at
a time: every pair of measures tested, what ``sumeval meta-eval`` does. CPU seconds per test, beside
the **limit**, the bare arithmetic one test cannot do without, timed here on the same masks:

- input: the quadratic form of each permutation in each input's 14 systems, one batched float32
  product (100, 1000, 14) @ (100, 14, 14) and its row sums (the masks made once);
- system: the two swapped grids' per-system means (a choice and a sum over the 1,400 cells per
  permutation) and Kendall's tau-b of 1,000 rows of 14 system means;
- global: the quadratic form over the 1,400 pooled cells, one float32 product (1000, 1400) @
  (1400, 1400) and its row sums.

    python benchmarks/run.py shelf_stats
    SUMEVAL_BENCH_MEASURES=32 python benchmarks/bench_shelf_stats.py      # all own columns
"""
from __future__ import annotations

import os
import time

import numpy as np

LEVELS = ("input", "system", "global")
N_RESAMPLES = 1000
SET = "dialsummeval"


def _cpu(fn, repeat: int = 3) -> float:
    """The least CPU seconds of ``repeat`` calls (the steadiest figure on a shared machine)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def limits(n_sys: int, n_docs: int) -> dict[str, float]:
    """CPU seconds of the bare arithmetic of one test per level (module docstring)."""
    from sumeval.stats import permutation_masks
    from sumeval.stats.resampling import small_blas
    from sumeval.stats.rows import kendall_tau_rows

    rng = np.random.default_rng(0)
    masks = permutation_masks(n_sys, n_docs, "both", N_RESAMPLES, 0)
    m_in = np.ascontiguousarray(np.swapaxes(masks, 0, 1), dtype=np.float32)  # (docs, B, systems)
    Q_in = rng.integers(-4, 5, size=(n_docs, n_sys, n_sys)).astype(np.float32)
    m_gl = masks.reshape(N_RESAMPLES, -1).astype(np.float32)
    Q_gl = rng.integers(-4, 5, size=(n_sys * n_docs,) * 2).astype(np.float32)
    x, y = rng.random((2, n_sys, n_docs))
    sw = np.swapaxes(masks, 1, 2)
    z_means = np.broadcast_to(rng.random(n_sys), (N_RESAMPLES, n_sys))

    def system():
        mx = np.where(sw, y, x).sum(axis=2) / n_docs
        my = np.where(sw, x, y).sum(axis=2) / n_docs
        kendall_tau_rows(mx, z_means)
        kendall_tau_rows(my, z_means)

    with small_blas():
        return {"input": _cpu(lambda: np.einsum("gbn,gbn->gb", m_in, np.matmul(m_in, Q_in))),
                "system": _cpu(system),
                "global": _cpu(lambda: np.einsum("bn,bn->b", m_gl, m_gl @ Q_gl))}


def main() -> dict:
    from sumeval import stats
    from sumeval.datasets.judgments import load_judgments

    j = load_judgments(SET)
    k = int(os.environ.get("SUMEVAL_BENCH_MEASURES", "12"))
    columns = [c for c in j.frame.columns if c.startswith(f"{SET}.")][:k]
    humans = list(j.humans)
    frame = j.frame[["doc_id", "system", *humans, *columns]]
    n_sys, n_docs = frame["system"].nunique(), frame["doc_id"].nunique()
    stats.compare_measures(frame, columns[:2], humans[0], level=list(LEVELS), method="kendall_b",
                           n_resamples=10)  # warm-up
    bare = limits(n_sys, n_docs)
    n_tests = len(columns) * (len(columns) - 1) // 2 * len(humans)
    print(f"{SET}: {n_sys} systems x {n_docs} inputs, {len(columns)} measures x {len(humans)} qualities: "
          f"{n_tests} permutation tests per level ({N_RESAMPLES} permutations of systems and inputs, kendall_b)")
    figures: dict[str, float] = {"measures": len(columns), "tests_per_level": n_tests}
    total = 0.0
    for level in LEVELS:
        t = time.process_time()
        stats.compare_measures(frame, columns, humans, level=level, method="kendall_b", test="permutation",
                               resample="both", n_resamples=N_RESAMPLES, seed=0)
        cpu = time.process_time() - t
        total += cpu
        per = cpu / n_tests
        print(f"  {level:<6} {cpu:7.1f} s CPU = {1e3 * per:6.1f} ms a test; limit {1e3 * bare[level]:5.1f} ms "
              f"(bare arithmetic) -> {per / bare[level]:4.1f}x the limit")
        figures[f"{level}_ms_per_test"] = round(1e3 * per, 2)
        figures[f"{level}_limit_ms"] = round(1e3 * bare[level], 2)
        figures[f"{level}_x_limit"] = round(per / bare[level], 2)
    figures["total_cpu_s"] = round(total, 1)
    print(f"  all    {total:7.1f} s CPU")
    return figures


if __name__ == "__main__":
    main()
