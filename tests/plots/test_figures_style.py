"""Every kind of figure in sumeval's house style: drawn on small frames, its text measured by the
renderer (:func:`sumeval.plots.style.layout_problems`): no two texts overlap, none reaches outside
the figure; the colours are the Okabe-Ito palette and the caller's matplotlib settings survive."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from cycler import cycler

from sumeval.plots import core, style

import figure_kinds  # noqa: E402  (tests/ is on the path)
from helpers import FIXTURES, TEST_DATA  # tests/ is on the path

HUMANS = ["coherence", "consistency", "fluency", "relevance"]
#: the figure kinds the studies draw (tests/plots/figure_kinds.py); each is checked below
ALL_KINDS = 46


pytestmark = pytest.mark.usefixtures("close_figures")  # every figure closed after each test (conftest)


@pytest.mark.parametrize("kind", list(figure_kinds.kinds()))
def test_each_figure_kind_has_no_overlapping_text_and_fits_its_figure(kind):
    fig = figure_kinds.kinds()[kind]()
    assert style.layout_problems(fig) == []
    # what a saved figure keeps: savefig's tight box must hold every legend and text of the figure
    # (a footer's legend left out of the layout was cut from every saved PNG and PDF)
    renderer = fig.canvas.get_renderer()
    box = fig.get_tightbbox(renderer)
    for artist in [*fig.legends, *fig.texts]:
        if not artist.get_visible() or (hasattr(artist, "get_text") and not artist.get_text().strip()):
            continue
        e = artist.get_window_extent(renderer).transformed(fig.dpi_scale_trans.inverted())
        assert (box.x0 - 0.01 <= e.x0 and e.x1 <= box.x1 + 0.01 and box.y0 - 0.01 <= e.y0
                and e.y1 <= box.y1 + 0.01), f"{kind}: {type(artist).__name__} outside the saved box"


@pytest.mark.parametrize("kind", list(figure_kinds.kinds()))
def test_each_figure_kind_is_a_column_or_a_page_wide_and_no_taller_than_a_page(kind):
    fig = figure_kinds.kinds()[kind]()
    width, height = fig.get_size_inches()
    assert min(abs(width - style.COLUMN_IN), abs(width - style.PAGE_IN)) < 0.01, width
    assert height <= style.MAX_HEIGHT_IN + 0.5, height


def _drawn_as(handle) -> tuple:
    """What a legend entry looks like: colour, line style, marker (and its face) of a line; face
    colour and hatch of a patch; face and edge colours of a collection."""
    from matplotlib.collections import Collection
    from matplotlib.colors import to_hex
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if isinstance(handle, Line2D):
        none = ("None", "none", "", " ", None)
        line = handle.get_linestyle() if handle.get_linewidth() > 0 and handle.get_linestyle() not in none else None
        marker = handle.get_marker() if handle.get_marker() not in none else None
        return ("line", to_hex(handle.get_color()), line, marker,
                to_hex(handle.get_markerfacecolor()) if marker else None)
    if isinstance(handle, Patch):
        return ("patch", to_hex(handle.get_facecolor(), keep_alpha=True), handle.get_hatch())
    if isinstance(handle, Collection):
        return ("collection", tuple(to_hex(c, keep_alpha=True) for c in handle.get_facecolors()),
                tuple(to_hex(c, keep_alpha=True) for c in handle.get_edgecolors()), handle.get_hatch())
    return (type(handle).__name__, id(handle))  # another kind of entry: not compared


@pytest.mark.parametrize("kind", list(figure_kinds.kinds()))
def test_each_figure_kinds_legends_tell_every_entry_apart(kind):
    """No two entries of one legend drawn alike (the house cycle's 7 colours repeat: an 8th judge or
    measure was drawn as the first) nor named alike (the human ceiling's diamond and its line)."""
    fig = figure_kinds.kinds()[kind]()
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    for legend in legends:
        names = [t.get_text() for t in legend.get_texts()]
        assert len(set(names)) == len(names), f"{kind}: a name twice in {names}"
        seen: dict[tuple, str] = {}
        for handle, name in zip(legend.legend_handles, names):
            look = _drawn_as(handle)
            assert look not in seen, f"{kind}: {name!r} is drawn as {seen[look]!r}: {look}"
            seen[look] = name


def test_the_legend_check_sees_more_series_than_the_cycle_has_colours():
    """At least one figure kind draws more series than :data:`style.CYCLE` has colours, as lines and
    as bars (annotator_impact's 8-9 measures, llm_judges' 8 and 11 judges)."""
    counts = {}
    for kind in ("worker_curves_nine", "reference_bars_eight", "ppi_widths_judge_sets"):
        fig = figure_kinds.kinds()[kind]()
        counts[kind] = len(fig.legends[0].legend_handles)
    assert min(counts.values()) > len(style.CYCLE), counts


def test_series_past_the_cycle_take_a_second_channel():
    looks = [style.series_style(i) for i in range(4 * len(style.CYCLE))]
    assert len({tuple(sorted(d.items())) for d in looks}) == len(looks)
    bars = [style.series_style(i, "bar") for i in range(4 * len(style.CYCLE))]
    assert len({(d["facecolor"], d["hatch"]) for d in bars}) == len(bars)
    assert style.series_style(0) == {"color": style.CYCLE[0], "linestyle": "-", "marker": "o"}
    with pytest.raises(ValueError, match="'area'"):
        style.series_style(0, "area")


def test_series_styles_use_only_properties_every_supported_matplotlib_has():
    """pyproject allows matplotlib >= 3.7; ``hatchcolor`` came in 3.11 and made every bar figure raise
    ``Rectangle.set() got an unexpected keyword argument 'hatchcolor'`` on 3.7-3.10 (checked on 3.10.9)."""
    since_3_7 = {"line": {"color", "linestyle", "marker"}, "marker": {"color", "marker"},
                 "bar": {"facecolor", "hatch", "edgecolor", "linewidth"}}
    for kind, allowed in since_3_7.items():
        for i in range(4 * len(style.CYCLE)):
            assert set(style.series_style(i, kind)) <= allowed, (kind, i)


@pytest.mark.parametrize("kind", list(figure_kinds.kinds()))
def test_each_figure_kind_writes_its_tick_labels_in_one_size(kind):
    """The x tick labels of all panels in one size, the y tick labels too (the p-value grid's panels
    measured their own sizes while the layout still moved: some rows and columns came out larger).
    A colour bar's scale is not a panel."""
    fig = figure_kinds.kinds()[kind]()
    fig.canvas.draw()
    for axis in ("xaxis", "yaxis"):
        sizes = {}
        for k, ax in enumerate(fig.axes):
            if not ax.axison or hasattr(ax, "_colorbar"):
                continue
            for tick in getattr(ax, axis)._update_ticks():
                for label in (tick.label1, tick.label2):
                    if label.get_visible() and label.get_text().strip():
                        sizes.setdefault(round(label.get_fontsize(), 2), set()).add(k)
        assert len(sizes) <= 1, f"{kind}: {axis} tick labels in sizes {sorted(sizes)} (panels {sizes})"


def test_a_panel_of_one_label_count_shows_it_as_one_integer_tick():
    """StorySumm's PPI panel has one count of labels (10): its x axis ran 9.6-10.4 with fractional
    ticks; it shows the one count, FaithBench's panel integer counts."""
    fig = figure_kinds.kinds()["ppi_widths_judge_sets"]()
    fig.canvas.draw()
    bottom = [ax for ax in fig.axes if ax.get_xlabel()]
    shown = [[t.get_text() for t in ax.get_xticklabels() if ax.get_xlim()[0] <= t.get_position()[0] <= ax.get_xlim()[1]]
             for ax in bottom]
    assert shown[1] == ["10"], shown
    assert shown[0] and all(t.isdigit() for t in shown[0]), shown


def test_titles_and_axes_name_data_sets_qualities_and_coefficients_as_the_names_table(tmp_path):
    """annotator_impact's curves of the experts said "summeval coherence" and "pearson with coherence";
    llm_judges' panels of the shelf sets "FaithBench: consistent"."""
    from sumeval.running.run_context import RunContext
    from sumeval.studies import llm_judges
    from sumeval.studies.common.annotator_subsets import save_workers

    save_workers(RunContext(study="annotator_impact", run_dir=tmp_path), figure_kinds._workers(), "coherence",
                 "experts", data_name="summeval")
    fig = plt.figure(plt.get_fignums()[-1])
    ax = fig.axes[0]
    assert " ".join(fig.get_suptitle().split()) == "SummEval Coherence: experts drawn per summary"
    assert ax.get_ylabel() == "Pearson with Coherence (system level)"
    assert ax.get_xlabel() == "annotators per summary\nbehind Coherence (their mean)"
    assert style.layout_problems(fig) == []  # the label on one line ran past the column's edges
    frame = llm_judges.by_set(pd.DataFrame({"dataset": ["faithbench"], "human": ["consistent"]}))
    assert list(frame["human"]) == ["FaithBench: Consistent"]


def _comparison():
    return figure_kinds.comparison(humans=HUMANS, methods=("spearman", "kendall_c"))


def test_a_pvalue_grid_of_pairs_none_tested_is_refused_and_meta_eval_draws_none(tmp_path):
    """meta-eval of two measures, one constant: its one pair untested, the grid was two empty rows, collapsed under
    a caption that blamed "too many cells to print them"."""
    from sumeval.cli import main
    from sumeval.errors import InputError
    from sumeval.plots import meta_eval

    pair, rank = figure_kinds._two_measures()
    with pytest.raises(InputError, match=r"no pair of measures was tested on Kendall tau-b .*note column says why"):
        meta_eval.pvalue_grid(pair, ranking=rank)
    rows = [{"doc_id": f"d{d}", "system": f"s{s}", "h": float((d * 7 + s * 3) % 5), "good": float((d * 7 + s * 3) % 5)
             + 0.1 * s, "flat": 2.0} for d in range(5) for s in range(4)]
    pd.DataFrame(rows).to_csv(tmp_path / "j.csv", index=False)
    out = tmp_path / "out"
    assert main(["meta-eval", str(tmp_path / "j.csv"), "--human", "h", "--measures", "good", "flat", "--level",
                 "global", "--n-resamples", "20", "-q", "--out", str(out)]) == 0
    assert (out / "ranking_kendall_b.png").is_file() and not (out / "pvalues_kendall_b.png").exists()


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


def test_every_kind_the_studies_draw_is_checked():
    """A kind left out of figure_kinds.py escapes the checks: the count moves only with a new kind."""
    assert len(figure_kinds.kinds()) == ALL_KINDS


def test_lines_and_markers_take_colours_readable_on_white_paper():
    """Okabe-Ito's yellow (1.3:1 on white) is faint as a line or a dot in print; every colour of the
    cycle is at least 2:1 (Okabe-Ito's orange and sky blue: 2.2-2.3:1), and the cycle has one colour
    of each hue it keeps."""
    assert style.contrast_on_white("#F0E442") < 1.5 and style.contrast_on_white("black") == pytest.approx(21.0)
    cycle = [matplotlib.colors.to_hex(c).upper() for c in style.palette_cycle().by_key()["color"]]
    assert len(set(cycle)) == len(cycle) >= 7 and set(cycle) <= set(style.OKABE_ITO)
    assert min(style.contrast_on_white(c) for c in cycle) >= 2.0, cycle
    assert [style.colour(k) for k in range(len(cycle))] == cycle


def test_tick_labels_of_an_axes_turned_off_are_not_measured_but_drawn_ones_are():
    """``ax.axis("off")`` keeps its tick labels as artists, never drawn: not text on the figure (a
    table drawn in an axes turned off was reported as text below the figure)."""
    fig, ax = plt.subplots(figsize=(style.COLUMN_IN, 0.3))  # too short: the x tick labels fall outside
    assert any("reaches outside" in p for p in style.layout_problems(fig))
    ax.axis("off")
    assert style.layout_problems(fig) == []


def test_the_sentinel_band_says_the_share_of_draws_it_holds():
    from sumeval.plots import sentinels

    cells = figure_kinds._across()[0]
    rows = figure_kinds._sentinels(cells)

    def band(**kw):
        fig, _ = sentinels.sentinel_bands(cells, rows, coefficient="kendall_b", level="input", **kw)
        return [t.get_text() for t in fig.legends[0].get_texts() if t.get_text().startswith("random")]

    assert band(ci=0.9) == ["random: central 90% of its draws"]
    assert band(ci=0.95) == ["random: central 95% of its draws"]
    assert band() == ["random: central range of its draws"]  # not told: no number
    with pytest.raises(ValueError, match="ci=95"):
        band(ci=95)


def test_meta_eval_draws_its_figures_in_the_house_style_and_leaves_the_callers_settings(tmp_path, monkeypatch):
    """`sumeval meta-eval` (and a notebook calling it) once set the house style for every figure drawn
    after it; each figure is now drawn and saved in it, and the caller's settings stay as they were."""
    from PIL import Image

    from sumeval.cli import main

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(tmp_path / "registry.json"))
    data = TEST_DATA / "user_judgments.csv"
    columns = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output", "--text-col", "source",
               "--references-col", "gold"]
    assert main(["data", "add", "mine", str(data), *columns, "--human", "overall"]) == 0
    with matplotlib.rc_context({"font.size": 13.0, "savefig.dpi": 72}):
        before = dict(matplotlib.rcParams)
        out = tmp_path / "out"
        assert main(["meta-eval", "mine", "--human", "overall", "--measures", "my_metric", "rouge-1", "--level",
                     "global", "--n-resamples", "50", "--out", str(out), "-q"]) == 0
        changed = {k for k, v in matplotlib.rcParams.items() if str(before[k]) != str(v)}
        assert changed == set(), changed
    png = out / "correlations_kendall_b.png"
    dpi = Image.open(png).info["dpi"][0]
    assert dpi == pytest.approx(style.HOUSE_STYLE["savefig.dpi"], abs=0.5), dpi  # not the caller's 72


