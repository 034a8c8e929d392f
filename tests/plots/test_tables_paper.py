"""Tables a person pastes into a paper: one header row per level, readable names, intervals in
cells, a unique label per table, and a .tex that says what it needs and typesets in a minimal
document (with pdflatex when installed: scripts/install_latex.sh; its structure always)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import latex, table_frames, tables
from sumeval.cli import main
from sumeval.display_names import display, paper_row_label

from helpers import FIXTURES  # tests/ is on the path

ENGINE = latex.engine()
needs_engine = pytest.mark.skipif(ENGINE is None, reason="no LaTeX engine (pdflatex) installed: "
                                  "scripts/install_latex.sh (make setup) installs one; the structure is still checked")
FIXTURE = FIXTURES / "judges" / "judgments_annotators.csv"


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


def _ranking_like() -> pd.DataFrame:
    """measures x (human, level), the columns given level-major (input of both humans first), as a
    table whose outer level is not adjacent."""
    cols = pd.MultiIndex.from_tuples([("consistency", "input"), ("relevance", "input"),
                                      ("consistency", "system"), ("relevance", "system")], names=["human", "level"])
    return pd.DataFrame([[0.41, 0.30, 0.52, 0.61], [0.38, 0.35, np.nan, 0.44]],
                        index=pd.Index(["rouge-2", "my_metric&co"], name="measure"), columns=cols)


def _rows(tex: str) -> list[str]:
    """The lines of the tabular between \\toprule and \\bottomrule."""
    return tex[tex.index("\\toprule\n") + len("\\toprule\n"): tex.index("\n\\bottomrule")].splitlines()


# ------------------------------------------------------------------------------------------------
# display names
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("code, shown", [
    ("rouge-2", "ROUGE-2"), ("rouge-l", "ROUGE-L"), ("rouge-2-r", "ROUGE-2-R"), ("bertscore", "BERTScore"),
    ("bertscore-f", "BERTScore-F"), ("estime-soft", "ESTIME-soft"), ("estime (negated)", "ESTIME (negated)"),
    ("js-2", "JS-2 (negated)"), ("js-2 (negated)", "JS-2 (negated)"), ("similarity-order", "Similarity order"),
    ("sera-dis-np-5", "SERA-DIS-NP-5"), ("gesera-10", "GeSERA-10"), ("consistency", "Consistency"),
    ("litepyramid", "LitePyramid"), ("kendall_b", "Kendall tau-b"), ("global", "Global"),
    ("rouge-2[use_stemmer=true]", "ROUGE-2 [use_stemmer=true]"), ("my_metric", "my_metric"), ("ROUGE-1", "ROUGE-1"),
])
def test_display_names(code, shown):
    assert display(code) == shown


def test_the_negated_js2_row_of_paper_001_table2_is_named_as_everywhere_else():
    """REALSumm's Table 2 row of the negated divergence was labelled "JS-2" (positive correlations)
    where every other table and figure says "JS-2 (negated)": its label is the names table's, the
    paper's row beside it keeps the paper's name and number, in metric_correlations (part b) and in
    index_size_sweep's Table 2."""
    from sumeval import published
    from sumeval.studies import index_size_sweep as iss
    from sumeval.studies.common.baseline_rows import TABLE2_ROWS

    negated = [label for label, row in TABLE2_ROWS.items() if row.sign < 0]
    assert negated == ["JS-2 (negated)"] == [display(TABLE2_ROWS[label].measure) for label in negated]
    assert {paper_row_label(label) for label in TABLE2_ROWS} <= set(published.paper001_table2()["metric"])
    comparison = pd.DataFrame({"metric": ["JS-2 (negated)"], "human": "litepyramid", "method": "pearson",
                               "ours": [0.78], "paper": [0.780]})
    table, _ = table_frames.correlation_table(comparison, columns=("method",))
    assert list(table.index) == [("JS-2 (negated)", "ours"), ("JS-2", "paper")]
    rouge = pd.DataFrame({"dataset": ["realsumm"], "metric": ["JS-2 (negated)"], "method": ["pearson"],
                          "value": [0.783]})
    sweep = pd.DataFrame({"dataset": ["realsumm"], "corpus": "c", "size": 10, "metric": ["sera-10"],
                          "method": "pearson", "value": [0.8]})
    beside = iss.table2_beside_paper(sweep, rouge, "c", 10).set_index("metric")
    assert beside.loc["JS-2 (negated)", "paper"] == 0.780


