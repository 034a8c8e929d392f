"""Paper-001 studies (index_size_sweep, annotator_impact): tiny corpora, hand-checkable
reference subsets, worker-subset LitePyramid on a toy frame, and ROUGE rows that agree with the
metric_correlations study."""

import numpy as np
import pandas as pd
import pytest

from sumeval.errors import InputError
from sumeval.retrieval.index import build_index
from sumeval.retrieval.scorers import SeraScorer
from sumeval.studies import annotator_impact as ai
from sumeval.studies import index_size_sweep as iss
from sumeval.studies.common import sera_scores as ss

from helpers import PET_DOCS as DOCS  # noqa: E402  (the shared toy corpus; fixture `corpus`)


def test_paper_labels():
    assert ss.paper_label("gesera-dis-10") == "GeSERA-DIS-10"
    assert ss.paper_label("sera-kw-10") == "SERA-KW-10"
    assert ss.paper_label("sera-dis-np-5") == "SERA-DIS-NP-5"
    with pytest.raises(InputError, match="sera-11"):
        ss.check_variants(["sera-11"])
    # the sweep uses the shared module's functions, not copies of them
    assert iss.per_reference_scores is ss.per_reference_scores and ai.sera_frame is ss.sera_frame


def test_per_reference_scores_average_to_the_scorer(corpus, tmp_path):
    pairs = pd.DataFrame({"doc_id": [0, 0, 1], "system": ["a", "b", "a"],
                          "summary": ["bird", "bird dog", "dog"],
                          "references": [["bird", "dog"], ["bird", "dog"], ["bird", "fish"]]})
    ix = build_index(str(corpus), len(DOCS), 0, "sparse")
    per_ref = ss.per_reference_scores(pairs, ix, ["sera-5", "sera-dis-5"])
    # "bird" and "dog" each retrieve 2 documents, "bird dog" all 4 of them
    np.testing.assert_allclose(per_ref["sera-5"], [[0.4, 0.0], [0.4, 0.4], [0.0, 0.0]])
    scorer = SeraScorer(k=5, corpus=str(corpus), size=len(DOCS), seed=0)
    from sumeval.metrics import score_records

    frame, _ = score_records(pairs[["summary", "references"]].to_dict("records"), [scorer])
    assert ss.sera_frame(pairs, per_ref)["sera-5"].tolist() == pytest.approx(frame["sera-5"].tolist())
    # a subset of references is the mean of its columns
    assert ss.sera_frame(pairs, per_ref, [1])["sera-5"].tolist() == pytest.approx([0.0, 0.4, 0.0])


def test_resolve_sizes(corpus):
    sizes, n = iss.resolve_sizes(str(corpus), [2, 0, 100, 2])
    assert n == 7 and sizes == [2, 7]
    with pytest.raises(InputError, match="-3"):
        iss.resolve_sizes(str(corpus), [-3])


def test_reference_subsets_by_hand():
    subs = ai.reference_subsets(3)
    assert [(s, cols) for s, _, _, cols in subs] == [
        ("all", (0, 1, 2)), ("only R0 (CNN/DM)", (0,)), ("only R1", (1,)), ("only R2", (2,)),
        ("without R0 (CNN/DM)", (1, 2)), ("without R1", (0, 2)), ("without R2", (0, 1))]
    with pytest.raises(InputError):
        ai.reference_subsets(1)


def _toy_pairs():
    # 3 systems x 2 documents; relevance rises with the system
    pairs = pd.DataFrame({"doc_id": [0, 0, 0, 1, 1, 1], "system": ["s1", "s2", "s3"] * 2,
                          "summary": list("abcdef"), "references": [["r0", "r1", "r2"]] * 6,
                          "relevance": [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]})
    m = np.array([
        # ref 0 agrees with relevance, ref 1 reverses it, ref 2 is flat but for s3
        [0.1, 0.9, 0.0], [0.2, 0.5, 0.0], [0.3, 0.1, 0.3],
        [0.1, 0.9, 0.0], [0.2, 0.5, 0.0], [0.3, 0.1, 0.3]])
    return pairs, {"toy": m}


