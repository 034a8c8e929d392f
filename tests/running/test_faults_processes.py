"""Processes, runs and caches under faults: refused commands change nothing, unfinished work is
never shown as finished, processes die with their parent, damaged cache entries are recomputed,
ordinary mistakes get one-line messages.

Kill tests run the real command in a subprocess (its own session, Ctrl-C not ignored), stop it at
a controlled point - a file the command creates, or a hook script that patches one function to
signal and wait - then signal it and check (a) what it recorded (status, time, pid, host), (b)
that no process it started lives on, (c) that running it again gives the result of a run that was
never interrupted.
"""
from __future__ import annotations

import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval.cache import DamagedCacheWarning, Store, cache_key
from sumeval.errors import InputError

from helpers import FIXTURES, REPO_ROOT  # tests/ is on the path

PY = sys.executable


# ------------------------------------------------------------------------------------------
# helpers: environments, subprocesses, process trees
# ------------------------------------------------------------------------------------------
def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p),
               SUMEVAL_CACHE=str(tmp_path / "cache"), SUMEVAL_RUNS=str(tmp_path / "runs"),
               SUMEVAL_FIGURES=str(tmp_path / "figures"), MPLBACKEND="Agg", PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background shell may have ignored it


def _spawn(args: list[str], env: dict[str, str], tmp_path: Path, name: str = "proc") -> subprocess.Popen:
    """Start ``args`` in a session of its own (like a terminal job); output into files."""
    out, err = open(tmp_path / f"{name}.out", "w"), open(tmp_path / f"{name}.err", "w")
    return subprocess.Popen(args, env=env, stdout=out, stderr=err, start_new_session=True,
                            preexec_fn=_default_sigint, cwd=tmp_path)


def _stderr(tmp_path: Path, name: str = "proc") -> str:
    return (tmp_path / f"{name}.err").read_text()


def _wait_for(pred, timeout: float = 180.0, what: str = "a condition") -> None:
    t0 = time.monotonic()
    while not pred():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


