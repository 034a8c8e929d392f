"""The layer-pair sweep of paper 000, shared by the studies ``estime_layers`` (Fig.1, 8,
Table 1) and ``coherence_order`` (Fig.5, 6): ESTIME (Eq.1), ESTIME-soft (Eq.2) and the
similarity order (Eq.3) for every (summary layer, text layer) pair, the local order tau_d (Eq.4)
for every layer and distance, their correlations with the human columns (SummEval's expert
qualities by default, or any judgments data set's, see
:func:`sumeval.studies.common.embedding_extraction.load_study_pairs`), the best layer and the Table 1
rows.

Frames (tidy; documented columns)
---------------------------------
- :func:`layer_pair_scores` -> ``(scores, local)``: ``scores`` one row per (pair, summary layer,
  text layer) with ``doc_id, system, summary_layer, text_layer, estime_alarms, estime_soft,
  similarity_order, n_words, n_in_text``; ``local`` one row per (pair, layer, d) with ``doc_id,
  system, layer, d, tau_d`` (Eq.4, the same layer for summary and text).
- :func:`layer_correlations` -> ``measure, human, method, summary_layer, text_layer, value, n``
  (ESTIME alarms are negated first: lower is better, as the paper).
- :func:`local_order_correlations` -> ``human, method, layer, d, value, n``.
- :func:`best_layer` -> the best diagonal layer (summary layer = text layer) of a measure.
- :func:`table1_rows` -> ESTIME / ESTIME-soft rows of Table 1 at chosen layers beside the paper:
  ``metric, human, level, method, ours, ci_low, ci_high, paper, diff, n, layer, model``.

ESTIME-soft's raw embeddings (phi) are the contextual model's own input embedding table unless
``raw_model`` names another model with the same vocabulary (the paper: bert-base-uncased beside
bert-large-uncased-whole-word-masking). Correlations are pooled at the summary level (paper 000
Sec.3).
"""
from __future__ import annotations

import contextlib
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.cache import Store, cache_key
from sumeval.errors import InputError
from sumeval.lm.resolution import DEFAULT_MODEL
from sumeval.published import PAPER000_QUALITIES
from sumeval.studies.common.embedding_extraction import SCHEME, STORE, cached_frame, documents, embedder, pairs_key

__all__ = ["MEASURES", "MEASURE_LABELS", "SIGNS", "layer_pair_scores", "layer_correlations",
           "local_order_correlations", "best_layer", "table1_rows", "table1_beside_rouge"]

#: the measures of the sweep, in the frames' column order
MEASURES = ("estime_alarms", "estime_soft", "similarity_order")
#: measure name in the frames -> label in figures and tables (the paper's names)
MEASURE_LABELS = {"estime_alarms": "ESTIME", "estime_soft": "ESTIME-soft",
                  "similarity_order": "similarity order (Eq.3)"}
#: sign applied before correlating (ESTIME alarms: lower is better)
SIGNS = {"estime_alarms": -1.0, "estime_soft": 1.0, "similarity_order": 1.0}


