"""FaithBench (Bao et al., NAACL 2025, "FaithBench: A Diverse Hallucination Benchmark for Summarization by
Modern LLMs"): hallucinations in 750 summaries written by 10 LLMs (2023-24), marked span by span by 14
annotators, with the predictions of 8 hallucination detectors and LLM judges.

**Licence: CC BY-NC-SA 4.0** - non-commercial use only; share-alike (anything derived from these files,
an export of this set included, must carry the same licence); attribution.

Files (``faithbench/``, from vectara/FaithBench cf89797d)::

    batch_{1..12,14,15,16}.json   {"samples": [50 x {sample_id, source, summary, annotations: [span, ...],
                                  metadata: {summarizer, 8 detector outputs, raw_sample_id}}]}
    FaithBench.csv                one row per (source, summary): source, summary, LLM, worst-label, best-label
    LICENSE                       CC BY-NC-SA 4.0

The built-in data set ``faithbench``: the 750 samples of the batch files = 75 sources x 10 LLMs; each batch
holds 5 sources x 10 LLMs. ``doc_id`` is ``batch<b>-source<k>`` (the k-th source of batch b in file order:
the sources have no ids), ``system`` the summarizer as the release names it (``openai/gpt-4o``, ...),
``text`` the source, ``summary`` the summary; no references. Columns:

* human ``consistent`` (1 consistent, 0 hallucinated): the repository's ``scripts/binarize.py`` with its
  shipped configuration: the labels of all the sample's spans, every annotator together, are pooled by
  severity (Benign 1 < Questionable 2 < Unwanted, Unwanted.Intrinsic, Unwanted.Extrinsic 3) taking the
  **worst** (most severe), and the sample is hallucinated (0) when that label is Questionable or Unwanted*,
  consistent (1) when it is Benign - :func:`binarize`. A sample **without a span is consistent** (1), as the
  script's comment ("the sample is consistent"), the README's taxonomy ("Consistent -- no annotations
  needed") and FaithBench.csv's worst-label ("Consistent") say; the script's code returns 0 there, which is
  its hallucinated class: a slip, not followed (it would turn the 175 span-less samples hallucinated). A
  span with no label (3 in the release) adds nothing; none of them is its sample's only span.
* humans ``worst_label`` and ``best_label``: FaithBench.csv's sample-level labels (the authors' worst and best
  pooling over annotators, best counting an annotator who marked nothing as Consistent) as an ordinal
  scale, higher = better: Unwanted 0, Questionable 1, Benign 2, Consistent 3 (:data:`LABEL_SCALE`); joined
  on (source, summary) text, 750 of 750.
* 8 **opt-in** measure columns ``<detector>.consistent`` (:data:`DETECTORS`, the release's names), each
  higher = consistent: ``hhemv1``, ``hhem-2.1``, ``hhem-2.1-english`` are scores 0-1, ``trueteacher`` and
  ``true_nli`` (NLI models) and ``gpt-3.5-turbo``, ``gpt-4-turbo``, ``gpt_4o`` (LLM judges) are labels 0/1;
  ``true_nli.consistent`` is NaN for the 2 samples the release has no prediction for.
* unused: ``batch``, ``sample_id`` (within its batch), ``raw_sample_id`` (unique), ``spans`` (how many) and
  ``annotators_marking`` (how many annotator names marked a span).

Levels: 10 LLMs summarise every source, so the input (per source), system (per LLM) and global levels
all apply.

Not here, with the reason (:attr:`Judgments.limits`, printed by ``sumeval data show faithbench``):

* **annotator columns**: the release records an annotator only where he or she marked a span; one who read
  a sample and marked nothing is not recorded, so a per-annotator "consistent" vote cannot be rebuilt (the
  batches' annotator sets do not tell either: assuming every annotator of a batch read all its samples
  reproduces best-label for only 681 of the 750). The annotators stay at the span level:
  :func:`load_faithbench_spans`, one row per span with its ``annotator_name`` (14 names over 42
  ``annotator_id``\\ s, one name per id: the name is the person).
* **50 rows of FaithBench.csv** (5 sources x 10 LLMs, one batch's worth; batch 13 is not released) are in
  no batch file: no spans, no detectors' predictions; :func:`load_faithbench_unjoined` lists them.
* references: the sources were summarised without reference summaries.

The paper reports the detectors' balanced accuracy and F1 on these labels; the paper's tables could not be
read here, so :func:`detector_table` computes them from the predictions (the README says so: computed, not
compared), and the tests pin the label statistics against MANIFEST's counts.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_csv, read_json
from sumeval.errors import InputError

__all__ = ["BATCHES", "BATCH_FILES", "CSV_FILE", "DETECTORS", "SEVERITY", "LABEL_SCALE", "HALLUCINATED",
           "binarize", "detector_column", "load_faithbench", "load_faithbench_spans", "load_faithbench_unjoined",
           "detector_table", "faithbench_judgments"]

#: the released batches (13 is not)
BATCHES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16)
BATCH_FILES: tuple[str, ...] = tuple(f"faithbench/batch_{b}.json" for b in BATCHES)
CSV_FILE = "faithbench/FaithBench.csv"
LICENSE_FILE = "faithbench/LICENSE"
#: the detectors and LLM judges of the release's metadata, in its order
DETECTORS: tuple[str, ...] = ("hhemv1", "hhem-2.1", "hhem-2.1-english", "trueteacher", "true_nli",
                              "gpt-3.5-turbo", "gpt-4-turbo", "gpt_4o")
#: the detectors whose output is a score in [0, 1] (the others give 0/1 labels)
SCORED: tuple[str, ...] = ("hhemv1", "hhem-2.1", "hhem-2.1-english")
#: scripts/binarize.py's severity of each span label (higher = more severe)
SEVERITY: dict[str, int] = {"Benign": 1, "Questionable": 2, "Unwanted": 3, "Unwanted.Intrinsic": 3,
                            "Unwanted.Extrinsic": 3}
#: the shipped configuration's hallucinated classes (the severities that make a sample hallucinated)
HALLUCINATED: frozenset[int] = frozenset({2, 3})
#: FaithBench.csv's labels as the ordinal human columns worst_label / best_label (higher = better)
LABEL_SCALE: dict[str, float] = {"Unwanted": 0.0, "Questionable": 1.0, "Benign": 2.0, "Consistent": 3.0}
NO_REFERENCES = "FaithBench has no reference summaries (the sources were summarised without them)"
NO_ANNOTATORS = ("the release records an annotator only where he or she marked a span, so a per-annotator "
                 "'consistent' vote cannot be rebuilt; the spans, each with its annotator_name, are "
                 "sumeval.datasets.load_faithbench_spans()")
UNJOINED = ("they are in no released batch (5 sources x 10 LLMs, one batch's worth; batch 13 is not released): "
            "no spans, no detectors' predictions; sumeval.datasets.load_faithbench_unjoined() lists them with "
            "their labels")
#: MANIFEST.md's counts
COUNTS = {"samples": 750, "sources": 75, "per LLM": 75, "LLMs": 10, "spans": 2189, "without span": 175,
          "names per sample": {0: 175, 1: 132, 2: 262, 3: 174, 4: 7}, "annotator names": 14, "annotator ids": 42,
          "span text matches": 2189, "source spans": 981, "unlabelled spans": 3, "true_nli null": 2,
          "csv rows": 800, "csv sources": 80, "joined": 750,
          "worst-label": {"Unwanted": 485, "Consistent": 174, "Questionable": 77, "Benign": 64},
          "best-label": {"Consistent": 471, "Benign": 199, "Unwanted": 65, "Questionable": 65},
          "worst agrees": 746, "best agrees": 460, "best Consistent with spans": 290}


def detector_column(detector: str) -> str:
    """``"gpt_4o" -> "gpt_4o.consistent"``: the measure column of a detector's predictions."""
    return f"{detector}.consistent"


