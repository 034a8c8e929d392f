"""Where each row of a score frame sits: its input (document) and its system.

Inputs and systems are coded 0, 1, ... in their order of first appearance in the frame; resample
indices and permutation masks refer to these codes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.stats.checks import check_columns, check_frame

__all__ = ["Layout", "frame_layout", "check_system_count"]


@dataclass(frozen=True)
class Layout:
    """Where each row of a score frame sits: its document and (if needed) its system."""

    doc: np.ndarray  # (N,) int document code, 0..n_docs-1 in order of first appearance
    n_docs: int
    sys: np.ndarray | None  # (N,) int system code, or None when no level needs systems
    n_sys: int

    def grid(self, values: np.ndarray) -> np.ndarray:
        """Row values (N,) -> (n_docs, n_systems) grid; NaN for absent (doc, system) pairs."""
        g = np.full((self.n_docs, self.n_sys), np.nan)
        g[self.doc, self.sys] = values
        return g


def _codes(frame: pd.DataFrame, col: str, what: str) -> tuple[np.ndarray, pd.Index]:
    """Codes (N,) of the ids in ``col`` in order of first appearance, and the ids."""
    check_columns(frame, [col], f"{what}s, {'doc_col' if what == 'document' else 'system_col'}")
    codes, ids = pd.factorize(frame[col], use_na_sentinel=True)
    if (codes < 0).any():
        first = frame.index[int(np.flatnonzero(codes < 0)[0])]
        raise InputError(
            f"column {col!r} has {int((codes < 0).sum())} missing {what} id(s) "
            f"(first at row {first!r}); every row needs a {what} id"
        )
    return codes, ids


def frame_layout(frame: pd.DataFrame, doc_col: str, system_col: str, need_systems: bool) -> Layout:
    """The :class:`Layout` of ``frame`` (N rows): document codes (N,) and, with ``need_systems``, system codes
    (N,). Raises InputError for an empty frame, a missing id, or a (document, system) pair given twice."""
    check_frame(frame)
    if len(frame) == 0:
        raise InputError("the frame has no rows; nothing to correlate")
    doc, docs = _codes(frame, doc_col, "document")
    if not need_systems:
        return Layout(doc=doc, n_docs=len(docs), sys=None, n_sys=0)
    sys, systems = _codes(frame, system_col, "system")
    key = doc.astype(np.int64) * len(systems) + sys
    _, first_idx, counts = np.unique(key, return_index=True, return_counts=True)
    if (counts > 1).any():
        k = int(np.flatnonzero(counts > 1)[0])
        row = int(first_idx[k])
        raise InputError(
            f"({doc_col}={docs[doc[row]]!r}, {system_col}={systems[sys[row]]!r}) occurs "
            f"{int(counts[k])} times; the document and system levels need one row per "
            f"(document, system) pair: aggregate or drop the duplicates first"
        )
    return Layout(doc=doc, n_docs=len(docs), sys=sys, n_sys=len(systems))


def check_system_count(lay: Layout, level: str) -> None:
    """A system-level correlation needs at least 3 systems (2 points always correlate +-1)."""
    if lay.n_sys < 3:
        raise InputError(
            f"the {level!r} level correlates per-system means, and the frame has "
            f"{lay.n_sys} system(s); it needs at least 3 (use the 'input' or 'global' level, "
            f"or add systems)"
        )
