"""Tests of sumeval.datasets.judgments: judgments files in a user's shape (tests/data), the user
data set registry (sumeval data add / list / show / export / remove), checksum changes, the
validation errors, level checks and the built-in SummEval / REALSumm data sets."""
from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.datasets import judgments as jd
from sumeval.datasets import judgments_model
from sumeval.datasets.registry import locate
from sumeval.errors import DataNotFoundError, InputError

from helpers import TEST_DATA  # tests/ is on the path

USER_CSV = TEST_DATA / "user_judgments.csv"
USER_JSONL = TEST_DATA / "user_judgments.jsonl"
#: how tests/data/user_judgments.* name the roles
MAP = dict(doc_col="article_id", system_col="model", summary_col="output", text_col="source",
           references_col="gold")
MAP_FLAGS = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output",
             "--text-col", "source", "--references-col", "gold"]
HUMAN = "faithful,overall"


def _have(relpath: str) -> bool:
    try:
        locate(relpath, verify=False)
        return True
    except DataNotFoundError:
        return False


needs_summeval = pytest.mark.skipif(not _have("summeval/summeval_pairs_1600.jsonl"),
                                    reason="SummEval data not found; see data/README.md")
needs_realsumm = pytest.mark.skipif(not _have("realsumm/realsumm_100x25.jsonl"),
                                    reason="REALSumm data not found; see data/README.md")


pytestmark = pytest.mark.usefixtures("registry_file")  # a private user data set registry (conftest)


def _rows() -> list[dict]:
    return [json.loads(line) for line in USER_JSONL.read_text(encoding="utf-8").splitlines()]


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _write_csv(path: Path, header: list[str], rows: list[list], delimiter: str = ",") -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, delimiter=delimiter)
        w.writerow(header)
        w.writerows(rows)
    return path


# --------------------------------------------------------------------------------------------
# A user's file, by path
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", [USER_CSV, USER_JSONL], ids=["csv", "jsonl"])
def test_user_file_roles(path):
    j = jd.load_judgments(path, human=HUMAN, **MAP)
    f = j.frame
    assert list(f.columns) == ["doc_id", "system", "summary", "text", "references", "faithful",
                               "overall", "overall/ann1", "overall/ann2", "my_metric"]
    assert j.humans == ("faithful", "overall")
    assert dict(j.annotators) == {"overall": ("overall/ann1", "overall/ann2")}
    assert j.measures == ("my_metric",)
    assert j.fields == ("summary", "text", "references")
    assert len(f) == 12 and f["doc_id"].nunique() == 4 and f["system"].nunique() == 3
    assert j.systems_missing_documents == {}
    assert f.loc[0, "references"] == [
        "The council approved a Main Street bike lane; building starts in May.",
        "A bike lane on Main Street was approved and will be built over six weeks from May."]
    assert f["overall"].dtype == np.float64 and f.loc[1, "overall"] == 4.5
    assert j.format == path.suffix[1:] and j.name == "user_judgments"
    assert j.sha256 == __import__("hashlib").sha256(path.read_bytes()).hexdigest()
    # JSONL lines are 1..12; CSV lines 2..13 (line 1 is the header)
    first = 1 if path.suffix == ".jsonl" else 2
    assert j.location(0) == f"{path}:{first}" and j.location(11) == f"{path}:{first + 11}"
    assert j.row_ids()[:2] == ["a1|lead", "a1|abstractive"]


def test_csv_jsonl_tsv_parquet_give_the_same_frame(tmp_path):
    base = jd.load_judgments(USER_JSONL, human=HUMAN, **MAP)
    from_csv = jd.load_judgments(USER_CSV, human=HUMAN, **MAP)
    pd.testing.assert_frame_equal(base.frame, from_csv.frame)
    for ext in ("tsv", "parquet", "jsonl", "csv"):
        out = jd.export_judgments(base, tmp_path / f"copy.{ext}")
        back = jd.load_judgments(out, human=HUMAN)
        pd.testing.assert_frame_equal(back.frame, base.frame, check_dtype=False)
        assert back.humans == base.humans and back.measures == base.measures


def test_missing_human_values_are_nan_and_missing_systems_reported(tmp_path):
    rows = _rows()
    rows[0]["overall"] = None          # not judged
    del rows[1]["overall/ann1"]        # key absent: also not judged
    rows = [r for r in rows if not (r["article_id"] == "a2" and r["model"] == "halluc")]
    j = jd.load_judgments(_write_jsonl(tmp_path / "j.jsonl", rows), human=HUMAN, **MAP)
    assert math.isnan(j.frame.loc[0, "overall"]) and math.isnan(j.frame.loc[1, "overall/ann1"])
    assert j.systems_missing_documents == {"halluc": ("a2",)}
    assert "system 'halluc' has no summary for 1 document(s): 'a2'" in j.describe()


