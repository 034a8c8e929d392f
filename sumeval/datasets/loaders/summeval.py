"""SummEval's three experts, individually, for all four qualities, and six LLM judges of the same
items, as released with the alternative annotator test (Calderon, Reichart & Dror, ACL 2025).

Files (``summeval_annotators/``, from nitaytech/AltTest 18428b1f)::

    human_annotations.json   {"e0" | "e1" | "e2": {"<doc_id>__<system>__<quality>": 1..5}}
    llm_annotations.json     {judge: {"<doc_id>__<system>__<quality>": 1..5}}, 6 judges

Each rater scores all 6,400 items (1,600 SummEval summaries x 4 qualities). ``e0, e1, e2`` become
annotator columns ``<quality>/expert_1 .. /expert_3`` of the built-in data set ``summeval``: the
names SummEval already had for SummaC's 100 consistency pairs, which these extend to every pair
and quality (on those 100 pairs ``e0, e1, e2`` are SummaC's experts 1, 2, 3 - checked). The
release lists the experts in a fixed order, as AltTest reads them; SummEval does not say that
position ``k`` is the same person on every summary, so read ``expert_k`` as a slot. Their mean is
SummEval's ``expert_mean`` exactly, on all 6,400 (checked at every load).

The judges become precomputed measure columns ``<judge>.<quality>`` (e.g. ``gpt-4o.coherence``):
a name without ``/`` (which marks annotator columns in a judgments file, so an exported SummEval
reads back), ``:`` (orientation), ``#``, ``[`` or ``,`` (measure syntax), usable as
``--measures gpt-4o.coherence``. They are *opt-in* (:attr:`Judgments.opt_in_measures`): a study
that takes "the data set's measure columns" by default does not take them, so every SummEval
number of today's studies stays where it is. AltTest's preprocessing set an unparsable or
out-of-range answer to 3; the prompts are not in the snapshot.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from sumeval.datasets.loaders.build import FIX, expect, read_json
from sumeval.errors import InputError

__all__ = ["EXPERTS_FILE", "JUDGES_FILE", "EXPERTS", "JUDGES", "expert_column", "judge_column",
           "load_summeval_experts", "load_summeval_judges", "summeval_judgments"]

EXPERTS_FILE = "summeval_annotators/human_annotations.json"
JUDGES_FILE = "summeval_annotators/llm_annotations.json"
#: the experts' keys in the release, in the order of the annotator columns expert_1..3
EXPERTS: tuple[str, ...] = ("e0", "e1", "e2")
#: the LLM judges of the release, in the order of their columns
JUDGES: tuple[str, ...] = ("gemini_flash", "gemini_pro", "gpt-4o", "gpt-4o-mini", "llama-31", "mistral-v03")
N_ITEMS = 6400


def expert_column(quality: str, k: int) -> str:
    """``("coherence", 1) -> "coherence/expert_1"``: the annotator column of expert ``k`` (1-3)."""
    return f"{quality}/expert_{k}"


def judge_column(judge: str, quality: str) -> str:
    """``("gpt-4o", "coherence") -> "gpt-4o.coherence"``: the measure column of an LLM judge."""
    return f"{judge}.{quality}"


def _rater_scores(path: Path, data: Any, raters: Sequence[str], pairs: set[tuple[str, str]],
                  qualities: Sequence[str]) -> dict[str, dict[tuple[str, str, str], int]]:
    """``{rater: {(doc_id, system, quality): score}}`` of one release file, checked: exactly the
    ``raters``, each scoring all 6,400 items of ``pairs`` x ``qualities`` with an integer 1-5."""
    if not isinstance(data, dict) or sorted(data) != sorted(raters):
        got = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise InputError(f"{path}: raters {got}, expected {sorted(raters)}; {FIX}")
    want = {(d, s, q) for d, s in pairs for q in qualities}
    out = {}
    for rater in raters:
        scores: dict[tuple[str, str, str], int] = {}
        for key, value in data[rater].items():
            parts = tuple(key.split("__"))
            if len(parts) != 3 or parts not in want:
                raise InputError(f"{path}: {rater}: key {key!r} is not '<doc_id>__<system>__<quality>' of a "
                                 f"SummEval pair and quality; {FIX}")
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
                raise InputError(f"{path}: {rater}: {key!r} = {value!r} is not an integer 1-5; {FIX}")
            scores[parts] = value
        expect(path, f"the number of items {rater} scored", len(scores), N_ITEMS)
        out[rater] = scores
    return out


def _wide(scores: Mapping[str, Mapping[tuple[str, str, str], int]], pairs: pd.DataFrame,
          columns: Mapping[tuple[str, str], str]) -> pd.DataFrame:
    """``pairs[["doc_id", "system"]]`` plus one float64 column per ``(rater, quality)`` of ``columns``."""
    out = pairs[["doc_id", "system"]].copy()
    keys = list(zip(pairs["doc_id"], pairs["system"]))
    for (rater, quality), name in columns.items():
        out[name] = [float(scores[rater][(d, s, quality)]) for d, s in keys]
    return out


def load_summeval_experts(pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The 3 experts' scores, one row per SummEval pair (the order of ``pairs``, default
    :func:`~sumeval.datasets.summeval.load_summeval`).

    Returns:
        pandas.DataFrame, 1,600 rows: ``doc_id, system`` and ``<quality>/expert_k`` (float64, 1-5) for
        the 4 qualities (:data:`~sumeval.datasets.summeval.QUALITIES` order) and k = 1, 2, 3 (``e0, e1,
        e2``).
    """
    from sumeval.datasets.summeval import QUALITIES, load_summeval

    pairs = load_summeval() if pairs is None else pairs
    path, data = read_json(EXPERTS_FILE)
    scores = _rater_scores(path, data, EXPERTS, set(zip(pairs["doc_id"], pairs["system"])), QUALITIES)
    cols = {(e, q): expert_column(q, k) for q in QUALITIES for k, e in enumerate(EXPERTS, 1)}
    return _wide(scores, pairs, cols)


