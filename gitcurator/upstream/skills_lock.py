"""`skills-lock.json`, the project lock of the `npx skills` CLI: read, written, and its hash.

The format, as the CLI writes it (npm package `skills` 1.5.18, github.com/vercel-labs/skills,
read in its dist/cli.mjs: writeLocalLock, computeSkillFolderHash, collectFiles):
`{"version": 1, "skills": {NAME: {"source", "ref"?, "sourceType", "computedHash", ...}}}`,
`JSON.stringify(lock, null, 2) + "\\n"` with the skills sorted by name (JavaScript's default
sort: UTF-16 code units). Fields this module does not know are kept in place, so reading and
writing a lock loses nothing; unknown top-level fields are kept after `skills` (the CLI itself
drops them).

`computedHash` is SHA-256 over the skill folder's regular files in `localeCompare` order of
their posix paths (`path_collation`), each fed as its path (UTF-8) then its bytes, with no
separator; symlinks are not files there (skipped, never followed), and folders named `.git`
or `node_modules` are skipped at any depth.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gitcurator.errors import JSON_READ_ERRORS, CuratorError
from gitcurator.render import utf8_text
from gitcurator.upstream.folder_merge import EXECUTABLE, REGULAR, FileEntry
from gitcurator.upstream.path_collation import locale_key

LOCK_FILE = "skills-lock.json"
LOCK_VERSION = 1
SKIPPED_FOLDERS = frozenset({".git", "node_modules"})
# The CLI's own field order for an entry it writes (sourceUrl, skillPath, subagents are its
# optional fields, kept as extra fields here).
FIELD_ORDER = ("source", "ref", "sourceType", "computedHash")
_MARKER = re.compile(r"^(<{7}|={7}|>{7}|\|{7})(?: |\r?$)", re.M)
_INDEX_KEY = re.compile(r"0|[1-9][0-9]*")
# A name is the skill's folder: one path part, as the CLI's own sanitised names are.
_BAD_NAME = re.compile(r"[/\\\0]|^\.{1,2}$")


class SkillsLockError(CuratorError):
    """skills-lock.json cannot be read: not JSON, a wrong version, an entry of the wrong shape."""


class SkillsLockConflict(SkillsLockError):
    """skills-lock.json holds merge conflict markers."""


@dataclass(frozen=True, slots=True)
class LockEntry:
    """One skill of the lock: where it came from and the hash of its folder as installed."""

    source: str
    source_type: str
    computed_hash: str
    ref: str | None = None
    # Fields gitcurator does not interpret, and every field's place, kept for the round trip.
    extra: Mapping[str, Any] = field(default_factory=dict)
    order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SkillsLock:
    """The lock: its version, its entries by skill name, unknown top-level fields."""

    skills: Mapping[str, LockEntry] = field(default_factory=dict)
    version: int = LOCK_VERSION
    extra: Mapping[str, Any] = field(default_factory=dict)


def parse_lock(text: str) -> SkillsLock:
    """Read a lock's text; a SkillsLockError names what is wrong and what to do."""
    marker = _MARKER.search(text)
    if marker:
        line = text.count("\n", 0, marker.start()) + 1
        raise SkillsLockConflict(
            f"{LOCK_FILE} has merge conflict markers (line {line}): resolve them by keeping "
            "the entries of both sides (or let `npx skills` heal the file), then run again"
        )
    try:
        document = json.loads(
            text.lstrip("\ufeff"),
            object_pairs_hook=_unique_keys,
            parse_constant=_not_json,
            parse_float=_finite,
        )
    except SkillsLockError:
        raise
    except JSON_READ_ERRORS as error:
        raise SkillsLockError(
            f"{LOCK_FILE} is not valid JSON ({error}); fix or remove it"
        ) from None
    if not isinstance(document, dict):
        raise SkillsLockError(f"{LOCK_FILE} must hold a JSON object; fix or remove it")
    version = document.get("version")
    if type(version) is not int or version != LOCK_VERSION:
        raise SkillsLockError(
            f"{LOCK_FILE} has version {version!r}; gitcurator reads version {LOCK_VERSION} "
            "(update or remove the file)"
        )
    skills = document.get("skills", {})
    if not isinstance(skills, dict):
        raise SkillsLockError(f"{LOCK_FILE}: 'skills' must be an object of entries by name")
    entries = {name: _entry(name, value) for name, value in skills.items()}
    extra = {k: v for k, v in document.items() if k not in ("version", "skills")}
    return SkillsLock(entries, version, extra)


