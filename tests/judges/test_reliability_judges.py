"""Reliability of the judges' statistics (issue 30), grouped by class of problem:

- the alt-test: a judge with too few items, a file without the human columns, a human column named as a judge;
- the human ceiling: annotators scored on few documents, identical annotator columns, one rule for every ceiling;
- soft pairwise accuracy against a float32 computation (pce.py's), ties and all; its test at the ends of the float
  range;
- prediction-powered intervals: their measured coverage.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.errors import InputError
from sumeval.judges.alt_test import alt_test

from helpers import FIXTURES  # tests/ is on the path

FIXTURE = FIXTURES / "judges" / "judgments_annotators.csv"


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


# --------------------------------------------------------------------------------------------
# The alt-test: what a judge or a file lacks
# --------------------------------------------------------------------------------------------
def test_a_judge_with_too_few_items_is_skipped_and_the_others_are_tested(tmp_path, capsys):
    frame = pd.read_csv(FIXTURE)
    sparse = frame["judge_good_overall"].where(np.arange(len(frame)) < 12)  # 12 rows scored: < 30 items for all
    frame = frame.assign(judge_sparse_overall=sparse, judge_sparse_fluency=frame["judge_good_fluency"])
    res = alt_test(frame, ["overall", "fluency"], ["judge_good_{human}", "judge_sparse_{human}"]).results
    res = res.set_index(["judge", "human"])
    skipped = res.loc[("judge_sparse", "overall")]
    assert skipped.n_annotators == 0 and not skipped.passed and np.isnan(skipped.winning_rate)
    assert np.isnan(skipped.advantage_probability)
    assert "judge 'judge_sparse_{human}' not tested on 'overall'" in skipped.note and "most: " in skipped.note
    # the other judge on that human column, and the same judge on the other, are tested as before
    alone = alt_test(frame, ["overall", "fluency"], ["judge_good_{human}"]).results.set_index(["judge", "human"])
    for key in [("judge_good", "overall"), ("judge_good", "fluency")]:
        assert res.loc[key, "winning_rate"] == alone.loc[key, "winning_rate"]
        assert res.loc[key, "advantage_probability"] == alone.loc[key, "advantage_probability"]
        assert pd.isna(res.loc[key, "note"])
    assert res.loc[("judge_sparse", "fluency"), "n_annotators"] == 3
    # through the command: the row, and the reason printed and in the manifest
    data = tmp_path / "sparse.csv"
    frame.to_csv(data, index=False)
    out = tmp_path / "alt"
    assert cli.main(["alt-test", str(data), "--human", "overall", "fluency", "--judges", "judge_good_{human}",
                     "judge_sparse_{human}", "--out", str(out)]) == 0
    written = pd.read_csv(out / "alt_test.csv").set_index(["judge", "human"])
    assert written.loc[("judge_sparse", "overall"), "n_annotators"] == 0
    assert "not tested on 'overall'" in capsys.readouterr().err
    manifest = json.loads((out / "manifest.json").read_text())
    assert any("judge_sparse" in n and "not tested" in n for n in manifest["notes"])
    # no judge testable anywhere: an error naming why
    with pytest.raises(InputError, match="no judge could be tested: judge 'judge_sparse_overall' not tested"):
        alt_test(frame, "overall", "judge_sparse_overall")


def test_a_file_needs_no_human_column_beside_its_annotators(tmp_path):
    frame = pd.read_csv(FIXTURE)
    data = tmp_path / "annotators_only.csv"
    frame.drop(columns=["overall", "fluency"]).to_csv(data, index=False)
    out = tmp_path / "alt"
    assert cli.main(["alt-test", str(data), "--human", "overall", "fluency", "--judges", "judge_good_{human}",
                     "--out", str(out), "--no-figures"]) == 0
    got = pd.read_csv(out / "alt_test.csv")
    want = alt_test(frame, ["overall", "fluency"], ["judge_good_{human}"]).results
    np.testing.assert_array_equal(got.winning_rate, want.winning_rate)
    np.testing.assert_array_equal(got.advantage_probability, want.advantage_probability)
    # a human column with neither its column nor annotator columns is still refused
    assert cli.main(["alt-test", str(data), "--human", "overall", "quality", "--judges", "judge_flat",
                     "--out", str(tmp_path / "alt2")]) == 2


@pytest.mark.parametrize("data,humans,judge,what", [
    ("fixture", ["overall", "fluency"], "overall", "the human column 'overall' (--human)"),
    ("fixture", ["overall", "fluency"], "fluency/a2", "an annotator column of the human column 'fluency'"),
    ("summeval", ["coherence"], "fluency", "the human column 'fluency' of the data (not asked with --human)"),
])
def test_a_human_column_named_as_a_judge_is_called_what_it_is(tmp_path, capsys, data, humans, judge, what):
    source = str(FIXTURE) if data == "fixture" else data
    assert cli.main(["alt-test", source, "--human", *humans, "--judges", judge, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"judge {judge!r}: column {judge!r}" in err and what in err and "not a measure column" in err
    assert "no column" not in err  # the column exists: the old message said it did not
    assert not (tmp_path / "o").exists()
    if data == "fixture":  # the function says the same (it used the human column as the judge before)
        with pytest.raises(InputError, match="not a measure column"):
            alt_test(pd.read_csv(FIXTURE), humans, judge)


# --------------------------------------------------------------------------------------------
# The human ceiling: annotators on few documents, identical annotator columns
# --------------------------------------------------------------------------------------------
def _panel(n_docs: int = 20, n_sys: int = 4, seed: int = 3) -> pd.DataFrame:
    """n_docs x n_sys summaries, annotators a, b, c of q (integers 1-5 ordered by system), a measure ``m``."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            ann = np.clip(np.round(1 + s + rng.normal(0, 0.9, 3)), 1, 5)
            rows.append({"doc_id": f"d{d}", "system": f"S{s}", "q/a": ann[0], "q/b": ann[1], "q/c": ann[2],
                         "m": s + rng.normal(0, 1.0)})
    return pd.DataFrame(rows)


