"""Tables laid out for ACL's two-column page: each kind of table the studies and `meta-eval` write
is typeset with pdflatex in ACL's page (11 pt Times, text 16 cm, columns 7.7 cm) and every tabular's
box must fit the line it sits in (the column in a ``table``, the text in a ``table*``); a table
switches layout (column, page, split into panels) as its measures grow; negatives carry a real
minus; captions show readable names."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import latex, table_frames, tables

TYPESET = latex.engine() == "pdflatex" and latex.has_times()
needs_typesetting = pytest.mark.skipif(not TYPESET, reason="no pdflatex with Times: scripts/install_latex.sh (make "
                                       "setup) installs texlive-fonts-recommended; the layouts are still checked")
QUALITIES = ["coherence", "consistency", "fluency", "relevance"]
MEASURES = ["rouge-1", "rouge-2", "rouge-l", "bleu", "js-2 (negated)", "bertscore-f", "sera-10", "gesera-10"]


def _rng_frame(rows, columns, seed=0, low=-0.3, high=0.9) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.uniform(low, high, (len(rows), len(columns))), index=rows, columns=columns)


def _meta_eval_kind():
    """meta-eval / meta_evaluation / llm_judges: (group, measure) x (human, level), cluster marks."""
    rows = pd.MultiIndex.from_tuples(
        [("Measures", m) for m in MEASURES[:5]]
        + [("Annotators (vs. others)", f"annotator:expert_{i}") for i in (1, 2, 3)]
        + [("Annotators (vs. others)", "human ceiling"), ("Sentinel (not ranked)", "length (sentinel)")])
    columns = pd.MultiIndex.from_product([QUALITIES + ["mean"], ["input", "system", "global"]],
                                         names=["human", "level"])
    frame = _rng_frame(rows, columns)
    marks = pd.DataFrame("", index=rows, columns=columns)
    marks.iloc[:5] = np.random.default_rng(1).integers(1, 6, (5, len(columns))).astype(str)
    caption = ("kendall_b with the human scores on summeval; bold: best per column; superscript: significance cluster "
               "(1 = not significantly worse than the best; permutation-both, holm, alpha = 0.05)")
    return frame, dict(bold=tables.best_mask(frame), marks=marks, caption=caption)


def _paper_rows_kind():
    """metric_correlations / estime_layers Table 1: (measure, ours / paper) x (human, coefficient)."""
    long = []
    for m in ["ROUGE-1", "ROUGE-2", "BLEU", "BERTScore-F (all-mpnet-base-v2)", "ESTIME-soft"]:
        for h in QUALITIES:
            for c in ("spearman", "kendall_c"):
                long.append({"metric": m, "human": h, "method": c, "ours": -0.04 + len(long) / 100,
                             "paper": 0.1 + len(long) / 200})
    table, bold = table_frames.correlation_table(pd.DataFrame(long))
    return table, dict(bold=bold, caption="Paper 000 Table 1 rows on summeval; best of ours per column in bold")


def _intervals_kind():
    """metric_correlations Table 2: three coefficients with bootstrap intervals in the cells."""
    long = [{"metric": m, "human": "litepyramid", "method": c, "ours": -0.12 + i / 10, "ci_low": -0.3 + i / 10,
             "ci_high": 0.05 + i / 10, "paper": 0.5}
            for i, m in enumerate(["ROUGE-1", "ROUGE-2", "SERA-10", "GeSERA-10"])
            for c in ("pearson", "spearman", "kendall_b")]
    comparison = pd.DataFrame(long)
    table, bold = table_frames.correlation_table(comparison)
    return table, dict(bold=bold, intervals=table_frames.correlation_intervals(comparison, table),
                       caption="Paper 001 Table 2 rows on realsumm; [ ]: percentile bootstrap interval")


def _rankings_kind():
    """annotator_impact rankings: measures x (all, all but one, only one): few rows, many columns."""
    columns = ["all"] + [f"{w} expert_{i}" for i in (1, 2, 3) for w in ("all but", "only")]
    frame = pd.DataFrame(np.tile(np.arange(1, 6), (len(columns), 1)).T, columns=columns,
                         index=pd.Index(MEASURES[:5], name="measure"))
    return frame, dict(caption="summeval: the measures ranked (1 = best); best per column in bold")


def _agreement_kind():
    """annotator_impact agreement: no index, a long text column."""
    frame = pd.DataFrame({"data": [f"summeval: {q} (expert_1, expert_2, expert_3, a much longer description of "
                                   f"the data, the kind that runs wide)" for q in QUALITIES],
                          "items": [80] * 4, "raters": [3] * 4, "level": ["interval"] * 4,
                          "alpha": [0.5, 0.8, 0.7, 0.4], "mean_pearson_vs_others": [0.74, 0.88, 0.83, 0.59]})
    return frame, dict(index=False, caption="Inter-rater agreement")


def _shelf_ranking_kind(n_measures=30):
    """shelf ranking: many measures x ten summary columns."""
    columns = ["position", "mean rank", "mean score", "mean correlation", "coverage", "data sets",
               "mean rank (input)", "mean rank (system)", "mean rank (global)"]
    rows = pd.Index([f"frank.BertScore_F1_Art_{i}" for i in range(n_measures)], name="measure")
    frame = _rng_frame(rows, columns, seed=2, low=0, high=3)
    return frame, dict(bold=tables.best_mask(frame, higher_is_better=False), caption="Across data sets (kendall_b)")


def _small_kind():
    """ordering_benchmark Table 3: a few columns, fits a column."""
    frame = _rng_frame(pd.Index(["nips", "sind", "roc"], name="train set"), ["nips", "sind", "roc"], seed=3)
    return frame, dict(bold=tables.best_mask(frame), caption="Paper 002 Table 3; best per column in bold")


#: a shelf run's sets (16, as `sumeval meta-eval --dataset shelf`), their human columns and own stored columns
SHELF_SETS = {"summeval": (["coherence", "consistency", "fluency", "relevance"], 0),
              "realsumm": (["litepyramid"], 0),
              "dialsummeval": (["coherence", "consistency", "fluency", "relevance"], 41),
              "frank": (["factuality"], 6), "qags-c": (["factuality"], 0), "qags-x": (["factuality"], 0),
              "xsumfaith": (["faithful", "factual"], 0),
              "newsroom": (["coherence", "fluency", "informativeness", "relevance"], 0),
              "rose": (["prior", "ref_free", "ref_based", "acu"], 0), "faithbench": (["consistent"], 5),
              "storysumm": (["faithful"], 0), "summedits": (["consistency"], 0)}


def _shelf_across_kind():
    """A 16-set shelf run's across table at one level (as meta-eval --dataset shelf writes it): 3 named measures
    and 52 sets' own columns (each run on its own set only: blank elsewhere) x 25 tasks, then the mean rank and
    mean score; cluster marks, a blank lettered where a measure cannot run."""
    named = ["rouge-1", "bigram-overlap", "fragment-coverage"]
    own = [f"{d}.{'BertScore_F1_Art_' if d == 'frank' else 'rouge-'}{i}"
           for d, (_, n) in SHELF_SETS.items() for i in range(n)]
    tasks = [(d, h) for d, (humans, _) in SHELF_SETS.items() for h in humans]
    columns = pd.MultiIndex.from_tuples([*tasks, ("across", "mean rank"), ("across", "mean score")],
                                        names=["data set", "human"])
    rows = pd.Index(named + own, name="measure")
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(np.nan, index=rows, columns=columns)
    marks = pd.DataFrame("", index=rows, columns=columns)
    for m in rows:
        for d, h in tasks:
            if m in named or m.startswith(d + "."):
                if m == "rouge-1" and d in ("frank", "qags-c", "summedits"):
                    marks.at[m, (d, h)] = "r"  # no references
                    continue
                frame.at[m, (d, h)] = rng.uniform(-0.2, 0.5)
                marks.at[m, (d, h)] = str(rng.integers(1, 8))
    frame.loc[named, ("across", "mean rank")] = [1.7, 1.55, 2.1]
    frame.loc[named, ("across", "mean score")] = [0.593, 0.589, 0.57]
    direction = {c: c != ("across", "mean rank") for c in columns}
    caption = ("kendall_b with the human scores at the global level on each data set, superscript: significance "
               "cluster on that task (permutation-both, holm correction, alpha 0.05; 1 = not significantly worse than "
               "the best); bold: best per column; blank cells: r: no references; a blank without a letter: another "
               "set's own column")
    return frame, dict(bold=tables.best_mask(frame, higher_is_better=direction), marks=marks, caption=caption)


def _shelf_sentinels_kind():
    """A shelf run's sentinel table: 11 rows x (data set, human, level), 3 levels of 22 tasks."""
    tasks = [(d, h, lv) for d, (humans, _) in SHELF_SETS.items() for h in humans
             for lv in ("input", "system", "global")]
    rows = pd.Index(["length", "source overlap", "constant", "random", "random: 2.5% of draws",
                     "random: 97.5% of draws", "best measure", "compression", "novel bigrams", "density",
                     "coverage"], name="measure")
    frame = _rng_frame(rows, pd.MultiIndex.from_tuples(tasks, names=["dataset", "human", "level"]), seed=6)
    return frame, dict(bold=frame.ge(frame.loc["best measure"] - 1e-12, axis=1),
                       caption="The sentinels on each task (rows), and the best measure of the task")


