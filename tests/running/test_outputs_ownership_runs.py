"""Ownership of outputs in study runs (issue 21), and run bookkeeping.

Figures and tables are published to figures/<study>/ only when a run succeeds (F5), in a folder
named by data set (a run on a user's data set never replaces SummEval's); a run that skipped all
its parts is `skipped`, never ok; a full disk is named and never leaves a manifest `running`
(F3d); `-p` keeps the text typed for a str parameter (P8) and `#` (X1c); `sumeval list` says which
studies take `dataset=`. A small study notebook written here ("pub") saves a figure and a table,
then fails or skips when asked.
"""
from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path

import pytest

from sumeval import argtypes, cli, paths
from sumeval.errors import InputError, NotebookFailed
from sumeval.running import publish, runner, study_params

from helpers import FIXTURES, digest  # tests/ is on the path

FIXTURE_NB = FIXTURES / "studies" / "tiny.ipynb"

PUB_PARAMS = """\
dataset: str = "summeval"  # the judgments data set
system_dataset: str = "realsumm"  # a second data set
n: int = 1  # drawn in the figure and written in the table
mode: str = "ok"  # ok, note (ok, with a note), fail (after saving its outputs) or skip (every part)
interactive: bool = False  # set by the runner
"""
PUB_WORK = """\
if mode == "skip":
    ctx.skip(["plot", "tab"], f"{dataset} has nothing this study needs")
else:
    import matplotlib.pyplot as plt
    import pandas as pd
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, n])
    ctx.save_figure(fig, "plot")
    ctx.save_table(pd.DataFrame({"n": [n]}), "tab")
if mode == "note":
    ctx.note(f"{dataset} has no references, so the reference-based rows are left out")
if mode == "fail":
    raise ValueError(f"asked to fail after saving, n={n}")
"""


@pytest.fixture()
def studies(tmp_path, monkeypatch):
    """A notebooks folder with `pub` (dataset=, figures and tables, fail / skip) and a copy of `tiny`."""
    import nbformat as nbf

    folder = tmp_path / "nbs"
    folder.mkdir()
    tiny = nbf.read(FIXTURE_NB, as_version=4)
    nb = nbf.v4.new_notebook(metadata=tiny.metadata)
    nb.cells = [nbf.v4.new_code_cell(PUB_PARAMS, metadata={"tags": ["parameters"]}),
                nbf.v4.new_code_cell("from sumeval.running import run_context\n"
                                     "ctx = run_context.context('pub', params=dict(dataset=dataset, n=n, mode=mode))"),
                nbf.v4.new_code_cell(PUB_WORK),
                nbf.v4.new_code_cell("ctx.write_results({'n': n, 'dataset': dataset})")]
    nbf.write(nb, folder / "pub.ipynb")
    (folder / "pub.params.yaml").write_text("figures: [plot]\ntables: [tab]\nsmoke: {n: 2}\nskip: {mode: skip}\n"
                                            "note: {mode: note}\nyamlbool: {dataset: no}\n", encoding="utf-8")
    shutil.copy(FIXTURE_NB, folder / "tiny.ipynb")
    shutil.copy(FIXTURE_NB.with_suffix(".params.yaml"), folder / "tiny.params.yaml")
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(folder))
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    monkeypatch.setenv("SUMEVAL_RUNS", str(tmp_path / "runs"))
    return folder


# --------------------------------------------------------------------------------------------
# 3. figures published only on success (F5), named by data set
# --------------------------------------------------------------------------------------------
def test_a_failing_run_leaves_the_published_figures_byte_identical(studies):
    ok = runner.run_study("pub", "smoke", run_id="ok1")
    folder = publish.published_folder("pub")
    before = digest(folder)
    assert sorted(before) == ["plot.pdf", "plot.png", "tab.csv", "tab.html", "tab.md", "tab.tex"]
    assert before["plot.png"] == digest(ok.run_dir / "figures")["plot.png"]  # the run's own copy, published
    with pytest.raises(NotebookFailed, match="asked to fail after saving, n=7"):
        runner.run_study("pub", "smoke", {"n": 7, "mode": "fail"}, run_id="bad1")
    assert digest(folder) == before  # F5: nothing of the failed run reached figures/
    failed = paths.runs_dir() / "pub" / "bad1"
    assert digest(failed / "figures")["plot.png"] != before["plot.png"]  # it did draw its own, n=7
    assert (failed / "tables" / "tab.csv").read_text().splitlines()[1].endswith(",7")
    manifest = json.loads((failed / "manifest.json").read_text())
    assert manifest["status"] == "failed" and manifest["published"] == {}


