"""Sentence-level BLEU against all references at once (NLTK's ``sentence_bleu``).

Paper 000 says only "BLEU is calculated with NLTK". The defaults here are the configuration that
came closest to its Table 1 BLEU row on the SummEval data (pooled summary-level Spearman and
Kendall tau-c against the four expert means, all 11 references; NLTK smoothing methods 0-7,
whitespace, Treebank and word-run tokens, with and without lowercasing were tried): whitespace
tokens of the text as given (SummEval's texts are already tokenized), **case kept**
(lowercasing moved the consistency cells away from the paper), BLEU-4 with uniform weights and
NLTK's smoothing ``method2`` (add one to the matches and the counts of every n > 1, Lin and Och
2004). Every choice is an option and is recorded in :meth:`BleuScorer.options`.
"""
from __future__ import annotations

import re
import warnings
from typing import Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer, batch_references, reference_list, remember
from sumeval.metrics.registry import check_option_types
from sumeval.text import strip_sentence_tags

__all__ = ["TOKENIZERS", "SMOOTHINGS", "BleuScorer"]

TOKENIZERS = ("split", "treebank", "words")
SMOOTHINGS = tuple(f"method{i}" for i in range(8))


def _tokenizer(kind: str):
    """A function str -> list of tokens: whitespace split, NLTK Treebank, or ``\\w+`` runs."""
    if kind == "split":
        return str.split
    if kind == "treebank":
        from nltk.tokenize import TreebankWordTokenizer

        return TreebankWordTokenizer().tokenize
    if kind == "words":
        pattern = re.compile(r"\w+")
        return pattern.findall
    raise InputError(f"BLEU tokenize={kind!r} is not one of {TOKENIZERS}")


class BleuScorer(Scorer):
    """Sentence BLEU of each summary against all of its references (multi-reference BLEU).

    Args:
        tokenize: ``"split"`` (whitespace, default), ``"treebank"`` (NLTK Treebank tokenizer) or ``"words"`` (runs
            of ``\\w``)
        lowercase: lowercase summary and references first (default False)
        smoothing: NLTK ``SmoothingFunction`` method, ``"method0"`` (none) ... ``"method7"`` (default ``"method2"``)
        max_n: highest n-gram order; weights are uniform 1/max_n (default 4: BLEU-4)
        strip_tags: remove ``<t>``/``</t>`` sentence tags first (default True)

    Column: ``bleu``, in [0, 1].
    """

    name = "bleu"
    needs = ("references",)
    higher_is_better = True
    description = "sentence BLEU-4 against all references (NLTK)"

    def __init__(self, tokenize: str = "split", lowercase: bool = False, smoothing: str = "method2",
                 max_n: int = 4, strip_tags: bool = True, name: str | None = None) -> None:
        check_option_types(BleuScorer, {k: v for k, v in locals().items() if k not in ("self", "__class__")}, "bleu")
        if smoothing not in SMOOTHINGS:
            raise InputError(f"BLEU smoothing={smoothing!r} is not one of {SMOOTHINGS}")
        if max_n < 1:
            raise InputError(f"BLEU max_n={max_n!r} must be a positive integer")
        self.tokenize = tokenize
        self._tok = _tokenizer(tokenize)
        self.lowercase = bool(lowercase)
        self.smoothing = smoothing
        self.max_n = int(max_n)
        self.strip_tags = bool(strip_tags)
        if name:
            self.name = name
        from nltk.translate.bleu_score import SmoothingFunction

        self._smooth = getattr(SmoothingFunction(), smoothing)
        self._cache: dict[str, list[str]] = {}

    def columns(self) -> list[str]:
        return [self.name]

    def options(self) -> dict[str, object]:
        return {"tokenize": self.tokenize, "lowercase": self.lowercase, "smoothing": self.smoothing,
                "max_n": self.max_n, "strip_tags": self.strip_tags}

    def versions(self) -> dict[str, str]:
        from importlib.metadata import version

        return {"nltk": version("nltk")}

    def tokens(self, text: str) -> list[str]:
        """The tokens BLEU compares (cached per distinct text)."""
        hit = self._cache.get(text)
        if hit is None:
            t = strip_sentence_tags(text) if self.strip_tags else text
            if self.lowercase:
                t = t.lower()
            hit = remember(self._cache, text, self._tok(t))
        return hit

    def score_one(self, summary: str, references: Sequence[str]) -> float:
        """BLEU of ``summary`` against all ``references`` together."""
        from nltk.translate.bleu_score import sentence_bleu

        references = reference_list(self.name, summary, references)
        weights = (1.0 / self.max_n,) * self.max_n
        with warnings.catch_warnings():
            # NLTK warns when an n-gram order has no match (the score is then 0 without smoothing)
            warnings.simplefilter("ignore", UserWarning)
            return float(sentence_bleu([self.tokens(r) for r in references], self.tokens(summary),
                                       weights=weights, smoothing_function=self._smooth))

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        """Score ``batch``: array of shape (n,) of BLEU in [0, 1]."""
        values = [self.score_one(s, refs) for s, refs in zip(batch.summaries, batch_references(self.name, batch))]
        return {self.name: np.asarray(values, dtype=float)}
