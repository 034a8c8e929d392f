"""`sumeval meta-eval` and its judges: the annotators as measures (each against the mean of the others) and the
human ceiling, soft pairwise accuracy and plain system pairwise accuracy in pairwise_accuracy.csv, the ranking by
SPA with mt-metrics-eval's permutation test (--meta-metric spa), item-level acc23 (--item-acc23, --tune-split).

HOW THE PINNED SPA-TEST NUMBERS WERE OBTAINED (not computed by sumeval): mt-metrics-eval's ``pce.py``,
``stats.py`` and ``tau_optimization.py`` (google-research/mt-metrics-eval commit 68a481a, ``git show`` from the
fetched mirror into /tmp/mtme_i23/mt_metrics_eval/, outside the repository; the PyPI package of that name was NOT
used) were run with the project's Python (numpy, scipy) on the grids of :func:`_spa_grids` below:
``stats.PermutationSigDiff(Correlation(S, H, B), Correlation(S, H, A), partial(stats.PairwiseConfidenceError,
num_sys=S, filter_nones=False), 'none', k, PermutationSigDiffParams(block, 0.02, 0.5))`` (A tested as the better,
as ``data.ComputeSigMatrix`` passes it), with ``numpy.random.binomial`` replaced by a function returning, at its
i-th call, ``(~spa_swaps(S, L, 400, seed=3)[i]).astype(int).ravel()`` (their w1 keeps A's score where 1; our swap
takes B's: the same draws), so both codes used the same resamples; ``pce_wrapper(H, A)[0]`` gave the SPA values.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from sumeval import meta_eval
from sumeval.cli import main
from sumeval.datasets.judgments import load_judgments
from sumeval.errors import InputError
from sumeval.judges.annotators import annotator_correlations, leave_one_out_targets
from sumeval.meta_eval import across
from sumeval.metrics.sources import resolve_measures
from sumeval.stats.item_pairwise import item_pairwise_accuracy
from sumeval.stats.multiple import adjust_resampled
from sumeval.stats.soft_pairwise import soft_pairwise_accuracy, system_pairwise_accuracy
from sumeval.stats.spa_test import spa_permutation_test, spa_swaps

from helpers import three_annotators  # tests/ is on the path

# 2 documents x 3 systems; annotators a, b, c of human column q (c did not rate d2/s1); q = their mean
SMALL = three_annotators(m=[0.2, 0.1, 0.9, 0.7, 0.3, 0.8], m2=[0.5, 0.4, 0.1, 0.2, 0.6, 0.3])


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


def _judgments(tmp_path, frame: pd.DataFrame, humans=("q",), name="j.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return load_judgments(path, human=list(humans)), path


def _run(j, measures, **settings):
    specs = resolve_measures(list(measures), j)
    return meta_eval.meta_evaluate(j, specs, meta_eval.Settings(**settings))


def _big(n_docs: int = 12, n_sys: int = 5, seed: int = 5) -> pd.DataFrame:
    """n_docs x n_sys summaries: human q (mean of 3 annotators, integers 1-5 ordered by system), ``good`` (q plus
    a little noise), ``bad`` (noise), ``mid`` (q plus much noise)."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            ann = np.clip(np.round(1 + s * 0.8 + rng.normal(0, 0.7, 3)), 1, 5)
            q = ann.mean()
            rows.append({"doc_id": f"d{d}", "system": f"S{s}", "q/a": ann[0], "q/b": ann[1], "q/c": ann[2], "q": q,
                         "good": q + rng.normal(0, 0.3), "bad": rng.normal(0, 1), "mid": q + rng.normal(0, 2)})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# annotators as measures: the rows by hand, equal to sumeval.judges.annotators, not competitors
