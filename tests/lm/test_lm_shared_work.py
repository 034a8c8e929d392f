"""Processes that need the same masked embeddings at once share the work (issue 19, part 2).

``sumeval run all --jobs 2`` starts studies of the same extraction side by side; each chunk of the
engine is claimed by one process (:func:`sumeval.runstate.claim`), the others leave it and read it
when done. These tests check the claim itself, a chunk held by another process (left to it, then
read), a holder that died without finishing (the chunk is done here), two real processes filling
the same cache (no text computed twice, the arrays those of one process alone), and that
``fill_cache`` gives the arrays ``embed_many`` gives.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from sumeval.cache import Store
from sumeval.lm import MaskedEmbedder
from sumeval.runstate import claim

from helpers import model_installed as _have  # noqa: E402

needs_minilm = pytest.mark.skipif(not _have("minilm"), reason="all-MiniLM-L6-v2 is not installed (make setup)")

TEXTS = [f"Report {i}: the {i}th crew finished the long race in the rain , and the crowd cheered ." for i in range(9)]
GROUPS = [TEXTS[0:4], TEXTS[4:7], TEXTS[7:9]]


def _engine(store: Store) -> MaskedEmbedder:
    return MaskedEmbedder("minilm", device="cpu", cache=store, store_dtype="float32", chunk_passes=2)


def _reference(tmp_path: Path) -> dict[str, np.ndarray]:
    """Every text's arrays from one process alone, group by group (what a study's extraction did)."""
    e = _engine(Store("ref", root=tmp_path / "ref"))
    out = {}
    for g in GROUPS:
        for t, res in zip(g, e.embed_many(g)):
            out[t] = res.emb
    return out


def _same_as_reference(store: Store, ref: dict[str, np.ndarray]) -> None:
    e = _engine(store)
    for t in TEXTS:
        assert e.is_cached(t), t
        assert np.array_equal(e.embed(t).emb, ref[t]), t
    assert e.stats["texts_computed"] == 0


# ------------------------------------------------------------------------------------------
# the claim
# ------------------------------------------------------------------------------------------
def test_a_claim_is_held_once_and_freed_with_its_file(tmp_path):
    p = tmp_path / "claims" / "x.lock"
    with claim(p) as first:
        assert first is True and p.exists()
        with claim(p) as second:  # another open file: another claimant, even in this process
            assert second is False
    assert not p.exists()  # the holder let go: the file is gone
    with claim(p) as again:
        assert again is True


def test_a_claim_of_a_killed_process_is_free(tmp_path):
    p = tmp_path / "x.lock"
    code = ("import sys, time; from sumeval.runstate import claim\n"
            f"with claim({str(p)!r}) as c:\n    print(c, flush=True); time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "True"
        with claim(p) as mine:
            assert mine is False  # held by the live process
        proc.kill()
        proc.wait(10)
        with claim(p) as mine:  # the operating system dropped it with the process
            assert mine is True
    finally:
        proc.kill()


def test_a_claim_that_cannot_be_written_is_granted(tmp_path):
    """A read-only or full cache: the claim (an optimisation, like the cache) lets this process
    do the work alone instead of failing; here the lock's folder would be under a file."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with claim(blocker / "claims" / "x.lock") as mine:
        assert mine is True
    assert blocker.read_text() == "x"


def test_waiting_for_a_claim_blocks_until_it_is_let_go(tmp_path):
    p = tmp_path / "x.lock"
    got: list[tuple[bool, float]] = []

    def waiter() -> None:
        with claim(p, wait=True) as mine:
            got.append((mine, time.monotonic()))

    with claim(p):
        t = threading.Thread(target=waiter)
        t.start()
        time.sleep(0.3)
        assert not got  # still waiting
        released = time.monotonic()
    t.join(10)
    assert got and got[0][0] is True and got[0][1] >= released


# ------------------------------------------------------------------------------------------
# the engine
# ------------------------------------------------------------------------------------------
@needs_minilm
def test_fill_cache_gives_the_arrays_of_embed_many(tmp_path):
    ref = _reference(tmp_path)
    store = Store("m", root=tmp_path / "b")
    e = _engine(store)
    assert e.fill_cache(GROUPS) == len(TEXTS)
    assert e.fill_cache(GROUPS) == 0  # all cached: nothing computed, nothing read
    _same_as_reference(store, ref)


def _first_chunk(store: Store, group: list[str]):
    e = _engine(store)
    return next(iter(e._chunks(e._todo(group))))