def test_other_columns_are_kept_not_used(tmp_path):
    rows = _rows()
    for r in rows:
        r["annotator_note"] = "checked"
    j = jd.load_judgments(_write_jsonl(tmp_path / "j.jsonl", rows), human=HUMAN, **MAP)
    assert j.other_columns == ("annotator_note",) and j.measures == ("my_metric",)
    assert (j.frame["annotator_note"] == "checked").all()


def test_n_docs_keeps_the_first_documents():
    j = jd.load_judgments(USER_CSV, human=HUMAN, n_docs=2, **MAP)
    assert j.documents == ["a1", "a2"] and len(j) == 6 and len(j.locations) == 6


def test_lower_is_better_is_recorded():
    j = jd.load_judgments(USER_CSV, human=HUMAN, lower_is_better="my_metric", **MAP)
    assert j.lower_is_better == ("my_metric",)
    assert "my_metric (lower is better)" in j.describe()


# --------------------------------------------------------------------------------------------
# Levels
# --------------------------------------------------------------------------------------------
def test_check_level_counts_and_names():
    j = jd.load_judgments(USER_CSV, human=HUMAN, **MAP)
    assert judgments_model.check_level(j, "system") == {"level": "system", "pairs": 12, "documents": 4, "systems": 3}
    assert judgments_model.check_level(j, "global")["level"] == "global"
    assert judgments_model.check_level(j, "input")["level"] == "input"
    with pytest.raises(InputError, match="unknown correlation level 'pooled'; name the level as one of input"):
        judgments_model.check_level(j, "pooled")
    with pytest.raises(InputError, match="'summary' is ambiguous"):  # the older names: refused, as everywhere
        judgments_model.check_level(j, "summary")


def test_check_level_refuses_what_the_data_cannot_support(tmp_path):
    rows = [r for r in _rows() if r["model"] != "halluc"]  # 2 systems
    j = jd.load_judgments(_write_jsonl(tmp_path / "two.jsonl", rows), human=HUMAN, **MAP)
    with pytest.raises(InputError, match=r"system level needs at least 3 systems; two has 2 \('lead', 'abstractive'\)"):
        judgments_model.check_level(j, "system")
    assert judgments_model.check_level(j, "input")["documents"] == 4
    rows = [r for r in _rows() if not (r["article_id"] == "a3" and r["model"] != "lead")]
    j = jd.load_judgments(_write_jsonl(tmp_path / "lonely.jsonl", rows), human=HUMAN, **MAP)
    with pytest.raises(InputError, match=r"input level needs at least 2 systems on every document; "
                                         r"in lonely, 1 of 4 documents have fewer: 'a3' \(1\)"):
        judgments_model.check_level(j, "input")
    rows = _rows()[:3]
    for r in rows[1:]:
        r["faithful"] = None
    j = jd.load_judgments(_write_jsonl(tmp_path / "few.jsonl", rows), human=HUMAN, **MAP)
    with pytest.raises(InputError, match=r"global level needs at least 3 summaries; "
                                         r"few \(rows with a 'faithful' score\) has 1"):
        judgments_model.check_level(j, "global", human="faithful")


# --------------------------------------------------------------------------------------------
# Bad input: every message names the place, the column and the value
# --------------------------------------------------------------------------------------------
def _bad_jsonl(tmp_path, change):
    rows = _rows()
    change(rows)
    return _write_jsonl(tmp_path / "bad.jsonl", rows)


def _duplicate(rows):
    rows[5] = dict(rows[0])


def _text_human(rows):
    rows[2]["overall"] = "good"


def _bad_references(rows):
    rows[3]["gold"] = [1, 2]


def _empty_id(rows):
    rows[4]["model"] = "  "


def _float_id(rows):
    rows[4]["article_id"] = 1.5


def _number_summary(rows):
    rows[6]["output"] = 42


def _no_human_value(rows):
    for r in rows:
        r["faithful"] = None


def _stray_annotator(rows):
    for r in rows:
        r["fluency/ann1"] = 3


