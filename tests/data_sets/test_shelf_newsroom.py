"""Newsroom's individual raters on the shelf (sumeval.datasets.loaders.newsroom): Judge-Bench's conversion of the
3 AMT ratings per quality, joined in place to BARTScore's 420 (doc_id, system) rows as MANIFEST.md's
``newsroom_raters/`` section says; BARTScore's means untouched; the alternative annotator test on them through
the command line.

The counts are MANIFEST.md's; the join and the means are recomputed here from the two files directly (the id
formula and the raw JSON), independently of the loader.
"""
from __future__ import annotations

import json
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.datasets import registry
from sumeval.datasets.loaders import newsroom as nr
from sumeval.datasets.registry import locate
from sumeval.errors import InputError

from helpers import needs_data

SYSTEMS = ("abstractive", "fragments", "lede3", "pointer_c", "pointer_n", "pointer_s", "textrank")
QUALITIES = ("coherence", "fluency", "informativeness", "relevance")

# the data files, and a private user data set registry (conftest)
pytestmark = [needs_data(nr.DATA_FILE, nr.RATERS_FILE), pytest.mark.usefixtures("registry_file")]


@pytest.fixture(scope="module")
def newsroom():
    from sumeval.datasets.shelf import load_builtin

    return load_builtin("newsroom")


def _raw():
    shelf = [json.loads(line) for line in locate(nr.DATA_FILE).read_text(encoding="utf-8").splitlines()]
    jb = json.loads(locate(nr.RATERS_FILE).read_text(encoding="utf-8"))
    return shelf, jb


def test_counts_are_the_manifests(newsroom):
    f = newsroom.frame
    assert (len(f), f["doc_id"].nunique(), f["system"].nunique()) == (420, 60, 7)
    cols = [nr.rater_column(q, k) for q in QUALITIES for k in (1, 2, 3)]
    assert newsroom.annotator_columns == tuple(cols)
    assert dict(newsroom.annotators) == {q: tuple(nr.rater_column(q, k) for k in (1, 2, 3)) for q in QUALITIES}
    values = f[cols].to_numpy().ravel()
    assert values.dtype == np.float64 and values.size == 5040
    assert dict(sorted(Counter(values.astype(int).tolist()).items())) == {1: 529, 2: 556, 3: 1179, 4: 1731, 5: 1045}
    assert sorted(f["jb_id"]) == list(range(1, 421)) and "jb_id" in newsroom.other_columns
    assert newsroom.measures == () and newsroom.humans == QUALITIES


def test_the_join_and_the_means_recomputed_from_the_files(newsroom):
    """id = 7 x rank(doc_id, numeric) + rank(system) + 1 for every row; the mean of the 3 individual ratings of
    that instance equals BARTScore's score on 1,680 of 1,680 (within 1e-9); the loader's columns are the raw
    ratings in list order."""
    shelf, jb = _raw()
    rank = {d: i for i, d in enumerate(sorted((r["doc_id"] for r in shelf), key=int))}
    by_id = {inst["id"]: inst["annotations"] for inst in jb["instances"]}
    f = newsroom.frame
    n = 0
    for r in shelf:
        for s in SYSTEMS:
            iid = 7 * rank[r["doc_id"]] + SYSTEMS.index(s) + 1
            row = f[(f["doc_id"] == r["doc_id"]) & (f["system"] == s)].iloc[0]
            assert row["jb_id"] == iid
            for q in QUALITIES:
                ind = by_id[iid][q.capitalize()]["individual_human_scores"]
                assert abs(sum(ind) / 3 - r["sys_summs"][s]["scores"][q]) <= 1e-9
                assert [row[nr.rater_column(q, k)] for k in (1, 2, 3)] == [float(x) for x in ind]
                n += 1
    assert n == 1680


