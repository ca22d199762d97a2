"""What a failed model request is called: the one error class, the endpoint's name, and the
words for each way a request fails (pure: it reads the failure, never the network)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from gitcurator.config import LlmSettings
from gitcurator.errors import ConfigError, CuratorError

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


class BudgetSpent(LlmError):
    """The pass's llm.budget_seconds ran out before (or while) the model was asked."""


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


def refuses_json_schema(status: int, message: str, body: object) -> bool:
    """Does the endpoint say it has no structured outputs (rather than "bad request")?

    A 400 or 422 that mentions the response format says so. Some servers answer 500 to a
    response_format they do not know (llama-cpp-python 0.3: a validation error naming
    `response_format` and `json_schema`); retrying that would fail forever, so it counts too.
    """
    text = f"{message} {json.dumps(body, default=str)}".lower()
    if status in (400, 422):
        return any(words in text for words in _NO_JSON_SCHEMA)
    return status == 500 and "json_schema" in text and "response_format" in text


def refuses_format_schema(status: int, message: str, body: object) -> bool:
    """Does the endpoint refuse a `schema` inside a json_object response_format (a strict
    server that knows only `{"type": "json_object"}`)?"""
    text = f"{message} {json.dumps(body, default=str)}".lower()
    return status in (400, 422, 500) and "schema" in text and "response_format" in text


def refuses_max_tokens(status: int, message: str, body: object) -> bool:
    """Does the endpoint want max_completion_tokens instead of max_tokens (newer hosted
    reasoning models)?"""
    text = f"{message} {json.dumps(body, default=str)}".lower()
    return status == 400 and "max_tokens" in text and "max_completion_tokens" in text


def server_message(body: object) -> str:
    """The server's own words: error.message from an OpenAI-style body, else the body."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return shorten(str(message))
    if isinstance(body, str) and body.strip():
        return shorten(body)
    return ""


def status_cause(status: int, detail: str, key_env: str) -> str:
    """Words for an HTTP status that no retry will mend."""
    if status == 401:
        return f"401 bad credentials: check ${key_env}"
    if status == 403:
        return f"403 forbidden ({detail}): check the key in ${key_env}"
    if status == 404:
        return f"404 not found ({detail}): check llm.base_url and llm.model"
    return f"HTTP {status}: {detail}" if detail else f"HTTP {status}"


def connection_cause(exc: BaseException) -> tuple[str, str]:
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
    return f"connection failed: {shorten(deepest).rstrip('.')}", "try again later"


def shorten(text: str, width: int = 200) -> str:
    """`text` on one line, cut to `width` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
