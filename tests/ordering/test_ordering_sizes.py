"""Paper 002's model sizes (issue 12, item 1): parameter counts against Table 2's #pm, the heads
rule of the CLI and the studies, the study parameter sets, and the word-vector sources."""
from __future__ import annotations

import argparse

import numpy as np
import pytest
import yaml

torch = pytest.importorskip("torch")

from sumeval import published  # noqa: E402
from sumeval.cli import ordering as ordering_cli  # noqa: E402
from sumeval.errors import InputError  # noqa: E402
from sumeval.ordering.models import MODEL_NAMES, ModelConfig, build_model, count_parameters, parameter_groups  # noqa: E402
from sumeval.ordering.sizes import count_sizes, default_heads, paper_sizes, size_table, vocabulary_size  # noqa: E402
from sumeval.ordering.vocabulary import (  # noqa: E402
    load_glove_text,
    load_spacy_vectors,
    load_vectors,
    vectors_identity,
    vectors_source,
)
from sumeval.studies.common.ordering_runs import model_sizes, resolve_sizes  # noqa: E402

from helpers import REPO_ROOT  # noqa: E402  (tests/ is on the path)

NOTEBOOKS = REPO_ROOT / "notebooks"
TABLE2 = published.paper002_table2().set_index(["dataset", "model"])["n_params"]
TABLE1_VOCAB = published.paper002_table1().set_index("dataset")["vocabulary"]


def _within(ours: float, paper: float, tol: float = 0.25) -> bool:
    return abs(ours / paper - 1) <= tol


# ---- counting ------------------------------------------------------------------------------------
def test_lstm_ptrnet_count_by_hand():
    # V=10, E=4, H=6. word table 10*4 = 40; sentence LSTM(4->6): 4*6*(4+6) + 2*4*6 = 288;
    # document LSTM(6->6): 4*6*12 + 48 = 336; decoder: LSTMCell(6,6) 336 + start 6 + w_ctx 36
    # + w_dec 36+6 + v 6 = 426; total 40 + 288 + 336 + 426 = 1090
    net = build_model(ModelConfig(name="lstm_ptrnet", vocab_size=10, emb_dim=4, hidden=6))
    assert parameter_groups(net) == {"embedding": 40, "sentence_encoder": 288, "document_encoder": 336,
                                     "decoder": 426}
    assert count_parameters(net) == 1090


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_meta_count_is_the_real_models_count(name):
    sizes = dict(emb_dim=8, hidden=16, heads=4, entity_hidden=6)
    real = build_model(ModelConfig(name=name, vocab_size=30, **sizes))
    counts = count_sizes(name, 30, **sizes)
    assert counts["n_params"] == sum(p.numel() for p in real.parameters())
    assert counts["n_params"] == sum(v for k, v in counts.items() if k != "n_params")


def test_entity_hidden_unset_is_todays_se_graph():
    a = ModelConfig(name="se_graph", vocab_size=20, emb_dim=4, hidden=8)
    b = ModelConfig(name="se_graph", vocab_size=20, emb_dim=4, hidden=8, entity_hidden=8)
    assert "entity_hidden" not in a.to_dict() and b.to_dict()["entity_hidden"] == 8  # cache keys kept
    torch.manual_seed(0)
    sa = build_model(a).state_dict()
    torch.manual_seed(0)
    sb = build_model(b).state_dict()
    assert sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)


def test_se_graph_with_a_smaller_entity_size_trains():
    from sumeval.ordering.models import encode_batch, encode_graphs

    net = build_model(ModelConfig(name="se_graph", vocab_size=20, emb_dim=4, hidden=8, entity_hidden=3))
    tokens, mask = encode_batch([[[2, 3], [4], [5, 6]], [[7], [8, 9]]])
    graph = encode_graphs([[(10, {0: 1, 2: 2}), (11, {1: 3, 2: 1})], [(12, {0: 1, 1: 2})]], tokens.shape[1])
    gold = torch.tensor([[2, 0, 1], [1, 0, 0]])
    loss = net(tokens, mask, gold, graph)
    loss.backward()
    assert torch.isfinite(loss) and net.ent_gru.weight_ih.grad is not None
    assert net.ent_gru.hidden_size == 3 and net.sent_gru.hidden_size == 8


# ---- paper sizes against Table 2 -------------------------------------------------------------------
def test_paper_sizes_follow_sec_4_1():
    assert {m: paper_sizes(m, "nips")["emb_dim"] for m in MODEL_NAMES} == {
        "lstm_ptrnet": 100, "variant_lstm_ptrnet": 300, "attordernet": 300, "se_graph": 100}
    layers = [paper_sizes("attordernet", d)["layers"] for d in ("aan", "arxiv", "journal", "nips", "bbc")]
    assert layers == [6, 4, 4, 2, 2]
    assert paper_sizes("attordernet", "nips")["heads"] == 8
    assert paper_sizes("se_graph", "nips")["hidden"] == 300 and paper_sizes("se_graph", "sind")["hidden"] == 500
    with pytest.raises(InputError, match="unknown ordering model"):
        paper_sizes("bert", "nips")


