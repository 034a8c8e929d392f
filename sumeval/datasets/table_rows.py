"""A judgments file's rows as read, before any check: what every reader returns (JSONL, CSV/TSV,
Parquet in :mod:`sumeval.datasets.judgment_files`, Judge-Bench JSON in :mod:`sumeval.datasets.judge_bench`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sumeval.errors import InputError

__all__ = ["TableRows", "decode_text"]


@dataclass
class TableRows:
    """A file's rows before checking: header in file order, one dict per row, its location."""

    header: list[str]
    rows: list[dict[str, Any]]
    where: list[str]
    text_cells: bool  # True for CSV/TSV: every cell is a string to parse


def decode_text(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: not UTF-8 text (byte {exc.start}); save the file as "
                         "UTF-8") from None
