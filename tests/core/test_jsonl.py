"""The shared JSONL reader: errors name the file and the line."""
from __future__ import annotations

import pytest

from sumeval.errors import InputError
from sumeval.jsonl import iter_jsonl, read_jsonl


def test_reads_objects_with_line_numbers_and_skips_blank_lines(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"a": 1}\n\n{"a": 2, "b": "é"}\n', encoding="utf-8")
    assert list(iter_jsonl(p)) == [(1, {"a": 1}), (3, {"a": 2, "b": "é"})]
    assert read_jsonl(p, required=["a"]) == [{"a": 1}, {"a": 2, "b": "é"}]


@pytest.mark.parametrize("lines, message", [
    (['{"a": 1}', '{"a": '], r"x.jsonl:2: not valid JSON .*; fix it"),
    (['[1, 2]'], r"x.jsonl:1: expected a JSON object, got list; fix it"),
    (['{"a": 1}', '{"b": 1}'], r"x.jsonl:2: field\(s\) \['a'\] missing"),
])
def test_bad_lines_are_named(tmp_path, lines, message):
    p = tmp_path / "x.jsonl"
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=message):
        read_jsonl(p, required=["a"], fix="fix it")
