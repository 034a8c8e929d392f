"""Train-or-reuse and evaluate ordering models: what the CLI and the study notebooks call.

:func:`train_cached` trains a model on a training set (vocabulary from the training tokens,
word table initialised from GloVe 6B 50d where a word has a vector) in a run folder under
``cache_dir()/ordering_models/<key>``, the key hashing everything that changes the model:
the model and training configurations, the training and dev documents (ids, texts, shuffles,
entity annotation), the vocabulary rule and the embeddings. A second call with the same
arguments finds the finished run and only loads it; an interrupted run resumes from its last
checkpoint (:func:`sumeval.ordering.train.train_model`). The run folder also holds
``vocab.json`` and ``config.json``, so :func:`load_trained` can rebuild the model from the
folder alone (``sumeval ordering evaluate --run-dir``).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sumeval.errors import InputError
from sumeval.ordering.data import OrderingSet, Vocabulary, build_vocabulary, set_tokens
from sumeval.ordering.models import MODEL_NAMES, ModelConfig
from sumeval.ordering.train import TrainConfig, TrainResult

__all__ = ["TrainedModel", "set_fingerprint", "train_cached", "load_trained", "evaluate_trained",
           "random_scores", "model_config"]


@dataclass
class TrainedModel:
    """A trained model with what it needs to order new documents."""

    name: str
    model: Any
    vocab: Vocabulary
    model_config: ModelConfig
    train_config: TrainConfig
    result: TrainResult
    run_dir: Path

    @property
    def n_params(self) -> int:
        return self.result.n_params


def set_fingerprint(oset: OrderingSet) -> str:
    """sha256 of a set's documents (ids, units, entities) and shuffles: the set's identity."""
    h = hashlib.sha256()
    for doc, sh in zip(oset.documents, oset.shuffles):
        ents = None if doc.entities is None else sorted((e, list(map(list, o))) for e, o in doc.entities.items())
        h.update(json.dumps([doc.doc_id, list(doc.units), list(sh), ents], ensure_ascii=False).encode("utf-8"))
        h.update(b"\x1e")
    return h.hexdigest()


def model_config(name: str, vocab_size: int, **sizes: Any) -> ModelConfig:
    """A :class:`ModelConfig` for ``name`` (checked) with ``sizes`` (hidden, emb_dim, ...)."""
    if name not in MODEL_NAMES:
        raise InputError(f"unknown ordering model {name!r}; use one of {', '.join(MODEL_NAMES)}")
    known = set(ModelConfig.__dataclass_fields__) - {"name", "vocab_size"}
    bad = sorted(set(sizes) - known)
    if bad:
        raise InputError(f"unknown model settings {bad}; known: {sorted(known)}")
    return ModelConfig(name=name, vocab_size=vocab_size, **sizes)


def _vocab(train_set: OrderingSet, glove: bool, min_count: int) -> tuple[Vocabulary, np.ndarray | None]:
    from sumeval.ordering.data import embedding_matrix, load_glove

    tokens = set_tokens(train_set)
    if not glove:
        return build_vocabulary(tokens, None, min_count=min_count), None
    g = load_glove()
    vocab = build_vocabulary(tokens, g[0], min_count=min_count)
    return vocab, embedding_matrix(vocab, g, seed=0)


def train_cached(
    name: str,
    train_set: OrderingSet,
    dev_set: OrderingSet,
    *,
    sizes: dict[str, Any] | None = None,
    train_config: TrainConfig | None = None,
    glove: bool = True,
    min_count: int = 1,
    run_dir: str | Path | None = None,
    device: str | None = None,
    progress: bool = False,
) -> TrainedModel:
    """Train ``name`` on ``train_set`` (early stopping on ``dev_set``) or reuse the cached run.

    ``sizes``: model sizes (:class:`ModelConfig` fields, e.g. ``hidden=128``); with GloVe the
    embedding size is GloVe's (50). ``run_dir`` overrides the cache folder (the CLI's
    ``--out``). SE-Graph gets entity annotations from :func:`~sumeval.ordering.data.with_entities`
    (the NIPS files, else spaCy) before the key is computed.
    """
    from sumeval.cache import atomic_write_json
    from sumeval.ordering.data import with_entities
    from sumeval.ordering.train import train_model
    from sumeval.paths import cache_dir

    sizes = dict(sizes or {})
    tc = train_config or TrainConfig()
    if name == "se_graph":
        train_set, dev_set = with_entities(train_set, progress=progress), with_entities(dev_set, progress=progress)
    vocab, emb = _vocab(train_set, glove, min_count)
    if emb is not None:
        sizes["emb_dim"] = int(emb.shape[1])
    mc = model_config(name, len(vocab), **sizes)
    key_parts = dict(
        what="ordering_model", model=mc.to_dict(), train=asdict(tc), glove="glove-6B-50d" if glove else None,
        min_count=min_count, train_set=[train_set.name, train_set.split, set_fingerprint(train_set)],
        dev_set=[dev_set.name, dev_set.split, set_fingerprint(dev_set)],
    )
    from sumeval.cache import cache_key

    key = cache_key(**{k: v for k, v in key_parts.items()})
    folder = Path(run_dir) if run_dir is not None else cache_dir() / "ordering_models" / f"{name}-{key[:20]}"
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_json(folder / "vocab.json", {"itos": list(vocab.itos), "in_glove": list(vocab.in_glove)})
    atomic_write_json(folder / "config.json", {"model": mc.to_dict(), "train": asdict(tc), "key": key,
                                               "train_set": key_parts["train_set"], "dev_set": key_parts["dev_set"],
                                               "glove": key_parts["glove"]})
    result = train_model(train_set, dev_set, vocab, mc, tc, folder, embeddings=emb, device=device,
                         progress=progress)
    from sumeval.ordering.train import load_best

    model = load_best(folder, mc, device)
    return TrainedModel(name, model, vocab, mc, tc, result, folder)


def load_trained(run_dir: str | Path, device: str | None = None) -> TrainedModel:
    """Rebuild a trained model from its run folder (``config.json``, ``vocab.json``, ``best.pt``)."""
    import torch

    from sumeval.ordering.models import count_parameters
    from sumeval.ordering.train import load_best

    folder = Path(run_dir)
    for f in ("config.json", "vocab.json", "best.pt"):
        if not (folder / f).is_file():
            raise InputError(f"{folder / f} not found: {folder} is not a finished `sumeval ordering train` run")
    cfg = json.loads((folder / "config.json").read_text())
    voc = json.loads((folder / "vocab.json").read_text())
    mc = ModelConfig(**cfg["model"])
    tc = TrainConfig(**cfg["train"])
    vocab = Vocabulary(itos=tuple(voc["itos"]), in_glove=tuple(voc["in_glove"]))
    model = load_best(folder, mc, device)
    state = torch.load(folder / "last.pt", map_location="cpu", weights_only=False)["state"] \
        if (folder / "last.pt").is_file() else {}
    result = TrainResult(best_epoch=state.get("best_epoch", 0), best_score=state.get("best_score", float("nan")),
                         epochs_run=state.get("epoch", 0), stopped_early=False, n_params=count_parameters(model),
                         history=list(state.get("history", [])), run_dir=str(folder))
    return TrainedModel(mc.name, model, vocab, mc, tc, result, folder)


def evaluate_trained(tm: TrainedModel, test_set: OrderingSet, beam: int = 1, progress: bool = False
                     ) -> tuple[dict[str, float], list[list[int]]]:
    """``({"pmr", "acc", "tau", "wlcs_l"}, predicted orders)`` of a trained model on ``test_set``."""
    from sumeval.ordering.train import evaluate_set

    return evaluate_set(tm.model, test_set, tm.vocab, beam=beam, max_tokens=tm.train_config.max_tokens,
                        progress=progress)


def random_scores(test_set: OrderingSet, seed: int = 0, draws: int = 20) -> dict[str, float]:
    """Mean metrics of uniformly random orders (``draws`` orders per document, seeded): the floor."""
    from sumeval.ordering.metrics import ordering_scores

    rng = np.random.default_rng(int(seed))
    gold = test_set.gold_orders()
    runs = [ordering_scores([list(map(int, rng.permutation(len(g)))) for g in gold], gold) for _ in range(draws)]
    return {k: float(np.mean([r[k] for r in runs])) for k in runs[0]}


def cap(oset: OrderingSet, n: int | None, seed: int = 0) -> OrderingSet:
    """The first ``n`` documents of a seeded permutation of ``oset`` (all when ``n`` is None or 0
    or at least the set's size); the original document order is kept."""
    if not n or n >= len(oset):
        return oset
    idx = sorted(int(i) for i in np.random.default_rng([int(seed), len(oset)]).permutation(len(oset))[:n])
    return oset.subset(idx, capped={"n": int(n), "seed": int(seed)})