@pytest.mark.parametrize("dataset", ["nips", "sind"])
@pytest.mark.parametrize("model", MODEL_NAMES)
def test_paper_sizes_within_25pct_of_table2_with_table1_vocabulary(model, dataset):
    ours = count_sizes(model, int(TABLE1_VOCAB[dataset]), **paper_sizes(model, dataset))["n_params"]
    assert _within(ours, TABLE2[(dataset, model)]), (model, dataset, ours, TABLE2[(dataset, model)])


def test_paper_sizes_within_25pct_on_our_nips():
    table = size_table({"nips": vocabulary_size("nips")})
    assert len(table) == 4 and (table["paper_set"] == "nips").all()
    for r in table.itertuples():
        assert r.n_params == r.embedding + r.sentence_encoder + r.document_encoder + r.decoder
        assert r.embedding == r.vocab * r.emb_dim
        assert _within(r.n_params, TABLE2[("nips", r.model)]), (r.model, r.n_params)


def test_our_sind_vocabulary_is_what_keeps_the_counts_short():
    """On SIND only SE-Graph is within 25% with our vocabulary; the others' shortfall goes away
    with Table 1's vocabulary size (the test above), i.e. it is the word table."""
    v = vocabulary_size("sind")
    assert v < 0.5 * TABLE1_VOCAB["sind"]
    table = size_table({"sind": v}).set_index("model")
    assert _within(table.loc["se_graph", "n_params"], TABLE2[("sind", "se_graph")])
    for m in ("lstm_ptrnet", "variant_lstm_ptrnet", "attordernet"):
        short = TABLE2[("sind", m)] - table.loc[m, "n_params"]
        table_gap = (TABLE1_VOCAB["sind"] - v) * table.loc[m, "emb_dim"]
        assert 0 < short < table_gap + 0.25 * TABLE2[("sind", m)]


# ---- heads, study sizes, parameter sets ------------------------------------------------------------
def test_default_heads():
    assert [default_heads(h) for h in (128, 16, 300, 512, 30, 7)] == [8, 8, 4, 8, 2, 1]


def test_study_sizes_of_today_unchanged():
    assert model_sizes(16) == {"hidden": 16, "heads": 8}
    assert model_sizes(128) == {"hidden": 128, "heads": 8}
    assert model_sizes(300) == {"hidden": 300, "heads": 4}
    assert resolve_sizes(model_sizes(128), "attordernet", "nips") == {"hidden": 128, "heads": 8}
    paper = resolve_sizes({**model_sizes(0), "dropout": 0.2}, "se_graph", "sind")
    assert paper == {"dropout": 0.2, **paper_sizes("se_graph", "sind")}


@pytest.mark.parametrize("study", ["ordering_benchmark", "ordering_learnability", "ordering_robustness"])
def test_parameter_sets_smoke_default_keep_todays_sizes(study):
    sets = yaml.safe_load((NOTEBOOKS / f"{study}.params.yaml").read_text(encoding="utf-8"))
    assert sets["smoke"]["hidden"] == 16
    assert sets["default"]["hidden"] == 128
    assert sets["paper"]["hidden"] == 0 and model_sizes(0) == {"paper": True}


def _train_args(*extra):
    ap = argparse.ArgumentParser()
    ordering_cli.add_commands(ap.add_subparsers(dest="command"))
    return ap.parse_args(["ordering", "train", *extra])


def test_cli_sizes_and_heads_default():
    assert ordering_cli.train_sizes(_train_args("--model", "lstm_ptrnet", "--dataset", "nips")) == {
        "hidden": 128, "dropout": 0.1}
    assert ordering_cli.train_sizes(_train_args("--model", "attordernet", "--dataset", "nips")) == {
        "hidden": 128, "dropout": 0.1, "layers": 2, "heads": 8}
    assert ordering_cli.train_sizes(_train_args("--model", "attordernet", "--dataset", "nips",
                                                "--hidden", "300"))["heads"] == 4
    assert ordering_cli.train_sizes(_train_args("--model", "attordernet", "--dataset", "nips", "--hidden", "300",
                                       "--heads", "2"))["heads"] == 2
    paper = ordering_cli.train_sizes(_train_args("--model", "attordernet", "--dataset", "sind", "--paper-sizes"))
    assert paper == {**paper_sizes("attordernet", "sind"), "dropout": 0.1}
    with pytest.raises(InputError, match="--paper-sizes sets the sizes itself; drop --hidden"):
        ordering_cli.train_sizes(_train_args("--model", "se_graph", "--dataset", "nips", "--paper-sizes",
                                             "--hidden", "64"))


