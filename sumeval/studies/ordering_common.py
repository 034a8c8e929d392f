"""Shared pieces of the paper-002 ordering studies (benchmark, learnability, robustness).

- the paper's published numbers (Table 2, Table 3a) as tidy frames;
- :func:`parse_list` for the notebooks' comma-separated parameters;
- :func:`fit_and_test`: train a model (through the model cache) and score it on test sets,
  returning tidy rows.

Data available here (SPEC.md §3): sentence level NIPS (its own train/val/test), SIND and ROC
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
from sumeval.ordering.data import PARAGRAPH_SETS, SENTENCE_SETS, OrderingSet, load_ordering_set
from sumeval.ordering.experiment import cap, evaluate_trained, random_scores, train_cached
from sumeval.ordering.models import MODEL_LABELS, MODEL_NAMES
from sumeval.ordering.train import TrainConfig

METRICS = ("pmr", "acc", "tau", "wlcs_l")
#: ranges of the ordering notebooks' numeric parameters, checked by the runner before a run starts
PARAMETER_RANGES = {"max_train": (">=0", "0 means all"), "max_train_paragraph": (">=0", "0 means all"),
                    "max_dev": (">=0", "0 means all"), "max_test": (">=0", "0 means all"),
                    "epochs": ">=1", "patience": ">=1", "batch_size": ">=1", "lr": ">0", "hidden": ">=1",
                    "beam": (">=1", "1 is greedy"), "threads": (">=0", "0 leaves the default")}

# Paper 002 Table 2 (PMR in %, WLCS-l, #pm in millions)
_T2 = {
    "sentence": {
        "arxiv": [(22.17, .6002, 11.0), (21.36, .5934, 66.9), (25.73, .6122, 40.9), (26.73, .6251, 12.4)],
        "aan": [(35.65, .6575, 6.8), (35.62, .6564, 54.5), (40.00, .6763, 32.6), (45.97, .6995, 11.4)],
        "nips": [(19.79, .5839, 3.2), (17.95, .5620, 43.6), (29.17, .6200, 13.4), (27.55, .6282, 4.5)],
        "sind": [(13.61, .5756, 4.2), (13.13, .5703, 46.5), (13.57, .5733, 16.3), (15.07, .5838, 11.6)],
    },
    "paragraph": {
        "press": [(42.33, .6543, 10.0), (35.04, .6304, 64.1), (42.57, .6555, 55.4), (46.90, .6749, 13.3)],
        "statements": [(43.12, .6582, 6.6), (33.01, .6346, 53.7), (45.79, .6692, 45.0), (42.66, .6704, 12.0)],
        "journal": [(5.24, .4549, 11.2), (4.85, .4424, 67.6), (5.27, .4595, 41.6), (5.29, .4618, 20.02)],
        "lyrics": [(0.26, .1765, 8.9), (0.66, .1891, 60.7), (0.49, .1751, 52.1), (0.0, .1719, 12.4)],
    },
}
# Paper 002 Table 3a: Kendall tau, train (rows) x test (columns), per model
_T3A = {
    "arxiv": [(.73, .77, .81), (.77, .80, .83), (.75, .79, .81), (.78, .80, .80)],
    "aan": [(.64, .74, .65), (.73, .81, .75), (.64, .76, .65), (.72, .81, .80)],
    "nips": [(.62, .65, .70), (.64, .64, .70), (.66, .70, .73), (.66, .71, .75)],
}


def paper_table2() -> pd.DataFrame:
    """Paper 002 Table 2: ``level, dataset, model, pmr (fraction), wlcs_l, n_params``."""
    rows = []
    for level, sets in _T2.items():
        for ds, vals in sets.items():
            for m, (pmr, wl, pm) in zip(MODEL_NAMES, vals):
                rows.append((level, ds, m, pmr / 100, wl, pm * 1e6))
    return pd.DataFrame(rows, columns=["level", "dataset", "model", "pmr", "wlcs_l", "n_params"])


def paper_table3a() -> pd.DataFrame:
    """Paper 002 Table 3a: ``train_set, test_set, model, tau`` (arXiv, AAN, NIPS)."""
    tests = ("arxiv", "aan", "nips")
    rows = [(tr, te, m, v) for tr, vals in _T3A.items() for m, row in zip(MODEL_NAMES, vals)
            for te, v in zip(tests, row)]
    return pd.DataFrame(rows, columns=["train_set", "test_set", "model", "tau"])


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


def model_sizes(hidden: int) -> dict[str, int]:
    """Model sizes of the ordering studies: ``hidden`` and ATTOrderNet's attention heads (8, or the
    largest of 4, 2, 1 that divides ``hidden``: heads must divide it)."""
    return {"hidden": hidden, "heads": next(h for h in (8, 4, 2, 1) if hidden % h == 0)}


def train_config(epochs: int, patience: int, batch_size: int, lr: float, seed: int) -> TrainConfig:
    return TrainConfig(max_epochs=epochs, patience=patience, batch_size=batch_size, lr=lr, seed=seed)


def fit_and_test(model: str, train: OrderingSet, dev: OrderingSet, tests: dict[str, OrderingSet], *,
                 sizes: dict[str, Any], tc: TrainConfig, beam: int, glove: bool = True,
                 progress: bool = False, **extra: Any) -> list[dict[str, Any]]:
    """Train ``model`` (or reuse it from the cache), decode every test set; one row per test set:
    ``model, label, train_set, test_set, pmr, acc, tau, wlcs_l, n_params, epochs_run, best_epoch,
    train_seconds, fit_seconds, n_train, n_test`` plus ``extra``. ``train_seconds``: the model's
    training time (its epochs, whenever they ran); ``fit_seconds``: this call's time to train it or
    read it from the cache."""
    t0 = time.time()
    tm = train_cached(model, train, dev, sizes=sizes, train_config=tc, glove=glove, progress=progress)
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
