"""One training loop for the ordering models: early stopping on dev, atomic checkpoints, resume.

:func:`train_model` trains a model on an :class:`~sumeval.ordering.documents.OrderingSet` and keeps,
in ``run_dir``:

- ``last.pt``: model, optimizer, epoch, best dev score, epochs without improvement, history —
  written atomically at the end of every epoch;
- ``best.pt``: the model of the best dev epoch;
- ``status.json``: ``running`` (with the pid, host and start of the training process),
  ``finished`` or ``interrupted`` (with the time and the signal); a run left ``running`` by a
  process that is gone was killed (:func:`training_status` says so).

Checkpoints hold tensors, numbers, strings, lists and dicts only, with a sha256 of their
content (``digest``): they are read with ``torch.load(weights_only=True)`` (nothing is
unpickled) and checked, so a damaged or foreign file is an error naming it
(:class:`DamagedCheckpoint`), never a traceback. One process at a time trains in a run folder
(a lock; a second waits).

Calling it again with the same arguments resumes after the last finished epoch. Randomness
comes from ``seed`` only: parameters are initialised under ``seed``, epoch ``e`` draws its
batch order from ``default_rng([seed, e])`` and its dropout masks from a torch seed derived
from ``(seed, e)`` (inside ``torch.random.fork_rng``), so an interrupted and resumed run ends
with the same weights as an uninterrupted one (on the same device and torch version).
Dev selection uses Kendall tau of greedy (``dev_beam=1``) decoding by default.
"""
from __future__ import annotations

import hashlib
import math
import numbers
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sumeval.errors import InputError
from sumeval.lm.resolution import default_device
from sumeval.ordering.documents import OrderingSet
from sumeval.ordering.metrics import ordering_scores
from sumeval.ordering.vocabulary import Vocabulary, tokenize


