"""Scorers for the paper-000 measures: ``estime`` (Eq.1), ``estime-soft`` (Eq.2) and
``similarity-order`` (Eq.3; also registered under its first name, ``coherence``).

All three share one :class:`sumeval.lm.MaskedEmbedder` per (model, engine options) in the
process (:func:`sumeval.lm.get_embedder`), and the engine's disk cache: a text is embedded once
however many summaries, measures and studies use it.

Options (every one recorded in the signature):

- ``model``: packaged name, local folder or Hugging Face id (default
  :data:`sumeval.lm.DEFAULT_MODEL`, ``all-mpnet-base-v2``);
- ``layer``: the summary layer (index into ``hidden_states``, 0 = embedding output); default
  :func:`default_estime_layer`: 9 for all-mpnet-base-v2 (its consistency correlations peak at layers
  8-10 and its top layers, tuned for sentence embeddings, degrade: at layer 10 a copied summary
  already draws alarms), otherwise ``floor(0.875 * num_hidden_layers)`` - the reference's depth
  (layer 21 of bert-large's 24), so 5 for all-MiniLM-L6-v2;
- ``text_layer``: the text layer (default: ``layer``);
- ``raw_model`` (estime-soft): the model whose input embedding table gives phi; must share the
  contextual model's vocabulary (checked; default: the contextual model itself); the other two
  scorers accept and ignore it, so one option set serves all three;
- engine options: ``device``, ``precision``, ``word_splitter``, ``window``, ``margin``,
  ``min_distance``.

Undefined values are NaN; ``score_batch`` returns :class:`~sumeval.metrics.base.Scores`, whose
``undefined`` lists ``(row in batch, reason)`` for each.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from sumeval.errors import InputError
from sumeval.lm.resolution import DEFAULT_MODEL
from sumeval.metrics.base import Batch, Scorer, Scores
from sumeval.similarity import measures as M

__all__ = ["EstimeScorer", "EstimeSoftScorer", "SimilarityOrderScorer", "CoherenceScorer", "default_estime_layer",
           "DEFAULT_ESTIME_LAYERS"]


#: measured defaults for the packaged models (see the module doc); others use the reference's depth
DEFAULT_ESTIME_LAYERS = {DEFAULT_MODEL: 9}


def default_estime_layer(num_hidden_layers: int, model_name: str | None = None) -> int:
    """The default layer of the paper-000 measures for a model: an index into ``hidden_states``.

    Args:
        num_hidden_layers: the model's transformer layers (its config's ``num_hidden_layers``;
            ``hidden_states`` has one more entry, 0 being the embedding output).
        model_name: the model's canonical name (:attr:`sumeval.lm.ModelSpec.name`).

    Returns:
        :data:`DEFAULT_ESTIME_LAYERS` for a packaged model, else ``floor(0.875 * num_hidden_layers)``
        (21 for 24 layers - the reference's layer of bert-large - 10 for 12, 5 for 6).

    >>> default_estime_layer(24), default_estime_layer(6), default_estime_layer(12, "all-mpnet-base-v2")
    (21, 5, 9)
    """
    if model_name in DEFAULT_ESTIME_LAYERS:
        return DEFAULT_ESTIME_LAYERS[model_name]
    return int(0.875 * num_hidden_layers)


class _PointsScorer(Scorer):
    needs = ("text",)

    def __init__(self, model: str = DEFAULT_MODEL, layer: int | None = None,
                 text_layer: int | None = None, raw_model: str | None = None, *, device: str | None = None,
                 precision: str = "auto", word_splitter: str = "treebank", window: int = 450,
                 margin: int = 50, min_distance: int = 8, progress: bool = False):
        from sumeval.lm import resolve_model

        self.spec = resolve_model(model)
        # read by estime-soft only; accepted by all so that one option set serves the three measures
        self.raw_model = raw_model
        cfg = json.loads((self.spec.path / "config.json").read_text(encoding="utf-8"))
        n_hidden = int(cfg.get("num_hidden_layers", cfg.get("n_layer", 0)))
        if n_hidden <= 0:
            raise InputError(f"model {self.spec.name!r}: config.json gives no num_hidden_layers")
        self.num_layers = n_hidden
        self.layer = self._check_layer(default_estime_layer(n_hidden, self.spec.name) if layer is None else layer,
                                        "layer")
        self.text_layer = self._check_layer(self.layer if text_layer is None else text_layer, "text_layer")
        from sumeval.lm.precision import resolve_precision

        # the precision that runs, in the options (signature, cache key): auto is float32 on a CPU, bf16 on CUDA
        precision = resolve_precision(precision, device)
        self.engine_options = {"device": device, "precision": precision, "word_splitter": word_splitter,
                               "window": window, "margin": margin, "min_distance": min_distance}
        self.progress = progress
        self._embedder = None

    def _check_layer(self, value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InputError(f"{what} {value!r} is not an integer")
        k, n = int(value), self.num_layers + 1
        if not 0 <= k < n:
            raise InputError(f"{what} {k} is out of range: model {self.spec.name!r} has layers 0..{n - 1} "
                             "(0 is the embedding output; negative numbers are not layers)")
        return k

    @property
    def embedder(self):
        if self._embedder is None:
            from sumeval.lm import get_embedder

            self._embedder = get_embedder(self.spec, **self.engine_options)
        return self._embedder

    def options(self) -> dict[str, object]:
        opts: dict[str, object] = {"model": self.spec.name, "model_sha": self.spec.fingerprint[:12],
                                   "layer": self.layer, "text_layer": self.text_layer}
        opts.update({k: v for k, v in self.engine_options.items() if k != "device"})
        return opts

    def versions(self) -> dict[str, str]:
        import torch
        import transformers

        return {"torch": torch.__version__.split("+")[0], "transformers": transformers.__version__}

    def _points(self, batch: Batch):
        """Yield (row, summary embeddings, text embeddings, points or None, reason or None)."""
        texts = list(batch.texts or [])
        if len(texts) != len(batch):
            raise InputError(f"{self.name}: needs a text for every summary")
        emb = self.embedder.embed_many(list(dict.fromkeys(texts + list(batch.summaries))),
                                       progress=self.progress)
        by_text = dict(zip(dict.fromkeys(texts + list(batch.summaries)), emb))
        for i, (s, t) in enumerate(zip(batch.summaries, texts)):
            es, et = by_text[s], by_text[t]
            if et.n_words == 0:
                yield i, es, et, None, "the text has no words"
            elif es.n_words == 0:
                yield i, es, et, None, "the summary has no words"
            else:
                yield i, es, et, M.points_of_similarity(es.layer(self.layer), et.layer(self.text_layer)), None


class EstimeScorer(_PointsScorer):
    """ESTIME alarms (paper 000 Sec.2, Eq.1; :func:`sumeval.similarity.measures.estime_alarms`):
    ``estime-alarms`` (over the summary words found in the text), ``estime-alarms-adjusted``
    (x N / |M|), ``estime-alarms-alltokens``. Lower is better."""

    name = "estime"
    higher_is_better = False
    description = "ESTIME: alarms at points of contextual similarity (lower is better)"

    def columns(self) -> list[str]:
        return ["estime-alarms", "estime-alarms-adjusted", "estime-alarms-alltokens"]

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        n = len(batch)
        out = Scores({c: np.full(n, np.nan) for c in self.columns()})
        for i, es, et, pts, why in self._points(batch):
            if pts is None:
                out.undefined.append((i, why))
                continue
            r = M.estime_alarms(es.first_ids, et.first_ids, pts, M.in_text_mask(es.words, et.words))
            out["estime-alarms"][i] = r["alarms"]
            out["estime-alarms-adjusted"][i] = r["alarms_adjusted"]
            out["estime-alarms-alltokens"][i] = r["alarms_alltokens"]
        return out


class EstimeSoftScorer(_PointsScorer):
    """ESTIME-soft (paper 000 Sec.2, Eq.2; :func:`sumeval.similarity.measures.estime_soft`): mean
    cosine of raw input embeddings at the points of similarity, over all summary words. Higher
    is better."""

    name = "estime-soft"
    higher_is_better = True
    description = "ESTIME-soft: raw-embedding agreement at points of contextual similarity"

    def __init__(self, model: str = DEFAULT_MODEL, layer: int | None = None,
                 text_layer: int | None = None, raw_model: str | None = None, **kw: Any):
        super().__init__(model, layer, text_layer, raw_model, **kw)
        from sumeval.lm import resolve_model

        self.raw_spec = resolve_model(raw_model) if raw_model else self.spec
        self._table = None

    @property
    def table(self) -> np.ndarray:
        if self._table is None:
            from sumeval.lm import raw_embedding_table

            self._table = raw_embedding_table(self.raw_spec, contextual=self.spec)
        return self._table

    def options(self) -> dict[str, object]:
        opts = super().options()
        opts["raw_model"] = self.raw_spec.name
        opts["raw_sha"] = self.raw_spec.fingerprint[:12]
        opts["average"] = "all-words"
        return opts

    def columns(self) -> list[str]:
        return ["estime-soft"]

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        out = np.full(len(batch), np.nan)
        undefined = []
        table = self.table
        for i, es, et, pts, why in self._points(batch):
            if pts is None:
                undefined.append((i, why))
                continue
            out[i] = M.estime_soft(table[es.first_ids], table[et.first_ids], pts)
        return Scores({"estime-soft": out}, undefined=undefined)


class SimilarityOrderScorer(_PointsScorer):
    """The similarity order (paper 000 Sec.5.1, Eq.3; :func:`sumeval.similarity.order.similarity_order`):
    Kendall tau-c between summary positions and their points of similarity in the text, which
    the paper correlates with expert coherence. Registered as ``similarity-order`` (the alias
    ``coherence`` is gone: it was also SummEval's human column). NaN for one-word summaries or
    when all points coincide. Higher is better."""

    name = "similarity-order"
    higher_is_better = True
    description = "order of the points of contextual similarity (Kendall tau-c, paper 000 Eq.3)"

    def columns(self) -> list[str]:
        return [self.name]

    def score_batch(self, batch: Batch) -> dict[str, np.ndarray]:
        out = np.full(len(batch), np.nan)
        undefined = []
        for i, es, et, pts, why in self._points(batch):
            if pts is None:
                undefined.append((i, why))
                continue
            out[i] = M.similarity_order(pts)
            if np.isnan(out[i]):
                undefined.append((i, M.undefined_reason("similarity_order", len(pts), et.n_words, pts)))
        return Scores({self.name: out}, undefined=undefined)


class CoherenceScorer(SimilarityOrderScorer):
    """The similarity order under the name it was first registered with, ``coherence``: the same
    numbers, the column ``coherence`` and the signature ``coherence|...``. No longer a registered
    measure (``coherence`` is also SummEval's human column); importable for code that used it."""

    name = "coherence"
