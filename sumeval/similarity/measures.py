"""Measures at points of contextual similarity (Vasilyev & Bohannon, paper 000): pure numpy.

Notation of the paper (Sec.2): a summary of N words with masked-token embeddings ``e_i``
(``E_summary``: (N, L, H), every layer), a text of M words with ``e'_a`` (``E_text``: (M, L, H)),
token ids ``t_i`` and ``t'_a``, raw input embeddings ``phi_i`` and ``phi'_a``. Any (summary
layer, text layer) pair may be used (paper 000 Sec.4.1, Fig.1).

Each formula has one implementation, vectorised over layer pairs; the single-pair functions
are that implementation on one layer pair:

=============================  ======================================  ============================
paper 000                      formula                                 implementation
=============================  ======================================  ============================
point of similarity, Sec.2     ``b(i) = argmax_a (e_i . e'_a)``        :func:`layer_pair_points`
ESTIME, Sec.2 Eq.1             ``sum_{i in M} [t_i != t'_{b(i)}]``     :func:`scores_from_points`
ESTIME-soft, Sec.2 Eq.2        ``(1/N) sum_i cos(phi_i, phi'_{b(i)})`` :func:`scores_from_points`
similarity order, Sec.5.1 Eq.3 ``tau_c((i)_i, (b(i))_i)``              :func:`.order.similarity_order_rows`
local order, Sec.5.2 Eq.4      ``tau_d``: pairs with ``|i - j| <= d``  :func:`.order.local_order_profile`
=============================  ======================================  ============================

Single pair: :func:`points_of_similarity`, :func:`estime_alarms`, :func:`estime_soft`,
:func:`~.order.similarity_order`, :func:`~.order.local_order_tau` (Eq.3 and Eq.4 live in
:mod:`sumeval.similarity.order` and are importable from here). The "similarity order" of Eq.3
is the measure the ``similarity-order`` scorer (alias ``coherence``) reports (the paper correlates
it with expert coherence).

Undefined values are NaN (never an exception) and :func:`undefined_reason` says why.
"""
from __future__ import annotations

import functools
from typing import Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.similarity.order import (
    local_order_profile,
    local_order_tau,
    points_1d,
    similarity_order,
    similarity_order_rows,
)
from sumeval.similarity.shapes import as_ndim

__all__ = [
    "points_of_similarity", "layer_pair_points", "in_text_mask", "raw_cosines", "scores_from_points",
    "estime_alarms", "estime_soft", "similarity_order", "similarity_order_rows", "local_order_profile",
    "local_order_tau", "sweep_layers", "undefined_reason", "POINT_BACKENDS", "one_blas_thread",
]

#: how :func:`layer_pair_points` multiplies: numpy (default) or torch (float32, one batched
#: product per summary layer; what the paper-000 studies use)
POINT_BACKENDS = ("numpy", "torch")


@functools.lru_cache(maxsize=1)
def _blas_controller():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread():
    """Context: numpy's BLAS on one thread for the block (restored after).

    A BLAS sums a product's terms in an order that may depend on its thread count, so the same
    float products differ in the last bit with one thread (``run all --jobs 2``) and with two. A
    last-bit difference decides a near-tie of the points of similarity and, in ESTIME-soft's
    cosines, makes equal summaries' scores unequal (their ranks then differ); with one thread the
    numbers are the same whatever the process has.
    """
    return _blas_controller().limit(limits=1, user_api="blas")


def _as2d(a: np.ndarray, name: str) -> np.ndarray:
    return as_ndim(a, 2, f"{name} must be a 2-d array (words, hidden)", np.float32)


