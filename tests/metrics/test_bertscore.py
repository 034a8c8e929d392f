"""Tests of sumeval.metrics.bertscore: BERTScore through bert-score with a packaged encoder,
against a hand check and an independent computation of the greedy cosine matching."""
from __future__ import annotations

import numpy as np
import pytest

from sumeval import metrics
from sumeval.errors import InputError
from sumeval.metrics.base import Batch

from helpers import TEST_DATA, model_installed  # tests/ is on the path

MODEL = "all-MiniLM-L6-v2"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not model_installed(MODEL), reason=f"packaged model {MODEL} not installed")]


@pytest.fixture(scope="module")
def scorer():
    return metrics.get_scorer("bertscore", model=MODEL)


def _embed(text: str, layer: int) -> np.ndarray:
    """Unit-length hidden states at ``layer`` of every token of ``text`` (CLS and SEP included),
    computed with transformers directly - not through bert-score."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from sumeval.lm import resolve_model

    path = resolve_model(MODEL).path
    tok = AutoTokenizer.from_pretrained(path)
    net = AutoModel.from_pretrained(path).eval()
    with torch.inference_mode():
        states = net(**tok(text, return_tensors="pt"), output_hidden_states=True).hidden_states[layer][0]
    states = states.numpy().astype(np.float64)
    return states / np.linalg.norm(states, axis=1, keepdims=True)


def _greedy(cand: str, ref: str, layer: int) -> tuple[float, float, float]:
    """BERTScore by hand (Zhang et al. 2020, Eq. 1, idf off): every token is matched to its most
    similar token of the other text (special tokens included as match targets, as bert-score
    does), and P / R average those maxima over the candidate's / reference's words (CLS and SEP,
    the first and last token, have weight 0)."""
    c, r = _embed(cand, layer), _embed(ref, layer)
    sim = c @ r.T
    p = sim.max(axis=1)[1:-1].mean()
    rec = sim.max(axis=0)[1:-1].mean()
    return p, rec, 2 * p * rec / (p + rec)


def test_identical_summary_and_reference_score_one(scorer):
    out = scorer.score_batch(Batch(["The council approved the new bike lane."],
                                   references=[["The council approved the new bike lane."]]))
    # every token's best match is itself: cos = 1, so P = R = F = 1
    for c in ("bertscore-p", "bertscore-r", "bertscore-f"):
        assert out[c][0] == pytest.approx(1.0, abs=1e-5)


def test_one_value_by_an_independent_greedy_matching(scorer):
    cand = "Floods forced two hundred people into a school gym."
    ref = "Overnight rain flooded the valley and 200 residents were moved to the gym."
    out = scorer.score_batch(Batch([cand], references=[[ref]]))
    p, r, f = _greedy(cand, ref, layer=scorer.layer)
    assert scorer.layer == 4
    assert out["bertscore-p"][0] == pytest.approx(p, abs=1e-5)
    assert out["bertscore-r"][0] == pytest.approx(r, abs=1e-5)
    assert out["bertscore-f"][0] == pytest.approx(f, abs=1e-5)
    assert 0.3 < f < 0.99


def test_several_references_take_the_best_of_each_of_p_r_f(scorer):
    cand = "The museum shows old photographs."
    refs = ["A free exhibition of 150 early photographs opened at the museum.", "Prints from the 1850s."]
    out = scorer.score_batch(Batch([cand, cand], references=[refs, refs[:1]]))
    each = [_greedy(cand, ref, scorer.layer) for ref in refs]
    for k, c in enumerate(("bertscore-p", "bertscore-r", "bertscore-f")):
        assert out[c][0] == pytest.approx(max(e[k] for e in each), abs=1e-5)
        assert out[c][1] == pytest.approx(each[0][k], abs=1e-5)


def test_signature_names_model_layer_and_versions(scorer):
    from importlib.metadata import version

    import transformers

    sig = scorer.signature()
    assert sig.startswith("bertscore|baseline=none|idf=False|layer=4|model=all-MiniLM-L6-v2|model_sha=")
    assert "|multi_ref=max|" in sig
    assert f"|bert-score={version('bert-score')}|" in sig and f"|transformers={transformers.__version__}|" in sig
    assert "layer=2|" in metrics.get_scorer("bertscore", model=MODEL, layer=2).signature()


def test_the_model_is_loaded_once(scorer):
    scorer.score_batch(Batch(["a b"], references=[["a b"]]))
    first = scorer._scorer
    scorer.score_batch(Batch(["c d"], references=[["e f"]]))
    assert scorer._scorer is first


def test_default_layers():
    from sumeval.lm import resolve_model
    from sumeval.metrics.bertscore import default_bertscore_layer

    assert default_bertscore_layer(resolve_model(MODEL)) == 4
    if model_installed("all-mpnet-base-v2"):
        assert default_bertscore_layer(resolve_model("mpnet")) == 8


def test_bad_options():
    with pytest.raises(InputError,
                       match=r"BERTScore layer 7 is out of range for all-MiniLM-L6-v2 \(6 layers\): give 0\.\.6"):
        metrics.get_scorer("bertscore", model=MODEL, layer=7)
    with pytest.raises(InputError, match=r"BERTScore idf=True is not offered"):
        metrics.get_scorer("bertscore", model=MODEL, idf=True)
    with pytest.raises(InputError, match=r"rescale_with_baseline=True needs baseline_path"):
        metrics.get_scorer("bertscore", model=MODEL, rescale_with_baseline=True)


def test_through_the_measure_resolver(tmp_path, monkeypatch):

    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    j = load_judgments(TEST_DATA / "user_judgments.csv", human="faithful,overall",
                       doc_col="article_id", system_col="model", summary_col="output", text_col="source",
                       references_col="gold")
    specs = resolve_measures(["bertscore", "bertscore-r"], j, options={"model": MODEL})
    assert [(s.name, s.column) for s in specs] == [("bertscore", "bertscore-f"), ("bertscore-r", "bertscore-r")]
    first = score_judgments(j, specs)
    assert first.frame["bertscore"].between(0, 1).all()
    again = score_judgments(j, specs)
    assert again.from_cache == {"bertscore": True, "bertscore-r": True}
    assert np.allclose(first.frame, again.frame)
