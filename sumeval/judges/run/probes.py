"""Probes of a judge sumeval can run (``sumeval judge --probe ...``): is it consistent with itself,
does it prefer a position, does it reward padding?

Each probe makes its own calls through :func:`sumeval.judges.run.runner.run_judge` (so they are cached
as every call is: a rerun makes none) and reads them with the run's own scoring rule; an unparsable
answer stays a missing value and is counted.

- **Self-consistency** (:func:`self_consistency`): the same calls repeated with K seeds; agreement of
  the repeats as raters.
- **Position swap** (:func:`position_consistency`): a pairwise template asked about two summaries of
  one document in both orders.
- **Padding** (:func:`padding_effect`): the same summaries with neutral sentences added: does the
  score rise?
"""
from __future__ import annotations

import math
import re
from typing import Any, Mapping, Sequence

import numpy as np

from sumeval.errors import InputError

__all__ = ["PADDING", "PAIR_FIELDS", "PROBES", "padded_records", "padding_effect", "pair_records", "parse_probes",
           "position_consistency", "self_consistency", "swap_pairs"]

#: the probes, by the names ``--probe`` takes
PROBES = ("self-consistency:K", "position-swap", "padding")
#: the neutral sentences the padding probe adds to each summary: they say nothing about any article
#: (no fact, no claim, no judgement), so a judge that scores the padded summary higher rewards length
PADDING = "This is a summary of the article. It is written in English."
#: the fields a pairwise template gets besides the document's own
PAIR_FIELDS = ("summary_a", "summary_b", "system_a", "system_b")


def parse_probes(values: Sequence[str]) -> dict[str, Any]:
    """``["self-consistency:3", "padding"]`` -> ``{"self-consistency": 3, "padding": True}``."""
    out: dict[str, Any] = {}
    for v in values:
        t = v.strip().lower()
        m = re.fullmatch(r"self-consistency:(\d+)", t)
        if m and int(m.group(1)) >= 2:
            out["self-consistency"] = int(m.group(1))
        elif t in ("position-swap", "padding"):
            out[t] = True
        else:
            raise InputError(f"--probe {v!r}: give {', '.join(PROBES)} (K >= 2 repeats, e.g. self-consistency:5)")
    return out


def self_consistency(values: np.ndarray) -> dict[str, Any]:
    """Agreement of a judge with itself over K repeats of the same calls (different seeds).

    ``values``: shape (items, K), NaN where a repeat's answer did not parse. Returns:

    - ``alpha``: Krippendorff's alpha, interval level, with the repeats as the raters
      (:func:`sumeval.stats.agreement.krippendorff_alpha`; Krippendorff 2011, "Computing Krippendorff's
      alpha-reliability", alpha = 1 - D_o / D_e with the interval difference (c - k)^2). 1 = the repeats always
      agree; NaN when the repeats
      give one value throughout (nothing to disagree about, e.g. a deterministic server at temperature 0).
    - ``exact``: the share of items (with at least 2 parsed repeats) whose parsed repeats are all equal.
    - ``mean_sd``: the mean over items of the repeats' standard deviation (ddof 0).

    LLM judges' scores vary between samples of the same prompt (Stureborg, Alikaniotis & Suhara 2024,
    "Large Language Models are Inconsistent and Biased Evaluators", arXiv:2405.01724): this says how much.

    >>> r = self_consistency(np.array([[3., 3.], [4., 2.], [5., 5.]]))
    >>> r["exact"], round(r["mean_sd"], 4)
    (0.6666666666666666, 0.3333)
    """
    from sumeval.stats.agreement import krippendorff_alpha

    v = np.asarray(values, dtype=float)
    if v.ndim != 2 or v.shape[1] < 2:
        raise InputError(f"self-consistency needs items x repeats (>= 2 repeats), got shape {v.shape}")
    parsed = (~np.isnan(v)).sum(axis=1)
    pairable = parsed >= 2
    sub = v[pairable]
    equal = [bool(np.all(row[~np.isnan(row)] == row[~np.isnan(row)][0])) for row in sub]
    return {"repeats": int(v.shape[1]), "items": int(v.shape[0]), "items_pairable": int(pairable.sum()),
            "alpha": krippendorff_alpha(v, "interval") if pairable.any() else math.nan,
            "exact": float(np.mean(equal)) if equal else math.nan,
            "mean_sd": float(np.mean(np.nanstd(sub, axis=1))) if len(sub) else math.nan}


