"""Where a judge's answers come from.

- :class:`OpenAIBackend`: any OpenAI-compatible server (vLLM, llama.cpp's ``llama-server``,
  Ollama, ``transformers serve``, a hosted API) through the official ``openai`` SDK: its retries
  (with back-off, on 408, 409, 429, 5xx and lost connections) and timeouts; the key is read from
  an environment variable. Its errors become one-line messages (:class:`JudgeServerError`).
- :class:`TransformersBackend`: a local model folder or GGUF file in process (offline work);
  ``logprobs`` reads the whole next-token distribution, so no top-k cut.

A call takes the chat messages and the generation parameters and returns a JSON-able answer:
``text``, ``top_logprobs`` (the first answer token's ``[[token, logprob], ...]``, when asked
for), ``label_probs`` (in process only: ``{label: p}`` over the whole vocabulary), ``model``
(the id the server reports), ``prompt_tokens``, ``completion_tokens``, ``finish_reason``.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Sequence

from sumeval.errors import InputError, SumevalError

__all__ = ["JudgeServerError", "OpenAIBackend", "TransformersBackend"]


class JudgeServerError(SumevalError):
    """The judge's server could not answer (unreachable, refused the key, timed out, refused the request)."""


class OpenAIBackend:
    """An OpenAI-compatible chat-completions endpoint."""

    kind = "openai"

    def __init__(self, base_url: str, model: str, *, api_key_env: str = "OPENAI_API_KEY", timeout: float = 60.0,
                 max_retries: int = 2):
        import openai

        self.base_url, self.model, self.api_key_env = base_url, model, api_key_env
        self.timeout, self.max_retries = timeout, max_retries
        key = os.environ.get(api_key_env)
        self.has_key = bool(key)
        # a local server needs no key, but the SDK wants one: a placeholder, never a real credential
        self.client = openai.OpenAI(base_url=base_url, api_key=key or "no-key", timeout=timeout,
                                    max_retries=max_retries)

    @property
    def endpoint(self) -> str:
        return self.base_url.rstrip("/")

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "base_url": self.endpoint, "model": self.model, "api_key_env": self.api_key_env,
                "api_key_set": self.has_key, "timeout_s": self.timeout, "max_retries": self.max_retries}

    def call(self, messages: list[dict[str, str]], params: dict[str, Any]) -> dict[str, Any]:
        import openai

        try:
            resp = self.client.chat.completions.create(model=self.model, messages=messages, **params)
        except openai.AuthenticationError as exc:
            raise JudgeServerError(
                f"the server at {self.endpoint} refused the API key ({exc.status_code}: {_short(exc)}); "
                + (f"set ${self.api_key_env} to a valid key" if self.has_key else
                   f"${self.api_key_env} is not set: export it (or name another variable with --api-key-env)")
            ) from None
        except openai.PermissionDeniedError as exc:
            raise JudgeServerError(f"the server at {self.endpoint} denied access to model {self.model!r} "
                                   f"({exc.status_code}: {_short(exc)}); check the key's permissions") from None
        except openai.NotFoundError as exc:
            raise JudgeServerError(f"the server at {self.endpoint} has no model {self.model!r} or no "
                                   f"/chat/completions ({exc.status_code}: {_short(exc)}); check --model (the "
                                   f"server lists its models at {self.endpoint}/models) and --base-url (it "
                                   "usually ends in /v1)") from None
        except openai.RateLimitError as exc:
            raise JudgeServerError(f"the server at {self.endpoint} still refused with 429 (rate limit) after "
                                   f"{self.max_retries} retries with back-off ({_short(exc)}); lower --concurrency "
                                   "(now the server's limit is shared by fewer requests), raise --max-retries, or "
                                   "wait for the limit to reset") from None
        except openai.InternalServerError as exc:
            raise JudgeServerError(f"the server at {self.endpoint} failed with {exc.status_code} (a server error) "
                                   f"after {self.max_retries} retries with back-off ({_short(exc)}); its own log says "
                                   "why (overloaded, out of memory, crashed): fix or restart it, or raise "
                                   "--max-retries") from None
        except openai.BadRequestError as exc:
            hint = ("; it may not return logprobs (transformers serve does not): use --scoring text or "
                    "samples:N, or score in process with --model FOLDER|FILE.gguf") if params.get("logprobs") else ""
            raise JudgeServerError(f"the server at {self.endpoint} refused the request ({exc.status_code}: "
                                   f"{_short(exc)}){hint}") from None
        except openai.APITimeoutError:
            raise JudgeServerError(f"the server at {self.endpoint} gave no answer within --timeout {self.timeout:g} s "
                                   f"(tried {self.max_retries + 1} times); "
                                   "raise --timeout or check the server") from None
        except openai.APIConnectionError as exc:
            raise JudgeServerError(f"cannot reach the server at {self.endpoint} ({_short(exc.__cause__ or exc)}; "
                                   f"tried {self.max_retries + 1} times); is it running, and is --base-url right "
                                   "(e.g. http://127.0.0.1:8000/v1)?") from None
        except openai.APIStatusError as exc:
            raise JudgeServerError(f"the server at {self.endpoint} answered {exc.status_code}: {_short(exc)}") from None
        if not resp.choices:
            raise JudgeServerError(f"the server at {self.endpoint} returned no choices for model {self.model!r}")
        choice = resp.choices[0]
        top = None
        if params.get("logprobs"):
            content = getattr(choice.logprobs, "content", None) if choice.logprobs else None
            if not content:
                raise JudgeServerError(f"the server at {self.endpoint} returned no logprobs for model {self.model!r}; "
                                       "use --scoring text or samples:N, or score in process (--model FOLDER)")
            first = content[0]
            top = [[t.token, t.logprob] for t in (first.top_logprobs or [])] or [[first.token, first.logprob]]
        usage = resp.usage
        return {"text": choice.message.content or "", "top_logprobs": top, "model": resp.model,
                "prompt_tokens": getattr(usage, "prompt_tokens", None),
                "completion_tokens": getattr(usage, "completion_tokens", None),
                "finish_reason": choice.finish_reason}


