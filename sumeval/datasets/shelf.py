"""The shelf: every judged data set sumeval has built in, by name, in the one judgments shape.

=============  ===================================================  =================================
name           what                                                 loader
=============  ===================================================  =================================
summeval       CNN/DM, 16 systems, 4 qualities, 3 experts, 6 LLMs   :mod:`~sumeval.datasets.summeval_annotators`
realsumm       CNN/DM, 25 systems, LitePyramid                      :func:`~sumeval.datasets.realsumm.realsumm_frame`
dialsummeval   SAMSum dialogues, 14 sources, 4 qualities, 32 cols   :mod:`~sumeval.datasets.dialsummeval`
frank          CNN/DM + XSum factuality, error types, no texts      :mod:`~sumeval.datasets.frank`
qags-c         CNN/DM sentence-level factuality, 3 workers          :mod:`~sumeval.datasets.qags`
qags-x         XSum sentence-level factuality, 3 workers            :mod:`~sumeval.datasets.qags`
xsumfaith      XSum hallucinations and factuality, no articles      :mod:`~sumeval.datasets.xsumfaith`
newsroom       Newsroom, 7 systems, 4 qualities                     :mod:`~sumeval.datasets.newsroom`
rank19         correct vs incorrect summary sentences (pairwise)    :mod:`~sumeval.datasets.rank19`
rose           CNN/DM, 12 systems, 4 evaluation protocols           :mod:`~sumeval.datasets.rose`
=============  ===================================================  =================================

:func:`load_builtin` loads one (``load_judgments(name)`` calls it); :func:`describe_builtin` says
what a set holds and supports, from the loaded set itself; :func:`detail_lines` is what
``sumeval data list`` prints of it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

__all__ = ["SHELF", "ShelfSet", "load_builtin", "describe_builtin", "detail_lines"]


@dataclass(frozen=True)
class ShelfSet:
    """A built-in judged data set: where its loader is and which registered file groups it reads."""

    name: str
    loader: str            # "module:function" under sumeval.datasets; the function takes no argument
    files: tuple[str, ...]  # registry data sets (sumeval.datasets.recorded) whose files it reads
    domain: str


SHELF: dict[str, ShelfSet] = {s.name: s for s in [
    ShelfSet("summeval", "summeval_annotators:summeval_judgments", ("summeval", "summeval_annotators"),
             "news (CNN/DM)"),
    ShelfSet("realsumm", "shelf:_realsumm", ("realsumm",), "news (CNN/DM)"),
    ShelfSet("dialsummeval", "dialsummeval:dialsummeval_judgments", ("dialsummeval",), "dialogue (SAMSum)"),
    ShelfSet("frank", "frank:frank_judgments", ("frank",), "news (CNN/DM, XSum)"),
    ShelfSet("qags-c", "shelf:_qags_c", ("qags",), "news (CNN/DM)"),
    ShelfSet("qags-x", "shelf:_qags_x", ("qags",), "news (XSum)"),
    ShelfSet("xsumfaith", "xsumfaith:xsumfaith_judgments", ("xsumfaith",), "news (XSum)"),
    ShelfSet("newsroom", "newsroom:newsroom_judgments", ("newsroom",), "news (Newsroom)"),
    ShelfSet("rank19", "rank19:rank19_judgments", ("rank19",), "news (CNN/DM) sentences"),
    ShelfSet("rose", "rose:rose_judgments", ("rose",), "news (CNN/DM)"),
]}


def _realsumm():
    """REALSumm exactly as before the shelf (:func:`~sumeval.datasets.realsumm.realsumm_frame`)."""
    from sumeval.datasets import realsumm as rs
    from sumeval.datasets.judgments_model import ColumnMap, classify_frame
    from sumeval.datasets.registry import checksums, combined_sha256, locate

    return classify_frame(rs.realsumm_frame(), name="realsumm", path=locate(rs.DATA_FILE),
                          sha256=combined_sha256(checksums([rs.DATA_FILE])), fmt="builtin",
                          humans=("litepyramid",), lower=(), columns=ColumnMap(), locations=None)


def _qags_c():
    from sumeval.datasets.qags import qags_judgments

    return qags_judgments("qags-c")


def _qags_x():
    from sumeval.datasets.qags import qags_judgments

    return qags_judgments("qags-x")


def load_builtin(name: str):
    """The :class:`~sumeval.datasets.judgments_model.Judgments` of built-in set ``name`` (see :data:`SHELF`).

    Raises :class:`~sumeval.errors.InputError` naming the built-in sets for an unknown name, and
    :class:`~sumeval.errors.DataNotFoundError` when a file is missing or is not the recorded one.
    """
    from sumeval.errors import InputError

    entry = SHELF.get(name)
    if entry is None:
        raise InputError(f"{name!r} is not a built-in data set; built-in: {', '.join(SHELF)}")
    module, _, function = entry.loader.partition(":")
    return getattr(importlib.import_module(f"sumeval.datasets.{module}"), function)()


def _levels(judgments) -> dict[str, str]:
    """``{level: "yes" | "only <humans>" | reason}`` for the input, system and global levels:
    ``yes`` when :func:`~sumeval.datasets.judgments_model.check_level` accepts it for every human column,
    ``only ...`` naming the human columns it accepts it for, else the reason (of the first human)."""
    from sumeval.datasets.judgments_model import check_level
    from sumeval.errors import InputError

    out = {}
    for level in ("input", "system", "global"):
        ok, why = [], {}
        for human in judgments.humans:
            try:
                check_level(judgments, level, human)
                ok.append(human)
            except InputError as exc:
                why[human] = str(exc)
        out[level] = ("yes" if not why else f"only {', '.join(ok)} (not {', '.join(why)}: {next(iter(why.values()))})"
                      if ok else next(iter(why.values())))
    return out


def describe_builtin(name: str) -> dict[str, Any]:
    """What built-in set ``name`` holds and supports, read from the loaded set.

    Returns ``{name, domain, records, documents, systems, humans, annotators ({human: n}),
    measures (default ones), opt_in_measures, texts (the text fields), references (bool), levels
    ({level: "yes" or why not}), limits, sha256, licence, source}``.
    """
    from sumeval.datasets.registry import info

    j = load_builtin(name)
    groups = [info(g) for g in SHELF[name].files]
    return {"name": name, "domain": SHELF[name].domain, "records": len(j), "documents": len(j.documents),
            "systems": len(j.systems), "humans": list(j.humans),
            "annotators": {h: len(c) for h, c in j.annotators.items()}, "measures": list(j.default_measures),
            "opt_in_measures": list(j.opt_in_measures), "texts": [f for f in j.fields if f != "references"],
            "references": "references" in j.fields, "levels": _levels(j), "limits": dict(j.limits), "sha256": j.sha256,
            "licence": "; ".join(f"{g.name}: {g.license}" for g in groups),
            "source": "; ".join(g.source for g in groups)}


def _short_list(items: list[str], n: int = 6) -> str:
    return ", ".join(items[:n]) + (f", ... ({len(items)} in all)" if len(items) > n else "") if items else "none"


def detail_lines(d: dict[str, Any], indent: int = 15) -> list[str]:
    """The indented lines ``sumeval data list`` prints under a built-in set's head line, from
    :func:`describe_builtin`'s dict (or ``{"missing": message}`` for a set whose files are not here)."""
    pad = " " * indent
    if "missing" in d:
        return [f"{pad}{d['missing']}"]
    ann = ", ".join(f"{h} x{n}" for h, n in d["annotators"].items()) or "none"
    levels = ", ".join(lv + ("" if ok == "yes" else " (some human columns)") for lv, ok in d["levels"].items()
                       if ok == "yes" or ok.startswith("only ")) or "none"
    lines = [f"{pad}domain: {d['domain']}; texts: {', '.join(d['texts']) or 'none'}; "
             f"references: {'yes' if d['references'] else 'no'}",
             f"{pad}annotator columns: {ann}",
             f"{pad}measure columns: {_short_list(d['measures'])}"
             + (f"; opt-in (used only when named): {_short_list(d['opt_in_measures'])}" if d["opt_in_measures"] else ""),
             f"{pad}levels: {levels}"]
    lines += [f"{pad}{lv}: {why}" if why.startswith("only ") else f"{pad}not {lv}: {why}"
              for lv, why in d["levels"].items() if why != "yes"]
    fields: dict[str, list[str]] = {}
    for f, why in d["limits"].items():
        if f in ("summary", "text", "references"):
            fields.setdefault(why, []).append(f)
    lines += [f"{pad}cannot read {', '.join(fs)}: {why}" for why, fs in fields.items()]
    return lines + [f"{pad}licence: {d['licence']}", f"{pad}source: {d['source']}"]
