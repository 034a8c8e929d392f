"""Ordering models (paper 002): training and decoding throughput, and what the `paper` set costs.

For each model and data set, at the `paper` parameter set's sizes (paper 002's per model and set,
:func:`sumeval.ordering.sizes.paper_sizes`; the vocabulary of the full train split, as a real run
has it; word tables at the paper's width, 100d / 300d, learned - or from ``BENCH_ORDERING_VECTORS``,
e.g. ``glove-6B-50d``; batch 8, beam 32): one training pass over ``BENCH_ORDERING_TRAIN`` documents
of the set's train split
(documents/s, a dev pass of a few documents with greedy decoding included, as in every epoch) and a
beam-32 decoding pass over ``BENCH_ORDERING_TEST`` test documents (documents/s). From these and the
full splits' sizes it projects the `paper` set's cost on this machine: hours per training epoch
(train + greedy dev decoding) and for the final beam-32 test decoding. The number of epochs the paper
set runs is decided by early stopping (patience 5, at most 100); the projection gives the cost per
epoch and at 20 epochs, a guess stated as one, not a measurement.

Runs on CUDA when torch sees a GPU (the device is printed), so the same file measures a GPU machine.

    BENCH_ORDERING_MODELS=lstm_ptrnet BENCH_ORDERING_SETS=nips python benchmarks/run.py ordering
"""
from __future__ import annotations

import functools
import os
import tempfile
import time

PAPER_BATCH, PAPER_BEAM, GUESS_EPOCHS = 8, 32, 20


@functools.lru_cache(maxsize=None)
def _split(set_name: str, split: str):
    from sumeval.ordering.sets import load_ordering_set

    return load_ordering_set(set_name, split)


@functools.lru_cache(maxsize=None)
def _full_vocab(set_name: str, vectors: str | None):
    """The vocabulary (and word table) of the set's whole train split: a real run's word table."""
    from sumeval.ordering.experiment import training_vocabulary

    return training_vocabulary(_split(set_name, "train"), vectors, 1)


def _measure(model: str, set_name: str, n_train: int, n_test: int, device: str | None) -> dict:
    import torch

    from sumeval.lm.resolution import default_device
    from sumeval.ordering.decode import predict_orders
    from sumeval.ordering.entities import with_entities
    from sumeval.ordering.experiment import cap, model_config
    from sumeval.ordering.train import TrainConfig, set_graphs, set_token_ids, train_model
    from sumeval.studies.common.ordering_runs import model_sizes, resolve_sizes

    train = cap(_split(set_name, "train"), n_train, seed=0)
    dev = cap(_split(set_name, "dev"), 8, seed=0)
    test = cap(_split(set_name, "test"), n_test, seed=0)
    if model == "se_graph":  # entity annotation is a one-off cost of the data, not of an epoch
        train, dev, test = with_entities(train), with_entities(dev), with_entities(test)
    vocab, emb = _full_vocab(set_name, os.environ.get("BENCH_ORDERING_VECTORS") or None)
    sizes = resolve_sizes(model_sizes(0), model, set_name)  # the `paper` set's sizes
    if emb is not None:
        sizes["emb_dim"] = int(emb.shape[1])
    mc = model_config(model, len(vocab), **sizes)
    tc = TrainConfig(max_epochs=1, batch_size=PAPER_BATCH, patience=5, lr=1e-3)
    dev_ = torch.device(device or default_device())
    c0 = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        result = train_model(train, dev, vocab, mc, tc, tmp, embeddings=emb, device=device, progress=False)
    cpu_s = time.process_time() - c0  # CPU time of this process: on a busy machine, with one torch
    epoch_s = result.history[0]["seconds"]  # thread, closer to a quiet core's wall time than wall time

    from sumeval.ordering.models import build_model

    net = build_model(mc, emb).to(dev_).eval()
    ids, _ = set_token_ids(test, vocab)
    graphs = set_graphs(test, vocab) if mc.needs_graph else None
    if dev_.type == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    with torch.no_grad():
        predict_orders(net, ids, beam=PAPER_BEAM, graphs=graphs)
    if dev_.type == "cuda":
        torch.cuda.synchronize()
    decode_s = time.perf_counter() - t0
    return {"model": model, "set": set_name, "device": str(dev_), "n_params": result.n_params,
            "emb_dim": mc.emb_dim, "train_docs": len(train), "train_seconds": round(epoch_s, 2),
            "train_docs_per_s": round(len(train) / epoch_s, 2), "train_cpu_seconds": round(cpu_s, 2),
            "test_docs": len(test), "decode_beam": PAPER_BEAM, "decode_seconds": round(decode_s, 2),
            "decode_docs_per_s": round(len(test) / decode_s, 2)}