def _stat_fields(pid: int) -> list[str] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rfind(")") + 2:].split()


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            f = _stat_fields(int(d))
            if f:
                children.setdefault(int(f[1]), []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def _alive(pid: int) -> bool:
    f = _stat_fields(pid)
    return f is not None and f[0] != "Z"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _kernel_running_under(pid: int) -> bool:
    return any("ipykernel" in _cmdline(c) for c in _descendants(pid))


def _assert_all_gone(pids: list[int], timeout: float = 20.0) -> None:
    t0 = time.monotonic()
    while any(_alive(p) for p in pids) and time.monotonic() - t0 < timeout:
        time.sleep(0.2)
    left = [(p, _cmdline(p)[:80]) for p in pids if _alive(p)]
    assert not left, f"processes outlived their parent: {left}"


def _interrupt_when(proc: subprocess.Popen, tmp_path: Path, ready, what: str, sig: str = "SIGINT"):
    """Once ``ready()``, signal the job's whole process group (as Ctrl-C at a terminal does); assert
    it exits with 130; return its non-empty stderr lines and the processes it had started."""
    _wait_for(ready, what=what)
    time.sleep(1.5)
    tree = _descendants(proc.pid)
    os.killpg(proc.pid, getattr(signal, sig))
    assert proc.wait(90) == 130
    return [ln for ln in _stderr(tmp_path).splitlines() if ln.strip()], tree


def _hook_script(tmp_path: Path, patch: str) -> Path:
    """A script that applies ``patch`` (Python code) and then runs ``sumeval`` with its argv."""
    p = tmp_path / "hooked_sumeval.py"
    p.write_text("import os, sys, time\nfrom pathlib import Path\n" + patch +
                 "\nfrom sumeval.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    return p


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset % len(data)] ^= 0x55
    path.write_bytes(bytes(data))


def _truncate(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


@pytest.fixture(autouse=True)
def _fresh_warning_memory(monkeypatch):
    """Each test sees the first damaged entry of a store folder as the first one."""
    import sumeval.cache as cache

    monkeypatch.setattr(cache, "_WARNED", set())


# ------------------------------------------------------------------------------------------
# the store: every entry verifies itself
# ------------------------------------------------------------------------------------------
KINDS = {
    "npz": (lambda s, k: s.put_arrays(k, {"emb": np.arange(4000, dtype=np.float32).reshape(100, 40),
                                          "ids": np.array([3, 1, 2])}),
            lambda s, k: s.get_arrays(k),
            lambda got: got["emb"].shape == (100, 40) and float(got["emb"][99, 39]) == 3999.0),
    "json": (lambda s, k: s.put_json(k, {"lists": {"ab": ["d1", "d2"]}, "score": 0.53125}),
             lambda s, k: s.get_json(k),
             lambda got: got == {"lists": {"ab": ["d1", "d2"]}, "score": 0.53125}),
    "parquet": (lambda s, k: s.put_frame(k, pd.DataFrame({"x": np.arange(50) * 0.5, "s": ["a"] * 50})),
                lambda s, k: s.get_frame(k),
                lambda got: got["x"].sum() == 612.5 and list(got.columns) == ["x", "s"]),
}
DAMAGES = {
    "truncated": lambda p: _truncate(p, 0.6),
    "payload byte flipped": lambda p: _flip(p, -30),
    "header byte flipped": lambda p: _flip(p, 30),
    "emptied": lambda p: p.write_bytes(b""),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
@pytest.mark.parametrize("kind", list(KINDS))
def test_damaged_store_entry_is_dropped_with_one_warning_and_recomputed(tmp_path, kind, damage):
    put, get, ok = KINDS[kind]
    store = Store("unit", root=tmp_path)
    k = cache_key(case=kind)
    p = put(store, k)
    assert p.read_bytes().startswith(b"sumeval-store-v1 sha256=")
    DAMAGES[damage](p)
    with pytest.warns(DamagedCacheWarning, match=str(p.name)) as rec:
        assert get(store, k) is None  # read as absent: the caller computes it again
    assert len(rec) == 1 and not p.exists() and store.damaged == 1
    put(store, k)  # the recomputation
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ok(get(store, k))


def test_many_damaged_entries_warn_once_per_store(tmp_path):
    store = Store("unit", root=tmp_path)
    keys = [cache_key(i=i) for i in range(5)]
    for k in keys:
        _truncate(store.put_json(k, {"i": k}), 0.5)
    with pytest.warns(DamagedCacheWarning) as rec:
        assert all(store.get_json(k) is None for k in keys)
    assert len(rec) == 1 and "further damaged entries" in str(rec[0].message)
    assert store.damaged == 5 and not any(store.path(k, "json").exists() for k in keys)


def test_entries_of_older_versions_are_read_and_checked_by_their_format(tmp_path):
    store = Store("unit", root=tmp_path)
    k1, k2 = cache_key(v="old-json"), cache_key(v="old-npz")
    store.path(k1, "json").parent.mkdir(parents=True, exist_ok=True)
    store.path(k1, "json").write_text('{"a": [1, 2]}')  # written without the header
    assert store.get_json(k1) == {"a": [1, 2]}
    store.path(k2, "npz").parent.mkdir(parents=True, exist_ok=True)
    with open(store.path(k2, "npz"), "wb") as fh:
        np.savez(fh, x=np.arange(1000))
    assert store.get_arrays(k2)["x"].sum() == 499500
    _flip(store.path(k2, "npz"), 600)  # inside the array data: the zip CRC catches it
    with pytest.warns(DamagedCacheWarning, match="BadZipFile|CRC"):
        assert store.get_arrays(k2) is None


# ------------------------------------------------------------------------------------------
# retrieval: the tokenised corpus, index files, retrieval lists, interrupted builds
# ------------------------------------------------------------------------------------------
QUERIES = ["cat fish", "dog bone", "bird seed", "zzz"]


def _fresh_index(corpus, root, n=5, backend="sparse", **kw):
    from sumeval.retrieval import index as ix

    ix._LOADED.clear()  # no in-memory copy: read the files
    return ix.build_index(corpus, n, 0, backend, root=root, **kw)


def test_damaged_tokenised_corpus_is_recomputed_with_identical_results(corpus, tmp_path):
    ref = _fresh_index(corpus, tmp_path / "ref").search(QUERIES, 3)
    root = tmp_path / "c"
    _fresh_index(corpus, root)
    [entry] = list((root / "retrieval_terms").rglob("*.npz"))
    _flip(entry, -200)
    with pytest.warns(DamagedCacheWarning, match="retrieval_terms") as rec:
        got = _fresh_index(corpus, root, rebuild=True)  # --rebuild must not trip over it
    assert len(rec) == 1 and got.search(QUERIES, 3) == ref
    assert Store("retrieval_terms", root=root).get_arrays(entry.stem) is not None  # rewritten whole


INDEX_DAMAGES = {
    "docs.npz truncated": ("sparse", lambda f: _truncate(f / "docs.npz", 0.5), "docs.npz"),
    "docs.npz byte flipped": ("sparse", lambda f: _flip(f / "docs.npz", -30), "docs.npz"),
    "meta.json byte flipped": ("sparse", lambda f: _flip(f / "meta.json", 40), "meta.json"),
    "whoosh segment damaged": ("whoosh", lambda f: _flip(next((f / "whoosh").glob("*.seg")), -10), "whoosh/"),
}


@pytest.mark.parametrize("case", list(INDEX_DAMAGES))
def test_damaged_index_is_listed_as_damaged_and_rebuilt_identically(corpus, tmp_path, case):
    from sumeval.retrieval.index import list_indexes

    backend, damage, names = INDEX_DAMAGES[case]
    ix = _fresh_index(corpus, tmp_path, backend=backend)
    ref_ids, ref_hits = list(ix.ids), ix.search(QUERIES, 3)
    ix.close()
    damage(ix.folder)
    [row] = list_indexes(tmp_path)
    assert row["complete"] is False and row["state"].startswith("damaged") and names in row["state"]
    with pytest.warns(UserWarning, match="damaged index"):
        again = _fresh_index(corpus, tmp_path, backend=backend)
    assert again.ids == ref_ids and again.search(QUERIES, 3) == ref_hits
    again.close()
    [row] = list_indexes(tmp_path)
    assert row["complete"] is True and row["state"] == "complete"


def test_damaged_retrieval_lists_are_recomputed(corpus, tmp_path):
    from sumeval.retrieval.scorers import retrieve_lists

    ix = _fresh_index(corpus, tmp_path)
    ref = retrieve_lists(ix, QUERIES, "raw", 3, root=tmp_path)
    [entry] = list((tmp_path / "retrieval_lists").rglob("*.json"))
    _flip(entry, -15)
    with pytest.warns(DamagedCacheWarning, match="retrieval_lists"):
        assert retrieve_lists(ix, QUERIES, "raw", 3, root=tmp_path) == ref
    assert Store("retrieval_lists", root=tmp_path).get_json(entry.stem) is not None


def test_index_rebuild_command_survives_a_damaged_tokenised_corpus(corpus, tmp_path, capsys, monkeypatch):
    from sumeval import cli
    from sumeval.retrieval import index as ix

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    assert cli.main(["index", "build", "--corpus", str(corpus), "--size", "5"]) == 0
    [entry] = list((tmp_path / "cache" / "retrieval_terms").rglob("*.npz"))
    _truncate(entry, 0.7)
    ix._LOADED.clear()
    with pytest.warns(DamagedCacheWarning):
        assert cli.main(["index", "build", "--corpus", str(corpus), "--size", "5", "--rebuild"]) == 0
    assert "ready: 5 documents" in capsys.readouterr().out


def test_killed_index_build_leaves_nothing_that_breaks_list_and_rebuilds_identically(corpus, tmp_path):
    hook = _hook_script(tmp_path, """
import sumeval.retrieval.index as _ix
_real = _ix.atomic_write_json
def _stall(path, obj, **kw):
    if Path(path).name == "meta.json":
        Path(os.environ["HOOK_MARK"]).touch()
        time.sleep(600)
    return _real(path, obj, **kw)
_ix.atomic_write_json = _stall
""")
    mark = tmp_path / "reached"
    env = _env(tmp_path, HOOK_MARK=str(mark))
    proc = _spawn([PY, str(hook), "index", "build", "--corpus", str(corpus), "--size", "5"], env, tmp_path)
    _wait_for(mark.exists, what="the build to reach meta.json")
    base = tmp_path / "cache" / "retrieval_indexes"
    [partial] = [p for p in base.iterdir() if ".partial-" in p.name]
    building = json.loads((partial / "BUILDER.json").read_text())
    assert building["pid"] == proc.pid and building["host"] == platform.node()
    proc.kill()
    proc.wait()
    listing = subprocess.run([PY, "-m", "sumeval.cli", "index", "list"], env=env, capture_output=True, text=True)
    assert listing.returncode == 0 and "Traceback" not in listing.stderr, listing.stderr
    assert "interrupted build" in listing.stdout and not partial.exists()
    again = subprocess.run([PY, "-m", "sumeval.cli", "index", "build", "--corpus", str(corpus), "--size", "5"],
                           env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    ref = _fresh_index(corpus, tmp_path / "ref")
    got = _fresh_index(corpus, tmp_path / "cache")
    assert got.ids == ref.ids and got.search(QUERIES, 3) == ref.search(QUERIES, 3)
    assert "complete" in subprocess.run([PY, "-m", "sumeval.cli", "index", "list"], env=env,
                                        capture_output=True, text=True).stdout


def test_build_of_a_live_process_is_listed_as_building_and_kept(tmp_path):
    from sumeval.retrieval.index import list_indexes
    from sumeval.runstate import owner_record

    base = tmp_path / "retrieval_indexes"
    live = base / "abc.partial-x1"
    live.mkdir(parents=True)
    (live / "BUILDER.json").write_text(json.dumps({"name": "pets:5:0:sparse", **owner_record()}))
    old = base / "def.partial-x2"  # an older version's build folder, abandoned long ago
    old.mkdir()
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    rows = {r["key"]: r for r in list_indexes(tmp_path)}
    assert rows["abc"]["state"].startswith(f"building (pid {os.getpid()}") and live.exists()
    assert rows["abc"]["name"] == "pets:5:0:sparse" and rows["abc"]["complete"] is False
    assert "interrupted build" in rows["def"]["state"] and not old.exists()


# ------------------------------------------------------------------------------------------
# ordering: check first, write after; checkpoints; unfinished runs
# ------------------------------------------------------------------------------------------
TRAIN = ["ordering", "train", "--model", "lstm_ptrnet", "--dataset", "nips", "--max-train", "16",
         "--max-dev", "6", "--hidden", "16", "--batch-size", "8", "--no-glove", "--quiet", "--threads", "1"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    """A finished 2-epoch run (trained once for the module); tests copy it before changing it."""
    pytest.importorskip("torch")
    from sumeval import cli

    out = tmp_path_factory.mktemp("ordering") / "run"
    assert cli.main([*TRAIN, "--epochs", "2", "--out", str(out)]) == 0
    return out


def _copy_run(trained_run: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "run"
    shutil.copytree(trained_run, dest)
    return dest


def _cli(argv, capsys) -> tuple[int, str]:
    from sumeval import cli

    try:
        rc = cli.main(argv)
    except SystemExit as exc:  # argparse
        rc = exc.code
    return rc, capsys.readouterr().err


def test_train_with_other_settings_into_a_finished_run_changes_nothing(trained_run, tmp_path, capsys):
    run = _copy_run(trained_run, tmp_path)
    before = _snapshot(run)
    capsys.readouterr()
    for extra in (["--lr", "0.5"], ["--hidden", "32"], ["--max-train", "12"], ["--dropout", "0.3"]):
        rc, err = _cli([*TRAIN, "--epochs", "2", "--out", str(run), *extra], capsys)
        assert rc == 2 and "other settings" in err and "nothing was changed" in err, err
        assert _snapshot(run) == before
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run), "--max-test", "3", "--beam", "2", "--quiet"], capsys)
    assert rc == 0 and "Traceback" not in err


@pytest.mark.parametrize("bad", [["--lr", "-1"], ["--lr", "nan"], ["--lr", "0"], ["--dropout", "1.5"],
                                 ["--threads", "-1"], ["--epochs", "0"], ["--batch-size", "x"]])
def test_bad_training_options_are_refused_before_any_folder_exists(tmp_path, capsys, bad):
    out = tmp_path / "new-run"
    rc, err = _cli([*TRAIN, "--out", str(out), *bad], capsys)
    assert rc == 2 and f"argument {bad[0]}" in err and not out.exists()


def test_out_that_is_a_file_or_a_foreign_folder_is_refused_untouched(tmp_path, capsys):
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    rc, err = _cli([*TRAIN, "--epochs", "1", "--out", str(f)], capsys)
    assert rc == 2 and str(f) in err and "existing file" in err and f.read_text() == "mine"
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "draft.tex").write_text("x")
    rc, err = _cli([*TRAIN, "--epochs", "1", "--out", str(folder)], capsys)
    assert rc == 2 and "holds no ordering run" in err and [p.name for p in folder.iterdir()] == ["draft.tex"]


def test_model_sizes_are_checked_before_the_run_folder_is_made(tmp_path, capsys):
    out = tmp_path / "att"
    rc, err = _cli([*TRAIN, "--out", str(out), "--model", "attordernet", "--hidden", "10", "--heads", "8"], capsys)
    assert rc == 2 and "heads = 8 must divide hidden = 10" in err and not out.exists()


def test_a_device_that_is_not_here_is_a_message(tmp_path, capsys):
    import torch

    out = tmp_path / "dev"
    rc, err = _cli([*TRAIN, "--out", str(out), "--device", "tpu0"], capsys)
    assert rc == 2 and "'tpu0'" in err and not out.exists()
    if not torch.cuda.is_available():
        rc, err = _cli([*TRAIN, "--out", str(out), "--device", "cuda"], capsys)
        assert rc == 2 and "no usable CUDA GPU" in err and not out.exists()


CKPT_DAMAGES = {
    "best.pt truncated": ("best.pt", lambda p: _truncate(p, 0.5), "damaged or not a sumeval"),
    "best.pt emptied": ("best.pt", lambda p: p.write_bytes(b""), "damaged or not a sumeval"),
    "best.pt text file": ("best.pt", lambda p: p.write_text("not a checkpoint"), "damaged or not a sumeval"),
    "last.pt truncated": ("last.pt", lambda p: _truncate(p, 0.9), "damaged or not a sumeval"),
}


@pytest.mark.parametrize("case", list(CKPT_DAMAGES))
def test_damaged_checkpoint_is_a_message_naming_the_file(trained_run, tmp_path, capsys, case):
    name, damage, says = CKPT_DAMAGES[case]
    run = _copy_run(trained_run, tmp_path)
    damage(run / name)
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run), "--max-test", "3", "--quiet"], capsys)
    assert rc == 2 and str(run / name) in err and says in err and "Traceback" not in err, err
    if name == "last.pt":  # and resuming into it says what to do
        rc, err = _cli([*TRAIN, "--epochs", "3", "--out", str(run)], capsys)
        assert rc == 2 and str(run / "last.pt") in err and f"delete {run}" in err


