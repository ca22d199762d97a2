"""Loading .gitcurator.yaml: defaults, schema checks, messages that name the key."""

from __future__ import annotations

import pytest

from gitcurator.config import DEFAULT_CONFIG_TEXT, Config, CuratorPolicy, parse_config
from gitcurator.errors import ConfigError


def test_default_text_is_the_default_config() -> None:
    assert parse_config(DEFAULT_CONFIG_TEXT) == Config()


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n"])
def test_empty_config_means_defaults(text: str) -> None:
    assert parse_config(text) == Config()


def test_values_are_read() -> None:
    config = parse_config(
        "skills_dir: skills/\ncurator:\n  stale_after_days: 14\n  archive_after_days: 30\n"
        "  protect: [keep-*, core]\nllm:\n  model: gpt-x\n  max_requests: 3\n"
    )
    assert config.skills_dir == "skills"
    assert config.curator == CuratorPolicy(
        stale_after_days=14, archive_after_days=30, protect=("keep-*", "core")
    )
    assert config.llm.model == "gpt-x"
    assert config.llm.max_requests == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bogus: 1\n", "unknown key 'bogus' in top level"),
        ("curator:\n  stale_days: 3\n", "unknown key 'stale_days' in curator"),
        ("curator:\n  stale_after_days: soon\n", "curator.stale_after_days: 'soon' is not of type"),
        ("curator:\n  enabled: maybe\n", "curator.enabled: 'maybe' is not of type 'boolean'"),
        ("llm:\n  max_requests: -1\n", "llm.max_requests: -1 is less than the minimum of 0"),
        ("curator:\n  protect: core\n", "curator.protect: 'core' is not of type 'array'"),
        ("curator: [1, 2\n", "not valid YAML: line 2"),
        ("curator:\n\tenabled: true\n", "not valid YAML: line 2, column 1"),
        ("- a\n- b\n", "must be a mapping of settings, not list"),
        ("skills_dir: ../elsewhere\n", "skills_dir '../elsewhere' must be a folder inside"),
        (
            "curator:\n  stale_after_days: 60\n  archive_after_days: 30\n",
            "archive_after_days (30) must not be smaller than curator.stale_after_days (60)",
        ),
    ],
)
def test_bad_config_names_the_key_and_problem(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "/r/.gitcurator.yaml")
    assert message in str(info.value)
    assert str(info.value).startswith("/r/.gitcurator.yaml: ")
