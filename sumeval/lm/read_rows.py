"""Every layer's hidden states at the positions a forward pass is read at, with the last layer run on those rows only.

The masked-embedding engine (:mod:`sumeval.lm.engine`) reads, from every layer of a pass, the first
piece of each masked word and the CLS position: a few rows of each sequence (words at least 8 apart,
so about one position in ten of a text's window). Layers ``0 .. n-1`` must be computed at every
position (the next layer attends to all of them), but nothing attends to the last layer's output:
there only the rows read are needed. :func:`states_at` runs the model up to the last layer's
attention (keys, values, queries, scores and mixing at every position, as the model does), then
the rest of that layer - the attention's output projection, its residual and LayerNorm, the
feed-forward block and its LayerNorm, about three quarters of a layer's multiply-adds - on the rows
read only. With all-mpnet-base-v2 (12 layers) that is 5.3 % of the multiply-adds of SummEval's extraction; with a
model of fewer layers more (all-MiniLM-L6-v2: 6 layers), of more layers less.

Every operation of that tail works row by row (the matrix products, LayerNorm, GELU), so the rows'
values are those of the full pass provided each product gives a row the same result whatever the
number of rows beside it. On the CPU in float32 (MKL) that held for every product of 4 rows or more
with one thread and of 12 or more with two (it does not for 1-3 rows, nor for some of 5-11 with two
threads: a different kernel); a tail of fewer than :data:`MIN_TAIL_ROWS` rows is therefore filled
up with further rows of the batch. ``tests/lm/test_lm.py`` compares the arrays with the full pass bit
for bit. The engine uses this path in float32 on a CPU only, where that is tested; elsewhere, and
for an architecture not listed in :data:`TAILS`, the full forward pass runs.

The models' own modules are called (no formula is written again here): forward hooks keep the
embedding output and each layer's output but the last's, and a pre-hook on the first module
after the last layer's attention stops the pass there, handing over that module's input.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

__all__ = ["states_at", "has_tail", "MIN_TAIL_ROWS", "TAILS"]

#: a last layer run on fewer rows than this is filled up to it with further rows of the batch (see the module doc)
MIN_TAIL_ROWS = 64


class _Stop(Exception):
    """Raised by the pre-hook that ends a pass before the last layer's attention output."""

    def __init__(self, args: tuple) -> None:
        super().__init__("stop")
        self.inputs = args


def _mpnet_tail(layer: Any) -> tuple[Any, Callable[[tuple, Any, Any], Any]]:
    """MPNet (``MPNetLayer``): stop at ``attention.attn.o``'s input (the heads' context); the rest of
    ``MPNetSelfAttention`` / ``MPNetAttention`` / ``MPNetLayer.forward`` on the rows."""
    att = layer.attention

    def tail(inputs: tuple, rows: Any, hidden: Any) -> Any:
        context = inputs[0].reshape(-1, inputs[0].shape[-1])[rows]
        attention_output = att.LayerNorm(att.dropout(att.attn.o(context)) + hidden)
        return layer.output(layer.intermediate(attention_output), attention_output)

    return att.attn.o, tail


def _bert_tail(layer: Any) -> tuple[Any, Callable[[tuple, Any, Any], Any]]:
    """BERT, RoBERTa (``BertLayer`` and its copies): stop at ``attention.output``'s input (the heads'
    context, the layer's input); ``BertSelfOutput`` and ``BertLayer.feed_forward_chunk`` on the rows."""
    if getattr(layer, "chunk_size_feed_forward", 0) or getattr(layer, "add_cross_attention", False):
        raise LookupError("chunked feed-forward or cross-attention")

    def tail(inputs: tuple, rows: Any, hidden: Any) -> Any:
        context = inputs[0].reshape(-1, inputs[0].shape[-1])[rows]
        attention_output = layer.attention.output(context, hidden)
        return layer.output(layer.intermediate(attention_output), attention_output)

    return layer.attention.output, tail


#: config ``model_type`` -> how its last layer is stopped and finished on the rows read
TAILS: dict[str, Callable[[Any], tuple[Any, Callable[[tuple, Any, Any], Any]]]] = {
    "mpnet": _mpnet_tail, "bert": _bert_tail, "roberta": _bert_tail}


