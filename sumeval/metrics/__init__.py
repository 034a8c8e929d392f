"""Measures of summary quality behind one interface.

>>> from sumeval import metrics
>>> [m.name for m in metrics.available()][:3]           # doctest: +SKIP
>>> scorer = metrics.get_scorer("rouge-2")              # loads once, scores many
>>> frame, report = metrics.score_records(records, ["rouge-1", "bleu"])

Each measure lives in its own module and is imported only when asked for (no model, index or
heavy library is loaded at import time). A study package adds its measures with
:func:`register`.
"""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer

__all__ = [
    "Batch", "Scorer", "MeasureInfo", "register", "available", "get_scorer", "score_records",
    "ScoreReport", "get_scorers",
]


@dataclass(frozen=True)
class MeasureInfo:
    """A registered measure: its name, where its scorer lives and its default options."""

    name: str
    target: str  # "module:Class"
    defaults: Mapping[str, Any] = field(default_factory=dict)
    needs: tuple[str, ...] = ()
    description: str = ""


_REGISTRY: dict[str, MeasureInfo] = {}


def register(name: str, target: str, *, needs: Sequence[str] = (), description: str = "",
             **defaults: Any) -> None:
    """Register measure ``name``, built by ``target`` ("module:Class") with ``defaults``."""
    key = name.lower()
    _REGISTRY[key] = MeasureInfo(key, target, dict(defaults), tuple(needs), description)


