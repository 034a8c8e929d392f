"""The judge audit's close-pair figures on SummEval under natural variants of their definition (issue 31).

Issue 31 quotes, for SummEval's 16 systems (120 pairs), 3 experts and AltTest's six cached judges: "on
the closest third of SummEval system pairs the judges order pairs like the experts 0.43-0.75 of the time,
against 0.67-1.00 on the farthest third, where a held-out expert scores 0.70-0.90 and summary length alone
0.83 / 0.71 (consistency / relevance)". ``sumeval judge-audit`` reproduces the judges' ranges and length's
0.83 on consistency, not length's 0.71 on relevance nor the held-out expert's top 0.90. This script
measures the figures under each natural variant of the definition, ONE AT A TIME from the audit's own
(the first row), so the table shows which choice moves which number. It fits nothing: every variant is
computed and printed, whatever it gives.

The audit's definition (:mod:`sumeval.judges.audit`, :func:`sumeval.stats.pairwise.close_pair_replicates`):
system value = mean over the 100 documents; pairs binned into thirds by the experts' mean |difference|,
ties at a cut kept in one bin (min rank); agreement = same sign of the difference (tied in both agrees,
tied in one disagrees); length = whitespace tokens (``str.split``) and longer is better; the held-out
expert = one expert's system means against the mean of the other two, binned by the other two's
differences, averaged over the three. The default row is checked against ``judge_audit`` itself.

    PYTHONPATH=. python benchmarks/judge_audit_variants.py [--boot N]
"""
from __future__ import annotations

import argparse
import re
import sys

import numpy as np

QUALITIES = ("coherence", "consistency", "relevance")
BINS = ("closest", "middle", "farthest", "all")
TOL = 1e-12


# ------------------------------------------------------------------------------------------------
# the pieces, written out (numpy only), each with its variants
# ------------------------------------------------------------------------------------------------
def grid(frame, values: np.ndarray, systems: list[str], docs: list[str]) -> np.ndarray:
    """(n_sys, n_docs) of one value per summary."""
    si = {s: k for k, s in enumerate(systems)}
    di = {d: k for k, d in enumerate(docs)}
    g = np.full((len(systems), len(docs)), np.nan)
    g[[si[s] for s in frame["system"]], [di[d] for d in frame["doc_id"]]] = values
    return g


def system_values(g: np.ndarray, how: str = "mean", weights: np.ndarray | None = None) -> np.ndarray:
    """Per system: the mean (or median) over documents; ``weights`` (n_docs,) are bootstrap draw counts."""
    if weights is None:
        return g.mean(axis=1) if how == "mean" else np.median(g, axis=1)
    if how == "mean":
        return (g * weights).sum(axis=1) / weights.sum()
    return np.median(np.repeat(g, weights.astype(int), axis=1), axis=1)


def pair_diff(v: np.ndarray) -> np.ndarray:
    i, j = np.triu_indices(v.size, 1)
    d = v[i] - v[j]
    return np.where(np.abs(d) <= TOL * np.max(np.abs(v)), 0.0, d)


def thirds(ref: np.ndarray, cut: str = "value") -> np.ndarray:
    """Bin 0/1/2 of each pair by |Delta ref|: ``value`` = min rank (ties at a cut stay together; the
    audit's), ``count`` = 40/40/40 by a stable sort (ties at a cut split by pair order)."""
    d = np.abs(pair_diff(ref))
    n = d.size
    if cut == "value":
        below = np.searchsorted(np.sort(d), d - TOL * np.max(np.abs(ref)), side="left")
        return np.minimum(3 * below // n, 2)
    order = np.argsort(d, kind="stable")
    rank = np.empty(n, dtype=int)
    rank[order] = np.arange(n)
    return 3 * rank // n


def agreement(ref: np.ndarray, met: np.ndarray, sel: np.ndarray, ties: str = "sign") -> float:
    """Share of the selected pairs ordered alike. ``sign``: sign equality (the audit's: tied in both
    agrees, tied in one disagrees); ``half``: a pair tied on either side counts 1/2; ``drop``: pairs
    tied on either side are left out."""
    dh, dm = np.sign(pair_diff(ref))[sel], np.sign(pair_diff(met))[sel]
    if ties == "sign":
        a = (dh == dm).astype(float)
    else:
        tie = (dh == 0) | (dm == 0)
        a = np.where(tie, 0.5 if ties == "half" else np.nan, (dh == dm).astype(float))
    return float(np.nanmean(a)) if np.isfinite(a).any() else float("nan")


def by_bin(ref: np.ndarray, met: np.ndarray, bins: np.ndarray, ties: str = "sign") -> list[float]:
    return [agreement(ref, met, bins == b, ties) for b in range(3)] + [agreement(ref, met, bins >= 0, ties)]


# ------------------------------------------------------------------------------------------------
# length units
# ------------------------------------------------------------------------------------------------
def length_units(summaries: list[str]) -> dict[str, np.ndarray]:
    from pathlib import Path

    out = {
        "words (str.split; audit)": [len(s.split()) for s in summaries],
        "words, punctuation-only tokens dropped": [sum(bool(re.search(r"\w", t)) for t in s.split())
                                                   for s in summaries],
        "words+punctuation (regex \\w+|[^\\w\\s])": [len(re.findall(r"\w+|[^\w\s]", s)) for s in summaries],
        "characters": [len(s) for s in summaries],
        "characters, no whitespace": [len(re.sub(r"\s", "", s)) for s in summaries],
    }
    try:
        from tokenizers import Tokenizer

        from sumeval.paths import models_dir

        for name, label in (("SmolLM2-135M-Instruct", "model tokens (SmolLM2 BPE)"),
                            ("all-mpnet-base-v2", "model tokens (mpnet WordPiece)")):
            path = Path(models_dir()) / name / "tokenizer.json"
            if path.is_file():
                tok = Tokenizer.from_file(str(path))
                tok.no_padding()  # mpnet's file pads and truncates every text to one length
                tok.no_truncation()
                out[label] = [len(e.ids) for e in tok.encode_batch(summaries, add_special_tokens=False)]
    except ImportError as e:  # pragma: no cover - the environment has tokenizers
        print(f"no model tokens: {e}", file=sys.stderr)
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}


