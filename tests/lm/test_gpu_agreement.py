"""The paper-000 measures on a GPU agree with the CPU (issue 12, item 4), and a requested device
that is missing is an error, never a silent fall-back to the CPU.

The agreement test runs only where ``torch.cuda.is_available()``: it embeds a few SummEval rows
with all-MiniLM-L6-v2 once on ``cuda`` and once on ``cpu`` (separate engines, separate empty
caches, so neither reads the other's arrays) and compares the points of similarity token by
token and the ESTIME / ESTIME-soft / coherence scores row by row.
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from sumeval.errors import InputError  # noqa: E402
from sumeval.lm.engine import check_device  # noqa: E402

from helpers import model_installed  # noqa: E402

MODEL = "all-MiniLM-L6-v2"
N_DOCS, N_ROWS = 2, 8
cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


# ---- devices: CPU-only checks ------------------------------------------------------------------
@pytest.mark.skipif(torch.cuda.is_available(), reason="checks a machine without CUDA")
@pytest.mark.parametrize("device", ["cuda", "cuda:0"])
def test_cuda_without_gpu_is_an_error(device):
    with pytest.raises(InputError, match="no usable CUDA GPU"):
        check_device(device)


def test_missing_cuda_index_and_unknown_devices_are_errors():
    with pytest.raises(InputError):  # no GPU here, or fewer than 100 GPUs there
        check_device("cuda:99")
    with pytest.raises(InputError, match="not a device"):
        check_device("banana")
    with pytest.raises(InputError, match="use cpu or cuda"):
        check_device("meta")


def test_cpu_and_default_devices():
    assert check_device("cpu") == "cpu"
    assert check_device(None) == ("cuda" if torch.cuda.is_available() else "cpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks a machine without CUDA")
@pytest.mark.skipif(not model_installed(MODEL), reason=f"{MODEL} is not installed")
def test_engine_and_scorer_refuse_a_missing_gpu_before_any_work():
    from sumeval.lm.engine import MaskedEmbedder
    from sumeval.metrics.base import Batch
    from sumeval.similarity.scorers import EstimeScorer

    with pytest.raises(InputError, match="--device|device cuda"):
        MaskedEmbedder(MODEL, device="cuda", cache=False)
    sc = EstimeScorer(MODEL, device="cuda")
    with pytest.raises(InputError, match="no usable CUDA GPU"):
        sc.score_batch(Batch(summaries=["A dog ."], texts=["A dog barked ."]))


@pytest.mark.skipif(not model_installed(MODEL), reason=f"{MODEL} is not installed")
def test_engine_records_the_device_it_used():
    from sumeval.lm.engine import MaskedEmbedder

    e = MaskedEmbedder(MODEL, device="cpu", cache=False)
    e.embed("A dog barked .")
    assert e.device_used == "cpu"


# ---- cuda against cpu ----------------------------------------------------------------------------
def _rows():
    try:
        from sumeval.datasets.summeval import load_summeval

        frame = load_summeval(n_docs=N_DOCS)
    except Exception as exc:  # noqa: BLE001 - data not found: a skip, not a failure
        pytest.skip(f"SummEval not available: {exc}")
    return frame.iloc[:N_ROWS]


def _score_on(device, rows, cache_root, monkeypatch):
    """Points of similarity per row and the three scorers' columns, computed on ``device`` with
    a fresh engine and an empty cache under ``cache_root``."""
    from sumeval.lm import engine
    from sumeval.metrics.base import Batch
    from sumeval.similarity import measures as M
    from sumeval.similarity.scorers import CoherenceScorer, EstimeScorer, EstimeSoftScorer

    monkeypatch.setenv("SUMEVAL_CACHE", str(cache_root))
    monkeypatch.setattr(engine, "_EMBEDDERS", {})
    batch = Batch(summaries=list(rows["summary"]), texts=list(rows["text"]))
    scorers = [cls(MODEL, device=device) for cls in (EstimeScorer, EstimeSoftScorer, CoherenceScorer)]
    scores = {}
    for sc in scorers:
        scores.update(sc.score_batch(batch))
    emb = scorers[0].embedder
    assert emb is scorers[1].embedder is scorers[2].embedder
    assert emb.stats["texts_from_cache"] == 0 and emb.stats["texts_computed"] > 0
    points = [M.points_of_similarity(emb.embed(s).layer(scorers[0].layer), emb.embed(t).layer(scorers[0].layer))
              for s, t in zip(batch.summaries, batch.texts)]
    return points, scores, emb.device_used


@cuda
@pytest.mark.skipif(not model_installed(MODEL), reason=f"{MODEL} is not installed")
def test_cuda_and_cpu_agree(tmp_path, monkeypatch):
    rows = _rows()
    p_gpu, s_gpu, dev_gpu = _score_on("cuda", rows, tmp_path / "gpu", monkeypatch)
    p_cpu, s_cpu, dev_cpu = _score_on("cpu", rows, tmp_path / "cpu", monkeypatch)
    assert dev_gpu.startswith("cuda") and dev_cpu == "cpu"  # no silent fall-back

    same = np.concatenate([a == b for a, b in zip(p_gpu, p_cpu)])
    assert same.size > 100
    assert same.mean() >= 0.995, f"only {same.mean():.4f} of {same.size} tokens have the same point"

    for i, (a, b) in enumerate(zip(p_gpu, p_cpu)):
        differ = int((a != b).sum())
        n = len(a)
        # an alarm (paper 000 Eq.1) depends on its own token's point only: one differing point
        # moves the alarm count by at most 1, the adjusted count by at most N / |M| <= N
        assert abs(s_gpu["estime-alarms"][i] - s_cpu["estime-alarms"][i]) <= differ
        assert abs(s_gpu["estime-alarms-alltokens"][i] - s_cpu["estime-alarms-alltokens"][i]) <= differ
        # ESTIME-soft (Eq.2) is a mean of N cosines in [-1, 1]: a differing point moves it by <= 2 / N
        assert abs(s_gpu["estime-soft"][i] - s_cpu["estime-soft"][i]) <= 2 * differ / n + 1e-6
        if differ == 0:
            for col in ("estime-alarms-adjusted", "coherence"):
                np.testing.assert_allclose(s_gpu[col][i], s_cpu[col][i], rtol=1e-9, atol=1e-9, equal_nan=True)
