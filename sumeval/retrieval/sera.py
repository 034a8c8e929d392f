"""SERA and SERA-DIS (Cohan & Goharian 2016; paper 001, Lopez Espejel et al., Sec.2.1, Eq.1-2) on
retrieved lists.

Pure functions of ranked lists of document ids (any hashable values). With ``X_C`` the
candidate's top-k list and ``X_Rm`` reference m's top-k list (lists longer than k are cut to k; a
shorter list - fewer matching documents - is used as it is):

* SERA (Eq.1) = (1/M) sum_m |X_C ∩ X_Rm| / k;
* SERA-DIS (Eq.2) = (1/M) sum_m D_m / D_max, with
  D = sum_{j,l} 1[X_C(j) = X_R(l)] / ln(|j - l| + 2) over 0-based ranks j, l (the paper's 1-based
  ranks give the same differences), and D_max = k / ln 2 (every document matched at the same rank);
* an empty candidate list (e.g. an empty reformulated query) scores 0 against every reference.

Eq.1 divides by ``|R_C|``, the length of the candidate's list; here it is k, which is the same
for a full list and makes a short list (fewer than k documents matched the query) score lower
rather than higher. Both measures are means over the references of a one-reference score:
:func:`sera_per_reference` gives those scores, so the score against any set of references is
the mean of its columns (the annotator study uses this).
"""
from __future__ import annotations

import math
from typing import Hashable, Sequence

from sumeval.errors import InputError

__all__ = ["sera", "sera_dis", "sera_per_reference"]


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


def sera_per_reference(candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], k: int, *,
                       dis: bool = False) -> list[float]:
    """One-reference SERA-k (Eq.1) or SERA-DIS-k (Eq.2) of a candidate list against each reference list.

    Args:
        candidate: ranked document ids retrieved for the candidate summary (best first).
        references: M ranked lists, one per reference summary.
        k: the cut-off (5 or 10 in the paper).
        dis: False for SERA (``|X_C ∩ X_R| / k``), True for SERA-DIS (``D / D_max``).

    Returns:
        M floats in [0, 1]: the term of each reference in Eq.1 (or Eq.2) before the mean.

    Raises:
        InputError: a bad k, no reference, or a list that repeats a document in its top k.

    >>> sera_per_reference(list("abcde"), [list("caxyz"), list("vwxyz")], 5)  # overlaps {a, c}, {}
    [0.4, 0.0]
    """
    _check(candidate, references, k)
    top_c = list(candidate)[:k]
    if not dis:
        c = set(top_c)
        return [len(c & set(list(r)[:k])) / k for r in references]
    d_max = k / math.log(2)
    rank_c = {doc: j for j, doc in enumerate(top_c)}
    out = []
    for ref in references:
        d = 0.0
        for l_, doc in enumerate(list(ref)[:k]):
            j = rank_c.get(doc)
            if j is not None:
                d += 1.0 / math.log(abs(j - l_) + 2)
        out.append(d / d_max)
    return out


def sera(candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], k: int) -> float:
    """SERA-k (paper 001 Eq.1): mean over the references of the overlap of the top-k lists, over k.

    Args:
        candidate: ranked document ids retrieved for the candidate summary (best first).
        references: M ranked lists, one per reference summary.
        k: the cut-off (5 or 10 in the paper).

    Returns:
        A float in [0, 1].

    >>> sera(list("abcde"), [list("caxyz"), list("vwxyz")], 5)  # (2/5 + 0) / 2
    0.2
    """
    return sum(sera_per_reference(candidate, references, k)) / len(references)


def sera_dis(candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], k: int) -> float:
    """SERA-DIS-k (paper 001 Eq.2): rank-discounted overlap, mean over references of D_m / (k / ln 2).

    A document at 0-based rank j in the candidate list and rank l in a reference list adds
    1 / ln(|j - l| + 2).

    Args:
        candidate, references, k: as :func:`sera`.

    Returns:
        A float in [0, 1].

    >>> round(sera_dis(list("ab"), [list("ba")], 2), 4)  # (1/ln 3 + 1/ln 3) / (2 / ln 2)
    0.6309
    """
    return sum(sera_per_reference(candidate, references, k, dis=True)) / len(references)
