"""What the statistics report where they differ from a peer by design (issue 21): the bootstrap
test's two p-values (sumeval's percentile inversion and SacreROUGE's bootstrap_diff_test), the
resampling floor (b+1)/(m+1) beside the raw b/m, the bootstrap interval of the difference in
pairwise.csv, acc23's threshold snapped to 0 within floating error, the input-level Williams
note, and notes under a table."""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval import stats, tables
from sumeval.cli import main
from sumeval.errors import InputError
from sumeval.stats.correlation import _bootstrap_p

pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


def _frame(n_docs=8, n_sys=5, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for k in range(n_sys):
            h = k + rng.normal()
            rows.append({"doc_id": f"d{d}", "system": f"s{k}", "h": h, "good": h + 0.2 * rng.normal(),
                         "fair": h + 1.5 * rng.normal(), "noise": rng.normal()})
    return pd.DataFrame(rows)


def test_bootstrap_p_values_by_hand():
    # observed d = 0.1; resampled d* = (0.25, -0.3, 0.19, 0.2, 0.05), B = 5
    d = np.array([0.25, -0.3, 0.19, 0.2, 0.05])
    # SacreROUGE (two-tailed): |d*| >= 2|d| = 0.2 for 0.25, 0.3 and 0.2 -> 3 of 5
    p, raw, floor = _bootstrap_p(d, 0.1, "sacrerouge")
    assert (p, raw, floor) == (3 / 5, 3 / 5, (3 + 1) / (5 + 1))
    # percentile: #{d* <= 0} = 1, #{d* >= 0} = 4 -> smaller tail 1: raw 2 * 1/5, floor 2 * (1+1)/(5+1)
    p, raw, floor = _bootstrap_p(d, 0.1, "percentile")
    assert (p, raw, floor) == (2 * 2 / 6, 2 / 5, 2 * 2 / 6)
    # no test without an observed difference or without a defined resample
    assert all(math.isnan(v) for v in _bootstrap_p(d, math.nan, "sacrerouge"))
    assert all(math.isnan(v) for v in _bootstrap_p(np.empty(0), 0.1, "percentile"))


def test_sacrerouge_p_of_paired_test_is_the_recount_of_its_resamples():
    """paired_test(p_method="sacrerouge") against the resampled differences recomputed here with
    scipy on each resample's rows (global level, inputs drawn with replacement)."""
    f = _frame(n_docs=6, n_sys=3, seed=1)
    draws = np.array([[0, 0, 1, 2, 3, 4], [5, 5, 5, 1, 2, 3], [0, 1, 2, 3, 4, 5], [2, 2, 3, 3, 4, 4],
                      [1, 3, 5, 1, 3, 5]])
    idx = stats.Resamples("inputs", None, draws)
    kw = dict(level="global", method="pearson", resample="inputs", indices=idx)
    got = stats.paired_test(f, "good", "fair", "h", p_method="sacrerouge", **kw)
    docs = f["doc_id"].str[1:].astype(int).to_numpy()

    def delta(rows):
        return (ss.pearsonr(f.loc[rows, "good"], f.loc[rows, "h"]).statistic
                - ss.pearsonr(f.loc[rows, "fair"], f.loc[rows, "h"]).statistic)

    d0 = delta(np.arange(len(f)))
    boot = np.array([delta(np.concatenate([np.flatnonzero(docs == k) for k in b])) for b in draws])
    count = int((np.abs(boot) >= 2 * abs(d0)).sum())
    assert got["diff"] == pytest.approx(d0, abs=1e-12)
    assert got["p_value"] == got["p_raw"] == count / 5 and got["p_floor"] == (count + 1) / 6
    pct = stats.paired_test(f, "good", "fair", "h", **kw)
    tail = min(int((boot <= 0).sum()), int((boot >= 0).sum()))
    assert pct["p_value"] == pct["p_floor"] == min(1.0, 2 * (tail + 1) / 6) and pct["p_raw"] == min(1.0, 2 * tail / 5)
    assert pct["ci_low"] == got["ci_low"] and pct["p_method"] == "percentile"
    with pytest.raises(InputError, match=r"unknown bootstrap p-value 'berg'; choose one of percentile, sacrerouge"):
        stats.paired_test(f, "good", "fair", "h", p_method="berg", **kw)


def test_permutation_p_with_and_without_the_floor():
    f = _frame(n_docs=5, n_sys=6, seed=2)
    # two permutations: none swapped (d* = d) and all swapped (d* = -d): two-sided counts both
    masks = np.stack([np.zeros((5, 6), bool), np.ones((5, 6), bool)])
    two = stats.permutation_test(f, "good", "noise", "h", level="global", method="kendall_b", masks=masks)
    assert (two["count"], two["p_value"], two["p_floor"]) == (2, 2 / 2, (2 + 1) / (2 + 1))
    greater = stats.permutation_test(f, "good", "noise", "h", level="global", method="kendall_b", masks=masks,
                                     alternative="greater")
    assert (greater["count"], greater["p_value"], greater["p_floor"]) == (1, 1 / 2, (1 + 1) / (2 + 1))


def test_compare_measures_reports_no_zero_p_value():
    f = _frame(n_docs=10, seed=3)
    out = stats.compare_measures(f, ["good", "noise"], "h", level="global", method="pearson", n_resamples=50)
    row = out.iloc[0]
    # good is far better than noise: no permutation reaches |d|, so b = 0 of m = 50
    assert row["p_raw"] == 0.0 and row["p_value"] == 1 / 51 and row["p_adjusted"] == 1 / 51
    assert math.isnan(row["ci_low"]) and pd.isna(row["note"]) and row["n_rows"] == 50
    boot = stats.compare_measures(f, ["good", "noise"], "h", level="global", method="pearson", n_resamples=50,
                                  test="bootstrap", resample="inputs", bootstrap_p="sacrerouge")
    single = stats.paired_test(f, "good", "noise", "h", level="global", method="pearson", n_resamples=50,
                               resample="inputs", p_method="sacrerouge")
    assert boot["p_raw"].iloc[0] == single["p_value"] and boot["p_value"].iloc[0] == single["p_floor"]
    assert (boot["ci_low"].iloc[0], boot["ci_high"].iloc[0]) == (single["ci_low"], single["ci_high"])


def test_pairwise_csv_has_the_difference_interval_and_the_sacrerouge_option(tmp_path):
    f = _frame(seed=4)
    path = tmp_path / "j.csv"
    f.to_csv(path, index=False)
    out = tmp_path / "out"
    assert main(["meta-eval", str(path), "--human", "h", "--measures", "good", "fair", "--level", "global",
                 "--coefficient", "pearson", "--test", "bootstrap-inputs", "--bootstrap-p", "sacrerouge",
                 "--n-resamples", "80", "--seed", "5", "-q", "--no-figures", "--out", str(out)]) == 0
    pair = pd.read_csv(out / "pairwise.csv").iloc[0]
    single = stats.paired_test(f, "good", "fair", "h", level="global", method="pearson", n_resamples=80, seed=5,
                               resample="inputs", p_method="sacrerouge")
    assert (pair["ci_low"], pair["ci_high"]) == pytest.approx((single["ci_low"], single["ci_high"]), abs=1e-15)
    assert pair["ci_low"] <= pair["diff"] <= pair["ci_high"]
    assert pair["p_raw"] == single["p_raw"] and pair["p_value"] == pytest.approx(single["p_floor"], abs=1e-15)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["settings"]["bootstrap_p"] == "sacrerouge" and "sacrerouge" in manifest["p_values"]


def test_acc23_threshold_within_floating_error_of_zero_is_zero():
    # two systems tie in the human scores; their metric means tie as numbers but 0.1 + 0.2 and
    # 0.3 are one ulp apart (5.6e-17). Without the snap, epsilon = 5.6e-17 "calibrates" the tie;
    # with it the pair is a tie at epsilon 0: all 6 pairs agree -> acc23 = 1 at epsilon = 0.0
    human = [1.0, 1.0, 3.0, 4.0]
    metric = [0.1 + 0.2, 0.3, 0.5, 0.7]
    assert metric[0] != metric[1]
    acc, eps = stats.tie_calibration(human, metric)
    assert (acc, eps) == (1.0, 0.0) and str(eps) == "0.0"
    assert stats.acc23(human, metric, 0.0) == 1.0
    # a real difference stays a difference: 0.3 vs 0.3001 is not snapped (6 pairs, 1 human tie
    # broken by the metric -> 5/6 at epsilon 0; epsilon = 1e-4 ties it back -> 1.0)
    acc, eps = stats.tie_calibration(human, [0.3001, 0.3, 0.5, 0.7])
    assert acc == 1.0 and eps == pytest.approx(1e-4)
    assert stats.acc23(human, [0.3001, 0.3, 0.5, 0.7], 0.0) == pytest.approx(5 / 6)


def test_input_level_williams_is_flagged(tmp_path, capsys):
    f = _frame(seed=6)
    path = tmp_path / "j.csv"
    f.to_csv(path, index=False)
    out = tmp_path / "out"
    assert main(["meta-eval", str(path), "--human", "h", "--measures", "good", "fair", "noise", "--test", "williams",
                 "--level", "input", "global", "-q", "--no-figures", "--out", str(out)]) == 0
    pair = pd.read_csv(out / "pairwise.csv")
    inp = pair[pair["level"] == "input"]
    # n is the number of systems on one input (5), not the number of inputs (8)
    assert set(inp["n"]) == {5} and inp["note"].str.contains("Williams' test at the input level").all()
    assert pair.loc[pair["level"] == "global", "note"].isna().all()
    notes = json.loads((out / "manifest.json").read_text())["notes"]
    assert any(n.startswith("Williams' test at the input level") for n in notes)
    assert "note: Williams' test at the input level" in capsys.readouterr().err


def test_table_notes_go_under_the_table_in_every_format_but_csv(tmp_path):
    t = pd.DataFrame({"q": [0.41, np.nan]}, index=pd.Index(["a_b", "c"], name="measure"))
    paths = tables.write_table(t, tmp_path, "t", caption="cap", notes=["–: undefined (c & d: 50% constant)"])
    tex = paths["tex"].read_text()
    assert r"\par\footnotesize Note: --: undefined (c \& d: 50\% constant)" in tex
    assert tex.index("Note:") < tex.index(r"\end{table}")
    assert "Note: –: undefined (c & d: 50% constant)" in paths["md"].read_text()
    assert '<p class="note">Note: –: undefined (c &amp; d: 50% constant)</p>' in paths["html"].read_text()
    assert "Note" not in paths["csv"].read_text()
    plain = tables.write_table(t, tmp_path, "u", notes=["n1"])["tex"].read_text()
    # a table without a caption is a float too (it gets a label to cite): the note sits under the tabular
    assert "\\end{tabular}\n\\par\\footnotesize Note: n1\n\\end{table}" in plain


def test_correction_uses_the_raw_p_and_never_shows_less_than_the_floor():
    from sumeval.stats.multiple import adjust_resampled

    raw = np.array([0.0, 0.01, 0.2, np.nan])
    floored = np.array([1 / 1001, 11 / 1001, 201 / 1001, np.nan])
    # Holm on the raw p by hand: sorted 0, 0.01, 0.2 -> 3*0 = 0, 2*0.01 = 0.02, max(0.02, 1*0.2) = 0.2;
    # then never below the row's own floored p: 1/1001, 0.02, 201/1001; the untested pair stays NaN
    got = adjust_resampled(raw, floored, "holm")
    assert got[:3] == pytest.approx([1 / 1001, 0.02, 201 / 1001]) and np.isnan(got[3])


def test_many_measures_at_1000_permutations_still_separate():
    # 11 measures, 55 pairs: Holm over the floored p could never go below 55/1001 > 0.05; on the raw p
    # (the peers'), a clearly better measure is separated from clearly worse ones
    rng = np.random.default_rng(3)
    n_docs, n_sys = 30, 4
    human = rng.normal(size=n_docs * n_sys)
    frame = pd.DataFrame({"doc_id": np.repeat(np.arange(n_docs), n_sys), "system": np.tile(np.arange(n_sys), n_docs),
                          "h": human})
    for k in range(11):
        frame[f"m{k}"] = human + rng.normal(scale=0.05 if k == 0 else 3.0, size=len(human))
    pairs = stats.compare_measures(frame, [f"m{k}" for k in range(11)], "h", level="global", method="kendall_b",
                                   test="permutation", n_resamples=1000, seed=0)
    assert len(pairs) == 55 and (pairs["p_adjusted"] >= pairs["p_value"]).all()
    best = pairs[pairs["measure_a"] == "m0"]
    assert (best["p_raw"] == 0).all() and (best["p_adjusted"] < 0.05).all()
    ranked = stats.significance_clusters(pairs).set_index("measure")
    assert ranked.loc["m0", "cluster"] == 1 and (ranked.drop(index="m0")["cluster"] > 1).all()
