"""Train-or-reuse and evaluate ordering models: what the CLI and the study notebooks call.

:func:`train_cached` trains a model on a training set (vocabulary from the training tokens,
word table initialised from word vectors - GloVe 6B 50d unless another source is named - where
a word has one) in a run folder under
``cache_dir()/ordering_models/<key>``, the key hashing everything that changes the model:
the model and training configurations, the training and dev documents (ids, texts, shuffles,
entity annotation), the vocabulary rule and the embeddings. A second call with the same
arguments finds the finished run and only loads it; an interrupted run resumes from its last
checkpoint (:func:`sumeval.ordering.train.train_model`). The run folder also holds
``vocab.json`` and ``config.json``, so :func:`load_trained` can rebuild the model from the
folder alone (``sumeval ordering evaluate --run-dir``).

A run folder is checked before anything is written to it: a folder holding a run with other
settings, a non-empty folder that is not a run, or a file is refused and left as it was. A
damaged checkpoint in the model cache is removed with a warning and the model trained again; in
a folder the user named it is an error naming the file.
"""
from __future__ import annotations

import hashlib
import json
import numbers
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sumeval.errors import InputError
from sumeval.ordering.documents import OrderingSet
from sumeval.ordering.models import MODEL_NAMES, ModelConfig
from sumeval.ordering.train import TrainConfig, TrainResult
from sumeval.ordering.vocabulary import Vocabulary, build_vocabulary, set_tokens

__all__ = ["TrainedModel", "set_fingerprint", "train_cached", "load_trained", "evaluate_trained",
           "random_scores", "model_config", "check_run_folder", "training_vocabulary"]


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
    status: dict[str, Any] | None = None  # training_status() of a loaded run folder

    @property
    def n_params(self) -> int:
        return self.result.n_params


def set_fingerprint(oset: OrderingSet) -> str:
    """sha256 of a set's documents (ids, units, entities) and shuffles: the set's identity.

    Streamed one document at a time (a set can hold 100,000 documents), so not
    :func:`sumeval.cache.cache_key` of the whole list, which would also change the keys of the
    trained models already cached.
    """
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
    for key, v in sizes.items():
        if key == "dropout":
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v < 1:
                raise InputError(f"model setting dropout = {v!r}; it must be a number in [0, 1)")
        elif isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
            raise InputError(f"model setting {key} = {v!r}; it must be a whole number >= 1")
    sizes = {k: (v if k == "dropout" else int(v)) for k, v in sizes.items()}  # numpy integers -> int
    mc = ModelConfig(name=name, vocab_size=vocab_size, **sizes)
    if name == "attordernet" and mc.hidden % mc.heads:
        raise InputError(f"attordernet: heads = {mc.heads} must divide hidden = {mc.hidden} "
                         "(e.g. --hidden 128 --heads 8)")
    return mc


_RUN_FILES = {"config.json", "vocab.json", "last.pt", "best.pt", "status.json", ".lock"}


def check_run_folder(folder: Path, config_doc: dict[str, Any], settings: dict[str, Any]) -> None:
    """Refuse (InputError, nothing written) a run folder that cannot take this training: an
    existing file, a non-empty folder that is not an ordering run, or a run with other settings
    (``config_doc``: the config.json this training writes; ``settings``: what its checkpoint
    must agree with). A damaged checkpoint raises DamagedCheckpoint."""
    from sumeval.ordering.train import load_checkpoint, settings_difference

    if folder.exists() and not folder.is_dir():
        raise InputError(f"run folder {folder} is an existing file; give a new or an existing run folder")
    if not folder.is_dir():
        return
    names = {p.name for p in folder.iterdir() if not p.name.endswith(".partial")}
    if names and not names & {"config.json", "last.pt"}:
        raise InputError(f"run folder {folder} is not empty and holds no ordering run "
                         f"({', '.join(sorted(names)[:5])}{' ...' if len(names) > 5 else ''}); "
                         "give a new folder")
    diff: list[str] = []
    if (folder / "config.json").is_file():
        try:
            old = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{folder / 'config.json'} is unreadable ({type(exc).__name__}); "
                             f"delete {folder} to train from scratch, or train into a new folder") from None
        def strip(d):
            if not isinstance(d, dict):
                return d
            return {k: ({kk: vv for kk, vv in v.items() if kk != "max_epochs"} if k == "train" else v)
                    for k, v in d.items() if k != "key"}
        diff = settings_difference(strip(old), strip(config_doc))
    if not diff and (folder / "last.pt").is_file():
        fix = f"delete {folder} to train from scratch, or train into a new folder"
        ck = load_checkpoint(folder / "last.pt", needs=("model", "optimizer", "state", "settings"), fix=fix)
        diff = settings_difference(ck["settings"], settings)
    if diff:
        raise InputError(f"{folder}: checkpoint was written with other settings ({'; '.join(diff)}); "
                         "nothing was changed - train into a new folder, or repeat the run's own settings")


