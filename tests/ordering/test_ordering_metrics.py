"""Ordering metrics (SPEC.md §3) against hand-computed values and py-rouge 1.1 outputs."""
from __future__ import annotations

import math

import pytest

from sumeval.errors import InputError
from sumeval.ordering.metrics import (
    accuracy,
    inversions,
    kendall_tau,
    ordering_scores,
    pmr,
    wlcs_l,
    wlcs_l_document,
)

W = 1.2


def _f(p: float, r: float) -> float:
    return 2 * p * r / (p + r)


# ---------------------------------------------------------------------------------------------
# WLCS-l
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, f, r", [(3, 0.8906, 0.8027), (5, 0.8404, 0.7248), (10, 0.7737, 0.6310)])
def test_wlcs_l_identical_orders_spec_values(n, f, r):
    # identical orders: one run of n -> hits = n^w; P = (n^w / n^w)^(1/w) = 1;
    # R = (n^w / (n^w)^w)^(1/w) = n^(1-w) = n^-0.2: 3^-0.2 = 0.8027, 5^-0.2 = 0.7248, 10^-0.2 = 0.6310;
    # F = 2R / (1 + R): 0.8906, 0.8404, 0.7737 (SPEC.md §3)
    d = wlcs_l_document(list(range(n)), list(range(n)))
    assert d["p"] == pytest.approx(1.0)
    assert d["r"] == pytest.approx(n ** (1 - W))
    assert round(d["r"], 4) == r
    assert round(d["f"], 4) == f
    assert round(wlcs_l([list(range(n))], [list(range(n))]), 4) == f


def test_wlcs_l_identical_non_identity_gold():
    # the value depends only on the match, not on which permutation gold is
    assert wlcs_l([[2, 0, 1]], [[2, 0, 1]]) == pytest.approx(_f(1.0, 3 ** -0.2))


def test_wlcs_l_hand_swap_last_two():
    # gold [0,1,2], pred [0,2,1]. DP (rows = gold 0,1,2; cols = pred 0,2,1):
    #   row 0: match at (1,1) v=1; (1,2) and (1,3) move left, v=1
    #   row 1: (2,1) up v=1; (2,2) tie 1>=1 -> up v=1; (2,3) match, l=0 -> v=2
    #   row 2: (3,1) up; (3,2) match, l=0 -> v=2; (3,3) tie 2>=2 -> up
    # back-track (3,3)^ (2,3)| mark gold 1, (1,2)< (1,1)| mark gold 0 -> mask [1,1,0]
    # one run of 2 consecutive gold positions: hits = 2^1.2 (py-rouge counts it as a run even
    # though the two matches are not adjacent in pred)
    # P = (2^w / 3^w)^(1/w) = 2/3; R = (2^w / 3^(w^2))^(1/w) = 2 / 3^1.2 = 0.53516
    # F = 2PR/(P+R) = 0.59372
    d = wlcs_l_document([0, 2, 1], [0, 1, 2])
    assert d["hits"] == pytest.approx(2 ** W)
    assert d["p"] == pytest.approx(2 / 3)
    assert d["r"] == pytest.approx(2 / 3 ** W)
    assert d["f"] == pytest.approx(0.5937190915495906)


def test_wlcs_l_hand_reversed():
    # gold [0,1,2], pred [2,1,0]: LCS of length 1, hits = 1^w = 1
    # P = (1/3^w)^(1/w) = 1/3; R = 1/3^w = 0.26758; F = 0.29686
    d = wlcs_l_document([2, 1, 0], [0, 1, 2])
    assert d["hits"] == pytest.approx(1.0)
    assert d["p"] == pytest.approx(1 / 3)
    assert d["r"] == pytest.approx(1 / 3 ** W)
    assert d["f"] == pytest.approx(0.2968595457747953)


