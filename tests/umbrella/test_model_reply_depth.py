"""A hostile endpoint's reply nested past Python's recursion limit is a failed request that
names the endpoint's reply, not a crash (exit 3) of the whole pass."""

from __future__ import annotations

import pytest

from gitcurator.umbrella.model_errors import LlmError
from gitcurator.umbrella.model_reply import read_reply


def test_a_reply_nested_too_deeply_is_an_llm_error() -> None:
    body = '{"choices": ' + "[" * 200_000 + "]" * 200_000 + "}"
    with pytest.raises(LlmError, match=r"asking m failed: the reply is not JSON"):
        read_reply(body, "asking m failed")


def test_a_plain_reply_is_read() -> None:
    body = '{"choices": [{"message": {"content": "{}"}}], "usage": {"prompt_tokens": 3}}'
    assert read_reply(body, "asking m failed")[0] == "{}"