def test_altered_checkpoint_content_fails_its_digest(trained_run, tmp_path, capsys):
    import torch

    from sumeval.ordering.train import load_checkpoint

    run = _copy_run(trained_run, tmp_path)
    ck = torch.load(run / "best.pt", weights_only=True)
    name = next(iter(ck["model"]))
    ck["model"][name] = ck["model"][name] + 1e-3  # a changed weight, the digest kept
    torch.save(ck, run / "best.pt")
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run), "--max-test", "3", "--quiet"], capsys)
    assert rc == 2 and "does not match the sha256" in err
    assert load_checkpoint(trained_run / "best.pt")["format"] == "sumeval-ordering-checkpoint/1"


class _Trap:
    """Unpickling this would create a file: a checkpoint handed over by someone else."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def test_foreign_checkpoint_is_never_unpickled(trained_run, tmp_path, capsys):
    import torch

    run = _copy_run(trained_run, tmp_path)
    trap = tmp_path / "unpickled"
    torch.save({"model": _Trap(str(trap))}, run / "best.pt")
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run), "--max-test", "3", "--quiet"], capsys)
    assert rc == 2 and "best.pt" in err and "not a sumeval ordering checkpoint" in err
    assert not trap.exists()


def test_checkpoint_of_another_model_is_a_message(trained_run, tmp_path, capsys):
    from sumeval import cli

    other = tmp_path / "other"
    assert cli.main([*TRAIN, "--epochs", "1", "--hidden", "8", "--out", str(other)]) == 0
    run = _copy_run(trained_run, tmp_path)
    shutil.copy(other / "best.pt", run / "best.pt")
    capsys.readouterr()
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run), "--max-test", "3", "--quiet"], capsys)
    assert rc == 2 and "does not fit the model of" in err and "config.json" in err and "Traceback" not in err


def test_damaged_run_files_and_bad_output_are_messages(trained_run, tmp_path, capsys):
    run = _copy_run(trained_run, tmp_path)
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run), "--output", str(tmp_path), "--quiet"], capsys)
    assert rc == 2 and "--output" in err and "is a folder" in err
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run / "best.pt"), "--quiet"], capsys)
    assert rc == 2 and "is a file" in err
    _truncate(run / "config.json", 0.5)
    rc, err = _cli(["ordering", "evaluate", "--run-dir", str(run), "--quiet"], capsys)
    assert rc == 2 and "config.json or vocab.json is damaged" in err


def test_training_status_tells_finished_running_and_killed(trained_run, tmp_path):
    from sumeval.ordering.train import training_status
    from sumeval.runstate import owner_record

    assert training_status(trained_run)["status"] == "finished"
    run = _copy_run(trained_run, tmp_path)
    cfg = json.loads((run / "config.json").read_text())
    cfg["train"]["max_epochs"] = 5  # asked for 5 epochs, 2 done
    (run / "config.json").write_text(json.dumps(cfg))
    (run / "status.json").write_text(json.dumps({"status": "running", "owner": owner_record()}))
    st = training_status(run)
    assert (st["finished"], st["status"], st["epochs_run"], st["max_epochs"]) == (False, "running", 2, 5)
    gone = subprocess.Popen([PY, "-c", "pass"])
    gone.wait()
    (run / "status.json").write_text(json.dumps({"status": "running", "owner": owner_record(gone.pid)}))
    st = training_status(run)
    assert st["status"] == "interrupted" and st["pid"] == gone.pid and "killed" in st["signal"]


def test_damaged_checkpoint_in_the_model_cache_is_retrained(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from sumeval.ordering.experiment import cap, train_cached
    from sumeval.ordering.sets import load_ordering_set
    from sumeval.ordering.train import TrainConfig

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    train = cap(load_ordering_set("nips", "train"), 12, 0)
    dev = cap(load_ordering_set("nips", "dev"), 4, 0)
    kw = dict(sizes={"hidden": 8}, train_config=TrainConfig(max_epochs=1), glove=False)
    first = train_cached("lstm_ptrnet", train, dev, **kw)
    ref = {k: v.clone() for k, v in first.model.state_dict().items()}
    _truncate(first.run_dir / "best.pt", 0.4)
    with pytest.warns(UserWarning, match="best.pt is damaged.*training it again"):
        again = train_cached("lstm_ptrnet", train, dev, **kw)
    assert again.run_dir == first.run_dir
    assert all(np.array_equal(ref[k].numpy(), v.numpy()) for k, v in again.model.state_dict().items())


_STOP_TRAINING = """
import sumeval.ordering.train as _tr
_real = _tr.save_checkpoint
def _stall(path, payload):
    _real(path, payload)
    if Path(path).name == "last.pt" and payload["state"]["epoch"] == int(os.environ["HOOK_EPOCH"]):
        Path(os.environ["HOOK_MARK"]).touch()
        time.sleep(600)
