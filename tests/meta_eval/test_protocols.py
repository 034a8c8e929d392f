"""Each shelf set's own published protocol (``meta-eval --protocol NAME``; ``--undefined-as``,
``--significant-inputs``): the input level's averaging rules by hand (stats.input_rules), each
protocol against values computed with the authors' own code outside the repository, and bad input.

How the pinned values were obtained (each run in /tmp, never in the repository; the numbers below are
those programs' outputs, printed with repr):

- RoSE: Yale-LILY/ROSE 8b93128 ``correlation.py``, copied unmodified, on the shelf's
  ``rose/protocol-comparison.json``: arrays [system, document] with the systems sorted (as its
  ``demo.py``); ``correlation_summ(human, metric, _cal_kendall)`` (summary level = sumeval's input level,
  an undefined Kendall counted 0) and ``correlation_system``; the "metric" is the summary length in words
  (``len(text.split())``, what sumeval's length measure counts) or another protocol's column. The slice
  has one document whose ``acu`` is the same for all 12 systems: its correlation is undefined, so RoSE's
  mean over 100 documents differs from sumeval's default over the 99 defined ones. (RoSE's metric scores,
  ``computed_metrics/*.jsonl``, are not in the repository snapshot, so its paper tables of metrics cannot
  be rebuilt here; its code's rule can.)
- REALSumm: neulab/REALSumm a5900e3e ``analysis/utils.py``, unmodified, run as ``analysis/analysis.ipynb``'s
  "Summary level analysis - Exp IV" cell (``print_ktau_matrix(mlist, percentile=[(0, 100)], sd=sd,
  cutoff_metric='litepyramid_recall', y_type='ktau')``) on its ``scores_dicts/abs.pkl`` and ``ext.pkl``
  merged as the notebook merges them. It printed, for the 6 metrics against ``litepyramid_recall``,
  the notebook's own stored output (0.4684 0.4360 0.4891 0.4860 0.4871 0.4255) and "476/2100 values
  ignored"; full precision below. ``tests/fixtures/realsumm/realsumm_metrics.csv.gz`` holds the 6 metric
  columns of those pickles (CC BY 4.0), keyed by the shelf's doc_id and system; the shelf supplies
  ``litepyramid`` (equal to the pickles' on 2,500 of 2,500 rows). The length check runs its
  ``get_doc_y_val(isd, 'length', 'litepyramid_recall', y_type='ktau')`` per document on the shelf's
  summaries (words with the ``<t>`` tags removed) and averages ktau over ``pval <= 0.05`` (41 documents).
- XSumFaith: Maynez et al. 2020 released no code; Table 4 is Spearman's coefficient over all
  summaries, computed here with ``scipy.stats.spearmanr(eval_scores[metric], eval_scores[Faithful |
  Factual])`` on the authors' ``eval_scores_xsum_summaries.csv`` (1,992 summaries). Rounded to 3
  decimals they are the paper's printed cells: R1 .197/.125, R2 .162/.095, RL .162/.113, BERTScore
  .190/.116, Entailment .431/.264.
- FRANK: the 45 x 2 values of the authors' ``evaluate.py`` pinned in ``test_partial_and_sentinels.py``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from sumeval import stats
from sumeval.errors import InputError
from sumeval.stats.input_rules import InputRule

from helpers import FIXTURES, import_test_module  # tests/ is on the path

FIXTURE = FIXTURES / "realsumm" / "realsumm_metrics.csv.gz"


def _cli(args) -> int:
    from sumeval import cli

    return cli.main(["meta-eval", *args, "--no-figures", "--no-spa", "-q"])


def _corr(out: Path) -> pd.DataFrame:
    return pd.read_csv(out / "correlations.csv")


# ------------------------------------------------------------------------------------------------
# the rules by hand: a constant document, a NaN, shuffled rows; resamples; the default unchanged
# ------------------------------------------------------------------------------------------------
def _tiny(order=None) -> pd.DataFrame:
    # d1: x 1 2 3 4, y 1 2 4 3 -> tau_b 4/6; d2: y constant -> undefined; d3: x 4 3 2 NaN, y 1 2 3 4 -> -1
    f = pd.DataFrame({"doc_id": ["d1"] * 4 + ["d2"] * 4 + ["d3"] * 4, "system": list("ABCD") * 3,
                      "x": [1, 2, 3, 4, 1, 2, 3, 4, 4, 3, 2, np.nan],
                      "y": [1, 2, 4, 3, 5, 5, 5, 5, 1, 2, 3, 4]}, dtype=object).astype({"x": float, "y": float})
    return f if order is None else f.iloc[order].reset_index(drop=True)


class TestRulesByHand:
    @pytest.mark.parametrize("order", [None, [11, 3, 7, 0, 5, 9, 1, 10, 2, 8, 4, 6]])
    def test_skip_zero_significant(self, order):
        f = _tiny(order)
        d1, d3 = 4 / 6, -1.0
        got = {}
        for rule in (None, InputRule("skip"), InputRule("zero"), InputRule("skip", 0.5)):
            r = stats.correlate(f, "x", "y", level="input", methods=["kendall_b"], n_resamples=0,
                                input_rule=rule).iloc[0]
            got[rule] = (r["value"], r["n"], r["n_skipped"])
        assert got[None] == got[InputRule("skip")] == (pytest.approx((d1 + d3) / 2), 2, 1)
        assert got[InputRule("zero")] == (pytest.approx((d1 + 0 + d3) / 3), 3, 0)
        # significance: the documents whose own scipy p-value is <= 0.5 (the undefined d2 has none)
        p1 = ss.kendalltau([1, 2, 3, 4], [1, 2, 4, 3]).pvalue
        p3 = ss.kendalltau([4, 3, 2], [1, 2, 3]).pvalue
        kept = [v for v, p in ((d1, p1), (d3, p3)) if p <= 0.5]
        assert got[InputRule("skip", 0.5)][:2] == (pytest.approx(np.mean(kept)), len(kept))

    def test_document_bootstrap_is_the_rule_on_each_resample(self):
        f = _tiny()
        rs = stats.resample_indices(4, 3, "inputs", 30, 1)
        out = stats.correlate(f, "x", "y", level="input", methods=["kendall_b"], n_resamples=30, indices=rs,
                              input_rule=InputRule("zero"), ci=0.5)
        per_doc = np.array([4 / 6, 0.0, -1.0])
        means = np.sort([per_doc[idx].mean() for idx in rs.inputs])
        assert out.loc[0, "ci_low"] == pytest.approx(np.percentile(means, 25))
        assert out.loc[0, "ci_high"] == pytest.approx(np.percentile(means, 75))

    def test_tests_use_the_rule(self):
        f = _tiny().assign(z=lambda d: d["x"].where(d["doc_id"] != "d1", d["y"]))
        for test in ("permutation", "bootstrap", "williams"):
            skip = stats.compare_measures(f, ["x", "z"], "y", level="input", method="kendall_b", test=test,
                                          n_resamples=20)
            zero = stats.compare_measures(f, ["x", "z"], "y", level="input", method="kendall_b", test=test,
                                          n_resamples=20, input_rule=InputRule("zero"))
            corr = stats.correlate(f, ["x", "z"], "y", level="input", methods=["kendall_b"], n_resamples=0,
                                   input_rule=InputRule("zero")).set_index("metric")["value"]
            assert zero.loc[0, "corr_a"] == pytest.approx(corr["x"])
            assert zero.loc[0, "corr_b"] == pytest.approx(corr["z"])
            assert zero.loc[0, "corr_a"] != pytest.approx(skip.loc[0, "corr_a"]), test

    def test_bad_rules(self):
        with pytest.raises(InputError, match="--undefined-as 'nan'"):
            InputRule("nan")
        with pytest.raises(InputError, match="--significant-inputs 1.5"):
            InputRule("skip", 1.5)


# ------------------------------------------------------------------------------------------------
# RoSE: correlation.py's undefined-as-0 rule
# ------------------------------------------------------------------------------------------------
#: RoSE correlation.py, summary level (correlation_summ, _cal_kendall) and system level (correlation_system), human
#: vs length (words). The system level is not the protocol's: RoSE's float means split exact ties (ref_free: brio-ext,
#: ctrlsum and matchsum have equal means, 3.6533333333333338 / ...333 in floats), so its ref_free and ref_based
#: values (0.748, -0.394) differ from sumeval's tied ones (0.791, -0.400); kept here as the record
ROSE_LENGTH = {"prior": (0.34928407574901643, 0.6363636363636362),
               "ref_free": (0.43783393423374617, 0.7481134002767627),
               "ref_based": (-0.0760649680710336, -0.39393939393939387),
               "acu": (0.2221486835046156, 0.3333333333333333),
               "normalized_acu": (-0.04203940276255245, -0.1212121212121212)}
#: RoSE correlation.py, summary level, human acu vs the other protocols (Kendall; Pearson for acu/normalized_acu)
ROSE_ACU = {("prior", "kendall_b"): 0.17281407164619467, ("ref_free", "kendall_b"): 0.20834847812310056,
            ("ref_based", "kendall_b"): 0.2645963592602047, ("normalized_acu", "kendall_b"): 0.8013887014682932,
            ("normalized_acu", "pearson"): 0.9059864145755347}


def test_rose_protocol_equals_roses_correlation_py(tmp_path):
    out = tmp_path / "rose"
    assert _cli(["rose", "--protocol", "rose", "--human", *ROSE_LENGTH, "--measures", "length",
                 "--n-resamples", "20", "--out", str(out)]) == 0
    c = _corr(out).query("measure == 'length'").set_index(["human", "level"])
    for h, (summ, _system) in ROSE_LENGTH.items():
        assert c.loc[(h, "input"), "value"] == pytest.approx(summ, abs=1e-12), h
        assert c.loc[(h, "input"), "n"] == 100  # every document, the undefined one (acu) as 0
    assert set(c.index.get_level_values("level")) == {"input"}
    # sumeval's default leaves acu's constant document out: another number
    assert _cli(["rose", "--human", "acu", "--measures", "length", "--level", "input", "--n-resamples", "10",
                 "--out", str(tmp_path / "skip")]) == 0
    skip = _corr(tmp_path / "skip").query("measure == 'length'").iloc[0]
    assert (skip["n"], skip["n_skipped"]) == (99, 1)
    # RoSE's mean is the sum of the 99 defined values over 100; sumeval's default the same sum over 99
    assert skip["value"] == pytest.approx(ROSE_LENGTH["acu"][0] * 100 / 99, abs=1e-12)


def test_rose_rule_between_protocols_on_a_user_file(tmp_path):
    from sumeval.datasets import load_rose

    f = load_rose()[["doc_id", "system", "acu", "prior", "ref_free", "ref_based", "normalized_acu"]]
    path = tmp_path / "rose_protocols.csv"
    f.rename(columns={c: f"{c}_score" for c in ("prior", "ref_free", "ref_based", "normalized_acu")}).to_csv(
        path, index=False)
    out = tmp_path / "out"
    measures = [f"{c}_score" for c in ("prior", "ref_free", "ref_based", "normalized_acu")]
    assert _cli([str(path), "--human", "acu", "--measures", *measures, "--undefined-as", "zero", "--level", "input",
                 "--coefficient", "kendall_b", "pearson", "--n-resamples", "20", "--out", str(out)]) == 0
    c = _corr(out).set_index(["measure", "coefficient"])
    for (m, coef), want in ROSE_ACU.items():
        assert c.loc[(f"{m}_score", coef), "value"] == pytest.approx(want, abs=1e-12), (m, coef)
    pairs = pd.read_csv(out / "pairwise.csv")
    kb = c.xs("kendall_b", level="coefficient")["value"]
    row = pairs[(pairs["coefficient"] == "kendall_b")].iloc[0]
    assert row["corr_a"] == pytest.approx(kb[row["measure_a"]], abs=1e-12)  # the tests average as the table does


# ------------------------------------------------------------------------------------------------
# REALSumm: the p <= 0.05 document selection (biased, warned)
# ------------------------------------------------------------------------------------------------
#: REALSumm analysis/utils.py print_ktau_matrix, each metric against litepyramid_recall
REALSUMM_PRINTED = {"bert_recall_score": 0.46838622087890563, "mover_score": 0.43599197955352864,
                    "rouge_1_recall": 0.48913594431561247, "rouge_2_recall": 0.4859542610414608,
                    "rouge_l_recall": 0.4870908341119741, "js-2": 0.4254850921291276}
#: the same selection among the metrics (row metric, column metric), from the same printed matrix
REALSUMM_METRIC_PAIRS = {("rouge_1_recall", "rouge_l_recall"): 0.862613115265533,
                         ("bert_recall_score", "mover_score"): 0.5433606686830731}


def _realsumm_file(tmp_path) -> Path:
    from sumeval.datasets.realsumm import load_realsumm

    shelf = load_realsumm()[["doc_id", "system", "litepyramid_recall"]].astype({"doc_id": str})
    metrics = pd.read_csv(FIXTURE).astype({"doc_id": str})
    f = shelf.merge(metrics, on=["doc_id", "system"], how="inner", validate="one_to_one")
    assert len(f) == 2500
    path = tmp_path / "realsumm_metrics.csv"
    f.to_csv(path, index=False)
    return path


def test_realsumm_significant_inputs_reproduce_the_printed_values(tmp_path, capsys):
    path = _realsumm_file(tmp_path)
    out = tmp_path / "sig"
    assert _cli([str(path), "--human", "litepyramid_recall", "--measures", *[f"column:{m}" for m in REALSUMM_PRINTED],
                 "--significant-inputs", "0.05", "--level", "input", "--coefficient", "kendall_b",
                 "--n-resamples", "20", "--out", str(out)]) == 0
    assert "warning: biased reproduction rule: --significant-inputs 0.05" in capsys.readouterr().err
    c = _corr(out).query("role == 'measure'").set_index("measure")
    plain = stats.correlate(pd.read_csv(path), list(REALSUMM_PRINTED), "litepyramid_recall", level="input",
                            methods=["kendall_b"], n_resamples=0).set_index("metric")["value"]
    for m, want in REALSUMM_PRINTED.items():
        assert c.loc[m, "value"] == pytest.approx(want, abs=1e-12), m
        assert c.loc[m, "n"] < 100
        assert 0.08 <= want - plain[m] <= 0.17, m  # the selection's upward bias (the 0.08-0.17)
    manifest = (out / "manifest.json").read_text()
    assert '"significant_inputs": 0.05' in manifest
    # the metric-metric cells of the printed matrix, through the stats API
    f = pd.read_csv(path)
    for (a, b), want in REALSUMM_METRIC_PAIRS.items():
        r = stats.correlate(f, a, b, level="input", methods=["kendall_b"], n_resamples=0,
                            input_rule=InputRule("skip", 0.05)).iloc[0]
        assert r["value"] == pytest.approx(want, abs=1e-12)


def test_realsumm_protocol_on_the_shelf_set(tmp_path, capsys):
    out = tmp_path / "rs"
    assert _cli(["realsumm", "--protocol", "realsumm", "--measures", "length", "--n-resamples", "20",
                 "--out", str(out)]) == 0
    assert "biased reproduction rule" in capsys.readouterr().err
    r = _corr(out).query("measure == 'length'").iloc[0]
    assert (r["human"], r["level"], r["coefficient"], r["n"]) == ("litepyramid", "input", "kendall_b", 41)
    assert r["value"] == pytest.approx(0.41906764765872695, abs=1e-12)  # get_doc_y_val, pval <= 0.05
    assert r["ci_low"] <= r["value"] <= r["ci_high"]


# ------------------------------------------------------------------------------------------------
# XSumFaith: Maynez et al. Table 4; FRANK; mt-metrics-eval
# ------------------------------------------------------------------------------------------------
#: scipy.stats.spearmanr on the authors' eval_scores (faithful, factual)
XSUMFAITH_TABLE4 = {"R1": (0.19683326252423866, 0.12466209966018496), "R2": (0.16176233515153593, 0.09501135878527353),
                    "RL": (0.16203013598792568, 0.11344326463935922),
                    "BERTScore": (0.1899822422857876, 0.115807407082242),
                    "Entailment": (0.43060614443571243, 0.26413080529708033)}
#: the paper's printed cells (three decimals)
XSUMFAITH_PRINTED = {"R1": (0.197, 0.125), "R2": (0.162, 0.095), "RL": (0.162, 0.113), "BERTScore": (0.190, 0.116),
                     "Entailment": (0.431, 0.264)}


def test_xsumfaith_protocol_reproduces_table_4(tmp_path):
    out = tmp_path / "xf"
    assert _cli(["xsumfaith", "--protocol", "xsumfaith", "--measures", *[f"xsumfaith.{m}" for m in XSUMFAITH_TABLE4],
                 "--no-annotators", "--n-resamples", "10", "--out", str(out)]) == 0
    c = _corr(out).set_index(["measure", "human"])
    assert set(_corr(out)[["level", "coefficient"]].itertuples(index=False, name=None)) == {("global", "spearman")}
    for m, (faithful, factual) in XSUMFAITH_TABLE4.items():
        for h, want, printed in (("faithful", faithful, XSUMFAITH_PRINTED[m][0]),
                                 ("factual", factual, XSUMFAITH_PRINTED[m][1])):
            got = c.loc[(f"xsumfaith.{m}", h), "value"]
            assert got == pytest.approx(want, abs=1e-12), (m, h)
            assert round(got, 3) == printed, (m, h)


def test_frank_protocol_equals_the_authors_evaluate_py(tmp_path):
    FRANK_PARTIAL = import_test_module("stats/test_partial_and_sentinels.py").FRANK_PARTIAL

    out = tmp_path / "frank"
    assert _cli(["frank", "--protocol", "frank", "--measures", "frank.QAGS", "frank.FactCC", "frank.Rouge_L",
                 "--no-annotators", "--n-resamples", "10", "--out", str(out)]) == 0
    c = _corr(out).set_index(["measure", "coefficient"])
    assert set(_corr(out)["level"]) == {"partial"} and set(_corr(out)["human"]) == {"factuality"}
    for m in ("QAGS", "FactCC", "Rouge L"):
        pearson, spearman = FRANK_PARTIAL["all"][m]
        assert c.loc[("frank." + m.replace(" ", "_"), "pearson"), "value"] == pytest.approx(pearson, abs=1e-9)
        assert c.loc[("frank." + m.replace(" ", "_"), "spearman"), "value"] == pytest.approx(spearman, abs=1e-9)


def test_mtme_protocol_is_the_uncorrected_one_sided_clusters(tmp_path):
    from sumeval.datasets import load_rose

    path = tmp_path / "r.csv"
    load_rose()[["doc_id", "system", "acu", "prior", "ref_free", "ref_based"]].to_csv(path, index=False)
    common = [str(path), "--human", "acu", "--measures", "prior", "ref_free", "ref_based", "--level", "system",
              "--n-resamples", "30"]
    assert _cli([*common, "--protocol", "mtme", "--out", str(tmp_path / "a")]) == 0
    assert _cli([*common, "--correction", "none", "--alternative", "one-sided", "--out", str(tmp_path / "b")]) == 0
    a, b = (pd.read_csv(tmp_path / d / "pairwise.csv") for d in "ab")
    assert (a["correction"] == "none").all() and set(a["alternative"]) <= {"less", "greater"}
    pd.testing.assert_frame_equal(a, b)


# ------------------------------------------------------------------------------------------------
# bad input: a protocol on another set, a contradicting option, an unknown name, a rule without its level
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["summeval", "--protocol", "rose", "--human", "relevance"], ["--protocol rose", "data set rose",
                                                                   "'summeval'"]),
    (["rose", "--protocol", "rose", "--human", "acu", "--undefined-as", "skip"],
     ["--undefined-as skip contradicts --protocol rose", "--undefined-as zero"]),
    (["rose", "--protocol", "mtme", "--human", "acu", "--correction", "holm"], ["--correction holm contradicts"]),
    (["rose", "--protocol", "rose", "--human", "acu", "--level", "global"], ["--level global contradicts"]),
    (["rose", "--protocol", "nope", "--human", "acu"], ["'nope' is not a protocol", "frank, xsumfaith"]),
    (["rose", "--human", "acu", "--undefined-as", "zero", "--level", "system"], ["has no input level"]),
    (["rose", "--human", "acu", "--significant-inputs", "1.5"], ["--significant-inputs 1.5"]),
])
def test_clear_errors(tmp_path, capsys, args, words):
    rc = _cli([*args, "--measures", "length", "--n-resamples", "5", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert rc == 2 and "Traceback" not in err
    for w in words:
        assert w in err, (w, err)
    assert not (tmp_path / "o" / "correlations.csv").exists()
