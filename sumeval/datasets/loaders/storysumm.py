"""StorySumm (Subbiah et al., EMNLP 2024 Findings, "STORYSUMM: Evaluating Faithfulness in Story
Summarization"): faithfulness of 96 LLM summaries of 32 short stories, labelled by the authors, with the
predictions of 10 evaluators.

Files (``storysumm/``, from melaniesubbiah/storysumm 22d47af2; MIT)::

    storysumm.json        {summary id: {label, difficulty, story, summary: [sentence, ...], errors: [1|0 per
                          sentence], story-id, explanations, claims, split, model}}, 96 records
    predicted_labels/     10 evaluator files keyed by the same ids: {label} and / or {probs}

**storysumm.json is not valid JSON as released**: a stray ``"`` at byte 196,617 (the end of line 1,455, the
summary of story 13), left when a sentence was split in two, opens a string that runs into the line end.
:func:`read_storysumm` checks the released file's sha256 (the registered one), deletes that one byte,
checks the repaired text's sha256 (:data:`REPAIRED_SHA256`, MANIFEST's) and only then parses it; a file
that is neither is refused with both checksums.

The built-in data set ``storysumm``: one row per summary (96), ``doc_id`` ``story-<story-id>`` (32 stories,
3 summaries each, by 3 different models), ``system`` the model (claude 32, gpt-4 21, gpt-3.5-turbo-instruct
21, text-davinci-003 11, chatGPT 11), ``text`` the story, ``summary`` the sentences joined by a space.

* human ``faithful``: the release's final ``label`` (1 faithful, 0 unfaithful), the label the paper's
  numbers use; no annotator ids are released (final labels, aggregated), so there are no annotator columns.
  A summary is unfaithful when one of its sentences is (label = all(errors), one label per sentence),
  which holds for 94 of the 96; the two others are kept as released, and said so:

  - ``8167058533589479g1cebe`` (story 19, claude) has 7 sentences but 6 sentence labels (all 1); its label
    is 1, so every sentence is consistent, and the sentence level gives all 7 the label 1 (``note`` says so);
  - ``7911522387646974049i9mo1w`` (story 21, gpt-4) has label 0 but no sentence marked 0, and one
    explanation ("The protagonist alone sees the aunt taking food to the basement and tells Lance.", which
    reads as about the third sentence): its summary label stays 0 and its sentences stay as released (all
    1), with the explanation in ``note``; nothing is guessed.
* 11 **opt-in** measure columns ``<evaluator>.faithful`` (:data:`EVALUATORS`, named as the paper's table:
  Binary and CoT prompts of Claude-3, GPT-4 and Mixtral, FABLES, MiniCheck, UniEval, AlignScore), higher =
  faithful: the 8 label evaluators' 0/1 labels; UniEval's and AlignScore's scores (``probs``, no label);
  ``binary-gpt-4-probability`` GPT-4's stated probability of a faithful answer (``probs``, 0-100, divided
  by 100). The CoT files' ``probs`` are the explanations (text), MiniCheck's are per sentence: neither is a
  summary score.
* ``split`` (``val``: 33 summaries, 11 stories - tune on these; ``test``: 63, 21 stories - report on these;
  each story in one split), ``difficulty`` (``easy`` / ``hard`` for unfaithful summaries, ``""`` for
  faithful ones), ``story_id``, ``summary_id``, ``sentences``, ``inconsistent_sentences`` and
  ``label_agrees`` (label == all(errors) with one label per sentence) as unused columns.

Levels: 3 summaries per story, by 3 models, so the input level applies; the system level too (5 models),
but the models are not crossed with the stories (claude summarises all 32; gpt-4 and gpt-3.5-turbo-instruct
the same 21, text-davinci-003 and chatGPT the other 11), so a model's mean is over its own stories
(``systems_missing_documents`` lists them); global applies. No references.

The finer level is :func:`load_storysumm_sentences` (one row per summary sentence, 579). The paper's
meta-evaluation (its README's table of 2024-08-22, reproduced by ``Results.ipynb``) is
:func:`evaluator_table`; the tests pin it to the printed values.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

import numpy as np
import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_json
from sumeval.errors import InputError

__all__ = ["DATA_FILE", "PREDICTION_FILES", "EVALUATORS", "RELEASED_SHA256", "REPAIRED_SHA256", "STRAY_BYTE",
           "evaluator_column", "read_storysumm", "load_storysumm", "load_storysumm_sentences",
           "tune_threshold_notebook", "evaluator_table", "storysumm_judgments"]

DATA_FILE = "storysumm/storysumm.json"
#: MANIFEST.md's checksums of the released file and of the released file less its stray byte
RELEASED_SHA256 = "a5d33036b5a77e344912ea8c28dc831358ba91412217d9cdff3049f80e307cab"
REPAIRED_SHA256 = "b88737e5cbe8e0f60c1c1907fed7a2a32f1060323f684820cf1b43b7ae2f0302"
#: the 0-based offset of the stray ``"`` (line 1,455, its last character)
STRAY_BYTE = 196617
_P = "storysumm/predicted_labels/"
#: evaluator (the paper's table: Binary = the "justquestion" prompt) -> (file, field, divisor)
EVALUATORS: dict[str, tuple[str, str, float]] = {
    "binary-claude-3": (_P + "claude-3-opus-20240229/justquestion.json", "label", 1.0),
    "binary-gpt-4": (_P + "gpt-4-0125-preview/justquestion.json", "label", 1.0),
    "binary-mixtral": (_P + "mixtral/justquestion.json", "label", 1.0),
    "cot-claude-3": (_P + "claude-3-opus-20240229/cot.json", "label", 1.0),
    "cot-gpt-4": (_P + "gpt-4-0125-preview/cot.json", "label", 1.0),
    "cot-mixtral": (_P + "mixtral/cot.json", "label", 1.0),
    "fables": (_P + "fables-gpt-4-turbo-preview.json", "label", 1.0),
    "minicheck": (_P + "minicheck-flan-t5-large.json", "label", 1.0),
    "unieval": (_P + "unieval.json", "probs", 1.0),
    "alignscore": (_P + "alignscore-roberta-large.json", "probs", 1.0),
    "binary-gpt-4-probability": (_P + "gpt-4-0125-preview/justquestion.json", "probs", 100.0),
}
PREDICTION_FILES: tuple[str, ...] = tuple(dict.fromkeys(f for f, _, _ in EVALUATORS.values()))
#: the evaluators the paper scores by a threshold tuned on the val split (scores, no label)
THRESHOLDED: tuple[str, ...] = ("unieval", "alignscore")
SELF_INCONSISTENT = {
    "8167058533589479g1cebe": "7 sentences, 6 sentence labels (all 1); the summary is labelled faithful (1), so "
                              "every sentence is consistent",
    "7911522387646974049i9mo1w": "labelled unfaithful (0) but no sentence is marked 0; its one explanation: ",
}
NO_REFERENCES = "StorySumm has no reference summaries"
#: MANIFEST.md's counts
COUNTS = {"records": 96, "faithful": 36, "unfaithful": 60, "difficulty": {"easy": 20, "hard": 40, "": 36},
          "sentences": 579, "sentence labels": 578, "consistent": 492, "inconsistent": 86, "stories": 32,
          "split": {("val", 0): 25, ("val", 1): 8, ("test", 0): 35, ("test", 1): 28}, "claims": 1148,
          "models": {"claude": 32, "gpt-4": 21, "gpt-3.5-turbo-instruct": 21, "text-davinci-003": 11, "chatGPT": 11},
          "label agrees": 94,
          "predicted 1/0": {"binary-claude-3": (91, 5), "cot-claude-3": (86, 10), "binary-gpt-4": (67, 29),
                            "cot-gpt-4": (90, 6), "binary-mixtral": (87, 9), "cot-mixtral": (93, 3), "fables": (53, 43),
                            "minicheck": (15, 81)}}


def evaluator_column(evaluator: str) -> str:
    """``"fables" -> "fables.faithful"``: the measure column of an evaluator's predictions."""
    return f"{evaluator}.faithful"


