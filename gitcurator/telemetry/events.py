"""One usage event as a journal line: the line format, written and read (hot path, stdlib only).

Every field of an event is here: its NamedTuple, the JSON keys a line spells it with, and the
rules a line must meet to be read back. A field added to events is added in this module only.
"""

from __future__ import annotations

from collections import namedtuple

# typing costs the `record` hot path milliseconds: the checker sees the NamedTuple, the
# program the same tuple made by collections (`python -m` has imported it already). json and
# re are imported by the readers only: writing a line needs neither (see `event_line`).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
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
_SURROGATE = r"[\ud800-\udfff]"
_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
# A host id is `[A-Za-z0-9._-]{1,64}`, a source `[a-z][a-z0-9-]{0,31}`: checked by
# `is_host_id` and `is_source` without re, which `record` would pay milliseconds to import.
_HOST_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_SOURCE_START = frozenset("abcdefghijklmnopqrstuvwxyz")
_SOURCE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
MAX_EVENT_ID = 200
_patterns: tuple[re.Pattern[str], re.Pattern[str]] | None = None


def is_host_id(value: str) -> bool:
    """Whether `value` is a host id: 1-64 of ASCII letters, digits, '.', '_' and '-'."""
    return 0 < len(value) <= 64 and _HOST_CHARS.issuperset(value)


def is_source(value: str) -> bool:
    """Whether `value` names a source: a lower-case ASCII letter, then up to 31 of those,
    digits and '-'."""
    return 0 < len(value) <= 32 and value[0] in _SOURCE_START and _SOURCE_CHARS.issuperset(value)


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
    # Byte for byte what json.dumps(doc, ensure_ascii=False, separators=(",", ":")) writes,
    # without importing json (and re, which it loads) on every `record`.
    line = f'{{"v":1,"k":{_quoted(kind)},"t":{_quoted(at)},"h":{_quoted(host)},"n":['
    line += ",".join(_quoted(n) for n in names) + "]"
    if source is not None:
        line += f',"s":{_quoted(source)}'
    if event_id is not None:
        line += f',"i":{_quoted(event_id)}'
    return (line + "}\n").encode()


# json's escapes of a string with ensure_ascii=False: '"', '\\' and the C0 controls, the common
# ones by letter; everything else (non-ASCII, DEL, lone surrogates) as it is.
_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)} | {
    ord('"'): '\\"',
    ord("\\"): "\\\\",
    ord("\b"): "\\b",
    ord("\f"): "\\f",
    ord("\n"): "\\n",
    ord("\r"): "\\r",
    ord("\t"): "\\t",
}


def _quoted(text: str) -> str:
    return f'"{text.translate(_ESCAPES)}"'


def parse_line(raw: bytes) -> Event | None:
    """The event of one journal line (without its newline); None if it is not a valid one."""
    import json  # a reader's import: `record` writes lines only

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
    from gitcurator.skills.identity import is_skill_name

    global _patterns
    if _patterns is None:
        import re

        _patterns = re.compile(_TIME), re.compile(_SURROGATE)
    time, surrogate = _patterns
    return (
        event.kind in KINDS
        and isinstance(event.at, str)
        and time.fullmatch(event.at) is not None
        and isinstance(event.host, str)
        and is_host_id(event.host)
        and (event.source is None or (isinstance(event.source, str) and is_source(event.source)))
        and (
            event.event_id is None
            or (
                isinstance(event.event_id, str)
                and 0 < len(event.event_id) <= MAX_EVENT_ID
                and surrogate.search(event.event_id) is None
            )
        )
        and all(is_skill_name(n) for n in event.names)
    )


def invalid_name_hint(names: list[str]) -> str:
    """For unknown names that no skill could ever have, why (a path, a dot-folder, a control
    character); "" when every name could be a skill's."""
    from gitcurator.skills.identity import is_skill_name, not_a_name_reason

    reasons = [f"{n!r} {not_a_name_reason(n)}" for n in names if not is_skill_name(n)]
    return f"; {'; '.join(reasons)}" if reasons else ""
