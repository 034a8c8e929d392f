"""Registry of the data sets sumeval reads: files, checksums, public sources and licences.

Every data file the package reads is recorded here with its sha256 and size (computed from the
shared copy), grouped per data set, together with the public repository (and commit) it was
taken from, its licence and a one-line description, so a user elsewhere can obtain it.

Finding a file
--------------
:func:`locate` searches the folders of :func:`sumeval.paths.data_search_path`, in order:

1. every folder in ``$SUMEVAL_DATA`` (several may be given, separated by ``os.pathsep``),
2. ``<project root>/data``,
3. ``<project root>/../shared/data``.

The first folder that holds the path wins; a corrupt copy there is an error (it does not fall
through to the next folder), so what is read is always what is verified.

Verification
------------
A registered file is checked against its recorded size and sha256. Hashing is done once per
``(resolved path, size, mtime_ns)``: the result is kept in memory and in
``<cache_dir>/data_checks.json`` (written atomically), so later calls and later processes only
``stat`` the file. Editing, replacing or touching a file changes its size or mtime and forces a
new hash.

A path that is *not* in the registry (a user's own data placed in a data folder) is still found
by :func:`locate`, but it cannot be verified: it is returned as is. :func:`checksums` still
reports its actual sha256, so run manifests record what was read; :func:`accessed` lists
``{relpath: sha256}`` of every file located in the current process.

Example::

    from sumeval.datasets.registry import locate, verify_all
    path = locate("summeval/summeval_pairs_1600.jsonl")      # Path, verified
    report = verify_all()                                    # every registered file
    print(report)
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from sumeval.errors import DataNotFoundError, InputError
from sumeval.paths import cache_dir, data_search_path

__all__ = [
    "DatasetInfo",
    "FileCheck",
    "VerifyReport",
    "DATASETS",
    "datasets",
    "info",
    "files",
    "dataset_of",
    "is_registered",
    "expected",
    "locate",
    "verify_all",
    "checksums",
    "accessed",
    "dataset_info",
    "sha256_file",
    "clear_verification_cache",
]

# ------------------------------------------------------------------------------------------
# Recorded files: relpath -> (sha256, size in bytes). Computed from /work/shared/data.
# ------------------------------------------------------------------------------------------
_FILES_SUMMEVAL = {
    "summeval/summac_consistency_3experts_100.json": ("5a0615322704d8e75870221573619031b8b37777fd08039e6a5eed37f7df9c6e", 286185),
    "summeval/summeval_docs_100.jsonl": ("edb41746cca52caf9d387819363f9236ebd054c35f4fc2fe15c7dde768a0a384", 696441),
    "summeval/summeval_pairs_1600.jsonl": ("c57ec95bd4f3ec5466e7cce8c952c2c0b54dc3a93f33e2bf25c248234b8b07aa", 889556),
}
_FILES_REALSUMM = {
    "realsumm/LICENSE.txt": ("9ba9550ad48438d0836ddab3da480b3b69ffa0aac7b7878b5a0039e7ab429411", 18657),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/banditsumm_out.csv": ("497d4ae8c33c5b556ee2c76d22a2f51ae8423600dbb230adeef2a2a03149415a", 331226),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/bart_out_Batch_crowd_3.csv": ("52cf232a353d8f9d42874f1bbe1faf2f6c49ab0c1eff34e39faf8bdc0536ad43", 332373),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/bottom_up_out_Batch_crowd_3.csv": ("40de01a56e32ed4580b15262db3f3510b273fce79b999328c4cafada47cd20ac", 310541),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/fast_abs_rl_out_rerank_Batch_crowd_3.csv": ("81b2386d80c3e5b8828124f3ed8e209586f11860da5761025dabd21fb5132d79", 353880),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/neusumm_out_Batch_crowd_3.csv": ("b7b80d4078f5775534668a9c203e87acd5ca7213119845746e62e31873038d2e", 355834),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/presumm_out_abs_Batch_crowd_3.csv": ("888526a9fe93aaf492faa34b58432efb1e52df584a61605fee3f5d32aa69fbd0", 321299),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/presumm_out_ext_abs_Batch_crowd_3.csv": ("b523774b8224905c63812e7a35275edbf3c1163aecafdafc9aafbbbf70539de8", 319919),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/presumm_out_trans_abs_Batch_crowd_3.csv": ("6e92ad09482d8fdd6fc8bfe79f9d6b64f39d6193b1408c820c32a7d8f670bf7e", 350131),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/ptr_generator_out_pointer_gen_cov_Batch_crowd_3.csv": ("bdcedc51e4ff0be255023fb2c8906307c2eb71da14fd75893b979a89aff8f681", 329463),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/semsim_out_Batch_crowd_3.csv": ("fa349f2f5085d4f9249810ab12a62b6c7dc7b2d52ce20b9404b47183c8236eb4", 335936),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/t5_out_11B_Batch_crowd_3.csv": ("b08abe3ea378bc6cd2dab4c22a9b287c63ce33b7e07ea31c8a8309640dcfd1a8", 312194),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/t5_out_base_Batch_crowd_3.csv": ("cb690d8010a658ffdbaea40279baee8bace2a23a57b413bf08901992aa08e142", 301767),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/t5_out_large_Batch_crowd_3.csv": ("a26b45f44a020c5a1c2cc2c4f9a797323a455de9a28d471724465d64a39866f9", 300561),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/two_stage_rl_out_Batch_crowd_3.csv": ("25b85b104ceaf4a2e40ee21416725e15e671e4c2f8d4328ed74beabe8ee0456a", 313714),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/unilm_out_v1_Batch_crowd_3.csv": ("f119b5340fb3d6b00cdc87b0857e21308716d7c88c20a8fc8ece64a6e6dbc7be", 319806),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/unilm_out_v2_Batch_crowd_3.csv": ("e9d6945a51a12cab4f8443c32eab1f6b868540b23335cf4b337bd20051b8b5fc", 300132),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/bart_out.csv": ("97b87555738529f8ac96e1ca951878620565b432da69696596cf5341395f5f87", 336669),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/heter_graph_out.csv": ("3e5cb213f144ed854039349146e23741e56947fec2626a60e0417243535cc31e", 335411),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/matchsumm_out.csv": ("70391b6d2ef50a467789ae8e753425df78b0ab4fdbab16f30414cc0a06414d18", 337573),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_lstm_pn.csv": ("abc990d41c6928833495c31fe3f165001d081e115e3433d90860660611b5220c", 352170),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_lstm_pn_rl.csv": ("bb70ccd3bd38e5491b9495b136587824ae3f180c0802ea2315d51c1a87d8f354", 345850),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_tf_pn.csv": ("9c5fadf0c4157554ba5b8f40425d2dd03b2c0439d0494adb7be7b004cd8c8359", 337327),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_tf_sl.csv": ("f170dd6e054094c55debefb3aaea12e01ab830cb99d1b60392a5fb9ee97dde79", 344211),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_lstm_pn_rl.csv": ("3324b27b8627e05603c2f30cad6165755f0b50583cfbea6eb847052f72774ff6", 335070),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/refresh_out.csv": ("57c266f09e2f14afe9944f98d15493a8422f15eaab0b585baebd84e1b26a28bf", 388365),
    "realsumm/raw/SCUs_list.csv": ("14687dd57562cbd4e72dc26ff29f90dee71023fa6616bf53dc80d373fa10e4c0", 97893),
    "realsumm/raw/selected_documents.md": ("163943dfa248a82aa24912f339b32cb9e61cc387ceda9e75116173dba3a88aed", 905),
    "realsumm/raw/src.txt": ("38f4cfb9a815317cf01bead7e71d4e41b9ac8c536b750bcddcbc5dc942146c85", 385017),
    "realsumm/realsumm_100x25.jsonl": ("0ee0cdc19c0553b67e8dcc5b9270cf04341f5cf3a5fd2a5edefb818ca9ea3b94", 2118418),
}
_FILES_NIPS = {
    "ordering/nips/README.NSEG.md": ("d4cc47d4e603dd3574f6393f88e33806d44a1482d26efb535147eac5d4e904d3", 869),
    "ordering/nips/test.eg": ("e1c519d7db979a1eaed03cb92af4ac239f61340803a98fc1984bcf4d27623d43", 40344),
    "ordering/nips/test.lower": ("c5dfd0728055e738fab11c7915a3498063b8e7dd67c97ccaf75318937f2fc3a0", 399974),
    "ordering/nips/train.eg": ("ba3758caa3559a828e2f1e7a7a69333f52bd1512ba1fabd348a15c643a16466c", 254133),
    "ordering/nips/train.lower": ("d42582368635d0fb423738530c86e7d11e633b191dae5aa380b15e65427124e1", 2436469),
    "ordering/nips/val.eg": ("b950d548ef621873043cd7209a0f7663a4c5fbccdc5435488f54aa6143788bad", 47009),
    "ordering/nips/val.lower": ("ce8f232bb4a5becfefab728de6b1f8f20a8d1bc19142335c9e55da7344155401", 439528),
}
_FILES_SIND = {
    "ordering/sind/LICENSE.repo-MIT": ("fe4458c30c9edb425bed3c905c9162e94ca2bb5ea021fd3e0fb64096d0c155a7", 1071),
    "ordering/sind/dev.tsv": ("12da6bc53af95a231034ea158fa2c7778a9900ac3ec335d97810d276d8d09701", 1478873),
    "ordering/sind/test.tsv": ("31796da0e61fdf43229e0300be19f6810f68d77bbaaeb627adcc41be645d7b09", 1483034),
}
_FILES_ROC = {
    "ordering/roc/LICENSE.repo-MIT": ("7a4348bcc838ef3811ad96475d975869ba6104bfec46572b371fa34482defdb5", 1107),
    "ordering/roc/test.tsv": ("258c44ccafeead151abd5834c590afea6a9879443bb46b9c967791bd5e37928b", 2253861),
    "ordering/roc/valid.tsv": ("2b6bfe3cf471a41ec84ecace9c0277591f0cf69f3cc590bb5a3a6e0b3b89a4ae", 2254755),
}
_FILES_WIKIPEDIA2015 = {
    "corpora/wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz": ("64f8b301e0a65b851a2b41353e9f9a40b8215aee07bdcdb257abc6ee4a4a84c5", 32876840),
}
_FILES_WIKIPEDIA2018 = {
    "corpora/wikipedia/enwiki2018_newarticles_vibhas.jsonl.gz": ("8b60187f4ffafb8c4dc828661024eeca0432f418666d5e2820c57e1da3b11882", 22147339),
}
_FILES_REUTERS21578 = {
    "corpora/news/reuters21578/README.txt": ("eb669045dd883c56cb5a96da1848c3380bc6371894c5663709a46776e3262a96", 36388),
    "corpora/news/reuters21578/reuters21578.jsonl.gz": ("48e11f68819cfd614a7cd39698024d62ae121d372ef6966bd10bc87cfc6b6e56", 7283194),
}
_FILES_20NEWSGROUPS = {
    "corpora/news/20newsgroups/20news_bydate.jsonl.gz": ("f09e26034a5204959d129f78b60be7ad43debff6e985dd6054c77706730b2f63", 13868440),
}
_FILES_BBC2005 = {
    "corpora/news/bbc2005/README.TXT": ("eea76164b59389dd8e7267d30cd3680afa001143be2df8fc0631c8c991dd150b", 598),
    "corpora/news/bbc2005/bbc_news_2225.jsonl.gz": ("69c8df9f329c3f3b5c6890c4f96f27e4b2bfe95d66a7d528bb5b450778cd25c9", 1883734),
}
_FILES_SLOGANS = {
    "slogans/LICENSE": ("0c7e2741235b26b77f201fd176442214b019ee614c603270aa8adee1f93b19af", 1068),
    "slogans/slogans.csv": ("296120ba141d0232eddf7b159ae171b26a39b78d45b706b8067d245ad3da847a", 641068),
}


@dataclass(frozen=True)
class DatasetInfo:
    """One data set: where it comes from, under which terms, and its files.

    ``files`` maps a path relative to a data folder to ``(sha256, size in bytes)``.
    ``source`` names the public repository and commit the files were taken from (the files
    are that repository's files, or converted from them into JSONL without changing their
    content); ``original`` names the data set's own home where it differs.
    """

    name: str
    description: str
    source: str
    license: str
    files: Mapping[str, tuple[str, int]]
    original: str = ""
    citation: str = ""

    @property
    def folders(self) -> list[str]:
        """The top folders of the data set's files (e.g. ``["summeval"]``)."""
        return sorted({str(Path(p).parent) for p in self.files})

    @property
    def size(self) -> int:
        """Total size of the data set's files in bytes."""
        return sum(size for _, size in self.files.values())

    def how_to_obtain(self) -> str:
        """One sentence telling a user where to get the files."""
        text = f"get it from {self.source}"
        if self.original:
            text += f" (original: {self.original})"
        return text + f"; licence: {self.license}"


