"""Issue 30: inputs that used to give wrong numbers or misleading errors, grouped by class.

1. Extreme finite numbers: measure values of 1e155 or 1e-300 gave input-level 0.000 with [0, 0]
   or intervals of [-1, 1] (sums of squares overflowed / underflowed). Checked against Pearson
   computed exactly in rational arithmetic (``fractions.Fraction``) on the same floats, at every
   level, with every resampling, and in the tests built on the same engines.
2. Names and suffixes: a user's class named ``Lower`` / ``Higher`` (``lower`` across data sets) was
   read as the ``:lower`` suffix; a text cell in a measure column gave "unknown measure"; a name with
   a trailing newline passed name patterns ending in ``$``.
3. Unreadable inputs: a FIFO or a ``.csv`` link to ``/dev/zero`` as a judgments file was "does
   not exist"; ``sumeval score -i`` read ``/dev/zero`` without end, and waited for ever on a FIFO
   that nothing writes to.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import uuid
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sumeval import stats
from sumeval.cli import main
from sumeval.datasets.judgments import load_judgments
from sumeval.errors import DataNotFoundError, InputError
from sumeval.metrics.sources import resolve_measures

from helpers import REPO_ROOT  # tests/ is on the path

pytestmark = pytest.mark.usefixtures("isolated")  # a private cache and registry (conftest)


# --------------------------------------------------------------------------------------------
# 1. Extreme finite numbers, every level
# --------------------------------------------------------------------------------------------
def _exact_pearson(x, y) -> float:
    """Pearson's r of the floats x, y computed exactly (Fractions), rounded once at the end."""
    fx, fy = [Fraction(float(v)) for v in x], [Fraction(float(v)) for v in y]
    n = len(fx)
    mx, my = sum(fx) / n, sum(fy) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(fx, fy))
    sxx = sum((a - mx) ** 2 for a in fx)
    syy = sum((b - my) ** 2 for b in fy)
    if sxx == 0 or syy == 0:
        return math.nan
    r2 = sxy * sxy / (sxx * syy)
    return math.sqrt(float(r2)) * (1 if sxy > 0 else -1)


