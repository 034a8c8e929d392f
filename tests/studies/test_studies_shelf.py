"""The papers' studies on the shelf's built-in sets (issue 22, part 3).

``metric_correlations``, ``estime_layers`` and ``layer_probing`` take every built-in set with
texts; a set without texts (FRANK, XSumFaith) is refused naming what is missing and what applies
to it; a part a set cannot answer by its nature (Rank19's global level, QAGS' single system, no
references) is skipped with the reason, and a run that skips every part is ``skipped``.
``annotator_impact`` asks every set with ``<human>/<annotator>`` columns about them: agreement,
each measure against each annotator, and the measures' ranking with the annotators kept.

The numbers are checked against hand computations (in comments) and independent code (scipy,
the ``krippendorff`` package, numpy).
"""
from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sumeval.datasets import shelf
from sumeval.errors import DataNotFoundError, InputError
from sumeval.running import runner
from sumeval.studies import annotator_impact as ai
from sumeval.studies import metric_correlations as mc
from sumeval.studies.common import study_data
from sumeval.studies.common.study_data import PartSkipped

from helpers import REPO_ROOT, model_installed, one_row  # noqa: E402  (tests/ is on the path)

EXAMPLES = REPO_ROOT / "examples"
needs_minilm = pytest.mark.skipif(not model_installed("all-MiniLM-L6-v2"), reason="MiniLM not installed")
_LOADED: dict[str, object] = {}


def _shelf(name: str):
    """Built-in set ``name``, loaded once per session (the test skips where its files are not here)."""
    if name not in _LOADED:
        try:
            _LOADED[name] = shelf.load_builtin(name)
        except DataNotFoundError as exc:
            _LOADED[name] = exc
    got = _LOADED[name]
    if isinstance(got, Exception):
        pytest.skip(f"{name} data not found: {got}")
    return got


def _run(study: str, **overrides):
    return runner.run_study(study, "smoke", overrides, raise_on_error=False)


# --------------------------------------------------------------------------------------------
# refused up front, naming what is missing and what applies
# --------------------------------------------------------------------------------------------
def test_sets_without_texts_are_refused_naming_what_applies():
    from sumeval.studies.common.embedding_extraction import load_study_pairs

    _shelf("frank")
    _shelf("xsumfaith")
    with pytest.raises(InputError, match=r"dataset='frank': this study reads the 'summary' .*FRANK has no texts.*"
                                         r"What does apply to frank: `sumeval meta-eval frank --human factuality "
                                         r"--measures frank\.Rouge_1"):
        load_study_pairs("frank")
    with pytest.raises(InputError, match=r"reads the 'text' .*XSumFaith has no source articles.*What does apply to "
                                         r"xsumfaith: .*the study metric_correlations; the study annotator_impact"):
        load_study_pairs("xsumfaith")
    # metric_correlations reads summaries: FRANK has none (a user's scores-only file is still taken)
    for part in (mc.part_a, mc.part_b):
        with pytest.raises(InputError,
                           match=r"frank does not have: FRANK has no texts.*sumeval meta-eval frank") as err:
            part("frank", n_docs=5)
        assert not isinstance(err.value, PartSkipped)


def test_a_pairwise_set_is_refused_by_the_global_level_studies():
    from sumeval.studies.common.embedding_extraction import load_study_pairs

    _shelf("rank19")
    with pytest.raises(InputError, match=r"this study correlates at the global level, and the global level does not "
                                         r"apply to rank19: Rank19 is a pairwise set.*What does apply to rank19: "
                                         r"`sumeval meta-eval rank19 --human fact --measures estime-soft --level input"
                                         r" --out DIR`; the study layer_probing"):
        load_study_pairs("rank19", n_docs=3)
    # layer_probing reads no human score: it takes the pairs
    assert len(load_study_pairs("rank19", n_docs=3, levels=()).pairs) == 6


