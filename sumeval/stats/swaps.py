"""Correlations of swapped score grids, vectorised over permutations (the kernels of
:func:`sumeval.stats.permutation_test`).

A permutation swaps the two measures' scores in the cells where its mask is 1: X' = where(m, Y, X)
and Y' = where(m, X, Y), and both are correlated with Z. Nothing is computed per permutation in
Python. Within a group of cells (one input's systems at the input level, every cell at the global
level) the rank and concordance statistics are linear or quadratic in the mask: with a = 1 - m and
the pairwise matrices of the sources

    P_UV[i, j] = sign(U_i - V_j) sign(Z_i - Z_j),   T_UV[i, j] = [U_i == V_j] (i != j),
    L_UV[i, j] = [V_j < U_i] + [V_j == U_i] / 2      (U, V in {X, Y}),

Kendall's S(X') = (a'P_XX a + 2 a'P_XY m + m'P_YY m) / 2, its ties in x likewise with T, and the
mid-rank of cell i in X' is 1/2 + a_i (a L_XX^T + m L_XY^T)_i + m_i (a L_YX^T + m L_YY^T)_i
(L_YX^T = J - L_XY, J the all-ones matrix of the group's cells). So every permutation of a block
costs a few (B x n) @ (n x n) products. Their entries are integers or halves bounded by n, which
float32 represents exactly (n < 2^23), so the products are computed in float32, exactly.
"""
from __future__ import annotations

import warnings

import numpy as np

from sumeval.stats.rows import _corr_rows, _distinct_rows, _kendall_finish, _pearson_rows

# The pairwise matrices of one swap problem are kept while they hold at most this many elements
# (float32); larger problems are computed explicitly, permutation by permutation in blocks.
_PAIR_MATRIX_ELEMENTS = 60_000_000


def _sign_products(u: np.ndarray, v: np.ndarray, z: np.ndarray) -> np.ndarray:
    """P[g, i, j] = sign(u[g, i] - v[g, j]) * sign(z[g, i] - z[g, j]), 0 where a value is NaN;
    u, v, z (G, n) -> (G, n, n) float32."""
    p = np.sign(u[:, :, None] - v[:, None, :]) * np.sign(z[:, :, None] - z[:, None, :])
    return np.nan_to_num(p, nan=0.0).astype(np.float32)


