"""FaithBench on the shelf (sumeval.datasets.loaders.faithbench): MANIFEST's counts, the join with FaithBench.csv,
the aggregation rule (scripts/binarize.py's worst pooling) by hand and recomputed from the files here, the span
level, the refusals, and the detectors' scores.

The paper's (Bao et al., NAACL 2025) tables of balanced accuracy and F1 could not be read from here, so the
detectors' scores are computed (detector_table), not compared: the test pins what the data fixes - the label
statistics MANIFEST records and the authors' own sample labels (FaithBench.csv) - and checks the computed
scores against an independent computation (scikit-learn) on the files.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from sumeval.datasets.judgments_model import check_level
from sumeval.datasets.registry import locate
from sumeval.errors import InputError

from helpers import have_data  # tests/ is on the path

HAVE = have_data("faithbench/batch_1.json")
needs_data = pytest.mark.skipif(not HAVE, reason="faithbench/ not found; see data/README.md")


@pytest.fixture(scope="module")
def judgments():
    from sumeval.datasets.shelf import load_builtin

    return load_builtin("faithbench")


def _raw_samples():
    """The 750 samples read straight from the batch files (not through the loader)."""
    from sumeval.datasets.loaders.faithbench import BATCH_FILES

    return [s for rel in BATCH_FILES for s in json.loads(locate(rel).read_text(encoding="utf-8"))["samples"]]


def test_binarize_by_hand():
    """binarize.py's shipped configuration: the worst label over every span decides; Questionable and Unwanted*
    are hallucinated (0); Benign alone is consistent (1); no span, or spans without a label, consistent."""
    from sumeval.datasets.loaders.faithbench import binarize

    assert binarize([["Benign"], ["Unwanted", "Unwanted.Intrinsic"]]) == 0
    assert binarize([["Benign"], ["Questionable"]]) == 0
    assert binarize([["Unwanted.Extrinsic"]]) == 0
    assert binarize([["Benign"], ["Benign"]]) == 1
    assert binarize([]) == 1 and binarize([[], ["Benign"]]) == 1 and binarize([[], ["Questionable"]]) == 0


@needs_data
def test_counts_join_and_labels(judgments):
    f = judgments.frame
    assert (len(judgments), len(judgments.documents), len(judgments.systems)) == (750, 75, 10)
    assert set(f.groupby("system").size()) == {75} and set(f.groupby("doc_id").size()) == {10}
    assert judgments.humans == ("consistent", "worst_label", "best_label") and judgments.annotators == {}
    assert int(f["spans"].sum()) == 2189 and int((f["spans"] == 0).sum()) == 175
    assert dict(Counter(f["annotators_marking"])) == {0: 175, 1: 132, 2: 262, 3: 174, 4: 7}
    # FaithBench.csv joined on its 750 rows that are batch samples; its label counts over all 800 are MANIFEST's,
    # so the 50 unjoined rows carry the difference
    from sumeval.datasets.loaders.faithbench import LABEL_SCALE, load_faithbench_unjoined

    assert f["worst_label"].notna().all() and f["best_label"].notna().all()
    rest = load_faithbench_unjoined()
    assert len(rest) == 50 and rest["source"].nunique() == 5 and rest["LLM"].nunique() == 10
    names = {v: k for k, v in LABEL_SCALE.items()}
    worst = Counter(f["worst_label"].map(names)) + Counter(rest["worst_label"])
    assert worst == {"Unwanted": 485, "Consistent": 174, "Questionable": 77, "Benign": 64}
    # the binarised label, recomputed here from the raw spans (worst severity >= Questionable -> 0)
    sev = {"Benign": 1, "Questionable": 2, "Unwanted": 3, "Unwanted.Intrinsic": 3, "Unwanted.Extrinsic": 3}
    raw = _raw_samples()
    mine = [0.0 if max([sev[x] for a in s["annotations"] for x in a["label"]], default=0) >= 2 else 1.0 for s in raw]
    assert f["consistent"].tolist() == mine and int(sum(mine)) == 239
    # ... and it is the authors' worst-label read binarily (Consistent or Benign = consistent) but for 2 samples:
    # of the 4 where worst-label is not the spans' worst (MANIFEST), 2 only swap Unwanted and Questionable
    assert int(((f["worst_label"] >= 2).astype(float) != f["consistent"]).sum()) == 2
    assert [m["raw_sample_id"] for m in (s["metadata"] for s in raw)] == f["raw_sample_id"].tolist()


@needs_data
def test_detectors_are_opt_in_columns_and_true_nli_has_two_gaps(judgments):
    from sumeval.datasets.loaders.faithbench import DETECTORS

    f = judgments.frame
    assert judgments.default_measures == ()
    assert judgments.opt_in_measures == tuple(f"{d}.consistent" for d in DETECTORS)
    assert {c: int(f[c].isna().sum()) for c in judgments.opt_in_measures if f[c].isna().any()} == \
        {"true_nli.consistent": 2}
    for d in ("trueteacher", "true_nli", "gpt-3.5-turbo", "gpt-4-turbo", "gpt_4o"):
        assert set(f[f"{d}.consistent"].dropna()) == {0.0, 1.0}
    assert f["hhem-2.1.consistent"].between(0, 1).all() and f["hhem-2.1.consistent"].nunique() > 100


@needs_data
def test_detector_table_matches_an_independent_computation(judgments):
    """Balanced accuracy and F1 of each detector (computed, not compared: the paper's table is not readable
    here), against scikit-learn on the raw files' predictions and labels."""
    from sklearn.metrics import balanced_accuracy_score, f1_score

    from sumeval.datasets.loaders.faithbench import DETECTORS, detector_table

    table = detector_table(judgments.frame).set_index("detector")
    raw = _raw_samples()
    y = np.array([float(v) for v in judgments.frame["consistent"]])
    for d in DETECTORS:
        vals = [s["metadata"][d] for s in raw]
        keep = np.array([v is not None for v in vals])
        pred = np.array([int(v >= 0.5) for v in vals if v is not None])
        assert table.loc[d, "n"] == keep.sum() and table.loc[d, "n_missing"] == (~keep).sum()
        assert table.loc[d, "balanced_accuracy"] == pytest.approx(balanced_accuracy_score(y[keep], pred))
        assert table.loc[d, "f1_hallucinated"] == pytest.approx(f1_score(y[keep], pred, pos_label=0))
        assert table.loc[d, "f1_macro"] == pytest.approx(f1_score(y[keep], pred, average="macro"))
    # "most detectors have near 50% accuracies" (the paper's abstract): every one is within 45-56 %
    assert table["balanced_accuracy"].between(0.45, 0.56).all()


