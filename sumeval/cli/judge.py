"""``sumeval judge``: run an LLM judge and write its scores in the judgments shape
(:mod:`sumeval.judges.run`).

    sumeval judge summeval --human coherence fluency --template geval --model M \\
        --base-url http://127.0.0.1:8000/v1 --scoring text --limit 40 --out results/judge
    sumeval judge summeval --human coherence --template geval --model models/SmolLM2-135M-Instruct \\
        --scoring logprobs --limit 16 --out results/smol
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path

from sumeval.argtypes import split_values
from sumeval.errors import InputError
from sumeval.judges.names import JUDGE_RUN_KIND

__all__ = ["MANIFEST_KIND", "cmd_judge", "add_commands", "check_out"]

MANIFEST_KIND = JUDGE_RUN_KIND
#: a pairwise template's answers: 1 = the first summary is better, 2 = the second
PAIR_LABELS = (1, 2)
OUT_FILES = ("judgments.jsonl", "answers.csv", "parse_failures.csv", "manifest.json")
#: the probes' files (``--probe``); an earlier run's that this run does not make are removed
PROBE_FILES = {"self-consistency": "probe_self_consistency.csv", "padding": "probe_padding.csv",
               "position-swap": "probe_position_swap.csv"}


def check_out(path: str) -> Path:
    """``--out``: a new or empty folder, or one holding an earlier ``sumeval judge`` result (whose
    files a rerun replaces)."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {str(out)!r} is a file; name a new or empty folder")
    if out.is_dir():
        entries = sorted(p.name for p in out.iterdir())
        manifest = out / "manifest.json"
        mine = False
        if manifest.is_file():
            try:
                mine = json.loads(manifest.read_text(encoding="utf-8")).get("kind") == MANIFEST_KIND
            except (ValueError, OSError, AttributeError):
                mine = False
        if entries and not (mine and set(entries) <= {*OUT_FILES, *PROBE_FILES.values()}):
            raise InputError(f"--out {str(out)!r} is not empty and holds no earlier `sumeval judge` result only "
                             f"({', '.join(entries[:5])}{' ...' if len(entries) > 5 else ''}); name a new or empty "
                             "folder")
    return out


def _write_judgments(judgments, target: Path, export) -> None:
    """Write the judge's judgments file; a file with the same bytes is left as it is (a rerun after
    ``sumeval data add`` keeps the registered file's sha256), and a changed one is never written over a
    data set's own file (:func:`sumeval.datasets.user_datasets.check_export_target`)."""
    import tempfile

    from sumeval.datasets.user_datasets import check_export_target

    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".judge.") as tmp:
        fresh = export(judgments, Path(tmp) / target.name)
        if target.is_file() and target.read_bytes() == fresh.read_bytes():
            return
        check_export_target(target, judgments)
        fresh.replace(target)


