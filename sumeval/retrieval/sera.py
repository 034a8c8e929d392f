"""SERA and SERA-DIS (Cohan and Goharian 2016; paper 001, Eq. 1-2) on retrieved lists.

Pure functions of ranked lists of document ids (any hashable values). Conventions (SPEC §2):

* ``X_C`` = the candidate's top-k list, ``X_Rm`` = reference m's top-k list (lists longer than
  k are cut to k; a shorter list - fewer matching documents - is used as it is);
* SERA = (1/M) sum_m |X_C ∩ X_Rm| / k;
* SERA-DIS = (1/M) sum_m D_m / D_max, with
  D = sum_{j,l} 1[X_C(j) = X_R(l)] / ln(|j - l| + 2) over 0-based ranks j, l, and
  D_max = k / ln 2 (every document matched at the same rank);
* an empty candidate list (e.g. an empty reformulated query) scores 0 against every reference.
"""
from __future__ import annotations

import math
from typing import Hashable, Sequence

from sumeval.errors import InputError

__all__ = ["sera", "sera_dis"]


def _check(candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InputError(f"SERA cut-off k must be a positive integer, got {k!r}")
    if isinstance(references, (str, bytes)) or len(references) == 0:
        raise InputError(f"SERA needs at least one reference list, got {references!r:.80}")
    for m, ref in enumerate([candidate, *references]):
        top = list(ref)[:k]
        if len(set(top)) != len(top):
            which = "candidate" if m == 0 else f"reference {m - 1}"
            raise InputError(f"SERA: the {which} list repeats a document in its top {k}: {top!r:.120}")


def sera(candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], k: int) -> float:
    """SERA-k: mean over references of the overlap of the top-k lists, divided by k.

    Parameters
    ----------
    candidate : ranked document ids retrieved for the candidate summary (best first)
    references : M ranked lists, one per reference summary
    k : cut-off (5 or 10 in the paper)

    Returns
    -------
    float in [0, 1].
    """
    _check(candidate, references, k)
    c = set(list(candidate)[:k])
    return sum(len(c & set(list(r)[:k])) / k for r in references) / len(references)


def sera_dis(candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], k: int) -> float:
    """SERA-DIS-k: rank-discounted overlap, mean over references of D_m / (k / ln 2).

    A document at 0-based rank j in the candidate list and rank l in a reference list adds
    1 / ln(|j - l| + 2). Returns a float in [0, 1].
    """
    _check(candidate, references, k)
    d_max = k / math.log(2)
    rank_c = {doc: j for j, doc in enumerate(list(candidate)[:k])}
    total = 0.0
    for ref in references:
        d = 0.0
        for l_, doc in enumerate(list(ref)[:k]):
            j = rank_c.get(doc)
            if j is not None:
                d += 1.0 / math.log(abs(j - l_) + 2)
        total += d / d_max
    return total / len(references)