def test_wlcs_l_hand_blocks_swapped():
    # gold [0,1,2,3], pred [2,3,0,1]: best weighted LCS is one run of 2 -> hits = 2^w
    # P = (2^w/4^w)^(1/w) = 1/2; R = 2/4^w
    d = wlcs_l_document([2, 3, 0, 1], [0, 1, 2, 3])
    assert d["hits"] == pytest.approx(2 ** W)
    assert d["p"] == pytest.approx(0.5)
    assert d["r"] == pytest.approx(2 / 4 ** W)
    assert d["f"] == pytest.approx(_f(0.5, 2 / 4 ** W))


def test_wlcs_l_single_sentence_scores_one():
    # n = 1: hits = 1, P = 1, R = (1 / 1)^(1/w) = 1
    assert wlcs_l([[0]], [[0]]) == pytest.approx(1.0)


# (pred, gold, P, R, F) from py-rouge 1.1: Rouge(metrics=['rouge-w'], weight_factor=1.2,
# alpha=0.5, limit_length=False), hypothesis " ".join(pred), reference " ".join(gold)
PY_ROUGE_CASES = [
    ([8, 3, 1, 4, 7, 0, 5, 6, 2], [0, 1, 2, 3, 4, 5, 6, 7, 8],
     0.40615491124154135, 0.2617237939576672, 0.31832248423901915),
    ([4, 2, 11, 5, 7, 1, 8, 6, 0, 9, 10, 3], [5, 2, 4, 11, 7, 9, 10, 8, 6, 1, 0, 3],
     0.466104579583757, 0.28356140581188166, 0.3526084213954924),
    ([1, 5, 3, 2, 0, 4], [0, 1, 2, 3, 4, 5], 0.4504619195807666, 0.314795005376942, 0.3706027551580058),
    ([1, 3, 2, 0, 4], [2, 0, 3, 1, 4], 0.5405543034969199, 0.39178276628802866, 0.4542989165962707),
    ([0, 2, 1, 6, 4, 5, 3], [0, 1, 2, 3, 4, 5, 6], 0.5090849817944795, 0.34496153951222447, 0.4112533326491003),
    ([2, 6, 10, 9, 3, 8, 0, 1, 4, 7, 5], [9, 6, 8, 7, 0, 1, 10, 2, 3, 4, 5],
     0.4377992146096817, 0.27101694228428574, 0.334786399333521),
    ([9, 8, 4, 3, 10, 7, 2, 5, 1, 0, 6], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
     0.24570650158950905, 0.15210311608148122, 0.18789251377101182),
    ([4, 1, 3, 2, 0], [3, 4, 1, 2, 0], 0.8, 0.5798237309421564, 0.672345277663833),
]


@pytest.mark.parametrize("pred, gold, p, r, f", PY_ROUGE_CASES)
def test_wlcs_l_matches_py_rouge(pred, gold, p, r, f):
    d = wlcs_l_document(pred, gold)
    assert d["p"] == pytest.approx(p, abs=1e-12)
    assert d["r"] == pytest.approx(r, abs=1e-12)
    assert d["f"] == pytest.approx(f, abs=1e-12)


def test_wlcs_l_corpus_is_mean_of_documents():
    preds = [c[0] for c in PY_ROUGE_CASES]
    golds = [c[1] for c in PY_ROUGE_CASES]
    assert wlcs_l(preds, golds) == pytest.approx(sum(c[4] for c in PY_ROUGE_CASES) / len(PY_ROUGE_CASES))


def test_wlcs_l_bad_weight():
    with pytest.raises(InputError, match="weight"):
        wlcs_l([[0, 1]], [[0, 1]], weight=0)


