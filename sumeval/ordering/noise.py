"""Noisy and mini ordering sets of paper 002 (Liu, Zeng & Li, Sec.4.4.1).

Noise: every unit (sentence or paragraph) of a document is contaminated with probability
``p``, by one of the ``kinds`` chosen uniformly:

- ``insert``: an advertising slogan (``slogans/slogans.csv``) placed before the unit, as a
  prefix of its text (the unit count, hence the gold order, is unchanged);
- ``remove``: the unit is dropped. A removal that would leave the document with fewer than
  ``min_units`` units is replaced by one of the other kinds (recorded as such);
- ``modify``: ``round(modify_fraction * n_tokens)`` of its whitespace tokens, picked at random,
  are each changed by one of: *concatenate* with the next token (not for the last token),
  *split* at a random inner point (tokens of 2+ characters), *replace* one character with a
  character of :data:`SUBSTITUTION` — an inapplicable operation falls back to *replace*.

Each noisy document keeps its ``doc_id`` and is reshuffled with the set's seed
(:meth:`OrderingSet.with_documents`). Entity annotations follow the units: occurrences in
removed units disappear, the others are renumbered, and an occurrence whose entity no longer
appears among its unit's tokens (modified away) is dropped. ``meta["noise"]`` records ``p``,
the seed and, per document, the ``(gold unit index, kind)`` of every contaminated unit.

Mini sets (:func:`mini_sets`): bootstrap samples of a training set of given sizes, each with
a dev sample keeping the original dev/train proportion; resample ``r`` of size ``s`` is drawn
with ``default_rng([seed, s, r])``, so it does not depend on which other sizes are drawn.
"""
from __future__ import annotations

import csv
import string
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.ordering.documents import OrderingDocument, OrderingSet

KINDS = ("insert", "remove", "modify")
SUBSTITUTION = string.ascii_letters + string.digits + string.punctuation

__all__ = ["KINDS", "SUBSTITUTION", "load_slogans", "modify_text", "noisy_document", "noisy_set",
           "MiniSet", "mini_sets"]


def load_slogans() -> list[str]:
    """The slogans of ``slogans/slogans.csv`` (column ``slogan``), stripped, empty ones left out."""
    from sumeval.datasets.registry import locate

    path = locate("slogans/slogans.csv")
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames is None or "slogan" not in reader.fieldnames:
            raise InputError(f"{path}: no 'slogan' column (columns: {reader.fieldnames}); expected company,slogan")
        slogans = [row["slogan"].strip() for row in reader if (row.get("slogan") or "").strip()]
    if not slogans:
        raise InputError(f"{path}: no slogans found")
    return slogans


def modify_text(text: str, rng: np.random.Generator, fraction: float = 0.5) -> str:
    """Modify ``round(fraction * n)`` of the ``n`` whitespace tokens of ``text`` (see the module doc).

    Args:
        text: the unit's text.
        rng: the random generator.
        fraction: the share of tokens modified.

    Returns:
        The modified text.
    """
    tokens = text.split()
    n = len(tokens)
    k = int(round(fraction * n))
    if n == 0 or k == 0:
        return text
    picked = set(int(i) for i in rng.choice(n, size=k, replace=False))
    out: list[str] = []
    i = 0
    while i < n:
        tok = tokens[i]
        if i in picked:
            op = ("concatenate", "split", "replace")[int(rng.integers(3))]
            if op == "concatenate" and i + 1 < n:
                out.append(tok + tokens[i + 1])
                i += 2
                continue
            if op == "split" and len(tok) >= 2:
                cut = int(rng.integers(1, len(tok)))
                out.extend([tok[:cut], tok[cut:]])
                i += 1
                continue
            pos = int(rng.integers(len(tok)))
            choices = [c for c in SUBSTITUTION if c != tok[pos]]
            tok = tok[:pos] + choices[int(rng.integers(len(choices)))] + tok[pos + 1:]
        out.append(tok)
        i += 1
    return " ".join(out)


def noisy_document(
    doc: OrderingDocument,
    p: float,
    rng: np.random.Generator,
    slogans: Sequence[str],
    kinds: Sequence[str] = KINDS,
    min_units: int = 2,
    modify_fraction: float = 0.5,
) -> tuple[OrderingDocument, list[tuple[int, str]]]:
    """A contaminated copy of ``doc`` (paper 002 Sec.4.4.1): each unit with probability ``p``.

    Args:
        doc: the document.
        p: the probability that a unit is contaminated.
        rng: the random generator.
        slogans: the advertising slogans of Insert.
        kinds: the kinds drawn from, uniformly (``insert``, ``remove``, ``modify``).
        min_units: a removal that would leave fewer units becomes another kind.
        modify_fraction: see :func:`modify_text`.

    Returns:
        ``(noisy document, [(gold unit index, kind), ...])``.
    """
    kinds = tuple(kinds)
    n = len(doc.units)
    hit = rng.random(n) < p
    chosen = [kinds[int(rng.integers(len(kinds)))] if h else None for h in hit]
    # keep at least min_units units: turn surplus removals into another kind
    others = tuple(k for k in kinds if k != "remove")
    n_remove = sum(c == "remove" for c in chosen)
    if n - n_remove < min_units:
        removes = [i for i, c in enumerate(chosen) if c == "remove"]
        excess = min_units - (n - n_remove)
        for i in rng.permutation(removes)[:excess]:
            if not others:
                chosen[int(i)] = None
            else:
                chosen[int(i)] = others[int(rng.integers(len(others)))]
    units: list[str] = []
    new_index: dict[int, int] = {}
    record: list[tuple[int, str]] = []
    for i, (u, c) in enumerate(zip(doc.units, chosen)):
        if c is not None:
            record.append((i, c))
        if c == "remove":
            continue
        if c == "insert":
            u = f"{slogans[int(rng.integers(len(slogans)))]} {u}"
        elif c == "modify":
            u = modify_text(u, rng, modify_fraction)
        new_index[i] = len(units)
        units.append(u)
    entities = None
    if doc.entities is not None:
        entities = {}
        token_sets = [set(u.lower().split()) for u in units]
        for ent, occ in doc.entities.items():
            kept = tuple(
                (new_index[s], r) for s, r in occ
                if s in new_index and ent.lower() in token_sets[new_index[s]]
            )
            if kept:
                entities[ent] = kept
    return OrderingDocument(doc.doc_id, tuple(units), entities), record


