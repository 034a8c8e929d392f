"""Text-ordering data sets of paper 002 (Liu, Zeng & Li, Sec.2, 4.1): loaders.

Sets (``load_ordering_set(name, split)``):

=============== ========= ============================================================================
name            level     source (``locate`` paths) and splits
=============== ========= ============================================================================
``nips``        sentence  ``ordering/nips/{train,val,test}.lower`` (+ ``.eg`` entity files); dev = val
``sind``        sentence  ``ordering/sind/{dev,test}.tsv``; train/dev carved from ``dev.tsv``
``roc``         sentence  ``ordering/roc/{valid,test}.tsv``; train/dev carved from ``valid.tsv``
``wikipedia``   paragraph both ``corpora/wikipedia/*.jsonl.gz`` (paragraphs = lines)
``bbc``         paragraph ``corpora/news/bbc2005/bbc_news_2225.jsonl.gz`` (blank-line paragraphs)
``reuters``     paragraph ``corpora/news/reuters21578/reuters21578.jsonl.gz`` (indented paragraphs)
=============== ========= ============================================================================

Paragraph-level documents keep 3 to 15 paragraphs (after dropping headings, short markup
lines and a truncated last paragraph; see :func:`clean_paragraphs`) and are split
train/dev/test 90/5/5 with a seeded permutation (the paper's proportions; its split was
chronological, which these corpora do not allow uniformly). 20 Newsgroups is not offered:
its paragraphs are mostly quoted replies and signatures.

Every loader returns an :class:`~sumeval.ordering.documents.OrderingSet` (each document shuffled
once with a recorded seed); NIPS documents carry their entity files
(:func:`~sumeval.ordering.entities.parse_entity_line`).
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from sumeval.errors import InputError
from sumeval.ordering.documents import OrderingDocument, OrderingSet, make_set
from sumeval.ordering.entities import parse_entity_line

__all__ = ["SENTENCE_SETS", "PARAGRAPH_SETS", "SPLITS", "load_ordering_set", "load_nips", "load_sind", "load_roc",
           "load_paragraph_set", "clean_paragraphs"]

from sumeval.ordering.set_names import PARAGRAPH_SETS, SENTENCE_SETS, SPLITS  # noqa: E402  (light, for the CLI)


def _check_split(name: str, split: str) -> str:
    if split not in SPLITS:
        raise InputError(f"{name}: unknown split {split!r}; use one of {', '.join(SPLITS)}")
    return split


# --------------------------------------------------------------------------------------------
# sentence level
# --------------------------------------------------------------------------------------------
def _read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _split_eos(line: str) -> list[str]:
    return [s.strip() for s in line.split("<eos>") if s.strip()]


def load_nips(split: str, seed: int = 0, entities: bool = True) -> OrderingSet:
    """NIPS abstracts (SE-Graph's copy), with their entity files.

    Sentences are split on ``<eos>``; documents of fewer than 2 sentences are dropped (the paper
    removes them) and counted in ``meta["dropped"]``.

    Args:
        split: ``train``, ``dev`` (the file ``val``) or ``test``.
        seed: the shuffle seed.
        entities: read the ``.eg`` entity files (SE-Graph's).

    Returns:
        The set (sentence level, pretokenized).

    Raises:
        InputError: an unknown split, or an entity file that does not match its documents.
    """
    from sumeval.datasets.registry import locate

    _check_split("nips", split)
    stem = {"train": "train", "dev": "val", "test": "test"}[split]
    path = locate(f"ordering/nips/{stem}.lower")
    lines = _read_lines(path)
    eg_lines: list[str] | None = None
    eg_path = None
    if entities:
        eg_path = locate(f"ordering/nips/{stem}.eg")
        eg_lines = _read_lines(eg_path)
        if len(eg_lines) != len(lines):
            raise InputError(
                f"{eg_path}: {len(eg_lines)} lines but {path} has {len(lines)} documents; "
                "the entity file needs one line per document"
            )
    docs, dropped = [], []
    for i, line in enumerate(lines):
        units = _split_eos(line)
        if len(units) < 2:
            dropped.append(i)
            continue
        ents = None
        if eg_lines is not None:
            ents = parse_entity_line(eg_lines[i], len(units), f"{eg_path}:{i + 1}")
        docs.append(OrderingDocument(f"nips/{stem}/{i}", tuple(units), ents))
    return make_set(
        "nips", split, docs, seed, level="sentence", pretokenized=True,
        meta={"source": str(path), "entities": str(eg_path) if eg_path else None, "dropped": dropped},
    )


def _carve(n: int, dev_fraction: float, carve_seed: int) -> tuple[list[int], list[int]]:
    """Split ``range(n)`` into (train, dev) index lists, dev = round(n * dev_fraction) documents."""
    if not 0.0 < dev_fraction < 1.0:
        raise InputError(f"dev_fraction = {dev_fraction!r}; use a fraction strictly between 0 and 1")
    perm = np.random.default_rng(int(carve_seed)).permutation(n)
    n_dev = int(round(n * dev_fraction))
    return sorted(int(i) for i in perm[n_dev:]), sorted(int(i) for i in perm[:n_dev])


def _load_story_set(
    name: str, split: str, first: str, test: str, sep: str, seed: int, dev_fraction: float, carve_seed: int
) -> OrderingSet:
    from sumeval.datasets.registry import locate

    _check_split(name, split)
    stem = test if split == "test" else first
    path = locate(f"ordering/{name}/{stem}.tsv")
    docs, dropped = [], []
    for i, line in enumerate(_read_lines(path)):
        units = _split_eos(line) if sep == "<eos>" else [s.strip() for s in line.split(sep) if s.strip()]
        if len(units) < 2:
            dropped.append(i)
            continue
        docs.append(OrderingDocument(f"{name}/{stem}/{i}", tuple(units)))
    meta: dict[str, Any] = {"source": str(path), "dropped": dropped}
    if split != "test":
        train_idx, dev_idx = _carve(len(docs), dev_fraction, carve_seed)
        keep = train_idx if split == "train" else dev_idx
        docs = [docs[i] for i in keep]
        meta.update(carved_from=stem, dev_fraction=dev_fraction, carve_seed=int(carve_seed))
    return make_set(name, split, docs, seed, level="sentence", pretokenized=False, meta=meta)


def load_sind(split: str, seed: int = 0, dev_fraction: float = 0.1, carve_seed: int = 0) -> OrderingSet:
    """SIND stories (5 sentences, ``<eos>``-separated). No train split exists here: train and dev
    are carved from ``dev.tsv``.

    Args:
        split: ``train``, ``dev`` or ``test``.
        seed: the shuffle seed.
        dev_fraction: the share of ``dev.tsv`` carved out as dev.
        carve_seed: the seed of the carve-out.

    Returns:
        The set (sentence level).
    """
    return _load_story_set("sind", split, "dev", "test", "<eos>", seed, dev_fraction, carve_seed)


def load_roc(split: str, seed: int = 0, dev_fraction: float = 0.1, carve_seed: int = 0) -> OrderingSet:
    """ROCStories (5 tab-separated sentences). Train and dev are carved from ``valid.tsv``
    (arguments as :func:`load_sind`).
    """
    return _load_story_set("roc", split, "valid", "test", "\t", seed, dev_fraction, carve_seed)


# --------------------------------------------------------------------------------------------
# paragraph level
# --------------------------------------------------------------------------------------------
_PARAGRAPH_SOURCES: dict[str, tuple[str, ...]] = {
    "wikipedia": (
        "corpora/wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz",
        "corpora/wikipedia/enwiki2018_newarticles_vibhas.jsonl.gz",
    ),
    "bbc": ("corpora/news/bbc2005/bbc_news_2225.jsonl.gz",),
    "reuters": ("corpora/news/reuters21578/reuters21578.jsonl.gz",),
}
_FINAL = ('.', '!', '?', '"', "'", ')', '”', '’')


def _raw_paragraphs(domain: str, text: str) -> list[str]:
    """Paragraphs of one record's ``text`` as the collection marks them."""
    if domain == "wikipedia":
        parts = text.split("\n")
    elif domain == "bbc":
        try:  # this copy holds UTF-8 read as Latin-1 ("Â£" for "£"); undo it where it applies
            text = text.encode("latin-1").decode("utf-8")
        except UnicodeError:
            pass
        parts = re.split(r"\n\s*\n", text)
    elif domain == "reuters":
        body = re.sub(r"\s*Reuter\s*(&#3;)?\s*$", "", text)
        parts = re.split(r"\n(?: {3,}|\t)", body)
    else:  # pragma: no cover - guarded by load_paragraph_set
        raise InputError(f"unknown paragraph domain {domain!r}")
    return [re.sub(r"\s+", " ", p).strip() for p in parts]


def clean_paragraphs(paragraphs: Iterable[str], min_words: int = 8) -> tuple[list[str], int]:
    """Keep real paragraphs.

    Dropped: empty lines, lines of fewer than ``min_words`` words (section headings such as
    "History.", markup remnants) and a last paragraph that does not end like a sentence (the 2015
    Wikipedia texts are cut at about 4000 characters).

    Args:
        paragraphs: the paragraphs of one document, in order.
        min_words: the fewest words of a kept paragraph.

    Returns:
        ``(kept, n_dropped)``; empty lines are not counted as dropped.
    """
    paras = [p for p in paragraphs if p]
    kept = [p for p in paras if len(p.split()) >= min_words]
    if kept and not kept[-1].endswith(_FINAL):
        kept.pop()
    return kept, len(paras) - len(kept)


def _paragraph_documents(domain: str, min_words: int, progress: bool = False) -> tuple[list[OrderingDocument], dict]:
    """Every document of ``domain`` as cleaned paragraphs (all lengths), cached in the Store."""
    from sumeval.cache import Store, cache_key
    from sumeval.datasets.registry import locate

    paths = [locate(p) for p in _PARAGRAPH_SOURCES[domain]]
    key = cache_key(
        what="ordering_paragraph_documents", rules=2, domain=domain, min_words=min_words,
        files=[(p.name, p.stat().st_size, int(p.stat().st_mtime)) for p in paths],
    )
    store = Store("ordering_data")
    cached = store.get_json(key)
    if cached is not None:
        docs = [OrderingDocument(d[0], tuple(d[1])) for d in cached["documents"]]
        return docs, cached["info"]
    docs = []
    n_records = n_dropped_paras = 0
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise InputError(f"{path}:{lineno}: not a JSON object ({e}); the file may be damaged") from None
                n_records += 1
                text = rec.get("text") or ""
                paras, dropped = clean_paragraphs(_raw_paragraphs(domain, text), min_words)
                n_dropped_paras += dropped
                docs.append(OrderingDocument(f"{domain}/{rec.get('id', f'{path.name}:{lineno}')}", tuple(paras)))
    info = {"sources": [str(p) for p in paths], "records": n_records, "dropped_paragraphs": n_dropped_paras}
    store.put_json(key, {"documents": [[d.doc_id, list(d.units)] for d in docs], "info": info})
    return docs, info


def load_paragraph_set(
    domain: str,
    split: str,
    seed: int = 0,
    split_seed: int = 0,
    min_units: int = 3,
    max_units: int = 15,
    fractions: tuple[float, float, float] = (0.9, 0.05, 0.05),
    min_words: int = 8,
) -> OrderingSet:
    """Paragraph ordering set of one domain.

    A document is its cleaned paragraphs (:func:`clean_paragraphs`), kept when it has
    ``min_units`` to ``max_units`` of them; the kept documents are split train/dev/test by
    ``fractions`` with a permutation seeded by ``split_seed`` (the paper's 90/5/5).

    Args:
        domain: ``wikipedia``, ``bbc`` or ``reuters``.
        split: ``train``, ``dev`` or ``test``.
        seed: the shuffle seed.
        split_seed: the seed of the train/dev/test split.
        min_units, max_units: the paragraph counts kept.
        fractions: train, dev, test shares (positive, summing to 1).
        min_words: see :func:`clean_paragraphs`.

    Returns:
        The set (paragraph level).

    Raises:
        InputError: an unknown domain or split, or bad fractions.
    """
    if domain not in _PARAGRAPH_SOURCES:
        raise InputError(f"unknown paragraph domain {domain!r}; use one of {', '.join(_PARAGRAPH_SOURCES)}")
    _check_split(domain, split)
    if len(fractions) != 3 or abs(sum(fractions) - 1.0) > 1e-9 or min(fractions) <= 0:
        raise InputError(f"fractions = {fractions!r}; give three positive train/dev/test fractions summing to 1")
    all_docs, info = _paragraph_documents(domain, min_words)
    docs = [d for d in all_docs if min_units <= len(d) <= max_units]
    n = len(docs)
    perm = np.random.default_rng(int(split_seed)).permutation(n)
    n_train = int(round(n * fractions[0]))
    n_dev = int(round(n * fractions[1]))
    parts = {"train": perm[:n_train], "dev": perm[n_train:n_train + n_dev], "test": perm[n_train + n_dev:]}
    chosen = [docs[i] for i in sorted(int(i) for i in parts[split])]
    meta = {
        **info, "kept_documents": n, "min_units": min_units, "max_units": max_units,
        "fractions": list(fractions), "split_seed": int(split_seed), "min_words": min_words,
    }
    return make_set(domain, split, chosen, seed, level="paragraph", pretokenized=False, meta=meta)


def load_ordering_set(name: str, split: str, seed: int = 0, **kwargs: Any) -> OrderingSet:
    """Any set by name (see the module table).

    Args:
        name: a name of :data:`SENTENCE_SETS` or :data:`PARAGRAPH_SETS`.
        split: ``train``, ``dev`` or ``test``.
        seed: the shuffle seed.
        **kwargs: go to its loader.

    Returns:
        The set.

    Raises:
        InputError: an unknown name.
    """
    if name == "nips":
        return load_nips(split, seed=seed, **kwargs)
    if name == "sind":
        return load_sind(split, seed=seed, **kwargs)
    if name == "roc":
        return load_roc(split, seed=seed, **kwargs)
    if name in _PARAGRAPH_SOURCES:
        return load_paragraph_set(name, split, seed=seed, **kwargs)
    raise InputError(
        f"unknown ordering set {name!r}; use one of {', '.join(SENTENCE_SETS + PARAGRAPH_SETS)}"
    )
