"""The masked-embedding engine (sumeval.lm.MaskedEmbedder) against a plain reference loop.

Same model, same texts, same passes (the engine's own pass plan and masked inputs):

- matmul rate of this machine, fp32 and bf16: (512 x 768) @ (768 x 3072), the shape of a
  transformer's feed-forward layer - the ceiling any engine here can approach;
- the engine (batched across windows and documents, ``inference_mode``, every layer kept) in
  fp32 and bf16: tokens/s and achieved GFLOP/s, as a fraction of the matmul rate;
- (c) the engine in fp32 with whole batches against its default on a CPU, slices of about
  ``CPU_FORWARD_TOKENS`` padded positions, on ``SLICE_DOCS`` SummEval articles: rate and equality;
- (d) the engine in fp32 with the last layer on every position against its default on a CPU, the last
  layer on the positions read only (``MaskedEmbedder(last_layer_rows=...)``), on the same articles and
  on ``N_SUMMARIES`` summaries: rate per CPU second and equality;
- the reference loop as the public reference implementation does it: one window per forward
  pass, batch size 1, ``torch.no_grad()`` (not ``inference_mode``), one layer kept:
  (a) for one layer; (b) for the layer sweep of the studies, where it must run once per layer.
  (b) is timed on ``REF_LAYERS_TIMED`` layers and scaled to all of them (every run does the same
  work whatever layer it keeps); set ``SUMEVAL_BENCH_FULL=1`` to time every layer.

Texts: the first SummEval article and the first ``N_SUMMARIES`` summaries of it (fixed), no cache.
FLOPs are counted analytically on the real (unpadded) tokens: per layer and sequence of n tokens,
``2 n (4 H^2 + 2 H I) + 4 n^2 H`` (projections, feed-forward, attention scores and mixing).
On a shared machine, read the fractions (engine / matmul, measured back to back) rather than
the absolute rates.
"""
from __future__ import annotations

import os
import time

N_SUMMARIES = 4
REF_LAYERS_TIMED = 2
SLICE_DOCS = 3
MODEL = "all-mpnet-base-v2"


def matmul_rate(dtype_name: str, repeats: int = 20) -> float:
    """GFLOP/s of (512 x 768) @ (768 x 3072) in ``dtype_name`` (best of 3 rounds)."""
    import torch

    dtype = getattr(torch, dtype_name)
    g = torch.Generator().manual_seed(0)
    a = torch.randn(512, 768, generator=g).to(dtype)
    b = torch.randn(768, 3072, generator=g).to(dtype)
    flops = 2 * 512 * 768 * 3072 * repeats
    best = float("inf")
    with torch.inference_mode():
        for _ in range(3):
            a @ b
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(repeats):
                a @ b
            best = min(best, time.perf_counter() - t0)
    return flops / best / 1e9


def _flops(lengths: list[int], cfg) -> float:
    H, F, L = cfg.hidden_size, cfg.intermediate_size, cfg.num_hidden_layers  # F: the feed-forward width
    return float(sum(L * (2 * n * (4 * H * H + 2 * H * F) + 4 * n * n * H) for n in lengths))


def _jobs(emb, texts: list[str]):
    """(input ids, read positions, text index, masked word indices) of every pass, as the engine."""
    out = []
    for i, t in enumerate(texts):
        wp, passes = emb._prepare(t)
        out += [(*emb._sequence(wp, p), i, list(p.words)) for p in passes]
    return out


def reference_loop(model, jobs, layer: int) -> list:
    """One window per forward pass, batch size 1, no_grad, keep one layer."""
    import torch

    out = []
    with torch.no_grad():
        for ids, positions, *_ in jobs:
            hs = model(input_ids=torch.tensor([ids]), output_hidden_states=True).hidden_states
            out.append(hs[layer][0, positions].numpy())
    return out


