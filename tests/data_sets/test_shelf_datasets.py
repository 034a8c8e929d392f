"""Tests of the shelf: the built-in judged data sets (sumeval.datasets.shelf and its family loaders).

Counts are MANIFEST.md's (../shared/data/MANIFEST.md); the joins and the SummEval experts' mean are
recomputed here from the files directly, independently of the loaders; what a set cannot do must
say so; SummEval and REALSumm stay what existing callers read.
"""
from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.datasets import judgments as jd
from sumeval.datasets import shelf
from sumeval.datasets.judgments_model import Judgments, check_level
from sumeval.datasets.loaders import build
from sumeval.datasets.loaders.dialsummeval import paper_score
from sumeval.datasets.loaders.qags import summary_factuality
from sumeval.datasets.realsumm import realsumm_frame
from sumeval.datasets.registry import locate
from sumeval.errors import DataNotFoundError, InputError

from helpers import have_data, needs_data  # tests/ is on the path

pytestmark = pytest.mark.usefixtures("registry_file")  # a private user data set registry (conftest)


@pytest.fixture(scope="module")
def loaded():
    """Each built-in set loaded once for the module (None where its files are not here)."""
    out = {}
    for name in shelf.SHELF:
        try:
            out[name] = shelf.load_builtin(name)
        except DataNotFoundError:
            out[name] = None
    return out


def _get(loaded, name):
    if loaded[name] is None:
        pytest.skip(f"{name} data not found")
    return loaded[name]


# --------------------------------------------------------------------------------------------
# Formulas, against hand computations
# --------------------------------------------------------------------------------------------
def test_dialsummeval_paper_score_by_hand():
    scores = np.array([[4, 4, 5],    # two share 4 -> 4
                       [3, 5, 3],    # a == c -> 3
                       [1, 2, 2],    # b == c -> 2
                       [5, 5, 5],    # all agree -> 5
                       [2, 4, 5]])   # all differ -> (2 + 4 + 5) / 3 = 11/3
    assert paper_score(scores).tolist() == [4.0, 3.0, 2.0, 5.0, 11 / 3]
    with pytest.raises(InputError, match=r"\(n, 3\) array .* got shape \(2, 2\)"):
        paper_score(np.ones((2, 2)))


def test_qags_summary_factuality_by_hand():
    # sentence majorities: [1,1,0] -> yes, [0,0,1] -> no, [1,1,1] -> yes: (1 + 0 + 1) / 3
    assert summary_factuality(np.array([[1, 1, 0], [0, 0, 1], [1, 1, 1]])) == pytest.approx(2 / 3)
    assert summary_factuality(np.array([[0, 1, 0]])) == 0.0          # 1 of 3 said yes: no
    with pytest.raises(InputError, match=r"got shape \(0,\)"):
        summary_factuality(np.array([]))


# --------------------------------------------------------------------------------------------
# What a set cannot do says so (small frames, no data needed)
# --------------------------------------------------------------------------------------------
def _tiny(**kw) -> Judgments:
    frame = pd.DataFrame({"doc_id": ["d1", "d1", "d2", "d2"], "system": ["a", "b", "a", "b"],
                          "q": [1.0, 2.0, 3.0, 4.0], "m": [0.1, 0.2, 0.3, 0.4], "llm": [1.0, 2.0, 2.0, 5.0]})
    base = dict(frame=frame, name="tiny", path=None, sha256="x", format="builtin", humans=("q",),
                measures=("m", "llm"))
    return Judgments(**{**base, **kw})


def test_limits_refuse_a_level_with_the_reason_and_leave_others_alone():
    j = _tiny(limits={"system": "pairs, not systems"})
    with pytest.raises(InputError, match=r"the system level does not apply to tiny: pairs, not systems"):
        check_level(j, "system", "q")
    assert check_level(j, "input", "q")["pairs"] == 4
    with pytest.raises(InputError, match=r"system level needs at least 3 systems; tiny has 2"):
        check_level(_tiny(), "system")   # without limits: the rule it always had


