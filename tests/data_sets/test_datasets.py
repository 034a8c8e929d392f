"""Tests of sumeval.datasets: the registry (search path, checksums, verification cache) and the
SummEval and REALSumm loaders on the real data."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import hashing
from sumeval.datasets import realsumm, registry, summeval
from sumeval.errors import DataNotFoundError, InputError

SMALL = "realsumm/raw/selected_documents.md"  # a small registered file (905 bytes)


def _find(relpath: str) -> Path | None:
    try:
        return registry.locate(relpath, verify=False)
    except DataNotFoundError:
        return None


@pytest.fixture(scope="module", autouse=True)
def _isolated_cache(tmp_path_factory):
    """Keep the verification cache of these tests out of the project's cache folder."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SUMEVAL_CACHE", str(tmp_path_factory.mktemp("cache")))
        hashing.forget_file_hashes()
        yield
    hashing.forget_file_hashes()


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """A private, empty verification cache for one test."""
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    hashing.forget_file_hashes()
    yield tmp_path / "cache"
    hashing.forget_file_hashes()


needs_summeval = pytest.mark.skipif(
    _find(summeval.PAIRS_FILE) is None, reason="SummEval data not found; see data/README.md")
needs_realsumm = pytest.mark.skipif(
    _find(realsumm.DATA_FILE) is None, reason="REALSumm data not found; see data/README.md")
needs_small = pytest.mark.skipif(_find(SMALL) is None, reason=f"{SMALL} not found; see data/README.md")


# ----------------------------------------------------------------------------------------------
# registry: listing
# ----------------------------------------------------------------------------------------------
def test_registry_lists_data_sets_with_sources_and_checksums():
    names = registry.datasets()
    for name in ("summeval", "realsumm", "nips", "sind", "roc", "wikipedia2015", "wikipedia2018",
                 "reuters21578", "20newsgroups", "bbc2005", "slogans"):
        assert name in names
    for name in names:
        d = registry.info(name)
        assert d.source.startswith("https://github.com/") and d.license and d.description
        assert registry.files(name), name
        for rel, (sha, size) in d.files.items():
            assert len(sha) == 64 and int(sha, 16) >= 0 and size > 0, rel
            assert registry.dataset_of(rel) == name
    assert len(registry.files("realsumm")) == 30  # jsonl, LICENSE, 25 CSVs, SCU list, src, md
    assert "corpora/wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz" in registry.files("wikipedia2015")
    with pytest.raises(InputError, match="'nope'"):
        registry.info("nope")


def test_every_file_of_a_registered_folder_is_registered():
    root_of = {}
    for name in registry.datasets():
        for rel in registry.files(name):
            p = _find(rel)
            if p is not None:
                root_of[rel] = Path(str(p)[: -len(rel)])
    if not root_of:
        pytest.skip("no data found")
    registered = set(registry._BY_FILE)
    folders = {str(Path(rel).parent) for rel in root_of}
    for folder in folders:
        some = next(rel for rel in root_of if str(Path(rel).parent) == folder)
        on_disk = {(Path(folder) / p.name).as_posix()
                   for p in (root_of[some] / folder).iterdir() if p.is_file()}
        assert on_disk <= registered, sorted(on_disk - registered)


def test_verify_all_and_checksums_on_the_real_data():
    report = registry.verify_all(["summeval", "realsumm"])
    if any(c.status == "missing" for c in report.checks):
        pytest.skip("SummEval/REALSumm data not found")
    assert report.ok, str(report)
    assert len(report.checks) == 33
    assert "summeval" in str(report) and report.to_frame().shape[0] == 33
    assert all(row["ok"] and row["error"] == "" for row in report)
    sums = registry.checksums([summeval.PAIRS_FILE])
    assert sums == {summeval.PAIRS_FILE: registry.expected(summeval.PAIRS_FILE)[0]}
    registry.locate(summeval.DOCS_FILE)
    used = registry.accessed()  # what a run manifest records
    assert used[summeval.DOCS_FILE] == registry.expected(summeval.DOCS_FILE)[0]


