"""Run the benchmarks: every ``benchmarks/bench_*.py`` with a ``main() -> dict``.

Each prints its figures and returns them; this script also writes them to
``benchmarks/results/<name>.json`` (git-ignored) with the machine it ran on. Figures worth keeping
are copied by hand into BENCHMARKS.md with the date and machine.

    python benchmarks/run.py              # all
    python benchmarks/run.py baselines    # only bench_baselines.py
"""
from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def machine() -> dict:
    info = {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(), "date": dt.datetime.now().isoformat(timespec="seconds")}
    try:
        with open("/proc/loadavg") as fh:
            info["loadavg_1min_at_start"] = float(fh.read().split()[0])
    except OSError:
        pass
    return info


def main(argv: list[str]) -> int:
    names = argv or sorted(p.stem[len("bench_"):] for p in HERE.glob("bench_*.py"))
    out_dir = HERE / "results"
    out_dir.mkdir(exist_ok=True)
    for name in names:
        path = HERE / f"bench_{name}.py"
        if not path.is_file():
            print(f"no benchmark {name!r} ({path})", file=sys.stderr)
            return 2
        spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        print(f"== {name}")
        figures = {"machine": machine(), "figures": mod.main()}
        (out_dir / f"{name}.json").write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
