"""What a ``sumeval`` start costs and what it says: ``sumeval --help`` and ``sumeval list`` import no
heavy library (issue 35: ``sumeval list`` took 4 s, 60% of it ``import nbformat``), and the long
commands say what they are doing on a terminal and nothing extra when piped."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers import REPO_ROOT  # tests/ is on the path

HEAVY = ("pandas", "numpy", "nbformat", "papermill", "jsonschema", "torch", "scipy")


def _imported_by(code: str, env: dict | None = None) -> set[str]:
    """The top-level modules a fresh interpreter holds after running ``code`` (stdout silenced)."""
    probe = ("import contextlib, io, json, sys\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             + "".join(f"    {line}\n" for line in code.splitlines())
             + "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env,
                         cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.splitlines()[-1]))


@pytest.mark.parametrize("argv", [["--help"], ["list"], ["run", "--help"], ["meta-eval", "--help"]],
                         ids=["help", "list", "run-help", "meta-eval-help"])
def test_light_commands_import_no_heavy_library(argv):
    code = ("from sumeval.cli import main\n"
            "try:\n"
            f"    main({argv!r})\n"
            "except SystemExit:\n"
            "    pass")
    heavy = sorted(set(HEAVY) & _imported_by(code))
    assert not heavy, f"`sumeval {' '.join(argv)}` imports {heavy}: import them inside the command that uses them"


def test_list_with_fixture_studies_imports_no_notebook_library(fixture_studies):
    code = "from sumeval.cli import main\nmain(['list'])"
    heavy = sorted(set(HEAVY) & _imported_by(code, {"SUMEVAL_NOTEBOOKS": str(fixture_studies)}))
    assert not heavy, heavy


# ------------------------------------------------------------------------------------------
# progress: on a terminal by default, off when piped or with --quiet
# ------------------------------------------------------------------------------------------
def test_progress_decision(monkeypatch):
    import io

    from sumeval.cli.progress import show_progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert show_progress(stream=Terminal())  # a person watching
    assert not show_progress(stream=io.StringIO())  # a pipe or a file
    assert not show_progress(quiet=True, stream=Terminal())
    assert show_progress(forced=True, stream=io.StringIO())  # sumeval score --progress, piped
    monkeypatch.setenv("CI", "1")
    assert not show_progress(stream=Terminal())  # a CI log
    monkeypatch.delenv("CI")
    monkeypatch.setenv("TERM", "dumb")
    assert not show_progress(stream=Terminal())


def _pty_run(argv: list[str], timeout: float = 120) -> str:
    """Everything ``argv`` writes to a pseudo-terminal of 100 columns (stdout and stderr), as text."""
    import fcntl
    import pty
    import struct
    import termios
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # tqdm draws nothing in 0 columns
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(TERM="xterm", PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, cwd=REPO_ROOT)
    os.close(slave)
    out, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            out += chunk
        assert proc.wait(timeout=max(1, deadline - time.monotonic())) == 0, out.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return out.decode(errors="replace")


def test_score_shows_progress_on_a_terminal_and_not_in_a_pipe(tmp_path):
    """A real ``sumeval score`` run: its bar on a pseudo-terminal, none when stderr is a pipe, none with
    --quiet on the terminal; --progress draws it into the pipe too."""
    data = tmp_path / "pairs.jsonl"
    data.write_text('{"summary": "a cat sat", "references": ["the cat sat"]}\n'
                    '{"summary": "a dog", "references": ["the dog ran"]}\n', encoding="utf-8")
    cmd = [sys.executable, "-m", "sumeval.cli", "score", "rouge-1", "-i", str(data)]
    bar = "rouge-1: 100%|"
    shown = _pty_run(cmd + ["-o", str(tmp_path / "a.jsonl")])
    assert bar in shown and "1/1" in shown, shown
    assert bar not in _pty_run(cmd + ["-o", str(tmp_path / "b.jsonl"), "--quiet"])
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    piped = subprocess.run(cmd + ["-o", str(tmp_path / "c.jsonl")], capture_output=True, text=True, timeout=120,
                           env=env, cwd=REPO_ROOT)
    assert piped.returncode == 0 and "scored 2 of 2 lines" in piped.stderr
    assert "%|" not in piped.stderr, piped.stderr
    forced = subprocess.run(cmd + ["-o", str(tmp_path / "d.jsonl"), "--progress"], capture_output=True, text=True,
                            timeout=120, env=env, cwd=REPO_ROOT)
    assert forced.returncode == 0 and bar in forced.stderr
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "c.jsonl").read_text()  # the same scores either way


def test_ordering_train_says_each_epoch_on_a_terminal_only(tmp_path):
    """``sumeval ordering train`` on a terminal: a line per epoch that stays (loss, dev score, seconds);
    piped: none of it, the JSON summary alone on stdout."""
    args = ["-m", "sumeval.cli", "ordering", "train", "--model", "lstm_ptrnet", "--dataset", "nips",
            "--max-train", "16", "--max-dev", "6", "--epochs", "2", "--hidden", "16", "--batch-size", "8",
            "--no-glove", "--threads", "1"]
    shown = _pty_run([sys.executable, *args, "--out", str(tmp_path / "tty")], timeout=300)
    assert "epoch 1 of at most 2: loss " in shown and "epoch 2 of at most 2: loss " in shown, shown
    piped = subprocess.run([sys.executable, *args, "--out", str(tmp_path / "pipe")], capture_output=True, text=True,
                           timeout=300, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}, cwd=REPO_ROOT)
    assert piped.returncode == 0, piped.stderr
    assert "epoch 1" not in piped.stderr and "%|" not in piped.stderr, piped.stderr
    assert json.loads(piped.stdout)["epochs_run"] == 2
