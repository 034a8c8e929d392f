"""The paper tables of a meta-evaluation: ``table_<coefficient>`` and ``table_spa``.

Each is rendered from the tidy results, so it agrees with the CSV files by construction: the
values are ``correlations.csv``'s ``value`` (``table_spa``: ``pairwise_accuracy.csv``'s ``spa``),
the marks the clusters of ``ranking.csv`` (itself ranked by those values and clustered by
``pairwise.csv``'s tests). Rows: the measures in the order given; where the data set has
annotators (:mod:`sumeval.meta_eval.annotators`), a block under them holds each annotator (against
the mean of the others) and the human ceiling, never bold (they are not competitors) and without a
cluster mark unless ``--annotators-compete``. Written by :func:`sumeval.tables.write_table`
(CSV, LaTeX, Markdown, HTML).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sumeval.meta_eval.accuracy import SPA, spa_values
from sumeval.meta_eval.sentinels import CONSTANT, COVERAGE, LENGTH, RANDOM, RANDOM_DRAWS

__all__ = ["ranking_table", "table_notes", "table_coefficients", "write_tables", "caption", "MEASURES_BLOCK",
           "ANNOTATORS_BLOCK"]

#: the row blocks of a table with annotator rows (the first level of its index)
MEASURES_BLOCK, ANNOTATORS_BLOCK = "Measures", "Annotators (vs. others)"
#: the block of the sentinel rows (:mod:`sumeval.meta_eval.sentinels`: never ranked, never bold)
SENTINELS_BLOCK = "Sentinel (not ranked)"


def _values(result, coefficient: str) -> pd.DataFrame:
    if coefficient == SPA:
        acc = result.pairwise_accuracy
        return spa_values(acc) if len(acc) and "spa" in acc else pd.DataFrame(
            columns=["measure", "human", "level", "coefficient", "value", "role"])
    return result.correlations


def _ranked(result, coefficient: str) -> bool:
    return ("spa" if coefficient == SPA else "correlation") in result.settings.meta_metric


def table_coefficients(result) -> list[str]:
    """The tables a result has: one per coefficient, and ``spa`` when SPA was computed."""
    acc = result.pairwise_accuracy
    has_spa = len(acc) and "spa" in acc and acc["spa"].notna().any()
    return list(result.settings.coefficients) + ([SPA] if has_spa else [])


def ranking_table(result, coefficient: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The paper table of one coefficient (or ``"spa"``): rows x (human, level) (``spa``: level ``system``).

    Returns:
        ``(values, bold, marks)``: the values (NaN where undefined), where each column's best competitor
        sits (ties included; NaN never; annotator rows only with ``annotators_compete``), and each value's
        significance cluster as text (``"1"`` = not significantly worse than the best; ``""`` where undefined
        or not ranked). The index is the measure labels, or, with annotator rows, (block, label) with the
        blocks :data:`MEASURES_BLOCK` and :data:`ANNOTATORS_BLOCK`.
    """
    from sumeval.tables import best_mask

    frame = _values(result, coefficient)
    humans = list(result.settings.humans)
    levels = ["system"] if coefficient == SPA else list(result.settings.levels)
    columns = pd.MultiIndex.from_tuples([(h, lv) for h in humans for lv in levels], names=["human", "level"])
    present = set(frame["measure"])
    annotators = [a for a in result.annotators if a in present]
    sentinels = [a for a in getattr(result, "sentinels", []) if a in present]
    index = pd.Index(result.labels + annotators + sentinels, name="measure")

    def wide(sub: pd.DataFrame, column: str) -> pd.DataFrame:
        sub = sub[sub["coefficient"] == coefficient]
        if not len(sub):
            return pd.DataFrame(index=index, columns=columns, dtype=float)
        return sub.pivot_table(index="measure", columns=["human", "level"], values=column, aggfunc="first",
                               dropna=False).reindex(index=index, columns=columns)

    values = wide(frame, "value").astype(float)
    if RANDOM in sentinels:  # the random sentinel's mean, then the ends of the central range of its draws
        ends = [random_end(result, "low"), random_end(result, "high")]
        index = pd.Index(list(index) + ends, name="measure")
        values = pd.concat([values, wide(frame, "ci_low").astype(float).loc[[RANDOM]].set_axis([ends[0]]),
                            wide(frame, "ci_high").astype(float).loc[[RANDOM]].set_axis([ends[1]])])
        sentinels = sentinels + ends
    clusters = wide(result.ranking.astype({"cluster": "float64"}), "cluster").reindex(index=index)
    marks = clusters.apply(lambda col: col.map(lambda c: "" if pd.isna(c) else str(int(c))))
    competitors = result.labels + annotators if result.settings.annotators_compete else result.labels
    bold = best_mask(values.loc[competitors]).reindex(index=index, fill_value=False).astype(bool)
    if annotators or sentinels:
        blocked = pd.MultiIndex.from_tuples([(MEASURES_BLOCK, m) for m in result.labels]
                                            + [(ANNOTATORS_BLOCK, a) for a in annotators]
                                            + [(SENTINELS_BLOCK, a) for a in sentinels], names=["", "measure"])
        values, bold, marks = (f.set_axis(blocked, axis=0) for f in (values, bold, marks))
    return values, bold, marks