DATASETS: dict[str, DatasetInfo] = {
    d.name: d
    for d in [
        DatasetInfo(
            name="summeval",
            description="SummEval: 100 CNN/DM test articles x 16 systems with expert coherence, "
            "consistency, fluency and relevance (mean of 3 experts), 11 references each, and "
            "100 pairs with the 3 individual expert consistency scores (SummaC).",
            source="https://github.com/neulab/BARTScore/tree/248f511c (SUM/SummEval/data.pkl) and "
            "https://github.com/tingofurro/summac/tree/46056e54 (data/summeval.json)",
            license="Apache-2.0 (redistributing repositories); SummEval annotations MIT",
            original="https://github.com/Yale-LILY/SummEval",
            citation="Fabbri et al. 2021, SummEval: Re-evaluating Summarization Evaluation, TACL",
            files=_FILES_SUMMEVAL,
        ),
        DatasetInfo(
            name="realsumm",
            description="REALSumm: 100 CNN/DM test articles x 25 systems (14 abstractive, 11 "
            "extractive) with LitePyramid recall, plus the SCU lists and the crowd workers' "
            "per-summary SCU judgments (raw/).",
            source="https://github.com/neulab/REALSumm/tree/a5900e3e (scores_dicts/*.pkl, "
            "human_annotations/)",
            license="CC BY 4.0",
            citation="Bhandari et al. 2020, Re-evaluating Evaluation in Text Summarization, EMNLP",
            files=_FILES_REALSUMM,
        ),
        DatasetInfo(
            name="nips",
            description="NIPS abstracts for sentence ordering (SE-Graph): train/val/test .lower "
            "(one document a line, sentences joined by ' <eos> ', lowercased, tokenized) and "
            ".eg entity files.",
            source="https://github.com/DeepLearnXMU/NSEG/tree/5e6d623e (nips/)",
            license="none stated",
            citation="Yin et al. 2019, Graph-based Neural Sentence Ordering, IJCAI",
            files=_FILES_NIPS,
        ),
        DatasetInfo(
            name="sind",
            description="SIND visual stories for sentence ordering, five sentences each, "
            "' <eos> ' separated: dev and test (no train split).",
            source="https://github.com/steven640pixel/nonautoregressive-sentence-ordering/tree/fdf31737",
            license="VIST terms (repository code MIT)",
            original="https://visionandlanguage.net/VIST/",
            files=_FILES_SIND,
        ),
        DatasetInfo(
            name="roc",
            description="ROCStories for sentence ordering, five tab-separated sentences each: "
            "valid and test (no train split).",
            source="https://github.com/declare-lab/sentence-ordering/tree/c6524778",
            license="ROCStories terms (repository code MIT)",
            original="https://cs.rochester.edu/nlp/rocstories/",
            files=_FILES_ROC,
        ),
        DatasetInfo(
            name="wikipedia2015",
            description="29,070 English Wikipedia articles of 2015 (WikiExtractor text, "
            "paragraphs as lines, each cut at about 4000 characters): id, title, url, text.",
            source="https://github.com/jason-feng/wikiVisual/tree/1c0fac92",
            license="CC BY-SA",
            files=_FILES_WIKIPEDIA2015,
        ),
        DatasetInfo(
            name="wikipedia2018",
            description="34,999 new English Wikipedia articles of 2018, full text.",
            source="https://github.com/Vibhas-hs-edu/WikiTasks/tree/b296125b",
            license="CC BY-SA",
            files=_FILES_WIKIPEDIA2018,
        ),
        DatasetInfo(
            name="reuters21578",
            description="Reuters-21578 newswire, 21,578 stories (19,043 with a body): id, date, "
            "topics, title, text, lewissplit.",
            source="https://github.com/colibri17/TextCategorization/tree/b6c2ca3d",
            license="research use (see README.txt)",
            original="http://www.daviddlewis.com/resources/testcollections/reuters21578/",
            files=_FILES_REUTERS21578,
        ),
        DatasetInfo(
            name="20newsgroups",
            description="20 Newsgroups by date, 18,846 posts: id, split, newsgroup, subject, text.",
            source="https://github.com/julenminer/mlnn_P65/tree/7393be66",
            license="research use",
            original="http://qwone.com/~jason/20Newsgroups/",
            files=_FILES_20NEWSGROUPS,
        ),
        DatasetInfo(
            name="bbc2005",
            description="BBC news 2004-2005, 2,225 articles in 5 categories, paragraphs separated "
            "by blank lines: id, category, title, text.",
            source="https://github.com/dejanbatanjac/bbc-article-classify-bert/tree/8265dc84",
            license="BBC copyright, research use (see README.TXT)",
            original="http://mlg.ucd.ie/datasets/bbc.html",
            files=_FILES_BBC2005,
        ),
        DatasetInfo(
            name="slogans",
            description="9,519 advertising slogans (company, slogan), the Insert noise of paper 002.",
            source="https://github.com/jonathanbgn/slogan-generator/tree/b943037c",
            license="MIT",
            files=_FILES_SLOGANS,
        ),
    ]
}

