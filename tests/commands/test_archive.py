"""`gitcurator archive NAME`: a skill moved into .archive/ by hand, its archived_at recorded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.passes import assert_clean_and_sound, show, snapshot
from support.repos import git, last_trailers, run_cli, write_skill


def test_archive_then_restore_moves_the_folder_and_only_it(repo: Path) -> None:
    r = str(repo)
    other = repo / "pdf-extract" / "SKILL.md"
    other_stat = os.stat(other)
    result = run_cli("archive", "docker-build", "--now", "2026-02-01T00:00:00Z", "-C", r)
    assert result.code == 0, result
    assert (repo / ".archive" / "devops" / "docker-build" / "SKILL.md").exists()
    assert not (repo / "devops" / "docker-build").exists()
    assert git("log", "-1", "--format=%s", cwd=repo).stdout.strip() == (
        "curator: archive docker-build by hand"
    )
    assert "Curator-Archived: docker-build" in last_trailers(repo)
    assert "Curator-Manual: archive" in last_trailers(repo)
    assert show(repo, "docker-build")["archived_at"] == "2026-02-01T00:00:00Z"
    assert os.stat(other).st_mtime_ns == other_stat.st_mtime_ns
    assert_clean_and_sound(repo)
    restored = run_cli("restore", "docker-build", "-C", r)
    assert restored.code == 0, restored
    assert (repo / "devops" / "docker-build" / "SKILL.md").exists()
    assert not (repo / ".archive").exists()
    assert last_trailers(repo)[0] == "Curator-Restored: docker-build"
    assert show(repo, "docker-build")["state"] == "active"
    assert_clean_and_sound(repo)


def test_a_second_archive_of_a_name_gets_a_suffix_and_restores_by_folder(repo: Path) -> None:
    r = str(repo)
    assert run_cli("archive", "pdf-extract", "-C", r).code == 0
    write_skill(repo, "pdf-extract", description="Use for the second pdf-extract.")
    assert run_cli("commit", "-m", "again", "-C", r).code == 0
    second = run_cli("archive", "pdf-extract", "-C", r)
    assert second.code == 0
    assert "`gitcurator restore .archive/pdf-extract-2` brings it back" in second.out
    assert (repo / ".archive" / "pdf-extract-2" / "SKILL.md").exists()
    both = run_cli("restore", "pdf-extract", "-C", r)
    assert both.code == 1 and ".archive/pdf-extract-2" in both.err
    result = run_cli("restore", ".archive/pdf-extract-2", "-C", r)
    assert result.code == 0, result
    assert "second" in (repo / "pdf-extract" / "SKILL.md").read_text()
    assert_clean_and_sound(repo)


def test_archive_refuses_pinned_and_unknown_skills(repo: Path) -> None:
    r = str(repo)
    assert run_cli("pin", "pdf-extract", "-C", r).code == 0
    pinned = run_cli("archive", "pdf-extract", "-C", r)
    assert pinned.code == 1 and "pinned" in pinned.err and "unpin" in pinned.err
    unknown = run_cli("archive", "nope", "-C", r)
    assert unknown.code == 1 and "no live skill named nope" in unknown.err


@pytest.mark.parametrize("untracked", [False, True])
def test_a_dirty_skill_folder_is_refused_and_nothing_changes(repo: Path, untracked: bool) -> None:
    folder = repo / "devops" / "docker-build"
    if untracked:
        (folder / "draft.md").write_text("not committed\n")
    else:
        (folder / "SKILL.md").write_text((folder / "SKILL.md").read_text() + "\nmore\n")
    (repo / "pdf-extract" / "SKILL.md").write_text("elsewhere: no obstacle\n")
    before = snapshot(repo)
    result = run_cli("archive", "docker-build", "-C", str(repo))
    assert result.code == 1 and "devops/docker-build/" in result.err
    assert snapshot(repo) == before
    assert run_cli("archive", "helm-deploy", "-C", str(repo)).code == 0


def test_a_move_with_another_branch_checked_out_says_the_work_tree_did_not_change(
    repo: Path,
) -> None:
    git("checkout", "-q", "--detach", cwd=repo)
    result = run_cli("archive", "pdf-extract", "-C", str(repo))
    assert result.code == 0, result
    assert "note: main moved, but your work tree is at a detached HEAD" in result.err
    assert (repo / "pdf-extract" / "SKILL.md").exists()
    assert "pdf-extract" in git("ls-tree", "-r", "--name-only", "main", ".archive", cwd=repo).stdout


def test_archiving_a_skill_others_refer_to_says_who_refers_to_it(repo: Path) -> None:
    # A pass keeps such a skill; by hand it is archived, with a warning naming the referrers.
    (repo / "AGENTS.md").write_text("Build images with the `docker-build` skill.\n")
    git("add", "AGENTS.md", cwd=repo)
    git("commit", "-qm", "agents file", "--no-verify", cwd=repo)
    result = run_cli("archive", "docker-build", "-C", str(repo))
    assert result.code == 0, result
    assert "docker-build is referred to by AGENTS.md:1" in result.err
    quiet = run_cli("archive", "pdf-extract", "-C", str(repo))
    assert quiet.code == 0 and "referred to" not in quiet.err


def test_a_reference_file_missing_from_the_store_does_not_stop_the_archive(repo: Path) -> None:
    # Before: the referrers' warning read every reference file's blob, and one missing (a
    # partial clone) made archive fail, though the move needs only trees.
    (repo / "AGENTS.md").write_text("Build images with the `docker-build` skill.\n")
    git("add", "AGENTS.md", cwd=repo)
    git("commit", "-qm", "agents file", "--no-verify", cwd=repo)
    blob = git("rev-parse", "HEAD:AGENTS.md", cwd=repo).stdout.strip()
    (repo / ".git/objects" / blob[:2] / blob[2:]).unlink()
    result = run_cli("archive", "docker-build", "-C", str(repo))
    assert result.code == 0, result
    archived = git("ls-tree", "-r", "--name-only", "main", ".archive", cwd=repo).stdout
    assert "docker-build" in archived
