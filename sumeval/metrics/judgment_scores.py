"""Scoring resolved measures on a judgments data set, with caching: :func:`score_judgments`.

Each distinct scorer (by signature) runs once over all rows; its outputs are cached in
``Store("scores")`` under the data set's sha256, the row ids, the scorer's signature and a hash
of the texts it reads, so a second call reads the cache. The measures come from
:func:`sumeval.metrics.sources.resolve_measures`, which re-exports this module's names.
"""
from __future__ import annotations

import hashlib
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.metrics.records import NO_NUMBER, score_records
from sumeval.runstate import claim

if TYPE_CHECKING:
    from sumeval.metrics.sources import MeasureSpec

__all__ = ["MeasureScores", "score_judgments", "scorer_outputs"]


@dataclass
class MeasureScores:
    """What :func:`score_judgments` returns.

    frame : one column per measure, named by :attr:`MeasureSpec.label`, oriented so that higher is
        better, NaN where not scored; index aligned with ``judgments.frame``
    signatures : ``{label: signature}``
    not_scored : one dict per (row, measure) not scored: ``row, doc_id, system, location,
        measure, reason``
    specs : the measures, in order
    from_cache : ``{label: True if read from the cache}`` (columns: False)
    """

    frame: pd.DataFrame
    signatures: dict[str, str]
    not_scored: list[dict[str, Any]]
    specs: list[MeasureSpec]
    from_cache: dict[str, bool]

    def __iter__(self):  # ``scores, signatures, not_scored = score_judgments(...)``
        return iter((self.frame, self.signatures, self.not_scored))


def _inputs_digest(frame: pd.DataFrame, needs: Iterable[str]) -> str:
    """sha256 of the texts a scorer reads (summary, and text / references as it needs)."""
    import json

    h = hashlib.sha256()
    for f in ("summary", *sorted(set(needs) - {"summary"})):
        h.update(f.encode() + b"\0")
        for v in frame[f]:
            h.update(json.dumps(_jsonable(v), ensure_ascii=False).encode("utf-8") + b"\n")
    return h.hexdigest()


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, float) and np.isnan(value):
        return None
    return value


def _records(frame: pd.DataFrame, needs: Iterable[str]) -> list[dict[str, Any]]:
    cols = ["summary", *(f for f in ("text", "references") if f in needs)]
    return [dict(zip(cols, row)) for row in frame[cols].itertuples(index=False, name=None)]


def _no_value_anywhere(spec: MeasureSpec, dataset: str, n: int, reasons: Sequence[str]) -> None:
    """InputError: measure ``spec`` gave no number on any row of ``dataset`` (``reasons``: why, per row)."""
    from collections import Counter

    what = ", ".join(f"{n} {why!r}" for why, n in Counter(reasons).most_common(3))
    cls = type(spec.scorer)
    raise InputError(f"measure {spec.spec!r} ({cls.__module__}.{cls.__qualname__}) gave no number on any of the "
                     f"{n} rows of {dataset} ({what}); there is nothing to correlate: fix the "
                     "measure, give it the fields it needs, or leave it out")


def _cached_scores(store, key: str):
    """``(scores, skipped, True)`` of a cached scoring, else ``(None, None, False)``."""
    scores = store.get_frame(key)
    skipped = store.get_json(key) if scores is not None else None
    return (scores, skipped, True) if scores is not None and skipped is not None else (None, None, False)


