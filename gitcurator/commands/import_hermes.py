"""`gitcurator import hermes PATH`: take over a Hermes skills folder as one commit plus notes.

The skills (live and `.archive/`) become one commit on the checked-out branch, in place or
copied into another repository (`-C REPO`); what Hermes knew about them (usage counts,
history, pins, origins) becomes one notes commit. Hermes' own state files are never
committed: in place they are added to a .gitignore. Any refusal leaves everything as it was.
"""

from __future__ import annotations

import contextlib
import filecmp
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gitcurator.audit import trailers
from gitcurator.config import CONFIG_FILE, DEFAULT_CONFIG_TEXT, Config
from gitcurator.errors import EXIT_OK, CuratorError, NotARepository, UsageError, ValidationFailed
from gitcurator.importers.hermes import plan as hermes
from gitcurator.library import read_config
from gitcurator.output import emit_json
from gitcurator.render import findings_text, plural
from gitcurator.skills.check_tree import check_tree
from gitcurator.skills.document import (
    ARCHIVE_DIR,
    MAX_SKILL_MD_BYTES,
    SkillLocation,
    SkillParseError,
    find_skills,
    has_ancestor_in,
    parse_skill_md,
)
from gitcurator.skills.identity import identity
from gitcurator.store import Store
from gitcurator.store.notes import NOTES_REF
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import UsageRecord
from gitcurator.timeutil import format_time, utc_now


@dataclass(slots=True)
class Undo:
    """Steps that put the file system back as it was, run newest first if the import fails."""

    steps: list[Callable[[], object]] = field(default_factory=list)

    def add(self, step: Callable[[], object]) -> None:
        self.steps.append(step)

    def run(self) -> None:
        for step in reversed(self.steps):
            with contextlib.suppress(OSError):
                step()

    def forget(self) -> None:
        """The import is committed: from here on nothing is undone."""
        self.steps.clear()


@dataclass(slots=True)
class Target:
    """The repository the skills go into and where its library starts."""

    store: Store
    config: Config
    in_place: bool  # the Hermes folder is the repository's skills folder itself
    undo: Undo

    @property
    def skills_root(self) -> Path:
        return self.store.root / self.config.skills_dir

    @property
    def prefix(self) -> str:
        return self.config.skills_dir + "/" if self.config.skills_dir else ""


@dataclass(frozen=True, slots=True)
class SourceListing:
    """A Hermes skills folder: its files (state and .git left out) and its state entries."""

    files: list[str]
    state: list[str]


def import_hermes(
    source: Path, repo_dir: Path | None, *, verify: bool = True, as_json: bool = False
) -> int:
    """Import the Hermes folder `source` into `repo_dir` (None: into `source` itself)."""
    source = _source_folder(source)
    now = utc_now()
    listing = list_source(source)
    locations = find_skills(listing.files)
    files, problems = read_state(source)
    plan = hermes.plan_import(locations, frontmatter_names(source, locations), files, now)
    problems += plan.problems
    target = open_target(source, repo_dir)
    records: dict[str, UsageRecord] = {}
    try:
        with target.store:
            ignored = _ignore_state(target, source, listing) if target.in_place else []
            brought: list[str] = []
            if not target.in_place:
                brought, kept = _copy_skills(target, source, listing, locations)
                problems += kept
            commit, checked = _commit(target, source, locations, brought, ignored, verify)
            target.undo.forget()
            notes = _write_notes(target.store, plan, format_time(now), records)
            root = target.store.root
    except BaseException:
        target.undo.run()
        raise
    report: dict[str, Any] = {
        "source": str(source),
        "repository": str(root),
        "in_place": target.in_place,
        "commit": commit,
        "notes_commit": notes,
        **hermes.summarise(locations, plan, records),
        "validation": checked,
        "hermes_state_ignored": ignored,
        "problems": problems,
    }
    _print_report(report, as_json)
    return EXIT_OK


def _source_folder(source: Path) -> Path:
    if not source.exists():
        raise UsageError(f"{source}: no such folder; give the Hermes skills folder to import")
    if not source.is_dir():
        raise UsageError(f"{source} is a file; give the Hermes skills folder to import")
    return source.absolute()


# -- reading the Hermes folder ---------------------------------------------------------------