def available() -> list[MeasureInfo]:
    """All registered measures, sorted by name."""
    _load_builtin()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_scorer(name: str, **options: Any) -> Scorer:
    """Build the scorer of measure ``name`` (options override the registered defaults)."""
    _load_builtin()
    key = name.lower()
    if key not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise InputError(
            f"unknown measure {name!r}; known measures: {known}. "
            "Run `sumeval score --list` to see them with descriptions."
        )
    info = _REGISTRY[key]
    module_name, _, cls_name = info.target.partition(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    return cls(**{**info.defaults, **options})


def _accepted(cls, options: Mapping[str, Any]) -> dict[str, Any]:
    """The subset of ``options`` that ``cls.__init__`` accepts."""
    import inspect

    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return dict(options)
    return {k: v for k, v in options.items() if k in params}


def get_scorers(names: Sequence[str], **options: Any) -> list[Scorer]:
    """Build the scorers of ``names``, giving each only the ``options`` it accepts.

    ``get_scorers(["rouge-1", "estime"], use_stemmer=False, layer=9)`` passes ``use_stemmer`` to
    ROUGE and ``layer`` to ESTIME. An option no measure accepts is an error (a typo, usually).
    """
    _load_builtin()
    scorers, used = [], set()
    for name in names:
        info = _REGISTRY.get(name.lower())
        if info is None:
            get_scorer(name)  # raises the unknown-measure error
        module_name, _, cls_name = info.target.partition(":")
        cls = getattr(importlib.import_module(module_name), cls_name)
        mine = _accepted(cls, options)
        used.update(mine)
        scorers.append(get_scorer(name, **mine))
    unused = sorted(set(options) - used)
    if unused:
        raise InputError(
            f"option(s) {', '.join(unused)} are not used by any of the measures {', '.join(names)}"
        )
    return scorers


_BUILTIN_LOADED = False


def _load_builtin() -> None:
    """Register the measures of sumeval's own modules (names only: nothing heavy is imported)."""
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    _BUILTIN_LOADED = True
    from sumeval.metrics import catalog  # noqa: F401  (calls register())


# --------------------------------------------------------------------------------------------
# Scoring records, with the checks every measure shares
# --------------------------------------------------------------------------------------------
@dataclass
class ScoreReport:
    """What could not be scored, and why: ``[(row_index, measure, reason), ...]``."""

    skipped: list[tuple[int, str, str]] = field(default_factory=list)
    signatures: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:  # truthy when something was skipped
        return bool(self.skipped)

    def summary_lines(self, row_label=lambda i: f"row {i}") -> list[str]:
        """One line per skipped (row, measure), with the reason."""
        return [f"{row_label(i)}: {m} not scored ({why})" for i, m, why in self.skipped]


def _is_blank(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


def _references_of(record: Mapping[str, Any]) -> list[str] | None:
    refs = record.get("references")
    if refs is None:
        return None
    if isinstance(refs, str):
        refs = [refs]
    refs = [r for r in refs if not _is_blank(r)]
    return refs or None


def _output_column(scorer: Scorer, values: Any, column: str, n: int) -> np.ndarray:
    """Column ``column`` of what ``scorer.score_batch`` returned for ``n`` rows, checked."""
    where = f"measure {scorer.name!r} ({type(scorer).__module__}.{type(scorer).__name__})"
    if not isinstance(values, Mapping):
        raise InputError(f"{where}: score_batch returned a {type(values).__name__}; it must return "
                         f"a dict {{column: array of shape ({n},)}} with the columns {scorer.columns()}")
    if column not in values:
        raise InputError(f"{where}: score_batch returned no column {column!r} (it returned "
                         f"{sorted(map(str, values))}); it must return every column of columns()")
    try:
        arr = np.asarray(values[column], dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: column {column!r} is not an array of numbers ({exc})") from None
    if arr.shape != (n,):
        raise InputError(f"{where}: score_batch returned shape {arr.shape} for column {column!r}; "
                         f"expected ({n},), one number per summary of the batch")
    return arr


def score_records(records: Sequence[Mapping[str, Any]], measures: Iterable[str | Scorer], *,
                  batch_size: int = 256, progress: bool = False, **options: Any):
    """Score ``records`` (dicts with ``summary`` and, as needed, ``text`` / ``references``).

    Parameters
    ----------
    records : sequence of mappings, length n
    measures : names (``"rouge-1"``) or ready :class:`Scorer` objects
    options : scorer options for the measures given by name; each measure gets only the options
        it accepts (see :func:`get_scorers`)

    Returns
    -------
    scores : pandas.DataFrame, n rows, one column per measure output (NaN where not scored)
    report : ScoreReport listing every (row, measure) not scored and why - an empty summary, a
        missing text or references. Rows are never dropped.
    """
    import pandas as pd

    measures = list(measures)
    named = [m for m in measures if not isinstance(m, Scorer)]
    built = iter(get_scorers(named, **options)) if named else iter(())
    scorers = [m if isinstance(m, Scorer) else next(built) for m in measures]
    n = len(records)
    out: dict[str, np.ndarray] = {}
    report = ScoreReport()
    for scorer in scorers:
        report.signatures[scorer.name] = scorer.signature()
        cols = scorer.columns()
        for c in cols:
            if c in out:
                raise InputError(f"two measures write the same column {c!r}; score them separately")
            out[c] = np.full(n, np.nan)
        ok: list[int] = []
        for i, rec in enumerate(records):
            if _is_blank(rec.get("summary")):
                report.skipped.append((i, scorer.name, "empty summary"))
                continue
            if "text" in scorer.needs and _is_blank(rec.get("text")):
                report.skipped.append((i, scorer.name, "missing or empty 'text'"))
                continue
            if "references" in scorer.needs and _references_of(rec) is None:
                report.skipped.append((i, scorer.name, "no non-empty 'references'"))
                continue
            ok.append(i)
        chunks = range(0, len(ok), batch_size)
        if progress:
            from tqdm.auto import tqdm

            chunks = tqdm(chunks, desc=scorer.name, unit="batch")
        for start in chunks:
            idx = ok[start:start + batch_size]
            batch = Batch(
                summaries=[str(records[i]["summary"]) for i in idx],
                texts=[str(records[i]["text"]) for i in idx] if "text" in scorer.needs else None,
                references=[_references_of(records[i]) for i in idx]
                if "references" in scorer.needs else None,
            )
            values = scorer.score_batch(batch)
            for j, why in getattr(scorer, "last_undefined", None) or []:
                report.skipped.append((idx[j], scorer.name, f"undefined: {why}"))
            for c in cols:
                out[c][idx] = _output_column(scorer, values, c, len(idx))
    return pd.DataFrame(out, index=range(n)), report
