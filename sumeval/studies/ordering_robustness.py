"""Study ``ordering_robustness`` (paper 002 §4.4, Fig.2): WLCS-l and Acc against the noise level p.

Every unit of every document is contaminated with probability p by one of Insert (an
advertising slogan before it), Remove (drop it) or Modify (half its tokens changed)
(:func:`sumeval.ordering.noise.noisy_set`). Train and dev sets are contaminated (seeds differ
per split); each p trains a fresh model through the model cache. Each model is tested on the
contaminated test set (``test = "noisy"``: ordering noisy text; Remove shortens documents, which
makes any order easier - see the random rows) and on the clean one (``test = "clean"``: what
training on noisy text costs on clean text, the reading of "we train our models on noisy
datasets" in which the test difficulty stays fixed). For SE-Graph,
entities are found (spaCy, or the NIPS files) on the clean text and then follow the noise:
occurrences in removed units vanish, modified-away ones are dropped.
The paper used arXiv and Economist; here NIPS and a paragraph set (BBC by default).
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from sumeval.errors import InputError
from sumeval.ordering.entities import with_entities
from sumeval.ordering.noise import KINDS, noisy_set
from sumeval.studies.common.ordering_runs import (  # noqa: F401  (PARAMETER_RANGES: read by the runner)
    METRICS,
    PARAMETER_RANGES,
    fit_and_test,
    level_of,
    load_capped,
    random_rows,
    training_setup,
)

__all__ = ["PARAMETER_RANGES", "TEST_FORMS", "clean_split", "noisy_splits", "robustness", "summary"]

_SPLIT_SEED = {"train": 0, "dev": 1, "test": 2}


def clean_split(name: str, split: str, n: int, seed: int, *, entities: bool = False) -> Any:
    """Split ``split`` of set ``name`` capped at ``n`` documents, with entities when asked."""
    s = load_capped(name, split, n, seed)
    return with_entities(s) if entities else s


def noisy_splits(name: str, p: float, *, max_train: int, max_dev: int, max_test: int, seed: int,
                 kinds: tuple[str, ...] = KINDS, entities: bool = False) -> dict[str, Any]:
    """``{"train", "dev", "test"}`` sets of ``name`` (capped) contaminated at level ``p``."""
    caps = {"train": max_train, "dev": max_dev, "test": max_test}
    out = {}
    for split, n in caps.items():
        s = clean_split(name, split, n, seed, entities=entities)
        out[split] = s if p == 0 else noisy_set(s, p, seed=seed * 1000 + _SPLIT_SEED[split] * 100 + int(p * 100),
                                                 kinds=kinds)
    return out


TEST_FORMS = ("noisy", "clean")


def robustness(models: list[str], sets: list[str], ps: list[float], *, max_train: int = 0, max_dev: int = 0,
               max_test: int = 0, kinds: tuple[str, ...] = KINDS, epochs: int = 30, patience: int = 5,
               batch_size: int = 8, lr: float = 1e-3, hidden: int = 128, beam: int = 32, glove: bool = True,
               seed: int = 0, test_forms: tuple[str, ...] = TEST_FORMS, progress: bool = False) -> pd.DataFrame:
    """One row per (set, p, model, test form): ``level, dataset, p, test, model, label, pmr, acc,
    tau, wlcs_l, ...`` plus random rows per (set, p, test form). ``test_forms``: ``"noisy"``
    (the test set contaminated at p like the training set) and/or ``"clean"`` (the test set as is)."""
    bad = [t for t in test_forms if t not in TEST_FORMS]
    if bad or not test_forms:
        raise InputError(f"test forms {list(test_forms)}: choose one or both of {', '.join(TEST_FORMS)}")
    tc, sizes = training_setup(epochs, patience, batch_size, lr, seed, hidden)
    rows: list[dict[str, Any]] = []
    for name in sets:
        level = level_of(name)
        for p in ps:
            sp = noisy_splits(name, p, max_train=max_train, max_dev=max_dev, max_test=max_test, seed=seed,
                              kinds=kinds, entities="se_graph" in models)
            tests = {}
            if "noisy" in test_forms:
                tests["noisy"] = sp["test"]
            if "clean" in test_forms:
                tests["clean"] = sp["test"] if p == 0 else clean_split(name, "test", max_test, seed,
                                                                       entities="se_graph" in models)
            for m in models:
                for row in fit_and_test(m, sp["train"], sp["dev"], tests, sizes=sizes, tc=tc, beam=beam,
                                        glove=glove, progress=progress, level=level, dataset=name, p=p):
                    rows.append({**row, "test": row["test_set"], "test_set": name})
            rows += [{**row, "test": row["test_set"], "test_set": name}
                     for row in random_rows(tests, seed=seed, level=level, dataset=name, p=p)]
    return pd.DataFrame(rows)


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """``level, dataset, model, label, p, test, metric, value`` (long form)."""
    ids = [c for c in ("level", "dataset", "model", "label", "p", "test") if c in frame]
    return frame.melt(id_vars=ids, value_vars=list(METRICS),
                      var_name="metric", value_name="value")
