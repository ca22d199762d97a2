"""`gitcurator merge`: fast-forward or one merge commit; refusals change nothing at all."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from support.passes import NOW, RUN, assert_clean_and_sound, commit, make_pass, show, snapshot
from support.repos import git, run_cli, write_skill


def test_a_pass_on_an_unmoved_branch_fast_forwards(repo: Path) -> None:
    tip = make_pass(repo, folders=("pdf-extract", "devops/k8s/helm-deploy"))
    result = run_cli("merge", "--json", "-C", str(repo))
    assert result.code == 0, result
    doc = json.loads(result.out)
    assert doc == {
        "run_id": RUN,
        "branch": f"curator/{RUN}",
        "merged_commit": tip,
        "fast_forward": True,
        "archived": ["helm-deploy", "pdf-extract"],
    }
    assert git("rev-parse", "main", cwd=repo).stdout.strip() == tip
    assert (repo / ".archive" / "devops" / "k8s" / "helm-deploy" / "SKILL.md").exists()
    assert not (repo / "pdf-extract").exists() and not (repo / "devops" / "k8s").exists()
    assert (repo / ".curator" / "runs" / RUN / "REPORT.md").exists()
    assert_clean_and_sound(repo)
    row = show(repo, "pdf-extract")
    assert row["state"] == "archived" and row["archived_at"] == NOW


def test_ctrl_c_while_the_work_tree_moves_waits_until_branch_tree_and_notes_agree(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import signal

    from gitcurator.store import checkout

    tip = make_pass(repo, folders=("pdf-extract", "devops/k8s/helm-deploy"))
    write_file = checkout._write_file

    def interrupted_write(*args: Any) -> os.stat_result:
        os.kill(os.getpid(), signal.SIGINT)  # the user presses Ctrl-C mid-way
        return write_file(*args)

    monkeypatch.setattr(checkout, "_write_file", interrupted_write)
    result = run_cli("merge", "-C", str(repo))
    assert result.code == 130, result
    assert "finishing this step first" in result.err
    # Either before or fully after, never half: here fully after, archive times included.
    assert git("rev-parse", "main", cwd=repo).stdout.strip() == tip
    assert_clean_and_sound(repo)
    monkeypatch.undo()
    assert show(repo, "pdf-extract")["archived_at"] == NOW
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "handler restored"


def test_after_a_persons_unrelated_commit_a_merge_commit_joins_both(repo: Path) -> None:
    tip = make_pass(repo)
    (repo / "devops" / "docker-build" / "SKILL.md").write_text(
        (repo / "devops" / "docker-build" / "SKILL.md").read_text() + "\nUse buildx.\n"
    )
    write_skill(repo, "csv-clean")
    person = commit(repo, "person: edit docker-build, add csv-clean")
    result = run_cli("merge", RUN, "-C", str(repo))
    assert result.code == 0, result
    assert f"merged curator/{RUN} into main (merge commit" in result.out
    parents = git("log", "-1", "--format=%P", cwd=repo).stdout.split()
    assert parents == [person, tip]
    assert git("log", "-1", "--format=%s", cwd=repo).stdout.strip() == f"curator: merge run {RUN}"
    trailers = git("log", "-1", "--format=%(trailers:only)", cwd=repo).stdout
    assert f"Curator-Run: {RUN}" in trailers and f"Curator-Merge: {RUN}" in trailers
    assert "Use buildx." in (repo / "devops" / "docker-build" / "SKILL.md").read_text()
    assert (repo / "csv-clean" / "SKILL.md").exists()
    assert (repo / ".archive" / "pdf-extract" / "SKILL.md").exists()
    assert not (repo / "pdf-extract").exists()
    assert_clean_and_sound(repo)
    # git agrees with the result: its own merge of the same commits gives the same tree
    expected = git("merge-tree", "--write-tree", person, tip, cwd=repo).stdout.split()[0]
    assert git("rev-parse", "HEAD^{tree}", cwd=repo).stdout.strip() == expected


def test_a_dirty_work_tree_is_refused_and_nothing_changes(repo: Path) -> None:
    make_pass(repo)
    (repo / "devops" / "docker-build" / "SKILL.md").write_text("half-written\n")
    before = snapshot(repo)
    result = run_cli("merge", "-C", str(repo))
    assert result.code == 1
    assert "devops/docker-build/SKILL.md" in result.err and "nothing was changed" in result.err
    assert snapshot(repo) == before


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda r: (r / "pdf-extract" / "SKILL.md").write_text("edited\n"), "pdf-extract/SKILL.md"),
        (lambda r: git("rm", "-rq", "pdf-extract", cwd=r), "pdf-extract/SKILL.md"),
        (lambda r: (r / "pdf-extract" / "new.md").write_text("new\n"), "pdf-extract/new.md"),
    ],
    ids=["edited", "removed", "file-added"],
)
def test_a_persons_change_to_an_archived_skill_is_refused_and_nothing_changes(
    repo: Path, change: Any, named: str
) -> None:
    make_pass(repo)
    change(repo)
    commit(repo, "person changes pdf-extract")
    before = snapshot(repo)
    result = run_cli("merge", "-C", str(repo))
    assert result.code == 1
    assert named in result.err and "gitcurator run" in result.err
    assert snapshot(repo) == before


def test_an_untracked_file_in_the_way_is_refused(repo: Path) -> None:
    make_pass(repo)
    (repo / ".archive").mkdir()
    (repo / ".archive" / "pdf-extract").write_text("mine\n")
    (repo / "pdf-extract" / "draft.md").write_text("mine too\n")
    before = snapshot(repo)
    result = run_cli("merge", "-C", str(repo))
    assert result.code == 1
    assert ".archive/pdf-extract" in result.err and "pdf-extract/draft.md" in result.err
    assert snapshot(repo) == before


def test_the_newest_unmerged_pass_is_the_default_and_merged_ones_are_refused(repo: Path) -> None:
    make_pass(repo, "20260101-000000", ("pdf-extract",))
    make_pass(repo, "20260102-000000", ("devops/docker-build",))
    make_pass(repo, "20260102-000000-2", ("devops/k8s/helm-deploy",))
    first = run_cli("merge", "--json", "-C", str(repo))
    assert json.loads(first.out)["run_id"] == "20260102-000000-2"
    again = run_cli("merge", "20260102-000000-2", "-C", str(repo))
    assert again.code == 1 and "already merged" in again.err
    missing = run_cli("merge", "20250101-000000", "-C", str(repo))
    assert missing.code == 1 and "20260101-000000" in missing.err
    by_branch = run_cli("merge", "curator/20260102-000000", "--json", "-C", str(repo))
    assert by_branch.code == 0 and not json.loads(by_branch.out)["fast_forward"]
    run_cli("merge", "-C", str(repo))
    none = run_cli("merge", "-C", str(repo))
    assert none.code == 1 and "gitcurator run" in none.err
    assert_clean_and_sound(repo)


def test_while_the_pass_branch_is_checked_out_main_moves_and_the_work_tree_stays(
    repo: Path,
) -> None:
    tip = make_pass(repo)
    git("checkout", "-q", f"curator/{RUN}", cwd=repo)
    before = snapshot(repo)
    assert run_cli("merge", "-C", str(repo)).code == 0
    assert git("rev-parse", "main", cwd=repo).stdout.strip() == tip
    after = snapshot(repo)
    assert after["files"] == before["files"] and after["index"] == before["index"]
    assert_clean_and_sound(repo)


def test_a_real_pass_merges_end_to_end(repo: Path) -> None:
    """`gitcurator run` then `merge`: the skills it archived are archived on main."""
    r = str(repo)
    assert run_cli("track", "pdf-extract", "docker-build", "--origin", "agent", "-C", r).code == 0
    later = "2090-01-01T00:00:00Z"  # long after the fixture's commits, whatever the clock says
    ran = run_cli("run", "--now", later, "--json", "-C", r)
    assert ran.code == 0, ran
    assert sorted(json.loads(ran.out)["archived"]) == ["docker-build", "pdf-extract"]
    merged = run_cli("merge", "--json", "-C", r)
    assert merged.code == 0, merged
    assert json.loads(merged.out)["archived"] == ["docker-build", "pdf-extract"]
    assert show(repo, "pdf-extract")["archived_at"] == later
    assert show(repo, "helm-deploy")["state"] == "active"  # a user's skill: never curated
    assert (repo / ".archive" / "devops" / "docker-build" / "SKILL.md").exists()
    assert_clean_and_sound(repo)