# ----------------------------------------------------------------------------------------------
# registry: search path, errors, verification cache
# ----------------------------------------------------------------------------------------------
def test_sumeval_data_takes_precedence_in_order(tmp_path, monkeypatch, fresh_cache):
    a, b = tmp_path / "a", tmp_path / "b"
    for root, text in ((a, "from a"), (b, "from b")):
        (root / "mine").mkdir(parents=True)
        (root / "mine" / "notes.txt").write_text(text)
    monkeypatch.setenv("SUMEVAL_DATA", os.pathsep.join([str(a), str(b)]))
    assert registry.locate("mine/notes.txt") == (a / "mine" / "notes.txt").resolve()
    (a / "mine" / "notes.txt").unlink()
    assert registry.locate("mine/notes.txt").read_text() == "from b"
    # an unregistered file is returned unverified; checksums still reports its sha256
    assert not registry.is_registered("mine/notes.txt")
    assert registry.checksums(["mine/notes.txt"]) == {
        "mine/notes.txt": hashlib.sha256(b"from b").hexdigest()}


@needs_small
def test_registered_file_in_sumeval_data_is_preferred_and_verified(tmp_path, monkeypatch, fresh_cache):
    shared = registry.locate(SMALL)
    (tmp_path / SMALL).parent.mkdir(parents=True)
    shutil.copy(shared, tmp_path / SMALL)
    monkeypatch.setenv("SUMEVAL_DATA", str(tmp_path))
    assert registry.locate(SMALL) == (tmp_path / SMALL).resolve()


def test_missing_file_names_file_places_and_source(tmp_path, monkeypatch, fresh_cache):
    home = tmp_path / "home" / "project"
    home.mkdir(parents=True)
    monkeypatch.setenv("SUMEVAL_HOME", str(home))
    monkeypatch.setenv("SUMEVAL_DATA", str(tmp_path / "mydata"))
    with pytest.raises(DataNotFoundError) as err:
        registry.locate(summeval.PAIRS_FILE)
    msg = str(err.value)
    assert "summeval/summeval_pairs_1600.jsonl" in msg
    for place in (tmp_path / "mydata", home / "data", tmp_path / "home" / "shared" / "data"):
        assert str(place / summeval.PAIRS_FILE) in msg
    assert "https://github.com/neulab/BARTScore" in msg and "$SUMEVAL_DATA" in msg


def test_bad_relpath_is_refused():
    with pytest.raises(InputError, match="relative"):
        registry.locate("/etc/passwd")
    with pytest.raises(InputError, match="relative"):
        registry.locate("../secrets.txt")


def _corrupt_copy(tmp_path: Path) -> tuple[Path, bytes]:
    """Copy SMALL into tmp_path/SMALL; return the copy and its original bytes."""
    good = registry.locate(SMALL).read_bytes()
    target = tmp_path / SMALL
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(good)
    return target, good


def _flip_one_byte(path: Path, data: bytes) -> bytes:
    """Change one byte of ``path`` (same size) and move its mtime on; return the new bytes."""
    bad = bytearray(data)
    bad[10] = ord("X") if bad[10] != ord("X") else ord("Y")
    st = path.stat()
    path.write_bytes(bytes(bad))
    # timestamps can be coarser than a quick rewrite: set a clearly different mtime
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    return bytes(bad)


