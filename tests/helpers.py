"""Helpers shared by several test files (``from helpers import ...``; tests/ is on the path).

Test files sit one folder down (tests/<package part>/), so the shared input files are named from here:
``TEST_DATA`` and ``FIXTURES``, and the checkout as ``REPO_ROOT``, never as ``Path(__file__).parent``.
Import these from here, not from conftest.py: a folder's own conftest.py is also a module named ``conftest``."""
from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
import socket
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

#: tests/, the folder of this file
TESTS_DIR = Path(__file__).resolve().parent
#: the checkout (its notebooks/, examples/, benchmarks/)
REPO_ROOT = TESTS_DIR.parent
#: users' judgments files in their own shape (tests/data/)
TEST_DATA = TESTS_DIR / "data"
#: small input files per topic (tests/fixtures/<topic>/)
FIXTURES = TESTS_DIR / "fixtures"

# A retrieval corpus where each word picks out known documents (BM25F ranks the shorter one first).
PET_DOCS = {
    "cat1": "cat", "cat2": "cat cat fish fish fish", "dog1": "dog", "dog2": "dog dog bone bone bone",
    "fish1": "fish", "bird1": "bird", "bird2": "bird bird seed seed seed",
}


def write_jsonl(path: Path, records: list[dict]) -> Path:
    """``records`` written to ``path`` as JSON lines; returns ``path``."""
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def digest(folder: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of every file below ``folder`` (hidden ones included)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def have_data(*relpaths: str) -> bool:
    """Whether every data file ``relpaths`` (relative to the data folder) is there."""
    from sumeval.datasets.registry import locate
    from sumeval.errors import DataNotFoundError

    try:
        for r in relpaths:
            locate(r, verify=False)
        return True
    except DataNotFoundError:
        return False


def needs_data(*relpaths: str):
    """Skip mark for a test that reads the data files ``relpaths``."""
    return pytest.mark.skipif(not have_data(*relpaths), reason=f"{relpaths[0]} not found; see data/README.md")


def one_row(frame, **where) -> pd.Series:
    """The single row of ``frame`` whose columns equal ``where`` (fails unless exactly one)."""
    sub = pd.DataFrame(frame)
    for k, v in where.items():
        sub = sub[sub[k] == v]
    assert len(sub) == 1, (where, sub)
    return sub.iloc[0]


def run_cli(*argv) -> int:
    """``sumeval ARGV...`` in this process (each argument as text); its exit status."""
    from sumeval import cli

    return cli.main([str(a) for a in argv])


def score_sharded_counting():
    """``(score_sharded, calls)``: :func:`sumeval.sharded.score_sharded` recording each shard it saves in ``calls``."""
    from sumeval import sharded

    calls = []
    return functools.partial(sharded.score_sharded, on_shard=calls.append), calls


def score_sharded_interrupted_after(k: int):
    """``(score_sharded, calls)``: a score_sharded whose on_shard hook fails once ``k`` shards are saved
    (an interrupted run)."""
    from sumeval import sharded

    calls = []

    def hook(i):
        calls.append(i)
        if len(calls) >= k:
            raise KeyboardInterrupt("interrupted for the test")

    return functools.partial(sharded.score_sharded, on_shard=hook), calls


def three_annotators(**columns) -> pd.DataFrame:
    """2 documents x 3 systems; annotators a, b, c of human column q (c did not rate d2/s1), then
    ``columns`` (name -> 6 values), then q = the annotators' mean."""
    frame = pd.DataFrame({
        "doc_id": ["d1", "d1", "d1", "d2", "d2", "d2"],
        "system": ["s1", "s2", "s3"] * 2,
        "q/a": [1.0, 2, 3, 4, 2, 5],
        "q/b": [2.0, 2, 5, 3, 1, 4],
        "q/c": [3.0, 2, 4, np.nan, 2, 5],
        **columns,
    })
    frame["q"] = frame[["q/a", "q/b", "q/c"]].mean(axis=1)
    return frame


def model_installed(name: str) -> bool:
    """Whether packaged model ``name`` can be resolved offline (tests of it skip otherwise)."""
    from sumeval.errors import ModelNotFoundError
    from sumeval.lm import resolve_model

    try:
        resolve_model(name)
        return True
    except ModelNotFoundError:
        return False


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def checkout_env() -> dict[str, str]:
    """This environment for a subprocess, with this checkout as its PYTHONPATH and matplotlib's Agg backend."""
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT), "MPLBACKEND": "Agg"}


def import_test_module(relpath: str):
    """The test module ``tests/<relpath>`` (e.g. ``"judges/test_alt_test.py"``), for a test that uses pinned
    values or a builder of a test file in another folder: imported by its own name from its folder, as pytest
    imports a test file, so that it is one module (asserts rewritten) whichever file asks first."""
    path = TESTS_DIR / relpath
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # what pytest's default ("prepend") import mode does for each test folder
    return importlib.import_module(path.stem)