def test_opt_in_measures_are_not_default_measures():
    j = _tiny(opt_in_measures=("llm",))
    assert j.measures == ("m", "llm") and j.default_measures == ("m",)
    assert "opt-in     llm (used only when named)" in j.describe() and "measures   m" in j.describe()


def test_a_measure_needing_a_missing_field_names_the_sets_reason():
    from sumeval.metrics.sources import resolve_measures

    j = _tiny(limits={"summary": "TINY has no texts (not in the release)"})
    with pytest.raises(InputError,
                       match=r"measure 'rouge-1' needs 'summary', which tiny does not have: TINY has no texts"):
        resolve_measures(["rouge-1"], j)
    assert [s.column for s in resolve_measures(["m"], j)] == ["m"]   # its columns still work


def test_unknown_builtin_and_make_judgments_errors(monkeypatch):
    with pytest.raises(InputError,
                       match=r"'nope' is not a built-in data set; built-in: summeval, realsumm, dialsummeval"):
        shelf.load_builtin("nope")
    frame = pd.DataFrame({"doc_id": ["d", "d"], "system": ["s", "s"], "h": [1.0, 2.0]})
    with pytest.raises(InputError, match=r"two rows for \(doc_id 'd', system 's'\)"):
        build.make_judgments(frame, name="t", relpaths=["x"], humans=("h",))
    with pytest.raises(InputError, match=r"declared columns \['nope'\] are not in its frame"):
        build.make_judgments(frame, name="t", relpaths=["x"], humans=("nope",))
    with pytest.raises(InputError, match=r"f\.jsonl: the number of pairs is 2, MANIFEST\.md records 3"):
        build.expect("f.jsonl", "the number of pairs", 2, 3)


@needs_data("qags/mturk_xsum.jsonl")
def test_a_changed_qags_file_is_refused_with_its_line(tmp_path, monkeypatch):
    """The count and worker-order checks, on a copy the checksum check is bypassed for."""
    from sumeval.datasets import registry
    from sumeval.datasets.loaders import qags

    lines = locate(qags.FILES["qags-x"]).read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[4])
    rec["summary_sentences"].append(json.loads(json.dumps(rec["summary_sentences"][0])))
    rec["summary_sentences"][1]["responses"].reverse()
    bad = tmp_path / "x.jsonl"
    bad.write_text("\n".join([*lines[:4], json.dumps(rec), *lines[5:]]) + "\n", encoding="utf-8")
    monkeypatch.setattr(registry, "locate", lambda relpath, verify=True: bad)
    with pytest.raises(InputError, match=r"x\.jsonl:5: the sentences were judged by workers \(.*\) and \(.*\)"):
        qags.load_qags("qags-x")
    bad.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"the number of articles is 238, MANIFEST\.md records 239"):
        qags.load_qags("qags-x")


# --------------------------------------------------------------------------------------------
# Counts: MANIFEST.md's, per set
# --------------------------------------------------------------------------------------------
MANIFEST = {  # name: (records, documents, systems)
    "summeval": (1600, 100, 16), "realsumm": (2500, 100, 25), "dialsummeval": (1400, 100, 14),
    "frank": (2246, 499, 9), "qags-c": (235, 235, 1), "qags-x": (239, 239, 1), "xsumfaith": (2500, 500, 5),
    "newsroom": (420, 60, 7), "rank19": (746, 373, 2), "rose": (1200, 100, 12),
    # issue 34's sets (MANIFEST "Added sets"): FaithBench 75 sources x 10 LLMs; StorySumm 32 stories, 5 models;
    # SummEdits 163 seeds (documents) and their edits, systems = the record suffixes (og or the edit's number);
    # SummHay 29 subtopics, 53 (retriever, LLM) summkeys; TofuEval 300 (document, topic) inputs of 6 models;
    # FABLES 26 books x 5 models
    "faithbench": (750, 75, 10), "storysumm": (96, 32, 5), "summedits": (4681, 163, 40), "summhay": (200, 29, 53),
    "tofueval": (1777, 300, 6), "fables": (130, 26, 5)}


def test_every_shelf_set_has_its_manifest_counts_here():
    """`data list` is checked against these counts for every row of the shelf: a set added without them fails."""
    assert list(MANIFEST) == list(shelf.SHELF)


