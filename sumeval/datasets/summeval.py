"""SummEval (Fabbri et al. 2021): 100 CNN/DM test articles x 16 systems with expert scores.

Files (see :mod:`sumeval.datasets.registry` for checksums and sources)::

    summeval/summeval_pairs_1600.jsonl           doc_id, system_id, sys_summ, expert_mean{...}
    summeval/summeval_docs_100.jsonl             doc_id, src, src_detok, ref_summs (11)
    summeval/summac_consistency_3experts_100.json   100 pairs, 3 expert consistency scores each

Text forms (looked at in the data, decided here)
------------------------------------------------
* ``summary`` is the pairs' ``sys_summ`` as distributed: PTB-tokenized (``team 's``, `` `` ``),
  lower-cased except the first letter of each sentence.
* ``text`` is the article's original, untokenized text (``src_detok``: ``team's``, true case).
  This is what a reader, and a model with its own tokenizer, should see; it is the form the
  SummaC and ESTIME-style experiments use.
* ``text_tokenized`` is ``src``: the same article PTB-tokenized, true case (``team 's``), with
  the highlight-like captions separated by `` .`` -- the tokenization the summaries share, for
  measures that compare surface tokens (ROUGE, exact token matches).
* ``references``: 11 references, tokenized, true case; ``references[0]`` is the CNN/DM highlight,
  ``references[1:]`` the 10 crowd-written references of SummEval.

Scores are the means of 3 expert annotators on a 1-5 scale (multiples of 1/3). The individual
expert scores are public only for consistency, on one pair per article, via SummaC
(:func:`load_summac_consistency_experts`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from sumeval.datasets.registry import locate
from sumeval.errors import InputError

__all__ = [
    "PAIRS_FILE",
    "DOCS_FILE",
    "SUMMAC_FILE",
    "QUALITIES",
    "SYSTEMS",
    "load_summeval",
    "load_summeval_documents",
    "load_summac_consistency_experts",
]

PAIRS_FILE = "summeval/summeval_pairs_1600.jsonl"
DOCS_FILE = "summeval/summeval_docs_100.jsonl"
SUMMAC_FILE = "summeval/summac_consistency_3experts_100.json"

#: The four SummEval qualities, in the order of the frame's columns.
QUALITIES: tuple[str, ...] = ("coherence", "consistency", "fluency", "relevance")
#: The 16 systems of the SummEval expert annotation, in the file's order.
SYSTEMS: tuple[str, ...] = (
    "M0", "M1", "M2", "M5", "M8", "M9", "M10", "M11",
    "M12", "M13", "M14", "M15", "M17", "M20", "M22", "M23",
)
N_DOCS = 100
N_REFERENCES = 11


def _read_registered(path: Path, required: tuple[str, ...]) -> list[dict[str, Any]]:
    """Records of JSONL file ``path``; every record must have the ``required`` fields."""
    from sumeval.jsonl import read_jsonl

    return read_jsonl(path, required=required, fix="replace the file with the registered copy")


def _check_n_docs(n_docs: int | None) -> None:
    if n_docs is not None and (isinstance(n_docs, bool) or not isinstance(n_docs, int) or not 1 <= n_docs <= N_DOCS):
        raise InputError(f"n_docs must be an integer in 1..{N_DOCS} or None (all {N_DOCS}), got {n_docs!r}; "
                         f"the data set has {N_DOCS} documents")


def load_summeval_documents(n_docs: int | None = None) -> pd.DataFrame:
    """The SummEval articles, one row per article, in file order.

    Args:
        n_docs: Keep the first ``n_docs`` articles (file order); all 100 by default.

    Returns:
        pandas.DataFrame: ``doc_id`` (str, e.g. ``"dm-test-8764fb95..."``), ``text`` (str, original article),
            ``text_tokenized`` (str, PTB-tokenized article), ``references`` (list of 11 str; ``[0]`` the CNN/DM
            highlight). 100 rows.
    """
    _check_n_docs(n_docs)
    path = locate(DOCS_FILE)
    recs = _read_registered(path, ("doc_id", "src", "src_detok", "ref_summs"))
    seen: set[str] = set()
    for i, r in enumerate(recs, 1):
        if r["doc_id"] in seen:
            raise InputError(f"{path}:{i}: doc_id {r['doc_id']!r} appears twice")
        seen.add(r["doc_id"])
        refs = r["ref_summs"]
        if not isinstance(refs, list) or len(refs) != N_REFERENCES:
            n = len(refs) if isinstance(refs, list) else type(refs).__name__
            raise InputError(f"{path}:{i}: doc {r['doc_id']!r} has {n} references, expected "
                             f"{N_REFERENCES} (the CNN/DM highlight and 10 crowd references)")
    if len(recs) != N_DOCS:
        raise InputError(f"{path}: {len(recs)} articles, expected {N_DOCS}; "
                         "replace the file with the registered copy")
    if n_docs is not None:
        recs = recs[:n_docs]
    return pd.DataFrame({
        "doc_id": [r["doc_id"] for r in recs],
        "text": [r["src_detok"] for r in recs],
        "text_tokenized": [r["src"] for r in recs],
        "references": [list(r["ref_summs"]) for r in recs],
    })


def load_summeval(n_docs: int | None = None) -> pd.DataFrame:
    """SummEval, one row per (document, system) pair: 1,600 rows (100 documents x 16 systems).

    Args:
        n_docs: Keep the pairs of the first ``n_docs`` documents in file order (for smoke runs):
            ``16 * n_docs`` rows.

    Returns:
        pandas.DataFrame: ``doc_id`` (str), ``system`` (str, ``"M0"`` ... ``"M23"``), ``summary`` (str, tokenized,
            lower-cased but sentence-initial), ``text`` (str, original article), ``text_tokenized`` (str, tokenized
            article), ``references`` (list of 11 str, ``[0]`` the CNN/DM highlight), ``coherence``, ``consistency``,
            ``fluency``, ``relevance`` (float64, mean of 3 experts, 1-5). Rows in file order: documents in the order of
            the documents file, systems in :data:`SYSTEMS` order within a document.

    Raises:
        InputError: When a pair names an article that is not in the documents file, a (document, system) pair
            appears twice, or the data is not 16 systems x 100 documents.
    """
    _check_n_docs(n_docs)
    docs = load_summeval_documents()
    path = locate(PAIRS_FILE)
    recs = _read_registered(path, ("doc_id", "system_id", "sys_summ", "expert_mean"))
    known = set(docs["doc_id"])
    seen: set[tuple[str, str]] = set()
    for i, r in enumerate(recs, 1):
        if r["doc_id"] not in known:
            raise InputError(f"{path}:{i}: doc_id {r['doc_id']!r} has no article in {DOCS_FILE}; "
                             "the two files must come from the same release")
        key = (r["doc_id"], r["system_id"])
        if key in seen:
            raise InputError(f"{path}:{i}: pair (doc {key[0]!r}, system {key[1]!r}) appears twice")
        seen.add(key)
        missing = [q for q in QUALITIES if q not in r["expert_mean"]]
        if missing:
            raise InputError(f"{path}:{i}: expert_mean lacks {missing}; it needs {list(QUALITIES)}")
    systems = sorted({r["system_id"] for r in recs}, key=lambda s: int(s.lstrip("M")))
    per_doc = pd.Series([r["doc_id"] for r in recs]).value_counts()
    if tuple(systems) != SYSTEMS or len(per_doc) != N_DOCS or (per_doc != len(SYSTEMS)).any():
        raise InputError(
            f"{path}: expected {len(SYSTEMS)} systems x {N_DOCS} documents, found systems "
            f"{systems} over {len(per_doc)} documents; replace the file with the registered copy")

    order = {d: i for i, d in enumerate(docs["doc_id"])}
    sys_order = {s: i for i, s in enumerate(SYSTEMS)}
    recs = sorted(recs, key=lambda r: (order[r["doc_id"]], sys_order[r["system_id"]]))
    if n_docs is not None:
        keep = set(docs["doc_id"][:n_docs])
        recs = [r for r in recs if r["doc_id"] in keep]

    pairs = pd.DataFrame({
        "doc_id": [r["doc_id"] for r in recs],
        "system": [r["system_id"] for r in recs],
        "summary": [r["sys_summ"] for r in recs],
        **{q: [float(r["expert_mean"][q]) for r in recs] for q in QUALITIES},
    })
    frame = pairs.merge(docs, on="doc_id", how="left", validate="many_to_one", sort=False)
    return frame[["doc_id", "system", "summary", "text", "text_tokenized", "references",
                  *QUALITIES]].reset_index(drop=True)


def _letters(text: str) -> str:
    """Letters and digits of ``text``, lower-cased, PTB ``-lrb-``/``-rrb-`` tokens removed."""
    text = re.sub(r"-[lr][rcs]b-", " ", text.lower())
    return re.sub(r"[^0-9a-z]", "", text)


def load_summac_consistency_experts(wide: bool = False) -> pd.DataFrame:
    """The 100 SummEval pairs whose 3 individual expert consistency scores SummaC published.

    One pair per article (the SummaC "val" cut). The summary SummaC distributes is the pairs'
    summary lower-cased (and, in 5 pairs, with other PTB tokens for quotes and brackets:
    ``''``/``-lrb-`` where SummEval has `` `` ``/``(``); it is checked against
    :func:`load_summeval` on letters and digits and given here in :func:`load_summeval`'s form, so
    the two frames join on ``(doc_id, system)`` or on ``summary``. The mean of the three scores
    equals ``consistency`` in :func:`load_summeval` (checked).

    Args:
        wide: False (default): long frame, one row per (pair, expert). True: one row per pair.

    Returns:
        pandas.DataFrame: Long (300 rows): ``doc_id`` (str), ``system`` (str), ``summary`` (str), ``expert`` (int64,
            1-3, the position of the score in SummaC's ``annotations``; the same position need not be the same person
            across pairs), ``score`` (int64, 1-5), ``label`` (int64, SummaC's binary label: 1 = consistent, i.e. at
            least two experts gave 5). Wide (100 rows): ``doc_id, system, summary, expert_1, expert_2, expert_3,
            consistency`` (float64 mean), ``label``.
    """
    path = locate(SUMMAC_FILE)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON ({exc.msg}); replace it with the registered copy") from None
    pairs = load_summeval().set_index(["doc_id", "system"])
    rows = []
    for key, rec in data.items():
        for f in ("cnndm_id", "model_name", "claim", "annotations", "label"):
            if f not in rec:
                raise InputError(f"{path}: entry {key!r} lacks field {f!r}")
        doc_id, system = rec["cnndm_id"], rec["model_name"]
        if (doc_id, system) not in pairs.index:
            raise InputError(f"{path}: entry {key!r} names pair (doc {doc_id!r}, system {system!r}) "
                             f"that is not in {PAIRS_FILE}")
        pair = pairs.loc[(doc_id, system)]
        if _letters(rec["claim"]) != _letters(pair["summary"]):
            raise InputError(f"{path}: entry {key!r}: its summary differs from the SummEval pair "
                             f"(doc {doc_id!r}, system {system!r}) beyond letter case, spaces, "
                             "punctuation and PTB bracket tokens")
        scores = [int(s) for s in rec["annotations"]]
        if len(scores) != 3 or not all(1 <= s <= 5 for s in scores):
            raise InputError(f"{path}: entry {key!r}: annotations {rec['annotations']!r} are not "
                             "3 scores in 1-5")
        if abs(sum(scores) / 3 - pair["consistency"]) > 1e-9:
            raise InputError(f"{path}: entry {key!r}: mean of {scores} differs from the SummEval "
                             f"consistency {pair['consistency']:.4f} of the same pair")
        rows.append((doc_id, system, pair["summary"], scores, int(rec["label"])))
    if wide:
        return pd.DataFrame({
            "doc_id": [r[0] for r in rows],
            "system": [r[1] for r in rows],
            "summary": [r[2] for r in rows],
            **{f"expert_{k + 1}": [r[3][k] for r in rows] for k in range(3)},
            "consistency": [sum(r[3]) / 3 for r in rows],
            "label": [r[4] for r in rows],
        })
    return pd.DataFrame(
        [(d, s, summ, k + 1, sc[k], lab) for d, s, summ, sc, lab in rows for k in range(3)],
        columns=["doc_id", "system", "summary", "expert", "score", "label"],
    )
