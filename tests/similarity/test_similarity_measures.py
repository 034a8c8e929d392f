"""sumeval.similarity.measures and .order (paper 000 Eq.1-4) against values computed by hand."""
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


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_layer_pair_points_by_hand(backend):
    # summary (N=2, 2 layers, H=2): layer 0 s0=(1,0) s1=(0,2); layer 1 s0=(0,1) s1=(1,1)
    # text (M=3, 2 layers): layer 0 t=(1,1),(3,0),(0,1); layer 1 t=(0,2),(1,0),(2,2)
    Es = np.array([[[1, 0], [0, 1]], [[0, 2], [1, 1]]], dtype=np.float16)
    Et = np.array([[[1, 1], [0, 2]], [[3, 0], [1, 0]], [[0, 1], [2, 2]]], dtype=np.float16)
    P = M.layer_pair_points(Es, Et, backend=backend)
    # (s0, t0): s0.t = (1,3,0) -> 1; s1.t = (2,0,2) -> tie, first maximum 0
    # (s0, t1): s0.t = (0,1,2) -> 2; s1.t = (4,0,4) -> 0
    # (s1, t0): s0.t = (1,0,1) -> 0; s1.t = (2,3,1) -> 1
    # (s1, t1): s0.t = (2,0,2) -> 0; s1.t = (2,1,4) -> 2
    assert P.tolist() == [[[1, 0], [2, 0]], [[0, 1], [0, 2]]]
    assert M.layer_pair_points(Es, Et, [1], [0], backend=backend).tolist() == [[[0, 1]]]
    assert M.layer_pair_points(Es[:0], Et, backend=backend).shape == (2, 2, 0)
    with pytest.raises(InputError, match="no words"):
        M.layer_pair_points(Es, Et[:0], backend=backend)


def test_layer_pair_points_backends_agree_and_bad_backend():
    rng = np.random.default_rng(1)
    S = rng.normal(size=(7, 3, 5)).astype(np.float16)
    T = rng.normal(size=(9, 3, 5)).astype(np.float16)
    assert np.array_equal(M.layer_pair_points(S, T, backend="torch"), M.layer_pair_points(S, T))
    with pytest.raises(InputError, match="'jax'"):
        M.layer_pair_points(S, T, backend="jax")


def test_scores_from_points_by_hand():
    # one summary layer, two text layers: b = (0,1,1,2) and (2,1,0,0)
    P = np.array([[[0, 1, 1, 2], [2, 1, 0, 0]]])
    st, tt = np.array([10, 20, 30, 40]), np.array([10, 30, 99])
    in_text = np.array([True, True, True, False])
    raw_cos = np.array([[1, .5, 0], [.2, .4, .6], [0, 0, 1], [.3, .3, .3]])
    r = M.scores_from_points(P, st, tt, in_text=in_text, raw_cos=raw_cos)
    # tokens at b: (10,30,30,99) -> mismatches at i=1, 3: 2 in all, 1 in M = {0,1,2}, adjusted 1*4/3
    #              (99,30,10,10) -> mismatches at every i: 4 in all, 3 in M, adjusted 3*4/3 = 4
    assert r["alarms"].tolist() == [[1, 3]] and r["alarms_alltokens"].tolist() == [[2, 4]]
    assert r["alarms_adjusted"][0] == pytest.approx([4 / 3, 4])
    # Eq.2: cos at the points (1, .4, 0, .3) -> 1.7/4; (0, .4, 0, .3) -> .7/4
    assert r["estime_soft"][0] == pytest.approx([0.425, 0.175])
    # Eq.3, tau-c: (0,1,1,2) has 5 concordant pairs, 0 discordant, one tie; m = 3 distinct values:
    # 2 * 5 / (4^2 * (3-1)/3) = 0.9375; (2,1,0,0) the opposite: -0.9375
    assert r["similarity_order"][0] == pytest.approx([0.9375, -0.9375])
    assert r["points"] is not None and r["points"].shape == (1, 2, 4)
    with pytest.raises(InputError, match="in_text has shape"):
        M.scores_from_points(P, st, tt, in_text=np.ones(3, bool))


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
    # the cosines of raw_cosines: rows normalised, zero rows stay zero
    assert M.raw_cosines(ps, pt) == pytest.approx(np.array([[1, 1 / math.sqrt(2), 0], [0, 1 / math.sqrt(2), 0]]))
    assert math.isnan(M.estime_soft(np.zeros((0, 2)), pt, np.zeros(0, int)))