# --------------------------------------------------------------------------------------------
def test_annotator_rows_by_hand_and_equal_to_judges_annotators(tmp_path):
    j, _ = _judgments(tmp_path, SMALL)
    res = _run(j, ["m"], humans=("q",), levels=("system", "global"), coefficients=("pearson", "kendall_b"),
               n_resamples=60, seed=4)
    assert res.annotators == ["annotator:a", "annotator:b", "annotator:c", "human ceiling"]
    corr = res.correlations.set_index(["measure", "level", "coefficient"])
    # global Pearson by hand (each annotator against the mean of the other two, present ones only):
    # a = [1, 2, 3, 4, 2, 5] vs [2.5, 2, 4.5, 3, 1.5, 4.5]: 6.5 / sqrt(65/6 * 8)
    # b = [2, 2, 5, 3, 1, 4] vs [2, 2, 3.5, 4, 2, 5]: (85/12) / sqrt(65/6 * 197/24)
    # c = [3, 2, 4, 2, 5] (d2/s1 unrated) vs [1.5, 2, 4, 1.5, 4.5]: (34/5) / sqrt(34/5 * 83/10)
    r_a, r_b, r_c = 6.5 / math.sqrt(65 / 6 * 8), (85 / 12) / math.sqrt(65 / 6 * 197 / 24), \
        (34 / 5) / math.sqrt(34 / 5 * 83 / 10)
    for label, r in (("annotator:a", r_a), ("annotator:b", r_b), ("annotator:c", r_c)):
        assert corr.loc[(label, "global", "pearson"), "value"] == pytest.approx(r, abs=1e-12)
    assert corr.loc[("human ceiling", "global", "pearson"), "value"] == pytest.approx((r_a + r_b + r_c) / 3, abs=1e-12)
    # system level, Kendall tau-b: a [2.5, 2, 4] vs [2.75, 1.75, 4.5] and b concordant (1); c [3, 2, 4.5] vs
    # [1.5, 1.75, 4.25]: one discordant pair of 3 -> 1/3; the ceiling (1 + 1 + 1/3) / 3 = 7/9
    assert corr.loc[("annotator:c", "system", "kendall_b"), "value"] == pytest.approx(1 / 3)
    assert corr.loc[("human ceiling", "system", "kendall_b"), "value"] == pytest.approx(7 / 9)
    assert corr.loc[("annotator:a", "global", "pearson"), "target"] == "mean of q/b, q/c"
    assert corr.loc[("annotator:c", "global", "pearson"), "n"] == 5
    assert set(res.correlations.loc[res.correlations["measure"] == "human ceiling", "role"]) == {"human_ceiling"}
    # every number, intervals included, is sumeval.judges.annotators' on the same settings and seed
    ref = annotator_correlations(SMALL, "q", level=["system", "global"], methods=["pearson", "kendall_b"],
                                 n_resamples=60, seed=4, resample="both")
    ref["measure"] = np.where(ref["role"] == "annotator", "annotator:" + ref["annotator"], "human ceiling")
    ref = ref.set_index(["measure", "level", "method"])
    for col in ("value", "ci_low", "ci_high", "n"):
        np.testing.assert_allclose(corr.loc[ref.index, col].to_numpy(float), ref[col].to_numpy(float), rtol=0,
                                   atol=1e-12)


def test_annotators_are_not_competitors_unless_asked(tmp_path):
    j, _ = _judgments(tmp_path, _big())
    kw = dict(humans=("q",), levels=("system", "global"), n_resamples=200, seed=1)
    res = _run(j, ["good", "mid", "bad"], **kw)
    rk = res.ranking.set_index(["measure", "level"])
    ann = rk[rk["role"] != "measure"]
    assert len(ann) == 4 * 2 and ann["rank"].isna().all() and ann["cluster"].isna().all()
    assert ann["note"].str.startswith("not a competitor").all()
    # never tested: no test names an annotator row
    assert not (set(res.pairwise["measure_a"]) | set(res.pairwise["measure_b"])) & set(res.annotators)
    assert rk.loc[("bad", "global"), "cluster"] > 1  # the data separates the measures...
    clusters = rk.loc[rk["role"] == "measure", "cluster"]
    # ...and with --annotators-compete the annotators are ranked by value, untested, never moving a measure
    comp = _run(j, ["good", "mid", "bad"], annotators_compete=True, **kw).ranking.set_index(["measure", "level"])
    assert comp.loc[clusters.index, "cluster"].tolist() == clusters.tolist()
    others = comp[comp["role"] != "measure"]
    assert others["rank"].notna().all() and others["cluster"].notna().all()
    assert others["note"].str.startswith("ranked among the measures").all()
    glob = comp.xs("global", level="level").sort_values("rank")
    assert glob["value"].is_monotonic_decreasing and glob["rank"].tolist() == list(range(1, 8))


