"""REALSumm (Bhandari et al. 2020): 100 CNN/DM test articles x 25 systems, LitePyramid recall.

Files (see :mod:`sumeval.datasets.registry` for checksums and sources)::

    realsumm/realsumm_100x25.jsonl                   documents, references, 25 summaries each
    realsumm/raw/SCUs_list.csv                       16 SCU slots per article (BLANK = unused)
    realsumm/raw/SCU_annotations/SCU_rating_results_{abs,ext}_systems/*.csv
                                                     crowd judgments, one CSV per system

Texts
-----
Summaries and references carry sentence tags, ``<t> sentence one . </t> <t> two . </t>``;
:func:`tags_to_sentences` turns them into a list of sentences (a final ``<t>`` left unclosed, as
in 4 truncated summaries, still yields its sentence). ``summary`` joins the sentences with one
space. Summaries are PTB-tokenized, mostly lower-cased (bart_out is true-cased).
``text`` is the source article (``src``: tokenized, sentence-cased); ``text_tokenized`` is
``src_tokenized`` without its tag (tokenized, lower-cased, the form of most summaries).

LitePyramid and the crowd judgments
-----------------------------------
Each article has up to 16 summary content units (SCUs) written from its reference. Each summary
was shown with its article's SCUs to 3 crowd workers (4 for about 10% of the summaries); each
marked every SCU present (``p``) or not (``n``). The CSVs carry no worker id, so ``worker``
numbers the judgments of one summary in file order (0, 1, 2[, 3]).

The stored ``litepyramid_recall`` is reproduced exactly by a **majority vote**: an SCU counts as
present when more than half of the summary's workers marked it present (a 2-2 tie with 4 workers
counts as absent), and the recall is the fraction of the article's SCUs present. Measured over
the 2,400 pairs outside abs/bart_out: 2,400 exact matches, Pearson 1.0 (over all 2,500: 2,425
exact, Pearson 0.971, the difference being abs/bart_out, below). The alternative, the mean over
workers of each worker's fraction, matches 774 of 2,400 exactly (Pearson 0.958); a tie counted
as present ("at least half") matches fewer. See :func:`litepyramid_from_judgments`.

Known defects of the public release
-----------------------------------
* **abs/bart_out is a copy of ext/bart_out** in REALSumm's score pickles (and so in the JSONL):
  same 100 summaries, same scores (neulab/REALSumm issue #3; SacreROUGE keeps the extractive one
  only). The real abstractive BART summaries were judged (``SCU_rating_results_abs_systems/
  bart_out_Batch_crowd_3.csv``) but their texts and scores are not in the JSONL. The judgments
  frame keeps them as ``abs/bart_out``, so LitePyramid recomputed from them differs from
  :func:`load_realsumm`'s abs/bart_out row (25 of 100 equal). ``load_realsumm(
  drop_duplicate_bart=True)`` leaves the copy out (2,400 rows, 24 systems).
* banditsumm_out and neusumm_out are extractive systems (``ext/`` in the JSONL) whose judgment
  CSVs lie in the ``abs_systems`` folder; they are mapped to ``ext/``. (Checked: their
  recomputed LitePyramid equals the stored ``ext/`` values.)
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd

from sumeval.datasets.registry import locate
from sumeval.errors import InputError
from sumeval.text import SENTENCE_TAG

__all__ = [
    "DATA_FILE",
    "SCU_LIST_FILE",
    "SCU_ANNOTATIONS_DIR",
    "SCU_ANNOTATION_FILES",
    "DUPLICATE_SYSTEMS",
    "tags_to_sentences",
    "load_realsumm",
    "load_realsumm_documents",
    "load_realsumm_scus",
    "load_realsumm_scu_judgments",
    "litepyramid_from_judgments",
    "realsumm_frame",
]

DATA_FILE = "realsumm/realsumm_100x25.jsonl"
SCU_LIST_FILE = "realsumm/raw/SCUs_list.csv"
SCU_ANNOTATIONS_DIR = "realsumm/raw/SCU_annotations"
N_DOCS = 100
N_SYSTEMS = 25
N_SCU_SLOTS = 16

#: Judgment CSV (relative to :data:`SCU_ANNOTATIONS_DIR`) -> system name in :func:`load_realsumm`.
#: The folder decides abs/ext for bart_out (both exist); banditsumm_out and neusumm_out are
#: extractive systems filed under abs_systems.
SCU_ANNOTATION_FILES: dict[str, str] = {
    "SCU_rating_results_abs_systems/banditsumm_out.csv": "ext/banditsumm_out",
    "SCU_rating_results_abs_systems/bart_out_Batch_crowd_3.csv": "abs/bart_out",
    "SCU_rating_results_abs_systems/bottom_up_out_Batch_crowd_3.csv": "abs/bottom_up_out",
    "SCU_rating_results_abs_systems/fast_abs_rl_out_rerank_Batch_crowd_3.csv": "abs/fast_abs_rl_out_rerank",
    "SCU_rating_results_abs_systems/neusumm_out_Batch_crowd_3.csv": "ext/neusumm_out",
    "SCU_rating_results_abs_systems/presumm_out_abs_Batch_crowd_3.csv": "abs/presumm_out_abs",
    "SCU_rating_results_abs_systems/presumm_out_ext_abs_Batch_crowd_3.csv": "abs/presumm_out_ext_abs",
    "SCU_rating_results_abs_systems/presumm_out_trans_abs_Batch_crowd_3.csv": "abs/presumm_out_trans_abs",
    "SCU_rating_results_abs_systems/ptr_generator_out_pointer_gen_cov_Batch_crowd_3.csv":
        "abs/ptr_generator_out_pointer_gen_cov",
    "SCU_rating_results_abs_systems/semsim_out_Batch_crowd_3.csv": "abs/semsim_out",
    "SCU_rating_results_abs_systems/t5_out_11B_Batch_crowd_3.csv": "abs/t5_out_11B",
    "SCU_rating_results_abs_systems/t5_out_base_Batch_crowd_3.csv": "abs/t5_out_base",
    "SCU_rating_results_abs_systems/t5_out_large_Batch_crowd_3.csv": "abs/t5_out_large",
    "SCU_rating_results_abs_systems/two_stage_rl_out_Batch_crowd_3.csv": "abs/two_stage_rl_out",
    "SCU_rating_results_abs_systems/unilm_out_v1_Batch_crowd_3.csv": "abs/unilm_out_v1",
    "SCU_rating_results_abs_systems/unilm_out_v2_Batch_crowd_3.csv": "abs/unilm_out_v2",
    "SCU_rating_results_ext_systems/bart_out.csv": "ext/bart_out",
    "SCU_rating_results_ext_systems/heter_graph_out.csv": "ext/heter_graph_out",
    "SCU_rating_results_ext_systems/matchsumm_out.csv": "ext/matchsumm_out",
    "SCU_rating_results_ext_systems/pnbert_out_bert_lstm_pn.csv": "ext/pnbert_out_bert_lstm_pn",
    "SCU_rating_results_ext_systems/pnbert_out_bert_lstm_pn_rl.csv": "ext/pnbert_out_bert_lstm_pn_rl",
    "SCU_rating_results_ext_systems/pnbert_out_bert_tf_pn.csv": "ext/pnbert_out_bert_tf_pn",
    "SCU_rating_results_ext_systems/pnbert_out_bert_tf_sl.csv": "ext/pnbert_out_bert_tf_sl",
    "SCU_rating_results_ext_systems/pnbert_out_lstm_pn_rl.csv": "ext/pnbert_out_lstm_pn_rl",
    "SCU_rating_results_ext_systems/refresh_out.csv": "ext/refresh_out",
}

#: Systems whose JSONL entry is a verbatim copy of another system's (upstream defect).
DUPLICATE_SYSTEMS: dict[str, str] = {"abs/bart_out": "ext/bart_out"}

_SPACE = re.compile(r"\s+")


def tags_to_sentences(text: str) -> list[str]:
    """Sentences of a ``<t> ... </t>``-tagged text, whitespace collapsed, empty ones dropped.

    Text outside tags is kept as its own sentence (so nothing is lost), a final unclosed
    ``<t>`` still yields its sentence, and an untagged text is one sentence.

    >>> tags_to_sentences("<t> a b . </t>  <t> c  d . </t>")
    ['a b .', 'c d .']
    >>> tags_to_sentences("<t> a . </t> <t> cut off")
    ['a .', 'cut off']
    """
    parts = (_SPACE.sub(" ", p).strip() for p in SENTENCE_TAG.split(text))
    return [p for p in parts if p]


def _check_n_docs(n_docs: int | None) -> None:
    if n_docs is not None and (isinstance(n_docs, bool) or not isinstance(n_docs, int) or not 1 <= n_docs <= N_DOCS):
        raise InputError(f"n_docs must be an integer in 1..{N_DOCS} or None (all {N_DOCS}), got {n_docs!r}; "
                         f"the data set has {N_DOCS} documents")


def _read_records() -> tuple[Path, list[dict]]:
    path = locate(DATA_FILE)
    required = ("doc_id", "cnndm_test_index", "scu_event_id", "src", "src_tokenized", "ref_summ",
                "ref_summ_detok", "system_summaries")
    from sumeval.jsonl import iter_jsonl

    recs = []
    for lineno, rec in iter_jsonl(path, required=required, fix="replace the file with the registered copy"):
        if len(rec["system_summaries"]) != N_SYSTEMS:
            raise InputError(f"{path}:{lineno}: doc {rec['doc_id']!r} has "
                             f"{len(rec['system_summaries'])} systems, expected {N_SYSTEMS}")
        recs.append(rec)
    if len(recs) != N_DOCS:
        raise InputError(f"{path}: {len(recs)} documents, expected {N_DOCS}; "
                         "replace the file with the registered copy")
    return path, recs


def load_realsumm_documents(n_docs: int | None = None) -> pd.DataFrame:
    """The REALSumm articles, one row per article, in file order (100 rows).

    Returns:
        pandas.DataFrame: ``doc_id`` (int64, 0-99), ``cnndm_test_index`` (int64, line in the CNN/DM test set),
            ``scu_event_id`` (str, e.g. ``"cnndm1017"``, the id used by the raw SCU files), ``text`` (str, tokenized,
            sentence-cased), ``text_tokenized`` (str, tokenized, lower-cased), ``references`` (list of one str, tags
            turned into sentences joined by a space), ``reference_sentences`` (list of str), ``reference_detok`` (str,
            untokenized).
    """
    _check_n_docs(n_docs)
    _, recs = _read_records()
    if n_docs is not None:
        recs = recs[:n_docs]
    ref_sents = [tags_to_sentences(r["ref_summ"]) for r in recs]
    return pd.DataFrame({
        "doc_id": np.array([r["doc_id"] for r in recs], dtype=np.int64),
        "cnndm_test_index": np.array([r["cnndm_test_index"] for r in recs], dtype=np.int64),
        "scu_event_id": [r["scu_event_id"] for r in recs],
        "text": [r["src"] for r in recs],
        "text_tokenized": [" ".join(tags_to_sentences(r["src_tokenized"])) for r in recs],
        "references": [[" ".join(s)] for s in ref_sents],
        "reference_sentences": ref_sents,
        "reference_detok": [r["ref_summ_detok"] for r in recs],
    })


def load_realsumm(n_docs: int | None = None, drop_duplicate_bart: bool = False) -> pd.DataFrame:
    """REALSumm, one row per (document, system): 2,500 rows (100 documents x 25 systems).

    Args:
        n_docs: Keep the first ``n_docs`` documents in file order (for smoke runs).
        drop_duplicate_bart: Leave out ``abs/bart_out``, a verbatim copy of ``ext/bart_out`` in the public
            release (see the module docstring). Default False: the 25 systems as published and as used by the papers
            that report on REALSumm.

    Returns:
        pandas.DataFrame: ``doc_id`` (int64, 0-99), ``system`` (str, ``"abs/bart_out"``, ``"ext/refresh_out"``...),
            ``summary`` (str, sentences joined by a space), ``summary_sentences`` (list of str), ``text`` (str, the
            source article, tokenized), ``text_tokenized`` (str, tokenized, lower-cased), ``references`` (list of one
            str: the reference, tags turned into sentences), ``litepyramid_recall`` (float64, 0-1). Documents in file
            order, systems in sorted order within a document.
    """
    _check_n_docs(n_docs)
    path, recs = _read_records()
    if n_docs is not None:
        recs = recs[:n_docs]
    rows = []
    for rec in recs:
        ref = " ".join(tags_to_sentences(rec["ref_summ"]))
        text_tok = " ".join(tags_to_sentences(rec["src_tokenized"]))
        for system in sorted(rec["system_summaries"]):
            if drop_duplicate_bart and system in DUPLICATE_SYSTEMS:
                continue
            entry = rec["system_summaries"][system]
            try:
                recall = float(entry["scores"]["litepyramid_recall"])
                sents = tags_to_sentences(entry["summary"])
            except (KeyError, TypeError):
                raise InputError(f"{path}: doc {rec['doc_id']}, system {system!r}: needs 'summary' "
                                 "and scores.litepyramid_recall") from None
            rows.append((rec["doc_id"], system, " ".join(sents), sents, rec["src"], text_tok,
                         [ref], recall))
    frame = pd.DataFrame(rows, columns=["doc_id", "system", "summary", "summary_sentences", "text",
                                        "text_tokenized", "references", "litepyramid_recall"])
    frame["doc_id"] = frame["doc_id"].astype(np.int64)
    return frame


def load_realsumm_scus() -> pd.DataFrame:
    """The SCUs of every article (BLANK slots left out).

    Returns:
        pandas.DataFrame: ``doc_id`` (int64, as in :func:`load_realsumm`), ``scu_id`` (int64, REALSumm's global
            ``questionId``), ``scu_text`` (str). About 1,056 rows (1 to 16 SCUs per article).
    """
    path = locate(SCU_LIST_FILE)
    docs = load_realsumm_documents()
    event_to_doc = dict(zip(docs["scu_event_id"], docs["doc_id"]))
    scus = pd.read_csv(path, dtype=str, keep_default_na=False)
    for col in ("eventId", "questionId", "questionText"):
        if col not in scus.columns:
            raise InputError(f"{path}: column {col!r} missing; found {list(scus.columns)}")
    unknown = sorted(set(scus["eventId"]) - set(event_to_doc))
    if unknown:
        raise InputError(f"{path}: eventId(s) {unknown[:5]} are not articles of {DATA_FILE}")
    scus = scus[scus["questionText"] != "BLANK"]
    return pd.DataFrame({
        "doc_id": scus["eventId"].map(event_to_doc).astype(np.int64).to_numpy(),
        "scu_id": scus["questionId"].astype(np.int64).to_numpy(),
        "scu_text": scus["questionText"].to_numpy(),
    })


def load_realsumm_scu_judgments() -> pd.DataFrame:
    """The crowd workers' SCU judgments, one row per (document, system, worker, SCU).

    Read from every CSV of :data:`SCU_ANNOTATION_FILES`. BLANK SCU slots (padding to 16,
    always answered ``n``) are left out; every judgment row must judge every SCU of its article.

    Returns:
        pandas.DataFrame: ``doc_id`` (int64, as in :func:`load_realsumm`: the CSV's ``Input.eventId`` mapped via
            ``scu_event_id``), ``system`` (str, as in :func:`load_realsumm`), ``worker`` (int64, the judgment's index
            within its (document, system) in file order: 0-2, or 0-3; there is no worker id in the CSVs, so the same
            index is not the same person across summaries), ``scu_id`` (int64, as in :func:`load_realsumm_scus`),
            ``present`` (bool). About 81,600 rows: 2,500 summaries x 3.1 workers x 10.6 SCUs.

    Notes:
        The ``abs/bart_out`` judgments are of the real abstractive BART summaries, which the JSONL
        does not hold (it repeats ``ext/bart_out`` there); see the module docstring.
    """
    docs = load_realsumm_documents()
    event_to_doc = dict(zip(docs["scu_event_id"], docs["doc_id"]))
    scus = load_realsumm_scus()
    scu_text = dict(zip(scus["scu_id"], scus["scu_text"]))
    scu_doc = dict(zip(scus["scu_id"], scus["doc_id"]))
    n_scus = scus.groupby("doc_id").size().to_dict()
    folder = locate(SCU_ANNOTATIONS_DIR)  # verifies every registered CSV below it
    frames = []
    for rel, system in SCU_ANNOTATION_FILES.items():
        path = folder / rel
        frames.append(_read_judgment_csv(path, system, event_to_doc, scu_text, scu_doc, n_scus))
    found = {p.relative_to(folder).as_posix() for p in folder.glob("*/*.csv")}
    extra = sorted(found - set(SCU_ANNOTATION_FILES))
    if extra:
        raise InputError(f"{folder}: judgment file(s) {extra} are not mapped to a system; add them "
                         "to SCU_ANNOTATION_FILES in sumeval/datasets/realsumm.py")
    out = pd.concat(frames, ignore_index=True)
    pairs = out.groupby(["doc_id", "system"]).size()
    if len(pairs) != N_DOCS * N_SYSTEMS:
        raise InputError(f"{folder}: judgments cover {len(pairs)} (document, system) pairs, "
                         f"expected {N_DOCS * N_SYSTEMS}")
    return out


def _read_judgment_csv(path: Path, system: str, event_to_doc: dict[str, int],
                       scu_text: dict[int, str], scu_doc: dict[int, int],
                       n_scus: dict[int, int]) -> pd.DataFrame:
    """Long judgments of one system's CSV (see :func:`load_realsumm_scu_judgments`)."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    needed = ["Input.eventId", "Input.qIdList"] + [
        c for k in range(1, N_SCU_SLOTS + 1) for c in (f"Input.statement_{k}", f"Answer.S{k}Answer")]
    missing = [c for c in needed if c not in table.columns]
    if missing:
        raise InputError(f"{path}: column(s) {missing[:4]} missing; a REALSumm judgment CSV has "
                         f"Input.eventId, Input.qIdList, Input.statement_1-16, Answer.S1-16Answer")
    doc_ids, workers, scu_ids, present = [], [], [], []
    count: dict[int, int] = {}
    for i, rec in enumerate(table.to_dict("records"), 2):  # line 1 is the header
        event = rec["Input.eventId"]
        if event not in event_to_doc:
            raise InputError(f"{path}:{i}: Input.eventId {event!r} is not an article of {DATA_FILE}")
        doc = event_to_doc[event]
        try:
            qids = [int(q) for q in ast.literal_eval(rec["Input.qIdList"])]
        except (ValueError, SyntaxError):
            raise InputError(f"{path}:{i}: Input.qIdList {rec['Input.qIdList']!r:.80} is not a "
                             "list of SCU ids") from None
        if len(qids) != N_SCU_SLOTS:
            raise InputError(f"{path}:{i}: Input.qIdList has {len(qids)} ids, expected {N_SCU_SLOTS}")
        worker = count.get(doc, 0)
        count[doc] = worker + 1
        judged = 0
        for k, qid in enumerate(qids, 1):
            if rec[f"Input.statement_{k}"] == "BLANK":
                continue
            if scu_doc.get(qid) != doc or scu_text.get(qid) != rec[f"Input.statement_{k}"]:
                raise InputError(f"{path}:{i}: statement {k} (SCU {qid}) does not match the SCU "
                                 f"list of article {event!r} in {SCU_LIST_FILE}")
            answer = rec[f"Answer.S{k}Answer"].strip().lower()
            if answer not in ("p", "n"):
                raise InputError(f"{path}:{i}: Answer.S{k}Answer is {answer!r}, expected 'p' "
                                 "(present) or 'n' (not present)")
            doc_ids.append(doc)
            workers.append(worker)
            scu_ids.append(qid)
            present.append(answer == "p")
            judged += 1
        if judged != n_scus.get(doc, 0):
            raise InputError(f"{path}:{i}: judges {judged} SCUs of article {event!r}, which has "
                             f"{n_scus.get(doc, 0)}")
    return pd.DataFrame({
        "doc_id": np.array(doc_ids, dtype=np.int64),
        "system": system,
        "worker": np.array(workers, dtype=np.int64),
        "scu_id": np.array(scu_ids, dtype=np.int64),
        "present": np.array(present, dtype=bool),
    })


