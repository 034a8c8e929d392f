"""The cheap baselines that expose shortcuts: the sentinels of meta-eval's tables beside ``length`` (issue 32).

A measure that correlates with the human scores no better than one of these says no more than it:

- **extractive fragment coverage and density** (Grusky, Naaman & Artzi 2018, "Newsroom: A Dataset
  of 1.3 Million Summaries with Diverse Extractive Strategies", NAACL, Sec. 4.1, Algorithm 1 and
  its equations of Coverage and Density; the authors' code, lil-lab/newsroom
  ``newsroom/analyze/fragments.py`` ``Fragments._match`` / ``coverage`` / ``density``): how much of
  the summary is copied from the source, and in how long pieces;
- **bigram overlap**: the share of the summary's bigrams that occur in the source, 1 - the share of
  *novel* bigrams (See, Liu & Manning 2017, ACL, Sec. 7.2, Fig. 6; Narayan, Cohen & Lapata 2018,
  EMNLP, Sec. 2, Table 2, "% of novel n-grams");
- a **constant** (every summary the same score): every correlation is undefined, so it shows where a
  number comes from ties alone;
- a **random** measure: a uniform number per summary, a function of a seed and the summary's text (the
  same summary always gets the same number, whatever the batch or row order); the
  meta-evaluation draws it several times and reports the mean and the 95% range of its correlation,
  the noise floor a measure must clear.

Tokens (one definition for all three overlap measures, :func:`tokens`): the lowercased words and
single punctuation marks of a regular expression, ``\\w+|[^\\w\\s]``. Newsroom tokenises with spaCy
(``en_core_web_sm``) and lowercases; spaCy splits off punctuation and clitics the same way in most
text, not in all (``don't``: spaCy ``do n't``, here ``don ' t``), so values can differ slightly from
Newsroom's own on such text. No model is loaded.
"""
from __future__ import annotations

import hashlib
import re
from typing import Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer, Scores

__all__ = ["tokens", "fragments", "fragment_coverage", "fragment_density", "ngram_overlap", "random_scores",
           "ExtractiveFragmentsScorer", "BigramOverlapScorer", "ConstantScorer", "RandomScorer", "LENGTH",
           "COVERAGE", "DENSITY", "BIGRAMS", "CONSTANT", "RANDOM", "ORDER", "RANDOM_DRAWS", "RANDOM_RESAMPLING"]

#: the sentinel rows' names in meta-evaluation tables (:mod:`sumeval.meta_eval.sentinels` makes the rows)
LENGTH = "length (sentinel)"
COVERAGE = "fragment coverage (sentinel)"
DENSITY = "fragment density (sentinel)"
BIGRAMS = "bigram overlap (sentinel)"
CONSTANT = "constant (sentinel)"
RANDOM = "random (sentinel)"
#: the sentinels in the order of the tables' block
ORDER: tuple[str, ...] = (LENGTH, COVERAGE, DENSITY, BIGRAMS, CONSTANT, RANDOM)
#: how many times the random sentinel is drawn
RANDOM_DRAWS = 100
#: the ``resampling`` of the random sentinel's rows: its interval is the spread of the draws, not a bootstrap
RANDOM_RESAMPLING = "random draws"

_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """The lowercased words and punctuation marks of ``text`` (the module docstring's tokens).

    >>> tokens("The cat's hat, 2 x.")
    ['the', 'cat', "'", 's', 'hat', ',', '2', 'x', '.']
    """
    return _TOKEN.findall(text.lower())


def fragments(summary: Sequence[str], source: Sequence[str]) -> list[int]:
    """The lengths of the extractive fragments of ``summary`` in ``source`` (token lists): Grusky et
    al. 2018, Algorithm 1, as its authors' ``Fragments._match`` runs it. From each summary position,
    the longest run of tokens shared with the source (the source scanned left to right, a match's
    end skipped past before the next start) is a fragment, and the summary moves past it; a token
    found nowhere in the source is skipped.

    >>> fragments("a b c x".split(), "c a b c".split())
    [3]
    """
    out = []
    i = 0
    while i < len(summary):
        best = 0
        j = 0
        while j < len(source):
            if summary[i] == source[j]:
                i_end, j_end = i, j
                while i_end < len(summary) and j_end < len(source) and source[j_end] == summary[i_end]:
                    i_end += 1
                    j_end += 1
                best = max(best, i_end - i)
                j = j_end
            else:
                j += 1
        if best > 0:
            out.append(best)
            i += best
        else:
            i += 1
    return out


def fragment_coverage(summary: str, source: str) -> float:
    """Extractive fragment coverage (Grusky et al. 2018, Sec. 4.1): the share of the summary's tokens
    inside an extractive fragment, ``sum(|f|) / |S|`` (0 for a summary without tokens, as Newsroom).

    >>> fragment_coverage("a b c x", "c a b c")
    0.75
    """
    s = tokens(summary)
    return sum(fragments(s, tokens(source))) / len(s) if s else 0.0


