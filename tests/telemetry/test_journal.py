"""journal.py: appending, rotating to segments and reading events, with racing writers."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from gitcurator.errors import StateFileError
from gitcurator.statefiles import JOURNAL, SEGMENTS
from gitcurator.telemetry import journal
from gitcurator.telemetry.events import Event, event_line, parse_line


def _append(state: Path, kind: str, *names: str, at: str = "2026-01-01T00:00:00Z") -> None:
    journal.append(state, event_line(kind, list(names), at, "host-1"))


def test_append_then_read_events(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _append(state, "use", "a")
    _append(state, "view", "b", "c", at="2026-02-01T00:00:00Z")
    events, problems = journal.read_events(state / JOURNAL)
    assert events == [
        Event("use", ("a",), "2026-01-01T00:00:00Z", "host-1"),
        Event("view", ("b", "c"), "2026-02-01T00:00:00Z", "host-1"),
    ]
    assert problems == []


def test_read_events_of_a_missing_file_is_empty(tmp_path: Path) -> None:
    assert journal.read_events(tmp_path / "nothing.jsonl") == ([], [])


def test_a_partial_last_line_is_left_for_the_next_read(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _append(state, "use", "a")
    line = event_line("use", ["b"], "2026-01-01T00:00:00Z", "host-1")
    with (state / JOURNAL).open("ab") as f:
        f.write(line[:10])  # a writer caught halfway
    events, problems = journal.read_events(state / JOURNAL)
    assert [e.names for e in events] == [("a",)]
    assert problems == [], "a line still being written is not a problem"
    with (state / JOURNAL).open("ab") as f:
        f.write(line[10:])
    events, problems = journal.read_events(state / JOURNAL)
    assert [e.names for e in events] == [("a",), ("b",)]


@pytest.mark.parametrize(
    "bad",
    [
        b"{not json",
        b'{"v":1,"k":"use"}',  # fields missing
        b'"just a string"',
        b"\xff\xfe",
        # well-formed JSON that could never become a valid record
        b'{"v":1,"k":"patch","t":"2026-01-01T00:00:00Z","h":"h","n":["a"]}',
        b'{"v":1,"k":"use","t":"yesterday","h":"h","n":["a"]}',
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"bad host!","n":["a"]}',
        # a path: never a skill's name
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":["a/b"]}',
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":"abc"}',
        b'{"v":1,"k":"use","t":"2026-01-01T00:00:00Z","h":"h","n":[7]}',
    ],
)
def test_a_corrupt_line_is_reported_with_its_place_and_the_rest_still_read(
    tmp_path: Path, bad: bytes
) -> None:
    state = tmp_path / "state"
    _append(state, "use", "a")
    with (state / JOURNAL).open("ab") as f:
        f.write(bad + b"\n")
    _append(state, "use", "b")
    events, problems = journal.read_events(state / JOURNAL)
    assert [e.names for e in events] == [("a",), ("b",)]
    assert problems == [f"{JOURNAL}:2: unreadable journal line skipped"]


@pytest.mark.parametrize(
    "torn", [b'{"v":1,"k":"use"', b"\x00\x00\x00", b'{"v":1,"k":"use","t":"2026-0']
)
def test_an_event_appended_after_a_torn_line_is_not_lost(tmp_path: Path, torn: bytes) -> None:
    # A writer killed mid-write (or a journal cut short) leaves no newline; the next call's
    # whole line lands on the same line and must still count.
    state = tmp_path / "state"
    _append(state, "use", "a")
    with (state / JOURNAL).open("ab") as f:
        f.write(torn)
    _append(state, "use", "b")
    _append(state, "view", "c")
    events, problems = journal.read_events(state / JOURNAL)
    assert [e.names for e in events] == [("a",), ("b",), ("c",)]
    assert problems == [f"{JOURNAL}:2: unreadable journal line skipped"]


def test_rotate_moves_the_journal_to_a_segment_and_writers_start_a_new_one(tmp_path: Path) -> None:
    state = tmp_path / "state"
    assert journal.rotate(state) is None, "nothing to rotate"
    _append(state, "use", "a")
    first = journal.rotate(state)
    assert first is not None and not (state / JOURNAL).exists()
    _append(state, "use", "b")
    second = journal.rotate(state)
    assert second is not None
    # (two rotations in one second may list in either order: folding does not depend on it)
    assert sorted(journal.segment_files(state)) == sorted([first, second])
    assert [journal.read_events(s)[0][0].names for s in (first, second)] == [("a",), ("b",)]


def test_segment_files_are_oldest_first(tmp_path: Path) -> None:
    folder = tmp_path / "state" / SEGMENTS
    folder.mkdir(parents=True)
    for name in ["20260102000000-b.jsonl", "20260101000000-z.jsonl", "20260103000000-a.jsonl"]:
        (folder / name).write_text("")
    (folder / "notes.txt").write_text("")  # not a segment
    assert [p.name for p in journal.segment_files(tmp_path / "state")] == [
        "20260101000000-z.jsonl",
        "20260102000000-b.jsonl",
        "20260103000000-a.jsonl",
    ]


def test_no_line_is_lost_or_torn_when_writers_race_a_rotating_flush(tmp_path: Path) -> None:
    state = tmp_path / "state"
    writers, per_writer = 6, 300
    done = threading.Event()

    def write(who: int) -> None:
        for i in range(per_writer):
            _append(state, "use", f"w{who}-{i}")

    def rotate_until_done() -> None:
        while not done.is_set():
            journal.rotate(state)

    rotator = threading.Thread(target=rotate_until_done)
    rotator.start()
    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    rotator.join()
    seen: list[str] = []
    for path in [*journal.segment_files(state), state / JOURNAL]:
        events, problems = journal.read_events(path)
        assert problems == []
        if path.exists():
            assert path.read_bytes().endswith(b"\n") or path.stat().st_size == 0
        seen += [n for e in events for n in e.names]
    assert len(journal.segment_files(state)) > 1, "the flush never rotated mid-run"
    assert sorted(seen) == sorted(f"w{w}-{i}" for w in range(writers) for i in range(per_writer))


def test_a_line_naming_a_skill_with_a_control_character_is_skipped() -> None:
    # No git tree entry may hold a NUL: such a name must never reach a flush's notes write.
    for name in ("a\x00b", "a\x01b", "a\x7fb"):
        assert parse_line(event_line("create", [name], "2026-09-01T10:00:00Z", "h1")) is None


def test_a_state_folder_that_takes_no_new_name_keeps_the_journal_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A read-only (or immutable) state folder made the flush's rename an exit 3.
    _append(tmp_path, "use", "a")

    def refused(*args: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(journal.os, "rename", refused)
    with pytest.raises(StateFileError, match="segments"):
        journal.rotate(tmp_path)
    assert [e.names for e in journal.read_events(tmp_path / JOURNAL)[0]] == [("a",)]


@pytest.mark.parametrize("planted", ["folder", "fifo"])
def test_a_journal_that_is_no_file_is_refused_by_name(tmp_path: Path, planted: str) -> None:
    path = tmp_path / JOURNAL
    path.mkdir() if planted == "folder" else os.mkfifo(path)
    with pytest.raises(StateFileError, match=r"journal\.jsonl"):
        journal.read_events(path)
