"""Row kernels with multiplicities and bootstrap resampling of systems, inputs or both, against
the plain definitions applied to the explicitly resampled frame."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau, rankdata

from sumeval import stats
from sumeval.errors import InputError
from sumeval.stats import METHODS, checks, correlate, correlation, kendall_tau_rows, levels, paired_test, pooled
from sumeval.stats.coefficients import corr_rows
from sumeval.stats.layout import frame_layout
from sumeval.stats.rows import ranks_rows


# ------------------------------------------------------------------------------------------
# row kernels
# ------------------------------------------------------------------------------------------
def test_kendall_tau_rows_equals_scipy_per_row():
    # x = [1, 2, 2, 3, 4], y = [2, 1, 3, 3, 4] (test_stats.py's hand example): tau-b = 2/3,
    # tau-c = 0.64; a second row with a NaN pair and a third, constant row
    x = np.array([[1, 2, 2, 3, 4], [1, 5, 2, np.nan, 3], [2, 2, 2, 2, 2]], dtype=float)
    y = np.array([[2, 1, 3, 3, 4], [2, 4, 4, 1, 0], [1, 2, 3, 4, 5]], dtype=float)
    tb, tc = kendall_tau_rows(x, y)
    assert tb[0] == pytest.approx(2 / 3, abs=1e-12) and tc[0] == pytest.approx(0.64, abs=1e-12)
    keep = ~np.isnan(x[1])
    assert tb[1] == pytest.approx(kendalltau(x[1][keep], y[1][keep]).statistic, abs=1e-12)
    assert tc[1] == pytest.approx(kendalltau(x[1][keep], y[1][keep], variant="c").statistic,
                                  abs=1e-12)
    assert math.isnan(tb[2]) and math.isnan(tc[2])
    with pytest.raises(InputError, match=r"\(2, 5\).*\(3, 5\)"):
        kendall_tau_rows(x[:2], y)


@pytest.mark.parametrize("block", [2_000_000, 50])
def test_weighted_rows_equal_scipy_on_the_expanded_rows(monkeypatch, block):
    # weight w_i = point i counted w_i times (a system drawn w_i times): every coefficient equals
    # scipy on np.repeat(x, w); block = 50 forces the chunked pair arrays
    monkeypatch.setattr(checks, "BLOCK_ELEMENTS", block)
    rng = np.random.default_rng(2)
    x = rng.integers(0, 4, size=(30, 6)).astype(float)
    y = rng.integers(0, 3, size=(30, 6)) + 0.5 * rng.integers(0, 2, size=(30, 6))
    x[rng.random(x.shape) < 0.15] = np.nan
    w = rng.integers(0, 4, size=(30, 6)).astype(float)
    got = corr_rows(x, y, METHODS, weights=w)
    for m in METHODS:
        want = []
        for i in range(len(x)):
            keep = ~np.isnan(x[i])
            reps = w[i][keep].astype(int)
            want.append(correlation(np.repeat(x[i][keep], reps), np.repeat(y[i][keep], reps), m))
        np.testing.assert_allclose(got[m], want, atol=1e-12, equal_nan=True)


def test_weighted_mid_ranks():
    # x = [3, 1, 3, nan], w = [2, 1, 1, 5]: expanded sample 3, 3, 1, 3 -> ranks 1 for the 1 and
    # (2 + 3 + 4) / 3 = 3 for each 3; the NaN point has no rank
    r = ranks_rows(np.array([[3.0, 1.0, 3.0, np.nan]]), np.array([[2.0, 1.0, 1.0, 5.0]]))
    np.testing.assert_array_equal(r, [[3.0, 1.0, 3.0, np.nan]])
    x = np.random.default_rng(0).integers(0, 5, size=(7, 9)).astype(float)
    np.testing.assert_array_equal(ranks_rows(x), rankdata(x, axis=1))


# ------------------------------------------------------------------------------------------
# the draws
# ------------------------------------------------------------------------------------------
def test_inputs_draws_are_the_ones_sumeval_always_used():
    from sumeval.stats.resampling import _resample_counts

    rs = stats.resample_indices(5, 12, "inputs", 40, seed=3)
    assert rs.systems is None and rs.n_resamples == 40
    np.testing.assert_array_equal(rs.input_counts(), _resample_counts(12, 40, 3))
    np.testing.assert_array_equal(rs.inputs, np.random.default_rng(3).integers(0, 12, (40, 12)))


def test_both_draws_systems_then_inputs():
    rs = stats.resample_indices(5, 12, "both", 40, seed=np.random.default_rng(8))
    rng = np.random.default_rng(8)
    np.testing.assert_array_equal(rs.systems, rng.integers(0, 5, (40, 5)))
    np.testing.assert_array_equal(rs.inputs, rng.integers(0, 12, (40, 12)))
    assert (rs.system_counts().sum(axis=1) == 5).all()


def test_given_indices_are_checked():
    f = _frame(n_docs=6, n_sys=4)
    good = stats.resample_indices(4, 6, "systems", 10, seed=0)
    with pytest.raises(InputError, match=r"resample 'systems' but resample='inputs'"):
        correlate(f, "good", "h", level="global", indices=good)
    with pytest.raises(InputError, match=r"indices.systems.*shape \(n_resamples, 4\)"):
        correlate(f, "good", "h", level="global", resample="systems",
                  indices=stats.Resamples("systems", np.zeros((10, 3), dtype=int), None))
    with pytest.raises(InputError, match=r"\[0, 6\).*7"):
        correlate(f, "good", "h", level="global", resample="inputs",
                  indices=stats.Resamples("inputs", None, np.full((10, 6), 7)))
    with pytest.raises(InputError, match=r"10 and 9 resamples"):
        correlate(f, "good", "h", level="global", resample="both",
                  indices=stats.Resamples("both", np.zeros((10, 4), dtype=int),
                                          np.zeros((9, 6), dtype=int)))
    with pytest.raises(InputError, match=r"unknown resampling 'documents'"):
        correlate(f, "good", "h", level="global", resample="documents")
    with pytest.raises(InputError, match=r"n_resamples.*>= 1"):
        stats.resample_indices(4, 6, "both", 0)


# ------------------------------------------------------------------------------------------
# resampling against the explicitly resampled frame
# ------------------------------------------------------------------------------------------
def _frame(n_docs=7, n_sys=5, seed=0, nan=True) -> pd.DataFrame:
    """Human scores in quarters (ties), a continuous and an integer metric. Quarters and
    integers add up exactly in floating point, so per-system means that are equal in exact
    arithmetic are equal bit for bit, whatever the order of summation (with tenths, two equal
    means can round apart and break a tie differently in two implementations)."""
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=n_sys)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            h = float(np.round(4 * (quality[s] + rng.normal())) / 4)
            rows.append({"doc_id": f"d{d}", "system": f"s{s}", "h": h,
                         "good": h + rng.normal(scale=0.5), "tied": float(rng.integers(0, 3))})
    f = pd.DataFrame(rows)
    if nan:
        f.loc[[3, 11], "h"] = np.nan
        f.loc[[17], "tied"] = np.nan
    return f


def _expanded(frame: pd.DataFrame, sys_idx, doc_idx) -> pd.DataFrame:
    """The resampled frame: the k-th drawn input and the m-th drawn system are new, distinct
    ids (a copy of a document or system is another document or system)."""
    docs = frame["doc_id"].unique()
    systems = frame["system"].unique()
    sys_idx = range(len(systems)) if sys_idx is None else sys_idx
    doc_idx = range(len(docs)) if doc_idx is None else doc_idx
    cells = frame.set_index(["doc_id", "system"])
    rows = []
    for k, d in enumerate(doc_idx):
        for m, s in enumerate(sys_idx):
            key = (docs[d], systems[s])
            if key in cells.index:
                rows.append({**cells.loc[key].to_dict(), "doc_id": f"{k}", "system": f"{m}"})
    return pd.DataFrame(rows)


def _definitions(res: pd.DataFrame, col: str, level: str,
                 methods=METHODS) -> dict[str, float]:
    """The level's definition on a (resampled) frame, written out, per method: pooled pairs; the
    mean of per-document correlations; the correlation of per-system means (pandas' group
    means: the copies of one system get the same bits, so their tie is kept)."""
    res = res.dropna(subset=[col, "h"])
    if level == "global":
        return {m: correlation(res[col], res["h"], m) for m in methods}
    if level == "input":
        groups = [g for _, g in res.groupby("doc_id")]
        out = {}
        for m in methods:
            per_doc = [correlation(g[col], g["h"], m) for g in groups]
            out[m] = float(np.nanmean(per_doc)) if np.isfinite(per_doc).any() else math.nan
        return out
    means = res.groupby("system")[[col, "h"]].mean()
    return {m: correlation(means[col], means["h"], m) for m in methods}


@pytest.mark.parametrize("resample", ["systems", "both", "inputs"])
def test_resampled_correlations_are_the_definitions_on_the_resampled_frame(resample):
    frame = _frame()
    rs = stats.resample_indices(5, 7, resample, 15, seed=4)
    lay = frame_layout(frame, "doc_id", "system", True)
    for level in ("input", "system", "global"):
        for col in ("good", "tied"):
            est = levels.estimate_pair(lay, frame[col].to_numpy(), frame["h"].to_numpy(), level,
                                       METHODS, levels.Draws.of(rs))
            for b in range(rs.n_resamples):
                res = _expanded(frame, None if rs.systems is None else rs.systems[b],
                                None if rs.inputs is None else rs.inputs[b])
                want = _definitions(res, col, level)
                for m in METHODS:
                    assert est[m].boot[b] == pytest.approx(want[m], abs=1e-12, nan_ok=True), \
                        (level, col, m, b)


@pytest.mark.parametrize("resample", ["systems", "both"])
@pytest.mark.parametrize("level", ["input", "system", "global"])
def test_paired_test_resamples_systems(resample, level):
    frame = _frame(n_docs=6, n_sys=6, seed=3, nan=False)
    rs = stats.resample_indices(6, 6, resample, 30, seed=2)
    diffs = []
    for b in range(30):
        res = _expanded(frame, rs.systems[b], None if rs.inputs is None else rs.inputs[b])
        res = res.dropna(subset=["good", "tied", "h"])  # the rows both metrics share
        if level == "input":  # the documents where both correlations are defined
            per_doc = np.array([[correlation(g[c], g["h"], "spearman") for c in ("good", "tied")]
                                for _, g in res.groupby("doc_id")])
            ok = np.isfinite(per_doc).all(axis=1)
            diffs.append((per_doc[ok, 0] - per_doc[ok, 1]).mean() if ok.any() else math.nan)
        else:
            diffs.append(_definitions(res, "good", level, ["spearman"])["spearman"]
                         - _definitions(res, "tied", level, ["spearman"])["spearman"])
    got = paired_test(frame, "good", "tied", "h", level=level, method="spearman",
                      resample=resample, indices=rs, ci=0.8)
    d = np.array(diffs)
    d = d[np.isfinite(d)]
    lo, hi = np.quantile(d, [0.1, 0.9])
    assert (got["ci_low"], got["ci_high"]) == pytest.approx((lo, hi), abs=1e-12)
    assert got["resampling"] == resample and got["n_resamples_used"] == d.size
    assert got["seed"] is None  # indices given


def test_global_both_matrix_and_scipy_paths_agree(monkeypatch):
    frame = _frame(n_docs=5, n_sys=6, seed=1)
    kw = dict(level="global", methods=["kendall_b", "kendall_c"], resample="both", n_resamples=40,
              seed=9)
    matrix = correlate(frame, ["good", "tied"], "h", **kw)
    monkeypatch.setattr(levels, "_CELL_MATRIX_ELEMENTS", 0)
    loop = correlate(frame, ["good", "tied"], "h", **kw)
    pd.testing.assert_frame_equal(matrix, loop, atol=1e-12, rtol=0)
    monkeypatch.setattr(pooled, "_KENDALL_PATH", "matrix")
    monkeypatch.setattr(checks, "BLOCK_ELEMENTS", 60)  # many chunks of resamples and rows
    chunked = correlate(frame, ["good", "tied"], "h", **kw)
    pd.testing.assert_frame_equal(matrix, chunked, atol=1e-12, rtol=0)


def test_correlate_records_the_resampling():
    out = correlate(_frame(), "good", "h", level=["input", "global"], methods="pearson",
                    resample="both", n_resamples=30, seed=2)
    assert list(out["level"]) == ["input", "global"]  # the names given
    assert set(out["resampling"]) == {"both"} and set(out["n_resamples"]) == {30}
    assert (out["n_resamples_used"] <= 30).all() and set(out["seed"]) == {2}
    assert out.attrs["resample"] == "both"


def test_too_few_systems_for_the_system_level():
    two = _frame(n_docs=10, n_sys=2)
    with pytest.raises(InputError, match=r"'system' level.*2 system\(s\).*at least 3"):
        correlate(two, "good", "h", level="system", n_resamples=0)
    with pytest.raises(InputError, match=r"2 system\(s\)"):
        paired_test(two, "good", "tied", "h", level="system", method="pearson")
    # the other levels work with 2 systems
    assert np.isfinite(correlate(two, "good", "h", level="global", n_resamples=0)["value"]).all()
