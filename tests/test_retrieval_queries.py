"""Query reformulation: escaping of Whoosh query syntax, keywords, spaCy-based variants."""
import pytest

from sumeval.errors import InputError
from sumeval.retrieval import whoosh_backend as wb
from sumeval.retrieval.queries import escape_query, keywords, reformulate, strip_sentence_tags

NASTY = [
    'title:"Big Cats" AND (lions OR tigers) NOT zoo',
    "wild* car? ^2 boost^3 +must -mustnot [a TO z] {b TO c}",
    "it's the U.S. economy, 3.5% growth; e-mail x_y@z.com ANDNOT ANDMAYBE REQUIRE",
    "'single quoted' \\escaped (((unbalanced \"quote",
    "<t> first sentence . </t> <t> second : one </t>",
    "café naïve Zürich 東京",
    "AND OR NOT",
    "content:secret",
]


def test_escape_examples():
    assert escape_query('title:"Big" AND (cats* OR dogs^2)') == "title Big and cats or dogs 2"
    assert escape_query("the U.S. in 3.5 days") == "the U.S in 3.5 days"
    assert escape_query("*?:^()[]{}\"'+-") == ""
    assert escape_query("TOTAL ORANGE NOTE") == "TOTAL ORANGE NOTE"   # only whole operator words change


@pytest.mark.parametrize("text", NASTY)
def test_escaped_query_parses_to_an_or_of_the_analysed_words(text):
    """Whoosh's parser must see plain words: an OR (or one term) of exactly the distinct terms
    the analyzer finds in the escaped string, no field, phrase, wildcard, range or boost."""
    q = escape_query(text)
    parsed = wb.parse_query(q)
    expected = list(dict.fromkeys(wb.analyze(q)))
    assert wb.query_terms(q) == expected
    kind = type(parsed).__name__
    if len(expected) > 1:
        assert kind == "Or"
        assert all(type(s).__name__ == "Term" and s.boost == 1.0 for s in parsed.subqueries)
    elif len(expected) == 1:
        assert kind == "Term"
    for t in expected:
        assert "*" not in t and "?" not in t


def test_escaping_keeps_the_words_of_the_text():
    # without wildcards, the escaped string analyses to the text's own terms
    text = 'title:"Big Cats" AND (lions OR tigers) NOT zoo, the U.S. economy'
    assert wb.analyze(escape_query(text)) == [t for t in wb.analyze(text)]


def test_strip_sentence_tags():
    assert strip_sentence_tags("<t> a . </t> <t> b </t>").split() == ["a", ".", "b"]


def test_keywords_match_scikit_learn():
    text = "The cat sat on the mat. A dog barked! Then the cat ran away from the dog"
    got = keywords(text)
    assert "cat sat on" in got and "cat" in got and "mat" in got
    assert "mat a" not in got   # no n-gram across a sentence end
    sk = pytest.importorskip("sklearn.feature_extraction.text")
    sents = ["The cat sat on the mat.", "A dog barked!", "Then the cat ran away from the dog"]
    v = sk.TfidfVectorizer(ngram_range=(1, 3)).fit(sents)
    assert got == sorted(v.get_feature_names_out().tolist())


def test_raw_and_kw_need_no_spacy():
    assert reformulate(["<t> Obama AND Merkel: talks </t>"], "raw") == ["Obama and Merkel talks"]
    kw = reformulate(["a b cc dd"], "kw")[0].split()
    assert set(kw) == {"cc", "dd"}


def test_unknown_reformulation():
    with pytest.raises(InputError, match="'nouns'"):
        reformulate(["x"], "nouns")


@pytest.mark.slow
def test_spacy_reformulations():
    text = "The European Commission approved new rules for large banks on Monday."
    np_q, ge, ge_pn = (reformulate([text], k)[0] for k in ("np", "gesera", "gesera-pn"))
    assert "rules" in np_q.split() and "banks" in np_q.split()
    assert {"approved", "new", "rules", "large", "banks"} <= set(ge.split())
    assert "The" not in ge.split() and "for" not in ge.split()
    assert "Commission" not in ge.split() and "Commission" in ge_pn.split()
    # nothing but stop words: a query without terms (the scorers' "empty query")
    assert wb.analyze(reformulate(["of the and"], "np")[0]) == []
    assert reformulate(["of the and"], "gesera") == [""]
