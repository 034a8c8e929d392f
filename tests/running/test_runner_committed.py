"""A batch run executes the committed study notebook, never what a JupyterLab session saved into the
file (issue 30): an edited notebook is refused with the fix named, saved outputs never reach the
executed copy, the manifest records every parameter (the committed defaults too), and the run id
moves with any parameter. Without git, the notebook file is the study. ``make lab`` works on copies.

The studies here are the tiny fixture study in a git repository made in ``tmp_path`` (a real ``git``),
or in a folder outside git.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sumeval import cli, paths
from sumeval.errors import InputError
from sumeval.running import lab, run_all, runner, study_params, sweep

from helpers import FIXTURES, REPO_ROOT  # tests/ is on the path

STUDIES = FIXTURES / "studies"
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


def set_cell(nb_path: Path, index: int, source: str, outputs: list | None = None) -> None:
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    nb["cells"][index]["source"] = source
    if outputs is not None:
        nb["cells"][index]["outputs"] = outputs
    nb_path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


def cell(nb_path: Path, index: int) -> str:
    src = json.loads(nb_path.read_text(encoding="utf-8"))["cells"][index]["source"]
    return "".join(src) if isinstance(src, list) else src


PARAMS = 1  # the tiny study's parameters cell: x: int = 1, scale: float = 0.5, label: str = 'a', fail, interactive


def edit_parameter(nb_path: Path, old: str, new: str) -> None:
    src = cell(nb_path, PARAMS)
    assert old in src
    set_cell(nb_path, PARAMS, src.replace(old, new))


@pytest.fixture(autouse=True)
def _own_runs(tmp_path, monkeypatch):
    """This test's runs only (the session's runs folder holds every test's)."""
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """The tiny study committed in a git repository; the runner sees its notebooks/."""
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    for f in ("tiny.ipynb", "tiny.params.yaml"):
        shutil.copy(STUDIES / f, root / "notebooks" / f)
    git(root, "init", "-q")
    git(root, "add", "notebooks")
    git(root, "commit", "-q", "-m", "the tiny study")
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(root / "notebooks"))
    return root