# --------------------------------------------------------------------------------------------
# points of similarity (paper 000 Sec.2)
# --------------------------------------------------------------------------------------------
def layer_pair_points(E_summary: np.ndarray, E_text: np.ndarray,
                      summary_layers: Sequence[int] | None = None,
                      text_layers: Sequence[int] | None = None, *, backend: str = "numpy") -> np.ndarray:
    """Points of similarity ``b(i) = argmax_a (e_i . e'_a)`` (paper 000 Sec.2) for every
    (summary layer, text layer) pair at once.

    A raw dot product, not a cosine; the first maximum on ties (as numpy's argmax and the
    reference's strict ``>``). The products are float32, one batched matrix product per summary
    layer: ``(Lt, N, H) x (Lt, H, M)``. Each product runs on one BLAS thread, so a near-tie
    resolves the same however many threads the process has (``run all --jobs 2`` gives each run
    one; a machine with more cores more; :func:`one_blas_thread`). The torch backend runs the
    summary layers' products side by side on the process's threads.

    Args:
        E_summary: (N, Ls, H) summary word embeddings (any float dtype; the engine stores float16).
        E_text: (M, Lt, H) text word embeddings, M >= 1 unless N == 0.
        summary_layers, text_layers: the layers to pair (default: all of each).
        backend: ``"numpy"`` or ``"torch"`` (:data:`POINT_BACKENDS`); both multiply in float32,
            but their BLAS may order the sums differently, so near-ties can resolve apart. The
            paper-000 studies use torch, the scorers numpy.

    Returns:
        (len(summary_layers), len(text_layers), N) int64 indices into the text words.

    Raises:
        InputError: shapes that do not fit, an empty text, an unknown backend.
    """
    Es = np.asarray(E_summary)
    Et = np.asarray(E_text)
    if Es.ndim != 3 or Et.ndim != 3 or Es.shape[2] != Et.shape[2]:
        raise InputError(f"E_summary {Es.shape} and E_text {Et.shape} must be (words, layers, hidden) "
                         "with the same hidden size")
    if backend not in POINT_BACKENDS:
        raise InputError(f"backend {backend!r} is unknown; use one of {', '.join(POINT_BACKENDS)}")
    sl = list(range(Es.shape[1])) if summary_layers is None else list(summary_layers)
    tl = list(range(Et.shape[1])) if text_layers is None else list(text_layers)
    n, m = Es.shape[0], Et.shape[0]
    out = np.zeros((len(sl), len(tl), n), dtype=np.int64)
    if n == 0:
        return out
    if m == 0:
        raise InputError("the text has no words: points of similarity are undefined")
    T = np.ascontiguousarray(Et[:, tl, :].astype(np.float32).transpose(1, 2, 0))  # (Lt, H, M)
    if backend == "numpy":
        with one_blas_thread():
            for a, s in enumerate(sl):
                dots = np.matmul(Es[:, s, :].astype(np.float32)[None, :, :], T)  # (Lt, N, M)
                out[a] = np.argmax(dots, axis=2)
        return out
    import torch

    Tt = torch.from_numpy(T)
    Sf = torch.from_numpy(np.ascontiguousarray(Es.astype(np.float32)))

    def points(s: int) -> np.ndarray:
        with torch.inference_mode():
            return torch.matmul(Sf[:, s, :].unsqueeze(0), Tt).argmax(dim=2).numpy()  # (Lt, N)

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        if threads > 1 and len(sl) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=min(threads, len(sl))) as pool:
                for a, got in enumerate(pool.map(points, sl)):
                    out[a] = got
        else:
            for a, s in enumerate(sl):
                out[a] = points(s)
    finally:
        torch.set_num_threads(threads)
    return out


def points_of_similarity(e_summary: np.ndarray, e_text: np.ndarray) -> np.ndarray:
    """``b(i) = argmax_a (e_summary[i] . e_text[a])`` for every summary word, at one layer pair
    (:func:`layer_pair_points` on one layer each).

    Args:
        e_summary: (N, H) summary word embeddings.
        e_text: (M, H) text word embeddings, M >= 1 unless N == 0.

    Returns:
        (N,) int64 indices into the text words (the first maximum on ties).

    Raises:
        InputError: different hidden sizes, or an empty text.
    """
    es, et = _as2d(e_summary, "e_summary"), _as2d(e_text, "e_text")
    if es.shape[1] != et.shape[1]:
        raise InputError(f"e_summary has hidden size {es.shape[1]} but e_text has {et.shape[1]}; "
                         "take both from the same model")
    return layer_pair_points(es[:, None, :], et[:, None, :])[0, 0]


