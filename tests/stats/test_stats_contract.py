"""The contract every registered coefficient and every registered measure keeps (after HF
evaluate's ``tests/test_metric_common.py``: one test over everything registered).

Coefficients (:mod:`sumeval.stats.coefficients`): each level (input, system, global, partial), the
bootstrap replicates and the permutation test agree with the coefficient's plain callable applied
by a naive loop; NaN drops a pair, a constant side gives NaN; symmetric; the rank ones invariant
under an increasing transform, the product-moment ones under scaling to the float range's ends.
A coefficient registered here (Kendall's tau-a: one function and one entry) runs through every
engine on its callable alone -- what adding a coefficient takes.

Measures (:mod:`sumeval.metrics`): one float per summary for each output column, the same twice,
every NaN with its reason.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.stats import COEFFICIENTS, METHODS, correlate, permutation_test
from sumeval.stats.coefficients import Coefficient, corr_rows, correlation, pair_value, register, unregister
from sumeval.stats.layout import frame_layout
from sumeval.stats.levels import Draws, estimate_pair
from sumeval.stats.partial import frame_control
from sumeval.stats.permutation import _standardise, permutation_masks
from sumeval.stats.ties import snap_ties
from sumeval.stats.undefined import MIN_SYSTEMS


def kendall_a(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-a (Kendall 1938, "A new measure of rank correlation", Biometrika 30, Eq. 1):
    (concordant - discordant pairs) / (n (n - 1) / 2), ties counting 0."""
    i, j = np.triu_indices(x.size, 1)
    return float((np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])).sum() / i.size)


@pytest.fixture(scope="module", autouse=True)
def tau_a():
    """The demonstration: a coefficient with nothing but its callable, registered for this module."""
    register(Coefficient("kendall_a", kendall_a, "Kendall tau-a", ranks=True,
                         source="Kendall (1938), Biometrika 30, Eq. 1"))
    yield
    unregister("kendall_a")


ALL = [*METHODS, "kendall_a"]
LEVELS = ("input", "system", "global", "partial")


def _frame(seed: int, n_docs: int = 6, n_sys: int = 5) -> pd.DataFrame:
    """Scores with ties (one decimal, integer humans), a few missing, one constant document."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            a = round(float(rng.normal()), 1)
            b = round(float(rng.normal() + 0.3 * a), 1)
            h = float(rng.integers(1, 6))
            rows.append({"doc_id": f"d{d}", "system": f"s{s}", "a": a, "b": b,
                         "h": 3.0 if d == n_docs - 1 else h})  # the last document: a constant human
    f = pd.DataFrame(rows)
    f.loc[[3, 11], "a"] = np.nan
    f.loc[[7], "h"] = np.nan
    return f


# -- the naive references: the plain callable, a loop, nothing else -------------------------------

def _pair(x, y, method, w=None):
    """The callable on the complete pairs, point i repeated w_i times."""
    w = np.ones(x.size) if w is None else np.asarray(w)
    keep = ~(np.isnan(x) | np.isnan(y)) & (w > 0)
    reps = w[keep].astype(int)
    x, y = np.repeat(x[keep], reps), np.repeat(y[keep], reps)
    if x.size < 2 or x.max() == x.min() or y.max() == y.min():
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(COEFFICIENTS[method].pair(x, y))


def _naive(gx, gy, level, method, wi=None, ws=None):
    """One level's value on grids (n_docs, n_sys), documents weighted wi, systems ws (None: 1)."""
    n_docs, n_sys = gx.shape
    wi = np.ones(n_docs) if wi is None else wi
    ws = np.ones(n_sys) if ws is None else ws
    both = ~(np.isnan(gx) | np.isnan(gy))
    gx, gy = np.where(both, gx, np.nan), np.where(both, gy, np.nan)
    if level == "input":  # the callable per document, the mean of the defined ones (drawn wi times)
        vals = np.array([_pair(gx[d], gy[d], method, ws) for d in range(n_docs)])
        ok = np.isfinite(vals) & (wi > 0)
        return float((wi[ok] * vals[ok]).sum() / wi[ok].sum()) if ok.any() else math.nan
    if level == "system":  # the per-system means over the drawn documents, then the callable
        k = wi @ both
        with np.errstate(invalid="ignore", divide="ignore"):
            mx = snap_ties((wi @ np.nan_to_num(gx)) / k)
            my = snap_ties((wi @ np.nan_to_num(gy)) / k)
        return _pair(mx, my, method, ws)
    w = (wi[:, None] * ws[None, :]).ravel()
    x, y = gx.ravel(), gy.ravel()
    if level == "global":
        return _pair(x, y, method, w)
    # partial, control = the system: the weighted mean of each system's rows taken out
    sys = np.tile(np.arange(n_sys), n_docs)
    keep = ~(np.isnan(x) | np.isnan(y)) & (w > 0)
    ex, ey = np.full(x.size, np.nan), np.full(y.size, np.nan)
    for s in range(n_sys):
        at = keep & (sys == s)
        if at.any():
            ex[at] = x[at] - (w[at] * x[at]).sum() / w[at].sum()
            ey[at] = y[at] - (w[at] * y[at]).sum() / w[at].sum()
    ex[keep], ey[keep] = snap_ties(ex[keep][None])[0], snap_ties(ey[keep][None])[0]
    return _pair(ex, ey, method, w)


