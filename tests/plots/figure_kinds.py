"""Every kind of figure the studies draw, on small frames shaped as the studies' own (the same
numbers of measures, qualities, levels, judges, layers as a `default` run): name -> a function that
draws it. Used by tests/plots/test_figures_style.py, and to look at them:
``python tests/plots/figure_kinds.py OUT_FOLDER`` saves each as a PNG."""
from __future__ import annotations

import numpy as np
import pandas as pd

from sumeval.plots import close_pairs, core, judges, meta_eval, ordering, retrieval, sentinels, shelf, similarity

# a meta-evaluation of SummEval as the study runs it: 13 measures, 3 annotators and their mean, 4 qualities, 3 levels
MEASURES = ["rouge-1", "rouge-2", "rouge-l", "rouge-lsum", "bleu", "js-2 (negated)", "bertscore-f", "estime",
            "estime-soft", "blanc", "supert", "summaqa", "length"]
ANNOTATORS = ["annotator:expert_1", "annotator:expert_2", "annotator:expert_3", "human ceiling"]
HUMANS = ["coherence", "consistency", "fluency", "relevance"]
LEVELS = ["input", "system", "global"]
JUDGES = ["gemini_flash", "gemini_pro", "gpt-4o", "gpt-4o-mini", "llama-31", "mistral-v03"]
RNG = 0


def _rng(k=0):
    return np.random.default_rng(RNG + k)


