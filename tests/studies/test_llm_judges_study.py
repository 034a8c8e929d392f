"""The study module of notebooks/llm_judges.ipynb (sumeval.studies.llm_judges): its arrangements of the
judges' statistics on the small annotator fixture (values checked against the functions it calls, or by
hand), and on the built-in SummEval the pooled alt-test equal to the pins of tests/judges/test_alt_test.py (the
authors' code) and to the values the authors' notebook prints."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sumeval import stats
from sumeval.datasets.judgments import load_judgments
from sumeval.errors import InputError
from sumeval.judges.alt_test import alt_test
from sumeval.judges.annotators import annotator_correlations
from sumeval.stats.soft_pairwise import soft_pairwise_accuracy
from sumeval.studies import llm_judges as lj

from helpers import FIXTURES, import_test_module  # tests/ is on the path

# the pins of the alt-test (the authors' code on SummEval), kept beside the alt-test's own tests
_alt_test = import_test_module("judges/test_alt_test.py")
NOTEBOOK_POOLED_RHO, SUMMEVAL_PINS, _summeval_files = (_alt_test.NOTEBOOK_POOLED_RHO, _alt_test.SUMMEVAL_PINS,
                                                       _alt_test._summeval_files)

FIXTURE = FIXTURES / "judges" / "judgments_annotators.csv"
HUMANS = ["overall", "fluency"]
JUDGES = ["judge_good_{human}", "judge_bad_{human}"]
LEVELS = ("input", "system", "global")


@pytest.fixture(scope="module")
def fixture_run():
    """The fixture (15 documents x 4 systems; overall: a1-a4, fluency: a1-a3) with ``length`` as the
    offline measure and two judges, through the study's first steps."""
    j = load_judgments(FIXTURE, human=HUMANS)
    # the fixture's own `length` column ('column:': `length` is also the registered measure of the summary's words)
    scores, offline, cols = lj.score_measures(j, ["column:length"], JUDGES, HUMANS)
    corr, results = lj.correlations(j, scores, offline, cols, HUMANS, levels=LEVELS, coefficients=("kendall_b",),
                                    test="permutation-both", n_resamples=40, seed=3, alpha=0.05)
    return j, scores, offline, cols, corr, results


# --------------------------------------------------------------------------------------------
# the steps, on the fixture
# --------------------------------------------------------------------------------------------
def test_judge_columns_and_an_unknown_judge(fixture_run):
    j, _, offline, cols, _, _ = fixture_run
    assert offline == ["length"]
    assert cols == {("judge_good_{human}", "overall"): "judge_good_overall",
                    ("judge_good_{human}", "fluency"): "judge_good_fluency",
                    ("judge_bad_{human}", "overall"): "judge_bad_overall",
                    ("judge_bad_{human}", "fluency"): "judge_bad_fluency"}
    with pytest.raises(InputError, match="judge 'gpt-9'"):
        lj.judge_columns(j, ["gpt-9"], HUMANS)


def test_correlations_are_meta_evals_with_each_qualitys_own_judges(fixture_run):
    j, _, _, _, corr, results = fixture_run
    assert set(results) == set(HUMANS)
    assert list(corr.columns) == ["measure", "kind", "human", "level", "coefficient", "value", "ci_low", "ci_high",
                                  "n", "rank", "cluster"]
    # the judges are named, not by column; each quality has its own columns (3 measures per quality and level)
    assert sorted(corr["measure"].unique()) == ["judge_bad", "judge_good", "length"]
    assert corr.groupby(["human", "level"]).size().eq(3).all()
    assert set(corr.loc[corr["measure"] == "length", "kind"]) == {lj.OFFLINE}
    assert set(corr.loc[corr["measure"] != "length", "kind"]) == {lj.JUDGE}
    # a value is the correlation of that quality's judge column (the same function meta-eval calls)
    direct = stats.correlate(j.frame, ["judge_good_fluency", "length"], "fluency", level=list(LEVELS),
                             methods=["kendall_b"], n_resamples=0)
    for r in direct.itertuples():
        name = "judge_good" if r.metric == "judge_good_fluency" else "length"
        got = corr[(corr.measure == name) & (corr.human == "fluency") & (corr.level == r.level)]["value"].item()
        assert got == pytest.approx(r.value, abs=1e-12)
    # ranks 1..3 per (quality, level); the best is in cluster 1
    for _, g in corr.groupby(["human", "level"]):
        assert sorted(g["rank"]) == [1, 2, 3] and g.loc[g["rank"] == 1, "cluster"].item() == 1


