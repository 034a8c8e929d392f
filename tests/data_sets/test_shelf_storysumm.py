"""StorySumm on the shelf (sumeval.datasets.loaders.storysumm): the one-byte repair and its refusals, MANIFEST's
counts, the two self-inconsistent records, the levels, and the paper's evaluator table against the values its
authors print.

The printed values are the table "Results (8/22/24 Update)" of the README of melaniesubbiah/storysumm at commit
22d47af2 (the release the data is from; its Results.ipynb prints the same numbers). The README is not in the data
folder; the values are copied here as printed.
"""
from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from sumeval.datasets.judgments_model import check_level
from sumeval.datasets.registry import locate
from sumeval.errors import InputError

from helpers import have_data  # tests/ is on the path

HAVE = have_data("storysumm/storysumm.json")
pytestmark = pytest.mark.skipif(not HAVE, reason="storysumm/ not found; see data/README.md")

# README table: evaluator, split -> (kappa, % faithful, precision, recall, % easy, % hard, balanced accuracy)
PRINTED = {
    ("unieval", "val"): (0.25, 39, 0.38, 0.62, 80.0, 60.0, 65.3),
    ("unieval", "test"): (0.04, 30, 0.47, 0.32, 80.0, 68.0, 51.8),
    ("alignscore", "val"): (0.21, 42, 0.36, 0.62, 80.0, 53.3, 63.3),
    ("alignscore", "test"): (-0.07, 68, 0.42, 0.64, 40.0, 24.0, 46.4),
    ("binary-claude-3", "all"): (0.06, 95, 0.40, 1.00, 20.0, 2.5, 54.2),
    ("binary-gpt-4", "all"): (0.11, 70, 0.42, 0.78, 55.0, 25.0, 56.4),
    ("binary-mixtral", "all"): (0.12, 91, 0.41, 1.00, 15.0, 15.0, 57.5),
    ("cot-claude-3", "all"): (0.10, 90, 0.41, 0.97, 25.0, 10.0, 56.1),
    ("cot-gpt-4", "all"): (0.08, 94, 0.40, 1.00, 25.0, 2.5, 55.0),
    ("cot-mixtral", "all"): (0.04, 97, 0.39, 1.00, 0.0, 7.5, 52.5),
    ("fables", "all"): (0.33, 55, 0.53, 0.78, 70.0, 52.5, 68.1),
    ("minicheck", "all"): (0.02, 16, 0.4, 0.17, 90.0, 82.5, 50.8),
}


@pytest.fixture(scope="module")
def judgments():
    from sumeval.datasets.shelf import load_builtin

    return load_builtin("storysumm")


def test_the_evaluator_table_is_the_printed_one(judgments):
    """Every cell of the README's table, recomputed from the predicted labels and the human labels."""
    from sumeval.datasets.loaders.storysumm import evaluator_table

    table = evaluator_table(judgments.frame)
    got = {(r.evaluator, r.split): (r.kappa, r.pct_faithful, r.precision, r.recall, r.pct_easy, r.pct_hard,
                                    r.balanced_accuracy) for r in table.itertuples()}
    assert got == PRINTED
    # the notebook's thresholds (printed beside its rows): the first best of linspace(0, 1, 150) on val
    th = dict(zip(table["evaluator"], table["threshold"]))
    assert th["unieval"] == pytest.approx(0.8791946308724832) and th["alignscore"] == pytest.approx(0.785234899328859)


def test_the_notebook_threshold_by_hand():
    from sumeval.datasets.loaders.storysumm import tune_threshold_notebook

    # labels 0 0 1 1 at scores .1 .2 .6 .7: every t in (0.2, 0.6] separates them; the first grid point there wins
    t = tune_threshold_notebook(np.array([0.1, 0.2, 0.6, 0.7]), np.array([0, 0, 1, 1]), num=11)
    assert t == pytest.approx(0.3)