@pytest.fixture
def outside_git(tmp_path, monkeypatch):
    """The tiny study in a folder no git checkout holds (an installed copy, a user's own folder)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    for f in ("tiny.ipynb", "tiny.params.yaml"):
        shutil.copy(STUDIES / f, folder / f)
    assert subprocess.run(["git", "-C", str(folder), "rev-parse"], capture_output=True).returncode != 0
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(folder))
    return folder


def manifest(run_dir: Path) -> dict:
    return json.loads((Path(run_dir) / "manifest.json").read_text(encoding="utf-8"))


def tiny_runs() -> list[Path]:
    folder = paths.runs_dir() / "tiny"
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")) if folder.is_dir() else []


# ------------------------------------------------------------------------------------------
# an edited notebook: refused before anything runs, the difference and the fix named
# ------------------------------------------------------------------------------------------
class TestEditedNotebookIsRefused:
    def test_edited_parameter_refused_by_run_run_all_and_sweep(self, repo, capsys):
        nb = repo / "notebooks" / "tiny.ipynb"
        edit_parameter(nb, "scale: float = 0.5", "scale: float = 4.0")  # what a lab session autosaves
        before = tiny_runs()
        assert cli.main(["run", "tiny", "--params", "smoke", "-q"]) == 2
        err = capsys.readouterr().err
        assert "scale = 4.0 (committed: 0.5)" in err  # the difference, in the cell's words
        assert "git checkout -- notebooks/tiny.ipynb" in err and "git stash" in err  # the fix
        assert "Traceback" not in err
        assert tiny_runs() == before  # refused before a run folder or a kernel
        # run all: that study fails up front with the same reason (the others would still run)
        res = run_all.run_all("smoke", only=["tiny"], quiet=True)
        (outcome,) = res.outcomes
        assert outcome.status == "failed" and "scale = 4.0 (committed: 0.5)" in outcome.error
        with pytest.raises(InputError, match=r"grid point .*scale = 4.0 \(committed: 0.5\)"):
            sweep.plan("tiny", "smoke", {"x": [1, 2]})
        assert tiny_runs() == before

    def test_edited_added_and_retyped_cells_are_named(self, repo):
        nb = repo / "notebooks" / "tiny.ipynb"
        study = study_params.get_study("tiny")
        set_cell(nb, 4, cell(nb, 4).replace("x * scale", "x * scale * 10"))
        with pytest.raises(InputError, match=r"cell 4 \(code\) line \"ctx.write_results.*edited"):
            study_params.resolve_run(study, "smoke")
        git(repo, "checkout", "--", "notebooks/tiny.ipynb")
        assert study_params.resolve_run(study, "smoke").parameters["scale"] == 0.5  # as committed: runs
        data = json.loads(nb.read_text(encoding="utf-8"))
        data["cells"].append({"cell_type": "code", "id": "scratch", "metadata": {}, "outputs": [],
                              "execution_count": None,
                              "source": "scale = 100  # a scratch cell"})
        data["cells"][0]["cell_type"] = "raw"
        nb.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(InputError) as err:
            study_params.resolve_run(study, "smoke")
        msg = str(err.value)
        assert "cell 5 (code, 'scale = 100  # a scratch cell') added" in msg
        assert "cell 0 is a raw cell, committed: a markdown cell" in msg


# ------------------------------------------------------------------------------------------
# what runs: the committed form, outputs stripped; every parameter recorded
# ------------------------------------------------------------------------------------------
class TestCommittedFormRuns:
    def test_saved_outputs_are_no_edit_and_never_reach_the_executed_copy(self, repo):
        nb = repo / "notebooks" / "tiny.ipynb"
        data = json.loads(nb.read_text(encoding="utf-8"))
        stale = {"output_type": "stream", "name": "stdout", "text": "STALE lab output\n"}
        for c in data["cells"]:
            if c["cell_type"] == "code":
                c["outputs"], c["execution_count"] = [stale], 7
        data["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"note": "STALE widget"}}
        nb.write_text(json.dumps(data, indent=1), encoding="utf-8")  # a session that ran, edited nothing
        res = runner.run_study("tiny", "smoke", {"fail": True}, raise_on_error=False)
        assert res.status == "failed"  # the cells after the failing one never ran: nothing may show there
        executed = (res.run_dir / "executed.ipynb").read_text(encoding="utf-8")
        assert "STALE" not in executed
        assert manifest(res.run_dir)["notebook_source"]["source"] == "git HEAD"

    def test_manifest_records_every_parameter_with_the_committed_defaults(self, repo):
        # a new commit changes a default the set does not name: the run takes it and records it
        nb = repo / "notebooks" / "tiny.ipynb"
        edit_parameter(nb, "label: str = 'a'", "label: str = 'committed-b'")
        git(repo, "commit", "-q", "-am", "label b")
        res = runner.run_study("tiny", "smoke", {"scale": 0.25})
        m = manifest(res.run_dir)
        assert m["parameters"] == {"x": 2, "scale": 0.25, "label": "committed-b", "fail": False,
                                   "interactive": False}
        assert m["notebook_source"] == {"source": "git HEAD", "commit": git(repo, "rev-parse", "HEAD").strip(),
                                        "path": "notebooks/tiny.ipynb",
                                        "cells_sha256": m["notebook_source"]["cells_sha256"]}
        results = json.loads((res.run_dir / "results.json").read_text(encoding="utf-8"))
        assert results["results"]["label"] == "committed-b" and results["results"]["x_times_scale"] == 0.5


# ------------------------------------------------------------------------------------------
# the run id covers every parameter
# ------------------------------------------------------------------------------------------
class TestRunIdCoversEveryParameter:
    @staticmethod
    def digest(params_name="smoke", overrides=None) -> str:
        run = study_params.resolve_run(study_params.get_study("tiny"), params_name, overrides)
        return runner.new_run_id(params_name, run.parameters).rsplit("-", 1)[1]

    def test_any_parameter_moves_the_id(self, repo):
        base = self.digest()
        assert self.digest() == base  # deterministic
        # -p of a parameter the set does not name, and one it does: each a different id
        moved = {self.digest(overrides=o) for o in ({"scale": 0.25}, {"label": "b"}, {"x": 3}, {"fail": True})}
        assert base not in moved and len(moved) == 4
        # -p equal to the committed default is the same run as no -p
        assert self.digest(overrides={"scale": 0.5}) == base
        # a committed default changes: a new id for the same set and -p
        nb = repo / "notebooks" / "tiny.ipynb"
        edit_parameter(nb, "scale: float = 0.5", "scale: float = 0.75")
        git(repo, "commit", "-q", "-am", "scale 0.75")
        assert self.digest() != base

    def test_sweep_point_ids_move_with_a_committed_default(self, repo):
        _, before = sweep.plan("tiny", "smoke", {"x": [1, 2]})
        nb = repo / "notebooks" / "tiny.ipynb"
        edit_parameter(nb, "label: str = 'a'", "label: str = 'z'")
        git(repo, "commit", "-q", "-am", "label z")
        _, after = sweep.plan("tiny", "smoke", {"x": [1, 2]})
        assert len({s.run_id for s in before} | {s.run_id for s in after}) == 4  # none reused: not "finished"

    def test_two_real_runs_differing_only_in_a_default_parameter(self, repo):
        a = runner.run_study("tiny", "smoke")
        b = runner.run_study("tiny", "smoke", {"label": "b"})
        assert a.run_id.rsplit("-", 1)[1] != b.run_id.rsplit("-", 1)[1]
        assert manifest(a.run_dir)["parameters"]["label"] == "a" and manifest(b.run_dir)["parameters"]["label"] == "b"


# ------------------------------------------------------------------------------------------
# without git: the file is the study
# ------------------------------------------------------------------------------------------
class TestWithoutGit:
    def test_the_file_is_the_reference_outputs_stripped(self, outside_git, capsys):
        nb = outside_git / "tiny.ipynb"
        edit_parameter(nb, "scale: float = 0.5", "scale: float = 4.0")  # no commit to compare with
        set_cell(nb, 4, cell(nb, 4), outputs=[{"output_type": "stream", "name": "stdout", "text": "STALE\n"}])
        assert cli.main(["run", "tiny", "--params", "smoke", "-p", "fail=true", "-q"]) == 1
        (run_dir,) = tiny_runs()
        m = manifest(run_dir)
        assert m["parameters"]["scale"] == 4.0
        assert m["notebook_source"]["source"] == "file" and m["notebook_source"]["reason"] == "not in a git checkout"
        assert m["notes"] == []  # nothing to say: the file is all there is
        assert "STALE" not in (run_dir / "executed.ipynb").read_text(encoding="utf-8")

    def test_a_notebook_git_does_not_hold_runs_with_a_note(self, tmp_path, monkeypatch, capsys):
        root = tmp_path / "repo"
        (root / "notebooks").mkdir(parents=True)
        git(root, "init", "-q")
        (root / "README").write_text("x\n")
        git(root, "add", "README")
        git(root, "commit", "-q", "-m", "first")
        for f in ("tiny.ipynb", "tiny.params.yaml"):
            shutil.copy(STUDIES / f, root / "notebooks" / f)  # a new study, not committed yet
        monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(root / "notebooks"))
        assert cli.main(["run", "tiny", "--params", "smoke", "-q"]) == 0
        err = capsys.readouterr().err
        assert "notebooks/tiny.ipynb is not committed (not in git HEAD)" in err
        (run_dir,) = tiny_runs()
        m = manifest(run_dir)
        assert m["notebook_source"]["source"] == "file" and any("is not committed" in n for n in m["notes"])


# ------------------------------------------------------------------------------------------
# make lab: copies in a git-ignored folder, never the tracked notebooks
# ------------------------------------------------------------------------------------------
def test_lab_copies_are_made_once_and_kept(repo, tmp_path):
    folder = tmp_path / "lab"
    copied, kept = lab.copy_notebooks(folder)
    assert [p.name for p in copied] == ["tiny.ipynb"] and kept == []
    assert (folder / "tiny.ipynb").read_bytes() == (repo / "notebooks" / "tiny.ipynb").read_bytes()
    edit_parameter(folder / "tiny.ipynb", "scale: float = 0.5", "scale: float = 4.0")  # a session's edit
    copied, kept = lab.copy_notebooks(folder)
    assert copied == [] and [p.name for p in kept] == ["tiny.ipynb"]
    assert "scale: float = 4.0" in cell(folder / "tiny.ipynb", PARAMS)  # the session's copy is kept
    assert git(repo, "status", "--porcelain") == ""  # the tracked notebook untouched
    assert study_params.resolve_run(study_params.get_study("tiny"), "smoke").parameters["scale"] == 0.5


def test_lab_folder_is_git_ignored_and_make_lab_opens_it():
    root = REPO_ROOT
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    assert subprocess.run(["git", "-C", str(root), "check-ignore", "-q", "lab/meta_evaluation.ipynb"]).returncode == 0
    plan = subprocess.run(["make", "-n", "-C", str(root), "lab"], capture_output=True, text=True)
    assert plan.returncode == 0, plan.stderr
    assert "-m sumeval.running.lab lab" in plan.stdout and "--notebook-dir=lab " in plan.stdout
