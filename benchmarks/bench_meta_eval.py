"""`sumeval meta-eval` end to end on SummEval, once the measures are cached.

The issue's work: 8 real measures (ROUGE-1/2/3/L F, ROUGE-1/2 recall, BLEU, JS-2) x the 4
SummEval qualities x 3 levels, 1,000 bootstrap resamples (systems and inputs) for every interval
and 1,000 permutations (systems and inputs) for each of the 28 pairs, kendall_b, Holm, with the
tables and figures. A first call fills the score cache (not timed as the figure of merit); the
second is timed in a fresh process, as a user would run it.

    python benchmarks/run.py meta_eval
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-1-r", "rouge-2-r", "bleu", "js-2"]
HUMANS = ["relevance", "consistency", "coherence", "fluency"]


def _run(out: str) -> float:
    cmd = [sys.executable, "-m", "sumeval.cli", "meta-eval", "summeval", "--human", *HUMANS, "--measures",
           *MEASURES, "--n-resamples", "1000", "--out", out, "-q"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cold = _run(os.path.join(tmp, "first"))
        warm = _run(os.path.join(tmp, "second"))
        manifest = json.load(open(os.path.join(tmp, "second", "manifest.json")))
    timings = manifest["timings"]
    out = {"first_call_s": round(cold, 1), "cached_call_s": round(warm, 1),
           "statistics_s": round(timings["correlations_s"] + timings["tests_s"], 1),
           "scoring_from_cache_s": round(timings["scoring_s"], 1), "measures": len(MEASURES),
           "humans": len(HUMANS), "levels": 3, "n_resamples": 1000}
    print(f"sumeval meta-eval, SummEval, {len(MEASURES)} measures x {len(HUMANS)} qualities x 3 levels, "
          f"1000 resamples + 1000 permutations per pair:")
    print(f"  first call (scores the measures): {cold:.1f} s")
    print(f"  cached call, whole command:       {warm:.1f} s (statistics {out['statistics_s']} s, "
          f"scores read back {out['scoring_from_cache_s']} s)")
    return out