def test_no_length_sentinel_among_the_studys_measures(tmp_path):
    # meta-eval adds a length sentinel where the data has summaries; the study reads every row as a
    # measure or a judge (ranks, best measure, means over qualities), so it asks for none
    f = pd.read_csv(FIXTURE)
    f["summary"] = [" ".join(["w"] * int(n)) for n in f["length"]]
    f.to_csv(tmp_path / "with_summaries.csv", index=False)
    j = load_judgments(tmp_path / "with_summaries.csv", human=HUMANS)
    scores, offline, cols = lj.score_measures(j, ["column:length"], JUDGES, HUMANS)
    corr, results = lj.correlations(j, scores, offline, cols, HUMANS, levels=("global",), coefficients=("kendall_b",),
                                    test="permutation-both", n_resamples=10, seed=3, alpha=0.05)
    assert sorted(corr["measure"].unique()) == ["judge_bad", "judge_good", "length"]
    assert set(corr["kind"]) == {lj.OFFLINE, lj.JUDGE} and corr["rank"].notna().all()
    # the sentinels are computed beside them (lj.sentinel_rows, shown under the ceiling) but never read as measures
    sentinels = lj.sentinel_rows(results)
    assert set(sentinels["measure"]) == {"length (sentinel)", "constant (sentinel)", "random (sentinel)"}
    assert set(sentinels["kind"]) == {lj.SENTINEL} and sentinels["rank"].isna().all()
    assert not set(sentinels["measure"]) & set(corr["measure"])


def test_human_ceiling_rows(fixture_run):
    j = fixture_run[0]
    ceil = lj.human_ceiling(j.frame, HUMANS, levels=("global",), coefficients=("kendall_b",), n_resamples=0, seed=0)
    ref = annotator_correlations(j.frame, HUMANS, level="global", methods="kendall_b", n_resamples=0)
    np.testing.assert_allclose(ceil["value"], ref["value"], rtol=0, atol=0)
    over = ceil[ceil["human"] == "overall"]
    assert list(over["measure"]) == ["a1", "a2", "a3", "a4", lj.CEILING]
    assert list(over["kind"]) == [lj.ANNOTATOR] * 4 + [lj.CEILING]
    # a1 by hand: tau-b of a1 with the mean of a2..a4 over the rows where both exist
    f = j.frame
    others = f[["overall/a2", "overall/a3", "overall/a4"]].mean(axis=1)
    ok = f["overall/a1"].notna() & others.notna()
    tau = sps.kendalltau(f.loc[ok, "overall/a1"], others[ok], variant="b").statistic
    assert over["value"].iloc[0] == pytest.approx(tau, abs=1e-12)
    assert over["value"].iloc[4] == pytest.approx(over["value"].iloc[:4].mean(), abs=1e-15)


def test_mean_over_qualities_by_hand():
    corr = pd.DataFrame({"measure": ["m", "m", "j", "k"], "kind": [lj.OFFLINE, lj.OFFLINE, lj.JUDGE, lj.JUDGE],
                         "human": ["q1", "q2", "q1", "q1"], "level": ["global", "global", "global", "global"],
                         "coefficient": ["kendall_b"] * 4, "value": [0.2, 0.5, 0.9, 0.1]})
    out = lj.mean_over_qualities(corr, ["q1", "q2"])
    # m: (0.2 + 0.5) / 2 = 0.35; j and k lack q2, so no mean
    assert list(out["measure"]) == ["m"] and out["value"].item() == pytest.approx(0.35)
    assert out["human"].item() == lj.MEAN and out["n_qualities"].item() == 2


def test_alt_test_and_scales_on_the_fixture(fixture_run):
    j, _, _, cols, _, _ = fixture_run
    alt = lj.alt_test_summeval(j, JUDGES, HUMANS)
    ref = alt_test(j.frame, HUMANS, JUDGES, pooled=True)
    pd.testing.assert_frame_equal(alt.results, ref.results)
    assert list(alt.results["human"].unique()) == HUMANS + ["pooled"]
    scales = lj.score_scales(j, cols, HUMANS)
    row = scales[(scales.rater == "a2") & (scales.human == "fluency")].iloc[0]
    v = j.frame["fluency/a2"].dropna()
    # mean, sd (n - 1) and share of 5s of a2's fluency scores, by pandas
    assert row["mean"] == pytest.approx(v.mean()) and row["sd"] == pytest.approx(v.std(ddof=1))
    assert row["share_5"] == pytest.approx((v == 5).mean()) and row["kind"] == "expert"
    assert set(scales.loc[scales.kind == lj.JUDGE, "rater"]) == {"judge_good", "judge_bad"}


