"""BERTScore (Zhang et al. 2020, ICLR, "BERTScore: Evaluating Text Generation with BERT", Sec. 3)
through the ``bert-score`` package, with sumeval's packaged encoders.

Each token of the summary (candidate) is matched to its most similar token of the reference by
the cosine of their contextual embeddings at one layer of the encoder (greedy matching, Eq. 1):

    R = 1/|x| * sum over reference tokens x_i of  max over candidate tokens y_j of  cos(x_i, y_j)
    P = 1/|y| * sum over candidate tokens y_j of  max over reference tokens x_i of  cos(x_i, y_j)
    F = 2 P R / (P + R)

The numbers are bert-score's own (``bert_score.BERTScorer``): its tokenization (the model's
tokenizer, with the special tokens, truncated to the model's maximum length), its masking (the
CLS and SEP tokens take part in the matching but have weight 0 in the averages) and its
multi-reference rule. This module only chooses the model and the layer, loads them offline and
records them in the signature.

Choices
-------
* **Model**: a packaged encoder, resolved offline by :func:`sumeval.lm.resolve_model` (default
  ``all-mpnet-base-v2``; ``all-MiniLM-L6-v2`` for fast runs), or any local model folder. Its
  folder is given to bert-score as ``model_type``, so nothing is downloaded.
* **Layer** (``layer``, ``--layer``): bert-score uses the hidden state after ``layer``
  transformer layers (its ``num_layers``). By default, for ``all-mpnet-base-v2`` **8**: the
  layer bert-score recommends for ``microsoft/mpnet-base``, the model all-mpnet-base-v2 was
  fine-tuned from (bert-score tuned its layers on WMT16 to-English system-level correlations,
  so the choice is not fitted to any summarization data); for ``all-MiniLM-L6-v2`` **4**: the
  same relative depth (2/3 of the layers), as bert-score lists no MiniLM-L6 model. For another
  model, bert-score's recommended layer when it lists the model's Hugging Face id, else
  ``layer`` must be given.
* **Several references**: bert-score scores the summary against each reference and keeps, for
  each of P, R and F separately, the best (maximum) over the references - so P, R and F may come
  from different references (``multi_ref=max`` in the signature).
* **idf weighting** is off: bert-score's ``idf=True`` derives its weights from the references of
  one call, which a scorer that sees batches cannot fix reproducibly; ask for ``idf=True`` and
  an error says so.
* **Baseline rescaling** is off by default (it is a linear map, so correlations do not change);
  ``rescale_with_baseline=True`` needs ``baseline_path``, a bert-score baseline TSV for the
  model (bert-score ships them only for its own model names).

The model is loaded once per scorer, on first use.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from sumeval.errors import InputError
from sumeval.metrics.base import Batch, Scorer

__all__ = ["BertScoreScorer", "DEFAULT_BERTSCORE_LAYERS", "default_bertscore_layer"]

#: default layer of the packaged encoders (see the module docstring)
DEFAULT_BERTSCORE_LAYERS: dict[str, int] = {"all-mpnet-base-v2": 8, "all-MiniLM-L6-v2": 4}


def default_bertscore_layer(spec) -> int:
    """The default layer of the resolved model ``spec`` (a :class:`sumeval.lm.ModelSpec`)."""
    if spec.name in DEFAULT_BERTSCORE_LAYERS:
        return DEFAULT_BERTSCORE_LAYERS[spec.name]
    from bert_score.utils import model2layers

    for key in (spec.hf_id, spec.name):
        if key and key in model2layers:
            return int(model2layers[key])
    raise InputError(f"BERTScore: no default layer for model {spec.name!r} (bert-score lists no "
                     "recommended layer for it); pass layer=N (--layer N)")


def _n_layers(spec) -> int:
    config = json.loads((spec.path / "config.json").read_text(encoding="utf-8"))
    for key in ("num_hidden_layers", "n_layers", "num_layers"):
        if key in config:
            return int(config[key])
    raise InputError(f"BERTScore: {spec.path / 'config.json'} does not say how many layers the "
                     "model has")


class BertScoreScorer(Scorer):
    """BERTScore precision, recall and F of each summary against its references.

    Args:
        model: a packaged model name or alias, a local folder, or a Hugging Face id in the local cache
        layer: hidden layer used (1..number of layers; 0 = the embedding layer); default
            :func:`default_bertscore_layer`
        idf: must be False (see the module docstring)
        rescale_with_baseline: rescale with the baseline TSV ``baseline_path`` (default False)
        baseline_path: a bert-score baseline file (``LAYER,P,R,F`` rows) for the model
        batch_size: texts per forward pass
        device: ``"cpu"``, ``"cuda"`` ...; default :func:`sumeval.lm.default_device`
        name: measure name (default ``"bertscore"``)

    Columns: ``{name}-p``, ``{name}-r``, ``{name}-f``.
    """

    needs = ("references",)
    higher_is_better = True

    def __init__(self, model: str = "all-mpnet-base-v2", layer: int | None = None, idf: bool = False,
                 rescale_with_baseline: bool = False, baseline_path: str | None = None,
                 batch_size: int = 64, device: str | None = None, name: str | None = None):
        from sumeval.lm import resolve_model

        if idf:
            raise InputError("BERTScore idf=True is not offered: bert-score takes its idf weights from "
                             "the references of one call, which a batched scorer cannot keep fixed; "
                             "use idf=False, or bert_score.score(..., idf=True) directly")
        if rescale_with_baseline and not baseline_path:
            raise InputError("BERTScore rescale_with_baseline=True needs baseline_path, a bert-score "
                             "baseline TSV for the model (bert-score ships them only for its own "
                             "model names)")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise InputError(f"BERTScore batch_size must be a positive integer, got {batch_size!r}")
        self.spec = resolve_model(model)
        n_layers = _n_layers(self.spec)
        if layer is None:
            layer = default_bertscore_layer(self.spec)
        if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer <= n_layers:
            raise InputError(f"BERTScore layer {layer!r} is out of range for {self.spec.name} "
                             f"({n_layers} layers): give 0..{n_layers}")
        self.layer = layer
        self.rescale_with_baseline = bool(rescale_with_baseline)
        self.baseline_path = str(baseline_path) if baseline_path else None
        self.batch_size = batch_size
        self.device = device
        self.name = name or "bertscore"
        self.description = f"BERTScore P/R/F ({self.spec.name}, layer {layer}; max over references)"
        self._scorer = None

    def columns(self) -> list[str]:
        return [f"{self.name}-p", f"{self.name}-r", f"{self.name}-f"]

    def options(self) -> dict[str, object]:
        opts: dict[str, object] = {"model": self.spec.name, "model_sha": self.spec.fingerprint[:12],
                                   "layer": self.layer, "idf": False, "multi_ref": "max",
                                   "baseline": "none"}
        if self.rescale_with_baseline:
            from sumeval.hashing import sha256_file

            opts["baseline"] = sha256_file(self.baseline_path)[:12]
        return opts

    def versions(self) -> dict[str, str]:
        from importlib.metadata import version

        import torch
        import transformers

        return {"bert-score": version("bert-score"), "transformers": transformers.__version__,
                "torch": torch.__version__.split("+")[0]}

    def _bert_scorer(self):
        """bert-score's scorer, built once (the model is loaded here)."""
        if self._scorer is None:
            from transformers.utils import logging as hf_logging

            from sumeval.lm import default_device

            hf_logging.set_verbosity_error()
            hf_logging.disable_progress_bar()
            from bert_score import BERTScorer

            self._scorer = BERTScorer(
                model_type=str(self.spec.path), num_layers=self.layer, idf=False,
                batch_size=self.batch_size, device=self.device or default_device(), lang="en",
                rescale_with_baseline=self.rescale_with_baseline, baseline_path=self.baseline_path)
        return self._scorer

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        scorer = self._bert_scorer()
        refs = [list(r) for r in batch.references]
        p, r, f = scorer.score(list(batch.summaries), refs, batch_size=self.batch_size)
        return {f"{self.name}-p": p.numpy().astype(float), f"{self.name}-r": r.numpy().astype(float),
                f"{self.name}-f": f.numpy().astype(float)}

    def __getstate__(self) -> dict[str, Any]:  # the loaded model is not pickled
        state = dict(self.__dict__)
        state["_scorer"] = None
        return state