def _short(exc: BaseException, width: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= width else text[:width] + "..."


class TransformersBackend:
    """A local causal LM (a model folder, or a ``.gguf`` file read by transformers with ``gguf``), in process."""

    kind = "transformers"

    def __init__(self, path: str, labels: Sequence[int] = ()):
        p = Path(path).expanduser()
        if not p.exists():
            raise InputError(f"--model {path!r}: no such folder or file, and no --base-url was given (a server's "
                             "model name needs --base-url URL); give a local model folder or a .gguf file")
        self.path = p.resolve()
        self._lock = threading.Lock()
        self._model = self._tokenizer = None
        self._label_ids: dict[tuple[int, ...], dict[int, list[int]]] = {}

    @property
    def model(self) -> str:
        return self.path.name

    @property
    def endpoint(self) -> str:
        """The model's identity in cache keys: its path and the sizes of its files (not hashed:
        hundreds of MB)."""
        files = [self.path] if self.path.is_file() else sorted(q for q in self.path.iterdir() if q.is_file())
        return f"transformers:{self.path}:" + ",".join(f"{q.name}={q.stat().st_size}" for q in files)

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": str(self.path), "model": self.model}

    def _load(self):
        if self._model is None:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer

            kw: dict[str, Any] = {}
            folder = self.path
            if self.path.is_file():
                if self.path.suffix != ".gguf":
                    raise InputError(f"--model {self.path}: a file must be a .gguf model; otherwise give a folder")
                kw["gguf_file"], folder = self.path.name, self.path.parent
            try:
                self._tokenizer = AutoTokenizer.from_pretrained(folder, **kw)
                self._model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, **kw).eval()
            except (OSError, ValueError) as exc:
                raise InputError(f"--model {self.path}: transformers cannot load it as a causal LM "
                                 f"({_short(exc)})") from None
        return self._model, self._tokenizer

    def _prompt_ids(self, messages: list[dict[str, str]]):
        import torch

        _, tok = self._load()
        if tok.chat_template:
            text = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
            ids = tok(text, add_special_tokens=False)["input_ids"]
        else:
            ids = tok("\n\n".join(m["content"] for m in messages))["input_ids"]
        return torch.tensor([ids])

    def label_ids(self, labels: Sequence[int]) -> dict[int, list[int]]:
        """``{label: [token ids that decode to it once stripped]}`` over the whole vocabulary."""
        key = tuple(labels)
        if key not in self._label_ids:
            _, tok = self._load()
            want = {str(k): k for k in labels}
            found: dict[int, list[int]] = {k: [] for k in labels}
            for i in range(len(tok)):
                k = want.get(tok.decode([i]).strip())
                if k is not None:
                    found[k].append(i)
            self._label_ids[key] = found
        return self._label_ids[key]

    def call(self, messages: list[dict[str, str]], params: dict[str, Any],
             labels: Sequence[int] = ()) -> dict[str, Any]:
        import torch

        with self._lock, torch.inference_mode():
            model, tok = self._load()
            ids = self._prompt_ids(messages)
            if params.get("logprobs"):
                logits = model(input_ids=ids).logits[0, -1].float()
                logp = torch.log_softmax(logits, dim=-1)
                top = torch.topk(logp, int(params.get("top_logprobs") or 20))
                probs = logp.exp()
                label_probs = {str(k): float(probs[v].sum()) if v else 0.0 for k, v in self.label_ids(labels).items()}
                return {"text": tok.decode([int(top.indices[0])]), "label_probs": label_probs,
                        "top_logprobs": [[tok.decode([int(i)]), float(v)] for v, i in zip(top.values, top.indices)],
                        "model": self.model, "prompt_tokens": int(ids.shape[1]), "completion_tokens": 0,
                        "finish_reason": "logprobs"}
            temperature = float(params.get("temperature") or 0.0)
            gen: dict[str, Any] = {"max_new_tokens": int(params.get("max_tokens") or 5),
                                   "pad_token_id": (tok.pad_token_id if tok.pad_token_id is not None
                                                    else tok.eos_token_id)}
            if temperature > 0:
                gen.update(do_sample=True, temperature=temperature, top_p=float(params.get("top_p") or 1.0))
                torch.manual_seed(int(params.get("seed") or 0))
            else:
                gen.update(do_sample=False, temperature=None, top_p=None, top_k=None)
            out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), **gen)[0, ids.shape[1]:]
            return {"text": tok.decode(out, skip_special_tokens=True), "top_logprobs": None, "model": self.model,
                    "prompt_tokens": int(ids.shape[1]), "completion_tokens": int(out.shape[0]),
                    "finish_reason": "length" if int(out.shape[0]) >= gen["max_new_tokens"] else "stop"}