def test_spa_rows_and_the_expert_ceiling(fixture_run):
    j, scores, offline, cols, _, _ = fixture_run
    out = lj.spa(j, scores, offline, cols, ["fluency"], n_permutations=200, n_resamples=0)
    assert list(out["measure"]) == ["length", "judge_good", "judge_bad", "a1", "a2", "a3", lj.CEILING]
    f = j.frame
    frame = pd.DataFrame({"doc_id": f.doc_id, "system": f.system, "fluency": f.fluency,
                          "judge_good_fluency": f.judge_good_fluency})
    ref = soft_pairwise_accuracy(frame, "judge_good_fluency", "fluency", n_permutations=200)
    assert out.loc[out.measure == "judge_good", "spa"].item() == ref["spa"].item()
    # a2 against the mean of a1 and a3 (pandas' mean skips a missing score; a2 unscored: no target)
    target = f[["fluency/a1", "fluency/a3"]].mean(axis=1).where(f["fluency/a2"].notna())
    one = pd.DataFrame({"doc_id": f.doc_id, "system": f.system, "a": f["fluency/a2"], "t": target})
    ref_a2 = soft_pairwise_accuracy(one, "a", "t", n_permutations=200)["spa"].item()
    assert out.loc[out.measure == "a2", "spa"].item() == pytest.approx(ref_a2, abs=1e-12)
    people = out[out.kind == lj.ANNOTATOR]["spa"]
    assert out.loc[out.measure == lj.CEILING, "spa"].item() == pytest.approx(people.mean(), abs=1e-15)


def test_expert_agreement_by_hand(fixture_run):
    j, _, _, cols, _, _ = fixture_run
    ag = lj.expert_agreement(j, cols, ["overall"], level="global", coefficient="kendall_b")
    assert set(ag["expert"]) == {"a1", "a2", "a3", "a4"} and len(ag) == (2 + 4) * 4
    f = j.frame
    ok = f["judge_good_overall"].notna() & f["overall/a3"].notna()
    tau = sps.kendalltau(f.loc[ok, "judge_good_overall"], f.loc[ok, "overall/a3"], variant="b").statistic
    got = ag[(ag.rater == "judge_good") & (ag.expert == "a3")]["value"].item()
    assert got == pytest.approx(tau, abs=1e-12)
    diagonal = ag[ag.rater == ag.expert]
    assert len(diagonal) == 4 and diagonal["value"].isna().all()  # an expert with itself is left blank
    ok = f["overall/a1"].notna() & f["overall/a2"].notna()
    tau12 = sps.kendalltau(f.loc[ok, "overall/a1"], f.loc[ok, "overall/a2"], variant="b").statistic
    assert ag[(ag.rater == "a1") & (ag.expert == "a2")]["value"].item() == pytest.approx(tau12, abs=1e-12)


def test_ppi_curve_names_the_judges(fixture_run):
    j, _, _, cols, _, _ = fixture_run
    curve = lj.ppi_curve(j, cols, ["overall"], n_labels=(4, 8), n_repeats=5, seed=1)
    assert set(curve["judge"]) == {"judge_good", "judge_bad"} and set(curve["n_labels"]) == {4, 8}
    assert set(curve["human"]) == {"overall"} and curve["system"].nunique() == 4


def test_identical_annotators_are_counted_once_as_meta_eval_does(fixture_run):
    j = fixture_run[0]
    frame = j.frame.assign(**{"overall/a5": j.frame["overall/a2"]})  # a5 is a copy of a2
    notes: list[str] = []
    ceil = lj.human_ceiling(frame, ["overall"], levels=("global",), coefficients=("kendall_b",), n_resamples=0,
                            seed=0, notes=notes)
    assert list(ceil["measure"]) == ["a1", "a2", "a3", "a4", lj.CEILING]
    assert len(notes) == 1 and "overall/a2 and overall/a5 of 'overall' are identical" in notes[0]
    ref = annotator_correlations(j.frame, ["overall"], level="global", methods="kendall_b", n_resamples=0)
    np.testing.assert_allclose(ceil["value"], ref["value"], rtol=0, atol=0)  # as if the copy were not there
    # equal only where both scored (a copy with a summary missing) is two columns, as in meta-eval
    partial = frame.assign(**{"overall/a5": frame["overall/a5"].where(frame.index > 0)})
    notes = []
    ceil = lj.human_ceiling(partial, ["overall"], levels=("global",), coefficients=("kendall_b",), n_resamples=0,
                            seed=0, notes=notes)
    assert notes == [] and ceil["n_annotators"].iloc[-1] == 5


