"""``sumeval judge`` against another server's recorded answers, replayed by a small real HTTP server.

``transformers serve`` returns no logprobs, so G-Eval's probability-weighted score through a server is
checked on two chat-completions responses as vLLM's OpenAI-compatible server returns them
(``tests/fixtures/judge_server/vllm_chat_logprobs.json``, written by hand from vLLM's protocol and the
OpenAI API reference: ``choices[0].logprobs.content[0].top_logprobs``, 20 entries, -9999.0 for a
probability of 0). Each logprob there is ln of a round probability, so the expected scores below are
computed by hand from those probabilities. The stand-in is a stdlib ``http.server`` on 127.0.0.1 in a
thread, driven through the real ``openai`` client as a user's run is: it replays the recorded
responses, or answers 429 / 503 as a rate-limited or failing server does, and logs every request.
"""
from __future__ import annotations

import collections
import http.server
import json
import math
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from test_judge_runner import _env, _sumeval

from sumeval.judges.run.runner import LowMassWarning

from helpers import FIXTURES  # tests/ is on the path

FIXTURE = FIXTURES / "judge_server" / "vllm_chat_logprobs.json"


class _Replay(http.server.BaseHTTPRequestHandler):
    """Answers POST .../chat/completions: the next scripted action, else the default one. An action is
    ``"ok"`` (the next recorded response, in turn) or ``(status, headers)`` (an OpenAI-style error)."""

    state: dict = {}

    def do_POST(self):  # noqa: N802 - the stdlib's name
        st = self.state
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with st["lock"]:
            st["log"].append((time.monotonic(), json.loads(body)))
            action = st["script"].popleft() if st["script"] else st["default"]
            if action == "ok":
                payload, status, headers = st["responses"][st["served"] % len(st["responses"])], 200, {}
                st["served"] += 1
            else:
                status, headers = action
                kind = "rate_limit_exceeded" if status == 429 else "server_error"
                payload = {"error": {"message": f"stand-in: {status}", "type": kind, "param": None, "code": None}}
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def replay():
    """The stand-in server: yields (base_url, state)."""
    state = {"lock": threading.Lock(), "log": [], "script": collections.deque(), "default": "ok", "served": 0,
             "responses": json.loads(FIXTURE.read_text(encoding="utf-8"))["responses"]}
    handler = type("Replay", (_Replay,), {"state": state})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", state
    finally:
        server.shutdown()
        server.server_close()


def _cmd(url: str, out: Path, limit: int, *extra: str) -> list[str]:
    return ["judge", "summeval", "--human", "coherence", "--template", "geval", "--model", "Qwen/Qwen2.5-7B-Instruct",
            "--base-url", url, "--scoring", "logprobs", "--concurrency", "1", "--limit", str(limit), "-q",
            "--name", "qwen", "--out", str(out), *extra]


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "judgments.jsonl").read_text().splitlines()]


def test_recorded_vllm_logprobs_give_geval_eq1_scores(tmp_path, replay):
    url, state = replay
    env, out = _env(tmp_path / "cache"), tmp_path / "judge"
    # the low mass is said, with the count (a warning: on stderr from the command line)
    with pytest.warns(LowMassWarning, match="less than 50% probability on the labels 1-5 for 1 of 2 items"):
        r = _sumeval(_cmd(url, out, 2), env)
    assert r.returncode == 0, r.stderr
    # what was asked: one token, greedy, the top 20 log-probabilities (the most vLLM and OpenAI give),
    # G-Eval's coherence prompt filled with the row's article and summary
    sent = [body for _, body in state["log"]]
    assert len(sent) == 2
    for body in sent:
        assert {k: body[k] for k in ("logprobs", "top_logprobs", "max_tokens", "temperature")} == \
            {"logprobs": True, "top_logprobs": 20, "max_tokens": 1, "temperature": 0.0}
        assert "Coherence (1-5)" in body["messages"][0]["content"] and "{{" not in body["messages"][0]["content"]
    # by hand, G-Eval eq. 1 over the labels 1-5, renormalised; "4" and " 4" are one label (as are "3"
    # and " 3"), "4." and "3." are not labels, -9999.0 (vLLM's log 0) adds nothing:
    #   response 1: p(1..5) = .002, .015, .21 + .0004, .62 + .012, .09; mass .9494;
    #               score (1*.002 + 2*.015 + 3*.2104 + 4*.632 + 5*.09) / .9494 = 3.6412 / .9494
    #   response 2 (answered "Co"): p(1..5) = 0, .03, .05 + .02, .01, .01; mass .12;
    #               score (2*.03 + 3*.07 + 4*.01 + 5*.01) / .12 = .36 / .12 = 3
    rows = _rows(out)
    assert [row["qwen.coherence"] for row in rows] == pytest.approx([3.6412 / 0.9494, 3.0], abs=1e-9)
    answers = pd.read_csv(out / "answers.csv")
    assert list(answers["mass"]) == pytest.approx([0.9494, 0.12], abs=1e-9)
    assert list(answers["answer"]) == ["4", "Co"] and answers["parsed"].all()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["models_reported"] == ["Qwen/Qwen2.5-7B-Instruct"]
    assert manifest["tokens"]["prompt"] == 912 + 948 and manifest["tokens"]["completion"] == 2
    mass = manifest["qualities"]["coherence"]["label_mass"]
    assert mass["below_0.5"] == 1 and mass["min"] == pytest.approx(0.12)


