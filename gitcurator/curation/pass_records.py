"""What a pass takes from the usage records, kept beside the rows under the same rows key.

A pass plans from the rows `list` and `status` keep (curation/rows_cache) and from three
facts of the records themselves: the lifecycle state the previous pass recorded per skill,
the absorbed names (name -> umbrella) and the records that could not be read. Loading every
record to find them costs a third of a warm pass at 10,000 skills, so they are kept under
the rows key (HEAD, the notes commit, every pending event's bytes, the config): when the key
holds, they are what ledger.load would give. Like the rows, they are kept only when no
pending event was left out for its time, and refused when the reader's clock would now
leave out one that was counted. The facts carry their own digest and every state must be one
a record may hold: a file edited by hand (a state or a name changed, an entry dropped) is
refused, as a damaged one is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from gitcurator.curation import rows_cache
from gitcurator.library import SkillsRepo
from gitcurator.lifecycle.rules import ACTIVE, STALE
from gitcurator.statefiles import PASS_RECORDS_CACHE, read_cache_json, write_cache_json
from gitcurator.telemetry import notes_records
from gitcurator.telemetry.records import absorbed_of

_FORMAT = 2  # raised whenever what is kept changes
_STATES = (ACTIVE, STALE)  # what a record's lifecycle may say (the usage-record schema)


@dataclass(frozen=True, slots=True)
class PassRecords:
    """The records' facts a pass plans from."""

    recorded: Mapping[str, str]  # skill -> the lifecycle state the previous pass left it in
    aliases: Mapping[str, str]  # absorbed name -> umbrella
    problems: tuple[str, ...]  # records that could not be read, in words


def from_loaded(loaded: notes_records.Loaded) -> PassRecords:
    """The facts of records loaded by ledger.load."""
    records = loaded.records
    return PassRecords(
        recorded={n: r.lifecycle.value for n, r in records.items() if r.lifecycle},
        aliases=absorbed_of(records),
        problems=tuple(loaded.problems),
    )


def read_kept(repo: SkillsRepo, key: rows_cache.RowsKey, latest: str) -> PassRecords | None:
    """The facts kept under `key`; None on any doubt (then the records are loaded)."""
    opening = b'{"key":"' + key.digest.encode() + b'"'
    doc = read_cache_json(repo.store.state_dir() / PASS_RECORDS_CACHE, opening)
    try:
        if doc["key"] != key.digest or doc["format"] != _FORMAT:
            return None
        if doc["newest_event"] > latest:  # an event the clock now leaves out was counted
            return None
        recorded, aliases, problems = doc["recorded"], doc["aliases"], doc["problems"]
        if not (_names(recorded) and _names(aliases)):
            return None
        if not all(v in _STATES for v in recorded.values()):
            return None
        if not (isinstance(problems, list) and all(isinstance(p, str) for p in problems)):
            return None
        if doc["sha1"] != _digest(recorded, aliases, problems):
            return None
        return PassRecords(recorded, aliases, tuple(problems))
    except (KeyError, TypeError, ValueError):
        return None


def keep(repo: SkillsRepo, key: rows_cache.RowsKey, latest: str, facts: PassRecords) -> None:
    """Keep `facts`, loaded under `key` at `latest`, unless a pending event was left out for
    its time or the key moved while they loaded (skipped when the file cannot be written)."""
    newest = rows_cache.newest_event(key)
    if newest > latest or rows_cache.rows_key(repo, key.commit) != key:
        return
    doc = {
        "key": key.digest,
        "format": _FORMAT,
        "newest_event": newest,
        "recorded": dict(facts.recorded),
        "aliases": dict(facts.aliases),
        "problems": list(facts.problems),
        "sha1": _digest(facts.recorded, facts.aliases, list(facts.problems)),
    }
    write_cache_json(repo.store.state_dir() / PASS_RECORDS_CACHE, doc)


def _digest(recorded: Mapping[str, str], aliases: Mapping[str, str], problems: list[str]) -> str:
    """The digest of the facts as JSON writes them (a parsed file gives back the same text)."""
    text = json.dumps([dict(recorded), dict(aliases), problems], separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _names(value: object) -> bool:
    """Whether `value` maps strings to non-empty strings."""
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in value.items()
    )