def training_vocabulary(train_set: OrderingSet, source: str | None,
                        min_count: int) -> tuple[Vocabulary, np.ndarray | None]:
    """Vocabulary of the training tokens and its initial word table from ``source`` (None: none).

    The vocabulary and word table a model trained on ``train_set`` by :func:`train_cached` gets:
    :func:`~sumeval.ordering.vocabulary.build_vocabulary` of its tokens, then
    :func:`~sumeval.ordering.vocabulary.embedding_matrix` of the vectors (seed 0).
    """
    from sumeval.ordering.vocabulary import embedding_matrix, load_vectors

    tokens = set_tokens(train_set)
    if source is None:
        return build_vocabulary(tokens, None, min_count=min_count), None
    g = load_vectors(source)
    vocab = build_vocabulary(tokens, g[0], min_count=min_count)
    return vocab, embedding_matrix(vocab, g, seed=0)


def _embedding_size(name: str, sizes: dict[str, Any], emb: np.ndarray | None, source: str | None) -> None:
    """Set ``sizes["emb_dim"]`` to the vectors' dimension; warn when the sizes asked for another
    (e.g. paper 002's 100d / 300d GloVe with the 50d vectors installed here)."""
    if emb is None:
        return
    dim = int(emb.shape[1])
    asked = sizes.get("emb_dim")
    if asked is not None and int(asked) != dim:
        import warnings

        warnings.warn(f"{name}: emb_dim {asked} was asked for, but the word vectors ({source}) have {dim} "
                      f"dimensions, so the word table has {dim} columns; give {asked}d vectors (--vectors, "
                      "$SUMEVAL_VECTORS) to match, or train without vectors", stacklevel=3)
    sizes["emb_dim"] = dim


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
    vectors: str | None = None,
) -> TrainedModel:
    """Train ``name`` on ``train_set`` (early stopping on ``dev_set``) or reuse the cached run.

    ``sizes``: model sizes (:class:`ModelConfig` fields, e.g. ``hidden=128``); with word vectors
    (``glove``) the embedding size is the vectors' (50 for the default GloVe 6B 50d; a warning
    when ``sizes`` asked for another). ``vectors``: their source
    (:func:`~sumeval.ordering.vocabulary.vectors_source`: ``"glove-6B-50d"``, ``"spacy-md"``
    or a GloVe text file; default ``$SUMEVAL_VECTORS`` or GloVe 6B 50d); it is part of the cache
    key. ``run_dir`` overrides the cache folder (the CLI's ``--out``). SE-Graph gets entity
    annotations from :func:`~sumeval.ordering.entities.with_entities` (the NIPS files, else spaCy)
    before the key is computed.
    """
    from sumeval.cache import atomic_write_json
    from sumeval.ordering.entities import with_entities
    from sumeval.ordering.train import train_model
    from sumeval.paths import cache_dir

    sizes = dict(sizes or {})
    tc = train_config or TrainConfig()
    if name == "se_graph":
        train_set, dev_set = with_entities(train_set, progress=progress), with_entities(dev_set, progress=progress)
    from sumeval.ordering.vocabulary import vectors_identity, vectors_source

    if vectors is not None and not glove:
        raise InputError(f"word vectors {vectors!r} were given with glove=False (--no-glove); drop one of the two")
    source = vectors_source(vectors) if glove else None
    vocab, emb = training_vocabulary(train_set, source, min_count)
    _embedding_size(name, sizes, emb, source)
    mc = model_config(name, len(vocab), **sizes)
    key_parts = dict(
        what="ordering_model", model=mc.to_dict(), train=tc.identity(),
        glove=vectors_identity(source) if source else None,
        min_count=min_count, train_set=[train_set.name, train_set.split, set_fingerprint(train_set)],
        dev_set=[dev_set.name, dev_set.split, set_fingerprint(dev_set)],
    )
    from sumeval.ordering.models import MODEL_REVISIONS

    if name in MODEL_REVISIONS:  # only there, so the other models keep their keys
        key_parts["revision"] = MODEL_REVISIONS[name]
    from sumeval.cache import cache_key
    from sumeval.ordering.train import DamagedCheckpoint, load_best, run_settings

    key = cache_key(**{k: v for k, v in key_parts.items()})
    in_cache = run_dir is None
    folder = Path(run_dir) if run_dir is not None else cache_dir() / "ordering_models" / f"{name}-{key[:20]}"
    config_doc = {"model": mc.to_dict(), "train": tc.identity(), "key": key, "train_set": key_parts["train_set"],
                  "dev_set": key_parts["dev_set"], "glove": key_parts["glove"]}
    settings = run_settings(train_set, dev_set, vocab, mc, tc)
    for attempt in (1, 2):
        try:
            check_run_folder(folder, config_doc, settings)  # before anything is written
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write_json(folder / "vocab.json", {"itos": list(vocab.itos), "in_glove": list(vocab.in_glove)})
            atomic_write_json(folder / "config.json", config_doc)
            result = train_model(train_set, dev_set, vocab, mc, tc, folder, embeddings=emb, device=device,
                                 progress=progress)
            model = load_best(folder, mc, device)
            break
        except DamagedCheckpoint as exc:
            if not in_cache or attempt == 2:
                raise
            import shutil
            import warnings

            warnings.warn(f"{exc.args[0].split(';')[0]}; removed the cached run {folder} and training it again",
                          stacklevel=2)
            shutil.rmtree(folder, ignore_errors=True)
    return TrainedModel(name, model, vocab, mc, tc, result, folder)


