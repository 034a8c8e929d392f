"""The order of the points of similarity (Vasilyev & Bohannon, paper 000, Sec.5).

- Eq.3 (Sec.5.1), the *similarity order*: Kendall tau-c between the summary positions
  ``(i)_{i=1..N}`` and their points of similarity ``(b(i))_{i=1..N}`` in the text,
  ``b(i) = argmax_a (e_i . e'_a)`` (:func:`sumeval.similarity.measures.layer_pair_points`).
  One implementation, over rows: :func:`similarity_order_rows` (the tau-c of
  :func:`sumeval.stats.kendall_tau_rows`); one summary: :func:`similarity_order`.
  The paper correlates it with expert coherence; the ``similarity-order`` scorer reports it.
- Eq.4 (Sec.5.2), the *local order* ``tau_d``: the same positions and points, counting only the
  pairs of positions at most ``d`` apart, ``tau_d = (n_c - n_d) / n_t``. One implementation, for
  every d at once: :func:`local_order_profile`; one distance: :func:`local_order_tau`.

Undefined values are NaN, never an exception.
"""
from __future__ import annotations

import numpy as np

from sumeval.errors import InputError
from sumeval.similarity.shapes import as_ndim
from sumeval.stats import kendall_tau_rows

__all__ = ["similarity_order_rows", "similarity_order", "local_order_profile", "local_order_tau", "points_1d"]


def points_1d(points: np.ndarray) -> np.ndarray:
    """``points`` as a 1-d int64 array (one b(i) per summary word); InputError otherwise."""
    return as_ndim(points, 1, "points must be 1-d (one b(i) per summary word)", np.int64)


# --------------------------------------------------------------------------------------------
# Eq.3
# --------------------------------------------------------------------------------------------
def similarity_order_rows(points: np.ndarray) -> np.ndarray:
    """The similarity order (paper 000 Sec.5.1, Eq.3) of each row of ``points``: Kendall tau-c
    between the positions ``0..N-1`` and the row, by :func:`sumeval.stats.kendall_tau_rows` (the
    one vectorised Kendall tau; Stuart's tau-c ``2 (P - Q) / (N^2 (m - 1) / m)`` with
    m = min(N, distinct values of the row), scipy's ``kendalltau(variant="c")``).

    Args:
        points: (K, N) points ``b(i)``, one row per layer pair (say).

    Returns:
        (K,) float; NaN for rows with N < 2 or all values equal.

    >>> similarity_order_rows(np.array([[0, 2, 1, 3], [3, 2, 1, 0]])).round(4).tolist()
    [0.6667, -1.0]
    """
    P = as_ndim(points, 2, "points must be 2-d (rows, N)")
    positions = np.broadcast_to(np.arange(P.shape[1], dtype=np.float64), P.shape)
    return kendall_tau_rows(positions, P)[1]


def similarity_order(points: np.ndarray) -> float:
    """The order of the points of similarity (paper 000 Sec.5.1, Eq.3): Kendall tau-c between the
    summary positions ``0..N-1`` and ``b(i)`` (:func:`similarity_order_rows` on one row).

    The paper correlates it with expert coherence; the ``similarity-order`` scorer reports it.

    Args:
        points: (N,) ``b(i)``.

    Returns:
        tau-c in [-1, 1]; NaN when N < 2 or all ``b(i)`` are equal (see :func:`undefined_reason`).

    >>> similarity_order(np.array([0, 2, 1, 3]))  # 5 concordant, 1 discordant: 2 (5 - 1) / (16 * 3/4)
    0.6666666666666666
    """
    return float(similarity_order_rows(points_1d(points)[None, :])[0])


# --------------------------------------------------------------------------------------------
# Eq.4
# --------------------------------------------------------------------------------------------
def local_order_profile(points: np.ndarray, max_d: int) -> np.ndarray:
    """The local order tau_d (paper 000 Sec.5.2, Eq.4) for every distance ``d = 1..max_d`` at once,
    for each row of ``points``: the one implementation of Eq.4.

    ``tau_d = (n_c - n_d) / n_t`` over the pairs of summary positions i < j with ``j - i <= d``:
    a pair is concordant when ``b(j) > b(i)`` strictly, discordant otherwise (ties included).
    The counts are summed over the lags ``j - i = 1..d``.

    Args:
        points: (K, N) points ``b(i)`` (K layers, say) of one summary; positions are ``0..N-1``.
        max_d: the largest distance (>= 1).

    Returns:
        (K, max_d) with column ``d - 1`` = tau_d; NaN where no pair exists (N < 2).

    Raises:
        InputError: points not 2-d, or ``max_d < 1``.
    """
    P = as_ndim(points, 2, "points must be 2-d (rows, N)")
    if max_d < 1:
        raise InputError(f"max_d must be >= 1, got {max_d}")
    k, n = P.shape
    conc = np.zeros((k, max_d))
    tot = np.zeros(max_d)
    for lag in range(1, min(max_d, n - 1) + 1):
        conc[:, lag - 1] = (P[:, lag:] > P[:, :-lag]).sum(axis=1)
        tot[lag - 1] = n - lag
    c = np.cumsum(conc, axis=1)
    t = np.cumsum(tot)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(t > 0, (2 * c - t) / np.where(t > 0, t, 1), np.nan)


def local_order_tau(points: np.ndarray, d: int) -> float:
    """The local order tau_d (paper 000 Sec.5.2, Eq.4) of one summary at one distance ``d``
    (:func:`local_order_profile` at ``d``).

    Args:
        points: (N,) ``b(i)``; the positions X are ``0..N-1``.
        d: the largest distance ``|X_i - X_j|`` of a counted pair (>= 0).

    Returns:
        tau_d in [-1, 1]; NaN when no pair is within ``d`` (N < 2, or d = 0).

    Raises:
        InputError: ``d < 0``.
    """
    if d < 0:
        raise InputError(f"d must be >= 0, got {d}")
    P = points_1d(points)[None, :]
    if d == 0:
        return float("nan")
    return float(local_order_profile(P, d)[0, d - 1])
