"""What the masked-embedding engine returns and caches for one text: :class:`MaskedEmbeddings`.

Arrays (one ``.npz`` per text in ``Store("masked_embeddings")``):

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

Layer k is ``hidden_states[k]`` of the model: 0 is the embedding output, so a model of
``num_hidden_layers`` transformer layers has ``num_hidden_layers + 1`` selectable layers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sumeval.errors import InputError

__all__ = ["MaskedEmbeddings"]


@dataclass
class MaskedEmbeddings:
    """Masked-token embeddings of one text, every layer (the arrays of the module doc).

    ``emb`` is (n_words, n_layers+1, hidden) in the stored dtype; :meth:`layer` gives one layer as
    float32 (n_words, hidden). ``model`` is the identity of the model that made them.
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
