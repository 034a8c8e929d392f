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
    # corr_a - corr_b = diff: a (0.5) beats b (0.3) and c (0.1); b beats c
    pair = pd.DataFrame({"measure_a": ["a", "a", "b"], "measure_b": ["b", "c", "c"], "human": "rel",
                         "level": "system", "coefficient": "kendall_b", "test": "permutation-both",
                         "corr_a": [0.5, 0.5, 0.3], "corr_b": [0.3, 0.1, 0.1], "diff": [0.2, 0.4, 0.2],
                         "p_value": [0.01, 0.002, 0.2], "p_adjusted": [0.02, 0.006, 0.2], "correction": "holm"})
    rank = pd.DataFrame({"measure": ["a", "b", "c"], "human": "rel", "level": "system",
                         "coefficient": "kendall_b", "value": [0.5, 0.3, 0.1], "cluster": [1, 2, 2]})
    return corr, pair, rank


def test_pvalue_matrix_draws_who_wins_and_significance_best_first(frames):
    _, pair, rank = frames
    # given in the reverse order, the matrix is still by rank: a, b, c
    fig, ax = mp.pvalue_matrix(pair, human="rel", level="system", measure_order=["c", "b", "a"], ranking=rank)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]
    codes = np.asarray(ax.images[0].get_array().filled(np.nan))
    # by hand: a-b p_adj 0.02 < 0.05 and a better -> +2 (row better, significant), -2 mirrored;
    # a-c 0.006 -> +2 / -2; b-c 0.2 >= 0.05 -> +1 (row better, not significant) / -1
    np.testing.assert_array_equal(codes, [[np.nan, 2, 2], [-2, np.nan, 1], [-2, -1, np.nan]])
    cells = {t.get_position(): t.get_text() for t in ax.texts}
    assert cells[(1, 0)] == "0.02" and cells[(2, 0)] == "<.01" and cells[(2, 1)] == "0.20"
    raw = mp.pvalue_matrix(pair, human="rel", level="system", adjusted=False, alpha=0.015)[1]
    # raw p: a-b 0.01 < 0.015 significant; adjusted 0.02 would not be
    assert np.asarray(raw.images[0].get_array().filled(np.nan))[0, 1] == 2
    adj = mp.pvalue_matrix(pair, human="rel", level="system", alpha=0.015)[1]
    assert np.asarray(adj.images[0].get_array().filled(np.nan))[0, 1] == 1
def test_ranking_bars_in_order_with_cluster_colours(frames):
    _, _, rank = frames
    fig, ax = mp.ranking_bars(rank.iloc[::-1], human="rel", level="system")
    widths = [p.get_width() for p in ax.patches]
    assert widths == [0.5, 0.3, 0.1]  # best first whatever the input order
    colours = [p.get_facecolor() for p in ax.patches]
    assert colours[1] == colours[2] != colours[0]  # clusters 2, 2 vs 1
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a  [1]", "b  [2]", "c  [2]"]
    named = mp.ranking_bars(rank.assign(measure=["rouge-2", "js-2 (negated)", "my_col"]), human="rel",
                            level="system")[1]
    assert [t.get_text() for t in named.get_yticklabels()] == ["ROUGE-2  [1]", "JS-2 (negated)  [2]", "my_col  [2]"]


def test_correlation_intervals_draws_values_intervals_and_top_cluster(frames):
    corr, _, rank = frames
    fig, axes = mp.correlation_intervals(corr, ranking=rank, level_order=["system", "input"])
    assert axes.shape == (2, 1)
    ax = axes[0, 0]
    segs = ax.collections[0].get_segments()
    assert [tuple(s[:, 0]) for s in segs] == [(0.4, 0.6), (0.2, 0.4)]  # c has no interval
    hollow, filled = ax.lines[0], ax.lines[1]
    assert list(filled.get_xdata()) == [0.5] and list(hollow.get_xdata()) == [0.3, 0.1]


def _levels_frame(roles: bool):
    """metric_correlations' levels on SummEval (roles=False) or a meta-evaluation with its annotators
    (roles=True): wide system-level intervals (-0.4 to 0.8), input- and global-level ones of +-0.045."""
    rng = np.random.default_rng(0)
    rows = []
    for h in ("consistency", "relevance", "coherence", "fluency"):
        for lv, half in (("input", 0.045), ("system", 0.2), ("global", 0.045)):
            names = [f"m{k}" for k in range(6)] + (["annotator:expert_1", "human ceiling"] if roles else [])
            for k, m in enumerate(names):
                v = float(rng.uniform(-0.2, 0.6)) if lv == "system" else float(rng.uniform(0.05, 0.25))
                rows.append({"measure": m, "human": h, "level": lv, "coefficient": "kendall_b", "value": v,
                             "ci_low": v - half, "ci_high": v + half,
                             "role": "measure" if k < 6 else ("ceiling" if m == "human ceiling" else "annotator")})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("roles", [False, True], ids=["metric_correlations", "meta_evaluation"])
def test_correlation_intervals_show_every_interval_wider_than_its_dot(roles):
    """An interval of +-0.045 drawn on the system level's range (-0.4 to 0.8) hid behind its dot (it
    stuck out by a pixel or two): each level (row) gets its own x range, and every interval reaches
    at least 2 pt past its dot on both sides."""
    frame = _levels_frame(roles)
    ranking = frame.assign(cluster=1.0) if roles else None
    fig, axes = mp.correlation_intervals(frame, level_order=["input", "system", "global"], ranking=ranking)
    fig.canvas.draw()
    for ax in axes.flat:
        radius_px = max(line.get_markersize() for line in ax.lines) / 2 * fig.dpi / 72
        past_px = 2 * fig.dpi / 72
        for collection in ax.collections:
            for segment in collection.get_segments():
                (x0, _), (x1, _) = ax.transData.transform(segment)
                assert (x1 - x0) / 2 > radius_px + past_px, (ax.get_title(), segment, radius_px)


