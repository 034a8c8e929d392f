"""The estime / estime-soft / coherence scorers on tiny inputs with all-MiniLM-L6-v2.

MiniLM's masked contexts carry little: these tests check behaviour (shapes, NaN with reasons,
sharing, options), not the method's numbers - those are the slow real-data probes.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from sumeval.errors import InputError
from sumeval.metrics import Batch, score_records
from sumeval.similarity import measures as M
from sumeval.similarity.scorers import (
    CoherenceScorer,
    EstimeScorer,
    EstimeSoftScorer,
    SimilarityOrderScorer,
    default_estime_layer,
)

from helpers import model_installed as _have  # noqa: E402

pytestmark = pytest.mark.skipif(not _have("minilm"), reason="all-MiniLM-L6-v2 is not installed")

TEXT = ("Paul Merson has restarted his row with Andros Townsend after the Tottenham midfielder was "
        "brought on with only seven minutes remaining in his team 's 0-0 draw with Burnley on Sunday . "
        "Merson initially angered Townsend for writing in his Sky Sports column that the winger "
        "should not be in the England team .")
OPTS = dict(model="minilm", device="cpu")


def test_default_estime_layer():
    # floor(0.875 * num_hidden_layers): 21 of 24 (the reference's layer of bert-large), 10 of 12, 5 of 6
    assert default_estime_layer(24) == 21 and default_estime_layer(12) == 10 and default_estime_layer(6) == 5
    assert default_estime_layer(12, "all-mpnet-base-v2") == 9 and default_estime_layer(6, "all-MiniLM-L6-v2") == 5
    assert issubclass(CoherenceScorer, SimilarityOrderScorer) and CoherenceScorer.name == "coherence"
    assert SimilarityOrderScorer.name == "similarity-order"


def test_three_scorers_share_one_embedder_and_score():
    summaries = ["Paul Merson has restarted his row with Andros Townsend .",
                 "Merson", "Burnley drew 0-0 with Tottenham on Sunday ."]
    batch = Batch(summaries=summaries, texts=[TEXT] * 3)
    es, so, co = EstimeScorer(**OPTS), EstimeSoftScorer(**OPTS), CoherenceScorer(**OPTS)
    a = es.score_batch(batch)
    s = so.score_batch(batch)
    c = co.score_batch(batch)
    assert es.embedder is so.embedder is co.embedder
    assert es.embedder.stats["texts_computed"] == 4  # the text once, three summaries
    assert set(a) == set(es.columns()) and all(v.shape == (3,) for v in a.values())
    assert np.isfinite(a["estime-alarms"]).all() and (a["estime-alarms"] >= 0).all()
    assert (a["estime-alarms"] <= a["estime-alarms-adjusted"] + 1e-9).all()
    assert np.isfinite(s["estime-soft"]).all() and (np.abs(s["estime-soft"]) <= 1 + 1e-6).all()
    assert math.isnan(c["coherence"][1]) and np.isfinite(c["coherence"][[0, 2]]).all()
    assert c.undefined == [(1, "the summary has one word: an order needs at least two")]
    assert es.layer == 5 and es.text_layer == 5 and not es.higher_is_better
    # values: summary 0's words all occur in the text (|M| = N), so adjusted = alarms; summary 2
    # has 8 words (Burnley drew 0-0 with Tottenham on Sunday .) of which "drew" is not in the
    # text: adjusted = alarms * 8 / 7
    assert a["estime-alarms-adjusted"][0] == a["estime-alarms"][0]
    assert a["estime-alarms-adjusted"][2] == pytest.approx(a["estime-alarms"][2] * 8 / 7)
    # and each value is the measure of the engine's arrays at layer 5
    et, e2 = es.embedder.embed_many([TEXT, summaries[2]])
    pts = M.points_of_similarity(e2.layer(5), et.layer(5))
    assert a["estime-alarms"][2] == M.estime_alarms(e2.first_ids, et.first_ids, pts,
                                                    M.in_text_mask(e2.words, et.words))["alarms"]
    assert c["coherence"][2] == M.similarity_order(pts)
    assert s["estime-soft"][2] == pytest.approx(M.estime_soft(so.table[e2.first_ids], so.table[et.first_ids], pts))


def test_layers_options_and_signature():
    sc = EstimeSoftScorer(layer=2, text_layer=6, **OPTS)
    assert (sc.layer, sc.text_layer) == (2, 6)
    with pytest.raises(InputError, match="text_layer -1 is out of range.*negative"):
        EstimeSoftScorer(layer=2, text_layer=-1, **OPTS)  # not Python's "last layer": refused
    sig = sc.signature()
    assert "layer=2" in sig and "text_layer=6" in sig and "raw_model=all-MiniLM-L6-v2" in sig
    assert "average=all-words" in sig and "transformers=" in sig
    with pytest.raises(InputError, match="layer 7 is out of range.*0..6"):
        EstimeScorer(layer=7, **OPTS)
    with pytest.raises(InputError, match="'x'"):
        CoherenceScorer(text_layer="x", **OPTS)


def test_empty_text_gives_nan_with_reason_and_score_records_skips_empty_summary():
    sc = EstimeScorer(**OPTS)
    out = sc.score_batch(Batch(summaries=["A summary ."], texts=["  "]))
    assert math.isnan(out["estime-alarms"][0]) and out.undefined == [(0, "the text has no words")]
    frame, report = score_records(
        [{"text": TEXT, "summary": ""}, {"text": TEXT, "summary": "Merson angered Townsend ."}],
        [CoherenceScorer(**OPTS)])
    assert math.isnan(frame.loc[0, "coherence"]) and report.skipped[0][2] == "empty summary"
    assert np.isfinite(frame.loc[1, "coherence"])


def test_non_ascii_inputs_do_not_crash():
    text = "Zürich's café served crème brûlée to the naïve visitors from 東京 on Sunday ."
    b = Batch(summaries=["The café in Zürich served crème brûlée .", "🙂"], texts=[text, text])
    sc = EstimeSoftScorer(**OPTS)
    s = sc.score_batch(b)["estime-soft"]
    assert np.isfinite(s[0])
    # the words are found in the NFKD text (accents decomposed), so they match the text's words
    es, et = sc.embedder.embed_many([b.summaries[0], text])
    assert es.words == ["The", "cafe\u0301", "in", "Zu\u0308rich", "served", "cre\u0300me", "bru\u0302le\u0301e", "."]
    assert M.in_text_mask(es.words, et.words).tolist() == [False, True, False, True, True, True, True, True]
    pts = M.points_of_similarity(es.layer(sc.layer), et.layer(sc.text_layer))
    assert s[0] == pytest.approx(M.estime_soft(sc.table[es.first_ids], sc.table[et.first_ids], pts))


@pytest.mark.skipif(not _have("mpnet"), reason="all-mpnet-base-v2 is not installed")
def test_raw_model_with_another_vocabulary_is_refused():
    from sumeval.lm import VocabularyMismatchError

    sc = EstimeSoftScorer(raw_model="mpnet", **OPTS)
    with pytest.raises(VocabularyMismatchError, match="all-mpnet-base-v2.*vocabulary"):
        sc.score_batch(Batch(summaries=["Merson ."], texts=[TEXT]))