_BY_FILE: dict[str, str] = {p: d.name for d in DATASETS.values() for p in d.files}


# ------------------------------------------------------------------------------------------
# Listing
# ------------------------------------------------------------------------------------------
def datasets() -> list[str]:
    """Names of the registered data sets, in registry order (``"summeval"``, ``"realsumm"``, ...)."""
    return list(DATASETS)


def info(dataset: str) -> DatasetInfo:
    """The :class:`DatasetInfo` of ``dataset``; :class:`InputError` naming the known ones if unknown."""
    try:
        return DATASETS[dataset]
    except KeyError:
        raise InputError(
            f"unknown data set {dataset!r}; registered data sets: {', '.join(DATASETS)}"
        ) from None


dataset_info = info  # alias used by the CLI


def files(dataset: str) -> list[str]:
    """Registered paths (relative to a data folder) of ``dataset``'s files, sorted."""
    return sorted(info(dataset).files)


def _norm(relpath: str | os.PathLike[str]) -> str:
    """``relpath`` as a registry key: forward slashes, no leading ``./`` or trailing ``/``."""
    text = Path(relpath).as_posix()
    if Path(relpath).is_absolute() or text.startswith("../") or "/../" in f"/{text}/":
        raise InputError(
            f"data path {str(relpath)!r} must be relative to a data folder and stay inside it, "
            "e.g. 'summeval/summeval_pairs_1600.jsonl'"
        )
    return text.removeprefix("./").rstrip("/") if text != "." else ""


