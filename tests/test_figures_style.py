"""Every kind of figure in sumeval's house style: drawn on small frames, its text measured by the
renderer (:func:`sumeval.plots.style.layout_problems`): no two texts overlap, none reaches outside
the figure; the colours are the Okabe-Ito palette and the caller's matplotlib settings survive."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from sumeval.plots import core, meta_eval, ordering, similarity, style

MEASURES = ["rouge-1", "rouge-2", "rouge-l", "bleu", "js-2 (negated)", "bertscore-f"]
HUMANS = ["coherence", "consistency", "fluency", "relevance"]


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _meta_frames():
    rng = np.random.default_rng(0)
    corr, rank, pair = [], [], []
    for h in HUMANS:
        for lv in ("input", "system"):
            values = rng.uniform(-0.2, 0.7, len(MEASURES))
            for m, v in zip(MEASURES, values):
                corr.append({"measure": m, "human": h, "level": lv, "coefficient": "kendall_b", "value": v,
                             "ci_low": v - 0.1, "ci_high": v + 0.1})
            order = np.argsort(-values)
            for r, k in enumerate(order):
                rank.append({"measure": MEASURES[k], "human": h, "level": lv, "coefficient": "kendall_b",
                             "value": values[k], "cluster": 1 + r // 2})
            for a in range(len(MEASURES)):
                for b in range(a + 1, len(MEASURES)):
                    pair.append({"measure_a": MEASURES[a], "measure_b": MEASURES[b], "human": h, "level": lv,
                                 "coefficient": "kendall_b", "test": "permutation-both", "corr_a": values[a],
                                 "corr_b": values[b], "diff": values[a] - values[b], "p_value": 0.03 * (a + b),
                                 "p_adjusted": 0.05 * (a + b), "correction": "holm"})
    return pd.DataFrame(corr), pd.DataFrame(pair), pd.DataFrame(rank)


def _comparison():
    rows = [{"metric": m, "human": h, "method": c, "ours": 0.1 * i, "ci_low": 0.1 * i - 0.05, "ci_high": 0.1 * i + 0.05,
             "paper": 0.1 * i + 0.03} for i, m in enumerate(MEASURES) for h in HUMANS for c in ("spearman", "kendall_c")]
    return pd.DataFrame(rows)


def _layer_corr(n=13):
    rng = np.random.default_rng(1)
    return pd.DataFrame([{"measure": "similarity_order", "human": h, "method": "kendall_c", "summary_layer": s,
                          "text_layer": t, "value": rng.uniform(-1, 1)}
                         for h in ("coherence", "consistency") for s in range(n) for t in range(n)])


def _t3():
    sets = ["nips", "sind", "roc"]
    return pd.DataFrame([{"model": m, "label": m, "train_set": a, "test_set": b, "tau": 0.1 * i + 0.01 * j}
                         for i, m in enumerate(["LSTM+PtrNet", "SE-Graph"]) for a in sets for j, b in enumerate(sets)])


def _figures():
    corr, pair, rank = _meta_frames()
    yield "ours_vs_paper", core.ours_vs_paper(_comparison())[0]
    yield "heatmap", core.heatmap(np.arange(12.0).reshape(3, 4), xlabel="summary layer", ylabel="text layer",
                                  title="Kendall tau-c", xticklabels=list("abcd"), yticklabels=list("xyz"))[0]
    yield "correlation_intervals", meta_eval.correlation_intervals(corr, coefficient="kendall_b", ranking=rank)[0]
    yield "pvalue_grid", meta_eval.pvalue_grid(pair, coefficient="kendall_b", ranking=rank)[0]
    yield "ranking_grid", meta_eval.ranking_grid(rank, coefficient="kendall_b")[0]
    yield "layer_pair_grid", similarity.layer_pair_grid(_layer_corr(), measures=["similarity_order"],
                                                        humans=["coherence", "consistency"], title="Fig.5")[0]
    yield "cross_domain", ordering.cross_domain(_t3(), metric="tau", title="Table 3")[0]


#: defects this test finds and that are not fixed yet (strict: the test fails once one is fixed,
#: so the mark comes off): the last x tick label or the legend drawn past the figure's right edge
#: (kept only by savefig's tight box), the p-value grid's caption and legend below its bottom edge,
#: the layer grid's colour-bar ticks on the panel's tick labels
KNOWN = {"ours_vs_paper": "last x tick label and the legend past the right edge",
         "correlation_intervals": "last x tick labels past the right edge",
         "pvalue_grid": "caption and legend below the bottom edge",
         "ranking_grid": "last x tick labels past the right edge",
         "layer_pair_grid": "colour-bar tick labels overlap the panel's"}
KINDS = [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN[name])) if name in KNOWN else name
         for name, _ in _figures()]
plt.close("all")


@pytest.mark.parametrize("kind", KINDS)
def test_each_figure_kind_has_no_overlapping_text_and_fits_its_figure(kind):
    fig = dict(_figures())[kind]
    assert style.layout_problems(fig) == []


def test_the_overlap_check_finds_overlaps_and_text_outside():
    fig, ax = plt.subplots(figsize=(style.COLUMN_IN, 2))
    ax.set_xticks(range(8), [f"a long tick label {i}" for i in range(8)])  # crowded: they run into each other
    ax.text(1.4, 0.5, "outside", transform=ax.transAxes)
    problems = style.layout_problems(fig)
    assert any("overlaps" in p for p in problems) and any("'outside' reaches outside" in p for p in problems)


def test_figures_use_the_palette_and_leave_the_callers_settings_alone():
    before = matplotlib.rcParams["font.size"], matplotlib.rcParams["axes.prop_cycle"]
    fig, axes = core.ours_vs_paper(_comparison())
    ours = axes[0, 0].lines[0].get_color()
    assert matplotlib.colors.to_hex(ours).upper() in style.OKABE_ITO
    assert axes[0, 0].title.get_fontsize() == style.HOUSE_STYLE["axes.titlesize"]
    assert (matplotlib.rcParams["font.size"], matplotlib.rcParams["axes.prop_cycle"]) == before