def test_a_run_on_another_data_set_never_replaces_summevals_figures(studies, capsys):
    runner.run_study("pub", "smoke", run_id="se1")
    root = publish.published_folder("pub")
    summeval = digest(root)
    assert cli.main(["run", "pub", "--params", "smoke", "-p", "dataset=no", "-p", "n=5", "-q"]) == 0  # P8 too
    assert digest(root) == {**summeval, **{f"no/{k}": v for k, v in digest(root / "no").items()}}
    mine = digest(root / "no")
    assert sorted(mine) == sorted(summeval) and mine["plot.png"] != summeval["plot.png"]
    (run_dir,) = [p for p in (paths.runs_dir() / "pub").iterdir() if p.name != "se1" and not p.name.startswith(".")]
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["overrides"] == {"dataset": "no", "n": 5}  # the text typed, not YAML's false
    assert manifest["published"]["folder"] == str(root / "no")
    runner.run_study("pub", "smoke", {"n": 3}, run_id="se2")  # SummEval again: its folder only
    assert digest(root / "no") == mine and digest(root)["plot.png"] != summeval["plot.png"]


def test_output_label_names_only_changed_data_sets():
    defaults = {"dataset": '"summeval"', "system_dataset": '"realsumm"', "n": "1"}
    assert publish.output_label({"dataset": "summeval", "system_dataset": "realsumm", "n": 5}, defaults) is None
    assert publish.output_label({"dataset": "mine", "system_dataset": "realsumm"}, defaults) == "mine"
    assert publish.output_label({"dataset": "summeval", "system_dataset": "other"}, defaults) == \
        "system_dataset-other"
    assert publish.output_label({"dataset": "a", "system_dataset": "b"}, defaults) == "a+system_dataset-b"
    one = publish.output_label({"dataset": "/x/my judg #2.csv"}, defaults)
    two = publish.output_label({"dataset": "/y/my judg #2.csv"}, defaults)
    assert one.startswith("my-judg-2-") and two.startswith("my-judg-2-") and one != two  # paths apart
    assert "/" not in one and len(one) == len("my-judg-2-") + 8
    assert publish.output_label({"dataset": "mine"}, {}) == "mine"  # no known default: changed


def test_publishing_prunes_only_its_own_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    run = tmp_path / "run"
    run.mkdir()
    (run / "a.png").write_bytes(b"new")
    root = publish.published_folder("s")
    (root / "mine").mkdir(parents=True)
    (root / "mine" / "a.png").write_bytes(b"user's")
    (root / "old.png").write_bytes(b"stale")
    (root / "notes.txt").write_text("kept")
    assert publish.publish("s", [run / "a.png"]) == [root / "a.png"]
    assert not (root / "old.png").exists() and (root / "notes.txt").read_text() == "kept"
    assert (root / "mine" / "a.png").read_bytes() == b"user's"  # a data set's folder is not the study's


# --------------------------------------------------------------------------------------------
# 5. run bookkeeping: skipped, a full disk, sumeval list
# --------------------------------------------------------------------------------------------
def test_a_study_that_skipped_all_its_parts_is_never_ok(studies, capsys):
    assert cli.main(["run", "pub", "--params", "skip", "-q"]) == 1
    err = capsys.readouterr().err
    assert "skipped all its parts" in err and "summeval has nothing this study needs" in err
    (run_dir,) = (paths.runs_dir() / "pub").glob("*-skip-*")
    manifest = json.loads((run_dir / "manifest.json").read_text())
    results = json.loads((run_dir / "results.json").read_text())
    assert manifest["status"] == "skipped" and results["status"] == "skipped"
    assert manifest["skipped_reason"] == results["skipped_reason"] == "summeval has nothing this study needs"
    assert not publish.published_folder("pub").exists()  # nothing to publish, nothing pruned
    from sumeval.running import run_all

    res = run_all.run_all("skip", only=["pub"], quiet=True)
    (o,) = res.outcomes
    assert not res.ok and o.status == "skipped" and "nothing this study needs" in o.error
    page = res.report.read_text()
    assert '<span class="skipped">skipped</span>' in page and "0 of 1 studies ok" in page


