"""Text-ordering metrics of paper 002 (Liu, Zeng & Li, Sec.4.2): PMR, Acc, Kendall tau and WLCS-l.

An *order* is a list of sentence (or paragraph) indices: ``order[k]`` is the index of the
sentence placed at position ``k``. Every function takes ``pred`` and ``gold``, two lists of
orders of the same length (one order per document), where ``pred[d]`` and ``gold[d]`` must
both be permutations of ``0 .. n_d - 1``. Each returns the corpus-level value, a float, the
mean over the K documents of a per-document value (the ``*_document`` functions):

- ``pmr`` (Sec.4.2): ``PMR = (1/K) sum_i 1[o_hat^i = o^i*]``, the fraction of documents
  predicted exactly.
- ``accuracy`` (Sec.4.2, Acc): per document, the fraction of positions ``k`` with
  ``pred[k] == gold[k]``; averaged over documents (a macro average, so a long document weighs as
  much as a short one).
- ``kendall_tau`` (Sec.4.2): per document ``tau = 1 - 2 * inversions / C(n, 2)``, an inversion
  being a pair of sentences placed by ``pred`` in the opposite relative order to ``gold``.
  Undefined for a document of one sentence (an ``InputError``).
- ``wlcs_l`` (Sec.4.2, Eq.5-7): the paper's length-adapted ROUGE-W, exactly as py-rouge 1.1
  computes it (``Rouge(metrics=['rouge-w'], weight_factor=w, alpha=0.5, limit_length=False)``
  with the gold order as the reference and the predicted order as the hypothesis, indices as
  tokens), which is what the paper ran; see :func:`wlcs_l_document` for the steps and how
  py-rouge's F relates to Eq.7.

:func:`ordering_scores` gives all four corpus values at once.
"""
from __future__ import annotations

from typing import Sequence

from sumeval.errors import InputError

Order = Sequence[int]

__all__ = [
    "pmr",
    "accuracy",
    "kendall_tau",
    "wlcs_l",
    "wlcs_l_document",
    "kendall_tau_document",
    "pmr_document",
    "accuracy_document",
    "inversions",
    "ordering_scores",
    "check_orders",
]


# --------------------------------------------------------------------------------------------
# input checks
# --------------------------------------------------------------------------------------------
def _check_permutation(order: Order, doc: int, which: str) -> list[int]:
    """``order`` as a list of ints, or an InputError naming document ``doc`` and the bad value."""
    try:
        items = list(order)
    except TypeError:
        raise InputError(
            f"{which}[{doc}] = {order!r:.80} is not a list of sentence indices; "
            "each order must be a list such as [2, 0, 1]"
        ) from None
    n = len(items)
    if n == 0:
        raise InputError(f"{which}[{doc}] is an empty order; every document needs at least one sentence")
    out: list[int] = []
    seen: set[int] = set()
    for k, v in enumerate(items):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise InputError(
                f"{which}[{doc}][{k}] = {v!r}: sentence indices must be integers; "
                f"{which}[{doc}] must be a permutation of 0..{n - 1}"
            )
        iv = int(v.__index__())
        if iv < 0 or iv >= n:
            raise InputError(
                f"{which}[{doc}][{k}] = {iv} is out of range: {which}[{doc}] has {n} items, "
                f"so it must be a permutation of 0..{n - 1}"
            )
        if iv in seen:
            raise InputError(
                f"{which}[{doc}][{k}] = {iv} is repeated: {which}[{doc}] must be a permutation "
                f"of 0..{n - 1} (each index exactly once)"
            )
        seen.add(iv)
        out.append(iv)
    return out


def check_orders(pred: Sequence[Order], gold: Sequence[Order]) -> list[tuple[list[int], list[int]]]:
    """Validate a corpus of predicted and gold orders.

    Args:
        pred: one predicted order per document.
        gold: one gold order per document.

    Returns:
        ``(pred[d], gold[d])`` as pairs of int lists.

    Raises:
        InputError: the two corpora differ in length, the corpus is empty, a document's two
            orders differ in length, or an order is not a permutation of ``0..n-1`` (the
            message names the document index and the offending value).
    """
    try:
        n_pred, n_gold = len(pred), len(gold)
    except TypeError:
        raise InputError("pred and gold must be lists of orders (one list of sentence indices per document)") from None
    if n_pred != n_gold:
        raise InputError(
            f"pred has {n_pred} documents but gold has {n_gold}; pass one predicted order per gold order"
        )
    if n_pred == 0:
        raise InputError("pred and gold are empty; a corpus-level metric needs at least one document")
    pairs = []
    for d, (p, g) in enumerate(zip(pred, gold)):
        pp = _check_permutation(p, d, "pred")
        gg = _check_permutation(g, d, "gold")
        if len(pp) != len(gg):
            raise InputError(
                f"document {d}: pred[{d}] has {len(pp)} items but gold[{d}] has {len(gg)}; "
                "both must order the same sentences"
            )
        pairs.append((pp, gg))
    return pairs