def read_storysumm() -> dict[str, dict[str, Any]]:
    """storysumm.json's 96 records, after the one-byte repair MANIFEST documents (module docstring).

    Raises:
        InputError: the file read is not the released one, the byte at :data:`STRAY_BYTE` is not ``"``, or
            the repaired text is not the one MANIFEST records (each names the file and both checksums).
    """
    from sumeval.datasets.registry import locate

    path = locate(DATA_FILE)
    raw = path.read_bytes()
    got = hashlib.sha256(raw).hexdigest()
    if got != RELEASED_SHA256:
        raise InputError(f"{path}: sha256 {got}, the released file's is {RELEASED_SHA256}; {FIX}")
    if raw[STRAY_BYTE:STRAY_BYTE + 1] != b'"':
        raise InputError(f"{path}: byte {STRAY_BYTE} is {raw[STRAY_BYTE:STRAY_BYTE + 1]!r}, the stray '\"' the "
                         f"repair deletes; {FIX}")
    fixed = raw[:STRAY_BYTE] + raw[STRAY_BYTE + 1:]
    got = hashlib.sha256(fixed).hexdigest()
    if got != REPAIRED_SHA256:
        raise InputError(f"{path}: the text less byte {STRAY_BYTE} has sha256 {got}, MANIFEST.md records "
                         f"{REPAIRED_SHA256}; {FIX}")
    data = json.loads(fixed.decode("ascii"))
    expect(path, "the number of records", len(data), COUNTS["records"])
    fields = ("label", "difficulty", "story", "summary", "errors", "story-id", "explanations", "claims", "split",
              "model")
    for key, r in data.items():
        if not isinstance(r, dict) or any(f not in r for f in fields) or r["label"] not in (0, 1) \
                or r["split"] not in ("val", "test") or not isinstance(r["summary"], list) \
                or not all(e in (0, 1) for e in r["errors"]):
            raise InputError(f"{path}: record {key!r} lacks one of {', '.join(fields)} or has a label, split or "
                             f"error outside the release's values; {FIX}")
    return data


