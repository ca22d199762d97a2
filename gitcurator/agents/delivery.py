"""Agent events into the usage journal: names resolved once per batch, lines appended in
chunks, unknown names counted for `connect --list` (never recorded, never an error), a load of
an archived skill kept as `wanted`.

Imports only the telemetry hot path (journal, recording) and the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from gitcurator.agents import status
from gitcurator.agents.events import AgentEvent, now
from gitcurator.agents.paths import is_file
from gitcurator.skills.identity import is_skill_name
from gitcurator.telemetry import journal, names_cache, recording
from gitcurator.telemetry.events import MAX_EVENT_ID, WANTED, event_line
from gitcurator.telemetry.gitdir import find_gitdir, read_head, state_dir
from gitcurator.telemetry.host import host_id

_CHUNK = 512  # lines per write: one lock and one write() for many events of a backfill


class Delivered:
    """What one delivery did (a plain class: dataclasses cost the hook more than it does)."""

    def __init__(self) -> None:
        self.recorded = 0
        self.unknown: list[str] = []
        self.dropped = 0  # guesses that named no skill
        self.last_at: str | None = None
        self.last = ""  # the newest event, as `connect --list` shows it


class Target(NamedTuple):
    """The repository events go to: work tree root, its state folder and HEAD."""

    root: Path
    state: Path
    head: str | None

    @classmethod
    def find(cls, repo: Path) -> Target:
        """The repository holding `repo` (FileNotFoundError when there is none)."""
        root, gitdir = find_gitdir(repo)
        return cls(root, state_dir(gitdir), read_head(gitdir))


def resolve(target: Target, names: Sequence[str]) -> dict[str, str]:
    """name -> skill for the names the library knows.

    The cache is rebuilt (the slow path) when HEAD moved, or when a missing name has a skill
    folder at the top of the library (new, not committed yet); an agent asking again and again
    for a skill that lives elsewhere must not pay for a rebuild each time.
    """
    wanted = sorted(set(names))
    known = names_cache.lookup(target.state, target.head, wanted)
    if known is None:
        # HEAD moved: its committed names suffice unless a folder at the top is not in them.
        new = [n for n in wanted if is_skill_name(n) and is_file(target.root / n / "SKILL.md")]
        return recording.rebuild_names(target.root, target.state, target.head, new)
    missing = [n for n in wanted if n not in known]
    if any(is_skill_name(n) and is_file(target.root / n / "SKILL.md") for n in missing):
        return recording.rebuild_names(target.root, target.state, target.head)
    return known


def deliver(
    target: Target, source: str, events: Iterable[AgentEvent], note: bool = True
) -> Delivered:
    """Append `events` from `source` to the journal; say what was recorded and what not.

    With `note` the agent's status (last event, unknown names) is updated too; a backfill
    delivering many batches notes once at the end instead.
    """
    batch = list(events)
    done = Delivered()
    if not batch:
        return done
    loads = [e for e in batch if e.kind in ("use", "view")]
    known = resolve(target, [e.name for e in loads]) if loads else {}
    host = host_id(target.state)
    stamp = now()
    lines: list[bytes] = []
    for event in batch:
        at = event.at or stamp
        kind = event.kind
        if kind in ("use", "view"):
            skill = known.get(event.name)
            if skill is None:
                if event.guess:
                    done.dropped += 1
                else:
                    done.unknown.append(event.name)
                continue
            if names_cache.archived(skill) is not None:
                # An archived skill the agent asked for: kept as wanted, offered back later.
                kind, skill = WANTED, names_cache.skill_of(skill)
        elif not is_skill_name(event.name):
            done.dropped += 1  # a name no skill folder can have (a path, a newline)
            continue
        else:
            skill = event.name
        event_id = event.event_id
        if event_id is not None and len(event_id) > MAX_EVENT_ID:
            import hashlib

            event_id = "sha256:" + hashlib.sha256(event_id.encode("utf-8", "replace")).hexdigest()
        lines.append(event_line(kind, [skill], at, host, source, event_id))
        done.recorded += 1
        if done.last_at is None or at >= done.last_at:
            done.last_at, done.last = at, f"{kind} {skill}"
    for start in range(0, len(lines), _CHUNK):
        journal.append(target.state, b"".join(lines[start : start + _CHUNK]))
    if note:
        status.note_delivery(target.state, source, done.last_at or stamp, done.last, done.unknown)
    return done