# --------------------------------------------------------------------------------------------
# per-document values (inputs assumed valid)
# --------------------------------------------------------------------------------------------
def pmr_document(pred: list[int], gold: list[int]) -> float:
    """1.0 when ``pred`` is ``gold`` exactly, else 0.0 (PMR's term, paper 002 Sec.4.2).

    >>> pmr_document([0, 1, 2], [0, 1, 2]), pmr_document([1, 0, 2], [0, 1, 2])
    (1.0, 0.0)
    """
    return 1.0 if pred == gold else 0.0


def accuracy_document(pred: list[int], gold: list[int]) -> float:
    """Acc of one document (paper 002 Sec.4.2): the fraction of positions where ``pred`` and
    ``gold`` hold the same sentence.

    >>> accuracy_document([0, 2, 1, 3], [0, 1, 2, 3])  # positions 0 and 3 right
    0.5
    """
    return sum(p == g for p, g in zip(pred, gold)) / len(gold)


def inversions(pred: list[int], gold: list[int]) -> int:
    """Number of sentence pairs that ``pred`` places in the opposite order to ``gold``.

    >>> inversions([2, 0, 1], [0, 1, 2])  # 2 before 0 and 2 before 1
    2
    """
    gold_pos = {s: k for k, s in enumerate(gold)}
    seq = [gold_pos[s] for s in pred]
    n = len(seq)
    return sum(1 for i in range(n) for j in range(i + 1, n) if seq[i] > seq[j])


def kendall_tau_document(pred: list[int], gold: list[int]) -> float:
    """Kendall tau of one document (paper 002 Sec.4.2): ``1 - 2 * inversions / C(n, 2)``.

    Args:
        pred, gold: orders of the same ``n >= 2`` sentences.

    Returns:
        tau in [-1, 1].

    Raises:
        InputError: ``n < 2``.

    >>> kendall_tau_document([2, 0, 1], [0, 1, 2])  # 1 - 2 * 2 / 3
    -0.33333333333333326
    """
    n = len(gold)
    if n < 2:
        raise InputError(
            f"Kendall tau is undefined for a document of {n} sentence; drop one-sentence "
            "documents (the paper removes them) before computing it"
        )
    return 1.0 - 2.0 * inversions(pred, gold) / (n * (n - 1) / 2)


def _wlcs_dirs(x: list[int], y: list[int], w: float) -> dict[tuple[int, int], str]:
    """py-rouge's ``_wlcs`` moves: x = reference (gold), y = hypothesis (pred).

    The float expressions are written in py-rouge's order so that ties between the up and
    left moves resolve identically.
    """
    m, n = len(x), len(y)
    vals: dict[tuple[int, int], float] = {}
    lengths: dict[tuple[int, int], int] = {}
    dirs: dict[tuple[int, int], str] = {}
    get_v = vals.get
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if x[i - 1] == y[j - 1]:
                run = lengths.get((i - 1, j - 1), 0)  # consecutive matches ending here
                vals[i, j] = get_v((i - 1, j - 1), 0.0) + (run + 1) ** w - run ** w
                dirs[i, j] = "|"
                lengths[i, j] = run + 1
            elif get_v((i - 1, j), 0.0) >= get_v((i, j - 1), 0.0):
                vals[i, j] = get_v((i - 1, j), 0.0)
                dirs[i, j] = "^"
                lengths[i, j] = 0
            else:
                vals[i, j] = get_v((i, j - 1), 0.0)
                dirs[i, j] = "<"
                lengths[i, j] = 0
    return dirs