def list_source(source: Path) -> SourceListing:
    """Every file of the folder as a relative posix path, without .git and Hermes' state."""
    files: list[str] = []
    state: list[str] = []
    for dirpath, dirnames, filenames in os.walk(source):
        rel = Path(dirpath).relative_to(source).as_posix()
        prefix = "" if rel == "." else rel + "/"
        if not prefix:
            state = sorted(n for n in [*dirnames, *filenames] if hermes.is_state_entry(n))
        keep = []
        for name in sorted(dirnames):
            if os.path.islink(os.path.join(dirpath, name)):
                filenames.append(name)  # git records a symlinked folder as a file
            elif name != ".git" and not (not prefix and name in state):
                keep.append(name)
        dirnames[:] = keep
        files += [prefix + n for n in filenames if not (not prefix and n in state)]
    return SourceListing(sorted(files), state)


def read_state(source: Path) -> tuple[hermes.HermesFiles, list[str]]:
    """Hermes' three state files (absent ones are None) and any that could not be read."""
    found: dict[str, bytes | None] = {}
    problems: list[str] = []
    for key, name in (
        ("usage", hermes.USAGE_FILE),
        ("hub_lock", hermes.HUB_LOCK),
        ("bundled_manifest", hermes.BUNDLED_MANIFEST),
    ):
        path = source / name
        try:
            found[key] = path.read_bytes() if path.is_file() else None
        except OSError as exc:
            found[key] = None
            problems.append(f"{name} cannot be read ({exc.strerror}); it was not imported")
    return hermes.HermesFiles(**found), problems


def frontmatter_names(source: Path, locations: Sequence[SkillLocation]) -> dict[str, str]:
    """Skill folder → its SKILL.md's `name:` (skills whose SKILL.md does not parse: none)."""
    names: dict[str, str] = {}
    for loc in locations:
        path = source / loc.skill_md
        with contextlib.suppress(SkillParseError, OSError):
            # A symlinked or oversized SKILL.md is validation's to report, not ours to read.
            if path.is_symlink() or path.stat().st_size > MAX_SKILL_MD_BYTES:
                continue
            name = parse_skill_md(path.read_bytes()).name
            if name:
                names[loc.folder] = name
    return names


# -- the target repository -------------------------------------------------------------------


def open_target(source: Path, repo_dir: Path | None) -> Target:
    """The repository at `repo_dir` (else `source`), created like `init` does if there is none."""
    start = (repo_dir or source).absolute()
    if start.exists() and not start.is_dir():
        raise UsageError(f"{start} is a file; -C needs the repository's folder")
    undo = Undo()
    try:
        store = Store.discover(start)
    except NotARepository:
        if not start.exists():
            undo.add(lambda: shutil.rmtree(start))
        store, _ = Store.init(start)
        undo.add(lambda: shutil.rmtree(start / ".git"))
    try:
        target = Target(store, read_config(store.root), False, undo)
        skills_root = target.skills_root.resolve()
        target.in_place = skills_root == source.resolve()
        if not target.in_place:
            _refuse_overlap(source, store.root, skills_root, repo_dir)
    except BaseException:
        store.close()
        undo.run()
        raise
    return target


def _refuse_overlap(source: Path, root: Path, skills_root: Path, repo_dir: Path | None) -> None:
    real = source.resolve()
    if repo_dir is None or real.is_relative_to(root) or skills_root.is_relative_to(real):
        raise CuratorError(
            f"{source} overlaps the git repository {root} without being its skills folder "
            f"({skills_root}), so it can be neither taken over in place nor copied there; "
            f"import it into a repository of its own: `gitcurator import hermes {source} "
            "-C NEW-FOLDER`"
        )


def _ignore_state(target: Target, source: Path, listing: SourceListing) -> list[str]:
    """Add Hermes' state to the skills folder's .gitignore; the entries found there."""
    tracked = {p.removeprefix(target.prefix).split("/")[0] for p in target.store.head_paths()}
    # An unknown dot-file the repository already tracks is a person's file, not Hermes' state.
    state = [n for n in listing.state if hermes.is_known_state(n) or n not in tracked]
    path = source / ".gitignore"
    # surrogateescape: a .gitignore in another encoding is appended to, not refused.
    existing = path.read_text("utf-8", "surrogateescape") if path.is_file() else None
    text = hermes.updated_gitignore(existing, hermes.ignore_patterns(state))
    if text is not None:
        _write(target.undo, path, text)
    return state


def _write(undo: Undo, path: Path, text: str) -> None:
    old = path.read_bytes() if path.exists() else None
    undo.add(lambda: path.write_bytes(old) if old is not None else path.unlink())
    path.write_text(text, "utf-8", "surrogateescape")