def _meta_eval(frame: pd.DataFrame, tmp_path, **settings):
    from sumeval import meta_eval
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures

    frame = frame.assign(q=frame[[c for c in frame.columns if c.startswith("q/")]].mean(axis=1))
    path = tmp_path / "j.csv"
    frame.to_csv(path, index=False)
    j = load_judgments(path, human="q")
    kw = dict(humans=("q",), levels=("system",), n_resamples=50, seed=2, spa_permutations=200)
    return meta_eval.meta_evaluate(j, resolve_measures(["m"], j), meta_eval.Settings(**{**kw, **settings}))


def test_an_annotator_on_few_documents_is_said_and_left_out_of_the_ceiling(tmp_path):
    frame = _panel()
    # c scores every summary of d0, and one system short of every other document: 1 complete document of 20
    gap = (frame["doc_id"] != "d0") & (frame["system"] == "S3")
    frame.loc[gap, "q/c"] = np.nan
    res = _meta_eval(frame, tmp_path)
    acc = res.pairwise_accuracy.set_index(["measure", "level"])
    c = acc.loc[("annotator:c", "system")]
    assert c.n_items == 1 and np.isfinite(c.spa)  # kept in the table
    assert "on 1 of the 20 documents" in c.note and "left out of the human ceiling" in c.note
    a, b, ceiling = acc.loc[("annotator:a", "system")], acc.loc[("annotator:b", "system")], acc.loc[("human ceiling",
                                                                                                      "system")]
    assert a.n_items == b.n_items == 20 and "documents" not in str(a.note)
    for col in ("spa", "plain_accuracy", "accuracy"):
        assert ceiling[col] == pytest.approx((a[col] + b[col]) / 2, abs=1e-12)  # c's value is not averaged in
    assert abs((a.spa + b.spa) / 2 - (a.spa + b.spa + c.spa) / 3) > 1e-3  # as it was before: the data tells
    assert np.isfinite(ceiling.spa_ci_low) and "without c" in ceiling.note and ceiling.target.startswith("each of 2")
    assert any("annotator 'c' of 'q'" in n and "on 1 of the 20 documents" in n for n in res.notes)
    # an annotator on most documents (15 of 20, over half of the best-covered 20) is noted and stays in
    frame = _panel()
    frame.loc[frame["doc_id"].isin(["d1", "d2", "d3", "d4", "d5"]) & (frame["system"] == "S3"), "q/c"] = np.nan
    acc = _meta_eval(frame, tmp_path).pairwise_accuracy.set_index(["measure", "level"])
    c, ceiling = acc.loc[("annotator:c", "system")], acc.loc[("human ceiling", "system")]
    assert "on 15 of the 20 documents" in c.note and "left out" not in c.note
    assert ceiling.target.startswith("each of 3") and "without" not in ceiling.note