def padded_records(records: Sequence[Mapping[str, Any]], padding: str = PADDING) -> list[dict[str, Any]]:
    """The records with ``padding`` appended to each summary (after one space)."""
    out = []
    for rec in records:
        s = rec.get("summary")
        if not isinstance(s, str):
            raise InputError(f"the padding probe pads the 'summary' field, which record (doc_id {rec.get('doc_id')!r}, "
                             f"system {rec.get('system')!r}) lacks; give data with a summary column")
        out.append({**rec, "summary": s.rstrip() + " " + padding})
    return out


def padding_effect(original: np.ndarray, padded: np.ndarray) -> dict[str, Any]:
    """Does the judge's score rise when content-free sentences are added to a summary?

    ``original``, ``padded``: each item's score without and with :data:`PADDING` (NaN: unparsable;
    an item missing on either side is left out and counted). Returns the mean change (padded minus
    original), the shares of items whose score rose / fell / stayed, and the two-sided Wilcoxon
    signed-rank p-value of the changes (zero changes dropped, scipy's ``wilcoxon``; NaN when every
    change is 0 or fewer than 1 item changed).

    A judge that rewards length with nothing added is verbosity-biased (Zheng et al. 2023, "Judging
    LLM-as-a-Judge with MT-Bench and Chatbot Arena", NeurIPS Datasets and Benchmarks, Sec. 3.3,
    "verbosity bias", their "repetitive list" attack: longer answers with no new information).

    >>> r = padding_effect(np.array([3., 4., 2., np.nan]), np.array([4., 4., 3., 5.]))
    >>> r["items"], r["skipped"], r["rose"], r["fell"], r["mean_change"]
    (3, 1, 0.6666666666666666, 0.0, 0.6666666666666666)
    """
    a, b = np.asarray(original, dtype=float), np.asarray(padded, dtype=float)
    ok = ~(np.isnan(a) | np.isnan(b))
    d = b[ok] - a[ok]
    p = math.nan
    if np.count_nonzero(d):
        from scipy.stats import wilcoxon

        p = float(wilcoxon(d[d != 0]).pvalue)
    n = int(ok.sum())
    return {"items": n, "skipped": int((~ok).sum()), "mean_change": float(d.mean()) if n else math.nan,
            "rose": float((d > 0).mean()) if n else math.nan, "fell": float((d < 0).mean()) if n else math.nan,
            "same": float((d == 0).mean()) if n else math.nan, "p_value": p, "padding": PADDING}


