"""Progress on a terminal: click's own bar on stderr, one per step of the work, each erased
when its step ends (the terminal keeps the result, not a trail of finished bars).

Made only when stderr is a terminal (not TERM=dumb) and `--json` was not asked for; otherwise
the command gets gitcurator.progress.NO_PROGRESS, so a pipe, a log or a machine reading JSON
sees none.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import click

from gitcurator.output import progress_drawn
from gitcurator.progress import NO_PROGRESS, Progress

# Back to the start of the bar's line, erase it, and show the cursor click's bar hid.
_ERASE = "\r\033[K\033[?25h"
BAR = 36  # click's default bar width, the most a bar takes
ETA = 10  # "  00:01:05", which click adds once it can tell


def layout(label: str, total: int, columns: int) -> tuple[str, int, bool] | None:
    """(label, bar width, show the ETA) for a bar's line to fit `columns` with its last one
    left free: a line that wraps cannot be redrawn in place (each redraw would leave a line
    behind). The label is cut, then the ETA dropped; None: no bar fits at all."""
    text = "".join(c for c in label if c.isprintable())  # a remote's label may hold escapes
    pos = 2 * len(str(total)) + 1  # "done/total"
    room = columns - 1 - len("  []  ") - pos
    eta = room - ETA >= 12
    room -= ETA if eta else 0
    if room < 1:
        return None
    bar = min(BAR, max(room - len(text), min(10, room)))
    space = room - bar
    if len(text) > space:
        text = text[: space - 1] + "…" if space > 1 else ""
    return text, bar, eta


class TerminalBars:
    """A Progress drawing click.progressbar on stderr; a new label starts a new bar."""

    def __init__(self) -> None:
        self._label: str | None = None
        self._bar: Any = None  # click's ProgressBar, entered
        self._done = 0

    def __call__(self, label: str, done: int, total: int) -> None:
        """Move the bar of `label` to `done` of `total`."""
        if total <= 0:
            return
        if label != self._label or self._bar is None or done < self._done:
            self.close()
            fit = layout(label, total, shutil.get_terminal_size().columns)
            if fit is None:
                return
            text, width, eta = fit
            bar = click.progressbar(
                length=total,
                label=text,
                file=sys.stderr,
                show_pos=True,
                show_eta=eta,
                width=width,
            )
            # Kept before it is entered, which draws it and hides the cursor: a Ctrl-C landing
            # just after must still find the bar to erase and the cursor to show again.
            self._bar, self._label, self._done = bar, label, 0
            bar.__enter__()
        self._bar.update(done - self._done)
        self._done = done
        if done >= total:
            self.close()

    def close(self) -> None:
        """Erase the bar shown, if any."""
        if self._bar is not None:
            click.echo(_ERASE, file=sys.stderr, nl=False)
            self._bar = self._label = None


@contextlib.contextmanager
def terminal_progress(quiet: bool = False) -> Iterator[Progress]:
    """A Progress for a command: bars on stderr when it is a terminal and not `quiet` (the
    command's `--json`, or `--quiet`), NO_PROGRESS otherwise; the last bar is ended before
    the command's output is shown."""
    if quiet or not progress_drawn():
        yield NO_PROGRESS
        return
    bars = TerminalBars()
    try:
        yield bars
    finally:
        bars.close()