def dataset_of(relpath: str | os.PathLike[str]) -> str | None:
    """Name of the data set that registers ``relpath`` (a file), or None for unregistered paths."""
    return _BY_FILE.get(_norm(relpath))


def is_registered(relpath: str | os.PathLike[str]) -> bool:
    """True when ``relpath`` is a registered file."""
    return _norm(relpath) in _BY_FILE


def expected(relpath: str | os.PathLike[str]) -> tuple[str, int]:
    """Recorded ``(sha256, size)`` of a registered file; :class:`InputError` for others."""
    key = _norm(relpath)
    if key not in _BY_FILE:
        raise InputError(f"{key!r} is not a registered data file; see registry.datasets()")
    return DATASETS[_BY_FILE[key]].files[key]


def _registered_under(prefix: str) -> list[str]:
    """Registered files at or below folder ``prefix`` (all of them for an empty prefix)."""
    if not prefix:
        return sorted(_BY_FILE)
    return sorted(p for p in _BY_FILE if p.startswith(prefix + "/"))


# ------------------------------------------------------------------------------------------
# Hashing with a verification cache keyed by (path, size, mtime_ns)
# ------------------------------------------------------------------------------------------
_CACHE_NAME = "data_checks.json"
_lock = threading.Lock()
_memory: dict[str, dict] = {}  # resolved path -> {"size", "mtime_ns", "sha256"}
_loaded_from: Path | None = None