def _predictions(ids: list[str]) -> dict[str, dict[str, float]]:
    """``{evaluator: {summary id: value}}`` of :data:`EVALUATORS`, each file keyed by exactly ``ids``."""
    files: dict[str, Any] = {}
    out: dict[str, dict[str, float]] = {}
    for name, (rel, field, divisor) in EVALUATORS.items():
        if rel not in files:
            files[rel] = read_json(rel)
        path, data = files[rel]
        if not isinstance(data, dict) or sorted(data) != sorted(ids):
            raise InputError(f"{path}: not keyed by the 96 StorySumm summary ids; {FIX}")
        vals = {}
        for key in ids:
            v = data[key].get(field) if isinstance(data[key], dict) else None
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (field == "label" and v not in (0, 1)):
                raise InputError(f"{path}: {key!r}: {field} {v!r} is not a number{' 0 or 1' * (field == 'label')}; "
                                 f"{FIX}")
            vals[key] = float(v) / divisor
        if name in COUNTS["predicted 1/0"]:
            ones = int(sum(vals.values()))
            expect(path, "the predicted labels 1/0", (ones, len(ids) - ones), COUNTS["predicted 1/0"][name])
        out[name] = vals
    return out


def load_storysumm() -> pd.DataFrame:
    """StorySumm as one frame, one row per summary (96, the file's order; the module docstring's columns).

    Raises:
        InputError: a file that is not the release's, or a count other than MANIFEST's.
    """
    from sumeval.datasets.registry import locate

    data = read_storysumm()
    ids = list(data)
    preds = _predictions(ids)
    rows = []
    for key in ids:
        r = data[key]
        n, errors = len(r["summary"]), r["errors"]
        rows.append({"doc_id": f"story-{r['story-id']}", "system": r["model"], "summary": " ".join(r["summary"]),
                     "text": r["story"], "faithful": float(r["label"]),
                     **{evaluator_column(e): preds[e][key] for e in EVALUATORS},
                     "split": r["split"], "difficulty": r["difficulty"], "story_id": r["story-id"],
                     "summary_id": key, "sentences": n, "inconsistent_sentences": errors.count(0),
                     "label_agrees": len(errors) == n and r["label"] == int(all(errors))})
    frame = pd.DataFrame(rows)
    path = locate(DATA_FILE)
    expect(path, "the number of faithful / unfaithful summaries", (int(frame["faithful"].sum()),
           int((frame["faithful"] == 0).sum())), (COUNTS["faithful"], COUNTS["unfaithful"]))
    expect(path, "the difficulty counts", dict(Counter(frame["difficulty"])), COUNTS["difficulty"])
    expect(path, "the (split, label) counts", dict(Counter(zip(frame["split"], frame["faithful"].astype(int)))),
           COUNTS["split"])
    expect(path, "the model counts", dict(Counter(frame["system"])), COUNTS["models"])
    expect(path, "the number of stories", frame["doc_id"].nunique(), COUNTS["stories"])
    expect(path, "the number of stories in both splits", int((frame.groupby("doc_id")["split"].nunique() > 1).sum()), 0)
    expect(path, "(sentences, sentence labels, inconsistent ones)",
           (int(frame["sentences"].sum()), sum(len(r["errors"]) for r in data.values()),
            int(frame["inconsistent_sentences"].sum())),
           (COUNTS["sentences"], COUNTS["sentence labels"], COUNTS["inconsistent"]))
    expect(path, "the number of claims", sum(len(r["claims"]) for r in data.values()), COUNTS["claims"])
    expect(path, "the records whose label is all(errors)", int(frame["label_agrees"].sum()), COUNTS["label agrees"])
    expect(path, "the records whose label is not all(errors)",
           sorted(frame.loc[~frame["label_agrees"], "summary_id"]), sorted(SELF_INCONSISTENT))
    return frame


