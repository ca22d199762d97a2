"""`gitcurator log`: the audit trail from commit trailers (pure grouping, then real clones)."""

from __future__ import annotations

import json
from pathlib import Path

from support.passes import RUN, make_pass
from support.repos import git, run_cli

from gitcurator.audit.trail import LoggedCommit, audit_trail, passes

A, R, M = "Curator-Archived", "Curator-Run", "Curator-Merge"


def lc(n: int, message: str, branch: str | None = None) -> LoggedCommit:
    return LoggedCommit(f"{n:040x}", f"2026-01-{n:02d}T00:00:00Z", message, branch)


def archive(n: int, run: str, *names: str, branch: str | None = None) -> LoggedCommit:
    body = "\n".join([f"{R}: {run}"] + [f"{A}: {x}" for x in names])
    return lc(n, f"curator: archive {len(names)} unused skills\n\n{body}\n", branch)


def report(n: int, run: str, branch: str | None = None) -> LoggedCommit:
    path = f".curator/runs/{run}/REPORT.md"
    return lc(n, f"curator: report for run {run}\n\n{R}: {run}\nCurator-Report: {path}\n", branch)


def test_passes_group_by_run_and_know_merges_and_rollbacks() -> None:
    commits = [
        lc(1, "start"),
        archive(2, "r1", "a", "b"),
        report(3, "r1"),
        lc(4, f"curator: merge run r1\n\n{R}: r1\n{M}: r1\n"),
        archive(5, "r2", "c"),
        report(6, "r2"),
        lc(7, f"roll back\n\n{R}: r2\nCurator-Rollback: r2\nCurator-Reverts: {5:040x}\n"),
        archive(8, "r3", "d", branch="curator/r3"),
        report(9, "r3", branch="curator/r3"),
    ]
    found = {p.run_id: p for p in passes(commits)}
    assert found["r1"].status == "merged" and found["r1"].merge is not None
    assert found["r1"].archived == ["a", "b"]
    assert [c.commit[-1] for c in found["r1"].commits] == ["3", "2"]
    assert [c.commit[-1] for c in found["r1"].skill_commits] == ["2"]
    assert found["r2"].status == "rolled back" and found["r2"].merge is None
    assert found["r3"].status == "pending review" and found["r3"].branch == "curator/r3"


def test_the_trail_lists_every_act_newest_first() -> None:
    commits = [
        lc(1, "gitcurator: import 3 skills from Hermes\n\nCurator-Import: hermes\n"),
        archive(2, "r1", "a"),
        report(3, "r1"),
        lc(4, "curator: restore a\n\nMoved.\n\nCurator-Restored: a\n"),
        lc(5, "curator: archive b by hand\n\nCurator-Archived: b\nCurator-Manual: archive\n"),
        lc(6, "curator: purge 1 archived skill\n\nCurator-Purged: b\n"),
        lc(7, "a person's commit\n\nSkill-Edited: c\n"),
    ]
    trail = audit_trail(commits)
    assert [(e.kind, e.skills) for e in trail] == [
        ("purge", ("b",)),
        ("archive", ("b",)),
        ("restore", ("a",)),
        ("pass", ("a",)),
        ("import", ()),
    ]
    assert trail[3].status == "merged (fast-forward)"
    assert trail[3].report == ".curator/runs/r1/REPORT.md"
    assert trail[3].commits == (f"{3:040x}", f"{2:040x}")


def test_a_fresh_clone_tells_the_same_trail(repo: Path, tmp_path: Path) -> None:
    r = str(repo)
    make_pass(repo, folders=("pdf-extract", "devops/docker-build"))
    assert run_cli("merge", "-C", r).code == 0
    assert run_cli("rollback", RUN, "-C", r).code == 0
    assert run_cli("archive", "helm-deploy", "-C", r).code == 0
    assert run_cli("restore", "helm-deploy", "-C", r).code == 0
    make_pass(repo, "20260201-000000", ("pdf-extract",))
    trail = json.loads(run_cli("log", "--json", "-C", r).out)
    kinds = [e["kind"] for e in trail]
    assert kinds == ["pass", "restore", "archive", "rollback", "pass"]
    assert (
        trail[0]["status"] == "pending review" and trail[0]["branch"] == "curator/20260201-000000"
    )
    assert trail[3]["skills"] == ["docker-build", "pdf-extract"] and trail[3]["run_id"] == RUN
    assert trail[4]["status"] == "rolled back" and len(trail[4]["commits"]) == 2
    clone = tmp_path / "clone"
    git("clone", "-q", r, str(clone), cwd=tmp_path)
    cloned = json.loads(run_cli("log", "--json", "-C", str(clone)).out)
    assert cloned == trail[1:]  # the unmerged pass is a branch of the original only
    text = run_cli("log", "-C", str(clone)).out.splitlines()
    assert text[0].split()[2:4] == ["restore", "-"]
    assert (
        "rollback" in text[2] and RUN in text[2] and "restored docker-build, pdf-extract" in text[2]
    )
    assert "[rolled back]" in text[3]


def test_log_of_a_repository_without_passes(repo: Path) -> None:
    result = run_cli("log", "-C", str(repo))
    assert result.code == 0 and "no curator activity yet" in result.out
    assert run_cli("log", "--json", "-C", str(repo)).out.strip() == "[]"
