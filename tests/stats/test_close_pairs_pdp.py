"""Pairwise Difference Pearson (sumeval.stats.pdp), close system pairs and rank intervals
(sumeval.stats.close_pairs).

Grouped by problem: PDP against mt-metrics-eval's own test values (hand-checkable) and a transcription
of its definition on a random case with missing scores; the close-pair agreement by hand; the rank
intervals by hand; ties, NaN and shuffled rows (the results must not move); bad input.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval import stats
from sumeval.errors import InputError
from sumeval.stats.close_pairs import close_pairs, rank_intervals
from sumeval.stats.pdp import pairwise_difference_pearson


def _packed(num_sys: int, gold: list, metric: list) -> pd.DataFrame:
    """mt-metrics-eval's packed vectors (num_sys consecutive rows of items) as a frame; None -> NaN."""
    n = len(gold) // num_sys
    return pd.DataFrame({"doc_id": [f"i{k}" for _ in range(num_sys) for k in range(n)],
                         "system": [f"s{s}" for s in range(num_sys) for _ in range(n)],
                         "human": [np.nan if g is None else g for g in gold], "m": metric})


def _mtme_pdp(gold: np.ndarray, metric: np.ndarray) -> float:
    """mt-metrics-eval fc0e59f, AverageCorrelation(pearsonr, average_by='item', pdp=True), transcribed:
    every item's R x R ordered differences (diagonal included), flattened into one vector, the pairs whose
    gold difference is missing filtered, scipy's pearsonr. gold, metric: (items, systems)."""
    hd = (gold[:, np.newaxis, :] - gold[:, :, np.newaxis]).reshape(gold.shape[0], -1).ravel()
    md = (metric[:, np.newaxis, :] - metric[:, :, np.newaxis]).reshape(metric.shape[0], -1).ravel()
    keep = ~np.isnan(hd)
    return ss.pearsonr(hd[keep], md[keep]).statistic


class TestPDP:
    def test_mt_metrics_eval_test_values(self):
        # stats_test.py testPearsonPdp: Correlation(2, [1..6], [2, 1, 4, 3, 3, 7]), average_by='item' -> 0.926
        # by hand: item differences (3, 1), (3, 2), (3, 3): 18 / sqrt(27 * 14)
        f = _packed(2, [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 3, 7])
        got = pairwise_difference_pearson(f, "m", "human").iloc[0]
        assert got["pdp"] == pytest.approx(18 / math.sqrt(27 * 14), abs=1e-15)
        assert round(got["pdp"], 3) == 0.926 and got["n_pairs"] == 3
        # testPdpWithAveragingAndNones: [1, 5, None, 10, 2, 12] vs [3, 15, 1, 20, 4, 24] -> 0.968
        # by hand: (9, 17), (-3, -11); the item with a missing gold score is left out: 186 / sqrt(90 * 410)
        f = _packed(2, [1, 5, None, 10, 2, 12], [3, 15, 1, 20, 4, 24])
        got = pairwise_difference_pearson(f, "m", "human").iloc[0]
        assert got["pdp"] == pytest.approx(186 / math.sqrt(90 * 410), abs=1e-15)
        assert round(got["pdp"], 3) == 0.968 and got["n_pairs"] == 2

    def test_random_case_equals_the_transcribed_definition_and_shuffled_rows(self):
        rng = np.random.default_rng(7)
        items, systems = 30, 6
        gold = np.round(rng.normal(size=(items, systems)) + np.arange(systems) * 0.3, 1)  # rounded: ties
        metric = gold + rng.normal(0, 0.8, size=gold.shape)
        gold[rng.random(gold.shape) < 0.1] = np.nan  # missing human scores
        want = _mtme_pdp(gold, metric)
        f = pd.DataFrame({"doc_id": np.repeat([f"d{i}" for i in range(items)], systems),
                          "system": np.tile([f"s{s}" for s in range(systems)], items),
                          "human": gold.ravel(), "m": metric.ravel(), "neg": -metric.ravel()})
        for frame in (f, f.sample(frac=1.0, random_state=1)):
            out = pairwise_difference_pearson(frame, ["m", "neg"], "human", level=["input", "system"])
            got = out.set_index(["metric", "level"])["pdp"]
            assert got[("m", "input")] == pytest.approx(want, abs=1e-12)
            assert got[("neg", "input")] == pytest.approx(-want, abs=1e-12)
            # pairs of system means: sum_{i<j} dx dy = R * centred sum, so the system-level Pearson
            sys_r = stats.correlate(frame, "m", "human", level="system", methods=["pearson"],
                                    n_resamples=0)["value"].iloc[0]
            assert got[("m", "system")] == pytest.approx(sys_r, abs=1e-12)
        # differs from Pearson over the pooled scores (the paper's point: within-input comparisons only)
        glob = stats.correlate(f, "m", "human", level="global", methods=["pearson"], n_resamples=0)["value"].iloc[0]
        assert abs(want - glob) > 0.01

    def test_undefined_and_bad_input(self):
        f = _packed(2, [1, 1, 1, 2, 2, 2], [3, 3, 3, 3, 3, 3])  # measure differences all 0
        assert math.isnan(pairwise_difference_pearson(f, "m", "human")["pdp"].iloc[0])
        with pytest.raises(InputError, match="PDP level 'global'"):
            pairwise_difference_pearson(f, "m", "human", level="global")
        one = f[f["system"] == "s0"]
        with pytest.raises(InputError, match="at least 2 systems"):
            pairwise_difference_pearson(one, "m", "human")


