"""The one place that turns exceptions into messages and exit codes."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable

from gitcurator.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, CuratorError


def error_line(message: str) -> str:
    """The line on stderr that says a command failed and why."""
    return f"gitcurator: error: {message}"


def guarded(command: Callable[[], int]) -> int:
    """Run `command` and return its exit code; what it raises becomes a message and a code:
    CuratorError → its message and code; Ctrl-C → 130; a bug → 3 and a crash log."""
    try:
        return command()
    except CuratorError as exc:
        from gitcurator.render import printable  # a message may name a hostile file name

        if exc.details:
            print(printable(exc.details), file=sys.stderr)
        print(printable(error_line(str(exc))), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("gitcurator: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `gitcurator list | head` closed the pipe: not an error worth a traceback.
        with contextlib.suppress(OSError):
            sys.stderr.close()
        return EXIT_OK
    except Exception as exc:
        log = _write_crash_log(exc)
        print(
            f"gitcurator: internal error: {type(exc).__name__}: {exc}\n"
            f"details: {log}\nplease report it with that file",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


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
