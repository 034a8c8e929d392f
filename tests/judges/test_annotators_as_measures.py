"""Annotators as measures (sumeval.judges.annotators): each annotator against the mean of the others,
and their average as the human ceiling; the leave-one-out rows by hand on a 3-annotator fixture."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sumeval import stats
from sumeval.errors import InputError
from sumeval.judges.annotators import HUMAN_CEILING, annotator_correlations, leave_one_out_targets

from helpers import three_annotators  # tests/ is on the path

N = np.nan
FRAME = three_annotators()  # 2 documents x 3 systems, annotators a, b, c of q (c did not rate d2/s1)


def test_leave_one_out_targets_by_hand():
    t = leave_one_out_targets(FRAME[["q/a", "q/b", "q/c"]].to_numpy())
    # a's target = mean(b, c); on d2/s1 c is missing, so b alone (3)
    np.testing.assert_allclose(t[:, 0], [2.5, 2.0, 4.5, 3.0, 1.5, 4.5])
    # b's target = mean(a, c): d2/s1 -> a alone (4)
    np.testing.assert_allclose(t[:, 1], [2.0, 2.0, 3.5, 4.0, 2.0, 5.0])
    # c's target = mean(a, b), NaN where c has no score
    np.testing.assert_allclose(t[:, 2], [1.5, 2.0, 4.0, N, 1.5, 4.5])
    # a row where only one annotator scored gives that annotator no target
    one = leave_one_out_targets(np.array([[3.0, N, N], [1.0, 2.0, N]]))
    assert np.isnan(one[0]).all() and one[1, 0] == 2.0 and one[1, 1] == 1.0 and np.isnan(one[1, 2])


def test_global_pearson_rows_by_hand():
    out = annotator_correlations(FRAME, "q", level="global", methods="pearson", n_resamples=0)
    rows = out.set_index("metric")
    # a = [1, 2, 3, 4, 2, 5] (mean 17/6) against [2.5, 2, 4.5, 3, 1.5, 4.5] (mean 3): sum of products of
    # deviations 13/2, sums of squares 65/6 and 8 -> r = 6.5 / sqrt(65/6 * 8) = 0.698212
    r_a = 6.5 / math.sqrt(65 / 6 * 8)
    # b = [2, 2, 5, 3, 1, 4] against [2, 2, 3.5, 4, 2, 5]: 85/12 / sqrt(65/6 * 197/24) = 0.751154
    r_b = (85 / 12) / math.sqrt(65 / 6 * 197 / 24)
    # c = [3, 2, 4, 2, 5] (5 rows) against [1.5, 2, 4, 1.5, 4.5]: 34/5 / sqrt(34/5 * 83/10) = 0.905139
    r_c = (34 / 5) / math.sqrt(34 / 5 * 83 / 10)
    assert rows.loc["q/a", "value"] == pytest.approx(r_a, abs=1e-12)
    assert rows.loc["q/b", "value"] == pytest.approx(r_b, abs=1e-12)
    assert rows.loc["q/c", "value"] == pytest.approx(r_c, abs=1e-12)
    assert rows.loc["q/c", "n"] == 5 and rows.loc["q/c", "n_skipped"] == 1 and rows.loc["q/a", "n"] == 6
    ceiling = rows.loc[HUMAN_CEILING]
    assert ceiling.value == pytest.approx((r_a + r_b + r_c) / 3, abs=1e-12)
    assert ceiling.role == "human_ceiling" and ceiling.n_annotators == 3 and ceiling.n == 5
    assert rows.loc["q/a", "role"] == "annotator" and rows.loc["q/a", "annotator"] == "a"
    assert rows.loc["q/a", "target"] == "mean of q/b, q/c"


def test_system_kendall_rows_by_hand():
    out = annotator_correlations(FRAME, ["q"], level="system", methods=["kendall_b"], n_resamples=0).set_index("metric")
    # system means over the rows where the annotator and its target are present:
    # a [2.5, 2, 4] vs target [2.75, 1.75, 4.5]: same order -> 1
    # b [2.5, 1.5, 4.5] vs [3, 2, 4.25]: same order -> 1
    # c [3 (d1 only), 2, 4.5] vs [1.5, 1.75, 4.25]: pair (s1, s2) discordant, two concordant -> (2 - 1)/3
    assert out.loc["q/a", "value"] == pytest.approx(1.0)
    assert out.loc["q/b", "value"] == pytest.approx(1.0)
    assert out.loc["q/c", "value"] == pytest.approx(1 / 3)
    assert out.loc[HUMAN_CEILING, "value"] == pytest.approx(7 / 9)


def test_same_numbers_as_stats_correlate():
    # the annotator rows are meta-eval's correlations (stats.correlate) of the annotator column with its
    # leave-one-out target, intervals included (the same resamples from the same seed)
    targets = leave_one_out_targets(FRAME[["q/a", "q/b", "q/c"]].to_numpy())
    framed = FRAME.assign(target_b=targets[:, 1])
    kw = dict(level=["input", "system", "global"], methods=["pearson", "kendall_b"], n_resamples=200, seed=5,
              resample="both")
    ours = annotator_correlations(FRAME, "q", **kw)
    ours = ours[ours.metric == "q/b"].reset_index(drop=True)
    ref = stats.correlate(framed, "q/b", "target_b", **kw)
    for col in ("value", "ci_low", "ci_high", "n", "n_skipped", "n_resamples_used"):
        np.testing.assert_array_equal(ours[col].to_numpy(), ref[col].to_numpy(), err_msg=col)
    ceiling = annotator_correlations(FRAME, "q", **kw)
    ceiling = ceiling[ceiling.metric == HUMAN_CEILING]
    assert len(ceiling) == 6 and (ceiling.n_resamples_used > 0).all()
    assert ((ceiling.ci_low <= ceiling.value + 1e-12) & (ceiling.value <= ceiling.ci_high + 1e-12)).all()


def test_two_annotators_target_each_other():
    f = FRAME.drop(columns=["q/c"])
    out = annotator_correlations(f, "q", level="global", methods="pearson", n_resamples=0).set_index("metric")
    r = np.corrcoef(f["q/a"], f["q/b"])[0, 1]  # the other annotator alone is the target: symmetric
    assert out.loc["q/a", "value"] == pytest.approx(r) and out.loc["q/b", "value"] == pytest.approx(r)
    assert out.loc[HUMAN_CEILING, "value"] == pytest.approx(r)


def test_needs_two_annotators():
    with pytest.raises(InputError, match="human column 'q'.*only q/a"):
        annotator_correlations(FRAME.drop(columns=["q/b", "q/c"]), "q", level="global")
    with pytest.raises(InputError, match="human column 'z'.*none"):
        annotator_correlations(FRAME, "z", level="global")
    with pytest.raises(InputError, match="unknown correlation level 'sentence'"):
        annotator_correlations(FRAME, "q", level="sentence")
