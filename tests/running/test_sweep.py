"""Parameter grids: expansion, deterministic run ids, executors (local processes, Dask), gathering
into one frame, and resuming a sweep that was killed half-way."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from sumeval.cli import run as run_cli
from sumeval.errors import InputError
from sumeval.running import executors, sweep


@pytest.fixture
def own_runs(tmp_path, monkeypatch, fixture_studies):
    """The tiny fixture study, with runs and figures in this test's own folder."""
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    return tmp_path / "runs"


# ------------------------------------------------------------------------------------------
# grids and ids
# ------------------------------------------------------------------------------------------
def test_parse_grid_reads_values_as_yaml():
    grid = sweep.parse_grid(["x=1,2,3", "scale=0.5, 1.0", "label=a,'b,c'", "xs=[1, 2],[3]", "flag=true,false"])
    assert grid == {"x": [1, 2, 3], "scale": [0.5, 1.0], "label": ["a", "b,c"], "xs": [[1, 2], [3]],
                    "flag": [True, False]}


@pytest.mark.parametrize("bad, msg", [
    (["x"], "not of the form key=v1,v2"), (["=1,2"], "not of the form"), (["x="], "not of the form"),
    (["x=1,,2"], "empty value"), (["x=1", "x=2"], "given twice"), (["x=1,1"], "repeats a value"),
])
def test_parse_grid_errors_name_the_axis(bad, msg):
    with pytest.raises(InputError, match=msg):
        sweep.parse_grid(bad)


def test_expand_grid_is_the_ordered_product():
    # 2 x 3 = 6 points, the last key varying fastest
    pts = sweep.expand_grid({"a": [1, 2], "b": ["x", "y", "z"]})
    assert len(pts) == 6 and pts[0] == {"a": 1, "b": "x"} and pts[1] == {"a": 1, "b": "y"}
    assert pts[-1] == {"a": 2, "b": "z"}
    assert sweep.expand_grid({}) == [{}]


def test_run_ids_are_deterministic_and_distinct():
    a = sweep.point_run_id("tiny", "smoke", {"x": 1, "label": "a"}, {"x": 1})
    assert a == sweep.point_run_id("tiny", "smoke", {"label": "a", "x": 1}, {"x": 1})  # key order does not matter
    assert a.startswith("g-smoke-x=1-")
    assert a != sweep.point_run_id("tiny", "smoke", {"x": 2, "label": "a"}, {"x": 2})
    assert a != sweep.point_run_id("tiny", "default", {"x": 1, "label": "a"}, {"x": 1})
    assert a != sweep.point_run_id("other", "smoke", {"x": 1, "label": "a"}, {"x": 1})
    assert sweep.sweep_id("tiny", "smoke", {"x": [1, 2]}) == sweep.sweep_id("tiny", "smoke", {"x": [1, 2]})
    assert sweep.sweep_id("tiny", "smoke", {"x": [1, 2]}) != sweep.sweep_id("tiny", "smoke", {"x": [1, 3]})


def test_plan_validates_every_point_before_running(own_runs):
    with pytest.raises(InputError, match=r"grid point \{'x': 'two'\}.*must be int"):
        sweep.plan("tiny", "smoke", {"x": [1, "two"]})
    with pytest.raises(InputError, match="unknown parameter 'nope'"):
        sweep.plan("tiny", "smoke", {"nope": [1, 2]})
    with pytest.raises(InputError, match="both as -p and as a grid axis"):
        sweep.plan("tiny", "smoke", {"x": [1, 2]}, {"x": 3})
    with pytest.raises(InputError, match="set by the runner"):
        sweep.plan("tiny", "smoke", {"interactive": [True, False]})
    with pytest.raises(InputError, match="at least one grid axis"):
        sweep.plan("tiny", "smoke", {})
    points, specs = sweep.plan("tiny", "smoke", {"x": [1, 2]}, {"label": "z"})
    assert [s.overrides for s in specs] == [{"label": "z", "x": 1}, {"label": "z", "x": 2}]
    assert specs[0].env["SUMEVAL_RUNS"] == str(own_runs) and not own_runs.exists()  # nothing ran