def _grids(frame, *cols):
    lay = frame_layout(frame, "doc_id", "system", need_systems=True)
    return lay, [lay.grid(frame[c].to_numpy(dtype=float)) for c in cols]


def _close(got, want, tol=1e-9):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert np.array_equal(np.isnan(got), np.isnan(want)), (got, want)
    np.testing.assert_allclose(got[~np.isnan(got)], want[~np.isnan(want)], rtol=0, atol=tol)


# -- coefficients ---------------------------------------------------------------------------------

@pytest.mark.parametrize("method", ALL)
def test_levels_equal_the_callable(method):
    frame = _frame(1)
    lay, (ga, gh) = _grids(frame, "a", "h")
    got = correlate(frame, "a", "h", level=list(LEVELS), methods=[method], n_resamples=0)
    for level in LEVELS:
        want = _naive(ga, gh, level, method)
        if level == "system" and np.isfinite(np.nanmean(ga, axis=1)).sum() < MIN_SYSTEMS:
            want = math.nan
        _close(got.loc[got.level == level, "value"], [want], 1e-12)
    # the input level skips the constant document and counts it
    assert int(got.loc[got.level == "input", "n_skipped"].iloc[0]) >= 1


@pytest.mark.parametrize("method", ALL)
@pytest.mark.parametrize("axes", ["inputs", "systems", "both"])
def test_bootstrap_replicates_equal_the_callable(method, axes):
    frame = _frame(2)
    lay, (ga, gh) = _grids(frame, "a", "h")
    rng = np.random.default_rng(3)
    B = 12
    wi = rng.multinomial(lay.n_docs, np.full(lay.n_docs, 1 / lay.n_docs), size=B).astype(float) \
        if axes != "systems" else None
    ws = rng.multinomial(lay.n_sys, np.full(lay.n_sys, 1 / lay.n_sys), size=B).astype(float) \
        if axes != "inputs" else None
    x, y = frame["a"].to_numpy(dtype=float), frame["h"].to_numpy(dtype=float)
    control = frame_control(frame, "system")
    for level in LEVELS:
        boot = estimate_pair(lay, x, y, level, [method], Draws(wi, ws), control)[method].boot
        want = [_naive(ga, gh, level, method, None if wi is None else wi[b], None if ws is None else ws[b])
                for b in range(B)]
        _close(boot, want)


@pytest.mark.parametrize("method", ALL)
@pytest.mark.parametrize("level", LEVELS)
def test_permutation_test_equals_a_naive_loop(method, level):
    frame = _frame(4)
    frame["a"] = frame["a"] + np.random.default_rng(5).normal(0, 0.01, len(frame))  # no exact ties of d*
    lay, _ = _grids(frame, "a")
    common = ~frame[["a", "b", "h"]].isna().any(axis=1).to_numpy()
    gx, gy, gz = (_standardise(lay.grid(np.where(common, frame[c].to_numpy(dtype=float), np.nan)))
                  for c in ("a", "b", "h"))
    masks = permutation_masks(lay.n_sys, lay.n_docs, "both", 40, seed=6)
    got = permutation_test(frame, "a", "b", "h", level=level, method=method, masks=masks, return_samples=True)
    d0 = _naive(gx, gz, level, method) - _naive(gy, gz, level, method)
    want = np.array([_naive(np.where(m, gy, gx), gz, level, method) - _naive(np.where(m, gx, gy), gz, level, method)
                     for m in masks])
    _close(got["samples"], want)
    assert got["count"] == int((np.abs(want) >= abs(d0) - 1e-12).sum())
    naive_a = _naive(*_grids(frame.assign(a=np.where(common, frame.a, np.nan)), "a", "h")[1], level, method)
    naive_b = _naive(*_grids(frame.assign(b=np.where(common, frame.b, np.nan)), "b", "h")[1], level, method)
    assert got["diff"] == pytest.approx(naive_a - naive_b, abs=1e-12)


@pytest.mark.parametrize("method", ALL)
def test_rows_kernel_equals_the_callable(method):
    """The batched kernel (or the callable row by row), with and without multiplicities."""
    rng = np.random.default_rng(7)
    x = np.round(rng.normal(size=(30, 9)), 1)
    y = np.round(x + rng.normal(size=(30, 9)), 0)
    x[0, :3] = np.nan
    y[1] = 2.0  # a constant side
    x[2, 1:] = np.nan  # one pair left
    w = rng.integers(0, 3, size=(30, 9)).astype(float)
    _close(corr_rows(x, y, [method])[method], [_pair(x[r], y[r], method) for r in range(30)], 1e-12)
    _close(corr_rows(x, y, [method], weights=w)[method], [_pair(x[r], y[r], method, w[r]) for r in range(30)], 1e-12)


