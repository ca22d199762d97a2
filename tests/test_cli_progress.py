"""The terminal's progress: click's bar on stderr, only on a terminal and never when quiet."""

from __future__ import annotations

import io

import pytest

from gitcurator.cli.progress import TerminalBars, terminal_progress
from gitcurator.progress import NO_PROGRESS, counted


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_or_when_quiet_there_is_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr", io.StringIO())
    with terminal_progress() as progress:
        assert progress is NO_PROGRESS
    monkeypatch.setattr("sys.stderr", FakeTerminal())
    with terminal_progress(quiet=True) as progress:
        assert progress is NO_PROGRESS


def test_on_a_terminal_each_label_gets_a_bar_erased_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = FakeTerminal()
    monkeypatch.setattr("sys.stderr", screen)
    with terminal_progress() as progress:
        assert isinstance(progress, TerminalBars)
        for _ in counted(range(50), "reading files", progress):
            pass
        list(counted(range(3), "validating skills", progress))
        progress("writing the commit", 0, 1)  # left open: the block's end closes it
    shown = screen.getvalue()
    assert "reading files" in shown and "50/50" in shown
    assert "validating skills" in shown and "3/3" in shown
    assert "writing the commit" in shown
    # Each bar is erased when its step ends (the cursor click hid is shown again).
    assert shown.count("\r\x1b[K\x1b[?25h") == 3 and shown.endswith("\x1b[?25h")
    assert "\n" not in shown


def test_an_empty_loop_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = FakeTerminal()
    monkeypatch.setattr("sys.stderr", screen)
    with terminal_progress() as progress:
        list(counted([], "nothing to read", progress))
    assert screen.getvalue() == ""
