"""Run a judge over the rows of a judgments data set, through the cache.

Every call is one cache entry (:class:`sumeval.cache.Store` namespace ``judge_calls``) under
a content key of the endpoint, the model, the template's hash, the messages, the generation
parameters and the sample index. An answer is stored by the thread that received it, as soon as
it arrives (atomically), so Ctrl-C, a killed server or a failed call loses nothing already
answered: the same command again asks only for what is missing, and makes no call when nothing
is. ``offline`` refuses to call at all and names the first missing call.

The scores become columns ``<judge>.<quality>`` (:func:`sumeval.datasets.loaders.summeval.judge_column`),
the built-in SummEval judges' shape, beside the rows' ids, texts, human and annotator columns.
"""
from __future__ import annotations

import math
import re
import threading
import time
import warnings
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from sumeval.cache import Store, cache_key
from sumeval.errors import InputError
from sumeval.judges.run.backends import JudgeServerError
from sumeval.judges.run.scoring import (
    LOW_MASS,
    Scoring,
    expected_score,
    label_probabilities,
    parse_leading,
    parse_strict,
)
from sumeval.judges.run.templates import Template

__all__ = ["NAMESPACE", "Call", "JudgeResult", "LowMassWarning", "generation_params", "judge_name", "plan_calls",
           "run_judge"]

NAMESPACE = "judge_calls"


class LowMassWarning(UserWarning):
    """The judge put little probability on the allowed labels (``logprobs`` scoring)."""


def judge_name(model: str) -> str:
    """A column-safe judge name from a model id: its last path part, characters other than letters,
    digits, ``_ . -`` as ``-`` (``"HuggingFaceTB/SmolLM2-135M-Instruct"`` -> ``"SmolLM2-135M-Instruct"``).

    >>> judge_name("meta-llama/Llama-3.1-8B-Instruct:Q4_K_M")
    'Llama-3.1-8B-Instruct-Q4_K_M'
    """
    base = re.sub(r"\.gguf$", "", str(model).rstrip("/").split("/")[-1])
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", base).strip("-.") or "judge"


def generation_params(scoring: Scoring, *, temperature: float | None = None, top_p: float | None = None,
                      max_tokens: int | None = None, seed: int | None = None) -> dict[str, Any]:
    """The generation parameters of each call (``seed`` of a sample: ``seed + sample index``).

    logprobs: one token, temperature 0, the top 20 log-probabilities; text: temperature 0, 5 tokens;
    samples:N: temperature 1, top_p 1, 5 tokens (G-Eval: temperature 2, top_p 1, max_tokens 5).
    """
    if scoring.method == "logprobs":
        p: dict[str, Any] = {"max_tokens": 1, "temperature": 0.0, "logprobs": True, "top_logprobs": 20}
    elif scoring.method == "text":
        p = {"max_tokens": 5, "temperature": 0.0}
    else:
        p = {"max_tokens": 5, "temperature": 1.0, "top_p": 1.0}
    for k, v in (("temperature", temperature), ("top_p", top_p), ("max_tokens", max_tokens)):
        if v is not None:
            p[k] = v
    if scoring.method == "samples" or seed is not None:
        p["seed"] = 0 if seed is None else seed
    return p


@dataclass(frozen=True)
class Call:
    """One request: row ``row`` of the data, quality, sample index, messages, parameters, cache key."""

    row: int
    quality: str
    sample: int
    messages: list
    params: dict
    key: str


def plan_calls(records: Sequence[Mapping[str, Any]], templates: Mapping[str, Template], scoring: Scoring,
               params: Mapping[str, Any], endpoint: str, model: str) -> list[Call]:
    """Every call the run needs, each with its cache key."""
    calls = []
    for quality, template in templates.items():
        for i, record in enumerate(records):
            messages = template.messages(record)
            for s in range(scoring.n):
                p = dict(params)
                if "seed" in p:
                    p["seed"] = int(p["seed"]) + s
                key = cache_key(kind="judge-call", endpoint=endpoint, model=model, template=template.sha256,
                                messages=messages, params=p, sample=s)
                calls.append(Call(i, quality, s, messages, p, key))
    return calls


