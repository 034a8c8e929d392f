"""mt-metrics-eval's significance clusters: ``--correction none --alternative one-sided``.

mt-metrics-eval (``data.CompareMetrics`` -> ``stats.PermutationSigDiff`` -> ``data.AssignRanks``)
tests each pair one-sided, the higher-ranked measure against the lower, and compares the uncorrected
p-value count / K with the threshold. Checked here, grouped by problem: the options' p-values (each
test points at the higher-ranked measure; its p is MTME's count, recomputed in the test from the same
swap masks by a plain loop), the clusters (equal to AssignRanks written here from its description in
Freitag et al. 2021, WMT21 metrics findings, Sec. 7: "a metric joins the current cluster unless a
metric of that cluster is significantly better", and to a literal transcription of MTME's
``AssignRanks``) on a hand-made fixture and on a real shelf task (FRANK, 10 of its columns), and
clear errors.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval import stats
from sumeval.errors import InputError


def _paper_assign_ranks(order: list[str], p_better: dict, alpha: float) -> dict[str, int]:
    """Freitag et al. (2021), Sec. 7, as described: start with the best metric; a metric joins the current
    cluster unless some metric already in it is significantly better, else it opens the next cluster."""
    clusters: list[list[str]] = []
    for m in order:
        if clusters and not any(p_better[(x, m)] <= alpha for x in clusters[-1]):
            clusters[-1].append(m)
        else:
            clusters.append([m])
    return {m: k + 1 for k, members in enumerate(clusters) for m in members}


def _mtme_assign_ranks(sig_matrix: np.ndarray, pval: float) -> list[int]:
    """mt-metrics-eval's data.AssignRanks (google-research/mt-metrics-eval@68a481a), transcribed."""
    n = sig_matrix.shape[0]
    ranks, current_rank, start_index = [0] * n, 1, 0
    for i in range(n):
        if any(sig_matrix[:, i][start_index:i] <= pval):
            current_rank += 1
            start_index = i
        ranks[i] = current_rank
    return ranks


def _check_clusters(ranking: pd.DataFrame, pairwise: pd.DataFrame, alpha: float = 0.05) -> int:
    """Every (human, level, coefficient) group of ``ranking`` has AssignRanks' clusters, computed from
    ``pairwise``'s uncorrected one-sided p-values; returns the number of groups checked."""
    groups = 0
    for key, g in ranking[ranking["rank"].notna()].groupby(["human", "level", "coefficient"], sort=False):
        order = list(g.sort_values("rank")["measure"])
        values = dict(zip(g["measure"], g["value"]))
        tests = pairwise[(pairwise["human"] == key[0]) & (pairwise["level"] == key[1])
                         & (pairwise["coefficient"] == key[2])]
        p_better = {}
        for r in tests.itertuples():
            hi, lo = (r.measure_a, r.measure_b) if r.alternative == "greater" else (r.measure_b, r.measure_a)
            # the test points at the higher-ranked measure, as MTME's sig_matrix[i, j] (i above j)
            assert values[hi] >= values[lo], (key, hi, lo)
            assert r.correction == "none" and r.p_adjusted == r.p_raw  # uncorrected, not floored
            p_better[(hi, lo)] = r.p_raw
        paper = _paper_assign_ranks(order, p_better, alpha)
        sig = np.full((len(order), len(order)), np.nan)
        for i, a in enumerate(order):
            for j in range(i + 1, len(order)):
                sig[i, j] = p_better[(a, order[j])]
        mtme = _mtme_assign_ranks(sig, alpha)
        got = [int(c) for c in g.sort_values("rank")["cluster"]]
        assert got == [paper[m] for m in order] == mtme, key
        groups += 1
    return groups