def test_subset_correlations_and_effects_by_hand():
    pairs, per_ref = _toy_pairs()
    sub = ai.subset_correlations(pairs, per_ref, "relevance", methods=("pearson", "spearman"))
    get = lambda s, meth: float(sub[(sub["subset"] == s) & (sub["method"] == meth)]["value"].iloc[0])  # noqa: E731
    # only R0: system means 0.1, 0.2, 0.3 vs 1, 2, 3 -> 1; only R1: 0.9, 0.5, 0.1 -> -1
    assert get("only R0 (CNN/DM)", "pearson") == pytest.approx(1.0)
    assert get("only R1", "pearson") == pytest.approx(-1.0)
    # all: means (0.1+0.9+0)/3, (0.2+0.5)/3, (0.3+0.1+0.3)/3 = 1/3, 0.7/3, 0.7/3
    # -> spearman of (3, 1.5, 1.5) vs (1, 2, 3)
    assert get("all", "spearman") == pytest.approx(-np.sqrt(3) / 2)
    # without R1: (0.1, 0.2, 0.6)/2 -> increasing -> spearman 1
    assert get("without R1", "spearman") == pytest.approx(1.0)
    eff = ai.reference_effects(sub)
    r1 = eff[(eff["reference"] == 1) & (eff["method"] == "spearman")].iloc[0]
    assert r1["effect"] == pytest.approx(-np.sqrt(3) / 2 - 1.0)   # R1 hurts
    t3 = ai.table3(eff, select_by="spearman")
    assert set(t3["dropped"]) == {"R1"} and (t3["gain"] > 0).all()


def _toy_judgments():
    # one summary per (doc, system); 3 workers; 2 SCUs. Votes present: SCU 10 by workers 0, 1;
    # SCU 11 by worker 2 only. Majority of all 3 -> SCU 10 present, 11 absent -> recall 1/2.
    rows = []
    for doc, system in [(0, "x"), (0, "y")]:
        for w, (p10, p11) in enumerate([(True, False), (True, False), (False, True)]):
            rows += [(doc, system, w, 10, p10), (doc, system, w, 11, p11)]
    return pd.DataFrame(rows, columns=["doc_id", "system", "worker", "scu_id", "present"])


def test_worker_subset_litepyramid_on_a_toy_frame():
    j = _toy_judgments()
    lp = ai.worker_subset_litepyramid(j, [1, 3], 4, seed=0)
    allw = lp[lp["n_workers"] == 0]
    assert allw["litepyramid"].tolist() == [0.5, 0.5]
    # three of three workers = all workers, whatever the draw
    assert (lp[lp["n_workers"] == 3]["litepyramid"] == 0.5).all()
    # one worker: workers 0 and 1 give 1/2 (SCU 10), worker 2 gives 1/2 (SCU 11)
    assert set(lp[lp["n_workers"] == 1]["litepyramid"]) == {0.5}
    drawn = ai.draw_workers(j, 2, np.random.default_rng(1))
    assert drawn.groupby(["doc_id", "system"])["worker"].nunique().tolist() == [2, 2]
    # same seed, same draws
    again = ai.worker_subset_litepyramid(j, [1, 3], 4, seed=0)
    pd.testing.assert_frame_equal(lp, again)
    with pytest.raises(InputError):
        ai.draw_workers(j, 0, np.random.default_rng(0))


def test_agreement_of_toy_judgments():
    j = _toy_judgments()
    agree = ai.agreement(j, include_experts=False)
    scu = agree[agree["level"] == "nominal"].iloc[0]
    # by hand: 4 units, values (1,1,0) or (0,0,1), 3 raters each. Coincidences (weight 1/(3-1)):
    # o11 = o00 = 2, o10 = o01 = 4, n = 12, n0 = n1 = 6. D_o = 8/12, D_e = 2*6*6/(12*11) = 6/11,
    # alpha = 1 - (8/12) / (6/11) = -2/9
    assert scu["alpha"] == pytest.approx(-2 / 9)
    assert scu["items"] == 4 and scu["raters"] == 3


def test_rouge_rows_agree_with_metric_correlations():
    from sumeval import stats
    from sumeval.studies.common.baseline_rows import TABLE1_ROWS, score_rows
    from sumeval.studies.common.baseline_tables import table2

    rouge = iss.rouge_correlations(n_docs=3)
    _, t2 = table2(3, n_resamples=0)
    real = rouge[rouge["dataset"] == "realsumm"].merge(t2, on=["metric", "method"])
    assert len(real) == 12 and np.allclose(real["value"], real["ours"])
    # SummEval: ROUGE with each reference alone, averaged over the 11 columns, is the study's
    # all-reference ROUGE, and so are its system-level correlations
    pairs = ss.summeval_pairs(2)
    per_ref = ai.rouge_per_reference(pairs)
    rows = {k: TABLE1_ROWS[k] for k in ai.ROUGE_SUMMEVAL}
    scored = score_rows(pairs, rows, dataset="summeval")
    for k in rows:
        assert np.allclose(per_ref[k].mean(axis=1), scored[k].to_numpy())
    sub = ai.subset_correlations(pairs, per_ref, "relevance")
    ours = sub[sub["subset"] == "all"].set_index(["metric", "method"])["value"]
    theirs = stats.correlate(scored, list(rows), ["relevance"], level="system",
                             methods=("pearson", "spearman", "kendall_b"),
                             n_resamples=0).set_index(["metric", "method"])["value"]
    assert np.allclose(ours.sort_index(), theirs.sort_index())
    se = iss.rouge_correlations(n_docs=2)
    se = se[se["dataset"] == "summeval"].set_index(["metric", "method"])["value"]
    assert np.allclose(se.sort_index(), theirs.sort_index())