def test_tables_have_the_annotator_block_never_bold(tmp_path):
    j, path = _judgments(tmp_path, _big())
    res = _run(j, ["good", "bad"], humans=("q",), levels=("global",), n_resamples=50)
    values, bold, marks = meta_eval.ranking_table(res, "kendall_b")
    assert list(values.index) == [("Measures", "good"), ("Measures", "bad"),
                                  *[("Annotators (vs. others)", a) for a in res.annotators]]
    block = values.loc["Annotators (vs. others)"]
    assert (block[("q", "global")] > values.loc[("Measures", "bad"), ("q", "global")]).all()
    assert not bold.loc["Annotators (vs. others)"].to_numpy().any()  # not competitors: never bold
    assert bold.loc[("Measures", "good"), ("q", "global")]
    assert (marks.loc["Annotators (vs. others)"] == "").all().all() and marks.loc[("Measures", "good")].item() == "1"
    out = tmp_path / "o"
    assert main(["meta-eval", str(path), "--human", "q", "--measures", "good", "bad", "--level", "global",
                 "--n-resamples", "40", "-q", "--out", str(out)]) == 0
    md = (out / "table_kendall_b.md").read_text()
    assert "Annotator a (vs. others)" in md and "Human ceiling (mean of annotators)" in md
    assert "annotator rows: each annotator against the mean of the other annotators" in md
    tex = (out / "table_kendall_b.tex").read_text()
    # the outer row level as italic heading rows (layout column-grouped): the block named once, then its rows
    assert "\\textit{Annotators (vs. others)}} \\\\\nAnnotator a (vs. others) & " in tex
    corr = pd.read_csv(out / "correlations.csv")
    assert set(corr["role"]) == {"measure", "annotator", "human_ceiling"}
    assert {"correlations_kendall_b.png", "spa.png", "ranking_kendall_b.png"} <= {p.name for p in out.iterdir()}
    out2 = tmp_path / "o2"  # --no-annotators: none
    assert main(["meta-eval", str(path), "--human", "q", "--measures", "good", "bad", "--level", "global",
                 "--n-resamples", "40", "-q", "--no-annotators", "--no-figures", "--out", str(out2)]) == 0
    assert set(pd.read_csv(out2 / "correlations.csv")["role"]) == {"measure"}
    assert "Annotator" not in (out2 / "table_kendall_b.md").read_text()


