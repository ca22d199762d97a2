"""skills-lock.json as a hostile file: JSON Python reads but no other tool does, names that are
not folder names, nesting and numbers that break the reader; each refused by SkillsLockError."""

from __future__ import annotations

import json

import pytest

from gitcurator.upstream.skills_lock import (
    SkillsLockConflict,
    SkillsLockError,
    parse_lock,
    render_lock,
)

ENTRY = {"source": "o/r", "sourceType": "github", "computedHash": "ab"}


def lock_text(skills: object, **extra: object) -> str:
    return json.dumps({"version": 1, "skills": skills, **extra})


@pytest.mark.parametrize(
    "text",
    [
        '{"version": 1, "skills": {}, "x": NaN}',
        '{"version": 1, "skills": {}, "x": -Infinity}',
        '{"version": 1, "skills": {}, "x": 1e400}',
        '{"version": 1, "skills": {"a": {"source": "s", "sourceType": "t", "computedHash": "h",'
        ' "n": [Infinity]}}}',
    ],
)
def test_numbers_json_cannot_hold_are_refused_not_written_back(text: str) -> None:
    with pytest.raises(SkillsLockError, match="JSON"):
        parse_lock(text)


@pytest.mark.parametrize("name", ["../x", "a/b", "a\\b", ".", "..", "a\0b", "\ud800"])
def test_a_name_that_is_no_folder_name_is_refused(name: str) -> None:
    with pytest.raises(SkillsLockError, match="folder name"):
        parse_lock(lock_text({name: ENTRY}))


def test_a_source_with_a_lone_surrogate_is_refused() -> None:
    with pytest.raises(SkillsLockError, match="'source'"):
        parse_lock(lock_text({"a": {**ENTRY, "source": "\ud800"}}))


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"version": 1, "skills": {}, "n": ' + "9" * 5000 + "}",
        '{"version": 1, "skills": {}, "v": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}",
    ],
)
def test_deep_nesting_and_huge_integers_are_a_lock_error(text: str) -> None:
    with pytest.raises(SkillsLockError):
        parse_lock(text)


def test_crlf_conflict_markers_are_a_conflict() -> None:
    text = '{\r\n<<<<<<< HEAD\r\n  "version": 1\r\n=======\r\n  "version": 1\r\n>>>>>>> x\r\n}\r\n'
    with pytest.raises(SkillsLockConflict):
        parse_lock(text)
    with pytest.raises(SkillsLockConflict):
        parse_lock('{\r\n  "version": 1\r\n=======\r\n  "version": 1\r\n}\r\n')


def test_odd_but_valid_names_and_values_round_trip() -> None:
    text = lock_text({"ü-skill": ENTRY, "a.b": ENTRY, "42": ENTRY}, big=12345678901234567890)
    assert json.loads(render_lock(parse_lock(text))) == json.loads(text)
