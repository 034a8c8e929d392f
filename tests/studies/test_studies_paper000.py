"""The paper-000 study functions (embedding_extraction, layer_pairs, layer_probing: the studies
layer_probing, estime_layers, coherence_order) on tiny inputs, best-layer selection on a
hand-made frame, and the figures."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.published import PAPER000_QUALITIES
from sumeval.similarity import measures as M
from sumeval.studies import layer_probing as LP
from sumeval.studies.common import embedding_extraction as X
from sumeval.studies.common import layer_pairs as P

MODEL = "all-MiniLM-L6-v2"


# ---------------------------------------------------------------------------------- pure parts
def _corr_frame():
    rows = []
    # value = s + t/10 on the diagonal grid, with a planted off-diagonal maximum
    for s in range(4):
        for t in range(4):
            v = 0.1 * s if s == t else 0.0
            if (s, t) == (1, 3):
                v = 0.9
            rows.append(("estime_soft", "consistency", "spearman", s, t, v, 10))
    rows.append(("estime_soft", "consistency", "kendall_c", 0, 0, 5.0, 10))  # other method: ignored
    rows.append(("estime_alarms", "consistency", "spearman", 2, 2, 7.0, 10))  # other measure: ignored
    return pd.DataFrame(rows, columns=["measure", "human", "method", "summary_layer", "text_layer",
                                       "value", "n"])


def test_best_layer_on_hand_made_frame():
    corr = _corr_frame()
    # the diagonal values are 0, .1, .2, .3: layer 3 wins
    assert P.best_layer(corr, "estime_soft", "consistency", "spearman") == \
        {"summary_layer": 3, "text_layer": 3, "value": pytest.approx(0.3), "chosen": True}
    anyp = P.best_layer(corr, "estime_soft", "consistency", "spearman", diagonal=False)
    assert (anyp["summary_layer"], anyp["text_layer"]) == (1, 3)
    # ties go to the lower layer; NaN is never chosen
    tie = corr.copy()
    tie.loc[(tie["summary_layer"] == tie["text_layer"]) & (tie["method"] == "spearman"), "value"] = 0.5
    tie.loc[(tie["summary_layer"] == 0) & (tie["text_layer"] == 0) & (tie["method"] == "spearman"), "value"] = np.nan
    assert P.best_layer(tie, "estime_soft", "consistency", "spearman")["summary_layer"] == 1
    nan = corr.assign(value=np.nan)
    with pytest.raises(InputError, match="no defined correlation"):
        P.best_layer(nan, "estime_soft", "consistency", "spearman")
    fb = P.best_layer(nan, "estime_soft", "consistency", "spearman", fallback=2)
    assert fb["summary_layer"] == 2 and fb["chosen"] is False and math.isnan(fb["value"])


def test_unknown_measure_is_named():
    with pytest.raises(InputError, match="'coherence_order'.*similarity_order"):
        P.layer_correlations(pd.DataFrame(), pd.DataFrame(columns=["doc_id", "system"]),
                             measures=["coherence_order"], humans=[])


def test_the_studies_fallback_layer_is_the_scorers_default():
    from sumeval.similarity.scorers import default_estime_layer
    from sumeval.studies import coherence_order, estime_layers

    # one function, handed to the two notebooks by their study modules: they pass num_hidden_layers
    # (selectable layers - 1) and the model name
    assert estime_layers.default_estime_layer is default_estime_layer
    assert coherence_order.default_estime_layer is default_estime_layer
    # MiniLM: floor(0.875 * 6) = 5; all-mpnet-base-v2: its measured default, 9
    assert default_estime_layer(7 - 1, MODEL) == 5 and default_estime_layer(13 - 1, "all-mpnet-base-v2") == 9


def test_pairs_key_follows_content():
    pairs = pd.DataFrame({"doc_id": ["d1", "d1"], "system": ["a", "b"], "summary": ["x", "y"],
                          "text": ["T", "T"]})
    k = X.pairs_key(pairs)
    assert k == X.pairs_key(pairs.copy()) and len(k) == 64
    assert X.pairs_key(pairs.assign(text=["T", "U"])) != k
    assert X.pairs_key(pairs.assign(summary=["x", "z"])) != k


def test_load_pairs_subsets_and_bad_input():
    pairs = X.load_pairs(2, 3, text_words=10)
    assert len(pairs) == 6 and pairs["doc_id"].nunique() == 2
    assert all(len(t.split()) == 10 for t in pairs["text"])
    with pytest.raises(InputError, match="n_systems"):
        X.load_pairs(1, 17)
    with pytest.raises(InputError, match="text_words"):
        X.load_pairs(1, 0, -1)
    with pytest.raises(InputError, match="precision 'fp8'"):
        X.embedder(MODEL, "fp8")


# ---------------------------------------------------------------------------------- with MiniLM
@pytest.fixture(scope="module")
def tiny():
    pairs = X.load_pairs(2, 3, text_words=60)
    info = X.extract(pairs, MODEL)
    return pairs, info


@pytest.mark.slow
def test_extract_and_probe_frames(tiny):
    from sumeval.similarity import probe

    pairs, info = tiny
    assert info["n_texts"] == 2 and info["n_layers"] == 7 and info["model_name"] == MODEL
    assert info["n_summaries"] == pairs["summary"].nunique()
    again = X.extract(pairs, MODEL)
    assert again["computed"] == 0  # everything from the engine's memory or disk cache
    prof, hist = LP.probe_frames(pairs, MODEL, cache=False)
    assert list(prof.columns) == ["source", "kind", "layer", "norm", "change", "cos", "n_documents"]
    assert set(prof["source"]) == {"text", "summary"} and set(prof["kind"]) == {"cls", "token"}
    assert len(prof) == 2 * 2 * 7
    last = prof[prof["layer"] == 6]
    assert last["change"].isna().all() and last["cos"].isna().all()  # no next layer
    # values: the text-token norm at layer 3 is the mean over the 2 texts of the mean token norm,
    # and the change at layer 2 the mean over texts of mean_i |e_i^3 - e_i^2|, from the arrays
    emb = X.embedder(MODEL)
    texts = [e.emb.astype(np.float64) for e in emb.embed_many(list(dict.fromkeys(pairs["text"])))]
    tok = prof[(prof["source"] == "text") & (prof["kind"] == "token")].set_index("layer")
    assert tok.loc[3, "norm"] == pytest.approx(np.mean([np.linalg.norm(E[:, 3], axis=1).mean() for E in texts]))
    assert tok.loc[2, "change"] == pytest.approx(
        np.mean([np.linalg.norm(E[:, 3] - E[:, 2], axis=1).mean() for E in texts]))
    assert (tok["n_documents"] == 2).all()
    assert list(hist.columns) == ["source", "layer", "bin_low", "bin_high", "share"]
    edges, shares = LP.histogram_matrix(hist, "all")
    assert shares.shape == (7, 200) and edges.shape == (201,)
    assert np.allclose(shares.sum(axis=1), 1.0)
    # the text histogram is the pooled pairwise-cosine counts of the two texts, normalised per layer
    counts = sum(probe.pairwise_cosine_counts(E) for E in texts)
    _, text_shares = LP.histogram_matrix(hist, "text")
    assert np.allclose(text_shares, counts / counts.sum(axis=1, keepdims=True))


@pytest.mark.slow
def test_layer_pair_scores_match_the_single_pair_measures(tiny):
    from sumeval.lm import raw_embedding_table

    pairs, _ = tiny
    scores, local = P.layer_pair_scores(pairs, MODEL, max_d=5, cache=False)
    assert list(scores.columns) == ["doc_id", "system", "summary_layer", "text_layer", "estime_alarms",
                                    "estime_soft", "similarity_order", "n_words", "n_in_text"]
    assert len(scores) == len(pairs) * 7 * 7
    assert list(local.columns) == ["doc_id", "system", "layer", "d", "tau_d"]
    assert len(local) == len(pairs) * 7 * 5
    # one pair, one layer pair, by the single-pair functions
    emb = X.embedder(MODEL)
    row = pairs.iloc[4]
    et, es = emb.embed_many([row["text"], row["summary"]])
    table = raw_embedding_table(emb.spec)
    k_s, k_t = 5, 3
    pts = M.points_of_similarity(es.layer(k_s), et.layer(k_t))
    got = scores[(scores["doc_id"] == row["doc_id"]) & (scores["system"] == row["system"])
                 & (scores["summary_layer"] == k_s) & (scores["text_layer"] == k_t)].iloc[0]
    alarms = M.estime_alarms(es.first_ids, et.first_ids, pts, M.in_text_mask(es.words, et.words))["alarms"]
    assert got["estime_alarms"] == alarms
    assert got["estime_soft"] == pytest.approx(M.estime_soft(table[es.first_ids], table[et.first_ids], pts))
    c = M.similarity_order(pts)
    assert (math.isnan(c) and math.isnan(got["similarity_order"])) or got["similarity_order"] == pytest.approx(c)
    pts4 = M.points_of_similarity(es.layer(4), et.layer(4))
    loc = local[(local["doc_id"] == row["doc_id"]) & (local["system"] == row["system"])
                & (local["layer"] == 4) & (local["d"] == 3)]["tau_d"].iloc[0]
    assert loc == pytest.approx(M.local_order_tau(pts4, 3))

    corr = P.layer_correlations(scores, pairs)
    assert list(corr.columns) == ["measure", "human", "method", "summary_layer", "text_layer", "value", "n"]
    assert len(corr) == 2 * 4 * 2 * 49 and (corr["n"] <= len(pairs)).all()
    lc = P.local_order_correlations(local, pairs)
    assert list(lc.columns) == ["human", "method", "layer", "d", "value", "n"]
    assert len(lc) == 2 * 7 * 5
    rows = P.table1_rows(scores, pairs, {"estime_alarms": 5, "estime_soft": 5}, model=MODEL, n_resamples=0)
    assert set(rows["metric"]) == {"ESTIME", "ESTIME-soft"}
    assert {"ours", "paper", "diff", "layer", "model"} <= set(rows.columns)
    assert (rows["model"] == MODEL).all() and rows["paper"].notna().all()


@pytest.mark.slow
def test_plots_return_figures(tiny):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sumeval.plots import similarity as sp

    pairs, _ = tiny
    prof, hist = LP.probe_frames(pairs, MODEL)
    scores, local = P.layer_pair_scores(pairs, MODEL, max_d=5)
    corr = P.layer_correlations(scores, pairs)
    lc = P.local_order_correlations(local, pairs)
    figs = []
    for v in ("norm", "change", "cos"):
        fig, ax = sp.layer_profiles(prof, v)
        figs.append(fig)
        # the line of text tokens draws the profile's values over the layers
        line = [ln for ln in ax.get_lines() if ln.get_label() == "tokens, texts"][0]
        want = prof[(prof["source"] == "text") & (prof["kind"] == "token")].sort_values("layer").dropna(subset=[v])
        assert np.allclose(line.get_ydata(), want[v]) and list(line.get_xdata()) == list(want["layer"])
    edges, shares = LP.histogram_matrix(hist)
    fig, ax = sp.cosine_histogram(edges, shares)
    used = np.flatnonzero(np.nansum(shares, axis=0) > 0)
    assert np.allclose(ax.get_images()[0].get_array(), shares[:, used[0]:used[-1] + 1])
    figs.append(fig)
    fig, axes = sp.layer_pair_grid(corr, measures=["estime_soft", "estime_alarms"],
                                   humans=PAPER000_QUALITIES, method="kendall_c")
    assert axes.shape == (2, 4)
    # panel (ESTIME-soft, relevance): summary layer on y (rows), text layer on x (columns)
    want = corr[(corr["measure"] == "estime_soft") & (corr["human"] == "relevance") & (corr["method"] == "kendall_c")]
    img = np.asarray(axes[0, 1].get_images()[0].get_array(), dtype=float)
    for _, r in want.iterrows():
        assert (math.isnan(r["value"]) and math.isnan(img[r["summary_layer"], r["text_layer"]])) or \
            img[r["summary_layer"], r["text_layer"]] == pytest.approx(r["value"])
    figs.append(fig)
    fig, axes = sp.local_order_grid(lc)
    assert len(axes) == 2
    img = np.asarray(axes[0].get_images()[0].get_array(), dtype=float)  # coherence: layer (y) x d (x)
    cell = lc[(lc["human"] == "coherence") & (lc["layer"] == 4) & (lc["d"] == 3)]["value"].iloc[0]
    assert (math.isnan(cell) and math.isnan(img[4, 2])) or img[4, 2] == pytest.approx(cell)
    figs += [fig, sp.diagonal_profiles(corr, measures=["estime_soft"])[0]]
    for f in figs:
        assert isinstance(f, matplotlib.figure.Figure)
        plt.close(f)
