"""What a reviewer flagged in the studies' figures, checked on what is drawn: a figure's title never
sits on a panel's title, layer axes are ticked at integers, an empty panel says why, a figure keeps
its own title, legends never cover the data, names are readable."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from sumeval.plots import core, ordering, similarity

pytestmark = pytest.mark.usefixtures("close_figures")  # every figure closed after each test (conftest)


def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _title_clear_of_panel_titles(fig, axes) -> None:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    top = fig._suptitle.get_window_extent(renderer)
    for ax in np.ravel(axes):
        if ax.get_title():
            assert not _boxes_overlap(top, ax.title.get_window_extent(renderer)), ax.get_title()


def _layer_corr(n_layers: int, humans=("coherence", "consistency")) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    rows = [{"measure": "similarity_order", "human": h, "method": "kendall_c", "summary_layer": s, "text_layer": t,
             "value": np.nan if h == "consistency" else rng.uniform(-1, 1)}
            for h in humans for s in range(n_layers) for t in range(n_layers)]
    return pd.DataFrame(rows)


def _integer_ticks(axis, lo, hi) -> list[float]:
    return [t for t in axis.get_majorticklocs() if lo <= t <= hi]


def test_fig5_title_clear_of_the_panel_title_and_layers_ticked_at_integers():
    # the default model has 13 layers (0..12): matplotlib's own ticks would be 0, 2.5, 5, 7.5, 10
    corr = _layer_corr(13, humans=("coherence",))
    fig, axes = similarity.layer_pair_grid(corr, measures=["similarity_order"], humans=["coherence"],
                                           title="Fig.5: Kendall tau-c, all-mpnet-base-v2")
    ax = axes[0, 0]
    fig.canvas.draw()
    for axis in (ax.xaxis, ax.yaxis):
        ticks = _integer_ticks(axis, 0, 12)
        assert ticks and all(float(t).is_integer() for t in ticks), ticks
    _title_clear_of_panel_titles(fig, axes)
    assert ax.get_title().startswith("Coherence\nmax")  # readable names: the quality on top, the measure at the right
    assert [t.get_text() for t in ax.texts] == ["Similarity order"]


def test_a_panel_without_a_defined_correlation_says_so():
    corr = _layer_corr(4)
    fig, axes = similarity.layer_pair_grid(corr, measures=["similarity_order"], humans=["coherence", "consistency"])
    assert [t.get_text() for t in axes[0, 0].texts] == []
    assert any("no defined correlation" in t.get_text() for t in axes[0, 1].texts)
    local = pd.DataFrame([{"human": h, "method": "kendall_c", "layer": k, "d": d,
                           "value": np.nan if h == "consistency" else k + d / 10}
                          for h in ("coherence", "consistency") for k in range(13) for d in range(1, 41)])
    fig, axes = similarity.local_order_grid(local)
    assert axes[1].get_title() == "Consistency" and any("no defined" in t.get_text() for t in axes[1].texts)
    assert axes[0].get_title() == "Coherence\nmax 16.00 (layer 12, d = 40)"  # by hand: 12 + 40 / 10
    fig.canvas.draw()
    assert all(float(t).is_integer() for t in _integer_ticks(axes[0].yaxis, 0, 12))
    _title_clear_of_panel_titles(fig, axes) if fig._suptitle else None
    diag = similarity.diagonal_profiles(corr, measures=["similarity_order"], human="consistency", method="kendall_c")[1]
    assert any("no defined correlation" in t.get_text() for t in diag.texts) and diag.get_xlim() == (-0.5, 3.5)


def test_a_curves_figure_keeps_its_own_title():
    summary = pd.DataFrame([{"level": "sentence", "model": "lstm_ptrnet", "label": "LSTM+PtrNet", "size": n,
                             "metric": m, "mean": 0.1 * n} for n in (16, 32) for m in ("wlcs_l", "acc")])
    fig, axes = ordering.curves(summary, "size", ("wlcs_l", "acc"), title="Paper 002 Fig.1: learnability")
    assert fig.get_suptitle() == "Paper 002 Fig.1: learnability"
    assert [ax.get_title() for ax in axes[0]] == ["Sentence / WLCS-l", "Sentence / Acc"]


def test_cross_domain_title_clear_of_the_model_names_and_sets_named():
    t3 = pd.DataFrame([{"model": "lstm_ptrnet", "label": "LSTM+PtrNet", "train_set": a, "test_set": b, "tau": 0.1}
                       for a in ("nips", "roc") for b in ("nips", "roc")])
    fig, axes = ordering.cross_domain(t3, "tau", title="Table 3 (sentence level): tau, train x test")
    _title_clear_of_panel_titles(fig, axes)
    assert [t.get_text() for t in axes[0, 0].get_yticklabels()] == ["NIPS", "ROCStories"]


def test_ours_vs_paper_says_where_ours_is_undefined_and_keeps_its_legend_off_the_dots():
    cmp = pd.DataFrame({"metric": ["ESTIME", "ROUGE-1"], "human": "consistency", "method": "spearman",
                        "ours": [np.nan, 0.2], "ci_low": [np.nan, 0.1], "ci_high": [np.nan, 0.3],
                        "paper": [0.39, 0.13]})
    fig, axes = core.ours_vs_paper(cmp)
    ax = axes[0, 0]
    assert [t.get_text() for t in ax.texts] == ["ours undefined"] and ax.get_title() == "Consistency / Spearman"
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    # the legend below the panels (inside the figure), never over a dot
    assert fig.legends[0].get_window_extent(renderer).y1 <= ax.get_window_extent(renderer).y0


def test_judges_close_pair_lines_sit_side_by_side_in_each_bin():
    """Eight judges with agreements 0.01 apart drew one thick line: each judge's markers are now set beside the
    others' in each bin (their values unchanged), the held-out annotators and length alone on the bin."""
    from sumeval.plots import judges

    labels = ["closest third", "middle third", "farthest third"]
    names = [f"judge-{k}" for k in range(8)]
    rows = [{"human": "coherence", "role": "judge", "metric": j, "bin": b, "bin_label": labels[b],
             "agreement": 0.6 + 0.01 * k, "ci_low": np.nan, "ci_high": np.nan}
            for k, j in enumerate(names) for b in range(3)]
    rows += [{"human": "coherence", "role": r, "metric": r, "bin": b, "bin_label": labels[b], "agreement": 0.7,
              "ci_low": 0.6, "ci_high": 0.8} for r in ("held-out annotators", "length") for b in range(3)]
    fig, axes = judges.close_pair_lines(pd.DataFrame(rows))
    lines = {ln.get_label(): ln for ln in axes[0, 0].lines}
    xs = np.array([lines[j].get_xdata() for j in names])  # (judges, bins)
    assert np.allclose(xs.mean(axis=0), [0, 1, 2])  # centred on the bin
    assert (np.diff(xs, axis=0) > 0.02).all() and (xs.max(axis=0) - xs.min(axis=0) < 0.5).all()  # apart, in the bin
    assert [list(lines[j].get_ydata()) for j in names] == [[0.6 + 0.01 * k] * 3 for k in range(8)]
    held = [ln for ln in axes[0, 0].lines if np.allclose(ln.get_ydata(), 0.7) and len(ln.get_xdata()) == 3]
    assert held and all(np.allclose(ln.get_xdata(), [0, 1, 2]) for ln in held)
