"""Language models for paper 000: model resolution, word planning and the masked-embedding engine.

Five modules, each readable alone (nothing heavy is imported here):

- :mod:`sumeval.lm.resolution` - which model a name means (packaged, local folder, Hugging Face
  cache), its content fingerprint, loading it once per process, and the raw input embeddings
  of ESTIME-soft (:func:`resolve_model`, :func:`load_model`, :func:`raw_embedding_table`);
- :mod:`sumeval.lm.words` - words, word-pieces, groups of words at least 8 apart and the plan
  of forward passes that masks every word once (:func:`split_words`, :func:`word_pieces`,
  :func:`group_separated`, :func:`plan_passes`);
- :mod:`sumeval.lm.engine` - the engine that runs the passes, batched, and caches every layer
  of every masked word per text (:class:`MaskedEmbedder`, :func:`get_embedder`);
- :mod:`sumeval.lm.precision` - the precisions it runs in (:func:`normalize_precision`) and
  whether this CPU runs them natively (:func:`slow_precision_note`, :class:`SlowPrecisionWarning`);
- :mod:`sumeval.lm.embeddings` - what the engine returns for one text
  (:class:`MaskedEmbeddings`: every layer of every masked word, the CLS states, the tokens).

Every public name is importable from ``sumeval.lm`` as well.
"""
from sumeval.lm.embeddings import MaskedEmbeddings
from sumeval.lm.engine import CPU_FORWARD_TOKENS, MaskedEmbedder, get_embedder
from sumeval.lm.precision import (
    PRECISION_ALIASES,
    PRECISIONS,
    SlowPrecisionWarning,
    normalize_precision,
    resolve_precision,
    slow_precision_note,
)
from sumeval.lm.resolution import (
    DEFAULT_MODEL,
    FAST_MODEL,
    LoadedModel,
    ModelSpec,
    VocabularyMismatchError,
    check_same_vocabulary,
    default_device,
    load_model,
    model_fingerprint,
    raw_embedding_table,
    resolve_model,
)
from sumeval.lm.words import Pass, group_separated, plan_passes, split_words, word_pieces

__all__ = [
    "ModelSpec", "LoadedModel", "VocabularyMismatchError", "resolve_model", "load_model",
    "default_device", "model_fingerprint", "check_same_vocabulary", "raw_embedding_table",
    "split_words", "word_pieces", "group_separated", "plan_passes", "Pass", "MaskedEmbeddings",
    "MaskedEmbedder", "get_embedder", "CPU_FORWARD_TOKENS", "DEFAULT_MODEL", "FAST_MODEL", "PRECISIONS",
    "PRECISION_ALIASES",
    "normalize_precision", "resolve_precision", "slow_precision_note", "SlowPrecisionWarning",
]
