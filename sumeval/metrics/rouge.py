"""ROUGE-N, ROUGE-L and ROUGE-Lsum with Google's ``rouge-score`` package, against several references.

The numbers are rouge-score's own scoring functions (n-gram overlap, LCS, summary-level union LCS)
on the tokens of one of two tokenizers (``tokenizer=``, recorded in the signature):

- ``"unicode"`` (default): rouge-score's tokenizer extended to every script - lowercase
  (``str.lower``), a token is a run of letters, combining marks and digits of any script
  (``[\\p{L}\\p{M}\\p{N}]+``; each Han, Hiragana or Katakana character is a token of its own, as
  those scripts do not separate words by spaces), Porter stemming of tokens longer than 3
  characters when ``use_stemmer`` (English rules: words of other scripts are left as they are).
  On ASCII text its tokens are rouge-score's, so its scores are identical, bit for bit;
- ``"rouge-score"``: rouge-score's own tokenizer (every run of characters outside ``[a-z0-9]``
  after lowercasing is a separator), as the papers used it. It drops every non-ASCII letter: a
  Cyrillic or Greek text has no token at all and gets 0 even against itself, and ``fiancée``
  becomes the two tokens ``fianc`` and ``e``.

This module also adds

- multi-reference aggregation: ``aggregate="mean"`` averages P, R and F separately over the
  references; ``aggregate="max"`` takes P, R and F **all from the one reference with the best F**
  (first such reference on ties) - the convention of ``rouge_score.RougeScorer.score_multi`` - so the
  three numbers always describe one comparison (``max_by="best-f-reference"`` in :meth:`options`);
- caching: each distinct text (a reference shared by the 16 summaries of a document, say) is
  tokenized and stemmed once per scorer, and each word is stemmed once (the Porter stemmer is the
  slow part of rouge-score);
- removal of ``<t>``/``</t>`` sentence tags (REALSumm / CNN-DM format): with the tags left in,
  rouge-score's tokenizer would count a token ``t`` per tag;
- sentence splitting for ROUGE-Lsum, which needs one sentence per line (see :func:`split_sentences`).
Reproducing the papers: paper 000 (Table 1, SummEval) used rouge-score's defaults, i.e.
``use_stemmer=False``, F-measure averaged over the 11 references; paper 001 (Table 2, REALSumm)
took its ROUGE from ROUGE-1.5.5 with stemming (``use_stemmer=True``, the default here), and its
"ROUGE-L" is the summary-level LCS over ``<t>`` sentences, i.e. ``rouge-lsum`` here, not
``rouge-l``.
"""
from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer, batch_references, reference_list
from sumeval.metrics.registry import check_option_types
from sumeval.text import has_sentence_tags, strip_sentence_tags, tagged_sentences

__all__ = ["SENTENCE_SPLITS", "AGGREGATES", "TOKENIZERS", "tokenize", "split_sentences", "RougeScorer"]

# a sentence ends at . ! or ? (possibly followed by closing quotes / brackets) before whitespace
_SENT_END_RE = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][\"'`)\]])|(?<=[.!?][\"'`)\]][\"'`)\]]))\s+"
)
_VARIANT_RE = re.compile(r"^rouge([1-9])\Z")  # \Z: "$" allows a trailing newline
SENTENCE_SPLITS = ("auto", "tags", "newline", "regex", "nltk")
AGGREGATES = ("mean", "max")
TOKENIZERS = ("unicode", "rouge-score")
_UNSPACED = r"\p{Han}\p{Hiragana}\p{Katakana}"  # scripts written without spaces between words
_WORD_PATTERN = rf"[{_UNSPACED}]|[[\p{{L}}\p{{M}}\p{{N}}]--[{_UNSPACED}]]+"


def tokenize(text: str, stemmer=None, tokenizer: str = "unicode") -> list[str]:
    """ROUGE tokens of ``text``: lowercased words, each longer than 3 characters stemmed by
    ``stemmer`` (an object with ``stem(word)``, or None).

    ``tokenizer="unicode"``: words are runs of letters, marks and digits of any script (each Han,
    Hiragana or Katakana character alone); ``"rouge-score"``: rouge-score's ``tokenize`` (runs of
    ``[a-z0-9]`` only). The two agree on ASCII text::

        tokenize("Кошка сидит")               -> ["кошка", "сидит"]
        tokenize("Кошка сидит", None, "rouge-score") -> []
    """
    if tokenizer == "rouge-score":
        from rouge_score import tokenize as rs_tokenize

        return rs_tokenize.tokenize(text, stemmer)
    if tokenizer != "unicode":
        raise InputError(f"ROUGE tokenizer={tokenizer!r} is not one of {TOKENIZERS}")
    words = _word_re().findall(text.lower())
    if stemmer is not None:
        words = [stemmer.stem(w) if len(w) > 3 else w for w in words]
    return [w for w in words if w]


