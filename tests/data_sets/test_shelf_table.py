"""The shelf's one table (sumeval.datasets.shelf_table.SHELF): the lists of built-in sets that the docs
keep are its rows, and a new set is one loader module plus one row - which a toy set, registered in a
fresh process before sumeval is imported, proves end to end through the real command line."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd

import sumeval.datasets
from sumeval.datasets.shelf_table import SHELF

from helpers import REPO_ROOT  # tests/ is on the path


def _readme_shelf_rows() -> list[list[str]]:
    """The cells of the README's table under "## The shelf" (one list per set row)."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## The shelf\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in rows]


def test_the_docs_lists_of_built_in_sets_are_the_table():
    rows = _readme_shelf_rows()
    assert [r[0].strip("`") for r in rows] == list(SHELF), "README's shelf table: a set missing, extra or out of order"
    header = [c.strip() for c in (REPO_ROOT / "README.md").read_text(encoding="utf-8").split("| set | domain |", 1)[1]
              .split("\n", 1)[0].strip().strip("|").split("|")]
    licence = ["set", "domain", *header].index("licence")
    assert {r[0].strip("`"): r[licence] for r in rows} == {s.name: s.licence for s in SHELF.values()}
    # the package's face lists every lazy loader it offers (each row's exports among them), and no other
    doc = sumeval.datasets.__doc__
    listed = re.findall(r"^``(\w+)\(", doc, flags=re.M)
    assert sorted(listed) == sorted(set(sumeval.datasets.__all__) - {"DATASETS", "checksums", "datasets", "files",
                                                                     "info", "locate", "verify_all",
                                                                     "tags_to_sentences"})
    assert {e for s in SHELF.values() for e in s.exports} <= set(listed)


def test_every_row_names_a_loader_that_is_there():
    """Each row's module and function exist (read from the source: nothing is loaded), its files are registered."""
    import ast

    from sumeval.datasets.recorded import DATASETS

    loaders = Path(sumeval.datasets.__file__).parent / "loaders"
    for s in SHELF.values():
        tree = ast.parse((loaders / f"{s.module}.py").read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert s.function in defined and set(s.exports) <= defined, s.name
        assert set(s.files) <= set(DATASETS) and s.name == s.name.lower() and s.humans, s.name


TOY_LOADER = '''
"""A toy built-in set: 3 documents x 3 systems, one human column, two precomputed measures."""
import hashlib
from pathlib import Path

import pandas as pd


def load_toy():
    return pd.DataFrame({"doc_id": [d for d in ("d1", "d2", "d3") for _ in range(3)], "system": ["a", "b", "c"] * 3,
                         "toyness": [1.0, 2.0, 3.0, 2.0, 3.0, 2.5, 1.5, 4.0, 3.0],
                         "toy.up": [0.1, 0.2, 0.3, 0.3, 0.4, 0.35, 0.2, 0.9, 0.5],
                         "toy.down": [0.9, 0.5, 0.6, 0.1, 0.8, 0.2, 0.4, 0.3, 0.7]})


def toy_judgments():
    from sumeval.datasets.judgments_model import ColumnMap, classify_frame

    path = Path(__file__)
    return classify_frame(load_toy(), name="toy", path=path, sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
                          fmt="builtin", humans=("toyness",), lower=(), columns=ColumnMap(), locations=None)
'''

#: what a contributor adds: the row (the module is TOY_LOADER), and nothing else of the package changes
TOY_ROW = '''
import sumeval.datasets.loaders as loaders
from sumeval.datasets.shelf_table import SHELF, ShelfSet

loaders.__path__.append({folder!r})
SHELF["toy"] = ShelfSet("toy", "Toy Set", "toy_set:toy_judgments", (), "toys (made up)", ("toyness",), "CC0",
                        exports=("load_toy",), column_titles=(("toyness", "Toyness"),))
'''


def _run(tmp_path: Path, code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO_ROOT)]),
           "SUMEVAL_DATA": str(tmp_path / "no_data"), "SUMEVAL_DATA_REGISTRY": str(tmp_path / "user_datasets.json"),
           "MPLBACKEND": "Agg"}
    return subprocess.run([sys.executable, "-c", "import toy_row\n" + textwrap.dedent(code)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


def test_a_new_set_is_one_loader_module_and_one_row(tmp_path):
    folder = tmp_path / "toy_loaders"
    folder.mkdir()
    (folder / "toy_set.py").write_text(TOY_LOADER, encoding="utf-8")
    (tmp_path / "toy_row.py").write_text(TOY_ROW.format(folder=str(folder)), encoding="utf-8")
    (tmp_path / "no_data").mkdir()
    out = tmp_path / "across"
    done = _run(tmp_path, f"""
        import sys
        from sumeval import cli
        from sumeval.datasets import judgments, load_toy
        from sumeval.display_names import display
        from sumeval.meta_eval.across import DEFAULT_HUMANS, expand_datasets

        assert "toy" in judgments.BUILTIN and expand_datasets(["shelf"])[-1] == "toy"
        assert DEFAULT_HUMANS["toy"] == ("toyness",) and len(load_toy()) == 9
        assert display("toy") == "Toy Set" and display("toyness") == "Toyness"
        assert judgments.load_judgments("toy").humans == ("toyness",)
        for argv in (["data", "list"], ["data", "show", "toy"],
                     ["meta-eval", "--dataset", "toy", "--measures", "toy.up", "toy.down",
                      "--level", "system", "global", "--n-resamples", "20", "--no-figures", "--no-sentinels",
                      "--quiet", "--out", {str(out)!r}]):
            print("$", *argv[:3], flush=True)
            assert cli.main(argv) == 0, argv
        sys.exit(cli.main(["data", "add", "toy", {str(tmp_path / "toy.csv")!r}, "--human", "toyness"]))
    """)
    assert done.returncode == 2, done.stdout + done.stderr  # the last command: a built-in name is refused
    assert "data set name 'toy' is a built-in data set (summeval, " in done.stderr and "Traceback" not in done.stderr
    listing = done.stdout.split("$ data show")[0]
    assert "  toy          built-in 9 summaries, 3 documents, 3 systems; human: toyness\n" in listing
    assert "domain: toys (made up); texts: none; references: no\n" in listing
    assert "levels: input, system, global\n" in listing
    # the real sets are all still listed (available or not: <root>/../shared/data may hold them)
    assert re.search(r"^  rose +built-in (not available here|1200 summaries)", listing, flags=re.M), listing
    assert "toy: 9 summaries, 3 documents, 3 systems (builtin: " in done.stdout.split("$ data show")[1]
    cells = pd.read_csv(out / "across.csv")
    toy = cells[cells["dataset"] == "toy"]
    assert set(toy["human"]) == {"toyness"} and set(toy["measure"]) == {"toy.up", "toy.down"}  # the row's humans
    assert toy["status"].eq("ok").all(), toy
