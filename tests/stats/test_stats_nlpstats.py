"""sumeval.stats against nlpstats (Deutsch's reference implementation, PyPI nlpstats==0.0.1).

nlpstats takes score matrices of shape (n_systems, n_inputs) and draws from the global
``np.random`` state: ``np.random.choice(m, m)`` per resample for systems, then
``np.random.choice(n, n)`` for inputs (bootstrap), ``np.random.rand(m, 1) > 0.5`` then
``np.random.rand(1, n) > 0.5`` (permutations). The tests seed that state, replay the same calls to
record the indices / masks nlpstats is about to use, and give them to sumeval: the resampled
statistics must then be the same numbers (to rounding, 1e-12), and so the intervals and p-values.
With independent randomness the results must agree within Monte-Carlo error.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval import stats
from sumeval.stats import levels
from sumeval.stats.layout import frame_layout

nc = pytest.importorskip("nlpstats.correlations")

COEFS = {"pearson": "pearson", "spearman": "spearman", "kendall": "kendall_b"}
LEVELS = ("input", "system", "global")


@pytest.fixture(autouse=True)
def _restore_global_random_state():
    state = np.random.get_state()
    yield
    np.random.set_state(state)


def _grids(seed: int, m: int = 8, n: int = 12, tied: bool = False, nan: bool = False):
    """X, Y (two measures), Z (human), shape (m systems, n inputs) as nlpstats wants them.
    ``tied``: values rounded (ties within and across measures); ``nan``: a few missing cells,
    at the same places in all three (nlpstats requires it)."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(m, 1)) + rng.normal(size=(m, n))
    X = Z + 1.5 * rng.normal(size=(m, n))
    Y = Z + 2.0 * rng.normal(size=(m, n))
    if tied:
        Z, X, Y = np.round(Z), np.round(X), np.round(2 * Y) / 2
    if nan:
        for i, j in [(0, 1), (3, 1), (5, 7), (2, 4)]:
            X[i, j] = Y[i, j] = Z[i, j] = np.nan
    return X, Y, Z


def _frame(X, Y, Z) -> pd.DataFrame:
    """The long frame of the grids: inputs in column order, systems in row order (so the
    frame's codes in order of first appearance are nlpstats' column / row indices)."""
    m, n = X.shape
    rows = [{"doc_id": f"d{j}", "system": f"s{i}", "x": X[i, j], "y": Y[i, j], "z": Z[i, j]}
            for j in range(n) for i in range(m)]
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------
# correlations at the three levels, Williams' test
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("tied, nan", [(False, False), (True, True)])
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("coef", list(COEFS))
def test_correlations_equal_nlpstats(level, coef, tied, nan):
    X, Y, Z = _grids(1, tied=tied, nan=nan)
    want = nc.correlate(X, Z, level, coef)
    got = stats.correlate(_frame(X, Y, Z), "x", "z", level=level, methods=COEFS[coef],
                          n_resamples=0)["value"].iloc[0]
    assert got == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("coef", list(COEFS))
def test_williams_equals_nlpstats(level, coef, alternative):
    X, Y, Z = _grids(2, m=9, n=15, tied=coef != "pearson", nan=True)
    want = nc.williams_test(X, Y, Z, level, coef, alternative).pvalue
    got = stats.williams_test(_frame(X, Y, Z), "x", "y", "z", level=level,
                              method=COEFS[coef], alternative=alternative)
    assert got["p_value"] == pytest.approx(want, abs=1e-9)
    assert got["test"] == "williams"


# ------------------------------------------------------------------------------------------
# bootstrap: the same resamples give the same replicates and intervals
# ------------------------------------------------------------------------------------------
def _replay_bootstrap(resample: str, m: int, n: int, B: int, seed: int) -> stats.Resamples:
    """The indices nlpstats.bootstrap draws after np.random.seed(seed)."""
    np.random.seed(seed)
    systems, inputs = [], []
    for _ in range(B):
        if resample in ("systems", "both"):
            systems.append(np.random.choice(m, m, replace=True))
        if resample in ("inputs", "both"):
            inputs.append(np.random.choice(n, n, replace=True))
    return stats.Resamples(resample, np.array(systems) if systems else None,
                           np.array(inputs) if inputs else None)