class TestPDPInterval:
    """The document bootstrap of PDP: a resample is PDP on the drawn inputs; ties, NaN, shuffled rows."""

    @staticmethod
    def _frame(seed: int = 3, items: int = 12, systems: int = 5) -> pd.DataFrame:
        rng = np.random.default_rng(seed)
        gold = np.round(rng.normal(size=(items, systems)) + np.arange(systems) * 0.4, 1)  # rounded: ties
        metric = np.round(gold + rng.normal(0, 0.7, size=gold.shape), 1)
        gold[rng.random(gold.shape) < 0.1] = np.nan
        metric[rng.random(metric.shape) < 0.1] = np.nan
        return pd.DataFrame({"doc_id": np.repeat([f"d{i:02d}" for i in range(items)], systems),
                             "system": np.tile([f"s{s}" for s in range(systems)], items),
                             "human": gold.ravel(), "m": metric.ravel()})

    def test_a_resample_is_pdp_on_the_drawn_inputs(self):
        from sumeval.stats.layout import frame_layout
        from sumeval.stats.pdp import pdp_replicates

        f = self._frame()
        lay = frame_layout(f, "doc_id", "system", need_systems=True)
        keep = f["human"].notna() & f["m"].notna()
        gh, gm = (lay.grid(np.where(keep, f[c], np.nan)) for c in ("human", "m"))
        # input 0 drawn three times, input 1 never, the others once: PDP of the frame with d00 thrice, no d01
        counts = np.ones((1, lay.n_docs))
        counts[0, 0], counts[0, 1] = 3, 0
        drawn = pd.concat([f[f["doc_id"] != "d01"]] + [f[f["doc_id"] == "d00"].assign(doc_id=f"d00_{k}")
                                                      for k in (1, 2)], ignore_index=True)
        for level in ("input", "system"):
            want = pairwise_difference_pearson(drawn, "m", "human", level=level, n_resamples=0)["pdp"].iloc[0]
            assert pdp_replicates(gh, gm, counts, level)[0] == pytest.approx(want, abs=1e-12)
            point = pairwise_difference_pearson(f, "m", "human", level=level, n_resamples=0)["pdp"].iloc[0]
            assert pdp_replicates(gh, gm, np.ones((1, lay.n_docs)), level)[0] == pytest.approx(point, abs=1e-12)

    def test_interval_seeded_and_the_row_order_changes_nothing(self):
        f = self._frame()
        out = pairwise_difference_pearson(f, "m", "human", level=["input", "system"], n_resamples=300, seed=4)
        assert (out["n_resamples_used"] == 300).all() and (out["resampling"] == "inputs").all()
        assert (out["ci_low"] < out["pdp"]).all() and (out["pdp"] < out["ci_high"]).all()
        for k in (0, 1, 2):
            pd.testing.assert_frame_equal(pairwise_difference_pearson(
                f.sample(frac=1.0, random_state=k), "m", "human", level=["input", "system"], n_resamples=300, seed=4),
                out)
        other = pairwise_difference_pearson(f, "m", "human", level=["input", "system"], n_resamples=300, seed=5)
        assert not np.allclose(other["ci_low"], out["ci_low"])
        pd.testing.assert_series_equal(other["pdp"], out["pdp"])  # the point value does not depend on the draws
        none = pairwise_difference_pearson(f, "m", "human", n_resamples=0)
        assert none["ci_low"].isna().all() and (none["n_resamples_used"] == 0).all()

    def test_all_ties_undefined_in_every_resample_and_bad_coverage(self):
        f = self._frame().assign(flat=1.0)
        out = pairwise_difference_pearson(f, "flat", "human", level=["input", "system"], n_resamples=100)
        assert out["pdp"].isna().all() and out["ci_low"].isna().all() and (out["n_resamples_used"] == 0).all()
        with pytest.raises(InputError, match="ci must be a coverage"):
            pairwise_difference_pearson(f, "m", "human", ci=1.5)


