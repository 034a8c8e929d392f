"""Missing values in a meta-evaluation: one rule (pairwise-complete) in every output.

Each case writes a small judgments file with precomputed measure columns (or a scorer class that
returns NaN), runs `sumeval meta-eval`, and checks that correlations.csv, ranking.csv and the
tables (CSV, Markdown, LaTeX, HTML) show the same number for every (measure, human, level,
coefficient); that the number is scipy's on the rows where the measure and the human are both
present; that the tests of two measures say which rows they used; and that the manifest and
not_scored.csv account for every missing value.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval.cli import main
from sumeval.metrics.records import NotScoredWarning

N_DOCS, SYSTEMS = 6, ["s1", "s2", "s3", "s4"]
KEYS = ["measure", "human", "level", "coefficient"]


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


def _frame(seed: int = 0) -> pd.DataFrame:
    """N_DOCS documents x 4 systems; human h (and g); measures good (h + noise), fair (more
    noise), noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(N_DOCS):
        for k, s in enumerate(SYSTEMS):
            h = k + rng.normal()
            rows.append({"doc_id": f"d{d}", "system": s, "h": round(h, 3), "g": round(rng.normal(), 3),
                         "good": round(h + 0.3 * rng.normal(), 3), "fair": round(h + 1.5 * rng.normal(), 3),
                         "noise": round(rng.normal(), 3)})
    return pd.DataFrame(rows)


def _run(tmp_path, frame, humans, measures, *extra, name="j.csv", rc=0, capsys=None):
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / name
    frame.to_csv(path, index=False)
    out = tmp_path / "out"
    code = main(["meta-eval", str(path), "--human", *humans, "--measures", *measures, "--n-resamples", "60",
                 "--coefficient", "kendall_b", "pearson", "-q", "--no-figures", "--out", str(out), *extra])
    assert code == rc, capsys.readouterr().err if capsys else code
    return out


def _cells(out, coefficient):
    """The table_<coefficient>.csv cells as {(measure, human, level): value} (a table with a block
    column - Measures, then the length sentinel where the file has summaries - read without it)."""
    t = pd.read_csv(out / f"table_{coefficient}.csv", header=[0, 1], index_col=0)
    if "Measures" in t.index:
        t = pd.read_csv(out / f"table_{coefficient}.csv", header=[0, 1], index_col=[0, 1]).droplevel(0)
    return {(m, h, lv): t.loc[m, (h, lv)] for m in t.index for (h, lv) in t.columns}


def _assert_one_source(out):
    """correlations.csv, ranking.csv and every table format show the same numbers."""
    corr = pd.read_csv(out / "correlations.csv")
    ranking = pd.read_csv(out / "ranking.csv")
    merged = corr.merge(ranking, on=KEYS, suffixes=("", "_ranked"), validate="one_to_one")
    assert len(merged) == len(corr) == len(ranking)
    np.testing.assert_array_equal(merged["value"].to_numpy(), merged["value_ranked"].to_numpy())
    for coef in corr["coefficient"].unique():
        cells = _cells(out, coef)
        md = (out / f"table_{coef}.md").read_text()
        tex = (out / f"table_{coef}.tex").read_text()
        html = (out / f"table_{coef}.html").read_text()
        for r in corr[corr["coefficient"] == coef].itertuples():
            cell = cells[(r.measure, r.human, r.level)]
            assert (math.isnan(cell) and math.isnan(r.value)) or cell == r.value, (r, cell)
            if not math.isnan(r.value):
                shown = f"{r.value:.3f}"
                typeset = shown.replace("-", "$-$")  # LaTeX cells carry a real minus
                assert shown in md and typeset in tex and shown in html, (coef, r.measure, shown)
    return corr, ranking


