"""XSumFaith (Maynez, Narayan, Bohnet & McDonald, ACL 2020): hallucinated spans and factuality of
500 XSum test summaries x 5 sources, judged by 3 workers each. No source articles.

Files (``xsumfaith/``, from google-research-datasets/xsum_hallucination_annotations 4abdbb2c)::

    hallucination_annotations_xsum_summaries.csv   one row per (summary, worker, span)
    factuality_annotations_xsum_summaries.csv      one row per (summary, worker): is_factual
    eval_scores_xsum_summaries.csv                 one row per summary: R1 .. Entailment, Faithful, Factual

The built-in data set ``xsumfaith``: the 2,500 summaries of the hallucination file (documents in
its order; systems BERTS2S, PtGen, TConvS2S, TranS2S, then ``reference``, the file's ``Gold``: the
XSum reference, judged like the systems):

* ``summary`` (the hallucination file's, with its ``\\'`` escapes undone); ``references``: the
  document's reference (its ``Gold`` summary), so reference-based measures run; no ``text``: the
  XSum articles are not part of the release, and a measure that reads them says so;
* human columns, each higher = better:

  - ``factuality``: the mean over the workers of ``is_factual`` (yes = 1, no = 0, NULL left out),
    with ``factuality/wid_0 .. /wid_2`` per worker; only the 1,869 summaries that have a
    hallucinated span were asked, so it is NaN on the other 631 (the references included) and on
    the 11 whose answers are all NULL: 1,858 values;
  - ``no_hallucination``: the share of the workers who marked no hallucinated span (a worker's
    rows are all ``NULL``), with ``no_hallucination/wid_0 .. /wid_2`` (1 = marked none);
  - ``faithful`` and ``factual``: the authors' ``Faithful`` (share of words outside the workers'
    spans) and ``Factual`` (mean ``is_factual``, 1.0 for a summary without spans) of
    ``eval_scores``, on the 1,992 summaries it has (NaN elsewhere);
* precomputed measures ``xsumfaith.R1, .R2, .RL`` (ROUGE F1), ``.BERTScore`` and ``.Entailment``
  (the probability that the article entails the summary), from ``eval_scores``.

``wid_0 .. wid_2`` are the release's worker positions; nothing says one position is one person on
every summary. ``eval_scores`` names systems by checkpoint (``bert_withckpt`` = BERTS2S,
``bert_nockpt`` = TranS2S, ``ptgen``, ``tconvs2s``).
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from sumeval.datasets.loaders.build import expect, read_csv
from sumeval.errors import InputError

__all__ = ["HALLUCINATION_FILE", "FACTUALITY_FILE", "SCORES_FILE", "SYSTEMS", "WORKERS", "METRICS", "NO_TEXT",
           "load_xsumfaith", "xsumfaith_judgments"]

HALLUCINATION_FILE = "xsumfaith/hallucination_annotations_xsum_summaries.csv"
FACTUALITY_FILE = "xsumfaith/factuality_annotations_xsum_summaries.csv"
SCORES_FILE = "xsumfaith/eval_scores_xsum_summaries.csv"
#: system names of the annotation files -> the data set's (Gold is the XSum reference)
SYSTEMS = {"BERTS2S": "BERTS2S", "PtGen": "PtGen", "TConvS2S": "TConvS2S", "TranS2S": "TranS2S", "Gold": "reference"}
#: eval_scores' system names -> the annotation files'
SCORE_SYSTEMS = {"bert_withckpt": "BERTS2S", "bert_nockpt": "TranS2S", "ptgen": "PtGen", "tconvs2s": "TConvS2S"}
WORKERS: tuple[str, ...] = ("wid_0", "wid_1", "wid_2")
METRICS: tuple[str, ...] = ("R1", "R2", "RL", "BERTScore", "Entailment")
NO_TEXT = ("XSumFaith has no source articles (the XSum documents are not part of the annotation release): "
           "measures that read the article cannot run; reference-based ones can (the reference is the XSum one)")
#: MANIFEST.md's counts
COUNTS = {"span rows": 11185, "intrinsic": 2537, "extrinsic": 7860, "NULL": 788, "summaries": 2500,
          "documents": 500, "factuality rows": 5597, "yes": 582, "no": 4982, "factuality NULL": 33,
          "asked summaries": 1869, "asked documents": 498, "score rows": 1992, "Factual agrees": (1856, 1858)}


def _quotes_and_spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace('"', "")).strip()


def _hallucinations(path, rows) -> tuple[dict, dict, list]:
    """``{(doc, system): summary}``, ``{(doc, system): {worker: marked a span}}``, keys in file order."""
    summary, marked, order = {}, {}, []
    types = {"intrinsic": 0, "extrinsic": 0, "NULL": 0}
    for lineno, r in rows:
        key = (r["bbcid"], r["system"])
        if r["system"] not in SYSTEMS or r["worker_id"] not in WORKERS or r["hallucination_type"] not in types:
            raise InputError(f"{path}:{lineno}: system {r['system']!r}, worker {r['worker_id']!r} or "
                             f"hallucination_type {r['hallucination_type']!r} is unknown")
        types[r["hallucination_type"]] += 1
        text = r["summary"].replace("\\'", "'")
        if summary.setdefault(key, text) != text:
            raise InputError(f"{path}:{lineno}: (bbcid {key[0]!r}, system {key[1]!r}) has another summary than on "
                             "its first row")
        if key not in marked:
            marked[key] = {}
            order.append(key)
        marked[key][r["worker_id"]] = marked[key].get(r["worker_id"], False) or r["hallucination_type"] != "NULL"
    expect(path, "the number of rows", len(rows), COUNTS["span rows"])
    for t in types:
        expect(path, f"the number of {t} rows", types[t], COUNTS[t])
    expect(path, "the number of summaries", len(order), COUNTS["summaries"])
    expect(path, "the number of documents", len({d for d, _ in order}), COUNTS["documents"])
    return summary, marked, order


def _factuality(path, rows, summary) -> dict:
    """``{(doc, system): {worker: 1.0 | 0.0 | nan}}``; the summaries checked against the span file's."""
    out: dict = {}
    answers = {"yes": 0, "no": 0, "NULL": 0}
    for lineno, r in rows:
        key = (r["bbcid"], r["system"])
        if key not in summary or r["worker_id"] not in WORKERS or r["is_factual"] not in answers:
            raise InputError(f"{path}:{lineno}: (bbcid {key[0]!r}, system {key[1]!r}, worker {r['worker_id']!r}, "
                             f"is_factual {r['is_factual']!r}) is not a summary, worker and answer of the span file")
        if _quotes_and_spaces(r["summary"]) != _quotes_and_spaces(summary[key]):
            raise InputError(f"{path}:{lineno}: the summary differs from the span file's (beyond quote marks)")
        if r["worker_id"] in out.setdefault(key, {}):
            raise InputError(f"{path}:{lineno}: worker {r['worker_id']!r} answers twice for {key}")
        answers[r["is_factual"]] += 1
        out[key][r["worker_id"]] = {"yes": 1.0, "no": 0.0, "NULL": np.nan}[r["is_factual"]]
    expect(path, "the number of rows", len(rows), COUNTS["factuality rows"])
    for a, c in (("yes", "yes"), ("no", "no"), ("NULL", "factuality NULL")):
        expect(path, f"the number of {a} answers", answers[a], COUNTS[c])
    expect(path, "the number of summaries", len(out), COUNTS["asked summaries"])
    expect(path, "the number of documents", len({d for d, _ in out}), COUNTS["asked documents"])
    return out