def test_the_papers_bertscore_row_is_named_for_the_papers_model():
    assert paper_row_label("BERTScore-P (all-MiniLM-L6-v2)") == "BERTScore-P (roberta-large)"
    assert paper_row_label("BERTScore-F (roberta-large)") == "BERTScore-F (roberta-large)"
    assert paper_row_label("BLEU (10 crowd refs)") == "BLEU (11 refs)" and paper_row_label("JS-2") == "JS-2"
    comparison = pd.DataFrame({"metric": ["ROUGE-1", "BERTScore-F (all-mpnet-base-v2)"] * 2,
                               "human": ["coherence"] * 4, "method": ["spearman"] * 2 + ["kendall_c"] * 2,
                               "ours": [0.1, 0.2, 0.05, 0.15], "paper": [0.13, 0.10, 0.07, 0.05]})
    table, bold = table_frames.correlation_table(comparison)
    assert list(table.index) == [("ROUGE-1", "ours"), ("ROUGE-1", "paper"),
                                 ("BERTScore-F (all-mpnet-base-v2)", "ours"), ("BERTScore-F (roberta-large)", "paper")]
    assert table.loc[("BERTScore-F (roberta-large)", "paper"), ("coherence", "kendall_c")] == 0.05
    rows = _rows(tables.to_latex(table, bold=bold, caption="c", label="tab:x"))
    body = rows[rows.index("\\midrule") + 1:]
    # a paper row stays with ours above it (no space between); ROUGE-1's paper row leaves its name out
    assert body == ["ROUGE-1 & Ours & 0.100 & 0.050 \\\\", " & Paper & 0.130 & 0.070 \\\\", "\\addlinespace",
                    "BERTScore-F (all-mpnet-base-v2) & Ours & \\textbf{0.200} & \\textbf{0.150} \\\\",
                    "BERTScore-F (roberta-large) & Paper & 0.100 & 0.050 \\\\"]


# ------------------------------------------------------------------------------------------------
# header levels
# ------------------------------------------------------------------------------------------------
def test_one_header_row_per_level_with_the_outer_level_spanning_its_columns():
    frame = _ranking_like()
    tex = tables.to_latex(frame, caption="Kendall tau-b", label="tab:t")
    rows = _rows(tex)
    # the humans over their levels: columns grouped (consistency's two, then relevance's two)
    assert rows[0] == " & \\multicolumn{2}{c}{Consistency} & \\multicolumn{2}{c}{Relevance} \\\\"
    assert rows[1] == "\\cmidrule(lr){2-3} \\cmidrule(lr){4-5}"
    assert rows[2] == "Measure & Input & System & Input & System \\\\"
    assert rows[3] == "\\midrule"
    # grouped columns carry their cells: rouge-2's consistency input 0.41, system 0.52
    assert rows[4] == "ROUGE-2 & 0.410 & 0.520 & 0.300 & 0.610 \\\\"
    assert rows[5] == "my\\_metric\\&co & 0.380 & -- & 0.350 & 0.440 \\\\"  # unknown name: escaped, as it is
    assert "human" not in tex and "consistency" not in tex  # no code names, no flat "human | level" header
    html = tables.to_html(frame)
    assert html.count('colspan="2"') == 2 and ">Consistency</th>" in html and ">Input</th>" in html
    md = tables.to_markdown(frame)  # a pipe table has one header row: levels joined there
    assert md.splitlines()[0] == "| Measure | Consistency / Input | Consistency / System | Relevance / Input | " \
                                 "Relevance / System |"
    assert md.splitlines()[2] == "| ROUGE-2 | 0.410 | 0.520 | 0.300 | 0.610 |"


