"""Words, word-pieces and the plan of forward passes of the masked-embedding engine.

The masking scheme follows the reference implementation of ESTIME (paper 000, Sec.2; Vasilyev &
Bohannon's ``blanc/estime.py``): every word of a text is masked exactly once, in groups of words
at least ``min_distance`` words apart, inside windows of at most ``window`` pieces.

1. The text is NFKD-normalised and split into *words* (``word_splitter="treebank"``: NLTK's
   Penn-Treebank tokenizer, as the reference's ``word_tokenize``; without NLTK's punkt data a
   sentence-final period glued to a word is split off unless the word is an abbreviation). Each
   word is encoded alone by the model's tokenizer into its word-pieces; a word that gives no
   piece (a lone control character) is dropped (:func:`word_pieces`).
2. Word indices are split into groups whose members are at least ``min_distance`` (8) words
   apart: greedy over the sorted indices, repeated over the leftovers, about 8 groups
   (:func:`group_separated`).
3. For each group, windows of at most ``window`` (450) pieces: a window starts ``margin`` (50)
   pieces before the first group word not yet done; the group words lying wholly within the
   first ``window - margin`` (400) pieces of the window are masked in it (**every** piece of
   each), and the window is fed as ``CLS window SEP`` (:func:`plan_passes`, :class:`Pass`).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from sumeval.errors import InputError

__all__ = ["split_words", "word_pieces", "group_separated", "Pass", "plan_passes"]

_ABBREVIATIONS = frozenset("""
mr mrs ms dr prof st jr sr inc ltd co corp vs etc no gen gov sen rep lt col sgt capt cmdr mt ft
jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun est approx dept univ
""".split())
_INITIALS = re.compile(r"^(?:[^\W\d_]\.)+$")
_FALLBACK_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def split_words(text: str, method: str = "treebank") -> list[tuple[int, int]]:
    """Character spans of the words of ``text``.

    Args:
        text: the (normalised) text.
        method: ``"treebank"`` - NLTK's Penn-Treebank word tokenizer (the reference's
            ``word_tokenize`` without punkt sentence splitting; a period glued to the end of a
            word is split off unless the word looks like an abbreviation: ``Mr.``, ``U.S.``,
            ``e.g.``); ``"whitespace"`` - split on white space only; ``"punct"`` - runs of word
            characters and single punctuation marks.

    Returns:
        ``[(start, end), ...]`` in text order.

    Raises:
        InputError: an unknown ``method``.

    >>> split_words("Mr. Smith came.", "treebank")
    [(0, 3), (4, 9), (10, 14), (14, 15)]
    """
    if not text:
        return []
    if method == "whitespace":
        return [m.span() for m in re.finditer(r"\S+", text)]
    if method == "punct":
        return [m.span() for m in _FALLBACK_WORD.finditer(text)]
    if method != "treebank":
        raise InputError(f"word_splitter {method!r} is unknown; use 'treebank', 'punct' or 'whitespace'")
    from nltk.tokenize import NLTKWordTokenizer

    try:
        spans = list(NLTKWordTokenizer().span_tokenize(text))
    except (ValueError, LookupError):  # alignment failure on odd quoting: fall back
        return [m.span() for m in _FALLBACK_WORD.finditer(text)]
    out: list[tuple[int, int]] = []
    for s, e in spans:
        w = text[s:e]
        if len(w) > 1 and w.endswith(".") and not w.endswith("..") and not _INITIALS.match(w) \
                and w[:-1].lower() not in _ABBREVIATIONS:
            out.append((s, e - 1))
            out.append((e - 1, e))
        else:
            out.append((s, e))
    return out


def _space_sensitive(tokenizer: Any) -> bool:
    """True for tokenizers (byte-level BPE, sentencepiece) whose pieces depend on a leading space."""
    try:
        return tokenizer.tokenize(" a") != tokenizer.tokenize("a")
    except Exception:  # pragma: no cover
        return False


def word_pieces(text: str, tokenizer: Any, *, word_splitter: str = "treebank",
                normalize: str | None = "NFKD") -> dict[str, Any]:
    """Words of ``text`` and their word-pieces under ``tokenizer``.

    Each word is encoded alone (no special tokens), as the reference does; words without pieces
    are dropped.

    Args:
        text: the text.
        tokenizer: a fast Hugging Face tokenizer.
        word_splitter: see :func:`split_words`.
        normalize: Unicode normalisation applied first (``"NFKD"``), or None.

    Returns:
        ``words`` (list[str]), ``spans`` (n, 2) int64 (in the normalised text), ``piece_ids``
        (P,) int32, ``word_starts`` (n+1,) int64 and ``first_ids`` (n,) int32 (the id of each
        word's first piece: ESTIME's token).
    """
    if normalize:
        text = unicodedata.normalize(normalize, text)
    spans = split_words(text, word_splitter)
    words = [text[s:e] for s, e in spans]
    if words:
        if _space_sensitive(tokenizer):
            enc_in = [(" " + w if s > 0 and text[s - 1].isspace() else w) for w, (s, _) in zip(words, spans)]
        else:
            enc_in = words
        ids = tokenizer(enc_in, add_special_tokens=False)["input_ids"]
    else:
        ids = []
    keep = [i for i, p in enumerate(ids) if len(p) > 0]
    words = [words[i] for i in keep]
    spans_arr = np.array([spans[i] for i in keep], dtype=np.int64).reshape(-1, 2)
    lens = np.array([len(ids[i]) for i in keep], dtype=np.int64)
    starts = np.zeros(len(keep) + 1, dtype=np.int64)
    np.cumsum(lens, out=starts[1:])
    flat = np.array([t for i in keep for t in ids[i]], dtype=np.int32)
    first = flat[starts[:-1]] if len(keep) else np.zeros(0, dtype=np.int32)
    return {"words": words, "spans": spans_arr, "piece_ids": flat, "word_starts": starts,
            "first_ids": first.astype(np.int32)}


def group_separated(indices: Sequence[int], min_distance: int = 8) -> list[list[int]]:
    """Split sorted word indices into groups whose members are >= ``min_distance`` apart.

    Greedy, as the reference: take the first index, then each next index at least
    ``min_distance`` after the last one taken; repeat over the leftovers until none is left.

    Args:
        indices: sorted word indices.
        min_distance: the least distance between two words of a group (>= 1).

    Returns:
        The groups, each ascending; every index is in exactly one.

    Raises:
        InputError: ``min_distance < 1``.

    >>> group_separated(range(10), 4)
    [[0, 4, 8], [1, 5, 9], [2, 6], [3, 7]]
    """
    if min_distance < 1:
        raise InputError(f"min_distance must be >= 1, got {min_distance}")
    remain = list(indices)
    groups: list[list[int]] = []
    while remain:
        taken, left, prev = [], [], None
        for ix in remain:
            if prev is None or ix - prev >= min_distance:
                taken.append(ix)
                prev = ix
            else:
                left.append(ix)
        groups.append(taken)
        remain = left
    return groups


@dataclass(frozen=True)
class Pass:
    """One forward pass: pieces ``[begin, end)`` of the text, with ``words`` masked.

    The input is ``CLS pieces[begin:end] SEP`` with every piece of every word in ``words`` replaced
    by the mask token; word w's embedding is read at position ``1 + word_starts[w] - begin``.
    """

    begin: int
    end: int
    words: tuple[int, ...]


def plan_passes(word_starts: np.ndarray, *, window: int = 450, margin: int = 50,
                min_distance: int = 8) -> list[Pass]:
    """The forward passes that mask every word exactly once (paper 000 Sec.2; the scheme of the
    module doc).

    For each group of :func:`group_separated`, windows start ``margin`` pieces before the first
    word still to do (or at 0); the words lying wholly in the first ``window - margin`` pieces
    are masked there. A word too long to fit is masked alone (its pieces beyond the window are
    cut).

    Args:
        word_starts: (n_words+1,) piece offsets of the words.
        window: most pieces per pass (without CLS and SEP).
        margin: pieces of left context before the first masked word.
        min_distance: see :func:`group_separated`.

    Returns:
        The passes, group after group.

    Raises:
        InputError: a window not larger than its margin.
    """
    if window < 2 or margin < 0 or window - margin < 1:
        raise InputError(f"bad window {window} / margin {margin}: need window > margin >= 0")
    n_words = len(word_starts) - 1
    n_pieces = int(word_starts[-1]) if n_words >= 0 else 0
    allowed = window - margin
    passes: list[Pass] = []
    for group in group_separated(range(n_words), min_distance):
        todo = list(group)
        while todo:
            first_tok = int(word_starts[todo[0]])
            begin = max(0, first_tok - margin)
            end = min(n_pieces, begin + window)
            last_allowed = begin + allowed  # inclusive, as the reference
            taken = []
            for w in todo:
                if int(word_starts[w]) > last_allowed:
                    break
                if int(word_starts[w + 1]) - 1 <= last_allowed:
                    taken.append(w)
                else:
                    break
            if not taken:  # a single word longer than the maskable region
                taken = [todo[0]]
            passes.append(Pass(begin, end, tuple(taken)))
            todo = todo[len(taken):]
    return passes

