"""Rank19 (Falke et al., ACL 2019), as prepared by BARTScore (Yuan, Neubig & Liu 2021): 373 CNN/DM
article sentences, each with a correct and an incorrect generated summary sentence.

File (``rank19/``, a JSONL conversion of neulab/BARTScore 248f511c SUM/Rank19/data.pkl that keeps
every key and value; the 373 pairs equal Falke et al.'s val_sentence_pairs release)::

    rank19_373.jsonl   doc_id (0-372), src, ref_summ (= src), sys_summs{correct | incorrect:
                       {sys_summ, scores{fact: 1 | 0}}}

The built-in data set ``rank19`` (746 rows, documents in file order, ``correct`` then
``incorrect``): ``text`` is the article sentence; ``summary`` the generated sentence; human column
``fact`` (1 correct, 0 incorrect). ``ref_summ`` equals the article sentence, which is no reference
summary, so there are no ``references``. In 3 pairs the two sentences are the same text, so every
measure ties on them.

A pairwise set: a measure is judged by how often it scores the correct sentence above the
incorrect one (ranking accuracy). ``correct`` and ``incorrect`` are labels, not systems, so the
system level does not apply, nor does the global level (it would pool sentences of different
articles); the input level compares the two sentences of each pair (:attr:`Judgments.limits`).
"""
from __future__ import annotations

import pandas as pd

from sumeval.datasets.loaders.build import bartscore_records, expect

__all__ = ["DATA_FILE", "SYSTEMS", "PAIRWISE_ONLY", "load_rank19", "rank19_judgments"]

DATA_FILE = "rank19/rank19_373.jsonl"
SYSTEMS: tuple[str, ...] = ("correct", "incorrect")
N_PAIRS = 373
PAIRWISE_ONLY = ("Rank19 is a pairwise set: each article sentence has one correct and one incorrect summary "
                 "sentence, and a measure is judged by how often it scores the correct one higher (ranking "
                 "accuracy); 'correct' and 'incorrect' are labels, not systems")


def load_rank19() -> pd.DataFrame:
    """Rank19 as one frame: ``doc_id, system, summary, text, fact`` (746 rows)."""
    path, records = bartscore_records(DATA_FILE, SYSTEMS, ("fact",))
    expect(path, "the number of pairs", len(records), N_PAIRS)
    labels = [(r["sys_summs"]["correct"]["scores"]["fact"], r["sys_summs"]["incorrect"]["scores"]["fact"])
              for r in records]
    expect(path, "the pairs whose labels are not (correct 1, incorrect 0)", sum(x != (1, 0) for x in labels), 0)
    expect(path, "the pairs whose ref_summ differs from src", sum(r["ref_summ"] != r["src"] for r in records), 0)
    rows = [{"doc_id": r["doc_id"], "system": s, "summary": r["sys_summs"][s]["sys_summ"], "text": r["src"],
             "fact": float(r["sys_summs"][s]["scores"]["fact"])} for r in records for s in SYSTEMS]
    return pd.DataFrame(rows)


def rank19_judgments():
    """The built-in data set ``rank19`` (:func:`load_rank19` with its column roles and limits)."""
    from sumeval.datasets.loaders.build import make_judgments

    limits = {"system": PAIRWISE_ONLY + ", so the system level does not apply; use the input level (each pair)",
              "global": PAIRWISE_ONLY + "; pooling sentences of different articles is not its question: use "
                                        "the input level (each pair)"}
    return make_judgments(load_rank19(), name="rank19", relpaths=[DATA_FILE], humans=("fact",), limits=limits)
