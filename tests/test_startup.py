"""What a ``sumeval`` start costs and what it says: ``sumeval --help`` and ``sumeval list`` import no
heavy library (issue 35: ``sumeval list`` took 4 s, 60% of it ``import nbformat``), and the long
commands say what they are doing on a terminal and nothing extra when piped."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pandas", "numpy", "nbformat", "papermill", "jsonschema", "torch", "scipy")
ROOT = Path(__file__).resolve().parents[1]


def _imported_by(code: str, env: dict | None = None) -> set[str]:
    """The top-level modules a fresh interpreter holds after running ``code`` (stdout silenced)."""
    probe = ("import contextlib, io, json, sys\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             + "".join(f"    {line}\n" for line in code.splitlines())
             + "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env,
                         cwd=ROOT)
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
