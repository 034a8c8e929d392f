"""Every study notebook: committed without outputs, typed parameters, smoke and default sets,
and a smoke run through the runner that writes results and figures."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sumeval.paths import project_root
from sumeval.running import study_params

NOTEBOOKS = sorted((project_root() / "notebooks").glob("*.ipynb"))
STUDIES = [nb.stem for nb in NOTEBOOKS]


def test_there_are_studies():
    assert "metric_correlations" in STUDIES


@pytest.mark.parametrize("path", NOTEBOOKS, ids=STUDIES)
def test_committed_without_outputs(path: Path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    dirty = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
             and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: code cells {dirty} have outputs or execution counts; strip them"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=STUDIES)
def test_parameters_cell_and_sets(path: Path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, f"{path.name}: needs exactly one cell tagged 'parameters'"
    study = study_params.get_study(path.stem)
    declared = study.declared_parameters()
    assert "interactive" in declared, "every study ends with an explorer behind `interactive`"
    for name, info in declared.items():
        assert info["inferred_type_name"] != "None", f"{path.name}: parameter {name} needs a type hint"
        assert info["help"], f"{path.name}: parameter {name} needs a comment saying what it is"
    sets = study.parameter_sets()
    assert {"smoke", "default"} <= set(sets)
    for set_name in sets:
        study_params.resolve_parameters(study, set_name)  # every name declared, every type right


@pytest.mark.parametrize("path", NOTEBOOKS, ids=STUDIES)
def test_cells_call_the_package(path: Path):
    """A notebook holds calls, not logic (CONTRIBUTING, Studies): no def, class, lambda or
    __import__ in a cell, and run_context.context(study) without a parameter list of its own (it
    records the notebook's parameters itself)."""
    import ast

    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                found.append(f"cell {i} line {node.lineno}: {type(node).__name__}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
                found.append(f"cell {i} line {node.lineno}: __import__")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "context"
                  and (node.keywords or len(node.args) != 1)):
                found.append(f"cell {i} line {node.lineno}: context() given more than the study's name")
    assert not found, f"{path.name}: move this into sumeval.studies.{path.stem}: {'; '.join(found)}"


@pytest.fixture(scope="module")
def smoke_batch():
    """`sumeval run all --params smoke --jobs auto`, once for this module: every study through the runner.

    ``--jobs auto`` (one run per core, as many as the memory holds, the cores split between them) so
    that the batch takes both cores of a 2-core CI machine: a study's kernel start, data loading and
    tables are single-threaded Python, which a second run beside it overlaps (the runs' torch work
    gets one thread each instead of two, so it takes the same core time either way)."""
    from sumeval.running import executors, run_all

    return run_all.run_all("smoke", jobs=executors.auto_jobs(), quiet=True)


def test_run_all_smoke_writes_the_report(smoke_batch):
    assert smoke_batch.report.is_file() and smoke_batch.report.name == "index.html"
    page = smoke_batch.report.read_text(encoding="utf-8")
    for name in STUDIES:
        assert name in page, f"the run report does not mention {name}"
    assert smoke_batch.ok, "; ".join(f"{o.study}: {o.error}" for o in smoke_batch.outcomes if not o.ok)


@pytest.mark.parametrize("name", STUDIES)
def test_smoke_run_through_the_runner(name: str, smoke_batch):
    res = {o.study: o for o in smoke_batch.outcomes}[name]
    assert res.ok, res.error
    manifest = json.loads((Path(res.run_dir) / "manifest.json").read_text())
    assert manifest["status"] == "ok" and manifest["parameter_set"] == "smoke"
    assert manifest["figures"], f"{name}: the smoke run wrote no figure"
    for fig in manifest["figures"]:
        assert Path(fig).is_file() and Path(fig).stat().st_size > 0
    assert manifest["data_files"], f"{name}: the manifest records no data checksums"
    assert res.results, f"{name}: empty results.json"


def test_every_table_the_smoke_studies_write_is_paper_ready(smoke_batch):
    """Each .tex of every smoke run (the studies' tables and meta_evaluation's meta-eval folder)
    names booktabs, has one label, balanced braces, the booktabs rules and as many cells per row as
    columns; no two tables of the batch share a label; with pdflatex installed
    (scripts/install_latex.sh) each typesets in a minimal document."""
    import re

    from sumeval import latex

    written = sorted(p for o in smoke_batch.outcomes if o.run_dir for p in Path(o.run_dir).rglob("*.tex"))
    assert {p.parent.name for p in written} >= {"tables", "meta-eval"}, written
    labels = []
    for path in written:
        tex = path.read_text(encoding="utf-8")
        assert latex.check_table(tex) == [], path
        labels += re.findall(r"\\label\{([^}]*)\}", tex)
    assert len(labels) == len(set(labels)) == len(written), sorted(labels)
    if latex.engine():
        assert latex.compile_tables(written) == {}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=STUDIES)
def test_list_reads_the_parameters_a_run_reads(path: Path):
    """``sumeval list`` reads the parameters cell cheaply (JSON and ``ast``, no nbformat or papermill);
    a run reads it with papermill's translator. Both give the same names, in order, and the same
    default values."""
    import ast

    study = study_params.get_study(path.stem)
    listed, declared = study.listed_parameters(), study.declared_parameters()
    assert list(listed) == list(declared)
    for name, info in declared.items():
        assert ast.literal_eval(listed[name]) == ast.literal_eval(info["default"]), name
