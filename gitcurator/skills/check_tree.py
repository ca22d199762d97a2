"""Validation of a whole FileTree: which skills to check, each one's rules, duplicate names."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gitcurator.progress import NO_PROGRESS, Progress, counted
from gitcurator.skills.check_memo import SkillMemo, Summary
from gitcurator.skills.check_skill import (
    Finding,
    duplicate_names,
    skill_name,
    validate_skill_alone,
)
from gitcurator.skills.document import SkillLocation, discover_skills
from gitcurator.skills.files import FileTree, SkillFiles
from gitcurator.skills.identity import identity, is_skill_name, not_a_name_reason


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Findings over the checked skills; `ignored` lists paths that belong to no skill,
    `hidden` the SKILL.md files passed over because they sit under a dot-folder."""

    checked: tuple[SkillLocation, ...]
    findings: tuple[Finding, ...]
    ignored: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.level == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.level == "warning")


def select_skills(
    skills: Sequence[SkillLocation], paths: Sequence[str]
) -> tuple[list[SkillLocation], list[str]]:
    """The skills that hold or lie under any of `paths` (each once), and paths matching none."""
    chosen: dict[str, SkillLocation] = {}
    by_folder = {s.folder: s for s in skills}
    ignored = []
    for raw in paths:
        path = _clean(raw)
        hit = _enclosing(path, by_folder)
        if hit is not None:
            chosen[hit.folder] = hit
            continue
        inside = [s for s in skills if not path or s.folder.startswith(path + "/")]
        for s in inside:
            chosen[s.folder] = s
        if not inside:
            ignored.append(raw)
    return sorted(chosen.values(), key=lambda s: s.folder), ignored


def check_tree(
    tree: FileTree,
    *,
    skills_dir: str = "",
    include: Sequence[str] = (),
    strict: bool = False,
    only: Sequence[str] | None = None,
    progress: Progress = NO_PROGRESS,
    memo: SkillMemo | None = None,
    facts: list[Summary] | None = None,
) -> CheckResult:
    """Validate the live skills of `tree` (or those `only` names) and their names across it;
    `progress` hears how many skills are read. With `memo`, a skill whose folder holds what
    it held when last checked is not checked again (skills/check_memo). `facts` hears each
    live skill's own findings (none outside the selection) and name, in the result's order
    of skills: what `tree_findings` joins again."""
    if memo is None:
        found, hidden = discover_skills(tree.paths, skills_dir, include)
    else:
        found, hidden = memo.discover(tree.paths, skills_dir, include)
    live = [s for s in found if not s.archived]
    selected, ignored = (live, []) if only is None else select_skills(live, only)
    if only is not None:
        roots = [_clean(p) for p in only]
        hidden = [h for h in hidden if any(not r or h == r or h.startswith(r + "/") for r in roots)]
    repo_paths = frozenset(tree.paths)
    chosen = {s.folder for s in selected}
    findings: list[Finding] = []
    names: list[tuple[str, str]] = []
    for loc in counted(live, "validating skills", progress):
        own: tuple[Finding, ...] = ()
        if loc.folder in chosen:
            own, name = check_one(tree, loc, strict, repo_paths, memo)
            findings.extend(own)
        else:
            # Only the name matters for skills outside the selection.
            known = memo.recall_name(loc) if memo else None
            if known is None:
                name = skill_name(SkillFiles(loc.folder, loc.skill_md, (tree.load(loc.skill_md),)))
            else:
                name = known
        if memo:
            memo.remember_name(loc, name)
        names.append((name, loc.skill_md))
        if facts is not None:
            facts.append((own, name))
    dups = [f for f in duplicate_names(names) if _folder_of(f.path) in chosen]
    return CheckResult(
        tuple(selected), tree_findings(findings, dups), tuple(ignored), tuple(hidden)
    )


def tree_findings(own: Iterable[Finding], duplicates: Iterable[Finding]) -> tuple[Finding, ...]:
    """The skills' own findings (in the order of the skills) and the duplicate-name errors
    as check_tree reports them: by path and line, errors first, else in that order."""
    findings = [*own, *duplicates]
    findings.sort(key=lambda f: (f.path, f.line or 0, f.level != "error"))
    return tuple(findings)


def check_one(
    tree: FileTree,
    loc: SkillLocation,
    strict: bool,
    repo_paths: frozenset[str],
    memo: SkillMemo | None,
) -> tuple[tuple[Finding, ...], str]:
    """One skill's findings and name: remembered, or checked (and remembered when they
    follow from its own files alone)."""
    paths = tree.under(loc.folder)
    hit = memo.recall(memo.key(loc, paths, strict)) if memo else None
    if hit is not None:
        return hit
    files = tree.skill_files(loc.folder, loc.skill_md)
    # Keyed by what was read (a loader may learn blob ids as it reads), never by what the
    # files held before: a file changed in between is then remembered as it was checked.
    key = memo.key(loc, paths, strict) if memo else None
    found, alone = validate_skill_alone(
        files, strict=strict, repo_paths=repo_paths, links=tree.links
    )
    summary = ((*found, *_folder_name(loc)), skill_name(files))
    if memo and key is not None and alone:
        memo.fresh[key] = summary
    return summary


def _enclosing(path: str, by_folder: dict[str, SkillLocation]) -> SkillLocation | None:
    probe = path
    while probe:
        if probe in by_folder:
            return by_folder[probe]
        probe = posixpath.dirname(probe)
    return None


def _clean(raw: str) -> str:
    path = posixpath.normpath(raw).strip("/")
    return "" if path == "." else path


def _folder_of(skill_md: str) -> str:
    return posixpath.dirname(skill_md)


def _folder_name(loc: SkillLocation) -> list[Finding]:
    """An error for a folder no command can name (a tab or newline in it): `list` shows it."""
    name = identity(loc)
    if is_skill_name(name):
        return []
    # Quoted by hand, not repr: output escapes a byte that is not UTF-8 as `\\xe9` (repr would
    # say `\\udce9`); a newline or tab, which output keeps, is escaped here.
    shown = name.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    message = f"Folder name '{shown}' {not_a_name_reason(name)}; rename the folder"
    return [Finding("error", loc.skill_md, message, "folder-name")]