# ------------------------------------------------------------------------------------------------
# the table
# ------------------------------------------------------------------------------------------------
WORDS = "words (str.split; audit)"
CR = ("consistency", "relevance")


class Grids:
    """SummEval's values as (system, document) grids: lengths L[unit], experts E[q][k], their mean H[q],
    judges J[q][judge]; systems and documents in order of first appearance, as the audit's layout (its
    bootstrap draws are per document position)."""

    def __init__(self, f, judges: tuple[str, ...]) -> None:
        systems, docs = list(dict.fromkeys(f["system"])), list(dict.fromkeys(f["doc_id"]))
        self.n_sys, self.n_docs, self.judges = len(systems), len(docs), judges
        self.lengths = length_units(f["summary"].tolist())
        self.L = {k: grid(f, v, systems, docs) for k, v in self.lengths.items()}
        self.E = {q: [grid(f, f[f"{q}/expert_{k}"].to_numpy(float), systems, docs) for k in (1, 2, 3)]
                  for q in QUALITIES}
        self.H = {q: grid(f, f[q].to_numpy(float), systems, docs) for q in QUALITIES}
        self.J = {q: {j: grid(f, f[f"{j}.{q}"].to_numpy(float), systems, docs) for j in judges} for q in QUALITIES}

    def length_row(self, unit=WORDS, how="mean", ties="sign", cut="value", ref="mean", human_how="mean"):
        """Length's agreement per bin (closest, middle, farthest, all) on consistency and relevance."""
        out = {}
        for q in CR:
            lv = system_values(self.L[unit], how)
            if ref == "mean":
                hv = system_values(self.H[q], human_how)
                out[q] = by_bin(hv, lv, thirds(hv, cut), ties)
            else:  # each expert as the reference (on its own bins), averaged; the three listed
                per = [by_bin(ev, lv, thirds(ev, cut), ties) for ev in
                       (system_values(e, human_how) for e in self.E[q])]
                out[q] = list(np.mean(per, axis=0))
                out[q + " per expert (closest)"] = [r[0] for r in per]
        return out

    def heldout_rows(self, how="mean", ties="sign", cut="value", target="others", bins_by="target",
                     qualities=QUALITIES) -> np.ndarray:
        """Each expert's agreement per bin with a target, one row per (quality, expert[, other])."""
        vals = []
        for q in qualities:
            ev = [system_values(e, how) for e in self.E[q]]
            mean3 = system_values(self.H[q], how)
            for k in range(3):
                others = [ev[m] for m in range(3) if m != k]
                if target == "others":
                    tv = np.mean(others, axis=0)
                    vals.append(by_bin(tv, ev[k], thirds(tv if bins_by == "target" else mean3, cut), ties))
                elif target == "all three":
                    vals.append(by_bin(mean3, ev[k], thirds(mean3, cut), ties))
                else:  # each other expert singly
                    vals += [by_bin(o, ev[k], thirds(o if bins_by == "target" else mean3, cut), ties)
                             for o in others]
        return np.array(vals)

    def judge_rows(self, how="mean", ties="sign", cut="value", qualities=CR) -> np.ndarray:
        vals = []
        for q in qualities:
            hv = system_values(self.H[q], how)
            vals += [by_bin(hv, system_values(self.J[q][j], how), thirds(hv, cut), ties) for j in self.judges]
        return np.array(vals)


