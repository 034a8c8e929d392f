"""`sumeval score`: the summary line per measure (mean and bootstrap interval over the lines) and
plain-text input (one summary a line, aligned references / sources files), with its bad inputs."""
from __future__ import annotations

import gzip
import json
import math

import pytest

from sumeval import cli
from sumeval.cli.score import mean_interval


def _write(path, text: str, encoding="utf-8"):
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


# ------------------------------------------------------------------------------------------
# the summary line
# ------------------------------------------------------------------------------------------
def test_bootstrap_interval_by_hand():
    # four lines of lengths 1, 1, 1, 2: the mean is 1.25. A resample's mean is 1 + k/4 where k ~ Binomial(4, 1/4)
    # counts the draws of the long line: P(k=0) = 0.316 > 2.5%, so the 2.5% quantile is 1.0; P(k>=3) = 0.051 and
    # P(k=4) = 0.004, so (with 1000 resamples) the 97.5% quantile is 1 + 3/4 = 1.75.
    assert mean_interval([1, 1, 1, 2], n_resamples=1000, seed=0) == (1.25, 1.0, 1.75, 4)
    assert mean_interval([0.5, 0.5, 0.5]) == (0.5, 0.5, 0.5, 3)  # no spread, no width
    mean, lo, hi, n = mean_interval([1, math.nan, 1, 1, 2])  # a line without a number is left out, and counted
    assert (mean, lo, hi, n) == (1.25, 1.0, 1.75, 4)
    assert all(math.isnan(v) for v in mean_interval([math.nan])[:3]) and mean_interval([math.nan])[3] == 0
    # seeded: the same seed gives the same interval, another seed draws other resamples
    xs = [0.1, 0.9, 0.3, 0.35, 0.8, 0.2, 0.6]
    assert mean_interval(xs, seed=3) == mean_interval(xs, seed=3)
    assert mean_interval(xs, seed=3)[1:3] != mean_interval(xs, seed=4)[1:3]


