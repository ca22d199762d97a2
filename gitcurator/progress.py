"""How long work tells whoever runs it how far it got (stdlib only, no I/O).

Library functions that loop over thousands of skills take a `progress` and call it with
(label, done, total): `done` of `total` steps of the work called `label` are done. The CLI
passes a bar drawn on stderr when stderr is a terminal and `--json` was not given
(cli/progress); everyone else gets NO_PROGRESS, which shows nothing and costs one call.
`counted` reports a loop a few hundred times at most, however long it is.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")

# Updates per loop at most: enough for a smooth bar, few enough to cost nothing.
UPDATES = 200


class Progress(Protocol):
    """Told how far long work got."""

    def __call__(self, label: str, done: int, total: int) -> None:
        """`done` of `total` steps of `label` are done (0 first; `total` at the end)."""


def _no_progress(label: str, done: int, total: int) -> None:
    """Shows nothing."""


NO_PROGRESS: Progress = _no_progress


def counted(
    items: Sequence[T], label: str, progress: Progress, updates: int = UPDATES
) -> Iterator[T]:
    """Each of `items`, telling `progress` at the start, after about every 1/`updates` of
    them and after the last one."""
    if progress is NO_PROGRESS:
        yield from items
        return
    total = len(items)
    every = max(1, total // updates)
    progress(label, 0, total)
    for done, item in enumerate(items, 1):
        yield item
        if done % every == 0 or done == total:
            progress(label, done, total)


@contextlib.contextmanager
def step(label: str, progress: Progress) -> Iterator[None]:
    """One piece of work that cannot say how far it is (a pack dulwich writes), shown as
    begun and then as done: `with step("writing the commit", progress): ...`."""
    progress(label, 0, 1)
    yield
    progress(label, 1, 1)


# A count in git's progress lines: `Receiving objects:  45% (9/20)`, `copying pack entries: 3/10`.
_COUNT = re.compile(r"(?:remote:\s*)?([^:]+):\s+(?:\d+%\s+\()?(\d+)/(\d+)")


class GitProgress:
    """The progress bytes dulwich passes on (git's own lines, ended by CR or LF, in chunks
    that may split a line) told to a Progress; lines without a count are dropped."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self._pending = b""

    def __call__(self, data: bytes) -> None:
        """Take one chunk."""
        *lines, self._pending = re.split(rb"[\r\n]", self._pending + data)
        for line in lines:
            found = _COUNT.match(line.decode("utf-8", "replace").strip())
            if found:
                label, done, total = found.groups()
                self.progress(label.strip().lower(), int(done), int(total))