BAD_JSONL = [
    (_duplicate, r"bad\.jsonl:6: duplicate row for \(doc_id 'a1', system 'lead'\); first seen at .*bad\.jsonl:1"),
    (_text_human, r"bad\.jsonl:3: human column 'overall' = 'good' is not a number"),
    (_bad_references, r"bad\.jsonl:4: column 'gold' = \[1, 2\] is not a list of strings"),
    (_empty_id, r"bad\.jsonl:5: column 'model' \(system\) is empty"),
    (_float_id, r"bad\.jsonl:5: column 'article_id' \(doc_id\) = 1\.5: an id must be a string or an integer"),
    (_number_summary, r"bad\.jsonl:7: column 'output' = 42 is not text"),
    (_no_human_value, r"bad\.jsonl: human column 'faithful' has no value on any row"),
    (_stray_annotator, r"column 'fluency/ann1' looks like an annotator column of 'fluency', "
                       r"but the file has no column 'fluency'"),
]


@pytest.mark.parametrize("change, message", BAD_JSONL, ids=[c.__name__.strip("_") for c, _ in BAD_JSONL])
def test_bad_rows_are_named_and_nothing_is_registered(tmp_path, registry_file, change, message):
    path = _bad_jsonl(tmp_path, change)
    with pytest.raises(InputError, match=message):
        jd.load_judgments(path, human=HUMAN, **MAP)
    with pytest.raises(InputError, match=message):
        jd.add_dataset("bad", path, human=HUMAN, **MAP)
    assert not registry_file.exists()


def test_bad_csv_cells_name_the_line(tmp_path, registry_file):
    lines = USER_CSV.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    # line 8 of the file: the 'faithful' cell made text
    rows = list(csv.reader(lines[1:]))
    rows[6][header.index("faithful")] = "yes"
    path = _write_csv(tmp_path / "bad.csv", header, rows)
    with pytest.raises(InputError, match=r"bad\.csv:8: human column 'faithful' = 'yes' is not a number"):
        jd.add_dataset("bad", path, human=HUMAN, **MAP)
    # a row with a field too many
    rows = list(csv.reader(lines[1:]))
    rows[2].append("extra")
    path = _write_csv(tmp_path / "long.csv", header, rows)
    with pytest.raises(InputError, match=r"long\.csv:4: 11 fields, but the header has 10"):
        jd.load_judgments(path, human=HUMAN, **MAP)
    # references that start like JSON but are not
    rows = list(csv.reader(lines[1:]))
    rows[0][header.index("gold")] = '["unclosed'
    path = _write_csv(tmp_path / "refs.csv", header, rows)
    with pytest.raises(InputError, match=r"refs\.csv:2: column 'gold' starts like a JSON array but is not one"):
        jd.load_judgments(path, human=HUMAN, **MAP)
    assert not registry_file.exists()


def test_a_multiline_csv_cell_keeps_line_numbers_right(tmp_path):
    lines = USER_CSV.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    rows = list(csv.reader(lines[1:]))
    rows[0][header.index("output")] = "first line\nsecond line"   # the record spans lines 2-3
    rows[1][header.index("overall")] = "n/a!"                     # so this record starts on line 4
    path = _write_csv(tmp_path / "multi.csv", header, rows)
    with pytest.raises(InputError, match=r"multi\.csv:4: human column 'overall' = 'n/a!' is not a number"):
        jd.load_judgments(path, human=HUMAN, **MAP)


def test_unknown_columns_asked_for(tmp_path, registry_file):
    with pytest.raises(InputError, match=r"user_judgments\.csv: no column 'doc_id' \(the doc ids; name "
                                         r"the column that holds them with --doc-col\); "
                                         r"the file's columns are: article_id, model"):
        jd.load_judgments(USER_CSV, human=HUMAN)
    with pytest.raises(InputError, match=r"--human 'quality': no such column; the file's columns are: article_id"):
        jd.add_dataset("x", USER_CSV, human="faithful,quality", **MAP)
    with pytest.raises(InputError, match=r"--text-col 'article': no such column"):
        jd.load_judgments(USER_CSV, human=HUMAN, **{**MAP, "text_col": "article"})
    with pytest.raises(InputError, match=r"name the human columns with --human .* numeric columns of the "
                                         r"file: faithful, overall, overall/ann1, overall/ann2, my_metric"):
        jd.load_judgments(USER_CSV, **MAP)
    with pytest.raises(InputError, match=r"--lower-is-better 'faithful': not a measure column .*: my_metric\)"):
        jd.load_judgments(USER_CSV, human=HUMAN, lower_is_better="faithful", **MAP)
    with pytest.raises(InputError, match=r"column 'overall/ann1' is an annotator column of 'overall', which "
                                         r"is not a human column \(human: faithful\)"):
        jd.load_judgments(USER_CSV, human="faithful", **MAP)
    assert not registry_file.exists()