def test_table2_beside_paper_sets_each_variant_beside_its_own_row():
    sweep = pd.DataFrame({"dataset": "realsumm", "corpus": "c", "size": 10,
                          "metric": ["gesera-10", "gesera-pn-10", "sera-10"], "method": "pearson",
                          "value": [0.7, 0.6, 0.8]})
    rouge = pd.DataFrame({"dataset": ["realsumm"], "metric": ["ROUGE-2-R"], "method": ["pearson"], "value": [0.9]})
    t = iss.table2_beside_paper(sweep, rouge, "c", 10).set_index("metric")
    assert t.loc["GeSERA-10", "paper"] == 0.880 and t.loc["SERA-10", "paper"] == 0.858
    assert np.isnan(t.loc["GeSERA-PN-10", "paper"])  # no such row in the paper
    assert t.loc["GeSERA-10", "diff"] == pytest.approx(0.7 - 0.880)
    assert t.loc["ROUGE-2-R", "diff"] == pytest.approx(0.9 - 0.962)


def test_cached_reformulation_equals_reformulate(tmp_path):
    from sumeval.retrieval.queries import reformulate, reformulate_cached

    texts = ["<t> barack obama visited berlin on tuesday . </t>", "The quick brown fox jumps over lazy dogs."]
    for kind in ("raw", "kw", "gesera", "gesera-pn"):
        first = reformulate_cached(texts, kind, root=tmp_path)
        assert first == reformulate(texts, kind) == reformulate_cached(texts, kind, root=tmp_path)


def test_gesera_filters_raw_row_is_sera(corpus):
    f = iss.gesera_filters(str(corpus), len(DOCS), [0], n_docs=2)
    assert set(f["reference_side"]) == {"filtered", "candidate-only"}
    raw = f[(f["filter"] == "raw (SERA)") & (f["text"] == "tokenized") & (f["method"] == "pearson")]["value"]
    spread = iss.seed_spread(str(corpus), len(DOCS), [0], ["sera-10"], n_docs=2, text_forms=["tokenized"])
    assert np.allclose(raw, spread[spread["method"] == "pearson"]["value"], equal_nan=True)
    assert set(f["tagger"]) == {"none"} | set(iss.GESERA_TAGGINGS)
    summary = iss.gesera_filters_summary(f)
    # raw: 2 text forms; GeSERA's tagging: 4 filters x 2 forms x 2 sides; the 2 other taggings: 2 filters x 2 x 2
    assert len(summary) == 2 + 4 * 2 * 2 + 2 * 2 * 2 * 2


def test_seed_spread_over_several_collections(corpus, tmp_path):
    """Each collection of the spread check is its own draw: the frame, the summary and the
    strip plot keep them apart, and one collection given twice is counted once."""
    import shutil

    other = tmp_path / "copy.jsonl"
    shutil.copy(corpus, other)
    one = iss.seed_spread(str(corpus), len(DOCS), [0, 1], ["sera-10"], n_docs=2, text_forms=["tokenized"])
    both = iss.seed_spread([str(corpus), str(other), str(corpus)], len(DOCS), [0, 1], ["sera-10"], n_docs=2,
                           text_forms=["tokenized"])
    assert len(both) == 2 * len(one)
    assert both["corpus"].nunique() == 2
    summary = iss.spread_summary(both)
    assert set(summary["corpus"]) == set(both["corpus"])
    assert len(summary) == 2 * 3  # (collection) x (pearson, spearman, kendall_b), one text, one variant
    a, b = (both[both["corpus"] == c].reset_index(drop=True) for c in both["corpus"].unique())
    assert list(a["seed"]) == list(b["seed"]) and list(a["method"]) == list(b["method"])
    import warnings

    from sumeval.plots.retrieval import seed_spread_strip

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the layout fits (a tight_layout warning once meant clipped margins)
        fig, ax = seed_spread_strip(both, paper=summary)
        fig.canvas.draw()
    assert len(ax.get_yticks()) == 3  # the variant's name, then one row per (collection, text form)
    # a column wide, the legend below: the labels leave the plot most of the column (it was once squeezed to
    # about 1 inch)
    assert fig.get_figwidth() == pytest.approx(3.15) and ax.get_position().width * fig.get_figwidth() > 1.6
    with pytest.raises(InputError, match="at least one collection"):
        iss.seed_spread([], len(DOCS), [0], ["sera-10"])