# --------------------------------------------------------------------------------------------
# tables and results, by hand
# --------------------------------------------------------------------------------------------
def _frames():
    corr = pd.DataFrame({"measure": ["j", "m", "j", "m"], "kind": [lj.JUDGE, lj.OFFLINE] * 2,
                         "human": ["q1", "q1", "q2", "q2"], "level": ["global"] * 4, "coefficient": ["kendall_b"] * 4,
                         "value": [0.5, 0.3, 0.2, 0.4], "ci_low": np.nan, "ci_high": np.nan, "n": 10,
                         "rank": [1, 2, 2, 1], "cluster": [1, 2, 1, 1]})
    ceiling = pd.DataFrame({"measure": ["a", lj.CEILING, "a", lj.CEILING], "kind": [lj.ANNOTATOR, lj.CEILING] * 2,
                            "human": ["q1", "q1", "q2", "q2"], "level": ["global"] * 4,
                            "coefficient": ["kendall_b"] * 4, "value": [0.6, 0.45, 0.3, 0.35]})
    return corr, ceiling


def test_correlation_table_by_hand():
    corr, ceiling = _frames()
    values, bold, marks = lj.correlation_table(corr, ceiling, "kendall_b")
    assert list(values.index) == ["j", "m", lj.CEILING]
    assert values.loc["j", ("q1", "global")] == 0.5 and values.loc[lj.CEILING, ("q2", "global")] == 0.35
    # best of each column, the ceiling excluded: j on q1 (0.5), m on q2 (0.4)
    assert bold.loc["j", ("q1", "global")] and not bold.loc["m", ("q1", "global")]
    assert bold.loc["m", ("q2", "global")] and not bold.loc[lj.CEILING, ("q2", "global")]
    assert marks.loc["m", ("q1", "global")] == "2" and marks.loc[lj.CEILING, ("q1", "global")] == ""


def test_key_results_by_hand():
    corr, ceiling = _frames()
    res = pd.DataFrame({"judge": ["j", "j"], "human": ["q1", "pooled"], "winning_rate": [1.0, 0.0],
                        "advantage_probability": [0.8, 0.55], "passed": [True, False]})
    alt = type("Alt", (), {"results": res})()
    spa = pd.DataFrame({"measure": ["j"], "human": ["q1"], "spa": [0.7]})
    repro = pd.DataFrame({"same_to_2dp": [True], "same_verdict": [True]})
    out = lj.key_results(corr, ceiling, alt, repro, spa)
    assert out["alt_test_pooled"] == {"j": {"rho": 0.55, "winning_rate": 0.0, "passed": False}}
    assert out["alt_test_passed"] == {"q1": {"j": True}, "pooled": {"j": False}}
    assert out["best_measure"]["q1/global/kendall_b"] == {"measure": "j", "kind": lj.JUDGE, "value": 0.5}
    assert out["cluster1"]["q1/global/kendall_b"] == ["j"] and out["cluster1"]["q2/global/kendall_b"] == ["j", "m"]
    # ceilings 0.45 and 0.35: j (0.5) above on q1, m (0.4) above on q2
    assert out["ceiling"] == {"q1/global/kendall_b": 0.45, "q2/global/kendall_b": 0.35}
    assert out["above_ceiling"] == {"q1/global/kendall_b": ["j"], "q2/global/kendall_b": ["m"]}
    assert out["reproduces_authors"] is True and out["spa"] == {"q1": {"j": 0.7}}
    repro.loc[0, "same_to_2dp"] = False
    assert lj.key_results(corr, ceiling, alt, repro, spa)["reproduces_authors"] is False
    # the PPI curve: effective labels per (human, judge, n), the mean over systems: (12 + 14) / 2 = 13
    curve = pd.DataFrame({"human": "q1", "judge": "j", "system": ["s1", "s2", "s1", "s2"], "n_labels": [10, 10, 20, 20],
                          "effective_n": [12.0, 14.0, 21.0, 25.0]})
    out = lj.key_results(corr, ceiling, alt, repro, spa, curve=curve)
    assert out["ppi_effective_labels"] == {"q1": {"j": {10: 13.0, 20: 23.0}}}


