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
            "similarity-order", "coherence"} <= set(names)
    # in a fresh interpreter: other tests of this session import torch themselves
    code = ("import sys; from sumeval import metrics; metrics.available(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'torch', 'transformers', 'whoosh', 'spacy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"listing measures imported {out.strip()}"


def test_coherence_is_an_alias_of_similarity_order():
    from sumeval.similarity.scorers import CoherenceScorer, SimilarityOrderScorer

    info = {m.name: m for m in metrics.available()}
    assert info["coherence"].alias_of == "similarity-order" and not info["similarity-order"].alias_of
    assert "alias of similarity-order" in info["coherence"].description
    assert info["similarity-order"].target.endswith(":SimilarityOrderScorer")
    assert info["coherence"].target.endswith(":CoherenceScorer")
    # one computation under two names: the alias keeps its column (and so its cached scores)
    assert issubclass(CoherenceScorer, SimilarityOrderScorer)
    assert CoherenceScorer.score_batch is SimilarityOrderScorer.score_batch


def test_the_catalog_imports_no_scorer():
    import subprocess
    import sys

    code = ("import sys; import sumeval.metrics.catalog; "
            "print(sorted(m for m in sys.modules if m.startswith('sumeval.') and m.endswith('scorers')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"the catalog imported {out.strip()}"
