"""``meta-eval --protocol NAME``: the options that reproduce one paper's own numbers on its data set.

Each protocol names the data set its paper used (refused on another one, except ``mtme``, a
toolkit's ranking rule that applies to any data), and sets the options of that paper's procedure;
an option given on the command line that contradicts the protocol is refused, one that it leaves
open keeps the user's value. Each protocol's numbers are pinned by a test against values computed
with the authors' own code outside the repository (``tests/meta_eval/test_protocols.py``).

========== ==================================================================================
protocol   what it sets, what it reproduces
========== ==================================================================================
frank      ``--level partial --partial-control system --coefficient pearson spearman``, human
           ``factuality``: FRANK's partial correlations (Pagnoni et al. 2021, Table 4; its
           ``evaluation/evaluate.py``)
xsumfaith  ``--level global --coefficient spearman``, humans ``faithful factual``: Maynez et
           al. 2020, Table 4 (Spearman over all summaries)
rose       ``--undefined-as zero --level input --coefficient kendall_b``: RoSE's ``correlation.py``
           (Liu et al. 2023; an undefined per-document correlation counts 0). Its system level is
           not part of it: RoSE's means break exact ties by float rounding (3.6533333333333338 vs
           ...333 for two systems with equal ref_free means), sumeval's tie them
realsumm   ``--significant-inputs 0.05 --level input --coefficient kendall_b``: REALSumm's
           summary-level Kendall (Bhandari et al. 2020, ``analysis/utils.py``); biased, warned
mtme       ``--test permutation-both --correction none --alternative one-sided``:
           mt-metrics-eval's significance clusters (``AssignRanks`` on uncorrected one-sided p)
========== ==================================================================================
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sumeval.errors import InputError

__all__ = ["Protocol", "PROTOCOLS", "apply_protocol", "OPTION_DEFAULTS"]


@dataclass(frozen=True)
class Protocol:
    """One paper's procedure: ``datasets`` it applies to (None: any), ``options`` (argparse
    destination -> value), ``humans`` (the paper's human columns, used when --human is not given),
    ``reproduces`` (what, in words)."""

    name: str
    datasets: tuple[str, ...] | None
    options: dict = field(default_factory=dict)
    humans: tuple[str, ...] = ()
    reproduces: str = ""


PROTOCOLS: dict[str, Protocol] = {p.name: p for p in (
    Protocol("frank", ("frank",), {"level": ["partial"], "partial_control": "system",
                                   "coefficient": ["pearson", "spearman"]}, ("factuality",),
             "FRANK's partial correlations with the system as the control (Pagnoni, Balachandran & Tsvetkov "
             "2021; evaluation/evaluate.py)"),
    Protocol("xsumfaith", ("xsumfaith",), {"level": ["global"], "coefficient": ["spearman"]},
             ("faithful", "factual"),
             "Maynez et al. 2020, Table 4: Spearman over all summaries with the faithful and factual annotations"),
    Protocol("rose", ("rose",), {"undefined_as": "zero", "level": ["input"], "coefficient": ["kendall_b"]},
             (), "RoSE's correlation.py (Liu et al. 2023): a document whose correlation is undefined counts 0 in "
             "the summary-level (input-level) mean"),
    Protocol("realsumm", ("realsumm",), {"significant_inputs": 0.05, "level": ["input"], "coefficient": ["kendall_b"]},
             ("litepyramid",),
             "REALSumm's summary-level Kendall (Bhandari et al. 2020, analysis/utils.py print_ktau_matrix): only the "
             "documents whose own correlation has p <= 0.05 (biased: a reproduction option)"),
    Protocol("mtme", None, {"test": "permutation-both", "correction": "none", "alternative": "one-sided"}, (),
             "mt-metrics-eval's significance clusters: each pair tested one-sided toward the higher-ranked "
             "measure, uncorrected, into AssignRanks"),
)}

#: the value of each option a protocol may set when neither the user nor a protocol sets it (the parser's defaults
#: are None for these, so that an option given explicitly is told apart from the default)
OPTION_DEFAULTS = {"partial_control": "system", "correction": "holm", "alternative": "two-sided",
                   "undefined_as": "skip", "significant_inputs": None, "test": "permutation-both"}
_FLAGS = {"level": "--level", "coefficient": "--coefficient", "partial_control": "--partial-control",
          "correction": "--correction", "alternative": "--alternative", "undefined_as": "--undefined-as",
          "significant_inputs": "--significant-inputs", "test": "--test"}


def _words(v) -> str:
    return " ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)


def apply_protocol(args) -> None:
    """Set ``args`` (the parsed ``meta-eval`` options) from ``args.protocol``, then the defaults of the
    options a protocol may set. InputError for an unknown protocol, a data set it does not apply to, or
    an option given that contradicts it."""
    from sumeval.argtypes import split_values

    name = getattr(args, "protocol", None)
    if name is not None:
        if name not in PROTOCOLS:
            raise InputError(f"--protocol {name!r} is not a protocol; choose one of {', '.join(PROTOCOLS)}")
        p = PROTOCOLS[name]
        sets = list(getattr(args, "dataset", None) or ([args.data] if getattr(args, "data", None) else []))
        if p.datasets is not None:
            wrong = [d for d in sets if d not in p.datasets]
            if wrong or not sets:
                raise InputError(f"--protocol {name} reproduces {p.reproduces}, on data set "
                                 f"{' / '.join(p.datasets)}; it does not apply to "
                                 f"{', '.join(map(repr, wrong)) if wrong else 'no data set'}: run it on "
                                 f"{' / '.join(p.datasets)} (e.g. `sumeval meta-eval {p.datasets[0]} --protocol {name} "
                                 "--measures ...`), or leave out --protocol")
        for dest, value in p.options.items():
            given = getattr(args, dest)
            if dest in ("level", "coefficient"):
                given = split_values(given)
                if given and sorted(given) != sorted(value):
                    raise InputError(f"{_FLAGS[dest]} {_words(given)} contradicts --protocol {name}, which sets "
                                     f"{_FLAGS[dest]} {_words(value)}; leave out {_FLAGS[dest]} or --protocol")
            elif given is not None and given != value:
                raise InputError(f"{_FLAGS[dest]} {given} contradicts --protocol {name}, which sets {_FLAGS[dest]} "
                                 f"{value}; leave out {_FLAGS[dest]} or --protocol")
            setattr(args, dest, list(value) if isinstance(value, list) else value)
        if p.humans and not getattr(args, "human", None) and not getattr(args, "dataset", None):
            args.human = list(p.humans)
    for dest, value in OPTION_DEFAULTS.items():
        if getattr(args, dest, None) is None:
            setattr(args, dest, value)