def load_trained(run_dir: str | Path, device: str | None = None) -> TrainedModel:
    """Rebuild a trained model from its run folder (``config.json``, ``vocab.json``, ``best.pt``)."""
    from sumeval.ordering.models import count_parameters
    from sumeval.ordering.train import load_best, load_checkpoint, training_status

    folder = Path(run_dir)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder} is a file, not a `sumeval ordering train` run folder")
    for f in ("config.json", "vocab.json", "best.pt"):
        if not (folder / f).is_file():
            raise InputError(f"{folder / f} not found: {folder} is not a finished `sumeval ordering train` run")
    try:
        cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        voc = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        mc = ModelConfig(**cfg["model"])
        tc = TrainConfig(**cfg["train"])
        vocab = Vocabulary(itos=tuple(voc["itos"]), in_glove=tuple(voc["in_glove"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{folder}: config.json or vocab.json is damaged ({type(exc).__name__}: "
                         f"{str(exc)[:120]}); train the run again") from None
    if len(vocab) != mc.vocab_size:
        raise InputError(f"{folder}: vocab.json holds {len(vocab)} words, config.json says "
                         f"{mc.vocab_size}; the folder mixes two runs - train it again")
    model = load_best(folder, mc, device)
    state = load_checkpoint(folder / "last.pt", needs=("state",))["state"] if (folder / "last.pt").is_file() else {}
    status = training_status(folder)
    result = TrainResult(best_epoch=state.get("best_epoch", 0), best_score=state.get("best_score", float("nan")),
                         epochs_run=state.get("epoch", 0), stopped_early=status["stopped_early"],
                         n_params=count_parameters(model), history=list(state.get("history", [])),
                         run_dir=str(folder))
    return TrainedModel(mc.name, model, vocab, mc, tc, result, folder, status)


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
