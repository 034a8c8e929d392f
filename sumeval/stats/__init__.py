"""Meta-evaluation statistics: correlations of measures with human scores at three levels, their
bootstrap intervals, tests of one measure against another, rankings with significance clusters,
pairwise accuracy, binary detection; and the human-evaluation analysis of paper 002.

Small pure functions over arrays and tidy frames. Randomness is passed in as ``seed`` (an ``int``
or a ``numpy.random.Generator``) or as drawn indices / masks; nothing here touches global random
state. Everything is vectorised over resamples (no Python loop per resample).

Conventions
-----------
- **Coefficients** (``method``): ``"pearson"``, ``"spearman"``, ``"kendall_b"``, ``"kendall_c"``
  (scipy's ``pearsonr``, ``spearmanr``, ``kendalltau(variant="b" / "c")``), each one entry of
  :data:`COEFFICIENTS` (:mod:`sumeval.stats.coefficients`: a new one is a callable and
  :func:`register`). Paper 000 reports
  Spearman and tau-c, paper 001 Pearson, Spearman and tau-b; nlpstats' ``"kendall"`` is tau-b.
- **Levels** (a frame has one row per (document, system) pair; a document is an *input*):

  ===========  =====================  ==================================================
  ``level``    older name (refused)   what is correlated
  ===========  =====================  ==================================================
  ``input``    ``document``           within each input, the correlation across its
                                      systems; the mean over inputs. SummEval and Deutsch
                                      et al. (2021) call this the *summary level*.
                                      ``n`` = inputs used; inputs whose correlation is
                                      undefined (fewer than 2 usable pairs, a constant
                                      side) are skipped and counted in ``n_skipped``.
  ``system``   --                     each system's mean over inputs, then the correlation
                                      across systems (paper 001). ``n`` = systems used;
                                      at least 3 systems are required.
  ``global``   ``summary``            every (input, system) pair pooled in one list --
                                      what paper 000 calls the *summary level* (Table 1).
                                      ``n`` = pairs used.
  ===========  =====================  ==================================================

  The older names are refused everywhere (:data:`~sumeval.stats.checks.OLD_LEVEL_NAMES` says why:
  ``summary`` is the input level in SummEval and the global level in paper 000).
- **Missing values**: a pair (row) where the metric or the human score is NaN is excluded, at
  every level (at the system level the means are taken over the remaining rows); tests of two
  metrics use the rows where both metrics and the human score are present. Results report what
  was used (``n``) and what was excluded (``n_skipped``). Infinite values are refused
  (:class:`~sumeval.errors.InputError`): replace them with NaN to exclude them.
- **Ties among means**: per-system means that are equal as numbers are made exactly equal before
  anything ranks them (:func:`~sumeval.stats.ties.snap_ties`: sorted neighbours within 1e-12 of
  the largest magnitude are one tie), so Spearman, Kendall and pairwise accuracy at the system
  level count a tie as a tie whatever the row order and the CPU's order of summation.
- **Constant input**: a correlation with a constant side (or fewer than 2 pairs) is NaN, silently.
- **Direction**: every correlation assumes higher is better on both sides. For a metric where
  lower is better (ESTIME alarms, Jensen-Shannon ...) the caller passes the negated column.
- **Bootstrap** (Deutsch, Dror & Roth 2021, TACL): intervals resample ``"inputs"`` (documents,
  the default), ``"systems"`` or ``"both"`` (systems, then inputs), with replacement; a system
  or input drawn twice counts twice. The global level pools the pairs of the drawn cells, the
  input level averages the per-input correlations (across the drawn systems) of the drawn
  inputs, the system level recomputes each drawn system's mean over the drawn inputs and
  correlates those. Intervals are percentile intervals over the resamples whose correlation is
  defined. The same ``seed`` draws the same resamples in :func:`correlate` and
  :func:`paired_test` for frames with the same documents and systems (in the same order of first
  appearance); :func:`resample_indices` draws them for callers who want to pass them around.
- **Is A better than B**: :func:`permutation_test` swaps the two measures' standardised scores
  per system, per input or per cell (both), as Deutsch et al. (2021) and nlpstats do;
  :func:`paired_test` bootstraps the difference; :func:`williams_test` is Williams' test of
  dependent correlations. Each result records its test, level, coefficient, resampling axis,
  resamples asked and used, and seed.
- **Many measures**: :func:`compare_measures` tests every pair and corrects the p-values
  (:func:`adjust_pvalues`: Holm or Benjamini-Hochberg); :func:`significance_clusters` ranks the
  measures and groups those not significantly worse (mt-metrics-eval's ranking).
- **Pairwise accuracy** of systems with tie calibration (:func:`pairwise_accuracy`, acc23 of
  Deutsch et al. 2023), per bin of close to distant system pairs
  (:func:`~sumeval.stats.pairwise.close_pair_agreement`), and **binary labels** (:func:`binary_detection`: ROC AUC,
  balanced
  accuracy with the threshold tuned on a validation split).

Modules: ``rows`` (one sample, and many rows at once), ``levels`` / ``pooled`` / ``grouped``
(the three levels under resampling, vectorised), ``resampling`` (draws, intervals),
``correlation``, ``permutation``, ``williams``, ``multiple``, ``pairwise``, ``binary``,
``agreement`` (paper 002), ``ties`` (exact ties among means), ``layout`` and ``checks`` (frames
and inputs); applied to judges as to every measure: ``soft_pairwise`` (soft and plain system pairwise
accuracy, WMT24) and ``spa_test`` (its permutation test), ``item_pairwise`` (item-level acc23, the
rule of ``pairwise``), ``pair_ranking`` (ranking accuracy on a pairwise set).
"""
from __future__ import annotations

from sumeval.stats.agreement import inter_rater_pearson, krippendorff_alpha, r_squared
from sumeval.stats.binary import binary_detection
from sumeval.stats.checks import LEVELS, OLD_LEVEL_NAMES, RESAMPLINGS
from sumeval.stats.correlation import correlate, paired_test
from sumeval.stats.multiple import adjust_pvalues, compare_measures, significance_clusters
from sumeval.stats.pairwise import acc23, pairwise_accuracy, tie_calibration
from sumeval.stats.permutation import permutation_masks, permutation_test
from sumeval.stats.resampling import Resamples, resample_indices
from sumeval.stats.rows import kendall_tau_rows
from sumeval.stats.williams import williams_test

# isort: split
# after sumeval.stats.correlation (the module), so that the name is the function
from sumeval.stats.coefficients import COEFFICIENTS, METHODS, Coefficient, coefficient, correlation, register

__all__ = [
    "METHODS",
    "COEFFICIENTS",
    "Coefficient",
    "coefficient",
    "register",
    "LEVELS",
    "OLD_LEVEL_NAMES",
    "RESAMPLINGS",
    # correlations and their intervals
    "correlation",
    "kendall_tau_rows",
    "correlate",
    "Resamples",
    "resample_indices",
    # is measure A better than measure B
    "paired_test",
    "permutation_masks",
    "permutation_test",
    "williams_test",
    # many measures
    "adjust_pvalues",
    "compare_measures",
    "significance_clusters",
    # pairwise accuracy, binary labels
    "acc23",
    "tie_calibration",
    "pairwise_accuracy",
    "binary_detection",
    # human-evaluation analysis (paper 002)
    "inter_rater_pearson",
    "krippendorff_alpha",
    "r_squared",
]
