"""The one shape check of the paper-000 measures: an array of the expected number of dimensions.

>>> as_ndim([[1, 2]], 2, "points must be 2-d (rows, N)").shape
(1, 2)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from sumeval.errors import InputError

__all__ = ["as_ndim"]


def as_ndim(a: Any, ndim: int, what: str, dtype: Any = None) -> np.ndarray:
    """``a`` as a numpy array of ``ndim`` dimensions (of ``dtype`` when given).

    Args:
        a: array-like.
        ndim: the number of dimensions it must have.
        what: the start of the error message, saying what was expected (e.g. ``"points must be
            1-d (one b(i) per summary word)"``); the actual shape is appended.
        dtype: convert to this dtype (None keeps the array's own).

    Returns:
        The array.

    Raises:
        InputError: another number of dimensions, naming the shape found.
    """
    arr = np.asarray(a, dtype=dtype)
    if arr.ndim != ndim:
        raise InputError(f"{what}; got shape {arr.shape}")
    return arr
