"""Hermes' file formats decoded: timestamps, counters, `.usage.json` records, the hub lock and
the bundled manifest (pure: bytes in, data out).

Nothing here is fatal: a broken file, record or field becomes a problem line naming it, and
everything else is imported.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from gitcurator.errors import UsageError
from gitcurator.importers.hermes.state_files import BUNDLED_MANIFEST, HUB_LOCK, USAGE_FILE
from gitcurator.timeutil import format_time, latest, parse_time

_TIMES = ("last_used_at", "last_viewed_at", "last_patched_at", "created_at", "archived_at")
_COUNTS = ("use_count", "view_count", "patch_count")
_STATES = ("active", "stale", "archived")
# Hermes' clock and ours may disagree a little; a time further ahead than this is wrong.
_FUTURE_SLACK = timedelta(days=1)


# -- values ----------------------------------------------------------------------------------


def parse_stamp(value: object, now: datetime) -> str | None:
    """A Hermes timestamp in canonical UTC form; raises ValueError saying what is wrong.

    ISO-8601 with an offset or naive (taken as UTC), or a number of seconds since 1970.
    Empty values are missing values, as Hermes reads them.
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"is {_kind(value)}, not a time")
    try:
        if isinstance(value, str):
            moment = parse_time(value)
        else:
            moment = datetime.fromtimestamp(value, UTC).replace(microsecond=0)
    except UsageError as exc:
        if "outside the years" in str(exc):
            raise ValueError(f"{value!r} is before 1970 or after 9999") from None
        raise ValueError(f"{value!r} is not an ISO-8601 time or seconds since 1970") from None
    except (ValueError, OverflowError, OSError):
        raise ValueError(f"{value!r} is not an ISO-8601 time or seconds since 1970") from None
    if moment.year < 1970:
        raise ValueError(f"{value!r} is before 1970")
    if moment > now + _FUTURE_SLACK:
        raise ValueError(f"{value!r} is in the future")
    return format_time(moment)


