"""``sumeval score --scheduler`` when things go wrong, on real Dask processes (a ``dask scheduler``
and ``dask worker`` subprocesses on 127.0.0.1): the ``<output>.shards`` work folder is sumeval's
alone (a user's folder is refused, a user's file is never removed), the waits for a worker are
bounded (none at the start, all dead mid-run: a message naming the scheduler and ``dask worker``,
the finished shards kept), a bad or unreachable address fails at once with a message and no
traceback, and a TLS cluster is reached with the certificates dask's environment variables give."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import sumeval
from sumeval import sharded

from helpers import (  # tests/ is on the path
    free_port,
    run_cli,
    score_sharded_counting,
    score_sharded_interrupted_after,
    write_jsonl,
)

distributed = pytest.importorskip("distributed")

ROOT = Path(sumeval.__file__).resolve().parents[1]
DASK = Path(sys.executable).with_name("dask")
SUMEVAL = Path(sys.executable).with_name("sumeval")  # the command, as a user runs it
ROWS = 600  # shards of 256: 256 + 256 + 86 for rouge-1 (2 rows left out), three more for the measure below


def _env(**extra) -> dict[str, str]:
    """This environment, this checkout's sumeval first on the path (for workers and `sumeval`)."""
    path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    return {**os.environ, "PYTHONPATH": path, **extra}


class Dask:
    """A real ``dask scheduler`` subprocess on 127.0.0.1 (no worker), and workers started on demand."""

    def __init__(self, tmp: Path, tls: list[str] | None = None):
        self.tmp, self.tls = tmp, tls or []
        self.port = free_port()
        self.address = f"{'tls' if tls else 'tcp'}://127.0.0.1:{self.port}"
        self.workers: list[subprocess.Popen] = []
        proto = ["--protocol", "tls"] if tls else []
        self.scheduler = self._spawn("scheduler", [str(DASK), "scheduler", "--host", "127.0.0.1", "--port",
                                                   str(self.port), "--no-dashboard", *proto, *self.tls])
        deadline = time.monotonic() + 120
        while True:  # listening
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                assert self.scheduler.poll() is None, self._log("scheduler")
                assert time.monotonic() < deadline, self._log("scheduler")
                time.sleep(0.2)

    def _spawn(self, name: str, cmd: list[str]) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "ab")
        return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=_env(), cwd=self.tmp)

    def _log(self, name: str) -> str:
        return (self.tmp / f"{name}.log").read_text(errors="replace")[-3000:]

    def add_worker(self, nthreads: int = 1) -> subprocess.Popen:
        """A worker process (no nanny: once killed, it stays dead), connected."""
        n = len(self.workers) + 1
        self.workers.append(self._spawn(f"worker{n}", [str(DASK), "worker", self.address, "--nthreads", str(nthreads),
                                                       "--no-nanny", "--no-dashboard", *self.tls]))
        self.wait_for_workers(sum(w.poll() is None for w in self.workers))
        return self.workers[-1]

    def wait_for_workers(self, n: int) -> None:
        deadline = time.monotonic() + 120
        while self.n_workers() != n:
            assert time.monotonic() < deadline, f"{self.n_workers()} workers, not {n}: {self._log('scheduler')}"
            time.sleep(0.2)

    def n_workers(self) -> int:
        with distributed.Client(self.address, set_as_default=False, timeout=30) as client:
            return len(client.nthreads())

    def close(self) -> None:
        for p in [*self.workers, self.scheduler]:
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
            p.wait(30)


@pytest.fixture()
def dask_cluster(tmp_path):
    d = Dask(tmp_path)
    yield d
    d.close()


