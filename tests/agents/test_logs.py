"""logs.py: whole lines only, from where the last read stopped; overlong lines skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitcurator.agents import logs
from gitcurator.agents.logs import Cursors, complete_lines


def test_a_torn_last_line_waits_and_offsets_resume(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"one\ntwo\nthr")
    read = list(complete_lines(path, 0))
    assert [line for _, line in read] == [b"one\n", b"two\n"]
    end = read[-1][0]
    with path.open("ab") as f:
        f.write(b"ee\n")
    assert [line for _, line in complete_lines(path, end)] == [b"three\n"]


def test_an_overlong_line_is_skipped_without_holding_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(logs, "MAX_LINE", 10)
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"short\n" + b"x" * 95 + b"\nafter\n")
    assert [line for _, line in complete_lines(path, 0)] == [b"short\n", b"after\n"]


def test_cursors_restart_a_replaced_file_or_an_earlier_since(tmp_path: Path) -> None:
    state, log = tmp_path / "state", tmp_path / "t.jsonl"
    log.write_text("a\nb\n")
    cursors = Cursors(state, "claude-code")
    cursors.done(log, 4, "2026-09-02T00:00:00Z")
    cursors.save()
    again = Cursors(state, "claude-code")
    assert again.start(log, "2026-09-03T00:00:00Z") == 4
    assert again.start(log, "2026-09-01T00:00:00Z") == 0, "an earlier --since reads again"
    assert again.start(log, None) == 0
    log.unlink()
    log.write_text("new\n")
    assert Cursors(state, "claude-code").start(log, "2026-09-03T00:00:00Z") in (0, 4)
