"""The studies and their parameter sets: which notebooks are studies, what their ``parameters``
cells declare, and the parameters of a run (a set, ``-p`` overrides, checked against the declared
types and ranges).

A study is a notebook ``notebooks/<study>.ipynb`` whose ``parameters`` cell holds typed literals,
with its parameter sets beside it in ``notebooks/<study>.params.yaml``::

    smoke:    {n_docs: 5, n_resamples: 50}
    default:  {}

:func:`resolve_parameters` validates every name against the notebook (papermill itself only
warns on an unknown name); :mod:`sumeval.running.runner` runs the notebook. The ``-p key=value``
pairs are read by :func:`sumeval.argtypes.parse_overrides`.

The notebook a run reads is its committed form (:meth:`StudyNotebook.source`,
:mod:`sumeval.running.committed`: git HEAD's, else the file; outputs stripped), never what a
JupyterLab session saved into the file: its parameters cell declares the names and gives the
defaults, and :func:`resolve_run` gives every parameter of a run (the defaults overlaid by the set
and ``-p``), refusing a notebook file edited since its commit.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from sumeval.errors import InputError
from sumeval.paths import notebooks_dir

__all__ = ["StudyNotebook", "studies", "get_study", "parameter_ranges", "check_range", "resolve_parameters",
           "ResolvedRun", "resolve_run",
           "RUNNER_SET", "PROMISE_KEYS",
           "FIGURES_KEY", "TABLES_KEY", "MINUTES_KEY", "MINUTES_MACHINE", "RESERVED_NAMES", "COMMON_RANGES"]

# parameters the runner sets itself; a notebook declares them, a user may not override them
RUNNER_SET = {"interactive": False}


FIGURES_KEY = "figures"  # in a .params.yaml: the figures the study promises, not a parameter set
TABLES_KEY = "tables"  # likewise the tables (ctx.save_table) it promises
PROMISE_KEYS = (FIGURES_KEY, TABLES_KEY)
MINUTES_KEY = "minutes"  # rough minutes of a cold run per parameter set: `run all` starts the longest first
MINUTES_MACHINE = "a 2-core CPU"  # where the parameter files' minutes were measured (BENCHMARKS.md)
NOT_SETS = (*PROMISE_KEYS, MINUTES_KEY)


@dataclass(frozen=True)
class StudyNotebook:
    """A study as the runner sees it: ``notebooks/<name>.ipynb`` and its parameter file."""

    name: str
    notebook: Path
    params_file: Path

    def _read(self) -> Any:
        """The parameter file, parsed (``{}`` when empty); InputError naming it when it is not YAML."""
        import yaml

        try:
            return yaml.safe_load(self.params_file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise InputError(f"{self.params_file}: not valid YAML ({exc})") from exc

    def parameter_sets(self) -> dict[str, dict[str, Any]]:
        data = self._read()
        sets = {k: v for k, v in data.items() if k not in NOT_SETS} if isinstance(data, dict) else None
        if sets is None or not all(isinstance(v, (dict, type(None))) for v in sets.values()):
            raise InputError(
                f"{self.params_file}: expected a mapping of parameter-set names to mappings "
                "(e.g. 'smoke: {n_docs: 5}'), and optionally 'figures:' and 'tables:' (lists of names) "
                "and 'minutes:' (a set's rough minutes)"
            )
        return {str(k): dict(v or {}) for k, v in sets.items()}

    def expected_minutes(self, params_name: str) -> float | None:
        """The rough minutes of a cold run of ``params_name`` that the parameter file's ``minutes:``
        states (``minutes: {default: 25}``), else None. ``run all`` starts the longest studies
        first, so that the short ones fill the cores at the end."""
        data = self._read()
        minutes = data.get(MINUTES_KEY) if isinstance(data, dict) else None
        if minutes is None:
            return None
        if not isinstance(minutes, dict) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in minutes.values()):
            raise InputError(f"{self.params_file}: '{MINUTES_KEY}' must map parameter-set names to minutes "
                             f"(numbers >= 0), e.g. '{MINUTES_KEY}: {{default: 25}}'; got {minutes!r}")
        value = minutes.get(params_name)
        return None if value is None else float(value)

    def promised(self, kind: str = FIGURES_KEY) -> list[str]:
        """The figures (``kind="figures"``) or tables (``"tables"``) the study promises: that list
        of its parameter file (names without extension; ``*`` and ``?`` match any text, e.g.
        ``table3_*_tau``)."""
        data = self._read()
        names = data.get(kind) if isinstance(data, dict) else None
        if names is None:
            return []
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise InputError(f"{self.params_file}: '{kind}' must be a list of names, e.g. "
                             f"['fig2_index_size', 'table2_*'], got {names!r}")
        return list(names)

    def promised_figures(self) -> list[str]:
        """The figures the study promises (:meth:`promised`)."""
        return self.promised(FIGURES_KEY)

    def missing(self, written: Sequence[str], kind: str = FIGURES_KEY, skipped: Sequence[str] = ()) -> list[str]:
        """The promised names of ``kind`` that none of the ``written`` files (paths) matches and
        that the run did not declare ``skipped`` (``ctx.skip``: a name or the promise itself)."""
        import fnmatch

        stems = {Path(f).stem for f in written}
        return [p for p in self.promised(kind)
                if not any(fnmatch.fnmatchcase(s, p) for s in stems)
                and not any(s == p or fnmatch.fnmatchcase(s, p) for s in skipped)]

    def missing_figures(self, written: Sequence[str]) -> list[str]:
        """The promised figure names that none of the ``written`` files (paths) matches."""
        return self.missing(written, FIGURES_KEY)

    def source(self):
        """The notebook's committed form (:func:`sumeval.running.committed.committed`): git HEAD's
        blob in a git checkout, else the file; outputs stripped. A run executes it, and its
        parameters cell holds the defaults."""
        from sumeval.running.committed import committed

        return committed(self.notebook)

    def _parameters_cell(self, source=None):
        source = source or self.source()
        cells = [c for c in source.nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
        if len(cells) != 1:
            raise InputError(f"{self.notebook}: needs exactly one code cell tagged 'parameters', found {len(cells)}")
        return source, cells[0]

    def declared_parameters(self, source=None) -> dict[str, dict[str, Any]]:
        """The parameters cell of the committed notebook (:meth:`source`, or ``source`` given):
        ``{name: {default, inferred_type_name, help}}`` (``default``: the value's source text).

        Raises InputError when papermill cannot read a parameter that the cell assigns (papermill
        skips such a line silently - e.g. one whose comment holds ``=``).
        """
        import ast

        from papermill.translators import papermill_translators
        from papermill.utils import nb_kernel_name, nb_language

        source, cell = self._parameters_cell(source)
        try:
            translator = papermill_translators.find_translator(nb_kernel_name(source.nb), nb_language(source.nb))
        except ValueError as exc:
            raise InputError(f"{self.notebook}: {exc} (its metadata needs a kernelspec)") from None
        parsed = {p.name: dict(p._asdict()) for p in translator.inspect(cell)}
        for node in ast.parse(cell.source).body:
            targets = [node.target] if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [])
            for t in targets:
                if isinstance(t, ast.Name) and t.id not in parsed:
                    line = cell.source.splitlines()[node.lineno - 1]
                    raise InputError(
                        f"{self.notebook}: papermill cannot read parameter {t.id!r} from line {line!r}; "
                        "write it as `name: type = literal  # comment` with no '=' in the comment"
                    )
        return parsed

    def listed_parameters(self) -> dict[str, str]:
        """``{name: the source text of its default}`` of the committed notebook's parameters cell, read
        cheaply (:func:`~sumeval.running.committed.committed_parameters_cell` and
        :func:`~sumeval.running.committed.parameter_texts`, no nbformat or papermill): what ``sumeval
        list`` shows. The names and defaults are those of :meth:`declared_parameters` (a test holds the
        two to each other on every study), which a run checks with papermill's reading of the cell."""
        from sumeval.running.committed import committed_parameters_cell, parameter_texts

        return parameter_texts(committed_parameters_cell(self.notebook))

    def defaults(self, source=None) -> dict[str, Any]:
        """``{name: value}`` of the committed notebook's parameters cell, in its order: the values
        a run takes for every parameter its set and ``-p`` do not name. InputError for a value that
        is not a literal (``n: int = 2 ** 10``): a run records every value, so the cell holds literals
        (compute derived values in a later cell)."""
        import ast

        source, cell = self._parameters_cell(source)
        declared = self.declared_parameters(source)
        values: dict[str, Any] = {}
        for node in ast.parse(cell.source).body:
            targets = [node.target] if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [])
            for t in targets:
                if not (isinstance(t, ast.Name) and t.id in declared and getattr(node, "value", None) is not None):
                    continue
                try:
                    values[t.id] = ast.literal_eval(node.value)
                except ValueError:
                    raise InputError(
                        f"{self.notebook}: parameter {t.id!r} is not a literal ({ast.unparse(node.value)!r}); "
                        "the parameters cell holds literals, e.g. `n_docs: int = 1024` (compute derived "
                        "values in a later cell)") from None
        return values