def test_bold_and_marks_follow_their_cells_when_columns_are_grouped():
    frame = _ranking_like()
    bold = tables.best_mask(frame)
    marks = pd.DataFrame([["1", "2", "1", "1"], ["1", "1", "", "2"]], index=frame.index, columns=frame.columns)
    tex = tables.to_latex(frame, bold=bold, marks=marks)
    # consistency/system: 0.52 best (bold, cluster 1); relevance/input: 0.35 best, 0.30 in cluster 2
    assert "ROUGE-2 & \\textbf{0.410}$^{1}$ & \\textbf{0.520}$^{1}$ & 0.300$^{2}$ & \\textbf{0.610}$^{1}$ \\\\" in tex
    assert tex.startswith(latex.NEEDS + "\n\\begin{tabular}")  # no caption, no label: no float


# ------------------------------------------------------------------------------------------------
# intervals
# ------------------------------------------------------------------------------------------------
def test_intervals_in_cells_where_the_frame_has_them(tmp_path):
    comparison = pd.DataFrame({"metric": ["ROUGE-1-R", "JS-2"], "human": "litepyramid", "method": "pearson",
                               "ours": [0.4123, 0.8], "ci_low": [0.3712, np.nan], "ci_high": [0.4488, np.nan],
                               "paper": [0.914, np.nan]})
    table, bold = table_frames.correlation_table(comparison, columns=("method",))
    low, high = table_frames.correlation_intervals(comparison, table, columns=("method",))
    assert np.isnan(low.loc[("ROUGE-1-R", "paper"), "pearson"])  # the paper's row has none
    out = tables.write_table(table, tmp_path, "t2", bold=bold, intervals=(low, high), caption="Table 2")
    tex, md, html = (out[k].read_text() for k in ("tex", "md", "html"))
    # by hand: 0.4123 at 3 digits, the interval at 2: [0.37, 0.45]; JS-2 has no interval
    assert "ROUGE-1-R & Ours & 0.412 [0.37, 0.45] \\\\" in tex and " & Paper & 0.914 \\\\" in tex
    assert "| ROUGE-1-R | Ours | 0.412 [0.37, 0.45] |" in md and "| JS-2 | Ours | **0.800** |" in md
    assert "0.412 [0.37, 0.45]" in html
    assert list(pd.read_csv(out["csv"]).columns) == ["metric", "source", "pearson"]  # the CSV is data only
    with pytest.raises(tables.InputError, match="no ci_low"):
        table_frames.correlation_intervals(comparison.drop(columns="ci_low"), table, columns=("method",))


# ------------------------------------------------------------------------------------------------
# labels
# ------------------------------------------------------------------------------------------------
def test_labels_name_the_table_the_data_set_and_who_wrote_it(tmp_path):
    assert tables.table_label("table_kendall_b", "summeval") == "tab:table_kendall_b:summeval"
    assert tables.table_label("table1_summeval", "summeval") == "tab:table1_summeval"  # not twice
    assert tables.table_label("t", "/home/me/my data.jsonl", "meta_evaluation") == "tab:meta_evaluation:t:my-data"
    assert tables.table_label("a{b}%c") == "tab:a-b--c"
    # a study with two data sets (metric_correlations: dataset, system_dataset): the one the name ends with
    assert tables.table_label("table2_realsumm", ["summeval", "realsumm"], "mc") == "tab:mc:table2_realsumm"
    assert tables.table_label("levels", ["summeval", "realsumm"], "mc") == "tab:mc:levels:summeval"
    a = tables.write_table(_ranking_like(), tmp_path / "a", "table_kendall_b", dataset="summeval", source="meta-eval")
    b = tables.write_table(_ranking_like(), tmp_path / "b", "table_kendall_b", dataset="summeval",
                           source="meta_evaluation")
    labels = [re.findall(r"\\label\{([^}]*)\}", p["tex"].read_text()) for p in (a, b)]
    assert labels == [["tab:meta-eval:table_kendall_b:summeval"], ["tab:meta_evaluation:table_kendall_b:summeval"]]