def test_coherence_by_hand_and_against_scipy():
    # points (0, 2, 1, 3): pairs (0,1)+ (0,2)+ (0,3)+ (1,2)- (1,3)+ (2,3)+ -> P-Q = 4
    # tau-c = 2*4 / (16 * (4-1)/4) = 8/12 = 2/3
    assert M.similarity_order(np.array([0, 2, 1, 3])) == pytest.approx(2 / 3)
    # reversed order: P-Q = -6 -> 2*(-6)/12 = -1
    assert M.similarity_order(np.array([3, 2, 1, 0])) == pytest.approx(-1.0)
    # ties in b: (5, 5, 9): pairs (0,1) tie 0, (0,2)+, (1,2)+ -> P-Q = 2; m = min(3, 2) = 2
    # tau-c = 2*2 / (9 * (1/2)) = 8/9
    assert M.similarity_order(np.array([5, 5, 9])) == pytest.approx(8 / 9)
    assert math.isnan(M.similarity_order(np.array([4])))
    assert math.isnan(M.similarity_order(np.array([], dtype=int)))
    assert math.isnan(M.similarity_order(np.array([7, 7, 7])))
    rng = np.random.default_rng(1)
    for _ in range(5):
        b = rng.integers(0, 12, size=15)
        assert M.similarity_order(b) == pytest.approx(kendalltau(np.arange(15), b, variant="c").statistic)


def test_similarity_order_rows_matches_scipy():
    rng = np.random.default_rng(2)
    Y = rng.integers(0, 6, size=(20, 9))
    Y[3] = 4  # all equal -> NaN
    got = M.similarity_order_rows(Y)
    assert math.isnan(got[3])
    for r in range(20):
        if r != 3:
            assert got[r] == pytest.approx(kendalltau(np.arange(9), Y[r], variant="c").statistic)
    assert np.isnan(M.similarity_order_rows(np.zeros((2, 1)))).all()


def test_local_order_tau_by_hand():
    # Y = (0, 2, 1, 3), d = 1: pairs (0,1)+ (1,2)- (2,3)+ -> (2 - 1) / 3
    assert M.local_order_tau(np.array([0, 2, 1, 3]), 1) == pytest.approx(1 / 3)
    # d = 2 adds (0,2)+ (1,3)+ -> (4 - 1) / 5
    assert M.local_order_tau(np.array([0, 2, 1, 3]), 2) == pytest.approx(3 / 5)
    # ties in Y are discordant: Y = (5, 5, 6), d = 1: (0,1) tie -> disc, (1,2)+ -> (1 - 1)/2 = 0
    assert M.local_order_tau(np.array([5, 5, 6]), 1) == pytest.approx(0.0)
    # d >= N-1 with no ties equals plain tau-a: (0,2,1,3): (5 - 1)/6
    assert M.local_order_tau(np.array([0, 2, 1, 3]), 10) == pytest.approx(4 / 6)
    assert math.isnan(M.local_order_tau(np.array([3]), 2))
    assert math.isnan(M.local_order_tau(np.array([1, 0]), 0))  # no pair within distance 0
    with pytest.raises(InputError, match="-1"):
        M.local_order_tau(np.array([1, 2]), -1)


def test_local_order_profile_by_hand():
    # b = (0, 2, 1, 3): lag 1 pairs 0<2 c, 2>1 d, 1<3 c -> (2-1)/3; lag 2 adds 0<1 c, 2<3 c ->
    # (4-1)/5; lag 3 adds 0<3 c -> (5-1)/6; beyond N-1 no new pair. Row 2: b = (5, 5, 6): the tie
    # is discordant -> (1-1)/2 = 0 at d = 1, then 0<... (5,6) c -> (2-1)/3 at d = 2
    prof = M.local_order_profile(np.array([[0, 2, 1, 3]]), 4)
    assert prof[0] == pytest.approx([1 / 3, 3 / 5, 4 / 6, 4 / 6])
    assert M.local_order_profile(np.array([[5, 5, 6]]), 2)[0] == pytest.approx([0.0, 1 / 3])
    assert np.isnan(M.local_order_profile(np.array([[4]]), 3)).all()
    with pytest.raises(InputError, match="max_d must be >= 1, got 0"):
        M.local_order_profile(np.array([[0, 1]]), 0)


def test_undefined_reason():
    assert M.undefined_reason("similarity_order", 1) == "the summary has one word: an order needs at least two"
    assert M.undefined_reason("estime", 0) == "the summary has no words"
    assert "same text word" in M.undefined_reason("coherence", 3, 5, np.array([2, 2, 2]))
    assert M.undefined_reason("coherence", 3, 5, np.array([1, 2, 2])) is None


