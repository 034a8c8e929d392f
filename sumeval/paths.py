"""Where data, caches, models, runs and figures live.

Every location can be overridden by an environment variable; none depends on the current
working directory once the project root is known.

================  =========================  ===============================================
location          environment variable       default
================  =========================  ===============================================
project root      ``SUMEVAL_HOME``           the checkout that holds this package, else cwd
data search path  ``SUMEVAL_DATA``           ``<root>/data``, then ``<root>/../shared/data``
cache             ``SUMEVAL_CACHE``          ``<root>/cache``
models            ``SUMEVAL_MODELS``         ``<root>/models``
runs              ``SUMEVAL_RUNS``           ``<root>/runs``
figures           ``SUMEVAL_FIGURES``        ``<root>/figures``
notebooks         ``SUMEVAL_NOTEBOOKS``      ``<root>/notebooks``
user data sets    ``SUMEVAL_DATA_REGISTRY``  ``<root>/data/user_datasets.json``
================  =========================  ===============================================

The user data sets file is the registry that ``sumeval data add NAME PATH`` writes (one JSON
object: name -> absolute path, format, sha256, column roles); ``data/`` is git-ignored, so the
registry stays on the machine whose files it names.
"""
from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def project_root() -> Path:
    """The project root: ``$SUMEVAL_HOME``, the source checkout, or the working directory."""
    env = os.environ.get("SUMEVAL_HOME")
    if env:
        return Path(env).expanduser().resolve()
    checkout = _PACKAGE_DIR.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "notebooks").is_dir():
        return checkout
    return Path.cwd()


def _from_env(name: str, default: Path) -> Path:
    value = os.environ.get(name)
    return Path(value).expanduser().resolve() if value else default


def data_search_path() -> list[Path]:
    """Folders searched for data, in order: ``$SUMEVAL_DATA``, ``<root>/data``, ``<root>/../shared/data``."""
    root = project_root()
    places: list[Path] = []
    env = os.environ.get("SUMEVAL_DATA")
    if env:
        places.extend(Path(p).expanduser().resolve() for p in env.split(os.pathsep) if p)
    places.append(root / "data")
    places.append((root.parent / "shared" / "data").resolve())
    return places


def cache_dir() -> Path:
    return _from_env("SUMEVAL_CACHE", project_root() / "cache")


def models_dir() -> Path:
    return _from_env("SUMEVAL_MODELS", project_root() / "models")


def runs_dir() -> Path:
    return _from_env("SUMEVAL_RUNS", project_root() / "runs")


def figures_dir() -> Path:
    return _from_env("SUMEVAL_FIGURES", project_root() / "figures")


def notebooks_dir() -> Path:
    return _from_env("SUMEVAL_NOTEBOOKS", project_root() / "notebooks")


def user_datasets_file() -> Path:
    """The registry of a user's judgments files: ``$SUMEVAL_DATA_REGISTRY`` or
    ``<root>/data/user_datasets.json``."""
    return _from_env("SUMEVAL_DATA_REGISTRY", project_root() / "data" / "user_datasets.json")