@needs_data
def test_spans_keep_the_annotators(judgments):
    from sumeval.datasets.loaders.faithbench import load_faithbench_spans

    s = load_faithbench_spans()
    assert len(s) == 2189 and s["annotator_name"].nunique() == 14 and s["annotator_id"].nunique() == 42
    assert int((s["label"] == "").sum()) == 3 and int(s["source_span"].notna().sum()) == 981
    # the summary-level label is the spans' worst severity, sample by sample
    worst = s.groupby(["doc_id", "system"])["hallucinated"].max()
    f = judgments.frame.set_index(["doc_id", "system"])
    assert ((1 - worst) == f.loc[worst.index, "consistent"]).all()
    assert (f.loc[~f.index.isin(worst.index), "consistent"] == 1).all()


@needs_data
def test_levels_and_refusals_are_stated(judgments):
    for level in ("input", "system", "global"):
        assert check_level(judgments, level, "consistent")["pairs"] == 750
    text = judgments.describe()
    assert "cannot     annotator columns: the release records an annotator only where" in text
    assert "cannot     include 50 of FaithBench.csv's 800 rows: they are in no released batch" in text
    from sumeval.metrics.sources import resolve_measures

    with pytest.raises(InputError, match="FaithBench has no reference summaries"):
        resolve_measures(["rouge-1"], judgments)


@needs_data
def test_licence_is_listed_as_non_commercial_share_alike():
    from sumeval.datasets.registry import info
    from sumeval.datasets.shelf import SHELF, describe_builtin

    assert SHELF["faithbench"].licence == "CC BY-NC-SA 4.0 (non-commercial, share-alike)"
    assert "non-commercial" in info("faithbench").license and "share-alike" in info("faithbench").license
    assert "CC BY-NC-SA 4.0: non-commercial" in describe_builtin("faithbench")["licence"]


@needs_data
def test_a_changed_count_is_refused_naming_the_file(tmp_path, monkeypatch):
    """A batch with a sample removed: the count check names the file (registry check bypassed)."""
    from sumeval.datasets import registry
    from sumeval.datasets.loaders import faithbench as fb

    real = registry.locate
    data = json.loads(real(fb.BATCH_FILES[0]).read_text(encoding="utf-8"))
    data["samples"].pop()
    bad = tmp_path / "batch_1.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(registry, "locate", lambda rel, verify=True: bad if rel == fb.BATCH_FILES[0] else real(rel))
    with pytest.raises(InputError, match=r"batch_1\.json: the number of samples is 49, MANIFEST\.md records 50"):
        fb.load_faithbench()