def test_nan_in_a_measure_only(tmp_path, capsys):
    f = _frame()
    f.loc[[2, 9, 17], "fair"] = np.nan
    out = _run(tmp_path, f, ["h"], ["good", "fair"], capsys=capsys)
    err = capsys.readouterr().err
    corr, ranking = _assert_one_source(out)
    keep = f["fair"].notna()
    row = corr.set_index(KEYS).loc[("fair", "h", "global", "kendall_b")]
    # global: scipy over the 21 rows where fair and h are both present (3 of 24 dropped)
    assert row["value"] == pytest.approx(ss.kendalltau(f.loc[keep, "fair"], f.loc[keep, "h"]).statistic, abs=1e-12)
    assert (row["n"], row["n_skipped"]) == (21, 3) and pd.isna(row["reason"])
    # system: the means over each system's present rows (pairwise-complete, not listwise)
    means = f[keep].groupby("system")[["fair", "h"]].mean()
    sys_r = corr.set_index(KEYS).loc[("fair", "h", "system", "pearson"), "value"]
    assert sys_r == pytest.approx(ss.pearsonr(means["fair"], means["h"]).statistic, abs=1e-12)
    # good has no missing value: its numbers use all 24 rows
    assert corr.set_index(KEYS).loc[("good", "h", "global", "kendall_b"), "n"] == 24
    not_scored = pd.read_csv(out / "not_scored.csv")
    assert sorted(not_scored["row"]) == [2, 9, 17] and set(not_scored["measure"]) == {"fair"}
    manifest = json.loads((out / "manifest.json").read_text())
    mv = manifest["missing_values"]
    assert mv["rule"].startswith("pairwise-complete")
    assert mv["measures"]["fair"] == {"no_number": 3, "rows_used": {"h": 21}}
    assert mv["measures"]["good"] == {"no_number": 0, "rows_used": {"h": 24}}
    assert "measure 'fair' has no number on 3 of 24 rows (rows 2, 9, 17)" in err
    assert "pairwise-complete" in (out / "table_kendall_b.md").read_text()


def test_nan_in_the_human_only(tmp_path):
    f = _frame(1)
    f.loc[[0, 5, 6, 23], "h"] = np.nan
    out = _run(tmp_path, f, ["h"], ["good", "fair", "noise"])
    corr, _ = _assert_one_source(out)
    keep = f["h"].notna()
    for m in ("good", "fair", "noise"):
        row = corr.set_index(KEYS).loc[(m, "h", "global", "pearson")]
        assert row["value"] == pytest.approx(ss.pearsonr(f.loc[keep, m], f.loc[keep, "h"]).statistic, abs=1e-12)
        assert row["n"] == 20
    mv = json.loads((out / "manifest.json").read_text())["missing_values"]
    assert mv["humans"] == {"h": {"no_value": 4}}
    assert all(v["rows_used"] == {"h": 20} and v["no_number"] == 0 for v in mv["measures"].values())
    assert not (out / "not_scored.csv").exists()  # no measure lacks a number
    pair = pd.read_csv(out / "pairwise.csv")
    assert set(pair["n_rows"]) == {20} and pair["note"].str.startswith("20 of 24 rows used").all()


def test_nan_in_both_at_different_rows_tests_use_the_common_rows(tmp_path):
    f = _frame(2)
    f.loc[[1, 2, 3], "good"] = np.nan
    f.loc[[10, 11], "fair"] = np.nan
    f.loc[[20], "h"] = np.nan
    out = _run(tmp_path, f, ["h"], ["good", "fair"])
    corr, _ = _assert_one_source(out)
    c = corr.set_index(KEYS)
    # each correlation: the rows where that measure and h are present
    assert c.loc[("good", "h", "global", "kendall_b"), "n"] == 24 - 3 - 1
    assert c.loc[("fair", "h", "global", "kendall_b"), "n"] == 24 - 2 - 1
    # the test of good against fair: the 18 rows where good, fair and h are all present
    pair = pd.read_csv(out / "pairwise.csv").set_index(["level", "coefficient"])
    common = f[["good", "fair", "h"]].notna().all(axis=1)
    assert int(common.sum()) == 18 and set(pair["n_rows"]) == {18}
    glob = pair.loc[("global", "kendall_b")]
    assert glob["corr_a"] == pytest.approx(ss.kendalltau(f.loc[common, "good"], f.loc[common, "h"]).statistic,
                                           abs=1e-12)
    assert "18 of 24 rows used" in glob["note"] and "'good', 'fair' and 'h' all present" in glob["note"]
    # ... which differs from correlations.csv's (21 rows); the ranking shows correlations.csv's
    assert glob["corr_a"] != c.loc[("good", "h", "global", "kendall_b"), "value"]