# --------------------------------------------------------------------------------------------
# pairwise_accuracy.csv: SPA and plain system pairwise accuracy = sumeval.stats.soft_pairwise
# --------------------------------------------------------------------------------------------
def test_spa_and_plain_accuracy_equal_judges_soft_pairwise(tmp_path):
    frame = _big()
    j, _ = _judgments(tmp_path, frame)
    res = _run(j, ["good", "mid"], humans=("q",), levels=("system",), n_resamples=80, seed=2, spa_permutations=300)
    acc = res.pairwise_accuracy.set_index(["measure", "level"])
    spa = soft_pairwise_accuracy(frame, ["good", "mid"], "q", n_permutations=300, perm_seed=4, n_resamples=80, seed=2)
    plain = system_pairwise_accuracy(frame, ["good", "mid"], "q", n_chance=80, n_resamples=80, seed=2)
    for m in ("good", "mid"):
        row, s_ref, p_ref = acc.loc[(m, "system")], spa.set_index("metric").loc[m], plain.set_index("metric").loc[m]
        assert (row["spa"], row["spa_ci_low"], row["spa_ci_high"]) == (s_ref["spa"], s_ref["ci_low"], s_ref["ci_high"])
        assert (row["plain_accuracy"], row["plain_ci_low"], row["plain_ci_high"], row["chance"], row["chance_p"]) == (
            p_ref["accuracy"], p_ref["ci_low"], p_ref["ci_high"], p_ref["chance"], p_ref["chance_p"])
        assert row["optimistic"] and "optimistic" in row["note"]  # acc23's tie threshold, tuned on these systems
    # an annotator's SPA: the same function, the annotator against the mean of the others
    target = leave_one_out_targets(frame[["q/a", "q/b", "q/c"]].to_numpy())[:, 1]
    ref = soft_pairwise_accuracy(frame.assign(t=target), ["q/b"], "t", n_permutations=300, n_resamples=80, seed=2)
    assert acc.loc[("annotator:b", "system"), "spa"] == ref["spa"].item()
    ann = acc[acc["role"] == "annotator"]
    assert acc.loc[("human ceiling", "system"), "spa"] == pytest.approx(ann["spa"].mean(), abs=1e-15)
    assert acc.loc[("human ceiling", "system"), "spa_ci_low"] <= acc.loc[("human ceiling", "system"), "spa"]
    # --no-spa: no SPA, the rest as before
    res2 = _run(j, ["good", "mid"], humans=("q",), levels=("system",), n_resamples=80, seed=2, spa=False)
    acc2 = res2.pairwise_accuracy.set_index(["measure", "level"])
    assert acc2["spa"].isna().all() and acc2.loc[("good", "system"), "plain_accuracy"] == \
        acc.loc[("good", "system"), "plain_accuracy"]


# --------------------------------------------------------------------------------------------
# --meta-metric spa: mt-metrics-eval's permutation test of SPA, clusters
# --------------------------------------------------------------------------------------------
def _spa_grids():
    """The grids the pinned numbers were computed on (module docstring): 5 systems x 24 items, uniform doubles."""
    rng = np.random.default_rng(2024)
    S, L = 5, 24
    H = rng.random((S, L)) * 4 + np.linspace(0, 1.5, S)[:, None]
    A = H + rng.random((S, L)) * 3
    B = H + rng.random((S, L)) * 3.5
    C = rng.random((S, L)) * 4 + 0.5 * H
    rows = [{"doc_id": f"d{i}", "system": f"s{s}", "h": H[s, i], "a": A[s, i], "b": B[s, i], "c": C[s, i]}
            for i in range(L) for s in range(S)]
    return pd.DataFrame(rows)


# mt-metrics-eval's outputs: (A, B) -> p of "A better", its delta, resamples used, SPA(A), SPA(B)
MTME = {("a", "b"): (0.0075, 0.08409999999999995, 400, 0.9601, 0.876),
        ("b", "c"): (0.145, 0.11370000000000002, 400, 0.876, 0.7623),
        ("c", "b"): (0.855, -0.11370000000000002, 400, 0.7623, 0.876)}
MTME_EARLY_100 = {("b", "c"): (0.145, 400), ("c", "b"): (0.91, 100), ("a", "b"): (0.0, 100)}


@pytest.mark.parametrize("pair", list(MTME))
def test_spa_permutation_test_equals_mt_metrics_eval(pair):
    frame = _spa_grids()
    p, delta, used, spa_a, spa_b = MTME[pair]
    r = spa_permutation_test(frame, *pair, "h", n_resamples=400, seed=3)
    assert r["p_value"] == p and r["n_resamples_used"] == used
    assert r["d_standardised"] == pytest.approx(delta, abs=1e-12)
    assert (r["corr_a"], r["corr_b"]) == pytest.approx((spa_a, spa_b), abs=1e-12)
    assert r["p_floor"] == (round(p * 400) + 1) / 401
    # the swaps it draws are spa_swaps'; given, they give the same; early stopping as mt-metrics-eval's
    assert spa_permutation_test(frame, *pair, "h", swaps=spa_swaps(5, 24, 400, 3))["p_value"] == p
    early = spa_permutation_test(frame, *pair, "h", n_resamples=400, seed=3, early_stop=100)
    assert (early["p_value"], early["n_resamples_used"]) == MTME_EARLY_100[pair]


