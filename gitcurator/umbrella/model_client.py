"""The one door to a language model: an OpenAI-compatible chat endpoint, JSON-constrained replies.

This is the only module that imports openai, and it does so when a ChatClient is made, not at
import time: `import openai` costs most of a second, and passes without `--consolidate` (or a
dry run's checks) should not pay it. Retries are done here rather than by the openai client so
that every attempt is counted, the backoff is ours to test, and the error names the endpoint.
"""

from __future__ import annotations

import email.utils
import json
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gitcurator.config import LlmSettings
from gitcurator.errors import ConfigError, CuratorError

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.chat.completion_create_params import ResponseFormat

OPENAI_API = "https://api.openai.com/v1"
# The openai client refuses to start without a key; local endpoints ignore it.
PLACEHOLDER_KEY = "not-needed"
JSON_SCHEMA = "json_schema"
JSON_OBJECT = "json_object"
SCHEMA_PROMPT = "Reply with one JSON object matching this JSON Schema:"
MAX_BACKOFF = 60.0

# Words in a 400/422 that mean "this endpoint has no structured outputs", not "your request is bad".
_NO_JSON_SCHEMA = (
    "response_format",
    "response format",
    "json_schema",
    "json schema",
    "structured output",
    "not supported",
    "unsupported",
)


