"""store.pack_writer: new objects as one pack git reads and fsck accepts."""

from __future__ import annotations

from pathlib import Path

import pytest
from dulwich.objects import Blob, Tree
from support.read_only import refuse_opening_in
from support.repos import git, note_key, run_cli

from gitcurator.store import Store
from gitcurator.store.pack_writer import write_pack


def test_a_written_pack_is_read_by_git_and_dulwich(lib: Path, store: Store) -> None:
    small, large = Blob.from_string(b"hello\n"), Blob.from_string(bytes(range(256)) * 4000)
    tree = Tree()
    tree.add(b"a.txt", 0o100644, small.id)
    tree.add(b"b.bin", 0o100644, large.id)
    write_pack(store, [small, large, tree])
    assert store.repo.object_store[large.id].as_raw_string() == large.as_raw_string()
    assert git("cat-file", "-p", small.id.decode(), cwd=lib).stdout == "hello\n"
    assert git("cat-file", "-t", tree.id.decode(), cwd=lib).stdout.strip() == "tree"
    assert git("fsck", "--strict", cwd=lib).returncode == 0
    packs = list((lib / ".git" / "objects" / "pack").iterdir())
    assert sorted(p.suffix for p in packs if p.stem == packs[0].stem) == [".idx", ".pack"]
    assert not [p for p in packs if p.name.startswith("tmp_")]


def test_no_objects_write_no_pack(lib: Path, store: Store) -> None:
    before = sorted((lib / ".git" / "objects").rglob("*"))
    write_pack(store, [])
    assert sorted((lib / ".git" / "objects").rglob("*")) == before


def test_a_read_only_pack_folder_is_a_clear_error_and_loses_no_event(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_cli("record", "use", "pdf-extract", cwd=repo).code == 0
    pack_dir = repo / ".git" / "objects" / "pack"
    with monkeypatch.context() as refused:
        refuse_opening_in(refused, pack_dir)
        result = run_cli("flush", cwd=repo)
    assert result.code == 1, result.err
    assert str(pack_dir) in result.err and "Traceback" not in result.err
    assert not [p for p in pack_dir.iterdir() if p.name.startswith("tmp_")]
    assert run_cli("flush", cwd=repo).code == 0, "the event waited for a writable store"
    key = note_key(repo, "pdf-extract")
    assert '"use_count": 1' in git("notes", "--ref=gitcurator", "show", key, cwd=repo).stdout
