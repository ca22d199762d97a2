"""The one place that turns exceptions into messages and exit codes, and signals into
KeyboardInterrupt: Ctrl-C and SIGTERM stop a command the same way, with exit 130."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable

from gitcurator.errors import (
    EXIT_FAILURE,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CuratorError,
)

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from typing import NoReturn
else:
    # The C module under `signal`, with the same functions and numbers: `signal` wraps them in
    # enums, and importing enum costs every `record` milliseconds.
    import _signal as signal


def error_line(message: str) -> str:
    """The line on stderr that says a command failed and why."""
    return f"gitcurator: error: {message}"


def guarded(command: Callable[[], int]) -> int:
    """Run `command` and return its exit code; what it raises becomes a message and a code:
    CuratorError → its message and code; Ctrl-C → 130; a bug → 3 and a crash log.

    An interrupt wins over whatever it caused: an error raised while unwinding from Ctrl-C
    (a cleanup that failed, an mmap still exported) is still exit 130. Lock files this
    process created and did not release (`locks.own_lock_files`) are removed on the way out.
    """
    try:
        return _code_of(command)
    finally:
        _remove_own_lock_files()


def _code_of(command: Callable[[], int]) -> int:
    try:
        return command()
    except KeyboardInterrupt:
        return interrupted()
    except CuratorError as exc:
        if _caused_by_interrupt(exc):
            return interrupted()
        from gitcurator.render import printable  # a message may name a hostile file name

        if exc.details:
            print(printable(exc.details), file=sys.stderr)
        print(printable(error_line(str(exc))), file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # `gitcurator list | head` closed the pipe: not an error worth a traceback.
        with contextlib.suppress(OSError):
            sys.stderr.close()
        return EXIT_OK
    except KeyError as exc:
        missing = _missing_object(exc)
        if missing is None or _caused_by_interrupt(exc):
            return _internal(exc)
        # dulwich's word for an object its store lacks (a shallow or partial clone, a fetch
        # that did not bring it, a damaged store): the repository's state, not a bug of ours.
        print(
            error_line(
                f"object {missing} is not in this repository's object store (a shallow or "
                "partial clone, or a damaged store), so the command stopped; `git fsck` names "
                "what is missing: fetch it again (`git fetch`, `gitcurator sync`) or restore "
                "the repository from a copy"
            ),
            file=sys.stderr,
        )
        return EXIT_FAILURE
    except Exception as exc:
        if _caused_by_interrupt(exc) or not _damaged_store(exc):
            return _internal(exc)
        print(
            error_line(
                f"this repository's object store is damaged ({type(exc).__name__}: {exc}), so "
                "the command stopped; `git fsck` names the damaged objects: fetch them "
                "again from a clone or remote, or restore the repository "
                "from a copy"
            ),
            file=sys.stderr,
        )
        return EXIT_FAILURE


def _damaged_store(exc: Exception) -> bool:
    from gitcurator.store.damage import DAMAGED_STORE  # an error's import: dulwich is in store

    return isinstance(exc, DAMAGED_STORE)


def _missing_object(exc: KeyError) -> str | None:
    """The object id a KeyError names when it is dulwich's missing object, else None."""
    if len(exc.args) != 1:
        return None
    found = exc.args[0]
    # dulwich names a missing object in bytes; a str key is a dict lookup of ours (a skill,
    # JSON or config key that looks like a sha), a bug that must not pass as a missing object.
    if not isinstance(found, bytes):
        return None
    import re  # an error's import: `record` must not pay for it

    text = found.decode("ascii", "replace")
    return text if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", text) else None


def _internal(exc: Exception) -> int:
    """A bug: exit 3 and a crash log (unless an interrupt caused it)."""
    if _caused_by_interrupt(exc):
        return interrupted()
    log = _write_crash_log(exc)
    print(
        f"gitcurator: internal error: {type(exc).__name__}: {exc}\n"
        f"details: {log}\nplease report it with that file",
        file=sys.stderr,
    )
    return EXIT_INTERNAL


def interrupted() -> int:
    """Say that the command was interrupted; its exit code (130)."""
    with contextlib.suppress(OSError, ValueError):
        print("gitcurator: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


def _caused_by_interrupt(exc: BaseException) -> bool:
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def _remove_own_lock_files() -> None:
    # Only a process that wrote through the store has lock files to remove, and it has
    # imported gitcurator.locks by then; `record` must not pay for importing it.
    locks = sys.modules.get("gitcurator.locks")
    if locks is not None:
        with contextlib.suppress(Exception):
            locks.remove_own_lock_files()


# -- signals -------------------------------------------------------------------------------


def stop_on_signals() -> None:
    """Make SIGTERM stop the process as Ctrl-C does (KeyboardInterrupt, then exit 130).

    SIGINT keeps Python's own handler, unless it is ignored (a background job), which stays.
    """
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _raise_interrupt)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def exit_process(code: int) -> NoReturn:
    """End the process with `code`, whatever signal arrives from here on.

    Once the code is decided, a late Ctrl-C or SIGTERM (during the interpreter's shutdown,
    while dulwich objects are collected) must not turn it into a traceback; and CPython kills
    itself with SIGINT at exit, ignoring the code, if a KeyboardInterrupt once escaped a
    string `exec` (dataclasses compiles its methods that way while modules are imported):
    running any string code resets that flag.
    """
    stops = (signal.SIGINT, signal.SIGTERM)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)  # none lands between the two lines
    for signum in stops:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signum, signal.SIG_IGN)
    exec("")
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    raise SystemExit(code)


def _write_crash_log(exc: BaseException) -> str:
    # Imported here: the hot path (`record`) runs under this handler and must start fast.
    import tempfile
    import traceback
    from datetime import UTC, datetime

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    fd, path = tempfile.mkstemp(prefix=f"gitcurator-crash-{stamp}-", suffix=".log")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(f"gitcurator {sys.argv[1:]!r}\n")
        f.write("".join(traceback.format_exception(exc)))
    return path