@needs_minilm
@pytest.mark.parametrize("holder_finishes", [True, False])
def test_a_chunk_another_process_holds_is_left_to_it(tmp_path, holder_finishes):
    """The held chunk is not computed while held; when the holder lets go, it is read if the holder
    finished it, else computed here (the holder died). Either way every text ends cached, with the
    arrays of one process alone."""
    ref = _reference(tmp_path)
    store = Store("m", root=tmp_path / "b")
    held = _first_chunk(store, GROUPS[1])
    held_keys = [k for k, _, _ in held]
    e = _engine(store)
    result: dict[str, int] = {}
    with e._claim(held) as mine:  # another claimant of that chunk
        assert mine
        worker = threading.Thread(target=lambda: result.update(n=e.fill_cache(GROUPS)))
        worker.start()
        deadline = time.monotonic() + 120
        others = [t for t in TEXTS if e.key(t) not in held_keys]
        while not all(store.has(e.key(t), "npz") for t in others) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)
        assert all(store.has(e.key(t), "npz") for t in others)  # everything else was done meanwhile
        assert worker.is_alive()  # and it waits for the held chunk
        assert not any(store.has(k, "npz") for k in held_keys)  # which it did not compute
        if holder_finishes:
            other = _engine(store)
            for _ in other._compute_chunk(held, claimed=False):
                pass
    worker.join(120)
    assert not worker.is_alive()
    assert result["n"] == len(TEXTS) - (len(held_keys) if holder_finishes else 0)
    _same_as_reference(store, ref)


_FILL = """
import json, sys
from sumeval.cache import Store
from sumeval.lm import MaskedEmbedder
groups = json.loads(sys.argv[2])
e = MaskedEmbedder("minilm", device="cpu", cache=Store("m", root=sys.argv[1]), store_dtype="float32", chunk_passes=2)
print(json.dumps({"computed": e.fill_cache(groups)}))
"""