#: the notes a 16-set shelf run's system-pair tables end with: why a task has no system level (as the run wrote them)
SHELF_NOTES = [f"{d} / {h}: no close pairs, PDP or rank intervals: no system level (" + why + ")" for d, h, why in [
    ("qags-c", "factuality", "the system level does not apply to qags-c: QAGS-C has one summary (one system, "
     "bottom-up) per article: a correlation across systems needs several; use the global level (all summaries "
     "pooled)"),
    ("qags-x", "factuality", "the system level does not apply to qags-x: QAGS-X has one summary (one system, bart) "
     "per article: a correlation across systems needs several; use the global level (all summaries pooled)"),
    ("rank19", "fact", "the system level does not apply to rank19: Rank19 is a pairwise set: each article sentence "
     "has one correct and one incorrect summary sentence, and a measure is judged by how often it scores the "
     "correct one higher (ranking accuracy); 'correct' and 'incorrect' are labels, not systems, so the system "
     "level does not apply; use the input level (each pair)"),
    ("faithbench", "consistent", "no measure can run on faithbench"),
    ("storysumm", "faithful", "no measure can run on storysumm"),
    ("summedits", "consistency", "the system level does not apply to summedits: SummEdits has no summarisation "
     "systems: each row is a seed summary or one LLM edit of it (system = the record's suffix, og or the edit's "
     "number); use the global level (the paper's, per domain and split) or the input level (per seed group)"),
    ("summhay", "coverage", "no measure can run on summhay"),
    ("tofueval", "consistent", "the system level does not apply to tofueval: the release anonymises the models and "
     "shuffles their order for every topic, so model_A on one topic is not model_A on another (only Model-Extra "
     "is one model throughout): there are no system ids to average over"),
    ("fables", "faithful", "no measure can run on fables")]]


