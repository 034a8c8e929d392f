"""The paper-000 study functions (layer_probing, estime_layers, coherence_order) on tiny inputs,
best-layer selection on a hand-made frame, and the figures."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.similarity import measures as M
from sumeval.studies import paper000 as P

MODEL = "all-MiniLM-L6-v2"


# ---------------------------------------------------------------------------------- pure parts
def test_local_order_profile_equals_local_order_tau():
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 23):
        pts = rng.integers(0, 8, size=(3, n))
        prof = M.local_order_profile(pts, 30)
        for r in range(3):
            for d in (1, 2, 7, 30):
                a, b = M.local_order_tau(pts[r], d), prof[r, d - 1]
                assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)
    # by hand: b = (0, 2, 1, 3); lag 1 pairs: 0<2 c, 2>1 d, 1<3 c -> (2-1)/3
    assert M.local_order_profile(np.array([[0, 2, 1, 3]]), 1)[0, 0] == pytest.approx(1 / 3)


def test_points_all_pairs_equals_layer_pair_points():
    rng = np.random.default_rng(1)
    S = rng.normal(size=(7, 3, 5)).astype(np.float16)
    T = rng.normal(size=(9, 3, 5)).astype(np.float16)
    assert np.array_equal(P._points_all_pairs(S, T), M.layer_pair_points(S, T))


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


def test_load_pairs_subsets_and_bad_input():
    pairs = P.load_pairs(2, 3, text_words=10)
    assert len(pairs) == 6 and pairs["doc_id"].nunique() == 2
    assert all(len(t.split()) == 10 for t in pairs["text"])
    with pytest.raises(InputError, match="n_systems"):
        P.load_pairs(1, 17)
    with pytest.raises(InputError, match="text_words"):
        P.load_pairs(1, 0, -1)
    with pytest.raises(InputError, match="precision 'fp8'"):
        P.embedder(MODEL, "fp8")


# ---------------------------------------------------------------------------------- with MiniLM
@pytest.fixture(scope="module")
def tiny():
    pairs = P.load_pairs(2, 3, text_words=60)
    info = P.extract(pairs, MODEL)
    return pairs, info


@pytest.mark.slow
def test_extract_and_probe_frames(tiny):
    pairs, info = tiny
    assert info["n_texts"] == 2 and info["n_layers"] == 7 and info["model_name"] == MODEL
    again = P.extract(pairs, MODEL)
    assert again["computed"] == 0  # everything from the engine's memory or disk cache
    prof, hist = P.probe_frames(pairs, MODEL, cache=False)
    assert list(prof.columns) == ["source", "kind", "layer", "norm", "change", "cos", "n_documents"]
    assert set(prof["source"]) == {"text", "summary"} and set(prof["kind"]) == {"cls", "token"}
    assert len(prof) == 2 * 2 * 7
    last = prof[prof["layer"] == 6]
    assert last["change"].isna().all() and last["cos"].isna().all()  # no next layer
    assert list(hist.columns) == ["source", "layer", "bin_low", "bin_high", "share"]
    edges, shares = P.histogram_matrix(hist, "all")
    assert shares.shape == (7, 200) and edges.shape == (201,)
    assert np.allclose(shares.sum(axis=1), 1.0)


@pytest.mark.slow
def test_layer_pair_scores_match_the_single_pair_measures(tiny):
    from sumeval.lm import raw_embedding_table

    pairs, _ = tiny
    scores, local = P.layer_pair_scores(pairs, MODEL, max_d=5, cache=False)
    assert list(scores.columns) == ["doc_id", "system", "summary_layer", "text_layer", "estime_alarms",
                                    "estime_soft", "coherence_order", "n_words", "n_in_text"]
    assert len(scores) == len(pairs) * 7 * 7
    assert list(local.columns) == ["doc_id", "system", "layer", "d", "tau_d"]
    assert len(local) == len(pairs) * 7 * 5
    # one pair, one layer pair, by the single-pair functions
    emb = P.embedder(MODEL)
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
    c = M.coherence(pts)
    assert (math.isnan(c) and math.isnan(got["coherence_order"])) or got["coherence_order"] == pytest.approx(c)
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
    rows = P.table1_rows(scores, pairs, {"estime_alarms": 5, "estime_soft": 5}, model=MODEL, n_boot=0)
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
    prof, hist = P.probe_frames(pairs, MODEL)
    scores, local = P.layer_pair_scores(pairs, MODEL, max_d=5)
    corr = P.layer_correlations(scores, pairs)
    lc = P.local_order_correlations(local, pairs)
    figs = [sp.layer_profiles(prof, v)[0] for v in ("norm", "change", "cos")]
    figs.append(sp.cosine_histogram(*P.histogram_matrix(hist))[0])
    fig, axes = sp.layer_pair_grid(corr, measures=["estime_soft", "estime_alarms"],
                                   humans=P.QUALITIES, method="kendall_c")
    assert axes.shape == (2, 4)
    figs.append(fig)
    fig, axes = sp.local_order_grid(lc)
    assert len(axes) == 2
    figs += [fig, sp.diagonal_profiles(corr, measures=["estime_soft"])[0]]
    for f in figs:
        assert isinstance(f, matplotlib.figure.Figure)
        plt.close(f)
