"""Data sets as tidy pandas DataFrames, and the registry of the files they come from.

Loaders (imported lazily: ``import sumeval.datasets`` reads no data and imports no pandas):

==========================================  ====================================================
``load_summeval(n_docs=None)``              SummEval, one row per (document, system): 1,600 rows
``load_summeval_documents(n_docs=None)``    the 100 SummEval articles and their 11 references
``load_summac_consistency_experts()``       100 SummEval pairs x 3 expert consistency scores
``load_realsumm(n_docs=None)``              REALSumm, one row per (document, system): 2,500 rows
``load_realsumm_documents(n_docs=None)``    the 100 REALSumm articles and references
``load_realsumm_scus()``                    the SCUs of every REALSumm article
``load_realsumm_scu_judgments()``           crowd SCU judgments, one row per (pair, worker, SCU)
``litepyramid_from_judgments(j, workers)``  LitePyramid recall recomputed from judgments
``load_summeval_experts()``                 SummEval's 3 experts x 4 qualities, one row per pair
``load_summeval_judges()``                  6 LLM judges x 4 qualities on the SummEval pairs
``load_dialsummeval()``                     DialSummEval: 1,400 rows, 3 annotators, 32 metric columns
``load_frank()``                            FRANK: 2,246 rows, factuality, error types, 15 measures
``load_qags(name)``                         QAGS-C (``"qags-c"``) or QAGS-X (``"qags-x"``)
``load_xsumfaith()``                        XSumFaith: 2,500 rows, workers' factuality and spans
``load_newsroom()``                         Newsroom: 420 rows, 4 qualities
``load_newsroom_raters()``                  Newsroom's 3 raters x 4 qualities (Judge-Bench), one row per pair
``load_rank19()``                           Rank19: 373 correct / incorrect sentence pairs
``load_rose()``                             RoSE's protocol slice: 1,200 rows, 4 protocols
``load_faithbench()``                       FaithBench: 750 LLM summaries, labels, 8 detectors (CC BY-NC-SA)
``load_faithbench_spans()``                 FaithBench's 2,189 hallucinated spans, one row each
``load_faithbench_unjoined()``              the 50 rows of FaithBench.csv in no released batch
``load_storysumm()``                        StorySumm: 96 LLM story summaries, labels, 11 evaluator columns
``load_storysumm_sentences()``              StorySumm's 579 summary sentences with their labels
``load_summedits()``                        SummEdits: 4,681 seed / edited summaries, 8 domains, label 1/0
``load_summedits_published()``              SummEdits' README table: balanced accuracy of 19 models per domain
``load_summhay()``                          SummHay: 200 LLM / RAG summaries, coverage, 6 evaluator columns
``load_summhay_insights()``                 SummHay's 1,419 (summary, insight) coverage labels
``load_tofueval()``                         TofuEval: 1,777 topic-focused LLM summaries, consistent (no sources)
``load_tofueval_sentences()``               TofuEval's 4,946 summary sentences with labels and explanations
``load_fables()``                           FABLES: 130 LLM book summaries, share of faithful claims (no books)
``load_fables_claims()``                    FABLES's 3,158 claims with their labels, evidence and reasons
``load_builtin(name)``                      any built-in judged set as a ``Judgments`` (the shelf)
==========================================  ====================================================

The judged sets are the shelf: each is a :class:`~sumeval.datasets.judgments_model.Judgments` by
name (``load_judgments("frank")``), one row of :data:`sumeval.datasets.shelf_table.SHELF` and one
loader module in :mod:`sumeval.datasets.loaders` (whose ``load_*`` functions above are lazy names
here: each row's ``exports``); :mod:`sumeval.datasets.shelf` loads and describes them.

The judgments shape: :mod:`~sumeval.datasets.judgments_model` (the columns' roles, the levels),
:mod:`~sumeval.datasets.judgment_files` (reading, checking and writing files),
:mod:`~sumeval.datasets.user_datasets` (a user's sets by name) and
:mod:`~sumeval.datasets.judgments` (loading any set by name or path).

Files are found and verified by :mod:`sumeval.datasets.registry` (``locate``, ``datasets``,
``files``, ``info``, ``verify_all``, ``checksums``); see ``data/README.md`` for where the data comes from.
"""
from __future__ import annotations

import importlib
from typing import Any

from sumeval.datasets.recorded import DATASETS  # light: standard library only
from sumeval.datasets.registry import (  # light: standard library only
    checksums,
    datasets,
    files,
    info,
    locate,
    verify_all,
)
from sumeval.datasets.shelf_table import SHELF as _SHELF  # light: standard library only

#: lazy public name -> its module under sumeval.datasets: the readers of SummEval's and REALSumm's files
_READERS = {
    "load_summeval": "summeval",
    "load_summeval_documents": "summeval",
    "load_summac_consistency_experts": "summeval",
    "load_realsumm": "realsumm",
    "load_realsumm_documents": "realsumm",
    "load_realsumm_scus": "realsumm",
    "load_realsumm_scu_judgments": "realsumm",
    "litepyramid_from_judgments": "realsumm",
    "tags_to_sentences": "realsumm",
}


def _lazy() -> dict[str, str]:
    """Every lazy public name -> its module: the readers, what each shelf row's loader module exports
    (read from the table when asked, so a row added after this package was imported counts), ``load_builtin``."""
    return {**_READERS, **{name: f"loaders.{s.module}" for s in _SHELF.values() for name in s.exports},
            "load_builtin": "shelf"}


__all__ = ["DATASETS", "checksums", "datasets", "files", "info", "locate", "verify_all", *_lazy()]


def __getattr__(name: str) -> Any:
    module = _lazy().get(name)
    if module is None:
        raise AttributeError(f"module 'sumeval.datasets' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"sumeval.datasets.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_lazy()))
