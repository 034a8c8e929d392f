"""One training loop for the ordering models: early stopping on dev, atomic checkpoints, resume.

:func:`train_model` trains a model on an :class:`~sumeval.ordering.data.OrderingSet` and keeps,
in ``run_dir``:

- ``last.pt``: model, optimizer, epoch, best dev score, epochs without improvement, history —
  written atomically at the end of every epoch;
- ``best.pt``: the model of the best dev epoch.

Calling it again with the same arguments resumes after the last finished epoch. Randomness
comes from ``seed`` only: parameters are initialised under ``seed``, epoch ``e`` draws its
batch order from ``default_rng([seed, e])`` and its dropout masks from a torch seed derived
from ``(seed, e)`` (inside ``torch.random.fork_rng``), so an interrupted and resumed run ends
with the same weights as an uninterrupted one (on the same device and torch version).
Dev selection uses Kendall tau of greedy (``dev_beam=1``) decoding by default.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sumeval.errors import InputError
from sumeval.ordering.data import OrderingSet, Vocabulary, tokenize
from sumeval.ordering.metrics import ordering_scores


@dataclass(frozen=True)
class TrainConfig:
    """Optimisation settings (paper: batch 8, patience 5, L2 1e-5 for LSTM+PtrNet)."""

    max_epochs: int = 30
    batch_size: int = 8
    lr: float = 1e-3
    weight_decay: float = 1e-5
    patience: int = 5
    clip: float = 5.0
    dev_metric: str = "tau"
    dev_beam: int = 1
    max_tokens: int = 60
    seed: int = 0


@dataclass
class TrainResult:
    best_epoch: int
    best_score: float
    epochs_run: int
    stopped_early: bool
    n_params: int
    history: list[dict[str, Any]] = field(default_factory=list)
    run_dir: str = ""


def set_token_ids(oset: OrderingSet, vocab: Vocabulary) -> tuple[list[list[list[int]]], list[list[int]]]:
    """Token ids of each document's units in input (shuffled) order, and the gold orders."""
    ids = [[vocab.encode(tokenize(u, oset.pretokenized)) for u in oset.shuffled_units(d)] for d in range(len(oset))]
    return ids, oset.gold_orders()


def set_graphs(oset: OrderingSet, vocab: Vocabulary) -> list[list[tuple[int, dict[int, int]]]]:
    """Each document's entity graph for SE-Graph: ``[(entity word id, {input position: role})]``.

    The entity annotation (``OrderingDocument.entities``, indexed by gold unit) is moved to
    input positions with the document's shuffle. Documents without an annotation raise: call
    :func:`sumeval.ordering.data.with_entities` first (spaCy entities and roles).
    """
    out = []
    for d, doc in enumerate(oset.documents):
        if doc.entities is None:
            raise InputError(
                f"{oset.name}/{oset.split}: document {doc.doc_id!r} has no entity annotation; "
                "SE-Graph needs one: use sumeval.ordering.data.with_entities(set) (spaCy) first"
            )
        pos = oset.gold_order(d)  # pos[g] = input position of gold unit g
        graph = []
        for entity, occ in doc.entities.items():
            wid = vocab.encode([entity.lower()])[0]
            graph.append((wid, {pos[g]: int(role) for g, role in occ}))
        out.append(graph)
    return out


def _device(device: str | None):
    import torch

    if device:
        return torch.device(device)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def evaluate(model, ids, gold, beam: int = 1, max_tokens: int = 60, graphs=None) -> dict[str, float]:
    """Corpus metrics of ``model``'s decoded orders against ``gold``."""
    from sumeval.ordering.decode import predict_orders

    pred = predict_orders(model, ids, beam=beam, max_tokens=max_tokens, graphs=graphs)
    return ordering_scores(pred, gold)


def evaluate_set(model, oset: OrderingSet, vocab: Vocabulary, beam: int = 1, max_tokens: int = 60,
                 progress: bool = False) -> tuple[dict[str, float], list[list[int]]]:
    """Metrics of ``model`` on ``oset`` (entities added with spaCy where SE-Graph needs them)
    and the predicted orders (input positions, one list per document)."""
    from sumeval.ordering.data import with_entities
    from sumeval.ordering.decode import predict_orders

    graphs = None
    if model.config.needs_graph:
        graphs = set_graphs(with_entities(oset, progress=progress), vocab)
    ids, gold = set_token_ids(oset, vocab)
    pred = predict_orders(model, ids, beam=beam, max_tokens=max_tokens, graphs=graphs, progress=progress)
    return ordering_scores(pred, gold), pred


