"""How a judge's answers become scores.

- ``logprobs``: G-Eval's probability-weighted score (Liu et al., EMNLP 2023, section 2.3 "Scoring
  Function", eq. 1: score = sum_i p(s_i) * s_i over the allowed labels s_i), with p renormalised
  over the allowed labels; the mass the model put on them (before renormalising) is recorded and
  warned about when low. The probabilities are those of the answer's first token.
- ``samples:N``: G-Eval's own estimate of eq. 1 with GPT-4, which gives no token probabilities:
  N sampled answers, each read by G-Eval's rule (a leading number, ``re.search("^ ?([\\d\\.]+)",
  output)``, ``meta_eval_summeval.py``), averaged. G-Eval scored an answer without a number as 0;
  here it is left out and counted, and an item with no parsable answer is missing.
- ``text``: one answer, read by a strict grammar: the answer, stripped of white space, is one of
  the allowed labels and nothing else - or the prompt's form line filled in with one. G-Eval's
  prompts end in a form to fill in (``Evaluation Form (scores ONLY):`` then ``- Coherence:``); a
  chat model asked that way often answers with the whole line, ``Coherence: 3`` or
  ``- Coherence: 3``, which states its score as plainly as ``3``. The form's field is the
  template's (:attr:`~sumeval.judges.run.templates.Template.form_field`); nothing else is read.
  ``samples:N`` applies G-Eval's leading-number rule after such a repeated field.

An answer that does not parse is a missing value, counted and listed - never a default score.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from sumeval.errors import InputError

__all__ = ["LOW_MASS", "Scoring", "expected_score", "label_probabilities", "parse_leading", "parse_scoring",
           "parse_strict", "strip_form_field"]

#: below this probability mass on the allowed labels, ``logprobs`` scoring warns
LOW_MASS = 0.5
METHODS = ("logprobs", "samples:N", "text")


@dataclass(frozen=True)
class Scoring:
    """``method`` (``logprobs``, ``samples`` or ``text``) and ``n`` (answers per item)."""

    method: str
    n: int = 1

    def __str__(self) -> str:
        return f"samples:{self.n}" if self.method == "samples" else self.method


def parse_scoring(text: str) -> Scoring:
    """``"logprobs"``, ``"text"`` or ``"samples:N"`` (N >= 1)."""
    t = text.strip().lower()
    if t in ("logprobs", "text"):
        return Scoring(t)
    m = re.fullmatch(r"samples:(\d+)", t)
    if m and int(m.group(1)) >= 1:
        return Scoring("samples", int(m.group(1)))
    raise InputError(f"--scoring {text!r}: give logprobs, text or samples:N (N >= 1, e.g. samples:20 as G-Eval)")


def label_probabilities(top: Sequence[Sequence], labels: Sequence[int]) -> dict[int, float]:
    """``{label: probability}`` from one token position's ``[[token, logprob], ...]`` (an
    OpenAI-compatible server's ``top_logprobs``): the tokens that read as a label once stripped of
    white space (``"3"``, ``" 3"``) add up; labels not among them get 0."""
    want = {str(k): k for k in labels}
    out = {k: 0.0 for k in labels}
    for token, logprob in top:
        k = want.get(str(token).strip())
        if k is not None and logprob is not None and math.isfinite(logprob):
            out[k] += math.exp(logprob)
    return out


def expected_score(probs: Mapping[int, float]) -> tuple[float, float]:
    """(score, mass): G-Eval's eq. 1 over the allowed labels, renormalised; ``mass`` = the summed
    probability of the labels. The score is NaN when the mass is 0 (the model put no probability
    on any label: a parse failure).

    >>> expected_score({1: 0.1, 2: 0.0, 3: 0.3})
    (2.5, 0.4)
    """
    mass = float(sum(probs.values()))
    if mass <= 0:
        return math.nan, 0.0
    return round(sum(k * p for k, p in probs.items()) / mass, 12), round(mass, 12)


_LEADING = re.compile(r"^ ?([\d\.]+)")
#: what follows a leading number when the answer restates the scale ("1-5", "1 to 5"), not a score
_RANGE_REST = re.compile(r"^\s*(?:-|\u2013|to)\s*\d", re.IGNORECASE)


def _form_prefix(field: str | None) -> re.Pattern | None:
    """The form line's field as an answer repeats it: ``"Fluency (1-3)"`` matches ``- Fluency (1-3):``,
    ``Fluency:`` (any case), followed by white space."""
    if not field:
        return None
    base = re.sub(r"\s*\([^)]*\)\s*$", "", field).strip()
    return re.compile(rf"-?\s*{re.escape(base)}\s*(?:\([^)]*\))?\s*:\s*", re.IGNORECASE)


def strip_form_field(answer: str, field: str | None) -> str:
    """``answer`` without a leading repetition of the form's field (``"- Coherence: 3"`` -> ``"3"``);
    unchanged when it does not start with it.

    >>> strip_form_field("- Coherence: 3", "Coherence"), strip_form_field("Coherent: 3", "Coherence")
    ('3', 'Coherent: 3')
    """
    pattern = _form_prefix(field)
    m = pattern.match(answer.lstrip()) if pattern else None
    return answer.lstrip()[m.end():] if m else answer


def parse_leading(answer: str, labels: Sequence[int], field: str | None = None) -> float | None:
    """G-Eval's reading of a sampled answer: the number it starts with (after at most one space, and
    after the form's ``field`` if the answer repeats it); None when there is none or it is outside the
    labels' range.

    One departure from G-Eval's rule besides leaving unparsable answers out: an answer that restates
    the scale (``"1-5"``, ``"Coherence: 1 to 5"``) is not read as its first number - G-Eval's regular
    expression would score it 1 - but counted as unparsable; a small model asked G-Eval's form often
    answers that way.

    >>> parse_leading(" 4", range(1, 6)), parse_leading("4.5 because", range(1, 6)), parse_leading("Good", range(1, 6))
    (4.0, 4.5, None)
    >>> parse_leading("Coherence: 1-5", range(1, 6), "Coherence"), parse_leading("3 - good", range(1, 6))
    (None, 3.0)
    """
    rest = strip_form_field(answer, field)
    m = _LEADING.search(rest)
    if not m or _RANGE_REST.match(rest[m.end():]):
        return None
    try:
        value = float(m.group(1).rstrip("."))
    except ValueError:
        return None
    return value if min(labels) <= value <= max(labels) else None


def parse_strict(answer: str, labels: Sequence[int], field: str | None = None) -> int | None:
    """The ``text`` grammar: the whole answer, stripped of white space, is one allowed label, or the
    form line of ``field`` filled in with one (``"- Coherence: 3"``, ``"Coherence: 3"``).

    >>> parse_strict(" 3\\n", (1, 2, 3)), parse_strict("3/5", (1, 2, 3)), parse_strict("6", (1, 2, 3))
    (3, None, None)
    >>> parse_strict("- Fluency: 2", (1, 2, 3), "Fluency (1-3)"), parse_strict("Fluency: 2.", (1, 2, 3), "Fluency")
    (2, None)
    """
    t = strip_form_field(answer.strip(), field).strip()
    return int(t) if t in {str(k) for k in labels} else None
