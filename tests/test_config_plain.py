"""The config's plain form is read as PyYAML reads it, and only what is plainly so."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gitcurator.config import DEFAULT_CONFIG_TEXT, parse_config
from gitcurator.config.plain import plain_config

# Values that look alike and that YAML 1.1 reads differently: a number, a boolean, a null,
# a string, a list, an error.
VALUES = [
    "168", "0", "-1", "+1", "010", "0x1F", "1_000", "1e3", "1.5e3", "0.5", "-0.5", ".5", "1.",
    "true", "True", "TRUE", "false", "yes", "No", "on", "OFF", "y", "n", "null", "Null", "~",
    "[]", "[a]", "{}", "OPENAI_API_KEY", "gpt-4o-mini", "a#b", "a #b", "1:30", "2026-01-01",
    "'quoted'", '"quoted"', "", ".inf", ".nan", "<<", "=", "-", "a b", "é", "*ref", "&a x",
    "!!str 1", "|", ">", "%x", "@x", "`x",
]  # fmt: skip
KEYS = ["curator", "llm", "skills_dir", "enabled", "max_requests", "on", "yes", "null", "a-b"]
LINE = st.one_of(
    st.builds(
        lambda indent, key, sep, value, comment: f"{' ' * indent}{key}{sep}{value}{comment}",
        st.sampled_from([0, 0, 2, 2, 1, 3, 4]),
        st.sampled_from(KEYS),
        st.sampled_from([": ", ":", " : ", ":  "]),
        st.sampled_from(VALUES),
        st.sampled_from(["", "", " # note", "# x", "  #"]),
    ),
    st.sampled_from(["", "# comment", "  # indented comment", "---", "...", "\t", "- item"]),
)


def _typed(value: Any) -> Any:
    # True == 1 and 1 == 1.0 in Python: the types must agree too.
    if isinstance(value, dict):
        return {_typed(k): _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


@settings(max_examples=600, deadline=None)
@given(st.lists(LINE, max_size=12))
def test_a_plain_reading_is_pyyamls(lines: list[str]) -> None:
    text = "\n".join(lines)
    plain = plain_config(text)
    if plain is None:
        return
    assert _typed(plain) == _typed(yaml.safe_load(text))


def test_the_config_init_writes_is_read_plainly() -> None:
    plain = plain_config(DEFAULT_CONFIG_TEXT)
    assert plain is not None
    assert _typed(plain) == _typed(yaml.safe_load(DEFAULT_CONFIG_TEXT))
    assert parse_config(DEFAULT_CONFIG_TEXT) == parse_config(
        "# not plain: \t\n" + DEFAULT_CONFIG_TEXT
    )


@pytest.mark.parametrize(
    "text",
    [
        "curator:\n  enabled: yes\n",  # a YAML 1.1 boolean
        "curator:\n  interval_hours: 010\n",  # octal
        "on: 1\n",  # the key True
        "curator:\n",  # null
        "a: 1\na: 2\n",  # a duplicate key
        "curator:\n    enabled: true\n",  # another indentation
        "skills_dir: 'skills'\n",  # quoted
        "curator:\n  protect: [a]\n",  # a list with items
    ],
)
def test_what_is_not_plain_is_left_to_pyyaml(text: str) -> None:
    assert plain_config(text) is None


@pytest.mark.parametrize("char", [chr(c) for c in [*range(0, 9), *range(11, 32), 127]])
@pytest.mark.parametrize("where", ["comment", "value", "key"])
def test_a_control_character_anywhere_is_left_to_pyyaml(char: str, where: str) -> None:
    # PyYAML refuses most of them (main said "not valid YAML"); \x0b, \x0c and \x1c-\x1f
    # are whitespace to str.strip, so a plain reading let them through.
    text = {
        "comment": f"# note{char}\ncurator:\n  enabled: true\n",
        "value": f"curator:\n  enabled: true{char}\n",
        "key": f"cura{char}tor:\n  enabled: true\n",
    }[where]
    assert plain_config(text) is None
