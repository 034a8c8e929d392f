"""Language models: resolution, loading, and the masked-embedding engine of paper 000.

Model resolution (:func:`resolve_model`)
    A packaged name or alias (``all-mpnet-base-v2`` / ``mpnet``, the default of the paper-000
    studies; ``all-MiniLM-L6-v2`` / ``minilm``, fast, for smoke runs and tests), a local folder
    holding ``config.json``, or a Hugging Face id found in the local hub cache. Nothing is
    downloaded unless the hub is reachable and ``HF_HUB_OFFLINE`` is unset; otherwise
    :class:`~sumeval.errors.ModelNotFoundError` says which model and how to provide it.

Loading (:func:`load_model`)
    ``AutoModel`` and its fast tokenizer, in eval mode, on CUDA when present (else CPU). Loaded
    models are kept per (folder, device) in this process, so scorers share one copy.

Masked embeddings (:class:`MaskedEmbedder`), SPEC.md §1
    1. The text is NFKD-normalised and split into *words* (``word_splitter="treebank"``: NLTK's
       Penn-Treebank tokenizer, as the reference's ``word_tokenize``; without NLTK's punkt data a
       sentence-final period glued to a word is split off unless the word is an abbreviation).
       Each word is encoded alone by the model's tokenizer into its word-pieces; a word that
       gives no piece (a lone control character) is dropped.
    2. Word indices are split into groups whose members are at least ``min_distance`` (8) words
       apart: greedy over the sorted indices, repeated over the leftovers (about 8 groups).
    3. For each group, windows of at most ``window`` (450) pieces: a window starts ``margin`` (50)
       pieces before the first group word not yet done; the group words lying wholly within the
       first ``window - margin`` (400) pieces of the window are masked in it (**every** piece of
       each, with the tokenizer's mask token), and the window is fed as ``CLS window SEP``.
    4. One forward pass per (group, window) gives, for every layer (``hidden_states`` 0 = the
       embedding output, so ``num_layers + 1`` layers), the hidden state at the **first** piece of
       each masked word, and the CLS hidden state of the pass.

    Every word is masked exactly once, so a text's embeddings do not depend on any summary: a text
    is embedded once and reused by every summary, measure, layer pair and study. Passes are
    batched across windows and documents (sorted by length, padded) under
    ``torch.inference_mode()``.

    Deviation from the reference code, on purpose: the reference masks, in a summary, only the
    words that also occur in the text (unless ``include_all_tokens``), so a summary's embeddings
    depend on its text; here every word is masked, and the set M of Eq.1 is applied afterwards.

Cache layout
    ``Store("masked_embeddings")``: one ``.npz`` per (model fingerprint, precision, text, masking
    parameters, storage dtype, sumeval version) - see :meth:`MaskedEmbedder.key`. Arrays:

    ===============  ===========================  ===============================================
    ``emb``          (n_words, n_layers+1, H)     first-piece hidden state of each masked word
    ``cls``          (n_passes, n_layers+1, H)    CLS hidden state of each forward pass
    ``pass_of_word`` (n_words,) int32             the pass that masked each word (row of ``cls``)
    ``first_ids``    (n_words,) int32             id of each word's first piece (ESTIME's token)
    ``piece_ids``    (n_pieces,) int32            all pieces, word after word
    ``word_starts``  (n_words+1,) int64           word w has pieces ``word_starts[w]:word_starts[w+1]``
    ``spans``        (n_words, 2) int64           character span of each word in the NFKD text
    ``words``        (n_words,) str               the words
    ===============  ===========================  ===============================================

    Work is done in chunks of documents whose boundaries depend only on the ordered list of
    texts; every document of a chunk is written (atomically) when its chunk is done. An interrupted
    run recomputes only the chunks not cached, in the same company, so it yields identical arrays.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from sumeval.errors import InputError, ModelNotFoundError

__all__ = [
    "ModelSpec", "LoadedModel", "VocabularyMismatchError", "resolve_model", "load_model",
    "default_device", "model_fingerprint", "check_same_vocabulary", "raw_embedding_table",
    "split_words", "word_pieces", "group_separated", "plan_passes", "Pass", "MaskedEmbeddings",
    "MaskedEmbedder", "get_embedder", "DEFAULT_MODEL", "FAST_MODEL",
]

DEFAULT_MODEL = "all-mpnet-base-v2"
FAST_MODEL = "all-MiniLM-L6-v2"

_WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin", "tf_model.h5", "flax_model.msgpack")
_TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "merges.txt", "vocab.json", "spiece.model",
                    "sentencepiece.bpe.model", "tokenizer_config.json", "special_tokens_map.json")


class VocabularyMismatchError(InputError):
    """The contextual model and the raw-embedding model do not share a vocabulary."""


# --------------------------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ModelSpec:
    """Where a model lives and what identifies its numbers.

    ``fingerprint`` hashes the config, the tokenizer files and the weights (sha256 of the weight
    files, memoised by path, size and mtime), so a changed folder never reuses stale caches.
    """

    name: str            # as the user gave it
    path: Path           # local folder with config.json
    source: str          # "packaged", "local" or "hub-cache"
    hf_id: str | None = None
    revision: str | None = None

    @functools.cached_property
    def fingerprint(self) -> str:
        return model_fingerprint(self.path)

    def identity(self) -> dict[str, Any]:
        """What goes into cache keys and run manifests."""
        return {"name": self.name, "hf_id": self.hf_id, "revision": self.revision,
                "fingerprint": self.fingerprint}


def _hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"} or \
        os.environ.get("TRANSFORMERS_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def _not_found_help(name: str) -> str:
    from sumeval.models import PACKAGED

    return (
        "To provide it: download it where the hub is reachable (`hf download " + name + "` or "
        "`huggingface-cli download " + name + "`) and either copy the hub cache here (set "
        "$HF_HOME / $HF_HUB_CACHE to it) or pass the model folder (the one with config.json) as "
        f"the model; or use a packaged model: {', '.join(PACKAGED)} (`make setup`)."
    )


def resolve_model(name_or_path: str | os.PathLike[str] | ModelSpec) -> ModelSpec:
    """Find a model offline and say what it is.

    Parameters
    ----------
    name_or_path : a packaged name or alias (``"all-mpnet-base-v2"``, ``"mpnet"``,
        ``"all-MiniLM-L6-v2"``, ``"minilm"``), a local folder with ``config.json``, or a Hugging
        Face id (``"bert-large-uncased-whole-word-masking"``) already in the hub cache. When
        ``HF_HUB_OFFLINE`` is unset a missing hub id is downloaded if the hub can be reached.

    Raises
    ------
    ModelNotFoundError naming the model, where it was looked for and how to provide it.
    """
    if isinstance(name_or_path, ModelSpec):
        return name_or_path
    from sumeval.models import PACKAGED, canonical_name, packaged_path

    raw = str(name_or_path)
    name = raw.strip()
    if not name:
        raise InputError("model name is empty; give a packaged name (e.g. 'all-mpnet-base-v2'), "
                         "a local folder or a Hugging Face id")
    canon = canonical_name(name)
    if canon is not None:
        return ModelSpec(name=canon, path=packaged_path(canon), source="packaged",
                         hf_id=PACKAGED[canon].hf_id)
    path = Path(name).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ModelNotFoundError(
                f"model folder {str(path)!r} has no config.json; pass the folder that holds the "
                "model's config.json, tokenizer files and weights")
        return ModelSpec(name=name, path=path.resolve(), source="local")
    looks_like_path = name.startswith(("/", "./", "../", "~")) or os.sep + os.sep in name or \
        name.count("/") > 1 or (os.sep != "/" and os.sep in name)
    if looks_like_path:
        raise ModelNotFoundError(f"model folder {name!r} does not exist (resolved to {path.resolve()})")
    # a Hugging Face id: the local hub cache first
    try:
        from huggingface_hub import try_to_load_from_cache
        from huggingface_hub.constants import HF_HUB_CACHE
    except ImportError:  # pragma: no cover - transformers depends on it
        raise ModelNotFoundError(f"model {name!r}: huggingface_hub is not installed") from None
    cached = try_to_load_from_cache(name, "config.json")
    if isinstance(cached, str) and Path(cached).is_file():
        folder = Path(cached).parent
        return ModelSpec(name=name, path=folder, source="hub-cache", hf_id=name, revision=folder.name)
    if _hub_offline():
        raise ModelNotFoundError(
            f"model {name!r} is not a packaged model, not a local folder and not in the Hugging Face "
            f"cache ({HF_HUB_CACHE}), and HF_HUB_OFFLINE is set, so it cannot be downloaded. "
            + _not_found_help(name))
    try:
        from huggingface_hub import snapshot_download

        folder = Path(snapshot_download(name, etag_timeout=10))
    except Exception as exc:  # no network, unknown repo, gated repo...
        raise ModelNotFoundError(
            f"model {name!r} is not a packaged model, not a local folder and not in the Hugging Face "
            f"cache ({HF_HUB_CACHE}); downloading it failed ({type(exc).__name__}: "
            f"{str(exc).splitlines()[0] if str(exc) else ''}). On machines without access to the "
            "hub set HF_HUB_OFFLINE=1 to fail fast. " + _not_found_help(name)) from exc
    return ModelSpec(name=name, path=folder, source="hub-cache", hf_id=name, revision=folder.name)


def _file_sha256(path: Path) -> str:
    """sha256 of a file, memoised in the cache by (path, size, mtime)."""
    from sumeval.cache import Store, cache_key

    st = path.stat()
    store = Store("model_fingerprints")
    key = cache_key(include_version=False, path=str(path.resolve()), size=st.st_size,
                    mtime_ns=st.st_mtime_ns)
    got = store.get_json(key)
    if got is not None:
        return got["sha256"]
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    digest = h.hexdigest()
    try:
        store.put_json(key, {"path": str(path), "sha256": digest})
    except OSError:  # a read-only cache only costs a re-hash
        pass
    return digest


def model_fingerprint(folder: str | os.PathLike[str]) -> str:
    """sha256 over a model folder's config, tokenizer files and weight files (by content)."""
    folder = Path(folder)
    h = hashlib.sha256()
    for fname in ("config.json", *_TOKENIZER_FILES):
        p = folder / fname
        if p.is_file():
            h.update(fname.encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    weights = [folder / f for f in _WEIGHT_FILES if (folder / f).is_file()]
    weights += sorted(folder.glob("model-*.safetensors")) + sorted(folder.glob("pytorch_model-*.bin"))
    if not weights:
        raise ModelNotFoundError(f"model folder {str(folder)!r} has no weight file "
                                 f"(looked for {', '.join(_WEIGHT_FILES)})")
    for p in weights:
        h.update(p.name.encode() + b"\0" + _file_sha256(p).encode())
    return h.hexdigest()


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------
def default_device() -> str:
    """``"cuda"`` when a CUDA device is present, else ``"cpu"``."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class LoadedModel:
    """A model ready to run: ``model`` (eval mode, on ``device``) and its fast ``tokenizer``."""

    spec: ModelSpec
    model: Any
    tokenizer: Any
    device: str

    @property
    def n_layers(self) -> int:
        """Transformer layers; ``hidden_states`` has ``n_layers + 1`` entries."""
        return int(self.model.config.num_hidden_layers)

    @property
    def hidden_size(self) -> int:
        return int(self.model.config.hidden_size)


_LOADED: dict[tuple[str, str], LoadedModel] = {}
_LOAD_LOCK = threading.Lock()


def _quiet_transformers() -> None:
    import transformers
    from transformers.utils import logging as hf_logging

    transformers.logging.set_verbosity_error()
    hf_logging.disable_progress_bar()


def load_model(model: str | os.PathLike[str] | ModelSpec = DEFAULT_MODEL, *,
               device: str | None = None) -> LoadedModel:
    """Load ``model`` (see :func:`resolve_model`) with its fast tokenizer, once per process.

    ``device``: ``"cuda"``, ``"cpu"``, ``"cuda:1"`` ...; default :func:`default_device`. Weights stay
    in float32; reduced precision is a choice of the engine (autocast), recorded in its cache keys.
    """
    spec = resolve_model(model)
    device = device or default_device()
    key = (str(spec.path), device)
    with _LOAD_LOCK:
        if key in _LOADED:
            return _LOADED[key]
        import torch
        from transformers import AutoModel, AutoTokenizer

        _quiet_transformers()
        try:
            tokenizer = AutoTokenizer.from_pretrained(spec.path, local_files_only=True)
            net = AutoModel.from_pretrained(spec.path, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ModelNotFoundError(f"model {spec.name!r} at {spec.path}: could not be loaded "
                                     f"({type(exc).__name__}: {exc})") from exc
        if not getattr(tokenizer, "is_fast", False):
            raise InputError(f"model {spec.name!r}: a fast (Rust) tokenizer is needed; "
                             f"{type(tokenizer).__name__} is not one")
        net.eval()
        net.to(torch.device(device))
        loaded = LoadedModel(spec=spec, model=net, tokenizer=tokenizer, device=device)
        _LOADED[key] = loaded
        return loaded


def check_same_vocabulary(tokenizer_a: Any, tokenizer_b: Any, name_a: str = "contextual model",
                          name_b: str = "raw-embedding model") -> None:
    """Raise :class:`VocabularyMismatchError` unless both tokenizers map every token to the same id.

    ESTIME-soft indexes the raw model's embedding table with the contextual model's token ids, so
    the two must share a vocabulary (the paper: bert-large-uncased-whole-word-masking for contexts,
    bert-base-uncased for raw embeddings - the same 30522 tokens).
    """
    va, vb = tokenizer_a.get_vocab(), tokenizer_b.get_vocab()
    if va == vb:
        return
    only_a = sorted(set(va) - set(vb))
    only_b = sorted(set(vb) - set(va))
    moved = sorted(t for t in set(va) & set(vb) if va[t] != vb[t])
    raise VocabularyMismatchError(
        f"the {name_a} and the {name_b} do not share a vocabulary ({len(va)} vs {len(vb)} tokens; "
        f"{len(only_a)} only in the first, e.g. {only_a[:5]}; {len(only_b)} only in the second, e.g. "
        f"{only_b[:5]}; {len(moved)} with different ids, e.g. {moved[:5]}). ESTIME-soft looks up raw "
        "embeddings by the contextual model's token ids: choose a raw-embedding model of the same "
        "family (or leave it unset to use the contextual model's own input embeddings)")


@functools.lru_cache(maxsize=4)
def _raw_table_cached(path: str, fingerprint: str) -> np.ndarray:
    import torch
    from transformers import AutoModel

    _quiet_transformers()
    net = AutoModel.from_pretrained(path, local_files_only=True)
    with torch.inference_mode():
        table = net.get_input_embeddings().weight.detach().float().cpu().numpy().copy()
    del net
    table.setflags(write=False)
    return table


def raw_embedding_table(model: str | os.PathLike[str] | ModelSpec,
                        contextual: str | os.PathLike[str] | ModelSpec | None = None) -> np.ndarray:
    """The input word-embedding table (vocab, H_raw) float32 of ``model`` (ESTIME-soft's phi).

    When ``contextual`` is given, first check that both models share a vocabulary
    (:func:`check_same_vocabulary`; raises :class:`VocabularyMismatchError` if not).
    """
    spec = resolve_model(model)
    if contextual is not None:
        cspec = resolve_model(contextual)
        if cspec.path != spec.path:
            from transformers import AutoTokenizer

            _quiet_transformers()
            ta = AutoTokenizer.from_pretrained(cspec.path, local_files_only=True)
            tb = AutoTokenizer.from_pretrained(spec.path, local_files_only=True)
            check_same_vocabulary(ta, tb, f"contextual model {cspec.name!r}",
                                  f"raw-embedding model {spec.name!r}")
    for (path, _device), loaded in _LOADED.items():  # reuse a model already in memory
        if path == str(spec.path):
            import torch

            with torch.inference_mode():
                table = loaded.model.get_input_embeddings().weight.detach().float().cpu().numpy().copy()
            table.setflags(write=False)
            return table
    return _raw_table_cached(str(spec.path), spec.fingerprint)


# --------------------------------------------------------------------------------------------
# Words and word-pieces
# --------------------------------------------------------------------------------------------
_ABBREVIATIONS = frozenset("""
mr mrs ms dr prof st jr sr inc ltd co corp vs etc no gen gov sen rep lt col sgt capt cmdr mt ft
jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun est approx dept univ
""".split())
_INITIALS = re.compile(r"^(?:[^\W\d_]\.)+$")
_FALLBACK_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def split_words(text: str, method: str = "treebank") -> list[tuple[int, int]]:
    """Character spans ``[(start, end), ...]`` of the words of ``text``.

    ``method``: ``"treebank"`` - NLTK's Penn-Treebank word tokenizer (the reference's
    ``word_tokenize`` without punkt sentence splitting; a period glued to the end of a word is split
    off unless the word looks like an abbreviation: ``Mr.``, ``U.S.``, ``e.g.``); ``"whitespace"`` -
    split on white space only; ``"punct"`` - runs of word characters and single punctuation marks.
    """
    if not text:
        return []
    if method == "whitespace":
        return [m.span() for m in re.finditer(r"\S+", text)]
    if method == "punct":
        return [m.span() for m in _FALLBACK_WORD.finditer(text)]
    if method != "treebank":
        raise InputError(f"word_splitter {method!r} is unknown; use 'treebank', 'punct' or 'whitespace'")
    from nltk.tokenize import NLTKWordTokenizer

    try:
        spans = list(NLTKWordTokenizer().span_tokenize(text))
    except (ValueError, LookupError):  # alignment failure on odd quoting: fall back
        return [m.span() for m in _FALLBACK_WORD.finditer(text)]
    out: list[tuple[int, int]] = []
    for s, e in spans:
        w = text[s:e]
        if len(w) > 1 and w.endswith(".") and not w.endswith("..") and not _INITIALS.match(w) \
                and w[:-1].lower() not in _ABBREVIATIONS:
            out.append((s, e - 1))
            out.append((e - 1, e))
        else:
            out.append((s, e))
    return out


def _space_sensitive(tokenizer: Any) -> bool:
    """True for tokenizers (byte-level BPE, sentencepiece) whose pieces depend on a leading space."""
    try:
        return tokenizer.tokenize(" a") != tokenizer.tokenize("a")
    except Exception:  # pragma: no cover
        return False


def word_pieces(text: str, tokenizer: Any, *, word_splitter: str = "treebank",
                normalize: str | None = "NFKD") -> dict[str, Any]:
    """Words of ``text`` and their word-pieces under ``tokenizer``.

    Returns a dict with ``words`` (list[str]), ``spans`` (n, 2) int64 (in the normalised text),
    ``piece_ids`` (P,) int32, ``word_starts`` (n+1,) int64 and ``first_ids`` (n,) int32. Each word
    is encoded alone (no special tokens), as the reference does; words without pieces are dropped.
    """
    if normalize:
        text = unicodedata.normalize(normalize, text)
    spans = split_words(text, word_splitter)
    words = [text[s:e] for s, e in spans]
    if words:
        if _space_sensitive(tokenizer):
            enc_in = [(" " + w if s > 0 and text[s - 1].isspace() else w) for w, (s, _) in zip(words, spans)]
        else:
            enc_in = words
        ids = tokenizer(enc_in, add_special_tokens=False)["input_ids"]
    else:
        ids = []
    keep = [i for i, p in enumerate(ids) if len(p) > 0]
    words = [words[i] for i in keep]
    spans_arr = np.array([spans[i] for i in keep], dtype=np.int64).reshape(-1, 2)
    lens = np.array([len(ids[i]) for i in keep], dtype=np.int64)
    starts = np.zeros(len(keep) + 1, dtype=np.int64)
    np.cumsum(lens, out=starts[1:])
    flat = np.array([t for i in keep for t in ids[i]], dtype=np.int32)
    first = flat[starts[:-1]] if len(keep) else np.zeros(0, dtype=np.int32)
    return {"words": words, "spans": spans_arr, "piece_ids": flat, "word_starts": starts,
            "first_ids": first.astype(np.int32)}


def group_separated(indices: Sequence[int], min_distance: int = 8) -> list[list[int]]:
    """Split sorted word indices into groups whose members are >= ``min_distance`` apart.

    Greedy, as the reference: take the first index, then each next index at least
    ``min_distance`` after the last one taken; repeat over the leftovers until none is left.
    ``group_separated(range(10), 4) == [[0, 4, 8], [1, 5, 9], [2, 6], [3, 7]]``.
    """
    if min_distance < 1:
        raise InputError(f"min_distance must be >= 1, got {min_distance}")
    remain = list(indices)
    groups: list[list[int]] = []
    while remain:
        taken, left, prev = [], [], None
        for ix in remain:
            if prev is None or ix - prev >= min_distance:
                taken.append(ix)
                prev = ix
            else:
                left.append(ix)
        groups.append(taken)
        remain = left
    return groups


@dataclass(frozen=True)
class Pass:
    """One forward pass: pieces ``[begin, end)`` of the text, with ``words`` masked.

    The input is ``CLS pieces[begin:end] SEP`` with every piece of every word in ``words`` replaced
    by the mask token; word w's embedding is read at position ``1 + word_starts[w] - begin``.
    """

    begin: int
    end: int
    words: tuple[int, ...]


def plan_passes(word_starts: np.ndarray, *, window: int = 450, margin: int = 50,
                min_distance: int = 8) -> list[Pass]:
    """The forward passes that mask every word exactly once (SPEC.md §1).

    ``word_starts`` (n_words+1,): piece offsets of the words. For each group of
    :func:`group_separated`, windows start ``margin`` pieces before the first word still to do
    (or at 0); the words lying wholly in the first ``window - margin`` pieces are masked there.
    A word too long to fit is masked alone (its pieces beyond the window are cut).
    """
    if window < 2 or margin < 0 or window - margin < 1:
        raise InputError(f"bad window {window} / margin {margin}: need window > margin >= 0")
    n_words = len(word_starts) - 1
    n_pieces = int(word_starts[-1]) if n_words >= 0 else 0
    allowed = window - margin
    passes: list[Pass] = []
    for group in group_separated(range(n_words), min_distance):
        todo = list(group)
        while todo:
            first_tok = int(word_starts[todo[0]])
            begin = max(0, first_tok - margin)
            end = min(n_pieces, begin + window)
            last_allowed = begin + allowed  # inclusive, as the reference
            taken = []
            for w in todo:
                if int(word_starts[w]) > last_allowed:
                    break
                if int(word_starts[w + 1]) - 1 <= last_allowed:
                    taken.append(w)
                else:
                    break
            if not taken:  # a single word longer than the maskable region
                taken = [todo[0]]
            passes.append(Pass(begin, end, tuple(taken)))
            todo = todo[len(taken):]
    return passes


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------
@dataclass
class MaskedEmbeddings:
    """Masked-token embeddings of one text, every layer (see the module doc for the arrays).

    ``emb`` is (n_words, n_layers+1, hidden) in the stored dtype; :meth:`layer` gives one layer as
    float32 (n_words, hidden).
    """

    words: list[str]
    spans: np.ndarray
    piece_ids: np.ndarray
    word_starts: np.ndarray
    first_ids: np.ndarray
    emb: np.ndarray
    cls: np.ndarray
    pass_of_word: np.ndarray
    model: dict[str, Any] = field(default_factory=dict)

    @property
    def n_words(self) -> int:
        return len(self.words)

    @property
    def n_layers(self) -> int:
        """Number of selectable layers (``num_hidden_layers + 1``)."""
        return int(self.emb.shape[1])

    def layer(self, k: int) -> np.ndarray:
        """Embeddings of layer ``k`` (0 = embedding output), float32 (n_words, hidden)."""
        if not -self.n_layers <= k < self.n_layers:
            raise InputError(f"layer {k} is out of range: this model has layers 0..{self.n_layers - 1}")
        return np.asarray(self.emb[:, k, :], dtype=np.float32)

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"emb": self.emb, "cls": self.cls, "pass_of_word": self.pass_of_word,
                "first_ids": self.first_ids, "piece_ids": self.piece_ids,
                "word_starts": self.word_starts, "spans": self.spans,
                "words": np.array(self.words, dtype=str) if self.words else np.zeros(0, dtype="<U1")}

    @classmethod
    def from_arrays(cls, a: dict[str, np.ndarray], model: dict[str, Any] | None = None) -> "MaskedEmbeddings":
        return cls(words=[str(w) for w in a["words"].tolist()], spans=a["spans"],
                   piece_ids=a["piece_ids"], word_starts=a["word_starts"], first_ids=a["first_ids"],
                   emb=a["emb"], cls=a["cls"], pass_of_word=a["pass_of_word"], model=model or {})


# --------------------------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------------------------
_PRECISIONS = {"float32": None, "bfloat16": "bfloat16", "float16": "float16"}
#: short names accepted for ``precision`` (normalised before they reach cache keys)
PRECISION_ALIASES = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}
_REDUCED: dict[tuple[str, str, str], Any] = {}


def _reduced_precision_model(loaded: LoadedModel, dtype_name: str) -> Any:
    """A copy of ``loaded.model`` whose ``nn.Linear`` weights and biases are already ``dtype``.

    Run under ``torch.autocast`` with the same dtype it gives the same numbers as autocast over
    the float32 model (autocast casts every Linear's weight to that dtype anyway; LayerNorm,
    softmax, the residual stream and the embeddings stay float32), without recasting ~85M
    weights at every forward pass (a quarter of the bf16 time on CPU). One copy per
    (model, device, dtype) in this process; the shared float32 model is left untouched.
    """
    key = (str(loaded.spec.path), loaded.device, dtype_name)
    with _LOAD_LOCK:
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
    """Masked-token embeddings of every layer for many texts, cached on disk.

    Parameters
    ----------
    model : packaged name, local folder or Hugging Face id (:func:`resolve_model`)
    device : default CUDA when present, else CPU
    precision : ``"float32"`` (default) or ``"bfloat16"`` / ``"float16"`` (``"fp32"``, ``"bf16"``,
        ``"fp16"`` accepted): reduced precision runs the Linear layers in that dtype (weights cast
        once, autocast for the rest; see :func:`_reduced_precision_model`); recorded in keys
    window, margin, min_distance : the masking scheme (450, 50, 8; maskable end = window - margin)
    word_splitter, normalize : how words are found (``"treebank"``, ``"NFKD"``)
    store_dtype : ``"float16"`` (default, half the disk) or ``"float32"``
    batch_tokens : at most this many padded positions per forward pass (memory bound); a batch
        also holds only sequences within 10% (+8) of its shortest one's length, to bound padding
    batch_size : at most this many sequences per forward pass
    chunk_passes : documents are processed in chunks of about this many passes; each chunk is
        written to the cache when done (the unit of resumption)
    cache : True (the default store), False (no disk cache), or a :class:`sumeval.cache.Store`
    memory_items : how many recent results to keep in memory
    """

    def __init__(self, model: str | os.PathLike[str] | ModelSpec = DEFAULT_MODEL, *,
                 device: str | None = None, precision: str = "float32", window: int = 450,
                 margin: int = 50, min_distance: int = 8, word_splitter: str = "treebank",
                 normalize: str | None = "NFKD", store_dtype: str = "float16",
                 batch_tokens: int = 8192, batch_size: int = 32, chunk_passes: int = 128,
                 cache: Any = True, memory_items: int = 64):
        precision = PRECISION_ALIASES.get(precision, precision)
        if precision not in _PRECISIONS:
            raise InputError(f"precision {precision!r} is unknown; use one of {', '.join(_PRECISIONS)}")
        if store_dtype not in ("float16", "float32"):
            raise InputError(f"store_dtype {store_dtype!r} is unknown; use 'float16' or 'float32'")
        if batch_tokens < 1 or batch_size < 1 or chunk_passes < 1:
            raise InputError("batch_tokens, batch_size and chunk_passes must be >= 1")
        plan_passes(np.zeros(1, dtype=np.int64), window=window, margin=margin, min_distance=min_distance)
        split_words("a", word_splitter)
        self.spec = resolve_model(model)
        self.device = device or default_device()
        self.precision = precision
        self.window, self.margin, self.min_distance = int(window), int(margin), int(min_distance)
        self.word_splitter, self.normalize = word_splitter, normalize
        self.store_dtype = store_dtype
        self.batch_tokens, self.batch_size, self.chunk_passes = int(batch_tokens), int(batch_size), int(chunk_passes)
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
        self.stats = {"passes": 0, "tokens": 0, "padded_tokens": 0, "texts_computed": 0,
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

    def _compute(self, todo: list[tuple[str, str]], *, progress: bool = False):
        loaded = self.loaded
        n_lay, hid = loaded.n_layers + 1, loaded.hidden_size
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(todo), desc="masked embeddings", unit="text")
        for chunk in self._chunks(todo):
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
                if bar is not None:
                    bar.update(1)
                yield k, res
        if bar is not None:
            bar.close()

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
        autocast_dtype = _PRECISIONS[self.precision]
        net = loaded.model if autocast_dtype is None else _reduced_precision_model(loaded, autocast_dtype)
        with torch.inference_mode():
            for b in batches:
                L = max(len(seqs[i][0]) for i in b)
                ids = torch.full((len(b), L), pad, dtype=torch.long)
                att = torch.zeros((len(b), L), dtype=torch.long)
                rows, cols = [], []
                for r, i in enumerate(b):
                    s = seqs[i][0]
                    ids[r, :len(s)] = torch.tensor(s, dtype=torch.long)
                    att[r, :len(s)] = 1
                    rows += [r] * len(seqs[i][1])
                    cols += seqs[i][1]
                ids, att = ids.to(dev), att.to(dev)
                if autocast_dtype is None:
                    out = net(input_ids=ids, attention_mask=att, output_hidden_states=True)
                else:
                    with torch.autocast(device_type=dev.type, dtype=getattr(torch, autocast_dtype)):
                        out = net(input_ids=ids, attention_mask=att, output_hidden_states=True)
                hs = out.hidden_states
                r_t = torch.tensor(rows, dtype=torch.long, device=dev)
                c_t = torch.tensor(cols, dtype=torch.long, device=dev)
                sel = torch.stack([h[r_t, c_t] for h in hs], dim=1).float().cpu().numpy()
                cls_all = torch.stack([h[:, 0] for h in hs], dim=1).float().cpu().numpy()
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
    """One shared :class:`MaskedEmbedder` per (model, options) in this process (scorers use it,
    so a text is embedded, or read from the cache, once for every measure)."""
    spec = resolve_model(model)
    key = json.dumps({"path": str(spec.path), **{k: str(v) for k, v in sorted(options.items())}})
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = MaskedEmbedder(spec, **options)
    return _EMBEDDERS[key]