def test_identical_annotators_are_counted_once_with_a_note(tmp_path):
    from sumeval.judges.annotators import annotator_correlations, identical_annotators

    frame = _panel().rename(columns={"q/c": "q/d"})
    frame.insert(4, "q/c", frame["q/b"])  # c is a copy of b
    assert identical_annotators(frame, ["q/a", "q/b", "q/c", "q/d"]) == [["q/b", "q/c"]]
    assert identical_annotators(frame.assign(**{"q/c": frame["q/b"].where(frame.index > 0)}),
                                ["q/a", "q/b", "q/c"]) == []  # missing where the other is not: not identical
    res = _meta_eval(frame, tmp_path, levels=("system", "global"))
    assert res.annotators == ["annotator:a", "annotator:b", "annotator:d", "human ceiling"]
    note = next(n for n in res.notes if "identical" in n)
    assert "q/b and q/c of 'q' are identical on all 80 summaries" in note and "q/c left out" in note
    corr = res.correlations.set_index(["measure", "level", "coefficient"])
    # the ceiling is the three distinct annotators', each against the mean of the other two
    distinct = annotator_correlations(frame, "q", level=["system", "global"], n_resamples=50, seed=2,
                                      columns={"q": ["q/a", "q/b", "q/d"]}).set_index(["metric", "level"])
    with_copy = annotator_correlations(frame, "q", level=["system", "global"], n_resamples=0)
    with_copy = with_copy.set_index(["metric", "level"])
    for lv in ("system", "global"):
        got = corr.loc[("human ceiling", lv, "kendall_b"), "value"]
        assert got == pytest.approx(distinct.loc[("human ceiling", lv), "value"], abs=1e-12)
        assert corr.loc[("annotator:b", lv, "kendall_b"), "target"] == "mean of q/a, q/d"
    # the copy inflates the ceiling when counted twice (what meta-eval reported before)
    assert with_copy.loc[("human ceiling", "global"), "value"] > distinct.loc[("human ceiling", "global"), "value"]
    acc = res.pairwise_accuracy.set_index(["measure", "level"])
    assert "annotator:c" not in acc.index.get_level_values(0)
    assert acc.loc[("human ceiling", "system"), "target"].startswith("each of 3")