def _records(n: int = ROWS, *, change: int | None = None) -> list[dict]:
    recs = [{"id": i, "summary": f"the cat {i} sat on the mat number {i % 5}",
             "references": [f"a cat sat on mat {i}", "the dog ran home"]} for i in range(n)]
    recs[4]["summary"] = ""  # not scored
    recs[13]["references"] = []  # not scored by rouge-1
    if change is not None:
        recs[change]["summary"] = "a changed summary of the dog"
    return recs


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# ------------------------------------------------------------------------------------------
# the work folder is sumeval's
# ------------------------------------------------------------------------------------------
def test_the_shards_folder_is_sumevals_alone(dask_cluster, tmp_path, monkeypatch, capsys):
    dask_cluster.add_worker()
    address = dask_cluster.address
    inp = write_jsonl(tmp_path / "in.jsonl", _records())
    out = tmp_path / "scored.jsonl"
    root = tmp_path / "scored.jsonl.shards"

    # a user's folder of that name: refused, untouched, nothing written
    root.mkdir()
    (root / "my-notes.txt").write_text("mine")
    (root / "0123456789abcdef01234567").mkdir()  # even one that looks like a run's folder
    (root / "0123456789abcdef01234567" / "shard-000000.json").write_text("{}")
    before = _tree(root)
    capsys.readouterr()
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 2
    err = capsys.readouterr().err
    assert f"{str(root)!r} is a folder that sumeval did not create" in err, err
    assert "Move or rename it, or choose another --output; nothing was written" in err, err
    assert _tree(root) == before and (root / "my-notes.txt").read_text() == "mine"
    assert not out.exists() and not Path(f"{out}.meta.json").exists()
    shutil.rmtree(root)
    root.write_text("a file of mine")  # a file of that name: refused too
    capsys.readouterr()
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 2
    assert f"{str(root)!r} is not a folder" in capsys.readouterr().err
    assert root.read_text() == "a file of mine" and not out.exists()
    root.unlink()

    # sumeval's folder (an interrupted run) with a user's files put in it: sumeval removes only its own
    interrupted, first = score_sharded_interrupted_after(1)
    monkeypatch.setattr(sharded, "score_sharded", interrupted)
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 130
    assert (root / sharded.MARKER).is_file()
    (stale,) = [p for p in root.iterdir() if p.is_dir()]
    ours = sorted(p.name for p in stale.iterdir())
    assert ours == ["job.json", f"shard-{first[0]:06d}.json"]
    (root / "my-notes.txt").write_text("mine")
    (stale / "my-copy.json").write_text("mine too")
    write_jsonl(inp, _records(change=100))  # another input: the interrupted run's shards are stale
    assert run_cli("score", "rouge-1", "-i", inp, "-o", tmp_path / "local.jsonl") == 0
    counting, second = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    capsys.readouterr()
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 0
    err = capsys.readouterr().err
    assert sorted(second) == [0, 1, 2] and out.read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    # the user's two files stay (with the marker, so a later run still knows the folder); sumeval's are gone
    assert _tree(root) == sorted([sharded.MARKER, "my-notes.txt", stale.name, f"{stale.name}/my-copy.json"])
    assert f"kept {root}: it holds files sumeval did not write ({stale.name}/my-copy.json, my-notes.txt)" in err, err
    # once they are gone, a run leaves no folder behind
    (root / "my-notes.txt").unlink()
    shutil.rmtree(stale)
    assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256) == 0
    assert not root.exists()


# ------------------------------------------------------------------------------------------
# bounded waits for a worker
# ------------------------------------------------------------------------------------------
KILLER = '''
import glob
import os
import time

import numpy as np

from sumeval.metrics import Scorer


class Killer(Scorer):
    """Summary length in words; on the row "KILL", while the file MARK exists, ends its worker process
    once the driver has saved a shard (SAVED), so that the run has finished shards to keep."""

    name = "words"
    version = "1"

    def columns(self):
        return ["words"]

    def score_batch(self, batch):
        if any(s == "KILL" for s in batch.summaries) and os.path.exists(MARK):
            deadline = time.monotonic() + 120
            while not glob.glob(SAVED) and time.monotonic() < deadline:
                time.sleep(0.05)
            os._exit(1)
        return {"words": np.array([len(s.split()) for s in batch.summaries], dtype=float)}
'''