def binarize(span_labels: Sequence[Sequence[str]]) -> int:
    """The sample-level label of FaithBench's ``scripts/binarize.py`` (vectara/FaithBench cf89797d,
    ``get_sample_level_label``) with its shipped configuration: worst pooling, Questionable and Unwanted*
    hallucinated.

    Args:
        span_labels: one list of labels per span of the sample (every annotator's), e.g.
            ``[["Benign"], ["Unwanted", "Unwanted.Intrinsic"]]``; an empty list is a span without a label.

    Returns:
        0 (hallucinated) when the most severe label (:data:`SEVERITY`) is Questionable or Unwanted*; 1
        (consistent) when it is Benign, and when no span has a label (the script's comment and the
        paper's taxonomy: see the module docstring for the script's ``return 0`` there).

    >>> binarize([["Benign"], ["Questionable"]]), binarize([["Benign"]]), binarize([])
    (0, 1, 1)
    """
    severities = {SEVERITY[label] for labels in span_labels for label in labels}
    if not severities:
        return 1
    return 0 if max(severities) in HALLUCINATED else 1


def _spans_of(path, i: int, sample: dict) -> list[dict]:
    """The checked spans of one sample (span fields as released)."""
    spans = sample.get("annotations")
    if not isinstance(spans, list):
        raise InputError(f"{path}: sample {i} has no list of annotations; {FIX}")
    for a in spans:
        if not isinstance(a, dict) or not isinstance(a.get("label"), list) \
                or any(lab not in SEVERITY for lab in a["label"]) or not isinstance(a.get("annotator_name"), str):
            raise InputError(f"{path}: sample {i}: span {a.get('annot_id') if isinstance(a, dict) else a!r} "
                             f"has no annotator_name or a label outside {sorted(SEVERITY)}; {FIX}")
    return spans


