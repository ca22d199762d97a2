"""Hermes Agent's skills-folder state → gitcurator records (pure: bytes in, data out).

Beside its skill folders Hermes keeps (hermes-agent 0.19, tools/skill_usage.py and friends):

- `.usage.json`: one JSON object keyed by skill name (normally the frontmatter `name:`; folder
  names and `category/name` also occur), each value a record with any of `created_by`,
  `use_count`, `view_count`, `patch_count`, `last_used_at`, `last_viewed_at`,
  `last_patched_at`, `created_at`, `state`, `pinned`, `archived_at`;
- `.hub/lock.json`: `{"version": 1, "installed": {name: {"install_path": ..., ...}}}`;
- `.bundled_manifest`: one `name:hash` (bare `name` in its first version) per line.

Nothing here is fatal: a broken file, record or field becomes a problem line naming it, and
everything else is imported. The shell (`gitcurator.commands.import_hermes`) reads the files,
commits the skills and merges `plan_import`'s facts into the notes with `merge_facts`.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from gitcurator.errors import UsageError
from gitcurator.skills.document import ARCHIVE_DIR, SkillLocation
from gitcurator.skills.identity import identity
from gitcurator.telemetry.records import (
    ORIGINS,
    HostCounters,
    Imported,
    Stamped,
    UsageRecord,
    check_doc,
)
from gitcurator.timeutil import format_time, latest, parse_time

# The host whose counters hold Hermes' totals: events recorded later on real hosts add to them,
# and a re-import replaces this host's counters instead of adding them a second time.
HOST = "hermes-import"

USAGE_FILE = ".usage.json"
HUB_LOCK = ".hub/lock.json"
BUNDLED_MANIFEST = ".bundled_manifest"

# Hermes' own state at the top of its skills folder (hermes-agent 0.19: skill_usage.py,
# skills_sync.py, skills_hub.py, curator.py, curator_backup.py), ignored by git even before
# Hermes first writes them. Temporary files come from its atomic writes.
KNOWN_STATE = (
    ".usage.json",
    ".usage.json.lock",
    ".usage_*.tmp",
    ".hub",
    ".bundled_manifest",
    ".bundled_manifest_*.tmp",
    ".curator_state",
    ".curator_suppressed",
    ".curator_suppressed_*.tmp",
    ".curator_backups",
    ".restore-backups",
    ".termux_bundled_sync_stamp",
)
# Top-level dot-entries that are never Hermes state: git's, gitcurator's, the archive, and
# the tooling a person keeps in a skills repository.
NOT_STATE = frozenset(
    {
        ".git",
        ".gitignore",
        ".gitattributes",
        ".gitcurator.yaml",
        ".curator",
        ARCHIVE_DIR,
        ".github",
        ".pre-commit-config.yaml",
    }
)
IGNORE_HEADER = "# Hermes Agent's own state: gitcurator keeps usage, pins and origins in git notes"

_TIMES = ("last_used_at", "last_viewed_at", "last_patched_at", "created_at", "archived_at")
_COUNTS = ("use_count", "view_count", "patch_count")
_STATES = ("active", "stale", "archived")
# Hermes' clock and ours may disagree a little; a time further ahead than this is wrong.
_FUTURE_SLACK = timedelta(days=1)


# -- Hermes state files in the skills folder ------------------------------------------------


def is_state_entry(name: str) -> bool:
    """Whether a top-level entry of a Hermes skills folder is Hermes' state, not skills."""
    return name.startswith(".") and name not in NOT_STATE


def is_known_state(name: str) -> bool:
    """Whether a top-level entry is one of the state files Hermes is known to write."""
    return any(fnmatch.fnmatchcase(name, known) for known in KNOWN_STATE)


def ignore_patterns(found: Iterable[str] = ()) -> list[str]:
    """.gitignore lines (anchored at the skills folder) for Hermes' state: the known entries
    and any other state entry `found` there."""
    patterns = ["/" + known for known in KNOWN_STATE]  # their `*` are meant as globs
    for name in sorted(found):
        if not is_known_state(name):
            patterns.append("/" + _escape_glob(name))
    return patterns


def _escape_glob(name: str) -> str:
    # A literal name in .gitignore: glob characters and backslashes are escaped.
    return "".join("\\" + c if c in "*?[\\" else c for c in name)


def updated_gitignore(existing: str | None, patterns: Sequence[str]) -> str | None:
    """`existing` with the missing `patterns` appended under a header; None if none is missing."""
    present = {line.strip() for line in (existing or "").splitlines()}
    missing = [p for p in patterns if p not in present]
    if not missing:
        return None
    text = existing or ""
    if text and not text.endswith("\n"):
        text += "\n"
    if text:
        text += "\n"
    header = [IGNORE_HEADER] if IGNORE_HEADER not in present else []
    return text + "\n".join([*header, *missing]) + "\n"


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