def sha256_file(path: str | os.PathLike[str], chunk: int = 1 << 20) -> str:
    """Hex sha256 of the file at ``path`` (read in ``chunk``-byte blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk), b""):
            h.update(block)
    return h.hexdigest()


def _cache_file() -> Path:
    return cache_dir() / _CACHE_NAME


def _load_disk_cache() -> None:
    """Merge ``data_checks.json`` into memory (once per cache location). Caller holds the lock."""
    global _loaded_from
    target = _cache_file()
    if _loaded_from == target:
        return
    _memory.clear()
    _loaded_from = target
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, OSError):
        return  # no cache yet, or an unreadable one: it is rebuilt as files are hashed
    if isinstance(data, dict):
        for key, entry in data.get("files", {}).items():
            if isinstance(entry, dict) and {"size", "mtime_ns", "sha256"} <= entry.keys():
                _memory[key] = entry


def _save_disk_cache() -> None:
    """Write the in-memory results to ``data_checks.json`` atomically. Caller holds the lock."""
    from sumeval.cache import atomic_write_json

    target = _cache_file()
    # merge with what another process may have written meanwhile; ours wins on conflicts
    try:
        on_disk = json.loads(target.read_text(encoding="utf-8")).get("files", {})
        if not isinstance(on_disk, dict):
            on_disk = {}
    except (FileNotFoundError, ValueError, OSError, AttributeError):
        on_disk = {}
    merged = {**on_disk, **_memory}
    try:
        atomic_write_json(target, {"version": 1, "files": merged}, indent=1)
    except OSError:
        pass  # a read-only cache folder only costs re-hashing next time


def clear_verification_cache(disk: bool = False) -> None:
    """Forget the remembered hashes (in memory; also ``data_checks.json`` when ``disk``)."""
    global _loaded_from
    with _lock:
        _memory.clear()
        _loaded_from = None
        if disk:
            _cache_file().unlink(missing_ok=True)


def _actual_sha256(path: Path, save: bool = True) -> str:
    """sha256 of ``path``, reusing a remembered hash when its size and mtime_ns are unchanged.

    A new hash is remembered in memory and, when ``save``, written to ``data_checks.json``.
    """
    path = path.resolve()
    st = path.stat()
    key = str(path)
    with _lock:
        _load_disk_cache()
        entry = _memory.get(key)
        if entry and entry["size"] == st.st_size and entry["mtime_ns"] == st.st_mtime_ns:
            return entry["sha256"]
    digest = sha256_file(path)
    after = path.stat()
    if (after.st_size, after.st_mtime_ns) != (st.st_size, st.st_mtime_ns):
        return digest  # changed while being read: report it, remember nothing
    with _lock:
        _load_disk_cache()
        _memory[key] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest}
        if save:
            _save_disk_cache()
    return digest


# ------------------------------------------------------------------------------------------
# Locating and verifying
# ------------------------------------------------------------------------------------------
def _how_to_obtain(relpath: str) -> str:
    """Where to get ``relpath``: its data set's source, or a note that it is not registered."""
    name = _BY_FILE.get(relpath)
    if name is not None:
        return f"it belongs to data set {name!r}: {DATASETS[name].how_to_obtain()}"
    for d in DATASETS.values():
        if any(p.startswith(relpath + "/") for p in d.files):
            return f"it is a folder of data set {d.name!r}: {d.how_to_obtain()}"
    owners = [d for d in DATASETS.values()
              if any(relpath.startswith(folder + "/") for folder in d.folders)]
    note = ("it is not a registered data file (a user's own file: put it in one of these "
            "folders, or add its folder to $SUMEVAL_DATA)")
    if owners:
        note += "; its folder holds data set(s) " + ", ".join(
            f"{d.name!r} ({d.how_to_obtain()})" for d in owners)
    return note