def load_storysumm_sentences() -> pd.DataFrame:
    """StorySumm at the sentence level: one row per summary sentence, 579.

    Returns:
        pandas.DataFrame: ``doc_id, system, summary_id, split, sentence_index`` (0-based), ``sentence``,
        ``consistent`` (the release's ``errors``: 1 consistent, 0 not), ``explanation`` (the reason given for a
        0, in order; "" otherwise), ``note`` (for the two self-inconsistent records: how they are handled,
        the module docstring; "" otherwise).
    """
    data = read_storysumm()
    rows = []
    for key, r in data.items():
        sentences, errors = r["summary"], list(r["errors"])
        note = SELF_INCONSISTENT.get(key, "")
        if len(errors) != len(sentences):   # 8167058533589479g1cebe: faithful, so every sentence is consistent
            expect(DATA_FILE, f"the label of {key!r} (whose sentences and labels differ in number)", r["label"], 1)
            errors = [1] * len(sentences)
        if key == "7911522387646974049i9mo1w":
            note += repr(r["explanations"][0])
        reasons = iter(r["explanations"]) if 0 in errors else iter(())
        for i, (sentence, e) in enumerate(zip(sentences, errors)):
            rows.append({"doc_id": f"story-{r['story-id']}", "system": r["model"], "summary_id": key,
                         "split": r["split"], "sentence_index": i, "sentence": sentence, "consistent": float(e),
                         "explanation": next(reasons, "") if e == 0 else "", "note": note})
    out = pd.DataFrame(rows)
    expect(DATA_FILE, "the number of sentences", len(out), COUNTS["sentences"])
    expect(DATA_FILE, "the number of inconsistent sentences", int((out["consistent"] == 0).sum()),
           COUNTS["inconsistent"])
    expect(DATA_FILE, "the number of inconsistent sentences without an explanation",
           int(((out["consistent"] == 0) & (out["explanation"] == "")).sum()), 0)
    return out


