"""``sumeval score``: a JSONL file of summaries scored by measures, written as JSONL with a record
of what was scored (``<output>.meta.json``).

    sumeval score rouge-1 bleu --input pairs.jsonl --output scored.jsonl
    sumeval score rouge-1 bleu --summaries sys.txt --references ref.txt --output scored.jsonl

Plain text (one summary a line, with aligned references / sources files): :func:`read_plain_text`.
After scoring, one line per measure output on stdout: the mean over the scored lines and a
percentile bootstrap interval over the lines (:func:`mean_interval`).
The input and output paths are checked before anything is scored (:func:`check_input_path`,
:func:`check_output_path`); the output is written whole or not at all (:func:`write_output`, which
``sumeval data export`` uses too). Scoring in shards on a Dask cluster: :mod:`sumeval.sharded`.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from sumeval.errors import InputError
from sumeval.file_kinds import describe_special, is_descriptor_path, special_kind
from sumeval.jsonl import PIPE_WAIT_S

__all__ = ["check_input_path", "check_output_path", "write_jsonl", "check_output_columns", "cmd_score", "write_output",
           "add_commands", "read_plain_text", "mean_interval", "summary_lines"]


# ------------------------------------------------------------------------------------------
# JSONL input / output
# ------------------------------------------------------------------------------------------
def check_input_path(given: str, *, what: str = "--input") -> Path:
    """The input file named ``given``: it must exist and not be a folder (else InputError)."""
    path = Path(given).expanduser()
    if given == "-" and not path.exists():
        raise InputError(f"{what} '-': give a file; standard input is read with {what} /dev/stdin")
    if not path.exists():
        raise InputError(f"{what} {given!r}: input file {str(path)!r} does not exist")
    if path.is_dir():
        raise InputError(f"{what} {given!r} is a folder; give a JSONL file")
    kind = special_kind(path)  # a pipe is a stream to read (<(zcat x.gz), a FIFO); standard input may be a terminal
    if kind is not None and kind != "a named pipe (FIFO)" and not (is_descriptor_path(path) and
                                                                   kind == "a character device"):
        raise InputError(f"{what} {describe_special(path, kind)}, not a regular file (a device such as "
                         "/dev/zero never ends); give a JSONL file, or stream one with "
                         f"{what} /dev/stdin or {what} <(command)")
    return path


def _kind(mode: int) -> str:
    import stat

    for test, name in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_output_path(given: str, *, inputs: Sequence[Path] = (), what: str = "--output") -> Path:
    """The file to write for the output path ``given``, checked before anything is computed.

    A symbolic link is written through (the file it points to is replaced, the link stays).
    Refused with InputError: a folder, a device, pipe or other non-regular file, a read-only file,
    one of the ``inputs`` (the input is never overwritten), and a location where no file can be
    created (a missing folder is created at writing time if its nearest existing parent is a
    writable folder).
    """
    import tempfile

    if given == "-":
        raise InputError(f"{what} '-': results are written to a file, not to standard output; give a file name")
    if given.endswith(("/", os.sep)):
        raise InputError(f"{what} {given!r} names a folder; give a file name, e.g. {given}scored.jsonl")
    path = Path(given).expanduser()
    target = Path(os.path.realpath(path))  # through symbolic links (of the file and its folders)
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):  # a new file (its folder is checked below)
        st = None
    except OSError as exc:
        raise InputError(f"{what} {given!r}: cannot use this path ({exc.strerror})") from None
    if st is not None:
        _check_existing_output(what, given, path, target, st, inputs)
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise InputError(f"{what} {given!r}: {str(folder)!r} is not a folder, so no file can be created there")
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".sumeval-write-check-"):
            pass
    except OSError as exc:
        raise InputError(f"{what} {given!r}: cannot create a file in {str(folder)!r} ({exc.strerror}); "
                         "choose a writable location") from None
    return target


def _check_existing_output(what: str, given: str, path: Path, target: Path, st: os.stat_result,
                           inputs: Sequence[Path]) -> None:
    """The checks of :func:`check_output_path` on a file that is there (``target``, with its ``st``): a regular,
    writable file that is neither an input nor a data set's own file."""
    import stat

    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{what} {given!r} is a folder; give a file name inside it, e.g. "
                         f"{path / 'scored.jsonl'}")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{what} {given!r} is {_kind(st.st_mode)}; results are written to a regular "
                         "file only - give a file name")
    for inp in inputs:
        if os.path.exists(inp) and os.path.samefile(target, inp):
            raise InputError(f"{what} {given!r} is the input file {str(inp)!r}; write to another file "
                             "(the input is never overwritten)")
    from sumeval.datasets.user_datasets import data_set_file_owner

    owner = data_set_file_owner(target)
    if owner:  # a judgments file a data set is read from: never replaced by scores
        raise InputError(f"{what} {given!r} is {owner}; writing there would replace that file and break "
                         f"the data set. Write to another file, e.g. {path.with_name(path.stem + '-scored.jsonl')}")
    if not st.st_mode & 0o222:
        raise InputError(f"{what} {given!r} is a read-only file; make it writable (chmod u+w) or "
                         "choose another file")
    if not os.access(target, os.W_OK):  # e.g. immutable (chattr +i), or another user's file
        raise InputError(f"{what} {given!r} cannot be replaced by this user (it may be immutable - "
                         "lsattr shows an 'i', chattr -i clears it - or belong to another user); "
                         "choose another file")


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    """Write ``records`` one JSON object a line (gzip-compressed when ``path`` ends in ``.gz``),
    atomically. ``path`` should have passed :func:`check_output_path`."""
    import gzip

    from sumeval.cache import atomic_path

    with atomic_path(path) as tmp:
        opener = gzip.open if path.name.endswith(".gz") else open
        with opener(tmp, "wt", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


def check_output_columns(records: Sequence[dict[str, Any]], lines: Sequence[int], scorers, inp: Path) -> None:
    """InputError when an input field has the name of an output column (it would be replaced)."""
    owner = {c: s.name for s in scorers for c in s.columns()}
    for rec, lineno in zip(records, lines):
        clash = [k for k in rec if k in owner]
        if clash:
            n = sum(1 for r in records if any(k in owner for k in r))
            raise InputError(
                f"{inp}:{lineno}: field {clash[0]!r} has the name of an output column of {owner[clash[0]]} "
                f"({n} line(s) have such fields); rename or remove it - sumeval never replaces input fields")


# ------------------------------------------------------------------------------------------
# plain-text input
# ------------------------------------------------------------------------------------------
def _text_lines(path: Path, what: str, given: str) -> list[str]:
    """The lines of the UTF-8 text file ``path`` (``.gz`` read too), split on ``\\n`` only (a
    ``\\r\\n`` ending is dropped with it; a final newline ends the last line, it starts none).
    ``str.splitlines`` is not used: it also splits at U+2028, form feeds and other characters
    a summary may contain, which would misalign the files."""
    import gzip

    opener = gzip.open if path.name.endswith(".gz") else open
    try:
        with opener(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise InputError(f"{what} {given!r}: cannot read it ({exc.strerror or exc})") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = []
    for lineno, raw in enumerate(lines, 1):
        try:
            out.append(raw.decode("utf-8").removesuffix("\r"))
        except UnicodeDecodeError as exc:
            raise InputError(f"{given}:{lineno} ({what}): not UTF-8 (byte {exc.start + 1} of the line); "
                             "convert the file, e.g. iconv -f latin1 -t utf-8") from None
    return out


def read_plain_text(summaries: str, references: Sequence[str] = (), sources: str | None = None
                    ) -> tuple[list[dict[str, Any]], Path]:
    """Records from plain-text files: line i of ``summaries`` is a summary, line i of each file in
    ``references`` one of its references (several files: several references per summary, as
    sacreBLEU and SacreROUGE take them) and line i of ``sources`` its source text (the ``text``
    field). Every record also gets ``line`` (its line number, from 1).

    Returns (records, the summaries path). InputError when a file is missing or not UTF-8, or when
    the files' line counts differ (naming both files and both counts)."""
    spath = check_input_path(summaries, what="--summaries")
    summ = _text_lines(spath, "--summaries", summaries)
    if not summ:
        raise InputError(f"--summaries {summaries!r} is empty; give one summary a line")
    columns: list[tuple[str, str, list[str]]] = []
    for given in references:
        columns.append(("--references", given, _text_lines(check_input_path(given, what="--references"),
                                                           "--references", given)))
    if sources is not None:
        columns.append(("--sources", sources, _text_lines(check_input_path(sources, what="--sources"),
                                                          "--sources", sources)))
    for what, given, lines in columns:
        if len(lines) != len(summ):
            raise InputError(f"{what} {given!r} has {len(lines)} line(s) but --summaries {summaries!r} has "
                             f"{len(summ)}; the files must be aligned, line i of each for summary i (a document "
                             "that spans several lines must be joined into one)")
    records: list[dict[str, Any]] = []
    for i, summary in enumerate(summ):
        rec: dict[str, Any] = {"line": i + 1, "summary": summary}
        refs = [lines[i] for what, _, lines in columns if what == "--references"]
        if refs:
            rec["references"] = refs
        if sources is not None:
            rec["text"] = columns[-1][2][i]
        records.append(rec)
    return records, spath


# ------------------------------------------------------------------------------------------
# the summary line: mean and bootstrap interval over the lines
# ------------------------------------------------------------------------------------------
BOOTSTRAP_METHOD = "percentile bootstrap over lines"


def mean_interval(values, *, n_resamples: int = 1000, ci: float = 0.95, seed: int = 0
                  ) -> tuple[float, float, float, int]:
    """The mean of the finite ``values`` and its percentile bootstrap interval (Efron & Tibshirani
    1993, "An Introduction to the Bootstrap", Sec. 13.3): ``n_resamples`` resamples of the lines
    drawn with replacement (:func:`sumeval.stats.resampling.resample_indices`, inputs axis,
    ``seed``), the mean of each, and the (1 - ci)/2, (1 + ci)/2 quantiles of those means
    (:func:`sumeval.stats.resampling.percentile_interval`).

    Returns (mean, low, high, n finite values); all NaN with n = 0 when no value is finite."""
    import numpy as np

    from sumeval.stats.resampling import percentile_interval, resample_indices

    x = np.asarray(values, dtype=np.float64)
    x = x[np.isfinite(x)]
    if x.size == 0:
        return math.nan, math.nan, math.nan, 0
    counts = resample_indices(1, x.size, "inputs", n_resamples, seed).input_counts()
    means = counts @ x / x.size
    lo, hi = percentile_interval(means, ci)
    return float(x.mean()), lo, hi, int(x.size)


def summary_lines(frame, *, n_resamples: int = 1000, ci: float = 0.95, seed: int = 0) -> list[str]:
    """One line per output column of ``frame`` (the scored lines x measure outputs): the mean over
    the lines with a number, its interval (:func:`mean_interval`) and how it was obtained."""
    out = []
    width = max((len(str(c)) for c in frame.columns), default=0)
    for col in frame.columns:
        mean, lo, hi, n = mean_interval(frame[col].to_numpy(dtype=float), n_resamples=n_resamples, ci=ci,
                                        seed=seed)
        of = f"{n} of {len(frame)} lines" if n != len(frame) else f"{n} lines"
        if n == 0:
            out.append(f"{str(col):<{width}}  no line has a number")
            continue
        out.append(f"{str(col):<{width}}  mean {mean:.4f}  {ci:.0%} CI [{lo:.4f}, {hi:.4f}]  "
                   f"({of}; {BOOTSTRAP_METHOD}, {n_resamples} resamples, seed {seed})")
    return out


# ------------------------------------------------------------------------------------------
# score
# ------------------------------------------------------------------------------------------
def cmd_score(args: argparse.Namespace) -> int:
    """``sumeval score``: warnings raised while scoring are printed once each, as one line (a
    measure's NaN / None values are reported with the other rows not scored, by line)."""
    import warnings

    from sumeval.metrics import NotScoredWarning

    with warnings.catch_warnings(record=True) as caught:
        try:
            return _score(args)
        finally:
            seen: dict[str, int] = {}
            for w in caught:
                if issubclass(w.category, NotScoredWarning):
                    continue
                seen[str(w.message)] = seen.get(str(w.message), 0) + 1
            for msg, n in seen.items():
                print(f"warning: {msg}" + (f" ({n} times)" if n > 1 else ""), file=sys.stderr)


def _check_score_arguments(args: argparse.Namespace) -> bool:
    """InputError unless ``sumeval score`` names a measure, one input and an output; whether the
    input is plain text (``--summaries``)."""
    if not args.measures and not args.measure_class:
        raise InputError("name at least one measure (e.g. `sumeval score rouge-1 --input x.jsonl`, or "
                         "--measure-class pkg.mod:MyScorer), or use --list")
    plain = args.summaries is not None
    if plain and args.input:
        raise InputError("give either --input (JSONL) or --summaries (plain text, one summary a line), not both")
    if not plain and (args.references or args.sources is not None):
        given = "--references" if args.references else "--sources"
        raise InputError(f"{given} is read with --summaries (plain text, one summary a line); with --input "
                         "(JSONL) give the references and sources as fields of each line")
    if not (args.input or plain):
        raise InputError("an input is required: --input FILE (JSONL, a summary and its references a line) or "
                         "--summaries FILE (plain text, one summary a line)")
    if not args.output:
        raise InputError("--output FILE is required: the JSONL file the scores are written to")
    return plain


def _score(args: argparse.Namespace) -> int:
    from sumeval import metrics

    if args.list:
        _print_measures()
        return 0
    plain = _check_score_arguments(args)
    from sumeval.argtypes import scorer_options
    from sumeval.sharded import check_shard_args

    shard_size = check_shard_args(getattr(args, "scheduler", None), getattr(args, "shard_size", None),
                                  getattr(args, "worker_timeout", None))
    options = scorer_options(args)
    from sumeval.cli.progress import show_progress
    from sumeval.metrics.user_scorers import build_scorers

    progress = show_progress(quiet=args.quiet, forced=args.progress)
    if progress and shard_size is None and "progress" not in options and _report_progress(args):
        options = {**options, "progress": True}  # their long stages (an index build, embeddings) report too

    scorers = build_scorers(args.measures, args.measure_class, args.module_path, options)

    if plain:
        plain_records, inp = read_plain_text(args.summaries, args.references, args.sources)
        given_inputs = [inp] + [Path(r).expanduser() for r in args.references] + \
            ([Path(args.sources).expanduser()] if args.sources is not None else [])
    else:
        inp = check_input_path(args.input)
        given_inputs = [inp]
    out = check_output_path(args.output, inputs=given_inputs)
    given = Path(args.output).expanduser()
    meta_path = check_output_path(str(given.with_name(given.name + ".meta.json")), inputs=given_inputs,
                                  what="the record file of --output")
    if shard_size is not None:  # its work folder: absent or sumeval's (never a user's folder)
        from sumeval.sharded import check_work_root

        check_work_root(given)
    from sumeval.jsonl import iter_jsonl

    # the user's objects, unchanged, with their line numbers
    if plain:
        numbered = [(rec["line"], rec) for rec in plain_records]
    else:
        numbered = list(iter_jsonl(inp, pipe_wait=getattr(args, "pipe_wait", PIPE_WAIT_S)))
    if not numbered:
        raise InputError(f"input file {str(inp)!r} has no records")
    lines = [lineno for lineno, _ in numbered]
    records = [obj for _, obj in numbered]
    _check_fields(records, lines, scorers, inp, args.measures)
    check_output_columns(records, lines, scorers, inp)

    def label(i: int) -> str:
        return f"{inp}:{lines[i]}"

    sharded = None
    if shard_size is None:
        frame, report = metrics.score_records(records, scorers, progress=progress, row_label=label)
    else:  # on a Dask cluster (sumeval.sharded): the same frame and report
        from sumeval.sharded import score_sharded

        metrics.check_records(records, {f for s in scorers for f in s.needs}, label)
        recipe = {"names": list(args.measures), "classes": list(args.measure_class),
                  "module_path": list(args.module_path), "options": options}
        frame, report, sharded = score_sharded(records, lines, scorers, recipe, source=inp, output=given,
                                               scheduler=args.scheduler, shard_size=shard_size,
                                               progress=progress, worker_timeout=args.worker_timeout)
    scored = _scored_rows(records, frame)
    from sumeval.cache import atomic_write_json

    meta = {"input": str(inp), "measures": report.signatures,
            **({"plain_text": {"summaries": str(inp),
                               "references": [str(Path(r).expanduser()) for r in args.references],
                               "sources": None if args.sources is None else str(Path(args.sources).expanduser())}}
               if plain else {}),
            "not_scored": [{"line": lines[i], "measure": m, "reason": why} for i, m, why in report.skipped],
            "notes": [{"line": lines[i], "measure": m, "note": note} for i, m, note in report.notes]}
    write_output(args.output, lambda: write_jsonl(out, scored))
    write_output(str(meta_path), lambda: atomic_write_json(meta_path, meta), what="the record file of --output")
    if sharded is not None:
        sharded.finish()
        reused = f", {len(sharded.reused)} reused from an earlier run" if sharded.reused else ""
        print(f"scored {sharded.n_shards} shard(s) of up to {shard_size} lines on the Dask cluster at "
              f"{args.scheduler}{reused}", file=sys.stderr)
    def rows_label(rows):
        return f"{inp} lines {', '.join(str(lines[i]) for i in rows)}"

    for line in report.summary_lines(label, rows_label=rows_label):
        print(f"warning: {line}", file=sys.stderr)
    n_skipped = len({i for i, _, _ in report.skipped})
    no_number = len({i for i, _, why in report.skipped if why.startswith(metrics.NO_NUMBER)})
    gave = f" ({no_number} gave no number)" if no_number else ""
    print(f"scored {len(records) - n_skipped} of {len(records)} lines with {', '.join(report.signatures)}"
          f"{gave}; wrote {args.output} (+ {meta_path.name})", file=sys.stderr)
    for line in summary_lines(frame, n_resamples=args.resamples, seed=args.seed):
        print(line)
    return 0


def _print_measures() -> None:
    """``sumeval score --list``: each measure, the fields it needs and what it is, one a line."""
    from sumeval import metrics

    for info in metrics.available():
        needs = ", ".join(("summary",) + info.needs)
        print(f"{info.name:<16} needs {needs:<28} {info.description}")


def _check_fields(records: list[dict], lines: list[int], scorers, inp, measures) -> None:
    """Every record has the fields the ``scorers`` need (the first missing one named with its file and line), and a
    measure needing references finds them on some line."""
    needed = {"summary"} | {f for s in scorers for f in s.needs if f != "references"}
    for rec, lineno in zip(records, lines):
        missing = [f for f in sorted(needed) if f not in rec]
        if missing:
            raise InputError(
                f"{inp}:{lineno}: field {missing[0]!r} is missing; the measures "
                f"{', '.join(measures)} need {', '.join(sorted(needed))} on every line"
            )
    for s in scorers:
        if "references" in s.needs and not any(rec.get("references") for rec in records):
            raise InputError(f"measure {s.name!r} needs 'references' (a list of strings); no line of {inp} has them")


def _scored_rows(records: list[dict], frame) -> list[dict]:
    """Each user record, unchanged, with one field per output column of ``frame`` (its row i) added."""
    scored = []
    for i, rec in enumerate(records):
        row = dict(rec)
        for col in frame.columns:
            row[col] = _clean(float(frame.at[i, col]))
        scored.append(row)
    return scored


def _report_progress(args: argparse.Namespace) -> bool:
    """Whether a measure the command names takes a ``progress`` option (SERA's index build and query
    reformulation, ESTIME's embeddings show their own bars with it)."""
    from sumeval.metrics.registry import accepted_options, registered_class
    from sumeval.metrics.user_scorers import load_scorer_class

    classes = [registered_class(n)[1] for n in args.measures]
    classes += [load_scorer_class(p, args.module_path) for p in args.measure_class]
    return any(c is not None and "progress" in accepted_options(c, {"progress": True}) for c in classes)


def write_output(given: str, write, *, what: str = "--output") -> None:
    """``write()``; an OSError (a full disk, an immutable or read-only file or folder) is raised
    again naming the path the user gave (not the temporary file written first), with what was lost
    and what to do (the command still exits 1, as for any failed write)."""
    import errno

    try:
        write()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        hint = {errno.ENOSPC: "free some space there or write elsewhere",
                errno.EDQUOT: "free some space there or write elsewhere",
                errno.EPERM: "the file or its folder may be immutable (lsattr; chattr -i) - "
                             "choose another file",
                errno.EACCES: "make it writable or choose another file",
                errno.EROFS: "the disk is read-only - choose another file"}.get(exc.errno or 0,
                                                                                "choose another file")
        lost = " (the scores were computed but not saved)" if what == "--output" else ""
        raise OSError(exc.errno, f"{reason}; {what} could not be written, nothing was written there{lost}: "
                      f"{hint}", given) from exc


# ------------------------------------------------------------------------------------------
# the sub-parser
# ------------------------------------------------------------------------------------------
def _seconds(text: str) -> float:
    """``--pipe-wait``'s value: a finite number of seconds >= 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds >= 0 (e.g. 30)")
    return value


def _positive_int(text: str) -> int:
    """``--resamples``' value: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1 (e.g. 1000)")
    return value


def add_commands(sub) -> None:
    """Add ``score`` to the ``sumeval`` command's sub-parsers ``sub``."""
    sc = sub.add_parser("score", help="score summaries in a JSONL or plain-text file")
    sc.add_argument("measures", nargs="*", help="measure names (see --list)")
    sc.add_argument("--list", action="store_true", help="list the measures and exit")
    sc.add_argument("--input", "-i", help="JSONL (UTF-8; .gz read too): one object per line with 'summary' "
                    "(a string), and 'text' (a string) and/or 'references' (a list of strings) as the measures need")
    sc.add_argument("--summaries", metavar="FILE", help="plain text instead of --input: one summary a line "
                    "(UTF-8; .gz read too)")
    sc.add_argument("--references", action="append", default=[], metavar="FILE",
                    help="with --summaries: line i is a reference of summary i (repeat for several references)")
    sc.add_argument("--sources", metavar="FILE", help="with --summaries: line i is the source text of summary i "
                    "(the measures' `text`)")
    sc.add_argument("--resamples", type=_positive_int, default=1000, metavar="B",
                    help="bootstrap resamples of the lines for each measure's 95%% interval (default 1000)")
    sc.add_argument("--seed", type=int, default=0, help="seed of the bootstrap resamples (default 0)")
    sc.add_argument("--pipe-wait", dest="pipe_wait", type=_seconds, default=PIPE_WAIT_S, metavar="SECONDS",
                    help=f"with --input a named pipe (FIFO): how long to wait for a writer and its first bytes "
                    f"before giving up (default {PIPE_WAIT_S:g})")
    sc.add_argument("--output", "-o", help="JSONL to write (a new or regular file, not the input; .gz compressed): "
                    "each input line plus one field per measure output")
    sc.add_argument("--model", help="model name or path (model-based measures)")
    sc.add_argument("--layer", type=int, help="layer of the summary embeddings, 0 (embedding output) to the "
                    "model's last (model-based measures)")
    sc.add_argument("--text-layer", type=int, dest="text_layer", help="layer of the text embeddings (as --layer)")
    sc.add_argument("--index", help="retrieval index (SERA measures)")
    sc.add_argument("--aggregate", choices=["mean", "max"], help="how to combine several references (ROUGE)")
    sc.add_argument("--option", "-O", action="append", metavar="KEY=VALUE",
                    help="any other scorer option, its value read as YAML (true, 4, 0.5, text)")
    sc.add_argument("--measure-class", dest="measure_class", action="append", default=[], metavar="MOD:CLASS",
                    help="a user's Scorer subclass to import and score with (repeatable; see examples/README.md)")
    sc.add_argument("--module-path", dest="module_path", action="append", default=[], metavar="DIR",
                    help="a folder searched first when importing a --measure-class (repeatable)")
    shown = sc.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", help="show the progress bars even when stderr is not a "
                       "terminal (on a terminal they are on by default)")
    shown.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    sc.add_argument("--scheduler", metavar="ADDRESS",
                    help="score in shards on the workers of a Dask distributed cluster (e.g. tcp://10.0.0.5:8786); "
                    "the output is the same as a local run's, and a rerun resumes from the finished shards")
    sc.add_argument("--shard-size", dest="shard_size", type=int, metavar="N",
                    help="lines per shard with --scheduler (default 512)")
    sc.add_argument("--worker-timeout", dest="worker_timeout", type=float, metavar="SECONDS",
                    help="with --scheduler: fail when no worker has been connected for this long (default 60; "
                    "the finished shards are kept for a rerun)")
    sc.set_defaults(func=cmd_score)
