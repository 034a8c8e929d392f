"""The shared helpers: sentence tags (sumeval.text), sha256 (sumeval.hashing), precision names
(sumeval.lm.normalize_precision), and the modules that re-export split modules."""
from __future__ import annotations

import hashlib

import pytest

from sumeval import hashing
from sumeval.errors import InputError
from sumeval.hashing import remembered_sha256, sha256_file, sha256_json, sha256_text
from sumeval.text import has_sentence_tags, strip_sentence_tags, tagged_sentences

ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # sha256("abc"), FIPS 180-2


def test_sentence_tags_by_hand():
    text = "<t> one . </t> <t> two . </t>"
    # each of the 4 tags becomes one space; the rest stays
    assert strip_sentence_tags(text) == "  one .     two .  "
    assert tagged_sentences(text) == [" one . ", " two . "]
    assert tagged_sentences("<t> a\nb </t> tail <t> cut") == [" a\nb "]  # spans lines; unclosed left out
    assert has_sentence_tags(text) and not has_sentence_tags("plain text")
    assert strip_sentence_tags("plain text") == "plain text" and tagged_sentences("plain text") == []


def test_sha256_of_files_and_texts(tmp_path):
    p = tmp_path / "abc.bin"
    p.write_bytes(b"abc")
    assert sha256_file(p) == ABC and sha256_file(p, chunk=1) == ABC
    assert sha256_text("abc") == ABC and sha256_text("abc", 32) == ABC[:32]
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 3_000_001)  # crosses the 1 MiB blocks
    assert sha256_file(big) == hashlib.sha256(b"x" * 3_000_001).hexdigest()
    assert sha256_text("é") == hashlib.sha256("é".encode("utf-8")).hexdigest()


def test_sha256_json_is_the_digest_of_run_and_sweep_ids():
    # json.dumps(sort_keys=True) writes {"b": 1, "a": [2]} as '{"a": [2], "b": 1}' (", " and ": "),
    # and a Path through str(): the text the run ids hashed before sha256_json existed
    assert sha256_json({"b": 1, "a": [2]}) == sha256_text('{"a": [2], "b": 1}')
    from pathlib import PurePosixPath

    assert sha256_json({"p": PurePosixPath("/x")}, 6) == sha256_text('{"p": "/x"}')[:6]


def test_remembered_sha256_hashes_a_file_version_once(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    hashing.forget_file_hashes()
    calls = []
    real = hashing.sha256_file
    monkeypatch.setattr(hashing, "sha256_file", lambda p, *a: calls.append(p) or real(p, *a))
    p = tmp_path / "abc.bin"
    p.write_bytes(b"abc")
    assert remembered_sha256(p) == ABC and remembered_sha256(p) == ABC
    assert len(calls) == 1                              # the second call reads the memo
    hashing.forget_file_hashes()
    assert remembered_sha256(p) == ABC and len(calls) == 1  # the memo on disk (data_checks.json)
    p.write_bytes(b"abcd")                              # a new size (or mtime): hashed again
    assert remembered_sha256(p) == hashlib.sha256(b"abcd").hexdigest() and len(calls) == 2
    hashing.forget_file_hashes(disk=True)
    assert not (tmp_path / "cache" / "data_checks.json").exists()


def test_precision_names():
    from sumeval.lm import PRECISIONS, normalize_precision

    assert [normalize_precision(p) for p in ("fp32", "bf16", "fp16")] == ["float32", "bfloat16", "float16"]
    assert all(normalize_precision(p) == p for p in PRECISIONS)
    with pytest.raises(InputError, match=r"precision 'fp8' is unknown; use auto \(float32 on a CPU, bfloat16 on CUDA\) "
                                         r"or one of float32, bfloat16, float16"):
        normalize_precision("fp8")


def test_the_lm_package_hands_on_its_modules_names():
    from sumeval import lm
    from sumeval.lm import embeddings, engine, resolution, words

    assert lm.MaskedEmbedder is engine.MaskedEmbedder and lm.MaskedEmbeddings is embeddings.MaskedEmbeddings
    assert lm.resolve_model is resolution.resolve_model and lm.plan_passes is words.plan_passes
    assert set(lm.__all__) <= set(dir(lm))