@dataclass(frozen=True)
class TrainConfig:
    """Optimisation settings (paper: batch 8, patience 5, L2 1e-5 for LSTM+PtrNet).

    ``optimizer``: ``adam`` (ours, every model) or ``adadelta`` (rho 0.95, eps 1e-6: the optimiser of
    the ATTOrderNet release, ``hwxcby/ATTOrderNet`` Config.py, which paper 002 §4.1 keeps for
    ATTOrderNet and gives SE-Graph too: "the setting of the optimizer is the same as the setting of
    ATTOrderNet"; the release runs it at ``lr`` 1.0 with ``lr_decay`` 0.95). ``lr_decay``: the
    learning rate of epoch ``e`` is ``lr * lr_decay ** (e - 1)`` (the release's staircase decay,
    once an epoch); 1.0 keeps it constant.
    """

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
    optimizer: str = "adam"
    lr_decay: float = 1.0

    def __post_init__(self) -> None:
        """Refuse settings no training can use (InputError naming the setting), before anything runs."""
        for name in ("max_epochs", "batch_size", "patience", "dev_beam", "max_tokens", "seed"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or (v < 1 and name != "seed"):
                raise InputError(f"training setting {name} = {v!r}; it must be a whole number"
                                 + ("" if name == "seed" else " >= 1"))
            object.__setattr__(self, name, int(v))  # a numpy integer becomes a plain one
        for name, zero_ok in (("lr", False), ("weight_decay", True), ("clip", False)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v) \
                    or v < 0 or (v == 0 and not zero_ok):
                need = "a finite number >= 0" if zero_ok else "a finite number > 0"
                raise InputError(f"training setting {name} = {v!r}; it must be {need}")
        if self.dev_metric not in DEV_METRICS:
            raise InputError(f"dev_metric = {self.dev_metric!r}; use pmr, acc, tau or wlcs_l")
        if self.optimizer not in OPTIMIZERS:
            raise InputError(f"training setting optimizer = {self.optimizer!r}; use {' or '.join(OPTIMIZERS)}")
        v = self.lr_decay
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 < v <= 1:
            raise InputError(f"training setting lr_decay = {v!r}; it must be a number in (0, 1] "
                             "(1: a constant learning rate)")

    def identity(self) -> dict[str, Any]:
        """The settings that name a run (its cache key, config.json, what a checkpoint must agree
        with): every field, less those added after runs were cached while they are at their
        defaults, so a run trained before they existed keeps its key and resumes."""
        d = asdict(self)
        for name, default in LATER_DEFAULTS.items():
            if d[name] == default:
                del d[name]
        return d


DEV_METRICS = ("pmr", "acc", "tau", "wlcs_l")
OPTIMIZERS = ("adam", "adadelta")
#: fields of :class:`TrainConfig` added after runs were cached, with their defaults (:meth:`TrainConfig.identity`)
LATER_DEFAULTS: dict[str, Any] = {"optimizer": "adam", "lr_decay": 1.0}


def make_optimizer(parameters, config: TrainConfig):
    """The optimiser of ``config`` over ``parameters`` (L2 ``weight_decay`` in both, as the
    releases' ``reg``); Adadelta's rho 0.95 and eps 1e-6 are the ATTOrderNet release's."""
    import torch

    if config.optimizer == "adadelta":
        return torch.optim.Adadelta(parameters, lr=config.lr, rho=0.95, eps=1e-6, weight_decay=config.weight_decay)
    return torch.optim.Adam(parameters, lr=config.lr, weight_decay=config.weight_decay)


CHECKPOINT_FORMAT = "sumeval-ordering-checkpoint/1"


class DamagedCheckpoint(InputError):
    """A checkpoint file that cannot be read, fails its checksum, or is not one of ours."""


def content_digest(obj: Any) -> str:
    """sha256 of a checkpoint's content: tensors (dtype, shape, bytes), numbers, strings, None,
    lists / tuples and dicts (keys in sorted order), walked recursively."""
    import torch

    h = hashlib.sha256()

    def walk(x: Any) -> None:
        if isinstance(x, torch.Tensor):
            t = x.detach().cpu().contiguous().reshape(-1)
            h.update(f"T{t.dtype}{tuple(x.shape)}".encode())
            h.update(t.view(torch.uint8).numpy().tobytes())
        elif isinstance(x, dict):
            h.update(b"{")
            for k in sorted(x, key=lambda k: (type(k).__name__, str(k))):
                h.update(repr(k).encode() + b":")
                walk(x[k])
            h.update(b"}")
        elif isinstance(x, (list, tuple)):
            h.update(b"[" if isinstance(x, list) else b"(")
            for v in x:
                walk(v)
            h.update(b"]")
        elif x is None or isinstance(x, (bool, int, float, str)):
            h.update(repr(x).encode() + b";")
        else:
            raise TypeError(f"content_digest: unexpected {type(x).__name__} in a checkpoint")

    walk(obj)
    return h.hexdigest()


def save_checkpoint(path: str | Path, payload: dict[str, Any]) -> None:
    """Write ``payload`` (plain data and tensors) with its format and digest, atomically."""
    import torch

    from sumeval.cache import atomic_path

    body = {"format": CHECKPOINT_FORMAT, **payload}
    with atomic_path(path) as tmp:
        torch.save({**body, "digest": content_digest(body)}, tmp)


def load_checkpoint(path: str | Path, device: Any = "cpu", *, needs: tuple[str, ...] = ("model",),
                    fix: str = "") -> dict[str, Any]:
    """A checkpoint written by :func:`save_checkpoint` (or an older sumeval), loaded without
    unpickling (``weights_only=True``) and checked against its digest.

    Raises :class:`DamagedCheckpoint` naming ``path`` and ``fix`` for a truncated, altered or
    foreign file, and InputError when it does not exist.
    """
    import torch

    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p} not found" + (f"; {fix}" if fix else ""))
    try:
        ck = torch.load(p, map_location=device, weights_only=True)
    except Exception as exc:  # noqa: BLE001 - truncation, bad zip, refused pickle: all unreadable
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0].split(". ")[0][:200]
        raise DamagedCheckpoint(f"{p} is damaged or not a sumeval ordering checkpoint "
                                f"({type(exc).__name__}: {first})" + (f"; {fix}" if fix else "")) from None
    if not isinstance(ck, dict) or any(k not in ck for k in needs):
        what = sorted(ck) if isinstance(ck, dict) else type(ck).__name__
        raise DamagedCheckpoint(f"{p} is not a sumeval ordering checkpoint (it holds {what}, "
                                f"needs {list(needs)})" + (f"; {fix}" if fix else ""))
    if "digest" in ck:
        body = {k: v for k, v in ck.items() if k != "digest"}
        if content_digest(body) != ck["digest"]:
            raise DamagedCheckpoint(f"{p} is damaged (its content does not match the sha256 it "
                                    "was written with)" + (f"; {fix}" if fix else ""))
    return ck


def run_settings(train_set: OrderingSet, dev_set: OrderingSet, vocab: Vocabulary, model_config,
                 config: TrainConfig) -> dict[str, Any]:
    """Everything that changes an epoch's computation (``max_epochs`` only says where to stop,
    so a run may be resumed with a larger one): what a checkpoint must agree with to resume."""
    train_settings = {k: v for k, v in config.identity().items() if k != "max_epochs"}
    return {"model": model_config.to_dict(), "train": train_settings, "vocab_size": len(vocab),
            "train_set": [train_set.name, train_set.split, len(train_set), train_set.seed],
            "dev_set": [dev_set.name, dev_set.split, len(dev_set), dev_set.seed]}