def test_score_prints_a_summary_line_per_measure_output(tmp_path, capsys):
    inp = _write(tmp_path / "in.jsonl", "".join(json.dumps({"summary": s, "references": ["a x"]}) + "\n"
                                                for s in ("a", "a", "a", "a b")))
    assert cli.main(["score", "length", "rouge-1", "-i", str(inp), "-o", str(tmp_path / "o.jsonl")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["length", "rouge-1-p", "rouge-1-r", "rouge-1-f"]
    assert out[0].split() == ["length", "mean", "1.2500", "95%", "CI", "[1.0000,", "1.7500]", "(4", "lines;",
                              "percentile", "bootstrap", "over", "lines,", "1000", "resamples,", "seed", "0)"]
    # rouge-1-r is 0.5 on every line: interval of no width
    assert "mean 0.5000  95% CI [0.5000, 0.5000]" in out[2]
    assert cli.main(["score", "length", "-i", str(inp), "-o", str(tmp_path / "o2.jsonl"), "--resamples", "50",
                     "--seed", "7"]) == 0
    assert "50 resamples, seed 7" in capsys.readouterr().out


def test_summary_line_counts_the_lines_without_a_number(tmp_path, capsys):
    inp = _write(tmp_path / "in.jsonl", "".join(json.dumps({"summary": s, "references": ["a b"]}) + "\n"
                                                for s in ("a b", "", "a")))
    assert cli.main(["score", "rouge-1", "-i", str(inp), "-o", str(tmp_path / "o.jsonl")]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("rouge-1-p"))
    assert "mean 1.0000" in line and "(2 of 3 lines;" in line  # the empty summary is not scored, and said


# ------------------------------------------------------------------------------------------
# plain-text input
# ------------------------------------------------------------------------------------------
def test_plain_text_lines_are_aligned_records(tmp_path, capsys):
    sums = _write(tmp_path / "sys.txt", "the cat sat .\r\ndogs bark\u2028loudly .\nbirds sing .\n")  # CRLF; U+2028 kept
    ref1 = _write(tmp_path / "ref1.txt", "a cat sat .\ndogs bark .\nbirds sing .")  # no final newline
    with gzip.open(tmp_path / "ref2.txt.gz", "wt", encoding="utf-8") as fh:
        fh.write("the cat sat on a mat .\ndogs bark at night .\nbirds .\n")
    src = _write(tmp_path / "src.txt", "the cat sat on the mat .\ndogs bark at night .\nbirds sing in trees .\n")
    out = tmp_path / "scored.jsonl"
    assert cli.main(["score", "rouge-1", "length", "--summaries", str(sums), "--references", str(ref1),
                     "--references", str(tmp_path / "ref2.txt.gz"), "--sources", str(src), "-o", str(out)]) == 0
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").split("\n") if x]
    assert [r["line"] for r in rows] == [1, 2, 3]
    assert rows[0]["summary"] == "the cat sat ." and rows[1]["summary"] == "dogs bark\u2028loudly ."
    assert rows[2]["references"] == ["birds sing .", "birds ."] and rows[1]["text"] == "dogs bark at night ."
    # both references are used: ROUGE-1 precision of "birds sing" is 1 against the first, 1/2 against the second
    assert rows[2]["rouge-1-p"] == 0.75 and rows[0]["length"] == 4.0
    meta = json.loads((tmp_path / "scored.jsonl.meta.json").read_text())
    assert meta["plain_text"]["references"] == [str(ref1), str(tmp_path / "ref2.txt.gz")]
    assert [x.split()[0] for x in capsys.readouterr().out.splitlines()] == ["rouge-1-p", "rouge-1-r", "rouge-1-f",
                                                                           "length"]


@pytest.mark.parametrize("case", ["references_short", "sources_long", "both_inputs", "references_alone",
                                  "not_utf8", "empty", "missing"])
def test_bad_plain_text_input_names_the_files_and_writes_nothing(case, tmp_path, capsys):
    sums = _write(tmp_path / "sys.txt", "a\nb\nc\n")
    refs = _write(tmp_path / "ref.txt", "a\nb\nc\n")
    out = tmp_path / "o.jsonl"
    args = {
        "references_short": ["--summaries", str(sums), "--references", str(_write(tmp_path / "r2.txt", "a\nb\n"))],
        "sources_long": ["--summaries", str(sums), "--references", str(refs),
                         "--sources", str(_write(tmp_path / "src.txt", "a\nb\nc\nd\n"))],
        "both_inputs": ["--summaries", str(sums), "--input", str(sums)],
        "references_alone": ["--input", str(_write(tmp_path / "x.jsonl", '{"summary": "a"}\n')),
                             "--references", str(refs)],
        "not_utf8": ["--summaries", str(_write(tmp_path / "l1.txt", "ok\ncaf\xe9\n", encoding="latin-1"))],
        "empty": ["--summaries", str(_write(tmp_path / "e.txt", ""))],
        "missing": ["--summaries", str(sums), "--references", str(tmp_path / "nope.txt")],
    }[case]
    expected = {
        "references_short": [f"--references '{tmp_path / 'r2.txt'}' has 2 line(s)", f"--summaries '{sums}' has 3"],
        "sources_long": [f"--sources '{tmp_path / 'src.txt'}' has 4 line(s)", f"--summaries '{sums}' has 3"],
        "both_inputs": ["either --input", "not both"],
        "references_alone": ["--references is read with --summaries"],
        "not_utf8": [f"{tmp_path / 'l1.txt'}:2 (--summaries): not UTF-8", "iconv"],
        "empty": ["is empty"],
        "missing": ["nope.txt", "does not exist"],
    }[case]
    assert cli.main(["score", "rouge-1", *args, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for part in expected:
        assert part in err, err
    assert not out.exists() and not (tmp_path / "o.jsonl.meta.json").exists()
