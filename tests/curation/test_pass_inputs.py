"""The load step: what a pass reads from the default branch and the records, and its run id."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.repos import git, run_cli

from gitcurator.curation.pass_inputs import free_run_id, load_pass
from gitcurator.errors import CuratorError
from gitcurator.library import open_repo

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def test_load_reads_the_tip_its_files_and_every_skill(repo: Path) -> None:
    assert run_cli("record", "use", "pdf-extract", "-C", str(repo)).code == 0
    with open_repo(repo) as opened:
        inputs = load_pass(opened, NOW)
        tip = opened.store.branch_tip("main")
    assert inputs.base_branch == "main" and inputs.tip == tip
    assert inputs.run_id == "20260601-000000"
    assert [r.name for r in inputs.rows] == ["docker-build", "helm-deploy", "pdf-extract"]
    # The journal is not folded yet: its event is read beside the notes.
    assert {r.name: r.use_count for r in inputs.rows}["pdf-extract"] == 1
    assert "devops/k8s/helm-deploy/SKILL.md" in inputs.entries
    sha, _mode = inputs.entries["pdf-extract/SKILL.md"]
    assert inputs.read(sha).startswith(b"---\nname: pdf-extract\n")
    assert inputs.problems == ()


def test_a_taken_run_id_gets_a_suffix(repo: Path) -> None:
    git("branch", "curator/20260601-000000", cwd=repo)
    git("branch", "curator/20260601-000000-2", cwd=repo)
    with open_repo(repo) as opened:
        assert free_run_id(opened.store, NOW) == "20260601-000000-3"


def test_a_run_id_with_branches_under_it_is_taken(repo: Path) -> None:
    # git keeps no curator/<id> beside curator/<id>/mine: the pass said "appeared meanwhile;
    # run again", which at one --now met the same branch for ever.
    git("branch", "curator/20260601-000000/mine", cwd=repo)
    with open_repo(repo) as opened:
        assert free_run_id(opened.store, NOW) == "20260601-000000-2"
    # An empty folder left where the branch's ref would go: dulwich cannot rename onto it.
    git("branch", "-D", "curator/20260601-000000/mine", cwd=repo)
    (repo / ".git" / "refs" / "heads" / "curator" / "20260601-000000").mkdir(parents=True)
    with open_repo(repo) as opened:
        assert free_run_id(opened.store, NOW) == "20260601-000000-2"


def test_a_branch_named_curator_stops_the_pass_naming_it(agent_repo: Path) -> None:
    # Its ref is a file where every curator/<id> needs a folder: exit 3 (NotADirectoryError).
    git("branch", "curator", cwd=agent_repo)
    main = git("rev-parse", "main", cwd=agent_repo).stdout
    done = run_cli("run", "--now", "2030-01-01T00:00:00Z", "-C", str(agent_repo))
    assert done.code == 1, done
    assert "branch curator " in done.err and "`git branch -m curator " in done.err
    assert git("branch", "--list", "curator/*", cwd=agent_repo).stdout == ""
    assert git("rev-parse", "main", cwd=agent_repo).stdout == main


def test_a_branch_without_commits_is_refused(tmp_path: Path) -> None:
    git("init", "-q", "-b", "main", cwd=tmp_path)
    with open_repo(tmp_path) as opened, pytest.raises(CuratorError, match="has no commits yet"):
        load_pass(opened, NOW)


def test_a_skill_md_the_scan_and_the_catalogue_both_ask_for_is_read_once() -> None:
    from gitcurator.curation.pass_inputs import _reading_once
    from gitcurator.store import ObjectID

    asked: list[bytes] = []

    def read(blob: ObjectID) -> bytes:
        asked.append(blob)
        return b"data of " + blob

    kept, other = ObjectID(b"a" * 40), ObjectID(b"b" * 40)
    read_once = _reading_once(read, {kept})
    assert [read_once(kept), read_once(kept), read_once(kept)] == [b"data of " + kept] * 3
    assert [read_once(other), read_once(other)] == [b"data of " + other] * 2
    # Held only between the first ask and the second: a third reads the store again.
    assert asked == [kept, kept, other, other]
