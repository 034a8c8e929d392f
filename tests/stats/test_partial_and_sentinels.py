"""The partial level (sumeval.stats.partial: FRANK's partial correlation, the system or a numeric
column such as the summary length as the control) and the length sentinel of meta-eval.

Grouped by problem: the formula by hand on a tiny fixture (ties, a NaN, shuffled rows) and against
numpy least squares on a one-hot / linear design; the resampling (a bootstrap replicate equals the
formula on its expanded resample; the permutation and Williams tests); bad input; FRANK pinned to
the authors' evaluate.py; meta-eval end to end; the length block.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval import stats
from sumeval.errors import InputError
from sumeval.stats.partial import Control, residualise

from helpers import TEST_DATA  # tests/ is on the path


def _tiny(order=None) -> pd.DataFrame:
    # system A: x 1 2 3 (mean 2: residuals -1 0 1), y 2 2 5 (mean 3: -1 -1 2)
    # system B: x 4 6 NaN, y 1 3 9 -> the NaN row is left out: x 4 6 (-1 1), y 1 3 (-1 1)
    f = pd.DataFrame({"doc_id": ["d1", "d2", "d3"] * 2, "system": ["A"] * 3 + ["B"] * 3,
                      "x": [1.0, 2.0, 3.0, 4.0, 6.0, np.nan], "y": [2.0, 2.0, 5.0, 1.0, 3.0, 9.0],
                      "length": [10.0, 12.0, 14.0, 20.0, 10.0, 30.0]})
    return f if order is None else f.iloc[order].reset_index(drop=True)


def _lstsq_residuals(v: np.ndarray, design: np.ndarray) -> np.ndarray:
    """An independent procedure: numpy's least squares on the design (with its intercept)."""
    coef, *_ = np.linalg.lstsq(design, v, rcond=None)
    return v - design @ coef


