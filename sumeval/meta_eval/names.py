"""The names ``sumeval meta-eval`` offers, without importing pandas or numpy: its parser is built
on every ``sumeval`` start (:mod:`sumeval.cli.meta_eval`); :mod:`sumeval.meta_eval.analysis` uses
these."""
from __future__ import annotations

__all__ = ["TESTS", "LEVELS"]

#: ``--test`` values -> (test, what is resampled or permuted)
TESTS: dict[str, tuple[str, str | None]] = {
    "williams": ("williams", None),
    **{f"permutation-{a}": ("permutation", a) for a in ("systems", "inputs", "both")},
    **{f"bootstrap-{a}": ("bootstrap", a) for a in ("systems", "inputs", "both")},
}
#: the three levels, in the order tables show them
LEVELS: tuple[str, ...] = ("input", "system", "global")