def test_no_worker_fails_after_the_timeout_and_keeps_the_finished_shards(dask_cluster, tmp_path, monkeypatch,
                                                                         capsys):
    address = dask_cluster.address
    mark = tmp_path / "kill-mark"
    out = tmp_path / "scored.jsonl"
    code = KILLER.replace("MARK", repr(str(mark))).replace("SAVED", repr(f"{out}.shards/*/shard-*.json"))
    (tmp_path / "killer_faults_mod.py").write_text(code, encoding="utf-8")
    recs = _records()
    recs[520]["summary"] = "KILL"  # words (599 rows): shards 4-6; row 520 is in shard 6, the last submitted
    inp = write_jsonl(tmp_path / "in.jsonl", recs)
    measure = ["--measure-class", "killer_faults_mod:Killer", "--module-path", tmp_path]
    run = ["score", "rouge-1", *measure, "-i", inp, "-o", out, "--scheduler", address, "--shard-size", 256]

    # no worker at the start: a line while waiting, then the error; nothing written
    capsys.readouterr()
    t0 = time.monotonic()
    assert run_cli(*run, "--worker-timeout", 2) == 2
    took = time.monotonic() - t0
    err = capsys.readouterr().err
    assert f"no worker is connected to the Dask scheduler at {address}; waiting up to 2 s" in err, err
    assert f"no worker connected to the Dask scheduler at {address} for 2 s (--worker-timeout)" in err, err
    assert f"start workers with `dask worker {address}`" in err and "Traceback" not in err, err
    assert took < 60, took
    assert not out.exists() and not Path(f"{out}.shards").exists()

    # the only worker dies mid-run (on shard 6): the same error, the finished shards kept
    assert run_cli("score", "rouge-1", *measure, "-i", inp, "-o", tmp_path / "local.jsonl") == 0
    mark.write_text("x")
    worker = dask_cluster.add_worker(nthreads=2)  # the other thread scores shards while shard 6 waits
    counting, first = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    capsys.readouterr()
    assert run_cli(*run, "--worker-timeout", 3) == 2
    err = capsys.readouterr().err
    assert worker.wait(30) == 1  # it is dead, and no nanny restarts it
    assert f"no worker is connected to the Dask scheduler at {address}; waiting up to 3 s" in err, err
    assert f"no worker connected to the Dask scheduler at {address} for 3 s" in err, err
    saved = sorted(int(p.stem.split("-")[1]) for p in Path(f"{out}.shards").glob("*/shard-*.json"))
    assert f"{len(saved)} finished shard(s) of 6 are saved in" in err, err
    assert saved == sorted(first) and 5 not in saved and len(saved) >= 1 and not out.exists()

    # a new worker, the same command: only the other shards are scored, the output is the local run's
    mark.unlink()
    dask_cluster.add_worker()
    counting, second = score_sharded_counting()
    monkeypatch.setattr(sharded, "score_sharded", counting)
    capsys.readouterr()
    assert run_cli(*run, "--worker-timeout", 3) == 0
    assert sorted(second) == sorted(set(range(6)) - set(first))
    assert out.read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert "no worker" not in capsys.readouterr().err


# ------------------------------------------------------------------------------------------
# bad and unreachable addresses
# ------------------------------------------------------------------------------------------
class _Server:
    """A TCP server on 127.0.0.1 that is not a Dask scheduler: it accepts and says ``greeting``
    (or nothing, like a web server waiting for a request)."""

    def __init__(self, greeting: bytes = b""):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns: list[socket.socket] = []
        self.greeting = greeting
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            if self.greeting:
                conn.sendall(self.greeting)

    def close(self):
        for c in [*self.conns, self.sock]:
            c.close()


