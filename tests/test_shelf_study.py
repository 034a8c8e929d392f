"""Tests of the study `shelf` (sumeval.studies.shelf, notebooks/shelf.ipynb): its parameters reach the
across-sets meta-evaluation, its key numbers are the summary's, and its smoke set runs through the runner."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.running import run_context
from sumeval.studies import shelf

from helpers import have_data  # tests/ is on the path

DATA = Path(__file__).parent / "data"
MAP = dict(doc_col="article_id", system_col="model", summary_col="output", text_col="source", references_col="gold")


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


@pytest.fixture()
def two_sets(tmp_path):
    """`news` (texts, references, a measure column) and `other` (the same summaries, other documents,
    human scores reversed on half the documents)."""
    from sumeval.datasets.judgments import add_dataset

    raw = pd.read_csv(DATA / "user_judgments.csv").drop(columns=["faithful"])
    raw.to_csv(tmp_path / "news.csv", index=False)
    other = raw.assign(article_id=lambda f: "o" + f["article_id"],
                       overall=lambda f: np.where(f["article_id"].isin(["a1", "a2"]), 6 - f["overall"], f["overall"]))
    other.drop(columns=[c for c in other.columns if "/" in c]).to_csv(tmp_path / "other.csv", index=False)
    add_dataset("news", tmp_path / "news.csv", human=["overall"], **MAP)
    add_dataset("other", tmp_path / "other.csv", human=["overall"], **MAP)
    return "news,other"


def test_parameters_reach_the_across_run(two_sets):
    r = shelf.evaluate(datasets=two_sets, measures="rouge-1,rouge-2,js-2", levels="system,global",
                       n_resamples=30, weights="news:3", humans="other:overall", seed=2)
    assert r.settings.weights == {"news": 3.0} and r.settings.levels == ("system", "global")
    assert r.settings.n_resamples == 30 and r.settings.seed == 2
    assert r.tasks.groupby("dataset")["weight"].sum().to_dict() == pytest.approx({"news": 0.75, "other": 0.25})
    assert r.given == ["rouge-1", "rouge-2", "js-2 (negated)"]
    assert "my_metric" in r.measures  # each set's own column is added by default
    no_own = shelf.evaluate(datasets=two_sets, measures="rouge-1,rouge-2", levels="global", n_resamples=10,
                            own_columns=False)
    assert "my_metric" not in no_own.measures
    with pytest.raises(InputError, match="SET:COLUMN"):
        shelf.evaluate(datasets=two_sets, measures="rouge-1", humans="overall")


def test_key_results_are_the_summarys(two_sets):
    r = shelf.evaluate(datasets=two_sets, measures="rouge-1,rouge-2,js-2", levels="system,global", n_resamples=30)
    key = shelf.key_results(r)
    s = r.summary[(r.summary["scope"] == "all")].dropna(subset=["mean_rank"]).sort_values("position")
    assert key["leader"] == s["measure"].iloc[0]
    assert key["ranking"]["measure"].tolist() == s["measure"].tolist()
    assert key["n_tasks"] == 4  # 2 sets x 1 human x 2 levels
    ok = r.cells[r.cells["status"] == "ok"]
    for task, best in key["best_per_task"].items():
        d, h, lv = task.split("/")
        sub = ok[(ok["dataset"] == d) & (ok["human"] == h) & (ok["level"] == lv)]
        assert best["value"] == sub["value"].max()
    share = ok[ok["measure"] == "rouge-1"]["cluster"].eq(1).mean()
    assert key["cluster1_share"]["rouge-1"] == pytest.approx(share)
    assert set(key["sets"]) == {"news", "other"} and key["sets"]["news"]["status"] == "ok"
    frame = shelf.explorer_frame(r)
    assert (frame["status"] == "ok").all() and set(frame["task"]) == {"news/overall", "other/overall"}
    json.dumps(run_context._jsonable(key))  # results.json can hold it


@pytest.mark.slow
@pytest.mark.skipif(not have_data("rank19/rank19_373.jsonl", "frank/human_annotations.json"),
                    reason="the shelf's data is not here; see data/README.md")
def test_smoke_run_through_the_runner(tmp_path, monkeypatch):
    from sumeval.cli import main

    from conftest import model_installed

    if not model_installed("all-MiniLM-L6-v2"):
        pytest.skip("all-MiniLM-L6-v2 is not installed")
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    assert main(["run", "shelf", "--params", "smoke"]) == 0
    (run,) = (tmp_path / "runs" / "shelf").iterdir()
    results = json.loads((run / "results.json").read_text())["results"]
    assert results["sets"]["frank"]["cannot_run"] and results["sets"]["rank19"]["status"] == "ok"
    assert {"ranking.png", "heatmap_input.png"} <= {p.name for p in (run / "figures").iterdir()}
    cells = pd.read_csv(run / "across" / "across.csv")
    acc = pd.read_csv(run / "across" / "rank19" / "ranking_accuracy.csv").set_index("measure")
    rank19 = cells[(cells["dataset"] == "rank19") & (cells["status"] == "ok")].set_index("measure")
    assert (rank19["kind"] == "accuracy").all()
    assert rank19["value"].to_dict() == pytest.approx(acc["accuracy"].reindex(rank19.index).to_dict())
