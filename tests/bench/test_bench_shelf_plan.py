"""benchmarks/bench_shelf.py's ``plan`` (issue 34): what the shelf study's ``default`` computes per set, counted
without running a model, from the SHELF table and the study's own measure list; its extraction count is the
engine's own passes."""
from __future__ import annotations

import importlib.util

import pytest

from helpers import REPO_ROOT, needs_data  # tests/ is on the path

needs_sets = needs_data("storysumm/storysumm.json", "fables/FABLES.json.zip", "dialsummeval/human_judgment.jsonl")


def _bench():
    spec = importlib.util.spec_from_file_location("bench_shelf", REPO_ROOT / "benchmarks" / "bench_shelf.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def _tokenizer():
    from sumeval.errors import InputError
    from sumeval.lm import resolve_model

    try:
        path = resolve_model("all-mpnet-base-v2").path
    except InputError as exc:
        pytest.skip(str(exc))
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(path))


def test_the_plan_counts_the_studys_own_default_measures():
    import yaml

    params = yaml.safe_load((REPO_ROOT / "notebooks" / "shelf.params.yaml").read_text())
    assert _bench().default_measures() == params["default"]["measures"].split(",")


@needs_sets
def test_plan_counts_extraction_bertscore_and_what_cannot_run_per_set():
    from sumeval.datasets.judgments import load_judgments

    _tokenizer()
    bench = _bench()
    out = bench.plan(sets=["storysumm", "fables", "dialsummeval"], log=lambda line: None)
    story = load_judgments("storysumm").frame
    assert out["storysumm"]["extraction"]["texts"] == story["text"].nunique() + story["summary"].nunique()
    assert "bertscore" not in out["storysumm"]
    assert set(out["storysumm"]["cannot_run"]) == {"rouge-1", "rouge-2", "rouge-l", "bleu", "js-2", "bertscore"}
    assert all("no reference summaries" in why for why in out["storysumm"]["cannot_run"].values())
    assert "extraction" not in out["fables"] and "bertscore" not in out["fables"]
    assert set(out["fables"]["cannot_run"]) == set(bench.default_measures())
    assert out["dialsummeval"]["cannot_run"] == {} and out["dialsummeval"]["bertscore"]["pairs"] == 1400
    assert out["all sets"]["extraction"] == {k: out["storysumm"]["extraction"][k] + out["dialsummeval"]["extraction"][k]
                                             for k in ("texts", "token_forwards")}


@needs_sets
def test_the_counted_token_forwards_are_the_engines_passes():
    """The count uses the engine's masking scheme and word splitting: the passes MaskedEmbedder plans (no model run)."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.lm import MaskedEmbedder

    tok = _tokenizer()
    j = load_judgments("storysumm").first_documents(2)
    emb = MaskedEmbedder("all-mpnet-base-v2", device="cpu", precision="float32", cache=False)
    texts = list(dict.fromkeys([*j.frame["text"], *j.frame["summary"]]))
    engine = sum(p.end - p.begin + 2 for t in texts for p in emb._prepare(t)[1])
    assert _bench().token_forwards(j, tok) == {"texts": len(texts), "token_forwards": engine}
