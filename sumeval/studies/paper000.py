"""Paper 000 studies on SummEval (Vasilyev & Bohannon): the computations shared by the notebooks
``layer_probing`` (Fig.2-4, 7), ``estime_layers`` (Fig.1, 8, Table 1 rows) and ``coherence_order``
(Fig.5, 6).

One extraction serves all three: every SummEval text and summary is embedded once by the
masked-embedding engine (:func:`sumeval.lm.get_embedder`, every layer from the same forward
passes, cached on disk per text); everything else reads the cached arrays, one document at a
time (a text and its summaries), so memory stays at one document's arrays.

Frames (tidy; documented columns)
---------------------------------
- :func:`load_pairs` -> SummEval pairs: ``doc_id, system, summary, text, <4 qualities>``.
- :func:`extract` -> dict of what the extraction did (counts, token-forwards, seconds).
- :func:`probe_frames` -> ``(profiles, histogram)``: ``profiles`` has ``source ('text' |
  'summary'), kind ('cls' | 'token'), layer, norm, change, cos, n_documents``; ``histogram``
  has ``source ('text' | 'summary' | 'all'), layer, bin_low, bin_high, share`` (each layer's
  shares sum to 1).
- :func:`layer_pair_scores` -> ``(scores, local)``: ``scores`` one row per (pair, summary layer,
  text layer) with ``doc_id, system, summary_layer, text_layer, estime_alarms, estime_soft,
  coherence_order, n_words, n_in_text``; ``local`` one row per (pair, layer, d) with ``doc_id,
  system, layer, d, tau_d`` (Eq.4, the same layer for summary and text).
- :func:`layer_correlations` -> ``measure, human, method, summary_layer, text_layer, value, n``
  (ESTIME alarms are negated first: lower is better, as the paper).
- :func:`local_order_correlations` -> ``human, method, layer, d, value, n``.
- :func:`best_layer` -> the best diagonal layer (summary layer = text layer) of a measure.
- :func:`table1_rows` -> ESTIME / ESTIME-soft rows of Table 1 at chosen layers beside the paper:
  ``metric, human, level, method, ours, ci_low, ci_high, paper, diff, n, layer, model``.

Layers are indices into ``hidden_states`` (0 = the embedding output), as the paper and SPEC §1.
ESTIME-soft's raw embeddings (phi) are the contextual model's own input embedding table unless
``raw_model`` names another model with the same vocabulary (the paper: bert-base-uncased beside
bert-large-uncased-whole-word-masking).
"""
from __future__ import annotations

import hashlib
import time
from typing import Any, Iterator, Sequence

import numpy as np
import pandas as pd

from sumeval.cache import Store, cache_key
from sumeval.errors import InputError

#: ranges of the paper-000 notebooks' numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": ("0..100", "SummEval has 100 documents; 0 means all"),
                    "n_systems": ("0..16", "SummEval has 16 systems; 0 means all"),
                    "text_words": (">=0", "0 keeps whole articles"), "max_d": ">=1",
                    "n_boot": (">=0", "0 for no intervals")}

#: the qualities in the paper's column order
QUALITIES = ("consistency", "relevance", "coherence", "fluency")
#: measure name in the frames -> label in the paper
MEASURE_LABELS = {"estime_alarms": "ESTIME", "estime_soft": "ESTIME-soft", "coherence_order": "Eq.3 order"}
#: sign applied before correlating (ESTIME alarms: lower is better)
SIGNS = {"estime_alarms": -1.0, "estime_soft": 1.0, "coherence_order": 1.0}
PRECISIONS = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16",
              "float32": "float32", "bfloat16": "bfloat16", "float16": "float16"}
_SCHEME = "paper000-studies/v1"


