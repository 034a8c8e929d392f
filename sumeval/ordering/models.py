"""Pointer-network ordering models (paper 002, Liu, Zeng & Li, Sec.3 and 4.1).

Four encoders share one pointer decoder (:meth:`PointerOrderer.step`):

- ``lstm_ptrnet`` — LSTM+PtrNet (Gong et al. 2016): LSTM sentence encoder; a document LSTM reads
  the sentence vectors in their shuffled input order; the pointer LSTM decoder starts from its
  final state; the pointer attends over the document LSTM's outputs.
- ``variant_lstm_ptrnet`` — Variant-LSTM+PtrNet (Logeswaran et al. 2018), built from its paper:
  LSTM sentence encoder; a *read-process-write* set encoder (Vinyals et al. 2016, "Order
  matters"): an LSTM without input tokens runs ``process_steps`` times; each step attends over
  the sentence vectors with content-based attention, ``r_t = sum_i softmax(<m_i, q_t>) m_i``,
  and feeds ``[q_t; r_t]`` to the next step. The result does not depend on the input order.
  The decoder starts from ``(tanh(W [q_T; r_T]), c_T)``; the pointer attends over the sentence
  vectors.
- ``attordernet`` — ATTOrderNet (Cui et al. 2018; the authors' release hwxcby/ATTOrderNet,
  ``main_file.py`` ``add_model`` and ``common.py`` ``transformer_encoder``): BiLSTM sentence
  encoder; a pre-norm Transformer encoder (``layers`` layers, ``heads`` heads, no positional
  encoding, a final LayerNorm) over the sentence vectors; its output, mean-pooled over the real
  units, is the decoder's start state ``(h, c) = (pooled, pooled)``. The pointer attends over the
  sentence vectors themselves (paper 002 Eq.2, ``f(s_i, h)``), not over the Transformer's output:
  the Transformer reaches the order only through the start state, as in the release. (Pointing
  at the output of a post-norm Transformer instead let Adam at lr 1e-3 collapse the output to one
  vector for all sentences - a uniform pointer, tau ~ 0 on NIPS.)
- ``se_graph`` — SE-Graph (Yin et al. 2019, NSEG): BiLSTM sentence encoder; a graph of sentence
  nodes, entity nodes (nouns shared by at least two sentences; initialised from their word
  embedding; state size ``entity_hidden``, NSEG's ``--ehid``, default ``hidden``) and one
  global node. Edges: sentence-entity, labelled by the entity's syntactic role in the sentence (role ids 1..3:
  subject, object, other; one weight matrix per role),
  and sentence-sentence between sentences sharing an entity. ``graph_steps`` rounds of gated
  (GRU) message passing (Zhang et al. 2018's graph recurrent network): every node sums the
  role-transformed states of its neighbours (normalised by degree), and updates its state
  with a GRU cell from ``[message; global state]``; the global node updates from the mean of
  the sentence and entity states. The pointer attends over the final sentence states; the
  decoder starts from the global state.

Inputs (:func:`encode_batch`): ``tokens`` (B, N, T) int64 word ids in input (shuffled) order,
0 = padding; ``unit_mask`` (B, N) bool. SE-Graph also takes ``graph`` (:func:`encode_graphs`):
``entity_tokens`` (B, E) int64 (one word id per entity), ``entity_mask`` (B, E) bool and
``roles`` (B, N, E) int64 (0 = no edge, 1..3 = role of the entity in the unit at that input
position). Targets: ``gold`` (B, N) int64, the input positions in gold order (padded with 0
where ``unit_mask`` is False).

Torch is imported inside functions and classes are built lazily (nothing heavy at import).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping, Sequence

MODEL_NAMES = ("lstm_ptrnet", "variant_lstm_ptrnet", "attordernet", "se_graph")
#: display names used by the paper's tables and figures
MODEL_LABELS = {
    "lstm_ptrnet": "LSTM+PtrNet",
    "variant_lstm_ptrnet": "V-LSTM+PtrNet",
    "attordernet": "ATTOrderNet",
    "se_graph": "SE-Graph",
}
N_ROLES = 3  # NSEG role ids 1, 2, 3 (0 = no edge)
#: models whose computation changed under an unchanged :class:`ModelConfig`: the revision joins
#: the cache key (:func:`sumeval.ordering.experiment.train_cached`), so runs trained before the
#: change are not reused. attordernet 2: pointer over the sentence vectors, pre-norm Transformer.
MODEL_REVISIONS = {"attordernet": 2}


@dataclass(frozen=True)
class ModelConfig:
    """Sizes of a pointer ordering model (paper 002's are in :mod:`sumeval.ordering.sizes`).

    ``layers``/``heads`` apply to ``attordernet`` (heads must divide ``hidden``),
    ``process_steps`` to ``variant_lstm_ptrnet``, ``graph_steps``/``max_entities``/
    ``entity_hidden`` to ``se_graph`` (``entity_hidden``: the entity nodes' state size, NSEG's
    ``--ehid``; None: ``hidden``, and then it is left out of :meth:`to_dict`, so configurations
    without it keep their cache keys).
    """

    name: str = "lstm_ptrnet"
    vocab_size: int = 2
    emb_dim: int = 50
    hidden: int = 128
    dropout: float = 0.1
    layers: int = 2
    heads: int = 8
    process_steps: int = 5
    graph_steps: int = 2
    max_entities: int = 40
    entity_hidden: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if d["entity_hidden"] is None:
            del d["entity_hidden"]
        return d

    @property
    def entity_size(self) -> int:
        """State size of SE-Graph's entity nodes: ``entity_hidden``, else ``hidden``."""
        return self.hidden if self.entity_hidden is None else self.entity_hidden

    @property
    def needs_graph(self) -> bool:
        return self.name == "se_graph"


def encode_batch(token_ids: Sequence[Sequence[Sequence[int]]], max_tokens: int = 60):
    """Pad ``[doc][unit][token id]`` (units in input order) to tensors ``(tokens, unit_mask)``.

    tokens: (B, N, T) int64, T = min(longest unit, ``max_tokens``) (longer units are cut);
    an empty unit gets one ``<unk>`` (id 1) so every real unit has a length >= 1.
    """
    import torch

    B = len(token_ids)
    N = max(len(d) for d in token_ids)
    T = max(1, min(max_tokens, max((len(u) for d in token_ids for u in d), default=1)))
    tokens = torch.zeros((B, N, T), dtype=torch.long)
    mask = torch.zeros((B, N), dtype=torch.bool)
    for b, doc in enumerate(token_ids):
        for n, unit in enumerate(doc):
            ids = list(unit[:T]) or [1]
            tokens[b, n, : len(ids)] = torch.tensor(ids, dtype=torch.long)
            mask[b, n] = True
    return tokens, mask


# A document's graph: ((entity word id, {input position: role id}), ...)
DocGraph = Sequence[tuple[int, Mapping[int, int]]]


def encode_graphs(graphs: Sequence[DocGraph], n_units: int, max_entities: int = 40) -> dict:
    """Pad the documents' entity graphs to tensors (see the module docstring).

    ``graphs[b]`` lists document b's entities as ``(word id, {input position: role})``; the
    first ``max_entities`` are kept. E = max(1, most entities kept) so an entity-free batch
    still has a (masked) slot. Role ids must lie in 1..3.
    """
    import torch

    from sumeval.errors import InputError

    B = len(graphs)
    E = max(1, min(max_entities, max((len(g) for g in graphs), default=0)))
    ent = torch.zeros((B, E), dtype=torch.long)
    emask = torch.zeros((B, E), dtype=torch.bool)
    roles = torch.zeros((B, n_units, E), dtype=torch.long)
    for b, g in enumerate(graphs):
        for e, (wid, occ) in enumerate(list(g)[:E]):
            ent[b, e] = int(wid)
            emask[b, e] = True
            for pos, role in occ.items():
                if not 1 <= int(role) <= N_ROLES:
                    raise InputError(f"graph of document {b}: entity {e} has role {role}; roles are 1..{N_ROLES}")
                if not 0 <= int(pos) < n_units:
                    raise InputError(f"graph of document {b}: entity {e} points at unit {pos} of {n_units}")
                roles[b, int(pos), e] = int(role)
    return {"entity_tokens": ent, "entity_mask": emask, "roles": roles}


def graph_to(graph: dict | None, device) -> dict | None:
    """``graph`` with its tensors moved to ``device`` (None stays None)."""
    return None if graph is None else {k: v.to(device) for k, v in graph.items()}


def _add_document_encoder(module, c: ModelConfig) -> None:
    """The layers of ``c.name``'s document encoder, set on ``module`` (a ``PointerOrderer`` in its
    ``__init__``, between the sentence encoder and the pointer decoder: the order its parameters are
    created and drawn in)."""
    from torch import nn

    H = c.hidden
    if c.name == "lstm_ptrnet":
        module.doc_rnn = nn.LSTM(H, H, batch_first=True)
    elif c.name == "variant_lstm_ptrnet":
        module.process = nn.LSTMCell(2 * H, H)
        module.write = nn.Linear(2 * H, H)
    elif c.name == "attordernet":
        # pre-norm layers and a final LayerNorm, as the release's tensor2tensor encoder
        # (layer_preprocess "n", layer_postprocess "da", a last layer_preprocess)
        layer = nn.TransformerEncoderLayer(H, c.heads, dim_feedforward=2 * H, dropout=c.dropout,
                                           batch_first=True, norm_first=True)
        module.doc_enc = nn.TransformerEncoder(layer, c.layers, norm=nn.LayerNorm(H), enable_nested_tensor=False)
    else:  # se_graph; He = H unless entity_hidden is set
        He = c.entity_size
        module.ent_in = nn.Linear(c.emb_dim, He)
        module.role_s2e = nn.ModuleList(nn.Linear(H, He, bias=False) for _ in range(N_ROLES))
        module.role_e2s = nn.ModuleList(nn.Linear(He, H, bias=False) for _ in range(N_ROLES))
        module.w_ss = nn.Linear(H, H, bias=False)
        module.sent_gru = nn.GRUCell(2 * H, H)
        module.ent_gru = nn.GRUCell(He + H, He)
        module.glob_gru = nn.GRUCell(H + He, H)


def build_model(config: ModelConfig, embeddings=None):
    """A ``PointerOrderer`` torch module; ``embeddings`` (V, E) array initialises the word table."""
    import torch
    from torch import nn

    if config.name not in MODEL_NAMES:
        from sumeval.errors import InputError

        raise InputError(f"unknown ordering model {config.name!r}; implemented: {', '.join(MODEL_NAMES)}")
    if config.name == "attordernet" and config.hidden % config.heads:
        from sumeval.errors import InputError

        raise InputError(f"attordernet: heads = {config.heads} must divide hidden = {config.hidden}")

    class PointerOrderer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c = config
            H = c.hidden
            self.config = c
            self.emb = nn.Embedding(c.vocab_size, c.emb_dim, padding_idx=0)
            if embeddings is not None:
                self.emb.weight.data.copy_(torch.as_tensor(embeddings, dtype=torch.float32))
            self.drop = nn.Dropout(c.dropout)
            bi = c.name in ("attordernet", "se_graph")
            self.sent_rnn = nn.LSTM(c.emb_dim, H // 2 if bi else H, batch_first=True, bidirectional=bi)
            _add_document_encoder(self, c)
            self.start = nn.Parameter(torch.zeros(H))
            self.dec = nn.LSTMCell(H, H)
            self.w_ctx = nn.Linear(H, H, bias=False)
            self.w_dec = nn.Linear(H, H)
            self.v = nn.Linear(H, 1, bias=False)

        # ---- encoders ------------------------------------------------------------------
        def encode_sentences(self, tokens, unit_mask):
            """Sentence vectors (B, N, H), zero at padded units."""
            B, N, T = tokens.shape
            flat = tokens.view(B * N, T)
            lengths = (flat != 0).sum(1).clamp(min=1)
            x = self.drop(self.emb(flat))
            packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
            _, (h, _) = self.sent_rnn(packed)
            sent = torch.cat([h[-2], h[-1]], -1) if self.sent_rnn.bidirectional else h[-1]
            return sent.view(B, N, -1) * unit_mask.unsqueeze(-1)

        def encode(self, tokens, unit_mask, graph=None):
            """Sentence vectors (B, N, H), pointer contexts (B, N, H) and decoder start (h, c)."""
            sent = self.encode_sentences(tokens, unit_mask)
            N = tokens.shape[1]
            name = self.config.name
            if name == "lstm_ptrnet":
                n_units = unit_mask.sum(1).clamp(min=1)
                packed = nn.utils.rnn.pack_padded_sequence(self.drop(sent), n_units.cpu(), batch_first=True,
                                                           enforce_sorted=False)
                out, (h, c) = self.doc_rnn(packed)
                ctx, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=N)
                return sent, ctx, (h[-1], c[-1])
            if name == "variant_lstm_ptrnet":
                return (sent, *self._read_process_write(sent, unit_mask))
            if name == "attordernet":
                # the pointer attends over the sentence vectors (paper 002 Eq.2, f(s_i, h); the
                # release's pointer reads the Transformer's *input*); the Transformer's mean-pooled
                # output is the decoder's start state, h and c both (the release's LSTMStateTuple)
                x = self.drop(sent)
                out = self.doc_enc(x, src_key_padding_mask=~unit_mask) * unit_mask.unsqueeze(-1)
                pooled = out.sum(1) / unit_mask.sum(1, keepdim=True).clamp(min=1)
                return sent, x, (pooled, pooled)
            if graph is None:
                from sumeval.errors import InputError

                raise InputError("se_graph needs the documents' entity graphs (graph=encode_graphs(...))")
            ctx, g = self._graph(sent, unit_mask, graph)
            return sent, ctx, (g, torch.zeros_like(g))

        def _read_process_write(self, sent, unit_mask):
            """Set encoder: ``process_steps`` attention reads; order-invariant. -> (ctx, (h, c))."""
            B, N, H = sent.shape
            m = self.drop(sent)
            q_star = sent.new_zeros((B, 2 * H))
            h = sent.new_zeros((B, H))
            c = sent.new_zeros((B, H))
            for _ in range(self.config.process_steps):
                h, c = self.process(q_star, (h, c))
                e = (m * h.unsqueeze(1)).sum(-1).masked_fill(~unit_mask, -1e9)
                a = torch.softmax(e, -1)
                r = (a.unsqueeze(-1) * m).sum(1)
                q_star = torch.cat([h, r], -1)
            return sent, (torch.tanh(self.write(q_star)), c)

        def _graph(self, sent, unit_mask, graph):
            """Gated message passing over sentence, entity and global nodes -> (ctx (B,N,H), g (B,H)).

            Entity states are (B, E, He), He = ``config.entity_size``."""
            roles, emask = graph["roles"], graph["entity_mask"]
            s_mask = unit_mask.unsqueeze(-1).float()
            e_mask = emask.unsqueeze(-1).float()
            edge = (roles > 0).float() * s_mask * emask.unsqueeze(1).float()           # (B, N, E)
            per_role = [((roles == r + 1).float() * edge) for r in range(N_ROLES)]
            share = (torch.bmm(edge, edge.transpose(1, 2)) > 0).float()               # (B, N, N)
            eye = torch.eye(share.shape[1], device=share.device).unsqueeze(0)
            share = share * (1 - eye) * s_mask * s_mask.transpose(1, 2)
            deg_s = (edge.sum(2, keepdim=True) + share.sum(2, keepdim=True)).clamp(min=1)
            deg_e = edge.sum(1).unsqueeze(-1).clamp(min=1)
            hs = sent
            he = torch.tanh(self.ent_in(self.drop(self.emb(graph["entity_tokens"])))) * e_mask
            n_s = unit_mask.sum(1, keepdim=True).clamp(min=1).float()
            n_e = emask.sum(1, keepdim=True).clamp(min=1).float()
            g = hs.sum(1) / n_s
            B, N, H = hs.shape
            E = he.shape[1]
            for _ in range(self.config.graph_steps):
                msg_s = torch.bmm(share, self.w_ss(hs))
                msg_e = hs.new_zeros(he.shape)
                for r in range(N_ROLES):
                    msg_s = msg_s + torch.bmm(per_role[r], self.role_e2s[r](he))
                    msg_e = msg_e + torch.bmm(per_role[r].transpose(1, 2), self.role_s2e[r](hs))
                msg_s, msg_e = msg_s / deg_s, msg_e / deg_e
                g_s = g.unsqueeze(1).expand(B, N, H)
                g_e = g.unsqueeze(1).expand(B, E, H)
                hs_new = self.sent_gru(torch.cat([msg_s, g_s], -1).reshape(B * N, 2 * H),
                                       hs.reshape(B * N, H)).view(B, N, H) * s_mask
                he_new = self.ent_gru(torch.cat([msg_e, g_e], -1).reshape(B * E, -1),
                                      he.reshape(B * E, -1)).view(B, E, -1) * e_mask
                g = self.glob_gru(torch.cat([hs.sum(1) / n_s, he.sum(1) / n_e], -1), g)
                hs, he = hs_new, he_new
            return hs, g

        # ---- pointer decoder -----------------------------------------------------------
        def step(self, prev_vec, state, ctx_proj, available):
            """One decoder step: log-probabilities (B, N) over the still available units."""
            h, c = self.dec(prev_vec, state)
            scores = self.v(torch.tanh(ctx_proj + self.w_dec(h).unsqueeze(1))).squeeze(-1)
            scores = scores.masked_fill(~available, -1e9)  # finite: a finished row stays NaN-free
            return torch.log_softmax(scores, -1), (h, c)

        def forward(self, tokens, unit_mask, gold, graph=None):
            """Teacher-forced negative log-likelihood of ``gold``, averaged over real units."""
            sent, ctx, state = self.encode(tokens, unit_mask, graph)
            ctx_proj = self.w_ctx(ctx)
            B, N, H = sent.shape
            available = unit_mask.clone()
            prev = self.start.expand(B, H)
            total = sent.new_zeros(())
            idx = torch.arange(B, device=tokens.device)
            for t in range(N):
                logp, state = self.step(prev, state, ctx_proj, available)
                live = unit_mask[:, t]
                tgt = gold[:, t]
                picked = logp.gather(1, tgt.unsqueeze(1)).squeeze(1)
                total = total - torch.where(live, picked, torch.zeros_like(picked)).sum()
                available = available.clone()
                available[idx[live], tgt[live]] = False
                prev = sent[idx, tgt]
            return total / unit_mask.sum()

    return PointerOrderer()


def count_parameters(model) -> int:
    """Number of trainable parameters, word embeddings included (the paper's #pm column)."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


#: where a parameter goes, by the first part of its name (:func:`parameter_groups`)
PARAMETER_GROUPS = {"emb": "embedding", "sent_rnn": "sentence_encoder", "start": "decoder", "dec": "decoder",
                    "w_ctx": "decoder", "w_dec": "decoder", "v": "decoder"}


def parameter_groups(model) -> dict[str, int]:
    """Trainable parameters by part: ``embedding`` (the word table), ``sentence_encoder`` (the word
    LSTM), ``document_encoder`` (document LSTM, read-process-write, Transformer or graph) and
    ``decoder`` (pointer LSTM and attention); the four add up to :func:`count_parameters`."""
    out = dict.fromkeys(("embedding", "sentence_encoder", "document_encoder", "decoder"), 0)
    for name, p in model.named_parameters():
        if p.requires_grad:
            out[PARAMETER_GROUPS.get(name.split(".")[0], "document_encoder")] += p.numel()
    return out
