"""Bootstrap resamples of the (inputs x systems) grid: drawing them, counting them, intervals.

Resampling follows Deutsch, Dror & Roth (2021, TACL, "A Statistical Analysis of Summarization
Evaluation Metrics using Resampling Methods"): a resample draws **inputs** (documents)
with replacement, **systems** with replacement, or **both** (systems, then inputs). A drawn
system or input keeps its multiplicity: drawn twice, it counts twice (as indexing the rows /
columns of the score matrix with the drawn indices does).

Draws from ``numpy.random.default_rng(seed)``: systems ``rng.integers(0, n_systems,
(B, n_systems))`` first when they are resampled, then inputs ``rng.integers(0, n_inputs,
(B, n_inputs))`` when they are. The inputs draw is the one sumeval has always used, so the
default (inputs) intervals do not change. Codes refer to the order of first appearance in the
frame (:mod:`sumeval.stats.layout`).
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import numpy as np

from sumeval.errors import InputError
from sumeval.stats.checks import check_count, check_resample

__all__ = ["Resamples", "resample_indices"]


@dataclass(frozen=True)
class Resamples:
    """The indices drawn by B bootstrap resamples.

    Attributes:
        resample: ``"inputs"``, ``"systems"`` or ``"both"``.
        systems: shape (B, n_systems) int system codes drawn in each resample, or None when
            systems are not resampled.
        inputs: shape (B, n_inputs) int input (document) codes drawn, or None when inputs are
            not resampled.
    """

    resample: str
    systems: np.ndarray | None
    inputs: np.ndarray | None

    @property
    def n_resamples(self) -> int:
        drawn = self.systems if self.systems is not None else self.inputs
        return int(drawn.shape[0])

    def system_counts(self) -> np.ndarray | None:
        """shape (B, n_systems) float64: how often each system is drawn; None if not resampled."""
        return None if self.systems is None else _counts(self.systems)

    def input_counts(self) -> np.ndarray | None:
        """shape (B, n_inputs) float64: how often each input is drawn; None if not resampled."""
        return None if self.inputs is None else _counts(self.inputs)


def resample_indices(n_systems: int, n_inputs: int, resample: str = "inputs",
                     n_resamples: int = 1000,
                     seed: int | np.random.Generator = 0) -> Resamples:
    """Draw the indices of ``n_resamples`` bootstrap resamples (module docstring: the order).

    Args:
        n_systems, n_inputs: size of the grid (systems and inputs in order of first appearance).
        resample: ``"inputs"``, ``"systems"`` or ``"both"``.
        n_resamples: B.
        seed: ``int`` or ``numpy.random.Generator``.

    Returns:
        :class:`Resamples`, to pass as ``indices=`` to :func:`~sumeval.stats.correlate` or
        :func:`~sumeval.stats.paired_test` (or to build the same resamples elsewhere).
    """
    check_resample(resample)
    B = check_count(n_resamples, "n_resamples", 1)
    rng = np.random.default_rng(seed)
    systems = inputs = None
    if resample in ("systems", "both"):
        systems = rng.integers(0, n_systems, size=(B, n_systems))
    if resample in ("inputs", "both"):
        inputs = rng.integers(0, n_inputs, size=(B, n_inputs))
    return Resamples(resample, systems, inputs)


def check_indices(indices: object, resample: str, n_systems: int, n_inputs: int,
                  where: str) -> Resamples:
    """Caller-given resample indices, checked against the axis and the grid's size."""
    if not isinstance(indices, Resamples):
        raise InputError(f"{where}: indices must be a stats.Resamples (from "
                         f"stats.resample_indices or built from arrays), got "
                         f"{type(indices).__name__}")
    if indices.resample != resample:
        raise InputError(f"{where}: the indices resample {indices.resample!r} but "
                         f"resample={resample!r} was asked; pass the same axis")
    sizes = []
    for name, arr, n in (("systems", indices.systems, n_systems),
                         ("inputs", indices.inputs, n_inputs)):
        wanted = name == "systems" and resample != "inputs" or name == "inputs" and \
            resample != "systems"
        if not wanted:
            if arr is not None:
                raise InputError(f"{where}: resample={resample!r} draws no {name}, but "
                                 f"indices.{name} is given; set it to None")
            continue
        a = np.asarray(arr)
        if a.ndim != 2 or a.shape[1] != n or not np.issubdtype(a.dtype, np.integer):
            raise InputError(f"{where}: indices.{name} must be an integer array of shape "
                             f"(n_resamples, {n}), got {a.dtype} {a.shape}")
        if a.size and (a.min() < 0 or a.max() >= n):
            raise InputError(f"{where}: indices.{name} must lie in [0, {n}), got values "
                             f"from {a.min()} to {a.max()}")
        sizes.append(a.shape[0])
    if len(set(sizes)) > 1:
        raise InputError(f"{where}: indices.systems and indices.inputs have {sizes[0]} and "
                         f"{sizes[1]} resamples; they must be equal")
    if not sizes or sizes[0] < 1:
        raise InputError(f"{where}: the indices hold no resample")
    return indices


def _counts(idx: np.ndarray) -> np.ndarray:
    """Draw counts of indices idx (B, n) in [0, n) -> (B, n) float64; each row sums to n."""
    B, n = idx.shape
    flat = (idx + n * np.arange(B)[:, None]).ravel()
    return np.bincount(flat, minlength=B * n).reshape(B, n).astype(np.float64)


def _resample_counts(n_docs: int, n_resamples: int, seed: int | np.random.Generator) -> np.ndarray:
    """How often each document is drawn in each bootstrap resample (the inputs resampling).

    Returns: shape (n_resamples, n_docs) float64 counts; each row sums to n_docs.
    """
    rng = np.random.default_rng(seed)
    return _counts(rng.integers(0, n_docs, size=(n_resamples, n_docs)))


def percentile_interval(boot: np.ndarray | None, ci: float) -> tuple[float, float]:
    """Percentile interval of the defined replicates (Efron & Tibshirani 1993, "An Introduction to the Bootstrap"):
    the (1 - ci)/2 and (1 + ci)/2 quantiles, linearly interpolated; NaN if none is defined."""
    if boot is None:
        return math.nan, math.nan
    finite = boot[np.isfinite(boot)]
    if finite.size == 0:
        return math.nan, math.nan
    lo, hi = np.quantile(finite, [(1 - ci) / 2, (1 + ci) / 2])
    return float(lo), float(hi)


_CONTROLLER: list = []  # the threadpoolctl controller, found once (finding the libraries is slow)


def small_blas():
    """Context in which BLAS runs on one thread: the products here are small (resamples x
    documents x systems) or many, and extra BLAS threads only contend, badly so on a busy
    machine. Uses threadpoolctl (installed with scikit-learn) when available; otherwise does
    nothing."""
    if not _CONTROLLER:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - optional
            return contextlib.nullcontext()
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


def progress_bar(iterable, total: int, progress: bool, desc: str):
    if not progress:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc)
