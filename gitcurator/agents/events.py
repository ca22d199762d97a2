"""The neutral event every agent's payloads and logs are turned into.

On the hook path: a NamedTuple, not a dataclass, and hashlib only when a prompt needs it
(importing dataclasses and hashlib costs more than the rest of the hook together).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

# Every agent gitcurator connects, and those whose own hooks call `gitcurator hook` (Hermes
# reports through its plugin and the Python API instead).
AGENTS = ("claude-code", "codex", "hermes")
HOOKED_AGENTS = ("claude-code", "codex")


class AgentEvent(NamedTuple):
    """One thing an agent did with a skill.

    `kind`: use or view (a load), create (the agent wrote a new skill), edit (it changed one).
    `name` is the skill as the agent named it (a use) or its folder (a write). `guess` marks a
    use read from free text (a slash prompt, a `$name` mention): when no such skill exists it
    is dropped silently instead of counted as unknown (`/clear` is no skill).
    """

    kind: str
    name: str
    event_id: str | None = None
    at: str | None = None  # canonical UTC; None: when it is delivered
    guess: bool = False


def prompt_event_id(session_id: str, prompt: str, name: str) -> str:
    """The id of a use read from a user's prompt: the same prompt in the same session counts
    once whether the hook or a backfill saw it."""
    import hashlib

    digest = hashlib.sha256(f"{session_id}\0{prompt}".encode("utf-8", "replace")).hexdigest()
    return f"prompt:{digest[:32]}:{name}"[:200]


def canonical_time(value: object) -> str | None:
    """An agent's ISO-8601 timestamp as canonical UTC to the second (None if it is not one)."""
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def now() -> str:
    """The current moment in canonical form."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