# --------------------------------------------------------------------------------------------
# data and extraction
# --------------------------------------------------------------------------------------------
def load_pairs(n_docs: int = 0, n_systems: int = 0, text_words: int = 0) -> pd.DataFrame:
    """SummEval pairs of the first ``n_docs`` documents (0: all 100) and the first ``n_systems``
    systems in :data:`sumeval.datasets.summeval.SYSTEMS` order (0: all 16).

    ``text_words`` > 0 keeps only the first that many white-space words of each article (smoke
    runs only: the numbers then describe truncated articles).

    Columns ``doc_id, system, summary, text, coherence, consistency, fluency, relevance``.
    """
    from sumeval.datasets.summeval import SYSTEMS, load_summeval

    if n_systems < 0 or n_systems > len(SYSTEMS):
        raise InputError(f"n_systems must be 0 (all) or 1..{len(SYSTEMS)}, got {n_systems}")
    frame = load_summeval(n_docs=n_docs or None)
    if n_systems:
        frame = frame[frame["system"].isin(SYSTEMS[:n_systems])]
    if text_words < 0:
        raise InputError(f"text_words must be >= 0 (0 keeps whole articles), got {text_words}")
    if text_words:
        frame = frame.assign(text=frame["text"].map(lambda t: " ".join(t.split()[:text_words])))
    cols = ["doc_id", "system", "summary", "text", "coherence", "consistency", "fluency", "relevance"]
    return frame[cols].reset_index(drop=True)


def embedder(model: str = "all-mpnet-base-v2", precision: str = "fp32"):
    """The shared engine of the three studies (same options, so the same cache entries)."""
    from sumeval.lm import get_embedder

    if precision not in PRECISIONS:
        raise InputError(f"precision {precision!r} is unknown; use one of fp32, bf16, fp16")
    return get_embedder(model, precision=PRECISIONS[precision])


def _documents(pairs: pd.DataFrame) -> list[tuple[str, str, list[str], list[int]]]:
    """(doc_id, text, summaries, row indices) per document, in order of first appearance."""
    out = []
    for doc_id, g in pairs.groupby("doc_id", sort=False):
        out.append((doc_id, g["text"].iloc[0], list(g["summary"]), list(g.index)))
    return out


def extract(pairs: pd.DataFrame, model: str = "all-mpnet-base-v2", precision: str = "fp32", *,
            docs_per_call: int = 10, progress: bool = False) -> dict[str, Any]:
    """Embed every text and summary of ``pairs`` (every layer, one pass, cached).

    Texts already in the cache are read, not recomputed. Work goes ``docs_per_call`` documents
    at a time so that memory holds only those. Returns ``model`` (identity), ``precision``,
    ``n_texts``, ``n_summaries`` (distinct), ``computed``, ``from_cache``, ``token_forwards``,
    ``padded_token_forwards``, ``passes``, ``seconds`` and ``n_layers``.
    """
    emb = embedder(model, precision)
    docs = _documents(pairs)
    before = dict(emb.stats)
    t0 = time.perf_counter()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(docs), desc="extraction", unit="doc")
    n_cached = 0
    for i in range(0, len(docs), docs_per_call):
        part = docs[i:i + docs_per_call]
        texts = list(dict.fromkeys(t for _, text, sums, _ in part for t in [text, *sums]))
        missing = [t for t in texts if not emb.is_cached(t)]  # cached ones are not even read
        n_cached += len(texts) - len(missing)
        if missing:
            emb.embed_many(missing)
        if bar is not None:
            bar.update(len(part))
    if bar is not None:
        bar.close()
    after = emb.stats
    return {"model": emb.spec.identity(), "model_name": emb.spec.name, "precision": emb.precision,
            "n_texts": len(docs), "n_summaries": int(pairs["summary"].nunique()),
            "computed": after["texts_computed"] - before["texts_computed"],
            "from_cache": n_cached + after["texts_from_cache"] - before["texts_from_cache"],
            "token_forwards": after["tokens"] - before["tokens"],
            "padded_token_forwards": after["padded_tokens"] - before["padded_tokens"],
            "passes": after["passes"] - before["passes"],
            "seconds": round(time.perf_counter() - t0, 2), "n_layers": _n_layers(emb)}


def _n_layers(emb) -> int:
    """Selectable layers (``num_hidden_layers + 1``) from the model's config, without loading it."""
    import json

    cfg = json.loads((emb.spec.path / "config.json").read_text(encoding="utf-8"))
    n = cfg.get("num_hidden_layers", cfg.get("n_layer"))
    return int(n) + 1 if n else emb.n_layers


