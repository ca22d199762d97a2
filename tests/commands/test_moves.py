"""`restore`, `archive`, `purge`: moving skills into, out of and away from .archive/ by hand."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.passes import assert_clean_and_sound, commit, show, snapshot
from support.repos import git, run_cli, write_skill

from gitcurator.commands.moves import plan_purge


def trailers(repo: Path) -> list[str]:
    return git("log", "-1", "--format=%(trailers:only)", cwd=repo).stdout.split("\n")


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
    assert "Curator-Archived: docker-build" in trailers(repo)
    assert "Curator-Manual: archive" in trailers(repo)
    assert show(repo, "docker-build")["archived_at"] == "2026-02-01T00:00:00Z"
    assert os.stat(other).st_mtime_ns == other_stat.st_mtime_ns
    assert_clean_and_sound(repo)
    restored = run_cli("restore", "docker-build", "-C", r)
    assert restored.code == 0, restored
    assert (repo / "devops" / "docker-build" / "SKILL.md").exists()
    assert not (repo / ".archive").exists()
    assert trailers(repo)[0] == "Curator-Restored: docker-build"
    assert show(repo, "docker-build")["state"] == "active"
    assert_clean_and_sound(repo)


def test_restore_refuses_a_live_name_and_an_unknown_one(repo: Path) -> None:
    r = str(repo)
    missing = run_cli("restore", "pdf-extract", "-C", r)
    assert missing.code == 1 and "no archived skill named pdf-extract" in missing.err
    assert run_cli("archive", "pdf-extract", "-C", r).code == 0
    write_skill(repo, "pdf-extract")  # a new skill of the same name
    assert run_cli("commit", "-m", "a new pdf-extract", "-C", r).code == 0
    before = snapshot(repo)
    taken = run_cli("restore", "pdf-extract", "-C", r)
    assert taken.code == 1 and "a live skill named pdf-extract exists" in taken.err
    assert snapshot(repo) == before


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


def _archive_at(repo: Path, name: str, when: str) -> None:
    assert run_cli("archive", name, "--now", when, "-C", str(repo)).code == 0


def test_purge_goes_by_archived_at_and_needs_yes(repo: Path) -> None:
    r = str(repo)
    _archive_at(repo, "pdf-extract", "2026-01-01T00:00:00Z")
    _archive_at(repo, "docker-build", "2026-03-01T00:00:00Z")
    # archived by hand with git: no archived_at recorded
    (repo / ".archive" / "devops" / "k8s").mkdir(parents=True)
    git("mv", "devops/k8s/helm-deploy", ".archive/devops/k8s/helm-deploy", cwd=repo)
    commit(repo, "archive helm-deploy with git")
    now = "2026-04-01T00:00:00Z"
    listed = run_cli("purge", "--older-than", "60", "--now", now, "-C", r)
    assert listed.code == 0
    assert "would purge .archive/pdf-extract (archived 2026-01-01T00:00:00Z)" in listed.out
    assert "kept .archive/devops/docker-build: archived 2026-03-01" in listed.out
    assert "kept .archive/devops/k8s/helm-deploy: no archived_at is recorded" in listed.out
    assert "--yes" in listed.out
    before = snapshot(repo)
    dry = run_cli("purge", "--older-than", "60", "--now", now, "--dry-run", "--yes", "-C", r)
    assert dry.code == 0 and "nothing was written" in dry.out
    assert snapshot(repo) == before
    done = run_cli("purge", "--older-than", "60", "--now", now, "--yes", "--json", "-C", r)
    doc = json.loads(done.out)
    assert doc["purged"] and [d["skill"] for d in doc["due"]] == ["pdf-extract"]
    assert {k["skill"] for k in doc["kept"]} == {"docker-build", "helm-deploy"}
    assert not (repo / ".archive" / "pdf-extract").exists()
    assert git("log", "-1", "--format=%s", cwd=repo).stdout.strip() == (
        "curator: purge 1 archived skill"
    )
    assert trailers(repo)[0] == "Curator-Purged: pdf-extract"
    # history keeps it
    assert git("show", "HEAD~1:.archive/pdf-extract/SKILL.md", cwd=repo).returncode == 0
    assert_clean_and_sound(repo)
    again = run_cli("purge", "--older-than", "60", "--now", now, "--yes", "-C", r)
    assert "nothing was archived more than 60 days ago" in again.out


def test_purge_plan_ignores_file_times() -> None:
    now = datetime(2026, 4, 1, tzinfo=UTC)
    plan = plan_purge(
        [("a", ".archive/a"), ("b", ".archive/b"), ("c", ".archive/c")],
        {"a": "2026-01-01T00:00:00Z", "b": "2026-03-31T00:00:00Z"},
        30,
        now,
    )
    assert [d[0] for d in plan.due] == ["a"]
    assert [k[0] for k in plan.kept] == ["b", "c"]


@pytest.mark.parametrize("days", ["-1", "nan", "inf", "-inf", "1e400", "soon"])
def test_purge_older_than_must_be_a_finite_number_of_days(repo: Path, days: str) -> None:
    result = run_cli("purge", "--older-than", days, "--yes", "-C", str(repo))
    assert result.code == 2, result
    assert "--older-than" in result.err


def test_moves_inside_a_skills_dir_keep_the_category(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_skill(root / "lib", "devops/docker-build")
    (root / ".gitcurator.yaml").write_text("skills_dir: lib\n")
    assert run_cli("init", str(root), "--quiet").code == 0
    r = str(root)
    assert run_cli("archive", "docker-build", "-C", r).code == 0
    assert (root / "lib" / ".archive" / "devops" / "docker-build" / "SKILL.md").exists()
    (root / "lib" / ".archive" / "devops" / "docker-build" / "SKILL.md").write_text("dirty\n")
    dirty = run_cli("restore", "docker-build", "-C", r)
    assert dirty.code == 1 and "lib/.archive/devops/docker-build/SKILL.md" in dirty.err
    git("checkout", "--", ".", cwd=root)
    assert run_cli("restore", "docker-build", "-C", r).code == 0
    assert (root / "lib" / "devops" / "docker-build" / "SKILL.md").exists()
    assert_clean_and_sound(root)


def test_a_move_with_another_branch_checked_out_says_the_work_tree_did_not_change(
    repo: Path,
) -> None:
    git("checkout", "-q", "--detach", cwd=repo)
    result = run_cli("archive", "pdf-extract", "-C", str(repo))
    assert result.code == 0, result
    assert "note: main moved, but your work tree is at a detached HEAD" in result.err
    assert (repo / "pdf-extract" / "SKILL.md").exists()
    assert "pdf-extract" in git("ls-tree", "-r", "--name-only", "main", ".archive", cwd=repo).stdout
