"""The `run all` report as a page to read, rendered for a tiny fake run directory and checked by its
structure (parsed with html.parser): per study its question, status, figures and tables in view, the
raw numbers and the manifest folded away."""
from __future__ import annotations

import datetime as _dt
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sumeval.running.run_report import StudyOutcome, write_report

# a 1x1 PNG and a small SVG: the report copies figures, it does not decode them
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
VOID = {"meta", "img", "br", "hr", "link", "input"}


class Node:
    def __init__(self, tag: str, attrs: dict, parent: "Node | None"):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], []

    def iter(self):
        yield self
        for c in self.children:
            yield from c.iter()

    def find_all(self, tag: str, **attrs) -> list["Node"]:
        return [n for n in self.iter() if n.tag == tag and all(n.attrs.get(k) == v for k, v in attrs.items())]

    def all_text(self) -> str:
        return "".join(self.text) + "".join(c.all_text() for c in self.children)

    def ancestors(self) -> list[str]:
        out, n = [], self.parent
        while n is not None:
            out.append(n.tag)
            n = n.parent
        return out


class TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = self.cur = Node("#root", {}, None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        assert n is not None, f"</{tag}> closes nothing"
        self.cur = n.parent

    def handle_data(self, data):
        self.cur.text.append(data)


def parse(page: str) -> Node:
    b = TreeBuilder()
    b.feed(page)
    b.close()
    return b.root


def _fake_run(tmp_path: Path) -> tuple[list[StudyOutcome], Path]:
    runs = tmp_path / "runs"
    run_dir = runs / "alpha" / "smoke-abc"
    figs = tmp_path / "figures" / "alpha"
    tables = runs / "alpha" / "smoke-abc" / "tables"
    for d in (run_dir, figs, tables):
        d.mkdir(parents=True)
    nb = {"cells": [{"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": []},
                    {"cell_type": "markdown", "source": ["# Alpha: does it work?\n", "\n",
                                                         "**Question.** Does `alpha` agree <b>with</b> people?"]},
                    {"cell_type": "markdown", "source": "## Not the question"}]}
    (run_dir / "executed.ipynb").write_text(json.dumps(nb))
    (run_dir / "manifest.json").write_text(json.dumps({"study": "alpha", "status": "ok", "git_commit": "deadbeef",
                                                       "parameters": {"n": 4}}))
    (run_dir / "results.json").write_text("{}")
    (figs / "bars.png").write_bytes(PNG)
    (figs / "bars.pdf").write_bytes(b"%PDF-1.4\n")
    (figs / "curve.svg").write_text(SVG)
    (tables / "means.csv").write_text("metric,value\nROUGE-1,0.5\n")
    (tables / "means.html").write_text("<table class='t'><tr><th>metric</th><th>value</th></tr>"
                                       "<tr><td>ROUGE-1</td><td>0.5</td></tr></table>")
    alpha = StudyOutcome("alpha", "ok", run_id="smoke-abc", run_dir=str(run_dir), duration_s=3.2,
                         parameters={"n": 4}, figures=[str(figs / "bars.pdf"), str(figs / "bars.png"),
                                                       str(figs / "curve.svg")],
                         tables=[str(tables / "means.csv")],
                         results={"mean_value": 0.25, "nested": {"half": 0.5},
                                  "table": [{"metric": "ROUGE-1", "value": 0.5}] * 3})
    beta = StudyOutcome("beta", "failed", error="beta asked to fail with x=1\nin cell: if fail:")
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    (notebooks / "beta.ipynb").write_text(json.dumps(
        {"cells": [{"cell_type": "markdown", "source": "# Beta: the question from the study notebook"}]}))
    return [alpha, beta], runs


def test_report_is_a_page_to_read(tmp_path, monkeypatch):
    outcomes, runs = _fake_run(tmp_path)
    monkeypatch.setenv("SUMEVAL_RUNS", str(runs))
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(tmp_path / "notebooks"))
    t0 = _dt.datetime(2026, 1, 2, 3, 4, 5)
    index = write_report(outcomes, "smoke", t0, t0 + _dt.timedelta(seconds=9))
    root = parse(index.read_text(encoding="utf-8"))

    # the summary table: a row per study with its question's title and status
    summary = root.find_all("table")[0]
    rows = [[td.all_text().strip() for td in tr.find_all("td")] for tr in summary.find_all("tr")[1:]]
    assert [r[:3] for r in rows] == [["alpha", "Alpha: does it work?", "ok"],
                                     ["beta", "Beta: the question from the study notebook", "failed"]]

    sections = {s.attrs["id"]: s for s in root.find_all("section")}
    assert list(sections) == ["alpha", "beta"]
    alpha = sections["alpha"]
    assert alpha.find_all("h2")[0].all_text().split() == ["alpha", "ok"]
    # the question: the first Markdown cell, rendered (bold, code), its raw HTML escaped, the later cell not shown
    (question,) = [d for d in alpha.find_all("div") if d.attrs.get("class") == "question"]
    assert question.find_all("h3")[0].all_text() == "Alpha: does it work?"
    assert question.find_all("strong")[0].all_text() == "Question."
    assert question.find_all("code")[0].all_text() == "alpha"
    assert not question.find_all("b") and "<b>with</b>" in question.all_text()
    assert "Not the question" not in alpha.all_text()

    # figures in view (not folded), one per figure (the PDF linked from its PNG), copied beside the page
    imgs = alpha.find_all("img")
    assert [Path(i.attrs["src"]).name for i in imgs] == ["bars.png", "curve.svg"]
    for img in imgs:
        assert "details" not in img.ancestors()
        assert (index.parent / img.attrs["src"]).is_file()
    assert any(a.attrs.get("href", "").endswith("bars.pdf") for a in alpha.find_all("a"))
    # the saved table in view, with its CSV linked
    headings = [h.all_text() for h in alpha.find_all("h3")]
    assert "Figures" in headings and "Tables" in headings and any(h.startswith("means") for h in headings)
    table = [t for t in alpha.find_all("table") if t.attrs.get("class") == "t"]
    assert table and "details" not in table[0].ancestors()
    assert any(a.attrs.get("href", "").endswith("means.csv") for a in alpha.find_all("a"))

    # folded: the numbers of results.json, its tables and the manifest; nothing of them outside <details>
    folded = {d.find_all("summary")[0].all_text(): d for d in alpha.find_all("details")}
    assert set(folded) == {"all numbers of results.json (2)", "table (3 rows)", "manifest (4 entries)"}
    assert "deadbeef" in folded["manifest (4 entries)"].all_text()
    assert "mean_value" in folded["all numbers of results.json (2)"].all_text()
    for d in folded.values():
        d.parent.children.remove(d)
    assert "deadbeef" not in alpha.all_text() and "mean_value" not in alpha.all_text()
    # order: question, figures, tables, then the folded parts
    order = [n for n in alpha.iter() if n.tag in ("div", "img", "table", "details")
             and (n.tag != "div" or n.attrs.get("class") in ("question", "tbl"))]
    assert [n.tag for n in order][:4] == ["div", "img", "img", "div"]

    beta = sections["beta"]
    assert beta.find_all("h2")[0].all_text().split() == ["beta", "failed"]
    assert "the question from the study notebook" in beta.all_text()  # no run: the study's notebook
    assert "beta asked to fail with x=1" in beta.find_all("pre")[0].all_text()
    assert not beta.find_all("details")  # no run, no manifest

    summary_json = json.loads((index.parent / "summary.json").read_text())
    assert summary_json["studies"][0]["question"].startswith("# Alpha: does it work?")


@pytest.mark.parametrize("notebook", ["{not json", json.dumps({"cells": [{"cell_type": "code", "source": "1"}]})])
def test_a_study_without_a_readable_question_still_reports(notebook, tmp_path, monkeypatch):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "gamma.ipynb").write_text(notebook)
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(tmp_path / "notebooks"))
    t0 = _dt.datetime(2026, 1, 2, 3, 4, 5)
    index = write_report([StudyOutcome("gamma", "failed", error="boom")], "smoke", t0, t0)
    (section,) = parse(index.read_text(encoding="utf-8")).find_all("section")
    assert not [d for d in section.find_all("div") if d.attrs.get("class") == "question"]
    assert "boom" in section.all_text()
