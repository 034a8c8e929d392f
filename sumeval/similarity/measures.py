"""Measures at points of contextual similarity (paper 000, SPEC.md §1): pure numpy.

Notation: a summary of N words with masked-token embeddings ``e_summary`` (N, H), a text of M
words with ``e_text`` (M, H), from any (summary layer, text layer) pair.

- :func:`points_of_similarity`: ``b(i) = argmax_a e_i . e'_a`` (raw dot product; first maximum on
  ties, as the reference's strict ``>``).
- :func:`estime_alarms` (Eq.1) with the reference's variants ``alarms_adjusted`` and
  ``alarms_alltokens``.
- :func:`estime_soft` (Eq.2): mean cosine of raw input embeddings at the points, over **all** N
  summary words (the paper; the reference code before July 2023 averaged over M only).
- :func:`coherence` (Eq.3): Kendall tau-c between ``i`` and ``b(i)``.
- :func:`local_order_tau` (Eq.4): tau over the pairs with ``|X_i - X_j| <= d``.
- :func:`layer_pair_points` and :func:`sweep_layers`: every (summary layer, text layer) pair at
  once from the cached (n_words, n_layers, H) arrays, with batched matrix products.

Undefined values are NaN (never an exception) and :func:`undefined_reason` says why.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from sumeval.errors import InputError

__all__ = [
    "points_of_similarity", "estime_alarms", "estime_soft", "raw_cosines", "coherence",
    "kendall_tau_c_rows", "local_order_tau", "layer_pair_points", "sweep_layers",
    "undefined_reason", "in_text_mask", "scores_from_points", "local_order_profile",
]


def _as2d(a: np.ndarray, name: str) -> np.ndarray:
    a = np.asarray(a, dtype=np.float32)
    if a.ndim != 2:
        raise InputError(f"{name} must be a 2-d array (words, hidden); got shape {a.shape}")
    return a


def points_of_similarity(e_summary: np.ndarray, e_text: np.ndarray) -> np.ndarray:
    """``b(i) = argmax_a (e_summary[i] . e_text[a])`` for every summary word.

    Parameters
    ----------
    e_summary : (N, H) float
    e_text : (M, H) float, M >= 1 unless N == 0

    Returns
    -------
    (N,) int64 indices into the text words (the first maximum on ties).
    """
    es, et = _as2d(e_summary, "e_summary"), _as2d(e_text, "e_text")
    if es.shape[1] != et.shape[1]:
        raise InputError(f"e_summary has hidden size {es.shape[1]} but e_text has {et.shape[1]}; "
                         "take both from the same model")
    if es.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    if et.shape[0] == 0:
        raise InputError("the text has no words: points of similarity are undefined")
    return np.argmax(es @ et.T, axis=1).astype(np.int64)


def in_text_mask(summary_words: Sequence[str], text_words: Sequence[str]) -> np.ndarray:
    """(N,) bool: summary word i occurs (as the same string) among the text words - the set M of
    Eq.1, as the reference builds it (exact string after NFKD, case-sensitive)."""
    vocab = set(text_words)
    return np.array([w in vocab for w in summary_words], dtype=bool)


def estime_alarms(summary_tokens: np.ndarray, text_tokens: np.ndarray, points: np.ndarray,
                  in_text: np.ndarray | None = None) -> dict[str, float]:
    """ESTIME alarms (Eq.1) and the reference's variants.

    Parameters
    ----------
    summary_tokens : (N,) token ids (the first word-piece of each summary word)
    text_tokens : (M,) token ids of the text words
    points : (N,) ``b(i)``, indices into the text words
    in_text : (N,) bool, the set M (summary words also in the text); None = all words

    Returns
    -------
    dict with ``alarms`` (mismatches over M; over all words when M is empty), ``alarms_adjusted``
    (``alarms * N / |M|``; equal to ``alarms`` when M is empty), ``alarms_alltokens`` (mismatches
    over all N words), ``n_words`` (N) and ``n_in_text`` (|M|). NaN alarms when N == 0. Lower is better.
    """
    st = np.asarray(summary_tokens)
    tt = np.asarray(text_tokens)
    pts = np.asarray(points, dtype=np.int64)
    n = st.shape[0]
    if pts.shape != (n,):
        raise InputError(f"points has shape {pts.shape}; expected ({n},), one per summary word")
    mask = np.ones(n, dtype=bool) if in_text is None else np.asarray(in_text, dtype=bool)
    if mask.shape != (n,):
        raise InputError(f"in_text has shape {mask.shape}; expected ({n},)")
    n_m = int(mask.sum())
    if n == 0:
        nan = float("nan")
        return {"alarms": nan, "alarms_adjusted": nan, "alarms_alltokens": nan, "n_words": 0,
                "n_in_text": 0}
    mismatch = st != tt[pts]
    all_tok = float(mismatch.sum())
    if n_m == 0:
        alarms, adjusted = all_tok, all_tok
    else:
        alarms = float(mismatch[mask].sum())
        adjusted = alarms * n / n_m
    return {"alarms": alarms, "alarms_adjusted": adjusted, "alarms_alltokens": all_tok,
            "n_words": n, "n_in_text": n_m}


def raw_cosines(phi_summary: np.ndarray, phi_text: np.ndarray) -> np.ndarray:
    """(N, M) cosines between raw embedding rows (0 where a row has zero norm)."""
    a = np.asarray(phi_summary, dtype=np.float64)
    b = np.asarray(phi_text, dtype=np.float64)
    na = np.linalg.norm(a, axis=1, keepdims=True)
    nb = np.linalg.norm(b, axis=1, keepdims=True)
    a = np.divide(a, na, out=np.zeros_like(a), where=na > 0)
    b = np.divide(b, nb, out=np.zeros_like(b), where=nb > 0)
    return a @ b.T


def estime_soft(phi_summary: np.ndarray, phi_text: np.ndarray, points: np.ndarray) -> float:
    """ESTIME-soft (Eq.2): ``(1/N) sum_i cos(phi_i, phi'_{b(i)})`` over all N summary words.

    phi_summary : (N, Hr) raw input embeddings of the summary words' first pieces
    phi_text : (M, Hr) the same for the text words
    points : (N,) ``b(i)``. NaN when N == 0. Higher is better.
    """
    pts = np.asarray(points, dtype=np.int64)
    ps = np.asarray(phi_summary, dtype=np.float64)
    if ps.shape[0] != pts.shape[0]:
        raise InputError(f"phi_summary has {ps.shape[0]} rows but points has {pts.shape[0]}")
    if pts.shape[0] == 0:
        return float("nan")
    pt = np.asarray(phi_text, dtype=np.float64)[pts]
    num = np.einsum("ij,ij->i", ps, pt)
    den = np.linalg.norm(ps, axis=1) * np.linalg.norm(pt, axis=1)
    cos = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
    return float(cos.mean())


def kendall_tau_c_rows(y: np.ndarray) -> np.ndarray:
    """Kendall tau-c between ``0..N-1`` and each row of ``y`` (K, N), vectorised.

    ``tau_c = 2 (P - Q) / (N^2 (m - 1) / m)`` with P - Q the concordant minus discordant pairs and
    m = min(N, number of distinct values in the row) - scipy's definition when x has no ties.
    NaN for rows with N < 2 or all values equal.
    """
    y = np.asarray(y)
    if y.ndim != 2:
        raise InputError(f"y must be 2-d (rows, N); got shape {y.shape}")
    k, n = y.shape
    out = np.full(k, np.nan)
    if n < 2:
        return out
    iu, ju = np.triu_indices(n, 1)
    s = np.zeros(k, dtype=np.int64)
    step = max(1, 4_000_000 // max(1, len(iu)))  # bound memory: rows per block
    for r0 in range(0, k, step):
        blk = y[r0:r0 + step]
        s[r0:r0 + step] = np.sign(blk[:, ju].astype(np.int64) - blk[:, iu].astype(np.int64)).sum(axis=1)
    srt = np.sort(y, axis=1)
    distinct = 1 + (np.diff(srt, axis=1) != 0).sum(axis=1)
    m = np.minimum(distinct, n)
    ok = m > 1
    out[ok] = 2.0 * s[ok] / (n * n * (m[ok] - 1) / m[ok])
    return out


def coherence(points: np.ndarray) -> float:
    """Eq.3: Kendall tau-c between summary positions ``0..N-1`` and ``b(i)``.

    NaN when N < 2 or all ``b(i)`` are equal (see :func:`undefined_reason`).
    """
    pts = np.asarray(points)
    if pts.ndim != 1:
        raise InputError(f"points must be 1-d; got shape {pts.shape}")
    if pts.shape[0] < 2 or np.all(pts == pts[0]):
        return float("nan")
    from scipy.stats import kendalltau

    return float(kendalltau(np.arange(pts.shape[0]), pts, variant="c").statistic)


def local_order_tau(points: np.ndarray, d: int, positions: np.ndarray | None = None) -> float:
    """Eq.4: local Kendall tau over the pairs whose X values are at most ``d`` apart.

    X = ``positions`` (default ``0..N-1``, the summary word positions), Y = ``points``. Over the
    pairs i < j with ``|X_i - X_j| <= d``: ``(n_concordant - n_discordant) / n_pairs``, where a pair
    is concordant when X and Y order it the same way strictly, and discordant otherwise (ties
    included). NaN when there is no such pair.
    """
    y = np.asarray(points, dtype=np.float64)
    x = np.arange(y.shape[0], dtype=np.float64) if positions is None else np.asarray(positions, dtype=np.float64)
    if x.shape != y.shape or y.ndim != 1:
        raise InputError(f"positions {x.shape} and points {y.shape} must be 1-d of the same length")
    if d < 0:
        raise InputError(f"d must be >= 0, got {d}")
    n = y.shape[0]
    if n < 2:
        return float("nan")
    iu, ju = np.triu_indices(n, 1)
    dx = x[ju] - x[iu]
    keep = np.abs(dx) <= d
    if not keep.any():
        return float("nan")
    dy = y[ju][keep] - y[iu][keep]
    conc = (np.sign(dx[keep]) * np.sign(dy)) > 0
    nc = int(conc.sum())
    nt = int(keep.sum())
    return (nc - (nt - nc)) / nt


def undefined_reason(measure: str, n_words: int, n_text_words: int = 1,
                     points: np.ndarray | None = None) -> str | None:
    """Why ``measure`` is NaN for a summary of ``n_words`` words (None when it is defined)."""
    if n_text_words == 0:
        return "the text has no words"
    if n_words == 0:
        return "the summary has no words"
    if measure in ("coherence", "local-order"):
        if n_words < 2:
            return "the summary has one word: an order needs at least two"
        if points is not None and len(points) and np.all(np.asarray(points) == np.asarray(points)[0]):
            return "every summary word points to the same text word"
    return None


def layer_pair_points(E_summary: np.ndarray, E_text: np.ndarray,
                      summary_layers: Sequence[int] | None = None,
                      text_layers: Sequence[int] | None = None) -> np.ndarray:
    """Points of similarity for every (summary layer, text layer) pair at once.

    E_summary : (N, Ls, H) cached summary embeddings; E_text : (M, Lt, H) text embeddings.
    Returns (len(summary_layers), len(text_layers), N) int64, from one batched matrix product per
    summary layer: ``einsum('nh,mth->tnm')``.
    """
    Es = np.asarray(E_summary)
    Et = np.asarray(E_text)
    if Es.ndim != 3 or Et.ndim != 3 or Es.shape[2] != Et.shape[2]:
        raise InputError(f"E_summary {Es.shape} and E_text {Et.shape} must be (words, layers, hidden) "
                         "with the same hidden size")
    sl = list(range(Es.shape[1])) if summary_layers is None else list(summary_layers)
    tl = list(range(Et.shape[1])) if text_layers is None else list(text_layers)
    n, m = Es.shape[0], Et.shape[0]
    out = np.zeros((len(sl), len(tl), n), dtype=np.int64)
    if n == 0:
        return out
    if m == 0:
        raise InputError("the text has no words: points of similarity are undefined")
    T = np.ascontiguousarray(Et[:, tl, :].astype(np.float32).transpose(1, 2, 0))  # (Lt, H, M)
    for a, s in enumerate(sl):
        S = Es[:, s, :].astype(np.float32)  # (N, H)
        dots = np.matmul(S[None, :, :], T)  # (Lt, N, M)
        out[a] = np.argmax(dots, axis=2)
    return out


def sweep_layers(E_summary: np.ndarray, E_text: np.ndarray, summary_tokens: np.ndarray,
                 text_tokens: np.ndarray, *, in_text: np.ndarray | None = None,
                 phi_summary: np.ndarray | None = None, phi_text: np.ndarray | None = None,
                 summary_layers: Sequence[int] | None = None,
                 text_layers: Sequence[int] | None = None,
                 local_d: Sequence[int] = ()) -> dict[str, np.ndarray]:
    """All measures for every (summary layer, text layer) pair of one (text, summary).

    Returns arrays of shape (len(summary_layers), len(text_layers)): ``alarms``,
    ``alarms_adjusted``, ``alarms_alltokens``, ``coherence``, ``estime_soft`` (when ``phi_*`` are
    given) and ``local_order_d{d}`` for each d in ``local_d``; plus ``points`` (Ls, Lt, N).
    Equal, pair by pair, to the single-pair functions.
    """
    P = layer_pair_points(E_summary, E_text, summary_layers, text_layers)
    out = scores_from_points(P, summary_tokens, text_tokens, in_text=in_text,
                             phi_summary=phi_summary, phi_text=phi_text)
    n = P.shape[2]
    for d in local_d:
        out[f"local_order_d{d}"] = np.array(
            [[local_order_tau(P[a, b], d) if n else np.nan for b in range(P.shape[1])]
             for a in range(P.shape[0])])
    return out


def scores_from_points(P: np.ndarray, summary_tokens: np.ndarray, text_tokens: np.ndarray, *,
                       in_text: np.ndarray | None = None, phi_summary: np.ndarray | None = None,
                       phi_text: np.ndarray | None = None,
                       raw_cos: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """ESTIME, ESTIME-soft and coherence from points of similarity of many layer pairs.

    P : (Ls, Lt, N) points ``b(i)`` of one summary (:func:`layer_pair_points`);
    summary_tokens (N,), text_tokens (M,) : first-piece token ids; in_text (N,) : the set M;
    phi_summary (N, Hr), phi_text (M, Hr) : raw embeddings, or ``raw_cos`` (N, M) their cosines
    (:func:`raw_cosines`) when already computed.
    Returns (Ls, Lt) arrays ``alarms``, ``alarms_adjusted``, ``alarms_alltokens``, ``coherence``
    and ``estime_soft`` (when raw embeddings are given), plus ``points`` (P itself); equal, pair
    by pair, to :func:`estime_alarms`, :func:`estime_soft` and :func:`coherence`.
    """
    P = np.asarray(P, dtype=np.int64)
    if P.ndim != 3:
        raise InputError(f"P must be (summary layers, text layers, N); got shape {P.shape}")
    ls, lt, n = P.shape
    st = np.asarray(summary_tokens)
    tt = np.asarray(text_tokens)
    want_soft = phi_summary is not None or raw_cos is not None
    out: dict[str, np.ndarray] = {"points": P}
    if n == 0:
        nan = np.full((ls, lt), np.nan)
        out.update(alarms=nan, alarms_adjusted=nan.copy(), alarms_alltokens=nan.copy(),
                   coherence=nan.copy())
        if want_soft:
            out["estime_soft"] = nan.copy()
        return out
    if st.shape != (n,):
        raise InputError(f"summary_tokens has shape {st.shape}; expected ({n},)")
    mask = np.ones(n, dtype=bool) if in_text is None else np.asarray(in_text, dtype=bool)
    mismatch = st[None, None, :] != tt[P]
    all_tok = mismatch.sum(axis=2).astype(float)
    n_m = int(mask.sum())
    if n_m == 0:
        alarms = all_tok.copy()
        adjusted = all_tok.copy()
    else:
        alarms = mismatch[:, :, mask].sum(axis=2).astype(float)
        adjusted = alarms * n / n_m
    out.update(alarms=alarms, alarms_adjusted=adjusted, alarms_alltokens=all_tok)
    out["coherence"] = kendall_tau_c_rows(P.reshape(ls * lt, n)).reshape(ls, lt)
    if want_soft:
        if raw_cos is None:
            if phi_text is None:
                raise InputError("phi_summary given without phi_text")
            raw_cos = raw_cosines(phi_summary, phi_text)  # (N, M)
        out["estime_soft"] = np.asarray(raw_cos)[np.arange(n)[None, None, :], P].mean(axis=2)
    return out


def local_order_profile(points: np.ndarray, max_d: int) -> np.ndarray:
    """Eq.4 for every distance ``d = 1..max_d`` at once, for each row of ``points``.

    points : (K, N) points ``b(i)`` (K layers, say) of one summary; positions are ``0..N-1``.
    Returns (K, max_d) with column ``d - 1`` equal to :func:`local_order_tau` (row, d): pairs at
    lag k = j - i are concordant when ``b(j) > b(i)`` (strictly), discordant otherwise; the
    counts are summed over lags 1..d. NaN where no pair exists (N < 2).
    """
    P = np.asarray(points)
    if P.ndim != 2:
        raise InputError(f"points must be 2-d (rows, N); got shape {P.shape}")
    if max_d < 1:
        raise InputError(f"max_d must be >= 1, got {max_d}")
    k, n = P.shape
    conc = np.zeros((k, max_d))
    tot = np.zeros(max_d)
    for lag in range(1, min(max_d, n - 1) + 1):
        conc[:, lag - 1] = (P[:, lag:] > P[:, :-lag]).sum(axis=1)
        tot[lag - 1] = n - lag
    c = np.cumsum(conc, axis=1)
    t = np.cumsum(tot)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(t > 0, (2 * c - t) / np.where(t > 0, t, 1), np.nan)
