"""The vectorised permutation test against the definitions applied to each swapped grid."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval import stats
from sumeval.errors import InputError
from sumeval.stats import METHODS, correlation, grouped, permutation_masks, permutation_test


def _frame(n_docs=6, n_sys=5, seed=0, nan=True) -> pd.DataFrame:
    """Continuous measure ``a``, integer measure ``b`` (ties), human ``h`` in halves (ties);
    without any tie: measures ``c``, ``d`` and human ``hc``. With ``nan``, two cells are missing
    in every column and one only in ``b``."""
    rng = np.random.default_rng(seed)
    q = rng.normal(size=n_sys)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            hc = q[s] + rng.normal()
            h = float(np.round(2 * hc) / 2)
            rows.append({"doc_id": f"d{d}", "system": f"s{s}", "h": h, "hc": hc,
                         "a": h + rng.normal(), "b": float(np.round(h + rng.normal())),
                         "c": hc + rng.normal(), "d": hc + 2 * rng.normal()})
    f = pd.DataFrame(rows)
    if nan:
        f.loc[[2, 13], ["a", "b", "h", "c", "d", "hc"]] = np.nan
        f.loc[[21], "b"] = np.nan
    return f


def _grid(frame: pd.DataFrame, col: str, common: np.ndarray) -> np.ndarray:
    """(n_docs, n_sys) grid of the standardised column over the common rows (frame order)."""
    n_sys = frame["system"].nunique()
    g = np.where(common, frame[col].to_numpy(), np.nan).reshape(-1, n_sys)
    return (g - np.nanmean(g)) / np.nanstd(g)


def _level_value(g: np.ndarray, z: np.ndarray, level: str, method: str) -> float:
    """The definitions, written out on a grid (n_docs, n_sys)."""
    if level == "global":
        return correlation(g.ravel(), z.ravel(), method)
    if level == "input":
        per_doc = np.array([correlation(g[d], z[d], method) for d in range(len(g))])
        return float(np.nanmean(per_doc)) if np.isfinite(per_doc).any() else math.nan
    return correlation(np.nanmean(g.T, axis=1), np.nanmean(z.T, axis=1), method)


@pytest.mark.parametrize("columns", [("a", "b", "h"), ("c", "d", "hc")])
@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.parametrize("level", ["input", "system", "global"])
def test_permuted_statistics_are_the_definitions_on_swapped_grids(monkeypatch, level, explicit,
                                                                  columns):
    # explicit=True: the pairwise matrices are judged too large and every permutation is
    # computed on the explicit swapped grids instead; the results must not change. Columns
    # with ties and missing cells, or without any tie (the kernels skip the tie terms)
    if explicit:
        monkeypatch.setattr(grouped, "_PAIR_MATRIX_ELEMENTS", 0)
    f = _frame()
    ca, cb, ch = columns
    masks = permutation_masks(5, 6, "both", 20, seed=1)
    common = f[[ca, cb, ch]].notna().all(axis=1).to_numpy()
    X, Y, Z = (_grid(f, c, common) for c in columns)
    for method in METHODS:
        res = permutation_test(f, ca, cb, ch, level=level, method=method, masks=masks,
                               return_samples=True)
        want = []
        for m in masks:
            want.append(_level_value(np.where(m, Y, X), Z, level, method)
                        - _level_value(np.where(m, X, Y), Z, level, method))
        np.testing.assert_allclose(res["samples"], want, atol=1e-12, rtol=0, err_msg=method)
        # the reported correlations are correlate()'s on the common rows
        ref = stats.correlate(f[common], [ca, cb], ch, level=level, methods=method, n_resamples=0)
        assert (res["corr_a"], res["corr_b"]) == pytest.approx(tuple(ref["value"]), abs=1e-12)


def test_masks_semantics_and_seed():
    sys_only = permutation_masks(4, 3, "systems", 50, seed=2)
    assert sys_only.shape == (50, 3, 4) and sys_only.dtype == bool
    assert (sys_only == sys_only[:, :1, :]).all()  # a system is swapped in every input
    inp_only = permutation_masks(4, 3, "inputs", 50, seed=2)
    assert (inp_only == inp_only[:, :, :1]).all()  # an input is swapped for every system
    both = permutation_masks(4, 3, "both", 50, seed=2)
    rng = np.random.default_rng(2)
    s = rng.random((50, 4)) < 0.5
    i = rng.random((50, 3)) < 0.5
    np.testing.assert_array_equal(both, s[:, None, :] ^ i[:, :, None])
    np.testing.assert_array_equal(both, permutation_masks(4, 3, "both", 50, seed=2))


def test_p_value_conventions():
    # two permutations: none swapped (d* = d) and all swapped (d* = -d, since swapping every
    # cell exchanges X and Y). two-sided: both |d*| >= |d| -> p = 2/2; d > 0 here, so
    # "greater" counts only the first (1/2) and "less" both (2/2)
    f = _frame(nan=False)
    f["noise"] = np.random.default_rng(3).normal(size=len(f))
    masks = np.stack([np.zeros((6, 5), bool), np.ones((6, 5), bool)])
    kw = dict(level="global", method="kendall_b", masks=masks)
    two = permutation_test(f, "a", "noise", "h", **kw)
    assert two["diff"] > 0
    assert two["p_value"] == 1.0 and two["n_resamples_used"] == 2
    assert permutation_test(f, "a", "noise", "h", alternative="greater", **kw)["p_value"] == 0.5
    assert permutation_test(f, "a", "noise", "h", alternative="less", **kw)["p_value"] == 1.0
    # p = the share of |d*| >= |d| among the drawn permutations (no +1)
    res = permutation_test(f, "a", "b", "h", level="input", method="pearson", n_resamples=300,
                           seed=5, return_samples=True)
    assert res["p_value"] == np.mean(np.abs(res["samples"]) >= abs(res["diff"]) - 1e-12)
    assert res["seed"] == 5 and res["resampling"] == "both" and res["test"] == "permutation"


def test_undefined_correlation_gives_no_p_value():
    # a constant measure has no correlation: no test (p NaN), rather than p = 0
    f = _frame(nan=False).assign(flat=1.0)
    res = permutation_test(f, "a", "flat", "h", level="global", method="spearman",
                           n_resamples=50)
    assert math.isnan(res["p_value"]) and math.isnan(res["corr_b"])
    assert res["n_resamples"] == 50 and res["n_resamples_used"] == 0


def test_standardisation_makes_the_test_scale_free():
    # a measure rescaled by a positive factor and shifted gives the same permuted statistics
    f = _frame(nan=False)
    g = f.assign(a=1000 * f["a"] + 7)
    for level in ("input", "system", "global"):
        r1 = permutation_test(f, "a", "b", "h", level=level, method="pearson", n_resamples=50,
                              return_samples=True)
        r2 = permutation_test(g, "a", "b", "h", level=level, method="pearson", n_resamples=50,
                              return_samples=True)
        np.testing.assert_allclose(r1["samples"], r2["samples"], atol=1e-12)


def test_early_stopping_after_blocks():
    rng = np.random.default_rng(0)
    rows = [{"doc_id": d, "system": s, "h": rng.normal() + s} for d in range(20)
            for s in range(8)]
    f = pd.DataFrame(rows)
    f["good"] = f["h"] + 0.1 * rng.normal(size=len(f))
    f["noise"] = rng.normal(size=len(f))
    f["twin"] = f["good"] + 1e-3 * rng.normal(size=len(f))
    kw = dict(level="global", method="pearson", n_resamples=1000, early_stop=100)
    clear = permutation_test(f, "good", "noise", "h", **kw)
    assert clear["n_resamples_used"] == 100 and clear["p_value"] < 0.02  # stopped: p clearly low
    same = permutation_test(f, "good", "twin", "h", **kw)
    assert same["n_resamples_used"] == 100 and same["p_value"] > 0.5  # stopped: clearly high
    full = permutation_test(f, "good", "noise", "h", level="global", method="pearson",
                            n_resamples=1000)
    assert full["n_resamples_used"] == 1000 and full["early_stop"] is None


def test_bad_input_is_named():
    f = _frame()
    kw = dict(level="global", method="pearson")
    with pytest.raises(InputError, match=r"masks.*\(n_resamples, 6 inputs, 5 systems\)"):
        permutation_test(f, "a", "b", "h", masks=np.zeros((3, 5, 6), bool), **kw)
    with pytest.raises(InputError, match=r"masks.*bool"):
        permutation_test(f, "a", "b", "h", masks=np.zeros((3, 6, 5)), **kw)
    with pytest.raises(InputError, match=r"unknown alternative 'bigger'"):
        permutation_test(f, "a", "b", "h", alternative="bigger", **kw)
    with pytest.raises(InputError, match=r"unknown resampling 'cells'"):
        permutation_test(f, "a", "b", "h", resample="cells", **kw)
    with pytest.raises(InputError, match=r"unknown correlation level 'corpus'"):
        permutation_test(f, "a", "b", "h", level="corpus", method="pearson")
    with pytest.raises(InputError, match=r"unknown correlation method 'tau'"):
        permutation_test(f, "a", "b", "h", level="global", method="tau")
    with pytest.raises(InputError, match=r"early_stop.*0"):
        permutation_test(f, "a", "b", "h", early_stop=0, **kw)
    with pytest.raises(InputError, match=r"'system' level.*2 system\(s\)"):
        two = f[f["system"].isin(["s0", "s1"])]
        permutation_test(two, "a", "b", "h", level="system", method="pearson")
    with pytest.raises(InputError, match=r"'a'.*infinite"):
        permutation_test(f.assign(a=np.inf), "a", "b", "h", **kw)
