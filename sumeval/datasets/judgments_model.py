"""The judgments data set as sumeval holds it: :class:`Judgments` (a validated frame and the roles
of its columns), :class:`ColumnMap`, how a checked frame's columns are sorted into humans,
annotators and measures, and the correlation levels a data set supports (:func:`check_level`).

:mod:`sumeval.datasets.judgments` loads data sets and re-exports everything here.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import pandas as pd

from sumeval.errors import InputError

__all__ = ["ROLES", "TEXT_FIELDS", "MIN_SYSTEMS", "MIN_PAIRS", "MIN_SYSTEMS_PER_DOCUMENT", "ROLE_FLAGS",
           "ColumnMap", "Judgments", "systems_missing_documents", "check_level", "classify_frame"]

#: the roles a column can be mapped to, in the frame's column order
ROLES: tuple[str, ...] = ("doc_id", "system", "summary", "text", "references")
#: the text fields measures read (besides the ids)
TEXT_FIELDS: tuple[str, ...] = ("summary", "text", "references")
#: the fewest systems / pairs a level needs (2 points give a correlation of +-1 whatever they are)
MIN_SYSTEMS = 3
MIN_PAIRS = 3
MIN_SYSTEMS_PER_DOCUMENT = 2
#: the command-line flag that maps each role to a column
ROLE_FLAGS = {"doc_id": "--doc-col", "system": "--system-col", "summary": "--summary-col",
              "text": "--text-col", "references": "--references-col"}


# --------------------------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ColumnMap:
    """Which column of the file plays each role (the defaults are the roles' own names)."""

    doc_id: str = "doc_id"
    system: str = "system"
    summary: str = "summary"
    text: str = "text"
    references: str = "references"

    @classmethod
    def from_options(cls, **given: str | None) -> ColumnMap:
        """A map from role options (``doc_id="article_id"``); None keeps the default."""
        return cls(**{k: v for k, v in given.items() if v is not None})

    def as_dict(self) -> dict[str, str]:
        return {r: getattr(self, r) for r in ROLES}

    def non_default(self) -> dict[str, str]:
        """The roles mapped to another column than their own name."""
        return {r: c for r, c in self.as_dict().items() if c != r}


@dataclass(frozen=True, eq=False)
class Judgments:
    """A judgments data set, validated.

    Attributes:
        frame: one row per (document, system), index 0..n-1: ``doc_id``, ``system``, the text fields
            present (``summary``, ``text``, ``references`` - a list of str), then the file's other columns in
            file order: human, annotator and measure columns as float64 (NaN where missing), other columns as read.
        name: the data set's name (a built-in or registered name, or the file's stem)
        path: the file read (built-ins: the pairs file)
        sha256: the file's sha256 (built-ins: a sha256 over the sha256 of every file read)
        format: ``jsonl``, ``csv``, ``tsv``, ``parquet`` or ``builtin``
        humans: the human columns
        annotators: ``{human: (annotator column, ...)}`` for the humans that have them
        measures: the precomputed measure columns (numeric, neither ids nor humans nor annotators)
        fields: the text fields present, of :data:`TEXT_FIELDS`
        lower_is_better: measure columns declared lower-is-better (shown negated)
        other_columns: the columns kept but not used (not numeric, or humans not selected)
        columns: the :class:`ColumnMap` the file was read with
        locations: where each row came from (``"file.csv:7"``), or None for built-ins
        systems_missing_documents: ``{system: (doc_id, ...)}`` for each system absent from some documents (allowed,
            reported)
        limits: what the data set cannot do and why, ``{text field or level: reason}`` (built-in sets only, e.g.
            FRANK ``{"summary": "FRANK has no texts ..."}``, Rank19 ``{"system": ...}``); :func:`check_level` and the
            measure checks put the reason in their errors
        opt_in_measures: measure columns used only when named, never as a study's default (SummEval's LLM judges, so
            that today's SummEval studies do not change); see :attr:`default_measures`
        notes: what a reader of the data set must know (built-in sets only; ``describe`` prints them), e.g.
            Newsroom's ``rater_k`` are slots, not persons
    """

    frame: pd.DataFrame
    name: str
    path: Path | None
    sha256: str
    format: str
    humans: tuple[str, ...]
    annotators: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    measures: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    lower_is_better: tuple[str, ...] = ()
    other_columns: tuple[str, ...] = ()
    columns: ColumnMap = field(default_factory=ColumnMap)
    locations: tuple[str, ...] | None = None
    systems_missing_documents: Mapping[str, tuple] = field(default_factory=dict)
    limits: Mapping[str, str] = field(default_factory=dict)
    opt_in_measures: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.frame)

    @property
    def documents(self) -> list:
        """Document ids in order of first appearance."""
        return list(pd.unique(self.frame["doc_id"]))

    @property
    def systems(self) -> list:
        """System ids in order of first appearance."""
        return list(pd.unique(self.frame["system"]))

    @property
    def default_measures(self) -> tuple[str, ...]:
        """The measure columns a study uses when it is given none: :attr:`measures` without
        :attr:`opt_in_measures`."""
        return tuple(m for m in self.measures if m not in self.opt_in_measures)

    @property
    def annotator_columns(self) -> tuple[str, ...]:
        return tuple(c for cols in self.annotators.values() for c in cols)

    def row_ids(self) -> list[str]:
        """``"doc_id|system"`` per row: the rows' identity in cache keys."""
        return [f"{d}|{s}" for d, s in zip(self.frame["doc_id"], self.frame["system"])]

    def location(self, row: int) -> str:
        """Where row ``row`` (0-based position) came from, for messages."""
        if self.locations is not None:
            return self.locations[row]
        r = self.frame.iloc[row]
        return f"{self.name}: doc {r['doc_id']!r}, system {r['system']!r}"

    def first_documents(self, n_docs: int | None) -> Judgments:
        """The rows of the first ``n_docs`` documents (order of first appearance); all for None."""
        if n_docs is None:
            return self
        if isinstance(n_docs, bool) or not isinstance(n_docs, (int, np.integer)) or n_docs < 1:
            raise InputError(f"n_docs must be a positive integer or None (all documents), got {n_docs!r}")
        if n_docs > len(self.documents):
            raise InputError(f"n_docs {n_docs} is more than the {len(self.documents)} documents of data set "
                             f"{self.name!r}; give at most {len(self.documents)}, or none for all")
        keep = set(self.documents[: int(n_docs)])
        mask = self.frame["doc_id"].isin(keep).to_numpy()
        frame = self.frame[mask].reset_index(drop=True)
        locations = None if self.locations is None else tuple(np.asarray(self.locations, dtype=object)[mask])
        return replace(self, frame=frame, locations=locations,
                       systems_missing_documents=systems_missing_documents(frame))

    def describe(self) -> str:
        """A few lines: what the data set holds and where it comes from."""
        f = self.frame
        lines = [f"{self.name}: {len(f)} summaries, {f['doc_id'].nunique()} documents, "
                 f"{f['system'].nunique()} systems ({self.format}: {self.path})",
                 f"  sha256     {self.sha256}",
                 f"  human      {', '.join(self.humans)}",
                 f"  text       {', '.join(self.fields) or '(none)'}"]
        for h, cols in self.annotators.items():
            n = int(f[list(cols)].notna().any(axis=1).sum())
            lines.append(f"  annotators {h}: {', '.join(cols)} ({n} rows)")
        if self.default_measures:
            neg = set(self.lower_is_better)
            lines.append("  measures   " + ", ".join(m + (" (lower is better)" if m in neg else "")
                                                     for m in self.default_measures))
        if self.opt_in_measures:
            lines.append(f"  opt-in     {', '.join(self.opt_in_measures)} (used only when named)")
        if self.other_columns:
            lines.append(f"  unused     {', '.join(self.other_columns)}")
        for what, reason in self.limits.items():
            lines.append(f"  cannot     {what}: {reason}")
        lines += [f"  note       {n}" for n in self.notes]
        mapped = self.columns.non_default()
        if mapped:
            lines.append("  columns    " + ", ".join(f"{r} <- {c}" for r, c in mapped.items()))
        for system, docs in self.systems_missing_documents.items():
            shown = ", ".join(map(repr, docs[:5])) + (" ..." if len(docs) > 5 else "")
            lines.append(f"  note: system {system!r} has no summary for {len(docs)} document(s): {shown}")
        return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Sorting the columns of a checked frame
