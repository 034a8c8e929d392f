"""SummEdits on the shelf (sumeval.datasets.loaders.summedits): MANIFEST.md's counts per domain, split and label,
recomputed here from the 8 files; the seed groups; the levels it supports and refuses; the README's table of
published balanced accuracies (whose models' predictions are not in the release, so it is read, not reproduced).
"""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from sumeval import cli
from sumeval.datasets import registry
from sumeval.datasets.judgments_model import check_level
from sumeval.datasets.loaders import summedits as se
from sumeval.datasets.registry import locate
from sumeval.errors import InputError

from helpers import needs_data

# the data files, and a private user data set registry (conftest)
pytestmark = [needs_data(*se.FILES.values(), se.README_FILE), pytest.mark.usefixtures("registry_file")]

#: MANIFEST.md, summedits/: records; evaluation label 0/1; test label 0/1; seeds (copied from its text)
MANIFEST = {"ectsum": (668, 71, 46, 355, 196, 22), "news": (819, 82, 51, 416, 270, 25),
            "podcast": (500, 69, 55, 268, 108, 21), "qmsumm": (431, 58, 55, 190, 128, 17),
            "sales_call": (520, 80, 51, 267, 122, 18), "sales_email": (613, 97, 35, 337, 144, 21),
            "samsum": (664, 73, 48, 349, 194, 22), "scitldr": (466, 87, 28, 234, 117, 17)}


@pytest.fixture(scope="module")
def summedits():
    from sumeval.datasets.shelf import load_builtin

    return load_builtin("summedits")


def test_counts_per_domain_split_and_label_are_the_manifests(summedits):
    f = summedits.frame
    assert len(f) == 4681 and summedits.humans == ("consistency",) and summedits.measures == ()
    assert (int((f["consistency"] == 0).sum()), int((f["consistency"] == 1).sum())) == (3033, 1648)
    assert f["split"].value_counts().to_dict() == {"test": 3695, "evaluation": 986}
    for domain, (n, e0, e1, t0, t1, seeds) in MANIFEST.items():
        raw = json.loads(locate(se.FILES[domain]).read_text(encoding="utf-8"))   # the file itself, not the loader
        count = lambda split, label: sum(r["split"] == split and r["label"] == label for r in raw)  # noqa: E731
        assert (len(raw), count("evaluation", 0), count("evaluation", 1), count("test", 0), count("test", 1),
                sum(r["id"].endswith("_og") for r in raw)) == (n, e0, e1, t0, t1, seeds)
        g = f[f["domain"] == domain]
        assert (len(g), int(g["seed"].sum())) == (n, seeds)
        for split, (zero, one) in (("evaluation", (e0, e1)), ("test", (t0, t1))):
            lab = g.loc[g["split"] == split, "consistency"]
            assert (int((lab == 0).sum()), int((lab == 1).sum())) == (zero, one), (domain, split)
        # row for row the file's records, labels as numbers
        assert g["summary"].tolist() == [r["summary"] for r in raw]
        assert g["consistency"].tolist() == [float(r["label"]) for r in raw]


def test_seed_groups_hand_checked(summedits):
    """Read by eye in summedits_ectsum.json: ectsum_OXY_q4_2021_og (label 1) opens the file and _0 (label 0,
    $0.13 -> $0.15) follows; qmsumm has 16 documents and 17 seeds."""
    f = summedits.frame
    oxy = f[f["doc_id"] == "ectsum_OXY_q4_2021"].set_index("system")
    assert oxy.loc["og", "consistency"] == 1.0 and oxy.loc["og", "seed"] and oxy.loc["og", "edit_types"] == ""
    assert oxy.loc["0", "consistency"] == 0.0 and "$0.15" in oxy.loc["0", "summary"]
    assert oxy.loc["0", "edit_types"] == "antonym_swap,entity_modification"
    assert (oxy["original_summary"] == oxy.loc["og", "summary"]).all() and set(oxy["split"]) == {"evaluation"}
    assert f["doc_id"].nunique() == 163 and (f.groupby("doc_id")["seed"].sum() == 1).all()
    assert (f.groupby("doc_id")["split"].nunique() == 1).all()     # the split was drawn by seed group
    q = f[f["domain"] == "qmsumm"]
    assert (q["doc_id"].nunique(), q["text"].nunique()) == (17, 16)
    assert (f.loc[f["seed"], "consistency"] == 1.0).all()


