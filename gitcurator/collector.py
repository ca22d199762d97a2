"""Python's cyclic garbage collector paused around the work that builds a command's data.

A pass or a listing keeps tens of thousands of rows, records and tree entries alive until it
ends, and the collector's passes over them find next to nothing (under 700 objects in a pass
at 10,000 skills) for 10-25% of the work. It is paused only around blocks that touch no
network: a failed fetch leaves its transport in a cycle holding the socket, which only the
collector frees, so a command fetching many sources would run out of descriptors.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused(when: bool = True) -> Iterator[None]:
    """The collector off inside the block (when `when`), back as it was after it."""
    if not (when and gc.isenabled()):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
