"""The demo's catalogue: one Markdown file per skill, shipped as package data, read back whole."""

from __future__ import annotations

from importlib import resources

import pytest

from gitcurator.demo import catalogue as sample
from gitcurator.skills.frontmatter import name_messages


def test_catalogue_is_consistent() -> None:
    names = [s.name for s in sample.SKILLS]
    assert len(names) == len(set(names)) and all(not name_messages(n) for n in names)
    assert 24 <= len(names) <= 48
    assert sample.PINNED in names
    for skill in sample.SKILLS:
        assert skill.origin in (sample.AGENT, sample.USER, sample.HUB)
        assert skill.title and skill.description and skill.intro
        assert len(skill.steps) >= 3 and skill.pitfalls
        assert skill.last is None or (skill.last < skill.born and skill.every > 0)
        text = sample.skill_md(skill)
        assert text.startswith(f"---\nname: {skill.name}\n")
        for path in skill.files:
            if path.startswith("references/"):
                assert f"]({path})" in text


def test_each_file_is_named_by_its_place_and_its_skill() -> None:
    files = sorted(f.name for f in (resources.files("gitcurator.demo") / "skills").iterdir())
    assert files == [f"{i:02d}-{s.name}.md" for i, s in enumerate(sample.SKILLS, 1)]


def test_an_entry_is_read_with_its_wrapped_lines_joined_and_its_files() -> None:
    skill = sample.parse_skill(
        "## tools/x-y | agent | born 9 | last 2 | every 1.5\n"
        "# X and Y\n"
        "Use when a task needs\nx and y.\n\n"
        "Intro.\n\n"
        "1. One.\n2. Two,\n  wrapped.\n\n"
        "- A pitfall.\n\n"
        "patched 3 days ago: Learned\n  later.\n\n"
        "### references/notes.md\n\n~~~\n# Notes\n\n- kept as is\n~~~\n"
    )
    assert (skill.name, skill.origin, skill.born, skill.last, skill.every) == (
        "x-y",
        "agent",
        9,
        2,
        1.5,
    )
    assert skill.description == "Use when a task needs x and y."
    assert skill.steps == ("One.", "Two, wrapped.")
    assert skill.patch == (3, "Learned later.")
    assert skill.files == {"references/notes.md": "# Notes\n\n- kept as is\n"}


def test_a_bad_header_is_refused() -> None:
    with pytest.raises(ValueError, match="bad catalogue entry"):
        sample.parse_skill("## tools/x | agent\n# X\nd\n\ni\n\n1. s\n\n- p\n")
