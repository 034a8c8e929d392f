"""Text ordering (paper 002): data sets, noise and mini sets, metrics, pointer models, training.

Modules (import the one you need; nothing heavy is imported here):

- :mod:`sumeval.ordering.metrics` — ``pmr``, ``accuracy``, ``kendall_tau``, ``wlcs_l`` (paper 002 Sec.4.2,
  Eq.5-7; py-rouge's ROUGE-W).
- :mod:`sumeval.ordering.data` — one import for ``load_ordering_set(name, split)``, ``OrderingSet``,
  entities, vocabulary and GloVe, which live in :mod:`~sumeval.ordering.documents`,
  :mod:`~sumeval.ordering.sets`, :mod:`~sumeval.ordering.entities` and :mod:`~sumeval.ordering.vocabulary`.
- :mod:`sumeval.ordering.noise` — ``noisy_set`` (Insert / Remove / Modify), ``mini_sets`` (bootstrap).
- :mod:`sumeval.ordering.models`, :mod:`sumeval.ordering.decode`, :mod:`sumeval.ordering.train` —
  LSTM+PtrNet, Variant-LSTM+PtrNet, ATTOrderNet and SE-Graph; beam search; the training loop.
- :mod:`sumeval.ordering.sizes` — paper 002's model sizes per model and data set (``paper_sizes``),
  ATTOrderNet's heads rule (``default_heads``), parameter counts against Table 2 (``size_table``).
- :mod:`sumeval.ordering.experiment` — train-or-reuse through the model cache, evaluate, random floor.
- :mod:`sumeval.ordering.cli` — ``sumeval ordering train | evaluate`` (``add_commands``).
"""
