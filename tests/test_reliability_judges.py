"""Reliability of the judges' statistics (issue 30), grouped by class of problem:

- the alt-test: a judge with too few items, a file without the human columns, a human column named as a judge;
- the human ceiling: annotators scored on few documents, identical annotator columns;
- soft pairwise accuracy against a float32 computation (pce.py's), ties and all;
- prediction-powered intervals: their measured coverage.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.errors import InputError
from sumeval.judges.alt_test import alt_test

FIXTURE = Path(__file__).parent / "fixtures" / "judges" / "judgments_annotators.csv"


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(tmp_path / "registry.json"))


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
