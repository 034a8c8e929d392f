"""Correlations within groups of cells whose values are fixed while the resamples vary only
which cells count: vectorised over resamples, without a Python loop per resample.

A group is one input's systems (input level) or every (input, system) cell (global level). Two
kinds of resample:

- **weights** (bootstrap): cell i counts w_i times (the systems drawn w_i times);
- **swaps** (permutation test): X' = where(m, Y, X) and Y' = where(m, X, Y) for a 0/1 mask m.

Both reduce to products with the pairwise matrices of the group's values, computed once:

    P[i, j] = sign(u_i - v_j) sign(z_i - z_j),   T[i, j] = [u_i == v_j] (i != j),
    L[i, j] = [v_j < u_i] + [v_j == u_i] / 2.

With weights: Kendall's S = w'Pw / 2 and the x-ties w'T w / 2 + sum_i w_i (w_i - 1) / 2; the
mid-ranks of the expanded sample are w L^T + 1/2.

With swaps (a = 1 - m, sources X and Y): Kendall's S(X') = (a'P_XX a + 2 a'P_XY m + m'P_YY m) / 2
and S(Y') = (a'P_YY a + 2 m'P_XY a + m'P_XX m) / 2 share the one quadratic form
m'(P_XX + P_YY - P_XY - P_XY^T)m, the rest being linear in m. The mid-rank of cell i in X' is
1/2 + a_i (a L_XX^T + m L_XY^T)_i + m_i (a L_YX^T + m L_YY^T)_i (L_YX^T = J - L_XY), and
Spearman's numerator sum_i c_i r_i (c the centred ranks of Z) is then linear in m but for one
product (:class:`GroupSwaps`). Ties are classes of equal values, counted by sparse products
(:class:`_ValueClasses`). Pearson needs the sums of X', X'^2 and X'Z, linear in m.

Every entry of the dense products is an integer or a half bounded by the group's size or total
weight, which float32 holds exactly (below 2^23): they run in float32 without rounding.
"""
from __future__ import annotations

import warnings
from typing import Sequence

import numpy as np

from sumeval.stats.coefficients import corr_rows
from sumeval.stats.rows import distinct_rows, kendall_finish, pearson_rows
from sumeval.stats.ties import snap_ties

__all__ = ["GroupSwaps", "SwapCache", "SystemSwaps", "weighted_group_corr", "system_swaps", "pair_signs",
           "sign_products"]

# The pairwise matrices of a problem are built while they hold at most this many elements
# (float32); beyond, the explicit per-resample kernels of sumeval.stats.rows are used.
_PAIR_MATRIX_ELEMENTS = 60_000_000