def test_counts_columns_split_and_levels(judgments):
    f = judgments.frame
    assert (len(judgments), len(judgments.documents), len(judgments.systems)) == (96, 32, 5)
    assert judgments.humans == ("faithful",) and judgments.annotators == {}
    assert f["faithful"].value_counts().to_dict() == {0.0: 60, 1.0: 36}
    assert f.groupby("split")["faithful"].agg(["size", "sum"]).to_dict() == {"size": {"test": 63, "val": 33},
                                                                              "sum": {"test": 28.0, "val": 8.0}}
    assert (f.groupby("doc_id")["system"].nunique() == 3).all()              # 3 models per story: input level
    assert judgments.default_measures == () and len(judgments.opt_in_measures) == 11
    assert all(c.endswith(".faithful") for c in judgments.opt_in_measures)
    # a label evaluator's column is its labels; GPT-4's stated probability is on 0-1
    assert set(f["fables.faithful"]) == {0.0, 1.0} and int(f["fables.faithful"].sum()) == 53
    assert f["binary-gpt-4-probability.faithful"].between(0, 1).all()
    for level in ("input", "system", "global"):
        assert check_level(judgments, level, "faithful")["pairs"] == 96
    assert judgments.systems_missing_documents["gpt-4"][0] == "story-1"      # not crossed: said so
    with pytest.raises(InputError, match="StorySumm has no reference summaries"):
        from sumeval.metrics.sources import resolve_measures

        resolve_measures(["rouge-1"], judgments)


def test_sentence_level_and_the_two_self_inconsistent_records(judgments):
    from sumeval.datasets.loaders.storysumm import load_storysumm_sentences

    s = load_storysumm_sentences()
    assert len(s) == 579 and int((s["consistent"] == 0).sum()) == 86
    # the summary label is all(sentence labels) for every record but the one labelled 0 with no 0 sentence
    per = s.groupby("summary_id")["consistent"].min()
    labels = judgments.frame.set_index("summary_id")["faithful"]
    differ = sorted(per.index[per != labels[per.index]])
    assert differ == ["7911522387646974049i9mo1w"]
    odd = s[s["summary_id"] == "7911522387646974049i9mo1w"]
    assert (odd["consistent"] == 1).all() and "aunt taking food to the basement" in odd["note"].iloc[0]
    short = s[s["summary_id"] == "8167058533589479g1cebe"]
    assert len(short) == 7 and (short["consistent"] == 1).all() and "6 sentence labels" in short["note"].iloc[0]
    assert (s.loc[s["consistent"] == 0, "explanation"] != "").all()


def test_the_repair_refuses_what_is_not_the_release(tmp_path, monkeypatch):
    """The released file parses only after the repair; a file with another byte there, or another repaired
    text, is refused naming the checksums (the registry's own check bypassed to reach the loader's)."""
    from sumeval.datasets import registry
    from sumeval.datasets.loaders import storysumm as ss

    raw = locate(ss.DATA_FILE).read_bytes()
    with pytest.raises(json.JSONDecodeError):
        json.loads(raw)                                                      # invalid at the source
    assert len(ss.read_storysumm()) == 96
    monkeypatch.setattr(registry, "locate", lambda relpath, verify=True: bad)
    bad = tmp_path / "storysumm.json"
    bad.write_bytes(raw[:ss.STRAY_BYTE] + raw[ss.STRAY_BYTE + 1:])           # already repaired: not the release
    with pytest.raises(InputError, match=r"storysumm\.json: sha256 b88737e5.*the released file's is a5d33036"):
        ss.read_storysumm()
    monkeypatch.setattr(ss, "RELEASED_SHA256", hashlib.sha256(raw.replace(b'"', b"'", 1)).hexdigest())
    bad.write_bytes(raw.replace(b'"', b"'", 1))                              # one byte changed elsewhere
    with pytest.raises(InputError, match=r"the text less byte 196617 has sha256 [0-9a-f]{64}, MANIFEST\.md records "
                                         r"b88737e5"):
        ss.read_storysumm()
