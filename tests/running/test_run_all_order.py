"""`run all` starts the studies expected to take longest first (issue 19): the parameter file's
``minutes:`` says how long a cold run of each set takes, and the short studies fill the cores at
the end instead of a long one starting last and running alone."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from sumeval.errors import InputError
from sumeval.running import study_params
from sumeval.running.run_all import longest_first
from sumeval.running.study_params import StudyNotebook


def _study(tmp_path, name: str, text: str) -> StudyNotebook:
    params = tmp_path / f"{name}.params.yaml"
    params.write_text(text, encoding="utf-8")
    return StudyNotebook(name, tmp_path / f"{name}.ipynb", params)


def test_minutes_are_read_per_parameter_set_and_are_not_a_set(tmp_path):
    s = _study(tmp_path, "a", "figures: [f]\nminutes:\n  default: 12.5\nsmoke: {n: 1}\ndefault: {n: 2}\n")
    assert s.expected_minutes("default") == 12.5
    assert s.expected_minutes("smoke") is None  # not stated
    assert set(s.parameter_sets()) == {"smoke", "default"}
    assert _study(tmp_path, "b", "smoke: {n: 1}\n").expected_minutes("smoke") is None


@pytest.mark.parametrize("bad", ["minutes: 5", "minutes: {default: -1}", "minutes: {default: fast}",
                                 "minutes: {default: true}"])
def test_bad_minutes_name_the_file_and_the_fix(tmp_path, bad):
    s = _study(tmp_path, "a", bad + "\nsmoke: {n: 1}\n")
    with pytest.raises(InputError, match=r"a\.params\.yaml: 'minutes' must map parameter-set names to minutes"):
        s.expected_minutes("smoke")


def test_longest_first_keeps_studies_without_minutes_after_in_their_order(tmp_path):
    known = {n: _study(tmp_path, n, t) for n, t in [
        ("a", "default: {}\n"), ("b", "minutes: {default: 3}\ndefault: {}\n"),
        ("c", "minutes: {default: 30}\ndefault: {}\n"), ("d", "default: {}\n"),
        ("e", "minutes: {default: 0.5}\ndefault: {}\n")]}
    specs = [SimpleNamespace(study=n) for n in "abcde"]
    assert [s.study for s in longest_first(specs, known, "default")] == ["c", "b", "e", "a", "d"]
    assert [s.study for s in longest_first(specs, known, "smoke")] == list("abcde")  # no minutes: as given


def test_every_study_states_the_minutes_of_its_default_run():
    """The hint the cold `run all --params default` is ordered by (BENCHMARKS.md's per-study table)."""
    for name, study in study_params.studies().items():
        m = study.expected_minutes("default")
        assert m is not None and m > 0, name