def _versions() -> dict[str, str]:
    from importlib import metadata

    import sumeval

    out = {"python": platform.python_version(), "sumeval": sumeval.__version__}
    for dist in ("openai", "transformers", "torch", "jinja2", "gguf", "pandas"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return out


def _finite(obj):
    """``obj`` with NaN as None (the manifest is strict JSON)."""
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if isinstance(obj, float) and obj != obj:
        return None
    return obj


def _probe_lines(summaries: dict, judged: dict) -> list[str]:
    """One line per probe and quality for the terminal."""
    lines = []
    for q, r in summaries.get("self-consistency", {}).items():
        lines.append(f"self-consistency {judged[q]}: {r['repeats']} repeats (seeds {r['seeds'][0]}..{r['seeds'][-1]}), "
                     f"Krippendorff's alpha {r['alpha']:.3f}, all repeats equal on {r['exact']:.0%} of "
                     f"{r['items_pairable']} items, mean sd {r['mean_sd']:.3f}")
    for q, r in summaries.get("padding", {}).items():
        lines.append(f"padding {judged[q]}: mean change {r['mean_change']:+.3f} with 2 neutral sentences added; "
                     f"rose on "
                     f"{r['rose']:.0%}, fell on {r['fell']:.0%} of {r['items']} items ({r['skipped']} unparsable "
                     f"left out), Wilcoxon p {r['p_value']:.3g}")
    for q, r in summaries.get("position-swap", {}).items():
        lines.append(f"position swap {judged[q]}: {r['pairs']} pairs, consistent {r['consistent']:.0%}, "
                     f"first position both times {r['first']:.0%}, second {r['second']:.0%}, "
                     f"other (tie / unparsable) {r['other']:.0%}")
    return lines


def _probe_options(args: argparse.Namespace, humans: list[str]) -> tuple[dict, dict | None]:
    """The probes asked for (``--probe``) and the position-swap probe's pairwise templates, checked together."""
    from sumeval.judges.run.probes import parse_probes
    from sumeval.judges.run.templates import jinja_template

    probes = parse_probes(split_values(args.probe or []))
    if "position-swap" in probes and not args.pair_template:
        raise InputError("--probe position-swap needs a pairwise template: --pair-template FILE.jinja (fields "
                         "summary_a, summary_b, system_a, system_b and the document's; answers 1 = the first "
                         "summary is better, 2 = the second)")
    if args.pair_template and "position-swap" not in probes:
        raise InputError("--pair-template is the position-swap probe's template: add --probe position-swap")
    pair_templates = ({h: jinja_template(args.pair_template, h, PAIR_LABELS, role=args.role) for h in humans}
                      if args.pair_template else None)
    return probes, pair_templates


def cmd_judge(args: argparse.Namespace) -> int:
    """Run ``sumeval judge``; 0 when the scores were written."""
    import warnings

    from sumeval.cache import atomic_write_json
    from sumeval.datasets.judgment_files import export_judgments
    from sumeval.datasets.judgments import load_judgments
    from sumeval.datasets.loaders.summeval import judge_column
    from sumeval.judges.run.backends import OpenAIBackend, TransformersBackend
    from sumeval.judges.run.probes import run_probes
    from sumeval.judges.run.runner import NAMESPACE, generation_params, judge_name, run_judge
    from sumeval.judges.run.scoring import parse_scoring
    from sumeval.judges.run.templates import GEVAL_LABELS, geval_template, jinja_template, parse_labels

    t0 = time.perf_counter()
    humans = split_values(args.human)
    if not humans:
        raise InputError("name the human columns to judge (--human COL [COL ...])")
    scoring = parse_scoring(args.scoring)
    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit {args.limit}: give a number of rows >= 1")
    if args.concurrency < 1:
        raise InputError(f"--concurrency {args.concurrency}: give a number >= 1")
    out = check_out(args.out)
    probes, pair_templates = _probe_options(args, humans)
    if args.template == "geval":
        if args.labels:
            raise InputError("--labels applies to your own template; G-Eval's prompts fix theirs "
                             "(fluency 1-3, the others 1-5)")
        templates = {h: geval_template(h, role=args.role) for h in humans}
    else:
        labels = parse_labels(args.labels or "1-5")
        templates = {h: jinja_template(args.template, h, labels, role=args.role) for h in humans}
    columns = {k: getattr(args, k) for k in ("doc_col", "system_col", "summary_col", "text_col", "references_col")}
    judgments = load_judgments(args.data, human=humans, **columns)
    frame = judgments.frame.iloc[: args.limit].reset_index(drop=True) if args.limit else judgments.frame
    keep = [c for c in frame.columns if isinstance(c, str) and c in ("doc_id", "system", *judgments.fields)]
    records = [{k: v for k, v in rec.items()} for rec in frame[keep].to_dict("records")]
    if args.base_url:
        backend = OpenAIBackend(args.base_url, args.model, api_key_env=args.api_key_env, timeout=args.timeout,
                                max_retries=args.max_retries)
    else:
        backend = TransformersBackend(args.model)
    name = args.name or judge_name(args.model)
    if any(ch in name for ch in "/:#[,") or not name.strip():
        raise InputError(f"--name {name!r}: a judge name has no '/', ':', '#', '[' or ','")
    params = generation_params(scoring, temperature=args.temperature, top_p=args.top_p, max_tokens=args.max_tokens,
                               seed=args.seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run_judge(records, templates, scoring, params, backend, concurrency=args.concurrency,
                           offline=args.offline, progress=not args.quiet)
        probe_frames, probe_summaries = run_probes(
            probes, records, templates, scoring, params, backend, result.scores, pair_templates=pair_templates,
            concurrency=args.concurrency, offline=args.offline, progress=not args.quiet) if probes else ({}, {})
    for w in caught:  # after the progress lines; through the filters (python -W, PYTHONWARNINGS), as if not caught
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    # the output: the rows' ids and texts, the human and annotator columns judged, the judge's columns
    cols = [*keep, *humans, *[a for h in humans for a in judgments.annotators.get(h, ())]]
    table = frame[cols].copy()
    judged = {}
    for h in humans:
        col = judge_column(name, h)
        table[col] = result.scores[h]
        judged[h] = col
    out.mkdir(parents=True, exist_ok=True)
    _write_judgments(replace(judgments, frame=table), out / "judgments.jsonl", export_judgments)
    from sumeval.cache import atomic_path

    with atomic_path(out / "answers.csv") as tmp:
        result.answers.to_csv(tmp, index=False)
    with atomic_path(out / "parse_failures.csv") as tmp:
        result.failures.to_csv(tmp, index=False)
    for probe, fname in PROBE_FILES.items():
        frame_p = probe_frames.get(probe.replace("-", "_"))
        if frame_p is None:
            (out / fname).unlink(missing_ok=True)  # an earlier run's probe, not this run's
        else:
            with atomic_path(out / fname) as tmp:
                frame_p.to_csv(tmp, index=False)
    notes = []
    for h in humans:
        labels = templates[h].labels
        if args.template == "geval" and labels != GEVAL_LABELS["coherence"]:
            notes.append(f"{judged[h]} is on G-Eval's {labels[0]}-{labels[-1]} scale; the human column {h!r} may be "
                         "on another (SummEval's experts rated fluency 1-5): correlations are unaffected, but the "
                         "alt-test's neg_rmse / neg_mae compare values")
    manifest = {
        "kind": MANIFEST_KIND, "created": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": ["sumeval", *sys.argv[1:]] if sys.argv else None, "host": platform.node(),
        "dataset": {"name": judgments.name, "path": str(judgments.path), "sha256": judgments.sha256,
                    "rows": len(judgments), "rows_judged": len(frame), "limit": args.limit},
        "judge": name, "columns": judged, "backend": backend.describe(),
        "model_requested": backend.model, "models_reported": result.stats["models_reported"],
        "templates": {h: t.describe() for h, t in templates.items()},
        "scoring": {"method": str(scoring), "n": scoring.n,
                    "rule": {"logprobs": "G-Eval eq. 1 over the allowed labels, renormalised (Liu et al. 2023, "
                                         "sec. 2.3)",
                             "samples": "mean of the sampled answers' leading numbers (G-Eval's parse, after the "
                                        "form's field if an answer repeats it), unparsable samples left out",
                             "text": "the answer, stripped, is exactly one allowed label, or the prompt's form "
                                     "line filled in with one ('- Coherence: 3')"}[scoring.method],
                    "unparsable": "missing value (counted and listed in parse_failures.csv), never a default"},
        "generation": params, "concurrency": args.concurrency, "offline": bool(args.offline),
        "cache": {"namespace": NAMESPACE, **result.stats["calls"]}, "tokens": result.stats["tokens"],
        "qualities": result.stats["qualities"], "notes": notes, "versions": _versions(),
        "probes": _finite(probe_summaries),
        "pair_templates": {h: t.describe() for h, t in pair_templates.items()} if pair_templates else None,
    }
    atomic_write_json(out / "manifest.json", manifest)
    calls = result.stats["calls"]
    for h in humans:
        q = result.stats["qualities"][h]
        mass = q.get("label_mass")
        print(f"{judged[h]}: {q['items'] - q['missing']} of {q['items']} items scored, {q['missing']} missing, "
              f"{q['parse_failures']} unparsable answers"
              + (f", mean probability mass on the labels {mass['mean']:.2f}" if mass else ""), file=sys.stderr)
        if q.get("parse_failures_cut"):
            print(f"note: {q['parse_failures_cut']} of the unparsable answers for {judged[h]} stopped at --max-tokens "
                  f"{params.get('max_tokens')}, perhaps before the label (a chat model often repeats the form's "
                  "field first: '- Coherence: 3' is 6 tokens for some tokenizers); raise --max-tokens "
                  f"(answers.csv and {out / 'parse_failures.csv'} hold the answers)", file=sys.stderr)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    for line in _probe_lines(probe_summaries, judged):
        print(line, file=sys.stderr)
    print(f"{calls['made']} calls made, {calls['cached']} from the cache; "
          f"wrote {len(OUT_FILES) + len(probe_frames)} files to {out} in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    h0 = humans[0]
    print(f"next: sumeval alt-test {out / 'judgments.jsonl'} --human {' '.join(humans)} --judges {name} --out ...\n"
          f"      sumeval meta-eval {out / 'judgments.jsonl'} --human {h0} --measures {judged[h0]} --out ...\n"
          f"      (or give it a name: sumeval data add NAME {out / 'judgments.jsonl'} --human {','.join(humans)})",
          file=sys.stderr)
    return 0


def add_commands(subparsers) -> None:
    """Add ``judge`` to the ``sumeval`` command's sub-parsers."""
    from sumeval.cli.judgments_parser import add_judgments_parser

    p = add_judgments_parser(
        subparsers, "judge", help="run an LLM judge (a server or a local model) and write its scores",
        description="Score the summaries of a data set with an LLM judge - any OpenAI-compatible server "
                    "(--base-url) or a local model folder / GGUF file in process - and write its scores as "
                    "<judge>.<quality> columns of a judgments file (with the ids, texts, human and annotator "
                    "columns), ready for alt-test and meta-eval. Every answer is cached: the same command again "
                    "makes no call, and a run that stopped goes on where it stopped.",
        data_help="a data set name or a judgments file", human_help="the human columns (qualities) to judge")
    p.add_argument("--model", required=True, help="the server's model name (with --base-url), or a local model "
                   "folder or .gguf file (in process)")
    p.add_argument("--template", required=True, help="'geval' (G-Eval's SummEval prompts, data files) or a Jinja "
                   "template file (fields: doc_id, system, summary, text, references, quality, labels)")
    p.add_argument("--scoring", default="text", help="logprobs (G-Eval's probability-weighted score), samples:N "
                   "(G-Eval's mean of N sampled answers) or text (one answer, strict); default text")
    p.add_argument("--labels", help="a template's allowed answers: LO-HI or a list 1,2,3 (default 1-5)")
    p.add_argument("--role", default="user", choices=("user", "system"),
                   help="role of the prompt's one chat message (default user; G-Eval used system)")
    p.add_argument("--name", help="the judge's name in the columns (default: from --model)")
    p.add_argument("--base-url", dest="base_url", help="an OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--api-key-env", dest="api_key_env", default="OPENAI_API_KEY", metavar="VAR",
                   help="environment variable holding the API key (default OPENAI_API_KEY; a local server needs none)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    p.add_argument("--max-retries", dest="max_retries", type=int, default=2,
                   help="retries with back-off on 429, 5xx, timeouts and lost connections (default 2)")
    p.add_argument("--concurrency", type=int, default=4, help="requests at a time (default 4; 1 in process)")
    p.add_argument("--temperature", type=float, help="default: 0 (logprobs, text), 1 (samples)")
    p.add_argument("--top-p", dest="top_p", type=float, help="default: the server's (samples: 1)")
    p.add_argument("--max-tokens", dest="max_tokens", type=int, help="default: 1 (logprobs), 5 (text, samples)")
    p.add_argument("--seed", type=int, help="the first sample's seed (sample k: seed + k; default 0 for samples)")
    p.add_argument("--limit", type=int, help="only the first N rows")
    p.add_argument("--offline", action="store_true", help="make no call: fail, naming it, on a call not in the cache")
    for role in ("doc", "system", "summary", "text", "references"):
        p.add_argument(f"--{role}-col", dest=f"{role}_col", metavar="COL", help=f"column of the {role} (a file only)")
    p.add_argument("--probe", nargs="+", metavar="PROBE",
                   help="audit probes, each with its own (cached) calls: self-consistency:K (K repeats with seeds; "
                        "Krippendorff's alpha), padding (2 neutral sentences added to each summary: does the score "
                        "rise?), position-swap (a pairwise template in both orders; needs --pair-template)")
    p.add_argument("--pair-template", dest="pair_template", metavar="FILE",
                   help="the position-swap probe's Jinja template: summary_a, summary_b, system_a, system_b and the "
                        "document's fields; answers 1 (the first summary is better) or 2")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--out", required=True, metavar="DIR", help="a new or empty folder (or an earlier judge result)")
    p.set_defaults(func=cmd_judge)
