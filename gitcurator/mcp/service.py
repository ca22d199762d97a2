"""What the MCP server answers, protocol aside: list, load and read skills, recording each load.

One `SkillService` serves one connection. Every request first compares HEAD and the notes ref
with the catalogue's (two small file reads) and re-reads the library only when one moved.
Loads are recorded through the journal `record use` writes (source `mcp`, an event id made
of the session and the request id); nothing else is ever written.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitcurator.errors import CuratorError
from gitcurator.library import SkillsRepo, open_repo
from gitcurator.mcp import catalogue, paths, uris
from gitcurator.mcp.catalogue import Catalogue, ServedSkill
from gitcurator.mcp.content import FileTooLarge, SkillFiles
from gitcurator.mcp.manifest import FileDigest, mime_type, over_limits, skill_entry
from gitcurator.render import name_arg
from gitcurator.store.notes import NOTES_REF
from gitcurator.telemetry import events, gitdir, journal

SOURCE = "mcp"


class Refused(Exception):
    """A request the library cannot answer: an unknown or archived name, a path outside the
    skill, a file too large. The message names the thing and what to do."""


@dataclass(frozen=True, slots=True)
class SupportFile:
    """A file of a skill besides its SKILL.md; `link` is a symlink's target."""

    path: str
    size: int
    link: str | None = None


@dataclass(frozen=True, slots=True)
class Loaded:
    """A skill loaded by name: `note` says how the name led to it when it is another name."""

    skill: ServedSkill
    uri: str | None  # None when the skill has no skill:// form (its `name:` differs)
    text: str
    files: tuple[SupportFile, ...]
    note: str | None


@dataclass(frozen=True, slots=True)
class FileRead:
    """One file of a skill, as bytes, with the type it is served as."""

    skill: ServedSkill
    path: str
    uri: str  # its skill:// URI (only a name for it when the skill is not a resource)
    data: bytes
    mime_type: str