@pytest.mark.parametrize("name", list(MANIFEST))
def test_counts_equal_the_manifests(loaded, name):
    j = _get(loaded, name)
    assert (len(j), len(j.documents), len(j.systems)) == MANIFEST[name]
    assert j.format == "builtin" and j.name == name and len(j.sha256) == 64
    assert not j.frame.duplicated(["doc_id", "system"]).any()
    for col in (*j.humans, *j.annotator_columns, *j.measures):
        assert j.frame[col].dtype == np.float64, col
    assert shelf.SHELF.keys() == set(jd.BUILTIN) and list(shelf.SHELF) == list(jd.BUILTIN)


def test_frank_counts_splits_and_missing_scores(loaded):
    j = _get(loaded, "frank")
    f = j.frame
    docs = f.drop_duplicates("doc_id")
    assert docs["dataset"].value_counts().to_dict() == {"cnndm": 250, "bbc": 249}
    assert f["split"].value_counts().to_dict() == {"test": 1575, "valid": 671}
    assert f.groupby("dataset")["system"].nunique().to_dict() == {"cnndm": 5, "bbc": 4}
    assert int(f["frank.FEQA"].isna().sum()) == 4 and int(f["frank.Dep_Entail"].isna().sum()) == 83
    assert j.fields == () and len(j.measures) == 15 and j.humans[0] == "factuality" and len(j.humans) == 12
    assert all(c.startswith("Flip_") for c in j.other_columns if c not in ("dataset", "split"))
    assert not (set(j.measures) & {c for c in f.columns if c.startswith("Flip_")})


def test_qags_counts_by_worker_columns(loaded):
    x = _get(loaded, "qags-x")
    workers = x.frame[[f"factuality/worker_{k}" for k in (1, 2, 3)]]
    assert int(workers.to_numpy().sum()) == 348                      # one sentence each: 348 yes of 717
    # majority of 3 per one-sentence summary
    assert (x.frame["factuality"] == (workers.sum(axis=1) >= 2).astype(float)).all()
    c = _get(loaded, "qags-c")
    assert c.frame["doc_id"].str.fullmatch(r"sha1-[0-9a-f]{16}").all()
    assert c.frame["workers"].str.split(",").map(len).eq(3).all()
    assert set(c.frame["system"]) == {"bottom-up"} and set(x.frame["system"]) == {"bart"}
    assert len({w for ws in c.frame["workers"] for w in ws.split(",")}) == 162


def test_xsumfaith_roles_and_authors_factual(loaded):
    j = _get(loaded, "xsumfaith")
    f = j.frame
    with open(locate("xsumfaith/factuality_annotations_xsum_summaries.csv"), encoding="utf-8", newline="") as fh:
        answers = pd.DataFrame(list(csv.DictReader(fh)))
    all_null = answers.groupby(["bbcid", "system"])["is_factual"].agg(lambda a: set(a) == {"NULL"})
    assert (len(all_null), int(all_null.sum())) == (1869, 11)     # asked; every worker answered NULL
    assert int(f["factuality"].notna().sum()) == 1869 - 11 and int(f["faithful"].notna().sum()) == 1992
    ref = f[f["system"] == "reference"]
    assert len(ref) == 500 and ref["factuality"].isna().all() and ref["no_hallucination"].notna().all()
    by_doc = ref.set_index("doc_id")["summary"]
    assert (f["references"].map(lambda r: r[0]) == f["doc_id"].map(by_doc)).all()
    both = f["factuality"].notna() & f["factual"].notna()
    assert (int(both.sum()), int(((f["factuality"] - f["factual"]).abs() < 1e-9)[both].sum())) == (1858, 1856)
    assert not f["summary"].str.contains("\\'", regex=False).any()
    assert "text" not in j.fields and j.measures == tuple(f"xsumfaith.{c}" for c in
                                                        ("R1", "R2", "RL", "BERTScore", "Entailment"))


