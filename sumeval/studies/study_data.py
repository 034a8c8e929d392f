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
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

from sumeval.errors import InputError

__all__ = ["load", "split_names", "selection_human", "is_builtin", "cache_name", "slug", "file_part", "describe",
           "FLAGS"]

#: the ``sumeval data add`` option that maps each text field
FLAGS = {"summary": "--summary-col", "text": "--text-col", "references": "--references-col"}


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
        ``(judgments, humans)``: a :class:`~sumeval.datasets.judgments.Judgments` and a list of
        its human column names.

    Raises:
        InputError: an empty or relative-path ``dataset``, unknown human columns, a text field
            the data set lacks (naming the ``sumeval data add`` option that maps it), an
            ``n_docs`` above the documents the data set has.
    """
    from sumeval.datasets.judgments import _is_path, load_judgments

    text = str(dataset).strip()
    if not text:
        raise InputError(f"{parameter} is empty; give a data set name (summeval, realsumm, or one "
                         "added with `sumeval data add NAME PATH`) or an absolute file path")
    chosen = split_names(humans)
    if _is_path(text):
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
    for f in needs:
        if f not in judgments.fields and f in judgments.limits:
            raise InputError(f"{parameter}={text!r}: this study reads the {f!r} of every summary, which "
                             f"{judgments.name} does not have: {judgments.limits[f]}")
        if f not in judgments.fields:
            raise InputError(
                f"{parameter}={text!r}: this study reads the {f!r} of every summary, which "
                f"{judgments.name} does not have (its columns: "
                f"{', '.join(map(str, judgments.frame.columns))}); map the column that holds it with "
                f"`sumeval data add NAME PATH {FLAGS.get(f, '--' + f + '-col')} COL ...`")
    if chosen:
        return judgments, list(judgments.humans)
    if builtin_order and judgments.format == "builtin":
        ordered = [h for h in builtin_order if h in judgments.humans]
        return judgments, ordered + [h for h in judgments.humans if h not in ordered]
    return judgments, list(judgments.humans)


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