@pytest.mark.parametrize("resample", ["inputs", "systems", "both"])
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("coef", list(COEFS))
def test_bootstrap_identical_with_the_same_indices(resample, level, coef):
    # continuous scores: no two system means are equal, so no rank depends on how a sum of
    # equal values happened to round (a tie in exact arithmetic can round either way in either
    # implementation); the tied case at the other levels is the next test
    X, Y, Z = _grids(3)
    B, seed = 60, 11
    indices = _replay_bootstrap(resample, *X.shape, B, seed)
    np.random.seed(seed)
    want = nc.bootstrap(X, Z, level, coef, resample, n_resamples=B)
    frame = _frame(X, Y, Z)
    lay = frame_layout(frame, "doc_id", "system", True)
    est = levels.estimate_pair(lay, frame["x"].to_numpy(), frame["z"].to_numpy(), level,
                               [COEFS[coef]], levels.Draws.of(indices))[COEFS[coef]]
    replicates = est.boot[np.isfinite(est.boot)]
    np.testing.assert_allclose(replicates, want.samples, rtol=0, atol=1e-12)
    out = stats.correlate(frame, "x", "z", level=level, methods=COEFS[coef], resample=resample,
                          indices=indices)
    assert out["ci_low"].iloc[0] == pytest.approx(want.lower, abs=1e-12)
    assert out["ci_high"].iloc[0] == pytest.approx(want.upper, abs=1e-12)
    assert out["n_resamples"].iloc[0] == B and out["resampling"].iloc[0] == resample


@pytest.mark.parametrize("resample", ["inputs", "systems", "both"])
@pytest.mark.parametrize("level", ["input", "global"])
# the reference (nlpstats) warns where a resample's input has all its scores tied (an undefined correlation); the test
# asserts that both handle those the same way (the same interval, the same count of resamples used)
@pytest.mark.filterwarnings("ignore:An input array is constant:scipy.stats.ConstantInputWarning")
def test_bootstrap_identical_with_ties_and_missing_cells(resample, level):
    X, Y, Z = _grids(4, tied=True, nan=True)
    B, seed = 40, 5
    indices = _replay_bootstrap(resample, *X.shape, B, seed)
    frame = _frame(X, Y, Z)
    for coef, method in COEFS.items():
        np.random.seed(seed)
        want = nc.bootstrap(X, Z, level, coef, resample, n_resamples=B)
        out = stats.correlate(frame, "x", "z", level=level, methods=method, resample=resample,
                              indices=indices)
        assert out["ci_low"].iloc[0] == pytest.approx(want.lower, abs=1e-12), coef
        assert out["ci_high"].iloc[0] == pytest.approx(want.upper, abs=1e-12), coef
        assert out["n_resamples_used"].iloc[0] == len(want.samples)


@pytest.mark.parametrize("level", LEVELS)
def test_bootstrap_within_monte_carlo_error_of_nlpstats(level):
    # independent randomness: nlpstats' global np.random, sumeval's own generator. The 2.5% /
    # 97.5% quantiles of B = 1000 replicates have a standard error of about 0.06 standard
    # deviations of the replicates each; the difference of two independent runs ~0.09 sd: allow
    # 0.4 sd (more than 4 standard errors)
    X, Y, Z = _grids(5, m=8, n=8)
    np.random.seed(1)
    want = nc.bootstrap(X, Z, level, "pearson", "both", n_resamples=1000)
    out = stats.correlate(_frame(X, Y, Z), "x", "z", level=level, methods="pearson",
                          resample="both", n_resamples=1000, seed=2)
    sd = np.std(want.samples)
    assert abs(out["ci_low"].iloc[0] - want.lower) < 0.4 * sd
    assert abs(out["ci_high"].iloc[0] - want.upper) < 0.4 * sd


# ------------------------------------------------------------------------------------------
# permutation test: the same masks give the same permuted statistics and p-values
# ------------------------------------------------------------------------------------------
def _replay_permutations(resample: str, m: int, n: int, B: int, seed: int) -> np.ndarray:
    """The swap masks nlpstats.permutation_test draws after np.random.seed(seed), as sumeval's
    (B, n_inputs, n_systems) cell masks (systems swapped, then inputs: an XOR per cell)."""
    np.random.seed(seed)
    cells = np.zeros((B, n, m), dtype=bool)
    for b in range(B):
        if resample in ("systems", "both"):
            cells[b] ^= (np.random.rand(m, 1) > 0.5).reshape(m)[None, :]
        if resample in ("inputs", "both"):
            cells[b] ^= (np.random.rand(1, n) > 0.5).reshape(n)[:, None]
    return cells


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("resample", ["systems", "inputs", "both"])
@pytest.mark.parametrize("level", LEVELS)
def test_permutation_identical_with_the_same_masks(level, resample, tied):
    X, Y, Z = _grids(6, n=9, tied=tied, nan=tied)
    B, seed = 50, 3
    masks = _replay_permutations(resample, *X.shape, B, seed)
    frame = _frame(X, Y, Z)
    for coef, method in COEFS.items():
        np.random.seed(seed)
        want = nc.permutation_test(X, Y, Z, level, coef, resample, n_resamples=B)
        got = stats.permutation_test(frame, "x", "y", "z", level=level, method=method,
                                     resample=resample, masks=masks, return_samples=True)
        theirs = np.asarray(want.samples)
        if level == "system" and tied:
            # tied scores: two systems' permuted means can tie as numbers yet differ in the
            # last bit in nlpstats (np.nanmean's rounding), which then counts an order where
            # sumeval counts a tie. Where the samples differ, nlpstats must have met such a
            # near-tie, and sumeval's value must be the statistic with that tie made exact.
            theirs = _nlpstats_with_exact_ties(X, Y, Z, masks, coef, theirs)
        np.testing.assert_allclose(got["samples"], theirs, rtol=0, atol=1e-12)
        # p-values: nlpstats counts |d*| >= |d| in floating point; sumeval also counts the
        # permutations within 1e-12 of |d| (equal in exact arithmetic, which happens with
        # discrete statistics: Kendall, Spearman on few systems). Recount nlpstats' samples
        # with that rule: the p-values must then be identical ...
        observed = nc.correlate(*_standardised(X, Z), level, coef) - \
            nc.correlate(*_standardised(Y, Z), level, coef)
        recount = np.mean(np.abs(theirs) >= abs(observed) - 1e-12)
        assert got["p_value"] == recount, coef
        # ... and differ from nlpstats' own only by those near-ties
        near = np.mean(np.abs(np.abs(theirs) - abs(observed)) <= 1e-12)
        assert abs(got["p_value"] - want.pvalue) <= near + 1e-15, coef
        assert got["n_resamples_used"] == B and got["seed"] is None