def test_newsroom_rose_rank19_columns(loaded):
    n = _get(loaded, "newsroom")
    thirds = n.frame[list(n.humans)].to_numpy() * 3
    assert np.allclose(thirds, np.round(thirds))
    assert n.humans == ("coherence", "fluency", "informativeness", "relevance")
    r = _get(loaded, "rose")
    assert r.humans == ("prior", "ref_free", "ref_based", "acu", "normalized_acu")
    gold = r.frame[r.frame["system"] == "gold"]
    assert (gold["summary"] != gold["references"].map(lambda x: x[0])).all()
    k = _get(loaded, "rank19")
    assert k.frame.groupby("system")["fact"].agg(set).to_dict() == {"correct": {1.0}, "incorrect": {0.0}}
    assert "references" not in k.fields


# --------------------------------------------------------------------------------------------
# SummEval: the experts, the judges, and the frame existing callers read
# --------------------------------------------------------------------------------------------
@needs_data("summeval/summeval_pairs_1600.jsonl", "summeval_annotators/human_annotations.json")
def test_summeval_experts_mean_equals_the_human_columns_on_all_6400(loaded):
    """Independent of the loader: the release file read here, joined by key, mean compared exactly."""
    from sumeval.datasets.summeval import QUALITIES, load_summeval

    experts = json.loads(locate("summeval_annotators/human_annotations.json").read_text(encoding="utf-8"))
    base = load_summeval()
    n = 0
    for q in QUALITIES:
        keys = [f"{d}__{s}__{q}" for d, s in zip(base["doc_id"], base["system"])]
        mean = np.array([(experts["e0"][k] + experts["e1"][k] + experts["e2"][k]) / 3 for k in keys])
        assert np.array_equal(mean, base[q].to_numpy())          # exactly, not approximately
        n += len(keys)
        j = _get(loaded, "summeval")
        for k, e in enumerate(("e0", "e1", "e2"), 1):
            assert j.frame[f"{q}/expert_{k}"].tolist() == [float(experts[e][key]) for key in keys]
    assert n == 6400


@needs_data("summeval/summeval_pairs_1600.jsonl", "summeval_annotators/llm_annotations.json")
def test_summeval_frame_unchanged_for_existing_callers_and_judges_opt_in(loaded):
    from sumeval.datasets.summeval import load_summac_consistency_experts, load_summeval

    j = _get(loaded, "summeval")
    base = load_summeval()
    pd.testing.assert_frame_equal(j.frame[list(base.columns)], base)
    assert list(j.frame.columns[: len(base.columns) + 3]) == [*base.columns,
                                                              *(f"consistency/expert_{k}" for k in (1, 2, 3))]
    wide = load_summac_consistency_experts(wide=True)
    got = wide[["doc_id", "system"]].merge(j.frame, on=["doc_id", "system"])
    for k in (1, 2, 3):                                          # SummaC's 100 pairs: the same values
        assert got[f"consistency/expert_{k}"].tolist() == wide[f"expert_{k}"].astype(float).tolist()
    llm = json.loads(locate("summeval_annotators/llm_annotations.json").read_text(encoding="utf-8"))
    assert len(j.measures) == 24 and j.opt_in_measures == j.measures and j.default_measures == ()
    key = f"{base.at[7, 'doc_id']}__{base.at[7, 'system']}__fluency"
    assert j.frame.at[7, "gpt-4o.fluency"] == llm["gpt-4o"][key]
    assert set(j.frame[list(j.measures)].stack().unique()) <= {1.0, 2.0, 3.0, 4.0, 5.0}


@needs_data("summeval/summeval_pairs_1600.jsonl", "summeval_annotators/llm_annotations.json")
def test_summeval_judges_are_measures_only_when_named(loaded):
    from sumeval.metrics.sources import resolve_measures
    from sumeval.studies.common.baseline_rows import measure_scores

    j = _get(loaded, "summeval").first_documents(2)
    assert measure_scores(j, "") is None                       # today's Table 1 takes none of them
    spec, = resolve_measures(["gpt-4o.coherence"], j)
    assert (spec.source, spec.column) == ("column", "gpt-4o.coherence")
    scored = measure_scores(j, "gpt-4o.coherence")
    assert scored.frame["gpt-4o.coherence"].tolist() == j.frame["gpt-4o.coherence"].tolist()


