"""``sumeval meta-eval``: how well do measures agree with people, on any judgments data.

    sumeval meta-eval summeval --human relevance consistency --measures rouge-2 bleu js-2 --out out/
    sumeval meta-eval mine --human overall --measures rouge-l my_metric --measure-class pkg.mod:Mine \\
        --level system global --coefficient kendall_b pearson --test permutation-both \\
        --n-resamples 1000 --seed 0 --out out/
    sumeval meta-eval summeval --human coherence --measures rouge-2 bleu --meta-metric correlation spa \\
        --item-acc23 --tune-split validation --out out/      # annotator rows: on by default

    sumeval meta-eval --dataset summeval frank rank19 --measures rouge-2 bleu --out out/   # across sets

Everything is checked before any work starts (settings, output folder, data, measures); the
results are written only when all of them are computed (:mod:`sumeval.meta_eval.output`; across
data sets: :mod:`sumeval.meta_eval.across_output`).
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from sumeval.argtypes import scorer_options, split_measures, split_values
from sumeval.cli.judgments_parser import add_judgments_parser
from sumeval.errors import InputError

__all__ = ["statistics_options", "settings_from_args", "cmd_meta_eval", "run_across", "add_across_arguments",
           "add_commands"]


def statistics_options(args: argparse.Namespace) -> dict[str, Any]:
    """The fields of :class:`~sumeval.meta_eval.analysis.StatisticsOptions` the options ask for:
    one set's :class:`~sumeval.meta_eval.Settings` and :class:`~sumeval.meta_eval.across.AcrossSettings`
    are both built from them."""
    from sumeval.meta_eval import LEVELS

    return dict(levels=tuple(split_values(args.level) or LEVELS),
                coefficients=tuple(split_values(args.coefficient) or ("kendall_b",)), test=args.test,
                ci_resampling=args.ci_resampling, n_resamples=args.n_resamples, seed=args.seed,
                correction=args.correction, alpha=args.alpha, alternative=args.alternative, ci=args.ci,
                early_stop=args.early_stop, detection_validation=args.validation, bootstrap_p=args.bootstrap_p,
                annotators=not args.no_annotators, annotators_compete=args.annotators_compete,
                meta_metric=tuple(split_values(args.meta_metric) or ("correlation",)), spa=not args.no_spa,
                spa_permutations=args.spa_permutations, item_acc23=args.item_acc23, tune_split=args.tune_split,
                partial_control=args.partial_control, sentinels=not args.no_sentinels, close_pairs=args.close_pairs,
                undefined_as=args.undefined_as, significant_inputs=args.significant_inputs)


def settings_from_args(args: argparse.Namespace):
    """The :class:`~sumeval.meta_eval.Settings` the options ask for (checked)."""
    from sumeval.meta_eval import Settings

    settings = Settings(humans=tuple(split_values(args.human)), **statistics_options(args))
    settings.check()
    return settings


def cmd_meta_eval(args: argparse.Namespace) -> int:
    """Run ``sumeval meta-eval``; 0 when every result was written."""
    from sumeval import meta_eval
    from sumeval.meta_eval.protocols import apply_protocol

    apply_protocol(args)  # --protocol NAME: its options (checked against the data set and the options given)
    if getattr(args, "dataset", None):
        return run_across(args)
    if getattr(args, "weight", None):
        raise InputError(f"--weight {' '.join(args.weight)}: data set weights apply to a meta-evaluation across data "
                         "sets; name the sets with --dataset (e.g. --dataset summeval frank --weight summeval=2), or "
                         "leave out --weight")
    if not args.data:
        raise InputError("name the judgments: a data set or file as the first argument (e.g. `sumeval meta-eval "
                         "summeval --human coherence ...`), or several with --dataset A B ... (`shelf`: every "
                         "built-in judged set)")
    if not args.human:
        raise InputError(f"name the human columns of {args.data!r}: --human COL [COL ...] (`sumeval data list` "
                         "shows each built-in set's columns)")
    settings = settings_from_args(args)
    with meta_eval.out_lock(args.out):  # one writer per --out, from this check to the last rename
        return _run_one(args, settings, meta_eval.check_out_dir(args.out, overwrite=args.overwrite))


def _run_one(args: argparse.Namespace, settings, out) -> int:
    from sumeval import meta_eval
    from sumeval.datasets.judgments import load_judgments
    from sumeval.metrics.sources import resolve_measures

    measures = split_measures(args.measures)
    classes = split_values(args.measure_class)
    if not measures and not classes:
        raise InputError("name at least one measure: --measures M [M ...] (registered measures, columns of the "
                         "data, module:Class) and/or --measure-class module:Class")
    columns = {k: getattr(args, k) for k in ("doc_col", "system_col", "summary_col", "text_col", "references_col")}
    judgments = load_judgments(args.data, human=list(settings.humans),
                               lower_is_better=split_values(args.lower_is_better), n_docs=args.n_docs, **columns)
    specs = resolve_measures(measures, judgments, measure_classes=classes, options=scorer_options(args),
                             module_path=args.module_path or ())
    progress = not args.quiet
    if progress:
        print(judgments.describe(), file=sys.stderr)
    result = meta_eval.meta_evaluate(judgments, specs, settings, progress=progress, cache=not args.no_cache)
    written = meta_eval.write_meta_evaluation(result, out, figures=not args.no_figures, overwrite=args.overwrite,
                                              command=["sumeval", *sys.argv[1:]] if sys.argv else None)
    from sumeval import tables

    for coef in meta_eval.table_coefficients(result):
        values, bold, marks = meta_eval.ranking_table(result, coef)
        test = "spa-permutation" if coef == "spa" else settings.test
        ranked = ("spa" if coef == "spa" else "correlation") in settings.meta_metric
        one_sided = ", one-sided" * (settings.alternative == "one-sided")
        print(f"\n{coef} (bold: best per column" + (f"; superscript: significance cluster, {test}, "
                                                    f"{settings.correction}{one_sided}, "
                                                    f"alpha {settings.alpha})" if ranked
                                                    else "; not ranked)"))
        print(tables.to_markdown(values, bold=bold, marks=marks))
        for note in meta_eval.table_notes(result, coef):
            print(f"Note: {note}")
    for note in result.notes:
        kind = "warning" if note.startswith(("undefined correlation", "missing values", "biased")) else "note"
        print(f"{kind}: {note}", file=sys.stderr)
    for label, m in result.missing.get("measures", {}).items():
        if m["no_number"]:
            rows = [r["row"] for r in result.not_scored if r["measure"] == label]
            shown = ", ".join(map(str, rows[:8])) + (" ..." if len(rows) > 8 else "")
            print(f"warning: measure {label!r} has no number on {m['no_number']} of {result.missing['rows']} rows "
                  f"(rows {shown}); see {out / 'not_scored.csv'}", file=sys.stderr)
    t = result.timings
    print(f"\nwrote {len(written)} files to {out} in {t.get('total_s', 0):.1f} s "
          f"(scoring {t.get('scoring_s', 0):.1f} s, "
          f"statistics {sum(t.get(k, 0) for k in ('correlations_s', 'tests_s', 'spa_tests_s')):.1f} s, pairwise "
          f"accuracy and detection {t.get('accuracy_detection_s', 0):.1f} s, tables and figures "
          f"{t.get('writing_s', 0):.1f} s)", file=sys.stderr)
    return 0


def run_across(args) -> int:
    """``sumeval meta-eval --dataset A B ...``: run and write; 0 when every result was written."""
    from sumeval.meta_eval.across import AcrossSettings
    from sumeval.meta_eval.across_output import check_across_out, parse_weights
    from sumeval.meta_eval.staging import out_lock

    if getattr(args, "data", None):
        raise InputError(f"give the data set either as the first argument ({args.data!r}) or with --dataset, not both")
    options = statistics_options(args)
    options["spa"] = "spa" in options["meta_metric"] and options["spa"]  # off unless asked for, across sets
    settings = AcrossSettings(**options, weights=parse_weights(args.weight), missing=args.missing,
                              min_sets=args.min_sets, ties=args.ties, jobs=args.jobs)
    settings.check()
    with out_lock(args.out):  # one writer per --out, from this check to the last rename
        return _run_across(args, settings, check_across_out(args.out, overwrite=args.overwrite))


def _run_across(args, settings, out) -> int:
    from sumeval import tables
    from sumeval.meta_eval import across
    from sumeval.meta_eval.across_output import parse_humans, ranking_table, set_folders, write_across

    # --measure-class paths kept apart from --measures: a class may be named 'lower' (no suffix is read there)
    measures, classes = split_measures(args.measures), split_values(args.measure_class)
    if not measures and not classes and args.no_own_columns:
        raise InputError("name at least one measure (--measures), or leave out --no-own-columns to use each set's "
                         "own measure columns")
    result = across.meta_evaluate_across(args.dataset, measures, settings, humans=parse_humans(args.human),
                                         options=scorer_options(args), own_columns=not args.no_own_columns,
                                         n_docs=args.n_docs, module_path=args.module_path or (),
                                         progress=not args.quiet, cache=not args.no_cache,
                                         measure_classes=classes)
    written = write_across(result, out, figures=not args.no_figures, overwrite=args.overwrite,
                           command=["sumeval", *sys.argv[1:]] if sys.argv else None)
    for coef in settings.coefficients:
        print(f"\nacross data sets, {coef}: mean rank (significance cluster) and mean score over the tasks")
        table, bold = ranking_table(result, coef)
        print(tables.to_markdown(table, bold=bold))
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    for name, folder in set_folders(result.sets).items():
        if folder != name and result.sets[name].result is not None:
            print(f"note: the results of data set {name!r} are in {out / folder}", file=sys.stderr)
    print(f"\nwrote {len(written)} files and {sum(o.result is not None for o in result.sets.values())} set folders "
          f"to {out} in {result.timings['total_s']:.1f} s "
          f"(statistics {result.timings['statistics_s']:.1f} s, tables and "
          f"figures {result.timings.get('writing_s', 0):.1f} s)", file=sys.stderr)
    return 0


def add_across_arguments(parser) -> None:
    """Add the across options to the ``sumeval meta-eval`` parser (made with the positional data set
    and ``--human`` optional, as ``--dataset`` names the sets): ``--dataset``, ``--weight``,
    ``--missing``, ``--min-sets``, ``--ties``, ``--no-own-columns``, ``--jobs``."""
    parser.add_argument("--dataset", nargs="+", action="extend", metavar="NAME",
                        help="meta-evaluate across these data sets (names or files; `shelf`: every built-in judged "
                             "set): each set's own results in OUT/<set>/, then across.csv and the across tables")
    parser.add_argument("--weight", nargs="+", action="extend", metavar="SET=W",
                        help="data set weights of the across means (default 1 each; normalised)")
    parser.add_argument("--missing", default="available", choices=["available", "all"],
                        help="means over the tasks a measure has (available, default) or only for measures on every "
                             "task (all: mt-metrics-eval's rule)")
    parser.add_argument("--min-sets", dest="min_sets", type=int, default=2,
                        help="the fewest data sets a measure needs for an across mean (default 2)")
    parser.add_argument("--ties", default="wrong", choices=["wrong", "half"],
                        help="a tie on a pairwise set (rank19) counts as wrong (default, as BARTScore) or half")
    parser.add_argument("--no-own-columns", dest="no_own_columns", action="store_true",
                        help="do not add each set's precomputed measure columns")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the statistics, one unit per (set, human column) (default 1)")


def add_commands(subparsers) -> None:
    """Add ``meta-eval`` to the ``sumeval`` command's sub-parsers."""
    from sumeval.meta_eval.names import LEVELS, TESTS

    me = add_judgments_parser(
        subparsers, "meta-eval",
        help="correlate measures with human judgments, test them against each other, rank them",
        description="Meta-evaluate measures on a judgments data set: correlations with bootstrap intervals at "
                    "the input, system and global levels, a test of every pair of measures with Holm or "
                    "Benjamini-Hochberg correction, significance clusters, pairwise accuracy (acc23, soft pairwise "
                    "accuracy, plain accuracy with a chance baseline), the annotators as measures and the human "
                    "ceiling where the data has annotator columns, and tables (CSV, LaTeX, Markdown), figures "
                    "and a manifest in --out.",
        data_help="a data set name (summeval, realsumm, one added with `sumeval data add`) or a judgments file "
                  "(.jsonl .csv .tsv .parquet)",
        human_help="the human columns (space- or comma-separated)", optional=True)
    me.add_argument("--measures", nargs="+", action="extend", default=[], metavar="M",
                    help="registered measures (sumeval score --list), columns of the data, module:Class, "
                         "entry points; `rouge-2[use_stemmer=false]` sets one measure's options, `col:lower` "
                         "marks a lower-is-better column")
    me.add_argument("--measure-class", dest="measure_class", action="append", default=[], metavar="MOD:CLASS",
                    help="a Scorer subclass to import (repeatable)")
    me.add_argument("--module-path", dest="module_path", action="append", default=[], metavar="DIR",
                    help="a folder searched first when importing a measure class (repeatable)")
    me.add_argument("--lower-is-better", dest="lower_is_better", action="append", default=[], metavar="COL",
                    help="a measure column whose lower values are better (shown negated; repeatable)")
    for role, default in (("doc", "doc_id"), ("system", "system"), ("summary", "summary"), ("text", "text"),
                          ("references", "references")):
        me.add_argument(f"--{role}-col", dest=f"{role}_col", metavar="COL",
                        help=f"column of the {role if role != 'doc' else 'document'} ids/texts "
                             f"(a file only; default {default})")
    me.add_argument("--level", nargs="+", action="extend", default=[], metavar="LEVEL",
                    help=f"levels ({', '.join(LEVELS)}; default all three): input = per document, then averaged "
                         "(SummEval's 'summary level'), system = per-system means, global = all pairs pooled "
                         "(paper 000's 'summary level'), partial = all pairs with --partial-control regressed out of "
                         "measure and human (FRANK's partial correlation; not a default); 'summary' and 'document' "
                         "are refused as ambiguous")
    me.add_argument("--no-sentinels", dest="no_sentinels", action="store_true",
                    help="leave out the length sentinel (the summary's words, a labelled block under the measures, "
                         "never ranked; added where the data has summary texts)")
    me.add_argument("--partial-control", dest="partial_control", choices=["system", "length"],
                    help="what --level partial regresses out: system (one-hot, FRANK's protocol; default) or length "
                         "(the summary's words: does the measure say more than length?)")
    me.add_argument("--close-pairs", dest="close_pairs", action="store_true",
                    help="also write close_pairs.csv (agreement on the closest / middle / farthest third of the "
                         "system pairs by human difference, with bootstrap intervals), pdp.csv (Pairwise Difference "
                         "Pearson, DiIanni & Deutsch 2025) and rank_intervals.csv (each system's bootstrap rank "
                         "interval by each human column and measure: which systems are statistically tied)")
    me.add_argument("--undefined-as", dest="undefined_as", choices=["skip", "zero"],
                    help="the input level's mean over documents: a document whose correlation is undefined (a "
                         "constant side) is left out (skip, default) or counts as 0 (zero: RoSE's correlation.py)")
    me.add_argument("--significant-inputs", dest="significant_inputs", type=float, metavar="P",
                    help="REALSumm's reproduction rule, biased: the input level averages only the documents whose "
                         "own correlation has p <= P (REALSumm: 0.05). Selecting documents on the statistic being "
                         "averaged pushes the mean away from 0; for reproducing REALSumm's numbers, never for "
                         "comparing measures (a warning says so in every run)")
    me.add_argument("--protocol", metavar="NAME",
                    help="set the options that reproduce a paper's own numbers on its data set: frank, xsumfaith, "
                         "rose, realsumm (each only on its set), mtme (any set); README's meta-eval section lists "
                         "what each sets; an option given that contradicts it is refused")
    me.add_argument("--coefficient", nargs="+", action="extend", default=[], metavar="C",
                    help="pearson, spearman, kendall_b, kendall_c (default kendall_b)")
    me.add_argument("--test", choices=list(TESTS), metavar="TEST",
                    help=f"test of each pair of measures: {', '.join(TESTS)} (default permutation-both)")
    me.add_argument("--ci-resampling", dest="ci_resampling", default="both", choices=["inputs", "systems", "both"],
                    help="what the bootstrap intervals resample (default both)")
    me.add_argument("--n-resamples", dest="n_resamples", type=int, default=1000,
                    help="bootstrap resamples and permutations (default 1000)")
    me.add_argument("--seed", type=int, default=0, help="seed of the resamples and permutations (default 0)")
    me.add_argument("--correction", choices=["holm", "bh", "none"],
                    help="multiple-comparison correction of the tests between measures within each (human, level, "
                         "coefficient): holm (default), bh (Benjamini-Hochberg) or none (mt-metrics-eval's)")
    me.add_argument("--alternative", choices=["two-sided", "one-sided"],
                    help="the tests between measures: two-sided (default) or one-sided, each pair in the direction of "
                         "its observed difference (mt-metrics-eval's; with --correction none the clusters are its "
                         "AssignRanks'); not with the bootstrap-* tests")
    me.add_argument("--alpha", type=float, default=0.05, help="significance level of the clusters (default 0.05)")
    me.add_argument("--ci", type=float, default=0.95, help="coverage of the intervals (default 0.95)")
    me.add_argument("--early-stop", dest="early_stop", type=int, metavar="BLOCK",
                    help="stop a permutation test early (checked every BLOCK permutations, mt-metrics-eval's rule)")
    me.add_argument("--bootstrap-p", dest="bootstrap_p", default="percentile", choices=["percentile", "sacrerouge"],
                    help="p-value of the bootstrap-* tests: percentile (sumeval's: twice the smaller tail of the "
                         "resampled differences beyond 0) or sacrerouge (SacreROUGE's bootstrap_diff_test: the "
                         "share of resampled differences at least twice the observed one); default percentile")
    me.add_argument("--validation", type=float, default=0.5,
                    help="share of each label used to tune the threshold of binary human columns, and of the "
                         "documents with --tune-split validation (default 0.5)")
    me.add_argument("--no-annotators", dest="no_annotators", action="store_true",
                    help="leave out the annotator rows (added where the data has <human>/<annotator> columns: each "
                         "annotator against the mean of the others, and their mean, the human ceiling)")
    me.add_argument("--annotators-compete", dest="annotators_compete", action="store_true",
                    help="rank the annotator rows among the measures (never tested: they have another target)")
    me.add_argument("--meta-metric", dest="meta_metric", nargs="+", action="extend", default=[], metavar="M",
                    help="what ranks the measures, with significance clusters: correlation (the coefficients and "
                         "--test; default) and/or spa (soft pairwise accuracy, mt-metrics-eval's permutation test)")
    me.add_argument("--no-spa", dest="no_spa", action="store_true",
                    help="skip soft pairwise accuracy (its bootstrap intervals are the costly part)")
    me.add_argument("--spa-permutations", dest="spa_permutations", type=int, default=1000,
                    help="permutations of SPA's paired test between systems (pce.py's default 1000)")
    me.add_argument("--item-acc23", dest="item_acc23", action="store_true",
                    help="item-level pairwise accuracy with tie calibration (acc23 over the summary pairs of each "
                         "document, Deutsch et al. 2023) in pairwise_accuracy.csv")
    me.add_argument("--tune-split", dest="tune_split", metavar="FILE|validation",
                    help="tune --item-acc23's threshold on these documents (a file, one document id per line; or "
                         "validation: a random share --validation of them) and report it on the others; without "
                         "it the threshold is tuned on the test data and flagged optimistic")
    me.add_argument("--n-docs", dest="n_docs", type=int, help="only the first N documents (a quick look)")
    me.add_argument("--model", help="model of the model-based measures")
    me.add_argument("--layer", type=int, help="layer of the model-based measures")
    me.add_argument("--text-layer", dest="text_layer", type=int, help="text layer of the ESTIME family")
    me.add_argument("--index", help="retrieval index of the SERA family (CORPUS:SIZE:SEED[:BACKEND])")
    me.add_argument("--option", "-O", action="append", metavar="KEY=VALUE", help="any other scorer option")
    me.add_argument("--out", required=True, metavar="DIR", help="folder for the results: new or empty (or an "
                    "earlier meta-eval's, with --overwrite); checked before any work")
    me.add_argument("--overwrite", action="store_true", help="replace the results an earlier meta-eval wrote in "
                    "--out (only the files its manifest lists; a folder holding other files is still refused)")
    me.add_argument("--no-figures", dest="no_figures", action="store_true", help="skip the figures")
    me.add_argument("--no-cache", dest="no_cache", action="store_true", help="recompute every measure")
    me.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    add_across_arguments(me)
    me.set_defaults(func=cmd_meta_eval)
