"""figures/README.md lists, per study, exactly the figures and tables its parameter file promises."""
from __future__ import annotations

import re

import yaml

from helpers import REPO_ROOT  # tests/ is on the path


def _readme_rows() -> dict[str, tuple[list[str], list[str]]]:
    rows = {}
    for line in (REPO_ROOT / "figures" / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| `(\w+)` \|(.*)\|(.*)\|$", line)
        if m:
            rows[m.group(1)] = tuple(re.findall(r"`([^`]+)`", cell) for cell in (m.group(2), m.group(3)))
    return rows


def test_every_study_and_its_promises_are_listed():
    promised = {}
    for f in sorted((REPO_ROOT / "notebooks").glob("*.params.yaml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8"))
        promised[f.name.split(".")[0]] = (list(doc.get("figures") or []), list(doc.get("tables") or []))
    assert promised, "no parameter files found"
    assert _readme_rows() == promised