def test_flatten_and_gather_mixed_types(own_runs):
    assert sweep.flatten_results({"a": 1, "b": {"c": 2.5, "d": [1, 2]}, "t": [{"r": 1}], "s": "x"}) == {
        "a": 1, "b.c": 2.5, "s": "x"}
    for rid, val in (("r1", 1.5), ("r2", "n/a")):
        d = own_runs / "tiny" / rid
        d.mkdir(parents=True)
        (d / "manifest.json").write_text(json.dumps({"status": "ok"}))
        (d / "results.json").write_text(json.dumps({"results": {"v": val, "x": 9}}))
    frame = sweep.gather("tiny", [{"x": 1}, {"x": 2}, {"x": 3}], ["r1", "r2", "r3"])
    assert list(frame["status"]) == ["ok", "ok", "missing"]
    assert list(frame["x"]) == [1, 2, 3] and list(frame["result.x"][:2]) == [9, 9]  # a result named like an axis
    assert list(frame["v"][:2]) == ["1.5", '"n/a"']  # mixed types stored as JSON text (parquet-safe)
    frame.to_parquet(own_runs / "f.parquet")


def test_ipc_kernel_manager_uses_private_ipc_sockets():
    km = executors.ipc_kernel_manager_class()(kernel_name="sumeval")
    other = executors.ipc_kernel_manager_class()(kernel_name="sumeval")
    assert km.transport == "ipc" and Path(km.ip).parent.name.startswith("sumeval-k-")
    assert Path(km.ip).parent != Path(other.ip).parent


def test_progress_lines_and_quiet(capsys):
    p = executors.Progress(4, "grid", done=1)
    p.finished("0", "x=1", "ok", 1.0)
    p.close()
    q = executors.Progress(4, "grid", quiet=True, done=1)
    q.finished("0", "x=1", "ok", 1.0)
    q.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == "[grid] 1 of 4 already finished (skipped)"
    assert err[1].startswith("[grid] 2/4 x=1: ok in 1.0s (elapsed 0:0") and "left)" in err[1]
    assert len(err) == 2  # quiet printed nothing


# ------------------------------------------------------------------------------------------
# real sweeps of the tiny study
# ------------------------------------------------------------------------------------------
GRID8 = {"x": [1, 2], "scale": [0.5, 2.0], "label": ["a", "b"]}  # 2 x 2 x 2 = 8 runs


def test_local_processes_and_dask_give_identical_results(own_runs, tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "local"))
    local = sweep.run_sweep("tiny", "smoke", GRID8, jobs=2, quiet=True)
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "dask"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        on_dask = sweep.run_sweep("tiny", "smoke", GRID8, scheduler=cluster.scheduler_address, quiet=True)
    for res in (local, on_dask):
        assert res.ok and res.n_runs == 8 and res.n_skipped == 0
        assert res.results_path.is_file()
        meta = json.loads((res.sweep_dir / "sweep.json").read_text())
        assert len({r["pid"] for r in meta["runs"]}) == 8  # every run in a process of its own
    assert "Dask" in json.loads((on_dask.sweep_dir / "sweep.json").read_text())["executor"]
    a = pd.read_parquet(local.results_path)
    b = pd.read_parquet(on_dask.results_path)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns[:3]) == ["x", "scale", "label"] and len(a) == 8
    # x_times_scale = x * scale, computed by hand for the 8 points
    assert list(a["x_times_scale"]) == [x * s for x in (1, 2) for s in (0.5, 2.0) for _ in "ab"]


def _finished(runs: Path) -> dict[str, int]:
    """run id -> mtime (ns) of manifest.json, for every finished run of tiny."""
    return {d.name: (d / "manifest.json").stat().st_mtime_ns for d in (runs / "tiny").glob("g-*")
            if executors.is_finished(d)}


