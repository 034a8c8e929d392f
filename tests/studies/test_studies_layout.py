"""The studies folder shows the studies: one module per study notebook directly in
``sumeval/studies/`` and the modules they are built from in ``sumeval/studies/common/``; no study
module (nor a shared one, nor a notebook) imports another study's module."""
from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest

import sumeval.studies
import sumeval.studies.common
from sumeval.paths import project_root

STUDIES_DIR = Path(sumeval.studies.__file__).parent
COMMON_DIR = Path(sumeval.studies.common.__file__).parent
NOTEBOOKS_DIR = project_root() / "notebooks"
STUDY_MODULES = sorted(p.stem for p in STUDIES_DIR.glob("*.py") if p.stem != "__init__")
COMMON_MODULES = sorted(p.stem for p in COMMON_DIR.glob("*.py") if p.stem != "__init__")
NOTEBOOKS = sorted(p.stem for p in NOTEBOOKS_DIR.glob("*.ipynb"))


def studies_imported(source: str, studies, *, package: str = "sumeval.studies") -> set[str]:
    """The study modules (names in ``studies``) that ``source`` imports, at any depth (imports
    inside functions too), absolute or relative (``package``: the package ``source`` lives in)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["sumeval", "studies"] and len(parts) > 2 and parts[2] in studies:
                found.add(parts[2])
    return found


def test_the_checker_sees_every_form_of_import():
    studies = {"shelf", "metric_correlations"}
    assert studies_imported("from sumeval.studies import shelf\n", studies) == {"shelf"}
    assert studies_imported("import sumeval.studies.shelf as s\n", studies) == {"shelf"}
    assert studies_imported("def f():\n    from sumeval.studies.metric_correlations import row_notes\n",
                            studies) == {"metric_correlations"}
    assert studies_imported("from . import shelf\n", studies) == {"shelf"}
    assert studies_imported("from ..shelf import evaluate\n", studies, package="sumeval.studies.common") == {"shelf"}
    assert studies_imported("from sumeval.studies.common import study_data\nfrom sumeval import studies\n"
                            "from sumeval.studies.common.baseline_rows import Row\n", studies) == set()


def test_every_study_module_has_its_notebook_and_every_notebook_its_module():
    assert STUDY_MODULES, "no study module found"
    assert set(STUDY_MODULES) - set(NOTEBOOKS) == set(), (
        "a module directly in sumeval/studies/ without notebooks/<name>.ipynb is not a study: "
        "move it to sumeval/studies/common/")
    assert set(NOTEBOOKS) - set(STUDY_MODULES) == set(), "a notebook without its study module sumeval/studies/<name>.py"


def test_the_packages_list_their_modules():
    assert sorted(sumeval.studies.__all__) == STUDY_MODULES
    assert sorted(sumeval.studies.common.__all__) == COMMON_MODULES
    assert not set(STUDY_MODULES) & set(COMMON_MODULES)


@pytest.mark.parametrize("name", STUDY_MODULES)
def test_a_study_module_imports_no_other_study(name: str):
    source = (STUDIES_DIR / f"{name}.py").read_text(encoding="utf-8")
    others = studies_imported(source, set(STUDY_MODULES) - {name})
    assert not others, (f"sumeval/studies/{name}.py imports the study module(s) {sorted(others)}: move what they "
                        "share into sumeval/studies/common/")


@pytest.mark.parametrize("name", COMMON_MODULES)
def test_a_shared_module_imports_no_study(name: str):
    source = (COMMON_DIR / f"{name}.py").read_text(encoding="utf-8")
    found = studies_imported(source, set(STUDY_MODULES), package="sumeval.studies.common")
    assert not found, f"sumeval/studies/common/{name}.py imports the study module(s) {sorted(found)}"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_notebook_imports_only_its_own_study_module(name: str):
    nb = json.loads((NOTEBOOKS_DIR / f"{name}.ipynb").read_text(encoding="utf-8"))
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    others = studies_imported(source, set(STUDY_MODULES) - {name})
    assert not others, f"notebooks/{name}.ipynb imports the study module(s) {sorted(others)}"


@pytest.mark.parametrize("module", [f"sumeval.studies.{m}" for m in STUDY_MODULES]
                         + [f"sumeval.studies.common.{m}" for m in COMMON_MODULES])
def test_every_module_names_what_it_offers(module: str):
    mod = importlib.import_module(module)
    assert isinstance(getattr(mod, "__all__", None), list) and mod.__all__, f"{module} needs __all__"
    missing = [n for n in mod.__all__ if not hasattr(mod, n)]
    assert not missing, f"{module}.__all__ names what it does not have: {missing}"


def missing_names(source: str) -> list[str]:
    """``module.name`` and ``from module import name`` of the sumeval modules that ``source``
    (a notebook's code) reaches and that do not exist (a name left behind by a move)."""
    tree = ast.parse(source)
    aliases, missing = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("sumeval") and a.asname:
                    aliases[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sumeval") and not node.level:
            mod = importlib.import_module(node.module)
            for a in node.names:
                if hasattr(mod, a.name):
                    if isinstance(getattr(mod, a.name), type(mod)):
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
                    continue
                try:
                    importlib.import_module(f"{node.module}.{a.name}")
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
                except ModuleNotFoundError:
                    missing.append(f"{node.module}.{a.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            if not hasattr(importlib.import_module(aliases[node.value.id]), node.attr):
                missing.append(f"{aliases[node.value.id]}.{node.attr}")
    return sorted(set(missing))


def test_the_name_checker_finds_a_name_left_behind():
    assert missing_names("from sumeval.studies.common import ordering_runs\nordering_runs.parse_list('a')\n") == []
    assert missing_names("from sumeval.studies.common import ordering_runs as oc\noc.paper_table3a()\n") == [
        "sumeval.studies.common.ordering_runs.paper_table3a"]
    assert missing_names("from sumeval.studies.metric_correlations import table2\n") == [
        "sumeval.studies.metric_correlations.table2"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_name_a_notebook_reaches_exists(name: str):
    nb = json.loads((NOTEBOOKS_DIR / f"{name}.ipynb").read_text(encoding="utf-8"))
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert missing_names(source) == [], f"notebooks/{name}.ipynb reaches names that do not exist"
