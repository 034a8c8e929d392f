"""Indexes: the sparse BM25F equals Whoosh's, Whoosh's length byte, caching by parameters."""
import json

import numpy as np
import pytest

from sumeval.datasets.corpora import open_corpus
from sumeval.errors import InputError
from sumeval.retrieval import sparse_backend as sb
from sumeval.retrieval import whoosh_backend as wb
from sumeval.retrieval.index import build_index, list_indexes, parse_index_name, shuffle_order
from sumeval.retrieval.queries import escape_query

QUERIES = [
    "the government will raise taxes on oil companies and banks",
    "Chelsea beat Arsenal in the cup final",
    "new mobile phone technology sales rise",
    "film awards ceremony actress",
    "a is the",                       # no term at all
    "zzzunknownword",                 # a term in no document
    "prime minister election labour party tax plans",
]


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """120 BBC articles (all five categories) as a user's JSONL corpus."""
    docs = open_corpus("bbc2005").documents()
    pick = docs[::18][:120]
    p = tmp_path_factory.mktemp("corpus") / "bbc120.jsonl"
    with p.open("w", encoding="utf-8") as fh:
        for d in pick:
            fh.write(json.dumps({"id": d.id, "title": d.title, "text": d.text}) + "\n")
    return p


@pytest.fixture(scope="module")
def cache_root(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


def test_length_byte_matches_whoosh():
    lengths = np.concatenate([np.arange(0, 3000), np.arange(3000, 120000, 37), [106373, 106374, 10**7]])
    ours = sb.length_to_byte(lengths)
    theirs = np.array([wb.length_to_byte(int(x)) for x in lengths])
    assert (ours == theirs).all()
    assert (sb.byte_to_length(np.arange(256)) == np.array([wb.byte_to_length(b) for b in range(256)])).all()
    # hand values: 11 is stored as byte 11 -> 12; 1000 -> the first table entry >= 1000 is 1032
    assert sb.byte_to_length(sb.length_to_byte(11)) == 12
    assert sb.byte_to_length(sb.length_to_byte(1000)) == 1032


def test_a_query_is_analysed_once_per_process():
    """Queries are remembered (the size sweep searches the same summaries in 44 indexes); the
    terms are Whoosh's StemmingAnalyzer's: lower case, stop words and 1-letter words out, stems."""
    q = "The runners were running in the rain, a RACE of races"
    terms = wb.analyze_query(q)
    assert terms == tuple(wb.analyze(q))
    assert terms[0] == "runner" and terms.count("race") == 2 and "rain" in terms  # "RACE", "races": one stem
    assert not {"the", "in", "a", "of"} & set(terms)  # stop words and 1-letter words
    hits = wb.analyze_query.cache_info().hits
    wb.analyze_query(q)
    assert wb.analyze_query.cache_info().hits == hits + 1


def test_sparse_scores_equal_whoosh(small_corpus, cache_root):
    s = build_index(small_corpus, 100, 3, "sparse", root=cache_root)
    w = build_index(small_corpus, 100, 3, "whoosh", root=cache_root)
    assert s.ids == w.ids
    searcher = w.searcher
    eng = s.engine
    # field lengths: Whoosh stores the one-byte code; avgfl is exact
    true_len = s.engine.matrix.lengths[s.engine.rows]
    stored = np.array([searcher.field_length(d) for d in range(100)])
    assert (stored == sb.byte_to_length(sb.length_to_byte(true_len))).all()
    assert (stored != true_len).any()          # the encoding is lossy here
    assert searcher.avg_field_length() == pytest.approx(eng.avgfl, rel=1e-15)
    qs = [escape_query(q) for q in QUERIES]
    terms = [wb.analyze(q) for q in qs]
    ours = eng.top_k(terms, 100, with_scores=True)
    for q, mine in zip(qs, ours):
        theirs = searcher.search_scored(q, 100)
        assert [d for d, _ in mine] == [d for d, _ in theirs], q
        assert np.allclose([x for _, x in mine], [x for _, x in theirs], rtol=1e-12, atol=0)
    assert s.search(qs, 10) == w.search(qs, 10)
    assert s.search([qs[4]], 10) == [[]] and s.search([qs[5]], 10) == [[]]


def test_idf_hand_computed(small_corpus, cache_root):
    s = build_index(small_corpus, 100, 3, "sparse", root=cache_root)
    eng = s.engine
    j = eng._col["govern"]
    df = int(eng.df[j])
    assert eng.idf[j] == pytest.approx(np.log(100 / (df + 1)) + 1)


def test_ties_lower_document_number_first(tmp_path):
    p = tmp_path / "dup.jsonl"
    rows = [{"id": f"d{i}", "text": t} for i, t in
            enumerate(["apple banana", "cherry", "apple banana", "apple banana", "date"])]
    p.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    s = build_index(p, 5, 0, "sparse", root=tmp_path / "c")
    w = build_index(p, 5, 0, "whoosh", root=tmp_path / "c")
    docnums = s.search_docnums(["apple"], 10)[0]
    assert docnums == sorted(docnums) and len(docnums) == 3
    assert s.search(["apple"], 10) == w.search(["apple"], 10)


def test_shuffle_is_seeded_and_recorded(small_corpus, cache_root):
    s = build_index(small_corpus, 50, 7, "sparse", root=cache_root)
    order = shuffle_order(120, 7)[:50]
    all_ids = [d.id for d in open_corpus(small_corpus)]
    assert s.ids == [all_ids[i] for i in order]
    spec = s.meta["spec"]
    assert (spec["n"], spec["seed"], spec["backend"]) == (50, 7, "sparse") and s.meta["n_corpus"] == 120


def test_sparse_indexes_of_one_collection_read_it_once(tmp_path, monkeypatch):
    """The size sweep builds many sparse indexes of one collection: its texts are read (and
    analysed) for the first only; the others take the ids and the cached term matrix, and are the
    indexes a fresh process builds (ids, shuffle, documents skipped, search results)."""
    from sumeval.datasets import corpora
    from sumeval.retrieval import index as ix_mod

    rows = [{"id": f"d{i}", "text": t} for i, t in
            enumerate(["apple banana", "kiwi", "cherry apple", "banana date", "apple", "date fig", "fig"])]
    p = tmp_path / "c.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    reads = []
    real = corpora.Corpus.documents
    monkeypatch.setattr(corpora.Corpus, "documents", lambda self: reads.append(1) or real(self))
    ix_mod._CORPUS_IDS.clear()
    first = build_index(p, 3, 0, "sparse", root=tmp_path / "c")
    later = [build_index(p, n, seed, "sparse", root=tmp_path / "c") for n, seed in ((4, 0), (5, 1), (6, 2))]
    assert len(reads) == 1
    ix_mod._CORPUS_IDS.clear()  # as a fresh process: read the collection again
    fresh = build_index(p, 5, 1, "sparse", root=tmp_path / "f")
    assert len(reads) == 2
    assert fresh.ids == later[1].ids and fresh.meta["ids"] == later[1].meta["ids"]
    assert later[1].meta["skipped_empty"] == fresh.meta["skipped_empty"] == first.meta["skipped_empty"] == 0
    assert later[1].meta["n_corpus"] == fresh.meta["n_corpus"] == 7
    assert later[1].search(["apple fig", "date"], 3) == fresh.search(["apple fig", "date"], 3)


def test_changing_n_or_seed_never_reuses_an_index(small_corpus, cache_root):
    a = build_index(small_corpus, 40, 1, "sparse", root=cache_root)
    b = build_index(small_corpus, 41, 1, "sparse", root=cache_root)
    c = build_index(small_corpus, 40, 2, "sparse", root=cache_root)
    d = build_index(small_corpus, 40, 1, "whoosh", root=cache_root)
    assert len({a.key, b.key, c.key, d.key}) == 4
    assert len(a.ids) == 40 and len(b.ids) == 41 and a.ids != c.ids
    assert a.folder != b.folder != c.folder
    again = build_index(small_corpus, 40, 1, "sparse", root=cache_root)
    assert again.key == a.key and again.ids == a.ids


def test_changed_corpus_content_gets_a_new_index(tmp_path):
    p = tmp_path / "c.jsonl"
    p.write_text('{"id": "a", "text": "alpha beta"}\n{"id": "b", "text": "gamma"}\n', encoding="utf-8")
    k1 = build_index(p, 2, 0, "sparse", root=tmp_path / "c").key
    p.write_text('{"id": "a", "text": "alpha beta"}\n{"id": "b", "text": "delta"}\n', encoding="utf-8")
    ix = build_index(p, 2, 0, "sparse", root=tmp_path / "c")
    assert ix.key != k1 and ix.search(["delta"], 5) == [["b"]]


def test_interrupted_build_is_detected_and_rebuilt(small_corpus, tmp_path, monkeypatch):
    root = tmp_path / "c"
    calls = {"n": 0}
    real = wb.build

    def crash(folder, docs, **kw):
        calls["n"] += 1
        next(iter(docs))
        raise KeyboardInterrupt("simulated interruption")

    monkeypatch.setattr(wb, "build", crash)
    with pytest.raises(KeyboardInterrupt):
        build_index(small_corpus, 30, 0, "whoosh", root=root)
    assert [r for r in list_indexes(root) if r["complete"]] == []
    monkeypatch.setattr(wb, "build", real)
    ix = build_index(small_corpus, 30, 0, "whoosh", root=root)
    assert len(ix.ids) == 30 and calls["n"] == 1
    ix.close()
    # a folder that lost its COMPLETE marker (e.g. killed by an older writer) is rebuilt
    (ix.folder / "COMPLETE").unlink()
    with pytest.warns(UserWarning, match="interrupted build"):
        ix2 = build_index(small_corpus, 30, 0, "whoosh", root=root)
    assert (ix2.folder / "COMPLETE").is_file() and ix2.ids == ix.ids
    ix2.close()
    # recorded parameters that disagree with the key are never trusted
    meta = json.loads((ix2.folder / "meta.json").read_text())
    meta["spec"]["seed"] = 99
    (ix2.folder / "meta.json").write_text(json.dumps(meta))
    with pytest.warns(UserWarning, match="parameters differ"):
        ix3 = build_index(small_corpus, 30, 0, "whoosh", root=root)
    assert ix3.meta["spec"]["seed"] == 0
    ix3.close()


def test_bad_parameters_named(small_corpus, cache_root):
    with pytest.raises(InputError, match="n=500 exceeds the 120 documents"):
        build_index(small_corpus, 500, 0, "sparse", root=cache_root)
    with pytest.raises(InputError, match="'lucene'"):
        build_index(small_corpus, 10, 0, "lucene", root=cache_root)
    with pytest.raises(InputError, match="got -1"):
        build_index(small_corpus, 10, -1, "sparse", root=cache_root)
    with pytest.raises(InputError, match="list of query strings"):
        build_index(small_corpus, 10, 0, "sparse", root=cache_root).search("one string", 5)


def test_index_names():
    assert parse_index_name("wikipedia-2015:10000:3:whoosh") == {
        "corpus": "wikipedia-2015", "n": 10000, "seed": 3, "backend": "whoosh"}
    assert parse_index_name("news:500") == {"corpus": "news", "n": 500, "seed": 0, "backend": "sparse"}
    assert parse_index_name("/data/c.jsonl:20:1")["corpus"] == "/data/c.jsonl"


def test_list_indexes(small_corpus, cache_root):
    build_index(small_corpus, 40, 1, "sparse", root=cache_root)
    rows = list_indexes(cache_root)
    names = {r["name"] for r in rows if r["complete"]}
    assert f"{small_corpus}:40:1:sparse" in names


def test_group_term_matrix_is_its_members_concatenated():
    """A corpus group's term matrix built from its members' equals the one built from the
    group's documents directly (same ids, vocabulary order, counts, lengths)."""
    from sumeval.retrieval.sparse_backend import build_term_matrix, concat_term_matrices
    from sumeval.retrieval.whoosh_backend import analyze

    a = [("a1", "Cats chase mice. Mice eat cheese."), ("a2", "Dogs chase cats and cars")]
    b = [("b1", "Cheese from goats; goats eat grass"), ("b2", ""), ("b3", "Cars and dogs, dogs and cars")]
    whole = build_term_matrix(a + b, analyze)
    joined = concat_term_matrices([build_term_matrix(a, analyze), build_term_matrix(b, analyze)])
    assert joined.ids == whole.ids == ["a1", "a2", "b1", "b2", "b3"]
    assert joined.vocab == whole.vocab
    assert (joined.tf != whole.tf).nnz == 0 and joined.tf.has_sorted_indices
    assert joined.lengths.tolist() == whole.lengths.tolist()
    with pytest.raises(ValueError):
        concat_term_matrices([])
