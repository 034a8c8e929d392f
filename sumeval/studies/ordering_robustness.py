"""Study ``ordering_robustness`` (paper 002 §4.4, Fig.2): WLCS-l and Acc against the noise level p.

Every unit of every document is contaminated with probability p by one of Insert (an
advertising slogan before it), Remove (drop it) or Modify (half its tokens changed)
(:func:`sumeval.ordering.noise.noisy_set`). Train, dev and test sets are all contaminated
(seeds differ per split); each p trains a fresh model through the model cache. For SE-Graph,
entities are found (spaCy, or the NIPS files) on the clean text and then follow the noise:
occurrences in removed units vanish, modified-away ones are dropped.
The paper used arXiv and Economist; here NIPS and a paragraph set (BBC by default).
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from sumeval.ordering.data import with_entities
from sumeval.ordering.noise import KINDS, noisy_set
from sumeval.studies.ordering_common import METRICS, fit_and_test, level_of, load_capped, random_rows, train_config

_SPLIT_SEED = {"train": 0, "dev": 1, "test": 2}


def noisy_splits(name: str, p: float, *, max_train: int, max_dev: int, max_test: int, seed: int,
                 kinds: tuple[str, ...] = KINDS, entities: bool = False) -> dict[str, Any]:
    """``{"train", "dev", "test"}`` sets of ``name`` (capped) contaminated at level ``p``."""
    caps = {"train": max_train, "dev": max_dev, "test": max_test}
    out = {}
    for split, n in caps.items():
        s = load_capped(name, split, n, seed)
        if entities:
            s = with_entities(s)
        out[split] = s if p == 0 else noisy_set(s, p, seed=seed * 1000 + _SPLIT_SEED[split] * 100 + int(p * 100),
                                                 kinds=kinds)
    return out


def robustness(models: list[str], sets: list[str], ps: list[float], *, max_train: int = 0, max_dev: int = 0,
               max_test: int = 0, kinds: tuple[str, ...] = KINDS, epochs: int = 30, patience: int = 5,
               batch_size: int = 8, lr: float = 1e-3, hidden: int = 128, beam: int = 32, glove: bool = True,
               seed: int = 0, progress: bool = False) -> pd.DataFrame:
    """One row per (set, p, model): ``level, dataset, p, model, label, pmr, acc, tau, wlcs_l, ...``
    plus random rows per (set, p)."""
    tc = train_config(epochs, patience, batch_size, lr, seed)
    sizes = {"hidden": hidden, "heads": 4 if hidden % 8 else 8}
    rows: list[dict[str, Any]] = []
    for name in sets:
        level = level_of(name)
        for p in ps:
            sp = noisy_splits(name, p, max_train=max_train, max_dev=max_dev, max_test=max_test, seed=seed,
                              kinds=kinds, entities="se_graph" in models)
            for m in models:
                rows += fit_and_test(m, sp["train"], sp["dev"], {name: sp["test"]}, sizes=sizes, tc=tc, beam=beam,
                                     glove=glove, progress=progress, level=level, dataset=name, p=p)
            rows += random_rows({name: sp["test"]}, seed=seed, level=level, dataset=name, p=p)
    return pd.DataFrame(rows)


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """``level, dataset, model, label, p, metric, value`` (long form)."""
    return frame.melt(id_vars=["level", "dataset", "model", "label", "p"], value_vars=list(METRICS),
                      var_name="metric", value_name="value")
