"""Text ordering (paper 002): data sets, noise and mini sets, metrics, pointer models, training.

Modules (import the one you need; nothing heavy is imported here):

- :mod:`sumeval.ordering.metrics` — ``pmr``, ``accuracy``, ``kendall_tau``, ``wlcs_l`` (paper 002 Sec.4.2,
  Eq.5-7; py-rouge's ROUGE-W).
- the data: :mod:`sumeval.ordering.documents` (``OrderingDocument``, ``OrderingSet``, the recorded
  shuffles), :mod:`sumeval.ordering.sets` (``load_ordering_set(name, split)``: NIPS, SIND, ROC; Wikipedia,
  BBC, Reuters), :mod:`sumeval.ordering.entities` (NIPS entity files, spaCy entities for SE-Graph) and
  :mod:`sumeval.ordering.vocabulary` (tokens, ``Vocabulary``, GloVe).
- :mod:`sumeval.ordering.noise` — ``noisy_set`` (Insert / Remove / Modify), ``mini_sets`` (bootstrap).
- :mod:`sumeval.ordering.models`, :mod:`sumeval.ordering.decode`, :mod:`sumeval.ordering.train` —
  LSTM+PtrNet, Variant-LSTM+PtrNet, ATTOrderNet and SE-Graph; beam search; the training loop.
- :mod:`sumeval.ordering.sizes` — paper 002's model sizes per model and data set (``paper_sizes``),
  ATTOrderNet's heads rule (``default_heads``), parameter counts against Table 2 (``size_table``).
- :mod:`sumeval.ordering.experiment` — train-or-reuse through the model cache, evaluate, random floor.
- the command ``sumeval ordering train | evaluate`` is :mod:`sumeval.cli.ordering`.
"""
