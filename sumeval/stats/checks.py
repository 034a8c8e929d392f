"""Names, limits and input checks shared by the statistics modules.

Every check raises :class:`~sumeval.errors.InputError` naming the value, the option and the fix.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError

#: Canonical level names.
LEVELS: tuple[str, ...] = ("input", "system", "global", "partial")
#: What each level correlates (the words of the errors that name the levels).
LEVEL_MEANINGS: dict[str, str] = {"input": "per document, then averaged", "system": "per-system means",
                                  "global": "all summaries pooled",
                                  "partial": "all summaries pooled, the system or the length regressed out"}
#: Older level names, refused everywhere (:func:`canonical_level`), each with why: they name
#: different levels in different papers.
OLD_LEVEL_NAMES: dict[str, str] = {
    "summary": "'summary' is ambiguous: SummEval and Deutsch et al. (2021) call the per-document "
               "correlation, averaged over documents, the 'summary level' (sumeval: input), while paper "
               "000 (Vasilyev & Bohannon) calls all summaries pooled the 'summary level' (sumeval: global)",
    "document": "'document' is the older name of 'input' (per document, the correlation across its "
                "systems, then averaged; the 'summary level' of SummEval and Deutsch et al. 2021)",
}
#: Resampling axes of bootstrap intervals and permutation tests.
RESAMPLINGS: tuple[str, ...] = ("inputs", "systems", "both")
#: Alternative hypotheses of the tests about corr_a - corr_b.
ALTERNATIVES: tuple[str, ...] = ("two-sided", "greater", "less")
KRIPPENDORFF_LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")

# Largest temporary array (elements) built at once by the vectorised kernels; the tests lower it
# to exercise the chunked paths.
BLOCK_ELEMENTS = 2_000_000


def canonical_level(level: str, option: str | None = None) -> str:
    """``level`` when it is one of :data:`LEVELS`; else :class:`InputError` naming the value, the
    ``option`` it came from (e.g. ``--level``) and the levels to choose from. The older names of
    :data:`OLD_LEVEL_NAMES` are refused with what each meant: one policy for every command and function."""
    if isinstance(level, str) and level in LEVELS:
        return level
    choose = (f"name the level as one of {', '.join(LEVELS)} ("
              + "; ".join(f"{lv}: {words}" for lv, words in LEVEL_MEANINGS.items()) + ")")
    if isinstance(level, str) and level in OLD_LEVEL_NAMES:
        raise InputError(f"{option or 'level'} {OLD_LEVEL_NAMES[level]}; {choose}")
    what = f"{option} {level!r} is not a level" if option else f"unknown correlation level {level!r}"
    lower = f"; levels are lower case: {level.lower()!r}" if isinstance(level, str) and level.lower() in LEVELS else ""
    raise InputError(f"{what}{lower}; {choose}")


def check_resample(resample: str) -> str:
    if resample not in RESAMPLINGS:
        raise InputError(
            f"unknown resampling {resample!r}; choose one of {', '.join(RESAMPLINGS)} "
            f"(what is drawn: documents/inputs, systems, or systems then inputs)"
        )
    return resample


def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise InputError(
            f"unknown alternative {alternative!r}; choose one of {', '.join(ALTERNATIVES)}"
        )
    return alternative


def names(value: str | Iterable[str], what: str) -> list[str]:
    """A single name or a sequence of names -> non-empty list of names."""
    out = [value] if isinstance(value, str) else list(value)
    if not out:
        raise InputError(f"no {what} given; pass at least one name")
    return out


def check_frame(frame: object) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    return frame


def check_columns(frame: pd.DataFrame, columns: Sequence[str], role: str) -> None:
    for col in columns:
        if col not in frame.columns:
            raise InputError(
                f"column {col!r} ({role}) is not in the frame; its columns are "
                f"{[str(c) for c in frame.columns]}"
            )


def float_array(values: object, name: str, ndim: tuple[int, ...] = (1,),
                shape: str = "") -> np.ndarray:
    """``values`` as a float64 array of one of the dimensions ``ndim`` (``shape`` describes the
    expected shape in the message); NaN allowed, infinities and non-numbers refused."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(
            f"{name} is not numeric ({exc}); pass numbers, with NaN for missing values"
        ) from None
    if arr.ndim not in ndim:
        dims = " or ".join(f"{d}-D" for d in ndim)
        raise InputError(f"{name} must be {dims}{shape}, got shape {arr.shape}")
    bad = np.isinf(arr)
    if bad.any():
        first = int(np.flatnonzero(bad.ravel())[0])
        raise InputError(
            f"{name} has {int(bad.sum())} infinite value(s) (first at flat position {first}); "
            f"replace them with NaN to exclude them, or with finite values"
        )
    return arr


def frame_column(frame: pd.DataFrame, col: str) -> np.ndarray:
    return float_array(frame[col].to_numpy(), f"column {col!r}")


def check_count(value: object, name: str, minimum: int, meaning: str = "") -> int:
    """An integer option >= ``minimum`` (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InputError(f"{name} must be an integer >= {minimum}{meaning}, got {value!r}")
    return int(value)


def check_boot(n_resamples: int, ci: float) -> None:
    check_count(n_resamples, "n_resamples", 0, " (0: no interval)")
    if not (0.0 < float(ci) < 1.0):
        raise InputError(f"ci must be a coverage strictly between 0 and 1 (e.g. 0.95), got {ci!r}")


def check_alpha(alpha: float) -> float:
    if not (0.0 < float(alpha) < 1.0):
        raise InputError(f"alpha must be a significance level in (0, 1), e.g. 0.05, got {alpha!r}")
    return float(alpha)


def is_constant(x: np.ndarray) -> bool:
    return x.size == 0 or bool(np.max(x) == np.min(x))


def seed_record(seed: object) -> int | None:
    """The seed as recorded in results: the int, or None for a Generator."""
    return int(seed) if isinstance(seed, (int, np.integer)) else None
