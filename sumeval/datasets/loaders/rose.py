"""RoSE (Liu et al., ACL 2023), the protocol-comparison slice: 100 CNN/DM test documents x 12
systems, each summary scored under four human evaluation protocols.

Files (``rose/``, from Yale-LILY/ROSE 0afe48bd docs/_data/)::

    protocol-comparison.json       a list of {count_id, example_id, source, reference,
                                   system_outputs{system: text}, annotations{system: {prior,
                                   ref_free, ref_based, acu, normalized_acu}}}
    protocol-comparison-llm.json   the LLM slice (gpt3, t0, bart, brio and the reference; not loaded)
    acu-cnndm-test.json            the ACUs of CNN/DM test references (not loaded)

The built-in data set ``rose`` (1,200 rows, documents in file order, systems sorted): ``doc_id`` is
``example_id`` (the CNN/DM story hash), ``cnndm_test_index`` the ``count_id`` (kept, as text);
``summary``, ``text`` (the article) and ``references`` (the CNN/DM reference). The system ``gold``
is a system's output, not the reference (it equals the reference on 0 of 100 documents). Human
columns, one per protocol of Liu et al. 2023's comparison: ``prior`` (1-5, neither document nor reference
shown), ``ref_free`` (1-5, document shown), ``ref_based`` (1-5, reference shown) - means over
annotators, multiples of 1/3 - and ``acu`` (0-1, the share of the reference's atomic content units
found in the summary) with ``normalized_acu`` (its length-normalised form). The individual
annotators are not in the slice.
"""
from __future__ import annotations

import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_json
from sumeval.errors import InputError

__all__ = ["DATA_FILE", "SYSTEMS", "PROTOCOLS", "load_rose", "rose_judgments"]

DATA_FILE = "rose/protocol-comparison.json"
SYSTEMS: tuple[str, ...] = ("bart", "brio", "brio-ext", "cliff", "ctrlsum", "frost", "glob", "gold", "gsum",
                            "matchsum", "pegasus", "simcls")
PROTOCOLS: tuple[str, ...] = ("prior", "ref_free", "ref_based", "acu", "normalized_acu")
N_DOCS = 100


def _check(path, i: int, rec) -> None:
    fields = ("count_id", "example_id", "source", "reference", "system_outputs", "annotations")
    if not isinstance(rec, dict) or any(f not in rec for f in fields):
        raise InputError(f"{path}: record {i} lacks one of {', '.join(fields)}; {FIX}")
    outs, ann = rec["system_outputs"], rec["annotations"]
    if not isinstance(outs, dict) or sorted(outs) != list(SYSTEMS) \
            or not isinstance(ann, dict) or sorted(ann) != list(SYSTEMS):
        raise InputError(f"{path}: record {i} ({rec['example_id']!r}): systems are not {', '.join(SYSTEMS)}; {FIX}")
    for system, a in ann.items():
        ok = isinstance(a, dict) and all(isinstance(a.get(p), (int, float)) and not isinstance(a.get(p), bool)
                                         for p in PROTOCOLS)
        if not ok or not all(1 <= a[p] <= 5 for p in PROTOCOLS[:3]) or not 0 <= a["acu"] <= 1:
            raise InputError(f"{path}: record {i} ({rec['example_id']!r}), system {system!r}: annotations {a!r} are "
                             f"not prior/ref_free/ref_based in 1-5 and acu in 0-1; {FIX}")


def load_rose() -> pd.DataFrame:
    """RoSE's protocol slice as one frame: ``doc_id, system, summary, text, references,
    cnndm_test_index``, the 5 protocol columns (1,200 rows)."""
    path, data = read_json(DATA_FILE)
    if not isinstance(data, list):
        raise InputError(f"{path}: not a list of records; {FIX}")
    for i, rec in enumerate(data):
        _check(path, i, rec)
    expect(path, "the number of documents", len(data), N_DOCS)
    expect(path, "the number of distinct example_id", len({r["example_id"] for r in data}), N_DOCS)
    expect(path, "the documents whose gold output equals the reference",
           sum(r["system_outputs"]["gold"] == r["reference"] for r in data), 0)
    rows = [{"doc_id": r["example_id"], "system": s, "summary": r["system_outputs"][s], "text": r["source"],
             "references": [r["reference"]], "cnndm_test_index": str(r["count_id"]),
             **{p: float(r["annotations"][s][p]) for p in PROTOCOLS}} for r in data for s in SYSTEMS]
    return pd.DataFrame(rows)


def rose_judgments():
    """The built-in data set ``rose`` (:func:`load_rose` with its column roles)."""
    from sumeval.datasets.loaders.build import make_judgments

    return make_judgments(load_rose(), name="rose", relpaths=[DATA_FILE], humans=PROTOCOLS)
