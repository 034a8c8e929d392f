"""Errors raised by sumeval.

Every message names the offending value, where it was found, and what to do about it.
"""
from __future__ import annotations


class SumevalError(Exception):
    """Base class of sumeval's own errors (bad input, missing data, failed runs)."""


class InputError(SumevalError, ValueError):
    """Bad user input: a malformed file, a missing field, an unknown name."""


class DataNotFoundError(SumevalError, FileNotFoundError):
    """A data file is missing or does not match its recorded checksum."""


class ModelNotFoundError(SumevalError, OSError):
    """A model cannot be found offline."""


class NotebookFailed(SumevalError, RuntimeError):
    """A study notebook raised an error while being executed by the runner."""