def _fixture() -> pd.DataFrame:
    """6 systems x 12 documents; five measures, the human plus growing noise, rounded (ties), one NaN."""
    rng = np.random.default_rng(11)
    docs, systems = 12, 6
    f = pd.DataFrame({"doc_id": np.repeat([f"d{i}" for i in range(docs)], systems),
                      "system": np.tile([f"s{i}" for i in range(systems)], docs)})
    quality = np.tile(np.linspace(0, 1.5, systems), docs)
    f["human"] = np.round(quality + rng.normal(0, 0.6, len(f)), 1)
    for k, noise in enumerate((0.3, 0.5, 0.55, 1.5, 4.0)):
        f[f"m{k}"] = np.round(f["human"] + rng.normal(0, noise, len(f)), 1)
    f.loc[5, "m2"] = np.nan
    return f.sample(frac=1.0, random_state=3).reset_index(drop=True)  # rows in no particular order


def _grid(f: pd.DataFrame, col: str) -> np.ndarray:
    """(inputs, systems) in order of first appearance, as stats.permutation_masks' cells."""
    d, s = pd.factorize(f["doc_id"])[0], pd.factorize(f["system"])[0]
    g = np.full((d.max() + 1, s.max() + 1), np.nan)
    g[d, s] = f[col].to_numpy(float)
    return g


def _mtme_count_p(f: pd.DataFrame, hi: str, lo: str, level: str, masks: np.ndarray) -> float:
    """PermutationSigDiff's p for "hi correlates better than lo" (count of c_hi* - c_lo* >= delta over K),
    with sumeval's swap masks, the scores z-scored on the common cells as MTME does, by a plain loop."""
    common = f[[hi, lo, "human"]].notna().all(axis=1)
    x, y, z = (_grid(f.assign(**{c: f[c].where(common)}), c) for c in (hi, lo, "human"))
    x, y = ((g - np.nanmean(g)) / np.nanstd(g) for g in (x, y))

    def corr(g):
        if level == "global":
            ok = ~np.isnan(z)
            return ss.pearsonr(g[ok], z[ok]).statistic
        return ss.pearsonr(np.nanmean(g, axis=0), np.nanmean(z, axis=0)).statistic

    delta = corr(x) - corr(y)
    count = 0
    for m in masks:
        xs, ys = np.where(m, y, x), np.where(m, x, y)
        count += corr(xs) - corr(ys) >= delta - 1e-12
    return count / len(masks)


class TestOptions:
    def test_correction_none_keeps_the_raw_p_values(self):
        p = np.array([0.01, np.nan, 0.04, 0.5])
        np.testing.assert_array_equal(stats.adjust_pvalues(p, "none"), p)
        from sumeval.stats.multiple import adjust_resampled

        # not floored: the value MTME compares with its threshold (count / K = 50/1000 is significant at 0.05)
        got = adjust_resampled([0.05, np.nan], [51 / 1001, np.nan], "none")
        assert got[0] == 0.05 and np.isnan(got[1])

    @pytest.mark.parametrize("level", ["global", "system"])
    def test_one_sided_p_is_mtme_count_toward_the_higher_ranked_measure(self, level):
        f = _fixture()
        measures = ["m2", "m0", "m4", "m1", "m3"]
        out = stats.compare_measures(f, measures, "human", level=level, method="pearson", n_resamples=200,
                                     seed=4, correction="none", alternative="one-sided")
        values = stats.correlate(f, measures, "human", level=level, methods=["pearson"],
                                 n_resamples=0).set_index("metric")["value"]
        from sumeval.stats.permutation import permutation_masks

        masks = permutation_masks(f["system"].nunique(), f["doc_id"].nunique(), "both", 200, 4)
        assert set(out["alternative"]) == {"greater", "less"}  # the measures are given out of rank order
        for r in out.itertuples():
            hi, lo = (r.measure_a, r.measure_b) if r.alternative == "greater" else (r.measure_b, r.measure_a)
            assert values[hi] >= values[lo]
            assert r.p_raw == pytest.approx(_mtme_count_p(f, hi, lo, level, masks), abs=1e-12), (hi, lo)
            assert r.p_adjusted == r.p_raw
        # two-sided Holm (the default) reads the same permutations differently
        holm = stats.compare_measures(f, measures, "human", level=level, method="pearson", n_resamples=200, seed=4)
        assert (holm["p_adjusted"] >= out["p_adjusted"]).all() and (holm["alternative"] == "two-sided").all()

    def test_hand_made_clusters_equal_assign_ranks(self):
        f = _fixture()
        measures = ["m3", "m1", "m4", "m0", "m2"]  # not in rank order
        found = set()
        for level in ("global", "system", "input"):
            for test in ("permutation", "williams"):
                cmp = stats.compare_measures(f, measures, "human", level=level, method="pearson", test=test,
                                             n_resamples=300, seed=0, correction="none", alternative="one-sided")
                vals = stats.correlate(f, measures, "human", level=level, methods=["pearson"], n_resamples=0)
                vals = vals.rename(columns={"metric": "measure", "method": "coefficient"})
                ranking = stats.significance_clusters(cmp, values=vals)
                assert _check_clusters(ranking, cmp) == 1
                found.add(int(ranking["cluster"].max()))
        assert max(found) >= 3  # the fixture separates the measures into several clusters


