"""The explorer (sumeval.widgets): multi-select filters, rows ordered by value with intervals and
clusters in display names, the run and parameter set chosen from the runs on disk, the views of
meta-evaluation, the shelf and the LLM judges, and no silent averaging.

The logic is tested on the widget objects here; ``test_lab_browser.py`` drives the same explorer in
JupyterLab in a real browser (:func:`make_runs` builds the runs both use)."""
from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sumeval import widgets  # noqa: E402
from sumeval.errors import InputError  # noqa: E402

MEASURES = {"rouge-1": 0.30, "bertscore": 0.45, "bleu": 0.10}  # values on consistency / input


def _value(measure: str, human: str, level: str) -> float:
    return round(MEASURES[measure] + (0.2 if human == "relevance" else 0) + (0.05 if level == "system" else 0), 4)


def _manifest(run: Path, params: dict, started: str, status: str = "ok") -> None:
    (run / "manifest.json").write_text(json.dumps({"status": status, "parameter_set": params.pop("_set", "smoke"),
                                                   "started": started, "parameters": params}))


def make_runs(root: Path) -> Path:
    """Runs on disk under ``root``: two of meta_evaluation (smoke, default), one of the shelf, one of
    llm_judges, one failed (not listed). Values: :func:`_value`; clusters: 1 for the best, 2 else."""
    rows = [dict(measure=m, human=h, level=lv, coefficient="kendall_b", value=_value(m, h, lv),
                 ci_low=_value(m, h, lv) - 0.05, ci_high=_value(m, h, lv) + 0.05, n=10)
            for h in ("consistency", "relevance") for lv in ("input", "system") for m in MEASURES]
    corr = pd.DataFrame(rows)
    ranking = corr[["measure", "human", "level", "coefficient"]].copy()
    ranking["rank"] = corr.groupby(["human", "level"])["value"].rank(ascending=False).astype(int)
    ranking["cluster"] = ranking["rank"].clip(upper=2)
    for run_id, pset, started, shift in (("smoke-aaa", "smoke", "2026-01-01T10:00:00", 0.0),
                                         ("default-bbb", "default", "2026-01-02T10:00:00", 0.01)):
        run = root / "meta_evaluation" / run_id
        (run / "meta-eval").mkdir(parents=True)
        corr.assign(value=corr["value"] + shift).to_csv(run / "meta-eval" / "correlations.csv", index=False)
        ranking.to_csv(run / "meta-eval" / "ranking.csv", index=False)
        _manifest(run, {"_set": pset, "dataset": "summeval", "coefficients": "kendall_b"}, started)
    failed = root / "meta_evaluation" / "smoke-ccc"
    failed.mkdir()
    _manifest(failed, {"dataset": "summeval"}, "2026-01-03T10:00:00", status="failed")
    shelf = root / "shelf" / "smoke-ddd"
    (shelf / "across").mkdir(parents=True)
    cells = corr.assign(dataset="frank", kind="correlation", status="ok", reason=None,
                        rank=ranking["rank"], cluster=ranking["cluster"])
    cells = pd.concat([cells, cells.assign(dataset="qags-c", value=cells["value"] - 0.1),
                       cells.head(1).assign(dataset="rank19", status="skipped", value=None)], ignore_index=True)
    cells.to_csv(shelf / "across" / "across.csv", index=False)
    _manifest(shelf, {"datasets": "shelf"}, "2026-01-01T11:00:00")
    judges = root / "llm_judges" / "smoke-eee"
    (judges / "llm_judges").mkdir(parents=True)
    corr.assign(kind="offline", cluster=ranking["cluster"]).to_csv(judges / "llm_judges" / "correlations.csv",
                                                                    index=False)
    pd.DataFrame([dict(measure="human ceiling", kind="ceiling", human="relevance", level="input",
                       coefficient="kendall_b", value=0.9, ci_low=0.85, ci_high=0.95, cluster=None)]).to_csv(
        judges / "llm_judges" / "ceiling.csv", index=False)
    _manifest(judges, {"judges": "none"}, "2026-01-01T12:00:00")
    return root


