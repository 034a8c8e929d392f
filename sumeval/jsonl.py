"""Reading JSONL with errors that name the file and the line."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Sequence

from sumeval.errors import InputError


def iter_jsonl(path: str | Path, *, required: Sequence[str] = (),
               fix: str = "each line must be one JSON object") -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for every non-empty line of ``path``.

    A line that is not JSON, not an object, or lacks a ``required`` field raises InputError naming
    ``path:line`` and ending with ``fix`` (what the user should do).
    """
    path = Path(path)
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{lineno}: not valid JSON ({exc.msg} at column {exc.colno}); {fix}") from None
            if not isinstance(obj, dict):
                raise InputError(f"{path}:{lineno}: expected a JSON object, got {type(obj).__name__}; {fix}")
            missing = [f for f in required if f not in obj]
            if missing:
                raise InputError(f"{path}:{lineno}: field(s) {missing} missing; every line needs {list(required)}")
            yield lineno, obj


def read_jsonl(path: str | Path, *, required: Sequence[str] = (),
               fix: str = "each line must be one JSON object") -> list[dict[str, Any]]:
    """All objects of ``path`` (see :func:`iter_jsonl`)."""
    return [obj for _, obj in iter_jsonl(path, required=required, fix=fix)]
