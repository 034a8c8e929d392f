"""Writing when the disk says no (issue 21).

* F3e: the cache is an optimisation. An entry that cannot be written (a full or read-only cache
  disk) is skipped with one warning naming the cache and the error; scoring goes on and its
  results are kept.
* S40 and the class: a write that fails names the file the caller asked for - the path the user
  gave to ``-o`` - never the temporary ``.partial`` file written first; nothing is left behind.
"""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import numpy as np
import pytest

from sumeval import cache
from sumeval.cache import CacheWriteWarning, Store, atomic_path, atomic_write_text
from sumeval.cli import main
from sumeval.errors import InputError

from helpers import TEST_DATA  # tests/ is on the path


def _no_space(self, data):  # stands in for Path.write_bytes on a full disk
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture()
def fresh_warning_state(monkeypatch):
    monkeypatch.setattr(cache, "_WRITE_WARNED", set())


def _refuse_replace(src, dst):
    """Stands in for ``os.replace`` where the file system refuses the rename (EPERM)."""
    raise PermissionError(errno.EPERM, "Operation not permitted", str(src), str(dst))


def test_a_full_cache_disk_warns_once_and_goes_on(tmp_path, monkeypatch, fresh_warning_state):
    store = Store("scores", root=tmp_path / "cache")
    monkeypatch.setattr(Path, "write_bytes", _no_space)
    with pytest.warns(CacheWriteWarning) as rec:
        assert store.put_arrays("ab" * 32, {"x": np.arange(3)}) is None
        assert store.put_json("cd" * 32, {"a": 1}) is None
    assert len(rec) == 1  # once per cache folder and process
    msg = str(rec[0].message)
    assert msg.startswith(f"cannot write to the cache {tmp_path / 'cache'} (No space left on device: "
                          f"{store.path('ab' * 32, 'npz')}); going on without caching")
    assert "SUMEVAL_CACHE" in msg
    assert store.write_failures == 2
    monkeypatch.undo()
    assert store.get_arrays("ab" * 32) is None  # nothing half-written was left to read
    assert not list((tmp_path / "cache").rglob("*.partial"))
    assert store.put_json("cd" * 32, {"a": 1}) is not None and store.get_json("cd" * 32) == {"a": 1}


def test_a_read_only_cache_is_skipped_too(tmp_path, monkeypatch, fresh_warning_state):
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "ro" / "x.partial"))

    monkeypatch.setattr(cache.tempfile, "mkstemp", refuse)
    with pytest.warns(CacheWriteWarning, match=r"cannot write to the cache .*ro \(Permission denied"):
        assert Store("masked_embeddings", root=tmp_path / "ro").put_json("ef" * 32, [1]) is None


def test_scoring_keeps_its_results_when_the_cache_cannot_be_written(tmp_path, monkeypatch, fresh_warning_state):
    from sumeval.datasets import judgments as jd
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    j = jd.load_judgments(TEST_DATA / "user_judgments.csv", human=["overall"],
                          doc_col="article_id", system_col="model", summary_col="output", text_col="source",
                          references_col="gold")
    specs = resolve_measures(["rouge-1", "bleu"], j)
    expected = score_judgments(j, specs, cache=False).frame
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "full"))
    monkeypatch.setattr(Path, "write_bytes", _no_space)
    with pytest.warns(CacheWriteWarning, match="No space left on device"):
        got = score_judgments(j, specs, cache=True)
    assert got.frame.equals(expected)
    assert not any(got.from_cache.values())


# --------------------------------------------------------------------------------------------
# Writing files: the error names the file asked for
# --------------------------------------------------------------------------------------------
def test_atomic_path_names_the_target_when_the_rename_is_refused(tmp_path, monkeypatch):
    target = tmp_path / "immut.jsonl"
    target.write_text("keep me\n")

    monkeypatch.setattr(cache.os, "replace", _refuse_replace)
    with pytest.raises(PermissionError) as ei:
        atomic_write_text(target, "new\n")
    assert ei.value.filename == str(target) and ei.value.errno == errno.EPERM
    assert ".partial" not in str(ei.value)
    assert isinstance(ei.value.__cause__, PermissionError)
    assert target.read_text() == "keep me\n" and os.listdir(tmp_path) == ["immut.jsonl"]


