"""The ``dataset`` parameter of the judgments studies (``metric_correlations``, ``estime_layers``,
``coherence_order``, ``layer_probing``, ``annotator_impact``).

A study's ``dataset`` is a judgments data set (:mod:`sumeval.datasets.judgments`):

* a **name**: the built-in ``summeval`` (the default) or ``realsumm``, or a user's file added
  with ``sumeval data add NAME PATH --human COL ...`` (its column roles are recorded then, so
  a file in any shape works: the preferred way);
* an **absolute path** to a judgments file whose columns already carry the role names
  (``doc_id``, ``system``, ``summary``, ``text``, ``references``); the study's ``humans``
  parameter then names its human columns. The notebook runs in its run folder, so a relative
  path would not mean what the user typed: it is refused with the way to fix it.

``humans`` (comma-separated) picks some of the data set's human columns, in that order. Empty:
every human column; for the built-in SummEval a study keeps the order it always used (paper
000: consistency, relevance, coherence, fluency).

Paper comparisons are drawn only on the paper's own data set (:func:`is_builtin`); on any other
data set a study reports our numbers alone and says why.

The built-in sets of the shelf (:mod:`sumeval.datasets.shelf`) say what they cannot do
(``Judgments.limits``: FRANK has no texts, XSumFaith no articles, Rank19 no system or global level,
QAGS no input or system level). A study refuses a set that lacks what the whole study reads, naming
what is missing and what does apply to the set (:func:`what_applies`); a *part* of a study that a
set cannot answer by its nature (:func:`shelf_limit`) raises :class:`PartSkipped`, which the
notebook turns into ``ctx.skip`` and ``ctx.note`` (a run that skips every part is ``skipped``).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd

from sumeval.errors import InputError

__all__ = ["load", "split_names", "selection_human", "is_builtin", "cache_name", "slug", "file_part", "describe",
           "FLAGS", "PartSkipped", "what_applies", "shelf_limit", "check_needs", "attempt", "reference_systems"]

#: the ``sumeval data add`` option that maps each text field
FLAGS = {"summary": "--summary-col", "text": "--text-col", "references": "--references-col"}
#: a text field in words, plural
_PLURAL = {"summary": "summaries", "text": "texts", "references": "references"}


class PartSkipped(InputError):
    """A part of a study that its data set cannot answer by its nature (a built-in set without
    references, a level it does not have): the notebook skips the part and says why, rather than
    failing the run."""


def split_names(text: str | Sequence[str] | None) -> list[str]:
    """``"a, b"`` or ``["a", "b"]`` -> ``["a", "b"]`` (empty items dropped, order kept, once each)."""
    if text is None:
        return []
    items = text.split(",") if isinstance(text, str) else list(text)
    return list(dict.fromkeys(str(i).strip() for i in items if str(i).strip()))


def load(dataset: str, *, humans: str | Sequence[str] = "", n_docs: int | None = None,
         needs: Sequence[str] = (), builtin_order: Sequence[str] = (), parameter: str = "dataset"):
    """The judgments data set of a study run and the human columns it correlates with.

    Args:
        dataset: a data set name or an absolute path (see the module docstring).
        humans: human columns to use (comma-separated or a list); empty: all of them.
        n_docs: keep the first ``n_docs`` documents (None or 0: all).
        needs: text fields the study reads (``summary``, ``text``, ``references``).
        builtin_order: for a built-in data set with ``humans`` empty, the human columns in the
            order the study has always shown them (those the data set has).
        parameter: the notebook parameter's name, for messages.

    Returns:
        ``(judgments, humans)``: a :class:`~sumeval.datasets.judgments_model.Judgments` and a list of
        its human column names.

    Raises:
        InputError: an empty or relative-path ``dataset``, unknown human columns, a text field
            the data set lacks (naming the ``sumeval data add`` option that maps it), an
            ``n_docs`` above the documents the data set has.
    """
    from sumeval.datasets.judgments import is_path, load_judgments

    text = str(dataset).strip()
    if not text:
        raise InputError(f"{parameter} is empty; give a data set name (summeval, realsumm, or one "
                         "added with `sumeval data add NAME PATH`) or an absolute file path")
    chosen = split_names(humans)
    if is_path(text):
        path = Path(text).expanduser()
        if not path.is_absolute():
            raise InputError(
                f"{parameter}={text!r} is a relative path, but the notebook runs in its run folder; "
                "give an absolute path, or better register the file once with `sumeval data add "
                f"NAME {text} --human COL ...` and pass {parameter}=NAME")
        if not chosen:
            raise InputError(f"{parameter}={text!r} is a file path: name its human columns with "
                             "the parameter humans=COL[,COL] (or register the file with `sumeval "
                             "data add NAME PATH --human COL ...` and pass the name)")
        judgments = load_judgments(path, human=chosen)
    else:
        judgments = load_judgments(text, human=chosen or None)
    if n_docs and n_docs > len(judgments.documents):
        raise InputError(
            f"n_docs={n_docs} is more than the {len(judgments.documents)} documents of {parameter}="
            f"{text!r}; pass -p n_docs={len(judgments.documents)} (or -p n_docs=0 for all of them). "
            "A params set's n_docs is never cut down to fit silently.")
    judgments = judgments.first_documents(n_docs or None)
    check_needs(judgments, needs, text, parameter)
    if chosen:
        return judgments, list(judgments.humans)
    if builtin_order and judgments.format == "builtin":
        ordered = [h for h in builtin_order if h in judgments.humans]
        return judgments, ordered + [h for h in judgments.humans if h not in ordered]
    return judgments, list(judgments.humans)


def check_needs(judgments, needs: Sequence[str], dataset: str | None = None, parameter: str = "dataset") -> None:
    """Refuse a data set that lacks a text field the study reads (``needs``: ``summary``, ``text``,
    ``references``), naming what is missing and how to fix it: for a user's file, the ``sumeval data
    add`` option that maps the field; for a built-in set, why it has none and what does apply to it
    (:func:`what_applies`).

    Raises:
        InputError: a field of ``needs`` that ``judgments`` does not have.
    """
    text = judgments.name if dataset is None else dataset
    for f in needs:
        if f in judgments.fields:
            continue
        head = (f"{parameter}={text!r}: this study reads the {f!r} of every summary, "
                f"which {judgments.name} does not have")
        if f in judgments.limits or judgments.format == "builtin":
            why = judgments.limits.get(f, f"it is a built-in set without {_PLURAL.get(f, f)}")
            raise InputError(f"{head}: {why}. What does apply to {judgments.name}: {what_applies(judgments)}")
        raise InputError(
            f"{head} (its columns: {', '.join(map(str, judgments.frame.columns))}); map the column that holds "
            f"it with `sumeval data add NAME PATH {FLAGS.get(f, '--' + f + '-col')} COL ...`")


def what_applies(judgments) -> str:
    """What can be asked of ``judgments``, from what it holds (texts, references, annotator and
    measure columns, levels), in words: the studies that take it as ``dataset`` and the
    ``sumeval meta-eval`` command on its measure columns. For FRANK (no texts, 15 measure
    columns): "`sumeval meta-eval frank --human factuality --measures frank.Rouge_1 frank.Rouge_2
    frank.Rouge_L ... --out DIR` (its 15 precomputed measure columns)".
    """
    name, fields, limits = judgments.name, set(judgments.fields), judgments.limits
    out = []
    measures = list(judgments.default_measures)
    human = judgments.humans[0] if judgments.humans else "COL"
    levels = [lv for lv in ("input", "system", "global") if lv not in limits]
    level = f" --level {' '.join(levels)}" if len(levels) < 3 else ""
    if measures:
        shown = " ".join(measures[:3]) + (" ..." if len(measures) > 3 else "")
        out.append(f"`sumeval meta-eval {name} --human {human} --measures {shown}{level} --out DIR` (its "
                   f"{len(measures)} precomputed measure columns)")
    elif "summary" in fields:
        own = [m for m, need in (("rouge-2", "references"), ("estime-soft", "text")) if need in fields]
        if own:
            out.append(f"`sumeval meta-eval {name} --human {human} --measures {' '.join(own)}{level} --out DIR`")
    if "summary" in fields and ("references" in fields or measures) and "global" not in limits:
        out.append("the study metric_correlations")
    elif {"summary", "text"} <= fields and "global" not in limits:
        out.append("the study metric_correlations with -p measures=estime-soft (or another measure that reads "
                   "no references: it has none, so not the paper's ROUGE / BLEU rows)")
    if {"summary", "text"} <= fields:
        out.append("the study layer_probing" + ("" if "global" in limits else
                                                ", and estime_layers and coherence_order (global level)"))
    if any(len(c) >= 2 for c in judgments.annotators.values()):
        out.append("the study annotator_impact (its annotator columns: "
                   + ", ".join(f"{h} x{len(c)}" for h, c in judgments.annotators.items()) + ")")
    return "; ".join(out) if out else "nothing sumeval computes (no texts, no measure columns)"


def shelf_limit(judgments, needs: Sequence[str] = (), level: str | None = None) -> str | None:
    """Why a built-in set cannot answer a part of a study by its nature, or None: a text field of
    ``needs`` it does not have, or a ``level`` its ``limits`` rule out (Rank19's global level,
    QAGS' system level). A user's data set gives None (its problems are errors with a fix:
    :func:`check_needs`, :func:`sumeval.datasets.judgments_model.check_level`)."""
    if judgments.format != "builtin":
        return None
    for f in needs:
        if f not in judgments.fields:
            return f"{judgments.name} has no {_PLURAL.get(f, f)}" + (f": {judgments.limits[f]}"
                                                                     if f in judgments.limits else "")
    if level is not None:
        from sumeval.stats.checks import canonical_level

        lv = canonical_level(level)
        if lv in judgments.limits:
            return f"the {lv} level does not apply to {judgments.name}: {judgments.limits[lv]}"
    return None


def attempt(ctx, outputs: str | Sequence[str], part: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``part(*args, **kwargs)``, or None when it raises :class:`PartSkipped`: then the promised
    ``outputs`` (names or the params file's patterns) are declared skipped with the reason
    (``ctx.skip``) and the reason is said (``ctx.note``: the notebook, ``results.json``, the command
    line and the run report). Any other error propagates (the run fails)."""
    try:
        return part(*args, **kwargs)
    except PartSkipped as exc:
        ctx.skip(list([outputs] if isinstance(outputs, str) else outputs), str(exc))
        ctx.note(f"skipped: {exc}")
        return None


def reference_systems(judgments) -> list[str]:
    """The systems whose summary is one of its references on every row (DialSummEval's and
    XSumFaith's ``reference``): a reference-based measure scores them against themselves."""
    if "references" not in judgments.fields or "summary" not in judgments.fields:
        return []
    frame = judgments.frame
    same = [isinstance(r, list) and s in r for s, r in zip(frame["summary"], frame["references"])]
    hit = pd.Series(same, index=frame.index).groupby(frame["system"], sort=False).all()
    return [str(s) for s, v in hit.items() if v]


def is_builtin(judgments, name: str) -> bool:
    """Whether ``judgments`` is the built-in data set ``name`` (``summeval``, ``realsumm``)."""
    return judgments.format == "builtin" and judgments.name == name


def cache_name(judgments) -> str:
    """What names the data set in the studies' cache keys: the built-in's name (the keys the
    studies have always used), else ``NAME@sha256`` (a changed file is never served old scores)."""
    if judgments.format == "builtin":
        return judgments.name
    return f"{judgments.name}@{judgments.sha256}"


def file_part(text: str) -> str:
    """``text`` as a piece of a figure or table file name: runs of other characters than letters,
    digits, ``_ . -`` become ``_`` (``"my data/v2" -> "my_data_v2"``)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(text)).strip("._") or "dataset"


def slug(judgments) -> str:
    """The data set's name as a piece of a figure or table file name (``table1_<slug>``)."""
    return file_part(judgments.name)


def selection_human(humans: Sequence[str], preferred: str = "consistency") -> str:
    """The human column a study's choice (a best layer, the human of a section) is made by:
    ``preferred`` (the paper's choice) when it is one of ``humans``, else the first of ``humans``.

    Raises:
        InputError: no human column.
    """
    if not humans:
        raise InputError("no human column to choose by; give the data set's human columns")
    return preferred if preferred in humans else humans[0]


def describe(judgments, humans: Sequence[str]) -> dict[str, Any]:
    """What a run records of its data set (``ctx.record(dataset=...)``): name, format, path,
    sha256, rows, documents, systems and the human columns used."""
    frame = judgments.frame
    return {"name": judgments.name, "format": judgments.format,
            "path": str(judgments.path) if judgments.path is not None else None,
            "sha256": judgments.sha256, "rows": int(len(frame)),
            "documents": int(frame["doc_id"].nunique()), "systems": int(frame["system"].nunique()),
            "humans": list(humans)}
