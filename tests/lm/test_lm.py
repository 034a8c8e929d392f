"""sumeval.lm: model resolution, word grouping, pass planning and the masked-embedding engine.

The engine tests use the fast packaged all-MiniLM-L6-v2 on tiny texts (skipped if it is not
installed); the grouping and planning tests need no model.
"""
from __future__ import annotations

import numpy as np
import pytest

from sumeval.cache import Store
from sumeval.errors import InputError, ModelNotFoundError
from sumeval.lm import (
    MaskedEmbedder,
    VocabularyMismatchError,
    check_same_vocabulary,
    group_separated,
    load_model,
    plan_passes,
    resolve_model,
    split_words,
    word_pieces,
)

from helpers import model_installed as _have  # noqa: E402

needs_minilm = pytest.mark.skipif(not _have("minilm"), reason="all-MiniLM-L6-v2 is not installed (make setup)")

SHORT = "Paul Merson has restarted his row with Andros Townsend after the Tottenham midfielder came on."
NON_ASCII = "Zürich's café served naïve crème brûlée — 東京 « quotes » and emoji 🙂 too."


# ------------------------------------------------------------------------------------------
# grouping and planning (no model)
# ------------------------------------------------------------------------------------------
def test_group_separated_by_hand():
    # range(10), distance 4: take 0,4,8 | left 1,2,3,5,6,7,9 -> 1,5,9 | 2,6 | 3,7
    assert group_separated(range(10), 4) == [[0, 4, 8], [1, 5, 9], [2, 6], [3, 7]]
    # distance 8 over 20 words: 0,8,16 | 1,9,17 | ... | 7,15
    g = group_separated(range(20), 8)
    assert g[0] == [0, 8, 16] and g[3] == [3, 11, 19] and g[7] == [7, 15] and len(g) == 8
    assert group_separated([], 8) == []


@pytest.mark.parametrize("n", [1, 7, 8, 9, 57, 300])
def test_group_separated_covers_every_word_once_and_apart(n):
    groups = group_separated(range(n), 8)
    flat = sorted(i for g in groups for i in g)
    assert flat == list(range(n))
    for g in groups:
        assert all(b - a >= 8 for a, b in zip(g, g[1:]))
    assert len(groups) == min(n, 8)


def test_group_separated_rejects_bad_distance():
    with pytest.raises(InputError, match="0"):
        group_separated(range(3), 0)


def _check_plan(starts, window=450, margin=50):
    passes = plan_passes(starts, window=window, margin=margin)
    n_words = len(starts) - 1
    seen = [w for p in passes for w in p.words]
    assert sorted(seen) == list(range(n_words))  # every word masked exactly once
    for p in passes:
        assert 0 <= p.begin < p.end <= starts[-1]
        assert p.end - p.begin <= window
        assert all(b - a >= 8 for a, b in zip(p.words, p.words[1:]))
        for w in p.words:  # the whole word lies in the maskable region
            assert starts[w] >= p.begin
            if len(p.words) > 1 or starts[w + 1] - starts[w] <= window - margin:
                assert starts[w + 1] - 1 <= p.begin + window - margin
    return passes


def test_plan_passes_short_text_one_window_per_group():
    starts = np.arange(0, 31)  # 30 one-piece words
    passes = _check_plan(starts)
    assert len(passes) == 8 and all(p.begin == 0 and p.end == 30 for p in passes)


def test_plan_passes_long_text_splits_windows():
    rng = np.random.default_rng(0)
    lens = rng.integers(1, 4, size=1200)  # ~2400 pieces
    starts = np.concatenate([[0], np.cumsum(lens)])
    passes = _check_plan(starts)
    assert len(passes) > 8 * 5
    assert any(p.begin > 0 for p in passes)
    # a window starts `margin` pieces before its first masked word (or at 0)
    for p in passes:
        assert p.begin == max(0, int(starts[p.words[0]]) - 50)


