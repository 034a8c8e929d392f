"""``--jobs auto`` and the cores split between runs side by side (issue 19, part 2)."""
from __future__ import annotations

import argparse

import pytest

from sumeval.cli.run import add_executor_arguments, executor_choice, jobs_arg
from sumeval.errors import InputError
from sumeval.running import executors
from sumeval.running.executors import RunSpec, auto_jobs, thread_env


@pytest.mark.parametrize("cores, memory_gb, expected", [
    (2, 24.0, 2),     # this machine: the cores decide
    (16, 24.0, 6),    # many cores, little memory: floor(24 / 4)
    (8, 3.0, 1),      # not one run's worth of memory: still one
    (4, None, 4),     # memory unknown: the cores decide
    (1, 128.0, 1),
])
def test_auto_jobs_from_cores_and_memory(monkeypatch, cores, memory_gb, expected):
    monkeypatch.setattr(executors, "available_memory_gb", lambda: memory_gb)
    assert auto_jobs(cores=cores, per_run_gb=4.0) == expected


def test_available_memory_is_read_on_this_machine():
    got = executors.available_memory_gb()
    assert got is None or got > 0
    assert auto_jobs() >= 1


def test_thread_env_splits_the_cores_and_leaves_the_users_choice():
    assert thread_env(1, cores=2, environ={}) == {}  # one run takes every core
    assert thread_env(2, cores=2, environ={}) == {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                                                  "OPENBLAS_NUM_THREADS": "1"}
    assert thread_env(3, cores=16, environ={})["OMP_NUM_THREADS"] == "5"  # floor(16 / 3)
    assert thread_env(4, cores=2, environ={})["OMP_NUM_THREADS"] == "1"  # never 0
    assert "OMP_NUM_THREADS" not in thread_env(2, cores=2, environ={"OMP_NUM_THREADS": "2"})


def test_jobs_argument():
    assert jobs_arg("auto") == "auto" and jobs_arg(" AUTO ") == "auto" and jobs_arg("3") == 3
    with pytest.raises(argparse.ArgumentTypeError):
        jobs_arg("0")
    with pytest.raises(argparse.ArgumentTypeError):
        jobs_arg("many")
    parser = argparse.ArgumentParser()
    add_executor_arguments(parser)
    with pytest.raises(SystemExit):
        parser.parse_args(["--jobs", "lots"])


def test_executor_choice_resolves_auto(monkeypatch):
    monkeypatch.setattr(executors, "auto_jobs", lambda: 5)
    assert executor_choice(argparse.Namespace(jobs="auto", scheduler=None)) == (5, None)
    assert executor_choice(argparse.Namespace(jobs=None, scheduler=None)) == (1, None)
    with pytest.raises(InputError, match="exclude each other"):
        executor_choice(argparse.Namespace(jobs="auto", scheduler="tcp://x:1"))


def test_local_executor_hands_each_run_its_share_of_the_cores(monkeypatch):
    seen = []
    monkeypatch.setattr(executors, "execute_spec", lambda spec: seen.append(spec) or {"status": "ok"})
    monkeypatch.setattr(executors, "usable_cores", lambda: 2)
    for k in executors.THREAD_ENV:
        monkeypatch.delenv(k, raising=False)
    spec = RunSpec("s", "smoke", {}, "r1", env={"SUMEVAL_CACHE": "/c", "MKL_NUM_THREADS": "2"})
    two = executors.LocalExecutor(2)
    assert "1 thread(s) each" in two.description
    two.submit(spec).result()
    two.close()
    env = seen[-1].env
    assert env["OMP_NUM_THREADS"] == "1" and env["SUMEVAL_CACHE"] == "/c"
    assert env["MKL_NUM_THREADS"] == "2"  # the run's own setting wins
    one = executors.LocalExecutor(1)
    one.submit(spec).result()
    one.close()
    assert seen[-1].env == spec.env  # one run: untouched
