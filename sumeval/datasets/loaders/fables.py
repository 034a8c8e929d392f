"""FABLES (Kim, Chang, Karpinska, Garimella, Manjunatha, Lo, Goyal & Iyyer, COLM 2024, "FABLES: Evaluating
faithfulness and content selection in book-length summarization"): the faithfulness of the claims in LLM
summaries of 26 books published in 2023-24, labelled by annotators who had read the books.

Files (``fables/``, from mungg/FABLES 7b1270b0; MIT)::

    FABLES.json.zip   as released: FABLES.json and a macOS resource fork __MACOSX/._FABLES.json (ignored)
                      FABLES.json = {"canary": ..., "FABLES": {book: {model: {general_comment, summary,
                      claims: {"0", "1", ...: {claim, label, evidence, reason}}}}}}

:func:`read_fables` reads the registered zip (its sha256 checked by the registry), refuses a zip holding
anything but those two members, checks the inner FABLES.json against MANIFEST's sha256
(:data:`INNER_SHA256`) and parses it.

The built-in data set ``fables``: one row per summary (130 = 26 books x 5 models), ``doc_id`` the book title,
``system`` the model (``CLAUDE-3-OPUS``, ``GPT-3.5-TURBO``, ``GPT-4``, ``GPT-4-TURBO``, ``MIXTRAL``: every model
on every book), ``summary`` the summary. Columns:

* human ``faithful`` (0-1): the share of the summary's claims (extracted by GPT-4, 11 to 42 per summary)
  that the annotator labelled ``Yes`` (faithful) - :func:`faithful_share`. ``PartialSupport``, ``No`` and
  ``Inapplicable`` (the annotator could not tell) all count against it: the paper ranks the summarizers by the
  percentage of their claims labelled faithful, each label's percentage taken over all the claims (Kim et
  al. 2024, abstract and its per-model table of claim labels). The paper's table could not be read here, so this reading
  is not checked cell by cell: see :func:`model_table`.
* unused: ``claims``, ``yes``, ``partial_support``, ``no``, ``inapplicable`` (counts), ``general_comment``
  (the annotator's comment on the summary).

Levels: 5 models summarise every book, so the input (per book), system (per model) and global levels apply.

Not here, with the reason (:attr:`Judgments.limits`): **the books** (copyrighted; the repository's
booklist.md names them), so measures that read the source cannot run; references; annotator columns (one
label per claim, no annotator ids); judges' predictions (none in the release).

The finer level is :func:`load_fables_claims` (one row per claim, 3,158, with its label, evidence and
reason). :func:`model_table` is the paper's per-model percentages of each label, recomputed from the claims
(computed, not compared: the README says so).
"""
from __future__ import annotations

import hashlib
import json
import zipfile
from collections import Counter
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect
from sumeval.errors import InputError

__all__ = ["ZIP_FILE", "INNER", "INNER_SHA256", "LABELS", "MODELS", "faithful_share", "read_fables",
           "load_fables", "load_fables_claims", "model_table", "fables_judgments"]

ZIP_FILE = "fables/FABLES.json.zip"
INNER = "FABLES.json"
#: the macOS resource fork the zip also holds (ignored)
FORK = "__MACOSX/._FABLES.json"
#: MANIFEST.md's sha256 of the inner FABLES.json
INNER_SHA256 = "449b3ba59b462936e6ac038d3a32853cc91587fc2b7ad090c738a31e5e6e92bf"
#: the claim labels, as released
LABELS: tuple[str, ...] = ("Yes", "PartialSupport", "No", "Inapplicable")
MODELS: tuple[str, ...] = ("CLAUDE-3-OPUS", "GPT-3.5-TURBO", "GPT-4", "GPT-4-TURBO", "MIXTRAL")
NO_TEXT = ("FABLES has no book texts (copyrighted; the repository's booklist.md names the 26 books): measures that "
           "read the source cannot run")
NO_REFERENCES = "FABLES has no reference summaries"
NO_ANNOTATORS = "one label per claim, no annotator ids"
#: MANIFEST.md's counts
COUNTS = {"books": 26, "summaries": 130, "claims": 3158, "per summary": (11, 42), "comments": 130,
          "labels": {"Yes": 2422, "PartialSupport": 419, "No": 247, "Inapplicable": 70}}


def faithful_share(labels: Sequence[str]) -> float:
    """The faithfulness of a summary in FABLES: the share of its claims labelled ``Yes`` among all its claims
    (Kim et al. 2024: the percentage of claims labelled faithful; PartialSupport, No and Inapplicable count
    against it).

    >>> faithful_share(["Yes", "Yes", "PartialSupport", "Inapplicable"])
    0.5
    """
    if not labels:
        raise InputError("a FABLES summary without claims has no faithfulness score")
    bad = [x for x in labels if x not in LABELS]
    if bad:
        raise InputError(f"FABLES claim label {bad[0]!r} is not one of {', '.join(LABELS)}")
    return sum(x == "Yes" for x in labels) / len(labels)


