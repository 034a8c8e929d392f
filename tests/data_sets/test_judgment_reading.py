"""Reading judgments files the way users write them (issue 21).

* M24: ``references`` as a JSON-encoded list inside a string - a CSV cell, a JSONL string (pandas'
  ``to_json`` of a frame read from CSV), a parquet string column - is the list in every format, so
  CSV, JSONL with a list, JSONL with a string and parquet give identical ROUGE numbers; a string
  that starts like a JSON array but is not a list of strings is an error naming file, line, column.
* M8: a spreadsheet's CSV separated by ``;`` (with a byte-order mark, CRLF and decimal commas), or a
  tab-separated ``.csv``: the error names the separator and the decimal comma and gives the fix.
* T1b: a column whose name holds ``#`` (the MEASURE#OUTPUT separator) is named ``column:#tokens``;
  a bare ``#tokens`` says so.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import metrics
from sumeval.datasets import judgments as jd
from sumeval.errors import InputError
from sumeval.metrics.judgment_scores import score_judgments
from sumeval.metrics.sources import resolve_measures

REFS = {
    "d1": ["the cat sat on the mat", "a cat was on the mat"],
    "d2": ["paris is the capital of france", "the capital of france is paris"],
    "d3": ["the river seine flows through paris", "paris lies on the seine"],
}
SUMMARIES = {"A": "the cat sat", "B": "a dog on a mat in paris", "C": "paris the capital on the seine"}


def _base() -> pd.DataFrame:
    """3 documents x 3 systems; ``references`` as the documented CSV form, a JSON array string."""
    rows = []
    for i, (d, refs) in enumerate(REFS.items()):
        for j, (s, summ) in enumerate(SUMMARIES.items()):
            rows.append({"doc_id": d, "system": s, "summary": summ, "references": json.dumps(refs),
                         "overall": float((3 * i + 2 * j) % 5), "my_metric": round(0.1 * (i + j), 2)})
    return pd.DataFrame(rows)


@pytest.fixture()
def files(tmp_path) -> dict[str, Path]:
    """The same judgments in every format the catalogue tried."""
    base = _base()
    out = {"csv": tmp_path / "base.csv", "jsonl_string": tmp_path / "refs_as_string.jsonl",
           "jsonl_list": tmp_path / "refs_as_list.jsonl", "parquet_string": tmp_path / "string.parquet",
           "parquet_list": tmp_path / "list.parquet", "tsv": tmp_path / "base.tsv"}
    base.to_csv(out["csv"], index=False)
    base.to_csv(out["tsv"], index=False, sep="\t")
    base.to_json(out["jsonl_string"], orient="records", lines=True)  # references stays a JSON *string*
    recs = json.loads(base.to_json(orient="records"))
    for r in recs:
        r["references"] = json.loads(r["references"])
    out["jsonl_list"].write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    base.to_parquet(out["parquet_string"], index=False)
    listed = base.copy()
    listed["references"] = [json.loads(r) for r in listed["references"]]
    listed.to_parquet(out["parquet_list"], index=False)
    return out


def _rouge(path: Path) -> pd.DataFrame:
    j = jd.load_judgments(path, human=["overall"])
    return score_judgments(j, resolve_measures(["rouge-1", "rouge-2"], j), cache=False).frame


def test_references_as_json_string_are_the_list_in_every_format(files):
    for name, path in files.items():
        j = jd.load_judgments(path, human=["overall"])
        assert [list(r) for r in j.frame["references"]] == [REFS[d] for d in j.frame["doc_id"]], name
    expected = _rouge(files["csv"])
    for name, path in files.items():
        pd.testing.assert_frame_equal(_rouge(path), expected, check_exact=True, obj=name)


def test_the_literal_reading_would_have_given_other_numbers(files):
    """The check above can fail: one literal reference, brackets and quotes included, scores lower."""
    frame = jd.load_judgments(files["jsonl_string"], human=["overall"]).frame
    lists = [{"summary": s, "references": list(r)} for s, r in zip(frame["summary"], frame["references"])]
    literal = [{"summary": s, "references": [json.dumps(list(r))]}
               for s, r in zip(frame["summary"], frame["references"])]
    right, _ = metrics.score_records(lists, ["rouge-1"])
    wrong, _ = metrics.score_records(literal, ["rouge-1"])
    # row 0, "the cat sat", by hand; ROUGE-1 F = 2PR / (P + R), averaged over the two references:
    #   "the cat sat on the mat": 3 shared unigrams, P = 3/3, R = 3/6, F = 2/3
    #   "a cat was on the mat":   2 shared (the, cat), P = 2/3, R = 2/6, F = 4/9
    #   mean (2/3 + 4/9) / 2 = 5/9; the literal reading (one reference '["the cat sat on ...", ...]') differs
    assert right.loc[0, "rouge-1-f"] == pytest.approx(5 / 9)
    assert not np.allclose(right["rouge-1-f"], wrong["rouge-1-f"])


def test_a_plain_string_is_one_reference(tmp_path):
    base = _base()
    base["references"] = "the cat sat on the mat"
    p = tmp_path / "one.jsonl"
    base.to_json(p, orient="records", lines=True)
    j = jd.load_judgments(p, human=["overall"])
    assert all(list(r) == ["the cat sat on the mat"] for r in j.frame["references"])


@pytest.mark.parametrize("cell, message", [
    ('["one", "two"', r"starts like a JSON array but is not one \(Expecting ',' delimiter at character 14\)"),
    ("[1, 2]", r"= '\[1, 2\]' is a JSON value but not a list of strings"),
    ("[citation needed] text", r"starts like a JSON array but is not one .*a single text that starts with"),
])
def test_a_string_that_starts_like_a_list_but_is_not_one_is_an_error(tmp_path, cell, message):
    base = _base()
    base["references"] = base["references"].astype(object)
    base.loc[4, "references"] = cell
    for path in (tmp_path / "bad.jsonl", tmp_path / "bad.parquet", tmp_path / "bad.csv"):
        {".jsonl": lambda p: base.to_json(p, orient="records", lines=True),
         ".parquet": lambda p: base.to_parquet(p, index=False),
         ".csv": lambda p: base.to_csv(p, index=False)}[path.suffix](path)
        where = {".jsonl": f"{path}:5", ".parquet": f"{path}: row 5", ".csv": f"{path}:6"}[path.suffix]
        with pytest.raises(InputError, match=rf"{where}: column 'references' " + message):
            jd.load_judgments(path, human=["overall"])


def test_score_records_reads_a_json_string_as_the_list():
    as_list = [{"summary": "the cat sat", "references": ["a dog", "the cat sat on the mat"]}]
    as_text = [{"summary": "the cat sat", "references": json.dumps(as_list[0]["references"])}]
    a, _ = metrics.score_records(as_list, ["rouge-1"])
    b, _ = metrics.score_records(as_text, ["rouge-1"])
    pd.testing.assert_frame_equal(a, b)
    with pytest.raises(InputError, match=r"in\.jsonl:7: field 'references' starts like a JSON array but is not one"):
        metrics.score_records([{"summary": "x", "references": "[oops"}], ["rouge-1"],
                              row_label=lambda i: "in.jsonl:7")


# --------------------------------------------------------------------------------------------
# M8: spreadsheet CSVs
# --------------------------------------------------------------------------------------------
def test_excel_semicolon_csv_names_the_separator_and_the_decimal_comma(tmp_path):
    base = _base()
    p = tmp_path / "excel_semicolon.csv"
    p.write_bytes(b"\xef\xbb\xbf" + base.to_csv(index=False, sep=";", lineterminator="\r\n", decimal=",").encode())
    with pytest.raises(InputError) as ei:
        jd.load_judgments(p, human=["overall"])
    msg = str(ei.value)
    assert msg.startswith(f"{p}: its columns are separated by semicolons (';': the header has 6 columns at "
                          "';', 1 at ','), and numbers are written with a decimal comma ('0,0' in column "
                          "'overall' on line 2)")
    assert "Save it as comma-separated CSV" in msg
    assert f"pd.read_csv('{p}', sep=';', decimal=',')" in msg
    # the conversion the message gives reads the same judgments as the comma-separated file
    fixed = tmp_path / "excel_semicolon_comma.csv"
    assert f".to_csv('{fixed}', index=False)" in msg
    pd.read_csv(p, sep=";", decimal=",").to_csv(fixed, index=False)
    good = tmp_path / "base.csv"
    base.to_csv(good, index=False)
    a = jd.load_judgments(fixed, human=["overall"]).frame
    b = jd.load_judgments(good, human=["overall"]).frame
    pd.testing.assert_frame_equal(a, b)


def test_semicolon_without_decimal_commas_and_tabs_in_a_csv(tmp_path):
    base = _base().drop(columns=["my_metric"])
    base["overall"] = base["overall"].astype(int)  # no decimal comma anywhere
    p = tmp_path / "semi.csv"
    p.write_text(base.to_csv(index=False, sep=";"), encoding="utf-8")
    with pytest.raises(InputError, match=r"separated by semicolons \(';': the header has 5 columns at ';', 1 at "
                       r"','\), as a spreadsheet exports") as ei:
        jd.load_judgments(p, human=["overall"])
    assert "decimal comma" not in str(ei.value).split(", as a spreadsheet")[0]
    t = tmp_path / "tabs.csv"
    t.write_text(_base().to_csv(index=False, sep="\t"), encoding="utf-8")
    with pytest.raises(InputError, match=r"separated by tabs \('\\t': the header has 6 columns at '\\t', 1 at "
                       r"','\); a \.csv file is read with ',' as the separator\. .*or rename it to \.tsv"):
        jd.load_judgments(t, human=["overall"])
    c = tmp_path / "commas.tsv"
    _base().to_csv(c, index=False)
    with pytest.raises(InputError, match=r"separated by commas \(',': the header has 6 columns at ',', 1 at "
                       r"'\\t'\); a \.tsv file is read with '\\t'"):
        jd.load_judgments(c, human=["overall"])


def test_bom_crlf_comma_csv_reads_and_a_ragged_line_keeps_its_message(tmp_path):
    base = _base()
    bom = tmp_path / "excel_bom_comma.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + base.to_csv(index=False, lineterminator="\r\n").encode())
    good = tmp_path / "base.csv"
    base.to_csv(good, index=False)
    pd.testing.assert_frame_equal(jd.load_judgments(bom, human=["overall"]).frame,
                                  jd.load_judgments(good, human=["overall"]).frame)
    ragged = tmp_path / "ragged.csv"
    text = good.read_text(encoding="utf-8").splitlines()
    text[3] = text[3] + ",extra"
    ragged.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"ragged\.csv:4: 7 fields, but the header has 6 .*quote fields that "
                       r"hold the delimiter ','"):
        jd.load_judgments(ragged, human=["overall"])


# --------------------------------------------------------------------------------------------
# T1b: a column named with '#'
# --------------------------------------------------------------------------------------------
def test_a_column_with_hash_in_its_name_is_named_with_column_prefix(tmp_path):
    base = _base()
    base["#tokens"] = [float(len(s.split())) for s in base["summary"]]
    base["a#b"] = base["my_metric"]
    p = tmp_path / "special.csv"
    base.to_csv(p, index=False)
    j = jd.load_judgments(p, human=["overall"])
    spec, = resolve_measures(["column:#tokens"], j)
    assert (spec.name, spec.source, spec.column, spec.higher_is_better) == ("#tokens", "column", "#tokens", True)
    spec, = resolve_measures(["column:#tokens:lower"], j)
    assert spec.label == "#tokens (negated)"
    scores = score_judgments(j, [spec], cache=False)
    assert scores.frame["#tokens (negated)"].tolist() == [-3.0, -7.0, -6.0] * 3  # minus the word counts
    with pytest.raises(InputError, match=r"measure '#tokens': write MEASURE#OUTPUT, .*a column whose name "
                       r"holds '#' is named with column:, e.g\. 'column:#tokens'"):
        resolve_measures(["#tokens"], j)
    with pytest.raises(InputError, match=r"measure 'a#b': .*'a#b' is a column of special: name it 'column:a#b'"):
        resolve_measures(["a#b"], j)
    spec, = resolve_measures(["column:a#b"], j)
    assert spec.column == "a#b"
    with pytest.raises(InputError, match=r"'column:#nope': special has no numeric column '#nope'"):
        resolve_measures(["column:#nope"], j)


# --------------------------------------------------------------------------------------------
# The catalogue re-run (issue 21, Done-when): an infinite human value (M3b), when the file is read
# --------------------------------------------------------------------------------------------
def test_an_infinite_human_value_is_refused_with_file_and_line(tmp_path, monkeypatch, capsys):
    from sumeval.cli import main

    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(tmp_path / "registry.json"))
    f = _base().astype({"overall": object})
    f.loc[4, "overall"] = "-Infinity"  # row 4: line 6 of the file (header on line 1)
    path = tmp_path / "human_inf.csv"
    f.to_csv(path, index=False)
    with pytest.raises(InputError) as ei:
        jd.load_judgments(path, human=["overall"])
    assert str(ei.value) == (f"{path}:6: human column 'overall' = '-Infinity' is infinite; write a finite number, "
                             "or leave the cell empty (NaN) where not judged")
    # before: `data add` accepted it, and meta-eval said "column 'overall' has 1 infinite value(s) (first
    # at flat position 4)" without file or line
    assert main(["data", "add", "hinf", str(path), "--human", "overall"]) == 2
    assert f"{path}:6: human column 'overall' = '-Infinity' is infinite" in capsys.readouterr().err
    assert not (tmp_path / "registry.json").exists()
    # not a human column: read as a number (refused only if it is used as a measure, naming the measure)
    assert jd.load_judgments(path, human=["my_metric"]).frame["overall"].iloc[4] == -np.inf