def _sentence(text: str) -> str:
    """``text`` with its first letter upper-cased (unlike ``str.capitalize``, keeps the rest)."""
    return text[:1].upper() + text[1:]


def _check(relpath: str, path: Path) -> str:
    """Verify registered file ``relpath`` found at ``path``; return its sha256 or raise."""
    want_sha, want_size = DATASETS[_BY_FILE[relpath]].files[relpath]
    actual = _actual_sha256(path)
    if actual != want_sha:
        size = path.stat().st_size
        raise DataNotFoundError(
            f"data file {relpath!r} at {path} does not match its recorded checksum: "
            f"expected sha256 {want_sha} ({want_size} bytes), actual sha256 {actual} "
            f"({size} bytes). The copy is corrupt, truncated or a different version: replace it "
            f"with the original ({_how_to_obtain(relpath)}), or remove it so that the next "
            "folder of the data search path is used."
        )
    return actual


def _not_found(relpath: str, places: list[Path]) -> DataNotFoundError:
    searched = "; ".join(str(p / relpath) for p in places)
    return DataNotFoundError(
        f"data file {relpath!r} not found; searched, in order: {searched}. "
        f"{_sentence(_how_to_obtain(relpath))}. Put a copy under one of these folders, or set "
        f"$SUMEVAL_DATA to the folder that holds {relpath!r} (several folders may be joined "
        f"with {os.pathsep!r})."
    )