def _shelf_close_pairs_kind():
    """A shelf run's close-pair table (shelf.close_pair_table): (set, human, measure) x third, each cell with its
    interval, 7 sets with a system level (20 tasks) x 10 rows, and the nine notes of the sets without one: the run's
    last float held 718 pt on a page of 703 (its notes were left out of the height)."""
    sets = {d: humans for d, (humans, _) in SHELF_SETS.items()
            if d in ("summeval", "realsumm", "dialsummeval", "frank", "xsumfaith", "newsroom", "rose")}
    measures = ["rouge-1", "rouge-2", "rouge-l", "bleu", "js-2 (negated)", "bertscore", "length (sentinel)",
                "fragment coverage (sentinel)", "fragment density (sentinel)", "bigram overlap (sentinel)"]
    rows = pd.MultiIndex.from_tuples([(d, h, m) for d, humans in sets.items() for h in humans for m in measures],
                                     names=["dataset", "human", "measure"])
    frame = _rng_frame(rows, ["closest third", "middle third", "farthest third"], seed=7, low=0.0, high=1.0)
    return frame, dict(intervals=(frame - 0.2, frame.clip(upper=0.8) + 0.2), notes=SHELF_NOTES,
                       caption="Close pairs: the share of a task's system pairs each measure orders as the humans "
                               "do, in the closest, middle and farthest third of the pairs by human difference, "
                               "with a 95% document-bootstrap interval; 0.5: chance")


