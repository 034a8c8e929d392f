"""The run context of a study notebook: what it uses to record its run (figures, tables, results
and provenance).

Three names, three things: a *study notebook* is ``notebooks/<study>.ipynb`` with its parameter
file (:class:`sumeval.running.study_params.StudyNotebook`); the *study module* ``sumeval.studies.<study>`` holds
what the notebook computes; the *run context* (this module, :class:`RunContext`) records one run
of the notebook.

The runner (:mod:`sumeval.running.runner`) executes a notebook with ``$SUMEVAL_RUN_DIR`` set to the run's
folder (``runs/<study>/<run-id>/``); in JupyterLab, without the runner, results go to
``runs/<study>/interactive/``. A notebook does::

    ctx = run_context.context("metric_correlations")   # records the run's parameters itself
    ctx.save_figure(fig, "table1_rouge")
    ctx.save_table(frame, "table1_rouge")        # CSV + LaTeX + Markdown + HTML
    ctx.write_results({"table1": frame.to_dict("records")})

Figures and tables are written into the run folder only (``figures/`` and ``tables/`` in it); the
runner publishes them to ``figures/<study>/`` when the run succeeds (:func:`sumeval.running.publish.publish`),
so a failing run never replaces the last successful run's figures. Without the runner (an
interactive session), :meth:`RunContext.write_results` publishes them, since reaching it is the
notebook's success. A run that wrote no figure and no table and declared skipped outputs
(:meth:`RunContext.skip`) skipped all its parts: ``results.json`` says ``"status": "skipped"`` with
the reasons, and the runner reports the run ``skipped``, never ``ok``.

The parameters a run records (``results.json``'s ``params``) are the notebook's own, never listed
twice: every name its ``parameters`` cell declares (:meth:`~sumeval.running.study_params.StudyNotebook.
declared_parameters`) but those the runner sets (``interactive``), valued as the run's resolved
parameters (every one: the committed notebook's defaults overlaid by the set and ``-p``, as the runner
wrote them to the run's ``manifest.json``) and, without the runner, as the notebook's namespace holds
them (in an interactive session, whatever the parameters cell was run with) - :func:`notebook_parameters`.
"""
from __future__ import annotations

import json
import math
import os
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from sumeval.cache import atomic_write_json
from sumeval.errors import InputError
from sumeval.paths import runs_dir
from sumeval.running.study_params import RUNNER_SET, get_study

__all__ = ["RUN_DIR_ENV", "RunContext", "run_parameters", "notebook_parameters", "context"]

RUN_DIR_ENV = "SUMEVAL_RUN_DIR"


def _jsonable(value: Any) -> Any:
    """Turn numpy / pandas values into plain JSON (NaN -> None)."""
    try:
        import numpy as np
        import pandas as pd
    except ImportError:  # pragma: no cover
        np = pd = None
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if pd is not None and isinstance(value, pd.DataFrame):
        return [_jsonable(r) for r in value.to_dict("records")]
    if pd is not None and isinstance(value, pd.Series):
        return _jsonable(value.to_dict())
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    if np is not None and isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if np is not None and isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, Path):
        return str(value)
    return value