def test_the_join_by_text_hand_checked_and_the_eight_the_id_formula_decides():
    """Instance 1's summary (read by eye: "collection of all usatoday.com coverage of war of chenda ...") is
    fragments' summary of article 144, the first article in numeric order: id 7 x 0 + 1 + 1 would be 2, so by the
    formula it is abstractive's (rank 0): id 1. Checked here on the texts. And the 8 instances whose text matches
    two systems of one article are MANIFEST's."""
    shelf, jb = _raw()
    norm = lambda t: re.sub(r"[^a-z0-9]", "", t.lower())  # noqa: E731
    first = next(r for r in shelf if r["doc_id"] == "144")
    summ = jb["instances"][0]["instance"].split("\n\n### Source Article\n\n")[0]
    summ = summ.removeprefix("### Generated Summary\n\n")
    assert [s for s in SYSTEMS if norm(first["sys_summs"][s]["sys_summ"]) == norm(summ)] == ["abstractive"]
    ambiguous = []
    for inst in jb["instances"]:
        summ = inst["instance"].split("\n\n### Source Article\n\n")[0].removeprefix("### Generated Summary\n\n")
        hits = {(r["doc_id"], s) for r in shelf for s in SYSTEMS if norm(r["sys_summs"][s]["sys_summ"]) == norm(summ)}
        if len({d for d, _ in hits}) == 1 and len(hits) == 2:
            ambiguous.append(inst["id"])
    assert ambiguous == [125, 126, 173, 174, 384, 385, 418, 419]


def test_no_existing_newsroom_number_moves(newsroom):
    """The rows, ids, texts and the 4 mean columns are load_newsroom()'s, which are BARTScore's file as it is."""
    base = nr.load_newsroom()
    f = newsroom.frame
    pd.testing.assert_frame_equal(f[list(base.columns)], base)
    shelf, _ = _raw()
    for q in QUALITIES:
        assert f[q].tolist() == [float(r["sys_summs"][s]["scores"][q]) for r in shelf for s in SYSTEMS]
    assert list(f.columns[: len(base.columns)]) == list(base.columns)


def _patched(monkeypatch, tmp_path, change):
    """Point the raters file at a changed copy (sha256 not checked: the counts and the join are)."""
    data = json.loads(locate(nr.RATERS_FILE).read_text(encoding="utf-8"))
    change(data)
    bad = tmp_path / "newsroom.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    real = registry.locate
    monkeypatch.setattr(registry, "locate",
                        lambda relpath, verify=True: bad if relpath == nr.RATERS_FILE else real(relpath, verify))
    return bad


def _set_score(data, iid, metric, k, value):
    ann = data["instances"][iid - 1]["annotations"][metric]
    ann["individual_human_scores"][k] = value
    ann["mean_human"] = round(sum(ann["individual_human_scores"]) / 3, 2)


class TestAFileThatIsNotTheRecordedOne:
    def test_a_rating_that_breaks_the_mean(self, monkeypatch, tmp_path):
        # instance 1's coherence [4, 4, 3] becomes [4, 4, 5]: its majority (4) and mean_human stay consistent
        _patched(monkeypatch, tmp_path, lambda d: _set_score(d, 1, "Coherence", 2, 5))
        with pytest.raises(InputError, match=r"newsroom\.json: the mean coherence of instance id 1 is "
                                             r"4\.33+, newsroom/newsroom_60x7\.jsonl has 3\.66+\d* for \(doc '144', "
                                             r"'abstractive'\) \(1 of 420 differ\)"):
            nr.load_newsroom_raters()

    def test_an_instance_missing_or_a_rating_missing(self, monkeypatch, tmp_path):
        _patched(monkeypatch, tmp_path, lambda d: d["instances"].pop())
        with pytest.raises(InputError, match=r"the number of instances is 419, MANIFEST\.md records 420"):
            nr.load_newsroom_raters()

    def test_a_summary_no_row_has(self, monkeypatch, tmp_path):
        def change(d):
            inst = d["instances"][9]
            inst["instance"] = inst["instance"].replace("### Generated Summary\n\n", "### Generated Summary\n\nnot ")
        _patched(monkeypatch, tmp_path, change)
        with pytest.raises(InputError, match=r"instance id 10 matches 0 Newsroom summaries"):
            nr.load_newsroom_raters()

    def test_ids_in_another_order_break_the_formula(self, monkeypatch, tmp_path):
        def change(d):
            d["instances"][0]["id"], d["instances"][1]["id"] = 2, 1
        _patched(monkeypatch, tmp_path, change)
        with pytest.raises(InputError, match=r"instance id 2 joins \(doc '144', 'abstractive'\) by its text, but the "
                                             r"id formula gives \(doc '144', 'fragments'\)"):
            nr.load_newsroom_raters()


