"""Shared test setup: runs, figures and caches of the test session go to a temporary folder."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session", autouse=True)
def _isolated_outputs(tmp_path_factory):
    """Point runs/, figures/ and the cache at a per-session temporary folder."""
    base = tmp_path_factory.mktemp("sumeval_outputs")
    saved = {k: os.environ.get(k) for k in ("SUMEVAL_RUNS", "SUMEVAL_FIGURES", "SUMEVAL_CACHE")}
    os.environ["SUMEVAL_RUNS"] = str(base / "runs")
    os.environ["SUMEVAL_FIGURES"] = str(base / "figures")
    os.environ["SUMEVAL_CACHE"] = str(base / "cache")
    os.environ.setdefault("MPLBACKEND", "Agg")
    yield base
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture
def fixture_studies(monkeypatch):
    """Make the runner see the tiny fixture study instead of the real notebooks."""
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(FIXTURES / "studies"))
    return FIXTURES / "studies"
