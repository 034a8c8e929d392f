"""The head of the sub-commands that read a judgments data set (``sumeval meta-eval``,
``sumeval alt-test``): the sub-parser, its data set argument and its human columns."""
from __future__ import annotations

import argparse

__all__ = ["add_judgments_parser"]


def add_judgments_parser(subparsers, name: str, *, help: str, description: str, data_help: str,
                         human_help: str, optional: bool = False) -> argparse.ArgumentParser:
    """Add sub-command ``name`` with the positional ``data`` and the required ``--human COL ...``;
    ``optional``: both may be left out (``sumeval meta-eval --dataset A B`` names the sets instead,
    and the command says what is missing)."""
    parser = subparsers.add_parser(name, help=help, description=description)
    if optional:
        parser.add_argument("data", nargs="?", default=None, help=data_help)
    else:
        parser.add_argument("data", help=data_help)
    parser.add_argument("--human", nargs="+", action="extend", required=not optional, metavar="COL", help=human_help)
    return parser