def _alt_test(tmp_path, out):
    fixture = FIXTURES / "judges" / "judgments_annotators.csv"
    return ["alt-test", str(fixture), "--human", "overall", "fluency", "--judges", "judge_good_{human}", "judge_flat",
            "--out", str(out)], "alt_test.png"


def _judge_audit(tmp_path, out):
    import pandas as pd

    frame = pd.read_csv(FIXTURES / "judges" / "judgments_annotators.csv")
    frame = frame.assign(summary=[" ".join(["w"] * int(n)) for n in frame["length"]]).rename(
        columns={"judge_good_overall": "good.overall", "judge_bad_overall": "bad.overall"})
    frame = frame[[c for c in frame if not c.startswith(("fluency", "judge_"))]]
    frame.to_csv(tmp_path / "audit.csv", index=False)
    return ["judge-audit", str(tmp_path / "audit.csv"), "--human", "overall", "--judges", "good", "bad",
            "--n-resamples", "20", "--out", str(out)], "judge_audit_verbosity.png"


def _across(tmp_path, out):
    from sumeval.cli import main

    data = TEST_DATA / "user_judgments.csv"
    columns = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output", "--text-col", "source",
               "--references-col", "gold", "--human", "overall"]
    for name in ("news_a", "news_b"):
        assert main(["data", "add", name, str(data), *columns]) == 0
    return ["meta-eval", "--dataset", "news_a", "news_b", "--human", "news_a:overall", "--measures", "rouge-1",
            "--level", "global", "--n-resamples", "20", "--out", str(out), "-q"], "heatmap_kendall_b_global.png"


