"""Soft pairwise accuracy, system pairwise accuracy with a chance baseline, and item-level pairwise
accuracy with tie calibration (sumeval.stats.soft_pairwise, sumeval.stats.item_pairwise).

HOW THE PINNED NUMBERS WERE OBTAINED (not computed by sumeval): mt-metrics-eval's ``pce.py`` and
``tau_optimization.py`` (google-research/mt-metrics-eval commit 68a481a, copied to /tmp, numpy only;
the PyPI package of that name was NOT used) were run in a scratch venv (Python 3.11.7, numpy 2.4.6) on
the arrays written below:

* ``pce.compute_pairwise_p_values(X, num_permutations=1000, seed=4)`` and the same for M, then
  ``pce.compute_one_minus_pce(ph, pm)``; ``compute_pairwise_p_values(X, num_permutations=200, seed=7)``;
  ``compute_one_minus_pce(A, B)`` on the two hand-made p-value matrices A, B.
* ``tau_optimization.tau_optimization(metric, human, TauSufficientStats.acc_23)`` with rows = items
  (grouped by item, the mean of the rows' acc23) on H / MI, on the same flattened to one row (no
  grouping), and on HN / MN with None where a score is missing (its thresholds and taus: the curve).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval import stats
from sumeval.errors import InputError
from sumeval.stats.item_pairwise import item_pairwise_accuracy
from sumeval.stats.pairwise import acc23_at, acc23_pairs, calibrate_threshold
from sumeval.stats.soft_pairwise import (
    pairwise_pvalues,
    permutation_signs,
    soft_pairwise_accuracy,
    spa_from_pvalues,
    system_pairwise_accuracy,
)

X = np.array([[3, 4, 2, 5, 4, 3, 4, 5, 2, 3, 4, 4],
              [3, 3, 2, 4, 4, 3, 3, 5, 2, 3, 3, 4],
              [1, 2, 2, 3, 1, 2, 2, 3, 1, 2, 2, 1],
              [3, 4, 3, 4, 4, 2, 4, 4, 3, 3, 4, 5]], dtype=float)
M = np.array([[0.50, 0.75, 0.25, 1.00, 0.50, 0.50, 0.75, 1.00, 0.25, 0.50, 0.75, 0.75],
              [0.50, 0.50, 0.50, 0.75, 0.75, 0.25, 0.50, 1.00, 0.25, 0.50, 0.50, 0.75],
              [0.25, 0.25, 0.50, 0.50, 0.25, 0.25, 0.25, 0.50, 0.25, 0.25, 0.50, 0.25],
              [0.75, 0.75, 0.50, 0.75, 0.75, 0.50, 0.75, 0.75, 0.50, 0.50, 0.75, 1.00]])
# pce.py's outputs (upper triangle in np.triu_indices(4, 1) order)
PCE_PH = [0.07, 0.001, 0.655, 0.001, 0.971, 1.0]
PCE_PM = [0.228, 0.007, 0.935, 0.005, 0.997, 1.0]
PCE_SPA = 0.921
PCE_PH_200_SEED7 = [0.065, 0.0, 0.66, 0.0, 0.96, 1.0]
PCE_SPA_GIVEN = 0.7866666666666667

H = np.array([[3, 3, 1, 4], [2, 4, 4, 1], [5, 3, 3, 2], [1, 2, 3, 3], [4, 4, 2, 5]], dtype=float)
MI = np.array([[0.8, 0.7, 0.1, 0.9], [0.3, 0.6, 0.62, 0.2], [0.9, 0.5, 0.55, 0.1], [0.2, 0.25, 0.6, 0.58],
               [0.7, 0.75, 0.2, 0.9]])
TAU_ITEM = (0.9333333333333332, 0.050000000000000044)
TAU_NONE = (0.7578947368421053, 0.07999999999999996)
N = np.nan
HN = np.array([[3, N, 1, 4], [2, 4, 4, 1], [5, 3, N, 2], [1, N, N, 3], [N, 4, 2, 5], [2, 2, 2, 2]])
MN = np.array([[0.8, 0.7, 0.1, 0.9], [0.3, 0.6, 0.62, N], [0.9, 0.5, 0.55, 0.1], [0.2, 0.25, 0.6, 0.58],
               [0.7, 0.75, 0.2, 0.9], [0.1, 0.1, 0.3, 0.2]])
TAU_MISSING = (0.8888888888888888, 0.1)
TAU_CURVE = ([0.0, 0.020000000000000018, 0.09999999999999998, 0.1, 0.15000000000000002, 0.19999999999999998, 0.3,
              0.32, 0.37999999999999995, 0.4, 0.55, 0.7, 0.7000000000000001, 0.8],
             [0.8055555555555555, 0.861111111111111, 0.8333333333333331, 0.8888888888888888, 0.8333333333333334,
              0.8888888888888888, 0.8333333333333334, 0.7777777777777777, 0.611111111111111, 0.49999999999999994,
              0.4444444444444444, 0.38888888888888884, 0.3333333333333333, 0.2222222222222222])


def _frame(human: np.ndarray, **measures: np.ndarray) -> pd.DataFrame:
    """(systems, items) grids -> one row per (item, system)."""
    rows = []
    for item in range(human.shape[1]):
        for s in range(human.shape[0]):
            row = {"doc_id": f"d{item}", "system": f"s{s}", "h": human[s, item]}
            row.update({k: v[s, item] for k, v in measures.items()})
            rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# soft pairwise accuracy: equal to pce.py
# --------------------------------------------------------------------------------------------
def test_pairwise_pvalues_equal_pce():
    iu = np.triu_indices(4, 1)
    ph, pm = pairwise_pvalues(X), pairwise_pvalues(M)
    np.testing.assert_array_equal(ph[iu], PCE_PH)
    np.testing.assert_array_equal(pm[iu], PCE_PM)
    assert np.isnan(ph[np.tril_indices(4)]).all()
    np.testing.assert_array_equal(pairwise_pvalues(X, 200, 7)[iu], PCE_PH_200_SEED7)
    assert spa_from_pvalues(ph, pm) == PCE_SPA


def test_spa_of_given_pvalues_equals_pce_and_the_hand_value():
    a = np.full((3, 3), np.nan)
    b = np.full((3, 3), np.nan)
    a[0, 1], a[0, 2], a[1, 2] = 0.01, 0.20, 0.70
    b[0, 1], b[0, 2], b[1, 2] = 0.05, 0.50, 0.40
    # 1 - (|0.01 - 0.05| + |0.20 - 0.50| + |0.70 - 0.40|) / 3 = 1 - 0.64 / 3
    assert spa_from_pvalues(a, b) == pytest.approx(1 - 0.64 / 3, abs=1e-15)
    assert spa_from_pvalues(a, b) == pytest.approx(PCE_SPA_GIVEN, abs=1e-15)
    with pytest.raises(InputError, match="square"):
        spa_from_pvalues(a, b[:2])


def test_pairwise_pvalues_by_hand():
    # 2 systems, 2 items: x1 = [3, 1], x2 = [1, 2]: differences [2, -1], T = 1. The four sign patterns
    # give T* = 1, 3, -3, -1: two are >= T -> p = 2/4
    signs = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    assert pairwise_pvalues(np.array([[3.0, 1.0], [1.0, 2.0]]), signs=signs)[0, 1] == 0.5
    # a tied item: differences [0, 1], T = 1; T* = 1, -1, 1, -1 -> p = 2/4 (the tie counts as >=)
    assert pairwise_pvalues(np.array([[2.0, 2.0], [2.0, 1.0]]), signs=signs)[0, 1] == 0.5
    # system 2 better on both items: differences [-2, -1], T = -3: every T* >= -3 -> p = 1
    assert pairwise_pvalues(np.array([[1.0, 1.0], [3.0, 2.0]]), signs=signs)[0, 1] == 1.0
    # pce.py's signs: rounded float32 uniforms, so +-1 with probability 1/2 each
    s = permutation_signs(50, 400, seed=4)
    assert set(np.unique(s)) == {-1.0, 1.0} and abs(s.mean()) < 0.05


def test_soft_pairwise_accuracy_on_a_frame():
    frame = _frame(X, m=M)
    out = soft_pairwise_accuracy(frame, ["m", "h"], "h").set_index("metric")
    assert out.loc["m", "spa"] == PCE_SPA and out.loc["h", "spa"] == 1.0  # humans agree with themselves
    assert out.loc["m", "n_systems"] == 4 and out.loc["m", "n_items"] == 12 and out.loc["m", "n_items_dropped"] == 0
    # an item where one system has no measure score is dropped (and counted); the rest is unchanged
    extra = pd.DataFrame({"doc_id": "d99", "system": [f"s{s}" for s in range(4)], "h": [1.0, 2, 3, 4],
                          "m": [0.1, np.nan, 0.3, 0.4]})
    more = soft_pairwise_accuracy(pd.concat([frame, extra], ignore_index=True), "m", "h").iloc[0]
    assert more.spa == PCE_SPA and more.n_items == 12 and more.n_items_dropped == 1


def test_spa_bootstrap_interval():
    out = soft_pairwise_accuracy(_frame(X, m=M), "m", "h", n_resamples=50, seed=1).iloc[0]
    assert out.ci_low <= out.spa <= out.ci_high and out.n_resamples == 50
    # 12 identical items: every resample is the data itself, so the interval is the point
    same = np.repeat(X[:, :1], 12, axis=1) + np.arange(4)[:, None] * 0.5
    flat = soft_pairwise_accuracy(_frame(same, m=same * 2), "m", "h", n_resamples=20).iloc[0]
    assert flat.spa == flat.ci_low == flat.ci_high == 1.0


# --------------------------------------------------------------------------------------------
# system pairwise accuracy and its chance baseline
# --------------------------------------------------------------------------------------------
def test_system_pairwise_accuracy_by_hand():
    # one item, system means = the scores. human [3, 2, 2]: pairs (1,2), (1,3) ordered alike by both
    # metrics; (2,3) tied in the human scores: 'tie' [0.9, 0.5, 0.5] ties it too (correct) -> 3/3;
    # 'split' [0.9, 0.5, 0.6] does not -> 2/3
    human = np.array([[3.0], [2.0], [2.0]])
    frame = _frame(human, tie=np.array([[0.9], [0.5], [0.5]]), split=np.array([[0.9], [0.5], [0.6]]))
    out = system_pairwise_accuracy(frame, ["tie", "split"], "h", n_chance=0).set_index("metric")
    assert out.loc["tie", "accuracy"] == 1.0 and out.loc["split", "accuracy"] == pytest.approx(2 / 3)
    assert out.loc["tie", "n_pairs"] == 3 and out.loc["tie", "n_human_ties"] == 1
    assert np.isnan(out.loc["tie", "chance"])
    # the same as stats.acc23 at threshold 0, and as stats.pairwise_accuracy on a complete frame
    big = _frame(X, m=M)
    ours = system_pairwise_accuracy(big, "m", "h", n_chance=0).iloc[0].accuracy
    assert ours == stats.acc23(X.mean(axis=1), M.mean(axis=1), 0.0)
    assert ours == stats.pairwise_accuracy(big, "m", "h").iloc[0].accuracy


def test_chance_baseline_and_interval():
    # 4 systems with distinct scores on one item: a random order of the measure's scores orders each pair
    # alike with probability 1/2, so the chance baseline is 0.5 (sd of the mean over 2000 permutations
    # about 0.29 / sqrt(2000) = 0.0065)
    human = np.array([[1.0], [2.0], [3.0], [4.0]])
    frame = _frame(human, m=human * 10)
    out = system_pairwise_accuracy(frame, "m", "h", n_chance=2000, seed=3).iloc[0]
    assert out.accuracy == 1.0 and abs(out.chance - 0.5) < 0.03
    # chance_p = (1 + #{permuted >= 1.0}) / 2001: only the identity order (1/24 of them) reaches 1.0
    assert out.chance_p == pytest.approx(1 / 24, abs=0.015)
    # identical items: the bootstrap interval is the point
    same = _frame(np.repeat(human, 5, axis=1), m=np.repeat(human[::-1], 5, axis=1))
    flat = system_pairwise_accuracy(same, "m", "h", n_resamples=30, n_chance=0).iloc[0]
    assert flat.accuracy == flat.ci_low == flat.ci_high == 0.0


# --------------------------------------------------------------------------------------------
# item-level pairwise accuracy with tie calibration: equal to tau_optimization
# --------------------------------------------------------------------------------------------
def test_tie_calibration_equals_tau_optimization():
    acc, eps = calibrate_threshold(acc23_pairs(H, MI, "item"))
    assert acc == pytest.approx(TAU_ITEM[0], abs=1e-12) and eps == TAU_ITEM[1]
    acc, eps = calibrate_threshold(acc23_pairs(H.reshape(1, -1), MI.reshape(1, -1), "item"))
    assert acc == pytest.approx(TAU_NONE[0], abs=1e-12) and eps == TAU_NONE[1]
    st = acc23_pairs(HN, MN, "item")
    acc, eps = calibrate_threshold(st)
    assert acc == pytest.approx(TAU_MISSING[0], abs=1e-12) and eps == TAU_MISSING[1]
    for threshold, tau in zip(*TAU_CURVE):
        assert acc23_at(st, threshold) == pytest.approx(tau, abs=1e-12), threshold


def test_item_level_by_hand():
    # one item, 3 systems: human [1, 2, 2], metric [0.1, 0.3, 0.35]. Pairs (1,2), (1,3) concordant; (2,3)
    # tied in the human scores, |Delta m| = 0.05: wrong at epsilon 0 (2/3), right at 0.05 (3/3); at 0.2 pair
    # (1,2) (|Delta m| 0.2) becomes a metric tie without a human tie (2/3 again). Calibration: 0.05, 3/3.
    st = acc23_pairs(np.array([[1.0, 2.0, 2.0]]), np.array([[0.1, 0.3, 0.35]]))
    assert acc23_at(st, 0.0) == pytest.approx(2 / 3) and acc23_at(st, 0.2) == pytest.approx(2 / 3)
    acc, eps = calibrate_threshold(st)
    assert acc == pytest.approx(1.0) and eps == pytest.approx(0.05)
    # grouping: item A has 3 pairs (2 correct at epsilon 0), item B 1 pair (correct): by item the mean of
    # 2/3 and 1 = 5/6; pooled 3 of 4 pairs = 3/4
    human = np.array([[1.0, 2.0, 2.0], [1.0, 2.0, N]])
    metric = np.array([[0.1, 0.3, 0.35], [0.2, 0.9, 0.5]])
    assert acc23_at(acc23_pairs(human, metric, "item"), 0.0) == pytest.approx(5 / 6)
    assert acc23_at(acc23_pairs(human, metric, "none"), 0.0) == pytest.approx(3 / 4)


def test_tuned_on_a_split_or_said_to_be_optimistic():
    # d1 (the tuning document) is the item above (best epsilon 0.05); on d2, human [1, 1, 3], metric
    # [0.5, 0.52, 0.9]: at 0.05 the human tie (|Delta m| 0.02) is a metric tie and the two other pairs are
    # concordant -> 3/3. Tuned on d2 itself the smallest best threshold is 0.02 (also 3/3): optimistic.
    frame = pd.DataFrame({"doc_id": ["d1"] * 3 + ["d2"] * 3, "system": ["a", "b", "c"] * 2,
                          "h": [1.0, 2, 2, 1, 1, 3], "m": [0.1, 0.3, 0.35, 0.5, 0.52, 0.9]})
    split = item_pairwise_accuracy(frame, "m", "h", tune_docs=["d1"]).iloc[0]
    assert split.tuned_on == "tune split" and not split.optimistic and split.epsilon == pytest.approx(0.05)
    assert split.accuracy == pytest.approx(1.0) and split.n_items == 1 and split.n_tune_items == 1
    assert split.tune_accuracy == pytest.approx(1.0)
    test_only = item_pairwise_accuracy(frame[frame.doc_id == "d2"], "m", "h").iloc[0]
    assert test_only.tuned_on == "test data" and test_only.optimistic
    assert test_only.epsilon == pytest.approx(0.02) and test_only.accuracy == pytest.approx(1.0)
    given = item_pairwise_accuracy(frame, "m", "h", epsilon=0.0).iloc[0]
    # at 0: d1 2/3, d2 2/3 (the human tie is not a metric tie) -> mean 2/3
    assert given.tuned_on == "given" and not given.optimistic and given.accuracy == pytest.approx(2 / 3)
    assert given.n_pairs == 6 and given.n_human_ties == 2


def test_item_level_bad_input():
    frame = pd.DataFrame({"doc_id": ["d1", "d1", "d2", "d2"], "system": ["a", "b"] * 2, "h": [1.0, 2, 1, 2],
                          "m": [0.1, 0.2, 0.3, 0.1]})
    with pytest.raises(InputError, match="document 'd9'"):
        item_pairwise_accuracy(frame, "m", "h", tune_docs=["d9"])
    with pytest.raises(InputError, match="2 of the 2 documents"):
        item_pairwise_accuracy(frame, "m", "h", tune_docs=["d1", "d2"])
    with pytest.raises(InputError, match="either epsilon"):
        item_pairwise_accuracy(frame, "m", "h", tune_docs=["d1"], epsilon=0.1)
    with pytest.raises(InputError, match="grouping 'doc'"):
        item_pairwise_accuracy(frame, "m", "h", grouping="doc")
    with pytest.raises(InputError, match="column 'nope'"):
        item_pairwise_accuracy(frame, "nope", "h")
    assert math.isnan(acc23_at(acc23_pairs(np.array([[1.0, N]]), np.array([[0.2, 0.3]])), 0.0))


def test_system_level_bad_input():
    frame = _frame(X, m=M)
    with pytest.raises(InputError, match="column 'nope'"):
        soft_pairwise_accuracy(frame, "nope", "h")
    with pytest.raises(InputError, match="at least 2 systems; the frame has 1"):
        system_pairwise_accuracy(frame[frame.system == "s0"], "m", "h")
    holes = frame.assign(m=np.where(frame.system == "s2", np.nan, frame.m))
    with pytest.raises(InputError, match="no document has a score of 'h', 'm' for every one of the 4 systems"):
        soft_pairwise_accuracy(holes, "m", "h")
    with pytest.raises(InputError, match="n_permutations must be an integer >= 1"):
        soft_pairwise_accuracy(frame, "m", "h", n_permutations=0)