def test_a_study_table_is_labelled_by_study_and_data_set(tmp_path, monkeypatch):
    from sumeval.running import run_context

    monkeypatch.setenv("SUMEVAL_RUN_DIR", str(tmp_path / "run"))
    ctx = run_context.context("estime_layers", params={"dataset": "realsumm"})
    written = ctx.save_table(_ranking_like(), "table1_estime", caption="Table 1")
    assert "\\label{tab:estime_layers:table1_estime:realsumm}" in written["tex"].read_text()
    ctx = run_context.context("metric_correlations", params={"dataset": "mine", "system_dataset": "realsumm"})
    assert "\\label{tab:metric_correlations:table2_realsumm}" in ctx.save_table(_ranking_like(), "table2_realsumm")[
        "tex"].read_text()


# ------------------------------------------------------------------------------------------------
# the .tex files: structure always, typesetting with an engine
# ------------------------------------------------------------------------------------------------
def _alt_test_tables(tmp_path) -> list[Path]:
    out = tmp_path / "alt"
    assert main(["alt-test", str(FIXTURE), "--human", "overall", "fluency", "--judges", "judge_good_{human}",
                 "judge_flat", "--out", str(out), "--no-figures"]) == 0
    return [out / "table_alt_test.tex"]


def _meta_eval_tables(tmp_path) -> list[Path]:
    rng = np.random.default_rng(0)
    rows = []
    for d in range(6):
        for k, s in enumerate(["s1", "s2", "s3", "s4"]):
            h = k + rng.normal()
            rows.append({"doc_id": f"d{d}", "system": s, "overall": round(h, 3),
                         "my_metric": round(h + rng.normal(), 3),
                         "flat": 1.0, "summary": " ".join(["the", "reference", "of", "d"][: k + 1]) + f" {d}",
                         "references": [f"the reference of d {d}"]})
    path = tmp_path / "mine.jsonl"
    pd.DataFrame(rows).to_json(path, orient="records", lines=True)
    out = tmp_path / "meta"
    assert main(["meta-eval", str(path), "--human", "overall", "--measures", "my_metric", "flat", "rouge-2",
                 "my_metric:lower", "--coefficient", "kendall_b", "pearson", "--level", "input", "system", "global",
                 "--n-resamples", "40", "-q", "--no-figures", "--out", str(out)]) == 0
    return sorted(out.glob("*.tex"))


def _study_like_tables(tmp_path) -> list[Path]:
    comparison = pd.DataFrame({"metric": ["ROUGE-1", "BLEU (10 crowd refs)", "BERTScore-F (all-mpnet-base-v2)"] * 2,
                               "human": ["consistency"] * 6, "method": ["spearman"] * 3 + ["kendall_c"] * 3,
                               "ours": [0.1, 0.2, 0.3, 0.05, 0.1, 0.15], "ci_low": [0.0] * 6, "ci_high": [0.4] * 6,
                               "paper": [0.13, 0.09, 0.10, 0.07, 0.04, 0.05]})
    table, bold = table_frames.correlation_table(comparison)
    written = [tables.write_table(table, tmp_path / "study", "table1_summeval", bold=bold, dataset="summeval",
                                  intervals=table_frames.correlation_intervals(comparison, table),
                                  source="metric_correlations",
                                  caption="Paper 000 Table 1: ρ & τ_c ≥ 0 — 100% of pairs",
                                  notes=["–: undefined; a_b {x} #1 ~ ^"])["tex"]]
    agreement = pd.DataFrame({"human": ["relevance"], "alpha": [0.41], "raters": [3]})
    written.append(tables.write_table(agreement, tmp_path / "study", "agreement", index=False)["tex"])
    return written


@pytest.fixture()
def written(tmp_path) -> list[Path]:
    return _meta_eval_tables(tmp_path) + _alt_test_tables(tmp_path) + _study_like_tables(tmp_path)