_tr.save_checkpoint = _stall
"""


def _weights(run: Path) -> tuple[dict, list]:
    from sumeval.ordering.train import load_checkpoint

    ck = load_checkpoint(run / "last.pt", needs=("model", "state"))
    hist = [{k: v for k, v in h.items() if k != "seconds"} for h in ck["state"]["history"]]
    return {k: v.numpy() for k, v in ck["model"].items()}, hist


@pytest.mark.slow
def test_killed_training_is_reported_unfinished_and_resumes_identically(tmp_path, capsys):
    from sumeval import cli

    ref = tmp_path / "ref"
    assert cli.main([*TRAIN, "--epochs", "4", "--patience", "9", "--out", str(ref)]) == 0
    run, mark = tmp_path / "run", tmp_path / "reached"
    env = _env(tmp_path, HOOK_MARK=str(mark), HOOK_EPOCH="2")
    hook = _hook_script(tmp_path, _STOP_TRAINING)
    argv = [*TRAIN, "--epochs", "4", "--patience", "9", "--out", str(run)]
    proc = _spawn([PY, str(hook), *argv], env, tmp_path)
    _wait_for(mark.exists, what="epoch 2 to be saved")
    proc.kill()
    proc.wait()
    status = json.loads((run / "status.json").read_text())
    assert status["status"] == "running" and status["owner"]["pid"] == proc.pid  # as kill -9 left it
    capsys.readouterr()
    assert cli.main(["ordering", "evaluate", "--run-dir", str(run), "--max-test", "3", "--beam", "2", "--quiet"]) == 0
    got = capsys.readouterr()
    training = json.loads(got.out)["training"]
    assert training["finished"] is False and training["status"] == "interrupted"
    assert training["epochs_run"] == 2 and training["max_epochs"] == 4 and training["pid"] == proc.pid
    assert "stopped after 2 of 4 epochs" in got.err and "unfinished" in got.err
    assert cli.main(argv) == 0  # the same command resumes
    (w_ref, h_ref), (w_got, h_got) = _weights(ref), _weights(run)
    assert h_got == h_ref and all(np.array_equal(w_ref[k], w_got[k]) for k in w_ref)
    assert json.loads((run / "status.json").read_text())["status"] == "finished"


@pytest.mark.slow
def test_ctrl_c_in_training_marks_the_run_and_prints_one_line(tmp_path):
    run, mark = tmp_path / "run", tmp_path / "reached"
    env = _env(tmp_path, HOOK_MARK=str(mark), HOOK_EPOCH="1")
    proc = _spawn([PY, str(_hook_script(tmp_path, _STOP_TRAINING)), *TRAIN, "--epochs", "3", "--out", str(run)],
                  env, tmp_path)
    _wait_for(mark.exists, what="epoch 1 to be saved")
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(60) == 130
    lines = [ln for ln in _stderr(tmp_path).splitlines() if ln.strip()]
    assert len(lines) == 1 and "stopped after 1 of 3 epochs (SIGINT)" in lines[0], lines
    status = json.loads((run / "status.json").read_text())
    assert status["status"] == "interrupted" and status["signal"] == "SIGINT" and status["interrupted"]
    assert status["owner"]["pid"] == proc.pid and status["owner"]["host"] == platform.node()


# ------------------------------------------------------------------------------------------
# studies, sweeps: interrupted runs, processes that die with their parent, options
# ------------------------------------------------------------------------------------------
def _waiting_notebook(folder: Path, wait_for: str = "", wait_x: int = 0) -> Path:
    """The fixture study with one more cell that waits for the file ``wait_for`` when ``x == wait_x``."""
    import nbformat

    folder.mkdir()
    nb = nbformat.read(FIXTURES / "studies" / "tiny.ipynb", as_version=4)
    nb.cells[1].source += (f"\nwait_for: str = {wait_for!r}  # a file to wait for"
                           f"\nwait_x: int = {wait_x}  # which x waits\n")
    nb.cells.insert(3, nbformat.v4.new_code_cell(
        "import os, time\nwhile wait_for and x == wait_x and not os.path.exists(wait_for):\n    time.sleep(0.1)"))
    nbformat.write(nb, folder / "waiting.ipynb")
    shutil.copy(FIXTURES / "studies" / "tiny.params.yaml", folder / "waiting.params.yaml")
    return folder


@pytest.fixture()
def waiting_study(tmp_path):
    return _waiting_notebook(tmp_path / "notebooks")


def _manifests(runs: Path, study: str = "waiting") -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((runs / study).glob("*/manifest.json"))]


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_interrupted_study_run_is_marked_and_says_one_line(tmp_path, waiting_study, sig):
    env = _env(tmp_path, SUMEVAL_NOTEBOOKS=str(waiting_study))
    proc = _spawn([PY, "-m", "sumeval.cli", "run", "waiting", "--params", "smoke", "-q",
                   "-p", f"wait_for={tmp_path / 'never'}", "-p", "wait_x=2"], env, tmp_path)
    lines, tree = _interrupt_when(
        proc, tmp_path, lambda: _kernel_running_under(proc.pid) and list((tmp_path / "runs").rglob("executed.ipynb")),
        "the kernel to run the notebook", sig)
    assert len(lines) == 1 and f"stopped by {sig}" in lines[0] and "marked interrupted" in lines[0], lines
    [m] = _manifests(tmp_path / "runs")
    assert m["status"] == "interrupted" and m["signal"] == sig and m["interrupted"] and m["finished"]
    assert m["owner"]["pid"] == proc.pid and m["owner"]["host"] == platform.node()
    _assert_all_gone(tree)


@pytest.mark.slow
def test_killed_study_run_reads_as_interrupted_and_its_kernel_ends(tmp_path, waiting_study):
    from sumeval.running.runner import read_manifest

    env = _env(tmp_path, SUMEVAL_NOTEBOOKS=str(waiting_study))
    proc = _spawn([PY, "-m", "sumeval.cli", "run", "waiting", "--params", "smoke", "-q",
                   "-p", f"wait_for={tmp_path / 'never'}", "-p", "wait_x=2"], env, tmp_path)
    _wait_for(lambda: _kernel_running_under(proc.pid), what="the kernel")
    tree = _descendants(proc.pid)
    proc.kill()
    proc.wait()
    _assert_all_gone(tree)
    [run_dir] = [p.parent for p in (tmp_path / "runs" / "waiting").glob("*/manifest.json")]
    assert json.loads((run_dir / "manifest.json").read_text())["status"] == "running"  # what kill -9 left
    m = read_manifest(run_dir)
    assert m["status"] == "interrupted" and "is gone" in m["error"] and m["owner"]["pid"] == proc.pid
    assert json.loads((run_dir / "manifest.json").read_text())["status"] == "interrupted"  # and recorded


def _sweep_argv(tmp_path: Path) -> list[str]:
    return ["sweep", "waiting", "--params", "smoke", "-g", "x=1,2", "-q",
            "-p", f"wait_for={tmp_path / 'proceed'}", "-p", "wait_x=2"]


@pytest.mark.slow
def test_killed_sweep_leaves_no_process_and_its_rerun_equals_an_uninterrupted_one(tmp_path, waiting_study):
    env = _env(tmp_path, SUMEVAL_NOTEBOOKS=str(waiting_study))
    proc = _spawn([PY, "-m", "sumeval.cli", *_sweep_argv(tmp_path)], env, tmp_path)
    runs = tmp_path / "runs" / "waiting"
    _wait_for(lambda: any(m.get("parameters", {}).get("x") == 2 for m in _manifests(tmp_path / "runs"))
              and _kernel_running_under(proc.pid), what="grid point x=2 to run")
    time.sleep(1.5)
    tree = _descendants(proc.pid)
    assert len(tree) >= 2  # the worker and its kernel
    proc.kill()
    proc.wait()
    _assert_all_gone(tree)
    by_x = {m["parameters"]["x"]: m for m in _manifests(tmp_path / "runs")}
    assert by_x[1]["status"] == "ok" and by_x[2]["status"] == "interrupted" and by_x[2]["signal"] == "SIGTERM"
    (tmp_path / "proceed").touch()
    again = subprocess.run([PY, "-m", "sumeval.cli", *_sweep_argv(tmp_path)], env=env, capture_output=True, text=True)
    assert again.returncode == 0 and "1 already finished" in again.stdout, again.stderr
    ref_env = _env(tmp_path, SUMEVAL_NOTEBOOKS=str(waiting_study), SUMEVAL_RUNS=str(tmp_path / "ref_runs"))
    ref = subprocess.run([PY, "-m", "sumeval.cli", *_sweep_argv(tmp_path)], env=ref_env, capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    [got_pq] = runs.glob("sweeps/*/results.parquet")
    [ref_pq] = (tmp_path / "ref_runs" / "waiting").glob("sweeps/*/results.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(got_pq), pd.read_parquet(ref_pq))


@pytest.mark.slow
def test_ctrl_c_in_a_sweep_stops_its_workers_and_marks_everything(tmp_path, waiting_study):
    env = _env(tmp_path, SUMEVAL_NOTEBOOKS=str(waiting_study))
    proc = _spawn([PY, "-m", "sumeval.cli", *_sweep_argv(tmp_path)], env, tmp_path)
    lines, tree = _interrupt_when(
        proc, tmp_path, lambda: any(m.get("parameters", {}).get("x") == 2 for m in _manifests(tmp_path / "runs"))
        and _kernel_running_under(proc.pid), "grid point x=2 to run")
    assert len(lines) == 1 and "stopped by SIGINT" in lines[0] and "1 of 2 runs finished" in lines[0], lines
    _assert_all_gone(tree)
    [sweep_json] = (tmp_path / "runs" / "waiting").glob("sweeps/*/sweep.json")
    sj = json.loads(sweep_json.read_text())
    assert sj["status"] == "interrupted" and sj["signal"] == "SIGINT"
    assert [r["status"] for r in sj["runs"]] == ["ok", "interrupted"]


@pytest.mark.slow
def test_ctrl_c_in_run_all_writes_the_report_and_marks_the_study(tmp_path):
    notebooks = _waiting_notebook(tmp_path / "notebooks", wait_for=str(tmp_path / "never"), wait_x=2)
    env = _env(tmp_path, SUMEVAL_NOTEBOOKS=str(notebooks))
    proc = _spawn([PY, "-m", "sumeval.cli", "run", "all", "--params", "smoke", "-q"], env, tmp_path)
    lines, tree = _interrupt_when(proc, tmp_path,
                                  lambda: _kernel_running_under(proc.pid) and _manifests(tmp_path / "runs"),
                                  "the study to run")
    assert len(lines) == 1 and "0 of 1 studies ok" in lines[0] and "report:" in lines[0], lines
    _assert_all_gone(tree)
    [m] = _manifests(tmp_path / "runs")
    assert m["status"] == "interrupted" and m["signal"] == "SIGINT"
    [summary] = (tmp_path / "runs").glob("report-*/summary.json")
    assert [o["status"] for o in json.loads(summary.read_text())["studies"]] == ["interrupted"]


def test_a_second_worker_for_the_same_run_waits_for_the_first(tmp_path):
    from sumeval.running import executors
    from sumeval.runstate import exclusive_lock

    runs = tmp_path / "runs"
    run_dir = runs / "tiny" / "g-x"
    run_dir.mkdir(parents=True)
    (run_dir / "results.json").write_text("{}")
    (run_dir / "manifest.json").write_text(json.dumps({"status": "ok"}))
    spec = executors.RunSpec("tiny", "smoke", {}, "g-x", env={"SUMEVAL_RUNS": str(runs)})
    env = _env(tmp_path, SUMEVAL_NOTEBOOKS=str(FIXTURES / "studies"))
    with exclusive_lock(runs / "tiny" / ".locks" / "g-x.lock", what="run g-x"):
        proc = subprocess.Popen([PY, "-m", "sumeval.running.executors", "--worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        proc.stdin.write(spec.to_json())
        proc.stdin.close()
        time.sleep(3)
        assert proc.poll() is None  # waiting for the lock, not colliding with the holder
    proc.wait(60)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    assert f"in use by pid {os.getpid()}" in err and "waiting" in err
    assert '"skipped": true' in out and '"status": "ok"' in out


@pytest.mark.parametrize("argv, says", [
    (["run", "tiny", "--jobs", "0"], "argument --jobs/-j: 0 must be at least 1"),
    (["run", "all", "--jobs", "-3"], "argument --jobs/-j: -3 must be at least 1"),
    (["run", "tiny", "--jobs", "2"], "apply to `sumeval run all`"),
    (["sweep", "tiny", "-g", "x=1,2", "--timeout", "-5"], "argument --timeout: -5 must be at least 1"),
    (["sweep", "tiny", "-g", "x=1,2", "--timeout", "0"], "argument --timeout: 0 must be at least 1"),
    (["sweep", "tiny", "-g", "x=1,2", "--jobs", "0"], "argument --jobs/-j: 0 must be at least 1"),
    (["sweep", "tiny", "-g", "x=1", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "exclude each other"),
])
def test_run_and_sweep_options_are_checked_not_clamped(fixture_studies, tmp_path, capsys, monkeypatch, argv, says):
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    rc, err = _cli(argv, capsys)
    assert rc == 2 and says in err and "Traceback" not in err, err
    assert not (tmp_path / "runs").exists()  # nothing ran, nothing was written


def test_run_ids_of_the_same_second_do_not_collide(tmp_path, monkeypatch):
    from sumeval.running import runner

    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path))
    a = runner._claim_run_dir("s", "20250101-000000-smoke-abc", chosen=False)
    b = runner._claim_run_dir("s", "20250101-000000-smoke-abc", chosen=False)
    assert a[0] == "20250101-000000-smoke-abc" and b[0] == "20250101-000000-smoke-abc-2" and b[1].is_dir()
    with pytest.raises(InputError, match="exists already"):
        runner._claim_run_dir("s", "20250101-000000-smoke-abc", chosen=True)


def test_manifest_of_a_dead_owner_reads_interrupted_of_a_live_one_running(tmp_path):
    from sumeval.running.runner import read_manifest
    from sumeval.runstate import owner_record

    gone = subprocess.Popen([PY, "-c", "pass"])
    gone.wait()
    for name, owner in (("dead", owner_record(gone.pid) | {"proc_start": 1}), ("live", owner_record())):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text(json.dumps({"status": "running", "owner": owner}))
    assert read_manifest(tmp_path / "live")["status"] == "running"
    dead = read_manifest(tmp_path / "dead")
    assert dead["status"] == "interrupted" and f"pid {gone.pid}" in dead["error"]
    assert json.loads((tmp_path / "dead" / "manifest.json").read_text())["status"] == "interrupted"
    assert read_manifest(tmp_path / "nothing") == {}


def test_a_new_run_marks_the_killed_runs_of_its_study(tmp_path, monkeypatch):
    from sumeval.running.runner import mark_dead_runs
    from sumeval.runstate import owner_record

    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path))
    gone = subprocess.Popen([PY, "-c", "pass"])
    gone.wait()
    for name, status, owner in (("a", "running", owner_record(gone.pid) | {"proc_start": 1}),
                                ("b", "running", owner_record()), ("c", "ok", None)):
        (tmp_path / "s" / name).mkdir(parents=True)
        (tmp_path / "s" / name / "manifest.json").write_text(json.dumps({"status": status, "owner": owner}))
    assert mark_dead_runs("s") == [tmp_path / "s" / "a"]
    statuses = [json.loads((tmp_path / "s" / n / "manifest.json").read_text())["status"] for n in "abc"]
    assert statuses == ["interrupted", "running", "ok"]


# ------------------------------------------------------------------------------------------
# the building blocks: owners, signals, locks
# ------------------------------------------------------------------------------------------
def test_owner_records_tell_live_dead_reused_and_remote_processes():
    from sumeval.runstate import owner_alive, owner_record

    me = owner_record()
    assert owner_alive(me) is True
    assert owner_alive({**me, "proc_start": (me["proc_start"] or 0) + 1}) is False  # pid reused
    assert owner_alive({**me, "host": "elsewhere"}) is None
    p = subprocess.Popen([PY, "-c", "pass"])
    p.wait()
    assert owner_alive(owner_record(p.pid) | {"proc_start": None}) is False


def test_sigterm_becomes_an_interruption_once_and_handlers_are_restored():
    from sumeval.runstate import Interrupted, signals_interrupt

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Interrupted) as info:
        with signals_interrupt():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
    assert info.value.signal_name == "SIGTERM" and isinstance(info.value, KeyboardInterrupt)
    with signals_interrupt():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        except Interrupted:
            os.kill(os.getpid(), signal.SIGTERM)  # a second one while cleaning up is ignored
            time.sleep(0.2)
    assert signal.getsignal(signal.SIGTERM) is before


def test_exclusive_lock_names_its_holder_or_waits_for_it(tmp_path):
    from sumeval.runstate import exclusive_lock

    lock = tmp_path / "x.lock"
    messages = []
    with exclusive_lock(lock, what="run X"):
        with pytest.raises(InputError, match=f"run X is in use by pid {os.getpid()} on host"):
            with exclusive_lock(lock, what="run X", wait=False):
                pass
    held = threading.Event()

    def hold():
        with exclusive_lock(lock, what="run X"):
            held.set()
            time.sleep(1.0)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(10)
    t0 = time.monotonic()
    with exclusive_lock(lock, what="run X", on_wait=messages.append):
        waited = time.monotonic() - t0
    t.join()
    assert waited > 0.5 and len(messages) == 1 and "waiting for it to finish" in messages[0]


# ------------------------------------------------------------------------------------------
# embeddings: damaged entries and killed extraction
# ------------------------------------------------------------------------------------------
TEXTS = [f"Document number {i} tells how the {i}th team won the cup after extra time ." for i in range(5)]


def _minilm():
    from helpers import model_installed

    if not model_installed("minilm"):
        pytest.skip("all-MiniLM-L6-v2 is not installed (make setup)")


@pytest.mark.slow
def test_damaged_embedding_entry_is_recomputed_identically(tmp_path):
    _minilm()
    from sumeval.lm import MaskedEmbedder

    def embedder(root):
        return MaskedEmbedder("minilm", device="cpu", cache=Store("masked_embeddings", root=root),
                              store_dtype="float32", chunk_passes=1)

    ref = embedder(tmp_path / "a").embed_many(TEXTS[:3])
    entries = sorted((tmp_path / "a" / "masked_embeddings").rglob("*.npz"))
    _truncate(entries[0], 0.5)
    _flip(entries[1], -100)
    e = embedder(tmp_path / "a")
    with pytest.warns(DamagedCacheWarning) as rec:
        got = e.embed_many(TEXTS[:3])
    assert len(rec) == 1 and e.stats["texts_computed"] == 2 and e.stats["texts_from_cache"] == 1
    assert all(np.array_equal(a.emb, b.emb) and np.array_equal(a.cls, b.cls) for a, b in zip(ref, got))


@pytest.mark.slow
def test_killed_extraction_resumes_with_identical_embeddings(tmp_path):
    _minilm()
    script = tmp_path / "extract.py"
    script.write_text(f"""
