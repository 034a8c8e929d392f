"""Reliability of the meta-evaluation outputs (issue 30): ties in the across ranking, whole-folder
replacement of an across result, one writer per --out, the --weight option, data set names.

Grouped by class of problem:

1. ties in the across ranking are ties: exactly tied mean ranks are equal floats whatever the task
   order, the order and the bold agree (sumeval.meta_eval.across.summarize, across_output);
2. an across --overwrite replaces the earlier result as a whole, and an interrupted run leaves the
   earlier result and nothing that a later run does not remove;
3. one writer per --out: a second `sumeval meta-eval` into the same folder is refused at once, naming
   the folder and the other process (real processes);
4. the --weight option: a repeated set, and --weight without --dataset, are refused;
5. data set names: a trailing newline and the reserved word `shelf` are refused.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval.meta_eval import across, across_output

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
MAP = ["--doc-col", "article_id", "--system-col", "model", "--summary-col", "output", "--text-col", "source",
       "--references-col", "gold"]


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("SUMEVAL_DATA_REGISTRY", str(tmp_path / "reg" / "user_datasets.json"))


def _digest(folder: Path) -> dict[str, str]:
    """``{relative path: sha256}`` of every file below ``folder`` (hidden ones included)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


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
