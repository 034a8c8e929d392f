"""The sentinels beside length (issue 32): source-summary overlap (Grusky et al. 2018's extractive fragment
coverage and density, bigram overlap), a constant and a seeded random measure.

Grouped by problem: the formulas by hand (repeated tokens, the scan skipping past a match, no overlap, empty
and one-token summaries); the random measure's determinism (row order, batches, seeds) and bad seeds; the
registered measures; meta-eval's sentinel rows (the random row against its draws recomputed independently, the
constant undefined, an overlap sentinel equal to the same measure named and ranked, a set without sources);
the table block.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sumeval import stats
from sumeval.errors import InputError
from sumeval.metrics.base import Batch
from sumeval.metrics.sentinels import (
    fragment_coverage,
    fragment_density,
    fragments,
    ngram_overlap,
    random_scores,
    tokens,
)


class TestFormulasByHand:
    def test_fragments_coverage_density(self):
        # summary a b c x, source c a b c: from "a" the run a-b-c (3), "x" nowhere: one fragment of 3
        assert fragments("a b c x".split(), "c a b c".split()) == [3]
        assert fragment_coverage("a b c x", "c a b c") == 3 / 4
        assert fragment_density("a b c x", "c a b c") == 9 / 4
        # the longest run wins over the first: source "a b z a b c", summary "a b c": a-b (2) then a-b-c (3)
        assert fragments("a b c".split(), "a b z a b c".split()) == [3]
        # two fragments: summary "the cat sat on the mat" in source "the cat ate . on the mat"
        #   the-cat (2), "sat" nowhere, on-the-mat (3): coverage 5/6, density (4 + 9)/6
        s, t = "the cat sat on the mat", "the cat ate . on the mat"
        assert fragments(tokens(s), tokens(t)) == [2, 3]
        assert fragment_coverage(s, t) == pytest.approx(5 / 6, abs=1e-15)
        assert fragment_density(s, t) == pytest.approx(13 / 6, abs=1e-15)
        # Algorithm 1's scan moves past a match's end before the next start (Newsroom's _match: b_start = b_end):
        # summary "a a b", source "a a a b": from summary 0 the run a-a (source 0..1, 2), the scan resumes at source
        # 2: a (1), b no. So 2, and the run a-a-b at source 1..3 is never tried; then "b" from summary 2: 1.
        # [2, 1], as the authors' code gives (not [3], the longest common run)
        assert fragments("a a b".split(), "a a a b".split()) == [2, 1]
        # whole copy: coverage 1, density |S|
        assert (fragment_coverage("x y z", "x y z"), fragment_density("x y z", "x y z")) == (1.0, 3.0)
        # nothing shared; an empty summary (no tokens) is 0, as Newsroom's denominator rule
        assert (fragment_coverage("p q", "x y"), fragment_density("p q", "x y")) == (0.0, 0.0)
        assert fragment_coverage("", "x y") == 0.0

    def test_tokens_lowercase_and_punctuation(self):
        assert tokens("The Cat, sat.") == ["the", "cat", ",", "sat", "."]
        assert fragment_coverage("THE CAT", "the cat sat") == 1.0

    def test_bigram_overlap(self):
        # summary bigrams a-b, b-c, c-a, a-b; source x a b y has a-b only: 2 of 4
        assert ngram_overlap("a b c a b", "x a b y", 2) == 0.5
        assert ngram_overlap("a b", "a b", 2) == 1.0 and ngram_overlap("b a", "a b", 2) == 0.0
        assert ngram_overlap("a b c", "a b c", 1) == 1.0
        assert math.isnan(ngram_overlap("word", "word and more", 2))  # no bigram: undefined, not 0 or 1


class TestRandomMeasure:
    def test_deterministic_whatever_the_order_or_batches(self):
        texts = [f"summary number {k}" for k in range(50)]
        whole = random_scores(texts, seed=3)
        assert np.array_equal(random_scores(texts[::-1], seed=3), whole[::-1])
        assert np.array_equal(np.concatenate([random_scores(texts[:7], seed=3), random_scores(texts[7:], seed=3)]),
                              whole)
        assert not np.array_equal(random_scores(texts, seed=4), whole)
        assert ((whole >= 0) & (whole < 1)).all()

    def test_uniform(self):
        v = random_scores([f"s{k}" for k in range(20000)], seed=0)
        # a uniform [0, 1): mean 1/2 (sd of the mean 0.002), each tenth holds 1/10 (sd 0.0021)
        assert abs(v.mean() - 0.5) < 0.01
        assert np.abs(np.histogram(v, bins=10, range=(0, 1))[0] / v.size - 0.1).max() < 0.01

    @pytest.mark.parametrize("seed", [-1, 1.5, True, "0"])
    def test_bad_seed(self, seed):
        with pytest.raises(InputError, match="seed must be a whole number >= 0"):
            random_scores(["x"], seed=seed)


def test_registered_measures():
    from sumeval.metrics.registry import get_scorer

    batch = Batch(summaries=["a b c x", "the cat"], texts=["c a b c", "the cat sat"])
    want = {"fragment-coverage": [0.75, 1.0], "fragment-density": [2.25, 2.0], "bigram-overlap": [2 / 3, 1.0],
            "constant": [0.0, 0.0], "random": list(random_scores(["a b c x", "the cat"], seed=0))}
    for name, values in want.items():
        scorer = get_scorer(name)
        assert scorer.columns() == [name]
        np.testing.assert_allclose(scorer.score_batch(batch)[name], values, rtol=0, atol=1e-15)
    assert get_scorer("random", seed=5).score_batch(batch)["random"][0] == random_scores(["a b c x"], seed=5)[0]
    with pytest.raises(InputError, match="statistic 'ratio'"):
        get_scorer("fragment-coverage", statistic="ratio")


# ------------------------------------------------------------------------------------------------
# meta-eval
# ------------------------------------------------------------------------------------------------
def _data(tmp_path, with_source=True):
    rng = np.random.default_rng(0)
    rows = []
    for d in range(8):
        source = f"story {d} about a river and a bridge that opened on day {d} near the old mill"
        for s in ("M0", "M1", "M2", "M3"):
            words = source.split()
            cut = int(rng.integers(3, len(words)))
            summary = " ".join(words[:cut]) + (" invented claim" if s == "M3" else "")
            rows.append({"doc_id": f"d{d}", "system": s, "summary": summary, "text": source,
                         "overall": round(float(rng.normal() + 0.1 * cut), 3)})
    f = pd.DataFrame(rows)
    path = tmp_path / ("data.csv" if with_source else "nosource.csv")
    (f if with_source else f.drop(columns=["text"])).to_csv(path, index=False)
    return path, f


def _run(tmp_path, path, out, *extra):
    from sumeval import cli

    return cli.main(["meta-eval", str(path), "--human", "overall", "--n-resamples", "20", "--no-spa", "-q",
                     "--no-figures", "--coefficient", "kendall_b", "pearson", "--out", str(tmp_path / out), *extra])


def test_meta_eval_sentinel_rows(tmp_path):
    from sumeval.meta_eval.sentinels import BIGRAMS, CONSTANT, COVERAGE, ORDER, RANDOM, RANDOM_DRAWS

    path, f = _data(tmp_path)
    assert _run(tmp_path, path, "out", "--measures", "fragment-coverage", "length", "--seed", "2") == 0
    corr = pd.read_csv(tmp_path / "out" / "correlations.csv")
    sent = corr[corr["role"] == "sentinel"]
    assert list(dict.fromkeys(sent["measure"])) == list(ORDER)
    # asked for as measures, the same functions are ranked; the sentinel rows equal them, value and interval
    key = ["human", "level", "coefficient"]
    for measure, sentinel in (("fragment-coverage", COVERAGE), ("length", "length (sentinel)")):
        a = corr[corr["measure"] == measure].set_index(key)[["value", "ci_low", "ci_high"]]
        b = sent[sent["measure"] == sentinel].set_index(key)[["value", "ci_low", "ci_high"]]
        pd.testing.assert_frame_equal(a, b.loc[a.index], check_names=False)
    # the bigram overlap by hand on one summary pair is the scorer's; its correlation defined on this data
    assert sent.loc[sent["measure"] == BIGRAMS, "value"].notna().all()
    # the constant: undefined everywhere, with its reason
    const = sent[sent["measure"] == CONSTANT]
    assert len(const) == 6 and const["value"].isna().all() and const["reason"].notna().all()
    # the random row: mean and central 95% of the correlations of draws seeded seed * DRAWS + k, recomputed here
    work = f[["doc_id", "system", "overall"]].copy()
    draws = {f"r{k}": random_scores(f["summary"].tolist(), seed=2 * RANDOM_DRAWS + k) for k in range(RANDOM_DRAWS)}
    work = pd.concat([work, pd.DataFrame(draws)], axis=1)
    got = sent[sent["measure"] == RANDOM].set_index(["level", "coefficient"])
    for (lv, c), row in got.iterrows():
        v = stats.correlate(work, list(draws), "overall", level=lv, methods=[c], n_resamples=0)["value"].to_numpy()
        v = v[np.isfinite(v)]
        assert row["value"] == pytest.approx(v.mean(), abs=1e-12)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((np.percentile(v, 2.5), np.percentile(v, 97.5)),
                                                                abs=1e-12)
        assert row["ci_low"] < row["value"] < row["ci_high"]
        assert (row["resampling"], row["n_resamples"]) == ("random draws", RANDOM_DRAWS)
    # never ranked or tested; the measures' own rows and tests are those of a run without sentinels
    ranking = pd.read_csv(tmp_path / "out" / "ranking.csv")
    assert ranking.loc[ranking["role"] == "sentinel", ["rank", "cluster"]].isna().all().all()
    assert not pd.read_csv(tmp_path / "out" / "pairwise.csv")[["measure_a", "measure_b"]].isin(ORDER).any().any()
    assert _run(tmp_path, path, "bare", "--measures", "fragment-coverage", "length", "--seed", "2",
                "--no-sentinels") == 0
    bare = pd.read_csv(tmp_path / "bare" / "correlations.csv")
    pd.testing.assert_frame_equal(corr[corr["role"] == "measure"].reset_index(drop=True), bare.reset_index(drop=True),
                                  check_dtype=False)  # "reason": all NaN in one file, text in the other
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "out" / "pairwise.csv"),
                                  pd.read_csv(tmp_path / "bare" / "pairwise.csv"))
    # the table: the block under the measures, the random row's range as two rows, nothing bold in it
    table = (tmp_path / "out" / "table_kendall_b.md").read_text()
    block = table.split("Sentinel (not ranked)", 1)[1]
    for label in ("fragment coverage (sentinel)", "constant (sentinel)", "random (sentinel): 2.5% of draws",
                  "random (sentinel): 97.5% of draws"):
        assert label in table
    assert "**" not in "".join(line for line in block.splitlines() if line.startswith("| Sentinel"))
    assert "the noise floor" in table and "Grusky et al. 2018" in table


def test_meta_eval_sentinels_without_source_texts(tmp_path, capsys):
    from sumeval.meta_eval.sentinels import CONSTANT, LENGTH, RANDOM

    path, _ = _data(tmp_path, with_source=False)
    assert _run(tmp_path, path, "out", "--measures", "length") == 0
    corr = pd.read_csv(tmp_path / "out" / "correlations.csv")
    assert list(dict.fromkeys(corr.loc[corr["role"] == "sentinel", "measure"])) == [LENGTH, CONSTANT, RANDOM]
    assert "no source-overlap sentinels" in capsys.readouterr().err


def test_llm_judges_table_sentinel_block_never_bold_or_marked():
    # a sentinel above every measure: not bold (the best measure is), no cluster mark; the random row's range as rows
    from sumeval.studies import llm_judges as lj

    corr = pd.DataFrame({"measure": ["rouge-1", "judge"], "kind": [lj.OFFLINE, lj.JUDGE], "human": "coherence",
                         "level": "system", "coefficient": "kendall_b", "value": [0.2, 0.4], "cluster": [2.0, 1.0]})
    ceiling = pd.DataFrame({"measure": [lj.CEILING], "kind": [lj.CEILING], "human": "coherence", "level": "system",
                            "coefficient": "kendall_b", "value": [0.9]})
    sent = pd.DataFrame({"measure": ["length (sentinel)", "random (sentinel)"], "kind": lj.SENTINEL,
                         "human": "coherence", "level": "system", "coefficient": "kendall_b", "value": [0.7, 0.01],
                         "ci_low": [np.nan, -0.4], "ci_high": [np.nan, 0.45], "cluster": np.nan})
    values, bold, marks = lj.correlation_table(corr, ceiling, "kendall_b", sentinels=sent)
    col = ("coherence", "system")
    assert bold[col].to_dict() == {"rouge-1": False, "judge": True, lj.CEILING: False, "length (sentinel)": False,
                                   "random (sentinel)": False, "random (sentinel): low end of draws": False,
                                   "random (sentinel): high end of draws": False}
    assert values.loc["random (sentinel): low end of draws", col] == -0.4
    assert values.loc["random (sentinel): high end of draws", col] == 0.45
    assert marks.loc["length (sentinel)", col] == "" and marks.loc["judge", col] == "1"
