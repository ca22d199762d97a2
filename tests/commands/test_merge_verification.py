"""`gitcurator merge` verifies a curator branch first: anything a pass cannot write is refused,
changing nothing, naming the commit and the paths (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

from support.passes import RUN, commit, make_pass, snapshot
from support.remotes import clone, make_remote, sync
from support.repos import git, run_cli, write_skill

BRANCH = f"curator/{RUN}"
REPORT_MESSAGE = (
    f"curator: report for run {RUN}\n\nCurator-Run: {RUN}\n"
    f"Curator-Report: .curator/runs/{RUN}/REPORT.md"
)


def _on_branch(repo: Path, tip: str) -> None:
    git("checkout", "-q", tip, cwd=repo)


def _branch_here(repo: Path) -> None:
    git("update-ref", f"refs/heads/{BRANCH}", "HEAD", cwd=repo)
    git("checkout", "-q", "main", cwd=repo)


def _refused(repo: Path, *expected: str) -> None:
    before = snapshot(repo)
    result = run_cli("merge", "-C", str(repo))
    assert result.code == 1, result
    assert f"refusing to merge {BRANCH}" in result.err, result
    assert "plain git" in result.err, result
    for text in expected:
        assert text in result.err, result
    assert snapshot(repo) == before


def _hand_commit_refused(repo: Path, *expected: str) -> None:
    """Commit what is staged as an archive commit, point the curator branch at it: refused."""
    message = (
        f"curator: archive 1 unused skill\n\nCurator-Run: {RUN}\nCurator-Archived: pdf-extract"
    )
    commit(repo, message)
    _branch_here(repo)
    _refused(repo, *expected)


def test_a_real_pass_still_merges(repo: Path) -> None:
    make_pass(repo, folders=("pdf-extract", "devops/k8s/helm-deploy"), batches=2)
    assert run_cli("merge", "-C", str(repo)).code == 0


def test_a_commit_that_git_rms_a_live_skill_is_refused(repo: Path) -> None:
    tip = make_pass(repo)
    _on_branch(repo, tip)
    git("rm", "-q", "-r", "devops/docker-build", cwd=repo)
    _hand_commit_refused(repo, "deletes live skills devops/docker-build")


def _start_archiving_by_hand(repo: Path) -> None:
    """On a new curator branch, pdf-extract moved to .archive/ as a pass moves it."""
    git("checkout", "-q", "-b", BRANCH, cwd=repo)
    (repo / ".archive").mkdir()
    git("mv", "pdf-extract", ".archive/pdf-extract", cwd=repo)


def test_an_archive_commit_that_also_deletes_a_live_skill_is_refused(repo: Path) -> None:
    _start_archiving_by_hand(repo)
    git("rm", "-q", "-r", "devops/k8s/helm-deploy", cwd=repo)
    _hand_commit_refused(repo, "deletes live skills devops/k8s/helm-deploy")


def test_a_commit_that_edits_a_live_skill_is_refused(repo: Path) -> None:
    tip = make_pass(repo)
    _on_branch(repo, tip)
    (repo / "devops" / "docker-build" / "SKILL.md").write_text("---\nname: x\n---\nrm -rf /\n")
    _hand_commit_refused(repo, "devops/docker-build/SKILL.md")


def test_a_moved_folder_whose_content_changed_is_refused(repo: Path) -> None:
    _start_archiving_by_hand(repo)
    (repo / ".archive" / "pdf-extract" / "SKILL.md").write_text("gone\n")
    _hand_commit_refused(repo, "deletes live skills pdf-extract")


def test_a_commit_without_the_trailer_is_refused(repo: Path) -> None:
    tip = make_pass(repo)
    _on_branch(repo, tip)
    write_skill(repo, "backdoor")
    hand = commit(repo, "add a skill")
    _branch_here(repo)
    _refused(repo, f"commit {hand[:12]} does not carry `Curator-Run: {RUN}`")


def test_a_rewritten_report_is_refused(repo: Path) -> None:
    make_pass(repo, folders=("pdf-extract",))
    git("checkout", "-q", BRANCH, cwd=repo)
    git("reset", "-q", "--soft", "HEAD~1", cwd=repo)
    run_json = repo / ".curator" / "runs" / RUN / "run.json"
    doc = json.loads(run_json.read_text())
    doc["transitions"] = []  # the report hides the archive
    run_json.write_text(json.dumps(doc))
    commit(repo, REPORT_MESSAGE)
    git("checkout", "-q", "main", cwd=repo)
    _refused(repo, "archives nothing but the commits archive pdf-extract")


def test_a_report_commit_that_deletes_a_skill_is_refused(repo: Path) -> None:
    make_pass(repo, folders=("pdf-extract",))
    git("checkout", "-q", BRANCH, cwd=repo)
    git("reset", "-q", "--soft", "HEAD~1", cwd=repo)
    git("rm", "-q", "-r", "devops/docker-build", cwd=repo)
    commit(repo, REPORT_MESSAGE)
    git("checkout", "-q", "main", cwd=repo)
    _refused(repo, "devops/docker-build/SKILL.md")


def test_a_branch_reset_to_an_unrelated_root_commit_is_refused(repo: Path) -> None:
    git("checkout", "-q", "--orphan", BRANCH, cwd=repo)
    git("rm", "-q", "-r", "--cached", ".", cwd=repo)
    for path in ("pdf-extract", "devops"):
        git("clean", "-q", "-fd", path, cwd=repo)
    write_skill(repo, "only-this")
    commit(repo, f"curator: report for run {RUN}\n\nCurator-Run: {RUN}")
    git("checkout", "-q", "-f", "main", cwd=repo)
    _refused(repo, "does not start from main's history")


def test_the_attack_end_to_end_a_pushed_branch_is_synced_in_and_refused(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    victim, attacker = clone(remote, tmp_path / "victim"), clone(remote, tmp_path / "attacker")
    git("checkout", "-q", "-b", BRANCH, cwd=attacker)
    (attacker / ".archive").mkdir()
    git("mv", "x", ".archive/x", cwd=attacker)
    git("rm", "-q", "-r", "y", "z", cwd=attacker)
    commit(attacker, f"curator: archive 1 unused skill\n\nCurator-Run: {RUN}\nCurator-Archived: x")
    runs = attacker / ".curator" / "runs" / RUN
    runs.mkdir(parents=True)
    (runs / "REPORT.md").write_text("# pass\n")
    (runs / "run.json").write_text(
        json.dumps({"run_id": RUN, "transitions": [{"skill": "x", "to": "archived"}]})
    )
    commit(attacker, REPORT_MESSAGE)
    git("push", "-q", "origin", BRANCH, cwd=attacker)

    synced = sync(victim)
    assert synced.code == 0, synced
    assert git("rev-parse", "--verify", "-q", BRANCH, cwd=victim, check=False).returncode == 0
    assert f"{BRANCH} would be refused by `gitcurator merge`" in synced.err, synced
    before = snapshot(victim)
    result = run_cli("merge", "-C", str(victim))
    assert result.code == 1, result
    assert "deletes live skills y, z" in result.err, result
    assert snapshot(victim) == before
    assert (victim / "y" / "SKILL.md").exists() and (victim / "z" / "SKILL.md").exists()
    assert git("status", "--porcelain", cwd=victim).stdout == ""