def test_killed_sweep_resumes_without_redoing_finished_runs(own_runs, tmp_path, monkeypatch):
    runtime = tmp_path / "jupyter_runtime"
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    code = ("from sumeval.running import sweep; "
            "sweep.run_sweep('tiny', 'smoke', {'x': [1, 2, 3, 4, 5]}, jobs=1, quiet=True)")
    proc = subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 240
        while len(_finished(own_runs)) < 2:
            assert proc.poll() is None, f"the sweep ended early: {proc.stderr.read().decode()[-2000:]}"
            assert time.time() < deadline, "two runs did not finish in 240 s"
            time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the driver and its run process, mid-way
        proc.wait()
        _kill_kernels_under(runtime)
    before = _finished(own_runs)
    assert 2 <= len(before) < 5
    res = sweep.run_sweep("tiny", "smoke", {"x": [1, 2, 3, 4, 5]}, jobs=2, quiet=True)
    assert res.ok and res.n_runs == 5 and res.n_skipped == len(before)
    after = _finished(own_runs)
    assert len(after) == 5
    assert {k: after[k] for k in before} == before  # finished runs were not executed again
    meta = json.loads((res.sweep_dir / "sweep.json").read_text())
    assert sum(r["skipped"] for r in meta["runs"]) == len(before)
    assert list(pd.read_parquet(res.results_path)["x_times_scale"]) == [x * 0.5 for x in range(1, 6)]


def _kill_kernels_under(runtime: Path) -> None:
    """Kill kernels left by a killed sweep (they run in sessions of their own): those whose
    connection file lies in ``runtime``, i.e. kernels this test started."""
    for proc_dir in Path("/proc").glob("[0-9]*"):
        try:
            cmd = (proc_dir / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if str(runtime) in cmd:
            try:
                os.kill(int(proc_dir.name), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_cli_sweep_exit_status_failures_and_rerun(own_runs, capsys):
    import argparse

    ap = argparse.ArgumentParser(prog="sumeval")
    run_cli.add_commands(ap.add_subparsers(dest="command"))

    def main(argv):
        args = ap.parse_args(argv)
        return args.func(args)

    assert main(["sweep", "tiny", "--params", "smoke", "-g", "fail=false,true", "-q"]) == 1
    captured = capsys.readouterr()
    assert "2 runs (0 already finished, 2 run, 1 failed)" in captured.out
    assert "asked to fail with x=2" in captured.err
    frame = pd.read_parquet(next((own_runs / "tiny" / "sweeps").glob("*/results.parquet")))
    assert list(frame["status"]) == ["ok", "failed"] and "ValueError" in frame["error"][1]
    # a re-run skips the finished run and tries the failed one again
    assert main(["sweep", "tiny", "--params", "smoke", "-g", "fail=false,true", "-q"]) == 1
    assert "2 runs (1 already finished, 1 run, 1 failed)" in capsys.readouterr().out
    with pytest.raises(InputError, match="not of the form"):
        main(["sweep", "tiny", "-g", "x", "-q"])


def test_progress_bars_on_a_terminal_follow_cells(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(executors, "_terminal", lambda: True)
    run_dir = tmp_path / "r1"
    run_dir.mkdir()
    cells = [{"cell_type": "code", "metadata": {"papermill": {"status": s}}}
             for s in ("completed", "running", "pending")]
    (run_dir / "executed.ipynb").write_text(json.dumps({"cells": cells}))
    p = executors.Progress(2, "run all", per_run=True, unit="study")
    p.started("0", "alpha", run_dir)
    p.poll()
    bar = p._run_bars["0"][0]
    assert (bar.n, bar.total) == (1, 3)  # 1 of 3 code cells done
    p.finished("0", "alpha", "failed", 2.0)
    assert p.bar.n == 1 and not p._run_bars
    p.close()
    assert "alpha: failed in 2.0s" in capsys.readouterr().err
