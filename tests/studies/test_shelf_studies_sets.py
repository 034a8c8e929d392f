"""The shelf's 16 sets in the studies and in ``meta-eval --dataset shelf`` (issue 34 item 5; issue 32's XSumFaith
default humans): which sets a study asks is derived from the shelf's table and the sets' columns, a set's
judges' predictions get correlations, SPA, PPI and the judge audit where its design allows, and the across tables
name every (set, human column, level) they leave out and why."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sumeval.datasets.judgments import load_judgments

from helpers import REPO_ROOT, needs_data  # tests/ is on the path

needs_shelf = needs_data("xsumfaith/eval_scores_xsum_summaries.csv", "storysumm/storysumm.json",
                         "qags/mturk_xsum.jsonl", "summedits/summedits_news.json", "newsroom_raters/newsroom.json",
                         "faithbench/FaithBench.csv", "summhay_eval/eval_benchmark_data.json")


@needs_shelf
def test_xsumfaith_defaults_to_table_4s_humans_and_keeps_factuality():
    """Issue 32: the shelf ranks measures on Maynez et al.'s Table 4 columns; `factuality` stays available."""
    from sumeval.meta_eval.across import DEFAULT_HUMANS

    assert DEFAULT_HUMANS["xsumfaith"] == ("faithful", "factual")
    j = load_judgments("xsumfaith", human=["factuality"])
    assert j.humans == ("factuality",) and int(j.frame["factuality"].notna().sum()) == 1858


@needs_shelf
def test_the_studies_sets_come_from_the_shelf_and_their_columns():
    from sumeval.studies import llm_judges as lj

    # annotators: every set besides SummEval with 2+ <human>/<annotator> columns, Newsroom's raters among them
    assert lj.shelf_sets("annotators") == ["dialsummeval", "qags-c", "qags-x", "xsumfaith", "newsroom"]
    # judges' / detectors' predictions: the opt-in <judge>.<human> columns
    assert lj.shelf_sets("judges") == ["faithbench", "storysumm", "summhay"]
    assert lj.shelf_sets("judges", "storysumm, faithbench") == ["storysumm", "faithbench"]
    assert lj.shelf_sets("annotators", "") == []
    preds = lj.judge_predictions(load_judgments("summeval"))
    assert sorted(preds) == ["coherence", "consistency", "fluency", "relevance"]
    assert preds["fluency"]["gpt-4o"] == "gpt-4o.fluency" and len(preds["fluency"]) == 6
    fb = lj.judge_predictions(load_judgments("faithbench"))
    assert list(fb) == ["consistent"] and fb["consistent"]["hhem-2.1"] == "hhem-2.1.consistent"
    assert len(fb["consistent"]) == 8
    assert lj.judge_predictions(load_judgments("dialsummeval")) == {}  # its 32 columns are measures, not opt-in
    with pytest.raises(Exception, match="kind 'raters'"):
        lj.shelf_sets("raters")


@needs_shelf
def test_judge_set_asks_what_each_set_allows():
    """StorySumm: 5 models, but no story summarised by all of them, so no SPA (said why); the correlations are
    those of the columns themselves; the PPI curve stops below a model's count of summaries; the probability
    judge gets a calibration row, the 0/1 ones too (0/1 values lie in [0, 1])."""
    from sumeval import stats
    from sumeval.studies import llm_judges as lj

    frames, notes = lj.judge_set("storysumm", levels=["input", "global"], coefficients=["kendall_b"],
                                 test="williams", n_resamples=10, seed=0, alpha=0.05, n_permutations=20,
                                 spa_resamples=0, ppi_repeats=3, n_labels=(5, 10, 12, 30))
    assert "spa" not in frames
    assert any(n.startswith("storysumm/faithful: no soft pairwise accuracy (no document has") for n in notes)
    j = load_judgments("storysumm")
    corr = frames["correlations"].set_index(["measure", "level"])
    direct = stats.correlate(j.frame, ["cot-gpt-4.faithful"], ["faithful"], level="global", methods=("kendall_b",),
                             n_resamples=0)
    assert corr.loc[("cot-gpt-4", "global"), "value"] == pytest.approx(direct["value"].iloc[0], abs=1e-12)
    assert set(frames["correlations"]["dataset"]) == {"storysumm"}
    assert (corr["cluster"].notna() == np.isfinite(corr["value"])).all()  # a cluster wherever a value is defined
    fewest = int(j.frame.groupby("system").size().min())  # 11 (text-davinci-003, chatGPT)
    assert sorted(frames["ppi"]["n_labels"].unique()) == [n for n in (5, 10, 12, 30) if n < fewest]
    assert "binary-gpt-4-probability" in set(frames["calibration"]["judge"])
    assert set(frames["verbosity"]["judge"]) == set(lj.judge_predictions(j)["faithful"])


