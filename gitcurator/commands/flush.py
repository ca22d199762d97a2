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
    dropped = result.dropped.dropped
    if result.commit:
        text = (
            f"folded {plural(result.events, 'event')} into "
            f"{plural(result.skills, 'skill record')} (notes commit {result.commit[:12]})"
        )
    else:
        text = "nothing to flush"
    if dropped:
        text += f"; dropped {plural(dropped, 'event')} (see the warnings)"
    doc = {
        "events": result.events,
        "skills": result.skills,
        "commit": result.commit,
        "dropped": result.dropped.to_json(),
    }
    return Result(text=text, doc=doc, notes=tuple(warning_line(w) for w in result.warnings))
