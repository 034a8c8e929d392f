"""Every kind of figure in sumeval's house style: drawn on small frames, its text measured by the
renderer (:func:`sumeval.plots.style.layout_problems`): no two texts overlap, none reaches outside
the figure; the colours are the Okabe-Ito palette and the caller's matplotlib settings survive."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

from sumeval.plots import core, style

import figure_kinds  # noqa: E402  (tests/ is on the path)

HUMANS = ["coherence", "consistency", "fluency", "relevance"]


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


#: the kinds drawn a page or a column wide (the rest are still drawn at their own sizes; see KINDS_OWN_SIZE)
KINDS_OWN_SIZE = {"table2_bars", "cross_domain", "curves", "ratings_regression", "pos_bars", "seed_spread_strip",
                  "reference_bars", "table_figure", "worker_curves", "layer_profiles", "cosine_histogram",
                  "layer_pair_grid", "layer_pair_grid_one", "local_order_grid", "diagonal_profiles"}
#: still failing the text check (strict: the mark comes off once fixed)
KNOWN = {"table_figure": "the hidden axes' tick labels below the figure",
         "diagonal_profiles": "the title wider than the figure"}
KINDS = [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN[name])) if name in KNOWN else name
         for name in figure_kinds.kinds()]


@pytest.mark.parametrize("kind", KINDS)
def test_each_figure_kind_has_no_overlapping_text_and_fits_its_figure(kind):
    fig = figure_kinds.kinds()[kind]()
    assert style.layout_problems(fig) == []


@pytest.mark.parametrize("kind", [k for k in figure_kinds.kinds() if k not in KINDS_OWN_SIZE])
def test_each_figure_kind_is_a_column_or_a_page_wide_and_no_taller_than_a_page(kind):
    fig = figure_kinds.kinds()[kind]()
    width, height = fig.get_size_inches()
    assert min(abs(width - style.COLUMN_IN), abs(width - style.PAGE_IN)) < 0.01 or width <= style.PAGE_IN, width
    assert height <= style.MAX_HEIGHT_IN + 0.5, height


def _comparison():
    return figure_kinds.comparison(humans=HUMANS, methods=("spearman", "kendall_c"))


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
