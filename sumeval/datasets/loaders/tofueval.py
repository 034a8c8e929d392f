"""TofuEval (Tang et al., NAACL 2024, "TofuEval: Evaluating Hallucinations of LLMs on Topic-Focused Dialogue
Summarization"): factual consistency of topic-focused summaries of MediaSum interview transcripts and
MeetingBank city-council meetings, written by 6 LLMs and labelled sentence by sentence by expert linguistic
annotators.

Files (``tofueval/``, from amazon-science/tofueval ade0f385; MIT-0)::

    factual_consistency/{mediasum,meetingbank}_factual_eval_{dev,test}.csv
        one row per summary sentence: doc_id, annotation_id, topic, model_name, sent_idx, summ_sent,
        sent_label (yes / no), exp (the explanation of a no), type (its error types, comma-separated)

Read with ``csv`` and ``newline=''`` (fields hold newlines; three of the files have CRLF line ends).

The built-in data set ``tofueval``: one row per summary (1,777), a summary being the rows of one (corpus,
doc_id, topic, model_name) in ``sent_idx`` order. The input is the (document, topic) pair the summary was
asked for: ``doc_id`` is ``"<doc_id>: <topic>"`` (300 inputs: 50 documents x 3 topics per corpus), ``system``
the release's ``model_name`` (``model_A`` .. ``model_E``, ``Model-Extra``), ``summary`` the sentences joined
by a space. Columns:

* human ``consistent`` (1 / 0): the paper's summary-level label - a summary is factually consistent when
  every one of its sentences is labelled consistent (``yes``), inconsistent when one is ``no``
  (:func:`summary_label`; Tang et al. 2024, the summary-level error rates of its analysis of the summarizers).
* unused: ``corpus`` (``mediasum`` / ``meetingbank``), ``split`` (``dev``: tune on these; ``test``: report
  on these), ``source_doc_id``, ``topic``, ``annotation_id``, ``sentences``, ``inconsistent_sentences``,
  ``error_types`` (the distinct types of its ``no`` sentences, ``;``-joined), ``missing_sentences`` (the
  ``sent_idx`` absent from a summary whose indices skip: 4 summaries, :data:`GAPS`; the label is over the
  sentences released).

**The duplicated row**: ``meetingbank_factual_eval_dev.csv`` holds one row twice, identical in every field
(:data:`DUPLICATE`: LongBeachCC_10172017_17-0944, topic "Incident on Blue Line train", Model-Extra, sentence
1, labelled yes). The second copy is dropped - it would make that summary one sentence longer - and the loader
refuses any other repeated (summary, sentence), or a repeat that differs. MANIFEST's 4,947 rows are 4,946
sentences.

Levels: the **system level is refused**: the release anonymises the models and shuffles their order for
every topic (its README), so ``model_A`` on one topic is not ``model_A`` on another (only ``Model-Extra``,
added later, is one model throughout). The input level needs 2 or more summaries per (document, topic): one
meetingbank dev topic has a single summary (``check_level`` names it), so drop it (``sumeval data export``
then ``data add``) to use that level; global applies.

Not here, with the reason (:attr:`Judgments.limits`): **no source documents** - the transcripts are not in
the repository (its README loads them from MediaSum and MeetingBank), so every measure that reads the
source is refused; no references; no annotator columns (one label per sentence, no annotator ids); no
evaluators' predictions (the paper's evaluator scores cannot be recomputed, nor its per-model tables: the
models are anonymised).

The finer level is :func:`load_tofueval_sentences` (one row per sentence, 4,946, with the explanation and
error types of each ``no``).
"""
from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_csv, read_json
from sumeval.errors import InputError

__all__ = ["FILES", "COLUMNS", "DUPLICATE", "GAPS", "summary_label", "load_tofueval", "load_tofueval_sentences",
           "counts_by_part", "tofueval_judgments"]

#: (corpus, split) -> registered file
FILES: dict[tuple[str, str], str] = {
    (corpus, split): f"tofueval/factual_consistency/{corpus}_factual_eval_{split}.csv"
    for corpus in ("mediasum", "meetingbank") for split in ("dev", "test")}
