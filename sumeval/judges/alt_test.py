"""The alternative annotator test (alt-test): can a judge replace the annotators?

Calderon, Reichart & Dror (ACL 2025), "The Alternative Annotator Test for LLM-as-a-Judge: How to
Statistically Justify Replacing Human Annotators with LLMs" (the procedure, the winning rate and the
average advantage probability; the paper's section and equation numbers could not be checked here, so
the reference is the authors' code). The operational details below are those of that code
(nitaytech/AltTest 18428b1, ``alt_test_example.ipynb``, function ``alt_test``), which this module
reproduces to floating-point precision (tests/judges/test_alt_test.py pins its outputs on SummEval).

For items i = 1..n, annotators h_1..h_m (not every annotator need rate every item) and a judge f:

1. **Items kept**: those rated by at least ``min_annotators`` annotators (the excluded one counted)
   and scored by the judge.
2. **Leave one annotator out.** For each annotator h_j and each kept item i that h_j rated, the
   reference group is the item's other annotators H_i^{-j} (at least 1). The **alignment score** of
   a value v with the group is

   - ``accuracy``: the share of the group giving exactly v (categorical labels);
   - ``neg_rmse``: -sqrt(mean over the group of (v - a)^2) (ordinal or continuous scores; the
     authors' choice for SummEval);
   - ``neg_mae``: -mean over the group of |v - a| (negative absolute error).

   Indicators: W^f_i = 1 if S(f(i)) >= S(h_j(i)) (the judge aligns at least as well), W^h_i = 1 if
   S(h_j(i)) >= S(f(i)); ties set both.
3. **Advantage probabilities**: rho^f_j = mean_i W^f_i, rho^h_j = mean_i W^h_i.
4. **Test per annotator**: H0: rho^h_j - rho^f_j >= epsilon against H1: rho^h_j - rho^f_j < epsilon,
   the one-sided one-sample t-test of d_i = W^h_i - W^f_i against epsilon (equal to the paired
   t-test of W^h and W^f + epsilon; scipy's ``ttest_1samp(d, epsilon, alternative="less")`` in the
   authors' code): t = (mean(d) - epsilon) / (sd(d) / sqrt(n_j)), sd with n_j - 1 degrees of freedom,
   p = F_{t, n_j - 1}(t). A constant d gives t = -inf (p = 0) below epsilon, +inf (p = 1) above,
   NaN when equal to epsilon (as scipy). epsilon is the cost-benefit allowance of the judge (0.2
   for expert annotators, 0.15 skilled, 0.1 crowd workers, the authors' guidance).
   Annotators with fewer than ``min_items`` kept items are skipped (not tested, not counted). A judge
   with no annotator left on a human column is not tested there (its row: winning rate and rho NaN,
   not passed, ``note`` saying why and the most items any annotator had); the other judges are.
5. **Benjamini-Yekutieli** over the tested annotators at level q: with the m p-values sorted,
   reject the k smallest, k the largest i with p_(i) <= i q / (m H_m), H_m = sum_{k<=m} 1/k (a
   NaN p-value counts in m and is never rejected, as in the authors' code). The adjusted p-value
   min_{k>=i} min(1, m H_m p_(k) / k) is reported beside it (rejected exactly when <= q).
6. **Winning rate** omega = rejected / tested annotators; the judge **passes** when omega >= 0.5.
   The **average advantage probability** rho = mean_j rho^f_j ranks judges.

**Per human column and pooled**: each human column (a quality) is tested on its own items;
``pooled`` stacks the items of all the human columns (item = (summary, quality), as the authors
treat SummEval), with annotators matched by name (``coherence/expert1`` and ``relevance/expert1`` are
one annotator) and the judge's column for each quality.
"""
from __future__ import annotations

import math
from typing import Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.judges.columns import (
    POOLED,
    all_missing_message,
    annotator_columns,
    annotator_name,
    judge_column,
    judge_label,
    require_annotators,
)

__all__ = ["ALIGNMENTS", "DEFAULTS", "AltTest", "alignment_scores", "one_sided_t_pvalues", "by_reject",
           "by_adjust", "alt_test_arrays", "alt_test", "check_settings"]

from sumeval.judges.names import ALIGNMENTS, DEFAULTS  # noqa: E402  (light: the CLI's parser reads them)

RESULT_COLUMNS = ["judge", "human", "alignment", "epsilon", "q", "winning_rate", "advantage_probability", "passed",
                  "n_items", "n_annotators", "n_won", "n_skipped", "note"]
