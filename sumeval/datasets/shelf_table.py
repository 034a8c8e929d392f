"""The shelf's table: every built-in judged data set, one row each, the one list of them.

Everything that names the built-in sets reads it: the loaders' registry (:func:`sumeval.datasets.shelf.load_builtin`,
:data:`sumeval.datasets.judgments.BUILTIN`, the names ``load_judgments`` and ``sumeval data`` take, and the names a
user's data set may not take), the lazy ``sumeval.datasets.load_*`` names (``exports``), ``--dataset shelf``
(:func:`sumeval.meta_eval.across.expand_datasets`) and its default human columns
(:data:`sumeval.meta_eval.across.DEFAULT_HUMANS`), and the readable names of tables and figures
(:data:`sumeval.display_names.NAMES`). The README's shelf table is tested against it (its names, in this order, and
its licence column).

A new set is one loader module in :mod:`sumeval.datasets.loaders` (a function taking no argument that returns the
set's :class:`~sumeval.datasets.judgments_model.Judgments`, built with :mod:`sumeval.datasets.loaders.build`) and one
row here; its files are registered, with their sha256, in :mod:`sumeval.datasets.recorded` like every data file.

Standard library only, and nothing of the package: whatever names a set may import this.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ShelfSet", "SHELF", "LOADERS"]

#: the package the rows' loader modules are in
LOADERS = "sumeval.datasets.loaders"


@dataclass(frozen=True)
class ShelfSet:
    """One built-in judged data set.

    name: its name (lower case) wherever a data set is named (``sumeval data show NAME``, ``meta-eval NAME``).
    title: its name in tables and figures (:func:`sumeval.display_names.display`).
    loader: ``"module:function"``, the module in :data:`LOADERS`; the function takes no argument and returns the
        set's Judgments.
    files: the registered file groups (:data:`sumeval.datasets.recorded.DATASETS`) it reads: ``sumeval data list``
        prints their licences and sources under the set.
    domain: what its texts are (``"news (CNN/DM)"``), as ``sumeval data list`` prints it.
    humans: the human columns ``meta-eval --dataset shelf`` and the shelf study use unless told otherwise.
    licence: its terms in short, as the README's shelf table gives them (from ``../shared/data/MANIFEST.md``;
        the full terms of each file group are in :mod:`sumeval.datasets.recorded`).
    exports: functions of its loader module offered as ``sumeval.datasets.<function>`` (imported lazily).
    column_titles: ``(column, title)`` of the human columns only this set has, for tables and figures.
    """

    name: str
    title: str
    loader: str
    files: tuple[str, ...]
    domain: str
    humans: tuple[str, ...]
    licence: str
    exports: tuple[str, ...] = ()
    column_titles: tuple[tuple[str, str], ...] = ()

    @property
    def module(self) -> str:
        """The loader module's name in :data:`LOADERS` (``"frank"``)."""
        return self.loader.partition(":")[0]

    @property
    def function(self) -> str:
        """The loader function's name (``"frank_judgments"``)."""
        return self.loader.partition(":")[2]


_QUALITIES = ("coherence", "consistency", "fluency", "relevance")

