"""SERA and SERA-DIS (paper 001 Eq.1-2) against hand-computed retrieval lists."""
import math

import pytest

from sumeval.errors import InputError
from sumeval.retrieval.sera import sera, sera_dis, sera_per_reference

LN2 = math.log(2)


def test_sera_single_reference():
    # candidate top-5 {a,b,c,d,e}, reference {c,a,x,y,z}: overlap {a,c} -> 2/5
    assert sera(list("abcde"), [list("caxyz")], 5) == pytest.approx(0.4)


def test_sera_mean_over_references_and_cut_off():
    cand = list("abcdefghij")
    refs = [list("abcdefghij"), list("klmnopqrst"), list("jihgfedcba")]
    # k=10: overlaps 10, 0, 10 -> (1 + 0 + 1) / 3
    assert sera(cand, refs, 10) == pytest.approx(2 / 3)
    # k=5: top-5 of the third reference is {j,i,h,g,f}, disjoint from {a..e} -> (1 + 0 + 0) / 3
    assert sera(cand, refs, 5) == pytest.approx(1 / 3)


def test_sera_short_lists_divide_by_k():
    # only 2 documents retrieved for each: overlap 1 -> 1/10
    assert sera(["a", "b"], [["b", "c"]], 10) == pytest.approx(0.1)
    assert sera([], [["b", "c"]], 10) == 0.0


def test_sera_dis_identical_lists_is_one():
    # every document at the same rank: D = k * 1/ln 2 = D_max
    assert sera_dis(list("abcde"), [list("abcde")], 5) == pytest.approx(1.0)


def test_sera_dis_hand_computed():
    # k=5, candidate a b c d e (ranks 0..4), reference c a x y b:
    #   a: j=0, l=1 -> 1/ln 3;  b: j=1, l=4 -> 1/ln 5;  c: j=2, l=0 -> 1/ln 4
    # D_max = 5 / ln 2
    d = 1 / math.log(3) + 1 / math.log(5) + 1 / math.log(4)
    assert sera_dis(list("abcde"), [list("caxyb")], 5) == pytest.approx(d / (5 / LN2))


def test_sera_dis_mean_over_references():
    # reference 1 = candidate reversed (k=3): a j0 l2 -> 1/ln4, b j1 l1 -> 1/ln2, c j2 l0 -> 1/ln4
    # reference 2 disjoint -> 0;  mean = (D1 / (3/ln2) + 0) / 2
    d1 = 2 / math.log(4) + 1 / LN2
    got = sera_dis(list("abc"), [list("cba"), list("xyz")], 3)
    assert got == pytest.approx(d1 / (3 / LN2) / 2)


def test_sera_dis_uses_only_top_k():
    # k=2: candidate a b, reference x a (c beyond the cut-off is ignored): a j0 l1 -> 1/ln 3
    assert sera_dis(list("abc"), [list("xac")], 2) == pytest.approx((1 / math.log(3)) / (2 / LN2))


def test_per_reference_terms_by_hand():
    cand, refs = ["a", "b", "c", "d"], [["b", "a", "x"], ["z"], ["d", "c", "b", "a"]]
    # k = 2: candidate top {a, b}; overlaps {a, b}, {}, {} -> 2/2, 0, 0
    assert sera_per_reference(cand, refs, 2) == [1.0, 0.0, 0.0]
    # k = 4: overlaps {a, b}, {}, {a, b, c, d} -> 2/4, 0, 4/4
    assert sera_per_reference(cand, refs, 4) == [0.5, 0.0, 1.0]
    # DIS, k = 2: reference 1: a at (j=0, l=1), b at (1, 0) -> 2 / ln 3, over D_max = 2 / ln 2
    assert sera_per_reference(cand, refs[:1], 2, dis=True) == pytest.approx([(2 / math.log(3)) / (2 / LN2)])
    # DIS, k = 4, reference 3 reversed: a (0,3) d (3,0) -> 1/ln 5 each, b (1,2) c (2,1) -> 1/ln 3 each
    got = sera_per_reference(cand, refs, 4, dis=True)
    assert got == pytest.approx([(1 / math.log(3) + 1 / math.log(3)) / (4 / LN2), 0.0,
                                 (2 / math.log(5) + 2 / math.log(3)) / (4 / LN2)])
    # SERA and SERA-DIS are the means of these terms
    assert sera(cand, refs, 4) == sum(sera_per_reference(cand, refs, 4)) / 3
    assert sera_dis(cand, refs, 4) == sum(got) / 3


def test_bad_input_named():
    with pytest.raises(InputError, match="at least one reference"):
        sera(["a"], [], 5)
    with pytest.raises(InputError, match="positive integer, got 0"):
        sera(["a"], [["a"]], 0)
    with pytest.raises(InputError, match="repeats a document"):
        sera_dis(["a", "a"], [["a"]], 5)
    with pytest.raises(InputError, match="reference 0 list repeats"):
        sera_per_reference(["a"], [["b", "b"]], 5, dis=True)
