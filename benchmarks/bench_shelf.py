"""The shelf across data sets: what scoring the offline measures costs per set, and what
``across`` (:mod:`sumeval.meta_eval.across`) costs over the whole shelf once they are cached.

Three parts (``SUMEVAL_BENCH_SHELF``, default ``scoring,across``), each timed in this process:

- ``plan``: what the ``shelf`` study's ``default`` computes per set, counted by tokenizing only (no model run):
  the ESTIME family's extraction in token-forwards, BERTScore's pairs and token-forwards, and which of its
  measures cannot run on the set and why (:func:`plan`).
- ``rates``: CPU seconds per token-forward of the extraction and of BERTScore on a small sample (:func:`rates`),
  to turn the plan's counts into CPU hours.
- ``scoring``: every offline measure (ROUGE-1/2/L, BLEU, JS-2, BERTScore, ESTIME, ESTIME-soft,
  similarity order) on every built-in set whose texts it can read, one measure at a time, from
  whatever the score cache holds (point ``SUMEVAL_CACHE`` at an empty folder for a cold run). The
  ESTIME family's first measure on a set pays for the masked-embedding extraction of its texts.
- ``across``: :func:`sumeval.meta_eval.across.meta_evaluate_across` over the shelf with the
  offline measures (cached; ``SUMEVAL_BENCH_MEASURES`` names others, ``module:Class`` ones found
  in ``examples/``) and every set's own measure columns, 1,000 bootstrap resamples and 1,000
  permutations per pair, on ``SUMEVAL_BENCH_JOBS`` processes; its statistics timed per set.

    python benchmarks/run.py shelf                     # both parts
    SUMEVAL_BENCH_SHELF=scoring python benchmarks/bench_shelf.py          # scoring-cheap / scoring-estime: one pass
    SUMEVAL_BENCH_SHELF=across SUMEVAL_BENCH_JOBS=2 python benchmarks/bench_shelf.py
    SUMEVAL_BENCH_SHELF=plan,rates python benchmarks/bench_shelf.py   # the default's cost: counts and CPU rates
"""
from __future__ import annotations

import json
import os
import sys
import time

#: the measures computable offline (packaged models only), as the study ``shelf`` uses them
OFFLINE = ["rouge-1", "rouge-2", "rouge-l", "bleu", "js-2", "bertscore", "estime", "estime-soft",
           "similarity-order"]
#: the measures without a masked-embedding extraction: scored first, on every set
CHEAP = OFFLINE[:6]
#: the ESTIME family: its first measure on a set pays for the extraction of the set's texts
ESTIME = OFFLINE[6:]
OPTIONS = {"precision": "bf16"}


def text_size(judgments) -> int:
    """The characters a set's measures read: its distinct source texts and summaries (0 for a set without them)."""
    f = judgments.frame
    return sum(len(t) for c in ("text", "summary") if c in judgments.fields
               for t in dict.fromkeys(f[c].dropna().astype(str)))


def order(sets=None) -> list[str]:
    """The built-in sets (:data:`sumeval.datasets.shelf_table.SHELF`, every one, or ``sets``) smallest texts first
    (:func:`text_size`), so that a cold run reports early; a set added to the shelf is benchmarked without a list
    here to keep."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.datasets.shelf_table import SHELF

    names = list(SHELF) if sets is None else list(sets)
    return sorted(names, key=lambda n: text_size(load_judgments(n)))


def scoring(sets=None, measures=OFFLINE, log=print) -> list[dict]:
    """Score each measure on each set (``None``: every built-in set, :func:`order`; one at a time); one dict per
    (set, measure)."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.errors import InputError
    from sumeval.metrics.judgment_scores import score_judgments
    from sumeval.metrics.sources import resolve_measures

    rows = []
    for name in order() if sets is None else sets:
        judgments = load_judgments(name)
        for m in measures:
            try:
                (spec,) = resolve_measures([m], judgments, options={k: v for k, v in OPTIONS.items()
                                                                    if m.startswith(("estime", "similarity"))})
            except InputError as exc:
                rows.append({"set": name, "measure": m, "seconds": None, "skipped": str(exc)})
                log(f"{name:13s} {m:17s} cannot run: {str(exc)[:90]}")
                continue
            t = time.perf_counter()
            scores = score_judgments(judgments, [spec])
            dt = time.perf_counter() - t
            rows.append({"set": name, "measure": m, "seconds": round(dt, 1), "rows": len(judgments),
                         "from_cache": bool(scores.from_cache.get(spec.label)),
                         "not_scored": len(scores.not_scored)})
            log(f"{name:13s} {m:17s} {dt:8.1f} s  {len(judgments)} rows"
                f"{' (cache)' if rows[-1]['from_cache'] else ''}  not scored {len(scores.not_scored)}")
    return rows


