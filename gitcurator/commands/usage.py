"""`gitcurator record` and `gitcurator flush`: usage events in, folded into notes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from gitcurator.errors import EXIT_OK, CuratorError, NotARepository


def record(start: Path, kind: str, names: Sequence[str], at: str | None) -> int:
    """Append events to the journal; unknown names → exit 1 and nothing recorded."""
    from gitcurator.telemetry.journal import JournalError
    from gitcurator.telemetry.recording import UnknownSkill
    from gitcurator.telemetry.recording import record as record_events

    try:
        record_events(kind, names, at=at, repo=start)
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


def flush(start: Path) -> int:
    """Fold buffered events into the notes now."""
    from gitcurator.library import open_repo
    from gitcurator.render import plural
    from gitcurator.telemetry import ledger

    with open_repo(start) as repo:
        result = ledger.flush(repo.store)
    for warning in result.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)
    if result.commit:
        print(
            f"folded {plural(result.events, 'event')} into "
            f"{plural(result.skills, 'skill record')} (notes commit {result.commit[:12]})"
        )
    else:
        print("nothing to flush")
    return EXIT_OK
