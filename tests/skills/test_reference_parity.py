"""The reference validator's own test cases, run through skills-ref and `validate --strict`.

Each case below is one of skills-ref's tests (agentskills/agentskills, skills-ref/tests/
test_validator.py and test_parser.py), as a folder name and a SKILL.md. Both validators
run on it: skills-ref 0.1.1 through its Python API, gitcurator through the command line on
a folder in no repository, as a user runs it. They must agree on valid/invalid, and both
must print the words skills-ref's test asserts. DISAGREEMENTS lists, with the reason, every
case where gitcurator deliberately says otherwise.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from skills_ref.validator import validate as skills_ref_validate  # type: ignore[import-untyped]
from support.repos import run_cli


@dataclass(frozen=True)
class Case:
    """One reference test: a folder holding `files` (None: no folder at all)."""

    folder: str
    files: dict[str, str] | None
    words: str | None  # what the reference test asserts in the errors; None: valid


def skill(name: str, description: str = "A test skill", *extra: str) -> str:
    """A SKILL.md with this frontmatter (skills-ref's tests write them the same way)."""
    lines = [f"name: {name}", f"description: {description}", *extra]
    return "---\n" + "\n".join(lines) + "\n---\nBody\n"


CASES: dict[str, Case] = {
    # test_validator.py
    "valid_skill": Case("my-skill", {"SKILL.md": skill("my-skill")}, None),
    "nonexistent_path": Case("nonexistent", None, "does not exist"),
    "missing_skill_md": Case("my-skill", {}, "Missing required file: SKILL.md"),
    "invalid_name_uppercase": Case("MySkill", {"SKILL.md": skill("MySkill")}, "lowercase"),
    "name_too_long": Case("a" * 70, {"SKILL.md": skill("a" * 70)}, "character limit"),
    "name_leading_hyphen": Case(
        "-my-skill", {"SKILL.md": skill("-my-skill")}, "cannot start or end with a hyphen"
    ),
    "name_consecutive_hyphens": Case(
        "my--skill", {"SKILL.md": skill("my--skill")}, "consecutive hyphens"
    ),
    "name_invalid_characters": Case(
        "my_skill", {"SKILL.md": skill("my_skill")}, "invalid characters"
    ),
    "name_directory_mismatch": Case(
        "wrong-name", {"SKILL.md": skill("correct-name")}, "must match skill name"
    ),
    "unexpected_fields": Case(
        "my-skill",
        {"SKILL.md": skill("my-skill", "A test skill", "unknown_field: should not be here")},
        "Unexpected fields",
    ),
    "valid_with_all_fields": Case(
        "my-skill",
        {"SKILL.md": skill("my-skill", "A test skill", "license: MIT", "metadata:", "  author: T")},
        None,
    ),
    "allowed_tools_accepted": Case(
        "my-skill",
        {"SKILL.md": skill("my-skill", "A test skill", "allowed-tools: Bash(jq:*) Bash(git:*)")},
        None,
    ),
    "allowed_tools_block_list": Case(
        "my-skill",
        {"SKILL.md": skill("my-skill", "A test skill", "allowed-tools:", "  - Read", "  - Bash")},
        None,
    ),
    "i18n_chinese_name": Case("技能", {"SKILL.md": skill("技能")}, None),
    "i18n_russian_name_with_hyphens": Case("мой-навык", {"SKILL.md": skill("мой-навык")}, None),
    "i18n_russian_lowercase_valid": Case("навык", {"SKILL.md": skill("навык")}, None),
    "i18n_russian_uppercase_rejected": Case("НАВЫК", {"SKILL.md": skill("НАВЫК")}, "lowercase"),
    "description_too_long": Case(
        "my-skill", {"SKILL.md": skill("my-skill", "x" * 1100)}, "exceeds 1024 character limit"
    ),
    "valid_compatibility": Case(
        "my-skill",
        {"SKILL.md": skill("my-skill", "A test skill", "compatibility: Requires Python 3.11+")},
        None,
    ),
    "compatibility_too_long": Case(
        "my-skill",
        {"SKILL.md": skill("my-skill", "A test skill", "compatibility: " + "x" * 550)},
        "exceeds 500 character limit",
    ),
    # The folder is composed, the name decomposed: equal after NFKC.
    "nfkc_normalization": Case("café", {"SKILL.md": skill("cafe\u0301")}, None),
    # test_parser.py (through validate(), which reports what parse_frontmatter raises)
    "missing_frontmatter": Case(
        "my-skill",
        {"SKILL.md": "# No frontmatter here\n"},
        "SKILL.md must start with YAML frontmatter (---)",
    ),
    "unclosed_frontmatter": Case(
        "my-skill",
        {"SKILL.md": "---\nname: my-skill\ndescription: A test skill\n"},
        "SKILL.md frontmatter not properly closed with ---",
    ),
    "invalid_yaml": Case(
        "my-skill",
        {"SKILL.md": "---\nname: [invalid\ndescription: broken\n---\nBody here\n"},
        "Invalid YAML in frontmatter: ",
    ),
    "non_dict_frontmatter": Case(
        "my-skill",
        {"SKILL.md": "---\n- just\n- a\n- list\n---\nBody\n"},
        "SKILL.md frontmatter must be a YAML mapping",
    ),
    "metadata_version_number": Case(
        "my-skill",
        {"SKILL.md": skill("my-skill", "A test skill", "metadata:", "  version: 1.0")},
        None,
    ),
    "missing_name": Case(
        "my-skill",
        {"SKILL.md": "---\ndescription: A test skill\n---\nBody\n"},
        "Missing required field in frontmatter: name",
    ),
    "missing_description": Case(
        "my-skill",
        {"SKILL.md": "---\nname: my-skill\n---\nBody\n"},
        "Missing required field in frontmatter: description",
    ),
    "lowercase_skill_md": Case(
        "my-skill", {"skill.md": "---\nname: my-skill\ndescription: A test skill\n---\n"}, None
    ),
}

# case -> (gitcurator's verdict, why it differs from skills-ref 0.1.1).
DISAGREEMENTS: dict[str, tuple[str, str]] = {
    "allowed_tools_block_list": (
        "invalid",
        "the spec makes allowed-tools a space-delimited string; skills-ref 0.1.1 never checks "
        "the field (newer skills-ref accepts lists, Claude Code reads both: default mode "
        "takes a list without a word)",
    ),
    "lowercase_skill_md": (
        "invalid",
        "Codex and Hermes look for SKILL.md by its exact name and never load skill.md",
    ),
}
# Where gitcurator agrees on the verdict in other words, and why.
OTHER_WORDS: dict[str, str] = {
    # A path that is not there is a usage error (exit 2) naming it, before any checking.
    "nonexistent_path": "no such file or folder",
}


def run_reference(path: Path) -> list[str]:
    """skills-ref's errors for a folder."""
    return list(skills_ref_validate(path))


def run_gitcurator(path: Path) -> tuple[int, list[str]]:
    """(exit code, error messages) of `gitcurator validate --strict --json PATH`."""
    result = run_cli("validate", "--strict", "--json", str(path))
    if result.code == 2:
        return result.code, [result.err]
    doc = json.loads(result.out)
    return result.code, [f["message"] for f in doc["findings"] if f["level"] == "error"]


def make_case(tmp_path: Path, case: Case) -> Path:
    """The case's folder under tmp_path (a folder in no git repository)."""
    folder = tmp_path / case.folder
    if case.files is not None:
        folder.mkdir()
        for name, text in case.files.items():
            (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", sorted(CASES))
def test_gitcurator_strict_agrees_with_skills_ref(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    folder = make_case(tmp_path, case)
    reference = run_reference(folder)
    code, ours = run_gitcurator(folder)
    assert bool(reference) == (case.words is not None), f"skills-ref changed: {reference}"
    assert (code != 0) == bool(ours), (code, ours)
    if name in DISAGREEMENTS:
        verdict, _ = DISAGREEMENTS[name]
        assert bool(ours) == (verdict == "invalid"), ours
        assert bool(ours) != bool(reference), "they agree now: drop the case from DISAGREEMENTS"
        return
    assert bool(ours) == bool(reference), f"skills-ref: {reference}\ngitcurator: {ours}"
    if case.words is not None:
        assert any(case.words in m for m in reference), reference
        words = OTHER_WORDS.get(name, case.words)
        assert any(words in m for m in ours), ours


def test_the_parse_errors_are_word_for_word(tmp_path: Path) -> None:
    for name in ("missing_skill_md", "missing_frontmatter", "unclosed_frontmatter"):
        root = tmp_path / name
        root.mkdir()
        folder = make_case(root, CASES[name])
        assert run_gitcurator(folder)[1] == run_reference(folder)
