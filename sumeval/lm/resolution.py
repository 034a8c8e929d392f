"""Model resolution and loading: which model a name means, what identifies its numbers, and the
loaded network with its tokenizer.

Resolution (:func:`resolve_model`)
    A packaged name or alias (``all-mpnet-base-v2`` / ``mpnet``, the default of the paper-000
    studies; ``all-MiniLM-L6-v2`` / ``minilm``, fast, for smoke runs and tests), a local folder
    holding ``config.json``, or a Hugging Face id found in the local hub cache. Nothing is
    downloaded unless the hub is reachable and ``HF_HUB_OFFLINE`` is unset; otherwise
    :class:`~sumeval.errors.ModelNotFoundError` says which model and how to provide it.

Loading (:func:`load_model`)
    ``AutoModel`` and its fast tokenizer, in eval mode, on CUDA when present (else CPU). Loaded
    models are kept per (folder, device) in this process, so scorers share one copy.

Raw embeddings (:func:`raw_embedding_table`)
    The input word-embedding table that gives ESTIME-soft's phi (paper 000, Sec.2, Eq.2).
"""
from __future__ import annotations

import functools
import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sumeval.errors import InputError, ModelNotFoundError
from sumeval.hashing import remembered_sha256
from sumeval.lm.model_files import load_failure

__all__ = [
    "DEFAULT_MODEL", "FAST_MODEL", "ModelSpec", "LoadedModel", "VocabularyMismatchError",
    "resolve_model", "model_fingerprint", "default_device", "load_model", "check_same_vocabulary",
    "raw_embedding_table", "LOAD_LOCK",
]

#: the default contextual model of the paper-000 studies and scorers (a packaged model)
DEFAULT_MODEL = "all-mpnet-base-v2"
#: the fast packaged model, for smoke runs and tests (its numbers are not the method's)
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

    Args:
        name_or_path: a packaged name or alias (``"all-mpnet-base-v2"``, ``"mpnet"``,
            ``"all-MiniLM-L6-v2"``, ``"minilm"``), a local folder with ``config.json``, or a
            Hugging Face id (``"bert-large-uncased-whole-word-masking"``) already in the hub
            cache. When ``HF_HUB_OFFLINE`` is unset a missing hub id is downloaded if the hub
            can be reached. A :class:`ModelSpec` is returned as it is.

    Returns:
        The model's :class:`ModelSpec`.

    Raises:
        ModelNotFoundError: naming the model, where it was looked for and how to provide it.
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


def model_fingerprint(folder: str | os.PathLike[str]) -> str:
    """sha256 over a model folder's config, tokenizer files and weight files (by content).

    Args:
        folder: the model folder (the one holding ``config.json``).

    Returns:
        64 hex digits; weight files are hashed once per (path, size, mtime)
        (:func:`sumeval.hashing.remembered_sha256`).

    Raises:
        ModelNotFoundError: when the folder holds no weight file.
    """
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
        h.update(p.name.encode() + b"\0" + remembered_sha256(p).encode())
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
LOAD_LOCK = threading.Lock()  # held while a model is loaded or converted (one at a time per process)


def _quiet_transformers() -> None:
    import transformers
    from transformers.utils import logging as hf_logging

    transformers.logging.set_verbosity_error()
    hf_logging.disable_progress_bar()


def load_model(model: str | os.PathLike[str] | ModelSpec = DEFAULT_MODEL, *,
               device: str | None = None) -> LoadedModel:
    """Load ``model`` (see :func:`resolve_model`) with its fast tokenizer, once per process.

    Args:
        model: packaged name, local folder, Hugging Face id or :class:`ModelSpec`.
        device: ``"cuda"``, ``"cpu"``, ``"cuda:1"`` ...; default :func:`default_device`.

    Returns:
        The shared :class:`LoadedModel` of (model folder, device). Weights stay in float32;
        reduced precision is a choice of the engine (autocast), recorded in its cache keys.

    Raises:
        ModelNotFoundError: the folder cannot be loaded; a
            :class:`~sumeval.lm.model_files.ModelFileError` naming the file when a weights file is
            damaged or incomplete, or a pickle one was refused as unsafe
            (:func:`~sumeval.lm.model_files.load_failure`).
        InputError: the model has no fast tokenizer.
    """
    spec = resolve_model(model)
    device = device or default_device()
    key = (str(spec.path), device)
    with LOAD_LOCK:
        if key in _LOADED:
            return _LOADED[key]
        import torch
        from transformers import AutoModel, AutoTokenizer

        _quiet_transformers()
        try:
            tokenizer = AutoTokenizer.from_pretrained(spec.path, local_files_only=True)
            net = AutoModel.from_pretrained(spec.path, local_files_only=True)
        except Exception as exc:  # noqa: BLE001 - a folder that does not load: say which file and why
            raise load_failure(spec, exc) from exc
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

    ESTIME-soft (paper 000, Sec.2, Eq.2) indexes the raw model's embedding table with the
    contextual model's token ids, so the two must share a vocabulary (the paper:
    bert-large-uncased-whole-word-masking for contexts, bert-base-uncased for raw embeddings -
    the same 30522 tokens).

    Args:
        tokenizer_a, tokenizer_b: the two tokenizers (anything with ``get_vocab()``).
        name_a, name_b: how the message names them.

    Raises:
        VocabularyMismatchError: with counts and examples of the tokens that differ.
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
    try:
        net = AutoModel.from_pretrained(path, local_files_only=True)
    except Exception as exc:  # noqa: BLE001 - as in load_model
        raise load_failure(resolve_model(path), exc) from exc
    with torch.inference_mode():
        table = net.get_input_embeddings().weight.detach().float().cpu().numpy().copy()
    del net
    table.setflags(write=False)
    return table


def raw_embedding_table(model: str | os.PathLike[str] | ModelSpec,
                        contextual: str | os.PathLike[str] | ModelSpec | None = None) -> np.ndarray:
    """The input word-embedding table of ``model``: ESTIME-soft's phi (paper 000, Sec.2, Eq.2).

    Args:
        model: the raw-embedding model.
        contextual: when given, first check that it shares ``model``'s vocabulary
            (:func:`check_same_vocabulary`).

    Returns:
        (vocab, H_raw) float32, read-only.

    Raises:
        VocabularyMismatchError: the two models' vocabularies differ.
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

