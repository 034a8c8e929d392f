"""Study ``annotator_impact``: how the people behind the references and the judgments move the
correlations of SERA, GeSERA and ROUGE (paper 001 Sec. 4.3, Fig. 3, Table 3).

(a) References as annotators. SummEval has 11 references per article (reference 0 is the
    CNN/DM highlight, 1-10 were written by crowd workers). Every measure is scored against each
    reference alone (an (n, 11) array); the score against a set of references is the mean over
    its columns (exact for SERA, paper 001 Eq.1-2, and for ROUGE with ``aggregate="mean"``,
    which averages P, R and F over the references). Subsets: all 11, each reference alone, each
    leave-one-out set. A reference *helps* a measure when leaving it out lowers the correlation
    (``effect = all - without``, positive = helps). The reference positions are the same
    sources in every article (position 0 = the highlight), but a crowd position need not be the
    same writer in every article: the "authors" of positions 1-10 are slots, not persons.
(b) Judges as annotators. REALSumm LitePyramid is recomputed from subsets of the crowd workers'
    SCU judgments (majority rule, as REALSumm), drawing ``n`` of each summary's 3-4 workers at
    random (seeded), and the system-level correlations of the measures with it are recomputed.
    ``abs/bart_out`` is left out: its judgments are of the real BART summaries, its text in the
    JSONL is a copy of ``ext/bart_out`` (see :mod:`sumeval.datasets.realsumm`).
(c) Inter-rater agreement: Krippendorff's alpha of the SCU judgments (nominal), of the
    per-worker LitePyramid (interval), and of SummaC's 3 expert consistency scores.

On a judgments data set of a user's (the study's ``dataset``), the same questions are asked of
what it holds: (a) of its references when every row has the same number (at least 2) of them
(:func:`reference_pairs`; reference 0 is then not labelled CNN/DM); (b) of the annotators of
each human column with ``<human>/<annotator>`` columns - the human score recomputed as the mean
of ``n`` annotators drawn per summary (:func:`annotator_subset_scores`), and of all annotators but
one (:func:`annotator_effects`), against its measures (its precomputed measure columns, the
study's ``measures``, and the per-reference measures of (a)); (c) their agreement
(:func:`annotator_agreement`). REALSumm's SCU judgments and SummaC's experts belong to the
SummEval run only. A section whose data the data set lacks is skipped, and the notebook says why.

(a) is here; (b) and (c) are in :mod:`sumeval.studies.common.annotator_subsets` and
:mod:`sumeval.studies.common.annotator_rankings`, whose names the notebook reaches from here.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sumeval.errors import InputError
from sumeval.studies.common.annotator_rankings import (  # noqa: F401 (re-exported: the notebook's ai.*)
    annotator_correlations,
    annotator_level,
    annotator_section,
    annotators_part,
    rank_table,
    ranking_changes,
    save_annotator_section,
    section_measures,
)
from sumeval.studies.common.annotator_subsets import (  # noqa: F401 (re-exported: the notebook's ai.*)
    AGREEMENT_COLUMNS,
    agreement,
    annotator_agreement,
    annotator_effects,
    annotator_judgments,
    annotator_subset_scores,
    draw_workers,
    mean_of_annotators,
    realsumm_measures,
    save_workers,
    worker_correlations,
    worker_subset_litepyramid,
    worker_summary,
    workers_table,
)
from sumeval.studies.common.sera_scores import (
    METHODS,
    per_reference_scores,
    sera_frame,
    summeval_pairs,
    system_correlations,
)

__all__ = ["PARAMETER_RANGES", "ROUGE_SUMMEVAL", "SUMMEVAL_R0", "reference_label", "reference_subsets",
           "rouge_per_reference", "summeval_per_reference", "measures_per_reference", "reference_pairs",
           "subset_correlations", "reference_effects", "table3", "annotator_correlations", "annotator_level",
           "annotator_section", "annotators_part", "rank_table", "ranking_changes", "save_annotator_section",
           "section_measures", "AGREEMENT_COLUMNS", "agreement", "annotator_agreement", "annotator_effects",
           "annotator_judgments", "annotator_subset_scores", "draw_workers", "mean_of_annotators",
           "realsumm_measures", "save_workers", "worker_correlations", "worker_subset_litepyramid", "worker_summary",
           "workers_table"]

ROUGE_SUMMEVAL = ("ROUGE-1", "ROUGE-2", "ROUGE-L")
#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": (">=0", "0 means all; at most the data set's documents (checked when it is loaded)"),
                    "worker_counts": ">=1", "n_draws": ">=1"}


#: what SummEval's reference 0 is (the other ten were written by crowd workers)
SUMMEVAL_R0 = "CNN/DM"


def reference_label(m: int, source0: str | None = SUMMEVAL_R0) -> str:
    """``0 -> "R0 (CNN/DM)"``, ``3 -> "R3"``; ``source0=None`` (a data set other than SummEval):
    ``0 -> "R0"``."""
    return f"R0 ({source0})" if m == 0 and source0 else f"R{m}"


def reference_subsets(n_refs: int, source0: str | None = SUMMEVAL_R0) -> list[tuple[str, str, int, tuple[int, ...]]]:
    """``(subset, kind, reference, columns)``: ``all``; ``only Rm`` (kind ``single``);
    ``without Rm`` (kind ``leave-one-out``). With 3 references: all (0, 1, 2); only R0 (0,);
    ...; without R0 (1, 2); without R1 (0, 2); without R2 (0, 1). ``source0``: see
    :func:`reference_label`."""
    if n_refs < 2:
        raise InputError(f"reference subsets need at least 2 references, got {n_refs}")
    out = [("all", "all", -1, tuple(range(n_refs)))]
    out += [(f"only {reference_label(m, source0)}", "single", m, (m,)) for m in range(n_refs)]
    out += [(f"without {reference_label(m, source0)}", "leave-one-out", m,
             tuple(j for j in range(n_refs) if j != m)) for m in range(n_refs)]
    return out


# --------------------------------------------------------------------------------------------
# (a) references as annotators
# --------------------------------------------------------------------------------------------
def rouge_per_reference(pairs: pd.DataFrame, *, dataset: str = "summeval",
                        progress: bool = False) -> dict[str, np.ndarray]:
    """ROUGE-1/2/L as in :data:`~sumeval.studies.common.baseline_rows.TABLE1_ROWS` (F, no stemmer) against each
    reference alone.

    Args:
        pairs: rows with ``summary`` and ``references`` (every row the same number M of them).
        dataset: the data set's name in cache keys (:func:`sumeval.studies.common.study_data.cache_name`).
        progress: show progress bars.

    Returns:
        label -> array (n, M).
    """
    from sumeval.studies.common.baseline_rows import TABLE1_ROWS, score_rows

    rows = {k: TABLE1_ROWS[k] for k in ROUGE_SUMMEVAL}
    m = max(len(r) for r in pairs["references"])
    out = {k: np.full((len(pairs), m), np.nan) for k in rows}
    for j in range(m):
        single = pairs.assign(references=[[r[j]] for r in pairs["references"]])
        scored = score_rows(single, rows, dataset=f"{dataset}-reference-{j}", progress=progress)
        for k in rows:
            out[k][:, j] = scored[k].to_numpy()
    return out


def summeval_per_reference(index_name: str, variants: Sequence[str], *, n_docs: int | None = None,
                           rouge: bool = True, progress: bool = False) -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """SummEval pairs and every measure against each of the 11 references.

    Args:
        index_name: the SERA index, ``CORPUS:SIZE:SEED:BACKEND``.
        variants: SERA variants.
        n_docs: the first documents (None: all).
        rouge: add ROUGE-1/2/L (:func:`rouge_per_reference`).
        progress: show progress bars.

    Returns:
        ``(pairs, {measure: array (n, 11)})``.
    """
    pairs = summeval_pairs(n_docs)
    return pairs, measures_per_reference(pairs, index_name, variants, rouge=rouge, progress=progress)


def measures_per_reference(pairs: pd.DataFrame, index_name: str, variants: Sequence[str], *,
                           rouge: bool = True, dataset: str = "summeval",
                           progress: bool = False) -> dict[str, np.ndarray]:
    """Every SERA variant (and ROUGE-1/2/L) of ``pairs`` against each of its references.

    Args:
        pairs: rows with ``summary`` and ``references``.
        index_name: the SERA index, ``CORPUS:SIZE:SEED:BACKEND``.
        variants: SERA variants.
        rouge: add ROUGE-1/2/L (:func:`rouge_per_reference`).
        dataset: the data set's name in cache keys.
        progress: show progress bars.

    Returns:
        ``{measure: array (n, M)}``.
    """
    from sumeval.retrieval.index import open_index

    per_ref = per_reference_scores(pairs, open_index(index_name, progress=progress), variants, progress=progress)
    if rouge:
        per_ref.update(rouge_per_reference(pairs, dataset=dataset, progress=progress))
    return per_ref


def reference_pairs(judgments, human: str) -> pd.DataFrame:
    """The pairs of a judgments data set for section (a): ``doc_id, system, summary, references,
    <human>``.

    Raises:
        InputError: a data set without references, or whose rows do not all have the same number
            (at least 2) of references - a reference position must mean the same source in every
            row for "each reference alone" to mean anything.
    """
    if "references" not in judgments.fields:
        raise InputError(f"{judgments.name} has no references" + (
            f": {judgments.limits['references']}" if "references" in judgments.limits else
            " (a built-in set without them)" if judgments.format == "builtin" else
            " (map them with `sumeval data add ... --references-col COL`)"))
    counts = [len(r) if isinstance(r, list) else 0 for r in judgments.frame["references"]]
    if len(set(counts)) == 1 and counts[0] < 2:
        raise InputError(f"{judgments.name} has {counts[0]} reference per summary; references as annotators need "
                         "at least 2 (the same number on every row)")
    if min(counts) < 2 or len(set(counts)) > 1:
        bad = next(i for i, c in enumerate(counts) if c < 2 or c != counts[0])
        raise InputError(f"{judgments.name}: references as annotators need the same number (at least 2) "
                         f"of references on every row; {judgments.location(bad)} has {counts[bad]}, "
                         f"the first row {counts[0]}")
    cols = ["doc_id", "system", "summary", "references", human]
    return judgments.frame[cols].reset_index(drop=True)


def subset_correlations(pairs: pd.DataFrame, per_ref: dict[str, np.ndarray], human: str = "relevance",
                        methods: Sequence[str] = METHODS, source0: str | None = SUMMEVAL_R0) -> pd.DataFrame:
    """System-level correlations for every reference subset of :func:`reference_subsets` (paper 001
    Sec.4.3, Fig.3 and Table 3: the references as annotators).

    Args:
        pairs: the pairs, with ``human``.
        per_ref: measure -> (n, M) scores against each reference.
        human: the human column.
        methods: correlation methods.
        source0: what reference 0 is (:func:`reference_label`; None on another data set than SummEval).

    Returns:
        ``subset, kind, reference, n_refs, metric, human, method, value, n``.
    """
    m = next(iter(per_ref.values())).shape[1]
    frames = []
    for subset, kind, ref, cols in reference_subsets(m, source0):
        scored = sera_frame(pairs, per_ref, cols)
        corr = system_correlations(scored, list(per_ref), human, methods)
        frames.append(corr.assign(subset=subset, kind=kind, reference=ref, n_refs=len(cols)))
    out = pd.concat(frames, ignore_index=True)
    return out[["subset", "kind", "reference", "n_refs", "metric", "human", "method", "value", "n"]]


def reference_effects(subsets: pd.DataFrame, source0: str | None = SUMMEVAL_R0) -> pd.DataFrame:
    """Per (metric, method, reference): ``alone`` (correlation with that reference only),
    ``without`` (leave it out), ``all``, ``effect = all - without`` (> 0: the reference helps),
    ``label`` (:func:`reference_label`)."""
    allv = subsets[subsets["kind"] == "all"].set_index(["metric", "method"])["value"]
    alone = subsets[subsets["kind"] == "single"].set_index(["metric", "method", "reference"])["value"]
    without = subsets[subsets["kind"] == "leave-one-out"].set_index(["metric", "method", "reference"])["value"]
    out = pd.DataFrame({"alone": alone, "without": without}).reset_index()
    out["all"] = [allv[(m, meth)] for m, meth in zip(out["metric"], out["method"])]
    out["effect"] = out["all"] - out["without"]
    out["label"] = out["reference"].map(lambda m: reference_label(m, source0))
    return out[["metric", "method", "reference", "label", "alone", "without", "all", "effect"]]


def table3(effects: pd.DataFrame, select_by: str = "pearson", source0: str | None = SUMMEVAL_R0) -> pd.DataFrame:
    """Paper 001 Table 3 in our setting: per metric, the correlation with all references beside the
    correlation without the reference whose removal raises ``select_by`` the most (the "most
    unreliable annotator"; if no removal raises it, the one that lowers it least).

    Args:
        effects: :func:`reference_effects`' frame.
        select_by: the method that picks the reference.
        source0: what reference 0 is (:func:`reference_label`).

    Returns:
        ``metric, dropped, method, all, without_dropped, gain``.
    """
    rows = []
    for metric, g in effects.groupby("metric", sort=False):
        sel = g[g["method"] == select_by]
        worst = int(sel.loc[sel["effect"].idxmin(), "reference"])
        for _, r in g[g["reference"] == worst].iterrows():
            rows.append((metric, reference_label(worst, source0), r["method"], r["all"], r["without"],
                         r["without"] - r["all"]))
    return pd.DataFrame(rows, columns=["metric", "dropped", "method", "all", "without_dropped", "gain"])