def _samples() -> list[dict[str, Any]]:
    """Every sample of the 15 batch files, checked, with ``batch`` added, in file order."""
    out = []
    for b, rel in zip(BATCHES, BATCH_FILES):
        path, data = read_json(rel)
        samples = data.get("samples") if isinstance(data, dict) else None
        if not isinstance(samples, list):
            raise InputError(f"{path}: not {{\"samples\": [...]}}; {FIX}")
        expect(path, "the number of samples", len(samples), 50)
        for i, s in enumerate(samples):
            meta = s.get("metadata") if isinstance(s, dict) else None
            if not isinstance(meta, dict) or not all(isinstance(s.get(k), str) for k in ("source", "summary")) \
                    or any(d not in meta for d in DETECTORS) or not isinstance(meta.get("summarizer"), str):
                raise InputError(f"{path}: sample {i} lacks source, summary or metadata {{summarizer, "
                                 f"{', '.join(DETECTORS)}}}; {FIX}")
            for d in DETECTORS:
                v = meta[d]
                if v is None and d == "true_nli":  # the schema's one Optional detector
                    continue
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not (
                        0 <= v <= 1 if d in SCORED else v in (0, 1)):
                    raise InputError(f"{path}: sample {i}: {d} = {v!r} is not "
                                     f"{'a score 0-1' if d in SCORED else 'a label 0 or 1'}; {FIX}")
            _spans_of(path, i, s)
            out.append({**s, "batch": b, "path": path})
        expect(path, "the number of sources", len({s["source"] for s in samples}), 5)
    return out


