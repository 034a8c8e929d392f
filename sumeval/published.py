"""Numbers as published in the papers, for side-by-side comparison with ours.

These are the papers' reported values (never used to compute or tune anything). The
correlation tables of papers 000 and 001 are tidy frames ``paper, table, metric, human,
method, value``; paper 002's ordering tables have their own columns (see each function).
"""
from __future__ import annotations

#: SummEval's 4 qualities in the order of paper 000's Table 1 columns (Vasilyev & Bohannon, Table 1); the
#: paper-000 studies show their columns in this order
PAPER000_QUALITIES: tuple[str, ...] = ("consistency", "relevance", "coherence", "fluency")

# paper 000 (Vasilyev & Bohannon), Table 1: summary-level (pooled) Spearman rho and Kendall tau-c
# with SummEval expert means; per quality (rho, tau). 1700 pairs (17 systems) in the paper.
_P000_TABLE1 = {
    "BLANC": (0.19, 0.10, 0.28, 0.20, 0.22, 0.16, 0.13, 0.07),
    "ESTIME": (0.39, 0.19, 0.15, 0.11, 0.27, 0.19, 0.38, 0.22),
    "ESTIME-soft": (0.40, 0.20, 0.25, 0.18, 0.28, 0.20, 0.36, 0.21),
    "Jensen-Shannon": (0.18, 0.09, 0.39, 0.28, 0.29, 0.21, 0.11, 0.06),
    "SummaQA-F": (0.17, 0.08, 0.14, 0.10, 0.08, 0.06, 0.12, 0.07),
    "SummaQA-P": (0.19, 0.09, 0.17, 0.12, 0.10, 0.08, 0.12, 0.07),
    "SUPERT": (0.28, 0.14, 0.26, 0.19, 0.20, 0.15, 0.17, 0.10),
    "BERTScore-F": (0.10, 0.05, 0.38, 0.28, 0.39, 0.28, 0.13, 0.07),
    "BERTScore-P": (0.05, 0.03, 0.29, 0.21, 0.34, 0.25, 0.11, 0.06),
    "BERTScore-R": (0.15, 0.08, 0.41, 0.30, 0.34, 0.25, 0.11, 0.06),
    "BLEU": (0.09, 0.04, 0.23, 0.17, 0.19, 0.14, 0.12, 0.07),
    "ROUGE-L": (0.12, 0.06, 0.23, 0.16, 0.16, 0.11, 0.08, 0.04),
    "ROUGE-1": (0.13, 0.07, 0.28, 0.20, 0.17, 0.12, 0.07, 0.04),
    "ROUGE-2": (0.12, 0.06, 0.23, 0.16, 0.14, 0.10, 0.06, 0.04),
    "ROUGE-3": (0.15, 0.07, 0.23, 0.17, 0.15, 0.11, 0.06, 0.04),
}

# paper 001 (Lopez Espejel et al.), Table 2: CNNDM (REALSumm), system level vs LitePyramid,
# Pearson / Spearman / Kendall (tau-b); SERA and GeSERA with a 10,000-article Wikipedia index.
_P001_TABLE2 = {
    "ROUGE-1-R": (0.914, 0.922, 0.773),
    "ROUGE-2-R": (0.962, 0.958, 0.860),
    "ROUGE-L-F": (0.526, 0.368, 0.278),
    "BERTScore-1-P": (-0.021, 0.093, 0.064),
    "BERTScore-1-R": (0.768, 0.738, 0.552),
    "MoverScore": (0.443, 0.367, 0.284),
    "JS-2": (0.780, 0.665, 0.512),
    "SERA-10": (0.858, 0.789, 0.616),
    "SERA-KW-10": (0.864, 0.782, 0.621),
    "SERA-DIS-10": (0.827, 0.781, 0.605),
    "SERA-DIS-NP-5": (0.599, 0.554, 0.391),
    "GeSERA-5": (0.623, 0.527, 0.387),
    "GeSERA-10": (0.880, 0.872, 0.719),
    "GeSERA-DIS-10": (0.817, 0.788, 0.605),
}


def paper000_table1():
    """Paper 000 Table 1 as a tidy frame (methods ``spearman`` and ``kendall_c``)."""
    import pandas as pd

    rows = []
    for metric, vals in _P000_TABLE1.items():
        for q, human in enumerate(PAPER000_QUALITIES):
            rows.append(("000", "Table 1", metric, human, "spearman", vals[2 * q]))
            rows.append(("000", "Table 1", metric, human, "kendall_c", vals[2 * q + 1]))
    return pd.DataFrame(rows, columns=["paper", "table", "metric", "human", "method", "value"])