def _rank_intervals_kind():
    """A shelf run's rank-interval table (shelf.rank_interval_table): (set, ranked by, column) x (systems, separated
    pairs, tied with the top), where both text columns run long: a set's own measure named
    "DialSummEval's EmbeddingAverageCosineSimilarity" and the top's ties named by long model names. Narrowing the
    ties to 3 cm alone left it 40 pt over the page."""
    rows, values = [], []
    models = ["gpt-4o-mini-2024-07-18", "claude-3-5-sonnet-20240620", "Meta-Llama-3.1-70B-Instruct"]
    own = ["ROUGE-1", "EmbeddingAverageCosineSimilarity", "VectorExtremaCosineSimilarity", "summaqa_prob"]
    for d, measures in (("dialsummeval", own), ("faithbench", ["ESTIME-soft", "Similarity order"])):
        for m in measures:
            rows.append((d, "measure", f"DialSummEval's {m}" if d == "dialsummeval" else m))
            values.append({"systems": 14, "separated pairs": 0.65, "tied with the top": "; ".join(models)})
    frame = pd.DataFrame(values, index=pd.MultiIndex.from_tuples(rows, names=["dataset", "ranked by", "column"]))
    return frame, dict(caption="Rank intervals: the systems ranked, the share of pairs told apart, the top's ties")


def _long_ranking_kind():
    """A ranking of 70 measures in a column: longer than a page."""
    frame, options = _shelf_ranking_kind(70)
    frame = frame[["mean rank"]]
    return frame, dict(bold=tables.best_mask(frame, higher_is_better=False), caption="Mean rank of 70 measures")


KINDS = {"meta_eval": _meta_eval_kind, "paper_rows": _paper_rows_kind, "intervals": _intervals_kind,
         "rankings": _rankings_kind, "agreement": _agreement_kind, "shelf_ranking": _shelf_ranking_kind,
         "small": _small_kind, "shelf_across": _shelf_across_kind, "shelf_sentinels": _shelf_sentinels_kind,
         "long_ranking": _long_ranking_kind, "shelf_close_pairs": _shelf_close_pairs_kind,
         "rank_intervals": _rank_intervals_kind}


def _layout(tex: str) -> str:
    return re.search(r"^% layout: (\S+)$", tex, re.M)[1]


def _write(kind: str, folder: Path) -> Path:
    frame, options = KINDS[kind]()
    return tables.write_table(frame, folder, f"table_{kind}", **options)["tex"]


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("layout")
    return {kind: _write(kind, folder) for kind in KINDS}


def test_each_kind_gets_the_layout_that_fits(written):
    layouts = {kind: _layout(path.read_text()) for kind, path in written.items()}
    # by the measured widths below: a 3 x 3 table fits a column; the (measure, ours / paper) table of 8
    # columns is split in panels; the rankings (5 rows, 7 columns) turn; the long text wraps
    assert layouts["small"] == "column"
    assert layouts["meta_eval"] == "page-split" and layouts["paper_rows"] == "page-split"
    assert layouts["rankings"].endswith("-transposed")
    assert layouts["agreement"] == "page-wrapped"
    for kind, path in written.items():
        tex = path.read_text()
        assert latex.check_table(tex) == [], kind
        star = "\\begin{table*}" in tex
        assert star == layouts[kind].startswith("page"), kind
        bodies = re.findall(r"\\begin\{table\*?\}(.*?)\\end\{table\*?\}", tex, re.S)
        # the notes under a table go in a float of their own when its last has no room for them
        notes_alone = "\\begin{tabular}" not in bodies[-1] and "Note: " in bodies[-1]
        floats = len(bodies) - notes_alone
        assert all("\\begin{tabular}" in b for b in bodies[:floats]), kind
        n = tex.count("\\begin{tabular}")  # a table split in panels: several tabulars, else one a float
        assert n > floats if layouts[kind] == "page-split" and floats == 1 else n >= floats, kind
        assert layouts[kind] == "page-split" or n == floats, kind
        floats += notes_alone
        assert tex.count("\\caption{") == floats and tex.count("\\addtocounter{table}{-1}") == floats - 1, kind


