"""The shelf: every judged data set sumeval has built in, by name, in the one judgments shape.

The sets are the rows of :data:`~sumeval.datasets.shelf_table.SHELF` (:mod:`sumeval.datasets.shelf_table`, the one
list of them); each is loaded by its module in :mod:`sumeval.datasets.loaders`. :func:`load_builtin` loads one
(``load_judgments(name)`` calls it); :func:`describe_builtin` says what a set holds and supports, from the loaded set
itself; :func:`detail_lines` is what ``sumeval data list`` prints of it.
"""
from __future__ import annotations

import importlib
from typing import Any

from sumeval.datasets.shelf_table import LOADERS, SHELF, ShelfSet

__all__ = ["SHELF", "ShelfSet", "load_builtin", "describe_builtin", "detail_lines"]


def load_builtin(name: str):
    """The :class:`~sumeval.datasets.judgments_model.Judgments` of built-in set ``name`` (see :data:`SHELF`).

    Raises :class:`~sumeval.errors.InputError` naming the built-in sets for an unknown name, and
    :class:`~sumeval.errors.DataNotFoundError` when a file is missing or is not the recorded one.
    """
    from sumeval.errors import InputError

    entry = SHELF.get(name)
    if entry is None:
        raise InputError(f"{name!r} is not a built-in data set; built-in: {', '.join(SHELF)}")
    return getattr(importlib.import_module(f"{LOADERS}.{entry.module}"), entry.function)()


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
             + (f"; opt-in (used only when named): {_short_list(d['opt_in_measures'])}"
                if d["opt_in_measures"] else ""),
             f"{pad}levels: {levels}"]
    lines += [f"{pad}{lv}: {why}" if why.startswith("only ") else f"{pad}not {lv}: {why}"
              for lv, why in d["levels"].items() if why != "yes"]
    fields: dict[str, list[str]] = {}
    for f, why in d["limits"].items():
        if f in ("summary", "text", "references"):
            fields.setdefault(why, []).append(f)
    lines += [f"{pad}cannot read {', '.join(fs)}: {why}" for why, fs in fields.items()]
    return lines + [f"{pad}licence: {d['licence']}", f"{pad}source: {d['source']}"]
