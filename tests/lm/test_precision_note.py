"""A reduced precision that this CPU emulates is said before a run, never changed behind its back."""
from __future__ import annotations

import warnings

import pytest

from sumeval.errors import InputError
from sumeval.lm import engine, precision
from sumeval.lm.precision import SlowPrecisionWarning, native_on_cpu, slow_precision_note
from sumeval.running import runner

AVX2 = "fpu sse sse2 ssse3 fma avx avx2"
SAPPHIRE = "fpu sse2 avx avx2 avx512f avx512_bf16 amx_bf16 amx_tile"
FP16 = "avx2 avx512f avx512_fp16"


@pytest.mark.parametrize("prec,flags,native", [
    ("fp32", AVX2, True), ("float32", "", True),
    ("bf16", AVX2, False), ("bfloat16", SAPPHIRE, True), ("bf16", FP16, False),
    ("fp16", AVX2, False), ("fp16", SAPPHIRE, False), ("float16", FP16, True),
])
def test_native_on_cpu_from_flags(prec, flags, native):
    assert native_on_cpu(prec, cpu_flags=flags) is native


def test_note_names_precision_reason_and_fix():
    note = slow_precision_note("bf16", "cpu", cpu_flags=AVX2)
    assert note is not None
    assert "bfloat16" in note and "emulates" in note and "-p precision=fp32" in note
    assert slow_precision_note("bf16", "cpu", cpu_flags=SAPPHIRE) is None
    assert slow_precision_note("bf16", "cuda:0", cpu_flags=AVX2) is None
    assert slow_precision_note("fp32", "cpu", cpu_flags=AVX2) is None


def test_unknown_precision_is_an_error_not_a_note():
    with pytest.raises(InputError, match="'fp64' is unknown"):
        slow_precision_note("fp64", "cpu", cpu_flags=AVX2)


def test_this_machine_agrees_with_its_flags():
    """oneDNN's answer (used when no flags are given) matches /proc/cpuinfo's flags here."""
    flags = precision._cpuinfo_flags()
    if not flags:
        pytest.skip("no /proc/cpuinfo flags on this machine")
    assert native_on_cpu("bf16") == native_on_cpu("bf16", cpu_flags=flags)


