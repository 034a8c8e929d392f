"""Reliability of the meta-evaluation outputs (issue 30): ties in the across ranking, whole-folder
replacement of an across result, one writer per --out, the --weight option, data set names.

Grouped by class of problem:

1. ties in the across ranking are ties: exactly tied mean ranks are equal floats whatever the task
   order, the order and the bold agree (sumeval.meta_eval.across.summarize, across_output); values
   apart by rounding only are bold together in every table (sumeval.tables.best_mask);
2. an across --overwrite replaces the earlier result as a whole, and an interrupted run leaves the
   earlier result and nothing that a later run does not remove;
3. one writer per --out: a second `sumeval meta-eval` into the same folder is refused at once, naming
   the folder and the other process (real processes);
4. the --weight option: a repeated set (in one flag or two), and --weight without --dataset, are
   refused; every list option given twice adds up (argparse's store kept only the last);
5. data set names: a trailing newline, the reserved word `shelf` and a name ending like a file the
   across run writes beside the set folders (manifest.json, a table, a figure) are refused;
6. set folders: a set given as a file gets a folder of its own directly under --out, named after the
   file, never another set's nor a top file's, recorded in the across manifest.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import cli
from sumeval.errors import InputError
from sumeval.meta_eval import across, across_output

from helpers import TEST_DATA, checkout_env, digest  # tests/ is on the path

MAP = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output", "--text-col", "source",
       "--references-col", "gold"]


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


# --------------------------------------------------------------------------------------------
# 1. Ties in the across ranking
# --------------------------------------------------------------------------------------------
#: the shelf's task structure: (human columns, levels) per data set, every set weighing 1/10
SHELF_LIKE = {"summeval": (4, 3), "realsumm": (1, 3), "dialsummeval": (4, 3), "frank": (1, 3), "qags-c": (1, 3),
              "qags-x": (1, 3), "xsumfaith": (1, 3), "newsroom": (4, 3), "rank19": (1, 1), "rose": (4, 3)}
LEVELS = ("input", "system", "global")


def _shelf_like(measures: dict[str, tuple[tuple[str, ...], float, int]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(cells, tasks)`` over :data:`SHELF_LIKE`; ``measures``: ``{name: (its sets, value, cluster)}``, the
    same value and cluster on each of its tasks, a blank cell elsewhere."""
    tasks = pd.DataFrame([{"dataset": s, "human": f"h{h}", "level": LEVELS[lv], "kind": "correlation"}
                          for s, (nh, nl) in SHELF_LIKE.items() for h in range(nh) for lv in range(nl)])
    rows = []
    for m, (sets, value, cluster) in measures.items():
        for t in tasks.itertuples(index=False):
            base = {"coefficient": "kendall_b", "measure": m, "dataset": t.dataset, "human": t.human,
                    "level": t.level, "kind": t.kind}
            if t.dataset in sets:
                rows.append({**base, "value": value, "cluster": cluster, "rank": cluster, "n": 10, "status": "ok"})
            else:
                rows.append({**base, "status": "cannot run", "reason": "no references in it"})
    return pd.DataFrame(rows, columns=across.CELL_COLUMNS), tasks


def _ranking(cells: pd.DataFrame, tasks: pd.DataFrame) -> tuple[list[str], pd.DataFrame, pd.DataFrame]:
    """``(order, table, bold)`` of the across ranking table of ``cells``."""
    summary = across.summarize(cells, tasks)
    result = across.AcrossResult(settings=across.AcrossSettings(), sets={}, measures=list(summary["measure"]),
                                 given=[], cells=cells, tasks=tasks, summary=summary)
    table, bold = across_output.ranking_table(result, "kendall_b")
    return list(table.index), table, bold


