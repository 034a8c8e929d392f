"""Tests of sumeval.metrics.sources: measures from a registry name, a column of the data, a user's
Scorer class (import path or entry point); caching, orientation and the errors; and the worked
example measure under examples/."""
from __future__ import annotations

import json
import sys
import textwrap
import uuid

import numpy as np
import pandas as pd
import pytest

from sumeval import metrics
from sumeval.datasets import judgments as jd
from sumeval.errors import InputError
from sumeval.metrics.judgment_scores import score_judgments
from sumeval.metrics.sources import resolve_measures

from helpers import REPO_ROOT, TEST_DATA  # tests/ is on the path

EXAMPLES = REPO_ROOT / "examples"
MAP = dict(doc_col="article_id", system_col="model", summary_col="output", text_col="source",
           references_col="gold")

USER_MODULE = '''
import numpy as np
from sumeval.metrics import Scorer


class Words(Scorer):
    """Number of words of the summary; counts its calls."""
    name = "words"
    version = "1"
    calls = 0

    def columns(self):
        return ["words"]

    def score_batch(self, batch):
        type(self).calls += 1
        return {"words": np.array([len(s.split()) for s in batch.summaries], dtype=float)}


class Brevity(Words):
    """Lower is better: the same count."""
    name = "brevity"
    higher_is_better = False

    def columns(self):
        return ["brevity"]

    def score_batch(self, batch):
        return {"brevity": super().score_batch(batch)["words"]}


class WrongShape(Words):
    name = "wrong-shape"
    def score_batch(self, batch):
        return {"words": np.zeros(len(batch) + 1)}


class WrongColumn(Words):
    name = "wrong-column"
    def score_batch(self, batch):
        return {"count": np.zeros(len(batch))}


class NeedsText(Words):
    name = "needs-text"
    needs = ("text",)


class NeedsSource(Words):
    name = "needs-source"
    needs = ("source",)


class Half(Scorer):
    name = "half"
    def columns(self):
        return ["half"]


class NotAScorer:
    pass


def not_a_class():
    pass
'''


@pytest.fixture
def user_module(tmp_path):
    """A module of Scorer classes in a folder of its own: ``(folder, module name)``."""
    name = f"user_measures_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / "mods"
    folder.mkdir()
    (folder / f"{name}.py").write_text(USER_MODULE, encoding="utf-8")
    yield folder, name
    sys.modules.pop(name, None)


@pytest.fixture
def user_file():
    return jd.load_judgments(TEST_DATA / "user_judgments.csv", human="faithful,overall", **MAP)


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


# --------------------------------------------------------------------------------------------
# The three sources
# --------------------------------------------------------------------------------------------
def test_registered_measures_and_their_outputs(user_file):
    specs = resolve_measures(["rouge-2", "rouge-2-r", "rouge-1[use_stemmer=false]", "bleu"], user_file)
    assert [(s.name, s.source, s.column) for s in specs] == [
        ("rouge-2", "registered", "rouge-2-f"), ("rouge-2-r", "registered", "rouge-2-r"),
        ("rouge-1", "registered", "rouge-1-f"), ("bleu", "registered", "bleu")]
    assert "stemmer=False" in specs[2].signature and "stemmer=True" in specs[0].signature
    scores = score_judgments(user_file, specs)
    records = [{"summary": s, "references": r} for s, r in
               zip(user_file.frame["summary"], user_file.frame["references"])]
    direct, _ = metrics.score_records(records, [metrics.get_scorer("rouge-2")])
    assert np.allclose(scores.frame["rouge-2"], direct["rouge-2-f"])
    assert np.allclose(scores.frame["rouge-2-r"], direct["rouge-2-r"])
    assert scores.signatures["rouge-2"] == metrics.get_scorer("rouge-2").signature()
    assert scores.not_scored == []


def test_global_options_go_to_the_measures_that_take_them(user_file):
    specs = resolve_measures(["rouge-2", "bleu"], user_file, options={"use_stemmer": False})
    assert "stemmer=False" in specs[0].signature
    with pytest.raises(InputError, match=r"option\(s\) layer are not used by any of the measures rouge-2, bleu"):
        resolve_measures(["rouge-2", "bleu"], user_file, options={"layer": 3})


