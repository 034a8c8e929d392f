"""The precisions the masked-embedding engine runs in, and whether this machine runs them fast.

``float32``, ``bfloat16`` or ``float16``; the short names ``fp32``, ``bf16`` and ``fp16`` are
accepted everywhere a precision is (:func:`normalize_precision`). Reduced precision runs the Linear
layers in that dtype (:mod:`sumeval.lm.engine`). The default everywhere is ``auto``
(:func:`resolve_precision`): float32 on a CPU, bfloat16 on CUDA, resolved before any work so that
the cache keys, signatures and manifests record the precision that ran.

On a CPU without native instructions for the reduced dtype (AVX2 machines: no AVX512-BF16, no
AMX) PyTorch emulates it, and the engine runs several times *slower* than in float32 (9x for
all-mpnet-base-v2 in BENCHMARKS.md). :func:`slow_precision_note` says so, with the fix, where a
run asks for it; the numbers of a run are never changed behind its back.
"""
from __future__ import annotations

from sumeval.errors import InputError

__all__ = ["PRECISIONS", "PRECISION_ALIASES", "AUTOCAST_DTYPE", "AUTO", "normalize_precision", "resolve_precision",
           "native_on_cpu", "slow_precision_note", "SlowPrecisionWarning"]

#: engine precisions -> the autocast dtype (None: plain float32)
AUTOCAST_DTYPE = {"float32": None, "bfloat16": "bfloat16", "float16": "float16"}
#: the precisions the engine runs in
PRECISIONS = tuple(AUTOCAST_DTYPE)
#: short names accepted for ``precision`` (normalised before they reach cache keys)
PRECISION_ALIASES = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}

#: the default precision: float32 on a CPU, bfloat16 on CUDA (:func:`resolve_precision`)
AUTO = "auto"

#: /proc/cpuinfo flags that give a dtype native instructions (used when PyTorch cannot say)
_NATIVE_FLAGS = {"bfloat16": ("avx512_bf16", "amx_bf16"), "float16": ("avx512_fp16", "amx_fp16")}


class SlowPrecisionWarning(UserWarning):
    """A reduced precision was asked for on a CPU that emulates it (slower than float32)."""


def normalize_precision(precision: str) -> str:
    """The engine's name of ``precision``: ``"bf16" -> "bfloat16"``, ``"float32" -> "float32"``.

    Args:
        precision: one of :data:`PRECISIONS` or a short name of :data:`PRECISION_ALIASES`.

    Returns:
        One of :data:`PRECISIONS`.

    Raises:
        InputError: an unknown name, naming it and the accepted ones.

    >>> normalize_precision("bf16")
    'bfloat16'
    """
    name = PRECISION_ALIASES.get(precision, precision)
    if name not in AUTOCAST_DTYPE:
        raise InputError(f"precision {precision!r} is unknown; use {AUTO} (float32 on a CPU, bfloat16 on CUDA) or "
                         f"one of {', '.join(PRECISIONS)} (or {', '.join(PRECISION_ALIASES)})")
    return name


def resolve_precision(precision: str = AUTO, device: str | None = None) -> str:
    """The engine's name of the precision that runs: ``auto`` resolved for ``device``, any other
    name as :func:`normalize_precision` gives it.

    ``auto`` is float32 on a CPU (where bfloat16 is emulated on most machines, several times slower,
    and costs 1.5x even where it is native, BENCHMARKS.md) and bfloat16 on CUDA; other devices
    (``mps``) get float32. ``device`` None means the engine's default device.

    >>> resolve_precision("auto", "cpu"), resolve_precision("auto", "cuda:0"), resolve_precision("bf16", "cpu")
    ('float32', 'bfloat16', 'bfloat16')
    """
    if precision != AUTO:
        return normalize_precision(precision)
    if device is None:
        from sumeval.lm.resolution import default_device

        device = default_device()
    return "bfloat16" if str(device).startswith("cuda") else "float32"


def native_on_cpu(precision: str, cpu_flags: str | None = None) -> bool:
    """Whether this CPU has instructions for ``precision`` (float32 always has).

    Asks PyTorch's oneDNN (``torch.ops.mkldnn._is_mkldnn_bf16_supported`` / ``..._fp16_...``);
    where that is not available, or when ``cpu_flags`` (the ``flags`` line of /proc/cpuinfo) is
    given, looks for the flags of :data:`_NATIVE_FLAGS`.

    >>> native_on_cpu("fp32")
    True
    >>> native_on_cpu("bf16", cpu_flags="fpu sse2 avx avx2 fma")
    False
    >>> native_on_cpu("bf16", cpu_flags="avx2 avx512f avx512_bf16")
    True
    """
    name = normalize_precision(precision)
    if name == "float32":
        return True
    if cpu_flags is None:
        try:
            import torch

            probe = {"bfloat16": "_is_mkldnn_bf16_supported", "float16": "_is_mkldnn_fp16_supported"}[name]
            return bool(getattr(torch.ops.mkldnn, probe)())
        except (ImportError, AttributeError, RuntimeError):
            cpu_flags = _cpuinfo_flags()
    flags = set(cpu_flags.split())
    return any(f in flags for f in _NATIVE_FLAGS[name])


def _cpuinfo_flags() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return line.partition(":")[2]
    except OSError:
        pass
    return ""


def slow_precision_note(precision: str, device: str | None = None, *, cpu_flags: str | None = None) -> str | None:
    """A one-line note when ``precision`` on ``device`` is emulated here, else None.

    Only a CPU device can be affected (None means the engine's default device). The note names
    the precision, the reason and the fix (``-p precision=fp32``, whose numbers differ slightly:
    a different run, recorded as such in its cache keys and manifest).

    >>> slow_precision_note("bf16", "cpu", cpu_flags="avx avx2") is not None
    True
    >>> slow_precision_note("bf16", "cuda", cpu_flags="avx avx2") is None
    True
    >>> slow_precision_note("fp32", "cpu") is None
    True
    """
    name = resolve_precision(precision, device)
    if name == "float32":
        return None
    if device is None:
        from sumeval.lm.resolution import default_device

        device = default_device()
    if not str(device).startswith("cpu") or native_on_cpu(name, cpu_flags):
        return None
    return (f"precision {name} on this CPU: it has no native {name} instructions, so PyTorch emulates "
            f"them and the masked-embedding engine runs several times slower than in float32 (bfloat16: "
            f"9x for all-mpnet-base-v2 on an AVX2 machine, BENCHMARKS.md). The numbers are those of {name}; "
            f"for speed pass precision='float32' (-p precision=fp32), a different run whose numbers differ "
            f"slightly (BENCHMARKS.md compares bfloat16 with float32).")
