"""Why a correlation is undefined: the reason that goes with a NaN in a meta-evaluation's outputs.

A correlation of a measure column with a human column at one level (:mod:`sumeval.stats`) is
undefined (NaN) when

- **global**: fewer than 2 rows have both values, or one side is constant over those rows;
- **system**: fewer than 3 systems have a row with both values (two points always correlate
  +-1, so :func:`~sumeval.stats.correlate` gives NaN there too), or the per-system means of one
  side are all equal;
- **input**: no input has a defined correlation: in each input fewer than 2 systems have both
  values, or one side is constant across its systems;
- **partial**: fewer than 2 rows have both values and the control, or the control explains one
  side entirely (no residual: :mod:`sumeval.stats.partial`).

:func:`undefined_reason` says which, in words that name the columns and the counts; it returns
``""`` for a defined correlation. Only the rows where both columns are present count
(pairwise-complete), as in :func:`~sumeval.stats.correlate`.
"""
from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pandas as pd

from sumeval.stats.checks import canonical_level, frame_column
from sumeval.stats.layout import frame_layout
from sumeval.stats.levels import system_means

__all__ = ["MIN_SYSTEMS", "undefined_reason"]

#: The fewest systems a system-level correlation is computed over (2 points always give +-1).
MIN_SYSTEMS = 3


def _constant(values: np.ndarray) -> bool:
    return values.size > 0 and bool(np.nanmax(values) == np.nanmin(values))


def _global(x: np.ndarray, y: np.ndarray, metric: str, human: str) -> str:
    keep = ~(np.isnan(x) | np.isnan(y))
    n = int(keep.sum())
    if n < 2:
        return (f"only {n} row(s) have both {metric!r} and {human!r}; a correlation needs at "
                "least 2")
    for name, v in ((metric, x[keep]), (human, y[keep])):
        if _constant(v):
            return f"{name!r} is constant ({v[0]:.6g}) on the {n} rows where both are present"
    return ""


def _system(gx: np.ndarray, gy: np.ndarray, metric: str, human: str) -> str:
    means = system_means(gx, gy, np.ones((1, gx.shape[0])))  # as the system level computes them
    mx, my = means[0][0], means[1][0]
    ok = np.isfinite(mx) & np.isfinite(my)
    used = int(ok.sum())
    if used < MIN_SYSTEMS:
        return (f"only {used} system(s) have a row with both {metric!r} and {human!r}; the system "
                f"level needs at least {MIN_SYSTEMS} (two points always correlate +-1)")
    for name, v in ((metric, mx[ok]), (human, my[ok])):
        if _constant(v):
            return (f"the system means of {name!r} are all equal ({v[0]:.6g}) over the {used} "
                    "systems")
    return ""


def _input(gx: np.ndarray, gy: np.ndarray, metric: str, human: str) -> str:
    with _quiet():
        count = (~np.isnan(gx)).sum(axis=1)
        flat_x = np.nanmax(gx, axis=1) == np.nanmin(gx, axis=1)
        flat_y = np.nanmax(gy, axis=1) == np.nanmin(gy, axis=1)
    few = count < 2
    cx = ~few & flat_x
    cy = ~few & ~flat_x & flat_y
    if (~few & ~flat_x & ~flat_y).any():
        return ""
    parts = [(int(few.sum()), f"with fewer than 2 systems having both {metric!r} and {human!r}"),
             (int(cx.sum()), f"where {metric!r} is constant across the systems"),
             (int(cy.sum()), f"where {human!r} is constant across the systems")]
    said = "; ".join(f"{k} {what}" for k, what in parts if k)
    return f"undefined in every one of the {gx.shape[0]} inputs ({said})"


@contextlib.contextmanager
def _quiet():
    """Silences numpy's "All-NaN slice" / "Mean of empty slice" warnings."""
    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _partial(frame: pd.DataFrame, x: np.ndarray, y: np.ndarray, metric: str, human: str,
             partial_control: str, system_col: str) -> str:
    from sumeval.stats.partial import frame_control, partial_estimate

    control = frame_control(frame, partial_control, system_col)
    keep = ~(np.isnan(x) | np.isnan(y)) & control.present()
    n = int(keep.sum())
    if n < 2:
        return (f"only {n} row(s) have {metric!r}, {human!r} and the control {partial_control!r}; a partial "
                "correlation needs at least 2")
    for name, v in ((metric, x), (human, y)):
        value = partial_estimate(v, v, control, ["pearson"])[0]["pearson"]
        if not np.isfinite(value) and np.isfinite(v[keep]).all():
            return (f"{name!r} is explained by the control {partial_control!r} on the {n} rows used (constant "
                    f"{'within every system' if control.values is None else 'or a straight line of it'}): no "
                    "residual to correlate")
    return ""


def undefined_reason(frame: pd.DataFrame, metric: str, human: str, level: str, *,
                     doc_col: str = "doc_id", system_col: str = "system",
                     partial_control: str = "system") -> str:
    """Why the correlation of ``metric`` with ``human`` at ``level`` is undefined ("" if it is not).

    Args:
        frame: one row per (document, system) pair with ``doc_col``, ``system_col``, ``metric``
            and ``human`` (NaN for missing: those rows do not count).
        metric, human: column names.
        level: ``input``, ``system``, ``global`` or ``partial``.
        partial_control: the ``partial`` level's control (:func:`~sumeval.stats.correlate`).

    Returns:
        A sentence naming the columns and counts (module docstring: the cases), or ``""``.
        The reason is the same for every coefficient (each is undefined in the same cases).

    >>> f = pd.DataFrame({"doc_id": [1, 1, 2, 2], "system": ["a", "b"] * 2,
    ...                   "m": [0.5] * 4, "h": [1.0, 2.0, 3.0, 1.0]})
    >>> undefined_reason(f, "m", "h", "global")
    "'m' is constant (0.5) on the 4 rows where both are present"
    >>> undefined_reason(f, "h", "h", "global")
    ''
    """
    canon = canonical_level(level)
    x = frame_column(frame, metric)
    y = frame_column(frame, human)
    if canon == "global":
        return _global(x, y, metric, human)
    if canon == "partial":
        return _partial(frame, x, y, metric, human, partial_control, system_col)
    lay = frame_layout(frame, doc_col, system_col, need_systems=True)
    keep = ~(np.isnan(x) | np.isnan(y))
    gx = lay.grid(np.where(keep, x, np.nan))
    gy = lay.grid(np.where(keep, y, np.nan))
    if canon == "system":
        return _system(gx, gy, metric, human)
    return _input(gx, gy, metric, human)
