"""The shelf's system-pair figures (close pairs, PDP, rank intervals) as the `default` run showed them: each measure
drawn once, cells that were not computed marked, unequal thirds counted, a set's own columns named by the set."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from sumeval.errors import InputError  # noqa: E402
from sumeval.plots import close_pairs  # noqa: E402

from figure_kinds import HUMANS, MEASURES, _system_pairs  # noqa: E402


@pytest.fixture(scope="module")
def frames():
    return _system_pairs()


def _titles(axes) -> list[str]:
    return [ax.get_title() for ax in np.ravel(axes) if ax.axison]


def test_rank_panels_draw_each_ranking_once_when_the_order_repeats_the_given_measures(frames):
    """The notebook passes the given measures then the set's labels, which repeat them: DialSummEval's panels showed
    ROUGE-1 ... JS-2 twice (a third row of copies) and left its own columns out."""
    ranks = frames[2]
    order = [*MEASURES[:9], *MEASURES[:9], "dialsummeval.rouge-1", "dialsummeval.bertscore_f1"]
    fig, axes = close_pairs.rank_interval_panels(ranks, dataset="dialsummeval", measure_order=order)
    titles = _titles(axes)
    plt.close(fig)
    assert len(titles) == len(set(titles)) == len(HUMANS) + 9 + 2
    assert [t.replace("\n", " ") for t in titles[-2:]] == ["DialSummEval's ROUGE-1", "DialSummEval's bertscore_f1"]


def test_rank_panels_fill_the_page_with_fewer_rankings_than_five(frames):
    """FaithBench's figure (its human column and three measures) left a blank fifth of the page."""
    from figure_kinds import _four_rankings

    fig, axes = close_pairs.rank_interval_panels(_four_rankings(frames[2]), dataset="faithbench")
    shape = axes.shape
    blank = [ax for ax in axes.flat if not ax.axison]
    plt.close(fig)
    assert shape == (1, 4) and not blank


def test_pdp_cells_not_computed_are_hatched_and_said(frames):
    """XSumFaith has no source texts, so its source-overlap sentinels have no PDP: a white cell read as 0."""
    pdp = frames[1]
    fig, ax = close_pairs.pdp_heatmap(pdp, measure_order=MEASURES[:9])
    values = np.asarray(ax.images[0].get_array(), dtype=float)
    hatched = [p for p in ax.patches if p.get_hatch() == "///"]
    assert np.isnan(values).sum() == 3 * len(HUMANS) and len(hatched) == 3 * len(HUMANS)
    assert "hatched: not computed" in ax.get_xlabel()
    plt.close(fig)
    full = pdp[pdp["dataset"] != "xsumfaith"]
    fig, ax = close_pairs.pdp_heatmap(full, measure_order=MEASURES[:9])
    assert not [p for p in ax.patches if p.get_hatch() == "///"] and ax.get_xlabel() == ""
    plt.close(fig)


def test_pdp_columns_read_one_line_each_and_one_sets_frame_needs_no_dataset_column(frames):
    """Stacked two-line labels turned on their side read across neighbouring columns ("Relevance XSumFaith"):
    one line per column. A meta-evaluation's own pdp.csv (one set, no dataset column) draws its human columns."""
    pdp = frames[1]
    fig, ax = close_pairs.pdp_heatmap(pdp, measure_order=MEASURES[:9])
    labels = [t.get_text() for t in ax.get_xticklabels()]
    plt.close(fig)
    assert labels[:2] == ["DialSummEval Coherence", "SummEval Coherence"] and not any("\n" in t for t in labels)
    one = pdp[pdp["dataset"] == "summeval"].drop(columns="dataset")
    fig, ax = close_pairs.pdp_heatmap(one, measure_order=MEASURES[:9])
    labels = [t.get_text() for t in ax.get_xticklabels()]
    values = np.asarray(ax.images[0].get_array(), dtype=float)
    plt.close(fig)
    assert labels == ["Coherence", "Consistency", "Fluency", "Relevance"] and values.shape == (13, 4)
    first = one[(one["measure"] == MEASURES[0]) & (one["human"] == HUMANS[0])]["pdp"].iloc[0]
    assert values[0, 0] == first
    # without roles (no sentinels told apart): the measures asked for, nothing else
    fig, ax = close_pairs.pdp_heatmap(one.drop(columns="role"), measure_order=MEASURES[:2])
    rows = [t.get_text() for t in ax.get_yticklabels()]
    plt.close(fig)
    assert rows == ["ROUGE-1", "ROUGE-2"]


def test_pdp_heatmap_refuses_a_frame_it_cannot_draw(frames):
    pdp = frames[1]
    with pytest.raises(InputError, match=r"lacks ci_low, ci_high: pass pdp.csv"):
        close_pairs.pdp_heatmap(pdp.drop(columns=["ci_low", "ci_high"]))
    with pytest.raises(InputError, match=r"no rows at level='system' \(the frame's levels: input\): pass one"):
        close_pairs.pdp_heatmap(pdp, level="system")


def test_close_pair_titles_count_each_third_when_they_differ(frames):
    fig, axes = close_pairs.close_pair_dots(frames[0], dataset="dialsummeval")
    titles = _titles(axes)
    plt.close(fig)
    assert titles[0].endswith("(30 pairs per third)")
    assert titles[-1] == "Relevance\n(22, 23, 21 pairs)"


def test_close_pair_caption_says_why_an_interval_lies_beside_its_estimate(frames):
    """RoSE's Ref-based bigram overlap: closest-third agreement 0.09 drawn with the interval [0.18, 0.64]."""
    cp = frames[0]
    fig, _ = close_pairs.close_pair_dots(cp, dataset="dialsummeval")
    assert not [t for t in fig.texts if "beside its estimate" in t.get_text()]
    plt.close(fig)
    cp = cp.copy()
    first = cp.index[(cp["bin"] == 0) & cp["ci_low"].notna()][0]
    cp.loc[first, ["agreement", "ci_low", "ci_high"]] = [0.09, 0.18, 0.64]
    fig, _ = close_pairs.close_pair_dots(cp, dataset="dialsummeval")
    texts = [t.get_text().replace("\n", " ") for t in fig.texts]
    plt.close(fig)
    assert [t for t in texts if "can lie beside its estimate" in t and "toward chance" in t]


def test_wrap_balances_lines_without_splitting_a_word():
    """A panel title "DialSummEval's ROUGE-1" was balanced into "DialSummEval" / "'s ROUGE-1"."""
    from sumeval.plots.style import wrap

    fig = plt.figure(figsize=(6.3, 3))
    text = "DialSummEval's ROUGE-1"
    lines = wrap(fig, text, fontsize=7, width_in=1.1).split("\n")
    plt.close(fig)
    assert lines == ["DialSummEval's", "ROUGE-1"]
    assert " ".join(lines) == text


def test_wrap_keeps_a_word_longer_than_the_width_inside_it():
    """Balancing without splitting words must not put back a word the first pass had to split to fit."""
    from matplotlib.text import Text

    from sumeval.plots.style import wrap

    fig = plt.figure(figsize=(6.3, 3))
    text = "ab " + "b" * 30  # split to fit by the first pass: "ab bbb...b" / "bbbbbbbb"
    wrapped = wrap(fig, text, fontsize=7, width_in=1.1)
    width = Text(0, 0, wrapped, fontsize=7, figure=fig).get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
    plt.close(fig)
    assert width <= 1.1 and wrapped.replace("\n", "").replace(" ", "") == text.replace(" ", "")