def noisy_set(
    oset: OrderingSet,
    p: float,
    seed: int,
    kinds: Sequence[str] = KINDS,
    slogans: Sequence[str] | None = None,
    min_units: int = 2,
    modify_fraction: float = 0.5,
) -> OrderingSet:
    """``oset`` with every unit contaminated with probability ``p`` (paper 002 Sec.4.4.1: 0.2, 0.5,
    0.8, 1.0).

    Args:
        oset: the set.
        p: the probability.
        seed: seed of the contamination (one generator, over the documents in order).
        kinds, min_units, modify_fraction: see :func:`noisy_document`.
        slogans: Insert's slogans (default :func:`load_slogans`).

    Returns:
        The noisy set, reshuffled with its seed; ``meta["noise"]`` records what was done.

    Raises:
        InputError: ``p`` or ``modify_fraction`` outside [0, 1], or unknown kinds.
    """
    if not 0.0 <= p <= 1.0:
        raise InputError(f"p = {p!r}: the contamination probability must lie in [0, 1]")
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise InputError(f"kinds = {list(kinds)!r}: use a non-empty subset of {list(KINDS)}")
    if not 0.0 <= modify_fraction <= 1.0:
        raise InputError(f"modify_fraction = {modify_fraction!r}: use a fraction in [0, 1]")
    if slogans is None:
        slogans = load_slogans() if "insert" in kinds else []
    rng = np.random.default_rng(int(seed))
    docs, records = [], []
    for doc in oset.documents:
        nd, rec = noisy_document(doc, p, rng, slogans, kinds, min_units, modify_fraction)
        docs.append(nd)
        records.append(rec)
    noise = {"p": p, "seed": int(seed), "kinds": list(kinds), "min_units": min_units,
             "modify_fraction": modify_fraction, "records": records}
    return oset.with_documents(docs, noise=noise)


@dataclass(frozen=True)
class MiniSet:
    """One bootstrap resample: ``train`` of ``size`` documents and its proportional ``dev``."""

    size: int
    resample: int
    train: OrderingSet
    dev: OrderingSet


def mini_sets(
    train: OrderingSet,
    dev: OrderingSet,
    sizes: Sequence[int],
    n_resamples: int | Sequence[int] | Mapping[int, int],
    seed: int,
) -> list[MiniSet]:
    """Bootstrap mini training sets (paper 002 Sec.4.4.1: sizes 1k, 3k, 5k, 8k, 10k with
    20/10/5/5/5 resamples).

    Each resample draws ``size`` training documents with replacement from ``train`` and
    ``max(1, round(size * len(dev) / len(train)))`` dev documents with replacement from ``dev``.
    The drawn indices are recorded in each set's ``meta["mini"]``.

    Args:
        train, dev: the sets drawn from.
        sizes: training-set sizes.
        n_resamples: one count for every size, a list aligned with ``sizes``, or a mapping
            size -> count.
        seed: resample r of size s is drawn with ``default_rng([seed, s, r])``.

    Returns:
        The mini sets (:class:`MiniSet`).
    """
    if len(train) == 0 or len(dev) == 0:
        raise InputError(f"mini_sets: train has {len(train)} and dev {len(dev)} documents; both must be non-empty")
    sizes = [int(s) for s in sizes]
    for s in sizes:
        if s <= 0:
            raise InputError(f"mini_sets: size {s} must be a positive number of documents")
    if isinstance(n_resamples, Mapping):
        missing = [s for s in sizes if s not in n_resamples]
        if missing:
            raise InputError(f"mini_sets: n_resamples has no count for sizes {missing}")
        counts = [int(n_resamples[s]) for s in sizes]
    elif isinstance(n_resamples, (int, np.integer)):
        counts = [int(n_resamples)] * len(sizes)
    else:
        counts = [int(c) for c in n_resamples]
        if len(counts) != len(sizes):
            raise InputError(
                f"mini_sets: {len(counts)} resample counts for {len(sizes)} sizes; give one per size"
            )
    ratio = len(dev) / len(train)
    out = []
    for size, count in zip(sizes, counts):
        n_dev = max(1, int(round(size * ratio)))
        for r in range(count):
            rng = np.random.default_rng([int(seed), size, r])
            ti = rng.integers(0, len(train), size=size)
            di = rng.integers(0, len(dev), size=n_dev)
            info = {"size": size, "resample": r, "seed": int(seed)}
            out.append(MiniSet(
                size=size,
                resample=r,
                train=train.subset(ti, mini={**info, "indices": [int(i) for i in ti]}),
                dev=dev.subset(di, mini={**info, "indices": [int(i) for i in di]}),
            ))
    return out
