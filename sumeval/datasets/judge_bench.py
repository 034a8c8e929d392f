"""Judge-Bench's JSON format (Bavaresco et al. 2025, "LLMs instead of Human Judges? A Large Scale Empirical Study
across 20 NLP Evaluation Tasks"; dmg-illc/JUDGE-BENCH ``data/README.md`` and ``llm_metaeval/data/dataclasses.py``):
read, checked, turned into a judgments frame, and written from one.

A Judge-Bench file is one JSON object::

    {"dataset": str, "dataset_url": str, "expert_annotator": "true" | "false" | "unknown", "original_prompt": bool,
     "annotations": [{"metric": str, "category": "graded" | "continuous" | "categorical",
                      "prompt": "... {{ instance }}" (a Jinja template; instance = the instance's text),
                      "worst": number, "best": number}, ...],
     "instances": [{"id": int | str, "instance": str,
                    "annotations": {metric: {"mean_human": number, "majority_human": int (only where more than
                                                half of the raters agree), "individual_human_scores": [...]}}}]}

Judge-Bench aggregates ``graded`` and ``continuous`` scores by the mean and ``categorical`` labels by majority
vote (its ``data/README.md``, "Types of variables and aggregation method"); the mean it stores is rounded to 2
decimals (``round(statistics.mean(scores), 2)``, its ``data/newsroom/convert.py``), so a sumeval human column is
recomputed from the individual scores, never read from ``mean_human``.

In sumeval's judgments shape (:func:`read_table`, used for ``.json`` judgments files: ``sumeval data add NAME
file.json``, ``load_judgments("file.json", human=...)``) an instance is one row: human column ``<metric>`` = the
mean of the individual scores, annotator columns ``<metric>/rater_k`` = the k-th individual score (k from 1; a
*slot*: Judge-Bench keeps no rater ids), ``summary`` and ``text`` from an instance written as Newsroom's
(``### Generated Summary`` ... ``### Source Article`` ...), else ``summary`` = the whole instance text.
``doc_id`` and ``system`` are the instance's extra fields of those names where present (sumeval's export writes
them; Judge-Bench's own reader ignores fields it does not declare), else ``doc_id`` = the instance id and one
system, ``judge-bench`` (so only the global level applies). Only ``graded`` and ``continuous`` annotations are
read; a ``categorical`` one is refused (its labels are not numbers).

:func:`export_judge_bench` writes a judgments data set in the format (``sumeval data export NAME -o FILE.json``).
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Mapping

__all__ = ["CATEGORIES", "SUMMARY_HEAD", "SOURCE_HEAD", "SYSTEM", "rater_column", "parse_judge_bench",
           "split_instance", "instance_text", "judge_bench_rows", "read_table", "to_judge_bench",
           "export_judge_bench"]

#: the annotation categories Judge-Bench declares (dataclasses.py: ``Literal["graded", "categorical", "continuous"]``)
CATEGORIES: tuple[str, ...] = ("graded", "continuous", "categorical")
#: the heads of an instance text as Judge-Bench's Newsroom conversion writes it (convert.py, generate_prompt)
SUMMARY_HEAD = "### Generated Summary\n\n"
SOURCE_HEAD = "\n\n### Source Article\n\n"
#: the system of every row read from a file whose instances carry no ``system``
SYSTEM = "judge-bench"
_EXPERT = ("true", "false", "unknown")


def rater_column(metric: str, k: int) -> str:
    """``("coherence", 1) -> "coherence/rater_1"``: the k-th individual score of a metric (k from 1; a slot)."""
    return f"{metric}/rater_{k}"


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def parse_judge_bench(data: Any, where: str, fix: str = "give a file in Judge-Bench's schema") -> dict[str, Any]:
    """``data`` (a parsed Judge-Bench JSON object) checked against the schema; returned as it is.

    Checked: the top-level fields and their types; each annotation's metric (unique), category, prompt (with the
    ``{{ instance }}`` slot) and, unless categorical, ``worst`` and ``best`` numbers; each instance's id (unique),
    text (a string: an instance given as a dict of texts is refused), and for each declared metric it has:
    ``individual_human_scores`` a non-empty list of numbers within [worst, best] (either order), ``mean_human`` a
    number within 0.005 of their mean (Judge-Bench rounds it to 2 decimals), ``majority_human`` (where present) the
    value more than half of them gave. A metric an instance has that no annotation declares is an error.

    Raises :class:`~sumeval.errors.InputError` naming ``where``, the instance id and the field.
    """
    from sumeval.errors import InputError

    def bad(what: str) -> InputError:
        return InputError(f"{where}: {what}; {fix}")

    if not isinstance(data, dict):
        raise bad(f"the top level is {type(data).__name__}, Judge-Bench's is an object")
    need = {"dataset": str, "dataset_url": str, "annotations": list, "instances": list}
    for key, kind in need.items():
        if not isinstance(data.get(key), kind):
            raise bad(f"field {key!r} is {type(data.get(key)).__name__ if key in data else 'missing'}, "
                      f"expected {kind.__name__}")
    if "expert_annotator" in data and data["expert_annotator"] not in _EXPERT:
        raise bad(f"expert_annotator {data['expert_annotator']!r} is not one of {', '.join(_EXPERT)}")
    declared = _declared_metrics(data["annotations"], bad)
    if not declared:
        raise bad("no annotations are declared")
    if not data["instances"]:
        raise bad("no instances")
    ids: set = set()
    for n, inst in enumerate(data["instances"]):
        _check_instance(n, inst, ids, declared, bad)
    return data


def _check_instance(n: int, inst: Any, ids: set, declared: dict[str, dict], bad) -> None:
    """Instance ``n`` of a Judge-Bench file (:func:`parse_judge_bench`): an object with a new id (added to
    ``ids``), one text, and annotations of ``declared`` metrics only, each metric's scores checked."""
    at = f"instances[{n}]"
    if not isinstance(inst, dict):
        raise bad(f"{at} is {type(inst).__name__}, not an object")
    iid = inst.get("id")
    if isinstance(iid, bool) or not isinstance(iid, (int, str)):
        raise bad(f"{at}: id {iid!r} is not an integer or a string")
    at = f"instance id {iid!r}"
    if iid in ids:
        raise bad(f"{at} appears twice")
    ids.add(iid)
    if not isinstance(inst.get("instance"), str):
        raise bad(f"{at}: 'instance' is {type(inst.get('instance')).__name__}, sumeval reads one text (a "
                  "string)")
    anns = inst.get("annotations")
    if not isinstance(anns, dict) or not anns:
        raise bad(f"{at}: 'annotations' is not a non-empty object")
    for metric, scores in anns.items():
        if metric not in declared:
            raise bad(f"{at}: metric {metric!r} is not declared in 'annotations' ({', '.join(declared)})")
        if declared[metric]["category"] == "categorical":
            continue
        _check_scores(scores, declared[metric], f"{at}, {metric}", bad)


