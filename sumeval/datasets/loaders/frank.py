"""FRANK (Pagnoni, Balachandran & Tsvetkov, NAACL 2021): factuality and error types of 2,246
summaries of 499 test articles, with 15 baseline measures and the valid/test split. No texts.

Files (``frank/``, from artidoro/frank 80a88fb1)::

    human_annotations.json                  2,246 records: hash, model_name, dataset, split,
                                            Factuality, 11 error categories, Flip_<category>
    baseline_factuality_metrics_outputs.json   the same records with 15 measures
    selected_documents.txt, test_split.txt, validation_split.txt   article ids

The built-in data set ``frank`` (2,246 rows in the file's order): ``doc_id`` (``hash``: CNN/DM sha1 or
BBC id), ``system`` (``model_name``: bart, bert_sum, bus, pgn, s2s on CNN/DM; BERTS2S, PtGen,
TConvS2S, TranS2S on XSum), ``dataset`` (``cnndm`` or ``bbc``), ``split`` (``valid``: tune on these
149 articles; ``test``: report on these 350);

* human columns ``factuality`` (FRANK's ``Factuality``: the sentence-level judgements averaged over
  the summary's sentences, 0-1) and the 11 error categories as FRANK names them
  (:data:`ERROR_TYPES`, 0-1, 1 = no such error), extra human columns;
* 15 precomputed measures ``frank.<name>`` (the file's names, spaces as ``_``: ``frank.Rouge_1``,
  ``frank.BertScore_F1_Art``, ``frank.QAGS``, ...); ``frank.FEQA`` is missing on 4 rows and
  ``frank.Dep_Entail`` on 83, as in the release;
* ``Flip_<category>`` (the paper's ablation) are kept as unused columns.

The articles and summaries (``benchmark_data.json``) are not in the snapshot, so FRANK has no text
fields: a measure that reads a summary, an article or a reference cannot run on it, and says so
(:attr:`Judgments.limits`). CNN/DM and XSum systems never share an article, so the system level
pools two disjoint sets of systems (reported by ``systems_missing_documents``).
"""
from __future__ import annotations

import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_json, read_lines
from sumeval.errors import InputError

__all__ = ["HUMAN_FILE", "METRICS_FILE", "ERROR_TYPES", "METRICS", "NO_TEXTS", "measure_column", "load_frank",
           "frank_judgments"]

HUMAN_FILE = "frank/human_annotations.json"
METRICS_FILE = "frank/baseline_factuality_metrics_outputs.json"
SPLIT_FILES = {"selected": "frank/selected_documents.txt", "test": "frank/test_split.txt",
               "valid": "frank/validation_split.txt"}
#: FRANK's error categories: the three groups, then the seven types and Other
ERROR_TYPES: tuple[str, ...] = ("Semantic_Frame_Errors", "Discourse_Errors", "Content_Verifiability_Errors",
                                "RelE", "EntE", "CircE", "CorefE", "LinkE", "OutE", "GramE", "Other")
#: the 15 baseline measures, as the file names them
METRICS: tuple[str, ...] = ("Rouge 1", "Rouge 2", "Rouge L", "Bleu", "Meteor", "BertScore P", "BertScore R",
                            "BertScore F1", "BertScore P Art", "BertScore R Art", "BertScore F1 Art", "FactCC",
                            "FEQA", "Dep Entail", "QAGS")
#: why no measure that reads a text can run on FRANK
NO_TEXTS = ("FRANK has no texts: its articles and summaries (benchmark_data.json) are not in the data "
            "snapshot, so only its precomputed measure columns (frank.*) can be meta-evaluated")
#: MANIFEST.md's counts
COUNTS = {"records": 2246, "articles": 499, "cnndm articles": 250, "bbc articles": 249, "valid": 671,
          "test": 1575, "test articles": 350, "valid articles": 149, "FEQA missing": 4, "Dep Entail missing": 83}


def measure_column(metric: str) -> str:
    """``"Rouge 1" -> "frank.Rouge_1"``: the measure column of one of FRANK's baseline measures."""
    return "frank." + metric.replace(" ", "_")