SPLIT_FILE = "tofueval/document_ids_dev_test_split.json"
COLUMNS = ("doc_id", "annotation_id", "topic", "model_name", "sent_idx", "summ_sent", "sent_label", "exp", "type")
#: the one row meetingbank dev holds twice: (corpus, split, doc_id, topic, model_name, sent_idx)
DUPLICATE = ("meetingbank", "dev", "LongBeachCC_10172017_17-0944", "Incident on Blue Line train", "Model-Extra", 1)
#: the summaries whose sent_idx skip, (corpus, split, doc_id, topic, model_name) -> the indices released
GAPS: dict[tuple[str, str, str, str, str], tuple[int, ...]] = {
    ("mediasum", "dev", "CNN-291058", "Pay-for-play scheme", "model_D"): (2, 3),
    ("mediasum", "dev", "CNN-164885", "Cuban celebration and government gathering", "model_C"): (1, 3),
    ("meetingbank", "dev", "LongBeachCC_08132019_19-0733", "Vacation of the North-South Alley", "model_C"): (2,),
    ("meetingbank", "dev", "DenverCityCouncil_08292016_16-0553", "Block Vote Results", "model_A"): (1, 2, 4),
}
NO_TEXT = ("TofuEval has no source documents: the MediaSum and MeetingBank transcripts are not in the repository "
           "(its README loads them from the two corpora), so measures that read the source cannot run")
NO_REFERENCES = "TofuEval has no reference summaries (topic key points only, in completeness/, not loaded)"
NO_SYSTEM = ("the release anonymises the models and shuffles their order for every topic, so model_A on one topic "
             "is not model_A on another (only Model-Extra is one model throughout): there are no system ids to "
             "average over")
NO_ANNOTATORS = "one label per sentence by expert annotators, no annotator ids"
#: MANIFEST.md's counts: (corpus, split) -> (rows, summaries, documents, topics, no)
COUNTS: dict[tuple[str, str], tuple[int, int, int, int, int]] = {
    ("mediasum", "dev"): (1813, 626, 35, 105, 354), ("mediasum", "test"): (733, 267, 15, 45, 172),
    ("meetingbank", "dev"): (1624, 617, 35, 105, 290), ("meetingbank", "test"): (777, 267, 15, 45, 150)}
TOTALS = {"rows": 4947, "no": 966, "summaries": 1777}


def summary_label(sentence_labels: Sequence[str]) -> int:
    """The summary-level label of TofuEval (Tang et al. 2024): 1 (consistent) when every sentence is labelled
    ``yes``, 0 when any is ``no``.

    >>> summary_label(["yes", "yes"]), summary_label(["yes", "no"])
    (1, 0)
    """
    if not sentence_labels:
        raise InputError("a TofuEval summary without sentences has no label")
    bad = [x for x in sentence_labels if x not in ("yes", "no")]
    if bad:
        raise InputError(f"TofuEval sentence label {bad[0]!r} is not 'yes' or 'no'")
    return int(all(x == "yes" for x in sentence_labels))


def _rows() -> list[dict[str, Any]]:
    """Every sentence row of the 4 files, checked against MANIFEST's counts, the duplicate dropped."""
    out: list[dict[str, Any]] = []
    for (corpus, split), rel in FILES.items():
        path, rows = read_csv(rel, COLUMNS)
        for lineno, r in rows:
            if r["sent_label"] not in ("yes", "no") or not r["sent_idx"].isdigit() or not r["summ_sent"].strip() \
                    or (r["sent_label"] == "no") != bool(r["exp"].strip()) or (r["sent_label"] == "yes" and r["type"]):
                raise InputError(f"{path}:{lineno}: sent_label {r['sent_label']!r}, sent_idx {r['sent_idx']!r}: "
                                 "not a yes / no label on a numbered sentence, with an explanation exactly for "
                                 f"a no and no error type for a yes; {FIX}")
        summaries = {(r["doc_id"], r["topic"], r["model_name"]) for _, r in rows}
        got = (len(rows), len(summaries), len({r["doc_id"] for _, r in rows}),
               len({(r["doc_id"], r["topic"]) for _, r in rows}), sum(r["sent_label"] == "no" for _, r in rows))
        expect(path, "(rows, summaries, documents, topics, no labels)", got, COUNTS[(corpus, split)])
        seen: dict[tuple, tuple[int, dict]] = {}
        for lineno, r in rows:
            key = (corpus, split, r["doc_id"], r["topic"], r["model_name"], int(r["sent_idx"]))
            if key in seen:
                first, kept = seen[key]
                if key != DUPLICATE or kept != r:
                    raise InputError(f"{path}:{lineno}: sentence {key[-1]} of ({key[2]}, {key[3]!r}, {key[4]}) "
                                     f"again (first at line {first}){'' if kept == r else ', differently'}; only "
                                     f"the identical repeat of {DUPLICATE[2:]} is known; {FIX}")
                continue
            seen[key] = (lineno, r)
            out.append({**r, "corpus": corpus, "split": split, "sent_idx": int(r["sent_idx"]),
                        "location": f"{path}:{lineno}"})
    spath, split_ids = read_json(SPLIT_FILE)
    for (corpus, split), rel in FILES.items():
        ids = sorted({r["doc_id"] for r in out if (r["corpus"], r["split"]) == (corpus, split)})
        listed = split_ids.get(split, {}).get(corpus) if isinstance(split_ids, dict) else None
        expect(spath, f"the {split} {corpus} doc_ids (= those of {rel.rsplit('/', 1)[1]})",
               sorted(listed) if isinstance(listed, list) else listed, ids)
    where = FILES[("mediasum", "dev")].rsplit("/", 1)[0]
    expect(where, "the rows less the one duplicate", len(out), TOTALS["rows"] - 1)
    expect(where, "the number of no labels", sum(r["sent_label"] == "no" for r in out), TOTALS["no"])
    return out


