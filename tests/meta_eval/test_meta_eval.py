"""Tests of `sumeval meta-eval` and sumeval.meta_eval: a user's judgments file with a precomputed
measure column and a user-class measure, through `data add` and `meta-eval`; each number written
checked against a direct computation; bad input refused before anything is written."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval import meta_eval
from sumeval.cli import main
from sumeval.errors import InputError

from helpers import REPO_ROOT, TEST_DATA  # tests/ is on the path

EXAMPLES = REPO_ROOT / "examples"
MAP = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output", "--text-col", "source",
       "--references-col", "gold"]
FAST = ["--n-resamples", "50", "--no-figures", "-q"]


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


@pytest.fixture()
def registered(capsys):
    """The user file added as `mine`: humans faithful and overall, my_metric a measure column."""
    assert main(["data", "add", "mine", str(TEST_DATA / "user_judgments.csv"), *MAP,
                 "--human", "faithful,overall"]) == 0
    capsys.readouterr()
    return "mine"


def _user_frame() -> pd.DataFrame:
    return pd.read_csv(TEST_DATA / "user_judgments.csv")


def test_user_file_with_a_column_measure_and_a_user_class(registered, tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["meta-eval", registered, "--human", "overall", "faithful", "--measures", "my_metric", "rouge-1",
               "--measure-class", "fragments:ExtractiveFragments", "--module-path", str(EXAMPLES),
               "--level", "input", "system", "global", "--coefficient", "kendall_b", "pearson",
               "--n-resamples", "200", "--seed", "3", "--out", str(out), "-q"])
    assert rc == 0, capsys.readouterr().err
    names = {p.name for p in out.iterdir()}
    assert {"correlations.csv", "pairwise.csv", "ranking.csv", "manifest.json", "table_kendall_b.tex",
            "table_kendall_b.md", "table_pearson.csv", "correlations_kendall_b.png", "pvalues_pearson.pdf",
            "ranking_kendall_b.png", "pairwise_accuracy.csv", "detection.csv"} <= names
    assert not any(n.startswith(".") for n in names)  # no partial folder left

    corr = pd.read_csv(out / "correlations.csv")
    raw = _user_frame()
    # global level, my_metric vs overall: Kendall tau-b and Pearson over the 12 rows, by scipy
    row = corr[(corr.measure == "my_metric") & (corr.human == "overall") & (corr.level == "global")]
    tau = row[row.coefficient == "kendall_b"]["value"].item()
    assert tau == pytest.approx(ss.kendalltau(raw["my_metric"], raw["overall"]).statistic, abs=1e-12)
    r = row[row.coefficient == "pearson"]["value"].item()
    assert r == pytest.approx(ss.pearsonr(raw["my_metric"], raw["overall"]).statistic, abs=1e-12)
    assert row["n"].tolist() == [12, 12] and set(row["resampling"]) == {"both"} and set(row["seed"]) == {3}
    # system level: the 3 systems' means
    means = raw.groupby("model")[["my_metric", "overall"]].mean()
    sys_r = corr[(corr.measure == "my_metric") & (corr.human == "overall") & (corr.level == "system")
                 & (corr.coefficient == "pearson")]["value"].item()
    assert sys_r == pytest.approx(ss.pearsonr(means["my_metric"], means["overall"]).statistic, abs=1e-12)
    assert set(corr.loc[corr.role == "measure", "measure"]) == {"my_metric", "rouge-1", "fragments"}
    # the file's overall/ann1, overall/ann2: each annotator against the other, and their mean (the human ceiling)
    assert set(corr.loc[~corr.role.isin(["measure", "sentinel"]), "measure"]) == {"annotator:ann1", "annotator:ann2",
                                                                              "human ceiling"}
    from sumeval.meta_eval.sentinels import ORDER  # issue 32: on by default; the file has summaries and sources

    assert set(corr.loc[corr.role == "sentinel", "measure"]) == set(ORDER)
    assert set(corr.loc[corr.role.isin(["annotator", "human_ceiling"]), "human"]) == {"overall"}

    pair = pd.read_csv(out / "pairwise.csv")
    assert len(pair) == 3 * 2 * 3 * 2  # 3 pairs x 2 humans x 3 levels x 2 coefficients
    assert set(pair["test"]) == {"permutation-both"} and set(pair["correction"]) == {"holm"}
    assert (pair["p_adjusted"] >= pair["p_value"] - 1e-12).all() and pair["p_value"].between(0, 1).all()
    ranking = pd.read_csv(out / "ranking.csv")
    assert (ranking.groupby(["human", "level", "coefficient"])["cluster"].min() == 1).all()

    det = pd.read_csv(out / "detection.csv")  # `faithful` is 0/1: a binary human column
    assert set(det["human"]) == {"faithful"} and det["roc_auc"].between(0, 1).all()

    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dataset"]["name"] == "mine" and len(manifest["dataset"]["sha256"]) == 64
    assert manifest["seed"] == 3 and manifest["settings"]["n_resamples"] == 200
    sig = {m["label"]: m["signature"] for m in manifest["measures"]}
    assert "|class=fragments:ExtractiveFragments|" in sig["fragments"]
    assert sig["my_metric"].startswith("column=my_metric")
    assert "numpy" in manifest["versions"] and "sumeval" in manifest["versions"]
    assert sorted(manifest["files"]) == sorted(names)

    md = (out / "table_kendall_b.md").read_text()
    assert "Overall / System" in md and "<sup>1</sup>" in md and "**" in md  # readable names (display_names)
    tex = (out / "table_kendall_b.tex").read_text()
    assert "\\toprule" in tex and "my\\_metric" in tex


def test_python_api_matches_the_command(registered, tmp_path):
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures

    j = load_judgments(registered)
    specs = resolve_measures(["my_metric", "rouge-2"], j)
    settings = meta_eval.Settings(humans=("overall",), levels=("system", "global"), n_resamples=50, seed=1)
    res = meta_eval.meta_evaluate(j, specs, settings)
    assert main(["meta-eval", registered, "--human", "overall", "--measures", "my_metric", "rouge-2", "--level",
                 "system", "global", "--seed", "1", "--out", str(tmp_path / "o"), *FAST]) == 0
    written = pd.read_csv(tmp_path / "o" / "correlations.csv")
    pd.testing.assert_frame_equal(res.correlations.reset_index(drop=True), written, check_dtype=False)


def test_lower_is_better_column_is_negated_and_labelled(registered, tmp_path):
    out = tmp_path / "o"
    assert main(["meta-eval", registered, "--human", "overall", "--measures", "my_metric:lower", "rouge-1",
                 "--level", "global", "--out", str(out), *FAST]) == 0
    corr = pd.read_csv(out / "correlations.csv")
    raw = _user_frame()
    neg = corr[corr.measure == "my_metric (negated)"]["value"].item()
    assert neg == pytest.approx(ss.kendalltau(-raw["my_metric"], raw["overall"]).statistic)
    assert "lower is better, shown negated" in (out / "table_kendall_b.md").read_text()


def test_williams_and_bootstrap_tests_and_bh(registered, tmp_path):
    for test in ("williams", "bootstrap-inputs"):
        out = tmp_path / test
        assert main(["meta-eval", registered, "--human", "overall", "--measures", "my_metric", "rouge-1", "rouge-2",
                     "--level", "global", "--test", test, "--correction", "bh", "--out", str(out), *FAST]) == 0
        pair = pd.read_csv(out / "pairwise.csv")
        assert set(pair["test"]) == {test} and set(pair["correction"]) == {"bh"} and len(pair) == 3


def test_rerun_into_the_same_folder_replaces_the_results(registered, tmp_path):
    out = tmp_path / "o"
    base = ["meta-eval", registered, "--human", "overall", "--measures", "my_metric", "rouge-1", "--level", "global",
            "--out", str(out), *FAST]
    assert main(base + ["--seed", "1"]) == 0
    assert main(base + ["--seed", "2"]) == 2  # an earlier result is replaced only when asked
    assert json.loads((out / "manifest.json").read_text())["seed"] == 1
    assert main(base + ["--seed", "2", "--overwrite"]) == 0
    assert json.loads((out / "manifest.json").read_text())["seed"] == 2


def test_a_failure_while_writing_leaves_nothing_half_written(registered, tmp_path, monkeypatch):
    out = tmp_path / "o"
    from sumeval.meta_eval import figures

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(figures, "draw", broken)
    rc = main(["meta-eval", registered, "--human", "overall", "--measures", "my_metric", "rouge-1", "--level", "global",
               "--out", str(out), "--n-resamples", "20", "-q"])
    assert rc == 1
    assert not out.exists() or list(out.iterdir()) == []  # not a file, not the hidden work folder
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # nor one beside it


# --------------------------------------------------------------------------------------------
# bad input: a clear message naming the thing, exit 2, nothing written
# --------------------------------------------------------------------------------------------
BAD = [
    (["nosuchset", "--human", "x", "--measures", "rouge-1"], "nosuchset"),
    ([str(TEST_DATA / "missing.csv"), "--human", "x", "--measures", "rouge-1"], "missing.csv"),
    (["mine", "--human", "quality", "--measures", "rouge-1"], "quality"),
    (["mine", "--human", "overall", "--measures", "rouge-9"], "rouge-9"),
    (["mine", "--human", "overall", "--measures", "nosuchcol_xyz"], "nosuchcol_xyz"),
    (["mine", "--human", "overall", "--measure-class", "nosuchmodule_xyz:Cls"], "nosuchmodule_xyz"),
    (["mine", "--human", "overall", "--measure-class", "json:JSONDecoder"], "not a subclass"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--level", "sentence"], "sentence"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--coefficient", "kendall"], "kendall"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--n-resamples", "0"], "--n-resamples"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--alpha", "5"], "--alpha"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--seed", "-2"], "--seed"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--ci", "95"], "--ci"),
    (["mine", "--human", "overall", "--measures", "overall"], "human"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--early-stop", "0"], "--early-stop"),
    (["mine", "--human", "overall"], "at least one measure"),
    (["mine", "--human", "overall", "--measures", "rouge-1", "--doc-col", "article_id"], "--doc-col"),
]


@pytest.mark.parametrize("argv, named", BAD, ids=[b[1] for b in BAD])
def test_bad_input_is_refused_naming_the_value(registered, tmp_path, capsys, argv, named):
    out = tmp_path / "out"
    extra = [] if "--n-resamples" in argv else ["--n-resamples", "20"]
    rc = main(["meta-eval", *argv, *extra, "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert named in err, err
    assert not out.exists()


def test_bad_rows_of_a_file_are_named_by_line_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    text = (TEST_DATA / "user_judgments.csv").read_text().splitlines()
    fields = text[3].split(",")
    text[3] = text[3].replace(",0,2,2,2,", ",0,two,2,2,")  # overall on line 4 is not a number
    bad.write_text("\n".join(text) + "\n")
    out = tmp_path / "out"
    rc = main(["meta-eval", str(bad), *MAP, "--human", "faithful", "overall", "--measures", "my_metric",
               "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "bad.csv:4" in err and "overall" in err and "two" in err, (fields, err)
    assert not out.exists()


def test_a_level_the_data_cannot_support(tmp_path, capsys):
    two = tmp_path / "two.csv"
    raw = _user_frame()
    raw[raw["model"] != "halluc"].to_csv(two, index=False)  # 2 systems: no system-level correlation
    out = tmp_path / "out"
    rc = main(["meta-eval", str(two), *MAP, "--human", "overall", "--measures", "my_metric", "--level", "system",
               "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "system level needs at least 3 systems" in err and "has 2" in err, err
    assert not out.exists()


def test_out_that_is_a_file_or_a_folder_of_other_files(registered, tmp_path, capsys):
    f = tmp_path / "f.txt"
    f.write_text("keep me")
    assert main(["meta-eval", registered, "--human", "overall", "--measures", "rouge-1", "--out", str(f), *FAST]) == 2
    assert "is a file" in capsys.readouterr().err and f.read_text() == "keep me"
    d = tmp_path / "papers"
    d.mkdir()
    (d / "draft.tex").write_text("x")
    assert main(["meta-eval", registered, "--human", "overall", "--measures", "rouge-1", "--out", str(d), *FAST]) == 2
    assert "draft.tex" in capsys.readouterr().err and sorted(p.name for p in d.iterdir()) == ["draft.tex"]


def test_settings_check_names_each_setting():
    with pytest.raises(InputError, match="human"):
        meta_eval.Settings(humans=()).check()
    with pytest.raises(InputError, match="--test"):
        meta_eval.Settings(humans=("h",), test="t-test").check()
    with pytest.raises(InputError, match="--ci-resampling"):
        meta_eval.Settings(humans=("h",), ci_resampling="documents").check()
    with pytest.raises(InputError, match="--correction"):
        meta_eval.Settings(humans=("h",), correction="bonferroni").check()
    with pytest.raises(InputError, match="--n-resamples"):
        meta_eval.Settings(humans=("h",), n_resamples=2.5).check()


def test_ranking_table_marks_clusters_and_bolds_the_best():
    from sumeval.meta_eval.analysis import MetaEvaluation, Settings

    ranking = pd.DataFrame({"measure": ["a", "b", "c"], "human": "h", "level": "system", "coefficient": "kendall_b",
                            "value": [0.2, 0.5, 0.1], "rank": [2, 1, 3], "cluster": [1, 1, 2]})
    # the table's values come from the correlations, its marks from the ranking's clusters
    correlations = ranking[["measure", "human", "level", "coefficient", "value"]]
    res = MetaEvaluation(settings=Settings(humans=("h",), levels=("system",)), dataset={}, measures=[
        {"label": m} for m in ("a", "b", "c")], correlations=correlations, pairwise=pd.DataFrame(),
        ranking=ranking, pairwise_accuracy=pd.DataFrame(), detection=pd.DataFrame())
    values, bold, marks = meta_eval.ranking_table(res, "kendall_b")
    assert values[("h", "system")].tolist() == [0.2, 0.5, 0.1]  # rows in the order given
    assert bold[("h", "system")].tolist() == [False, True, False]
    assert marks[("h", "system")].tolist() == ["1", "1", "2"]
    assert np.isfinite(values.to_numpy()).all()


# --------------------------------------------------------------------------------------------
# the same user class in `sumeval score`
# --------------------------------------------------------------------------------------------
def test_score_with_a_user_class_signs_it_and_checks_options(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    text = "The council approved a bike lane on Tuesday. Works start in May."
    refs = ["Bike lane works start in May."]
    src.write_text(json.dumps({"summary": "Works start in May.", "text": text, "references": refs}) + "\n"
                   + json.dumps({"summary": "A bike lane.", "text": text, "references": refs}) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["score", "rouge-1", "--measure-class", "fragments:ExtractiveFragments", "--module-path",
                 str(EXAMPLES), "-O", "min_length=2", "-i", str(src), "-o", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    # "works start in may" copies 4 article tokens in one fragment: coverage 1, density 4^2 / 4 = 4
    assert rows[0]["coverage"] == 1.0 and rows[0]["density"] == 4.0
    # "a bike lane": one fragment of 3 tokens of 3 -> coverage 1, density 3
    assert rows[1]["coverage"] == 1.0 and rows[1]["density"] == 3.0
    meta = json.loads(Path(str(out) + ".meta.json").read_text())
    assert "|class=fragments:ExtractiveFragments|" in meta["measures"]["fragments"]
    assert "min_length=2" in meta["measures"]["fragments"]
    capsys.readouterr()
    rc = main(["score", "--measure-class", "fragments:ExtractiveFragments", "--module-path", str(EXAMPLES),
               "-O", "min_lenght=2", "-i", str(src), "-o", str(tmp_path / "o2.jsonl")])
    assert rc == 2 and "min_lenght" in capsys.readouterr().err and not (tmp_path / "o2.jsonl").exists()


def test_study_notebook_on_the_user_data_set(registered, tmp_path, monkeypatch):
    """`sumeval run meta_evaluation -p dataset=NAME` with a column measure and a user class."""
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    rc = main(["run", "meta_evaluation", "--params", "smoke", "-p", f"dataset={registered}", "-p", "humans=overall",
               "-p", "measures=my_metric,rouge-1", "-p", "measure_classes=fragments:ExtractiveFragments",
               "-p", f"module_path={EXAMPLES}", "-p", "n_docs=0", "-q"])
    assert rc == 0
    (run,) = (tmp_path / "runs" / "meta_evaluation").iterdir()
    res = json.loads((run / "results.json").read_text())["results"]
    assert res["n_rows"] == 12 and res["n_measures"] == 3
    corr = pd.DataFrame(res["correlations"])
    raw = _user_frame()
    got = corr[(corr.measure == "my_metric") & (corr.level == "global")]["value"].item()
    assert got == pytest.approx(ss.kendalltau(raw["my_metric"], raw["overall"]).statistic, abs=1e-12)
    assert (run / "meta-eval" / "manifest.json").is_file() and (run / "tables" / "table_kendall_b.tex").is_file()


def test_more_documents_than_the_data_set_has_is_refused(registered, tmp_path, capsys):
    """n_docs is never silently clamped to the documents there are (the file has 4)."""
    rc = main(["meta-eval", registered, "--human", "overall", "--measures", "my_metric", "--n-docs", "5",
               "--out", str(tmp_path / "o"), *FAST])
    err = capsys.readouterr().err
    assert rc == 2 and "n_docs 5 is more than the 4 documents" in err and not (tmp_path / "o").exists()
