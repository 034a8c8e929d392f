"""Publishing a successful run's figures and tables under ``figures/<study>/``.

A study run writes its figures and tables into its own run folder only
(``runs/<study>/<run-id>/figures/`` and ``tables/``). When the run succeeds, the runner
*publishes* them (:func:`publish`): each file is copied atomically into the study's folder under
``figures/``, then the files of that folder that an earlier publication wrote and this run did not
are removed (:func:`prune_stale`), so the folder shows the latest successful run's output. The
record ``figures/.published/<study>[/<label>].json`` lists what was published there (outside the
folder itself); a file a user put there (notes, an edited figure) is never removed. A failing run publishes
nothing, so ``figures/<study>/`` keeps the
last successful run's files byte for byte.

The folder is named by data set (:func:`output_label`): a run on the notebook's own data sets (its
defaults, SummEval for most studies) publishes to ``figures/<study>/``; a run with another
``dataset=`` (or ``system_dataset=``, any parameter named ``*_dataset``) publishes to
``figures/<study>/<label>/``, e.g. ``figures/metric_correlations/mine/`` for ``-p dataset=mine``,
so a run on a user's data set never replaces SummEval's figures of the same study.
"""
from __future__ import annotations

import ast
import hashlib
import re
import shutil
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from sumeval.cache import atomic_path
from sumeval.paths import figures_dir

__all__ = ["PUBLISHED_RECORDS", "FIGURE_SUFFIXES", "output_label", "published_folder", "publish", "publish_run",
           "published_record", "prune_stale"]

#: The folder under ``figures/`` of the records of what each publication wrote (:func:`published_record`).
PUBLISHED_RECORDS = ".published"

#: suffixes of the figure files a study publishes (tables add :data:`sumeval.tables.FORMATS`)
FIGURE_SUFFIXES = (".pdf", ".png")
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # fullmatch: "$" would let "name\n" through


def _label_part(value: str) -> str:
    """A data set value as a folder name: a data set name as is; a path as its stem plus 8 hex
    digits of the path's sha256 (two files of the same name stay apart)."""
    if _PLAIN.fullmatch(value):
        return value
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(value).stem).strip("-.") or "data"
    return f"{stem[:40]}-{hashlib.sha256(value.encode('utf-8')).hexdigest()[:8]}"


def _literal(text: Any) -> Any:
    """A notebook default as papermill reports it (source text such as ``'"summeval"'``) as a value."""
    if not isinstance(text, str):
        return text
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def output_label(params: Mapping[str, Any], defaults: Mapping[str, Any]) -> str | None:
    """The data-set part of where a run's outputs are published: None when every data set
    parameter (``dataset`` and every ``*_dataset``) has its notebook default, else e.g. ``"mine"``
    (``dataset=mine``), ``"system_dataset-other"`` or ``"mine+system_dataset-other"``.

    ``defaults``: ``{name: default}`` of the notebook's parameters (values, or the source text
    papermill reports); a data set parameter without a default counts as changed.
    """
    parts = []
    for name in sorted(params, key=lambda n: (n != "dataset", n)):
        value = params[name]
        if not (name == "dataset" or name.endswith("_dataset")) or not isinstance(value, str) or not value:
            continue
        if name in defaults and _literal(defaults[name]) == value:
            continue
        part = _label_part(value)
        parts.append(part if name == "dataset" else f"{name}-{part}")
    return "+".join(parts) or None


def published_folder(study: str, label: str | None = None) -> Path:
    """``figures/<study>/`` (``label`` None) or ``figures/<study>/<label>/``."""
    folder = figures_dir() / study
    return folder / label if label else folder


