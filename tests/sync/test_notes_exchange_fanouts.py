"""sync with a remote whose notes tree real git wrote (its own fan-out, foreign notes, a
rewound ref): the merge read from one tree diff is the merge read from both trees whole, and
the bare remote passes `git fsck --strict`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.git_daemon import git_daemon
from support.remotes import NOTES, T1, T2, clone, make_remote, record, sync, usage
from support.repos import git, note_key, run_cli

from gitcurator.sync import notes_exchange


def _foreign_notes(repo: Path, count: int) -> dict[str, str]:
    """`count` notes on blobs, added by real git (its fan-out): object -> text."""
    added = {}
    for i in range(count):
        (repo / ".git" / "blob").write_text(f"b{i}\n")
        blob = git("hash-object", "-w", ".git/blob", cwd=repo).stdout.strip()
        added[blob] = f"foreign {i}"
        git("notes", "--ref=gitcurator", "add", "-f", "-m", added[blob], blob, cwd=repo)
    return added


def _tree(repo: Path) -> str:
    return git("rev-parse", f"{NOTES}^{{tree}}", cwd=repo).stdout.strip()


@pytest.mark.parametrize(("foreign", "removed"), [(40, False), (300, False), (300, True)])
def test_a_merge_over_git_fanned_notes_is_the_whole_read_merge(
    tmp_path: Path, foreign: int, removed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    bare = make_remote(tmp_path)
    a = clone(bare, tmp_path / "a")
    b = clone(bare, tmp_path / "b")
    record(a, "x", 2, T1)
    assert sync(a).code == 0
    assert sync(b).code == 0
    added = _foreign_notes(b, foreign)
    if removed:  # a record deleted on one side, by plain git
        git("notes", "--ref=gitcurator", "remove", note_key(b, "x"), cwd=b)
    record(b, "y", 1, T1)
    assert sync(b).code == 0
    record(a, "x", 1, T2)
    record(a, "z", 1, T2)
    assert run_flush(a)
    # The same merge, read whole: a copy of both sides where notes_diff answers "odd tree".
    copies = tmp_path / "copies"
    shutil.copytree(tmp_path / "a", copies / "a", symlinks=True)
    shutil.copytree(bare, copies / "remote.git", symlinks=True)
    git("remote", "set-url", "origin", str(copies / "remote.git"), cwd=copies / "a")
    diffs: list[object] = []
    real_diff = notes_exchange.notes_diff
    with monkeypatch.context() as spied:
        spied.setattr(
            notes_exchange, "notes_diff", lambda *a: diffs.append(real_diff(*a)) or diffs[-1]
        )
        assert sync(a).code == 0
    assert any(d is not None for d in diffs), "the merge was read from the tree diff"
    with monkeypatch.context() as whole:
        whole.setattr(notes_exchange, "notes_diff", lambda *args: None)
        assert sync(copies / "a").code == 0
    assert _tree(a) == _tree(copies / "a")
    assert usage(a) == usage(copies / "a")
    # A note removed on one side is no loss of the other's: the merge keeps the record.
    assert usage(a)["x"][0] == 3 and usage(a)["y"][0] == 1
    for repo in (bare, a):
        fsck = git("fsck", "--strict", cwd=repo, check=False)
        assert fsck.returncode == 0, fsck.stderr
    for blob, text in list(added.items())[:5]:
        assert git("notes", "--ref=gitcurator", "show", blob, cwd=a).stdout.strip() == text


def run_flush(repo: Path) -> bool:
    """`gitcurator flush` in `repo` succeeded."""
    return run_cli("flush", "-C", str(repo)).code == 0


def test_a_push_after_the_remote_notes_ref_was_rewound_is_complete(tmp_path: Path) -> None:
    bare = make_remote(tmp_path)
    a = clone(bare, tmp_path / "a")
    record(a, "x", 1, T1)
    assert sync(a).code == 0
    old = git("rev-parse", NOTES, cwd=bare).stdout.strip()
    record(a, "y", 1, T1)
    assert sync(a).code == 0
    record(a, "z", 1, T2)
    assert run_flush(a)
    git("update-ref", NOTES, old, cwd=bare)  # someone rewound the remote's notes
    served = tmp_path / "served"
    served.mkdir()
    shutil.move(bare, served / "remote.git")
    with git_daemon(served, push=True) as url:
        git("remote", "set-url", "origin", f"{url}/remote.git", cwd=a)
        assert sync(a).code == 0
        fsck = git("fsck", "--strict", cwd=served / "remote.git", check=False)
        assert fsck.returncode == 0, fsck.stderr
        reader = clone(f"{url}/remote.git", tmp_path / "reader")
        git("fetch", "-q", "origin", f"{NOTES}:{NOTES}", cwd=reader)
    assert usage(reader) == usage(a)
    assert {n: u[0] for n, u in usage(reader).items()} == {"x": 1, "y": 1, "z": 1}