#: the built-in judged sets by name, in the order every listing shows them
SHELF: dict[str, ShelfSet] = {s.name: s for s in [
    ShelfSet("summeval", "SummEval", "summeval:summeval_judgments", ("summeval", "summeval_annotators"),
             "news (CNN/DM)", _QUALITIES, "Apache-2.0 / MIT; judges: research use",
             exports=("load_summeval_experts", "load_summeval_judges")),
    ShelfSet("realsumm", "REALSumm", "realsumm:realsumm_judgments", ("realsumm",), "news (CNN/DM)",
             ("litepyramid",), "CC BY 4.0"),
    ShelfSet("dialsummeval", "DialSummEval", "dialsummeval:dialsummeval_judgments", ("dialsummeval",),
             "dialogue (SAMSum)", _QUALITIES, "research use; SAMSum CC BY-NC-ND 4.0", exports=("load_dialsummeval",)),
    ShelfSet("frank", "FRANK", "frank:frank_judgments", ("frank",), "news (CNN/DM, XSum)", ("factuality",), "MIT",
             exports=("load_frank",)),
    ShelfSet("qags-c", "QAGS-C", "qags:qags_c_judgments", ("qags",), "news (CNN/DM)", ("factuality",),
             "research use", exports=("load_qags",)),
    ShelfSet("qags-x", "QAGS-X", "qags:qags_x_judgments", ("qags",), "news (XSum)", ("factuality",), "research use",
             exports=("load_qags",)),
    ShelfSet("xsumfaith", "XSumFaith", "xsumfaith:xsumfaith_judgments", ("xsumfaith",), "news (XSum)",
             ("faithful", "factual"), "CC BY 4.0", exports=("load_xsumfaith",),
             column_titles=(("no_hallucination", "No hallucination"), ("factual", "Factual"))),
    ShelfSet("newsroom", "Newsroom", "newsroom:newsroom_judgments", ("newsroom", "newsroom_raters"),
             "news (Newsroom)", ("coherence", "fluency", "informativeness", "relevance"),
             "Newsroom terms, research use", exports=("load_newsroom", "load_newsroom_raters")),
    ShelfSet("rank19", "Rank19", "rank19:rank19_judgments", ("rank19",), "news (CNN/DM) sentences", ("fact",),
             "CC BY-SA 4.0", exports=("load_rank19",)),
    ShelfSet("rose", "RoSE", "rose:rose_judgments", ("rose",), "news (CNN/DM)",
             ("prior", "ref_free", "ref_based", "acu"), "research use (BSD-3-Clause added later)",
             exports=("load_rose",),
             column_titles=(("prior", "Prior"), ("ref_free", "Ref-free"), ("ref_based", "Ref-based"))),
    ShelfSet("faithbench", "FaithBench", "faithbench:faithbench_judgments", ("faithbench",),
             "short passages, LLM summaries", ("consistent",),
             "CC BY-NC-SA 4.0 (non-commercial, share-alike)",
             exports=("load_faithbench", "load_faithbench_spans", "load_faithbench_unjoined"),
             column_titles=(("consistent", "Consistent"), ("worst_label", "Worst label"),
                            ("best_label", "Best label"))),
    ShelfSet("storysumm", "StorySumm", "storysumm:storysumm_judgments", ("storysumm",),
             "short stories, LLM summaries", ("faithful",), "MIT; stories' terms not stated",
             exports=("load_storysumm", "load_storysumm_sentences"), column_titles=(("faithful", "Faithful"),)),
    ShelfSet("summedits", "SummEdits", "summedits:summedits_judgments", ("summedits",),
             "8 domains (news, meetings, calls, emails, dialogue, science, podcasts, earnings calls)",
             ("consistency",), "Apache-2.0; source documents' own terms (SAMSum CC BY-NC-ND 4.0)",
             exports=("load_summedits", "load_summedits_published")),
    ShelfSet("summhay", "SummHay", "summhay:summhay_judgments", ("summhay",),
             "haystacks of conversations / news, LLM and RAG summaries", ("coverage",), "Apache-2.0",
             exports=("load_summhay", "load_summhay_insights"), column_titles=(("coverage", "Coverage"),)),
    ShelfSet("tofueval", "TofuEval", "tofueval:tofueval_judgments", ("tofueval",),
             "interviews, meetings (MediaSum, MeetingBank), topic-focused LLM summaries", ("consistent",),
             "MIT-0; evaluation only, not for training; MediaSum research use",
             exports=("load_tofueval", "load_tofueval_sentences"), column_titles=(("consistent", "Consistent"),)),
    ShelfSet("fables", "FABLES", "fables:fables_judgments", ("fables",), "novels (2023-24), LLM book summaries",
             ("faithful",), "MIT; keep out of training corpora (canary)",
             exports=("load_fables", "load_fables_claims"), column_titles=(("faithful", "Faithful"),)),
]}
