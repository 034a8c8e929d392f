"""Judge-Bench's JSON format (sumeval.datasets.judge_bench): export a judgments data set, import it back (a
``.json`` judgments file: ``sumeval data add NAME file.json``), and import Judge-Bench's own file - Newsroom's
raters, whose scores must equal the built-in set's in-place ``<quality>/rater_k`` columns.

Judge-Bench's own conversion of Newsroom (newsroom_raters/newsroom.json, from its data/newsroom/convert.py) is the
reference for what an export must hold: the same mean_human (2 decimals) and the same 1,078 majority_human scores.
"""
from __future__ import annotations

import json
import re

import jinja2
import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.datasets import judge_bench as jb
from sumeval.datasets.judgments import load_judgments
from sumeval.datasets.registry import locate
from sumeval.errors import InputError

from helpers import have_data, needs_data

QUALITIES = ("coherence", "fluency", "informativeness", "relevance")




NEWSROOM_FILES = ("newsroom/newsroom_60x7.jsonl", "newsroom_raters/newsroom.json")
needs_newsroom = needs_data(*NEWSROOM_FILES)


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(tmp_path / "registry" / "user_datasets.json"))
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def newsroom():
    if not have_data(*NEWSROOM_FILES):
        pytest.skip("newsroom data not found")
    return load_judgments("newsroom")


@needs_newsroom
def test_export_import_round_trip_through_the_command_line(newsroom, tmp_path, capsys):
    out = tmp_path / "newsroom.json"
    assert cli.main(["data", "export", "newsroom", "--format", "judge-bench", "-o", str(out)]) == 0
    assert cli.main(["data", "add", "nr", str(out), "--format", "judge-bench", "--human", ",".join(QUALITIES)]) == 0
    back = load_judgments("nr")
    assert back.format == "judge-bench" and dict(back.annotators) == dict(newsroom.annotators)
    a, b = newsroom.frame, back.frame
    for col in ("doc_id", "system", "summary", "text", "references", *newsroom.annotator_columns):
        assert a[col].tolist() == b[col].tolist(), col                       # exactly
    for q in QUALITIES:
        assert np.abs(a[q].to_numpy() - b[q].to_numpy()).max() <= 1e-9      # the mean of the same 3 integers
    capsys.readouterr()


@needs_newsroom
def test_the_export_is_judge_benchs_schema_and_agrees_with_its_own_conversion(newsroom):
    """Against data/newsroom/newsroom.json (Judge-Bench's convert.py): per summary, the same individual scores,
    mean_human (2 decimals) and majority_human, 1,078 of the latter; the prompt renders with Jinja."""
    data = jb.to_judge_bench(newsroom)
    assert set(data) == {"dataset", "dataset_url", "expert_annotator", "original_prompt", "annotations",
                         "instances"}
    assert [(a["metric"], a["category"], a["worst"], a["best"]) for a in data["annotations"]] == [
        (q, "graded", 1, 5) for q in QUALITIES]
    theirs = json.loads(locate("newsroom_raters/newsroom.json").read_text(encoding="utf-8"))
    by_id = {i["id"]: i["annotations"] for i in theirs["instances"]}
    majorities = 0
    for inst, jb_id in zip(data["instances"], newsroom.frame["jb_id"]):
        for q in QUALITIES:
            mine, ref = inst["annotations"][q], by_id[int(jb_id)][q.capitalize()]
            assert mine["individual_human_scores"] == ref["individual_human_scores"]
            assert mine["mean_human"] == ref["mean_human"] and mine.get("majority_human") == ref.get("majority_human")
            majorities += "majority_human" in mine
    assert majorities == 1078
    first = data["instances"][0]
    prompt = data["annotations"][0]["prompt"]
    rendered = jinja2.Template(prompt).render(instance=first["instance"])
    assert rendered == prompt.replace("{{ instance }}", first["instance"])
    assert rendered.endswith(newsroom.frame.at[0, "text"])
    assert jb.split_instance(first["instance"]) == (newsroom.frame.at[0, "summary"], newsroom.frame.at[0, "text"])


@needs_newsroom
def test_importing_judge_benchs_own_file_gives_the_in_place_rater_scores(newsroom):
    raw = load_judgments(str(locate("newsroom_raters/newsroom.json")),
                         human=["Informativeness", "Relevance", "Fluency", "Coherence"])
    assert (len(raw), raw.format, raw.systems) == (420, "judge-bench", [jb.SYSTEM])
    raw_by_id = raw.frame.set_index("doc_id")                    # doc_id = the instance id: none other is there
    rows = raw_by_id.loc[newsroom.frame["jb_id"].tolist()]
    for q in QUALITIES:
        for k in (1, 2, 3):
            assert rows[f"{q.capitalize()}/rater_{k}"].tolist() == newsroom.frame[f"{q}/rater_{k}"].tolist()
        assert np.abs(rows[q.capitalize()].to_numpy() - newsroom.frame[q].to_numpy()).max() <= 1e-9
    from sumeval.datasets.judgments_model import check_level

    with pytest.raises(InputError, match=r"system level needs at least 3 systems; newsroom .* has 1 \('judge-bench'\)"):
        check_level(raw, "system", "Coherence")


