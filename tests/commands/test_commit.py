"""`gitcurator commit`: one commit of skill changes, validated, new skills' origin recorded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.repos import git, run_cli, write_skill


def _origin(repo: Path, name: str) -> str:
    result = run_cli("show", name, "--json", "-C", str(repo))
    assert result.code == 0, result
    return str(json.loads(result.out)["origin"])


def test_commits_new_edited_and_removed_skills_in_one_commit(repo: Path) -> None:
    write_skill(repo, "data/csv-clean")
    (repo / "pdf-extract" / "SKILL.md").write_text(
        (repo / "pdf-extract" / "SKILL.md").read_text() + "\nAnd check the page count.\n"
    )
    shutil.rmtree(repo / "devops" / "docker-build")
    before = git("rev-list", "--count", "HEAD", cwd=repo).stdout
    result = run_cli("commit", "-m", "learned csv cleaning", "--origin", "agent", "-C", str(repo))
    assert result.code == 0, result
    assert "1 new skill (agent), 1 edited, 1 removed" in result.out
    assert int(git("rev-list", "--count", "HEAD", cwd=repo).stdout) == int(before) + 1
    message = git("log", "-1", "--format=%B", cwd=repo).stdout
    assert message.startswith("learned csv cleaning\n")
    trailers = git("log", "-1", "--format=%(trailers:only)", cwd=repo).stdout
    assert "Skill-Added: csv-clean" in trailers
    assert "Skill-Edited: pdf-extract" in trailers
    assert "Skill-Removed: docker-build" in trailers
    assert git("status", "--porcelain", cwd=repo).stdout == ""
    assert git("fsck", "--strict", cwd=repo).returncode == 0
    assert _origin(repo, "csv-clean") == "agent"
    assert _origin(repo, "pdf-extract") == "user"


def test_origin_defaults_to_env_then_user(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_skill(repo, "a-skill")
    assert run_cli("commit", "-m", "a", "-C", str(repo)).code == 0
    assert _origin(repo, "a-skill") == "user"
    monkeypatch.setenv("GITCURATOR_ORIGIN", "agent")
    write_skill(repo, "b-skill")
    assert run_cli("commit", "-m", "b", "-C", str(repo)).code == 0
    assert _origin(repo, "b-skill") == "agent"
    monkeypatch.setenv("GITCURATOR_ORIGIN", "robot")
    write_skill(repo, "c-skill")
    bad = run_cli("commit", "-m", "c", "-C", str(repo))
    assert bad.code == 2 and "robot" in bad.err


def test_an_existing_origin_is_not_overwritten_by_a_later_commit(repo: Path) -> None:
    r = str(repo)
    assert run_cli("track", "pdf-extract", "--origin", "hub", "-C", r).code == 0
    (repo / "pdf-extract" / "SKILL.md").write_text(
        (repo / "pdf-extract" / "SKILL.md").read_text() + "\nedit\n"
    )
    assert run_cli("commit", "-m", "edit", "--origin", "agent", "-C", r).code == 0
    assert _origin(repo, "pdf-extract") == "hub"


def test_invalid_skill_is_refused_and_nothing_committed(repo: Path) -> None:
    head = git("rev-parse", "HEAD", cwd=repo).stdout
    write_skill(repo, "broken", body="---\nname: broken\n---\nno description\n")
    write_skill(repo, "fine")
    result = run_cli("commit", "-m", "two skills", "-C", str(repo))
    assert result.code == 1
    assert "broken/SKILL.md" in result.err and "nothing was committed" in result.err
    assert git("rev-parse", "HEAD", cwd=repo).stdout == head
    assert git("ls-files", "broken", "fine", cwd=repo).stdout == ""


def test_only_skill_folders_are_committed_and_the_index_is_respected(repo: Path) -> None:
    (repo / "README.md").write_text("my notes\n")
    (repo / "staged.txt").write_text("staged by the person\n")
    git("add", "staged.txt", cwd=repo)
    write_skill(repo, "new-one")
    assert run_cli("commit", "-m", "new", "-C", str(repo)).code == 0
    committed = git("show", "--name-only", "--format=", "HEAD", cwd=repo).stdout.split()
    assert committed == ["new-one/SKILL.md"]
    # The person's own staging and untracked files are left exactly as they were.
    assert git("status", "--porcelain", cwd=repo).stdout == "A  staged.txt\n?? README.md\n"


def test_nothing_to_commit(repo: Path) -> None:
    head = git("rev-parse", "HEAD", cwd=repo).stdout
    result = run_cli("commit", "-m", "nothing", "-C", str(repo))
    assert result.code == 0 and "no skill changes to commit" in result.out
    assert git("rev-parse", "HEAD", cwd=repo).stdout == head


def test_executable_bit_and_symlink_are_committed(repo: Path) -> None:
    script = repo / "pdf-extract" / "scripts" / "run.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    (repo / "pdf-extract" / "link.md").symlink_to("SKILL.md")
    assert run_cli("commit", "-m", "script", "-C", str(repo)).code == 0
    tree = git("ls-tree", "-r", "HEAD", "pdf-extract", cwd=repo).stdout
    assert "100755 blob" in next(ln for ln in tree.splitlines() if "run.sh" in ln)
    assert "120000 blob" in next(ln for ln in tree.splitlines() if "link.md" in ln)
    assert git("status", "--porcelain", cwd=repo).stdout == ""


def test_commit_flushes_buffered_usage(repo: Path) -> None:
    r = str(repo)
    assert run_cli("record", "use", "pdf-extract", "-C", r).code == 0
    write_skill(repo, "new-one")
    assert run_cli("commit", "-m", "new", "-C", r).code == 0
    notes = git("notes", "--ref=gitcurator", "list", cwd=repo).stdout.splitlines()
    assert len(notes) == 2  # pdf-extract's usage and new-one's origin


def test_commit_refuses_on_a_review_branch_or_detached_head(repo: Path) -> None:
    git("checkout", "-q", "-b", "curator/20260101-000000", cwd=repo)
    write_skill(repo, "new-one")
    result = run_cli("commit", "-m", "new", "-C", str(repo))
    assert result.code == 1 and "review branch curator/20260101-000000" in result.err
    git("checkout", "-q", "--detach", cwd=repo)
    result = run_cli("commit", "-m", "new", "-C", str(repo))
    assert result.code == 1 and "detached HEAD" in result.err
    assert "git checkout main" in result.err
