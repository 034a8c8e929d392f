"""Meta-evaluation of measures on any judgments data: ``sumeval meta-eval`` and its Python API.

Example (scores all of SummEval with three measures, so not run as a doctest)::

    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures
    from sumeval import meta_eval
    j = load_judgments("summeval")
    specs = resolve_measures(["rouge-2", "bleu", "js-2"], j)
    result = meta_eval.meta_evaluate(j, specs, meta_eval.Settings(humans=("relevance",)))
    meta_eval.write_meta_evaluation(result, "out/")

:mod:`~sumeval.meta_eval.analysis` computes (correlations with intervals, tests between
measures, rankings with significance clusters, pairwise accuracy, binary detection);
:mod:`~sumeval.meta_eval.missing` checks the measures' names before any scoring and their
values before any test, and states the missing-value rule (pairwise-complete);
:mod:`~sumeval.meta_eval.annotators` adds the annotators as measures and the human ceiling;
:mod:`~sumeval.meta_eval.accuracy` computes pairwise accuracy (acc23, soft pairwise accuracy,
item-level acc23) and the ranking by SPA; :mod:`~sumeval.meta_eval.ranking` the rankings;
:mod:`~sumeval.meta_eval.output` writes the results into their folder (CSV files,
:mod:`~sumeval.meta_eval.tables`, :mod:`~sumeval.meta_eval.figures`,
:mod:`~sumeval.meta_eval.manifest`); the command line is :mod:`sumeval.cli.meta_eval`.
"""
from sumeval.meta_eval.names import LEVELS, TESTS

# the rest is imported when first asked for (PEP 562), so that the names above, which the command's parser
# reads on every `sumeval` start, come without pandas
_FROM = {**dict.fromkeys(("BOOTSTRAP_P", "META_METRICS", "MetaEvaluation", "Settings", "meta_evaluate",
                          "parse_test"), "analysis"),
         "check_measure_names": "missing", **dict.fromkeys(("check_out_dir", "out_lock", "write_meta_evaluation"),
                                                           "output"),
         **dict.fromkeys(("ranking_table", "table_coefficients", "table_notes"), "tables")}

__all__ = ["LEVELS", "TESTS", "BOOTSTRAP_P", "META_METRICS", "Settings", "MetaEvaluation", "meta_evaluate",
           "parse_test", "check_out_dir", "check_measure_names", "ranking_table", "table_coefficients", "table_notes",
           "out_lock", "write_meta_evaluation"]


def __getattr__(name: str):
    import importlib

    if name in _FROM:
        value = getattr(importlib.import_module(f"{__name__}.{_FROM[name]}"), name)
        globals()[name] = value
        return value
    try:  # a submodule, as `from sumeval import meta_eval; meta_eval.across` found it when this file imported all
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