def studies() -> dict[str, StudyNotebook]:
    """Every study: a notebook with a parameter-set file beside it, by name."""
    folder = notebooks_dir()
    found = {}
    for nb in sorted(folder.glob("*.ipynb")):
        params = nb.with_suffix(".params.yaml")
        if params.is_file() and nb.stem not in RESERVED_NAMES:
            found[nb.stem] = StudyNotebook(nb.stem, nb, params)
    return found


RESERVED_NAMES = {"all"}  # `sumeval run all` runs every study


def get_study(name: str) -> StudyNotebook:
    if name in RESERVED_NAMES:
        raise InputError(f"{name!r} is reserved (`sumeval run all` runs every study); rename the notebook")
    known = studies()
    if name not in known:
        raise InputError(
            f"unknown study {name!r}; known studies: {', '.join(known) or '(none)'} "
            f"(notebooks with a .params.yaml beside them in {notebooks_dir()})"
        )
    return known[name]


def _yaml_reading(name: str, value: Any) -> str:
    """Why a value is not a string: how YAML read it and how to quote it (for messages)."""
    if isinstance(value, bool):
        how = "the boolean " + str(value).lower() + " (YAML reads yes/no/on/off/true/false that way)"
    elif isinstance(value, (int, float)):
        how = f"the number {value!r}"
    elif value is None:
        how = "null (YAML reads null, ~ and an empty flow value that way)"
    elif isinstance(value, (list, dict)):
        how = f"a {type(value).__name__}"
    else:
        how = f"a {type(value).__name__} ({value!r})"
    return (f"; the value was read as YAML, as {how}. To pass text, quote it inside the argument: "
            f"-p '{name}=\"...\"'")