def _declared_metrics(annotations: list, bad) -> dict[str, dict]:
    """Each annotation of a Judge-Bench file by its metric, checked (see :func:`parse_judge_bench`)."""
    declared: dict[str, dict] = {}
    for i, ann in enumerate(annotations):
        at = f"annotations[{i}]"
        if not isinstance(ann, dict) or not isinstance(ann.get("metric"), str) or not ann["metric"].strip():
            raise bad(f"{at} has no metric name")
        metric = ann["metric"]
        if metric in declared:
            raise bad(f"{at}: metric {metric!r} is declared twice")
        if ann.get("category") not in CATEGORIES:
            raise bad(f"{at} ({metric}): category {ann.get('category')!r} is not one of {', '.join(CATEGORIES)}")
        if not isinstance(ann.get("prompt"), str) or not re.search(r"\{\{\s*instance\s*\}\}", ann["prompt"]):
            raise bad(f"{at} ({metric}): the prompt has no Jinja slot {{{{ instance }}}} for the instance's text")
        if ann["category"] != "categorical" and not (_number(ann.get("worst")) and _number(ann.get("best"))
                                                     and ann["worst"] != ann["best"]):
            raise bad(f"{at} ({metric}): worst {ann.get('worst')!r} and best {ann.get('best')!r} must be two "
                      "different numbers")
        declared[metric] = ann
    return declared


def _check_scores(scores: Any, ann: Mapping[str, Any], at: str, bad) -> None:
    """One instance's scores of a graded / continuous metric (see :func:`parse_judge_bench`)."""
    if not isinstance(scores, dict):
        raise bad(f"{at}: the scores are {type(scores).__name__}, not an object")
    ind = scores.get("individual_human_scores")
    lo, hi = sorted((ann["worst"], ann["best"]))
    if not isinstance(ind, list) or not ind or not all(_number(s) and lo <= s <= hi for s in ind):
        raise bad(f"{at}: individual_human_scores {ind!r} is not a non-empty list of numbers within "
                  f"[{lo}, {hi}] (worst, best)")
    if ann["category"] == "graded" and not all(float(s).is_integer() for s in ind):
        raise bad(f"{at}: individual_human_scores {ind!r} of a graded metric are not whole numbers")
    mean = sum(ind) / len(ind)
    if "mean_human" in scores and (not _number(scores["mean_human"]) or abs(scores["mean_human"] - mean) > 0.005):
        raise bad(f"{at}: mean_human {scores['mean_human']!r} is not the mean of {ind} ({mean:.4f}) to 2 decimals")
    if "majority_human" in scores:
        top = max(ind.count(v) for v in ind)
        winners = {v for v in ind if ind.count(v) == top}
        if not (top > len(ind) / 2 and scores["majority_human"] in winners):
            raise bad(f"{at}: majority_human {scores['majority_human']!r} is not a value more than half of "
                      f"{ind} gave")