def check_default(f, g: Grids) -> None:
    """The first row of each table is the audit's own numbers (``judge_audit``, no resampling)."""
    from sumeval.judges.audit import judge_audit

    a = judge_audit(f, list(QUALITIES), list(g.judges), n_resamples=0).close_pairs
    base = g.length_row()
    for q in CR:
        got = a[(a.role == "length") & (a.human == q)].agreement.to_numpy()
        assert np.allclose(got, base[q][:3], atol=1e-12), (q, got, base[q])
    got = a[a.role == "held-out annotator"].set_index(["human", "metric"])
    want = np.array([got.loc[(q, f"{q}/expert_{k}")].agreement.to_numpy() for q in QUALITIES for k in (1, 2, 3)])
    assert np.allclose(g.heldout_rows()[:, :3], want, atol=1e-12)
    judges = a[(a.role == "judge") & a.human.isin(CR)].set_index(["human", "metric"])
    want = np.array([judges.loc[(q, j)].agreement.to_numpy() for q in CR for j in g.judges])
    assert np.allclose(g.judge_rows()[:, :3], want, atol=1e-12)


def print_ties(g: Grids) -> None:
    n_ties = {q: int((pair_diff(system_values(g.H[q])) == 0).sum()) for q in QUALITIES}
    n_lties = {u: int((pair_diff(system_values(g.L[u])) == 0).sum()) for u in g.L}
    print(f"pairs tied in the experts' mean (of 120): {n_ties}; tied in mean length (any unit): "
          f"{sorted(set(n_lties.values()))}; tied in median words: "
          f"{int((pair_diff(system_values(g.L[WORDS], 'median')) == 0).sum())}")
    for q in QUALITIES:
        hv = system_values(g.H[q])
        print(f"  {q}: thirds by value have {np.bincount(thirds(hv, 'value'), minlength=3).tolist()} pairs")
    print()


def print_length(g: Grids) -> None:
    print("Length alone (longer is better) against the experts, share of pairs ordered alike.")
    print("Quoted: closest third consistency 0.83, relevance 0.71.  Audit's 95% intervals (closest): "
          "consistency 0.475-0.85, relevance 0.45-0.675.\n")
    print(f"{'variant (one change from the audit)':58s} " + " ".join(f"{q[:4]}:{b[:4]:>5s}" for q in CR for b in BINS))

    def show(label, r):
        print(f"{label:58s} " + " ".join(f"{x:>10.3f}" for q in CR for x in r[q]))

    show("audit (words, mean, sign ties, value cut, 3-expert mean)", g.length_row())
    for u in g.lengths:
        if u != WORDS:
            show(f"length unit: {u}", g.length_row(unit=u))
    show("system length: median over documents", g.length_row(how="median"))
    show("  and the experts' system score a median too", g.length_row(how="median", human_how="median"))
    show("ties (either side) count 1/2", g.length_row(ties="half"))
    show("ties (either side) left out", g.length_row(ties="drop"))
    show("thirds cut by count 40/40/40 (stable order)", g.length_row(cut="count"))
    r = g.length_row(ref="each")
    show("reference: each expert (own bins), mean of the 3", r)
    print(f"{'':58s} closest per expert: " + ", ".join(
        f"{q} " + " ".join(f"{x:.3f}" for x in r[f"{q} per expert (closest)"]) for q in CR))
    print("documents: every cached judge scored all 100 documents: identical to the audit row\n")


def show_range(label: str, v: np.ndarray) -> None:
    print(f"{label:62s} " + "  ".join(f"{b[:4]} {v[:, k].min():.3f}-{v[:, k].max():.3f} [{v[:, k].mean():.3f}]"
                                      for k, b in enumerate(BINS)))


def print_heldout(g: Grids) -> None:
    print("Held-out expert: range (min-max) over the 3 experts x 3 qualities [and the mean], per bin.")
    print("Quoted: 0.70-0.90 (bin not named; the sentence's 'where' follows 'the farthest third').\n")
    show_range("audit (vs mean of other 2, bins by the other 2)", g.heldout_rows())
    print(f"{'':62s} closest, per quality x expert: " + ", ".join(
        f"{q[:4]} " + " ".join(f"{x:.3f}" for x in g.heldout_rows(qualities=(q,))[:, 0]) for q in QUALITIES))
    n_tied = []
    for q in QUALITIES:
        ev = [system_values(e) for e in g.E[q]]
        for k in range(3):
            tv = np.mean([ev[m] for m in range(3) if m != k], axis=0)
            n_tied.append(int(((pair_diff(tv) == 0) | (pair_diff(ev[k]) == 0))[thirds(tv) == 0].sum()))
    print(f"{'':62s} closest-third pairs tied on either side, per quality x expert: {n_tied}")
    show_range("  consistency & relevance only", g.heldout_rows(qualities=CR))
    show_range("bins by the 3-expert mean (the judges' bins)", g.heldout_rows(bins_by="mean3"))
    show_range("vs the mean of all three (itself included)", g.heldout_rows(target="all three"))
    show_range("  consistency & relevance only", g.heldout_rows(target="all three", qualities=CR))
    show_range("vs each other expert singly (own bins)", g.heldout_rows(target="each"))
    show_range("median over documents", g.heldout_rows(how="median"))
    show_range("ties count 1/2", g.heldout_rows(ties="half"))
    show_range("ties left out", g.heldout_rows(ties="drop"))
    show_range("thirds cut by count 40/40/40", g.heldout_rows(cut="count"))
    print()