# --------------------------------------------------------------------------------------------
def systems_missing_documents(frame: pd.DataFrame) -> dict[Any, tuple]:
    """``{system: (doc_id, ...)}``: the documents each system has no row for (only systems with some)."""
    docs = list(pd.unique(frame["doc_id"]))
    have = frame.groupby("system", sort=False)["doc_id"].agg(set)
    out = {}
    for system, got in have.items():
        lacking = tuple(d for d in docs if d not in got)
        if lacking:
            out[system] = lacking
    return out


def classify_frame(frame: pd.DataFrame, *, name: str, path: Path | None, sha256: str, fmt: str,
                   humans: tuple[str, ...], lower: tuple[str, ...], columns: ColumnMap,
                   locations: tuple[str, ...] | None) -> Judgments:
    """The :class:`Judgments` of a checked frame: annotator, measure and other columns sorted out."""
    annotators: dict[str, list[str]] = {}
    measures, others = [], []
    for col in frame.columns:
        if col in ROLES or col in humans:
            continue
        base, slash, _ = col.partition("/")
        if slash and base in humans:
            annotators.setdefault(base, []).append(col)
        elif pd.api.types.is_float_dtype(frame[col]) or (
                pd.api.types.is_numeric_dtype(frame[col]) and not pd.api.types.is_bool_dtype(frame[col])):
            measures.append(col)
        else:
            others.append(col)
    for col in lower:
        if col not in measures:
            where = f"{path}: " if path is not None else ""
            raise InputError(f"{where}--lower-is-better {col!r}: not a measure column (the numeric "
                             f"columns that are neither ids nor human nor annotator columns: "
                             f"{', '.join(measures) or 'none'})")
    return Judgments(
        frame=frame.reset_index(drop=True), name=name, path=path, sha256=sha256, format=fmt,
        humans=tuple(humans), annotators={h: tuple(c) for h, c in annotators.items()},
        measures=tuple(measures), fields=tuple(f for f in TEXT_FIELDS if f in frame.columns),
        lower_is_better=tuple(lower), other_columns=tuple(others), columns=columns,
        locations=locations, systems_missing_documents=systems_missing_documents(frame))