def test_a_whole_document_missing_for_one_measure(tmp_path):
    f = _frame(3)
    f.loc[f["doc_id"] == "d4", "fair"] = np.nan
    out = _run(tmp_path, f, ["h"], ["good", "fair"], "--level", "input", "global")
    corr, _ = _assert_one_source(out)
    row = corr.set_index(KEYS).loc[("fair", "h", "input", "kendall_b")]
    assert (row["n"], row["n_skipped"]) == (N_DOCS - 1, 1)
    # the input level: the mean over the 5 other documents of the per-document tau-b
    per_doc = [ss.kendalltau(g["fair"], g["h"]).statistic for d, g in f.groupby("doc_id") if d != "d4"]
    assert row["value"] == pytest.approx(np.mean(per_doc), abs=1e-12)
    not_scored = pd.read_csv(out / "not_scored.csv")
    assert set(not_scored["doc_id"]) == {"d4"} and len(not_scored) == 4


def test_a_system_without_any_number(tmp_path):
    f = _frame(4)
    f = pd.concat([f, _frame(5).query("system == 's1'").assign(system="s5")], ignore_index=True)
    f.loc[f["system"] == "s5", "fair"] = np.nan
    out = _run(tmp_path, f, ["h"], ["good", "fair"], "--level", "system", "global")
    corr, _ = _assert_one_source(out)
    row = corr.set_index(KEYS).loc[("fair", "h", "system", "pearson")]
    means = f[f["fair"].notna()].groupby("system")[["fair", "h"]].mean()
    assert (row["n"], row["n_skipped"]) == (4, 1)
    assert row["value"] == pytest.approx(ss.pearsonr(means["fair"], means["h"]).statistic, abs=1e-12)
    assert corr.set_index(KEYS).loc[("good", "h", "system", "pearson"), "n"] == 5


def test_one_measure_s_missing_values_do_not_move_another_s_numbers(tmp_path):
    """Pairwise-complete, not listwise: adding a measure with holes leaves the others as they were."""
    f = _frame(6)
    alone = pd.read_csv(_run(tmp_path / "a", f, ["h"], ["good"]) / "correlations.csv")
    f.loc[[0, 4, 8, 15], "noise"] = np.nan
    both = pd.read_csv(_run(tmp_path / "b", f, ["h"], ["good", "noise"]) / "correlations.csv")
    pd.testing.assert_frame_equal(alone, both[both["measure"] == "good"].reset_index(drop=True))


def test_the_table_and_ranking_never_show_a_test_s_own_correlation(tmp_path):
    """M22 (a system-level sign flip between the test's rows and all rows): the ranking and the
    table show correlations.csv; pairwise.csv keeps the test's rows' values and says so."""
    rows = []
    for d in range(3):
        for k, s in enumerate(SYSTEMS):
            rows.append({"doc_id": f"d{d}", "system": s, "h": float(k), "a": float(k), "b": float(k)})
    f = pd.DataFrame(rows)
    # on d0 system s1 gets a high a and a low h; b is missing exactly there
    f.loc[(f["doc_id"] == "d0") & (f["system"] == "s1"), ["a", "h", "b"]] = [9.0, -9.0, np.nan]
    out = _run(tmp_path, f, ["h"], ["a", "b"], "--level", "system")
    corr, ranking = _assert_one_source(out)
    c = corr.set_index(KEYS)
    pair = pd.read_csv(out / "pairwise.csv").set_index("coefficient")
    # over all rows: system means of a = (9+0+0)/3, 1, 2, 3 = (3, 1, 2, 3), of h = (-3, 1, 2, 3)
    # -> Pearson = Sxy / sqrt(Sxx Syy) = -1.75 / sqrt(2.75 * 20.75) = -0.2317; on the test's rows it is +1
    a_all = c.loc[("a", "h", "system", "pearson"), "value"]
    assert a_all == pytest.approx(ss.pearsonr([3, 1, 2, 3], [-3, 1, 2, 3]).statistic, abs=1e-12)
    assert a_all == pytest.approx(-0.2316661873, abs=1e-9)
    # on the 11 rows with a, b and h: a == h everywhere, so the test's corr_a is 1
    assert pair.loc["pearson", "corr_a"] == pytest.approx(1.0) and pair.loc["pearson", "n_rows"] == 11
    assert ranking.set_index(KEYS).loc[("a", "h", "system", "pearson"), "value"] == a_all


