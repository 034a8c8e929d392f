"""Tests of sumeval.stats: formulas against hand computations, bootstrap semantics, bad input."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.stats import (
    METHODS,
    checks,
    coefficients,
    correlate,
    correlation,
    inter_rater_pearson,
    krippendorff_alpha,
    layout,
    levels,
    paired_test,
    pooled,
    r_squared,
    resampling,
)

# ------------------------------------------------------------------------------------------
# correlation(): one pair of samples
# ------------------------------------------------------------------------------------------
# x = [1, 2, 2, 3, 4], y = [2, 1, 3, 3, 4]; the 10 pairs (i < j):
#   (0,1) x< y> D   (0,2) C   (0,3) C   (0,4) C   (1,2) tied in x   (1,3) C   (1,4) C
#   (2,3) tied in y   (2,4) C   (3,4) C
#   -> concordant 7, discordant 1, S = 6, n0 = 10, x-ties 1, y-ties 1
# tau-b = S / sqrt((n0 - tx)(n0 - ty)) = 6 / sqrt(9 * 9) = 2/3
# tau-c = 2 S / (n^2 (m - 1) / m), m = min(#distinct x = 4, #distinct y = 4) = 4
#       = 12 / (25 * 3/4) = 0.64
# Spearman: ranks x = [1, 2.5, 2.5, 4, 5], ranks y = [2, 1, 3.5, 3.5, 5], both mean 3
#   deviations [-2, -.5, -.5, 1, 2] and [-1, -2, .5, .5, 2]
#   sxy = 2 + 1 - .25 + .5 + 4 = 7.25, sxx = syy = 4 + .25 + .25 + 1 + 4 = 9.5 -> 7.25/9.5 = 29/38
# Pearson: means 2.4 and 2.6, deviations [-1.4, -.4, -.4, .6, 1.6] and [-.6, -1.6, .4, .4, 1.4]
#   sxy = .84 + .64 - .16 + .24 + 2.24 = 3.8, sxx = syy = 5.2 -> 3.8/5.2 = 19/26
X5 = [1, 2, 2, 3, 4]
Y5 = [2, 1, 3, 3, 4]
HAND5 = {"kendall_b": 2 / 3, "kendall_c": 0.64, "spearman": 29 / 38, "pearson": 19 / 26}


@pytest.mark.parametrize("method", METHODS)
def test_correlation_hand_values_with_ties(method):
    assert correlation(X5, Y5, method) == pytest.approx(HAND5[method], abs=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_correlation_drops_pairs_with_nan(method):
    # the two extra pairs each have a NaN side, so the value is the one of the 5 complete pairs
    x = X5 + [np.nan, 6.0]
    y = Y5 + [5.0, np.nan]
    assert correlation(x, y, method) == pytest.approx(HAND5[method], abs=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_correlation_constant_or_short_is_nan_without_warnings(method):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(correlation([1, 1, 1, 1], [1, 2, 3, 4], method))
        assert math.isnan(correlation([1, 2, 3], [5, 5, 5], method))
        assert math.isnan(correlation([1.0], [2.0], method))
        assert math.isnan(correlation([1, np.nan, 3], [np.nan, 2, 4], method))  # 1 pair left


def test_correlation_bad_input():
    with pytest.raises(InputError, match="'kendall'.*pearson, spearman, kendall_b, kendall_c"):
        correlation(X5, Y5, "kendall")
    with pytest.raises(InputError, match="same length"):
        correlation([1, 2, 3], [1, 2], "pearson")
    with pytest.raises(InputError, match="infinite"):
        correlation([1, np.inf, 3], [1, 2, 3], "pearson")


# ------------------------------------------------------------------------------------------
# the vectorised paths equal scipy
# ------------------------------------------------------------------------------------------
def test_row_correlations_equal_scipy_with_nan_and_ties():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, size=(40, 7)).astype(float)
    y = rng.integers(0, 4, size=(40, 7)).astype(float)
    x[rng.random(x.shape) < 0.2] = np.nan
    y[rng.random(y.shape) < 0.1] = np.nan
    x[0] = 2.0  # a constant row
    got = coefficients.corr_rows(x, y, METHODS)
    for m in METHODS:
        want = np.array([correlation(x[i], y[i], m) for i in range(len(x))])
        np.testing.assert_allclose(got[m], want, atol=1e-12, equal_nan=True)
        assert math.isnan(got[m][0])


@pytest.mark.parametrize("kendall_path, block", [("matrix", 2_000_000), ("matrix", 100),
                                                  ("loop", 2_000_000)])
def test_pooled_bootstrap_equals_scipy_on_expanded_resamples(monkeypatch, kendall_path, block):
    # counts[b, d] = how often document d is drawn in resample b: the vectorised coefficients
    # must equal scipy on the expanded resample np.repeat(x, counts[b, doc]); the Kendall paths
    # (document concordance matrix, in one block or many; scipy per resample) must agree, and so
    # must the resamples processed in chunks (block = 100 -> chunks of 2 resamples)
    monkeypatch.setattr(pooled, "_KENDALL_PATH", kendall_path)
    monkeypatch.setattr(checks, "BLOCK_ELEMENTS", block)
    rng = np.random.default_rng(7)
    n, n_docs = 40, 9
    x = rng.integers(0, 6, size=n).astype(float)
    y = rng.integers(0, 4, size=n) + rng.integers(0, 2, size=n) * 0.5
    doc = rng.integers(0, n_docs - 1, size=n)  # the last document has no pairs
    counts = rng.integers(0, 3, size=(25, n_docs)).astype(float)
    counts[0] = 0.0
    counts[0, doc[3]] = 5.0  # one document drawn 5 times
    counts[1] = 0.0
    counts[1, n_docs - 1] = 9.0  # only the empty document: no pairs, undefined
    got = pooled.pooled_boot(x, y, doc, counts, METHODS)
    assert math.isnan(got["pearson"][1])
    for m in METHODS:
        want = [correlation(np.repeat(x, counts[b, doc].astype(int)),
                            np.repeat(y, counts[b, doc].astype(int)), m)
                for b in range(len(counts))]
        np.testing.assert_allclose(got[m], want, atol=1e-12, equal_nan=True)


# ------------------------------------------------------------------------------------------
# levels on a 3-system x 2-document toy frame
# ------------------------------------------------------------------------------------------
#           metric m      human h
#           d1   d2       d1   d2
#   A        1    3        1    2
#   B        2    4        3    4
#   C        6    2        2    4
TOY = pd.DataFrame({
    "doc_id": ["d1", "d1", "d1", "d2", "d2", "d2"],
    "system": ["A", "B", "C", "A", "B", "C"],
    "m": [1.0, 2.0, 6.0, 3.0, 4.0, 2.0],
    "h": [1.0, 3.0, 2.0, 2.0, 4.0, 4.0],
})


def _value(out: pd.DataFrame, method: str) -> float:
    return float(out.loc[out["method"] == method, "value"].iloc[0])


def test_system_level_averages_then_correlates():
    # system means: m = [A 2, B 3, C 4], h = [A 1.5, B 3.5, C 3]
    # Pearson: dm = [-1, 0, 1]; mean h = 8/3, dh = [-7/6, 5/6, 1/3]
    #   sxy = 7/6 + 1/3 = 3/2, sxx = 2, syy = (49 + 25 + 4)/36 = 13/6 -> 1.5 / sqrt(13/3)
    # Spearman: ranks m [1, 2, 3], h [1, 3, 2]: 1 - 6 * 2 / (3 * 8) = 0.5
    # tau-b: (A,B) C, (A,C) C, (B,C) m 3<4 but h 3.5>3 D -> (2 - 1) / 3
    out = correlate(TOY, "m", "h", level="system", n_resamples=0)
    assert _value(out, "pearson") == pytest.approx(1.5 / math.sqrt(13 / 3), abs=1e-12)
    assert _value(out, "spearman") == pytest.approx(0.5, abs=1e-12)
    assert _value(out, "kendall_b") == pytest.approx(1 / 3, abs=1e-12)
    assert set(out["n"]) == {3} and set(out["n_skipped"]) == {0}


def test_input_level_averages_per_document_correlations():
    # d1: m [1, 2, 6], h [1, 3, 2]: Spearman ranks [1,2,3] vs [1,3,2] -> 0.5;
    #     tau-b: (A,B) C, (A,C) C, (B,C) D -> 1/3
    # d2: m [3, 4, 2], h [2, 4, 4]: ranks m [2, 3, 1], h [1, 2.5, 2.5]; deviations [0, 1, -1]
    #     and [-1, .5, .5] -> sxy = 0 -> Spearman 0; tau-b: (A,B) C, (A,C) D, (B,C) tied in h -> 0
    # mean over documents: Spearman (0.5 + 0) / 2 = 0.25, tau-b (1/3 + 0) / 2 = 1/6
    out = correlate(TOY, "m", "h", level="input", methods=["spearman", "kendall_b"], n_resamples=0)
    assert _value(out, "spearman") == pytest.approx(0.25, abs=1e-12)
    assert _value(out, "kendall_b") == pytest.approx(1 / 6, abs=1e-12)
    assert set(out["n"]) == {2}


def test_global_level_pools_all_pairs():
    # pooled: the 6 (m, h) pairs in one list, the same as correlation() over the columns
    out = correlate(TOY, "m", "h", level="global", n_resamples=0)
    for m in METHODS:
        assert _value(out, m) == pytest.approx(correlation(TOY["m"], TOY["h"], m), abs=1e-12)
    assert set(out["n"]) == {6}
    assert out["ci_low"].isna().all() and out["ci_high"].isna().all()  # n_resamples = 0


def test_nan_pairs_and_undefined_documents_are_counted():
    frame = pd.concat([TOY, pd.DataFrame({
        "doc_id": ["d3"] * 3, "system": ["A", "B", "C"],
        "m": [5.0, 5.0, 5.0],  # constant within d3: its per-document correlation is undefined
        "h": [1.0, 2.0, np.nan],
    })], ignore_index=True)
    out = correlate(frame, "m", "h", level=["global", "input", "system"],
                    methods="spearman", n_resamples=0)
    by_level = out.set_index("level")
    assert by_level.loc["global", "n"] == 8 and by_level.loc["global", "n_skipped"] == 1
    # document level: d3 is skipped, the value is still the d1/d2 average
    assert by_level.loc["input", "n"] == 2 and by_level.loc["input", "n_skipped"] == 1
    assert by_level.loc["input", "value"] == pytest.approx(0.25, abs=1e-12)
    # system level: the (d3, C) pair is dropped; means m = [A 3, B 11/3, C 4], h = [A 4/3, B 3,
    # C 3] -> ranks [1, 2, 3] vs [1, 2.5, 2.5] -> Spearman 0.866...
    assert by_level.loc["system", "n"] == 3
    assert by_level.loc["system", "value"] == pytest.approx(
        correlation([3, 11 / 3, 4], [4 / 3, 3, 3], "spearman"), abs=1e-12)
    assert by_level.loc["system", "value"] == pytest.approx(math.sqrt(3) / 2, abs=1e-12)


def test_correlate_tidy_layout():
    frame = TOY.assign(m2=-TOY["m"], h2=TOY["h"] * 2)
    out = correlate(frame, ["m", "m2"], ["h", "h2"], level=["global", "system"],
                    methods=["pearson", "kendall_c"], n_resamples=20, seed=1)
    assert list(out.columns) == ["metric", "human", "level", "method", "value", "ci_low",
                                 "ci_high", "n", "n_skipped", "resampling", "n_resamples",
                                 "n_resamples_used", "seed"]
    assert set(out["resampling"]) == {"inputs"} and set(out["n_resamples"]) == {20}
    assert set(out["seed"]) == {1}
    assert len(out) == 2 * 2 * 2 * 2
    assert list(out[["metric", "human", "level", "method"]].iloc[1]) == [
        "m", "h", "global", "kendall_c"]
    assert out.attrs["n_resamples"] == 20 and out.attrs["seed"] == 1
    # a negated metric flips the sign (lower-is-better metrics are passed negated)
    v = out.set_index(["metric", "human", "level", "method"])["value"]
    assert v[("m2", "h", "system", "pearson")] == pytest.approx(-v[("m", "h", "system", "pearson")])


# ------------------------------------------------------------------------------------------
# bootstrap
# ------------------------------------------------------------------------------------------
def _random_frame(n_docs=12, n_sys=5, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=n_sys)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            h = quality[s] + rng.normal(scale=0.7)
            rows.append({"doc_id": f"doc{d}", "system": f"S{s}", "h": h,
                         "good": h + rng.normal(scale=0.5), "bad": rng.normal(),
                         "tied": float(rng.integers(0, 3))})
    return pd.DataFrame(rows)


def test_bootstrap_is_deterministic_given_the_seed():
    frame = _random_frame()
    kw = dict(level=["global", "input", "system"], methods=METHODS, n_resamples=200)
    a = correlate(frame, ["good", "tied"], "h", seed=5, **kw)
    b = correlate(frame, ["good", "tied"], "h", seed=5, **kw)
    c = correlate(frame, ["good", "tied"], "h", seed=6, **kw)
    d = correlate(frame, ["good", "tied"], "h", seed=np.random.default_rng(5), **kw)
    pd.testing.assert_frame_equal(a, b)
    # an int seed and a Generator seeded alike agree (only the int is recorded)
    pd.testing.assert_frame_equal(a.drop(columns="seed"), d.drop(columns="seed"))
    assert d["seed"].isna().all() and (a["seed"] == 5).all()
    assert not np.allclose(a["ci_low"], c["ci_low"])
    assert (a["ci_low"] <= a["ci_high"]).all()


def test_single_document_gives_a_degenerate_interval():
    # resampling documents redraws the one document every time: the interval collapses on the
    # value; resampling pairs would have given a spread
    frame = _random_frame(n_docs=1, n_sys=30)
    out = correlate(frame, "good", "h", level="global", n_resamples=100)
    np.testing.assert_allclose(out["ci_low"], out["value"], atol=1e-12)
    np.testing.assert_allclose(out["ci_high"], out["value"], atol=1e-12)


def test_bootstrap_resamples_documents_at_every_level():
    # a brute-force bootstrap: draw documents with the same generator, build the resampled frame
    # (a drawn twice document appears twice), recompute with the plain definitions
    frame = _random_frame(n_docs=8, n_sys=4, seed=2)
    n_resamples, seed = 60, 11
    docs = frame["doc_id"].unique()
    draws = np.random.default_rng(seed).integers(0, len(docs), size=(n_resamples, len(docs)))
    by_doc = {d: g for d, g in frame.groupby("doc_id", sort=False)}
    want = {"global": [], "input": [], "system": []}
    for row in draws:
        parts = [by_doc[docs[i]] for i in row]
        res = pd.concat(parts, ignore_index=True)
        want["global"].append(correlation(res["good"], res["h"], "kendall_c"))
        per_doc = [correlation(p["good"], p["h"], "kendall_c") for p in parts]
        want["input"].append(np.nanmean(per_doc))
        means = res.groupby("system")[["good", "h"]].mean()
        want["system"].append(correlation(means["good"], means["h"], "kendall_c"))
    out = correlate(frame, "good", "h", level=["global", "input", "system"],
                    methods="kendall_c", n_resamples=n_resamples, ci=0.9, seed=seed).set_index("level")
    for level, values in want.items():
        lo, hi = np.quantile(values, [0.05, 0.95])
        assert out.loc[level, "ci_low"] == pytest.approx(lo, abs=1e-12), level
        assert out.loc[level, "ci_high"] == pytest.approx(hi, abs=1e-12), level


# ------------------------------------------------------------------------------------------
# paired test
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["global", "input", "system"])
def test_paired_test_sign_and_p_value(level):
    frame = _random_frame(n_docs=30, n_sys=8, seed=4)
    ab = paired_test(frame, "good", "bad", "h", level=level, method="spearman", n_resamples=300, seed=1)
    ba = paired_test(frame, "bad", "good", "h", level=level, method="spearman", n_resamples=300, seed=1)
    assert ab["diff"] == pytest.approx(ab["corr_a"] - ab["corr_b"])
    assert ab["diff"] > 0 and ab["ci_low"] > 0 and ab["p_value"] < 0.05
    assert ba["diff"] == pytest.approx(-ab["diff"])
    assert ba["ci_high"] == pytest.approx(-ab["ci_low"])
    assert ba["p_value"] == pytest.approx(ab["p_value"])
    # the point values are correlate()'s
    ref = correlate(frame, ["good", "bad"], "h", level=level, methods="spearman", n_resamples=0)
    assert ab["corr_a"] == pytest.approx(ref["value"].iloc[0])
    assert ab["corr_b"] == pytest.approx(ref["value"].iloc[1])


def test_paired_test_of_a_metric_with_itself():
    frame = _random_frame()
    res = paired_test(frame, "good", "good", "h", level="system", method="kendall_b", n_resamples=100)
    assert res["diff"] == 0 and res["ci_low"] == 0 and res["ci_high"] == 0
    assert res["p_value"] == 1.0 and res["n_resamples_used"] == 100


def test_paired_test_uses_the_same_resamples_as_correlate():
    frame = _random_frame()
    res = paired_test(frame, "good", "tied", "h", level="global", method="pearson",
                      n_resamples=0)
    assert math.isnan(res["p_value"]) and math.isnan(res["ci_low"])
    # with the same seed, the paired interval of (a - b) is built from correlate's replicates
    counts = resampling._resample_counts(12, 50, 3)
    lay = layout.frame_layout(frame, "doc_id", "system", need_systems=False)
    ea = levels.estimate_pair(lay, frame["good"].to_numpy(), frame["h"].to_numpy(), "global",
                              ["pearson"], counts)["pearson"]
    eb = levels.estimate_pair(lay, frame["tied"].to_numpy(), frame["h"].to_numpy(), "global",
                              ["pearson"], counts)["pearson"]
    res = paired_test(frame, "good", "tied", "h", level="global", method="pearson",
                      n_resamples=50, seed=3, ci=0.8)
    lo, hi = np.quantile(ea.boot - eb.boot, [0.1, 0.9])
    assert (res["ci_low"], res["ci_high"]) == pytest.approx((lo, hi))


# ------------------------------------------------------------------------------------------
# bad input
# ------------------------------------------------------------------------------------------
def test_unknown_method_and_level_are_named():
    with pytest.raises(InputError, match=r"'tau'.*pearson, spearman, kendall_b, kendall_c"):
        correlate(TOY, "m", "h", level="system", methods=["pearson", "tau"], n_resamples=0)
    with pytest.raises(InputError, match=r"'pooled'.*input, system, global, partial \(input: per document"):
        correlate(TOY, "m", "h", level="pooled", n_resamples=0)
    with pytest.raises(InputError, match=r"'Input'.*levels are lower case: 'input'"):
        correlate(TOY, "m", "h", level="Input", n_resamples=0)
    with pytest.raises(InputError, match=r"'corpus'.*input, system, global"):
        paired_test(TOY, "m", "m", "h", level="corpus", method="pearson")
    with pytest.raises(InputError, match=r"'kendall'"):
        paired_test(TOY, "m", "m", "h", level="system", method="kendall")


def test_missing_columns_are_named():
    with pytest.raises(InputError, match=r"'rouge'.*metric"):
        correlate(TOY, ["m", "rouge"], "h", level="global", n_resamples=0)
    with pytest.raises(InputError, match=r"'relevance'.*human"):
        correlate(TOY, "m", "relevance", level="global", n_resamples=0)
    with pytest.raises(InputError, match=r"'topic'"):
        correlate(TOY, "m", "h", level="global", doc_col="topic", n_resamples=0)
    with pytest.raises(InputError, match=r"'system_id'"):
        correlate(TOY, "m", "h", level="system", system_col="system_id", n_resamples=0)
    # the global level does not need a system column
    correlate(TOY, "m", "h", level="global", system_col="system_id", n_resamples=0)


def test_other_bad_frames():
    dup = pd.concat([TOY, TOY.iloc[[4]]], ignore_index=True)
    with pytest.raises(InputError, match=r"'d2'.*'B'.*2 times"):
        correlate(dup, "m", "h", level="system", n_resamples=0)
    with pytest.raises(InputError, match=r"'m'.*infinite"):
        correlate(TOY.assign(m=[1, 2, np.inf, 4, 5, 6]), "m", "h", level="global", n_resamples=0)
    with pytest.raises(InputError, match=r"'doc_id'.*missing document id"):
        correlate(TOY.assign(doc_id=["d1", None, "d1", "d2", "d2", "d2"]), "m", "h",
                  level="global", n_resamples=0)
    with pytest.raises(InputError, match=r"'system'.*not numeric"):
        correlate(TOY, "system", "h", level="global", n_resamples=0)
    with pytest.raises(InputError, match=r"n_resamples.*-1"):
        correlate(TOY, "m", "h", level="global", n_resamples=-1)
    with pytest.raises(InputError, match=r"ci.*95"):
        correlate(TOY, "m", "h", level="global", ci=95)


# ------------------------------------------------------------------------------------------
# human-evaluation analysis (paper 002)
# ------------------------------------------------------------------------------------------
# 4 items x 3 raters: r1 = [1, 2, 3, 4], r2 = [2, 1, 4, 3], r3 = [1, 3, 2, 4]
RATINGS = np.array([[1, 2, 1], [2, 1, 3], [3, 4, 2], [4, 3, 4]], dtype=float)


def test_inter_rater_pearson_leave_one_out():
    # r1 vs mean(r2, r3) = [1.5, 2, 3, 3.5]: deviations [-1.5, -.5, .5, 1.5] and [-1, -.5, .5, 1]
    #   sxy = 1.5 + .25 + .25 + 1.5 = 3.5, sxx = 5, syy = 2.5 -> 3.5 / sqrt(12.5)
    # r2 vs mean(r1, r3) = [1, 2.5, 2.5, 4]: deviations [-.5, -1.5, 1.5, .5] and [-1.5, 0, 0, 1.5]
    #   sxy = .75 + .75 = 1.5, sxx = 5, syy = 4.5 -> 1.5 / sqrt(22.5) = 1 / sqrt(10)
    got = inter_rater_pearson(RATINGS)
    assert got.shape == (3,)
    assert got[0] == pytest.approx(3.5 / math.sqrt(12.5), abs=1e-12)
    assert got[1] == pytest.approx(1 / math.sqrt(10), abs=1e-12)


def test_inter_rater_pearson_including_self_and_missing():
    # r1 vs mean(r1, r2, r3) = [4/3, 2, 3, 11/3]: deviations [-7/6, -.5, .5, 7/6] (mean 2.5)
    #   sxy = 2 * 1.5 * 7/6 + 2 * .25 = 4, syy = 2 * 49/36 + .5 = 29/9 -> 4 / sqrt(5 * 29/9)
    got = inter_rater_pearson(RATINGS, include_self=True)
    assert got[0] == pytest.approx(4 / math.sqrt(5 * 29 / 9), abs=1e-12)
    # a missing rating of r3 on item 2 changes r1's reference there to r2's rating alone
    ratings = RATINGS.copy()
    ratings[1, 2] = np.nan
    assert inter_rater_pearson(ratings)[0] == pytest.approx(
        correlation(ratings[:, 0], [1.5, 1, 3, 3.5], "pearson"))
    with pytest.raises(InputError, match=r"\(4, 1\)"):
        inter_rater_pearson(RATINGS[:, :1])


# 3 items x 2 raters: (1, 2), (3, 3), (4, 5); values 1, 2, 3, 3, 4, 5, n = 6
# interval: D_o = (1/n) sum_u 1/(m_u - 1) sum_{i != j in u} (v_i - v_j)^2 = (2 + 0 + 2) / 6 = 2/3
#   D_e = 1/(n(n-1)) sum_{i != j} (v_i - v_j)^2, where
#   sum_{i<j} (v_i - v_j)^2 = n sum v^2 - (sum v)^2 = 6*64 - 18^2 = 60
#   -> D_e = 120 / 30 = 4; alpha = 1 - (2/3)/4 = 5/6
# nominal: off-diagonal coincidences 1+1 (unit 1) + 1+1 (unit 3) -> D_o = 4/6;
#   value counts 1,1,2,1,1 -> D_e = (36 - 8) / 30 = 28/30; alpha = 1 - (4/6)/(28/30) = 2/7
KRIPP = np.array([[1, 2], [3, 3], [4, 5]], dtype=float)


def test_krippendorff_alpha_hand_values():
    assert krippendorff_alpha(KRIPP) == pytest.approx(5 / 6, abs=1e-12)
    assert krippendorff_alpha(KRIPP, level="nominal") == pytest.approx(2 / 7, abs=1e-12)
    # an item with a single rating is not pairable and does not change alpha
    with_missing = np.vstack([KRIPP, [np.nan, 2.0]])
    assert krippendorff_alpha(with_missing) == pytest.approx(5 / 6, abs=1e-12)
    # orientation: items are rows; the transposed array is another data set (2 items x 3 raters)
    assert krippendorff_alpha(KRIPP.T) != pytest.approx(5 / 6, abs=1e-3)


def test_krippendorff_alpha_edge_cases():
    assert math.isnan(krippendorff_alpha(np.full((3, 2), 4.0)))  # one value: undefined
    with pytest.raises(InputError, match=r"'cardinal'.*interval"):
        krippendorff_alpha(KRIPP, level="cardinal")
    with pytest.raises(InputError, match=r"shape \(3,\)"):
        krippendorff_alpha(np.array([1.0, 2.0, 3.0]))


def test_r_squared_hand_values():
    # one predictor: x = [1, 2, 3, 4], y = [1, 3, 2, 4]; Sxy = 4, Sxx = 5, Syy = 5 -> 16/25
    assert r_squared([1, 3, 2, 4], [1, 2, 3, 4]) == pytest.approx(0.64, abs=1e-12)
    # two orthogonal +-1 predictors, y = [1, 2, 3, 5]: mean 2.75, b1 = (-1-2+3+5)/4 = 1.25,
    # b2 = (-1+2-3+5)/4 = 0.75; fitted [.75, 2.25, 3.25, 4.75], residuals +-.25 -> SSR = .25;
    # SST = 1.75^2 + .75^2 + .25^2 + 2.25^2 = 8.75 -> R^2 = 1 - .25/8.75 = 34/35
    X = np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]], dtype=float)
    assert r_squared([1, 2, 3, 5], X) == pytest.approx(34 / 35, abs=1e-12)
    # a row with a NaN is left out
    assert r_squared([1, 3, 2, 4, np.nan], [1, 2, 3, 4, 9]) == pytest.approx(0.64, abs=1e-12)
    assert math.isnan(r_squared([2, 2, 2, 2], [1, 2, 3, 4]))  # SST = 0
    with pytest.raises(InputError, match=r"\(3,\)"):
        r_squared([1, 2, 3, 4], [1, 2, 3])
