"""SummEdits (Laban, Kryscinski, Agarwal, Fabbri, Xiong, Joty & Wu, EMNLP 2023, "SummEdits: Measuring LLM Ability
at Factual Reasoning Through The Lens of Summarization"): seed summaries and LLM edits of them, each labelled
consistent or inconsistent with its document by the paper's annotators; 8 of its 10 domains.

Files (``summedits/``, salesforce/factualNLG 0da1dfa6 ``data/summedits/``)::

    summedits_<domain>.json   a list of {id, doc, summary, label (1 consistent, 0 inconsistent), original_summary,
                              edit_types, split ("evaluation" | "test")}; domains ectsum, news, podcast, qmsumm,
                              sales_call, sales_email, samsum, scitldr (billsum and shakespeare are missing)
    README.md                 the repository README: balanced accuracy (%) per domain of 19 models and humans

The built-in data set ``summedits`` (4,681 rows, domains in the order above, records in file order):

* ``doc_id`` = the **seed group**: the record id without its last ``_<suffix>`` (``ectsum_OXY_q4_2021``), i.e. one
  document with one seed summary (``..._og``) and the edits of that seed (``..._0``, ``..._1``, ...). Every group
  has one seed, one document, one original summary and one split (checked at load). A group is a document except in
  qmsumm, where one document has 2 seeds (16 documents, 17 groups): the group, not the document, is the unit the
  edits were made in and the split was drawn by, so the input level is per seed group.
* ``system`` = the suffix (``og`` for the seed, the edit's number otherwise): **not** a summariser. SummEdits has
  no systems (the edits were written by an LLM, one per row), so the system level is refused with that reason.
* human column ``consistency`` = the label (1.0 consistent, 0.0 inconsistent); one label per record, no annotator
  ids, so no annotator columns.
* ``summary``, ``text`` (the document); no references.
* unused columns: ``domain``, ``split`` (tune thresholds on ``evaluation``, report on ``test``), ``seed`` (True for
  the 163 ``_og`` records, which are unedited and labelled 1), ``edit_types`` (GPT-4's predicted types, ``,``-joined;
  it does not follow the label exactly: MANIFEST.md), ``original_summary``.

Levels: **global** (all records pooled) is the paper's: a detector's balanced accuracy over a domain's test records
(Sec. 6.3). **Input** (per seed group, across its seed and edits) is computed where every group has 2 or more
records: one sales_call group is a seed with no edit, so the input level of the whole set is refused by
:func:`~sumeval.datasets.judgments_model.check_level`, naming it (filter it out to use the level).

The README's table (:func:`load_summedits_published`) gives balanced accuracy per domain of models whose
predictions are **not** in the release, so none of those numbers can be recomputed here; what can be is the label
statistics (:data:`COUNTS`, MANIFEST.md's, checked at every load) and any measure's balanced accuracy on the same
records by the paper's protocol (threshold tuned on ``evaluation``, applied to ``test``:
:func:`sumeval.stats.binary.binary_detection`). A constant prediction scores exactly 50.0 by definition, the value
the README prints for Llama2-7b on 6 of the 8 domains here.
"""
from __future__ import annotations

import re

import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_json, read_lines
from sumeval.errors import InputError

__all__ = ["DOMAINS", "COUNTS", "FILES", "README_FILE", "load_summedits", "load_summedits_published",
           "summedits_judgments"]

DOMAINS: tuple[str, ...] = ("ectsum", "news", "podcast", "qmsumm", "sales_call", "sales_email", "samsum", "scitldr")
FILES: dict[str, str] = {d: f"summedits/summedits_{d}.json" for d in DOMAINS}
README_FILE = "summedits/README.md"
#: MANIFEST.md's counts per domain: (records, (evaluation label 0, label 1), (test label 0, label 1), seeds)
COUNTS: dict[str, tuple[int, tuple[int, int], tuple[int, int], int]] = {
    "ectsum": (668, (71, 46), (355, 196), 22), "news": (819, (82, 51), (416, 270), 25),
    "podcast": (500, (69, 55), (268, 108), 21), "qmsumm": (431, (58, 55), (190, 128), 17),
    "sales_call": (520, (80, 51), (267, 122), 18), "sales_email": (613, (97, 35), (337, 144), 21),
    "samsum": (664, (73, 48), (349, 194), 22), "scitldr": (466, (87, 28), (234, 117), 17)}
#: the README table's domain columns -> the domain names of the files (None: not in the release)
README_DOMAINS: dict[str, str | None] = {
    "Podcast": "podcast", "Bill Sum": None, "Sam Sum": "samsum", "News": "news", "Sales Call": "sales_call",
    "Sales Email": "sales_email", "Shake speare": None, "Sci TLDR": "scitldr", "QMSumm": "qmsumm",
    "ECT Sum": "ectsum", "Overall": None}
_FIELDS = ("id", "doc", "summary", "label", "original_summary", "edit_types", "split")
_ID = re.compile(r"(.+)_(og|\d+)")


