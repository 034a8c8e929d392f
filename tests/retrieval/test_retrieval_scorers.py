"""SERA scorers: names, hand-checkable retrieval, empty queries, cached lists."""
import math

import pytest

from sumeval.errors import InputError
from sumeval.metrics import score_records
from sumeval.metrics.base import Batch
from sumeval.retrieval.scorers import SeraScorer
from sumeval.retrieval.variants import MEASURES, measure_name

from helpers import PET_DOCS as DOCS  # noqa: E402  (tests/ is on the path)
from helpers import REPO_ROOT


def scorer(corpus, tmp_path, **kw):
    kw.setdefault("k", 5)
    return SeraScorer(corpus=str(corpus), size=len(DOCS), seed=0, cache_root=tmp_path / "cache", **kw)


def test_measure_names():
    assert measure_name(10) == "sera-10"
    assert measure_name(5, True) == "sera-dis-5"
    assert measure_name(10, True, "np") == "sera-dis-np-10"
    assert measure_name(10, False, "kw") == "sera-kw-10"
    assert measure_name(10, False, "gesera") == "gesera-10"
    assert measure_name(10, True, "gesera") == "gesera-dis-10"
    assert measure_name(10, False, "gesera-pn") == "gesera-pn-10"
    assert len(MEASURES) == 20 and MEASURES["gesera-dis-5"] == (5, True, "gesera")


def test_sera_on_known_lists(corpus, tmp_path):
    s = scorer(corpus, tmp_path)
    ix = s.index
    # "bird" retrieves {bird1, bird2}; "dog" retrieves {dog1, dog2}; "bird dog" retrieves all four
    assert set(ix.search(["bird"], 5)[0]) == {"bird1", "bird2"}
    batch = Batch(summaries=["bird", "bird dog", "dog"],
                  references=[["bird"], ["bird", "dog"], ["bird"]])
    got = s.score_batch(batch)["sera-5"]
    # row 0: overlap 2 / k=5;  row 1: (2/5 + 2/5) / 2;  row 2: no overlap
    assert got.tolist() == pytest.approx([0.4, 0.4, 0.0])


def test_sera_dis_on_known_lists(corpus, tmp_path):
    s = scorer(corpus, tmp_path, dis=True)
    ix = s.index
    cand, ref = ix.search(["bird seed"], 5)[0], ix.search(["bird"], 5)[0]
    # candidate: bird2 (both words) first, then bird1; reference: bird1 (shorter) first, then bird2
    assert cand == ["bird2", "bird1"] and ref == ["bird1", "bird2"]
    got = s.score_batch(Batch(summaries=["bird seed"], references=[["bird"]]))["sera-dis-5"][0]
    # bird2: j=0, l=1 -> 1/ln 3; bird1: j=1, l=0 -> 1/ln 3; D_max = 5 / ln 2
    assert got == pytest.approx((2 / math.log(3)) / (5 / math.log(2)))


def test_empty_query_is_not_scored_and_empty_references_are_left_out(corpus, tmp_path):
    s = scorer(corpus, tmp_path)
    batch = Batch(summaries=["the of and", "bird", "bird"], references=[["bird"], ["bird", "of the"], ["a is"]])
    out = s.score_batch(batch)
    got = out["sera-5"]
    # row 0: the summary's query is empty -> undefined (NaN, reported), not 0
    # row 1: "of the" has no term -> left out: the mean is over ["bird"] alone, overlap 2 / k=5
    # row 2: every reference's query is empty -> undefined
    assert math.isnan(got[0]) and got[1] == pytest.approx(0.4) and math.isnan(got[2])
    assert [i for i, _ in out.undefined] == [0, 2] and "summary is empty" in out.undefined[0][1]
    assert out.notes == [(1, "references with an empty raw query left out of the mean")]


def test_retrieved_lists_are_cached(corpus, tmp_path, monkeypatch):
    s = scorer(corpus, tmp_path)
    batch = Batch(summaries=["bird dog"], references=[["dog"]])
    first = s.score_batch(batch)["sera-5"]
    s2 = scorer(corpus, tmp_path)

    def boom(*a, **k):
        raise AssertionError("searched again")

    monkeypatch.setattr(type(s2.index), "search", boom)
    assert s2.score_batch(batch)["sera-5"].tolist() == first.tolist()


def test_score_records_and_options(corpus, tmp_path):
    recs = [{"summary": "cat fish", "references": ["fish", "cat"]}, {"summary": "", "references": ["x"]}]
    frame, report = score_records(recs, [scorer(corpus, tmp_path, k=10)])
    assert frame["sera-10"].iloc[0] > 0 and math.isnan(frame["sera-10"].iloc[1])
    assert report.skipped == [(1, "sera-10", "empty summary")]
    sig = report.signatures["sera-10"]
    assert f"index={corpus}:7:0:sparse" in sig and "reformulation=raw" in sig
    ge = SeraScorer(10, False, "gesera", index=f"{corpus}:7:0", cache_root=tmp_path)
    _, report = score_records(recs[:1], [ge])
    assert "tagger=averaged-perceptron,lowercased,textblob-aptagger=0.2.0" in report.signatures["gesera-10"]


def test_index_option_and_bad_options(corpus, tmp_path):
    s = SeraScorer(index=f"{corpus}:5:2:whoosh", cache_root=tmp_path)
    assert (s.size, s.seed, s.backend) == (5, 2, "whoosh")
    with pytest.raises(InputError, match="'bm25'"):
        SeraScorer(backend="bm25")
    with pytest.raises(InputError, match="'nouns'"):
        SeraScorer(reformulation="nouns")


def test_backends_agree_on_scores(corpus, tmp_path):
    batch = Batch(summaries=["bird seed dog", "cat fish"], references=[["bird", "dog bone"], ["fish"]])
    a = scorer(corpus, tmp_path, backend="sparse", dis=True).score_batch(batch)["sera-dis-5"]
    b = scorer(corpus, tmp_path, backend="whoosh", dis=True).score_batch(batch)["sera-dis-5"]
    assert a.tolist() == pytest.approx(b.tolist())


def test_realsumm_records_for_the_benchmark():
    import importlib.util

    path = REPO_ROOT / "benchmarks" / "bench_retrieval.py"
    spec = importlib.util.spec_from_file_location("bench_retrieval", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    recs = bench.realsumm_records()
    assert len(recs) == 2500 and len({r["system"] for r in recs}) == 25
    assert not any("<t>" in r["summary"] or "</t>" in r["references"][0] for r in recs)


def test_retrieved_lists_of_another_tagger_are_not_reused(corpus, tmp_path, monkeypatch):
    from sumeval.retrieval import queries
    from sumeval.retrieval import scorers as sc
    from sumeval.retrieval.index import build_index

    ix = build_index(str(corpus), 7, 0, root=tmp_path)
    calls = []
    real = queries.reformulate_cached

    def counting(texts, kind, **kw):
        calls.append(list(texts))
        return real(texts, kind, **kw)

    monkeypatch.setattr(sc, "reformulate_cached", counting)
    sc.retrieve_lists(ix, ["cats eat fish"], "gesera", root=tmp_path)
    sc.retrieve_lists(ix, ["cats eat fish"], "gesera", root=tmp_path)
    assert len(calls) == 1  # the second call reads the cache
    monkeypatch.setattr(sc, "tagger_id", lambda kind: "another-tagger-2.0")
    sc.retrieve_lists(ix, ["cats eat fish"], "gesera", root=tmp_path)
    assert len(calls) == 2  # a new tagger: lists made again, not read back