#: ranges of parameters every study shares, by name (see :func:`check_range`)
COMMON_RANGES: dict[str, str] = {"seed": ">=0"}


def parameter_ranges(study: StudyNotebook) -> dict[str, Any]:
    """The allowed ranges of the study's numeric parameters: :data:`COMMON_RANGES` and the
    ``PARAMETER_RANGES`` of its module ``sumeval.studies.<study>`` (when there is one)."""
    import importlib
    import importlib.util

    module = f"sumeval.studies.{study.name}"
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    own = getattr(importlib.import_module(module), "PARAMETER_RANGES", {}) if found else {}
    return {**COMMON_RANGES, **own}


def _rule_words(rule: str) -> str:
    """``"0..100"`` -> ``"between 0 and 100"``, ``">=1"`` -> ``"at least 1"``."""
    lo, sep, hi = rule.partition("..")
    if sep:
        return f"between {lo.strip()} and {hi.strip()}"
    for op, words in ((">=", "at least"), ("<=", "at most"), (">", "greater than"), ("<", "less than")):
        if rule.strip().startswith(op):
            return f"{words} {rule.strip()[len(op):].strip()}"
    return rule


def check_range(value: Any, rule: str) -> bool:
    """Whether the number ``value`` (or every number of a list) satisfies ``rule``: ``"0..100"``
    (inclusive), ``">=0"``, ``">0"``, ``"<=1"``, ``"<1"``. Values that are not numbers are not
    checked here (their type is)."""
    import operator
    import re

    values = value if isinstance(value, list) else [value]
    nums = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    m = re.fullmatch(r"\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*", rule)
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        return all(lo <= v <= hi for v in nums)
    m = re.fullmatch(r"\s*(>=|>|<=|<)\s*(-?[\d.]+)\s*", rule)
    if not m:
        raise ValueError(f"bad range rule {rule!r}; write e.g. '0..100', '>=0' or '>0'")
    op = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt}[m.group(1)]
    return all(op(v, float(m.group(2))) for v in nums)


_TYPES = {"int": (int,), "float": (int, float), "bool": (bool,), "str": (str,),
          "list": (list,), "dict": (dict,)}