@dataclass
class RunContext:
    """The run a notebook is part of: where its results go and what it used."""

    study: str
    run_dir: Path
    params: dict[str, Any] = field(default_factory=dict)
    figures: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def under_runner(self) -> bool:
        return os.environ.get(RUN_DIR_ENV) is not None

    def save_figure(self, fig, name: str, formats=("pdf", "png")) -> list[Path]:
        """Save ``fig`` as ``<run dir>/figures/<name>.<fmt>`` (PDF and PNG) and record it for the
        manifest; a successful run publishes it to ``figures/<study>/`` (module docstring)."""
        from sumeval import figures

        paths = figures.save(fig, "", name, formats=formats, folder=self.run_dir / "figures")
        self.figures.extend(str(p) for p in paths)
        return paths

    def save_table(self, frame, name: str, *, precision: int = 3, bold=None, marks=None,
                   caption: str | None = None, index: bool = True, notes=(), intervals=None) -> dict[str, Path]:
        """Save ``frame`` as a paper-ready table: ``name.csv`` (full precision), ``name.tex``
        (booktabs), ``name.md`` and ``name.html`` in the run's own ``tables/`` folder, published to
        ``figures/<study>/`` with the figures when the run succeeds (see
        :func:`sumeval.tables.write_table` for ``bold``, ``marks``, ``intervals`` and ``notes``,
        sentences under the table; its ``\\label`` names the study and its data set). The run report
        shows the HTML version."""
        from sumeval import tables

        written = tables.write_table(frame, self.run_dir / "tables", name, precision=precision,
                                     bold=bold, marks=marks, caption=caption, index=index, notes=notes,
                                     intervals=intervals, dataset=self._datasets(),
                                     source=self.study)
        self.tables.append(str(self.run_dir / "tables" / f"{name}.csv"))
        return written

    def _datasets(self) -> list[str]:
        """The run's data sets (``dataset``, then any ``*_dataset`` parameter), for table labels."""
        names = [self.params.get("dataset")] + [v for k, v in self.params.items() if k.endswith("_dataset")]
        return [str(n) for n in names if n]

    def skip(self, names: str | list[str], reason: str) -> None:
        """Declare promised figures or tables (names or the params file's patterns) that this run
        does not write, and why (e.g. the data set has no references): the runner accepts them as
        kept promises, and ``results.json`` records the reason."""
        if not reason:
            raise ValueError("a skipped output needs its reason")
        for name in [names] if isinstance(names, str) else names:
            self.skipped[name] = reason

    def note(self, text: str) -> None:
        """Say something the reader of the results must know (a part left out and why, a data set
        without references ...): printed in the notebook, kept in ``results.json`` and the run's
        manifest (``notes``), and printed by ``sumeval run`` (also with ``-q``) and in the run report."""
        text = str(text).strip()
        if not text:
            raise ValueError("a note needs its text")
        if text not in self.notes:
            self.notes.append(text)
        print(f"note: {text}")

    def record(self, **items: Any) -> None:
        """Record provenance (model identity, data checksums, device ...) for the manifest."""
        self.provenance.update(_jsonable(items))

    def skipped_all(self) -> str | None:
        """The reasons, when the run wrote no figure and no table and declared skipped outputs
        (it skipped all its parts); None otherwise."""
        if self.figures or self.tables or not self.skipped:
            return None
        return "; ".join(dict.fromkeys(self.skipped.values()))

    def output_files(self) -> list[str]:
        """Every figure and table file this run wrote (tables: each of their formats)."""
        from sumeval.tables import FORMATS

        tables = [str(Path(t).with_suffix(f".{s}")) for t in self.tables for s in FORMATS]
        return [*self.figures, *tables]

    def write_results(self, results: Mapping[str, Any]) -> Path:
        """Write ``results.json`` (key numbers of the study) with figures and provenance; without
        the runner (interactive), also publish the figures and tables to ``figures/<study>/``."""
        from sumeval.datasets import registry

        prov = dict(self.provenance)
        used = registry.accessed() if hasattr(registry, "accessed") else {}
        if used:
            prov.setdefault("data_files", used)
        payload = {
            "study": self.study,
            "params": _jsonable(self.params),
            "results": _jsonable(results),
            "figures": self.figures,
            "tables": self.tables,
            "skipped_outputs": self.skipped,
            "notes": list(self.notes),
            "provenance": _jsonable(prov),
        }
        reason = self.skipped_all()
        if reason:
            payload.update(status="skipped", skipped_reason=reason)
        path = atomic_write_json(self.run_dir / "results.json", payload)
        if not self.under_runner and not reason:
            self._publish_interactive()
        return path

    def _publish_interactive(self) -> list[Path]:
        """Publish this session's outputs as the runner does for a successful run."""
        from sumeval.running import publish

        defaults: dict[str, Any] = {}
        try:
            defaults = {k: v.get("default") for k, v in get_study(self.study).declared_parameters().items()}
        except (InputError, OSError, ValueError):
            pass
        label = publish.output_label(self.params, defaults)
        return publish.publish(self.study, self.output_files(), label)


def run_parameters(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The resolved parameters of the run in ``run_dir`` (every parameter: the committed defaults, its
    parameter set and ``-p`` overrides, as the runner wrote them to the run's ``manifest.json`` before
    starting the notebook; a manifest of an older run holds the set's and ``-p``'s only); ``{}`` when
    the folder holds no readable manifest (an interactive session, a test)."""
    try:
        manifest = json.loads((Path(run_dir) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    params = manifest.get("parameters") if isinstance(manifest, dict) else None
    return dict(params) if isinstance(params, dict) else {}


def notebook_parameters(study: str, namespace: Mapping[str, Any],
                        run_dir: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The parameters of study ``study`` as its notebook runs with them: ``{name: value}`` for every
    name of the notebook's ``parameters`` cell, in the cell's order, but those the runner sets
    itself (``interactive``). A value is the run's resolved one (:func:`run_parameters` of
    ``run_dir``) where the run set it, else ``namespace``'s (the notebook's globals: the parameters
    cell's default, or in an interactive session what that cell was run with).

    Returns ``{}`` for a name without a study notebook (a script's or a test's context). Raises
    InputError naming the parameters that neither holds (the parameters cell was not run).
    """
    try:
        study_nb = get_study(study)
    except InputError:
        return {}
    names = [n for n in study_nb.declared_parameters() if n not in RUNNER_SET]
    given = run_parameters(run_dir) if run_dir is not None else {}
    missing = [n for n in names if n not in given and n not in namespace]
    if missing:
        raise InputError(f"study {study!r}: parameter(s) {', '.join(missing)} of {study_nb.notebook.name} "
                         "are not set in this session; run the notebook's parameters cell first")
    return {n: given[n] if n in given else namespace[n] for n in names}


def context(study: str, params: Mapping[str, Any] | None = None) -> RunContext:
    """The :class:`RunContext` of the current run (or of an interactive session).

    A study notebook calls ``context("<study>")`` from a cell: the run records the notebook's
    parameters (:func:`notebook_parameters`, the calling cell's globals being the notebook's
    namespace), so none is listed twice. ``params`` replaces them (a script's or a test's context).
    """
    env = os.environ.get(RUN_DIR_ENV)
    run_dir = Path(env) if env else runs_dir() / study / "interactive"
    if params is None:
        params = notebook_parameters(study, sys._getframe(1).f_globals, run_dir if env else None)
    run_dir.mkdir(parents=True, exist_ok=True)
    from sumeval import figures

    figures.apply_style()
    ctx = RunContext(study=study, run_dir=run_dir, params=dict(params))
    ctx.record(python=platform.python_version(), host=platform.node())
    return ctx