def test_a_studys_notes_reach_the_command_line_manifest_and_report(studies, capsys):
    # P2b: what a notebook says the reader must know (ctx.note) is never only inside the notebook
    assert cli.main(["run", "pub", "--params", "note", "-q"]) == 0
    said = "summeval has no references, so the reference-based rows are left out"
    assert f"note (pub): {said}" in capsys.readouterr().err  # printed even with -q
    (run_dir,) = (paths.runs_dir() / "pub").glob("*-note-*")
    assert json.loads((run_dir / "manifest.json").read_text())["notes"] == [said]
    assert json.loads((run_dir / "results.json").read_text())["notes"] == [said]
    from sumeval.running import run_all

    res = run_all.run_all("note", only=["pub"], quiet=True)
    (o,) = res.outcomes
    assert res.ok and o.notes == [said] and f"note: {said}" in res.report.read_text()


def test_a_note_needs_text(tmp_path):
    from sumeval.running.run_context import RunContext

    ctx = RunContext("s", tmp_path)
    with pytest.raises(ValueError, match="needs its text"):
        ctx.note("  ")
    ctx.note("once")
    ctx.note("once")
    assert ctx.notes == ["once"]


def _enospc_on(target: str, call: int):
    """An atomic_write_json that fails with ENOSPC on the ``call``-th write of file ``target``."""
    from sumeval import cache

    real, seen = cache.atomic_write_json, []

    def write(path, obj, **kw):
        if Path(path).name == target:
            seen.append(path)
            if len(seen) == call:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, obj, **kw)

    return write


def test_a_full_disk_at_the_end_marks_the_manifest_failed_in_place(fixture_studies, monkeypatch):
    from sumeval import cache

    monkeypatch.setattr(cache, "atomic_write_json", _enospc_on("manifest.json", 1))  # the final one
    res = runner.run_study("tiny", "smoke", run_id="full1", raise_on_error=False)
    assert res.status == "failed"
    assert "the manifest could not be written: No space left on device" in res.error
    assert str(res.run_dir / "manifest.json") in res.error and "MB free" in res.error
    manifest = json.loads((res.run_dir / "manifest.json").read_text())
    assert manifest["status"] == "failed" and manifest["error"] == res.error  # not left 'running'
    assert runner.read_manifest(res.run_dir)["status"] == "failed"


def test_a_full_runs_disk_at_the_start_names_the_path(fixture_studies, monkeypatch, capsys):
    monkeypatch.setattr(runner, "atomic_write_json", _enospc_on("manifest.json", 1))
    assert cli.main(["run", "tiny", "--params", "smoke", "-q"]) == 1
    err = capsys.readouterr().err
    assert "/tiny/" in err and "manifest.json: No space left on device" in err
    assert "the disk holding it is full" in err and "SUMEVAL_RUNS" in err


def test_storage_note_names_the_file_or_the_place():
    from sumeval.runstate import storage_note

    note = storage_note(OSError(errno.ENOSPC, "No space left on device", "/tmp/x/y.json"), "/elsewhere")
    assert note.startswith(" (/tmp/x/y.json: the disk holding it is full, ") and "MB free" in note
    assert "/elsewhere" in storage_note(OSError(errno.ENOSPC, "No space left on device"), "/elsewhere")
    assert storage_note(OSError(errno.EACCES, "Permission denied", "/x"), "/y") == ""


def test_list_says_which_studies_take_dataset(studies, capsys):
    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    pub = next(ln for ln in lines if ln.startswith("pub "))
    tiny = next(ln for ln in lines if ln.startswith("tiny "))
    assert "takes -p dataset=NAME, -p system_dataset=NAME" in pub and "takes" not in tiny


