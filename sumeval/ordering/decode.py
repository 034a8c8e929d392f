"""Beam-search decoding of a pointer ordering model (paper 002 Sec.4.1: beam width 32).

:func:`beam_search` orders one document at a time: the ``beam`` hypotheses are a batch; each
step extends every hypothesis by every still-unplaced unit and keeps the ``beam`` best by
summed log-probability. ``beam=1`` is greedy decoding. Returns input positions in predicted
order (the ``pred`` argument of :mod:`sumeval.ordering.metrics`).
"""
from __future__ import annotations

from typing import Sequence


def beam_search(model, tokens, unit_mask, beam: int = 32, graph=None) -> list[list[int]]:
    """Predicted orders for a batch, by beam search over the pointer decoder (paper 002 Sec.4.1:
    width 32 in the paper).

    Args:
        model: a pointer model of :func:`~sumeval.ordering.models.build_model`.
        tokens: (B, N, T) int64 word ids on the model's device.
        unit_mask: (B, N) bool.
        beam: the beam width (>= 1; 1 is greedy).
        graph: :func:`~sumeval.ordering.models.encode_graphs` (same device), for SE-Graph.

    Returns:
        B orders: the input positions in predicted order.

    Raises:
        InputError: ``beam < 1``.
    """
    import torch

    if beam < 1:
        from sumeval.errors import InputError

        raise InputError(f"beam = {beam}: the beam width must be at least 1")
    model.eval()
    out: list[list[int]] = []
    with torch.no_grad():
        sent, ctx, (h, c) = model.encode(tokens, unit_mask, graph)
        ctx_proj = model.w_ctx(ctx)
        for b in range(tokens.shape[0]):
            n = int(unit_mask[b].sum())
            s_b, p_b = sent[b:b + 1, :n], ctx_proj[b:b + 1, :n]
            state = (h[b:b + 1], c[b:b + 1])
            prev = model.start.unsqueeze(0)
            available = torch.ones((1, n), dtype=torch.bool, device=tokens.device)
            scores = torch.zeros(1, device=tokens.device)
            orders = torch.zeros((1, 0), dtype=torch.long, device=tokens.device)
            for _ in range(n):
                k = scores.shape[0]
                logp, state = model.step(prev, state, p_b.expand(k, -1, -1), available)
                total = (scores.unsqueeze(1) + logp).masked_fill(~available, float("-inf"))
                flat = total.view(-1)
                n_keep = min(beam, int(torch.isfinite(flat).sum()))
                top, idx = flat.topk(n_keep)
                src, unit = idx // n, idx % n
                scores = top
                orders = torch.cat([orders[src], unit.unsqueeze(1)], 1)
                state = (state[0][src], state[1][src])
                available = available[src].clone()
                available[torch.arange(n_keep, device=tokens.device), unit] = False
                prev = s_b[0, unit]
            out.append([int(i) for i in orders[0]])
    return out


def predict_orders(model, token_ids: Sequence[Sequence[Sequence[int]]], beam: int = 32,
                   batch_size: int = 32, max_tokens: int = 60, device=None, graphs=None,
                   progress: bool = False) -> list[list[int]]:
    """Predicted orders for documents by :func:`beam_search`, in batches.

    Args:
        model: a pointer model of :func:`~sumeval.ordering.models.build_model`.
        token_ids: ``[doc][unit in input order][token id]``.
        beam: the beam width.
        batch_size: documents per batch.
        max_tokens: tokens kept per unit.
        device: the model's device (default: where its parameters are).
        graphs: one :data:`~sumeval.ordering.models.DocGraph` per document, for SE-Graph.
        progress: show a progress bar.

    Returns:
        One order per document: the input positions in predicted order.
    """
    from tqdm.auto import tqdm

    from sumeval.ordering.models import encode_batch, encode_graphs, graph_to

    if model.config.needs_graph and graphs is None:
        from sumeval.errors import InputError

        raise InputError("se_graph needs graphs= (sumeval.ordering.train.set_graphs) to decode")
    device = device or next(model.parameters()).device
    preds: list[list[int]] = []
    starts = range(0, len(token_ids), batch_size)
    for i in tqdm(starts, desc=f"decode (beam {beam})", disable=not progress, leave=False):
        tokens, mask = encode_batch(token_ids[i:i + batch_size], max_tokens)
        graph = None
        if model.config.needs_graph:
            graph = graph_to(encode_graphs(graphs[i:i + batch_size], mask.shape[1], model.config.max_entities),
                             device)
        preds.extend(beam_search(model, tokens.to(device), mask.to(device), beam, graph))
    return preds