def layer_pair_scores(pairs: pd.DataFrame, model: str = DEFAULT_MODEL, precision: str = "auto", *,
                      raw_model: str | None = None, max_d: int = 40, cache: bool = True,
                      progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """ESTIME, ESTIME-soft and the similarity order for every (summary layer, text layer) pair of
    every pair of ``pairs``, and Eq.4's tau_d for d = 1..``max_d`` at every layer (summary layer
    = text layer).

    Points of similarity come from :func:`sumeval.similarity.measures.layer_pair_points` (torch
    backend), the measures from :func:`~sumeval.similarity.measures.scores_from_points` and
    :func:`~sumeval.similarity.order.local_order_profile`.

    Args:
        pairs: :func:`~sumeval.studies.common.embedding_extraction.load_pairs`' frame.
        model, precision: the engine (:func:`~sumeval.studies.common.embedding_extraction.embedder`).
        raw_model: the model whose input embeddings are ESTIME-soft's phi (default: ``model``).
        max_d: the largest distance of Eq.4.
        cache: read and write the frames in the cache.
        progress: show a progress bar.

    Returns:
        ``(scores, local)`` (columns in the module doc); cached on disk.

    Raises:
        InputError: a document whose text has no words.
    """
    from sumeval.lm import raw_embedding_table, resolve_model

    emb = embedder(model, precision)
    raw_spec = resolve_model(raw_model) if raw_model else None
    store = Store(STORE)
    key = cache_key(kind="layer_pair_scores", scheme=SCHEME, engine=emb.params(),
                    raw=None if raw_spec is None else raw_spec.identity(), pairs=pairs_key(pairs),
                    max_d=int(max_d))
    if cache and (whole := _whole(store, key)) is not None:
        return whole
    table = raw_embedding_table(raw_spec or emb.spec, contextual=emb.spec)
    docs = documents(pairs)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(docs), desc="layer pairs", unit="doc")

    def compute(part: list) -> tuple[pd.DataFrame, pd.DataFrame]:
        s_parts, l_parts = [], []
        for doc_id, text, sums, rows in part:
            got = emb.embed_many([text, *sums])
            _document_frames(doc_id, got[0], got[1:], rows, pairs, table, max_d, s_parts, l_parts)
            if bar is not None:
                bar.update(1)
        return pd.concat(s_parts, ignore_index=True), pd.concat(l_parts, ignore_index=True)

    # documents in parts of PART_DOCS; two processes asking at once (`run all --jobs 2`: estime_layers
    # and coherence_order) share the parts through claims, as the extraction shares its chunks
    chunks = [docs[i:i + PART_DOCS] for i in range(0, len(docs), PART_DOCS)]
    done = _shared_parts(store if cache else None, key, chunks, compute)
    if isinstance(done, tuple):  # the other process finished the whole sweep meanwhile
        if bar is not None:
            bar.close()
        return done
    if bar is not None:
        bar.close()
    score_parts = [sc for sc, _ in done]
    local_parts = [lo for _, lo in done]
    scores = pd.concat(score_parts, ignore_index=True)
    local = pd.concat(local_parts, ignore_index=True)
    for col in ("summary_layer", "text_layer", "n_words", "n_in_text"):
        scores[col] = scores[col].astype(np.int16 if "layer" in col else np.int32)
    local["layer"] = local["layer"].astype(np.int16)
    local["d"] = local["d"].astype(np.int16)
    if cache:
        store.put_frame(key + "-scores", scores)
        store.put_frame(key + "-local", local)
        for i in range(len(chunks)):  # the parts are in the whole frames now
            for what in ("scores", "local"):
                with contextlib.suppress(OSError):
                    store.path(_part_key(key, i, len(chunks), what), "parquet").unlink()
    return scores, local


#: documents per part of :func:`layer_pair_scores` (the unit two processes share)
PART_DOCS = 10


def _part_key(key: str, i: int, n: int, what: str) -> str:
    return f"{key}-part{i}of{n}-{what}"


def _whole(store, key: str):
    """The finished sweep ``(scores, local)`` in the cache, else None."""
    scores, local = store.get_frame(key + "-scores"), store.get_frame(key + "-local")
    return (scores, local) if scores is not None and local is not None else None


