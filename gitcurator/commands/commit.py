"""`gitcurator commit`: commit the work tree's skill changes, recording who made new skills."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from gitcurator.audit import trailers
from gitcurator.errors import CuratorError, UsageError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.output import Result, failed, warning_line
from gitcurator.render import findings_text, plural
from gitcurator.skills.check_change import check_change
from gitcurator.skills.document import SkillLocation, SkillParseError, find_skills, parse_skill_md
from gitcurator.skills.files import FileTree
from gitcurator.skills.identity import identity
from gitcurator.statefiles import WORDS_CACHE, read_json, write_cache_json
from gitcurator.store import ObjectID, WorktreeChanges
from gitcurator.telemetry import ledger
from gitcurator.telemetry.names import refresh_names_cache
from gitcurator.telemetry.records import ORIGINS, Stamped, UsageRecord
from gitcurator.timeutil import format_time, utc_now
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.near_duplicates import (
    PROFILE_FORMAT,
    Match,
    Profile,
    find_similar,
    profile,
    refusal,
)


def commit(start: Path, message: str, origin: str | None, *, allow_similar: bool = False) -> Result:
    """Validate the changed skills, refuse a new skill very like an existing one (unless
    `allow_similar`), commit them as one commit, record new skills' origin."""
    origin = origin or os.environ.get("GITCURATOR_ORIGIN") or "user"
    if origin not in ORIGINS:
        raise UsageError(
            f"origin {origin!r} (from $GITCURATOR_ORIGIN?) must be one of {', '.join(ORIGINS)}"
        )
    if not message.strip():
        raise UsageError("the commit message is empty; say what changed with -m")
    with open_repo(start) as repo:
        store, skills_dir, include = repo.store, repo.config.skills_dir, repo.config.include
        branch = store.head_branch()
        if branch is None or branch.startswith("curator/"):
            # A person's commit on a review branch would be merged as part of the pass.
            where = "a detached HEAD" if branch is None else f"the review branch {branch}"
            raise CuratorError(
                f"HEAD is on {where}; check out the default branch "
                f"(`git checkout {store.default_branch()}`) and commit there"
            )
        tree = store.worktree_tree()
        head = store.head_entries()
        live_now = [s for s in find_skills(tree.paths, skills_dir, include) if not s.archived]
        live_head = [s for s in find_skills(head, skills_dir, include) if not s.archived]
        changes = store.worktree_changes({s.folder for s in live_now + live_head})
        if not changes.paths:
            return Result(text="no skill changes to commit")
        touched = [s for s in live_now if any(p.startswith(s.folder + "/") for p in changes.paths)]
        # The rule the git hooks follow: the changed skills whole, plus what the change breaks.
        result = check_change(
            store.head_tree(), tree, changes.paths, skills_dir=skills_dir, include=include
        )
        if result.errors:
            return failed(
                f"{plural(result.errors, 'error')} in the changed skills or caused by the change; "
                "nothing was committed",
                notes=(findings_text(result.findings, show_warnings=False),),
            )
        new_skills = [s for s in touched if s.skill_md not in head]
        added = [identity(s) for s in new_skills]
        now_folders = {s.folder for s in live_now}
        removed = [identity(s) for s in live_head if s.folder not in now_folders]
        similar: list[Match] = []
        if new_skills:
            # Only what stays in the library: a skill moved to a new folder is not its own copy.
            kept = [s for s in live_head if s.folder in now_folders]
            similar = _near_duplicates(repo, tree, changes, new_skills, kept, head)
            if similar and not allow_similar:
                raise CuratorError(
                    "\n".join(refusal(similar))
                    + "; update the existing skill instead, or commit with --allow-similar "
                    "(nothing was committed)"
                )
        edited = [identity(s) for s in touched if identity(s) not in added]
        lines = [f"{trailers.SKILL_ADDED}: {n}" for n in added] + [
            f"{trailers.SKILL_EDITED}: {n}" for n in edited
        ]
        lines += [f"{trailers.SKILL_REMOVED}: {n}" for n in removed]
        sha = store.commit_changes(changes, message.rstrip() + "\n\n" + "\n".join(lines) + "\n")
        stamp = Stamped(origin, format_time(utc_now()))

        def record_origins(records: dict[str, UsageRecord]) -> set[str]:
            fresh = {n for n in added if n not in records or records[n].origin is None}
            for name in fresh:
                records[name] = replace(records.get(name) or UsageRecord(name), origin=stamp)
            return fresh

        flushed = ledger.update(store, record_origins, f"gitcurator: origin {origin} of new skills")
        refresh_names_cache(repo)
    notes = [warning_line(w) for w in flushed.warnings]
    notes += [
        warning_line(f"{line}; committed anyway (--allow-similar)") for line in refusal(similar)
    ]
    parts = [
        f"{plural(len(added), 'new skill')} ({origin})" if added else "",
        f"{len(edited)} edited" if edited else "",
        f"{len(removed)} removed" if removed else "",
    ]
    text = f"committed {sha.decode()[:12]}: " + ", ".join(p for p in parts if p)
    return Result(text=text, notes=tuple(notes))


