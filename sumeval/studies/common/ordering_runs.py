"""How the paper-002 ordering studies (``ordering_benchmark``, ``ordering_learnability``,
``ordering_robustness``) run their models.

- :func:`parse_list` for the notebooks' comma-separated parameters;
- :func:`training_setup`: the training configuration and the models' sizes (:func:`model_sizes`)
  from the notebooks' parameters (``hidden`` 0: paper 002's sizes per model and data set,
  :func:`sumeval.ordering.sizes.paper_sizes`, the ``paper`` parameter sets);
- :func:`fit_and_test`: train a model (through the model cache) and score it on test sets,
  returning tidy rows.

Data available here: sentence level NIPS (its own train/val/test), SIND and ROC
(train/dev carved from their dev/valid files: no training split exists here); paragraph level
Wikipedia, BBC and Reuters (seeded 90/5/5 splits). The paper's arXiv/AAN abstracts and its
paragraph corpora (Press, Statements, Journal, Lyrics; News, Statements, Economist) are not
available, so only NIPS and SIND rows can be compared number for number.
"""
from __future__ import annotations

import time
from typing import Any, Iterable, Sequence

import pandas as pd

from sumeval.errors import InputError
from sumeval.ordering.documents import OrderingSet
from sumeval.ordering.experiment import cap, evaluate_trained, random_scores, train_cached
from sumeval.ordering.models import MODEL_LABELS, MODEL_NAMES
from sumeval.ordering.sets import PARAGRAPH_SETS, SENTENCE_SETS, load_ordering_set
from sumeval.ordering.sizes import default_heads, paper_sizes
from sumeval.ordering.train import TrainConfig

__all__ = ["METRICS", "PARAMETER_RANGES", "parse_list", "parse_numbers", "parse_models", "parse_sets", "level_of",
           "load_capped", "set_threads", "PAPER_SIZES", "model_sizes", "resolve_sizes", "training_setup",
           "fit_and_test", "random_rows", "long_format"]

METRICS = ("pmr", "acc", "tau", "wlcs_l")
#: ranges of the ordering notebooks' numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"max_train": (">=0", "0 means all"), "max_train_paragraph": (">=0", "0 means all"),
                    "max_dev": (">=0", "0 means all"), "max_test": (">=0", "0 means all"),
                    "epochs": ">=1", "patience": ">=1", "batch_size": ">=1", "lr": ">0",
                    "hidden": (">=0", "0 means paper 002's sizes per model and data set"),
                    "beam": (">=1", "1 is greedy"), "threads": (">=0", "0 leaves the default")}


def parse_list(text: str, allowed: Sequence[str] | None = None, what: str = "item") -> list[str]:
    """``"a, b"`` -> ``["a", "b"]`` (empty string -> ``[]``), each checked against ``allowed``."""
    items = [t.strip() for t in str(text).split(",") if t.strip()]
    if allowed is not None:
        bad = [t for t in items if t not in allowed]
        if bad:
            raise InputError(f"unknown {what} {bad}; use a comma-separated list of {', '.join(allowed)}")
    return items


def parse_numbers(text: str, kind=float) -> list:
    """``"0.2, 0.5"`` -> ``[0.2, 0.5]``."""
    try:
        return [kind(t) for t in parse_list(text)]
    except ValueError as e:
        raise InputError(f"{text!r}: expected comma-separated numbers ({e})") from None


def parse_models(text: str) -> list[str]:
    return parse_list(text, MODEL_NAMES, "model")


def parse_sets(text: str, level: str | None = None) -> list[str]:
    allowed = SENTENCE_SETS if level == "sentence" else PARAGRAPH_SETS if level == "paragraph" \
        else SENTENCE_SETS + PARAGRAPH_SETS
    return parse_list(text, allowed, f"{level or ''} data set".strip())


def level_of(name: str) -> str:
    return "sentence" if name in SENTENCE_SETS else "paragraph"


def load_capped(name: str, split: str, n: int, seed: int = 0) -> OrderingSet:
    """Split ``split`` of set ``name`` capped at ``n`` documents (0: all), seeded."""
    return cap(load_ordering_set(name, split), n, seed)


def set_threads(n: int) -> None:
    """Limit torch's CPU threads (0 leaves torch's default)."""
    if n:
        import torch

        torch.set_num_threads(int(n))


#: the sizes of :func:`model_sizes` (``hidden = 0``) that :func:`fit_and_test` resolves per model and set
PAPER_SIZES = {"paper": True}


