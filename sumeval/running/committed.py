"""The committed form of a study notebook: what a batch run executes and takes its defaults from.

A run (``sumeval run``, ``run all``, ``sweep``) executes the study notebook *as committed*, never
what a JupyterLab session saved into the file: :func:`committed` reads

- ``git show HEAD:<path>`` when the notebook lies in a git checkout and HEAD holds it (the project's
  ``notebooks/``, or a ``$SUMEVAL_NOTEBOOKS`` folder in a repository of your own);
- the notebook file itself otherwise: an installed copy or a ``$SUMEVAL_NOTEBOOKS`` folder outside
  git (nothing else records what the study is: the file is the study), or a notebook that git does
  not hold yet (a new study before its first commit; the run says so in a note).

Either way the saved outputs, execution counts and widget state are stripped (:func:`strip`), so
nothing a session left in the notebook reaches the executed copy, and that form's ``parameters``
cell gives the defaults the parameter set and ``-p`` overlay
(:func:`sumeval.running.study_params.resolve_run`).

A notebook file whose cells (source and kind, in order) differ from its committed form is refused
before anything runs (:func:`check_unedited`), the differences and the fix named: ``git checkout``
discards the edits, ``git stash`` sets them aside, ``git commit`` makes them the study's. A run
of the committed form instead would publish figures of a notebook other than the one on the screen,
and running the edited one would let a session's values in unrecorded (sumeval issue 30). Saved
outputs alone (the file run in JupyterLab, nothing edited) are no difference. Explore in copies
(``make lab`` opens copies in ``lab/``, which git ignores).
"""
from __future__ import annotations

import ast
import copy
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sumeval.errors import InputError

__all__ = ["NotebookSource", "committed", "committed_parameters_cell", "strip", "differences", "check_unedited",
           "parameter_texts"]

GIT_TIMEOUT_S = 20


@dataclass(frozen=True)
class NotebookSource:
    """A study notebook's committed form (``nb``, stripped) and where it came from."""

    path: Path  # the notebook file
    nb: Any  # nbformat.NotebookNode: the committed form, outputs stripped
    kind: str  # "git": git HEAD's blob; "file": the file itself
    repo: Path | None = None  # the git checkout's top folder (kind "git", or "file" in a checkout)
    repo_path: str | None = None  # the notebook's path in the repository (posix)
    commit: str | None = None  # HEAD's commit (kind "git")
    reason: str = ""  # why the file is the reference (kind "file")

    @property
    def where(self) -> str:
        """``git HEAD (6283c9b)`` or ``the file``, for messages."""
        return f"git HEAD ({self.commit[:7]})" if self.kind == "git" and self.commit else "the file"

    def note(self) -> str | None:
        """A note for the run when the file is the reference although it lies in a git checkout
        (a notebook git does not hold yet) or git failed there; None otherwise (no git: the file
        is the study)."""
        if self.kind == "file" and self.repo is not None:
            return (f"{self.repo_path or self.path.name} is not committed ({self.reason}): the run executed "
                    "the file as it is (its saved outputs stripped); commit it to make the run reproducible "
                    "from git")
        in_checkout = any((p / ".git").exists() for p in self.path.resolve().parents)
        if self.kind == "file" and self.reason.startswith("git cannot") and in_checkout:
            return (f"{self.reason}, so the run executed {self.path} as it is (its saved outputs stripped), "
                    "unchecked against its commit")
        return None

    def record(self) -> dict[str, Any]:
        """The manifest's ``notebook_source``: where the executed notebook came from, and a digest
        of its cells."""
        from sumeval.hashing import sha256_json

        out: dict[str, Any] = {"source": "git HEAD" if self.kind == "git" else "file"}
        if self.kind == "git":
            out.update(commit=self.commit, path=self.repo_path)
        else:
            out.update(path=str(self.path), reason=self.reason)
        out["cells_sha256"] = sha256_json(_cells(self.nb))
        return out

    def write(self, path: Path) -> Path:
        """Write the committed form (stripped) to ``path``: papermill's input."""
        import nbformat

        nbformat.write(self.nb, str(path))
        return path