def random_end(result, end: str) -> str:
    """The row label of the low or high end of the random sentinel's range of draws (e.g. ``random (sentinel):
    2.5%``)."""
    q = (1 - result.settings.ci) / 2
    return f"{RANDOM}: {100 * (q if end == 'low' else 1 - q):g}% of draws"


def _sentinel_note(result) -> str:
    """What the sentinel block is (one note, whichever sentinels the data allowed)."""
    have = set(result.sentinels)
    parts = [f"{SENTINELS_BLOCK}: cheap baselines, never ranked, bold or tested; a measure that does no better says "
             "no more than the sentinel"]
    if LENGTH in have:
        parts.append("length: the summary's words")
    if COVERAGE in have:
        parts.append("fragment coverage and density (Grusky et al. 2018) and bigram overlap: how much of the summary "
                     "is copied from the source")
    if CONSTANT in have:
        parts.append("constant: the same score for every summary, every correlation undefined (a coefficient "
                     "that gave it a number would be scoring ties)")
    if RANDOM in have:
        parts.append(f"random: the mean correlation of {RANDOM_DRAWS} seeded random measures and the central "
                     f"{result.settings.ci:.0%} of their correlations, the noise floor")
    return "; ".join(parts)


def table_notes(result, coefficient: str) -> list[str]:
    """The notes printed under a table: why a cell is undefined (the dash), how missing values were handled
    when some were, what the annotator rows are, what SPA is."""
    notes = []
    undefined = [u for u in result.undefined if u["coefficient"] == coefficient]
    if undefined:
        notes.append("–: undefined, not ranked, in no cluster: " + "; ".join(
            f"{u['measure']} / {u['human']} / {u['level']}: {u['reason']}" for u in undefined))
    dropped = {m: v["no_number"] for m, v in result.missing.get("measures", {}).items() if v["no_number"]}
    if dropped or any(v["no_value"] for v in result.missing.get("humans", {}).values()):
        notes.append("missing values: pairwise-complete (each correlation on the rows where the measure and "
                     "the human are present"
                     + (f"; rows without a number: {', '.join(f'{m} {k}' for m, k in dropped.items())}"
                        if dropped else "") + ")")
    if result.annotators:
        notes.append("annotator rows: each annotator against the mean of the other annotators (leave-one-out); "
                      "human ceiling: their mean. A different target than the measures' (the mean of all "
                      "annotators), so not tested against the measures"
                      + ("; ranked among them by value (--annotators-compete), never starting a cluster"
                         if result.settings.annotators_compete else "; not ranked, never bold, no cluster mark")
                      + ("; – in an annotator's row where that human column has no such annotator"
                         if _uneven(result) else ""))
    if any(a in set(_values(result, coefficient)["measure"]) for a in getattr(result, "sentinels", [])):
        notes.append(_sentinel_note(result))
    if coefficient == SPA:
        notes.append("SPA: soft pairwise accuracy (Thompson et al. 2024, WMT24), 1 - the mean over system pairs of "
                     "|p(human) - p(measure)|, the p-values of a paired permutation test on the items every system "
                     f"has ({result.settings.spa_permutations} permutations, as mt-metrics-eval's pce.py)")
    if not _ranked(result, coefficient):
        notes.append("not ranked: no significance clusters (--meta-metric "
                     + ("spa" if coefficient == SPA else "correlation") + " ranks by it)")
    return notes


def _uneven(result) -> bool:
    """Whether some human column lacks an annotator row another has."""
    c = result.correlations
    rows = c[c["role"] != "measure"] if "role" in c else c.iloc[:0]
    have = {h: set(rows.loc[rows["human"] == h, "measure"]) for h in result.settings.humans}
    return len({frozenset(v) for v in have.values()}) > 1


def caption(result, coef: str) -> str:
    """The caption of the table of ``coef``."""
    from sumeval.display_names import display

    s = result.settings
    negated = [display(m["label"]) for m in result.measures if m["negated"]]
    if coef == SPA:
        head = (f"Soft pairwise accuracy (SPA) of each measure's system ranking against the human scores on "
                f"{result.dataset['name']}")
        test = display("spa-permutation")
    else:
        head = (f"Correlation ({display(coef)}) of each measure with the human scores at the "
                f"{', '.join(s.levels)} level(s) on {result.dataset['name']}")
        test = display(s.test)
    clusters = (f"; superscript: significance cluster (1 = not significantly worse than the best; {test}, "
                f"{display(s.correction)} correction, alpha {s.alpha})" if _ranked(result, coef) else "")
    return (head + "; best per column in bold" + clusters
            + (f"; {', '.join(negated)}: lower is better, shown negated" if negated else ""))


def write_tables(result, folder: Path) -> None:
    """Write ``table_<coefficient>`` (and ``table_spa``) into ``folder`` (:func:`sumeval.tables.write_table`)."""
    from sumeval import tables

    for coef in table_coefficients(result):
        values, bold, marks = ranking_table(result, coef)
        tables.write_table(values, folder, f"table_{coef}", bold=bold, marks=marks, caption=caption(result, coef),
                           notes=table_notes(result, coef), dataset=result.dataset.get("name"), source="meta-eval")