def test_reproduction_compares_with_the_printed_values():
    res = pd.DataFrame({"judge": ["gpt-4o", "llama-31", "gpt-4o"], "human": ["pooled", "pooled", "coherence"],
                        "winning_rate": [0.0, 0.0, 1.0], "advantage_probability": [0.4757, 0.5749, 0.75],
                        "passed": [False, False, True]})
    out = lj.reproduction(res).set_index("judge")
    assert list(out.index) == ["gpt-4o", "llama-31"]  # pooled rows only
    # 0.4757 rounds to the printed 0.48; 0.5749 rounds to 0.57, not the printed 0.58
    assert out.loc["gpt-4o", "same_to_2dp"] and not out.loc["llama-31", "same_to_2dp"]
    assert out.loc["llama-31", "rho_2dp"] == 0.57 and out["same_verdict"].all()


def test_shelf_summary_by_hand():
    frame = pd.DataFrame({"dataset": "d", "measure": ["x", "y", "a1", "a2", lj.CEILING],
                          "kind": [lj.OFFLINE, lj.OFFLINE, lj.ANNOTATOR, lj.ANNOTATOR, lj.CEILING], "human": "h",
                          "level": "global", "coefficient": "kendall_b", "value": [0.3, 0.6, 0.4, 0.6, 0.5],
                          "n": [40, 40, 38, 40, 38]})
    s = lj.shelf_summary(frame).iloc[0]
    assert s["ceiling"] == 0.5 and s["n"] == 38 and s["best_measure"] == "y" and s["best_value"] == 0.6
    assert s["n_measures"] == 2 and s["n_above_ceiling"] == 1


def test_write_frames(tmp_path):
    names = lj.write_frames({"a": pd.DataFrame({"x": [1, 2]})}, tmp_path / "out")
    assert names == ["a.csv"] and pd.read_csv(tmp_path / "out" / "a.csv")["x"].tolist() == [1, 2]
    assert not [p for p in (tmp_path / "out").iterdir() if p.name != "a.csv"]  # no temporary file left


# --------------------------------------------------------------------------------------------
# the built-in data
# --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def summeval():
    if _summeval_files() is None:
        pytest.skip("summeval_annotators/*.json not found (see the data MANIFEST)")
    return load_judgments("summeval")


def test_summeval_pooled_rho_equals_the_alt_test_pins(summeval):
    from sumeval.datasets.loaders.summeval import JUDGES as LLMS

    alt = lj.alt_test_summeval(summeval, LLMS, lj.QUALITIES)
    assert len(alt.results) == 6 * 5
    for r in alt.results.itertuples():  # every quality and pooled, against the authors' code (neg_rmse)
        winning, rho = SUMMEVAL_PINS[f"{r.human}|neg_rmse|{r.judge}"]
        assert abs(r.winning_rate - winning) <= 1e-9 and abs(r.advantage_probability - rho) <= 1e-9, r
    repro = lj.reproduction(alt.results)
    assert sorted(repro["judge"]) == sorted(LLMS) and repro["same_to_2dp"].all() and repro["same_verdict"].all()
    # the study's record of the authors' printed values is the one tests/judges/test_alt_test.py checks against
    assert {k: v[1] for k, v in lj.AUTHORS_SUMMEVAL.items()} == NOTEBOOK_POOLED_RHO
    results = lj.key_results(*_frames(), alt, repro, pd.DataFrame({"measure": [], "human": [], "spa": []}))
    assert results["reproduces_authors"] is True
    for judge, got in results["alt_test_pooled"].items():
        assert abs(got["rho"] - SUMMEVAL_PINS[f"pooled|neg_rmse|{judge}"][1]) <= 1e-9
        assert got["winning_rate"] == 0.0 and got["passed"] is False


def test_shelf_set_without_measures_has_only_the_ceiling():
    try:
        frame, notes = lj.shelf_set("qags-x", levels=LEVELS, coefficients=("kendall_b",), test="williams",
                                    n_resamples=20, seed=0, alpha=0.05)
    except Exception as e:  # the data set's files are not there
        if "qags" in str(e) and "not found" in str(e).lower():
            pytest.skip(str(e))
        raise
    assert set(frame["kind"]) == {lj.ANNOTATOR, lj.CEILING} and set(frame["level"]) == {"global"}
    assert any("no precomputed measure columns" in n for n in notes)
    assert any("no input level" in n for n in notes) and any("no LLM judge" in n for n in notes)
    assert frame["rank"].isna().all() and math.isnan(lj.shelf_summary(frame)["best_value"].item())


