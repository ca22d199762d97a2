"""library: opening a repository for a command, signed with the identity git would use."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git

from gitcurator.errors import UsageError
from gitcurator.library import commit_signature, init_store, open_repo, open_store
from gitcurator.store import Identity, Signature


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """An empty git repository with no user.name or user.email configured."""
    git("init", "-q", str(tmp_path / "r"), cwd=tmp_path)
    return tmp_path / "r"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"GIT_COMMITTER_NAME": "C", "GIT_COMMITTER_EMAIL": "c@x", "GIT_AUTHOR_NAME": "A"},
            Identity("C", "c@x"),
        ),
        ({"GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@x"}, Identity("A", "a@x")),
        ({"GIT_AUTHOR_NAME": "A"}, Identity("A", "cfg@x")),
        ({}, Identity("Cfg", "cfg@x")),
    ],
    ids=["committer-first", "author", "mixed", "config"],
)
def test_identity_comes_from_git_variables_then_the_configuration(
    plain: Path, env: dict[str, str], expected: Identity
) -> None:
    git("config", "user.name", "Cfg", cwd=plain)
    git("config", "user.email", "cfg@x", cwd=plain)
    with open_store(plain) as store:
        assert commit_signature(store, env).identity == expected


def test_without_any_identity_gitcurator_signs_its_own_name(plain: Path) -> None:
    with open_store(plain) as store:
        found = commit_signature(store, {})
    assert found == Signature(Identity("gitcurator", "gitcurator@localhost"))


def test_dates_are_passed_on_as_given(plain: Path) -> None:
    env = {"GIT_AUTHOR_DATE": "@1 +0000", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    with open_store(plain) as store:
        found = commit_signature(store, env)
    assert (found.author_date, found.committer_date) == ("@1 +0000", "2026-01-01T00:00:00Z")


def test_every_way_of_opening_for_a_command_signs_the_store(
    plain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_AUTHOR_DATE", "@7 +0000")
    expected = Signature(Identity("Test Author", "author@example.com"), "@7 +0000", "")
    with open_store(plain) as store:
        assert store.signature == expected
    with open_repo(plain) as repo:
        assert repo.store.signature == expected
    store, created = init_store(tmp_path / "new")
    with store:
        assert created and store.signature == expected


def test_relpath_refuses_a_path_outside_the_repository(plain: Path, tmp_path: Path) -> None:
    with open_repo(plain) as repo, pytest.raises(UsageError, match="outside the repository"):
        repo.relpath(tmp_path)
