"""Whether a command shows progress bars (tqdm, on stderr): on by default when a person watches (stderr
is a terminal), off when its output goes to a pipe, a file or a CI log (sumeval issue 35: a long
``sumeval score`` built its index for minutes and printed nothing). ``--quiet`` turns them off;
``sumeval score --progress`` turns them on even when piped."""
from __future__ import annotations

import os
import sys

__all__ = ["show_progress"]


def show_progress(*, quiet: bool = False, forced: bool = False, stream=None) -> bool:
    """True when a command shows progress: never with ``quiet``; always when ``forced`` (``--progress``);
    else when ``stream`` (default stderr, where tqdm writes) is a terminal, ``$CI`` is unset and
    ``$TERM`` is not ``dumb`` (as :mod:`sumeval.running.executors` decides for runs)."""
    if quiet:
        return False
    if forced:
        return True
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        tty = False
    return tty and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"