def pair_signs(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """sign(u[g, i] - v[g, j]) as int8, 0 where a value is NaN; (G, n) -> (G, n, n)."""
    gt = np.greater(u[:, :, None], v[:, None, :]).view(np.int8)
    return gt - np.less(u[:, :, None], v[:, None, :]).view(np.int8)


def sign_products(u: np.ndarray, v: np.ndarray, z_signs: np.ndarray) -> np.ndarray:
    """P[g, i, j] = sign(u[g, i] - v[g, j]) * sign(z[g, i] - z[g, j]) with
    ``z_signs = pair_signs(z, z)``; 0 where a value is NaN; (G, n, n) float32."""
    return np.multiply(pair_signs(u, v), z_signs, dtype=np.float32)


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


def _gemm(m: np.ndarray, A: np.ndarray, dtype=np.float64) -> np.ndarray:
    """Batched m @ A: m (G, b, n), A (G, n, n), both float32 -> (G, b, n) ``dtype``."""
    out = np.matmul(m, A)
    return out if dtype == np.float32 else out.astype(dtype)


def _dot(m: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise m . v: m (G, b, n) float64 (or float32, for integer sums below 2^24: exact),
    v (G, n) or (G, b, n) -> (G, b), in m's type."""
    if v.ndim == 2:
        return np.matmul(m, v[:, :, None].astype(m.dtype, copy=False))[:, :, 0]
    return np.einsum("gbn,gbn->gb", m, v)


def _too_large(G: int, n: int, count: int) -> bool:
    return count * G * n * n > _PAIR_MATRIX_ELEMENTS


class _ValueClasses:
    """The classes of equal values among the two sources of each group's cells.

    With G_X[i, v] = [x_i = v] and G_Y[i, v] = [y_i = v] over the group's valid cells, X' has
    t_v(X') = c_v(X) - (m D)_v cells of value v and Y' has t_v(Y') = c_v(Y) + (m D)_v, where
    D = G_X - G_Y (two entries per cell). Only the classes that can hold two cells of X' or Y'
    ("tied": not a lone value, nor one cell's x = y) need the product m D; a lone value's
    (m D)_v^2 is m_i, linear in m (``lone``). The product runs dense, per group, on the tied
    classes padded to the most a group has (``E``, (G, n, K), entries 0 and +-1: float32 holds
    its sums exactly), where that is cheaper than the sparse product, else sparse.
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, valid: np.ndarray):
        G, n = x.shape
        self.shape = (G, n)
        self.cell = np.flatnonzero(valid.ravel())
        group = self.cell // n
        keys = np.stack([np.concatenate([group, group]).astype(np.float64),
                         np.concatenate([x.ravel()[self.cell], y.ravel()[self.cell]])])
        _, ids = np.unique(keys, axis=1, return_inverse=True)
        ids = ids.ravel()
        V = int(ids.max()) + 1 if ids.size else 0
        self.ix, self.iy = ids[:self.cell.size], ids[self.cell.size:]
        self.cx = np.bincount(self.ix, minlength=V).astype(np.float64)
        self.cy = np.bincount(self.iy, minlength=V).astype(np.float64)
        self.same = (self.ix == self.iy).astype(np.float64)  # x_i == y_i
        value_group = np.zeros(V, dtype=np.int64)
        value_group[self.ix], value_group[self.iy] = group, group
        # classes that can hold 2 cells of X' or Y': not a lone value, nor one cell's x = y
        lone_pair = np.zeros(V, dtype=bool)
        lone_pair[self.ix[self.ix == self.iy]] = True
        lone_pair &= (self.cx == 1) & (self.cy == 1)
        single = self.cx + self.cy == 1
        self.tied = np.flatnonzero((self.cx + self.cy >= 2) & ~lone_pair)
        self.lone = self.per_cell(single[self.ix].astype(np.float64) + single[self.iy])
        tied = np.zeros(V, dtype=bool)
        tied[self.tied] = True
        # the tied classes' slots per group: class tied[k] is slot k - (first tied class of its group)
        tg = value_group[self.tied]
        first = np.searchsorted(tg, np.arange(G))  # np.unique sorts the classes by group
        slot = np.zeros(V, dtype=np.int64)
        slot[self.tied] = np.arange(self.tied.size) - first[tg]
        K = int(slot[self.tied].max()) + 1 if self.tied.size else 0
        nnz = int(tied[self.ix].sum() + tied[self.iy].sum())
        self.dense = G * n * K <= 16 * nnz + 4096
        if self.dense:
            E = np.zeros((G, n, K), dtype=np.float32)
            for ids_, sign in ((self.ix, 1.0), (self.iy, -1.0)):
                hit = tied[ids_]
                c = self.cell[hit]
                np.add.at(E, (c // n, c % n, slot[ids_[hit]]), sign)
            self.E = E
            self.cx_t = np.zeros((G, K))
            self.cy_t = np.zeros((G, K))
            self.cx_t[tg, slot[self.tied]] = self.cx[self.tied]
            self.cy_t[tg, slot[self.tied]] = self.cy[self.tied]
            self.cx_t, self.cy_t = self.cx_t[:, None, :], self.cy_t[:, None, :]
            return
        from scipy import sparse

        ones = np.ones(self.cell.size)
        D = sparse.csr_matrix((np.concatenate([ones, -ones]),
                               (np.concatenate([self.cell, self.cell]),
                                np.concatenate([self.ix, self.iy]))), shape=(G * n, V))
        self.D_tied = D[:, self.tied].tocsr()
        self.by_group_tied = sparse.csr_matrix((np.ones(self.tied.size), (np.arange(self.tied.size), tg)),
                                               shape=(self.tied.size, G))
        self.cx_t, self.cy_t = self.cx[self.tied], self.cy[self.tied]

    def per_cell(self, v: np.ndarray) -> np.ndarray:
        """Values of the valid cells (in ``cell`` order) -> (G, n), 0 elsewhere."""
        out = np.zeros(self.shape[0] * self.shape[1])
        out[self.cell] = v
        return out.reshape(self.shape)

    def shift(self, m: np.ndarray) -> np.ndarray | None:
        """m D over the tied classes for masks m (G, b, n) float32: (G, b, K) dense, (b, V_tied)
        sparse; None when no class is tied."""
        if self.tied.size == 0:
            return None
        if self.dense:
            return np.matmul(m, self.E).astype(np.float64)
        b = m.shape[1]
        flat = np.swapaxes(m, 0, 1).reshape(b, -1).astype(np.float64)
        return np.asarray((self.D_tied.T @ flat.T).T)

    def tied_counts(self, shift: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
        """Cells per tied class in X' and in Y' (the others hold at most one), from
        :meth:`shift`; None when there is none."""
        if shift is None:
            return None
        return self.cx_t - shift, self.cy_t + shift

    def tied_sum(self, v: np.ndarray) -> np.ndarray:
        """Per tied-class values (as :meth:`shift`) summed per group -> (G, b)."""
        if self.dense:
            return v.sum(axis=2)
        return np.asarray(self.by_group_tied.T @ v.T)


class _SwapSums:
    """Sums over cell pairs i < j of A_{src(i) src(j)}[i, j] in X' and in Y' (module docstring)
    for pairwise matrices xx, yy, xy (G, n, n), given by their sums (``s_xx``, ``s_yy``: (G,)),
    row sums (``r_xx``, ``r_yy``, ``r_xy``: (G, n)), column sums of xy (``c_xy``) and the
    quadratic form ``q(m, m64) = m'(xx + yy - xy - xy^T)m`` ((G, b, n) -> (G, b))."""

    def __init__(self, s_xx, s_yy, r_xx, r_yy, r_xy, c_xy, q):
        self.s_xx, self.s_yy = s_xx[:, None], s_yy[:, None]
        self.lin_x, self.lin_y, self.q = r_xx - c_xy, r_yy - r_xy, q

    @classmethod
    def dense(cls, xx: np.ndarray, yy: np.ndarray, xy: np.ndarray) -> "_SwapSums":
        """From the matrices; q is one float32 product per block."""
        Q = xx + yy - xy - np.swapaxes(xy, 1, 2)
        return cls(xx.sum(axis=(1, 2), dtype=np.float64), yy.sum(axis=(1, 2), dtype=np.float64),
                   xx.sum(axis=2, dtype=np.float64), yy.sum(axis=2, dtype=np.float64),
                   xy.sum(axis=2, dtype=np.float64), xy.sum(axis=1, dtype=np.float64),
                   lambda m, m64, shift=None: _dot(m64, _gemm(m, Q, m64.dtype)))

    @classmethod
    def ties(cls, vc: _ValueClasses) -> "_SwapSums | None":
        """For the tie matrices T_xx, T_yy, T_xy without building them: a pair ties when its
        cells' values are in one class, so q(m) = ||m D||^2 - 2 sum_i m_i [x_i != y_i]
        (m binary; :class:`_ValueClasses`: ||m D||^2 is the tied classes' (m D)^2 plus the linear
        ``lone`` term). None when no two cells can tie."""
        r_xx, r_yy = vc.per_cell(vc.cx[vc.ix] - 1), vc.per_cell(vc.cy[vc.iy] - 1)
        r_xy, c_xy = vc.per_cell(vc.cy[vc.ix] - vc.same), vc.per_cell(vc.cx[vc.iy] - vc.same)
        if not (r_xx.any() or r_yy.any() or r_xy.any()):
            return None
        linear = vc.lone - 2 * vc.per_cell(1 - vc.same)

        def q(m: np.ndarray, m64: np.ndarray, shift: np.ndarray | None = None) -> np.ndarray:
            lin = _dot(m64, linear)
            return lin if shift is None else vc.tied_sum(shift * shift) + lin

        return cls(r_xx.sum(axis=1), r_yy.sum(axis=1), r_xx, r_yy, r_xy, c_xy, q)

    def __call__(self, m: np.ndarray, m64: np.ndarray,
                 shift: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """m (G, b, n) float32 masks, and as float64 -> (sum in X', sum in Y'), each (G, b);
        ``shift``: the value classes' :meth:`_ValueClasses.shift` (ties only)."""
        q = self.q(m, m64, shift)
        return ((self.s_xx - 2 * _dot(m64, self.lin_x) + q) / 2,
                (self.s_yy - 2 * _dot(m64, self.lin_y) + q) / 2)


class SwapCache:
    """The pieces of :class:`GroupSwaps` that depend on one grid of scores (a measure's pairwise
    sign matrix with the human's, the human's ranks), kept for the pairs of one family: every
    pair of measures against one human at one level shares them (:func:`sumeval.stats.
    compare_measures`), so each is built once per measure rather than once per pair. Keyed by the
    grids' bytes, so a pair whose rows differ (missing scores) gets its own."""

    def __init__(self) -> None:
        self._store: dict = {}
        self._masks: np.ndarray | None = None
        self._blocks: dict = {}

    def get(self, key: tuple, build):
        """The value stored under ``key``, built by ``build()`` the first time."""
        if key not in self._store:
            self._store[key] = build()
        return self._store[key]

    def block(self, masks: np.ndarray, key: tuple, build):
        """The masks of a block of permutations as a kernel takes them, stored under ``key`` (the
        block's bounds and the cells used) while the permutations are ``masks`` (the family's: every
        pair uses the same ones); ``masks`` is held, so that another array is never taken for it."""
        if self._masks is not masks:
            self._masks, self._blocks = masks, {}
        if key not in self._blocks:
            self._blocks[key] = build()
        return self._blocks[key]


def _key(*arrays: np.ndarray) -> tuple:
    return tuple((a.shape, a.tobytes()) for a in arrays)


class GroupSwaps:
    """Correlations of X' and Y' with Z within groups, for blocks of swap masks.

    Pearson: the sums of X', X'^2 and X'Z are linear in m. Spearman: Pearson of mid-ranks, whose
    mean is (n + 1)/2 whatever the permutation, so it needs only sum_i r_i c_i with the centred
    ranks c of Z -- one product (module docstring) -- and sum_i r_i^2 = (n^3 - n)/12 + n((n+1)/2)^2
    - sum_v (t_v^3 - t_v)/12 over the tie classes of X' (:class:`_ValueClasses`). Kendall:
    S from one product, the ties from the value classes.

    Args:
        x, y, z: shape (G, n): standardised scores of the two measures and the human score;
            NaN marks an absent cell (absent in all three).
        method: a registered coefficient; one without a closed form here (:data:`_SWAP_FORMS`)
            is computed explicitly on each swapped grid (:func:`~sumeval.stats.coefficients.corr_rows`).
        cache: a :class:`SwapCache` shared with other pairs of measures on the same human scores
            (None: nothing is shared).
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, z: np.ndarray, method: str,
                 cache: SwapCache | None = None):
        self.x, self.y, self.z, self.method = x, y, z, method
        self.cache = cache
        cache = cache if cache is not None else SwapCache()
        self.valid = ~np.isnan(z)
        G, n = z.shape
        self.nv = self.valid.sum(axis=1).astype(np.float64)  # (G,)
        form = _SWAP_FORMS.get(method)
        self.explicit = form is None or (form != "pearson" and _too_large(G, n, 5))
        if self.explicit:
            return
        self.form = form
        x0, y0, z0 = (np.where(self.valid, v, 0.0) for v in (x, y, z))
        if form == "pearson":
            self.sums = {"x": x0.sum(axis=1), "y": y0.sum(axis=1), "xx": (x0 * x0).sum(axis=1),
                         "yy": (y0 * y0).sum(axis=1), "xz": (x0 * z0).sum(axis=1),
                         "yz": (y0 * z0).sum(axis=1)}
            self.d, self.d2, self.dz = y0 - x0, y0 * y0 - x0 * x0, (y0 - x0) * z0
            zc = z0 - (z0.sum(axis=1) / self.nv)[:, None] * self.valid
            self.z_sums = (z0.sum(axis=1), (zc * zc).sum(axis=1))
            return
        self.classes = _ValueClasses(x, y, self.valid)
        if form == "spearman":
            self._spearman_init(x, y, z, cache)
            return
        zk = _key(z)
        z_signs = cache.get(("signs", *zk), lambda: pair_signs(z, z))

        def own(u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """P_uu (int8), its row sums and its sum, once per measure."""
            def build():
                P = pair_signs(u, u) * z_signs
                rows = P.sum(axis=2, dtype=np.float64)
                return P, rows, rows.sum(axis=1)
            return cache.get(("kendall", *zk, *_key(u)), build)

        (P_xx, r_xx, s_xx), (P_yy, r_yy, s_yy) = own(x), own(y)
        P_xy = pair_signs(x, y) * z_signs
        # Q = P_xx + P_yy - P_xy - P_xy^T, entries in [-4, 4]: int8, then float32 for the product
        Q = (P_xx + P_yy - P_xy - np.swapaxes(P_xy, 1, 2)).astype(np.float32)
        self.S = _SwapSums(s_xx, s_yy, r_xx, r_yy, P_xy.sum(axis=2, dtype=np.float64),
                           P_xy.sum(axis=1, dtype=np.float64),
                           lambda m, m64, shift=None: _dot(m64, _gemm(m, Q, m64.dtype)))
        self.ties = _SwapSums.ties(self.classes)
        self.t_z, self.m_z = cache.get(("z", *zk), lambda: (
            _ties(z, z).sum(axis=(1, 2), dtype=np.float64) / 2,  # (G,)
            distinct_rows(np.where(self.valid, z, np.nan)).astype(np.float64)))

    def __call__(self, masks: np.ndarray, span: tuple | None = None) -> tuple[np.ndarray, np.ndarray]:
        """masks (b, G, n) bool -> (corr(X', Z), corr(Y', Z)), each (b, G); ``span``: (the family's
        permutations, a key of this block) when ``masks`` is a block of them, so that the block's
        float32 masks are made once for the pairs of the family (:meth:`SwapCache.block`)."""
        if self.explicit:
            return self._explicit(masks)

        def make() -> np.ndarray:
            return np.ascontiguousarray(np.swapaxes(masks & self.valid, 0, 1), dtype=np.float32)

        if span is not None and self.cache is not None:
            m = self.cache.block(span[0], (*span[1:], *_key(self.valid)), make)
        else:
            m = make()
        # Kendall's sums are integers below 4 n^2 (|Q| <= 4): exact in float32 while that is below 2^24
        n = m.shape[2]
        m64 = m if self.form == "kendall" and 4 * n * n < 2 ** 24 else m.astype(np.float64)
        out = {"pearson": self._pearson, "spearman": self._spearman, "kendall": self._kendall}[
            self.form](m, m64)
        return out[0].T, out[1].T

    def _explicit(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b, G, n = masks.shape
        xs = np.where(masks, self.y, self.x).reshape(b * G, n)
        ys = np.where(masks, self.x, self.y).reshape(b * G, n)
        zs = np.broadcast_to(self.z, (b, G, n)).reshape(b * G, n)
        out = [corr_rows(s, zs, [self.method])[self.method].reshape(b, G) for s in (xs, ys)]
        return out[0], out[1]

    def _finish(self, num: np.ndarray, sxx: np.ndarray, szz: np.ndarray) -> np.ndarray:
        """num / sqrt(sxx szz), NaN where a side is constant; (G, b)."""
        sxx = np.broadcast_to(sxx, num.shape)
        with np.errstate(invalid="ignore", divide="ignore"):
            r = num / np.sqrt(sxx * szz[:, None])
        r[~((sxx > 1e-12 * np.abs(sxx).max(initial=0)) & (szz[:, None] > 0)) | (self.nv < 2)[:, None]] \
            = np.nan
        return np.clip(r, -1.0, 1.0)

    def _pearson(self, m: np.ndarray, m64: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s, nv = self.sums, self.nv[:, None]
        md, md2, mdz = _dot(m64, self.d), _dot(m64, self.d2), _dot(m64, self.dz)
        sz, szz = self.z_sums
        out = []
        for sx, sxx, sxz in ((s["x"][:, None] + md, s["xx"][:, None] + md2, s["xz"][:, None] + mdz),
                             (s["y"][:, None] - md, s["yy"][:, None] - md2, s["yz"][:, None] - mdz)):
            out.append(self._finish(sxz - sx * sz[:, None] / nv, sxx - sx * sx / nv, szz))
        return out[0], out[1]

    def _spearman_init(self, x: np.ndarray, y: np.ndarray, z: np.ndarray, cache: SwapCache) -> None:
        """Precomputations of :meth:`_spearman`, from the sign matrices S_uv = 2 L_uv - J (S_xx,
        S_yy and S_zz once per measure, :class:`SwapCache`)."""
        valid, nv = self.valid, self.nv[:, None]
        S_xx, S_yy, S_zz = (cache.get(("signs", *_key(u)), lambda u=u: pair_signs(u, u)) for u in (x, y, z))
        S_xy = pair_signs(x, y)

        def rows(S: np.ndarray, axis: int = 2, sign: int = 1) -> np.ndarray:
            """Row (axis 2) or column (axis 1) sums of L = (sign S + J) / 2 over valid cells."""
            return (sign * S.sum(axis=axis, dtype=np.float64) + nv) / 2 * valid

        r_xx, r_yy, r_xy = rows(S_xx), rows(S_yy), rows(S_xy)
        r_yx = rows(S_xy, axis=1, sign=-1)  # L_yx[i, j] = 1 - L_xy[j, i]
        self.cz = (0.5 + rows(S_zz) - (nv + 1) / 2) * valid  # centred mid-ranks of Z
        self.szz = (self.cz * self.cz).sum(axis=1)
        # A_sum = (L_xx + L_yy - L_xy)^T + L_xy = (S_xy - S_xy^T - S_xx - S_yy) / 2 + J
        T = S_xy - np.swapaxes(S_xy, 1, 2) - S_xx - S_yy
        self.A_sum = T.astype(np.float32) * np.float32(0.5) + (valid[:, :, None]
                                                               & valid[:, None, :])
        cz = self.cz[:, :, None]
        A_cz = np.matmul(T.astype(np.float64), cz)[:, :, 0] / 2  # A_sum cz (J cz = 0)
        # A_diff cz, A_diff = (L_yy - L_xx + L_xy)^T + L_xy
        M = S_xx - S_yy + np.swapaxes(S_xy, 1, 2) + S_xy
        A_diff_cz = np.matmul(M.astype(np.float64), cz)[:, :, 0] / 2
        R1, R2, R3, R4 = r_xx + r_yy, r_yx + r_xy, r_xx - r_yy, r_yx - r_xy
        self.k_total = self.cz * (R2 - R1) - A_cz
        self.k_diff = self.cz * (R4 - R3) + A_diff_cz
        self.c_total = (self.cz * R1).sum(axis=1)[:, None]
        self.c_diff = (self.cz * R3).sum(axis=1)[:, None]

    def _spearman(self, m: np.ndarray, m64: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """sum_i c_i rank_i of X' and Y' (c: centred ranks of Z): with the sum of their ranks
        1 + a (R1 - U) + m (R2 + U) and the difference a (R3 + V) + m (R4 + V), U = m A_sum - m J,
        V = m A_diff - m J, a = v - m and sum_i c_i = 0, everything is linear in m but
        2 (c m) . (m A_sum)."""
        vc, nv = self.classes, self.nv[:, None]
        cm = _dot(m64, self.cz)  # (G, b)
        total = (self.c_total + _dot(m64, self.k_total) - 2 * m64.sum(axis=2) * cm
                 + 2 * _dot(self.cz[:, None, :] * m64, _gemm(m, self.A_sum)))
        diff = self.c_diff + _dot(m64, self.k_diff)
        counts = vc.tied_counts(vc.shift(m)) or (None, None)
        out = []
        for num, t in zip(((total + diff) / 2, (total - diff) / 2), counts):
            # sum_i (r_i - mean)^2 = (n^3 - n)/12 - sum over tie classes of (t^3 - t)/12
            sxx = (nv ** 3 - nv) / 12
            if t is not None:
                sxx = sxx - vc.tied_sum(t * t * t - t) / 12
            out.append(self._finish(num, sxx, self.szz))
        return out[0], out[1]

    def _kendall(self, m: np.ndarray, m64: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        G, b, n = m.shape
        s_x, s_y = self.S(m, m64)
        shift = self.classes.shift(m) if self.ties is not None or self.method == "kendall_c" else None
        t_x, t_y = self.ties(m, m64, shift) if self.ties is not None else (np.zeros((G, b)),) * 2
        nv = np.broadcast_to(self.nv[:, None], (G, b)).ravel()
        t_z = np.broadcast_to(self.t_z[:, None], (G, b)).ravel()
        counts = (None, None)
        if self.method == "kendall_c":
            counts = self.classes.tied_counts(shift) or counts
        out = []
        for s, t, c in ((s_x, t_x, counts[0]), (s_y, t_y, counts[1])):
            if self.method == "kendall_c":  # distinct values: a class of t cells repeats t - 1
                distinct = np.broadcast_to(self.nv[:, None], (G, b))
                if c is not None:
                    distinct = distinct - self.classes.tied_sum(np.maximum(c - 1, 0))
                classes = np.minimum(distinct, self.m_z[:, None]).ravel()
            else:
                classes = np.ones(G * b)
            tb, tc = kendall_finish(s.ravel(), nv, t.ravel(), t_z, classes)
            out.append((tb if self.method == "kendall_b" else tc).reshape(G, b))
        return out[0], out[1]


#: the coefficients with a closed form under swaps (:class:`GroupSwaps`) and under weights
#: (:func:`weighted_group_corr`), by the form they take; any other registered coefficient is
#: computed explicitly on each resample
_SWAP_FORMS = {"pearson": "pearson", "spearman": "spearman", "kendall_b": "kendall",
               "kendall_c": "kendall"}


def weighted_group_corr(x: np.ndarray, y: np.ndarray, weights: np.ndarray,
                        methods: Sequence[str]) -> dict[str, np.ndarray]:
    """Each method's coefficient per (resample, group) with fixed values and varying weights.

    Args:
        x, y: shape (G, n) values; NaN marks an absent cell.
        weights: shape (b, G, n) non-negative integer multiplicities.
        methods: registered coefficient names; those without a closed form here
            (:data:`_SWAP_FORMS`) are computed on each expanded sample
            (:func:`~sumeval.stats.coefficients.corr_rows`).

    Returns:
        ``{method: shape (b, G)}``: the coefficient on each group's expanded sample
        ``np.repeat(x[g], weights[r, g])`` (module docstring), NaN where undefined.
    """
    b, G, n = weights.shape
    valid = ~(np.isnan(x) | np.isnan(y))
    W = np.where(valid[None], weights, 0.0)
    flat = (b * G, n)
    xs, ys = (np.broadcast_to(v, (b, G, n)).reshape(flat) for v in (x, y))
    explicit = [m for m in methods if m not in _SWAP_FORMS or _too_large(G, n, 5)]
    out: dict[str, np.ndarray] = {}
    if explicit:
        out = {k: v.reshape(b, G) for k, v in corr_rows(xs, ys, explicit, W.reshape(flat)).items()}
        if len(explicit) == len(methods):
            return out
    Wg = np.ascontiguousarray(np.swapaxes(W, 0, 1), dtype=np.float32)  # (G, b, n)
    if "pearson" in methods:
        out["pearson"] = pearson_rows(xs, ys, W.reshape(flat)).reshape(b, G)
    if "spearman" in methods:
        rx, ry = (_gemm(Wg, np.swapaxes(_below(v, v, valid), 1, 2)) + 0.5 for v in (x, y))
        wf = np.swapaxes(Wg, 0, 1).reshape(flat).astype(np.float64)
        out["spearman"] = pearson_rows(np.swapaxes(rx, 0, 1).reshape(flat),
                                       np.swapaxes(ry, 0, 1).reshape(flat), wf).reshape(b, G)
    if "kendall_b" in methods or "kendall_c" in methods:
        W64 = Wg.astype(np.float64)
        S = _dot(W64, _gemm(Wg, sign_products(x, x, pair_signs(y, y)))) / 2
        self_ties = (W64 * (W64 - 1) / 2).sum(axis=2)
        counts = []
        for v in (x, y):
            T = _ties(v, v) * (valid[:, :, None] & valid[:, None, :])
            tied = _dot(W64, _gemm(Wg, T)) / 2 + self_ties
            drawn = (Wg > 0).astype(np.float32)
            # a drawn cell is a new value unless an earlier drawn cell has its value
            dup = _gemm(drawn, np.triu(T)) > 0
            counts.append((tied, ((drawn > 0) & ~dup).sum(axis=2).astype(np.float64)))
        (tx, kx), (ty, ky) = counts
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            tb, tc = kendall_finish(S.ravel(), W64.sum(axis=2).ravel(), tx.ravel(), ty.ravel(),
                                    np.minimum(kx, ky).ravel())
        out["kendall_b"], out["kendall_c"] = tb.reshape(G, b).T, tc.reshape(G, b).T
    return {m: out[m] for m in methods}


def system_swaps(x: np.ndarray, y: np.ndarray, z: np.ndarray, masks: np.ndarray,
                 method: str) -> tuple[np.ndarray, np.ndarray]:
    """System-level correlations of X' and Y' with Z.

    Args:
        x, y, z: shape (n_sys, n_docs) standardised grids, NaN where a cell is absent.
        masks: shape (b, n_sys, n_docs) bool.
        method: a coefficient name.

    Returns:
        (corr(X' means, Z means), corr(Y' means, Z means)), each (b,): per-system means over
        the present inputs (``np.nanmean`` along the inputs, as nlpstats), exact ties kept exact
        (:func:`~sumeval.stats.ties.snap_ties`), then the coefficient across systems.
    """
    return SystemSwaps(x, y, z, method)(masks)


class SystemSwaps:
    """:func:`system_swaps` for one pair of measures and many blocks of masks: when x and y are
    absent in the same cells (as a permutation test's grids are), the cells' zero-filled values and
    the counts per system are kept, so that a block costs a choice and a sum per swapped grid: the
    same sums as ``np.nanmean``'s (which sums the grid with its NaN set to 0, then divides by the
    count), bit for bit."""

    def __init__(self, x: np.ndarray, y: np.ndarray, z: np.ndarray, method: str):
        self.x, self.y, self.method = x, y, method
        absent = np.isnan(x)
        self.same = bool((absent == np.isnan(y)).all())
        if self.same:
            self.x0, self.y0 = np.where(absent, 0.0, x), np.where(absent, 0.0, y)
            self.count = (~absent).sum(axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a system with no present cell
            self.mz = snap_ties(np.nanmean(z, axis=1))

    def _means(self, a: np.ndarray, b: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)  # a system with no present cell
            if self.same:
                return snap_ties(np.where(masks, b, a).sum(axis=2) / self.count)
            return snap_ties(np.nanmean(np.where(masks, b, a), axis=2))

    def __call__(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """masks (b, n_sys, n_docs) bool -> (corr(X' means, Z means), corr(Y' means, Z means))."""
        a, b = (self.x0, self.y0) if self.same else (self.x, self.y)
        mx, my = self._means(a, b, masks), self._means(b, a, masks)
        mz = np.broadcast_to(self.mz, mx.shape)
        return corr_rows(mx, mz, [self.method])[self.method], corr_rows(my, mz, [self.method])[self.method]
