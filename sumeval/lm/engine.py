"""The masked-embedding engine of paper 000: every layer of every masked word, batched and cached.

Masked embeddings (:class:`MaskedEmbedder`)
    The forward passes of :func:`sumeval.lm.words.plan_passes` (every word masked exactly once,
    in groups of words at least 8 apart, in windows of at most 450 pieces) give, for every layer
    (``hidden_states`` 0 = the embedding output, so ``num_layers + 1`` layers), the hidden state
    at the **first** piece of each masked word, and the CLS hidden state of the pass. These are
    the embeddings ``e_i`` (summary) and ``e'_a`` (text) of paper 000 Sec.2, Eq.1-4.

    Every word is masked exactly once, so a text's embeddings do not depend on any summary: a text
    is embedded once and reused by every summary, measure, layer pair and study. Passes are
    batched across windows and documents (sorted by length, padded) under
    ``torch.inference_mode()``.

    Deviation from the reference code, on purpose: the reference masks, in a summary, only the
    words that also occur in the text (unless ``include_all_tokens``), so a summary's embeddings
    depend on its text; here every word is masked, and the set M of Eq.1 is applied afterwards.

Cache layout
    ``Store("masked_embeddings")``: one ``.npz`` per (model fingerprint, precision, text, masking
    parameters, storage dtype, sumeval version) - see :meth:`MaskedEmbedder.key`; the arrays are
    those of :class:`~sumeval.lm.embeddings.MaskedEmbeddings`. Work is done in chunks of documents
    whose boundaries depend only on the ordered list of texts; every document of a chunk is
    written (atomically) when its chunk is done. An interrupted run recomputes only the chunks
    not cached, in the same company, so it yields identical arrays. Processes that need the same
    texts at once (``sumeval run all --jobs 2``: two studies of the same extraction) share the work
    chunk by chunk: each chunk is claimed by one of them (a lock file under ``claims/``, released
    by the operating system if its process dies) and the others read it when it is done.

Precision
    ``float32`` (default), ``bfloat16`` or ``float16`` (:mod:`sumeval.lm.precision`: the names,
    and the warning where this CPU emulates a reduced precision).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from typing import Any, Iterable, Sequence

import numpy as np

from sumeval.errors import InputError
from sumeval.lm.embeddings import MaskedEmbeddings
from sumeval.lm.precision import (
    AUTO,
    AUTOCAST_DTYPE,
    SlowPrecisionWarning,
    normalize_precision,
    resolve_precision,
    slow_precision_note,
)
from sumeval.lm.read_rows import states_at
from sumeval.lm.resolution import (
    DEFAULT_MODEL,
    LOAD_LOCK,
    LoadedModel,
    ModelSpec,
    default_device,
    load_model,
    resolve_model,
)
from sumeval.lm.words import Pass, plan_passes, split_words, word_pieces
from sumeval.runstate import claim

__all__ = ["MaskedEmbedder", "get_embedder", "check_device", "CPU_FORWARD_TOKENS"]

#: padded positions per forward call in fp32 on a CPU (``MaskedEmbedder(forward_tokens=None)``): slices of a
#: batch this size ran 1.1-1.5x faster than whole 8,192-position batches on the 2-core machine (BENCHMARKS.md)
CPU_FORWARD_TOKENS = 1024


def check_device(device: str | None, option: str = "device") -> str:
    """``device`` (default :func:`~sumeval.lm.resolution.default_device`) if torch can use it here;
    a requested device that is missing (``cuda`` without a GPU, ``cuda:3`` of two) or no device
    at all is an InputError naming ``option``, never a silent fall-back to the CPU."""
    if device is None:
        return default_device()
    import torch

    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError):
        raise InputError(f"{option} {device!r} is not a device; use cpu or cuda (cuda:N)") from None
    if dev.type not in ("cpu", "cuda"):
        raise InputError(f"{option} {device}: use cpu or cuda")
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise InputError(f"{option} {device}: this machine has no usable CUDA GPU; use cpu")
    if dev.type == "cuda" and dev.index is not None and dev.index >= torch.cuda.device_count():
        raise InputError(f"{option} {device}: there are {torch.cuda.device_count()} CUDA devices "
                         f"(cuda:0 to cuda:{torch.cuda.device_count() - 1})")
    return str(device)


# --------------------------------------------------------------------------------------------
# Precision (names in sumeval.lm.precision)
# --------------------------------------------------------------------------------------------
_REDUCED: dict[tuple[str, str, str], Any] = {}
_WARNED: set[tuple[str, str]] = set()


def _warn_if_emulated(precision: str, device: str) -> None:
    """A :class:`SlowPrecisionWarning` (once per precision and device in a process) where this CPU
    emulates ``precision`` (:func:`sumeval.lm.precision.slow_precision_note`)."""
    if (precision, device) in _WARNED:
        return
    _WARNED.add((precision, device))
    note = slow_precision_note(precision, device)
    if note:
        import warnings

        warnings.warn(note, SlowPrecisionWarning, stacklevel=3)


def _reduced_precision_model(loaded: LoadedModel, dtype_name: str) -> Any:
    """A copy of ``loaded.model`` whose ``nn.Linear`` weights and biases are already ``dtype``.

    Run under ``torch.autocast`` with the same dtype it gives the same numbers as autocast over
    the float32 model (autocast casts every Linear's weight to that dtype anyway; LayerNorm,
    softmax, the residual stream and the embeddings stay float32), without recasting ~85M
    weights at every forward pass (a quarter of the bf16 time on CPU). One copy per
    (model, device, dtype) in this process; the shared float32 model is left untouched.
    """
    key = (str(loaded.spec.path), loaded.device, dtype_name)
    with LOAD_LOCK:
        if key not in _REDUCED:
            import copy

            import torch

            net = copy.deepcopy(loaded.model)
            dtype = getattr(torch, dtype_name)
            for mod in net.modules():
                if isinstance(mod, torch.nn.Linear):
                    mod.to(dtype)
            net.eval()
            _REDUCED[key] = net
        return _REDUCED[key]


class MaskedEmbedder:
    """Masked-token embeddings of every layer for many texts, cached on disk: the embeddings ``e``
    of paper 000 Sec.2 (every word masked once; the hidden states of its first word piece).

    Args:
        model: packaged name, local folder or Hugging Face id (:func:`~sumeval.lm.resolve_model`).
        device: default CUDA when present, else CPU; a requested device that is missing is an
            InputError (:func:`check_device`), never a fall-back to the CPU.
        precision: ``"auto"`` (default: float32 on a CPU, bfloat16 on CUDA,
            :func:`~sumeval.lm.precision.resolve_precision`), ``"float32"``, ``"bfloat16"`` or
            ``"float16"`` (short names accepted, :func:`normalize_precision`); the attribute
            ``precision`` is the resolved name. Reduced precision runs the Linear layers in
            that dtype (weights cast once, autocast for the rest; see
            :func:`_reduced_precision_model`); recorded in keys.
        window, margin, min_distance: the masking scheme (450, 50, 8; maskable end = window -
            margin), see :func:`~sumeval.lm.words.plan_passes`.
        word_splitter, normalize: how words are found (``"treebank"``, ``"NFKD"``).
        store_dtype: ``"float16"`` (default, half the disk) or ``"float32"``.
        batch_tokens: at most this many padded positions per forward pass (memory bound); a
            batch also holds only sequences within 10% (+8) of its shortest one's length, to
            bound padding.
        batch_size: at most this many sequences per forward pass.
        forward_tokens: a batch larger than this many padded positions goes through the model
            in equal slices of whole sequences, each padded as in its batch, so every sequence
            gets the same input and mask. In fp32 on a CPU the arrays equal one call per batch
            bit for bit (tested; and all of SummEval's cached arrays, BENCHMARKS.md), and slices
            of about a thousand positions keep a layer's activations in the CPU's caches: 1.1-1.5x
            the token rate of whole 8,192-position batches here, most on long texts. In bf16 /
            fp16 the slices change the last bits (the reduced-precision kernels depend on the
            batch's size). ``None`` (default): :data:`CPU_FORWARD_TOKENS` in fp32 on a CPU, whole
            batches otherwise (a GPU wants large ones).
        last_layer_rows: run the last layer on the positions read only (masked words' first pieces
            and CLS, :func:`sumeval.lm.read_rows.states_at`): nothing attends to its output, so the
            rest of the positions are not needed there; 5 % of all-mpnet-base-v2's work on SummEval. The
            arrays equal the full pass bit for bit in fp32 on a CPU (tested). ``None`` (default):
            on in fp32 on a CPU, off otherwise (untested there); models whose architecture
            :mod:`~sumeval.lm.read_rows` does not list (MPNet, BERT, RoBERTa) run the full pass.
        chunk_passes: documents are processed in chunks of about this many passes; each chunk
            is written to the cache when done (the unit of resumption).
        cache: True (the default store), False (no disk cache), or a :class:`sumeval.cache.Store`.
        memory_items: how many recent results to keep in memory.

    Raises:
        InputError: an unknown precision, storage dtype or masking scheme.
    """

    def __init__(self, model: str | os.PathLike[str] | ModelSpec = DEFAULT_MODEL, *,
                 device: str | None = None, precision: str = "auto", window: int = 450,
                 margin: int = 50, min_distance: int = 8, word_splitter: str = "treebank",
                 normalize: str | None = "NFKD", store_dtype: str = "float16",
                 batch_tokens: int = 8192, batch_size: int = 32, chunk_passes: int = 128,
                 forward_tokens: int | None = None, last_layer_rows: bool | None = None, cache: Any = True,
                 memory_items: int = 64):
        if precision != AUTO:
            normalize_precision(precision)  # a bad name fails before any work
        if store_dtype not in ("float16", "float32"):
            raise InputError(f"store_dtype {store_dtype!r} is unknown; use 'float16' or 'float32'")
        if batch_tokens < 1 or batch_size < 1 or chunk_passes < 1 \
                or (forward_tokens is not None and forward_tokens < 1):
            raise InputError(f"batch_tokens, batch_size, chunk_passes and forward_tokens must be >= 1 (got "
                             f"{batch_tokens}, {batch_size}, {chunk_passes}, {forward_tokens})")
        plan_passes(np.zeros(1, dtype=np.int64), window=window, margin=margin, min_distance=min_distance)
        split_words("a", word_splitter)
        self.spec = resolve_model(model)
        self.device = check_device(device)
        self.precision = resolve_precision(precision, self.device)  # auto: float32 on a CPU, bfloat16 on CUDA
        precision = self.precision
        _warn_if_emulated(precision, self.device)
        self.window, self.margin, self.min_distance = int(window), int(margin), int(min_distance)
        self.word_splitter, self.normalize = word_splitter, normalize
        self.store_dtype = store_dtype
        self.batch_tokens, self.batch_size, self.chunk_passes = int(batch_tokens), int(batch_size), int(chunk_passes)
        self.forward_tokens = None if forward_tokens is None else int(forward_tokens)
        self.last_layer_rows = None if last_layer_rows is None else bool(last_layer_rows)
        if cache is True:
            from sumeval.cache import Store

            self.store = Store("masked_embeddings")
        elif cache is False or cache is None:
            self.store = None
        else:
            self.store = cache
        self._memory: dict[str, MaskedEmbeddings] = {}
        self._memory_items = int(memory_items)
        self._loaded: LoadedModel | None = None
        self.stats = {"passes": 0, "tokens": 0, "padded_tokens": 0, "forward_calls": 0, "texts_computed": 0,
                      "texts_from_cache": 0}

    # -- identity -----------------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        """Everything besides the text that changes the arrays (recorded in keys and manifests)."""
        return {"model": self.spec.identity(), "precision": self.precision, "window": self.window,
                "margin": self.margin, "min_distance": self.min_distance,
                "word_splitter": self.word_splitter, "normalize": self.normalize,
                "store_dtype": self.store_dtype, "scheme": "all-words-once/first-piece/v1"}

    @functools.cached_property
    def _params_json(self) -> dict[str, Any]:
        return json.loads(json.dumps(self.params()))

    def key(self, text: str) -> str:
        """Cache key of ``text`` (model fingerprint, masking parameters, text, sumeval version)."""
        from sumeval.cache import cache_key

        return cache_key(kind="masked_embeddings", text=text, **self._params_json)

    @property
    def loaded(self) -> LoadedModel:
        if self._loaded is None:
            self._loaded = load_model(self.spec, device=self.device)
            tok = self._loaded.tokenizer
            if tok.mask_token_id is None:
                raise InputError(f"model {self.spec.name!r}: its tokenizer has no mask token; the "
                                 "masked-embedding engine needs one")
        return self._loaded

    @property
    def device_used(self) -> str:
        """The device the model's weights are on (``cuda:0``, ``cpu``): what a run manifest records."""
        return str(next(self.loaded.model.parameters()).device)

    @property
    def tokenizer(self) -> Any:
        return self.loaded.tokenizer

    @property
    def n_layers(self) -> int:
        """Selectable layers: ``num_hidden_layers + 1``."""
        return self.loaded.n_layers + 1

    # -- public API -----------------------------------------------------------------------------
    def embed(self, text: str) -> MaskedEmbeddings:
        """Masked embeddings of one text (from memory, the disk cache, or computed)."""
        return self.embed_many([text])[0]

    def embed_many(self, texts: Sequence[str], *, progress: bool = False) -> list[MaskedEmbeddings]:
        """Masked embeddings of ``texts`` (aligned with them); each distinct text computed once.

        Texts found in memory or in the cache are not recomputed; the others are computed in
        chunks (batched across windows and documents) and each chunk is cached when done.
        """
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise InputError(f"texts[{i}] is a {type(t).__name__} ({t!r:.60}); expected a string")
        keys = [self.key(t) for t in texts]
        found: dict[str, MaskedEmbeddings] = {}
        todo: list[tuple[str, str]] = []
        pending: set[str] = set()
        for k, t in zip(keys, texts):
            if k in found or k in pending:
                continue
            pending.add(k)
            got = self._lookup(k)
            if got is not None:
                found[k] = got
            else:
                todo.append((k, t))
        if todo:
            for k, res in self._compute(todo, progress=progress):
                found[k] = res
                self._remember(k, res)
        return [found[k] for k in keys]

    def is_cached(self, text: str) -> bool:
        k = self.key(text)
        return k in self._memory or (self.store is not None and self.store.has(k, "npz"))

    # -- internals ------------------------------------------------------------------------------
    def _remember(self, k: str, res: MaskedEmbeddings) -> None:
        if self._memory_items <= 0:
            return
        self._memory[k] = res
        while len(self._memory) > self._memory_items:
            self._memory.pop(next(iter(self._memory)))

    def _lookup(self, k: str) -> MaskedEmbeddings | None:
        if k in self._memory:
            return self._memory[k]
        if self.store is None:
            return None
        arrays = self.store.get_arrays(k)
        if arrays is None:
            return None
        res = MaskedEmbeddings.from_arrays(arrays, self.spec.identity())
        self.stats["texts_from_cache"] += 1
        self._remember(k, res)
        return res

    def _prepare(self, text: str) -> tuple[dict[str, Any], list[Pass]]:
        wp = word_pieces(text, self.tokenizer, word_splitter=self.word_splitter, normalize=self.normalize)
        passes = plan_passes(wp["word_starts"], window=self.window, margin=self.margin,
                             min_distance=self.min_distance)
        return wp, passes

    def _chunks(self, todo: list[tuple[str, str]]) -> Iterable[list[tuple[str, dict[str, Any], list[Pass]]]]:
        """Consecutive documents until about ``chunk_passes`` passes (boundaries depend only on
        the ordered list of texts to compute)."""
        chunk: list[tuple[str, dict[str, Any], list[Pass]]] = []
        n = 0
        for k, t in todo:
            wp, passes = self._prepare(t)
            chunk.append((k, wp, passes))
            n += len(passes)
            if n >= self.chunk_passes:
                yield chunk
                chunk, n = [], 0
        if chunk:
            yield chunk

    def fill_cache(self, groups: Iterable[Sequence[str]], *, progress: Any = None) -> int:
        """Compute and cache every text of ``groups`` that is not cached yet; return how many were computed here.

        Each group is worked as :meth:`embed_many` of that group alone would work it (its texts not
        yet cached, in order, in the same chunks), so the arrays are the same. Nothing is returned
        or kept in memory: this fills the disk cache (a study's extraction) with memory bounded by
        one chunk. Several processes filling the same groups at once share the work: each chunk is
        claimed (:func:`sumeval.runstate.claim`), a chunk another process holds is left to it and
        waited for at the end, and a chunk whose holder died is done here.

        Args:
            groups: texts, in groups (e.g. a few documents with their summaries each).
            progress: an object with ``update(n)`` (a tqdm bar), told the number of texts of each group done.
        """
        if self.store is None:
            raise InputError("fill_cache needs a disk cache; this MaskedEmbedder was made with cache=False")
        before = self.stats["texts_computed"]
        deferred = []

        def work(chunk) -> None:  # holding its claim: done meanwhile by another process, or do it
            if not all(self.store.has(k, "npz") for k, _, _ in chunk):
                for _ in self._compute_chunk(chunk, claimed=False):
                    pass

        for group in groups:
            for chunk in self._chunks(self._todo(group)):
                with self._claim(chunk) as mine:
                    if mine:
                        work(chunk)
                    else:
                        deferred.append(chunk)
            if progress is not None:
                progress.update(len(group))
        for chunk in deferred:  # held by another process: wait for it, do what it left undone
            with self._claim(chunk, wait=True):
                work(chunk)
        return self.stats["texts_computed"] - before

    def _todo(self, texts: Sequence[str]) -> list[tuple[str, str]]:
        """``(key, text)`` of the distinct ``texts`` that are neither in memory nor in the cache, in order."""
        todo, seen = [], set()
        for t in texts:
            if not isinstance(t, str):
                raise InputError(f"a text is a {type(t).__name__} ({t!r:.60}); expected a string")
            k = self.key(t)
            if k not in seen:
                seen.add(k)
                if not self.is_cached(t):
                    todo.append((k, t))
        return todo

    def _claim(self, chunk: list[tuple[str, dict[str, Any], list[Pass]]], *, wait: bool = False):
        """The claim (:func:`sumeval.runstate.claim`) of ``chunk``'s work, named by its texts' keys."""
        if self.store is None:
            return contextlib.nullcontext(True)
        name = hashlib.sha256("\n".join(k for k, _, _ in chunk).encode()).hexdigest()
        return claim(self.store.folder / "claims" / f"{name}.lock", wait=wait)

    def _compute(self, todo: list[tuple[str, str]], *, progress: bool = False):
        """``(key, embeddings)`` of every text of ``todo``, chunk by chunk; a chunk another process
        is computing (its claim) is left to it and read from the cache once it is done."""
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(todo), desc="masked embeddings", unit="text")
        deferred = []
        for chunk in self._chunks(todo):
            with self._claim(chunk) as mine:
                if not mine:
                    deferred.append(chunk)
                    continue
                for item in self._compute_chunk(chunk, claimed=True):
                    if bar is not None:
                        bar.update(1)
                    yield item
        for chunk in deferred:
            with self._claim(chunk, wait=True):
                for item in self._compute_chunk(chunk, claimed=True):
                    if bar is not None:
                        bar.update(1)
                    yield item
        if bar is not None:
            bar.close()

    def _compute_chunk(self, chunk: list[tuple[str, dict[str, Any], list[Pass]]], *, claimed: bool):
        """Run one chunk's passes and cache each document's arrays; yield ``(key, embeddings)``.

        ``claimed``: this process holds the chunk's claim, so a chunk another process finished in
        the meantime (every text now in the cache) is read, not recomputed.
        """
        if claimed and self.store is not None and all(self.store.has(k, "npz") for k, _, _ in chunk):
            got = [(k, self._lookup(k)) for k, _, _ in chunk]
            if all(res is not None for _, res in got):
                yield from got
                return
        loaded = self.loaded
        n_lay, hid = loaded.n_layers + 1, loaded.hidden_size
        jobs = [(d, p) for d, (_, _, passes) in enumerate(chunk) for p in passes]
        outs = self._run_passes([(chunk[d][1], p) for d, p in jobs])
        per_doc: list[list[tuple[Pass, np.ndarray, np.ndarray]]] = [[] for _ in chunk]
        for (d, p), (sel, cls_vec) in zip(jobs, outs):
            per_doc[d].append((p, sel, cls_vec))
        for d, (k, wp, passes) in enumerate(chunk):
            n_words = len(wp["words"])
            emb = np.zeros((n_words, n_lay, hid), dtype=self.store_dtype)
            cls_arr = np.zeros((len(passes), n_lay, hid), dtype=self.store_dtype)
            pass_of_word = np.full(n_words, -1, dtype=np.int32)
            for j, (p, sel, cls_vec) in enumerate(per_doc[d]):
                emb[list(p.words)] = sel
                cls_arr[j] = cls_vec
                pass_of_word[list(p.words)] = j
            if n_words and (pass_of_word < 0).any():  # pragma: no cover - plan_passes guarantees it
                raise RuntimeError("internal error: a word was never masked")
            res = MaskedEmbeddings(words=wp["words"], spans=wp["spans"], piece_ids=wp["piece_ids"],
                                   word_starts=wp["word_starts"], first_ids=wp["first_ids"], emb=emb,
                                   cls=cls_arr, pass_of_word=pass_of_word, model=self.spec.identity())
            if self.store is not None:
                self.store.put_arrays(k, res.to_arrays())
            self.stats["texts_computed"] += 1
            yield k, res

    def _sequence(self, wp: dict[str, Any], p: Pass) -> tuple[list[int], list[int]]:
        """Input ids of pass ``p`` and the positions to read (first piece of each masked word)."""
        tok = self.tokenizer
        ids = wp["piece_ids"][p.begin:p.end].copy()
        starts = wp["word_starts"]
        positions = []
        for w in p.words:
            s, e = int(starts[w]), int(starts[w + 1])
            ids[max(s, p.begin) - p.begin:min(e, p.end) - p.begin] = tok.mask_token_id
            positions.append(1 + s - p.begin)
        cls_id = tok.cls_token_id if tok.cls_token_id is not None else tok.bos_token_id
        sep_id = tok.sep_token_id if tok.sep_token_id is not None else tok.eos_token_id
        if cls_id is None or sep_id is None:
            raise InputError(f"model {self.spec.name!r}: its tokenizer has no CLS/SEP (or BOS/EOS) token")
        return [int(cls_id), *ids.tolist(), int(sep_id)], positions

    def _run_passes(self, jobs: list[tuple[dict[str, Any], Pass]]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Run the forward passes; return per job (first-piece states (n_masked, L+1, H), CLS (L+1, H))."""
        import torch

        loaded = self.loaded
        seqs = [self._sequence(wp, p) for wp, p in jobs]
        order = sorted(range(len(seqs)), key=lambda i: (len(seqs[i][0]), i))
        results: list[tuple[np.ndarray, np.ndarray] | None] = [None] * len(seqs)
        pad = loaded.tokenizer.pad_token_id
        pad = 0 if pad is None else int(pad)
        batches: list[list[int]] = []
        cur: list[int] = []
        for i in order:  # lengths ascend, so the last member sets the padded length
            L = len(seqs[i][0])
            if cur and (len(cur) + 1 > self.batch_size or (len(cur) + 1) * L > self.batch_tokens
                        or L > 1.1 * len(seqs[cur[0]][0]) + 8):  # keep padding under ~10%
                batches.append(cur)
                cur = []
            cur.append(i)
        if cur:
            batches.append(cur)
        dev = torch.device(loaded.device)
        autocast_dtype = AUTOCAST_DTYPE[self.precision]
        net = loaded.model if autocast_dtype is None else _reduced_precision_model(loaded, autocast_dtype)
        slice_tokens = self.forward_tokens
        if slice_tokens is None and dev.type == "cpu" and autocast_dtype is None:
            slice_tokens = CPU_FORWARD_TOKENS  # fp32 only: there the slices are exact (bf16's oneDNN kernels are not)
        rows_only = self.last_layer_rows
        if rows_only is None:  # fp32 on a CPU: where the last layer on the rows read is tested bit for bit
            rows_only = dev.type == "cpu" and autocast_dtype is None

        def forward(ids: Any, att: Any, positions: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
            """One batch through the model in slices of ``slice_tokens`` padded positions: every layer's
            states at each row's ``positions`` (rows in order) and at its CLS, as float32 arrays."""
            n_slices = 1 if slice_tokens is None else -(-ids.numel() // slice_tokens)
            step = -(-len(ids) // n_slices)  # slices of equal size: none is a sliver of a sequence or two
            sel_parts, cls_parts = [], []
            for at in range(0, len(ids), step):
                with (contextlib.nullcontext() if autocast_dtype is None
                      else torch.autocast(device_type=dev.type, dtype=getattr(torch, autocast_dtype))):
                    part = positions[at:at + step]
                    r_t = torch.tensor([r for r, pos in enumerate(part) for _ in pos], dtype=torch.long, device=dev)
                    c_t = torch.tensor([c for pos in part for c in pos], dtype=torch.long, device=dev)
                    sel, cls = states_at(net, ids[at:at + step], att[at:at + step], r_t, c_t,
                                         last_layer_rows_only=rows_only)
                self.stats["forward_calls"] += 1
                sel_parts.append(sel.float().cpu().numpy())
                cls_parts.append(cls.float().cpu().numpy())
            return np.concatenate(sel_parts), np.concatenate(cls_parts)

        with torch.inference_mode():
            for b in batches:
                L = max(len(seqs[i][0]) for i in b)
                ids = torch.full((len(b), L), pad, dtype=torch.long)
                att = torch.zeros((len(b), L), dtype=torch.long)
                for r, i in enumerate(b):
                    s = seqs[i][0]
                    ids[r, :len(s)] = torch.tensor(s, dtype=torch.long)
                    att[r, :len(s)] = 1
                sel, cls_all = forward(ids.to(dev), att.to(dev), [seqs[i][1] for i in b])
                self.stats["passes"] += len(b)
                self.stats["tokens"] += int(att.sum())
                self.stats["padded_tokens"] += len(b) * L
                at = 0
                for r, i in enumerate(b):
                    n = len(seqs[i][1])
                    results[i] = (sel[at:at + n], cls_all[r])
                    at += n
        return results  # type: ignore[return-value]


_EMBEDDERS: dict[str, MaskedEmbedder] = {}


def get_embedder(model: str | os.PathLike[str] | ModelSpec = DEFAULT_MODEL, **options: Any) -> MaskedEmbedder:
    """One shared :class:`MaskedEmbedder` (paper 000 Sec.2's ``e``) per (model, options) in this
    process (scorers use it, so a text is embedded, or read from the cache, once for every measure)."""
    spec = resolve_model(model)
    if "precision" in options:  # auto resolved first: one embedder per precision that runs
        options["precision"] = resolve_precision(options["precision"], options.get("device"))
    key = json.dumps({"path": str(spec.path), **{k: str(v) for k, v in sorted(options.items())}})
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = MaskedEmbedder(spec, **options)
    return _EMBEDDERS[key]