@needs_small
def test_corrupt_file_raises_checksum_error(tmp_path, monkeypatch, fresh_cache):
    copy, good = _corrupt_copy(tmp_path / "data")
    bad = _flip_one_byte(copy, good)
    monkeypatch.setenv("SUMEVAL_DATA", str(tmp_path / "data"))
    with pytest.raises(DataNotFoundError) as err:
        registry.locate(SMALL)
    msg = str(err.value)
    expected_sha = registry.expected(SMALL)[0]
    actual_sha = hashlib.sha256(bad).hexdigest()
    assert SMALL in msg and expected_sha in msg and actual_sha in msg
    assert "https://github.com/neulab/REALSumm" in msg  # the fix: where to get the original
    # the corrupt copy is not silently skipped in favour of the shared one
    report = registry.verify_all("realsumm")
    assert {c.relpath: c.status for c in report.problems} == {SMALL: "mismatch"}
    # nor is a folder that holds it
    with pytest.raises(DataNotFoundError):
        registry.locate("realsumm/raw")


@needs_small
def test_verification_cache_is_used_and_invalidated(tmp_path, monkeypatch, fresh_cache):
    copy, good = _corrupt_copy(tmp_path / "data")
    monkeypatch.setenv("SUMEVAL_DATA", str(tmp_path / "data"))
    calls = []
    real = hashing.sha256_file
    monkeypatch.setattr(hashing, "sha256_file", lambda p, *a, **k: calls.append(p) or real(p, *a, **k))

    assert registry.locate(SMALL) == copy.resolve()
    assert len(calls) == 1
    on_disk = json.loads((fresh_cache / "data_checks.json").read_text())["files"]
    assert on_disk[str(copy.resolve())]["sha256"] == registry.expected(SMALL)[0]

    registry.locate(SMALL)                         # memory cache: no new hash
    hashing.forget_file_hashes()
    registry.locate(SMALL)                         # disk cache: still no new hash
    assert len(calls) == 1

    _flip_one_byte(copy, good)                     # same size, new mtime -> hashed again
    with pytest.raises(DataNotFoundError, match="actual sha256"):
        registry.locate(SMALL)
    assert len(calls) == 2

    st = copy.stat()
    copy.write_bytes(good)                         # restored -> hashed again, accepted
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert registry.locate(SMALL) == copy.resolve()
    assert len(calls) == 3


# ----------------------------------------------------------------------------------------------
# SummEval
# ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def summeval_frame():
    return summeval.load_summeval()


@needs_summeval
def test_load_summeval_shape_columns_dtypes(summeval_frame):
    df = summeval_frame
    assert list(df.columns) == ["doc_id", "system", "summary", "text", "text_tokenized",
                                "references", "coherence", "consistency", "fluency", "relevance"]
    assert df.shape == (1600, 10)
    assert df["doc_id"].nunique() == 100 and df["system"].nunique() == 16
    assert (df.groupby("doc_id").size() == 16).all()
    assert set(df["system"]) == set(summeval.SYSTEMS)
    assert not df.duplicated(["doc_id", "system"]).any()
    for col in ("doc_id", "system", "summary", "text", "text_tokenized"):
        assert pd.api.types.is_string_dtype(df[col]), col
    for q in summeval.QUALITIES:
        assert df[q].dtype == np.float64
        assert df[q].between(1, 5).all()
        assert np.allclose(df[q] * 3, np.round(df[q] * 3))  # means of 3 integer scores
    assert df["references"].map(len).eq(11).all()
    first = df.iloc[0]
    # text is the original article, text_tokenized the PTB-tokenized one
    assert "team's" in first["text"] and "team 's" in first["text_tokenized"]
    assert first["references"][0].startswith("Andros Townsend an 83rd minute sub")


@needs_summeval
def test_load_summeval_n_docs_and_documents(summeval_frame):
    small = summeval.load_summeval(n_docs=2)
    assert small.shape == (32, 10)
    assert list(small["doc_id"].unique()) == list(summeval_frame["doc_id"].unique()[:2])
    docs = summeval.load_summeval_documents()
    assert docs.shape == (100, 4)
    assert list(docs.columns) == ["doc_id", "text", "text_tokenized", "references"]
    with pytest.raises(InputError, match="0"):
        summeval.load_summeval(n_docs=0)


