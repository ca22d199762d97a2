"""`gitcurator record use|view NAME...`: the hot path an agent calls on every skill load.

Nothing heavy is imported here, not even the output module: entry.py's fast path calls
`record_events` without click and without building a Result.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gitcurator.errors import EXIT_OK, CuratorError, NotARepository

# typing costs the `record` hot path milliseconds: its names only for the type checker.
TYPE_CHECKING = False

if TYPE_CHECKING:
    from gitcurator.output import Result


def record_events(
    start: str | os.PathLike[str], kind: str, names: Sequence[str], at: str | None
) -> int:
    """Append the events to the journal and return 0; unknown names are an error and nothing
    is recorded then."""
    from gitcurator.telemetry.journal import JournalError
    from gitcurator.telemetry.recording import UnknownSkill
    from gitcurator.telemetry.recording import record as record_in_journal

    try:
        record_in_journal(kind, names, at=at, repo=start, source="cli")
    except FileNotFoundError:
        raise NotARepository(
            f"{start} is not inside a skills repository; run `gitcurator init {start}` first"
        ) from None
    except UnknownSkill as exc:
        from gitcurator.telemetry.events import invalid_name_hint

        raise CuratorError(
            f"no skill named {', '.join(exc.names)} in this repository; nothing was recorded "
            f"(see `gitcurator list`){invalid_name_hint(exc.names)}"
        ) from None
    except JournalError as exc:
        raise CuratorError(f"cannot write the usage journal: {exc}") from None
    return EXIT_OK


def record(
    start: str | os.PathLike[str], kind: str, names: Sequence[str], at: str | None
) -> Result:
    """`gitcurator record` through the CLI: the events recorded, nothing to show."""
    from gitcurator.output import Result

    return Result(record_events(start, kind, names, at))