def test_spa_permutation_test_refuses_bad_swaps():
    with pytest.raises(InputError, match=r"swaps must have shape \(K, 5, 24\).*\(3, 5, 23\)"):
        spa_permutation_test(_spa_grids(), "a", "b", "h", swaps=np.zeros((3, 5, 23), dtype=bool))


def test_meta_metric_spa_ranks_with_clusters(tmp_path):
    frame = _big(n_docs=16)
    j, path = _judgments(tmp_path, frame)
    res = _run(j, ["good", "mid", "bad"], humans=("q",), levels=("system",), n_resamples=200, seed=3,
               meta_metric=("correlation", "spa"))
    tests = res.pairwise[res.pairwise["coefficient"] == "spa"].set_index(["measure_a", "measure_b"])
    acc = res.pairwise_accuracy.set_index("measure")
    # each pair tested one-sided for the measure with the higher SPA, the p-value floored, Holm within q
    for a, b in (("good", "mid"), ("good", "bad"), ("mid", "bad")):
        alt = "greater" if acc.loc[a, "spa"].max() >= acc.loc[b, "spa"].max() else "less"
        ref = spa_permutation_test(frame, a, b, "q", n_resamples=200, seed=3, alternative=alt)
        row = tests.loc[(a, b)]
        assert row["alternative"] == alt and row["p_raw"] == ref["p_value"] and row["p_value"] == ref["p_floor"]
        assert row["corr_a"] == ref["corr_a"] and row["test"] == "spa-permutation"
    # corrected as the other resampling tests: Holm on p_raw (count / K), never below the floored p_value
    np.testing.assert_array_equal(tests["p_adjusted"].to_numpy(float),
                                  adjust_resampled(tests["p_raw"], tests["p_value"], "holm"))
    assert (tests["p_adjusted"] >= tests["p_value"]).all()
    rk = res.ranking[res.ranking["coefficient"] == "spa"].set_index("measure")
    assert rk.loc["good", "rank"] == 1 and rk.loc["good", "cluster"] == 1
    assert tests.loc[("good", "bad"), "p_adjusted"] <= 0.05 and rk.loc["bad", "cluster"] > 1
    assert rk.loc[res.annotators, "cluster"].isna().all()
    # the same through the command: ranking_spa, table_spa with cluster marks
    out = tmp_path / "o"
    assert main(["meta-eval", str(path), "--human", "q", "--measures", "good", "mid", "bad", "--level", "system",
                 "--meta-metric", "spa", "--n-resamples", "100", "-q", "--out", str(out)]) == 0
    names = {p.name for p in out.iterdir()}
    assert {"ranking_spa.png", "pvalues_spa.png", "spa.png", "table_spa.md", "table_kendall_b.md"} <= names
    assert "ranking_kendall_b.png" not in names  # the correlations are not ranked: --meta-metric spa only
    ranking = pd.read_csv(out / "ranking.csv")
    assert set(ranking["coefficient"]) == {"spa"}
    assert "<sup>1</sup>" in (out / "table_spa.md").read_text()
    assert "<sup>" not in (out / "table_kendall_b.md").read_text()


