"""How well do measures agree with people? Correlations, tests between measures, rankings.

:func:`meta_evaluate` takes a judgments data set (:mod:`sumeval.datasets.judgments`) and
measures from any source (:mod:`sumeval.metrics.sources`) and computes, for every human column,
level and coefficient:

- each measure's correlation with the human scores and its bootstrap interval (resampling
  systems, inputs or both; Deutsch, Dror & Roth 2021, TACL, Sec. 4);
- a test of every pair of measures (Williams 1959; or a permutation or bootstrap test over
  systems, inputs or both, Deutsch et al. 2021, Sec. 5), p-values corrected for the number of
  pairs within each (human, level, coefficient) by Holm (1979) or Benjamini & Hochberg (1995);
- the ranking with significance clusters (mt-metrics-eval's ranking: a measure starts a new
  cluster where it is significantly worse than a measure above it in the current one);
- system-level pairwise accuracy with tie calibration (acc23; Deutsch et al. 2023, "Ties
  Matter", Sec. 3-4), soft pairwise accuracy (SPA, Thompson et al. 2024) and plain system
  pairwise accuracy with a chance baseline, for each human column with at least 3 systems, and
  on request item-level acc23 (:mod:`sumeval.meta_eval.accuracy`); the ranking by SPA with
  mt-metrics-eval's test (``meta_metric`` ``spa``);
- the annotators as measures, each against the mean of the others, and their average, the human
  ceiling, where the data has annotator columns (:mod:`sumeval.meta_eval.annotators`), never
  competitors in the clusters unless asked;
- for a binary human column (values 0 and 1 only), ROC AUC and balanced accuracy with the
  threshold tuned on a validation split and applied to the test split.

Missing values follow one rule, pairwise-complete (:mod:`sumeval.meta_eval.missing`): the
ranking and the tables are rendered from the correlations (values) and the tests (clusters),
so every output shows the same number for a (measure, human, level, coefficient). A correlation
that is undefined (a constant column, too few systems, a single present value) is NaN with a
``reason``, is not ranked, is in no cluster, and its pairs are not tested.

The statistics are those of :mod:`sumeval.stats`; this module only arranges them.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.meta_eval.missing import check_measure_names, missing_note, missing_values

__all__ = ["TESTS", "LEVELS", "BOOTSTRAP_P", "StatisticsOptions", "Settings", "MetaEvaluation", "meta_evaluate",
           "parse_test"]

from sumeval.meta_eval.names import LEVELS, TESTS  # noqa: E402  (light: the CLI's parser reads them)

_CORRELATION_COLUMNS = ["measure", "human", "level", "coefficient", "value", "ci_low", "ci_high", "n",
                        "n_skipped", "resampling", "n_resamples", "seed", "reason", "role", "target"]
_PAIRWISE_COLUMNS = ["measure_a", "measure_b", "human", "level", "coefficient", "test", "resampling",
                     "alternative", "corr_a", "corr_b", "diff", "ci_low", "ci_high", "p_value", "p_raw",
                     "p_adjusted", "correction", "n", "n_rows", "n_resamples", "n_resamples_used", "seed",
                     "note"]
#: ``--partial-control`` values: what the ``partial`` level regresses out
PARTIAL_CONTROLS = ("system", "length")
#: the frame column of the summary lengths that ``--partial-control length`` regresses out
PARTIAL_LENGTH_COLUMN = "summary length (words)"
#: the label of the length sentinel's rows (role ``sentinel``)
LENGTH_SENTINEL = "length (sentinel)"
#: ``--meta-metric`` values: what ranks the measures (and what their clusters are tested on)
META_METRICS = ("correlation", "spa")
#: ``--alternative`` values: the tests between measures two-sided, or one-sided in the direction of the observed
#: difference (mt-metrics-eval's)
ALTERNATIVES = ("two-sided", "one-sided")
#: ``--bootstrap-p``: the p-value of the bootstrap tests (see :func:`sumeval.stats.paired_test`)
BOOTSTRAP_P = ("percentile", "sacrerouge")


def parse_test(test: str) -> tuple[str, str | None]:
    """``"permutation-both"`` -> ``("permutation", "both")``; ``"williams"`` -> ``("williams", None)``."""
    if test not in TESTS:
        raise InputError(f"--test {test!r} is not a test; choose one of {', '.join(TESTS)}")
    return TESTS[test]


@dataclass(frozen=True)
class StatisticsOptions:
    """The statistics options of a meta-evaluation, one set's (:class:`Settings`) or across data
    sets' (:class:`~sumeval.meta_eval.across.AcrossSettings`): both are this class with more fields.

    levels: of :data:`LEVELS` (or ``partial``). The older names ``document`` / ``summary`` are
        refused, here as everywhere (they mean different levels in different papers:
        :data:`sumeval.stats.checks.OLD_LEVEL_NAMES`).
    coefficients: of ``pearson, spearman, kendall_b, kendall_c``.
    test: of :data:`TESTS`.
    ci_resampling: what the bootstrap intervals resample: ``inputs``, ``systems`` or ``both``
        (the default, as Deutsch et al. 2021 recommend).
    n_resamples: bootstrap resamples for the intervals and permutations (or bootstrap
        resamples) per pair of measures.
    seed: seeds the resamples and permutations (the same draws for every measure and pair).
    correction: ``holm``, ``bh`` or ``none`` (no correction: ``p_adjusted`` is ``p_raw``,
        mt-metrics-eval's); alpha: significance level of the clusters.
    alternative: the tests between measures (not ``bootstrap-*``, which are two-sided):
        ``two-sided`` or ``one-sided`` (each pair in the direction of its observed difference, the
        higher-correlated measure better: mt-metrics-eval's; with ``correction`` ``none`` the
        clusters are its ``AssignRanks``', :mod:`sumeval.stats.multiple`).
    ci: coverage of the intervals; early_stop: a block size for the permutation test's early
        stop (mt-metrics-eval's rule; None: every permutation).
    detection_validation: the share of each label in the validation split of the binary
        detection (threshold tuned there, reported on the rest).
    bootstrap_p: the p-value of the ``bootstrap-*`` tests, of :data:`BOOTSTRAP_P`:
        ``percentile`` (sumeval's, the inversion of the percentile interval) or ``sacrerouge``
        (SacreROUGE's ``bootstrap_diff_test``: the share of resampled differences at least twice
        the observed one).
    annotators: add the annotator rows where the data has annotator columns
        (:mod:`sumeval.meta_eval.annotators`); annotators_compete: rank them among the measures.
    meta_metric: of :data:`META_METRICS`: ``correlation`` (the tests of ``test``, the ranking
        by each coefficient) and/or ``spa`` (the ranking by soft pairwise accuracy with
        mt-metrics-eval's permutation test).
    spa: compute soft pairwise accuracy (its bootstrap intervals are the costly part);
        spa_permutations: permutations of its paired test between systems (pce.py: 1000).
    item_acc23: item-level acc23 with tie calibration; tune_split: where its threshold is
        tuned: None (the test data: optimistic), ``validation`` (a random share
        ``detection_validation`` of the documents) or a file of document ids, one per line.
    partial_control: what the ``partial`` level (asked for in ``levels``; not a default level)
        regresses out of measure and human: ``system`` (FRANK's protocol) or ``length`` (the
        summary's words: does the measure say more than length?); :mod:`sumeval.stats.partial`.
    sentinels: add the length sentinel's rows (summary words, :mod:`sumeval.metrics.length`) as a
        labelled block under the measures, never ranked, where the data has summary texts.
    close_pairs: also compute, at the system level, the agreement on close and distant system
        pairs, Pairwise Difference Pearson and the systems' rank intervals
        (:func:`system_pair_frames`; ``close_pairs.csv``, ``pdp.csv``, ``rank_intervals.csv``).
    undefined_as: how the ``input`` level's mean treats a document whose correlation is undefined:
        ``skip`` (sumeval's: left out) or ``zero`` (RoSE's ``correlation.py``: counted as 0);
        :mod:`sumeval.stats.input_rules`.
    significant_inputs: None, or REALSumm's reproduction rule: the ``input`` level averages only
        the documents whose own correlation has p <= this (0.05 in REALSumm's ``analysis/utils.py``).
        Biased upward (documents selected on the statistic averaged); a warning says so.
    """

    levels: tuple[str, ...] = LEVELS
    coefficients: tuple[str, ...] = ("kendall_b",)
    test: str = "permutation-both"
    ci_resampling: str = "both"
    n_resamples: int = 1000
    seed: int = 0
    correction: str = "holm"
    alpha: float = 0.05
    alternative: str = "two-sided"
    ci: float = 0.95
    early_stop: int | None = None
    detection_validation: float = 0.5
    bootstrap_p: str = "percentile"
    annotators: bool = True
    annotators_compete: bool = False
    meta_metric: tuple[str, ...] = ("correlation",)
    spa: bool = True
    spa_permutations: int = 1000
    item_acc23: bool = False
    tune_split: str | None = None
    partial_control: str = "system"
    sentinels: bool = True
    close_pairs: bool = False
    undefined_as: str = "skip"
    significant_inputs: float | None = None


@dataclass(frozen=True)
class _HumanColumns:
    """The field :class:`Settings` puts first: a base of its own, so that ``humans`` (no default)
    stays the first field, as it was before :class:`StatisticsOptions` (positional construction,
    and the order of the manifest's settings)."""

    humans: tuple[str, ...]


@dataclass(frozen=True)
class Settings(StatisticsOptions, _HumanColumns):
    """What a meta-evaluation computes (every field is recorded in its manifest): the human
    columns and the :class:`StatisticsOptions` (their fields and defaults).

    humans: the human columns correlated with (each once).
    """

    def check(self) -> None:
        """InputError naming the setting and its value when one is not valid."""
        from sumeval.stats import RESAMPLINGS

        self._check_names()
        parse_test(self.test)
        if self.ci_resampling not in RESAMPLINGS:
            raise InputError(f"--ci-resampling {self.ci_resampling!r}: choose one of {', '.join(RESAMPLINGS)}")
        if isinstance(self.n_resamples, bool) or not isinstance(self.n_resamples, (int, np.integer)) \
                or self.n_resamples < 1:
            raise InputError(f"--n-resamples must be a whole number >= 1, got {self.n_resamples!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) or self.seed < 0:
            raise InputError(f"--seed must be a whole number >= 0, got {self.seed!r}")
        if self.correction not in ("holm", "bh", "none"):
            raise InputError(f"--correction {self.correction!r}: choose holm, bh or none")
        if self.alternative not in ALTERNATIVES:
            raise InputError(f"--alternative {self.alternative!r}: choose {' or '.join(ALTERNATIVES)}")
        if self.alternative != "two-sided" and parse_test(self.test)[0] == "bootstrap":
            raise InputError(f"--alternative {self.alternative} with --test {self.test}: the bootstrap tests are "
                             "two-sided; use a permutation-* test (mt-metrics-eval's: permutation-both) or williams")
        if not 0 < self.alpha < 1:
            raise InputError(f"--alpha must be between 0 and 1 (e.g. 0.05), got {self.alpha!r}")
        if not 0 < self.ci < 1:
            raise InputError(f"--ci must be between 0 and 1 (e.g. 0.95), got {self.ci!r}")
        if self.early_stop is not None and (isinstance(self.early_stop, bool) or self.early_stop < 1):
            raise InputError(f"--early-stop must be a block size >= 1, got {self.early_stop!r}")
        if not 0 < self.detection_validation < 1:
            raise InputError(f"the validation share must be between 0 and 1, got {self.detection_validation!r}")
        if self.partial_control not in PARTIAL_CONTROLS:
            raise InputError(f"--partial-control {self.partial_control!r}: choose one of {', '.join(PARTIAL_CONTROLS)} "
                             "(system: FRANK's partial correlation; length: the summary's words)")
        if (self.undefined_as != "skip" or self.significant_inputs is not None) and "input" not in self.levels:
            what = (f"--undefined-as {self.undefined_as}" if self.undefined_as != "skip"
                    else f"--significant-inputs {self.significant_inputs}")
            raise InputError(f"{what} changes how the input level averages its documents, and --level "
                             f"{' '.join(self.levels)} has no input level; add input to --level or drop the option")
        input_rule(self)  # checks both options
        if self.bootstrap_p not in BOOTSTRAP_P:
            raise InputError(f"--bootstrap-p {self.bootstrap_p!r}: choose one of {', '.join(BOOTSTRAP_P)}")
        self._check_judges()

    def _check_names(self) -> None:
        """The named humans, levels and coefficients (at least one each, each known) and meta-metrics: each once."""
        from sumeval.stats import METHODS
        from sumeval.stats.checks import canonical_level

        if not self.humans:
            raise InputError("name at least one human column (--human COL)")
        for option, values in (("--human", self.humans), ("--level", self.levels),
                               ("--coefficient", self.coefficients), ("--meta-metric", self.meta_metric)):
            twice = sorted({v for v in values if list(values).count(v) > 1})
            if twice:
                raise InputError(f"{option} names {', '.join(map(repr, twice))} more than once "
                                 f"({' '.join(map(str, values))}); name each once")
        for lv in self.levels:
            canonical_level(lv, "--level")
        if not self.levels:
            raise InputError(f"name at least one level (--level, of {', '.join(LEVELS)})")
        for c in self.coefficients:
            if c not in METHODS:
                raise InputError(f"--coefficient {c!r} is not a coefficient; choose one of {', '.join(METHODS)}")
        if not self.coefficients:
            raise InputError(f"name at least one coefficient (--coefficient, of {', '.join(METHODS)})")

    def _check_judges(self) -> None:
        """The options of the annotator rows, SPA and item-level acc23."""
        from pathlib import Path

        bad = [m for m in self.meta_metric if m not in META_METRICS] or ([] if self.meta_metric else [""])
        if bad:
            raise InputError(f"--meta-metric {bad[0]!r}: choose {' and/or '.join(META_METRICS)} (correlation: "
                             "the coefficients and --test; spa: soft pairwise accuracy, mt-metrics-eval's test)")
        if "spa" in self.meta_metric and not self.spa:
            raise InputError("--meta-metric spa ranks by soft pairwise accuracy, which --no-spa leaves out; drop one")
        if self.annotators_compete and not self.annotators:
            raise InputError("--annotators-compete ranks the annotator rows, which --no-annotators leaves out; "
                             "drop one")
        if isinstance(self.spa_permutations, bool) or not isinstance(self.spa_permutations, (int, np.integer)) \
                or self.spa_permutations < 1:
            raise InputError(f"--spa-permutations must be a whole number >= 1, got {self.spa_permutations!r}")
        if self.tune_split is not None:
            if not self.item_acc23:
                raise InputError(f"--tune-split {self.tune_split!r} sets where item-level acc23 tunes its threshold; "
                                 "add --item-acc23, or drop --tune-split")
            if self.tune_split != "validation" and not Path(self.tune_split).is_file():
                raise InputError(f"--tune-split {self.tune_split!r}: no such file; give a file of document ids (one "
                                 "per line) or 'validation' (a random share --validation of the documents)")


@dataclass
class MetaEvaluation:
    """A meta-evaluation's results, as tidy frames (the columns of the files it writes).

    correlations: ``measure, human, level, coefficient, value, ci_low, ci_high, n, n_skipped,
        resampling, n_resamples, seed, reason, role, target`` (``reason``: why ``value`` is NaN;
        else NaN, an empty cell in the CSV; ``role``: ``measure``, ``annotator`` or
        ``human_ceiling``; ``target``: what the row is correlated with).
    pairwise: ``measure_a, measure_b, human, level, coefficient, test, resampling, alternative,
        corr_a, corr_b, diff, ci_low, ci_high, p_value, p_raw, p_adjusted, correction, n,
        n_rows, n_resamples, n_resamples_used, seed, note`` (empty with one measure;
        :func:`sumeval.stats.compare_measures`; with ``meta_metric`` ``spa`` also the SPA tests,
        coefficient ``spa``: :func:`sumeval.meta_eval.accuracy.spa_tests`).
    ranking: ``measure, human, level, coefficient, value, rank, cluster, reason, role, note``:
        ``value`` as in ``correlations`` (coefficient ``spa``: the SPA of ``pairwise_accuracy``);
        ``rank`` and ``cluster`` missing where the value is undefined, and for the annotator rows
        unless they compete (``note``).
    pairwise_accuracy: :data:`sumeval.meta_eval.accuracy.ACCURACY_COLUMNS` (system level: acc23
        with tie calibration, SPA, plain accuracy with its chance baseline; item level on request).
    detection: ``measure, human, roc_auc, balanced_accuracy, threshold, ...`` for binary humans.
    dataset, measures: what was evaluated (name, sha256, ...; label, source, signature, ...).
    not_scored: the (row, measure) pairs without a number, with the reason.
    missing: the missing-value rule and counts (:func:`sumeval.meta_eval.missing.missing_values`).
    undefined: one dict per undefined correlation (``measure, human, level, coefficient, reason``).
    annotators: the labels of the annotator rows, then the human ceiling (empty when none).
    sentinels: the labels of the sentinel rows (role ``sentinel``: the summary length; empty when
        the data has no summary texts or with ``sentinels`` off).
    """

    settings: Settings
    dataset: dict[str, Any]
    measures: list[dict[str, Any]]
    correlations: pd.DataFrame
    pairwise: pd.DataFrame
    ranking: pd.DataFrame
    pairwise_accuracy: pd.DataFrame
    detection: pd.DataFrame
    not_scored: list[dict[str, Any]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    missing: dict[str, Any] = field(default_factory=dict)
    undefined: list[dict[str, Any]] = field(default_factory=list)
    annotators: list[str] = field(default_factory=list)
    sentinels: list[str] = field(default_factory=list)
    system_pairs: dict[str, pd.DataFrame] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        """The measures' labels, in the order given."""
        return [m["label"] for m in self.measures]


def _check_levels(judgments, settings: Settings) -> None:
    from sumeval.datasets.judgments_model import check_level

    for human in settings.humans:
        for lv in settings.levels:
            check_level(judgments, lv, human)


def _binary(values: np.ndarray) -> bool:
    v = values[~np.isnan(values)]
    return v.size > 0 and set(np.unique(v)) == {0.0, 1.0}


def input_rule(s):
    """The :class:`~sumeval.stats.input_rules.InputRule` of the settings (``undefined_as``,
    ``significant_inputs``); checks them."""
    from sumeval.stats.input_rules import InputRule

    return InputRule(s.undefined_as, s.significant_inputs)


#: the warning of ``--significant-inputs`` (REALSumm's reproduction rule), in every run that uses it
SIGNIFICANT_WARNING = ("biased reproduction rule: --significant-inputs {p} averages, at the input level, only the "
                       "documents whose own correlation has p <= {p} (REALSumm's published summary-level values). "
                       "The documents are selected on the very correlation being averaged, so a measure's mean is "
                       "pushed away from 0 (chance agreement enters only when it is large) and two measures are "
                       "averaged over different documents; use it to reproduce REALSumm's numbers, never to "
                       "compare measures (sumeval's default averages every document with a defined correlation)")


def _control(s) -> str:
    """The stats ``partial_control`` of the settings: the system column, or the lengths' column."""
    return PARTIAL_LENGTH_COLUMN if s.partial_control == "length" else "system"


def _with_length(frame: pd.DataFrame, judgments, s) -> pd.DataFrame:
    """The frame with the summary lengths that ``--partial-control length`` regresses out."""
    if "partial" not in s.levels or s.partial_control != "length":
        return frame
    from sumeval.judges.audit import summary_length

    if "summary" not in judgments.frame.columns or "summary" in judgments.limits:
        why = judgments.limits.get("summary", "it has no summary column")
        raise InputError(f"--partial-control length needs the summaries' texts, and data set {judgments.name!r} has "
                         f"none ({why}); use --partial-control system")
    frame = frame.copy()
    frame[PARTIAL_LENGTH_COLUMN] = summary_length(judgments.frame["summary"].tolist(),
                                                  f"data set {judgments.name!r}, column 'summary'")
    return frame


def _sentinel_rows(frame: pd.DataFrame, judgments, s, progress: bool, notes: list[str],
                   keep: dict | None = None) -> pd.DataFrame:
    """The sentinels' rows of ``correlations.csv`` (role ``sentinel``; :mod:`sumeval.meta_eval.sentinels`: none
    without summary texts, the source-overlap ones only with source texts); ``keep["scores"]`` gets their scores."""
    from sumeval.meta_eval import sentinels

    if not s.sentinels:
        return pd.DataFrame(columns=_CORRELATION_COLUMNS)
    scores = sentinels.sentinel_frame(judgments, notes)
    if keep is not None:
        keep["scores"] = scores
    if not len(scores.columns):
        return pd.DataFrame(columns=_CORRELATION_COLUMNS)
    base = frame[["doc_id", "system", *s.humans, *([PARTIAL_LENGTH_COLUMN] if PARTIAL_LENGTH_COLUMN in frame else [])]]
    work = pd.concat([base, scores.set_axis(base.index)], axis=1)
    out = _correlations(work, list(scores.columns), s, progress)
    out["role"] = "sentinel"
    if s.partial_control == "length":  # length regressed out of length: nothing left, by construction
        out.loc[(out["level"] == "partial") & (out["measure"] == LENGTH_SENTINEL), "reason"] = \
            "the sentinel is the control (--partial-control length)"
    randoms = sentinels.random_rows(base, judgments.frame["summary"].tolist(), s, _control(s), _CORRELATION_COLUMNS)
    return pd.concat([out, randoms], ignore_index=True)


def _correlations(frame: pd.DataFrame, labels: Sequence[str], s: Settings, progress: bool) -> pd.DataFrame:
    from sumeval import stats
    from sumeval.stats.undefined import undefined_reason

    out = stats.correlate(frame, list(labels), list(s.humans), level=list(s.levels),
                          methods=list(s.coefficients), n_resamples=s.n_resamples, ci=s.ci, seed=s.seed,
                          resample=s.ci_resampling, progress=progress, partial_control=_control(s),
                          input_rule=input_rule(s))
    out = out.rename(columns={"metric": "measure", "method": "coefficient"})
    out["resampling"] = s.ci_resampling
    out["n_resamples"] = s.n_resamples
    out["seed"] = s.seed
    reasons: dict[tuple[str, str, str], str] = {}
    for key in out.loc[out["value"].isna(), ["measure", "human", "level"]].itertuples(index=False, name=None):
        if key not in reasons:
            reasons[key] = (undefined_reason(frame, *key, partial_control=_control(s)) or
                            (f"no document's correlation has p <= {s.significant_inputs} (--significant-inputs)"
                             if key[2] == "input" and s.significant_inputs is not None else "undefined (NaN)"))
    out["reason"] = [reasons.get(key, math.nan) for key in out[["measure", "human", "level"]].itertuples(
        index=False, name=None)]
    out["role"], out["target"] = "measure", out["human"]
    return out[_CORRELATION_COLUMNS]


def _pairwise(frame: pd.DataFrame, labels: Sequence[str], s: Settings, progress: bool) -> pd.DataFrame:
    from sumeval import stats

    if len(labels) < 2:
        return pd.DataFrame(columns=_PAIRWISE_COLUMNS)
    test, axis = parse_test(s.test)
    parts = [stats.compare_measures(frame, list(labels), list(s.humans), level=list(s.levels), method=c,
                                    test=test, resample=axis or "both", n_resamples=s.n_resamples,
                                    seed=s.seed, correction=s.correction, alternative=s.alternative,
                                    early_stop=s.early_stop if test == "permutation" else None,
                                    progress=progress, bootstrap_p=s.bootstrap_p, partial_control=_control(s),
                                    input_rule=input_rule(s))
             for c in s.coefficients]
    out = pd.concat(parts, ignore_index=True)
    if test == "williams":
        out["resampling"] = None
    out["test"] = s.test
    return out[_PAIRWISE_COLUMNS]


def _detection(frame: pd.DataFrame, labels: Sequence[str], s: Settings, notes: list[str]) -> pd.DataFrame:
    from sumeval import stats
    from sumeval.stats.binary import SplitError

    rows = []
    for h in s.humans:
        y = frame[h].to_numpy(float)
        if not _binary(y):
            continue
        skipped = []
        for m in labels:
            try:
                r = stats.binary_detection(frame[m].to_numpy(float), y, validation=s.detection_validation,
                                           seed=s.seed)
            except SplitError as exc:
                skipped.append((m, str(exc)))
                continue
            rows.append({"measure": m, "human": h, **r})
        if skipped:
            which = ", ".join(repr(m) for m, _ in skipped)
            notes.append(f"human column {h!r} (0/1): the binary detection step (ROC AUC, balanced accuracy "
                         f"with a threshold tuned on a validation split) is skipped for {which}: "
                         f"{skipped[0][1]}; the correlations are computed and written")
    return pd.DataFrame(rows)


def meta_evaluate(judgments, measures: Sequence[Any], settings: Settings, *, progress: bool = False,
                  cache: bool = True, scores=None) -> MetaEvaluation:
    """Meta-evaluate ``measures`` against the human columns of ``judgments``.

    Args:
        judgments: a :class:`~sumeval.datasets.judgments_model.Judgments`.
        measures: :class:`~sumeval.metrics.sources.MeasureSpec` objects (from
            :func:`~sumeval.metrics.sources.resolve_measures`).
        settings: what to compute; checked first (:meth:`Settings.check`), as is every level
            against the data (e.g. the system level needs at least 3 systems).
        progress: progress bars while scoring and testing.
        cache: read and write measure scores in the cache.
        scores: a :class:`~sumeval.metrics.judgment_scores.MeasureScores` already computed (skips scoring).

    Returns:
        A :class:`MetaEvaluation`.
    """
    from sumeval.meta_eval import annotators as ann
    from sumeval.meta_eval.accuracy import spa_ranking, tune_documents
    from sumeval.meta_eval.ranking import RANKING_COLUMNS, rank
    from sumeval.metrics.judgment_scores import score_judgments

    settings.check()
    missing = [h for h in settings.humans if h not in judgments.frame.columns]
    if missing:
        raise InputError(f"human column(s) {missing} are not in data set {judgments.name!r}; its human "
                         f"columns are {list(judgments.humans)}")
    _check_levels(judgments, settings)
    specs = list(scores.specs if scores is not None else measures)
    check_measure_names(judgments, specs, settings.humans)
    sets = ann.find_annotators(judgments, settings.humans) if settings.annotators else ann.AnnotatorSets()
    ann.check_labels([spec.label for spec in specs], sets)
    tune_docs = tune_documents(judgments, settings)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if scores is None:
        scores = score_judgments(judgments, list(measures), progress=progress, cache=cache)
    timings["scoring_s"] = time.perf_counter() - t0
    labels = [spec.label for spec in scores.specs]
    frame = pd.concat([judgments.frame[["doc_id", "system", *settings.humans]].reset_index(drop=True),
                       scores.frame[labels].reset_index(drop=True)], axis=1)
    not_scored, missing_summary = missing_values(frame, labels, settings.humans, judgments, scores.not_scored)
    frame = _with_length(frame, judgments, settings)

    notes: list[str] = list(sets.notes)
    if settings.significant_inputs is not None:
        notes.append(SIGNIFICANT_WARNING.format(p=settings.significant_inputs))
    if settings.undefined_as == "zero":
        notes.append("--undefined-as zero (RoSE's rule): at the input level a document whose correlation is undefined "
                     "counts as 0 in the mean (n counts every such document); the annotator rows keep sumeval's rule")
    t = time.perf_counter()
    correlations = _correlations(frame, labels, settings, progress)
    if sets.columns:
        annotator_rows = ann.correlation_rows(judgments, sets, settings, notes)[_CORRELATION_COLUMNS]
        correlations = pd.concat([correlations, annotator_rows], ignore_index=True)
    kept: dict = {}
    sentinel = _sentinel_rows(frame, judgments, settings, progress, notes, kept)
    if len(sentinel):
        correlations = pd.concat([correlations, sentinel[_CORRELATION_COLUMNS]], ignore_index=True)
    timings["correlations_s"] = time.perf_counter() - t
    t = time.perf_counter()
    ranked = "correlation" in settings.meta_metric
    pairwise = _pairwise(frame, labels, settings, progress) if ranked else pd.DataFrame(columns=_PAIRWISE_COLUMNS)
    timings["tests_s"] = time.perf_counter() - t
    ranking = rank(correlations, pairwise, settings) if ranked else pd.DataFrame(columns=RANKING_COLUMNS)
    t = time.perf_counter()
    accuracy = ann.pairwise_accuracy(frame, labels, judgments, sets, settings, notes, tune_docs)
    detection = _detection(frame, labels, settings, notes)
    timings["accuracy_detection_s"] = time.perf_counter() - t
    if "spa" in settings.meta_metric:
        t = time.perf_counter()
        pairwise, ranking = spa_ranking(frame, labels, accuracy, pairwise, ranking, settings, progress)
        timings["spa_tests_s"] = time.perf_counter() - t
    if settings.close_pairs:
        t = time.perf_counter()
        system_pairs = system_pair_frames(frame, labels, settings, notes, kept.get("scores"))
        timings["system_pairs_s"] = time.perf_counter() - t
    else:
        system_pairs = {}
    timings["total_s"] = time.perf_counter() - t0

    from sumeval.meta_eval.sentinels import CONSTANT  # undefined by design: one table note says so, not one per cell

    undefined = correlations.loc[correlations["value"].isna() & (correlations["measure"] != CONSTANT),
                                 ["measure", "human", "level", "coefficient", "reason"]].to_dict("records")
    notes += _notes(labels, settings, missing_summary, undefined, pairwise)
    if judgments.systems_missing_documents:
        notes.append(f"{len(judgments.systems_missing_documents)} system(s) lack some documents: system-level "
                     "means are over different documents")
    if frame["system"].nunique() < 3:
        notes.append("fewer than 3 systems: no pairwise accuracy")
    dataset = {"name": judgments.name, "path": str(judgments.path) if judgments.path else None,
               "sha256": judgments.sha256, "format": judgments.format, "rows": len(judgments.frame),
               "documents": int(judgments.frame["doc_id"].nunique()),
               "systems": int(judgments.frame["system"].nunique()), "humans": list(settings.humans)}
    described = [{"label": spec.label, "name": spec.name, "source": spec.source, "column": spec.column,
                  "higher_is_better": spec.higher_is_better, "negated": not spec.higher_is_better,
                  "signature": scores.signatures.get(spec.label, spec.signature), "spec": spec.spec,
                  "from_cache": bool(scores.from_cache.get(spec.label, False))}
                 for spec in scores.specs]
    return MetaEvaluation(settings=settings, dataset=dataset, measures=described, correlations=correlations,
                          pairwise=pairwise, ranking=ranking, pairwise_accuracy=accuracy, detection=detection,
                          not_scored=not_scored, timings=timings, notes=notes, missing=missing_summary,
                          undefined=undefined, annotators=sets.labels,
                          sentinels=list(dict.fromkeys(sentinel["measure"])), system_pairs=system_pairs)


def system_pair_frames(frame: pd.DataFrame, labels: Sequence[str], s: Settings, notes: list[str],
                       sentinel_scores: pd.DataFrame | None = None) -> dict:
    """``close_pairs``: the system-level views of the measures beyond one correlation over all pairs.

    Returns:
        ``{"close_pairs": ...}`` (:func:`sumeval.stats.close_pairs.close_pairs`: agreement per third of the
        system pairs by human difference, with a document-bootstrap interval), ``"pdp"``
        (:func:`sumeval.stats.pdp.pairwise_difference_pearson`, input and system level, with its
        document-bootstrap interval) and ``"rank_intervals"`` (:func:`sumeval.stats.close_pairs.rank_intervals`
        of every human column and measure); ``role`` says which rows are a measure's, a human column's
        (rank intervals) or a sentinel's (``sentinel_scores``: the deterministic sentinels but the constant,
        whose every pair is a tie: a labelled block, never ranked); empty with a note when the data has fewer
        than 3 systems.
    """
    from sumeval.meta_eval.sentinels import CONSTANT
    from sumeval.stats.close_pairs import close_pairs, rank_intervals
    from sumeval.stats.pdp import pairwise_difference_pearson

    if frame["system"].nunique() < 3:
        notes.append("--close-pairs: fewer than 3 systems, no close pairs, PDP or rank intervals")
        return {}
    kw = dict(n_resamples=s.n_resamples, ci=s.ci, seed=s.seed)
    extra = [c for c in (sentinel_scores.columns if sentinel_scores is not None else ()) if c != CONSTANT]
    if extra:
        frame = pd.concat([frame, sentinel_scores[extra].set_axis(frame.index)], axis=1)
    measures = [*labels, *extra]
    role = {**{m: "measure" for m in labels}, **{m: "sentinel" for m in extra}, **{h: "human" for h in s.humans}}
    pdp = pd.concat([pairwise_difference_pearson(frame, measures, h, level=["input", "system"], **kw)
                     for h in s.humans], ignore_index=True).rename(columns={"metric": "measure"})
    cp = close_pairs(frame, measures, list(s.humans), **kw).rename(columns={"metric": "measure"})
    ranks = rank_intervals(frame, [*s.humans, *labels], **kw)
    return {"close_pairs": cp.assign(role=cp["measure"].map(role)), "pdp": pdp.assign(role=pdp["measure"].map(role)),
            "rank_intervals": ranks.assign(role=ranks["column"].map(role))}


def _notes(labels: Sequence[str], s: Settings, missing: dict[str, Any], undefined: list[dict[str, Any]],
           pairwise: pd.DataFrame) -> list[str]:
    """What a reader of the outputs must know: one measure, missing values, undefined
    correlations (grouped by measure, human and level: the reason is the same for every
    coefficient), the input-level Williams test."""
    notes = []
    if len(labels) < 2:
        notes.append("one measure: no pairwise tests; a measure with a defined correlation is in cluster 1")
    line = missing_note(missing)
    if line:
        notes.append(line)
    seen = set()
    for u in undefined:
        key = (u["measure"], u["human"], u["level"])
        if key not in seen:
            seen.add(key)
            notes.append(f"undefined correlation of {u['measure']!r} with {u['human']!r} at the {u['level']} "
                         f"level: {u['reason']} (NaN: not ranked, in no cluster, its pairs not tested)")
    if s.test == "williams" and "input" in s.levels and len(pairwise):
        notes.append("Williams' test at the input level is one test on the mean per-input correlations with "
                     "n = the systems on one input, not the number of inputs: weak there (adjusted p-values "
                     "of 1.0 are common); prefer permutation-both or bootstrap-both")
    return notes


def settings_dict(settings: Settings) -> dict[str, Any]:
    """The settings as plain JSON values."""
    d = asdict(settings)
    return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}
