"""The model client's deadlines: a request bounded end to end, a timed-out request tried once
more at most, the ask bounded by what the pass has left, and the schema sent inside
json_object for llama.cpp-style servers."""

from __future__ import annotations

import time

import pytest
from support.fake_openai import FakeOpenAI, Response
from support.slow_servers import DripServer

from gitcurator.config import LlmSettings
from gitcurator.umbrella.model_client import ChatClient
from gitcurator.umbrella.model_errors import BudgetSpent, LlmError
from gitcurator.umbrella.model_reply import JSON_OBJECT, reply_cap

SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}, "title": "plan"}
PLAN = '{"a": "b"}'


def _client(base_url: str, **knobs: float) -> ChatClient:
    settings = LlmSettings(base_url=base_url, model="m")
    options = {"timeout": 1.0, "retries": 3, "backoff": 0.01, **knobs}
    return ChatClient(settings, {}, **options)  # type: ignore[arg-type]


def test_a_server_that_drips_its_reply_is_cut_off_at_the_timeout() -> None:
    with DripServer(interval=0.2) as server, _client(server.base_url, timeout=1.0) as client:
        started = time.monotonic()
        with pytest.raises(LlmError) as caught:
            client.ask("sys", "user", SCHEMA, "plan")
        took = time.monotonic() - started
    # Two tries of one second (a timeout is tried once more at most), not three, not for ever.
    assert took < 3.5, took
    assert "timed out after 1 s (2 tries)" in str(caught.value)
    assert client.http_requests == 2 and server.connections == 2
    assert not isinstance(caught.value, BudgetSpent)


def test_an_ask_never_outlives_the_time_it_is_given() -> None:
    with DripServer(interval=0.2) as server, _client(server.base_url, timeout=30.0) as client:
        started = time.monotonic()
        with pytest.raises(BudgetSpent, match=r"llm\.budget_seconds ran out"):
            client.ask("sys", "user", SCHEMA, "plan", within=1.0)
        assert time.monotonic() - started < 2.0


def test_a_timeout_then_a_reply_is_one_reply() -> None:
    with FakeOpenAI([Response.slow(2), PLAN]) as server:
        with _client(server.base_url, timeout=0.5) as client:
            assert client.ask("sys", "user", SCHEMA, "plan").content == PLAN
        assert server.count == 2


def test_the_plan_schema_goes_inside_json_object_once_json_schema_is_refused() -> None:
    with FakeOpenAI([Response.refuse_json_schema(), PLAN, PLAN]) as server:
        with _client(server.base_url) as client:
            first = client.ask("sys", "user", SCHEMA, "plan")
            client.ask("sys", "user", SCHEMA, "plan")
        formats = [r["response_format"] for r in server.requests]
    assert first.mode == JSON_OBJECT
    # The form llama.cpp's servers turn into a grammar; the schema's meta keys left out.
    expected = {"type": "json_object", "schema": {k: v for k, v in SCHEMA.items() if k != "title"}}
    assert formats[1:] == [expected, expected]


def test_a_server_refusing_a_schema_in_json_object_gets_plain_json_object() -> None:
    strict = Response.error(400, "response_format: unknown field 'schema'")
    with FakeOpenAI([Response.refuse_json_schema(), strict, PLAN, PLAN]) as server:
        with _client(server.base_url) as client:
            client.ask("sys", "user", SCHEMA, "plan")
            client.ask("sys", "user", SCHEMA, "plan")
        formats = [r["response_format"] for r in server.requests]
    assert formats[2:] == [{"type": "json_object"}, {"type": "json_object"}]


def test_the_reply_cap_is_sent_and_follows_the_cluster_size() -> None:
    with FakeOpenAI([PLAN, PLAN]) as server:
        with _client(server.base_url) as client:
            client.ask("sys", "user", SCHEMA, "plan", max_tokens=reply_cap("x" * 40_000))
        assert server.requests[0]["max_tokens"] == 8192
    assert reply_cap("") == 512 and reply_cap("x" * 8000) == 3256
    assert reply_cap("x" * 10**7) == 8192


def test_an_endpoint_that_wants_max_completion_tokens_gets_it() -> None:
    wants = Response.error(
        400, "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens' instead."
    )
    with FakeOpenAI([wants, PLAN]) as server:
        with _client(server.base_url) as client:
            client.ask("sys", "user", SCHEMA, "plan", max_tokens=600)
        last = server.requests[-1]
    assert last["max_completion_tokens"] == 600 and "max_tokens" not in last