def test_plan_passes_word_longer_than_window_is_masked_alone():
    starts = np.array([0, 1, 2, 702, 703])  # word 2 has 700 pieces
    passes = _check_plan(starts)
    long_pass = [p for p in passes if 2 in p.words]
    assert long_pass and long_pass[0].words == (2,) and long_pass[0].end - long_pass[0].begin <= 450


def test_plan_passes_empty():
    assert plan_passes(np.zeros(1, dtype=np.int64)) == []


def test_split_words_treebank():
    spans = split_words("He met Mr. Smith. Then he left, didn't he?")
    words = ["He met Mr. Smith. Then he left, didn't he?"[s:e] for s, e in spans]
    assert words == ["He", "met", "Mr.", "Smith", ".", "Then", "he", "left", ",", "did", "n't", "he", "?"]
    assert split_words("") == []
    with pytest.raises(InputError, match="'nope'"):
        split_words("a", "nope")


# ------------------------------------------------------------------------------------------
# resolution and loading
# ------------------------------------------------------------------------------------------
@needs_minilm
def test_resolve_packaged_aliases_and_folder(tmp_path):
    a = resolve_model("minilm")
    b = resolve_model("sentence-transformers/all-MiniLM-L6-v2")
    assert a.path == b.path and a.source == "packaged" and a.name == "all-MiniLM-L6-v2"
    c = resolve_model(str(a.path))
    assert c.source == "local" and c.fingerprint == a.fingerprint
    with pytest.raises(ModelNotFoundError, match="config.json"):
        resolve_model(str(tmp_path))


def test_resolve_missing_path_and_offline_hub_id(monkeypatch):
    with pytest.raises(ModelNotFoundError, match="does-not-exist"):
        resolve_model("./does-not-exist/model")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelNotFoundError) as ei:
        resolve_model("someone/no-such-model-xyz")
    msg = str(ei.value)
    assert "someone/no-such-model-xyz" in msg and "HF_HUB_OFFLINE" in msg and "all-mpnet-base-v2" in msg
    with pytest.raises(InputError):
        resolve_model("  ")


@needs_minilm
def test_vocabulary_check():
    tok = load_model("minilm", device="cpu").tokenizer
    check_same_vocabulary(tok, tok)

    class Other:
        def get_vocab(self):
            v = dict(tok.get_vocab())
            v["zzzextra"] = len(v)
            return v

    with pytest.raises(VocabularyMismatchError, match="zzzextra"):
        check_same_vocabulary(tok, Other(), "contextual model 'a'", "raw-embedding model 'b'")


# ------------------------------------------------------------------------------------------
# the engine
# ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def minilm_store(tmp_path_factory):
    return Store("masked_embeddings", root=tmp_path_factory.mktemp("emb_cache"))


def _embedder(store, **kw):
    kw.setdefault("store_dtype", "float32")
    return MaskedEmbedder("minilm", device="cpu", cache=store, **kw)


@needs_minilm
def test_word_pieces_non_ascii_and_first_ids():
    tok = load_model("minilm", device="cpu").tokenizer
    wp = word_pieces(NON_ASCII + " \u200b", tok)
    n = len(wp["words"])
    assert n > 10 and wp["first_ids"].shape == (n,) and wp["word_starts"][-1] == len(wp["piece_ids"])
    assert np.array_equal(wp["first_ids"], wp["piece_ids"][wp["word_starts"][:-1]])
    assert all(wp["word_starts"][1:] > wp["word_starts"][:-1])  # no word without pieces
    assert tok.convert_ids_to_tokens(int(wp["first_ids"][0])) == "zurich"


