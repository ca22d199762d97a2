"""`validate`'s caches in .git/gitcurator/, both keyed by content:

- statefiles.VALIDATE_CACHE: the work tree's records (store/worktree_stat: each file's stat
  data and blob id, each folder's listing) and the last whole-library result with the digest
  of everything it followed from (every path, blob id, symlink target, nested repository, the
  notes commit, `strict`); an unchanged library is answered from it without a check.
- statefiles.VALIDATE_RESULTS: each skill's findings by its folder's content, names by
  SKILL.md, reference candidates by blob (skills/check_memo), read only when something changed.

Each file is a header line (format, key, the body's SHA-1) and the body's JSON. The key is
gitcurator's version, the rules' version (check_memo.RULES_VERSION) and a digest of the config;
under another key no result is used (the work-tree records stay: they say nothing about rules).
A missing, truncated, edited, linked or foreign file is ignored, never trusted: the run is then
as without a cache. One that cannot be written (a read-only state folder) is skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from gitcurator import __version__
from gitcurator.errors import StateFileError
from gitcurator.references.scan import Candidate
from gitcurator.skills.check_memo import RULES_VERSION, Layout, SkillMemo, Summary
from gitcurator.skills.check_skill import Finding
from gitcurator.skills.check_tree import CheckResult
from gitcurator.skills.document import SkillLocation
from gitcurator.statefiles import VALIDATE_CACHE, VALIDATE_RESULTS, open_regular, write_cache
from gitcurator.store.worktree_stat import (
    StatTree,
    WorktreeRecords,
    records_changed,
    sound_records,
)

_FORMAT = 2
_MAX_BYTES = 512 * 1024 * 1024


@dataclass(slots=True)
class Results:
    """Per-skill results, names and candidates as the results file held them."""

    skills: dict[str, Summary] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    candidates: dict[str, list[Candidate] | str] = field(default_factory=dict)
    layout: Layout | None = None


@dataclass(slots=True)
class ValidateCache:
    """What the state file held (empty parts where it was missing or not to be trusted)."""

    folder: Path
    key: str
    worktree: WorktreeRecords = field(default_factory=WorktreeRecords)
    final: tuple[str, CheckResult] | None = None
    started_ns: int = field(default_factory=time.time_ns)
    _results: Results | None = None

    def results(self) -> Results:
        """The results file, read on first use (an unchanged library never needs it)."""
        if self._results is None:
            self._results = Results()
            with contextlib.suppress(*_DAMAGE):
                self._results = _results_of(_read(self.folder / VALIDATE_RESULTS, self.key))
        return self._results


_DAMAGE = (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError)


def cache_key(config: str) -> str:
    """gitcurator's version, the rules' and the config's digest: what else decides a verdict."""
    digest = hashlib.sha1(config.encode("utf-8", "surrogateescape")).hexdigest()
    return f"{__version__}/{RULES_VERSION}/{digest}"


def library_digest(scan: StatTree, notes: bytes | None, strict: bool) -> str:
    """A digest of everything a whole-library validation follows from: every path with its
    blob id and mode where known ('?' for a file no check needs: which files a check reads
    follows from the paths), every symlink's target, the nested repositories, the notes
    commit (absorbed names) and `strict`."""
    digest = hashlib.sha1(f"{int(strict)}\0{notes!r}\0{scan.nested!r}\n".encode())
    links, contents = scan.tree.links, scan.contents
    lines = []
    for path in scan.tree.paths:
        got = contents.get(path)
        link = links.get(path)
        lines.append(
            f"{path}\0{got[0] if got else '?'}\0{got[1] if got else '?'}\0"
            f"{'' if link is None else link}\n"
        )
    digest.update("".join(lines).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def read_cache(folder: Path, key: str) -> ValidateCache:
    """The caches in the state `folder`, as far as they are sound and made under `key`."""
    cache = ValidateCache(folder, key)
    try:
        doc = _read(folder / VALIDATE_CACHE, None)
        cache.worktree = sound_records(doc["worktree"])
        if doc["key"] == key:
            cache.final = _final_of(doc["final"])
    except _DAMAGE:
        return ValidateCache(folder, key, started_ns=cache.started_ns)
    return cache


def _read(path: Path, key: str | None) -> dict[str, object]:
    """A cache file's body, if its header says it is whole (and made under `key`)."""
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
        or head.get("format") != _FORMAT
        or hashlib.sha1(body).hexdigest() != head.get("sha1")
        or (key is not None and head.get("key") != key)
    ):
        raise ValueError("not a sound cache")
    doc = json.loads(body)
    if not isinstance(doc, dict):
        raise TypeError("not a cache")
    doc["key"] = head.get("key")
    return doc


def _results_of(doc: Mapping[str, object]) -> Results:
    """The results file's parts, each checked for shape (a wrong one raises, dropping all)."""
    skills, names, candidates = doc["skills"], doc["names"], doc["candidates"]
    if not (isinstance(skills, dict) and isinstance(names, dict) and isinstance(candidates, dict)):
        raise TypeError("not a validate cache")
    if not all(type(v) is str for v in names.values()):
        raise TypeError("not a name")
    for found in candidates.values():
        if type(found) is not str:
            for kind, token, line in found:
                if not (type(kind) is str and type(token) is str and type(line) is int):
                    raise TypeError("not a candidate")
    layout = _layout_of(doc["layout"])
    return Results({k: _summary(v) for k, v in skills.items()}, names, candidates, layout)


