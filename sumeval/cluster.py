"""Work in other processes and on Dask clusters: what a worker is handed and how a cluster is reached.

Shared by the executors of the studies (:mod:`sumeval.running.executors`: ``sumeval run all``,
``sumeval sweep``) and by scoring in shards (:mod:`sumeval.sharded`: ``sumeval score --scheduler``).
A worker may have been started elsewhere, so the driver hands it its resolved locations
(:func:`driver_env`); :func:`dask_client` connects to a scheduler with a message naming it.
"""
from __future__ import annotations

import os
import re

from sumeval.errors import InputError

__all__ = ["FORWARDED_ENV", "REMOTE_SCHEMES", "check_scheduler_address", "driver_env", "dask_client"]

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


#: address schemes of dask's comms that reach a scheduler in another process
#: (``distributed.comm.registry``); ``inproc://`` reaches only one inside this very process
REMOTE_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def check_scheduler_address(address: str | None, *, what: str = "--scheduler") -> str:
    """``address`` when it has the form of a Dask scheduler's address, ``scheme://host:port`` (as
    ``dask scheduler`` prints it: ``tcp://10.0.0.5:8786``, ``tls://...`` for a TLS cluster; a bare
    ``host:port`` is tcp, as dask reads it), else InputError naming it and the fix; for ``tls://``
    dask's configuration must give this client's certificate (:func:`_check_tls_settings`). Nothing
    is contacted: an unreachable scheduler is :func:`dask_client`'s error."""
    example = "e.g. tcp://10.0.0.5:8786, as `dask scheduler` prints it"
    if address is None or not address.strip():
        raise InputError(f"{what} {address!r} is empty: give the address of the Dask scheduler ({example}), "
                         f"or drop {what} to run on this machine")
    scheme, sep, loc = address.rpartition("://")
    scheme = scheme if sep else "tcp"
    if scheme in ("http", "https"):
        raise InputError(f"{what} {address!r} is a web address (the dashboard's, port 8787?); give the "
                         f"scheduler's own address, {example} (tls://... for a TLS cluster)")
    if scheme == "inproc":
        raise InputError(f"{what} {address!r}: an inproc:// scheduler is reachable only inside the Python "
                         f"process that started it; give a tcp:// or tls:// address, {example}")
    if scheme not in REMOTE_SCHEMES:
        raise InputError(f"{what} {address!r}: unknown address scheme {scheme!r} (Dask knows "
                         f"{', '.join(s + '://' for s in REMOTE_SCHEMES)}); {example}")
    if not _host_port(loc):
        raise InputError(f"{what} {address!r} is not a scheduler address: give {scheme}://HOST:PORT ({example}; "
                         "an IPv6 host in brackets: tcp://[::1]:8786)")
    if scheme == "tls":
        _check_tls_settings(address, what)
    return address


def _host_port(loc: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT`` (an IPv6 host in brackets), or None."""
    m = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\]:(\d{1,5})|([^\s:/\[\]]+):(\d{1,5})", loc)
    if not m:
        return None
    host, port = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return (host, int(port)) if 0 < int(port) < 65536 else None


def _check_tls_settings(address: str, what: str = "--scheduler") -> None:
    """InputError naming the missing settings when dask's configuration lacks the CA file or the
    client certificate that a ``tls://`` scheduler asks of every client (dask builds no TLS context
    without both, and would fail with a TypeError)."""
    import dask

    if dask.config.get("distributed.client.security-loader", None):
        return  # the user's loader gives the certificates
    from distributed.security import Security

    sec = Security()
    missing = [(key, env) for value, key, env in (
        (sec.tls_ca_file, "distributed.comm.tls.ca-file", "DASK_DISTRIBUTED__COMM__TLS__CA_FILE"),
        (sec.tls_client_cert, "distributed.comm.tls.client.cert", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT"))
        if not value]
    if missing:
        raise InputError(f"{what} {address!r} is a TLS scheduler, and dask's configuration here has no "
                         f"{' and no '.join(k for k, _ in missing)}: set {' and '.join(e for _, e in missing)} "
                         "(and DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY when the key is not in the certificate "
                         "file) to this client's files, signed by the cluster's CA (README: Score on a cluster)")


def dask_client(address: str, timeout_s: float = 10):
    """A ``distributed.Client`` of the scheduler at ``address`` (``--scheduler``), not made the
    default client; InputError naming the address when it has not the form of one
    (:func:`check_scheduler_address`), when dask distributed is missing, or when the scheduler
    cannot be reached: at once when nothing listens at its host and port (connection refused, an
    unknown host), else after ``timeout_s`` seconds.

    A ``tls://`` scheduler is reached with the certificates of dask's configuration
    (``distributed.comm.tls.ca-file`` and ``distributed.comm.tls.client.cert`` / ``.key``, e.g. from
    the environment variables ``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``,
    ``DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT`` and ``DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY``).
    A client that fails to connect is closed here, at once (left to the garbage collector, it
    would wait 2 x ``timeout_s`` at exit and end in a ``Client.__del__`` traceback)."""
    import socket

    check_scheduler_address(address)
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover
        raise InputError("--scheduler needs dask distributed: pip install 'dask[distributed]'") from exc

    def unreachable(why: str) -> InputError:
        return InputError(f"cannot reach the Dask scheduler at {address!r} ({why}); start one (dask scheduler) "
                          "or drop --scheduler to run locally")

    scheme, _, loc = address.rpartition("://")
    if scheme != "ucx":  # over TCP: nothing listening is known at once, with no need to wait
        host, port = _host_port(loc)
        try:
            socket.create_connection((host, port), timeout=timeout_s).close()
        except OSError as exc:
            raise unreachable(f"{type(exc).__name__}: {exc.strerror or exc}") from None
    _handshake(address, timeout_s, unreachable)

    class _Client(Client):
        def start(self, **kwargs):
            try:
                super().start(**kwargs)
            except BaseException:
                self.close(timeout=min(timeout_s, 5))
                raise

    try:
        return _Client(address, timeout=timeout_s, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise unreachable(f"no answer within {timeout_s:g} s: {type(exc).__name__}: {exc}") from None


def _handshake(address: str, timeout_s: float, unreachable) -> None:
    """Exchange dask's handshake with ``address`` within ``timeout_s`` seconds, else raise
    ``unreachable(why)``: something else listening there (the dashboard's web server, ssh) would
    keep dask's own handshake waiting for ever, or make it read a garbage frame length."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect
    from distributed.security import Security

    args = Security().get_connection_args("client")

    async def shake():
        comm = await asyncio.wait_for(connect(address, timeout=timeout_s, **args), timeout_s)
        await comm.close()

    with ThreadPoolExecutor(1) as pool:  # a loop of its own (this thread may run one: Jupyter)
        try:
            pool.submit(asyncio.run, shake()).result()
        except (asyncio.TimeoutError, TimeoutError):
            raise unreachable(f"it takes connections but gave no Dask handshake within {timeout_s:g} s: is this "
                              "the scheduler's port (8786 unless set; 8787 is its dashboard)?") from None
        except Exception as exc:  # noqa: BLE001 - any answer that is not dask's
            raise unreachable(f"it answered, but not as a Dask scheduler: {type(exc).__name__}: "
                              f"{str(exc)[:200]}") from None