def test_every_table_file_passes_the_structure_check(written):
    assert len(written) == 3 + 1 + 2  # meta-eval: one per coefficient and table_spa; alt-test; the study's two
    labels = []
    for path in written:
        tex = path.read_text(encoding="utf-8")
        assert latex.check_table(tex) == [], path.name
        labels += re.findall(r"\\label\{([^}]*)\}", tex)
    assert len(labels) == len(set(labels)) == len(written)
    first = written[0].read_text().splitlines()
    assert first[0] == "% needs \\usepackage{booktabs}" and "\\caption{" in written[0].read_text()
    meta = written[0].read_text()  # table_kendall_b.tex, then table_pearson.tex
    assert "\\label{tab:meta-eval:table_kendall_b:mine}" in meta
    # the negated column is shown as such; registered measures and qualities by their readable names
    assert "my\\_metric (negated)" in meta and "ROUGE-2" in meta and "Overall" in meta


@pytest.mark.parametrize("broken, problem", [
    (lambda t: t.replace("\\label{", "\\labelx{"), "0 \\label"),
    (lambda t: t.replace("\\midrule\n", ""), "booktabs rules"),
    (lambda t: t.replace(" \\\\\n\\bottomrule", " & 1 \\\\\n\\bottomrule"), "cells, the column spec"),
    (lambda t: t.replace("\\centering", "\\centering{"), "never closed"),
    (lambda t: t.replace("% needs", "% wants"), "first line"),
    (lambda t: t.replace("\\centering", "\\centering\\multirow{2}{*}{x}"), "multirow"),
    (lambda t: t.replace("\\centering", "\\centering ω"), "may not typeset"),
])
def test_the_structure_check_finds_what_would_break(tmp_path, broken, problem):
    path = _study_like_tables(tmp_path)[0]
    good = path.read_text(encoding="utf-8")
    assert latex.check_table(good) == []
    problems = latex.check_table(broken(good))
    assert any(problem in p for p in problems), problems


@needs_engine
def test_every_table_file_typesets_in_a_minimal_document(written):
    assert latex.compile_tables(written) == {}


@needs_engine
def test_a_table_that_does_not_typeset_is_named(tmp_path):
    bad = tmp_path / "bad.tex"
    bad.write_text(latex.NEEDS + "\n\\begin{tabular}{l}\n\\undefinedcommand x \\\\\n\\end{tabular}\n")
    failed = latex.compile_tables([bad])
    assert list(failed) == [str(bad)] and "Undefined control sequence" in failed[str(bad)]


def test_a_table_without_index_aligns_text_left_and_shows_names_readable():
    frame = pd.DataFrame({"metric": ["sera-10", "rouge-1"], "method": ["kendall_b", "pearson"], "all": [0.1221, 0.2],
                          "dropped": ["R10", "R5"]})
    tex = tables.to_latex(frame, index=False, caption="Table 3", label="tab:t3")
    assert "\\begin{tabular}{llrl}" in tex  # text left, numbers right
    assert "Measure & Coefficient & All & dropped \\\\" in tex
    assert "SERA-10 & Kendall $\\tau_b$ & 0.122 & R10 \\\\" in tex and "ROUGE-1 & Pearson & 0.200 & R5 \\\\" in tex
    assert latex.check_table(tex) == []
    assert tables.to_markdown(frame, index=False).splitlines()[2] == "| SERA-10 | Kendall tau-b | 0.122 | R10 |"


def test_a_column_of_counts_is_shown_without_decimals_and_correlations_keep_theirs():
    frame = pd.DataFrame({"pmr": [0.062, 0.0], "n_params": [70714.0, 3200000.0], "tau": [1.0, -1.0]},
                         index=pd.Index(["LSTM+PtrNet", "paper"], name="model"))
    md = tables.to_markdown(frame)
    assert md.splitlines()[2] == "| LSTM+PtrNet | 0.062 | 70714 | 1.000 |"  # tau within [-1, 1]: digits kept
    assert md.splitlines()[3] == "| Paper | 0.000 | 3200000 | -1.000 |"
