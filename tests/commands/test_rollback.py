"""`gitcurator rollback`: undo a merged pass (or one commit of it) with one revert commit."""

from __future__ import annotations

import json
from pathlib import Path

from support.passes import RUN, assert_clean_and_sound, commit, make_pass, show, snapshot
from support.repos import git, run_cli

TWO = ("pdf-extract", "devops/docker-build")


def merged(repo: Path, folders: tuple[str, ...] = TWO, batches: int = 1) -> str:
    tip = make_pass(repo, folders=folders, batches=batches)
    result = run_cli("merge", "-C", str(repo))
    assert result.code == 0, result
    return tip


def notes(repo: Path) -> str:
    return git("rev-parse", "-q", "--verify", "refs/notes/gitcurator", cwd=repo, check=False).stdout


def test_rollback_restores_the_archived_skills_as_active(repo: Path) -> None:
    merged(repo)
    notes_before = notes(repo)
    result = run_cli("rollback", RUN, "-C", str(repo))
    assert result.code == 0, result
    assert "restored 2 skills: docker-build, pdf-extract" in result.out
    assert (repo / "pdf-extract" / "SKILL.md").exists()
    assert (repo / "devops" / "docker-build" / "SKILL.md").exists()
    assert not (repo / ".archive").exists()
    assert (repo / ".curator" / "runs" / RUN / "REPORT.md").exists()  # the report stays
    message = git("log", "-1", "--format=%B", cwd=repo).stdout
    assert message.startswith(f"curator: roll back run {RUN} (restores docker-build, pdf-extract)")
    trailers = git("log", "-1", "--format=%(trailers:only)", cwd=repo).stdout.split("\n")
    assert f"Curator-Run: {RUN}" in trailers and f"Curator-Rollback: {RUN}" in trailers
    assert "Curator-Restored: pdf-extract" in trailers
    assert "Curator-Restored: docker-build" in trailers
    assert show(repo, "pdf-extract")["state"] == "active"
    assert notes(repo) == notes_before  # telemetry untouched
    assert_clean_and_sound(repo)
    again = run_cli("rollback", RUN, "-C", str(repo))
    assert again.code == 1 and "already rolled back" in again.err


def test_rollback_after_a_real_merge_keeps_the_persons_work(repo: Path) -> None:
    make_pass(repo, folders=TWO)
    (repo / "devops" / "k8s" / "helm-deploy" / "SKILL.md").write_text(
        "---\nname: helm-deploy\ndescription: Deploy.\n---\nedited\n"
    )
    commit(repo, "person edits helm-deploy")
    assert run_cli("merge", "-C", str(repo)).code == 0
    assert run_cli("rollback", RUN, "-C", str(repo)).code == 0
    assert "edited" in (repo / "devops" / "k8s" / "helm-deploy" / "SKILL.md").read_text()
    assert (repo / "pdf-extract" / "SKILL.md").exists()
    assert_clean_and_sound(repo)


def test_commit_reverts_one_commit_of_a_pass(repo: Path) -> None:
    merged(repo, batches=2)
    listed = json.loads(run_cli("rollback", "--list", "--json", "-C", str(repo)).out)
    assert [p["run_id"] for p in listed] == [RUN] and len(listed[0]["commits"]) == 2
    first = git("log", "--format=%H", "--grep=Curator-Archived: pdf-extract", cwd=repo).stdout
    result = run_cli("rollback", "--commit", first.strip()[:10], "-C", str(repo))
    assert result.code == 0, result
    assert (repo / "pdf-extract" / "SKILL.md").exists()
    assert (repo / ".archive" / "devops" / "docker-build" / "SKILL.md").exists()
    subject = git("log", "-1", "--format=%s", cwd=repo).stdout.strip()
    assert subject == f"curator: roll back {first[:12]} of run {RUN} (restores pdf-extract)"
    listed = json.loads(run_cli("rollback", "--list", "--json", "-C", str(repo)).out)
    assert listed[0]["status"] == "partly rolled back" and len(listed[0]["commits"]) == 1
    twice = run_cli("rollback", "--commit", first.strip(), "-C", str(repo))
    assert twice.code == 1 and "already rolled back" in twice.err
    rest = run_cli("rollback", RUN, "--json", "-C", str(repo))
    assert json.loads(rest.out)["restored"] == ["docker-build"]
    assert run_cli("rollback", "--list", "--json", "-C", str(repo)).out.strip() == "[]"
    assert_clean_and_sound(repo)


def test_list_shows_merged_passes_only(repo: Path) -> None:
    assert "no merged pass" in run_cli("rollback", "--list", "-C", str(repo)).out
    merged(repo, folders=("pdf-extract",))
    make_pass(repo, "20260105-000000", ("devops/docker-build",))  # pending review
    text = run_cli("rollback", "--list", "-C", str(repo)).out
    assert f"{RUN}" in text and "merged: pdf-extract" in text and "20260105" not in text
    pending = run_cli("rollback", "20260105-000000", "-C", str(repo))
    assert pending.code == 1 and "not merged" in pending.err
    assert "git branch -D curator/20260105-000000" in pending.err
    unknown = run_cli("rollback", "20990101-000000", "-C", str(repo))
    assert unknown.code == 1 and "no pass 20990101-000000" in unknown.err
    assert run_cli("rollback", "-C", str(repo)).code == 2
    assert run_cli("rollback", "--list", RUN, "-C", str(repo)).code == 2


def test_a_path_changed_since_the_merge_is_refused_naming_it(repo: Path) -> None:
    merged(repo)
    (repo / ".archive" / "pdf-extract" / "SKILL.md").write_text("edited in the archive\n")
    commit(repo, "person edits an archived skill")
    before = snapshot(repo)
    result = run_cli("rollback", RUN, "-C", str(repo))
    assert result.code == 1
    assert ".archive/pdf-extract/SKILL.md" in result.err and "nothing was changed" in result.err
    assert snapshot(repo) == before


def test_a_dirty_work_tree_is_refused(repo: Path) -> None:
    merged(repo)
    (repo / "devops" / "k8s" / "helm-deploy" / "SKILL.md").write_text("uncommitted\n")
    before = snapshot(repo)
    result = run_cli("rollback", RUN, "-C", str(repo))
    assert result.code == 1 and "devops/k8s/helm-deploy/SKILL.md" in result.err
    assert snapshot(repo) == before


def test_a_real_pass_rolls_back_end_to_end(repo: Path) -> None:
    r = str(repo)
    assert run_cli("track", "pdf-extract", "--origin", "agent", "-C", r).code == 0
    ran = run_cli("run", "--now", "2090-01-01T00:00:00Z", "--json", "-C", r)
    assert json.loads(ran.out)["archived"] == ["pdf-extract"]
    run_id = json.loads(ran.out)["run_id"]
    assert run_cli("merge", "-C", r).code == 0
    assert show(repo, "pdf-extract")["state"] == "archived"
    assert run_cli("rollback", run_id, "-C", r).code == 0
    row = show(repo, "pdf-extract")
    assert row["state"] == "active" and row["path"] == "pdf-extract"
    assert_clean_and_sound(repo)
