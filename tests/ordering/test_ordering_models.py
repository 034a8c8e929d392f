"""Ordering models, beam search and the training loop on a tiny learnable toy set."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from sumeval.errors import InputError  # noqa: E402
from sumeval.ordering.decode import beam_search, predict_orders  # noqa: E402
from sumeval.ordering.documents import OrderingDocument, OrderingSet, shuffle_for  # noqa: E402
from sumeval.ordering.metrics import kendall_tau  # noqa: E402
from sumeval.ordering.models import (  # noqa: E402
    MODEL_NAMES,
    ModelConfig,
    build_model,
    count_parameters,
    encode_batch,
    encode_graphs,
)
from sumeval.ordering.train import TrainConfig, load_best, set_graphs, set_token_ids, train_model  # noqa: E402
from sumeval.ordering.vocabulary import build_vocabulary, set_tokens  # noqa: E402

ALL_MODELS = ["lstm_ptrnet", "variant_lstm_ptrnet", "attordernet", "se_graph"]


def _toy(name, n_docs, seed):
    """Documents whose k-th sentence carries the word 'pos{k}' among random filler words; the
    entity annotation links consecutive sentences through a shared word 'e{k}' (subject in
    sentence k, object in sentence k+1)."""
    rng = np.random.default_rng(seed)
    docs = []
    for i in range(n_docs):
        n = int(rng.integers(3, 6))
        units = tuple(" ".join([f"f{int(w)}" for w in rng.integers(0, 20, 3)] + [f"pos{k}", f"e{k}", f"e{k - 1}"])
                      for k in range(n))
        ents = {f"e{k}": ((k, 1), (k + 1, 2)) for k in range(n - 1)}
        docs.append(OrderingDocument(f"{name}/{i}", units, ents))
    return OrderingSet(name, "train", tuple(docs), tuple(shuffle_for(d.doc_id, len(d), 0) for d in docs), 0,
                       pretokenized=True)


@pytest.fixture(scope="module")
def toy():
    train, dev = _toy("toytrain", 50, 1), _toy("toydev", 20, 2)
    vocab = build_vocabulary(set_tokens(train))
    return train, dev, vocab


def _cfg(vocab, name="lstm_ptrnet"):
    return ModelConfig(name=name, vocab_size=len(vocab), emb_dim=16, hidden=32, dropout=0.1, layers=1, heads=4)


def test_encode_batch_pads():
    tokens, mask = encode_batch([[[5, 6, 7], [8]], [[9, 9]]], max_tokens=2)
    assert tokens.shape == (2, 2, 2)
    assert mask.tolist() == [[True, True], [True, False]]
    assert tokens[0, 0].tolist() == [5, 6] and tokens[0, 1].tolist() == [8, 0]


def test_all_four_models():
    assert MODEL_NAMES == tuple(ALL_MODELS)


@pytest.mark.parametrize("name", ALL_MODELS)
def test_shapes_and_beam_search_returns_permutations(toy, name):
    train, _, vocab = toy
    torch.manual_seed(0)
    mc = _cfg(vocab, name)
    model = build_model(mc)
    assert count_parameters(model) > 0
    ids, gold = set_token_ids(train, vocab)
    tokens, mask = encode_batch(ids[:6])
    B, N = mask.shape
    graph = encode_graphs(set_graphs(train, vocab)[:6], N) if mc.needs_graph else None
    model.eval()
    sent, ctx, (h, c) = model.encode(tokens, mask, graph)
    assert sent.shape == ctx.shape == (B, N, mc.hidden)
    assert h.shape == c.shape == (B, mc.hidden)
    g = torch.zeros((B, N), dtype=torch.long)
    for r in range(B):
        g[r, : len(gold[r])] = torch.tensor(gold[r])
    loss = model(tokens, mask, g, graph)
    assert loss.ndim == 0 and torch.isfinite(loss) and float(loss.detach()) > 0
    for beam in (1, 4):
        preds = beam_search(model, tokens, mask, beam=beam, graph=graph)
        assert [sorted(p) for p in preds] == [list(range(len(gg))) for gg in gold[:6]]
    with pytest.raises(InputError, match="beam = 0"):
        beam_search(model, tokens, mask, beam=0, graph=graph)


def test_read_process_write_is_order_invariant(toy):
    # the set encoder of Variant-LSTM+PtrNet must not see the input order: permuting the units
    # leaves the decoder's start state unchanged (up to float rounding)
    train, _, vocab = toy
    torch.manual_seed(0)
    model = build_model(_cfg(vocab, "variant_lstm_ptrnet")).eval()
    ids, _ = set_token_ids(train, vocab)
    doc = ids[0]
    perm = list(reversed(range(len(doc))))
    t1, m1 = encode_batch([doc])
    t2, m2 = encode_batch([[doc[i] for i in perm]])
    with torch.no_grad():
        _, _, (h1, c1) = model.encode(t1, m1)
        _, _, (h2, c2) = model.encode(t2, m2)
    assert torch.allclose(h1, h2, atol=1e-5) and torch.allclose(c1, c2, atol=1e-5)


def test_attordernet_pointer_reads_the_sentences_and_ignores_padding(toy):
    # ATTOrderNet as the authors' release builds it (hwxcby/ATTOrderNet main_file.py add_model):
    # the pointer attends over the sentence vectors (paper 002 Eq.2, f(s_i, h)), the Transformer's
    # output, mean-pooled over the real units, is the decoder's start state (h and c), and the
    # Transformer is pre-norm with a final LayerNorm. The first checks fail on a pointer that reads
    # the Transformer's output: a Transformer collapsed to one vector for every sentence (what
    # Adam at lr 1e-3 made of the post-norm encoder on NIPS) then leaves a uniform pointer.
    train, _, vocab = toy
    torch.manual_seed(0)
    model = build_model(_cfg(vocab, "attordernet")).eval()
    ids, _ = set_token_ids(train, vocab)
    long_doc = max(ids, key=len)
    short_doc = min(ids, key=len)
    assert len(long_doc) > len(short_doc)
    seen = {}
    hook = model.doc_enc.register_forward_hook(lambda mod, inp, out: seen.update(out=out))
    t1, m1 = encode_batch([short_doc])
    with torch.no_grad():
        sent1, ctx1, (h1, c1) = model.encode(t1, m1)
    hook.remove()
    n = len(short_doc)
    assert torch.allclose(ctx1, sent1)  # the pointer's memory: the sentence vectors (eval: no dropout)
    assert torch.allclose(h1, seen["out"][0, :n].mean(0, keepdim=True), atol=1e-6)
    assert torch.equal(h1, c1)
    assert model.doc_enc.norm is not None and all(layer.norm_first for layer in model.doc_enc.layers)

    # a collapsed Transformer (the same vector for every sentence) still leaves a pointer that
    # tells the sentences apart
    hook = model.doc_enc.register_forward_hook(lambda mod, inp, out: torch.ones_like(out))
    with torch.no_grad():
        sent, ctx, state = model.encode(t1, m1)
        logp, _ = model.step(model.start.expand(1, -1), state, model.w_ctx(ctx), m1)
    hook.remove()
    assert float(logp[0, :n].max() - logp[0, :n].min()) > 1e-3, logp

    # padding: the short document batched with a longer one (padded units appended) gets the
    # same start state, pointer memory and first pointer distribution as alone
    t2, m2 = encode_batch([short_doc, long_doc])
    with torch.no_grad():
        _, ctx2, (h2, c2) = model.encode(t2, m2)
        lp1, _ = model.step(model.start.expand(1, -1), (h1, c1), model.w_ctx(ctx1), m1)
        lp2, _ = model.step(model.start.expand(2, -1), (h2, c2), model.w_ctx(ctx2), m2)
    assert not bool(m2[0, n:].any()) and m2.shape[1] > n
    assert torch.allclose(h2[:1], h1, atol=1e-5) and torch.allclose(c2[:1], c1, atol=1e-5)
    assert torch.allclose(ctx2[:1, :n], ctx1, atol=1e-5)
    assert torch.allclose(lp2[:1, :n], lp1, atol=1e-5)


def test_encode_graphs_roles_at_input_positions(toy):
    train, _, vocab = toy
    graphs = set_graphs(train, vocab)
    d = 0
    pos = train.gold_order(d)  # input position of each gold unit
    first = graphs[d][0]  # entity e0: subject (1) in gold unit 0, object (2) in gold unit 1
    assert first == (vocab.encode(["e0"])[0], {pos[0]: 1, pos[1]: 2})
    n = len(train.documents[d])
    enc = encode_graphs([graphs[d], []], n)
    assert enc["roles"].shape == (2, n, n - 1)
    assert enc["entity_mask"].tolist() == [[True] * (n - 1), [False] * (n - 1)]
    assert int(enc["roles"][0, pos[1], 0]) == 2
    with pytest.raises(InputError, match="role 7"):
        encode_graphs([[(3, {0: 7})]], 2)


def test_se_graph_needs_entities(toy):
    train, _, vocab = toy
    bare = train.with_documents([OrderingDocument(d.doc_id, d.units) for d in train.documents])
    with pytest.raises(InputError, match="no entity annotation"):
        set_graphs(bare, vocab)
    model = build_model(_cfg(vocab, "se_graph"))
    tokens, mask = encode_batch(set_token_ids(train, vocab)[0][:2])
    with pytest.raises(InputError, match="entity graphs"):
        model.encode(tokens, mask)


@pytest.mark.parametrize("name", ["variant_lstm_ptrnet", "attordernet", "se_graph"])
def test_toy_set_is_learnable(toy, tmp_path, name):
    train, dev, vocab = toy
    mc = _cfg(vocab, name)
    cfg = TrainConfig(max_epochs=4, batch_size=8, lr=1e-2, patience=5, seed=3)
    res = train_model(train, dev, vocab, mc, cfg, tmp_path / name, progress=False)
    model = load_best(tmp_path / name, mc)
    ids, gold = set_token_ids(dev, vocab)
    graphs = set_graphs(dev, vocab) if mc.needs_graph else None
    tau = kendall_tau(predict_orders(model, ids, beam=4, graphs=graphs), gold)
    assert tau > 0.5, res.history


def test_wide_beam_is_exhaustive_search(toy):
    # with beam >= n! every partial order is kept, so beam search returns the permutation of
    # highest model log-probability (checked by enumerating all permutations, n <= 4)
    import itertools

    train, _, vocab = toy
    torch.manual_seed(1)
    model = build_model(_cfg(vocab))
    model.eval()
    ids, _ = set_token_ids(train, vocab)
    small = [i for i in range(len(ids)) if len(ids[i]) <= 4][:3]
    assert len(small) == 3
    tokens, mask = encode_batch([ids[i] for i in small])

    def logp(order, b):
        n = len(order)
        g = torch.tensor([order])
        with torch.no_grad():
            return -float(model(tokens[b:b + 1, :n], mask[b:b + 1, :n], g)) * n

    wide = beam_search(model, tokens, mask, beam=24)
    for b in range(3):
        n = int(mask[b].sum())
        best = max(itertools.permutations(range(n)), key=lambda o: logp(list(o), b))
        assert wide[b] == list(best)


def test_training_beats_random_and_resumes(toy, tmp_path):
    train, dev, vocab = toy
    mc = _cfg(vocab)
    cfg = TrainConfig(max_epochs=3, batch_size=8, lr=1e-2, patience=5, seed=3)
    full = train_model(train, dev, vocab, mc, cfg, tmp_path / "full", progress=False)
    assert full.epochs_run == 3 and full.n_params == count_parameters(build_model(mc))
    model = load_best(tmp_path / "full", mc)
    ids, gold = set_token_ids(dev, vocab)
    tau = kendall_tau(predict_orders(model, ids, beam=4), gold)
    # random orders have expected tau 0; the position words make this toy easy
    assert tau > 0.5, full.history

    # interrupted after epoch 1, then resumed to 3: same history and same weights
    part = train_model(train, dev, vocab, mc, TrainConfig(**{**cfg.__dict__, "max_epochs": 1}),
                       tmp_path / "resumed", progress=False)
    assert part.epochs_run == 1
    resumed = train_model(train, dev, vocab, mc, cfg, tmp_path / "resumed", progress=False)
    assert resumed.epochs_run == 3
    assert [h["loss"] for h in resumed.history] == [h["loss"] for h in full.history]
    a = torch.load(tmp_path / "full" / "last.pt", weights_only=False)["model"]
    b = torch.load(tmp_path / "resumed" / "last.pt", weights_only=False)["model"]
    assert all(torch.equal(a[k], b[k]) for k in a)

    with pytest.raises(InputError, match="other settings"):
        train_model(train, dev, vocab, mc, TrainConfig(**{**cfg.__dict__, "lr": 0.5}), tmp_path / "full",
                    progress=False)


# the fields TrainConfig had when runs were first cached: their keys must not move
OLD_TRAIN_FIELDS = ["max_epochs", "batch_size", "lr", "weight_decay", "patience", "clip", "dev_metric", "dev_beam",
                    "max_tokens", "seed"]


def test_train_config_identity_keeps_the_keys_of_runs_cached_before_the_optimiser_settings():
    from sumeval.cache import cache_key

    assert list(TrainConfig().identity()) == OLD_TRAIN_FIELDS
    old = {"max_epochs": 30, "batch_size": 8, "lr": 1e-3, "weight_decay": 1e-5, "patience": 5, "clip": 5.0,
           "dev_metric": "tau", "dev_beam": 1, "max_tokens": 60, "seed": 0}
    assert cache_key(train=TrainConfig().identity()) == cache_key(train=old)
    ada = TrainConfig(optimizer="adadelta", lr=1.0, lr_decay=0.95).identity()
    assert ada["optimizer"] == "adadelta" and ada["lr_decay"] == 0.95
    assert cache_key(train=ada) != cache_key(train={**old, "lr": 1.0})
    # a setting at its default is left out alone; the other stays
    assert list(TrainConfig(lr_decay=0.5).identity()) == [*OLD_TRAIN_FIELDS, "lr_decay"]


@pytest.mark.parametrize("bad, match", [({"optimizer": "sgd"}, "optimizer = 'sgd'; use adam or adadelta"),
                                        ({"lr_decay": 0.0}, r"lr_decay = 0.0; it must be a number in \(0, 1\]"),
                                        ({"lr_decay": 1.5}, "lr_decay = 1.5"),
                                        ({"lr_decay": True}, "lr_decay = True")])
def test_train_config_refuses_an_unknown_optimiser_or_decay(bad, match):
    with pytest.raises(InputError, match=match):
        TrainConfig(**bad)


def test_adadelta_with_decay_trains_decays_once_an_epoch_and_resumes(toy, tmp_path):
    """The ATTOrderNet release's optimiser: Adadelta (rho 0.95, eps 1e-6) whose learning rate is
    multiplied by ``lr_decay`` once an epoch: epoch 3 runs at lr * decay**2."""
    train, dev, vocab = toy
    mc = _cfg(vocab)
    # batch 2: Adadelta's first steps are small (its running averages start at 0), so more of them
    cfg = TrainConfig(max_epochs=3, batch_size=2, lr=1.0, lr_decay=0.5, patience=5, seed=3, optimizer="adadelta")
    full = train_model(train, dev, vocab, mc, cfg, tmp_path / "full", progress=False)
    ck = torch.load(tmp_path / "full" / "last.pt", weights_only=True)
    group = ck["optimizer"]["param_groups"][0]
    assert group["lr"] == pytest.approx(0.25) and group["rho"] == 0.95 and group["eps"] == 1e-6
    assert group["weight_decay"] == 1e-5
    assert "square_avg" in next(iter(ck["optimizer"]["state"].values()))  # Adadelta's, not Adam's exp_avg
    assert ck["settings"]["train"]["optimizer"] == "adadelta" and ck["settings"]["train"]["lr_decay"] == 0.5
    assert full.history[-1]["loss"] < 0.8 * full.history[0]["loss"] and full.history[-1]["dev_tau"] > 0.5, full.history
    # interrupted after epoch 1 and resumed: the decay follows the epoch, so the same run results
    train_model(train, dev, vocab, mc, TrainConfig(**{**cfg.__dict__, "max_epochs": 1}), tmp_path / "resumed",
                progress=False)
    resumed = train_model(train, dev, vocab, mc, cfg, tmp_path / "resumed", progress=False)
    assert [h["loss"] for h in resumed.history] == [h["loss"] for h in full.history]
    # the same folder with Adam: other settings, refused
    with pytest.raises(InputError, match="train.optimizer: 'adadelta' in the run"):
        train_model(train, dev, vocab, mc, TrainConfig(**{**cfg.__dict__, "optimizer": "adam"}), tmp_path / "full",
                    progress=False)
