"""Run an LLM judge over a judgments data set: ``sumeval judge`` (:mod:`sumeval.cli.judge`).

- :mod:`~sumeval.judges.run.templates`: the prompts - G-Eval's four SummEval prompts (data files
  under ``prompts/geval/``, read at run time, never copied into code) or a user's Jinja template
  with the record's fields; the model's own chat template turns the messages into its prompt.
- :mod:`~sumeval.judges.run.scoring`: ``logprobs`` (G-Eval's probability-weighted score),
  ``samples:N`` (G-Eval's average of N sampled answers) and ``text`` (a strict grammar). An answer
  that does not parse is a missing value, counted and listed, never a default score.
- :mod:`~sumeval.judges.run.backends`: any OpenAI-compatible server through the official
  ``openai`` SDK, or a local model folder / GGUF file in process (transformers).
- :mod:`~sumeval.judges.run.runner`: the calls, content-addressed in the cache (a rerun makes no
  call; ``offline`` fails on a miss), the scores as ``<judge>.<quality>`` columns in the judgments
  shape, and the manifest.
- :mod:`~sumeval.judges.run.probes`: the audit probes that need calls (``--probe``): self-consistency
  over seeds, position swap of a pairwise template, padding with content-free sentences.
"""
from __future__ import annotations

from sumeval.judges.run.scoring import Scoring, expected_score, parse_leading, parse_scoring, parse_strict
from sumeval.judges.run.templates import Template, geval_template, jinja_template

__all__ = ["Scoring", "Template", "expected_score", "geval_template", "jinja_template", "parse_leading",
           "parse_scoring", "parse_strict"]