def scorer_outputs(judgments, scorer, *, signature: str | None = None, cache: bool = True,
                   progress: bool = False, batch_size: int = 256) -> tuple[pd.DataFrame, list[list], bool]:
    """One scorer's raw outputs on every row of ``judgments``: ``(scores, skipped, from_cache)``.

    ``scores`` has the scorer's columns, one row per row of ``judgments.frame`` (NaN where not
    scored); ``skipped`` is ``[[row, reason], ...]``. Cached in ``Store("scores")`` under
    ``cache_key(dataset=judgments.sha256, rows=judgments.row_ids(), signature=..., inputs=sha256
    of the texts it reads)``: every caller scoring the same rows with the same scorer (the
    meta-evaluation, the LLM-judges study, the baseline rows of papers 000 and 001) reads the
    same numbers, computed once. Another process computing them (two studies of ``run all
    --jobs 2``) holds a claim: this waits for it and reads its scores.

    ``signature``: the scorer's signature when the caller has it (a user class's includes its
    import path); default ``scorer.signature()``.
    """
    from sumeval.cache import Store, cache_key

    frame = judgments.frame
    store = Store("scores")
    key = cache_key(dataset=judgments.sha256, rows=judgments.row_ids(),
                    signature=signature if signature is not None else scorer.signature(),
                    inputs=_inputs_digest(frame, scorer.needs))
    scores, skipped, hit = _cached_scores(store, key) if cache else (None, None, False)
    if hit:
        return scores, skipped, True
    with claim(store.folder / "claims" / f"{key}.lock", wait=True) if cache else nullcontext():
        scores, skipped, hit = _cached_scores(store, key) if cache else (None, None, False)
        if not hit:
            scores, rep = score_records(_records(frame, scorer.needs), [scorer], batch_size=batch_size,
                                        progress=progress, row_label=judgments.location)
            skipped = [[int(i), why] for i, _, why in rep.skipped]
            if cache:
                store.put_json(key, skipped)
                store.put_frame(key, scores)
    return scores, skipped, hit


def score_judgments(judgments, measures: Sequence[MeasureSpec], *, progress: bool = False,
                    cache: bool = True, batch_size: int = 256) -> MeasureScores:
    """Score ``judgments`` with ``measures`` (from :func:`resolve_measures`).

    Each distinct scorer (by signature) runs once over all rows; its outputs are cached in
    ``Store("scores")`` under ``cache_key(dataset=judgments.sha256, rows=judgments.row_ids(),
    signature=..., inputs=sha256 of the texts it reads)``, with the rows it could not score. A
    column measure is read from the frame.

    Returns:
        MeasureScores: ``frame``: one column per measure label, oriented so that higher is better (a lower-is-better
            measure negated, its label ending in ``(negated)``); ``signatures``; ``not_scored`` (empty summaries,
            missing text or references, undefined values, NaN or None a scorer returned without a reason -
            :data:`sumeval.metrics.records.NO_NUMBER`, counted in the measure's own column - and empty cells of a
            column); ``from_cache``. A scorer's measure with no number on any row is an InputError naming it and why (a
            column with no value is not a measure column of the data set in the first place).
    """
    frame = judgments.frame
    outputs: dict[str, tuple[pd.DataFrame, list, bool]] = {}
    result = pd.DataFrame(index=frame.index)
    signatures: dict[str, str] = {}
    not_scored: list[dict[str, Any]] = []
    from_cache: dict[str, bool] = {}

    def report(row: int, label: str, reason: str) -> None:
        not_scored.append({"row": int(row), "doc_id": frame.at[row, "doc_id"],
                           "system": frame.at[row, "system"], "location": judgments.location(row),
                           "measure": label, "reason": reason})

    for spec in measures:
        signatures[spec.label] = spec.signature
        if spec.scorer is None:
            values = pd.to_numeric(frame[spec.column], errors="coerce").to_numpy(dtype=float)
            for row in np.flatnonzero(np.isnan(values)):
                report(row, spec.label, f"no value in column {spec.column!r}")
            result[spec.label] = spec.sign * values
            from_cache[spec.label] = False
            continue
        if spec.signature not in outputs:
            outputs[spec.signature] = scorer_outputs(judgments, spec.scorer, signature=spec.signature, cache=cache,
                                                     progress=progress, batch_size=batch_size)
        scores, skipped, hit = outputs[spec.signature]
        if spec.column not in scores.columns:
            raise InputError(f"measure {spec.spec!r}: the scorer returned no column {spec.column!r} "
                             f"(it returned {', '.join(scores.columns)})")
        values = scores[spec.column].to_numpy(dtype=float)
        explained = set()
        for row, why in skipped:
            if not why.startswith(NO_NUMBER):
                explained.add(int(row))
                report(row, spec.label, why)
        for row in np.flatnonzero(np.isnan(values)):  # NaN or None from the scorer, in this column
            if int(row) not in explained:
                report(row, spec.label, NO_NUMBER)
        if len(values) and np.isnan(values).all():
            _no_value_anywhere(spec, judgments.name, len(values),
                               [r["reason"] for r in not_scored if r["measure"] == spec.label])
        result[spec.label] = spec.sign * values
        from_cache[spec.label] = hit
    return MeasureScores(result, signatures, not_scored, list(measures), from_cache)