def test_parts_a_set_cannot_answer_are_skipped_with_the_reason(tmp_path):
    _shelf("rank19")
    _shelf("qags-c")
    with pytest.raises(PartSkipped, match=r"\(a\) Table 1 and the levels: the global level does not apply to rank19"):
        mc.part_a("rank19", n_docs=5)
    with pytest.raises(PartSkipped, match=r"qags-c has no references .*no measure columns: nothing to correlate; "
                                          r"name measures that read no references with -p measures="):
        mc.part_a("qags-c", n_docs=5)
    with pytest.raises(PartSkipped, match=r"\(b\) Table 2: qags-c has no references"):
        mc.part_b("qags-c", n_docs=5)
    with pytest.raises(PartSkipped, match=r"\(b\) Table 2: rank19 has no references"):
        mc.part_b("rank19", n_docs=5)
    # a user's file with nothing to correlate stays an error with its fix, not a skipped part
    path = tmp_path / "j.csv"
    pd.DataFrame({"doc_id": ["d1"] * 3 + ["d2"] * 3, "system": list("abc") * 2, "summary": list("uvwxyz"),
                  "q": [1.0, 2, 3, 1, 3, 2]}).to_csv(path, index=False)
    with pytest.raises(InputError, match="nothing to correlate") as err:
        mc.part_a(str(path), humans="q")
    assert not isinstance(err.value, PartSkipped)


def test_attempt_skips_a_part_and_says_why():
    class Ctx:
        def __init__(self):
            self.skipped, self.notes = {}, []

        def skip(self, names, reason):
            self.skipped.update({n: reason for n in names})

        def note(self, text):
            self.notes.append(text)

    def cannot():
        raise PartSkipped("(b) Table 2: no system level")

    def fails():
        raise InputError("a real error")

    ctx = Ctx()
    assert study_data.attempt(ctx, "table2_*", lambda x: x + 1, 1) == 2 and ctx.skipped == {}
    assert study_data.attempt(ctx, ["table2_*"], cannot) is None
    assert ctx.skipped == {"table2_*": "(b) Table 2: no system level"}
    assert ctx.notes == ["skipped: (b) Table 2: no system level"]
    with pytest.raises(InputError, match="a real error"):
        study_data.attempt(ctx, "x", fails)


def test_what_applies_follows_what_a_set_holds():
    # DialSummEval: texts, one reference, 32 measure columns, 3 annotators per quality
    text = study_data.what_applies(_shelf("dialsummeval"))
    assert text.startswith("`sumeval meta-eval dialsummeval --human coherence --measures dialsummeval.rouge-1 ")
    assert "(its 32 precomputed measure columns)" in text and "the study metric_correlations" in text
    assert "estime_layers and coherence_order (global level)" in text
    assert "annotator_impact (its annotator columns: coherence x3, consistency x3, fluency x3, relevance x3)" in text
    # QAGS-C: texts, no references, no measures, global level only
    text = study_data.what_applies(_shelf("qags-c"))
    assert "--measures estime-soft --level global --out DIR" in text
    assert "metric_correlations with -p measures=estime-soft" in text
    # the systems that are their own reference
    assert study_data.reference_systems(_shelf("dialsummeval")) == ["reference"]
    assert study_data.reference_systems(_shelf("xsumfaith")) == ["reference"]
    assert study_data.reference_systems(_shelf("rose")) == []  # RoSE's `gold` is a system's output