def meta_frames(measures=MEASURES, humans=HUMANS, levels=LEVELS):
    rng = _rng(1)
    corr, rank, pair = [], [], []
    for h in humans:
        for lv in levels:
            values = rng.uniform(-0.2, 0.7, len(measures))
            for m, v in zip(measures, values):
                corr.append({"measure": m, "human": h, "level": lv, "coefficient": "kendall_b", "value": v,
                             "ci_low": v - 0.1, "ci_high": v + 0.1, "role": "measure"})
            for k, a in enumerate(ANNOTATORS):
                v = 0.5 + 0.05 * k
                corr.append({"measure": a, "human": h, "level": lv, "coefficient": "kendall_b", "value": v,
                             "ci_low": v - 0.1, "ci_high": v + 0.1, "role": "ceiling" if k == 3 else "annotator"})
                rank.append({"measure": a, "human": h, "level": lv, "coefficient": "kendall_b", "value": v,
                             "rank": np.nan, "cluster": np.nan, "role": "annotator"})
            order = np.argsort(-values)
            for r, k in enumerate(order):
                rank.append({"measure": measures[k], "human": h, "level": lv, "coefficient": "kendall_b",
                             "value": values[k], "rank": r + 1, "cluster": 1 + r // 3, "role": "measure"})
            for a in range(len(measures)):
                for b in range(a + 1, len(measures)):
                    p = float(rng.uniform(0, 0.2))
                    pair.append({"measure_a": measures[a], "measure_b": measures[b], "human": h, "level": lv,
                                 "coefficient": "kendall_b", "test": "permutation-both", "corr_a": values[a],
                                 "corr_b": values[b], "diff": values[a] - values[b], "p_value": p / 2,
                                 "p_adjusted": p, "correction": "holm"})
    return pd.DataFrame(corr), pd.DataFrame(pair), pd.DataFrame(rank)


HOW = dict(test="permutation-both", correction="holm", alpha=0.05)


def _two_measures():
    """``(pairwise, ranking)`` of `meta-eval --measures good flat --level global` where ``flat`` is constant."""
    pair = pd.DataFrame([{"measure_a": "good", "measure_b": "flat", "human": "h", "level": "global",
                          "coefficient": "kendall_b", "test": "permutation-both", "corr_a": 0.82, "corr_b": np.nan,
                          "diff": np.nan, "p_value": np.nan, "p_adjusted": np.nan, "correction": "holm"}])
    rank = pd.DataFrame([{"measure": "good", "human": "h", "level": "global", "coefficient": "kendall_b",
                          "value": 0.82, "rank": 1.0, "cluster": 1.0, "role": "measure"},
                         {"measure": "flat", "human": "h", "level": "global", "coefficient": "kendall_b",
                          "value": np.nan, "rank": np.nan, "cluster": np.nan, "role": "measure"}])
    return pair, rank


def comparison(metrics=("rouge-1", "rouge-2", "rouge-l", "bleu", "meteor", "js-2 (negated)", "bertscore-f",
                        "moverscore", "estime", "estime-soft", "blanc", "supert"),
               humans=HUMANS, methods=("spearman", "kendall_c")):
    return pd.DataFrame([{"metric": m, "human": h, "method": c, "ours": 0.05 * i, "ci_low": 0.05 * i - 0.04,
                          "ci_high": 0.05 * i + 0.04, "paper": 0.05 * i + 0.03}
                         for i, m in enumerate(metrics) for h in humans for c in methods])


def layer_corr(n=13, measures=("estime_alarms", "estime_soft"), humans=("consistency", "relevance", "coherence",
                                                                         "fluency")):
    rng = _rng(2)
    return pd.DataFrame([{"measure": m, "human": h, "method": "kendall_c", "summary_layer": s, "text_layer": t,
                          "value": rng.uniform(-0.3, 0.4)} for m in measures for h in humans
                         for s in range(n) for t in range(n)])


def _t3():
    sets = ["nips", "sind", "roc"]
    models = [("lstm_ptrnet", "LSTM+PtrNet"), ("variant_lstm_ptrnet", "Variant LSTM+PtrNet"),
              ("attordernet", "ATTOrderNet"), ("se_graph", "SE-Graph")]
    return pd.DataFrame([{"model": m, "label": lab, "train_set": a, "test_set": b, "tau": 0.1 * i + 0.05 * j}
                         for i, (m, lab) in enumerate(models) for a in sets for j, b in enumerate(sets)])


def _t2():
    models = [("lstm_ptrnet", "LSTM+PtrNet"), ("variant_lstm_ptrnet", "Variant LSTM+PtrNet"),
              ("attordernet", "ATTOrderNet"), ("se_graph", "SE-Graph")]
    rows = [{"dataset": d, "model": m, "label": lab, "pmr": 0.1 + 0.05 * i + 0.02 * j, "wlcs_l": 0.5 + 0.05 * i,
             "paper_pmr": 0.12 + 0.05 * i if d != "roc" else np.nan, "paper_wlcs_l": np.nan}
            for j, d in enumerate(["nips", "sind", "roc"]) for i, (m, lab) in enumerate(models)]
    random = pd.DataFrame({"dataset": ["nips", "sind", "roc"], "pmr": [0.05, 0.02, 0.01], "wlcs_l": [0.4, 0.3, 0.35]})
    return pd.DataFrame(rows), random


def _curves(x="size", xs=(16, 64, 256, 1024)):
    models = [("lstm_ptrnet", "LSTM+PtrNet"), ("attordernet", "ATTOrderNet"), ("se_graph", "SE-Graph")]
    rows = [{"level": lv, "model": m, "label": lab, x: v, "metric": met, "mean": 0.3 + 0.1 * k + 0.05 * np.log(v),
             "sd": 0.02} for lv in ("sentence", "paragraph") for k, (m, lab) in enumerate(models) for v in xs
            for met in ("wlcs_l", "acc")]
    random = pd.DataFrame({"level": ["sentence", "paragraph"], "wlcs_l": [0.3, 0.25], "acc": [0.5, 0.5]})
    return pd.DataFrame(rows), random


def _sweep():
    variants = ["sera-5", "sera-10", "sera-dis-5", "sera-dis-10", "gesera-5", "gesera-10", "gesera-dis-5",
                "gesera-dis-10"]
    rows = [{"method": "pearson", "corpus": c, "dataset": d, "metric": m, "size": s,
             "value": 0.3 + 0.04 * k + 0.02 * np.log10(s)}
            for c in ("wikipedia", "cnndm") for d in ("realsumm", "summeval")
            for k, m in enumerate(variants) for s in (1000, 10000, 100000)]
    # ROUGE rows 0.005 apart: their reference lines' labels would sit on each other
    rouge = pd.DataFrame([{"dataset": d, "metric": m, "method": "pearson", "value": v}
                          for d in ("realsumm", "summeval") for m, v in (("ROUGE-1", 0.52), ("ROUGE-2", 0.525),
                                                                        ("ROUGE-L", 0.41))])
    return pd.DataFrame(rows), rouge, variants


def _spread():
    rng = _rng(3)
    rows = [{"method": "pearson", "metric": m, "corpus": c, "text": t, "seed": s, "value": rng.uniform(0.4, 0.7)}
            for m in ("sera-10", "gesera-10", "sera-dis-10") for c in ("wikipedia", "cnndm") for t in ("full", "lead")
            for s in range(5)]
    paper = pd.DataFrame({"metric": ["sera-10", "gesera-10", "sera-dis-10"], "method": "pearson",
                          "paper": [0.55, 0.6, 0.5]})
    return pd.DataFrame(rows), paper


def _effects(refs=11, metrics=("rouge-1", "rouge-2", "rouge-l")):
    return pd.DataFrame([{"metric": m, "method": meth, "reference": r, "label": f"ref {r}",
                          "alone": 0.3 + 0.02 * r - 0.05 * k, "effect": 0.01 * (r - 5)}
                         for k, m in enumerate(metrics) for r in range(refs)
                         for meth in ("pearson", "spearman", "kendall_b")])


#: annotator_impact's measures: REALSumm's Table 2 rows and the SERA variants (9 lines, 8 bars)
IMPACT = ["JS-2 (negated)", "ROUGE-1-R", "ROUGE-2-R", "ROUGE-L-F", "gesera-10", "gesera-dis-10", "gesera-pn-10",
          "sera-10", "sera-dis-10"]
#: the judges of llm_judges' shelf sets: FaithBench's 8, StorySumm's 11
FAITHBENCH_JUDGES = ["hhemv1", "hhem-2.1", "hhem-2.1-english", "trueteacher", "true_nli", "gpt-3.5-turbo",
                     "gpt-4-turbo", "gpt_4o"]
STORYSUMM_JUDGES = ["binary-claude-3", "binary-gpt-4", "binary-mixtral", "cot-claude-3", "cot-gpt-4", "cot-mixtral",
                    "fables", "minicheck", "unieval", "alignscore", "binary-gpt-4-probability"]


def _workers(metrics=("rouge-1", "rouge-2", "rouge-l", "bertscore-f", "gpt-4o")):
    rows = [{"method": "pearson", "metric": m, "n_workers": n, "mean": 0.5 + 0.02 * n - 0.05 * k,
             "min": 0.4 + 0.02 * n - 0.05 * k, "max": 0.6 + 0.02 * n - 0.05 * k}
            for k, m in enumerate(metrics) for n in (0, 1, 2, 3, 4)]
    return pd.DataFrame(rows)


def _judge_set_curve():
    """llm_judges' PPI curve over two shelf sets: FaithBench's 8 judges at 10-70 labels, StorySumm's 11 at 10
    only (its systems have too few summaries for more)."""
    return pd.DataFrame([{"judge": j, "human": h, "system": s, "n_labels": n, "n_repeats": 200, "alpha": 0.05,
                          "power_tuning": True, "width_ppi": 1.6 / np.sqrt(n) + 0.003 * k,
                          "width_human": 1.6 / np.sqrt(n), "coverage_ppi": 0.9 + 0.002 * k, "coverage_human": 0.92}
                         for h, judges, sizes in (("FaithBench: consistent", FAITHBENCH_JUDGES, range(10, 71, 10)),
                                                  ("StorySumm: faithful", STORYSUMM_JUDGES, (10,)))
                         for k, j in enumerate(judges) for s in range(3) for n in sizes])


def _profiles(n=13):
    return pd.DataFrame([{"source": s, "kind": k, "layer": layer, "norm": 10 + layer + (k == "cls"),
                          "change": 1.0 / (layer + 1), "cos": 0.5 + layer / 30}
                         for s in ("text", "summary") for k in ("cls", "token") for layer in range(n)])


def _local(n=13, d=40):
    return pd.DataFrame([{"human": h, "method": "kendall_c", "layer": k, "d": dd, "value": np.sin(k + dd / 7) / 3}
                         for h in ("coherence", "consistency") for k in range(n) for dd in range(1, d + 1)])


def _across():
    sets = [("summeval", h, "correlation", 100) for h in HUMANS] + [
        ("realsumm", "litepyramid", "correlation", 100), ("qags-c", "consistency", "correlation", 235),
        ("qags-x", "consistency", "correlation", 239), ("xsumfaith", "factuality", "correlation", 1250),
        ("frank", "factuality", "correlation", 2246), ("rank19", "fact", "accuracy", 373),
        ("dialsummeval", "relevance", "correlation", 100), ("rose", "acu", "correlation", 500)]
    rng = _rng(4)
    rows = []
    for m in MEASURES[:10]:
        for d, h, kind, n in sets:
            bad = m == "rouge-1" and d == "rank19"
            v = np.nan if bad else (rng.uniform(0.4, 0.9) if kind == "accuracy" else rng.uniform(-0.1, 0.6))
            rows.append({"coefficient": "kendall_b", "measure": m, "dataset": d, "human": h, "level": "input",
                         "kind": kind, "value": v, "cluster": np.nan if bad else int(rng.integers(1, 4)), "n": n,
                         "status": "cannot run" if bad else "ok", "reason": "no references in rank19" if bad else None})
    cells = pd.DataFrame(rows)
    summary = pd.DataFrame([{"coefficient": "kendall_b", "scope": "all", "measure": m, "position": i + 1,
                             "mean_rank": 1 + 0.2 * i, "mean_score": 0.6 - 0.02 * i, "coverage": 1.0 if i else 0.92,
                             "n_sets": 9} for i, m in enumerate(MEASURES[:10])])
    return cells, summary


def _across_shelf(measures=("rouge-1", "bigram-overlap", "fragment-coverage")):
    """The shelf study over all 16 sets at the global level: 29 tasks (data set x human column), more
    than a page's width holds as columns of two-line labels."""
    shelf_sets = {"summeval": HUMANS, "realsumm": ["litepyramid"], "dialsummeval": HUMANS, "frank": ["factuality"],
                  "qags-c": ["factuality"], "qags-x": ["factuality"], "xsumfaith": ["faithful", "factual"],
                  "newsroom": ["coherence", "fluency", "informativeness", "relevance"], "rank19": ["fact"],
                  "rose": ["prior", "ref_free", "ref_based", "acu"], "faithbench": ["consistent"],
                  "storysumm": ["faithful"], "summedits": ["consistency"], "summhay": ["coverage"],
                  "tofueval": ["consistent"], "fables": ["faithful"]}
    rng = _rng(7)
    return pd.DataFrame([{"coefficient": "kendall_b", "measure": m, "dataset": d, "human": h, "level": "global",
                          "kind": "accuracy" if d == "rank19" else "correlation",
                          "value": rng.uniform(0.3, 0.9) if d == "rank19" else rng.uniform(-0.5, 0.9),
                          "cluster": int(rng.integers(1, 8)), "n": int(rng.integers(90, 5000)), "status": "ok",
                          "reason": None} for d, hs in shelf_sets.items() for h in hs for m in measures])


def _sentinels(cells):
    """The shelf's sentinel rows for the across cells' correlation tasks (input level): length, the
    source-overlap sentinels, and the random one with the central range of its draws."""
    from sumeval.meta_eval.sentinels import BIGRAMS, COVERAGE, DENSITY, LENGTH, RANDOM

    rng = _rng(6)
    rows = []
    tasks = cells[cells["kind"] == "correlation"][["dataset", "human"]].drop_duplicates()
    for d, h in tasks.itertuples(index=False):
        for m in (LENGTH, COVERAGE, DENSITY, BIGRAMS, RANDOM):
            v = 0.0 if m == RANDOM else float(rng.uniform(-0.1, 0.5))
            rows.append({"dataset": d, "human": h, "level": "input", "coefficient": "kendall_b", "measure": m,
                         "value": v, "ci_low": -0.08 if m == RANDOM else np.nan,
                         "ci_high": 0.08 if m == RANDOM else np.nan, "n": 100})
    return pd.DataFrame(rows)


def _judges():
    rng = _rng(5)
    alt = pd.DataFrame([{"judge": j, "human": h, "alignment": "neg_rmse", "epsilon": 0.2, "q": 0.05,
                         "winning_rate": w, "advantage_probability": 0.55 + 0.05 * k, "passed": w >= 0.5}
                        for k, j in enumerate(JUDGES) for h in HUMANS + ["pooled"]
                        for w in [float(rng.choice([0.0, 1 / 3, 2 / 3, 1.0]))]])
    curve = pd.DataFrame([{"judge": j, "human": h, "system": s, "n_labels": n, "n_repeats": 20, "alpha": 0.1,
                           "power_tuning": True, "width_ppi": 1 / np.sqrt(n) + 0.01 * k,
                           "width_human": 1.3 / np.sqrt(n),
                           "coverage_ppi": 0.85 + 0.01 * k, "coverage_human": 0.9}
                          for k, j in enumerate(JUDGES) for h in HUMANS for s in range(3) for n in (10, 20, 50, 100)])
    rows = []
    for h in HUMANS:
        for k, m in enumerate(["rouge-1", "rouge-2", "rouge-l"] + JUDGES):
            v = 0.2 + 0.05 * k
            rows.append({"measure": m, "kind": "offline measure" if k < 3 else "LLM judge", "human": h, "value": v,
                         "ci_low": v - 0.08, "ci_high": v + 0.08, "cluster": 1 + k % 3})
        for k, a in enumerate(["expert_1", "expert_2", "expert_3"]):
            rows.append({"measure": a, "kind": "annotator", "human": h, "value": 0.6 + 0.03 * k, "ci_low": 0.5,
                         "ci_high": 0.7})
        rows.append({"measure": "human ceiling", "kind": "human ceiling", "human": h, "value": 0.63, "ci_low": 0.55,
                     "ci_high": 0.7})
    scores = pd.DataFrame(rows)
    experts = ["expert_1", "expert_2", "expert_3"]
    agreement = pd.DataFrame([{"rater": r, "kind": "expert" if r in experts else "LLM judge", "expert": e, "human": h,
                               "value": float(rng.uniform(0.2, 0.8)), "coefficient": "kendall_b", "level": "global"}
                              for h in HUMANS for r in JUDGES + experts for e in experts if r != e])
    shelf_rows = []
    for d, h in (("qags-x", "consistency"), ("xsumfaith", "factuality"), ("xsumfaith", "no_hallucination"),
                 ("frank", "factuality")):
        for lv in ("input", "system", "global"):
            for k, m in enumerate(["R1", "R2", "RL", "BERTScore", "Entailment"]):
                shelf_rows.append({"dataset": d, "measure": f"{d}.{m}", "kind": "offline measure", "human": h,
                                   "level": lv, "value": 0.1 * k, "n": 500})
            for k in range(3):
                shelf_rows.append({"dataset": d, "measure": f"worker_{k}", "kind": "annotator", "human": h,
                                   "level": lv, "value": 0.5 + 0.05 * k, "n": 500})
            shelf_rows.append({"dataset": d, "measure": "human ceiling", "kind": "human ceiling", "human": h,
                               "level": lv, "value": 0.55, "n": 500})
    verbosity = pd.DataFrame([{"versus": "humans", "human": h, "judge": j, "excess": 0.05 * k - 0.1,
                               "ci_low": 0.05 * k - 0.15, "ci_high": 0.05 * k - 0.05, "above": 0.05 * k - 0.15 > 0}
                              for h in HUMANS for k, j in enumerate(JUDGES)])
    labels = ["closest third", "middle third", "farthest third"]
    close = pd.DataFrame([{"human": h, "role": "judge", "metric": j, "bin": b, "bin_label": labels[b],
                           "agreement": 0.5 + 0.1 * b + 0.01 * k, "ci_low": np.nan, "ci_high": np.nan}
                          for h in HUMANS for k, j in enumerate(JUDGES) for b in range(3)]
                         + [{"human": h, "role": role, "metric": role, "bin": b, "bin_label": labels[b],
                             "agreement": 0.55 + 0.1 * b, "ci_low": 0.5 + 0.1 * b, "ci_high": 0.6 + 0.1 * b}
                            for h in HUMANS for role in ("held-out annotators", "length") for b in range(3)])
    return alt, curve, scores, agreement, pd.DataFrame(shelf_rows), verbosity, close


def _system_pairs():
    """close_pairs.csv / pdp.csv / rank_intervals.csv as the shelf study has them: DialSummEval's 4 qualities,
    9 measures and 4 sentinels, 14 systems (the tables' largest set with 4 human columns)."""
    from sumeval.meta_eval.sentinels import BIGRAMS, COVERAGE, DENSITY, LENGTH

    rng = _rng(7)
    measures = [(m, "measure") for m in MEASURES[:9]] + [(m, "sentinel") for m in (LENGTH, COVERAGE, DENSITY, BIGRAMS)]
    cp, pdp = [], []
    for h in HUMANS:
        for m, role in measures:
            for b, lab in enumerate(("closest", "middle", "farthest")):
                a = float(rng.uniform(0.3, 0.95))
                n = (22, 23, 21)[b] if h == HUMANS[-1] else 30  # thirds of unequal size (ties), as RoSE has
                cp.append({"dataset": "dialsummeval", "human": h, "measure": m, "role": role, "bin": b,
                           "bin_label": lab, "n_pairs": n, "agreement": a, "ci_low": a - 0.15, "ci_high": a + 0.1})
            for d in ("dialsummeval", "summeval", "realsumm", "xsumfaith"):
                if d == "xsumfaith" and m in (COVERAGE, DENSITY, BIGRAMS):
                    continue  # no source texts: its source-overlap sentinels are not computed (a hatched cell)
                v = float(rng.uniform(-0.4, 0.8))
                pdp.append({"dataset": d, "human": h, "measure": m, "role": role, "level": "input", "pdp": v,
                            "ci_low": v - 0.1, "ci_high": v + 0.1})
    systems = ["LEAD_3", "LONGEST_3", "PGN", "Transformer", "BART", "PEGASUS", "UniLM", "CODS", "ConvoSumm", "MV_BART",
               "PLM", "S_BART", "PNEP", "reference"]
    ranks = []
    own = ["dialsummeval.rouge-1", "dialsummeval.bertscore_f1"]  # the set's own columns, named by the set
    for c, role in [(h, "human") for h in HUMANS] + [(m, "measure") for m in [*MEASURES[:9], *own]]:
        order = rng.permutation(len(systems)) + 1
        for s, r in zip(systems, order):
            ranks.append({"dataset": "dialsummeval", "column": c, "system": s, "rank": float(r),
                          "rank_low": max(1.0, r - 2.0), "rank_high": min(14.0, r + 2.5), "role": role})
    return pd.DataFrame(cp), pd.DataFrame(pdp), pd.DataFrame(ranks)


def kinds():
    """name -> a function drawing that figure kind as a study does (returns the figure)."""
    corr, pair, rank = meta_frames()
    t2, random2 = _t2()
    curves, random_c = _curves()
    sweep, rouge, variants = _sweep()
    spread, paper = _spread()
    cells, summary = _across()
    alt, curve, scores, agreement, shelf_frame, verbosity, close = _judges()
    pair_cp, pair_pdp, pair_ranks = _system_pairs()
    edges = np.linspace(-0.2, 1.0, 61)
    shares = np.abs(np.sin(np.arange(13)[:, None] + edges[None, :-1] * 5))
    shares /= shares.sum(axis=1, keepdims=True)
    per_item = pd.DataFrame({"mean_rating": np.linspace(1, 5, 30), "tau": np.linspace(-0.2, 0.9, 30),
                             "acc": np.linspace(0.1, 0.95, 30), "wlcs_l": np.linspace(0.3, 0.9, 30)})
    return {
        "ours_vs_paper": lambda: core.ours_vs_paper(comparison(), row_order=["spearman", "kendall_c"],
                                                    title="Paper 000 Table 1: SummEval, pooled summary level; the "
                                                          "paper's BERTScore: roberta-large")[0],
        "ours_vs_paper_one_row": lambda: core.ours_vs_paper(
            comparison(metrics=variants, humans=["litepyramid"], methods=("pearson", "spearman", "kendall_b")),
            facet_row=None, facet_col="method",
            title="Paper 001 Table 2 (CNNDM) vs ours: wikipedia, 10000 documents")[0],
        "heatmap": lambda: core.heatmap(np.arange(12.0).reshape(3, 4), xlabel="summary layer", ylabel="text layer",
                                        title="Kendall tau-c", xticklabels=list("abcd"), yticklabels=list("xyz"))[0],
        "correlation_intervals": lambda: meta_eval.correlation_intervals(
            corr, coefficient="kendall_b", measure_order=MEASURES + ANNOTATORS, ranking=rank, **HOW)[0],
        "pvalue_matrix": lambda: meta_eval.pvalue_matrix(pair, human="relevance", level="system", ranking=rank)[0],
        "pvalue_grid": lambda: meta_eval.pvalue_grid(pair, coefficient="kendall_b", measure_order=MEASURES,
                                                     ranking=rank)[0],
        "pvalue_grid_small": lambda: meta_eval.pvalue_grid(meta_frames(MEASURES[:5], HUMANS[:2], ["system"])[1],
                                                           ranking=meta_frames(MEASURES[:5], HUMANS[:2],
                                                                               ["system"])[2])[0],
        "ranking_bars": lambda: meta_eval.ranking_bars(rank, human="relevance", level="system")[0],
        "ranking_grid": lambda: meta_eval.ranking_grid(rank, coefficient="kendall_b", **HOW)[0],
        # meta-eval of two measures, one constant (its correlation undefined, its pair not tested), one panel
        "ranking_grid_two_measures": lambda: meta_eval.ranking_grid(_two_measures()[1], coefficient="kendall_b",
                                                                    **HOW)[0],
        "across_heatmap": lambda: shelf.across_heatmap(cells, coefficient="kendall_b", level="input", **HOW)[0],
        "across_ranking": lambda: shelf.across_ranking(summary, coefficient="kendall_b", **HOW)[0],
        "across_heatmap_29_tasks": lambda: shelf.across_heatmap(_across_shelf(), coefficient="kendall_b",
                                                               level="global", **HOW)[0],
        "sentinel_bands": lambda: sentinels.sentinel_bands(cells, _sentinels(cells), coefficient="kendall_b",
                                                           level="input", measures=MEASURES[:3], ci=0.9)[0],
        "table2_bars": lambda: ordering.table2_bars(t2, ("pmr", "wlcs_l"), random=random2,
                                                    title="Paper 002 Table 2: in-domain ordering")[0],
        "cross_domain": lambda: ordering.cross_domain(_t3(), metric="tau",
                                                      title="Table 3 (sentence level): tau, train x test")[0],
        "curves": lambda: ordering.curves(curves, "size", ("wlcs_l", "acc"), random=random_c,
                                          xlabel="training documents", title="Paper 002 Fig.1: learnability")[0],
        "ratings_regression": lambda: ordering.ratings_regression(
            per_item, r2={"r2_tau": 0.5, "r2_acc": 0.4, "r2_wlcs_l": 0.3},
            title="Ratings vs metrics: SYNTHETIC demonstration (not human ratings)")[0],
        "pos_bars": lambda: retrieval.pos_bars(pd.DataFrame(
            [{"source": s, "category": c, "percent": 10 + 3 * i + j} for i, s in
             enumerate(["REALSumm summaries", "wikipedia index", "cnndm index"])
             for j, c in enumerate(["Nouns", "Verbs", "Adj.", "Prep.", "Others"])]))[0],
        "index_size_curves": lambda: retrieval.index_size_curves(sweep, rouge=rouge, metrics=variants)[0],
        "seed_spread_strip": lambda: retrieval.seed_spread_strip(spread, paper=paper,
                                                                 title="REALSumm, 10000 documents: seeds 0-4")[0],
        "reference_bars": lambda: retrieval.reference_bars(
            _effects(), value="effect",
            title="SummEval relevance: all minus leave-one-out (> 0: the reference helps)")[0],
        "table_figure": lambda: retrieval.table_figure(pd.DataFrame({"measure": ["ROUGE-1", "ROUGE-2"],
                                                                     "pearson": [0.5, 0.4],
                                                                     "spearman": [0.45, 0.41]}), title="Table 3")[0],
        "worker_curves": lambda: retrieval.worker_curves(_workers())[0],
        "worker_curves_nine": lambda: retrieval.worker_curves(_workers(IMPACT), title="judges as annotators "
                                                              "(REALSumm crowd workers)")[0],
        "reference_bars_eight": lambda: retrieval.reference_bars(
            _effects(metrics=("rouge-1", "rouge-2", "rouge-l", "sera-10", "sera-dis-10", "gesera-10", "gesera-dis-10",
                              "gesera-pn-10")), value="alone",
            title="SummEval Relevance: each reference alone (paper 001 Fig. 3)")[0],
        "layer_profiles": lambda: similarity.layer_profiles(_profiles(), "norm", title="Fig.2: norm of masked-token "
                                                            "embeddings\nsentence-transformers/all-mpnet-base-v2")[0],
        "cosine_histogram": lambda: similarity.cosine_histogram(edges, shares, title="Fig.7: pairwise cosines per layer"
                                                                "\nsentence-transformers/all-mpnet-base-v2")[0],
        "layer_pair_grid": lambda: similarity.layer_pair_grid(
            layer_corr(), measures=["estime_alarms", "estime_soft"], humans=["consistency", "relevance", "coherence",
                                                                             "fluency"],
            title="Fig.1: Kendall tau-c, sentence-transformers/all-mpnet-base-v2")[0],
        "layer_pair_grid_one": lambda: similarity.layer_pair_grid(
            layer_corr(measures=("similarity_order",), humans=("coherence",)), measures=["similarity_order"],
            humans=["coherence"], title="Fig.5: Kendall tau-c, all-mpnet-base-v2")[0],
        "local_order_grid": lambda: similarity.local_order_grid(_local(), title="Fig.6: Kendall tau-c of tau_d, "
                                                                "all-mpnet-base-v2")[0],
        "diagonal_profiles": lambda: similarity.diagonal_profiles(
            layer_corr(), measures=["estime_alarms", "estime_soft"], human="consistency", method="kendall_c",
            title="summary layer = text layer, Kendall with consistency, all-mpnet-base-v2")[0],
        "alt_test_bars": lambda: judges.alt_test_bars(alt, human_order=HUMANS + ["pooled"])[0],
        "ppi_widths": lambda: judges.ppi_widths(curve, min_coverage=0.9)[0],
        "ppi_widths_judge_sets": lambda: judges.ppi_widths(_judge_set_curve(), min_coverage=0.9)[0],
        "scores_with_ceiling": lambda: judges.scores_with_ceiling(scores, human_order=HUMANS, xlabel="kendall_b",
                                                                  title="SummEval, system level: Kendall tau-b")[0],
        "scores_with_ceiling_spa": lambda: judges.scores_with_ceiling(  # llm_judges' spa: a ceiling without interval
            scores.assign(ci_low=scores["ci_low"].where(scores["kind"] != "human ceiling"),
                          ci_high=scores["ci_high"].where(scores["kind"] != "human ceiling")),
            human_order=HUMANS, xlabel="soft pairwise accuracy",
            title="SummEval, system level: soft pairwise accuracy against the experts' mean")[0],
        "agreement_heatmap": lambda: judges.agreement_heatmap(agreement, human_order=HUMANS)[0],
        "shelf_ceilings": lambda: judges.shelf_ceilings(shelf_frame, level_order=LEVELS,
                                                        title="Shelf sets: precomputed measures against the human "
                                                              "ceiling (kendall_b)")[0],
        "verbosity_excess": lambda: judges.verbosity_excess(verbosity, title="Verbosity: judges' length dependence")[0],
        "close_pair_lines": lambda: judges.close_pair_lines(close, title="Close pairs")[0],
        "close_pair_dots": lambda: close_pairs.close_pair_dots(pair_cp, dataset="dialsummeval")[0],
        "pdp_heatmap": lambda: close_pairs.pdp_heatmap(pair_pdp, measure_order=MEASURES[:9])[0],
        # a meta-evaluation's own pdp.csv: one data set, no dataset column
        "pdp_heatmap_one_set": lambda: close_pairs.pdp_heatmap(
            pair_pdp[pair_pdp["dataset"] == "dialsummeval"].drop(columns="dataset"), measure_order=MEASURES[:9])[0],
        "rank_interval_panels": lambda: close_pairs.rank_interval_panels(  # the notebook's order: given, then labels
            pair_ranks, dataset="dialsummeval", measure_order=[*MEASURES[:9], *MEASURES[:9], "dialsummeval.rouge-1",
                                                               "dialsummeval.bertscore_f1"])[0],
        # a reference-free set (FaithBench): the human column and three measures, long model names
        "rank_interval_panels_four": lambda: close_pairs.rank_interval_panels(
            _four_rankings(pair_ranks), dataset="faithbench")[0],
    }


def _four_rankings(ranks: pd.DataFrame) -> pd.DataFrame:
    """``ranks`` cut to its human column and three measures, its systems renamed as FaithBench's models."""
    keep = [HUMANS[0], *MEASURES[:3]]
    out = ranks[ranks["column"].isin(keep)].copy()
    names = {s: f"meta-llama/Meta-Llama-3.1-{k}B-Instruct" for k, s in enumerate(dict.fromkeys(out["system"]))}
    out["system"] = out["system"].map(names)
    return out


if __name__ == "__main__":
    import sys
    import time

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sumeval.plots.style import layout_problems

    out = sys.argv[1]
    only = set(sys.argv[2:])
    for name, draw in kinds().items():
        if only and name not in only:
            continue
        t = time.perf_counter()
        fig = draw()
        problems = layout_problems(fig)
        w, h = fig.get_size_inches()
        fig.savefig(f"{out}/{name}.png", dpi=100)
        print(f"{name}: {w:.2f} x {h:.2f} in, {len(problems)} problems {problems[:3]} ({time.perf_counter() - t:.1f}s)")
        plt.close(fig)
