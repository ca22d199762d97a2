"""llm.py against a real HTTP server speaking the OpenAI chat format, through the real client."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI, Response, closed_port_url, count_tokens

from gitcurator.config import LlmSettings
from gitcurator.errors import ConfigError, CuratorError
from gitcurator.umbrella.model_client import ChatClient
from gitcurator.umbrella.model_errors import LlmError, check_settings, endpoint_name
from gitcurator.umbrella.model_reply import JSON_OBJECT, JSON_SCHEMA, SCHEMA_PROMPT, Reply

PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"actions": {"type": "array", "items": {"type": "string"}}},
    "required": ["actions"],
    "additionalProperties": False,
}
PLAN = '{"actions": ["absorb pdf-split into pdf-tools"]}'
KEY_ENV = "GC_TEST_LLM_KEY"


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A running fake OpenAI server; script it with `.script(...)` or `.handler`."""
    with FakeOpenAI() as server:
        yield server


def client_for(
    server: FakeOpenAI | str, *, key: str | None = "sk-test", **knobs: Any
) -> ChatClient:
    base_url = server if isinstance(server, str) else server.base_url
    settings = LlmSettings(base_url=base_url, model="fake-model", api_key_env=KEY_ENV)
    options: dict[str, Any] = {"timeout": 2.0, "retries": 3, "backoff": 0.01, **knobs}
    return ChatClient(settings, {} if key is None else {KEY_ENV: key}, **options)


def ask(client: ChatClient, system: str = "You plan merges.", user: str = "cluster") -> Reply:
    return client.ask(system, user, PLAN_SCHEMA, "consolidation_plan")


# -- replies ------------------------------------------------------------------------------------


def test_a_reply_is_asked_for_under_a_strict_json_schema(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(PLAN)
    with client_for(fake_openai) as client:
        reply = ask(client, "You plan merges.", "the cluster")
    assert reply.content == PLAN and reply.mode == JSON_SCHEMA and reply.seconds > 0
    sent = fake_openai.requests[0]
    assert sent["model"] == "fake-model" and sent["temperature"] == 0
    assert sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "consolidation_plan", "schema": PLAN_SCHEMA, "strict": True},
    }
    assert sent["messages"] == [
        {"role": "system", "content": "You plan merges."},
        {"role": "user", "content": "the cluster"},
    ]
    assert fake_openai.headers[0]["authorization"] == "Bearer sk-test"
    assert fake_openai.paths == ["/v1/chat/completions"]
    assert (client.asks, client.http_requests) == (1, 1)


def test_usage_tokens_come_from_the_reply_and_add_up(fake_openai: FakeOpenAI) -> None:
    system, user = "s" * 400, "u" * 800
    fake_openai.script(PLAN, Response.reply(PLAN, usage=False))
    with client_for(fake_openai) as client:
        first, second = ask(client, system, user), ask(client, system, user)
    assert (first.prompt_tokens, first.completion_tokens) == (300, count_tokens(PLAN))
    assert (second.prompt_tokens, second.completion_tokens) == (0, 0)  # server left usage out
    assert (client.prompt_tokens, client.completion_tokens) == (300, count_tokens(PLAN))


