"""Compare two study runs' result files number by number (is a study's output unchanged by a change?).

Given two folders (e.g. ``runs/shelf/<id-before>/`` and ``runs/shelf/<id-after>/``), files are paired
by their path relative to each folder; for each pair of CSV, JSON, LaTeX, Markdown or text files every
numeric cell is compared exactly (as floats parsed from the text; two NaNs are equal) and the rest as
text. A file only on one side is listed. Fields expected to differ between two runs of the same
study (timestamps, durations, paths, versions, the git commit, the run id, the host) are skipped:
JSON keys matching ``IGNORED_KEYS`` (extend with ``--ignore-key REGEX``), CSV columns of the same
names, and each run's own folder is written ``<run>`` in its files.

How cells are paired:

- CSV: columns by header name; rows by their text cells (the columns holding no number in
  either file, e.g. ``measure, human, level``) where those identify each row uniquely in both
  files, else by position. Rows and columns present on one side only are reported, not compared.
- JSON: by the path of keys and list indices (``a.b[3].c``).
- LaTeX, Markdown, text: line by line, the numbers of each line in order; a line whose text
  around the numbers differs (e.g. ``\\textbf{0.41}`` against ``0.41``) is a text difference (its
  numbers are still compared when both lines hold as many).

    python benchmarks/compare_runs.py BEFORE_DIR AFTER_DIR            # a report; exit 1 if anything differs
    python benchmarks/compare_runs.py BEFORE AFTER --json report.json  # the same, machine-readable
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: Result files compared (by suffix); others (figures, notebooks, logs) are counted as skipped.
COMPARED_SUFFIXES = (".csv", ".json", ".tex", ".md", ".txt")
#: Files never compared: the executed notebook holds the outputs again with run-specific text.
SKIPPED_NAMES = ("executed.ipynb",)
#: JSON keys / CSV columns expected to differ between two runs of one study (matched with re.search,
#: case-insensitive, against the key alone).
IGNORED_KEYS = (
    r"time", r"(^|_)date", r"duration", r"elapsed", r"(^|_)s$", r"seconds", r"timings?",
    r"path", r"dir$", r"folder", r"cwd", r"version", r"packages", r"git", r"commit", r"dirty",
    r"run_id", r"^id$", r"host", r"pid", r"platform", r"python", r"started", r"finished",
    r"kernel", r"notebook_source", r"machine", r"cpu", r"threads", r"^load", r"^owner$",
)

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b", re.IGNORECASE)


def as_number(text):
    """The float a cell holds, or None (bools and text are not numbers)."""
    if isinstance(text, bool) or text is None:
        return None
    if isinstance(text, (int, float)):
        return float(text)
    s = str(text).strip()
    if not s or not _NUMBER.fullmatch(s):
        return None
    return float(s)


def same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def absdiff(a: float, b: float) -> float:
    if same(a, b):
        return 0.0
    if math.isnan(a) or math.isnan(b):
        return math.nan
    return abs(a - b)


@dataclass
class FileReport:
    """What comparing one pair of files found."""

    path: str
    numeric_cells: int = 0
    differing: list = field(default_factory=list)        # (cell, before, after) of numbers
    text_differences: list = field(default_factory=list)  # (cell, before, after) of text
    one_side: list = field(default_factory=list)          # (what, side) rows/columns/keys on one side
    ignored: int = 0

    @property
    def max_abs_diff(self) -> float:
        diffs = [absdiff(a, b) for _, a, b in self.differing]
        if any(math.isnan(d) for d in diffs):
            return math.nan
        return max(diffs, default=0.0)

    @property
    def identical(self) -> bool:
        return not (self.differing or self.text_differences or self.one_side)

    def cell(self, where: str, a, b) -> None:
        na, nb = as_number(a), as_number(b)
        if na is not None and nb is not None:
            self.numeric_cells += 1
            if not same(na, nb):
                self.differing.append((where, na, nb))
        elif (na is None) != (nb is None) and not (_blank(a) and _blank(b)):
            self.text_differences.append((where, a, b))
        elif str(a) != str(b):
            self.text_differences.append((where, a, b))


def _blank(v) -> bool:
    return v is None or str(v).strip() == ""


def _ignored(key: str, patterns) -> bool:
    return any(re.search(p, key, re.IGNORECASE) for p in patterns)


def _row_pairs(rep: FileReport, rows_a: list, rows_b: list, keys_a: list | None, keys_b: list) -> list:
    """``(label, row before, row after)`` of the rows to compare: matched by their keys (the text columns) when
    ``keys_a`` is given and the keys are unique on both sides, else by position; a row on one side only is
    recorded in ``rep``."""
    if keys_a is not None and len(set(keys_a)) == len(keys_a) and len(set(keys_b)) == len(keys_b):
        index_b = {k: n for n, k in enumerate(keys_b)}
        pairs = []
        for n, k in enumerate(keys_a):
            if k in index_b:
                pairs.append(("/".join(k), rows_a[n], rows_b[index_b[k]]))
            else:
                rep.one_side.append((f"row {'/'.join(k)}", "before"))
        seen = set(keys_a)
        for k in keys_b:
            if k not in seen:
                rep.one_side.append((f"row {'/'.join(k)}", "after"))
    else:
        pairs = [(f"row {n + 1}", x, y) for n, (x, y) in enumerate(zip(rows_a, rows_b))]
        for n in range(len(rows_b), len(rows_a)):
            rep.one_side.append((f"row {n + 1}", "before"))
        for n in range(len(rows_a), len(rows_b)):
            rep.one_side.append((f"row {n + 1}", "after"))
    return pairs


def compare_csv(rep: FileReport, a: str, b: str, patterns) -> None:
    ra = list(csv.reader(io.StringIO(a)))
    rb = list(csv.reader(io.StringIO(b)))
    if not ra or not rb:
        if bool(ra) != bool(rb):
            rep.one_side.append(("all rows", "before" if ra else "after"))
        return
    ha, hb = ra[0], rb[0]
    rows_a, rows_b = ra[1:], rb[1:]
    cols = [c for c in ha if c in hb]
    for c in ha:
        if c not in hb:
            rep.one_side.append((f"column {c}", "before"))
    for c in hb:
        if c not in ha:
            rep.one_side.append((f"column {c}", "after"))
    ia = {c: ha.index(c) for c in cols}
    ib = {c: hb.index(c) for c in cols}

    def col(rows, idx, c):
        return [r[idx[c]] if idx[c] < len(r) else "" for r in rows]

    def is_text_column(c):
        values = col(rows_a, ia, c) + col(rows_b, ib, c)
        return not any(as_number(v) is not None for v in values)

    key_cols = [c for c in cols if is_text_column(c)]
    keys_a = [tuple(r[ia[c]] if ia[c] < len(r) else "" for c in key_cols) for r in rows_a]
    keys_b = [tuple(r[ib[c]] if ib[c] < len(r) else "" for c in key_cols) for r in rows_b]
    pairs = _row_pairs(rep, rows_a, rows_b, keys_a if key_cols else None, keys_b)
    for label, x, y in pairs:
        for c in cols:
            if c in key_cols:
                continue
            if _ignored(c, patterns):
                rep.ignored += 1
                continue
            va = x[ia[c]] if ia[c] < len(x) else ""
            vb = y[ib[c]] if ib[c] < len(y) else ""
            rep.cell(f"{label} [{c}]", va, vb)


def _flatten(value, prefix, out, patterns, ignored):
    if isinstance(value, dict):
        for k, v in value.items():
            if _ignored(str(k), patterns):
                ignored[0] += 1
                continue
            _flatten(v, f"{prefix}.{k}" if prefix else str(k), out, patterns, ignored)
    elif isinstance(value, list):
        for n, v in enumerate(value):
            _flatten(v, f"{prefix}[{n}]", out, patterns, ignored)
    else:
        out[prefix] = value


def compare_json(rep: FileReport, a: str, b: str, patterns) -> None:
    fa, fb, ignored = {}, {}, [0]
    _flatten(json.loads(a, parse_constant=float), "", fa, patterns, ignored)
    rep.ignored = ignored[0]                               # skipped fields, counted in the before file
    _flatten(json.loads(b, parse_constant=float), "", fb, patterns, [0])
    for k, v in fa.items():
        if k in fb:
            rep.cell(k, v, fb[k])
        else:
            rep.one_side.append((k, "before"))
    for k in fb:
        if k not in fa:
            rep.one_side.append((k, "after"))


def compare_text(rep: FileReport, a: str, b: str) -> None:
    la, lb = a.splitlines(), b.splitlines()
    for n, (x, y) in enumerate(zip(la, lb)):
        nums_x, nums_y = _NUMBER.findall(x), _NUMBER.findall(y)
        if _NUMBER.sub("#", x) != _NUMBER.sub("#", y):
            rep.text_differences.append((f"line {n + 1}", x, y))
        if len(nums_x) != len(nums_y):
            continue
        for m, (p, q) in enumerate(zip(nums_x, nums_y)):
            rep.cell(f"line {n + 1} number {m + 1}", p, q)
    for n in range(len(lb), len(la)):
        rep.one_side.append((f"line {n + 1}", "before"))
    for n in range(len(la), len(lb)):
        rep.one_side.append((f"line {n + 1}", "after"))


def compare_files(path: str, a: Path, b: Path, patterns=IGNORED_KEYS, roots=()) -> FileReport:
    """``roots``: (before, after) run folders, each written ``<run>`` in its file before comparing (a
    file naming its own run's figures is the same file in both runs)."""
    rep = FileReport(path)
    ta, tb = a.read_text(encoding="utf-8"), b.read_text(encoding="utf-8")
    if roots:
        ta, tb = ta.replace(str(roots[0]), "<run>"), tb.replace(str(roots[1]), "<run>")
    suffix = a.suffix.lower()
    if suffix == ".csv":
        compare_csv(rep, ta, tb, patterns)
    elif suffix == ".json":
        compare_json(rep, ta, tb, patterns)
    else:
        compare_text(rep, ta, tb)
    return rep


@dataclass
class RunComparison:
    files: list                      # FileReport of every compared pair
    only_before: list                # relative paths
    only_after: list
    skipped: list                    # paired files of kinds not compared

    @property
    def numeric_cells(self) -> int:
        return sum(f.numeric_cells for f in self.files)

    @property
    def identical(self) -> bool:
        return not self.only_before and not self.only_after and all(f.identical for f in self.files)


def _listing(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}


def compare_runs(before: Path, after: Path, patterns=IGNORED_KEYS) -> RunComparison:
    la, lb = _listing(Path(before)), _listing(Path(after))
    files, skipped = [], []
    for rel in sorted(set(la) & set(lb)):
        if Path(rel).name in SKIPPED_NAMES or Path(rel).suffix.lower() not in COMPARED_SUFFIXES:
            skipped.append(rel)
            continue
        files.append(compare_files(rel, la[rel], lb[rel], patterns,
                                   (Path(before).resolve(), Path(after).resolve())))
    return RunComparison(files, sorted(set(la) - set(lb)), sorted(set(lb) - set(la)), skipped)


def report_text(cmp: RunComparison, limit: int = 20) -> str:
    out = [f"{len(cmp.files)} files compared, {cmp.numeric_cells} numeric cells; "
           f"{'IDENTICAL' if cmp.identical else 'DIFFERENT'}"]
    for f in cmp.files:
        status = "identical" if f.identical else (
            f"{len(f.differing)} numbers differ (max abs diff {f.max_abs_diff:.3g}), "
            f"{len(f.text_differences)} text, {len(f.one_side)} on one side")
        out.append(f"  {f.path}: {f.numeric_cells} numeric cells, {status}")
        for where, x, y in f.differing[:limit]:
            out.append(f"      {where}: {x!r} -> {y!r}")
        for where, x, y in f.text_differences[:limit]:
            out.append(f"      text {where}: {x!r} -> {y!r}")
        for what, side in f.one_side[:limit]:
            out.append(f"      only {side}: {what}")
        more = max(0, len(f.differing) - limit) + max(0, len(f.text_differences) - limit) \
            + max(0, len(f.one_side) - limit)
        if more:
            out.append(f"      ... {more} more")
    for rel in cmp.only_before:
        out.append(f"  only before: {rel}")
    for rel in cmp.only_after:
        out.append(f"  only after: {rel}")
    if cmp.skipped:
        out.append(f"  {len(cmp.skipped)} paired files not compared (figures, notebooks): "
                   + ", ".join(cmp.skipped[:8]) + (" ..." if len(cmp.skipped) > 8 else ""))
    return "\n".join(out)


def report_json(cmp: RunComparison) -> dict:
    def num(x):
        return None if isinstance(x, float) and math.isnan(x) else x
    return {
        "identical": cmp.identical, "numeric_cells": cmp.numeric_cells,
        "only_before": cmp.only_before, "only_after": cmp.only_after, "skipped": cmp.skipped,
        "files": [{"path": f.path, "numeric_cells": f.numeric_cells, "identical": f.identical,
                   "max_abs_diff": num(f.max_abs_diff), "ignored": f.ignored,
                   "differing": [[w, num(x), num(y)] for w, x, y in f.differing],
                   "text_differences": [[w, str(x), str(y)] for w, x, y in f.text_differences],
                   "one_side": f.one_side} for f in cmp.files],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--ignore-key", action="append", default=[], metavar="REGEX",
                    help="also skip JSON keys / CSV columns matching REGEX")
    ap.add_argument("--limit", type=int, default=20, help="differences listed per file and kind")
    ap.add_argument("--json", type=Path, help="also write the whole comparison as JSON here")
    args = ap.parse_args(argv)
    for d in (args.before, args.after):
        if not d.is_dir():
            print(f"compare_runs: {d} is not a folder", file=sys.stderr)
            return 2
    cmp = compare_runs(args.before, args.after, IGNORED_KEYS + tuple(args.ignore_key))
    print(report_text(cmp, args.limit))
    if args.json:
        args.json.write_text(json.dumps(report_json(cmp), indent=1), encoding="utf-8")
    return 0 if cmp.identical else 1


if __name__ == "__main__":
    sys.exit(main())
