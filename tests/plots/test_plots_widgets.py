"""Plotting functions return (fig, ax) and draw what they are given; explorers react to changes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sumeval import figures, plots, widgets  # noqa: E402


def _comparison():
    rows = []
    for human in ("consistency", "relevance"):
        for method in ("spearman", "kendall_c"):
            for k, metric in enumerate(("ROUGE-1", "ROUGE-2", "BLEU")):
                ours = 0.1 * (k + 1)
                rows.append(dict(metric=metric, human=human, method=method, level="summary", ours=ours,
                                 ci_low=ours - 0.05, ci_high=ours + 0.05, paper=ours + 0.01, diff=-0.01, n=10))
    return pd.DataFrame(rows)


def test_ours_vs_paper_grid_and_points(tmp_path):
    fig, axes = plots.ours_vs_paper(_comparison(), metric_order=["ROUGE-1", "ROUGE-2", "BLEU"])
    assert axes.shape == (2, 2)
    ax = axes[0, 0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ROUGE-1", "ROUGE-2", "BLEU"]
    paper_line = [ln for ln in ax.get_lines() if ln.get_label() == "paper"][0]
    assert np.allclose(paper_line.get_xdata(), [0.11, 0.21, 0.31])
    segments = ax.collections[0].get_segments()  # bootstrap intervals drawn as segments
    assert np.allclose([seg[:, 0] for seg in segments], [[0.05, 0.15], [0.15, 0.25], [0.25, 0.35]])


def test_interval_not_containing_the_estimate_is_drawn(tmp_path):
    cmp = _comparison()
    cmp.loc[0, ["ci_low", "ci_high"]] = [0.2, 0.3]  # percentile intervals can miss the estimate
    fig, axes = plots.ours_vs_paper(cmp)
    # row 0 (ROUGE-1, consistency, spearman; estimate 0.1) keeps its interval [0.2, 0.3] as given
    segments = axes[0, 0].collections[0].get_segments()
    assert np.allclose(segments[0][:, 0], [0.2, 0.3])
    ours = [ln for ln in axes[0, 0].get_lines() if ln.get_label() == "ours"][0]
    assert np.allclose(ours.get_xdata(), [0.1, 0.2, 0.3])  # the estimate stays outside its interval
    assert np.allclose([seg[:, 0] for seg in segments[1:]], [[0.15, 0.25], [0.25, 0.35]])
    paths = figures.save(fig, "unit", "cmp", folder=tmp_path)
    assert [p.name for p in paths] == ["cmp.pdf", "cmp.png"] and all(p.stat().st_size > 0 for p in paths)
    assert paths[0].read_bytes()[:4] == b"%PDF" and paths[1].read_bytes()[:4] == b"\x89PNG"


def test_heatmap_orientation():
    m = np.arange(6).reshape(2, 3)
    fig, ax = plots.heatmap(m, xlabel="text layer", ylabel="summary layer", xticklabels=[0, 1, 2])
    img = ax.get_images()[0]
    assert img.get_array().shape == (2, 3) and img.origin == "lower"
    assert ax.get_xlabel() == "text layer"


def test_filter_frame_and_explorer_react():
    frame = _comparison().rename(columns={"ours": "value"})
    assert len(widgets.filter_frame(frame, {"human": "relevance", "method": widgets.ALL})) == 6
    assert len(widgets.filter_frame(frame, {"human": ["relevance", "consistency"], "method": []})) == 12
    box = widgets.frame_explorer(frame, ["human", "method"], bar_by="method")
    assert len(box.current()) == len(frame)
    select = box.children[0].children[0]
    assert select.description == "Human" and select.options == (("Consistency", "consistency"),
                                                                  ("Relevance", "relevance"))
    select.value = ("consistency",)  # what a click does
    assert box.selection() == {"human": ["consistency"], "method": widgets.ALL}
    assert set(box.current()["human"]) == {"consistency"} and len(box.current()) == 6
    assert set(box.last_shown["human"]) == {"consistency"}  # the output area was redrawn