# --------------------------------------------------------------------------------------------
# Levels
# --------------------------------------------------------------------------------------------
def check_level(judgments: Judgments, level: str, human: str | None = None) -> dict[str, Any]:
    """Refuse a correlation level that ``judgments`` cannot support.

    * global: at least :data:`MIN_PAIRS` (3) pairs;
    * system: at least :data:`MIN_SYSTEMS` (3) systems (with two, every correlation is +-1);
    * input: every document has at least :data:`MIN_SYSTEMS_PER_DOCUMENT` (2) systems;
    * a level the data set names in :attr:`Judgments.limits` (Rank19's system level) is refused
      with the reason recorded there.

    Only rows where ``human`` (a human column) has a value count, when it is given.

    Returns ``{"level", "pairs", "documents", "systems"}`` (counts of what the level uses);
    raises :class:`InputError` naming the data set, the level and the counts.
    """
    from sumeval.stats.checks import canonical_level  # the one level policy (sumeval.stats: not at import)

    lv = canonical_level(level)
    if lv in judgments.limits:
        raise InputError(f"the {lv} level does not apply to {judgments.name}: {judgments.limits[lv]}")
    frame = judgments.frame
    if human is not None:
        if human not in judgments.frame.columns:
            raise InputError(f"human column {human!r} is not in {judgments.name} (human columns: "
                             f"{', '.join(judgments.humans)})")
        frame = frame[frame[human].notna()]
    what = f"{judgments.name}" + (f" (rows with a {human!r} score)" if human else "")
    n_pairs = len(frame)
    systems = list(pd.unique(frame["system"]))
    per_doc = frame.groupby("doc_id", sort=False)["system"].nunique()
    counts = {"level": lv, "pairs": n_pairs, "documents": int(len(per_doc)), "systems": len(systems)}
    if lv in ("global", "partial") and n_pairs < MIN_PAIRS:
        raise InputError(f"{lv} level needs at least {MIN_PAIRS} summaries; {what} has {n_pairs}")
    if lv == "system" and len(systems) < MIN_SYSTEMS:
        raise InputError(f"system level needs at least {MIN_SYSTEMS} systems; {what} has "
                         f"{len(systems)} ({', '.join(map(repr, systems))}); use the input or "
                         "global level")
    if lv == "input":
        few = per_doc[per_doc < MIN_SYSTEMS_PER_DOCUMENT]
        if len(per_doc) == 0 or len(few):
            shown = ", ".join(f"{d!r} ({k})" for d, k in list(few.items())[:5])
            raise InputError(
                f"input level needs at least {MIN_SYSTEMS_PER_DOCUMENT} systems on every document; "
                f"in {what}, {len(few)} of {len(per_doc)} documents have fewer: {shown or 'none'}"
                f"{' ...' if len(few) > 5 else ''}. Drop those documents or use the global level")
    return counts
