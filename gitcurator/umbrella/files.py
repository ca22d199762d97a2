"""An umbrella's files: support files re-homed, demoted text written, the folder validated,
the content kept measured (pure; blobs come through a `load` callable)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from gitcurator.skills.check_skill import validate_skill
from gitcurator.skills.document import SKILL_FILE, SKILL_FILE_LOWER
from gitcurator.skills.files import FileEntry, SkillFiles
from gitcurator.umbrella.candidates import Candidate
from gitcurator.umbrella.paths import PathProblem, demote_target, rehomed_path, relink
from gitcurator.umbrella.retention import kept_units, retained

BlobId = TypeVar("BlobId", bound=bytes)

FILE_MODE = 0o100644
LINK_MODE = 0o120000
GITLINK_MODE = 0o160000
# Support files whose links are re-pointed when they move one folder deeper.
_TEXT_SUFFIXES = (".md", ".markdown", ".txt")


class Refused(Exception):
    """The umbrella breaks a rule; the message says which, in words."""


@dataclass(frozen=True, slots=True)
class Member(Generic[BlobId]):
    """A cluster member as stored: its text, frontmatter and files (path inside the folder
    -> (blob, mode))."""

    candidate: Candidate
    frontmatter: Mapping[str, Any]
    files: Mapping[str, tuple[BlobId, int]]

    @property
    def name(self) -> str:
        return self.candidate.name

    @property
    def folder(self) -> str:
        return self.candidate.path

    @property
    def text(self) -> str:
        return f"{self.candidate.description}\n\n{self.candidate.body}"

    @property
    def skill_file(self) -> str:
        """The name its SKILL.md has (a few libraries write skill.md)."""
        return SKILL_FILE_LOWER if SKILL_FILE not in self.files and self.has_lower else SKILL_FILE

    @property
    def has_lower(self) -> bool:
        return SKILL_FILE_LOWER in self.files

    def support(self) -> list[str]:
        """Its files other than SKILL.md, sorted."""
        return sorted(p for p in self.files if p not in (SKILL_FILE, SKILL_FILE_LOWER))

    def moves(self) -> dict[str, str]:
        """Its paths -> where they are under the umbrella (SKILL.md: the umbrella's own)."""
        found = {rel: rehomed_path(self.name, rel) for rel in self.support()}
        found[self.skill_file] = SKILL_FILE
        return found


def rehome(
    folder: str,
    named: Sequence[str],
    members: Mapping[str, Member[BlobId]],
    taken: set[str],
    load: Callable[[BlobId], bytes],
) -> tuple[dict[str, tuple[BlobId, int]], dict[str, bytes]]:
    """The folded skills' support files under the umbrella: stored blobs copied with their
    modes, and text files whose relative links had to be re-pointed (one folder deeper) as
    new content. `taken` holds the umbrella's paths already in use."""
    copies: dict[str, tuple[BlobId, int]] = {}
    rewritten: dict[str, bytes] = {}
    for skill in named:
        member = members[skill]
        moves = member.moves()
        for rel in member.support():
            blob, mode = member.files[rel]
            if mode in (LINK_MODE, GITLINK_MODE):
                kind = "a symlink" if mode == LINK_MODE else "a submodule"
                raise Refused(f"{member.folder}/{rel} is {kind}; re-home it by hand")
            path = f"{folder}/{moves[rel]}"
            if path in taken or path in copies or path in rewritten:
                raise Refused(f"re-homing {member.folder}/{rel} would overwrite {path}")
            new = _relinked(rel, moves, blob, mode, load, (member.folder, folder))
            if new is None:
                copies[path] = (blob, mode)
            else:
                rewritten[path] = new
    return copies, rewritten


def _relinked(
    rel: str,
    moves: Mapping[str, str],
    blob: Any,
    mode: int,
    load: Callable[[Any], bytes],
    folders: tuple[str, str],
) -> bytes | None:
    """A Markdown or text support file's new content if its links had to change."""
    if not rel.lower().endswith(_TEXT_SUFFIXES) or mode & 0o111:
        return None
    data = load(blob)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    old_dir, new_dir = posixpath.dirname(rel), posixpath.dirname(moves[rel])
    rebase = (_join(folders[0], old_dir), _join(folders[1], new_dir))
    changed = relink(text, moves, old_dir=old_dir, new_dir=new_dir, rebase=rebase)
    return changed.encode() if changed != text else None


def demoted(
    folder: str,
    demote: Sequence[tuple[str, str]],
    members: Mapping[str, Member[Any]],
    taken: set[str],
) -> dict[str, bytes]:
    """Demoted skills as Markdown files under the umbrella, links re-pointed."""
    writes: dict[str, bytes] = {}
    for skill, target in demote:
        try:
            to = demote_target(skill, target)
        except PathProblem as exc:
            raise Refused(str(exc)) from None
        path = f"{folder}/{to}"
        if path in taken or path in writes:
            raise Refused(f"demoting {skill} to {to} would overwrite a file of the umbrella")
        member = members[skill]
        new_dir = posixpath.dirname(to)
        rebase = (member.folder, _join(folder, new_dir))
        body = relink(member.candidate.body, member.moves(), new_dir=new_dir, rebase=rebase)
        text = f"# {skill}\n\n> {member.candidate.description.strip()}\n\n{body.strip()}\n"
        writes[path] = text.encode()
    return writes


def _join(folder: str, sub: str) -> str:
    return f"{folder}/{sub}" if sub else folder


def validate_folder(
    folder: str,
    skill_md: str,
    files: Mapping[str, tuple[bytes | None, Any, int]],
    paths: frozenset[str],
    load: Callable[[Any], bytes],
) -> None:
    """The umbrella folder as it would be, checked by the same rules as `validate`.

    `files` maps each path to (new content or None, stored blob, mode)."""
    entries = []
    for path, (data, blob, mode) in sorted(files.items()):
        content = data if data is not None else load(blob)
        if mode == LINK_MODE:
            target = content.decode("utf-8", "surrogateescape")
            entries.append(FileEntry(path, len(content), link_target=target))
        else:
            entries.append(
                FileEntry(path, len(content), executable=bool(mode & 0o111), data=content)
            )
    skill = SkillFiles(folder, skill_md, tuple(entries))
    # The host's file name is the host's (a few libraries write skill.md): the pass keeps it,
    # and judges only what it writes.
    errors = [
        f.message
        for f in validate_skill(skill, repo_paths=paths)
        if f.level == "error" and f.rule != "lowercase-file"
    ]
    if errors:
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        raise Refused(f"the umbrella's SKILL.md would not validate: {'; '.join(errors[:3])}{more}")


def retention_of(
    absorb: Sequence[str],
    demote: Sequence[tuple[str, str]],
    host: Member[Any] | None,
    members: Mapping[str, Member[Any]],
    kept_in: Sequence[str],
) -> dict[str, float]:
    """Share of each folded skill's content (and the host's own) kept in the umbrella."""
    have = kept_units(kept_in)
    found = {s: retained(members[s].text, have) for s in absorb}
    found.update({s: retained(members[s].text, have) for s, _ in demote})
    if host is not None:
        found[host.name] = retained(host.text, have)
    return dict(sorted(found.items()))
