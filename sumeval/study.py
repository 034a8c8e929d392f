"""The earlier name of :mod:`sumeval.run_context`, kept so that notebooks written with
``from sumeval import study`` and ``study.context(...)`` still run."""
from sumeval.run_context import RUN_DIR_ENV, RunContext, context  # noqa: F401

StudyContext = RunContext
