"""Who judges the judges: LLM judges and annotators as measures.

- :mod:`sumeval.judges.alt_test`: the alternative annotator test (Calderon, Reichart & Dror,
  ACL 2025): can a judge replace the annotators? Winning rate, advantage probability, pass rule.
- :mod:`sumeval.judges.soft_pairwise`: soft pairwise accuracy of system rankings (Thompson et al.
  2024, WMT24; mt-metrics-eval ``pce.py``) and system pairwise accuracy with a chance baseline, with
  bootstrap intervals.
- :mod:`sumeval.judges.item_pairwise`: item-level pairwise accuracy with tie calibration (acc23,
  Deutsch et al. 2023), tuned on a separate split or flagged optimistic.
- :mod:`sumeval.judges.annotators`: each annotator scored as a measure against the others' mean,
  and their average as the human ceiling.
- :mod:`sumeval.judges.ppi`: prediction-powered inference (Angelopoulos et al. 2023): how many human
  labels a judge saves when estimating a system's mean score.
- :mod:`sumeval.judges.alt_test_output`: what ``sumeval alt-test`` (:mod:`sumeval.cli.judges`) writes;
  :mod:`sumeval.judges.plots`: its figures.
- :mod:`sumeval.judges.audit`: the judge audit (``sumeval judge-audit``; written by
  :mod:`sumeval.judges.audit_output`): verbosity (Kendall with length beyond the humans'), agreement on
  close system pairs beside a held-out annotator and length, kappa per annotator, calibration.

Judges and annotators are columns of a judgments frame (:mod:`sumeval.judges.columns`).
"""
from __future__ import annotations

from sumeval.judges.alt_test import ALIGNMENTS, AltTest, alt_test, alt_test_arrays, by_adjust, by_reject

__all__ = ["ALIGNMENTS", "AltTest", "alt_test", "alt_test_arrays", "by_adjust", "by_reject"]