@needs_summeval
def test_summac_consistency_experts(summeval_frame):
    long = summeval.load_summac_consistency_experts()
    assert list(long.columns) == ["doc_id", "system", "summary", "expert", "score", "label"]
    assert long.shape == (300, 6)
    assert set(long["expert"]) == {1, 2, 3} and long["score"].between(1, 5).all()
    assert long["doc_id"].nunique() == 100
    wide = summeval.load_summac_consistency_experts(wide=True)
    assert wide.shape == (100, 8)
    joined = wide.merge(summeval_frame, on=["doc_id", "system"], suffixes=("", "_se"))
    assert len(joined) == 100
    assert np.allclose(joined["consistency"], joined["consistency_se"])
    assert (joined["summary"] == joined["summary_se"]).all()


# ----------------------------------------------------------------------------------------------
# REALSumm
# ----------------------------------------------------------------------------------------------
def test_tags_to_sentences_hand_example():
    text = "<t> the cat sat . </t>  <t>  it  was  happy . </t>\n<t> </t> <t> cut off here"
    assert realsumm.tags_to_sentences(text) == ["the cat sat .", "it was happy .", "cut off here"]
    assert realsumm.tags_to_sentences("no tags at all .") == ["no tags at all ."]
    assert realsumm.tags_to_sentences("<t> </t>") == []


@pytest.fixture(scope="module")
def realsumm_frame():
    return realsumm.load_realsumm()


@pytest.fixture(scope="module")
def judgments():
    return realsumm.load_realsumm_scu_judgments()


@needs_realsumm
def test_load_realsumm_shape_columns_dtypes(realsumm_frame):
    df = realsumm_frame
    assert list(df.columns) == ["doc_id", "system", "summary", "summary_sentences", "text",
                                "text_tokenized", "references", "litepyramid_recall"]
    assert df.shape == (2500, 8)
    assert df["doc_id"].dtype == np.int64 and df["litepyramid_recall"].dtype == np.float64
    assert df["doc_id"].nunique() == 100 and df["system"].nunique() == 25
    assert (df["system"].str.startswith("abs/").groupby(df["doc_id"]).sum() == 14).all()
    assert {"abs/bart_out", "ext/bart_out", "ext/banditsumm_out"} <= set(df["system"])
    assert not df["summary"].str.contains("<t>|</t>").any()
    assert (df["summary"] == df["summary_sentences"].map(" ".join)).all()
    assert df["references"].map(len).eq(1).all()
    assert not df["references"].map(lambda r: "<t>" in r[0]).any()
    assert df["litepyramid_recall"].between(0, 1).all()
    assert realsumm.load_realsumm(n_docs=3).shape == (75, 8)


@needs_realsumm
def test_realsumm_duplicate_bart(realsumm_frame):
    by = realsumm_frame.set_index(["doc_id", "system"])
    a = by.xs("abs/bart_out", level="system")
    e = by.xs("ext/bart_out", level="system")
    assert (a["summary"] == e["summary"]).all()  # the upstream defect this option is for
    dropped = realsumm.load_realsumm(drop_duplicate_bart=True)
    assert dropped.shape == (2400, 8) and "abs/bart_out" not in set(dropped["system"])


@needs_realsumm
def test_scu_judgments_frame(realsumm_frame, judgments):
    j = judgments
    assert list(j.columns) == ["doc_id", "system", "worker", "scu_id", "present"]
    assert j["doc_id"].dtype == np.int64 and j["worker"].dtype == np.int64
    assert j["scu_id"].dtype == np.int64 and j["present"].dtype == bool
    pairs = j[["doc_id", "system"]].drop_duplicates()
    assert len(pairs) == 2500
    keys = set(map(tuple, realsumm_frame[["doc_id", "system"]].to_numpy()))
    assert set(map(tuple, pairs.to_numpy())) == keys
    n_workers = j.groupby(["doc_id", "system"])["worker"].nunique()
    assert set(n_workers) <= {3, 4}
    scus = realsumm.load_realsumm_scus()
    assert set(j["scu_id"]) <= set(scus["scu_id"])


