"""DialSummEval (Gao & Wan, NAACL 2022): 100 SAMSum test dialogues x 14 summary sources, 3
annotators x 4 qualities, and the paper's 32 metric columns.

Files (``dialsummeval/``, from kite99520/DialSummEval 667118e1)::

    human_judgment.jsonl              id, dialogue, summary, model_id (A-N), annotations (3 dicts)
    models_eval_new/dials.txt         the 100 dialogues, one a line: the row order of every model file
    models_eval_new/<A-N>/summs.txt   one summary a line
    models_eval_new/<A-N>/metrics.csv 100 rows x 32 metric columns

The built-in data set ``dialsummeval`` (1,400 rows, dialogues in ``dials.txt`` order, sources in
``A``-``N`` order):

* ``system``: the paper's names (:data:`SYSTEMS`); model ``A``, the SAMSum reference, is the system
  ``reference`` and stays in, as in the paper's own correlations (its ``analysis.py`` correlates
  all 14 sources). Every reference-based measure scores it against itself (ROUGE 1.0), so leave
  it out (export the set and drop its rows) when a system-level ranking should hold models only.
* ``text``: the dialogue as in the file (turns separated by ``|``), the text the paper's metrics
  read; ``references``: the reference (model ``A``'s summary); ``model_id``: the letter (kept).
* human columns ``coherence, consistency, fluency, relevance`` by the paper's rule
  (:func:`paper_score`), and ``<quality>/annotator_1..3``: annotator 1, 2, 3 of the release (a fixed
  order: the same person on every row).
* 32 precomputed measures ``dialsummeval.<metric>`` (the metrics.csv header, e.g.
  ``dialsummeval.rouge-1``, ``dialsummeval.bartscore_s_h``; the prefix keeps them apart from
  sumeval's own ``rouge-1``); ``dialsummeval.ppl`` (GPT-2 perplexity) is lower-is-better.

The metric rows are joined by line order as the release defines it, and the joins are checked:
``dials.txt`` line i is the dialogue of exactly one id (100/100), and ``summs.txt`` line i of model X
is the summary of (that id, X) (1,400/1,400).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sumeval.datasets.loaders.build import expect, read_csv, read_jsonl, read_lines
from sumeval.errors import InputError

__all__ = ["HUMAN_FILE", "EVAL_DIR", "SYSTEMS", "QUALITIES", "METRICS", "paper_score", "measure_column",
           "load_dialsummeval", "dialsummeval_judgments"]

HUMAN_FILE = "dialsummeval/human_judgment.jsonl"
EVAL_DIR = "dialsummeval/models_eval_new"
#: model letter -> system name (the repository's reproduce/analysis/analysis.py; A = the reference)
SYSTEMS: dict[str, str] = {
    "A": "reference", "B": "LONGEST_3", "C": "LEAD_3", "D": "PGN", "E": "Transformer", "F": "BART",
    "G": "PEGASUS", "H": "UniLM", "I": "CODS", "J": "ConvoSumm", "K": "MV_BART", "L": "PLM", "M": "PNEP",
    "N": "S_BART"}
QUALITIES: tuple[str, ...] = ("coherence", "consistency", "fluency", "relevance")
#: the 32 columns of every metrics.csv, in file order
METRICS: tuple[str, ...] = (
    "rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "bertscore_p", "bertscore_r", "bertscore_f1",
    "moverscore", "sms", "bartscore_s_h", "bartscore_h", "bartscore_h_r", "bartscore_r_h", "blanc_help",
    "blanc_tune", "feqa_score", "questeval", "summaqa_prob", "summaqa_fscore", "ppl", "chrf", "Bleu_1",
    "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "EmbeddingAverageCosineSimilarity", "VectorExtremaCosineSimilarity",
    "GreedyMatchingScore", "factcc_cls", "dae")
LOWER_IS_BETTER: tuple[str, ...] = ("ppl",)
N_DIALOGUES = 100


def measure_column(metric: str) -> str:
    """``"rouge-1" -> "dialsummeval.rouge-1"``: the measure column of one of the paper's metrics."""
    return f"dialsummeval.{metric}"


def paper_score(scores: np.ndarray) -> np.ndarray:
    """DialSummEval's per-summary human score (Gao & Wan 2022; ``filter_noise_scores`` in
    the repository's reproduce/analysis/analysis.py): the value two of the three annotators share
    (when all three agree, that value), else the mean of the three.

    Args:
        scores: array (n, 3) of the three annotators' scores.

    Returns:
        array (n,), float64.
    """
    s = np.asarray(scores, dtype=float)
    if s.ndim != 2 or s.shape[1] != 3:
        raise InputError(f"paper_score takes an (n, 3) array of three annotators' scores, got shape {s.shape}")
    a, b, c = s[:, 0], s[:, 1], s[:, 2]
    return np.where(a == b, a, np.where(a == c, a, np.where(b == c, b, s.mean(axis=1))))


