"""`sumeval score`: output shape and the bad-input behaviours (clear errors, nothing half-written)."""
from __future__ import annotations

import json
import math

import pytest

from sumeval import cli


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _rec(**kw):
    return json.dumps(kw)


@pytest.fixture
def pairs(tmp_path):
    return _write(tmp_path / "pairs.jsonl", [
        _rec(id="a", text="the cat sat on the mat .", summary="the cat sat .",
             references=["a cat sat .", "the cat sat on a mat ."]),
        _rec(id="b", text="dogs bark at night .", summary="", references=["dogs bark ."]),
        _rec(id="c", text="birds sing .", summary="birds sing loudly .", references=["birds sing ."]),
        _rec(id="d", text="fish swim .", summary="fish swim ."),
    ])


def test_score_repeats_lines_and_adds_one_field_per_output(pairs, tmp_path, capsys):
    out = tmp_path / "scored.jsonl"
    assert cli.main(["score", "rouge-1", "rouge-2", "--input", str(pairs), "--output", str(out)]) == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b", "c", "d"]  # nothing dropped, order kept
    assert rows[0]["text"] == "the cat sat on the mat ."  # input fields repeated
    for col in ("rouge-1-p", "rouge-1-r", "rouge-1-f", "rouge-2-p", "rouge-2-r", "rouge-2-f"):
        assert col in rows[0]
    # 'the cat sat .' vs 'a cat sat .': unigram overlap {cat, sat} 2 of 3 tokens -> P=R=F=2/3;
    # vs 'the cat sat on a mat .': overlap {the, cat, sat} 3 -> P=1, R=3/6; F=2/3. Mean F = 2/3.
    assert math.isclose(rows[0]["rouge-1-f"], 2 / 3, rel_tol=1e-6)
    # the empty summary and the line without references are scored as missing (null) and reported
    assert rows[1]["rouge-1-f"] is None and rows[3]["rouge-1-f"] is None
    err = capsys.readouterr().err
    assert "pairs.jsonl:2: rouge-1 not scored (empty summary)" in err
    assert "pairs.jsonl:4: rouge-1 not scored (no non-empty 'references')" in err
    meta = json.loads((tmp_path / "scored.jsonl.meta.json").read_text())
    assert meta["measures"]["rouge-1"].startswith("rouge-1|")
    assert {"line": 2, "measure": "rouge-2", "reason": "empty summary"} in meta["not_scored"]


def test_malformed_jsonl_names_the_line_and_writes_nothing(tmp_path, capsys):
    bad = _write(tmp_path / "bad.jsonl",
                 [_rec(text="t", summary="s", references=["s"]), '{"text": "t", "summary": ', ""])
    out = tmp_path / "scored.jsonl"
    assert cli.main(["score", "rouge-1", "-i", str(bad), "-o", str(out)]) == 2
    assert "bad.jsonl:2: not valid JSON" in capsys.readouterr().err
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]  # nothing half-written


def test_missing_summary_field_names_the_line(tmp_path, capsys):
    bad = _write(tmp_path / "p.jsonl",
                 [_rec(text="t", summary="s", references=["s"]), _rec(text="t", references=["s"])])
    assert cli.main(["score", "rouge-1", "-i", str(bad), "-o", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "p.jsonl:2: field 'summary' is missing" in err
    assert not (tmp_path / "o.jsonl").exists()


def test_unknown_measure_and_unused_option(pairs, tmp_path, capsys):
    assert cli.main(["score", "rouge-9", "-i", str(pairs), "-o", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "unknown measure 'rouge-9'" in err and "rouge-1" in err and "--measure-class" not in err
    # a class of one's own named where a measure goes: the option that takes it
    assert cli.main(["score", "mymod:Lower", "-i", str(pairs), "-o", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "unknown measure 'mymod:Lower'" in err
    assert "is given with --measure-class mymod:Lower (and --module-path" in err
    assert cli.main(["score", "rouge-1", "--layer", "3", "-i", str(pairs), "-o", str(tmp_path / "o.jsonl")]) == 2
    assert "layer" in capsys.readouterr().err


def test_a_missing_input_or_output_is_named(pairs, tmp_path, capsys):
    assert cli.main(["score", "rouge-1", "-i", str(pairs)]) == 2
    err = capsys.readouterr().err
    assert "--output FILE is required" in err and "an input" not in err
    assert cli.main(["score", "rouge-1", "-o", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "an input is required: --input FILE (JSONL" in err and "--summaries FILE" in err
    assert not (tmp_path / "o.jsonl").exists()


def test_references_needed_but_absent(tmp_path, capsys):
    p = _write(tmp_path / "p.jsonl", [_rec(text="t", summary="s")])
    assert cli.main(["score", "bleu", "-i", str(p), "-o", str(tmp_path / "o.jsonl")]) == 2
    assert "needs 'references'" in capsys.readouterr().err


def test_score_list_names_the_measures(capsys):
    assert cli.main(["score", "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("rouge-1", "rouge-lsum", "bleu", "js-2"):
        assert name in out


def test_missing_input_file(tmp_path, capsys):
    assert cli.main(["score", "rouge-1", "-i", str(tmp_path / "nope.jsonl"), "-o", str(tmp_path / "o.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
