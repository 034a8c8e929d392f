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


def model_installed(name: str) -> bool:
    """Whether packaged model ``name`` can be resolved offline (tests of it skip otherwise)."""
    from sumeval.errors import ModelNotFoundError
    from sumeval.lm import resolve_model

    try:
        resolve_model(name)
        return True
    except ModelNotFoundError:
        return False


# A retrieval corpus where each word picks out known documents (BM25F ranks the shorter one first).
PET_DOCS = {
    "cat1": "cat", "cat2": "cat cat fish fish fish", "dog1": "dog", "dog2": "dog dog bone bone bone",
    "fish1": "fish", "bird1": "bird", "bird2": "bird bird seed seed seed",
}


@pytest.fixture()
def corpus(tmp_path):
    """PET_DOCS as a user's JSONL corpus."""
    import json

    p = tmp_path / "pets.jsonl"
    p.write_text("\n".join(json.dumps({"id": k, "text": v}) for k, v in PET_DOCS.items()), encoding="utf-8")
    return p
