"""Jensen-Shannon divergence between n-gram distributions (JS-2: bigrams), after Louis and Nenkova.

Written from the description of the JS-2 used for REALSumm (Bhandari et al. 2020, whose scoring
code takes it from Peyrard's summarization tools; SummEval's S3 features compute the same):

1. sentences: the contents of ``<t> ... </t>`` tags when the text has them, else the whole text;
2. tokens: runs of ``\\w`` characters (NLTK's ``RegexpTokenizer(r"\\w+")``) of every sentence,
   each stemmed with NLTK's English Snowball stemmer (which lowercases), then lowercased; the
   tokens of all sentences are concatenated, so n-grams run across sentence boundaries;
3. n-grams: every n-gram of that token list that has **at least one token outside the English
   stopword list** (NLTK's list, compared with the *stemmed* tokens, as the reference code does);
   for n = 1 the stopwords are simply dropped;
4. distributions: relative frequencies (count / number of kept n-grams); **no smoothing**;
5. ``JS(P, Q) = (KL(P || M) + KL(Q || M)) / 2`` with ``M = (P + Q) / 2`` and natural logarithms,
   so 0 <= JS <= ln 2; JS is 0 for identical distributions and ln 2 for disjoint ones.

Several references (an extension: REALSumm has one): ``multi_ref="mean"`` (default, as SummEval's
S3 ``JS_eval``) averages the divergence to each reference; ``multi_ref="pooled"`` compares with one
distribution built from the n-gram counts of all references together.

A text with no kept n-gram (a one-word summary, say) has an empty distribution: its divergence to
a non-empty one is taken as the maximum, ln 2 (the reference code, which sums over the empty side,
gives ln 2 / 2, ranking an empty summary above an unrelated one); two empty distributions give NaN.

JS is a divergence (lower is better). REALSumm stores ``-JS`` as ``js-2``, so correlations published
from its score files (paper 001 Table 2) are of the negated divergence; this scorer returns the
divergence itself (``higher_is_better = False``): negate it before correlating with quality.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from typing import Iterable, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer, batch_references, reference_list, remember
from sumeval.metrics.registry import check_option_types
from sumeval.text import has_sentence_tags, strip_sentence_tags, tagged_sentences

__all__ = ["NLTK_ENGLISH_STOPWORDS", "MULTI_REF", "js_divergence", "distribution", "JensenShannonScorer"]

# NLTK's English stopword list (the 179-word version of nltk_data's `stopwords` corpus, 2018-2023),
# embedded so that no corpus download is needed. Entries with an apostrophe never match \w+ tokens.
NLTK_ENGLISH_STOPWORDS = frozenset("""
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves
he him his himself she she's her hers herself it it's its itself they them their theirs themselves
what which who whom this that that'll these those am is are was were be been being have has had
having do does did doing a an the and but if or because as until while of at by for with about
against between into through during before after above below to from up down in out on off over
under again further then once here there when where why how all any both each few more most other
some such no nor not only own same so than too very s t can will just don don't should should've
now d ll m o re ve y ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn
hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn
shouldn't wasn wasn't weren weren't won won't wouldn wouldn't
""".split())

_WORD_RE = re.compile(r"\w+")
MULTI_REF = ("mean", "pooled")


def js_divergence(p: Mapping[object, float], q: Mapping[object, float], base: float = math.e) -> float:
    """Jensen-Shannon divergence of two distributions given as ``{event: probability}``.

    ``JS = (KL(p || m) + KL(q || m)) / 2`` with ``m = (p + q) / 2``; events missing from one
    mapping have probability 0 there (0 log 0 = 0). Natural log by default (range [0, ln 2]);
    ``base=2`` gives [0, 1]. An empty mapping against a non-empty one is treated as disjoint from
    it and gives the maximum, ln 2; two empty mappings give NaN.
    """
    if not p and not q:
        return float("nan")
    if not p or not q:
        return math.log(2.0) / math.log(base)
    kl_p = kl_q = 0.0
    for k, pk in p.items():
        if pk > 0:
            kl_p += pk * math.log(pk / ((pk + q.get(k, 0.0)) / 2.0))
    for k, qk in q.items():
        if qk > 0:
            kl_q += qk * math.log(qk / ((qk + p.get(k, 0.0)) / 2.0))
    return (kl_p + kl_q) / 2.0 / math.log(base)


def distribution(counts: Counter) -> dict[object, float]:
    """Relative frequencies ``{event: count / total}`` of a Counter (empty for an empty Counter)."""
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()} if total else {}


class JensenShannonScorer(Scorer):
    """JS divergence between the n-gram distribution of a summary and that of its references.

    Args:
        n: n-gram order (default 2: JS-2)
        stem: Snowball-stem the tokens (default True)
        stopwords: drop n-grams made only of stopwords (default True; NLTK's English list)
        multi_ref: ``"mean"`` divergence over references (default) or ``"pooled"`` references
        against: ``"references"`` (default) or ``"text"`` (the source document instead; the scorer then needs
            ``text``)
        base: logarithm base (default e: values in [0, ln 2])

    Column: ``js-2`` (``js-{n}``); lower is better.
    """

    name = "js-2"
    needs = ("references",)
    higher_is_better = False
    description = "Jensen-Shannon divergence of bigram distributions, summary vs references (lower is better)"

    def __init__(self, n: int = 2, stem: bool = True, stopwords: bool = True, multi_ref: str = "mean",
                 against: str = "references", base: float = math.e, name: str | None = None) -> None:
        check_option_types(JensenShannonScorer, {k: v for k, v in locals().items() if k not in ("self", "__class__")},
                           "js")
        if n < 1:
            raise InputError(f"JS n={n!r} must be a positive integer")
        if not (base > 0 and base != 1 and math.isfinite(base)):
            raise InputError(f"JS base={base!r} must be a positive number other than 1 (e, or 2 for bits)")
        if multi_ref not in MULTI_REF:
            raise InputError(f"JS multi_ref={multi_ref!r} is not one of {MULTI_REF}")
        if against not in ("references", "text"):
            raise InputError(f"JS against={against!r} must be 'references' or 'text'")
        self.n = int(n)
        self.stem = bool(stem)
        self.use_stopwords = bool(stopwords)
        self.multi_ref = multi_ref
        self.against = against
        self.base = float(base)
        self.name = name or f"js-{self.n}"
        self.needs = ("text",) if against == "text" else ("references",)
        self._stemmer = None
        if self.stem:
            from nltk.stem.snowball import SnowballStemmer

            self._stemmer = SnowballStemmer("english")
        self._stem_memo: dict[str, str] = {}
        self._cache: dict[str, Counter] = {}

    def columns(self) -> list[str]:
        return [self.name]

    def options(self) -> dict[str, object]:
        return {"n": self.n, "stem": "snowball" if self.stem else False,
                "stopwords": "nltk-english" if self.use_stopwords else False,
                "multi_ref": self.multi_ref, "against": self.against,
                "base": "e" if self.base == math.e else self.base, "smoothing": "none",
                "tokens": "\\w+"}

    def versions(self) -> dict[str, str]:
        from importlib.metadata import version

        return {"nltk": version("nltk")}

    # ---------------------------------------------------------------- preprocessing
    def tokens(self, text: str) -> list[str]:
        """Tokens of ``text`` as compared: ``\\w+`` runs per sentence, stemmed, lowercased."""
        sents = tagged_sentences(text) if has_sentence_tags(text) else [text]
        out: list[str] = []
        for s in sents:
            for w in _WORD_RE.findall(strip_sentence_tags(s)):
                if self._stemmer is not None:
                    st = self._stem_memo.get(w)
                    if st is None:
                        st = self._stem_memo[w] = self._stemmer.stem(w)
                    w = st
                out.append(w.lower())
        return out

    def ngram_counts(self, text: str) -> Counter:
        """Counts of the kept n-grams of ``text`` (cached per distinct text)."""
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        toks = self.tokens(text)
        stop = NLTK_ENGLISH_STOPWORDS if self.use_stopwords else frozenset()
        if self.n == 1:
            grams: Iterable = ((t,) for t in toks if t not in stop)
        else:
            grams = (tuple(toks[i:i + self.n]) for i in range(len(toks) - self.n + 1))
            if stop:
                grams = (g for g in grams if any(t not in stop for t in g))
        return remember(self._cache, text, Counter(grams))

    # ---------------------------------------------------------------- scoring
    def score_one(self, summary: str, references: Sequence[str]) -> float:
        """JS divergence of ``summary`` to ``references`` (strings; for ``against="text"``, [text])."""
        references = reference_list(self.name, summary, references)
        p = distribution(self.ngram_counts(summary))
        if self.multi_ref == "pooled" and len(references) > 1:
            pooled: Counter = Counter()
            for r in references:
                pooled.update(self.ngram_counts(r))
            return js_divergence(p, distribution(pooled), self.base)
        return float(np.mean([js_divergence(p, distribution(self.ngram_counts(r)), self.base)
                              for r in references]))

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        """Score ``batch``: array of shape (n,) of divergences in [0, ln 2] (natural log)."""
        if self.against == "text":
            if batch.texts is None:
                raise InputError(f"{self.name} (against='text') needs texts; the batch has none")
            others: Sequence[Sequence[str]] = [[t] for t in batch.texts]
        else:
            others = batch_references(self.name, batch)
        values = [self.score_one(s, refs) for s, refs in zip(batch.summaries, others)]
        return {self.name: np.asarray(values, dtype=float)}
