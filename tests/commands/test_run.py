"""`gitcurator run`: a deterministic pass on a curator/<run-id> branch, and --dry-run."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from support.repos import corrupt_note, git, run_cli, write_skill

from gitcurator import schemas
from gitcurator.store.notes import key_id

CREATED = "2026-01-01T00:00:00Z"
NOW = "2026-06-01T00:00:00Z"


@pytest.fixture
def aged(library: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample library committed on CREATED, every skill agent-made, usage recorded."""
    return _age(library, monkeypatch)


def _age(library: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_skill(library, "notes-keeper")
    write_skill(library, "user-skill")
    monkeypatch.setenv("GIT_AUTHOR_DATE", CREATED)
    monkeypatch.setenv("GIT_COMMITTER_DATE", CREATED)
    assert run_cli("init", str(library), "-q").code == 0
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    r = str(library)
    agent = ["pdf-extract", "docker-build", "helm-deploy", "notes-keeper"]
    assert run_cli("track", *agent, "--origin", "agent", "-C", r).code == 0
    # pdf-extract: used in May (active); docker-build: last used in February (archive);
    # helm-deploy: used in April (stale); notes-keeper: never used (archive, created Jan).
    for name, at in [
        ("pdf-extract", "2026-05-25T00:00:00Z"),
        ("docker-build", "2026-02-01T00:00:00Z"),
        ("helm-deploy", "2026-04-15T00:00:00Z"),
    ]:
        assert run_cli("record", "use", name, "--at", at, "-C", r).code == 0
    return library


def _snapshot(repo: Path) -> dict[str, str]:
    """Every ref, the index bytes and every work-tree file, hashed."""
    state = {
        "refs": git("for-each-ref", "--format=%(refname) %(objectname)", cwd=repo).stdout,
        "HEAD": git("rev-parse", "HEAD", cwd=repo).stdout,
    }
    state["index"] = hashlib.sha1((repo / ".git" / "index").read_bytes()).hexdigest()
    for path in sorted(repo.rglob("*")):
        if ".git" not in path.relative_to(repo).parts and path.is_file():
            state[str(path.relative_to(repo))] = hashlib.sha1(path.read_bytes()).hexdigest()
    return state


def _run(repo: Path, *args: str) -> dict:  # type: ignore[type-arg]
    result = run_cli("run", "--now", NOW, "--json", "-C", str(repo), *args)
    assert result.code == 0, result
    return json.loads(result.out)  # type: ignore[no-any-return]


def test_pass_builds_a_branch_and_leaves_the_default_branch_alone(aged: Path) -> None:
    before = _snapshot(aged)
    out = _run(aged)
    assert out["run_id"] == "20260601-000000"
    assert out["branch"] == "curator/20260601-000000"
    assert out["archived"] == ["docker-build", "notes-keeper"]
    assert out["stale"] == ["helm-deploy"]
    assert out["report"] == ".curator/runs/20260601-000000/REPORT.md"
    after = _snapshot(aged)
    assert {k: v for k, v in after.items() if k != "refs"} == {
        k: v for k, v in before.items() if k != "refs"
    }
    # Only the curator branch (and the telemetry notes) were added.
    new_refs = set(after["refs"].splitlines()) - set(before["refs"].splitlines())
    assert {line.split()[0] for line in new_refs} <= {
        "refs/heads/curator/20260601-000000",
        "refs/notes/gitcurator",
    }


def test_real_git_reads_the_commits_trailers_and_report(aged: Path) -> None:
    _run(aged)
    branch = "curator/20260601-000000"
    subjects = git("log", "--format=%s", f"main..{branch}", cwd=aged).stdout.splitlines()
    assert subjects == [
        "curator: report for run 20260601-000000",
        "curator: archive 2 unused skills",
    ]
    trailers = git("log", "--format=%(trailers)", f"main..{branch}", cwd=aged).stdout
    assert "Curator-Run: 20260601-000000" in trailers
    assert "Curator-Archived: docker-build" in trailers
    assert "Curator-Archived: notes-keeper" in trailers
    body = git("log", "-1", "--format=%b", f"{branch}~1", cwd=aged).stdout
    assert "docker-build (devops/docker-build): idle 120 days" in body
    moved = git("diff", "--name-status", "-M", "main", branch, cwd=aged).stdout
    assert "R100\tdevops/docker-build/SKILL.md\t.archive/devops/docker-build/SKILL.md" in moved
    doc = json.loads(
        git("show", f"{branch}:.curator/runs/20260601-000000/run.json", cwd=aged).stdout
    )
    assert schemas.problems(doc, "run-report") == []
    assert doc["counts"]["after"] == {"active": 2, "archived": 2, "stale": 1}
    assert {s["skill"] for s in doc["skipped"]} == {"user-skill"}
    report = git("show", f"{branch}:.curator/runs/20260601-000000/REPORT.md", cwd=aged).stdout
    assert "## Archived (2)" in report and "## Marked stale (1)" in report
    assert git("fsck", "--strict", cwd=aged).returncode == 0


def test_dry_run_writes_nothing_at_all(aged: Path) -> None:
    run_cli("flush", "-C", str(aged))
    before = _snapshot(aged)
    objects = git("count-objects", "-v", cwd=aged).stdout
    state_files = sorted(p.name for p in (aged / ".git" / "gitcurator").iterdir())
    out = _run(aged, "--dry-run")
    assert out["dry_run"] is True and out["branch"] is None
    assert out["archived"] == ["docker-build", "notes-keeper"]
    assert _snapshot(aged) == before
    assert git("count-objects", "-v", cwd=aged).stdout == objects
    assert sorted(p.name for p in (aged / ".git" / "gitcurator").iterdir()) == state_files


def test_nothing_to_do_makes_no_branch(repo: Path) -> None:
    result = run_cli("run", "-C", str(repo))
    assert result.code == 0
    assert "nothing to do" in result.out
    assert git("branch", "--list", "curator/*", cwd=repo).stdout == ""


def test_stale_only_still_makes_a_branch_with_the_report(aged: Path) -> None:
    r = str(aged)
    run_cli("pin", "docker-build", "-C", r)
    run_cli("pin", "notes-keeper", "-C", r)
    out = _run(aged)
    assert out["archived"] == [] and out["stale"] == ["helm-deploy"]
    assert out["branch"] == "curator/20260601-000000"
    files = git("diff", "--name-only", "main", out["branch"], cwd=aged).stdout.split()
    assert files == [
        ".curator/runs/20260601-000000/REPORT.md",
        ".curator/runs/20260601-000000/run.json",
    ]


def test_stale_then_active_again_across_passes(aged: Path) -> None:
    # helm-deploy was last used on 04-15: 25 days idle on 05-10, 45 on 05-30.
    first = run_cli("run", "--now", "2026-05-10T00:00:00Z", "--json", "-C", str(aged))
    assert "helm-deploy" not in json.loads(first.out)["stale"]
    r = str(aged)
    second = json.loads(run_cli("run", "--now", "2026-05-30T00:00:00Z", "--json", "-C", r).out)
    assert "helm-deploy" in second["stale"]
    assert (
        run_cli("record", "use", "helm-deploy", "--at", "2026-05-31T00:00:00Z", "-C", r).code == 0
    )
    third = json.loads(run_cli("run", "--now", "2026-06-01T00:00:00Z", "--json", "-C", r).out)
    assert third["reactivated"] == ["helm-deploy"]
    report = git("show", f"{third['branch']}:{third['report']}", cwd=aged).stdout
    assert "## Active again (1)" in report


def test_archive_name_collision_gets_a_suffix(
    library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_skill(library, ".archive/devops/docker-build", description="An older docker-build.")
    aged = _age(library, monkeypatch)
    out = _run(aged)
    moved = next(t for t in out["transitions"] if t["skill"] == "docker-build")
    assert moved["archived_path"] == ".archive/devops/docker-build-2"


def test_pinned_protected_user_and_hub_skills_are_never_moved(aged: Path) -> None:
    r = str(aged)
    run_cli("pin", "docker-build", "-C", r)
    run_cli("track", "notes-keeper", "--origin", "hub", "-C", r)
    cfg = aged / ".gitcurator.yaml"
    cfg.write_text(cfg.read_text().replace("protect: []", "protect: [helm-*]"))
    git("commit", "-qam", "protect helm", cwd=aged)
    out = _run(aged)
    assert out["archived"] == [] and out["stale"] == []
    reasons = {s["skill"]: s["reason"] for s in out["skipped"]}
    assert reasons["docker-build"] == "pinned"
    assert reasons["notes-keeper"].startswith("origin hub")
    assert reasons["helm-deploy"].startswith("protected")
    assert reasons["user-skill"].startswith("origin user")


def test_a_person_editing_a_skill_keeps_it(aged: Path) -> None:
    skill = aged / "devops" / "docker-build" / "SKILL.md"
    skill.write_text(skill.read_text() + "\nNew trick.\n")
    assert run_cli("commit", "-m", "docker trick", "-C", str(aged)).code == 0
    out = _run(aged)
    assert "docker-build" not in out["archived"]


def test_bad_now_is_a_usage_error(aged: Path) -> None:
    result = run_cli("run", "--now", "soon", "-C", str(aged))
    assert result.code == 2 and "not an ISO-8601 time" in result.err


def test_status_shows_the_last_pass_and_the_schedule(aged: Path) -> None:
    r = str(aged)
    before = json.loads(run_cli("status", "--json", "-C", r).out)
    assert before["last_pass"] is None and before["paused"] is False
    _run(aged)
    doc = json.loads(run_cli("status", "--json", "-C", r, "--now", NOW).out)
    assert doc["last_pass"] == {
        "run_id": "20260601-000000",
        "now": NOW,
        "branch": "curator/20260601-000000",
        "status": "pending review",
        "merged": False,
        "archived": 2,
        "stale": 1,
        "reactivated": 0,
        "umbrellas": 0,
        "folded": 0,
    }
    text = run_cli("status", "-C", r).out
    assert "last pass: 20260601-000000 (branch curator/20260601-000000, not merged)" in text


def test_status_follows_the_pass_through_merge_and_rollback(aged: Path) -> None:
    r = str(aged)
    _run(aged)
    assert run_cli("merge", "-C", r).code == 0
    status = json.loads(run_cli("status", "--json", "-C", r).out)["last_pass"]["status"]
    assert status.startswith("merged")
    assert run_cli("rollback", "20260601-000000", "-C", r).code == 0
    doc = json.loads(run_cli("status", "--json", "-C", r).out)
    assert doc["last_pass"]["status"] == "rolled back"
    assert "last pass: 20260601-000000 (rolled back)" in run_cli("status", "-C", r).out


def test_a_pass_carries_on_past_a_corrupt_record_and_a_broken_skill(aged: Path) -> None:
    r = str(aged)
    run_cli("flush", "-C", r)
    key = corrupt_note(aged, "pdf-extract", "{truncated")
    # A SKILL.md broken by hand after it was committed: the pass moves folders, not content.
    (aged / "devops" / "docker-build" / "SKILL.md").write_bytes(b"\x00binary")
    git("commit", "-qam", "broken by hand", cwd=aged)
    result = run_cli("run", "--now", NOW, "--json", "-C", r)
    assert result.code == 0, result
    assert "record of pdf-extract is invalid" in result.err
    out = json.loads(result.out)
    # The corrupt record counts as no record: pdf-extract is a user skill now, left alone.
    assert "pdf-extract" not in out["archived"] + out["stale"]
    assert "notes-keeper" in out["archived"]
    # The unreadable note is still there, untouched.
    assert git("notes", "--ref=gitcurator", "show", key, cwd=aged).stdout.strip() == "{truncated"


def test_ctrl_c_while_the_pass_is_published_waits_and_says_where_it_is(
    aged: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import signal

    from gitcurator.curation import pass_apply

    recorded = pass_apply._record_states

    def interrupted(*args: object) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # the person presses Ctrl-C right now
        recorded(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pass_apply, "_record_states", interrupted)
    result = run_cli("run", "--now", NOW, "-C", str(aged))
    assert result.code == 130
    assert "finishing this step first" in result.err
    assert "the pass was published as curator/20260601-000000 before stopping" in result.err
    # Both halves happened: the branch exists and the stale states it reports are recorded.
    assert "refs/heads/curator/20260601-000000" in git("for-each-ref", cwd=aged).stdout
    note = git("notes", "--ref=gitcurator", "show", key_id("helm-deploy"), cwd=aged).stdout
    assert json.loads(note)["lifecycle"]["value"] == "stale"


def test_run_returns_its_text_and_document_and_prints_nothing(
    aged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gitcurator.commands.run import run

    result = run(aged, now=NOW, dry_run=True, consolidate=False)
    assert capsys.readouterr() == ("", "")
    assert result.code == 0 and result.notes == ()
    assert result.text.startswith("dry run: pass 20260601-000000 at 2026-06-01T00:00:00Z\n")
    assert isinstance(result.doc, dict) and result.doc["archived"] == [
        "docker-build",
        "notes-keeper",
    ]
    assert _run(aged, "--dry-run") == result.doc  # what --json prints


def test_terminal_progress_draws_through_a_status_line() -> None:
    from gitcurator.commands.run import TerminalProgress
    from gitcurator.umbrella.clusters import Cluster

    class Line:
        def __init__(self) -> None:
            self.shown: list[str] = []

        def show(self, line: str) -> None:
            self.shown.append(line)

        def done(self, line: str) -> None:
            self.shown.append("done: " + line)

    line = Line()
    progress = TerminalProgress(line)  # type: ignore[arg-type]
    progress.started(2)
    progress.asking(1, Cluster(("a-x", "a-y"), "a"), 0)
    progress.finished()
    assert line.shown[0] == "cluster 1 of 2 (a, 2 skills); 0 tokens so far"
    assert line.shown[1].startswith("done: 2 clusters in ")
    quiet = Line()
    idle = TerminalProgress(quiet)  # type: ignore[arg-type]
    idle.started(0)
    idle.finished()
    assert quiet.shown == []  # no cluster: nothing to show