def _layers(net: Any) -> Any:
    encoder = getattr(net, "encoder", None)
    return getattr(encoder, "layer", None)


def has_tail(net: Any) -> bool:
    """Whether :func:`states_at` can run ``net``'s last layer on the rows read (else it runs the full pass)."""
    make = TAILS.get(getattr(net.config, "model_type", ""))
    layers = _layers(net)
    if make is None or layers is None or len(layers) == 0 or getattr(net, "embeddings", None) is None:
        return False
    try:
        make(layers[-1])
    except LookupError:
        return False
    return True


def _tail_rows(n_batch: int, length: int, rows: Any, cols: Any) -> np.ndarray:
    """Flat indices (row * length + column) of the positions read and of every row's CLS, sorted,
    filled up to :data:`MIN_TAIL_ROWS` (or the whole batch) with the smallest indices not read."""
    need = np.union1d(np.asarray(rows, dtype=np.int64) * length + np.asarray(cols, dtype=np.int64),
                      np.arange(n_batch, dtype=np.int64) * length)
    floor = min(MIN_TAIL_ROWS, n_batch * length)
    if len(need) < floor:
        extra = np.setdiff1d(np.arange(floor + len(need), dtype=np.int64), need)[:floor - len(need)]
        need = np.union1d(need, extra)
    return need


def states_at(net: Any, input_ids: Any, attention_mask: Any, rows: Any, cols: Any, *,
              last_layer_rows_only: bool = True) -> tuple[Any, Any]:
    """Every layer's hidden states (``hidden_states`` 0 = the embedding output .. n) at ``(rows, cols)``
    and at every sequence's first position (CLS).

    Args:
        net: a Hugging Face encoder (``AutoModel``), in eval mode.
        input_ids, attention_mask: the batch, ``(B, L)``.
        rows, cols: long tensors of equal length: the positions to read (sequence, position).
        last_layer_rows_only: run the last layer on the rows read only (when :func:`has_tail`);
            False: one full forward pass with ``output_hidden_states``.

    Returns:
        ``(states (len(rows), n+1, H), cls (B, n+1, H))``, the model's dtype.
    """
    import torch

    if not (last_layer_rows_only and has_tail(net)):
        hs = net(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True).hidden_states
        return (torch.stack([h[rows, cols] for h in hs], dim=1), torch.stack([h[:, 0] for h in hs], dim=1))
    layers = _layers(net)
    stop_at, tail = TAILS[net.config.model_type](layers[-1])
    kept: list[Any] = []

    def keep(_module, _args, out) -> None:
        kept.append(out[0] if isinstance(out, tuple) else out)

    def stop(_module, args) -> None:
        raise _Stop(args)

    handles = [net.embeddings.register_forward_hook(keep)]
    handles += [layer.register_forward_hook(keep) for layer in layers[:-1]]
    handles.append(stop_at.register_forward_pre_hook(stop))
    inputs = None
    try:
        net(input_ids=input_ids, attention_mask=attention_mask)
    except _Stop as stopped:
        inputs = stopped.inputs
    finally:
        for h in handles:
            h.remove()
    if inputs is None or len(kept) != len(layers):  # pragma: no cover - the hooks above always fire in order
        raise RuntimeError("internal error: the forward pass did not stop at the last layer's attention output")
    n_batch, length = input_ids.shape
    flat = _tail_rows(n_batch, length, rows.cpu().numpy(), cols.cpu().numpy())
    flat_t = torch.as_tensor(flat, device=input_ids.device)
    hidden = kept[-1].reshape(n_batch * length, -1)[flat_t]  # the last layer's input at those rows
    last = tail(inputs, flat_t, hidden)
    at_read = torch.as_tensor(np.searchsorted(flat, rows.cpu().numpy() * length + cols.cpu().numpy()),
                              device=input_ids.device)
    at_cls = torch.as_tensor(np.searchsorted(flat, np.arange(n_batch) * length), device=input_ids.device)
    states = torch.stack([h[rows, cols] for h in kept] + [last[at_read]], dim=1)
    cls = torch.stack([h[:, 0] for h in kept] + [last[at_cls]], dim=1)
    return states, cls