def _iter_documents(pairs: pd.DataFrame, emb) -> Iterator[tuple[str, Any, list[Any], list[int]]]:
    """(doc_id, text embeddings, summary embeddings, row indices) per document, from the engine."""
    for doc_id, text, sums, rows in _documents(pairs):
        got = emb.embed_many([text, *sums])
        yield doc_id, got[0], got[1:], rows


def _pairs_key(pairs: pd.DataFrame) -> str:
    h = hashlib.sha256()
    for d, s, summ, text in zip(pairs["doc_id"], pairs["system"], pairs["summary"], pairs["text"]):
        h.update(f"{d}\0{s}\0{summ}\0{hashlib.sha256(text.encode()).hexdigest()}\n".encode())
    return h.hexdigest()


# --------------------------------------------------------------------------------------------
# layer probing (Fig.2-4, 7)
# --------------------------------------------------------------------------------------------
def probe_frames(pairs: pd.DataFrame, model: str = "all-mpnet-base-v2", precision: str = "fp32", *,
                 bin_width: float = 0.01, cache: bool = True,
                 progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-layer norms, changes and neighbour cosines (CLS vs ordinary tokens, texts vs summaries),
    and the per-layer histogram of within-document pairwise cosines of masked-token embeddings.

    Texts are the documents of ``pairs``; summaries its distinct summaries, each taken as a
    separate text (as the paper). Returns ``(profiles, histogram)`` (columns in the module doc).
    """
    from sumeval.similarity import probe

    emb = embedder(model, precision)
    store = Store("paper000_studies")
    key = cache_key(kind="probe", scheme=_SCHEME, engine=emb.params(), pairs=_pairs_key(pairs),
                    bin_width=bin_width)
    if cache:
        prof, hist = store.get_frame(key + "-profiles"), store.get_frame(key + "-hist")
        if prof is not None and hist is not None:
            return prof, hist
    docs = _documents(pairs)
    counts: dict[str, np.ndarray] = {}

    def stream(source: str) -> Iterator[Any]:
        seen: set[str] = set()
        it = docs
        if progress:
            from tqdm.auto import tqdm

            it = tqdm(docs, desc=f"probe {source}s", unit="doc")
        for _, text, sums, _ in it:
            items = [text] if source == "text" else [s for s in dict.fromkeys(sums) if s not in seen]
            seen.update(items)
            for e in emb.embed_many(items):
                c = probe.pairwise_cosine_counts(e.emb, bin_width)
                counts[source] = c if source not in counts else counts[source] + c
                yield e

    prof = pd.concat([probe.probe_profiles(stream("text"), source="text"),
                      probe.probe_profiles(stream("summary"), source="summary")], ignore_index=True)
    nb = int(round(2.0 / bin_width))
    edges = np.linspace(-1.0, 1.0, nb + 1)
    rows = []
    if counts:
        counts["all"] = sum(counts.values())
    for source, c in counts.items():
        sums_ = c.sum(axis=1, keepdims=True).astype(float)
        share = np.divide(c, sums_, out=np.full(c.shape, np.nan), where=sums_ > 0)
        for layer in range(c.shape[0]):
            rows.append(pd.DataFrame({"source": source, "layer": layer, "bin_low": edges[:-1],
                                      "bin_high": edges[1:], "share": share[layer]}))
    hist = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(
        columns=["source", "layer", "bin_low", "bin_high", "share"])
    if cache:
        store.put_frame(key + "-profiles", prof)
        store.put_frame(key + "-hist", hist)
    return prof, hist


def histogram_matrix(hist: pd.DataFrame, source: str = "all") -> tuple[np.ndarray, np.ndarray]:
    """``(edges (B+1,), shares (L, B))`` of one source of :func:`probe_frames`' histogram."""
    sub = hist[hist["source"] == source]
    if sub.empty:
        raise InputError(f"histogram has no source {source!r}; it has {sorted(set(hist['source']))}")
    mat = sub.pivot(index="layer", columns="bin_low", values="share").sort_index()
    edges = np.append(mat.columns.to_numpy(float), float(sub["bin_high"].max()))
    return edges, mat.to_numpy(float)


# --------------------------------------------------------------------------------------------
# layer-pair sweep (Fig.1, 5, 6, 8)
# --------------------------------------------------------------------------------------------
def _points_all_pairs(S: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Points of similarity of every (summary layer, text layer) pair for stacked summary words.

    S : (N, L, H) summary words (any number of summaries of one text); T : (M, L, H) text words.
    Returns (L, L, N) int64 (first maximum on ties, as numpy's argmax), one float32 batched
    matrix product per summary layer.
    """
    import torch

    n, L, _ = S.shape
    out = np.zeros((L, T.shape[1], n), dtype=np.int64)
    if n == 0:
        return out
    Tt = torch.from_numpy(np.ascontiguousarray(T.astype(np.float32).transpose(1, 2, 0)))  # (Lt, H, M)
    Sf = torch.from_numpy(np.ascontiguousarray(S.astype(np.float32)))
    with torch.inference_mode():
        for s in range(L):
            dots = torch.matmul(Sf[:, s, :].unsqueeze(0), Tt)  # (Lt, N, M)
            out[s] = dots.argmax(dim=2).numpy()
    return out


def layer_pair_scores(pairs: pd.DataFrame, model: str = "all-mpnet-base-v2", precision: str = "fp32", *,
                      raw_model: str | None = None, max_d: int = 40, cache: bool = True,
                      progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """ESTIME, ESTIME-soft and Eq.3 order for every (summary layer, text layer) pair of every
    pair of ``pairs``, and Eq.4's tau_d for d = 1..``max_d`` at every layer (summary layer = text
    layer). Returns ``(scores, local)`` (columns in the module doc); cached on disk.
    """
    from sumeval.lm import raw_embedding_table
    from sumeval.similarity import measures as M

    emb = embedder(model, precision)
    raw_spec = None
    if raw_model:
        from sumeval.lm import resolve_model

        raw_spec = resolve_model(raw_model)
    store = Store("paper000_studies")
    key = cache_key(kind="layer_pair_scores", scheme=_SCHEME, engine=emb.params(),
                    raw=None if raw_spec is None else raw_spec.identity(), pairs=_pairs_key(pairs),
                    max_d=int(max_d))
    if cache:
        scores, local = store.get_frame(key + "-scores"), store.get_frame(key + "-local")
        if scores is not None and local is not None:
            return scores, local
    table = raw_embedding_table(raw_spec or emb.spec, contextual=emb.spec)
    score_parts, local_parts = [], []
    it = _iter_documents(pairs, emb)
    if progress:
        from tqdm.auto import tqdm

        it = tqdm(it, total=pairs["doc_id"].nunique(), desc="layer pairs", unit="doc")
    for doc_id, et, sums, rows in it:
        if et.n_words == 0:
            raise InputError(f"document {doc_id!r}: the text has no words")
        sizes = [s.n_words for s in sums]
        L = et.n_layers
        S = np.concatenate([s.emb for s in sums], axis=0) if sum(sizes) else np.zeros((0, L, et.emb.shape[2]))
        P_all = _points_all_pairs(S, et.emb)
        phi_t = table[et.first_ids]
        at = 0
        for s_emb, n, row in zip(sums, sizes, rows):
            P = P_all[:, :, at:at + n]
            at += n
            cos = M.raw_cosines(table[s_emb.first_ids], phi_t) if n else None
            r = M.scores_from_points(P, s_emb.first_ids, et.first_ids,
                                     in_text=M.in_text_mask(s_emb.words, et.words), raw_cos=cos)
            if n == 0:
                r["estime_soft"] = np.full((L, L), np.nan)
            n_in = int(M.in_text_mask(s_emb.words, et.words).sum())
            sl, tl = np.meshgrid(np.arange(L), np.arange(L), indexing="ij")
            score_parts.append(pd.DataFrame({
                "doc_id": doc_id, "system": pairs.at[row, "system"], "summary_layer": sl.ravel(),
                "text_layer": tl.ravel(), "estime_alarms": r["alarms"].ravel(),
                "estime_soft": r["estime_soft"].ravel(), "coherence_order": r["coherence"].ravel(),
                "n_words": n, "n_in_text": n_in}))
            diag = P[np.arange(L), np.arange(L)] if n else np.zeros((L, 0), dtype=np.int64)
            prof = M.local_order_profile(diag, max_d)  # (L, max_d)
            lay, dd = np.meshgrid(np.arange(L), np.arange(1, max_d + 1), indexing="ij")
            local_parts.append(pd.DataFrame({"doc_id": doc_id, "system": pairs.at[row, "system"],
                                             "layer": lay.ravel(), "d": dd.ravel(),
                                             "tau_d": prof.ravel()}))
    scores = pd.concat(score_parts, ignore_index=True)
    local = pd.concat(local_parts, ignore_index=True)
    for col in ("summary_layer", "text_layer", "n_words", "n_in_text"):
        scores[col] = scores[col].astype(np.int16 if "layer" in col else np.int32)
    local["layer"] = local["layer"].astype(np.int16)
    local["d"] = local["d"].astype(np.int16)
    if cache:
        store.put_frame(key + "-scores", scores)
        store.put_frame(key + "-local", local)
    return scores, local


def _frame_hash(*frames: pd.DataFrame) -> str:
    """Content hash of frames (values and column names), for caching what is computed from them."""
    h = hashlib.sha256()
    for f in frames:
        h.update(repr(list(f.columns)).encode())
        h.update(pd.util.hash_pandas_object(f, index=False).to_numpy().tobytes())
    return h.hexdigest()


def _cached_frame(kind: str, compute, *frames: pd.DataFrame, **parts: Any) -> pd.DataFrame:
    store = Store("paper000_studies")
    key = cache_key(kind=kind, scheme=_SCHEME, frames=_frame_hash(*frames), **parts)
    got = store.get_frame(key)
    if got is None:
        got = compute()
        store.put_frame(key, got)
    return got


def _wide(values: pd.DataFrame, index_cols: Sequence[str], pairs: pd.DataFrame,
          humans: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Join the human columns of ``pairs`` to a wide frame of metric columns."""
    h = pairs[["doc_id", "system", *humans]]
    wide = values.merge(h, on=["doc_id", "system"], how="right", validate="one_to_one")
    metrics = [c for c in values.columns if c not in index_cols]
    return wide, metrics


def layer_correlations(scores: pd.DataFrame, pairs: pd.DataFrame, *,
                       measures: Sequence[str] = ("estime_alarms", "estime_soft"),
                       humans: Sequence[str] = QUALITIES,
                       methods: Sequence[str] = ("kendall_c", "spearman")) -> pd.DataFrame:
    """Pooled summary-level correlation of each measure with each quality, for every layer pair.

    Returns ``measure, human, method, summary_layer, text_layer, value, n`` (ESTIME alarms
    negated first). No intervals (hundreds of cells); :func:`table1_rows` gives intervals.
    """
    hum = pairs[["doc_id", "system", *humans]]
    return _cached_frame("layer_correlations", lambda: _layer_correlations(scores, pairs, measures, humans, methods),
                         scores, hum, measures=list(measures), humans=list(humans), methods=list(methods))


def _layer_correlations(scores, pairs, measures, humans, methods) -> pd.DataFrame:
    from sumeval import stats

    frames = []
    for measure in measures:
        piv = scores.pivot_table(index=["doc_id", "system"], columns=["summary_layer", "text_layer"],
                                 values=measure, dropna=False) * SIGNS[measure]
        piv.columns = [f"{s}|{t}" for s, t in piv.columns]
        wide, metrics = _wide(piv.reset_index(), ["doc_id", "system"], pairs, humans)
        c = stats.correlate(wide, metrics, list(humans), level="summary", methods=list(methods), n_boot=0)
        st = c["metric"].str.split("|", expand=True).astype(int)
        frames.append(pd.DataFrame({"measure": measure, "human": c["human"], "method": c["method"],
                                    "summary_layer": st[0], "text_layer": st[1], "value": c["value"],
                                    "n": c["n"]}))
    return pd.concat(frames, ignore_index=True)


def local_order_correlations(local: pd.DataFrame, pairs: pd.DataFrame, *,
                             humans: Sequence[str] = ("coherence", "consistency"),
                             methods: Sequence[str] = ("kendall_c",)) -> pd.DataFrame:
    """Correlation of Eq.4's tau_d with each quality over (layer, d): ``human, method, layer, d,
    value, n``."""
    hum = pairs[["doc_id", "system", *humans]]
    return _cached_frame("local_order_correlations",
                         lambda: _local_order_correlations(local, pairs, humans, methods),
                         local, hum, humans=list(humans), methods=list(methods))


def _local_order_correlations(local, pairs, humans, methods) -> pd.DataFrame:
    from sumeval import stats

    piv = local.pivot_table(index=["doc_id", "system"], columns=["layer", "d"], values="tau_d",
                            dropna=False)
    piv.columns = [f"{k}|{d}" for k, d in piv.columns]
    wide, metrics = _wide(piv.reset_index(), ["doc_id", "system"], pairs, humans)
    c = stats.correlate(wide, metrics, list(humans), level="summary", methods=list(methods), n_boot=0)
    kd = c["metric"].str.split("|", expand=True).astype(int)
    return pd.DataFrame({"human": c["human"], "method": c["method"], "layer": kd[0], "d": kd[1],
                         "value": c["value"], "n": c["n"]})


def best_layer(corr: pd.DataFrame, measure: str = "estime_soft", human: str = "consistency",
               method: str = "spearman", *, diagonal: bool = True,
               fallback: int | None = None) -> dict[str, Any]:
    """The layer pair with the highest correlation of ``measure`` with ``human``.

    corr : :func:`layer_correlations`' frame. ``diagonal``: only pairs with summary layer = text
    layer (the paper's Table 1 used one layer for both). Ties go to the lower layer pair.
    Returns ``{"summary_layer", "text_layer", "value", "chosen"}``. Chosen on the same data it is
    reported on: an optimistic choice, say so beside the number. When no correlation is defined
    (a constant quality in a tiny subset) ``fallback`` is returned with value NaN and
    ``chosen=False``; without a fallback that is an error.
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


def default_layer(n_layers: int, model: str) -> int:
    """The scorers' default layer for a model with ``n_layers`` selectable layers (incl. layer 0)."""
    from sumeval.lm import resolve_model
    from sumeval.similarity.scorers import default_layer as _default

    return _default(n_layers - 1, resolve_model(model).name)


def table1_rows(scores: pd.DataFrame, pairs: pd.DataFrame, layers: dict[str, int], *,
                model: str, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """ESTIME / ESTIME-soft rows of paper 000 Table 1 at the given (diagonal) layers.

    layers : ``{"estime_alarms": k, "estime_soft": k2}``. Returns the comparison frame of
    :func:`sumeval.studies.metric_correlations.compare` plus ``layer`` and ``model`` (the paper
    used bert-large-uncased-whole-word-masking at layer 21).
    """
    from sumeval import published, stats
    from sumeval.studies.metric_correlations import compare

    frames = []
    for measure, k in layers.items():
        label = MEASURE_LABELS[measure]
        sub = scores[(scores["summary_layer"] == k) & (scores["text_layer"] == k)]
        vals = sub[["doc_id", "system", measure]].rename(columns={measure: label})
        vals[label] = vals[label] * SIGNS[measure]
        wide, _ = _wide(vals, ["doc_id", "system"], pairs, QUALITIES)
        ours = stats.correlate(wide, [label], list(QUALITIES), level="summary",
                               methods=("spearman", "kendall_c"), n_boot=n_boot, seed=seed)
        cmp = compare(ours, published.paper000_table1())
        cmp["layer"] = k
        frames.append(cmp)
    out = pd.concat(frames, ignore_index=True)
    out["model"] = model
    return out


def table1_beside_rouge(estime_rows: pd.DataFrame, rouge_rows: pd.DataFrame) -> pd.DataFrame:
    """ESTIME rows (:func:`table1_rows`) above the ROUGE / BLEU rows of
    :func:`sumeval.studies.metric_correlations.table1` (``layer`` and ``model`` empty there)."""
    rouge = rouge_rows.copy()
    rouge["layer"] = np.nan
    rouge["model"] = ""
    return pd.concat([estime_rows, rouge[estime_rows.columns]], ignore_index=True)
