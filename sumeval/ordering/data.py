"""Text-ordering data of paper 002 (Liu, Zeng & Li): one import for the sets, their entities and
the vocabulary, which live in four modules:

- :mod:`sumeval.ordering.documents` - :class:`OrderingDocument`, :class:`OrderingSet` and the
  recorded shuffles (:func:`shuffle_for`);
- :mod:`sumeval.ordering.sets` - the loaders (``load_ordering_set(name, split)``: NIPS, SIND,
  ROC at the sentence level; Wikipedia, BBC, Reuters at the paragraph level);
- :mod:`sumeval.ordering.entities` - NIPS entity files and spaCy entities for SE-Graph
  (:func:`with_entities`);
- :mod:`sumeval.ordering.vocabulary` - tokens, :class:`Vocabulary`, GloVe vectors.

Every public name of the four is importable from ``sumeval.ordering.data``.
"""
from sumeval.ordering.documents import OrderingDocument, OrderingSet, shuffle_for
from sumeval.ordering.entities import SPACY_PIPELINE, load_spacy, parse_entity_line, spacy_entities, with_entities
from sumeval.ordering.sets import (PARAGRAPH_SETS, SENTENCE_SETS, SPLITS, clean_paragraphs, load_nips,
                                   load_ordering_set, load_paragraph_set, load_roc, load_sind)
from sumeval.ordering.vocabulary import (PAD, UNK, Vocabulary, build_vocabulary, embedding_matrix, load_glove,
                                         set_tokens, tokenize)

__all__ = [
    "OrderingDocument",
    "OrderingSet",
    "SENTENCE_SETS",
    "PARAGRAPH_SETS",
    "SPLITS",
    "shuffle_for",
    "load_ordering_set",
    "load_nips",
    "load_sind",
    "load_roc",
    "load_paragraph_set",
    "parse_entity_line",
    "clean_paragraphs",
    "tokenize",
    "set_tokens",
    "Vocabulary",
    "build_vocabulary",
    "load_glove",
    "embedding_matrix",
    "spacy_entities",
    "load_spacy",
    "with_entities",
    "SPACY_PIPELINE",
    "PAD",
    "UNK",
]
