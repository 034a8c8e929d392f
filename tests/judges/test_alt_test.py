"""The alternative annotator test (sumeval.judges.alt_test): every formula by hand on a tiny
fixture, and equality with the authors' code (nitaytech/AltTest) on a sparse fixture and on SummEval.

HOW THE PINNED NUMBERS WERE OBTAINED (they are not computed by sumeval): the authors' function
``alt_test`` (with ``by_procedure``, ``neg_rmse``, ``accuracy``, ``ttest``) was taken verbatim from cell 2
of ``alt_test_example.ipynb`` at nitaytech/AltTest commit 18428b1 and run outside this repository
(``exec`` of the cell's source in a scratch venv: Python 3.11.7, numpy 2.4.6, scipy 1.17.1), its
``ttest`` wrapped only to record the p-values it returns, in the order of the annotators:

* FIXTURE_PINS: on tests/fixtures/judges/judgments_annotators.csv, read with the csv module, one
  instance per (row, human column) and the judge's value from column ``<judge>_<human>`` (or
  ``judge_flat``); cells left empty are absent from the authors' dictionaries; pooled = the instances
  of both human columns together. ``alt_test(llm, humans, alignment, epsilon=eps)`` with its defaults
  q_fdr=0.05, min_humans_per_instance=2, min_instances_per_human=30 (annotator a4, with 20
  instances, is skipped by both codes). Key "label|alignment|judge|epsilon" -> (winning rate,
  advantage probability, p-values of a1, a2, a3).
* SUMMEVAL_PINS / SUMMEVAL_P: on the shared data files summeval_annotators/human_annotations.json
  (sha256 2e641f50...) and llm_annotations.json (sha256 a6200543...), as the authors' notebook reads
  them (instance = "doc__system__quality"); per quality = the instances whose key ends in
  "__<quality>"; epsilon 0.2. Key "quality|alignment|judge" -> (winning rate, advantage probability).
* NOTEBOOK_POOLED_RHO: printed in the outputs of the same notebook (cell 4, "summeval <judge>
  [FAILED]: Winning Rate=0.00 Advantage Probability=..."), to 2 decimals.
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sumeval.errors import InputError
from sumeval.judges.alt_test import (
    alignment_scores,
    alt_test,
    alt_test_arrays,
    by_adjust,
    by_reject,
    one_sided_t_pvalues,
)

from helpers import FIXTURES  # tests/ is on the path

FIXTURE = FIXTURES / "judges" / "judgments_annotators.csv"
QUALITIES = ["coherence", "consistency", "fluency", "relevance"]
LLMS = ["gemini_flash", "gemini_pro", "gpt-4o", "llama-31", "gpt-4o-mini", "mistral-v03"]

FIXTURE_PINS = {
    "overall|neg_rmse|judge_good|0.2":
        (1.0, 0.8212904728627999, [0.0021179481150722878, 0.00014353070196179165, 0.0004001045709602789]),
    "overall|neg_rmse|judge_good|0.0":
        (0.0, 0.8212904728627999, [0.16111170297533772, 0.03369652725796717, 0.10187894908206119]),
    "overall|neg_rmse|judge_bad|0.2":
        (0.0, 0.4753218459100812, [0.9777605484054518, 0.7537072981091257, 0.9883526371748702]),
    "overall|neg_rmse|judge_bad|0.0":
        (0.0, 0.4753218459100812, [0.9999464027519545, 0.9938579133973255, 0.999956184586698]),
    "overall|neg_rmse|judge_flat|0.2":
        (0.0, 0.6112893642305407, [0.7592139543923103, 0.1318374065862389, 0.43624179729354395]),
    "overall|neg_rmse|judge_flat|0.0":
        (0.0, 0.6112893642305407, [0.9940786631419213, 0.7393107492563309, 0.9755614268170445]),
    "overall|accuracy|judge_good|0.2":
        (1.0, 0.8345073375262055, [0.002322891997828517, 0.0008736894880978817, 0.0036165300177250087]),
    "overall|accuracy|judge_good|0.0":
        (0.0, 0.8345073375262055, [0.2484170709530555, 0.15074301073770568, 0.32950967999647746]),
    "overall|accuracy|judge_bad|0.2":
        (0.0, 0.6192777447679408, [0.8756109767130565, 0.5747390297028987, 0.5864494973946428]),
    "overall|accuracy|judge_bad|0.0":
        (0.0, 0.6192777447679408, [0.9996835159404089, 0.9864629711855981, 0.9837186046241246]),
    "overall|accuracy|judge_flat|0.2":
        (0.0, 0.6735459166831715, [0.7142677793886594, 0.07285359307992785, 0.5181581048869119]),
    "overall|accuracy|judge_flat|0.0":
        (0.0, 0.6735459166831715, [0.9945533161128631, 0.7089183428419221, 0.992534686016081]),
    "fluency|neg_rmse|judge_good|0.2":
        (1.0, 0.8354503226867266, [0.010983386230909246, 2.2823294011716237e-05, 7.382215490122821e-05]),
    "fluency|neg_rmse|judge_good|0.0":
        (0.0, 0.8354503226867266, [0.35463445306854235, 0.024271689858921534, 0.02991119667443153]),
    "fluency|neg_rmse|judge_bad|0.2":
        (0.0, 0.59661141327808, [0.6452373018060246, 0.5747390297028987, 0.3297731168491097]),
    "fluency|neg_rmse|judge_bad|0.0":
        (0.0, 0.59661141327808, [0.9843856337948227, 0.9864629711855981, 0.9271008509242022]),
    "fluency|neg_rmse|judge_flat|0.2":
        (0.0, 0.695178278511612, [0.03606353255994411, 0.018606025969299955, 0.09637668783188143]),
    "fluency|neg_rmse|judge_flat|0.0":
        (0.0, 0.695178278511612, [0.5, 0.42968778382508555, 0.7025487954044034]),
    "fluency|accuracy|judge_good|0.2":
        (1.0, 0.8483920472451735, [0.010083725925851078, 0.00031384193803817327, 0.00016453920664608642]),
    "fluency|accuracy|judge_good|0.0":
        (0.0, 0.8483920472451735, [0.4185557335714772, 0.12754895787532713, 0.07967246603218298]),
    "fluency|accuracy|judge_bad|0.2":
        (0.0, 0.6773590606923942, [0.4409085416232127, 0.3422378121609971, 0.23834117814090353]),
    "fluency|accuracy|judge_bad|0.0":
        (0.0, 0.6773590606923942, [0.9663034727420329, 0.9642572423677698, 0.926960919726491]),
    "fluency|accuracy|judge_flat|0.2":
        (0.0, 0.7019511352844686, [0.37198020328473974, 0.05876859849434163, 0.1748124946256236]),
    "fluency|accuracy|judge_flat|0.0":
        (0.0, 0.7019511352844686, [0.9467048273819995, 0.7233250481196742, 0.8980924970070844]),
    "pooled|neg_rmse|judge_good|0.2":
        (1.0, 0.8281067039157654, [0.00012770557197374106, 2.6662159455990604e-08, 1.779547278327926e-07]),
    "pooled|neg_rmse|judge_good|0.0":
        (0.6666666666666666, 0.8281067039157654, [0.16937024858916375, 0.0036054960323986065, 0.01230981619048359]),
    "pooled|neg_rmse|judge_bad|0.2":
        (0.0, 0.5353235862669825, [0.9422292875036863, 0.7384267175782224, 0.9118480278199772]),
    "pooled|neg_rmse|judge_bad|0.0":
        (0.0, 0.5353235862669825, [0.9999849215348383, 0.999612757875355, 0.9999478225670906]),
    "pooled|neg_rmse|judge_flat|0.2":
        (0.0, 0.6538620708432029, [0.19317439241249976, 0.012330282303815044, 0.13770080555139744]),
    "pooled|neg_rmse|judge_flat|0.0":
        (0.0, 0.6538620708432029, [0.9575768779779097, 0.6401257934487715, 0.9574493761183982]),
    "pooled|accuracy|judge_good|0.2":
        (1.0, 0.8410516877345356, [0.000130137865125263, 1.6582309996659241e-06, 4.249133459673849e-06]),
    "pooled|accuracy|judge_good|0.0":
        (0.0, 0.8410516877345356, [0.2698474258554507, 0.061677475260502115, 0.09789268713240115]),
    "pooled|accuracy|judge_bad|0.2":
        (0.0, 0.6478613629557025, [0.7228073576715119, 0.4446946767766552, 0.38054800145863743]),
    "pooled|accuracy|judge_bad|0.0":
        (0.0, 0.6478613629557025, [0.9998308731587724, 0.99791955938633, 0.995125006395117]),
    "pooled|accuracy|judge_flat|0.2":
        (0.0, 0.6877671594652727, [0.5540383741729296, 0.015933944236214352, 0.25576844213997424]),
    "pooled|accuracy|judge_flat|0.0":
        (0.0, 0.6877671594652727, [0.9982924705193869, 0.7916467613953284, 0.9955566564749653]),
}

SUMMEVAL_PINS = {
    "pooled|neg_rmse|gemini_flash": (0.0, 0.46125),
    "pooled|neg_rmse|gemini_pro": (0.0, 0.44197916666666665),
    "pooled|neg_rmse|gpt-4o": (0.0, 0.4757291666666667),
    "pooled|neg_rmse|llama-31": (0.0, 0.5811458333333334),
    "pooled|neg_rmse|gpt-4o-mini": (0.0, 0.5445833333333333),
    "pooled|neg_rmse|mistral-v03": (0.0, 0.62296875),
    "pooled|accuracy|gemini_flash": (0.0, 0.5113541666666667),
    "pooled|accuracy|gemini_pro": (0.0, 0.4791145833333334),
    "pooled|accuracy|gpt-4o": (0.0, 0.5043229166666666),
    "pooled|accuracy|llama-31": (0.0, 0.6057291666666667),
    "pooled|accuracy|gpt-4o-mini": (0.0, 0.5405208333333333),
    "pooled|accuracy|mistral-v03": (0.3333333333333333, 0.6856249999999999),
    "coherence|neg_rmse|gemini_flash": (0.6666666666666666, 0.6375000000000001),
    "coherence|neg_rmse|gemini_pro": (0.6666666666666666, 0.6645833333333334),
    "coherence|neg_rmse|gpt-4o": (1.0, 0.751875),
    "coherence|neg_rmse|llama-31": (1.0, 0.7018749999999999),
    "coherence|neg_rmse|gpt-4o-mini": (1.0, 0.7483333333333334),
    "coherence|neg_rmse|mistral-v03": (0.3333333333333333, 0.57625),
    "coherence|accuracy|gemini_flash": (1.0, 0.6906249999999999),
    "coherence|accuracy|gemini_pro": (1.0, 0.7056250000000001),
    "coherence|accuracy|gpt-4o": (1.0, 0.715),
    "coherence|accuracy|llama-31": (1.0, 0.7164583333333333),
    "coherence|accuracy|gpt-4o-mini": (1.0, 0.7183333333333334),
    "coherence|accuracy|mistral-v03": (0.3333333333333333, 0.6745833333333334),
    "consistency|neg_rmse|gemini_flash": (0.0, 0.5079166666666667),
    "consistency|neg_rmse|gemini_pro": (0.0, 0.32375000000000004),
    "consistency|neg_rmse|gpt-4o": (0.0, 0.43791666666666673),
    "consistency|neg_rmse|llama-31": (0.0, 0.683125),
    "consistency|neg_rmse|gpt-4o-mini": (0.0, 0.4575),
    "consistency|neg_rmse|mistral-v03": (1.0, 0.8747916666666667),
    "consistency|accuracy|gemini_flash": (0.0, 0.5133333333333333),
    "consistency|accuracy|gemini_pro": (0.0, 0.32583333333333336),
    "consistency|accuracy|gpt-4o": (0.0, 0.4458333333333333),
    "consistency|accuracy|llama-31": (0.0, 0.6931249999999999),
    "consistency|accuracy|gpt-4o-mini": (0.0, 0.46125),
    "consistency|accuracy|mistral-v03": (1.0, 0.9039583333333333),
    "fluency|neg_rmse|gemini_flash": (0.0, 0.16374999999999998),
    "fluency|neg_rmse|gemini_pro": (0.0, 0.14520833333333336),
    "fluency|neg_rmse|gpt-4o": (0.0, 0.21041666666666667),
    "fluency|neg_rmse|llama-31": (0.0, 0.19895833333333332),
    "fluency|neg_rmse|gpt-4o-mini": (0.0, 0.2075),
    "fluency|neg_rmse|mistral-v03": (0.0, 0.4770833333333333),
    "fluency|accuracy|gemini_flash": (0.0, 0.19708333333333336),
    "fluency|accuracy|gemini_pro": (0.0, 0.18770833333333334),
    "fluency|accuracy|gpt-4o": (0.0, 0.2333333333333333),
    "fluency|accuracy|llama-31": (0.0, 0.23083333333333333),
    "fluency|accuracy|gpt-4o-mini": (0.0, 0.2225),
    "fluency|accuracy|mistral-v03": (0.0, 0.4614583333333333),
    "relevance|neg_rmse|gemini_flash": (0.0, 0.5358333333333333),
    "relevance|neg_rmse|gemini_pro": (0.6666666666666666, 0.6343749999999999),
    "relevance|neg_rmse|gpt-4o": (0.0, 0.5027083333333333),
    "relevance|neg_rmse|llama-31": (1.0, 0.740625),
    "relevance|neg_rmse|gpt-4o-mini": (1.0, 0.765),
    "relevance|neg_rmse|mistral-v03": (0.3333333333333333, 0.56375),
    "relevance|accuracy|gemini_flash": (0.0, 0.644375),
    "relevance|accuracy|gemini_pro": (1.0, 0.6972916666666666),
    "relevance|accuracy|gpt-4o": (0.0, 0.623125),
    "relevance|accuracy|llama-31": (1.0, 0.7824999999999999),
    "relevance|accuracy|gpt-4o-mini": (1.0, 0.7599999999999999),
    "relevance|accuracy|mistral-v03": (0.3333333333333333, 0.7025),
}

# "quality|alignment|judge" -> the authors' p-values of e0, e1, e2 (pooled mistral: the only pooled
# neg_rmse p-value below 1)
SUMMEVAL_P = {
    "pooled|neg_rmse|mistral-v03": [1.0, 1.0, 0.4078799313018339],
    "coherence|neg_rmse|gemini_flash": [2.5712246943299983e-12, 1.1437919654839172e-05, 0.9596022917716452],
    "coherence|neg_rmse|gemini_pro": [1.1890628291934132e-17, 7.717977132093123e-13, 0.444195019887586],
    "coherence|neg_rmse|gpt-4o": [3.102074573169777e-48, 3.4209439939205696e-54, 2.4234749152853465e-32],
    "coherence|neg_rmse|llama-31": [3.5186522505168733e-19, 2.6177921584873385e-23, 3.8134969281389395e-16],
    "coherence|neg_rmse|gpt-4o-mini": [1.013594630000432e-43, 1.2998093755319283e-54, 2.1155836191222426e-28],
    "coherence|neg_rmse|mistral-v03": [0.9999999999999921, 0.8932823186132542, 8.108223508519328e-05],
}

NOTEBOOK_POOLED_RHO = {"gemini_flash": 0.46, "gemini_pro": 0.44, "gpt-4o": 0.48, "llama-31": 0.58,
                       "gpt-4o-mini": 0.54, "mistral-v03": 0.62}

SHA256 = {"human_annotations.json": "2e641f502678ea8c7344ed137bca58a12525bfcf69bc068e580b236ce2b17519",
          "llm_annotations.json": "a6200543db890e4691eca3620ad6f1627fc7a22fee5a0139bc9805e388fb1d90"}


# --------------------------------------------------------------------------------------------
# the formulas, by hand
# --------------------------------------------------------------------------------------------
def test_alignment_scores_by_hand():
    # item [1, 3, 5], annotator 0 left out: group {3, 5}
    ann = np.array([[1.0, 3.0, 5.0]])
    group = np.array([[False, True, True]])
    # annotator 0 (value 1): neg_rmse -sqrt(((1-3)^2 + (1-5)^2) / 2) = -sqrt(10); neg_mae -(2 + 4)/2 = -3;
    # accuracy 0/2. judge 4: -sqrt((1 + 1)/2) = -1; -(1 + 1)/2 = -1; accuracy 0. judge 3: -sqrt((0 + 4)/2) =
    # -sqrt(2); -(0 + 2)/2 = -1; accuracy 1/2.
    assert alignment_scores(np.array([1.0]), ann, group, "neg_rmse")[0] == pytest.approx(-math.sqrt(10))
    assert alignment_scores(np.array([1.0]), ann, group, "neg_mae")[0] == pytest.approx(-3.0)
    judges = np.array([[4.0], [3.0]])
    np.testing.assert_allclose(alignment_scores(judges, ann, group, "neg_rmse")[:, 0], [-1.0, -math.sqrt(2)])
    np.testing.assert_allclose(alignment_scores(judges, ann, group, "neg_mae")[:, 0], [-1.0, -1.0])
    np.testing.assert_allclose(alignment_scores(judges, ann, group, "accuracy")[:, 0], [0.0, 0.5])
    # an empty group or a missing value gives NaN
    assert np.isnan(alignment_scores(np.array([2.0]), ann, np.zeros((1, 3), bool), "neg_rmse")[0])
    assert np.isnan(alignment_scores(np.array([np.nan]), ann, group, "accuracy")[0])


def test_t_test_by_hand():
    # d = [0, -1, 0, 1, -1, -1]: mean -1/3; squared deviations 1/9, 4/9, 1/9, 16/9, 4/9, 4/9 sum to 10/3,
    # variance (10/3)/5 = 2/3, standard error sqrt((2/3)/6) = 1/3; t = (-1/3 - 0.2) / (1/3) = -1.6 on
    # 5 degrees of freedom: p = F_t5(-1.6) (the t distribution's CDF from scipy)
    d = np.array([[0.0, -1.0, 0.0, 1.0, -1.0, -1.0]])
    p = one_sided_t_pvalues(d, np.ones_like(d, bool), 0.2)[0]
    assert p == pytest.approx(sps.t.cdf(-1.6, 5), rel=1e-12)
    assert p == pytest.approx(sps.ttest_1samp(d[0], 0.2, alternative="less").pvalue, rel=1e-12)
    # constant d: below epsilon p = 0, above p = 1, equal NaN (scipy's t = -inf, +inf, 0/0)
    const = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.5, 0.5, 0.5]])
    np.testing.assert_array_equal(one_sided_t_pvalues(const, np.ones_like(const, bool), 0.5)[:2], [0.0, 1.0])
    assert np.isnan(one_sided_t_pvalues(const, np.ones_like(const, bool), 0.5)[2])
    # entries not used are ignored; fewer than 2 used entries give NaN
    used = np.array([[True, True, False, False, True, True]])
    # d used = [0, -1, -1, -1]: mean -3/4, deviations 3/4, -1/4 x3: (9 + 3)/16 = 3/4, var 1/4,
    # se sqrt(1/16) = 1/4, t = (-0.75 - 0.2) / 0.25 = -3.8 on 3 degrees of freedom
    assert one_sided_t_pvalues(d, used, 0.2)[0] == pytest.approx(sps.t.cdf(-3.8, 3), rel=1e-12)
    assert np.isnan(one_sided_t_pvalues(d, np.eye(1, 6, dtype=bool), 0.2)[0])


def test_benjamini_yekutieli_by_hand():
    # m = 4, H_4 = 25/12; thresholds i/4 * 0.05 / (25/12) = 0.006 i: only 0.001 <= 0.006
    p = [0.5, 0.001, 0.03, 0.02]
    np.testing.assert_array_equal(by_reject(p, 0.05), [False, True, False, False])
    # adjusted m H_4 p_(i) / i = (25/3) p / i: 0.008333, 0.083333, 0.083333, 1 (capped), running minimum from the top
    np.testing.assert_allclose(by_adjust(p), [1.0, 0.001 * 25 / 3, 0.03 * 25 / 9, 0.03 * 25 / 9])
    # step-up: m = 3, H_3 = 11/6, thresholds 0.05 i / 5.5 = 0.00909 i; 0.010 fails its own threshold but
    # 0.012 <= 0.02727 passes, so all three are rejected; adjusted min over 5.5 p / i from the top = 0.022
    p = [0.012, 0.010, 0.011]
    np.testing.assert_array_equal(by_reject(p, 0.05), [True, True, True])
    np.testing.assert_allclose(by_adjust(p), [0.022, 0.022, 0.022])
    # a NaN counts in m (m = 2, H_2 = 1.5: thresholds 0.01667, 0.0333) and is never rejected
    np.testing.assert_array_equal(by_reject([np.nan, 0.001], 0.05), [False, True])
    adj = by_adjust([np.nan, 0.001])
    assert np.isnan(adj[0]) and adj[1] == pytest.approx(0.001 * 2 * 1.5)
    assert by_reject([], 0.05).size == 0


# annotations (items x annotators 1..3) and two judges; item 4 has one annotator (dropped)
TINY = np.array([[1.0, 2.0, 3.0], [4.0, 4.0, 5.0], [2.0, 3.0, np.nan], [5.0, np.nan, np.nan]])
TINY_JUDGES = np.array([[2.0, 4.0, 3.0, 5.0], [np.nan, 5.0, 2.0, 1.0]])


def test_alt_test_arrays_by_hand():
    res = alt_test_arrays(TINY, TINY_JUDGES, alignment="neg_rmse", epsilon=0.2, min_items=2)
    # judge 1, annotator 1 left out (items 1-3): item 1 group {2, 3}: annotator sqrt((1 + 4)/2) = 1.58,
    # judge 2: sqrt((0 + 1)/2) = 0.71 -> judge wins; item 2 group {4, 5}: both 4 -> tie, both win;
    # item 3 group {3}: annotator 1, judge 0 -> judge wins. rho_f = 3/3, rho_h = 1/3; d = [-1, 0, -1]:
    # mean -2/3, var ((1 + 4 + 1)/9)/2 = 1/3, se 1/3, t = (-2/3 - 0.2)/(1/3) = -2.6 on 2 df:
    # F_t2(t) = 1/2 + t / (2 sqrt(2 + t^2)) = 0.5 - 2.6 / (2 sqrt(8.76)) = 0.060771
    p1 = 0.5 - 2.6 / (2 * math.sqrt(8.76))
    # annotator 2 left out: item 1 group {1, 3}: annotator 2 and judge 2 tie; item 2 ties; item 3 group {2}:
    # annotator 3 and judge 3 tie -> d = [0, 0, 0], constant below epsilon: p = 0; rho_f = rho_h = 1.
    # annotator 3 left out (items 1, 2): item 1 group {1, 2}: annotator sqrt((4 + 1)/2), judge sqrt(1/2) ->
    # judge; item 2 group {4, 4}: annotator 1, judge 0 -> judge; d = [-1, -1]: p = 0; rho_f 1, rho_h 0.
    np.testing.assert_allclose(res["p_value"][0], [p1, 0.0, 0.0], rtol=1e-12)
    np.testing.assert_allclose(res["rho_judge"][0], [1.0, 1.0, 1.0])
    np.testing.assert_allclose(res["rho_annotator"][0], [1 / 3, 1.0, 0.0])
    np.testing.assert_array_equal(res["n_items"][0], [3, 3, 2])
    # BY, m = 3: thresholds 0.00909 i over the sorted [0, 0, 0.0608]: the two zeros are rejected
    np.testing.assert_array_equal(res["won"][0], [False, True, True])
    assert res["winning_rate"][0] == pytest.approx(2 / 3) and res["passed"][0]
    assert res["advantage_probability"][0] == 1.0 and res["n_items_kept"][0] == 3
    # judge 2 (no score on item 1), annotator 1 left out: item 2 group {4, 5}: annotator 4 and judge 5 are
    # both sqrt(1/2) away -> tie; item 3 group {3}: 2 and 2 tie -> d = [0, 0]: p = 0, rho_f = rho_h = 1
    assert res["n_items"][1, 0] == 2 and res["p_value"][1, 0] == 0.0 and res["rho_judge"][1, 0] == 1.0
    # min_items 3: annotator 3 (2 items) is skipped: m = 2, thresholds 0.05 i / (2 x 1.5) = 0.0167 i over
    # [0 (annotator 2), 0.0608 (annotator 1)]: one of two rejected -> winning rate 1/2 = the pass line
    res3 = alt_test_arrays(TINY, TINY_JUDGES[:1], min_items=3)
    np.testing.assert_array_equal(res3["tested"][0], [True, True, False])
    assert np.isnan(res3["p_value"][0, 2]) and res3["winning_rate"][0] == 0.5 and res3["passed"][0]
    assert res3["n_annotators"][0] == 2 and res3["advantage_probability"][0] == 1.0


def _frame_of(annotations: np.ndarray, judges: np.ndarray, human: str = "q") -> pd.DataFrame:
    f = pd.DataFrame({"doc_id": [f"d{i}" for i in range(len(annotations))], "system": "s"})
    for a in range(annotations.shape[1]):
        f[f"{human}/r{a + 1}"] = annotations[:, a]
    for j in range(judges.shape[0]):
        f[f"judge{j + 1}/{human}"] = judges[j]
    return f


def test_frame_level_rows_match_the_arrays():
    res = alt_test(_frame_of(TINY, TINY_JUDGES), "q", ["judge1", "judge2"], min_items=2)
    r = res.results.set_index("judge")
    assert list(res.results.columns[:9]) == ["judge", "human", "alignment", "epsilon", "q", "winning_rate",
                                             "advantage_probability", "passed", "n_items"]
    assert r.loc["judge1", "winning_rate"] == pytest.approx(2 / 3) and bool(r.loc["judge1", "passed"])
    assert r.loc["judge1", "n_annotators"] == 3 and r.loc["judge1", "n_won"] == 2 and r.loc["judge2", "n_items"] == 2
    per = res.annotators.set_index(["judge", "annotator"])
    assert per.loc[("judge1", "r1"), "p_value"] == pytest.approx(0.5 - 2.6 / (2 * math.sqrt(8.76)))
    assert per.loc[("judge1", "r1"), "judge_column"] == "judge1/q"
    assert not per.loc[("judge1", "r1"), "won"] and per.loc[("judge1", "r3"), "won"]


def test_pooled_stacks_items_and_matches_annotators_by_name():
    # two human columns of the same 4 items; pooled = 8 items, annotators r1..r3 matched by name
    f = _frame_of(TINY, TINY_JUDGES[:1], "a")
    g = _frame_of(TINY[::-1].copy(), TINY_JUDGES[:1, ::-1].copy(), "b")
    both = pd.concat([f, g.drop(columns=["doc_id", "system"])], axis=1)
    res = alt_test(both, ["a", "b"], "judge1", pooled=True, min_items=2)
    pooled = res.results[res.results.human == "pooled"].iloc[0]
    stacked = alt_test_arrays(np.vstack([TINY, TINY[::-1]]), np.hstack([TINY_JUDGES[:1], TINY_JUDGES[:1, ::-1]]),
                              min_items=2)
    assert pooled.n_items == 6 and pooled.winning_rate == stacked["winning_rate"][0]
    assert pooled.advantage_probability == stacked["advantage_probability"][0]
    assert set(res.results.human) == {"a", "b", "pooled"}


# --------------------------------------------------------------------------------------------
# equal to the authors' code
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(FIXTURE_PINS))
def test_equals_the_authors_code_on_the_sparse_fixture(key):
    label, alignment, judge, eps = key.split("|")
    winning, rho, pvalues = FIXTURE_PINS[key]
    frame = pd.read_csv(FIXTURE)
    humans = ["overall", "fluency"] if label == "pooled" else [label]
    spec = judge if judge == "judge_flat" else judge + "_{human}"
    res = alt_test(frame, humans, spec, pooled=label == "pooled", per_human=label != "pooled", alignment=alignment,
                   epsilon=float(eps))
    row = res.results.iloc[0]
    assert abs(row.winning_rate - winning) <= 1e-9
    assert abs(row.advantage_probability - rho) <= 1e-9
    tested = res.annotators[res.annotators.tested]
    assert list(tested.annotator) == ["a1", "a2", "a3"]  # a4 has 20 items < 30: skipped by both codes
    np.testing.assert_allclose(tested.p_value.to_numpy(), pvalues, rtol=0, atol=1e-9)
    assert not res.annotators[~res.annotators.tested].won.any()


def _summeval_files() -> dict[str, Path] | None:
    from sumeval.paths import data_search_path

    for base in data_search_path():
        folder = base / "summeval_annotators"
        if all((folder / n).is_file() for n in SHA256):
            return {n: folder / n for n in SHA256}
    return None


@pytest.fixture(scope="module")
def summeval_frame() -> pd.DataFrame:
    """The 1,600 SummEval summaries: ``<quality>/e0..e2`` (the experts as the authors' file names them)
    and ``<llm>/<quality>`` judge columns, read from the two JSON files directly."""
    files = _summeval_files()
    if files is None:
        pytest.skip("summeval_annotators/*.json not found (see the data MANIFEST)")
    for name, path in files.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == SHA256[name], f"{path} changed"
    humans = json.loads(files["human_annotations.json"].read_text())
    llms = json.loads(files["llm_annotations.json"].read_text())
    rows: dict[tuple[str, str], dict] = {}
    for key in humans["e0"]:
        doc, system, quality = key.split("__")
        row = rows.setdefault((doc, system), {"doc_id": doc, "system": system})
        for expert in ("e0", "e1", "e2"):
            row[f"{quality}/{expert}"] = humans[expert][key]
        for llm in LLMS:
            row[f"{llm}/{quality}"] = llms[llm][key]
    return pd.DataFrame(list(rows.values()))


@pytest.mark.parametrize("alignment", ["neg_rmse", "accuracy"])
def test_equals_the_authors_code_on_summeval(summeval_frame, alignment):
    res = alt_test(summeval_frame, QUALITIES, LLMS, pooled=True, alignment=alignment)
    assert len(res.results) == 6 * 5
    for row in res.results.itertuples():
        winning, rho = SUMMEVAL_PINS[f"{row.human}|{alignment}|{row.judge}"]
        assert abs(row.winning_rate - winning) <= 1e-9, (row.human, row.judge)
        assert abs(row.advantage_probability - rho) <= 1e-9, (row.human, row.judge)
        assert row.n_items == (6400 if row.human == "pooled" else 1600) and row.n_annotators == 3
    per = res.annotators.set_index(["human", "judge"])
    for key, pvalues in SUMMEVAL_P.items():
        human, al, judge = key.split("|")
        if al == alignment:
            np.testing.assert_allclose(per.loc[(human, judge), "p_value"].to_numpy(), pvalues, rtol=1e-9, atol=1e-12)


def test_pooled_rho_matches_the_authors_notebook(summeval_frame):
    res = alt_test(summeval_frame, QUALITIES, LLMS, pooled=True, per_human=False)
    for row in res.results.itertuples():
        assert round(row.advantage_probability, 2) == NOTEBOOK_POOLED_RHO[row.judge], row.judge
        assert row.winning_rate == 0.0 and not row.passed  # the notebook: every judge FAILED, 0.00



def test_the_builtin_summeval_gives_the_authors_numbers_through_the_command(tmp_path):
    # the shelf's SummEval (experts as <quality>/expert_1..3, judges as <judge>.<quality>) through
    # `sumeval alt-test summeval ...`: the same winning rates and rho as the authors' code (pins above)
    if _summeval_files() is None:
        pytest.skip("summeval_annotators/*.json not found (see the data MANIFEST)")
    from sumeval import cli

    out = tmp_path / "alt"
    assert cli.main(["alt-test", "summeval", "--human", *QUALITIES, "--judges", *LLMS, "--pooled",
                     "--out", str(out)]) == 0
    res = pd.read_csv(out / "alt_test.csv")
    assert len(res) == 6 * 5
    for row in res.itertuples():
        winning, rho = SUMMEVAL_PINS[f"{row.human}|neg_rmse|{row.judge}"]
        assert abs(row.winning_rate - winning) <= 1e-9 and abs(row.advantage_probability - rho) <= 1e-9, row
        if row.human == "pooled":
            assert round(row.advantage_probability, 2) == NOTEBOOK_POOLED_RHO[row.judge]


# --------------------------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------------------------
def test_bad_settings_name_the_value():
    f = _frame_of(TINY, TINY_JUDGES)
    for kwargs, text in (({"alignment": "kappa"}, "'kappa'"), ({"epsilon": 1.5}, "1.5"), ({"q": 0}, "q 0"),
                         ({"min_items": 1}, "min_items 1"), ({"min_annotators": 1}, "min_annotators 1")):
        with pytest.raises(InputError, match=text):
            alt_test(f, "q", "judge1", **kwargs)


def test_bad_columns_name_the_column():
    f = _frame_of(TINY, TINY_JUDGES)
    with pytest.raises(InputError, match="judge 'gpt-9'.*'gpt-9/q' or 'gpt-9'"):
        alt_test(f, "q", "gpt-9", min_items=2)
    with pytest.raises(InputError, match="human column 'overall'.*none.*'overall/<annotator>'"):
        alt_test(f.assign(overall=1.0), "overall", "judge1", min_items=2)
    one = f.drop(columns=["q/r2", "q/r3"])
    with pytest.raises(InputError, match="only q/r1"):
        alt_test(one, "q", "judge1", min_items=2)
    with pytest.raises(InputError, match="judge 'judge1' is given twice"):
        alt_test(f, "q", ["judge1", "judge1"], min_items=2)
    with pytest.raises(InputError, match="no judge could be tested: judge 'judge1' not tested on 'q': no annotator "
                                         "has 30 items.*most: 3"):
        alt_test(f, "q", "judge1")


@pytest.mark.parametrize("first", ["", "import sumeval.judges.alt_test; "])
def test_the_package_name_alt_test_is_the_module_whatever_was_imported_first(first):
    """``sumeval.judges.alt_test`` is one thing in every import order (it was the function in a fresh
    interpreter and the module once the submodule had been imported: 47 tests failed when run after a file
    that imported the submodule first)."""
    import subprocess
    import sys

    code = first + "from sumeval.judges import alt_test; import types; print(isinstance(alt_test, types.ModuleType))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "True"