def _csv_rows() -> tuple[Any, list[tuple[int, dict[str, str]]]]:
    path, rows = read_csv(CSV_FILE, ["source", "summary", "LLM", "worst-label", "best-label"])
    for lineno, r in rows:
        for col in ("worst-label", "best-label"):
            if r[col] not in LABEL_SCALE:
                raise InputError(f"{path}:{lineno}: {col} {r[col]!r} is not one of {', '.join(LABEL_SCALE)}; {FIX}")
    expect(path, "the number of rows", len(rows), COUNTS["csv rows"])
    expect(path, "the number of sources", len({r["source"] for _, r in rows}), COUNTS["csv sources"])
    for col in ("worst-label", "best-label"):
        expect(path, f"the {col} counts", dict(Counter(r[col] for _, r in rows)), COUNTS[col])
    return path, rows


def load_faithbench() -> pd.DataFrame:
    """FaithBench as one frame, one row per sample (750; the module docstring's columns), in batch order.

    Raises:
        InputError: a file that is not the release's shape, or a count other than MANIFEST's (each error
            names the file, what was counted, the count and MANIFEST's).
    """
    samples = _samples()
    first = samples[0]["path"]
    expect(first.parent, "the number of samples", len(samples), COUNTS["samples"])
    llms = Counter(s["metadata"]["summarizer"] for s in samples)
    expect(first.parent, "the number of LLMs", len(llms), COUNTS["LLMs"])
    expect(first.parent, "the samples per LLM", set(llms.values()), {COUNTS["per LLM"]})
    cpath, crows = _csv_rows()
    by_text = {(r["source"], r["summary"]): r for _, r in crows}
    rows, source_ids, agree = [], {}, Counter()
    for s in samples:
        b = s["batch"]
        if (b, s["source"]) not in source_ids:
            source_ids[(b, s["source"])] = f"batch{b}-source{sum(1 for k in source_ids if k[0] == b) + 1}"
        doc = source_ids[(b, s["source"])]
        labels = [a["label"] for a in s["annotations"]]
        joined = by_text.get((s["source"], s["summary"]))
        if joined:
            worst, best = _pooled(labels)
            agree["worst"] += worst == joined["worst-label"]
            agree["best"] += best == joined["best-label"]
            agree["best Consistent"] += best != joined["best-label"] and joined["best-label"] == "Consistent"
        meta = s["metadata"]
        rows.append({"doc_id": doc, "system": meta["summarizer"], "summary": s["summary"], "text": s["source"],
                     "consistent": float(binarize(labels)),
                     "worst_label": LABEL_SCALE[joined["worst-label"]] if joined else np.nan,
                     "best_label": LABEL_SCALE[joined["best-label"]] if joined else np.nan,
                     **{detector_column(d): np.nan if meta[d] is None else float(meta[d]) for d in DETECTORS},
                     "batch": b, "sample_id": s["sample_id"], "raw_sample_id": meta["raw_sample_id"],
                     "spans": len(labels),
                     "annotators_marking": len({a["annotator_name"] for a in s["annotations"]})})
    frame = pd.DataFrame(rows)
    where = first.parent
    expect(where, "the number of sources", frame["doc_id"].nunique(), COUNTS["sources"])
    expect(where, "the number of raw_sample_ids", frame["raw_sample_id"].nunique(), COUNTS["samples"])
    expect(where, "the number of spans", int(frame["spans"].sum()), COUNTS["spans"])
    expect(where, "the number of samples without a span", int((frame["spans"] == 0).sum()), COUNTS["without span"])
    expect(where, "the samples by how many annotator names marked a span",
           dict(sorted(Counter(frame["annotators_marking"]).items())), COUNTS["names per sample"])
    expect(where, "the number of true_nli nulls", int(frame[detector_column("true_nli")].isna().sum()),
           COUNTS["true_nli null"])
    expect(cpath, "the number of rows joined to a batch sample", int(frame["worst_label"].notna().sum()),
           COUNTS["joined"])
    expect(cpath, "the number of worst-labels equal to the most severe span label", agree["worst"],
           COUNTS["worst agrees"])
    expect(cpath, "(best-labels equal to the least severe span label, the others Consistent)",
           (agree["best"], agree["best Consistent"]), (COUNTS["best agrees"], COUNTS["best Consistent with spans"]))
    return frame


