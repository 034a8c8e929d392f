"""Measures from three sources, scored on a judgments data set with caching.

A measure of a meta-evaluation is one of

* a **registered measure** (``sumeval score --list``), with options;
* a **numeric column** of the judgments file: a score the user's own tool already produced;
* a **user's scorer class**: a subclass of :class:`sumeval.metrics.Scorer` named by its import
  path (``mypkg.mymod:MyScorer``, ``--measure-class``) or by the name of an entry point in the
  group ``sumeval.measures`` of an installed package.

:func:`resolve_measures` turns the user's words into :class:`MeasureSpec` objects;
:func:`score_judgments` scores them on a :class:`~sumeval.datasets.judgments.Judgments` and
caches each scorer's outputs in ``Store("scores")`` under the data set's sha256, the row ids,
the scorer's signature and a hash of the texts it reads - a second call reads the cache.

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
                                   measure and a measure column of the file (an error otherwise)
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
never served cached scores. Columns: ``column=NAME|dataset_sha256=...``.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib
import inspect
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.hashing import sha256_file
from sumeval.metrics.base import FIELDS, Scorer

__all__ = ["MeasureSpec", "MeasureScores", "ENTRY_POINT_GROUP", "resolve_measures", "score_judgments",
           "load_scorer_class", "entry_point_measures", "build_scorer_class"]

ENTRY_POINT_GROUP = "sumeval.measures"
SOURCES = ("registered", "column", "class", "entry-point")
_OPTIONS_RE = re.compile(r"^(?P<head>[^\[\]]+?)\s*\[(?P<opts>[^\[\]]*)\]$")
_CLASS_RE = re.compile(r"^(?P<module>[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*):(?P<attr>[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)$")
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


@dataclass
class MeasureScores:
    """What :func:`score_judgments` returns.

    frame : one column per measure, named by :attr:`MeasureSpec.label`, oriented so that higher is
        better, NaN where not scored; index aligned with ``judgments.frame``
    signatures : ``{label: signature}``
    not_scored : one dict per (row, measure) not scored: ``row, doc_id, system, location,
        measure, reason``
    specs : the measures, in order
    from_cache : ``{label: True if read from the cache}`` (columns: False)
    """

    frame: pd.DataFrame
    signatures: dict[str, str]
    not_scored: list[dict[str, Any]]
    specs: list[MeasureSpec]
    from_cache: dict[str, bool]

    def __iter__(self):  # ``scores, signatures, not_scored = score_judgments(...)``
        return iter((self.frame, self.signatures, self.not_scored))


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------
def _split_spec(text: str) -> tuple[str, dict[str, Any], bool | None, str | None, str | None]:
    """``(head, options, orientation, explicit source, output column)`` of one measure spec."""
    from sumeval.runner import parse_value

    raw = text.strip()
    if not raw:
        raise InputError("an empty measure name was given; name a registered measure, a column or "
                         "a class (module:Class)")
    orientation = None
    head, sep, tail = raw.rpartition(":")
    if sep and tail.strip().lower() in _ORIENTATION:
        orientation = _ORIENTATION[tail.strip().lower()]
        raw = head.strip()
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
                             "fragments:ExtractiveFragments#density")
    explicit = None
    for prefix in ("measure", "column"):
        if raw.lower().startswith(prefix + ":"):
            explicit, raw = prefix, raw[len(prefix) + 1:].strip()
    return raw, options, orientation, explicit, output


# --------------------------------------------------------------------------------------------
# User classes and entry points
# --------------------------------------------------------------------------------------------
@contextlib.contextmanager
def _search_path(folders: Sequence[str | Path]):
    """``folders`` put first on ``sys.path`` for the block (then removed again)."""
    added = [str(Path(f).expanduser().resolve()) for f in folders]
    for f in added:
        if not Path(f).is_dir():
            raise InputError(f"--module-path {f!r} is not a folder")
    sys.path[:0] = added
    importlib.invalidate_caches()
    try:
        yield
    finally:
        for f in added:
            with contextlib.suppress(ValueError):
                sys.path.remove(f)


def load_scorer_class(path: str, module_path: Sequence[str | Path] = ()) -> type[Scorer]:
    """The Scorer subclass at ``path`` (``"package.module:ClassName"``).

    Raises :class:`InputError` naming the path when it is malformed, its module does not import
    (with the ImportError), the attribute is missing or is not a Scorer subclass.
    """
    m = _CLASS_RE.match(path.strip())
    if not m:
        raise InputError(f"measure class {path!r} is not of the form package.module:ClassName")
    module_name, attr = m.group("module"), m.group("attr")
    try:
        with _search_path(module_path):
            module = importlib.import_module(module_name)
    except InputError:
        raise
    except Exception as exc:  # ImportError, or any error raised while the module runs
        where = f" (searched --module-path {', '.join(map(str, module_path))} first)" if module_path else ""
        raise InputError(
            f"measure class {path!r}: module {module_name!r} could not be imported{where} "
            f"({type(exc).__name__}: {exc}). Install its package, put its folder on PYTHONPATH, or "
            "pass the folder that holds it with --module-path DIR") from exc
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            found = sorted(n for n, v in vars(module).items()
                           if inspect.isclass(v) and issubclass(v, Scorer) and v is not Scorer)
            raise InputError(f"measure class {path!r}: module {module_name!r} has no attribute "
                             f"{attr!r}; its Scorer classes: {', '.join(found) or 'none'}")
        obj = getattr(obj, part)
    _check_scorer_class(obj, path)
    return obj


def _check_scorer_class(obj: Any, where: str) -> None:
    if not (inspect.isclass(obj) and issubclass(obj, Scorer)):
        kind = "class" if inspect.isclass(obj) else type(obj).__name__
        raise InputError(f"measure class {where!r} is a {kind} ({obj!r}), not a subclass of "
                         "sumeval.metrics.Scorer; see the Scorer interface in examples/README.md")
    if inspect.isabstract(obj):
        missing = sorted(getattr(obj, "__abstractmethods__", ()))
        raise InputError(f"measure class {where!r} does not implement {', '.join(missing)} of "
                         "sumeval.metrics.Scorer")


def entry_point_measures() -> dict[str, Any]:
    """``{name: EntryPoint}`` of the group ``sumeval.measures`` of the installed packages."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _load_entry_point(ep: Any) -> type[Scorer]:
    dist = getattr(getattr(ep, "dist", None), "name", None) or "an installed package"
    try:
        obj = ep.load()
    except Exception as exc:
        raise InputError(f"measure {ep.name!r} (entry point {ep.value!r} of {dist}, group "
                         f"{ENTRY_POINT_GROUP}) could not be loaded ({type(exc).__name__}: {exc})") from exc
    _check_scorer_class(obj, f"{ep.name} = {ep.value}")
    return obj