def paper001_table2():
    """Paper 001 Table 2 (CNNDM) as a tidy frame (methods ``pearson``, ``spearman``, ``kendall_b``)."""
    import pandas as pd

    rows = []
    for metric, (p, s, k) in _P001_TABLE2.items():
        for method, v in (("pearson", p), ("spearman", s), ("kendall_b", k)):
            rows.append(("001", "Table 2", metric, "litepyramid", method, v))
    return pd.DataFrame(rows, columns=["paper", "table", "metric", "human", "method", "value"])


# paper 002 (Liu, Zeng & Li), Table 2: PMR in %, WLCS-l, #parameters in millions, per data set and
# model in the paper's order (LSTM+PtrNet, Variant-LSTM+PtrNet, ATTOrderNet, SE-Graph)
_P002_MODELS = ("lstm_ptrnet", "variant_lstm_ptrnet", "attordernet", "se_graph")
_P002_TABLE2 = {
    "sentence": {
        "arxiv": [(22.17, .6002, 11.0), (21.36, .5934, 66.9), (25.73, .6122, 40.9), (26.73, .6251, 12.4)],
        "aan": [(35.65, .6575, 6.8), (35.62, .6564, 54.5), (40.00, .6763, 32.6), (45.97, .6995, 11.4)],
        "nips": [(19.79, .5839, 3.2), (17.95, .5620, 43.6), (29.17, .6200, 13.4), (27.55, .6282, 4.5)],
        "sind": [(13.61, .5756, 4.2), (13.13, .5703, 46.5), (13.57, .5733, 16.3), (15.07, .5838, 11.6)],
    },
    "paragraph": {
        "press": [(42.33, .6543, 10.0), (35.04, .6304, 64.1), (42.57, .6555, 55.4), (46.90, .6749, 13.3)],
        "statements": [(43.12, .6582, 6.6), (33.01, .6346, 53.7), (45.79, .6692, 45.0), (42.66, .6704, 12.0)],
        "journal": [(5.24, .4549, 11.2), (4.85, .4424, 67.6), (5.27, .4595, 41.6), (5.29, .4618, 20.02)],
        "lyrics": [(0.26, .1765, 8.9), (0.66, .1891, 60.7), (0.49, .1751, 52.1), (0.0, .1719, 12.4)],
    },
}
# paper 002, Table 1: documents in train / dev / test and vocabulary size per data set (Table 2's
# names: its "Press" and "Journal" are Table 1's News and Economist)
_P002_TABLE1 = {
    "nips": (3519, 196, 195, 19957), "aan": (15961, 892, 893, 55588), "arxiv": (36652, 2045, 2044, 97305),
    "sind": (40155, 4990, 5055, 30952), "press": (12634, 720, 707, 87067),
    "statements": (12530, 712, 715, 53708), "journal": (70728, 3929, 3929, 535345),
    "lyrics": (43858, 2436, 2436, 77021),
}
# paper 002, Table 3a: Kendall tau, training set (rows) x test set (arXiv, AAN, NIPS), per model
_P002_TABLE3A = {
    "arxiv": [(.73, .77, .81), (.77, .80, .83), (.75, .79, .81), (.78, .80, .80)],
    "aan": [(.64, .74, .65), (.73, .81, .75), (.64, .76, .65), (.72, .81, .80)],
    "nips": [(.62, .65, .70), (.64, .64, .70), (.66, .70, .73), (.66, .71, .75)],
}


def paper002_table2():
    """Paper 002 Table 2: ``level, dataset, model, pmr (fraction), wlcs_l, n_params``.

    >>> t = paper002_table2()
    >>> t[(t["dataset"] == "nips") & (t["model"] == "se_graph")][["pmr", "wlcs_l"]].values.round(4).tolist()
    [[0.2755, 0.6282]]
    """
    import pandas as pd

    rows = []
    for level, sets in _P002_TABLE2.items():
        for ds, vals in sets.items():
            for m, (pmr, wl, pm) in zip(_P002_MODELS, vals):
                rows.append((level, ds, m, pmr / 100, wl, pm * 1e6))
    return pd.DataFrame(rows, columns=["level", "dataset", "model", "pmr", "wlcs_l", "n_params"])


def paper002_table3a():
    """Paper 002 Table 3a: ``train_set, test_set, model, tau`` (arXiv, AAN, NIPS)."""
    import pandas as pd

    tests = ("arxiv", "aan", "nips")
    rows = [(tr, te, m, v) for tr, vals in _P002_TABLE3A.items() for m, row in zip(_P002_MODELS, vals)
            for te, v in zip(tests, row)]
    return pd.DataFrame(rows, columns=["train_set", "test_set", "model", "tau"])


def paper002_table1():
    """Paper 002 Table 1: ``dataset, train, dev, test`` (documents) and ``vocabulary`` (word types).

    >>> int(paper002_table1().set_index("dataset").loc["nips", "vocabulary"])
    19957
    """
    import pandas as pd

    rows = [(ds, *vals) for ds, vals in _P002_TABLE1.items()]
    return pd.DataFrame(rows, columns=["dataset", "train", "dev", "test", "vocabulary"])
