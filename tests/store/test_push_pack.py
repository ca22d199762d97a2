"""store.push_pack: a push sends what the remote lacks, as deltas git itself accepts."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from dulwich.object_format import DEFAULT_OBJECT_FORMAT
from dulwich.objects import Blob, Tree
from dulwich.pack import PackChunkGenerator
from support.git_daemon import git_daemon
from support.repos import git

from gitcurator.errors import StoreError
from gitcurator.store import ObjectID, Store, transport
from gitcurator.store.commits import make_commit
from gitcurator.store.notes import NOTES_REF, key_id, read_blobs, read_notes, write_notes
from gitcurator.store.objects import ObjectBatch
from gitcurator.store.push_pack import push_pack
from gitcurator.store.refs import move_ref
from gitcurator.store.remote import Remote

RECORDS = 2000


def _doc(name: str, uses: int) -> bytes:
    # Shaped like a record (the transport does not read it): mostly shared text, as records are.
    return (
        f'{{\n  "version": 1,\n  "skill": "{name}",\n  "hosts": {{\n    "h1": {{\n'
        f'      "use_count": {uses},\n      "last_used_at": "2026-01-01T00:00:00Z"\n    }}\n'
        "  }\n}\n"
    ).encode()


def _write(store: Store, uses: dict[str, int], message: str) -> ObjectID:
    records = {name: _doc(name, n) for name, n in uses.items()}
    return write_notes(store, read_notes(store), records, message)


def _pack_bytes(store: Store, haves: list[ObjectID], wants: list[ObjectID]) -> int:
    pack = push_pack(store.repo.object_store, haves, wants)
    records = pack.records(store.repo.object_store)
    return sum(
        len(c)
        for c in PackChunkGenerator(
            num_records=len(pack.objects), records=records, object_format=DEFAULT_OBJECT_FORMAT
        )
    )


@pytest.fixture
def served(tmp_path: Path, store: Store) -> Iterator[tuple[Path, str]]:
    """A bare clone of the library holding 2,000 notes (pushed by real git), served by a real
    `git daemon` with push enabled: (its folder, its URL)."""
    _write(store, {f"skill-{i:04d}": 1 for i in range(RECORDS)}, "first")
    folder = tmp_path / "served"
    folder.mkdir()
    bare = folder / "skills.git"
    git("clone", "-q", "--bare", str(store.root), str(bare), cwd=tmp_path)
    git("push", "-q", str(bare), NOTES_REF.decode(), cwd=store.root)
    with git_daemon(folder, push=True) as url:
        yield bare, f"{url}/skills.git"


def test_ten_changed_records_of_2000_send_far_less_than_the_notes_tree(
    served: tuple[Path, str], store: Store
) -> None:
    old = read_notes(store).commit
    assert old is not None
    new = _write(store, {f"skill-{i:04d}": 2 for i in range(0, RECORDS, RECORDS // 10)}, "ten")
    sent = _pack_bytes(store, [old], [new])
    whole = _pack_bytes(store, [], [new])
    trees = sum(len(store.repo[t].as_raw_string()) for t in _trees(store, new))
    # 10 blobs, 10 fan-out trees, the root tree and a commit: a few KB, where the trees of the
    # notes alone are over 100 KB and a pack of every object is larger still.
    assert sent < 6_000 < trees / 20, (sent, trees)
    assert sent < whole / 20


def test_a_delta_push_to_git_daemon_is_complete_and_read_by_git(
    served: tuple[Path, str], store: Store, tmp_path: Path
) -> None:
    bare, url = served
    old = read_notes(store).commit
    changed = {f"skill-{i:04d}": 7 for i in range(0, RECORDS, 7)}
    new = _write(store, changed, "many")
    conn = transport.Connection(store, Remote("origin", url), None)
    try:
        pushed = conn.push({NOTES_REF: (old, new)})
    finally:
        conn.close()
    assert pushed.updated == {NOTES_REF} and not pushed.refused
    assert pushed.objects < len(changed) * 2 + 300, "only what changed was sent"
    assert git("rev-parse", NOTES_REF.decode(), cwd=bare).stdout.strip() == new.decode()
    git("fsck", "--strict", "--no-dangling", cwd=bare)
    work = tmp_path / "reader"
    git("clone", "-q", url, str(work), cwd=tmp_path)
    git("fetch", "-q", "origin", f"{NOTES_REF.decode()}:{NOTES_REF.decode()}", cwd=work)
    shown = git("notes", "--ref", "gitcurator", "show", key_id("skill-0007"), cwd=work).stdout
    assert shown.encode() == _doc("skill-0007", 7)


def test_a_fetch_of_a_thin_pack_from_git_daemon_resolves(
    served: tuple[Path, str], store: Store, tmp_path: Path
) -> None:
    _bare, url = served
    # Another clone changes 50 records and pushes with real git; ours fetches what it lacks.
    other = tmp_path / "other"
    git("clone", "-q", url, str(other), cwd=tmp_path)
    git("fetch", "-q", "origin", f"{NOTES_REF.decode()}:{NOTES_REF.decode()}", cwd=other)
    for i in range(0, RECORDS, 40):
        git(
            "notes",
            "--ref",
            "gitcurator",
            "add",
            "-f",
            "-m",
            f"n{i}",
            key_id(f"skill-{i:04d}"),
            cwd=other,
        )
    git("push", "-q", "origin", NOTES_REF.decode(), cwd=other)
    conn = transport.Connection(store, Remote("origin", url), None)
    try:
        fetched = conn.fetch(lambda ref: ref == NOTES_REF)
    finally:
        conn.close()
    tip = fetched.refs[NOTES_REF]
    # A thin pack: far smaller than the notes (2,000 records, 1.4 MB packed), its bases
    # taken from what we had. git's own deltas vary run to run (20,220 bytes was seen).
    assert 0 < fetched.pack_bytes < 40_000
    side = b"refs/notes/gitcurator-remotes/check"
    store.repo.refs[side] = tip
    theirs = read_notes(store, side)
    assert len(theirs.notes) == RECORDS
    blobs = read_blobs(store, list(theirs.notes.values()))
    assert blobs[theirs.notes[key_id("skill-0040")]] == b"n40\n"
    git("fsck", "--strict", "--no-dangling", cwd=store.root)


def _trees(store: Store, commit_id: ObjectID) -> list[ObjectID]:
    found: list[ObjectID] = []
    todo = [store.repo[commit_id].tree]  # type: ignore[attr-defined]
    while todo:
        tree = store.repo[todo.pop()]
        found.append(tree.id)
        todo += [sha for _, mode, sha in tree.iteritems() if mode == 0o040000]  # type: ignore[attr-defined]
    return found


def test_a_submodule_that_became_a_file_is_pushed_whole_not_as_a_delta_on_its_commit(
    served: tuple[Path, str], store: Store
) -> None:
    # The parent's entry at the path is a gitlink: the id of a commit in another repository,
    # no base for the file's blob (absent here, and a delta on it would take its type).
    bare, url = served
    vendored = ObjectID(b"1" * 40)
    with_submodule, with_file = Tree(), Tree()
    with_submodule.add(b"vendored", 0o160000, vendored)
    readme = Blob.from_string(b"now a plain file\n")
    with_file.add(b"vendored", 0o100644, readme.id)
    first = make_commit(store, with_submodule.id, [], "a submodule\n")
    second = make_commit(store, with_file.id, [first.id], "a file where it was\n")
    batch = ObjectBatch()
    for obj in (with_submodule, with_file, readme, first, second):
        batch.add_object(obj)
    batch.store_in(store)
    store.repo.refs[b"refs/heads/vendoring"] = first.id
    git("push", "-q", str(bare), "refs/heads/vendoring", cwd=store.root)
    conn = transport.Connection(store, Remote("origin", url), None)
    try:
        pushed = conn.push({b"refs/heads/vendoring": (first.id, second.id)})
    finally:
        conn.close()
    assert pushed.updated == {b"refs/heads/vendoring"} and not pushed.refused
    git("fsck", "--strict", "--no-dangling", cwd=bare)
    shown = git("show", "refs/heads/vendoring:vendored", cwd=bare).stdout
    assert shown == "now a plain file\n"


def test_a_mode_change_sends_the_tree_but_not_the_blob_the_remote_has(store: Store) -> None:
    script = Blob.from_string(b"#!/bin/sh\necho hi\n")
    plain, executable = Tree(), Tree()
    plain.add(b"run.sh", 0o100644, script.id)
    executable.add(b"run.sh", 0o100755, script.id)
    first = make_commit(store, plain.id, [], "a script\n")
    second = make_commit(store, executable.id, [first.id], "made executable\n")
    batch = ObjectBatch()
    for obj in (script, plain, executable, first, second):
        batch.add_object(obj)
    batch.store_in(store)
    pack = push_pack(store.repo.object_store, [first.id], [second.id])
    assert set(pack.objects) == {second.id, executable.id}
    assert pack.objects[executable.id] == plain.id  # a delta against the remote's tree


def test_a_tree_entry_naming_a_blob_is_damage_named_not_a_crash(store: Store) -> None:
    blob = Blob.from_string(b"not a tree\n")
    tree = Tree()
    tree.add(b"folder", 0o040000, blob.id)
    commit = make_commit(store, tree.id, [], "damaged\n")
    batch = ObjectBatch()
    for obj in (blob, tree, commit):
        batch.add_object(obj)
    batch.store_in(store)
    with pytest.raises(StoreError, match=f"object {blob.id.decode()} is named as a tree"):
        push_pack(store.repo.object_store, [], [commit.id])


def _fixed_thin(bare: Path, data: bytes) -> tuple[int, int]:
    """(objects sent, objects indexed) once `git index-pack --fix-thin` stored `data` in
    `bare`: what it indexed beyond what was sent are the bases it had to append."""
    done = subprocess.run(
        ["git", "index-pack", "--stdin", "--fix-thin"],
        cwd=bare,
        input=data,
        capture_output=True,
        check=True,
    )
    name = done.stdout.decode().split()[-1]
    idx = (bare / "objects" / "pack" / f"pack-{name}.idx").read_bytes()
    listed = subprocess.run(["git", "show-index"], input=idx, capture_output=True, check=True)
    return int.from_bytes(data[8:12], "big"), len(listed.stdout.splitlines())


@pytest.mark.parametrize("ofs_delta", [True, False])
def test_a_merge_leans_on_its_unpushed_parent_sent_with_it(
    served: tuple[Path, str], store: Store, ofs_delta: bool
) -> None:
    # A sync's merge: parents the local commit X (not on the remote) and the remote's R2.
    bare, _ = served
    first = read_notes(store).commit
    assert first is not None
    theirs = [f"skill-{i:04d}" for i in range(0, RECORDS, 20)]
    ours = [f"skill-{i:04d}" for i in range(10, RECORDS, 20)]
    remote_tip = _write(store, dict.fromkeys(theirs, 2), "the remote's")
    git("push", "-q", str(bare), NOTES_REF.decode(), cwd=store.root)
    assert move_ref(store, NOTES_REF, remote_tip, first)
    local = _write(store, dict.fromkeys(ours, 3), "ours, not pushed")
    records = {name: _doc(name, 2) for name in theirs}
    merge = write_notes(store, read_notes(store), records, "merge", parents=[local, remote_tip])
    pack = push_pack(store.repo.object_store, [remote_tip], [merge])
    records_sent = pack.records(store.repo.object_store, ofs_delta)
    chunks = PackChunkGenerator(
        num_records=len(pack.objects), records=records_sent, object_format=DEFAULT_OBJECT_FORMAT
    )
    sent, indexed = _fixed_thin(bare, b"".join(chunks))
    # The remote appends a base for each delta against one of its own objects. The merge's
    # trees and records lean on X's, sent in the same pack, when the remote reads offset
    # deltas: then only X's objects need bases of the remote's (its records, fan-out folders
    # and root); else the merge's need them too.
    x_objects = len(ours) + len({key_id(n)[:2] for n in ours}) + 1
    appended = indexed - sent
    if ofs_delta:
        assert appended <= x_objects, (appended, x_objects)
    else:
        assert appended > x_objects, (appended, x_objects)
    git("fsck", "--strict", "--no-dangling", cwd=bare)


def test_an_edited_file_goes_as_a_delta_against_its_old_version(store: Store) -> None:
    # Unrelated blobs are sent before it (the window), and share nothing with it: its old
    # version, on the remote, is still tried and taken.
    text = "".join(f"line {i} of a skill file that someone edits\n" for i in range(100))
    old_blob = Blob.from_string(text.encode())
    new_blob = Blob.from_string((text + "one more line\n").encode())
    others = [Blob.from_string(f"unrelated {i} ".encode() * 40) for i in range(3)]
    before, after = Tree(), Tree()
    before.add(b"SKILL.md", 0o100644, old_blob.id)
    for i, other in enumerate(others):
        after.add(f"0{i}.md".encode(), 0o100644, other.id)  # before SKILL.md in a tree
    after.add(b"SKILL.md", 0o100644, new_blob.id)
    first = make_commit(store, before.id, [], "first\n")
    second = make_commit(store, after.id, [first.id], "edited\n")
    batch = ObjectBatch()
    for obj in (old_blob, new_blob, *others, before, after, first, second):
        batch.add_object(obj)
    batch.store_in(store)
    pack = push_pack(store.repo.object_store, [first.id], [second.id])
    sent = {r.sha(): r for r in pack.records(store.repo.object_store, True)}
    edited = sent[bytes.fromhex(new_blob.id.decode())]
    assert edited.delta_base == bytes.fromhex(old_blob.id.decode())
    assert edited.decomp_len < 100
