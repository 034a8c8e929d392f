"""Reading JSONL with errors that name the file and the line."""
from __future__ import annotations

import contextlib
import gzip
import json
import os
import zlib
from pathlib import Path
from typing import IO, Any, Iterator, Sequence

from sumeval.errors import InputError
from sumeval.file_kinds import is_descriptor_path, special_kind

_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"


def json_error_text(exc: json.JSONDecodeError) -> str:
    """``"Expecting value at column 5"`` from a JSONDecodeError (whose message may already end in
    ``at``, as ``"Unterminated string starting at"`` does)."""
    msg = exc.msg.rstrip()
    return f"{msg} column {exc.colno}" if msg.endswith(" at") else f"{msg} at column {exc.colno}"


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


#: seconds a named pipe (FIFO) is waited on for a writer and its first bytes (``sumeval score --pipe-wait``)
PIPE_WAIT_S = 30.0


def _open_named_pipe(path: Path, wait: float) -> IO[bytes]:
    """The FIFO ``path`` opened for reading without hanging when nobody writes to it.

    A plain ``open()`` of a FIFO blocks until a writer opens it, with no way out. Here it is opened
    non-blocking (that returns at once), then ``poll`` waits at most ``wait`` seconds until there is
    data to read or a writer has come and gone (POLLIN / POLLHUP; on Linux a FIFO with no writer yet
    reports neither); one line on stderr says so when nothing is there at once. The descriptor is
    then switched to blocking and read as it is: never reopened by name (that could meet another
    writer, or none). Nothing within ``wait``: InputError naming the pipe and the wait."""
    import fcntl
    import select
    import sys

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP)
        if not poller.poll(200):
            print(f"sumeval: waiting up to {wait:g} s for a writer to the named pipe {str(path)!r}",
                  file=sys.stderr, flush=True)
            if not poller.poll(max(0.0, wait * 1000 - 200)):
                raise InputError(f"{str(path)!r} is a named pipe (FIFO) that nothing wrote to within {wait:g} s; "
                                 "start the program that writes to it (e.g. `zcat x.gz > PIPE &`), or give a file "
                                 "or a stream (-i <(command)); a slower writer: a longer --pipe-wait")
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


@contextlib.contextmanager
def _open_bytes(path: Path, pipe_wait: float = PIPE_WAIT_S) -> Iterator[IO[bytes]]:
    """``path`` opened for reading bytes; gzip-compressed files (by their magic bytes) decompressed.
    Reads nothing twice, so a pipe (``-i <(zcat x.gz)``) works too; a named pipe is waited on for at
    most ``pipe_wait`` seconds (:func:`_open_named_pipe`)."""
    named_pipe = special_kind(path) == "a named pipe (FIFO)" and not is_descriptor_path(path)
    with (_open_named_pipe(path, pipe_wait) if named_pipe else open(path, "rb")) as fh:
        if fh.peek(2)[:2] == _GZIP_MAGIC:
            with gzip.GzipFile(fileobj=fh, mode="rb") as gz:
                yield gz  # type: ignore[misc]
        else:
            yield fh


def iter_jsonl(path: str | Path, *, required: Sequence[str] = (),
               fix: str = "each line must be one JSON object",
               pipe_wait: float = PIPE_WAIT_S) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for every non-empty line of ``path`` (UTF-8, a leading byte-order
    mark allowed; gzip-compressed files are read as well). A named pipe (FIFO) is read as a stream
    once something writes to it within ``pipe_wait`` seconds (else InputError; :data:`PIPE_WAIT_S`).

    A line that is not UTF-8, not JSON, not an object, names a key twice, or lacks a ``required``
    field raises InputError naming ``path:line`` and ending with ``fix`` (what the user should do).
    """
    path = Path(path)
    try:
        with _open_bytes(path, pipe_wait) as fh:
            for lineno, raw in enumerate(fh, 1):
                if lineno == 1 and raw.startswith(_BOM):
                    raw = raw[len(_BOM):]
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise InputError(
                        f"{path}:{lineno}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                        "save the file as UTF-8") from None
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line, object_pairs_hook=_unique_keys)
                except json.JSONDecodeError as exc:
                    hint = ""
                    if lineno == 1 and path.suffix.lower() in (".csv", ".tsv", ".txt"):
                        hint = f" ({path.suffix} files are not read: the input is JSON Lines, one object a line)"
                    raise InputError(f"{path}:{lineno}: not valid JSON ({json_error_text(exc)}){hint}; {fix}") from None
                except _DuplicateKey as exc:
                    raise InputError(f"{path}:{lineno}: field {exc.key!r} appears twice in one object; "
                                     "JSON would keep only the last value - keep one") from None
                if not isinstance(obj, dict):
                    raise InputError(f"{path}:{lineno}: expected a JSON object, got {type(obj).__name__}; {fix}")
                missing = [f for f in required if f not in obj]
                if missing:
                    raise InputError(f"{path}:{lineno}: field(s) {missing} missing; every line needs {list(required)}")
                yield lineno, obj
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise InputError(f"{path}: damaged gzip file ({exc}); give a complete .gz or the plain JSONL") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a folder, not a JSONL file") from None


def read_jsonl(path: str | Path, *, required: Sequence[str] = (),
               fix: str = "each line must be one JSON object") -> list[dict[str, Any]]:
    """All objects of ``path`` (see :func:`iter_jsonl`)."""
    return [obj for _, obj in iter_jsonl(path, required=required, fix=fix)]


def json_list_cell(value: str, where: str, what: str) -> list[str] | None:
    """The list of strings a JSON-encoded string holds (``'["ref 1", "ref 2"]'`` -> the list), or
    None when ``value`` does not start like a JSON array (after blanks): then it is one string.

    This is how a list written into a text cell is read in every format - a CSV cell, a JSONL
    string (pandas' ``to_json`` of a CSV-read frame writes lists so), a parquet string column.
    A string that starts with ``[`` but is not a JSON array of strings is an InputError naming
    ``where`` and ``what`` (e.g. ``"file.jsonl:3: column 'references'"``): it is never taken as
    one literal string with its brackets.

    >>> json_list_cell('["a", "b"]', "x:1", "column 'references'")
    ['a', 'b']
    >>> json_list_cell("a [b]", "x:1", "column 'references'") is None
    True
    """
    if not value.lstrip().startswith("["):
        return None
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: {what} starts like a JSON array but is not one ({exc.msg} at "
                         f"character {exc.pos + 1}); write the list as [\"one\", \"two\"] (a single "
                         "text that starts with '[' as [\"[...] text\"])") from None
    if not isinstance(parsed, list) or not all(isinstance(r, str) for r in parsed):
        raise InputError(f"{where}: {what} = {value[:60]!r} is a JSON value but not a list of "
                         "strings; write the list as [\"one\", \"two\"]")
    return parsed

