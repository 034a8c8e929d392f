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


def test_listing_measures_imports_nothing_heavy():
    import subprocess
    import sys

    names = [m.name for m in metrics.available()]
    assert {"rouge-1", "rouge-lsum", "bleu", "js-2", "sera-10", "gesera-10", "estime", "estime-soft",
            "similarity-order"} <= set(names)
    assert "coherence" not in names  # the old alias, also SummEval's human column: gone (issue 21)
    # in a fresh interpreter: other tests of this session import torch themselves
    code = ("import sys; from sumeval import metrics; metrics.available(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'torch', 'transformers', 'whoosh', 'spacy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"listing measures imported {out.strip()}"


def test_coherence_is_no_longer_a_measure_name(tmp_path, capsys):
    """The alias `coherence` is gone (it was also SummEval's human column): asking for it names
    the measure to use instead, in `get_scorer`, `sumeval score` and `resolve_measures`."""
    from sumeval.cli import main
    from sumeval.metrics.catalog import RENAMED

    assert RENAMED == {"coherence": "similarity-order"}
    info = {m.name: m for m in metrics.available()}
    assert "coherence" not in info and info["similarity-order"].target.endswith(":SimilarityOrderScorer")
    with pytest.raises(InputError, match=r"'coherence' is no longer a measure name: the measure is called "
                                         r"'similarity-order'.*write similarity-order"):
        metrics.get_scorer("coherence")
    with pytest.raises(InputError, match=r"'Coherence' is no longer a measure name"):
        metrics.get_scorers(["rouge-1", "Coherence"])
    src = tmp_path / "in.jsonl"
    src.write_text('{"summary": "A cat.", "text": "A cat sat."}\n')
    assert main(["score", "coherence", "-i", str(src), "-o", str(tmp_path / "out.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "'coherence' is no longer a measure name" in err and "write similarity-order" in err
    assert not (tmp_path / "out.jsonl").exists()


def test_the_catalog_imports_no_scorer():
    import subprocess
    import sys

    code = ("import sys; import sumeval.metrics.catalog; "
            "print(sorted(m for m in sys.modules if m.startswith('sumeval.') and m.endswith('scorers')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"the catalog imported {out.strip()}"
