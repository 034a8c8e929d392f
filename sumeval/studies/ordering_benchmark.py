"""Study ``ordering_benchmark`` (paper 002 §4.3): Table 2 and the cross-domain Table 3, plus
the human-evaluation analysis of §4.5 on a user's ratings file.

:func:`benchmark` trains each model on each training set (through the model cache) and tests it
on every test set of the same level (sentence or paragraph): the in-domain cells give Table 2
(PMR, WLCS-l, parameter count), all cells give Table 3 (Acc and tau). Random orders give the
floor. :func:`table2` puts the paper's NIPS and SIND numbers beside ours; :func:`ranking`
compares the models' order. Ratings: :func:`load_ratings`, :func:`human_evaluation`,
:func:`synthetic_ratings` (a demonstration file, labelled synthetic, never human data).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sumeval import published
from sumeval.errors import InputError
from sumeval.studies.common.ordering_runs import (  # noqa: F401  (PARAMETER_RANGES: read by the runner)
    METRICS,
    PARAMETER_RANGES,
    fit_and_test,
    level_of,
    load_capped,
    random_rows,
    training_setup,
)
from sumeval.table_frames import correlation_table


def benchmark(models: list[str], sets: list[str], *, max_train: int = 0, max_dev: int = 0, max_test: int = 0,
              epochs: int = 30, patience: int = 5, batch_size: int = 8, lr: float = 1e-3, hidden: int = 128,
              beam: int = 32, glove: bool = True, seed: int = 0, progress: bool = False) -> pd.DataFrame:
    """One row per (model, train set, test set of the same level) plus random rows:
    ``level, model, label, train_set, test_set, in_domain, pmr, acc, tau, wlcs_l, n_params, ...``."""
    tc, sizes = training_setup(epochs, patience, batch_size, lr, seed, hidden)
    tests = {s: load_capped(s, "test", max_test, seed) for s in sets}
    rows: list[dict[str, Any]] = []
    for train_name in sets:
        level = level_of(train_name)
        same = {k: v for k, v in tests.items() if level_of(k) == level}
        train = load_capped(train_name, "train", max_train, seed)
        dev = load_capped(train_name, "dev", max_dev, seed)
        for m in models:
            rows += fit_and_test(m, train, dev, same, sizes=sizes, tc=tc, beam=beam, glove=glove,
                                 progress=progress, level=level)
    for name, t in tests.items():
        rows += random_rows({name: t}, seed=seed, level=level_of(name), train_set=name)
    frame = pd.DataFrame(rows)
    frame["in_domain"] = frame["train_set"] == frame["test_set"]
    return frame


def table2(frame: pd.DataFrame) -> pd.DataFrame:
    """In-domain rows with the paper's PMR, WLCS-l and #pm beside ours where the paper has the set
    (NIPS, SIND): ``level, dataset, model, label, pmr, wlcs_l, n_params, acc, tau, paper_*``."""
    ours = frame[frame["in_domain"]].rename(columns={"test_set": "dataset"})
    paper = published.paper002_table2().rename(columns={"pmr": "paper_pmr", "wlcs_l": "paper_wlcs_l",
                                                        "n_params": "paper_n_params"})
    out = ours.merge(paper.drop(columns="level"), on=["dataset", "model"], how="left")
    cols = ["level", "dataset", "model", "label", "pmr", "wlcs_l", "acc", "tau", "n_params", "paper_pmr",
            "paper_wlcs_l", "paper_n_params", "epochs_run", "train_seconds", "n_train", "n_test"]
    return out[[c for c in cols if c in out]].reset_index(drop=True)


def pmr_against_paper(t2: pd.DataFrame, ci: float = 0.95) -> pd.DataFrame:
    """Is each gap to Table 2's PMR larger than the draw of the two test sets would make it? For each
    row of :func:`table2` where the paper has the set: our PMR with its Wilson interval over our
    ``n_test`` documents, the paper's with its interval over its test split (Table 1: NIPS 195, SIND
    5,055 documents), and Fisher's exact test of the two (:mod:`sumeval.stats.proportions`; the two
    test sets taken as independent draws, which is conservative where they hold the same documents).

    Returns ``dataset, model, label, pmr, pmr_low, pmr_high, n_test, paper_pmr, paper_pmr_low,
    paper_pmr_high, paper_n_test, gap, p_value``: a p-value above 0.05 says the test sets' sizes
    alone allow the gap.
    """
    from sumeval.stats.proportions import proportion_gap_test, proportion_interval

    sizes = published.paper002_table1().set_index("dataset")["test"]
    rows = []
    for r in t2[t2["paper_pmr"].notna()].itertuples(index=False):
        n, n_paper = int(r.n_test), int(sizes[r.dataset])
        lo, hi = proportion_interval(r.pmr, n, ci)
        plo, phi = proportion_interval(r.paper_pmr, n_paper, ci)
        rows.append({"dataset": r.dataset, "model": r.model, "label": r.label, "pmr": r.pmr, "pmr_low": lo,
                     "pmr_high": hi, "n_test": n, "paper_pmr": r.paper_pmr, "paper_pmr_low": plo,
                     "paper_pmr_high": phi, "paper_n_test": n_paper, "gap": r.pmr - r.paper_pmr,
                     "p_value": proportion_gap_test(r.pmr, n, r.paper_pmr, n_paper)})
    columns = ["dataset", "model", "label", "pmr", "pmr_low", "pmr_high", "n_test", "paper_pmr", "paper_pmr_low",
               "paper_pmr_high", "paper_n_test", "gap", "p_value"]
    return pd.DataFrame(rows, columns=columns)


def table2_paper_table(t2: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`table2` as the paper-ready Table 2: one row per model (``label``), one column per
    (data set, quantity) with the quantities PMR, WLCS-l and the parameter count, in the order the
    data sets first appear; ours, with the paper's row beside it where the paper has the set.

    Returns ``(table, bold)`` (:func:`sumeval.table_frames.correlation_table`): the best of ours per
    column in bold, higher is better, no bold for the parameter count, which is in millions (``params_m``,
    as the paper's #pm; the exact count stays in ``t2`` and ``results.json``). Rows are named ``model``.
    Feed both to ``ctx.save_table``.
    """
    keys = ["dataset", "label"]
    t2 = t2.assign(params_m=t2["n_params"] / 1e6, paper_params_m=t2["paper_n_params"] / 1e6)
    long = t2.melt(id_vars=keys, value_vars=["pmr", "wlcs_l", "params_m"], var_name="quantity", value_name="ours")
    paper = t2.melt(id_vars=keys, value_vars=["paper_pmr", "paper_wlcs_l", "paper_params_m"], value_name="paper")
    long["paper"] = paper["paper"].to_numpy()
    set_order = {d: i for i, d in enumerate(dict.fromkeys(t2["dataset"]))}
    long = long.sort_values("dataset", key=lambda d: d.map(set_order), kind="stable").rename(columns={"label": "model"})
    higher = {c: True for c in map(tuple, long[["dataset", "quantity"]].to_numpy()) if c[1] != "params_m"}
    return correlation_table(long, columns=("dataset", "quantity"), index="model", higher_is_better=higher)