def render_lock(lock: SkillsLock) -> str:
    """The lock's text as the CLI writes it: two-space JSON, entries by name, a final newline."""
    document: dict[str, Any] = {"version": lock.version}
    document["skills"] = {name: _fields(lock.skills[name]) for name in _js_key_order(lock.skills)}
    document.update(lock.extra)
    text = json.dumps(document, indent=2, ensure_ascii=False)
    # JSON.stringify writes a lone surrogate as an escape; Python would write it raw.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def with_entry(lock: SkillsLock, name: str, entry: LockEntry) -> SkillsLock:
    """The lock with `name`'s entry set (added or replaced); the other entries untouched."""
    return dataclasses.replace(lock, skills={**lock.skills, name: entry})


def computed_hash(files: Mapping[str, bytes]) -> str:
    """`computedHash` of a skill folder's regular files (paths relative to it, posix)."""
    digest = hashlib.sha256()
    kept = [p for p in files if not SKIPPED_FOLDERS & set(p.split("/")[:-1])]
    for path in sorted(kept, key=locale_key):
        digest.update(path.encode("utf-8", errors="surrogatepass"))
        digest.update(files[path])
    return digest.hexdigest()


def folder_hash(entries: Mapping[str, FileEntry]) -> str:
    """`computedHash` of a folder given as entries: symlinks and submodules are not files."""
    files = {p: e.content for p, e in entries.items() if e.mode in (REGULAR, EXECUTABLE)}
    return computed_hash(files)


def _entry(name: str, value: object) -> LockEntry:
    where = f"{LOCK_FILE}: skill {name!r}"
    if not name:
        raise SkillsLockError(f"{LOCK_FILE}: an entry has an empty name; remove it")
    if _BAD_NAME.search(name) or not utf8_text(name):
        raise SkillsLockError(
            f"{where} is no folder name (a '/', '\\', NUL, '.', '..' or a lone surrogate); "
            "rename or remove the entry"
        )
    if not isinstance(value, dict):
        raise SkillsLockError(f"{where} must be an object with source, sourceType, computedHash")
    for key in ("source", "sourceType", "computedHash"):
        if not isinstance(value.get(key), str) or not utf8_text(value[key]):
            raise SkillsLockError(f"{where}: {key!r} must be a string; fix the entry or remove it")
    if "ref" in value and not (isinstance(value["ref"], str) and utf8_text(value["ref"])):
        raise SkillsLockError(f"{where}: 'ref' must be a string when present; fix the entry")
    extra = {k: v for k, v in value.items() if k not in FIELD_ORDER}
    ref = value.get("ref")
    order = tuple(value)
    return LockEntry(value["source"], value["sourceType"], value["computedHash"], ref, extra, order)


def _fields(entry: LockEntry) -> dict[str, Any]:
    known: dict[str, Any] = {
        "source": entry.source,
        "ref": entry.ref,
        "sourceType": entry.source_type,
        "computedHash": entry.computed_hash,
    }
    values = {**known, **entry.extra}
    order = [k for k in entry.order if k in values]
    order += [k for k in (*FIELD_ORDER, *entry.extra) if k not in order]
    return {k: values[k] for k in order if not (k == "ref" and entry.ref is None)}


def _js_key_order(names: Mapping[str, object]) -> list[str]:
    """Names as a JavaScript object keeps them after sorting: array-index keys first, by
    number, then the rest by UTF-16 code units (`Object.keys(...).sort()`)."""
    index = sorted((n for n in names if _INDEX_KEY.fullmatch(n) and int(n) < 2**32 - 1), key=int)
    rest = sorted(
        (n for n in names if n not in index),
        key=lambda n: n.encode("utf-16-be", errors="surrogatepass"),
    )
    return index + rest


def _not_json(literal: str) -> float:
    # Python reads NaN and Infinity, which are no JSON: written back, the CLI could not read it.
    raise SkillsLockError(f"{LOCK_FILE} holds {literal}, which is not JSON; fix or remove it")


def _finite(literal: str) -> float:
    number = float(literal)
    if not math.isfinite(number):
        raise SkillsLockError(
            f"{LOCK_FILE} holds the number {literal[:40]}, too large for JSON; fix or remove it"
        )
    return number


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise SkillsLockError(
                f"{LOCK_FILE} names {key!r} twice (a merge kept both copies?); "
                "keep one and run again"
            )
        found[key] = value
    return found
