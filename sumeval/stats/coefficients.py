"""The correlation coefficients, one registry that every level and engine looks a coefficient up in.

A coefficient is one plain callable over two complete samples (the reference: scipy's, as
nlpstats passes ``coefficient`` to every level), registered with what the engines need to know
about it (:class:`Coefficient`). The levels (input, system, global, partial), the bootstrap and
the permutation and Williams tests take its name and call :func:`pair_value` (one sample) or
:func:`corr_rows` (many rows at once, with multiplicities), which use the entry's batched kernel
when it has one and otherwise call the plain callable row by row on the expanded sample. The
engines' closed forms (:mod:`~sumeval.stats.pooled`, :mod:`~sumeval.stats.grouped`) are tables
keyed by coefficient name beside their algebra; a coefficient without one takes the explicit path,
so a new coefficient is one function, one :func:`register` entry and its test
(``tests/stats/test_stats_contract.py`` checks every registered coefficient against its callable at
every level and engine).

Undefined values, the same for every coefficient (the engines apply the rule, the callable never
sees such a sample): fewer than 2 complete pairs, or a constant side, give NaN. NaN marks a
missing value and drops the pair. Ties: the rank coefficients use mid-ranks (``ranks=True``);
such a coefficient is invariant under increasing transforms and is never scaled before ranking
(:mod:`~sumeval.stats.scaling`), while the product-moment ones (``ranks=False``) are computed on
values scaled by a power of two (exact).
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.stats.checks import float_array, is_constant
from sumeval.stats.rows import kendall_tau_rows, pearson_rows, ranks_rows
from sumeval.stats.scaling import unit_scale

__all__ = ["Coefficient", "COEFFICIENTS", "METHODS", "register", "unregister", "coefficient",
           "check_method", "correlation", "pair_value", "corr_rows", "pair_rows"]

#: a batched kernel: (x, y, w, weighted) -> {name: (R,)}; x, y (R, n) with NaN where a pair is
#: absent, w (R, n) the multiplicity of each complete pair (0 elsewhere; 1s when ``weighted`` is
#: False: a plain mask)
RowsKernel = Callable[[np.ndarray, np.ndarray, np.ndarray, bool], "dict[str, np.ndarray]"]


@dataclass(frozen=True)
class Coefficient:
    """One correlation coefficient.

    Attributes:
        name: the code name (``method`` / ``--coefficient``; the ``method`` column of results).
        pair: the plain callable ``pair(x, y) -> float`` over two complete samples (n >= 2,
            neither side constant): the definition every engine must agree with.
        title, latex: the readable names (:mod:`sumeval.display_names`; ``latex`` None: escape
            ``title``).
        ranks: computed on mid-ranks (ties share their mean rank): invariant under increasing
            transforms, never scaled before ranking; False: on the values, which may be scaled by a
            power of two first (:mod:`sumeval.stats.scaling`).
        rows: an optional batched kernel (:data:`RowsKernel`), equal to ``pair`` on each row's
            expanded sample; None: ``pair`` is called row by row.
        p_value: optional ``p_value(x, y) -> float`` (scipy's two-sided test of no correlation), for
            REALSumm's selection of documents (:mod:`sumeval.stats.input_rules`); None: not offered.
        source: where the formula is defined.
    """

    name: str
    pair: Callable[[np.ndarray, np.ndarray], float]
    title: str
    latex: str | None = None
    ranks: bool = False
    rows: RowsKernel | None = field(default=None, compare=False)
    p_value: Callable[[np.ndarray, np.ndarray], float] | None = None
    source: str = ""


def _scipy():
    from scipy import stats

    return stats


# -- the plain callables (scipy, the reference) --------------------------------------------------

def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r (scipy ``pearsonr``), on values scaled exactly by a power of two: no overflow
    or underflow at the float range's ends (:mod:`sumeval.stats.scaling`)."""
    return _scipy().pearsonr(unit_scale(x), unit_scale(y)).statistic


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho (scipy ``spearmanr``): Pearson's r of the mid-ranks."""
    return _scipy().spearmanr(x, y).statistic


def kendall_b(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b (Kendall 1945, scipy ``kendalltau(variant="b")``)."""
    return _scipy().kendalltau(x, y, variant="b").statistic


def kendall_c(x: np.ndarray, y: np.ndarray) -> float:
    """Stuart's tau-c (scipy ``kendalltau(variant="c")``)."""
    return _scipy().kendalltau(x, y, variant="c").statistic


# -- their batched kernels (sumeval.stats.rows) ----------------------------------------------------

def _pearson_rows(x, y, w, weighted):
    return {"pearson": pearson_rows(x, y, w)}


def _spearman_rows(x, y, w, weighted):
    nan = np.isnan(x) | np.isnan(y)
    rw = w if weighted else None
    return {"spearman": pearson_rows(ranks_rows(np.where(nan, np.nan, x), rw),
                                     ranks_rows(np.where(nan, np.nan, y), rw), w)}


def _kendall_rows(x, y, w, weighted):
    tb, tc = kendall_tau_rows(x, y, w if weighted else None)
    return {"kendall_b": tb, "kendall_c": tc}


# -- the registry ---------------------------------------------------------------------------------

COEFFICIENTS: dict[str, Coefficient] = {}


def register(coef: Coefficient) -> Coefficient:
    """Add a coefficient (its name must be new); it is then accepted by every level, engine and
    test of :mod:`sumeval.stats`."""
    if not isinstance(coef, Coefficient):
        raise InputError(f"register takes a Coefficient, got {type(coef).__name__}")
    if coef.name in COEFFICIENTS:
        raise InputError(f"a coefficient named {coef.name!r} is already registered; choose another name")
    COEFFICIENTS[coef.name] = coef
    return coef


def unregister(name: str) -> None:
    """Remove a coefficient added by :func:`register` (the built-in ones stay)."""
    if name in METHODS:
        raise InputError(f"{name!r} is built in and cannot be removed")
    COEFFICIENTS.pop(name, None)


register(Coefficient("pearson", pearson, "Pearson", rows=_pearson_rows,
                     p_value=lambda x, y: _scipy().pearsonr(x, y).pvalue,
                     source="Pearson (1895); scipy.stats.pearsonr"))
register(Coefficient("spearman", spearman, "Spearman", ranks=True, rows=_spearman_rows,
                     p_value=lambda x, y: _scipy().spearmanr(x, y).pvalue,
                     source="Spearman (1904); scipy.stats.spearmanr"))
register(Coefficient("kendall_b", kendall_b, "Kendall tau-b", r"Kendall $\tau_b$", ranks=True,
                     rows=_kendall_rows,
                     p_value=lambda x, y: _scipy().kendalltau(x, y, variant="b").pvalue,
                     source="Kendall (1945), Biometrika 33; scipy.stats.kendalltau(variant='b')"))
register(Coefficient("kendall_c", kendall_c, "Kendall tau-c", r"Kendall $\tau_c$", ranks=True,
                     rows=_kendall_rows,
                     p_value=lambda x, y: _scipy().kendalltau(x, y, variant="c").pvalue,
                     source="Stuart (1953), Biometrika 40; scipy.stats.kendalltau(variant='c')"))

#: the built-in coefficients (``--coefficient``'s choices)
METHODS: tuple[str, ...] = tuple(COEFFICIENTS)


def coefficient(name: str) -> Coefficient:
    """The registered coefficient ``name``; :class:`~sumeval.errors.InputError` if unknown."""
    if not isinstance(name, str) or name not in COEFFICIENTS:
        raise InputError(
            f"unknown correlation method {name!r}; choose one of {', '.join(COEFFICIENTS)}"
        )
    return COEFFICIENTS[name]


def check_method(method: str) -> str:
    coefficient(method)
    return method


# -- one sample -----------------------------------------------------------------------------------

def correlation(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                method: str) -> float:
    """Correlation of two paired samples.

    Args:
        x, y: shape (n,), paired values; NaN marks a missing value.
        method: a registered coefficient (``"pearson"``, ``"spearman"``, ``"kendall_b"``,
            ``"kendall_c"``, or one added with :func:`register`).

    Returns:
        The coefficient in [-1, 1], computed by its callable over the pairs where neither value
        is NaN; NaN when fewer than 2 pairs remain or either side is constant over them.
    """
    check_method(method)
    xa = float_array(x, "x")
    ya = float_array(y, "y")
    if xa.shape != ya.shape:
        raise InputError(f"x and y must have the same length, got {xa.size} and {ya.size}")
    keep = ~(np.isnan(xa) | np.isnan(ya))
    return pair_value(xa[keep], ya[keep], method)


def pair_value(x: np.ndarray, y: np.ndarray, method: str) -> float:
    """The coefficient of complete data x, y (n,) by its callable; NaN if n < 2 or a side is
    constant."""
    if x.size < 2 or is_constant(x) or is_constant(y):
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # near-constant input warnings; the value is still returned
        return float(COEFFICIENTS[method].pair(x, y))


# -- many rows ------------------------------------------------------------------------------------

def corr_rows(x: np.ndarray, y: np.ndarray, methods: Sequence[str],
              weights: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Correlation per row for each method, over the pairs where both entries are non-NaN.

    Args:
        x, y: shape (R, n).
        methods: registered coefficient names.
        weights: optional shape (R, n) integer multiplicities (None: 1 per point): row r is the
            sample where point i is repeated ``weights[r, i]`` times.

    Returns:
        ``{method: shape (R,)}``: each coefficient's batched kernel, or its callable row by row.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    nan = np.isnan(x) | np.isnan(y)
    w = (~nan).astype(np.float64)
    if weights is not None:
        w = np.where(nan, 0.0, np.asarray(weights, dtype=np.float64))
    weighted = weights is not None
    out: dict[str, np.ndarray] = {}
    for m in methods:
        if m in out:
            continue  # a kernel shared with an earlier method gave it (tau-b and tau-c)
        coef = coefficient(m)
        if coef.rows is None:
            out[m] = pair_rows(x, y, w, m)
        else:
            out.update(coef.rows(x, y, w, weighted))
    return {m: out[m] for m in methods}


def pair_rows(x: np.ndarray, y: np.ndarray, w: np.ndarray, method: str) -> np.ndarray:
    """``method``'s callable on each row's expanded sample: point i repeated w[r, i] times
    (integers; 0 drops it); x, y, w (R, n) -> (R,). The explicit path of every engine."""
    reps = np.rint(w).astype(np.int64)
    out = np.empty(x.shape[0])
    for r in range(x.shape[0]):
        keep = reps[r] > 0
        out[r] = pair_value(np.repeat(x[r][keep], reps[r][keep]), np.repeat(y[r][keep], reps[r][keep]),
                            method)
    return out
