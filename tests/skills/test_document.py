"""SKILL.md parsing and skill discovery (pure functions, table-driven)."""

from __future__ import annotations

import pytest

from gitcurator.skills.document import (
    MAX_SKILL_MD_BYTES,
    SkillLocation,
    SkillParseError,
    find_skills,
    parse_skill_md,
    render_skill_md,
    skill_of,
)


@pytest.mark.parametrize(
    ("data", "name", "description", "body_line"),
    [
        (b"---\nname: a\ndescription: d\n---\nbody\n", "a", "d", 5),
        # A '---' inside a value must not end the frontmatter (skills-ref splits on it).
        (b"---\nname: a\ndescription: before --- after\n---\nx\n", "a", "before --- after", 5),
        (b'---\nname: a\ndescription: "x\n\n  ---\n  y"\n---\n', "a", "x\n--- y", 8),
        # UTF-8 BOM and CRLF line ends.
        (b"\xef\xbb\xbf---\r\nname: a\r\ndescription: d\r\n---\r\nbody\r\n", "a", "d", 5),
        (b"---\r\nname: a\r\ndescription: d\r\n---\r\n", "a", "d", 5),
        # Trailing spaces after the fences are tolerated.
        (b"--- \nname: a\ndescription: d\n---  \n", "a", "d", 5),
        # Unicode names.
        ("---\nname: навык\ndescription: d\n---\n".encode(), "навык", "d", 5),
        # Flow-style lists and nested metadata, as Hermes writes them.
        (
            b"---\nname: a\ndescription: d\nplatforms: [linux, macos]\nmetadata:\n  hermes:\n"
            b"    tags: [x]\n---\n",
            "a",
            "d",
            9,
        ),
    ],
)
def test_parse_reads_frontmatter_and_body(
    data: bytes, name: str, description: str, body_line: int
) -> None:
    doc = parse_skill_md(data)
    assert doc.name == name
    assert doc.description == description
    assert doc.body_line == body_line


def test_parse_keeps_body_and_reports_encoding_details() -> None:
    doc = parse_skill_md(b"\xef\xbb\xbf---\r\nname: a\r\ndescription: d\r\n---\r\n# T\r\ntext\r\n")
    assert doc.had_bom and doc.crlf
    assert doc.body == "# T\ntext\n"
    assert doc.frontmatter == {"name": "a", "description": "d"}


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"", "is empty", 1),
        (b"  \n\n", "is empty", 1),
        (b"# Title\nno frontmatter\n", "must start with YAML frontmatter", 1),
        (b"---\nname: a\ndescription: d\n", "frontmatter is not closed", 1),
        (b"---\nname: a\n\tdescription: d\n---\n", "frontmatter is not valid YAML", 3),
        (b"---\nname: [a\n---\n", "frontmatter is not valid YAML", 2),
        (b"---\n- a\n- b\n---\n", "must be a YAML mapping (key: value), not a list", 2),
        (b"---\njust text\n---\n", "not a plain string", 2),
        (b"\x00\x01binary\x00", "is a binary file", None),
        (b"---\nname: caf\xe9\n---\n", "is not UTF-8 text (byte 0xe9 at offset 13)", 2),
        (b"x" * (MAX_SKILL_MD_BYTES + 1), "a SKILL.md must be under 1.0 MB", None),
    ],
)
def test_parse_refuses_bad_input_with_a_message_and_line(
    data: bytes, message: str, line: int | None
) -> None:
    with pytest.raises(SkillParseError) as info:
        parse_skill_md(data)
    assert message in info.value.message
    assert info.value.line == line


def test_render_round_trips() -> None:
    front = {"name": "a", "description": "Use for x: y", "metadata": {"k": "v"}}
    doc = parse_skill_md(render_skill_md(front, "# A\n\nbody\n").encode())
    assert doc.frontmatter == front
    assert doc.body == "# A\n\nbody\n"