def test_data_show_says_the_raters_are_slots(capsys):
    assert cli.main(["data", "show", "newsroom"]) == 0
    out = capsys.readouterr().out
    assert "annotators coherence: coherence/rater_1, coherence/rater_2, coherence/rater_3 (420 rows)" in out
    assert "note       annotators: rater_1..3 are slots, not persons" in out


OVERLAP_JUDGE = '''
import numpy as np
from sumeval.metrics import Scorer


class OverlapJudge(Scorer):
    """A judge on the raters' 1-5 scale: 1 + 4 x the share of the summary's words found in the article."""
    name = "overlap_judge"
    needs = ("text",)
    higher_is_better = True

    def columns(self):
        return ["overlap_judge"]

    def score_batch(self, batch):
        out = []
        for s, t in zip(batch.summaries, batch.texts):
            words, seen = s.lower().split(), set(t.lower().split())
            out.append(1 + 4 * sum(w in seen for w in words) / max(1, len(words)))
        return {"overlap_judge": np.array(out)}
'''


def test_alt_test_runs_on_newsroom_raters_through_the_command_line(newsroom, tmp_path, monkeypatch):
    """Newsroom has no judge of its own: one is passed as a Scorer on the 1-5 scale (module:Class), scored by the
    command on all 420 summaries, and tested against the 3 rater slots per quality and pooled, with the crowd
    epsilon 0.1; the numbers equal alt_test on the same values computed here."""
    from sumeval.judges.alt_test import alt_test

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    (tmp_path / "overlapjudge.py").write_text(OVERLAP_JUDGE, encoding="utf-8")
    out = tmp_path / "alt"
    assert cli.main(["alt-test", "newsroom", "--human", *QUALITIES, "--judges", "overlapjudge:OverlapJudge",
                     "--module-path", str(tmp_path), "--epsilon", "0.1", "--pooled", "--no-figures", "-q",
                     "--out", str(out)]) == 0
    res = pd.read_csv(out / "alt_test.csv").set_index("human")
    assert list(res.index) == [*QUALITIES, "pooled"]
    assert (res["n_annotators"] == 3).all() and (res.loc[list(QUALITIES), "n_items"] == 420).all()
    f = newsroom.frame
    values = [1 + 4 * sum(w in set(t.lower().split()) for w in s.lower().split()) / max(1, len(s.split()))
              for s, t in zip(f["summary"], f["text"])]
    by_hand = f.assign(**{f"overlap.{q}": values for q in QUALITIES})
    direct = alt_test(by_hand, list(QUALITIES), ["overlap"], pooled=True, epsilon=0.1).results.set_index("human")
    np.testing.assert_allclose(res["winning_rate"], direct.loc[res.index, "winning_rate"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(res["advantage_probability"], direct.loc[res.index, "advantage_probability"],
                               rtol=0, atol=1e-12)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["humans"]["coherence"] == ["coherence/rater_1", "coherence/rater_2", "coherence/rater_3"]
    assert manifest["dataset"]["name"] == "newsroom" and manifest["dataset"]["rows"] == 420