class TestFormula:
    # residuals e_x = -1 0 1 -1 1, e_y = -1 -1 2 -1 1 (five rows used)
    # Pearson: sum e_x e_y = 5, sum e_x^2 = 4, sum e_y^2 = 8 -> 5 / sqrt(32)
    # Spearman (ranks of residuals): r_x = 1.5 3 4.5 1.5 4.5, r_y = 2 2 5 2 4 -> 7.5 / sqrt(9 * 8)
    # Kendall: 6 concordant, 0 discordant of 10 pairs; ties in x 2 pairs, in y 3 -> 6 / sqrt(8 * 7)
    HAND = {"pearson": 5 / math.sqrt(32), "spearman": 7.5 / math.sqrt(72), "kendall_b": 6 / math.sqrt(56)}

    @pytest.mark.parametrize("order", [None, [5, 3, 0, 4, 2, 1], [1, 4, 5, 0, 3, 2]])
    def test_by_hand_with_ties_nan_and_shuffled_rows(self, order):
        out = stats.correlate(_tiny(order), "x", "y", level="partial", methods=list(self.HAND), n_resamples=0)
        for m, want in self.HAND.items():
            row = out[out["method"] == m].iloc[0]
            assert row["value"] == pytest.approx(want, abs=1e-14), m
            assert (row["n"], row["n_skipped"]) == (5, 1)
        assert out.attrs["partial_control"] == "system"

    def test_equals_numpy_least_squares_one_hot_and_length(self):
        rng = np.random.default_rng(3)
        docs, systems = 40, 5
        f = pd.DataFrame({"doc_id": np.repeat(np.arange(docs), systems),
                          "system": np.tile(list("abcde"), docs)})
        n = len(f)
        f["length"] = rng.integers(5, 40, n).astype(float)
        f["x"] = np.round(rng.normal(size=n) + 0.05 * f["length"], 1)  # rounded: ties
        f["y"] = np.round(rng.normal(size=n) + 0.3 * f["x"] + f["system"].map(dict(zip("abcde", range(5)))), 1)
        f.loc[[3, 17, 60], "x"] = np.nan
        f.loc[[8], "length"] = np.nan
        for control in ("system", "length"):
            keep = f["x"].notna() & f["y"].notna() & (f["length"].notna() if control == "length" else True)
            sub = f[keep]
            if control == "system":
                design = np.column_stack([np.ones(len(sub)), pd.get_dummies(sub["system"]).to_numpy(float)])
            else:
                design = np.column_stack([np.ones(len(sub)), sub["length"].to_numpy()])
            ex = _lstsq_residuals(sub["x"].to_numpy(), design)
            ey = _lstsq_residuals(sub["y"].to_numpy(), design)
            out = stats.correlate(f, "x", "y", level="partial", methods=["pearson", "kendall_b"], n_resamples=0,
                                  partial_control=control)
            assert out["value"].iloc[0] == pytest.approx(ss.pearsonr(ex, ey).statistic, abs=1e-12)
            assert out["n"].iloc[0] == keep.sum()
            # Kendall on the residuals: lstsq's rounding may split exact ties, so compare with rounded residuals
            want = ss.kendalltau(np.round(ex, 9), np.round(ey, 9)).statistic
            assert out["value"].iloc[1] == pytest.approx(want, abs=1e-12)

    def test_residualise_weights_equal_repeated_rows(self):
        v = np.array([[1.0, 2.0, 4.0, 8.0, 3.0]])
        w = np.array([[2.0, 0.0, 1.0, 3.0, 1.0]])
        for control in (Control("system", codes=np.array([0, 0, 1, 1, 1]), n_groups=2),
                        Control("length", values=np.array([1.0, 2.0, 2.0, 5.0, 7.0]))):
            got = residualise(v, control, w)[0]
            reps = w[0].astype(int)
            expanded = np.repeat(v[0], reps)
            if control.values is None:
                design = np.column_stack([np.ones(reps.sum()), np.repeat(np.eye(2)[control.codes], reps, axis=0)])
            else:
                design = np.column_stack([np.ones(reps.sum()), np.repeat(control.values, reps)])
            want = _lstsq_residuals(expanded, design)
            np.testing.assert_allclose(np.repeat(got, reps), want, atol=1e-12)
            assert got[1] == 0.0  # a point not drawn

    def test_undefined_when_the_control_explains_a_side(self):
        f = _tiny()
        f["x"] = f["system"].map({"A": 0.1, "B": 0.7})  # constant within each system: no residual
        out = stats.correlate(f, "x", "y", level="partial", methods=["pearson", "spearman"], n_resamples=50)
        assert out["value"].isna().all() and out["ci_low"].isna().all()
        reason = stats.undefined.undefined_reason(f, "x", "y", "partial")
        assert "explained by the control 'system'" in reason
        f["x"] = 3.0 + 0.25 * f["length"]  # a straight line of length
        out = stats.correlate(f, "x", "y", level="partial", methods=["pearson"], n_resamples=0,
                              partial_control="length")
        assert math.isnan(out["value"].iloc[0])
        # the other levels still see a correlation there
        assert np.isfinite(stats.correlate(f, "x", "y", level="global", methods=["pearson"],
                                           n_resamples=0)["value"].iloc[0])


