"""argparse types of the ``sumeval`` commands: a value out of range is refused at parse time,
with the option named by argparse (``argument --jobs/-j: 0 must be at least 1``), never clamped."""
from __future__ import annotations

import argparse
import math

__all__ = ["positive_int", "count", "positive_float", "fraction"]


def _parse(text: str, kind: type, what: str):
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None


def positive_int(text: str) -> int:
    """A whole number >= 1."""
    v = _parse(text, int, "a whole number")
    if v < 1:
        raise argparse.ArgumentTypeError(f"{v} must be at least 1")
    return v


def count(text: str) -> int:
    """A whole number >= 0 (0 meaning "all" or "the default", as the option says)."""
    return 0 if text.strip() == "0" else positive_int(text)


def positive_float(text: str) -> float:
    """A finite number > 0."""
    v = _parse(text, float, "a number")
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be a finite number > 0")
    return v


def fraction(text: str) -> float:
    """A number in [0, 1)."""
    v = _parse(text, float, "a number")
    if not 0 <= v < 1:
        raise argparse.ArgumentTypeError(f"{text} must be in [0, 1)")
    return v
