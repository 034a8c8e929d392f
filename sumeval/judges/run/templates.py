"""Judge prompts: G-Eval's SummEval prompts (data files) and users' Jinja templates.

G-Eval (Liu et al., EMNLP 2023) has one prompt per SummEval quality, kept as data under
``prompts/geval/`` (nlpyang/geval 6f84404c ``prompts/summeval/``, MIT; see the data manifest).
They are filled by plain string replacement as G-Eval's ``gpt4_eval.py`` does
(``prompt.replace('{{Document}}', source).replace('{{Summary}}', summary)``), not by Jinja, and read
in text mode (CRLF becomes LF, as there). Their scales: coherence, consistency and relevance 1-5,
**fluency 1-3** (SummEval's experts rated fluency 1-5).

A user's template is a Jinja file rendered with the record's fields (``doc_id``, ``system``,
``summary``, ``text``, ``references``, and any other column of the data), ``quality`` and
``labels``; an undefined name is an error naming it and the fields there are.

The filled prompt is one chat message (role ``user`` by default; G-Eval sent it as ``system``);
the model's own chat template (the server's, or the tokenizer's in process) makes the prompt.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from sumeval.errors import InputError

__all__ = ["GEVAL_FILES", "GEVAL_LABELS", "Template", "geval_template", "jinja_template", "parse_labels"]

#: G-Eval's prompt file for each SummEval quality, under ``prompts/geval/`` of the data folder
GEVAL_FILES = {"coherence": "coh_detailed.txt", "consistency": "con_detailed.txt",
               "fluency": "flu_detailed.txt", "relevance": "rel_detailed.txt"}
#: the labels each G-Eval prompt asks for ("Fluency (1-3)"; the others 1-5)
GEVAL_LABELS = {"coherence": (1, 2, 3, 4, 5), "consistency": (1, 2, 3, 4, 5), "fluency": (1, 2, 3),
                "relevance": (1, 2, 3, 4, 5)}
ROLES = ("user", "system")


@dataclass(frozen=True)
class Template:
    """One quality's prompt.

    Attributes: ``quality`` (the human column it judges), ``kind`` (``geval`` or ``jinja``),
    ``text`` (as read), ``source`` (its file), ``labels`` (the allowed answers, integers),
    ``role`` (of the one chat message).
    """

    quality: str
    kind: str
    text: str
    source: str
    labels: tuple[int, ...]
    role: str = "user"

    @property
    def form_field(self) -> str | None:
        """The field of the form the prompt ends with, which the answer fills in: its last non-empty
        line ``- <field>:`` (G-Eval's ``- Coherence:``, ``- Fluency (1-3):``); None when it ends
        otherwise. An answer that repeats it before the label is read (:mod:`~sumeval.judges.run.scoring`)."""
        lines = [ln for ln in self.text.splitlines() if ln.strip()]
        m = re.fullmatch(r"\s*-\s*([A-Za-z][^:{}]*?)\s*:\s*", lines[-1]) if lines else None
        return m.group(1) if m else None

    @property
    def sha256(self) -> str:
        """The template's hash: its kind and text (what decides the prompt besides the record)."""
        return hashlib.sha256(f"{self.kind}\n{self.text}".encode("utf-8")).hexdigest()

    def render(self, record: Mapping[str, Any]) -> str:
        """The filled prompt for ``record`` (a row of the data: its fields by name)."""
        where = f"record (doc_id {record.get('doc_id')!r}, system {record.get('system')!r})"
        if self.kind == "geval":
            out = self.text
            for slot, field in (("{{Document}}", "text"), ("{{Summary}}", "summary")):
                if slot in out:
                    value = record.get(field)
                    if not isinstance(value, str):
                        raise InputError(f"G-Eval's {self.quality} prompt ({self.source}) needs the {field!r} "
                                         f"field for {slot}, which {where} lacks; give data with a {field!r} column "
                                         f"(--{field}-col COL for a file)")
                    out = out.replace(slot, value)
            return out
        import jinja2

        env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)
        try:
            return env.from_string(self.text).render(**dict(record), quality=self.quality, labels=list(self.labels))
        except jinja2.UndefinedError as exc:
            raise InputError(f"template {self.source}: {exc} in {where}; its fields are "
                             f"{', '.join(sorted(map(str, record)))}, plus quality and labels") from None

    def messages(self, record: Mapping[str, Any]) -> list[dict[str, str]]:
        """The chat messages sent for ``record``."""
        return [{"role": self.role, "content": self.render(record)}]

    def describe(self) -> dict[str, Any]:
        """What the manifest records of the template."""
        return {"kind": self.kind, "source": self.source, "sha256": self.sha256, "labels": list(self.labels),
                "role": self.role, "form_field": self.form_field}


def parse_labels(text: str) -> tuple[int, ...]:
    """``"1-5"`` -> ``(1, 2, 3, 4, 5)``; ``"1,2,3"`` -> ``(1, 2, 3)`` (integers, increasing, at least 2)."""
    try:
        if "-" in text.strip()[1:]:
            lo, hi = text.split("-", 1)
            labels = tuple(range(int(lo), int(hi) + 1))
        else:
            labels = tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        labels = ()
    if len(labels) < 2 or list(labels) != sorted(set(labels)):
        raise InputError(f"--labels {text!r}: give the allowed integer answers as a range 'LO-HI' (e.g. 1-5) or "
                         "a list '1,2,3' of at least two increasing integers")
    return labels


def geval_template(quality: str, role: str = "user") -> Template:
    """G-Eval's prompt for SummEval quality ``quality``, read from the data folder."""
    from sumeval.datasets.registry import locate

    if quality not in GEVAL_FILES:
        raise InputError(f"--template geval has prompts for {', '.join(GEVAL_FILES)} (SummEval's qualities), not "
                         f"{quality!r}; give your own Jinja template file (--template FILE.jinja)")
    path = locate(f"prompts/geval/{GEVAL_FILES[quality]}")
    text = path.read_text(encoding="utf-8")  # text mode: CRLF -> LF, as G-Eval's gpt4_eval.py reads them
    return Template(quality=quality, kind="geval", text=text, source=str(path), labels=GEVAL_LABELS[quality],
                    role=role)


def jinja_template(path: str, quality: str, labels: Sequence[int], role: str = "user") -> Template:
    """A user's Jinja template file, for ``quality``."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"--template {path!r}: no such file; give 'geval' or a Jinja template file "
                         "(fields: doc_id, system, summary, text, references, quality, labels)")
    import jinja2

    text = p.read_text(encoding="utf-8")
    try:
        jinja2.Environment().parse(text)
    except jinja2.TemplateSyntaxError as exc:
        raise InputError(f"--template {path}: line {exc.lineno}: {exc.message}") from None
    return Template(quality=quality, kind="jinja", text=text, source=str(p.resolve()), labels=tuple(labels),
                    role=role)
