"""``sumeval judge`` through a real ``transformers serve`` on 127.0.0.1 (one server for the module):
G-Eval's own prompts (the data files) end to end, and the audit probes (``--probe``).

The model is SmolLM2-135M-Instruct, a **test double, not a judge** (Kendall -0.40 with SummEval's
experts on 16 items, measured in issue 31): to G-Eval's coherence prompt it answers by filling in the
form line the prompt ends with and writing on ("Coherence: 1. Read the" at 8 tokens), which the strict
text grammar refuses (samples:N, G-Eval's leading number after the form's field, would read 1); cut at 2
tokens ("Coherence", "- Co") nothing parses. The unparsable answers are missing values, counted - the
test checks the pipeline and the counts, not the judge. A G-Eval call is ~800 prompt tokens (16-100 s each on this
shared 2-core CPU through the server), so the suite runs 2 rows; the 40-row run the issue asks for
was run once by hand (BENCHMARKS.md, "Your own judge"). The probes use a short template (a summary and one
question: about a second a call on a quiet CPU).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_judge_runner import FOLDER, _env, _serve, _stop, _sumeval, needs_model

from sumeval.judges.run import parse_strict
from sumeval.judges.run.probes import PADDING

from helpers import free_port  # tests/ is on the path

pytestmark = [pytest.mark.slow, needs_model]

# the whole summary (the padding is at its end), a short question
PROBE_TEMPLATE = ("Summary: {{ summary }}\nHow {{ quality }} is this summary, from 1 (worst) to 5 (best)? Reply with "
                  "one digit only.")
PAIR_TEMPLATE = ("Summary 1: {{ summary_a[:200] }}\nSummary 2: {{ summary_b[:200] }}\nWhich summary is better, 1 or "
                 "2? Reply with one digit only.")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A ``transformers serve`` of the test double: yields its base URL."""
    port, log = free_port(), tmp_path_factory.mktemp("serve") / "serve.log"
    proc = _serve(FOLDER, port, log)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        _stop(proc)


def _requests(cache: Path) -> list[dict]:
    """Every call's request, as the cache holds it."""
    from sumeval.cache import Store

    store = Store("judge_calls", root=cache)
    return [store.get_json(p.stem)["request"] for p in sorted(store.folder.rglob("*.json"))]


def test_geval_prompts_end_to_end_through_the_server(tmp_path, served):
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.run.templates import geval_template

    cache, out = tmp_path / "cache", tmp_path / "judge"
    env = _env(cache)
    cmd = ["judge", "summeval", "--human", "coherence", "--template", "geval", "--model", str(FOLDER),
           "--base-url", served, "--scoring", "text", "--max-tokens", "8", "--concurrency", "2", "--limit", "2",
           "--timeout", "900", "--name", "smol", "-q", "--out", str(out)]  # a loaded CPU: 120 s was not enough
    r = _sumeval(cmd, env)
    assert r.returncode == 0, r.stderr
    # what the server got: G-Eval's coherence prompt (the data file) filled with each row's article and summary
    frame = load_judgments("summeval", human="coherence").frame
    tpl = geval_template("coherence")
    expected = sorted(tpl.messages({"summary": frame["summary"][i], "text": frame["text"][i]})[0]["content"]
                      for i in range(2))
    sent = _requests(cache)
    assert sorted(q["messages"][0]["content"] for q in sent) == expected
    assert all(q["params"] == {"max_tokens": 8, "temperature": 0.0} for q in sent)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["templates"]["coherence"]["sha256"] == tpl.sha256
    assert manifest["templates"]["coherence"]["source"].endswith("prompts/geval/coh_detailed.txt")
    assert manifest["models_reported"] == [str(FOLDER)] and manifest["tokens"]["prompt"] > 1000
    # every answer read by the strict grammar (a label, or the form line "- Coherence:" filled in with one);
    # what does not parse is missing, counted and listed
    answers = pd.read_csv(out / "answers.csv", keep_default_na=False)
    assert manifest["templates"]["coherence"]["form_field"] == "Coherence"
    strict = [parse_strict(a, (1, 2, 3, 4, 5), "Coherence") for a in answers["answer"]]
    rows = [json.loads(line) for line in (out / "judgments.jsonl").read_text().splitlines()]
    assert [row["smol.coherence"] for row in rows] == [None if s is None else float(s) for s in strict]
    q = manifest["qualities"]["coherence"]
    assert q["parse_failures"] == q["missing"] == sum(s is None for s in strict)
    assert len(pd.read_csv(out / "parse_failures.csv")) == q["missing"]
    # the same command again: no call
    r = _sumeval(cmd, env)
    assert r.returncode == 0 and "0 calls made, 2 from the cache" in r.stderr, r.stderr


