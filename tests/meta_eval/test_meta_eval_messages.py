"""The messages of `sumeval meta-eval` for the cases of issue 21 (M19b, M12, M23b, M21d) and the
names checked before any scoring (a measure named like a human, id or annotator column; the
former alias `coherence`); the meta_evaluation study's parameter sets pass that check."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import meta_eval, stats
from sumeval.cli import main
from sumeval.errors import InputError
from sumeval.metrics.records import NotScoredWarning

from helpers import REPO_ROOT  # tests/ is on the path

pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


def _file(tmp_path, n_docs=10, seed=0) -> Path:
    rng = np.random.default_rng(seed)
    rows = [{"doc_id": f"d{d}", "system": s, "summary": f"summary {d} {s} " + "word " * int(rng.integers(1, 9)),
             "overall": round(float(rng.normal()), 3), "faithful": round(float(rng.normal()), 3),
             "overall/ann1": round(float(rng.normal()), 3), "my_metric": round(float(rng.random()), 3)}
            for d in range(n_docs) for s in ("M0", "M1", "M2", "M5")]
    path = tmp_path / "base.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _module(tmp_path, name="mine.py"):
    """Scorer classes: Named(name) returns lengths, AllNaN returns NaN, Calls counts its calls."""
    (tmp_path / name).write_text(
        "import numpy as np\nfrom sumeval.metrics import Scorer\nCALLS = []\n"
        "class _Base(Scorer):\n    needs = ()\n    higher_is_better = True\n    version = '1'\n"
        "    def options(self):\n        return {}\n    def columns(self):\n        return [self.name]\n"
        "    def score_batch(self, batch):\n        CALLS.append(self.name)\n"
        "        return {self.name: np.array([len(s) for s in batch.summaries], dtype=float)}\n"
        "class AllNaN(_Base):\n    name = 'all-nan'\n"
        "    def score_batch(self, batch):\n        return {self.name: np.full(len(batch.summaries), np.nan)}\n"
        "class Overall(_Base):\n    name = 'overall'\n"
        "class Faithful(_Base):\n    name = 'faithful'\n"
        "class Annotator(_Base):\n    name = 'overall/ann1'\n"
        "class DocId(_Base):\n    name = 'doc_id'\n")
    return tmp_path


def _meta_eval(tmp_path, *args, out="out"):
    return main(["meta-eval", str(_file(tmp_path)), *args, "--n-resamples", "30", "-q", "--no-figures",
                 "--out", str(tmp_path / out)])


def test_a_human_column_named_twice_m19b(tmp_path, capsys):
    assert _meta_eval(tmp_path, "--human", "overall", "overall", "--measures", "my_metric") == 2
    assert "--human names 'overall' more than once (overall overall); name each once" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert _meta_eval(tmp_path, "--human", "overall", "--measures", "my_metric", "--level", "system",
                      "system") == 2
    assert "--level names 'system' more than once" in capsys.readouterr().err
    with pytest.raises(InputError, match=r"--coefficient names 'pearson' more than once"):
        meta_eval.Settings(humans=("overall",), coefficients=("pearson", "kendall_b", "pearson")).check()


def test_a_measure_with_no_number_on_any_row_m12(tmp_path, capsys):
    mods = _module(tmp_path)
    with pytest.warns(NotScoredWarning, match=r"gave no number \(NaN or None\) for every one of the 40 rows"):
        assert _meta_eval(tmp_path, "--human", "overall", "--measures", "my_metric", "--measure-class",
                          "mine:AllNaN", "--module-path", str(mods)) == 2
    err = capsys.readouterr().err
    # the scoring step says it first (sumeval.metrics.judgment_scores), naming the class and the reason
    assert "measure 'mine:AllNaN' (mine.AllNaN) gave no number on any of the 40 rows" in err
    assert "returned NaN or None" in err and "permutation_test" not in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def test_a_rare_binary_column_skips_only_the_detection_m23b(tmp_path, capsys):
    path = _file(tmp_path)
    f = pd.read_csv(path)
    f["bin"] = 0
    f.loc[5, "bin"] = 1
    f.to_csv(path, index=False)
    out = tmp_path / "out"
    assert main(["meta-eval", str(path), "--human", "bin", "overall", "--measures", "my_metric", "faithful",
                 "--n-resamples", "30", "-q", "--no-figures", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert ("human column 'bin' (0/1): the binary detection step (ROC AUC, balanced accuracy with a threshold "
            "tuned on a validation split) is skipped for 'my_metric', 'faithful': the validation split has 0 "
            "positive") in err
    assert "the correlations are computed and written" in err
    corr = pd.read_csv(out / "correlations.csv")
    assert set(corr["human"]) == {"bin", "overall"} and corr["value"].notna().any()
    assert not (out / "detection.csv").exists()


@pytest.mark.parametrize("level, words", [
    ("summary", "'summary' is ambiguous: SummEval and Deutsch et al. (2021) call the per-document correlation"),
    ("document", "'document' is the older name of 'input'"),
])
def test_older_level_names_are_refused_everywhere_with_what_they_meant_m21d(tmp_path, capsys, level, words):
    """One policy: meta-eval, the statistics and the data sets' level check refuse them alike."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.datasets.judgments_model import check_level

    assert _meta_eval(tmp_path, "--human", "overall", "--measures", "my_metric", "--level", level) == 2
    err = capsys.readouterr().err
    assert words in err and "name the level as one of input, system, global" in err
    assert not (tmp_path / "out").exists()
    f = pd.read_csv(_file(tmp_path))
    j = load_judgments(_file(tmp_path), human=["overall"])
    kw = dict(n_resamples=0)
    for call in (lambda: stats.correlate(f, "my_metric", "overall", level=level, **kw),
                 lambda: stats.correlate(f, "my_metric", "overall", level=["input", level], **kw),
                 lambda: stats.paired_test(f, "my_metric", "faithful", "overall", level=level, method="pearson", **kw),
                 lambda: check_level(j, level)):
        with pytest.raises(InputError) as exc:
            call()
        assert words in str(exc.value) and "name the level as one of input, system, global" in str(exc.value)


