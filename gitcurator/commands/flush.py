"""`gitcurator flush`: fold the buffered usage events into the notes now."""

from __future__ import annotations

from pathlib import Path

from gitcurator.library import open_repo
from gitcurator.output import Result, warning_line
from gitcurator.render import plural
from gitcurator.telemetry import ledger


def flush(start: Path) -> Result:
    """Fold the journal into the notes, one notes commit (or none when it is empty)."""
    with open_repo(start) as repo:
        result = ledger.flush(repo.store)
    if result.commit:
        text = (
            f"folded {plural(result.events, 'event')} into "
            f"{plural(result.skills, 'skill record')} (notes commit {result.commit[:12]})"
        )
    else:
        text = "nothing to flush"
    return Result(text=text, notes=tuple(warning_line(w) for w in result.warnings))
