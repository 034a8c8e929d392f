"""Ownership of outputs (issue 21): nothing a user made is ever overwritten.

`data export` never writes over a data set's own file (also through links and ``..``); the user
registry is changed under a lock, so concurrent `data add` all land, and a malformed entry can be
removed; `meta-eval --out` replaces only an earlier meta-eval's own files, with --overwrite, as a
whole (a kill during the move leaves the old result or the new one, never a mix). The study runs
(figures published only on success, named by data set, the skipped status, a full disk, `-p`
parsing) are in tests/running/test_outputs_ownership_runs.py.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sumeval import cli
from sumeval.datasets import judgments as jd
from sumeval.datasets import user_datasets as ud
from sumeval.errors import InputError

from helpers import TEST_DATA, checkout_env, digest  # tests/ is on the path

USER_CSV = TEST_DATA / "user_judgments.csv"
MAP = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output", "--text-col", "source",
       "--references-col", "gold"]
ADD = [*MAP, "--human", "faithful,overall", "--lower-is-better", "my_metric"]
FAST = ["--n-resamples", "30", "-q"]


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


@pytest.fixture()
def uj(tmp_path, capsys):
    """A user's copy of tests/data/user_judgments.csv added as `uj` (case A15d)."""
    mine = tmp_path / "in" / "uj.csv"
    mine.parent.mkdir()
    mine.write_bytes(USER_CSV.read_bytes())
    assert cli.main(["data", "add", "uj", str(mine), *ADD]) == 0
    capsys.readouterr()
    return mine


# --------------------------------------------------------------------------------------------
# 1. data export never over a data set's own file; folders refused (A15b, A15d, A10)
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["same path", "symlink", "hard link", "dot-dot", "relative"])
def test_export_refuses_the_registered_file_however_it_is_named(uj, tmp_path, how, capsys, monkeypatch):
    before = uj.read_bytes()
    if how == "same path":
        target = str(uj)
    elif how == "symlink":
        (tmp_path / "link.csv").symlink_to(uj)
        target = str(tmp_path / "link.csv")
    elif how == "hard link":
        os.link(uj, tmp_path / "hard.csv")
        target = str(tmp_path / "hard.csv")
    elif how == "dot-dot":
        (tmp_path / "in" / "sub").mkdir()
        target = str(tmp_path / "in" / "sub" / ".." / "uj.csv")
    else:
        monkeypatch.chdir(tmp_path / "in")
        target = "uj.csv"
    assert cli.main(["data", "export", "uj", "-o", target]) == 2
    err = capsys.readouterr().err
    assert "the file of user data set 'uj'" in err and str(uj) in err and "Write to another file" in err
    assert uj.read_bytes() == before  # the user's original is untouched
    assert cli.main(["data", "show", "uj"]) == 0  # and the data set still loads (same sha256)


def test_export_refuses_another_data_sets_file_the_registry_and_builtin_files(uj, tmp_path, capsys):
    other = tmp_path / "other.csv"
    other.write_bytes(USER_CSV.read_bytes())
    assert cli.main(["data", "add", "other", str(other), *ADD]) == 0
    capsys.readouterr()
    before = other.read_bytes()
    assert cli.main(["data", "export", "uj", "-o", str(other)]) == 2  # uj's rows over other's file
    assert "user data set 'other'" in capsys.readouterr().err and other.read_bytes() == before
    with pytest.raises(InputError, match="the file 'uj' was read from"):  # the library function refuses too
        jd.export_judgments(jd.load_judgments("uj"), uj)
    registry = ud.registry_file()
    reg_before = registry.read_bytes()
    with pytest.raises(InputError, match="the user data set registry"):
        ud.check_export_target(registry.with_suffix(".json"))
    assert registry.read_bytes() == reg_before
    from sumeval.paths import data_search_path

    for place in data_search_path():  # every copy of a built-in file, in every data folder, even absent
        with pytest.raises(InputError, match="built-in data set 'summeval'"):
            ud.check_export_target(place / "summeval" / "summeval_pairs_1600.jsonl")
    builtin = data_search_path()[0] / "realsumm" / "realsumm_100x25.jsonl"
    (tmp_path / "rs.jsonl").symlink_to(builtin)
    with pytest.raises(InputError, match="built-in data set 'realsumm'"):
        ud.check_export_target(tmp_path / "rs.jsonl")


