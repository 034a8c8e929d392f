"""Fixtures of the data set tests (tests/data_sets/)."""
from __future__ import annotations

import pytest


@pytest.fixture
def registry_file(tmp_path, monkeypatch):
    """A private user data set registry for one test (a file opts in with
    ``pytest.mark.usefixtures("registry_file")``); returns its path, not yet written."""
    path = tmp_path / "registry" / "user_datasets.json"
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(path))
    return path
