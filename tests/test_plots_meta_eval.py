"""Tests of sumeval.plots.meta_eval: each figure draws the numbers it is given."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from sumeval.plots import meta_eval as mp


@pytest.fixture()
def frames():
    corr = pd.DataFrame({
        "measure": ["a", "b", "c"] * 2, "human": ["rel"] * 6, "level": ["system"] * 3 + ["input"] * 3,
        "coefficient": ["kendall_b"] * 6, "value": [0.5, 0.3, 0.1, 0.2, 0.25, 0.05],
        "ci_low": [0.4, 0.2, np.nan, 0.1, 0.2, 0.0], "ci_high": [0.6, 0.4, np.nan, 0.3, 0.3, 0.1]})
    pair = pd.DataFrame({"measure_a": ["a", "a", "b"], "measure_b": ["b", "c", "c"], "human": "rel",
                         "level": "system", "coefficient": "kendall_b", "test": "permutation-both",
                         "p_value": [0.01, 0.002, 0.2], "p_adjusted": [0.02, 0.006, 0.2]})
    rank = pd.DataFrame({"measure": ["a", "b", "c"], "human": "rel", "level": "system",
                         "coefficient": "kendall_b", "value": [0.5, 0.3, 0.1], "cluster": [1, 2, 2]})
    return corr, pair, rank


def test_pvalue_matrix_is_the_symmetric_adjusted_pvalues(frames):
    _, pair, _ = frames
    fig, ax = mp.pvalue_matrix(pair, human="rel", level="system", measure_order=["a", "b", "c"])
    m = np.asarray(ax.images[0].get_array())
    expected = np.array([[np.nan, 0.02, 0.006], [0.02, np.nan, 0.2], [0.006, 0.2, np.nan]])
    np.testing.assert_allclose(m, expected)
    bold = [t.get_text() for t in ax.texts if t.get_fontweight() == "bold"]
    assert sorted(bold) == sorted(["0.02", "0.02", "<.01", "<.01"])  # p < 0.05 in bold
    raw = mp.pvalue_matrix(pair, human="rel", level="system", adjusted=False)[1]
    assert np.asarray(raw.images[0].get_array())[0, 1] == 0.01


def test_ranking_bars_in_order_with_cluster_colours(frames):
    _, _, rank = frames
    fig, ax = mp.ranking_bars(rank.iloc[::-1], human="rel", level="system")
    widths = [p.get_width() for p in ax.patches]
    assert widths == [0.5, 0.3, 0.1]  # best first whatever the input order
    colours = [p.get_facecolor() for p in ax.patches]
    assert colours[1] == colours[2] != colours[0]  # clusters 2, 2 vs 1
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a  [1]", "b  [2]", "c  [2]"]


def test_correlation_intervals_draws_values_intervals_and_top_cluster(frames):
    corr, _, rank = frames
    fig, axes = mp.correlation_intervals(corr, ranking=rank, level_order=["system", "input"])
    assert axes.shape == (2, 1)
    ax = axes[0, 0]
    segs = ax.collections[0].get_segments()
    assert [tuple(s[:, 0]) for s in segs] == [(0.4, 0.6), (0.2, 0.4)]  # c has no interval
    hollow, filled = ax.lines[0], ax.lines[1]
    assert list(filled.get_xdata()) == [0.5] and list(hollow.get_xdata()) == [0.3, 0.1]


def test_pvalue_grid_has_a_panel_per_level_and_human(frames):
    _, pair, _ = frames
    pair2 = pd.concat([pair, pair.assign(level="input", p_adjusted=[0.5, 0.6, 0.7])])
    fig, axes = mp.pvalue_grid(pair2, level_order=["system", "input"])
    assert axes.shape == (2, 1)
    assert np.asarray(axes[1, 0].images[0].get_array())[0, 1] == 0.5