class SkillService:
    """The library at `start`, served from HEAD; use as a context manager."""

    def __init__(self, start: Path, session: str | None = None) -> None:
        self._repo: SkillsRepo = open_repo(start)
        self.root = self._repo.root
        self.session = session or secrets.token_hex(6)
        self._gitdir = gitdir.find_gitdir(self.root)[1]
        self._files = SkillFiles()
        self._catalogue: Catalogue | None = None
        self.warnings: list[str] = []  # for the server to report; drained by it

    def __enter__(self) -> SkillService:
        return self

    def __exit__(self, *exc: object) -> None:
        self._repo.store.close()

    # -- the library as of now ---------------------------------------------------------------

    def fingerprint(self) -> tuple[str | None, str | None]:
        """(HEAD's commit, the notes commit), from the ref files: cheap enough for every call."""
        head = gitdir.read_head(self._gitdir)
        notes = gitdir.read_ref(gitdir.common_dir(self._gitdir), NOTES_REF.decode())
        return head, notes

    def catalogue(self) -> Catalogue:
        """The catalogue of the current HEAD, re-read when HEAD or the notes moved."""
        head, notes = self.fingerprint()
        old = self._catalogue
        if old is not None and (old.head, old.notes) == (head, notes):
            return old
        try:
            if old is not None and old.head == head:
                new = catalogue.with_names(self._repo, old, notes)
            else:
                new = self._reopen(head, notes)
        except (CuratorError, OSError, KeyError, ValueError) as exc:
            if old is None:
                raise
            # Briefly unreadable (a pass or a sync mid-write): serve the last good view.
            self.warnings.append(f"the library could not be re-read ({exc}); serving {old.head}")
            return old
        self._catalogue = new
        return new

    def _reopen(self, head: str | None, notes: str | None) -> Catalogue:
        # A fresh repository object: dulwich keeps the pack list it opened with, and a pass,
        # a sync or a gc may have written new packs since. The old one serves until then.
        fresh = open_repo(self.root)
        try:
            new = catalogue.build(fresh, head, notes)
        except BaseException:
            fresh.store.close()
            raise
        self._repo.store.close()
        self._repo = fresh
        return new

    def event_id(self, request_id: object) -> str:
        """The event id of a request: one per session and request, never reused."""
        event_id = f"mcp-{self.session}-{request_id}"
        if len(event_id) > events.MAX_EVENT_ID:
            # Cut short, two long request ids sharing a prefix would count as one load.
            import hashlib

            event_id = f"mcp-{self.session}-sha256:{hashlib.sha256(event_id.encode()).hexdigest()}"
        return event_id

    # -- tools -------------------------------------------------------------------------------

    def list_skills(self, query: str | None, limit: int | None) -> list[dict[str, Any]]:
        """Live skills (name, description, path), ranked by `query` when one is given."""
        cat = self.catalogue()
        rows = {name: self._row(skill) for name, skill in sorted(cat.live.items())}
        if not query:
            return list(rows.values())[:limit]
        index = self._files.word_index(cat, self._repo.store)
        return [{**rows[h.name], "score": h.score} for h in index.search(query, limit or 20)]

    def load_skill(self, name: str, request_id: object) -> Loaded:
        """The SKILL.md of the live skill `name` leads to; records one use of it."""
        cat = self.catalogue()
        skill, note = self._resolve(cat, name, request_id)
        try:
            text = self._files.data(self._repo.store, skill, skill.skill_md, capped=True).decode()
        except FileTooLarge as exc:
            raise Refused(f"{skill.name}: {exc}") from None
        except UnicodeDecodeError:
            raise Refused(f"{skill.name}: {skill.skill_md} is not UTF-8 text") from None
        support = tuple(
            self._support_file(skill, path)
            for path in sorted(skill.files)
            if path != skill.skill_md
        )
        self._record("use", skill, request_id)
        return Loaded(skill, self._uri(skill), text, support, note)

    def read_skill_file(self, name: str, path: str, request_id: object) -> FileRead:
        """One support file of the skill `name` leads to; records one view of the skill."""
        cat = self.catalogue()
        skill, _ = self._resolve(cat, name, request_id)
        read = self._read(skill, path)
        self._record("use" if read.path == skill.skill_md else "view", skill, request_id)
        return read

    # -- resources and the Skills extension --------------------------------------------------

    def resources(self) -> list[dict[str, Any]]:
        """The SKILL.md resource of every live skill served under skill:// (uri, name, ...)."""
        cat = self.catalogue()
        found = []
        for _, skill in sorted(cat.live.items()):
            uri = self._uri(skill)
            if uri is not None:
                fm = self._files.frontmatter(self._repo.store, skill) or {}
                description = fm.get("description")
                found.append(
                    {"uri": uri, "name": skill.name, "description": str(description or "")}
                )
        return found

    def read_resource(self, uri: str, request_id: object) -> FileRead:
        """The file at a skill:// URI; a SKILL.md read records a use, another file a view."""
        cat = self.catalogue()
        skill, path = self._at(cat, uri)
        read = self._read(skill, path)
        self._record("use" if read.path == skill.skill_md else "view", skill, request_id)
        return read

    def skill_entries(self, offset: int, count: int) -> tuple[list[dict[str, Any]], int | None]:
        """`skills/list`: entries of the skills from `offset`, and the next offset (or None)."""
        cat = self.catalogue()
        servable = [s for _, s in sorted(cat.live.items()) if self._uri(s) is not None]
        entries = []
        for skill in servable[offset : offset + count]:
            digests = self._digests(skill)
            if over_limits(digests) is None:
                entries.append(self._entry(skill, digests))
        end = offset + count
        return entries, end if end < len(servable) else None

    def skill_entry(self, uri: str, request_id: object) -> dict[str, Any]:
        """`skills/get`: the entry of the skill whose SKILL.md is at `uri`; records a use."""
        cat = self.catalogue()
        skill, path = self._at(cat, uri)
        if path != skill.skill_md:
            raise Refused(f"{uri} is not the SKILL.md of a skill; skills/get takes that URI")
        digests = self._digests(skill)
        why = over_limits(digests)
        if why is not None:
            raise Refused(f"{skill.name} is not served by the Skills extension: {why}")
        entry = self._entry(skill, digests)
        self._record("use", skill, request_id)
        return entry

    # -- helpers -----------------------------------------------------------------------------

    def _resolve(
        self, cat: Catalogue, name: str, request_id: object
    ) -> tuple[ServedSkill, str | None]:
        target = cat.names.get(name)
        skill = cat.live.get(target) if target else None
        if skill is not None and target is not None:
            if target == name:
                return skill, None
            how = "was folded into" if name in cat.absorbed else "is the frontmatter name of"
            return skill, f"`{name}` {how} `{target}`; this is `{target}`."
        if target is not None and target in cat.archived:
            # Not served, but kept as wanted: the next pass may propose to bring it back.
            self._record("use", target, request_id)
            what = name if target == name else f"{name} now points to {target}, which"
            raise Refused(
                f"{what} is archived (at {cat.archived[target]}) and not served; the request "
                "is noted as wanted, and a person brings it back with "
                f"`gitcurator restore {name_arg(target)}`"
            )
        raise Refused(f"no skill named {name} in this library; list_skills shows what it serves")

    def _at(self, cat: Catalogue, uri: str) -> tuple[ServedSkill, str]:
        found = uris.split_uri(uri, cat.by_path)
        skill = cat.by_path[found[0]] if found else None
        if found is None or skill is None or self._uri(skill) is None:
            raise Refused(f"no skill is served at {uri}")
        return skill, found[1]

    def _read(self, skill: ServedSkill, requested: str) -> FileRead:
        store = self._repo.store
        try:
            path = paths.resolve(
                requested,
                {p: mode for p, (_, mode) in skill.files.items()},
                lambda link: self._files.data(store, skill, link).decode("utf-8", "replace"),
            )
        except paths.PathRefused as exc:
            raise Refused(f"{skill.name}: {exc}") from None
        try:
            data = self._files.data(store, skill, path, capped=True)
        except FileTooLarge as exc:
            raise Refused(f"{skill.name}: {exc}") from None
        return FileRead(skill, path, uris.skill_uri(skill.skill_path, path), data, mime_type(path))

    def _uri(self, skill: ServedSkill, path: str | None = None) -> str | None:
        # The extension makes a skill URI's last segment its `name:`; a skill whose name
        # differs from its folder (which `validate` reports) is served by the tools only.
        fm = self._files.frontmatter(self._repo.store, skill)
        if fm is None or fm.get("name") != skill.name or "description" not in fm:
            return None
        return uris.skill_uri(skill.skill_path, path or skill.skill_md)

    def _row(self, skill: ServedSkill) -> dict[str, Any]:
        fm = self._files.frontmatter(self._repo.store, skill) or {}
        return {
            "name": skill.name,
            "description": str(fm.get("description") or ""),
            "path": skill.folder,
        }

    def _support_file(self, skill: ServedSkill, path: str) -> SupportFile:
        store = self._repo.store
        if skill.files[path][1] == paths.LINK_MODE:
            target = self._files.data(store, skill, path).decode("utf-8", "replace")
            return SupportFile(path, len(target), target)
        return SupportFile(path, self._files.size(store, skill, path))

    def _digests(self, skill: ServedSkill) -> list[FileDigest]:
        return [self._files.digest(self._repo.store, skill, p) for p in sorted(skill.files)]

    def _entry(self, skill: ServedSkill, digests: list[FileDigest]) -> dict[str, Any]:
        fm = self._files.frontmatter(self._repo.store, skill) or {}
        return skill_entry(lambda p: uris.skill_uri(skill.skill_path, p), fm, digests)

    def _record(self, kind: str, skill: ServedSkill | str, request_id: object) -> None:
        from gitcurator.telemetry.recording import UnknownSkill, record

        name = skill if isinstance(skill, str) else skill.name
        try:
            record(
                kind,
                [name],
                repo=self.root,
                source=SOURCE,
                event_id=self.event_id(request_id),
            )
        except (UnknownSkill, journal.JournalError, OSError) as exc:
            # The agent still gets its skill; the lost event is reported, not raised.
            self.warnings.append(f"{kind} of {name} was not recorded: {exc}")

    def drain_warnings(self) -> Iterator[str]:
        """The warnings gathered since the last call, once each."""
        while self.warnings:
            yield self.warnings.pop(0)
