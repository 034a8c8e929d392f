"""How the input level averages its per-document correlations: sumeval's rule and two papers' rules.

The input level (:mod:`sumeval.stats`) correlates measure and human across the systems of each
document, then averages over documents. Papers differ in which documents enter that average:

``skip`` (sumeval's default, SummEval's and Deutsch et al. 2021's)
    a document whose correlation is undefined (a constant side, fewer than 2 pairs) is left out:
    the mean of the defined values.
``zero`` (RoSE: Liu et al. 2023, "Revisiting the Gold Standard", ACL; Yale-LILY/ROSE
    ``correlation.py``: ``_cal_kendall`` / ``_cal_pearson`` / ``_cal_spearman`` return 0 for NaN and
    ``correlation_summ`` divides the sum by the number of documents)
    an undefined correlation counts as 0: the sum of the defined values over *every* document.
``significant`` (REALSumm: Bhandari et al. 2020, "Re-evaluating Evaluation in Text
    Summarization", EMNLP; neulab/REALSumm ``analysis/utils.py`` ``print_ktau_matrix``, its
    ``if pval <= 0.05`` line)
    only the documents whose own correlation has p <= ``alpha`` (scipy's p-value of the coefficient:
    ``kendalltau``, ``pearsonr``, ``spearmanr``; an undefined correlation has none and is left out)
    enter the mean. **Biased**: the documents are selected on the statistic being averaged, so the
    mean is pushed away from 0 (a document where measure and human agree by chance only enters
    when the chance agreement is large); on REALSumm it is 0.08-0.17 above the mean over all
    documents. A reproduction option, not an estimate.

The selection of ``significant`` is made once, on the observed data, for each (measure, human,
coefficient) pair; a bootstrap resample or a permutation averages the per-document values of the
documents selected there (a resampled correlation is not re-selected). ``zero`` and ``skip`` apply
to every resample and permutation as to the observed data.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from sumeval.errors import InputError
from sumeval.stats.checks import is_constant
from sumeval.stats.coefficients import coefficient

__all__ = ["UNDEFINED_RULES", "InputRule", "SKIP", "document_p_values"]

#: ``--undefined-as``: what an undefined per-document correlation counts as in the input level's mean
UNDEFINED_RULES = ("skip", "zero")


@dataclass(frozen=True)
class InputRule:
    """The input level's averaging rule (module docstring).

    undefined: ``skip`` (sumeval) or ``zero`` (RoSE).
    significant: None (every document), or the p-value threshold of REALSumm's selection (0.05).
    """

    undefined: str = "skip"
    significant: float | None = None

    def __post_init__(self):
        if self.undefined not in UNDEFINED_RULES:
            raise InputError(f"--undefined-as {self.undefined!r}: choose {' or '.join(UNDEFINED_RULES)} (skip: "
                             "sumeval's, leave the document out; zero: RoSE's, count it as 0)")
        if self.significant is not None and not (isinstance(self.significant, (int, float))
                                                 and not isinstance(self.significant, bool)
                                                 and 0 < self.significant < 1):
            raise InputError(f"--significant-inputs {self.significant!r}: a p-value threshold between 0 and 1 "
                             "(REALSumm's: 0.05)")

    @property
    def default(self) -> bool:
        """True for sumeval's own rule (no number differs from the plain input level)."""
        return self.undefined == "skip" and self.significant is None

    def selection(self, gx: np.ndarray, gy: np.ndarray, method: str) -> np.ndarray | None:
        """The documents kept by ``significant`` (n_docs,) bool, from the observed grids
        (n_docs, n_sys) (NaN = pair absent); None when every document is kept."""
        if self.significant is None:
            return None
        return document_p_values(gx, gy, method) <= self.significant

    def apply(self, per_doc: np.ndarray, selected: np.ndarray | None) -> np.ndarray:
        """Per-document values (..., n_docs) as the mean should see them: NaN (left out) for a
        document not selected, 0 for an undefined one under ``zero``."""
        out = np.asarray(per_doc, dtype=np.float64)
        if self.undefined == "zero":
            out = np.where(np.isnan(out), 0.0, out)
        if selected is not None:
            out = np.where(selected, out, np.nan)
        return out

    def mean(self, per_doc: np.ndarray, selected: np.ndarray | None) -> tuple[float, int]:
        """The rule's mean of per-document values (n_docs,) and the number of documents in it."""
        v = self.apply(per_doc, selected)
        ok = np.isfinite(v)
        return (float(v[ok].mean()) if ok.any() else math.nan), int(ok.sum())


#: sumeval's own rule
SKIP = InputRule()


def document_p_values(gx: np.ndarray, gy: np.ndarray, method: str) -> np.ndarray:
    """scipy's p-value (two-sided) of each document's correlation across its systems.

    Args:
        gx, gy: (n_docs, n_sys) grids, NaN where a pair is absent.
        method: a registered coefficient with a p-value (its ``p_value``: ``pearson``
            ``pearsonr``, ``spearman`` ``spearmanr``, ``kendall_b`` / ``kendall_c``
            ``kendalltau``, variant b / c): what REALSumm's ``get_doc_y_val`` calls.

    Returns:
        (n_docs,): NaN where the correlation is undefined (fewer than 2 pairs, a constant side:
        REALSumm's ``return 0, 1`` for a NaN Kendall, so never selected).
    """
    p_value = coefficient(method).p_value
    if p_value is None:
        raise InputError(f"the coefficient {method!r} has no p-value, which REALSumm's selection of "
                         f"documents (significant inputs) needs; choose a coefficient that has one, "
                         f"or leave the selection out")
    out = np.full(gx.shape[0], np.nan)
    for d in range(gx.shape[0]):
        keep = ~(np.isnan(gx[d]) | np.isnan(gy[d]))
        x, y = gx[d][keep], gy[d][keep]
        if x.size < 2 or is_constant(x) or is_constant(y):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out[d] = float(p_value(x, y))
    return out
