"""What is sent to the model and what comes back: the response formats, the reply cap, and
the reading of a chat completion's JSON (pure: no network, no clock)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gitcurator.errors import JSON_READ_ERRORS
from gitcurator.umbrella.model_errors import LlmError, shorten

JSON_SCHEMA = "json_schema"
JSON_OBJECT = "json_object"
SCHEMA_PROMPT = "Reply with one JSON object matching this JSON Schema:"

# The reply cap when llm.max_tokens is unset: an umbrella's body keeps most of what it absorbs
# (curator.min_retention), so a plan is about as long as the cluster it answers, plus its
# JSON. Never unbounded: a small model under a JSON grammar can otherwise generate until its
# context is full, for an hour on a laptop.
REPLY_SHARE = 1.5  # reply tokens per token of the cluster message
REPLY_OVERHEAD = 256
MIN_REPLY_TOKENS = 512
MAX_REPLY_TOKENS = 8192
CHARS_PER_TOKEN = 4  # OpenAI's rule of thumb; the cap needs no tokenizer


@dataclass(frozen=True, slots=True)
class Reply:
    """One answer from the model: the raw JSON text and what it cost."""

    content: str  # the assistant message's content, unparsed: the caller validates it
    prompt_tokens: int  # from the reply's usage; 0 when the server leaves usage out
    completion_tokens: int
    mode: str  # JSON_SCHEMA or JSON_OBJECT: how the reply was constrained
    seconds: float  # wall time of the ask, retries included


def reply_cap(message: str) -> int:
    """The default max_tokens for a reply to `message` (one cluster's prompt)."""
    tokens = math.ceil(len(message) / CHARS_PER_TOKEN * REPLY_SHARE) + REPLY_OVERHEAD
    return max(MIN_REPLY_TOKENS, min(MAX_REPLY_TOKENS, tokens))


def messages(system: str, user: str) -> list[dict[str, str]]:
    """A system and a user message, as the chat API takes them."""
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def schema_format(schema: Mapping[str, Any], name: str) -> dict[str, Any]:
    """response_format for endpoints with structured outputs (OpenAI's strict json_schema)."""
    return {
        "type": JSON_SCHEMA,
        "json_schema": {"name": name, "schema": bare(schema, META_KEYS), "strict": True},
    }


def object_format(schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """response_format json_object; with `schema` inside it, the form llama.cpp's servers
    (llama-server, llama-cpp-python) turn into a decoding grammar, so even a tiny model can
    only produce a reply of the plan's shape."""
    if schema is None:
        return {"type": JSON_OBJECT}
    return {"type": JSON_OBJECT, "schema": bare(schema, META_KEYS)}


def schema_in_words(system: str, schema: Mapping[str, Any]) -> str:
    """The system prompt with the schema spelled out, for endpoints that take no schema."""
    # Paid for on every request: the schema's prose adds tokens, not constraints.
    terse = json.dumps(bare(schema, PROSE_KEYS), separators=(",", ":"))
    return f"{system}\n\n{SCHEMA_PROMPT}\n{terse}"


def read_reply(body: str, failed: str) -> tuple[str, int, int]:
    """Content and token counts from a chat completion's JSON text; `failed` begins the
    message of the LlmError raised when it holds no usable content."""
    try:
        doc = json.loads(body)
    except JSON_READ_ERRORS:
        raise LlmError(
            f"{failed}: the reply is not JSON: {shorten(body)!r}; "
            "is llm.base_url an OpenAI-compatible endpoint?"
        ) from None
    choices = doc.get("choices") if isinstance(doc, dict) else None
    first = choices[0] if isinstance(choices, list) and choices else None
    if not isinstance(first, dict):
        raise LlmError(f"{failed}: the reply has no choices: {shorten(body)!r}")
    message = first.get("message")
    message = message if isinstance(message, dict) else {}
    content = message.get("content")
    if not isinstance(content, str) or not content.strip():
        why = f"finish_reason {first.get('finish_reason')!r}"
        if isinstance(message.get("refusal"), str):
            why = f"the model refused: {shorten(message['refusal'])}"
        raise LlmError(f"{failed}: the model replied with no content ({why})")
    usage = doc.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return content, _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))


# Keys that identify a schema document but constrain nothing; strict endpoints may reject them.
META_KEYS = frozenset({"$schema", "$id", "title"})
PROSE_KEYS = META_KEYS | {"description"}


def bare(node: Any, drop: frozenset[str]) -> Any:
    """`node` (a schema) without the keys in `drop`, at every level; a property that happens
    to be named like one of them (under `properties`) is kept."""
    if isinstance(node, Mapping):
        return {
            k: (_bare_properties(v, drop) if k == "properties" else bare(v, drop))
            for k, v in node.items()
            if k not in drop
        }
    if isinstance(node, list):
        return [bare(v, drop) for v in node]
    return node


def _bare_properties(props: Any, drop: frozenset[str]) -> Any:
    if not isinstance(props, Mapping):
        return props
    return {name: bare(sub, drop) for name, sub in props.items()}


def _count(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
