"""Tests of the study `shelf` (sumeval.studies.shelf, notebooks/shelf.ipynb): its parameters reach the
across-sets meta-evaluation, its key numbers are the summary's, and its smoke set runs through the runner."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.running import run_context
from sumeval.studies import shelf

from helpers import TEST_DATA, have_data  # tests/ is on the path

MAP = dict(doc_col="article_id", system_col="model", summary_col="output", text_col="source", references_col="gold")


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


@pytest.fixture()
def two_sets(tmp_path):
    """`news` (texts, references, a measure column) and `other` (the same summaries, other documents,
    human scores reversed on half the documents)."""
    from sumeval.datasets.judgments import add_dataset

    raw = pd.read_csv(TEST_DATA / "user_judgments.csv").drop(columns=["faithful"])
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


def test_close_pairs_pdp_and_rank_intervals_are_additions(two_sets, tmp_path):
    """close_pairs adds the system-level views and moves no other number; the tables are the statistics' own
    numbers on the set's rows; a set without them gets a note with the reason."""
    from sumeval.datasets.judgments import add_dataset, load_judgments
    from sumeval.meta_eval.sentinels import ORDER
    from sumeval.stats.close_pairs import close_pairs, rank_intervals
    from sumeval.stats.pdp import pairwise_difference_pearson

    raw = pd.read_csv(TEST_DATA / "user_judgments.csv").drop(columns=["faithful"])
    raw[raw["model"] != "halluc"].to_csv(tmp_path / "two.csv", index=False)  # 2 systems
    add_dataset("two", tmp_path / "two.csv", human=["overall"], **MAP)
    kw = dict(datasets=two_sets + ",two", measures="rouge-1,js-2", levels="system,global", n_resamples=40, seed=1)
    on, off = shelf.evaluate(**kw), shelf.evaluate(**kw, close_pairs=False)
    pd.testing.assert_frame_equal(on.cells, off.cells)
    pd.testing.assert_frame_equal(on.summary, off.summary)
    pd.testing.assert_frame_equal(shelf.sentinel_cells(on), shelf.sentinel_cells(off))
    frames, notes = shelf.system_pairs(on)
    assert set(frames["close_pairs"]["dataset"]) == {"news", "other"}
    assert any(n.startswith("two / overall: no close pairs, PDP or rank intervals: ") for n in notes), notes
    assert shelf.system_pairs(off)[1] == ["no close pairs, PDP or rank intervals: close_pairs is off"]

    frame = load_judgments("news").frame
    values, low, high = shelf.close_pair_table(on, frames["close_pairs"])
    direct = close_pairs(frame, "my_metric", "overall", n_resamples=40, seed=1)
    row = ("news", "overall", "my_metric")
    assert list(values.columns) == ["closest third", "middle third", "farthest third"]
    np.testing.assert_allclose(values.loc[row], direct["agreement"], atol=1e-12)
    np.testing.assert_allclose(low.loc[row], direct["ci_low"], atol=1e-12)
    np.testing.assert_allclose(high.loc[row], direct["ci_high"], atol=1e-12)
    news = values.loc[("news", "overall")].index.tolist()
    assert news == ["rouge-1", "js-2 (negated)", "my_metric", *ORDER[:4]]  # the sentinels last, but the constant

    pdp, lo, _ = shelf.pdp_table(on, frames["pdp"])
    want = pairwise_difference_pearson(frame, "my_metric", "overall", level=["input", "system"], n_resamples=40,
                                       seed=1).set_index("level")
    assert pdp.loc[row, "PDP (same input)"] == pytest.approx(want.loc["input", "pdp"], abs=1e-12)
    assert lo.loc[row, "system means"] == pytest.approx(want.loc["system", "ci_low"], abs=1e-12)

    table = shelf.rank_interval_table(on, frames["rank_intervals"])
    ranks = rank_intervals(frame, "overall", n_resamples=40, seed=1)
    overlap = [not (a.rank_high < b.rank_low or b.rank_high < a.rank_low)
               for i, a in enumerate(ranks.itertuples()) for b in list(ranks.itertuples())[i + 1:]]
    got = table.loc[("news", "human", "overall")]
    assert got["systems"] == 3 and got["separated pairs"] == pytest.approx(1 - np.mean(overlap))
    assert got["tied with the top"].split("; ")[0] == ranks["system"].iloc[0]


@pytest.mark.slow
@pytest.mark.skipif(not have_data("rank19/rank19_373.jsonl", "frank/human_annotations.json"),
                    reason="the shelf's data is not here; see data/README.md")
def test_smoke_run_through_the_runner(tmp_path, monkeypatch):
    from sumeval.cli import main

    from helpers import model_installed

    if not model_installed("all-MiniLM-L6-v2"):
        pytest.skip("all-MiniLM-L6-v2 is not installed")
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    assert main(["run", "shelf", "--params", "smoke"]) == 0
    (run,) = (tmp_path / "runs" / "shelf").iterdir()
    results = json.loads((run / "results.json").read_text())["results"]
    assert results["sets"]["frank"]["cannot_run"] and results["sets"]["rank19"]["status"] == "ok"
    assert {"ranking.png", "heatmap_input.png"} <= {p.name for p in (run / "figures").iterdir()}
    # close pairs, PDP and rank intervals where a set has a system level (XSumFaith), a note where not
    assert {"close_pairs_xsumfaith.png", "pdp.png", "rank_intervals_xsumfaith.png"} <= {
        p.name for p in (run / "figures").iterdir()}
    cp = pd.read_csv(run / "tables" / "table_close_pairs.csv")
    assert set(cp.loc[cp["dataset"] == "xsumfaith", "human"]) == {"factuality", "no_hallucination"}
    assert not {"rank19", "tofueval"} & set(cp["dataset"])
    for name in ("table_pdp", "table_rank_intervals"):
        assert (run / "tables" / f"{name}.tex").exists()
    notes = json.loads((run / "results.json").read_text())["notes"]
    assert any(n.startswith("tofueval / ") and "no system level" in n for n in notes), notes
    cells = pd.read_csv(run / "across" / "across.csv")
    acc = pd.read_csv(run / "across" / "rank19" / "ranking_accuracy.csv").set_index("measure")
    rank19 = cells[(cells["dataset"] == "rank19") & (cells["status"] == "ok")].set_index("measure")
    assert (rank19["kind"] == "accuracy").all()
    assert rank19["value"].to_dict() == pytest.approx(acc["accuracy"].reindex(rank19.index).to_dict())