def train_model(
    train_set: OrderingSet,
    dev_set: OrderingSet,
    vocab: Vocabulary,
    model_config,
    config: TrainConfig,
    run_dir: str | Path,
    embeddings: np.ndarray | None = None,
    device: str | None = None,
    resume: bool = True,
    progress: bool = True,
) -> TrainResult:
    """Train (or resume training) a pointer ordering model; see the module docstring."""
    import torch
    from tqdm.auto import tqdm

    from sumeval.cache import atomic_path
    from sumeval.ordering.data import with_entities
    from sumeval.ordering.models import build_model, count_parameters, encode_batch, encode_graphs, graph_to

    if config.dev_metric not in ("pmr", "acc", "tau", "wlcs_l"):
        raise InputError(f"dev_metric = {config.dev_metric!r}; use pmr, acc, tau or wlcs_l")
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    dev_ = _device(device)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(config.seed)
        model = build_model(model_config, embeddings).to(dev_)
    opt = torch.optim.Adam(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    # everything that changes an epoch's computation (max_epochs only says where to stop,
    # so a run may be resumed with a larger one)
    train_settings = {k: v for k, v in asdict(config).items() if k != "max_epochs"}
    settings = {"model": model_config.to_dict(), "train": train_settings, "vocab_size": len(vocab),
                "train_set": [train_set.name, train_set.split, len(train_set), train_set.seed],
                "dev_set": [dev_set.name, dev_set.split, len(dev_set), dev_set.seed]}
    state = {"epoch": 0, "best_score": -float("inf"), "best_epoch": 0, "bad_epochs": 0, "history": []}
    last = run_dir / "last.pt"
    if resume and last.is_file():
        ckpt = torch.load(last, map_location=dev_, weights_only=False)
        if ckpt["settings"] != settings:
            raise InputError(
                f"{last}: checkpoint was written with other settings ({ckpt['settings']}); "
                "use a new run_dir or resume=False"
            )
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optimizer"])
        state = ckpt["state"]

    tr_ids, tr_gold = set_token_ids(train_set, vocab)
    dv_ids, dv_gold = set_token_ids(dev_set, vocab)
    tr_graphs = dv_graphs = None
    if model_config.needs_graph:
        tr_graphs = set_graphs(with_entities(train_set, progress=progress), vocab)
        dv_graphs = set_graphs(with_entities(dev_set, progress=progress), vocab)
    n_params = count_parameters(model)
    stopped = state["bad_epochs"] >= config.patience
    while not stopped and state["epoch"] < config.max_epochs:
        epoch = state["epoch"] + 1
        t0 = time.time()
        model.train()
        order = np.random.default_rng([config.seed, epoch]).permutation(len(tr_ids))
        batches = [order[i:i + config.batch_size] for i in range(0, len(order), config.batch_size)]
        losses = []
        with torch.random.fork_rng(devices=[dev_] if dev_.type == "cuda" else []):
            torch.manual_seed(int(np.random.default_rng([config.seed, epoch, 7]).integers(2**31)))
            for bi in tqdm(batches, desc=f"epoch {epoch}", disable=not progress, leave=False):
                tokens, mask = encode_batch([tr_ids[i] for i in bi], config.max_tokens)
                N = mask.shape[1]
                gold = torch.zeros((len(bi), N), dtype=torch.long)
                for r, i in enumerate(bi):
                    gold[r, : len(tr_gold[i])] = torch.tensor(tr_gold[i])
                graph = None
                if tr_graphs is not None:
                    graph = graph_to(encode_graphs([tr_graphs[i] for i in bi], N, model_config.max_entities), dev_)
                loss = model(tokens.to(dev_), mask.to(dev_), gold.to(dev_), graph)
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.clip)
                opt.step()
                losses.append(float(loss.detach()))
        scores = evaluate(model, dv_ids, dv_gold, config.dev_beam, config.max_tokens, dv_graphs)
        score = scores[config.dev_metric]
        improved = score > state["best_score"]
        if improved:
            state.update(best_score=score, best_epoch=epoch, bad_epochs=0)
            with atomic_path(run_dir / "best.pt") as tmp:
                torch.save({"model": model.state_dict(), "settings": settings, "epoch": epoch}, tmp)
        else:
            state["bad_epochs"] += 1
        state["epoch"] = epoch
        state["history"].append({"epoch": epoch, "loss": float(np.mean(losses)), "seconds": time.time() - t0,
                                 **{f"dev_{k}": v for k, v in scores.items()}})
        with atomic_path(last) as tmp:
            torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "state": state,
                        "settings": settings}, tmp)
        stopped = state["bad_epochs"] >= config.patience
    return TrainResult(
        best_epoch=state["best_epoch"], best_score=state["best_score"], epochs_run=state["epoch"],
        stopped_early=stopped, n_params=n_params, history=list(state["history"]), run_dir=str(run_dir),
    )


def load_best(run_dir: str | Path, model_config, device: str | None = None):
    """The model of ``run_dir/best.pt`` (eval mode)."""
    import torch

    from sumeval.ordering.models import build_model

    p = Path(run_dir) / "best.pt"
    if not p.is_file():
        raise InputError(f"{p} not found: train_model has not finished an epoch in {run_dir}")
    dev_ = _device(device)
    model = build_model(model_config).to(dev_)
    model.load_state_dict(torch.load(p, map_location=dev_, weights_only=False)["model"])
    return model.eval()