def test_a_column_of_the_file(user_file):
    (spec,) = resolve_measures(["my_metric"], user_file)
    assert (spec.source, spec.column, spec.higher_is_better) == ("column", "my_metric", True)
    assert spec.signature == f"column=my_metric|dataset_sha256={user_file.sha256}"
    scores = score_judgments(user_file, [spec])
    assert scores.frame["my_metric"].tolist() == user_file.frame["my_metric"].tolist()
    # an annotator's scores as a "measure": one annotator against the mean
    (ann,) = resolve_measures(["overall/ann1"], user_file)
    assert ann.source == "column"


def test_a_user_class_by_import_path(user_file, user_module):
    folder, mod = user_module
    (spec,) = resolve_measures([], user_file, measure_classes=[f"{mod}:Words"], module_path=[folder])
    assert (spec.name, spec.source, spec.column) == ("words", "class", "words")
    assert f"|class={mod}:Words|version=1|source_sha=" in spec.signature
    assert spec.signature.startswith("words|sumeval=")
    scores = score_judgments(user_file, [spec])
    assert scores.frame["words"].tolist() == [float(len(s.split())) for s in user_file.frame["summary"]]
    assert str(folder) not in sys.path  # the module path is not left behind


def test_a_user_class_by_entry_point(tmp_path, monkeypatch, user_file):
    site = tmp_path / "site"
    (site / "sumeval_demo_measure").mkdir(parents=True)
    (site / "sumeval_demo_measure" / "__init__.py").write_text(textwrap.dedent('''
        import numpy as np
        from sumeval.metrics import Scorer

        class Chars(Scorer):
            name = "chars"
            def columns(self):
                return ["chars"]
            def score_batch(self, batch):
                return {"chars": np.array([len(s) for s in batch.summaries], dtype=float)}
        '''), encoding="utf-8")
    info = site / "sumeval_demo_measure-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sumeval-demo-measure\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[sumeval.measures]\nchars = sumeval_demo_measure:Chars\n",
                                           encoding="utf-8")
    (info / "top_level.txt").write_text("sumeval_demo_measure\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    try:
        (spec,) = resolve_measures(["chars"], user_file)
        assert (spec.name, spec.source) == ("chars", "entry-point")
        assert "|class=sumeval_demo_measure:Chars|version=sumeval-demo-measure-1.0|" in spec.signature
        scores = score_judgments(user_file, [spec])
        assert scores.frame["chars"].tolist() == [float(len(s)) for s in user_file.frame["summary"]]
    finally:
        sys.modules.pop("sumeval_demo_measure", None)


# --------------------------------------------------------------------------------------------
# Caching
# --------------------------------------------------------------------------------------------
def test_second_call_reads_the_cache_and_a_new_version_recomputes(user_file, user_module, monkeypatch):
    folder, mod = user_module
    specs = resolve_measures([f"{mod}:Words", "rouge-1"], user_file, module_path=[folder])
    words = sys.modules[mod].Words
    first = score_judgments(user_file, specs)
    assert first.from_cache == {"words": False, "rouge-1": False}
    calls = words.calls
    second = score_judgments(user_file, specs)
    assert second.from_cache == {"words": True, "rouge-1": True} and words.calls == calls
    pd.testing.assert_frame_equal(first.frame, second.frame)
    monkeypatch.setattr(words, "version", "2")
    (respec,) = resolve_measures([f"{mod}:Words"], user_file, module_path=[folder])
    assert "version=2" in respec.signature and respec.signature != specs[0].signature
    third = score_judgments(user_file, [respec])
    assert third.from_cache == {"words": False} and words.calls == calls + 1
    # cache=False always computes
    assert score_judgments(user_file, [respec], cache=False).from_cache == {"words": False}


def test_a_changed_summary_is_not_served_from_the_cache(tmp_path, user_file, user_module):
    folder, mod = user_module
    (spec,) = resolve_measures([f"{mod}:Words"], user_file, module_path=[folder])
    score_judgments(user_file, [spec])
    frame = user_file.frame.copy()
    frame.loc[0, "summary"] = "just three words"
    from dataclasses import replace

    changed = replace(user_file, frame=frame)  # same checksum and rows, other text
    out = score_judgments(changed, [spec])
    assert out.from_cache == {"words": False} and out.frame.loc[0, "words"] == 3


# --------------------------------------------------------------------------------------------
# Orientation
# --------------------------------------------------------------------------------------------
def test_lower_is_better_is_negated_and_labelled(user_file, user_module):
    folder, mod = user_module
    specs = resolve_measures(["js-2", "my_metric:lower", f"{mod}:Brevity"], user_file, module_path=[folder])
    assert [s.label for s in specs] == ["js-2 (negated)", "my_metric (negated)", "brevity (negated)"]
    scores = score_judgments(user_file, specs)
    assert list(scores.frame.columns) == ["js-2 (negated)", "my_metric (negated)", "brevity (negated)"]
    assert np.allclose(scores.frame["my_metric (negated)"], -user_file.frame["my_metric"])
    assert np.allclose(scores.frame["brevity (negated)"],
                       [-len(s.split()) for s in user_file.frame["summary"]])
    records = [{"summary": s, "references": r} for s, r in
               zip(user_file.frame["summary"], user_file.frame["references"])]
    js, _ = metrics.score_records(records, ["js-2"])
    assert np.allclose(scores.frame["js-2 (negated)"], -js["js-2"])
    assert set(scores.signatures) == set(scores.frame.columns)


def test_lower_is_better_declared_once_with_the_data(tmp_path):
    jd.add_dataset("mine", TEST_DATA / "user_judgments.csv", human="faithful,overall",
                   lower_is_better="my_metric", **MAP)
    j = jd.load_judgments("mine")
    (spec,) = resolve_measures(["my_metric"], j)
    assert spec.label == "my_metric (negated)"
    (spec,) = resolve_measures(["my_metric:higher"], j)  # an explicit suffix still wins
    assert spec.label == "my_metric"
    (spec,) = resolve_measures(["my_metric"], jd.load_judgments(TEST_DATA / "user_judgments.csv",
                                                                human="faithful,overall", **MAP),
                               lower_is_better=["my_metric"])
    assert spec.label == "my_metric (negated)"


# --------------------------------------------------------------------------------------------
# Rows not scored are reported with their place
# --------------------------------------------------------------------------------------------
def test_unscored_rows_are_reported(tmp_path):
    rows = [json.loads(x) for x in (TEST_DATA / "user_judgments.jsonl").read_text(encoding="utf-8").splitlines()]
    rows[2]["output"] = ""
    rows[4]["my_metric"] = None
    path = tmp_path / "gaps.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    j = jd.load_judgments(path, human="faithful,overall", **MAP)
    scores = score_judgments(j, resolve_measures(["rouge-1", "my_metric"], j))
    got = [(r["location"], r["measure"], r["reason"]) for r in scores.not_scored]
    assert got == [(f"{path}:3", "rouge-1", "empty summary"),
                   (f"{path}:5", "my_metric", "no value in column 'my_metric'")]
    assert np.isnan(scores.frame.loc[2, "rouge-1"]) and np.isnan(scores.frame.loc[4, "my_metric"])
    again = score_judgments(j, resolve_measures(["rouge-1"], j))
    assert again.from_cache["rouge-1"] and [r["row"] for r in again.not_scored] == [2]


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------
def test_unknown_names_list_the_known_ones(user_file):
    with pytest.raises(InputError, match=r"unknown measure 'rouge-7x'; registered measures: .*bertscore.*; "
                                         r"measure columns of user_judgments: my_metric; human and annotator "
                                         r"columns: faithful, overall, overall/ann1, overall/ann2"):
        resolve_measures(["rouge-7x"], user_file)
    with pytest.raises(InputError, match=r"'column:quality': user_judgments has no numeric column 'quality'"):
        resolve_measures(["column:quality"], user_file)
    with pytest.raises(InputError,
                       match=r"'rouge-2#x': 'rouge-2' has no output 'x'; its outputs: rouge-2-p, rouge-2-r, rouge-2-f"):
        resolve_measures(["rouge-2#x"], user_file)
    with pytest.raises(InputError, match=r"'measure:my_metric': no registered measure or measure output 'my_metric'"):
        resolve_measures(["measure:my_metric"], user_file)


def test_bad_class_paths(user_file, user_module):
    folder, mod = user_module
    with pytest.raises(InputError, match=r"measure class 'no_such_pkg_x\.mod:Cls': module 'no_such_pkg_x\.mod' "
                                         r"could not be imported "
                                         r".*ModuleNotFoundError: No module named 'no_such_pkg_x'"):
        resolve_measures(["no_such_pkg_x.mod:Cls"], user_file)
    with pytest.raises(InputError, match=rf"module '{mod}' has no attribute 'Nope'; its Scorer classes: "
                                         r"Brevity, Half, NeedsSource, NeedsText, Words, WrongColumn, WrongShape"):
        resolve_measures([f"{mod}:Nope"], user_file, module_path=[folder])
    with pytest.raises(InputError, match=rf"measure class '{mod}:NotAScorer' is a class .* not a subclass of "
                                         r"sumeval.metrics.Scorer"):
        resolve_measures([f"{mod}:NotAScorer"], user_file, module_path=[folder])
    with pytest.raises(InputError, match=rf"measure class '{mod}:not_a_class' is a function"):
        resolve_measures([f"{mod}:not_a_class"], user_file, module_path=[folder])
    with pytest.raises(InputError, match=rf"measure class '{mod}:Half' does not implement score_batch"):
        resolve_measures([f"{mod}:Half"], user_file, module_path=[folder])
    with pytest.raises(InputError, match=r"could not build Words\(size=3\)"):
        resolve_measures([f"{mod}:Words[size=3]"], user_file, module_path=[folder])
    with pytest.raises(InputError, match=r"measure 'js-2:lower': 'js-2' declares its own orientation"):
        resolve_measures(["js-2:lower"], user_file)


def test_a_scorer_returning_the_wrong_shape_or_column(user_file, user_module):
    folder, mod = user_module
    specs = resolve_measures([f"{mod}:WrongShape"], user_file, module_path=[folder])
    with pytest.raises(InputError, match=rf"measure 'wrong-shape' \({mod}\.WrongShape\): score_batch returned "
                                         r"shape \(13,\) for column 'words'; expected \(12,\)"):
        score_judgments(user_file, specs)
    specs = resolve_measures([f"{mod}:WrongColumn"], user_file, module_path=[folder])
    with pytest.raises(InputError, match=r"score_batch returned no column 'words' \(it returned \['count'\]\)"):
        score_judgments(user_file, specs)


def test_a_measure_needing_a_field_the_data_lacks(tmp_path, user_module):
    folder, mod = user_module
    rows = [{"doc_id": f"d{i}", "system": s, "summary": "a b c", "q": i} for i in range(2) for s in "xyz"]
    path = tmp_path / "no_text.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    j = jd.load_judgments(path, human="q")
    with pytest.raises(InputError, match=r"measure 'rouge-1' needs 'references', which no_text does not have "
                                         r"\(its columns: doc_id, system, summary, q\); map the column that "
                                         r"holds it with --references-col"):
        resolve_measures(["rouge-1"], j)
    with pytest.raises(InputError, match=r"needs 'text', which no_text does not have"):
        resolve_measures([f"{mod}:NeedsText"], j, module_path=[folder])
    with pytest.raises(InputError, match=r"needs 'source', which is not a field a scorer can read"):
        resolve_measures([f"{mod}:NeedsSource"], j, module_path=[folder])


def test_ambiguous_and_duplicate_measures(tmp_path, user_file):
    rows = [json.loads(x) for x in (TEST_DATA / "user_judgments.jsonl").read_text(encoding="utf-8").splitlines()]
    for r in rows:
        r["bleu"] = 0.5
    path = tmp_path / "with_bleu.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    j = jd.load_judgments(path, human="faithful,overall", **MAP)
    with pytest.raises(InputError, match=r"'bleu' is both a registered measure and a measure column of "
                                         r"with_bleu; write 'measure:bleu' or 'column:bleu'"):
        resolve_measures(["bleu"], j)
    a, b = resolve_measures(["measure:bleu", "column:bleu:lower"], j)
    assert (a.source, b.source, b.label) == ("registered", "column", "bleu (negated)")
    with pytest.raises(InputError,
                       match=r"measures 'rouge-2' and 'rouge-2\[use_stemmer=false\]' are both shown as 'rouge-2'"):
        resolve_measures(["rouge-2", "rouge-2[use_stemmer=false]"], user_file)
    with pytest.raises(InputError, match=r"options go in one pair of brackets at the end"):
        resolve_measures(["rouge-2[use_stemmer=false"], user_file)
    with pytest.raises(InputError, match=r"option 'use_stemmer' is not key=value"):
        resolve_measures(["rouge-2[use_stemmer]"], user_file)


# --------------------------------------------------------------------------------------------
# The worked example: examples/fragments.py
# --------------------------------------------------------------------------------------------
def test_example_fragments_by_hand(tmp_path):
    rows = [
        {"doc_id": "d1", "system": "s1", "summary": "The cat ran on the mat.", "text": "The cat sat on the mat.",
         "q": 1},
        {"doc_id": "d1", "system": "s2", "summary": "A dog barked.", "text": "The cat sat on the mat.", "q": 2},
        {"doc_id": "d1", "system": "s3", "summary": "the mat the cat sat", "text": "The cat sat on the mat.", "q": 3},
        {"doc_id": "d1", "system": "s4", "summary": "...", "text": "The cat sat on the mat.", "q": 4},
    ]
    path = tmp_path / "fragments.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    j = jd.load_judgments(path, human="q")
    specs = resolve_measures([], j, measure_classes=["fragments:ExtractiveFragments",
                                                     "fragments:ExtractiveFragments#density"],
                             module_path=[EXAMPLES])
    assert [s.label for s in specs] == ["fragments", "fragments-density"]
    assert "|class=fragments:ExtractiveFragments|version=1|" in specs[0].signature
    out = score_judgments(j, specs)
    # by hand (article tokens: the cat sat on the mat):
    # s1 "the cat ran on the mat": fragments "the cat" (2), "ran" none, "on the mat" (3):
    #    coverage 5/6, density (4 + 9)/6
    # s2 "a dog barked": no fragment: 0, 0
    # s3 "the mat the cat sat": from the 1st "the", "the mat" (article 4-5, 2) beats "the" (1);
    #    from the 2nd "the", "the cat sat" (3): coverage 5/5, density (4 + 9)/5
    # s4 "...": no token: undefined (NaN), reported
    assert np.allclose(out.frame["fragments"].to_numpy()[:3], [5 / 6, 0, 1])
    assert np.allclose(out.frame["fragments-density"].to_numpy()[:3], [13 / 6, 0, 13 / 5])
    assert np.isnan(out.frame.loc[3, "fragments"])
    assert {(r["location"], r["reason"]) for r in out.not_scored} == {
        (f"{path}:4", "undefined: the summary has no word")}


def test_example_importable_as_a_package_path(user_file):
    root = EXAMPLES.parent
    (spec,) = resolve_measures(["examples.fragments:ExtractiveFragments"], user_file, module_path=[root])
    assert spec.source == "class" and "|class=examples.fragments:ExtractiveFragments|" in spec.signature


def test_example_fragments_on_the_user_file(user_file):
    (spec,) = resolve_measures(["fragments:ExtractiveFragments[min_length=2]"], user_file,
                               module_path=[EXAMPLES])
    assert "min_length=2" in spec.signature
    out = score_judgments(user_file, [spec])
    # the lead summaries copy their article's first sentence whole: coverage 1
    lead = user_file.frame["system"] == "lead"
    assert np.allclose(out.frame.loc[lead, "fragments"], 1.0)
    assert (out.frame["fragments"].between(0, 1)).all()