def settings_difference(old: Any, new: Any, prefix: str = "") -> list[str]:
    """``["train.lr: 0.001 in the run, 0.5 asked", ...]``: where two settings records differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new), key=str):
            if old.get(k) != new.get(k):
                out.extend(settings_difference(old.get(k), new.get(k), f"{prefix}{k}."))
        return out
    return [f"{prefix.rstrip('.')}: {old!r} in the run, {new!r} asked"] if old != new else []


def _write_status(run_dir: Path, status: str, **fields: Any) -> None:
    from sumeval.cache import atomic_write_json
    from sumeval.runstate import now_iso

    atomic_write_json(run_dir / "status.json", {"status": status, "updated": now_iso(), **fields})


def training_status(run_dir: str | Path) -> dict[str, Any]:
    """Whether the training in ``run_dir`` finished, from its files.

    Returns ``{"finished", "status", "epochs_run", "max_epochs", "best_epoch", "stopped_early"}``
    plus ``pid``, ``host``, ``interrupted`` (time) and ``signal`` where known. ``status`` is
    ``finished``, ``running`` (its process is alive), ``interrupted`` (stopped by a signal, or
    left ``running`` by a process that is gone) or ``unknown``. A run counts as finished when
    its last checkpoint reached ``max_epochs`` or early stopping (``patience`` epochs without a
    better dev score).
    """
    import json

    from sumeval.runstate import owner_alive

    folder = Path(run_dir)
    try:
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        max_epochs, patience = int(cfg["train"]["max_epochs"]), int(cfg["train"]["patience"])
    except (OSError, ValueError, KeyError, TypeError):
        max_epochs = patience = None
    state: dict[str, Any] = {}
    if (folder / "last.pt").is_file():
        state = load_checkpoint(folder / "last.pt", needs=("state",))["state"]
    try:
        rec = json.loads((folder / "status.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        rec = {}
    epochs = int(state.get("epoch", 0))
    early = patience is not None and int(state.get("bad_epochs", 0)) >= patience
    finished = bool(state) and max_epochs is not None and (epochs >= max_epochs or early)
    status = rec.get("status", "unknown")
    if finished:
        status = "finished"
    elif status == "running" and owner_alive(rec.get("owner")) is False:
        status = "interrupted"
        rec = {**rec, "signal": "killed (its process is gone)"}
    elif status == "finished":  # finished with fewer epochs than config.json asks now
        status = "interrupted"
    out = {"finished": finished, "status": status, "epochs_run": epochs, "max_epochs": max_epochs,
           "best_epoch": state.get("best_epoch"), "stopped_early": early}
    owner = rec.get("owner") or {}
    out.update({k: v for k, v in (("pid", owner.get("pid")), ("host", owner.get("host")),
                                  ("interrupted", rec.get("interrupted")), ("signal", rec.get("signal")))
                if v is not None})
    return out


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
    :func:`sumeval.ordering.entities.with_entities` first (spaCy entities and roles).
    """
    out = []
    for d, doc in enumerate(oset.documents):
        if doc.entities is None:
            raise InputError(
                f"{oset.name}/{oset.split}: document {doc.doc_id!r} has no entity annotation; "
                "SE-Graph needs one: use sumeval.ordering.entities.with_entities(set) (spaCy) first"
            )
        pos = oset.gold_order(d)  # pos[g] = input position of gold unit g
        graph = []
        for entity, occ in doc.entities.items():
            wid = vocab.encode([entity.lower()])[0]
            graph.append((wid, {pos[g]: int(role) for g, role in occ}))
        out.append(graph)
    return out


def evaluate(model, ids, gold, beam: int = 1, max_tokens: int = 60, graphs=None) -> dict[str, float]:
    """Corpus metrics of ``model``'s decoded orders against ``gold``."""
    from sumeval.ordering.decode import predict_orders

    pred = predict_orders(model, ids, beam=beam, max_tokens=max_tokens, graphs=graphs)
    return ordering_scores(pred, gold)