def main() -> dict:
    import torch

    from sumeval.ordering.experiment import MODEL_NAMES

    models = os.environ.get("BENCH_ORDERING_MODELS", ",".join(MODEL_NAMES)).split(",")
    sets = os.environ.get("BENCH_ORDERING_SETS", "nips,sind,roc,wikipedia,bbc,reuters").split(",")
    n_train = int(os.environ.get("BENCH_ORDERING_TRAIN", "64"))
    n_test = int(os.environ.get("BENCH_ORDERING_TEST", "16"))
    device = os.environ.get("BENCH_ORDERING_DEVICE") or None
    threads = torch.get_num_threads()
    sizes = {s: {sp: len(_split(s, sp)) for sp in ("train", "dev", "test")} for s in sets}
    rows, projection = [], []
    _measure(models[0], sets[0], 8, 4, device)  # warm-up (first-call costs of torch), not reported
    print(f"paper 002's sizes per model and set, word tables "
          f"{os.environ.get('BENCH_ORDERING_VECTORS') or 'at the paper width (100d/300d)'}, batch {PAPER_BATCH}, "
          f"beam {PAPER_BEAM}; torch threads {threads}")
    print(f"{'model':<20}{'set':<11}{'train doc/s':>13}{'decode doc/s':>14}"
          f"{'h/epoch':>9}{'h test':>8}{'h @20 ep':>10}")
    for model in models:
        for s in sets:
            r = _measure(model, s, n_train, n_test, device)
            full = sizes[s]
            # an epoch: the full train split at the measured rate (which includes its small greedy dev
            # pass), plus a greedy pass over the full dev split, costed at the beam-32 rate (an upper bound)
            h_epoch = (full["train"] / r["train_docs_per_s"] + full["dev"] / r["decode_docs_per_s"]) / 3600
            h_test = full["test"] / r["decode_docs_per_s"] / 3600
            p = {"model": model, "set": s, **{f"n_{k}": v for k, v in full.items()},
                 "hours_per_epoch": round(h_epoch, 3), "hours_test_decode": round(h_test, 3),
                 f"hours_at_{GUESS_EPOCHS}_epochs": round(GUESS_EPOCHS * h_epoch + h_test, 2)}
            rows.append(r)
            projection.append(p)
            print(f"{model:<20}{s:<11}{r['train_docs_per_s']:>13.1f}{r['decode_docs_per_s']:>14.1f}"
                  f"{h_epoch:>9.2f}{h_test:>8.2f}{p[f'hours_at_{GUESS_EPOCHS}_epochs']:>10.1f}")
    total = sum(p[f"hours_at_{GUESS_EPOCHS}_epochs"] for p in projection)
    print(f"the `paper` set of ordering_benchmark (these models x sets, {GUESS_EPOCHS} epochs each, a guess): "
          f"{total:.1f} h on {rows[0]['device'] if rows else '-'}")
    return {"device": rows[0]["device"] if rows else None, "torch_threads": threads, "measured": rows,
            "projection": projection, f"paper_set_hours_at_{GUESS_EPOCHS}_epochs": round(total, 1)}


if __name__ == "__main__":
    main()
