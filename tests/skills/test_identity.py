"""The one rule for what can be a skill's name, and that the usage-record schema agrees."""

from __future__ import annotations

import pytest
from support.file_trees import file_tree, skill_md

from gitcurator import schemas
from gitcurator.skills.check_tree import check_tree
from gitcurator.skills.document import find_skills
from gitcurator.skills.identity import is_skill_name, not_a_name_reason

# Folder names real public libraries hold: find_skills takes each, so each is a name.
NAMES = [
    "pdf-extract",
    "zoho_books-automation",
    "-21risk-automation",
    "v1.2-notes",
    "PDF-Tools",
    "My Skill",
    "навык",
    "a" * 100,
    "back\\slash",
]
NOT_NAMES = {
    "": "is empty",
    "data/csv-clean": "is a path",
    ".system": "starts with '.'",
    "..": "starts with '.'",
    "a\nb": "control character",
    "a\tb": "control character",
    "a\x00b": "control character",
}


@pytest.mark.parametrize("name", NAMES)
def test_every_folder_find_skills_takes_is_a_name(name: str) -> None:
    (found,) = find_skills([f"{name}/SKILL.md"])
    assert found.dirname == name
    assert is_skill_name(name) and not_a_name_reason(name) == ""
    record = {"version": 1, "skill": name, "hosts": {}}
    assert schemas.problems(record, "usage-record") == []


@pytest.mark.parametrize(("name", "why"), list(NOT_NAMES.items()))
def test_what_is_no_name_says_why_and_the_schema_refuses_it(name: str, why: str) -> None:
    assert not is_skill_name(name)
    assert why in not_a_name_reason(name)
    record = {"version": 1, "skill": name, "hosts": {}}
    assert schemas.problems(record, "usage-record") != []


def test_a_folder_name_that_is_not_utf8_is_no_name() -> None:
    # How the store reads such a path (surrogateescape); no journal line or note can hold it.
    name = b"caf\xe9".decode("utf-8", "surrogateescape")
    assert not is_skill_name(name)
    assert "not UTF-8" in not_a_name_reason(name)


def test_a_non_string_is_no_name() -> None:
    assert not is_skill_name(None) and not is_skill_name(7)


def test_validate_refuses_a_folder_no_command_can_name() -> None:
    tree = file_tree({"bad\tname/SKILL.md": skill_md("bad-name"), "ok/SKILL.md": skill_md("ok")})
    found = [(f.path, f.rule) for f in check_tree(tree).findings if f.level == "error"]
    assert ("bad\tname/SKILL.md", "folder-name") in found
    assert all(path.startswith("bad\t") for path, _rule in found)