def _layout_of(value: object) -> Layout | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError("not a layout")
    digest, refs_key = value["digest"], value["refs_key"]
    if type(digest) is not str or type(refs_key) is not str:
        raise TypeError("not a layout")
    locations = tuple(_location(v) for v in value["locations"])
    hidden = tuple(value["hidden"])
    if not all(type(h) is str for h in hidden):
        raise TypeError("not a path")
    sources = value["sources"]
    if sources is not None:
        sources = tuple(_source(v) for v in sources)
    refs = {k: tuple(_finding_of(f) for f in v) for k, v in value["refs"].items()}
    if not all(type(k) is str for k in refs):
        raise TypeError("not a key")
    return Layout(digest, locations, hidden, sources, refs_key, refs)


def _location(value: object) -> SkillLocation:
    if not isinstance(value, list) or len(value) != 4:
        raise TypeError("not a skill")
    folder, skill_md, archived, skills_dir = value
    if not (type(folder) is str and type(skill_md) is str and type(skills_dir) is str):
        raise TypeError("not a skill")
    return SkillLocation(folder, skill_md, bool(archived), skills_dir)


def _source(value: object) -> tuple[str, str, bool, bool]:
    if not isinstance(value, list) or len(value) != 4:
        raise TypeError("not a source")
    path, source, from_skill, live = value
    if type(path) is not str or type(source) is not str:
        raise TypeError("not a source")
    return path, source, bool(from_skill), bool(live)


def _summary(value: object) -> Summary:
    if not isinstance(value, list) or len(value) != 2 or type(value[1]) is not str:
        raise TypeError("not a skill's result")
    return tuple(_finding_of(f) for f in value[0]), value[1]


def _finding_of(value: object) -> Finding:
    if not isinstance(value, list) or len(value) != 5:
        raise TypeError("not a finding")
    level, path, message, rule, line = value
    if not all(type(v) is str for v in (level, path, message, rule)):
        raise TypeError("not a finding")
    if line is not None and type(line) is not int:
        raise TypeError("not a line")
    return Finding(level, path, message, rule, line)


def _final_of(value: object) -> tuple[str, CheckResult] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or type(value["digest"]) is not str:
        raise TypeError("not a result")
    checked = [_location(v) for v in value["checked"]]
    findings = tuple(_finding_of(f) for f in value["findings"])
    ignored, hidden = value["ignored"], value["hidden"]
    if not all(type(p) is str for p in (*ignored, *hidden)):
        raise TypeError("not a path")
    return value["digest"], CheckResult(tuple(checked), findings, tuple(ignored), tuple(hidden))


def memo_of(cache: ValidateCache, contents: dict[str, tuple[str, int]]) -> SkillMemo:
    """The memo check_tree reads the results through, over these file contents."""
    results = cache.results()
    return SkillMemo(
        contents,
        results.skills,
        results.names,
        known_candidates=results.candidates,
        known_layout=results.layout,
    )


def save_cache(
    cache: ValidateCache,
    memo: SkillMemo | None,
    worktree: WorktreeRecords | None,
    *,
    whole: bool,
    final: tuple[str, CheckResult] | None = None,
) -> None:
    """Write what this run used and found, where it differs from what was read: with `whole`
    (every skill was looked at) only that, else merged with what the cache held; `worktree`
    are the work tree's new records and `final` the whole library's result (None: the run
    made none, the old ones stay)."""
    if memo is not None:
        _save_results(cache, memo, whole)
    # Records taken over keep their truth under the new time: each was checked this run.
    changed = worktree is not None and records_changed(cache.worktree, worktree)
    records = worktree if worktree is not None and changed else cache.worktree
    kept = final or cache.final
    if not changed and kept is cache.final:
        return
    doc = {"worktree": asdict(records), "final": _final_doc(kept)}
    _write(cache.folder / VALIDATE_CACHE, cache.key, doc)


def _save_results(cache: ValidateCache, memo: SkillMemo, whole: bool) -> None:
    old = cache.results()
    skills, names, candidates = memo.fresh, memo.fresh_names, memo.fresh_candidates
    if not whole:
        skills = {**old.skills, **skills}
        names = {**old.names, **names}
        candidates = {**old.candidates, **candidates}
    layout = memo.fresh_layout or old.layout
    if (
        skills.keys() == old.skills.keys()
        and names == old.names
        and candidates.keys() == old.candidates.keys()
        and layout == old.layout
    ):
        return
    doc = {
        "skills": {k: [[_finding(f) for f in found], n] for k, (found, n) in skills.items()},
        "names": names,
        "candidates": candidates,
        "layout": _layout_doc(layout),
    }
    _write(cache.folder / VALIDATE_RESULTS, cache.key, doc)


def _layout_doc(layout: Layout | None) -> object:
    if layout is None:
        return None
    return {
        "digest": layout.digest,
        "locations": [_location_doc(s) for s in layout.locations],
        "hidden": list(layout.hidden),
        "sources": None if layout.sources is None else [list(s) for s in layout.sources],
        "refs_key": layout.refs_key,
        "refs": {k: [_finding(f) for f in v] for k, v in layout.refs.items()},
    }


def _location_doc(s: SkillLocation) -> list[object]:
    return [s.folder, s.skill_md, s.archived, s.skills_dir]


def _final_doc(final: tuple[str, CheckResult] | None) -> object:
    if final is None:
        return None
    digest, result = final
    return {
        "digest": digest,
        "checked": [_location_doc(s) for s in result.checked],
        "findings": [_finding(f) for f in result.findings],
        "ignored": list(result.ignored),
        "hidden": list(result.hidden),
    }


def _write(path: Path, key: str, doc: object) -> None:
    body = json.dumps(doc, separators=(",", ":"))  # ASCII: a path's surrogates are escaped
    header = json.dumps(
        {"format": _FORMAT, "key": key, "sha1": hashlib.sha1(body.encode()).hexdigest()}
    )
    write_cache(path, header + "\n" + body)


def _finding(f: Finding) -> list[object]:
    return [f.level, f.path, f.message, f.rule, f.line]
