"""What ``sumeval judge-audit`` (:mod:`sumeval.cli.judges`) writes: the judge audit
(:mod:`sumeval.judges.audit`).

    sumeval judge-audit summeval --human coherence consistency fluency relevance \\
        --judges gpt-4o gpt-4o-mini llama-31 --out results/judge_audit

The output folder must be new or empty (checked before any work); everything is written into a hidden
folder inside it and moved into place, ``manifest.json`` last, so a folder with a manifest is whole::

    judge_audit_verbosity.csv      judge, human, versus (humans / an annotator), tau_judge, tau_versus,
                                   excess, ci_low, ci_high, p_value, above (interval above 0), ...
    judge_audit_close_pairs.csv    role (judge / held-out annotator(s) / length), metric, human, bin,
                                   bin_label, n_pairs, delta_low, delta_high, agreement, ci_low, ci_high, ...
    judge_audit_kappa.csv          judge, human, annotator, kappa, kappa_quadratic, n_items, labels
    judge_audit_calibration.csv    judge, human, label, ece, brier (judges giving probabilities; else empty)
    judge_audit_verbosity.{pdf,png}, judge_audit_close_pairs.{pdf,png}
    manifest.json                  data checksum, settings, judge columns, notes, versions, timings
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from sumeval.judges.audit import JudgeAudit

__all__ = ["MANIFEST_KIND", "write_judge_audit"]

MANIFEST_KIND = "sumeval judge-audit"
_PARTIAL = ".judge-audit-partial-"


def write_judge_audit(out: Path, audit: JudgeAudit, manifest: dict[str, Any], figures: bool) -> list[str]:
    """Every file of the audit into ``out`` (module docstring); returns their names."""
    from sumeval.cache import atomic_path, atomic_write_json

    out.mkdir(parents=True, exist_ok=True)
    work = out / f"{_PARTIAL}{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        for name in ("verbosity", "close_pairs", "kappa", "calibration"):
            with atomic_path(work / f"judge_audit_{name}.csv") as tmp:
                getattr(audit, name).to_csv(tmp, index=False)
        if figures:
            import matplotlib.pyplot as plt

            from sumeval import figures as figs
            from sumeval.plots.judges import close_pair_lines, verbosity_excess

            data = manifest.get("dataset", {}).get("name", "")
            for name, draw, title in (
                    ("judge_audit_verbosity", verbosity_excess,
                     f"{data}: Kendall with summary length, judge minus humans (95% document bootstrap)"),
                    ("judge_audit_close_pairs", close_pair_lines,
                     f"{data}: system pairs ordered as the humans, by the humans' difference")):
                fig, _ = draw(audit.verbosity if draw is verbosity_excess else audit.close_pairs, title=title)
                figs.save(fig, "", name, folder=work)
                plt.close(fig)
        names = sorted(p.name for p in work.iterdir())
        manifest["files"] = names + ["manifest.json"]
        manifest["notes"] = list(audit.notes)
        atomic_write_json(work / "manifest.json", manifest, default=str)
        for name in names + ["manifest.json"]:
            os.replace(work / name, out / name)
        return manifest["files"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