def test_pvalue_grid_has_a_panel_per_level_and_human(frames):
    _, pair, _ = frames
    pair2 = pd.concat([pair, pair.assign(level="input", p_adjusted=[0.5, 0.6, 0.7])])
    fig, axes = mp.pvalue_grid(pair2, level_order=["system", "input"])
    assert axes.shape == (2, 1)
    # input: p_adjusted 0.5 for a-b, not significant, a better: +1
    assert np.asarray(axes[1, 0].images[0].get_array().filled(np.nan))[0, 1] == 1


def test_pvalue_matrix_direction_does_not_depend_on_which_measure_the_test_named_first(frames):
    _, pair, rank = frames
    flipped = pair.copy()  # the a-c test written as c-a: diff and correlations swap
    flipped.loc[1, ["measure_a", "measure_b", "corr_a", "corr_b", "diff"]] = ["c", "a", 0.1, 0.5, -0.4]
    a = np.asarray(mp.pvalue_matrix(pair, human="rel", level="system", ranking=rank)[1].images[0].get_array())
    b = np.asarray(mp.pvalue_matrix(flipped, human="rel", level="system", ranking=rank)[1].images[0].get_array())
    np.testing.assert_array_equal(a, b)


def test_pvalue_cells_rank_without_a_ranking_by_mean_correlation(frames):
    _, pair, _ = frames
    # mean correlation over the tests: a (0.5, 0.5) = 0.5, b (0.3, 0.3) = 0.3, c (0.1, 0.1) = 0.1
    measures, p, diff = mp.pvalue_cells(pair.iloc[::-1], human="rel", level="system", measure_order=["c", "b", "a"])
    assert measures == ["a", "b", "c"]
    np.testing.assert_allclose(diff, [[np.nan, 0.2, 0.4], [-0.2, np.nan, 0.2], [-0.4, -0.2, np.nan]])
    np.testing.assert_allclose(p, [[np.nan, 0.02, 0.006], [0.02, np.nan, 0.2], [0.006, 0.2, np.nan]])


def test_significant_cells_are_the_saturated_ones(frames):
    import colorsys

    from matplotlib.colors import to_rgb

    _, pair, rank = frames
    fig, ax = mp.pvalue_matrix(pair, human="rel", level="system", ranking=rank)
    im = ax.images[0]

    def saturation(code):
        return colorsys.rgb_to_hls(*to_rgb(im.cmap(im.norm(code))))[2]

    def lightness(code):
        return colorsys.rgb_to_hls(*to_rgb(im.cmap(im.norm(code))))[1]

    for sign in (1, -1):  # significant: deeper (darker, more saturated) than not significant
        assert lightness(2 * sign) < lightness(sign) - 0.25
        assert saturation(2 * sign) >= saturation(sign)
    assert to_rgb(im.cmap(im.norm(2))) != to_rgb(im.cmap(im.norm(-2)))  # direction: another hue


def test_figures_that_show_significance_name_the_test_correction_and_alpha(frames):
    corr, pair, rank = frames
    how = ("permutation test (systems and inputs)", "Holm correction", "alpha = 0.05")

    def text_of(fig):
        return " ".join([fig.get_suptitle()] + [t.get_text() for t in fig.texts]
                        ).replace("\n", " ")

    grid = mp.pvalue_grid(pair, alpha=0.05, ranking=rank)[0]
    single = mp.pvalue_matrix(pair, human="rel", level="system", alpha=0.05)[0]
    bars = mp.ranking_grid(rank, test="permutation-both", correction="holm", alpha=0.05)[0]
    dots = mp.correlation_intervals(corr, ranking=rank, test="permutation-both", correction="holm", alpha=0.05)[0]
    for fig in (grid, single, bars, dots):
        assert all(part in text_of(fig) for part in how), text_of(fig)
    assert "saturated: significant" in text_of(grid) and "best first" in text_of(grid)


def test_pvalue_matrix_refuses_a_frame_without_the_tests_direction(frames):
    from sumeval.errors import InputError

    _, pair, _ = frames
    with pytest.raises(InputError, match="lacks diff"):
        mp.pvalue_matrix(pair.drop(columns="diff"), human="rel", level="system")


def test_the_pvalue_figure_is_saved_without_resampling_its_cells(frames, tmp_path):
    """A PDF holds the n x n cells as an n x n image (scaled by the viewer), not one resampled at
    the figure's resolution (a 41-measure grid's were 3,600 pixels a side per panel, and most of the
    time of a big run's figures); the cell texts are out of the layout, the tight box unchanged."""
    import re

    import matplotlib.pyplot as plt

    from sumeval import figures

    _, pair, rank = frames
    figures.apply_style()
    fig, ax = mp.pvalue_matrix(pair, human="rel", level="system", ranking=rank)
    pdf = figures.save(fig, "", "pvalues", folder=tmp_path, formats=("pdf",))[0].read_bytes()
    sizes = {(int(w), int(h)) for w, h in re.findall(rb"/Width (\d+)\s*/Height (\d+)", pdf)}
    sizes |= {(int(w), int(h)) for h, w in re.findall(rb"/Height (\d+)\s*/Width (\d+)", pdf)}
    assert sizes == {(3, 3)}, sizes
    renderer = fig.canvas.get_renderer()
    with_texts = fig.get_tightbbox(renderer).bounds
    assert ax.texts and not any(t.get_in_layout() for t in ax.texts)
    for t in ax.texts:
        t.set_in_layout(True)
    assert fig.get_tightbbox(renderer).bounds == pytest.approx(with_texts)
    plt.close(fig)