class TestTiesInTheAcrossRanking:
    """Measures in cluster 1 on every task they have tie at mean rank 1, whatever tasks they have
    (the shelf study: sets of 1 or 4 human columns, 1 or 3 levels; weights 1/10 split unevenly), so
    they are ordered by mean score; before, 1/10 / 4 / 3 summed to 0.9999999999999996 for some and
    to 1.0 for others, which put weak measures above strong ones and left some 1.000 rows unbolded."""

    MEASURES = {
        "weak": (("realsumm", "dialsummeval"), 0.0, 1),      # summed to 0.9999999999999996 before
        "weaker": (("frank", "rose"), -0.2, 1),              # 0.9999999999999996 too
        "strong": (("summeval", "dialsummeval", "frank", "qags-c"), 0.8, 1),  # 1.0 before
        "middle": (("qags-x", "xsumfaith", "newsroom"), 0.5, 1),
        "second": (("summeval", "frank"), 0.9, 2),
    }

    def test_tied_mean_ranks_are_exactly_equal_and_ordered_by_mean_score(self):
        order, table, bold = _ranking(*_shelf_like(self.MEASURES))
        assert table.loc[["weak", "weaker", "strong", "middle"], "mean rank"].tolist() == [1.0, 1.0, 1.0, 1.0]
        assert order == ["strong", "middle", "weak", "weaker", "second"]
        assert table["position"].tolist() == [1, 2, 3, 4, 5]
        # every row at the lowest mean rank is bold, and only those
        assert bold["mean rank"].tolist() == [True, True, True, True, False]

    def test_the_order_and_the_bold_do_not_depend_on_the_task_order(self):
        cells, tasks = _shelf_like(self.MEASURES)
        ref_order, ref_table, ref_bold = _ranking(cells, tasks)
        for seed in range(6):
            rng = np.random.default_rng(seed)
            shuffled_tasks = tasks.iloc[rng.permutation(len(tasks))].reset_index(drop=True)
            shuffled_cells = cells.iloc[rng.permutation(len(cells))].reset_index(drop=True)
            order, table, bold = _ranking(shuffled_cells, shuffled_tasks)
            assert order == ref_order
            pd.testing.assert_frame_equal(table, ref_table)  # every number exactly as in task order
            pd.testing.assert_frame_equal(bold, ref_bold)

    def test_means_apart_by_rounding_only_are_one_tie(self):
        """Two measures whose correlations tie as numbers but came out one unit in the last place
        apart (0.1 + 0.2 and 0.3) tie in mean score by the system means' rule (stats.ties): both
        bold, ordered by name, in either order of the cells."""
        base = {"a": (("summeval", "frank"), 0.1 + 0.2, 1), "b": (("summeval", "frank"), 0.3, 1),
                "c": (("summeval", "frank"), 0.1, 1)}
        for names in (("a", "b", "c"), ("b", "a", "c")):
            cells, tasks = _shelf_like({n: base[n] for n in names})
            order, table, bold = _ranking(cells, tasks)
            assert order == ["a", "b", "c"]
            assert table.loc["a", "mean score"] == table.loc["b", "mean score"]
            assert bold["mean score"].tolist() == [True, True, False]
            assert bold["mean correlation"].tolist() == [True, True, False]