# --------------------------------------------------------------------------------------------
# 6. -p values: the text typed for a str parameter (P8), '#' kept (X1c)
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed, expected", [
    ("no", "no"), ("yes", "yes"), ("2024", "2024"), ("1.0", "1.0"), ("1e3", "1e3"), ("2024-01-01", "2024-01-01"),
    ("null", "null"), ('"no"', "no"), ("'quoted #1'", "quoted #1"), ("judg #2.csv", "judg #2.csv"),
    ("/data/my judg #2.csv", "/data/my judg #2.csv"), ("a#b", "a#b"),
])
def test_a_str_parameter_keeps_the_text_typed(fixture_studies, typed, expected):
    study = study_params.get_study("tiny")
    params = study_params.resolve_parameters(study, "default", argtypes.parse_overrides([f"label={typed}"]))
    assert params["label"] == expected and isinstance(params["label"], str)


def test_hash_is_text_not_a_yaml_comment():
    assert argtypes.parse_value("judg #2.csv") == "judg #2.csv"  # YAML alone reads 'judg'
    assert argtypes.parse_value("5 # five") == "5 # five"  # kept whole: an int parameter then says so
    assert argtypes.parse_value("[1, 2] # c") == "[1, 2] # c"
    assert argtypes.parse_value("[1, 2]") == [1, 2] and argtypes.parse_value("7") == 7


def test_a_non_string_from_elsewhere_says_it_was_read_as_yaml(fixture_studies):
    study = study_params.get_study("tiny")
    with pytest.raises(InputError) as err:
        study_params.resolve_parameters(study, "default", {"label": False})  # not from -p: no text to keep
    msg = str(err.value)
    assert "must be str" in msg and "read as YAML, as the boolean false" in msg
    assert "-p 'label=\"...\"'" in msg
    with pytest.raises(InputError, match="must be int"):
        study_params.resolve_parameters(study, "default", argtypes.parse_overrides(["x=no"]))  # only str keeps text


def test_a_params_file_value_read_as_yaml_is_explained(studies):
    with pytest.raises(InputError, match=r"'dataset'.*must be str.*got False; the value was read as YAML"):
        study_params.resolve_parameters(study_params.get_study("pub"), "yamlbool")


def test_publishing_removes_only_what_an_earlier_publication_wrote(tmp_path, monkeypatch):
    """NEW-01 of the catalogue re-run: a successful run removed every PNG / PDF / table file of
    figures/<study>/ it did not write, a user's notes and edited figures too."""
    monkeypatch.setenv("SUMEVAL_FIGURES", str(tmp_path / "figures"))
    run = tmp_path / "run"
    run.mkdir()
    for name in ("a.png", "b.png", "t.md"):
        (run / name).write_bytes(name.encode())
    root = publish.published_folder("s")
    record = tmp_path / "figures" / ".published" / "s.json"
    assert publish.published_record(root) == record
    assert publish.published_record(root / "mine") == tmp_path / "figures" / ".published" / "s" / "mine.json"
    assert publish.publish("s", [run / "a.png", run / "b.png", run / "t.md"]) == [root / n for n in ("a.png", "b.png",
                                                                                                    "t.md")]
    assert json.loads(record.read_text())["files"] == ["a.png", "b.png", "t.md"]
    (root / "my_notes.md").write_text("what I saw")  # the user's, after that run
    (root / "my_edit.png").write_bytes(b"mine")
    assert publish.publish("s", [run / "a.png"]) == [root / "a.png"]  # a run that writes a.png only
    assert sorted(p.name for p in root.iterdir()) == ["a.png", "my_edit.png", "my_notes.md"]  # b.png, t.md: stale
    assert json.loads(record.read_text())["files"] == ["a.png"]
    record.write_text("{not json")  # a damaged record names nothing: nothing is removed
    (root / "b.png").write_bytes(b"b")
    assert publish.publish("s", [run / "t.md"]) == [root / "t.md"]
    assert (root / "a.png").exists() and (root / "b.png").exists() and (root / "my_notes.md").exists()