def table3_table(t3: pd.DataFrame, metric: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Paper 002 Table 3 as a paper-ready table for one level of :func:`table3` and one ``metric`` (``acc``,
    ``tau``): a row per (training set, model) named ``"NIPS / ATTOrderNet"``, a column per test set; the best
    per column in bold. Feed both to ``ctx.save_table`` (the caption names the metric by
    :func:`sumeval.display_names.display`)."""
    from sumeval.display_names import display

    rows = t3.assign(row=t3["train_set"].map(display) + " / " + t3["label"])
    tab, bold = correlation_table(rows, columns=("test_set",), value=metric, index="row")
    name = "trained on / model"
    return tab.rename_axis(name), bold.rename_axis(name)


def table3(frame: pd.DataFrame) -> pd.DataFrame:
    """Cross-domain matrix in long form: ``level, model, label, train_set, test_set, acc, tau``."""
    sub = frame[frame["model"] != "random"]
    columns = ["level", "model", "label", "train_set", "test_set", "acc", "tau", "pmr", "wlcs_l"]
    return sub[columns].reset_index(drop=True)


def ranking(t2: pd.DataFrame, dataset: str = "nips", metric: str = "pmr") -> pd.DataFrame:
    """Models ranked by ``metric`` on ``dataset``, ours beside the paper's rank (1 = best)."""
    sub = t2[(t2["dataset"] == dataset) & (t2["model"] != "random")].copy()
    if sub.empty:
        return pd.DataFrame(columns=["model", "label", metric, "rank", f"paper_{metric}", "paper_rank"])
    sub["rank"] = sub[metric].rank(ascending=False, method="min").astype(int)
    pcol = f"paper_{metric}"
    if pcol in sub and sub[pcol].notna().any():
        sub["paper_rank"] = sub[pcol].rank(ascending=False, method="min")
    return sub[["model", "label", metric, "rank"] + ([pcol, "paper_rank"] if "paper_rank" in sub else [])] \
        .sort_values("rank").reset_index(drop=True)


def beats_random(frame: pd.DataFrame, dataset: str = "nips") -> pd.DataFrame:
    """In-domain PMR and tau of each model minus the random orders' on ``dataset``."""
    sub = frame[(frame["test_set"] == dataset) & (frame["in_domain"])]
    rnd = sub[sub["model"] == "random"].iloc[0]
    out = sub[sub["model"] != "random"][["model", "label", "pmr", "tau"]].copy()
    out["random_pmr"], out["random_tau"] = rnd["pmr"], rnd["tau"]
    out["pmr_gain"], out["tau_gain"] = out["pmr"] - rnd["pmr"], out["tau"] - rnd["tau"]
    return out.reset_index(drop=True)


# ------------------------------------------------------------------------------------------
# human evaluation (paper 002 §4.5)
# ------------------------------------------------------------------------------------------
RATING_COLUMNS = ("item", "rater", "rating")


def load_ratings(path: str | Path) -> pd.DataFrame:
    """A ratings file (CSV or JSONL), one row per (item, rater): ``item, rater, rating`` and, per
    item, either the metric columns ``tau, acc, wlcs_l`` or the orders ``pred`` and ``gold`` (JSON
    lists of sentence indices, from which the metrics are computed). Other columns (``model``)
    are kept."""
    from sumeval.ordering.metrics import accuracy_document, kendall_tau_document, wlcs_l_document

    p = Path(path)
    if not p.is_file():
        raise InputError(f"ratings file {str(p)!r} does not exist")
    frame = pd.read_json(p, lines=True) if p.suffix in (".jsonl", ".json") else pd.read_csv(p)
    missing = [c for c in RATING_COLUMNS if c not in frame]
    if missing:
        raise InputError(f"{p}: columns {missing} are missing; a ratings file needs item, rater, rating "
                         "and either tau, acc, wlcs_l or pred, gold")
    if frame["rating"].isna().any():
        bad = frame.index[frame["rating"].isna()].tolist()[:5]
        raise InputError(f"{p}: rows {bad} have no rating; give a number or drop the row")
    if not {"tau", "acc", "wlcs_l"} <= set(frame):
        if not {"pred", "gold"} <= set(frame):
            raise InputError(f"{p}: give the metric columns tau, acc, wlcs_l or the orders pred and gold")

        def parse(v):
            return json.loads(v) if isinstance(v, str) else list(v)

        pred, gold = frame["pred"].map(parse), frame["gold"].map(parse)
        frame["tau"] = [kendall_tau_document(a, b) for a, b in zip(pred, gold)]
        frame["acc"] = [accuracy_document(a, b) for a, b in zip(pred, gold)]
        frame["wlcs_l"] = [wlcs_l_document(a, b)["f"] for a, b in zip(pred, gold)]
    return frame


def human_evaluation(ratings: pd.DataFrame) -> tuple[dict[str, float], pd.DataFrame]:
    """Agreement and regressions of §4.5: ``({"n_items", "n_raters", "inter_rater_pearson",
    "krippendorff_alpha", "r2_tau", "r2_acc", "r2_wlcs_l"}, per-item frame)``.

    Inter-rater Pearson: mean over raters of the correlation of a rater with the mean of the
    others (:func:`sumeval.stats.inter_rater_pearson`); alpha at the interval level; R^2 of the
    least-squares regression of the items' mean rating on each metric."""
    from sumeval import stats

    wide = ratings.pivot_table(index="item", columns="rater", values="rating", aggfunc="mean")
    per_item = ratings.groupby("item").agg(mean_rating=("rating", "mean"), tau=("tau", "first"),
                                           acc=("acc", "first"), wlcs_l=("wlcs_l", "first"))
    per_item = per_item.loc[wide.index]
    out = {
        "n_items": int(len(wide)), "n_raters": int(wide.shape[1]),
        "inter_rater_pearson": float(np.nanmean(stats.inter_rater_pearson(wide.to_numpy(float)))),
        "krippendorff_alpha": float(stats.krippendorff_alpha(wide.to_numpy(float), level="interval")),
    }
    for m in ("tau", "acc", "wlcs_l"):
        out[f"r2_{m}"] = float(stats.r_squared(per_item["mean_rating"].to_numpy(float), per_item[m].to_numpy(float)))
    return out, per_item.reset_index()


def synthetic_ratings(path: str | Path, n_items: int = 40, n_raters: int = 3, seed: int = 0) -> Path:
    """Write a SYNTHETIC ratings file (CSV) to demonstrate the analysis: random orders of 4-9
    sentences; each rater's score is 1 + 4 * WLCS-l-like quality plus noise, rounded to 1..5.
    These are not human ratings and say nothing about the metrics."""
    from sumeval.ordering.metrics import wlcs_l_document

    rng = np.random.default_rng(int(seed))
    rows = []
    for i in range(n_items):
        n = int(rng.integers(4, 10))
        gold = list(range(n))
        pred = list(range(n))
        for _ in range(int(rng.integers(0, n))):  # a few random swaps
            a, b = rng.integers(0, n, 2)
            pred[a], pred[b] = pred[b], pred[a]
        q = wlcs_l_document(pred, gold)["f"]
        for r in range(n_raters):
            rating = int(np.clip(np.rint(1 + 4 * q + rng.normal(0, 0.6)), 1, 5))
            rows.append({"item": f"synthetic-{i}", "rater": f"r{r}", "rating": rating,
                         "pred": json.dumps(pred), "gold": json.dumps(gold), "source": "SYNTHETIC"})
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(p, index=False)
    return p


__all__ = ["benchmark", "table2", "table2_paper_table", "table3", "table3_table", "ranking", "beats_random",
           "load_ratings", "human_evaluation", "synthetic_ratings", "METRICS"]