def test_levels_are_left_out_per_human_column():
    """XSumFaith's factuality leaves one document with a single judged system: the input level is
    left out for that column only, the other columns keep it."""
    from sumeval import stats
    from sumeval.studies.common.baseline_tables import Part

    j = _shelf("xsumfaith")
    scored = j.frame.assign(R1=j.frame["xsumfaith.R1"])
    part = Part(j, list(j.humans), scored, pd.DataFrame(), ["R1"])
    levels, left_out = mc.level_correlations(part)
    assert len(left_out) == 1 and left_out[0].startswith("input level left out for factuality: input level needs")
    have = levels.groupby("level")["human"].agg(set).to_dict()
    assert have == {"input": {"no_hallucination", "faithful", "factual"}, "system": set(j.humans),
                    "global": set(j.humans)}
    direct = stats.correlate(scored, ["R1"], ["faithful"], level="input", methods=("kendall_b",), n_resamples=0)
    assert one_row(levels, human="faithful", level="input", method="kendall_b")["value"] == pytest.approx(
        direct["value"].iloc[0], abs=1e-15)
    # rows in the nesting order metric, human, level, method
    assert list(levels["human"].drop_duplicates()) == list(j.humans)


# --------------------------------------------------------------------------------------------
# annotators: by hand
# --------------------------------------------------------------------------------------------
def _three_annotators(tmp_path):
    """3 articles with one summary each (QAGS' shape: global level only), annotators a, b, c of q
    and measures m1..m3 (see the hand computation in the test)."""
    frame = pd.DataFrame({"doc_id": ["d1", "d2", "d3"], "system": ["s"] * 3, "summary": ["x", "y", "z"],
                          "q/a": [0, 1, 2], "q/b": [1, 0, 2], "q/c": [0, 2, 1],
                          "m1": [0, 1, 2], "m2": [1, 0, 2], "m3": [2, 1, 0]})
    frame["q"] = frame[["q/a", "q/b", "q/c"]].mean(axis=1)
    path = tmp_path / "three.csv"
    frame.to_csv(path, index=False)
    judgments, _ = study_data.load(str(path), humans="q")
    return judgments


def test_ranking_changes_by_hand(tmp_path):
    # Centered, every column of 3 values below is one of [-1,0,1], [0,-1,1], [-1,1,0], [1,0,-1] (norm
    # sqrt 2), so Pearson = u.v / 2.  a: ua = [-1,0,1]; b: ub = [0,-1,1]; c: uc = [-1,1,0];
    # m1 = ua, m2 = ub, m3 = -ua.  Mean of a, b, c = [1/3, 1, 5/3] -> centered [-2/3, 0, 2/3] ~ ua:
    #   full ranking:   r(m1) = 1, r(m2) = 1/2, r(m3) = -1           -> m1 > m2 > m3
    #   only b (ub):    r = 1/2, 1, -1/2   -> m2 first; pairs (m1,m2) discordant, 2 concordant: tau = 1/3
    #   only c (uc):    r = 1/2, -1/2, -1/2 -> tie m2 = m3; n_c = 2, n_d = 0, tau-b = 2 / sqrt(3 * 2) = 0.8165
    #   all but a: mean(b, c) = [1/2, 1, 3/2] ~ ua -> as full: tau = 1
    #   all but c: mean(a, b) = [1/2, 1/2, 2], centered [-1/2, -1/2, 1] (norm sqrt 1.5):
    #              r(m1) = (1/2 + 1) / sqrt 3 = r(m2) = 0.866, r(m3) = -0.866 -> tie m1 = m2: tau-b = 0.8165,
    #              best: m1 (the first on a tie), as in the full ranking
    j = _three_annotators(tmp_path)
    level, note = ai.annotator_level(j, "q")
    assert level == "global" and "system level needs at least 3 systems" in note
    sec = ai.annotator_section(j, "q", j.frame, ["m1", "m2", "m3"], worker_counts=[1, 2, 3], n_draws=2, seed=0)
    assert sec["annotators"] == 3 and sec["level"] == "global" and sec["drawn"] == [1, 2] and sec["not_mean"] == 0
    pa = sec["per_annotator"][sec["per_annotator"]["method"] == "pearson"]
    got = {(r.annotator, r.metric): r.value for r in pa.itertuples()}
    for (who, m), want in {("all", "m1"): 1, ("all", "m2"): 0.5, ("all", "m3"): -1, ("b", "m1"): 0.5,
                           ("b", "m2"): 1, ("b", "m3"): -0.5, ("c", "m2"): -0.5}.items():
        assert got[(who, m)] == pytest.approx(want, abs=1e-12), (who, m)
    rk = sec["rankings"][sec["rankings"]["method"] == "pearson"].set_index("kept")
    assert rk.loc["only b", "tau"] == pytest.approx(1 / 3, abs=1e-12)
    assert rk.loc["only b", "top"] == "m2" and not rk.loc["only b", "same_top"]
    assert rk.loc["only c", "tau"] == pytest.approx(2 / np.sqrt(6), abs=1e-12)
    assert rk.loc["all but a", "tau"] == pytest.approx(1, abs=1e-12) and rk.loc["only a", "tau"] == pytest.approx(1)
    assert rk.loc["all but c", "tau"] == pytest.approx(2 / np.sqrt(6), abs=1e-12) and rk.loc["all but c", "same_top"]
    assert set(rk["n_measures"]) == {3} and set(rk["top_all"]) == {"m1"}
    # leave one out: r(m1) with mean(a, b) = 1.5 / sqrt 3
    loo = one_row(sec["leave_one_out"], metric="m1", method="pearson", annotator="c")
    assert loo["without"] == pytest.approx(1.5 / np.sqrt(3), abs=1e-12)
    assert loo["effect"] == pytest.approx(1 - 0.75 ** 0.5)
    # the ranks: 1 = best, ties share the best rank
    ranks = ai.rank_table(sec["per_annotator"], sec["leave_one_out"])
    assert list(ranks.index) == ["m1", "m2", "m3"]
    assert ranks["all"].tolist() == [1, 2, 3] and ranks["only b"].tolist() == [2, 1, 3]
    assert ranks["only c"].tolist() == [1, 2, 2] and ranks["all but c"].tolist() == [1, 1, 3]