@pytest.mark.parametrize("cls, words", [
    ("Overall", "measure 'mine:Overall' is the human column 'overall' that the measures are compared with"),
    ("Faithful", "writes a column named 'faithful', which is a human column of"),
    ("Annotator", "writes a column named 'overall/ann1', which is an annotator column of"),
    ("DocId", "is shown as 'doc_id', the name of an id column"),
])
def test_names_are_checked_before_any_scoring(tmp_path, capsys, cls, words):
    mods = _module(tmp_path, name="named.py")
    path = _file(tmp_path)
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures

    j = load_judgments(str(path), human=["overall", "faithful"])
    specs = resolve_measures(["my_metric"], j, measure_classes=[f"named:{cls}"], module_path=[str(mods)])
    import named

    named.CALLS.clear()
    with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)").replace("mine:", "named:")):
        meta_eval.meta_evaluate(j, specs, meta_eval.Settings(humans=("overall",), n_resamples=10))
    assert named.CALLS == []  # refused before any scoring


def test_a_human_column_may_be_a_measure_against_another_human(tmp_path):
    assert _meta_eval(tmp_path, "--human", "overall", "--measures", "my_metric", "faithful", "overall/ann1") == 0
    corr = pd.read_csv(tmp_path / "out" / "correlations.csv")
    measures = corr[corr["role"] == "measure"]
    assert set(measures["measure"]) == {"my_metric", "faithful", "overall/ann1"}
    # the sentinels (the file has summaries; on by default) are beside them, never as a measure
    from sumeval.meta_eval.sentinels import ORDER

    assert set(corr.loc[corr["role"] != "measure", "measure"]) <= set(ORDER)
    assert set(corr.loc[corr["role"] == "sentinel", "measure"]) >= {"length (sentinel)", "random (sentinel)"}


def test_the_former_alias_coherence_names_similarity_order(tmp_path, capsys):
    # a file without a 'coherence' column: the name is refused with the measure to use instead
    assert _meta_eval(tmp_path, "--human", "overall", "--measures", "coherence") == 2
    err = capsys.readouterr().err
    assert "'coherence' is no longer a measure name: the measure is called 'similarity-order'" in err
    # a file whose human column is 'coherence' (SummEval's): the clash is found before scoring
    path = _file(tmp_path)
    f = pd.read_csv(path).rename(columns={"faithful": "coherence"})
    f.to_csv(path, index=False)
    assert main(["meta-eval", str(path), "--human", "overall", "coherence", "--measures", "my_metric", "coherence",
                 "-q", "--no-figures", "--out", str(tmp_path / "o2")]) == 2
    err = capsys.readouterr().err
    assert "measure 'coherence' is the human column 'coherence'" in err and "write similarity-order" in err


