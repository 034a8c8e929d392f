"""The judge audit (sumeval.judges.audit, ``sumeval judge-audit``) and its statistics: Cohen's kappa
(against scikit-learn), ECE and Brier (by hand), close-pair bins and agreement (by hand; ties, NaN,
shuffled rows), the assembly on a hand-made frame, the command, and the measurements on SummEval's six
cached LLM judges."""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from sumeval import cli
from sumeval.errors import InputError
from sumeval.judges.audit import HELD_OUT, LENGTH, judge_audit, summary_length
from sumeval.stats.agreement import cohen_kappa
from sumeval.stats.binary import brier_score, expected_calibration_error
from sumeval.stats.pairwise import close_pair_agreement, close_pair_bins, pair_agreement_rows, pairwise_accuracy

from helpers import needs_data


# ------------------------------------------------------------------------------------------------
# Cohen's kappa
# ------------------------------------------------------------------------------------------------
class TestKappa:
    def test_by_hand(self):
        # a = 1 1 2 2, b = 1 2 2 2: p_o = 3/4; marginals a (1/2, 1/2), b (1/4, 3/4): p_e = 1/8 + 3/8 = 1/2
        # kappa = (3/4 - 1/2) / (1 - 1/2) = 1/2. Two categories: quadratic weights = unweighted ones.
        assert cohen_kappa([1, 1, 2, 2], [1, 2, 2, 2]) == pytest.approx(0.5, abs=1e-15)
        assert cohen_kappa([1, 1, 2, 2], [1, 2, 2, 2], weights="quadratic") == pytest.approx(0.5, abs=1e-15)
        # three categories, one disagreement two steps apart: a = 1 2 3, b = 3 2 3; positions 0 1 2
        # O = 1/3 at (0,2), (1,1), (2,2); rows 1/3 each, columns (0, 1/3, 2/3); w = (i - j)^2
        # sum w O = 4/3; sum w E = 1/3 * sum_i [(i-1)^2 / 3 + (i-2)^2 * 2/3] = 1/3 * (3 + 2/3 + 1/3) = 4/3
        # kappa_q = 1 - (4/3) / (4/3) = 0
        assert cohen_kappa([1, 2, 3], [3, 2, 3], weights="quadratic") == pytest.approx(0.0, abs=1e-15)

    @pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
    def test_equals_scikit_learn(self, weights):
        from sklearn.metrics import cohen_kappa_score

        rng = np.random.default_rng(7)
        for n, k in ((200, 5), (37, 3), (12, 5)):
            a = rng.integers(1, k + 1, n).astype(float)
            b = np.clip(a + rng.integers(-2, 3, n), 1, k).astype(float)
            assert cohen_kappa(a, b, weights=weights) == pytest.approx(
                cohen_kappa_score(a, b, weights=weights), abs=1e-12)
            labels = list(range(1, k + 3))  # categories nobody used change the weighted kappa's positions
            assert cohen_kappa(a, b, weights=weights, labels=labels) == pytest.approx(
                cohen_kappa_score(a, b, weights=weights, labels=labels), abs=1e-12)

    def test_nan_pairs_are_left_out_and_order_does_not_matter(self):
        from sklearn.metrics import cohen_kappa_score

        a = np.array([1, 2, 3, np.nan, 4, 5, 5, 2.0])
        b = np.array([1, 3, 3, 2, np.nan, 5, 4, 2.0])
        keep = ~(np.isnan(a) | np.isnan(b))
        want = cohen_kappa_score(a[keep], b[keep], weights="quadratic")
        assert cohen_kappa(a, b, weights="quadratic") == pytest.approx(want, abs=1e-12)
        perm = np.random.default_rng(0).permutation(a.size)
        assert cohen_kappa(a[perm], b[perm], weights="quadratic") == pytest.approx(want, abs=1e-12)

    def test_undefined_and_bad_input(self):
        assert math.isnan(cohen_kappa([3, 3, 3], [3, 3, 3]))  # chance agreement is perfect: 0 / 0
        assert math.isnan(cohen_kappa([np.nan], [1]))
        with pytest.raises(InputError, match="rating 7.0 is not one of the labels"):
            cohen_kappa([1, 7], [1, 2], labels=[1, 2, 3])
        with pytest.raises(InputError, match="unknown kappa weights 'cubic'"):
            cohen_kappa([1, 2], [1, 2], weights="cubic")
        with pytest.raises(InputError, match="same length"):
            cohen_kappa([1, 2], [1, 2, 3])