# ---------------------------------------------------------------------------------------------
# PMR, Acc, tau
# ---------------------------------------------------------------------------------------------
def test_pmr_acc_tau_hand_values():
    pred = [[0, 2, 1], [2, 1, 0], [0, 1, 2, 3], [2, 3, 0, 1]]
    gold = [[0, 1, 2], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3]]
    # PMR: only document 2 is exact -> 1/4
    assert pmr(pred, gold) == pytest.approx(0.25)
    # Acc per document: 1/3 (0 in place), 1/3 (1 in place), 1, 0 -> mean = (2/3 + 1) / 4 = 5/12
    assert accuracy(pred, gold) == pytest.approx(5 / 12)
    # inversions: 1, 3, 0, 4 -> tau = 1 - 2*1/3 = 1/3, 1 - 6/3 = -1, 1, 1 - 8/6 = -1/3
    # mean = (1/3 - 1 + 1 - 1/3) / 4 = 0
    assert [inversions(p, g) for p, g in zip(pred, gold)] == [1, 3, 0, 4]
    assert kendall_tau(pred, gold) == pytest.approx(0.0)
    s = ordering_scores(pred, gold)
    assert s["pmr"] == pytest.approx(0.25) and s["acc"] == pytest.approx(5 / 12)
    assert s["tau"] == pytest.approx(0.0)
    assert s["wlcs_l"] == pytest.approx(wlcs_l(pred, gold))


def test_tau_and_acc_with_non_identity_gold():
    # gold [2,0,1] means sentence 2 first; pred [2,1,0] swaps the last two:
    # positions: acc = 1/3; gold positions of pred = [0,2,1] -> 1 inversion -> tau = 1/3
    assert accuracy([[2, 1, 0]], [[2, 0, 1]]) == pytest.approx(1 / 3)
    assert kendall_tau([[2, 1, 0]], [[2, 0, 1]]) == pytest.approx(1 / 3)


def test_accuracy_is_macro_average():
    # doc 0 (10 sentences, all right) = 1, doc 1 (2 sentences, both wrong) = 0 -> 0.5, not 10/12
    assert accuracy([list(range(10)), [1, 0]], [list(range(10)), [0, 1]]) == pytest.approx(0.5)


def test_numpy_ints_accepted():
    np = pytest.importorskip("numpy")
    assert pmr([np.array([0, 1, 2])], [np.arange(3)]) == 1.0


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
def test_corpus_length_mismatch():
    with pytest.raises(InputError, match="pred has 2 documents but gold has 1"):
        pmr([[0, 1], [0, 1]], [[0, 1]])


def test_empty_corpus():
    with pytest.raises(InputError, match="empty"):
        accuracy([], [])


def test_repeated_index_names_document_and_value():
    with pytest.raises(InputError, match=r"pred\[1\]\[2\] = 1 is repeated"):
        kendall_tau([[0, 1, 2], [0, 1, 1]], [[0, 1, 2], [0, 1, 2]])


def test_out_of_range_index_names_document_and_value():
    with pytest.raises(InputError, match=r"gold\[0\]\[1\] = 3 is out of range"):
        wlcs_l([[0, 1, 2]], [[0, 3, 1]])


def test_negative_and_non_integer_values():
    with pytest.raises(InputError, match=r"pred\[0\]\[0\] = -1"):
        pmr([[-1, 0]], [[0, 1]])
    with pytest.raises(InputError, match=r"pred\[0\]\[1\] = 1.0"):
        pmr([[0, 1.0]], [[0, 1]])
    with pytest.raises(InputError, match=r"pred\[0\]\[0\] = '0'"):
        pmr([["0", 1]], [[0, 1]])


def test_document_length_mismatch():
    with pytest.raises(InputError, match=r"document 1: pred\[1\] has 2 items but gold\[1\] has 3"):
        accuracy([[0], [1, 0]], [[0], [0, 1, 2]])


def test_tau_undefined_for_one_sentence():
    with pytest.raises(InputError, match=r"document 1: gold\[1\] = \[0\]"):
        kendall_tau([[0, 1], [0]], [[0, 1], [0]])
    assert math.isnan(ordering_scores([[0]], [[0]])["tau"])
