"""`sumeval run all`: every registered study through the executors, one report, exit status."""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from sumeval.cli import main as cli_main
from sumeval.cli import run as run_cli
from sumeval.errors import InputError
from sumeval.running import run_all

from helpers import FIXTURES  # tests/ is on the path

BATCH_STUDIES = FIXTURES / "batch_studies"  # alpha (with an explorer), beta


@pytest.fixture
def batch_studies(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(BATCH_STUDIES))
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    return tmp_path / "runs"


def _cli(argv: list[str]) -> int:
    return cli_main(argv)


def summary_has_table(runs: Path) -> bool:
    (summary,) = runs.glob("report-*/summary.json")
    alpha = [s for s in json.loads(summary.read_text())["studies"] if s["study"] == "alpha"][0]
    return [Path(t).name for t in alpha["tables"]] == ["means.csv"]


def _links(page: str) -> list[str]:
    return re.findall(r'(?:href|src)="([^"#][^"]*)"', page)


def test_run_all_smoke_writes_the_report(batch_studies, capsys):
    assert _cli(["run", "all", "--params", "smoke", "--jobs", "2"]) == 0
    out, err = capsys.readouterr()
    assert "2 of 2 studies ok; report:" in out
    assert re.search(r"\[run all --params smoke\] 2/2 (alpha|beta): ok", err)  # CI-style progress lines
    reports = sorted(batch_studies.glob("report-*/index.html"))
    assert len(reports) == 1
    page = reports[0].read_text()
    assert "2 of 2 studies ok" in page and 'id="alpha"' in page and 'id="beta"' in page
    assert "n=4" in page and "x=2" in page  # the parameters of each study
    assert "mean_value" in page and "x_squared" in page and "nested.half" in page  # every number, folded
    assert "table (12 rows)" in page  # tables folded
    assert "<h3>means <small>" in page and "<table" in page.split("<h3>means")[1]  # a saved table, shown as HTML
    assert "Alpha: a fixture study with an explorer" in page  # the question: the notebook's first Markdown cell
    assert page.index('<img src="') < page.index("<h3>means") < page.index("all numbers of results.json")
    assert "manifest (" in page  # the manifest, folded
    assert summary_has_table(batch_studies)
    links = _links(page)
    assert any(link.endswith("executed.ipynb") for link in links)
    imgs = re.findall(r'<img src="([^"]+)"', page)
    assert sorted(Path(i).name for i in imgs) == ["bars.png", "line.png"]
    for link in links:  # every link of the page resolves, relative to the page
        assert (reports[0].parent / link).resolve().exists(), link
    summary = json.loads((reports[0].parent / "summary.json").read_text())
    assert summary["ok"] and [s["status"] for s in summary["studies"]] == ["ok", "ok"]


def test_a_failed_study_does_not_stop_the_others(batch_studies, capsys):
    res = run_all.run_all("broken", quiet=True)
    assert not res.ok
    by = {o.study: o for o in res.outcomes}
    assert by["alpha"].ok and by["alpha"].figures and by["alpha"].results["n"] == 3
    assert by["beta"].status == "failed" and "beta asked to fail with x=1" in by["beta"].error
    assert "if fail:" in by["beta"].error  # names the failing cell
    page = res.report.read_text()
    assert "1 of 2 studies ok" in page and "beta asked to fail" in page
    assert (Path(by["beta"].run_dir) / "executed.ipynb").is_file()
    assert capsys.readouterr().err == ""  # --quiet: no progress


def test_a_study_without_the_parameter_set_fails_alone(batch_studies, capsys):
    assert _cli(["run", "all", "--params", "partial", "-q"]) == 1
    out, err = capsys.readouterr()
    assert "1 of 2 studies ok" in out
    assert "beta" in err and "no parameter set 'partial'" in err
    assert not (batch_studies / "beta").exists()  # never started


def test_unknown_or_no_studies(batch_studies, tmp_path, monkeypatch):
    with pytest.raises(InputError, match="unknown study nope; known: alpha, beta"):
        run_all.run_all("smoke", only=["nope"])
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(tmp_path / "empty"))
    with pytest.raises(InputError, match="no studies found"):
        run_all.run_all("smoke")


def test_run_all_refuses_per_study_overrides():
    args = argparse.Namespace(params="smoke", param=["seed=1"], jobs=1, scheduler=None, kernel=None, quiet=True)
    with pytest.raises(InputError, match="-p seed=1 applies to one study"):
        run_cli.cmd_run_all(args)