# --------------------------------------------------------------------------------------------
# --item-acc23 and --tune-split
# --------------------------------------------------------------------------------------------
def test_item_acc23_is_flagged_optimistic_unless_tuned_on_a_split(tmp_path):
    frame = _big()
    j, path = _judgments(tmp_path, frame)
    kw = dict(humans=("q",), levels=("system",), n_resamples=20, spa=False)
    res = _run(j, ["good", "bad"], item_acc23=True, **kw)
    item = res.pairwise_accuracy[(res.pairwise_accuracy["level"] == "item")].set_index("measure")
    ref = item_pairwise_accuracy(frame, ["good", "bad"], "q").set_index("metric")
    assert item.loc[["good", "bad"], "accuracy"].tolist() == ref["accuracy"].tolist()
    assert item.loc["good", "optimistic"] and item.loc["good", "tuned_on"] == "test data"
    assert "optimistic" in item.loc["good", "note"]
    # a file of document ids: the threshold tuned there, reported on the others
    ids = tmp_path / "tune.txt"
    ids.write_text("# tune on these\nd0\nd3\n\nd7\n")
    res = _run(j, ["good", "bad"], item_acc23=True, tune_split=str(ids), **kw)
    item = res.pairwise_accuracy[(res.pairwise_accuracy["level"] == "item")].set_index("measure")
    ref = item_pairwise_accuracy(frame, ["good", "bad"], "q", tune_docs=["d0", "d3", "d7"]).set_index("metric")
    assert item.loc[["good", "bad"], "accuracy"].tolist() == ref["accuracy"].tolist()
    assert not item.loc["good", "optimistic"] and item.loc["good", "tuned_on"] == "tune split"
    assert item.loc["good", "n_tune_items"] == 3 and item.loc["good", "n_items"] == 9
    # validation: a random share (--validation) of the documents
    res = _run(j, ["good"], item_acc23=True, tune_split="validation", detection_validation=0.25, **kw)
    row = res.pairwise_accuracy.query("level == 'item' and measure == 'good'").iloc[0]
    assert row["n_tune_items"] == 3 and row["n_items"] == 9 and not row["optimistic"]
    out = tmp_path / "o"
    assert main(["meta-eval", str(path), "--human", "q", "--measures", "good", "--level", "system", "--item-acc23",
                 "--n-resamples", "20", "--no-spa", "-q", "--no-figures", "--out", str(out)]) == 0
    csv = pd.read_csv(out / "pairwise_accuracy.csv")
    assert csv.query("level == 'item'")["optimistic"].all()


