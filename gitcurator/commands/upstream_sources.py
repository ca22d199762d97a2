"""What `add`, `outdated` and `update` share: a SOURCE made a URL, the skills a fetched
source offers, a skill's files read from a tree, and the hub provenance written to records."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gitcurator.audit import trailers
from gitcurator.errors import CuratorError, ValidationFailed
from gitcurator.library import SkillsRepo
from gitcurator.output import warning_line
from gitcurator.render import findings_text, plural
from gitcurator.skills.check_tree import check_tree
from gitcurator.skills.document import SkillLocation, SkillParseError, find_skills, parse_skill_md
from gitcurator.skills.identity import identity
from gitcurator.store import graph, source_fetch
from gitcurator.store.commits import TreeId
from gitcurator.store.diff import Entry
from gitcurator.store.index import stored_tree
from gitcurator.store.objects import GITLINK_MODE, LINK_MODE
from gitcurator.store.remote_url import check_location
from gitcurator.store.repository import Store
from gitcurator.telemetry import ledger
from gitcurator.telemetry.records import Stamped, UsageRecord
from gitcurator.timeutil import format_time, utc_now
from gitcurator.upstream.folder_merge import FileEntry
from gitcurator.upstream.intake import intake_problems
from gitcurator.upstream.provenance import Provenance, from_value, parse_source_trailer
from gitcurator.upstream.source_spec import expand_source, is_path


def source_url(text: str) -> str:
    """The URL or absolute path SOURCE names (`owner/repo` is GitHub; `./x` a folder here)."""
    if not text.strip():
        raise CuratorError("SOURCE is empty; give a git URL, a path or owner/repo")
    if is_path(text):
        path = os.path.abspath(os.path.expanduser(text))
        check_location(path, "the source")
        return path
    url = expand_source(text)
    check_location(url, "the source")
    return url


@dataclass(frozen=True, slots=True)
class Offered:
    """A skill a source offers: its name, folder in the source, and description."""

    name: str
    folder: str
    description: str


def offered_skills(store: Store, tree: bytes, path: str, shown: str) -> list[Offered]:
    """The skills (folders holding SKILL.md, found as the library's own are) under `path` of a
    source's tree; CuratorError when `path` is no folder there."""
    root = path.strip("/")
    entries = source_fetch.folder_entries(store, tree, root)  # type: ignore[arg-type]
    if entries is None:
        raise CuratorError(f"source {shown} has no folder {root!r}; check --path")
    found = []
    for loc in find_skills(entries):
        text = ""
        sha, mode = entries[loc.skill_md]
        if mode != 0o120000 and source_fetch.blob_size(store, sha) < 1024 * 1024:
            try:
                text = parse_skill_md(store.read_blob(sha)).description or ""
            except SkillParseError:
                text = ""
        folder = posixpath.join(root, loc.folder) if root else loc.folder
        found.append(Offered(identity(loc), folder, " ".join(text.split())))
    return found


def skill_entries(store: Store, tree: bytes, folder: str) -> dict[str, Entry] | None:
    """The entries of a skill folder of a tree, relative to it (None: no such folder)."""
    return source_fetch.folder_entries(store, tree, folder)  # type: ignore[arg-type]


def refuse_unsafe(
    store: Store, shown: str, folder: str, entries: Mapping[str, Entry], tree: bytes | None
) -> None:
    """Refuse (nothing changed) an upstream folder holding a submodule, a path git refuses,
    a symlink leaving it or a file over the size limit; `tree` is the folder's own tree, whose
    entry names are checked as stored (a name holding '/' reads as a path once joined)."""
    malformed = source_fetch.malformed_names(store, tree) if tree is not None else []
    if malformed:
        raise CuratorError(
            f"refusing {folder} of {shown}: its tree holds entries git refuses to check out "
            f"(fsck: fullPathname), named {', '.join(repr(n) for n in malformed[:5])}; nothing "
            "was changed"
        )
    files: dict[str, FileEntry] = {}
    sizes: dict[str, int] = {}
    for path, (sha, mode) in entries.items():
        if mode == GITLINK_MODE:
            files[path] = FileEntry(b"", mode)
            continue
        sizes[path] = source_fetch.blob_size(store, sha)
        files[path] = FileEntry(store.read_blob(sha) if mode == LINK_MODE else b"", mode)
    problems = intake_problems(folder, files, sizes)
    if problems:
        raise CuratorError(
            f"refusing {folder} of {shown}: " + "; ".join(problems) + "; nothing was changed"
        )


def library_skills(locations: list[SkillLocation]) -> dict[str, SkillLocation]:
    """Live and archived skills by identity (a live one wins over an archived copy)."""
    found: dict[str, SkillLocation] = {}
    for loc in sorted(locations, key=lambda s: not s.archived):
        found[identity(loc)] = loc
    return found


def hub_sources(repo: SkillsRepo) -> dict[str, Provenance]:
    """The recorded source of every skill that has one: its record's, else (a clone whose
    notes were never synced) the newest `Skill-Source:` trailer of the default branch."""
    records = ledger.load(repo.store).records
    found = {}
    for name, record in records.items():
        if record.source is not None:
            prov = from_value(record.source.value)
            if prov is not None:
                found[name] = prov
    for name, prov in trailer_sources(repo.store).items():
        found.setdefault(name, prov)
    return found


def trailer_sources(store: Store) -> dict[str, Provenance]:
    """Each skill's newest `Skill-Source:` trailer on the default branch's history."""
    tip = store.branch_tip(store.default_branch())
    found: dict[str, Provenance] = {}
    if tip is None:
        return found
    for commit in graph.commits_between(store, tip):
        if trailers.SKILL_SOURCE not in commit.message:
            continue
        for value in trailers.trailers(commit.message).get(trailers.SKILL_SOURCE, []):
            parsed = parse_source_trailer(value)
            if parsed is not None:
                found.setdefault(*parsed)
    return found


def record_sources(
    repo: SkillsRepo, sources: Mapping[str, Provenance], what: str, adding: bool = False
) -> list[str]:
    """Stamp the skills' records with their source, one notes commit, and origin hub when
    `adding` or none is recorded (a skill handed over with `adopt` keeps its origin through
    updates); the commit this belongs to is made by then, so a failure is a warning."""
    at = format_time(utc_now())

    def change(records: dict[str, UsageRecord]) -> set[str]:
        for name, prov in sources.items():
            record = records.get(name) or UsageRecord(name)
            keep = record.origin is not None and (record.origin_value == "hub" or not adding)
            origin = record.origin if keep else Stamped("hub", at)
            records[name] = replace(record, origin=origin, source=Stamped(prov.to_value(), at))
        return set(sources)

    if not sources:
        return []
    try:
        result = ledger.update(repo.store, change, f"gitcurator: {what}")
    except CuratorError as exc:
        return [warning_line(f"the skills' sources were not recorded: {exc}")]
    return [warning_line(w) for w in result.warnings]


def validate_folders(repo: SkillsRepo, tree: TreeId, folders: list[str], what: str) -> None:
    """Refuse (ValidationFailed with the findings) if the skill `folders` of `tree` fail;
    `what` ends the message ("in the skills from X; nothing was changed")."""
    if not folders:
        return
    store = repo.store
    result = check_tree(
        stored_tree(store, store.tree_entries(tree)),
        skills_dir=repo.config.skills_dir,
        include=repo.config.include,
        only=folders,
    )
    if result.errors:
        raise ValidationFailed(
            f"{plural(result.errors, 'error')} {what}",
            details=findings_text(result.findings, show_warnings=False),
        )
