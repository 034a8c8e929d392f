"""The one interface every measure implements.

A :class:`Scorer` is built once (loading any model or index once) and scores many summaries.
It declares which fields it reads (``needs``), the output columns it writes and a signature
string that records everything that changes its numbers (measure, options, library versions),
stored with every score.

Implementations only score well-formed rows; :func:`sumeval.metrics.score_records` does the
checking (empty summaries, missing references) and reports every row it could not score.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError

__all__ = ["FIELDS", "MeasureInfo", "Batch", "MEMO_LIMIT", "remember", "batch_references", "reference_list", "Scorer",
           "Scores"]

FIELDS = ("summary", "text", "references")


@dataclass(frozen=True)
class MeasureInfo:
    """A registered measure: its name, where its scorer lives and its default options.

    ``alias_of`` names the measure this one is another name of ("" for none): the same scorer
    class, its outputs under this name.
    """

    name: str
    target: str  # "module:Class"
    defaults: Mapping[str, Any] = field(default_factory=dict)
    needs: tuple[str, ...] = ()
    description: str = ""
    alias_of: str = ""


@dataclass(frozen=True)
class Batch:
    """Aligned inputs for one call of :meth:`Scorer.score_batch` (all lists of length n).

    ``texts`` is None unless the scorer needs ``text``; ``references`` is None unless it needs
    ``references``. Every summary is non-empty; every reference list is non-empty.
    """

    summaries: Sequence[str]
    texts: Sequence[str] | None = None
    references: Sequence[Sequence[str]] | None = None

    def __len__(self) -> int:
        return len(self.summaries)


#: the most entries a scorer's per-text memo holds before it starts again
MEMO_LIMIT = 200_000


def remember(memo: dict, key: str, value: object, limit: int = MEMO_LIMIT) -> object:
    """Store ``value`` under ``key`` in a scorer's per-text memo and return it; a memo grown past
    ``limit`` entries is emptied first (memory stays bounded on long runs).

    >>> memo = {}
    >>> remember(memo, "a cat", ["a", "cat"]), len(memo)
    (['a', 'cat'], 1)
    """
    if len(memo) > limit:
        memo.clear()
    memo[key] = value
    return value


def batch_references(name: str, batch: Batch) -> Sequence[Sequence[str]]:
    """The reference lists of ``batch`` for the measure ``name``.

    Raises:
        InputError: the batch carries no references.
    """
    if batch.references is None:
        raise InputError(f"{name} needs references; the batch has none")
    return batch.references


def reference_list(name: str, summary: str, references: str | Sequence[str]) -> Sequence[str]:
    """The references of one summary as a list (a lone string is one reference).

    Args:
        name: the measure, for the message.
        summary: the summary scored, for the message.
        references: a string or a sequence of strings.

    Raises:
        InputError: no reference.

    >>> reference_list("bleu", "a cat", "the cat")
    ['the cat']
    """
    if isinstance(references, str):
        references = [references]
    if not references:
        raise InputError(f"{name}: no references given for summary {summary[:60]!r}")
    return references


class Scores(dict):
    """What :meth:`Scorer.score_batch` returns: ``{column: array of n floats}`` (a dict), and for
    the rows it could not score or scored with a caveat, why:

    * ``undefined``: ``[(row in batch, reason), ...]``, one for each row left NaN (e.g. the
      coherence of a one-word summary); :func:`~sumeval.metrics.score_records` reports the row as
      not scored with that reason;
    * ``notes``: ``[(row in batch, note), ...]`` for rows scored with a caveat (an empty reference
      left out of the mean).

    A plain dict is a :class:`Scores` without reasons: its NaN rows are not scored, with a warning.

    >>> out = Scores({"m": [0.5, float("nan")]}, undefined=[(1, "the summary has one word")])
    >>> out["m"][0], out.undefined
    (0.5, [(1, 'the summary has one word')])
    """

    def __init__(self, columns: Mapping[str, Any] | None = None, *,
                 undefined: Sequence[tuple[int, str]] = (), notes: Sequence[tuple[int, str]] = ()):
        super().__init__(columns or {})
        self.undefined = list(undefined)
        self.notes = list(notes)


class Scorer(abc.ABC):
    """Base class of all measures - sumeval's own and a user's.

    A subclass sets

    * ``name``: the measure as users type it and tables show it (``"rouge-1"``); a user class
      without one is named after the class;
    * ``needs``: the fields it reads besides ``summary``: ``"text"`` (the source document) and/or
      ``"references"`` (a list of reference summaries);
    * ``higher_is_better``: False for a measure whose lower values are better (a divergence, a
      count of errors); tables then show it negated and say so;
    * ``version`` (user classes): changes whenever its numbers may change; recorded in the
      signature, so cached scores of an older version are not reused (when it is unset, the
      installed distribution's version is used);

    and implements

    * :meth:`columns`: the names of its outputs, e.g. ``["rouge-1-p", "rouge-1-r", "rouge-1-f"]``
      (the main output, shown when the measure is named alone, is ``"{name}-f"`` when there is
      one, else the first column);
    * :meth:`score_batch`: given a :class:`Batch` of n rows, ``{column: array of n floats}``
      (NaN where undefined): a :class:`Scores`, which says why each NaN row is undefined, or a
      plain dict;
    * optionally :meth:`options` and :meth:`versions`: what else changes its numbers.

    Constructor keyword arguments are its options (``rouge-2[use_stemmer=false]``, or
    ``--layer 9`` for every measure that takes ``layer``). Build expensive things (a model) once,
    on first use, not per batch. A worked example: ``examples/fragments.py``.
    """

    name: str = ""
    needs: tuple[str, ...] = ()
    higher_is_better: bool = True
    description: str = ""
    #: user classes: the version of the measure's code, recorded in the signature
    version: str | None = None

    @abc.abstractmethod
    def columns(self) -> list[str]:
        """Names of the output columns, e.g. ``["rouge-1-p", "rouge-1-r", "rouge-1-f"]``."""

    @abc.abstractmethod
    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        """Score ``batch``; return ``{column: float array of shape (len(batch),)}``, a
        :class:`Scores` where some rows are undefined (NaN) or scored with a caveat."""

    def options(self) -> dict[str, object]:
        """The options that change this scorer's numbers (recorded in the signature)."""
        return {}

    def versions(self) -> dict[str, str]:
        """Versions of the libraries this scorer's numbers depend on."""
        return {}

    def signature(self) -> str:
        """A string recording measure, options and versions, e.g.
        ``rouge-1|agg=mean|stemmer=True|rouge-score=0.1.2|sumeval=0.1.0``."""
        from sumeval import __version__

        parts = [self.name]
        parts += [f"{k}={v}" for k, v in sorted(self.options().items())]
        parts += [f"{k}={v}" for k, v in sorted(self.versions().items())]
        parts.append(f"sumeval={__version__}")
        return "|".join(parts)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.signature()}>"
