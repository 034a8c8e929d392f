"""The paper's search engine, Whoosh (whoosh-reloaded): every Whoosh import of sumeval is here.

Schema as in the GeSERA reference code: a stored ``id`` and a ``content`` field analysed by
``StemmingAnalyzer()``; BM25F with B=0.75, K1=1.2; queries parsed by ``QueryParser("content",
group=OrGroup)`` from strings escaped by :func:`sumeval.retrieval.queries.escape_query`.
Documents are added in one writer and one segment, so document number i is the i-th document
added (the sparse backend relies on this to break ties the same way).
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Iterable, Sequence

__all__ = ["ANALYZER", "analyze", "analyze_query", "whoosh_version", "length_to_byte", "byte_to_length",
           "build", "WhooshSearcher", "parse_query"]

ANALYZER = "whoosh.StemmingAnalyzer()"  # recorded in cache keys together with whoosh_version()
B, K1 = 0.75, 1.2


def whoosh_version() -> str:
    import whoosh

    return ".".join(map(str, whoosh.__version__))


@functools.lru_cache(maxsize=1)
def _analyzer() -> Any:
    from whoosh.analysis import StemmingAnalyzer

    return StemmingAnalyzer()


def analyze(text: str) -> list[str]:
    """The terms Whoosh indexes for ``text`` (StemmingAnalyzer: words, lowercase, stop words
    and 1-letter words removed, Porter stems), in order, with repeats."""
    return [t.text for t in _analyzer()(text)]


@functools.lru_cache(maxsize=1 << 15)
def analyze_query(text: str) -> tuple[str, ...]:
    """:func:`analyze` of a query string, remembered: a study searches the same summaries and
    references in many indexes (paper 001's size sweep: 44), and each search analysed every query
    again - half of the sweep's time (issue 19). Corpus documents, analysed once each into the
    cached term matrix, do not go through here."""
    return tuple(analyze(text))


def length_to_byte(length: int) -> int:
    """Whoosh's one-byte encoding of a field length (whoosh.util.numeric)."""
    from whoosh.util.numeric import length_to_byte as f

    return f(length)


def byte_to_length(b: int) -> int:
    """Whoosh's decoding of a one-byte field length (whoosh.util.numeric)."""
    from whoosh.util.numeric import byte_to_length as f

    return f(b)


def _schema() -> Any:
    from whoosh.fields import ID, TEXT, Schema

    return Schema(id=ID(stored=True), content=TEXT(analyzer=_analyzer()))


def build(folder: Path, docs: Iterable[tuple[str, str]], *, progress: bool = False,
          total: int | None = None, limitmb: int = 256) -> None:
    """Write a Whoosh index of ``docs`` (pairs ``(id, text)``, in document-number order) into
    ``folder`` (created; must be empty)."""
    from whoosh import index

    folder.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(folder), _schema())
    writer = ix.writer(limitmb=limitmb, procs=1, multisegment=False)
    it = docs
    if progress:
        from tqdm.auto import tqdm

        it = tqdm(docs, total=total, desc="whoosh index", unit="doc")
    try:
        for doc_id, text in it:
            writer.add_document(id=doc_id, content=text)
    except BaseException:
        writer.cancel()
        raise
    writer.commit()


def _parser() -> Any:
    from whoosh import qparser

    return qparser.QueryParser("content", schema=_schema(), group=qparser.OrGroup)


def parse_query(query: str) -> Any:
    """Whoosh's query object for an (escaped) query string."""
    return _parser().parse(query)


def query_terms(query: str) -> list[str]:
    """The distinct content terms of the parsed query, in order (empty for a null query)."""
    q = parse_query(query)
    return [text.decode("utf-8") if isinstance(text, bytes) else text
            for field, text in q.iter_all_terms() if field == "content"]


class WhooshSearcher:
    """Searches one Whoosh index folder with BM25F(B=0.75, K1=1.2); close() when done."""

    def __init__(self, folder: Path):
        from whoosh import index, scoring

        self.ix = index.open_dir(str(folder))
        self.searcher = self.ix.searcher(weighting=scoring.BM25F(B=B, K1=K1))
        self.parser = _parser()

    def doc_count(self) -> int:
        return self.searcher.doc_count_all()

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[int]]:
        """Top-k document numbers for each query string (best first; fewer if fewer match)."""
        it: Iterable[str] = queries
        if progress:
            from tqdm.auto import tqdm

            it = tqdm(queries, desc="whoosh search", unit="query")
        out = []
        for q in it:
            parsed = self.parser.parse(q)
            res = self.searcher.search(parsed, limit=k)
            out.append([hit.docnum for hit in res])
        return out

    def search_scored(self, query: str, k: int) -> list[tuple[int, float]]:
        """Top-k ``(document number, score)`` for one query (for checks against the sparse backend)."""
        res = self.searcher.search(self.parser.parse(query), limit=k)
        return [(hit.docnum, hit.score) for hit in res]

    def field_length(self, docnum: int) -> int:
        """The content length Whoosh stored for document ``docnum`` (decoded from one byte)."""
        return self.searcher.doc_field_length(docnum, "content", 0)

    def avg_field_length(self) -> float:
        """Whoosh's average content length (total tokens / documents)."""
        return self.searcher.avg_field_length("content")

    def doc_frequency(self, term: str) -> int:
        return self.searcher.doc_frequency("content", term)

    def close(self) -> None:
        self.searcher.close()
        self.ix.close()

    def __enter__(self) -> "WhooshSearcher":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
