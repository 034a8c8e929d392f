"""Summary of a Haystack's judge-validation set on the shelf (sumeval.datasets.loaders.summhay): MANIFEST's
counts, the coverage score by hand and recomputed from the file, the (summary, insight) level, the levels and
refusals, and the paper's evaluation of the evaluators against the values its authors print.

The printed values are the two outputs of Eval_Benchmarking.ipynb in salesforce/summary-of-a-haystack (commit
94f7cdd7, the notebook that ships with data/eval_benchmark_data.json): "Results for Insight Coverage Prediction"
(instance-level correlation and linking accuracy, rounded to 3 places) and the "Auto-Eval Bias Analysis" table
(also 3 places). The notebook is not in the data folder; the values are copied here as printed.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from sumeval.datasets.judgments_model import check_level
from sumeval.datasets.registry import locate
from sumeval.errors import DataNotFoundError, InputError

try:
    locate("summhay_eval/eval_benchmark_data.json", verify=False)
    HAVE = True
except DataNotFoundError:
    HAVE = False
needs_data = pytest.mark.skipif(not HAVE, reason="summhay_eval/ not found; see data/README.md")

# Eval_Benchmarking.ipynb, section 2: judge -> (Instance-Level Corr Coeff, Accuracy (linking))
PRINTED_JUDGES = {"gemini-1.5-pro": (0.751, 0.893), "gpt-4o-9fs": (0.719, 0.892), "gpt-4o": (0.716, 0.889),
                  "claude3-opus": (0.677, 0.879), "claude3-haiku": (0.498, 0.877), "gpt3.5": (0.495, 0.867)}
# Eval_Benchmarking.ipynb, section 3: row -> (gpt-4o, claude3-opus, gemini-1.5-pro), in the printed order
PRINTED_BIAS = [("claude3-sonnet", (0.027, -0.001, -0.012)), ("gemini-1.5-flash", (0.032, 0.009, -0.025)),
                ("claude3-opus", (0.040, 0.011, 0.019)), ("gpt3.5", (0.009, 0.050, 0.048)),
                ("gemini-1.5-pro", (0.057, 0.042, 0.041)), ("gpt4-turbo", (0.063, 0.080, 0.042)),
                ("claude3-haiku", (0.057, 0.088, 0.052)), ("gpt-4o", (0.070, 0.078, 0.080)),
                ("command-r-plus", (0.064, 0.128, 0.071)), ("Avg. Summarizer Bias", (0.047, 0.054, 0.035)),
                ("Length <-> Delta (Correlation)", (0.023, -0.047, -0.078)),
                ("Length <-> Score (Correlation)", (-0.119, -0.169, -0.175))]


@pytest.fixture(scope="module")
def judgments():
    from sumeval.datasets.shelf import load_builtin

    return load_builtin("summhay")


def _raw():
    return json.loads(locate("summhay_eval/eval_benchmark_data.json").read_text(encoding="utf-8"))


def test_coverage_score_by_hand():
    """Full 1, partial 0.5, none 0, averaged over the insights (utils_eval's compute_single_sample_results)."""
    from sumeval.datasets.loaders.summhay import coverage_score, words_per_line

    assert coverage_score(["fully_covered", "partially_covered", "not_covered", "not_covered"]) == 0.375
    assert coverage_score(["FULL_COVERAGE", "FULL_COVERAGE"]) == 1.0 and coverage_score(["NO_COVERAGE"]) == 0.0
    with pytest.raises(InputError, match="without reference insights"):
        coverage_score([])
    # "a  b\nc d" -> "a b\nc d": 2 spaces + 1 = 3 "words" over 2 lines; the notebook counts spaces only, so a
    # single newline does not separate words ("a b\nc": 1 space + 1 = 2)
    assert words_per_line(["a  b", "c d"]) == 1.5 and words_per_line(["a  b", "c"]) == 1.0


@needs_data
def test_counts_columns_and_the_aggregation(judgments):
    f = judgments.frame
    assert (len(judgments), len(judgments.documents), len(judgments.systems)) == (200, 29, 53)
    assert judgments.humans == ("coverage",) and judgments.annotators == {}
    assert Counter(f["llm"])["gpt4-turbo"] == 31 and Counter(f["retriever"])["full-context"] == 32
    assert int(f["insights"].sum()) == 1419 and int(f["lines"].sum()) == 1566
    # every summary's coverage recomputed straight from the file's labels (1 / 0.5 / 0, mean per summary)
    score = {"fully_covered": 1.0, "partially_covered": 0.5, "not_covered": 0.0}
    raw = _raw()
    assert f["coverage"].tolist() == [np.mean([score[a["coverage"]] for a in r["annotation"]]) for r in raw]
    assert [s.split("\n") for s in f["summary"]] == [r["summary"] for r in raw]
    assert judgments.default_measures == () and judgments.opt_in_measures == (
        "gpt-4o.coverage", "claude3-haiku.coverage", "claude3-opus.coverage", "gemini-1.5-pro.coverage",
        "gpt3.5.coverage", "gpt-4o-9fs.coverage")
    assert set(f["system"]) >= {"gpt-4o", "oracle_gpt-4o", "dwzhu/e5-base-4k_claude3-opus"}
    assert "full-context" not in set(f.loc[f["llm"] == "gpt3.5", "retriever"])       # why 53, not 54


@needs_data
def test_insight_level_is_the_finer_export(judgments):
    from sumeval.datasets.loaders.summhay import load_summhay_insights

    ins = load_summhay_insights()
    assert len(ins) == 1419
    assert Counter(ins["coverage"]) == {1.0: 567, 0.5: 386, 0.0: 466}
    # the summary level is the mean of the insight level, for the humans and every judge
    for col in ("coverage", *judgments.opt_in_measures):
        mean = ins.groupby(["doc_id", "system"], sort=False)[col].mean()
        assert np.allclose(mean.to_numpy(), judgments.frame.set_index(["doc_id", "system"]).loc[mean.index, col])
    assert Counter(type(b).__name__ for b in ins["gpt-4o.bullet_id"]) == Counter(
        type(a["bullet_id"]).__name__ for r in _raw() for a in r["predictions_prompted_gpt-4o"])


@needs_data
def test_the_judge_table_is_the_printed_one():
    from sumeval.datasets.loaders.summhay import judge_table

    table = judge_table()
    got = {r.judge: (round(r.correlation, 3), round(r.linking_accuracy, 3)) for r in table.itertuples()}
    assert got == PRINTED_JUDGES
    assert set(table["pairs"]) == {1419}


@needs_data
def test_the_bias_table_is_the_printed_one(judgments):
    from sumeval.datasets.loaders.summhay import bias_table

    table = bias_table(judgments.frame)
    got = [(r["row"], tuple(round(r[j], 3) for j in ("gpt-4o", "claude3-opus", "gemini-1.5-pro")))
           for _, r in table.iterrows()]
    assert [g[0] for g in got] == [p[0] for p in PRINTED_BIAS]
    for (row, vals), (_, want) in zip(got, PRINTED_BIAS):
        assert vals == pytest.approx(want, abs=1e-9), row


@needs_data
def test_levels_and_refusals_are_stated(judgments):
    for level in ("input", "system", "global"):
        assert check_level(judgments, level, "coverage")["pairs"] == 200
    assert judgments.systems_missing_documents                                 # not crossed: said so
    text = judgments.describe()
    assert "cannot     annotator columns: one manual label per (summary, insight)" in text
    from sumeval.metrics.sources import resolve_measures

    with pytest.raises(InputError, match="SummHay has no reference summaries"):
        resolve_measures(["rouge-1"], judgments)


@needs_data
def test_a_misaligned_or_recounted_file_is_refused(tmp_path, monkeypatch):
    """A prediction list out of the insights' order, or a record removed: refused naming the file."""
    from sumeval.datasets import registry
    from sumeval.datasets.loaders import summhay as sh

    raw = _raw()
    bad = tmp_path / "eval_benchmark_data.json"
    monkeypatch.setattr(registry, "locate", lambda rel, verify=True: bad)
    swapped = json.loads(json.dumps(raw))
    p = swapped[0]["predictions_prompted_gpt3.5"]
    p[0], p[1] = p[1], p[0]
    bad.write_text(json.dumps(swapped), encoding="utf-8")
    with pytest.raises(InputError, match=r"eval_benchmark_data\.json: record 0 .*predictions_prompted_gpt3\.5 is "
                                         r"not one label"):
        sh.load_summhay()
    bad.write_text(json.dumps(raw[:-1]), encoding="utf-8")
    with pytest.raises(InputError, match=r"the number of records is 199, MANIFEST\.md records 200"):
        sh.load_summhay()