def _close_fixture() -> pd.DataFrame:
    # human means A 0, B 1, C 3, D 6 (|diffs| 1 3 6 2 5 3: bins closest (A,B), (B,C); middle (A,C), (C,D);
    # farthest (A,D), (B,D)); the measure orders every pair as the humans but (A, B).
    # d3: A's measure is missing; its human 100 must be left out of A's means on both sides.
    rows = []
    for d in ("d1", "d2"):
        rows += [(d, "A", 0.0, 1.0), (d, "B", 1.0, 0.0), (d, "C", 3.0, 3.0), (d, "D", 6.0, 6.0)]
    rows += [("d3", "A", 100.0, np.nan), ("d3", "B", 1.0, 0.0), ("d3", "C", 3.0, 3.0), ("d3", "D", 6.0, 6.0)]
    return pd.DataFrame(rows, columns=["doc_id", "system", "human", "m"])


class TestClosePairs:
    def test_by_hand_with_nan_and_shuffled_rows(self):
        f = _close_fixture()
        base = close_pairs(f, "m", "human", n_resamples=0)
        assert list(base["bin_label"]) == ["closest", "middle", "farthest"]
        assert list(base["agreement"]) == [0.5, 1.0, 1.0] and list(base["n_pairs"]) == [2, 2, 2]
        assert list(base["delta_low"]) == [1.0, 3.0, 5.0] and list(base["delta_high"]) == [2.0, 3.0, 6.0]
        with_ci = close_pairs(f, "m", ["human"], n_resamples=200, seed=3)
        for k in (1, 2, 5):
            shuffled = close_pairs(f.sample(frac=1.0, random_state=k), "m", ["human"], n_resamples=200, seed=3)
            pd.testing.assert_frame_equal(shuffled, with_ci)
        assert (with_ci["ci_low"] <= with_ci["agreement"]).all() and (with_ci["agreement"] <= with_ci["ci_high"]).all()

    def test_first_appearance_order_would_move_the_intervals(self):
        """Why close_pairs sorts the rows: the pairwise helper draws inputs in order of first appearance."""
        rng = np.random.default_rng(0)
        f = pd.DataFrame({"doc_id": np.repeat(np.arange(20), 5), "system": np.tile(list("abcde"), 20)})
        f["human"] = rng.normal(size=len(f)) + np.tile(np.arange(5) * 0.2, 20)
        f["m"] = f["human"] + rng.normal(size=len(f))
        g = f.sample(frac=1.0, random_state=4)
        raw = [stats.pairwise.close_pair_agreement(x, "m", "human", n_resamples=100)[["ci_low", "ci_high"]]
               for x in (f, g)]
        assert not raw[0].equals(raw[1])
        pd.testing.assert_frame_equal(close_pairs(f, "m", "human", n_resamples=100),
                                      close_pairs(g, "m", "human", n_resamples=100))


def _rank_fixture() -> pd.DataFrame:
    scores = {"A": [5, 5, 5, 5, 5, 5], "B": [5, 5, 5, 5, 5, 5],          # always tied: rank 1.5
              "E": [3, 2, 4, 2, 4, 3], "F": [2, 4, 3, 3, 2, 3],          # 3.0 vs 2.83: not told apart
              "C": [1, 1, 1, 1, 1, np.nan], "D": [0, 0, 0, 0, 0, 0],      # always 5th and 6th
              "G": [np.nan] * 6}                                          # no value: not ranked
    return pd.DataFrame([(f"d{i}", s, float(v[i])) for s, v in scores.items() for i in range(6)],
                        columns=["doc_id", "system", "x"])


