"""Baseline measures (ROUGE, BLEU, JS-2) against hand computations, and the registry path."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sumeval import metrics
from sumeval.errors import InputError
from sumeval.metrics.base import Batch
from sumeval.metrics.bleu import BleuScorer
from sumeval.metrics.jensen_shannon import NLTK_ENGLISH_STOPWORDS, JensenShannonScorer, distribution, js_divergence
from sumeval.metrics.rouge import RougeScorer, split_sentences

SUMMARY = "the cat sat on the mat"
REF1 = "the cat is on the mat"
REF2 = "cat"


# ------------------------------------------------------------------------------------ ROUGE
def test_rouge1_one_reference():
    # summary: the cat sat on the mat   reference: the cat is on the mat  (no word > 3 letters,
    # so the stemmer changes nothing). Clipped unigram overlap: the 2, cat 1, on 1, mat 1 = 5.
    # P = 5/6, R = 5/6, F = 5/6.
    p, r, f = RougeScorer("rouge1").score_one(SUMMARY, [REF1])
    assert (p, r, f) == pytest.approx((5 / 6, 5 / 6, 5 / 6))


def test_rouge2_one_reference():
    # summary bigrams: the-cat cat-sat sat-on on-the the-mat (5)
    # reference bigrams: the-cat cat-is is-on on-the the-mat (5); shared: the-cat on-the the-mat = 3
    # P = R = F = 3/5
    assert RougeScorer("rouge2").score_one(SUMMARY, [REF1]) == pytest.approx((0.6, 0.6, 0.6))


def test_rouge1_two_references_mean_and_max():
    # vs REF1: (5/6, 5/6, 5/6). vs REF2 "cat": overlap 1, P = 1/6, R = 1/1,
    # F = 2 (1/6)(1) / (1/6 + 1) = 2/7.
    # mean: P = (5/6 + 1/6)/2 = 1/2, R = (5/6 + 1)/2 = 11/12, F = (5/6 + 2/7)/2 = 47/84
    mean = RougeScorer("rouge1", aggregate="mean").score_one(SUMMARY, [REF1, REF2])
    assert mean == pytest.approx((1 / 2, 11 / 12, 47 / 84))
    # max: P, R and F of the reference with the best F (REF1), so R = 5/6 and not max(R) = 1
    best = RougeScorer("rouge1", aggregate="max").score_one(SUMMARY, [REF1, REF2])
    assert best == pytest.approx((5 / 6, 5 / 6, 5 / 6))


def test_rouge2_two_references_mean_and_max():
    # vs REF1: 3/5 each; vs REF2 "cat" (no bigram): rouge-score gives 0/5, 0/max(0,1), F 0.
    # mean: 0.3 each; max (best F = REF1): 0.6 each
    assert RougeScorer("rouge2").score_one(SUMMARY, [REF1, REF2]) == pytest.approx((0.3, 0.3, 0.3))
    best = RougeScorer("rouge2", aggregate="max").score_one(SUMMARY, [REF1, REF2])
    assert best == pytest.approx((0.6, 0.6, 0.6))


def test_rouge_l_lcs():
    # LCS(the cat sat on the mat, the cat is on the mat) = the cat on the mat = 5 tokens -> 5/6 each
    assert RougeScorer("rougeL").score_one(SUMMARY, [REF1]) == pytest.approx((5 / 6,) * 3)


def test_rouge_stemmer_and_tags():
    # Porter: cats -> cat, running -> run, runs -> run: all unigrams match with the stemmer, none without
    assert RougeScorer("rouge1").score_one("cats running", ["cat runs"])[2] == pytest.approx(1.0)
    assert RougeScorer("rouge1", use_stemmer=False).score_one("cats running", ["cat runs"])[2] == 0.0
    # <t> tags are removed, not counted as a token "t": P = R = 1
    tagged = "<t> the cat sat </t> <t> on the mat </t>"
    assert RougeScorer("rouge1").score_one(tagged, [SUMMARY]) == pytest.approx((1.0, 1.0, 1.0))
    kept = RougeScorer("rouge1", strip_tags=False).score_one(tagged, [SUMMARY])
    assert kept[0] == pytest.approx(6 / 10)  # 4 extra tokens "t" in the summary


def test_split_sentences():
    assert split_sentences("a b . c d ! e") == ["a b .", "c d !", "e"]
    assert split_sentences("<t> a b . </t> <t> c d </t>") == ["a b .", "c d"]
    assert split_sentences("one line\nsecond line") == ["one line", "second line"]
    assert split_sentences('He said "yes." Then (he left.) Ok') == ['He said "yes."', "Then (he left.)", "Ok"]
    with pytest.raises(InputError, match="bogus"):
        split_sentences("x", "bogus")


@pytest.mark.parametrize("variant", ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"])
def test_rouge_equals_rouge_score_package(variant):
    # our cached path must give rouge-score's own numbers (single reference and score_multi)
    from rouge_score import rouge_scorer

    pred = "Paul Merson restarted his row with Andros Townsend.\nTownsend scored for England."
    refs = ["Andros Townsend, an 83rd minute sub, drew with Burnley.\nMerson criticised him.",
            "Merson and Townsend are in a twitter feud.\nTownsend scored against Italy."]
    ref_scorer = rouge_scorer.RougeScorer([variant], use_stemmer=True)
    ours = RougeScorer(variant, sentence_split="newline")
    s = ref_scorer.score(refs[0], pred)[variant]
    assert ours.score_one(pred, refs[:1]) == pytest.approx((s.precision, s.recall, s.fmeasure))
    m = ref_scorer.score_multi(refs, pred)[variant]
    best = RougeScorer(variant, aggregate="max", sentence_split="newline").score_one(pred, refs)
    assert best == pytest.approx((m.precision, m.recall, m.fmeasure))


def test_rouge_names_columns_and_errors():
    assert RougeScorer("rougeLsum").name == "rouge-lsum"
    assert RougeScorer("rouge1").columns() == ["rouge-1-p", "rouge-1-r", "rouge-1-f"]
    assert RougeScorer("rouge1", aggregate="max").columns() == ["rouge-1-p-max", "rouge-1-r-max",
                                                                "rouge-1-f-max"]
    sig = RougeScorer("rouge2", aggregate="max").signature()
    assert "agg=max" in sig and "max_by=best-f-reference" in sig and "rouge-score=" in sig
    with pytest.raises(InputError, match="rougeX"):
        RougeScorer("rougeX")
    with pytest.raises(InputError, match="median"):
        RougeScorer("rouge1", aggregate="median")


# ------------------------------------------------------------------------------------ BLEU
def test_bleu_single_reference_hand_value():
    # hyp: the cat sat on the mat   ref: the cat sat on a mat   (both 6 tokens: brevity penalty 1)
    # clipped precisions: 1-grams 5/6 (one "the" clipped), 2-grams 3/5 (the-cat cat-sat sat-on),
    # 3-grams 2/4 (the-cat-sat cat-sat-on), 4-grams 1/3 (the-cat-sat-on)
    # no smoothing: (5/6 * 3/5 * 1/2 * 1/3)^(1/4) = (1/12)^(1/4)
    hyp, ref = "the cat sat on the mat", "the cat sat on a mat"
    assert BleuScorer(smoothing="method0").score_one(hyp, [ref]) == pytest.approx((1 / 12) ** 0.25)
    # NLTK method2 adds 1 to matches and counts of n >= 2: 5/6, 4/6, 3/5, 2/4 -> (1/6)^(1/4)
    assert BleuScorer(smoothing="method2").score_one(hyp, [ref]) == pytest.approx((1 / 6) ** 0.25)


def test_bleu_multi_reference_hand_value():
    # refs: "the cat sat on a mat", "a cat sat on the mat"; an n-gram is clipped at its highest
    # count in any one reference: 1-grams 5/6 ("the" twice in hyp, at most once per ref),
    # 2-, 3-, 4-grams all found in one of the refs: 5/5, 4/4, 3/3 -> BLEU = (5/6)^(1/4)
    bleu = BleuScorer(smoothing="method0").score_one(
        "the cat sat on the mat", ["the cat sat on a mat", "a cat sat on the mat"])
    assert bleu == pytest.approx((5 / 6) ** 0.25)


def test_bleu_options_and_case():
    assert BleuScorer().score_one("The Cat", ["the cat"]) < 1.0
    assert BleuScorer(lowercase=True).score_one("The Cat sat on it", ["the cat sat on it"]) == 1.0
    opts = BleuScorer().options()
    assert opts == {"tokenize": "split", "lowercase": False, "smoothing": "method2", "max_n": 4,
                    "strip_tags": True}
    with pytest.raises(InputError, match="method9"):
        BleuScorer(smoothing="method9")
    with pytest.raises(InputError, match="spacy"):
        BleuScorer(tokenize="spacy")


# ------------------------------------------------------------------------------------ JS
def test_js_divergence_by_hand():
    # p = (1/2, 1/2), q = (1, 0), m = (3/4, 1/4)
    # KL(p||m) = 1/2 ln(2/3) + 1/2 ln 2 = 1/2 ln(4/3);  KL(q||m) = ln(4/3)
    # JS = (1/2 ln(4/3) + ln(4/3)) / 2 = 3/4 ln(4/3) = 0.215761
    p, q = {"a": 0.5, "b": 0.5}, {"a": 1.0}
    assert js_divergence(p, q) == pytest.approx(0.75 * math.log(4 / 3))
    assert js_divergence(p, q, base=2) == pytest.approx(0.75 * math.log2(4 / 3))
    assert js_divergence(q, p) == pytest.approx(js_divergence(p, q))  # symmetric
    assert js_divergence(p, p) == 0.0  # JS(x, x) = 0
    assert js_divergence({"a": 1.0}, {"b": 1.0}) == pytest.approx(math.log(2))  # disjoint: ln 2
    # an empty distribution (no kept n-gram) is taken as disjoint from any other: ln 2
    assert js_divergence({}, {"b": 1.0}) == pytest.approx(math.log(2))
    assert js_divergence({"b": 1.0}, {}, base=2) == pytest.approx(1.0)
    assert math.isnan(js_divergence({}, {}))


def test_js2_scorer_by_hand():
    # summary "<t> cats sat </t>": tokens cat sat (Snowball: cats -> cat) -> bigrams {cat-sat: 1}
    # reference "The cat sat": the cat sat -> {the-cat: 1/2, cat-sat: 1/2} ("the" is a stopword
    # but the bigram has a content word). JS = 3/4 ln(4/3) as above.
    sc = JensenShannonScorer()
    assert sc.score_one("<t> cats sat </t>", ["The cat sat"]) == pytest.approx(0.75 * math.log(4 / 3))
    assert sc.score_one("the cat sat", ["the cat sat"]) == 0.0
    # bigrams made only of stopwords ("of the") are dropped
    # out-of, of-the: stopwords only, dropped; the-box kept
    assert dict(sc.ngram_counts("out of the box")) == {("the", "box"): 1}
    # two references: mean of the divergences (0 and ln 2) vs one pooled distribution
    refs = ["red apple", "blue sky"]
    assert sc.score_one("red apple", refs) == pytest.approx(math.log(2) / 2)
    pooled = JensenShannonScorer(multi_ref="pooled").score_one("red apple", refs)
    # p = {red-apple: 1}, pooled q = {red-apple: 1/2, blue-sky: 1/2}: same as the hand case above
    assert pooled == pytest.approx(0.75 * math.log(4 / 3))
    assert JensenShannonScorer.higher_is_better is False
    assert len(NLTK_ENGLISH_STOPWORDS) == 179
    # "a the c": a-the dropped (stopwords only), the-c kept
    assert distribution(sc.ngram_counts("a the c")) == {("the", "c"): 1.0}


def test_js_against_text_reads_text():
    sc = JensenShannonScorer(against="text")
    assert sc.needs == ("text",)
    out = sc.score_batch(Batch(summaries=["red apple"], texts=["red apple"]))
    assert out["js-2"] == pytest.approx([0.0])


# ------------------------------------------------------------------------------------ registry
def test_get_scorer_builds_registered_measures():
    sc = metrics.get_scorer("rouge-2")
    assert isinstance(sc, RougeScorer) and sc.name == "rouge-2" and sc.variant == "rouge2"
    assert sc.columns() == ["rouge-2-p", "rouge-2-r", "rouge-2-f"]
    assert metrics.get_scorer("ROUGE-L").name == "rouge-l"
    assert metrics.get_scorer("rouge-lsum").columns()[2] == "rouge-lsum-f"
    assert metrics.get_scorer("rouge-1", aggregate="max").columns()[2] == "rouge-1-f-max"
    assert metrics.get_scorer("bleu").columns() == ["bleu"]
    js = metrics.get_scorer("js-2")
    assert js.columns() == ["js-2"] and js.higher_is_better is False


def test_unknown_measure_names_it():
    with pytest.raises(InputError, match="rouge-42x"):
        metrics.get_scorer("rouge-42x")


def test_score_records_skips_and_reports():
    records = [
        {"summary": SUMMARY, "references": [REF1, REF2]},
        {"summary": "   ", "references": [REF1]},
        {"summary": SUMMARY},
        {"summary": SUMMARY, "references": ["", None]},
    ]
    frame, report = metrics.score_records(records, ["rouge-1", "rouge-2", "bleu", "js-2"])
    assert len(frame) == 4  # rows never dropped
    assert frame.loc[0, "rouge-1-f"] == pytest.approx(47 / 84)
    assert frame.loc[0, "rouge-2-f"] == pytest.approx(0.3)
    assert np.isfinite(frame.loc[0, ["bleu", "js-2"]].astype(float)).all()
    assert frame.loc[1:].isna().all().all()
    skipped = {(i, m): why for i, m, why in report.skipped}
    assert skipped[(1, "rouge-1")] == "empty summary"
    assert "references" in skipped[(2, "bleu")] and "references" in skipped[(3, "js-2")]
    assert len(report.skipped) == 3 * 4
    assert set(report.signatures) == {"rouge-1", "rouge-2", "bleu", "js-2"}