@dataclass
class JudgeResult:
    scores: dict[str, np.ndarray]  # quality -> score per row (NaN: missing)
    answers: pd.DataFrame  # one row per call: row, doc_id, system, quality, sample, text, value, mass, parsed
    failures: pd.DataFrame  # the answers that did not parse
    stats: dict[str, Any] = field(default_factory=dict)


def _progress(total: int, enabled: bool):
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="call", desc="judge calls", disable=not enabled or total == 0, dynamic_ncols=True)


def run_judge(records: Sequence[Mapping[str, Any]], templates: Mapping[str, Template], scoring: Scoring,
              params: Mapping[str, Any], backend, *, concurrency: int = 4, offline: bool = False,
              progress: bool = True, store: Store | None = None) -> JudgeResult:
    """Score ``records`` (the rows' fields) for each quality of ``templates``.

    Raises:
        InputError: ``offline`` and a call is not in the cache (named).
        JudgeServerError: the server failed; the message says how many answers were kept.
    """
    store = store or Store(NAMESPACE)
    calls = plan_calls(records, templates, scoring, params, backend.endpoint, backend.model)
    answers: dict[str, dict] = {}
    for c in calls:
        got = store.get_json(c.key)
        if got is not None:
            answers[c.key] = got["answer"]
    missing = [c for c in calls if c.key not in answers]
    if missing and offline:
        c = missing[0]
        rec = records[c.row]
        raise InputError(f"--offline: {len(missing)} of {len(calls)} calls are not in the cache ({store.folder}); the "
                         f"first: doc_id {rec.get('doc_id')!r}, system {rec.get('system')!r}, quality {c.quality!r}, "
                         f"sample {c.sample} (key {c.key[:16]}...). Run without --offline to make them, with the same "
                         "model, template and parameters")
    made = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    lock = threading.Lock()
    bar = _progress(len(missing), progress)
    t0 = time.perf_counter()

    def one(c: Call) -> None:
        labels = templates[c.quality].labels
        kw = {"labels": labels} if backend.kind == "transformers" else {}
        answer = backend.call(c.messages, c.params, **kw)
        store.put_json(c.key, {"answer": answer, "request": {"endpoint": backend.endpoint, "model": backend.model,
                                                             "messages": c.messages, "params": c.params,
                                                             "sample": c.sample}})
        with lock:
            answers[c.key] = answer
            made["calls"] += 1
            made["prompt_tokens"] += answer.get("prompt_tokens") or 0
            made["completion_tokens"] += answer.get("completion_tokens") or 0
            dt = max(time.perf_counter() - t0, 1e-9)
            bar.set_postfix_str(f"{(made['prompt_tokens'] + made['completion_tokens']) / dt:.0f} tok/s", refresh=False)
            bar.update(1)

    pool = ThreadPoolExecutor(max_workers=max(1, concurrency if backend.kind == "openai" else 1))
    try:
        futures = [pool.submit(one, c) for c in missing]
        done, _ = wait(futures, return_when=FIRST_EXCEPTION)
        errors = [f.exception() for f in futures if f.done() and not f.cancelled() and f.exception() is not None]
        if errors:
            for f in futures:
                f.cancel()
            pool.shutdown(wait=True)  # calls already under way finish and are cached
            kept = sum(1 for c in calls if c.key in answers)
            err = errors[0]
            if isinstance(err, JudgeServerError):
                raise JudgeServerError(f"{err}. {kept} of {len(calls)} answers are in the cache ({made['calls']} "
                                       f"new); run the same command again to go on from there") from None
            raise err
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        kept = sum(1 for c in calls if c.key in answers)
        raise KeyboardInterrupt(f"{kept} of {len(calls)} answers are in the cache; the same command goes on "
                                "from there") from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        bar.close()
    return _score(records, templates, scoring, calls, answers, made, len(calls) - len(missing),
                  time.perf_counter() - t0)