def parse_count(value: object) -> int | None:
    """A Hermes counter (Hermes itself reads them with `int()`); raises ValueError if not one."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    raise ValueError(f"{value!r} is not a whole number ≥ 0")


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


# -- .usage.json -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HermesUsage:
    """One `.usage.json` record, checked and normalised."""

    agent: bool = False
    use_count: int = 0
    view_count: int = 0
    patch_count: int | None = None
    last_used_at: str | None = None
    last_viewed_at: str | None = None
    last_patched_at: str | None = None
    created_at: str | None = None
    archived: bool = False
    archived_at: str | None = None
    pinned: bool = False


@dataclass(frozen=True, slots=True)
class UsageFile:
    """A parsed `.usage.json`: the usable records by key, how many keys it had, problems."""

    records: dict[str, HermesUsage] = field(default_factory=dict)
    keys: int = 0
    problems: list[str] = field(default_factory=list)


def parse_usage(data: bytes, now: datetime) -> UsageFile:
    """The records of a `.usage.json` by key, and a problem line for each thing skipped."""
    doc, problem = _load_json(data, USAGE_FILE)
    if problem:
        return UsageFile(problems=[f"{problem}; usage, pins and agent origins were not imported"])
    if not isinstance(doc, dict):
        return UsageFile(
            problems=[
                f"{USAGE_FILE} is {_kind(doc)}, not an object of records by skill name; "
                "usage, pins and agent origins were not imported"
            ]
        )
    parsed = UsageFile(keys=len(doc))
    for key, raw in doc.items():
        record, found = parse_usage_record(key, raw, now)
        parsed.problems.extend(found)
        if record is not None:
            parsed.records[key] = record
    return parsed


def parse_usage_record(
    key: str, raw: object, now: datetime
) -> tuple[HermesUsage | None, list[str]]:
    """One record (None if it is not an object at all) and a problem line per dropped field."""
    where = f"{USAGE_FILE}: record {key!r}"
    if not isinstance(raw, dict):
        return None, [f"{where} is {_kind(raw)}, not an object; skipped"]
    values: dict[str, Any] = {}
    problems: list[str] = []
    for name in _COUNTS:
        _take(values, problems, where, name, parse_count, raw)
    for name in _TIMES:
        _take(values, problems, where, name, lambda v: parse_stamp(v, now), raw)
    _take(values, problems, where, "pinned", _parse_flag, raw)
    _take(values, problems, where, "state", _parse_state, raw)
    agent, problem = _parse_creator(raw)
    if problem:
        problems.append(f"{where}: {problem}")
    state = values.pop("state", None)
    values = {k: v for k, v in values.items() if v is not None}
    return HermesUsage(agent=agent, archived=state == "archived", **values), problems


def _take(
    values: dict[str, Any],
    problems: list[str],
    where: str,
    name: str,
    parse: Callable[[object], object],
    raw: Mapping[str, object],
) -> None:
    if name not in raw:
        return
    try:
        values[name] = parse(raw[name])
    except ValueError as exc:
        problems.append(f"{where}: {name} {exc}; field dropped")


def _parse_flag(value: object) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    raise ValueError(f"{value!r} is not true or false")


def _parse_state(value: object) -> str | None:
    if value is None or value in _STATES:
        return value
    raise ValueError(f"{value!r} is not one of {', '.join(_STATES)}")


def _parse_creator(raw: Mapping[str, object]) -> tuple[bool, str | None]:
    # Hermes marks skills its learning loop wrote with created_by "agent"; older versions
    # wrote agent_created: true. Anything else (null, missing) is a person's skill.
    if raw.get("agent_created") is True:
        return True, None
    creator = raw.get("created_by")
    if creator is None or creator == "agent":
        return creator == "agent", None
    return False, f'created_by {creator!r} is not "agent" or null; taken as a user\'s skill'


def _load_json(data: bytes, what: str) -> tuple[object, str | None]:
    try:
        return json.loads(data.decode("utf-8-sig")), None
    except UnicodeDecodeError as exc:
        return None, f"{what} is not UTF-8 text (byte at offset {exc.start})"
    except json.JSONDecodeError as exc:
        return None, f"{what} is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
    except ValueError as exc:  # e.g. an integer longer than Python converts
        return None, f"{what} is not JSON we can read ({exc})"
    except RecursionError:
        return None, f"{what} is not JSON we can read (nested too deeply)"


# -- .hub/lock.json and .bundled_manifest --------------------------------------------------


def parse_hub_lock(data: bytes) -> tuple[dict[str, str | None], list[str]]:
    """Hub-installed skills: name → install path (None when the entry has none)."""
    doc, problem = _load_json(data, HUB_LOCK)
    if problem:
        return {}, [f"{problem}; no skill was marked as installed from a hub"]
    installed = doc.get("installed") if isinstance(doc, dict) else None
    if not isinstance(installed, dict):
        return {}, [
            f'{HUB_LOCK} has no "installed" object; no skill was marked as installed from a hub'
        ]
    found: dict[str, str | None] = {}
    for name, entry in installed.items():
        path = entry.get("install_path") if isinstance(entry, dict) else None
        found[name] = path.strip().strip("/") if isinstance(path, str) and path.strip() else None
    return found, []


def parse_bundled_manifest(data: bytes) -> tuple[list[str], list[str]]:
    """Names of the skills Hermes shipped: `name:hash` or bare `name` per line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [], [
            f"{BUNDLED_MANIFEST} is not UTF-8 text (byte at offset {exc.start}); "
            "no skill was marked as bundled"
        ]
    names = [line.partition(":")[0].strip() for line in text.splitlines()]
    return [n for n in names if n], []


def combine_usage(a: HermesUsage, b: HermesUsage) -> HermesUsage:
    """Two records Hermes kept for one skill under different keys, as one."""
    patches = [c for c in (a.patch_count, b.patch_count) if c is not None]
    return HermesUsage(
        agent=a.agent or b.agent,
        use_count=a.use_count + b.use_count,
        view_count=a.view_count + b.view_count,
        patch_count=sum(patches) if patches else None,
        last_used_at=latest(a.last_used_at, b.last_used_at),
        last_viewed_at=latest(a.last_viewed_at, b.last_viewed_at),
        last_patched_at=latest(a.last_patched_at, b.last_patched_at),
        created_at=min((t for t in (a.created_at, b.created_at) if t), default=None),
        archived=a.archived or b.archived,
        archived_at=latest(a.archived_at, b.archived_at),
        pinned=a.pinned or b.pinned,
    )