def _shared_parts(store, key: str, chunks: list, compute):
    """Every part of ``chunks`` as ``compute(part) -> (scores, local)``, in order.

    Without a store each part is computed here. With one, each part is claimed
    (:func:`sumeval.runstate.claim`): a part another process holds is left to it, then read from
    the cache once its claim is free (computed here if that process died without it). Returns the
    whole sweep ``(scores, local)`` instead when another process finished it meanwhile.
    """
    from sumeval.runstate import claim

    if store is None:
        return [compute(c) for c in chunks]
    n = len(chunks)
    out: list = [None] * n
    deferred = []

    def read(i: int):
        sc = store.get_frame(_part_key(key, i, n, "scores"))
        lo = store.get_frame(_part_key(key, i, n, "local"))
        return (sc, lo) if sc is not None and lo is not None else None

    def make(i: int):
        got = read(i)
        if got is None:
            got = compute(chunks[i])
            store.put_frame(_part_key(key, i, n, "scores"), got[0])
            store.put_frame(_part_key(key, i, n, "local"), got[1])
        return got

    for i in range(n):
        with claim(store.folder / "claims" / f"{_part_key(key, i, n, 'part')}.lock") as mine:
            if mine:
                out[i] = make(i)
            else:
                deferred.append(i)
    for i in deferred:
        with claim(store.folder / "claims" / f"{_part_key(key, i, n, 'part')}.lock", wait=True):
            whole = _whole(store, key)
            if whole is not None:
                return whole
            out[i] = make(i)
    return out


def _document_frames(doc_id, et, sums, rows, pairs, table, max_d, score_parts, local_parts) -> None:
    """Append one document's rows of the sweep to ``score_parts`` and ``local_parts``."""
    from sumeval.similarity import measures as M

    if et.n_words == 0:
        raise InputError(f"document {doc_id!r}: the text has no words")
    sizes = [s.n_words for s in sums]
    L = et.n_layers
    S = np.concatenate([s.emb for s in sums], axis=0) if sum(sizes) else np.zeros((0, L, et.emb.shape[2]))
    P_all = M.layer_pair_points(S, et.emb, backend="torch")
    phi_t = table[et.first_ids]
    at = 0
    for s_emb, n, row in zip(sums, sizes, rows):
        P = P_all[:, :, at:at + n]
        at += n
        in_text = M.in_text_mask(s_emb.words, et.words)
        cos = M.raw_cosines(table[s_emb.first_ids], phi_t) if n else None
        r = M.scores_from_points(P, s_emb.first_ids, et.first_ids, in_text=in_text, raw_cos=cos)
        if n == 0:
            r["estime_soft"] = np.full((L, L), np.nan)
        sl, tl = np.meshgrid(np.arange(L), np.arange(L), indexing="ij")
        score_parts.append(pd.DataFrame({
            "doc_id": doc_id, "system": pairs.at[row, "system"], "summary_layer": sl.ravel(),
            "text_layer": tl.ravel(), "estime_alarms": r["alarms"].ravel(),
            "estime_soft": r["estime_soft"].ravel(), "similarity_order": r["similarity_order"].ravel(),
            "n_words": n, "n_in_text": int(in_text.sum())}))
        diag = P[np.arange(L), np.arange(L)] if n else np.zeros((L, 0), dtype=np.int64)
        prof = M.local_order_profile(diag, max_d)  # (L, max_d)
        lay, dd = np.meshgrid(np.arange(L), np.arange(1, max_d + 1), indexing="ij")
        local_parts.append(pd.DataFrame({"doc_id": doc_id, "system": pairs.at[row, "system"],
                                         "layer": lay.ravel(), "d": dd.ravel(),
                                         "tau_d": prof.ravel()}))