def default_measures() -> list[str]:
    """The measures of the ``shelf`` study's ``default`` parameter set (``notebooks/shelf.params.yaml``)."""
    from pathlib import Path

    import yaml

    params = yaml.safe_load((Path(__file__).resolve().parents[1] / "notebooks" / "shelf.params.yaml").read_text())
    return [m.strip() for m in str(params["default"]["measures"]).split(",")]


def token_forwards(judgments, tokenizer, seen: dict[str, int] | None = None) -> dict:
    """The work of the ESTIME family's extraction on one set, without running the model: its distinct texts and
    summaries (what :class:`sumeval.similarity.scorers.EstimeScorer` embeds) and the token-forwards of the passes
    that mask every word once (:func:`sumeval.lm.words.plan_passes` with the engine's defaults: window 450, margin
    50, min_distance 8; each pass is its pieces plus CLS and SEP). ``seen``: each text's token-forwards, filled
    here (the cache is keyed by the text, so a text on two sets is extracted once)."""
    from sumeval.lm.words import plan_passes, word_pieces

    seen = {} if seen is None else seen
    f = judgments.frame
    texts = list(dict.fromkeys([*f["text"], *f["summary"]]))
    for t in texts:
        if t not in seen:
            seen[t] = sum(p.end - p.begin + 2 for p in plan_passes(word_pieces(t, tokenizer)["word_starts"],
                                                                   window=450, margin=50, min_distance=8))
    return {"texts": len(texts), "token_forwards": sum(seen[t] for t in texts)}


def bertscore_work(judgments, tokenizer, batch_size: int = 256) -> dict:
    """BERTScore's work on one set, without running the model: its (summary, reference) pairs (bert-score scores
    each summary against each of its references) and the token-forwards of its encoder: each batch of
    ``batch_size`` rows (:func:`sumeval.metrics.judgment_scores.score_judgments`' default) is one bert-score call,
    which encodes the distinct sentences of its summaries and references once each, truncated to the model's
    ``model_max_length`` with the special tokens (``bert_score.utils.sent_encode``)."""
    f = judgments.frame
    rows = [(s, list(r)) for s, r in zip(f["summary"], f["references"])  # a row without references is not scored
            if isinstance(r, (list, tuple)) and len(r)]
    cap = tokenizer.model_max_length
    lengths: dict[str, int] = {}

    def length(t: str) -> int:
        if t not in lengths:
            lengths[t] = len(tokenizer.encode(t.strip(), add_special_tokens=True, max_length=cap, truncation=True))
        return lengths[t]

    tokens = 0
    for start in range(0, len(rows), batch_size):
        batch = rows[start:start + batch_size]
        tokens += sum(length(t) for t in dict.fromkeys([*(s for s, _ in batch), *(x for _, r in batch for x in r)]))
    return {"rows": len(rows), "pairs": sum(len(r) for _, r in rows), "token_forwards": tokens}


