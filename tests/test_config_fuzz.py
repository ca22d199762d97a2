"""Any config text is a Config within the schema's ranges or a ConfigError naming the file."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st
from support.fuzz_inputs import FUZZ, YAML_SCALARS, yaml_text

from gitcurator.config import CONFIG_FILE, Config, parse_config
from gitcurator.errors import ConfigError

_POSITIVE = ("interval_hours", "stale_after_days", "archive_after_days", "timeout_seconds")


def _numbers(config: Config) -> dict[str, Any]:
    found = {}
    for section in (config.curator, config.llm):
        for f in dataclasses.fields(section):
            value = getattr(section, f.name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                found[f.name] = value
    return found


def _check(text: str) -> None:
    try:
        config = parse_config(text)
    except ConfigError as exc:
        assert str(exc).startswith(f"{CONFIG_FILE}: ")
        return
    numbers = _numbers(config)
    assert all(math.isfinite(v) for v in numbers.values()), numbers
    assert all(numbers[k] > 0 for k in _POSITIVE if k in numbers), numbers
    assert 0 <= config.curator.min_retention <= 1
    assert config.curator.stale_after_days <= config.curator.archive_after_days
    assert all(isinstance(p, str) and p for p in config.curator.protect)


@FUZZ
@given(yaml_text)
def test_any_config_text_is_a_config_in_range_or_a_config_error(text: str) -> None:
    _check(text)


_SECTIONS = {
    "curator": (
        *("interval_hours", "min_idle_hours", "stale_after_days", "archive_after_days"),
        *("min_age_days", "min_retention", "enabled", "consolidate", "protect"),
    ),
    "llm": ("base_url", "model", "max_requests", "timeout_seconds", "retries", "max_tokens"),
}


@FUZZ
@given(
    st.sampled_from(sorted(_SECTIONS)).flatmap(
        lambda s: st.tuples(st.just(s), st.sampled_from(_SECTIONS[s]))
    ),
    st.sampled_from(YAML_SCALARS),
)
def test_any_value_of_a_known_setting_is_in_range_or_refused(
    where: tuple[str, str], value: str
) -> None:
    section, key = where
    _check(f"{section}:\n  {key}: {value}\n")


_HOURS = st.floats(min_value=0.01, max_value=1e6)


@FUZZ
@given(
    st.fixed_dictionaries(
        {
            "interval_hours": _HOURS,
            "min_idle_hours": st.floats(min_value=0, max_value=1e6),
            "stale_after_days": _HOURS,
            "min_age_days": st.integers(min_value=0, max_value=10**6),
            "min_retention": st.floats(min_value=0, max_value=1),
            "enabled": st.booleans(),
            "protect": st.lists(st.text(min_size=1, max_size=10), max_size=3),
        }
    ),
    st.floats(min_value=0, max_value=1e6),
    st.fixed_dictionaries(
        {
            "model": st.none() | st.text(max_size=10),
            "max_requests": st.integers(min_value=0, max_value=10**9),
            "retries": st.integers(min_value=1, max_value=10),
        }
    ),
)
def test_settings_written_as_yaml_load_back_as_they_were(
    curator: dict[str, Any], extra_days: float, llm: dict[str, Any]
) -> None:
    curator["archive_after_days"] = curator["stale_after_days"] + extra_days
    # ASCII output: PyYAML writes U+0085 raw and reads it back as a line break.
    config = parse_config(yaml.safe_dump({"curator": curator, "llm": llm}))
    for key, value in curator.items():
        expected = tuple(value) if key == "protect" else value
        assert getattr(config.curator, key) == expected, key
    for key, value in llm.items():
        assert getattr(config.llm, key) == value, key