_WORD_RE = None


def _word_re():
    global _WORD_RE
    if _WORD_RE is None:
        import regex

        _WORD_RE = regex.compile(_WORD_PATTERN, regex.V1)
    return _WORD_RE


def split_sentences(text: str, method: str = "auto") -> list[str]:
    """Split ``text`` into sentences for ROUGE-Lsum.

    ``method``:

    - ``"tags"``: the contents of ``<t> ... </t>`` tags;
    - ``"newline"``: one sentence per non-blank line;
    - ``"regex"``: split after ``.``, ``!`` or ``?`` (and any closing quotes or brackets) that is
      followed by whitespace - right for tokenized text such as CNN-DM's ``"... sunday . ` just"``,
      and it also splits after abbreviations such as ``"Mr. Smith"``;
    - ``"nltk"``: ``nltk.sent_tokenize`` (needs NLTK's ``punkt`` data);
    - ``"auto"`` (default): ``tags`` if the text has ``<t>`` tags, else ``newline`` if it has line
      breaks, else ``regex``.

    Returns the non-empty sentences, stripped, in order.
    """
    if method not in SENTENCE_SPLITS:
        raise InputError(f"sentence_split={method!r} is not one of {SENTENCE_SPLITS}")
    if method == "auto":
        method = "tags" if has_sentence_tags(text) else ("newline" if "\n" in text.strip() else "regex")
    if method == "tags":
        sents = tagged_sentences(text) or [strip_sentence_tags(text)]
    elif method == "newline":
        sents = strip_sentence_tags(text).split("\n")
    elif method == "regex":
        sents = _SENT_END_RE.split(strip_sentence_tags(text))
    else:
        import nltk

        try:
            sents = nltk.sent_tokenize(strip_sentence_tags(text))
        except LookupError as err:
            raise InputError(
                "sentence_split='nltk' needs NLTK's punkt data, which is not installed; "
                "run `python -m nltk.downloader punkt_tab` or use sentence_split='regex'"
            ) from err
    return [s.strip() for s in sents if s.strip()]


class _CachedStemmer:
    """NLTK's Porter stemmer (as rouge-score builds it) with a word -> stem memo."""

    def __init__(self) -> None:
        from nltk.stem import porter

        self._stemmer = porter.PorterStemmer()
        self._memo: dict[str, str] = {}

    def stem(self, word: str) -> str:
        out = self._memo.get(word)
        if out is None:
            out = self._memo[word] = self._stemmer.stem(word)
        return out


def _name_of(variant: str) -> str:
    """Registry name of a rouge-score type: ``rouge1`` -> ``rouge-1``, ``rougeLsum`` -> ``rouge-lsum``."""
    return "rouge-" + variant[len("rouge"):].lower()


