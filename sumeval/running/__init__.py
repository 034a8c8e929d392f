"""Running the study notebooks: one run, every study, a grid of runs, and what a run records.

Modules (import them by their own path; nothing is handed on here):

- :mod:`sumeval.running.study_params` - which notebooks are studies, their parameter sets, and the
  checked parameters of a run;
- :mod:`sumeval.running.run_context` - inside a notebook: ``ctx = run_context.context("<study>")``,
  the run folder, figures, tables and ``results.json``;
- :mod:`sumeval.running.runner` - one run through papermill, its folder and manifest;
- :mod:`sumeval.running.executors` - runs in processes of their own (local or on a Dask cluster);
  the worker is ``python -m sumeval.running.executors --worker``;
- :mod:`sumeval.running.run_all` and :mod:`sumeval.running.run_report` - every study, then a report;
- :mod:`sumeval.running.sweep` - a study over a grid of parameters, gathered into one frame.

The study modules (``sumeval.studies.<study>``) are reached only through the notebooks the runner
executes, never imported here.
"""

__all__: list[str] = []