def test_one_rule_decides_which_annotators_enter_every_ceiling(tmp_path):
    """The correlation ceiling (correlations.csv; the study llm_judges') leaves out an annotator on few documents
    as pairwise_accuracy.csv's does: one function (ceiling_members) decides for both."""
    from sumeval.judges.annotators import MIN_DOCUMENT_SHARE, annotator_correlations, ceiling_members
    from sumeval.studies import llm_judges as lj

    assert list(ceiling_members([20, 20, 9.9, np.nan])) == [True, True, False, True]
    assert list(ceiling_members([20, 10])) == [True, True] and MIN_DOCUMENT_SHARE == 0.5
    frame = _panel()
    frame.loc[~frame["doc_id"].isin(["d0", "d1"]), "q/c"] = np.nan  # c scores every summary of 2 documents of 20
    levels = ("input", "system", "global")
    res = _meta_eval(frame, tmp_path, levels=levels)
    corr = res.correlations.set_index(["measure", "level", "coefficient"])
    acc = res.pairwise_accuracy.set_index(["measure", "level"])
    for lv in levels:
        a, b, c, ceiling = (corr.loc[(m, lv, "kendall_b")] for m in ("annotator:a", "annotator:b", "annotator:c",
                                                                      "human ceiling"))
        assert np.isfinite(c.value)  # c's row is kept
        assert ceiling.value == pytest.approx((a.value + b.value) / 2, abs=1e-12)
        assert abs(ceiling.value - (a.value + b.value + c.value) / 3) > 1e-3  # what correlations.csv had before
        assert ceiling.target.startswith("each of 2") and "without c: fewer than 50% of the 20 documents" in \
            ceiling.target
        assert any(f"annotator 'c' of 'q' ({lv} level, kendall_b): correlation on 2 of the 20 documents" in n
                   and "left out of the human ceiling" in n for n in res.notes)
    # pairwise accuracy's ceiling leaves the same annotator out, by the same rule
    assert "left out of the human ceiling" in acc.loc[("annotator:c", "system"), "note"]
    assert acc.loc[("human ceiling", "system"), "target"].startswith("each of 2")
    # the study's ceiling (the same function) too, with the note
    notes: list[str] = []
    study = lj.human_ceiling(frame, ["q"], levels=levels, coefficients=("kendall_b",), n_resamples=0, seed=0,
                             notes=notes).set_index(["measure", "level"])
    for lv in levels:
        assert study.loc[(lj.CEILING, lv), "value"] == pytest.approx(corr.loc[("human ceiling", lv, "kendall_b"),
                                                                              "value"], abs=1e-12)
        assert study.loc[(lj.CEILING, lv), "n_annotators"] == 2
    assert len(notes) == 3 and all("annotator 'c' of 'q'" in n for n in notes)
    # an annotator on half the documents or more stays in every ceiling
    frame = _panel()
    frame.loc[frame["doc_id"].isin([f"d{d}" for d in range(10)]), "q/c"] = np.nan  # 10 of 20: exactly half
    rows = annotator_correlations(frame.assign(q=0.0), "q", level=list(levels), n_resamples=0)
    ceiling = rows[rows["role"] == "human_ceiling"]
    assert (ceiling["n_annotators"] == 3).all() and rows.loc[rows["role"] == "annotator", "in_ceiling"].all()