def _nlpstats_with_exact_ties(X, Y, Z, masks, coef, theirs):
    """nlpstats' system-level permutation samples, recomputed where its permuted system means
    hold a near-tie (two means within 1e-12, equal in exact arithmetic) with that tie made exact:
    every mean rounded to 9 decimals before a rank coefficient (an independent rule, not sumeval's).
    The samples without a near-tie are returned as nlpstats gave them; returns a copy."""
    from scipy import stats as ss

    s = lambda v: (v - np.nanmean(v)) / np.nanstd(v)  # noqa: E731 - nlpstats' _standardize
    Xs, Ys, Zs = s(X), s(Y), s(Z)
    fn = {"pearson": lambda a, b: ss.pearsonr(a, b)[0], "spearman": lambda a, b: ss.spearmanr(a, b)[0],
          "kendall": lambda a, b: ss.kendalltau(a, b)[0]}[coef]
    mz = np.nanmean(Zs, axis=1)
    out = np.array(theirs, dtype=float, copy=True)
    recomputed = 0
    for b in range(masks.shape[0]):
        cell = masks[b].T  # (systems, inputs)
        mx = np.nanmean(np.where(cell, Ys, Xs), axis=1)
        my = np.nanmean(np.where(cell, Xs, Ys), axis=1)
        near = [v for v in (mx, my, mz) if np.any(np.abs(np.diff(np.sort(v))) <= 1e-12)]
        if near and coef != "pearson":  # Pearson does not see the order of tied values
            r = lambda v: np.round(v, 9)  # noqa: E731
            out[b] = fn(r(mx), r(mz)) - fn(r(my), r(mz))
            recomputed += 1
    assert recomputed < masks.shape[0] // 2, "near-ties should be the exception in these grids"
    return out


def _standardised(A, Z):
    s = lambda v: (v - np.nanmean(v)) / np.nanstd(v)  # noqa: E731 - nlpstats' _standardize
    return s(A), s(Z)


def test_permutation_identical_on_continuous_scores_without_near_ties():
    # continuous scores at the global level: no permuted statistic is within 1e-12 of the
    # observed one, so the p-values are nlpstats' exactly, for every alternative
    X, Y, Z = _grids(7, m=10, n=14)
    B, seed = 200, 9
    masks = _replay_permutations("both", *X.shape, B, seed)
    frame = _frame(X, Y, Z)
    for alternative in ("two-sided", "greater", "less"):
        for coef, method in COEFS.items():
            np.random.seed(seed)
            want = nc.permutation_test(X, Y, Z, "global", coef, "both",
                                       alternative=alternative, n_resamples=B)
            got = stats.permutation_test(frame, "x", "y", "z", level="global", method=method,
                                         masks=masks, alternative=alternative)
            assert got["p_value"] == want.pvalue, (alternative, coef)


@pytest.mark.parametrize("level", LEVELS)
def test_permutation_within_monte_carlo_error_of_nlpstats(level):
    # independent randomness, B = 800 permutations each: the standard error of each p is
    # sqrt(p (1 - p) / B) <= 0.018; the difference of two runs <= 0.025; allow 4 of them
    X, Y, Z = _grids(8, m=8, n=8)
    B = 800
    np.random.seed(4)
    want = nc.permutation_test(X, Y, Z, level, "pearson", "both", n_resamples=B)
    got = stats.permutation_test(_frame(X, Y, Z), "x", "y", "z", level=level,
                                 method="pearson", n_resamples=B, seed=4)
    p = (want.pvalue + got["p_value"]) / 2
    assert abs(got["p_value"] - want.pvalue) <= 4 * math.sqrt(2 * p * (1 - p) / B) + 1e-3
