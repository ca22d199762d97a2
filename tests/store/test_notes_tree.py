"""store.notes_tree: the notes tree edited where notes change is the tree a full rebuild
writes, git reads it, and a writer that lost the race still changes nothing."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.repos import git

from gitcurator.errors import StoreError
from gitcurator.store import Store, notes
from gitcurator.store.objects import ObjectBatch
from gitcurator.store.pack_writer import LOOSE_BELOW

POOL = [f"skill-{i:03d}" for i in range(400)]


def _doc(name: str, n: int) -> bytes:
    return b'{"skill": "%s", "n": %d}\n' % (name.encode(), n)


def _rebuilt_tree(store: Store, records: dict[str, bytes]) -> bytes:
    """The tree the full rebuild makes from the ref's notes with `records` set."""
    return notes._rebuilt(notes.read_notes(store), records, None, ObjectBatch())


def _tree_of(store: Store, commit: bytes) -> bytes:
    return bytes(store.repo[commit].tree)  # type: ignore[attr-defined]


@pytest.mark.parametrize("start", [0, 40, 250, 300])
def test_edited_notes_are_the_tree_a_rebuild_writes(lib: Path, store: Store, start: int) -> None:
    rng = random.Random(start)
    if start:
        first = {n: _doc(n, 0) for n in POOL[:start]}
        notes.write_notes(store, notes.read_notes(store), first, "seed\n")
    for round_ in range(4):
        # replaced notes, new ones, unchanged ones (same bytes again)
        names = rng.sample(POOL[: start + 20], 15) + rng.sample(POOL, 3)
        records = {n: _doc(n, rng.randrange(3)) for n in names}
        expected = _rebuilt_tree(store, records)
        commit = notes.write_notes(store, notes.notes_tip(store), records, f"round {round_}\n")
        assert _tree_of(store, commit) == expected, round_
    fsck = git("fsck", "--strict", cwd=lib)
    assert fsck.returncode == 0, fsck.stderr
    for name in records:
        shown = git("notes", "--ref=gitcurator", "show", notes.key_id(name), cwd=lib).stdout
        assert shown.encode() == records[name]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.dictionaries(st.sampled_from(POOL), st.integers(0, 2), min_size=1, max_size=40),
        min_size=1,
        max_size=4,
    )
)
def test_any_sequence_of_edits_matches_the_rebuild(
    tmp_path_factory: pytest.TempPathFactory, rounds: list[dict[str, int]]
) -> None:
    from support.stores import make_library

    from gitcurator.library import open_store

    lib = make_library(tmp_path_factory.mktemp("lib") / "lib")
    with open_store(lib) as store:
        for i, round_ in enumerate(rounds):
            records = {n: _doc(n, v) for n, v in round_.items()}
            expected = _rebuilt_tree(store, records)
            commit = notes.write_notes(store, notes.notes_tip(store), records, f"r{i}\n")
            assert _tree_of(store, commit) == expected


def test_a_tree_git_wrote_is_rebuilt_not_edited(lib: Path, store: Store) -> None:
    # git's own notes (plain `git notes add`) on two commits: not our layout (no skills/).
    git("notes", "--ref=gitcurator", "add", "-m", "by git", "HEAD", cwd=lib)
    expected = _rebuilt_tree(store, {"alpha": b"{}\n"})
    commit = notes.write_notes(store, notes.notes_tip(store), {"alpha": b"{}\n"}, "ours\n")
    assert _tree_of(store, commit) == expected
    head = git("rev-parse", "HEAD", cwd=lib).stdout.strip()
    assert git("notes", "--ref=gitcurator", "show", head, cwd=lib).stdout == "by git\n"


def test_crossing_the_fan_out_threshold_rebuilds_the_tree(lib: Path, store: Store) -> None:
    notes.write_notes(store, notes.read_notes(store), {n: b"{}\n" for n in POOL[:250]}, "a\n")
    records = {n: b"{}\n" for n in POOL[250:270]}
    expected = _rebuilt_tree(store, records)
    commit = notes.write_notes(store, notes.notes_tip(store), records, "b\n")
    assert _tree_of(store, commit) == expected
    root = store.repo[_tree_of(store, commit)]
    assert all(len(e.path) in (2, 6) for e in root.iteritems()), "fanned out (and skills/)"


def test_an_edit_that_lost_the_race_changes_nothing(lib: Path, store: Store) -> None:
    notes.write_notes(store, notes.read_notes(store), {"alpha": b"{}\n"}, "one\n")
    stale = notes.notes_tip(store)
    winner = notes.write_notes(store, notes.notes_tip(store), {"beta": b"{}\n"}, "two\n")
    with pytest.raises(StoreError, match="moved while gitcurator was writing it"):
        notes.write_notes(store, stale, {"gamma": b"{}\n"}, "three\n")
    assert notes.notes_commit(store) == winner
    assert set(notes.read_notes(store).keys) == {"alpha", "beta"}


def test_a_rebuild_from_a_stale_tip_is_refused_too(lib: Path, store: Store) -> None:
    notes.write_notes(store, notes.read_notes(store), {"alpha": b"{}\n"}, "one\n")
    stale = notes.notes_tip(store)
    winner = notes.write_notes(store, notes.notes_tip(store), {"beta": b"{}\n"}, "two\n")
    with pytest.raises(StoreError, match="moved while gitcurator was writing it"):
        notes.write_notes(store, stale, {"g": b"{}\n"}, "x\n", keep={b"unreadable/x": b"0" * 40})
    assert notes.notes_commit(store) == winner


def test_the_pack_a_write_leaves_is_read_by_git(lib: Path, store: Store) -> None:
    # Enough notes for a pack of their own (a few go loose: store/pack_writer.LOOSE_BELOW).
    many = {n: _doc(n, 0) for n in POOL[:LOOSE_BELOW]}
    notes.write_notes(store, notes.read_notes(store), many, "one\n")
    packs = list((lib / ".git" / "objects" / "pack").glob("*.pack"))
    assert packs and not list((lib / ".git" / "objects" / "pack").glob("tmp_pack_*"))
    done = subprocess.run(
        ["git", "verify-pack", "-v", str(packs[-1])], cwd=lib, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_a_note_in_a_new_fan_out_folder_is_an_edit_not_a_rebuild(
    lib: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes.write_notes(store, notes.read_notes(store), {n: _doc(n, 0) for n in POOL[:300]}, "s\n")
    folders = {a[:2] for a in notes.read_notes(store).notes}
    name = next(f"new-{i}" for i in range(5000) if notes.key_id(f"new-{i}")[:2] not in folders)
    expected = _rebuilt_tree(store, {name: _doc(name, 1)})

    def no_rebuild(*args: object) -> object:
        raise AssertionError("the whole notes tree was read to add one note")

    monkeypatch.setattr(notes, "read_notes", no_rebuild)
    commit = notes.write_notes(store, notes.notes_tip(store), {name: _doc(name, 1)}, "new\n")
    assert _tree_of(store, commit) == expected
    assert git("fsck", "--strict", cwd=lib).returncode == 0
