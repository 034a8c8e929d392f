"""Exact ties among system means stay exact, whatever the row order (issue 21).

SummEval's human scores are means of three experts (multiples of 1/3); two systems' means over
100 documents can be equal as numbers and still differ in the last bit when summed in another
order. Before the fix, ``stats.correlate`` at the system level gave Kendall tau-b 0.4833 for
ROUGE-2 against fluency (M1 and M22 tie) where nlpstats gives 0.4937, and the answer changed with
the order of the rows.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval import stats
from sumeval.stats.ties import TIE_RTOL, snap_ties

nc = pytest.importorskip("nlpstats.correlations")

NLP = {"pearson": "pearson", "spearman": "spearman", "kendall_b": "kendall"}


# ------------------------------------------------------------------------------------------
# snap_ties by hand
# ------------------------------------------------------------------------------------------
def test_snap_ties_joins_rounding_apart_values_to_the_smallest():
    a = 0.1 + 0.2          # 0.30000000000000004
    b = 0.3
    assert a != b
    out = snap_ties(np.array([a, 1.0, b]))
    # sorted: 0.3, 0.30000000000000004, 1.0; the gap 5.6e-17 <= 1e-12 * 1.0 -> one tie at 0.3
    assert out.tolist() == [0.3, 1.0, 0.3]


def test_snap_ties_keeps_real_differences_and_nan():
    v = np.array([2.0, 2.0 + 1e-9, np.nan, 1.0])
    # gap 1e-9 > 1e-12 * 2.0: two values, not a tie; NaN stays NaN
    out = snap_ties(v)
    assert out[0] == 2.0 and out[1] == 2.0 + 1e-9 and np.isnan(out[2]) and out[3] == 1.0


def test_snap_ties_is_relative_to_the_largest_magnitude_of_the_row():
    # at scale 1e-6, a gap of 1e-19 is rounding (1e-19 <= 1e-12 * 3e-6); at scale 1 it is
    # rounding too; a gap of 1e-13 at scale 1e-6 is not (1e-13 > 3e-18)
    small = np.array([1e-6, 1e-6 + 1e-19, 3e-6])
    assert snap_ties(small)[1] == 1e-6
    assert snap_ties(np.array([1e-6, 1e-6 + 1e-13, 3e-6]))[1] == 1e-6 + 1e-13


def test_snap_ties_chains_runs_and_works_row_by_row():
    eps = 0.4 * TIE_RTOL
    rows = np.array([[1.0, 1.0 + eps, 1.0 + 2 * eps, 5.0],     # a run of three within tolerance
                     [3.0, 1.0, 2.0, 5.0]])                    # nothing to join
    out = snap_ties(rows)
    assert out[0].tolist() == [1.0, 1.0, 1.0, 5.0]
    assert out[1].tolist() == [3.0, 1.0, 2.0, 5.0]


def test_snap_ties_leaves_its_input_alone_and_handles_tiny_shapes():
    v = np.array([0.1 + 0.2, 0.3])
    snap_ties(v)
    assert v[0] != v[1]
    assert snap_ties(np.array([7.0])).tolist() == [7.0]
    assert np.isnan(snap_ties(np.array([np.nan, np.nan]))).all()


# ------------------------------------------------------------------------------------------
# data whose system means tie exactly, in shuffled row orders
# ------------------------------------------------------------------------------------------
def _thirds_frame(seed: int, n_docs: int = 40, n_sys: int = 9) -> pd.DataFrame:
    """Human scores in thirds (means of three 1-5 ratings, as SummEval's), built so that
    systems s1 and s2 have the same multiset of scores over the documents in another order
    (their means tie as numbers, and differ in the last bit for some summation orders); an
    integer measure with ties; a continuous measure."""
    rng = np.random.default_rng(seed)
    base = rng.integers(3, 16, size=(n_docs, n_sys)) / 3.0
    base[:, 2] = rng.permutation(base[:, 1])
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            h = base[d, s]
            rows.append({"doc_id": f"d{d}", "system": f"s{s}", "h": h,
                         "good": h + rng.normal(scale=0.7), "int": float(rng.integers(0, 4))})
    return pd.DataFrame(rows)


def _nlpstats_system(frame: pd.DataFrame, metric: str, human: str, coef: str) -> float:
    X = frame.pivot(index="system", columns="doc_id", values=metric).to_numpy()
    Z = frame.pivot(index="system", columns="doc_id", values=human).to_numpy()
    return float(nc.correlate(X, Z, "system", NLP[coef]))


def _exact_system_corr(frame: pd.DataFrame, metric: str, human: str, coef: str) -> float:
    """An independent reference: each system's mean with the ratings as exact fractions of 3
    (a mean of thirds is a rational number; the integer measure is exact anyway), then scipy."""
    from fractions import Fraction

    def means(col):
        g = frame.groupby("system")[col]
        return g.apply(lambda v: float(sum(Fraction(round(3 * x), 3) if col == "h" else Fraction(x)
                                           for x in v) / len(v)))
    mx, mz = means(metric), means(human)
    fn = {"spearman": ss.spearmanr, "kendall_b": ss.kendalltau}[coef]
    return float(fn(mx.to_numpy(), mz.loc[mx.index].to_numpy())[0])


def test_the_fixture_has_an_exact_tie_that_floating_sums_can_break():
    f = _thirds_frame(1)
    col = f[f.system == "s1"].h.to_numpy(), f[f.system == "s2"].h.to_numpy()
    assert sorted(col[0]) == sorted(col[1])                       # the same ratings
    sums = {float(np.sum(np.random.default_rng(k).permutation(col[0]))) for k in range(50)}
    assert len(sums) > 1, "some summation orders of the same thirds round apart"


@pytest.mark.parametrize("coef", ["spearman", "kendall_b"])
@pytest.mark.parametrize("metric", ["int", "good"])
def test_system_level_equals_exact_arithmetic_in_any_row_order(coef, metric):
    f = _thirds_frame(1)
    want = _exact_system_corr(f, metric, "h", coef)
    for k in range(6):
        shuffled = f.sample(frac=1.0, random_state=k) if k else f
        got = stats.correlate(shuffled, metric, "h", level="system", methods=coef, n_resamples=0)
        assert got.value.iloc[0] == pytest.approx(want, abs=1e-12), k
    # nlpstats (np.nanmean per system) meets the same rounding here: its means of s1 and s2 come
    # out a bit apart and it counts an order, so the exact reference is the one to compare with


def test_pairwise_accuracy_counts_the_human_tie_in_any_row_order():
    f = _thirds_frame(1)
    results = []
    for k in range(6):
        shuffled = f.sample(frac=1.0, random_state=k) if k else f
        r = stats.pairwise_accuracy(shuffled, ["good", "int"], "h", calibrate=True)
        results.append(r[["accuracy", "epsilon", "n_human_ties"]].to_numpy())
        assert (r.n_human_ties >= 1).all(), "s1 and s2 tie"
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_williams_at_system_level_does_not_depend_on_row_order():
    f = _thirds_frame(2)
    f.loc[f.system == "s3", "int"] = f.loc[f.system == "s4", "int"].to_numpy()[::-1]  # tie too
    ps = [stats.williams_test(f.sample(frac=1.0, random_state=k), "good", "int", "h",
                              level="system", method="kendall_b")["p_value"] for k in range(5)]
    assert max(ps) - min(ps) <= 1e-12


# ------------------------------------------------------------------------------------------
# the built-in SummEval: fluency, where M1 and M22 tie
# ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def summeval_frame():
    from sumeval import metrics
    from sumeval.datasets import summeval

    df = summeval.load_summeval()
    scored, _ = metrics.score_records(df.to_dict("records"), ["rouge-2"])
    df["rouge-2"] = scored["rouge-2-f"].to_numpy()
    return df[["doc_id", "system", "rouge-2", "coherence", "consistency", "fluency", "relevance"]]


def test_summeval_fluency_has_the_exact_tie(summeval_frame):
    means = summeval_frame.groupby("system").fluency.apply(
        lambda v: sum(round(3 * x) for x in v))        # 3 x the sum: integers, exact
    assert means["M1"] == means["M22"]


@pytest.mark.parametrize("coef", ["spearman", "kendall_b", "pearson"])
@pytest.mark.parametrize("metric", ["rouge-2", "relevance", "coherence"])
def test_summeval_fluency_system_level_equals_nlpstats_in_any_row_order(summeval_frame, metric, coef):
    want = _nlpstats_system(summeval_frame, metric, "fluency", coef)
    for k in range(4):
        shuffled = summeval_frame.sample(frac=1.0, random_state=k) if k else summeval_frame
        got = stats.correlate(shuffled, metric, "fluency", level="system", methods=coef, n_resamples=0)
        assert abs(got.value.iloc[0] - want) <= 1e-12, (metric, coef, k)


def test_summeval_rouge2_fluency_kendall_is_the_tied_value(summeval_frame):
    # the value of the issue: nlpstats' 0.4937 (M1 = M22 counted as a tie), not 0.4833
    got = stats.correlate(summeval_frame, "rouge-2", "fluency", level="system", methods="kendall_b",
                          n_resamples=0).value.iloc[0]
    assert got == pytest.approx(_nlpstats_system(summeval_frame, "rouge-2", "fluency", "kendall_b"), abs=1e-12)
    assert round(got, 4) == 0.4937
