"""Document collections for retrieval: the shared Wikipedia and news corpora, or a user's own.

Every corpus iterates over :class:`Document` tuples ``(id, title, text)`` in a fixed order (the
file order for the shared collections, sorted paths for a folder), so that a seeded shuffle of
a corpus is reproducible.

Shared collections (files under ``corpora/`` of the data folder, see data/README.md):

==================  ==========================================================  ===========
name                file(s)                                                     documents
==================  ==========================================================  ===========
``wikipedia-2015``  ``wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz``     29,070
``wikipedia-2018``  ``wikipedia/enwiki2018_newarticles_vibhas.jsonl.gz``        34,999
``reuters21578``    ``news/reuters21578/reuters21578.jsonl.gz``                 19,043 [1]
``20newsgroups``    ``news/20newsgroups/20news_bydate.jsonl.gz`` (title =       18,812 [1]
                    the post's subject)
``bbc2005``         ``news/bbc2005/bbc_news_2225.jsonl.gz``                     2,225
``wikipedia``       group: wikipedia-2015 then wikipedia-2018                   64,069
``news``            group: reuters21578, 20newsgroups, bbc2005                  40,080
==================  ==========================================================  ===========

[1] Records whose ``text`` is empty (2,535 Reuters records without a body, 34 empty
newsgroup posts) are not documents of the shared collections; :attr:`Corpus.skipped` counts
them after an iteration, so nothing vanishes unaccounted.

A user's corpus is a path (:func:`open_corpus` decides by what it finds):

* a folder of ``.txt`` files (searched recursively, sorted by relative path; UTF-8): id = the
  relative path without ``.txt`` (``/``-separated), title = the file name without ``.txt``,
  text = the file's content (an empty or blank file is an error, not an empty document);
* a ``.jsonl`` or ``.jsonl.gz`` file, one JSON object a line with fields ``id`` (string or
  integer, unique) and ``text`` (non-empty string), and optionally ``title``.

Bad input raises :class:`~sumeval.errors.InputError` naming the file, line and value.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Mapping, NamedTuple

from sumeval.errors import InputError
from sumeval.hashing import update_with_file

__all__ = [
    "Document", "Corpus", "open_corpus", "builtin_corpora", "CORPORA", "CORPUS_GROUPS",
]


class Document(NamedTuple):
    """One document of a corpus: ``id`` (unique string), ``title`` (may be empty), ``text``."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class _Builtin:
    relpath: str            # relative to the data folder
    title_field: str        # field read as the title
    description: str
    source: str             # original public source (see data/README.md)


CORPORA: Mapping[str, _Builtin] = {
    "wikipedia-2015": _Builtin(
        "corpora/wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz", "title",
        "English Wikipedia 2015, 29,070 articles, each cut at about 4000 characters",
        "jason-feng/wikiVisual 1c0fac92"),
    "wikipedia-2018": _Builtin(
        "corpora/wikipedia/enwiki2018_newarticles_vibhas.jsonl.gz", "title",
        "English Wikipedia 2018 new articles, 34,999, full text",
        "Vibhas-hs-edu/WikiTasks b296125b"),
    "reuters21578": _Builtin(
        "corpora/news/reuters21578/reuters21578.jsonl.gz", "title",
        "Reuters-21578 newswire, the 19,043 records with a body",
        "colibri17/TextCategorization b6c2ca3d"),
    "20newsgroups": _Builtin(
        "corpora/news/20newsgroups/20news_bydate.jsonl.gz", "subject",
        "20 Newsgroups by date, 18,812 non-empty posts (title = subject)",
        "julenminer/mlnn_P65 7393be66"),
    "bbc2005": _Builtin(
        "corpora/news/bbc2005/bbc_news_2225.jsonl.gz", "title",
        "BBC news 2004-2005, 2,225 articles in 5 categories",
        "dejanbatanjac/bbc-article-classify-bert 8265dc84"),
}

CORPUS_GROUPS: Mapping[str, tuple[str, ...]] = {
    "wikipedia": ("wikipedia-2015", "wikipedia-2018"),
    "news": ("reuters21578", "20newsgroups", "bbc2005"),
}


def builtin_corpora() -> list[str]:
    """Names of the shared collections and groups, e.g. ``["20newsgroups", ..., "wikipedia"]``."""
    return sorted([*CORPORA, *CORPUS_GROUPS])


# --------------------------------------------------------------------------------------------
# readers
# --------------------------------------------------------------------------------------------
def _read_jsonl_documents(path: Path, *, title_field: str = "title", strict: bool,
                skipped: list[str]) -> Iterator[Document]:
    """Documents of a JSONL file.

    strict=True (a user's file): a missing/blank ``text`` or ``id`` raises InputError naming
    ``path:line``. strict=False (shared collections): records with a blank text are counted in
    ``skipped`` (their ids) and not yielded.
    """
    from sumeval.jsonl import iter_jsonl

    for lineno, rec in iter_jsonl(path, fix="a corpus JSONL needs one object a line with 'id' and 'text'"):
        doc_id = rec.get("id")
        if doc_id is None or (isinstance(doc_id, str) and not doc_id.strip()) \
                or not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool):
            raise InputError(f"{path}:{lineno}: field 'id' is missing or not a string/integer "
                             f"(got {doc_id!r}); every line needs 'id' and 'text'")
        text = rec.get("text")
        if text is not None and not isinstance(text, str):
            raise InputError(f"{path}:{lineno}: field 'text' must be a string, got "
                             f"{type(text).__name__} for id {doc_id!r}")
        if text is None or not text.strip():
            if strict:
                raise InputError(f"{path}:{lineno}: field 'text' is missing or empty for id "
                                 f"{doc_id!r}; every document needs a non-empty 'text'")
            skipped.append(str(doc_id))
            continue
        title = rec.get(title_field) or ""
        if strict and not isinstance(title, str):
            raise InputError(f"{path}:{lineno}: field {title_field!r} must be a string, got "
                             f"{type(title).__name__} for id {doc_id!r}")
        yield Document(str(doc_id), str(title), text)