def test_runs_on_disk_lists_the_finished_runs_newest_first(tmp_path):
    runs = widgets.runs_on_disk(make_runs(tmp_path))
    assert list(zip(runs["study"], runs["run_id"], runs["parameter_set"])) == [
        ("meta_evaluation", "default-bbb", "default"), ("meta_evaluation", "smoke-aaa", "smoke"),
        ("shelf", "smoke-ddd", "smoke"), ("llm_judges", "smoke-eee", "smoke")]  # the failed run is not listed
    assert runs.loc[0, "parameters"] == {"dataset": "summeval", "coefficients": "kendall_b"}
    assert widgets.runs_on_disk(tmp_path / "nothing").empty


def test_explorer_orders_by_value_with_intervals_and_clusters_in_display_names(tmp_path):
    box = widgets.run_explorer(make_runs(tmp_path))
    assert box.study.value == "meta_evaluation" and box.run.label.startswith("default · default-bbb")
    ex = box.explorer
    # each setting starts on the first row's value (one coefficient: nothing to choose): one row per measure,
    # nothing pooled, a chart drawn
    assert {c: s.value for c, s in ex.filters.items()} == {"human": ("consistency",), "level": ("input",),
                                                           "coefficient": (), "measure": ()}
    table = ex.last_table
    assert list(table["Measure"]) == ["BERTScore", "ROUGE-1", "BLEU"]  # by value, highest first; display names
    assert list(table["value"]) == [0.46, 0.31, 0.11]  # the default run (+0.01)
    assert list(table["95% interval"]) == ["[0.400, 0.500]", "[0.250, 0.350]", "[0.050, 0.150]"]  # as in the file
    assert list(table["cluster"]) == ["1", "2", "2"] and set(table["Human"]) == {"Consistency"}
    assert ex.last_chart and "nothing pooled" in ex.last_note

    ex.filters["human"].value = ("relevance",)  # a click
    assert list(ex.last_table["value"]) == [0.66, 0.51, 0.31] and set(ex.last_table["Human"]) == {"Relevance"}

    # two levels chosen: both kept as their own rows, the chart withheld, the note says what varies
    ex.filters["level"].value = ("input", "system")
    assert len(ex.last_table) == 6 and not ex.last_chart
    assert "Level (2)" in ex.last_note and "nothing averaged" in ex.last_note
    assert list(ex.last_table["Level"]) == ["Input"] * 3 + ["System"] * 3  # grouped, each group by value
    assert list(ex.last_table["value"]) == [0.66, 0.51, 0.31, 0.71, 0.56, 0.36]

    # another run of the same study (another parameter set): its values
    box.run.value = next(v for label, v in box.run.options if label.startswith("smoke · smoke-aaa"))
    assert list(box.explorer.last_table["value"]) == [0.45, 0.30, 0.10]


@pytest.mark.parametrize("study, first_filter, rows", [("shelf", "coefficient", 3), ("llm_judges", "dataset", 3)])
def test_the_same_views_for_the_shelf_and_the_judges(study, first_filter, rows, tmp_path):
    box = widgets.run_explorer(make_runs(tmp_path))
    box.study.value = study
    ex = box.explorer
    assert next(iter(ex.filters)) == first_filter and len(ex.last_table) == rows and ex.last_chart
    assert list(ex.last_table["Measure"]) == ["BERTScore", "ROUGE-1", "BLEU"]
    if study == "llm_judges":  # a measure's kind is its own, not a setting: offline measures and the ceiling together
        assert ex.filters["kind"].value == () and ex.filters["human"].value == ("consistency",)
        ex.filters["human"].value = ("relevance",)
        assert list(ex.last_table["Measure"]) == ["Human ceiling (mean of annotators)", "BERTScore", "ROUGE-1", "BLEU"]
        assert ex.last_chart and "nothing pooled" in ex.last_note
    if study == "shelf":  # only the cells with a value; two data sets, chosen one at a time
        assert set(box.explorer.current()["dataset"]) == {"frank"}
        ex.filters["dataset"].value = ("frank", "qags-c")
        assert not ex.last_chart and "Data set (2)" in ex.last_note  # the varying column by its display name
        assert "rank19" not in [v for _, v in ex.filters["dataset"].options]


def test_no_runs_and_a_half_written_run(tmp_path):
    box = widgets.run_explorer(tmp_path)
    assert box.explorer is None and "no finished run" in box.children[0].value
    run = make_runs(tmp_path / "r") / "meta_evaluation" / "smoke-aaa"
    (run / "meta-eval" / "ranking.csv").unlink()
    with pytest.raises(InputError, match="ranking.csv is missing"):
        widgets.load_run_frame("meta_evaluation", run)
