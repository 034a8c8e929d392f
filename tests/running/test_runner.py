"""The papermill runner: parameter validation, run folders, manifests, failures."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sumeval import argtypes, cli, paths
from sumeval.errors import InputError, NotebookFailed
from sumeval.running import runner, study_params

from helpers import FIXTURES  # tests/ is on the path

FIXTURE_NB = FIXTURES / "studies" / "tiny.ipynb"


def test_parse_overrides_types():
    assert argtypes.parse_overrides(["x=3", "scale=0.25", "flag=true", "name=abc", "xs=[1, 2]"]) == {
        "x": 3, "scale": 0.25, "flag": True, "name": "abc", "xs": [1, 2]}
    with pytest.raises(InputError, match="key=value"):
        argtypes.parse_overrides(["novalue"])
    # an empty value is the empty string (e.g. no paragraph sets), an explicit null stays None
    assert argtypes.parse_overrides(["sets=", "blank= ", "nothing=null"]) == {"sets": "", "blank": "", "nothing": None}


def test_unknown_parameter_is_an_error(fixture_studies):
    study = study_params.get_study("tiny")
    with pytest.raises(InputError) as err:
        study_params.resolve_parameters(study, "default", {"seeed": 1})
    msg = str(err.value)
    assert "'seeed'" in msg and "label" in msg and "scale" in msg  # names the bad one and the declared ones
    with pytest.raises(InputError, match="'y'"):
        study_params.resolve_parameters(study, "unknown")


def test_wrong_type_and_runner_owned_parameters(fixture_studies):
    study = study_params.get_study("tiny")
    with pytest.raises(InputError, match="must be int"):
        study_params.resolve_parameters(study, "badtype")
    with pytest.raises(InputError, match="set by the runner"):
        study_params.resolve_parameters(study, "default", {"interactive": True})
    assert study_params.resolve_parameters(study, "default", {"scale": 2}) == {"scale": 2, "interactive": False}


def test_unknown_study_and_parameter_set(fixture_studies):
    with pytest.raises(InputError, match="unknown study 'nope'.*tiny"):
        study_params.get_study("nope")
    with pytest.raises(InputError, match="no parameter set 'huge'.*smoke"):
        study_params.resolve_parameters(study_params.get_study("tiny"), "huge")


def test_run_writes_executed_results_manifest_and_figures(fixture_studies, tmp_path):
    res = runner.run_study("tiny", "smoke", {"label": "b"}, run_id="t1")
    assert res.ok and res.run_dir.name == "t1"
    assert (res.run_dir / "executed.ipynb").is_file()
    results = json.loads((res.run_dir / "results.json").read_text())
    assert results["results"] == {"x_times_scale": 1.0, "label": "b", "interactive": False}
    # context('tiny') recorded every declared parameter but the runner's own: the set's x, the -p label,
    # the parameters cell's defaults for the others
    assert results["params"] == {"x": 2, "scale": 0.5, "label": "b", "fail": False}
    manifest = json.loads((res.run_dir / "manifest.json").read_text())
    assert manifest["status"] == "ok"
    # every parameter of the run, the committed defaults included (issue 30), in the parameters cell's order
    assert manifest["parameters"] == {"x": 2, "scale": 0.5, "label": "b", "fail": False, "interactive": False}
    assert manifest["packages"]["sumeval"] and manifest["packages"]["numpy"]
    assert "commit" in manifest["git"] and manifest["duration_s"] > 0
    assert len(manifest["cell_durations_s"]) == 5  # 4 code cells + the one papermill injects
    figs = [p for p in manifest["figures"] if p.endswith((".pdf", ".png"))]  # the run's own copies
    assert sorted(figs) == [str(res.run_dir / "figures" / f"line.{s}") for s in ("pdf", "png")]
    published = manifest["published"]  # the successful run's copies under figures/<study>/
    assert published["folder"].endswith("/figures/tiny")
    assert sorted(Path(p).name for p in published["files"]) == ["line.pdf", "line.png"]


def test_failing_notebook_names_the_cell(fixture_studies):
    with pytest.raises(NotebookFailed) as err:
        runner.run_study("tiny", "default", {"fail": True, "x": 7}, run_id="t2")
    msg = str(err.value)
    assert "ValueError" in msg and "asked to fail with x=7" in msg and "if fail:" in msg
    manifest = json.loads((paths.runs_dir() / "tiny" / "t2" / "manifest.json").read_text())
    assert manifest["status"] == "failed" and "ValueError" in manifest["error"]


def test_cli_run_exit_status(fixture_studies, capsys):
    assert cli.main(["run", "tiny", "--params", "smoke", "-q"]) == 0
    assert cli.main(["run", "tiny", "-p", "fail=true", "-q"]) == 1
    err = capsys.readouterr().err
    assert "failed" in err and "asked to fail" in err
    assert cli.main(["run", "tiny", "-p", "nope=1", "-q"]) == 2
    assert "unknown parameter 'nope'" in capsys.readouterr().err


def test_cli_list(fixture_studies, capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "tiny" in out and "smoke" in out and "default" in out


def test_missing_kernel_is_explained(fixture_studies):
    with pytest.raises(InputError, match="kernel 'no-such-kernel' is not installed"):
        runner.run_study("tiny", "smoke", kernel="no-such-kernel")


def test_parameter_line_papermill_cannot_read_is_an_error(tmp_path, monkeypatch):
    import nbformat as nbf

    nb = nbf.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "sumeval", "display_name": "sumeval", "language": "python"}}
    nb.cells = [nbf.v4.new_code_cell("a: int = 1  # fine\nb: int = 0  # 0 = all (papermill drops this line)",
                                     metadata={"tags": ["parameters"]})]
    nbf.write(nb, tmp_path / "broken.ipynb")
    (tmp_path / "broken.params.yaml").write_text("default: {}\n")
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(tmp_path))
    with pytest.raises(InputError, match="cannot read parameter 'b'.*no '=' in the comment"):
        study_params.get_study("broken").declared_parameters()


def _copy_tiny(tmp_path, monkeypatch, params_yaml: str):
    import shutil

    folder = tmp_path / "nbs"
    folder.mkdir()
    shutil.copy(FIXTURE_NB, folder / "tiny.ipynb")
    (folder / "tiny.params.yaml").write_text(params_yaml, encoding="utf-8")
    monkeypatch.setenv("SUMEVAL_NOTEBOOKS", str(folder))
    return study_params.get_study("tiny")


def test_promised_figures_are_not_a_parameter_set(fixture_studies):
    study = study_params.get_study("tiny")
    assert study.promised_figures() == ["line"]
    assert "figures" not in study.parameter_sets()
    assert study.missing_figures(["/x/tiny/line.pdf", "/x/tiny/line.png"]) == []
    assert study.missing_figures(["/x/tiny/other.png"]) == ["line"]


def test_figure_patterns_match_names(tmp_path, monkeypatch):
    study = _copy_tiny(tmp_path, monkeypatch, "figures: ['table3_*_tau', fig1]\nsmoke: {x: 2}\n")
    assert study.missing_figures(["a/table3_sentence_tau.png", "a/fig1.pdf"]) == []
    assert study.missing_figures(["a/table3_sentence_acc.png", "a/fig10.pdf"]) == ["table3_*_tau", "fig1"]


def test_a_promised_figure_not_written_fails_the_run(tmp_path, monkeypatch):
    _copy_tiny(tmp_path, monkeypatch, "figures: [line, fig9_missing]\nsmoke: {x: 2}\n")
    with pytest.raises(NotebookFailed, match="promised figure.*fig9_missing.*tiny.params.yaml"):
        runner.run_study("tiny", "smoke", run_id="t-promise")
    manifest = json.loads((paths.runs_dir() / "tiny" / "t-promise" / "manifest.json").read_text())
    assert manifest["status"] == "failed" and "fig9_missing" in manifest["error"]
    assert "line" not in manifest["error"].split("figure(s)")[1].split("(")[0]  # the kept promise is not named


def test_bad_figures_list_is_explained(tmp_path, monkeypatch):
    study = _copy_tiny(tmp_path, monkeypatch, "figures: fig1\nsmoke: {x: 2}\n")
    with pytest.raises(InputError, match="'figures' must be a list of names"):
        study.promised_figures()


def test_a_promised_table_not_written_fails_the_run(tmp_path, monkeypatch):
    study = _copy_tiny(tmp_path, monkeypatch, "figures: [line]\ntables: [table1_*]\nsmoke: {x: 2}\n")
    assert "tables" not in study.parameter_sets() and study.promised("tables") == ["table1_*"]
    assert study.missing(["/r/tables/table1_rouge.csv"], "tables") == []
    with pytest.raises(NotebookFailed, match="promised table.*table1_\\*.*tiny.params.yaml"):
        runner.run_study("tiny", "smoke", run_id="t-table")
    manifest = json.loads((paths.runs_dir() / "tiny" / "t-table" / "manifest.json").read_text())
    assert manifest["status"] == "failed" and manifest["tables"] == []


def test_a_promise_the_run_declares_skipped_is_kept(tmp_path, monkeypatch):
    import nbformat as nbf

    study = _copy_tiny(tmp_path, monkeypatch, "figures: [line, fig9_*]\ntables: [agreement]\nsmoke: {x: 2}\n")
    nb = nbf.read(study.notebook, as_version=4)
    nb.cells[-1].source = ("ctx.skip(['fig9_*', 'agreement'], 'the data set has no annotators')\n"
                           + nb.cells[-1].source)
    nbf.write(nb, study.notebook)
    res = runner.run_study("tiny", "smoke", run_id="t-skip")
    manifest = json.loads((res.run_dir / "manifest.json").read_text())
    assert res.ok and manifest["skipped_outputs"] == {"fig9_*": "the data set has no annotators",
                                                      "agreement": "the data set has no annotators"}
    # a skip of another name does not excuse a promise
    nb.cells[-1].source = nb.cells[-1].source.replace("'agreement'", "'other'")
    nbf.write(nb, study.notebook)
    with pytest.raises(NotebookFailed, match="promised table.*agreement"):
        runner.run_study("tiny", "smoke", run_id="t-skip2")


def test_stale_tables_are_pruned_with_stale_figures(fixture_studies):
    from sumeval.paths import figures_dir

    folder = figures_dir() / "prune_tables"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("old_table.tex", "old_table.md", "old_table.csv", "old_table.html", "keep.csv", "keep.tex"):
        (folder / name).write_text("x")
    removed = runner.prune_stale_figures("prune_tables", [], [str(tmp := folder / "keep.csv")])
    assert sorted(p.name for p in removed) == ["old_table.csv", "old_table.html", "old_table.md", "old_table.tex"]
    assert tmp.exists() and (folder / "keep.tex").exists()


def test_run_keeps_its_figures_and_prunes_stale_ones(fixture_studies, tmp_path):
    from sumeval.paths import figures_dir
    from sumeval.running import publish

    (tmp_path / "from_another_set.png").write_bytes(b"old")
    publish.publish("tiny", [tmp_path / "from_another_set.png"])  # an earlier run's figure (recorded)
    stale = figures_dir() / "tiny" / "from_another_set.png"
    other = figures_dir() / "tiny" / "notes.txt"   # not a figure: left alone
    other.write_text("mine")
    mine = figures_dir() / "tiny" / "my_edit.png"  # a figure no run published (the user's): left alone
    mine.write_bytes(b"mine")
    res = runner.run_study("tiny", "smoke", run_id="t-prune")
    assert not stale.exists() and other.exists() and mine.read_bytes() == b"mine"
    assert (figures_dir() / "tiny" / "line.png").is_file()
    assert sorted(p.name for p in (res.run_dir / "figures").iterdir()) == ["line.pdf", "line.png"]
    assert (res.run_dir / "figures" / "line.png").read_bytes() == (figures_dir() / "tiny" / "line.png").read_bytes()


def test_failed_run_prunes_nothing(fixture_studies):
    from sumeval.paths import figures_dir

    keep = figures_dir() / "tiny" / "earlier.png"
    keep.parent.mkdir(parents=True, exist_ok=True)
    keep.write_bytes(b"old")
    with pytest.raises(NotebookFailed):
        runner.run_study("tiny", "default", {"fail": True}, run_id="t-noprune")
    assert keep.exists()


def test_run_without_params_says_which_set_and_how_long(tmp_path, monkeypatch, capsys):
    """Issue 35: without --params the `default` set runs (minutes to hours); the command says so on
    stderr before it starts, with the parameter file's minutes and the quick set. Given --params, it
    says nothing of the kind. (-p nope=1 stops each run before a kernel starts, after the note.)"""
    import shutil

    study = _copy_tiny(tmp_path, monkeypatch, "smoke: {x: 2}\ndefault: {}\nminutes:\n  default: 27\n")
    assert cli.main(["run", "tiny", "-p", "nope=1"]) == 2
    err = capsys.readouterr().err
    assert ("running tiny with the `default` parameter set (about 27 minutes on a 2-core CPU; "
            "--params smoke for a quick run)") in err
    assert err.index("running tiny") < err.index("unknown parameter 'nope'")  # before it starts
    assert cli.main(["run", "tiny", "--params", "default", "-p", "nope=1"]) == 2
    assert "running tiny" not in capsys.readouterr().err
    # `run all`: every study, the minutes summed; a study without minutes is counted as such
    shutil.copy(study.notebook, study.notebook.with_name("other.ipynb"))
    study.params_file.with_name("other.params.yaml").write_text("smoke: {x: 2}\ndefault: {nope: 1}\n")
    study.params_file.write_text("smoke: {x: 2}\ndefault: {nope: 1}\nminutes:\n  default: 100\n")
    assert cli.main(["run", "all", "-q"]) == 1  # both fail to resolve: no kernel starts
    err = capsys.readouterr().err
    assert ("running all 2 studies with the `default` parameter set (about 100 minutes (1.7 hours) one after "
            "another on a 2-core CPU; 1 of them states no time; --params smoke for a quick run)") in err
    assert cli.main(["run", "all", "--params", "default", "-q"]) == 1
    assert "running all" not in capsys.readouterr().err
