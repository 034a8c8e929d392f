"""benchmarks/compare_runs.py: two run folders compared number by number (identical, a number moved, a
file or row on one side, run-specific fields skipped)."""
from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from helpers import REPO_ROOT  # tests/ is on the path

_PATH = REPO_ROOT / "benchmarks" / "compare_runs.py"
_spec = importlib.util.spec_from_file_location("compare_runs", _PATH)
compare_runs = importlib.util.module_from_spec(_spec)
sys.modules["compare_runs"] = compare_runs
_spec.loader.exec_module(compare_runs)

CSV = ("measure,human,level,value,low,high\n"
       "rouge-1,coherence,system,0.412,0.30,0.52\n"
       "rouge-2,coherence,system,0.398,0.29,nan\n")
TEX = "\\begin{tabular}{lr}\nrouge-1 & \\textbf{0.412} \\\\\nrouge-2 & 0.398 \\\\\n\\end{tabular}\n"
MANIFEST = {"status": "ok", "seed": 0, "started": "2025-01-01T00:00:00", "timings": {"total_s": 12.5},
            "git": {"commit": "abc", "dirty": False}, "results": {"n": 1600, "best": [0.5, 0.25]}}


def run_folder(root: Path, csv_text=CSV, tex=TEX, manifest=MANIFEST) -> Path:
    (root / "tables").mkdir(parents=True)
    (root / "tables" / "table_a.csv").write_text(csv_text)
    (root / "tables" / "table_a.tex").write_text(tex)
    (root / "manifest.json").write_text(json.dumps(manifest))
    (root / "executed.ipynb").write_text("{}")
    (root / "figures").mkdir()
    (root / "figures" / "fig.png").write_bytes(b"\x89PNG")
    return root


def test_identical_runs_compare_every_number_and_skip_run_specific_fields(tmp_path):
    before = run_folder(tmp_path / "b")
    late = dict(MANIFEST, started="2025-02-02T00:00:00", timings={"total_s": 99.0},
                git={"commit": "def", "dirty": True})
    after = run_folder(tmp_path / "a", manifest=late)
    for root in (before, after):   # each run names its own figures: the same file in both runs
        (root / "results.json").write_text(json.dumps({"figures": [str(root.resolve() / "figures" / "fig.png")]}))
    cmp = compare_runs.compare_runs(before, after)
    assert cmp.identical
    by_path = {f.path: f for f in cmp.files}
    assert set(by_path) == {"tables/table_a.csv", "tables/table_a.tex", "manifest.json", "results.json"}
    assert by_path["tables/table_a.csv"].numeric_cells == 6      # value, low, high x 2 rows (nan == nan)
    assert by_path["tables/table_a.tex"].numeric_cells == 4      # rouge-1's 1, 0.412; rouge-2's 2, 0.398
    assert by_path["manifest.json"].numeric_cells == 4           # seed, n, best[0], best[1]
    assert by_path["manifest.json"].ignored == 3                 # started, timings, git
    assert sorted(cmp.skipped) == ["executed.ipynb", "figures/fig.png"]
    assert compare_runs.main([str(before), str(after)]) == 0


def test_a_moved_number_is_named_with_both_values(tmp_path, capsys):
    before = run_folder(tmp_path / "b")
    # rows in another order: paired by their text cells, so only the moved number differs
    moved = ("measure,human,level,value,low,high\n"
             "rouge-2,coherence,system,0.398,0.29,nan\n"
             "rouge-1,coherence,system,0.4120000000000001,0.30,0.52\n")
    after = run_folder(tmp_path / "a", csv_text=moved,
                       tex=TEX.replace("\\textbf{0.412}", "0.412").replace("0.398 ", "\\textbf{0.398} "))
    cmp = compare_runs.compare_runs(before, after)
    assert not cmp.identical
    by_path = {f.path: f for f in cmp.files}
    table = by_path["tables/table_a.csv"]
    assert table.differing == [("rouge-1/coherence/system [value]", 0.412, 0.4120000000000001)]
    assert table.max_abs_diff == pytest.approx(1e-16, abs=1e-16) and table.max_abs_diff > 0
    tex = by_path["tables/table_a.tex"]
    assert tex.differing == [] and len(tex.text_differences) == 2   # the bold moved, no number did
    assert compare_runs.main([str(before), str(after), "--json", str(tmp_path / "r.json")]) == 1
    out = capsys.readouterr().out
    assert "rouge-1/coherence/system [value]: 0.412 -> 0.4120000000000001" in out
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["identical"] is False and report["numeric_cells"] == cmp.numeric_cells


def test_files_rows_and_keys_on_one_side_are_listed(tmp_path):
    before = run_folder(tmp_path / "b")
    (before / "tables" / "only_before.csv").write_text("a\n1\n")
    extra_row = CSV + "length,coherence,system,0.1,0.0,0.2\n"
    more = dict(MANIFEST, results={"n": 1600, "best": [0.5, 0.25], "new": math.pi})
    after = run_folder(tmp_path / "a", csv_text=extra_row, manifest=more)
    (after / "figures" / "new.pdf").write_bytes(b"%PDF")
    cmp = compare_runs.compare_runs(before, after)
    assert cmp.only_before == ["tables/only_before.csv"]
    assert cmp.only_after == ["figures/new.pdf"]
    by_path = {f.path: f for f in cmp.files}
    assert by_path["tables/table_a.csv"].one_side == [("row length/coherence/system", "after")]
    assert by_path["tables/table_a.csv"].differing == []
    assert by_path["manifest.json"].one_side == [("results.new", "after")]
    assert not cmp.identical


def test_a_missing_folder_is_refused(tmp_path, capsys):
    assert compare_runs.main([str(tmp_path / "nope"), str(tmp_path)]) == 2
    assert "nope is not a folder" in capsys.readouterr().err
