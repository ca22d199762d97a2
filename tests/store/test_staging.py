"""store.staging: the work tree committed on the checked-out branch as `git add` + `commit` do."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.repos import git, write_skill
from support.stores import rev

from gitcurator.errors import StoreError
from gitcurator.store import Store, staging


def _clean(lib: Path) -> bool:
    return git("status", "--porcelain", cwd=lib).stdout == ""


def test_a_scan_commits_what_git_add_all_would(lib: Path, store: Store) -> None:
    write_skill(lib, "delta")
    (lib / "alpha" / "SKILL.md").unlink()
    (lib / "beta" / "run.sh").write_text("#!/bin/sh\n")
    (lib / "beta" / "run.sh").chmod(0o755)
    scan = staging.scan_worktree(store)
    (lib / "late.md").write_text("written after the scan\n")
    scan.add(str(lib / "late.md"), "late.md")
    checked = staging.scan_tree(scan)
    assert checked.load("beta/run.sh").executable
    parent = rev(lib, "HEAD")
    made = staging.commit_scan(store, scan, "scan")
    assert rev(lib, "HEAD") == made and rev(lib, "HEAD~1") == parent
    assert _clean(lib)
    git("add", "-A", cwd=lib)
    assert (
        git("write-tree", cwd=lib).stdout.strip()
        == git("rev-parse", "HEAD^{tree}", cwd=lib).stdout.strip()
    )


def test_changes_under_folders_are_committed_and_nothing_else(lib: Path, store: Store) -> None:
    (lib / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: d\n---\nnew\n")
    (lib / "beta" / "references" / "notes.md").unlink()
    (lib / "devops" / "gamma" / "SKILL.md").write_text("not part of this commit\n")
    changes = staging.worktree_changes(store, {"alpha", "beta"})
    assert changes.paths == ["alpha/SKILL.md", "beta/references/notes.md"]
    staging.commit_changes(store, changes, "alpha and beta")
    status = git("status", "--porcelain", cwd=lib).stdout
    assert status == " M devops/gamma/SKILL.md\n"
    assert staging.worktree_changes(store, {"alpha", "beta"}).paths == []


def test_a_new_file_is_written_and_committed_alone(lib: Path, store: Store) -> None:
    (lib / "alpha" / "SKILL.md").write_text("an edit that stays uncommitted\n")
    staging.commit_new_file(store, ".curator/config.yml", b"x: 1\n", "add config")
    assert (lib / ".curator" / "config.yml").read_bytes() == b"x: 1\n"
    assert git("status", "--porcelain", cwd=lib).stdout == " M alpha/SKILL.md\n"
    assert git("show", "--name-only", "--format=", "HEAD", cwd=lib).stdout.split() == [
        ".curator/config.yml"
    ]


def test_the_branch_moving_meanwhile_is_refused(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = rev(lib, "HEAD")
    monkeypatch.setattr(staging, "move_ref", lambda *args, **kwargs: False)
    with pytest.raises(StoreError, match="the branch moved while gitcurator was committing"):
        staging.commit_new_file(store, "x.md", b"x\n", "x")
    assert rev(lib, "HEAD") == before


@pytest.mark.parametrize("reader_fails", [False, True])
def test_a_scan_read_on_two_cores_is_the_scan_read_on_one(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch, reader_fails: bool
) -> None:
    (lib / "beta" / "run.sh").write_text("#!/bin/sh\n")
    (lib / "beta" / "run.sh").chmod(0o755)
    (lib / "beta" / "link").symlink_to("run.sh")
    alone = staging.scan_worktree(store)
    monkeypatch.setattr(staging, "_SHARED_ABOVE", 0)
    monkeypatch.setattr(staging.os, "cpu_count", lambda: 2)
    if reader_fails:  # what the child staged cannot come back: this process reads its share
        monkeypatch.setattr(staging.pickle, "dumps", lambda *args: 1 / 0)
    shared = staging.scan_worktree(store)
    assert [(f.path, f.mode, f.sha) for f in shared.files] == [
        (f.path, f.mode, f.sha) for f in alone.files
    ]
    assert shared.blobs == alone.blobs and len(alone.files) > 4
    assert [f.stat.st_ino for f in shared.files] == [f.stat.st_ino for f in alone.files]


def test_a_file_that_grows_while_it_is_read_is_read_to_its_end(tmp_path: Path) -> None:
    path = tmp_path / "grows"
    path.write_bytes(b"x" * 10)
    path.write_bytes(b"y" * 100_000)  # larger than the size the stat said
    assert staging._read_all(str(path), 10) == b"y" * 100_000
    assert staging._read_all(str(path), 100_000) == b"y" * 100_000
    assert staging._read_all(str(path), 200_000) == b"y" * 100_000


def test_a_read_that_stops_short_is_read_on_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Linux gives at most 2 GiB - 4 KiB a read (FUSE and network file systems less): a file
    # of 2.2 GB was committed cut at 2,147,479,552 bytes, and git said nothing.
    path = tmp_path / "big"
    path.write_bytes(bytes(range(256)) * 40)
    real_read = staging.os.read
    monkeypatch.setattr(staging.os, "read", lambda fd, n: real_read(fd, min(n, 7)))
    assert staging._read_all(str(path), 256 * 40) == bytes(range(256)) * 40


def test_a_file_gone_or_made_a_link_before_its_read_is_named(tmp_path: Path) -> None:
    gone, link = tmp_path / "gone", tmp_path / "link"
    link.symlink_to("elsewhere")
    for path in (gone, link):
        with pytest.raises(StoreError, match=f"cannot read {path}.*changed while"):
            staging._read_all(str(path), 10)


def test_a_second_reader_leaves_large_files_to_this_process(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    (lib / "beta" / "large.bin").write_bytes(b"z" * (staging._HANDED_UP_TO + 1))
    found = list(staging.walk_worktree(store))
    large = {rel for full, rel in found[::2] if Path(full).stat().st_size > staging._HANDED_UP_TO}
    if not large:  # the walk's order put it in this process's half: move it to the other's
        (lib / "beta" / "large.bin").write_bytes(b"z")
        (lib / "alpha" / "SKILL.md").write_bytes(b"z" * (staging._HANDED_UP_TO + 1))
        large = {
            rel for full, rel in found[::2] if Path(full).stat().st_size > staging._HANDED_UP_TO
        }
    assert large
    alone = staging.scan_worktree(store)
    monkeypatch.setattr(staging, "_SHARED_ABOVE", 0)
    monkeypatch.setattr(staging.os, "cpu_count", lambda: 2)
    handed: list[object] = []
    real = staging._unpickled
    monkeypatch.setattr(staging, "_unpickled", lambda data: handed.append(real(data)) or real(data))
    shared = staging.scan_worktree(store)
    assert shared.blobs == alone.blobs
    (result,) = handed
    assert result is not None
    small, left = result
    assert {rel for _full, rel in left} == large
    assert all(len(data) <= staging._HANDED_UP_TO for _f, data in small)
