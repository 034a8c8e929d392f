"""The earlier name of :mod:`sumeval.run_all` (``sumeval run all``) and :mod:`sumeval.run_report`,
kept so that ``from sumeval import batch`` still works; new code imports those two."""
from sumeval.run_all import RunAllResult as BatchResult  # noqa: F401
from sumeval.run_all import StudyOutcome, add_commands, add_run_all_arguments, cmd_run_all, run_all  # noqa: F401
from sumeval.run_report import write_report  # noqa: F401