def wlcs_l_document(pred: list[int], gold: list[int], weight: float = 1.2, alpha: float = 0.5) -> dict[str, float]:
    """WLCS-l of one document (paper 002 Sec.4.2, Eq.5-7) as py-rouge 1.1 computes ROUGE-W.

    The paper: ``P = f^-1(WLCS / f(n))`` (Eq.5), ``R = f^-1(WLCS / f^2(n))`` (Eq.6, the
    "doubled operator" that makes the score shrink as texts grow) and ``F = (1 + a^2) R P /
    (R + a^2 P)`` (Eq.7), with Lin's (2004) weighting ``f(k) = k^w``, computed with py-rouge at
    its default alpha. py-rouge writes F as ``P R / ((1 - alpha) P + alpha R)``: its default
    alpha = 0.5 gives ``2 P R / (P + R)``, the harmonic mean, which is Eq.7 with ``a = 1`` (not
    ``a = 0.5``). Steps, with ``w = weight``, gold = reference, pred = hypothesis:

    1. DP over (gold position i, pred position j): on a match
       ``v[i,j] = v[i-1,j-1] + (l+1)^w - l^w`` (l = run length at (i-1,j-1)); otherwise
       move up if ``v[i-1,j] >= v[i,j-1]`` else left, run length 0.
    2. Back-track from (m, n) and mark the matched gold positions.
    3. ``hits`` (py-rouge's WLCS) = sum over maximal runs of consecutive marked gold positions of
       ``run_length^w`` (not the DP value).
    4. ``P = (hits / n^w)^(1/w)`` (Eq.5); ``R = (hits / (m^w)^w)^(1/w)`` (Eq.6: the reference
       count raised to ``w`` twice), so identical orders of 3, 5, 10 items give R = 0.8027,
       0.7248, 0.6310 and F = 0.8906, 0.8404, 0.7737.
    5. ``F = P R / ((1 - alpha) P + alpha R)`` (Eq.7 with ``a = 1`` at alpha = 0.5; 0 when P or
       R is 0).

    Args:
        pred, gold: orders of the same sentences.
        weight: w (the paper: 1.2, py-rouge's ``weight_factor``).
        alpha: py-rouge's alpha (0.5, the paper's default).

    Returns:
        ``{"p", "r", "f", "hits"}``.

    Raises:
        InputError: ``weight <= 0``.

    >>> round(wlcs_l_document([0, 1, 2], [0, 1, 2])["f"], 4)  # identical orders of 3 items
    0.8906
    """
    w = float(weight)
    if not w > 0:
        raise InputError(f"weight = {weight!r}: the ROUGE-W weight factor must be > 0 (the paper uses 1.2)")
    m, n = len(gold), len(pred)
    dirs = _wlcs_dirs(gold, pred, w)
    mask = [0] * m
    i, j = m, n
    while i != 0 and j != 0:
        d = dirs[i, j]
        if d == "|":
            i -= 1
            j -= 1
            mask[i] = 1
        elif d == "^":
            i -= 1
        else:
            j -= 1
    # py-rouge's unigram bookkeeping: each token of the hypothesis may be credited once.
    # With permutations every index occurs once on each side, so every marked position counts.
    hits = 0.0
    run = 0
    for k, v in enumerate(mask):
        if v == 1:
            run += 1
            if k + 1 == m or mask[k + 1] == 0:
                hits += run ** w
                run = 0
    evaluated_count = n ** w
    reference_count = (m ** w) ** w
    if w != 1.0:
        p = (hits / evaluated_count) ** (1.0 / w) if evaluated_count else 0.0
        r = (hits / reference_count) ** (1.0 / w) if reference_count else 0.0
    else:
        p = hits / evaluated_count if evaluated_count else 0.0
        r = hits / reference_count if reference_count else 0.0
    f = 0.0 if (p == 0.0 or r == 0.0) else p * r / ((1 - alpha) * p + alpha * r)
    return {"p": p, "r": r, "f": f, "hits": hits}


# --------------------------------------------------------------------------------------------
# corpus values
# --------------------------------------------------------------------------------------------
def pmr(pred: Sequence[Order], gold: Sequence[Order]) -> float:
    """PMR (paper 002 Sec.4.2): the fraction of documents whose predicted order equals the gold one.

    >>> pmr([[0, 1], [1, 0]], [[0, 1], [0, 1]])
    0.5
    """
    pairs = check_orders(pred, gold)
    return sum(pmr_document(p, g) for p, g in pairs) / len(pairs)


def accuracy(pred: Sequence[Order], gold: Sequence[Order]) -> float:
    """Acc (paper 002 Sec.4.2): mean over documents of :func:`accuracy_document`."""
    pairs = check_orders(pred, gold)
    return sum(accuracy_document(p, g) for p, g in pairs) / len(pairs)


def kendall_tau(pred: Sequence[Order], gold: Sequence[Order]) -> float:
    """Kendall tau (paper 002 Sec.4.2): mean over documents of :func:`kendall_tau_document`
    (every document needs n >= 2; the message names the one that has not)."""
    pairs = check_orders(pred, gold)
    total = 0.0
    for d, (p, g) in enumerate(pairs):
        if len(g) < 2:
            raise InputError(
                f"document {d}: gold[{d}] = {g} has 1 sentence and Kendall tau is undefined for it; "
                "drop one-sentence documents (the paper removes them)"
            )
        total += kendall_tau_document(p, g)
    return total / len(pairs)


def wlcs_l(pred: Sequence[Order], gold: Sequence[Order], weight: float = 1.2, alpha: float = 0.5) -> float:
    """WLCS-l (paper 002 Sec.4.2, Eq.5-7): mean over documents of the F value of
    :func:`wlcs_l_document` (py-rouge's ROUGE-W)."""
    pairs = check_orders(pred, gold)
    return sum(wlcs_l_document(p, g, weight, alpha)["f"] for p, g in pairs) / len(pairs)


def ordering_scores(pred: Sequence[Order], gold: Sequence[Order], weight: float = 1.2) -> dict[str, float]:
    """All four corpus values: ``{"pmr", "acc", "tau", "wlcs_l"}`` (tau is NaN if any n < 2).

    >>> ordering_scores([[0, 1, 2]], [[0, 1, 2]])["acc"]
    1.0
    """
    pairs = check_orders(pred, gold)
    k = len(pairs)
    out = {
        "pmr": sum(pmr_document(p, g) for p, g in pairs) / k,
        "acc": sum(accuracy_document(p, g) for p, g in pairs) / k,
        "wlcs_l": sum(wlcs_l_document(p, g, weight)["f"] for p, g in pairs) / k,
    }
    out["tau"] = (
        sum(kendall_tau_document(p, g) for p, g in pairs) / k
        if all(len(g) >= 2 for _, g in pairs) else float("nan")
    )
    return out
