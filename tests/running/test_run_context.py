"""run_context.context() records the notebook's own parameters: nothing listed twice."""
from __future__ import annotations

import json

import pytest

from sumeval.errors import InputError
from sumeval.running import run_context


def _cell(namespace: dict) -> run_context.RunContext:
    """Run the study cell ``ctx = run_context.context('tiny')`` in ``namespace`` (a notebook's globals)."""
    exec("from sumeval.running import run_context\nctx = run_context.context('tiny')", namespace)
    return namespace["ctx"]


def test_interactive_session_records_the_parameters_cell(fixture_studies, monkeypatch):
    monkeypatch.delenv(run_context.RUN_DIR_ENV, raising=False)
    ctx = _cell({"x": 3, "scale": 0.25, "label": "c", "fail": False, "interactive": True, "other": 1})
    # every name of the fixture's parameters cell, in its order, but the runner's own (interactive);
    # nothing else of the namespace
    assert list(ctx.params.items()) == [("x", 3), ("scale", 0.25), ("label", "c"), ("fail", False)]
    assert ctx.run_dir.name == "interactive"


def test_parameters_cell_not_run_is_named(fixture_studies, monkeypatch):
    monkeypatch.delenv(run_context.RUN_DIR_ENV, raising=False)
    with pytest.raises(InputError, match=r"parameter\(s\) label, fail of tiny.ipynb .*parameters cell first"):
        _cell({"x": 3, "scale": 0.25})


def test_run_takes_the_resolved_parameters_of_its_manifest(fixture_studies, monkeypatch, tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"parameters": {"x": 7, "interactive": False}}))
    monkeypatch.setenv(run_context.RUN_DIR_ENV, str(tmp_path))
    assert run_context.run_parameters(tmp_path) == {"x": 7, "interactive": False}
    ctx = _cell({"x": 1, "scale": 0.5, "label": "a", "fail": False, "interactive": False})
    assert ctx.params == {"x": 7, "scale": 0.5, "label": "a", "fail": False}
    assert ctx.run_dir == tmp_path


def test_without_a_manifest_or_a_study_notebook(fixture_studies, tmp_path):
    assert run_context.run_parameters(tmp_path) == {}  # no manifest: the namespace's values only
    assert run_context.notebook_parameters("no_such_study", {"x": 1}) == {}  # a script's or a test's context
    # params= still replaces them
    assert run_context.context("tiny", params={"n": 1}).params == {"n": 1}
