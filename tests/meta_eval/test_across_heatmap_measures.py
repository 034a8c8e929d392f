"""The across heat map of `sumeval meta-eval --dataset ...` draws the measures the user named (and the shelf's
sentinel measures among them), not every set's own stored columns: on a 16-set shelf run those are 52 rows blank but
for one set each, which made the map 11.3 in tall against the house limit. Built from frames of a real run's shape
(no data files)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from PIL import Image

from sumeval.meta_eval import across_output
from sumeval.meta_eval.across import AcrossResult, AcrossSettings
from sumeval.plots import shelf as splots
from sumeval.plots.style import MAX_HEIGHT_IN, layout_problems

#: a 16-set shelf run's sets with tasks at the global level, and how many own stored columns each has
SETS = {"summeval": (["coherence", "consistency", "fluency", "relevance"], 0), "realsumm": (["litepyramid"], 0),
        "dialsummeval": (["coherence", "consistency", "fluency", "relevance"], 41), "frank": (["factuality"], 6),
        "qags-c": (["factuality"], 0), "qags-x": (["factuality"], 0), "xsumfaith": (["faithful", "factual"], 0),
        "newsroom": (["coherence", "fluency", "informativeness", "relevance"], 0),
        "rose": (["prior", "ref_free", "ref_based", "acu"], 0), "faithbench": (["consistent"], 5),
        "storysumm": (["faithful"], 0), "summedits": (["consistency"], 0)}


def _result(given=("length", "rouge-1")) -> AcrossResult:
    rng = np.random.default_rng(3)
    own = [f"{d}.column_{i}" for d, (_, n) in SETS.items() for i in range(n)]
    rows = []
    for d, (humans, _) in SETS.items():
        for h in humans:
            for m in [*given, *(o for o in own if o.startswith(d + "."))]:
                rows.append({"coefficient": "kendall_b", "measure": m, "dataset": d, "human": h, "level": "global",
                             "kind": "correlation", "value": rng.uniform(-0.3, 0.6), "ci_low": np.nan,
                             "ci_high": np.nan, "rank": 1.0, "cluster": int(rng.integers(1, 6)), "n": 400,
                             "status": "ok", "reason": None})
    cells = pd.DataFrame(rows)
    summary = pd.DataFrame([{"coefficient": "kendall_b", "scope": "global", "measure": m, "position": i + 1,
                             "mean_rank": 1.5 + i, "mean_score": 0.6, "mean_corr": 0.2, "n_tasks": 25, "n_sets": 12,
                             "coverage": 1.0, "reason": None} for i, m in enumerate(given)],
                           columns=["coefficient", "scope", "measure", "position", "mean_rank", "mean_score",
                                    "mean_corr", "n_tasks", "n_sets", "coverage", "reason"])
    settings = AcrossSettings(levels=("global",), coefficients=("kendall_b",))
    return AcrossResult(settings=settings, sets={}, measures=[*given, *own], given=list(given), cells=cells,
                        tasks=pd.DataFrame(), summary=summary)


def test_the_heat_map_draws_the_named_measures_and_fits_the_house_size(tmp_path):
    result = _result()
    assert len(result.measures) == 54 and across_output.heatmap_measures(result, "kendall_b", "global") == \
        ["length", "rouge-1"]
    across_output._figure(result, "kendall_b", "global", tmp_path)  # what `meta-eval --dataset` draws
    with Image.open(tmp_path / "heatmap_kendall_b_global.png") as png:
        height = png.size[1] / png.info["dpi"][1]  # as saved (tight: a little more than the figure's size)
    assert height <= MAX_HEIGHT_IN, height  # with the 52 own columns' rows too: 11 in tall
    fig, ax = splots.across_heatmap(result.cells, coefficient="kendall_b", level="global",
                                    measure_order=across_output.heatmap_measures(result, "kendall_b", "global"))
    assert layout_problems(fig) == []
    assert 2 in ax.images[0].get_array().shape and 25 in ax.images[0].get_array().shape  # 2 measures x 25 tasks


def test_without_named_measures_the_heat_map_draws_those_ranked_across_sets():
    # only the sets' own columns (`--measures` left out): those with an across mean at the level, else all
    result = _result(given=())
    assert across_output.heatmap_measures(result, "kendall_b", "global") == result.measures
    result.summary = pd.DataFrame([{"coefficient": "kendall_b", "scope": "global", "measure": "frank.column_0",
                                    "mean_rank": 1.0}, {"coefficient": "kendall_b", "scope": "input",
                                                        "measure": "frank.column_1", "mean_rank": 1.0}])
    assert across_output.heatmap_measures(result, "kendall_b", "global") == ["frank.column_0"]
