"""Newsroom's human evaluation (Grusky, Naaman & Artzi, NAACL 2018), as prepared by BARTScore
(Yuan, Neubig & Liu 2021): 60 articles x 7 systems, 4 qualities.

File (``newsroom/``, a JSONL conversion of neulab/BARTScore 248f511c SUM/Newsroom/data.pkl that
keeps every key and value)::

    newsroom_60x7.jsonl   doc_id, src, ref_summ, sys_summs{system: {sys_summ, scores{coherence,
                          fluency, informativeness, relevance}}}

The built-in data set ``newsroom`` (420 rows, documents in file order, systems sorted): ``summary``,
``text`` (the article) and ``references`` (the Newsroom summary), all tokenised as BARTScore has
them; human columns ``coherence, fluency, informativeness, relevance``: each the mean of 3 raters
on 1-5 (multiples of 1/3; the individual ratings are not in the release, so no annotator columns).
"""
from __future__ import annotations

import pandas as pd

from sumeval.datasets.loaders.build import bartscore_records, expect

__all__ = ["DATA_FILE", "SYSTEMS", "QUALITIES", "load_newsroom", "newsroom_judgments"]

DATA_FILE = "newsroom/newsroom_60x7.jsonl"
SYSTEMS: tuple[str, ...] = ("abstractive", "fragments", "lede3", "pointer_c", "pointer_n", "pointer_s", "textrank")
QUALITIES: tuple[str, ...] = ("coherence", "fluency", "informativeness", "relevance")
N_DOCS = 60


def load_newsroom() -> pd.DataFrame:
    """Newsroom as one frame: ``doc_id, system, summary, text, references``, the 4 qualities."""
    path, records = bartscore_records(DATA_FILE, SYSTEMS, QUALITIES)
    expect(path, "the number of articles", len(records), N_DOCS)
    rows = [{"doc_id": r["doc_id"], "system": s, "summary": r["sys_summs"][s]["sys_summ"], "text": r["src"],
             "references": [r["ref_summ"]], **{q: float(r["sys_summs"][s]["scores"][q]) for q in QUALITIES}}
            for r in records for s in SYSTEMS]
    return pd.DataFrame(rows)


def newsroom_judgments():
    """The built-in data set ``newsroom`` (:func:`load_newsroom` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    return make_judgments(load_newsroom(), name="newsroom", relpaths=[DATA_FILE], humans=QUALITIES)