import os, sys, time
from pathlib import Path
from sumeval.cache import Store
from sumeval.lm import MaskedEmbedder
store = Store("masked_embeddings", root=sys.argv[1])
real, n = store.put_arrays, [0]
def put(key, arrays):
    out = real(key, arrays)
    n[0] += 1
    if n[0] == 2 and os.environ.get("HOOK_MARK"):
        Path(os.environ["HOOK_MARK"]).touch()
        time.sleep(600)
    return out
store.put_arrays = put
e = MaskedEmbedder("minilm", device="cpu", cache=store, store_dtype="float32", chunk_passes=1)
e.embed_many({TEXTS!r})
print(e.stats["texts_computed"], e.stats["texts_from_cache"])
""")
    mark = tmp_path / "reached"
    proc = _spawn([PY, str(script), str(tmp_path / "b")], _env(tmp_path, HOOK_MARK=str(mark)), tmp_path)
    _wait_for(mark.exists, what="two embeddings to be stored")
    proc.kill()
    proc.wait()
    assert len(list((tmp_path / "b").rglob("*.npz"))) == 2 and not list((tmp_path / "b").rglob("*.partial"))
    done = subprocess.run([PY, str(script), str(tmp_path / "b")], env=_env(tmp_path), capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.split() == ["3", "2"], done.stderr
    from sumeval.lm import MaskedEmbedder

    ref = MaskedEmbedder("minilm", device="cpu", cache=Store("masked_embeddings", root=tmp_path / "ref"),
                         store_dtype="float32", chunk_passes=1).embed_many(TEXTS)
    got = MaskedEmbedder("minilm", device="cpu", cache=Store("masked_embeddings", root=tmp_path / "b"),
                         store_dtype="float32", chunk_passes=1).embed_many(TEXTS)
    assert all(np.array_equal(a.emb, b.emb) and np.array_equal(a.cls, b.cls) for a, b in zip(ref, got))
