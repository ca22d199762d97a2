"""`gitcurator purge`: long-archived skills removed by their recorded archived_at, with --yes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.passes import assert_clean_and_sound, commit, snapshot
from support.repos import git, last_trailers, run_cli

from gitcurator.commands.purge import plan_purge


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
    dry = run_cli("purge", "--older-than", "60", "--now", now, "--dry-run", "-C", r)
    assert dry.code == 0 and "nothing was written" in dry.out
    assert snapshot(repo) == before
    both = run_cli("purge", "--older-than", "60", "--now", now, "--dry-run", "--yes", "-C", r)
    assert both.code == 2 and "--dry-run and --yes contradict" in both.err
    assert snapshot(repo) == before
    done = run_cli("purge", "--older-than", "60", "--now", now, "--yes", "--json", "-C", r)
    doc = json.loads(done.out)
    assert doc["purged"] and [d["skill"] for d in doc["due"]] == ["pdf-extract"]
    assert {k["skill"] for k in doc["kept"]} == {"docker-build", "helm-deploy"}
    assert not (repo / ".archive" / "pdf-extract").exists()
    assert git("log", "-1", "--format=%s", cwd=repo).stdout.strip() == (
        "curator: purge 1 archived skill"
    )
    assert last_trailers(repo)[0] == "Curator-Purged: pdf-extract"
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
