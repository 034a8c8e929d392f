"""The SERA variants of paper 001 by name: query reformulations and measure names.

A light module (standard library only): the measure catalog (:mod:`sumeval.metrics.catalog`)
lists the variants from here without importing the scorers.

>>> measure_name(10, True, "np"), len(MEASURES)
('sera-dis-np-10', 20)
"""
from __future__ import annotations

__all__ = ["REFORMULATIONS", "measure_name", "MEASURES"]

#: query reformulations (paper 001 Sec.2.1-2.2): the summary, its noun phrases, its keywords,
#: GeSERA's part-of-speech filter, and that filter keeping proper nouns
REFORMULATIONS = ("raw", "np", "kw", "gesera", "gesera-pn")


def measure_name(k: int, dis: bool = False, reformulation: str = "raw") -> str:
    """Paper-001 name of a variant: ``(10, True, "np") -> "sera-dis-np-10"``,
    ``(10, False, "gesera") -> "gesera-10"``, ``(5, True, "gesera-pn") -> "gesera-pn-dis-5"``."""
    if reformulation in ("gesera", "gesera-pn"):
        parts = [reformulation] + (["dis"] if dis else [])
    else:
        parts = ["sera"] + (["dis"] if dis else []) + ([reformulation] if reformulation != "raw" else [])
    return "-".join(parts + [str(k)])


#: every variant registered: name -> (k, dis, reformulation)
MEASURES: dict[str, tuple[int, bool, str]] = {
    measure_name(k, dis, r): (k, dis, r)
    for r in REFORMULATIONS for dis in (False, True) for k in (5, 10)
}