def _records(domain: str) -> list[dict]:
    """One domain's records, each checked (fields, types, id form, label, split) and counted against :data:`COUNTS`."""
    path, data = read_json(FILES[domain])
    if not isinstance(data, list):
        raise InputError(f"{path}: the top level is {type(data).__name__}, SummEdits' is a list; {FIX}")
    seen = set()
    for n, r in enumerate(data):
        ok = (isinstance(r, dict) and set(_FIELDS) <= set(r) and all(isinstance(r[f], str) for f in
              ("id", "doc", "summary", "original_summary", "split")) and r["label"] in (0, 1)
              and not isinstance(r["label"], bool) and r["split"] in ("evaluation", "test")
              and isinstance(r["edit_types"], list) and _ID.fullmatch(r["id"]) is not None)
        if not ok:
            raise InputError(f"{path}: record {n} is not {{id (<seed>_og or <seed>_<n>), doc, summary, label 0/1, "
                             f"original_summary, edit_types (a list), split evaluation/test}}; {FIX}")
        if r["id"] in seen:
            raise InputError(f"{path}: record {n}: id {r['id']!r} appears twice; {FIX}")
        seen.add(r["id"])
    want_n, want_eval, want_test, want_seeds = COUNTS[domain]
    expect(path, "the number of records", len(data), want_n)
    for split, want in (("evaluation", want_eval), ("test", want_test)):
        got = tuple(sum(r["split"] == split and r["label"] == v for r in data) for v in (0, 1))
        expect(path, f"the {split} records with label 0 / 1", got, want)
    expect(path, "the number of seeds (_og)", sum(r["id"].endswith("_og") for r in data), want_seeds)
    return data


def load_summedits() -> pd.DataFrame:
    """SummEdits' 8 domains as one frame, one row per record (see the module docstring for the columns).

    Raises:
        InputError: when a file's counts differ from MANIFEST.md's, or a seed group has not exactly one seed, one
            document, one original summary (the seed's summary) and one split, or a seed is not labelled 1.
    """
    rows = []
    for domain in DOMAINS:
        groups: dict[str, list[dict]] = {}
        for r in _records(domain):
            groups.setdefault(_ID.fullmatch(r["id"]).group(1), []).append(r)
        for group, recs in groups.items():
            seeds = [r for r in recs if r["id"].endswith("_og")]
            one = (len(seeds) == 1 and len({r["doc"] for r in recs}) == 1 and len({r["split"] for r in recs}) == 1
                   and {r["original_summary"] for r in recs} == {seeds[0]["summary"]} and seeds[0]["label"] == 1)
            if not one:
                raise InputError(f"{FILES[domain]}: seed group {group!r} ({len(recs)} records) has not exactly one "
                                 "seed (labelled 1), one document, one original summary (the seed's) and one split; "
                                 f"{FIX}")
            for r in recs:
                rows.append({"doc_id": group, "system": _ID.fullmatch(r["id"]).group(2), "summary": r["summary"],
                             "text": r["doc"], "consistency": float(r["label"]), "domain": domain,
                             "split": r["split"], "seed": r["id"].endswith("_og"),
                             "edit_types": ",".join(r["edit_types"]), "original_summary": r["original_summary"]})
    frame = pd.DataFrame(rows)
    expect("summedits/", "the number of records in all", len(frame), sum(c[0] for c in COUNTS.values()))
    return frame


def load_summedits_published() -> pd.DataFrame:
    """The README's "SummEdits Benchmark" table as printed: one row per model (19, then ``Human Perf.``), one
    column per domain of the table (the README's names: ``Podcast``, ``Bill Sum``, ..., ``Overall``), balanced
    accuracy in %. The models' predictions are not in the release: these are the authors' numbers, for reading
    beside a measure's; ``Bill Sum``, ``Shake speare`` and ``Overall`` cover domains whose files are missing."""
    path, lines = read_lines(README_FILE)
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("| Model Name"))
    except StopIteration:
        raise InputError(f"{path}: no '| Model Name' table; {FIX}") from None
    header = [c.strip() for c in lines[start].strip().strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append([cells[0], *(float(c) for c in cells[1:])])
    frame = pd.DataFrame(rows, columns=["model", *header[1:]]).set_index("model")
    expect(path, "the table's columns", list(frame.columns), list(README_DOMAINS))
    expect(path, "the table's rows", len(frame), 20)
    return frame


def summedits_judgments():
    """The built-in data set ``summedits`` (:func:`load_summedits` with its column roles)."""
    from dataclasses import replace

    from sumeval.datasets.loaders.build import make_judgments

    judgments = make_judgments(
        load_summedits(), name="summedits", relpaths=[*FILES.values(), README_FILE], humans=("consistency",),
        limits={"system": "SummEdits has no summarisation systems: each row is a seed summary or one LLM edit of it "
                          "(system = the record's suffix, og or the edit's number); use the global level (the "
                          "paper's, per domain and split) or the input level (per seed group)",
                "references": "SummEdits has no reference summaries"},
        notes=("doc_id is a seed group (a document, its seed summary ..._og and that seed's edits); qmsumm's 16 "
               "documents have 17 seed groups",
               "split: tune thresholds on 'evaluation' (986 records), report on 'test' (3,695); domain: the 8 of the "
               "paper's 10 domains in the release (billsum and shakespeare are missing)",
               "the README's balanced accuracies (load_summedits_published) are of models whose predictions are not "
               "in the release"))
    # the suffixes are not systems (the system level is refused), so "system '3' has no summary for 9 documents"
    # would be 40 lines of noise in data show: a seed group has as many edits as the LLM wrote
    return replace(judgments, systems_missing_documents={})