def locate(relpath: str | os.PathLike[str], verify: bool = True) -> Path:
    """Path of data file (or folder) ``relpath``, found in :func:`sumeval.paths.data_search_path`.

    Parameters
    ----------
    relpath : str
        Path relative to a data folder, e.g. ``"summeval/summeval_pairs_1600.jsonl"`` or
        ``"corpora/wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz"``. A folder
        (``"realsumm/raw"``) is returned from the first data folder that has it.
    verify : bool
        Check registered files against their recorded sha256 (cached by path, size and
        mtime_ns, so only the first call per file version hashes it). For a folder, every
        registered file below it must be present there and match. Unregistered files are
        returned unverified.

    Returns
    -------
    pathlib.Path
        The absolute path in the first data folder that holds ``relpath``.

    Raises
    ------
    DataNotFoundError
        When no data folder holds ``relpath`` (the message names the file, every place searched
        and where to obtain it), or when the first copy found does not match its checksum (the
        message names the file, the expected and actual sha256 and the fix).
    """
    key = _norm(relpath)
    places = data_search_path()
    for root in places:
        path = root / key
        if not path.exists():
            continue
        if verify:
            if path.is_dir():
                for sub in _registered_under(key):
                    sub_path = root / sub
                    if not sub_path.is_file():
                        raise DataNotFoundError(
                            f"data folder {key!r} at {path} is incomplete: registered file "
                            f"{sub!r} is missing there. {_sentence(_how_to_obtain(sub))}."
                        )
                    _check(sub, sub_path)
            elif key in _BY_FILE:
                _check(key, path)
        with _lock:
            _accessed[key] = path
        return path
    raise _not_found(key, places)


_accessed: dict[str, Path] = {}  # relpath -> path, for every successful locate() in this process


def accessed() -> dict[str, str]:
    """``{relpath: sha256}`` of every data file located in this process, for run manifests.

    A located folder contributes each file below it (``folder/child`` keys). Hashes come from
    the verification cache; files located without verification are hashed now (once).
    """
    with _lock:
        seen = dict(_accessed)
    out: dict[str, str] = {}
    for key, path in sorted(seen.items()):
        if not path.exists():
            continue
        if path.is_dir():
            for sub in sorted(p for p in path.rglob("*") if p.is_file()):
                out[f"{key}/{sub.relative_to(path).as_posix()}"] = _actual_sha256(sub, save=False)
        else:
            out[key] = _actual_sha256(path, save=False)
    with _lock:
        _load_disk_cache()
        _save_disk_cache()
    return out


# ------------------------------------------------------------------------------------------
# Reports and manifests
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FileCheck:
    """Verification of one registered file.

    ``status`` is ``"ok"``, ``"missing"`` or ``"mismatch"``; ``path`` is where it was found
    (None when missing); ``actual_sha256`` is None when missing.
    """

    dataset: str
    relpath: str
    status: str
    path: Path | None
    expected_sha256: str
    actual_sha256: str | None
    size: int

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def error(self) -> str:
        """What is wrong and how to fix it ("" when ok)."""
        if self.status == "missing":
            return (f"not found in any data folder; {_how_to_obtain(self.relpath)}")
        if self.status == "mismatch":
            return (f"{self.path}: expected sha256 {self.expected_sha256}, actual "
                    f"{self.actual_sha256}; replace it ({_how_to_obtain(self.relpath)})")
        return ""

    def as_dict(self) -> dict:
        """The fields plus ``ok`` and ``error``, ``path`` as a string (or None)."""
        return {"dataset": self.dataset, "relpath": self.relpath, "status": self.status,
                "ok": self.ok, "error": self.error,
                "path": None if self.path is None else str(self.path),
                "expected_sha256": self.expected_sha256, "actual_sha256": self.actual_sha256,
                "size": self.size}