def test_the_study_parameter_sets_pass_the_name_check():
    """meta_evaluation's smoke and default measure lists, resolved on SummEval, clash with none of
    its columns (the default list named `coherence`, SummEval's human column, until issue 21)."""
    import yaml

    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures
    from sumeval.studies.common.measure_parameters import scorer_options, split

    params = yaml.safe_load((REPO_ROOT / "notebooks" / "meta_evaluation.params.yaml").read_text())
    j = load_judgments("summeval", n_docs=2)
    for name in ("smoke", "default"):
        assert "coherence" not in split(params[name]["measures"])
        specs = resolve_measures(list(split(params[name]["measures"])), j,
                                 options=scorer_options(precision=params[name].get("precision", "")))
        meta_eval.check_measure_names(j, specs, tuple(j.humans))
    old = params["default"]["measures"].replace("similarity-order", "coherence")
    specs = resolve_measures(list(split(old)), j, options=scorer_options(precision="bf16"))
    with pytest.raises(InputError, match=r"measure 'coherence' is the human column 'coherence'.*similarity-order"):
        meta_eval.check_measure_names(j, specs, tuple(j.humans))


# --------------------------------------------------------------------------------------------
# The catalogue re-run (issue 21, Done-when): wording and warnings as the user sees them
# --------------------------------------------------------------------------------------------
def test_a_bad_choice_reads_choose_one_of(tmp_path, capsys):
    assert _meta_eval(tmp_path, "--human", "overall", "--measures", "my_metric", "--coefficient", "foo") == 2
    assert ("--coefficient 'foo' is not a coefficient; choose one of pearson, spearman, kendall_b, kendall_c"
            in capsys.readouterr().err)  # was "choose of"
    with pytest.raises(InputError, match=r"--ci-resampling 'rows': choose one of inputs, systems, both"):
        meta_eval.Settings(humans=("overall",), ci_resampling="rows").check()


def test_a_warning_is_one_line_without_pythons_source_line():
    from sumeval.cli import format_warning
    from sumeval.metrics import NotScoredWarning

    text = format_warning(NotScoredWarning("measure 'x' gave no number\n  on 2 rows"), NotScoredWarning,
                          "/x/sumeval/metrics/judgment_scores.py", 138, "scores, rep = ...")
    assert text == "warning: measure 'x' gave no number on 2 rows\n"
    other = format_warning(UserWarning("Tight layout not applied."), UserWarning, "/x/plots.py", 76)
    assert other == "warning: Tight layout not applied. (UserWarning at /x/plots.py:76)\n"


def test_meta_eval_shows_the_scorings_warning_as_one_line(tmp_path):
    """M12b: the warning of a measure that gave NaN on some rows, through the command itself (a
    subprocess: pytest records warnings instead of printing them)."""
    import os
    import subprocess
    import sys

    (tmp_path / "halfnan.py").write_text(
        "import numpy as np\nfrom sumeval.metrics import Scorer\n"
        "class HalfNaN(Scorer):\n    name = 'half-nan'\n    needs = ()\n    higher_is_better = True\n"
        "    version = '1'\n    def options(self):\n        return {}\n    def columns(self):\n"
        "        return ['half-nan']\n    def score_batch(self, batch):\n"
        "        v = np.array([len(s) for s in batch.summaries], dtype=float)\n        v[::2] = np.nan\n"
        "        return {'half-nan': v}\n")
    data = _file(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "SUMEVAL_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-m", "sumeval.cli", "meta-eval", str(data), "--human", "overall",
                           "--measures", "my_metric", "--measure-class", "halfnan:HalfNaN", "--module-path",
                           str(tmp_path), "--n-resamples", "20", "-q", "--no-figures", "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    # rows 0, 2, 4, ... of 40: base.csv lines 2, 4, 6, ...
    [warned] = [ln for ln in lines if "gave no number (NaN or None)" in ln]
    assert warned.startswith("warning: measure 'half-nan' (halfnan.HalfNaN) gave no number (NaN or None) for "
                             f"20 of the 40 rows it was asked to score, without a reason (Scores' undefined): "
                             f"{data}:2, {data}:4, {data}:6, {data}:8, {data}:10 and 15 more.")
    assert "NotScoredWarning" not in proc.stderr and "judgment_scores.py" not in proc.stderr
    assert not any(ln.startswith("  ") for ln in lines)  # no source line under a warning
