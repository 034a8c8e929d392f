"""Shared test setup: runs, figures and caches of the test session go to a temporary folder."""
from __future__ import annotations

import os

import pytest

from helpers import FIXTURES, PET_DOCS


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
def isolated(tmp_path, monkeypatch):
    """A private cache and user data set registry for one test (a file opts in with
    ``pytestmark = pytest.mark.usefixtures("isolated")``); returns the registry's path."""
    registry = tmp_path / "reg" / "user_datasets.json"
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(registry))
    return registry


@pytest.fixture
def fixture_studies(monkeypatch):
    """Make the runner see the tiny fixture study instead of the real notebooks."""
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(FIXTURES / "studies"))
    return FIXTURES / "studies"


@pytest.fixture()
def corpus(tmp_path):
    """PET_DOCS as a user's JSONL corpus."""
    import json

    p = tmp_path / "pets.jsonl"
    p.write_text("\n".join(json.dumps({"id": k, "text": v}) for k, v in PET_DOCS.items()), encoding="utf-8")
    return p
