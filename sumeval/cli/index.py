"""``sumeval index build | list``: the retrieval indexes of SERA / GeSERA (:mod:`sumeval.retrieval.index`).

    sumeval index build --corpus wikipedia --size 10000 [--seed 0 --backend sparse --rebuild]
    sumeval index list

The options: ``sumeval index --help``.
"""
from __future__ import annotations

import argparse

from sumeval.errors import InputError

__all__ = ["cmd_index", "add_commands"]


def cmd_index(args: argparse.Namespace) -> int:
    from sumeval.retrieval import index as idx

    if args.action == "list":
        rows = idx.list_indexes()
        if not rows:
            print("no indexes built yet (sumeval index build --corpus wikipedia --size 10000)")
        for r in rows:
            docs = f"{r['n']:>7} of {r['n_corpus']} docs" if r["n"] is not None else f"{'?':>7} docs"
            print(f"{r['name']:<40} {docs}  {r['state']}  {r['folder']}")
        return 0
    if not args.corpus:
        raise InputError("index build needs --corpus NAME (or a folder / JSONL) and --size N")
    if args.size is None:
        raise InputError("index build needs --size N (the number of documents in the index)")
    if args.size < 1:
        raise InputError(f"--size {args.size}: an index holds at least one document; give a positive number")
    if args.seed < 0:
        raise InputError(f"--seed {args.seed}: a seed is a non-negative integer (numpy's default_rng)")
    from sumeval.cli.progress import show_progress

    built = idx.build_index(args.corpus, args.size, args.seed, args.backend, rebuild=args.rebuild,
                            progress=show_progress())  # on a terminal, not in a pipe or log
    print(f"index {built.name} ready: {len(built.ids)} documents at {built.folder}")
    return 0


def add_commands(sub) -> None:
    """Add ``index`` to the ``sumeval`` command's sub-parsers ``sub``."""
    ix = sub.add_parser("index", help="build or list retrieval indexes (SERA / GeSERA)")
    ix.add_argument("action", choices=["build", "list"])
    ix.add_argument("--corpus", help="wikipedia-2015, wikipedia-2018, wikipedia, reuters21578, 20newsgroups, "
                    "bbc2005, news, a folder of .txt files or a JSONL")
    ix.add_argument("--size", type=int, help="documents in the index (the first N of a seeded shuffle)")
    ix.add_argument("--seed", type=int, default=0, help="seed of the shuffle (default 0)")
    ix.add_argument("--backend", choices=["sparse", "whoosh"], default="sparse")
    ix.add_argument("--rebuild", action="store_true", help="rebuild even if cached")
    ix.set_defaults(func=cmd_index)
