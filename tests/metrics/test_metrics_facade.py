"""``sumeval.metrics`` is a face: its names are defined in its submodules (the interface in
``base``, the registry in ``registry``, the scoring of records in ``records``), and the modules
inside the package import from those, never from the package itself (issue 18)."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from sumeval import metrics

PACKAGE = Path(metrics.__file__).parent


def _defining_module(name: str):
    """The submodule of ``sumeval.metrics`` whose ``__all__`` lists ``name`` and holds the very object
    the face hands out."""
    obj = getattr(metrics, name)
    for sub in ("base", "registry", "records"):
        module = importlib.import_module(f"sumeval.metrics.{sub}")
        if name in getattr(module, "__all__", ()) and getattr(module, name, None) is obj:
            return module
    return None


@pytest.mark.parametrize("name", metrics.__all__)
def test_every_public_name_is_defined_in_a_submodule(name):
    obj = getattr(metrics, name)
    if hasattr(obj, "__module__") and not isinstance(obj, str):
        assert obj.__module__ != "sumeval.metrics", f"{name} is defined in the package's __init__.py"
    module = _defining_module(name)
    assert module is not None, f"{name} is not a public name of base, registry or records"


def test_the_face_holds_imports_and_all_only():
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    body = tree.body[1:] if isinstance(tree.body[0], ast.Expr) else tree.body  # the docstring
    kinds = {type(node).__name__ for node in body}
    assert kinds <= {"ImportFrom", "Assign"}, f"__init__.py holds {sorted(kinds)}"
    assigned = [t.id for node in body if isinstance(node, ast.Assign) for t in node.targets]
    assert assigned == ["__all__"]
    imported = {a.asname or a.name for node in body if isinstance(node, ast.ImportFrom) for a in node.names}
    assert imported == set(metrics.__all__)  # nothing imported that is not on the face, nothing on it not imported


@pytest.mark.parametrize("module", sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"))
def test_no_module_of_the_package_imports_the_package_itself(module):
    """``from sumeval.metrics import X`` or ``from sumeval import metrics`` inside the package would
    import the face, which imports the package's modules: a circle."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "sumeval.metrics":
            bad.append(f"line {node.lineno}: from sumeval.metrics import {', '.join(a.name for a in node.names)}")
        if isinstance(node, ast.ImportFrom) and node.module == "sumeval" \
                and any(a.name == "metrics" for a in node.names):
            bad.append(f"line {node.lineno}: from sumeval import metrics")
        if isinstance(node, ast.Import) and any(a.name == "sumeval.metrics" for a in node.names):
            bad.append(f"line {node.lineno}: import sumeval.metrics")
    assert not bad, f"sumeval/metrics/{module}.py imports the package's face: {bad}"


def test_registered_scorer_classes_are_imported_in_one_place():
    """Only the registry imports a registered ``module:Class`` target (``registered_class``); a user's
    class by path is imported by ``user_scorers.load_scorer_class`` (with --module-path and its checks)."""
    importers = sorted(p.stem for p in PACKAGE.glob("*.py") if "import_module(" in p.read_text(encoding="utf-8"))
    assert importers == ["registry", "user_scorers"]
    info, cls = metrics.registered_class("ROUGE-2")
    assert (info.name, cls.__name__) == ("rouge-2", "RougeScorer")
    assert metrics.registered_class("no-such-measure") == (None, None)