def split_instance(text: str) -> tuple[str, str | None]:
    """``(summary, source)`` of an instance text written as Newsroom's (``### Generated Summary`` summary
    ``### Source Article`` source); ``(text, None)`` for any other text."""
    if text.startswith(SUMMARY_HEAD) and SOURCE_HEAD in text:
        summary, _, source = text[len(SUMMARY_HEAD):].partition(SOURCE_HEAD)
        return summary, source
    return text, None


def instance_text(summary: str, source: str | None) -> str:
    """The instance text of a summary and its source, as Judge-Bench's Newsroom (the inverse of
    :func:`split_instance`); the summary alone when there is no source."""
    return summary if source is None else f"{SUMMARY_HEAD}{summary}{SOURCE_HEAD}{source}"


def judge_bench_rows(data: Mapping[str, Any], where: str = "Judge-Bench file"
                     ) -> tuple[list[str], list[dict[str, Any]]]:
    """``(header, rows)``: one judgments row per instance of a checked Judge-Bench object (see the module
    docstring). Human columns are the declared graded / continuous metrics (declaration order); a metric an
    instance lacks is absent (None) in its row; the rater columns run to the most scores any instance has."""
    from sumeval.errors import InputError

    metrics = [a["metric"] for a in data["annotations"]]
    cat = [a["metric"] for a in data["annotations"] if a["category"] == "categorical"]
    if cat:
        raise InputError(f"{where}: Judge-Bench metric(s) {', '.join(map(repr, cat))} are categorical "
                         "(labels, aggregated by "
                         "majority vote); a judgments data set holds numbers: convert the labels to numbers and "
                         "declare the metric graded")
    width = {m: max((len(i["annotations"][m]["individual_human_scores"]) for i in data["instances"]
                     if m in i["annotations"]), default=0) for m in metrics}
    rows = []
    for inst in data["instances"]:
        summary, source = split_instance(inst["instance"])
        row: dict[str, Any] = {"doc_id": inst.get("doc_id", inst["id"]), "system": inst.get("system", SYSTEM),
                               "summary": summary}
        if source is not None:
            row["text"] = source
        if "references" in inst:
            row["references"] = inst["references"]
        for m in metrics:
            ind = inst["annotations"].get(m, {}).get("individual_human_scores")
            row[m] = None if ind is None else sum(ind) / len(ind)
            for k in range(width[m]):
                row[rater_column(m, k + 1)] = ind[k] if ind is not None and k < len(ind) else None
        rows.append(row)
    header = ["doc_id", "system", "summary", *(["text"] if any("text" in r for r in rows) else []),
              *(["references"] if any("references" in r for r in rows) else []),
              *(c for m in metrics for c in (m, *(rater_column(m, k + 1) for k in range(width[m]))))]
    return header, rows


def read_table(path: Path, data: bytes):
    """The rows of a Judge-Bench ``.json`` judgments file, as :func:`sumeval.datasets.judgment_files.read_table`
    returns a file's (each row's location: ``file.json: instance id N``)."""
    from sumeval.datasets.table_rows import TableRows, decode_text
    from sumeval.errors import InputError

    try:
        obj = json.loads(decode_text(path, data))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg}); a .json judgments file is Judge-Bench's "
                         "format (one object with 'annotations' and 'instances')") from None
    parse_judge_bench(obj, str(path))
    header, rows = judge_bench_rows(obj, str(path))
    return TableRows(header, rows, [f"{path}: instance id {i['id']!r}" for i in obj["instances"]], text_cells=False)


def _majority(scores: list) -> Any:
    """The value more than half of ``scores`` gave, else None (Judge-Bench's compute_majority_vote, convert.py)."""
    for v in scores:
        if scores.count(v) > len(scores) / 2:
            return v
    return None


def _plain_number(x: float) -> int | float:
    """A whole float as an int (Judge-Bench's individual scores of a graded metric are ints), else the float."""
    return int(x) if float(x).is_integer() else float(x)


