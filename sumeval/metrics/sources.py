"""Measures from three sources, scored on a judgments data set with caching.

A measure of a meta-evaluation is one of

* a **registered measure** (``sumeval score --list``), with options;
* a **numeric column** of the judgments file: a score the user's own tool already produced;
* a **user's scorer class**: a subclass of :class:`sumeval.metrics.Scorer` named by its import
  path (``mypkg.mymod:MyScorer``, ``--measure-class``) or by the name of an entry point in the
  group ``sumeval.measures`` of an installed package.

:func:`resolve_measures` turns the user's words into :class:`MeasureSpec` objects;
:func:`score_judgments` (:mod:`sumeval.metrics.judgment_scores`) scores them on a
:class:`~sumeval.datasets.judgments_model.Judgments` and caches each scorer's outputs in
``Store("scores")`` under the data set's sha256, the row ids, the scorer's signature and a hash of
the texts it reads - a second call reads the cache.

Measure syntax
--------------
=================================  ============================================================
``rouge-2``                        registered measure: its main output (``NAME-f`` when it has
                                   one - ``rouge-2-f`` - else its first column)
``rouge-2-r``, ``bertscore-p``     one output column of a registered measure
``MEASURE#OUTPUT``                 one output column of any scorer, e.g.
                                   ``fragments:ExtractiveFragments#density``
``rouge-2[use_stemmer=false]``     options for this measure only (values read as YAML); the
                                   ``options`` argument gives options to every measure that
                                   accepts them (``--layer 9``)
``my_metric``                      a numeric column of the file (a precomputed measure; a human
                                   or annotator column works too)
``my_metric:lower``                a column whose lower values are better (also:
                                   ``lower_is_better=["my_metric"]``, ``--lower-is-better``, or
                                   recorded once with ``sumeval data add``)
``mypkg.mod:MyScorer``             a user's Scorer class, imported (``module_path`` folders are
                                   searched first: ``--module-path DIR``); ``[...]`` options too
``my-measure``                     an entry point of the group ``sumeval.measures``
``measure:NAME``, ``column:NAME``  say which source a name means when it is both a registered
                                   measure and a measure column of the file (an error otherwise);
                                   after ``column:`` the name is taken literally, so a column
                                   named ``#tokens`` or ``a[1]`` is ``column:#tokens``
                                   (``:lower`` may still follow)
=================================  ============================================================

A bare name is looked up in this order: registered measure, output column of a registered
measure, measure column of the file, human or annotator column of the file, entry point.

Orientation
-----------
Every score this module returns is oriented so that higher is better. A measure whose lower
values are better (``higher_is_better = False`` on its scorer, or a column declared lower) is
negated, and its label says so: ``"js-2 (negated)"``. The orientation of a registered or class
measure is its scorer's; ``:lower`` applies to columns only.

Signatures
----------
Registered measures: :meth:`Scorer.signature`. User classes: that, plus the class's import path,
its version (the class's ``version`` attribute, else its installed distribution's version, else
``unversioned``) and the sha256 of its module's source file, so an edited or upgraded class is
never served cached scores (:mod:`sumeval.metrics.user_scorers`). Columns:
``column=NAME|dataset_sha256=...``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, NoReturn, Sequence

from sumeval.errors import InputError
from sumeval.metrics.base import FIELDS, Scorer
from sumeval.metrics.catalog import renamed_hint
from sumeval.metrics.registry import accepted_options, available, get_scorer, registered_class
from sumeval.metrics.user_scorers import (
    CLASS_RE,
    ENTRY_POINT_GROUP,
    call_user,
    check_columns,
    class_identity,
    construct_scorer,
    entry_point_measures,
    load_entry_point,
    load_scorer_class,
    user_signature,
)

__all__ = ["MeasureSpec", "resolve_measures"]

SOURCES = ("registered", "column", "class", "entry-point")
_OPTIONS_RE = re.compile(r"^(?P<head>[^\[\]]+?)\s*\[(?P<opts>[^\[\]]*)\]$")
_ORIENTATION = {"lower": False, "higher": True}


@dataclass(frozen=True, eq=False)
class MeasureSpec:
    """One measure, resolved.

    name : as shown (``"rouge-2"``, ``"rouge-2-r"``, ``"my_metric"``, a class's ``name``)
    source : ``registered``, ``column``, ``class`` or ``entry-point``
    column : the output column used (a scorer's output column, or the file's column)
    higher_is_better : False for a measure shown negated
    signature : what identifies its numbers (see the module docstring)
    spec : the text the user wrote
    scorer : the built scorer (None for a column)
    """

    name: str
    source: str
    column: str
    higher_is_better: bool
    signature: str
    spec: str = ""
    scorer: Scorer | None = field(default=None, repr=False)

    @property
    def sign(self) -> int:
        """+1, or -1 for a lower-is-better measure."""
        return 1 if self.higher_is_better else -1

    @property
    def label(self) -> str:
        """The name every table shows: ``"js-2 (negated)"`` for a lower-is-better measure."""
        return self.name if self.higher_is_better else f"{self.name} (negated)"


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------
def _split_spec(text: str, suffix: bool = True) -> tuple[str, dict[str, Any], bool | None, str | None, str | None]:
    """``(head, options, orientation, explicit source, output column)`` of one measure spec.

    The orientation suffix is ``:lower`` or ``:higher`` exactly (case-sensitive, as documented), read
    only when ``suffix`` (a spec of ``--measures``, never a ``--measure-class`` path): a user's class
    ``mypkg.mod:Lower`` is a class, not the module ``mypkg.mod`` declared lower."""
    from sumeval.argtypes import parse_value

    raw = text.strip()
    if not raw:
        raise InputError("an empty measure name was given; name a registered measure, a column or "
                         "a class (module:Class)")
    orientation = None
    head, sep, tail = raw.rpartition(":")
    if suffix and sep and tail.strip() in _ORIENTATION:
        orientation = _ORIENTATION[tail.strip()]
        raw = head.strip()
    if raw.lower().startswith("column:"):  # a column's name is taken literally: '#', '[', ':' and all
        return raw[len("column:"):].strip(), {}, orientation, "column", None
    options: dict[str, Any] = {}
    m = _OPTIONS_RE.match(raw)
    if m:
        raw = m.group("head").strip()
        for item in filter(None, (p.strip() for p in m.group("opts").split(","))):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise InputError(f"measure {text!r}: option {item!r} is not key=value "
                                 "(e.g. rouge-2[use_stemmer=false,aggregate=max])")
            options[key.strip()] = parse_value(value.strip())
    elif "[" in raw or "]" in raw:
        raise InputError(f"measure {text!r}: options go in one pair of brackets at the end, "
                         "e.g. rouge-2[use_stemmer=false]")
    output = None
    if "#" in raw:
        raw, _, output = (p.strip() for p in raw.rpartition("#"))
        if not raw or not output:
            raise InputError(f"measure {text!r}: write MEASURE#OUTPUT, e.g. "
                             "fragments:ExtractiveFragments#density; a column whose name holds '#' "
                             f"is named with column:, e.g. 'column:{text.strip()}'")
    explicit = None
    for prefix in ("measure", "column"):
        if raw.lower().startswith(prefix + ":"):
            explicit, raw = prefix, raw[len(prefix) + 1:].strip()
    return raw, options, orientation, explicit, output


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------
def _main_column(scorer: Scorer, columns: Sequence[str] | None = None) -> str:
    """A scorer's main output: ``"{name}-f"`` when it has one (ROUGE, BERTScore), else the first
    (``columns``: its columns, when already read)."""
    cols = list(columns if columns is not None else scorer.columns())
    return f"{scorer.name}-f" if f"{scorer.name}-f" in cols else cols[0]


def _output_name(scorer: Scorer, column: str) -> str:
    """How a non-main output is shown: the column when it starts with the measure's name
    (``rouge-2-r``), else ``name-column`` (``fragments-density``)."""
    return column if column.lower().startswith(scorer.name.lower()) else f"{scorer.name}-{column}"


def _known_listing(judgments) -> str:
    regs = [m.name for m in available()]
    eps = sorted(entry_point_measures())
    parts = [f"registered measures: {', '.join(regs)}",
             f"measure columns of {judgments.name}: {', '.join(judgments.measures) or 'none'}",
             f"human and annotator columns: {', '.join((*judgments.humans, *judgments.annotator_columns))}"]
    if eps:
        parts.append(f"entry points ({ENTRY_POINT_GROUP}): {', '.join(eps)}")
    return "; ".join(parts)


def resolve_measures(specs: str | Iterable[str], judgments, *, measure_classes: Iterable[str] = (),
                     options: Mapping[str, Any] | None = None,
                     lower_is_better: Iterable[str] = (),
                     module_path: Sequence[str | Path] = ()) -> list[MeasureSpec]:
    """Resolve measure names (see the module docstring for the syntax) against ``judgments``.

    Args:
        specs: measure specs, in the order the tables show them
        judgments: the :class:`~sumeval.datasets.judgments_model.Judgments` they will score
        measure_classes: ``module:Class`` paths (``--measure-class``), appended after ``specs``
        options: options given to every registered or class measure that accepts them (each gets only those its
            constructor accepts); an option no measure accepts is an error
        lower_is_better: column names whose lower values are better (besides those the data set declares)
        module_path: folders searched first when importing a ``module:Class``

    Returns:
        list of :class:`MeasureSpec`, one per spec. Raises :class:`InputError` for an unknown name
        (listing the known ones), an ambiguous one, a class that does not import or is not a Scorer,
        a measure needing a text field the data lacks, or two measures with the same label.
    """
    items = [specs] if isinstance(specs, str) else list(specs)
    n_specs = len(items)  # the rest are --measure-class paths: no ':lower' suffix is read there
    items += list(measure_classes)
    if not items:
        raise InputError("name at least one measure: a registered measure (sumeval score --list), "
                         f"a column of the data or a class (module:Class); {_known_listing(judgments)}")
    options = dict(options or {})
    lower = set(judgments.lower_is_better) | set(lower_is_better)
    for col in lower:
        if col not in judgments.frame.columns:
            raise InputError(f"--lower-is-better {col!r}: no such column in {judgments.name}")
    used: set[str] = set()
    out: list[MeasureSpec] = []
    for i, text in enumerate(items):
        head, own, orientation, explicit, output = _split_spec(text, suffix=i < n_specs)
        if renamed_hint(head) and explicit != "column" and head not in {
                *judgments.measures, *judgments.humans, *judgments.annotator_columns}:
            raise InputError(f"measure {text!r}: {renamed_hint(head)}")

        def built(cls, where, factory=None):
            mine = accepted_options(cls, options)
            used.update(mine)
            return construct_scorer(factory or cls, cls, {**mine, **own}, where)

        spec = _resolve_one(text, head, own, orientation, explicit, output, judgments, lower, built,
                            module_path)
        out.append(spec)
    unused = sorted(set(options) - used)
    if unused:
        raise InputError(f"option(s) {', '.join(unused)} are not used by any of the measures "
                         f"{', '.join(items)}")
    labels: dict[str, str] = {}
    for s in out:
        if s.label in labels:
            raise InputError(f"measures {labels[s.label]!r} and {s.spec!r} are both shown as "
                             f"{s.label!r}; name each measure once")
        labels[s.label] = s.spec
    for s in out:
        _check_needs(s, judgments)
    return out


@dataclass(frozen=True)
class _Spec:
    """What one measure spec says beside its head (:func:`_split_spec`), and how its scorers are built: the
    steps of :func:`_resolve_one` that turn it into a :class:`MeasureSpec`."""

    text: str
    own: dict
    orientation: bool | None
    output: str | None
    judgments: Any
    lower: set
    built: Any

    def no_orientation(self, what: str) -> None:
        if self.orientation is not None:
            raise InputError(f"measure {self.text!r}: {what} declares its own orientation "
                             "(higher_is_better); ':lower' / ':higher' apply to columns of the data only")

    def pick(self, scorer, column=None, columns=None):
        """(name shown, column used) of ``scorer`` for this spec (``columns``: its columns, when
        already read)."""
        column = column or self.output
        cols = list(columns if columns is not None else scorer.columns())
        if column is None:
            return scorer.name, _main_column(scorer, cols)
        if column not in cols:
            raise InputError(f"measure {self.text!r}: {scorer.name!r} has no output {column!r}; its "
                             f"outputs: {', '.join(cols)}")
        return (scorer.name if column == _main_column(scorer, cols) and not self.output else
                _output_name(scorer, column)), column

    def column_spec(self, col: str, orientation: bool | None) -> MeasureSpec:
        if self.output:
            raise InputError(f"measure {self.text!r}: {col!r} is a column of {self.judgments.name}; '#OUTPUT' "
                             "picks an output of a scorer")
        if self.own:
            raise InputError(f"measure {self.text!r}: {col!r} is a column of {self.judgments.name}; columns "
                             "take no options")
        higher = orientation if orientation is not None else col not in self.lower
        sig = f"column={col}|dataset_sha256={self.judgments.sha256}"
        return MeasureSpec(col, "column", col, higher, sig, spec=self.text)

    def registered_spec(self, info, cls, column=None) -> MeasureSpec:
        self.no_orientation(repr(info.name))
        scorer = self.built(cls, self.text, lambda **o: get_scorer(info.name, **o))
        name, col = self.pick(scorer, column)
        if column:
            name = column
        return MeasureSpec(name, "registered", col, bool(scorer.higher_is_better),
                           scorer.signature(), spec=self.text, scorer=scorer)

    def class_spec(self, cls, path, source) -> MeasureSpec:
        self.no_orientation("a class")
        scorer = self.built(cls, self.text)
        cols = check_columns(scorer, self.text)
        sig = user_signature(call_user(scorer, "signature", scorer.signature), class_identity(cls, path))
        name, col = self.pick(scorer, columns=cols)
        return MeasureSpec(name, source, col, bool(scorer.higher_is_better), sig, spec=self.text,
                           scorer=scorer)


def _resolve_one(text, head, own, orientation, explicit, output, judgments, lower, built, module_path):
    """One :class:`MeasureSpec` (see :func:`resolve_measures`)."""
    columns = set(judgments.measures)
    scored_cols = set(judgments.humans) | set(judgments.annotator_columns)
    spec = _Spec(text, own, orientation, output, judgments, lower, built)

    if explicit == "column":
        head, orientation = _explicit_column(text, head, orientation, judgments, columns | scored_cols)
        return spec.column_spec(head, orientation)
    if explicit is None and CLASS_RE.match(head):
        _refuse_upper_orientation(text, head, judgments, columns | scored_cols)
        return spec.class_spec(load_scorer_class(head, module_path), head, "class")

    info, cls = registered_class(head)
    if info is not None:
        if explicit is None and head in columns:
            raise InputError(f"measure {text!r} is both a registered measure and a measure column of "
                             f"{judgments.name}; write 'measure:{head}' or 'column:{head}'")
        return spec.registered_spec(info, cls)
    parent = _registered_parent(head, built, text)
    if parent is not None:
        if explicit is None and head in columns:
            raise InputError(f"measure {text!r} is both an output of the registered measure "
                             f"{parent[0].name!r} and a measure column of {judgments.name}; write "
                             f"'measure:{head}' or 'column:{head}'")
        return spec.registered_spec(*parent, column=head.lower())
    if explicit == "measure":
        raise InputError(f"measure {text!r}: no registered measure or measure output {head!r}; "
                         f"registered measures: {', '.join(m.name for m in available())}")
    if head in columns | scored_cols:
        return spec.column_spec(head, orientation)
    eps = entry_point_measures()
    if head in eps:
        return spec.class_spec(load_entry_point(eps[head]), eps[head].value, "entry-point")
    _refuse_unknown(text, head, orientation, output, judgments, columns | scored_cols)


def _refuse_upper_orientation(text, head, judgments, known) -> None:
    """InputError when ``head``, read as a class ``module:Class``, is a column of the data with an
    orientation suffix in upper case ('my_metric:LOWER'; ``known``: the data's columns)."""
    column, _, attr = head.rpartition(":")
    if attr.lower() in _ORIENTATION and column in known:  # 'my_metric:LOWER'
        raise InputError(f"measure {text!r}: {column!r} is a column of {judgments.name}, and its "
                         f"orientation suffix is written ':{attr.lower()}' (lower case, exactly)")


def _explicit_column(text, head, orientation, judgments, known):
    """(column, orientation) of a ``column:NAME`` spec of :func:`_resolve_one`; a column whose own
    name ends in ':lower' is that column with no orientation (``known``: the data's columns)."""
    literal = text.strip()[len("column:"):].strip()
    if literal != head and literal in known:  # a column named 'x:lower'
        head, orientation = literal, None
    if head not in known:
        _refuse_text_column(text, head, judgments)
        raise InputError(f"measure {text!r}: {judgments.name} has no numeric column {head!r}; "
                         + _known_listing(judgments))
    return head, orientation


def _refuse_unknown(text, head, orientation, output, judgments, known) -> NoReturn:
    """The InputError of :func:`_resolve_one` for a spec that names no measure, no output and no
    column (``known``: the data's columns)."""
    whole = f"{head}#{output}" if output else head
    if output and whole in known:
        raise InputError(f"measure {text!r}: '#' picks an output of a scorer (MEASURE#OUTPUT), and "
                         f"{head!r} is no scorer; {whole!r} is a column of {judgments.name}: name it "
                         f"'column:{whole}'")
    _refuse_text_column(text, head, judgments)
    hint = ""
    if orientation is not None and CLASS_RE.match(text.strip()):
        hint = (f" (read as the column {head!r} with the orientation suffix; a class named "
                f"{text.strip().rpartition(':')[2]!r} is given with --measure-class)")
    raise InputError(f"unknown measure {text!r}{hint}; " + _known_listing(judgments)
                     + ". A class is named as package.module:ClassName")


def _refuse_text_column(text: str, col: str, judgments) -> None:
    """InputError when ``col`` is a column of the file that is no measure column because a cell
    is text (or because it is empty): naming the line, the column and the value, rather than
    "unknown measure"."""
    from sumeval.datasets.judgment_files import first_text_cell, short_value

    if col not in getattr(judgments, "other_columns", ()):
        return
    values = list(judgments.frame[col])
    row = first_text_cell(values, judgments.format in ("csv", "tsv"))
    if row is not None:
        raise InputError(f"{judgments.location(row)}: column {col!r} = {short_value(values[row])} is not a "
                         f"number, so {col!r} is not a measure column and measure {text!r} cannot use it; "
                         "write a number there, or leave the cell empty (NaN) where there is no score")
    raise InputError(f"measure {text!r}: column {col!r} of {judgments.name} has no value on any row; a "
                     "measure column needs numbers")


def _registered_parent(head: str, built, text: str):
    """``(info, cls)`` of the registered measure that has output column ``head`` (``rouge-2-r``).

    The longest registered name that ``head`` extends with ``-...`` is tried; its scorer is built
    to read its columns.
    """
    key = head.lower()
    for info in sorted(available(), key=lambda m: -len(m.name)):
        if key.startswith(info.name + "-"):
            _, cls = registered_class(info.name)
            scorer = built(cls, text, lambda **o: get_scorer(info.name, **o))
            if key in scorer.columns():
                return info, cls
    return None


def _check_needs(spec: MeasureSpec, judgments) -> None:
    if spec.scorer is None:
        return
    needs = tuple(spec.scorer.needs)
    unknown = [f for f in needs if f not in FIELDS]
    if unknown:
        raise InputError(f"measure {spec.spec!r}: needs {unknown[0]!r}, which is not a field a "
                         f"scorer can read; Scorer.needs may name {', '.join(FIELDS[1:])}")
    for f in ("summary", *needs):
        if f not in judgments.fields and f in getattr(judgments, "limits", {}):
            raise InputError(f"measure {spec.spec!r} needs {f!r}, which {judgments.name} does not have: "
                             f"{judgments.limits[f]}")
        if f not in judgments.fields:
            flag = {"summary": "--summary-col", "text": "--text-col", "references": "--references-col"}[f]
            raise InputError(f"measure {spec.spec!r} needs {f!r}, which {judgments.name} does not have "
                             f"(its columns: {', '.join(map(str, judgments.frame.columns))}); map the "
                             f"column that holds it with {flag}")