def test_dialsummevals_copied_annotator_is_counted_once():
    try:
        j = load_judgments("dialsummeval")
    except Exception as e:
        pytest.skip(str(e))
    notes: list[str] = []
    ceil = lj.human_ceiling(j.frame, ["coherence"], levels=("global",), coefficients=("kendall_b",),
                            n_resamples=0, seed=0, notes=notes)
    # the release's annotators 2 and 3 gave the same coherence score to every one of the 1,400 summaries
    assert notes and "coherence/annotator_2 and coherence/annotator_3 of 'coherence' are identical on all 1400" \
        in notes[0]
    assert list(ceil["measure"]) == ["annotator_1", "annotator_2", lj.CEILING]
    both = annotator_correlations(j.frame, "coherence", level="global", n_resamples=0).set_index("metric")
    # with 2 annotators the ceiling is their one correlation; the copy had lifted it (0.36 -> 0.69)
    assert ceil["value"].iloc[-1] == pytest.approx(ceil["value"].iloc[0], abs=1e-12)
    assert both.loc[lj.CEILING, "value"] > ceil["value"].iloc[-1] + 0.2


# --------------------------------------------------------------------------------------------
# the figures (sumeval.plots.judges): what is drawn is what was given
# --------------------------------------------------------------------------------------------
def test_scores_with_ceiling_figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sumeval.plots.judges import scores_with_ceiling

    corr, ceiling = _frames()
    fig, axes = scores_with_ceiling(pd.concat([corr, ceiling]), human_order=["q1", "q2"], title="t")
    assert len(axes) == 2
    # judges first, then the offline measures, the annotators and the ceiling last (top to bottom)
    ticks = dict(zip([t.get_text() for t in axes[0].get_yticklabels()], axes[0].get_yticks()))
    ceiling = "Human ceiling (mean of annotators)"  # display names (sumeval.display_names)
    assert set(ticks) == {"j", "m", "a", ceiling}
    assert ticks["j"] > ticks["m"] > ticks["a"] > ticks[ceiling]
    # the ceiling line of q2 at 0.35; m's marker of q1 hollow (cluster 2), j's filled (cluster 1)
    assert any(np.allclose(ln.get_xdata(), [0.35, 0.35]) for ln in axes[1].get_lines())
    marker = {tuple(ln.get_xydata()[0]): ln for ln in axes[0].get_lines() if len(ln.get_xdata()) == 1}
    assert marker[(0.3, ticks["m"])].get_markerfacecolor() == "white"
    assert marker[(0.5, ticks["j"])].get_markerfacecolor() != "white"
    plt.close(fig)


def test_agreement_heatmap_figure(fixture_run):
    import matplotlib.pyplot as plt

    from sumeval.plots.judges import agreement_heatmap

    j, _, _, cols, _, _ = fixture_run
    ag = lj.expert_agreement(j, cols, HUMANS)
    fig, axes = agreement_heatmap(ag, human_order=HUMANS)
    m = np.asarray(axes[1].images[0].get_array(), dtype=float)  # fluency
    sub = ag[ag.human == "fluency"].set_index(["rater", "expert"])["value"]
    # rows: 2 judges + the experts of every panel (a4 rated overall only), columns: those experts
    assert m.shape == (6, 4) and np.isnan(m[5]).all() and np.isnan(m[:, 3]).all()
    assert m[0, 0] == pytest.approx(sub[("judge_good", "a1")]) and np.isnan(m[2, 0])  # a1 with itself blank
    assert m[3, 0] == pytest.approx(sub[("a2", "a1")])
    plt.close(fig)


def test_shelf_ceilings_figure():
    import matplotlib.pyplot as plt

    from sumeval.plots.judges import shelf_ceilings

    frame = pd.DataFrame({"dataset": "d", "measure": ["d.x", "d.y", "a1", "a2", lj.CEILING],
                          "kind": [lj.OFFLINE, lj.OFFLINE, lj.ANNOTATOR, lj.ANNOTATOR, lj.CEILING], "human": "h",
                          "level": "global", "value": [0.3, 0.6, 0.4, 0.6, 0.5]})
    fig, axes = shelf_ceilings(frame, level_order=["input", "global"])
    stars = [ln for ln in axes[1].get_lines() if ln.get_marker() == "*"]
    assert len(stars) == 1 and stars[0].get_xdata()[0] == 0.6  # the best measure, named without its prefix
    assert [t.get_text() for t in axes[1].texts] == ["y"]
    assert [t.get_text() for t in axes[0].texts] == ["n/a"]  # no input level for this row
    plt.close(fig)