def _wide(values: pd.DataFrame, index_cols: Sequence[str], pairs: pd.DataFrame,
          humans: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Join the human columns of ``pairs`` to a wide frame of metric columns."""
    h = pairs[["doc_id", "system", *humans]]
    wide = values.merge(h, on=["doc_id", "system"], how="right", validate="one_to_one")
    metrics = [c for c in values.columns if c not in index_cols]
    return wide, metrics


def _check_measures(measures: Sequence[str]) -> list[str]:
    bad = [m for m in measures if m not in MEASURES]
    if bad:
        raise InputError(f"unknown measure(s) {bad}; the layer-pair sweep has {', '.join(MEASURES)}")
    return list(measures)


def layer_correlations(scores: pd.DataFrame, pairs: pd.DataFrame, *,
                       measures: Sequence[str] = ("estime_alarms", "estime_soft"),
                       humans: Sequence[str] = PAPER000_QUALITIES,
                       methods: Sequence[str] = ("kendall_c", "spearman")) -> pd.DataFrame:
    """Pooled summary-level correlation of each measure with each quality, for every layer pair
    (paper 000 Fig.1, 5, 8).

    Args:
        scores: :func:`layer_pair_scores`' first frame.
        pairs: the pairs with the human columns.
        measures: of :data:`MEASURES`.
        humans: quality columns of ``pairs``.
        methods: correlation methods of :func:`sumeval.stats.correlate`.

    Returns:
        ``measure, human, method, summary_layer, text_layer, value, n`` (ESTIME alarms negated
        first). No intervals (hundreds of cells); :func:`table1_rows` gives intervals.
    """
    measures = _check_measures(measures)
    hum = pairs[["doc_id", "system", *humans]]
    return cached_frame("layer_correlations", lambda: _layer_correlations(scores, pairs, measures, humans, methods),
                        scores, hum, measures=list(measures), humans=list(humans), methods=list(methods))


def _layer_correlations(scores, pairs, measures, humans, methods) -> pd.DataFrame:
    from sumeval import stats

    frames = []
    for measure in measures:
        piv = scores.pivot_table(index=["doc_id", "system"], columns=["summary_layer", "text_layer"],
                                 values=measure, dropna=False) * SIGNS[measure]
        piv.columns = [f"{s}|{t}" for s, t in piv.columns]
        wide, metrics = _wide(piv.reset_index(), ["doc_id", "system"], pairs, humans)
        c = stats.correlate(wide, metrics, list(humans), level="global", methods=list(methods), n_resamples=0)
        st = c["metric"].str.split("|", expand=True).astype(int)
        frames.append(pd.DataFrame({"measure": measure, "human": c["human"], "method": c["method"],
                                    "summary_layer": st[0], "text_layer": st[1], "value": c["value"],
                                    "n": c["n"]}))
    return pd.concat(frames, ignore_index=True)


def local_order_correlations(local: pd.DataFrame, pairs: pd.DataFrame, *,
                             humans: Sequence[str] = ("coherence", "consistency"),
                             methods: Sequence[str] = ("kendall_c",)) -> pd.DataFrame:
    """Correlation of Eq.4's tau_d with each quality over (layer, d) (paper 000 Fig.6).

    Args:
        local: :func:`layer_pair_scores`' second frame.
        pairs: the pairs with the human columns.
        humans, methods: as :func:`layer_correlations`.

    Returns:
        ``human, method, layer, d, value, n``.
    """
    hum = pairs[["doc_id", "system", *humans]]
    return cached_frame("local_order_correlations",
                        lambda: _local_order_correlations(local, pairs, humans, methods),
                        local, hum, humans=list(humans), methods=list(methods))


def _local_order_correlations(local, pairs, humans, methods) -> pd.DataFrame:
    from sumeval import stats

    piv = local.pivot_table(index=["doc_id", "system"], columns=["layer", "d"], values="tau_d",
                            dropna=False)
    piv.columns = [f"{k}|{d}" for k, d in piv.columns]
    wide, metrics = _wide(piv.reset_index(), ["doc_id", "system"], pairs, humans)
    c = stats.correlate(wide, metrics, list(humans), level="global", methods=list(methods), n_resamples=0)
    kd = c["metric"].str.split("|", expand=True).astype(int)
    return pd.DataFrame({"human": c["human"], "method": c["method"], "layer": kd[0], "d": kd[1],
                         "value": c["value"], "n": c["n"]})


def best_layer(corr: pd.DataFrame, measure: str = "estime_soft", human: str = "consistency",
               method: str = "spearman", *, diagonal: bool = True,
               fallback: int | None = None) -> dict[str, Any]:
    """The layer pair with the highest correlation of ``measure`` with ``human``.

    Chosen on the same data it is reported on: an optimistic choice, say so beside the number.
    Ties go to the lower layer pair.

    Args:
        corr: :func:`layer_correlations`' frame.
        measure, human, method: the cell to maximise.
        diagonal: only pairs with summary layer = text layer (the paper's Table 1 used one layer
            for both).
        fallback: the layer returned, with value NaN and ``chosen=False``, when no correlation
            is defined (a constant quality in a tiny subset); e.g.
            :func:`sumeval.similarity.scorers.default_estime_layer`.

    Returns:
        ``{"summary_layer", "text_layer", "value", "chosen"}``.

    Raises:
        InputError: no defined correlation and no fallback.
    """
    sub = corr[(corr["measure"] == measure) & (corr["human"] == human) & (corr["method"] == method)]
    if diagonal:
        sub = sub[sub["summary_layer"] == sub["text_layer"]]
    sub = sub.dropna(subset=["value"])
    if sub.empty and fallback is not None:
        return {"summary_layer": int(fallback), "text_layer": int(fallback), "value": float("nan"),
                "chosen": False}
    if sub.empty:
        raise InputError(f"no defined correlation of {measure!r} with {human!r} ({method}) to choose from")
    sub = sub.sort_values(["value", "summary_layer", "text_layer"], ascending=[False, True, True],
                          kind="mergesort")
    top = sub.iloc[0]
    return {"summary_layer": int(top["summary_layer"]), "text_layer": int(top["text_layer"]),
            "value": float(top["value"]), "chosen": True}


def table1_rows(scores: pd.DataFrame, pairs: pd.DataFrame, layers: dict[str, int], *,
                model: str, n_resamples: int = 1000, seed: int = 0, humans: Sequence[str] = PAPER000_QUALITIES,
                paper: bool = True) -> pd.DataFrame:
    """ESTIME / ESTIME-soft rows of paper 000 Table 1 at the given (diagonal) layers.

    Args:
        scores: :func:`layer_pair_scores`' first frame.
        pairs: the pairs with the human columns.
        layers: ``{"estime_alarms": k, "estime_soft": k2}``.
        model: the model's name, written in the ``model`` column (the paper used
            bert-large-uncased-whole-word-masking at layer 21).
        n_resamples, seed: document-bootstrap intervals (:func:`sumeval.stats.correlate`).
        humans: the human columns (SummEval: the four qualities).
        paper: put the paper's numbers beside ours (only on SummEval, the paper's data).

    Returns:
        The comparison frame of :func:`sumeval.studies.common.baseline_rows.compare` (without
        ``paper`` and ``diff`` when ``paper`` is False) plus ``layer`` and ``model``.
    """
    from sumeval import published, stats
    from sumeval.studies.common.baseline_rows import TABLE1_LEVEL, compare

    frames = []
    for measure, k in layers.items():
        label = MEASURE_LABELS[measure]
        sub = scores[(scores["summary_layer"] == k) & (scores["text_layer"] == k)]
        vals = sub[["doc_id", "system", measure]].rename(columns={measure: label})
        vals[label] = vals[label] * SIGNS[measure]
        wide, _ = _wide(vals, ["doc_id", "system"], pairs, humans)
        ours = stats.correlate(wide, [label], list(humans), level="global",
                               methods=("spearman", "kendall_c"), n_resamples=n_resamples, seed=seed)
        ours["level"] = TABLE1_LEVEL  # the paper's words
        cmp = compare(ours, published.paper000_table1() if paper else None)
        cmp["layer"] = k
        frames.append(cmp)
    out = pd.concat(frames, ignore_index=True)
    out["model"] = model
    return out


def table1_beside_rouge(estime_rows: pd.DataFrame, rouge_rows: pd.DataFrame) -> pd.DataFrame:
    """ESTIME rows (:func:`table1_rows`) above the ROUGE / BLEU rows of
    :func:`sumeval.studies.common.baseline_tables.table1` (``layer`` and ``model`` empty there)."""
    rouge = rouge_rows.copy()
    rouge["layer"] = np.nan
    rouge["model"] = ""
    return pd.concat([estime_rows, rouge[estime_rows.columns]], ignore_index=True)