@needs_data("realsumm/realsumm_100x25.jsonl")
def test_realsumm_unchanged(loaded):
    j = _get(loaded, "realsumm")
    pd.testing.assert_frame_equal(j.frame, realsumm_frame())
    assert j.humans == ("litepyramid",) and j.measures == () and j.annotators == {} and j.limits == {}


# --------------------------------------------------------------------------------------------
# DialSummEval: the joins, checked from the files directly
# --------------------------------------------------------------------------------------------
@needs_data("dialsummeval/human_judgment.jsonl", "dialsummeval/models_eval_new/A/metrics.csv")
def test_dialsummeval_joins_and_human_rule(loaded):
    from sumeval.datasets.loaders.dialsummeval import EVAL_DIR, METRICS, QUALITIES, SYSTEMS

    j = _get(loaded, "dialsummeval")
    f = j.frame.set_index(["doc_id", "model_id"])
    dials = locate(f"{EVAL_DIR}/dials.txt").read_text(encoding="utf-8").splitlines()
    first = {d: doc for doc, d in zip(j.frame["doc_id"], j.frame["text"])}
    order = [first[d] for d in dials]                              # line i -> the id whose dialogue it is
    assert len(set(order)) == 100
    for letter in SYSTEMS:
        with open(locate(f"{EVAL_DIR}/{letter}/metrics.csv"), encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
        summs = locate(f"{EVAL_DIR}/{letter}/summs.txt").read_text(encoding="utf-8").splitlines()
        got = f.loc[[(d, letter) for d in order]]
        assert got["summary"].tolist() == summs
        for m in ("rouge-1", "bartscore_s_h", "ppl", "dae"):
            assert got[f"dialsummeval.{m}"].tolist() == [float(r[m]) for r in rows]
    recs = [json.loads(x) for x in locate("dialsummeval/human_judgment.jsonl").read_text(encoding="utf-8").splitlines()]
    for r in recs[:50]:
        row = f.loc[(r["id"], r["model_id"])]
        for q in QUALITIES:
            a = [ann[q] for ann in r["annotations"]]
            assert [row[f"{q}/annotator_{k}"] for k in (1, 2, 3)] == a
            want = next((x for x in a if a.count(x) >= 2), sum(a) / 3)    # the paper's rule, again
            assert row[q] == want
    assert (j.frame.loc[j.frame["system"] == "reference", "model_id"] == "A").all()
    assert len(j.measures) == len(METRICS) == 32 and j.lower_is_better == ("dialsummeval.ppl",)
    ref = j.frame[j.frame["system"] == "reference"].set_index("doc_id")["summary"]
    assert (j.frame["references"].map(lambda r: r[0]) == j.frame["doc_id"].map(ref)).all()


@pytest.mark.parametrize("name,column", [("dialsummeval", "dialsummeval.rouge-1"), ("xsumfaith", "xsumfaith.R1")])
def test_joined_rouge_columns_agree_with_ours_row_by_row(loaded, name, column):
    """A join check that does not read the join: the paper's ROUGE-1 on each row against sumeval's
    ROUGE-1 of that row's summary and reference (other implementations, so not equal, but a row
    joined to the wrong summary would break the agreement)."""
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    j = _get(loaded, name)
    ours = score_judgments(j, resolve_measures(["rouge-1"], j)).frame["rouge-1"].to_numpy()
    theirs = j.frame[column].to_numpy()
    have = ~np.isnan(theirs)
    assert have.sum() == {"dialsummeval": 1400, "xsumfaith": 1992}[name]
    assert np.corrcoef(ours[have], theirs[have])[0, 1] > 0.99
    assert np.median(np.abs(ours[have] - theirs[have])) < 1e-3


# --------------------------------------------------------------------------------------------
# Clear errors for what a set cannot do, through the user's entry points
# --------------------------------------------------------------------------------------------
@needs_data("frank/human_annotations.json", "rank19/rank19_373.jsonl", "xsumfaith/eval_scores_xsum_summaries.csv")
def test_what_a_set_cannot_do_is_a_clear_error(loaded):
    from sumeval.metrics.sources import resolve_measures
    from sumeval.studies.common import study_data

    frank = _get(loaded, "frank")
    with pytest.raises(InputError, match=r"needs 'summary', which frank does not have: FRANK has no texts"):
        resolve_measures(["rouge-1"], frank)
    assert [s.name for s in resolve_measures(["frank.QAGS", "frank.Rouge_1"], frank)] == ["frank.QAGS", "frank.Rouge_1"]
    with pytest.raises(InputError, match=r"dataset='frank': this study reads the 'summary' .* FRANK has no texts"):
        study_data.load("frank", needs=("summary",))
    rank19 = _get(loaded, "rank19")
    with pytest.raises(InputError, match=r"the system level does not apply to rank19: Rank19 is a pairwise set"):
        check_level(rank19, "system", "fact")
    with pytest.raises(InputError, match=r"the global level does not apply to rank19"):
        check_level(rank19, "global")
    assert check_level(rank19, "input", "fact")["documents"] == 373
    xsum = _get(loaded, "xsumfaith")
    with pytest.raises(InputError,
                       match=r"needs 'text', which xsumfaith does not have: XSumFaith has no source articles"):
        resolve_measures(["js-2[against=text]"], xsum)
    with pytest.raises(InputError, match=r"the input level does not apply to qags-c: QAGS-C has one summary"):
        check_level(_get(loaded, "qags-c"), "input")


# --------------------------------------------------------------------------------------------
# sumeval data list / export
# --------------------------------------------------------------------------------------------
@pytest.mark.skipif(not all(have_data(p) for p in ("summeval/summeval_pairs_1600.jsonl", "frank/LICENSE",
                                                   "rose/protocol-comparison.json")), reason="shelf data not found")
def test_data_list_shows_every_set_from_its_data(capsys):
    assert cli.main(["data", "list"]) == 0
    out = capsys.readouterr().out
    for name, (rec, docs, systems) in MANIFEST.items():
        assert f"  {name:<12} built-in {rec} summaries, {docs} documents, {systems} systems; human: " in out
    assert "opt-in (used only when named): gemini_flash.coherence" in out
    assert "cannot read summary, text, references: FRANK has no texts" in out
    assert "not system: the system level does not apply to rank19" in out
    assert "source: https://github.com/artidoro/frank/tree/80a88fb1" in out and "licence: frank: MIT" in out
    assert "annotator columns: factuality x3, no_hallucination x3" in out


@needs_data("frank/human_annotations.json", "qags/mturk_xsum.jsonl")
@pytest.mark.parametrize("name,ext", [("frank", "csv"), ("qags-x", "jsonl")])
def test_export_writes_a_file_that_reads_back(loaded, tmp_path, name, ext):
    out = tmp_path / f"{name}.{ext}"
    assert cli.main(["data", "export", name, "-o", str(out)]) == 0
    j = _get(loaded, name)
    back = jd.load_judgments(out, human=",".join(j.humans))
    cols = [c for c in j.frame.columns if not c.startswith("Flip_")]
    pd.testing.assert_frame_equal(back.frame[cols], j.frame[cols], check_dtype=False)
    assert back.annotators == j.annotators and set(j.measures) <= set(back.measures)


def test_rank19_limits_survive_selection(loaded):
    j = _get(loaded, "rank19")
    small = replace(j.first_documents(3))
    assert small.limits == j.limits and len(small) == 6
    assert Path(j.path).name == "rank19_373.jsonl"


def test_data_list_says_where_to_get_a_missing_set(monkeypatch, capsys):
    def missing(name):
        raise DataNotFoundError(f"data file '{name}/x' not found; get it from https://github.com/x/y")

    monkeypatch.setattr(shelf, "load_builtin", missing)
    assert cli.main(["data", "list"]) == 0
    out = capsys.readouterr().out
    assert "  rose         built-in not available here; human: " in out
    assert "data file 'rose/x' not found; get it from https://github.com/x/y" in out