@pytest.mark.parametrize("command", [_alt_test, _judge_audit, _across])
def test_the_commands_that_draw_figures_leave_the_callers_settings_alone(command, tmp_path, monkeypatch):
    """`sumeval alt-test`, `judge-audit` and `meta-eval` over several sets (and a notebook calling
    their writers) once set the house style for every figure the process drew after them
    (``apply_style``); their figures are drawn and saved in it, and the caller's settings stay."""
    from PIL import Image

    from sumeval.cli import main

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(tmp_path / "registry.json"))
    out = tmp_path / "out"
    argv, png = command(tmp_path, out)
    with matplotlib.rc_context({"font.size": 13.0, "savefig.dpi": 72, "axes.prop_cycle": cycler(color=["red"])}):
        before = dict(matplotlib.rcParams)
        assert main(argv) == 0
        changed = {k for k, v in matplotlib.rcParams.items() if str(before[k]) != str(v)}
        assert changed == set(), changed
    dpi = Image.open(out / png).info["dpi"][0]
    assert dpi == pytest.approx(style.HOUSE_STYLE["savefig.dpi"], abs=0.5), dpi  # not the caller's 72


def test_cross_domain_turns_the_test_sets_names_only_where_they_do_not_fit():
    """Table 3's heat maps: a smoke run's one model and two sets have room for ``NIPS`` and
    ``ROCStories`` upright (they were turned whatever the room); four models' narrow panels turn them."""
    from sumeval.plots import ordering

    t3 = figure_kinds._t3()
    two = ["nips", "roc"]
    one = t3[(t3["model"] == "attordernet") & t3["train_set"].isin(two) & t3["test_set"].isin(two)]
    for frame, turned in ((one, False), (t3, True)):
        fig, axes = ordering.cross_domain(frame, metric="tau")
        assert {t.get_rotation() == 90 for t in axes[0, 0].get_xticklabels()} == {turned}
        assert style.layout_problems(fig) == []
