"""The limit of a ``sumeval meta-eval --dataset ...`` run's permutation tests (issue 36): for each
(set, human column, level) the bare arithmetic of one test, :mod:`bench_shelf_stats`' three kernels
timed on the set's own grid (the rows where the human column has a value: its systems, inputs and
pooled cells), times the number of tests the run's ``<set>/pairwise.csv`` holds. CPU seconds, the
least of 3, BLAS on one thread; Kendall's tau-b, 1,000 permutations of systems and inputs.

- input: one batched float32 quadratic form per input size (the inputs with k systems: (inputs,
  1000, k) @ (inputs, k, k) and its row sums);
- system: the two swapped zero-filled grids' per-system sums over the counts, and Kendall's tau-b
  of 1,000 rows of system means (``bench_shelf_stats``' system kernel);
- global: one float32 product (1000, n) @ (n, n) over the n pooled cells and its row sums.

    python benchmarks/shelf_limit.py OUT_DIR [limits.csv]
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from bench_shelf_stats import N_RESAMPLES, _cpu  # benchmarks/ is the script's folder


def grid(frame: pd.DataFrame, human: str):
    """The system and input codes of the rows where ``human`` has a value, and the grid's size."""
    f = frame[frame[human].notna()]
    sys_codes, doc_codes = pd.factorize(f["system"])[0], pd.factorize(f["doc_id"])[0]
    return sys_codes, doc_codes, int(sys_codes.max()) + 1, int(doc_codes.max()) + 1


def limits(sys_codes, doc_codes, n_sys: int, n_docs: int, levels) -> dict[str, float]:
    """CPU seconds of the bare arithmetic of one test at each of ``levels`` on this grid."""
    from sumeval.stats import permutation_masks
    from sumeval.stats.resampling import small_blas
    from sumeval.stats.rows import kendall_tau_rows

    B = N_RESAMPLES
    rng = np.random.default_rng(0)
    masks = permutation_masks(n_sys, n_docs, "both", B, 0)  # (B, inputs, systems)
    n = len(sys_codes)
    out: dict[str, float] = {}
    with small_blas():
        if "input" in levels:
            order = np.lexsort((sys_codes, doc_codes))
            d, s = doc_codes[order], sys_codes[order]
            sizes = np.bincount(d, minlength=n_docs)
            batches = []
            for k in np.unique(sizes[sizes >= 2]):
                docs = np.flatnonzero(sizes == k)
                sel = np.isin(d, docs)
                m = masks[:, d[sel], s[sel]].reshape(B, len(docs), k).swapaxes(0, 1)
                batches.append((np.ascontiguousarray(m, dtype=np.float32),
                                rng.integers(-4, 5, size=(len(docs), k, k)).astype(np.float32)))
            out["input"] = _cpu(lambda: [np.einsum("gbn,gbn->gb", m, np.matmul(m, q)) for m, q in batches])
        if "system" in levels:
            x, y = np.zeros((2, n_sys, n_docs))
            x[sys_codes, doc_codes], y[sys_codes, doc_codes] = rng.random((2, n))
            counts = np.bincount(sys_codes, minlength=n_sys)
            sw = np.swapaxes(masks, 1, 2)
            z = np.broadcast_to(rng.random(n_sys), (B, n_sys))

            def system():
                kendall_tau_rows(np.where(sw, y, x).sum(axis=2) / counts, z)
                kendall_tau_rows(np.where(sw, x, y).sum(axis=2) / counts, z)
            out["system"] = _cpu(system)
        if "global" in levels:
            m_gl = masks[:, doc_codes, sys_codes].astype(np.float32)
            q = rng.integers(-4, 5, size=(n, n)).astype(np.float32)
            out["global"] = _cpu(lambda: np.einsum("bn,bn->b", m_gl, m_gl @ q))
    return out


def main(out_dir: str) -> pd.DataFrame:
    from sumeval.datasets.judgments import load_judgments

    rows = []
    for path in sorted(Path(out_dir).glob("*/pairwise.csv")):
        tests = pd.read_csv(path)
        tests = tests[tests["p_raw"].notna()]
        if tests.empty:
            continue
        frame = load_judgments(path.parent.name).frame
        for human, part in tests.groupby("human"):
            g = grid(frame, human)
            counts = part.groupby("level").size()
            bare = limits(*g, levels=set(counts.index))
            rows += [{"set": path.parent.name, "human": human, "level": level, "tests": int(k), "cells": len(g[0]),
                      "limit_ms": round(1e3 * bare[level], 3), "limit_s": k * bare[level]}
                     for level, k in counts.items()]
    df = pd.DataFrame(rows)
    print(df.to_string(index=False))
    for by in ("set", "level"):
        print(df.groupby(by)[["tests", "limit_s"]].sum().sort_values("limit_s", ascending=False).round(2).to_string())
    print(f"all: {df.tests.sum()} tests, limit {df.limit_s.sum():.1f} s CPU")
    return df


if __name__ == "__main__":
    result = main(sys.argv[1])
    if len(sys.argv) > 2:
        result.to_csv(sys.argv[2], index=False)
