"""What a path to read is when it is not a regular file: said before anything opens it.

Opening a named pipe (FIFO) with no writer blocks forever, and a device such as ``/dev/zero``
never ends; both used to be reported as "does not exist" (``Path.is_file`` is False for them) or
read until memory ran out. :func:`special_kind` names what the path is (following symbolic
links), so that readers refuse it in words the user can act on.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

__all__ = ["special_kind", "describe_special", "is_descriptor_path"]

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISSOCK, "a socket"))


def special_kind(path: str | os.PathLike[str]) -> str | None:
    """``"a folder"``, ``"a character device"``, ``"a block device"``, ``"a named pipe (FIFO)"``,
    ``"a socket"`` (or ``"not a regular file"``) for what ``path`` is, following symbolic links;
    None for a regular file or a path that does not exist (the caller says that)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def describe_special(path: str | os.PathLike[str], kind: str) -> str:
    """``'PATH' is KIND`` with the link's target when ``path`` is a symbolic link."""
    p = Path(path)
    link = f" (a symbolic link to {os.path.realpath(p)!r})" if p.is_symlink() else ""
    return f"{str(p)!r}{link} is {kind}"


_DESCRIPTOR = re.compile(r"^/(dev/(stdin|fd/\d+)|proc/(self|\d+)/fd/\d+)\Z")  # \Z: "$" allows a trailing newline


def is_descriptor_path(path: str | os.PathLike[str]) -> bool:
    """True for a path naming an open file descriptor (``/dev/stdin``, ``/dev/fd/N``,
    ``/proc/self/fd/N``: standard input, ``<(command)``): a stream already being written."""
    return bool(_DESCRIPTOR.match(os.path.abspath(os.fspath(path))))
