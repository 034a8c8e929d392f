"""The judges' statistics on all of SummEval: `sumeval alt-test`, soft and plain pairwise accuracy.

The data: the 3 SummEval experts' scores and the 6 LLM judges' scores of all 1,600 summaries x 4
qualities (shared data summeval_annotators/*.json, read directly here and written as a judgments file
with ``<quality>/expert1..3`` annotator columns and ``<judge>_<quality>`` judge columns, since the
built-in summeval data set does not carry them yet).

- `sumeval alt-test FILE --human <4 qualities> --judges <6 judges> --pooled` in a fresh process: the
  issue asks for < 1 minute (loading, 30 tests, table, figure, manifest);
- soft pairwise accuracy of the 24 (judge, quality) columns, 1,000 permutations (pce.py's) and 1,000
  bootstrap resamples of the documents; system pairwise accuracy with 1,000 resamples and a chance
  baseline of 1,000 permutations; item-level acc23 with tie calibration; the PPI label curve (16 systems x
  n = 10..80 labels x 200 draws).

    python benchmarks/run.py judges
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

QUALITIES = ["coherence", "consistency", "fluency", "relevance"]
JUDGES = ["gemini_flash", "gemini_pro", "gpt-4o", "gpt-4o-mini", "llama-31", "mistral-v03"]


def _judgments_file(path: str) -> None:
    import pandas as pd

    from sumeval.paths import data_search_path

    folder = next(p / "summeval_annotators" for p in data_search_path()
                  if (p / "summeval_annotators" / "human_annotations.json").is_file())
    humans = json.loads((folder / "human_annotations.json").read_text())
    llms = json.loads((folder / "llm_annotations.json").read_text())
    rows: dict = {}
    for key in humans["e0"]:
        doc, system, quality = key.split("__")
        row = rows.setdefault((doc, system), {"doc_id": doc, "system": system})
        scores = [humans[e][key] for e in ("e0", "e1", "e2")]
        row[quality] = sum(scores) / 3
        for k, s in enumerate(scores):
            row[f"{quality}/expert{k + 1}"] = s
        for judge in JUDGES:
            row[f"{judge}_{quality}"] = llms[judge][key]
    pd.DataFrame(list(rows.values())).to_csv(path, index=False)


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    wall, cpu = _clock()
    return round(wall - start[0], 2), round(cpu - start[1], 2)


def main() -> dict:
    import pandas as pd

    from sumeval.judges.ppi import label_curve
    from sumeval.stats.item_pairwise import item_pairwise_accuracy
    from sumeval.stats.soft_pairwise import soft_pairwise_accuracy, system_pairwise_accuracy

    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "summeval_judges.csv")
        _judgments_file(data)
        cmd = [sys.executable, "-m", "sumeval.cli", "alt-test", data, "--human", *QUALITIES, "--judges",
               *(f"{j}_{{human}}" for j in JUDGES), "--pooled", "--out", os.path.join(tmp, "alt")]
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out["alt_test_command_s"] = round(time.perf_counter() - start, 2)
        manifest = json.load(open(os.path.join(tmp, "alt", "manifest.json")))
        out["alt_test_statistics_s"] = manifest["timings"]["test_s"]
        frame = pd.read_csv(data)
    start = _clock()
    for q in QUALITIES:
        soft_pairwise_accuracy(frame, [f"{j}_{q}" for j in JUDGES], q, n_resamples=1000)
    out["spa_24_columns_1000_boot_wall_cpu_s"] = _since(start)
    start = _clock()
    for q in QUALITIES:
        system_pairwise_accuracy(frame, [f"{j}_{q}" for j in JUDGES], q, n_resamples=1000, n_chance=1000)
    out["pa_24_columns_1000_boot_1000_chance_wall_cpu_s"] = _since(start)
    start = _clock()
    for q in QUALITIES:
        item_pairwise_accuracy(frame, [f"{j}_{q}" for j in JUDGES], q)
    out["item_acc23_24_columns_wall_cpu_s"] = _since(start)
    start = _clock()
    for q in QUALITIES:
        label_curve(frame, q, [f"{j}_{q}" for j in JUDGES], n_repeats=200)
    out["ppi_label_curve_24_columns_8_n_200_draws_wall_cpu_s"] = _since(start)
    print("SummEval, 6 LLM judges x 4 qualities (+ pooled for the alt-test):")
    for k, v in out.items():
        print(f"  {k}: {v}")
    return out