@pytest.mark.parametrize("method", ALL)
def test_nan_constant_symmetry_and_invariance(method):
    rng = np.random.default_rng(8)
    x = np.round(rng.normal(size=12), 1)
    y = np.round(x + rng.normal(size=12), 1)
    value = correlation(x, y, method)
    assert -1.0 <= value <= 1.0
    # NaN drops the pair
    assert correlation(np.append(x, [np.nan, 1.0]), np.append(y, [0.0, np.nan]), method) == value
    # a constant side, or fewer than 2 pairs: NaN, without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(correlation(x, np.full(12, 2.0), method))
        assert math.isnan(correlation(x[:1], y[:1], method))
    assert correlation(y, x, method) == pytest.approx(value, abs=1e-12)  # symmetric
    coef = COEFFICIENTS[method]
    if coef.ranks:  # ties by mid-rank: only the order counts
        assert correlation(np.exp(3 * x), y ** 3, method) == pytest.approx(value, abs=1e-12)
    else:  # scaled exactly: the same at the ends of the float range
        assert correlation(x * 2.0 ** 1000, y * 2.0 ** -1000, method) == pytest.approx(value, abs=1e-12)


def test_registry_names_and_refusals():
    assert set(METHODS) == {"pearson", "spearman", "kendall_b", "kendall_c"}
    assert "kendall_a" in COEFFICIENTS
    from sumeval.display_names import display

    assert [display(m) for m in ALL] == ["Pearson", "Spearman", "Kendall tau-b", "Kendall tau-c", "Kendall tau-a"]
    with pytest.raises(InputError, match="unknown correlation method 'tau'.*kendall_a"):
        pair_value(np.arange(3.0), np.arange(3.0), "pearson") and correlation([1, 2], [1, 2], "tau")
    with pytest.raises(InputError, match="already registered"):
        register(Coefficient("pearson", kendall_a, "x"))
    with pytest.raises(InputError, match="built in"):
        unregister("spearman")
    # REALSumm's selection needs a p-value, which tau-a does not offer
    frame = _frame(9)
    from sumeval.stats.input_rules import InputRule

    with pytest.raises(InputError, match="'kendall_a' has no p-value"):
        correlate(frame, "a", "h", level="input", methods=["kendall_a"], n_resamples=0,
                  input_rule=InputRule(significant=0.05))


# -- measures -------------------------------------------------------------------------------------

#: registered measures left out here, and why (each family has its own tests with its model)
MODEL_BASED = {
    "sumeval.metrics.bertscore": "BERTScore needs an encoder model (tests/metrics/test_metrics.py runs it)",
    "sumeval.similarity.scorers": "the ESTIME family reads a transformer's hidden layers "
                                  "(tests/similarity/test_similarity_scorers.py)",
    "sumeval.retrieval.scorers": "SERA needs a retrieval index over a corpus "
                                 "(tests/retrieval/test_retrieval_scorers.py)",
}
#: the measures without a model, scored here
CHEAP = ("sumeval.metrics.rouge", "sumeval.metrics.bleu", "sumeval.metrics.jensen_shannon",
         "sumeval.metrics.length", "sumeval.metrics.sentinels")


def _measures():
    from sumeval.metrics.registry import available

    return available()


def test_every_registered_measure_is_classified():
    """A new measure is either scored by the contract below or left out with a reason."""
    for info in _measures():
        module = info.target.split(":")[0]
        assert module in CHEAP or module in MODEL_BASED, f"classify {info.name} ({module}) in this file"


@pytest.mark.parametrize("name", [m.name for m in _measures() if m.target.split(":")[0] in CHEAP])
def test_measure_contract(name):
    """One float per summary for each output column, the same twice, each NaN with its reason."""
    from sumeval.metrics.base import Batch
    from sumeval.metrics.registry import get_scorer

    texts = ["The cat sat on the mat. It was warm and the dog slept nearby.",
             "Markets fell sharply on Monday after the bank raised rates.",
             "A storm closed the roads in the north for two days.", "Rain."]
    summaries = ["The cat sat on the mat.", "Markets fell after the rate rise.", "Storm closes roads.", "rain"]
    refs = [["A cat sat on a mat."], ["Markets fell on Monday.", "Stocks dropped."], ["Roads closed by a storm."],
            ["It rained."]]
    scorer = get_scorer(name)
    batch = Batch(summaries, texts if "text" in scorer.needs else None,
                  refs if "references" in scorer.needs else None)
    first = scorer.score_batch(batch)
    reasons = dict(getattr(first, "undefined", ()))  # a plain dict is a result without reasons
    second = get_scorer(name).score_batch(batch)
    assert list(first) == scorer.columns()
    for col, values in first.items():
        v = np.asarray(values)
        assert v.shape == (len(summaries),) and v.dtype == np.float64, (col, v)
        assert not np.isinf(v).any(), (col, v)
        assert np.array_equal(v, np.asarray(second[col]), equal_nan=True), (col, v, second[col])
        for row in np.flatnonzero(np.isnan(v)):
            assert reasons.get(int(row)), f"{name}: {col} is NaN in row {row} without a reason"
