"""The built-in data set ``realsumm``: REALSumm's 2,500 (document, system) pairs with LitePyramid
recall, exactly as before the shelf (:func:`sumeval.datasets.realsumm.realsumm_frame`; the reader of
REALSumm's files is :mod:`sumeval.datasets.realsumm`, which the paper-001 studies use directly).
"""
from __future__ import annotations

__all__ = ["realsumm_judgments"]


def realsumm_judgments():
    """The :class:`~sumeval.datasets.judgments_model.Judgments` of ``realsumm``: human column
    ``litepyramid``, no measure columns, the roles of :func:`~sumeval.datasets.judgments_model.classify_frame`."""
    from sumeval.datasets import realsumm as rs
    from sumeval.datasets.judgments_model import ColumnMap, classify_frame
    from sumeval.datasets.registry import checksums, combined_sha256, locate

    return classify_frame(rs.realsumm_frame(), name="realsumm", path=locate(rs.DATA_FILE),
                          sha256=combined_sha256(checksums([rs.DATA_FILE])), fmt="builtin",
                          humans=("litepyramid",), lower=(), columns=ColumnMap(), locations=None)