def test_files_that_are_not_judgments(tmp_path):
    with pytest.raises(InputError,
                       match=r"unknown judgments format '\.xlsx'; use one of \.jsonl, \.csv, \.tsv, \.parquet"):
        jd.load_judgments(tmp_path / "scores.xlsx", human=HUMAN)
    with pytest.raises(DataNotFoundError, match=r"judgments file '.*nowhere\.csv' does not exist"):
        jd.load_judgments(tmp_path / "nowhere.csv", human=HUMAN)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_id": "a", "system": "s", "q": 1}\n{"doc_id": "b", \n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.jsonl:2: not valid JSON"):
        jd.load_judgments(bad, human="q")
    empty = tmp_path / "empty.csv"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"empty\.csv: the file is empty"):
        jd.load_judgments(empty, human="q")
    clash = _write_csv(tmp_path / "clash.csv", ["doc_id", "system", "summary", "output", "q"],
                       [["a", "s", "x", "y", "1"]])
    with pytest.raises(InputError, match=r"clash\.csv: column 'summary' clashes with --summary-col 'output'"):
        jd.load_judgments(clash, human="q", summary_col="output")
    with pytest.raises(InputError, match=r"unknown data set 'nosuch'; known data sets: summeval, realsumm"):
        jd.load_judgments("nosuch")


# --------------------------------------------------------------------------------------------
# The registry: add, list, load by name, checksum, export, remove
# --------------------------------------------------------------------------------------------
def test_add_list_show_and_load_by_name(tmp_path, registry_file, capsys):
    path = shutil.copy(USER_CSV, tmp_path / "mine.csv")
    assert cli.main(["data", "add", "mine", str(path), *MAP_FLAGS, "--human", HUMAN,
                     "--lower-is-better", "my_metric"]) == 0
    entry = json.loads(registry_file.read_text(encoding="utf-8"))["datasets"]["mine"]
    assert entry["path"] == str(Path(path).resolve()) and entry["format"] == "csv"
    assert entry["sha256"] == __import__("hashlib").sha256(Path(path).read_bytes()).hexdigest()
    assert entry["columns"]["doc_id"] == "article_id" and entry["human"] == ["faithful", "overall"]
    assert entry["lower_is_better"] == ["my_metric"] and entry["rows"] == 12
    capsys.readouterr()
    assert cli.main(["data", "list"]) == 0
    out = capsys.readouterr().out
    assert "summeval     built-in" in out and "mine         user     12 summaries, 4 documents, 3 systems" in out
    by_name = jd.load_judgments("mine")
    by_path = jd.load_judgments(path, human=HUMAN, lower_is_better="my_metric", **MAP)
    pd.testing.assert_frame_equal(by_name.frame, by_path.frame)
    assert by_name.name == "mine" and by_name.lower_is_better == ("my_metric",)
    assert jd.load_judgments("mine", human="overall").humans == ("overall",)
    assert cli.main(["data", "show", "mine"]) == 0
    assert "annotators overall: overall/ann1, overall/ann2 (12 rows)" in capsys.readouterr().out
    with pytest.raises(InputError, match=r"data set 'mine' is a name, so its columns are already known; --doc-col x"):
        jd.load_judgments("mine", doc_col="x")


def test_add_refuses_a_taken_name_unless_replaced(tmp_path, registry_file):
    jd.add_dataset("mine", USER_CSV, human=HUMAN, **MAP)
    before = registry_file.read_bytes()
    with pytest.raises(InputError, match=r"data set 'mine' is already registered .*pass --replace"):
        jd.add_dataset("mine", USER_JSONL, human=HUMAN, **MAP)
    assert registry_file.read_bytes() == before
    jd.add_dataset("mine", USER_JSONL, human=HUMAN, replace_existing=True, **MAP)
    assert jd.load_judgments("mine").format == "jsonl"
    for name, message in (("summeval", "is a built-in data set"), ("my data", "is not allowed"),
                          ("mine.csv", "ends like a file")):
        with pytest.raises(InputError, match=message):
            jd.add_dataset(name, USER_CSV, human=HUMAN, **MAP)


def test_a_changed_file_is_detected_with_the_way_to_re_add_it(tmp_path, capsys):
    path = Path(shutil.copy(USER_CSV, tmp_path / "mine.csv"))
    jd.add_dataset("mine", path, human=HUMAN, lower_is_better="my_metric", **MAP)
    path.write_text(path.read_text(encoding="utf-8").replace("0.61", "0.62"), encoding="utf-8")
    with pytest.raises(DataNotFoundError) as err:
        jd.load_judgments("mine")
    msg = str(err.value)
    assert f"data set 'mine': its file {path.resolve()} changed since it was added" in msg
    assert (f"`sumeval data add mine {path.resolve()} --doc-col article_id --system-col model "
            "--summary-col output --text-col source --references-col gold --human faithful,overall "
            "--lower-is-better my_metric --replace`") in msg
    assert cli.main(["data", "verify"]) == 1
    assert "FAIL mine" in capsys.readouterr().out
    path.unlink()
    with pytest.raises(DataNotFoundError, match=r"its file .*mine\.csv no longer exists"):
        jd.load_judgments("mine")