def _read_folder(folder: Path) -> Iterator[Document]:
    files = sorted(folder.rglob("*.txt"), key=lambda p: p.relative_to(folder).as_posix())
    if not files:
        raise InputError(f"{folder}: folder has no .txt files; a folder corpus is a folder of "
                         "UTF-8 .txt files, one document each")
    for p in files:
        rel = p.relative_to(folder).as_posix()
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"{p}: not UTF-8 text ({e.reason} at byte {e.start}); "
                             "save the files of a folder corpus as UTF-8") from None
        except OSError as e:
            raise InputError(f"{p}: cannot be read ({e.strerror}); a folder corpus needs readable "
                             ".txt files") from None
        if not text.strip():
            raise InputError(f"{p}: empty file (no text); every .txt of a folder corpus is one document "
                             "and needs text - remove or fill the file")
        yield Document(rel[: -len(".txt")], p.stem, text)


# --------------------------------------------------------------------------------------------
# the corpus object
# --------------------------------------------------------------------------------------------
@dataclass
class Corpus:
    """A named, ordered collection of documents.

    Iterate it for :class:`Document` tuples. ``name`` is the shared collection's name or the
    user's path; ``files`` are the files read. After a full iteration ``skipped`` lists the ids
    of records left out because their text was empty (shared collections only).
    """

    name: str
    description: str
    files: tuple[Path, ...]
    _iterate: Callable[["Corpus"], Iterator[Document]] = field(repr=False)
    skipped: list[str] = field(default_factory=list, repr=False)

    def __iter__(self) -> Iterator[Document]:
        self.skipped = []
        seen: set[str] = set()
        for doc in self._iterate(self):
            if doc.id in seen:
                raise InputError(f"corpus {self.name!r}: document id {doc.id!r} occurs twice; "
                                 "ids must be unique")
            seen.add(doc.id)
            yield doc

    def documents(self) -> list[Document]:
        """All documents, in corpus order (list of length N)."""
        return list(self)

    def fingerprint(self) -> str:
        """sha256 of the corpus name and the bytes of every file (identifies its content)."""
        h = hashlib.sha256(self.name.encode("utf-8"))
        for p in self.files:
            h.update(b"\0" + str(p.name).encode("utf-8") + b"\0")
            update_with_file(h, p)
        return h.hexdigest()

    def __repr__(self) -> str:
        return f"<Corpus {self.name!r}: {self.description}>"


def _builtin(name: str) -> Corpus:
    from sumeval.datasets.registry import locate

    spec = CORPORA[name]
    path = locate(spec.relpath)

    def it(corpus: Corpus) -> Iterator[Document]:
        yield from _read_jsonl_documents(path, title_field=spec.title_field, strict=False,
                               skipped=corpus.skipped)

    return Corpus(name, spec.description, (path,), it)


def _group(name: str) -> Corpus:
    members = [_builtin(m) for m in CORPUS_GROUPS[name]]

    def it(corpus: Corpus) -> Iterator[Document]:
        for m in members:
            yield from m
            corpus.skipped.extend(m.skipped)

    files = tuple(p for m in members for p in m.files)
    return Corpus(name, "group: " + " + ".join(CORPUS_GROUPS[name]), files, it)


def open_corpus(spec: "str | Path | Corpus") -> Corpus:
    """The corpus named ``spec``: a shared collection or group name, or a path.

    Args:
        spec: ``"wikipedia-2015"``, ``"news"``, ... (see :func:`builtin_corpora`), a folder of ``.txt`` files, a
            ``.jsonl`` / ``.jsonl.gz`` file, or a ready :class:`Corpus`.

    Raises:
        InputError: an unknown name, a path that does not exist, or a file of another format.
        DataNotFoundError: a shared collection whose file is not in the data folder.
    """
    if isinstance(spec, Corpus):
        return spec
    s = str(spec)
    if s in CORPORA:
        return _builtin(s)
    if s in CORPUS_GROUPS:
        return _group(s)
    path = Path(s).expanduser()
    if path.is_dir():
        folder = path.resolve()
        return Corpus(str(folder), f"folder of .txt files {folder}", tuple(
            sorted(folder.rglob("*.txt"), key=lambda p: p.relative_to(folder).as_posix())),
            lambda c: _read_folder(folder))
    if path.is_file():
        if path.name.endswith((".jsonl", ".jsonl.gz")):
            f = path.resolve()
            return Corpus(str(f), f"JSONL file {f}", (f,),
                          lambda c: _read_jsonl_documents(f, strict=True, skipped=c.skipped))
        raise InputError(f"corpus {s!r}: unsupported file type {path.suffix!r}; give a .jsonl / "
                         ".jsonl.gz file (fields id, title, text) or a folder of .txt files")
    raise InputError(
        f"corpus {s!r}: neither a known collection nor an existing path; known collections: "
        + ", ".join(builtin_corpora()) + "; or give a folder of .txt files or a .jsonl file"
    )


def corpus_sources() -> dict[str, str]:
    """Original public source of each shared collection (for the data registry / manifests)."""
    return {name: spec.source for name, spec in CORPORA.items()}