def evaluate_set(model, oset: OrderingSet, vocab: Vocabulary, beam: int = 1, max_tokens: int = 60,
                 progress: bool = False) -> tuple[dict[str, float], list[list[int]]]:
    """Metrics of ``model`` on ``oset`` (entities added with spaCy where SE-Graph needs them)
    and the predicted orders (input positions, one list per document)."""
    from sumeval.ordering.decode import predict_orders
    from sumeval.ordering.entities import with_entities

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

    from sumeval.ordering.models import build_model
    from sumeval.runstate import Interrupted, exclusive_lock, now_iso, owner_record, signal_name

    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise InputError(f"run folder {run_dir} is an existing file; give a folder")
    dev_ = torch.device(device or default_device())
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(config.seed)
        model = build_model(model_config, embeddings).to(dev_)
    opt = make_optimizer(model.parameters(), config)
    settings = run_settings(train_set, dev_set, vocab, model_config, config)
    state = {"epoch": 0, "best_score": -float("inf"), "best_epoch": 0, "bad_epochs": 0, "history": []}
    last = run_dir / "last.pt"
    fix = f"delete {run_dir} to train from scratch, or train into a new folder"
    ckpt = None
    if resume and last.is_file():
        ckpt = load_checkpoint(last, dev_, needs=("model", "optimizer", "state", "settings"), fix=fix)
        diff = settings_difference(ckpt["settings"], settings)
        if diff:
            raise InputError(f"{last}: checkpoint was written with other settings ({'; '.join(diff)}); "
                             "use a new run_dir or resume=False")
    run_dir.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(run_dir / ".lock", what=f"ordering run {run_dir}",
                        on_wait=lambda m: print(f"sumeval: {m}", file=sys.stderr, flush=True)):
        if resume and last.is_file():  # another process may have trained meanwhile
            ckpt = load_checkpoint(last, dev_, needs=("model", "optimizer", "state", "settings"), fix=fix)
        if ckpt is not None:
            try:
                model.load_state_dict(ckpt["model"])
                opt.load_state_dict(ckpt["optimizer"])
            except (RuntimeError, ValueError, KeyError) as exc:
                raise DamagedCheckpoint(f"{last} does not fit the model it names "
                                        f"({str(exc).splitlines()[0][:200]}); {fix}") from None
            state = ckpt["state"]
        owner = owner_record()
        _write_status(run_dir, "running", owner=owner, max_epochs=config.max_epochs, epochs_run=state["epoch"])
        try:
            result = _train_epochs(model, opt, state, settings, train_set, dev_set, vocab, model_config,
                                   config, run_dir, dev_, progress)
        except KeyboardInterrupt as exc:
            _write_status(run_dir, "interrupted", owner=owner, interrupted=now_iso(), signal=signal_name(exc),
                          max_epochs=config.max_epochs, epochs_run=state["epoch"])
            raise Interrupted(f"training stopped after {state['epoch']} of {config.max_epochs} epochs "
                              f"({signal_name(exc)}); {run_dir} resumes from there when the same "
                              "training is started again", signal_name(exc)) from None
        except BaseException as exc:
            _write_status(run_dir, "failed", owner=owner, error=f"{type(exc).__name__}: {exc}"[:500],
                          max_epochs=config.max_epochs, epochs_run=state["epoch"])
            raise
        _write_status(run_dir, "finished", owner=owner, max_epochs=config.max_epochs,
                      epochs_run=state["epoch"], stopped_early=result.stopped_early)
    return result


def _train_epochs(model, opt, state, settings, train_set, dev_set, vocab, model_config, config,
                  run_dir: Path, dev_, progress: bool) -> TrainResult:
    """The epochs of :func:`train_model` from ``state["epoch"] + 1`` on; updates ``state``."""
    import torch
    from tqdm.auto import tqdm

    from sumeval.ordering.entities import with_entities
    from sumeval.ordering.models import count_parameters, encode_batch, encode_graphs, graph_to

    last = run_dir / "last.pt"

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
        if config.lr_decay != 1.0:  # from the epoch, so a resumed run decays as an uninterrupted one
            for group in opt.param_groups:
                group["lr"] = config.lr * config.lr_decay ** (epoch - 1)
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
            save_checkpoint(run_dir / "best.pt", {"model": model.state_dict(), "settings": settings,
                                                  "epoch": epoch})
        else:
            state["bad_epochs"] += 1
        state["epoch"] = epoch
        state["history"].append({"epoch": epoch, "loss": float(np.mean(losses)), "seconds": time.time() - t0,
                                 **{f"dev_{k}": v for k, v in scores.items()}})
        if progress:  # the epoch's bar goes when it ends (leave=False): a line that stays, for a person watching
            tqdm.write(f"epoch {epoch} of at most {config.max_epochs}: loss {np.mean(losses):.4f}, dev "
                       f"{config.dev_metric} {score:.4f}{' (best so far)' if improved else ''}, "
                       f"{time.time() - t0:.0f} s", file=sys.stderr)
        save_checkpoint(last, {"model": model.state_dict(), "optimizer": opt.state_dict(), "state": state,
                               "settings": settings})
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
    dev_ = torch.device(device or default_device())
    model = build_model(model_config).to(dev_)
    fix = f"train the run again (delete {run_dir}, then `sumeval ordering train ... --out {run_dir}`)"
    state_dict = load_checkpoint(p, dev_, fix=fix)["model"]
    try:
        model.load_state_dict(state_dict)
    except (RuntimeError, KeyError) as exc:
        raise DamagedCheckpoint(f"{p} does not fit the model of {Path(run_dir) / 'config.json'} "
                                f"({str(exc).splitlines()[0][:200]}); {fix}") from None
    return model.eval()
