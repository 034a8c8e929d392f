"""Tests of the meta-evaluation across data sets (sumeval.meta_eval.across, across_sets, across_output)
and of the ranking accuracy of a pairwise set (sumeval.stats.pair_ranking).

The mean rank and mean score are checked on a 3-set fixture computed by hand (the computation is in
the comments); the ranking accuracy, its interval and its test by hand on tiny pairs; the across run
end to end on user files where a measure cannot run (a blank cell with its reason, never an error).
"""
from __future__ import annotations

import argparse
import json

import numpy as np
import pandas as pd
import pytest

from sumeval import meta_eval
from sumeval.errors import InputError
from sumeval.meta_eval import across, across_output
from sumeval.stats import pair_ranking

from helpers import REPO_ROOT, TEST_DATA  # tests/ is on the path

EXAMPLES = REPO_ROOT / "examples"
MAP = dict(doc_col="article_id", system_col="model", summary_col="output", text_col="source", references_col="gold")


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


# ------------------------------------------------------------------------------------------------
# Weights and means on a 3-set fixture, by hand
# ------------------------------------------------------------------------------------------------
def _fixture() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Set A: humans x, y at the input level; set B: human z at the system and global levels; set C:
    a pairwise set (accuracy). Measures m1, m2 on every task, m3 not on C, m4 only on A/x."""
    tasks = pd.DataFrame({"dataset": ["A", "A", "B", "B", "C"], "human": ["x", "y", "z", "z", "fact"],
                          "level": ["input", "input", "system", "global", "input"],
                          "kind": ["correlation"] * 4 + ["accuracy"]})
    table = {  # (cluster, value) per task, in the order of `tasks`
        "m1": [(1, 0.5), (2, 0.3), (1, 0.8), (1, 0.4), (1, 0.9)],
        "m2": [(2, 0.1), (1, 0.6), (2, 0.2), (1, 0.3), (2, 0.7)],
        "m3": [(1, 0.4), (1, 0.5), (1, 0.6), (2, -0.2), None],
        "m4": [(3, 0.0), None, None, None, None],
    }
    rows = []
    for m, cells in table.items():
        for t, c in zip(tasks.itertuples(index=False), cells):
            base = {"coefficient": "kendall_b", "measure": m, "dataset": t.dataset, "human": t.human, "level": t.level,
                    "kind": t.kind}
            if c is None:
                rows.append({**base, "status": "cannot run", "reason": "no references in C"})
            else:
                rows.append({**base, "value": c[1], "cluster": c[0], "rank": c[0], "n": 10, "status": "ok"})
    return pd.DataFrame(rows, columns=across.CELL_COLUMNS), tasks


def test_task_weights_split_by_set_then_human_then_level():
    _, tasks = _fixture()
    # A: 1/3 over 2 humans -> 1/6 each; B: 1/3, one human, 2 levels -> 1/6 each; C: 1/3
    assert across.task_weights(tasks).tolist() == pytest.approx([1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 3])
    # weights A 2, B 1, C 1 -> A 1/2 (1/4 per human), B 1/4 (1/8 per level), C 1/4
    assert across.task_weights(tasks, {"A": 2, "B": 1, "C": 1}).tolist() == pytest.approx([1 / 4, 1 / 4, 1 / 8, 1 / 8,
                                                                                           1 / 4])
    with pytest.raises(InputError, match="sum to 0"):
        across.task_weights(tasks, {"A": 0, "B": 0, "C": 0})


def test_mean_rank_and_mean_score_by_hand():
    cells, tasks = _fixture()
    s = across.summarize(cells, tasks).set_index("measure")
    # m1: ranks (1 + 2 + 1 + 1)/6 + 1/3 = 7/6; scores ((.5+1)/2 + (.3+1)/2 + (.8+1)/2 + (.4+1)/2)/6 + .9/3
    #     = (.75 + .65 + .9 + .7)/6 + .3 = .8; correlations only: (.5 + .3 + .8 + .4)/4 = .5
    assert s.loc["m1", "mean_rank"] == pytest.approx(7 / 6)
    assert s.loc["m1", "mean_score"] == pytest.approx(0.8)
    assert s.loc["m1", "mean_corr"] == pytest.approx(0.5)
    # m2: (2 + 1 + 2 + 1)/6 + 2/3 = 5/3; (.55 + .8 + .6 + .65)/6 + .7/3 = 2/3; (.1 + .6 + .2 + .3)/4 = .3
    assert s.loc["m2", "mean_rank"] == pytest.approx(5 / 3)
    assert s.loc["m2", "mean_score"] == pytest.approx(2 / 3)
    assert s.loc["m2", "mean_corr"] == pytest.approx(0.3)
    # m3 misses C: its 4 tasks (1/6 each, coverage 2/3) renormalised to 1/4: (1 + 1 + 1 + 2)/4 = 1.25;
    #     (.7 + .75 + .8 + .4)/4 = .6625; (.4 + .5 + .6 - .2)/4 = .325
    assert s.loc["m3", "mean_rank"] == pytest.approx(1.25)
    assert s.loc["m3", "mean_score"] == pytest.approx(0.6625)
    assert s.loc["m3", "mean_corr"] == pytest.approx(0.325)
    assert s.loc[["m1", "m2", "m3", "m4"], "coverage"].tolist() == pytest.approx([1, 1, 2 / 3, 1 / 6])
    assert s.loc[["m1", "m2", "m3", "m4"], "n_sets"].tolist() == [3, 3, 2, 1]
    # m4 is on one set: no mean, and the reason
    assert np.isnan(s.loc["m4", "mean_rank"]) and "1 data set" in s.loc["m4", "reason"]
    assert s.loc[["m1", "m3", "m2"], "position"].tolist() == [1, 2, 3]


def test_set_weights_change_the_order():
    cells, tasks = _fixture()
    s = across.summarize(cells, tasks, weights={"A": 2, "B": 1, "C": 1}).set_index("measure")
    # m1: 1/4*1 + 1/4*2 + 1/8*1 + 1/8*1 + 1/4*1 = 1.25; m2: 1/2 + 1/4 + 1/4 + 1/8 + 1/2 = 1.625
    # m3: weights 1/4, 1/4, 1/8, 1/8 renormalised to 1/3, 1/3, 1/6, 1/6: 1/3 + 1/3 + 1/6 + 2/6 = 7/6
    assert s.loc["m1", "mean_rank"] == pytest.approx(1.25)
    assert s.loc["m2", "mean_rank"] == pytest.approx(1.625)
    assert s.loc["m3", "mean_rank"] == pytest.approx(7 / 6)
    assert s.loc[["m3", "m1", "m2"], "position"].tolist() == [1, 2, 3]


def test_missing_all_is_mt_metrics_evals_rule():
    cells, tasks = _fixture()
    s = across.summarize(cells, tasks, missing="all").set_index("measure")
    assert s.loc["m1", "mean_rank"] == pytest.approx(7 / 6)  # on every task: as before
    assert np.isnan(s.loc["m3", "mean_rank"]) and "on 4 of the 5 tasks" in s.loc["m3", "reason"]
    # min_sets=1 gives m4 its one task
    one = across.summarize(cells, tasks, min_sets=1).set_index("measure")
    assert one.loc["m4", "mean_rank"] == 3 and one.loc["m4", "mean_score"] == pytest.approx(0.5)


def test_across_settings_carry_every_setting_of_one_set():
    # a field added to meta_eval.Settings must reach each set's meta-evaluation (for_set copies them by name)
    from dataclasses import fields

    one = {f.name for f in fields(meta_eval.Settings)} - {"humans"}
    assert one <= {f.name for f in fields(across.AcrossSettings)}
    s = across.AcrossSettings(bootstrap_p="sacrerouge", n_resamples=7).for_set(("q",), ("system",))
    assert (s.bootstrap_p, s.n_resamples, s.humans, s.levels) == ("sacrerouge", 7, ("q",), ("system",))



def test_across_settings_and_one_sets_settings_share_the_statistics_options():
    # one definition of the statistics fields: both classes are StatisticsOptions, with its defaults (spa aside)
    from dataclasses import MISSING, fields

    from sumeval.meta_eval.analysis import StatisticsOptions

    assert issubclass(meta_eval.Settings, StatisticsOptions) and issubclass(across.AcrossSettings, StatisticsOptions)
    base = {f.name: f.default for f in fields(StatisticsOptions)}
    one = {f.name: f.default for f in fields(meta_eval.Settings) if f.name in base}
    many = {f.name: f.default for f in fields(across.AcrossSettings) if f.name in base}
    assert MISSING not in base.values() and one == base
    assert many == {**base, "spa": False}  # soft pairwise accuracy on every set costs minutes: off across sets
    assert [f.name for f in fields(meta_eval.Settings)][0] == "humans"  # still first: Settings(("q",), ...) works

def test_settings_errors_name_the_value():
    with pytest.raises(InputError, match="'summeval'.*-1"):
        across.AcrossSettings(weights={"summeval": -1}).check()
    with pytest.raises(InputError, match="missing='some'"):
        across.AcrossSettings(missing="some").check()
    with pytest.raises(InputError, match="jobs.*0"):
        across.AcrossSettings(jobs=0).check()
    with pytest.raises(InputError, match="--level 'paragraph'"):
        across.AcrossSettings(levels=("paragraph",)).check()
    assert across.expand_datasets(["shelf", "summeval"])[:2] == ["summeval", "realsumm"]
    from sumeval.datasets.shelf_table import SHELF

    assert across.expand_datasets(["shelf"]) == list(SHELF)


# ------------------------------------------------------------------------------------------------
# Ranking accuracy of a pairwise set, by hand
# ------------------------------------------------------------------------------------------------
def _pairs() -> pd.DataFrame:
    """4 documents, a correct (fact 1) and an incorrect (fact 0) summary each, in either order."""
    return pd.DataFrame({
        "doc_id": ["d1", "d1", "d2", "d2", "d3", "d3", "d4", "d4"],
        "system": ["correct", "incorrect", "incorrect", "correct", "correct", "incorrect", "correct", "incorrect"],
        "fact": [1, 0, 0, 1, 1, 0, 1, 0],
        # A: right on d1 (.9 > .1), d2 (.8 > .2), d3 (.7 > .6), tie on d4 (.5 = .5)
        "A": [0.9, 0.1, 0.2, 0.8, 0.7, 0.6, 0.5, 0.5],
        # B: wrong on d1, d2, right on d3, undefined on d4 (NaN)
        "B": [0.1, 0.9, 0.9, 0.1, 0.6, 0.5, np.nan, 0.4],
    })


def test_ranking_accuracy_by_hand():
    frame = _pairs()
    acc = pair_ranking.ranking_accuracy(frame, ["A", "B"], "fact", n_resamples=200).set_index("measure")
    # A: c = 1, 1, 1, 0 (a tie counts wrong, as BARTScore's strict >): 3/4
    assert acc.loc["A", "accuracy"] == 0.75 and acc.loc["A", "n_ties"] == 1 and acc.loc["A", "n"] == 4
    # B: c = 0, 0, 1 on its 3 defined pairs: 1/3
    assert acc.loc["B", "accuracy"] == pytest.approx(1 / 3) and acc.loc["B", "n_undefined"] == 1
    half = pair_ranking.ranking_accuracy(frame, "A", "fact", ties="half").set_index("measure")
    assert half.loc["A", "accuracy"] == 0.875  # (1 + 1 + 1 + 1/2) / 4
    # the interval: percentile of the resampled means over the documented draws
    idx = np.random.default_rng(0).integers(0, 4, size=(200, 4))
    c = np.array([1.0, 1.0, 1.0, 0.0])
    lo, hi = np.quantile(c[idx].mean(axis=1), [0.025, 0.975])
    assert (acc.loc["A", "ci_low"], acc.loc["A", "ci_high"]) == pytest.approx((lo, hi))


def test_ranking_accuracy_equals_acc23_at_zero_threshold():
    from sumeval.stats.item_pairwise import item_pairwise_accuracy

    frame = _pairs()
    mine = pair_ranking.ranking_accuracy(frame, "A", "fact", n_resamples=10)["accuracy"].item()
    acc23 = item_pairwise_accuracy(frame, "A", "fact", epsilon=0.0, grouping="none")["accuracy"].item()
    assert mine == pytest.approx(acc23)


def test_paired_permutation_test_by_hand():
    # A right on all 4 pairs, B wrong on all 4: every d_i = 1, d = 1; a permutation gives d* = mean(s_i),
    # |d*| >= 1 only when the 4 signs agree: probability 2/16 = 0.125
    frame = pd.DataFrame({"doc_id": np.repeat(["d1", "d2", "d3", "d4"], 2), "system": ["c", "i"] * 4,
                          "fact": [1, 0] * 4, "A": [1.0, 0.0] * 4, "B": [0.0, 1.0] * 4})
    t = pair_ranking.compare_ranking_accuracy(frame, ["A", "B"], "fact", n_resamples=4000, seed=5).iloc[0]
    signs = np.random.default_rng(5).random((4000, 4)) < 0.5
    same = np.sum(signs.all(axis=1) | (~signs).all(axis=1))  # the documented draws, counted directly
    assert t["p_raw"] == pytest.approx(same / 4000) and abs(t["p_raw"] - 0.125) < 0.02
    assert t["p_value"] == pytest.approx((same + 1) / 4001)  # with the resampling floor, as compare_measures
    # every d_i = 1: each resampled mean difference is 1, so is the interval
    assert (t["ci_low"], t["ci_high"], t["n_rows"], t["note"]) == (1.0, 1.0, 4, "")
    assert (t["corr_a"], t["corr_b"], t["diff"], t["coefficient"]) == (1.0, 0.0, 1.0, "accuracy")
    ranked = __import__("sumeval").stats.significance_clusters(
        pair_ranking.compare_ranking_accuracy(frame, ["A", "B"], "fact", n_resamples=4000, seed=5), alpha=0.2)
    assert ranked.set_index("measure")["cluster"].to_dict() == {"A": 1, "B": 2}  # p 0.125 < 0.2


def test_pairwise_set_bad_input_names_the_document():
    frame = _pairs()
    three = pd.concat([frame, frame.iloc[[0]].assign(system="third")], ignore_index=True)
    with pytest.raises(InputError, match="document 'd1' has 3 summaries"):
        pair_ranking.ranking_accuracy(three, "A", "fact")
    same = frame.assign(fact=[1, 1, 0, 1, 1, 0, 1, 0])
    with pytest.raises(InputError, match="document 'd1'.*1.0 and 1.0"):
        pair_ranking.ranking_accuracy(same, "A", "fact")
    with pytest.raises(InputError, match="ties='never'"):
        pair_ranking.ranking_accuracy(frame, "A", "fact", ties="never")


# ------------------------------------------------------------------------------------------------
# End to end on user files: blank cells with reasons, units equal one call, outputs, the command
# ------------------------------------------------------------------------------------------------
@pytest.fixture()
def three_sets(tmp_path):
    """Three user data sets: `news` (texts and references), `norefs` (no references), `notext` (no
    source texts, a measure column of its own)."""
    from sumeval.datasets.judgments import add_dataset

    raw = pd.read_csv(TEST_DATA / "user_judgments.csv")
    raw.to_csv(tmp_path / "news.csv", index=False)
    norefs = raw.drop(columns=["gold", "faithful"]).assign(article_id=lambda f: "n" + f["article_id"])
    norefs.to_csv(tmp_path / "norefs.csv", index=False)
    notext = raw.drop(columns=["source", "faithful"]).assign(own=lambda f: f["overall"] + np.arange(len(f)) % 3 * 0.1)
    notext.to_csv(tmp_path / "notext.csv", index=False)
    add_dataset("news", tmp_path / "news.csv", human=["overall", "faithful"], **MAP)
    add_dataset("norefs", tmp_path / "norefs.csv", human=["overall"], **{k: v for k, v in MAP.items()
                                                                        if k != "references_col"})
    add_dataset("notext", tmp_path / "notext.csv", human=["overall"], **{k: v for k, v in MAP.items()
                                                                        if k != "text_col"})
    return ["news", "norefs", "notext"]


MEASURES = ["rouge-1", "js-2", "fragments:ExtractiveFragments"]


def test_a_measure_that_cannot_run_is_a_blank_cell_with_its_reason(three_sets):
    r = across.meta_evaluate_across(three_sets, MEASURES,
                                    across.AcrossSettings(n_resamples=40, levels=("system", "global")),
                                    humans={"news": ["overall"]}, module_path=[str(EXAMPLES)])
    cells = r.cells.set_index(["measure", "dataset", "level"])
    assert cells.loc[("rouge-1", "norefs", "global"), "status"] == "cannot run"
    assert cells.loc[("rouge-1", "norefs", "global"), "reason"] == "no references in norefs"
    assert cells.loc[("fragments", "notext", "system"), "reason"] == "no source text in notext"
    assert cells.loc[("js-2 (negated)", "news", "global"), "status"] == "ok"
    # the set's own column runs on its set only, and is in the order after the given measures
    assert r.measures == ["rouge-1", "js-2 (negated)", "fragments", "my_metric", "own"]
    assert set(r.cells.loc[r.cells["measure"] == "own", "dataset"]) == {"notext"}
    # every number is the set's own meta-evaluation's
    news = r.sets["news"].result.ranking.set_index(["measure", "human", "level"])
    for m in ("rouge-1", "fragments", "my_metric"):
        assert cells.loc[(m, "news", "global"), "value"] == news.loc[(m, "overall", "global"), "value"]
        assert cells.loc[(m, "news", "global"), "cluster"] == news.loc[(m, "overall", "global"), "cluster"]
    # rouge-1 is on news and notext: a mean over their tasks, covering 2 of the 3 sets' weight
    s = r.summary[(r.summary["scope"] == "all")].set_index("measure")
    assert s.loc["rouge-1", "n_sets"] == 2 and s.loc["rouge-1", "coverage"] == pytest.approx(2 / 3)
    t = r.tasks.set_index(["dataset", "human", "level"])
    assert t["weight"].sum() == pytest.approx(1.0) and (t["status"] == "run").all()


def test_a_set_where_nothing_runs_is_skipped_with_the_reason(three_sets):
    r = across.meta_evaluate_across(["news", "norefs"], ["rouge-1"], across.AcrossSettings(n_resamples=20),
                                    own_columns=False)
    assert r.sets["norefs"].status == "skipped" and r.sets["norefs"].reason == "no measure can run on norefs"
    assert any("norefs: skipped" in n for n in r.notes)
    assert (r.tasks.loc[r.tasks["dataset"] == "norefs", "status"] == "not run").all()


def test_units_per_human_equal_one_call(three_sets):
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures

    settings = across.AcrossSettings(n_resamples=60, seed=4)
    r = across.meta_evaluate_across(["news"], ["rouge-1", "js-2", "my_metric"], settings,
                                    humans={"news": ["overall", "faithful"]}, own_columns=False)
    j = load_judgments("news")
    one = meta_eval.meta_evaluate(j, resolve_measures(["rouge-1", "js-2", "my_metric"], j),
                                  settings.for_set(("overall", "faithful"), settings.levels))
    keys = {"correlations": ["measure", "human", "level", "coefficient"], "ranking": ["measure", "human", "level"],
            "pairwise": ["measure_a", "measure_b", "human", "level"]}
    for name, key in keys.items():
        a = getattr(one, name).sort_values(key).reset_index(drop=True)
        b = getattr(r.sets["news"].result, name).sort_values(key).reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b[a.columns])


def test_two_jobs_give_the_same_numbers(three_sets):
    kw = dict(humans={"news": ["overall", "faithful"]}, own_columns=True)
    one = across.meta_evaluate_across(three_sets, ["rouge-1", "js-2"], across.AcrossSettings(n_resamples=30), **kw)
    two = across.meta_evaluate_across(three_sets, ["rouge-1", "js-2"], across.AcrossSettings(n_resamples=30, jobs=2),
                                      **kw)
    pd.testing.assert_frame_equal(one.cells, two.cells)
    pd.testing.assert_frame_equal(one.summary, two.summary)


def test_an_unused_option_and_unknown_weights_are_errors(three_sets):
    with pytest.raises(InputError, match="option\\(s\\) layer are not used"):
        across.meta_evaluate_across(["news"], ["rouge-1"], across.AcrossSettings(n_resamples=10), options={"layer": 3})
    with pytest.raises(InputError, match="\\['frank'\\]"):
        across.meta_evaluate_across(["news"], ["rouge-1"], across.AcrossSettings(weights={"frank": 2}))


def test_an_unused_option_is_refused_before_any_set_is_read(monkeypatch):
    """The shelf's `default` with `-p measures=rouge-1,...` and its `precision` read all 16 sets (15 minutes on
    a loaded machine) before saying that no measure takes `precision`: with registered measures it is said first."""
    from sumeval.meta_eval import across_sets

    def no_reading(*a, **k):
        raise AssertionError("a set was read before the options were checked")

    monkeypatch.setattr(across_sets, "prepare_set", no_reading)
    with pytest.raises(InputError, match=r"option\(s\) precision are not used by any of the measures rouge-1, bleu; "
                                         r"leave them out .*-p precision="):
        across.meta_evaluate_across(["shelf"], ["rouge-1", "bleu"], options={"precision": "auto"})
    # a column or a class is resolved per set: then the sets are read and the check comes after them
    with pytest.raises(AssertionError, match="a set was read"):
        across.meta_evaluate_across(["shelf"], ["rouge-1", "overall"], options={"precision": "auto"})
    # an option a registered measure takes passes the early check
    with pytest.raises(AssertionError, match="a set was read"):
        across.meta_evaluate_across(["shelf"], ["rouge-1", "estime"], options={"precision": "auto"})


def test_write_across_and_the_tables(three_sets, tmp_path):
    r = across.meta_evaluate_across(three_sets, MEASURES, across.AcrossSettings(n_resamples=30),
                                    humans={"news": ["overall"]}, module_path=[str(EXAMPLES)])
    out = tmp_path / "out"
    written = across_output.write_across(r, out, figures=True, set_figures=False)
    assert {"across.csv", "tasks.csv", "across_summary.csv", "table_across_kendall_b_global.tex",
            "table_ranking_kendall_b.md", "heatmap_kendall_b_system.png", "ranking_kendall_b.pdf",
            "manifest.json"} <= set(written)
    assert {"news", "norefs", "notext"} <= {p.name for p in out.iterdir() if p.is_dir()}
    assert (out / "news" / "correlations.csv").is_file()
    assert not any(p.name.startswith(".") for p in out.iterdir())
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == across_output.MANIFEST_KIND and manifest["sets"]["norefs"]["cannot_run"]["rouge-1"]
    back = pd.read_csv(out / "across.csv")
    assert len(back) == len(r.cells) and set(back["status"]) == {"ok", "cannot run"}
    md = (out / "table_across_kendall_b_global.md").read_text()
    assert "<sup>r</sup>" in md and "r: no references" in md  # rouge-1 on norefs, and the caption's key
    values, bold, marks, letters = across_output.across_table(r, "kendall_b", "global")
    assert marks.loc["rouge-1", ("norefs", "overall")] == "r" and letters == ["a", "r"]
    assert values.loc["rouge-1", ("news", "overall")] == r.cells.set_index(
        ["measure", "dataset", "level"]).loc[("rouge-1", "news", "global"), "value"]
    # the same folder again: refused unless asked to overwrite (as a single meta-eval's --overwrite), then
    # replaced; a folder of other files is refused
    with pytest.raises(InputError, match="pass --overwrite"):
        across_output.write_across(r, out, figures=False)
    across_output.write_across(r, out, figures=False, overwrite=True)
    assert (out / "across.csv").is_file() and (out / "news" / "manifest.json").is_file()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="notes.txt"):
        across_output.write_across(r, tmp_path / "other")


def test_the_command_line(three_sets, tmp_path, capsys):
    from sumeval.cli import meta_eval as meta_eval_cli

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    meta_eval_cli.add_commands(sub)  # wires the across options into `sumeval meta-eval`
    plain = parser.parse_args(["meta-eval", "news", "--human", "overall", "--measures", "rouge-1", "--out", "x"])
    assert (plain.data, plain.dataset, plain.human) == ("news", None, ["overall"])  # one set: as before
    out = tmp_path / "cli"
    args = parser.parse_args(["meta-eval", "--dataset", *three_sets, "--human", "news:overall", "--measures", "rouge-1",
                              "js-2", "--weight", "news=2", "notext:1", "--level", "system", "global",
                              "--n-resamples", "20", "--no-figures", "-q", "--out", str(out)])
    assert args.func(args) == 0  # `sumeval meta-eval --dataset ...` goes to the across run
    printed = capsys.readouterr().out
    assert "mean rank" in printed and "ROUGE-1" in printed  # the table's readable names
    tasks = pd.read_csv(out / "tasks.csv")
    run = tasks[tasks["status"] == "run"]
    assert run.groupby("dataset")["weight"].sum().to_dict() == pytest.approx({"news": 0.5, "norefs": 0.25,
                                                                              "notext": 0.25})
    bad = parser.parse_args(["meta-eval", "--dataset", "news", "--human", "overall", "--out", str(tmp_path / "x")])
    with pytest.raises(InputError, match="SET:COLUMN"):
        bad.func(bad)
    for argv, needs in ((["meta-eval", "--measures", "rouge-1", "--out", "y"], "first argument"),
                        (["meta-eval", "news", "--measures", "rouge-1", "--out", "y"], "--human COL")):
        with pytest.raises(InputError, match=needs):
            (a := parser.parse_args(argv)).func(a)
    with pytest.raises(InputError, match="'news=two'"):
        across_output.parse_weights(["news=two"])


def test_plots_draw_the_cells(three_sets):
    import matplotlib.pyplot as plt

    from sumeval.plots import shelf as splots

    r = across.meta_evaluate_across(three_sets, MEASURES, across.AcrossSettings(n_resamples=20, levels=("global",)),
                                    humans={"news": ["overall"]}, module_path=[str(EXAMPLES)])
    fig, ax = splots.across_heatmap(r.cells, coefficient="kendall_b", level="global", measure_order=r.given,
                                    test="permutation-both", correction="holm")
    grid = ax.images[0].get_array()
    cells = r.cells.set_index(["measure", "dataset"])
    assert grid.shape == (3, 3)  # rouge-1, js-2, fragments x news, norefs, notext
    assert grid[0, 0] == pytest.approx(cells.loc[("rouge-1", "news"), "value"])
    assert np.ma.is_masked(grid[0, 1]) or np.isnan(grid[0, 1])  # rouge-1 cannot run on norefs
    # readable names, not code names: rows, the coefficient, the test that made the clusters
    assert [t.get_text() for t in ax.get_yticklabels()][:2] == ["ROUGE-1", "JS-2 (negated)"]
    title = fig._suptitle.get_text()  # the figure's title (house style: above the panel and its colour bar)
    assert "Kendall tau-b" in title and "permutation test" in title
    plt.close(fig)
    fig, axes = splots.across_ranking(r.summary, coefficient="kendall_b", test="williams", correction="holm",
                                      alpha=0.05)
    assert len(axes[0].lines[0].get_xdata()) == r.summary.query("scope == 'all'")["mean_rank"].notna().sum()
    title = fig._suptitle.get_text()
    assert "Kendall tau-b" in title and "clusters: Williams' test, Holm correction, alpha 0.05" in title
    assert not any(t.get_text().startswith(("rouge-1", "js-2")) for t in axes[0].get_yticklabels())
    plt.close(fig)


def test_an_undefined_correlation_is_a_blank_cell_not_a_rank(tmp_path):
    from sumeval.datasets.judgments import add_dataset

    raw = pd.read_csv(TEST_DATA / "user_judgments.csv").drop(columns=["faithful"]).assign(flat=1.0)
    raw.to_csv(tmp_path / "flat.csv", index=False)
    add_dataset("flatset", tmp_path / "flat.csv", human=["overall"], **MAP)
    r = across.meta_evaluate_across(["flatset"], ["rouge-1"],
                                    across.AcrossSettings(n_resamples=20, levels=("global",), min_sets=1))
    cells = r.cells.set_index("measure")
    assert cells.loc["flat", "status"] == "undefined" and "is constant" in cells.loc["flat", "reason"]
    assert np.isnan(cells.loc["flat", "cluster"]) and cells.loc["rouge-1", "status"] == "ok"
    s = r.summary[r.summary["scope"] == "all"].set_index("measure")
    assert np.isnan(s.loc["flat", "mean_rank"]) and s.loc["rouge-1", "mean_rank"] == 1