# -- copying into another repository ---------------------------------------------------------


def _copy_skills(
    target: Target, source: Path, listing: SourceListing, locations: Sequence[SkillLocation]
) -> tuple[list[str], list[str]]:
    """Copy the skill folders and loose files (category notes); refuse to overwrite a skill.

    Returns the repository paths the import brings (copied now or found equal) and notes on
    loose files that were kept as the repository had them.
    """
    existing = {
        identity(loc): loc.folder
        for loc in find_skills(
            (rel for _, rel in target.store.walk_worktree()), target.config.skills_dir
        )
    }
    folders = [loc.folder for loc in locations]
    conflicts: list[str] = []
    todo: list[str] = []
    for loc in locations:
        dest = target.prefix + loc.folder
        if os.path.lexists(target.store.root / dest):
            if not same_tree(source / loc.folder, target.store.root / dest):
                conflicts.append(f"{dest} differs from {source / loc.folder}")
        elif existing.get(identity(loc), dest) != dest:
            conflicts.append(f"{existing[identity(loc)]} is also named {identity(loc)}")
        else:
            todo.append(loc.folder)
    if conflicts:
        raise CuratorError(
            f"the import would overwrite or duplicate {plural(len(conflicts), 'skill')} of "
            f"{target.store.root}: {'; '.join(conflicts)}. Nothing was written; rename or move "
            "them, or import into another repository with -C"
        )
    notes: list[str] = []
    skill_folders = set(folders)
    loose = [p for p in listing.files if not has_ancestor_in(p, skill_folders) and not _dotted(p)]
    for rel in loose:
        there = target.store.root / (target.prefix + rel)
        if os.path.lexists(there):
            if not same_tree(source / rel, there):
                notes.append(f"{there} differs from {source / rel} and was kept as it is")
            continue
        todo.append(rel)
    for rel in todo:
        _copy(source / rel, target.store.root / (target.prefix + rel), target.undo)
    return [target.prefix + rel for rel in [*folders, *loose]], notes


def _dotted(path: str) -> bool:
    # The folder's own dot-files (.gitignore, .gitcurator.yaml...) would change the target's
    # behaviour; only skills, archived skills and plain files such as DESCRIPTION.md travel.
    parts = path.removeprefix(ARCHIVE_DIR + "/").split("/")
    return any(part.startswith(".") for part in parts)


def _copy(src: Path, dest: Path, undo: Undo) -> None:
    top = dest
    while not top.parent.exists():
        top = top.parent
    undo.add(lambda: shutil.rmtree(top) if top.is_dir() and not top.is_symlink() else top.unlink())
    dest.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir() and not src.is_symlink():
        shutil.copytree(src, dest, symlinks=True)
    else:
        shutil.copy2(src, dest, follow_symlinks=False)


def same_tree(a: Path, b: Path) -> bool:
    """Whether two files or folders hold the same files with the same bytes and links."""
    if a.is_symlink() or b.is_symlink():
        return a.is_symlink() and b.is_symlink() and os.readlink(a) == os.readlink(b)
    if a.is_file() or b.is_file():
        return a.is_file() and b.is_file() and filecmp.cmp(a, b, shallow=False)
    names_a = sorted(p.name for p in a.iterdir())
    names_b = sorted(p.name for p in b.iterdir())
    return names_a == names_b and all(same_tree(a / n, b / n) for n in names_a)


# -- committing ------------------------------------------------------------------------------


def _commit(
    target: Target,
    source: Path,
    locations: Sequence[SkillLocation],
    brought: list[str],
    state: list[str],
    verify: bool,
) -> tuple[str | None, dict[str, int]]:
    """Validate and commit what the import brought; None when nothing changed."""
    store = target.store
    head = store.head_paths()
    if not head and not (store.root / CONFIG_FILE).exists():
        _write(target.undo, store.root / CONFIG_FILE, DEFAULT_CONFIG_TEXT)
    scan = store.scan_worktree()
    if state:
        # Hermes' state stays out even where a person's .gitignore rule lets it back in.
        scan.files[:] = [f for f in scan.files if not _is_state(f.path, target.prefix, state)]
    staged = {f.path: f.sha for f in scan.files}
    changed = sorted(p for p in staged.keys() | head.keys() if staged.get(p) != head.get(p))
    _refuse_unrelated(target, changed, brought, bool(head))
    result = check_tree(
        store.scan_tree(scan), skills_dir=target.config.skills_dir, only=changed if head else None
    )
    if result.errors and verify:
        print(findings_text(result.findings, show_warnings=False), file=sys.stderr)
        raise ValidationFailed(
            f"{plural(result.errors, 'error')} in the skills of {source}; nothing was written. "
            "Fix them, or run `gitcurator import hermes --no-verify` to import them as they are"
        )
    checked = {"errors": result.errors, "warnings": result.warnings}
    if head and not changed:
        return None, checked
    commit = store.commit_scan(scan, _message(source, locations, len(changed)))
    return commit.decode(), checked