@pytest.mark.filterwarnings("ignore::sumeval.judges.run.runner.LowMassWarning")  # the scripted answers' mass
def test_rate_limits_and_server_errors_back_off_then_say_so_and_nothing_is_half_written(tmp_path, replay):
    url, state = replay
    env, out = _env(tmp_path / "cache"), tmp_path / "judge"

    # a 429 the SDK retries: each call refused once, then answered; the run completes
    state["script"].extend([(429, {}), "ok", (429, {}), "ok"])
    r = _sumeval(_cmd(url, out, 2, "--max-retries", "2"), env)
    assert r.returncode == 0, r.stderr
    assert len(state["log"]) == 4 and json.loads((out / "manifest.json").read_text())["cache"]["made"] == 2
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    # a server that keeps answering 429: the third row's call is sent 1 + 2 times, with the SDK's
    # exponential back-off between (0.5 s then 1 s, each less up to 25% jitter), then one clear line
    state["default"], state["log"] = (429, {}), []
    r = _sumeval(_cmd(url, out, 3, "--max-retries", "2"), env)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    times = [t for t, _ in state["log"]]
    assert len(times) == 3
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert 0.35 <= gaps[0] < gaps[1] and gaps[1] >= 0.7, gaps
    assert f"the server at {url} still refused with 429 (rate limit) after 2 retries" in r.stderr
    assert "lower --concurrency" in r.stderr and "2 of 3 answers are in the cache (0 new)" in r.stderr
    # nothing half-written: the earlier complete result is there as it was, no file of the failed run
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before

    # a failing server (503, asking for 1 s with Retry-After): the SDK waits as told, then one line
    state["default"], state["log"] = (503, {"Retry-After": "1"}), []
    r = _sumeval(_cmd(url, out, 3, "--max-retries", "1"), env)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    times = [t for t, _ in state["log"]]
    assert len(times) == 2 and times[1] - times[0] >= 0.95
    assert f"the server at {url} failed with 503 (a server error) after 1 retries" in r.stderr
    assert "fix or restart it" in r.stderr and "2 of 3 answers are in the cache" in r.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before

    # the server recovers: the same command makes only the missing call and writes the whole result
    state["default"], state["log"] = "ok", []
    r = _sumeval(_cmd(url, out, 3, "--max-retries", "1"), env)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(state["log"]) == 1 and manifest["cache"]["made"] == 1 and manifest["cache"]["cached"] == 2
    rows = _rows(out)
    assert len(rows) == 3 and all(not math.isnan(row["qwen.coherence"]) for row in rows)


def test_the_command_line_shows_the_low_mass_warning_after_the_run_and_python_w_silences_it(tmp_path, replay):
    """`sumeval judge` holds the run's warnings until its progress lines are done, then shows them as one
    line each through Python's warning filters: `PYTHONWARNINGS=ignore` (or -W) silences them as it would
    any warning (they were re-shown past the filters)."""
    import subprocess
    import sys

    url, _ = replay
    env = _env(tmp_path / "cache")
    cmd = [sys.executable, "-c", "import sys; from sumeval.cli import main; sys.exit(main())",
           *_cmd(url, tmp_path / "judge", 2)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert ("warning: coherence: the judge put less than 50% probability on the labels 1-5 for 1 of 2 items "
            "(mean 0.53)") in r.stderr, r.stderr
    r = subprocess.run(cmd, env={**env, "PYTHONWARNINGS": "ignore::UserWarning"}, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "warning:" not in r.stderr and "0 calls made, 2 from the cache" in r.stderr, r.stderr
