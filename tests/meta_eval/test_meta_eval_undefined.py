"""Undefined correlations in a meta-evaluation: NaN with a reason in every output, never ranked,
never in a significance cluster, never shown as "not significantly worse than the best"; a test
involving one gives no p-value but a note. Reasons are checked by hand (stats.undefined_reason)."""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from sumeval import stats
from sumeval.cli import main
from sumeval.errors import InputError
from sumeval.stats.undefined import undefined_reason

SYSTEMS = ["s1", "s2", "s3", "s4"]
KEYS = ["measure", "human", "level", "coefficient"]


pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


def _frame(n_docs: int = 5, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        for k, s in enumerate(SYSTEMS):
            h = k + rng.normal()
            rows.append({"doc_id": f"d{d}", "system": s, "h": round(h, 3), "good": round(h + 0.3 * rng.normal(), 3),
                         "fair": round(h + 1.5 * rng.normal(), 3)})
    return pd.DataFrame(rows)


def _run(tmp_path, frame, measures, *extra, humans=("h",), capsys=None):
    path = tmp_path / "j.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "out"
    code = main(["meta-eval", str(path), "--human", *humans, "--measures", *measures, "--n-resamples", "60", "-q",
                 "--no-figures", "--out", str(out), *extra])
    assert code == 0, capsys.readouterr().err if capsys else code
    return out


def _outputs(out, coefficient="kendall_b"):
    corr = pd.read_csv(out / "correlations.csv").set_index(KEYS)
    ranking = pd.read_csv(out / "ranking.csv").set_index(KEYS)
    pair = pd.read_csv(out / "pairwise.csv")
    table = pd.read_csv(out / f"table_{coefficient}.csv", header=[0, 1], index_col=0)
    manifest = json.loads((out / "manifest.json").read_text())
    return corr, ranking, pair, table, manifest


def _assert_undefined(out, measure, human, level, reason_part, coefficient="kendall_b"):
    """The cell is NaN with a reason everywhere, unranked and unclustered, with no mark."""
    corr, ranking, pair, table, manifest = _outputs(out, coefficient)
    key = (measure, human, level, coefficient)
    assert math.isnan(corr.loc[key, "value"]) and reason_part in corr.loc[key, "reason"]
    assert math.isnan(corr.loc[key, "ci_low"]) and math.isnan(corr.loc[key, "ci_high"])
    r = ranking.loc[key]
    assert math.isnan(r["value"]) and pd.isna(r["rank"]) and pd.isna(r["cluster"])
    assert reason_part in r["reason"]
    assert math.isnan(table.loc[measure, (human, level)])
    assert {"measure": measure, "human": human, "level": level, "coefficient": coefficient,
            "reason": corr.loc[key, "reason"]} in manifest["undefined"]
    md = (out / f"table_{coefficient}.md").read_text()
    row = next(line for line in md.splitlines() if line.startswith(f"| {measure} |"))
    assert "<sup>" not in row.split("|")[1 + 1 + _column(table, human, level)]  # no cluster mark
    assert f"{measure} / {human} / {level}: {corr.loc[key, 'reason']}" in md  # the note under the table
    tested = pair[((pair["measure_a"] == measure) | (pair["measure_b"] == measure)) & (pair["human"] == human)
                  & (pair["level"] == level) & (pair["coefficient"] == coefficient)]
    assert tested["p_value"].isna().all() and tested["p_adjusted"].isna().all() and tested["p_raw"].isna().all()
    assert tested["note"].str.startswith("not tested: ").all()


def _column(table, human, level) -> int:
    return list(table.columns).index((human, level))


def test_constant_human_column(tmp_path, capsys):
    f = _frame().assign(h=3.0)
    out = _run(tmp_path, f, ["good", "fair"], capsys=capsys)
    err = capsys.readouterr().err
    for m in ("good", "fair"):
        _assert_undefined(out, m, "h", "global", "'h' is constant (3) on the 20 rows where both are present")
        _assert_undefined(out, m, "h", "system", "the system means of 'h' are all equal (3) over the 4 systems")
        _assert_undefined(out, m, "h", "input", "undefined in every one of the 5 inputs (5 where 'h' is constant")
        assert f"warning: undefined correlation of {m!r} with 'h' at the global level" in err
    _, ranking, _, _, manifest = _outputs(out)
    assert ranking["rank"].isna().all() and ranking["cluster"].isna().all()  # nobody is ranked 1, 2
    assert any(n.startswith("undefined correlation of 'good' with 'h'") for n in manifest["notes"])


def test_constant_measure_column(tmp_path):
    f = _frame(seed=1).assign(flat=0.5)
    out = _run(tmp_path, f, ["good", "flat", "fair"])
    for level in ("input", "system", "global"):
        _assert_undefined(out, "flat", "h", level, "'flat'")
    corr, ranking, pair, table, _ = _outputs(out)
    # the two defined measures are ranked 1 and 2 by their correlations.csv values
    glob = ranking.xs(("h", "global", "kendall_b"), level=["human", "level", "coefficient"])
    assert list(glob["rank"].dropna().astype(int)) == [1, 2] and pd.isna(glob.loc["flat", "rank"])
    # Holm's family holds only the tested pair: its adjusted p equals its p
    ok = pair[pair["p_value"].notna() & (pair["level"] == "global")]
    assert len(ok) == 1 and ok["p_adjusted"].iloc[0] == ok["p_value"].iloc[0]


def test_constant_at_the_system_level_only(tmp_path):
    """Each system's values are a rotation of (1, 2, 3, 4) over 4 documents: every system mean is
    2.5, while within each document the values differ and the pooled column varies."""
    f = _frame(n_docs=4, seed=2)
    f["latin"] = [float((d + k) % 4 + 1) for d in range(4) for k in range(4)]
    out = _run(tmp_path, f, ["good", "latin"])
    _assert_undefined(out, "latin", "h", "system", "the system means of 'latin' are all equal (2.5) over the 4 systems")
    corr, ranking, *_ = _outputs(out)
    for level in ("input", "global"):
        assert np.isfinite(corr.loc[("latin", "h", level, "kendall_b"), "value"])
        assert ranking.loc[("latin", "h", level, "kendall_b"), "rank"] in (1, 2)


def test_constant_within_every_input_only(tmp_path):
    """A column that depends on the document alone is undefined at the input level; with systems
    missing on some documents, its system means differ, so the system level is defined."""
    f = _frame(n_docs=4, seed=3)
    f["doc_only"] = f["doc_id"].str[1:].astype(float)
    f = f.drop(index=f.index[(f["system"] == "s1") & f["doc_id"].isin(["d0", "d1"])])
    f = f.drop(index=f.index[(f["system"] == "s2") & (f["doc_id"] == "d3")])
    out = _run(tmp_path, f, ["good", "doc_only"])
    _assert_undefined(out, "doc_only", "h", "input",
                      "undefined in every one of the 4 inputs (4 where 'doc_only' is constant across the systems)")
    corr, *_ = _outputs(out)
    # system means of doc_only: s1 (2+3)/2, s2 (0+1+2)/3, s3 and s4 (0+1+2+3)/4: defined
    assert np.isfinite(corr.loc[("doc_only", "h", "system", "kendall_b"), "value"])
    assert np.isfinite(corr.loc[("doc_only", "h", "global", "kendall_b"), "value"])


def test_a_measure_on_two_systems_only_is_undefined_at_the_system_level(tmp_path):
    """Two points always correlate +-1: the system level needs 3 systems with a number."""
    f = _frame(seed=4)
    f["two"] = np.where(f["system"].isin(["s1", "s2"]), f["good"], np.nan)
    out = _run(tmp_path, f, ["good", "two"])
    _assert_undefined(out, "two", "h", "system", "only 2 system(s) have a row with both 'two' and 'h'; the "
                                                 "system level needs at least 3")
    # stats.correlate itself no longer gives +-1 there
    got = stats.correlate(f, "two", "h", level="system", methods=["pearson"], n_resamples=0)
    assert math.isnan(got["value"].iloc[0]) and got["n"].iloc[0] == 2


def test_a_single_present_value(tmp_path):
    f = _frame(seed=5)
    f["one"] = np.nan
    f.loc[7, "one"] = 0.4
    out = _run(tmp_path, f, ["good", "one"])
    _assert_undefined(out, "one", "h", "global", "only 1 row(s) have both 'one' and 'h'")
    _assert_undefined(out, "one", "h", "system", "only 1 system(s) have a row with both")
    _assert_undefined(out, "one", "h", "input", "5 with fewer than 2 systems having both 'one' and 'h'")


@pytest.mark.parametrize("test", ["williams", "bootstrap-inputs", "permutation-systems"])
def test_every_test_gives_a_note_not_a_p_value(tmp_path, test):
    f = _frame(seed=6).assign(flat=1.0)
    out = _run(tmp_path, f, ["good", "flat", "fair"], "--test", test)
    _assert_undefined(out, "flat", "h", "global", "'flat' is constant")
    pair = pd.read_csv(out / "pairwise.csv")
    tested = pair[(pair["measure_a"] == "good") & (pair["measure_b"] == "fair")]
    assert tested["p_value"].notna().all() and tested["p_value"].between(0, 1).all()


def test_undefined_reason_by_hand():
    # 2 documents x 3 systems; m is 1 everywhere except (d1, c) = 2
    f = pd.DataFrame({"doc_id": ["d0"] * 3 + ["d1"] * 3, "system": ["a", "b", "c"] * 2,
                      "m": [1, 1, 1, 1, 1, 2.0], "h": [1, 2, 3, 1, 2, 3.0]})
    # global: m varies (one 2), h varies: defined
    assert undefined_reason(f, "m", "h", "global") == ""
    # input: d0 has m constant, d1 has m = (1, 1, 2): defined there
    assert undefined_reason(f, "m", "h", "input") == ""
    # system means of m: a 1, b 1, c 1.5: defined
    assert undefined_reason(f, "m", "h", "system") == ""
    g = f.assign(m=[1, 1, 1, 2, 2, 2.0])
    assert undefined_reason(g, "m", "h", "input") == ("undefined in every one of the 2 inputs (2 where 'm' is "
                                                      "constant across the systems)")
    # its system means are all 1.5
    assert undefined_reason(g, "m", "h", "system") == "the system means of 'm' are all equal (1.5) over the 3 systems"
    # a missing human value leaves d1 with 2 systems: 1 where fewer than 2 ... no: 2 is enough
    h = f.assign(h=[1, np.nan, np.nan, 1, 1, 1.0])
    assert undefined_reason(h, "m", "h", "input") == ("undefined in every one of the 2 inputs (1 with fewer than "
                                                      "2 systems having both 'm' and 'h'; 1 where 'h' is constant "
                                                      "across the systems)")
    # the older level names are refused here too
    with pytest.raises(InputError, match="'document' is the older name of 'input'"):
        undefined_reason(g, "m", "h", "document")


def test_figures_show_undefined_rows_without_drawing_them(tmp_path):
    import matplotlib.pyplot as plt

    from sumeval.plots import meta_eval as mplots

    f = _frame(seed=7).assign(flat=2.0)
    out = tmp_path / "out"
    path = tmp_path / "j.csv"
    f.to_csv(path, index=False)
    assert main(["meta-eval", str(path), "--human", "h", "--measures", "good", "flat", "--level", "global",
                 "--n-resamples", "30", "-q", "--out", str(out)]) == 0
    assert (out / "ranking_kendall_b.png").is_file() and (out / "correlations_kendall_b.png").is_file()
    ranking = pd.read_csv(out / "ranking.csv")
    fig, ax = mplots.ranking_bars(ranking, human="h", level="global")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["good  [1]", "flat  [undefined]"] and len(ax.patches) == 1
    plt.close(fig)
    corr = pd.read_csv(out / "correlations.csv")
    fig, axes = mplots.correlation_intervals(corr, ranking=ranking)
    assert "undefined" in [t.get_text() for t in axes[0, 0].texts]
    plt.close(fig)