def test_a_base_url_without_v1_reaches_the_bare_path(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(PLAN)
    with client_for(f"http://127.0.0.1:{fake_openai.port}") as client:
        assert ask(client).content == PLAN
    assert fake_openai.paths == ["/chat/completions"]


def test_a_handler_answers_when_the_script_is_empty(fake_openai: FakeOpenAI) -> None:
    fake_openai.handler = lambda request: json.dumps(
        {"actions": [request["messages"][1]["content"]]}
    )
    with client_for(fake_openai) as client:
        assert json.loads(ask(client, user="one").content) == {"actions": ["one"]}
        assert json.loads(ask(client, user="two").content) == {"actions": ["two"]}


def test_a_local_endpoint_needs_no_key_and_gets_a_placeholder(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(PLAN)
    with client_for(fake_openai, key=None) as client:
        ask(client)
    assert fake_openai.headers[0]["authorization"] == "Bearer not-needed"


# -- json_schema refused: json_object, once and for good -----------------------------------------


@pytest.mark.parametrize("status", [400, 422])
def test_a_refused_json_schema_falls_back_to_json_object_for_good(
    fake_openai: FakeOpenAI, status: int
) -> None:
    fake_openai.script(Response.refuse_json_schema(status), PLAN, PLAN)
    with client_for(fake_openai) as client:
        first = ask(client, "You plan merges.")
        second = ask(client, "You plan merges.")
    assert (first.mode, second.mode, client.mode) == (JSON_OBJECT, JSON_OBJECT, JSON_OBJECT)
    formats = [r["response_format"]["type"] for r in fake_openai.requests]
    assert formats == [JSON_SCHEMA, JSON_OBJECT, JSON_OBJECT]  # the second ask goes straight
    system = fake_openai.requests[1]["messages"][0]["content"]
    assert system.startswith("You plan merges.\n\n" + SCHEMA_PROMPT)
    assert json.loads(system.split(SCHEMA_PROMPT, 1)[1]) == PLAN_SCHEMA
    assert (client.asks, client.http_requests) == (2, 3)


def test_a_400_about_something_else_is_neither_retried_nor_a_fallback(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script(Response.error(400, "messages: too many"))
    with client_for(fake_openai) as client, pytest.raises(LlmError) as caught:
        ask(client)
    assert "HTTP 400: messages: too many" in str(caught.value)
    assert fake_openai.count == 1 and client.mode == JSON_SCHEMA


def test_bad_credentials_say_which_variable_to_check(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Response.error(401, "Incorrect API key provided"))
    with client_for(fake_openai) as client, pytest.raises(LlmError) as caught:
        ask(client)
    assert f"401 bad credentials: check ${KEY_ENV}" in str(caught.value)
    assert fake_openai.count == 1


# -- retries --------------------------------------------------------------------------------------


def test_a_429_is_retried_after_the_retry_after_it_asks_for(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Response.error(429, "slow down", retry_after=0.4), PLAN)
    with client_for(fake_openai) as client:
        started = time.monotonic()
        reply = ask(client)
    assert reply.content == PLAN and time.monotonic() - started >= 0.4  # not the 0.01 backoff
    assert (client.asks, client.http_requests, fake_openai.count) == (1, 2, 2)


def test_a_long_retry_after_is_capped(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Response.error(429, retry_after=3600), PLAN)
    with client_for(fake_openai, retry_after_cap=0.05) as client:
        started = time.monotonic()
        assert ask(client).content == PLAN
    assert time.monotonic() - started < 2


def test_a_5xx_then_success_is_one_reply(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Response.error(500), Response.error(502), PLAN)
    with client_for(fake_openai) as client:
        assert ask(client).content == PLAN
    assert client.http_requests == 3


def test_503_on_every_try_names_the_endpoint_and_the_tries(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(*[Response.error(503, "overloaded")] * 3)
    with client_for(fake_openai) as client, pytest.raises(LlmError) as caught:
        ask(client)
    message = str(caught.value)
    assert fake_openai.base_url in message and "HTTP 503 after 3 tries: overloaded" in message
    assert (fake_openai.count, client.http_requests, fake_openai.pending) == (3, 3, 0)
    assert caught.value.exit_code == 1


def test_a_timeout_says_it_timed_out(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Response.slow(3), Response.slow(3))
    with client_for(fake_openai, timeout=0.2, retries=2) as client, pytest.raises(LlmError) as e:
        ask(client)
    assert "timed out after 0.2 s (2 tries)" in str(e.value) and fake_openai.count == 2


def test_a_closed_port_says_connection_refused() -> None:
    url = closed_port_url()
    with client_for(url, retries=2) as client, pytest.raises(LlmError) as caught:
        ask(client)
    assert url in str(caught.value) and "refused" in str(caught.value)
    assert client.http_requests == 2


def test_a_dropped_connection_is_retried_then_reported(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Response.dropped(), PLAN, Response.dropped(), Response.dropped())
    with client_for(fake_openai, retries=2) as client:
        assert ask(client).content == PLAN
        with pytest.raises(LlmError, match="connection failed"):
            ask(client)


# -- replies that cannot be used ------------------------------------------------------------------


@pytest.mark.parametrize(
    "response",
    [Response.malformed(), Response(body=b"hello", headers={"Content-Type": "text/plain"})],
    ids=["json-labelled-html", "plain-text"],
)
def test_a_body_that_is_not_json_is_an_error(fake_openai: FakeOpenAI, response: Response) -> None:
    fake_openai.script(response)
    with client_for(fake_openai) as client, pytest.raises(LlmError, match="not JSON"):
        ask(client)
    assert fake_openai.count == 1


def test_json_that_is_not_a_completion_is_an_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Response(body=b'{"object": "list", "data": []}'))
    with client_for(fake_openai) as client, pytest.raises(LlmError, match="no choices"):
        ask(client)


@pytest.mark.parametrize("content", [None, "", "  \n"])
def test_empty_content_is_an_error(fake_openai: FakeOpenAI, content: str | None) -> None:
    fake_openai.script(Response.reply(content))
    with client_for(fake_openai) as client, pytest.raises(LlmError) as caught:
        ask(client)
    assert "replied with no content" in str(caught.value)
    assert fake_openai.base_url in str(caught.value)


# -- settings -------------------------------------------------------------------------------------

LOCAL = "http://localhost:11434/v1"


@pytest.mark.parametrize(
    ("settings", "env", "error", "words"),
    [
        (LlmSettings(model=None), {"OPENAI_API_KEY": "sk"}, ConfigError, "set `llm.model`"),
        (LlmSettings(model="m"), {}, CuratorError, "export OPENAI_API_KEY"),
        (LlmSettings(model="m"), {"OPENAI_API_KEY": " "}, CuratorError, "export OPENAI_API_KEY"),
        (
            LlmSettings(model="m", api_key_env="MY_KEY"),
            {"OPENAI_API_KEY": "x"},
            CuratorError,
            "export MY_KEY",
        ),
        (LlmSettings(model="m"), {"OPENAI_API_KEY": "sk"}, None, ""),
        (LlmSettings(model="m", base_url=LOCAL), {}, None, ""),
    ],
)
def test_check_settings(
    settings: LlmSettings, env: dict[str, str], error: type[Exception] | None, words: str
) -> None:
    if error is None:
        check_settings(settings, env)  # nothing to say
        return
    with pytest.raises(error) as caught:
        check_settings(settings, env)
    assert words in str(caught.value)


def test_a_client_is_refused_by_the_same_checks() -> None:
    with pytest.raises(ConfigError, match=r"llm\.model"):
        ChatClient(LlmSettings(base_url=LOCAL), {})


def test_messages_name_the_openai_api_when_there_is_no_base_url() -> None:
    assert endpoint_name(LlmSettings()) == "the OpenAI API"
    assert endpoint_name(LlmSettings(base_url=LOCAL)) == LOCAL


def test_importing_llm_does_not_import_openai() -> None:
    probe = "import sys, gitcurator.umbrella.model_client; print('openai' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_schema_is_sent_without_meta_keys_and_spelled_out_without_prose(
    fake_openai: FakeOpenAI,
) -> None:
    from gitcurator import schemas

    real = schemas.load("consolidation-plan")
    fake_openai.script(Response.refuse_json_schema(), PLAN, PLAN)
    client = client_for(fake_openai)
    client.ask("sys", "user", real, "consolidation_plan")
    sent = fake_openai.requests[0]["response_format"]["json_schema"]["schema"]
    assert "$schema" not in sent and "$id" not in sent and "title" not in sent
    umbrella = sent["properties"]["umbrellas"]["items"]
    assert "description" in umbrella["properties"]["body"]  # guidance kept where it is free
    spelled = fake_openai.requests[1]["messages"][0]["content"].split(SCHEMA_PROMPT, 1)[1]
    assert (
        "description"
        not in json.loads(spelled)["properties"]["umbrellas"]["items"]["properties"]["body"]
    )
    terse = json.loads(spelled)
    assert terse["required"] == real["required"]
    demote = terse["properties"]["umbrellas"]["items"]["properties"]["demote"]["items"]
    assert (
        demote["properties"]["to"]["pattern"]
        == real["properties"]["umbrellas"]["items"]["properties"]["demote"]["items"]["properties"][
            "to"
        ]["pattern"]
    )
    # A property that is named `description` is a constraint, not prose: it stays.
    assert "description" in terse["properties"]["umbrellas"]["items"]["properties"]
    assert len(spelled) < len(json.dumps(real, separators=(",", ":"))) * 0.7


def test_a_500_that_names_json_schema_falls_back_like_llama_cpp_needs(
    fake_openai: FakeOpenAI,
) -> None:
    # llama-cpp-python 0.3 answers an unknown response_format with a 500 validation error.
    llama = (
        "1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format', "
        "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}"
    )
    fake_openai.script(Response.error(500, llama), PLAN)
    client = client_for(fake_openai)
    reply = client.ask("sys", "user", PLAN_SCHEMA, "plan")
    assert reply.mode == JSON_OBJECT and client.http_requests == 2
    # A 500 that says nothing of the format is an outage: retried, not a fallback.
    fake_openai.script(Response.error(500, "boom", retry_after=0), PLAN)
    other = client_for(fake_openai)
    assert other.ask("sys", "user", PLAN_SCHEMA, "plan").mode == JSON_SCHEMA


def test_max_tokens_is_sent_only_when_set(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(PLAN, PLAN)
    client_for(fake_openai).ask("sys", "user", PLAN_SCHEMA, "plan")
    assert "max_tokens" not in fake_openai.requests[-1]
    capped = ChatClient(
        LlmSettings(base_url=fake_openai.base_url, model="m", max_tokens=512), {}, backoff=0.01
    )
    capped.ask("sys", "user", PLAN_SCHEMA, "plan")
    assert fake_openai.requests[-1]["max_tokens"] == 512


def test_the_endpoint_is_named_without_credentials() -> None:
    named = endpoint_name(LlmSettings(base_url="https://bob:s3cret@llm.example:8443/v1"))
    assert named == "https://llm.example:8443/v1"
    assert endpoint_name(LlmSettings(base_url="http://127.0.0.1:8080/v1")) == (
        "http://127.0.0.1:8080/v1"
    )
