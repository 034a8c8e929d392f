"""sumeval.similarity.measures against values computed by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import kendalltau

from sumeval.errors import InputError
from sumeval.similarity import measures as M


def test_points_of_similarity_by_hand():
    # summary rows s0=(1,0), s1=(0,2); text rows t0=(1,1), t1=(3,0), t2=(0,1)
    # s0.t = (1, 3, 0) -> argmax 1 ; s1.t = (2, 0, 2) -> tie 0 and 2, first maximum -> 0
    es = np.array([[1.0, 0.0], [0.0, 2.0]])
    et = np.array([[1.0, 1.0], [3.0, 0.0], [0.0, 1.0]])
    assert M.points_of_similarity(es, et).tolist() == [1, 0]
    # a raw dot product, not a cosine: t1 is long, so it wins for s0 although t0 is closer in angle
    # to (1, 0.9): (1,0.9).t = (1.9, 3, 0.9) -> 1
    assert M.points_of_similarity(np.array([[1.0, 0.9]]), et).tolist() == [1]
    assert M.points_of_similarity(np.zeros((0, 2)), et).shape == (0,)
    with pytest.raises(InputError, match="no words"):
        M.points_of_similarity(es, np.zeros((0, 2)))
    with pytest.raises(InputError, match="hidden size 2 .* 3"):
        M.points_of_similarity(es, np.zeros((2, 3)))


def test_estime_alarms_by_hand():
    # summary tokens (10, 20, 30, 40); text tokens (10, 30, 99); points (0, 1, 1, 2)
    # token at point: (10, 30, 30, 99) -> mismatches at i=1 (20 vs 30) and i=3 (40 vs 99)
    # M = {0, 1, 2} (word 3 not in text): alarms over M = 1; adjusted = 1 * 4 / 3; all tokens = 2
    r = M.estime_alarms(np.array([10, 20, 30, 40]), np.array([10, 30, 99]), np.array([0, 1, 1, 2]),
                        np.array([True, True, True, False]))
    assert r["alarms"] == 1 and r["alarms_alltokens"] == 2 and r["n_in_text"] == 3 and r["n_words"] == 4
    assert r["alarms_adjusted"] == pytest.approx(4 / 3)
    # M empty: counted over all words (2), adjusted equal to it
    r = M.estime_alarms(np.array([10, 20, 30, 40]), np.array([10, 30, 99]), np.array([0, 1, 1, 2]),
                        np.zeros(4, dtype=bool))
    assert r["alarms"] == 2 and r["alarms_adjusted"] == 2
    # empty summary: NaN
    r = M.estime_alarms(np.zeros(0, int), np.array([1]), np.zeros(0, int))
    assert math.isnan(r["alarms"]) and math.isnan(r["alarms_alltokens"])
    with pytest.raises(InputError, match="points has shape"):
        M.estime_alarms(np.array([1, 2]), np.array([1]), np.array([0]))


def test_in_text_mask_is_exact_string():
    assert M.in_text_mask(["The", "cat", "sat"], ["the", "cat"]).tolist() == [False, True, False]


def test_estime_soft_by_hand():
    # phi_summary: (1,0), (0,1); phi_text: (2,0), (1,1), (0,0)
    # points (1, 0): cos((1,0),(1,1)) = 1/sqrt2 ; cos((0,1),(2,0)) = 0 -> mean = 1/(2 sqrt2)
    ps = np.array([[1.0, 0.0], [0.0, 1.0]])
    pt = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    assert M.estime_soft(ps, pt, np.array([1, 0])) == pytest.approx(1 / (2 * math.sqrt(2)))
    # pointing at the zero row counts as cosine 0: points (0, 2): (1 + 0) / 2
    assert M.estime_soft(ps, pt, np.array([0, 2])) == pytest.approx(0.5)
    assert math.isnan(M.estime_soft(np.zeros((0, 2)), pt, np.zeros(0, int)))


def test_coherence_by_hand_and_against_scipy():
    # points (0, 2, 1, 3): pairs (0,1)+ (0,2)+ (0,3)+ (1,2)- (1,3)+ (2,3)+ -> P-Q = 4
    # tau-c = 2*4 / (16 * (4-1)/4) = 8/12 = 2/3
    assert M.coherence(np.array([0, 2, 1, 3])) == pytest.approx(2 / 3)
    # reversed order: P-Q = -6 -> 2*(-6)/12 = -1
    assert M.coherence(np.array([3, 2, 1, 0])) == pytest.approx(-1.0)
    # ties in b: (5, 5, 9): pairs (0,1) tie 0, (0,2)+, (1,2)+ -> P-Q = 2; m = min(3, 2) = 2
    # tau-c = 2*2 / (9 * (1/2)) = 8/9
    assert M.coherence(np.array([5, 5, 9])) == pytest.approx(8 / 9)
    assert math.isnan(M.coherence(np.array([4])))
    assert math.isnan(M.coherence(np.array([], dtype=int)))
    assert math.isnan(M.coherence(np.array([7, 7, 7])))
    rng = np.random.default_rng(1)
    for _ in range(5):
        b = rng.integers(0, 12, size=15)
        assert M.coherence(b) == pytest.approx(kendalltau(np.arange(15), b, variant="c").statistic)


def test_kendall_tau_c_rows_matches_scipy():
    rng = np.random.default_rng(2)
    Y = rng.integers(0, 6, size=(20, 9))
    Y[3] = 4  # all equal -> NaN
    got = M.kendall_tau_c_rows(Y)
    assert math.isnan(got[3])
    for r in range(20):
        if r != 3:
            assert got[r] == pytest.approx(kendalltau(np.arange(9), Y[r], variant="c").statistic)
    assert np.isnan(M.kendall_tau_c_rows(np.zeros((2, 1)))).all()


def test_local_order_tau_by_hand():
    # Y = (0, 2, 1, 3), d = 1: pairs (0,1)+ (1,2)- (2,3)+ -> (2 - 1) / 3
    assert M.local_order_tau(np.array([0, 2, 1, 3]), 1) == pytest.approx(1 / 3)
    # d = 2 adds (0,2)+ (1,3)+ -> (4 - 1) / 5
    assert M.local_order_tau(np.array([0, 2, 1, 3]), 2) == pytest.approx(3 / 5)
    # ties in Y are discordant: Y = (5, 5, 6), d = 1: (0,1) tie -> disc, (1,2)+ -> (1 - 1)/2 = 0
    assert M.local_order_tau(np.array([5, 5, 6]), 1) == pytest.approx(0.0)
    # d >= N-1 with no ties equals plain tau-a: (0,2,1,3): (5 - 1)/6
    assert M.local_order_tau(np.array([0, 2, 1, 3]), 10) == pytest.approx(4 / 6)
    # explicit positions: X = (0, 5, 6), Y = (1, 0, 2), d = 1: only pair (1,2): X up, Y up -> +1
    assert M.local_order_tau(np.array([1, 0, 2]), 1, positions=np.array([0, 5, 6])) == pytest.approx(1.0)
    assert math.isnan(M.local_order_tau(np.array([3]), 2))
    assert math.isnan(M.local_order_tau(np.array([1, 0]), 0))  # no pair within distance 0
    with pytest.raises(InputError, match="-1"):
        M.local_order_tau(np.array([1, 2]), -1)


def test_undefined_reason():
    assert M.undefined_reason("coherence", 1) == "the summary has one word: an order needs at least two"
    assert M.undefined_reason("estime", 0) == "the summary has no words"
    assert "same text word" in M.undefined_reason("coherence", 3, 5, np.array([2, 2, 2]))
    assert M.undefined_reason("coherence", 3, 5, np.array([1, 2, 2])) is None


def test_layer_pair_sweep_equals_single_pairs():
    rng = np.random.default_rng(3)
    N, Mw, L, H = 7, 11, 4, 5
    Es = rng.normal(size=(N, L, H)).astype(np.float32)
    Et = rng.normal(size=(Mw, L, H)).astype(np.float32)
    st = rng.integers(0, 5, size=N)
    tt = rng.integers(0, 5, size=Mw)
    in_text = rng.random(N) > 0.3
    phis, phit = rng.normal(size=(N, 3)), rng.normal(size=(Mw, 3))
    out = M.sweep_layers(Es, Et, st, tt, in_text=in_text, phi_summary=phis, phi_text=phit, local_d=(2,))
    assert out["alarms"].shape == (L, L) and out["points"].shape == (L, L, N)
    for a in range(L):
        for b in range(L):
            pts = M.points_of_similarity(Es[:, a], Et[:, b])
            assert out["points"][a, b].tolist() == pts.tolist()
            r = M.estime_alarms(st, tt, pts, in_text)
            assert out["alarms"][a, b] == r["alarms"]
            assert out["alarms_adjusted"][a, b] == pytest.approx(r["alarms_adjusted"])
            assert out["alarms_alltokens"][a, b] == r["alarms_alltokens"]
            assert out["estime_soft"][a, b] == pytest.approx(M.estime_soft(phis, phit, pts))
            c = M.coherence(pts)
            assert (math.isnan(c) and math.isnan(out["coherence"][a, b])) or out["coherence"][a, b] == pytest.approx(c)
            assert out["local_order_d2"][a, b] == pytest.approx(M.local_order_tau(pts, 2))
    sub = M.layer_pair_points(Es, Et, summary_layers=[3], text_layers=[0, 2])
    assert sub.shape == (1, 2, N) and sub[0, 1].tolist() == out["points"][3, 2].tolist()
    empty = M.sweep_layers(np.zeros((0, L, H)), Et, np.zeros(0, int), tt)
    assert np.isnan(empty["alarms"]).all() and np.isnan(empty["coherence"]).all()
