"""argparse types of the ``sumeval`` commands: a value out of range is refused at parse time,
with the option named by argparse (``argument --jobs/-j: 0 must be at least 1``), never clamped;
``key=value`` pairs read as YAML (``-p`` of a study run, ``-O`` of a measure: :func:`parse_overrides`,
:func:`parse_value`); and the measures' options as the commands that score take them
(:func:`scorer_options`)."""
from __future__ import annotations

import argparse
import math
from typing import Any, Mapping

from sumeval.errors import InputError

__all__ = ["positive_int", "count", "positive_float", "fraction", "parse_value", "Overrides", "parse_overrides",
           "scorer_options", "split_values", "split_measures", "SCORER_FLAGS"]

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


def decay_rate(text: str) -> float:
    """A number in (0, 1] (1: no decay)."""
    v = _parse(text, float, "a number")
    if not 0 < v <= 1:
        raise argparse.ArgumentTypeError(f"{text} must be in (0, 1] (1: no decay)")
    return v


_COMMENT_MARK = "SUMEVALHASHc0ffee"  # stands for "#" while YAML reads a value again


def _unmark(value: Any) -> Any:
    """``value`` with :data:`_COMMENT_MARK` turned back into ``#`` (in every string it holds)."""
    if isinstance(value, str):
        return value.replace(_COMMENT_MARK, "#")
    if isinstance(value, list):
        return [_unmark(v) for v in value]
    if isinstance(value, dict):
        return {_unmark(k): _unmark(v) for k, v in value.items()}
    return value


def parse_value(text: str) -> Any:
    """A ``-p key=value`` value as YAML: ``5`` -> 5, ``true`` -> True, ``[1, 2]`` -> list; an empty
    value (``-p paragraph_sets=``) is the empty string, not YAML's null.

    ``#`` is text, never a YAML comment: ``-p 'dataset=/data/judg #2.csv'`` is the whole path
    (YAML alone would cut the value at `` #``). A value that YAML cannot read is kept as text.
    """
    import yaml

    if not text.strip():
        return ""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if "#" in text:  # did YAML drop a comment? read it again with '#' hidden and compare
        try:
            literal = _unmark(yaml.safe_load(text.replace("#", _COMMENT_MARK)))
        except yaml.YAMLError:
            literal = text.strip()
        if literal != value:
            return literal if isinstance(literal, (str, list, dict)) else text.strip()
    return value


class Overrides(dict):
    """``{name: value}`` of ``-p`` pairs (a plain dict to every reader), that also keeps the text
    each value was typed as (:attr:`texts`), so :func:`sumeval.running.study_params.resolve_parameters`
    can keep a ``str`` parameter's text when YAML read it as something else (``-p dataset=no`` is ``"no"``,
    not False)."""

    def __init__(self, values: Mapping[str, Any] = (), texts: Mapping[str, str] | None = None):
        super().__init__(values)
        self.texts: dict[str, str] = dict(texts or {})


def parse_overrides(pairs: list[str], flag: str = "-p") -> dict[str, Any]:
    """``["seed=1", "model=bert"]`` -> ``{"seed": 1, "model": "bert"}`` (an :class:`Overrides`, which
    remembers each typed text); ``flag`` is the option the pairs came from, for messages. A key
    given twice is an error (not the last one silently)."""
    out = Overrides()
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            example = "seed=1" if flag == "-p" else "use_stemmer=false"
            raise InputError(f"{flag} {pair!r} is not of the form key=value (e.g. {flag} {example})")
        if key.strip() in out:
            raise InputError(f"{flag} {key.strip()} is given twice ({key.strip()}={out[key.strip()]!r} and "
                             f"{pair!r}); give it once")
        out[key.strip()] = parse_value(value)
        out.texts[key.strip()] = value.strip()
    return out


def scorer_options(args: argparse.Namespace) -> dict[str, Any]:
    """The measures' options of parsed arguments: the :data:`SCORER_FLAGS` given (``--layer 9``)
    and every ``-O key=value``.

    Raises:
        InputError: an option given both as a flag and as ``-O``.
    """
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