def print_judges(g: Grids) -> None:
    print("The six judges on consistency & relevance: range over 12 (judge, quality). Quoted: closest 0.43-0.75, "
          "farthest 0.67-1.00.\n")
    show_range("audit", g.judge_rows())
    show_range("  all three qualities", g.judge_rows(qualities=QUALITIES))
    show_range("median over documents", g.judge_rows(how="median"))
    show_range("ties count 1/2", g.judge_rows(ties="half"))
    show_range("ties left out", g.judge_rows(ties="drop"))
    show_range("thirds cut by count 40/40/40", g.judge_rows(cut="count"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--boot", type=int, default=0, help="document bootstrap resamples for the default's "
                   "intervals, fixed and re-derived bins (0: none)")
    args = p.parse_args(argv)
    from sumeval.datasets.loaders.summeval import JUDGES, summeval_judgments
    from sumeval.stats.pairwise import close_pair_agreement

    f = summeval_judgments().frame
    judged = f[[f"{j}.{q}" for j in JUDGES for q in QUALITIES]].notna().all(axis=1)
    docs = set(f["doc_id"])
    print(f"SummEval: {f['system'].nunique()} systems, {len(docs)} documents; documents every cached judge "
          f"scored on every quality: {len(docs - set(f.loc[~judged, 'doc_id']))}\n")
    g = Grids(f, tuple(JUDGES))
    check_default(f, g)
    print_ties(g)
    print_length(g)
    print_heldout(g)
    print_judges(g)
    if args.boot:
        fixed = bootstrap_check(g.L[WORDS], g.H, args.boot)
        h = f.assign(L=g.lengths[WORDS])
        for q in CR:  # the fixed-bins intervals are the audit's own
            want = close_pair_agreement(h, "L", q, n_resamples=args.boot, seed=0)[["ci_low", "ci_high"]]
            assert np.allclose(fixed[q], want.to_numpy(), atol=1e-12), (q, fixed[q], want)
    return 0


def bootstrap_check(lg: np.ndarray, H: dict, n: int) -> dict[str, np.ndarray]:
    """Length's closest-third agreement under the document bootstrap: bins fixed by the full data
    (the audit's) or re-derived in each resample; mean of the replicates vs the point estimate.
    Returns the fixed-bins intervals, (3, 2) per quality."""
    from sumeval.stats.resampling import percentile_interval, resample_indices

    n_docs = lg.shape[1]
    out: dict[str, list] = {}
    # the audit's draws (seed 0): the fixed-bins row is the audit's interval
    counts = resample_indices(lg.shape[0], n_docs, "inputs", n, 0).input_counts()
    print(f"\nDocument bootstrap of length's agreement ({n} resamples, the audit's draws; percentile 95%):")
    for q in CR:
        hv, lv = system_values(H[q]), system_values(lg)
        b0 = thirds(hv)
        point = by_bin(hv, lv, b0)
        fixed, rederived = [], []
        for w in counts:
            hb, lb = system_values(H[q], weights=w), system_values(lg, weights=w)
            fixed.append(by_bin(hb, lb, b0))
            rederived.append(by_bin(hb, lb, thirds(hb)))
        for name, reps in (("bins fixed (audit)", fixed), ("bins re-derived", rederived)):
            reps = np.array(reps)
            cells = []
            for k, b in enumerate(BINS):
                lo, hi = percentile_interval(reps[:, k], 0.95)
                cells.append(f"{b[:4]} {point[k]:.3f} [{lo:.3f}, {hi:.3f}] boot mean {reps[:, k].mean():.3f}")
                if name.startswith("bins fixed") and k < 3:
                    out.setdefault(q, []).append((lo, hi))
            print(f"  {q:12s} {name:20s} " + "; ".join(cells))
    return {q: np.array(v) for q, v in out.items()}


if __name__ == "__main__":
    sys.exit(main())