class RougeScorer(Scorer):
    """ROUGE precision, recall and F of each summary against its references (rouge-score).

    Args:
        variant: ``"rouge1"`` ... ``"rouge9"``, ``"rougeL"`` (LCS over the whole text) or ``"rougeLsum"``
            (summary-level union LCS over sentences, see :func:`split_sentences`)
        aggregate: ``"mean"`` over references of each of P, R, F (default), or ``"max"``: P, R and F of the
            reference with the best F
        use_stemmer: Porter stemming of tokens longer than 3 characters (default True)
        tokenizer: ``"unicode"`` (default; words of every script) or ``"rouge-score"`` (rouge-score's ASCII-only
            tokenizer, as the papers used); identical on ASCII text - see :func:`tokenize`
        strip_tags: remove ``<t>``/``</t>`` tags before tokenizing (default True)
        sentence_split: how ROUGE-Lsum splits sentences (ignored by the other variants)
        name: measure name; default from ``variant`` (``rouge-1``, ``rouge-l``, ``rouge-lsum``)

    Columns: ``{name}-p``, ``{name}-r``, ``{name}-f`` (``-max`` appended with ``aggregate="max"``).
    """

    needs = ("references",)
    higher_is_better = True

    def __init__(self, variant: str = "rouge1", aggregate: str = "mean", use_stemmer: bool = True,
                 strip_tags: bool = True, sentence_split: str = "auto", name: str | None = None,
                 cache_size: int = 200_000, tokenizer: str = "unicode") -> None:
        check_option_types(RougeScorer, {k: v for k, v in locals().items() if k not in ("self", "__class__")}, "rouge")
        if not (variant in ("rougeL", "rougeLsum") or _VARIANT_RE.match(variant)):
            raise InputError(
                f"ROUGE variant {variant!r} is not known; use rouge1 ... rouge9, rougeL or rougeLsum"
            )
        if aggregate not in AGGREGATES:
            raise InputError(f"ROUGE aggregate={aggregate!r} is not one of {AGGREGATES}")
        if sentence_split not in SENTENCE_SPLITS:
            raise InputError(f"ROUGE sentence_split={sentence_split!r} is not one of {SENTENCE_SPLITS}")
        if tokenizer not in TOKENIZERS:
            raise InputError(f"ROUGE tokenizer={tokenizer!r} is not one of {TOKENIZERS}")
        from rouge_score import rouge_scorer, tokenize  # noqa: F401  (fail early if missing)

        self.variant = variant
        self.aggregate = aggregate
        self.use_stemmer = bool(use_stemmer)
        self.strip_tags = bool(strip_tags)
        self.sentence_split = sentence_split
        self.tokenizer = tokenizer
        self.name = name or _name_of(variant)
        self.description = f"{self.name} P/R/F (rouge-score, {aggregate} over references)"
        self._n = int(variant[5:]) if _VARIANT_RE.match(variant) else None
        self._stemmer = _CachedStemmer() if self.use_stemmer else None
        self._cache: dict[str, object] = {}
        self._cache_size = int(cache_size)

    # ---------------------------------------------------------------- interface
    def columns(self) -> list[str]:
        suffix = "-max" if self.aggregate == "max" else ""
        return [f"{self.name}-{s}{suffix}" for s in ("p", "r", "f")]

    def options(self) -> dict[str, object]:
        opts: dict[str, object] = {
            "variant": self.variant,
            "agg": self.aggregate,
            "stemmer": self.use_stemmer,
            "strip_tags": self.strip_tags,
            "tokenizer": self.tokenizer,
        }
        if self.aggregate == "max":
            opts["max_by"] = "best-f-reference"
        if self.variant == "rougeLsum":
            opts["sentence_split"] = self.sentence_split
        return opts

    def versions(self) -> dict[str, str]:
        from importlib.metadata import version

        return {"rouge-score": version("rouge-score"), "nltk": version("nltk")}

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        """Score ``batch``: arrays of shape (n,) of P, R, F in [0, 1]."""
        n = len(batch)
        out = np.zeros((n, 3))
        for i, (summary, refs) in enumerate(zip(batch.summaries, batch_references(self.name, batch))):
            out[i] = self.score_one(summary, refs)
        cols = self.columns()
        return {cols[k]: out[:, k].copy() for k in range(3)}

    # ---------------------------------------------------------------- computation
    def score_one(self, summary: str, references: Sequence[str]) -> tuple[float, float, float]:
        """(P, R, F) of ``summary`` against ``references`` (a non-empty list of strings)."""
        references = reference_list(self.name, summary, references)
        pred = self._prepared(summary)
        scores = np.array([self._pair(self._prepared(r), pred) for r in references], dtype=float)
        if self.aggregate == "mean":
            p, r, f = scores.mean(axis=0)
        else:
            p, r, f = scores[int(np.argmax(scores[:, 2]))]
        return float(p), float(r), float(f)

    def _tokens(self, text: str) -> list[str]:
        return tokenize(text, self._stemmer, self.tokenizer)

    def _prepared(self, text: str):
        """The text in the form the variant scores (cached): n-gram Counter, tokens or sentences."""
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        from rouge_score import rouge_scorer

        if self.variant == "rougeLsum":
            value = [self._tokens(s) for s in split_sentences(text, self.sentence_split)]
        else:
            tokens = self._tokens(strip_sentence_tags(text) if self.strip_tags else text)
            value = tokens if self._n is None else rouge_scorer._create_ngrams(tokens, self._n)
        if len(self._cache) >= self._cache_size:
            self._cache.clear()
        self._cache[text] = value
        return value

    def _pair(self, target, prediction) -> tuple[float, float, float]:
        from rouge_score import rouge_scorer

        if self._n is not None:
            s = rouge_scorer._score_ngrams(target, prediction)
        elif self.variant == "rougeL":
            s = rouge_scorer._score_lcs(target, prediction)
        else:
            s = rouge_scorer._summary_level_lcs(target, prediction)
        return s.precision, s.recall, s.fmeasure
