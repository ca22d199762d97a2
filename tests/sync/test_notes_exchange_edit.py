"""sync's merge of diverged notes written as an edit of the local notes tree: our notes are not
read whole, and the tree is the one the merge read whole writes (also when a version is kept
aside under unreadable/, which takes the whole-tree path)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.remotes import NOTES, clone, make_remote, sync, usage
from support.repos import git, mktree

from gitcurator.library import open_store
from gitcurator.store import notes
from gitcurator.sync import notes_exchange
from gitcurator.telemetry.ledger import encode_record
from gitcurator.telemetry.records import HostCounters, UsageRecord

SKILLS = [f"s{i:03d}" for i in range(300)]  # past the fan-out threshold


def _write(repo: Path, host: str, uses: int, names: list[str], odd: str | None = None) -> None:
    """Records of `names` with `uses` uses on `host`, as one notes commit (`odd`: not JSON)."""
    docs = {
        n: encode_record(
            UsageRecord(n, hosts={host: HostCounters(uses, 0, "2026-01-01T10:00:00Z")})
        )
        for n in names
    }
    if odd is not None:
        docs[odd] = b"not json\n"
    with open_store(repo) as store:
        notes.write_notes(store, notes.notes_tip(store), docs, f"{host} {uses}\n")


def _tree(repo: Path) -> str:
    return git("rev-parse", f"{NOTES}^{{tree}}", cwd=repo).stdout.strip()


@pytest.mark.parametrize("unreadable", [False, True])
def test_a_diverged_merge_is_an_edit_equal_to_the_whole_read_merge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unreadable: bool
) -> None:
    bare = make_remote(tmp_path)
    a, b = clone(bare, tmp_path / "a"), clone(bare, tmp_path / "b")
    _write(a, "ha", 1, SKILLS)
    assert sync(a).code == 0
    assert sync(b).code == 0
    _write(a, "ha", 2, [*SKILLS[:50], "new-a1", "new-a2"])
    _write(b, "hb", 1, [*SKILLS[25:75], "new-b1"], odd=SKILLS[3] if unreadable else None)
    assert sync(b).code == 0
    copies = tmp_path / "copies"
    shutil.copytree(a, copies / "a", symlinks=True)
    shutil.copytree(bare, copies / "remote.git", symlinks=True)
    git("remote", "set-url", "origin", str(copies / "remote.git"), cwd=copies / "a")

    def whole_read(*args: object) -> object:
        raise AssertionError("our notes were read whole")

    with monkeypatch.context() as edit:
        if not unreadable:
            edit.setattr(notes_exchange, "read_notes", whole_read)
            edit.setattr(notes, "read_notes", whole_read)  # the rebuild write_notes falls to
        assert sync(a).code == 0
    with monkeypatch.context() as whole:
        whole.setattr(notes_exchange, "notes_diff", lambda *args: None)
        assert sync(copies / "a").code == 0
    assert _tree(a) == _tree(copies / "a")
    assert usage(a) == usage(copies / "a")
    assert usage(a)["s030"][0] == 3 and usage(a)["s060"][0] == 2 and usage(a)["s100"][0] == 1
    assert {"new-a1", "new-b1"} <= set(usage(a))
    for repo in (a, bare):
        fsck = git("fsck", "--strict", cwd=repo, check=False)
        assert fsck.returncode == 0, fsck.stderr
    parents = git("rev-list", "--parents", "-n1", NOTES, cwd=a).stdout.split()
    assert len(parents) == 3, "one merge commit, local tip first"


def _fan_out(repo: Path) -> None:
    """Lay the notes tip's notes out in fan-out folders, as plain `git notes` does past about
    100 notes, in a commit on top (the same notes and keys)."""
    listed = git("ls-tree", NOTES, cwd=repo).stdout.splitlines()
    folders: dict[str, list[str]] = {}
    root = []
    for line in listed:
        info, name = line.split("\t")
        if len(name) == 40:
            folders.setdefault(name[:2], []).append(f"{info}\t{name[2:]}")
        else:
            root.append(line)
    for folder, entries in folders.items():
        made = mktree(repo, entries)
        root.append(f"040000 tree {made}\t{folder}")
    tree = mktree(repo, root)
    commit = git("commit-tree", tree, "-p", NOTES, "-m", "fanned out by hand", cwd=repo)
    git("update-ref", NOTES, commit.stdout.strip(), cwd=repo)


def test_a_small_fanned_out_tree_is_merged_flat_as_the_whole_read_merge_lays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An edit keeps a fan-out; 150 notes are laid out flat by the whole-tree merge (git's
    # limit is 256), so the edit must not be taken for them.
    few = SKILLS[:150]
    bare = make_remote(tmp_path)
    a, b = clone(bare, tmp_path / "a"), clone(bare, tmp_path / "b")
    _write(a, "ha", 1, few)
    assert sync(a).code == 0 and sync(b).code == 0
    _write(a, "ha", 2, few[:20])
    _write(b, "hb", 1, few[10:30])
    assert sync(b).code == 0
    _fan_out(a)
    copies = tmp_path / "copies"
    shutil.copytree(a, copies / "a", symlinks=True)
    shutil.copytree(bare, copies / "remote.git", symlinks=True)
    git("remote", "set-url", "origin", str(copies / "remote.git"), cwd=copies / "a")
    assert sync(a).code == 0
    with monkeypatch.context() as whole:
        whole.setattr(notes_exchange, "notes_diff", lambda *args: None)
        assert sync(copies / "a").code == 0
    assert _tree(a) == _tree(copies / "a")
    assert not [
        n for n in git("ls-tree", "--name-only", NOTES, cwd=a).stdout.split() if len(n) == 2
    ]
