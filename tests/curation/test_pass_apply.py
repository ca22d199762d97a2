"""The apply step writes what the plan decided: commits, the branch, the states, in that order."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.repos import git, run_cli

from gitcurator.curation.pass_apply import apply_pass
from gitcurator.curation.pass_inputs import load_pass
from gitcurator.curation.pass_plan import plan_pass
from gitcurator.library import open_repo
from gitcurator.store.notes import key_id

NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture
def agent_repo(library: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample library made by the agent on 2026-01-01; helm-deploy used in April."""
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, "2026-01-01T00:00:00Z")
    assert run_cli("init", str(library), "-q").code == 0
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.delenv(var)
    r = str(library)
    names = ("pdf-extract", "docker-build", "helm-deploy")
    assert run_cli("track", *names, "--origin", "agent", "-C", r).code == 0
    at = "2026-04-15T00:00:00Z"
    assert run_cli("record", "use", "helm-deploy", "--at", at, "-C", r).code == 0
    return library


def test_the_plan_is_committed_published_and_its_states_recorded(agent_repo: Path) -> None:
    main = git("rev-parse", "main", cwd=agent_repo).stdout
    with open_repo(agent_repo) as repo:
        plan = plan_pass(load_pass(repo, NOW))
        applied = apply_pass(repo, plan)
    assert applied.branch == "curator/20260601-000000" == plan.branch
    log = git("log", "--format=%s", f"main..{applied.branch}", cwd=agent_repo).stdout
    assert log.splitlines() == [
        "curator: report for run 20260601-000000",
        "curator: archive 2 unused skills",
    ]
    shown = git("show", f"{applied.branch}:.curator/runs/20260601-000000/run.json", cwd=agent_repo)
    assert json.loads(shown.stdout) == applied.doc
    assert git("rev-parse", "main", cwd=agent_repo).stdout == main
    note = git("notes", "--ref=gitcurator", "show", key_id("helm-deploy"), cwd=agent_repo).stdout
    assert json.loads(note)["lifecycle"]["value"] == "stale"


def test_a_plan_with_nothing_to_say_folds_the_journal_and_publishes_nothing(repo: Path) -> None:
    assert run_cli("record", "use", "pdf-extract", "-C", str(repo)).code == 0
    with open_repo(repo) as opened:
        applied = apply_pass(opened, plan_pass(load_pass(opened, NOW)))
    assert applied.branch is None
    assert git("branch", "--list", "curator/*", cwd=repo).stdout == ""
    note = git("notes", "--ref=gitcurator", "show", key_id("pdf-extract"), cwd=repo).stdout
    [host] = json.loads(note)["hosts"].values()
    assert host["use_count"] == 1