def _scores(path, rows, summary) -> dict:
    """``{(doc, system): {column: float}}`` of eval_scores."""
    out = {}
    for lineno, r in rows:
        system, _, doc = r["system_bbcid"].rpartition("_")
        key = (doc, SCORE_SYSTEMS.get(system, system))
        if key not in summary or key in out:
            raise InputError(f"{path}:{lineno}: {r['system_bbcid']!r} is not a summary of the span file, or repeated")
        try:
            out[key] = {c: float(r[c]) for c in (*METRICS, "Faithful", "Factual")}
        except ValueError as exc:
            raise InputError(f"{path}:{lineno}: {exc}") from None
    expect(path, "the number of rows", len(rows), COUNTS["score rows"])
    return out


def load_xsumfaith() -> pd.DataFrame:
    """XSumFaith as one frame (see the module docstring), 2,500 rows."""
    hpath, hrows = read_csv(HALLUCINATION_FILE, ["bbcid", "system", "summary", "hallucination_type", "worker_id"])
    summary, marked, order = _hallucinations(hpath, hrows)
    fpath, frows = read_csv(FACTUALITY_FILE, ["bbcid", "system", "summary", "is_factual", "worker_id"])
    factual = _factuality(fpath, frows, summary)
    spath, srows = read_csv(SCORES_FILE, ["system_bbcid", *METRICS, "Faithful", "Factual"])
    scores = _scores(spath, srows, summary)
    docs = list(dict.fromkeys(d for d, _ in order))
    rows = []
    for doc in docs:
        if (doc, "Gold") not in summary:
            raise InputError(f"{hpath}: document {doc!r} has no Gold (reference) summary")
        for system in SYSTEMS:
            key = (doc, system)
            if key not in summary:
                continue
            f = factual.get(key, {})
            fw = {w: f.get(w, np.nan) for w in WORKERS}
            hw = {w: (np.nan if w not in marked[key] else float(not marked[key][w])) for w in WORKERS}
            s = scores.get(key, {})
            rows.append({"doc_id": doc, "system": SYSTEMS[system], "summary": summary[key],
                         "references": [summary[(doc, "Gold")]],
                         "factuality": np.nanmean(list(fw.values())) if f and not all(np.isnan(list(fw.values())))
                         else np.nan,
                         "no_hallucination": np.nanmean(list(hw.values())),
                         "faithful": s.get("Faithful", np.nan), "factual": s.get("Factual", np.nan),
                         **{f"factuality/{w}": fw[w] for w in WORKERS},
                         **{f"no_hallucination/{w}": hw[w] for w in WORKERS},
                         **{f"xsumfaith.{c}": s.get(c, np.nan) for c in METRICS}})
    frame = pd.DataFrame(rows)
    both = frame["factuality"].notna() & frame["factual"].notna()
    agree = int(((frame["factuality"] - frame["factual"]).abs() < 1e-9)[both].sum())
    expect(spath, "(Factual equal to the mean is_factual, summaries in both files)", (agree, int(both.sum())),
           COUNTS["Factual agrees"])
    return frame


def xsumfaith_judgments():
    """The built-in data set ``xsumfaith`` (:func:`load_xsumfaith` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    return make_judgments(
        load_xsumfaith(), name="xsumfaith", relpaths=[HALLUCINATION_FILE, FACTUALITY_FILE, SCORES_FILE],
        humans=("factuality", "no_hallucination", "faithful", "factual"),
        annotators={"factuality": [f"factuality/{w}" for w in WORKERS],
                    "no_hallucination": [f"no_hallucination/{w}" for w in WORKERS]},
        measures=[f"xsumfaith.{c}" for c in METRICS], limits={"text": NO_TEXT})
