"""One data set's part of a meta-evaluation across sets (:mod:`sumeval.meta_eval.across`).

Three steps per set: :func:`prepare_set` loads it, resolves each measure on its own (one that
cannot run is a blank with the reason) and scores them (cached); :func:`run_units` runs
:func:`~sumeval.meta_eval.meta_evaluate` once per human column - a *unit* - serially or on ``jobs``
processes (the statistics run on one BLAS thread each; every test's family is one (human, level),
and the resamples are drawn from the seed alone, so a unit's numbers are those of one call over
all the human columns); :func:`finish_set` merges the units and adds a pairwise set's ranking
accuracy (:mod:`sumeval.stats.pair_ranking`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

import pandas as pd

from sumeval.errors import InputError

__all__ = ["SetOutcome", "Prepared", "prepare_set", "run_units", "finish_set"]


@dataclass
class SetOutcome:
    """One data set's part: its meta-evaluation, or why it was skipped.

    tasks: ``{(human, level): reason or None}`` (None: run; a reason: the level does not apply).
    blank: ``{measure spec: reason}`` for the measures that cannot run on it.
    labels: the measures that ran, as labelled in the tables.
    result: the set's :class:`~sumeval.meta_eval.MetaEvaluation` (None when skipped).
    accuracy, accuracy_tests, accuracy_ranking: a pairwise set's ranking accuracy, its tests and
        clusters (else None).
    timings: ``scoring_s`` (loading and scoring), ``correlations_s`` and ``tests_s`` (summed over
        its units), ``total_s``.
    """

    name: str
    status: str
    reason: str | None = None
    humans: tuple[str, ...] = ()
    labels: list[str] = field(default_factory=list)
    tasks: dict[tuple[str, str], str | None] = field(default_factory=dict)
    blank: dict[str, str] = field(default_factory=dict)
    result: Any = None
    accuracy: pd.DataFrame | None = None
    accuracy_tests: pd.DataFrame | None = None
    accuracy_ranking: pd.DataFrame | None = None
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def pairwise(self) -> bool:
        return self.accuracy is not None


@dataclass
class Prepared:
    """A set loaded and scored: its outcome so far, the data, the scores (without scorer objects,
    so that they travel to worker processes) and its units ``[(human, levels), ...]``."""

    outcome: SetOutcome
    judgments: Any = None
    scores: Any = None
    units: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)


def _needs(text: str, module_path: Sequence[str]) -> tuple[str, ...] | None:
    """The fields measure ``text`` reads, when it is a registered measure (or one of its outputs) or
    a ``module:Class``; None for a column or an unknown name."""
    from sumeval import metrics
    from sumeval.metrics.user_scorers import CLASS_RE, load_scorer_class

    head = text.split("[")[0].split("#")[0].strip()
    if CLASS_RE.match(head):
        try:
            return tuple(load_scorer_class(head, module_path).needs)
        except InputError:
            return None
    infos = sorted(metrics.available(), key=lambda i: -len(i.name))
    info = next((i for i in infos if head.lower() == i.name or head.lower().startswith(i.name + "-")), None)
    return tuple(info.needs) if info is not None else None


def _needs_reason(text: str, judgments, module_path: Sequence[str] = ()) -> str | None:
    """Why measure ``text`` cannot read ``judgments`` (``no references in NAME``, or the set's own
    reason), else None."""
    needs = _needs(text, module_path)
    if needs is None:
        return None
    for f in ("summary", *needs):
        if f not in judgments.fields:
            why = judgments.limits.get(f)
            return f"no {f if f != 'text' else 'source text'}" + (f": {why}" if why else f" in {judgments.name}")
    return None


def _resolve(texts: Sequence[str], judgments, options: Mapping[str, Any], used: set[str],
             module_path: Sequence[str] = (), classes: Sequence[str] = ()):
    """``(specs, blank)``: each measure resolved on its own (a measure that cannot run is a blank
    with the reason), with the ``options`` its scorer accepts (recorded in ``used``). ``classes``
    (``--measure-class`` paths, after ``texts``) are resolved as classes, never read for the
    ``:lower`` suffix (:func:`~sumeval.metrics.sources.resolve_measures`' ``measure_classes``)."""
    from sumeval.metrics import accepted_options
    from sumeval.metrics.sources import resolve_measures

    def one(text, is_class, opts=None):
        given = ([], [text]) if is_class else ([text], [])
        (spec,) = resolve_measures(given[0], judgments, measure_classes=given[1], options=opts,
                                   module_path=module_path)
        return spec

    specs, blank = [], {}
    for text, is_class in [*((t, False) for t in texts), *((c, True) for c in classes)]:
        why = _needs_reason(text, judgments, module_path)
        if why:
            blank[text] = why
            continue
        try:
            spec = one(text, is_class)
            if spec.scorer is not None and options:
                mine = accepted_options(type(spec.scorer), options)
                if mine:
                    spec = one(text, is_class, mine)
                    used.update(mine)
        except InputError as exc:
            blank[text] = str(exc)
            continue
        specs.append(spec)
    return specs, blank


def _score(judgments, specs, blank: dict[str, str], progress: bool, cache: bool):
    """One :class:`~sumeval.metrics.judgment_scores.MeasureScores` of the specs that score (their scorer
    objects dropped); a measure with no number on any row becomes a blank with the reason."""
    from sumeval.metrics.judgment_scores import MeasureScores, score_judgments

    parts = []
    for spec in specs:
        try:
            parts.append(score_judgments(judgments, [spec], progress=progress, cache=cache))
        except InputError as exc:
            blank[spec.spec] = str(exc)
    if not parts:
        return None
    return MeasureScores(frame=pd.concat([p.frame for p in parts], axis=1),
                         signatures={k: v for p in parts for k, v in p.signatures.items()},
                         not_scored=[r for p in parts for r in p.not_scored],
                         specs=[replace(s, scorer=None) for p in parts for s in p.specs],
                         from_cache={k: v for p in parts for k, v in p.from_cache.items()})


def _is_pairwise(judgments) -> bool:
    """Two summaries per document and the system and global levels refused: a pairwise set."""
    per_doc = judgments.frame.groupby("doc_id", sort=False).size()
    return "system" in judgments.limits and "global" in judgments.limits and bool((per_doc == 2).all())


def prepare_set(name: str, texts: Sequence[str], settings, humans: Sequence[str] | None, default_humans: Sequence[str],
                options: Mapping[str, Any], used: set[str], *, own_columns: bool, n_docs: int | None,
                progress: bool, cache: bool, module_path: Sequence[str] = (), classes: Sequence[str] = ()) -> Prepared:
    """Load, resolve and score one set; its units are its human columns with the levels each allows.
    ``texts`` are measure specs, ``classes`` ``module:Class`` paths (``--measure-class``), kept apart."""
    from sumeval.datasets.judgments import load_judgments
    from sumeval.datasets.judgments_model import check_level

    t0 = time.perf_counter()
    chosen = tuple(humans or default_humans)
    judgments = load_judgments(name, human=list(chosen) or None)
    chosen = chosen or tuple(judgments.humans)
    if n_docs:
        judgments = judgments.first_documents(min(int(n_docs), len(judgments.documents)))
    wanted = list(dict.fromkeys([*texts, *(judgments.default_measures if own_columns else ())]))
    specs, blank = _resolve(wanted, judgments, options, used, module_path, list(dict.fromkeys(classes)))
    out = SetOutcome(name=name, status="skipped", humans=chosen, blank=blank)
    for h in chosen:
        for lv in settings.levels:
            try:
                check_level(judgments, lv, h)
                out.tasks[(h, lv)] = None
            except InputError as exc:
                out.tasks[(h, lv)] = str(exc)
            # --partial-control length on a set without summary texts: that task is not run, the others are
            if lv == "partial" and settings.partial_control == "length" and out.tasks[(h, lv)] is None \
                    and ("summary" not in judgments.frame.columns or "summary" in judgments.limits):
                out.tasks[(h, lv)] = (f"--partial-control length needs the summaries' texts, and {name} has none"
                                      f" ({judgments.limits.get('summary', 'no summary column')})")
    scores = _score(judgments, specs, blank, progress, cache) if specs else None
    out.timings["scoring_s"] = time.perf_counter() - t0
    if scores is None:
        out.reason = f"no measure can run on {name}"
        return Prepared(out)
    out.labels = [s.label for s in scores.specs]
    units = [(h, tuple(lv for lv in settings.levels if out.tasks[(h, lv)] is None)) for h in chosen]
    units = [(h, levels) for h, levels in units if levels]
    if not units:
        out.reason = f"no level of {', '.join(settings.levels)} applies to {name}: " + next(iter(out.tasks.values()))
    return Prepared(out, judgments, scores, units)


def _unit(judgments, scores, settings):
    """One unit's :func:`~sumeval.meta_eval.meta_evaluate` (a module function: it runs in workers)."""
    from sumeval import meta_eval

    return meta_eval.meta_evaluate(judgments, scores.specs, settings, scores=scores)


def _cost(p: Prepared, levels: Sequence[str]) -> float:
    n = len(p.outcome.labels)
    return n * (n - 1) / 2 * len(p.judgments.frame) * len(levels)


def run_units(prepared: Sequence[Prepared], settings, *, jobs: int = 1, progress: bool = False) -> list[list]:
    """Every unit's MetaEvaluation, per set (``[[part, ...], ...]`` in the order of ``prepared``);
    with ``jobs > 1`` on that many processes, the costliest units first."""
    work = [(i, settings.for_set((h,), levels)) for i, p in enumerate(prepared) for h, levels in p.units]
    work.sort(key=lambda w: -_cost(prepared[w[0]], w[1].levels))
    if jobs <= 1 or len(work) <= 1:
        results = [_unit(prepared[i].judgments, prepared[i].scores, s) for i, s in work]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            results = list(pool.map(_unit, [prepared[i].judgments for i, _ in work],
                                    [prepared[i].scores for i, _ in work], [s for _, s in work]))
    out: list[list] = [[] for _ in prepared]
    for (i, _), r in sorted(zip(work, results), key=lambda x: (x[0][0], prepared[x[0][0]].outcome.humans.index(
            x[0][1].humans[0]))):
        out[i].append(r)
    return out


def _merge(parts: list, settings):
    """One MetaEvaluation of several over the same scores (one per human column)."""
    first = parts[0]
    if len(parts) == 1:
        return replace(first, settings=settings)

    def cat(name: str) -> pd.DataFrame:
        frames = [getattr(p, name) for p in parts if len(getattr(p, name))]
        return pd.concat(frames, ignore_index=True) if frames else getattr(first, name)

    timings = {k: sum(p.timings.get(k, 0.0) for p in parts) for k in first.timings}
    dataset = dict(first.dataset, humans=list(settings.humans))
    # close_pairs: each unit's frames (the measures' rank intervals, the same in every unit, once)
    pairs = {k: pd.concat([p.system_pairs[k] for p in parts if k in p.system_pairs], ignore_index=True)
             for k in dict.fromkeys(k for p in parts for k in p.system_pairs)}
    if "rank_intervals" in pairs:
        pairs["rank_intervals"] = pairs["rank_intervals"].drop_duplicates(["column", "system"], ignore_index=True)
    return replace(first, settings=settings, dataset=dataset, correlations=cat("correlations"),
                   pairwise=cat("pairwise"), ranking=cat("ranking"), pairwise_accuracy=cat("pairwise_accuracy"),
                   detection=cat("detection"), timings=timings, system_pairs=pairs,
                   notes=list(dict.fromkeys(n for p in parts for n in p.notes)))


def finish_set(p: Prepared, parts: list, settings) -> SetOutcome:
    """Merge a set's units into one MetaEvaluation; a pairwise set gets its ranking accuracy."""
    from sumeval import stats
    from sumeval.stats import pair_ranking

    out = p.outcome
    if not parts:
        return out
    t0 = time.perf_counter()
    levels = tuple(lv for lv in settings.levels if any(lv in lvs for _, lvs in p.units))
    out.result = _merge(parts, settings.for_set(tuple(h for h, _ in p.units), levels))
    if _is_pairwise(p.judgments):
        frame = pd.concat([p.judgments.frame[["doc_id", "system", *out.humans]].reset_index(drop=True),
                           p.scores.frame[out.labels].reset_index(drop=True)], axis=1)
        acc, tests, ranks = [], [], []
        for h, _ in p.units:
            acc.append(pair_ranking.ranking_accuracy(frame, out.labels, h, ties=settings.ties,
                                                     n_resamples=settings.n_resamples, seed=settings.seed,
                                                     ci=settings.ci))
            if len(out.labels) > 1:
                tests.append(pair_ranking.compare_ranking_accuracy(frame, out.labels, h, ties=settings.ties,
                                                                   n_resamples=settings.n_resamples, seed=settings.seed,
                                                                   correction=settings.correction))
                ranks.append(stats.significance_clusters(tests[-1], alpha=settings.alpha))
            else:
                ranks.append(pd.DataFrame({"human": h, "level": "input", "coefficient": "accuracy",
                                           "measure": out.labels, "value": acc[-1]["accuracy"], "rank": 1,
                                           "cluster": 1}))
        out.accuracy = pd.concat(acc, ignore_index=True)
        out.accuracy_tests = pd.concat(tests, ignore_index=True) if tests else pd.DataFrame()
        out.accuracy_ranking = pd.concat(ranks, ignore_index=True)
        for key, why in out.tasks.items():
            if key[1] != "input" and why is None:
                out.tasks[key] = f"{out.name} is a pairwise set: judged by ranking accuracy at the input level"
    out.status = "ok"
    out.timings.update({k: v for k, v in out.result.timings.items() if k not in ("scoring_s", "total_s")})
    out.timings["accuracy_s"] = time.perf_counter() - t0
    out.timings["total_s"] = sum(v for k, v in out.timings.items() if k != "total_s")
    return out
