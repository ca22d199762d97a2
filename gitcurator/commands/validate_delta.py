"""`validate`'s answer after a few files changed since the last whole-library result: only
the skills and reference sources holding a changed file are checked again, and the result is
put together from them and the base's facts (commands/validate_base) as check_tree and the
reference scan put it together.

Which files changed is read from the quick look's stat data against the base's: a file whose
stat text moved. A folder whose ctime moved is listed again and must hold the same entries
(an editor's save by rename), else the listing changed and the full path answers. So does
anything else a delta cannot vouch for: an ignore file changed, a nested repository moved, a
file that became a symlink or no regular file, too many changes. The checks across the
library follow from kept facts: duplicate names from every skill's name (the changed ones
read again), reference warnings file by file (each depends on its own content, the skills'
folders and the absorbed names, all as in the base but the changed files), outward links and
nested repositories from the listing, which is the base's.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Sequence
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from gitcurator import timeutil
from gitcurator.commands.validate_base import (
    Base,
    BaseFacts,
    pairing_token,
    read_base,
    save_base,
)
from gitcurator.commands.validate_quick import DAMAGE, QuickLook, final_of, save_quick
from gitcurator.skills.check_skill import Finding, duplicate_names
from gitcurator.skills.check_tree import CheckResult, check_one, tree_findings
from gitcurator.skills.document import SkillLocation
from gitcurator.skills.files import FileEntry, FileTree
from gitcurator.store.worktree_fingerprint import TreePrint, digest_of
from gitcurator.store.worktree_stat import read_hashed
from gitcurator.store.worktree_walk import names, relist

if TYPE_CHECKING:
    from gitcurator.library import SkillsRepo

# Past this many changed entries the full path, whose per-file records and per-skill memo
# are made for many changes, costs no more.
MAX_CHANGES = 200


def delta_result(
    repo: SkillsRepo, look: QuickLook, folder: Path, key: str, strict: bool, started_ns: int
) -> CheckResult | None:
    """The whole library's result from the base of the quick file `look` read and the entries
    that changed since (None when the full path must answer); kept as the next base when no
    changed entry is too recent to vouch for."""
    with contextlib.suppress(*DAMAGE):
        doc = look.doc
        base = read_base(
            folder, key, str(doc["print"]), len(look.dirs), len(look.files), doc.get("pair")
        )
        if base is None:
            return None
        last = final_of(doc["final"])
        answer = _answer(repo, look, base, last, strict)
        if answer is None:
            return None
        result, facts, fresh = answer
        if _settled(look, fresh, started_ns):
            fingerprint = TreePrint(
                look.dirs,
                look.files,
                digest_of(look.ctimes, look.texts),
                tuple(look.ctimes),
                tuple(look.texts),
                base.kinds,
            )
            pair = pairing_token()
            save_base(folder, key, fingerprint, facts, pair)
            depends_on = (_list(doc["sources"]), _list(doc["nested_key"]))
            notes = doc["notes"]
            computed_with = None if notes is None else str(notes).encode()
            save_quick(
                repo.store,
                folder,
                key,
                strict,
                fingerprint,
                depends_on,
                result,
                started_ns,
                computed_with,
                pair,
            )
        return result
    return None


def _answer(
    repo: SkillsRepo, look: QuickLook, base: Base, last: CheckResult, strict: bool
) -> tuple[CheckResult, BaseFacts, tuple[list[int], list[int]]] | None:
    """The result, its facts and which folders and files changed (by index), or None."""
    dirs = [
        i for i, (now, was) in enumerate(zip(look.ctimes, base.ctimes, strict=True)) if now != was
    ]
    files = [
        i for i, (now, was) in enumerate(zip(look.texts, base.texts, strict=True)) if now != was
    ]
    if len(dirs) + len(files) > MAX_CHANGES:
        return None
    root = str(repo.store.root)
    facts = base.facts
    extra = set(facts.extra)
    paths = tuple(p for p in look.files if p not in extra) if extra else look.files  # sorted
    if dirs and not _same_listings(repo, look, base, dirs, paths):
        return None
    changed = [look.files[i] for i in files]
    if any(p in facts.ignores or p in facts.extra for p in changed):
        return None  # an ignore rule changed: which files there are may have too
    if not _all_regular(root, changed):
        return None
    read: dict[str, FileEntry] = {}

    def load(rel: str) -> FileEntry:
        entry = read.get(rel)
        if entry is None:
            entry = read[rel] = _read(root, rel)
        return entry

    tree = FileTree(paths, {}, load)
    live = last.checked
    if len(facts.own) != len(live):
        return None
    at = {loc.folder: i for i, loc in enumerate(live)}
    redo = sorted({at[a] for p in changed for a in _folders_above(p) if a in at})
    own = list(facts.own)
    if redo:
        repo_paths = frozenset(paths)
        for i in redo:
            own[i] = check_one(tree, live[i], strict, repo_paths, None)
    renamed = any(own[i][1] != facts.own[i][1] for i in redo)
    dups = (  # the last result's: duplicate_names is the one maker of that rule's findings
        [f for f in last.findings if f.rule == "duplicate-name"]
        if not renamed
        else duplicate_names(
            [(name, loc.skill_md) for (_, name), loc in zip(own, live, strict=True)]
        )
    )
    refs = _warnings(repo, facts, live, changed, load)
    ordered = [f for path in sorted(refs) for f in refs[path]]
    findings = (*tree_findings(chain.from_iterable(f for f, _ in own), dups), *facts.nested)
    result = CheckResult(live, (*findings, *ordered), (), last.hidden)
    kept = BaseFacts(
        tuple(own), facts.archived, facts.nested, refs, facts.aliases, facts.ignores, facts.extra
    )
    return result, kept, (dirs, files)


def _warnings(
    repo: SkillsRepo,
    facts: BaseFacts,
    live: Sequence[SkillLocation],
    changed: list[str],
    load: Callable[[str], FileEntry],
) -> dict[str, tuple[Finding, ...]]:
    """Each source's reference warnings: the base's, the changed sources' found again."""
    refs = dict(facts.refs)
    if not changed:
        return refs
    from gitcurator.commands.reference_warnings import source_warnings
    from gitcurator.references.scan import file_candidates, sources_of

    locations = [*live, *facts.archived]
    # Whose file each one is needs only the skills holding it, not an index of every skill.
    above = {a for p in changed for a in _folders_above(p)}
    holding = [loc for loc in locations if loc.folder in above]
    sources = sources_of(changed, holding, repo.config.reference_files)
    if not sources:
        return refs
    candidates = {src.path: file_candidates(load(src.path).data) for src in sources}
    fresh = source_warnings(sources, candidates, locations, facts.aliases)
    for path, mine in fresh.items():
        if mine:
            refs[path] = mine
        else:
            refs.pop(path, None)
    return refs