@pytest.mark.parametrize(
    ("paths", "skills_dir", "expected"),
    [
        (["a/SKILL.md", "a/references/x.md"], "", [("a", False)]),
        (
            ["cat/a/SKILL.md", "cat/sub/b/SKILL.md", "c1/c2/c3/d/SKILL.md"],
            "",
            [("c1/c2/c3/d", False), ("cat/a", False), ("cat/sub/b", False)],
        ),
        # Archived skills are found as archived, with their category path kept.
        ([".archive/cat/a/SKILL.md", "b/SKILL.md"], "", [(".archive/cat/a", True), ("b", False)]),
        # Dot-folders, node_modules and virtual environments never hold skills.
        (
            [
                ".git/x/SKILL.md",
                ".curator/runs/x/SKILL.md",
                ".hidden/a/SKILL.md",
                "node_modules/pkg/SKILL.md",
                "tools/node_modules/p/SKILL.md",
                "venv/lib/x/SKILL.md",
                "myenv/pyvenv.cfg",
                "myenv/lib/y/SKILL.md",
                "ok/SKILL.md",
            ],
            "",
            [("ok", False)],
        ),
        # A SKILL.md inside a skill is a support file, not a second skill.
        (
            ["a/SKILL.md", "a/references/inner/SKILL.md", "a-b/SKILL.md"],
            "",
            [("a", False), ("a-b", False)],
        ),
        # A SKILL.md at the library root is not a skill (a skill is a folder).
        (["SKILL.md", "x/SKILL.md"], "", [("x", False)]),
        # skills_dir limits discovery and has its own .archive.
        (
            [
                "skills/a/SKILL.md",
                "other/b/SKILL.md",
                "skills/.archive/c/SKILL.md",
                ".archive/d/SKILL.md",
            ],
            "skills",
            [("skills/.archive/c", True), ("skills/a", False)],
        ),
        # Lower-case skill.md is accepted (validation warns about it).
        (["a/skill.md"], "", [("a", False)]),
    ],
)
def test_find_skills(paths: list[str], skills_dir: str, expected: list[tuple[str, bool]]) -> None:
    found = find_skills(paths, skills_dir)
    assert [(s.folder, s.archived) for s in found] == expected


def test_find_skills_prefers_upper_case_file() -> None:
    (only,) = find_skills(["a/skill.md", "a/SKILL.md"])
    assert only.skill_md == "a/SKILL.md"
    (lower,) = find_skills(["b/skill.md"])
    assert lower.lowercase_file


@pytest.mark.parametrize(
    ("loc", "category", "dirname"),
    [
        (SkillLocation("a", "a/SKILL.md"), "", "a"),
        (SkillLocation("x/y/a", "x/y/a/SKILL.md"), "x/y", "a"),
        (SkillLocation(".archive/x/a", ".archive/x/a/SKILL.md", True), "x", "a"),
        (SkillLocation(".archive/a", ".archive/a/SKILL.md", True), "", "a"),
    ],
)
def test_location_category(loc: SkillLocation, category: str, dirname: str) -> None:
    assert loc.category == category
    assert loc.dirname == dirname


def test_skill_of_matches_folder_not_prefix() -> None:
    skills = [SkillLocation("a", "a/SKILL.md"), SkillLocation("a-b", "a-b/SKILL.md")]
    assert skill_of("a-b/x.md", skills) == skills[1]
    assert skill_of("a/x.md", skills) == skills[0]
    assert skill_of("a", skills) == skills[0]
    assert skill_of("abc/x.md", skills) is None


@pytest.mark.parametrize(
    ("paths", "categories"),
    [
        (
            ["lib/cat/y/SKILL.md", "lib/.archive/cat/z/SKILL.md", "lib/top/SKILL.md"],
            {"lib/.archive/cat/z": "cat", "lib/cat/y": "cat", "lib/top": ""},
        ),
    ],
)
def test_category_is_relative_to_skills_dir(paths: list[str], categories: dict[str, str]) -> None:
    assert {s.folder: s.category for s in find_skills(paths, "lib")} == categories
