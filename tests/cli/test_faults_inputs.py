"""Bad inputs and faults on the input/output side of the CLI (issue 13): output paths, field and
option types, text in any script, the user's fields, unreadable files, index names, study
parameters, empty documents and empty queries.

Every case asserts the clear error (exit code, the message names the value / option / file:line,
nothing written or changed) or the correct result.
"""
from __future__ import annotations

import gzip
import json
import os
import stat
from pathlib import Path

import pytest

from sumeval import argtypes, cli, metrics
from sumeval.cli import score
from sumeval.errors import InputError
from sumeval.running import study_params

GOOD = {"summary": "the cat sat on the mat", "references": ["the cat was on the mat"]}


def _write(path: Path, records, raw: bool = False) -> Path:
    if raw:
        path.write_bytes(records)
    else:
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _run(capsys, *argv) -> tuple[int, str]:
    rc = cli.main([str(a) for a in argv])
    return rc, capsys.readouterr().err


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every entry of ``folder``: (mode, bytes of a regular file) - to assert nothing changed."""
    out = {}
    for p in sorted(folder.rglob("*")):
        st = os.lstat(p)
        out[str(p.relative_to(folder))] = (st.st_mode, p.read_bytes() if stat.S_ISREG(st.st_mode) else None)
    return out


@pytest.fixture
def good(tmp_path) -> Path:
    return _write(tmp_path / "pairs.jsonl", [GOOD])


@pytest.fixture
def no_scoring(monkeypatch):
    """Fail the test if anything is scored: the checks must come before the computing."""
    def boom(*a, **k):
        raise AssertionError("scored before the input/output checks")

    monkeypatch.setattr(metrics, "score_records", boom)


# ------------------------------------------------------------------------------------------
# class 2: output paths, checked before anything is computed
# ------------------------------------------------------------------------------------------
def test_output_symlink_is_written_through_and_the_link_kept(tmp_path, good, capsys):
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    rc, _ = _run(capsys, "score", "rouge-1", "-i", good, "-o", link)
    assert rc == 0 and link.is_symlink() and os.readlink(link) == "real.jsonl"
    row = json.loads(target.read_text())
    assert row["rouge-1-f"] == pytest.approx(5 / 6)  # 5 of 6 unigrams shared both ways
    assert (tmp_path / "link.jsonl.meta.json").is_file()


def test_dash_is_not_standard_output_or_input(tmp_path, good, capsys, no_scoring, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", "-")
    assert rc == 2 and "not to standard output" in err and not (tmp_path / "-").exists()
    rc, err = _run(capsys, "score", "rouge-1", "-i", "-", "-o", "o.jsonl")
    assert rc == 2 and "--input /dev/stdin" in err


def test_output_dangling_symlink_creates_its_target(tmp_path, good, capsys):
    link = tmp_path / "link.jsonl"
    link.symlink_to("made.jsonl")
    assert _run(capsys, "score", "rouge-1", "-i", good, "-o", link)[0] == 0
    assert link.is_symlink() and "rouge-1-f" in (tmp_path / "made.jsonl").read_text()


def test_output_symlink_loop_is_a_message(tmp_path, good, capsys, no_scoring):
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to("loop.jsonl")
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", loop)
    assert rc == 2 and "loop.jsonl" in err and "symbolic links" in err and loop.is_symlink()


def test_output_named_pipe_is_refused(tmp_path, good, capsys, no_scoring):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    before = _snapshot(tmp_path)
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", fifo)
    assert rc == 2 and "--output" in err and "named pipe" in err and "regular file" in err
    assert _snapshot(tmp_path) == before and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_output_device_node_is_refused_not_replaced(tmp_path, good, capsys, no_scoring):
    dev = tmp_path / "full"
    try:  # a copy of /dev/full (1, 7) in the test folder, never the real one
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except (PermissionError, OSError):
        pytest.skip("cannot create a device node here (needs root)")
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", dev)
    assert rc == 2 and "character device" in err and str(dev) in err
    assert stat.S_ISCHR(os.lstat(dev).st_mode) and not (tmp_path / "full.meta.json").exists()


@pytest.mark.parametrize("how", ["same", "symlink", "hardlink", "relative"])
def test_output_equal_to_input_is_refused(tmp_path, good, capsys, no_scoring, monkeypatch, how):
    if how == "same":
        out = good
    elif how == "symlink":
        out = tmp_path / "alias.jsonl"
        out.symlink_to(good)
    elif how == "hardlink":
        out = tmp_path / "alias.jsonl"
        os.link(good, out)
    else:
        monkeypatch.chdir(tmp_path)
        out = Path(".") / "sub" / ".." / good.name
        (tmp_path / "sub").mkdir()
    before = _snapshot(tmp_path)
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", out)
    assert rc == 2 and "is the input file" in err and "never overwritten" in err
    assert _snapshot(tmp_path) == before


def test_output_record_file_equal_to_input_is_refused(tmp_path, capsys, no_scoring):
    inp = _write(tmp_path / "x.jsonl.meta.json", [GOOD])
    rc, err = _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "x.jsonl")
    assert rc == 2 and "record file" in err and "is the input file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl.meta.json"]


def test_output_folder_is_refused_before_scoring(tmp_path, good, capsys, no_scoring):
    (tmp_path / "adir").mkdir()
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", tmp_path / "adir")
    assert rc == 2 and "is a folder" in err and "adir" in err
    assert list((tmp_path / "adir").iterdir()) == []


def test_output_with_trailing_slash_names_a_folder(tmp_path, good, capsys, no_scoring):
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", f"{tmp_path}/new/")
    assert rc == 2 and "names a folder" in err and not (tmp_path / "new").exists()


def test_read_only_output_is_refused_and_kept(tmp_path, good, capsys, no_scoring):
    ro = tmp_path / "ro.jsonl"
    ro.write_text("keep me\n")
    ro.chmod(0o444)
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", ro)
    assert rc == 2 and "read-only" in err and "ro.jsonl" in err
    assert ro.read_text() == "keep me\n" and stat.S_IMODE(ro.stat().st_mode) == 0o444


def test_output_below_a_file_is_refused(tmp_path, good, capsys, no_scoring):
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", good / "x.jsonl")
    assert rc == 2 and "is not a folder" in err and str(good) in err


def test_output_where_no_file_can_be_created_is_refused(good, capsys, no_scoring):
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", "/proc/sumeval-nope/x.jsonl")
    assert rc == 2 and "cannot create a file in '/proc'" in err and "Traceback" not in err


def test_output_record_file_that_is_a_folder_is_refused(tmp_path, good, capsys, no_scoring):
    (tmp_path / "o.jsonl.meta.json").mkdir()
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "record file of --output" in err and "is a folder" in err
    assert not (tmp_path / "o.jsonl").exists()


def test_missing_output_folders_are_created(tmp_path, good, capsys):
    out = tmp_path / "a" / "b" / "scored.jsonl"
    rc, _ = _run(capsys, "score", "rouge-1", "-i", good, "-o", out)
    assert rc == 0 and out.is_file() and (out.parent / "scored.jsonl.meta.json").is_file()


def test_gz_output_is_compressed(tmp_path, good, capsys):
    out = tmp_path / "scored.jsonl.gz"
    assert _run(capsys, "score", "rouge-1", "-i", good, "-o", out)[0] == 0
    with gzip.open(out, "rt", encoding="utf-8") as fh:
        assert json.loads(fh.readline())["rouge-1-f"] == pytest.approx(5 / 6)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_results_follow_the_umask(tmp_path, good, capsys, mask, mode):
    old = os.umask(mask)
    try:
        assert _run(capsys, "score", "rouge-1", "-i", good, "-o", tmp_path / "o.jsonl")[0] == 0
    finally:
        os.umask(old)
    for name in ("o.jsonl", "o.jsonl.meta.json"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode, name


def test_replaced_file_keeps_its_permissions(tmp_path, good, capsys):
    out = tmp_path / "o.jsonl"
    out.write_text("old\n")
    out.chmod(0o640)
    assert _run(capsys, "score", "rouge-1", "-i", good, "-o", out)[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640 and "rouge-1-f" in out.read_text()


def test_cache_writes_follow_the_umask(tmp_path):
    from sumeval.cache import atomic_write_json

    old = os.umask(0o022)
    try:
        p = atomic_write_json(tmp_path / "x" / "m.json", {"a": 1})
    finally:
        os.umask(old)
    assert stat.S_IMODE(p.stat().st_mode) == 0o644


def test_a_failing_write_is_a_message_and_leaves_nothing(tmp_path, good, capsys, monkeypatch):
    import errno

    def full(path, records):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(score, "write_jsonl", full)
    rc, err = _run(capsys, "score", "rouge-1", "-i", good, "-o", tmp_path / "o.jsonl")
    assert rc == 1 and "No space left on device" in err and "o.jsonl" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.jsonl"]


# ------------------------------------------------------------------------------------------
# class 3: types are checked, not coerced
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("field, value, words", [
    ("summary", 42, "must be a string, got a number 42"),
    ("summary", ["a", "b"], 'must be a string, got a list ["a", "b"]'),
    ("summary", True, "must be a string, got a boolean true"),
    ("summary", {"t": "x"}, "must be a string, got an object"),
    ("references", 7, "must be a list of strings, got a number 7"),
    ("references", {"r": "x"}, "must be a list of strings, got an object"),
    ("references", ["a b", 7], "reference 2 of 2 must be a string, got a number 7"),
    ("references", ["a b", ["c"]], "reference 2 of 2 must be a string, got a list"),
])
def test_field_of_the_wrong_type_is_an_error_naming_line_and_field(tmp_path, capsys, field, value, words):
    inp = _write(tmp_path / "p.jsonl", [GOOD, {**GOOD, field: value}])
    rc, err = _run(capsys, "score", "rouge-1", "bleu", "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and f"p.jsonl:2: field {field!r}" in err and words in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl"]


def test_text_of_the_wrong_type_is_an_error(tmp_path, capsys):
    inp = _write(tmp_path / "p.jsonl", [{"summary": "a b", "text": 5}])
    rc, err = _run(capsys, "score", "js-2", "-O", "against=text", "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "p.jsonl:1: field 'text' must be a string, got a number 5" in err


def test_a_single_string_reference_is_one_reference(tmp_path, capsys):
    inp = _write(tmp_path / "p.jsonl", [GOOD, {**GOOD, "references": GOOD["references"][0]}])
    assert _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")[0] == 0
    a, b = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert a["rouge-1-f"] == b["rouge-1-f"] == pytest.approx(5 / 6)


def test_null_summary_is_not_scored_and_reported(tmp_path, capsys):
    inp = _write(tmp_path / "p.jsonl", [GOOD, {**GOOD, "summary": None}])
    rc, err = _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")
    rows = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert rc == 0 and rows[1]["rouge-1-f"] is None and "p.jsonl:2: rouge-1 not scored (empty summary)" in err


@pytest.mark.parametrize("measure, option, words", [
    # types: checked, not coerced
    ("rouge-1", "use_stemmer=maybe", "measure 'rouge-1': option use_stemmer must be true or false, got 'maybe'"),
    ("rouge-1", "strip_tags=2", "option strip_tags must be true or false, got 2"),
    ("bleu", "max_n=abc", "measure 'bleu': option max_n must be an integer, got 'abc'"),
    ("bleu", "max_n=2.5", "option max_n must be an integer, got 2.5"),
    ("bleu", "lowercase=maybe", "option lowercase must be true or false"),
    ("js-2", "n=abc", "option n must be an integer"),
    ("js-2", "stopwords=perhaps", "option stopwords must be true or false"),
    ("js-2", "base=e", "option base must be a number, got 'e'"),
    ("sera-10", "k=abc", "measure 'sera-10': option k must be an integer"),
    ("sera-10", "dis=maybe", "option dis must be true or false"),
    ("rouge-l", "tokenizer=5", "option tokenizer must be a string, got 5"),
    # ranges
    ("js-2", "base=1", "base=1 must be a positive number other than 1"),
    ("js-2", "base=-2", "base=-2 must be a positive number other than 1"),
    ("bleu", "max_n=0", "max_n=0 must be a positive integer"),
    ("sera-10", "k=0", "cut-off k must be a positive integer"),
    ("sera-10", "size=0", "index size n must be a positive integer"),
    ("sera-10", "seed=-1", "index seed must be a non-negative integer"),
    ("rouge-1", "tokenizer=ascii", "tokenizer='ascii' is not one of"),
])
def test_bad_option_is_an_error_naming_it(tmp_path, good, capsys, no_scoring, measure, option, words):
    rc, err = _run(capsys, "score", measure, "-O", option, "-i", good, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and words in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.jsonl"]


def test_option_without_value_or_given_twice(tmp_path, good, capsys, no_scoring):
    rc, err = _run(capsys, "score", "rouge-1", "-O", "use_stemmer", "-i", good, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "-O 'use_stemmer' is not of the form key=value" in err
    rc, err = _run(capsys, "score", "rouge-1", "-O", "use_stemmer=true", "-O", "use_stemmer=false",
                   "-i", good, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "-O use_stemmer is given twice" in err
    rc, err = _run(capsys, "score", "rouge-1", "--aggregate", "max", "-O", "aggregate=mean",
                   "-i", good, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "'aggregate' is given both as --aggregate and as -O" in err


def test_scorers_built_in_python_check_types_too():
    from sumeval.metrics.bleu import BleuScorer
    from sumeval.metrics.jensen_shannon import JensenShannonScorer
    from sumeval.metrics.rouge import RougeScorer

    with pytest.raises(InputError, match="use_stemmer must be true or false, got 'maybe'"):
        RougeScorer(use_stemmer="maybe")
    with pytest.raises(InputError, match="max_n must be an integer, got 'abc'"):
        BleuScorer(max_n="abc")
    with pytest.raises(InputError, match="n must be an integer, got 2.0"):
        JensenShannonScorer(n=2.0)


@pytest.mark.slow
@pytest.mark.parametrize("flag", [["--layer", "-5"], ["--text-layer", "-1"], ["-O", "layer=2.5"], ["--layer", "7"]])
def test_bad_layer_is_an_error_not_another_layer(tmp_path, capsys, no_scoring, flag):
    inp = _write(tmp_path / "p.jsonl", [{"summary": "the cat sat", "text": "the cat sat on the mat"}])
    rc, err = _run(capsys, "score", "estime", "--model", "all-MiniLM-L6-v2", *flag, "-i", inp,
                   "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "layer" in err and ("out of range" in err or "integer" in err)
    assert "0..6" in err or "2.5" in err


# ------------------------------------------------------------------------------------------
# class 4: text in any script is measured
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Кошка сидит на ковре",                    # Cyrillic
    "Η γάτα κάθεται στο χαλί",                  # Greek
    "Le chat est assis sur le tapis, fiancée",  # accents
    "猫はマットの上に座っている",                 # Japanese, no spaces
    "बिल्ली चटाई पर बैठी है",                      # Devanagari (combining vowel signs)
])
def test_a_text_scored_against_itself_gets_one(tmp_path, capsys, text):
    inp = _write(tmp_path / "p.jsonl", [{"summary": text, "references": [text]}])
    assert _run(capsys, "score", "rouge-1", "rouge-2", "rouge-l", "rouge-lsum", "bleu", "-i", inp,
                "-o", tmp_path / "o.jsonl")[0] == 0
    row = json.loads((tmp_path / "o.jsonl").read_text())
    # BLEU-4 splits at white space: the Japanese line is one token, for which smoothed BLEU-4 is
    # below 1 in any script (an English one-word text as well)
    cols = ("rouge-1-f", "rouge-2-f", "rouge-l-f", "rouge-lsum-f") + (("bleu",) if len(text.split()) >= 4 else ())
    for col in cols:
        assert row[col] == pytest.approx(1.0), col


def test_unicode_tokens_and_the_old_tokenizer():
    from sumeval.metrics.rouge import RougeScorer, tokenize

    assert tokenize("Кошка СИДИТ, на ковре!") == ["кошка", "сидит", "на", "ковре"]
    assert tokenize("東京タワー") == ["東", "京", "タ", "ワ", "ー"]  # one token per character
    assert tokenize("naïve fiancée") == ["naïve", "fiancée"]
    assert tokenize("naïve fiancée", None, "rouge-score") == ["na", "ve", "fianc", "e"]
    assert tokenize("Кошка", None, "rouge-score") == []
    old = RougeScorer("rouge1", tokenizer="rouge-score")
    assert old.score_one("Кошка сидит", ["Кошка сидит"]) == (0.0, 0.0, 0.0)  # why it is not the default
    assert "tokenizer=unicode" in RougeScorer("rouge1").signature()
    assert "tokenizer=rouge-score" in old.signature()


def test_unicode_tokenizer_is_rouge_scores_on_ascii_text():
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rouge_score import tokenize as rs

    from sumeval.metrics.rouge import _CachedStemmer, tokenize

    stemmer = _CachedStemmer()

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=80))
    def same(text):
        assert tokenize(text) == rs.tokenize(text, None)
        assert tokenize(text, stemmer) == rs.tokenize(text, stemmer)

    same()


@pytest.mark.slow
def test_summeval_rouge_is_unchanged_by_the_tokenizer():
    """Real SummEval rows (every 40th pair): the ROUGE rows of the studies, which run
    rouge-score's tokenizer, equal rouge_score's RougeScorer bit for bit; and the default Unicode
    tokenizer gives the same numbers wherever the texts are ASCII."""
    from rouge_score import rouge_scorer

    from sumeval.datasets.summeval import load_summeval
    from sumeval.metrics.rouge import RougeScorer
    from sumeval.studies.common.baseline_rows import TABLE1_ROWS

    pairs = load_summeval().iloc[::40]
    ref_lib = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=False)
    n_ascii = 0
    for label, variant in (("ROUGE-1", "rouge1"), ("ROUGE-2", "rouge2"), ("ROUGE-L", "rougeL")):
        study = metrics.get_scorer(TABLE1_ROWS[label].measure, **TABLE1_ROWS[label].options)
        unicode_ = RougeScorer(variant, use_stemmer=False)
        for summ, refs in zip(pairs["summary"], pairs["references"]):
            lib = [ref_lib.score(r, summ)[variant] for r in refs]
            expected = tuple(float(sum(getattr(s, k) for s in lib) / len(lib))
                             for k in ("precision", "recall", "fmeasure"))
            assert study.score_one(summ, refs) == pytest.approx(expected, abs=0, rel=1e-15)
            if summ.isascii() and all(r.isascii() for r in refs):
                n_ascii += 1
                assert unicode_.score_one(summ, refs) == study.score_one(summ, refs)
    assert n_ascii >= 60  # most sampled rows are ASCII


# ------------------------------------------------------------------------------------------
# class 5: the user's data is never overwritten
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("measures, field", [(["rouge-1"], "rouge-1-f"), (["bleu", "rouge-2"], "bleu"),
                                             (["rouge-1"], "rouge-1-p-max")])
def test_input_field_named_like_an_output_column_is_refused(tmp_path, capsys, measures, field):
    agg = ["--aggregate", "max"] if field.endswith("-max") else []
    inp = _write(tmp_path / "p.jsonl", [GOOD, {**GOOD, field: "mine"}])
    rc, err = _run(capsys, "score", *measures, *agg, "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and f"p.jsonl:2: field {field!r}" in err and "never replaces input fields" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl"]


def test_fields_the_cli_used_internally_are_kept(tmp_path, capsys):
    inp = _write(tmp_path / "p.jsonl", [{**GOOD, "__line__": "keep", "id": 7, "score": None}])
    assert _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")[0] == 0
    row = json.loads((tmp_path / "o.jsonl").read_text())
    assert row["__line__"] == "keep" and row["id"] == 7 and row["score"] is None


def test_a_key_twice_in_one_line_is_refused(tmp_path, capsys):
    inp = _write(tmp_path / "p.jsonl", b'{"summary": "a", "summary": "b", "references": ["a"]}\n', raw=True)
    rc, err = _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "p.jsonl:1: field 'summary' appears twice" in err


# ------------------------------------------------------------------------------------------
# class 9: unreadable files are messages with the line, not tracebacks
# ------------------------------------------------------------------------------------------
def test_non_utf8_input_names_the_line_and_byte(tmp_path, capsys):
    raw = json.dumps(GOOD).encode() + b'\n{"summary": "caf\xe9", "references": ["x"]}\n'
    inp = _write(tmp_path / "latin1.jsonl", raw, raw=True)
    rc, err = _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "latin1.jsonl:2: not UTF-8 text (byte 0xe9 at column 17)" in err and "UTF-8" in err
    assert not (tmp_path / "o.jsonl").exists()


def test_byte_order_mark_is_read(tmp_path, capsys):
    inp = _write(tmp_path / "bom.jsonl", b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\r\n", raw=True)
    assert _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")[0] == 0
    assert json.loads((tmp_path / "o.jsonl").read_text())["summary"] == GOOD["summary"]


def test_gzip_input_is_read_and_a_damaged_one_named(tmp_path, capsys):
    gz = tmp_path / "p.jsonl.gz"
    gz.write_bytes(gzip.compress((json.dumps(GOOD) + "\n").encode()))
    assert _run(capsys, "score", "rouge-1", "-i", gz, "-o", tmp_path / "o.jsonl")[0] == 0
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(gz.read_bytes()[:-12])
    rc, err = _run(capsys, "score", "rouge-1", "-i", cut, "-o", tmp_path / "o2.jsonl")
    assert rc == 2 and "cut.jsonl.gz: damaged gzip file" in err and not (tmp_path / "o2.jsonl").exists()


def test_input_from_a_pipe_is_read(tmp_path, capsys):
    """``-i <(zcat pairs.jsonl.gz)``: a named pipe, read once (no seeking back), gzip or not."""
    import threading

    for payload in ((json.dumps(GOOD) + "\n").encode(), gzip.compress((json.dumps(GOOD) + "\n").encode())):
        fifo = tmp_path / "in.pipe"
        os.mkfifo(fifo)
        writer = threading.Thread(target=lambda: fifo.write_bytes(payload))
        writer.start()
        rc, err = _run(capsys, "score", "rouge-1", "-i", fifo, "-o", tmp_path / "o.jsonl")
        writer.join(timeout=10)
        assert rc == 0, err
        assert json.loads((tmp_path / "o.jsonl").read_text())["rouge-1-f"] == pytest.approx(5 / 6)
        fifo.unlink()


def test_corpus_files_name_the_line(tmp_path, capsys):
    bad = tmp_path / "c.jsonl"
    bad.write_bytes(b'{"id": 1, "text": "fine"}\n{"id": 2, "text": "caf\xe9"}\n')
    rc, err = _run(capsys, "index", "build", "--corpus", bad, "--size", "2")
    assert rc == 2 and "c.jsonl:2: not UTF-8 text (byte 0xe9" in err
    numbered = tmp_path / "t.jsonl"
    numbered.write_text('{"id": 1, "text": "one", "title": 42}\n')
    rc, err = _run(capsys, "index", "build", "--corpus", numbered, "--size", "1")
    assert rc == 2 and "t.jsonl:1: field 'title' must be a string, got int" in err
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b'\xef\xbb\xbf{"id": 1, "text": "one"}\n{"id": 2, "text": "two"}\n')
    from sumeval.datasets.corpora import open_corpus

    assert [d.text for d in open_corpus(bom)] == ["one", "two"]


def test_csv_input_says_the_input_is_jsonl(tmp_path, capsys):
    inp = tmp_path / "pairs.csv"
    inp.write_text("summary,references\nthe cat,the cat\n")
    rc, err = _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "pairs.csv:1: not valid JSON" in err and ".csv files are not read" in err


@pytest.mark.parametrize("content, words", [
    (b'{"summary": "abc, "references": ["x"]}\n', "Expecting ',' delimiter at column 20"),
    (b'{"summary": "abc\x01"}\n', "Invalid control character at column 17"),
    (b'{"summary": "abc', "Unterminated string starting at column 13"),  # the file ends in the string
    (b'[1, 2]\n', "expected a JSON object, got list"),
])
def test_json_errors_read_well(tmp_path, capsys, content, words):
    inp = _write(tmp_path / "bad.jsonl", content, raw=True)
    rc, err = _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "bad.jsonl:1: " in err and words in err and "at at" not in err


def test_input_that_is_a_folder_or_empty(tmp_path, capsys):
    rc, err = _run(capsys, "score", "rouge-1", "-i", tmp_path, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "is a folder; give a JSONL file" in err
    empty = _write(tmp_path / "empty.jsonl", b"\n  \n", raw=True)
    rc, err = _run(capsys, "score", "rouge-1", "-i", empty, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and "has no records" in err and not (tmp_path / "o.jsonl").exists()


# ------------------------------------------------------------------------------------------
# class 10: messages name the real cause
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, words", [
    ("wikipedia:abc", "'abc' is neither a size"),
    ("wikipedia:1000:abc", "'abc' is neither a seed"),
    ("wikipedia:1000:0:foo", "unknown backend 'foo'"),
    ("wikipedia:1e3:0", "the size '1e3' is not a positive integer, in digits"),
    ("wikipedia:1,000", "the size '1,000' is not a positive integer"),
    ("wikipedia:-5", "the size '-5' is not a positive integer"),
    ("wikipedia:0", "size 0: an index holds at least one document"),
    ("wikipedia:1000:-1", "the seed '-1' is not a non-negative integer"),
    ("wikipedia:1000:0:sparse:x", "has 5 ':'-separated fields"),
    (":1000", "no corpus"),
])
def test_index_names_report_the_field_at_fault(tmp_path, good, capsys, no_scoring, spec, words):
    rc, err = _run(capsys, "score", "sera-10", "--index", spec, "-i", good, "-o", tmp_path / "o.jsonl")
    assert rc == 2 and f"index name {spec!r}" in err and words in err and "unknown corpus" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.jsonl"]


def test_index_names_still_parse():
    from sumeval.retrieval.index import parse_index_name

    assert parse_index_name("wikipedia:1000:sparse") == {"corpus": "wikipedia", "n": 1000, "seed": 0,
                                                         "backend": "sparse"}
    assert parse_index_name("news") == {"corpus": "news", "n": 10000, "seed": 0, "backend": "sparse"}


def test_index_names_with_a_path_holding_a_colon(tmp_path):
    from sumeval.retrieval.index import parse_index_name

    odd = tmp_path / "my:corpus.jsonl"
    odd.write_text('{"id": 1, "text": "x"}\n')
    assert parse_index_name(f"{odd}:20:1")["corpus"] == str(odd)


@pytest.mark.parametrize("args, words", [
    (["--size", "0"], "--size 0: an index holds at least one document"),
    (["--size", "-3"], "--size -3"),
    (["--size", "10", "--seed", "-1"], "--seed -1: a seed is a non-negative integer"),
    ([], "needs --size N"),
])
def test_index_build_numbers(tmp_path, capsys, args, words):
    rc, err = _run(capsys, "index", "build", "--corpus", "bbc2005", *args)
    assert rc == 2 and words in err
    assert not (Path(os.environ["SUMEVAL_CACHE"]) / "retrieval_indexes").exists() or not any(
        ".partial-" in p.name for p in (Path(os.environ["SUMEVAL_CACHE"]) / "retrieval_indexes").iterdir())


@pytest.mark.parametrize("study, param, words", [
    ("metric_correlations", "seed=-1",
     "parameter 'seed' of study 'metric_correlations': seed must be at least 0, got -1"),
    ("metric_correlations", "n_docs=-1", "n_docs must be at least 0"),  # the data set's own count: when loaded
    ("metric_correlations", "n_resamples=-5", "n_resamples must be at least 0"),
    ("index_size_sweep", "sizes=[200, -5]", "every element of sizes must be at least 0"),
    ("annotator_impact", "worker_counts=[0, 1]", "every element of worker_counts must be at least 1"),
    ("layer_probing", "n_systems=-1", "n_systems must be at least 0"),
    ("ordering_benchmark", "lr=0", "lr must be greater than 0"),
    ("ordering_robustness", "patience=0", "patience must be at least 1"),
])
def test_study_parameters_out_of_range_fail_before_the_run(capsys, study, param, words):
    runs = Path(os.environ["SUMEVAL_RUNS"]) / study
    before = set(runs.iterdir()) if runs.exists() else set()  # runs of other tests of the session
    rc, err = _run(capsys, "run", study, "--params", "smoke", "-p", param)
    assert rc == 2 and words in err
    assert (set(runs.iterdir()) if runs.exists() else set()) == before  # no run folder, no kernel


def test_parameter_given_twice_and_range_rules():
    with pytest.raises(InputError, match="-p seed is given twice"):
        argtypes.parse_overrides(["seed=1", "seed=2"])
    assert study_params.check_range(5, "0..100") and not study_params.check_range(101, "0..100")
    assert study_params.check_range([0, 3], ">=0") and not study_params.check_range([0, -3], ">=0")
    # types are checked elsewhere
    assert not study_params.check_range(0.0, ">0") and study_params.check_range("text", ">0")


def test_loaders_refuse_more_documents_than_there_are():
    from sumeval.datasets.realsumm import load_realsumm
    from sumeval.datasets.summeval import load_summeval

    with pytest.raises(InputError, match=r"n_docs must be an integer in 1\.\.100.*999999"):
        load_summeval(n_docs=999999)
    with pytest.raises(InputError, match=r"n_docs must be an integer in 1\.\.100.*101"):
        load_realsumm(n_docs=101)


# ------------------------------------------------------------------------------------------
# class 11: nothing silently clamped or ignored
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("content", ["", "  \n\t\n"])
def test_empty_txt_file_is_not_a_document(tmp_path, capsys, content):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("hello world")
    (folder / "b.txt").write_text(content)
    rc, err = _run(capsys, "index", "build", "--corpus", folder, "--size", "2")
    assert rc == 2 and "b.txt: empty file" in err


def test_empty_queries_are_null_and_reported_once_per_kind(corpus, tmp_path, capsys):
    recs = [{"summary": "bird dog", "references": ["bird", "of the"]}]
    recs += [{"summary": "the of and " + "is " * i, "references": ["bird"]} for i in range(11)]
    inp = _write(tmp_path / "p.jsonl", recs)
    rc, err = _run(capsys, "score", "sera-5", "--index", f"{corpus}:7:0", "-i", inp, "-o", tmp_path / "o.jsonl")
    rows = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    # line 1: the reference "of the" has no term: left out, so SERA-5 = |{bird1, bird2}| / 5 against "bird"
    assert rc == 0 and rows[0]["sera-5"] == pytest.approx(0.4)
    assert all(r["sera-5"] is None for r in rows[1:])  # not 0: nothing to compare
    warnings = [ln for ln in err.splitlines() if ln.startswith("warning:")]
    assert len(warnings) == 2 and "UserWarning" not in err
    assert "on 11 rows" in warnings[0] and "summary is empty" in warnings[0]
    assert "p.jsonl:1: sera-5: references with an empty raw query left out of the mean" in warnings[1]
    assert "scored 1 of 12 lines" in err
    meta = json.loads((tmp_path / "o.jsonl.meta.json").read_text())
    assert len(meta["not_scored"]) == 11 and meta["notes"][0]["line"] == 1


def test_blank_references_are_left_out_with_a_note(tmp_path, capsys):
    inp = _write(tmp_path / "p.jsonl", [{**GOOD, "references": ["the cat was on the mat", "", None]}])
    rc, err = _run(capsys, "score", "rouge-1", "-i", inp, "-o", tmp_path / "o.jsonl")
    assert rc == 0 and json.loads((tmp_path / "o.jsonl").read_text())["rouge-1-f"] == pytest.approx(5 / 6)
    assert "p.jsonl:1: rouge-1: empty references left out" in err
