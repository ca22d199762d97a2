"""`validate` warns about references to archived, absorbed or absent skills."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.references import committed_library, ok
from support.repos import git, run_cli


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    skills = {
        "old-skill": "Old.",
        "live-skill": "See `old-skill`, skill:nowhere, `nowhere` and /nowhere.",
        "git": "Git.",
    }
    files = {"AGENTS.md": "Load $old-skill.\nUse git and test.\n"}
    root = committed_library(tmp_path / "lib", monkeypatch, skills, files)
    ok(root, "archive", "old-skill")
    return root


def test_validate_warns_about_archived_and_absent_skills(repo: Path) -> None:
    result = run_cli("validate", "--json", "-C", str(repo))
    assert result.code == 0, result
    found = [
        (f["path"], f["line"], f["rule"])
        for f in json.loads(result.out)["findings"]
        if f["rule"].startswith("reference-")
    ]
    assert found == [
        ("AGENTS.md", 1, "reference-archived"),
        ("live-skill/SKILL.md", 8, "reference-absent"),
        ("live-skill/SKILL.md", 8, "reference-archived"),
    ]
    text = run_cli("validate", "-C", str(repo)).out
    assert "refers to old-skill, which is archived; restore it" in text
    assert "refers to skill:nowhere, but no skill has that name" in text


def test_validate_of_one_skill_warns_only_about_its_files(repo: Path) -> None:
    result = run_cli("validate", "live-skill", "--json", "-C", str(repo))
    rules = [(f["path"], f["rule"]) for f in json.loads(result.out)["findings"]]
    assert ("AGENTS.md", "reference-archived") not in rules
    assert ("live-skill/SKILL.md", "reference-archived") in rules


def test_the_hook_warns_about_references_in_what_the_commit_changes(repo: Path) -> None:
    (repo / "live-skill/notes.md").write_text("Then load skill:old-skill.\n")
    (repo / "CLAUDE.md").write_text("Use `old-skill`.\n")
    git("add", "live-skill/notes.md", "CLAUDE.md", cwd=repo)
    result = run_cli("validate", "--staged", "--json", "-C", str(repo))
    assert result.code == 0, result  # warnings: the commit is not refused
    found = [
        (f["path"], f["line"], f["rule"])
        for f in json.loads(result.out)["findings"]
        if f["rule"].startswith("reference-")
    ]
    # AGENTS.md and live-skill/SKILL.md refer to old-skill too, but the commit does not
    # change them: the hook reads only what it commits.
    assert found == [
        ("CLAUDE.md", 1, "reference-archived"),
        ("live-skill/notes.md", 1, "reference-archived"),
    ]
    staged_one = run_cli("validate", "--staged", "CLAUDE.md", "--json", "-C", str(repo))
    rules = [(f["path"], f["rule"]) for f in json.loads(staged_one.out)["findings"]]
    assert ("live-skill/notes.md", "reference-archived") not in rules


def test_a_fifo_named_as_a_reference_file_is_skipped_not_waited_on(repo: Path) -> None:
    os.mkfifo(repo / "CLAUDE.md")  # untracked, as a tool's named pipe would be
    os.mkfifo(repo / "live-skill" / "pipe.md")
    # A real process with a deadline: reading a FIFO blocked validate for good.
    done = subprocess.run(
        [sys.executable, "-m", "gitcurator", "validate", "--json", "-C", str(repo)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rules = [(f["path"], f["rule"]) for f in json.loads(done.stdout)["findings"]]
    assert ("AGENTS.md", "reference-archived") in rules