def test_sweep_layers_wires_points_to_the_measures():
    rng = np.random.default_rng(3)
    N, Mw, L, H = 7, 11, 4, 5
    Es = rng.normal(size=(N, L, H)).astype(np.float32)
    Et = rng.normal(size=(Mw, L, H)).astype(np.float32)
    st = rng.integers(0, 5, size=N)
    tt = rng.integers(0, 5, size=Mw)
    in_text = rng.random(N) > 0.3
    phis, phit = rng.normal(size=(N, 3)), rng.normal(size=(Mw, 3))
    out = M.sweep_layers(Es, Et, st, tt, in_text=in_text, phi_summary=phis, phi_text=phit, local_d=(2, 5))
    assert out["alarms"].shape == (L, L) and out["points"].shape == (L, L, N)
    # the sweep's points are layer_pair_points', and each measure reads the pair (a, b) it is filed under
    P = M.layer_pair_points(Es, Et)
    assert np.array_equal(out["points"], P)
    assert out["similarity_order"][3, 1] == M.similarity_order(P[3, 1])
    assert out["local_order_d5"][2, 0] == M.local_order_tau(P[2, 0], 5)
    assert out["alarms"][1, 2] == M.estime_alarms(st, tt, P[1, 2], in_text)["alarms"]
    assert out["estime_soft"][0, 3] == pytest.approx(M.estime_soft(phis, phit, P[0, 3]))
    sub = M.layer_pair_points(Es, Et, summary_layers=[3], text_layers=[0, 2])
    assert sub.shape == (1, 2, N) and sub[0, 1].tolist() == out["points"][3, 2].tolist()
    empty = M.sweep_layers(np.zeros((0, L, H)), Et, np.zeros(0, int), tt, local_d=(1,))
    assert np.isnan(empty["alarms"]).all() and np.isnan(empty["similarity_order"]).all()
    assert np.isnan(empty["local_order_d1"]).all()


def test_layer_pair_points_multiply_on_one_thread_whatever_the_process_has(monkeypatch):
    """A near-tie resolves the same under `run all --jobs 2` (one thread a run) and alone (every
    core): each product runs on one BLAS thread (issue 19: 48 of estime_layers' numbers moved
    with the thread count before). The torch backend spreads the layers over the process's threads
    instead, and gives its thread count back."""
    import torch
    from threadpoolctl import threadpool_info

    rng = np.random.default_rng(0)
    S = rng.normal(size=(40, 4, 32)).astype(np.float16)
    T = rng.normal(size=(90, 4, 32)).astype(np.float16)
    seen_torch, seen_blas = [], []
    real_torch, real_np = torch.matmul, np.matmul

    def spy_torch(*a, **k):
        seen_torch.append(torch.get_num_threads())
        return real_torch(*a, **k)

    def spy_np(*a, **k):
        seen_blas.append({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"})
        return real_np(*a, **k)

    monkeypatch.setattr(torch, "matmul", spy_torch)
    monkeypatch.setattr(np, "matmul", spy_np)
    before = torch.get_num_threads()
    results = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        try:
            results.append(M.layer_pair_points(S, T, backend="torch"))
            assert torch.get_num_threads() == threads  # given back
        finally:
            torch.set_num_threads(before)
    got_np = M.layer_pair_points(S, T, backend="numpy")
    assert seen_torch and set(seen_torch) == {1}
    assert seen_blas and all(s <= {1} for s in seen_blas)
    assert np.array_equal(results[0], results[1]) and np.array_equal(results[0], got_np)


def test_raw_cosines_run_on_one_blas_thread(monkeypatch):
    """ESTIME-soft's cosines: the same last bits with one thread or many (issue 19: with the BLAS's
    own thread count, 6,699 of 270,400 layer-pair ESTIME-soft values differed by 2e-16 between one
    and two threads, enough to reorder equal scores and move 48 estime_layers numbers)."""
    import contextlib

    entered = []

    class Spy:
        def limit(self, limits, user_api):
            entered.append((limits, user_api))
            return contextlib.nullcontext()

    monkeypatch.setattr(M, "_blas_controller", lambda: Spy())
    a = np.array([[3.0, 4.0], [0.0, 0.0]])  # the zero row has cosine 0 with everything
    b = np.array([[3.0, 4.0], [4.0, -3.0]])
    got = M.raw_cosines(a, b)
    assert np.allclose(got, [[1.0, 0.0], [0.0, 0.0]])  # by hand: (9+16)/25 = 1, (12-12)/25 = 0
    assert entered == [(1, "blas")]
