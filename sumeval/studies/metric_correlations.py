"""Study ``metric_correlations``: the published ROUGE / BLEU / BERTScore / JS-2 rows of papers 000 and 001.

(a) Paper 000 Table 1: pooled summary-level Spearman and Kendall tau-c of ROUGE-1/2/3/L F,
    BLEU and BERTScore P/R/F against the four SummEval expert qualities. Paper 000 computed ROUGE
    with rouge-score's defaults (no stemmer), mean over the 11 references; BLEU with NLTK
    (configuration not given); BERTScore with bert-score's default English model, roberta-large
    (its layer 17). roberta-large is not available offline here, so the BERTScore rows use a
    packaged encoder, named in the row's label ("BERTScore-F (all-mpnet-base-v2)"), at its
    default layer (:mod:`sumeval.metrics.bertscore`), best over the 11 references.
(b) Paper 001 Table 2: system-level Pearson, Spearman and Kendall tau-b of ROUGE-1-R, ROUGE-2-R,
    ROUGE-L-F and JS-2 against REALSumm LitePyramid recall. REALSumm's ROUGE uses the stemmer and
    its "ROUGE-L" is the summary-level LCS over sentences (rouge-score's rougeLsum); its JS-2 is
    the negated divergence.

Both parts run on any judgments data set (:mod:`sumeval.studies.common.study_data`): part (a) on the
study's ``dataset`` (SummEval by default), part (b) on its ``system_dataset`` (REALSumm by
default). The papers' numbers are shown beside ours only on the paper's own data set. On another
data set the reference-based rows need its ``references`` (without them those rows are left
out, and said so; a summary without references stops the run naming it), the diagnostic row
(which drops SummEval's CNN/DM highlight) is not shown, and the data set's precomputed measure
columns and any measures named by the study's ``measures``
(:mod:`sumeval.metrics.sources` syntax: a column, a registered measure, a ``module:Class``)
join the rows. :func:`level_correlations` correlates every row at the input, system and global
levels. The shelf's built-in sets (:mod:`sumeval.datasets.shelf`) are taken as they are: a set
without summaries (FRANK) is refused naming what applies to it; a part a set cannot answer by its
nature (Rank19: no global level; QAGS: no references, no system level) raises
:class:`~sumeval.studies.common.study_data.PartSkipped`, and the notebook skips it with the reason.

Thin: the rows are :mod:`sumeval.studies.common.baseline_rows`, the two parts
:mod:`sumeval.studies.common.baseline_tables` and the levels :mod:`sumeval.studies.common.baseline_levels`
(the rows and parts are shared with ``estime_layers``, ``annotator_impact`` and ``index_size_sweep``).
Every function returns tidy frames; the notebook only draws and shows them.
"""
from __future__ import annotations

import pandas as pd

from sumeval.studies.common.baseline_levels import (  # noqa: F401 (the notebook's mc.*)
    LEVEL_NAMES,
    all_levels,
    level_correlations,
)
from sumeval.studies.common.baseline_rows import (
    BERTSCORE_MODEL,
    TABLE1_DIAGNOSTIC_ROWS,
    TABLE1_ROWS,
    TABLE2_ROWS,
    bertscore_rows,
)
from sumeval.studies.common.baseline_tables import (  # noqa: F401 (the notebook's mc.part_a, mc.part_b)
    Part,
    part_a,
    part_b,
)

__all__ = ["PARAMETER_RANGES", "TABLE1_ROWS", "TABLE2_ROWS", "part_a", "part_b", "row_notes", "LEVEL_NAMES",
           "level_correlations", "all_levels"]

#: ranges of the notebook's numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"n_docs": (">=0", "0 means all; at most the data set's documents (checked when it is loaded)"),
                    "n_resamples": (">=0", "0 for no intervals")}


def row_notes(bertscore_model: str = BERTSCORE_MODEL, part: Part | None = None) -> pd.DataFrame:
    """How each row is computed here, in words (``part``: the rows of that part (a), and its
    measures with their signatures; default: the rows on SummEval)."""
    table1_rows_ = {**TABLE1_ROWS, **TABLE1_DIAGNOSTIC_ROWS, **bertscore_rows(bertscore_model)}
    if part is not None:
        table1_rows_ = {k: table1_rows_[k] for k in part.metrics if k in table1_rows_}
    items = [("Table 1", k, r.measure, r.note) for k, r in table1_rows_.items()]
    if part is not None:
        items += [("Table 1", k, "measures", part.signatures.get(k, "")) for k in part.measures]
    items += [("Table 2", k, r.measure, r.note) for k, r in TABLE2_ROWS.items()]
    return pd.DataFrame(items, columns=["table", "row", "measure", "how"])