def strip(nb: Any) -> Any:
    """A copy of notebook ``nb`` without what running it saved: every code cell's outputs and
    execution count, and the notebook's widget state (``metadata.widgets``)."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    nb.metadata.pop("widgets", None)
    return nb


def _read(text: str, where: str) -> Any:
    import nbformat

    try:
        return nbformat.reads(text, as_version=4)
    except Exception as exc:  # nbformat raises several kinds for a broken file
        raise InputError(f"{where}: not a readable notebook ({type(exc).__name__}: {exc}); restore it "
                         "(e.g. `git checkout` it) or fix its JSON") from None


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, timeout=GIT_TIMEOUT_S)


def _committed_text(path: Path) -> tuple[str, str, dict[str, Any]]:
    """The text of the committed form of the notebook at ``path`` (git HEAD's blob, else the file),
    a name of where it came from for messages, and the :class:`NotebookSource` fields that say so."""
    repo = repo_path = None
    try:
        top = _git(path.parent, "rev-parse", "--show-toplevel")
        if top.returncode != 0:
            said = top.stderr.decode(errors="replace").strip().splitlines()
            reason = ("not in a git checkout" if not said or "not a git repository" in said[0]
                      else f"git cannot read its checkout: {said[0]}")
        else:
            repo = Path(top.stdout.decode().strip()).resolve()
            try:
                repo_path = path.resolve().relative_to(repo).as_posix()
            except ValueError:
                repo_path = None
            reason = "outside its git checkout"
            if repo_path is not None:
                head = _git(repo, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
                blob = _git(repo, "show", f"HEAD:{repo_path}") if head.returncode == 0 else None
                if blob is not None and blob.returncode == 0:
                    return (blob.stdout.decode("utf-8"), f"{repo_path} in git HEAD",
                            dict(kind="git", repo=repo, repo_path=repo_path, commit=head.stdout.decode().strip()))
                reason = "the repository has no commit yet" if head.returncode != 0 else "not in git HEAD"
    except (OSError, subprocess.SubprocessError) as exc:  # no git program, a hung git
        reason = f"git cannot be run ({type(exc).__name__}: {exc})"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the study notebook {path}: {exc.strerror or exc}") from None
    return text, str(path), dict(kind="file", repo=repo, repo_path=repo_path, commit=None, reason=reason)


def committed(path: str | Path) -> NotebookSource:
    """The committed form of the notebook at ``path`` (module docstring)."""
    path = Path(path)
    text, where, fields = _committed_text(path)
    return NotebookSource(path, strip(_read(text, where)), **fields)


def committed_parameters_cell(path: str | Path) -> str:
    """The source of the ``parameters`` cell of the committed form of the notebook at ``path``, read
    from its JSON without nbformat (whose import takes seconds: ``sumeval list`` reads every study's
    cell this way; a run reads the whole notebook, :func:`committed`). InputError for a file that is
    not a notebook's JSON or that has no single cell tagged ``parameters``."""
    import json

    path = Path(path)
    text, where, _ = _committed_text(path)
    try:
        nb = json.loads(text)
        cells = [c for c in nb["cells"] if _is_parameters(c)]  # as StudyNotebook._parameters_cell counts
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(f"{where}: not a readable notebook ({type(exc).__name__}: {exc}); restore it "
                         "(e.g. `git checkout` it) or fix its JSON") from None
    if len(cells) != 1:
        raise InputError(f"{path}: needs exactly one code cell tagged 'parameters', found {len(cells)}")
    source = cells[0].get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _is_parameters(cell: Any) -> bool:
    return "parameters" in (cell.get("metadata", {}).get("tags") or [])


def _cells(nb: Any) -> list[tuple[str, str, bool]]:
    """What a difference is made of: each cell's kind, source and whether it is the parameters cell
    (not outputs, execution counts, cell ids or other metadata, which a session rewrites)."""
    return [(c.get("cell_type", ""), c.get("source", ""), _is_parameters(c)) for c in nb.cells]


def parameter_texts(source: str) -> dict[str, str]:
    """``{name: the source text of its value}`` of a parameters cell's assignments (in order); a
    cell that does not parse gives ``{}``."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return {}
    out: dict[str, str] = {}
    for node in body:
        targets = [node.target] if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [])
        value = getattr(node, "value", None)
        for t in targets:
            if isinstance(t, ast.Name) and value is not None:
                out[t.id] = ast.unparse(value)
    return out


def _first_line(text: str) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return repr(line[:60] + ("..." if len(line) > 60 else ""))


def _parameter_changes(edited: str, committed_src: str) -> str:
    now, then = parameter_texts(edited), parameter_texts(committed_src)
    parts = [f"{n} = {now[n]} (committed: {then[n]})" for n in now if n in then and now[n] != then[n]]
    parts += [f"{n} added" for n in now if n not in then]
    parts += [f"{n} removed" for n in then if n not in now]
    return "; ".join(parts) or "its text (not a value)"


def differences(source: NotebookSource, limit: int = 4) -> list[str]:
    """How the notebook file's cells differ from its committed form ``source`` (``[]``: they are
    the same; outputs do not count), at most ``limit`` items, the parameters cell first."""
    if source.kind != "git":
        return []
    try:
        text = source.path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the study notebook {source.path}: {exc.strerror or exc}") from None
    edited = _read(text, str(source.path))
    now, then = _cells(edited), _cells(source.nb)
    if now == then:
        return []
    out = []
    p_now = [c for c in now if c[2]]
    p_then = [c for c in then if c[2]]
    if p_now and p_then and p_now[0][1] != p_then[0][1]:
        out.append(f"parameters cell: {_parameter_changes(p_now[0][1], p_then[0][1])}")
    import difflib

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, then, now, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        pairs = list(zip(range(i1, i2), range(j1, j2))) if tag == "replace" else []
        for i, j in pairs:
            a, b = now[j], then[i]
            if a[2] and b[2]:
                continue  # the parameters cell: said above
            if a[0] != b[0] or a[2] != b[2]:
                out.append(f"cell {j} is a {a[0]} cell{' tagged parameters' if a[2] else ''}, committed: "
                           f"a {b[0]} cell{' tagged parameters' if b[2] else ''}")
                continue
            first = next((x for x, y in zip(a[1].splitlines(), b[1].splitlines()) if x != y), None)
            out.append(f"cell {j} ({a[0]}) " + (f"line {_first_line(first)} edited" if first is not None
                                                 else "has lines added or removed"))
        for j in range(j1 + len(pairs), j2):
            out.append(f"cell {j} ({now[j][0]}, {_first_line(now[j][1])}) added")
        for i in range(i1 + len(pairs), i2):
            out.append(f"committed cell {i} ({then[i][0]}, {_first_line(then[i][1])}) removed")
    return out[:limit] + ([f"and {len(out) - limit} more"] if len(out) > limit else [])


def check_unedited(source: NotebookSource) -> None:
    """Refuse a run of a notebook whose cells differ from its committed form (module docstring):
    InputError naming the file, the differences and the fix."""
    diffs = differences(source)
    if not diffs:
        return
    rel = source.repo_path or str(source.path)
    raise InputError(
        f"{source.path}: its cells differ from its committed form in {source.where}: {'; '.join(diffs)}. "
        "A run executes the committed notebook, so it refuses an edited one (a JupyterLab session saves "
        f"its edits into the file). Discard the edits with `git checkout -- {rel}` (`git stash` sets them "
        f"aside), or commit them if they are meant to change the study (in {source.repo}); to explore, "
        "`make lab` opens copies in lab/ that git ignores"
    )