def read_fables() -> dict[str, Any]:
    """The ``FABLES`` object of the registered zip's FABLES.json (module docstring).

    Raises:
        InputError: the zip holds other members, or the inner file is not the one MANIFEST records, or a
            record is not the release's shape.
    """
    from sumeval.datasets.registry import locate

    path = locate(ZIP_FILE)
    try:
        with zipfile.ZipFile(path) as z:
            names = sorted(z.namelist())
            if names != sorted([INNER, FORK]):
                raise InputError(f"{path}: members {names}, the release holds {[INNER, FORK]}; {FIX}")
            raw = z.read(INNER)
    except zipfile.BadZipFile as exc:
        raise InputError(f"{path}: not a zip file ({exc}); {FIX}") from None
    got = hashlib.sha256(raw).hexdigest()
    if got != INNER_SHA256:
        raise InputError(f"{path}: {INNER} has sha256 {got}, MANIFEST.md records {INNER_SHA256}; {FIX}")
    data = json.loads(raw.decode("utf-8"))
    books = data.get("FABLES") if isinstance(data, dict) else None
    if not isinstance(books, dict):
        raise InputError(f"{path}: {INNER} has no \"FABLES\" object; {FIX}")
    for book, models in books.items():
        if not isinstance(models, dict) or sorted(models) != sorted(MODELS):
            raise InputError(f"{path}: book {book!r} is not summarised by exactly {', '.join(MODELS)}; {FIX}")
        for model, s in models.items():
            claims = s.get("claims") if isinstance(s, dict) else None
            if not isinstance(claims, dict) or not isinstance(s.get("summary"), str) \
                    or list(claims) != [str(i) for i in range(len(claims))] \
                    or any(not isinstance(c, dict) or c.get("label") not in LABELS
                           or not isinstance(c.get("claim"), str) for c in claims.values()):
                raise InputError(f"{path}: {book!r} / {model}: not {{summary, general_comment, claims: {{\"0\", "
                                 f"\"1\", ...: {{claim, label in {', '.join(LABELS)}, ...}}}}}}; {FIX}")
    expect(path, "the number of books", len(books), COUNTS["books"])
    return books


def load_fables() -> pd.DataFrame:
    """FABLES as one frame, one row per summary (130, books in the file's order, models in :data:`MODELS`
    order; the module docstring's columns).

    Raises:
        InputError: a file that is not the release's, or a count other than MANIFEST's.
    """
    from sumeval.datasets.registry import locate

    books = read_fables()
    rows = []
    for book, models in books.items():
        for model in MODELS:
            s = models[model]
            labels = [c["label"] for c in s["claims"].values()]
            n = Counter(labels)
            rows.append({"doc_id": book, "system": model, "summary": s["summary"], "faithful": faithful_share(labels),
                         "claims": len(labels), "yes": n["Yes"], "partial_support": n["PartialSupport"],
                         "no": n["No"], "inapplicable": n["Inapplicable"],
                         "general_comment": s.get("general_comment", "")})
    frame = pd.DataFrame(rows)
    path = locate(ZIP_FILE)
    expect(path, "the number of summaries", len(frame), COUNTS["summaries"])
    expect(path, "the number of claims", int(frame["claims"].sum()), COUNTS["claims"])
    expect(path, "the fewest and most claims per summary", (int(frame["claims"].min()), int(frame["claims"].max())),
           COUNTS["per summary"])
    expect(path, "the label counts", {"Yes": int(frame["yes"].sum()),
                                      "PartialSupport": int(frame["partial_support"].sum()),
                                      "No": int(frame["no"].sum()), "Inapplicable": int(frame["inapplicable"].sum())},
           COUNTS["labels"])
    expect(path, "the number of general comments", int((frame["general_comment"].str.strip() != "").sum()),
           COUNTS["comments"])
    return frame


def load_fables_claims() -> pd.DataFrame:
    """FABLES at the claim level: one row per claim, 3,158, in :func:`load_fables`'s order.

    Returns:
        pandas.DataFrame: ``doc_id, system`` (book, model), ``claim_index`` (the release's key as an integer),
        ``claim``, ``label`` (as released: Yes, PartialSupport, No, Inapplicable), ``faithful`` (1.0 for Yes,
        else 0.0: the summary's ``faithful`` is its claims' mean), ``evidence`` and ``reason`` (the annotator's
        lists, joined by newlines; evidence ``"n/a"`` where none was quoted).
    """
    books = read_fables()
    rows = []
    for book, models in books.items():
        for model in MODELS:
            for key, c in models[model]["claims"].items():
                rows.append({"doc_id": book, "system": model, "claim_index": int(key), "claim": c["claim"],
                             "label": c["label"], "faithful": float(c["label"] == "Yes"),
                             "evidence": "\n".join(map(str, c.get("evidence") or [])),
                             "reason": "\n".join(map(str, c.get("reason") or []))})
    out = pd.DataFrame(rows)
    expect(ZIP_FILE, "the number of claims", len(out), COUNTS["claims"])
    return out


def model_table(claims: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per model, the percentage of its claims (pooled over the 26 books) with each label - the paper's
    ranking of the summarizers by faithfulness (Kim et al. 2024, its per-model table), recomputed from the claims.

    Returns:
        pandas.DataFrame, one row per model, most faithful first: ``model, claims``, then ``Yes``,
        ``PartialSupport``, ``No``, ``Inapplicable`` in percent (summing to 100), and ``faithful_mean`` (the
        mean over the model's 26 summaries of the summary-level ``faithful``, in percent).
    """
    c = load_fables_claims() if claims is None else claims
    rows = []
    for model, g in c.groupby("system", sort=False):
        n = Counter(g["label"])
        per_summary = g.groupby("doc_id")["faithful"].mean()
        rows.append({"model": model, "claims": len(g), **{lab: 100.0 * n[lab] / len(g) for lab in LABELS},
                     "faithful_mean": 100.0 * float(np.mean(per_summary))})
    return pd.DataFrame(rows).sort_values("Yes", ascending=False, kind="stable").reset_index(drop=True)


def fables_judgments():
    """The built-in data set ``fables`` (:func:`load_fables` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    return make_judgments(load_fables(), name="fables", relpaths=[ZIP_FILE], humans=("faithful",),
                          limits={"text": NO_TEXT, "references": NO_REFERENCES, "annotator columns": NO_ANNOTATORS})
