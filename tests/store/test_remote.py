"""store.remote: a remote named as the user names it, resolved to one Remote."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git

from gitcurator.errors import CuratorError
from gitcurator.store import Store, remote


def test_a_configured_name_a_url_and_a_path_all_resolve(
    lib: Path, store: Store, tmp_path: Path
) -> None:
    other = tmp_path / "other.git"
    git("init", "-q", "--bare", str(other), cwd=tmp_path)
    git("remote", "add", "origin", "../other.git", cwd=lib)
    assert remote.configured_remotes(store) == {"origin": "../other.git"}
    by_name = remote.resolve_remote(store, "origin")
    assert by_name == remote.Remote("origin", str(other)), "relative to the work tree"
    assert remote.resolve_remote(store, str(other)) == by_name, "the same remote by its path"
    assert remote.resolve_remote(store, f"file://{other}") == by_name
    elsewhere = remote.resolve_remote(store, "https://example.com/skills.git")
    assert elsewhere == remote.Remote(
        "https://example.com/skills.git", "https://example.com/skills.git"
    )


def test_an_unknown_remote_lists_the_configured_ones(lib: Path, store: Store) -> None:
    git("remote", "add", "origin", "https://example.com/a.git", cwd=lib)
    with pytest.raises(CuratorError, match=r"no remote named 'nope' \(remotes: origin\)"):
        remote.resolve_remote(store, "nope")


def test_side_refs_and_what_messages_show() -> None:
    named = remote.Remote("origin", "https://bob:secret@example.com/a.git")
    assert named.side_ref == b"refs/notes/gitcurator-remotes/origin"
    assert named.branch_mirror == b"refs/gitcurator-remotes/origin/"
    assert named.location == "https://bob:***@example.com/a.git"
    assert named.shown == "origin (https://bob:***@example.com/a.git)"
    by_url = remote.Remote("https://example.com/a.git", "https://example.com/a.git")
    assert by_url.side_ref.startswith(b"refs/notes/gitcurator-remotes/url-")
    assert by_url.shown == "https://example.com/a.git"
