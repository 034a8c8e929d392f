"""argparse types of the ``sumeval`` commands: a value out of range is refused at parse time,
with the option named by argparse (``argument --jobs/-j: 0 must be at least 1``), never clamped;
and the measures' options as the commands that score take them (:func:`scorer_options`)."""
from __future__ import annotations

import argparse
import math
from typing import Any

__all__ = ["positive_int", "count", "positive_float", "fraction", "scorer_options", "split_values", "split_measures",
           "SCORER_FLAGS"]

#: the flags ``sumeval score`` and ``sumeval meta-eval`` pass to the measures that take them
SCORER_FLAGS = ("model", "layer", "text_layer", "index", "aggregate")


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


def scorer_options(args: argparse.Namespace) -> dict[str, Any]:
    """The measures' options of parsed arguments: the :data:`SCORER_FLAGS` given (``--layer 9``)
    and every ``-O key=value``.

    Raises:
        InputError: an option given both as a flag and as ``-O``.
    """
    from sumeval.errors import InputError
    from sumeval.study_params import parse_overrides

    options = {flag: getattr(args, flag) for flag in SCORER_FLAGS if getattr(args, flag, None) is not None}
    extra = parse_overrides(getattr(args, "option", None) or [], flag="-O")
    twice = sorted(set(options) & set(extra))
    if twice:
        raise InputError(f"option {twice[0]!r} is given both as --{twice[0].replace('_', '-')} and as -O; give it once")
    return {**options, **extra}


def split_values(values: list[str] | None) -> list[str]:
    """``["a,b", "c"]`` -> ``["a", "b", "c"]`` (lists may be given either way)."""
    out: list[str] = []
    for v in values or []:
        out.extend(p.strip() for p in v.split(",") if p.strip())
    return out


def split_measures(values: list[str] | None) -> list[str]:
    """Measure specs: commas separate specs except inside ``[...]`` options."""
    out: list[str] = []
    for v in values or []:
        depth, start = 0, 0
        for i, ch in enumerate(v):
            depth += ch == "["
            depth -= ch == "]"
            if ch == "," and depth == 0:
                out.append(v[start:i].strip())
                start = i + 1
        out.append(v[start:].strip())
    return [o for o in out if o]