def test_atomic_path_names_the_target_on_a_full_disk_and_leaves_other_errors(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(OSError) as ei:
        with atomic_path(target) as tmp:
            tmp.write_text("a,b\n")
            raise OSError(errno.ENOSPC, "No space left on device")  # as a write() on a full disk
    assert (ei.value.errno, ei.value.strerror, ei.value.filename) == (errno.ENOSPC, "No space left on device",
                                                                       str(target))
    assert not target.exists() and not list(target.parent.iterdir())
    with pytest.raises(FileNotFoundError) as ei:  # an error about another file is left as it is
        with atomic_path(target):
            open(tmp_path / "no-such-input.txt")
    assert ei.value.filename == str(tmp_path / "no-such-input.txt")
    with pytest.raises(InputError):  # and so is sumeval's own error
        with atomic_path(target):
            raise InputError("bad value")


def _input(tmp_path: Path) -> Path:
    p = tmp_path / "in.jsonl"
    p.write_text(json.dumps({"summary": "the cat sat", "references": ["the cat sat on the mat"]}) + "\n")
    return p


def test_score_output_that_cannot_be_replaced_names_the_given_path(tmp_path, monkeypatch, capsys):
    inp = _input(tmp_path)
    out = tmp_path / "res" / "scored.jsonl"
    out.parent.mkdir()
    out.write_text("old\n")

    monkeypatch.setattr(cache.os, "replace", _refuse_replace)
    given = os.path.relpath(out)
    rc = main(["score", "rouge-1", "-i", str(inp), "-o", given])
    err = capsys.readouterr().err
    assert rc == 1
    assert err.startswith(f"sumeval: error: {given}: Operation not permitted; --output could not be written, "
                          "nothing was written there (the scores were computed but not saved): the file or its "
                          "folder may be immutable")
    assert ".partial" not in err
    assert out.read_text() == "old\n" and os.listdir(out.parent) == ["scored.jsonl"]


def test_score_output_on_a_full_disk_names_the_given_path(tmp_path, monkeypatch, capsys):
    inp = _input(tmp_path)
    from sumeval.cli import score as sc

    def full(path, records):
        with atomic_path(path) as tmp:
            tmp.write_text("{")
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sc, "write_jsonl", full)
    rc = main(["score", "rouge-1", "-i", str(inp), "-o", str(tmp_path / "o.jsonl")])
    err = capsys.readouterr().err
    assert rc == 1
    assert f"sumeval: error: {tmp_path / 'o.jsonl'}: No space left on device; --output could not be written" in err
    assert "free some space there or write elsewhere" in err
    assert sorted(os.listdir(tmp_path)) == ["in.jsonl"]


def test_an_immutable_output_is_refused_before_scoring(tmp_path, monkeypatch):
    from sumeval.cli import score as sc

    out = tmp_path / "immut.jsonl"
    out.write_text("x\n")
    real = os.access
    monkeypatch.setattr(sc.os, "access", lambda p, mode: False if str(p) == str(out) else real(p, mode))
    with pytest.raises(InputError, match=r"--output '.*immut\.jsonl' cannot be replaced by this user \(it may be "
                       r"immutable - lsattr shows an 'i'"):
        sc.check_output_path(str(out))


def test_cache_write_warning_in_sumeval_score_is_one_line(tmp_path, monkeypatch, capsys, fresh_warning_state):
    """``sumeval score`` with a measure that caches (as ESTIME's embeddings do) on a full cache disk:
    one warning line, and the output is written."""
    from sumeval import metrics

    inp = _input(tmp_path)
    real_score = metrics.score_records

    def scoring_that_caches(*args, **kwargs):
        for key in ("aa" * 32, "bb" * 32):
            Store("masked_embeddings", root=tmp_path / "cache").put_json(key, [1])
        return real_score(*args, **kwargs)

    monkeypatch.setattr(metrics, "score_records", scoring_that_caches)
    monkeypatch.setattr(Path, "write_bytes", _no_space)
    rc = main(["score", "rouge-1", "-i", str(inp), "-o", str(tmp_path / "o.jsonl")])
    err = capsys.readouterr().err
    assert rc == 0
    # "the cat sat" vs "the cat sat on the mat": P = 3/3, R = 3/6, F = 2PR / (P + R) = 2/3
    assert json.loads((tmp_path / "o.jsonl").read_text())["rouge-1-f"] == pytest.approx(2 / 3)
    assert err.count(f"warning: cannot write to the cache {tmp_path / 'cache'} (No space left on device") == 1