def _human_records() -> tuple[str, list[dict]]:
    """The 1,400 records of the human file, checked (ids, model letters, 3 x 4 scores 1-5)."""
    path, rows = read_jsonl(HUMAN_FILE, required=("id", "dialogue", "summary", "model_id", "annotations"))
    expect(path, "the number of records", len(rows), N_DIALOGUES * len(SYSTEMS))
    seen, dialogue_of = set(), {}
    for lineno, r in rows:
        key = (str(r["id"]), r["model_id"])
        if r["model_id"] not in SYSTEMS or key in seen:
            raise InputError(f"{path}:{lineno}: model_id {r['model_id']!r} of id {r['id']!r} is unknown or "
                             f"repeated (models: {', '.join(SYSTEMS)})")
        seen.add(key)
        if dialogue_of.setdefault(key[0], r["dialogue"]) != r["dialogue"]:
            raise InputError(f"{path}:{lineno}: id {r['id']!r} has another dialogue than on its first line")
        ann = r["annotations"]
        ok = isinstance(ann, list) and len(ann) == 3 and all(
            isinstance(a, dict) and all(isinstance(a.get(q), int) and 1 <= a[q] <= 5 for q in QUALITIES) for a in ann)
        if not ok:
            raise InputError(f"{path}:{lineno}: annotations {ann!r} are not 3 dicts of {', '.join(QUALITIES)} "
                             "scored 1-5")
    expect(path, "the number of dialogues", len(dialogue_of), N_DIALOGUES)
    return str(path), [r for _, r in rows]


def load_dialsummeval() -> pd.DataFrame:
    """DialSummEval as one frame (see the module docstring), 1,400 rows: ``doc_id`` (SAMSum id),
    ``system``, ``summary``, ``text``, ``references`` (list of 1), ``model_id``, the 4 human
    columns, the 12 annotator columns and the 32 measure columns (float64)."""
    path, records = _human_records()
    by_key = {(str(r["id"]), r["model_id"]): r for r in records}
    dpath, dialogues = read_lines(f"{EVAL_DIR}/dials.txt")
    expect(dpath, "the number of lines", len(dialogues), N_DIALOGUES)
    ids_of: dict[str, list[str]] = {}
    for r in records:
        if r["model_id"] == "A":
            ids_of.setdefault(r["dialogue"], []).append(str(r["id"]))
    order = []
    for i, dialogue in enumerate(dialogues, 1):
        ids = ids_of.get(dialogue, [])
        if len(ids) != 1:
            raise InputError(f"{dpath}:{i}: the dialogue is that of {len(ids)} ids of {path} (expected exactly "
                             "one); the line order of models_eval_new cannot be joined")
        order.append(ids[0])
    rows = []
    for letter, system in SYSTEMS.items():
        spath, summaries = read_lines(f"{EVAL_DIR}/{letter}/summs.txt")
        mpath, metrics = read_csv(f"{EVAL_DIR}/{letter}/metrics.csv", METRICS)
        expect(spath, "the number of lines", len(summaries), N_DIALOGUES)
        expect(mpath, "the number of rows", len(metrics), N_DIALOGUES)
        for i, (doc, summary, (lineno, m)) in enumerate(zip(order, summaries, metrics), 1):
            rec = by_key[(doc, letter)]
            if summary != rec["summary"]:
                raise InputError(f"{spath}:{i}: the summary differs from that of (id {doc!r}, model {letter}) in "
                                 f"{path}; the metric rows cannot be joined by line order")
            values = {}
            for col in METRICS:
                try:
                    values[measure_column(col)] = float(m[col])
                except ValueError:
                    raise InputError(f"{mpath}:{lineno}: {col} = {m[col]!r} is not a number") from None
                if math.isnan(values[measure_column(col)]):
                    raise InputError(f"{mpath}:{lineno}: {col} is NaN; MANIFEST.md records no missing value")
            rows.append({"doc_id": doc, "system": system, "summary": summary, "text": rec["dialogue"],
                         "references": [by_key[(doc, "A")]["summary"]], "model_id": letter,
                         **{f"{q}/annotator_{k}": float(a[q]) for q in QUALITIES
                            for k, a in enumerate(rec["annotations"], 1)}, **values})
    frame = pd.DataFrame(rows)
    frame["_doc"] = frame["doc_id"].map({d: i for i, d in enumerate(order)})
    frame = frame.sort_values(["_doc", "model_id"], kind="stable").drop(columns="_doc").reset_index(drop=True)
    for q in QUALITIES:
        frame.insert(frame.columns.get_loc("model_id") + 1 + QUALITIES.index(q), q,
                     paper_score(frame[[f"{q}/annotator_{k}" for k in (1, 2, 3)]].to_numpy()))
    return frame


def dialsummeval_judgments():
    """The built-in data set ``dialsummeval`` (:func:`load_dialsummeval` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    frame = load_dialsummeval()
    files = [HUMAN_FILE, f"{EVAL_DIR}/dials.txt",
             *(f"{EVAL_DIR}/{x}/{f}" for x in SYSTEMS for f in ("summs.txt", "metrics.csv"))]
    return make_judgments(
        frame, name="dialsummeval", relpaths=files, humans=QUALITIES,
        annotators={q: [f"{q}/annotator_{k}" for k in (1, 2, 3)] for q in QUALITIES},
        measures=[measure_column(m) for m in METRICS], lower=[measure_column(m) for m in LOWER_IS_BETTER])
