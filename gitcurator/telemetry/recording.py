"""Record use and view events: the hot path an agent calls on every skill load.

On the fast path it imports only the other hot path modules (gitdir, names_cache, events,
host, journal) and the standard library. The name check uses a cache of known names keyed by
HEAD's commit and the notes commit; only when either moved does it load the heavier modules
to rebuild the cache.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from gitcurator.telemetry import events, gitdir, journal, names_cache
from gitcurator.telemetry.host import host_id

# typing costs the `record` hot path milliseconds: its names only for the type checker. The
# fast path passes path strings (telemetry.gitdir): pathlib alone costs more than the rest.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


class UnknownSkill(Exception):
    """A name that is no skill of the repository (nothing was recorded)."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(", ".join(names))
        self.names = names


def record(
    kind: str,
    names: Sequence[str],
    *,
    at: str | None = None,
    repo: str | os.PathLike[str] = ".",
    source: str | None = None,
    event_id: str | None = None,
) -> list[str]:
    """Record one `kind` ('use' or 'view') event per name; return the skills they counted for.

    Unknown names raise UnknownSkill and nothing is recorded for any name of the call. A name
    absorbed into an umbrella counts for the umbrella. A name of an archived skill is kept as
    a `wanted` event of that skill instead (the next pass may propose to bring it back).
    `source` says who reported the event (cli, api, claude-code, codex, hermes, mcp);
    `event_id` is the agent's own id for it.
    """
    if kind not in ("use", "view"):
        raise ValueError(f"kind must be 'use' or 'view', not {kind!r}")
    if source is not None and not events.is_source(source):
        raise ValueError(f"source must be a short lower-case word, not {source!r}")
    if event_id is not None and not 0 < len(event_id) <= events.MAX_EVENT_ID:
        raise ValueError(f"event_id must be 1-{events.MAX_EVENT_ID} characters")
    root, git = gitdir.locate(os.fspath(repo))
    state = gitdir.state_path(git)
    head = gitdir.read_head(git)
    known = names_cache.lookup(state, head, list(names))
    if known is None or len(known) < len(set(names)):
        from pathlib import Path

        known = rebuild_names(Path(root), Path(state), head, list(names))
    missing = [n for n in names if n not in known]
    if missing:
        raise UnknownSkill(missing)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())  # no datetime import: hot path
    stamp = now if at is None else _canonical(at)
    targets = [known[n] for n in names]
    live = [t for t in targets if names_cache.archived(t) is None]
    wanted = [names_cache.skill_of(t) for t in targets if names_cache.archived(t) is not None]
    host = host_id(state)
    # One write: a use of a live skill and a want of an archived one in the same call land
    # together or not at all.
    lines = [events.event_line(kind, live, stamp, host, source, event_id)] if live else []
    if wanted:
        lines.append(events.event_line(events.WANTED, wanted, stamp, host, source, event_id))
    journal.append(state, b"".join(lines))
    return [names_cache.skill_of(t) for t in targets]


def _canonical(at: str) -> str:
    from gitcurator.errors import UsageError
    from gitcurator.timeutil import CLOCK_SKEW, format_time, parse_time, utc_now

    if not at.strip():
        # An empty --at is a script's unset variable, not "now": say so rather than guess.
        raise UsageError("--at is empty; give a UTC ISO-8601 time or leave --at out for now")
    moment = parse_time(at, "--at")
    # Last use keeps the newest time: one typo far in the future would keep a skill from ever
    # going stale, and only hand-editing the notes could undo it.
    if moment > utc_now() + CLOCK_SKEW:
        raise UsageError(f"--at {at} is in the future; record events when they happen")
    return format_time(moment)


def rebuild_names(
    root: Path, state: Path, head: str | None, wanted: list[str] | None = None
) -> dict[str, str]:
    """Bring the names cache up to `head` and return it (archived skills marked, as `lookup`
    returns them): the slow path (loads dulwich), for when HEAD moved or a name is missing.
    HEAD's names come from a tree diff since the last rebuild; the work tree is walked too
    (seconds at 10,000 skills) only when a `wanted` name is not committed, or `wanted` is None.
    """
    from gitcurator.telemetry.names import names_for_record

    return names_for_record(root, state, head, wanted)