# -- names → identities ----------------------------------------------------------------------


def name_index(locations: Sequence[SkillLocation], names: Mapping[str, str]) -> dict[str, str]:
    """Every key Hermes may use for a skill → the skill's identity.

    Frontmatter names come first (Hermes keys its files by them), then folder names, then
    `category/name` paths; live skills before archived ones, so an archived copy never takes
    a name from the live skill. `names` maps a skill folder to its frontmatter name.
    """
    index: dict[str, str] = {}
    for archived in (False, True):
        group = [loc for loc in locations if loc.archived == archived]
        for loc in group:
            if names.get(loc.folder):
                index.setdefault(names[loc.folder], identity(loc))
        for loc in group:
            index.setdefault(identity(loc), identity(loc))
        for loc in group:
            index.setdefault(library_path(loc), identity(loc))
            if names.get(loc.folder) and loc.category:
                index.setdefault(posixpath.join(loc.category, names[loc.folder]), identity(loc))
    return index


def library_path(loc: SkillLocation) -> str:
    """The skill's folder below the library, without the `.archive/` prefix."""
    return loc.folder.removeprefix(ARCHIVE_DIR + "/") if loc.archived else loc.folder


# -- the plan --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HermesFiles:
    """The contents of Hermes' three state files (None: the file is absent)."""

    usage: bytes | None = None
    hub_lock: bytes | None = None
    bundled_manifest: bytes | None = None


@dataclass(frozen=True, slots=True)
class SkillFacts:
    """What Hermes knows about one skill, ready to merge into its record."""

    archived: bool
    origin: str | None = None
    pinned: bool = False
    has_usage: bool = False  # .usage.json had a record for it
    counters: HostCounters | None = None
    imported: Imported | None = None
    archived_at: str | None = None


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """Facts by skill identity (every skill, live and archived) and what could not be used."""

    facts: dict[str, SkillFacts]
    problems: list[str] = field(default_factory=list)
    usage_records: int = 0  # keys in .usage.json
    usage_matched: int = 0  # of them, usable records matched to a skill


def plan_import(
    locations: Sequence[SkillLocation],
    names: Mapping[str, str],
    files: HermesFiles,
    now: datetime,
) -> ImportPlan:
    """Facts for each skill from Hermes' files; `names` maps folders to frontmatter names."""
    index = name_index(locations, names)
    problems: list[str] = []
    usage = parse_usage(files.usage, now) if files.usage is not None else UsageFile()
    problems += usage.problems
    by_skill, matched = _usage_by_skill(usage.records, index, problems)
    hub = _hub_skills(files.hub_lock, index, problems)
    bundled = _bundled_skills(files.bundled_manifest, index, problems)
    facts: dict[str, SkillFacts] = {}
    for skill, where in sorted(_by_identity(locations).items()):
        if check_doc({"version": 1, "skill": skill, "hosts": {}}, skill):
            # The notes would refuse the record; the skill itself is still committed.
            problems.append(
                f"skill folder {skill!r} is not a valid skill name (lower-case letters, digits "
                "and single hyphens), so it gets no record: its Hermes usage was not imported"
            )
            continue
        archived = all(loc.archived for loc in where)
        origin = "hub" if skill in hub else "bundled" if skill in bundled else None
        facts[skill] = _facts(skill, archived, origin, by_skill.get(skill), where, problems)
    return ImportPlan(facts, problems, usage.keys, matched)


def _by_identity(locations: Sequence[SkillLocation]) -> dict[str, list[SkillLocation]]:
    groups: dict[str, list[SkillLocation]] = {}
    for loc in locations:
        groups.setdefault(identity(loc), []).append(loc)
    return groups


def _facts(
    skill: str,
    archived: bool,
    origin: str | None,
    usage: HermesUsage | None,
    where: Sequence[SkillLocation],
    problems: list[str],
) -> SkillFacts:
    if usage is None:
        return SkillFacts(archived, origin)
    counters = HostCounters(
        usage.use_count, usage.view_count, usage.last_used_at, usage.last_viewed_at
    )
    history = Imported(usage.created_at, usage.patch_count, usage.last_patched_at)
    archived_at = None
    if usage.archived and not archived:
        problems.append(
            f"{USAGE_FILE} says {skill} is archived, but it is live at {where[0].folder} "
            f"(not under {ARCHIVE_DIR}/); it was imported as live"
        )
    elif usage.archived:
        archived_at = usage.archived_at
    return SkillFacts(
        archived=archived,
        origin=origin or ("agent" if usage.agent else "user"),
        pinned=usage.pinned,
        has_usage=True,
        counters=counters if counters != HostCounters() else None,
        imported=history if history != Imported() else None,
        archived_at=archived_at,
    )


