"""Newsroom's human evaluation (Grusky, Naaman & Artzi, NAACL 2018), as prepared by BARTScore
(Yuan, Neubig & Liu 2021): 60 articles x 7 systems, 4 qualities, with the 3 individual ratings
per quality as Judge-Bench converted them (Bavaresco et al. 2025).

Files::

    newsroom/newsroom_60x7.jsonl      doc_id, src, ref_summ, sys_summs{system: {sys_summ, scores{coherence,
                                      fluency, informativeness, relevance}}} (a JSONL conversion of
                                      neulab/BARTScore 248f511c SUM/Newsroom/data.pkl that keeps every key
                                      and value)
    newsroom_raters/newsroom.json     Judge-Bench's conversion (dmg-illc/JUDGE-BENCH 5a0bf500
                                      data/newsroom/newsroom.json) of lil-lab/newsroom's
                                      humaneval/newsroom-human-eval.csv: 420 instances, each with the 3
                                      individual 1-5 ratings of Informativeness, Relevance, Fluency and
                                      Coherence; no system names and no article ids

The built-in data set ``newsroom`` (420 rows, documents in file order, systems sorted): ``summary``,
``text`` (the article) and ``references`` (the Newsroom summary), all tokenised as BARTScore has
them; human columns ``coherence, fluency, informativeness, relevance``, each the mean of 3 raters
on 1-5 (multiples of 1/3) exactly as BARTScore has it; annotator columns ``<quality>/rater_1..3``
(:func:`load_newsroom_raters`); ``jb_id``, the Judge-Bench instance id, as an unused column.

The raters are **slots, not persons**: Judge-Bench keeps no worker ids, and ``rater_k`` is the
k-th of the summary's 3 rows of the AMT results file (convert.py groups the rows by (ArticleID,
System) and lists each row's rating of every quality, so ``rater_k`` is one worker across the 4
qualities of one summary, but not across summaries). The workers were 3 US "Master Workers" per
summary (lil-lab/newsroom humaneval/README.markdown); for the alternative annotator test that is
a crowd: its epsilon 0.1 (Calderon et al. 2025, Sec. 3.3).

The join (MANIFEST.md, ``newsroom_raters/``): both summaries lowercased and cut to a-z and 0-9;
a Judge-Bench summary equal to exactly one shelf summary joins it (384 instances); where several
shelf summaries are equal (28), the one whose article's first 300 normalised characters occur in
the Judge-Bench article (tags removed) joins; where two systems of one article wrote the same
words (8 instances: ids 125/126, 173/174, 384/385, 418/419) only the file order separates them:
convert.py's groupby orders by (ArticleID, System), so id = 7 x (rank of doc_id in numeric
order) + (rank of the system in :data:`SYSTEMS`) + 1. That formula is checked against the text
join for every other instance, and the mean of the 3 ratings against BARTScore's score for all
1,680 (summary, quality) pairs (within 1e-9) at every load: a disagreement is an error.
"""
from __future__ import annotations

import re

import pandas as pd

from sumeval.datasets.loaders.build import FIX, bartscore_records, expect
from sumeval.errors import InputError

__all__ = ["DATA_FILE", "RATERS_FILE", "SYSTEMS", "QUALITIES", "JB_METRICS", "N_RATERS", "rater_column",
           "load_newsroom", "load_newsroom_raters", "newsroom_judgments"]

DATA_FILE = "newsroom/newsroom_60x7.jsonl"
RATERS_FILE = "newsroom_raters/newsroom.json"
SYSTEMS: tuple[str, ...] = ("abstractive", "fragments", "lede3", "pointer_c", "pointer_n", "pointer_s", "textrank")
QUALITIES: tuple[str, ...] = ("coherence", "fluency", "informativeness", "relevance")
#: Judge-Bench's metric name of each quality
JB_METRICS: dict[str, str] = {q: q.capitalize() for q in QUALITIES}
N_DOCS = 60
N_RATERS = 3
#: MANIFEST's counts of the join: (text alone, the article decides, the id formula decides)
JOIN_COUNTS = (384, 28, 8)
N_MAJORITY = 1078