def _class_identity(cls: type, path: str) -> dict[str, str]:
    """Import path, version and source hash of a user's scorer class (for its signature)."""
    version = getattr(cls, "version", None)
    if not version:
        from importlib.metadata import PackageNotFoundError, packages_distributions, version as dist_version

        top = cls.__module__.split(".")[0]
        for dist in packages_distributions().get(top, []):
            with contextlib.suppress(PackageNotFoundError):
                version = f"{dist}-{dist_version(dist)}"
                break
    source = "unknown"
    with contextlib.suppress(TypeError, OSError):
        file = inspect.getsourcefile(cls)
        if file:
            source = sha256_file(file)[:16]
    return {"class": path, "version": str(version or "unversioned"), "source_sha": source}


def _build(factory, cls: type, options: Mapping[str, Any], where: str) -> Scorer:
    """``factory(**options)``, a constructor's complaint turned into an InputError naming ``where``."""
    try:
        scorer = factory(**options)
    except InputError:
        raise
    except TypeError as exc:
        raise InputError(f"measure {where!r}: could not build {cls.__name__}("
                         f"{', '.join(f'{k}={v!r}' for k, v in options.items())}) ({exc})") from exc
    if not scorer.name:
        scorer.name = cls.__name__
    return scorer


def _user_signature(signature: str, identity: Mapping[str, str]) -> str:
    """A user class's signature: its scorer's, then its import path, version and source hash."""
    return signature + "".join(f"|{k}={v}" for k, v in identity.items())


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------
def _registered_class(name: str):
    from sumeval import metrics

    info = metrics._REGISTRY.get(name.lower())
    if info is None:
        return None, None
    module_name, _, cls_name = info.target.partition(":")
    return info, getattr(importlib.import_module(module_name), cls_name)