def _near_duplicates(
    repo: SkillsRepo,
    tree: FileTree,
    changes: WorktreeChanges,
    new_skills: list[SkillLocation],
    library: list[SkillLocation],
    head: Mapping[str, tuple[ObjectID, int]],
) -> list[Match]:
    """The skills of `library` (live at HEAD) that each new skill is very like.

    New skills are compared with HEAD's skills, not with each other: a new skill's duplicate
    must be a skill the agent could have updated instead, and skills written in one commit
    are reviewed in one diff.
    """
    staged = {f.path: f.sha for f in changes.changed}
    new: list[Candidate] = []
    fresh: dict[str, list[str]] = {}
    for loc in new_skills:
        data = tree.load(loc.skill_md).data
        if data is None:  # too large to load: validation has refused it already
            continue
        doc = parse_skill_md(data)  # validated above
        candidate = Candidate(identity(loc), loc.folder, doc.description or "", doc.body)
        new.append(candidate)
        if loc.skill_md in staged:
            # Cached now, so the next commit finds this skill's words without reading it.
            p = profile(candidate)
            fresh[_key(loc, staged[loc.skill_md])] = [p.description_key, p.packed]
    return find_similar(new, _profiles(repo, library, head, fresh))


def _key(loc: SkillLocation, blob: ObjectID) -> str:
    # The name is part of the compared text, so it is part of the key (a rename misses once);
    # so is the profile's format, so profiles an older gitcurator cached are read anew.
    return f"{identity(loc)}:{blob.decode()}:{PROFILE_FORMAT}"


def _profiles(
    repo: SkillsRepo,
    library: list[SkillLocation],
    head: Mapping[str, tuple[ObjectID, int]],
    fresh: dict[str, list[str]],
) -> list[Profile]:
    """The library's profiles, from the cache where it has them; the cache is rewritten (with
    `fresh`, the new skills') only when it lacked some or held others."""
    path = repo.store.state_dir() / WORDS_CACHE
    cached = read_json(path)
    cache: dict[str, list[str]] = cached if isinstance(cached, dict) else {}
    kept: dict[str, list[str]] = {}
    profiles = []
    for loc in library:
        blob = head[loc.skill_md][0]
        key = _key(loc, blob)
        entry = cache.get(key)
        if not (isinstance(entry, list) and len(entry) == 2):
            p = _read_profile(repo, loc, blob)
            entry = [p.description_key, p.packed]
        kept[key] = entry
        profiles.append(Profile(identity(loc), entry[0], entry[1]))
    kept.update(fresh)
    if kept.keys() != cache.keys():
        write_cache_json(path, kept)
    return profiles


def _read_profile(repo: SkillsRepo, loc: SkillLocation, blob: ObjectID) -> Profile:
    """One committed skill's profile (an unreadable SKILL.md is compared by its name alone)."""
    try:
        doc = parse_skill_md(repo.store.read_blob(blob))
    except SkillParseError:
        return profile(Candidate(identity(loc), loc.folder, "", ""))
    return profile(Candidate(identity(loc), loc.folder, doc.description or "", doc.body))