def test_bad_tune_split_is_named(tmp_path, capsys):
    j, path = _judgments(tmp_path, _big())
    ids = tmp_path / "tune.txt"
    ids.write_text("d0\nnope\n")
    with pytest.raises(InputError, match=r"tune.txt:2: document 'nope' is not in data set"):
        _run(j, ["good"], humans=("q",), item_acc23=True, tune_split=str(ids))
    base = ["meta-eval", str(path), "--human", "q", "--measures", "good", "-q", "--out", str(tmp_path / "o")]
    assert main(base + ["--tune-split", "validation"]) == 2
    assert "add --item-acc23" in capsys.readouterr().err
    assert main(base + ["--item-acc23", "--tune-split", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------------------------
# bad input: notes, not errors, where nothing is wrong with the measures
# --------------------------------------------------------------------------------------------
def test_one_annotator_and_annotators_of_a_human_not_asked_give_notes(tmp_path):
    one = SMALL.drop(columns=["q/b", "q/c"])
    j, _ = _judgments(tmp_path, one, name="one.csv")
    res = _run(j, ["m"], humans=("q",), levels=("global",), n_resamples=20)
    assert res.annotators == [] and set(res.correlations["role"]) == {"measure"}
    assert any("single annotator column (q/a)" in n for n in res.notes)
    two = SMALL.assign(**{"r": SMALL["q/a"], "r/x": SMALL["q/a"], "r/y": SMALL["q/b"]})
    j, _ = _judgments(tmp_path, two, humans=("q", "r"), name="two.csv")
    res = _run(j, ["m"], humans=("q",), levels=("global",), n_resamples=20)
    assert any("annotator columns of 'r' (r/x, r/y) are not used" in n for n in res.notes)
    assert set(res.correlations["human"]) == {"q"}


def test_contradicting_options_are_refused(tmp_path, capsys):
    _, path = _judgments(tmp_path, SMALL)
    base = ["meta-eval", str(path), "--human", "q", "--measures", "m", "-q", "--out", str(tmp_path / "o")]
    for extra, named in ((["--annotators-compete", "--no-annotators"], "--no-annotators"),
                         (["--meta-metric", "kendall"], "--meta-metric 'kendall'"),
                         (["--meta-metric", "spa", "--no-spa"], "--no-spa"),
                         (["--spa-permutations", "0"], "--spa-permutations")):
        assert main(base + extra) == 2
        assert named in capsys.readouterr().err
    # a measure named like an annotator row (e.g. a class whose `name` is "annotator:a"): refused before scoring
    j, _ = _judgments(tmp_path, SMALL, name="clash.csv")
    spec = dataclasses.replace(resolve_measures(["m"], j)[0], name="annotator:a")
    with pytest.raises(InputError, match="'annotator:a' has the label of an annotator row"):
        meta_eval.meta_evaluate(j, [spec], meta_eval.Settings(humans=("q",)))


def test_across_settings_carry_the_judge_options():
    # each set of an across run gets the annotator, SPA and item-acc23 options; SPA is off unless asked there
    s = across.AcrossSettings(annotators=False, item_acc23=True, tune_split="validation",
                              meta_metric=("correlation", "spa"), spa=True, spa_permutations=50)
    one = s.for_set(("q",), ("system",))
    assert (one.annotators, one.item_acc23, one.tune_split, one.meta_metric, one.spa, one.spa_permutations) == (
        False, True, "validation", ("correlation", "spa"), True, 50)
    assert across.AcrossSettings().for_set(("q",), ("system",)).spa is False
    with pytest.raises(InputError, match="--meta-metric spa: the across ranking is by correlation"):
        across.AcrossSettings(meta_metric=("spa",), spa=True).check()
    with pytest.raises(InputError, match="--no-spa"):  # SPA ranking asked, SPA off: the one-set check names it
        across.AcrossSettings(meta_metric=("correlation", "spa"), spa=False).check()


def test_across_command_passes_the_judge_options_to_each_set(tmp_path):
    # two files with annotator columns: each set's folder has the annotator rows (and SPA only when asked),
    # the across cells are the measures' only
    from sumeval.datasets.judgments import add_dataset

    for name, seed in (("one", 5), ("two", 6)):
        _big(seed=seed).to_csv(tmp_path / f"{name}.csv", index=False)
        add_dataset(name, tmp_path / f"{name}.csv", human=["q"])
    base = ["meta-eval", "--dataset", "one", "two", "--human", "one:q", "two:q", "--measures", "good", "bad",
            "--level", "system", "--n-resamples", "20", "--no-figures", "-q", "--no-own-columns"]
    assert main(base + ["--out", str(tmp_path / "a")]) == 0
    for name in ("one", "two"):
        corr = pd.read_csv(tmp_path / "a" / name / "correlations.csv")
        assert set(corr["role"]) == {"measure", "annotator", "human_ceiling"}
        assert pd.read_csv(tmp_path / "a" / name / "pairwise_accuracy.csv")["spa"].isna().all()  # SPA off across
    assert set(pd.read_csv(tmp_path / "a" / "across.csv")["measure"]) == {"good", "bad"}
    assert main(base + ["--no-annotators", "--meta-metric", "correlation", "spa", "--spa-permutations", "50",
                        "--out", str(tmp_path / "b")]) == 0
    corr = pd.read_csv(tmp_path / "b" / "one" / "correlations.csv")
    assert set(corr["role"]) == {"measure"}
    assert pd.read_csv(tmp_path / "b" / "one" / "pairwise_accuracy.csv")["spa"].notna().all()
    assert set(pd.read_csv(tmp_path / "b" / "one" / "ranking.csv")["coefficient"]) == {"kendall_b", "spa"}