class TestRankIntervals:
    def test_by_hand_ties_nan_and_shuffled_rows(self):
        f = _rank_fixture()
        out = rank_intervals(f, "x", n_resamples=500, seed=2)
        r = out.set_index("system")
        assert list(out["system"]) == ["A", "B", "E", "F", "C", "D", "G"]
        assert r.loc["A", "rank"] == r.loc["B", "rank"] == 1.5
        assert (r.loc[["A", "B"], ["rank_low", "rank_high"]] == 1.5).all().all()
        assert r.loc["A", "tied_with"] == "B" and r.loc["B", "tied_with"] == "A"
        assert (r.loc["E", "rank"], r.loc["F", "rank"]) == (3.0, 4.0)
        assert r.loc["E", "rank_low"] == 3.0 and r.loc["E", "rank_high"] == 4.0
        assert r.loc["E", "tied_with"] == "F" and r.loc["F", "tied_with"] == "E"
        assert (r.loc["C", "rank_low"], r.loc["C", "rank_high"], r.loc["C", "tied_with"]) == (5.0, 5.0, "")
        assert (r.loc["D", "rank_low"], r.loc["D", "rank_high"]) == (6.0, 6.0)
        assert r.loc["C", "n_inputs"] == 5 and r.loc["C", "mean"] == 1.0
        assert math.isnan(r.loc["G", "rank"]) and r.loc["G", "n_resamples_used"] == 0
        for k in (0, 1, 2):
            pd.testing.assert_frame_equal(rank_intervals(f.sample(frac=1.0, random_state=k), "x", n_resamples=500,
                                                         seed=2), out)

    def test_bad_input(self):
        f = _rank_fixture()
        with pytest.raises(InputError):
            rank_intervals(f, "nope")
        with pytest.raises(InputError, match="n_resamples >= 1"):
            rank_intervals(f, "x", n_resamples=0)


def test_meta_eval_close_pairs_outputs(tmp_path):
    """--close-pairs writes close_pairs.csv, pdp.csv and rank_intervals.csv, equal to the stats functions on
    the same data; without it none is written (the default outputs do not change)."""
    from sumeval import cli
    from sumeval.datasets.judgments import load_judgments

    cols = ["dialsummeval.rouge-1", "dialsummeval.bertscore_f1"]
    base = ["meta-eval", "dialsummeval", "--human", "relevance", "--measures", *cols, "--level", "system",
            "--n-resamples", "50", "--no-spa", "--no-figures", "--no-sentinels", "--no-annotators", "-q"]
    assert cli.main([*base, "--close-pairs", "--out", str(tmp_path / "cp")]) == 0
    assert cli.main([*base, "--out", str(tmp_path / "plain")]) == 0
    for name in ("close_pairs.csv", "pdp.csv", "rank_intervals.csv"):
        assert (tmp_path / "cp" / name).exists() and not (tmp_path / "plain" / name).exists()
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "cp" / "correlations.csv"),
                                  pd.read_csv(tmp_path / "plain" / "correlations.csv"))
    frame = load_judgments("dialsummeval", human=["relevance"]).frame
    pdp = pd.read_csv(tmp_path / "cp" / "pdp.csv").set_index(["measure", "level"])["pdp"]
    want = pairwise_difference_pearson(frame, cols, "relevance", level=["input", "system"]).set_index(
        ["metric", "level"])["pdp"]
    for key, v in want.items():
        assert pdp[key] == pytest.approx(v, abs=1e-12)
    ranks = pd.read_csv(tmp_path / "cp" / "rank_intervals.csv", keep_default_na=False)
    assert set(ranks["column"]) == {"relevance", *cols} and len(ranks) == 3 * 14
    cp = pd.read_csv(tmp_path / "cp" / "close_pairs.csv")
    direct = close_pairs(frame, cols, "relevance", n_resamples=50, seed=0)
    for c in ("agreement", "ci_low", "ci_high"):
        np.testing.assert_allclose(cp[c], direct[c], atol=1e-12)
