"""Ordering documents and sets (paper 002, Liu, Zeng & Li, Sec.2 and 4.1): the data model.

A *document* is a tuple of units — sentences (sentence level) or paragraphs (paragraph level) —
in their gold order. Every document is shuffled once, with a seed derived from the set's
``seed`` and the document's ``doc_id`` (so a document keeps its shuffle in any subset, mini set
or noisy copy), and the shuffle is stored with the set:

- ``OrderingSet.shuffles[d][k]`` is the gold index of the unit shown to a model at input
  position ``k``;
- ``OrderingSet.gold_order(d)`` lists the input positions in gold order (the inverse
  permutation): this is the ``gold`` order of :mod:`sumeval.ordering.metrics`, and a model's
  prediction is the list of input positions in the order it puts them.

The reference code (NSEG) reshuffles the dev and test sets every epoch, which makes its
evaluation depend on the seed; here each document is shuffled once, with a recorded seed.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError

__all__ = ["OrderingDocument", "OrderingSet", "shuffle_for", "make_set"]


@dataclass(frozen=True)
class OrderingDocument:
    """One document: ``units`` (sentences or paragraphs) in gold order.

    ``entities`` maps an entity to its occurrences ``((unit index, role id), ...)``, or is
    None when the set carries no entity annotation.
    """

    doc_id: str
    units: tuple[str, ...]
    entities: Mapping[str, tuple[tuple[int, int], ...]] | None = None

    def __len__(self) -> int:
        return len(self.units)


def shuffle_for(doc_id: str, n: int, seed: int) -> tuple[int, ...]:
    """The shuffle of a document of ``n`` units: a permutation of ``0..n-1``.

    Drawn from ``numpy.random.default_rng([seed, crc32(doc_id)])``, so it depends only on the
    set's seed and the document, never on the document's position or on the other documents.

    Args:
        doc_id: the document's id.
        n: its number of units.
        seed: the set's shuffle seed.

    Returns:
        ``shuffle[k]`` = the gold index of the unit shown at input position k.
    """
    rng = np.random.default_rng([int(seed), zlib.crc32(doc_id.encode("utf-8"))])
    return tuple(int(i) for i in rng.permutation(n))


@dataclass(frozen=True)
class OrderingSet:
    """A split of an ordering data set with one recorded shuffle per document.

    Attributes:
        name, split: e.g. ``"nips"``, ``"dev"``.
        documents: the documents (:class:`OrderingDocument`).
        shuffles: ``shuffles[d][k]`` = gold index of the unit at input position ``k`` of
            document ``d``.
        seed: the shuffle seed (see :func:`shuffle_for`).
        level: ``"sentence"`` or ``"paragraph"``.
        pretokenized: True when units are already tokenized (space-separated tokens, lower
            case: NIPS).
        meta: provenance: source files, carve-out / split seed and fractions, dropped documents.

    Raises:
        InputError: documents and shuffles of different lengths.
    """

    name: str
    split: str
    documents: tuple[OrderingDocument, ...]
    shuffles: tuple[tuple[int, ...], ...]
    seed: int
    level: str = "sentence"
    pretokenized: bool = False
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.documents) != len(self.shuffles):
            raise InputError(
                f"OrderingSet {self.name}/{self.split}: {len(self.documents)} documents but "
                f"{len(self.shuffles)} shuffles; give one shuffle per document"
            )

    def __len__(self) -> int:
        return len(self.documents)

    def shuffled_units(self, d: int) -> list[str]:
        """Units of document ``d`` in input (shuffled) order."""
        doc = self.documents[d]
        return [doc.units[g] for g in self.shuffles[d]]

    def gold_order(self, d: int) -> list[int]:
        """Input positions of document ``d`` listed in gold order (inverse of its shuffle)."""
        perm = self.shuffles[d]
        inv = [0] * len(perm)
        for k, g in enumerate(perm):
            inv[g] = k
        return inv

    def gold_orders(self) -> list[list[int]]:
        """``gold_order(d)`` for every document (the ``gold`` argument of the metrics)."""
        return [self.gold_order(d) for d in range(len(self))]

    def subset(self, indices: Sequence[int], split: str | None = None, **meta: Any) -> "OrderingSet":
        """The documents at ``indices`` (repeats allowed: bootstrap) with their shuffles.

        Args:
            indices: document indices.
            split: the new split name (default: this one).
            **meta: added to the set's ``meta``.

        Returns:
            A new set.

        Raises:
            InputError: an index out of range.
        """
        idx = [int(i) for i in indices]
        for i in idx:
            if not 0 <= i < len(self):
                raise InputError(f"subset of {self.name}/{self.split}: index {i} outside 0..{len(self) - 1}")
        return replace(
            self,
            split=split or self.split,
            documents=tuple(self.documents[i] for i in idx),
            shuffles=tuple(self.shuffles[i] for i in idx),
            meta={**self.meta, **meta},
        )

    def with_documents(self, documents: Sequence[OrderingDocument], **meta: Any) -> "OrderingSet":
        """A copy holding ``documents`` (e.g. noisy ones), each reshuffled with this set's seed."""
        docs = tuple(documents)
        return replace(
            self,
            documents=docs,
            shuffles=tuple(shuffle_for(doc.doc_id, len(doc), self.seed) for doc in docs),
            meta={**self.meta, **meta},
        )

    def stats(self) -> dict[str, float]:
        """Number of documents, mean units per document, mean whitespace tokens per unit."""
        n_units = [len(d) for d in self.documents]
        n_tok = [len(u.split()) for d in self.documents for u in d.units]
        return {
            "documents": len(self),
            "mean_units": float(np.mean(n_units)) if n_units else 0.0,
            "max_units": int(max(n_units)) if n_units else 0,
            "mean_tokens_per_unit": float(np.mean(n_tok)) if n_tok else 0.0,
        }


def make_set(name: str, split: str, docs: Sequence[OrderingDocument], seed: int, **kw: Any) -> OrderingSet:
    """An :class:`OrderingSet` of ``docs``, each shuffled by :func:`shuffle_for` with ``seed``.

    Args:
        name, split: the set's name and split.
        docs: the documents, in gold order.
        seed: the shuffle seed.
        **kw: ``level``, ``pretokenized``, ``meta`` of the set.

    Returns:
        The set.
    """
    docs = tuple(docs)
    return OrderingSet(
        name=name,
        split=split,
        documents=docs,
        shuffles=tuple(shuffle_for(doc.doc_id, len(doc), seed) for doc in docs),
        seed=int(seed),
        **kw,
    )