def litepyramid_from_judgments(judgments: pd.DataFrame,
                               workers: int | Iterable[int] | None = None,
                               rule: str = "majority") -> pd.DataFrame:
    """LitePyramid recall of every (document, system) from SCU judgments.

    With ``rule="majority"`` (REALSumm's definition; reproduces the stored
    ``litepyramid_recall`` exactly): an SCU is present when **more than half** of the selected
    workers judged it present (ties count as absent), and the recall is the number of present
    SCUs divided by the number of SCUs of the article. For example 3 workers on 4 SCUs with
    votes (3, 2, 1, 0) present give SCUs present (yes, yes, no, no) -> recall 2/4 = 0.5.
    ``rule="mean"``: the mean over workers of each worker's fraction of SCUs present
    (the same example, with workers marking 3, 2 and 1 SCUs: (3/4 + 2/4 + 1/4) / 3 = 0.5).

    Args:
        judgments: Columns ``doc_id, system, worker, scu_id, present`` (as from
            :func:`load_realsumm_scu_judgments`, or a subset of its rows).
        workers: None: all workers. An int ``k``: the first ``k`` workers of each
            summary (``worker < k``). An iterable: those worker indices.
        rule: ``"majority"`` or ``"mean"``, the recall rule (above).

    Returns:
        DataFrame: ``doc_id, system, litepyramid_recall`` (float64), ``n_workers`` (int64, workers used), ``n_scus``
            (int64), one row per (document, system) of ``judgments``, sorted. A pair whose selected workers are none
            (e.g. ``workers=[3]`` where only 3 judged) is kept with recall NaN and ``n_workers`` 0, never dropped.
    """
    need = {"doc_id", "system", "worker", "scu_id", "present"}
    missing = sorted(need - set(judgments.columns))
    if missing:
        raise InputError(f"judgments lack column(s) {missing}; pass the frame of "
                         "load_realsumm_scu_judgments() (or a subset of its rows)")
    if rule not in ("majority", "mean"):
        raise InputError(f"rule must be 'majority' or 'mean', got {rule!r}")
    keys = ["doc_id", "system"]
    pairs = judgments[keys].drop_duplicates()
    n_scus = judgments.groupby(keys)["scu_id"].nunique().rename("n_scus")
    sel = judgments
    if workers is not None:
        if isinstance(workers, (int, np.integer)) and not isinstance(workers, bool):
            if workers < 1:
                raise InputError(f"workers must be >= 1 when an int, got {workers!r}")
            sel = judgments[judgments["worker"] < int(workers)]
        else:
            chosen = [int(w) for w in workers]
            if not chosen:
                raise InputError("workers is an empty list; pass None for all workers")
            sel = judgments[judgments["worker"].isin(chosen)]
    present = sel["present"].astype(float)
    if rule == "majority":
        per_scu = present.groupby([sel["doc_id"], sel["system"], sel["scu_id"]]).mean()
        counted = (per_scu > 0.5).groupby(level=[0, 1]).sum().rename("n_present")
        result = pairs.join(counted, on=keys)
        result = result.join(n_scus, on=keys)
        result["litepyramid_recall"] = result["n_present"] / result["n_scus"]
    else:
        per_worker = present.groupby([sel["doc_id"], sel["system"], sel["worker"]]).sum()
        per_worker = per_worker / n_scus.reindex(per_worker.index.droplevel(2)).to_numpy()
        recall = per_worker.groupby(level=[0, 1]).mean().rename("litepyramid_recall")
        result = pairs.join(recall, on=keys).join(n_scus, on=keys)
    n_workers = sel.groupby(keys)["worker"].nunique().rename("n_workers")
    result = result.join(n_workers, on=keys)
    result["n_workers"] = result["n_workers"].fillna(0).astype(np.int64)
    result.loc[result["n_workers"] == 0, "litepyramid_recall"] = np.nan
    result["n_scus"] = result["n_scus"].astype(np.int64)
    result["litepyramid_recall"] = result["litepyramid_recall"].astype(np.float64)
    return (result[["doc_id", "system", "litepyramid_recall", "n_workers", "n_scus"]]
            .sort_values(keys).reset_index(drop=True))


def realsumm_frame() -> pd.DataFrame:
    """REALSumm as a judgments frame (2,500 rows, the order of :func:`load_realsumm`): ``doc_id,
    system, summary, text, text_tokenized, references, litepyramid``, with the summary and the one
    reference as one sentence per line."""
    pairs = load_realsumm().rename(columns={"litepyramid_recall": "litepyramid"})
    ref_sentences = load_realsumm_documents().set_index("doc_id")["reference_sentences"]
    pairs["summary"] = pairs["summary_sentences"].map("\n".join)
    pairs["references"] = pairs["doc_id"].map(lambda d: ["\n".join(ref_sentences[d])])
    return pairs[["doc_id", "system", "summary", "text", "text_tokenized", "references",
                  "litepyramid"]].reset_index(drop=True)
