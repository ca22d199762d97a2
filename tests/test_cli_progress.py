"""The terminal's progress: click's bar on stderr, only on a terminal and never when quiet."""

from __future__ import annotations

import io
import re

import pytest

from gitcurator.cli.progress import TerminalBars, layout, terminal_progress
from gitcurator.progress import NO_PROGRESS, counted


@pytest.fixture(autouse=True)
def _a_terminal_that_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    # CI's TERM may be dumb or unset: these tests are about a terminal that can draw a bar.
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("COLUMNS", raising=False)


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


def _lines(shown: str) -> list[str]:
    """What each redraw of a bar leaves on its line, escapes removed."""
    return [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", part) for part in shown.split("\r")]


@pytest.mark.parametrize("columns", ["20", "40", "80"])
def test_a_bar_fits_a_narrow_terminal(monkeypatch: pytest.MonkeyPatch, columns: str) -> None:
    # A line longer than the terminal wraps, and \r then redraws only its last part: at 20
    # columns each of 200 redraws left three lines of an 80-column bar behind.
    monkeypatch.setenv("COLUMNS", columns)
    screen = FakeTerminal()
    monkeypatch.setattr("sys.stderr", screen)
    with terminal_progress() as progress:
        list(counted(range(10_000), "reading the skill catalogue", progress))
    lines = _lines(screen.getvalue())
    assert max(len(line) for line in lines) < int(columns)
    assert any("10000/10000" in line for line in lines)


def test_a_label_cannot_send_escapes_and_a_tiny_terminal_gets_no_bar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A label from git's progress lines comes from the remote: it must not reach the terminal.
    assert layout("\x1b]0;owned\x07counting objects", 9, 80) == (
        "]0;ownedcounting objects",
        36,
        True,
    )
    assert layout("reading files", 10_000, 12) is None
    monkeypatch.setenv("COLUMNS", "12")
    screen = FakeTerminal()
    monkeypatch.setattr("sys.stderr", screen)
    with terminal_progress() as progress:
        list(counted(range(10_000), "reading files", progress))
    assert screen.getvalue() == ""


def test_a_dumb_terminal_gets_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    # TERM=dumb cannot erase a line: click's bar and our erasing escapes would show as text.
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setattr("sys.stderr", FakeTerminal())
    with terminal_progress() as progress:
        assert progress is NO_PROGRESS


def test_ctrl_c_just_as_a_bar_is_drawn_still_erases_it_and_shows_the_cursor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Seen on a pty: SIGINT landing right after click drew a bar (and hid the cursor), before
    # the bar was kept, left the bar on screen and the user's cursor hidden.
    from click._termui_impl import ProgressBar

    drawn = ProgressBar.render_progress

    def draw_then_interrupt(self: ProgressBar[int]) -> None:
        drawn(self)
        raise KeyboardInterrupt

    monkeypatch.setattr(ProgressBar, "render_progress", draw_then_interrupt)
    screen = FakeTerminal()
    monkeypatch.setattr("sys.stderr", screen)
    with pytest.raises(KeyboardInterrupt), terminal_progress() as progress:
        progress("validating skills", 0, 3000)
    shown = screen.getvalue()
    assert "validating skills" in shown and shown.endswith("\r\x1b[K\x1b[?25h")