def plan(sets=None, measures=None, model: str = "all-mpnet-base-v2", log=print) -> dict[str, dict]:
    """What the ``shelf`` study's ``default`` computes per built-in set (``sets`` None: every set of
    :data:`sumeval.datasets.shelf_table.SHELF`, :func:`order`), counted without running a model: its rows; the
    ESTIME family's extraction (:func:`token_forwards`) where the set has source texts; BERTScore's pairs and
    token-forwards (:func:`bertscore_work`) where it has references; and ``cannot_run``: each measure of
    ``measures`` (default :func:`default_measures`) that cannot run on the set, with the reason the study's
    ``tasks.csv`` gives (the InputError of :func:`sumeval.metrics.sources.resolve_measures`). ``"all sets"``: the
    extraction of the distinct texts of all of them (a text on several sets is extracted once)."""
    from transformers import AutoTokenizer

    from sumeval.datasets.judgments import load_judgments
    from sumeval.errors import InputError
    from sumeval.lm import resolve_model
    from sumeval.metrics.sources import resolve_measures

    measures = default_measures() if measures is None else list(measures)
    tok = AutoTokenizer.from_pretrained(str(resolve_model(model).path))
    out, seen = {}, {}
    for name in order() if sets is None else sets:
        t0 = time.process_time()
        j = load_judgments(name)
        row: dict = {"rows": len(j), "cannot_run": {}}
        for m in measures:
            try:
                resolve_measures([m], j)
            except InputError as exc:
                row["cannot_run"][m] = str(exc)
        fields = set(j.fields)
        if {"text", "summary"} <= fields:
            row["extraction"] = token_forwards(j, tok, seen)
        if "references" in fields:
            row["bertscore"] = bertscore_work(j, tok)
        out[name] = row
        log(f"{name:13s} {json.dumps({k: v for k, v in row.items() if k != 'cannot_run'})} "
            f"cannot run: {', '.join(row['cannot_run']) or '-'} ({time.process_time() - t0:.0f} s CPU)")
    out["all sets"] = {"extraction": {"texts": len(seen), "token_forwards": sum(seen.values())}}  # distinct texts
    log(f"all sets: {json.dumps(out['all sets'])}")
    return out


def first_documents(judgments, need: int, count) -> tuple[object, int]:
    """The set's first documents (in its order) until ``count`` of them reaches ``need``: ``(judgments, count)``."""
    n_docs, got = 0, 0
    while got < need and n_docs < len(judgments.documents):
        n_docs += 1
        got = count(judgments.first_documents(n_docs))
    return judgments.first_documents(n_docs), got


def rates(extraction_sets=("summedits", "faithbench"), bertscore_sets=("summeval", "realsumm"),
          tokens: int = 12_000, model: str = "all-mpnet-base-v2", log=print) -> dict:
    """CPU seconds per token-forward of the two costs the plan counts, measured on a small sample of each set
    (its first documents, about ``tokens`` token-forwards), one thread, fp32, nothing cached: the ESTIME family's
    extraction (:class:`sumeval.lm.MaskedEmbedder` of the texts and summaries, as the scorer asks it) and
    BERTScore (:class:`sumeval.metrics.bertscore.BertScoreScorer` on the rows, in one call as a 256-row batch).
    Process CPU time (``time.process_time``), so a loaded machine's waiting is not counted; the model load is
    outside the timing. ``SUMEVAL_BENCH_RATE_TOKENS`` sets ``tokens``."""
    import torch
    from transformers import AutoTokenizer

    from sumeval.datasets.judgments import load_judgments
    from sumeval.lm import MaskedEmbedder, resolve_model
    from sumeval.metrics.base import Batch
    from sumeval.metrics.bertscore import BertScoreScorer

    torch.set_num_threads(1)
    tok = AutoTokenizer.from_pretrained(str(resolve_model(model).path))
    out: dict = {"torch_threads": torch.get_num_threads(), "cpu": torch.backends.cpu.get_cpu_capability(),
                 "extraction": {}, "bertscore": {}}
    emb = MaskedEmbedder(model, device="cpu", precision="float32", cache=False, memory_items=0)
    emb.embed_many(["A warm-up sentence of a few words."])
    for name in extraction_sets:
        j, n = first_documents(load_judgments(name), tokens, lambda x: token_forwards(x, tok)["token_forwards"])
        texts = list(dict.fromkeys([*j.frame["text"], *j.frame["summary"]]))
        before = dict(emb.stats)
        t, w = time.process_time(), time.perf_counter()
        emb.embed_many(texts)
        cpu, wall = time.process_time() - t, time.perf_counter() - w
        done = emb.stats["tokens"] - before["tokens"]
        out["extraction"][name] = {"documents": len(j.documents), "texts": len(texts), "token_forwards": done,
                                   "planned": n, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
                                   "token_forwards_per_cpu_s": round(done / cpu, 1)}
        log(f"extraction {name}: {json.dumps(out['extraction'][name])}")
    scorer = BertScoreScorer(model, device="cpu")
    scorer.score_batch(Batch(summaries=["A warm-up."], references=[["A warm-up sentence."]]))
    for name in bertscore_sets:
        j, work = first_documents(load_judgments(name), tokens, lambda x: bertscore_work(x, tok)["token_forwards"])
        work = bertscore_work(j, tok)
        f = j.frame
        t, w = time.process_time(), time.perf_counter()
        scorer.score_batch(Batch(summaries=list(f["summary"]), references=[list(r) for r in f["references"]]))
        cpu, wall = time.process_time() - t, time.perf_counter() - w
        out["bertscore"][name] = {"documents": len(j.documents), **work, "cpu_s": round(cpu, 1),
                                  "wall_s": round(wall, 1),
                                  "token_forwards_per_cpu_s": round(work["token_forwards"] / cpu, 1),
                                  "pairs_per_cpu_s": round(work["pairs"] / cpu, 1)}
        log(f"bertscore {name}: {json.dumps(out['bertscore'][name])}")
    return out


