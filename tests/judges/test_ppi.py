"""Prediction-powered inference of a mean (sumeval.judges.ppi).

HOW THE PINNED NUMBERS WERE OBTAINED (not computed by sumeval): ppi-python 0.2.3 (PyPI ``ppi-python``,
the reference implementation of Angelopoulos et al.) was installed in a scratch venv outside the project
(Python 3.11.7, numpy 2.4.6, scipy 1.17.1, statsmodels 0.15.0) and run on Y, YHAT, YU below:
``ppi_py.ppi_mean_ci(Y, YHAT, YU, alpha=a, lam=l)`` for a in (0.1, 0.05) and l in (None, 1, 0),
``ppi_py.baselines.classical_mean_ci(Y, alpha=a)``, ``ppi_py.ppi_mean_pointestimate(Y, YHAT, YU)``
(power-tuned) and with ``lam=1``, and ``ppi_mean_ci(Y, YHAT[::-1], YU, alpha=0.1)`` (a judge whose
tuned lambda is clipped to 0).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from sumeval.errors import InputError
from sumeval.judges.ppi import classical_mean_ci, label_curve, power_tuning_lambda, ppi_mean_ci

Y = np.array([3.0, 4.0, 2.0, 5.0, 3.0, 4.0, 1.0, 3.0])
YHAT = np.array([3.0, 5.0, 2.0, 4.0, 3.0, 4.0, 2.0, 2.0])
YU = np.array([4.0, 3.0, 5.0, 2.0, 3.0, 3.0, 4.0, 1.0, 5.0, 4.0, 3.0, 2.0])
PPI_PY = {  # (alpha, lam) -> ppi_mean_ci's (low, high)
    (0.1, None): (2.6346065981575033, 3.7267215268424967),
    (0.1, 1): (2.561226068091172, 3.938773931908828),
    (0.1, 0): (2.446965327867469, 3.803034672132531),
    (0.05, None): (2.5299964614052226, 3.8313316635947774),
    (0.05, 1): (2.4292752388956647, 4.070724761104335),
    (0.05, 0): (2.317071856197821, 3.932928143802179),
}
PPI_PY_CLASSICAL = {0.1: (2.446965327867469, 3.803034672132531), 0.05: (2.317071856197821, 3.932928143802179)}
PPI_PY_POINT = {None: 3.1806640625, 1: 3.25}
PPI_PY_NEGATIVE = (2.446965327867469, 3.803034672132531)


@pytest.mark.parametrize("alpha,lam", sorted(PPI_PY, key=str))
def test_equals_ppi_python(alpha, lam):
    est, lo, hi, _ = ppi_mean_ci(Y, YHAT, YU, alpha=alpha, lam=lam)
    assert lo == pytest.approx(PPI_PY[(alpha, lam)][0], abs=1e-12)
    assert hi == pytest.approx(PPI_PY[(alpha, lam)][1], abs=1e-12)
    if lam in PPI_PY_POINT:
        assert est == pytest.approx(PPI_PY_POINT[lam], abs=1e-12)
    _, clo, chi = classical_mean_ci(Y, alpha=alpha)
    assert (clo, chi) == pytest.approx(PPI_PY_CLASSICAL[alpha], abs=1e-12)
    _, nlo, nhi, lam_neg = ppi_mean_ci(Y, YHAT[::-1].copy(), YU, alpha=0.1)
    assert (nlo, nhi) == pytest.approx(PPI_PY_NEGATIVE, abs=1e-12) and lam_neg == 0.0


def test_by_hand():
    z = norm.ppf(0.975)
    # lambda = 1: y [1, 3], f [2, 2], f~ [1, 3]: theta = mean(f~) + mean(y - f) = 2 + 0 = 2;
    # se^2 = var(f~)/2 + var(y - f)/2 = 1/2 + 1/2 (divisor n): se = 1
    est, lo, hi, lam = ppi_mean_ci([1.0, 3.0], [2.0, 2.0], [1.0, 3.0], lam=1.0)
    assert est == 2.0 and lo == pytest.approx(2 - z) and hi == pytest.approx(2 + z) and lam == 1.0
    # power tuning: cov(y, f) = 0 -> lambda 0 -> the classical interval 2 -+ z * 1 / sqrt(2)
    est, lo, hi, lam = ppi_mean_ci([1.0, 3.0], [2.0, 2.0], [1.0, 3.0])
    assert lam == 0.0 and (lo, hi) == pytest.approx((2 - z / np.sqrt(2), 2 + z / np.sqrt(2)))
    # y [1, 3], f [1, 3], f~ [2, 4]: cov = ((-1)(-1) + 1 * 1)/2 = 1; var of [1, 3, 2, 4] (divisor 3) = 5/3;
    # n/N = 1: lambda = 1 / (2 * 5/3) = 0.3; theta = 0.3 * 3 + mean([0.7, 2.1]) = 2.3
    lam = power_tuning_lambda(np.array([1.0, 3.0]), np.array([1.0, 3.0]), np.array([2.0, 4.0]))
    assert lam == pytest.approx(0.3)
    est, *_ = ppi_mean_ci([1.0, 3.0], [1.0, 3.0], [2.0, 4.0])
    assert est == pytest.approx(2.3)
    # vectorised over leading axes: row by row the same
    rows = ppi_mean_ci(np.stack([Y, Y + 1]), np.stack([YHAT, YHAT]), np.stack([YU, YU]))
    assert rows[1][0] == pytest.approx(PPI_PY[(0.05, None)][0], abs=1e-12)
    # a constant judge (ppi_py divides by zero) gets lambda 0
    assert power_tuning_lambda(Y, np.full(8, 3.0), np.full(12, 3.0)) == 0.0


def _frame(n_docs: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for s, level in enumerate((2.0, 3.0, 4.0)):
            h = float(np.clip(np.round(level + rng.normal(0, 0.8)), 1, 5))
            rows.append({"doc_id": f"d{d}", "system": f"s{s}", "h": h, "same": h, "flat": 3.0,
                         "noisy": h + rng.normal(0, 2.0)})
    return pd.DataFrame(rows)


def test_label_curve():
    frame = _frame()
    out = label_curve(frame, "h", ["same", "flat", "noisy"], n_labels=(5, 20), n_repeats=300, seed=1)
    assert len(out) == 3 * 3 * 2 and set(out.n_items) == {40}
    by = out.set_index(["judge", "system", "n_labels"])
    for system in ("s0", "s1", "s2"):
        for n in (5, 20):
            same, flat = by.loc[("same", system, n)], by.loc[("flat", system, n)]
            # the human-only interval uses the same draws for every judge
            assert same.width_human == flat.width_human == by.loc[("noisy", system, n)].width_human
            # a constant judge: lambda 0, the human-only interval itself
            assert flat.lambda_mean == 0.0 and flat.width_ppi == pytest.approx(flat.width_human)
            assert flat.effective_n == pytest.approx(n)
            # a perfect judge narrows the interval: more labels' worth than n
            assert same.width_ppi < same.width_human and same.effective_n > n and same.lambda_mean > 0.3
    assert out.coverage_ppi.between(0.8, 1.0).all() and out.coverage_human.between(0.75, 1.0).all()
    plain = label_curve(frame, "h", "same", n_labels=(20,), n_repeats=50, power_tuning=False)
    assert (plain.lambda_mean == 1.0).all() and not plain.power_tuning.any()


def test_label_curve_bad_input():
    frame = _frame(n_docs=10)
    with pytest.raises(InputError, match="n_labels 10: system 's0' has 10 items"):
        label_curve(frame, "h", "same", n_labels=(10,))
    with pytest.raises(InputError, match="column 'gpt'"):
        label_curve(frame, "h", "gpt")
    with pytest.raises(InputError, match="alpha 1.5"):
        label_curve(frame, "h", "same", n_labels=(5,), alpha=1.5)
    with pytest.raises(InputError, match="n_labels must be an integer >= 2"):
        label_curve(frame, "h", "same", n_labels=(1,))
    with pytest.raises(InputError, match="finite scores"):
        ppi_mean_ci([1.0, np.nan], [1.0, 2.0], [3.0])


def test_ppi_widths_figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sumeval.plots.judges import ppi_widths

    curve = label_curve(_frame(), "h", ["same", "noisy"], n_labels=(5, 10, 20), n_repeats=20)
    fig, axes = ppi_widths(pd.concat([curve, curve.assign(human="h2")]))
    assert axes.shape == (2, 2)  # widths, and the measured coverage below them
    lines = axes[0, 0].get_lines()
    assert [ln.get_label() for ln in lines] == ["same", "noisy", "human labels only"]
    np.testing.assert_allclose(lines[2].get_ydata(), curve.groupby("n_labels")["width_human"].mean().to_numpy())
    assert "PPI++" in fig._suptitle.get_text()
    plt.close(fig)
