"""The llm keys that bound a pass in time: finite, in range, named when wrong."""

from __future__ import annotations

import pytest

from gitcurator.config import LlmSettings, parse_config
from gitcurator.errors import ConfigError


def test_the_defaults_bound_a_pass() -> None:
    llm = parse_config("").llm
    assert (llm.timeout_seconds, llm.budget_seconds, llm.max_tokens) == (120, 600, None)
    assert llm == LlmSettings()


def test_the_limits_are_read() -> None:
    llm = parse_config("llm:\n  budget_seconds: 1e3\n  timeout_seconds: 2.5\n").llm
    assert (llm.budget_seconds, llm.timeout_seconds) == (1000.0, 2.5)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (".nan", "llm.budget_seconds is nan; it must be a finite number"),
        (".inf", "llm.budget_seconds is inf; it must be a finite number"),
        ("0", "budget_seconds"),
        ("-5", "budget_seconds"),
        ("1e9", "budget_seconds"),
        ("soon", "budget_seconds"),
    ],
)
def test_a_budget_that_is_not_a_positive_finite_number_is_refused(value: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f"llm:\n  budget_seconds: {value}\n")
    assert words in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "llm:\n  timeout_seconds: 1e6\n",
        "llm:\n  timeout_seconds: 0\n",
        "llm:\n  max_tokens: 8\n",
        "llm:\n  max_tokens: 1e7\n",
    ],
)
def test_a_request_limit_out_of_range_is_refused_by_key(text: str) -> None:
    key = text.split()[1].rstrip(":")
    with pytest.raises(ConfigError, match=key):
        parse_config(text)