def test_real_shelf_task_frank_clusters_equal_assign_ranks(tmp_path):
    """FRANK (artidoro/frank 80a88fb1), factuality, 10 measure columns (two with missing values), system and
    global level, Pearson and Kendall, 300 permutations: sumeval's ranking.csv clusters equal AssignRanks
    on its pairwise.csv p-values; the default (Holm, two-sided) gives other clusters on the same task."""
    from sumeval import cli

    cols = ["frank.Rouge_1", "frank.Rouge_2", "frank.Rouge_L", "frank.Bleu", "frank.Meteor", "frank.BertScore_P",
            "frank.QAGS", "frank.FactCC", "frank.Dep_Entail", "frank.FEQA"]
    base = ["meta-eval", "frank", "--human", "factuality", "--measures", *cols, "--level", "system", "global",
            "--coefficient", "pearson", "kendall_b", "--n-resamples", "300", "--no-figures", "--no-spa", "-q"]
    out = tmp_path / "mtme"
    assert cli.main([*base, "--correction", "none", "--alternative", "one-sided", "--out", str(out)]) == 0
    ranking, pairwise = pd.read_csv(out / "ranking.csv"), pd.read_csv(out / "pairwise.csv")
    assert _check_clusters(ranking, pairwise) == 4
    default = tmp_path / "default"
    assert cli.main([*base, "--out", str(default)]) == 0
    holm = pd.read_csv(default / "ranking.csv")
    assert not holm["cluster"].equals(ranking["cluster"])
    assert (holm["value"] == ranking["value"]).all()  # the values do not depend on the test


def test_clear_errors(tmp_path, capsys):
    from sumeval import cli
    from sumeval.meta_eval import Settings

    f = _fixture()
    with pytest.raises(InputError, match="alternative 'sideways'"):
        stats.compare_measures(f, ["m0", "m1"], "human", level="global", method="pearson", alternative="sideways")
    with pytest.raises(InputError, match="bootstrap test is two-sided"):
        stats.compare_measures(f, ["m0", "m1"], "human", level="global", method="pearson", test="bootstrap",
                               alternative="one-sided")
    with pytest.raises(InputError, match="--alternative one-sided with --test bootstrap-both"):
        Settings(humans=("h",), test="bootstrap-both", alternative="one-sided").check()
    with pytest.raises(InputError, match="--correction 'bonferroni': choose holm, bh or none"):
        Settings(humans=("h",), correction="bonferroni").check()
    rc = cli.main(["meta-eval", "frank", "--human", "factuality", "--measures", "frank.QAGS", "frank.FactCC",
                   "--test", "bootstrap-both", "--alternative", "one-sided", "--no-figures", "-q",
                   "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert rc == 2 and "bootstrap tests are two-sided" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())