def test_values_apart_by_rounding_only_are_bold_together_in_every_table(tmp_path):
    """The same rule in a single data set's table (sumeval.tables.best_mask, used by every table): a
    measure column and its copies times 1e155 and 1e-300 (issue 30; the products round, so the three
    correlations come out a few units in the last place apart) print the same value and are bold
    together in each column; before, one of the three was bold by a rounding difference of 3e-17."""
    from sumeval.tables import best_mask

    raw = pd.read_csv(TEST_DATA / "user_judgments.csv")
    raw["big"], raw["tiny"] = raw["my_metric"] * 1e155, raw["my_metric"] * 1e-300
    raw.to_csv(tmp_path / "scaled.csv", index=False)
    out = tmp_path / "out"
    assert cli.main(["meta-eval", str(tmp_path / "scaled.csv"), *MAP, "--human", "overall", "--measures", "my_metric",
                     "big", "tiny", "--coefficient", "pearson", "--level", "input", "system", "global",
                     "--no-sentinels", "--n-resamples", "20", "--no-figures", "-q", "--out", str(out)]) == 0
    corr = pd.read_csv(out / "correlations.csv")
    corr = corr[corr["measure"].isin(["my_metric", "big", "tiny"])].pivot(index="measure", columns="level",
                                                                         values="value")
    apart = (corr.max() - corr.min()).max()
    assert 0 < apart < 1e-14  # the inputs' rounding reaches the correlations, and only just
    table = (out / "table_pearson.md").read_text(encoding="utf-8")
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines() if line.startswith("|")]
    cells = [row[2:] for row in rows if row[1] in ("my_metric", "big", "tiny")]  # | block | measure | values
    assert len(cells) == 3 and len(cells[0]) == 3
    for column in zip(*cells):
        assert len({c.replace("**", "") for c in column}) == 1  # printed alike ...
        assert len({c.startswith("**") for c in column}) == 1   # ... and bold alike
    # the rule itself, both directions and both axes; a real difference stays one
    frame = pd.DataFrame({"r": [0.1 + 0.2, 0.3, 0.1], "err": [0.3, 0.1 + 0.2, 0.30001]})
    assert best_mask(frame)["r"].tolist() == [True, True, False]
    assert best_mask(frame, higher_is_better=False)["err"].tolist() == [True, True, False]
    assert best_mask(frame.T, axis=1).loc["r"].tolist() == [True, True, False]


# --------------------------------------------------------------------------------------------
# Shared: user data sets and the command line
# --------------------------------------------------------------------------------------------
FAST = ["--n-resamples", "20", "--level", "system", "--no-figures", "-q"]


@pytest.fixture()
def sets(tmp_path, capsys):
    """Two user data sets from tests/data/user_judgments.csv: `news` (texts, references) and `notext`."""
    raw = pd.read_csv(TEST_DATA / "user_judgments.csv")
    raw.to_csv(tmp_path / "news.csv", index=False)
    raw.drop(columns=["source", "faithful"]).to_csv(tmp_path / "notext.csv", index=False)
    assert cli.main(["data", "add", "news", str(tmp_path / "news.csv"), *MAP, "--human", "overall"]) == 0
    assert cli.main(["data", "add", "notext", str(tmp_path / "notext.csv"), *MAP[:6], *MAP[8:],
                     "--human", "overall"]) == 0
    capsys.readouterr()
    return ["news", "notext"]


def _across(out: Path, *extra: str) -> int:
    return cli.main(["meta-eval", "--out", str(out), "--measures", "rouge-1", *FAST, *extra])


def _one_run(out: Path) -> dict:
    """Assert ``out`` holds exactly one across run: the files and set folders its manifest names."""
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    folders = [s["folder"] for s in manifest["sets"].values() if s["status"] == "ok"]
    assert sorted(p.name for p in out.iterdir()) == sorted(manifest["files"] + folders)
    for name in folders:
        own = json.loads((out / name / "manifest.json").read_text())
        assert own["settings"]["seed"] == manifest["settings"]["seed"]
    return manifest


# --------------------------------------------------------------------------------------------
# 2. An across --overwrite replaces the folder as a whole; an interrupted run leaves the old one
# --------------------------------------------------------------------------------------------
STOP_WRITING = """
import os, signal, sys
from sumeval import tables
def killed(*a, **k):                          # the first table of the top files: the set folders are written
    os.kill(os.getpid(), signal.SIGKILL)
tables.write_table = killed
from sumeval.cli import main
sys.exit(main(sys.argv[1:]))
"""


