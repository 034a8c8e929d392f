"""QAGS-C and QAGS-X (Wang, Cho & Lewis, ACL 2020): every sentence of a summary judged by 3 crowd
workers - does the article support it (yes / no)?

Files (``qags/``, from W4ngatang/qags 47798e9b)::

    mturk_cnndm.jsonl   QAGS-C: 235 CNN/DM articles, one Bottom-Up summary each (3-4 sentences)
    mturk_xsum.jsonl    QAGS-X: 239 XSum articles, one BART summary each (1 sentence)

one line per article: ``article``, ``summary_sentences = [{sentence, responses = 3 x {worker_id,
response}}]``. The built-in data sets ``qags-c`` and ``qags-x``, one row per article:

* ``doc_id``: the files have no article ids, so ``sha1-<first 16 hex digits of the sha1 of the
  article's UTF-8 text>`` - stable, and unique in both files (checked);
* ``system``: ``bottom-up`` (QAGS-C) or ``bart`` (QAGS-X); ``text``: the article; ``summary``: the
  sentences joined by a space; no references;
* human column ``factuality``: the mean over the summary's sentences of the majority vote of its
  3 workers (yes = 1) - the paper's summary score (:func:`summary_factuality`; BARTScore's QAGS
  files hold the same numbers);
* annotator columns ``factuality/worker_1 .. /worker_3``: the share of sentences the worker at
  response position 1, 2, 3 said yes to. In both files every sentence of a summary was judged by
  the same 3 workers in the same order (checked), so a column is one person on a row - but
  different rows have different workers (162 in QAGS-C, 84 in QAGS-X): a column is a slot, not a
  person; ``workers`` names the row's three (anonymised integer ids, kept as text).

One system per article: only the global (summary) level applies (:attr:`Judgments.limits`).
"""
from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

from sumeval.datasets.loaders.build import expect, read_jsonl
from sumeval.errors import InputError

__all__ = ["FILES", "SYSTEMS", "summary_factuality", "load_qags", "qags_judgments", "qags_c_judgments",
           "qags_x_judgments"]

FILES = {"qags-c": "qags/mturk_cnndm.jsonl", "qags-x": "qags/mturk_xsum.jsonl"}
SYSTEMS = {"qags-c": "bottom-up", "qags-x": "bart"}
#: MANIFEST.md's counts: articles, sentences, judgements, yes, workers
COUNTS = {"qags-c": (235, 714, 2142, 1543, 162), "qags-x": (239, 239, 717, 348, 84)}
_ONE_SYSTEM = ("{name} has one summary (one system, {system}) per article: a correlation across "
               "systems needs several; use the global level (all summaries pooled)")


def summary_factuality(votes: np.ndarray) -> float:
    """QAGS's summary score (Wang, Cho & Lewis 2020, their human evaluation): a summary sentence is
    factual when the majority of its 3 annotators says so, and the summary's score is the mean over
    its sentences (the ``fact`` of BARTScore's QAGS files equals it on all 235 / 239 summaries,
    MANIFEST.md). ``[[1, 1, 0], [0, 0, 1], [1, 1, 1]] -> (1 + 0 + 1) / 3``.

    Args:
        votes: array (sentences, 3) of 1 (yes) and 0 (no).

    Returns:
        float in [0, 1].
    """
    v = np.asarray(votes, dtype=float)
    if v.ndim != 2 or v.shape[1] != 3 or v.shape[0] == 0:
        raise InputError(f"summary_factuality takes a (sentences, 3) array of votes, got shape {v.shape}")
    return float(np.mean(v.sum(axis=1) >= 2))


def load_qags(name: str) -> pd.DataFrame:
    """``qags-c`` or ``qags-x`` as one frame (see the module docstring): ``doc_id, system, summary,
    text, workers, factuality, factuality/worker_1..3``."""
    if name not in FILES:
        raise InputError(f"unknown QAGS set {name!r}; use {' or '.join(FILES)}")
    path, lines = read_jsonl(FILES[name], required=("article", "summary_sentences"))
    rows, n_sent, n_yes, workers = [], 0, 0, set()
    for lineno, rec in lines:
        sentences = rec["summary_sentences"]
        if not isinstance(sentences, list) or not sentences:
            raise InputError(f"{path}:{lineno}: summary_sentences is empty or not a list")
        votes, order = [], None
        for s in sentences:
            resp = s.get("responses") if isinstance(s, dict) else None
            if not isinstance(resp, list) or len(resp) != 3 or any(
                    r.get("response") not in ("yes", "no") or not isinstance(r.get("worker_id"), int) for r in resp):
                raise InputError(f"{path}:{lineno}: a sentence's responses {resp!r} are not 3 yes/no answers "
                                 "with integer worker ids")
            ids = tuple(r["worker_id"] for r in resp)
            if order is None:
                order = ids
            elif ids != order:
                raise InputError(f"{path}:{lineno}: the sentences were judged by workers {order} and {ids}; "
                                 "annotator columns by response position need the same workers in the same order")
            votes.append([r["response"] == "yes" for r in resp])
        v = np.asarray(votes, dtype=float)
        n_sent, n_yes = n_sent + len(v), n_yes + int(v.sum())
        workers.update(order)
        rows.append({"doc_id": "sha1-" + hashlib.sha1(rec["article"].encode("utf-8")).hexdigest()[:16],
                     "system": SYSTEMS[name], "summary": " ".join(s["sentence"] for s in sentences),
                     "text": rec["article"], "workers": ",".join(map(str, order)),
                     "factuality": summary_factuality(v),
                     **{f"factuality/worker_{k}": float(v[:, k - 1].mean()) for k in (1, 2, 3)}})
    frame = pd.DataFrame(rows)
    counts = (len(frame), n_sent, 3 * n_sent, n_yes, len(workers))
    for what, got, want in zip(("articles", "sentences", "judgements", "yes answers", "workers"), counts,
                               COUNTS[name]):
        expect(path, f"the number of {what}", got, want)
    expect(path, "the number of distinct article ids (sha1 of the article)", frame["doc_id"].nunique(), len(frame))
    return frame


def qags_judgments(name: str):
    """The built-in data set ``qags-c`` or ``qags-x`` (:func:`load_qags` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    why = _ONE_SYSTEM.format(name=name.upper(), system=SYSTEMS[name])
    return make_judgments(
        load_qags(name), name=name, relpaths=[FILES[name]], humans=("factuality",),
        annotators={"factuality": [f"factuality/worker_{k}" for k in (1, 2, 3)]},
        limits={"system": why, "input": why})


def qags_c_judgments():
    """The built-in data set ``qags-c`` (:func:`qags_judgments`)."""
    return qags_judgments("qags-c")


def qags_x_judgments():
    """The built-in data set ``qags-x`` (:func:`qags_judgments`)."""
    return qags_judgments("qags-x")