def test_probes_self_consistency_padding_and_position_swap(tmp_path, served):
    cache, out, tpl, pair = tmp_path / "cache", tmp_path / "judge", tmp_path / "one.jinja", tmp_path / "pair.jinja"
    tpl.write_text(PROBE_TEMPLATE, encoding="utf-8")
    pair.write_text(PAIR_TEMPLATE, encoding="utf-8")
    env = _env(cache)
    base = ["judge", "summeval", "--human", "coherence", "--template", str(tpl), "--model", str(FOLDER),
            "--base-url", served, "--scoring", "samples:1", "--temperature", "1", "--max-tokens", "2",
            "--concurrency", "2", "--limit", "3", "--name", "smol", "-q", "--out", str(out)]
    # refused before any call: position-swap without its template, and the template without the probe
    r = _sumeval([*base, "--probe", "position-swap"], env)
    assert r.returncode == 2 and "needs a pairwise template: --pair-template" in r.stderr, r.stderr
    r = _sumeval([*base, "--pair-template", str(pair)], env)
    assert r.returncode == 2 and "add --probe position-swap" in r.stderr, r.stderr
    r = _sumeval([*base, "--probe", "self-consistency:1"], env)
    assert r.returncode == 2 and "K >= 2" in r.stderr, r.stderr
    assert not (cache / "judge_calls").exists()

    r = _sumeval([*base, "--probe", "self-consistency:2", "padding", "position-swap", "--pair-template", str(pair)],
                 env)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    # calls: 3 (the run; its seed 0 is repeat 0) + 3 (repeat 1, seed 1) + 3 (padded) + 2 x 2 (two pairs of
    # doc 1's first 3 rows, both orders)
    assert manifest["cache"]["made"] == 3
    sent = _requests(cache)
    assert len(sent) == 3 + 3 + 3 + 4
    scores = np.array([json.loads(line)["smol.coherence"] for line in (out / "judgments.jsonl").read_text()
                       .splitlines()], dtype=float)

    # self-consistency: repeat 0 is the run itself; the table's repeats are what the summary reads
    sc = pd.read_csv(out / "probe_self_consistency.csv")
    np.testing.assert_array_equal(sc["repeat_0"].to_numpy(), scores)
    assert {q["params"]["seed"] for q in sent if "Summary:" in q["messages"][0]["content"]} == {0, 1}
    from sumeval.judges.run.probes import padding_effect, position_consistency, self_consistency

    s = manifest["probes"]["self-consistency"]["coherence"]
    want = self_consistency(sc[["repeat_0", "repeat_1"]].to_numpy())
    assert s["repeats"] == 2 and s["seeds"] == [0, 1] and s["items"] == 3
    assert s["exact"] == (None if np.isnan(want["exact"]) else pytest.approx(want["exact"]))

    # padding: the same summaries with the neutral sentences added, sent as such
    padded = [q for q in sent if PADDING in q["messages"][0]["content"]]
    assert len(padded) == 3
    pad = pd.read_csv(out / "probe_padding.csv")
    np.testing.assert_array_equal(pad["score"].to_numpy(), scores)
    p = manifest["probes"]["padding"]["coherence"]
    want = padding_effect(pad["score"].to_numpy(), pad["padded_score"].to_numpy())
    assert p["items"] == want["items"] and p["skipped"] == want["skipped"]

    # position swap: each pair asked in both orders
    sw = pd.read_csv(out / "probe_position_swap.csv")
    assert len(sw) == 2 and list(sw["system_a"]) == ["M0", "M1"] and list(sw["system_b"]) == ["M1", "M2"]
    pair_msgs = [q["messages"][0]["content"] for q in sent if "Which summary is better" in q["messages"][0]["content"]]
    assert len(pair_msgs) == 4
    w = position_consistency(sw["in_order"].to_numpy(), sw["swapped"].to_numpy())
    assert list(sw["verdict"]) == w["verdicts"]
    ps = manifest["probes"]["position-swap"]["coherence"]
    assert ps["pairs"] == 2 and ps["consistent"] + ps["first"] + ps["second"] + ps["other"] == pytest.approx(1)
    assert "self-consistency smol.coherence: 2 repeats" in r.stderr
    assert "position swap smol.coherence: 2 pairs" in r.stderr

    # the same command again: no call; without the probes, their files go (no stale probe beside new scores)
    r = _sumeval([*base, "--probe", "self-consistency:2", "padding", "position-swap", "--pair-template", str(pair)],
                 env)
    assert r.returncode == 0 and "0 calls made" in r.stderr and len(_requests(cache)) == 13, r.stderr
    r = _sumeval(base, env)
    assert r.returncode == 0, r.stderr
    assert not list(out.glob("probe_*")) and json.loads((out / "manifest.json").read_text())["probes"] == {}