@dataclass
class VerifyReport:
    """What :func:`verify_all` found: one :class:`FileCheck` per registered file."""

    checks: list[FileCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every checked file is present and matches."""
        return all(c.status == "ok" for c in self.checks)

    @property
    def problems(self) -> list[FileCheck]:
        """The checks that are not ``"ok"``."""
        return [c for c in self.checks if c.status != "ok"]

    def __iter__(self):
        """One dict per file (:meth:`FileCheck.as_dict`: relpath, status, ok, error, ...)."""
        return (c.as_dict() for c in self.checks)

    def __len__(self) -> int:
        return len(self.checks)

    def to_frame(self):
        """The checks as a pandas DataFrame (one row per file, :meth:`FileCheck.as_dict`)."""
        import pandas as pd

        return pd.DataFrame([c.as_dict() for c in self.checks])

    def summary(self) -> dict[str, dict[str, int]]:
        """``{dataset: {status: count}}``."""
        out: dict[str, dict[str, int]] = {}
        for c in self.checks:
            out.setdefault(c.dataset, {}).setdefault(c.status, 0)
            out[c.dataset][c.status] += 1
        return out

    def __str__(self) -> str:
        lines = []
        for name, counts in self.summary().items():
            n = sum(counts.values())
            state = "ok" if counts.get("ok", 0) == n else ", ".join(
                f"{v} {k}" for k, v in sorted(counts.items()))
            lines.append(f"{name:15s} {n:3d} files  {state}")
        for c in self.problems:
            where = c.path if c.path is not None else "not found"
            lines.append(f"  {c.status}: {c.relpath} ({where})")
        if self.problems:
            names = sorted({c.dataset for c in self.problems})
            lines.extend(f"  {n}: {DATASETS[n].how_to_obtain()}" for n in names)
        return "\n".join(lines)


def verify_all(dataset: str | Iterable[str] | None = None, progress: bool = False) -> VerifyReport:
    """Check every registered file (of ``dataset``, one name or several; all by default).

    Never raises for missing or corrupt files: they are reported. Hashing is cached as in
    :func:`locate`, so a second call only ``stat``s the files.
    """
    if dataset is None:
        names = datasets()
    elif isinstance(dataset, str):
        names = [info(dataset).name]
    else:
        names = [info(d).name for d in dataset]
    todo = [(n, p) for n in names for p in files(n)]
    if progress:
        from tqdm.auto import tqdm

        todo = tqdm(todo, desc="verifying data", unit="file")
    report = VerifyReport()
    places = data_search_path()
    for name, relpath in todo:
        want_sha, size = DATASETS[name].files[relpath]
        path = next((root / relpath for root in places if (root / relpath).exists()), None)
        if path is None:
            report.checks.append(FileCheck(name, relpath, "missing", None, want_sha, None, size))
            continue
        actual = _actual_sha256(path, save=False)
        status = "ok" if actual == want_sha else "mismatch"
        report.checks.append(FileCheck(name, relpath, status, path, want_sha, actual, size))
    with _lock:
        _load_disk_cache()
        _save_disk_cache()
    return report


def checksums(relpaths: Iterable[str | os.PathLike[str]], verify: bool = True) -> dict[str, str]:
    """``{relpath: sha256}`` of the data files a run read, for its manifest.

    Registered files are located and (with ``verify``) checked, so a corrupt file raises
    :class:`DataNotFoundError`. Unregistered files get their actual sha256. A folder expands
    into every file below it (``relpath/child`` keys). Hashes are cached as in :func:`locate`.
    """
    out: dict[str, str] = {}
    for rel in relpaths:
        key = _norm(rel)
        path = locate(key, verify=verify)
        if path.is_dir():
            for sub in sorted(p for p in path.rglob("*") if p.is_file()):
                out[f"{key}/{sub.relative_to(path).as_posix()}"] = _actual_sha256(sub, save=False)
        else:
            out[key] = _actual_sha256(path, save=False)
    with _lock:
        _load_disk_cache()
        _save_disk_cache()
    return out
