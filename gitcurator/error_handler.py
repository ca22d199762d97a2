"""The one place that turns exceptions into messages and exit codes."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

from gitcurator.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, CuratorError


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


@contextlib.contextmanager
def error_handler() -> Iterator[None]:
    """Run a command: CuratorError → its message and code; Ctrl-C → 130; a bug → 3 + crash log."""
    try:
        yield
    except CuratorError as exc:
        if exc.details:
            print(exc.details, file=sys.stderr)
        print(f"gitcurator: error: {exc}", file=sys.stderr)
        raise SystemExit(exc.exit_code) from None
    except KeyboardInterrupt:
        print("gitcurator: interrupted", file=sys.stderr)
        raise SystemExit(EXIT_INTERRUPTED) from None
    except BrokenPipeError:
        # `gitcurator list | head` closed the pipe: not an error worth a traceback.
        with contextlib.suppress(OSError):
            sys.stderr.close()
        raise SystemExit(0) from None
    except Exception as exc:
        log = _write_crash_log(exc)
        print(
            f"gitcurator: internal error: {type(exc).__name__}: {exc}\n"
            f"details: {log}\nplease report it with that file",
            file=sys.stderr,
        )
        raise SystemExit(EXIT_INTERNAL) from None