class TestResampling:
    def _frame(self):
        rng = np.random.default_rng(0)
        f = pd.DataFrame({"doc_id": np.repeat(np.arange(12), 4), "system": np.tile(list("pqrs"), 12)})
        n = len(f)
        f["length"] = rng.integers(5, 30, n).astype(float)
        f["h"] = np.round(rng.normal(size=n), 1)
        f["a"] = np.round(f["h"] + rng.normal(size=n), 1)
        f["b"] = np.round(0.2 * f["h"] + rng.normal(size=n), 1)
        f.loc[[5, 30], "a"] = np.nan
        return f

    @pytest.mark.parametrize("resample", ["inputs", "systems", "both"])
    @pytest.mark.parametrize("control", ["system", "length"])
    def test_bootstrap_replicate_is_the_formula_on_its_expanded_resample(self, resample, control):
        f = self._frame()
        idx = stats.resample_indices(4, 12, resample, 7, seed=1)
        methods = ["pearson", "spearman", "kendall_b", "kendall_c"]
        out = stats.correlate(f, "a", "h", level="partial", methods=methods, indices=idx, resample=resample,
                              partial_control=control, ci=0.5)
        from sumeval.stats.layout import frame_layout
        from sumeval.stats.levels import Draws, estimate_pair
        from sumeval.stats.partial import frame_control

        lay = frame_layout(f, "doc_id", "system", True)
        draws = Draws.of(idx)
        est = estimate_pair(lay, f["a"].to_numpy(), f["h"].to_numpy(), "partial", methods, draws,
                            frame_control(f, control))
        di = draws.inputs if draws.inputs is not None else np.ones((7, 12))
        dsys = draws.systems if draws.systems is not None else np.ones((7, 4))
        for b in range(7):
            reps = (di[b][lay.doc] * dsys[b][lay.sys]).astype(int)
            big = f.loc[f.index.repeat(reps)].reset_index(drop=True)
            big["doc_id"] = np.arange(len(big))  # expanded copies are distinct rows
            want = stats.correlate(big, "a", "h", level="partial", methods=methods, n_resamples=0,
                                   partial_control=control)
            for m in methods:
                w = want.loc[want["method"] == m, "value"].iloc[0]
                assert est[m].boot[b] == pytest.approx(w, abs=1e-9, nan_ok=True), (m, b)
        lo, hi = out["ci_low"].to_numpy(), out["ci_high"].to_numpy()
        assert (lo <= hi).all() and out["n_resamples_used"].gt(0).all()

    @pytest.mark.parametrize("test", ["permutation", "bootstrap", "williams"])
    def test_the_tests_at_the_partial_level(self, test):
        f = self._frame()
        out = stats.compare_measures(f, ["a", "b"], "h", level="partial", method="pearson", test=test,
                                     n_resamples=200, seed=0)
        row = out.iloc[0]
        want = stats.correlate(f[f["b"].notna() & f["a"].notna()], ["a", "b"], "h", level="partial",
                               methods=["pearson"], n_resamples=0)["value"].to_numpy()
        assert (row["corr_a"], row["corr_b"]) == pytest.approx(tuple(want), abs=1e-12)
        assert row["corr_a"] > row["corr_b"] and row["p_value"] < 0.05  # a follows h, b barely
        same = stats.permutation_test(f.assign(c=f["a"]), "a", "c", "h", level="partial", method="spearman",
                                      n_resamples=50)
        assert same["p_value"] == 1.0 and same["diff"] == 0.0  # identical measures: every swap is as extreme

    def test_permutation_swaps_then_regresses(self):
        # a permutation that swaps every cell exchanges the two measures: d* = -d exactly
        f = self._frame().dropna()
        from sumeval.stats.layout import frame_layout

        lay = frame_layout(f, "doc_id", "system", True)
        masks = np.ones((1, lay.n_docs, lay.n_sys), dtype=bool)
        r = stats.permutation_test(f, "a", "b", "h", level="partial", method="pearson", masks=masks,
                                   return_samples=True, partial_control="length")
        assert r["samples"][0] == pytest.approx(-r["diff"], abs=1e-12)


class TestBadInput:
    def test_clear_errors(self):
        f = _tiny()
        with pytest.raises(InputError, match="partial_control 'words' is neither 'system' nor a column"):
            stats.correlate(f, "x", "y", level="partial", n_resamples=0, partial_control="words")
        with pytest.raises(InputError, match="column 'length'.*infinite"):
            stats.correlate(f.assign(length=[np.inf, 1, 2, 3, 4, 5]), "x", "y", level="partial",
                            n_resamples=0, partial_control="length")
        with pytest.raises(InputError, match="unknown correlation level 'partiall'"):
            stats.correlate(f, "x", "y", level="partiall", n_resamples=0)