def in_text_mask(summary_words: Sequence[str], text_words: Sequence[str]) -> np.ndarray:
    """The set M of Eq.1 (paper 000 Sec.2): summary words that also occur in the text.

    As the reference builds it: the exact word string after NFKD, case-sensitive.

    Args:
        summary_words: the N summary words.
        text_words: the text words.

    Returns:
        (N,) bool.
    """
    vocab = set(text_words)
    return np.array([w in vocab for w in summary_words], dtype=bool)


def raw_cosines(phi_summary: np.ndarray, phi_text: np.ndarray) -> np.ndarray:
    """Cosines between the raw embeddings of every summary word and every text word.

    Args:
        phi_summary: (N, Hr) raw input embeddings of the summary words' first pieces.
        phi_text: (M, Hr) the same for the text words.

    Returns:
        (N, M) float64; 0 where a row has zero norm.
    """
    a = np.asarray(phi_summary, dtype=np.float64)
    b = np.asarray(phi_text, dtype=np.float64)
    na = np.linalg.norm(a, axis=1, keepdims=True)
    nb = np.linalg.norm(b, axis=1, keepdims=True)
    a = np.divide(a, na, out=np.zeros_like(a), where=na > 0)
    b = np.divide(b, nb, out=np.zeros_like(b), where=nb > 0)
    with one_blas_thread():  # the same last bits whatever the thread count (:func:`one_blas_thread`)
        return a @ b.T


