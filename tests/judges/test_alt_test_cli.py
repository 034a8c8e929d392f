"""``sumeval alt-test`` on the small fixture file: what it writes, and what it refuses."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.judges.alt_test import alt_test

from helpers import FIXTURES  # tests/ is on the path

FIXTURE = FIXTURES / "judges" / "judgments_annotators.csv"
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
                                 "passed", "n_items", "n_annotators", "n_won", "n_skipped", "note"]
    assert list(res.judge.unique()) == ["judge_good", "judge_bad", "judge_flat"]
    assert list(res.human.unique()) == ["overall", "fluency", "pooled"]
    # the same numbers as the function on the same frame (tests/judges/test_alt_test.py checks those against
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


LENGTH_JUDGE = '''
import numpy as np
from sumeval.metrics import Scorer


class LengthJudge(Scorer):
    """A judge answering on the annotators' 1-5 scale: the summary's word count, clipped."""
    name = "length_judge"
    needs = ()
    higher_is_better = True

    def columns(self):
        return ["length_judge"]

    def score_batch(self, batch):
        return {"length_judge": np.array([min(5.0, max(1.0, len(s.split()) / 10)) for s in batch.summaries])}
'''


def test_a_judge_can_be_a_measure_sumeval_scores(tmp_path):
    # the fixture with a summary per row; the judge is a user's Scorer class, scored by the command
    frame = pd.read_csv(FIXTURE)
    frame["summary"] = [" ".join(["w"] * int(n)) for n in frame["length"]]
    data = tmp_path / "with_summaries.csv"
    frame.to_csv(data, index=False)
    (tmp_path / "lengthjudge.py").write_text(LENGTH_JUDGE, encoding="utf-8")
    out = tmp_path / "alt"
    assert cli.main(["alt-test", str(data), "--human", "overall", "fluency", "--judges", "lengthjudge:LengthJudge",
                     "judge_good_{human}", "--module-path", str(tmp_path), "-q", "--out", str(out)]) == 0
    res = pd.read_csv(out / "alt_test.csv").set_index(["judge", "human"])
    # the same test on a column holding the values by hand: min(5, max(1, length / 10))
    by_hand = frame.assign(length_col=np.clip(frame["length"] / 10, 1.0, 5.0))
    direct = alt_test(by_hand, ["overall", "fluency"], ["length_col"]).results.set_index("human")
    for h in ("overall", "fluency"):
        got = res.loc[("lengthjudge:LengthJudge", h)]
        assert got.winning_rate == direct.loc[h, "winning_rate"]
        assert got.advantage_probability == pytest.approx(direct.loc[h, "advantage_probability"], abs=1e-15)
    manifest = json.loads((out / "manifest.json").read_text())
    assert list(manifest["scored_judges"]) == ["lengthjudge:LengthJudge"]
    assert "judge_good_{human}" not in manifest["scored_judges"]


def test_a_judge_neither_column_nor_measure_names_both(tmp_path, capsys):
    assert _run(tmp_path / "alt", judges=["nonesuch"]) == 2
    err = capsys.readouterr().err
    assert "judge 'nonesuch': no column" in err and "nor is 'nonesuch' a measure sumeval can score" in err
    assert not (tmp_path / "alt").exists()


def test_a_judge_with_every_value_missing_is_named_with_its_run(tmp_path, capsys):
    """A `sumeval judge` run whose answers all failed to parse (its manifest beside the file counts
    them): alt-test says that every value is missing, the count, where they are listed and the fix -
    not "not a measure column" or "lower --min-items", which mislead."""
    frame = pd.read_csv(FIXTURE)
    frame = frame[[c for c in frame.columns if not c.startswith("fluency")]]
    run = tmp_path / "judge"
    run.mkdir()
    frame.assign(**{"smol.overall": np.nan}).to_csv(run / "judgments.csv", index=False)
    n = len(frame)
    manifest = {"kind": "sumeval-judge", "columns": {"overall": "smol.overall"}, "scoring": {"method": "text"},
                "qualities": {"overall": {"items": n, "missing": n, "parse_failures": n, "answers": n}}}
    (run / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    out = tmp_path / "alt"
    for judges in (["smol"], ["judge_good_{human}", "smol"]):
        assert cli.main(["alt-test", str(run / "judgments.csv"), "--human", "overall", "--judges", *judges,
                         "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and not out.exists()
        assert "judge 'smol' on 'overall'" in err and "not a measure" not in err and "lower min_items" not in err
        assert f"every value of its column 'smol.overall' is missing ({n} of {n} rows)" in err
        assert f"counts {n} unparsable answers of {n} for it (scoring text; " in err
        assert str(run / "parse_failures.csv") in err and "--scoring logprobs" in err
    # without a judge manifest beside the file, the message says where a judge run keeps its counts
    frame.assign(**{"smol.overall": np.nan}).to_csv(tmp_path / "plain.csv", index=False)
    assert cli.main(["alt-test", str(tmp_path / "plain.csv"), "--human", "overall", "--judges", "smol", "--out",
                     str(tmp_path / "alt2")]) == 2
    err = capsys.readouterr().err
    assert f"every value of its column 'smol.overall' is missing ({n} of {n} rows)" in err
    assert "the manifest.json beside it counts the unparsable answers" in err
    # a numeric column missing on every row the test sees (the function on a frame): the note says so
    f = frame.assign(**{"smol.overall": np.nan, "judge_good_overall": frame["judge_good_overall"]})
    res = alt_test(f, "overall", ["smol", "judge_good_{human}"], min_items=3).results.set_index("judge")
    assert res.loc["smol", "n_annotators"] == 0 and res.loc["judge_good", "n_annotators"] > 0
    assert res.loc["smol", "note"].startswith("judge 'smol' not tested on 'overall': every value of its column")
