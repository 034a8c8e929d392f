"""Pointer-network ordering models (paper 002 §3; SPEC.md §3) — first increment.

Implemented: ``lstm_ptrnet`` (LSTM+PtrNet: LSTM sentence encoder, a document LSTM over the
sentences in their shuffled order, pointer LSTM decoder started from its final state) and
``attordernet`` (BiLSTM sentence encoder, Transformer encoder without positional encoding over
the sentence vectors, mean-pooled output initialises the pointer decoder). Not yet:
Variant-LSTM+PtrNet (read-process-write) and SE-Graph.

Inputs (:func:`encode_batch`): ``tokens`` (B, N, T) int64 word ids in input (shuffled) order,
0 = padding; ``unit_mask`` (B, N) bool. Targets: ``gold`` (B, N) int64, the input positions
in gold order (padded with 0 where ``unit_mask`` is False).
Torch is imported inside functions and classes are built lazily (nothing heavy at import).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Sequence

MODEL_NAMES = ("lstm_ptrnet", "attordernet")


@dataclass(frozen=True)
class ModelConfig:
    """Sizes of a pointer ordering model (the paper's are larger: hidden 300, GloVe 100d/300d)."""

    name: str = "lstm_ptrnet"
    vocab_size: int = 2
    emb_dim: int = 50
    hidden: int = 128
    dropout: float = 0.1
    layers: int = 2       # Transformer layers (attordernet)
    heads: int = 8        # Transformer heads (attordernet); must divide hidden

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


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


def build_model(config: ModelConfig, embeddings=None):
    """A ``PointerOrderer`` torch module; ``embeddings`` (V, E) array initialises the word table."""
    import torch
    from torch import nn

    if config.name not in MODEL_NAMES:
        from sumeval.errors import InputError

        raise InputError(f"unknown ordering model {config.name!r}; implemented: {', '.join(MODEL_NAMES)}")

    class PointerOrderer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c = config
            self.config = c
            self.emb = nn.Embedding(c.vocab_size, c.emb_dim, padding_idx=0)
            if embeddings is not None:
                self.emb.weight.data.copy_(torch.as_tensor(embeddings, dtype=torch.float32))
            self.drop = nn.Dropout(c.dropout)
            bi = c.name == "attordernet"
            self.sent_rnn = nn.LSTM(c.emb_dim, c.hidden // 2 if bi else c.hidden, batch_first=True, bidirectional=bi)
            if c.name == "lstm_ptrnet":
                self.doc_rnn = nn.LSTM(c.hidden, c.hidden, batch_first=True)
            else:
                layer = nn.TransformerEncoderLayer(c.hidden, c.heads, dim_feedforward=2 * c.hidden,
                                                   dropout=c.dropout, batch_first=True)
                self.doc_enc = nn.TransformerEncoder(layer, c.layers, enable_nested_tensor=False)
            self.start = nn.Parameter(torch.zeros(c.hidden))
            self.dec = nn.LSTMCell(c.hidden, c.hidden)
            self.w_ctx = nn.Linear(c.hidden, c.hidden, bias=False)
            self.w_dec = nn.Linear(c.hidden, c.hidden)
            self.v = nn.Linear(c.hidden, 1, bias=False)

        # ---- encoders ------------------------------------------------------------------
        def encode(self, tokens, unit_mask):
            """Sentence vectors (B, N, H), contexts (B, N, H) and decoder start state (h, c)."""
            B, N, T = tokens.shape
            flat = tokens.view(B * N, T)
            lengths = (flat != 0).sum(1).clamp(min=1)
            x = self.drop(self.emb(flat))
            packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
            _, (h, _) = self.sent_rnn(packed)
            sent = torch.cat([h[-2], h[-1]], -1) if self.sent_rnn.bidirectional else h[-1]
            sent = sent.view(B, N, -1) * unit_mask.unsqueeze(-1)
            if self.config.name == "lstm_ptrnet":
                n_units = unit_mask.sum(1).clamp(min=1)
                packed = nn.utils.rnn.pack_padded_sequence(self.drop(sent), n_units.cpu(), batch_first=True,
                                                           enforce_sorted=False)
                out, (h, c) = self.doc_rnn(packed)
                ctx, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=N)
                state = (h[-1], c[-1])
            else:
                ctx = self.doc_enc(self.drop(sent), src_key_padding_mask=~unit_mask)
                ctx = ctx * unit_mask.unsqueeze(-1)
                pooled = ctx.sum(1) / unit_mask.sum(1, keepdim=True).clamp(min=1)
                state = (pooled, torch.zeros_like(pooled))
            return sent, ctx, state

        # ---- pointer decoder -----------------------------------------------------------
        def step(self, prev_vec, state, ctx_proj, available):
            """One decoder step: log-probabilities (B, N) over the still available units."""
            h, c = self.dec(prev_vec, state)
            scores = self.v(torch.tanh(ctx_proj + self.w_dec(h).unsqueeze(1))).squeeze(-1)
            scores = scores.masked_fill(~available, -1e9)  # finite: a finished row stays NaN-free
            return torch.log_softmax(scores, -1), (h, c)

        def forward(self, tokens, unit_mask, gold):
            """Teacher-forced negative log-likelihood of ``gold``, averaged over real units."""
            sent, ctx, state = self.encode(tokens, unit_mask)
            ctx_proj = self.w_ctx(ctx)
            B, N, H = sent.shape
            available = unit_mask.clone()
            prev = self.start.expand(B, H)
            total = sent.new_zeros(())
            for t in range(N):
                logp, state = self.step(prev, state, ctx_proj, available)
                live = unit_mask[:, t]
                tgt = gold[:, t]
                picked = logp.gather(1, tgt.unsqueeze(1)).squeeze(1)
                total = total - torch.where(live, picked, torch.zeros_like(picked)).sum()
                idx = torch.arange(B, device=tokens.device)
                available = available.clone()
                available[idx[live], tgt[live]] = False
                prev = sent[idx, tgt]
            return total / unit_mask.sum()

    return PointerOrderer()


def count_parameters(model) -> int:
    """Number of trainable parameters (the paper's #pm column)."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