@needs_minilm
def test_engine_shapes_and_manual_forward(minilm_store):
    import torch

    e = _embedder(minilm_store)
    r = e.embed(SHORT)
    n = r.n_words
    assert r.emb.shape == (n, 7, 384) and r.cls.shape == (8, 7, 384) and r.emb.dtype == np.float32
    assert sorted(r.pass_of_word.tolist()) == sorted([i % 8 for i in range(n)])
    # recompute pass 0 by hand: CLS + pieces with every piece of words 0, 8, ... masked + SEP
    tok, net = e.loaded.tokenizer, e.loaded.model
    words0 = [w for w in range(n) if r.pass_of_word[w] == 0]
    assert words0 == list(range(0, n, 8))
    ids = r.piece_ids.copy()
    for w in words0:
        ids[r.word_starts[w]:r.word_starts[w + 1]] = tok.mask_token_id
    inp = torch.tensor([[tok.cls_token_id, *ids.tolist(), tok.sep_token_id]])
    with torch.inference_mode():
        hs = net(input_ids=inp, output_hidden_states=True).hidden_states
    for w in words0:
        pos = 1 + int(r.word_starts[w])
        want = np.stack([h[0, pos].numpy() for h in hs])
        np.testing.assert_allclose(r.emb[w], want, atol=2e-4)
    np.testing.assert_allclose(r.cls[0], np.stack([h[0, 0].numpy() for h in hs]), atol=2e-4)


@needs_minilm
def test_cache_hit_returns_identical_arrays(minilm_store):
    e1 = _embedder(minilm_store)
    a = e1.embed(SHORT + " Again.")
    e2 = _embedder(minilm_store)  # a fresh engine: reads the disk cache
    b = e2.embed(SHORT + " Again.")
    assert e2.stats["texts_from_cache"] == 1 and e2.stats["passes"] == 0
    for k, v in a.to_arrays().items():
        assert np.array_equal(v, b.to_arrays()[k]), k
    # a changed masking parameter is a different key
    assert _embedder(minilm_store, min_distance=4).key(SHORT) != e1.key(SHORT)


@needs_minilm
def test_batch_size_does_not_change_results():
    texts = [SHORT, "A short one.", NON_ASCII, "Tottenham drew 0-0 with Burnley on Sunday afternoon at home."]
    big = MaskedEmbedder("minilm", device="cpu", cache=False, store_dtype="float32", batch_size=64).embed_many(texts)
    one = MaskedEmbedder("minilm", device="cpu", cache=False, store_dtype="float32", batch_size=1).embed_many(texts)
    for a, b in zip(big, one):
        np.testing.assert_allclose(a.emb, b.emb, atol=1e-3, rtol=1e-4)
        np.testing.assert_allclose(a.cls, b.cls, atol=1e-3, rtol=1e-4)


@needs_minilm
def test_forward_slices_give_the_whole_batch_bit_for_bit():
    """A CPU batch runs in slices of ``forward_tokens`` padded positions, each padded as its batch: the
    arrays equal one forward call per batch exactly (float32 storage: no rounding hides a difference)."""
    sentence = "The committee met again on Tuesday and discussed the budget for next year . "
    # short texts, a duplicate, a long one and one of several 450-piece windows (batches of unequal lengths, padded)
    texts = [SHORT, "A short one.", NON_ASCII, "Tottenham drew 0-0 with Burnley on Sunday afternoon at home.",
             sentence * 12, "A short one.", sentence * 45]

    def run(forward_tokens):
        e = MaskedEmbedder("minilm", device="cpu", cache=False, store_dtype="float32", forward_tokens=forward_tokens)
        return e, e.embed_many(texts)

    whole_e, whole = run(10 ** 9)
    for ft in (None, 200):  # the CPU default; slices of one or a few sequences
        e, sliced = run(ft)
        calls = e.stats.pop("forward_calls")
        assert calls > whole_e.stats["forward_calls"]  # the batches did run in slices
        assert e.stats == {k: v for k, v in whole_e.stats.items() if k != "forward_calls"}  # same batches, padding
        for a, b in zip(whole, sliced):
            for k, v in a.to_arrays().items():
                assert np.array_equal(v, b.to_arrays()[k]), (ft, k)


