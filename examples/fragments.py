"""Extractive fragment coverage and density (Grusky, Naaman & Artzi 2018, "Newsroom", Sec. 4.1).

A worked example of a user's measure: a :class:`sumeval.metrics.Scorer` subclass that sumeval
can cache, sign and meta-evaluate like its own measures, with nothing registered::

    sumeval ... --measure-class fragments:ExtractiveFragments --module-path examples/

The greedy matching of the paper (its Algorithm 1): walking through the summary, the longest
run of tokens starting here that also occurs, in the same order, in the article is an
*extractive fragment*; skip past it (or past one token when there is none) and go on. With
F(A, S) the fragments of summary S in article A and |S| the summary's length in tokens,

    coverage(A, S) = 1/|S| * sum over f in F(A, S) of |f|        (Eq. 1: share of copied tokens)
    density(A, S)  = 1/|S| * sum over f in F(A, S) of |f|^2      (Eq. 2: rewards long copies)

Tokens here are lower-cased runs of letters and digits. Coverage lies in [0, 1]; a summary
with more of its words supported by the article is more likely consistent with it, so both
outputs are declared higher-is-better (``coverage`` is the main output).
"""
from __future__ import annotations

import re

import numpy as np

from sumeval.metrics import Batch, Scorer, Scores

_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """Lower-cased runs of letters and digits: ``"The U.S. won"`` -> ``["the", "u", "s", "won"]``."""
    return _TOKEN.findall(text.lower())


def fragments(article: list[str], summary: list[str]) -> list[int]:
    """Lengths of the greedy extractive fragments of ``summary`` in ``article`` (Algorithm 1).

    ``fragments("the cat sat on the mat".split(), "the cat ran on the mat".split())`` is
    ``[2, 3]``: "the cat" (the longest run from "the"), "ran" matches nothing, "on the mat".
    """
    where: dict[str, list[int]] = {}
    for j, tok in enumerate(article):
        where.setdefault(tok, []).append(j)
    out, i = [], 0
    while i < len(summary):
        best = 0
        for j in where.get(summary[i], ()):
            k = 0
            while i + k < len(summary) and j + k < len(article) and summary[i + k] == article[j + k]:
                k += 1
            best = max(best, k)
        if best:
            out.append(best)
        i += max(best, 1)
    return out


class ExtractiveFragments(Scorer):
    """Newsroom's extractive fragment coverage and density of each summary in its article.

    Columns: ``coverage`` (main output) and ``density``; needs ``text``. A summary without a
    single token is left undefined (NaN, reported).
    """

    name = "fragments"
    needs = ("text",)
    higher_is_better = True
    version = "1"
    description = "extractive fragment coverage and density (Grusky et al. 2018)"

    def __init__(self, min_length: int = 1):
        if isinstance(min_length, bool) or not isinstance(min_length, int) or min_length < 1:
            raise ValueError(f"min_length must be a positive integer, got {min_length!r}")
        self.min_length = min_length  # fragments shorter than this do not count

    def columns(self) -> list[str]:
        return ["coverage", "density"]

    def options(self) -> dict[str, object]:
        return {"min_length": self.min_length, "tokens": "[a-z0-9]+ lower-cased"}

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        n = len(batch)
        coverage, density = np.full(n, np.nan), np.full(n, np.nan)
        undefined = []  # (row, reason) for each row left NaN: reported as not scored, with the reason
        for row, (summary, text) in enumerate(zip(batch.summaries, batch.texts)):
            s = tokens(summary)
            if not s:
                undefined.append((row, "the summary has no word"))
                continue
            lengths = [k for k in fragments(tokens(text), s) if k >= self.min_length]
            coverage[row] = sum(lengths) / len(s)
            density[row] = sum(k * k for k in lengths) / len(s)
        return Scores({"coverage": coverage, "density": density}, undefined=undefined)