class LlmError(CuratorError):
    """A request to the model failed for good (after retries, or a reply that cannot be used)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """One answer from the model: the raw JSON text and what it cost."""

    content: str  # the assistant message's content, unparsed: the caller validates it
    prompt_tokens: int  # from the reply's usage; 0 when the server leaves usage out
    completion_tokens: int
    mode: str  # JSON_SCHEMA or JSON_OBJECT: how the reply was constrained
    seconds: float  # wall time of the ask, retries included


def endpoint_name(settings: LlmSettings) -> str:
    """How messages and reports name the endpoint: its base_url without any user:password
    (reports are committed), or "the OpenAI API"."""
    if not settings.base_url:
        return "the OpenAI API"
    scheme, sep, rest = settings.base_url.partition("://")
    host, slash, path = rest.partition("/")
    host = host.rpartition("@")[2]
    return f"{scheme}{sep}{host}{slash}{path}" if sep else settings.base_url


def check_settings(settings: LlmSettings, env: Mapping[str, str]) -> None:
    """Refuse, before any work, a pass that could not ask a model; say what to set."""
    if not settings.model:
        raise ConfigError(
            "llm.model is not set, so there is no model to ask for consolidation plans; "
            "set `llm.model` in .gitcurator.yaml (and `llm.base_url` for a non-OpenAI endpoint)"
        )
    if not settings.base_url and not env.get(settings.api_key_env, "").strip():
        raise CuratorError(
            f"${settings.api_key_env} is not set, and the OpenAI API needs a key; "
            f"export {settings.api_key_env}=..., or set `llm.base_url` to a local "
            "OpenAI-compatible endpoint (which needs none)"
        )


class ChatClient:
    """Asks one model for JSON replies, retrying what is worth retrying; counts what it spends."""

    def __init__(
        self,
        settings: LlmSettings,
        env: Mapping[str, str],
        *,
        timeout: float = 120.0,
        retries: int = 3,
        backoff: float = 1.0,
        retry_after_cap: float = 60.0,
    ) -> None:
        check_settings(settings, env)
        import openai

        self.settings = settings
        self.model: str = settings.model or ""
        self.timeout = timeout
        self.retries = max(1, retries)  # tries in all, the first included
        self.backoff = backoff
        self.retry_after_cap = retry_after_cap
        self.mode = JSON_SCHEMA  # becomes JSON_OBJECT for good once the endpoint refuses schemas
        self.asks = 0  # ask() calls made, whether they ended in a reply or an LlmError
        self.http_requests = 0  # HTTP attempts: retries and the json_object fallback included
        self.prompt_tokens = 0  # totals over the replies received
        self.completion_tokens = 0
        self._where = endpoint_name(settings)
        # Sent only when set: local servers may generate until the context is full without
        # it, and some hosted models reject max_tokens.
        self.max_tokens = settings.max_tokens
        key = env.get(settings.api_key_env, "").strip() or PLACEHOLDER_KEY
        # base_url is given explicitly so that $OPENAI_BASE_URL cannot silently redirect a
        # config that says "the openai default".
        self._client = openai.OpenAI(
            api_key=key, base_url=settings.base_url or OPENAI_API, timeout=timeout, max_retries=0
        )

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(self, system: str, user: str, schema: Mapping[str, Any], schema_name: str) -> Reply:
        """Ask for one JSON object matching `schema`; the content comes back unparsed."""
        started = time.monotonic()
        self.asks += 1
        body = None
        if self.mode == JSON_SCHEMA:
            response_format: ResponseFormat = {
                "type": "json_schema",
                "json_schema": {
                    "name": schema_name,
                    "schema": _bare(schema, _META_KEYS),
                    "strict": True,
                },
            }
            body = self._send(_messages(system, user), response_format)
            if body is None:  # refused: no structured outputs here, so say the schema in words
                self.mode = JSON_OBJECT
        mode = self.mode
        if body is None:
            # Paid for on every request: the schema's prose adds tokens, not constraints.
            terse = json.dumps(_bare(schema, _PROSE_KEYS), separators=(",", ":"))
            spelled = f"{system}\n\n{SCHEMA_PROMPT}\n{terse}"
            body = self._send(_messages(spelled, user), {"type": "json_object"})
        if body is None:  # pragma: no cover - _send returns None only in json_schema mode
            raise LlmError(self._failed("refused the json_object response format"))
        content, prompt_tokens, completion_tokens = self._read(body)
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        return Reply(content, prompt_tokens, completion_tokens, mode, time.monotonic() - started)

    # -- one request, retried ----------------------------------------------------------------

    def _send(
        self, messages: list[ChatCompletionMessageParam], response_format: ResponseFormat
    ) -> str | None:
        """The reply's body text; None when json_schema is refused (the caller falls back)."""
        import openai

        cause = detail = hint = ""
        for attempt in range(1, self.retries + 1):
            self.http_requests += 1
            wait: float | None = None
            detail, hint = "", "try again later"
            try:
                raw = self._client.chat.completions.with_raw_response.create(
                    model=self.model,
                    messages=messages,
                    response_format=response_format,
                    temperature=0,
                    # extra_body keeps it out of the request unless set, on any openai version.
                    extra_body={"max_tokens": self.max_tokens} if self.max_tokens else None,
                )
                return raw.text
            except openai.APITimeoutError:
                cause = f"timed out after {self.timeout:g} s"
            except openai.APIConnectionError as exc:
                cause, hint = _connection_cause(exc)
            except openai.APIStatusError as exc:
                status = exc.status_code
                schema_mode = response_format["type"] == JSON_SCHEMA
                if schema_mode and _refuses_json_schema(exc):
                    return None
                if status != 408 and status != 429 and status < 500:
                    raise LlmError(self._failed(self._status_cause(exc))) from None
                cause = f"HTTP {status}" + (" (rate limited)" if status == 429 else "")
                wait = _retry_after(exc.response.headers)
                detail = _server_message(exc)
            if attempt < self.retries:
                time.sleep(self._delay(attempt, wait))
        tries = "1 try" if self.retries == 1 else f"{self.retries} tries"
        said = f"{cause} after {tries}" if cause.startswith("HTTP") else f"{cause} ({tries})"
        said += f": {detail}" if detail else ""
        raise LlmError(f"{self._failed(said)}; {hint}")

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return max(0.0, min(retry_after, self.retry_after_cap))
        base = min(self.backoff * 2.0 ** (attempt - 1), MAX_BACKOFF)
        return base + random.uniform(0, base / 4)  # jitter keeps parallel passes apart

    def _status_cause(self, exc: openai.APIStatusError) -> str:
        status, detail = exc.status_code, _server_message(exc)
        if status == 401:
            return f"401 bad credentials: check ${self.settings.api_key_env}"
        if status == 403:
            return f"403 forbidden ({detail}): check the key in ${self.settings.api_key_env}"
        if status == 404:
            return f"404 not found ({detail}): check llm.base_url and llm.model"
        return f"HTTP {status}: {detail}" if detail else f"HTTP {status}"

    def _failed(self, cause: str) -> str:
        return f"asking {self.model} via {self._where} failed: {cause}"

    # -- the reply ---------------------------------------------------------------------------

    def _read(self, body: str) -> tuple[str, int, int]:
        """Content and token counts from a chat completion's JSON text."""
        try:
            doc = json.loads(body)
        except ValueError:
            raise LlmError(
                self._failed(f"the reply is not JSON: {_shorten(body)!r}")
                + "; is llm.base_url an OpenAI-compatible endpoint?"
            ) from None
        choices = doc.get("choices") if isinstance(doc, dict) else None
        first = choices[0] if isinstance(choices, list) and choices else None
        if not isinstance(first, dict):
            raise LlmError(self._failed(f"the reply has no choices: {_shorten(body)!r}"))
        message = first.get("message")
        message = message if isinstance(message, dict) else {}
        content = message.get("content")
        if not isinstance(content, str) or not content.strip():
            why = f"finish_reason {first.get('finish_reason')!r}"
            if isinstance(message.get("refusal"), str):
                why = f"the model refused: {_shorten(message['refusal'])}"
            raise LlmError(f"{self.model} via {self._where} replied with no content ({why})")
        usage = doc.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        return content, _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))


