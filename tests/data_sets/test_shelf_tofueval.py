"""TofuEval on the shelf (sumeval.datasets.loaders.tofueval): MANIFEST's counts, the summary label (consistent iff
every sentence is) by hand and recomputed from the CSV files read here independently, the duplicated row, the
sentence level, and the refusals (no sources, no references, no system ids).

No published number is pinned: the paper's tables are per model, and the release anonymises and shuffles the
models per topic; no evaluator's predictions are released. The tests pin the label statistics MANIFEST records.
"""
from __future__ import annotations

import csv
from collections import defaultdict

import pytest

from sumeval.datasets.judgments_model import check_level
from sumeval.datasets.registry import locate
from sumeval.errors import DataNotFoundError, InputError

try:
    locate("tofueval/factual_consistency/mediasum_factual_eval_dev.csv", verify=False)
    HAVE = True
except DataNotFoundError:
    HAVE = False
needs_data = pytest.mark.skipif(not HAVE, reason="tofueval/ not found; see data/README.md")


@pytest.fixture(scope="module")
def judgments():
    from sumeval.datasets.shelf import load_builtin

    return load_builtin("tofueval")


def _raw(corpus: str, split: str) -> list[dict[str, str]]:
    """A factual-consistency file read here with the csv module (newline='', as its fields hold newlines)."""
    with open(locate(f"tofueval/factual_consistency/{corpus}_factual_eval_{split}.csv"), newline="",
              encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_summary_label_by_hand():
    from sumeval.datasets.loaders.tofueval import summary_label

    assert summary_label(["yes", "yes", "yes"]) == 1
    assert summary_label(["yes", "no", "yes"]) == 0 and summary_label(["no"]) == 0
    with pytest.raises(InputError, match="'Yes' is not 'yes' or 'no'"):
        summary_label(["Yes"])
    with pytest.raises(InputError, match="without sentences"):
        summary_label([])


@needs_data
def test_counts_split_corpus_and_the_aggregation(judgments):
    from sumeval.datasets.loaders.tofueval import counts_by_part

    f = judgments.frame
    assert (len(judgments), len(judgments.documents), len(judgments.systems)) == (1777, 300, 6)
    assert judgments.humans == ("consistent",) and judgments.measures == () and judgments.annotators == {}
    parts = counts_by_part(f).set_index(["corpus", "split"])
    assert parts["summaries"].to_dict() == {("mediasum", "dev"): 626, ("mediasum", "test"): 267,
                                            ("meetingbank", "dev"): 617, ("meetingbank", "test"): 267}
    assert parts["inconsistent_sentences"].to_dict() == {("mediasum", "dev"): 354, ("mediasum", "test"): 172,
                                                         ("meetingbank", "dev"): 290, ("meetingbank", "test"): 150}
    # 1,624 meetingbank dev rows, one of them the duplicate
    assert int(parts["sentences"].sum()) == 4946 and parts.loc[("meetingbank", "dev"), "sentences"] == 1623
    # every summary label recomputed from the raw files: consistent iff no sentence is labelled "no"
    want = {}
    for corpus in ("mediasum", "meetingbank"):
        for split in ("dev", "test"):
            labels = defaultdict(list)
            for r in _raw(corpus, split):
                labels[(r["doc_id"], r["topic"], r["model_name"])].append(r["sent_label"])
            want.update({(corpus, *k): float("no" not in v) for k, v in labels.items()})
    got = {(r.corpus, r.source_doc_id, r.topic, r.system): r.consistent for r in f.itertuples()}
    assert got == want
    assert int((f["consistent"] == 0).sum()) == sum(v == 0 for v in want.values())
    # each document in one split, as document_ids_dev_test_split.json lists it
    assert (f.groupby("source_doc_id")["split"].nunique() == 1).all()


@needs_data
def test_the_duplicated_row_is_dropped_once_and_named(judgments):
    from sumeval.datasets.loaders.tofueval import DUPLICATE, load_tofueval_sentences

    raw = _raw("meetingbank", "dev")
    key = DUPLICATE[2:5]
    twice = [r for r in raw if (r["doc_id"], r["topic"], r["model_name"]) == key and r["sent_idx"] == "1"]
    assert len(raw) == 1624 and len(twice) == 2 and twice[0] == twice[1]
    s = load_tofueval_sentences()
    mine = s[(s["source_doc_id"] == key[0]) & (s["topic"] == key[1]) & (s["system"] == key[2])]
    assert mine["sent_idx"].tolist() == sorted(set(int(r["sent_idx"]) for r in raw
                                                   if (r["doc_id"], r["topic"], r["model_name"]) == key))
    row = judgments.frame[(judgments.frame["source_doc_id"] == key[0]) & (judgments.frame["topic"] == key[1])
                          & (judgments.frame["system"] == key[2])].iloc[0]
    assert row["sentences"] == len(mine) and row["summary"] == " ".join(mine["sentence"])
    # the 4 summaries whose indices skip are said so, and only they
    assert sorted(judgments.frame.loc[judgments.frame["missing_sentences"] != "", "missing_sentences"]) == \
        ["1", "1", "2", "3"]


@needs_data
def test_a_repeat_that_differs_or_a_recount_is_refused(tmp_path, monkeypatch):
    from sumeval.datasets import registry
    from sumeval.datasets.loaders import tofueval as te

    real = registry.locate
    rel = te.FILES[("meetingbank", "dev")]
    text = real(rel).read_text(encoding="utf-8")
    line = next(x for x in text.split("\n") if x.startswith("LongBeachCC_10172017_17-0944,") and ",Model-Extra,1," in x)
    bad = tmp_path / "meetingbank_factual_eval_dev.csv"
    monkeypatch.setattr(registry, "locate", lambda r, verify=True: bad if r == rel else real(r))
    # the second copy with another sentence text: a repeat that differs (the file's counts are unchanged)
    first = text.index(line)
    second = text.index(line, first + 1)
    bad.write_text(text[:second] + line.replace("threatening", "menacing") + text[second + len(line):],
                   encoding="utf-8")
    with pytest.raises(InputError, match=r"meetingbank_factual_eval_dev\.csv:\d+: sentence 1 of "
                                         r"\(LongBeachCC_10172017_17-0944, 'Incident on Blue Line train', "
                                         r"Model-Extra\) again \(first at line \d+\), differently"):
        te.load_tofueval()
    bad.write_text(text[:second] + text[second + len(line) + 1:], encoding="utf-8")   # the repeat removed
    with pytest.raises(InputError, match=r"\(rows, summaries, documents, topics, no labels\) is \(1623, 617, 35, "
                                         r"105, 290\), MANIFEST\.md records \(1624, 617, 35, 105, 290\)"):
        te.load_tofueval()


@needs_data
def test_levels_and_refusals_are_stated(judgments):
    with pytest.raises(InputError, match="system level does not apply to tofueval: the release anonymises the "
                                         "models and shuffles their order for every topic"):
        check_level(judgments, "system", "consistent")
    with pytest.raises(InputError, match="1 of 300 documents have fewer: 'LongBeachCC_04212015_15-0344: City "
                                         "Response to New Requirements' \\(1\\)"):
        check_level(judgments, "input", "consistent")
    assert check_level(judgments, "global", "consistent")["pairs"] == 1777
    from sumeval.metrics.sources import resolve_measures

    with pytest.raises(InputError, match="TofuEval has no reference summaries"):
        resolve_measures(["rouge-1"], judgments)
    with pytest.raises(InputError, match="TofuEval has no source documents"):
        resolve_measures(["estime"], judgments)
