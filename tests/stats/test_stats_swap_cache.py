"""The permutation kernels' shared pieces (issue 36): what depends on one measure is built once for the
pairs of a family (SwapCache), the tie term runs on the classes that can tie, dense or sparse, and the
permuted statistics stay what the per-permutation computation (scipy's coefficients on the swapped
grids) gives, bit for bit between the shared and the unshared kernels."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sumeval.stats.grouped import GroupSwaps, SwapCache
from sumeval.stats.permutation import permutation_masks, permutation_test


def _frame(n_docs: int = 12, n_sys: int = 6) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    rows = [(f"d{d}", f"s{s}") for d in range(n_docs) for s in range(n_sys)]
    f = pd.DataFrame(rows, columns=["doc_id", "system"])
    h = rng.integers(1, 6, len(f)).astype(float)  # a Likert human score: many ties
    f["human"] = h
    f["a"] = h + rng.normal(size=len(f))
    f["b"] = np.round(h + rng.normal(size=len(f)), 0)  # few values: tied classes
    f["c"] = rng.normal(size=len(f))
    f["d"] = np.round(f["a"], 1)
    f.loc[f.index[::7], "d"] = np.nan  # its pairs use fewer rows: their own grids
    return f


@pytest.mark.parametrize("method", ["kendall_b", "kendall_c", "spearman"])
@pytest.mark.parametrize("level", ["input", "global"])
def test_shared_pieces_give_the_same_permuted_statistics(method, level):
    f = _frame()
    masks = permutation_masks(6, 12, "both", 200, 0)
    cache = SwapCache()
    measures = ["a", "b", "c", "d"]
    for i, a in enumerate(measures):
        for b in measures[i + 1:]:
            shared = permutation_test(f, a, b, "human", level=level, method=method, masks=masks,
                                      return_samples=True, cache=cache)
            alone = permutation_test(f, a, b, "human", level=level, method=method, masks=masks,
                                     return_samples=True)
            np.testing.assert_array_equal(shared["samples"], alone["samples"])
            assert shared["p_value"] == alone["p_value"] and shared["count"] == alone["count"]
    own = [k for k in cache._store if k[0] in ("kendall", "signs")]
    # one sign matrix per grid, whatever the number of pairs: a, b and c on all rows (their 3 pairs),
    # a, b, c and d on d's rows (d's 3 pairs), the human's on both (12 were built per pair before)
    assert len(own) == 3 + 4 + 2


def test_tie_term_dense_and_sparse_equal_the_per_permutation_coefficients():
    rng = np.random.default_rng(0)
    masks = rng.random((64, 1, 300)) < 0.5
    z = rng.integers(1, 6, (1, 300)).astype(float)
    seen = set()
    for x, y in [(np.round(rng.normal(size=(1, 300)), 1), np.round(rng.normal(size=(1, 300)), 1)),  # many classes
                 (rng.integers(0, 2, (1, 300)).astype(float), rng.normal(size=(1, 300))),  # two classes
                 (rng.normal(size=(1, 300)), rng.normal(size=(1, 300)))]:  # no tie
        for method in ("kendall_b", "kendall_c", "spearman"):
            swaps = GroupSwaps(x, y, z, method)
            seen.add(swaps.classes.dense if swaps.classes.tied.size else None)
            fast, slow = swaps(masks), swaps._explicit(masks)
            for got, want in zip(fast, slow):
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert seen == {True, False, None}  # the dense and the sparse tie term, and none
