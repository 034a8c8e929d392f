"""Meta-evaluation statistics on the SummEval grid: sumeval.stats against nlpstats.

The work, per coefficient: 8 measures x 4 qualities x 3 levels (input, system, global) =
96 bootstrap intervals (1,000 resamples of systems and inputs) and 28 pairs x 4 x 3 = 336
permutation tests (1,000 permutations of systems and inputs each) -- what a meta-evaluation of
8 measures on SummEval asks. The measures are synthetic but shaped like real ones (seeded): a
random mix of the four standardised expert scores plus noise of growing size, three of them
rounded to 2 decimals (ties, as ROUGE scores have).

nlpstats (Deutsch's package, one scipy call per resample) would take hours on the full work, so
it is timed on a measured subset -- per level, one bootstrap interval and one permutation test
with a few resamples -- and its time per resample is extrapolated to the same work (its cost is
linear in the number of resamples). Wall-clock and CPU seconds are both printed: on a busy
machine the CPU time is the steadier figure.

    python benchmarks/run.py meta_stats
    SUMEVAL_BENCH_COEFFICIENTS=kendall_b python benchmarks/run.py meta_stats
"""
from __future__ import annotations

import os
import time

import numpy as np

LEVELS = ("input", "system", "global")
N_MEASURES = 8
N_RESAMPLES = 1000
NLPSTATS_NAMES = {"pearson": "pearson", "spearman": "spearman", "kendall_b": "kendall"}


def _frame():
    """SummEval's 1,600 (document, system) rows with 8 seeded synthetic measure columns."""
    from sumeval.datasets.summeval import QUALITIES, load_summeval

    frame = load_summeval()[["doc_id", "system", *QUALITIES]].copy()
    rng = np.random.default_rng(0)
    q = frame[list(QUALITIES)].to_numpy()
    q = (q - q.mean(axis=0)) / q.std(axis=0)
    measures = []
    for k in range(N_MEASURES):
        values = q @ rng.dirichlet(np.ones(len(QUALITIES))) + rng.normal(scale=0.5 + 0.25 * k,
                                                                        size=len(frame))
        if k % 3 == 2:
            values = np.round(values, 2)
        frame[f"m{k}"] = values
        measures.append(f"m{k}")
    return frame, measures, list(QUALITIES)


def _clock():
    return time.perf_counter(), time.process_time()


def _since(start) -> tuple[float, float]:
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def _ours(frame, measures, humans, method: str) -> dict[str, tuple[float, float]]:
    """(wall, cpu) seconds of each part of the work with sumeval.stats."""
    from sumeval import stats

    out = {}
    t = _clock()
    stats.correlate(frame, measures, humans, level=list(LEVELS), methods=method,
                    resample="both", n_resamples=N_RESAMPLES, seed=0)
    out["bootstrap"] = _since(t)
    for level in LEVELS:
        t = _clock()
        stats.compare_measures(frame, measures, humans, level=level, method=method,
                               test="permutation", resample="both", n_resamples=N_RESAMPLES,
                               seed=0)
        out[f"permutation_{level}"] = _since(t)
    return out


def _grids(frame, columns):
    """(n_systems, n_inputs) matrices, nlpstats' layout."""
    return [frame.pivot(index="system", columns="doc_id", values=c).to_numpy() for c in columns]


def _nlpstats_per_resample(frame, measures, humans, method: str) -> dict[str, tuple[float, float]]:
    """nlpstats' (wall, cpu) seconds per bootstrap resample and per permutation, per level."""
    import nlpstats.correlations as nc

    X, Y, Z = _grids(frame, [measures[0], measures[2], humans[0]])
    coefficient = NLPSTATS_NAMES[method]
    out = {}
    for level in LEVELS:
        k = 10 if level == "input" else 50
        np.random.seed(0)  # nlpstats draws from numpy's global state
        t = _clock()
        nc.bootstrap(X, Z, level, coefficient, "both", n_resamples=k)
        wall, cpu = _since(t)
        out[f"bootstrap_{level}"] = (wall / k, cpu / k)
        t = _clock()
        nc.permutation_test(X, Y, Z, level, coefficient, "both", n_resamples=k)
        wall, cpu = _since(t)
        out[f"permutation_{level}"] = (wall / k, cpu / k)
    return out


def main() -> dict:
    import scipy.stats  # noqa: F401 - imported before the clocks start

    from sumeval import stats

    frame, measures, humans = _frame()
    methods = os.environ.get("SUMEVAL_BENCH_COEFFICIENTS", "kendall_b,spearman,pearson,kendall_c")
    n_pairs = N_MEASURES * (N_MEASURES - 1) // 2
    n_intervals = N_MEASURES * len(humans)  # per level
    n_tests = n_pairs * len(humans)  # per level
    print(f"SummEval {len(frame)} rows; {N_MEASURES} measures x {len(humans)} qualities x "
          f"{len(LEVELS)} levels: {n_intervals * 3} bootstrap intervals and {n_tests * 3} "
          f"permutation tests of {N_RESAMPLES} resamples (systems and inputs) per coefficient")
    stats.correlate(frame, measures[:2], humans[:1], level=list(LEVELS), n_resamples=10)  # warm-up
    figures: dict[str, float] = {"rows": len(frame), "measures": N_MEASURES,
                                 "bootstrap_intervals": 3 * n_intervals,
                                 "permutation_tests": 3 * n_tests, "resamples": N_RESAMPLES}
    for method in [m.strip() for m in methods.split(",") if m.strip()]:
        ours = _ours(frame, measures, humans, method)
        wall = sum(w for w, _ in ours.values())
        cpu = sum(c for _, c in ours.values())
        parts = ", ".join(f"{k} {w:.1f}" for k, (w, _) in ours.items())
        print(f"{method:<10} sumeval: {wall:6.1f} s wall, {cpu:6.1f} s CPU  ({parts} s wall)")
        figures[f"{method}_sumeval_wall_s"] = round(wall, 2)
        figures[f"{method}_sumeval_cpu_s"] = round(cpu, 2)
        if method not in NLPSTATS_NAMES:
            print(f"{'':<10} nlpstats: no {method} (it offers Pearson, Spearman, Kendall tau-b)")
            continue
        per = _nlpstats_per_resample(frame, measures, humans, method)
        est_wall = sum(N_RESAMPLES * (n_intervals * per[f"bootstrap_{lv}"][0]
                                      + n_tests * per[f"permutation_{lv}"][0]) for lv in LEVELS)
        est_cpu = sum(N_RESAMPLES * (n_intervals * per[f"bootstrap_{lv}"][1]
                                     + n_tests * per[f"permutation_{lv}"][1]) for lv in LEVELS)
        detail = ", ".join(f"{k} {1e3 * w:.2f}" for k, (w, _) in per.items())
        print(f"{'':<10} nlpstats, extrapolated from its ms per resample ({detail}): "
              f"{est_wall / 3600:.2f} h wall, {est_cpu / 3600:.2f} h CPU -> sumeval is "
              f"{est_wall / wall:.0f}x faster (wall), {est_cpu / cpu:.0f}x (CPU)")
        figures[f"{method}_nlpstats_extrapolated_wall_s"] = round(est_wall, 1)
        figures[f"{method}_nlpstats_extrapolated_cpu_s"] = round(est_cpu, 1)
        figures[f"{method}_speedup_wall"] = round(est_wall / wall, 1)
        figures[f"{method}_speedup_cpu"] = round(est_cpu / cpu, 1)
    return figures


if __name__ == "__main__":
    main()