@needs_typesetting
def test_every_kind_fits_acls_column_or_page_when_typeset(written):
    # across (each tabular within its line) and down (each float within the page's 24.7 cm: LaTeX's own check,
    # "Float too large for page"), a 16-set shelf run's tables included
    measured = latex.measure_tables(list(written.values()))
    for kind, path in written.items():
        boxes, floats = measured[str(path)]["tabulars"], measured[str(path)]["floats"]
        tex = path.read_text()
        assert len(boxes) == tex.count("\\begin{tabular}") >= 1, kind
        line = latex.ACL_COLUMN_PT if _layout(tex).startswith("column") else latex.ACL_TEXT_PT
        for width, line_width, _ in boxes:
            assert line_width == pytest.approx(line, abs=0.1), kind  # the float sits where the layout says
            assert width <= line_width, f"{kind}: {width:.1f} pt in a line of {line_width:.1f} pt"
        assert len(floats) == tex.count("\\begin{table") >= 1, kind
        for height, page in floats:
            assert page == pytest.approx(latex.ACL_TEXT_HEIGHT_PT, abs=0.1)
            assert height <= page, f"{kind}: a float {height:.1f} pt tall on a page of {page:.1f} pt"


@needs_typesetting
def test_the_height_estimate_is_within_two_points_of_the_typeset_height(written):
    # rows of one line: within 2 pt and 1%; a wrapped text column (agreement): never short, within a line a row
    measured = latex.measure_tables([written[k] for k in ("shelf_across", "meta_eval", "agreement")])
    for path, found in measured.items():
        bodies = re.findall(r"\\begin\{tabular\}.*?\\end\{tabular\}", Path(path).read_text(), re.S)
        for body, (_, _, height) in zip(bodies, found["tabulars"]):
            if "p{" in body:
                assert height <= latex.tabular_height(body) <= height + latex.ROW_PT * body.count("\\raggedright")
            else:
                assert latex.tabular_height(body) == pytest.approx(height, abs=2 + 0.01 * height), path


@needs_typesetting
def test_the_notes_height_estimate_is_never_short(written):
    """The notes under a table are counted in its last float's height (a shelf run's close-pair table ran 15 pt over
    the page when they were not): the estimate may err tall, by at most a quarter, never short."""
    tex = written["shelf_close_pairs"].read_text()
    last = re.findall(r"\\begin\{table\*\}(.*?)\\end\{table\*\}", tex, re.S)[-1]
    assert "\\begin{tabular}" not in last  # the notes in a float of their own: their height is the float's
    notes = last[last.index("\\par\\footnotesize"):]
    caption = re.search(r"\\caption\{(.*)\}", last)[1]
    typeset = latex.measure_tables([written["shelf_close_pairs"]])[str(written["shelf_close_pairs"])]["floats"][-1][0]
    estimate = latex.notes_height(notes, latex.ACL_TEXT_PT) + latex.caption_height(caption, latex.ACL_TEXT_PT)
    assert typeset - 2 <= estimate <= 1.25 * typeset


def test_notes_stay_in_the_last_float_when_it_has_room(tmp_path):
    frame, options = _small_kind()
    tex = tables.write_table(frame, tmp_path, "t", notes=["one short note", "and 50% another"], **options)["tex"]
    text = tex.read_text()
    assert text.count("\\begin{table}") == 1
    assert text.index("\\end{tabular}") < text.index("Note: one short note") < text.index("Note: and 50\\% another") \
        < text.index("\\end{table}")
    assert latex.notes_height("\\par\\footnotesize Note: one short note\n", latex.ACL_COLUMN_PT) == latex.NOTE_LINE_PT


def test_a_table_longer_than_a_page_continues_and_keeps_every_number(written):
    frame, options = _shelf_across_kind()
    tex = written["shelf_across"].read_text()
    assert _layout(tex) == "page-split" and tex.count("\\begin{table*}") >= 2
    assert "\\label{" in tex.split("\\end{table*}")[0]  # the label and the whole caption with the first part
    assert "superscript: significance cluster" in tex.split("\\end{table*}")[0]
    assert "each panel lists the rows with an entry in its columns" in tex
    assert "\\caption{Kendall $\\tau_b$ with the human scores at the global level on each data set (continued)}" in tex
    cells = tables._cells(frame, "latex", precision=3, bold=options["bold"], marks=options["marks"], intervals=None)
    shown = [c for c in cells.to_numpy().ravel() if c != "--"]
    for cell in shown:  # every value and every lettered blank, once per panel it belongs to
        assert cell + " " in tex or cell + " \\\\" in tex, cell
    numbers = re.findall(r"(?<![\d.])\$?-?\$?\d\.\d{3}", tex)
    assert len(numbers) == frame.notna().sum().sum()


