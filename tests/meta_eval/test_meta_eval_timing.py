"""The time `sumeval meta-eval` reports covers the whole run, writing included: the tables and figures
(a minute or more for a big p-value figure) were once left out of what it printed and of the
manifest's ``total_s``."""
from __future__ import annotations

import json
import re
import time

import pytest

from sumeval.cli import main

from helpers import TEST_DATA  # tests/ is on the path

MAP = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output", "--text-col", "source",
       "--references-col", "gold"]
PAUSE = 0.6  # seconds the figures are made to take


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


def test_printed_and_recorded_time_include_the_tables_and_figures(tmp_path, capsys, monkeypatch):
    from sumeval.meta_eval import figures

    draw = figures.draw

    def slow_draw(result, folder):  # the real figures, drawn PAUSE seconds slower
        time.sleep(PAUSE)
        draw(result, folder)

    monkeypatch.setattr(figures, "draw", slow_draw)
    assert main(["data", "add", "mine", str(TEST_DATA / "user_judgments.csv"), *MAP, "--human", "overall"]) == 0
    out = tmp_path / "out"
    started = time.perf_counter()
    assert main(["meta-eval", "mine", "--human", "overall", "--measures", "my_metric", "rouge-1", "--level", "global",
                 "--n-resamples", "50", "--out", str(out)]) == 0
    wall = time.perf_counter() - started
    assert (out / "pvalues_kendall_b.pdf").is_file()
    t = json.loads((out / "manifest.json").read_text())["timings"]
    assert PAUSE <= t["writing_s"] <= wall
    assert t["total_s"] == pytest.approx(t["analysis_s"] + t["writing_s"], abs=2e-3)
    assert t["analysis_s"] >= t["scoring_s"] + t["tests_s"] - 2e-3
    err = capsys.readouterr().err
    printed = re.search(r"wrote \d+ files to .* in ([\d.]+) s \(.*tables and figures ([\d.]+) s\)", err)
    assert printed, err[-500:]
    assert float(printed.group(1)) == pytest.approx(t["total_s"], abs=0.06)
    assert float(printed.group(2)) >= PAUSE - 0.05