def _pooled(span_labels: Sequence[Sequence[str]]) -> tuple[str, str]:
    """``(worst, best)`` label name of a sample's spans (FaithBench.csv's names; "Consistent" without a
    labelled span): the most and least severe of :data:`SEVERITY`, Unwanted* read as Unwanted."""
    sev = sorted({SEVERITY[lab] for labels in span_labels for lab in labels})
    names = {1: "Benign", 2: "Questionable", 3: "Unwanted"}
    return (names[sev[-1]], names[sev[0]]) if sev else ("Consistent", "Consistent")


def load_faithbench_spans() -> pd.DataFrame:
    """FaithBench at the span level: one row per marked span, 2,189, in the batches' order.

    Returns:
        pandas.DataFrame: ``doc_id, system`` (as :func:`load_faithbench`), ``batch, sample_id, annot_id,
        annotator_name, annotator_id``, ``label`` (the span's labels joined by ``,``; ``""`` for the 3 spans
        without one), ``severity`` (the most severe of them, :data:`SEVERITY`; NaN without a label),
        ``hallucinated`` (1.0 when that is Questionable or Unwanted*, 0.0 for Benign, NaN without a label),
        ``note, summary_span, summary_start, summary_end, source_span, source_start, source_end`` (the
        source fields None / NaN where the annotator linked no source text).

    Raises:
        InputError: a count other than MANIFEST's (spans, names, ids, offsets that do not give the span).
    """
    frame = load_faithbench()
    keys = dict(zip(zip(frame["batch"], frame["sample_id"]), zip(frame["doc_id"], frame["system"])))
    rows = []
    for s in _samples():
        doc, system = keys[(s["batch"], s["sample_id"])]
        for a in s["annotations"]:
            sev = [SEVERITY[lab] for lab in a["label"]]
            rows.append({"doc_id": doc, "system": system, "batch": s["batch"], "sample_id": s["sample_id"],
                         "annot_id": a.get("annot_id"), "annotator_name": a["annotator_name"],
                         "annotator_id": a.get("annotator_id"), "label": ",".join(a["label"]),
                         "severity": float(max(sev)) if sev else np.nan,
                         "hallucinated": (float(max(sev) in HALLUCINATED) if sev else np.nan),
                         "note": a.get("note"), "summary_span": a.get("summary_span"),
                         "summary_start": a.get("summary_start"), "summary_end": a.get("summary_end"),
                         "source_span": a.get("source_span"), "source_start": a.get("source_start"),
                         "source_end": a.get("source_end"),
                         "_matches": (isinstance(a.get("summary_start"), int) and isinstance(a.get("summary_end"), int)
                                      and s["summary"][a["summary_start"]:a["summary_end"]] == a.get("summary_span"))})
    spans = pd.DataFrame(rows)
    where = locate_folder()
    expect(where, "the number of spans", len(spans), COUNTS["spans"])
    expect(where, "the number of spans whose summary[start:end] is the span", int(spans.pop("_matches").sum()),
           COUNTS["span text matches"])
    expect(where, "the number of spans with a source span", int(spans["source_span"].notna().sum()),
           COUNTS["source spans"])
    expect(where, "the number of spans without a label", int((spans["label"] == "").sum()), COUNTS["unlabelled spans"])
    expect(where, "the number of annotator names", spans["annotator_name"].nunique(), COUNTS["annotator names"])
    expect(where, "the number of annotator ids", spans["annotator_id"].nunique(), COUNTS["annotator ids"])
    expect(where, "the largest number of names per annotator id",
           int(spans.groupby("annotator_id")["annotator_name"].nunique().max()), 1)
    return spans