def _same_listings(
    repo: SkillsRepo, look: QuickLook, base: Base, changed: list[int], paths: tuple[str, ...]
) -> bool:
    """Whether each folder whose ctime moved still lists what the base's walk took from it
    (the same files, folders walked into and nested repositories, no symlink, no `.git`)."""
    kinds = base.kinds
    if any(kinds[i] == "n" for i in changed):
        return False  # a nested repository's folder: what it holds is its own
    kind_of = dict(zip(look.dirs, kinds, strict=True))
    wanted = {look.dirs[i] for i in changed}
    # Each folder's files, folders walked into and nested repositories, as the base has them.
    held: dict[str, tuple[list[str], list[str], list[str]]] = {d: ([], [], []) for d in wanted}
    for rel, kind in kind_of.items():
        parent, _, name = rel.rpartition("/")
        if rel and parent in held:
            held[parent][2 if kind == "n" else 1].append(name)
    for rel in paths:
        parent, _, name = rel.rpartition("/")
        if parent in held:
            held[parent][0].append(name)
    root = str(repo.store.root)
    if any(rel and os.path.lexists(f"{root}/{rel}/.git") for rel in wanted):
        return False  # a repository made there: its parent lists it as nested now
    now = relist(
        repo.store, {rel: bool(rel) and kind_of[rel.rpartition("/")[0]] == "1" for rel in wanted}
    )
    if now is None:
        return False
    ignores = set(base.facts.ignores)
    for rel, record in now.items():
        files, keep, nested = held[rel]
        nested_now = record[4]
        assert isinstance(nested_now, list)
        prefix = rel + "/" if rel else ""
        if (
            record[5]
            or str(record[1]) != kind_of[rel]
            or bool(record[6]) != (prefix + ".gitignore" in ignores)
            or sorted(names(record[3])) != sorted(files)
            or sorted(names(record[2])) != sorted(keep)
            or sorted(str(n[0]) for n in nested_now) != sorted(nested)
        ):
            return False
    return True


def _all_regular(root: str, changed: list[str]) -> bool:
    """Whether each changed file is still there and a regular file (not a symlink: the
    base's listing held none, and a delta follows none)."""
    for rel in changed:
        try:
            if not stat.S_ISREG(os.lstat(f"{root}/{rel}").st_mode):
                return False
        except OSError:
            return False
    return True


def _read(root: str, rel: str) -> FileEntry:
    return read_hashed(f"{root}/{rel}", rel)[0]


def _folders_above(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:n]) for n in range(1, len(parts))]


def _settled(look: QuickLook, changed: tuple[list[int], list[int]], started_ns: int) -> bool:
    """Whether every changed entry was last changed more than a second before the run began
    (git's racy rule; the others were when the base was made)."""
    limit = started_ns - timeutil.RACY_NS
    dirs, files = changed
    if any(look.ctimes[i] >= limit for i in dirs):
        return False
    for i in files:
        mtime, ctime = look.texts[i].split(" ")[:2]
        if int(mtime) >= limit or int(ctime) >= limit:
            return False
    return True


def _list(value: object) -> list[object]:
    if type(value) is not list:
        raise TypeError("not a list")
    return value