def _ties(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """T[g, i, j] = [u[g, i] == v[g, j]] for i != j (NaN never ties); (G, n, n) float32."""
    t = (u[:, :, None] == v[:, None, :]).astype(np.float32)
    idx = np.arange(u.shape[1])
    t[:, idx, idx] = 0.0
    return t


def _below(u: np.ndarray, v: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """L[g, i, j] = [v_j < u_i] + [v_j == u_i] / 2 over valid cells i, j; (G, n, n) float32."""
    lt = (v[:, None, :] < u[:, :, None]).astype(np.float32)
    lt += 0.5 * (v[:, None, :] == u[:, :, None])
    return lt * (valid[:, :, None] & valid[:, None, :])


def _mat(m: np.ndarray, A: np.ndarray, transpose: bool = False) -> np.ndarray:
    """Batched m @ A (or m @ A^T): m (G, b, n), A (G, n, n) float32 -> (G, b, n) float64."""
    return np.matmul(m, np.swapaxes(A, 1, 2) if transpose else A).astype(np.float64)


def _quad(m: np.ndarray, mA: np.ndarray) -> np.ndarray:
    """Row-wise m . (m @ A): (G, b, n) x (G, b, n) -> (G, b)."""
    return np.einsum("gbn,gbn->gb", m, mA)


class GroupSwaps:
    """Correlations of X' and Y' with Z within groups of cells, for blocks of masks.

    Args:
        x, y, z: shape (G, n): standardised scores of the two measures and the human score per
            group (an input's systems, or one group of every cell); NaN marks an absent cell
            (absent in all three).
        method: a coefficient name.
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, z: np.ndarray, method: str):
        self.x, self.y, self.z, self.method = x, y, z, method
        self.valid = ~np.isnan(z)
        G, n = z.shape
        self.nv = self.valid.sum(axis=1).astype(np.float64)  # (G,)
        self.explicit = 3 * G * n * n > _PAIR_MATRIX_ELEMENTS or method == "pearson"
        if self.explicit:
            return
        if method == "spearman":
            self.L = {k: _below(u, v, self.valid) for k, (u, v) in
                      {"xx": (x, x), "xy": (x, y), "yy": (y, y)}.items()}
            self.rows = {k: L.sum(axis=2, dtype=np.float64) for k, L in self.L.items()}
            self.rows["yx"] = self.nv[:, None] * self.valid - self.L["xy"].sum(
                axis=1, dtype=np.float64)
            self.rank_z = 0.5 + _below(z, z, self.valid).sum(axis=2, dtype=np.float64)
        else:  # kendall_b / kendall_c
            self.P = {k: _sign_products(u, v, z) for k, (u, v) in
                      {"xx": (x, x), "xy": (x, y), "yy": (y, y)}.items()}
            self.ty = _ties(z, z).sum(axis=(1, 2), dtype=np.float64) / 2  # (G,) fixed
            T = {k: _ties(u, v) for k, (u, v) in {"xx": (x, x), "xy": (x, y), "yy": (y, y)}.items()}
            self.T = T if any(t.any() for t in T.values()) else None
            self.m_z = _distinct_rows(np.where(self.valid, z, np.nan)).astype(np.float64)

    def __call__(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """masks (b, G, n) bool -> (corr(X', Z), corr(Y', Z)), each (b, G)."""
        m = np.ascontiguousarray(np.swapaxes(masks & self.valid, 0, 1), dtype=np.float32)
        if self.explicit:
            return self._explicit(np.swapaxes(m, 0, 1) > 0)
        if self.method == "spearman":
            return self._spearman(m)
        return self._kendall(m)

    def _explicit(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b, G, n = masks.shape
        xs = np.where(masks, self.y, self.x).reshape(b * G, n)
        ys = np.where(masks, self.x, self.y).reshape(b * G, n)
        zs = np.broadcast_to(self.z, (b, G, n)).reshape(b * G, n)
        if self.method == "pearson":
            w = np.broadcast_to(self.valid, (b, G, n)).reshape(b * G, n).astype(np.float64)
            return (_pearson_rows(xs, zs, w).reshape(b, G), _pearson_rows(ys, zs, w).reshape(b, G))
        rx = _corr_rows(xs, zs, [self.method])[self.method]
        ry = _corr_rows(ys, zs, [self.method])[self.method]
        return rx.reshape(b, G), ry.reshape(b, G)

    def _spearman(self, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a = (1.0 - m) * self.valid[:, None, :]
        m64 = m.astype(np.float64)
        L, r = self.L, self.rows
        mxx, mxy, myy = _mat(m, L["xx"], True), _mat(m, L["xy"], True), _mat(m, L["yy"], True)
        msum = m64.sum(axis=2, keepdims=True) * self.valid[:, None, :]
        myx = msum - np.matmul(m, L["xy"]).astype(np.float64)  # m @ L_yx^T = m @ (J - L_xy)
        # a @ A^T = rows(A) - m @ A^T
        rank_x = 0.5 + a * (r["xx"][:, None, :] - mxx + mxy) + m64 * (r["yx"][:, None, :] - myx + myy)
        rank_y = 0.5 + a * (r["yy"][:, None, :] - myy + myx) + m64 * (r["xy"][:, None, :] - mxy + mxx)
        G, b, n = m.shape
        w = np.broadcast_to(self.valid[:, None, :], (G, b, n)).reshape(G * b, n).astype(np.float64)
        rz = np.broadcast_to(self.rank_z[:, None, :], (G, b, n)).reshape(G * b, n)
        cx = _pearson_rows(np.where(w > 0, rank_x.reshape(G * b, n), 0.0), rz, w)
        cy = _pearson_rows(np.where(w > 0, rank_y.reshape(G * b, n), 0.0), rz, w)
        return cx.reshape(G, b).T, cy.reshape(G, b).T

    def _concordance(self, m: np.ndarray, A: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
        """Sums over pairs i < j of A_{src(i) src(j)}[i, j] in X' and in Y'; each (G, b)."""
        m64 = m.astype(np.float64)
        mxx, myy, mxy = _mat(m, A["xx"]), _mat(m, A["yy"]), _mat(m, A["xy"])
        qxx, qyy, qxy = _quad(m64, mxx), _quad(m64, myy), _quad(m64, mxy)
        sxx, syy = (A[k].sum(axis=(1, 2), dtype=np.float64)[:, None] for k in ("xx", "yy"))
        rxx, ryy, rxy = (np.einsum("gbn,gn->gb", m64, A[k].sum(axis=2, dtype=np.float64))
                         for k in ("xx", "yy", "xy"))
        cxy = np.einsum("gbn,gn->gb", m64, A["xy"].sum(axis=1, dtype=np.float64))
        on_x = (sxx - 2 * rxx + qxx + 2 * (cxy - qxy) + qyy) / 2
        on_y = (syy - 2 * ryy + qyy + 2 * (rxy - qxy) + qxx) / 2
        return on_x, on_y

    def _kendall(self, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        G, b, n = m.shape
        s_x, s_y = self._concordance(m, self.P)
        if self.T is not None:
            t_x, t_y = self._concordance(m, self.T)
        else:
            t_x = t_y = np.zeros((G, b))
        nv = np.broadcast_to(self.nv[:, None], (G, b)).ravel()
        ty = np.broadcast_to(self.ty[:, None], (G, b)).ravel()
        out = []
        for s, t, src in ((s_x, t_x, (self.y, self.x)), (s_y, t_y, (self.x, self.y))):
            if self.method == "kendall_c":
                k = self._distinct(m, *src)
                mm = np.minimum(k, self.m_z[:, None]).ravel()
            else:
                mm = np.ones(G * b)
            tb, tc = _kendall_finish(s.ravel(), nv, t.ravel(), ty, mm)
            out.append((tb if self.method == "kendall_b" else tc).reshape(G, b).T)
        return out[0], out[1]

    def _distinct(self, m: np.ndarray, swapped: np.ndarray, kept: np.ndarray) -> np.ndarray:
        """Distinct values of where(m, swapped, kept) per (group, block row); (G, b)."""
        if self.T is None:
            return np.broadcast_to(self.nv[:, None], m.shape[:2]).astype(np.float64)
        G, b, n = m.shape
        vals = np.where(m > 0, swapped[:, None, :], kept[:, None, :])
        vals = np.where(self.valid[:, None, :], vals, np.nan)
        return _distinct_rows(vals.reshape(G * b, n)).reshape(G, b).astype(np.float64)


def system_swaps(x: np.ndarray, y: np.ndarray, z: np.ndarray, masks: np.ndarray,
                 method: str) -> tuple[np.ndarray, np.ndarray]:
    """System-level correlations of X' and Y' with Z.

    Args:
        x, y, z: shape (n_sys, n_docs) standardised grids, NaN where a cell is absent.
        masks: shape (b, n_sys, n_docs) bool.
        method: a coefficient name.

    Returns:
        (corr(X' means, Z means), corr(Y' means, Z means)), each (b,): per-system means over
        the present inputs (``np.nanmean`` along the inputs, as nlpstats), then the coefficient
        across systems.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a system with no present cell
        mx = np.nanmean(np.where(masks, y, x), axis=2)
        my = np.nanmean(np.where(masks, x, y), axis=2)
        mz = np.broadcast_to(np.nanmean(z, axis=1), mx.shape)
    return _corr_rows(mx, mz, [method])[method], _corr_rows(my, mz, [method])[method]
