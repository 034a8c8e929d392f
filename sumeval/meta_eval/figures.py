"""The figures of a meta-evaluation (:mod:`sumeval.plots.meta_eval`), saved as PDF and PNG.

Per coefficient: ``correlations_<c>`` (each measure's correlation with its bootstrap interval; the
annotator rows and the human ceiling as grey diamonds under the measures), and where it is ranked
``ranking_<c>`` (the clusters) and ``pvalues_<c>`` (the tests). With soft pairwise accuracy:
``spa`` (its values and intervals), and with ``--meta-metric spa`` ``ranking_spa`` and ``pvalues_spa``.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from sumeval.meta_eval.accuracy import SPA
from sumeval.meta_eval.tables import table_coefficients

__all__ = ["draw"]


def _spa_intervals(result) -> pd.DataFrame:
    """``pairwise_accuracy.csv``'s SPA rows in the shape of ``correlations.csv`` (value and interval)."""
    acc = result.pairwise_accuracy
    sub = acc[(acc["level"] == "system") & acc["spa"].notna()]
    return pd.DataFrame({"measure": sub["measure"], "human": sub["human"], "level": "system", "coefficient": SPA,
                         "value": sub["spa"].astype(float), "ci_low": sub["spa_ci_low"].astype(float),
                         "ci_high": sub["spa_ci_high"].astype(float), "role": sub["role"]})


def draw(result, folder: Path) -> None:
    """Draw and save every figure of ``result`` into ``folder`` (module docstring). Each figure is
    drawn and saved in the house style (:mod:`sumeval.plots.style`); the caller's matplotlib
    settings are left as they were."""
    import matplotlib.pyplot as plt

    from sumeval import figures
    from sumeval.plots import meta_eval as mplots

    s = result.settings
    humans = list(s.humans)
    order = result.labels + result.annotators
    for coef in table_coefficients(result):
        spa = coef == SPA
        levels = ["system"] if spa else list(s.levels)
        how = {"test": "spa-permutation" if spa else s.test, "correction": s.correction, "alpha": s.alpha}
        ranked = ("spa" if spa else "correlation") in s.meta_metric
        ranking = result.ranking[result.ranking["coefficient"] == coef] if ranked else None
        values = _spa_intervals(result) if spa else result.correlations
        drawn = [("spa" if spa else f"correlations_{coef}",
                  mplots.correlation_intervals(values, coefficient=coef, measure_order=order, human_order=humans,
                                               level_order=levels, ranking=ranking, **how,
                                               title=("Soft pairwise accuracy (SPA) with the human scores, "
                                                      "bootstrap intervals over items") if spa else None)[0])]
        if ranked:
            drawn.append((f"ranking_{coef}", mplots.ranking_grid(ranking, coefficient=coef, human_order=humans,
                                                                 level_order=levels, **how)[0]))
        tests = result.pairwise[result.pairwise["coefficient"] == coef] if len(result.pairwise) else result.pairwise
        if ranked and len(tests) and tests["p_adjusted"].notna().any():  # a grid of pairs none of them tested: none
            drawn.append((f"pvalues_{coef}", mplots.pvalue_grid(tests, coefficient=coef, measure_order=result.labels,
                                                                human_order=humans, level_order=levels,
                                                                alpha=s.alpha, ranking=ranking)[0]))
        for name, fig in drawn:
            figures.save(fig, "", name, folder=folder)
            plt.close(fig)