def rater_column(quality: str, k: int) -> str:
    """``("coherence", 1) -> "coherence/rater_1"``: the k-th of the 3 ratings (a slot, not a person)."""
    return f"{quality}/rater_{k}"


def load_newsroom() -> pd.DataFrame:
    """Newsroom as one frame: ``doc_id, system, summary, text, references``, the 4 qualities."""
    path, records = bartscore_records(DATA_FILE, SYSTEMS, QUALITIES)
    expect(path, "the number of articles", len(records), N_DOCS)
    rows = [{"doc_id": r["doc_id"], "system": s, "summary": r["sys_summs"][s]["sys_summ"], "text": r["src"],
             "references": [r["ref_summ"]], **{q: float(r["sys_summs"][s]["scores"][q]) for q in QUALITIES}}
            for r in records for s in SYSTEMS]
    return pd.DataFrame(rows)


def _norm(text: str) -> str:
    """Lowercased, only a-z and 0-9 (MANIFEST's normalisation for the join)."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _join(pairs: pd.DataFrame, instances: list[dict]) -> tuple[list[int], tuple[int, int, int]]:
    """The row of ``pairs`` each Judge-Bench instance joins (MANIFEST's rule, see the module docstring), and how
    many were joined by the text alone, by the article and by the id formula."""
    from sumeval.datasets.judge_bench import split_instance

    summaries = [_norm(s) for s in pairs["summary"]]
    articles = [_norm(t)[:300] for t in pairs["text"]]
    doc_rank = {d: i for i, d in enumerate(sorted(pd.unique(pairs["doc_id"]), key=int))}
    by_formula = {7 * doc_rank[d] + SYSTEMS.index(s) + 1: i
                  for i, (d, s) in enumerate(zip(pairs["doc_id"], pairs["system"]))}
    rows, counts = [], [0, 0, 0]
    for inst in instances:
        summary, source = split_instance(inst["instance"])
        if source is None:
            raise InputError(f"{RATERS_FILE}: instance id {inst['id']!r} is not '### Generated Summary ... ### Source "
                             f"Article ...'; {FIX}")
        want = _norm(summary)
        cands = [i for i, s in enumerate(summaries) if s == want]
        if len(cands) > 1:
            article = _norm(re.sub(r"<[^>]+>", "", source))
            cands = [i for i in cands if articles[i] in article]
            how = 1
        else:
            how = 0
        formula = by_formula.get(inst["id"])
        if len(cands) == 1:
            if formula != cands[0]:
                other = ("no row" if formula is None else
                         f"(doc {pairs.at[formula, 'doc_id']!r}, {pairs.at[formula, 'system']!r})")
                raise InputError(f"{RATERS_FILE}: instance id {inst['id']!r} joins "
                                 f"(doc {pairs.at[cands[0], 'doc_id']!r}, "
                                 f"{pairs.at[cands[0], 'system']!r}) by its text, but the id formula gives {other}; "
                                 f"{FIX}")
        elif len(cands) == 2 and formula in cands and len({pairs.at[i, "doc_id"] for i in cands}) == 1:
            how = 2
        else:
            raise InputError(f"{RATERS_FILE}: instance id {inst['id']!r} matches {len(cands)} Newsroom summaries "
                             f"by text and article; {FIX}")
        counts[how] += 1
        rows.append(formula)
    return rows, (counts[0], counts[1], counts[2])


def load_newsroom_raters(pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The 3 individual ratings per quality, one row per Newsroom pair (the order of ``pairs``, default
    :func:`load_newsroom`), joined as the module docstring says.

    Returns:
        pandas.DataFrame, 420 rows: ``doc_id, system, jb_id`` (the Judge-Bench instance id) and
        ``<quality>/rater_k`` (float64, 1-5) for the 4 qualities (:data:`QUALITIES` order) and k = 1, 2, 3.

    Raises:
        InputError: when the file is not Judge-Bench's schema, a count differs from MANIFEST.md's (420 instances, 3
            ratings each, the join's 384 / 28 / 8, 1,078 majorities), the join is not one to one, or the mean of the 3
            ratings differs from ``pairs``' score by more than 1e-9 anywhere.
    """
    from sumeval.datasets.judge_bench import parse_judge_bench
    from sumeval.datasets.loaders.build import read_json

    pairs = load_newsroom() if pairs is None else pairs.reset_index(drop=True)
    path, data = read_json(RATERS_FILE)
    parse_judge_bench(data, str(path), fix=FIX)
    expect(path, "the metrics", [a["metric"] for a in data["annotations"]],
           ["Informativeness", "Relevance", "Fluency", "Coherence"])
    instances = data["instances"]
    expect(path, "the number of instances", len(instances), len(pairs))
    for inst in instances:
        got = {m: len(inst["annotations"].get(m, {}).get("individual_human_scores", ())) for m in JB_METRICS.values()}
        expect(path, f"instance id {inst['id']!r}'s number of ratings per metric", got,
               dict.fromkeys(JB_METRICS.values(), N_RATERS))
    majorities = sum("majority_human" in inst["annotations"][m] for inst in instances for m in JB_METRICS.values())
    expect(path, "the number of majority_human scores", majorities, N_MAJORITY)
    rows, counts = _join(pairs, instances)
    expect(path, "the number of instances joined by text / by the article / by the id formula", counts, JOIN_COUNTS)
    if sorted(rows) != list(range(len(pairs))):
        raise InputError(f"{path}: the join is not one to one ({len(set(rows))} of {len(pairs)} rows); {FIX}")
    out = pairs[["doc_id", "system"]].copy()
    at = dict(zip(rows, instances))
    out["jb_id"] = [at[i]["id"] for i in range(len(pairs))]
    for q in QUALITIES:
        for k in range(N_RATERS):
            out[rater_column(q, k + 1)] = [
                float(at[i]["annotations"][JB_METRICS[q]]["individual_human_scores"][k]) for i in range(len(pairs))]
        if q in pairs.columns:
            mean = sum(out[rater_column(q, k + 1)] for k in range(N_RATERS)) / N_RATERS
            off = (mean - pairs[q]).abs()
            if (off > 1e-9).any():
                i = int(off.to_numpy().argmax())
                raise InputError(f"{path}: the mean {q} of instance id {int(out.at[i, 'jb_id'])} is "
                                 f"{float(mean[i])!r}, {DATA_FILE} has {float(pairs.at[i, q])!r} "
                                 f"for (doc {pairs.at[i, 'doc_id']!r}, "
                                 f"{pairs.at[i, 'system']!r}) ({int((off > 1e-9).sum())} of {len(off)} differ); {FIX}")
    return out


def newsroom_judgments():
    """The built-in data set ``newsroom``: :func:`load_newsroom`'s rows and columns unchanged, then ``jb_id`` and
    the raters' ``<quality>/rater_1..3`` (:func:`load_newsroom_raters`)."""
    from sumeval.datasets.loaders.build import make_judgments

    base = load_newsroom()
    raters = load_newsroom_raters(base)
    frame = pd.concat([base, raters.iloc[:, 2:]], axis=1)
    return make_judgments(frame, name="newsroom", relpaths=[DATA_FILE, RATERS_FILE], humans=QUALITIES,
                          annotators={q: [rater_column(q, k) for k in range(1, N_RATERS + 1)] for q in QUALITIES},
                          notes=(f"annotators: rater_1..{N_RATERS} are slots, not persons: the k-th of a summary's "
                                 "3 AMT ratings (one worker across its 4 qualities, not across summaries); Judge-Bench "
                                 "keeps no worker ids",))
