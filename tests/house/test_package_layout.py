"""The floors of the package (CONTRIBUTING.md, "Layout and ownership of layers"): the command line
(``sumeval/cli/``) is the top floor and no module outside it imports it; the notebook-running wing
(``sumeval/running/``) is imported only by the command line and by itself; the package root holds
only ground modules, which import neither of them nor the study modules. Read from the source with
``ast`` (every import, at the top or inside a function), nothing is imported."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import sumeval

PACKAGE = Path(sumeval.__file__).parent

#: the modules at the package root: ground modules that the layers use (paths, errors, caching,
#: hashing, run state, tables and figures, text, argparse types, ...), the packaged models, scoring
#: in shards, and the notebooks' explorers. A module that runs notebooks goes into running/, a
#: command into cli/.
ROOT_MODULES = {"__init__", "argtypes", "cache", "cluster", "display_names", "errors", "file_kinds", "figures",
                "hashing", "jsonl", "latex", "models", "paths", "published", "runstate", "sharded", "table_frames",
                "tables", "text", "widgets"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports_of(source: str, package: str) -> set[str]:
    """Every module ``source`` (a module of ``package``) imports: ``import a.b`` -> a.b;
    ``from a import b`` -> a and a.b (b may be a module); relative imports resolved against ``package``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = parts[: len(parts) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _imports(path: Path) -> set[str]:
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return _imports_of(path.read_text(encoding="utf-8"), package)


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _reaches(imported: set[str], package: str) -> list[str]:
    return sorted(m for m in imported if m == package or m.startswith(package + "."))


def test_the_import_reader_sees_every_form():
    source = ("import sumeval.cli\nfrom sumeval import paths\nfrom . import runner\nfrom .. import errors\n"
              "def f():\n    from sumeval.cli.run import cmd_run\n")
    seen = _imports_of(source, "sumeval.running")
    assert seen == {"sumeval.cli", "sumeval", "sumeval.paths", "sumeval.running", "sumeval.running.runner",
                    "sumeval.errors", "sumeval.cli.run", "sumeval.cli.run.cmd_run"}
    assert _reaches(seen, "sumeval.cli") == ["sumeval.cli", "sumeval.cli.run", "sumeval.cli.run.cmd_run"]
    assert _reaches(seen, "sumeval.run") == []  # a prefix of a name is not the package


def _importers(package: str, paths: list[Path]) -> dict[str, list[str]]:
    """``{file: what of package it imports}`` of the files in ``paths`` that import ``package``."""
    hits = {str(p.relative_to(PACKAGE.parent)): _reaches(_imports(p), package) for p in paths}
    return {k: v for k, v in hits.items() if v}


def _outside(*folders: str) -> list[Path]:
    return [p for p in _sources() if not any(p.is_relative_to(PACKAGE / f) for f in folders)]


def test_only_the_command_line_imports_the_command_line():
    offenders = _importers("sumeval.cli", _outside("cli"))
    assert offenders == {}, f"modules outside sumeval/cli/ import the command line (the top floor): {offenders}"


def test_only_the_command_line_and_the_wing_import_running():
    offenders = _importers("sumeval.running", _outside("cli", "running"))
    assert offenders == {}, f"modules below sumeval/running/ import it: {offenders}"


def test_running_reaches_the_study_modules_only_by_name():
    """The runner executes notebooks; a study module is loaded by name (importlib), never imported."""
    assert _importers("sumeval.studies", sorted((PACKAGE / "running").glob("*.py"))) == {}


def test_the_package_root_holds_only_ground_modules():
    root = {p.stem for p in PACKAGE.glob("*.py")}
    assert root == ROOT_MODULES, (f"new at the root: {sorted(root - ROOT_MODULES)}; gone: {sorted(ROOT_MODULES - root)}"
                                  " - a module that runs notebooks goes into sumeval/running/, a command into "
                                  "sumeval/cli/; a ground module is added to ROOT_MODULES here")
    ground = [PACKAGE / f"{name}.py" for name in sorted(ROOT_MODULES)]
    upward = {pkg: _importers(pkg, ground) for pkg in ("sumeval.cli", "sumeval.running", "sumeval.studies")}
    assert upward == {"sumeval.cli": {}, "sumeval.running": {}, "sumeval.studies": {}}, \
        f"root modules importing a floor above them: {upward}"


def test_the_command_runs_as_a_module_and_as_the_console_script_names_it():
    import tomllib

    script = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]["scripts"]["sumeval"]
    module, _, function = script.partition(":")
    assert (module, function) == ("sumeval.cli", "main")
    from sumeval.cli import main

    assert callable(main)
    done = subprocess.run([sys.executable, "-m", "sumeval.cli", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == f"sumeval {sumeval.__version__}", done.stderr


def _private_imports(source: str, package: str) -> list[str]:
    """The ``module.name`` of every private name (one leading underscore) that ``source`` (a module of
    ``package``) imports from a sumeval module: ``from sumeval.x import _y`` or ``from .x import _y``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
        if base == "sumeval" or base.startswith("sumeval."):
            found += [f"{base}.{a.name}" for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return found


def test_the_private_import_reader_sees_every_form():
    source = ("from sumeval.meta_eval.output import _Stage, check_out_dir\nfrom .output import _dead\n"
              "from sumeval import __version__\nfrom os import _exit\n"
              "def f():\n    from sumeval.runstate import _flock_now as flock\n")
    assert _private_imports(source, "sumeval.meta_eval") == [
        "sumeval.meta_eval.output._Stage", "sumeval.meta_eval.output._dead", "sumeval.runstate._flock_now"]


def test_no_module_imports_another_modules_private_names():
    """A name with a leading underscore belongs to its module; what two modules share gets a public
    name in one of them (the meta-eval writers share sumeval/meta_eval/staging.py)."""
    offenders = {}
    for path in _sources():
        name = _module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        hits = [h for h in _private_imports(path.read_text(encoding="utf-8"), package)
                if h.rpartition(".")[0] != name]
        if hits:
            offenders[str(path.relative_to(PACKAGE.parent))] = hits
    assert offenders == {}, f"modules importing another module's private names: {offenders}"