def test_bad_or_unreachable_addresses_fail_at_once(tmp_path, capsys, monkeypatch):
    inp = write_jsonl(tmp_path / "in.jsonl", _records(20))
    out = tmp_path / "o.jsonl"
    monkeypatch.setattr(sharded, "CONNECT_TIMEOUT_S", 2)
    for var in ("CA_FILE", "CLIENT__CERT", "CLIENT__KEY"):
        monkeypatch.delenv(f"DASK_DISTRIBUTED__COMM__TLS__{var}", raising=False)
    silent, ssh = _Server(), _Server(b"SSH-2.0-OpenSSH_9.6\r\n")
    refused = f"tcp://127.0.0.1:{free_port()}"
    cases = [("", ["--scheduler '' is empty", "drop --scheduler"]),
             ("  ", ["--scheduler '  ' is empty"]),
             ("foo", ["--scheduler 'foo' is not a scheduler address", "tcp://HOST:PORT"]),
             ("tcp://10.0.0.5", ["'tcp://10.0.0.5' is not a scheduler address"]),
             ("tcp://127.0.0.1:99999", ["'tcp://127.0.0.1:99999' is not a scheduler address"]),
             ("http://127.0.0.1:8787", ["'http://127.0.0.1:8787' is a web address", "tcp://10.0.0.5:8786"]),
             ("inproc://127.0.0.1/1/1", ["inproc:// scheduler is reachable only inside the Python process"]),
             ("udp://127.0.0.1:8786", ["unknown address scheme 'udp'", "tls://"]),
             ("tls://127.0.0.1:8786", ["is a TLS scheduler", "DASK_DISTRIBUTED__COMM__TLS__CA_FILE",
                                       "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT"]),
             (refused, [f"cannot reach the Dask scheduler at '{refused}' (ConnectionRefusedError"]),
             ("tcp://no-such-host.invalid:8786", ["cannot reach the Dask scheduler at 'tcp://no-such-host.invalid"]),
             (silent.address, ["gave no Dask handshake within 2 s", "8787 is its dashboard"]),
             (ssh.address, ["answered, but not as a Dask scheduler"])]
    try:
        for address, words in cases:
            capsys.readouterr()
            t0 = time.monotonic()
            assert run_cli("score", "rouge-1", "-i", inp, "-o", out, "--scheduler", address) == 2, address
            took = time.monotonic() - t0
            err = capsys.readouterr().err
            assert all(w in err for w in words), (address, err)
            assert took < 20, (address, took)
            assert not out.exists() and not (tmp_path / "o.jsonl.shards").exists()
    finally:
        silent.close()
        ssh.close()
    for extra, words in ((["--worker-timeout", "5"], ["--worker-timeout 5 needs --scheduler ADDRESS"]),
                         (["--scheduler", refused, "--worker-timeout", "0"], ["--worker-timeout 0 must be a number"]),
                         (["--scheduler", refused, "--worker-timeout", "nan"], ["--worker-timeout nan must be"])):
        capsys.readouterr()
        assert run_cli("score", "rouge-1", "-i", inp, "-o", out, *extra) == 2
        err = capsys.readouterr().err
        assert all(w in err for w in words), err


def test_a_failed_connection_ends_at_once_without_a_traceback(tmp_path):
    """As a user runs it (its own process): no 60 s wait at exit, no ``Client.__del__`` traceback."""
    inp = write_jsonl(tmp_path / "in.jsonl", _records(20))
    for address in ("foo", "http://127.0.0.1:8786", f"tcp://127.0.0.1:{free_port()}"):
        t0 = time.monotonic()
        proc = subprocess.run([str(SUMEVAL), "score", "rouge-1", "-i", str(inp), "-o",
                               str(tmp_path / "o.jsonl"), "--scheduler", address], capture_output=True, text=True,
                              env=_env(), timeout=55)
        took = time.monotonic() - t0
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.count("\n") == 1 and address in proc.stderr, proc.stderr
        assert took < 40, (address, took)


# ------------------------------------------------------------------------------------------
# TLS
# ------------------------------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test's certificate")
def test_a_tls_cluster_is_reached_with_the_environment_variables_of_the_readme(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=dask-test"], check=True, capture_output=True)
    tls = ["--tls-ca-file", str(cert), "--tls-cert", str(cert), "--tls-key", str(key)]
    d = Dask(tmp_path, tls)
    try:
        assert d.address.startswith("tls://")
        inp = write_jsonl(tmp_path / "in.jsonl", _records(300))
        assert run_cli("score", "rouge-1", "-i", inp, "-o", tmp_path / "local.jsonl") == 0
        env = _env(DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(cert), DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(cert),
                   DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(key))
        d.workers.append(d._spawn("worker1", [str(DASK), "worker", d.address, "--nthreads", "1", "--no-nanny",
                                              "--no-dashboard", *tls]))
        cmd = [str(SUMEVAL), "score", "rouge-1", "-i", str(inp), "-o",
               str(tmp_path / "tls.jsonl"), "--scheduler", d.address, "--shard-size", "256"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr + d._log("worker1") + d._log("scheduler")
        assert (tmp_path / "tls.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
        # without the client's certificate, the message says what to set
        assert d.scheduler.poll() is None
        proc = subprocess.run(cmd, capture_output=True, text=True, env=_env(), timeout=120)
        assert proc.returncode == 2 and "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT" in proc.stderr, proc.stderr
    finally:
        d.close()
