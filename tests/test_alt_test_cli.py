"""``sumeval alt-test`` on the small fixture file: what it writes, and what it refuses."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.judges import alt_test

FIXTURE = Path(__file__).parent / "fixtures" / "judges" / "judgments_annotators.csv"
JUDGES = ["judge_good_{human}", "judge_bad_{human}", "judge_flat"]


def _run(out: Path, *extra: str, judges=JUDGES, humans=("overall", "fluency")) -> int:
    return cli.main(["alt-test", str(FIXTURE), "--human", *humans, "--judges", *judges, "--out", str(out), *extra])


def test_writes_the_results_table_figure_and_manifest(tmp_path, capsys):
    out = tmp_path / "alt"
    assert _run(out, "--pooled") == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["alt_test.csv", "alt_test.pdf", "alt_test.png", "alt_test_annotators.csv", "manifest.json",
                     "table_alt_test.csv", "table_alt_test.html", "table_alt_test.md", "table_alt_test.tex"]
    res = pd.read_csv(out / "alt_test.csv")
    assert list(res.columns) == ["judge", "human", "alignment", "epsilon", "q", "winning_rate", "advantage_probability",
                                 "passed", "n_items", "n_annotators", "n_won", "n_skipped"]
    assert list(res.judge.unique()) == ["judge_good", "judge_bad", "judge_flat"]
    assert list(res.human.unique()) == ["overall", "fluency", "pooled"]
    # the same numbers as the function on the same frame (tests/test_alt_test.py checks those against
    # the authors' code)
    direct = alt_test(pd.read_csv(FIXTURE), ["overall", "fluency"], JUDGES, pooled=True).results
    np.testing.assert_allclose(res.winning_rate, direct.winning_rate, rtol=0, atol=1e-15)
    np.testing.assert_allclose(res.advantage_probability, direct.advantage_probability, rtol=0, atol=1e-15)
    good = res[(res.judge == "judge_good") & (res.human == "overall")].iloc[0]
    assert good.winning_rate == 1.0 and good.passed and good.n_annotators == 3 and good.n_skipped == 1
    per = pd.read_csv(out / "alt_test_annotators.csv")
    assert {"rho_judge", "rho_annotator", "p_value", "p_adjusted", "won", "tested"} <= set(per.columns)
    assert len(per) == 3 * (4 + 3 + 4)  # judges x (overall a1-a4, fluency a1-a3, pooled a1-a4)
    skipped = per[per.annotator == "a4"]
    assert not skipped.tested.any() and skipped.p_value.isna().all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "sumeval alt-test" and manifest["settings"]["epsilon"] == 0.2
    assert manifest["judges"]["judge_good_{human}"] == {"overall": "judge_good_overall",
                                                        "fluency": "judge_good_fluency"}
    assert manifest["humans"]["fluency"] == ["fluency/a1", "fluency/a2", "fluency/a3"]
    assert "manifest.json" in manifest["files"] and manifest["dataset"]["rows"] == 60
    tex = (out / "table_alt_test.tex").read_text()
    assert "\\toprule" in tex and "1.000$^{*}$" in tex
    printed = capsys.readouterr()
    assert "| judge_good | 1.000<sup>*</sup>" in printed.out
    assert "judge_good_overall) has no score on 1 rows" in printed.err  # a missing judge score is said


def test_options_reach_the_test(tmp_path):
    out = tmp_path / "alt"
    assert _run(out, "--alignment", "accuracy", "--epsilon", "0", "--pooled-only", "--min-items", "10") == 0
    res = pd.read_csv(out / "alt_test.csv")
    assert set(res.human) == {"pooled"} and set(res.alignment) == {"accuracy"} and set(res.epsilon) == {0.0}
    assert set(res.n_annotators) == {4}  # a4's 20 items now count (min items 10)
    direct = alt_test(pd.read_csv(FIXTURE), ["overall", "fluency"], JUDGES, pooled=True, per_human=False,
                      alignment="accuracy", epsilon=0.0, min_items=10).results
    np.testing.assert_allclose(res.advantage_probability, direct.advantage_probability, rtol=0, atol=1e-15)


def test_unknown_judge_column(tmp_path, capsys):
    out = tmp_path / "alt"
    assert _run(out, judges=["judge_good_{human}", "gpt-9"]) == 2
    err = capsys.readouterr().err
    assert "judge 'gpt-9'" in err and "'gpt-9/overall' or 'gpt-9'" in err and "judge_good_overall" in err
    assert not out.exists()


def test_a_judge_must_be_a_measure_column(tmp_path, capsys):
    assert _run(tmp_path / "alt", judges=["overall/a1"]) == 2
    assert "judge 'overall/a1'" in capsys.readouterr().err


def test_human_without_annotators(tmp_path, capsys):
    out = tmp_path / "alt"
    assert _run(out, humans=("overall", "fluency", "length")) == 2
    err = capsys.readouterr().err
    assert "human column 'length'" in err and "'length/<annotator>'" in err
    assert not out.exists()


def test_non_empty_out_is_refused_and_left_alone(tmp_path, capsys):
    out = tmp_path / "alt"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert _run(out) == 2
    err = capsys.readouterr().err
    assert "is not empty" in err and "notes.txt" in err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("args,text", [(["--epsilon", "1.2"], "epsilon 1.2"), (["--q", "0"], "q 0.0"),
                                       (["--min-items", "1"], "min_items 1")])
def test_bad_settings_fail_before_the_data_is_read(tmp_path, capsys, args, text):
    out = tmp_path / "alt"
    assert cli.main(["alt-test", str(tmp_path / "missing.csv"), "--human", "overall", "--judges", "j",
                     "--out", str(out), *args]) == 2
    assert text in capsys.readouterr().err
    assert not out.exists()