def resolve_parameters(study: StudyNotebook, params_name: str, overrides: Mapping[str, Any] | None = None,
                       *, source=None) -> dict[str, Any]:
    """The parameters a run sets: the set ``params_name`` plus ``overrides`` (and the runner's own,
    ``interactive``), all validated - what papermill injects. Every parameter of the run, the
    notebook's committed defaults under these: :func:`resolve_run`.

    Raises InputError for an unknown set, an unknown parameter name (with the declared names),
    a parameter the runner sets itself, a value whose type differs from the declared one, or a
    number outside its range (:func:`parameter_ranges`) - before any kernel starts.

    A ``str`` parameter given on the command line keeps the text typed when YAML reads it as a
    boolean, a number, a date or null (``-p dataset=no`` is the data set ``"no"``, ``-p humans=1.0``
    the column ``"1.0"``), when ``overrides`` come from :func:`sumeval.argtypes.parse_overrides`; elsewhere (a
    parameter file, a sweep grid) such a value is refused with how to quote it.
    """
    sets = study.parameter_sets()
    if params_name not in sets:
        raise InputError(
            f"study {study.name!r} has no parameter set {params_name!r}; "
            f"its sets are: {', '.join(sets)} (in {study.params_file})"
        )
    declared = study.declared_parameters(source)
    merged = {**sets[params_name], **dict(overrides or {})}
    for name, value in merged.items():
        if name not in declared:
            raise InputError(
                f"unknown parameter {name!r} for study {study.name!r} (set {params_name!r}); "
                f"the notebook declares: {', '.join(sorted(declared))}"
            )
        if name in RUNNER_SET:
            raise InputError(f"parameter {name!r} is set by the runner ({RUNNER_SET[name]!r}); drop it")
        want = declared[name].get("inferred_type_name", "None")
        types = _TYPES.get(want)
        texts = getattr(overrides, "texts", {})
        if (want == "str" and name in texts and texts[name] and not isinstance(value, (str, list, dict))
                and overrides is not None and overrides.get(name) is value):
            merged[name] = value = texts[name]  # -p dataset=no, -p humans=1.0: the text typed, not YAML's bool
        if types and not (isinstance(value, types) and not (want != "bool" and isinstance(value, bool))):
            raise InputError(
                f"parameter {name!r} of study {study.name!r} must be {want} "
                f"(notebook default {declared[name].get('default')}), got {value!r}"
                + (_yaml_reading(name, value) if want == "str" else "")
            )
    ranges = parameter_ranges(study)
    for name, value in merged.items():
        rule = ranges.get(name)
        rule, note = (rule, "") if isinstance(rule, str) or rule is None else (rule[0], f" ({rule[1]})")
        if rule and not check_range(value, rule):
            each = "every element of " if isinstance(value, list) else ""
            raise InputError(f"parameter {name!r} of study {study.name!r}: {each}{name} must be "
                             f"{_rule_words(rule)}{note}, got {value!r}")
    for name, value in RUNNER_SET.items():
        if name in declared:
            merged[name] = value
    return merged


@dataclass(frozen=True)
class ResolvedRun:
    """The parameters of a run (:func:`resolve_run`)."""

    given: dict[str, Any]  # what the set, -p and the runner set: papermill injects these
    parameters: dict[str, Any]  # every parameter: the committed defaults overlaid by ``given``
    source: Any  # sumeval.running.committed.NotebookSource: the notebook the run executes

    @property
    def notes(self) -> list[str]:
        """What the run must say about its notebook (a notebook git does not hold yet)."""
        note = self.source.note()
        return [note] if note else []


def resolve_run(study: StudyNotebook, params_name: str, overrides: Mapping[str, Any] | None = None
                ) -> ResolvedRun:
    """The parameters of a run of ``study``: the notebook's committed defaults (:meth:`StudyNotebook.
    defaults` of :meth:`StudyNotebook.source`: git HEAD's notebook, else the file) overlaid by the set
    ``params_name`` and ``overrides`` (:func:`resolve_parameters`), every one of them; a run records
    them all and its id covers them all.

    Raises InputError, before any kernel starts, for what :func:`resolve_parameters` refuses and
    for a notebook file whose cells differ from its committed form
    (:func:`sumeval.running.committed.check_unedited`: a JupyterLab session saved its edits there).
    """
    from sumeval.running.committed import check_unedited

    source = study.source()
    check_unedited(source)
    given = resolve_parameters(study, params_name, overrides, source=source)
    return ResolvedRun(given, {**study.defaults(source), **given}, source)