def to_judge_bench(judgments, *, dataset_url: str | None = None) -> dict[str, Any]:
    """The Judge-Bench object of a judgments data set: one annotation per human column, one instance per row.

    * annotation: ``metric`` = the human column, ``category`` ``graded`` when every individual score is a whole
      number, else ``continuous``; ``worst`` / ``best`` = the lowest / highest individual score in the data set
      (sumeval records no scale, so the observed range: say so in a benchmark's own declaration if it differs);
      ``prompt`` = a plain question with the Jinja slot ``{{ instance }}``.
    * instance: ``id`` 1..n in row order; ``instance`` = :func:`instance_text` (summary, and the source when the
      set has texts); ``annotations[human]`` = ``individual_human_scores`` (the annotator columns' values in their
      order, NaN left out; a human column without annotators gives its own value as the one score),
      ``mean_human`` (their mean, rounded to 2 decimals as Judge-Bench does), ``majority_human`` where more than half
      agree (graded only). A row with no score for a human column has no entry for it.
    * extra fields ``doc_id``, ``system`` (and ``references`` when the set has them), which Judge-Bench's reader
      ignores and :func:`read_table` reads back, so an export imports to the same rows.

    A human column whose value is not the mean of its annotators (DialSummEval's paper rule, QAGS' majorities)
    exports the annotators; importing it back gives their mean, not that column.
    """
    import numpy as np

    frame = judgments.frame
    if not judgments.humans:
        from sumeval.errors import InputError

        raise InputError(f"data set {judgments.name!r} has no human columns to export as Judge-Bench annotations")
    raters = {h: list(judgments.annotators.get(h, ())) or [h] for h in judgments.humans}
    annotations = []
    for h, cols in raters.items():
        vals = frame[cols].to_numpy(dtype=float)
        vals = vals[~np.isnan(vals)]
        graded = bool(vals.size) and bool(np.all(vals == np.round(vals)))
        lo, hi = (float(vals.min()), float(vals.max())) if vals.size else (0.0, 1.0)
        if lo == hi:
            hi = lo + 1
        lo, hi = (_plain_number(lo), _plain_number(hi)) if graded else (lo, hi)
        annotations.append({"metric": h, "category": "graded" if graded else "continuous",
                            "prompt": f"On a scale of {lo} (worst) to {hi} (best), rate the {h} of the summary."
                                      "\n\n{{ instance }}",
                            "worst": lo, "best": hi})
    graded_of = {a["metric"]: a["category"] == "graded" for a in annotations}
    has_text = "text" in frame.columns
    instances = []
    for n, row in enumerate(frame.to_dict("records"), 1):
        anns = {}
        for h, cols in raters.items():
            ind = [_plain_number(row[c]) if graded_of[h] else float(row[c]) for c in cols
                   if row[c] is not None and not (isinstance(row[c], float) and math.isnan(row[c]))]
            if not ind:
                continue
            scores: dict[str, Any] = {"mean_human": round(sum(ind) / len(ind), 2)}
            majority = _majority(ind) if graded_of[h] else None
            if majority is not None:
                scores["majority_human"] = majority
            scores["individual_human_scores"] = ind
            anns[h] = scores
        inst: dict[str, Any] = {"id": n, "instance": instance_text(str(row.get("summary", "")),
                                                                    row["text"] if has_text else None),
                                "annotations": anns, "doc_id": _json_id(row["doc_id"]),
                                "system": _json_id(row["system"])}
        if "references" in frame.columns and isinstance(row["references"], list):
            inst["references"] = list(row["references"])
        instances.append(inst)
    return {"dataset": judgments.name, "dataset_url": dataset_url or str(judgments.path or ""),
            "expert_annotator": "unknown", "original_prompt": False, "annotations": annotations,
            "instances": instances}


def _json_id(value: Any) -> Any:
    """An id as JSON has it (numpy integers as int)."""
    import numpy as np

    return value.item() if isinstance(value, np.generic) else value


def export_judge_bench(judgments, out: str | Path) -> Path:
    """Write :func:`to_judge_bench` of ``judgments`` to ``out`` (UTF-8 JSON, atomically); a built-in set's
    ``dataset_url`` is the source of its first file group. Returns the path."""
    from sumeval.cache import atomic_write_text

    url = None
    if judgments.format == "builtin":
        from sumeval.datasets.registry import info
        from sumeval.datasets.shelf_table import SHELF

        entry = SHELF.get(judgments.name)
        url = info(entry.files[0]).source if entry is not None and entry.files else None
    out = Path(out)
    data = to_judge_bench(judgments, dataset_url=url)
    parse_judge_bench(data, str(out), fix="this is a bug in sumeval's export")  # what is written reads back
    atomic_write_text(out, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return out
