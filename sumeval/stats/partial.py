"""Partial correlation: a measure's correlation with the human scores once a control variable is
regressed out of both -- the ``partial`` level.

FRANK (Pagnoni, Balachandran & Tsvetkov, NAACL 2021, "Understanding Factuality in Abstractive
Summarization with FRANK", Sec. 5, "partial correlation") controls for the summarising system:
its ``evaluation/evaluate.py`` (artidoro/frank 80a88fb1, ``human_metric_correlation``) one-hot
encodes ``model_name``, fits a least-squares linear regression (with intercept) of the measure on
it and one of the human score on it, over the rows where both are present, and correlates the
residuals with scipy's ``pearsonr`` and ``spearmanr``. Its Spearman is therefore the Pearson
correlation of the **ranks of the residuals** (not the residuals of the ranks); sumeval follows
it, and applies Kendall's tau-b / tau-c to the same residuals.

Formula (one implementation, :func:`residualise`): with weights w_i (1 for the point estimate, a
point's bootstrap multiplicity in a resample),

- control ``system`` (one-hot of the system, the regression's projection): e_i = v_i - the
  weighted mean of v over the rows of i's system (least squares on a one-hot design with an
  intercept predicts the group mean, whichever of the collinear solutions is taken);
- control a numeric column c (e.g. the summary's length, "does the measure say more than
  length?"): e_i = v_i - a - b c_i with (a, b) the weighted least-squares line of v on c
  (b = cov_w(c, v) / var_w(c); b = 0 when c is constant: the regression on the intercept alone);

then r = coefficient(e_x, e_y) over the rows used (residuals equal in exact arithmetic made exactly
equal first, :func:`~sumeval.stats.ties.snap_ties`: FRANK's scikit-learn regression leaves them a
rounding apart, which moves its Spearman on FRANK by up to 2.3e-6 for 3 of its 45 values). A side whose
residuals vanish (the measure is
a function of the control, e.g. constant within every system) leaves the partial correlation
undefined (NaN), as a constant side does at the other levels.

Bootstrap and permutation tests resample as at the global level (the rows of the drawn inputs /
systems; the measures' scores swapped per cell) and **redo the regression in each resample**, so
the intervals and tests include the uncertainty of the regressed-out part.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats import checks
from sumeval.stats.coefficients import corr_rows, pair_value
from sumeval.stats.ties import snap_ties

__all__ = ["CONTROLS", "Control", "frame_control", "grid_control", "residualise", "partial_estimate", "partial_rows"]

#: ``partial_control`` by name: ``system`` (one-hot of the system column, FRANK's control) or the
#: name of a numeric column of the frame (a linear covariate, e.g. ``length``).
CONTROLS = ("system", "length")

# A side whose residual sum of squares is below this share of its raw centred sum of squares is a
# function of the control: its partial correlation is undefined.
_VANISHED = 1e-24


@dataclass(frozen=True)
class Control:
    """What a partial correlation regresses out, per row of the frame (N,): ``codes`` (group code
    of each row, for a one-hot control) or ``values`` (a numeric covariate, NaN excludes the
    row). ``name`` is what the caller asked for (``system`` or a column name)."""

    name: str
    codes: np.ndarray | None = None
    n_groups: int = 0
    values: np.ndarray | None = None

    def present(self) -> np.ndarray:
        """(N,) True where the control is known."""
        if self.values is not None:
            return ~np.isnan(self.values)
        return np.ones(self.codes.size, dtype=bool)

    def subset(self, keep: np.ndarray) -> "Control":
        if self.values is not None:
            return Control(self.name, values=self.values[keep])
        return Control(self.name, codes=self.codes[keep], n_groups=self.n_groups)


def frame_control(frame: pd.DataFrame, control: str, system_col: str = "system") -> Control:
    """The :class:`Control` named ``control`` for the rows of ``frame``: ``"system"`` one-hot
    codes the ``system_col`` column; any other name is a numeric column of the frame."""
    if not isinstance(control, str) or not control:
        raise InputError(f"partial_control must be 'system' or the name of a numeric column, got {control!r}")
    if control == "system":
        checks.check_columns(frame, [system_col], "the system, partial_control='system'")
        codes, ids = pd.factorize(frame[system_col], use_na_sentinel=True)
        if (codes < 0).any():
            raise InputError(f"column {system_col!r} has {int((codes < 0).sum())} missing system id(s); the "
                             "partial level with partial_control='system' needs a system on every row")
        return Control("system", codes=codes.astype(np.int64), n_groups=len(ids))
    if control not in frame.columns:
        raise InputError(f"partial_control {control!r} is neither 'system' nor a column of the frame (its columns: "
                         f"{[str(c) for c in frame.columns]}); add the column (e.g. the summary lengths) or use "
                         "'system'")
    return Control(control, values=checks.frame_column(frame, control))


def grid_control(control: Control, lay, keep: np.ndarray) -> Control:
    """The control of the cells of ``lay``'s (documents x systems) grid, flattened, where
    ``keep`` (n_docs * n_systems,) is True (the codes are the layout's system codes: both
    number the systems in order of first appearance)."""
    if control.values is None:
        return Control(control.name, codes=np.tile(np.arange(lay.n_sys), lay.n_docs)[keep],
                       n_groups=lay.n_sys)
    return Control(control.name, values=lay.grid(control.values).ravel()[keep])


def residualise(v: np.ndarray, control: Control, w: np.ndarray | None = None) -> np.ndarray:
    """Residuals of rows of values after the weighted least-squares regression on the control
    (module docstring: the formula).

    Args:
        v: shape (R, n) values (finite where w > 0).
        control: over the same n points.
        w: shape (R, n) non-negative weights, or None for 1 everywhere.

    Returns:
        shape (R, n): the residuals (0 where w is 0). Residuals that differ only by rounding are
        made exactly equal (:func:`~sumeval.stats.ties.snap_ties`, per row), so that the rank
        coefficients count a tie of exact arithmetic as a tie whatever the order of summation
        (a group mean, like a system mean, is a sum of floats over a count).
    """
    v = np.asarray(v, dtype=np.float64)
    R, n = v.shape
    w = np.ones((R, n)) if w is None else np.asarray(w, dtype=np.float64)
    v0 = np.where(w > 0, v, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        if control.values is None:
            from scipy import sparse

            onehot = sparse.csr_matrix((np.ones(n), (np.arange(n), control.codes)),
                                       shape=(n, control.n_groups))
            total = np.asarray((onehot.T @ (w * v0).T).T)  # (R, groups)
            count = np.asarray((onehot.T @ w.T).T)
            means = np.where(count > 0, total / count, 0.0)
            fitted = means[:, control.codes]
        else:
            c = np.where(w > 0, control.values[None, :], 0.0)
            sw = w.sum(axis=1, keepdims=True)
            mc = (w * c).sum(axis=1, keepdims=True) / sw
            mv = (w * v0).sum(axis=1, keepdims=True) / sw
            dc = c - mc
            scc = (w * dc * dc).sum(axis=1, keepdims=True)
            scv = (w * dc * (v0 - mv)).sum(axis=1, keepdims=True)
            slope = np.where(scc > 0, scv / scc, 0.0)
            fitted = mv + slope * dc
    return np.nan_to_num(snap_ties(np.where(w > 0, v0 - fitted, np.nan)), nan=0.0)


def _vanished(res: np.ndarray, raw: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(R,) True where the residuals are nothing but rounding of a side that the control explains."""
    raw0 = np.where(w > 0, raw, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (w * raw0).sum(axis=1, keepdims=True) / w.sum(axis=1, keepdims=True)
    ss_raw = (w * (raw0 - mean) ** 2).sum(axis=1)
    ss_res = (w * res * res).sum(axis=1)
    return ~(ss_res > _VANISHED * ss_raw)


def partial_rows(x: np.ndarray, y: np.ndarray, control: Control, w: np.ndarray,
                 methods: Sequence[str]) -> dict[str, np.ndarray]:
    """Partial correlations of x and y ((n,) or (R, n): per row, as a permutation swaps them)
    given ``control``, in each row of weights w (R, n) (a bootstrap multiplicity or 0/1 per
    point); ``{method: (R,)}``, NaN where undefined."""
    xs = np.broadcast_to(x, w.shape)
    ys = np.broadcast_to(y, w.shape)
    ex, ey = residualise(xs, control, w), residualise(ys, control, w)
    out = corr_rows(np.where(w > 0, ex, np.nan), np.where(w > 0, ey, np.nan), methods, weights=w)
    bad = _vanished(ex, xs, w) | _vanished(ey, ys, w)
    for m in methods:
        out[m] = np.where(bad, np.nan, out[m])
    return out


def partial_estimate(x: np.ndarray, y: np.ndarray, control: Control, methods: Sequence[str],
                     weights=None) -> tuple[dict[str, float], dict[str, np.ndarray], int]:
    """The partial correlation of x and y (N,) given ``control`` over the rows where x, y and the
    control are present: ``({method: value}, {method: (B,) replicates}, n used)``.

    ``weights``: None (no bootstrap) or an object whose ``[s:e]`` gives the multiplicities
    (e - s, n_used) of the used rows in resamples s..e and whose ``shape`` is (B, n_used).
    The point estimate is scipy's coefficient on the residuals (as FRANK's evaluate.py).
    """
    keep = ~(np.isnan(x) | np.isnan(y)) & control.present()
    xv, yv, cv = x[keep], y[keep], control.subset(keep)
    n = int(keep.sum())
    values: dict[str, float] = {}
    if n < 2:
        values = {m: math.nan for m in methods}
    else:
        one = np.ones((1, n))
        ex, ey = residualise(xv[None], cv, one)[0], residualise(yv[None], cv, one)[0]
        undefined = bool(_vanished(ex[None], xv[None], one)[0] | _vanished(ey[None], yv[None], one)[0])
        values = {m: math.nan if undefined else pair_value(ex, ey, m) for m in methods}
    boots: dict[str, np.ndarray] = {}
    if weights is not None:
        B = weights.shape[0]
        if n < 2:
            return values, {m: np.full(B, np.nan) for m in methods}, n
        step = max(1, checks.BLOCK_ELEMENTS // max(n, 1))
        parts = [partial_rows(xv, yv, cv, np.asarray(weights[s:s + step], dtype=np.float64), methods)
                 for s in range(0, B, step)]
        boots = {m: np.concatenate([p[m] for p in parts]) for m in methods}
    return values, boots, n