@needs_minilm
def test_two_processes_filling_the_same_cache_compute_each_text_once(tmp_path):
    ref = _reference(tmp_path)
    root = tmp_path / "shared"
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    procs = [subprocess.Popen([sys.executable, "-c", _FILL, str(root), json.dumps(GROUPS)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outs]
    computed = [json.loads(o[0].strip().splitlines()[-1])["computed"] for o in outs]
    assert sum(computed) == len(TEXTS), computed  # no text twice, none left out
    _same_as_reference(Store("m", root=root), ref)
    assert not list((root / "m" / "claims").glob("*.lock"))  # no claim left behind


# ------------------------------------------------------------------------------------------
# the score cache: two studies scoring the same rows with the same scorer at once
# ------------------------------------------------------------------------------------------
def test_the_same_scores_wanted_twice_at_once_are_computed_once(tmp_path, monkeypatch):
    import pandas as pd

    from sumeval.datasets import judgments as jd
    from sumeval.metrics import judgment_scores
    from sumeval.metrics.sources import resolve_measures

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    rows = [{"doc_id": f"d{i}", "system": s, "summary": f"the {s} cat sat on mat {i}",
             "references": json.dumps([f"a cat sat on the mat {i}"]), "overall": float((i + k) % 3)}
            for i in range(4) for k, s in enumerate("AB")]
    path = tmp_path / "j.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    j = jd.load_judgments(path, human=["overall"])
    real, calls = judgment_scores.score_records, []

    def slow(*args, **kwargs):  # long enough for the other thread to arrive while this one scores
        calls.append(threading.get_ident())
        time.sleep(1.0)
        return real(*args, **kwargs)

    monkeypatch.setattr(judgment_scores, "score_records", slow)
    got: list = [None, None]

    def score(i: int) -> None:
        got[i] = judgment_scores.score_judgments(j, resolve_measures(["rouge-1"], j))

    threads = [threading.Thread(target=score, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
        time.sleep(0.2)
    for t in threads:
        t.join(60)
    assert len(calls) == 1  # the second waited for the first and read its scores
    assert sorted(g.from_cache["rouge-1"] for g in got) == [False, True]
    assert np.array_equal(got[0].frame["rouge-1"].to_numpy(), got[1].frame["rouge-1"].to_numpy())


def _tiny_judgments(tmp_path, summaries=None):
    import pandas as pd

    from sumeval.datasets import judgments as jd

    rows = [{"doc_id": f"d{i}", "system": s, "summary": f"the {s} cat sat on mat {i}",
             "references": json.dumps([f"a cat sat on the mat {i}", f"the mat {i} had a cat"]),
             "overall": float((i + k) % 3)}
            for i in range(4) for k, s in enumerate("AB")]
    for i, text in (summaries or {}).items():
        rows[i]["summary"] = text
    path = tmp_path / "j.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return jd.load_judgments(path, human=["overall"])


def test_the_baseline_rows_and_meta_eval_share_one_scoring(tmp_path, monkeypatch):
    """A paper's baseline row (scored by the studies) and the same measure in ``sumeval meta-eval``
    on the same data set read one cached scoring: BERTScore on SummEval is computed once per
    ``run all``, not once per route (issue 19)."""
    from sumeval.metrics import judgment_scores
    from sumeval.metrics.sources import resolve_measures
    from sumeval.studies.common.baseline_rows import Row, score_rows

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    j = _tiny_judgments(tmp_path)
    real, calls = judgment_scores.score_records, []
    monkeypatch.setattr(judgment_scores, "score_records", lambda *a, **k: calls.append(1) or real(*a, **k))
    rows = {"R1": Row("rouge-1", "rouge-1-f"), "R1 recall": Row("rouge-1", "rouge-1-r")}
    scored = score_rows(j.frame, rows, dataset="tiny", judgments=j)
    assert len(calls) == 1  # one scorer, two rows
    got = judgment_scores.score_judgments(j, resolve_measures(["rouge-1"], j))
    assert len(calls) == 1 and got.from_cache["rouge-1"] is True  # meta-eval read the rows' scoring
    assert np.array_equal(got.frame["rouge-1"].to_numpy(), scored["R1"].to_numpy())
    # by hand: the summary "the A cat sat on mat 0" (7 tokens, "a" lowercased) holds every token of
    # "a cat sat on the mat 0" (F1 1) and 5 of the 6 of "the mat 0 had a cat" (P 5/7, R 5/6: F1
    # 10/13); rouge-1 is their mean
    assert scored.loc[0, "R1"] == pytest.approx((1 + 10 / 13) / 2)
    # a row that drops the first reference is its own scoring (SummEval's diagnostic BLEU row)
    later = score_rows(j.frame, {"R1 later refs": Row("rouge-1", "rouge-1-f", first_reference=1)},
                       dataset="tiny", judgments=j)
    assert later.loc[0, "R1 later refs"] == pytest.approx(10 / 13)


def test_baseline_rows_with_a_summary_not_scored_name_the_row(tmp_path, monkeypatch):
    from sumeval.errors import InputError
    from sumeval.studies.common.baseline_rows import Row, score_rows

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    j = _tiny_judgments(tmp_path, summaries={3: " "})
    with pytest.raises(InputError, match=r"tiny: rouge-1 not scored on 1 rows .*j\.csv"):
        score_rows(j.frame, {"R1": Row("rouge-1", "rouge-1-f")}, dataset="tiny", judgments=j)
    with pytest.raises(ValueError, match="not judgments.frame"):
        score_rows(j.frame.copy(), {"R1": Row("rouge-1", "rouge-1-f")}, dataset="tiny", judgments=j)


# ------------------------------------------------------------------------------------------
# the layer-pair sweep: estime_layers and coherence_order ask for it at the same moment
# ------------------------------------------------------------------------------------------
@needs_minilm
def test_two_callers_of_the_layer_pair_sweep_share_its_parts(tmp_path, monkeypatch):
    import pandas as pd

    from sumeval.studies.common import embedding_extraction as X
    from sumeval.studies.common import layer_pairs as P

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(P, "PART_DOCS", 1)  # one document per part: 3 parts
    pairs = X.load_pairs(3, 2, text_words=40)
    X.extract(pairs, "all-MiniLM-L6-v2")
    want = P.layer_pair_scores(pairs, "all-MiniLM-L6-v2", max_d=5, cache=False)
    real, done = P._document_frames, []

    def slow(doc_id, *args):  # long enough for the other caller to meet a held part
        done.append(doc_id)
        time.sleep(0.5)
        return real(doc_id, *args)

    monkeypatch.setattr(P, "_document_frames", slow)
    done.clear()
    got: list = [None, None]

    def sweep(i: int) -> None:
        got[i] = P.layer_pair_scores(pairs, "all-MiniLM-L6-v2", max_d=5)

    threads = [threading.Thread(target=sweep, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
        time.sleep(0.1)
    for t in threads:
        t.join(120)
    assert sorted(done) == sorted(pairs["doc_id"].unique())  # each document once, between the two
    for scores, local in got:  # both have the whole sweep, exactly as one caller alone computes it
        pd.testing.assert_frame_equal(scores, want[0], check_exact=True)
        pd.testing.assert_frame_equal(local, want[1], check_exact=True)
    cache = tmp_path / "cache"
    assert not [p for p in cache.rglob("*-part*") if p.is_file()]  # the parts are gone
    assert not list(cache.rglob("claims/*.lock"))
    done.clear()
    P.layer_pair_scores(pairs, "all-MiniLM-L6-v2", max_d=5)
    assert done == []  # the whole sweep is read from the cache