# ------------------------------------------------------------------------------------------------
# Calibration
# ------------------------------------------------------------------------------------------------
class TestCalibration:
    def test_by_hand(self):
        p, y = [0.3, 0.35, 0.9, 0.0], [0, 1, 1, 0]
        # Brier: (0.09 + 0.4225 + 0.01 + 0) / 4 = 0.130625
        assert brier_score(p, y) == pytest.approx(0.130625, abs=1e-15)
        # ECE, 10 bins (0, .1], ..., (.9, 1]: 0.3 -> (.2, .3], 0.35 -> (.3, .4], 0.9 -> (.8, .9], 0 -> first;
        # one item each: (|0 - .3| + |1 - .35| + |1 - .9| + |0 - 0|) / 4 = 1.05 / 4 = 0.2625
        assert expected_calibration_error(p, y, 10) == pytest.approx(0.2625, abs=1e-15)
        # two bins (0, .5], (.5, 1]: {.3, .35, 0} share .333 positive, mean p .2167 -> 3/4 * .11667;
        # {.9}: |1 - .9| * 1/4 -> total 0.0875 + 0.025 = 0.1125
        assert expected_calibration_error(p, y, 2) == pytest.approx(0.1125, abs=1e-12)
        # one bin: |mean y - mean p| = |0.5 - 0.3875| = 0.1125
        assert expected_calibration_error(p, y, 1) == pytest.approx(0.1125, abs=1e-12)
        # a right-closed edge: 0.3 sits in (0.2, 0.3], alone with the positive 0.25 -> |1/2 - 0.275| = 0.225
        assert expected_calibration_error([0.3, 0.25], [0, 1], 10) == pytest.approx(0.225, abs=1e-12)

    def test_nan_pairs_left_out_and_bad_input_named(self):
        assert brier_score([0.2, np.nan, 1.0], [0, 1, np.nan]) == pytest.approx(0.04, abs=1e-15)
        assert math.isnan(expected_calibration_error([np.nan], [1]))
        with pytest.raises(InputError, match="probability 1.2 is outside"):
            brier_score([0.5, 1.2], [0, 1])
        with pytest.raises(InputError, match="label 3.0 is not 0 or 1"):
            expected_calibration_error([0.5, 0.2], [0, 3])
        with pytest.raises(InputError, match="n_bins must be an integer >= 1"):
            expected_calibration_error([0.5], [1], 0)


# ------------------------------------------------------------------------------------------------
# Close pairs
# ------------------------------------------------------------------------------------------------
def _pair_frame(human: dict, metric: dict, docs=("d1", "d2")) -> pd.DataFrame:
    """One row per (doc, system); human[s] / metric[s] are the per-document values of system s."""
    rows = []
    for k, d in enumerate(docs):
        for s in human:
            rows.append({"doc_id": d, "system": s, "h": human[s][k], "m": metric[s][k]})
    return pd.DataFrame(rows)