class TestAcrossOverwriteIsWhole:
    def test_overwrite_leaves_nothing_of_the_earlier_run(self, sets, tmp_path):
        out = tmp_path / "across"
        assert _across(out, "--dataset", "news", "notext", "--coefficient", "kendall_b", "pearson") == 0
        assert (out / "notext").is_dir() and (out / "table_ranking_pearson.md").is_file()
        assert _across(out, "--dataset", "news", "--coefficient", "kendall_b", "--seed", "3", "--min-sets", "1",
                       "--overwrite") == 0
        manifest = _one_run(out)  # neither notext/ nor a pearson table of the first run is left
        assert manifest["settings"]["seed"] == 3 and list(manifest["sets"]) == ["news"]
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # nothing hidden left beside

    def test_overwrite_refuses_files_the_earlier_run_did_not_write(self, sets, tmp_path, capsys):
        out = tmp_path / "across"
        assert _across(out, "--dataset", "news", "notext") == 0
        (out / "notes.txt").write_text("mine")
        before = digest(out)
        assert _across(out, "--dataset", "news", "notext", "--overwrite") == 2
        assert "files it did not write (notes.txt)" in capsys.readouterr().err and digest(out) == before

    def test_a_kill_while_writing_leaves_the_earlier_result_and_the_next_run_clears_up(self, sets, tmp_path):
        out = tmp_path / "across"
        assert _across(out, "--dataset", "news", "notext") == 0
        before = digest(out)
        args = ["meta-eval", "--dataset", "news", "notext", "--measures", "rouge-1", *FAST, "--seed", "7",
                "--overwrite", "--out", str(out)]
        p = subprocess.run([sys.executable, "-c", STOP_WRITING, *args], env=checkout_env(), capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == -9, p.stderr
        assert digest(out) == before  # the set folders were written, but not into --out
        # beside: the killed run's work folder, and its lock file (the system released the lock)
        hidden = sorted(q.name for q in tmp_path.iterdir() if q.name.startswith("."))
        assert len(hidden) == 2 and hidden[0] == ".across.meta-eval-lock"
        assert re.fullmatch(r"\.across\.meta-eval-partial-\d+", hidden[1])
        (out / ".across-partial-999999999").mkdir()  # what a killed run of an earlier version left inside
        across_output.check_across_out(out, overwrite=True)  # the next run's check removes both folders
        assert not (tmp_path / hidden[1]).exists() and not (out / ".across-partial-999999999").exists()
        assert _across(out, "--dataset", "news", "notext", "--seed", "7", "--overwrite") == 0
        assert not [q for q in [*tmp_path.iterdir(), *out.iterdir()] if q.name.startswith(".")]
        assert _one_run(out)["settings"]["seed"] == 7


# --------------------------------------------------------------------------------------------
# 3. One writer per --out (real processes)
# --------------------------------------------------------------------------------------------
HOLD = """
import sys, time
from pathlib import Path
from sumeval import meta_eval
from sumeval.meta_eval import across
ready, release = Path(sys.argv[1]), Path(sys.argv[2])
def held(real):
    def wait_then_run(*a, **k):                 # inside the run: --out checked and locked
        ready.write_text("in")
        t0 = time.time()
        while not release.exists() and time.time() - t0 < 120:
            time.sleep(0.05)
        return real(*a, **k)
    return wait_then_run
meta_eval.meta_evaluate = held(meta_eval.meta_evaluate)
across.meta_evaluate_across = held(across.meta_evaluate_across)
from sumeval.cli import main
sys.exit(main(sys.argv[3:]))
"""


class TestOneWriterPerOut:
    @pytest.mark.parametrize("run", [["news", "--human", "overall"], ["--dataset", "news", "notext"]],
                             ids=["one set", "across sets"])
    def test_a_second_run_into_the_same_new_out_is_refused_at_once(self, sets, tmp_path, run):
        out = tmp_path / "shared-out"
        ready, release = tmp_path / "ready", tmp_path / "release"
        args = ["meta-eval", *run, "--measures", "rouge-1", *FAST, "--out", str(out)]
        first = subprocess.Popen([sys.executable, "-c", HOLD, str(ready), str(release), *args], env=checkout_env(),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            t0 = time.time()
            while not ready.exists() and first.poll() is None and time.time() - t0 < 120:
                time.sleep(0.05)
            assert ready.exists(), first.communicate(timeout=60)
            t1 = time.time()
            second = subprocess.run([sys.executable, "-m", "sumeval.cli", *args, "--seed", "9"], env=checkout_env(),
                                    capture_output=True, text=True, timeout=120)
            assert second.returncode == 2, second.stderr
            assert f"--out {str(out)!r} is being written by pid {first.pid} " in second.stderr
            assert "Traceback" not in second.stderr and time.time() - t1 < 60  # refused before any work
            release.write_text("go")
            stdout, stderr = first.communicate(timeout=300)
        finally:
            if first.poll() is None:
                first.kill()
                first.wait()
        assert first.returncode == 0, stderr
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["settings"]["seed"] == 0  # the first run's result, whole; the second wrote nothing
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # the lock file is gone too

    def test_the_lock_is_free_again_after_a_run_and_held_within_one_process(self, tmp_path):
        from sumeval.meta_eval.output import out_lock

        out = tmp_path / "a" / "b"
        with out_lock(out):
            assert (tmp_path / "a" / ".b.meta-eval-lock").is_file()
            with out_lock(out):  # a writer called inside the command that holds it
                pass
            code = f"from sumeval.meta_eval.output import out_lock\nwith out_lock({str(out)!r}): pass"
            p = subprocess.run([sys.executable, "-c", code], env=checkout_env(), capture_output=True, text=True,
                               timeout=120)
            assert p.returncode == 1 and f"is being written by pid {os.getpid()} " in p.stderr
        assert not (tmp_path / "a").exists()  # the lock file, and the folder made for it, removed
        p = subprocess.run([sys.executable, "-c", code], env=checkout_env(), capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == 0, p.stderr


# --------------------------------------------------------------------------------------------
# 4. --weight
# --------------------------------------------------------------------------------------------
class TestWeightOption:
    def test_a_set_weighted_twice_is_refused_naming_both(self):
        for items in (["news=2", "news=3"], ["news=2,notext=1", "news:0.5"]):
            with pytest.raises(InputError, match=r"data set 'news' twice \('news=2' and 'news(=3|:0.5)'\)"):
                across_output.parse_weights(items)
        assert across_output.parse_weights(["news=2", "notext=1"]) == {"news": 2.0, "notext": 1.0}

    def test_weight_without_dataset_is_refused_with_the_fix(self, sets, tmp_path, capsys):
        out = tmp_path / "one"
        assert cli.main(["meta-eval", "news", "--human", "overall", "--measures", "rouge-1", "--weight", "news=2",
                         *FAST, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert "--weight news=2" in err and "--dataset" in err and not out.exists()
        assert cli.main(["meta-eval", "--dataset", "news", "notext", "--measures", "rouge-1", "--weight", "news=2",
                         "notext=1", "news=4", *FAST, "--out", str(out)]) == 2
        assert "'news=2' and 'news=4'" in capsys.readouterr().err and not out.exists()


    def test_a_list_option_given_twice_adds_up_and_a_set_weighted_in_two_flags_is_refused(self, sets, tmp_path,
                                                                                         capsys):
        """`--weight a=2 --weight b=1` (each flag its own set) keeps both weights; before, the second flag
        replaced the first silently (argparse's store): the run weighed `news` 1 and said nothing. So for
        every list option of meta-eval and alt-test: a repeated flag adds to the list, and a repeated name
        is then refused as in one flag."""
        out = tmp_path / "two"
        assert cli.main(["meta-eval", "--dataset", "news", "notext", "--measures", "rouge-1", "--weight", "news=2",
                         "--weight", "notext=1", *FAST, "--out", str(out)]) == 0
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["settings"]["weights"] == {"news": 2.0, "notext": 1.0}
        capsys.readouterr()
        again = tmp_path / "again"
        assert cli.main(["meta-eval", "--dataset", "news", "notext", "--measures", "rouge-1", "--weight", "news=2",
                         "--weight", "news=4", *FAST, "--out", str(again)]) == 2
        assert "'news=2' and 'news=4'" in capsys.readouterr().err and not again.exists()
        parser = cli.build_parser()
        args = parser.parse_args(["meta-eval", "news", "--human", "overall", "--human", "faithful", "--measures",
                                  "rouge-1", "--measures", "my_metric", "--level", "input", "--level", "system",
                                  "--coefficient", "pearson", "--coefficient", "kendall_b", "--meta-metric",
                                  "correlation", "--meta-metric", "spa", "--out", "x"])
        assert (args.human, args.measures, args.level, args.coefficient, args.meta_metric) == (
            ["overall", "faithful"], ["rouge-1", "my_metric"], ["input", "system"], ["pearson", "kendall_b"],
            ["correlation", "spa"])
        args = parser.parse_args(["meta-eval", "--dataset", "news", "--dataset", "notext", "--out", "x"])
        assert args.dataset == ["news", "notext"]
        for command in ("alt-test", "judge-audit"):
            args = parser.parse_args([command, "news", "--human", "overall", "--judges", "a", "--judges", "b",
                                      "--out", "x"])
            assert args.judges == ["a", "b"]
        assert cli.main(["meta-eval", "news", "--human", "overall", "--human", "overall", "--measures", "rouge-1",
                         *FAST, "--out", str(tmp_path / "h")]) == 2
        assert "--human names 'overall' more than once" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# 5. Data set names
# --------------------------------------------------------------------------------------------
class TestDataSetNames:
    @pytest.mark.parametrize("name, says", [("mine\n", "is not allowed"), ("shelf", "reserved"), ("Shelf", "reserved"),
                                            ("mine\n\n", "is not allowed"), ("manifest.json", "ends like a file"),
                                            ("table_ranking_kendall_b.md", "ends like a file"),
                                            ("heatmap.PNG", "ends like a file"), ("across.csv", "ends like a file")])
    def test_a_name_that_could_not_be_named_again_is_refused(self, tmp_path, name, says):
        from sumeval.datasets.judgments import add_dataset
        from sumeval.datasets.user_datasets import read_registry

        with pytest.raises(InputError, match=says):
            add_dataset(name, TEST_DATA / "user_judgments.csv", human=["overall"], doc_col="article_id",
                        system_col="model", summary_col="output", text_col="source", references_col="gold")
        assert read_registry() == {}

    def test_the_command_line_says_why(self, tmp_path, capsys):
        assert cli.main(["data", "add", "shelf", str(TEST_DATA / "user_judgments.csv"), *MAP,
                         "--human", "overall"]) == 2
        assert "'shelf' is reserved: `--dataset shelf`" in capsys.readouterr().err
        # (a name ending like a data file, .csv .json ..., is refused as looking like a path; one ending like an
        # output the across run writes, .png .tex ..., says why)
        assert cli.main(["data", "add", "heatmap.png", str(TEST_DATA / "user_judgments.csv"), *MAP, "--human",
                         "overall"]) == 2
        assert "writes each set's results into OUT/<name>/, beside its own files (manifest.json" in \
            capsys.readouterr().err
        assert cli.main(["data", "add", "shelf2", str(TEST_DATA / "user_judgments.csv"), *MAP,
                         "--human", "overall"]) == 0


    @pytest.mark.parametrize("names", [["summeval\n"], ["summeval\n", "realsumm"], ["realsumm", "\tsummeval"]])
    def test_a_given_name_with_a_line_break_is_refused_before_anything_is_written(self, tmp_path, capsys, names):
        # it was stripped for the lookup but kept as the set's key across sets: 'summeval\n' in the manifest
        # and across.csv, a folder `summeval_`, Markdown headers broken over two lines (exit 0)
        out = tmp_path / "out"
        given = ["--dataset", *names] if len(names) > 1 else [*names, "--human", "coherence"]
        args = ["meta-eval", *given, "--measures", "rouge-1", "--n-docs", "3", "--n-resamples", "10", "--no-spa",
                "--no-figures", "-q", "--out", str(out)]
        assert cli.main(args) == 2
        err = capsys.readouterr().err
        assert "holds a line break or another control character" in err and "Traceback" not in err
        assert not out.exists() or not any(out.iterdir())


# --------------------------------------------------------------------------------------------
# 6. Set folders
# --------------------------------------------------------------------------------------------
class TestSetFolders:
    def test_a_file_names_its_folder_and_no_folder_takes_another_or_a_top_file(self):
        names = ["a/judgments.csv", "judgments", "/x/b/Judgments.jsonl", "b/manifest.json.csv", "c/across.csv",
                 "manifest.json", "d/my data (v2).tsv", "e/.csv", "summeval"]
        assert across_output.set_folders(names) == {
            "a/judgments.csv": "judgments-2", "judgments": "judgments",  # a set named by its name comes first
            "/x/b/Judgments.jsonl": "Judgments-3",  # in any case: one file system may not tell them apart
            "b/manifest.json.csv": "manifest", "c/across.csv": "across",  # never a top file's name
            "manifest.json": "manifest-2",  # a name registered before such names were refused
            "d/my data (v2).tsv": "my_data__v2_", "e/.csv": "dataset", "summeval": "summeval"}

    def test_sets_given_as_files_get_folders_of_their_own_directly_under_out(self, tmp_path, monkeypatch, capsys):
        """Before: OUT/<the path> - nested (OUT/a/judgments.csv/), and an absolute path named a
        folder elsewhere (the data file itself)."""
        raw = pd.read_csv(TEST_DATA / "user_judgments.csv").rename(columns={
            "article_id": "doc_id", "model": "system", "output": "summary", "source": "text", "gold": "references"})
        for f in ("a/judgments.csv", "b/judgments.csv", "b/manifest.json.csv"):
            (tmp_path / f).parent.mkdir(exist_ok=True)
            raw.to_csv(tmp_path / f, index=False)
        monkeypatch.chdir(tmp_path)
        files = ["a/judgments.csv", str(tmp_path / "b" / "judgments.csv"), "b/manifest.json.csv"]
        out = tmp_path / "across"
        run = ["--dataset", *files, "--human", *(f"{f}:overall" for f in files)]
        assert _across(out, *run) == 0
        manifest = _one_run(out)  # every set folder directly under --out, and nothing else
        assert {k: s["folder"] for k, s in manifest["sets"].items()} == dict(zip(files, ["judgments", "judgments-2",
                                                                                         "manifest"]))
        err = capsys.readouterr().err
        assert f"the results of data set {files[1]!r} are in {out / 'judgments-2'}" in err
        assert sorted({p.name for p in tmp_path.iterdir()} - {"cache", "reg"}) == ["a", "across", "b"]
        assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["judgments.csv", "manifest.json.csv"]
        for folder in ("judgments", "judgments-2", "manifest"):
            assert json.loads((out / folder / "manifest.json").read_text())["kind"] == "sumeval meta-eval"
        # --overwrite knows the folders as its own; with figures, every top file ends as no set folder can
        assert _across(out, *run, "--seed", "4", "--overwrite") == 0
        assert _one_run(out)["settings"]["seed"] == 4
        from sumeval.datasets.user_datasets import OUTPUT_SUFFIXES

        assert cli.main(["meta-eval", "--out", str(out), "--measures", "rouge-1", "--n-resamples", "20", "--level",
                         "system", "-q", *run, "--overwrite"]) == 0
        tops = [p.name for p in out.iterdir() if p.is_file()]
        assert any(n.endswith(".png") for n in tops)
        assert [n for n in tops if not n.lower().endswith(OUTPUT_SUFFIXES)] == []