# ---- word vectors ---------------------------------------------------------------------------------
def test_glove_text_file(tmp_path):
    p = tmp_path / "vec.txt"
    p.write_text("3 2\nthe 0.5 -1\nnew york 2 3e-1\nthe 9 9\n", encoding="utf-8")
    words, vec = load_glove_text(p)
    assert words == ["the", "new york"]  # header skipped, a spaced word kept, the repeat ignored
    np.testing.assert_array_equal(vec, np.array([[0.5, -1.0], [2.0, 0.3]], dtype=np.float32))
    assert vec.dtype == np.float32


@pytest.mark.parametrize("text, where, what", [
    ("a 1 2\nb 3\n", ":2", "1 numbers, the file's first vector has 2"),
    ("a 1 2\nb x 3\n", ":2", "non-number"),
    ("a\n", ":1", "no vector"),
])
def test_glove_text_file_errors_name_the_line(tmp_path, text, where, what):
    p = tmp_path / "bad.txt"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=what) as e:
        load_glove_text(p)
    assert f"{p}{where}" in str(e.value)


def test_vector_sources(tmp_path, monkeypatch):
    monkeypatch.delenv("SUMEVAL_VECTORS", raising=False)
    assert vectors_source() == "glove-6B-50d" and vectors_identity("glove-6B-50d") == "glove-6B-50d"
    p = tmp_path / "glove.tiny.3d.txt"
    p.write_text("a 1 2 3\n", encoding="utf-8")
    monkeypatch.setenv("SUMEVAL_VECTORS", str(p))
    assert vectors_source() == str(p) and vectors_source("spacy-md") == "spacy-md"
    assert vectors_identity(str(p)).startswith("file:glove.tiny.3d.txt:8:")
    assert load_vectors()[1].shape == (1, 3)
    with pytest.raises(InputError, match="neither glove-6B-50d nor spacy-md"):
        vectors_source(str(tmp_path / "missing.txt"))


def test_spacy_vectors_from_a_vocab_folder(tmp_path):
    from spacy.vocab import Vocab

    v = Vocab()
    v.set_vector("apple", np.array([1, 2, 3], dtype=np.float32))
    v.set_vector("Apple", np.array([4, 5, 6], dtype=np.float32))
    v.set_vector("bird", np.array([0, 0, 1], dtype=np.float32))
    v.to_disk(tmp_path / "vocab")
    words, vec = load_spacy_vectors(tmp_path / "vocab")
    assert words == ["apple", "bird"]  # lower-case words only, in a fixed order
    np.testing.assert_array_equal(vec, np.array([[1, 2, 3], [0, 0, 1]], dtype=np.float32))


def test_train_with_a_vector_file_and_a_mismatched_emb_dim(tmp_path, monkeypatch):
    from sumeval.ordering.documents import OrderingDocument, OrderingSet, shuffle_for
    from sumeval.ordering.experiment import train_cached
    from sumeval.ordering.train import TrainConfig

    docs = tuple(OrderingDocument(f"t/{i}", ("the cat sat .", "a dog ran .", "it rained .")) for i in range(6))
    oset = OrderingSet("toy", "train", docs, tuple(shuffle_for(d.doc_id, 3, 0) for d in docs), 0)
    p = tmp_path / "v.txt"
    p.write_text("the 1 0 0 0\ncat 0 1 0 0\ndog 0 0 1 0\n", encoding="utf-8")
    tc = TrainConfig(max_epochs=1, batch_size=4, seed=0)
    with pytest.warns(UserWarning, match="emb_dim 100 was asked for, but the word vectors .* have 4"):
        tm = train_cached("lstm_ptrnet", oset, oset, sizes={"hidden": 8, "emb_dim": 100}, train_config=tc,
                          vectors=str(p), run_dir=tmp_path / "run")
    assert tm.model_config.emb_dim == 4 and tm.model.emb.weight.shape == (len(tm.vocab), 4)
    assert [tm.vocab.in_glove[tm.vocab.stoi[w]] for w in ("the", "cat", "sat")] == [True, True, False]
    import json

    assert json.loads((tmp_path / "run" / "config.json").read_text())["glove"] == vectors_identity(str(p))
    with pytest.raises(InputError, match="glove=False"):
        train_cached("lstm_ptrnet", oset, oset, sizes={"hidden": 8}, train_config=tc, glove=False,
                     vectors=str(p), run_dir=tmp_path / "run2")