def test_engine_warns_once_per_precision_and_device(monkeypatch):
    seen = []
    monkeypatch.setattr(engine, "slow_precision_note", lambda p, d: seen.append((p, d)) or f"slow {p} on {d}")
    monkeypatch.setattr(engine, "_WARNED", set())
    with pytest.warns(SlowPrecisionWarning, match="slow bfloat16 on cpu"):
        engine.MaskedEmbedder("minilm", device="cpu", precision="bf16", cache=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine.MaskedEmbedder("minilm", device="cpu", precision="bf16", cache=False)
    assert seen == [("bfloat16", "cpu")]


def test_engine_is_silent_where_the_precision_is_native(monkeypatch):
    monkeypatch.setattr(engine, "slow_precision_note", lambda p, d: None)
    monkeypatch.setattr(engine, "_WARNED", set())
    with warnings.catch_warnings():
        warnings.simplefilter("error", SlowPrecisionWarning)
        engine.MaskedEmbedder("minilm", device="cpu", precision="fp32", cache=False)


def test_runner_notes_before_the_run(monkeypatch):
    monkeypatch.setattr(precision, "slow_precision_note", lambda p, d=None: f"slow {p}" if p == "bf16" else None)
    assert runner.parameter_notes({"precision": "bf16", "n_docs": 0}) == ["slow bf16"]
    assert runner.parameter_notes({"precision": "fp32"}) == []
    assert runner.parameter_notes({"n_docs": 3}) == []


def test_runner_leaves_a_bad_precision_to_the_notebook():
    assert runner.parameter_notes({"precision": "fp64"}) == []


def test_run_prints_the_note_and_keeps_it_in_the_manifest(fixture_studies, monkeypatch, capsys):
    import json

    monkeypatch.setattr(runner, "parameter_notes", lambda params: [f"slow for x={params['x']}"])
    res = runner.run_study("tiny", "smoke", run_id="note1")
    assert res.ok
    assert "note (tiny): slow for x=2" in capsys.readouterr().err
    manifest = json.loads((res.run_dir / "manifest.json").read_text())
    assert manifest["notes"] == ["slow for x=2"]


def test_float16_note_speaks_of_float16():
    note = slow_precision_note("fp16", "cpu", cpu_flags=AVX2)
    assert note.startswith("precision float16 on this CPU") and "those of float16" in note


@pytest.mark.parametrize("asked,device,runs", [
    ("auto", "cpu", "float32"), ("auto", "cuda", "bfloat16"), ("auto", "cuda:1", "bfloat16"),
    ("auto", "mps", "float32"),
    ("bf16", "cpu", "bfloat16"), ("fp32", "cuda", "float32"), ("float16", "cpu", "float16"),
])
def test_auto_is_float32_on_a_cpu_and_bfloat16_on_cuda(asked, device, runs):
    assert precision.resolve_precision(asked, device) == runs


def test_auto_is_the_default_and_is_resolved_before_any_work(monkeypatch):
    from sumeval.similarity.scorers import EstimeScorer

    monkeypatch.setattr(engine, "_WARNED", set())
    with warnings.catch_warnings():
        warnings.simplefilter("error", SlowPrecisionWarning)  # auto never asks for an emulated precision on a CPU
        emb = engine.MaskedEmbedder("minilm", device="cpu", cache=False)
    assert emb.precision == "float32" and emb.params()["precision"] == "float32"
    # the measures' options (their signature and cache key) name the precision that runs, not "auto"
    assert EstimeScorer(model="minilm", device="cpu").options()["precision"] == "float32"
    assert EstimeScorer(model="minilm", device="cpu", precision="auto").signature() == \
        EstimeScorer(model="minilm", device="cpu", precision="float32").signature()
    assert slow_precision_note("auto", "cpu", cpu_flags=AVX2) is None
    with pytest.raises(InputError, match="'fp64' is unknown; use auto"):
        engine.MaskedEmbedder("minilm", device="cpu", precision="fp64", cache=False)


@pytest.mark.parametrize("short,long", [("fp32", "float32"), ("bf16", "bfloat16"), ("fp16", "float16")])
def test_one_spelling_crosses_the_boundary(short, long, monkeypatch):
    """A user may type fp32 or float32: what is recorded (the engine's params, its cache keys, a measure's
    options and signature) and what the meta-evaluation studies pass to their scorers is the long name,
    the same for both spellings, so both hit the same cache entries."""
    from sumeval.similarity.scorers import EstimeScorer
    from sumeval.studies.meta_evaluation import scorer_options

    monkeypatch.setattr(engine, "_WARNED", set())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SlowPrecisionWarning)  # bf16 / fp16 on a CPU: beside the point here
        a = engine.MaskedEmbedder("minilm", device="cpu", precision=short, cache=False)
        b = engine.MaskedEmbedder("minilm", device="cpu", precision=long, cache=False)
        assert a.precision == b.precision == long and a.params() == b.params()
        assert a.key("A cat sat.") == b.key("A cat sat.")
        assert engine.get_embedder("minilm", device="cpu", precision=short, cache=False) is \
            engine.get_embedder("minilm", device="cpu", precision=long, cache=False)
        s = EstimeScorer(model="minilm", device="cpu", precision=short)
        assert s.options()["precision"] == long
        assert s.signature() == EstimeScorer(model="minilm", device="cpu", precision=long).signature()
    assert scorer_options(precision=short) == scorer_options(precision=long) == {"precision": long}
    assert scorer_options(precision="auto") == {"precision": "auto"} and scorer_options() == {}
    with pytest.raises(InputError, match="precision 'fp64' is unknown"):
        scorer_options(precision="fp64")
