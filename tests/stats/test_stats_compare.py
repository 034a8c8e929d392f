"""Many measures: p-value corrections, significance clusters, all-pairs comparisons; pairwise
accuracy with tie calibration; binary detection. Hand-computed values in the comments."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval import stats
from sumeval.errors import InputError
from sumeval.stats import (
    acc23,
    adjust_pvalues,
    binary_detection,
    compare_measures,
    pairwise,
    pairwise_accuracy,
    significance_clusters,
    tie_calibration,
)

# ------------------------------------------------------------------------------------------
# Holm and Benjamini-Hochberg
# ------------------------------------------------------------------------------------------
# p = [0.01, 0.04, 0.03, 0.2], m = 4; sorted 0.01, 0.03, 0.04, 0.2
# Holm: (4, 3, 2, 1) x sorted = 0.04, 0.09, 0.08, 0.2 -> running max 0.04, 0.09, 0.09, 0.2
#   -> input order [0.04, 0.09, 0.09, 0.2]
# BH: sorted x m / rank = 0.04, 0.06, 0.0533.., 0.2 -> running min from the largest:
#   0.04, 0.0533.., 0.0533.., 0.2 -> input order [0.04, 0.0533.., 0.0533.., 0.2]
P4 = [0.01, 0.04, 0.03, 0.2]


def test_holm_hand_values():
    np.testing.assert_allclose(adjust_pvalues(P4, "holm"), [0.04, 0.09, 0.09, 0.2], atol=1e-15)
    # a NaN stays NaN and does not count in m; capped at 1: m = 2, sorted 0.6, 0.7 ->
    # min(1, 2 x 0.6) = 1, 1 x 0.7 = 0.7 -> running max 1, 1
    np.testing.assert_allclose(adjust_pvalues([0.7, np.nan, 0.6]), [1.0, np.nan, 1.0])


def test_benjamini_hochberg_hand_values():
    np.testing.assert_allclose(adjust_pvalues(P4, "bh"), [0.04, 0.16 / 3, 0.16 / 3, 0.2],
                               atol=1e-15)


def test_corrections_bad_input():
    with pytest.raises(InputError, match=r"'bonferroni'.*holm, bh"):
        adjust_pvalues(P4, "bonferroni")
    with pytest.raises(InputError, match=r"\[0, 1\]"):
        adjust_pvalues([0.5, 1.5])


# ------------------------------------------------------------------------------------------
# significance clusters (mt-metrics-eval's AssignRanks cases)
# ------------------------------------------------------------------------------------------
def _comparisons(significant: set[tuple[int, int]]) -> pd.DataFrame:
    """Measures m0..m3 with correlations 0.9, 0.8, 0.7, 0.6; the pair (mi, mj) has p = 0.01
    when listed (the better one, mi, wins), else 0.9."""
    values = [0.9, 0.8, 0.7, 0.6]
    rows = [{"measure_a": f"m{i}", "measure_b": f"m{j}", "human": "h", "level": "system",
             "coefficient": "kendall_b", "corr_a": values[i], "corr_b": values[j],
             "diff": values[i] - values[j], "alternative": "two-sided",
             "p_value": 0.01 if (i, j) in significant else 0.9,
             "p_adjusted": 0.01 if (i, j) in significant else 0.9}
            for i in range(4) for j in range(i + 1, 4)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("significant, clusters", [
    (set(), [1, 1, 1, 1]),                                   # nothing significant
    ({(i, j) for i in range(4) for j in range(i + 1, 4)}, [1, 2, 3, 4]),  # everything
    # m0 beats m2 only: m1 joins m0; m2 is beaten by m0, a member of the current cluster ->
    # cluster 2 starts at m2; m3 is beaten by nobody of {m2} -> 2
    ({(0, 2)}, [1, 1, 2, 2]),
    # m0 beats m1 -> m1 starts cluster 2; m2 is not beaten by m1 (m0 does not count any more)
    # -> 2; m2 beats m3 -> 3
    ({(0, 1), (0, 2), (0, 3), (2, 3)}, [1, 2, 2, 3]),
])
def test_significance_clusters_hand_cases(significant, clusters):
    out = significance_clusters(_comparisons(significant))
    assert list(out["measure"]) == ["m0", "m1", "m2", "m3"]
    assert list(out["rank"]) == [1, 2, 3, 4]
    assert list(out["cluster"]) == clusters
    assert list(out["value"]) == [0.9, 0.8, 0.7, 0.6]


def test_significance_clusters_respect_alpha_and_raw_p():
    comp = _comparisons({(0, 1)})  # (m0, m1): raw p 0.01, adjusted 0.2; the others 0.9, 0.95
    comp["p_adjusted"] = np.where(comp["p_value"] == 0.01, 0.2, 0.95)
    assert list(significance_clusters(comp)["cluster"]) == [1, 1, 1, 1]
    assert list(significance_clusters(comp, adjusted=False)["cluster"]) == [1, 2, 2, 2]
    assert list(significance_clusters(comp, alpha=0.25)["cluster"]) == [1, 2, 2, 2]
    with pytest.raises(InputError, match=r"lacks \['p_adjusted'\]"):
        significance_clusters(comp.drop(columns="p_adjusted"))


# ------------------------------------------------------------------------------------------
# all pairs
# ------------------------------------------------------------------------------------------
def _frame(n_docs=15, n_sys=6, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    q = rng.normal(size=n_sys)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            h = q[s] + rng.normal()
            rows.append({"doc_id": d, "system": s, "h": h, "good": h + 0.3 * rng.normal(),
                         "fair": h + 1.0 * rng.normal(), "noise": rng.normal()})
    return pd.DataFrame(rows)


def test_compare_measures_is_the_single_tests_corrected():
    f = _frame()
    kw = dict(level="global", method="spearman")
    perm = compare_measures(f, ["good", "fair", "noise"], "h", n_resamples=200, seed=3, **kw)
    assert list(zip(perm["measure_a"], perm["measure_b"])) == [
        ("good", "fair"), ("good", "noise"), ("fair", "noise")]
    for r in perm.itertuples():
        single = stats.permutation_test(f, r.measure_a, r.measure_b, "h", n_resamples=200,
                                        seed=3, **kw)
        # p_raw is the permutation test's count / B (nlpstats'); p_value adds the floor (b+1)/(B+1)
        assert r.p_raw == single["p_value"] and r.diff == single["diff"]
        assert r.p_value == single["p_floor"] == (single["count"] + 1) / (200 + 1)
    # Holm on the raw p (the peers' decisions), never shown below the row's floored p
    np.testing.assert_allclose(perm["p_adjusted"], np.fmax(adjust_pvalues(perm["p_raw"], "holm"), perm["p_value"]))
    assert set(perm["test"]) == {"permutation"} and set(perm["seed"]) == {3}
    assert set(perm["n_resamples"]) == {200} and set(perm["correction"]) == {"holm"}

    boot = compare_measures(f, ["good", "noise"], "h", test="bootstrap", resample="inputs",
                            n_resamples=100, seed=1, correction="bh", **kw)
    single = stats.paired_test(f, "good", "noise", "h", n_resamples=100, seed=1, **kw)
    assert boot["p_value"].iloc[0] == single["p_value"] == single["p_floor"]
    assert boot["p_raw"].iloc[0] == single["p_raw"]
    assert (boot["ci_low"].iloc[0], boot["ci_high"].iloc[0]) == (single["ci_low"], single["ci_high"])
    assert boot["n_resamples_used"].iloc[0] == single["n_resamples_used"]
    will = compare_measures(f, ["good", "noise"], ["h", "fair"], test="williams",
                            level=["system", "global"], method="pearson")
    assert len(will) == 4 and set(will["human"]) == {"h", "fair"}
    single = stats.williams_test(f, "good", "noise", "fair", level="system", method="pearson")
    row = will[(will["human"] == "fair") & (will["level"] == "system")].iloc[0]
    assert row["p_value"] == single["p_value"] and row["n"] == 6


def test_clusters_from_compare_measures():
    f = _frame(n_docs=30)
    comp = compare_measures(f, ["noise", "good", "fair"], "h", level="global",
                            method="pearson", n_resamples=300, seed=0)
    out = significance_clusters(comp)
    assert list(out["measure"]) == ["good", "fair", "noise"]
    assert out["cluster"].iloc[-1] > out["cluster"].iloc[0]  # noise is significantly worse


def test_compare_measures_bad_input():
    f = _frame()
    kw = dict(level="global", method="pearson")
    with pytest.raises(InputError, match=r"at least 2 distinct measures"):
        compare_measures(f, ["good"], "h", **kw)
    with pytest.raises(InputError, match=r"unknown test 'anova'"):
        compare_measures(f, ["good", "fair"], "h", test="anova", **kw)
    with pytest.raises(InputError, match=r"bootstrap test is two-sided"):
        compare_measures(f, ["good", "fair"], "h", test="bootstrap", alternative="greater", **kw)
    with pytest.raises(InputError, match=r"unknown correction"):
        compare_measures(f, ["good", "fair"], "h", correction="fdr", **kw)


def test_williams_undefined_with_three_systems():
    # n - 3 = 0 degrees of freedom: no p-value
    f = _frame(n_sys=3)
    res = stats.williams_test(f, "good", "fair", "h", level="system", method="pearson")
    assert res["n"] == 3 and math.isnan(res["p_value"])



def test_williams_gives_no_difference_not_an_error_when_two_measures_order_items_alike():
    # |r23| = 1 and |r12| = |r13|: Williams' t is 0/0 (det = 1 - 2r^2 - 1 + 2r^2 = 0 and
    # (1 - r23)^3 = 0), and Python floats raised ZeroDivisionError (found on DialSummEval's system
    # level). Equal correlations give t = 0 (the formula's limit): p = 1 two-sided, 0.5 one-sided.
    from sumeval.stats.williams import williams_p

    assert williams_p(0.6, 0.6, 1.0, 14) == 1.0
    assert williams_p(-0.6, 0.6, -1.0, 14, alternative="greater") == 0.5
    # a real difference still gives a p-value: by hand with r12=.6, r13=.4, r23=.5, n=20:
    # det = 1-.36-.16-.25+2*.6*.5*.4 = .47; av = .5; t = .2*sqrt(19*1.5/(2*19/17*.47+.25*.125)) = 0.6811
    from scipy import stats as ss

    t = 0.2 * math.sqrt(19 * 1.5 / (2 * 19 / 17 * 0.47 + 0.25 * 0.125))
    assert williams_p(0.6, 0.4, 0.5, 20) == pytest.approx(2 * ss.t.sf(t, 17), rel=1e-12)
    f = _frame(n_sys=6)
    f["copy"] = 2 * f["good"] + 1  # the same order as good at every level
    res = stats.williams_test(f, "good", "copy", "h", level="system", method="kendall_b")
    assert res["p_value"] == 1.0

# ------------------------------------------------------------------------------------------
# pairwise accuracy, tie calibration
# ------------------------------------------------------------------------------------------
# 4 systems, human h = [1, 2, 2, 4], metric m = [1, 2, 2.25, 4]; the 6 pairs (Delta h, Delta m):
#   (0,1) (-1, -1) concordant   (0,2) (-1, -1.25) concordant   (0,3) (-3, -3) concordant
#   (1,2) (0, -0.25) human tie   (1,3) (-2, -2) concordant    (2,3) (-2, -1.75) concordant
# epsilon = 0: 5 concordant / 6 = Kocmi's pairwise accuracy 5/6 (the human tie is missed)
# epsilon = 0.25: (1,2) is tied in both -> 6/6; larger epsilons tie concordant pairs (1 at 1,
# ...) -> lower. Calibration: acc23 = 1 at epsilon = 0.25.
H4, M4 = [1, 2, 2, 4], [1, 2, 2.25, 4]


def test_acc23_hand_values():
    assert acc23(H4, M4) == pytest.approx(5 / 6)
    assert acc23(H4, M4, epsilon=0.25) == pytest.approx(1.0)
    # epsilon = 1: (0,1) also tied in the metric only -> (4 + 1) / 6
    assert acc23(H4, M4, epsilon=1.0) == pytest.approx(5 / 6)
    assert acc23(H4, M4, epsilon=10) == pytest.approx(1 / 6)  # everything tied: only (1,2)
    assert tie_calibration(H4, M4) == pytest.approx((1.0, 0.25))
    # a discordant metric without human ties: calibration keeps epsilon = 0 (the smallest
    # threshold reaching the maximum 2/3: pairs (0,1) C, (0,2) C, (1,2) D)
    assert tie_calibration([1, 2, 3], [1, 3, 2]) == pytest.approx((2 / 3, 0.0))
    with pytest.raises(InputError, match=r"epsilon.*-1"):
        acc23(H4, M4, epsilon=-1)


# One acc23 and one tie calibration for the system and the item level
# (sumeval.stats.pairwise.acc23_pairs / acc23_at / calibrate_threshold; the item level's
# item_pairwise_accuracy calls the same functions).
# human [1, 1, 2], metric [0, 0.25, 1]: (0,1) human tie, |Delta m| = 0.25; (0,2), (1,2) concordant
# (|Delta m| 1 and 0.75). epsilon = 0.25 ties (0,1) in both -> 3/3; one float below 0.25 it stays
# ordered -> 2/3; epsilon = 0.75 also ties the concordant (1,2) in the metric only -> 2/3.
H3, M3 = [1.0, 1.0, 2.0], [0.0, 0.25, 1.0]


def test_one_acc23_at_both_levels_by_hand():
    below = float(np.nextafter(0.25, 0.0))
    for pairs in (pairwise._pair_stats(H3, M3),  # system level: one row of means
                  pairwise.acc23_pairs(np.array([H3]), np.array([M3]), "item"),  # item level: one document
                  pairwise.acc23_pairs(np.array([H3]), np.array([M3]), "none")):
        assert pairwise.acc23_at(pairs, 0.25) == 1.0
        assert pairwise.acc23_at(pairs, below) == pytest.approx(2 / 3)
        assert pairwise.acc23_at(pairs, 0.75) == pytest.approx(2 / 3)
        assert pairwise.calibrate_threshold(pairs) == (1.0, 0.25)
    assert tie_calibration(H3, M3) == (1.0, 0.25) and acc23(H3, M3, below) == pytest.approx(2 / 3)


def test_tie_calibration_keeps_the_smallest_threshold_within_rounding_of_the_best():
    # three pairs, weights a = 0.25 (human tie, |Delta m| 0.1), b (human tie, 0.2), c = 0.5 (concordant,
    # 0.3): acc23 at 0 = c, at 0.1 = a + c = 0.75, at 0.2 = a + b + c, at 0.3 = a + b. With b = 5e-13
    # the best (0.75 + 5e-13) is within CALIBRATION_ATOL (1e-12) of 0.75, so the smaller threshold 0.1
    # is kept; with b = 2e-12 it is beyond, and 0.2 wins.
    def pairs(b):
        return {"ad": np.array([0.1, 0.2, 0.3]), "concordant": np.array([False, False, True]),
                "human_tie": np.array([True, True, False]), "weight": np.array([0.25, b, 0.5]),
                "norm": np.float64(1.0), "n_items": np.int64(1)}

    assert pairwise.calibrate_threshold(pairs(5e-13)) == (0.75, 0.1)
    acc, eps = pairwise.calibrate_threshold(pairs(2e-12))
    assert eps == 0.2 and acc == pytest.approx(0.75 + 2e-12, abs=1e-15)


def test_system_means_within_rounding_tie_item_scores_compare_exactly():
    # human [0.5, 0.5 + d, 1], metric [0.2, 0.2, 0.9]: with (0,1) a human tie every pair is right (3/3);
    # ordered by the humans, the metric's tie on it is wrong (2/3). The system level (means) counts
    # |d| <= 1e-12 x max |value| = 1e-12 as a tie: d = 2**-41 (4.5e-13) ties, d = 2**-39 (1.8e-12)
    # does not. The item level compares the data's scores exactly (as mt-metrics-eval): 2/3 for both.
    for d, system in ((2.0 ** -41, 1.0), (2.0 ** -39, 2 / 3)):
        human, metric = [0.5, 0.5 + d, 1.0], [0.2, 0.2, 0.9]
        assert acc23(human, metric) == pytest.approx(system)
        item = pairwise.acc23_pairs(np.array([human]), np.array([metric]), "item")
        assert pairwise.acc23_at(item, 0.0) == pytest.approx(2 / 3)


def test_pairwise_accuracy_from_a_frame():
    # two documents per system; means give H4 and M4 (system s3's metric: (3 + 5) / 2 = 4)
    rows = []
    for s, (h, m) in enumerate(zip(H4, M4)):
        rows += [{"doc_id": 0, "system": f"s{s}", "h": h - 0.5, "m": m - 1},
                 {"doc_id": 1, "system": f"s{s}", "h": h + 0.5, "m": m + 1}]
    f = pd.DataFrame(rows)
    plain = pairwise_accuracy(f, "m", "h").iloc[0]
    assert plain["accuracy"] == pytest.approx(5 / 6) and plain["epsilon"] == 0
    assert (plain["n_systems"], plain["n_pairs"], plain["n_human_ties"]) == (4, 6, 1)
    cal = pairwise_accuracy(f, ["m"], "h", calibrate=True).iloc[0]
    assert cal["accuracy"] == pytest.approx(1.0) and cal["epsilon"] == pytest.approx(0.25)
    assert cal["calibrated"] and cal["level"] == "system"


# ------------------------------------------------------------------------------------------
# binary detection
# ------------------------------------------------------------------------------------------
# validation: scores [0.1, 0.4, 0.35, 0.8], labels [0, 0, 1, 1]; distinct sorted 0.1, 0.35,
# 0.4, 0.8; candidates -0.9 (below; span max(1, 0.7) = 1), 0.225, 0.375, 0.6, 1.8 (above).
# balanced accuracy (TPR + TNR) / 2 of "score >= t": -0.9: (1 + 0)/2 = .5; 0.225: (1 + 1/2)/2
# = .75; 0.375: (1/2 + 1/2)/2 = .5; 0.6: (1/2 + 1)/2 = .75; 1.8: (0 + 1)/2 = .5 -> t = 0.225
# test: scores [0.2, 0.3, 0.5, 0.9, 0.25], labels [0, 1, 1, 1, 0]; >= 0.225: TPR 3/3, TNR 1/2
# (0.25 is a false positive) -> 0.75; AUC: every positive above every negative -> 1.0
VAL_S, VAL_Y = [0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]
TEST_S, TEST_Y = [0.2, 0.3, 0.5, 0.9, 0.25], [0, 1, 1, 1, 0]


def test_binary_detection_hand_values():
    scores = np.array(VAL_S + TEST_S + [np.nan])
    labels = np.array(VAL_Y + TEST_Y + [1])
    validation = np.array([True] * 4 + [False] * 5 + [False])
    res = binary_detection(scores, labels, validation=validation)
    assert res["threshold"] == pytest.approx(0.225)
    assert res["balanced_accuracy_validation"] == pytest.approx(0.75)
    assert res["balanced_accuracy"] == pytest.approx(0.75)
    assert res["roc_auc"] == pytest.approx(1.0)
    # validation AUC: positives 0.35, 0.8 vs negatives 0.1, 0.4: 3 of 4 pairs ordered -> 0.75
    assert res["roc_auc_validation"] == pytest.approx(0.75)
    assert (res["n_validation"], res["n_test"], res["n_excluded"]) == (4, 5, 1)
    assert (res["n_positive_validation"], res["n_positive_test"]) == (2, 3)


def test_binary_split_is_stratified_and_seeded():
    rng = np.random.default_rng(0)
    labels = np.array([1] * 30 + [0] * 10)
    scores = labels + rng.normal(size=40)
    a = binary_detection(scores, labels, validation=0.3, seed=4)
    # round(0.3 x 30) = 9 positives and round(0.3 x 10) = 3 negatives in validation
    assert (a["n_validation"], a["n_positive_validation"]) == (12, 9)
    assert (a["n_test"], a["n_positive_test"]) == (28, 21) and a["seed"] == 4
    assert binary_detection(scores, labels, validation=0.3, seed=4) == a
    assert binary_detection(scores, labels, validation=0.3, seed=5) != a


def test_binary_bad_input():
    with pytest.raises(InputError, match=r"labels must be 0 or 1.*2\.0"):
        binary_detection([0.1, 0.2, 0.3], [0, 1, 2])
    with pytest.raises(InputError, match=r"validation split has 0 positive"):
        binary_detection([0.1, 0.2, 0.3, 0.4], [0, 0, 1, 1],
                         validation=np.array([True, True, False, False]))
    with pytest.raises(InputError, match=r"validation must be a share"):
        binary_detection([0.1, 0.2], [0, 1], validation=1.0)