ANNOTATOR_COLUMNS = ["judge", "human", "annotator", "judge_column", "alignment", "epsilon", "tested", "n_items",
                     "rho_judge", "rho_annotator", "p_value", "p_adjusted", "won"]


class AltTest(NamedTuple):
    """The two tidy frames of :func:`alt_test`."""

    results: pd.DataFrame  #: one row per (judge, human): :data:`RESULT_COLUMNS`
    annotators: pd.DataFrame  #: one row per (judge, human, excluded annotator): :data:`ANNOTATOR_COLUMNS`


# --------------------------------------------------------------------------------------------
# The formulas, over arrays
# --------------------------------------------------------------------------------------------
def alignment_scores(values: np.ndarray, annotations: np.ndarray, group: np.ndarray, alignment: str) -> np.ndarray:
    """Alignment of ``values`` with each item's reference group (module docstring, step 2).

    Args:
        values: shape (..., n_items), the scores aligned (an annotator's, or judges').
        annotations: shape (n_items, n_annotators), NaN where not rated.
        group: shape (n_items, n_annotators) bool, the reference annotators of each item.
        alignment: one of :data:`ALIGNMENTS`.

    Returns:
        shape (..., n_items); NaN where the group is empty or the value is NaN.
    """
    if alignment not in ALIGNMENTS:
        raise InputError(f"alignment {alignment!r} is unknown; choose one of {', '.join(ALIGNMENTS)} "
                         "(accuracy for categorical labels, neg_rmse or neg_mae for ordinal or continuous scores)")
    v = np.asarray(values, dtype=np.float64)[..., None]
    a = np.asarray(annotations, dtype=np.float64)
    count = group.sum(axis=-1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        if alignment == "accuracy":
            total = np.where(group, v == a, False).sum(axis=-1)
            out = total / count
        elif alignment == "neg_rmse":
            out = -np.sqrt(np.where(group, (v - a) ** 2, 0.0).sum(axis=-1) / count)
        else:
            out = -(np.where(group, np.abs(v - a), 0.0).sum(axis=-1) / count)
    return np.where((count > 0) & ~np.isnan(v[..., 0]), out, np.nan)


def one_sided_t_pvalues(d: np.ndarray, used: np.ndarray, epsilon: float) -> np.ndarray:
    """p-values of H1: mean(d) < epsilon, the one-sample t-test over the used entries of each row
    (module docstring, step 4).

    Args:
        d: shape (..., n), the differences W^h - W^f; used: shape (..., n) bool.
        epsilon: the tested value.

    Returns:
        shape (...,); NaN for rows with fewer than 2 used entries or a constant d equal to epsilon.
    """
    from scipy.special import stdtr

    n = used.sum(axis=-1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(used, d, 0.0).sum(axis=-1) / n
        var = np.where(used, (d - mean[..., None]) ** 2, 0.0).sum(axis=-1) / (n - 1)
        t = (mean - epsilon) / np.sqrt(var / n)
        p = stdtr(n - 1, t)
    return np.where(n >= 2, p, np.nan)


def _by_order(p: np.ndarray) -> tuple[np.ndarray, int, float]:
    order = np.argsort(np.where(np.isnan(p), np.inf, p), kind="stable")
    m = p.size
    return order, m, float(np.sum(1.0 / np.arange(1, m + 1)))


def by_reject(p: Sequence[float] | np.ndarray, q: float) -> np.ndarray:
    """Benjamini-Yekutieli step-up rejections at false-discovery level ``q`` (step 5).

    Args:
        p: shape (m,) p-values (NaN counts in m, never rejected).

    Returns:
        shape (m,) bool, True where rejected.
    """
    p = np.asarray(p, dtype=np.float64)
    out = np.zeros(p.shape, dtype=bool)
    if p.size == 0:
        return out
    order, m, h_m = _by_order(p)
    thresholds = np.arange(1, m + 1) / m * (q / h_m)
    below = np.flatnonzero(p[order] <= thresholds)
    if below.size:
        out[order[: below[-1] + 1]] = True
    return out


def by_adjust(p: Sequence[float] | np.ndarray) -> np.ndarray:
    """Benjamini-Yekutieli adjusted p-values (step 5); NaN stays NaN and counts in m."""
    p = np.asarray(p, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    if p.size == 0:
        return out
    order, m, h_m = _by_order(p)
    scaled = np.minimum(1.0, m * h_m * p[order] / np.arange(1, m + 1))
    finite = ~np.isnan(scaled)
    adjusted = np.minimum.accumulate(np.where(finite, scaled, np.inf)[::-1])[::-1]
    out[order] = np.where(finite, adjusted, np.nan)
    return out


def check_settings(alignment: str, epsilon: float, q: float, min_items: int, min_annotators: int) -> None:
    """InputError naming the setting and its range for a setting of :func:`alt_test` out of range."""
    if alignment not in ALIGNMENTS:
        raise InputError(f"alignment {alignment!r} is unknown; choose one of {', '.join(ALIGNMENTS)}")
    if not (isinstance(epsilon, (int, float)) and np.isfinite(epsilon) and 0 <= epsilon < 1):
        raise InputError(f"epsilon {epsilon!r} must be a number in [0, 1): the judge's allowance on the "
                         "advantage probability (0.2 for experts, 0.15 skilled, 0.1 crowd workers)")
    if not (isinstance(q, (int, float)) and 0 < q < 1):
        raise InputError(f"q {q!r} must lie in (0, 1): the false discovery rate of the Benjamini-Yekutieli step")
    if isinstance(min_items, bool) or not isinstance(min_items, (int, np.integer)) or min_items < 2:
        raise InputError(f"min_items {min_items!r} must be an integer >= 2 (a t-test needs 2 items; the "
                         "authors use 30)")
    if isinstance(min_annotators, bool) or not isinstance(min_annotators, (int, np.integer)) or min_annotators < 2:
        raise InputError(f"min_annotators {min_annotators!r} must be an integer >= 2 (the excluded annotator "
                         "and at least one other)")


def alt_test_arrays(annotations: np.ndarray, judges: np.ndarray, *, alignment: str = "neg_rmse",
                    epsilon: float = 0.2, q: float = 0.05, min_items: int = 30,
                    min_annotators: int = 2) -> dict[str, np.ndarray]:
    """The alt-test of several judges against one set of annotators (module docstring).

    Args:
        annotations: shape (n_items, n_annotators), NaN where an annotator did not rate an item.
        judges: shape (n_judges, n_items), NaN where a judge gave no score.
        alignment, epsilon, q, min_items, min_annotators: the settings (:data:`DEFAULTS`).

    Returns:
        Per (judge, annotator), shape (n_judges, n_annotators): ``n_items``, ``tested``,
        ``rho_judge``, ``rho_annotator``, ``p_value``, ``p_adjusted``, ``won``; per judge, shape
        (n_judges,): ``winning_rate``, ``advantage_probability``, ``passed``, ``n_items`` (items
        kept), ``n_annotators`` (tested), ``n_won``. Untested cells are NaN / False.
    """
    check_settings(alignment, epsilon, q, min_items, min_annotators)
    H = np.asarray(annotations, dtype=np.float64)
    J = np.atleast_2d(np.asarray(judges, dtype=np.float64))
    if H.ndim != 2 or J.shape[1] != H.shape[0]:
        raise InputError(f"annotations must be (n_items, n_annotators) and judges (n_judges, n_items) with the "
                         f"same n_items; got shapes {H.shape} and {J.shape}")
    n_judges, n_ann = J.shape[0], H.shape[1]
    present = ~np.isnan(H)
    kept = (~np.isnan(J)) & (present.sum(axis=1) >= min_annotators)  # (n_judges, n_items)
    shape = (n_judges, n_ann)
    out = {k: np.full(shape, np.nan) for k in ("rho_judge", "rho_annotator", "p_value", "p_adjusted")}
    out["n_items"] = np.zeros(shape, dtype=np.int64)
    for a in range(n_ann):
        group = present.copy()
        group[:, a] = False
        s_h = alignment_scores(H[:, a], H, group, alignment)  # (n_items,)
        s_f = alignment_scores(J, H, group, alignment)  # (n_judges, n_items)
        used = kept & present[:, a]
        judge_wins = used & (s_f >= s_h)
        annotator_wins = used & (s_h >= s_f)
        n = used.sum(axis=1)
        out["n_items"][:, a] = n
        with np.errstate(invalid="ignore", divide="ignore"):
            out["rho_judge"][:, a] = judge_wins.sum(axis=1) / n
            out["rho_annotator"][:, a] = annotator_wins.sum(axis=1) / n
        d = annotator_wins.astype(np.float64) - judge_wins.astype(np.float64)
        out["p_value"][:, a] = one_sided_t_pvalues(d, used, epsilon)
    tested = out["n_items"] >= min_items
    for k in ("rho_judge", "rho_annotator", "p_value"):
        out[k] = np.where(tested, out[k], np.nan)
    out["tested"] = tested
    out["won"] = np.zeros(shape, dtype=bool)
    for j in range(n_judges):
        cols = np.flatnonzero(tested[j])
        out["won"][j, cols] = by_reject(out["p_value"][j, cols], q)
        out["p_adjusted"][j, cols] = by_adjust(out["p_value"][j, cols])
    n_tested = tested.sum(axis=1)
    n_won = out["won"].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        winning = n_won / n_tested
        rho = np.nansum(np.where(tested, out["rho_judge"], 0.0), axis=1) / n_tested
    out.update(winning_rate=winning, advantage_probability=rho, passed=winning >= 0.5,
               n_annotators=n_tested, n_won=n_won, n_items_kept=kept.sum(axis=1))
    return out


# --------------------------------------------------------------------------------------------
# On a judgments frame: per human column, and pooled
# --------------------------------------------------------------------------------------------
def _block(frame: pd.DataFrame, human: str, judges: Sequence[str], where: str,
           candidates: Sequence[str] | None,
           humans: Sequence[str]) -> tuple[np.ndarray, list[str], np.ndarray, list[str]]:
    """(annotations (n, n_ann), annotator names, judge values (n_judges, n), judge columns) of one human; no
    human or annotator column of ``humans`` is taken as a judge."""
    cols = require_annotators(frame.columns, human, where)
    not_judges = {c: f"an annotator column of the human column {h!r}" for h in humans
                  for c in annotator_columns(frame.columns, h)}
    not_judges.update({h: f"the human column {h!r}" for h in humans})
    usable = [c for c in frame.columns if c not in not_judges]
    jcols = [judge_column(usable, j, human, where, candidates, not_judges) for j in judges]
    ann = frame[cols].to_numpy(dtype=np.float64)
    jv = frame[jcols].to_numpy(dtype=np.float64).T
    return ann, [annotator_name(c, human) for c in cols], jv, jcols


def skipped_note(judge: str, human: str, most: int, settings: dict) -> str:
    """Why a judge is not tested on a human column: no annotator has ``min_items`` items with it."""
    return (f"judge {judge!r} not tested on {human!r}: no annotator has {settings['min_items']} items scored by the "
            f"judge and rated by >= {settings['min_annotators']} annotators (most: {most}); lower min_items "
            "(--min-items) or check the judge's column")


def all_missing_note(judge: str, human: str, column: str, n_rows: int, why: str | None = None) -> str:
    """Why a judge is not tested on a human column: every value of its column is missing
    (:func:`sumeval.judges.columns.all_missing_message`)."""
    return f"judge {judge!r} not tested on {human!r}: " + all_missing_message(column, n_rows, why)


def _frames(res: dict[str, np.ndarray], judges: Sequence[str], human: str, names: Sequence[str],
            jcols: Sequence[str], settings: dict, jv: np.ndarray | None = None,
            missing_why: Mapping[str, str] | None = None) -> tuple[list[dict], list[dict]]:
    rows, per = [], []
    for j, judge in enumerate(judges):
        n_ann = int(res["n_annotators"][j])
        note = math.nan
        if n_ann == 0 and jv is not None and jv.shape[1] and np.isnan(jv[j]).all():
            note = all_missing_note(judge, human, jcols[j], jv.shape[1], (missing_why or {}).get(jcols[j]))
        elif n_ann == 0:  # this judge is not tested here; the others are
            note = skipped_note(judge, human, int(res["n_items"][j].max()), settings)
        rows.append({"judge": judge_label(judge), "human": human, "alignment": settings["alignment"],
                     "epsilon": settings["epsilon"], "q": settings["q"],
                     "winning_rate": float(res["winning_rate"][j]) if n_ann else math.nan,
                     "advantage_probability": float(res["advantage_probability"][j]) if n_ann else math.nan,
                     "passed": bool(res["passed"][j]), "n_items": int(res["n_items_kept"][j]),
                     "n_annotators": n_ann, "n_won": int(res["n_won"][j]),
                     "n_skipped": int(len(names) - n_ann), "note": note})
        for a, name in enumerate(names):
            per.append({"judge": judge_label(judge), "human": human, "annotator": name, "judge_column": jcols[j],
                        "alignment": settings["alignment"], "epsilon": settings["epsilon"],
                        "tested": bool(res["tested"][j, a]), "n_items": int(res["n_items"][j, a]),
                        "rho_judge": float(res["rho_judge"][j, a]),
                        "rho_annotator": float(res["rho_annotator"][j, a]),
                        "p_value": float(res["p_value"][j, a]), "p_adjusted": float(res["p_adjusted"][j, a]),
                        "won": bool(res["won"][j, a])})
    return rows, per


def alt_test(frame: pd.DataFrame, humans: str | Sequence[str], judges: str | Sequence[str], *,
             per_human: bool = True, pooled: bool = False, alignment: str = "neg_rmse", epsilon: float = 0.2,
             q: float = 0.05, min_items: int = 30, min_annotators: int = 2, where: str = "the data",
             candidates: Sequence[str] | None = None, missing_why: Mapping[str, str] | None = None) -> AltTest:
    """The alt-test of each judge against the annotators of each human column, and pooled.

    Args:
        frame: one row per (document, system) summary with the ``<human>/<annotator>`` columns of
            each human column and the judges' columns (:mod:`sumeval.judges.columns`).
        humans: the human columns (each needs at least 2 annotator columns).
        judges: judge names: a column for every human column, ``J`` with a ``J/<human>`` column per
            human column, or a ``{human}`` template.
        per_human: a row per human column; pooled: a row over all of them stacked (human
            ``"pooled"``).
        alignment, epsilon, q, min_items, min_annotators: :data:`DEFAULTS` (module docstring).
        where: the data's name, for messages; candidates: the columns listed when a judge is not found.
        missing_why: ``{judge column: why its values are missing}`` (the judge's own record, e.g. ``sumeval
            judge``'s manifest), said when every value of the column is missing.

    Returns:
        :class:`AltTest` (``results``: :data:`RESULT_COLUMNS`, a judge not tested on a human column with
        its ``note``; ``annotators``: :data:`ANNOTATOR_COLUMNS`, skipped annotators included with ``tested``
        False).

    Raises:
        InputError: for bad settings or columns, and when no judge can be tested on any human column.
    """
    humans = [humans] if isinstance(humans, str) else list(humans)
    judges = [judges] if isinstance(judges, str) else list(judges)
    if not humans or not judges:
        raise InputError("name at least one human column and one judge")
    for what, names in (("human column", humans), ("judge", judges), ("judge label", [judge_label(j) for j in judges])):
        dup = sorted({x for x in names if names.count(x) > 1})
        if dup:
            raise InputError(f"{what} {dup[0]!r} is given twice; name each once")
    if not (per_human or pooled):
        raise InputError("nothing to test: ask for per_human and/or pooled results")
    if pooled and POOLED in humans:
        raise InputError(f"a human column is named {POOLED!r}, the label of pooled results; rename it")
    check_settings(alignment, epsilon, q, min_items, min_annotators)
    settings = dict(alignment=alignment, epsilon=float(epsilon), q=float(q), min_items=int(min_items),
                    min_annotators=int(min_annotators))
    run = {k: settings[k] for k in ("alignment", "epsilon", "q", "min_items", "min_annotators")}
    blocks = {h: _block(frame, h, judges, where, candidates, humans) for h in humans}
    rows, per = [], []
    if per_human:
        for h, (ann, names, jv, jcols) in blocks.items():
            r, p = _frames(alt_test_arrays(ann, jv, **run), judges, h, names, jcols, settings, jv, missing_why)
            rows += r
            per += p
    if pooled:
        names = list(dict.fromkeys(n for b in blocks.values() for n in b[1]))
        parts = []
        for ann, own, _, _ in blocks.values():
            block = np.full((ann.shape[0], len(names)), np.nan)
            block[:, [names.index(n) for n in own]] = ann
            parts.append(block)
        ann = np.concatenate(parts, axis=0)
        jv = np.concatenate([b[2] for b in blocks.values()], axis=1)
        jcols = [", ".join(dict.fromkeys(b[3][j] for b in blocks.values())) for j in range(len(judges))]
        r, p = _frames(alt_test_arrays(ann, jv, **run), judges, POOLED, names, jcols, settings, jv, missing_why)
        rows += r
        per += p
    if not any(r["n_annotators"] for r in rows):
        raise InputError("no judge could be tested: " + "; ".join(r["note"] for r in rows))
    return AltTest(pd.DataFrame(rows, columns=RESULT_COLUMNS), pd.DataFrame(per, columns=ANNOTATOR_COLUMNS))
