"""The names of the ordering data sets, without loading anything (no numpy): ``sumeval ordering``'s
``--set`` choices are built from these when the command's parser is, on every ``sumeval`` start;
the loaders are :mod:`sumeval.ordering.sets`."""
from __future__ import annotations

__all__ = ["SENTENCE_SETS", "PARAGRAPH_SETS", "SPLITS"]

SENTENCE_SETS = ("nips", "sind", "roc")
PARAGRAPH_SETS = ("wikipedia", "bbc", "reuters")
SPLITS = ("train", "dev", "test")
