"""A share of items (a proportion, such as PMR: the share of test documents ordered exactly) against
a published one measured on another test set: how far apart can they be by the draw of the two test
sets alone?

- :func:`proportion_interval`: the Wilson score interval of k successes in n (Wilson 1927, "Probable
  inference, the law of succession, and statistical inference", JASA 22(158)); ``scipy.stats.binomtest``.
- :func:`proportion_gap_test`: Fisher's exact test of the 2 x 2 table (successes, failures) x (ours,
  theirs) (Fisher 1922, "On the interpretation of chi-squared from contingency tables, and the
  calculation of P", JRSS 85(1)); ``scipy.stats.fisher_exact``, two-sided. The two proportions are
  treated as independent draws (two test sets); on the same test documents a paired test is the
  right one, and this one is conservative.

A published proportion comes as a rounded number: its count is ``round(p * n)``, which is exact
when the paper's n and its rounding leave one count possible (PMR 29.17 on 195 documents: 57).
"""
from __future__ import annotations

import math
import numbers

from sumeval.errors import InputError


def _count(p: float, n: int, where: str) -> int:
    """``round(p * n)`` after checking ``0 <= p <= 1`` and ``n >= 1`` (InputError naming ``where``)."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise InputError(f"{where}: the number of items n = {n!r}; it must be a whole number >= 1")
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not math.isfinite(p) or not 0 <= p <= 1:
        raise InputError(f"{where}: the proportion {p!r} must be a number in [0, 1]")
    return int(round(float(p) * int(n)))


def proportion_interval(p: float, n: int, ci: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``p`` of ``n`` items (its count ``round(p * n)``).

    >>> [round(x, 4) for x in proportion_interval(57 / 195, 195)]
    [0.233, 0.3597]
    >>> [round(x, 4) for x in proportion_interval(0.0, 10)]     # a share of 0 still has an interval above
    [0.0, 0.2775]
    """
    from scipy import stats

    if isinstance(ci, bool) or not isinstance(ci, numbers.Real) or not 0 < ci < 1:
        raise InputError(f"proportion_interval: ci = {ci!r}; it must be a number in (0, 1), e.g. 0.95")
    k = _count(p, n, "proportion_interval")
    lo, hi = stats.binomtest(k, int(n)).proportion_ci(confidence_level=ci, method="wilson")
    return float(lo), float(hi)


def proportion_gap_test(p: float, n: int, p_other: float, n_other: int) -> float:
    """Two-sided p-value of Fisher's exact test that the proportions ``p`` of ``n`` items and
    ``p_other`` of ``n_other`` items (two independent test sets) are the same.

    >>> round(proportion_gap_test(91 / 377, 377, 57 / 195, 195), 4)   # PMR 0.241 on 377 against 0.292 on 195
    0.1919
    >>> proportion_gap_test(0.5, 100, 0.5, 100)
    1.0
    """
    from scipy import stats

    k, k_other = _count(p, n, "proportion_gap_test (ours)"), _count(p_other, n_other, "proportion_gap_test (other)")
    table = [[k, int(n) - k], [k_other, int(n_other) - k_other]]
    return float(stats.fisher_exact(table, alternative="two-sided").pvalue)
