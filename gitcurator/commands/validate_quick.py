"""`validate`'s answer for an unchanged library, and the file format of its state files.

statefiles.VALIDATE_QUICK holds the last whole-library result beside a fingerprint of the
work tree it was found on (store/worktree_fingerprint: every folder's and file's stat data),
what else that result follows from (the ignore rules' stat data, HEAD's tree and the index's
submodule links for nested repositories, the notes commit, `strict`), and the cache key
(gitcurator's version, the rules', the config's digest). When all of that is as it was, the
result is returned without reading the per-file records or checking anything; otherwise the
caller takes the full path (commands/validate_cache).

Every state file is a header line (format, key, the body's SHA-1) and the body's JSON; one
that is missing, truncated, edited, linked or foreign is ignored, never trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator import __version__, timeutil
from gitcurator.errors import StateFileError
from gitcurator.skills.check_memo import RULES_VERSION
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.check_tree import CheckResult
from gitcurator.skills.document import SkillLocation
from gitcurator.statefiles import VALIDATE_QUICK, open_regular, write_cache
from gitcurator.store.notes import notes_commit
from gitcurator.store.worktree_fingerprint import Seen, TreePrint, digest_of, live_stats
from gitcurator.store.worktree_stat import nested_key
from gitcurator.store.worktree_walk import ignore_sources

if TYPE_CHECKING:
    from gitcurator.store.repository import Store

FORMAT = 3
_MAX_BYTES = 512 * 1024 * 1024
DAMAGE = (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError)


def cache_key(config: str) -> str:
    """gitcurator's version, the rules' and the config's digest: what else decides a verdict."""
    digest = hashlib.sha1(config.encode("utf-8", "surrogateescape")).hexdigest()
    return f"{__version__}/{RULES_VERSION}/{digest}"


@dataclass(frozen=True, slots=True)
class QuickLook:
    """The quick file's body when all the last result follows from but the work tree held,
    the folders and files it covers with each one's stat now, and the result if those are
    unchanged too (None: commands/validate_delta may still answer from what changed)."""

    doc: dict[str, object]
    dirs: tuple[str, ...]
    files: tuple[str, ...]
    ctimes: list[int]
    texts: list[str]
    result: CheckResult | None


def quick_result(
    store: Store, folder: Path, key: str, strict: bool, seen: Seen | None = None
) -> CheckResult | None:
    """The last whole-library result, if the work tree and all it follows from are unchanged;
    `seen` hears the stats taken, for a full walk to take over when they are not."""
    look = quick_look(store, folder, key, strict, seen)
    return None if look is None else look.result


def quick_look(
    store: Store, folder: Path, key: str, strict: bool, seen: Seen | None = None
) -> QuickLook | None:
    """quick_result's look at the work tree, kept for a delta when the answer is not it."""
    with contextlib.suppress(*DAMAGE):
        doc = read_state(folder / VALIDATE_QUICK, key)
        if doc["strict"] is not strict or doc["notes"] != _hex(notes_commit(store)):
            return None
        if doc["sources"] != ignore_sources(store) or doc["nested_key"] != nested_key(store):
            return None
        dirs, files = _names(doc["dirs"]), _names(doc["files"])
        got = live_stats(str(store.root), dirs, files, seen)
        if got is None:
            return None
        same = digest_of(*got) == doc["print"]
        return QuickLook(doc, dirs, files, *got, final_of(doc["final"]) if same else None)
    return None


def save_quick(
    store: Store,
    folder: Path,
    key: str,
    strict: bool,
    fingerprint: TreePrint,
    depends_on: tuple[list[object], list[object]],
    result: CheckResult,
    started_ns: int,
    notes: bytes | None,
    pair: str | None = None,
) -> None:
    """Keep `result` as the answer while `fingerprint` and `depends_on` (the ignore sources
    and the nested repositories' key the walk used) and the notes commit `notes` it was
    computed with hold, with the token `pair` of the base saved with it; not when one of
    those files was changed within a second of `started_ns` (a change in the same clock
    tick would not show)."""
    sources, nested = depends_on
    limit = started_ns - timeutil.RACY_NS
    sigs = [s for s in (*sources, *nested) if isinstance(s, list)]
    if any(not isinstance(n, int) or n >= limit for s in sigs for n in s[:2]):
        return
    doc = {
        "strict": strict,
        # The notes the result was computed with, not the ones now: a flush during the run
        # must make the next run check again.
        "notes": _hex(notes),
        "sources": sources,
        "nested_key": nested,
        "dirs": "\0".join(fingerprint.dirs),
        "files": "\0".join(fingerprint.files),
        "print": fingerprint.digest,
        "pair": pair,
        "final": final_doc(result),
    }
    write_state(folder / VALIDATE_QUICK, key, doc)


def _hex(commit: bytes | None) -> str | None:
    return None if commit is None else commit.decode("ascii")