def load_summeval_judges(pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The 6 LLM judges' scores, one row per SummEval pair (the order of ``pairs``).

    Returns:
        pandas.DataFrame, 1,600 rows: ``doc_id, system`` and ``<judge>.<quality>`` (float64, 1-5) for
        the judges of :data:`JUDGES` and the 4 qualities.
    """
    from sumeval.datasets.summeval import QUALITIES, load_summeval

    pairs = load_summeval() if pairs is None else pairs
    path, data = read_json(JUDGES_FILE)
    scores = _rater_scores(path, data, JUDGES, set(zip(pairs["doc_id"], pairs["system"])), QUALITIES)
    return _wide(scores, pairs, {(j, q): judge_column(j, q) for j in JUDGES for q in QUALITIES})


def summeval_judgments():
    """The built-in data set ``summeval``: :func:`~sumeval.datasets.summeval.load_summeval`'s 1,600
    rows and columns unchanged, then ``consistency/expert_1..3`` (the columns it always had, now on
    every pair), the other qualities' ``/expert_1..3``, and the 24 opt-in judge columns.

    Raises:
        InputError: when the experts' mean differs from a human column on any of the 6,400 scores, or the experts
            differ from SummaC's on its 100 pairs.
    """
    from sumeval.datasets import summeval as se
    from sumeval.datasets.loaders.build import make_judgments

    base = se.load_summeval()
    experts = load_summeval_experts(base)
    judges = load_summeval_judges(base)
    for q in se.QUALITIES:
        cols = [expert_column(q, k) for k in (1, 2, 3)]
        mean = (experts[cols[0]] + experts[cols[1]] + experts[cols[2]]) / 3
        bad = mean.to_numpy() != base[q].to_numpy()
        if bad.any():
            i = int(bad.argmax())
            raise InputError(f"{EXPERTS_FILE}: the experts' mean {q} of (doc {base.at[i, 'doc_id']!r}, system "
                             f"{base.at[i, 'system']!r}) is {mean[i]!r}, {se.PAIRS_FILE} has {base.at[i, q]!r} "
                             f"({int(bad.sum())} of {len(bad)} differ); {FIX}")
    summac = se.load_summac_consistency_experts(wide=True).merge(experts, on=["doc_id", "system"])
    for k in (1, 2, 3):
        differ = int((summac[f"expert_{k}"] != summac[expert_column("consistency", k)]).sum())
        expect(EXPERTS_FILE, f"the number of SummaC pairs whose expert {k} differs from e{k - 1}", differ, 0)
    order = [expert_column("consistency", k) for k in (1, 2, 3)]
    order += [c for c in experts.columns[2:] if c not in order]
    frame = pd.concat([base, experts[order], judges.iloc[:, 2:]], axis=1)
    judge_cols = tuple(judges.columns[2:])
    return make_judgments(
        frame, name="summeval", relpaths=[se.PAIRS_FILE, se.DOCS_FILE, se.SUMMAC_FILE, EXPERTS_FILE, JUDGES_FILE],
        humans=se.QUALITIES, annotators={q: [expert_column(q, k) for k in (1, 2, 3)] for q in se.QUALITIES},
        measures=judge_cols, opt_in=judge_cols)