def _frame(n_docs=12, n_sys=6, seed=5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [{"doc_id": f"d{d}", "system": f"S{s}"} for d in range(n_docs) for s in range(n_sys)]
    f = pd.DataFrame(rows)
    f["m"] = rng.normal(size=len(f))
    f["b"] = rng.normal(size=len(f))
    f["h"] = 0.5 * f["m"] + rng.normal(size=len(f))
    return f


def _exact_levels(f: pd.DataFrame, x: str, y: str) -> dict[str, float]:
    """The three levels' Pearson, exactly: mean of per-input r, r of exact system means, pooled r."""
    per_doc = [_exact_pearson(g[x], g[y]) for _, g in f.groupby("doc_id", sort=False)]
    means = {c: [sum(map(Fraction, g[c])) / len(g) for _, g in f.groupby("system", sort=False)]
             for c in (x, y)}
    return {"input": float(np.mean(per_doc)),
            "system": _exact_pearson([float(v) for v in means[x]], [float(v) for v in means[y]]),
            "global": _exact_pearson(f[x], f[y])}


# 1e155: squares overflow; 1e300: sums of squares too; 1e-300 / 1e-160: squares underflow
SCALES = [1e155, 1e300, 1e-160, 1e-300]


@pytest.mark.parametrize("scale", SCALES)
def test_pearson_at_the_ends_of_the_float_range_is_exact_at_every_level(scale):
    f = _frame()
    g = f.copy()
    g["m"] = g["m"] * scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow / underflow warning naming no measure
        out = stats.correlate(g, "m", "h", level=["input", "system", "global"], methods="pearson",
                              n_resamples=200, resample="both", seed=3)
    exact = _exact_levels(g, "m", "h")
    for lv in ("input", "system", "global"):
        row = out[out["level"] == lv].iloc[0]
        assert row["value"] == pytest.approx(exact[lv], rel=1e-12, abs=1e-14), lv
    # the bootstrap replicates: the same as on the ordinary numbers (Pearson is scale-invariant)
    base = stats.correlate(f, "m", "h", level=["input", "system", "global"], methods="pearson",
                           n_resamples=200, resample="both", seed=3)
    for col in ("value", "ci_low", "ci_high"):
        np.testing.assert_allclose(out[col], base[col], rtol=1e-12, atol=1e-14)
    assert list(out["n_resamples_used"]) == list(base["n_resamples_used"])


@pytest.mark.parametrize("resample", ["inputs", "systems", "both"])
def test_a_power_of_two_scale_changes_no_bit_of_any_result(resample):
    """Multiplying by 2^k is exact, and so is every step after it: all four coefficients, every
    level, every interval are bit for bit those of the ordinary numbers -- even where the sums of
    squares of the scaled values overflow (2^600) or underflow (2^-600)."""
    f = _frame(seed=8)
    base = stats.correlate(f, ["m", "b"], "h", level=["input", "system", "global"], n_resamples=100,
                           resample=resample, seed=1)
    for k in (600, -600, 1015):
        g = f.copy()
        g[["m", "b", "h"]] = np.ldexp(g[["m", "b", "h"]].to_numpy(), k)
        out = stats.correlate(g, ["m", "b"], "h", level=["input", "system", "global"], n_resamples=100,
                              resample=resample, seed=1)
        for col in ("value", "ci_low", "ci_high", "n_resamples_used"):
            assert np.array_equal(out[col].to_numpy(float), base[col].to_numpy(float), equal_nan=True), (k, col)


@pytest.mark.parametrize("scale", [1e155, 1e-300])
@pytest.mark.parametrize("level", ["input", "system", "global"])
def test_the_tests_on_the_same_engines_at_extreme_values(scale, level):
    """Permutation, Williams and paired bootstrap tests: on 1e155 / 1e-300 the numbers of the
    ordinary scale (their correlations exact), not 0 with p = NaN."""
    f = _frame(seed=11)
    g = f.copy()
    g[["m", "b"]] = g[["m", "b"]] * scale
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        perm = stats.permutation_test(g, "m", "b", "h", level=level, method="pearson", n_resamples=60,
                                      return_samples=True)
        will = stats.williams_test(g, "m", "b", "h", level=level, method="pearson")
        paired = stats.paired_test(g, "m", "b", "h", level=level, method="pearson", n_resamples=60,
                                   resample="both")
    exact = _exact_levels(g, "m", "h")[level]
    assert perm["corr_a"] == pytest.approx(exact, rel=1e-12, abs=1e-14)
    assert will["corr_a"] == pytest.approx(exact, rel=1e-12, abs=1e-14)
    assert will["corr_ab"] == pytest.approx(_exact_levels(g, "m", "b")[level], rel=1e-12, abs=1e-14)
    ref_perm = stats.permutation_test(f, "m", "b", "h", level=level, method="pearson", n_resamples=60,
                                      return_samples=True)
    np.testing.assert_allclose(perm["samples"], ref_perm["samples"], rtol=1e-10, atol=1e-12)
    assert perm["count"] == ref_perm["count"]
    ref_w = stats.williams_test(f, "m", "b", "h", level=level, method="pearson")
    assert will["p_value"] == pytest.approx(ref_w["p_value"], rel=1e-9)
    ref_p = stats.paired_test(f, "m", "b", "h", level=level, method="pearson", n_resamples=60,
                              resample="both")
    for key in ("diff", "ci_low", "ci_high"):
        assert paired[key] == pytest.approx(ref_p[key], rel=1e-10, abs=1e-12), key
    # a resample whose difference is 0 in exact arithmetic (3 distinct systems: both +-1) may
    # round to either side of 0 on another scale: the p-value may move by one such resample
    assert abs(paired["p_value"] - ref_p["p_value"]) <= 2 / 61 + 1e-12


def test_agreement_and_r_squared_at_extreme_values():
    rng = np.random.default_rng(2)
    ratings = rng.normal(size=(40, 3)) + rng.normal(size=(40, 1))
    X = rng.normal(size=(40, 2)) + 3
    y = X @ [1.0, 2.0] + rng.normal(size=40)
    r2 = stats.r_squared(y, X)
    for s in (1e155, 1e-300):
        got = stats.inter_rater_pearson(ratings * s, include_self=True)
        mean = (ratings * s).mean(axis=1)
        assert got == pytest.approx([_exact_pearson(ratings[:, j] * s, mean) for j in range(3)], rel=1e-12)
        assert stats.r_squared(y * s, X) == pytest.approx(r2, rel=1e-12)
    # a predictor of 1e20 lost the intercept to lstsq's rank cutoff (R^2 0.009 for 0.87)
    assert stats.r_squared(y, X * [1e20, 1.0]) == pytest.approx(r2, rel=1e-9)


# --------------------------------------------------------------------------------------------
# 2. Names and suffixes
# --------------------------------------------------------------------------------------------
def _file(tmp_path, text_cell=None, fmt="csv") -> Path:
    rng = np.random.default_rng(0)
    rows = [{"doc_id": f"d{d}", "system": s, "summary": f"summary {d} {s} " + "word " * int(rng.integers(1, 9)),
             "overall": round(float(rng.normal()), 3), "my_metric": round(float(rng.random()), 3)}
            for d in range(6) for s in ("M0", "M1", "M2", "M5")]
    f = pd.DataFrame(rows)
    if text_cell is not None:
        f["my_metric"] = f["my_metric"].astype(object)
        f.loc[7, "my_metric"] = text_cell
    path = tmp_path / f"judged.{fmt}"
    if fmt == "csv":
        f.to_csv(path, index=False)
    else:
        f.to_json(path, orient="records", lines=True)
    return path


def _classes(tmp_path) -> tuple[Path, str]:
    """A module with Scorer classes named Lower, Higher and lower (all: summary length)."""
    name = f"orient_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / "mods"
    folder.mkdir()
    body = "".join(
        f"class {cls}(_Base):\n    name = '{label}'\n" for cls, label in
        (("Lower", "len-lower"), ("Higher", "len-higher"), ("lower", "len-small")))
    (folder / f"{name}.py").write_text(
        "import numpy as np\nfrom sumeval.metrics import Scorer\n"
        "class _Base(Scorer):\n    version = '1'\n    def columns(self):\n        return [self.name]\n"
        "    def score_batch(self, batch):\n"
        "        return {self.name: np.array([len(s) for s in batch.summaries], dtype=float)}\n" + body,
        encoding="utf-8")
    return folder, name


def test_classes_named_lower_or_higher_are_classes(tmp_path):
    folder, mod = _classes(tmp_path)
    try:
        j = load_judgments(str(_file(tmp_path)), human="overall")
        specs = resolve_measures([f"{mod}:Lower", "my_metric:lower"], j,
                                 measure_classes=[f"{mod}:Higher", f"{mod}:lower"], module_path=[str(folder)])
        assert [(s.source, s.label) for s in specs] == [
            ("class", "len-lower"), ("column", "my_metric (negated)"), ("class", "len-higher"),
            ("class", "len-small")]
        # the suffix is exact, as documented: ':LOWER' is no suffix; the message says so
        with pytest.raises(InputError, match="its orientation suffix is written ':lower'"):
            resolve_measures(["my_metric:LOWER"], j)
        # a lower-case class in --measures reads as the suffix: the message says how to name it
        with pytest.raises(InputError, match="a class named 'lower' is given with --measure-class"):
            resolve_measures([f"{mod}:lower"], j, module_path=[str(folder)])
        code = main(["meta-eval", str(_file(tmp_path)), "--human", "overall", "--measure-class", f"{mod}:Lower",
                     "--measures", "my_metric", "--module-path", str(folder), "--n-resamples", "20", "-q",
                     "--no-figures", "--out", str(tmp_path / "out")])
        assert code == 0
        corr = pd.read_csv(tmp_path / "out" / "correlations.csv")
        assert set(corr.loc[corr["role"] == "measure", "measure"]) == {"len-lower", "my_metric"}
    finally:
        sys.modules.pop(mod, None)


def test_classes_named_lower_are_classes_across_data_sets(tmp_path):
    """meta-eval --dataset A B: --measure-class paths stay classes down to each set's resolution (they
    were merged into --measures, so 'mod:lower' was read as the column 'mod' with the ':lower' suffix and
    left blank on every set); a --measures spec 'col:lower' is still the suffix."""
    folder, mod = _classes(tmp_path)
    sets = []
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        sets.append(str(_file(tmp_path / name).rename(tmp_path / name / f"{name}.csv")))
    try:
        out = tmp_path / "out"
        code = main(["meta-eval", "--dataset", *sets, "--human", *(f"{s}:overall" for s in sets),
                     "--measure-class", f"{mod}:lower", "--measure-class", f"{mod}:Higher",
                     "--measures", "my_metric:lower", "--no-own-columns", "--module-path", str(folder),
                     "--level", "system", "--n-resamples", "20", "-q", "--no-figures", "--out", str(out)])
        assert code == 0
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["given_measures"] == ["my_metric (negated)", "len-small", "len-higher"]
        for name in ("first", "second"):
            corr = pd.read_csv(out / name / "correlations.csv")
            measures = corr.loc[corr["role"] == "measure", "measure"]  # beside them the length sentinel's rows
            assert set(measures) == {"my_metric (negated)", "len-small", "len-higher"}, name
    finally:
        sys.modules.pop(mod, None)


def test_names_with_a_trailing_newline_are_not_plain_names():
    """Name patterns end in \\Z or are fullmatched: "$" also matches before a final newline, so "mine\\n"
    passed as a plain data set name (a published folder named with a newline), "rouge2\\n" as a ROUGE variant,
    "mod:Cls\\n" as a class path and "/dev/stdin\\n" as a descriptor path."""
    from sumeval.file_kinds import is_descriptor_path
    from sumeval.metrics.rouge import RougeScorer
    from sumeval.metrics.user_scorers import CLASS_RE
    from sumeval.running.publish import output_label

    assert output_label({"dataset": "mine"}, {}) == "mine"
    label = output_label({"dataset": "mine\n"}, {})
    assert "\n" not in label and label.startswith("mine-") and label != output_label({"dataset": "mine"}, {})
    with pytest.raises(InputError, match="ROUGE variant 'rouge2\\\\n' is not known"):
        RougeScorer(variant="rouge2\n")
    assert RougeScorer(variant="rouge2").variant == "rouge2"
    assert CLASS_RE.match("pkg.mod:Cls") and not CLASS_RE.match("pkg.mod:Cls\n")
    assert is_descriptor_path("/dev/stdin") and not is_descriptor_path("/dev/stdin\n")


@pytest.mark.parametrize("fmt, line", [("csv", 9), ("jsonl", 8)])
def test_a_text_cell_in_a_measure_column_is_named(tmp_path, capsys, fmt, line):
    path = _file(tmp_path, text_cell="0.5x", fmt=fmt)
    j = load_judgments(str(path), human="overall")
    for spec in ("my_metric", "column:my_metric:lower"):
        with pytest.raises(InputError) as err:
            resolve_measures([spec], j)
        msg = str(err.value)
        assert msg.startswith(f"{path}:{line}: column 'my_metric' = '0.5x' is not a number"), msg
        assert "unknown measure" not in msg and "leave the cell empty" in msg
    code = main(["meta-eval", str(path), "--human", "overall", "--measures", "my_metric", "-q", "--no-figures",
                 "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and f"{path}:{line}: column 'my_metric' = '0.5x' is not a number" in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------------------------
# 3. Unreadable inputs: devices and named pipes
# --------------------------------------------------------------------------------------------
@pytest.fixture
def specials(tmp_path):
    """A .csv / .jsonl link to /dev/zero, two FIFOs and a link to nothing."""
    if not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"):
        pytest.skip("needs FIFOs and /dev/zero")
    d = tmp_path / "special"
    d.mkdir()
    (d / "zero.csv").symlink_to("/dev/zero")
    (d / "zero.jsonl").symlink_to("/dev/zero")
    os.mkfifo(d / "pipe.csv")
    os.mkfifo(d / "pipe.jsonl")
    (d / "gone.csv").symlink_to(d / "nowhere.csv")
    return d


def test_judgments_files_that_are_not_regular_files(specials, tmp_path, capsys):
    cases = {"zero.csv": "(a symbolic link to '/dev/zero') is a character device, not a regular file",
             "pipe.csv": "is a named pipe (FIFO), not a regular file",
             "pipe.jsonl": "is a named pipe (FIFO), not a regular file"}
    for name, words in cases.items():
        with pytest.raises(InputError, match=words.replace("(", r"\(").replace(")", r"\)")):
            load_judgments(str(specials / name), human="overall")
        assert main(["data", "add", f"set{uuid.uuid4().hex[:6]}", str(specials / name), "--human", "overall"]) == 2
        assert words in capsys.readouterr().err
    with pytest.raises(DataNotFoundError, match="a symbolic link to .*nowhere.csv.*does not exist"):
        load_judgments(str(specials / "gone.csv"), human="overall")


def _score(*args, timeout=120, stdin=None):
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, "-m", "sumeval.cli", "score", "rouge-1", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, input=stdin)


def test_score_input_that_is_a_device_is_refused_without_hanging(specials, tmp_path):
    """A device is refused; a pipe is a stream that score -i reads (test_faults_inputs: a FIFO
    with a writer)."""
    out = tmp_path / "scores.jsonl"
    for name, kind in (("zero.jsonl", "a character device"),):
        run = _score("-i", str(specials / name), "-o", str(out), timeout=60)  # used to hang
        assert run.returncode == 2, run.stderr
        assert f"is {kind}, not a regular file" in run.stderr and "Traceback" not in run.stderr
        assert not out.exists()
    # a stream is still read: standard input
    line = '{"summary": "a b c", "references": ["a b"]}\n'
    run = _score("-i", "/dev/stdin", "-o", str(out), stdin=line)
    assert run.returncode == 0, run.stderr
    assert '"rouge-1-f": 0.8' in out.read_text(encoding="utf-8")


def test_score_input_a_named_pipe_is_waited_on_for_a_bounded_time(specials, tmp_path):
    """score -i FIFO: with no writer it gives up after --pipe-wait seconds (it hung: open() of a FIFO
    blocks until a writer comes); one line on stderr says it is waiting; a writer that comes while it
    waits is read from the descriptor already open; one that comes and goes writing nothing is 'no records'."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    out = tmp_path / "scores.jsonl"
    pipe = specials / "pipe.jsonl"
    run = _score("-i", str(pipe), "-o", str(out), "--pipe-wait", "1", timeout=60)
    assert run.returncode == 2, run.stderr
    assert f"waiting up to 1 s for a writer to the named pipe '{pipe}'" in run.stderr
    assert "is a named pipe (FIFO) that nothing wrote to within 1 s" in run.stderr and "--pipe-wait" in run.stderr
    assert "Traceback" not in run.stderr and not out.exists()
    line = b'{"summary": "a b c", "references": ["a b"]}\n'
    for payload, code, said in ((line, 0, None), (b"", 2, "has no records")):
        proc = subprocess.Popen([sys.executable, "-m", "sumeval.cli", "score", "rouge-1", "-i", str(pipe), "-o",
                                 str(out), "--pipe-wait", "120"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env)
        try:
            first = proc.stderr.readline().decode()
            assert "waiting up to 120 s for a writer" in first, first
            with open(pipe, "wb") as w:  # the reader holds the pipe open: this open returns at once
                w.write(payload)
            _, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == code, err.decode()
        if said:
            assert said in err.decode() and "Traceback" not in err.decode()
        else:
            assert '"rouge-1-f": 0.8' in out.read_text(encoding="utf-8")
