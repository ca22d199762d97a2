"""`validate PATH` on any folder: the repository is found from PATH, -C resolves RELPATH."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.repos import git, run_cli, write_skill


def test_a_folder_in_no_repository_is_validated_on_its_own(tmp_path: Path) -> None:
    write_skill(tmp_path / "loose", "my-skill")
    write_skill(tmp_path / "loose", "Broken", body="---\nname: Broken\ndescription: d\n---\n")
    one = run_cli("validate", str(tmp_path / "loose" / "my-skill"))
    assert one.code == 0, one
    assert "1 skill checked (default mode): 0 errors" in one.out
    both = run_cli("validate", str(tmp_path / "loose"))
    assert both.code == 1
    assert "Broken/SKILL.md:2: error: Skill name 'Broken' must be lowercase" in both.err
    assert "2 skills checked" in both.err


def test_the_repository_is_found_from_the_path_not_the_current_folder(
    repo: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    write_skill(repo, "broken", body="---\nname: broken\n---\n")
    result = run_cli("validate", "--json", str(repo / "broken"), cwd=elsewhere)
    doc = json.loads(result.out)
    assert result.code == 1 and doc["skills_checked"] == 1
    assert {f["path"] for f in doc["findings"]} == {"broken/SKILL.md"}


def test_dash_c_resolves_relative_paths_against_the_repository(repo: Path, tmp_path: Path) -> None:
    write_skill(repo, "broken", body="---\nname: broken\n---\n")
    result = run_cli("-C", str(repo), "validate", "broken", cwd=tmp_path)
    assert result.code == 1, result
    assert "broken/SKILL.md" in result.err
    after = run_cli("validate", "-C", str(repo), "pdf-extract", cwd=tmp_path)
    assert after.code == 0 and "1 skill checked" in after.out
    missing = run_cli("validate", "-C", str(repo), "nope", cwd=tmp_path)
    assert missing.code == 2 and "no such file or folder: nope" in missing.err


def test_a_folder_given_by_name_without_a_skill_is_an_error(repo: Path, tmp_path: Path) -> None:
    (repo / "notes").mkdir()
    (repo / "notes" / "todo.md").write_text("x\n", encoding="utf-8")
    result = run_cli("validate", "-C", str(repo), "notes")
    assert result.code == 1
    assert "notes: error: Missing required file: SKILL.md [missing-skill-md]" in result.err
    # A file outside every skill is still passed over: hooks hand validate each changed file.
    quiet = run_cli("validate", "-C", str(repo), "notes/todo.md", ".gitcurator.yaml")
    assert quiet.code == 0, quiet
    empty = tmp_path / "empty"
    empty.mkdir()
    outside = run_cli("validate", "--strict", str(empty))
    assert outside.code == 1 and "Missing required file: SKILL.md" in outside.err


def test_paths_in_two_repositories_are_each_checked_in_their_own(
    repo: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    write_skill(other, "other-skill")
    git("init", "-q", "-b", "main", cwd=other)
    doc = json.loads(
        run_cli("validate", "--json", str(repo / "pdf-extract"), str(other / "other-skill")).out
    )
    assert doc["ok"] and doc["skills_checked"] == 2


def test_staged_outside_a_repository_says_there_is_no_index(tmp_path: Path) -> None:
    write_skill(tmp_path, "my-skill")
    result = run_cli("validate", "--staged", str(tmp_path / "my-skill"))
    assert result.code == 1
    assert "not in a git repository, so nothing is staged" in result.err


@pytest.mark.parametrize("given", ["pdf-extract", "pdf-extract/", "pdf-extract/SKILL.md"])
def test_a_skill_md_that_is_a_fifo_is_refused_by_name(repo: Path, given: str) -> None:
    skill_md = repo / "pdf-extract" / "SKILL.md"
    kept = skill_md.read_bytes()
    skill_md.unlink()
    os.mkfifo(skill_md)  # git refuses to add it; reading it would block for good
    result = run_cli("validate", given, "-C", str(repo))
    assert result.code == 1, result
    assert "pdf-extract/SKILL.md is not a file git can store (a FIFO" in result.err
    assert "0 skills checked" not in result.out + result.err
    skill_md.unlink()
    skill_md.write_bytes(kept)
    assert run_cli("validate", given, "-C", str(repo)).code == 0