def _alpha_interval(ratings: np.ndarray) -> float:
    """Krippendorff's interval alpha of complete (items, raters) ratings, by its definition:
    1 - D_o / D_e with D_o = sum over items of sum_{i != j} (v_i - v_j)^2 / (m - 1), over n values,
    and D_e = sum over every pair of values (i != j) of (v_i - v_j)^2 / (n (n - 1))."""
    m = ratings.shape[1]
    n = ratings.size
    d_o = sum(((r[:, None] - r[None, :]) ** 2).sum() / (m - 1) for r in ratings) / n
    v = ratings.ravel()
    d_e = ((v[:, None] - v[None, :]) ** 2).sum() / (n * (n - 1))
    return 1 - d_o / d_e


def test_qags_agreement_equals_the_definition_and_the_krippendorff_package():
    import krippendorff

    j = _shelf("qags-c")
    agree = ai.annotator_agreement(j, ["factuality"])
    r = j.frame[["factuality/worker_1", "factuality/worker_2", "factuality/worker_3"]].to_numpy(float)
    assert not np.isnan(r).any() and r.shape == (235, 3)
    row = one_row(agree, level="interval")
    assert row["items"] == 235 and row["raters"] == 3 and row["data"].startswith("qags-c: factuality (worker_1")
    assert row["alpha"] == pytest.approx(_alpha_interval(r), abs=1e-12)
    assert row["alpha"] == pytest.approx(krippendorff.alpha(reliability_data=r.T, level_of_measurement="interval"),
                                         abs=1e-12)
    assert one_row(agree, level="ordinal")["alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=r.T, level_of_measurement="ordinal"), abs=1e-12)
    # each worker slot against the mean of the other two, averaged
    others = [sps.pearsonr(r[:, k], np.delete(r, k, axis=1).mean(axis=1))[0] for k in range(3)]
    assert row["mean_pearson_vs_others"] == pytest.approx(np.mean(others), abs=1e-12)


def test_dialsummeval_annotators_against_scipy():
    j = _shelf("dialsummeval").first_documents(20)
    metrics = ["dialsummeval.rouge-1", "dialsummeval.bertscore_f1", "dialsummeval.moverscore"]
    assert ai.annotator_level(j, "coherence") == ("system", "")
    sec = ai.annotator_section(j, "coherence", j.frame, metrics, worker_counts=[1, 2], n_draws=2, seed=0)
    means = j.frame.groupby("system", sort=False)
    ann = means[["coherence/annotator_1", "coherence/annotator_2", "coherence/annotator_3"]].mean()
    mea = means[metrics].mean()
    # each measure against one annotator, at the system level (14 systems' means)
    row = one_row(sec["per_annotator"], annotator="annotator_2", metric="dialsummeval.moverscore", method="pearson")
    assert row["n"] == 14
    assert row["value"] == pytest.approx(sps.pearsonr(mea["dialsummeval.moverscore"], ann["coherence/annotator_2"])[0],
                                         abs=1e-12)
    # against the mean of all but annotator 1 (per summary), then per system
    two = (j.frame[["coherence/annotator_2", "coherence/annotator_3"]].mean(axis=1)
           .groupby(j.frame["system"], sort=False).mean())
    row = one_row(sec["leave_one_out"], annotator="annotator_1", metric="dialsummeval.rouge-1", method="spearman")
    assert row["without"] == pytest.approx(sps.spearmanr(mea["dialsummeval.rouge-1"], two)[0], abs=1e-12)
    # the ranking with all annotators against the one with annotator 3 alone: Kendall tau-b of the correlations
    full = [sps.pearsonr(mea[m], ann.mean(axis=1))[0] for m in metrics]
    alone = [sps.pearsonr(mea[m], ann["coherence/annotator_3"])[0] for m in metrics]
    row = one_row(sec["rankings"], kept="only annotator_3", method="pearson")
    assert row["tau"] == pytest.approx(sps.kendalltau(full, alone)[0], abs=1e-12) and row["n_measures"] == 3
    assert row["top_all"] == metrics[int(np.argmax(full))]
    # the human column is the paper's rule (the score two annotators share), not always the mean
    per_summary = j.frame[["coherence/annotator_1", "coherence/annotator_2", "coherence/annotator_3"]].mean(axis=1)
    assert sec["not_mean"] == int((j.frame["coherence"] - per_summary).abs().gt(1e-9).sum())


# --------------------------------------------------------------------------------------------
# the studies' smoke runs on shelf sets
# --------------------------------------------------------------------------------------------
@pytest.mark.slow
@needs_minilm
def test_metric_correlations_on_dialsummeval():
    j = _shelf("dialsummeval").first_documents(5)
    res = _run("metric_correlations", dataset="dialsummeval", system_dataset="dialsummeval", bertscore_model="")
    assert res.ok, res.error
    r = res.results
    assert r["dataset"]["name"] == "dialsummeval" and r["n_pairs"] == 70 and r["skipped"] == []
    t1 = pd.DataFrame(r["table1"])
    assert {"ROUGE-1", "BLEU", "dialsummeval.moverscore", "dialsummeval.ppl (negated)"} <= set(t1["metric"])
    assert "paper" not in t1 and set(t1["human"]) == {"coherence", "consistency", "fluency", "relevance"}
    row = one_row(t1, metric="dialsummeval.moverscore", human="relevance", method="spearman")
    assert row["ours"] == pytest.approx(sps.spearmanr(j.frame["dialsummeval.moverscore"], j.frame["relevance"])[0],
                                        abs=1e-12)
    assert any("the system 'reference' is the reference itself" in n
               for n in json.loads((res.run_dir / "results.json").read_text())["notes"])
    t2 = pd.DataFrame(r["table2"])  # paper 001's rows at the system level, 14 systems
    assert set(t2["n"]) == {14} and "paper" not in t2
    for name in ("table1_dialsummeval", "levels_dialsummeval", "table2_dialsummeval"):
        assert (res.run_dir / "tables" / f"{name}.csv").is_file()


@pytest.mark.slow
def test_metric_correlations_skipping_every_part_is_skipped():
    _shelf("rank19")
    _shelf("qags-c")
    res = _run("metric_correlations", dataset="rank19", system_dataset="qags-c")
    assert res.status == "skipped" and not res.ok
    assert "the global level does not apply to rank19" in res.error and "qags-c has no references" in res.error
    assert set(res.skipped_outputs) == {"table1_*", "levels_*", "table2_*"}
    results = json.loads((res.run_dir / "results.json").read_text())
    assert results["status"] == "skipped" and len(results["results"]["skipped"]) == 2


@pytest.mark.slow
@needs_minilm
@pytest.mark.parametrize("study, dataset, overrides", [
    ("estime_layers", "qags-c", {"n_systems": 1}),   # global level only, no references: no ROUGE rows
    ("layer_probing", "rank19", {"n_systems": 2}),   # pairwise: no level needed, sentence texts
])
def test_paper000_studies_on_shelf_sets(study, dataset, overrides):
    res = _run(study, dataset=dataset, **overrides)
    assert res.ok, res.error
    r = res.results
    assert r["dataset"]["name"] == dataset
    if study == "estime_layers":
        t1 = pd.DataFrame(r["table1"])
        assert set(t1["metric"]) == {"ESTIME", "ESTIME-soft"} and set(t1["human"]) == {"factuality"}
        assert set(t1["n"]) == {3} and r["best_layer_by"] == "factuality" and r["n_pairs"] == 3
        notes = json.loads((res.run_dir / "results.json").read_text())["notes"]
        assert "qags-c has no references: the ROUGE / BLEU rows are left out" in notes
        # QAGS-C's first 3 summaries have factuality [1, 1, 2/3]: ranks [2.5, 2.5, 1], centered
        # [.5, .5, -1] (norm sqrt 1.5). An untied measure has centered ranks a permutation x of
        # [-1, 0, 1] (norm sqrt 2): r = (.5 (x1 + x2) - x3) / sqrt 3 = -1.5 x3 / sqrt 3, so -0.866, 0 or
        # 0.866; a measure with a tie gives one of the values of scipy over every weak order below.
        fact = _shelf("qags-c").first_documents(3).frame["factuality"].to_numpy()
        assert fact.tolist() == pytest.approx([1, 1, 2 / 3])
        weak = {round(sps.spearmanr(v, fact)[0], 12) for v in np.ndindex(3, 3, 3) if len(set(v)) > 1}
        assert {round(x, 12) for x in (-np.sqrt(3) / 2, 0.0, np.sqrt(3) / 2)} <= weak
        diag = pd.DataFrame(r["diagonal"])
        soft = diag[(diag["measure"] == "estime_soft") & (diag["method"] == "spearman")].dropna(subset=["value"])
        assert len(soft) == 7 and set(soft["value"].round(12)) <= weak  # MiniLM: 6 layers + the input layer
        # the best layer is the diagonal's highest Spearman (ties: the lower layer), and Table 1 reports it there
        best = soft.sort_values(["value", "summary_layer"], ascending=[False, True]).iloc[0]
        assert r["best_layer"]["ESTIME-soft"] == best["summary_layer"]
        assert r["best_factuality_spearman"]["ESTIME-soft factuality spearman"] == pytest.approx(best["value"])
        assert one_row(t1, metric="ESTIME-soft", method="spearman")["ours"] == pytest.approx(best["value"], abs=1e-12)
    else:
        # Rank19's first 3 documents, 2 summaries each (the correct and the incorrect one)
        assert r["n_texts"] == 3 and r["n_summaries"] == 6
        prof = pd.DataFrame(r["profiles"])
        assert set(prof["layer"]) == set(range(7)) and set(prof["source"]) == {"text", "summary"}
        assert set(prof["kind"]) == {"cls", "token"} and (prof["norm"] > 0).all()
        tok = prof[(prof["kind"] == "token") & (prof["source"] == "text")].set_index("layer")
        assert r["token_neighbour_cos_median"] == pytest.approx(tok["cos"].median(), abs=1e-12)
        assert r["token_largest_change_layer"] == tok["change"].idxmax()
        assert all(-1 <= v <= 1 for v in r["mean_pairwise_cosine"].values())


@pytest.mark.slow
@pytest.mark.parametrize("study, dataset, message", [
    ("estime_layers", "frank", r"dataset='frank': this study reads the 'summary' .*FRANK has no texts"),
    ("estime_layers", "rank19", r"the global level does not apply to rank19: Rank19 is a pairwise set"),
    ("layer_probing", "xsumfaith", r"reads the 'text' .*XSumFaith has no source articles"),
])
def test_a_run_on_a_set_it_cannot_take_fails_with_the_reason(study, dataset, message):
    """The refusal reaches the run's error before any model is loaded (failed, not skipped)."""
    _shelf(dataset)
    res = _run(study, dataset=dataset)
    assert res.status == "failed" and not res.ok
    assert "InputError" in res.error and re.search(message, res.error), res.error
    assert "What does apply to" in res.error


@pytest.mark.slow
def test_annotator_impact_on_dialsummeval():
    import krippendorff

    j = _shelf("dialsummeval").first_documents(5)
    res = _run("annotator_impact", dataset="dialsummeval",
               measures="dialsummeval.rouge-1,dialsummeval.moverscore,dialsummeval.bertscore_f1")
    assert res.ok, res.error
    r = res.results
    assert set(r["annotators"]) == {"coherence", "consistency", "fluency", "relevance"}
    assert [s["section"] for s in r["skipped"]] == ["(a) references as annotators"]
    assert "has 1 reference per summary" in r["skipped"][0]["reason"]
    ratings = j.frame[[f"fluency/annotator_{k}" for k in (1, 2, 3)]].to_numpy(float)
    row = one_row(r["agreement"], data="dialsummeval: fluency (annotator_1, annotator_2, annotator_3)",
                  level="interval")
    assert row["items"] == 70 and row["alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=ratings.T, level_of_measurement="interval"), abs=1e-12)
    sec = r["annotators"]["fluency"]
    assert sec["level"] == "system" and sec["drawn"] == [1, 2] and sec["annotators"] == 3
    ranks = pd.DataFrame(sec["rankings"])
    assert set(ranks["kept"]) == {f"{w} annotator_{k}" for w in ("all but", "only") for k in (1, 2, 3)}
    for name in ("agreement", "annotators_fluency", "rankings_fluency", "workers_fluency"):
        assert (res.run_dir / "tables" / f"{name}.csv").is_file()


@pytest.mark.slow
def test_annotator_impact_on_qags_at_the_global_level():
    from sumeval.metrics import score_records
    from sumeval.metrics.user_scorers import load_scorer_class

    j = _shelf("qags-c").first_documents(5)
    res = _run("annotator_impact", dataset="qags-c", measures="fragments:ExtractiveFragments#density",
               module_path=str(EXAMPLES))
    assert res.ok, res.error
    sec = res.results["annotators"]["factuality"]
    assert sec["level"] == "global" and sec["drawn"] == [1, 2]
    density, _ = score_records([{"summary": s, "text": t} for s, t in zip(j.frame["summary"], j.frame["text"])],
                               [load_scorer_class("fragments:ExtractiveFragments", [EXAMPLES])()])
    row = one_row(sec["per_annotator"], annotator="worker_2", method="spearman")
    assert row["n"] == 5 and row["value"] == pytest.approx(
        sps.spearmanr(density["density"], j.frame["factuality/worker_2"])[0], abs=1e-12)
    notes = json.loads((res.run_dir / "results.json").read_text())["notes"]
    assert any(n.startswith("factuality: global level (all summaries pooled)") for n in notes)
