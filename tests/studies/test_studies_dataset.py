"""The SummEval-bound studies on a user's judgments file (their ``dataset`` parameter).

A file in a user's own shape (tests/data/user_judgments.csv: article_id, model, output, source,
gold, human faithful / overall, annotators overall/ann1, overall/ann2, measure my_metric) is
registered with ``sumeval data add`` (in a temporary registry) and each study runs on it through
the runner (smoke set, MiniLM). The numbers the studies report on it are checked against direct
computations on the file (scipy, numpy); the bad inputs get errors that say what to do.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sumeval import cli, table_frames
from sumeval.errors import InputError
from sumeval.running import runner
from sumeval.studies import metric_correlations as mc
from sumeval.studies.common import study_data

from helpers import REPO_ROOT, TEST_DATA, model_installed, one_row  # noqa: E402  (tests/ is on the path)

USER_CSV = TEST_DATA / "user_judgments.csv"
EXAMPLES = REPO_ROOT / "examples"
ADD = ["data", "add", "mine", str(USER_CSV), "--doc-col", "article_id", "--system-col", "model",
       "--summary-col", "output", "--text-col", "source", "--references-col", "gold",
       "--human", "faithful,overall"]
needs_minilm = pytest.mark.skipif(not model_installed("all-MiniLM-L6-v2"), reason="MiniLM not installed")


@pytest.fixture(scope="module")
def registered(tmp_path_factory):
    """``sumeval data add mine tests/data/user_judgments.csv ...`` in a temporary registry."""
    registry = tmp_path_factory.mktemp("registry") / "user_datasets.json"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SUMEVAL_DATA_REGISTRY", str(registry))
        assert cli.main(ADD) == 0
        assert json.loads(registry.read_text())["datasets"]["mine"]["rows"] == 12
        yield "mine"


@pytest.fixture(scope="module")
def user_frame():
    """The file as a user reads it (12 rows: 4 articles x 3 models)."""
    return pd.read_csv(USER_CSV)


def _run(study: str, **overrides):
    res = runner.run_study(study, "smoke", overrides)
    assert res.ok, res.error
    return res


def _tables(res, name):
    return {p.suffix for p in (res.run_dir / "tables").glob(f"{name}.*")}


def _system_means(frame, col):
    return frame.groupby("model", sort=False)[col].mean()


# --------------------------------------------------------------------------------------------
# metric_correlations
# --------------------------------------------------------------------------------------------
@pytest.mark.slow
@needs_minilm
def test_metric_correlations_on_a_user_file(registered, user_frame):
    from sumeval.metrics import score_records
    from sumeval.metrics.user_scorers import load_scorer_class

    res = _run("metric_correlations", dataset=registered, system_dataset=registered, n_docs=4,
               measures="my_metric,fragments:ExtractiveFragments", module_path=str(EXAMPLES))
    r = res.results
    assert r["n_pairs"] == 12 and r["dataset"]["name"] == "mine" and r["dataset"]["humans"] == ["faithful", "overall"]
    assert "table1_max_abs_diff" not in r and "n_summeval_pairs" not in r  # no paper on a user's data
    t1 = pd.DataFrame(r["table1"])
    assert "paper" not in t1 and set(t1["human"]) == {"faithful", "overall"}
    assert {"ROUGE-1", "BLEU", "my_metric", "fragments"} <= set(t1["metric"])
    assert "BLEU (10 crowd refs)" not in set(t1["metric"])  # SummEval's diagnostic row only on SummEval

    # the precomputed column: pooled (global) Spearman and Kendall tau-c as scipy computes them on the file
    for human in ("faithful", "overall"):
        row = one_row(t1, metric="my_metric", human=human, method="spearman")
        assert row["ours"] == pytest.approx(sps.spearmanr(user_frame["my_metric"], user_frame[human])[0], abs=1e-12)
        assert row["n"] == 12
        row = one_row(t1, metric="my_metric", human=human, method="kendall_c")
        assert row["ours"] == pytest.approx(
            sps.kendalltau(user_frame["my_metric"], user_frame[human], variant="c")[0], abs=1e-12)

    # the user's class: scored here directly through score_records, then correlated by scipy
    cov, _ = score_records([{"summary": s, "text": t} for s, t in zip(user_frame["output"], user_frame["source"])],
                           [load_scorer_class("fragments:ExtractiveFragments", [EXAMPLES])()])
    row = one_row(t1, metric="fragments", human="overall", method="spearman")
    assert row["ours"] == pytest.approx(sps.spearmanr(cov["coverage"], user_frame["overall"])[0], abs=1e-12)
    assert r["measures"]["fragments"].startswith("fragments|")
    assert "class=fragments:ExtractiveFragments" in r["measures"]["fragments"]

    # the three levels: system = per-model means; input = per-article correlation, averaged
    lv = pd.DataFrame(r["levels"])
    assert set(lv["level"]) == {"input", "system", "global"} and r["levels_left_out"] == []
    means = _system_means(user_frame, "my_metric"), _system_means(user_frame, "overall")
    row = one_row(lv, metric="my_metric", human="overall", level="system", method="kendall_b")
    assert row["value"] == pytest.approx(sps.kendalltau(*means)[0], abs=1e-12) and row["n"] == 3
    per_doc = [sps.spearmanr(g["my_metric"], g["overall"])[0] for _, g in user_frame.groupby("article_id")]
    row = one_row(lv, metric="my_metric", human="overall", level="input", method="spearman")
    assert row["value"] == pytest.approx(np.mean(per_doc), abs=1e-12) and row["n"] == 4

    # part (b) on the same file: the paper-001 rows at the system level (3 models), ours alone
    t2 = pd.DataFrame(r["table2"])
    assert set(t2["metric"]) == set(mc.TABLE2_ROWS) and set(t2["n"]) == {3} and "paper" not in t2
    for name in ("table1_mine", "table2_mine", "levels_mine"):
        assert _tables(res, name) == {".csv", ".tex", ".md", ".html"}
        assert (res.run_dir / "figures" / f"{name}.png").is_file()
    csv = pd.read_csv(res.run_dir / "tables" / "table1_mine.csv", header=[0, 1], index_col=0)
    assert csv.loc["my_metric", ("overall", "spearman")] == pytest.approx(
        one_row(t1, metric="my_metric", human="overall", method="spearman")["ours"])
    tex = (res.run_dir / "tables" / "table1_mine.tex").read_text()
    assert "\\toprule" in tex and "\\textbf{" in tex


# --------------------------------------------------------------------------------------------
# the paper-000 studies: texts and summaries through the same engine
# --------------------------------------------------------------------------------------------
@pytest.mark.slow
@needs_minilm
def test_estime_layers_on_a_user_file(registered, user_frame):
    res = _run("estime_layers", dataset=registered)
    r = res.results
    # smoke: the first 3 articles, the first 3 models -> 9 of the file's rows
    assert r["n_pairs"] == 9 and r["dataset"]["rows"] == 9 and r["dataset"]["sha256"] == _sha256(USER_CSV)
    assert r["best_layer_by"] == "faithful"  # no consistency column: the first human column
    t1 = pd.DataFrame(r["table1"])
    assert "paper" not in t1 and set(t1["human"]) == {"faithful", "overall"}
    estime = t1[t1["metric"].isin(["ESTIME", "ESTIME-soft"])]
    assert len(estime) == 2 * 2 * 2 and set(estime["n"]) == {9}
    # the data set's precomputed measure joins the ROUGE rows (first 3 articles, all models: 9 rows)
    first3 = user_frame[user_frame["article_id"].isin(["a1", "a2", "a3"])]
    row = one_row(t1, metric="my_metric", human="overall", method="spearman")
    assert row["ours"] == pytest.approx(sps.spearmanr(first3["my_metric"], first3["overall"])[0], abs=1e-12)
    assert set(pd.DataFrame(r["diagonal"])["human"]) == {"faithful", "overall"}
    assert _tables(res, "table1_estime") == {".csv", ".tex", ".md", ".html"}


@pytest.mark.slow
@needs_minilm
def test_coherence_order_on_a_user_file(registered):
    r = _run("coherence_order", dataset=registered).results
    assert r["n_pairs"] == 9 and r["dataset"]["name"] == "mine"
    assert r["fig5_human"] == "faithful" and set(r["fig6_peaks"]) == {"faithful", "overall"}
    diag = pd.DataFrame(r["fig5_diagonal"])
    assert set(diag["human"]) == {"faithful", "overall"} and set(diag["n"]) == {9}


@pytest.mark.slow
@needs_minilm
def test_layer_probing_on_a_user_file(registered, user_frame):
    r = _run("layer_probing", dataset=registered).results
    assert r["n_texts"] == 3
    first3 = user_frame[user_frame["article_id"].isin(["a1", "a2", "a3"])]
    assert r["n_summaries"] == first3["output"].nunique() == 9


# --------------------------------------------------------------------------------------------
# annotator_impact: the annotators' agreement and the effect of leaving one out
# --------------------------------------------------------------------------------------------
def _krippendorff_interval(a: np.ndarray, b: np.ndarray) -> float:
    """Krippendorff's alpha (interval) of two raters who rated every item, by its definition:
    alpha = 1 - D_o / D_e with the N = 2n pooled values, D_o = (1/N) sum over items of the two
    ordered pairs' squared differences, 2 (a_u - b_u)^2 / (m_u - 1) with m_u = 2, and
    D_e = 1/(N (N - 1)) sum over all ordered pairs of distinct pooled values of (c - k)^2."""
    pooled = np.concatenate([a, b])
    n_values = len(pooled)
    d_o = np.sum(2 * (a - b) ** 2) / n_values
    d_e = np.sum((pooled[:, None] - pooled[None, :]) ** 2) / (n_values * (n_values - 1))
    return 1 - d_o / d_e


@pytest.mark.slow
@needs_minilm
def test_annotator_impact_on_a_user_file(registered, user_frame):
    res = _run("annotator_impact", dataset=registered, measures="my_metric", n_docs=0)
    r = res.results
    assert r["n_pairs"] == 12  # n_docs 0: all of the file's 4 articles
    a1, a2 = user_frame["overall/ann1"].to_numpy(float), user_frame["overall/ann2"].to_numpy(float)
    agree = pd.DataFrame(r["agreement"])
    row = one_row(agree, level="interval")
    assert row["items"] == 12 and row["raters"] == 2 and row["data"].startswith("mine: overall")
    assert row["alpha"] == pytest.approx(_krippendorff_interval(a1, a2), abs=1e-12)
    # each rater against the mean of the others: with two raters, against the other one
    assert row["mean_pearson_vs_others"] == pytest.approx(sps.pearsonr(a1, a2)[0], abs=1e-12)

    loo = pd.DataFrame(r["annotators"]["overall"]["leave_one_out"])
    m = _system_means(user_frame, "my_metric")
    both = user_frame.assign(mean=(user_frame["overall/ann1"] + user_frame["overall/ann2"]) / 2)
    row = one_row(loo, metric="my_metric", method="pearson", annotator="ann1")
    assert row["all"] == pytest.approx(sps.pearsonr(m, _system_means(both, "mean"))[0], abs=1e-12)
    assert row["without"] == pytest.approx(sps.pearsonr(m, _system_means(user_frame, "overall/ann2"))[0], abs=1e-12)
    assert row["effect"] == pytest.approx(row["all"] - row["without"]) and row["n"] == 3
    assert r["annotators"]["overall"]["annotators"] == 2 and r["annotators"]["overall"]["drawn"] == [1]

    # (a) on the file's two references, reference 0 not labelled as SummEval's CNN/DM highlight
    assert {e["label"] for e in r["reference_effects"]} == {"R0", "R1"}
    assert [s["section"] for s in r["skipped"]] == []
    for name in ("table3_references", "agreement", "annotators_overall", "workers_overall"):
        assert _tables(res, name) == {".csv", ".tex", ".md", ".html"}


# --------------------------------------------------------------------------------------------
# what a study refuses, and why
# --------------------------------------------------------------------------------------------
def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _user_shaped(tmp_path, frame: pd.DataFrame, name: str = "j.csv") -> Path:
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path


def _roles_frame(n_docs=2, systems=("a", "b", "c")) -> pd.DataFrame:
    rows = []
    for d in range(n_docs):
        for k, s in enumerate(systems):
            rows.append({"doc_id": f"d{d}", "system": s, "summary": f"summary {k} of {d}",
                         "text": f"the text of document {d} is here", "score": float(k + d)})
    return pd.DataFrame(rows)


def test_dataset_paths_must_be_absolute_and_name_their_humans(tmp_path):
    path = _user_shaped(tmp_path, _roles_frame())
    with pytest.raises(InputError, match=r"relative path.*absolute path.*sumeval data add"):
        study_data.load("j.csv", humans="score")
    with pytest.raises(InputError, match=r"file path: name its human columns with the parameter humans"):
        study_data.load(str(path))
    with pytest.raises(InputError, match="dataset is empty"):
        study_data.load("  ")
    judgments, humans = study_data.load(str(path), humans="score", needs=("summary", "text"))
    assert humans == ["score"] and len(judgments) == 6


def test_a_study_names_the_text_field_a_data_set_lacks(tmp_path):
    from sumeval.studies.common.embedding_extraction import load_study_pairs

    path = _user_shaped(tmp_path, _roles_frame().drop(columns=["text"]))
    with pytest.raises(InputError, match=r"reads the 'text'.*--text-col"):
        load_study_pairs(str(path), humans="score")


def test_a_document_with_two_texts_is_refused(tmp_path):
    from sumeval.studies.common.embedding_extraction import load_study_pairs

    frame = _roles_frame()
    frame.loc[1, "text"] = "another text"
    path = _user_shaped(tmp_path, frame)
    with pytest.raises(InputError, match=r"document 'd0' has 2 different texts.*j\.csv:2"):
        load_study_pairs(str(path), humans="score")


def test_levels_the_data_cannot_support(tmp_path):
    # two systems: the system level is refused where the study needs it (part b), left out with
    # the reason where it is one of several levels
    path = _user_shaped(tmp_path, _roles_frame(n_docs=3, systems=("a", "b")).assign(
        references=lambda f: [json.dumps([f"a reference of {d}"]) for d in f["doc_id"]]))
    with pytest.raises(InputError, match="system level needs at least 3 systems"):
        mc.part_b(str(path), humans="score", n_resamples=0)
    part = mc.part_a(str(path), humans="score", n_resamples=0, bertscore_model="")
    levels, left_out = mc.level_correlations(part)
    assert set(levels["level"]) == {"input", "global"}
    assert len(left_out) == 1 and left_out[0].startswith("system level left out: system level needs at least 3")


def test_the_n_systems_range_is_the_data_sets(tmp_path):
    from sumeval.studies.common.embedding_extraction import load_study_pairs

    path = _user_shaped(tmp_path, _roles_frame())
    with pytest.raises(InputError, match=r"n_systems must be 0 \(all\) or 1\.\.3 \(j has 3 systems\), got 4"):
        load_study_pairs(str(path), humans="score", n_systems=4)
    assert len(load_study_pairs(str(path), humans="score", n_systems=2).pairs) == 4


def test_a_params_sets_n_docs_above_the_data_sets_is_refused_with_the_fix(tmp_path):
    from sumeval.studies.common import study_data

    path = _user_shaped(tmp_path, _roles_frame(n_docs=2))
    with pytest.raises(InputError, match=r"n_docs=5 is more than the 2 documents .* -p n_docs=2 \(or -p n_docs=0"):
        study_data.load(str(path), humans="score", n_docs=5)
    judgments, humans = study_data.load(str(path), humans="score", n_docs=2)
    assert len(judgments.frame) == 6 and humans == ["score"]
    assert len(study_data.load(str(path), humans="score", n_docs=1)[0].frame) == 3


# --------------------------------------------------------------------------------------------
# small pieces
# --------------------------------------------------------------------------------------------
def test_correlation_table_puts_the_paper_under_ours_and_bolds_our_best():
    comparison = pd.DataFrame({
        "metric": ["A", "A", "B", "B", "mine", "mine"],
        "human": ["h"] * 6, "method": ["r", "t"] * 3,
        "ours": [0.1, 0.2, 0.4, 0.1, 0.3, 0.3],
        "paper": [0.5, 0.6, 0.2, np.nan, np.nan, np.nan],
    })
    table, bold = table_frames.correlation_table(comparison)
    # rows: A ours, A paper, B ours, B paper (its one value), mine ours (no paper row: all NaN)
    assert list(table.index) == [("A", "ours"), ("A", "paper"), ("B", "ours"), ("B", "paper"), ("mine", "ours")]
    assert table.loc[("A", "paper"), ("h", "r")] == 0.5
    # best of ours per column: r -> B (0.4), t -> mine (0.3); the paper's 0.5 / 0.6 are never bold
    assert bold.loc[("B", "ours"), ("h", "r")] and bold.loc[("mine", "ours"), ("h", "t")]
    assert int(bold.to_numpy().sum()) == 2
    alone, bold_alone = table_frames.correlation_table(comparison.drop(columns=["paper"]))
    assert list(alone.index) == ["A", "B", "mine"] and bold_alone.loc["B", ("h", "r")]
    with pytest.raises(InputError, match="rows share a table cell"):
        table_frames.correlation_table(pd.concat([comparison, comparison.head(1)]))


def test_names_and_choices():
    assert study_data.file_part("my data/v2") == "my_data_v2"
    assert study_data.selection_human(["faithful", "consistency"]) == "consistency"
    assert study_data.selection_human(["faithful", "overall"]) == "faithful"
    with pytest.raises(InputError):
        study_data.selection_human([])
    assert study_data.split_names(" a, b,,a ") == ["a", "b"]


def _annotated(tmp_path):
    """4 documents x 3 systems, human ``q`` with annotators x and y, two references per row."""
    frame = _roles_frame(n_docs=4)
    frame["x"] = [1, 2, 3, 2, 2, 4, 1, 3, 5, 2, 4, 4]
    frame["y"] = [1, 3, 3, 1, 2, 5, 2, 3, 4, 2, 5, 5]
    frame["q"] = (frame["x"] + frame["y"]) / 2
    frame = frame.rename(columns={"x": "q/x", "y": "q/y"}).drop(columns=["score"])
    frame["references"] = [json.dumps(["first reference", "second reference"])] * len(frame)
    judgments, _ = study_data.load(str(_user_shaped(tmp_path, frame)), humans="q")
    return judgments


def test_annotator_scores_by_hand(tmp_path):
    from sumeval.studies import annotator_impact as ai

    judgments = _annotated(tmp_path)
    rows = ai.annotator_judgments(judgments, "q")
    assert len(rows) == 24 and set(rows["worker"]) == {"x", "y"}
    # the mean of both annotators is the file's q; one drawn annotator per summary gives x or y
    assert ai.mean_of_annotators(rows, "q")["q"].tolist() == judgments.frame["q"].tolist()
    drawn = ai.annotator_subset_scores(rows, "q", [1], 3, seed=0)
    assert sorted(set(drawn["n_workers"])) == [0, 1] and set(drawn["draw"]) == {0, 1, 2}
    one = drawn[drawn["n_workers"] == 1].merge(judgments.frame, on=["doc_id", "system"], suffixes=("", "_file"))
    assert ((one["q"] == one["q/x"]) | (one["q"] == one["q/y"])).all()
    # the same seed draws the same annotators
    pd.testing.assert_frame_equal(drawn, ai.annotator_subset_scores(rows, "q", [1], 3, seed=0))
    with pytest.raises(InputError, match=r"human column 'nothing' has no annotator columns.*annotated: q"):
        ai.annotator_judgments(judgments, "nothing")


def test_reference_pairs_need_the_same_number_of_references(tmp_path):
    from sumeval.studies import annotator_impact as ai

    judgments = _annotated(tmp_path)
    assert list(ai.reference_pairs(judgments, "q").columns) == ["doc_id", "system", "summary", "references", "q"]
    assert ai.reference_label(0, None) == "R0" and ai.reference_label(0) == "R0 (CNN/DM)"
    frame = judgments.frame.copy()
    frame.loc[4, "references"] = ["only one"]
    bad = dataclasses.replace(judgments, frame=frame)
    with pytest.raises(InputError, match=r"same number \(at least 2\) of references on every row; .*j\.csv:6 has 1"):
        ai.reference_pairs(bad, "q")


def test_workers_table_puts_all_workers_last():
    from sumeval.studies import annotator_impact as ai

    summary = pd.DataFrame({"metric": ["m"] * 4, "method": ["pearson", "pearson", "pearson", "spearman"],
                            "n_workers": [0, 1, 2, 1], "mean": [0.9, 0.5, 0.7, 0.1]})
    table = ai.workers_table(summary)
    assert list(table.columns) == ["1", "2", "all"] and table.loc["m"].tolist() == [0.5, 0.7, 0.9]


def test_annotators_part_saves_each_annotated_column_or_skips_with_the_reason(tmp_path, monkeypatch):
    from sumeval.running import run_context
    from sumeval.studies import annotator_impact as ai

    judgments = _annotated(tmp_path)
    monkeypatch.setenv(run_context.RUN_DIR_ENV, str(tmp_path / "run"))
    ctx = run_context.context("annotator_impact", params={})
    sections, ranks, skipped = ai.annotators_part(ctx, judgments, ["q"], judgments.frame[["doc_id", "system"]], [],
                                                  worker_counts=[1], n_draws=2)
    # no measure: every promised output of (b) skipped, with the reason; nothing saved
    assert ranks == {} and [s for s, _ in skipped] == ["(b) the data set's annotators"]
    assert "no measure to correlate" in skipped[0][1] and ctx.tables == [] and ctx.figures == []
    assert ctx.skipped == dict.fromkeys(["annotators_*", "rankings_*", "workers_*"], skipped[0][1])

    ctx = run_context.context("annotator_impact", params={})
    measures = judgments.frame[["doc_id", "system"]].assign(up=judgments.frame["q"], down=-judgments.frame["q"])
    sections, ranks, skipped = ai.annotators_part(ctx, judgments, ["q"], measures, ["up", "down"],
                                                  worker_counts=[1], n_draws=2)
    assert skipped == [] and ctx.skipped == {} and sections["q"]["level"] == "system"
    # up is q itself: first with both annotators kept; down is -q: last
    assert ranks["q"].index.tolist() == ["up", "down"] and ranks["q"]["all"].tolist() == [1, 2]
    assert [Path(t).stem for t in ctx.tables] == ["workers_q", "annotators_q", "rankings_q"]
    assert {Path(f).name for f in ctx.figures} == {"workers_q.pdf", "workers_q.png"}
    assert "Kendall tau-b with the full ranking" in (tmp_path / "run" / "tables" / "rankings_q.tex").read_text()