# ------------------------------------------------------------------------------------------------
# FRANK pinned to the authors' evaluate.py
# ------------------------------------------------------------------------------------------------
# Computed by the authors' unmodified evaluation/evaluate.py (artidoro/frank commit
# 80a88fb12cc0bfc17ff6ee2c5ebb0c4f4dd8a5f4), outside this repository, on
# /work/shared/data/frank/{human_annotations,baseline_factuality_metrics_outputs}.json with
# scipy 1.17.1, scikit-learn 1.9.1, pandas 3.1.1:
#   python evaluate.py --mode hm-correlation --split all [--dataset cnndm|bbc] \
#       --human_eval_path .../human_annotations.json \
#       --baseline_metrics_outputs .../baseline_factuality_metrics_outputs.json \
#       --baseline_metrics <the 15 names> --store_path out_<subset>
# (its out_df.json keeps 10 digits; the full floats below are the same call of its
# human_metric_correlation(data_df, 'Factuality', metrics, True, 'model_name') on main()'s merged
# frame, printed with repr; the two agree within 5e-11). (pearson, spearman) per measure.
FRANK_PARTIAL = {
    'all': {
        'Bleu': (0.10142522540168937, 0.0669626778834548),
        'Meteor': (0.1370015920541427, 0.10526660180824726),
        'Rouge 1': (0.13668084521629345, 0.10204407947985289),
        'Rouge 2': (0.11900618468102367, 0.07512238091729503),
        'Rouge L': (0.13092604989504789, 0.08878704779745988),
        'BertScore P': (0.15793597532295564, 0.11444319508985042),
        'BertScore R': (0.13061600443285853, 0.11088835205248726),
        'BertScore F1': (0.15766415138968704, 0.12734067130493268),
        'BertScore P Art': (0.271080689207475, 0.24324424941241),
        'BertScore R Art': (0.1432025774569362, 0.1284666891316789),
        'BertScore F1 Art': (0.2404331223950466, 0.21397561859051323),
        'FEQA': (0.004532893855200311, 0.011131891598836369),
        'QAGS': (0.06496514036044183, 0.08140606935098282),
        'Dep Entail': (0.1623942214447832, 0.14293943370011158),
        'FactCC': (0.20392293737945794, 0.30410823763383055),
    },
    'cnndm': {
        'Bleu': (0.07844418577337306, 0.07539237576564037),
        'Meteor': (0.12254452279162996, 0.10268015930905289),
        'Rouge 1': (0.11953305307104835, 0.10289416308926942),
        'Rouge 2': (0.08274167451632379, 0.06894183357949395),
        'Rouge L': (0.10856094976721159, 0.09241187356067458),
        'BertScore P': (0.13834501698045468, 0.12521892971278242),
        'BertScore R': (0.1505175616520145, 0.12689685680987925),
        'BertScore F1': (0.15884024944944475, 0.1428928188480796),
        'BertScore P Art': (0.3455075629286689, 0.28954275769888516),
        'BertScore R Art': (0.21471732415887648, 0.17287687483089018),
        'BertScore F1 Art': (0.32054012930433556, 0.26213762569460464),
        'FEQA': (-0.008819440878766792, -0.010203367930157503),
        'QAGS': (0.1310224818786838, 0.09043184365259506),
        'Dep Entail': (0.24544936960830505, 0.24136159889425562),
        'FactCC': (0.3627791197903649, 0.33286761006262144),
    },
    'bbc': {
        'Bleu': (0.13889734653057365, 0.20317076996522063),
        'Meteor': (0.15491187120788458, 0.10403895924622963),
        'Rouge 1': (0.15493012863830466, 0.0869380557067778),
        'Rouge 2': (0.16797690335350252, 0.1362006286387856),
        'Rouge L': (0.15575979424804007, 0.09941795101743),
        'BertScore P': (0.17902421890184592, 0.09819740877499689),
        'BertScore R': (0.10988359621984474, 0.06436900347445802),
        'BertScore F1': (0.15663460633979467, 0.08812249838445567),
        'BertScore P Art': (0.18027631110906117, 0.09025692434584519),
        'BertScore R Art': (0.06800255411273405, 0.0277641846857993),
        'BertScore F1 Art': (0.14593428977427508, 0.06224238457319164),
        'FEQA': (0.024202056538163853, 0.06640906551454137),
        'QAGS': (-0.022530521084981284, 0.014566168422885821),
        'Dep Entail': (0.04442684026707441, 0.2810483159441505),
        'FactCC': (0.07271331058241715, 0.24926998081518079),
    },
}
#: FRANK's Spearman where scikit-learn's least squares leaves residuals a rounding apart that are
#: ordered otherwise in exact arithmetic (sumeval: exact; checked below with fractions)
FRANK_ROUNDED = {("all", "Bleu"), ("all", "BertScore F1"), ("all", "BertScore F1 Art")}


