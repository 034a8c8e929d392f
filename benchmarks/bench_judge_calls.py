"""Judge calls per second: through an OpenAI-compatible server against in process, side by side.

SmolLM2-135M-Instruct (the judge tests' test double, not a judge) on the first N rows of SummEval,
one short prompt per row (the summary and one question), ``text`` scoring with 2 answer tokens, one
request at a time: the same calls through ``transformers serve`` on 127.0.0.1 (the real ``openai``
client, :class:`sumeval.judges.run.backends.OpenAIBackend`) and in process
(:class:`~sumeval.judges.run.backends.TransformersBackend`), each into a fresh cache, then each again
from its cache (0 calls). Run on a loaded machine the wall times are upper bounds: the load average
is printed before and after.

    python benchmarks/bench_judge_calls.py [N]
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

TEMPLATE = ("Summary: {{ summary[:300] }}\nHow {{ quality }} is this summary, from 1 (worst) to 5 (best)? "
            "Reply with one digit only.")


def main(n: int = 6) -> None:
    from sumeval.cache import Store
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.run.backends import OpenAIBackend, TransformersBackend
    from sumeval.judges.run.runner import generation_params, run_judge
    from sumeval.judges.run.scoring import parse_scoring
    from sumeval.judges.run.templates import jinja_template
    from sumeval.models import packaged_path

    folder = packaged_path("SmolLM2-135M-Instruct")
    frame = load_judgments("summeval", human="coherence").frame.iloc[:n]
    records = frame[["doc_id", "system", "summary"]].to_dict("records")
    tmp = Path(tempfile.mkdtemp(prefix="bench_judge_"))
    (tmp / "t.jinja").write_text(TEMPLATE, encoding="utf-8")
    templates = {"coherence": jinja_template(str(tmp / "t.jinja"), "coherence", (1, 2, 3, 4, 5))}
    scoring = parse_scoring("text")
    params = generation_params(scoring, max_tokens=2)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = str(Path(sys.executable).parent / "transformers")
    print(f"load average before: {os.getloadavg()}")
    t0 = time.perf_counter()
    server = subprocess.Popen([exe, "serve", str(folder), "--host", "127.0.0.1", "--port", str(port), "--device", "cpu",
                               "--dtype", "float32"], stdout=open(tmp / "serve.log", "wb"), stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.5)
        print(f"server up in {time.perf_counter() - t0:.1f} s")
        backends = [("server (transformers serve, openai client)",
                     OpenAIBackend(f"http://127.0.0.1:{port}/v1", str(folder), timeout=600, max_retries=0)),
                    ("in process (transformers)", TransformersBackend(str(folder)))]
        # one warm-up call each (the server loads the model on its first request; in process it loads here)
        for name, b in backends:
            t = time.perf_counter()
            warm = {**params, "max_tokens": 1}
            run_judge(records[:1], templates, scoring, warm, b, concurrency=1, progress=False,
                      store=Store("warm", root=tmp / name.split()[0]))
            print(f"{name}: warm-up (model load + 1 call) {time.perf_counter() - t:.1f} s")
        for name, b in backends:
            store = Store("judge_calls", root=tmp / name.split()[0])
            t = time.perf_counter()
            r = run_judge(records, templates, scoring, params, b, concurrency=1, progress=False, store=store)
            dt = time.perf_counter() - t
            tok = r.stats["tokens"]["prompt_new"] + r.stats["tokens"]["completion_new"]
            t = time.perf_counter()
            again = run_judge(records, templates, scoring, params, b, concurrency=1, progress=False, store=store)
            dt2 = time.perf_counter() - t
            print(f"{name}: {r.stats['calls']['made']} calls in {dt:.1f} s = "
                  f"{r.stats['calls']['made'] / dt:.3f} calls/s, "
                  f"{tok / dt:.0f} tokens/s ({tok} prompt + answer tokens); cached rerun "
                  f"{again.stats['calls']['made']} calls in {dt2:.2f} s")
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(30)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