def test_remove(tmp_path, registry_file):
    jd.add_dataset("mine", USER_CSV, human=HUMAN, **MAP)
    assert cli.main(["data", "remove", "mine"]) == 0
    assert json.loads(registry_file.read_text(encoding="utf-8"))["datasets"] == {}
    assert USER_CSV.is_file()
    with pytest.raises(InputError, match="no user data set 'mine'"):
        jd.remove_dataset("mine")


def test_a_corrupt_registry_is_named(registry_file):
    registry_file.parent.mkdir(parents=True)
    registry_file.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match=r"user_datasets\.json: the user data set registry is not valid JSON"):
        jd.load_judgments("mine")


def test_export_by_cli_writes_nothing_on_error(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    assert cli.main(["data", "export", str(USER_CSV), "-o", str(out), *MAP_FLAGS, "--human", HUMAN]) == 0
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["doc_id"] == "a1" and rows[0]["references"][1].startswith("A bike lane")
    bad = tmp_path / "out.xlsx"
    assert cli.main(["data", "export", str(USER_CSV), "-o", str(bad), *MAP_FLAGS, "--human", HUMAN]) == 2
    assert "unknown judgments format '.xlsx'" in capsys.readouterr().err
    assert not bad.exists() and not list(tmp_path.glob(".out.xlsx*"))
    assert cli.main(["data", "export", str(USER_CSV), "-o", str(tmp_path / "x.csv"), "--human", HUMAN]) == 2
    assert not (tmp_path / "x.csv").exists()


# --------------------------------------------------------------------------------------------
# Built-in data sets: the frames the studies use
# --------------------------------------------------------------------------------------------
@pytest.mark.slow
@needs_summeval
def test_summeval_is_the_studies_frame_plus_experts():
    from sumeval.datasets.summeval import load_summac_consistency_experts, load_summeval

    j = jd.load_judgments("summeval")
    base = load_summeval()
    pd.testing.assert_frame_equal(j.frame[list(base.columns)], base)
    assert j.humans == ("coherence", "consistency", "fluency", "relevance")
    experts = ("consistency/expert_1", "consistency/expert_2", "consistency/expert_3")
    assert j.annotators["consistency"] == experts and set(j.annotators) == set(j.humans)  # the shelf: all 4
    wide = load_summac_consistency_experts(wide=True).set_index(["doc_id", "system"])
    judged = j.frame.set_index(["doc_id", "system"]).loc[wide.index]  # SummaC's 100 pairs: as before
    for (d, s), row in judged.iterrows():
        assert [row[c] for c in experts] == [wide.loc[(d, s), f"expert_{k}"] for k in (1, 2, 3)]
    assert np.allclose(j.frame[list(experts)].mean(axis=1), j.frame["consistency"])
    assert len(j.frame.loc[0, "references"]) == 11 and j.default_measures == ()  # LLM judges: opt-in
    small = jd.load_judgments("summeval", n_docs=2, human="relevance")
    pd.testing.assert_frame_equal(small.frame[list(base.columns)], load_summeval(n_docs=2))
    assert small.humans == ("relevance",) and "coherence" in small.other_columns


@pytest.mark.slow
@needs_summeval
def test_summeval_export_round_trips(tmp_path, capsys):
    out = tmp_path / "summeval.jsonl"
    assert cli.main(["data", "export", "summeval", "-o", str(out)]) == 0
    back = jd.load_judgments(out, human="coherence,consistency,fluency,relevance")
    j = jd.load_judgments("summeval")
    pd.testing.assert_frame_equal(back.frame[list(j.frame.columns)], j.frame, check_dtype=False)
    assert back.annotators == j.annotators and set(back.measures) == set(j.measures)


@pytest.mark.slow
@needs_realsumm
def test_realsumm_is_the_table2_frame():
    from sumeval.studies.common.baseline_tables import table2

    j = jd.load_judgments("realsumm", n_docs=3)
    scored, _ = table2(3, n_resamples=0)
    cols = ["doc_id", "system", "summary", "references", "litepyramid"]
    pd.testing.assert_frame_equal(j.frame[cols], scored[cols])
    assert j.humans == ("litepyramid",) and len(jd.load_judgments("realsumm")) == 2500
