"""``sumeval score`` locally vs ``--scheduler`` on a 2-worker Dask LocalCluster (issue 19, part 3).

BERTScore with the small packaged encoder (all-MiniLM-L6-v2, layer 4) on 2,000 SummEval
summaries, each against its first reference (the 1,600 pairs, then the first 400 again), both
runs through the command (reading, checking, scoring, writing). Prints the seconds of each; the
two outputs are compared byte for byte (and, where they differ, the largest difference printed). Figures only:
nothing is asserted about speed.

    python benchmarks/run.py score_sharded
    python benchmarks/bench_score_sharded.py [N_ROWS] [SHARD_SIZE]
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

MODEL = "all-MiniLM-L6-v2"


def _input(path: Path, n: int) -> None:
    from sumeval.datasets.summeval import load_summeval

    pairs = load_summeval()
    rows = [{"summary": s, "references": [refs[0]]} for s, refs in zip(pairs["summary"], pairs["references"])]
    rows = (rows * (n // len(rows) + 1))[:n]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def main(n: int = 2000, shard_size: int = 256) -> dict:
    import distributed

    from sumeval import cli

    out: dict = {"rows": n, "shard_size": shard_size, "measure": f"bertscore --model {MODEL}"}
    with tempfile.TemporaryDirectory(prefix="bench-sharded-") as tmp:
        tmp = Path(tmp)
        inp = tmp / "in.jsonl"
        _input(inp, n)
        argv = ["score", "bertscore", "--model", MODEL, "-i", str(inp)]
        t0 = time.perf_counter()
        assert cli.main(argv + ["-o", str(tmp / "local.jsonl")]) == 0
        out["local_s"] = round(time.perf_counter() - t0, 1)
        print(f"local (this process, torch threads {_threads()}): {out['local_s']} s", flush=True)
        t0 = time.perf_counter()
        root = str(Path(__file__).resolve().parents[1])
        env = {"PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=None, env=env) as cluster:
            out["cluster_start_s"] = round(time.perf_counter() - t0, 1)
            t0 = time.perf_counter()
            assert cli.main(argv + ["-o", str(tmp / "dask.jsonl"), "--scheduler", cluster.scheduler_address,
                                    "--shard-size", str(shard_size)]) == 0
            out["sharded_2_workers_s"] = round(time.perf_counter() - t0, 1)
        same = (tmp / "local.jsonl").read_bytes() == (tmp / "dask.jsonl").read_bytes()
        out["identical_output"] = same
        if not same:
            out["max_abs_diff"] = _max_diff(tmp / "local.jsonl", tmp / "dask.jsonl")
        print(f"2-worker LocalCluster (1 thread each), {-(-n // shard_size)} shards of {shard_size}: "
              f"{out['sharded_2_workers_s']} s (+ {out['cluster_start_s']} s to start the cluster); "
              f"output identical: {same}", flush=True)
        if not same:  # a finding to print, not a failure of the benchmark (BENCHMARKS.md: MKL's last bits)
            print(f"the sharded output differs from the local one by at most {out['max_abs_diff']:.3g}", flush=True)
    return out


def _max_diff(a: Path, b: Path) -> float:
    """The largest absolute difference between the numbers of two score files (same rows, same fields)."""
    worst = 0.0
    for la, lb in zip(a.read_text().splitlines(), b.read_text().splitlines()):
        ra, rb = json.loads(la), json.loads(lb)
        for k, v in ra.items():
            if isinstance(v, float) and isinstance(rb.get(k), float):
                worst = max(worst, abs(v - rb[k]))
    return worst


def _threads() -> int:
    import torch

    return torch.get_num_threads()


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    print(main(*args))