def test_a_scorer_that_returns_nan(tmp_path, capsys):
    """A user's Scorer returning NaN on some rows: the frame holds NaN, the rule handles it."""
    (tmp_path / "nanscorer.py").write_text(
        "import numpy as np\n"
        "from sumeval.metrics import Scorer\n"
        "class SomeNaN(Scorer):\n"
        "    name = 'some-nan'\n    needs = ()\n    higher_is_better = True\n    version = '1'\n"
        "    def options(self):\n        return {}\n"
        "    def columns(self):\n        return ['some-nan']\n"
        "    def score_batch(self, batch):\n"
        "        v = np.array([len(s) for s in batch.summaries], dtype=float)\n"
        "        v[::3] = np.nan\n"
        "        return {'some-nan': v}\n")
    f = _frame(7)
    f["summary"] = [("word " * (1 + (i * 7) % 11)).strip() for i in range(len(f))]
    with pytest.warns(NotScoredWarning, match=r"gave no number \(NaN or None\) for 8 of the 24 rows"):
        out = _run(tmp_path, f, ["h"], ["good"], "--measure-class", "nanscorer:SomeNaN", "--module-path",
                   str(tmp_path), capsys=capsys)
    corr, _ = _assert_one_source(out)
    nan_rows = list(range(0, len(f), 3))
    not_scored = pd.read_csv(out / "not_scored.csv")
    assert sorted(not_scored.loc[not_scored["measure"] == "some-nan", "row"]) == nan_rows
    mv = json.loads((out / "manifest.json").read_text())["missing_values"]
    assert mv["measures"]["some-nan"]["no_number"] == len(nan_rows) == 8
    lengths = f["summary"].str.len().astype(float)
    keep = np.ones(len(f), bool)
    keep[nan_rows] = False
    want = ss.kendalltau(lengths[keep], f.loc[keep, "h"]).statistic
    assert corr.set_index(KEYS).loc[("some-nan", "h", "global", "kendall_b"), "value"] == pytest.approx(want, abs=1e-12)


def test_the_python_api_carries_the_rule_and_the_counts(tmp_path):
    from sumeval import meta_eval
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures

    f = _frame(8)
    f.loc[[3, 4], "good"] = np.nan
    path = tmp_path / "j.csv"
    f.to_csv(path, index=False)
    j = load_judgments(str(path), human=["h", "g"])
    res = meta_eval.meta_evaluate(j, resolve_measures(["good", "noise"], j),
                                  meta_eval.Settings(humans=("h", "g"), n_resamples=20))
    assert res.missing["measures"]["good"] == {"no_number": 2, "rows_used": {"h": 22, "g": 22}}
    assert [(r["row"], r["measure"]) for r in res.not_scored] == [(3, "good"), (4, "good")]
    assert any(n.startswith("missing values ('good' has no number on 2 of 24 rows)") for n in res.notes)
    values, _, _ = meta_eval.ranking_table(res, "kendall_b")
    wide = res.correlations.pivot_table(index="measure", columns=["human", "level"], values="value",
                                        sort=False).reindex(index=values.index, columns=values.columns)
    np.testing.assert_array_equal(values.to_numpy(), wide.to_numpy())


# --------------------------------------------------------------------------------------------
# The catalogue re-run (issue 21, Done-when): an infinite value is not a missing one
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cell", ["inf", "-Infinity"])
def test_an_infinite_measure_value_names_the_measure_and_the_line(tmp_path, capsys, cell):
    f = _frame().astype({"fair": object})
    f.loc[[5, 9], "fair"] = cell  # rows 5 and 9: lines 7 and 11 of j.csv (the header is line 1)
    out = _run(tmp_path, f, ["h"], ["good", "fair"], rc=2)
    err = capsys.readouterr().err
    # before: "column 'fair' has 2 infinite value(s) (first at flat position 5)", neither file nor line
    value = "inf" if cell == "inf" else "-inf"
    assert (f"sumeval: error: measure 'fair' gave an infinite value on 2 of the 24 rows, the first ({value}) for "
            f"{tmp_path / 'j.csv'}:7; a measure must give finite numbers (NaN where it cannot score a row)") in err
    assert "flat position" not in err and not out.exists()
    # the same column without its infinite cells: accepted, those rows not scored (pairwise-complete)
    f.loc[[5, 9], "fair"] = ""
    out = _run(tmp_path / "ok", f, ["h"], ["good", "fair"])
    assert sorted(pd.read_csv(out / "not_scored.csv")["row"]) == [5, 9]