def fragment_density(summary: str, source: str) -> float:
    """Extractive fragment density (Grusky et al. 2018, Sec. 4.1): the mean length of the fragment each
    summary token belongs to, ``sum(|f|^2) / |S|`` (0 for a summary without tokens, as Newsroom).

    >>> fragment_density("a b c x", "c a b c")
    2.25
    """
    s = tokens(summary)
    return sum(n * n for n in fragments(s, tokens(source))) / len(s) if s else 0.0


def ngram_overlap(summary: str, source: str, n: int = 2) -> float:
    """The share of the summary's ``n``-grams (each occurrence counted) that occur in the source: 1 - the
    share of novel n-grams (See et al. 2017, Sec. 7.2; Narayan et al. 2018, Table 2). NaN for a summary
    with fewer than ``n`` tokens (no n-gram: the share is undefined, not 0 or 1).

    >>> ngram_overlap("a b c a b", "x a b y", 2)   # a-b, b-c, c-a, a-b: 2 of 4 in the source
    0.5
    """
    s, t = tokens(summary), tokens(source)
    grams = [tuple(s[k:k + n]) for k in range(len(s) - n + 1)]
    if not grams:
        return float("nan")
    have = {tuple(t[k:k + n]) for k in range(len(t) - n + 1)}
    return sum(g in have for g in grams) / len(grams)


def random_scores(summaries: Sequence[str], *, seed: int = 0) -> np.ndarray:
    """A uniform number in [0, 1) per summary, from BLAKE2b of ``(seed, summary)`` (the first 53 bits of
    its 64): independent of the row order and the batches, the same for the same text and seed, and
    unrelated to anything a human judged (two systems' identical summaries tie, as they would under
    any measure of the summary).

    >>> a = random_scores(["x", "y"], seed=1); b = random_scores(["y", "x"], seed=1)
    >>> bool(a[0] == b[1] and a[1] == b[0] and a[0] != random_scores(["x"], seed=2)[0])
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"the random measure's seed must be a whole number >= 0, got {seed!r}")
    out = np.empty(len(summaries))
    for k, summary in enumerate(summaries):
        h = hashlib.blake2b(f"{int(seed)}\x00{summary}".encode("utf-8"), digest_size=8).digest()
        out[k] = (int.from_bytes(h, "big") >> 11) / float(1 << 53)
    return out


class _NoModel(Scorer):
    """A sentinel measure: no model, no options but its own; renamed by ``name``."""

    higher_is_better = True

    def __init__(self, name: str | None = None) -> None:
        if name:
            self.name = name

    def columns(self) -> list[str]:
        return [self.name]

    def versions(self) -> dict[str, str]:
        return {}


class ExtractiveFragmentsScorer(_NoModel):
    """Grusky et al.'s extractive fragment coverage or density of each summary in its source. Column: the
    name (default ``fragment-coverage`` / ``fragment-density``)."""

    name = "fragment-coverage"
    needs = ("text",)
    description = "extractive fragment coverage of the summary in the source (Grusky et al. 2018)"

    def __init__(self, name: str | None = None, statistic: str = "coverage") -> None:
        if statistic not in ("coverage", "density"):
            raise InputError(f"statistic {statistic!r}: choose coverage or density (Grusky et al. 2018, Sec. 4.1)")
        super().__init__(name or f"fragment-{statistic}")
        self.statistic = statistic

    def options(self) -> dict[str, object]:
        return {"statistic": self.statistic, "tokens": _TOKEN.pattern, "lowercase": True}

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        f = fragment_coverage if self.statistic == "coverage" else fragment_density
        return {self.name: np.array([f(s, t) for s, t in zip(batch.summaries, batch.texts)], dtype=float)}


class BigramOverlapScorer(_NoModel):
    """The share of the summary's bigrams found in the source. Column: the name."""

    name = "bigram-overlap"
    needs = ("text",)
    description = "share of the summary's bigrams found in the source (1 - novel bigrams)"

    def options(self) -> dict[str, object]:
        return {"n": 2, "tokens": _TOKEN.pattern, "lowercase": True}

    def score_batch(self, batch: Batch) -> Scores:
        values = np.array([ngram_overlap(s, t, 2) for s, t in zip(batch.summaries, batch.texts)], dtype=float)
        return Scores({self.name: values},
                      undefined=[(int(j), "the summary has fewer than 2 tokens: no bigram, so no share of them")
                                 for j in np.flatnonzero(np.isnan(values))])


class ConstantScorer(_NoModel):
    """0 for every summary. Column: the name."""

    name = "constant"
    needs = ()
    description = "the same score (0) for every summary: every correlation undefined"

    def options(self) -> dict[str, object]:
        return {"value": 0.0}

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        return {self.name: np.zeros(len(batch))}


class RandomScorer(_NoModel):
    """:func:`random_scores` of each summary. Column: the name."""

    name = "random"
    needs = ()
    description = "a uniform random number per summary (seeded, a function of the texts)"

    def __init__(self, name: str | None = None, seed: int = 0) -> None:
        super().__init__(name)
        random_scores([], seed=seed)  # the seed checked here
        self.seed = int(seed)

    def options(self) -> dict[str, object]:
        return {"seed": self.seed, "hash": "blake2b-64 of (seed, summary)"}

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        return {self.name: random_scores(list(batch.summaries), seed=self.seed)}
