"""Pinned values: ``stats.correlate`` and ``stats.paired_test`` give what the single-module
``sumeval/stats.py`` gave before it became the ``sumeval.stats`` package.

The hex strings below were RECORDED BY RUNNING THE OLD CODE (commit 1ea5873, sumeval/stats.py)
on the frame built by ``_pin_frame`` -- before the split -- with the calls written in the tests;
they are not computed by the new code. They are compared to :data:`RTOL` (relative) and
:data:`ATOL`, not bit for bit: the last bits of a sum depend on the CPU's vector width (an
AVX2 and an AVX-512 machine differ by one unit in the last place on the same code: issue 21),
so bit-identity would test the machine, not the code. Any change of method -- another tie rule,
another resample, another percentile -- moves a value by far more than the tolerance. Counts
(``n``, resamples used) are compared exactly.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sumeval import stats


def _pin_frame() -> pd.DataFrame:
    """30 documents x 7 systems; human scores rounded to 0.1 (ties), a tied integer metric,
    a few NaN in the human and the tied metric."""
    rng = np.random.default_rng(20240611)
    n_docs, n_sys = 30, 7
    quality = rng.normal(size=n_sys)
    rows = []
    for d in range(n_docs):
        for s in range(n_sys):
            h = float(np.round(quality[s] + rng.normal(scale=0.8), 1))
            rows.append({"doc_id": f"d{d}", "system": f"S{s}", "h": h,
                         "good": h + rng.normal(scale=0.6),
                         "tied": float(rng.integers(0, 4))})
    f = pd.DataFrame(rows)
    f.loc[[5, 40, 41, 100], "h"] = np.nan
    f.loc[[7, 150], "tied"] = np.nan
    return f


# correlate(frame, ["good", "tied"], "h", level=["global", "input", "system"], n_resamples=100,
#           seed=3): "metric|level|method" -> [value, ci_low, ci_high (hex), n, n_skipped]
CORRELATE_PINS = {
    "good|global|pearson": ("0x1.b813e5710fb5cp-1", "0x1.a0838d479ccd7p-1", "0x1.c873543d64e2ep-1", 206, 4),
    "good|global|spearman": ("0x1.abd7938c5a5d2p-1", "0x1.8b17e14e47677p-1", "0x1.c0e26af5cf46cp-1", 206, 4),
    "good|global|kendall_b": ("0x1.515bbdedfe870p-1", "0x1.3842dc6bb10c1p-1", "0x1.68540c82d4d8fp-1", 206, 4),
    "good|global|kendall_c": ("0x1.52b1605b77b3dp-1", "0x1.3841cfdb841d9p-1", "0x1.691794386eabap-1", 206, 4),
    "good|input|pearson": ("0x1.a871e171a463dp-1", "0x1.8c54bbad27488p-1", "0x1.bb9ca9f00e54bp-1", 30, 0),
    "good|input|spearman": ("0x1.87c1679c1142ep-1", "0x1.63017689b5f36p-1", "0x1.a21363d33e1d2p-1", 30, 0),
    "good|input|kendall_b": ("0x1.45a6b388928dbp-1", "0x1.243e1139a9153p-1", "0x1.6069373f850b7p-1", 30, 0),
    "good|input|kendall_c": ("0x1.45f82ebfdfcd4p-1", "0x1.246a1cb25f627p-1", "0x1.60bb97abd37c6p-1", 30, 0),
    "good|system|pearson": ("0x1.fbf6f97bf9e81p-1", "0x1.e245fa14c746ep-1", "0x1.fdcdcd12d5ceep-1", 7, 0),
    "good|system|spearman": ("0x1.0000000000000p+0", "0x1.915f15f15f160p-1", "0x1.0000000000000p+0", 7, 0),
    "good|system|kendall_b": ("0x1.0000000000000p+0", "0x1.541d41d41d41fp-1", "0x1.0000000000000p+0", 7, 0),
    "good|system|kendall_c": ("0x1.0000000000000p+0", "0x1.541d41d41d41fp-1", "0x1.0000000000000p+0", 7, 0),
    "tied|global|pearson": ("0x1.9e62a060f2150p-6", "-0x1.cf9bfd5e89ffdp-4", "0x1.6e80c5f988efbp-3", 204, 6),
    "tied|global|spearman": ("0x1.5650e18231446p-5", "-0x1.d1a20c434b76fp-4", "0x1.9cfb7831ee9f4p-3", 204, 6),
    "tied|global|kendall_b": ("0x1.fe5e2d676637fp-6", "-0x1.55d69927d8221p-4", "0x1.31f22ff573f96p-3", 204, 6),
    "tied|global|kendall_c": ("0x1.21c26303a444ep-5", "-0x1.82180c71d4da5p-4", "0x1.59ef5c902ba8ep-3", 204, 6),
    "tied|input|pearson": ("0x1.ea7598f424e50p-5", "-0x1.75086215d2148p-4", "0x1.e052b4c564922p-3", 30, 0),
    "tied|input|spearman": ("0x1.307c207d209dcp-4", "-0x1.72f24e3521d7fp-4", "0x1.cee9f86cc3124p-3", 30, 0),
    "tied|input|kendall_b": ("0x1.c25bfc81a208fp-5", "-0x1.5287c88c96516p-4", "0x1.730b4d1ba37e6p-3", 30, 0),
    "tied|input|kendall_c": ("0x1.e5dd59c55b51ap-5", "-0x1.684344003cc38p-4", "0x1.90953a16ad9b6p-3", 30, 0),
    "tied|system|pearson": ("-0x1.ae404c713eba3p-2", "-0x1.8c7867bc1498fp-1", "0x1.6b69cccb37834p-3", 7, 0),
    "tied|system|spearman": ("-0x1.6db6db6db6db8p-1", "-0x1.b6db6db6db6dbp-1", "0x1.4ea0ea0ea0e80p-3", 7, 0),
    "tied|system|kendall_b": ("-0x1.0c30c30c30c31p-1", "-0x1.6db6db6db6db7p-1", "0x1.2492492492492p-3", 7, 0),
    "tied|system|kendall_c": ("-0x1.0c30c30c30c31p-1", "-0x1.6db6db6db6db7p-1", "0x1.2492492492492p-3", 7, 0),
}

# paired_test(frame, "good", "tied", "h", level=level, method=method, n_resamples=100, seed=4):
# "level|method" -> [corr_a, corr_b, ci_low, ci_high, p_value (hex), n, n_resamples_used]
PAIRED_PINS = {
    "global|spearman": ("0x1.abbf8e2f7e753p-1", "0x1.5650e18231446p-5", "0x1.35ff79bb567c0p-1",
                        "0x1.e9629ba458ae9p-1", "0x1.446f86562d9fbp-6", 204, 100),
    "global|kendall_b": ("0x1.5178b07091163p-1", "0x1.fe5e2d676637fp-6", "0x1.f05ae1f27f7cdp-2",
                         "0x1.82401ebe75de8p-1", "0x1.446f86562d9fbp-6", 204, 100),
    "input|spearman": ("0x1.89523f8333e30p-1", "0x1.307c207d209dcp-4", "0x1.074810f63713ep-1",
                       "0x1.bcd1c36eeccd8p-1", "0x1.446f86562d9fbp-6", 30, 100),
    "input|kendall_b": ("0x1.482b314f83facp-1", "0x1.c25bfc81a208fp-5", "0x1.ad0a68e9a4e71p-2",
                        "0x1.7c1dcdbbd9454p-1", "0x1.446f86562d9fbp-6", 30, 100),
    "system|spearman": ("0x1.0000000000000p+0", "-0x1.6db6db6db6db8p-1", "0x1.68433f91703bep-1",
                        "0x1.c924924924924p+0", "0x1.446f86562d9fbp-6", 7, 100),
    "system|kendall_b": ("0x1.0000000000000p+0", "-0x1.0c30c30c30c31p-1", "0x1.5555555555556p-1",
                         "0x1.9e79e79e79e7ap+0", "0x1.446f86562d9fbp-6", 7, 100),
}


RTOL = 1e-12  # about 4,500 units in the last place: rounding, not a change of method
ATOL = 1e-14  # for values at or near 0 (a correlation of 0, a p-value floor)


def _close(got: float, pinned_hex: str) -> bool:
    want = float.fromhex(pinned_hex)
    return bool(np.isclose(got, want, rtol=RTOL, atol=ATOL)) or (np.isnan(got) and np.isnan(want))


def test_correlate_equals_the_pre_split_code():
    out = stats.correlate(_pin_frame(), ["good", "tied"], "h",
                          level=["global", "input", "system"], n_resamples=100, seed=3)
    assert len(out) == len(CORRELATE_PINS)
    for r in out.itertuples():
        value, lo, hi, n, n_skipped = CORRELATE_PINS[f"{r.metric}|{r.level}|{r.method}"]
        for got, pinned in zip((r.value, r.ci_low, r.ci_high), (value, lo, hi)):
            assert _close(float(got), pinned), (r.metric, r.level, r.method, float(got).hex(), pinned)
        assert (r.n, r.n_skipped) == (n, n_skipped)


@pytest.mark.parametrize("key", list(PAIRED_PINS))
def test_paired_test_equals_the_pre_split_code(key):
    level, method = key.split("|")
    res = stats.paired_test(_pin_frame(), "good", "tied", "h", level=level, method=method,
                            n_resamples=100, seed=4)
    *want, n, used = PAIRED_PINS[key]
    for k, pinned in zip(("corr_a", "corr_b", "ci_low", "ci_high", "p_value"), want):
        assert _close(float(res[k]), pinned), (key, k, float(res[k]).hex(), pinned)
    assert (res["n"], res["n_resamples_used"]) == (n, used)