def publish(study: str, files: Sequence[str | Path], label: str | None = None) -> list[Path]:
    """Copy a successful run's figure and table files (paths in its run folder) into
    :func:`published_folder`, each atomically (a reader never sees half a file), then remove the
    files of that folder the run did not write (:func:`prune_stale`). Returns the published paths.

    Only the folder's own files are touched: the data-set subfolders of ``figures/<study>/`` are
    left alone when the study's own folder is published, and the other way round.
    """
    from sumeval.cache import atomic_write_json

    folder = published_folder(study, label)
    out = []
    for src in dict.fromkeys(Path(f) for f in files):
        if not src.is_file():
            continue
        target = folder / src.name
        with atomic_path(target) as tmp:
            shutil.copyfile(src, tmp)
        out.append(target)
    prune_stale(folder, [p.name for p in out])
    record = published_record(folder)
    if folder.is_dir() and record is not None:
        record.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_json(record, {"folder": str(folder), "files": sorted(p.name for p in out)})
    return out


def publish_run(study, params: Mapping[str, Any], results: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """Publish a successful run's figures and tables (paths in its run folder, from its
    ``results.json`` payload ``results``) to ``figures/<study>/[<label>/]`` (:func:`publish`,
    :func:`output_label`); ``study`` is the :class:`~sumeval.running.study_params.StudyNotebook`.

    Returns ``({"folder", "files"}, None)``, or ``({}, error)`` when the copy fails (a full disk):
    the run is then failed, with the figures folder named.
    """
    from sumeval.runstate import storage_note
    from sumeval.tables import FORMATS

    defaults = {k: v.get("default") for k, v in study.declared_parameters().items()}
    label = output_label(params, defaults)
    files = [*results.get("figures", []),
             *(str(Path(t).with_suffix(f".{s}")) for t in results.get("tables", []) for s in FORMATS)]
    folder = published_folder(study.name, label)
    try:
        written = publish(study.name, files, label)
    except OSError as exc:
        return {}, (f"the run succeeded, but publishing its figures to {folder} failed: "
                    f"{exc.strerror or exc}{storage_note(exc, folder)}; its own copies are in the run folder")
    return {"folder": str(folder), "files": [str(p) for p in written]}, None


def published_record(folder: Path) -> Path | None:
    """Where the files published to ``folder`` (``figures/<study>[/<label>]``) are recorded:
    ``figures/.published/<study>.json`` or ``figures/.published/<study>/<label>.json``; None for a
    folder outside ``figures/``."""
    try:
        parts = Path(folder).resolve().relative_to(figures_dir().resolve()).parts
    except ValueError:
        return None
    if not 1 <= len(parts) <= 2 or parts[0] == PUBLISHED_RECORDS:
        return None
    return figures_dir().joinpath(PUBLISHED_RECORDS, *parts[:-1], f"{parts[-1]}.json")


def _published_before(folder: Path) -> set[str] | None:
    """The names the record of ``folder`` says an earlier publication wrote; None without a record
    (a folder published before records were kept); an unreadable record names nothing."""
    import json

    record = published_record(folder)
    if record is None or not record.exists():
        return None
    try:
        files = json.loads(record.read_text(encoding="utf-8")).get("files")
    except (OSError, ValueError, AttributeError):
        return set()
    return {str(f) for f in files} if isinstance(files, list) else set()


def prune_stale(folder: Path, keep: Iterable[str]) -> list[Path]:
    """Remove the figure (PDF / PNG) and table (CSV / TeX / Markdown / HTML) files directly in
    ``folder`` whose names are not in ``keep`` and that an earlier publication wrote (the names in
    its record, :func:`published_record`; every such file of a folder without a record, as before
    records were kept); other files - a user's notes or figures - and subfolders stay. Returns them."""
    from sumeval.tables import FORMATS

    keep = set(keep)
    ours = _published_before(folder)
    suffixes = {*FIGURE_SUFFIXES, *(f".{s}" for s in FORMATS)}
    removed = []
    if folder.is_dir():
        for f in sorted(folder.iterdir()):
            if ours is not None and f.name not in ours:
                continue
            if f.is_file() and not f.is_symlink() and f.suffix in suffixes and f.name not in keep:
                f.unlink()
                removed.append(f)
    return removed
