"""sumeval: a research workbench for evaluating summaries and text coherence.

The package computes; notebooks under ``notebooks/`` ask questions of it. Nothing heavy is
imported here: subpackages (``sumeval.metrics``, ``sumeval.stats``, ``sumeval.datasets`` ...)
are imported by the caller when needed.
"""
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

try:
    __version__ = _version("sumeval")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+unknown"

from sumeval.errors import SumevalError  # noqa: E402  (light: no third-party imports)

__all__ = ["__version__", "SumevalError"]
