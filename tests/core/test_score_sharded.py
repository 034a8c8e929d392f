"""``sumeval score --scheduler ADDR --shard-size N`` (sumeval.sharded) on a real Dask LocalCluster of
two worker processes: the output equals the local run's byte for byte, shards come back in input
order, a worker loads a model once, an interrupted run or a killed worker resumes from the finished
shards, shards of another input are never reused, and bad options are refused with their value."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import sumeval
from sumeval import sharded
from sumeval.errors import SumevalError

from helpers import (  # tests/ is on the path
    model_installed,
    run_cli,
    score_sharded_counting,
    score_sharded_interrupted_after,
    write_jsonl,
)

distributed = pytest.importorskip("distributed")

N_ROWS = 600  # 598 rows scored (2 left out); shard size 256: two shards of 256 and an uneven last one of 86


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes that import this checkout's sumeval (the repository root
    first on their PYTHONPATH), a killed worker's task never retried (so the test sees it fail)."""
    import dask

    root = str(Path(sumeval.__file__).resolve().parents[1])
    path = os.pathsep.join([root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=None, env={"PYTHONPATH": path}) as c:
            with distributed.Client(c.scheduler_address, set_as_default=False) as client:
                yield c.scheduler_address, client


def _records(n: int = N_ROWS, *, change: int | None = None) -> list[dict]:
    """``n`` rows; row 4 and row 13 are not scored by measures that need references, row 9 has a note."""
    recs = []
    for i in range(n):
        recs.append({"id": i, "summary": f"the cat {i} sat on the mat number {i % 5}",
                     "references": [f"a cat sat on mat {i}", "the dog ran home"],
                     "text": f"The cat {i} sat on the mat. It was number {i % 5}. The dog ran away."})
    recs[4]["summary"] = ""  # not scored: empty summary
    recs[9]["references"] = ["", "a cat sat"]  # scored, with a note: an empty reference left out
    recs[13]["references"] = []  # not scored: no references
    if change is not None:
        recs[change]["summary"] = "a changed summary of the dog"
    return recs


def _shard_files(out: Path) -> list[Path]:
    return sorted(out.with_name(out.name + ".shards").glob("*/shard-*.json"))


def _worker_shards(client) -> int:
    return sum(s["shards"] for s in client.run(sharded.worker_state).values())


@pytest.mark.parametrize("size", [256, 512])
def test_output_equals_the_local_run_byte_for_byte_in_input_order(cluster, tmp_path, size):
    address, client = cluster
    inp = write_jsonl(tmp_path / "in.jsonl", _records())
    assert run_cli("score", "rouge-1", "js-2", "-i", inp, "-o", tmp_path / "local.jsonl") == 0
    before = _worker_shards(client)
    assert run_cli("score", "rouge-1", "js-2", "-i", inp, "-o", tmp_path / "dask.jsonl",
                  "--scheduler", address, "--shard-size", size) == 0
    assert _worker_shards(client) - before == -(-(N_ROWS - 2) // size)  # 256 + 256 + 86, or 512 + 86
    for name in ("{}.jsonl", "{}.jsonl.meta.json"):
        assert (tmp_path / name.format("dask")).read_bytes() == (tmp_path / name.format("local")).read_bytes()
    rows = [json.loads(line) for line in (tmp_path / "dask.jsonl").read_text().splitlines()]
    assert [r["id"] for r in rows] == list(range(N_ROWS))
    assert rows[4]["rouge-1-f"] is None and rows[13]["js-2"] is None and rows[-1]["rouge-1-f"] > 0
    meta = json.loads((tmp_path / "dask.jsonl.meta.json").read_text())
    assert [(e["line"], e["measure"]) for e in meta["not_scored"]] == [(5, "rouge-1"), (14, "rouge-1"),
                                                                       (5, "js-2"), (14, "js-2")]
    assert not (tmp_path / "dask.jsonl.shards").exists()  # the work folder goes once the output is written


def test_interrupted_run_resumes_from_the_finished_shards(cluster, tmp_path, monkeypatch, capsys):
    address, client = cluster
    inp = write_jsonl(tmp_path / "in.jsonl", _records())
    out = tmp_path / "dask.jsonl"
    assert run_cli("score", "rouge-1", "js-2", "-i", inp, "-o", tmp_path / "local.jsonl") == 0
    interrupted, first = score_sharded_interrupted_after(1)
    monkeypatch.setattr(sharded, "score_sharded", interrupted)
    capsys.readouterr()
    assert run_cli("score", "rouge-1", "js-2", "-i", inp, "-o", out, "--scheduler", address,
                  "--shard-size", 256) == 130
    err = capsys.readouterr().err
    assert "1 finished shard(s) of 3 are saved in" in err and "run the same command again" in err, err
    assert not out.exists() and len(first) == 1
    saved = {int(p.stem.split("-")[1]): p.stat().st_mtime_ns for p in _shard_files(out)}
    assert sorted(saved) == sorted(first)
    counting, second = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    before = _worker_shards(client)
    assert run_cli("score", "rouge-1", "js-2", "-i", inp, "-o", out, "--scheduler", address,
                  "--shard-size", 256) == 0
    assert sorted(second) == sorted(set(range(3)) - set(first))  # only the 2 unfinished shards scored again
    # (the workers may count one more: a task of the interrupted run already running when it was cancelled)
    assert 2 <= _worker_shards(client) - before <= 3
    assert out.read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert Path(f"{out}.meta.json").read_bytes() == (tmp_path / "local.jsonl.meta.json").read_bytes()


def test_shards_of_another_input_are_not_reused(cluster, tmp_path, monkeypatch):
    address, _ = cluster
    inp = write_jsonl(tmp_path / "in.jsonl", _records())
    out = tmp_path / "dask.jsonl"
    interrupted, first = score_sharded_interrupted_after(2)
    monkeypatch.setattr(sharded, "score_sharded", interrupted)
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 130
    old = _shard_files(out)
    assert len(old) == 2
    write_jsonl(inp, _records(change=first[0] * 256 + 100))  # a summary of a finished shard changes
    assert run_cli("score", "rouge-1", "-i", inp, "-o", tmp_path / "local.jsonl") == 0
    counting, second = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 0
    assert sorted(second) == list(range(3))  # every shard scored again
    assert out.read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert not any(p.exists() for p in old)
    # another shard size is another key too: nothing of a 256-row run is reused by a 512-row run
    interrupted, _ = score_sharded_interrupted_after(1)
    monkeypatch.setattr(sharded, "score_sharded", interrupted)
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 130
    counting, third = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 512) == 0
    assert sorted(third) == list(range(2))
    assert out.read_bytes() == (tmp_path / "local.jsonl").read_bytes()


KILLER = '''
import os

import numpy as np

from sumeval.metrics import Scorer


class Killer(Scorer):
    """Summary length in words; kills its worker process on the row "KILL" while the file MARK exists."""

    name = "words"
    version = "1"

    def columns(self):
        return ["words"]

    def score_batch(self, batch):
        if any(s == "KILL" for s in batch.summaries) and os.path.exists(MARK):
            os._exit(1)
        return {"words": np.array([len(s.split()) for s in batch.summaries], dtype=float)}
'''


def test_a_killed_worker_fails_the_run_and_a_rerun_resumes(cluster, tmp_path, monkeypatch, capsys):
    address, client = cluster
    mark = tmp_path / "kill-mark"
    (tmp_path / "killer_mod.py").write_text(KILLER.replace("MARK", repr(str(mark))), encoding="utf-8")
    recs = _records()
    recs[400]["summary"] = "KILL"  # rouge-1: shards 1-3; words (599 rows): shards 4-6, row 400 in shard 5
    inp = write_jsonl(tmp_path / "in.jsonl", recs)
    out = tmp_path / "dask.jsonl"
    measure = ["--measure-class", "killer_mod:Killer", "--module-path", tmp_path]
    assert run_cli("score", "rouge-1", *measure, "-i", inp, "-o", tmp_path / "local.jsonl") == 0
    mark.write_text("x")
    counting, first = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    capsys.readouterr()
    assert run_cli("score", "rouge-1", *measure, "-i", inp, "-o", out, "--scheduler", address,
                  "--shard-size", 256) == 2
    err = capsys.readouterr().err
    # the shard with "KILL" (5) kills its worker; every shard that worker held fails with it (the one it
    # was running and any the scheduler had already queued there, of either measure), and the first of
    # them is the one reported: its number must go with its lines and its measure
    # (rouge-1 leaves out lines 5 and 14, words line 5)
    assert re.search(r"shard (1 of 6 \(\S+ lines 1-258, rouge-1|2 of 6 \(\S+ lines 259-514, rouge-1"
                     r"|3 of 6 \(\S+ lines 515-600, rouge-1|4 of 6 \(\S+ lines 1-257, words"
                     r"|5 of 6 \(\S+ lines 258-513, words|6 of 6 \(\S+ lines 514-600, words)\) failed", err), err
    assert "KilledWorker" in err, err
    assert "run the same command again" in err and not out.exists()
    assert 4 not in first and sorted(int(p.stem.split("-")[1]) for p in _shard_files(out)) == sorted(first)
    mark.unlink()
    client.wait_for_workers(2, timeout=120)  # the nanny starts a new worker process
    counting, second = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    assert run_cli("score", "rouge-1", *measure, "-i", inp, "-o", out, "--scheduler", address,
                  "--shard-size", 256) == 0
    assert sorted(second) == sorted(set(range(6)) - set(first)) and 4 in second
    assert out.read_bytes() == (tmp_path / "local.jsonl").read_bytes()


MODEL = "all-MiniLM-L6-v2"


def _count_bertscore_loads():
    """On a worker: count every bert-score model load from now on (BERTScorer.__init__)."""
    import bert_score

    cls = bert_score.BERTScorer
    if not hasattr(cls, "_test_loads"):
        init = cls.__init__

        def counted(self, *a, **kw):
            cls._test_loads += 1
            init(self, *a, **kw)

        cls.__init__ = counted
    cls._test_loads = 0


def _bertscore_loads():
    import bert_score

    return getattr(bert_score.BERTScorer, "_test_loads", None)


@pytest.mark.slow
@pytest.mark.skipif(not model_installed(MODEL), reason=f"packaged model {MODEL} not installed")
def test_a_worker_loads_the_model_once_and_keeps_it(cluster, tmp_path):
    import cloudpickle

    address, client = cluster
    cloudpickle.register_pickle_by_value(__import__(__name__))  # the two helpers above, sent as code
    client.wait_for_workers(2, timeout=120)
    try:
        client.run(_count_bertscore_loads)
        inp = write_jsonl(tmp_path / "in.jsonl", _records(300))  # 298 rows scored: shards of 256 and 42
        args = ["bertscore", "--model", MODEL, "-i", inp]
        assert run_cli("score", *args, "-o", tmp_path / "local.jsonl") == 0
        before = {w: s["shards"] for w, s in client.run(sharded.worker_state).items()}
        assert run_cli("score", *args, "-o", tmp_path / "a.jsonl", "--scheduler", address, "--shard-size", 256) == 0
        assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
        other = write_jsonl(tmp_path / "other.jsonl", _records(300, change=7))  # another file, the same measure
        assert run_cli("score", "bertscore", "--model", MODEL, "-i", other, "-o", tmp_path / "b.jsonl",
                      "--scheduler", address, "--shard-size", 256) == 0
        loads = client.run(_bertscore_loads)
    finally:
        cloudpickle.unregister_pickle_by_value(__import__(__name__))
    worked = {w: s["shards"] - before[w] for w, s in client.run(sharded.worker_state).items()}
    assert sum(worked.values()) == 4
    # two shards per run, two runs of two files: one model load per worker that scored, kept
    assert loads == {w: 1 if n else 0 for w, n in worked.items()}


def test_bad_options_are_refused_with_their_value(tmp_path, capsys, monkeypatch):
    inp = write_jsonl(tmp_path / "in.jsonl", _records()[:3])
    out = tmp_path / "o.jsonl"
    cases = [(["--scheduler", "tcp://127.0.0.1:9", "--shard-size", "0"], ["--shard-size 0", "multiple of 256"]),
             (["--scheduler", "tcp://127.0.0.1:9", "--shard-size", "300"], ["--shard-size 300", "multiple of 256",
                                                                             "e.g. --shard-size 512"]),
             (["--shard-size", "512"], ["--shard-size 512 needs --scheduler", "drop --shard-size"]),
             (["--scheduler", "tcp://127.0.0.1:1"], ["cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'",
                                                     "drop --scheduler"])]
    monkeypatch.setattr(sharded, "CONNECT_TIMEOUT_S", 1)
    for extra, words in cases:
        capsys.readouterr()
        assert run_cli("score", "rouge-1", "-i", inp, "-o", out, *extra) == 2
        err = capsys.readouterr().err
        assert all(w in err for w in words), err
        assert not out.exists() and not (tmp_path / "o.jsonl.shards").exists()


def test_check_shard_args():
    assert sharded.check_shard_args(None, None) is None
    assert sharded.check_shard_args("tcp://x:1", None) == sharded.DEFAULT_SHARD_SIZE
    assert sharded.check_shard_args("tcp://x:1", 768) == 768
    for bad in (-3, 0, 255, 257, True):
        with pytest.raises(SumevalError, match=rf"--shard-size {bad!r} must be a whole multiple of 256 rows"):
            sharded.check_shard_args("tcp://x:1", bad)
