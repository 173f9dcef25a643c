"""Informalizers: turn formal statements back into English (back-translation).

One small interface, ``Informalizer.informalize(statements) -> list[str]``, with
implementations for texts the user already has (:class:`GivenInformalizer`) and for an
OpenAI-compatible chat-completions endpoint (:class:`OpenAIInformalizer`).  The rule-based
one that reads the IR lives in ``embeddings.rule_informalizer``.

The HTTP client reads its key from the environment (or an argument) and keeps it out of
reprs, log messages, exception messages, returned texts and pickles. A key given as an
argument reaches local worker processes through :func:`worker_keys` /
:func:`install_worker_keys` (the batch runner does this); anywhere else it is missing, and
the informalizer says so loudly (:class:`InformalizerConfigError`) instead of sending
requests without it. Each request has a total deadline (``timeout``), not a per-read one.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # httpx loads with the first OpenAIInformalizer client, not with the package
    import httpx

__all__ = [
    "DEFAULT_SYSTEM_PROMPT",
    "DEFAULT_USER_PROMPT",
    "GivenInformalizer",
    "InformalizationError",
    "InformalizerConfigError",
    "Informalizer",
    "OpenAIInformalizer",
    "install_worker_keys",
    "worker_keys",
]

log = logging.getLogger(__name__)

REDACTED = "***"

DEFAULT_SYSTEM_PROMPT = (
    "You translate formal mathematical statements (Lean 4 with Mathlib, or Isabelle/HOL) "
    "into natural language for mathematicians."
)
DEFAULT_USER_PROMPT = (
    "Translate the following formal theorem statement into ONE natural-language sentence "
    "that states exactly the same mathematical claim: keep every hypothesis, quantifier "
    "and the conclusion, and do not prove or explain it. Reply with the sentence only.\n\n"
    "{statement}"
)


class InformalizationError(RuntimeError):
    """An informalizer could not produce a back-translation."""


class InformalizerConfigError(InformalizationError):
    """The informalizer cannot work at all (its API key is missing here, or the server
    rejects it): callers let this one through, so a batch reports an error per record
    instead of quietly scoring without back-translations."""


class Informalizer(ABC):
    """Turns formal statements into natural-language sentences, one per statement."""

    @abstractmethod
    def informalize(self, statements: Sequence[Any]) -> list[str]:
        """One English sentence per statement, in order."""

    def __call__(self, statements: Sequence[Any]) -> list[str]:
        return self.informalize(statements)


def _statement_text(statement: Any) -> str:
    """The formal text of a statement: a string, or a parsed ``Statement``'s source."""
    if isinstance(statement, str):
        return statement
    for attr in ("text", "source"):
        text = getattr(statement, attr, None)
        if isinstance(text, str) and text.strip():
            return text
    from provers.ir import Statement, show_statement  # lazy: keeps `import embeddings` light

    if isinstance(statement, Statement):  # without its source text: the IR's neutral rendering
        return show_statement(statement)
    return str(statement)


class GivenInformalizer(Informalizer):
    """Back-translations the user already has (e.g. from their own LLM calls).

    ``texts`` is either a sequence aligned with the statements that will be passed to
    :meth:`informalize`, or a mapping from statement text to its back-translation.
    """

    def __init__(self, texts: Sequence[str] | Mapping[str, str]) -> None:
        if isinstance(texts, str):
            raise TypeError("texts must be a sequence or mapping of strings, not one string")
        self._mapping = dict(texts) if isinstance(texts, Mapping) else None
        self._texts = None if self._mapping is not None else list(texts)
        values = self._mapping.values() if self._mapping is not None else self._texts
        for t in values:
            if not isinstance(t, str):
                raise TypeError(f"back-translations must be strings, got {type(t).__name__}")

    def __repr__(self) -> str:
        n = len(self._mapping) if self._mapping is not None else len(self._texts or [])
        kind = "mapping" if self._mapping is not None else "sequence"
        return f"GivenInformalizer({kind} of {n} texts)"

    def informalize(self, statements: Sequence[Any]) -> list[str]:
        if self._mapping is not None:
            out = []
            for s in statements:
                key = _statement_text(s)
                if key not in self._mapping:
                    raise InformalizationError(
                        f"no back-translation given for statement {key[:80]!r}"
                    )
                out.append(self._mapping[key])
            return out
        assert self._texts is not None
        if len(statements) != len(self._texts):
            raise InformalizationError(
                f"{len(self._texts)} back-translations given for {len(statements)} statements"
            )
        return list(self._texts)