def locate_folder():
    """The ``faithbench/`` folder in use (for messages)."""
    from sumeval.datasets.registry import locate

    return locate(BATCH_FILES[0]).parent


def load_faithbench_unjoined() -> pd.DataFrame:
    """The 50 rows of FaithBench.csv that are in no released batch (5 sources x 10 LLMs, one batch's worth).

    Returns:
        pandas.DataFrame, 50 rows in the file's order: ``source, summary, LLM, worst_label, best_label``
        (the labels as written: Consistent, Benign, Questionable, Unwanted).
    """
    cpath, crows = _csv_rows()
    batch_texts = {(s["source"], s["summary"]) for s in _samples()}
    rest = [r for _, r in crows if (r["source"], r["summary"]) not in batch_texts]
    out = pd.DataFrame([{"source": r["source"], "summary": r["summary"], "LLM": r["LLM"],
                         "worst_label": r["worst-label"], "best_label": r["best-label"]} for r in rest])
    expect(cpath, "the number of rows in no batch", len(out), COUNTS["csv rows"] - COUNTS["joined"])
    expect(cpath, "(sources, LLMs) of the rows in no batch", (out["source"].nunique(), out["LLM"].nunique()),
           (5, COUNTS["LLMs"]))
    return out


def detector_table(frame: pd.DataFrame | None = None, threshold: float = 0.5) -> pd.DataFrame:
    """Each detector's balanced accuracy and F1 against the human label ``consistent`` (the paper's
    metrics; Bao et al. 2025, section 4), over the samples it has a prediction for.

    A score detector (HHEM, 0-1) predicts consistent when its score is >= ``threshold`` (0.5, HHEM's own
    cut-off); the others' 0/1 labels are taken as they are (the same rule with 0.5). Balanced accuracy is
    :func:`sumeval.stats.binary.balanced_accuracy` (Brodersen et al. 2010: the mean of the two classes'
    recalls); F1 is scikit-learn's ``f1_score``: of the hallucinated class (the class detected) and the
    macro mean of both classes' F1.

    Args:
        frame: :func:`load_faithbench`'s frame (loaded when None).
        threshold: the score cut-off for the HHEM scores.

    Returns:
        pandas.DataFrame, one row per detector (:data:`DETECTORS` order): ``detector, n`` (samples with a
        prediction), ``n_missing``, ``balanced_accuracy``, ``f1_hallucinated``, ``f1_macro`` (fractions 0-1),
        ``predicted_consistent`` (share).
    """
    from sklearn.metrics import f1_score

    from sumeval.stats.binary import balanced_accuracy

    frame = load_faithbench() if frame is None else frame
    y = frame["consistent"].to_numpy(dtype=float)
    rows = []
    for d in DETECTORS:
        s = frame[detector_column(d)].to_numpy(dtype=float)
        keep = ~np.isnan(s)
        pred = (s[keep] >= threshold).astype(int)
        truth = y[keep].astype(int)
        rows.append({"detector": d, "n": int(keep.sum()), "n_missing": int((~keep).sum()),
                     "balanced_accuracy": balanced_accuracy(s[keep], truth, threshold),
                     "f1_hallucinated": float(f1_score(truth, pred, pos_label=0)),
                     "f1_macro": float(f1_score(truth, pred, average="macro")),
                     "predicted_consistent": float(pred.mean())})
    return pd.DataFrame(rows)


def faithbench_judgments():
    """The built-in data set ``faithbench`` (:func:`load_faithbench` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    frame = load_faithbench()
    detectors = [detector_column(d) for d in DETECTORS]
    return make_judgments(
        frame, name="faithbench", relpaths=[*BATCH_FILES, CSV_FILE],
        humans=("consistent", "worst_label", "best_label"), measures=detectors, opt_in=detectors,
        limits={"references": NO_REFERENCES, "annotator columns": NO_ANNOTATORS,
                "include 50 of FaithBench.csv's 800 rows": UNJOINED})