# --------------------------------------------------------------------------------------------
# Eq.1, Eq.2, Eq.3 for many layer pairs
# --------------------------------------------------------------------------------------------
def scores_from_points(P: np.ndarray, summary_tokens: np.ndarray, text_tokens: np.ndarray, *,
                       in_text: np.ndarray | None = None, phi_summary: np.ndarray | None = None,
                       phi_text: np.ndarray | None = None,
                       raw_cos: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """ESTIME (Eq.1), ESTIME-soft (Eq.2) and the similarity order (Eq.3) of paper 000 from the
    points of similarity of many layer pairs of one summary: the one implementation of each.

    - ``alarms`` (Eq.1, Sec.2): ``sum_{i in M} [t_i != t'_{b(i)}]``, the mismatches counted over
      the set M of summary words found in the text; over all N words when M is empty (the
      reference's rule). The reference's variants: ``alarms_adjusted = alarms * N / |M|``
      (equal to ``alarms`` when M is empty) and ``alarms_alltokens`` (mismatches over all N
      words). Lower is better.
    - ``estime_soft`` (Eq.2, Sec.2): ``(1/N) sum_i cos(phi_i, phi'_{b(i)})`` over **all** N summary
      words (the paper; the reference code before July 2023 averaged over M only). Higher is
      better.
    - ``similarity_order`` (Eq.3, Sec.5.1): Kendall tau-c between the summary positions
      ``0..N-1`` and ``b(i)`` (:func:`similarity_order_rows`); NaN when N < 2 or all ``b(i)``
      are equal.

    Args:
        P: (Ls, Lt, N) points ``b(i)`` (:func:`layer_pair_points`).
        summary_tokens: (N,) token ids ``t_i`` (first piece of each summary word).
        text_tokens: (M,) token ids ``t'_a``.
        in_text: (N,) bool, the set M (:func:`in_text_mask`); None = all words.
        phi_summary, phi_text: (N, Hr), (M, Hr) raw embeddings, or
        raw_cos: (N, M) their cosines (:func:`raw_cosines`) when already computed.

    Returns:
        (Ls, Lt) arrays ``alarms``, ``alarms_adjusted``, ``alarms_alltokens``,
        ``similarity_order`` and ``estime_soft`` (when raw embeddings are given), plus
        ``points`` (P itself). All NaN when N == 0.
    """
    P = as_ndim(P, 3, "P must be (summary layers, text layers, N)", np.int64)
    ls, lt, n = P.shape
    st = np.asarray(summary_tokens)
    tt = np.asarray(text_tokens)
    want_soft = phi_summary is not None or raw_cos is not None
    out: dict[str, np.ndarray] = {"points": P}
    if n == 0:
        nan = np.full((ls, lt), np.nan)
        out.update(alarms=nan, alarms_adjusted=nan.copy(), alarms_alltokens=nan.copy(),
                   similarity_order=nan.copy())
        if want_soft:
            out["estime_soft"] = nan.copy()
        return out
    if st.shape != (n,):
        raise InputError(f"summary_tokens has shape {st.shape}; expected ({n},), one per summary word")
    mask = np.ones(n, dtype=bool) if in_text is None else np.asarray(in_text, dtype=bool)
    if mask.shape != (n,):
        raise InputError(f"in_text has shape {mask.shape}; expected ({n},)")
    alarms, adjusted, all_tok = _alarms(st[None, None, :] != tt[P], mask)
    out.update(alarms=alarms, alarms_adjusted=adjusted, alarms_alltokens=all_tok)
    out["similarity_order"] = similarity_order_rows(P.reshape(ls * lt, n)).reshape(ls, lt)
    if want_soft:
        if raw_cos is None:
            if phi_text is None:
                raise InputError("phi_summary given without phi_text")
            raw_cos = raw_cosines(phi_summary, phi_text)  # (N, M)
        out["estime_soft"] = _soft(np.asarray(raw_cos), P)
    return out


def _alarms(mismatch: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eq.1's counts from ``mismatch`` (Ls, Lt, N) bool (``t_i != t'_{b(i)}``) and the set M
    ``mask`` (N,): ``(alarms, alarms_adjusted, alarms_alltokens)``, each (Ls, Lt) float."""
    n = mask.shape[0]
    all_tok = mismatch.sum(axis=2).astype(float)
    n_m = int(mask.sum())
    if n_m == 0:
        return all_tok.copy(), all_tok.copy(), all_tok
    alarms = mismatch[:, :, mask].sum(axis=2).astype(float)
    return alarms, alarms * n / n_m, all_tok


def _soft(raw_cos: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Eq.2 from the cosines ``raw_cos`` (N, M) and the points ``P`` (Ls, Lt, N): (Ls, Lt)."""
    return raw_cos[np.arange(P.shape[2])[None, None, :], P].mean(axis=2)


# --------------------------------------------------------------------------------------------
# Eq.1, Eq.2 at one layer pair
# --------------------------------------------------------------------------------------------
def estime_alarms(summary_tokens: np.ndarray, text_tokens: np.ndarray, points: np.ndarray,
                  in_text: np.ndarray | None = None) -> dict[str, float]:
    """ESTIME alarms (paper 000 Sec.2, Eq.1) and the reference's variants at one layer pair
    (:func:`scores_from_points` on one pair).

    Args:
        summary_tokens: (N,) token ids (the first word-piece of each summary word).
        text_tokens: (M,) token ids of the text words.
        points: (N,) ``b(i)``, indices into the text words.
        in_text: (N,) bool, the set M (summary words also in the text); None = all words.

    Returns:
        ``alarms``, ``alarms_adjusted``, ``alarms_alltokens`` (NaN when N == 0), ``n_words``
        (N) and ``n_in_text`` (|M|). Lower is better.

    Raises:
        InputError: arrays of the wrong length.
    """
    P = points_1d(points)[None, None, :]
    n = P.shape[2]
    n_summary = np.asarray(summary_tokens).shape[0]
    if n != n_summary:
        raise InputError(f"points has shape ({n},); expected ({n_summary},), one per summary word")
    r = scores_from_points(P, summary_tokens, text_tokens, in_text=in_text)
    n_m = n if in_text is None else int(np.asarray(in_text, dtype=bool).sum())
    return {"alarms": float(r["alarms"][0, 0]), "alarms_adjusted": float(r["alarms_adjusted"][0, 0]),
            "alarms_alltokens": float(r["alarms_alltokens"][0, 0]), "n_words": n,
            "n_in_text": n_m if n else 0}


def estime_soft(phi_summary: np.ndarray, phi_text: np.ndarray, points: np.ndarray) -> float:
    """ESTIME-soft (paper 000 Sec.2, Eq.2) at one layer pair: ``(1/N) sum_i cos(phi_i,
    phi'_{b(i)})`` over all N summary words (:func:`scores_from_points` on one pair).

    Args:
        phi_summary: (N, Hr) raw input embeddings of the summary words' first pieces.
        phi_text: (M, Hr) the same for the text words.
        points: (N,) ``b(i)``.

    Returns:
        The mean cosine (a zero row counts as cosine 0); NaN when N == 0. Higher is better.

    Raises:
        InputError: ``phi_summary`` and ``points`` of different lengths.
    """
    P = points_1d(points)[None, None, :]
    ps = np.asarray(phi_summary, dtype=np.float64)
    if ps.shape[0] != P.shape[2]:
        raise InputError(f"phi_summary has {ps.shape[0]} rows but points has {P.shape[2]}")
    if P.shape[2] == 0:
        return float("nan")
    return float(_soft(raw_cosines(ps, phi_text), P)[0, 0])


# --------------------------------------------------------------------------------------------
# all at once, and why a value is undefined
# --------------------------------------------------------------------------------------------
def sweep_layers(E_summary: np.ndarray, E_text: np.ndarray, summary_tokens: np.ndarray,
                 text_tokens: np.ndarray, *, in_text: np.ndarray | None = None,
                 phi_summary: np.ndarray | None = None, phi_text: np.ndarray | None = None,
                 summary_layers: Sequence[int] | None = None,
                 text_layers: Sequence[int] | None = None,
                 local_d: Sequence[int] = (), backend: str = "numpy") -> dict[str, np.ndarray]:
    """All measures for every (summary layer, text layer) pair of one (text, summary).

    Args:
        E_summary, E_text: (N, Ls, H), (M, Lt, H) embeddings (:func:`layer_pair_points`).
        summary_tokens, text_tokens, in_text, phi_summary, phi_text: see :func:`scores_from_points`.
        summary_layers, text_layers: the layers to pair (default all).
        local_d: distances d of Eq.4 to add (each >= 1).
        backend: see :func:`layer_pair_points`.

    Returns:
        (len(summary_layers), len(text_layers)) arrays of :func:`scores_from_points` and
        ``local_order_d{d}`` for each d in ``local_d``; plus ``points`` (Ls, Lt, N).
    """
    P = layer_pair_points(E_summary, E_text, summary_layers, text_layers, backend=backend)
    out = scores_from_points(P, summary_tokens, text_tokens, in_text=in_text,
                             phi_summary=phi_summary, phi_text=phi_text)
    if local_d:
        ls, lt, n = P.shape
        prof = local_order_profile(P.reshape(ls * lt, n), max(local_d))
        for d in local_d:
            out[f"local_order_d{d}"] = prof[:, d - 1].reshape(ls, lt)
    return out


def undefined_reason(measure: str, n_words: int, n_text_words: int = 1,
                     points: np.ndarray | None = None) -> str | None:
    """Why ``measure`` is NaN for a summary of ``n_words`` words (None when it is defined).

    Args:
        measure: ``"estime"``, ``"estime-soft"``, ``"similarity_order"`` (or its scorer name
            ``"coherence"``) or ``"local-order"``.
        n_words: N, the summary's words.
        n_text_words: M, the text's words.
        points: the points ``b(i)``, when known.

    Returns:
        A sentence, or None.
    """
    if n_text_words == 0:
        return "the text has no words"
    if n_words == 0:
        return "the summary has no words"
    if measure in ("similarity_order", "coherence", "local-order"):
        if n_words < 2:
            return "the summary has one word: an order needs at least two"
        if points is not None and len(points) and np.all(np.asarray(points) == np.asarray(points)[0]):
            return "every summary word points to the same text word"
    return None