@needs_shelf
def test_judge_set_on_faithbench_has_spa_and_a_set_without_predictions_says_so():
    from sumeval.stats.soft_pairwise import soft_pairwise_accuracy
    from sumeval.studies import llm_judges as lj

    frames, notes = lj.judge_set("faithbench", levels=["system"], coefficients=["kendall_b"], test="williams",
                                 n_resamples=10, seed=0, alpha=0.05, n_permutations=30, spa_resamples=0,
                                 ppi_repeats=0)
    j = load_judgments("faithbench")
    direct = soft_pairwise_accuracy(j.frame, ["gpt_4o.consistent"], "consistent", n_permutations=30)
    spa = frames["spa"].set_index("measure")
    assert len(spa) == 8 and spa.loc["gpt_4o", "spa"] == pytest.approx(direct["spa"].iloc[0], abs=1e-12)
    assert (spa["n_systems"] == 10).all() and "ppi" not in frames
    frames, notes = lj.judge_set("qags-x", levels=["global"], coefficients=["kendall_b"], test="williams",
                                 n_resamples=10, seed=0, alpha=0.05)
    assert frames == {} and notes == ["qags-x: no judges' or detectors' predictions (no <judge>.<human> columns)"]


@needs_shelf
def test_across_tables_name_the_tasks_they_leave_out(tmp_path):
    """A set that supports only some levels is run at those and the tables say which (set, human, level) was not
    run and why: QAGS-X (one summary per article: global only) and SummEdits (no systems)."""
    from sumeval.meta_eval import across_output
    from sumeval.meta_eval.across import AcrossSettings, meta_evaluate_across

    r = meta_evaluate_across(["qags-x", "summedits"], ["length"], AcrossSettings(n_resamples=10, spa=False),
                             n_docs=12, cache=False)
    tasks = r.tasks.set_index(["dataset", "level"])
    assert tasks.loc[("qags-x", "global"), "status"] == "run" and tasks.loc[("summedits", "global"), "status"] == "run"
    assert tasks.loc[("summedits", "system"), "status"] == "not run"
    assert tasks.loc[("qags-x", "input"), "reason"].startswith("the input level does not apply to qags-x")
    assert across_output.not_run(r, "system") == [
        "qags-x factuality: QAGS-X has one summary (one system, bart) per article",
        "summedits consistency: SummEdits has no summarisation systems"]
    assert across_output.not_run(r) == [
        "qags-x factuality (input, system): QAGS-X has one summary (one system, bart) per article",
        "summedits consistency (system): SummEdits has no summarisation systems"]
    values, bold, marks, letters = across_output.across_table(r, "kendall_b", "global")
    cap = across_output.caption(r, "kendall_b", "global", letters)
    assert "not run at the global level" not in cap  # both sets ran there
    cap = across_output.ranking_caption(r, "kendall_b")
    assert cap.endswith("; tasks not run: qags-x factuality (input, system): QAGS-X has one summary (one system, "
                        "bart) per article; summedits consistency (system): SummEdits has no summarisation systems")
    paths = across_output.write_across(r, tmp_path / "out", figures=False)
    assert paths and "summedits consistency (system)" in (tmp_path / "out" / "table_ranking_kendall_b.md").read_text()
    written = pd.read_csv(tmp_path / "out" / "tasks.csv")
    assert set(written.loc[written["status"] == "not run", "dataset"]) == {"qags-x", "summedits"}
    assert np.isclose(written["weight"].sum(), 1.0)


@needs_shelf
def test_bench_shelf_benchmarks_every_shelf_set_smallest_texts_first():
    import importlib.util

    from sumeval.datasets.shelf_table import SHELF

    spec = importlib.util.spec_from_file_location("bench_shelf", REPO_ROOT / "benchmarks" /
                                                  "bench_shelf.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    order = bench.order()
    assert sorted(order) == sorted(SHELF) and order[0] == "frank"  # FRANK has no texts: 0 characters
    sizes = [bench.text_size(load_judgments(n)) for n in order]
    assert sizes == sorted(sizes) and sizes[order.index("storysumm")] < sizes[order.index("summedits")]