def _names(joined: object) -> tuple[str, ...]:
    if type(joined) is not str:
        raise TypeError("not a listing")
    return tuple(joined.split("\0")) if joined else ()


def read_state(path: Path, key: str | None) -> dict[str, object]:
    """A state file's body, if its header says it is whole (and made under `key`)."""
    try:
        fd = open_regular(path, os.O_RDONLY)
    except StateFileError as exc:
        raise OSError(str(exc)) from None
    with os.fdopen(fd, "rb") as file:
        raw = file.read(_MAX_BYTES + 1)
    header, _, body = raw.partition(b"\n")
    head = json.loads(header)
    if (
        not isinstance(head, dict)
        or head.get("format") != FORMAT
        or hashlib.sha1(body).hexdigest() != head.get("sha1")
        or (key is not None and head.get("key") != key)
    ):
        raise ValueError("not a sound cache")
    doc = json.loads(body)
    if not isinstance(doc, dict):
        raise TypeError("not a cache")
    doc["key"] = head.get("key")
    return doc


def write_state(path: Path, key: str, doc: object) -> None:
    """`doc` under a header naming `key`, atomically (skipped where it cannot be written)."""
    body = json.dumps(doc, separators=(",", ":"))  # ASCII: a path's surrogates are escaped
    header = json.dumps(
        {"format": FORMAT, "key": key, "sha1": hashlib.sha1(body.encode()).hexdigest()}
    )
    write_cache(path, header + "\n" + body)


def final_of(value: object) -> CheckResult:
    """A whole-library result as final_doc wrote it (TypeError when it has another shape)."""
    if not isinstance(value, dict):
        raise TypeError("not a result")
    checked = _locations_of(value["checked"])
    findings = tuple(finding_of(f) for f in value["findings"])
    ignored, hidden = value["ignored"], value["hidden"]
    if not all(type(p) is str for p in (*ignored, *hidden)):
        raise TypeError("not a path")
    return CheckResult(checked, findings, tuple(ignored), tuple(hidden))


def final_doc(result: CheckResult) -> dict[str, object]:
    """A whole-library result as JSON data."""
    return {
        "checked": _locations_doc(result.checked),
        "findings": [finding_doc(f) for f in result.findings],
        "ignored": list(result.ignored),
        "hidden": list(result.hidden),
    }


def _locations_doc(found: Sequence[SkillLocation]) -> dict[str, object]:
    # Each field of 10,000 skills as one NUL-joined string (no path holds a NUL): read back
    # in a third of the time a list per skill takes.
    return {
        "count": len(found),
        "folders": "\0".join(s.folder for s in found),
        "skill_mds": "\0".join(s.skill_md for s in found),
        "archived": "".join("1" if s.archived else "0" for s in found),
        "skills_dirs": "\0".join(s.skills_dir for s in found),
    }


def _locations_of(value: object) -> tuple[SkillLocation, ...]:
    if not isinstance(value, dict) or type(value["count"]) is not int:
        raise TypeError("not skills")
    count = value["count"]
    if count == 0:
        return ()
    fields = [value[k] for k in ("folders", "skill_mds", "skills_dirs")]
    archived = value["archived"]
    if not all(type(f) is str for f in (*fields, archived)):
        raise TypeError("not skills")
    folders, skill_mds, skills_dirs = (f.split("\0") for f in fields)
    if not len(folders) == len(skill_mds) == len(skills_dirs) == len(archived) == count:
        raise TypeError("not skills")
    if archived.strip("01"):
        raise TypeError("not skills")
    flags = [a == "1" for a in archived]
    return tuple(map(SkillLocation, folders, skill_mds, flags, skills_dirs))


def location_of(value: object) -> SkillLocation:
    """A skill's location as location_doc wrote it."""
    if not isinstance(value, list) or len(value) != 4:
        raise TypeError("not a skill")
    folder, skill_md, archived, skills_dir = value
    if not (type(folder) is str and type(skill_md) is str and type(skills_dir) is str):
        raise TypeError("not a skill")
    return SkillLocation(folder, skill_md, bool(archived), skills_dir)


def location_doc(s: SkillLocation) -> list[object]:
    """A skill's location as JSON data."""
    return [s.folder, s.skill_md, s.archived, s.skills_dir]


def finding_of(value: object) -> Finding:
    """A finding as finding_doc wrote it."""
    if not isinstance(value, list) or len(value) != 5:
        raise TypeError("not a finding")
    level, path, message, rule, line = value
    if not all(type(v) is str for v in (level, path, message, rule)):
        raise TypeError("not a finding")
    if line is not None and type(line) is not int:
        raise TypeError("not a line")
    return Finding(level, path, message, rule, line)


def finding_doc(f: Finding) -> list[object]:
    """A finding as JSON data."""
    return [f.level, f.path, f.message, f.rule, f.line]