@needs_realsumm
def test_majority_litepyramid_reproduces_stored_values(realsumm_frame, judgments):
    lp = realsumm.litepyramid_from_judgments(judgments)
    m = lp.merge(realsumm_frame[["doc_id", "system", "litepyramid_recall"]],
                 on=["doc_id", "system"], suffixes=("", "_stored"))
    assert len(m) == 2500
    clean = m[m["system"] != "abs/bart_out"]  # the JSONL's abs/bart_out is ext/bart_out's copy
    assert np.allclose(clean["litepyramid_recall"], clean["litepyramid_recall_stored"])
    mean = realsumm.litepyramid_from_judgments(judgments, rule="mean")
    assert not np.allclose(mean["litepyramid_recall"], lp["litepyramid_recall"])


def test_litepyramid_from_judgments_hand_example():
    # one summary, 4 SCUs, workers 0-2 vote (present):
    #   scu 1: 1,1,1 (3/3)  scu 2: 1,1,0 (2/3)  scu 3: 1,0,0 (1/3)  scu 4: 0,0,0
    # majority: SCUs 1 and 2 present -> 2/4 = 0.5
    # mean rule: workers mark 3, 2, 1 SCUs -> (3/4 + 2/4 + 1/4) / 3 = 0.5
    votes = {1: (1, 1, 1), 2: (1, 1, 0), 3: (1, 0, 0), 4: (0, 0, 0)}
    rows = [(7, "abs/x", w, scu, bool(v[w])) for scu, v in votes.items() for w in range(3)]
    # a second summary with 4 workers and a 2-2 tie on its only SCU -> absent -> 0.0;
    # with the first 3 workers (1, 1, 0) it is present -> 1.0
    rows += [(7, "ext/y", w, 9, p) for w, p in enumerate((True, True, False, False))]
    j = pd.DataFrame(rows, columns=["doc_id", "system", "worker", "scu_id", "present"])
    lp = realsumm.litepyramid_from_judgments(j).set_index("system")
    assert lp.loc["abs/x", "litepyramid_recall"] == pytest.approx(0.5)
    assert lp.loc["ext/y", "litepyramid_recall"] == 0.0
    assert lp.loc["ext/y", "n_workers"] == 4 and lp.loc["abs/x", "n_scus"] == 4
    mean = realsumm.litepyramid_from_judgments(j, rule="mean").set_index("system")
    assert mean.loc["abs/x", "litepyramid_recall"] == pytest.approx(0.5)
    assert mean.loc["ext/y", "litepyramid_recall"] == pytest.approx(0.5)
    first3 = realsumm.litepyramid_from_judgments(j, workers=3).set_index("system")
    assert first3.loc["ext/y", "litepyramid_recall"] == 1.0
    # worker 0 alone: abs/x has SCUs 1-3 present -> 3/4
    only0 = realsumm.litepyramid_from_judgments(j, workers=[0]).set_index("system")
    assert only0.loc["abs/x", "litepyramid_recall"] == pytest.approx(0.75)
    # a subset that leaves a summary without workers keeps it, as NaN
    only3 = realsumm.litepyramid_from_judgments(j, workers=[3]).set_index("system")
    assert np.isnan(only3.loc["abs/x", "litepyramid_recall"]) and only3.loc["abs/x", "n_workers"] == 0
    assert only3.loc["ext/y", "litepyramid_recall"] == 0.0
    with pytest.raises(InputError, match="'median'"):
        realsumm.litepyramid_from_judgments(j, rule="median")
    with pytest.raises(InputError, match="present"):
        realsumm.litepyramid_from_judgments(j.drop(columns="present"))
