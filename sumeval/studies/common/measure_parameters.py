"""The flat parameters of the measure studies (``meta_evaluation``, ``shelf``, ``llm_judges``) as
the arguments of the engines they call: comma-separated lists (:func:`split`) and the options of
the model-based measures (:func:`scorer_options`).
"""
from __future__ import annotations

from typing import Any

from sumeval.lm.precision import AUTO, normalize_precision

__all__ = ["split", "scorer_options"]


def split(text: str) -> tuple[str, ...]:
    """A comma-separated parameter as a tuple (measure options in ``[...]`` keep their commas)."""
    from sumeval.argtypes import split_measures

    return tuple(split_measures([text])) if text else ()


def scorer_options(model: str = "", layer: int = -1, precision: str = "", index: str = "") -> dict[str, Any]:
    """The scorer options the notebook sets (empty / -1: each measure's own default); ``precision``
    in the engine's spelling (``fp32`` -> ``float32``, :func:`sumeval.lm.precision.normalize_precision`;
    ``auto`` is resolved by the scorers for their device)."""
    options: dict[str, Any] = {}
    if model:
        options["model"] = model
    if layer >= 0:
        options["layer"] = layer
    if precision:
        options["precision"] = precision if precision == AUTO else normalize_precision(precision)
    if index:
        options["index"] = index
    return options