def load_tofueval_sentences() -> pd.DataFrame:
    """TofuEval at the sentence level: one row per summary sentence, 4,946 (MANIFEST's 4,947 rows less the
    duplicate), in the files' order (mediasum dev, test, meetingbank dev, test).

    Returns:
        pandas.DataFrame: ``doc_id, system`` (as :func:`load_tofueval`), ``corpus, split, source_doc_id,
        topic, sent_idx`` (1-based, as released), ``sentence``, ``consistent`` (1.0 yes, 0.0 no),
        ``explanation`` and ``error_types`` (of a no; "" for a yes), ``location`` (file:line).
    """
    rows = _rows()
    out = pd.DataFrame([{"doc_id": f"{r['doc_id']}: {r['topic']}", "system": r["model_name"], "corpus": r["corpus"],
                         "split": r["split"], "source_doc_id": r["doc_id"], "topic": r["topic"],
                         "sent_idx": r["sent_idx"], "sentence": r["summ_sent"],
                         "consistent": 1.0 if r["sent_label"] == "yes" else 0.0, "explanation": r["exp"],
                         "error_types": r["type"], "location": r["location"]} for r in rows])
    return out


def load_tofueval() -> pd.DataFrame:
    """TofuEval as one frame, one row per summary (1,777; the module docstring's columns), in the files' order.

    Raises:
        InputError: a file that is not the release's, a count other than MANIFEST's, or a repeated sentence
            other than the known one.
    """
    sentences = load_tofueval_sentences()
    rows = []
    keys = ["corpus", "split", "source_doc_id", "topic", "system"]
    for key, g in sentences.groupby(keys, sort=False):
        g = g.sort_values("sent_idx")
        idx = tuple(int(i) for i in g["sent_idx"])
        missing = sorted(set(range(1, max(idx) + 1)) - set(idx))
        types = sorted({t.strip() for ts in g["error_types"] for t in ts.split(",") if t.strip()})
        labels = ["yes" if c == 1.0 else "no" for c in g["consistent"]]
        rows.append({"doc_id": g["doc_id"].iloc[0], "system": key[4], "summary": " ".join(g["sentence"]),
                     "consistent": float(summary_label(labels)), "corpus": key[0], "split": key[1],
                     "source_doc_id": key[2], "topic": key[3], "sentences": len(g),
                     "inconsistent_sentences": labels.count("no"), "error_types": ";".join(types),
                     "missing_sentences": ",".join(map(str, missing)), "_idx": idx})
    frame = pd.DataFrame(rows)
    where = FILES[("mediasum", "dev")].rsplit("/", 1)[0]
    expect(where, "the number of summaries", len(frame), TOTALS["summaries"])
    gaps = {tuple(r[k] for k in ("corpus", "split", "source_doc_id", "topic", "system")): r["_idx"]
            for _, r in frame.iterrows() if r["missing_sentences"]}
    expect(where, "the summaries whose sent_idx skip", gaps, GAPS)
    return frame.drop(columns="_idx")


def tofueval_judgments():
    """The built-in data set ``tofueval`` (:func:`load_tofueval` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    return make_judgments(load_tofueval(), name="tofueval", relpaths=[*FILES.values(), SPLIT_FILE],
                          humans=("consistent",),
                          limits={"text": NO_TEXT, "references": NO_REFERENCES, "system": NO_SYSTEM,
                                  "annotator columns": NO_ANNOTATORS})


def counts_by_part(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per (corpus, split): summaries, inconsistent summaries and their share, sentences and inconsistent
    sentences - label statistics only (computed, not compared with the paper's tables: the models are
    anonymised and no evaluator's predictions are released)."""
    f = load_tofueval() if frame is None else frame
    g = f.groupby(["corpus", "split"], sort=False)
    out = pd.DataFrame({"summaries": g.size(), "inconsistent": g["consistent"].apply(lambda s: int((s == 0).sum())),
                        "sentences": g["sentences"].sum(), "inconsistent_sentences": g["inconsistent_sentences"].sum()})
    out["inconsistent_share"] = out["inconsistent"] / out["summaries"]
    return out.reset_index()