# --------------------------------------------------------------------------------------------
# The catalogue re-run (issue 21, Done-when): meta-eval's --out and data export, the same class
# --------------------------------------------------------------------------------------------
def _judgments(path: Path) -> Path:
    """4 documents x 3 systems, a human column and a precomputed measure (no scoring needed)."""
    import pandas as pd

    rows = [{"doc_id": f"d{d}", "system": f"S{s}", "overall": float((d * 7 + s * 3) % 5), "m": float(d + s * s)}
            for d in range(4) for s in range(3)]
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _meta_eval(data: Path, out: Path, *more: str) -> int:
    return main(["meta-eval", str(data), "--human", "overall", "--measures", "m", "--n-resamples", "20", "-q",
                 "--no-figures", "--out", str(out), *more])


def test_meta_eval_on_a_full_disk_names_out_and_the_file_not_the_hidden_folder(tmp_path, monkeypatch, capsys):
    import pandas as pd

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    data, out = _judgments(tmp_path / "j.csv"), tmp_path / "me"
    assert _meta_eval(data, out) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = pd.DataFrame.to_csv

    def full(self, path=None, *args, **kwargs):  # the disk fills up at pairwise.csv
        if str(path).endswith("pairwise.csv"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    for target, more in ((out, ("--overwrite", "--seed", "1")), (tmp_path / "new", ())):
        capsys.readouterr()
        assert _meta_eval(data, target, *more) == 1
        err = capsys.readouterr().err
        # before: "<out's parent>/.me.meta-eval-partial-<pid>/pairwise.csv: No space left on device"
        assert err.startswith(f"sumeval: error: --out '{target}': could not write the results (pairwise.csv): "
                              "no space left on device, ")
        assert "MB free on the disk of" in err
        assert err.rstrip().endswith("; nothing was changed there; free some space there or name --out on "
                                     "another disk")
        assert ".meta-eval-partial" not in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the earlier result, byte for byte
    assert not (tmp_path / "new").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no hidden folder left


def test_an_unwritable_out_names_the_folder_not_the_probe_file(tmp_path, monkeypatch):
    import tempfile

    from sumeval.meta_eval import check_out_dir

    out = tmp_path / "immut"
    out.mkdir()

    def refuse(*args, dir=None, **kwargs):  # what a `chattr +i` folder answers
        raise PermissionError(errno.EPERM, "Operation not permitted", str(Path(dir) / ".meta-eval-probe-x1y2"))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(InputError) as ei:
        check_out_dir(out)
    # before: "cannot write in '<out>/.meta-eval-probe-7l0juwoi' (operation not permitted)"
    assert str(ei.value) == (f"--out '{out}': cannot write in '{out}' (operation not permitted); "
                             "name a folder you can write")


def test_data_export_that_cannot_write_names_the_path_and_the_fix(tmp_path, monkeypatch, capsys):
    data = _judgments(tmp_path / "j.csv")
    out = tmp_path / "exp" / "j.jsonl"
    out.parent.mkdir()
    out.write_text("old\n")

    monkeypatch.setattr(cache.os, "replace", _refuse_replace)
    rc = main(["data", "export", str(data), "--human", "overall", "-o", str(out)])
    err = capsys.readouterr().err
    # before: "sumeval: error: <out>: Operation not permitted", nothing more
    assert rc == 1 and err.startswith(f"sumeval: error: {out}: Operation not permitted; -o could not be "
                                      "written, nothing was written there: the file or its folder may be "
                                      "immutable (lsattr; chattr -i) - choose another file")
    assert out.read_text() == "old\n" and os.listdir(out.parent) == ["j.jsonl"]
    monkeypatch.undo()
    assert main(["data", "export", str(data), "--human", "overall", "-o", str(out)]) == 0
    assert f"wrote 12 rows of j to {out}" in capsys.readouterr().err
    assert [json.loads(line)["m"] for line in out.read_text().splitlines()][:3] == [0.0, 1.0, 4.0]  # d0: 0 + s*s
