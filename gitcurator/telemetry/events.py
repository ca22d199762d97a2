"""One usage event as a journal line: the line format, written and read (hot path, stdlib only).

Every field of an event is here: its NamedTuple, the JSON keys a line spells it with, and the
rules a line must meet to be read back. A field added to events is added in this module only.
"""

from __future__ import annotations

import json
import re
from collections import namedtuple

from gitcurator.skills.identity import is_skill_name, not_a_name_reason

# typing costs the `record` hot path milliseconds: the checker sees the NamedTuple, the
# program the same tuple made by collections (already imported by `re`).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple

    class Event(NamedTuple):
        kind: str
        names: tuple[str, ...]
        at: str
        host: str
        source: str | None = None
        event_id: str | None = None

else:
    Event = namedtuple(
        "Event", ["kind", "names", "at", "host", "source", "event_id"], defaults=(None, None)
    )


# The usage-record schema's rules for a skill name (skills.identity), a host id and a time,
# checked here so a damaged line is skipped on reading instead of failing the notes write of a
# whole flush. Lone surrogates (a line's `"\ud800"`) are refused too: JSON reads them, UTF-8
# cannot write them, and a record holding one would fail every later flush.
_SURROGATE = re.compile(r"[\ud800-\udfff]")
HOST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
SOURCE = re.compile(r"[a-z][a-z0-9-]{0,31}")
MAX_EVENT_ID = 200

LINE_START = b'{"v":'  # how every line event_line() writes begins


def event_line(
    kind: str,
    names: list[str],
    at: str,
    host: str,
    source: str | None = None,
    event_id: str | None = None,
) -> bytes:
    """One journal line: every name of one `record` call, written in a single write().

    `source` (who reported it: cli, api, claude-code, codex, hermes, mcp) and `event_id` (the
    agent's own id for the event, so a hook and a backfill of it count once) are written only
    when given, so lines from before they existed and lines without them read alike.
    """
    doc: dict[str, object] = {"v": 1, "k": kind, "t": at, "h": host, "n": names}
    if source is not None:
        doc["s"] = source
    if event_id is not None:
        doc["i"] = event_id
    return (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def parse_line(raw: bytes) -> Event | None:
    """The event of one journal line (without its newline); None if it is not a valid one."""
    try:
        doc = json.loads(raw)
        if not isinstance(doc["n"], list):
            raise TypeError("names must be a list")
        event = Event(doc["k"], tuple(doc["n"]), doc["t"], doc["h"], doc.get("s"), doc.get("i"))
    except (ValueError, KeyError, TypeError, RecursionError):  # deep nesting: not ours either
        return None
    return event if _valid(event) else None


# `create` and `edit`: a skill an agent wrote or edited (seen by its hook or plugin);
# `wanted`: a use or view of a skill that is archived (the pass may offer it back).
WANTED = "wanted"
KINDS = ("use", "view", "create", "edit", WANTED)


def _valid(event: Event) -> bool:
    return (
        event.kind in KINDS
        and isinstance(event.at, str)
        and _TIME.fullmatch(event.at) is not None
        and isinstance(event.host, str)
        and HOST_ID.fullmatch(event.host) is not None
        and (
            event.source is None
            or (isinstance(event.source, str) and bool(SOURCE.fullmatch(event.source)))
        )
        and (
            event.event_id is None
            or (
                isinstance(event.event_id, str)
                and 0 < len(event.event_id) <= MAX_EVENT_ID
                and _SURROGATE.search(event.event_id) is None
            )
        )
        and all(is_skill_name(n) for n in event.names)
    )


def invalid_name_hint(names: list[str]) -> str:
    """For unknown names that no skill could ever have, why (a path, a dot-folder, a control
    character); "" when every name could be a skill's."""
    reasons = [f"{n!r} {not_a_name_reason(n)}" for n in names if not is_skill_name(n)]
    return f"; {'; '.join(reasons)}" if reasons else ""