def _keyed(path, records, fields) -> dict[tuple[str, str], dict]:
    if not isinstance(records, list):
        raise InputError(f"{path}: not a list of records; {FIX}")
    out = {}
    for i, r in enumerate(records):
        if not isinstance(r, dict) or any(f not in r for f in fields):
            raise InputError(f"{path}: record {i} lacks one of {', '.join(fields)}; {FIX}")
        key = (r["hash"], r["model_name"])
        if key in out:
            raise InputError(f"{path}: record {i}: (hash {key[0]!r}, model {key[1]!r}) appears twice; {FIX}")
        out[key] = r
    return out


def _number(path, key, col, value, missing_ok: bool) -> float:
    if value is None and missing_ok:
        return float("nan")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{path}: (hash {key[0]!r}, model {key[1]!r}): {col} = {value!r} is not a number; {FIX}")
    return float(value)


def load_frank() -> pd.DataFrame:
    """FRANK as one frame (see the module docstring), 2,246 rows: ``doc_id, system, dataset, split``,
    ``factuality``, the 11 error types, the 15 ``frank.*`` measures, the 11 ``Flip_*`` columns."""
    hpath, human = read_json(HUMAN_FILE)
    mpath, metrics = read_json(METRICS_FILE)
    flips = [f"Flip_{e}" for e in ERROR_TYPES]
    base = ["hash", "model_name", "dataset", "split"]
    h = _keyed(hpath, human, [*base, "Factuality", *ERROR_TYPES, *flips])
    m = _keyed(mpath, metrics, [*base, *METRICS])
    expect(hpath, "the number of records", len(h), COUNTS["records"])
    expect(mpath, "the records that join human_annotations.json", len(set(h) & set(m)), COUNTS["records"])
    for key, r in h.items():
        if (m[key]["dataset"], m[key]["split"]) != (r["dataset"], r["split"]):
            raise InputError(f"{mpath}: (hash {key[0]!r}, model {key[1]!r}): dataset/split differ from {hpath}; {FIX}")
    rows = []
    for key, r in h.items():
        rows.append({"doc_id": key[0], "system": key[1], "dataset": r["dataset"], "split": r["split"],
                     "factuality": _number(hpath, key, "Factuality", r["Factuality"], False),
                     **{e: _number(hpath, key, e, r[e], False) for e in ERROR_TYPES},
                     **{measure_column(c): _number(mpath, key, c, m[key][c], c in ("FEQA", "Dep Entail"))
                        for c in METRICS},
                     **{f: _number(hpath, key, f, r[f], False) for f in flips}})
    frame = pd.DataFrame(rows)
    _check_counts(hpath, frame)
    return frame


def _check_counts(path, frame: pd.DataFrame) -> None:
    """The counts and splits of MANIFEST.md, and the split files' agreement with the records."""
    docs = frame.drop_duplicates("doc_id")
    expect(path, "the number of articles", len(docs), COUNTS["articles"])
    for ds in ("cnndm", "bbc"):
        expect(path, f"the number of {ds} articles", int((docs["dataset"] == ds).sum()), COUNTS[f"{ds} articles"])
    for split in ("valid", "test"):
        expect(path, f"the number of {split} summaries", int((frame["split"] == split).sum()), COUNTS[split])
    for c in ("FEQA", "Dep Entail"):
        expect(path, f"the number of missing {c} scores", int(frame[measure_column(c)].isna().sum()),
               COUNTS[f"{c} missing"])
    split_of = frame.groupby("doc_id")["split"].agg(set)
    lists = {k: read_lines(p) for k, p in SPLIT_FILES.items()}
    expect(lists["selected"][0], "the set of article ids", set(lists["selected"][1]), set(split_of.index))
    for split, k in (("test", "test"), ("valid", "valid")):
        p, ids = lists[k]
        expect(p, "the number of article ids", len(set(ids)), COUNTS[f"{split} articles"])
        wrong = [d for d in ids if split_of.get(d) != {split}]
        expect(p, f"the article ids whose summaries are not all '{split}' in {HUMAN_FILE}", wrong, [])


def frank_judgments():
    """The built-in data set ``frank`` (:func:`load_frank` with its column roles; no text fields)."""
    from sumeval.datasets.loaders.build import make_judgments

    limits = {f: NO_TEXTS for f in ("summary", "text", "references")}
    return make_judgments(
        load_frank(), name="frank", relpaths=[HUMAN_FILE, METRICS_FILE, *SPLIT_FILES.values()],
        humans=("factuality", *ERROR_TYPES), measures=[measure_column(c) for c in METRICS], limits=limits)