def test_levels_supported_and_refused_with_the_reason(summedits):
    assert check_level(summedits, "global", "consistency")["pairs"] == 4681
    with pytest.raises(InputError, match=r"system level does not apply to summedits: SummEdits has no summarisation "
                                         r"systems"):
        check_level(summedits, "system", "consistency")
    with pytest.raises(InputError, match=r"1 of 163 documents have fewer: 'sales_call_23' \(1\)"):
        check_level(summedits, "input", "consistency")
    # without the one seed that has no edit, the input level (per seed group) is there
    keep = summedits.frame[summedits.frame["doc_id"] != "sales_call_23"].reset_index(drop=True)
    assert check_level(replace(summedits, frame=keep), "input", "consistency")["documents"] == 162
    assert "references" in summedits.limits and "references" not in summedits.fields


def test_the_published_table_is_read_not_reproduced(summedits):
    """The README's numbers as printed (GPT4 82.1 overall, humans 90.9; Llama2-7b 50.0 on Podcast, the value of
    any constant prediction); the 19 models' predictions are nowhere in the data set (no measure columns)."""
    pub = se.load_summedits_published()
    assert len(pub) == 20 and pub.index[0] == "Llama2-7b" and pub.index[-1] == "Human Perf."
    assert pub.loc["GPT4", "Overall"] == 82.1 and pub.loc["Human Perf.", "Overall"] == 90.9
    assert pub.loc["Llama2-7b", "Podcast"] == 50.0 and pub.loc["QAFactEval", "ECT Sum"] == 72.6
    in_release = [c for c, d in se.README_DOMAINS.items() if d is not None]
    assert sorted(se.README_DOMAINS[c] for c in in_release) == sorted(se.DOMAINS)
    assert summedits.measures == () and summedits.opt_in_measures == ()
    # a constant prediction's balanced accuracy is 50 exactly (TPR 1, TNR 0 or the reverse): the paper's floor
    from sumeval.stats.binary import balanced_accuracy

    test = summedits.frame[summedits.frame["split"] == "test"]
    assert balanced_accuracy(np.zeros(len(test)), test["consistency"].to_numpy().astype(int), 0.0) == 0.5


def _patched(monkeypatch, tmp_path, domain, change):
    data = json.loads(locate(se.FILES[domain]).read_text(encoding="utf-8"))
    change(data)
    bad = tmp_path / f"summedits_{domain}.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    real = registry.locate
    monkeypatch.setattr(registry, "locate",
                        lambda relpath, verify=True: bad if relpath == se.FILES[domain] else real(relpath, verify))


class TestAFileThatIsNotTheRecordedOne:
    def test_a_record_missing(self, monkeypatch, tmp_path):
        _patched(monkeypatch, tmp_path, "scitldr", lambda d: d.pop())
        with pytest.raises(InputError, match=r"summedits_scitldr\.json: the number of records is 465, MANIFEST\.md "
                                             r"records 466"):
            se.load_summedits()

    def test_a_label_flipped(self, monkeypatch, tmp_path):
        def change(d):
            d[1]["label"] = 1
        _patched(monkeypatch, tmp_path, "ectsum", change)
        with pytest.raises(InputError, match=r"the evaluation records with label 0 / 1 is \(70, 47\), MANIFEST\.md "
                                             r"records \(71, 46\)"):
            se.load_summedits()

    def test_a_seed_group_split_in_two(self, monkeypatch, tmp_path):
        def change(d):  # an edit moved to the test split, and a test edit to evaluation: the counts hold
            first = next(r for r in d if r["split"] == "evaluation" and not r["id"].endswith("_og")
                         and r["label"] == 0)
            other = next(r for r in d if r["split"] == "test" and not r["id"].endswith("_og") and r["label"] == 0)
            first["split"], other["split"] = "test", "evaluation"
        _patched(monkeypatch, tmp_path, "news", change)
        with pytest.raises(InputError, match=r"seed group .* has not exactly one seed .* and one split"):
            se.load_summedits()

    def test_a_record_without_a_label(self, monkeypatch, tmp_path):
        _patched(monkeypatch, tmp_path, "samsum", lambda d: d[3].pop("label"))
        with pytest.raises(InputError, match=r"summedits_samsum\.json: record 3 is not \{id"):
            se.load_summedits()


def test_the_command_line_shows_and_meta_evaluates_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    assert cli.main(["data", "show", "summedits"]) == 0
    out = capsys.readouterr().out
    assert "summedits: 4681 summaries, 163 documents" in out and "note: system" not in out
    assert "note       the README's balanced accuracies (load_summedits_published) are of models whose" in out
    assert cli.main(["meta-eval", "summedits", "--human", "consistency", "--level", "global", "--measures", "length",
                     "--n-resamples", "20", "--no-figures", "--no-spa", "--quiet", "--out", str(tmp_path / "me")]) == 0
    assert (tmp_path / "me" / "detection.csv").is_file()
    assert cli.main(["meta-eval", "summedits", "--human", "consistency", "--measures", "length",
                     "--out", str(tmp_path / "me2")]) == 2
    assert "'sales_call_23' (1)" in capsys.readouterr().err