def main() -> dict:
    import numpy as np
    import torch

    from sumeval.datasets.summeval import load_summeval
    from sumeval.lm import CPU_FORWARD_TOKENS, MaskedEmbedder, load_model

    pairs = load_summeval(n_docs=1)
    texts = [pairs["text"].iloc[0], *pairs["summary"].iloc[:N_SUMMARIES]]
    loaded = load_model(MODEL)
    cfg = loaded.model.config
    n_layers = cfg.num_hidden_layers + 1
    out: dict = {"model": MODEL, "texts": len(texts), "torch_threads": torch.get_num_threads(),
                 "note": "taken on a shared machine unless it was idle; compare fractions"}

    rate = {p: matmul_rate(p) for p in ("float32", "bfloat16")}
    out["matmul_gflops_fp32"] = round(rate["float32"], 1)
    out["matmul_gflops_bf16"] = round(rate["bfloat16"], 1)
    print(f"matmul 512x768 @ 768x3072: fp32 {rate['float32']:.1f} GFLOP/s, bf16 {rate['bfloat16']:.1f} GFLOP/s")

    emb32 = MaskedEmbedder(MODEL, cache=False)
    jobs = _jobs(emb32, texts)
    lengths = [len(j[0]) for j in jobs]
    tokens, flops = sum(lengths), _flops(lengths, cfg)
    out.update(passes=len(jobs), token_forwards=tokens, gflop=round(flops / 1e9, 1))
    print(f"{len(texts)} texts: {len(jobs)} passes, {tokens} token-forwards, {flops / 1e9:.1f} GFLOP per full run")

    engine = {}
    for prec, short in (("float32", "fp32"), ("bfloat16", "bf16")):
        emb = MaskedEmbedder(MODEL, precision=prec, cache=False, memory_items=0)
        emb.embed_many(texts[1:2])  # warm-up (and the bf16 copy of the model)
        t0 = time.perf_counter()
        res = emb.embed_many(texts)
        dt = time.perf_counter() - t0
        mm = matmul_rate(prec)  # right after, under the same load
        engine[short] = res
        out[f"engine_{short}_s"] = round(dt, 2)
        out[f"engine_{short}_tokens_per_s"] = round(tokens / dt, 1)
        out[f"engine_{short}_gflops"] = round(flops / dt / 1e9, 1)
        out[f"engine_{short}_fraction_of_matmul"] = round(flops / dt / 1e9 / ((mm + rate[prec]) / 2), 3)
        print(f"engine {short}: {dt:.1f} s, {tokens / dt:.0f} tokens/s, {flops / dt / 1e9:.1f} GFLOP/s "
              f"= {out[f'engine_{short}_fraction_of_matmul']:.0%} of the {short} matmul rate (all {n_layers} layers)")

    # (c) on a CPU a batch runs in equal slices of about CPU_FORWARD_TOKENS padded positions, each padded as its
    # batch: against whole batches on SLICE_DOCS articles (long texts, whose batches are large), float32 storage
    articles = list(dict.fromkeys(load_summeval(n_docs=SLICE_DOCS)["text"]))
    sliced = {}
    for label, ft in (("whole", 10 ** 9), ("sliced", None)):
        emb = MaskedEmbedder(MODEL, cache=False, memory_items=0, store_dtype="float32", forward_tokens=ft)
        emb.embed_many(texts[1:2])  # warm-up
        before = dict(emb.stats)
        t0 = time.perf_counter()
        res = emb.embed_many(articles)
        dt = time.perf_counter() - t0
        n_tok, calls = emb.stats["tokens"] - before["tokens"], emb.stats["forward_calls"] - before["forward_calls"]
        sliced[label] = res
        out[f"articles_{label}_tokens_per_s"] = round(n_tok / dt, 1)
        print(f"(c) {len(articles)} articles, {label} batches: {dt:.1f} s, {n_tok / dt:.0f} tokens/s, "
              f"{calls} forward calls")
    same = all(np.array_equal(a.emb, b.emb) and np.array_equal(a.cls, b.cls)
               for a, b in zip(sliced["whole"], sliced["sliced"]))
    out["articles_sliced_speedup"] = round(out["articles_sliced_tokens_per_s"] / out["articles_whole_tokens_per_s"], 2)
    out["articles_sliced_equal_bit_for_bit"] = same
    print(f"(c) slices of {CPU_FORWARD_TOKENS} positions: {out['articles_sliced_speedup']:.2f}x whole batches; "
          f"arrays {'equal bit for bit' if same else 'NOT equal'}")

    # (d) the last layer on the positions read only (the CPU fp32 default) against every position, float32 storage
    for what, batch in (("articles", articles), ("summaries", texts[1:])):
        last = {}
        for label, rows_only in (("all_rows", False), ("rows_read", True)):
            emb = MaskedEmbedder(MODEL, cache=False, memory_items=0, store_dtype="float32", last_layer_rows=rows_only)
            emb.embed_many(texts[1:2])  # warm-up
            before = dict(emb.stats)
            t0 = time.process_time()  # CPU seconds: steadier than the wall clock on a shared machine
            res = emb.embed_many(batch)
            dt = time.process_time() - t0
            last[label] = res
            out[f"last_layer_{what}_{label}_tokens_per_s"] = round((emb.stats["tokens"] - before["tokens"]) / dt, 1)
        same = all(np.array_equal(a.emb, b.emb) and np.array_equal(a.cls, b.cls)
                   for a, b in zip(last["all_rows"], last["rows_read"]))
        out[f"last_layer_{what}_speedup"] = round(out[f"last_layer_{what}_rows_read_tokens_per_s"]
                                                  / out[f"last_layer_{what}_all_rows_tokens_per_s"], 3)
        out[f"last_layer_{what}_equal_bit_for_bit"] = same
        print(f"(d) {what}: last layer on the rows read {out[f'last_layer_{what}_speedup']:.3f}x every row "
              f"({out[f'last_layer_{what}_rows_read_tokens_per_s']:.0f} vs "
              f"{out[f'last_layer_{what}_all_rows_tokens_per_s']:.0f} tokens per CPU second); "
              f"arrays {'equal bit for bit' if same else 'NOT equal'}")

    layer = n_layers - 4
    t0 = time.perf_counter()
    ref = reference_loop(loaded.model, jobs, layer)
    ref_dt = time.perf_counter() - t0
    out["reference_one_layer_s"] = round(ref_dt, 2)
    out["reference_tokens_per_s"] = round(tokens / ref_dt, 1)
    out["speedup_one_layer_fp32"] = round(ref_dt / out["engine_fp32_s"], 2)
    out["speedup_one_layer_bf16"] = round(ref_dt / out["engine_bf16_s"], 2)
    print(f"(a) reference, one layer: {ref_dt:.1f} s ({tokens / ref_dt:.0f} tokens/s); engine is "
          f"{out['speedup_one_layer_fp32']:.2f}x (fp32) / {out['speedup_one_layer_bf16']:.2f}x (bf16) faster")

    # same numbers as the engine (fp32), word by word
    diff = 0.0
    for (_, _, i, words), x in zip(jobs, ref):
        e = engine["fp32"][i].emb[words, layer, :].astype(np.float32)  # stored as float16
        diff = max(diff, float(np.abs(e - x).max() / max(1.0, np.abs(x).max())))
    out["max_rel_diff_engine_fp32_vs_reference"] = round(diff, 5)
    print(f"engine fp32 (stored float16) vs reference at layer {layer}: max relative difference {diff:.1e}")

    full = os.environ.get("SUMEVAL_BENCH_FULL") == "1"
    timed = list(range(n_layers)) if full else list(range(REF_LAYERS_TIMED))
    t0 = time.perf_counter()
    for k in timed:
        reference_loop(loaded.model, jobs, k)
    per = (time.perf_counter() - t0) / len(timed)
    sweep = per * n_layers
    out["reference_all_layers_s"] = round(sweep, 1)
    out["reference_all_layers_timed_layers"] = len(timed)
    out["speedup_all_layers_fp32"] = round(sweep / out["engine_fp32_s"], 1)
    out["speedup_all_layers_bf16"] = round(sweep / out["engine_bf16_s"], 1)
    print(f"(b) reference, layer sweep ({n_layers} runs; {len(timed)} timed, "
          f"{'all' if full else 'scaled'}): {sweep:.0f} s; engine is {out['speedup_all_layers_fp32']:.1f}x (fp32) / "
          f"{out['speedup_all_layers_bf16']:.1f}x (bf16) faster")
    return out


if __name__ == "__main__":
    main()