def main() -> dict:
    part = os.environ.get("SUMEVAL_BENCH_SHELF", "scoring,across")
    out: dict = {}

    def log(line: str) -> None:
        print(line, flush=True)

    if "plan" in part:
        given = os.environ.get("SUMEVAL_BENCH_SETS")
        out["plan"] = plan(sets=given.split(",") if given else None, log=log)
    if "rates" in part:
        out["rates"] = rates(tokens=int(os.environ.get("SUMEVAL_BENCH_RATE_TOKENS", "12000")), log=log)
    if "scoring" in part:  # scoring: both passes; scoring-cheap, scoring-estime: one of them
        passes = {"scoring-cheap": [CHEAP], "scoring-estime": [ESTIME]}
        todo = next((v for k, v in passes.items() if k in part), [CHEAP, ESTIME])
        given = os.environ.get("SUMEVAL_BENCH_SETS")
        sets = given.split(",") if given else None
        out["scoring"] = [row for measures in todo for row in scoring(sets=sets, measures=measures, log=log)]
    if "across" in part:
        from pathlib import Path

        from sumeval.meta_eval.across import AcrossSettings, meta_evaluate_across

        jobs = int(os.environ.get("SUMEVAL_BENCH_JOBS", "1"))
        measures = os.environ.get("SUMEVAL_BENCH_MEASURES", ",".join(OFFLINE)).split(",")
        options = {"precision": "bf16"} if any(m in measures for m in ESTIME) else {}
        examples = str(Path(__file__).resolve().parents[1] / "examples")
        t = time.perf_counter()
        result = meta_evaluate_across(["shelf"], measures, AcrossSettings(n_resamples=1000, jobs=jobs),
                                      options=options, module_path=[examples])
        out["across_s"] = round(time.perf_counter() - t, 1)
        out["across_jobs"], out["across_measures"] = jobs, measures
        out["across_sets"] = {o.name: {"measures": len(o.labels), **{k: round(v, 1) for k, v in o.timings.items()}}
                              for o in result.sets.values()}
        out["across_timings"] = {k: round(v, 1) for k, v in result.timings.items()}
        out["pairs_tested"] = int(sum(len(o.result.pairwise) for o in result.sets.values() if o.result is not None))
        log(f"across over the shelf ({','.join(measures)}; jobs {jobs}): {out['across_s']} s, "
            f"{out['pairs_tested']} tests")
        log(json.dumps(out["across_sets"], indent=1))
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1)
