"""sumeval.similarity.probe on small arrays checked by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sumeval.errors import InputError
from sumeval.similarity.probe import cosine_histogram, layer_stats, pairwise_cosine_counts, probe_profiles


def test_layer_stats_by_hand():
    # one token, 3 layers: e0 = (3,4), e1 = (3,4), e2 = (0,5)
    # norms 5, 5, 5; change |e1-e0| = 0, |e2-e1| = |(-3,1)| = sqrt10; cos(e1,e0) = 1, cos(e2,e1) = 20/25
    # second token: e = (1,0), (0,1), (0,2): norms 1,1,2; change sqrt2, 1; cos 0, 1
    E = np.array([[[3, 4], [3, 4], [0, 5]], [[1, 0], [0, 1], [0, 2]]], dtype=float)
    st = layer_stats(E)
    np.testing.assert_allclose(st["norm"], [3, 3, 3.5])
    np.testing.assert_allclose(st["change"][:2], [(0 + math.sqrt(2)) / 2, (math.sqrt(10) + 1) / 2])
    np.testing.assert_allclose(st["cos"][:2], [(1 + 0) / 2, (0.8 + 1) / 2])
    assert math.isnan(st["change"][2]) and math.isnan(st["cos"][2])
    empty = layer_stats(np.zeros((0, 3, 2)))
    assert np.isnan(empty["norm"]).all()
    with pytest.raises(InputError, match="\\(2, 2\\)"):
        layer_stats(np.zeros((2, 2)))


def test_probe_profiles_average_over_documents():
    # doc A: one token norm 2 at both layers; doc B: two tokens norms 4 and 6 -> doc mean 5
    # average over documents: (2 + 5) / 2 = 3.5 (not the token mean 4)
    a = {"emb": np.array([[[2.0, 0], [0, 2.0]]]), "cls": np.array([[[1.0, 0], [1.0, 0]]])}
    b = {"emb": np.array([[[4.0, 0], [4.0, 0]], [[0, 6.0], [0, 6.0]]]), "cls": np.zeros((0, 2, 2))}
    f = probe_profiles([a, b], source="text")
    tok = f[f.kind == "token"].set_index("layer")
    assert tok.loc[0, "norm"] == pytest.approx(3.5) and tok.loc[0, "n_documents"] == 2
    # change at layer 0: doc A |(-2,2)| = 2sqrt2, doc B 0 -> sqrt2 ; cos: A 0, B 1 -> 0.5
    assert tok.loc[0, "change"] == pytest.approx(math.sqrt(2)) and tok.loc[0, "cos"] == pytest.approx(0.5)
    cls = f[f.kind == "cls"].set_index("layer")
    assert cls.loc[1, "norm"] == 1.0 and cls.loc[0, "n_documents"] == 1  # doc B has no CLS rows
    assert set(f.source) == {"text"}


def test_pairwise_cosine_histogram_by_hand():
    # layer 0: tokens (1,0), (1,0), (0,1): pairs cos 1, 0, 0 -> bins: 0 -> bin 100, 1 -> last bin 199
    # layer 1: tokens (1,0), (-1,0), (1,1): cos -1 (bin 0), 1/sqrt2 = 0.7071 (bin 170), -0.7071 (bin 29)
    E = np.array([[[1, 0], [1, 0]], [[1, 0], [-1, 0]], [[0, 1], [1, 1]]], dtype=float)
    c = pairwise_cosine_counts(E)
    assert c.shape == (2, 200)
    assert c[0, 100] == 2 and c[0, 199] == 1 and c[0].sum() == 3
    assert c[1, 0] == 1 and c[1, 170] == 1 and c[1, 29] == 1
    edges, hist = cosine_histogram([E, E[:2]])  # second doc adds layer 0: cos 1 ; layer 1: cos -1
    assert edges[0] == -1 and edges[-1] == 1 and len(edges) == 201
    np.testing.assert_allclose(hist.sum(axis=1), 1.0)
    assert hist[0, 199] == pytest.approx(2 / 4) and hist[1, 0] == pytest.approx(2 / 4)


def test_cosine_histogram_random_is_normalised_and_centered():
    rng = np.random.default_rng(0)
    docs = [rng.normal(size=(30, 3, 64)) for _ in range(3)]
    edges, hist = cosine_histogram(docs)
    np.testing.assert_allclose(hist.sum(axis=1), 1.0)
    centers = (edges[:-1] + edges[1:]) / 2
    assert np.all(np.abs(hist @ centers) < 0.05)  # random directions: mean cosine near 0
    _, h1 = cosine_histogram([np.zeros((1, 3, 4))])  # no pairs: NaN rows, no crash
    assert np.isnan(h1).all()
