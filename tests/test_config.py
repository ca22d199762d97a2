"""Loading .gitcurator.yaml: defaults, schema checks, messages that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import run_cli

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


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("curator:\n  min_retention: .nan\n", "curator.min_retention is nan"),
        ("curator:\n  stale_after_days: .NaN\n", "curator.stale_after_days is nan"),
        ("curator:\n  interval_hours: .inf\n", "curator.interval_hours is inf"),
        ("curator:\n  min_idle_hours: -.inf\n", "curator.min_idle_hours is -inf"),
        ("llm:\n  timeout_seconds: .nan\n", "llm.timeout_seconds is nan"),
        ("curator:\n  archive_after_days: 'nan'\n", "curator.archive_after_days is 'nan'"),
    ],
)
def test_nan_and_infinity_are_refused_by_key(text: str, key: str) -> None:
    """jsonschema's bounds compare false against NaN: without this, `.nan` passed every
    `minimum` and silently switched the lossy-merge guard off."""
    with pytest.raises(ConfigError) as info:
        parse_config(text, "/r/.gitcurator.yaml")
    assert f"{key}; it must be a finite number" in str(info.value)


def test_exponent_numbers_that_yaml_reads_as_strings_are_numbers() -> None:
    config = parse_config("curator:\n  archive_after_days: 1e3\nllm:\n  max_requests: 2E1\n")
    assert config.curator.archive_after_days == 1000
    assert config.llm.max_requests == 20
    assert isinstance(config.llm.max_requests, int)


def test_a_fraction_where_a_whole_number_is_needed_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"llm\.max_requests is 2\.5; it must be a whole number"):
        parse_config("llm:\n  max_requests: 2.5\n")


def test_a_nan_config_fails_the_command_naming_the_key(repo: Path) -> None:
    config = repo / ".gitcurator.yaml"
    config.write_text(config.read_text().replace("stale_after_days: 30", "stale_after_days: .nan"))
    for args in (("list",), ("run", "--dry-run"), ("status",)):
        result = run_cli(*args, "-C", str(repo))
        assert result.code == 1, (args, result)
        assert "curator.stale_after_days is nan" in result.err


@pytest.mark.parametrize(
    ("text", "skills_dir", "include"),
    [
        ('include: ["./.system"]', "", (".system",)),
        ('include: [".system/", "./.hidden//x"]', "", (".system", ".hidden/x")),
        ("skills_dir: ./skills/\ninclude: [.]", "skills", ()),
    ],
)
def test_folders_are_read_as_git_names_them(
    text: str, skills_dir: str, include: tuple[str, ...]
) -> None:
    config = parse_config(text)
    assert (config.skills_dir, config.include) == (skills_dir, include)
