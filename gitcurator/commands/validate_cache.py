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
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

from gitcurator.commands.validate_quick import (
    DAMAGE,
    final_doc,
    final_of,
    finding_doc,
    finding_of,
    location_doc,
    location_of,
    read_state,
    write_state,
)
from gitcurator.references.scan import Candidate
from gitcurator.skills.check_memo import Layout, SkillMemo, Summary
from gitcurator.skills.check_tree import CheckResult
from gitcurator.statefiles import VALIDATE_CACHE, VALIDATE_RESULTS
from gitcurator.store.worktree_stat import (
    StatTree,
    WorktreeRecords,
    records_changed,
    sound_records,
)


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
            with contextlib.suppress(*DAMAGE):
                self._results = _results_of(read_state(self.folder / VALIDATE_RESULTS, self.key))
        return self._results


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


def read_cache(folder: Path, key: str, started_ns: int | None = None) -> ValidateCache:
    """The caches in the state `folder`, as far as they are sound and made under `key`;
    `started_ns` is when this run began looking at the work tree (default: now)."""
    cache = (
        ValidateCache(folder, key)
        if started_ns is None
        else ValidateCache(folder, key, started_ns=started_ns)
    )
    try:
        doc = read_state(folder / VALIDATE_CACHE, None)
        cache.worktree = sound_records(doc["worktree"])
        if doc["key"] == key:
            cache.final = _final_of(doc["final"])
    except DAMAGE:
        return ValidateCache(folder, key, started_ns=cache.started_ns)
    return cache


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
    locations = tuple(location_of(v) for v in value["locations"])
    hidden = tuple(value["hidden"])
    if not all(type(h) is str for h in hidden):
        raise TypeError("not a path")
    sources = value["sources"]
    if sources is not None:
        sources = tuple(_source(v) for v in sources)
    refs = {k: tuple(finding_of(f) for f in v) for k, v in value["refs"].items()}
    if not all(type(k) is str for k in refs):
        raise TypeError("not a key")
    return Layout(digest, locations, hidden, sources, refs_key, refs)


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
    return tuple(finding_of(f) for f in value[0]), value[1]


def _final_of(value: object) -> tuple[str, CheckResult] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or type(value["digest"]) is not str:
        raise TypeError("not a result")
    return value["digest"], final_of(value)


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
    made none, the old ones stay). A change of a few files is not written at all: rewriting
    the two files (12 MB at 10,000 skills) costs more than the next run's re-reading and
    re-checking those few, and what a cache lacks is only worked out again."""
    if memo is not None and _few_changes(cache, memo, worktree):
        return
    if memo is not None:
        _save_results(cache, memo, whole)
    # Records taken over keep their truth under the new time: each was checked this run.
    changed = worktree is not None and records_changed(cache.worktree, worktree)
    records = worktree if worktree is not None and changed else cache.worktree
    kept = final or cache.final
    if not changed and kept is cache.final:
        return
    # Not dataclasses.asdict: it deep-copies 40,000 records (1 s at 10,000 skills).
    worktree_doc = {f.name: getattr(records, f.name) for f in fields(records)}
    doc = {"worktree": worktree_doc, "final": _final_doc(kept)}
    write_state(cache.folder / VALIDATE_CACHE, cache.key, doc)


# At most this many files with new records, and skills, names or candidates new to the
# results, and nothing else changed (no folder listing, ignore rule or layout): not written.
FEW_CHANGES = 32


def _few_changes(cache: ValidateCache, memo: SkillMemo, worktree: WorktreeRecords | None) -> bool:
    old, results = cache.worktree, cache.results()
    if worktree is None:  # --staged: the results alone (the records are not its to change)
        if not results.skills:
            return False  # a first results file is small: written
        worktree = old
    elif old.recorded_ns == 0:  # no records were read: there is nothing to keep
        return False
    if (
        worktree.dirs.keys() != old.dirs.keys()
        or any(record is not old.dirs[p] for p, record in worktree.dirs.items())
        or (worktree.ignores, worktree.sources, worktree.nested_key, worktree.nested)
        != (old.ignores, old.sources, old.nested_key, old.nested)
        or not _same_layout(memo.fresh_layout, results.layout)
    ):
        return False
    budget = FEW_CHANGES
    if memo.fresh_layout is not None and results.layout is not None:
        known = results.layout.refs
        budget -= sum(1 for k in memo.fresh_layout.refs if k not in known)
    budget -= sum(1 for p, r in worktree.files.items() if old.files.get(p) is not r)
    budget -= sum(1 for p in old.files if p not in worktree.files)
    budget -= sum(1 for k in memo.fresh if k not in results.skills)
    budget -= sum(1 for k in memo.fresh_names if k not in results.names)
    budget -= sum(1 for k in memo.fresh_candidates if k not in results.candidates)
    return budget >= 0


def _same_layout(fresh: Layout | None, old: Layout | None) -> bool:
    """Whether `fresh` says what `old` does, but for warnings of sources new by content."""
    if fresh is None or fresh == old:
        return True
    if old is None:
        return False
    return (fresh.digest, fresh.locations, fresh.hidden, fresh.sources, fresh.refs_key) == (
        old.digest,
        old.locations,
        old.hidden,
        old.sources,
        old.refs_key,
    )


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
        "skills": {k: [[finding_doc(f) for f in found], n] for k, (found, n) in skills.items()},
        "names": names,
        "candidates": candidates,
        "layout": _layout_doc(layout),
    }
    write_state(cache.folder / VALIDATE_RESULTS, cache.key, doc)


def _layout_doc(layout: Layout | None) -> object:
    if layout is None:
        return None
    return {
        "digest": layout.digest,
        "locations": [location_doc(s) for s in layout.locations],
        "hidden": list(layout.hidden),
        "sources": None if layout.sources is None else [list(s) for s in layout.sources],
        "refs_key": layout.refs_key,
        "refs": {k: [finding_doc(f) for f in v] for k, v in layout.refs.items()},
    }


def _final_doc(final: tuple[str, CheckResult] | None) -> object:
    if final is None:
        return None
    digest, result = final
    return {"digest": digest, **final_doc(result)}
