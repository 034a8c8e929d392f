"""Paper-002 study functions: published tables, parameter parsing, the human-evaluation analysis
on generated ratings files (synthetic: no human data), spaCy entities for SE-Graph."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sumeval import published
from sumeval.errors import InputError
from sumeval.studies import ordering_benchmark as ob
from sumeval.studies.common import ordering_runs as runs


def test_paper_tables():
    t2 = published.paper002_table2()
    assert len(t2) == 2 * 4 * 4
    nips = t2[t2["dataset"] == "nips"].set_index("model")
    assert nips.loc["attordernet", "pmr"] == pytest.approx(0.2917)
    assert nips.loc["se_graph", "wlcs_l"] == pytest.approx(0.6282)
    assert nips.loc["lstm_ptrnet", "n_params"] == pytest.approx(3.2e6)
    t3 = published.paper002_table3a()
    assert len(t3) == 3 * 3 * 4
    assert t3.set_index(["train_set", "test_set", "model"]).loc[("nips", "nips", "se_graph"), "tau"] == 0.75


def test_model_sizes_give_attention_heads_that_divide_hidden():
    assert runs.model_sizes(128) == {"hidden": 128, "heads": 8}  # the default set
    assert runs.model_sizes(300) == {"hidden": 300, "heads": 4}  # the paper set: 300 = 4 x 75
    assert runs.model_sizes(16) == {"hidden": 16, "heads": 8}  # the smoke set
    assert runs.model_sizes(30) == {"hidden": 30, "heads": 2}
    assert runs.model_sizes(7) == {"hidden": 7, "heads": 1}


def test_parse_lists_name_bad_values():
    assert runs.parse_models(" lstm_ptrnet, se_graph ") == ["lstm_ptrnet", "se_graph"]
    assert runs.parse_sets("", "paragraph") == []
    assert runs.parse_numbers("0, 0.5", float) == [0.0, 0.5]
    with pytest.raises(InputError, match="bert"):
        runs.parse_models("lstm_ptrnet,bert")
    with pytest.raises(InputError, match="nips"):
        runs.parse_sets("nips", "paragraph")
    with pytest.raises(InputError, match="numbers"):
        runs.parse_numbers("1,x", int)


def test_ranking_and_beats_random():
    frame = pd.DataFrame([
        {"model": "lstm_ptrnet", "label": "LSTM+PtrNet", "train_set": "nips", "test_set": "nips", "pmr": 0.1,
         "tau": 0.5},
        {"model": "attordernet", "label": "ATTOrderNet", "train_set": "nips", "test_set": "nips", "pmr": 0.2,
         "tau": 0.6},
        {"model": "random", "label": "random", "train_set": "nips", "test_set": "nips", "pmr": 0.02, "tau": 0.0},
    ])
    frame["in_domain"] = True
    gain = ob.beats_random(frame, "nips").set_index("model")
    assert gain.loc["attordernet", "pmr_gain"] == pytest.approx(0.18)
    t2 = frame[frame["model"] != "random"].rename(columns={"test_set": "dataset"})
    t2["paper_pmr"] = [0.1979, 0.2917]
    r = ob.ranking(t2, "nips", "pmr")
    assert r["model"].tolist() == ["attordernet", "lstm_ptrnet"] and r["paper_rank"].tolist() == [1, 2]


def _ratings_file(tmp_path, items, with_orders):
    rows = []
    for i, (pred, gold, ratings) in enumerate(items):
        for r, v in enumerate(ratings):
            row = {"item": f"i{i}", "rater": f"r{r}", "rating": v}
            if with_orders:
                row.update(pred=json.dumps(pred), gold=json.dumps(gold))
            else:
                from sumeval.ordering.metrics import accuracy_document, kendall_tau_document, wlcs_l_document

                row.update(tau=kendall_tau_document(pred, gold), acc=accuracy_document(pred, gold),
                           wlcs_l=wlcs_l_document(pred, gold)["f"])
            rows.append(row)
    path = tmp_path / ("orders.csv" if with_orders else "metrics.jsonl")
    if with_orders:
        pd.DataFrame(rows).to_csv(path, index=False)
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


ITEMS = [  # (pred, gold, ratings of 3 raters) -- invented for the test, not human data
    ([0, 1, 2, 3], [0, 1, 2, 3], [5, 5, 4]),
    ([1, 0, 2, 3], [0, 1, 2, 3], [4, 4, 4]),
    ([3, 2, 1, 0], [0, 1, 2, 3], [1, 2, 1]),
    ([0, 2, 1, 3], [0, 1, 2, 3], [3, 4, 3]),
    ([2, 3, 0, 1], [0, 1, 2, 3], [2, 2, 3]),
]


def test_human_evaluation_from_orders_and_from_metrics(tmp_path):
    a = ob.load_ratings(_ratings_file(tmp_path, ITEMS, True))
    b = ob.load_ratings(_ratings_file(tmp_path, ITEMS, False))
    ha, per_item = ob.human_evaluation(a)
    hb, _ = ob.human_evaluation(b)
    for k in ("inter_rater_pearson", "krippendorff_alpha", "r2_tau", "r2_acc", "r2_wlcs_l"):
        assert ha[k] == pytest.approx(hb[k])
    assert ha["n_items"] == 5 and ha["n_raters"] == 3
    # item i2 (reversed order of 4): tau = 1 - 2*6/6 = -1, acc = 0
    row = per_item.set_index("item").loc["i2"]
    assert row["tau"] == -1 and row["acc"] == 0 and row["mean_rating"] == pytest.approx(4 / 3)
    # R^2 of a single predictor = squared Pearson correlation
    r = np.corrcoef(per_item["tau"], per_item["mean_rating"])[0, 1]
    assert ha["r2_tau"] == pytest.approx(r ** 2)
    assert 0 < ha["inter_rater_pearson"] <= 1 and ha["krippendorff_alpha"] > 0.5


def test_ratings_file_errors(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        ob.load_ratings(tmp_path / "none.csv")
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"item": [1], "rating": [3]}).to_csv(bad, index=False)
    with pytest.raises(InputError, match="rater"):
        ob.load_ratings(bad)
    bad2 = tmp_path / "bad2.csv"
    pd.DataFrame({"item": [1], "rater": ["a"], "rating": [3]}).to_csv(bad2, index=False)
    with pytest.raises(InputError, match="pred and gold"):
        ob.load_ratings(bad2)


def test_synthetic_ratings_are_labelled(tmp_path):
    path = ob.synthetic_ratings(tmp_path / "s.csv", n_items=10, n_raters=3, seed=1)
    frame = ob.load_ratings(path)
    assert (frame["source"] == "SYNTHETIC").all() and len(frame) == 30
    assert frame["rating"].between(1, 5).all()


def test_spacy_entities_with_the_real_pipeline():
    from sumeval.ordering.entities import load_spacy, spacy_entities

    nlp = load_spacy()
    units = ["The cat sat on the mat.", "A dog chased the cat.", "The mat was red and the dog liked it."]
    ents = spacy_entities(units, nlp)
    # cat: subject of 0, object of 1; mat: other (pobj) in 0, subject in 2; dog: subject in 1 and 2
    assert ents == {"cat": ((0, 1), (1, 2)), "mat": ((0, 3), (2, 1)), "dog": ((1, 1), (2, 1))}


def test_with_entities_adds_and_keeps(tmp_path, monkeypatch):
    from sumeval.ordering.documents import OrderingDocument, OrderingSet, shuffle_for
    from sumeval.ordering.entities import with_entities

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path))
    docs = (OrderingDocument("d0", ("The cat sat.", "The cat ran.")),
            OrderingDocument("d1", ("x y", "y z"), {"y": ((0, 3), (1, 3))}))
    s = OrderingSet("toy", "test", docs, tuple(shuffle_for(d.doc_id, 2, 0) for d in docs), 0)
    out = with_entities(s)
    assert out.shuffles == s.shuffles
    assert out.documents[0].entities == {"cat": ((0, 1), (1, 1))}
    assert out.documents[1].entities == docs[1].entities
    assert with_entities(out) is out


def test_robustness_tests_on_the_noisy_and_the_clean_test_set():
    from sumeval.studies import ordering_robustness as orb

    f = orb.robustness(["lstm_ptrnet"], ["nips"], [0.0, 1.0], max_train=8, max_dev=4, max_test=6, epochs=1,
                       patience=1, batch_size=4, hidden=16, beam=1, glove=False)
    assert set(f["test"]) == {"noisy", "clean"} and set(f["test_set"]) == {"nips"}
    key = ["model", "p", "test"]
    rows = f.set_index(key)
    # the clean test set is the same at every p: the random floor does not move
    assert rows.loc[("random", 0.0, "clean"), "tau"] == rows.loc[("random", 1.0, "clean"), "tau"]
    assert rows.loc[("random", 1.0, "clean"), "n_test"] == 6
    # at p = 0 both forms are the clean set; at p = 1 every unit is contaminated
    assert rows.loc[("lstm_ptrnet", 0.0, "clean"), "wlcs_l"] == rows.loc[("lstm_ptrnet", 0.0, "noisy"), "wlcs_l"]
    assert rows.loc[("random", 1.0, "noisy"), "wlcs_l"] != rows.loc[("random", 1.0, "clean"), "wlcs_l"]
    long = orb.summary(f)
    assert "test" in long.columns and set(long["metric"]) >= {"wlcs_l", "acc"}
    with pytest.raises(InputError, match="choose one or both of noisy, clean"):
        orb.robustness(["lstm_ptrnet"], ["nips"], [0.0], test_forms=("dirty",))


def test_train_seconds_is_the_models_training_time_even_from_the_cache():
    from sumeval.ordering.train import TrainConfig

    train, dev = runs.load_capped("nips", "train", 8), runs.load_capped("nips", "dev", 4)
    tests = {"nips": runs.load_capped("nips", "test", 4)}
    kw = dict(sizes={"hidden": 8, "heads": 8}, tc=TrainConfig(max_epochs=2, patience=2, batch_size=4), beam=1,
              glove=False)
    first = runs.fit_and_test("lstm_ptrnet", train, dev, tests, **kw)[0]
    again = runs.fit_and_test("lstm_ptrnet", train, dev, tests, **kw)[0]  # read from the cache
    assert first["epochs_run"] == 2 and first["train_seconds"] > 0
    assert again["train_seconds"] == first["train_seconds"]  # the epochs' time, not the cache read
    assert first["fit_seconds"] >= first["train_seconds"]  # training happened inside the first call
    assert again["pmr"] == first["pmr"] and again["tau"] == first["tau"]


def test_table2_paper_table_keeps_the_set_order_and_bolds_ours_but_not_the_size():
    nan = float("nan")
    t2 = pd.DataFrame([  # invented numbers; ROC (no paper numbers) first, then NIPS
        {"dataset": "roc", "label": "LSTM+PtrNet", "pmr": 0.3, "wlcs_l": 0.6, "n_params": 100,
         "paper_pmr": nan, "paper_wlcs_l": nan, "paper_n_params": nan},
        {"dataset": "roc", "label": "ATTOrderNet", "pmr": 0.4, "wlcs_l": 0.5, "n_params": 200,
         "paper_pmr": nan, "paper_wlcs_l": nan, "paper_n_params": nan},
        {"dataset": "nips", "label": "LSTM+PtrNet", "pmr": 0.1, "wlcs_l": 0.7, "n_params": 100,
         "paper_pmr": 0.2, "paper_wlcs_l": 0.8, "paper_n_params": 150},
        {"dataset": "nips", "label": "ATTOrderNet", "pmr": 0.2, "wlcs_l": 0.6, "n_params": 200,
         "paper_pmr": 0.3, "paper_wlcs_l": 0.9, "paper_n_params": 250},
    ])
    tab, bold = ob.table2_paper_table(t2)
    assert list(tab.columns) == [(d, q) for d in ("roc", "nips") for q in ("pmr", "wlcs_l", "params_m")]
    assert tab.index.names[0] == "model"  # shown "Model", not the code name "label"
    assert tab.loc[("LSTM+PtrNet", "ours"), ("nips", "wlcs_l")] == 0.7
    assert tab.loc[("LSTM+PtrNet", "paper"), ("nips", "params_m")] == 150 / 1e6  # millions, as the paper's #pm
    assert np.isnan(tab.loc[("ATTOrderNet", "paper"), ("roc", "pmr")])
    # best of ours per column: ROC PMR 0.4 (ATTOrderNet), NIPS WLCS-l 0.7 (LSTM+PtrNet); never the size, never the paper
    assert bold.loc[("ATTOrderNet", "ours"), ("roc", "pmr")] and bold.loc[("LSTM+PtrNet", "ours"), ("nips", "wlcs_l")]
    assert not bold.xs("params_m", axis=1, level="quantity").to_numpy().any()
    assert not bold.xs("paper", level="source").to_numpy().any()
    assert int(bold.to_numpy().sum()) == 4


def test_table3_table_names_the_training_sets_and_bolds_the_best_per_test_set():
    t3 = pd.DataFrame([  # invented numbers
        {"level": "sentence", "label": "LSTM+PtrNet", "train_set": "nips", "test_set": "nips", "tau": 0.7, "acc": 0.5},
        {"level": "sentence", "label": "LSTM+PtrNet", "train_set": "nips", "test_set": "sind", "tau": 0.1, "acc": 0.2},
        {"level": "sentence", "label": "LSTM+PtrNet", "train_set": "sind", "test_set": "nips", "tau": 0.0, "acc": 0.1},
        {"level": "sentence", "label": "LSTM+PtrNet", "train_set": "sind", "test_set": "sind", "tau": 0.4, "acc": 0.4},
    ])
    tab, bold = ob.table3_table(t3, "tau")
    assert list(tab.index) == ["NIPS / LSTM+PtrNet", "SIND / LSTM+PtrNet"] and tab.index.name == "trained on / model"
    assert list(tab.columns) == ["nips", "sind"]
    assert tab.loc["SIND / LSTM+PtrNet", "sind"] == 0.4
    assert bold.loc["NIPS / LSTM+PtrNet", "nips"] and bold.loc["SIND / LSTM+PtrNet", "sind"]
    assert int(bold.to_numpy().sum()) == 2


def test_pmr_against_paper_sets_each_gap_beside_the_two_test_sets_sampling():
    from sumeval.stats.proportions import proportion_gap_test, proportion_interval

    nan = float("nan")
    t2 = pd.DataFrame([  # invented numbers; ROC has no paper row and is left out
        {"dataset": "nips", "model": "attordernet", "label": "ATTOrderNet", "pmr": 91 / 377, "n_test": 377,
         "paper_pmr": 0.2917},
        {"dataset": "sind", "model": "lstm_ptrnet", "label": "LSTM+PtrNet", "pmr": 412 / 5055, "n_test": 5055,
         "paper_pmr": 0.1361},
        {"dataset": "roc", "model": "lstm_ptrnet", "label": "LSTM+PtrNet", "pmr": 0.3, "n_test": 300, "paper_pmr": nan},
    ])
    out = ob.pmr_against_paper(t2).set_index("dataset")
    assert list(out.index) == ["nips", "sind"]
    # the paper's test splits from Table 1: NIPS 195, SIND 5,055 documents
    assert out.loc["nips", "paper_n_test"] == 195 and out.loc["sind", "paper_n_test"] == 5055
    assert (out.loc["nips", "pmr_low"], out.loc["nips", "pmr_high"]) == proportion_interval(91 / 377, 377)
    assert out.loc["nips", "paper_pmr_low"] == pytest.approx(0.2330, abs=1e-4)  # Wilson, 57 of 195
    assert out.loc["nips", "gap"] == pytest.approx(91 / 377 - 0.2917)
    # NIPS: a gap of 0.05 on 377 against 195 documents is within the draw; SIND's on 5,055 each is not
    assert out.loc["nips", "p_value"] == proportion_gap_test(91 / 377, 377, 0.2917, 195) > 0.05
    assert out.loc["sind", "p_value"] < 1e-6