@pytest.mark.parametrize("how", ["same path", "symlink", "registry"])
def test_score_output_never_replaces_a_data_sets_file(uj, tmp_path, how, capsys):
    """NEW of the catalogue re-run: `sumeval score -o` onto the file a data set was added from
    replaced the user's judgments with scores (exit 0), as A15d did for `data export`."""
    inp = tmp_path / "pairs.jsonl"
    inp.write_text(json.dumps({"summary": "the cat sat", "references": ["the cat sat on the mat"]}) + "\n")
    if how == "symlink":
        (tmp_path / "link.csv").symlink_to(uj)
    target = {"same path": uj, "symlink": tmp_path / "link.csv", "registry": ud.registry_file()}[how]
    before = {p: p.read_bytes() for p in (uj, ud.registry_file())}
    assert cli.main(["score", "rouge-1", "-i", str(inp), "-o", str(target)]) == 2
    err = capsys.readouterr().err
    what = "the user data set registry" if how == "registry" else "the file of user data set 'uj'"
    assert f"sumeval: error: --output '{target}' is {what} (" in err
    assert "writing there would replace that file and break the data set. Write to another file, e.g. " in err
    assert {p: p.read_bytes() for p in before} == before and not list(tmp_path.rglob("*.meta.json"))
    assert cli.main(["score", "rouge-1", "-i", str(inp), "-o", str(tmp_path / "scored.jsonl")]) == 0
    # "the cat sat" vs "the cat sat on the mat": P = 3/3, R = 3/6, F = 2PR / (P + R) = 2/3
    assert json.loads((tmp_path / "scored.jsonl").read_text())["rouge-1-f"] == pytest.approx(2 / 3)


def test_export_of_a_file_path_onto_itself_is_refused(tmp_path, capsys):
    mine = tmp_path / "loose.csv"
    mine.write_bytes(USER_CSV.read_bytes())
    argv = ["data", "export", str(mine), *MAP, "--human", "faithful,overall", "-o"]
    assert cli.main([*argv, str(mine)]) == 2
    assert "the file 'loose' was read from" in capsys.readouterr().err
    assert mine.read_bytes() == USER_CSV.read_bytes()
    assert cli.main([*argv, str(tmp_path / "loose.jsonl")]) == 0  # another file: written
    assert len((tmp_path / "loose.jsonl").read_text().splitlines()) == 12


def test_export_and_add_of_a_folder_say_folder(uj, tmp_path, capsys):
    folder = tmp_path / "out"
    folder.mkdir()
    assert cli.main(["data", "export", "uj", "-o", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"-o '{folder}' is a folder; name the file to write in it, e.g. {folder / 'uj.jsonl'}" in err
    assert "unknown judgments format" not in err and list(folder.iterdir()) == []
    assert cli.main(["data", "export", "uj", "-o", str(tmp_path / "new") + "/"]) == 2  # 'new/' is a folder too
    assert "is a folder" in capsys.readouterr().err and not (tmp_path / "new").exists()
    assert cli.main(["data", "add", "d1", str(folder), "--human", "overall"]) == 2
    err = capsys.readouterr().err
    assert f"'{folder}' is a folder, not a judgments file" in err and "extension" not in err
    (folder / "judg.csv").write_bytes(USER_CSV.read_bytes())
    assert cli.main(["data", "add", "d1", str(folder), "--human", "overall"]) == 2
    assert f"it holds judg.csv, e.g. `sumeval data add d1 {folder / 'judg.csv'} --human COL`" in capsys.readouterr().err
    assert "d1" not in ud.read_registry()


# --------------------------------------------------------------------------------------------
# 2. the registry: a lock, read-merge-write (A12), malformed entries (A11c)
# --------------------------------------------------------------------------------------------
def test_concurrent_changes_of_the_registry_are_serialised(tmp_path):
    """Each process holds its change for 0.4 s: without the lock every one would read the empty
    registry and only the last write would survive; with it, all six entries land."""
    go = tmp_path / "go"
    code = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from sumeval.datasets import user_datasets as ud
        name = sys.argv[1]
        while not Path({str(go)!r}).exists():
            time.sleep(0.01)
        def change(raw, entries):
            time.sleep(0.4)
            raw[name] = {{"path": "/x/" + name + ".csv", "format": "csv", "sha256": "0" * 64, "size": 1}}
        ud.update_registry(change)
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code, f"p{i}"], env=checkout_env()) for i in range(6)]
    go.write_text("")
    assert [p.wait(timeout=120) for p in procs] == [0] * 6
    assert sorted(ud.read_registry()) == [f"p{i}" for i in range(6)]
    assert ud.lock_file().name == "user_datasets.json.lock"