def _main_column(scorer: Scorer) -> str:
    """A scorer's main output: ``"{name}-f"`` when it has one (ROUGE, BERTScore), else the first."""
    cols = list(scorer.columns())
    return f"{scorer.name}-f" if f"{scorer.name}-f" in cols else cols[0]


def _output_name(scorer: Scorer, column: str) -> str:
    """How a non-main output is shown: the column when it starts with the measure's name
    (``rouge-2-r``), else ``name-column`` (``fragments-density``)."""
    return column if column.lower().startswith(scorer.name.lower()) else f"{scorer.name}-{column}"


def _known_listing(judgments) -> str:
    from sumeval import metrics

    regs = [m.name for m in metrics.available()]
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

    Parameters
    ----------
    specs : measure specs, in the order the tables show them
    judgments : the :class:`~sumeval.datasets.judgments.Judgments` they will score
    measure_classes : ``module:Class`` paths (``--measure-class``), appended after ``specs``
    options : options given to every registered or class measure that accepts them (each gets
        only those its constructor accepts); an option no measure accepts is an error
    lower_is_better : column names whose lower values are better (besides those the data set
        declares)
    module_path : folders searched first when importing a ``module:Class``

    Returns
    -------
    list of :class:`MeasureSpec`, one per spec. Raises :class:`InputError` for an unknown name
    (listing the known ones), an ambiguous one, a class that does not import or is not a Scorer,
    a measure needing a text field the data lacks, or two measures with the same label.
    """
    from sumeval.metrics import _accepted

    items = [specs] if isinstance(specs, str) else list(specs)
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
    for text in items:
        head, own, orientation, explicit, output = _split_spec(text)

        def built(cls, where, factory=None):
            mine = _accepted(cls, options)
            used.update(mine)
            return _build(factory or cls, cls, {**mine, **own}, where)

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


def _resolve_one(text, head, own, orientation, explicit, output, judgments, lower, built, module_path):
    """One :class:`MeasureSpec` (see :func:`resolve_measures`)."""
    from sumeval import metrics

    columns = set(judgments.measures)
    scored_cols = set(judgments.humans) | set(judgments.annotator_columns)

    def no_orientation(what):
        if orientation is not None:
            raise InputError(f"measure {text!r}: {what} declares its own orientation "
                             "(higher_is_better); ':lower' / ':higher' apply to columns of the data only")

    def pick(scorer, column=None):
        """(name shown, column used) of ``scorer`` for this spec."""
        column = column or output
        cols = list(scorer.columns())
        if column is None:
            return scorer.name, _main_column(scorer)
        if column not in cols:
            raise InputError(f"measure {text!r}: {scorer.name!r} has no output {column!r}; its "
                             f"outputs: {', '.join(cols)}")
        return (scorer.name if column == _main_column(scorer) and not output else
                _output_name(scorer, column)), column

    def column_spec(col):
        if output:
            raise InputError(f"measure {text!r}: {col!r} is a column of {judgments.name}; '#OUTPUT' "
                             "picks an output of a scorer")
        if own:
            raise InputError(f"measure {text!r}: {col!r} is a column of {judgments.name}; columns "
                             "take no options")
        higher = orientation if orientation is not None else col not in lower
        sig = f"column={col}|dataset_sha256={judgments.sha256}"
        return MeasureSpec(col, "column", col, higher, sig, spec=text)

    def registered_spec(info, cls, column=None):
        no_orientation(repr(info.name))
        scorer = built(cls, text, lambda **o: metrics.get_scorer(info.name, **o))
        name, col = pick(scorer, column)
        if column:
            name = column
        return MeasureSpec(name, "registered", col, bool(scorer.higher_is_better),
                           scorer.signature(), spec=text, scorer=scorer)

    def class_spec(cls, path, source):
        no_orientation("a class")
        scorer = built(cls, text)
        cols = scorer.columns()
        if not isinstance(cols, (list, tuple)) or not cols or not all(isinstance(c, str) for c in cols):
            raise InputError(f"measure {text!r}: {cls.__name__}.columns() returned {cols!r}; it must "
                             "return a non-empty list of column names")
        sig = _user_signature(scorer.signature(), _class_identity(cls, path))
        name, col = pick(scorer)
        return MeasureSpec(name, source, col, bool(scorer.higher_is_better), sig, spec=text,
                           scorer=scorer)

    if explicit == "column":
        if head not in columns | scored_cols:
            raise InputError(f"measure {text!r}: {judgments.name} has no numeric column {head!r}; "
                             + _known_listing(judgments))
        return column_spec(head)
    if explicit is None and _CLASS_RE.match(head):
        return class_spec(load_scorer_class(head, module_path), head, "class")

    info, cls = _registered_class(head)
    if info is not None:
        if explicit is None and head in columns:
            raise InputError(f"measure {text!r} is both a registered measure and a measure column of "
                             f"{judgments.name}; write 'measure:{head}' or 'column:{head}'")
        return registered_spec(info, cls)
    parent = _registered_parent(head, built, text)
    if parent is not None:
        if explicit is None and head in columns:
            raise InputError(f"measure {text!r} is both an output of the registered measure "
                             f"{parent[0].name!r} and a measure column of {judgments.name}; write "
                             f"'measure:{head}' or 'column:{head}'")
        return registered_spec(*parent, column=head.lower())
    if explicit == "measure":
        raise InputError(f"measure {text!r}: no registered measure or measure output {head!r}; "
                         f"registered measures: {', '.join(m.name for m in metrics.available())}")
    if head in columns | scored_cols:
        return column_spec(head)
    eps = entry_point_measures()
    if head in eps:
        return class_spec(_load_entry_point(eps[head]), eps[head].value, "entry-point")
    raise InputError(f"unknown measure {text!r}; " + _known_listing(judgments)
                     + ". A class is named as package.module:ClassName")


def _registered_parent(head: str, built, text: str):
    """``(info, cls)`` of the registered measure that has output column ``head`` (``rouge-2-r``).

    The longest registered name that ``head`` extends with ``-...`` is tried; its scorer is built
    to read its columns.
    """
    from sumeval import metrics

    key = head.lower()
    for info in sorted(metrics.available(), key=lambda m: -len(m.name)):
        if key.startswith(info.name + "-"):
            _, cls = _registered_class(info.name)
            scorer = built(cls, text, lambda **o: metrics.get_scorer(info.name, **o))
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
        if f not in judgments.fields:
            flag = {"summary": "--summary-col", "text": "--text-col", "references": "--references-col"}[f]
            raise InputError(f"measure {spec.spec!r} needs {f!r}, which {judgments.name} does not have "
                             f"(its columns: {', '.join(map(str, judgments.frame.columns))}); map the "
                             f"column that holds it with {flag}")


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------
def _inputs_digest(frame: pd.DataFrame, needs: Iterable[str]) -> str:
    """sha256 of the texts a scorer reads (summary, and text / references as it needs)."""
    import json

    h = hashlib.sha256()
    for f in ("summary", *sorted(set(needs) - {"summary"})):
        h.update(f.encode() + b"\0")
        for v in frame[f]:
            h.update(json.dumps(_jsonable(v), ensure_ascii=False).encode("utf-8") + b"\n")
    return h.hexdigest()


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, float) and np.isnan(value):
        return None
    return value


def _records(frame: pd.DataFrame, needs: Iterable[str]) -> list[dict[str, Any]]:
    cols = ["summary", *(f for f in ("text", "references") if f in needs)]
    return [dict(zip(cols, row)) for row in frame[cols].itertuples(index=False, name=None)]


def score_judgments(judgments, measures: Sequence[MeasureSpec], *, progress: bool = False,
                    cache: bool = True, batch_size: int = 256) -> MeasureScores:
    """Score ``judgments`` with ``measures`` (from :func:`resolve_measures`).

    Each distinct scorer (by signature) runs once over all rows; its outputs are cached in
    ``Store("scores")`` under ``cache_key(dataset=judgments.sha256, rows=judgments.row_ids(),
    signature=..., inputs=sha256 of the texts it reads)``, with the rows it could not score. A
    column measure is read from the frame.

    Returns
    -------
    MeasureScores
        ``frame``: one column per measure label, oriented so that higher is better (a
        lower-is-better measure negated, its label ending in ``(negated)``); ``signatures``;
        ``not_scored`` (empty summaries, missing text or references, undefined values, empty
        cells of a column); ``from_cache``.
    """
    from sumeval import metrics
    from sumeval.cache import Store, cache_key

    frame = judgments.frame
    ids = judgments.row_ids()
    store = Store("scores")
    outputs: dict[str, tuple[pd.DataFrame, list, bool]] = {}
    result = pd.DataFrame(index=frame.index)
    signatures: dict[str, str] = {}
    not_scored: list[dict[str, Any]] = []
    from_cache: dict[str, bool] = {}

    def report(row: int, label: str, reason: str) -> None:
        not_scored.append({"row": int(row), "doc_id": frame.at[row, "doc_id"],
                           "system": frame.at[row, "system"], "location": judgments.location(row),
                           "measure": label, "reason": reason})

    for spec in measures:
        signatures[spec.label] = spec.signature
        if spec.scorer is None:
            values = pd.to_numeric(frame[spec.column], errors="coerce").to_numpy(dtype=float)
            for row in np.flatnonzero(np.isnan(values)):
                report(row, spec.label, f"no value in column {spec.column!r}")
            result[spec.label] = spec.sign * values
            from_cache[spec.label] = False
            continue
        if spec.signature not in outputs:
            scorer = spec.scorer
            key = cache_key(dataset=judgments.sha256, rows=ids, signature=spec.signature,
                            inputs=_inputs_digest(frame, scorer.needs))
            scores = store.get_frame(key) if cache else None
            skipped = store.get_json(key) if scores is not None else None
            hit = scores is not None and skipped is not None
            if not hit:
                scores, rep = metrics.score_records(_records(frame, scorer.needs), [scorer],
                                                    batch_size=batch_size, progress=progress)
                skipped = [[int(i), why] for i, _, why in rep.skipped]
                if cache:
                    store.put_json(key, skipped)
                    store.put_frame(key, scores)
            outputs[spec.signature] = (scores, skipped, hit)
        scores, skipped, hit = outputs[spec.signature]
        if spec.column not in scores.columns:
            raise InputError(f"measure {spec.spec!r}: the scorer returned no column {spec.column!r} "
                             f"(it returned {', '.join(scores.columns)})")
        for row, why in skipped:
            report(row, spec.label, why)
        result[spec.label] = spec.sign * scores[spec.column].to_numpy(dtype=float)
        from_cache[spec.label] = hit
    return MeasureScores(result, signatures, not_scored, list(measures), from_cache)


def build_scorer_class(path: str, *, options: Mapping[str, Any] | None = None,
                       module_path: Sequence[str | Path] = ()) -> Scorer:
    """A user's scorer, built from its class path (``"pkg.mod:MyScorer"``) with the ``options``
    its constructor accepts; its :meth:`~Scorer.signature` also records the class's import path,
    version and source hash (as :func:`resolve_measures` does), so it is signed like a built-in
    measure wherever it is used (``sumeval score --measure-class``)."""
    from sumeval.metrics import _accepted

    cls = load_scorer_class(path, module_path)
    scorer = _build(cls, cls, _accepted(cls, dict(options or {})), path)
    identity = _class_identity(cls, path)
    base = scorer.signature
    scorer.signature = lambda: _user_signature(base(), identity)  # type: ignore[method-assign]
    return scorer