def _is_state(path: str, prefix: str, state: list[str]) -> bool:
    return path.startswith(prefix) and path[len(prefix) :].split("/")[0] in state


def _refuse_unrelated(
    target: Target, changed: list[str], brought: list[str], has_head: bool
) -> None:
    # The import commit must hold the import only: uncommitted work elsewhere stays the
    # person's to commit. In place, the whole skills folder is the import.
    if not has_head:
        return
    areas = [target.config.skills_dir] if target.in_place else brought
    unrelated = [
        p for p in changed if not any(not a or p == a or p.startswith(a + "/") for a in areas)
    ]
    if unrelated:
        raise CuratorError(
            f"{target.store.root} has uncommitted changes outside the import "
            f"({', '.join(unrelated[:5])}{' ...' if len(unrelated) > 5 else ''}); nothing was "
            "written. Commit or stash them first, so the import commit holds only the import"
        )


def _message(source: Path, locations: Sequence[SkillLocation], changed: int) -> str:
    live = [loc for loc in locations if not loc.archived]
    categories = {loc.category for loc in live if loc.category}
    return (
        f"gitcurator: import {plural(len(live), 'skill')} from Hermes\n\n"
        f"Committed by `gitcurator import hermes {source}`: {plural(len(live), 'skill')} in "
        f"{plural(len(categories), 'category', 'categories')}, "
        f"{len(locations) - len(live)} archived; {plural(changed, 'file')} added or changed.\n"
        f"Hermes' usage, pins and origins are in the notes ({NOTES_REF.decode()}); its own "
        "state files are not committed.\n\n"
        # Lets history tell an import (whose edits Hermes already counted) from a person's patch.
        f"{trailers.IMPORT}: hermes\n"
    )


# -- notes and report ------------------------------------------------------------------------


def _write_notes(
    store: Store, plan: hermes.ImportPlan, now: str, seen: dict[str, UsageRecord]
) -> str | None:
    """Merge Hermes' facts into the records in one notes commit; `seen` gets the records."""

    def change(records: dict[str, UsageRecord]) -> set[str]:
        touched = set()
        for skill, facts in plan.facts.items():
            base = records.get(skill) or UsageRecord(skill)
            new = hermes.merge_facts(base, skill, facts, now)
            if new != base:
                records[skill] = new
                touched.add(skill)
        seen.update(records)
        return touched

    result = ledger.update(store, change, "gitcurator: import Hermes usage, pins and origins")
    for warning in result.warnings:
        print(f"gitcurator: warning: {warning}", file=sys.stderr)
    return result.commit


def _print_report(report: dict[str, Any], as_json: bool) -> None:
    for problem in report["problems"]:
        print(f"gitcurator: warning: {problem}", file=sys.stderr)
    if as_json:
        emit_json(report)
        return
    where = "in place" if report["in_place"] else f"into {report['repository']}"
    commit = report["commit"]
    print(
        f"imported {plural(report['skills'], 'skill')} ({report['archived']} archived) from "
        f"{report['source']} {where}: "
        + (f"commit {commit[:12]}" if commit else "no changes to commit")
    )
    origins = ", ".join(f"{n} {o}" for o, n in report["by_origin"].items() if n)
    print(f"origins: {origins or 'none'}; pinned: {report['pinned']}")
    usage = report["usage_records"]
    notes = report["notes_commit"]
    print(
        f"usage: {usage['imported']} of {plural(usage['read'], 'record')} in "
        f"{hermes.USAGE_FILE} imported; "
        + (f"notes commit {notes[:12]}" if notes else "records already up to date")
    )
    if report["hermes_state_ignored"]:
        print(f"not committed (Hermes' state): {', '.join(report['hermes_state_ignored'])}")
    checked = report["validation"]
    print(
        f"validation: {plural(checked['errors'], 'error')}, "
        f"{plural(checked['warnings'], 'warning')}; "
        f"{plural(len(report['problems']), 'problem')} reported"
    )
