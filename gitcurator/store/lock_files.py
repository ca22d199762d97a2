"""dulwich's `<file>.lock` files, made safe against interrupts: each one is noted as ours
(`gitcurator.locks.claim_lock_file`) in the same uninterruptible step that creates it, and
forgotten when it is renamed into place or removed, so a Ctrl-C or SIGTERM at any instruction
leaves none behind (the error handler removes what is still noted).

dulwich takes these locks in `dulwich.file._GitFile` for every ref, the index, loose objects
and pack indexes; a Ctrl-C between its `os.open(O_EXCL)` and the assignment that remembers
the file left the lock with nobody to remove it, and every later write of that file failed.
Its three methods are wrapped here once, when the store is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dulwich.file import _GitFile

from gitcurator.locks import claim_lock_file, release_lock_file
from gitcurator.store.interrupts import signals_blocked

_dulwich_init = _GitFile.__init__


def _init(self: _GitFile, *args: Any, **kwargs: Any) -> None:
    with signals_blocked():
        _dulwich_init(self, *args, **kwargs)
        claim_lock_file(self._lockfilename, self._file.fileno())


def _releasing(method: Callable[[_GitFile], None]) -> Callable[[_GitFile], None]:
    # Blocked too: close's rename and dulwich noting it happen together, so a ref is either
    # as before (its lock removed on the way out) or fully updated.
    def wrapped(self: _GitFile) -> None:
        with signals_blocked():
            try:
                method(self)
            finally:
                if self._closed:
                    release_lock_file(self._lockfilename)

    return wrapped


_close = _releasing(_GitFile.close)
_abort = _releasing(_GitFile.abort)


def guard_lock_files() -> None:
    """Wrap dulwich's lock-file class (once; later calls do nothing)."""
    if _GitFile.__init__ is not _init:
        _GitFile.__init__ = _init  # type: ignore[method-assign]
        _GitFile.close = _close  # type: ignore[method-assign,assignment]
        _GitFile.abort = _abort  # type: ignore[method-assign,assignment]