def swap_pairs(records: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """Pairs of rows to compare: each row with the next row of the same document (``doc_id``), in
    the data's order (a document's k summaries give k - 1 pairs)."""
    return [(i, i + 1) for i in range(len(records) - 1) if records[i].get("doc_id") == records[i + 1].get("doc_id")]


def pair_records(records: Sequence[Mapping[str, Any]], pairs: Sequence[tuple[int, int]], swapped: bool) -> list[dict]:
    """A pairwise template's records: the first row's fields (the document's) and ``summary_a``,
    ``summary_b``, ``system_a``, ``system_b`` (the pair in order, or swapped)."""
    out = []
    for i, j in pairs:
        a, b = (records[j], records[i]) if swapped else (records[i], records[j])
        out.append({**records[i], "summary": None, "system": f"{records[i].get('system')}|{records[j].get('system')}",
                    "summary_a": a.get("summary"), "summary_b": b.get("summary"),
                    "system_a": a.get("system"), "system_b": b.get("system")})
    return out


def position_consistency(in_order: np.ndarray, swapped: np.ndarray) -> dict[str, Any]:
    """Position bias of a pairwise judge: each pair asked as (A, B) and as (B, A).

    A pairwise template's labels are 1 (the first summary is better) and 2 (the second); a score is
    read as a preference for the first position below 1.5, for the second above 1.5 (``logprobs``
    scoring gives values between), no preference at 1.5 or when missing. Per pair, as Zheng et al.
    2023 ("Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena", NeurIPS Datasets and Benchmarks,
    Sec. 3.3 "position bias", Table 2) count them: **consistent** (the same summary wins in both
    orders), **biased toward first** (the first position wins both times), **biased toward second**,
    and **other** (a tie or an unparsable answer in either order). Returns the shares and the count.

    >>> r = position_consistency(np.array([1., 1., 2., 2., np.nan]), np.array([2., 1., 2., 1., 1.]))
    >>> r["consistent"], r["first"], r["second"], r["other"]
    (0.4, 0.2, 0.2, 0.2)
    """
    a, b = np.asarray(in_order, dtype=float), np.asarray(swapped, dtype=float)

    def side(v: float) -> int:
        return 0 if math.isnan(v) or v == 1.5 else (1 if v < 1.5 else 2)

    verdicts = [verdict(side(x), side(y)) for x, y in zip(a, b)]
    n = len(verdicts)
    share = {k: (verdicts.count(k) / n if n else math.nan) for k in ("consistent", "first", "second", "other")}
    return {"pairs": n, **share, "verdicts": verdicts}


def verdict(first: int, second: int) -> str:
    """One pair's verdict from the preferred position in order (``first``) and swapped (``second``):
    1 / 2 a position, 0 none."""
    if not first or not second:
        return "other"
    if first != second:
        return "consistent"
    return "first" if first == 1 else "second"


def run_probes(probes: Mapping[str, Any], records: Sequence[Mapping[str, Any]], templates: Mapping[str, Any],
               scoring, params: Mapping[str, Any], backend, scores: Mapping[str, np.ndarray], *,
               pair_templates: Mapping[str, Any] | None = None, concurrency: int = 4, offline: bool = False,
               progress: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run ``probes`` (:func:`parse_probes`) for the judge of ``templates`` / ``scoring`` / ``params``
    on ``records``; ``scores`` are the judge's own scores of the run (quality -> per row).

    Returns ``(frames, summaries)``: per probe a per-item table (pandas) and a summary per quality.
    """
    import pandas as pd

    from sumeval.judges.run.runner import run_judge

    def run(recs, tpls, p, sc=scoring):
        return run_judge(recs, tpls, sc, p, backend, concurrency=concurrency, offline=offline, progress=progress)

    ids = [{"doc_id": r.get("doc_id"), "system": r.get("system")} for r in records]
    frames: dict[str, Any] = {}
    summaries: dict[str, Any] = {}
    if "self-consistency" in probes:
        k = int(probes["self-consistency"])
        base = int(params.get("seed") or 0)
        # repeat r: the run's own calls with seeds base + r * n ... (a samples:N run's repeat 0 is the run)
        reps = [run(records, templates, {**params, "seed": base + r * scoring.n}) for r in range(k)]
        rows, summary = [], {}
        for q in templates:
            v = np.column_stack([rep.scores[q] for rep in reps])
            summary[q] = {**self_consistency(v), "seeds": [base + r * scoring.n for r in range(k)],
                          "temperature": params.get("temperature")}
            rows += [{**ids[i], "quality": q, **{f"repeat_{r}": v[i, r] for r in range(k)}} for i in range(len(ids))]
        frames["self_consistency"], summaries["self-consistency"] = pd.DataFrame(rows), summary
    if "padding" in probes:
        padded = run(padded_records(records), templates, params)
        rows, summary = [], {}
        for q in templates:
            summary[q] = padding_effect(scores[q], padded.scores[q])
            rows += [{**ids[i], "quality": q, "score": scores[q][i], "padded_score": padded.scores[q][i],
                      "change": padded.scores[q][i] - scores[q][i]} for i in range(len(ids))]
        frames["padding"], summaries["padding"] = pd.DataFrame(rows), summary
    if "position-swap" in probes:
        if not pair_templates:
            raise InputError("--probe position-swap needs a pairwise template (--pair-template FILE.jinja: fields "
                             "summary_a, summary_b, system_a, system_b and the document's; labels 1 = the first "
                             "summary is better, 2 = the second)")
        pairs = swap_pairs(records)
        if not pairs:
            raise InputError("--probe position-swap: no two rows of one document among the rows judged (pairs are "
                             "a document's consecutive summaries); raise --limit")
        ab = run(pair_records(records, pairs, False), pair_templates, params)
        ba = run(pair_records(records, pairs, True), pair_templates, params)
        rows, summary = [], {}
        for q in pair_templates:
            r = position_consistency(ab.scores[q], ba.scores[q])
            verdicts = r.pop("verdicts")
            summary[q] = r
            rows += [{"doc_id": records[i].get("doc_id"), "quality": q, "system_a": records[i].get("system"),
                      "system_b": records[j].get("system"), "in_order": ab.scores[q][n], "swapped": ba.scores[q][n],
                      "verdict": verdicts[n]} for n, (i, j) in enumerate(pairs)]
        frames["position_swap"], summaries["position-swap"] = pd.DataFrame(rows), summary
    return frames, summaries