def tune_threshold_notebook(scores: np.ndarray, labels: np.ndarray, num: int = 150) -> float:
    """The threshold of StorySumm's ``Results.ipynb`` (``tune_thresh``, melaniesubbiah/storysumm 22d47af2):
    the first of ``numpy.linspace(0, 1, num)`` whose rule ``score >= t -> faithful`` has the largest balanced
    accuracy on (``scores``, ``labels``) - the val split's. (The notebook then applies it as ``score > t``:
    :func:`evaluator_table` does the same.)"""
    from sumeval.stats.binary import balanced_accuracy

    best, best_t = 0.0, 0.0
    for t in np.linspace(0, 1, num):
        score = balanced_accuracy(scores, labels, t)
        if score > best:
            best, best_t = score, float(t)
    return best_t


def evaluator_table(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's meta-evaluation of the evaluators: StorySumm's README table (update of 2024-08-22), as
    ``Results.ipynb`` computes it, against the human ``faithful``.

    The 8 label evaluators on all 96 summaries; UniEval and AlignScore with the threshold of
    :func:`tune_threshold_notebook` tuned on the val split, applied (``score > t``) to val and to test.
    Per row: Cohen's kappa (:func:`sumeval.stats.agreement.cohen_kappa`, Cohen 1960), % predicted faithful,
    precision and recall of the faithful class (scikit-learn), % of the easy and of the hard (all unfaithful)
    summaries predicted unfaithful, and balanced accuracy (:func:`sumeval.stats.binary.balanced_accuracy`;
    Brodersen et al. 2010), with the notebook's rounding: kappa, precision, recall to 2 places, % faithful
    to 0, the others to 1.

    Returns:
        pandas.DataFrame: ``evaluator, split`` (``all``, ``val`` or ``test``), ``n, kappa, pct_faithful,
        precision, recall, pct_easy, pct_hard, balanced_accuracy, threshold`` (NaN for label evaluators).
    """
    from sklearn.metrics import precision_score, recall_score

    from sumeval.stats.agreement import cohen_kappa
    from sumeval.stats.binary import balanced_accuracy

    frame = load_storysumm() if frame is None else frame
    y = frame["faithful"].to_numpy(dtype=int)
    difficulty = frame["difficulty"].to_numpy()
    split = frame["split"].to_numpy()

    def row(name, part, pred, threshold):
        sel = np.ones(len(y), bool) if part == "all" else split == part
        p, t, d = pred[sel].astype(int), y[sel], difficulty[sel]
        return {"evaluator": name, "split": part, "n": int(sel.sum()), "kappa": round(cohen_kappa(t, p), 2),
                "pct_faithful": round(float(p.mean()) * 100), "precision": round(float(precision_score(t, p)), 2),
                "recall": round(float(recall_score(t, p)), 2),
                "pct_easy": round(100 - round(float(p[d == "easy"].mean()) * 100, 1), 1),
                "pct_hard": round(100 - round(float(p[d == "hard"].mean()) * 100, 1), 1),
                "balanced_accuracy": round(balanced_accuracy(p.astype(float), t, 0.5) * 100, 1),
                "threshold": threshold}

    rows = []
    for name in ("binary-claude-3", "binary-gpt-4", "binary-mixtral", "cot-claude-3", "cot-gpt-4", "cot-mixtral",
                 "fables", "minicheck"):
        rows.append(row(name, "all", frame[evaluator_column(name)].to_numpy(), np.nan))
    for name in THRESHOLDED:
        s = frame[evaluator_column(name)].to_numpy(dtype=float)
        t = tune_threshold_notebook(s[split == "val"], y[split == "val"])
        for part in ("val", "test"):
            rows.append(row(name, part, (s > t).astype(int), t))
    return pd.DataFrame(rows)


def storysumm_judgments():
    """The built-in data set ``storysumm`` (:func:`load_storysumm` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    cols = [evaluator_column(e) for e in EVALUATORS]
    return make_judgments(load_storysumm(), name="storysumm", relpaths=[DATA_FILE, *PREDICTION_FILES],
                          humans=("faithful",), measures=cols, opt_in=cols, limits={"references": NO_REFERENCES})