class TestClosePairs:
    def test_bins_by_rank_ties_never_split(self):
        # |diffs| of 0 1 3 6 in triu order (01 02 03 12 13 23): 1 3 6 2 5 3; min ranks 0 2 5 1 4 2 -> //2
        assert close_pair_bins([0, 1, 3, 6]).tolist() == [0, 1, 2, 0, 2, 1]
        # equally spaced: |diffs| 1 2 3 1 2 1 -> three ties of 1 (ranks 0), two of 2 (rank 3), one 3 (rank 5)
        assert close_pair_bins([0, 1, 2, 3]).tolist() == [0, 1, 2, 0, 1, 0]
        # differences equal as numbers but an ulp apart are ties too: 0.3 and 0.1 + 0.2 (SummEval's expert
        # means are k/300: two coherence pairs differ by 0.3999999999999999 and 0.40000000000000036)
        assert close_pair_bins([0.0, 0.3, 0.1 + 0.2]).tolist() == [1, 1, 0]
        # a pair's bin does not depend on the order of the systems
        h = np.array([2.0, 2.5, 4.0, 1.0, 3.3])
        perm = np.array([3, 0, 4, 1, 2])
        i, j = np.triu_indices(5, 1)
        by_pair = {frozenset((a, b)): v for a, b, v in zip(i, j, close_pair_bins(h))}
        i2, j2 = perm[i], perm[j]  # system perm[k] sits at position k
        permuted = close_pair_bins(h[perm])
        assert all(by_pair[frozenset((a, b))] == v for a, b, v in zip(i2, j2, permuted))
        with pytest.raises(InputError, match="with NaN or inf"):
            close_pair_bins([1.0, np.nan])
        with pytest.raises(InputError, match="n_bins must be an integer >= 1"):
            close_pair_bins([1.0, 2.0], 0)

    def test_pair_agreement_ties(self):
        # systems A B C: human 1 2 2 (B = C tied); metric 1 3 3 (tied too) and 1 3 2 (B > C)
        assert pair_agreement_rows([[1, 2, 2]], [[1, 3, 3]]).tolist() == [[1, 1, 1]]  # tied in both agrees
        assert pair_agreement_rows([[1, 2, 2]], [[1, 3, 2]]).tolist() == [[1, 1, 0]]  # order vs human tie
        assert pair_agreement_rows([[1, 2, 3]], [[1, 1, 3]]).tolist() == [[0, 1, 1]]  # metric tie: disagrees
        nan = pair_agreement_rows([[1, np.nan, 3]], [[1, 2, 3]])[0]
        assert np.isnan(nan[[0, 2]]).all() and nan[1] == 1

    def test_by_hand_shuffled_rows_and_nan(self):
        # 4 systems, 2 documents; human means A 1, B 2, C 4, D 7 -> |diffs| AB 1 AC 3 AD 6 BC 2 BD 5 CD 3
        # bins (thirds of 6): closest {AB, BC}, middle {AC, CD}, farthest {AD, BD}
        human = {"A": (1, 1), "B": (1, 3), "C": (4, 4), "D": (6, 8)}
        # metric means A 2, B 1, C 3, D 3: AB reversed, BC ok | AC ok, CD tied (disagree) | AD ok, BD ok
        metric = {"A": (2, 2), "B": (0, 2), "C": (3, 3), "D": (3, 3)}
        frame = _pair_frame(human, metric)
        r = close_pair_agreement(frame, "m", "h", n_resamples=0)
        assert r.bin_label.tolist() == ["closest", "middle", "farthest"]
        assert r.agreement.tolist() == [0.5, 0.5, 1.0] and r.n_pairs.tolist() == [2, 2, 2]
        assert r.delta_low.tolist() == [1.0, 3.0, 5.0] and r.delta_high.tolist() == [2.0, 3.0, 6.0]
        # over all bins it is pairwise accuracy (4 of 6)
        acc = pairwise_accuracy(frame, "m", "h").accuracy.iloc[0]
        assert (r.agreement * r.n_pairs).sum() / r.n_pairs.sum() == pytest.approx(acc) == pytest.approx(4 / 6)
        shuffled = frame.sample(frac=1.0, random_state=3).reset_index(drop=True)
        s = close_pair_agreement(shuffled, "m", "h", n_resamples=200, seed=1)
        assert s.agreement.tolist() == r.agreement.tolist()
        # the same documents drawn (systems in another order of appearance) give the same interval
        s2 = close_pair_agreement(frame.sort_values(["doc_id", "system"], ascending=[True, False]), "m", "h",
                                  n_resamples=200, seed=1)
        np.testing.assert_array_equal(s[["ci_low", "ci_high"]].to_numpy(), s2[["ci_low", "ci_high"]].to_numpy())
        assert (s.ci_low <= s.agreement).all() and (s.agreement <= s.ci_high).all()
        # a NaN metric row leaves that summary out of both sides' means: B is then doc d2 alone, human 3,
        # metric 2; human means A 1, B 3, C 4, D 7 -> |diffs| AB 2 AC 3 AD 6 BC 1 BD 4 CD 3, closest
        # {BC, AB}: BC ordered alike (3 < 4, 2 < 3); AB human 1 < 3 but metric A 2 = B 2, a tie -> 1/2
        frame.loc[(frame.system == "B") & (frame.doc_id == "d1"), "m"] = np.nan
        n = close_pair_agreement(frame, "m", "h", n_resamples=0)
        assert n.agreement.iloc[0] == 0.5 and n.delta_low.iloc[0] == 1.0 and n.delta_high.iloc[0] == 2.0