def _usage_by_skill(
    usage: Mapping[str, HermesUsage], index: Mapping[str, str], problems: list[str]
) -> tuple[dict[str, HermesUsage], int]:
    by_skill: dict[str, HermesUsage] = {}
    keys: dict[str, list[str]] = {}
    for key, record in usage.items():
        skill = index.get(key)
        if skill is None:
            problems.append(f"{USAGE_FILE}: record {key!r} names no skill in the folder; skipped")
            continue
        keys.setdefault(skill, []).append(key)
        earlier = by_skill.get(skill)
        by_skill[skill] = record if earlier is None else combine_usage(earlier, record)
    for skill, found in keys.items():
        if len(found) > 1:
            problems.append(
                f"{USAGE_FILE}: records {', '.join(map(repr, found))} all name skill {skill}; "
                "their counts were added up"
            )
    return by_skill, sum(len(found) for found in keys.values())


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


def _hub_skills(data: bytes | None, index: Mapping[str, str], problems: list[str]) -> set[str]:
    if data is None:
        return set()
    installed, found = parse_hub_lock(data)
    problems += found
    skills: set[str] = set()
    unknown: list[str] = []
    for name, path in installed.items():
        # install_path locates the folder exactly; the name is Hermes' fallback, and ours.
        skill = (index.get(path) if path else None) or index.get(name)
        if skill is None:
            unknown.append(name)
        else:
            skills.add(skill)
    if unknown:
        problems.append(f"{HUB_LOCK} lists skills not in the folder, ignored: {_names(unknown)}")
    return skills


def _bundled_skills(data: bytes | None, index: Mapping[str, str], problems: list[str]) -> set[str]:
    if data is None:
        return set()
    names, found = parse_bundled_manifest(data)
    problems += found
    unknown = [n for n in names if n not in index]
    if unknown:
        # Usual: a person deleted a bundled skill, or Hermes' curator pruned it.
        problems.append(
            f"{BUNDLED_MANIFEST} lists skills not in the folder, ignored: {_names(unknown)}"
        )
    return {index[n] for n in names if n in index}


def _names(names: Sequence[str], shown: int = 8) -> str:
    text = ", ".join(names[:shown])
    return text + (f" and {len(names) - shown} more" if len(names) > shown else "")


# -- merging into gitcurator's records -------------------------------------------------------


def merge_facts(record: UsageRecord | None, skill: str, facts: SkillFacts, now: str) -> UsageRecord:
    """`record` with Hermes' facts, so that importing again changes nothing.

    Hermes' counters replace the `hermes-import` host and its history the imported values
    (both are Hermes' current totals, never added twice). Origin and pin only fill gaps: a
    choice already recorded in gitcurator (`track`, `adopt`, `unpin`, an earlier import) wins.
    """
    record = record or UsageRecord(skill)
    changes: dict[str, Any] = {}
    if facts.has_usage:
        hosts = {h: c for h, c in record.hosts.items() if h != HOST}
        if facts.counters is not None:
            hosts[HOST] = facts.counters
        if hosts != dict(record.hosts):
            changes["hosts"] = dict(sorted(hosts.items()))
        if facts.imported is not None and facts.imported != record.imported:
            changes["imported"] = facts.imported
    if facts.origin and record.origin is None:
        changes["origin"] = Stamped(facts.origin, now)
    if facts.pinned and record.pinned is None:
        changes["pinned"] = Stamped(True, now)
    archived_at = latest(record.archived_at, facts.archived_at)
    if archived_at != record.archived_at:
        changes["archived_at"] = archived_at
    return replace(record, **changes) if changes else record


def summarise(
    locations: Sequence[SkillLocation], plan: ImportPlan, records: Mapping[str, UsageRecord]
) -> dict[str, Any]:
    """Counts for the import's report: skills, archived, origins, pins, usage records."""
    origins = dict.fromkeys(ORIGINS, 0)
    pinned = 0
    for skill in sorted({identity(loc) for loc in locations}):
        record = records.get(skill) or UsageRecord(skill)
        origins[record.origin_value] += 1
        pinned += record.is_pinned
    return {
        "skills": sum(1 for loc in locations if not loc.archived),
        "archived": sum(1 for loc in locations if loc.archived),
        "by_origin": origins,
        "pinned": pinned,
        "usage_records": {
            "read": plan.usage_records,
            "imported": plan.usage_matched,
            "skipped": plan.usage_records - plan.usage_matched,
        },
    }