def _write(tmp_path, data, name="bench.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _small() -> dict:
    return {"dataset": "toy", "dataset_url": "https://example.org", "expert_annotator": "false",
            "original_prompt": True,
            "annotations": [{"metric": "fluency", "category": "graded", "worst": 1, "best": 7,
                             "prompt": "Rate the fluency. {{ instance }}"}],
            "instances": [{"id": i, "instance": f"sentence {i}",
                           "annotations": {"fluency": {"mean_human": round(sum(s) / len(s), 2),
                                                       "individual_human_scores": s}}}
                          for i, s in enumerate([[2, 6, 3], [1, 6, 3], [7, 7, 5], [4, 4, 4]], 1)]}


class TestBadJudgeBenchFiles:
    """Each refused with the file, the instance and the field, through the command line (exit 2, no trace)."""

    @pytest.mark.parametrize("change,message", [
        (lambda d: d["annotations"][0].update(category="categorical"), "are categorical"),
        (lambda d: d["annotations"][0].update(prompt="Rate the fluency."), "has no Jinja slot"),
        (lambda d: d["instances"][1]["annotations"]["fluency"].update(mean_human=3.5),
         r"instance id 2, fluency: mean_human 3\.5 is not the mean of \[1, 6, 3\]"),
        (lambda d: d["instances"][2]["annotations"]["fluency"].update(individual_human_scores=[7, 8, 5]),
         r"instance id 3, fluency: individual_human_scores \[7, 8, 5\] is not a non-empty list of numbers within "
         r"\[1, 7\]"),
        (lambda d: d["instances"][3]["annotations"]["fluency"].update(majority_human=3),
         r"instance id 4, fluency: majority_human 3 is not a value more than half"),
        (lambda d: d["instances"][0]["annotations"].update(grammar={"individual_human_scores": [1]}),
         r"instance id 1: metric 'grammar' is not declared"),
        (lambda d: d["instances"][1].update(id=1), r"instance id 1 appears twice"),
        (lambda d: d.pop("instances"), r"field 'instances' is missing"),
    ])
    def test_refused(self, tmp_path, capsys, change, message):
        data = _small()
        change(data)
        path = _write(tmp_path, data)
        assert cli.main(["data", "add", "toy", str(path), "--human", "fluency"]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and str(path) in err
        assert re.search(message, err), err
        assert not (tmp_path / "registry" / "user_datasets.json").exists()

    def test_not_json_and_a_format_that_disagrees(self, tmp_path, capsys):
        path = tmp_path / "bench.json"
        path.write_text('{"dataset": ', encoding="utf-8")
        assert cli.main(["data", "add", "toy", str(path), "--human", "fluency"]) == 2
        assert "bench.json:1: not valid JSON" in capsys.readouterr().err
        good = _write(tmp_path, _small(), "bench.jsonl")
        assert cli.main(["data", "add", "toy", str(good), "--format", "judge-bench", "--human", "fluency"]) == 2
        assert "a judge-bench file ends in .json" in capsys.readouterr().err
        assert cli.main(["data", "export", str(_write(tmp_path, _small())), "--human", "fluency", "--format",
                         "judge-bench", "-o", str(tmp_path / "out.jsonl")]) == 2
        assert not (tmp_path / "out.jsonl").exists()


def test_a_small_file_imports_and_a_set_without_annotators_exports(tmp_path):
    """Judge-Bench's example.json shape (one text per instance, no sumeval ids): doc_id = the id, one system; the
    mean recomputed from the scores (not the 2-decimal mean_human). A user's set with only a mean column exports
    it as the one score, continuous where it is not whole, and reads back."""
    j = load_judgments(str(_write(tmp_path, _small())), human="fluency")
    f = j.frame
    assert f["doc_id"].tolist() == [1, 2, 3, 4] and set(f["system"]) == {jb.SYSTEM} and "text" not in j.fields
    assert f["fluency"].tolist() == [11 / 3, 10 / 3, 19 / 3, 4.0] and f["summary"].tolist()[0] == "sentence 1"
    assert f["fluency/rater_2"].tolist() == [6.0, 6.0, 7.0, 4.0]
    csv = tmp_path / "mine.csv"
    pd.DataFrame({"doc_id": ["a", "a", "b", "b"], "system": ["x", "y", "x", "y"], "summary": ["s1", "s2", "s3", "s4"],
                  "overall": [0.5, 0.25, 1.0, 0.0]}).to_csv(csv, index=False)
    mine = load_judgments(str(csv), human="overall")
    data = jb.to_judge_bench(mine)
    assert data["annotations"][0]["category"] == "continuous" and data["annotations"][0]["worst"] == 0.0
    assert data["instances"][1]["annotations"]["overall"] == {"mean_human": 0.25, "individual_human_scores": [0.25]}
    out = jb.export_judge_bench(mine, tmp_path / "mine.json")
    back = load_judgments(str(out), human="overall")
    assert back.frame[["doc_id", "system", "summary", "overall"]].equals(mine.frame[["doc_id", "system", "summary",
                                                                                       "overall"]])