# ------------------------------------------------------------------------------------------------
# The audit on a hand-made frame
# ------------------------------------------------------------------------------------------------
def _audit_frame(n_docs: int = 12, n_sys: int = 5, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            words = int(rng.integers(5, 40))
            quality = s + rng.normal(0, 1.5)
            a = [float(np.clip(round(quality / 1.2 + 1 + rng.normal(0, 0.7)), 1, 5)) for _ in range(3)]
            rows.append({"doc_id": f"d{d}", "system": f"S{s}", "summary": " ".join(["w"] * words),
                         "overall/a1": a[0], "overall/a2": a[1], "overall/a3": a[2], "overall": float(np.mean(a)),
                         "wordy.overall": float(np.clip(round(words / 9), 1, 5)),
                         "good.overall": float(np.clip(round(np.mean(a) + rng.normal(0, 0.4)), 1, 5)),
                         "soft.overall": float(1 / (1 + np.exp(-(quality - 2))))})
    return pd.DataFrame(rows)


class TestAudit:
    def test_verbosity_kappa_and_close_pairs_by_direct_computation(self):
        f = _audit_frame()
        a = judge_audit(f, "overall", ["wordy", "good"], n_resamples=100, seed=0)
        length = np.array([len(s.split()) for s in f.summary], dtype=float)
        v = a.verbosity.set_index(["judge", "versus"])
        for judge in ("wordy", "good"):
            tau_j = kendalltau(f[f"{judge}.overall"], length).statistic  # tau-b, ties handled
            for versus, col in (("humans", "overall"), ("a1", "overall/a1"), ("a3", "overall/a3")):
                row = v.loc[(judge, versus)]
                tau_h = kendalltau(f[col], length).statistic
                assert row.tau_judge == pytest.approx(tau_j, abs=1e-12)
                assert row.excess == pytest.approx(tau_j - tau_h, abs=1e-12)
                assert row.ci_low <= row.excess <= row.ci_high and row.n_resamples_used == 100
        # the length judge is length-dependent far beyond the humans, with an interval above 0
        assert v.loc[("wordy", "humans")].above and v.loc[("wordy", "humans")].excess > 0.5
        from sklearn.metrics import cohen_kappa_score

        k = a.kappa.set_index(["judge", "annotator"])
        for judge in ("wordy", "good"):
            for ann in ("a1", "a2", "a3"):
                row = k.loc[(judge, ann)]
                want = cohen_kappa_score(f[f"{judge}.overall"], f[f"overall/{ann}"], weights="quadratic")
                assert row.kappa_quadratic == pytest.approx(want, abs=1e-12) and row.n_items == len(f)
        cp = a.close_pairs
        assert set(cp.role) == {"judge", "held-out annotator", "held-out annotators", "length"}
        direct = close_pair_agreement(f, "good.overall", "overall", n_resamples=100, seed=0)
        got = cp[(cp.role == "judge") & (cp.metric == "good")]
        np.testing.assert_array_equal(got[["agreement", "ci_low", "ci_high"]].to_numpy(),
                                      direct[["agreement", "ci_low", "ci_high"]].to_numpy())
        f2 = f.assign(L=length)
        length_rows = close_pair_agreement(f2, "L", "overall", n_resamples=100, seed=0)
        np.testing.assert_array_equal(cp[cp.role == "length"].agreement.to_numpy(), length_rows.agreement.to_numpy())
        # held-out annotator a2: its system means against the mean of a1 and a3, on its target's bins
        f3 = f.assign(T=(f["overall/a1"] + f["overall/a3"]) / 2)
        ho = close_pair_agreement(f3, "overall/a2", "T", n_resamples=0)
        np.testing.assert_array_equal(cp[cp.metric == "overall/a2"].agreement.to_numpy(), ho.agreement.to_numpy())
        mean = cp[cp.metric == HELD_OUT].agreement.to_numpy()
        per = np.array([cp[cp.metric == f"overall/a{k}"].agreement.to_numpy() for k in (1, 2, 3)])
        np.testing.assert_allclose(mean, per.mean(axis=0), rtol=0, atol=1e-15)
        assert LENGTH in set(cp.metric)

    def test_shuffled_rows_give_the_same_audit(self):
        f = _audit_frame(seed=3)
        a = judge_audit(f, "overall", ["good"], n_resamples=50, seed=2)
        b = judge_audit(f.sample(frac=1.0, random_state=5).reset_index(drop=True), "overall", ["good"],
                        n_resamples=50, seed=2)
        for name in ("verbosity", "close_pairs", "kappa"):
            x, y = getattr(a, name), getattr(b, name)
            num = x.select_dtypes("number").columns
            # the point estimates are exact; the intervals draw documents by order of first appearance,
            # so a shuffle draws other documents: compare the values, not the intervals
            cols = [c for c in num if c not in ("ci_low", "ci_high", "p_value")]
            np.testing.assert_allclose(x[cols].to_numpy(float), y[cols].to_numpy(float), rtol=0, atol=1e-12)

    def test_calibration_kappa_applicability_and_nan(self):
        f = _audit_frame(seed=1)
        f.loc[3, "soft.overall"] = np.nan
        a = judge_audit(f, "overall", ["soft", "good"], n_resamples=0, label_threshold=3.0)
        c = a.calibration
        assert c.judge.tolist() == ["soft"] and c.label.iloc[0] == "overall >= 3"
        lab = (f.overall >= 3).astype(float).to_numpy()
        p = f["soft.overall"].to_numpy()
        ok = ~np.isnan(p)
        assert c.brier.iloc[0] == pytest.approx(np.mean((p[ok] - lab[ok]) ** 2), abs=1e-15)
        assert c.ece.iloc[0] == pytest.approx(expected_calibration_error(p, lab, 10), abs=1e-15)
        assert c.n_items.iloc[0] == len(f) - 1
        # a probability judge has no kappa (not integer categories), and the notes say so
        soft = a.kappa[a.kappa.judge == "soft"]
        assert soft.kappa.isna().all() and any("'soft'" in n and "no kappa" in n for n in a.notes)
        assert a.kappa[a.kappa.judge == "good"].kappa.notna().all()
        # without a threshold, a non-binary human column gives no calibration, and says why
        b = judge_audit(f, "overall", ["soft"], n_resamples=0)
        assert b.calibration.empty and any("--label-threshold" in n for n in b.notes)
        # the intervals are NaN without resamples, the values are not
        assert b.verbosity.ci_low.isna().all() and b.verbosity.excess.notna().all()

    def test_bad_input_is_named(self):
        f = _audit_frame()
        with pytest.raises(InputError, match="no summary column 'summary'.*--summary-col"):
            judge_audit(f.drop(columns="summary"), "overall", ["good"], n_resamples=0)
        with pytest.raises(InputError, match="judge 'nobody'"):
            judge_audit(f, "overall", ["nobody"], n_resamples=0)
        with pytest.raises(InputError, match="human column 'style' is not in"):
            judge_audit(f, "style", ["good"], n_resamples=0)
        g = f.astype({"summary": object})
        g.loc[4, "summary"] = 17
        with pytest.raises(InputError, match="row 4 holds int 17"):
            judge_audit(g, "overall", ["good"], n_resamples=0)
        assert np.isnan(summary_length([None, "a b"])[0]) and summary_length(["a  b\nc"])[0] == 3
        one = f.drop(columns=["overall/a2", "overall/a3"])
        a = judge_audit(one, "overall", ["good"], n_resamples=0)
        assert "held-out annotator" not in set(a.close_pairs.role)
        assert any("one annotator" in n for n in a.notes)


# ------------------------------------------------------------------------------------------------
# The command
# ------------------------------------------------------------------------------------------------
class TestCommand:
    def test_writes_csvs_figures_and_manifest(self, tmp_path, capsys):
        data = tmp_path / "j.csv"
        _audit_frame().drop(columns="soft.overall").to_csv(data, index=False)
        out = tmp_path / "audit"
        rc = cli.main(["judge-audit", str(data), "--human", "overall", "--judges", "wordy", "good",
                       "--n-resamples", "50", "--out", str(out)])
        assert rc == 0
        names = sorted(p.name for p in out.iterdir())
        assert names == ["judge_audit_calibration.csv", "judge_audit_close_pairs.csv", "judge_audit_close_pairs.pdf",
                         "judge_audit_close_pairs.png", "judge_audit_kappa.csv", "judge_audit_verbosity.csv",
                         "judge_audit_verbosity.pdf", "judge_audit_verbosity.png", "manifest.json"]
        m = json.loads((out / "manifest.json").read_text())
        assert m["kind"] == "sumeval judge-audit" and m["settings"]["n_resamples"] == 50
        assert m["judges"]["wordy"] == {"overall": "wordy.overall"} and "manifest.json" in m["files"]
        v = pd.read_csv(out / "judge_audit_verbosity.csv")
        assert len(v) == 2 * 4 and v.n_resamples_used.eq(50).all()
        assert "wordy" in capsys.readouterr().out
        # an existing result is never mixed with a new one; a bad option is named
        assert cli.main(["judge-audit", str(data), "--human", "overall", "--judges", "good", "--out", str(out)]) == 2
        assert "is not empty" in capsys.readouterr().err
        assert cli.main(["judge-audit", str(data), "--human", "overall", "--judges", "good", "--bins", "0",
                         "--out", str(tmp_path / "o2")]) == 2
        assert "--bins 0" in capsys.readouterr().err
        assert not (tmp_path / "o2").exists()


# ------------------------------------------------------------------------------------------------
# SummEval's six LLM judges (AltTest's release): the measurements that motivated the audit
# ------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_summeval_judges_reproduce_the_motivating_measurements():
    """Issue 31's figures, within the intervals. Definitions: judges/audit.py, stats/pairwise.py."""
    from sumeval.datasets.loaders.summeval import JUDGES, summeval_judgments

    qualities = ["coherence", "consistency", "relevance"]
    a = judge_audit(summeval_judgments().frame, qualities, list(JUDGES), n_resamples=1000, seed=0)
    v = a.verbosity[a.verbosity.versus == "humans"].set_index(["judge", "human"])
    # three of the six depend on length significantly more than the experts on all three qualities
    above = {j for j in JUDGES if all(v.loc[(j, q)].above for q in qualities)}
    assert above == {"gpt-4o", "gpt-4o-mini", "llama-31"}
    # gpt-4o-mini: +0.17 to +0.20 above the experts' own, 95% intervals above 0
    mini = v.loc["gpt-4o-mini"]
    assert (mini.excess.round(2) >= 0.17).all() and (mini.excess.round(2) <= 0.20).all()
    assert (mini.ci_low > 0).all()
    assert (mini.ci_low <= 0.17).all() and (mini.ci_high >= 0.20).all()
    # close pairs, on consistency and relevance (the qualities the figures name): the judges order the
    # closest third like the experts 0.43-0.75 of the time, the farthest 0.67-1.00: the quoted ends lie
    # within the intervals of the judges with the lowest and highest agreement
    cp = a.close_pairs[a.close_pairs.human.isin(["consistency", "relevance"])]
    judges = cp[cp.role == "judge"]

    def ends(rows):
        lo, hi = rows.loc[rows.agreement.idxmin()], rows.loc[rows.agreement.idxmax()]
        return lo, hi

    lo, hi = ends(judges[judges.bin_label == "closest"])
    assert lo.ci_low <= 0.43 <= lo.ci_high and hi.ci_low <= 0.75 <= hi.ci_high
    lo, hi = ends(judges[judges.bin_label == "farthest"])
    assert lo.ci_low <= 0.67 <= lo.ci_high and hi.ci_low <= 1.00 <= hi.ci_high
    # every judge agrees less on the closest third than on the farthest
    wide = judges.pivot_table(index=["metric", "human"], columns="bin_label", values="agreement")
    assert (wide["closest"] < wide["farthest"]).all()
    # the held-out expert on the closest third: its lowest within 0.70 (the quoted range's low end);
    # summary length alone 0.83 on consistency is within its interval
    ho = cp[(cp.role == "held-out annotator") & (cp.bin_label == "closest")]
    low = ho.loc[ho.agreement.idxmin()]
    assert low.ci_low <= 0.70 <= low.ci_high
    length = cp[(cp.role == "length") & (cp.bin_label == "closest")].set_index("human")
    assert length.loc["consistency"].ci_low <= 0.83 <= length.loc["consistency"].ci_high
    # Not reproduced under these definitions (left unasserted, reported): the held-out expert's top
    # 0.90 (highest here 0.83, interval up to 0.85) and length's 0.71 on relevance (0.60, interval
    # 0.45-0.675); 0.71 is not k/40, so it is no equal-count third of SummEval's 120 pairs.
    # Every natural variant of the definition, one at a time: benchmarks/judge_audit_variants.py and
    # BENCHMARKS.md, "Judge audit against the quoted figures (issue 31)".


def _sign(z: float) -> int:
    return 0 if abs(z) < 1e-12 else (1 if z > 0 else -1)


@needs_data("summeval/summeval_pairs_1600.jsonl", "summeval_annotators/human_annotations.json",
            "summeval_annotators/llm_annotations.json")
def test_summeval_judges_audit_values_equal_a_direct_computation():
    """The audit's point values on SummEval's six cached judges (AltTest's release), each computed here
    again without sumeval: Kendall's tau-b with the summary's word count by scipy, the close-pair bins
    and agreements by plain loops over the 16 systems' 120 pairs, and both kappas by scikit-learn.
    No resampling (the intervals are the bootstrap's; the slow test above checks them)."""
    from sklearn.metrics import cohen_kappa_score

    from sumeval.datasets.loaders.summeval import JUDGES, summeval_judgments

    f = summeval_judgments().frame
    qualities = ["coherence", "consistency", "relevance"]
    a = judge_audit(f, qualities, list(JUDGES), n_resamples=0)
    length = np.array([len(s.split()) for s in f["summary"]], dtype=float)
    v = a.verbosity.set_index(["judge", "human", "versus"])
    cp = a.close_pairs
    systems = sorted(set(f["system"]))
    assert len(systems) == 16
    for q in qualities:
        h = f[q].to_numpy(float)
        for judge in JUDGES:
            x = f[f"{judge}.{q}"].to_numpy(float)
            ok = ~(np.isnan(x) | np.isnan(h))
            row = v.loc[(judge, q, "humans")]
            tau_j, tau_h = kendalltau(x[ok], length[ok]).statistic, kendalltau(h[ok], length[ok]).statistic
            assert row.tau_judge == pytest.approx(tau_j, abs=1e-12)
            assert row.excess == pytest.approx(tau_j - tau_h, abs=1e-12)
            # close pairs: system means over the rows both sides scored; pairs ranked by the experts'
            # |difference|, thirds by the count of pairs strictly closer; agreement = same sign
            mx = {s: x[ok & (f["system"] == s).to_numpy()].mean() for s in systems}
            mh = {s: h[ok & (f["system"] == s).to_numpy()].mean() for s in systems}
            pairs = [(s, t) for k, s in enumerate(systems) for t in systems[k + 1:]]
            d = {p: abs(mh[p[0]] - mh[p[1]]) for p in pairs}
            bins = {p: min(3 * sum(d[o] < d[p] - 1e-12 for o in pairs) // len(pairs), 2) for p in pairs}
            agree = {p: _sign(mh[p[0]] - mh[p[1]]) == _sign(mx[p[0]] - mx[p[1]]) for p in pairs}
            got = cp[(cp.role == "judge") & (cp.metric == judge) & (cp.human == q)].set_index("bin")
            for b in range(3):
                in_bin = [p for p in pairs if bins[p] == b]
                assert got.loc[b, "n_pairs"] == len(in_bin)
                assert got.loc[b, "agreement"] == pytest.approx(np.mean([agree[p] for p in in_bin]), abs=1e-12)
        # length alone (longer is better) on the experts' bins
        ml = {s: length[(f["system"] == s).to_numpy()].mean() for s in systems}
        got = cp[(cp.role == "length") & (cp.human == q)].set_index("bin")
        want = [np.mean([_sign(mh[p[0]] - mh[p[1]]) == _sign(ml[p[0]] - ml[p[1]]) for p in pairs if bins[p] == b])
                for b in range(3)]
        np.testing.assert_allclose(got.loc[[0, 1, 2], "agreement"].to_numpy(float), want, rtol=0, atol=1e-12)
    # both kappas against each expert: scikit-learn's
    k = a.kappa.set_index(["judge", "human", "annotator"])
    for q in qualities:
        for judge in JUDGES:
            for e in ("expert_1", "expert_2", "expert_3"):
                row = k.loc[(judge, q, e)]
                x, y = f[f"{judge}.{q}"].to_numpy(float), f[f"{q}/{e}"].to_numpy(float)
                ok = ~(np.isnan(x) | np.isnan(y))
                assert row.n_items == ok.sum()
                assert row.kappa == pytest.approx(cohen_kappa_score(x[ok], y[ok]), abs=1e-12)
                assert row.kappa_quadratic == pytest.approx(cohen_kappa_score(x[ok], y[ok], weights="quadratic"),
                                                            abs=1e-12)