@needs_minilm
def test_last_layer_on_the_rows_read_gives_the_full_pass_bit_for_bit():
    """On a CPU in fp32 the last layer runs on the positions read only (masked words' first pieces, CLS;
    sumeval.lm.read_rows): the arrays equal the full forward pass exactly (float32 storage: no rounding
    hides a difference), in batches of many short passes, of long windows and of a tail under MIN_TAIL_ROWS."""
    sentence = "The committee met again on Tuesday and discussed the budget for next year . "
    texts = [SHORT, "A short one.", NON_ASCII, "Tottenham drew 0-0 with Burnley on Sunday afternoon at home.",
             sentence * 12, "Yes.", sentence * 45]
    runs = {}
    for rows_only in (False, None, True):  # the full pass; the CPU fp32 default; asked for
        e = MaskedEmbedder("minilm", device="cpu", cache=False, store_dtype="float32", last_layer_rows=rows_only)
        ffn = e.loaded.model.encoder.layer[-1].output.dense  # the last layer's feed-forward output
        seen = []
        hook = ffn.register_forward_hook(lambda _m, args, _o: seen.append(args[0].numel() // args[0].shape[-1]))
        try:
            runs[rows_only] = (e.embed_many(texts), dict(e.stats))
        finally:
            hook.remove()
        # the last layer ran on every padded position, or on the rows read (fewer: words 8 apart)
        rows = sum(seen)
        assert rows == e.stats["padded_tokens"] if rows_only is False else rows < e.stats["padded_tokens"] / 2
    full, full_stats = runs[False]
    for rows_only in (None, True):
        got, stats = runs[rows_only]
        assert stats == full_stats  # the same batches, slices and padding
        for a, b in zip(full, got):
            for k, v in a.to_arrays().items():
                assert np.array_equal(v, b.to_arrays()[k]), (rows_only, k)


needs_mpnet = pytest.mark.skipif(not _have("all-mpnet-base-v2"), reason="all-mpnet-base-v2 is not installed")


@pytest.mark.parametrize("model", [pytest.param("minilm", marks=needs_minilm),
                                   pytest.param("all-mpnet-base-v2", marks=needs_mpnet)])
def test_states_at_the_rows_read_equal_the_full_hidden_states(model):
    """read_rows.states_at against the model's own output_hidden_states (BERT: MiniLM; MPNet: the default
    model), on padded batches, one and two threads: every layer's states and CLS equal exactly."""
    import torch

    from sumeval.lm.read_rows import has_tail, states_at

    loaded = load_model(model, device="cpu")
    net = loaded.model
    assert has_tail(net)
    g = torch.Generator().manual_seed(0)
    threads = torch.get_num_threads()
    try:
        for n_threads in (1, 2):
            torch.set_num_threads(n_threads)
            for n_seq, length in ((2, 300), (12, 40), (1, 6)):
                ids = torch.randint(1000, 20000, (n_seq, length), generator=g)
                att = torch.ones(n_seq, length, dtype=torch.long)
                for b in range(1, n_seq):  # padded rows, as in the engine's batches
                    att[b, length - b * length // (2 * n_seq):] = 0
                ids[att == 0] = loaded.tokenizer.pad_token_id
                ids[:, 0] = loaded.tokenizer.cls_token_id
                r = torch.tensor([b for b in range(n_seq) for _ in range(1, length, 9)])
                c = torch.tensor([c for _ in range(n_seq) for c in range(1, length, 9)])
                with torch.inference_mode():
                    hs = net(input_ids=ids, attention_mask=att, output_hidden_states=True).hidden_states
                    states, cls = states_at(net, ids, att, r, c)
                assert states.shape == (len(r), len(hs), net.config.hidden_size)
                assert torch.equal(states, torch.stack([h[r, c] for h in hs], dim=1)), (n_threads, n_seq)
                assert torch.equal(cls, torch.stack([h[:, 0] for h in hs], dim=1)), (n_threads, n_seq)
    finally:
        torch.set_num_threads(threads)


@needs_minilm
def test_reduced_precision_runs_whole_batches_by_default():
    """bf16's kernels depend on the batch's size, so only fp32 is sliced unless asked."""
    import warnings

    from sumeval.lm import SlowPrecisionWarning

    texts = [SHORT, "The committee met again on Tuesday and discussed the budget for next year . " * 12]
    calls = {}
    for ft in (None, 10 ** 9):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SlowPrecisionWarning)  # an emulating CPU is slow, not wrong
            e = MaskedEmbedder("minilm", device="cpu", precision="bf16", cache=False, forward_tokens=ft)
            e.embed_many(texts)
        calls[ft] = e.stats["forward_calls"]
    assert calls[None] == calls[10 ** 9]


def test_forward_tokens_must_be_positive():
    with pytest.raises(InputError, match="forward_tokens must be >= 1"):
        MaskedEmbedder("minilm", device="cpu", cache=False, forward_tokens=0)


@needs_minilm
def test_text_longer_than_one_window(minilm_store):
    sentence = "The committee met again on Tuesday and discussed the budget for next year . "
    text = sentence * 45  # ~630 words, ~630 pieces: more than one 450-piece window
    e = _embedder(minilm_store, store_dtype="float16")
    r = e.embed(text)
    assert r.n_words == 14 * 45 and r.emb.dtype == np.float16
    assert r.cls.shape[0] > 8  # more than one window per group
    assert np.isfinite(r.emb.astype(np.float32)).all()
    # the same word in the same context far into the text gets (nearly) the same embedding as early on
    # only when its window context matches; at least every word got a non-zero embedding
    assert (np.abs(r.emb.astype(np.float32)).sum(axis=(1, 2)) > 0).all()


@needs_minilm
def test_empty_and_non_ascii_texts_are_defined(minilm_store):
    e = _embedder(minilm_store)
    empty, blank, na = e.embed_many(["", "   \n ", NON_ASCII])
    for r in (empty, blank):
        assert r.n_words == 0 and r.emb.shape == (0, 7, 384) and r.cls.shape == (0, 7, 384)
    assert na.n_words > 10 and np.isfinite(na.emb).all()
    assert "東" in "".join(na.words) or "東京" in na.words
    with pytest.raises(InputError, match="texts\\[1\\]"):
        e.embed_many(["ok", None])  # type: ignore[list-item]
    with pytest.raises(InputError, match="layer 9"):
        na.layer(9)


@needs_minilm
def test_interrupted_run_resumes_with_identical_results(tmp_path, monkeypatch):
    texts = [f"Document number {i} tells how the {i}th team won the cup after extra time ." for i in range(6)]
    ref = MaskedEmbedder("minilm", device="cpu", cache=Store("m", root=tmp_path / "a"),
                         store_dtype="float32", chunk_passes=16).embed_many(texts)
    store = Store("m", root=tmp_path / "b")
    e = MaskedEmbedder("minilm", device="cpu", cache=store, store_dtype="float32", chunk_passes=16)
    real_put = store.put_arrays
    calls = {"n": 0}

    def flaky(key, arrays):
        calls["n"] += 1
        if calls["n"] > 2:
            raise KeyboardInterrupt("simulated interruption")
        return real_put(key, arrays)

    monkeypatch.setattr(store, "put_arrays", flaky)
    with pytest.raises(KeyboardInterrupt):
        e.embed_many(texts)
    monkeypatch.setattr(store, "put_arrays", real_put)
    e2 = MaskedEmbedder("minilm", device="cpu", cache=store, store_dtype="float32", chunk_passes=16)
    got = e2.embed_many(texts)
    assert e2.stats["texts_from_cache"] == 2 and e2.stats["texts_computed"] == 4
    for a, b in zip(ref, got):
        assert np.array_equal(a.emb, b.emb) and np.array_equal(a.cls, b.cls)


@needs_minilm
def test_bad_engine_options():
    with pytest.raises(InputError, match="'float8'"):
        MaskedEmbedder("minilm", precision="float8", cache=False)
    with pytest.raises(InputError, match="window"):
        MaskedEmbedder("minilm", window=40, margin=50, cache=False)
