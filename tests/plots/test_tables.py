"""Tests of sumeval.tables: the same numbers, bold cells and marks in CSV, LaTeX, Markdown, HTML."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval import tables
from sumeval.errors import InputError


@pytest.fixture()
def frame():
    return pd.DataFrame({"consistency": [0.41, 0.38, np.nan], "rel_evance": [0.30, 0.35, 0.2]},
                        index=pd.Index(["estime", "rouge_2", "js-2 (negated)"], name="measure"))


def test_best_mask_marks_column_maxima_ties_and_never_nan():
    f = pd.DataFrame({"a": [1.0, 3.0, 3.0], "b": [np.nan, -1.0, -2.0]})
    got = tables.best_mask(f)
    assert got["a"].tolist() == [False, True, True]  # tie: both 3.0
    assert got["b"].tolist() == [False, True, False]  # NaN never best
    low = tables.best_mask(f, higher_is_better={"b": False})
    assert low["b"].tolist() == [False, False, True] and not low["a"].any()  # 'a' not in mapping
    rows = tables.best_mask(f, axis=1)
    assert rows.values.tolist() == [[True, False], [True, False], [True, False]]


def test_markdown_by_hand(frame):
    marks = pd.DataFrame({"consistency": ["1", "2", ""], "rel_evance": ["2", "1", "2"]}, index=frame.index)
    md = tables.to_markdown(frame, bold=tables.best_mask(frame), marks=marks)
    assert md.splitlines() == [
        "| Measure | Consistency | rel_evance |",  # readable names; an unknown name as it is
        "|---|---|---|",
        "| ESTIME (negated) | **0.410**<sup>1</sup> | 0.300<sup>2</sup> |",
        "| rouge_2 | 0.380<sup>2</sup> | **0.350**<sup>1</sup> |",
        "| JS-2 (negated) | – | 0.200<sup>2</sup> |",
    ]
    raw = tables.to_markdown(frame, display=False)  # code names when asked
    assert raw.splitlines()[0] == "| measure | consistency | rel_evance |"


def test_latex_is_booktabs_escaped_and_bold(frame):
    tex = tables.to_latex(frame, bold=tables.best_mask(frame), caption="Spearman & tau", label="tab:x")
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert "rouge\\_2 & 0.380 & \\textbf{0.350} \\\\" in tex
    assert "ESTIME (negated) & \\textbf{0.410} & 0.300 \\\\" in tex
    assert "JS-2 (negated) & -- & 0.200 \\\\" in tex  # NaN as a dash, never bold
    assert "rel\\_evance" in tex and "\\caption{Spearman \\& tau}" in tex and "\\label{tab:x}" in tex


def test_markdown_flattens_column_levels_and_escapes_pipes():
    f = pd.DataFrame([[0.5, 0.25]], index=pd.Index(["a|b"], name="m"),
                     columns=pd.MultiIndex.from_tuples([("relevance", "input"), ("relevance", "system")]))
    md = tables.to_markdown(f, precision=2)
    assert md.splitlines()[0] == "| m | Relevance / Input | Relevance / System |"  # one header row in Markdown
    assert md.splitlines()[2] == "| a\\|b | 0.50 | 0.25 |"


def test_write_table_writes_four_files_with_full_precision_csv(tmp_path, frame):
    out = tables.write_table(frame, tmp_path, "t1", precision=2, caption="Table 1")
    assert sorted(out) == sorted(tables.FORMATS)
    back = pd.read_csv(out["csv"], index_col=0)
    assert back.loc["estime", "consistency"] == 0.41 and math.isnan(back.loc["js-2 (negated)", "consistency"])
    assert "0.41" in out["md"].read_text() and out["md"].read_text().startswith("**Table 1**")
    assert "<table" in out["html"].read_text() and "\\label{tab:t1}" in out["tex"].read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t1.csv", "t1.html", "t1.md", "t1.tex"]


def test_the_html_table_carries_the_latex_caption_escaped(tmp_path, frame):
    """The HTML file (the run report shows it) has the LaTeX's caption - readable names, the same
    words - as its <caption>, escaped: a caption's ``<`` or ``&`` is text, never markup."""
    import html
    from html.parser import HTMLParser

    class Captions(HTMLParser):
        def __init__(self):
            super().__init__()
            self.inside, self.texts, self.tags = False, [], []

        def handle_starttag(self, tag, attrs):
            self.inside = self.inside or tag == "caption"
            self.tags += [tag] if self.inside else []

        def handle_endtag(self, tag):
            self.inside = self.inside and tag != "caption"

        def handle_data(self, data):
            self.texts += [data] if self.inside else []

    def caption_of(text):
        parser = Captions()
        parser.feed(text)
        return "".join(parser.texts), parser.tags

    caption = "kendall_b on summeval: p < 0.05 & <b>not bold</b>"
    out = tables.write_table(frame, tmp_path, "t1", caption=caption)
    text, tags = caption_of(out["html"].read_text())
    assert text == tables.readable_caption(caption) == "Kendall tau-b on SummEval: p < 0.05 & <b>not bold</b>"
    assert tags == ["caption"]  # the caption's <b> is text, not an element
    latex = out["tex"].read_text()
    assert f"\\caption{{{tables.readable_caption(caption, 'latex')}}}" in latex
    # without a caption, the LaTeX's stand-in (the table's name) in both
    plain = tables.write_table(frame, tmp_path, "t2")
    assert caption_of(plain["html"].read_text())[0] == "t2" and "\\caption{t2}" in plain["tex"].read_text()
    assert html.escape("<") not in caption_of(tables.to_html(frame, caption="a < b"))[0]
    assert "<caption>" not in tables.to_html(frame)  # none asked, none written


@pytest.mark.parametrize("name", ["", "../x", "a/b", ".hidden"])
def test_write_table_refuses_names_that_are_not_plain_files(tmp_path, frame, name):
    with pytest.raises(InputError, match="plain file name"):
        tables.write_table(frame, tmp_path, name)
    assert list(tmp_path.iterdir()) == []


def test_study_context_saves_tables_in_the_run_and_publishes_none(tmp_path, monkeypatch, frame):
    from sumeval.running import run_context

    monkeypatch.setenv("SUMEVAL_RUN_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    ctx = run_context.context("demo")
    ctx.save_table(frame, "table1")
    # under the runner the run folder gets the table; figures/ only when the run succeeds (the runner publishes)
    assert not (tmp_path / "figures" / "demo" / "table1.tex").exists()
    assert (tmp_path / "run" / "tables" / "table1.md").is_file()
    res = ctx.write_results({"x": 1})
    import json

    assert json.loads(res.read_text())["tables"] == [str(tmp_path / "run" / "tables" / "table1.csv")]
