"""Paper 001: SERA / SERA-DIS / GeSERA - retrieval-based summary evaluation.

* :mod:`.sera` - the measures on retrieved lists (pure; paper 001 Eq.1-2);
* :mod:`.queries` - query reformulation (raw, np, kw, gesera, gesera-pn) and escaping;
* :mod:`.index` - indexes (first n documents of a seeded shuffle of a corpus), cached, with two
  backends: :mod:`.whoosh_backend` (the paper's engine; every Whoosh import) and
  :mod:`.sparse_backend` (the same BM25F on sparse matrices; the default);
* :mod:`.scorers` - the :class:`sumeval.metrics.Scorer` classes (``sera-10``, ``gesera-10``, ...).

Nothing heavy is imported here.
"""
from sumeval.retrieval.sera import sera, sera_dis, sera_per_reference

__all__ = ["sera", "sera_dis", "sera_per_reference"]