class _Secret:
    """Holds a credential; its repr and str never show it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "_Secret('***')"

    __str__ = __repr__

    def __reduce__(self):  # never serialize the value
        raise TypeError("secrets are not picklable")


def _env(name: str) -> str | None:
    value = os.environ.get(name)
    return value if value else None


#: Keys given as ``api_key=`` in this process, by a random id that pickles carry instead.
_KEYRING: dict[str, _Secret] = {}


def worker_keys(*objects: Any) -> dict[str, str]:
    """The explicit API keys of the :class:`OpenAIInformalizer` among ``objects`` (by id),
    to hand to local worker processes with :func:`install_worker_keys`."""
    return {o._key_id: o._key.get() for o in objects
            if isinstance(o, OpenAIInformalizer) and o._key_id and o._key is not None}


def install_worker_keys(keys: dict[str, str]) -> None:
    """In a worker process: make the keys of :func:`worker_keys` available to informalizers
    unpickled here."""
    for key_id, value in keys.items():
        _KEYRING[key_id] = _Secret(value)


class OpenAIInformalizer(Informalizer):
    """Back-translation through an OpenAI-compatible ``/chat/completions`` endpoint.

    Configuration comes from the arguments, else the environment: ``OPENAI_BASE_URL``
    (default ``https://api.openai.com/v1``), ``OPENAI_API_KEY`` (optional: local servers
    often need none) and ``OPENAI_MODEL`` (required one way or the other).

    Each statement is one request with ``temperature=0``; ``timeout`` bounds each request as
    a whole (connect, send, every byte of the answer).  Timeouts, transport errors and
    HTTP 408/409/429/5xx are retried up to ``max_retries`` times, waiting
    ``backoff * 2**attempt`` seconds (capped at ``max_backoff``; a ``Retry-After`` header
    in seconds is honoured up to that cap).  At most ``max_workers`` requests run at once.
    ``on_error="raise"`` raises :class:`InformalizationError` for the first statement that
    still fails; ``"empty"`` returns ``""`` for it (callers score that as no evidence).
    """

    RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 3,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        max_workers: int = 4,
        temperature: float = 0.0,
        max_tokens: int = 256,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        user_prompt: str = DEFAULT_USER_PROMPT,
        on_error: str = "raise",
    ) -> None:
        self.model = model or _env("OPENAI_MODEL")
        if not self.model:
            raise ValueError("no model: pass model= or set OPENAI_MODEL")
        self.base_url = (base_url or _env("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip(
            "/"
        )
        key = api_key if api_key is not None else _env("OPENAI_API_KEY")
        self._key = _Secret(key) if key else None
        self._key_from_env = api_key is None
        self._key_id = "" if api_key is None or not api_key else secrets.token_hex(8)
        if self._key_id:
            _KEYRING[self._key_id] = self._key  # type: ignore[assignment]
        self._key_missing = False  # set in a process the explicit key did not reach
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
            raise ValueError(f"timeout must be a finite number of seconds > 0, got {timeout!r}")
        if not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be a non-negative integer, got {max_retries!r}")
        if backoff < 0 or max_backoff < 0:
            raise ValueError("backoff and max_backoff must be >= 0")
        if not isinstance(max_workers, int) or max_workers < 1:
            raise ValueError(f"max_workers must be a positive integer, got {max_workers!r}")
        if on_error not in ("raise", "empty"):
            raise ValueError(f"on_error must be 'raise' or 'empty', got {on_error!r}")
        if "{statement}" not in user_prompt:
            raise ValueError("user_prompt must contain the '{statement}' placeholder")
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.max_workers = max_workers
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.system_prompt = system_prompt
        self.user_prompt = user_prompt
        self.on_error = on_error
        self.n_requests = 0  # HTTP attempts made, retries included
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()

    # -- secrecy -----------------------------------------------------------------------

    @property
    def has_api_key(self) -> bool:
        """Whether a key is configured (the key itself is never exposed)."""
        return self._key is not None

    def _redact(self, text: str) -> str:
        if self._key is not None and text:
            text = text.replace(self._key.get(), REDACTED)
        return text

    def __repr__(self) -> str:
        key = REDACTED if self._key else None
        return (
            f"OpenAIInformalizer(model={self.model!r}, base_url={self._redact(self.base_url)!r}, "
            f"api_key={key!r}, max_workers={self.max_workers}, max_retries={self.max_retries})"
        )

    def __getstate__(self) -> dict:
        # Worker processes get the configuration without the key or the HTTP client; a
        # key that came from OPENAI_API_KEY is read again from their environment, one given
        # as api_key= is looked up by its id among the keys the worker was given.
        state = dict(self.__dict__)
        state["_key"] = None
        state["_client"] = None
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()
        if self._key_from_env:
            key = _env("OPENAI_API_KEY")
            self._key = _Secret(key) if key else None
        elif self._key_id:
            self._key = _KEYRING.get(self._key_id)
            self._key_missing = self._key is None

    # -- HTTP --------------------------------------------------------------------------

    def _get_client(self) -> httpx.Client:
        with self._lock:
            return self._make_client()

    def _make_client(self) -> httpx.Client:
        import httpx

        from embeddings import http_deadline

        if self._client is None:
            headers = {"Content-Type": "application/json"}
            if self._key is not None:
                headers["Authorization"] = f"Bearer {self._key.get()}"
            self._client = httpx.Client(
                base_url=self.base_url,
                headers=headers,
                timeout=httpx.Timeout(self.timeout),
                limits=httpx.Limits(max_connections=self.max_workers),
            )
            if not http_deadline.install(self._client):
                log.warning("httpx internals changed: only per-read timeouts apply to requests")
        return self._client

    def close(self) -> None:
        """Close the HTTP connection pool."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> OpenAIInformalizer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _payload(self, statement: str) -> dict:
        return {
            "model": self.model,
            "messages": [
                {"role": "system", "content": self.system_prompt},
                {"role": "user", "content": self.user_prompt.format(statement=statement)},
            ],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        delay = self.backoff * (2**attempt)
        if retry_after:
            try:
                delay = max(delay, float(retry_after))
            except ValueError:
                pass
        return min(delay, self.max_backoff)

    @staticmethod
    def _content(body: Any) -> str:
        try:
            content = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise InformalizationError(
                "malformed chat-completions response (no choices[0].message.content)"
            ) from None
        if not isinstance(content, str):
            raise InformalizationError("chat-completions content is not a string")
        return _clean_sentence(content)

    def informalize_one(self, statement: Any) -> str:
        """Back-translate one statement (with retries); raises :class:`InformalizationError`
        (:class:`InformalizerConfigError` when the key is missing here or rejected)."""
        if self._key_missing:
            raise InformalizerConfigError(
                "the API key given as api_key= did not reach this process (keys are never "
                "pickled): set OPENAI_API_KEY where the workers run, or run with one worker"
            )
        import httpx

        from embeddings import http_deadline

        text = _statement_text(statement)
        client = self._get_client()
        payload = self._payload(text)
        last = "no attempt made"
        for attempt in range(self.max_retries + 1):
            with self._lock:
                self.n_requests += 1
            retry_after = None
            try:
                with http_deadline.deadline(self.timeout):
                    response = client.post("/chat/completions", json=payload)
            except httpx.TimeoutException as exc:
                last = f"timeout after {self.timeout:g}s ({type(exc).__name__})"
            except httpx.TransportError as exc:
                last = f"transport error: {type(exc).__name__}: {self._redact(str(exc))}"
            else:
                status = response.status_code
                if status == 200:
                    try:
                        body = response.json()
                    except (json.JSONDecodeError, ValueError):
                        raise InformalizationError("response is not JSON") from None
                    return self._redact(self._content(body))
                snippet = self._redact(response.text)[:200]  # redact first: a cut key would leak its start
                last = f"HTTP {status}: {snippet}"
                if status in (401, 403):
                    raise InformalizerConfigError(f"informalization request rejected: {last}")
                if status not in self.RETRY_STATUS:
                    raise InformalizationError(f"informalization request failed: {last}")
                retry_after = response.headers.get("Retry-After")
            if attempt < self.max_retries:
                delay = self._wait(attempt, retry_after)
                log.warning(
                    "informalization attempt %d/%d failed (%s); retrying in %.2fs",
                    attempt + 1,
                    self.max_retries + 1,
                    last,
                    delay,
                )
                time.sleep(delay)
        raise InformalizationError(
            f"informalization failed after {self.max_retries + 1} attempts: {last}"
        )

    def informalize(self, statements: Sequence[Any]) -> list[str]:
        items = list(statements)
        if not items:
            return []

        def run(s: Any) -> str:
            try:
                return self.informalize_one(s)
            except InformalizerConfigError:
                raise  # no statement can succeed: never turn this into empty texts
            except InformalizationError as exc:
                if self.on_error == "raise":
                    raise
                log.warning("informalization failed, using empty text: %s", exc)
                return ""

        if self.max_workers == 1 or len(items) == 1:
            return [run(s) for s in items]
        with ThreadPoolExecutor(max_workers=min(self.max_workers, len(items))) as pool:
            return list(pool.map(run, items))


def _clean_sentence(content: str) -> str:
    """Strip whitespace, code fences and wrapping quotes an LLM may add."""
    text = content.strip()
    if text.startswith("```"):
        lines = [ln for ln in text.splitlines() if not ln.strip().startswith("```")]
        text = "\n".join(lines).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return " ".join(text.split())
