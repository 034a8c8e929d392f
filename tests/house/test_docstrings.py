"""The docstring rule of CONTRIBUTING ("Docstrings"): a function's or class's sections are Google's (``Args:``,
``Returns:``, ``Raises:``), never numpydoc's underlined headings. ruff's pydocstyle rules (pyproject.toml) hold the
rest of the form; this holds what ruff cannot see, since ``Parameters`` is no Google section name."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import sumeval

PACKAGE = Path(sumeval.__file__).parent
#: files a helper is editing elsewhere; each leaves this list when its docstrings are converted (issue 36)
WAITING: set[str] = set()
NUMPYDOC = re.compile(r"^\s*(Parameters|Returns|Yields|Raises|Attributes|Notes|Examples|See Also)\s*\n\s*-{3,}\s*$",
                      re.M)


def _numpydoc_sections(source: str) -> list[str]:
    """``name (line)`` of each function or class whose docstring has a numpydoc section."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and NUMPYDOC.search(doc):
                found.append(f"{node.name} (line {node.lineno})")
    return found


def test_the_check_finds_a_numpydoc_section():
    numpy_style = 'def f(x):\n    """Double.\n\n    Parameters\n    ----------\n    x : float\n    """\n'
    google = 'def f(x):\n    """Double.\n\n    Args:\n        x: a float.\n    """\n'
    module_heading = '"""A module.\n\nConventions\n-----------\n- one\n"""\n'  # a module's heading is prose
    assert _numpydoc_sections(numpy_style) == ["f (line 1)"]
    assert _numpydoc_sections(google) == [] and _numpydoc_sections(module_heading) == []


def test_functions_and_classes_use_google_sections():
    bad = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel not in WAITING:
            found = _numpydoc_sections(path.read_text(encoding="utf-8"))
            if found:
                bad[rel] = found
    assert not bad, f"numpydoc sections (write them as Google's Args: / Returns: / Raises:): {bad}"
    for rel in WAITING:
        source = (PACKAGE / rel).read_text(encoding="utf-8")
        assert _numpydoc_sections(source), f"{rel} is converted: drop it from WAITING"