# --------------------------------------------------------------------------------------------
# Soft pairwise accuracy: equal to pce.py's float32 arithmetic where scores do not tie, exact where they do
# --------------------------------------------------------------------------------------------
def _pvalues_float32(scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """The p-values as mt-metrics-eval's pce.py computes them (its arithmetic, written here from the module
    docstring of sumeval.stats.soft_pairwise): scores and signs in float32, T* >= T compared exactly."""
    x, s = scores.astype(np.float32), signs.astype(np.float32)
    i, j = np.triu_indices(x.shape[0], 1)
    partial, sums = s @ x.T, x.sum(axis=1)
    return ((partial[:, i] - partial[:, j]) >= (sums[i] - sums[j])).mean(axis=0)


def test_spa_equals_float32_where_scores_do_not_tie_and_is_exact_where_they_do():
    from sumeval.stats.soft_pairwise import permutation_signs, pvalues_upper, spa_from_pvalues

    rng = np.random.default_rng(11)
    n_sys, n_items = 8, 40
    signs = permutation_signs(n_items, 1000, 4)
    iu = np.triu_indices(n_sys, 1)

    def spa(ph, pm):
        a, b = np.full((n_sys, n_sys), np.nan), np.full((n_sys, n_sys), np.nan)
        a[iu], b[iu] = ph, pm
        return spa_from_pvalues(a, b)

    # untied (continuous) scores: the same p-values and SPA as the float32 computation, bit for bit
    human = rng.normal(size=(n_sys, n_items)) + np.arange(n_sys)[:, None] * 0.1
    metric = human + rng.normal(size=human.shape)
    for x in (human, metric):
        np.testing.assert_array_equal(pvalues_upper(x, signs), _pvalues_float32(x, signs))
    assert spa(pvalues_upper(human, signs), pvalues_upper(metric, signs)) == \
        spa(_pvalues_float32(human, signs), _pvalues_float32(metric, signs))
    # tied scores, as SummEval's (the mean of 3 ratings 1-5: multiples of 1/3): sumeval counts a permuted sum equal
    # to the observed one as ">=", exactly as integer arithmetic on 3 x the scores does; float32 rounds 1/3, so
    # rounding decides those ties, and only those
    ratings = np.clip(np.round(3 + np.arange(n_sys)[:, None, None] * 0.15 + rng.normal(0, 1, (n_sys, n_items, 3))),
                      1, 5)
    tied = ratings.mean(axis=2)
    k = ratings.sum(axis=2).astype(np.int64)  # 3 x the scores, exactly
    null = signs.astype(np.int64) @ k.T
    null, test = null[:, iu[0]] - null[:, iu[1]], k.sum(axis=1)[iu[0]] - k.sum(axis=1)[iu[1]]
    exact, n_ties = (null >= test).mean(axis=0), (null == test).sum(axis=0)
    ours, f32 = pvalues_upper(tied, signs), _pvalues_float32(tied, signs)
    np.testing.assert_array_equal(ours, exact)
    differs = ours != f32
    assert differs.any() and (n_ties[differs] > 0).all()  # they differ, and only on pairs with ties...
    assert (np.abs(np.rint(ours * 1000) - np.rint(f32 * 1000)) <= n_ties).all()  # ...by at most their ties


def test_spa_test_standardises_measures_at_the_ends_of_the_float_range():
    """The SPA test's z-scores are scaled by a power of two first (as every Pearson entry point): a measure
    given in units of 2^600 (squares overflow: the std was inf, every z 0) or 2^-600 (squares underflow: the
    std was 0, the scores only centred) is tested as the same measure in ordinary units, bit for bit."""
    from sumeval.stats.spa_test import spa_permutation_test

    rng = np.random.default_rng(5)
    n_sys, n_items = 5, 24
    human = rng.random((n_sys, n_items)) * 4 + np.linspace(0, 1.5, n_sys)[:, None]
    a, b = human + rng.random(human.shape) * 3, human + rng.random(human.shape) * 3.5
    frame = pd.DataFrame([{"doc_id": f"d{i}", "system": f"s{s}", "h": human[s, i], "a": a[s, i], "b": b[s, i]}
                          for i in range(n_items) for s in range(n_sys)])
    kw = dict(n_resamples=200, seed=3, n_permutations=200)
    ref = spa_permutation_test(frame, "a", "b", "h", **kw)
    assert ref["d_standardised"] != 0 and 0 < ref["p_value"] < 1
    for ea, eb in ((600, 600), (-600, -600), (600, -600)):
        scaled = frame.assign(a=np.ldexp(frame["a"], ea), b=np.ldexp(frame["b"], eb))
        assert spa_permutation_test(scaled, "a", "b", "h", **kw) == ref, (ea, eb)


# --------------------------------------------------------------------------------------------
# Prediction-powered intervals: coverage measured on the data at hand, and said when too low
# --------------------------------------------------------------------------------------------
def _skewed(n_docs: int = 60, seed: int = 4) -> pd.DataFrame:
    """3 systems; human scores mostly 5 with a few 1s (as SummEval's consistency), a judge near them."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for s in range(3):
            h = 1.0 if rng.random() < 0.08 + 0.04 * s else 5.0
            rows.append({"doc_id": f"d{d}", "system": f"s{s}", "h": h, "judge": h + rng.normal(0, 1.5)})
    return pd.DataFrame(rows)


def test_ppi_coverage_is_measured_beside_every_interval_and_too_low_is_said():
    from sumeval.judges.ppi import MIN_COVERAGE, classical_mean_ci, label_curve, ppi_mean_ci

    frame = _skewed()
    curve = label_curve(frame, "h", "judge", n_labels=(5, 40), n_repeats=300, seed=2)
    # the coverage is the share of the seeded draws whose interval holds the system's mean over all its items:
    # redo the first system's draws at n = 5 by hand
    rng = np.random.default_rng(2)
    items = np.flatnonzero(frame["system"].to_numpy() == "s0")
    order = np.argsort(rng.random((300, items.size)), axis=1)
    lab, unlab = items[order[:, :5]], items[order[:, 5:]]
    y, f = frame["h"].to_numpy(), frame["judge"].to_numpy()
    truth = y[items].mean()
    _, lo_h, hi_h = classical_mean_ci(y[lab])
    _, lo, hi, _ = ppi_mean_ci(y[lab], f[lab], f[unlab])
    row = curve.set_index(["system", "n_labels"]).loc[("s0", 5)]
    assert row.coverage_ppi == ((lo <= truth) & (truth <= hi)).mean()
    assert row.coverage_human == ((lo_h <= truth) & (truth <= hi_h)).mean()
    # 5 labels of skewed scores: often all 5s, a zero-width interval that misses the mean; said in the note
    small = curve[curve.n_labels == 5]
    assert (small.coverage_ppi < MIN_COVERAGE).all()
    assert small.note.str.contains("too few labels to trust this interval").all()
    assert small.note.str.contains(r"measured coverage PPI 0\.\d\d").all() and small.note.str.contains("n = 5").all()
    big = curve[curve.n_labels == 40]
    assert ((big.coverage_ppi >= MIN_COVERAGE) & (big.coverage_human >= MIN_COVERAGE) == big.note.isna()).all()
    assert big.note.isna().any()
    # a stricter threshold notes more rows
    strict = label_curve(frame, "h", "judge", n_labels=(40,), n_repeats=300, seed=2, min_coverage=0.999)
    assert strict.note.notna().sum() > big.note.notna().sum()
    with pytest.raises(InputError, match="min_coverage 1.5"):
        label_curve(frame, "h", "judge", n_labels=(5,), min_coverage=1.5)


def test_the_ppi_figure_shows_the_measured_coverage():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sumeval.judges.ppi import MIN_COVERAGE, label_curve
    from sumeval.plots.judges import ppi_widths

    curve = label_curve(_skewed(), "h", "judge", n_labels=(5, 20, 40), n_repeats=50)
    fig, axes = ppi_widths(curve, min_coverage=MIN_COVERAGE)
    lines = axes[1, 0].get_lines()
    np.testing.assert_allclose(lines[0].get_ydata(), curve.groupby("n_labels")["coverage_ppi"].mean().to_numpy())
    np.testing.assert_allclose(lines[1].get_ydata(), curve.groupby("n_labels")["coverage_human"].mean().to_numpy())
    assert {tuple(ln.get_ydata()) for ln in lines[2:]} == {(0.95, 0.95), (MIN_COVERAGE, MIN_COVERAGE)}
    plt.close(fig)
    fig, axes = ppi_widths(curve)  # the threshold is the caller's: without it, no dotted line
    assert {tuple(ln.get_ydata()) for ln in axes[1, 0].get_lines()[2:]} == {(0.95, 0.95)}
    plt.close(fig)
