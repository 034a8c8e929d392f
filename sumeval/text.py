"""Sentence tags of the CNN/DM family: ``<t> sentence one . </t> <t> two . </t>``.

REALSumm releases its summaries and references with each sentence between ``<t>`` and ``</t>``
(the CNN/DM convention). Every measure and query builder that reads such text uses these
helpers, so the tags are handled one way everywhere.

>>> strip_sentence_tags("<t> a . </t> <t> b </t>")
'  a .     b  '
>>> tagged_sentences("<t> a . </t> <t> b </t>")
[' a . ', ' b ']
>>> has_sentence_tags("no tags here")
False
"""
from __future__ import annotations

import re

__all__ = ["SENTENCE_TAG", "TAGGED_SENTENCE", "strip_sentence_tags", "tagged_sentences", "has_sentence_tags"]

#: an opening or closing sentence tag
SENTENCE_TAG = re.compile(r"</?t>")
#: one tagged sentence; group 1 is its text (may span lines)
TAGGED_SENTENCE = re.compile(r"<t>(.*?)</t>", re.S)


def strip_sentence_tags(text: str) -> str:
    """Replace every ``<t>`` and ``</t>`` of ``text`` by one space (nothing else changes).

    Args:
        text: any text; untagged text comes back unchanged.

    Returns:
        The text without tags, of the same words in the same order.
    """
    return SENTENCE_TAG.sub(" ", text)


def tagged_sentences(text: str) -> list[str]:
    """The contents of the closed ``<t> ... </t>`` pairs of ``text``, in order, unstripped.

    Args:
        text: tagged text; text outside the pairs (or after an unclosed ``<t>``) is not returned.

    Returns:
        One string per closed pair; ``[]`` for untagged text.
    """
    return TAGGED_SENTENCE.findall(text)


def has_sentence_tags(text: str) -> bool:
    """True when ``text`` holds an opening ``<t>`` tag."""
    return "<t>" in text
