"""Skills under dot-folders (OpenAI's published layout) are reported, and `include:` adds them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.repos import git, run_cli, write_skill

from gitcurator.config import parse_config
from gitcurator.errors import ConfigError

HINT = "to curate them add `include: [.curated, .experimental, .system]` to .gitcurator.yaml"


@pytest.fixture
def openai_layout(tmp_path: Path) -> Path:
    """github.com/openai/skills as published: every skill under a dot-folder."""
    root = tmp_path / "skills"
    write_skill(root, ".curated/gh-fix-ci")
    write_skill(root, ".curated/notion-knowledge")
    write_skill(root, ".experimental/linear")
    write_skill(root, ".system/skill-creator")
    write_skill(root, ".archive/old-skill")
    write_skill(root, ".curated/gh-fix-ci/.hidden-support")  # a support file of gh-fix-ci
    return root


def test_init_validate_and_list_report_every_skipped_skill(openai_layout: Path) -> None:
    init = run_cli("init", str(openai_layout))
    assert init.code == 0, init
    assert "4 SKILL.md files skipped under dot-folders" in init.err
    assert HINT in init.err
    validate = run_cli("validate", "-C", str(openai_layout))
    assert "0 skills checked" in validate.out
    assert "4 SKILL.md files skipped under dot-folders (.curated/gh-fix-ci/SKILL.md" in (
        validate.err
    )
    doc = json.loads(run_cli("validate", "-C", str(openai_layout), "--json").out)
    assert doc["hidden_skills"] == [
        ".curated/gh-fix-ci/SKILL.md",
        ".curated/notion-knowledge/SKILL.md",
        ".experimental/linear/SKILL.md",
        ".system/skill-creator/SKILL.md",
    ]
    listed = run_cli("list", "-C", str(openai_layout), "--json")
    assert [r["name"] for r in json.loads(listed.out)] == ["old-skill"]  # archived, not lost
    assert HINT in listed.err


def test_included_folders_hold_skills_like_any_other(openai_layout: Path) -> None:
    (openai_layout / ".gitcurator.yaml").write_text("include: [.curated, .system]\n")
    assert run_cli("init", str(openai_layout)).code == 0
    validate = run_cli("validate", "-C", str(openai_layout))
    assert "3 skills checked (default mode): 0 errors, 0 warnings" in validate.out
    assert "1 SKILL.md file skipped under dot-folders (.experimental/linear/SKILL.md)" in (
        validate.err
    )
    names = [
        row["name"] for row in json.loads(run_cli("list", "-C", str(openai_layout), "--json").out)
    ]
    assert names == ["gh-fix-ci", "notion-knowledge", "old-skill", "skill-creator"]
    track = run_cli("track", "-C", str(openai_layout), "gh-fix-ci", "--origin", "agent")
    assert track.code == 0, track
    record = run_cli("record", "-C", str(openai_layout), "use", "skill-creator")
    assert record.code == 0, record
    shown = run_cli("show", "-C", str(openai_layout), "skill-creator")
    assert shown.code == 0 and ".system/skill-creator" in shown.out


def test_globs_and_a_skills_dir(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_skill(root, "lib/.curated/a-skill")
    write_skill(root, "lib/.system/b-skill")
    (root / ".gitcurator.yaml").write_text("skills_dir: lib\ninclude: ['.*']\n")
    git("init", "-q", "-b", "main", cwd=root)
    doc = json.loads(run_cli("validate", "-C", str(root), "--json").out)
    assert doc["skills_checked"] == 2 and doc["hidden_skills"] == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [("include: .curated\n", "is not of type 'array'"), ("include: ['../x']\n", "inside")],
)
def test_bad_include_is_refused_by_key(text: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        parse_config(text)
    assert parse_config("include: [.curated]\n").include == (".curated",)


def test_a_skipped_skill_md_handed_over_by_a_hook_is_reported(openai_layout: Path) -> None:
    git("init", "-q", "-b", "main", cwd=openai_layout)
    doc = json.loads(
        run_cli(
            "validate", "-C", str(openai_layout), "--json", ".system/skill-creator/SKILL.md"
        ).out
    )
    assert doc["ok"] and doc["skills_checked"] == 0
    assert doc["hidden_skills"] == [".system/skill-creator/SKILL.md"]
