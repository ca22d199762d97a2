"""store.loose_reader: a damaged loose object is named (exit 1), never read as other bytes."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from support.repos import git, run_cli

from gitcurator.errors import StoreError
from gitcurator.store import Store

DATA = b"---\nname: kept\ndescription: Use when a test needs a blob of its own.\n---\n"


def _loose_blob(lib: Path, data: bytes) -> tuple[bytes, Path]:
    source = lib.parent / "data.txt"
    source.write_bytes(data)
    sha = git("hash-object", "-w", str(source), cwd=lib).stdout.strip()
    return sha.encode(), lib / ".git" / "objects" / sha[:2] / sha[2:]


def _damaged(damage: str, data: bytes) -> bytes:
    whole = zlib.compress(b"blob %d\0" % len(data) + data)
    if damage == "cut-short":  # a full disk, a copy killed midway
        return whole[: len(whole) // 2]
    if damage == "runs-on":
        return whole + b"more"
    if damage == "size-differs":
        return zlib.compress(b"blob %d\0" % (len(data) + 5) + data)
    if damage == "no-header":
        return zlib.compress(data)
    flipped = bytearray(whole)  # "does-not-inflate"
    flipped[len(flipped) // 2] ^= 0xFF
    return bytes(flipped)


@pytest.mark.parametrize(
    "damage", ["cut-short", "runs-on", "size-differs", "no-header", "does-not-inflate"]
)
def test_a_damaged_loose_object_is_named_not_read(lib: Path, store: Store, damage: str) -> None:
    sha, path = _loose_blob(lib, DATA)
    assert store.read_blob(sha) == DATA
    path.chmod(0o644)
    path.write_bytes(_damaged(damage, DATA))
    with pytest.raises(StoreError, match=f"object {sha.decode()} is damaged") as raised:
        store.read_blob(sha)
    assert str(path) in str(raised.value) and "git fsck" in str(raised.value)


def test_sound_loose_objects_of_every_kind_read_as_dulwich_reads_them(
    lib: Path, store: Store
) -> None:
    sha, _ = _loose_blob(lib, DATA)
    tree = git("write-tree", cwd=lib).stdout.strip().encode()
    commit = git("commit-tree", "-m", "x", tree.decode(), cwd=lib).stdout.strip().encode()
    assert store.read_blob(sha) == DATA
    assert store.repo[tree].type_name == b"tree" and store.repo[tree].id == tree
    assert store.repo[commit].type_name == b"commit" and store.repo[commit].id == commit
    assert store.repo.object_store.get_raw(sha) == (3, DATA)


def test_restoring_a_skill_whose_blob_is_cut_short_writes_no_part_of_it(repo: Path) -> None:
    """dulwich read a loose file cut short as the start of its blob: restore wrote that start
    into the worktree as the skill's SKILL.md, for the next commit to keep."""
    skill_md = repo / "pdf-extract" / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nA line of its own.\n")
    git("commit", "-qam", "edit", "--no-verify", cwd=repo)
    assert run_cli("archive", "pdf-extract", "-C", str(repo)).code == 0
    sha = git("rev-parse", "HEAD:.archive/pdf-extract/SKILL.md", cwd=repo).stdout.strip()
    loose = repo / ".git" / "objects" / sha[:2] / sha[2:]
    loose.chmod(0o644)
    loose.write_bytes(loose.read_bytes()[:-8])
    head = git("rev-parse", "HEAD", cwd=repo).stdout
    archived = repo / ".archive" / "pdf-extract" / "SKILL.md"
    kept = archived.read_bytes()
    done = run_cli("restore", "pdf-extract", "-C", str(repo))
    assert done.code == 1, done
    assert f"object {sha} is damaged" in done.err
    assert not skill_md.exists()
    assert git("rev-parse", "HEAD", cwd=repo).stdout == head
    # The work tree's copy, now the only sound one, is still there: the new files are all
    # read before any old one is removed.
    assert archived.read_bytes() == kept


def test_a_loose_object_over_the_size_bound_is_named_as_too_big_not_damaged(
    lib: Path, store: Store
) -> None:
    sha, _ = _loose_blob(lib, DATA)
    store.repo.object_store.loose_object_size_limit = 10
    with pytest.raises(StoreError, match=f"object {sha.decode()} is over 10 bytes") as raised:
        store.read_blob(sha)
    assert "damaged" not in str(raised.value) and "git repack" in str(raised.value)
