"""Wilson intervals and Fisher's exact test of two proportions (sumeval.stats.proportions), by hand."""
from __future__ import annotations

import math

import pytest

from sumeval.errors import InputError
from sumeval.stats.proportions import proportion_gap_test, proportion_interval


def _wilson(k, n, z=1.959963984540054):
    """Wilson (1927): (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)."""
    p = k / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


@pytest.mark.parametrize("k, n", [(57, 195), (91, 377), (0, 10), (10, 10), (412, 5055)])
def test_wilson_interval_by_hand(k, n):
    assert proportion_interval(k / n, n) == pytest.approx(_wilson(k, n), abs=1e-12)


def test_a_rounded_published_share_takes_its_nearest_count():
    # Table 2's NIPS PMR for ATTOrderNet, 29.17 on 195 test documents: 56.88 -> 57
    assert proportion_interval(0.2917, 195) == proportion_interval(57 / 195, 195)


def test_fisher_exact_by_hand():
    # [[3, 1], [1, 3]]: hypergeometric P(X = 0..4) = 1, 16, 36, 16, 1 over 70; two-sided sums those <= P(3) = 16/70
    assert proportion_gap_test(3 / 4, 4, 1 / 4, 4) == pytest.approx(34 / 70, abs=1e-12)
    # [[4, 0], [0, 4]]: only the two extreme tables, 2 / 70
    assert proportion_gap_test(1.0, 4, 0.0, 4) == pytest.approx(2 / 70, abs=1e-12)
    assert proportion_gap_test(0.5, 100, 0.5, 100) == 1.0


@pytest.mark.parametrize("call, match", [
    (lambda: proportion_interval(1.2, 10), r"proportion 1.2 must be a number in \[0, 1\]"),
    (lambda: proportion_interval(0.5, 0), "n = 0; it must be a whole number >= 1"),
    (lambda: proportion_interval(0.5, 10, ci=1.0), r"ci = 1.0; it must be a number in \(0, 1\)"),
    (lambda: proportion_interval(0.5, 10, ci="95%"), r"proportion_interval: ci = '95%'; it must be a number"),
    (lambda: proportion_gap_test(0.5, 10, float("nan"), 10), r"\(other\): the proportion nan"),
    (lambda: proportion_gap_test(0.5, 2.5, 0.5, 10), r"\(ours\): the number of items n = 2.5"),
])
def test_bad_input_is_named(call, match):
    with pytest.raises(InputError, match=match):
        call()