@needs_typesetting
def test_the_width_estimate_is_within_two_percent_of_the_typeset_width(written):
    measured = latex.measure_tabulars(list(written.values()))
    for kind, path in written.items():
        tex = path.read_text()
        bodies = re.findall(r"\\begin\{tabular\}.*?\\end\{tabular\}", tex, re.S)
        for body, (width, _) in zip(bodies, measured[str(path)]):
            assert latex.tabular_width(body) == pytest.approx(width, rel=0.02), kind


def test_a_narrow_text_column_is_never_wrapped_wider(tmp_path):
    """Thirty numbers beside a one-letter system name: wrapping the widest text column to its 3 cm floor made
    the 'System' column 85 pt wide (the table wider, called page-wrapped); nothing narrower is there to wrap."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.random((4, 30)), columns=[f"m{i}" for i in range(30)])
    frame.insert(0, "system", ["A", "B", "C", "D"])
    tex = tables.write_table(frame, tmp_path, "t", caption="c", index=False)["tex"].read_text()
    assert _layout(tex) == "page" and "p{" not in tex


@pytest.mark.parametrize("n_measures, layout", [(2, "column"), (6, "page"), (24, "page-transposed")])
def test_a_table_with_more_measures_switches_layout(tmp_path, n_measures, layout):
    # measures as columns (a shelf / judges table: qualities x measures): wider with each measure
    names = [f"measure_{i}" for i in range(n_measures)]
    frame = _rng_frame(pd.Index(QUALITIES + ["overall"], name="human"), names, seed=n_measures)
    frame = frame.iloc[:, :n_measures]
    path = tables.write_table(frame, tmp_path, "t", caption="c", bold=tables.best_mask(frame))["tex"]
    tex = path.read_text()
    assert _layout(tex) == layout
    if TYPESET:
        line = latex.ACL_COLUMN_PT if layout == "column" else latex.ACL_TEXT_PT
        for width, line_width in latex.measure_tabulars([path])[str(path)]:
            assert width <= line_width == pytest.approx(line, abs=0.1)


def test_negatives_have_a_real_minus_and_captions_readable_names(written):
    tex = written["paper_rows"].read_text()
    assert "$-$0.040" in tex and not re.search(r"(?<![\w$])-0\.\d", tex)  # ROUGE-1's first value, -0.04
    intervals = written["intervals"].read_text()
    assert "$-$0.120 [$-$0.30, 0.05]" in intervals  # the value and the interval's low end
    meta = written["meta_eval"].read_text()
    caption = re.search(r"\\caption\{(.*)\}", meta)[1]
    assert caption.startswith("Kendall $\\tau_b$ with the human scores on SummEval")
    assert "permutation test (systems and inputs), Holm" in caption and "kendall\\_b" not in caption
    md = written["meta_eval"].with_suffix(".md").read_text()
    assert md.startswith("**Kendall tau-b with the human scores on SummEval")
    assert "-0." in md  # the Markdown and CSV keep their plain hyphen-minus


def test_a_transposed_table_says_per_row_and_keeps_its_cells():
    frame = pd.DataFrame([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]],
                         index=pd.Index(["ROUGE-1 with a long name for a measure"], name="measure"),
                         columns=[f"column with a long header {i}" for i in range(10)])
    tex = tables.to_latex(frame, bold=tables.best_mask(frame, axis=1), caption="best per column in bold", label="tab:t")
    assert _layout(tex).endswith("-transposed")
    assert "\\caption{best per row in bold}" in tex
    assert "column with a long header 9 & \\textbf{10} \\\\" in tex  # the bold cell moved with its value


def test_a_forced_layout_and_an_unknown_one(tmp_path):
    frame, options = _small_kind()
    tex = tables.to_latex(frame, caption="c", label="tab:c", layout="page")
    assert _layout(tex) == "page" and "\\begin{table*}" in tex
    with pytest.raises(tables.InputError, match="layout 'wide' is not one of auto, column"):
        tables.to_latex(frame, caption="c", label="tab:c", layout="wide")
