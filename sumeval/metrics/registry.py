"""The registry of measures: every measure by name, the scorer class it is built from, and the
checks of the options a scorer is given.

sumeval's own measures come from :mod:`sumeval.metrics.catalog`; a study package adds its measures
with :func:`register`. A registered scorer class is imported only when its measure is asked for
(:func:`registered_class`, the one place that imports a registered ``"module:Class"`` target).

>>> from sumeval.metrics.registry import get_scorer
>>> get_scorer("rouge-2").columns()
['rouge-2-p', 'rouge-2-r', 'rouge-2-f']
"""
from __future__ import annotations

import importlib
import os
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import MeasureInfo, Scorer
from sumeval.metrics.catalog import builtin_measures, renamed_hint

__all__ = ["register", "available", "get_scorer", "get_scorers", "registered_class", "check_option_types",
           "accepted_options"]

#: every measure by name: sumeval's own (:mod:`sumeval.metrics.catalog`) and those registered
_REGISTRY: dict[str, MeasureInfo] = {m.name: m for m in builtin_measures()}


def register(name: str, target: str, *, needs: Sequence[str] = (), description: str = "",
             alias_of: str = "", **defaults: Any) -> None:
    """Register measure ``name``, built by ``target`` ("module:Class") with ``defaults``."""
    key = name.lower()
    _REGISTRY[key] = MeasureInfo(key, target, dict(defaults), tuple(needs), description, alias_of)


def available() -> list[MeasureInfo]:
    """All registered measures, sorted by name."""
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_scorer(name: str, **options: Any) -> Scorer:
    """Build the scorer of measure ``name`` (options override the registered defaults)."""
    key = name.lower()
    if key not in _REGISTRY:
        if renamed_hint(key):
            raise InputError(renamed_hint(name))
        known = ", ".join(sorted(_REGISTRY))
        module, colon, attr = name.partition(":")
        own = (f" A scorer class of your own ({name!r} reads as module:Class) is given with --measure-class "
               f"{name} (and --module-path DIR, the folder of its module); in Python, pass an instance of the "
               "class itself.") if colon and module and attr.isidentifier() else ""
        raise InputError(
            f"unknown measure {name!r}; known measures: {known}. "
            f"Run `sumeval score --list` to see them with descriptions.{own}"
        )
    info, cls = registered_class(key)
    check_option_types(cls, options, key)
    return cls(**{**info.defaults, **options})


def registered_class(name: str) -> tuple[MeasureInfo, type[Scorer]] | tuple[None, None]:
    """The registry entry of measure ``name`` (any case) and its scorer class, imported; ``(None, None)``
    for a name that is not registered."""
    info = _REGISTRY.get(name.lower())
    if info is None:
        return None, None
    module_name, _, cls_name = info.target.partition(":")
    return info, getattr(importlib.import_module(module_name), cls_name)


def get_scorers(names: Sequence[str], *, used_elsewhere: Iterable[str] = (), **options: Any) -> list[Scorer]:
    """Build the scorers of ``names``, giving each only the ``options`` it accepts.

    ``get_scorers(["rouge-1", "estime"], use_stemmer=False, layer=9)`` passes ``use_stemmer`` to
    ROUGE and ``layer`` to ESTIME. An option no measure accepts is an error (a typo, usually),
    unless it is in ``used_elsewhere`` (options a caller's other scorers take).
    """
    scorers, used = [], set(used_elsewhere)
    for name in names:
        info, cls = registered_class(name)
        if info is None:
            get_scorer(name)  # raises the unknown-measure error
        mine = accepted_options(cls, options)
        used.update(mine)
        scorers.append(get_scorer(name, **mine))
    unused = sorted(set(options) - used)
    if unused:
        raise InputError(
            f"option(s) {', '.join(unused)} are not used by any of the measures {', '.join(names)}"
        )
    return scorers


# --------------------------------------------------------------------------------------------
# The options a scorer class accepts, and their types
# --------------------------------------------------------------------------------------------
_TYPE_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string",
               type(None): "null"}


def _option_types(hint: Any) -> tuple[type, ...] | None:
    """The plain types an annotation allows (``int | None`` -> ``(int, NoneType)``), or None when
    it allows anything else (then the option is not checked here)."""
    import types
    import typing

    args = typing.get_args(hint) if (typing.get_origin(hint) in (typing.Union, types.UnionType)) else (hint,)
    out = []
    for a in args:
        if a in _TYPE_WORDS:
            out.append(a)
        elif isinstance(a, type) and issubclass(a, os.PathLike):
            out.append(str)  # a path may be given as a string
        else:
            return None
    return tuple(out)


def _is_type(value: Any, t: type) -> bool:
    if t is bool:
        return isinstance(value, (bool, np.bool_))
    if t is int:
        return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if t is float:
        return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if t is str:
        return isinstance(value, (str, os.PathLike))
    return value is None if t is type(None) else isinstance(value, t)


def check_option_types(cls: type, options: Mapping[str, Any], measure: str) -> None:
    """InputError when an option's value is not of the type its scorer declares (no coercion:
    ``use_stemmer="maybe"`` is an error, not True; ``max_n="abc"`` an error, not a crash).

    Declared types are the annotations of ``cls.__init__`` (and of its bases' for options it
    passes on through ``**kwargs``): bool, int, float (an integer is accepted), str, a path (a
    string), or a union of them with None. Options with other annotations are left to the scorer.
    """
    import typing

    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        try:
            hints.update(typing.get_type_hints(init))
        except Exception:  # noqa: BLE001 - an annotation that cannot be resolved is not checked
            continue
    for name, value in options.items():
        allowed = _option_types(hints[name]) if name in hints else None
        if allowed is None or any(_is_type(value, t) for t in allowed):
            continue
        want = " or ".join(dict.fromkeys(_TYPE_WORDS[t] for t in allowed))
        raise InputError(f"measure {measure!r}: option {name} must be {want}, got {value!r} "
                         f"({type(value).__name__}); e.g. -O {name}=... on the command line")


def accepted_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
    """The subset of ``options`` that ``cls.__init__`` accepts."""
    import inspect

    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return dict(options)
    return {k: v for k, v in options.items() if k in params}