def model_sizes(hidden: int) -> dict[str, Any]:
    """Model sizes of the ordering studies: ``hidden`` and ATTOrderNet's attention heads
    (:func:`~sumeval.ordering.sizes.default_heads`: 8, or the largest of 4, 2, 1 that divides
    ``hidden``); ``hidden = 0``: :data:`PAPER_SIZES`, paper 002's sizes of each model on each
    training set (:func:`~sumeval.ordering.sizes.paper_sizes`), resolved by :func:`fit_and_test`.

    >>> model_sizes(128), model_sizes(300), model_sizes(0)
    ({'hidden': 128, 'heads': 8}, {'hidden': 300, 'heads': 4}, {'paper': True})
    """
    if int(hidden) == 0:
        return dict(PAPER_SIZES)
    return {"hidden": hidden, "heads": default_heads(hidden)}


def resolve_sizes(sizes: dict[str, Any], model: str, dataset: str) -> dict[str, Any]:
    """``sizes`` for ``model`` trained on ``dataset``: paper 002's where ``sizes`` says ``paper``
    (its other entries, e.g. ``dropout``, kept), else ``sizes`` itself."""
    if not sizes.get("paper"):
        return sizes
    return {**{k: v for k, v in sizes.items() if k != "paper"}, **paper_sizes(model, dataset)}


def training_setup(epochs: int, patience: int, batch_size: int, lr: float, seed: int,
                   hidden: int) -> tuple[TrainConfig, dict[str, Any]]:
    """What every run of an ordering study trains with, from the notebooks' parameters: the
    training configuration and the model sizes (:func:`model_sizes`), for :func:`fit_and_test`."""
    return (TrainConfig(max_epochs=epochs, patience=patience, batch_size=batch_size, lr=lr, seed=seed),
            model_sizes(hidden))


def fit_and_test(model: str, train: OrderingSet, dev: OrderingSet, tests: dict[str, OrderingSet], *,
                 sizes: dict[str, Any], tc: TrainConfig, beam: int, glove: bool = True,
                 progress: bool = False, vectors: str | None = None, **extra: Any) -> list[dict[str, Any]]:
    """Train ``model`` (or reuse it from the cache), decode every test set; one row per test set:
    ``model, label, train_set, test_set, pmr, acc, tau, wlcs_l, n_params, epochs_run, best_epoch,
    train_seconds, fit_seconds, n_train, n_test`` plus ``extra``. ``train_seconds``: the model's
    training time (its epochs, whenever they ran); ``fit_seconds``: this call's time to train it or
    read it from the cache. ``sizes``: :func:`model_sizes` (``paper``: resolved for ``model`` on
    ``train.name``); ``vectors``: the word vectors' source (default ``$SUMEVAL_VECTORS`` or GloVe
    6B 50d, :func:`sumeval.ordering.vocabulary.vectors_source`)."""
    t0 = time.time()
    tm = train_cached(model, train, dev, sizes=resolve_sizes(sizes, model, train.name), train_config=tc,
                      glove=glove, progress=progress, vectors=vectors)
    seconds = time.time() - t0
    rows = []
    for name, test in tests.items():
        scores, _ = evaluate_trained(tm, test, beam=beam, progress=progress)
        rows.append({"model": model, "label": MODEL_LABELS[model], "train_set": train.name, "test_set": name,
                     **scores, "n_params": tm.n_params, "epochs_run": tm.result.epochs_run,
                     "best_epoch": tm.result.best_epoch,
                     "train_seconds": float(sum(h.get("seconds", 0.0) for h in tm.result.history)),
                     "fit_seconds": seconds, "n_train": len(train),
                     "n_test": len(test), **extra})
    return rows


def random_rows(tests: dict[str, OrderingSet], seed: int = 0, **extra: Any) -> list[dict[str, Any]]:
    """Random-order rows (``model = "random"``) for each test set: the floor every model must beat."""
    return [{"model": "random", "label": "random", "test_set": name, **random_scores(t, seed=seed),
             "n_test": len(t), **extra} for name, t in tests.items()]


def long_format(frame: pd.DataFrame, id_cols: Iterable[str]) -> pd.DataFrame:
    """Metric columns melted into ``metric, value`` (for the explorer)."""
    ids = [c for c in id_cols if c in frame]
    return frame.melt(id_vars=ids, value_vars=[m for m in METRICS if m in frame], var_name="metric",
                      value_name="value")