def _score(records, templates, scoring: Scoring, calls: list[Call], answers: dict, made: dict, cached: int,
           seconds: float) -> JudgeResult:
    rows = []
    for c in calls:
        a = answers[c.key]
        labels = templates[c.quality].labels
        mass = math.nan
        if scoring.method == "logprobs":
            if a.get("label_probs") is not None:
                probs = {int(k): float(v) for k, v in a["label_probs"].items()}
            else:
                probs = label_probabilities(a.get("top_logprobs") or [], labels)
            value, mass = expected_score(probs)
            value = None if math.isnan(value) else value
        elif scoring.method == "text":
            value = parse_strict(a.get("text") or "", labels, templates[c.quality].form_field)
        else:
            value = parse_leading(a.get("text") or "", labels, templates[c.quality].form_field)
        rec = records[c.row]
        rows.append({"row": c.row, "doc_id": rec.get("doc_id"), "system": rec.get("system"), "quality": c.quality,
                     "sample": c.sample, "answer": a.get("text"), "value": np.nan if value is None else float(value),
                     "mass": mass, "parsed": value is not None, "finish_reason": a.get("finish_reason"),
                     "model": a.get("model"),
                     "prompt_tokens": a.get("prompt_tokens"), "completion_tokens": a.get("completion_tokens")})
    answers_frame = pd.DataFrame(rows)
    scores: dict[str, np.ndarray] = {}
    per_quality: dict[str, Any] = {}
    for quality in templates:
        part = answers_frame[answers_frame["quality"] == quality]
        means = part.groupby("row")["value"].mean()  # NaN-skipping: unparsed samples are left out
        col = np.full(len(records), np.nan)
        col[means.index.to_numpy()] = means.to_numpy()
        scores[quality] = col
        info: dict[str, Any] = {"items": len(records), "missing": int(np.isnan(col).sum()),
                                "parse_failures": int((~part["parsed"]).sum()), "answers": len(part),
                                # unparsable answers that stopped at max_tokens: cut, perhaps before the label
                                "parse_failures_cut": int((~part["parsed"] & (part["finish_reason"] == "length"))
                                                          .sum())}
        if scoring.method == "logprobs":
            masses = part["mass"].to_numpy(dtype=float)
            low = int((masses < LOW_MASS).sum())
            info["label_mass"] = {"mean": float(np.nanmean(masses)), "min": float(np.nanmin(masses)),
                                  "median": float(np.nanmedian(masses)), f"below_{LOW_MASS}": low}
            if low:
                warnings.warn(f"{quality}: the judge put less than {LOW_MASS:.0%} probability on the labels "
                              f"{templates[quality].labels[0]}-{templates[quality].labels[-1]} for {low} of "
                              f"{len(masses)} items (mean {np.nanmean(masses):.2f}); its scores rest on little "
                              "mass (answers.csv lists each item's mass)", LowMassWarning, stacklevel=2)
        per_quality[quality] = info
    failures = answers_frame.loc[~answers_frame["parsed"], ["doc_id", "system", "quality", "sample", "answer",
                                                            "finish_reason"]]
    models = sorted({str(m) for m in answers_frame["model"].dropna()})
    stats = {
        "calls": {"total": len(calls), "cached": cached, "made": made["calls"], "seconds": round(seconds, 3)},
        "tokens": {"prompt": int(pd.to_numeric(answers_frame["prompt_tokens"]).fillna(0).sum()),
                   "completion": int(pd.to_numeric(answers_frame["completion_tokens"]).fillna(0).sum()),
                   "prompt_new": made["prompt_tokens"], "completion_new": made["completion_tokens"]},
        "models_reported": models, "qualities": per_quality,
    }
    return JudgeResult(scores, answers_frame, failures.reset_index(drop=True), stats)