# Keys that identify a schema document but constrain nothing; strict endpoints may reject them.
_META_KEYS = frozenset({"$schema", "$id", "title"})
_PROSE_KEYS = _META_KEYS | {"description"}


def _bare(node: Any, drop: frozenset[str]) -> Any:
    """`node` (a schema) without the keys in `drop`, at every level; a property that happens
    to be named like one of them (under `properties`) is kept."""
    if isinstance(node, Mapping):
        return {
            k: (_bare_properties(v, drop) if k == "properties" else _bare(v, drop))
            for k, v in node.items()
            if k not in drop
        }
    if isinstance(node, list):
        return [_bare(v, drop) for v in node]
    return node


def _bare_properties(props: Any, drop: frozenset[str]) -> Any:
    if not isinstance(props, Mapping):
        return props
    return {name: _bare(sub, drop) for name, sub in props.items()}


def _messages(system: str, user: str) -> list[ChatCompletionMessageParam]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _refuses_json_schema(exc: openai.APIStatusError) -> bool:
    """Does the endpoint say it has no structured outputs (rather than "bad request")?

    A 400 or 422 that mentions the response format says so. Some servers answer 500 to a
    response_format they do not know (llama-cpp-python 0.3: a validation error naming
    `response_format` and `json_schema`); retrying that would fail forever, so it counts too.
    """
    text = f"{exc.message} {json.dumps(exc.body, default=str)}".lower()
    if exc.status_code in (400, 422):
        return any(words in text for words in _NO_JSON_SCHEMA)
    return exc.status_code == 500 and "json_schema" in text and "response_format" in text


def _server_message(exc: openai.APIStatusError) -> str:
    """The server's own words: error.message from an OpenAI-style body, else the body."""
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return _shorten(str(message))
    if isinstance(body, str) and body.strip():
        return _shorten(body)
    return ""


def _connection_cause(exc: BaseException) -> tuple[str, str]:
    """Words for a failed connection, from the deepest cause the transport gave, and a hint."""
    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and seen not in chain:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    words = " ".join(str(e) for e in chain).lower()
    if any(isinstance(e, ConnectionRefusedError) for e in chain) or "refused" in words:
        return "refused: connection refused", "is the server running, at the address given?"
    if "name or service not known" in words or "nodename nor servname" in words:
        return "could not resolve the host name", "check llm.base_url"
    deepest = next((str(e) for e in reversed(chain) if str(e)), "connection error")
    return f"connection failed: {_shorten(deepest).rstrip('.')}", "try again later"


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds a 429/503 asks us to wait (Retry-After-Ms, Retry-After seconds or date)."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return float(value) / scale
        except ValueError:
            pass
        if name == "retry-after":
            try:
                return email.utils.parsedate_to_datetime(value).timestamp() - time.time()
            except (TypeError, ValueError):
                return None
    return None


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _shorten(text: str, width: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
