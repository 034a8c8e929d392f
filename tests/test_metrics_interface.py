"""The shared measure interface: option routing and the registry."""
from __future__ import annotations

import pytest

from sumeval import metrics
from sumeval.errors import InputError


def test_options_go_only_to_the_measures_that_take_them():
    rouge, bleu = metrics.get_scorers(["rouge-1", "bleu"], use_stemmer=False, smoothing="method1")
    assert rouge.options()["stemmer"] is False and "smoothing" not in rouge.options()
    assert bleu.options()["smoothing"] == "method1"
    with pytest.raises(InputError, match="option\\(s\\) use_stemer are not used"):
        metrics.get_scorers(["rouge-1"], use_stemer=False)


def test_every_registered_measure_builds_without_heavy_imports():
    import sys

    names = [m.name for m in metrics.available()]
    assert {"rouge-1", "rouge-lsum", "bleu", "js-2", "sera-10", "gesera-10", "estime", "estime-soft",
            "coherence"} <= set(names)
    heavy = [m for m in sys.modules if m.split(".")[0] in ("torch", "transformers", "whoosh", "spacy")]
    assert not heavy, f"listing measures imported {heavy}"
