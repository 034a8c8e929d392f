"""JupyterLab on copies of the study notebooks: ``make lab`` runs ``python -m sumeval.running.lab lab``.

JupyterLab saves into the notebook it has open (its cells, and every output, on each autosave), so
a session opened on ``notebooks/`` would edit the tracked study notebooks, which batch runs execute
in their committed form and refuse once edited (:mod:`sumeval.running.committed`). ``make lab``
therefore opens copies: :func:`copy_notebooks` copies each notebook of ``notebooks/``
(``$SUMEVAL_NOTEBOOKS``) into ``lab/`` at the top of the checkout, which git ignores, unless a copy
is there already (your session: it is kept; delete a copy to start it afresh from the study). A copy
finds its study as the original does (``run_context.context("<study>")``), and its results go to
``runs/<study>/interactive/``.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Sequence

from sumeval.paths import notebooks_dir, project_root

__all__ = ["LAB_FOLDER", "copy_notebooks", "main"]

LAB_FOLDER = "lab"  # under the project root; in .gitignore


def copy_notebooks(folder: str | Path | None = None) -> tuple[list[Path], list[Path]]:
    """Copy every notebook of :func:`~sumeval.paths.notebooks_dir` that ``folder`` (default
    ``<root>/lab``) lacks into it; return ``(copied, kept)``: the new copies and the copies that were
    there already (left as they are)."""
    folder = Path(folder) if folder is not None else project_root() / LAB_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    copied, kept = [], []
    for nb in sorted(notebooks_dir().glob("*.ipynb")):
        target = folder / nb.name
        if target.exists():
            kept.append(target)
            continue
        tmp = target.with_name(f".{target.name}.partial")
        shutil.copyfile(nb, tmp)
        tmp.replace(target)  # whole or not at all
        copied.append(target)
    return copied, kept


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1:
        print("usage: python -m sumeval.running.lab [FOLDER]", file=sys.stderr)
        return 2
    copied, kept = copy_notebooks(args[0] if args else None)
    folder = (copied or kept)[0].parent if (copied or kept) else Path(args[0] if args else LAB_FOLDER)
    print(f"lab: {len(copied)} notebook(s) copied to {folder}, {len(kept)} copy(ies) kept as you left them "
          f"(delete one to start afresh); the lab works on these copies, {notebooks_dir()} stays as committed")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