def test_concurrent_data_add_commands_all_land(tmp_path):
    """Case A12 with real `sumeval data add` processes: 8 names at once, every one registered."""
    procs = [subprocess.Popen([sys.executable, "-m", "sumeval.cli", "data", "add", f"ra{i}", str(USER_CSV), *ADD],
                              env=checkout_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for i in range(8)]
    errs = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, errs
    assert all("added data set" in e for e in errs)
    assert sorted(ud.read_registry()) == [f"ra{i}" for i in range(8)]


def _corrupt(entries: dict) -> None:
    path = ud.registry_file()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["datasets"].update(entries)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_malformed_entry_is_listed_and_removable(uj, capsys):
    _corrupt({"x": {"path": 3}, "y": [1]})  # A11c: no 'format' (and a path that is not text); not an object
    assert cli.main(["data", "list"]) == 0  # the list does not fail as a whole
    out = capsys.readouterr().out
    assert "uj           user" in out
    assert "x            MALFORMED" in out and "entry 'x' is malformed (KeyError: 'format')" in out
    assert "entry 'y' is malformed (TypeError: an entry is an object, got list)" in out
    assert cli.main(["data", "show", "uj"]) == 0  # other data sets still load
    capsys.readouterr()
    assert cli.main(["data", "show", "x"]) == 2
    assert "`sumeval data remove x`" in capsys.readouterr().err
    assert cli.main(["data", "verify"]) == 1
    assert "FAIL x (): malformed" in capsys.readouterr().out
    assert cli.main(["data", "remove", "x"]) == 0  # the advised fix works (it used to loop)
    assert "x" not in ud.malformed_entries() and "y" in ud.malformed_entries()


def test_changes_keep_malformed_entries_and_a_taken_name_needs_replace(uj, tmp_path, capsys):
    _corrupt({"x": {"path": 3}})
    assert cli.main(["data", "add", "fresh", str(uj), *ADD]) == 0  # another name: x is kept as it was
    raw = json.loads(ud.registry_file().read_text(encoding="utf-8"))["datasets"]
    assert raw["x"] == {"path": 3} and "fresh" in raw and "uj" in raw
    capsys.readouterr()
    assert cli.main(["data", "add", "x", str(uj), *ADD]) == 2
    assert "already registered, as a malformed entry; pass --replace" in capsys.readouterr().err
    assert cli.main(["data", "add", "x", str(uj), *ADD, "--replace"]) == 0
    assert ud.read_registry()["x"].path == str(uj) and ud.malformed_entries() == {}
    assert cli.main(["data", "add", "uj", str(uj), *ADD]) == 2
    assert "already registered" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# 4. meta-eval --out: refused unless --overwrite (M18), replaced as a whole (F1b), checked early (M17b)
# --------------------------------------------------------------------------------------------
def _meta(out: Path, *extra: str, data: str = "uj") -> int:
    return cli.main(["meta-eval", data, "--human", "overall", "--out", str(out), *FAST, *extra])


def _consistent(out: Path) -> dict:
    """Assert ``out`` holds exactly one run: the files its manifest lists, whose tables agree with it."""
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(p.name for p in out.iterdir()) == sorted(manifest["files"])
    import pandas as pd

    corr = pd.read_csv(out / "correlations.csv")
    assert sorted(set(corr["measure"])) == sorted([m["label"] for m in manifest["measures"]]
                                                  + manifest["annotator_rows"]  # the annotators and their mean
                                                  + manifest["sentinel_rows"])  # the length sentinel
    assert sorted(set(corr["coefficient"])) == sorted(manifest["settings"]["coefficients"])
    return manifest


def test_rerun_into_an_earlier_result_needs_overwrite_and_leaves_nothing_of_it(uj, tmp_path, capsys):
    out = tmp_path / "m18"
    assert _meta(out, "--measures", "rouge-1", "my_metric", "--coefficient", "kendall_b", "pearson") == 0
    first = digest(out)
    assert "table_pearson.tex" in first and "correlations_pearson.png" in first
    capsys.readouterr()
    assert _meta(out, "--measures", "rouge-2", "--no-figures") == 2
    assert "holds an earlier meta-evaluation" in capsys.readouterr().err and digest(out) == first
    assert _meta(out, "--measures", "rouge-2", "--no-figures", "--overwrite") == 0
    manifest = _consistent(out)  # none of run 1's pearson tables or figures is left beside run 2's
    assert [m["label"] for m in manifest["measures"]] == ["rouge-2"]
    assert not any("pearson" in n or n.endswith(".png") for n in os.listdir(out))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no hidden folder left beside


def test_overwrite_never_touches_files_the_earlier_run_did_not_write(uj, tmp_path, capsys):
    out = tmp_path / "o"
    assert _meta(out, "--measures", "rouge-1", "--no-figures") == 0
    (out / "notes.txt").write_text("mine")
    before = digest(out)
    assert _meta(out, "--measures", "rouge-2", "--overwrite") == 2
    assert "files it did not write (notes.txt)" in capsys.readouterr().err and digest(out) == before
    papers = tmp_path / "papers"
    papers.mkdir()
    (papers / "draft.tex").write_text("x")
    assert _meta(papers, "--measures", "rouge-1", "--overwrite") == 2  # not a meta-eval folder at all
    assert "holds other files (draft.tex)" in capsys.readouterr().err
    assert sorted(os.listdir(papers)) == ["draft.tex"]


def test_unwritable_out_is_refused_before_any_work(uj, tmp_path, monkeypatch, capsys):
    from sumeval import meta_eval

    class Reached(Exception):
        """meta_evaluate was called: --out had passed its check."""

    def never(*a, **k):
        raise Reached()

    monkeypatch.setattr(meta_eval, "meta_evaluate", never)
    assert _meta(Path("/proc/mevalout"), "--measures", "rouge-1") == 2  # M17b
    assert "--out '/proc/mevalout': cannot write in '/proc/mevalout'" in capsys.readouterr().err
    blocker = tmp_path / "afile.txt"
    blocker.write_text("x")
    assert _meta(blocker / "sub", "--measures", "rouge-1") == 2
    assert "is a file, so no folder can be made below it" in capsys.readouterr().err
    with pytest.raises(Reached):  # a writable new folder passes the check, so the work starts
        _meta(tmp_path / "a" / "b" / "c", "--measures", "rouge-1")
    assert not (tmp_path / "a").exists()  # the check made the folders to try them, and removed them


def _two_runs(out: Path) -> tuple[dict, list[str]]:
    """A first result in ``out``; returns its digest and the arguments of a different second run."""
    assert _meta(out, "--measures", "rouge-1", "my_metric", "--coefficient", "kendall_b", "pearson",
                 "--no-figures") == 0
    return digest(out), ["--measures", "rouge-2", "--seed", "5", "--no-figures", "--overwrite"]


def test_a_kill_between_the_folder_renames_leaves_the_old_result(uj, tmp_path, monkeypatch):
    """No RENAME_EXCHANGE: the earlier folder is renamed aside, then the new one into place; a
    crash between the two leaves no mix, and the next run puts the earlier result back."""
    from sumeval.meta_eval import staging

    out = tmp_path / "f1b"
    first, second = _two_runs(out)
    monkeypatch.setattr(staging, "_exchange", lambda a, b: False)
    real_replace = os.replace

    def crash_on_new_folder(src, dst, *a, **k):
        if Path(dst) == out.resolve() and ".meta-eval-partial-" in str(src):
            raise OSError(5, "simulated crash between the two renames")
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", crash_on_new_folder)
    assert _meta(out, *second) == 1
    assert not out.exists()  # neither result is visible under --out, so none is mixed
    (aside,) = [p for p in tmp_path.iterdir() if ".meta-eval-old-" in p.name]
    monkeypatch.setattr(os, "replace", real_replace)
    monkeypatch.setattr(staging, "_alive", lambda pid: False)  # as if the crashed process were gone
    staging.check_out_dir(out, overwrite=True)  # the next run repairs first
    assert digest(out) == first and not aside.exists()
    assert _meta(out, *second) == 0 and _consistent(out)["seed"] == 5


def test_a_kill_after_the_exchange_leaves_the_new_result(uj, tmp_path, monkeypatch):
    """With RENAME_EXCHANGE the new folder takes --out's place in one step; a crash before the
    earlier result (now in the hidden folder beside) is removed leaves the new result, whole."""
    import shutil

    from sumeval.meta_eval import staging

    out = tmp_path / "o"
    first, second = _two_runs(out)
    real_rmtree = shutil.rmtree

    def crash_on_the_old_result(path, *a, **k):
        if ".meta-eval-partial-" in str(path) and (Path(path) / "manifest.json").exists():
            raise OSError(5, "simulated crash before the earlier result is removed")
        return real_rmtree(path, *a, **k)

    monkeypatch.setattr(shutil, "rmtree", crash_on_the_old_result)
    assert _meta(out, *second) == 1
    assert _consistent(out)["seed"] == 5  # the exchange is one step: the new result, whole
    (old,) = [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert digest(old) == first  # the earlier result, whole, in the hidden folder beside
    monkeypatch.setattr(shutil, "rmtree", real_rmtree)
    monkeypatch.setattr(staging, "_alive", lambda pid: False)  # as if the crashed process were gone
    staging.check_out_dir(out, overwrite=True)  # the next run removes it
    assert not old.exists() and _consistent(out)["seed"] == 5


def test_an_interrupted_file_by_file_move_is_recognised_and_cleared(uj, tmp_path, monkeypatch, capsys):
    """In the working directory the folder cannot be renamed: files move one by one, the earlier
    manifest removed first; a crash part-way leaves no valid manifest, and --overwrite clears it."""
    out = tmp_path / "here"
    first, second = _two_runs(out)
    monkeypatch.chdir(out)
    real_replace, n = os.replace, []

    def crash_part_way(src, dst, *a, **k):
        if ".meta-eval-partial-" in str(src) and Path(dst).parent == out.resolve():
            n.append(dst)
            if len(n) == 3:
                raise OSError(5, "simulated crash during the move")
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", crash_part_way)
    assert _meta(Path("."), *second) == 1
    assert not (out / "manifest.json").exists()  # no valid manifest over a mix of files
    monkeypatch.setattr(os, "replace", real_replace)
    assert _meta(Path("."), *second[:-1]) == 2
    assert "holds an interrupted meta-evaluation (no manifest); pass --overwrite" in capsys.readouterr().err
    assert _meta(Path("."), *second) == 0
    assert _consistent(out)["seed"] == 5 and not (out / ".meta-eval-incomplete.json").exists()


KILLER = """
import os, signal, sys
from pathlib import Path
from sumeval.meta_eval import staging
staging._exchange = lambda a, b: False       # the two-rename fallback: the kill lands between them
OUT = Path(sys.argv[1]).resolve()
_orig = os.replace
def replace(src, dst, *a, **k):
    _orig(src, dst, *a, **k)
    if Path(src) == OUT:                     # the earlier result has just been moved aside
        os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
from sumeval.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_real_kill_9_during_the_move_never_mixes_two_runs(uj, tmp_path):
    """F1b with a real SIGKILL in the move phase: the old result comes back, the rerun is whole."""
    out = tmp_path / "k"
    first, second = _two_runs(out)
    args = ["meta-eval", "uj", "--human", "overall", "--out", str(out), *FAST, *second]
    p = subprocess.run([sys.executable, "-c", KILLER, str(out), *args], env=checkout_env(), capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert not out.exists()  # killed between the renames: nothing under --out, so nothing mixed
    from sumeval.meta_eval import staging

    staging.check_out_dir(out, overwrite=True)  # the next run's check puts the earlier result back
    assert digest(out) == first
    p = subprocess.run([sys.executable, "-m", "sumeval.cli", *args], env=checkout_env(), capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert _consistent(out)["seed"] == 5
    assert not [q for q in tmp_path.iterdir() if q.name.startswith(".")]
