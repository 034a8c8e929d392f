"""Work in other processes and on Dask clusters: what a worker is handed and how a cluster is reached.

Shared by the executors of the studies (:mod:`sumeval.running.executors`: ``sumeval run all``,
``sumeval sweep``) and by scoring in shards (:mod:`sumeval.sharded`: ``sumeval score --scheduler``).
A worker may have been started elsewhere, so the driver hands it its resolved locations
(:func:`driver_env`); :func:`dask_client` connects to a scheduler with a message naming it.
"""
from __future__ import annotations

import os

from sumeval.errors import InputError

__all__ = ["FORWARDED_ENV", "driver_env", "dask_client"]

# environment the driver hands to every run (a Dask worker may have been started elsewhere)
FORWARDED_ENV = ("SUMEVAL_HOME", "SUMEVAL_DATA", "SUMEVAL_CACHE", "SUMEVAL_MODELS", "SUMEVAL_RUNS",
                 "SUMEVAL_FIGURES", "SUMEVAL_NOTEBOOKS", "SUMEVAL_KERNEL", "MPLBACKEND")


def driver_env() -> dict[str, str]:
    """The locations of this process (resolved), handed to every run so that workers agree."""
    from sumeval import paths

    env = {k: os.environ[k] for k in FORWARDED_ENV if os.environ.get(k)}
    env.update(SUMEVAL_HOME=str(paths.project_root()), SUMEVAL_RUNS=str(paths.runs_dir()),
               SUMEVAL_FIGURES=str(paths.figures_dir()), SUMEVAL_CACHE=str(paths.cache_dir()),
               SUMEVAL_NOTEBOOKS=str(paths.notebooks_dir()), SUMEVAL_MODELS=str(paths.models_dir()))
    return env


def dask_client(address: str, timeout_s: float = 30):
    """A ``distributed.Client`` of the scheduler at ``address`` (``--scheduler``), not made the
    default client; InputError naming the address when dask distributed is missing or the
    scheduler cannot be reached within ``timeout_s`` seconds."""
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover
        raise InputError("--scheduler needs dask distributed: pip install 'dask[distributed]'") from exc
    try:
        return Client(address, timeout=timeout_s, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address!r} ({exc}); "
                         "start one (dask scheduler) or drop --scheduler to run locally") from None
