"""Corpus iterators: shared collections, groups, a user's folder or JSONL, and bad input."""
import gzip
import itertools
import json

import pytest

from sumeval.datasets.corpora import Document, builtin_corpora, open_corpus
from sumeval.errors import InputError


def _first(corpus, n=2):
    return list(itertools.islice(iter(corpus), n))


def test_builtin_names():
    names = builtin_corpora()
    for n in ("wikipedia-2015", "wikipedia-2018", "reuters21578", "20newsgroups", "bbc2005",
              "wikipedia", "news"):
        assert n in names


def test_wikipedia_2015_first_document():
    d = _first(open_corpus("wikipedia-2015"), 1)[0]
    assert isinstance(d, Document)
    assert (d.id, d.title) == ("enwiki-12", "Anarchism")
    assert d.text.startswith("Anarchism is a political philosophy")


def test_20newsgroups_title_is_subject():
    d = _first(open_corpus("20newsgroups"), 1)[0]
    assert d.id.startswith("20ng-") and d.title == "Re: about the bible quiz answers"


def test_bbc_count_and_fields():
    docs = open_corpus("bbc2005").documents()
    assert len(docs) == 2225
    assert docs[0] == Document(docs[0].id, "Ad sales boost Time Warner profit", docs[0].text)


def test_reuters_skips_records_without_body():
    c = open_corpus("reuters21578")
    n = sum(1 for _ in c)
    assert n == 19043 and len(c.skipped) == 21578 - 19043


def test_groups_concatenate_members():
    news = open_corpus("news")
    assert _first(news, 1)[0].id.startswith("reuters-")
    wiki = open_corpus("wikipedia")
    assert len(wiki.files) == 2 and wiki.files[0].name.startswith("enwiki2015")


def test_folder_of_text_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "b.txt").write_text("second", encoding="utf-8")
    (tmp_path / "a.txt").write_text("first", encoding="utf-8")
    (tmp_path / "sub" / "c.txt").write_text("third", encoding="utf-8")
    (tmp_path / "notes.md").write_text("ignored", encoding="utf-8")
    docs = open_corpus(tmp_path).documents()
    assert [(d.id, d.title, d.text) for d in docs] == [
        ("a", "a", "first"), ("b", "b", "second"), ("sub/c", "c", "third")]


def test_empty_folder_is_an_error(tmp_path):
    with pytest.raises(InputError, match="no .txt files"):
        open_corpus(tmp_path).documents()


def test_jsonl_and_gz(tmp_path):
    rows = [{"id": "x1", "title": "T", "text": "hello"}, {"id": 7, "text": "world"}]
    p = tmp_path / "c.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert open_corpus(p).documents() == [Document("x1", "T", "hello"), Document("7", "", "world")]
    g = tmp_path / "c.jsonl.gz"
    with gzip.open(g, "wt", encoding="utf-8") as fh:
        fh.write(p.read_text(encoding="utf-8"))
    assert open_corpus(str(g)).documents() == open_corpus(p).documents()


@pytest.mark.parametrize("line, message", [
    ('{"id": "a"}', r"c\.jsonl:2: field 'text' is missing or empty for id 'a'"),
    ('{"text": "t"}', r"c\.jsonl:2: field 'id' is missing"),
    ("not json", r"c\.jsonl:2: not valid JSON"),
    ('["a", "b"]', r"c\.jsonl:2: expected a JSON object"),
    ('{"id": "ok", "text": "again"}', r"document id 'ok' occurs twice"),
])
def test_bad_jsonl_lines_are_named(tmp_path, line, message):
    p = tmp_path / "c.jsonl"
    p.write_text('{"id": "ok", "text": "fine"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        open_corpus(p).documents()


def test_bad_paths_and_names(tmp_path):
    with pytest.raises(InputError, match="'no-such-corpus'.*known collections: 20newsgroups"):
        open_corpus("no-such-corpus")
    bad = tmp_path / "c.csv"
    bad.write_text("a,b\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"unsupported file type '\.csv'"):
        open_corpus(bad)
    latin = tmp_path / "l.jsonl"
    latin.write_bytes(b'{"id": "a", "text": "caf\xe9"}\n')
    with pytest.raises(InputError, match="l.jsonl:1: not UTF-8"):
        open_corpus(latin).documents()


def test_fingerprint_follows_content(tmp_path):
    p = tmp_path / "c.jsonl"
    p.write_text('{"id": "a", "text": "one"}\n', encoding="utf-8")
    f1 = open_corpus(p).fingerprint()
    assert open_corpus(p).fingerprint() == f1
    p.write_text('{"id": "a", "text": "two"}\n', encoding="utf-8")
    assert open_corpus(p).fingerprint() != f1