def _exact_residual_ranks(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Mid-ranks of v - (mean of v in its group), in exact rational arithmetic."""
    fx = [Fraction(float(v)) for v in values]
    means = {}
    for g in set(groups.tolist()):
        members = [fx[i] for i in np.flatnonzero(groups == g)]
        means[g] = sum(members) / len(members)
    e = [fx[i] - means[groups[i]] for i in range(len(fx))]
    order = sorted(range(len(e)), key=e.__getitem__)
    ranks = np.empty(len(e))
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and e[order[j + 1]] == e[order[i]]:
            j += 1
        ranks[[order[k] for k in range(i, j + 1)]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


@pytest.fixture(scope="module")
def frank():
    from sumeval.datasets.loaders.frank import load_frank

    return load_frank()


def test_frank_partial_equals_the_authors_evaluate_py(frank):
    from sumeval.datasets.loaders.frank import measure_column

    for subset, want in FRANK_PARTIAL.items():
        sub = frank if subset == "all" else frank[frank["dataset"] == subset]
        out = stats.correlate(sub, [measure_column(m) for m in want], "factuality", level="partial",
                              methods=["pearson", "spearman"], n_resamples=0)
        got = out.set_index(["metric", "method"])["value"]
        for m, (pearson, spearman) in want.items():
            col = measure_column(m)
            assert got[(col, "pearson")] == pytest.approx(pearson, abs=1e-9), (subset, m)
            if (subset, m) not in FRANK_ROUNDED:
                assert got[(col, "spearman")] == pytest.approx(spearman, abs=1e-9), (subset, m)
                continue
            assert got[(col, "spearman")] == pytest.approx(spearman, abs=5e-6), (subset, m)
            rows = sub[sub[col].notna() & sub["factuality"].notna()]
            groups = pd.factorize(rows["system"])[0]
            exact = ss.pearsonr(_exact_residual_ranks(rows[col].to_numpy(), groups),
                                _exact_residual_ranks(rows["factuality"].to_numpy(), groups)).statistic
            assert got[(col, "spearman")] == pytest.approx(exact, abs=1e-12), (subset, m)
    # the figures: QAGS 0.065 partial; all 45 x 2 values compared above
    assert FRANK_PARTIAL["all"]["QAGS"][0] == pytest.approx(0.065, abs=5e-4)


# ------------------------------------------------------------------------------------------------
# meta-eval: the partial level end to end; the length sentinel
# ------------------------------------------------------------------------------------------------
def test_meta_eval_partial_on_frank(tmp_path, frank):
    from sumeval import cli

    out = tmp_path / "frank"
    rc = cli.main(["meta-eval", "frank", "--human", "factuality", "--measures", "frank.Rouge_1", "frank.QAGS",
                   "frank.FactCC", "--level", "partial", "global", "--coefficient", "pearson", "spearman",
                   "--n-resamples", "50", "--no-figures", "-q", "--out", str(out)])
    assert rc == 0
    corr = pd.read_csv(out / "correlations.csv")
    part = corr[(corr["level"] == "partial") & (corr["coefficient"] == "pearson")].set_index("measure")
    for m in ("Rouge 1", "QAGS", "FactCC"):
        assert part.loc["frank." + m.replace(" ", "_"), "value"] == pytest.approx(FRANK_PARTIAL["all"][m][0], abs=1e-9)
    assert (part["ci_low"] <= part["value"]).all() and (part["value"] <= part["ci_high"]).all()
    pairs = pd.read_csv(out / "pairwise.csv")
    assert set(pairs["level"]) == {"partial", "global"} and pairs["p_value"].notna().all()
    # FRANK has no texts: no length sentinel, and --partial-control length is refused clearly
    assert "sentinel" not in set(corr["role"])
    rc = cli.main(["meta-eval", "frank", "--human", "factuality", "--measures", "frank.QAGS", "--level", "partial",
                   "--partial-control", "length", "--n-resamples", "10", "--no-figures", "-q",
                   "--out", str(tmp_path / "len")])
    assert rc == 2


def test_length_sentinel_block_on_dialsummeval(tmp_path):
    from sumeval import cli

    out = tmp_path / "dse"
    rc = cli.main(["meta-eval", "dialsummeval", "--human", "relevance", "--measures", "rouge-1", "--level", "input",
                   "system", "partial", "--partial-control", "length", "--n-resamples", "20", "--no-spa",
                   "--no-figures", "-q", "--out", str(out)])
    assert rc == 0
    corr = pd.read_csv(out / "correlations.csv")
    sent = corr[corr["role"] == "sentinel"].set_index("level")
    from sumeval.meta_eval.sentinels import ORDER

    assert list(sent["measure"].unique()) == list(ORDER)  # DialSummEval has summaries and sources: every sentinel
    sent = sent[sent["measure"] == "length (sentinel)"]
    # the sentinel is the summary's words: equal to the registered `length` measure's correlation
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.audit import summary_length

    j = load_judgments("dialsummeval", human=["relevance"])
    f = j.frame.assign(words=summary_length(j.frame["summary"].tolist()))
    want = stats.correlate(f, "words", "relevance", level=["input", "system"], methods=["kendall_b"],
                           n_resamples=0).set_index("level")["value"]
    assert sent.loc["input", "value"] == pytest.approx(want["input"], abs=1e-12)
    assert sent.loc["system", "value"] == pytest.approx(want["system"], abs=1e-12)
    assert math.isnan(sent.loc["partial", "value"])  # length regressed out of length
    ranking = pd.read_csv(out / "ranking.csv")
    s_rows = ranking[ranking["role"] == "sentinel"]
    assert len(s_rows) == 3 * len(ORDER) and s_rows["rank"].isna().all() and s_rows["cluster"].isna().all()
    assert not pd.read_csv(out / "pairwise.csv")[["measure_a", "measure_b"]].isin(ORDER).any().any()
    table = (out / "table_kendall_b.md").read_text()
    assert "Sentinel (not ranked)" in table and "**" not in table.split("Sentinel (not ranked)")[1].split("\n")[0]
    out2 = tmp_path / "dse2"
    assert cli.main(["meta-eval", "dialsummeval", "--human", "relevance", "--measures", "rouge-1", "--level", "input",
                     "--n-resamples", "10", "--no-spa", "--no-figures", "-q", "--no-sentinels",
                     "--out", str(out2)]) == 0
    assert "sentinel" not in set(pd.read_csv(out2 / "correlations.csv")["role"])


def test_across_sets_sentinel_unranked_and_the_partial_options_reach_each_set(tmp_path, monkeypatch):
    # across data sets: the length sentinel is in each set's own results (role sentinel, unranked) but
    # never a cell of the across ranking or its mean ranks; --no-sentinels and --partial-control reach
    # every set (they were parsed and then dropped before); a set without summary texts does not run
    # the partial task under --partial-control length (a reason, not an error), the other sets do

    from sumeval import cli
    from sumeval.datasets.judgments import add_dataset
    from sumeval.meta_eval import across

    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(tmp_path / "registry.json"))
    raw = pd.read_csv(TEST_DATA / "user_judgments.csv")
    raw.to_csv(tmp_path / "news.csv", index=False)
    raw.drop(columns=["output"]).assign(article_id=lambda f: "n" + f["article_id"]).to_csv(tmp_path / "bare.csv",
                                                                                         index=False)
    cols = dict(doc_col="article_id", system_col="model", text_col="source", references_col="gold")
    add_dataset("news", tmp_path / "news.csv", human=["overall"], summary_col="output", **cols)
    add_dataset("bare", tmp_path / "bare.csv", human=["overall"], **cols)

    r = across.meta_evaluate_across(["news", "bare"], ["my_metric"], across.AcrossSettings(n_resamples=20))
    corr = r.sets["news"].result.correlations
    from sumeval.meta_eval.sentinels import ORDER

    assert set(corr.loc[corr["role"] == "sentinel", "measure"]) == set(ORDER)
    ranking = r.sets["news"].result.ranking
    assert ranking.loc[ranking["measure"].isin(ORDER), "cluster"].isna().all()
    assert not set(ORDER) & (set(r.cells["measure"]) | set(r.summary["measure"]) | set(r.measures))

    def run(out, *extra):
        return cli.main(["meta-eval", "--dataset", "news", "bare", "--human", "news:overall", "bare:overall",
                         "--measures", "my_metric", "--n-resamples", "20", "--no-figures", "-q", "--out",
                         str(tmp_path / out), *extra])

    assert run("plain") == 0 and "sentinel" in set(pd.read_csv(tmp_path / "plain/news/correlations.csv")["role"])
    assert run("none", "--no-sentinels") == 0
    assert "sentinel" not in set(pd.read_csv(tmp_path / "none/news/correlations.csv")["role"])
    assert run("len", "--level", "global", "partial", "--partial-control", "length") == 0
    tasks = pd.read_csv(tmp_path / "len/tasks.csv").set_index(["dataset", "level"])
    assert tasks.loc[("news", "partial"), "status"] == "run" and tasks.loc[("bare", "global"), "status"] == "run"
    assert tasks.loc[("bare", "partial"), "status"] == "not run"
    assert "--partial-control length needs the summaries' texts" in tasks.loc[("bare", "partial"), "reason"]
    news = pd.read_csv(tmp_path / "len/news/correlations.csv")
    sent = news[(news["role"] == "sentinel") & (news["level"] == "partial")].set_index("measure")["value"]
    assert math.isnan(sent["length (sentinel)"])  # length regressed out of length: the control was length
    assert math.isnan(sent["constant (sentinel)"])
    assert sent.drop(["length (sentinel)", "constant (sentinel)"]).notna().all()
    got = news[(news["measure"] == "my_metric") & (news["level"] == "partial")]["value"].iloc[0]
    from sumeval.datasets.judgments import load_judgments
    from sumeval.judges.audit import summary_length

    j = load_judgments("news")
    f = j.frame.assign(words=summary_length(j.frame["summary"].tolist()))
    want = stats.correlate(f, "my_metric", "overall", level=["partial"], methods=["kendall_b"], n_resamples=0,
                           partial_control="words")["value"].iloc[0]
    assert got == pytest.approx(want, abs=1e-12)
